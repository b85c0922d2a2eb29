//! The command on kifu JSON (the library side is in the root package's tests/json.rs).

use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
}

#[test]
fn cli_writes_json_and_reads_it_back_by_content() {
    let sgf = manifest().join("fixtures/json/tour.expected.sgf");
    let direct = assert_cmd::cargo::cargo_bin_cmd!("kifu").args(["convert", "-t", "sgf"]).arg(&sgf).output().unwrap();
    assert!(direct.status.success());
    for to in ["json", "ndjson"] {
        let out = assert_cmd::cargo::cargo_bin_cmd!("kifu").args(["convert", "-t", to]).arg(&sgf).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        assert!(text.contains("\"charset\":{\"name\":\"UTF-8\",\"source\":\"declared\"}"), "{to}");
        // From standard input, with no name: the format is found by content.
        let back = assert_cmd::cargo::cargo_bin_cmd!("kifu")
            .args(["convert", "-t", "sgf"])
            .write_stdin(out.stdout)
            .output()
            .unwrap();
        assert!(back.status.success(), "{}", String::from_utf8_lossy(&back.stderr));
        assert_eq!(String::from_utf8(back.stdout).unwrap(), String::from_utf8(direct.stdout.clone()).unwrap());
    }
}
