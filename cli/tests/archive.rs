//! Containers as inputs (formats/archives.md), run as a process: a zip (stored and deflated), a
//! tar.gz and a `.gz` of one SGF converted with `-r -O` (outputs mirror the member paths), shown by
//! `kifu info` and `kifu check` as `archive.zip!/inner/path`; hostile members (`../`, absolute
//! paths, a bomb, an archive inside) refused with a diagnostic, nothing written outside `-O`.
//! The archives are built here with the crates kifu reads them with.

use pretty_assertions::assert_eq;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

fn gib(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/gib")).join(name)).unwrap()
}

const GIBS: [&str; 3] = ["even-passes.gib", "handicap5-gbk.gib", "korean-euc-kr.gib"];

fn zip_of(files: &[(&str, &[u8])], deflate: bool) -> Vec<u8> {
    let method = if deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A tar whose member names are written raw (as a hostile tool would), gzipped.
fn tar_gz(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut tar = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        header.set_cksum();
        tar.append(&header, *bytes).unwrap();
    }
    gz(&tar.into_inner().unwrap())
}

fn gib_files(prefix: &str) -> Vec<(String, Vec<u8>)> {
    GIBS.iter().map(|n| (format!("{prefix}{n}"), gib(n))).collect()
}

fn refs(files: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect()
}

/// in/stored.zip (club/…), in/deflated.zip, in/sub/games.tgz (x/…), in/one.sgf.gz, in/note.txt.
fn archives() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("stored.zip"), zip_of(&refs(&gib_files("club/")), false)).unwrap();
    let mut deflated = gib_files("");
    deflated.push(("README.txt".into(), b"not a game".to_vec()));
    std::fs::write(input.join("deflated.zip"), zip_of(&refs(&deflated), true)).unwrap();
    std::fs::write(input.join("sub/games.tgz"), tar_gz(&refs(&gib_files("x/")))).unwrap();
    std::fs::write(input.join("one.sgf.gz"), gz(b"(;GM[1]SZ[9]PB[Gz];B[ee])")).unwrap();
    std::fs::write(input.join("note.txt"), "not a game").unwrap();
    (dir, input)
}

fn report(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Every file under `dir`, relative, `/`-separated, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    out.sort();
    out
}

#[test]
fn a_walk_converts_every_member_and_mirrors_member_paths() {
    let (dir, input) = archives();
    let out = dir.path().join("out");
    let run = kifu().args(["convert", "-r", "--report", "-", "-O"]).arg(&out).arg(&input).assert().success();
    let records = report(&run.get_output().stdout);
    let mut want = Vec::new();
    for n in GIBS {
        let stem = n.trim_end_matches(".gib");
        want.push(format!("deflated.zip/{stem}.sgf"));
        want.push(format!("stored.zip/club/{stem}.sgf"));
        want.push(format!("sub/games.tgz/x/{stem}.sgf"));
    }
    want.push("one.sgf.gz/one.sgf".to_string());
    want.sort();
    assert_eq!(tree(&out), want);
    // Each member is its own input, named archive!/inner, read as GIB: no NUL, no one big game.
    let files: Vec<&Value> = records.iter().filter(|r| r["type"] == "file").collect();
    assert_eq!(files.len(), 10);
    let first = files.iter().find(|r| r["input"].as_str().unwrap().ends_with("stored.zip!/club/even-passes.gib"));
    let first = first.expect("a member named archive!/inner");
    assert_eq!((first["from"].as_str(), first["games"].as_u64()), (Some("gib"), Some(1)));
    assert!(first["output"].as_str().unwrap().ends_with("out/stored.zip/club/even-passes.sgf"), "{first}");
    for r in &files {
        assert_eq!(r["status"], "ok", "{r}");
        assert!(!r.to_string().contains("charset.nul"), "{r}");
    }
    let summary = records.last().unwrap();
    assert_eq!((summary["games"].as_u64(), summary["ignored"].as_u64()), (Some(10), Some(2)), "{summary}");
    let sgf = std::fs::read_to_string(out.join("stored.zip/club/korean-euc-kr.sgf")).unwrap();
    assert!(sgf.contains("PB[이영희]"), "{sgf}");
    // Never written into: the archives are as they were.
    assert_eq!(std::fs::read(input.join("stored.zip")).unwrap(), zip_of(&refs(&gib_files("club/")), false));
}

