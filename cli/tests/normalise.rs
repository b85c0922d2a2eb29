//! The command's repairs (the library side is in the root package's tests/normalise.rs).

use kifu::{Diagnostic, Format, ReadOptions, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::Path;

fn manifest() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read(bytes: Vec<u8>, no_repair: bool) -> kifu::ReadOutput {
    Format::SGF.read(bytes, &ReadOptions::default().with_no_repair(no_repair)).expect("readable SGF")
}

fn write(read: &kifu::ReadOutput) -> String {
    String::from_utf8(Format::SGF.write(&read.collection, &WriteOptions::default()).unwrap().bytes).unwrap()
}

fn fixes(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.code.starts_with("fix.")).collect()
}

#[test]
fn no_repair_keeps_the_properties_exactly() {
    let text = std::fs::read(manifest().join("fixtures/sgf/normalise/duplicates.sgf")).unwrap();
    let faithful = read(text.clone(), true);
    assert!(fixes(&faithful.diagnostics).is_empty());
    let root = faithful.collection.games[0].root();
    assert_eq!(root.props().filter(|p| p.ident() == "AB").count(), 3);
    assert_eq!(root.props().filter(|p| p.ident() == "KM").count(), 2);
    let out = write(&faithful);
    assert!(out.contains("AB[cc]AB[gg][cc]AB[cc:dd]"), "{out}");
    // The command: --no-repair gives that output, the default the repaired one.
    let path = manifest().join("fixtures/sgf/normalise/duplicates.sgf");
    let cmd = |extra: &[&str]| {
        let o = assert_cmd::cargo::cargo_bin_cmd!("kifu").arg("convert").arg(&path).args(extra).output().unwrap();
        assert!(o.status.success());
        (String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
    };
    let (plain, plain_err) = cmd(&["--no-repair", "-v"]);
    assert_eq!(plain, out);
    assert!(!plain_err.contains("fix."), "{plain_err}");
    let (repaired, err) = cmd(&[]);
    assert_eq!(repaired, std::fs::read_to_string(path.with_extension("expected.sgf")).unwrap());
    assert!(err.contains("warning[fix.duplicate-conflict]"), "warnings show by default: {err}");
    assert!(!err.contains("info[fix.duplicate-merged]"), "notes only with -v: {err}");
}
