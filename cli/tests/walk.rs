//! One walk for every command that takes inputs (formats/cli.md, "Inputs" and "The total line"):
//! `check`, `info`, `convert` and `diagram` take the same records from the same tree (folders
//! with `-r`, `--include`, `--exclude`, a zip and a tar.gz met in the walk), count the same files
//! ignored and end with the same total line; a folder without `-r` is a usage error naming `-r`.
//! Several inputs with no destination go to standard output as one collection, in the order
//! given (formats/cli.md, "Several inputs to standard output").

use pretty_assertions::assert_eq;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

const ANN: &str = "(;GM[1]FF[4]SZ[9]PB[Ann]PW[Bob];B[ee];W[cc])";
const PAIR: &str = "(;GM[1]FF[4]SZ[9]PB[Cat]PW[Dan];B[ee])(;GM[1]FF[4]SZ[9]PB[Eve]PW[Fay];B[dd])";
const ZIPPED: &str = "(;GM[1]FF[4]SZ[9]PB[Gus]PW[Hal];B[gg])";
const TARRED: &str = "(;GM[1]FF[4]SZ[9]PB[Ida]PW[Jon];B[cg])";
const SKIPPED: &str = "(;GM[1]FF[4]SZ[9]PB[Kim]PW[Lee];B[gc])";

fn gib() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/gib/even-passes.gib")).unwrap()
}

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn tar_gz_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut tar = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        tar.append_data(&mut header, name, *bytes).unwrap();
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar.into_inner().unwrap()).unwrap();
    gz.finish().unwrap()
}

/// `in/`: two SGF files, a GIB, a note, a folder to exclude, a zip (a record and a README) and a
/// tar.gz (a record). Six records in all, two other files.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let put = |rel: &str, bytes: &[u8]| {
        let p = dir.path().join("in").join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    put("club/a.sgf", ANN.as_bytes());
    put("club/b.sgf", PAIR.as_bytes());
    put("tygem/x.gib", &gib());
    put("notes.txt", b"not a game record");
    put("skip/c.sgf", SKIPPED.as_bytes());
    put("games.zip", &zip_of(&[("z/one.sgf", ZIPPED.as_bytes()), ("README", b"read me")]));
    put("more.tar.gz", &tar_gz_of(&[("t/two.sgf", TARRED.as_bytes())]));
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = kifu().current_dir(dir).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

const WALKED: [&str; 6] = [
    "in/club/a.sgf",
    "in/club/b.sgf",
    "in/games.zip!/z/one.sgf",
    "in/more.tar.gz!/t/two.sgf",
    "in/skip/c.sgf",
    "in/tygem/x.gib",
];

