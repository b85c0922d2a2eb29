//! The severity rule of repairs and the per-kind counts that end every run (formats/cli.md,
//! "Repairs").

use std::path::{Path, PathBuf};
use std::process::Command;

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sgf").join(name)
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(KIFU).args(args).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_known_dialect_repaired_with_certainty_is_information() {
    let known = fixture("fox-known.sgf").display().to_string();
    let (code, stderr) = run(&["convert", "--strict", &known]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "kifu: repairs: 1 fix.ap-version (info), 1 fix.empty-removed (info), 1 fix.komi-scaled (info), \
         1 fix.overtime (info)\n"
    );
    // -q: errors only, no closing line
    assert_eq!(run(&["convert", "-q", &known]), (0, String::new()));
    // diagram ends the same way
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("a.svg").display().to_string();
    let (code, stderr) = run(&["diagram", &known, "-o", &png]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.ends_with("1 fix.overtime (info)\n"), "{stderr}");
}

#[test]
fn a_value_that_cannot_be_known_is_a_warning() {
    let zero = fixture("fox-komi-zero.sgf").display().to_string();
    let (code, stderr) = run(&["convert", "--strict", &zero]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("warning[fix.fox-komi-zero]"), "{stderr}");
    assert!(stderr.ends_with("\nkifu: repairs: 1 fix.ap-version (info), 1 fix.fox-komi-zero (warning)\n"), "{stderr}");
    // a komi ×100 in a file not known to be Fox's is a guess
    let mut child = Command::new(KIFU)
        .args(["convert", "-f", "sgf", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"(;GM[1]FF[4]SZ[19]KM[650];B[pd])").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("warning[fix.komi-scaled]") && stderr.ends_with("1 fix.komi-scaled (warning)\n"),
        "{stderr}"
    );
}

#[test]
fn a_batch_run_ends_with_the_repairs_per_kind_and_reports_them() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for (k, name) in ["fox-known.sgf", "fox-komi-zero.sgf", "fox-known.sgf"].iter().enumerate() {
        std::fs::copy(fixture(name), input.join(format!("{k}-{name}"))).unwrap();
    }
    let out = dir.path().join("out").display().to_string();
    let report = dir.path().join("report.ndjson");
    let (code, stderr) =
        run(&["convert", "-r", &input.display().to_string(), "-O", &out, "--report", &report.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 ok, 1 with warnings"), "{stderr}");
    // The repairs, then the total line that ends every run over several inputs.
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines[lines.len() - 1].starts_with("kifu: 3 inputs: 2 ok, 1 with warnings"), "{stderr}");
    assert_eq!(
        lines[lines.len() - 2],
        "kifu: repairs: 3 fix.ap-version (info), 2 fix.empty-removed (info), 2 fix.komi-scaled (info), \
         2 fix.overtime (info), 1 fix.fox-komi-zero (warning)"
    );
    let text = std::fs::read_to_string(&report).unwrap();
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(summary["repairs"][0], serde_json::json!({"code": "fix.ap-version", "severity": "info", "count": 3}));
    assert_eq!(
        summary["repairs"][4],
        serde_json::json!({"code": "fix.fox-komi-zero", "severity": "warning", "count": 1})
    );
}

#[test]
fn every_repair_code_has_its_severity_documented() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../formats/normalise.md")).unwrap();
    let table = &doc[doc.find("## Codes").expect("a Codes section")..];
    for code in kifu::normalise::codes::ALL {
        let row = table.lines().find(|l| l.starts_with(&format!("| `{code}` |"))).unwrap_or_else(|| panic!("{code}"));
        let sev = row.split('|').nth(2).unwrap().trim();
        assert!(["I", "W", "I/W", "W/I"].contains(&sev), "{code}: {sev}");
    }
}

#[test]
fn check_over_several_files_ends_with_its_findings_per_kind() {
    let (a, b) =
        (fixture("multiline-values.sgf").display().to_string(), fixture("fox-known.sgf").display().to_string());
    let out = Command::new(KIFU).args(["check", &a, &b]).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("kifu: findings: ") && stderr.contains("check.value-type (error)"), "{stderr}");
    // Then the one total line every command over several inputs ends with.
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[1].starts_with("kifu: 2 inputs: ") && lines[1].contains("with errors"), "{stderr}");
}
