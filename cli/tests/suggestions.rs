//! A misspelt format or charset gets a suggestion; the accepted charset labels can be listed.

use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");
const GAME: &str = "(;GM[1]FF[4]SZ[9];B[ee])";

/// Runs `kifu ARGS` on a small game; exit code and standard error.
fn run(args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.sgf"), GAME).unwrap();
    let out = Command::new(KIFU).args(args).current_dir(dir.path()).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_misspelt_format_gets_the_close_name() {
    let (code, stderr) = run(&["convert", "g.sgf", "-t", "sfg"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("kifu: unknown format 'sfg'; did you mean 'sgf'? (known: sgf,"), "{stderr}");
    let (code, stderr) = run(&["convert", "g.sgf", "-f", "ugg"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean 'ugf'?"), "{stderr}");
}

#[test]
fn a_picture_kind_points_to_kifu_diagram() {
    for kind in ["svg", "png", "PNG"] {
        let (code, stderr) = run(&["convert", "g.sgf", "-t", kind]);
        assert_eq!(code, 2);
        assert!(stderr.contains("`kifu diagram FILE -t"), "{stderr}");
    }
    let (code, stderr) = run(&["diagram", "g.sgf", "-t", "sgv", "-o", "x.svg"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean 'svg'?"), "{stderr}");
}

#[test]
fn a_misspelt_charset_gets_close_labels_and_the_list_is_one_command_away() {
    let (code, stderr) = run(&["convert", "g.sgf", "--encoding", "ecu-kr"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("did you mean 'EUC-KR'?") && stderr.contains("kifu formats --encodings"), "{stderr}");
    let (_, stderr) = run(&["convert", "g.sgf", "--from-encoding", "shift-jsi"]);
    assert!(stderr.contains("did you mean 'Shift_JIS'?"), "{stderr}");
    let out = Command::new(KIFU).args(["formats", "--encodings"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.lines().any(|l| l.starts_with("EUC-KR") && l.contains("cp949")), "{text}");
    // every label listed is accepted: written, or refused at writing when marked read only
    for line in text.lines().skip(2) {
        let read_only = line.ends_with("(read only)");
        let labels = line.trim_end_matches("(read only)").split([' ', ',']).filter(|w| !w.is_empty());
        for label in labels {
            let (code, stderr) = run(&["convert", "g.sgf", "--encoding", label, "--lossy", "-o", "out.sgf"]);
            if read_only {
                assert!(code != 2 && stderr.contains("charset.unwritable"), "{label}: {stderr}");
            } else {
                assert_eq!(code, 0, "{label}: {stderr}");
            }
        }
    }
    assert!(text.lines().any(|l| l.starts_with("ISO-2022-JP") && l.ends_with("(read only)")), "{text}");
    let json = Command::new(KIFU).args(["formats", "--encodings", "--json"]).output().unwrap();
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8(json.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(first["name"], "UTF-8");
}
