//! The command writing NGF (the library side is in the root package's tests/ngf_writer.rs).

use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("fixtures/ngf").join(name)
}

#[test]
fn a_board_the_reader_refuses_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one.ngf");
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", fixture("writer-size1.sgf").to_str().unwrap(), "-o", out.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicates::str::contains("error[ngf.lossy]: NGF holds square boards from 2x2"));
    assert!(!out.exists());
}
