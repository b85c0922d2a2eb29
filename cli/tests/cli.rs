//! The `kifu` binary as a process: exit codes, stdin/stdout, stderr format, files.

use assert_cmd::Command;
use predicates::prelude::*;
use std::process::Stdio;

fn kifu() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

const GAME: &str = "(;GM[1]SZ[9]PB[Ann]PW[Bo];B[ee];W[cc])";

#[test]
fn stdin_to_stdout() {
    kifu()
        .args(["convert", "-f", "sgf", "-t", "sgf"])
        .write_stdin(GAME)
        .assert()
        .success()
        .stdout("(;FF[4]CA[UTF-8]GM[1]SZ[9]PB[Ann]PW[Bo]\n;B[ee];W[cc])\n")
        .stderr("");
}

#[test]
fn format_sniffed_from_content_on_stdin() {
    kifu().args(["convert", "-"]).write_stdin(GAME).assert().success().stdout(predicate::str::starts_with("(;FF[4]"));
}

#[test]
fn unknown_content_says_how_to_name_a_format() {
    kifu().arg("convert").write_stdin("hello world").assert().code(65).stderr(predicate::str::contains("-f FORMAT"));
}

#[test]
fn diagnostics_go_to_stderr_with_file_line_col() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("broken.sgf");
    std::fs::write(&input, "junk\n(;GM[1];B[aa]").unwrap();
    let name = input.display().to_string();
    kifu().args(["convert", &name]).assert().success().stdout("(;FF[4]CA[UTF-8]GM[1]\n;B[aa])\n").stderr(
        predicate::str::contains(format!("{name}:1:1: warning[sgf.text-before]:"))
            .and(predicate::str::contains(format!("{name}:2:14: error[sgf.missing-close]:"))),
    );
    // -q keeps errors, hides warnings
    kifu()
        .args(["convert", "-q", &name])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not().and(predicate::str::contains("error[sgf.missing-close]")));
    // --strict turns them into exit code 3
    kifu().args(["convert", "--strict", &name]).assert().code(3);
}

#[test]
fn output_file_is_never_clobbered_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sgf");
    let o = out.display().to_string();
    kifu().args(["convert", "-o", &o]).write_stdin(GAME).assert().success().stdout("");
    let first = std::fs::read(&out).unwrap();
    kifu()
        .args(["convert", "-o", &o])
        .write_stdin("(;GM[1])")
        .assert()
        .code(73)
        .stderr(predicate::str::contains("--force"));
    assert_eq!(std::fs::read(&out).unwrap(), first);
    kifu().args(["convert", "--force", "-o", &o]).write_stdin("(;GM[1])").assert().success();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "(;FF[4]CA[UTF-8]GM[1])\n");
}

#[test]
fn output_onto_its_own_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("same.sgf");
    std::fs::write(&p, GAME).unwrap();
    let s = p.display().to_string();
    kifu().args(["convert", &s, "-o", &s, "--force"]).assert().code(73);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), GAME);
}

#[test]
fn missing_input_is_66() {
    kifu().args(["convert", "/nonexistent/x.sgf"]).assert().code(66).stderr(predicate::str::contains("cannot read"));
}

#[test]
fn unreadable_data_is_65() {
    kifu()
        .args(["convert", "-f", "sgf"])
        .write_stdin("no game here")
        .assert()
        .code(65)
        .stderr(predicate::str::contains("sgf.no-game"));
}

#[test]
fn usage_errors_are_2() {
    kifu().args(["convert", "-t", "nope"]).assert().code(2).stderr(predicate::str::contains("unknown format"));
    kifu().args(["convert", "--encoding", "klingon"]).write_stdin(GAME).assert().code(2);
    kifu().arg("frobnicate").assert().code(2);
}

#[test]
fn output_directory_missing_is_73() {
    kifu().args(["convert", "-o", "/nonexistent-dir/out.sgf"]).write_stdin(GAME).assert().code(73);
}

#[test]
fn formats_lists_read_and_write() {
    kifu().arg("formats").assert().success().stdout(
        predicate::str::contains("sgf").and(predicate::str::contains("yes")).and(predicate::str::contains(".sgf")),
    );
}