#[test]
fn check_and_info_walk_folders_and_archives_in_path_order() {
    let dir = tree();
    let (code, stdout, stderr) = run(dir.path(), &["info", "-r", "in"]);
    assert_eq!(code, 0, "{stderr}");
    let files: Vec<&str> = stdout.lines().skip(1).map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(files, [&["in/club/a.sgf", "in/club/b.sgf", "in/club/b.sgf"][..], &WALKED[2..]].concat());
    assert!(stdout.contains("in/games.zip!/z/one.sgf\t1\tsgf\t") && stdout.contains("B=Gus"), "{stdout}");
    assert_eq!(
        stderr.lines().last().unwrap(),
        "kifu: 6 inputs: 6 ok, 0 with warnings, 0 repaired with errors, 0 failed, 0 skipped; 2 other files ignored"
    );

    let (code, stdout, stderr) = run(dir.path(), &["check", "-r", "in", "--json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let summaries: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["type"] == "summary")
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(summaries, WALKED);
    assert_eq!(
        stderr.lines().last().unwrap(),
        "kifu: 6 inputs: 6 ok, 0 with warnings, 0 with errors, 0 failed, 0 skipped; 2 other files ignored"
    );
}

#[test]
fn include_and_exclude_pick_the_same_files_for_every_command() {
    let dir = tree();
    let (_, stdout, stderr) = run(dir.path(), &["info", "-r", "in", "--exclude", "skip", "--include", "*.sgf"]);
    let files: Vec<&str> = stdout.lines().skip(1).map(|l| l.split('\t').next().unwrap()).collect();
    // The archives' own paths are matched, not their members: both are left out with the GIB.
    assert_eq!(files, ["in/club/a.sgf", "in/club/b.sgf", "in/club/b.sgf"]);
    let total = stderr.lines().last().unwrap().to_string();
    assert!(total.starts_with("kifu: 2 inputs: 2 ok"), "{total}");
    let (_, _, check) = run(dir.path(), &["check", "-r", "in", "--exclude", "skip", "--include", "*.sgf"]);
    let (_, _, convert) = run(dir.path(), &["convert", "-r", "in", "--exclude", "skip", "--include", "*.sgf"]);
    // The same inputs and the same files ignored (the skip folder is not walked at all).
    let ignored = |s: &str| s.lines().last().unwrap().split("; ").nth(1).map(str::to_string);
    assert_eq!(ignored(&total), Some("4 other files ignored".to_string()));
    assert_eq!(ignored(&check), ignored(&total), "{check}");
    assert_eq!(ignored(&convert), ignored(&total), "{convert}");
}

#[test]
fn a_folder_without_r_is_a_usage_error_naming_r() {
    let dir = tree();
    for (command, verb) in [("check", "check"), ("info", "describe"), ("convert", "convert")] {
        let (code, stdout, stderr) = run(dir.path(), &[command, "in"]);
        assert_eq!(code, 2, "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(stderr.contains("in is a folder; give -r to ") && stderr.contains(verb), "{command}: {stderr}");
        assert!(!stderr.contains("io.unreadable"), "{stderr}");
        assert!(stdout.is_empty(), "{command}: {stdout}");
    }
}

#[test]
fn missing_inputs_fail_alone_with_66_and_among_others_with_1() {
    let dir = tree();
    let (code, _, _) = run(dir.path(), &["check", "in/nothing.sgf"]);
    assert_eq!(code, 66);
    let (code, stdout, stderr) = run(dir.path(), &["check", "in/nothing.sgf", "in/club/a.sgf"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("in/club/a.sgf: 1 game: structure clean"), "{stdout}");
    assert!(
        stderr.ends_with("kifu: 2 inputs: 1 ok, 0 with warnings, 0 with errors, 1 failed, 0 skipped\n"),
        "{stderr}"
    );
    let (code, _, stderr) = run(dir.path(), &["info", "in/nothing.sgf", "in/club/a.sgf"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("in/nothing.sgf: error[io.unreadable]: cannot read the file"), "{stderr}");
}

#[test]
fn diagram_draws_every_walked_record_and_member_with_o_dir() {
    let dir = tree();
    let (code, _, stderr) = run(dir.path(), &["diagram", "-r", "in", "-O", "pictures", "-t", "svg"]);
    assert_eq!(code, 0, "{stderr}");
    let mut drawn: Vec<String> = walkdir::WalkDir::new(dir.path().join("pictures"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir.path().join("pictures")).unwrap().display().to_string())
        .collect();
    drawn.sort();
    assert_eq!(
        drawn,
        ["club/a.svg", "club/b.svg", "games.zip/z/one.svg", "more.tar.gz/t/two.svg", "skip/c.svg", "tygem/x.svg"]
    );
    assert!(stderr.lines().last().unwrap().starts_with("kifu: 6 inputs: 6 ok"), "{stderr}");
    // Without -O, several pictures have nowhere to go.
    let (code, _, stderr) = run(dir.path(), &["diagram", "-r", "in", "-t", "svg"]);
    assert_eq!(code, 2, "{stderr}");
}

/// The names of the black players in an SGF collection, in order.
fn blacks(sgf: &str) -> Vec<String> {
    sgf.match_indices("PB[").map(|(at, _)| sgf[at + 3..].split(']').next().unwrap().to_string()).collect()
}

#[test]
fn several_inputs_go_to_standard_output_in_the_order_given() {
    let dir = tree();
    // As `cat`: the inputs in the order named, each folder's files in path order.
    let (code, stdout, stderr) = run(dir.path(), &["convert", "in/club/b.sgf", "in/games.zip", "in/club/a.sgf"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(blacks(&stdout), ["Cat", "Eve", "Gus", "Ann"]);
    assert!(stderr.contains("written to standard output"), "{stderr}");
    assert!(stderr.lines().last().unwrap().starts_with("kifu: 3 inputs: 3 ok"), "{stderr}");
    // A walk, too; and `--merge -` says the same.
    let (code, walked, _) = run(dir.path(), &["convert", "-r", "in", "--exclude", "*.gib"]);
    assert_eq!(code, 0);
    assert_eq!(blacks(&walked), ["Ann", "Cat", "Eve", "Gus", "Ida", "Kim"]);
    let (code, merged, _) = run(dir.path(), &["convert", "-r", "in", "--exclude", "*.gib", "--merge", "-"]);
    assert_eq!((code, &merged), (0, &walked));
    assert!(!dir.path().join("-").exists(), "--merge - writes no file named -");
    // NDJSON: one line per game; JSON: one document holding every game.
    let (_, ndjson, _) = run(dir.path(), &["convert", "in/club/a.sgf", "in/club/b.sgf", "-t", "ndjson"]);
    let lines: Vec<Value> = ndjson.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let black = |g: &Value| g["info"]["black"].as_str().unwrap().to_string();
    assert_eq!(lines.iter().map(black).collect::<Vec<_>>(), ["Ann", "Cat", "Eve"]);
    let (_, json, _) = run(dir.path(), &["convert", "in/club/a.sgf", "in/club/b.sgf", "-t", "json"]);
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["games"].as_array().unwrap().iter().map(black).collect::<Vec<_>>(), ["Ann", "Cat", "Eve"]);
}

#[test]
fn formats_of_one_game_per_file_refuse_standard_output() {
    let dir = tree();
    for to in ["gib", "ngf", "ugf"] {
        let (code, stdout, stderr) = run(dir.path(), &["convert", "in/club/a.sgf", "in/skip/c.sgf", "-t", to]);
        assert_eq!(code, 2, "{to}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(
            stderr,
            format!(
                "kifu: {to} holds one game per file: several inputs cannot go to standard output as one {to} file; \
                 give -O DIR (or -t sgf, -t ndjson)\n"
            )
        );
    }
    // The report cannot share standard output with the games.
    let (code, _, stderr) = run(dir.path(), &["convert", "in/club/a.sgf", "in/skip/c.sgf", "--report", "-"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--report FILE"), "{stderr}");
    // With -O, one game per file is what those formats do.
    let (code, _, stderr) = run(dir.path(), &["convert", "in/club/a.sgf", "in/skip/c.sgf", "-t", "gib", "-O", "o"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(PathBuf::from(dir.path()).join("o/a.gib").exists());
}

/// A link met in a walk is an input skipped (a note), counted alike by every command; `-L`
/// follows it.
#[cfg(unix)]
#[test]
fn links_are_skipped_unless_followed_in_every_command() {
    let dir = tree();
    std::os::unix::fs::symlink("../club/a.sgf", dir.path().join("in/skip/link.sgf")).unwrap();
    let args = ["-r", "in/skip"];
    for command in ["check", "info", "convert"] {
        let (code, _, stderr) = run(dir.path(), &[&[command][..], &args].concat());
        assert_eq!(code, 0, "{command}: {stderr}");
        if command == "check" {
            let (_, stdout, _) = run(dir.path(), &["check", "-r", "in/skip"]);
            assert!(stdout.contains("in/skip/link.sgf: no game read: structure skipped; 0 errors"), "{stdout}");
        }
        let total = stderr.lines().last().unwrap();
        assert!(
            total.starts_with("kifu: 2 inputs: 1 ok") && total.ends_with("0 failed, 1 skipped"),
            "{command}: {stderr}"
        );
        let (code, stdout, stderr) = run(dir.path(), &[&[command, "-L"][..], &args].concat());
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(stderr.lines().last().unwrap().starts_with("kifu: 2 inputs: 2 ok"), "{command} -L: {stderr}");
        if command == "convert" {
            assert_eq!(blacks(&stdout), ["Kim", "Ann"]);
        }
    }
}
