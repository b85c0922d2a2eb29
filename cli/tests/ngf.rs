//! The command on ngf inputs (the library side is in the root package's tests/ngf.rs).

use kifu::{Format, ReadOptions, WriteOptions};
use pretty_assertions::assert_eq;

fn ngf() -> Format {
    Format::from_name("ngf").expect("ngf is registered")
}

#[test]
fn writer_reports_lossy_items_and_strict_fails() {
    let sgf = "(;GM[1]SZ[19]PB[Kim]PW[Lee]KM[6.5]RE[B+R]EV[Cup];B[pd]C[nice](;W[dd]LB[dd:A];B[pp])(;W[dp]))";
    let c = Format::SGF.read(sgf.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection;
    let out = ngf().write(&c, &WriteOptions::default()).unwrap();
    let messages: Vec<&str> =
        out.diagnostics.iter().filter(|d| d.severity != kifu::Severity::Info).map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "root property EV not written",
            "move 1: comment not written",
            "move 1: variation of 1 node(s) after it not written",
            "move 2: property LB not written",
        ]
    );
    assert!(out.diagnostics.iter().all(|d| d.code == "ngf.lossy" || d.code == "ngf.implied"));
    let text = String::from_utf8(out.bytes).unwrap();
    assert_eq!(text.lines().nth(10), Some("Black wins by resignation!"));
    assert!(text.ends_with("3\nPMABBQEEQ\nPMACWEEEE\nPMADBQQQQ\n"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.sgf");
    std::fs::write(&input, sgf).unwrap();
    let out = dir.path().join("out.ngf");
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", "--strict", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(3);
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", "--encoding", "cp949"])
        .arg(&input)
        .args(["-t", "ngf"])
        .assert()
        .success()
        .stderr(predicates::str::contains("ngf.lossy"));
}
