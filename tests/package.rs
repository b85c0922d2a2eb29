//! The published crate: `cargo package --list` carries the sources, the specifications, the
//! licences and every fixture the tests read, and nothing of CI or the repository notes.

use std::path::Path;
use std::process::Command;

#[test]
fn package_carries_sources_specs_and_fixtures_not_ci() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .args(["package", "-p", "kifu", "--list", "--allow-dirty", "--offline"])
        .current_dir(root)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo package --list failed: {}", String::from_utf8_lossy(&out.stderr));
    let list = String::from_utf8(out.stdout).unwrap();
    let files: Vec<&str> = list.lines().collect();
    for want in ["Cargo.toml", "Cargo.lock", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "src/lib.rs"] {
        assert!(files.contains(&want), "{want} is not packaged");
    }
    // Every specification, and every fixture the tests read (all of fixtures/).
    for dir in ["formats", "fixtures", "tests", "examples"] {
        for entry in walkdir::WalkDir::new(root.join(dir)).into_iter().filter_map(Result::ok) {
            if entry.file_type().is_file() {
                let rel = entry.path().strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                assert!(files.contains(&rel.as_str()), "{rel} is not packaged");
            }
        }
    }
    // The library only: the command is its own package (cli/).
    for not in [".ci/", "docs/", "target/", ".git/", "cli/", "src/main.rs"] {
        assert!(!files.iter().any(|f| f.starts_with(not)), "{not} is packaged");
    }
}