#[test]
fn hostile_members_are_refused_and_nothing_leaves_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let game: &[u8] = b"(;GM[1];B[aa])";
    let spaces = vec![b' '; 3 << 20];
    let inner = zip_of(&[("a.sgf", game)], false);
    let files: [(&str, &[u8]); 5] = [
        ("ok.sgf", game),
        ("../escape.sgf", game),
        ("/abs/root.sgf", game),
        ("bomb.sgf", &spaces),
        ("inner.zip", &inner),
    ];
    std::fs::write(input.join("evil.zip"), zip_of(&files, true)).unwrap();
    std::fs::write(input.join("evil.tgz"), tar_gz(&files)).unwrap();
    let out = dir.path().join("deep/out");
    let run = kifu().args(["convert", "-r", "--report", "-", "-O"]).arg(&out).arg(&input).assert().code(1);
    let records = report(&run.get_output().stdout);
    let code_of = |member: &str| -> Vec<String> {
        records
            .iter()
            .filter(|r| r["type"] == "file" && r["input"].as_str().unwrap().ends_with(member))
            .map(|r| {
                format!("{} {}", r["status"].as_str().unwrap(), r["diagnostics"][0]["code"].as_str().unwrap_or(""))
            })
            .collect()
    };
    assert_eq!(code_of("evil.zip!/../escape.sgf"), ["failed archive.unsafe-path"]);
    assert_eq!(code_of("evil.zip!//abs/root.sgf"), ["failed archive.unsafe-path"]);
    assert_eq!(code_of("evil.zip!/bomb.sgf"), ["failed archive.ratio"]);
    assert_eq!(code_of("evil.zip!/inner.zip"), ["skipped archive.nested"]);
    assert_eq!(code_of("evil.tgz!/../escape.sgf"), ["failed archive.unsafe-path"]);
    // The tar.gz stream of a bomb is refused whole, after the members before it.
    assert_eq!(code_of("in/evil.tgz"), ["failed archive.ratio"]);
    assert_eq!(tree(dir.path().join("deep").as_path()), ["out/evil.tgz/ok.sgf", "out/evil.zip/ok.sgf"]);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr);
    assert!(stderr.contains("evil.zip!/../escape.sgf: error[archive.unsafe-path]"), "{stderr}");
}

#[test]
fn members_are_never_written_in_place() {
    let (_dir, input) = archives();
    let run = kifu().args(["convert", "-r", "--in-place", "--report", "-"]).arg(&input).assert().code(1);
    let records = report(&run.get_output().stdout);
    let member = records.iter().find(|r| r["input"].as_str().is_some_and(|i| i.contains("stored.zip!/"))).unwrap();
    assert_eq!(member["diagnostics"][0]["code"], "batch.archive-in-place", "{member}");
    assert!(tree(&input).iter().all(|f| !f.contains('!') && !f.ends_with(".sgf")), "{:?}", tree(&input));
    // --merge takes every member's games into one file.
    let merged = input.parent().unwrap().join("all.sgf");
    kifu().args(["convert", "-r", "--merge"]).arg(&merged).arg(&input).assert().success();
    assert_eq!(std::fs::read_to_string(&merged).unwrap().matches("(;").count(), 10);
}

