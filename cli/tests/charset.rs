//! The command on inputs in legacy charsets (the library side is in the root package's
//! tests/charset.rs).

use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("fixtures/charset").join(name)
}

#[test]
fn cli_reports_the_decision_and_writes_legacy_charsets() {
    use predicates::str::contains;
    let input = fixture("lying-ca-utf8-on-cp949.sgf");
    // -v shows the decision as an info note, next to the mismatch warning.
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", "-v"])
        .arg(&input)
        .assert()
        .success()
        .stderr(contains("info[charset.decided]: charset EUC-KR (detected"))
        .stderr(contains("warning[charset.mismatch]"))
        .stdout(contains("CA[UTF-8]"))
        .stdout(contains("PB[이창호]"));
    // --encoding writes the charset with a matching CA.
    let out = assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", "--encoding", "cp949"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = encoding_rs::EUC_KR.decode_without_bom_handling_and_without_replacement(&out.stdout).unwrap();
    assert!(text.contains("CA[EUC-KR]") && text.contains("PB[이창호]"), "{text}");
    // A character Shift_JIS cannot hold is an error naming it and its place, unless --lossy.
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", "--encoding", "Shift_JIS"])
        .arg(&input)
        .assert()
        .code(4)
        .stderr(contains("<stdout>:1:"))
        .stderr(contains("error[charset.unmappable]: character '이' (U+C774) cannot be written in Shift_JIS"));
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .args(["convert", "--encoding", "Shift_JIS", "--lossy"])
        .arg(&input)
        .assert()
        .success()
        .stderr(contains("warning[charset.unmappable]"));
}

#[test]
fn cli_info_shows_one_line_per_game_with_the_charset() {
    let out = assert_cmd::cargo::cargo_bin_cmd!("kifu")
        .arg("info")
        .arg(fixture("big5-noca-trail5d.sgf"))
        .arg(fixture("utf16le-bom.sgf"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Vec<&str>> = stdout.lines().skip(1).map(|l| l.split('\t').skip(1).collect()).collect();
    assert!(stdout.starts_with("FILE\tGAME\t"), "a header line first");
    assert_eq!(
        lines,
        [
            ["1", "sgf", "Big5 (detected)", "B=許功因", "W=陳因許", "RE=", "moves=2"],
            ["1", "sgf", "UTF-16LE (bom)", "B=藤沢秀行", "W=Éric", "RE=", "moves=1"],
        ]
    );
}
