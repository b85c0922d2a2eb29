//! kifu's own output is clean under its own check: no form warning (an unknown property, an
//! `AP` without a version, a result or date that is not FF[4]'s) in what `kifu convert` writes
//! from the shared records. Bounded: a sample of the corpus, the samples, sgf-tests.

mod common;

use std::path::Path;
use std::process::Command;

/// The form codes that kifu's output must never get.
const FORM: &[&str] = &[
    "warning[check.unknown-property]",
    "warning[check.ap-version]",
    "warning[check.result-format]",
    "warning[check.date-format]",
];

/// Converts `files` into `out` and checks the outputs; returns the form findings.
fn form_findings(kifu: &Path, files: &[std::path::PathBuf], out: &Path) -> Vec<String> {
    let input = out.join("in");
    std::fs::create_dir_all(&input).unwrap();
    for (k, f) in files.iter().enumerate() {
        let name = format!("{k:05}-{}", f.file_name().unwrap().to_string_lossy());
        std::fs::copy(f, input.join(name)).unwrap();
    }
    let converted = out.join("out");
    let status =
        Command::new(kifu).args(["convert", "-q", "-r"]).arg(&input).arg("-O").arg(&converted).status().unwrap();
    assert!(status.code().is_some_and(|c| c <= 1), "{status:?}");
    let outputs = common::files(&converted, &["sgf"]);
    assert!(outputs.len() * 10 >= files.len() * 9, "{} of {} converted", outputs.len(), files.len());
    let mut found = Vec::new();
    for chunk in outputs.chunks(500) {
        let check = Command::new(kifu).arg("check").args(chunk).output().unwrap();
        let text = String::from_utf8_lossy(&check.stdout);
        found.extend(text.lines().filter(|l| FORM.iter().any(|c| l.contains(c))).map(str::to_string));
    }
    found
}

#[test]
fn converted_shared_records_have_no_form_warning() {
    let (Some(corpus), Some(samples)) = (common::shared("corpus"), common::shared("samples")) else { return };
    let (kifu, _) = common::kifu_binary();
    let all = common::files(&corpus, &["sgf"]);
    let step = (all.len() / 500).max(1);
    let mut files: Vec<_> = all.into_iter().step_by(step).collect();
    files.extend(common::files(&samples, &["sgf", "gib", "ngf", "ugf"]));
    let dir = tempfile::tempdir().unwrap();
    let found = form_findings(&kifu, &files, dir.path());
    assert!(found.is_empty(), "{} form findings, e.g. {:#?}", found.len(), &found[..found.len().min(10)]);
}

#[test]
fn forms_check_warns_about_are_written_in_ff4_form() {
    let kifu = Path::new(env!("CARGO_BIN_EXE_kifu"));
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("forms.sgf");
    std::fs::write(
        &input,
        "(;GM[1]FF[4]SZ[19]AP[YuanYu]RE[draw]DT[a sunny afternoon]TC[3]TT[30]MULTIGOGM[1];B[pd])\n\
         (;GM[1]FF[4]SZ[19]AP[]RE[W+time];B[pd])\n(;GM[1]FF[4]SZ[19]RE[B+Illegal];B[pd])",
    )
    .unwrap();
    let before = Command::new(kifu).arg("check").arg(&input).output().unwrap();
    let before = String::from_utf8(before.stdout).unwrap();
    assert_eq!(FORM.iter().filter(|c| before.contains(*c)).count(), 3, "{before}");
    let output = dir.path().join("out.sgf");
    let run = Command::new(kifu).arg("convert").arg(&input).arg("-o").arg(&output).output().unwrap();
    assert!(run.status.success());
    let sgf = std::fs::read_to_string(&output).unwrap();
    for form in ["AP[YuanYu:]", "RE[0]", "XSGFRE[draw]", "XSGFDT[a sunny afternoon]", "TC[3]TT[30]", "RE[W+T]"] {
        assert!(sgf.contains(form), "{form}: {sgf}");
    }
    assert!(sgf.contains("XSGFRE[B+Illegal]") && !sgf.contains("AP[]"), "{sgf}");
    let after = Command::new(kifu).arg("check").arg(&output).output().unwrap();
    let after = String::from_utf8(after.stdout).unwrap();
    assert!(!FORM.iter().any(|c| after.contains(c)), "{after}");
    assert!(after.contains("info[check.unknown-property]: TC"), "{after}");
}
