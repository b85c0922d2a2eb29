//! One read policy: the command, the library's `read_path` and the Python package read the same
//! mislabelled and damaged inputs (fixtures/policy/) as the same format, into the same games,
//! with the same diagnostics. The expectation they are held to is one file,
//! fixtures/policy/expected.json, which python/tests/test_policy.py reads too; `KIFU_BLESS=1`
//! writes it from the library.

use assert_cmd::cargo::cargo_bin_cmd;
use kifu::{Format, Reader, WriteOptions};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The inputs, by file name, in name order.
fn inputs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/policy"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "expected.json"))
        .collect();
    files.sort();
    files
}

/// A diagnostic as the expectation holds it (and as Python gives it): severity, code, line,
/// column, message.
fn diagnostic(d: &kifu::Diagnostic) -> Value {
    json!([d.severity.to_string(), d.code, d.position.map(|p| p.line), d.position.map(|p| p.column), d.message])
}

/// What the library's read pipeline makes of `path`: the format, the games as SGF, the
/// diagnostics; or the diagnostics of the failure.
fn library(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let decided = Reader::new().decide(Some(path), &bytes).ok().map(|d| d.format.name());
    match kifu::read_path(path) {
        Ok(read) => {
            let mut sgf = Vec::new();
            read.collection.write_to(&mut sgf, Format::SGF, &WriteOptions::default()).unwrap();
            json!({
                "format": decided,
                "sgf": String::from_utf8(sgf).unwrap(),
                "diagnostics": read.diagnostics.iter().map(diagnostic).collect::<Vec<_>>(),
            })
        }
        Err(e) => json!({"format": decided, "error": e.diagnostics.iter().map(diagnostic).collect::<Vec<_>>()}),
    }
}

/// The diagnostic lines the command prints for `name` (the charset note aside).
fn printed(stderr: &str, name: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.starts_with(&format!("{name}:")) && !l.contains("[charset.decided]"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_command_read_path_and_python_read_alike() {
    let files = inputs();
    assert!(files.len() >= 6, "{files:?}");
    let mut expected = serde_json::Map::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let lib = library(path);
        // The command: the same format (`kifu info --json`), games (`kifu convert`'s SGF) and
        // diagnostics (every one printed with -v, as `FILE:LINE:COLUMN: severity[code]: …`).
        let shown = path.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
        let out =
            cargo_bin_cmd!("kifu").current_dir(root()).args(["convert", "-v", "-t", "sgf", &shown]).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let read = kifu::read_path(path);
        let line = |d: &kifu::Diagnostic| match d.position {
            Some(_) => format!("{shown}:{d}"),
            None => format!("{shown}: {d}"),
        };
        let want: Vec<String> = match &read {
            Ok(r) => r.diagnostics.iter().map(line).collect(),
            Err(e) => e.diagnostics.iter().map(line).collect(),
        };
        match &read {
            Ok(_) => {
                assert!(out.status.success(), "{name}: {stderr}");
                assert_eq!(String::from_utf8(out.stdout).unwrap(), lib["sgf"].as_str().unwrap(), "{name}");
                assert_eq!(printed(&stderr, &shown), want, "{name}");
                let info =
                    cargo_bin_cmd!("kifu").current_dir(root()).args(["info", "--json", &shown]).output().unwrap();
                let line: Value = serde_json::from_slice(info.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
                assert_eq!(line["format"], lib["format"], "{name}: {line}");
            }
            Err(_) => {
                assert_eq!(out.status.code(), Some(65), "{name}: {stderr}");
                assert!(out.stdout.is_empty(), "{name}");
            }
        }
        expected.insert(name, lib);
    }
    let expected = Value::Object(expected);
    let file = root().join("fixtures/policy/expected.json");
    let text = format!("{}\n", serde_json::to_string_pretty(&expected).unwrap());
    if std::env::var_os("KIFU_BLESS").is_some() {
        std::fs::write(&file, &text).unwrap();
    }
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(committed, expected, "fixtures/policy/expected.json is out of date (KIFU_BLESS=1 rewrites it)");
    // The expectation holds what the policy promises.
    assert_eq!(expected["sgf-as.gib"]["format"], "sgf");
    assert_eq!(expected["sgf-as.gib"]["diagnostics"][0][1], "input.format-mismatch");
    assert_eq!(expected["gib-as.sgf"]["format"], "gib");
    assert_eq!(expected["ugf-as.ngf"]["format"], "ugf");
    assert_eq!(expected["notes.dat"]["error"][0][1], "format.unknown");
    let damaged = expected["damaged.sgf"]["diagnostics"].as_array().unwrap();
    assert!(damaged.iter().any(|d| d[4].as_str().unwrap().starts_with("move 2 (W D4, SGF dp): ")), "{damaged:?}");
}