#[test]
fn help_everywhere() {
    kifu().arg("--help").assert().success().stdout(predicate::str::contains("Exit codes"));
    kifu().args(["convert", "--help"]).assert().success().stdout(predicate::str::contains("--from"));
    kifu().args(["formats", "--help"]).assert().success();
}

#[test]
fn broken_pipe_ends_quietly() {
    // A large output into a pipe closed after the first line.
    let mut big = String::from("(;GM[1]");
    for i in 0..200_000 {
        big.push_str(if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" });
    }
    big.push(')');
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.sgf");
    std::fs::write(&input, big).unwrap();
    let bin = assert_cmd::cargo::cargo_bin!("kifu");
    let mut child = std::process::Command::new(bin)
        .args(["convert", input.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn every_fixture_sniffs_as_its_own_format() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("fixtures");
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        // fixtures/check holds expected `kifu check` reports (JSON Lines), not game records.
        if path.starts_with(root.join("check")) && path.extension().is_none_or(|e| e != "sgf") {
            continue;
        }
        // fixtures/policy holds inputs named for another format on purpose.
        if path.starts_with(root.join("policy")) {
            continue;
        }
        let Some(by_ext) = kifu::Format::from_path(path) else { continue };
        // Expected outputs and inputs authored to be malformed on purpose still carry their
        // format's signature.
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(kifu::Format::sniff(&bytes), Some(by_ext), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 10);
    // And the real files, when the shared folder is there.
    let shared = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("../shared/samples");
    if !shared.exists() {
        eprintln!("note: {} is absent; real-file sniffing skipped", shared.display());
        return;
    }
    for entry in walkdir::WalkDir::new(&shared).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        let Some(by_ext) = kifu::Format::from_path(path) else { continue };
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(kifu::Format::sniff(&bytes), Some(by_ext), "{}", path.display());
    }
}

#[test]
fn split_without_a_folder_says_split_needs_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("one.sgf");
    std::fs::write(&input, format!("{GAME}{GAME}")).unwrap();
    kifu()
        .args(["convert", input.to_str().unwrap(), "--split"])
        .assert()
        .code(2)
        .stderr("kifu: --split's numbered files (one per game) need an output folder: give -O DIR (or --in-place to write beside the inputs)\n");
}

#[test]
fn empty_input_is_called_empty() {
    for cmd in [&["convert"][..], &["info", "-"], &["diagram", "-t", "text"]] {
        kifu().args(cmd).write_stdin("").assert().code(65).stderr(predicate::str::contains("the input is empty"));
    }
    kifu()
        .args(["check", "-"])
        .write_stdin(" \n")
        .assert()
        .code(65)
        .stdout(predicate::str::contains("the input is empty"));
}

#[test]
fn info_header_names_the_columns_as_the_values_are_written() {
    let out = kifu().args(["info", "-"]).write_stdin(GAME).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let values: Vec<&str> = lines.next().unwrap().split('\t').collect();
    for (h, v) in header.iter().zip(&values) {
        if let Some((key, _)) = v.split_once('=') {
            assert!(h.starts_with(&format!("{key}=")), "{h} over {v}");
        }
    }
    assert_eq!(values[4], "B=Ann");
}

#[test]
fn a_charset_that_cannot_hold_a_character_is_named_as_the_trouble() {
    kifu()
        .args(["convert", "-f", "sgf", "--encoding", "shift_jis"])
        .write_stdin("(;GM[1]FF[4]SZ[9]PB[한국];B[ee])")
        .assert()
        .code(4)
        .stdout("")
        .stderr(predicate::str::contains("nothing written: the output charset cannot hold some characters"));
}

#[test]
fn the_empty_view_draws_the_whole_board_without_a_warning() {
    kifu()
        .args(["diagram", "-f", "sgf", "-t", "text"])
        .write_stdin("(;GM[1]FF[4]SZ[9]VW[aa:cc];B[ee]VW[])")
        .assert()
        .success()
        .stderr("");
}