#[test]
fn info_and_check_name_each_member() {
    let (_dir, input) = archives();
    let info = kifu().arg("info").arg(input.join("stored.zip")).arg(input.join("one.sgf.gz")).assert().success();
    let text = String::from_utf8(info.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 4, "{text}");
    let shown = input.join("stored.zip").display().to_string();
    assert!(lines[0].starts_with(&format!("{shown}!/club/even-passes.gib\t1\tgib\t")), "{text}");
    assert!(lines[1].contains("B=학생") || lines[1].contains("B=学生"), "{text}");
    assert!(lines[3].contains("one.sgf.gz!/one.sgf\t1\tsgf\t") && lines[3].contains("B=Gz"), "{text}");

    let json = kifu().args(["info", "--json"]).arg(input.join("sub/games.tgz")).assert().success();
    let records = report(&json.get_output().stdout);
    assert_eq!(records.len(), 3);
    assert!(records[0]["file"].as_str().unwrap().ends_with("games.tgz!/x/even-passes.gib"), "{:?}", records[0]);

    let check = kifu().args(["check", "--json"]).arg(input.join("deflated.zip")).assert().success();
    let records = report(&check.get_output().stdout);
    let summaries: Vec<&str> =
        records.iter().filter(|r| r["type"] == "summary").map(|r| r["file"].as_str().unwrap()).collect();
    assert_eq!(summaries.len(), 3, "README.txt is not a record: {summaries:?}");
    assert!(summaries.iter().all(|f| f.contains("deflated.zip!/")), "{summaries:?}");
}

#[test]
fn a_named_archive_converts_alone_when_it_holds_one_record() {
    let (_dir, input) = archives();
    let one = kifu().arg("convert").arg(input.join("one.sgf.gz")).assert().success();
    assert_eq!(String::from_utf8_lossy(&one.get_output().stdout), "(;FF[4]CA[UTF-8]GM[1]SZ[9]PB[Gz]\n;B[ee])\n");
    // Several members are several inputs: one SGF collection on standard output, in the
    // archive's order, as `cat` would give them; nothing is read as one game.
    let many = kifu().arg("convert").arg(input.join("stored.zip")).assert().success();
    let text = String::from_utf8_lossy(&many.get_output().stdout);
    assert_eq!(text.matches("(;").count(), 3, "{text}");
    assert!(text.find("PB[stonecat]").unwrap() < text.find("PW[").unwrap(), "{text}");
    let stderr = String::from_utf8_lossy(&many.get_output().stderr);
    assert!(
        stderr.ends_with("kifu: 3 inputs: 3 ok, 0 with warnings, 0 repaired with errors, 0 failed, 0 skipped\n"),
        "{stderr}"
    );
    // As one GIB they cannot go: GIB holds one game per file.
    let gib = kifu().args(["convert", "-t", "gib"]).arg(input.join("stored.zip")).assert().code(2);
    assert!(String::from_utf8_lossy(&gib.get_output().stderr).contains("gib holds one game per file"));
    // Other commands say what the input is, and draw its members with -O.
    let out = input.parent().unwrap().join("pictures");
    let one = kifu().arg("diagram").arg(input.join("stored.zip")).arg("-o").arg(out.join("x.svg")).assert().code(65);
    let stderr = String::from_utf8_lossy(&one.get_output().stderr);
    assert!(stderr.contains("is a zip archive"), "{stderr}");
    kifu().arg("diagram").arg(input.join("stored.zip")).arg("-O").arg(&out).assert().success();
    assert_eq!(
        tree(&out),
        ["stored.zip/club/even-passes.svg", "stored.zip/club/handicap5-gbk.svg", "stored.zip/club/korean-euc-kr.svg"]
    );
}

#[test]
fn the_library_does_not_read_an_archive_as_one_record() {
    let (_dir, input) = archives();
    let err = kifu::read_path(input.join("stored.zip")).unwrap_err();
    assert_eq!(err.diagnostics[0].code, "input.archive", "{err}");
    // A format named by the caller still wins.
    let forced = kifu::Reader::new().with_format(kifu::Format::GIB).read_path(input.join("stored.zip"));
    let codes: Vec<&str> = match &forced {
        Ok(r) => r.diagnostics.iter().map(|d| d.code).collect(),
        Err(e) => e.diagnostics.iter().map(|d| d.code).collect(),
    };
    assert!(!codes.contains(&"input.archive"), "{codes:?}");
}
