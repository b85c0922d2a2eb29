//! The command on kifu JSON (the library side is in the root package's tests/json.rs).

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// Runs `jq` with `args` on `input`; its standard output, or its error.
fn jq(args: &[&str], input: &[u8]) -> Result<String, String> {
    let mut child = Command::new("jq")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    feeder.join().unwrap().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// `kifu convert -t to` of `input`: its standard output.
fn convert(input: &Path, to: &str) -> Vec<u8> {
    let out = assert_cmd::cargo::cargo_bin_cmd!("kifu").args(["convert", "-t", to]).arg(input).output().unwrap();
    assert!(out.status.success(), "{}: {}", input.display(), String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn jq_reads_kifus_json_of_every_record_however_deep() {
    if Command::new("jq").arg("--version").output().is_err() {
        eprintln!("note: jq is not installed; skipping the jq test (.ci/run installs it)");
        return;
    }
    // A game whose every move has a variation beside it, 20,000 moves deep.
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("deep.sgf");
    let mut sgf = String::from("(;GM[1]SZ[19]");
    for i in 0..20_000 {
        sgf.push_str(if i % 2 == 0 { "(;B[pd]" } else { "(;W[dp]" });
    }
    sgf.push_str(&")(;B[dd]C[side])".repeat(20_000));
    sgf.push(')');
    std::fs::write(&deep, sgf).unwrap();
    let mut inputs = vec![manifest().join("fixtures/json/tour.expected.sgf"), deep];
    if let Some(fox) = common::shared("samples/sgf-fox") {
        let records = common::files(&fox, &["sgf"]);
        assert_eq!(records.len(), 26);
        inputs.extend(records);
    }
    for input in &inputs {
        let doc = convert(input, "json");
        let nodes = jq(&[".games[0] | [.nodes[], .variations[].nodes[]] | length"], &doc)
            .unwrap_or_else(|e| panic!("jq on {}: {e}", input.display()));
        let lines = convert(input, "ndjson");
        let moves = jq(&["-c", "[.info.moves, (.variations | length)]"], &lines)
            .unwrap_or_else(|e| panic!("jq on {} as NDJSON: {e}", input.display()));
        // The main line: `nodes`, then the first variation when it has no `parent`; its moves
        // are `info.moves`.
        let moves_of = r#"if type == "array" then .[] | select(.[0] == "B" or .[0] == "W") | .[1][] else (.B, .W) // empty | .[] end"#;
        let main = jq(&["-c", &format!("[{MAIN_LINE} | .[] | {moves_of}] | length")], &lines)
            .unwrap_or_else(|e| panic!("jq on {} as NDJSON: {e}", input.display()));
        let info = jq(&["-c", ".info.moves"], &lines).unwrap();
        assert_eq!(main, info, "{}: the main line's moves", input.display());
        if input.ends_with("deep.sgf") {
            // The root forks: `nodes` is the root, the first variation the 20,000 moves.
            assert_eq!((nodes.as_str(), moves.as_str()), ("40001\n", "[20000,20001]\n"));
            assert_eq!(main, "20000\n");
        }
    }
    // The examples of formats/json.md on the fixture.
    let doc = std::fs::read(manifest().join("fixtures/json/tour.json")).unwrap();
    let spec = std::fs::read_to_string(manifest().join("formats/json.md")).unwrap();
    let main_line = format!(".games[0] | {MAIN_LINE} | length");
    for (filter, want) in [
        (".games[0] | [.nodes[], .variations[].nodes[]] | length", "8\n"),
        (main_line.as_str(), "5\n"),
        (".games[0].variations[] | select(.parent == 1) | .nodes[0]", "{\"W\":[\"dd\"],\"N\":[\"side line\"]}\n"),
    ] {
        assert!(spec.contains(&filter.replace("== 1)", "== 10)")), "formats/json.md shows `{filter}`");
        assert_eq!(jq(&["-c", filter], &doc).unwrap(), want, "{filter}");
    }
}

/// A jq filter for a game's main line (formats/json.md): `nodes`, then the nodes of the first
/// variation when it has no `parent`.
const MAIN_LINE: &str = r#"[.nodes[], (.variations[:1][] | select(has("parent") | not) | .nodes[])]"#;
