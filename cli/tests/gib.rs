//! The command on gib inputs (the library side is in the root package's tests/gib.rs).

use kifu::formats::gib::codes;
use kifu::{Format, ReadOptions, Severity};
use std::path::Path;

fn gib() -> Format {
    Format::from_name("gib").expect("gib is registered")
}

#[test]
fn strict_turns_lossy_writes_into_failure() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("v.sgf");
    std::fs::write(&input, "(;GM[1];B[pd]C[note])").unwrap();
    let out = dir.path().join("v.gib");
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--strict"])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("gib.lossy-comment"));
    let gib_back = std::fs::read(&out).unwrap();
    assert!(gib_back.starts_with(b"\\HS\r\n"));
}

#[test]
fn end_of_game_records_fail_neither_check_nor_strict() {
    // Valid server files with REM, IDX and DSC records (issue 19): kept with an info note, so
    // `check` and `convert --strict` succeed.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    let tmp = tempfile::tempdir().unwrap();
    for (name, kept) in
        [("modern-infomain.gib", "XGIBREC[REM 0 7]"), ("mangled-userinfo.gib", "XGIBREC[IDX 0 5][DSC 0 6]")]
    {
        let input = dir.join(name);
        assert_cmd::cargo::cargo_bin_cmd!("kifu").args(["check", input.to_str().unwrap()]).assert().success();
        let out = tmp.path().join(name).with_extension("sgf");
        assert_cmd::cargo::cargo_bin_cmd!("kifu")
            .args(["convert", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--strict"])
            .assert()
            .success();
        let sgf = std::fs::read_to_string(&out).unwrap();
        assert!(sgf.contains(kept), "{name}: {sgf}");
        let back = gib().read(std::fs::read(&input).unwrap(), &ReadOptions::default()).unwrap();
        let notes: Vec<_> = back.diagnostics.iter().filter(|d| d.code == codes::KEPT_RECORD).collect();
        assert!(!notes.is_empty() && notes.iter().all(|d| d.severity == Severity::Info), "{:?}", back.diagnostics);
    }
}
