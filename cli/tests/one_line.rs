//! Every printed diagnostic is one line, whatever the values it quotes hold.

mod common;

use std::path::Path;
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

/// The lines of `stderr` that are not one whole diagnostic of an input under `prefix` or a
/// `kifu:` line.
fn broken_lines(stderr: &str, prefix: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| {
            let Some(rest) = l.strip_prefix(prefix) else { return !l.starts_with("kifu: ") };
            let summary = rest.contains(": 1 game: "); // check's verdict line
            !summary && !["error[", "warning[", "info["].iter().any(|s| rest.contains(&format!(": {s}")))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn values_with_line_breaks_are_quoted_on_one_line() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sgf/multiline-values.sgf");
    let name = fixture.display().to_string();
    for cmd in ["convert", "check"] {
        let out = Command::new(KIFU).args([cmd, "-v", &name]).output().unwrap();
        let text = String::from_utf8(if cmd == "check" { out.stdout } else { out.stderr }).unwrap();
        assert_eq!(broken_lines(&text, &name), Vec::<String>::new(), "{cmd}:\n{text}");
        assert!(text.contains("TM[\\n]"), "{cmd}:\n{text}");
    }
    let out = Command::new(KIFU).args(["convert", "-v", &name]).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // comments and names of nothing but blanks or line breaks are removed (as SGFC removes
    // them), each said as it is
    let sgf = String::from_utf8(out.stdout).unwrap();
    assert!(!sgf.contains("C[\n\n]"), "{sgf}");
    assert!(
        stderr.contains("info[fix.empty-removed]: C[\\n\\n] holds only blanks or line breaks; removed"),
        "{stderr}"
    );
    assert!(stderr.contains("info[fix.empty-removed]: move 1: C[] is empty; removed"), "{stderr}");
    assert!(
        stderr.contains("info[fix.empty-removed]: move 1: N[ ] holds only blanks or line breaks; removed"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("info[fix.empty-removed]").count(), 4, "{stderr}");
    assert!(
        stderr.ends_with(
            "kifu: repairs: 4 fix.empty-removed (info), 1 fix.duplicate-merged (info), 1 fix.result-text (info), \
             1 fix.root-property (warning)\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_verbose_corpus_run_prints_one_line_per_diagnostic() {
    let Some(corpus) = common::shared("corpus") else { return };
    let (kifu, _) = common::kifu_binary();
    let out_dir = tempfile::tempdir().unwrap();
    let out =
        Command::new(kifu).args(["convert", "-v", "-r"]).arg(&corpus).arg("-O").arg(out_dir.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let prefix = corpus.display().to_string();
    assert!(stderr.lines().count() > 10_000, "a verbose run says much: {}", stderr.lines().count());
    assert_eq!(broken_lines(&stderr, &prefix), Vec::<String>::new());
}
