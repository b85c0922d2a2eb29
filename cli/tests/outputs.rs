//! The `kifu` binary as a process against the output rules and the exit-code table of
//! `formats/cli.md`: special files, permissions, links, reruns, reports, signals, shell
//! integration. Every row of the exit-code table has a test here (`exit_*`).

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn kifu() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin!("kifu").to_path_buf()
}

const GAME: &str = "(;GM[1]SZ[19]PB[Ann]PW[Bo];B[pd];W[dp])";
const CONVERTED: &str = "(;FF[4]CA[UTF-8]GM[1]SZ[19]PB[Ann]PW[Bo]\n;B[pd];W[dp])\n";

fn manifest() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A temporary folder holding `game.sgf`.
fn with_game() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("game.sgf");
    std::fs::write(&p, GAME).unwrap();
    (dir, p)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

// ---- special files ------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn dev_null_is_written_through_without_force_and_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let (_dir, game) = with_game();
    kifu().args(["convert", s(&game), "-o", "/dev/null"]).assert().success().stderr("");
    kifu().args(["convert", s(&game), "-o", "/dev/null", "--force"]).assert().success();
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device(), "/dev/null is still a device");
    // a report and a merge to /dev/null too
    let out = tempfile::tempdir().unwrap();
    kifu().args(["convert", s(&game), "-O", s(out.path()), "--report", "/dev/null"]).assert().success();
    kifu().args(["convert", s(&game), "--merge", "/dev/null"]).assert().success();
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

#[cfg(unix)]
#[test]
fn a_fifo_output_is_written_through_while_another_process_reads_it() {
    let (dir, game) = with_game();
    let fifo = dir.path().join("out.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    kifu().args(["convert", s(&game), "-o", s(&fifo)]).timeout(Duration::from_secs(20)).assert().success();
    assert_eq!(reader.join().unwrap(), CONVERTED);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    assert_eq!(names_in(dir.path()), ["game.sgf", "out.fifo"], "no temporary file");
}

#[cfg(target_os = "linux")]
#[test]
fn dev_full_is_a_clear_io_error_in_every_command() {
    let (_dir, game) = with_game();
    kifu()
        .args(["convert", s(&game), "-o", "/dev/full"])
        .assert()
        .code(74)
        .stderr(contains("cannot write /dev/full").and(contains("No space left")));
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let all = [
        vec!["info", s(&game)],
        vec!["formats"],
        vec!["formats", "--json"],
        vec!["check", s(&game)],
        vec!["convert", s(&game)],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["--help"],
    ];
    for args in all {
        let out = std::process::Command::new(bin()).args(&args).stdout(full()).output().unwrap();
        assert_eq!(out.status.code(), Some(74), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot write standard output") && err.contains("No space left"), "{args:?}: {err}");
    }
}

// ---- permissions --------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn new_files_get_0666_minus_the_umask_and_replaced_files_keep_their_mode() {
    let (dir, game) = with_game();
    for (umask, want) in [("022", 0o644), ("077", 0o600)] {
        let out = dir.path().join(format!("single-{umask}.sgf"));
        let tree = dir.path().join(format!("tree-{umask}"));
        let report = dir.path().join(format!("report-{umask}.ndjson"));
        let script = format!(
            "umask {umask}; '{k}' convert '{g}' -o '{o}' && '{k}' convert '{g}' -O '{t}' --split --report '{r}'",
            k = s(&bin()),
            g = s(&game),
            o = s(&out),
            t = s(&tree),
            r = s(&report)
        );
        let status = std::process::Command::new("sh").args(["-c", &script]).stderr(Stdio::null()).status().unwrap();
        assert!(status.success());
        assert_eq!(mode(&out), want, "-o under umask {umask}");
        assert_eq!(mode(&tree.join("game.sgf")), want, "-O under umask {umask}");
        assert_eq!(mode(&report), want, "--report under umask {umask}");
    }
    let kept = dir.path().join("kept.sgf");
    std::fs::write(&kept, "old").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    kifu().args(["convert", s(&game), "-o", s(&kept), "--force"]).assert().success();
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), CONVERTED);
    assert_eq!(mode(&kept), 0o640);
}

// ---- links --------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_link_output_replaces_its_target_with_force_and_is_refused_without() {
    let (dir, game) = with_game();
    let target = dir.path().join("target.sgf");
    let link = dir.path().join("link.sgf");
    std::fs::write(&target, "(;GM[1]PB[old])").unwrap();
    std::os::unix::fs::symlink("target.sgf", &link).unwrap();
    kifu()
        .args(["convert", s(&game), "-o", s(&link)])
        .assert()
        .code(73)
        .stderr(contains("is a link to").and(contains("--force")));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "(;GM[1]PB[old])");
    kifu().args(["convert", s(&game), "-o", s(&link), "--force"]).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), CONVERTED);
    // now identical: unchanged, no --force needed
    kifu().args(["convert", s(&game), "-o", s(&link)]).assert().success();
    std::os::unix::fs::symlink("missing.sgf", dir.path().join("dangling.sgf")).unwrap();
    kifu()
        .args(["convert", s(&game), "-o", s(&dir.path().join("dangling.sgf")), "--force"])
        .assert()
        .code(73)
        .stderr(contains("link to a missing file"));
    assert_eq!(names_in(dir.path()), ["dangling.sgf", "game.sgf", "link.sgf", "target.sgf"]);
}

// ---- reruns -------------------------------------------------------------------------------

fn mtimes(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
    let mut v: Vec<_> =
        walk(dir).into_iter().map(|p| (p.clone(), std::fs::metadata(&p).unwrap().modified().unwrap())).collect();
    v.sort();
    v
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

#[test]
fn a_second_identical_batch_run_writes_nothing_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..300 {
        let sub = root.join(format!("in/club-{}", i % 7));
        std::fs::create_dir_all(&sub).unwrap();
        let text = if i % 50 == 0 {
            format!("(;GM[1]PB[Player {i}];B[pd];W[dp]") // truncated: repaired
        } else {
            format!("(;GM[1]PB[Player {i}]PW[Other];B[pd];W[dp];B[{}{}])", (b'a' + (i % 19) as u8) as char, 'c')
        };
        std::fs::write(sub.join(format!("g{i:03}.sgf")), text).unwrap();
    }
    let run = || kifu().current_dir(root).args(["convert", "-r", "in", "-O", "out", "--report", "r.ndjson"]).assert();
    run().success().stderr(contains("300 inputs: 294 ok, 0 with warnings, 6 repaired with errors, 0 failed"));
    let outputs = mtimes(&root.join("out"));
    assert_eq!(outputs.len(), 300);
    let report = std::fs::read(root.join("r.ndjson")).unwrap();
    let report_time = std::fs::metadata(root.join("r.ndjson")).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    run().success().stderr(contains("0 files written, 300 unchanged"));
    assert_eq!(mtimes(&root.join("out")), outputs, "no output touched");
    assert_eq!(std::fs::read(root.join("r.ndjson")).unwrap(), report, "the same report");
    assert_eq!(std::fs::metadata(root.join("r.ndjson")).unwrap().modified().unwrap(), report_time, "report untouched");
    // one output edited by hand: refused (exit 1), the others unchanged; --force rewrites it
    std::fs::write(root.join("out/club-1/g001.sgf"), "(;GM[1]C[my notes])").unwrap();
    run().code(1).stderr(contains("batch.output-exists").and(contains("g001.sgf exists and differs")));
    run().failure();
    kifu()
        .current_dir(root)
        .args(["convert", "-r", "in", "-O", "out", "--force", "--report", "r.ndjson"])
        .assert()
        .success();
    assert_eq!(std::fs::read(root.join("r.ndjson")).unwrap(), report, "back to the first report");
}

#[test]
fn a_single_file_rerun_is_unchanged() {
    let (dir, game) = with_game();
    let out = dir.path().join("out.sgf");
    kifu().args(["convert", s(&game), "-o", s(&out)]).assert().success();
    let t = std::fs::metadata(&out).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    kifu().args(["convert", s(&game), "-o", s(&out), "-v"]).assert().success().stderr(contains("unchanged"));
    assert_eq!(std::fs::metadata(&out).unwrap().modified().unwrap(), t);
}

// ---- the report and the merge are outputs too ---------------------------------------------

#[test]
fn every_output_path_is_checked_against_inputs_and_other_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("in/sub")).unwrap();
    std::fs::write(root.join("in/sub/game.sgf"), GAME).unwrap();
    std::fs::write(root.join("in/b.sgf"), GAME).unwrap();
    let k = || {
        let mut c = kifu();
        c.current_dir(root);
        c
    };
    // --report onto an input
    k().args(["convert", "-r", "in", "-O", "out", "--report", "in/b.sgf"])
        .assert()
        .code(73)
        .stderr(contains("the report in/b.sgf is an input file"));
    assert_eq!(std::fs::read_to_string(root.join("in/b.sgf")).unwrap(), GAME);
    assert!(!root.join("out").exists(), "nothing converted");
    // --report onto another output of the run
    k().args(["convert", "-r", "in", "-O", "out", "--report", "out/sub/game.sgf", "--force"])
        .assert()
        .code(73)
        .stderr(contains("is also an output of this run"));
    // --merge onto a named input, even with --force
    k().args(["convert", "in/b.sgf", "--merge", "in/b.sgf", "--force"])
        .assert()
        .code(73)
        .stderr(contains("is the input"));
    assert_eq!(std::fs::read_to_string(root.join("in/b.sgf")).unwrap(), GAME);
    // --merge and --report naming one file
    k().args(["convert", "-r", "in", "--merge", "all.sgf", "--report", "all.sgf"])
        .assert()
        .code(73)
        .stderr(contains("also an output"));
    // a report into a missing folder names the folder
    k().args(["convert", "-r", "in", "-O", "out", "--report", "nodir/r.ndjson"])
        .assert()
        .code(73)
        .stderr(contains("folder nodir/ does not exist"));
    // an existing file that is not a report is never replaced without --force …
    std::fs::write(root.join("notes.txt"), "my notes").unwrap();
    k().args(["convert", "-r", "in", "-O", "out", "--report", "notes.txt"])
        .assert()
        .code(73)
        .stderr(contains("is not a kifu report"));
    assert_eq!(std::fs::read_to_string(root.join("notes.txt")).unwrap(), "my notes");
    // … while kifu's own earlier report is replaced, with a line saying so
    k().args(["convert", "-r", "in", "-O", "out", "--report", "r.ndjson"]).assert().success();
    k().args(["convert", "-r", "in", "-O", "out2", "--report", "r.ndjson"])
        .assert()
        .success()
        .stderr(contains("replaced the report of an earlier run"));
    assert!(std::fs::read_to_string(root.join("r.ndjson")).unwrap().contains("out2/"));
}

#[test]
fn a_missing_output_folder_is_named_never_a_temporary_file() {
    let (dir, game) = with_game();
    kifu()
        .current_dir(dir.path())
        .args(["convert", s(&game), "-o", "nodir/x.sgf"])
        .assert()
        .code(73)
        .stderr(contains("folder nodir/ does not exist").and(contains(".tmp").not()));
}

// ---- temporary files ----------------------------------------------------------------------

#[test]
fn a_single_convert_removes_temporary_files_of_dead_runs() {
    let (dir, game) = with_game();
    if !Path::new("/proc/self").exists() {
        eprintln!("note: no /proc; stale temporary files cannot be told apart, test skipped");
        return;
    }
    std::fs::write(dir.path().join(".kifu-4000000-abcdef.tmp"), "half a game").unwrap();
    kifu()
        .args(["convert", s(&game), "-o", s(&dir.path().join("out.sgf"))])
        .assert()
        .success()
        .stderr(contains("removed 1 temporary files"));
    assert_eq!(names_in(dir.path()), ["game.sgf", "out.sgf"]);
}

/// Waits until `child` catches SIGINT and SIGTERM (its handler is installed), reading
/// `/proc/PID/status`; elsewhere waits a moment.
#[cfg(unix)]
fn wait_for_handlers(child: &std::process::Child) {
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    if !status.exists() {
        std::thread::sleep(Duration::from_millis(500));
        return;
    }
    let wanted = (1u64 << (libc::SIGINT - 1)) | (1u64 << (libc::SIGTERM - 1));
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let caught = std::fs::read_to_string(&status).ok().and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("SigCgt:"))?;
            u64::from_str_radix(line.trim_start_matches("SigCgt:").trim(), 16).ok()
        });
        if caught.is_some_and(|c| c & wanted == wanted) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(unix)]
fn signal(child: &std::process::Child, sig: i32) {
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

#[cfg(unix)]
#[test]
fn exit_130_interrupted_and_no_temporary_file_left() {
    // Waiting on standard input: SIGINT and SIGTERM end it with 130.
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let mut child = std::process::Command::new(bin())
            .args(["convert", "-"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_handlers(&child);
        signal(&child, sig);
        let stdin = child.stdin.take(); // kept open until the process has ended
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(out.status.code(), Some(130), "{sig}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A batch run interrupted while writing (or just after): no temporary file is left.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let big = format!("(;GM[1]C[{}]{})", "x".repeat(200_000), ";B[pd];W[dp]".repeat(2000));
    for i in 0..200 {
        std::fs::write(input.join(format!("g{i}.sgf")), &big).unwrap();
    }
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(bin())
        .args(["convert", "-r", s(&input), "-O", s(&out), "-j", "2"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_handlers(&child);
    std::thread::sleep(Duration::from_millis(200));
    signal(&child, libc::SIGINT);
    let code = child.wait().unwrap().code();
    assert!(matches!(code, Some(130 | 0)), "{code:?}");
    if out.exists() {
        let temps: Vec<_> = names_in(&out).into_iter().filter(|n| n.ends_with(".tmp")).collect();
        assert!(temps.is_empty(), "{temps:?}");
        for name in names_in(&out) {
            let text = std::fs::read_to_string(out.join(&name)).unwrap();
            assert!(text.ends_with(")\n"), "{name} is complete");
        }
    }
}

// ---- inputs -------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_fifo_among_batch_inputs_fails_at_once_instead_of_hanging() {
    let (dir, game) = with_game();
    let fifo = dir.path().join("later.sgf");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let start = Instant::now();
    kifu()
        .args(["convert", s(&game), s(&fifo), "-O", s(&dir.path().join("out")), "--report", "-"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout(contains("batch.not-regular"));
    assert!(start.elapsed() < Duration::from_secs(15));
    assert!(dir.path().join("out/game.sgf").exists());
}

#[test]
fn content_of_another_format_than_the_extension_is_read_as_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("renamed.sgf");
    std::fs::copy(manifest().join("fixtures/ugf/handicap.ugf"), &renamed).unwrap();
    kifu()
        .args(["convert", s(&renamed)])
        .assert()
        .success()
        .stdout(contains("(;FF[4]"))
        .stderr(contains("warning[input.format-mismatch]").and(contains("says sgf, but the content is ugf")));
    kifu().args(["info", s(&renamed)]).assert().success().stdout(contains("\tugf\t"));
}

#[test]
fn info_reads_standard_input_and_prints_json_records() {
    kifu()
        .args(["info"])
        .write_stdin(GAME)
        .assert()
        .success()
        .stdout("FILE\tGAME\tFORMAT\tCHARSET (SOURCE)\tB=BLACK\tW=WHITE\tRE=RESULT\tmoves=N\n<stdin>\t1\tsgf\tUTF-8 (detected)\tB=Ann\tW=Bo\tRE=\tmoves=2\n");
    let out = kifu()
        .args(["info", "--json", "-"])
        .write_stdin("(;GM[1]SZ[9]KM[6.5]HA[2]PB[A]BR[3d];B[aa](;W[bb])(;W[cc]))")
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["file"], "<stdin>");
    assert_eq!((v["game"].as_u64(), v["format"].as_str()), (Some(1), Some("sgf")));
    assert_eq!(v["charset"]["source"], "detected");
    assert_eq!((v["black"].as_str(), v["black_rank"].as_str()), (Some("A"), Some("3d")));
    assert_eq!((v["komi"].as_f64(), v["handicap"].as_u64()), (Some(6.5), Some(2)));
    assert_eq!(v["size"], serde_json::json!({"width": 9, "height": 9}));
    assert_eq!((v["moves"].as_u64(), v["variations"].as_u64()), (Some(2), Some(1)));
}

#[test]
fn an_unknown_charset_lists_the_known_ones() {
    kifu()
        .args(["convert", "--encoding", "klingon"])
        .write_stdin(GAME)
        .assert()
        .code(2)
        .stderr(contains("unknown charset 'klingon'").and(contains("Shift_JIS")).and(contains("cp949")));
}

// ---- diagnostics --------------------------------------------------------------------------

#[test]
fn diagnostics_have_one_shape_and_colour_only_when_asked() {
    let broken = "(;GM[1];B[pd]";
    let plain = kifu().args(["convert", "-"]).write_stdin(broken).output().unwrap();
    let err = String::from_utf8_lossy(&plain.stderr);
    assert!(err.contains("<stdin>:1:14: error[sgf.missing-close]:"), "{err}");
    assert!(!err.contains('\x1b'), "no colour when stderr is not a terminal");
    let coloured = kifu().args(["--color", "always", "convert", "-"]).write_stdin(broken).output().unwrap();
    let err = String::from_utf8_lossy(&coloured.stderr);
    assert!(err.contains("<stdin>:1:14: \x1b[1m\x1b[31merror\x1b[0m[sgf.missing-close]"), "{err:?}");
    let never =
        kifu().args(["convert", "--color", "never", "-"]).env("NO_COLOR", "1").write_stdin(broken).output().unwrap();
    assert!(!String::from_utf8_lossy(&never.stderr).contains('\x1b'));
    let auto =
        kifu().args(["--color", "auto", "convert", "-"]).env("NO_COLOR", "1").write_stdin(broken).output().unwrap();
    assert!(!String::from_utf8_lossy(&auto.stderr).contains('\x1b'));
}

// ---- the exit-code table, row by row ------------------------------------------------------

#[test]
fn exit_0_success_with_repairs_reported() {
    kifu()
        .args(["convert", "-"])
        .write_stdin("(;GM[1];B[pd]")
        .assert()
        .code(0)
        .stderr(contains("error[sgf.missing-close]"));
    kifu().args(["check", &manifest().join("fixtures/check/clean.sgf").display().to_string()]).assert().code(0);
    kifu().args(["formats"]).assert().code(0);
    let out = kifu().args(["formats", "--json"]).output().unwrap();
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let sgf = lines.iter().find(|l| l["name"] == "sgf").expect("sgf listed");
    assert_eq!((sgf["read"].as_bool(), sgf["write"].as_bool()), (Some(true), Some(true)));
}

#[test]
fn quiet_and_verbose_mean_the_same_in_every_command() {
    let cut = "(;GM[1]C[a ] b];B[pd]";
    for cmd in ["convert", "info"] {
        let run = |flag: Option<&str>| {
            let mut c = kifu();
            c.arg(cmd);
            if let Some(f) = flag {
                c.arg(f);
            }
            let out = c.arg("-").write_stdin(cut).output().unwrap();
            String::from_utf8_lossy(&out.stderr).into_owned()
        };
        let (quiet, normal, verbose) = (run(Some("-q")), run(None), run(Some("-v")));
        assert!(quiet.contains("error[sgf.unescaped-bracket]") && !quiet.contains("warning["), "{cmd} -q: {quiet}");
        assert!(normal.contains("error[") && !normal.contains("info["), "{cmd}: {normal}");
        assert!(verbose.contains("info[charset.decided]"), "{cmd} -v: {verbose}");
    }
    let check = |flag: &str| {
        let out = kifu().args(["check", flag, "-"]).write_stdin("(;GM[1]SZ[9];B[jj])").output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(check("-v").contains("error[check.point-off-board]"));
    assert!(check("-q").contains("error[check.point-off-board]"));
}

#[test]
fn exit_1_some_inputs_failed() {
    let (dir, game) = with_game();
    let bad = dir.path().join("bad.sgf");
    std::fs::write(&bad, "no game here").unwrap();
    kifu()
        .args(["convert", s(&game), s(&bad), "-O", s(&dir.path().join("out"))])
        .assert()
        .code(1)
        .stderr(contains("1 failed"));
    kifu().args(["info", s(&game), s(&bad)]).assert().code(1);
    kifu().args(["check", s(&game), s(&dir.path().join("missing.sgf"))]).assert().code(1);
}

#[test]
fn exit_2_usage() {
    let (dir, _) = with_game();
    kifu().args(["convert", "--no-such-option"]).assert().code(2);
    kifu().args(["convert", "-t", "doc"]).write_stdin(GAME).assert().code(2).stderr(contains("unknown format"));
    kifu().args(["convert", s(dir.path())]).assert().code(2).stderr(contains("is a folder").and(contains("-r")));
    kifu().args(["info", s(dir.path())]).assert().code(2);
}

#[test]
fn exit_3_strict_and_check_warnings() {
    kifu().args(["convert", "--strict", "-"]).write_stdin("(;GM[1];B[pd]").assert().code(3);
    // a batch run: repaired inputs are written, and --strict turns them into 3
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cut.sgf"), "(;GM[1];B[pd]").unwrap();
    let batch = |strict: bool| {
        let mut c = kifu();
        c.current_dir(dir.path()).args(["convert", "cut.sgf", "-O", "out", "--force"]);
        if strict {
            c.arg("--strict");
        }
        c.assert()
    };
    batch(false).code(0).stderr(contains("1 repaired with errors"));
    batch(true).code(3);
    assert!(dir.path().join("out/cut.sgf").exists());
    kifu().args(["check", &manifest().join("fixtures/check/warnings.sgf").display().to_string()]).assert().code(3);
}

#[test]
fn exit_4_the_output_cannot_hold_the_input() {
    kifu()
        .args(["convert", "--encoding", "Shift_JIS", "-"])
        .write_stdin("(;GM[1]PB[이창호])")
        .assert()
        .code(4)
        .stdout("")
        .stderr(contains("error[charset.unmappable]").and(contains("nothing written")));
    kifu()
        .args(["convert", "--encoding", "Shift_JIS", "--lossy", "-"])
        .write_stdin("(;GM[1]PB[이창호])")
        .assert()
        .code(0);
}

#[test]
fn exit_65_the_input_is_not_readable_as_its_format() {
    kifu().args(["convert", "-"]).write_stdin("hello").assert().code(65);
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.sgf");
    std::fs::write(&junk, "nothing").unwrap();
    kifu().args(["convert", s(&junk)]).assert().code(65);
    kifu().args(["info", s(&junk)]).assert().code(65);
    kifu().args(["check", s(&junk)]).assert().code(65);
}

#[test]
fn exit_66_an_input_is_missing_in_every_command() {
    for cmd in ["convert", "info", "check"] {
        kifu().args([cmd, "missing.sgf"]).assert().code(66);
    }
    let out = tempfile::tempdir().unwrap();
    kifu().args(["convert", "missing.sgf", "other.sgf", "-O", s(out.path())]).assert().code(66);
}

#[test]
fn exit_73_an_output_cannot_be_created() {
    let (dir, game) = with_game();
    let out = dir.path().join("out.sgf");
    std::fs::write(&out, "(;GM[1]C[mine])").unwrap();
    kifu()
        .args(["convert", s(&game), "-o", s(&out)])
        .assert()
        .code(73)
        .stderr(contains("exists and differs").and(contains("--force")));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "(;GM[1]C[mine])");
    kifu().args(["convert", s(&game), "-o", s(&game), "--force"]).assert().code(73);
    #[cfg(unix)]
    {
        let hard = dir.path().join("hard.sgf");
        std::fs::hard_link(&game, &hard).unwrap();
        kifu()
            .args(["convert", s(&game), "-o", s(&hard), "--force"])
            .assert()
            .code(73)
            .stderr(contains("is the input"));
        assert_eq!(std::fs::read_to_string(&game).unwrap(), GAME);
    }
    kifu()
        .args(["convert", s(&game), "-o", s(dir.path()), "--force"])
        .assert()
        .code(73)
        .stderr(contains("is a folder"));
    kifu().args(["convert", s(&game), "-O", s(&out)]).assert().code(73).stderr(contains("is not a folder"));
    kifu().args(["convert", s(&game), "-O", "/dev/null"]).assert().code(73);
}

#[cfg(target_os = "linux")]
#[test]
fn exit_74_writing_failed() {
    let (_dir, game) = with_game();
    kifu().args(["convert", s(&game), "-o", "/dev/full"]).assert().code(74);
}

#[test]
fn help_lists_the_table() {
    let out = kifu().arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for code in ["0 ", "1 ", "2 ", "3 ", "4 ", "65 ", "66 ", "73 ", "74 ", "130 "] {
        assert!(help.contains(&format!("\n  {code}")), "{code} missing from --help");
    }
    let doc = std::fs::read_to_string(manifest().join("formats/cli.md")).unwrap();
    for code in ["| 0 |", "| 1 |", "| 2 |", "| 3 |", "| 4 |", "| 65 |", "| 66 |", "| 73 |", "| 74 |", "| 130 |"] {
        assert!(doc.contains(code), "{code} missing from formats/cli.md");
    }
}

// ---- shell integration --------------------------------------------------------------------

fn have(tool: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn completion_scripts_load() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        kifu().args(["completions", shell]).assert().success().stdout(contains("kifu"));
    }
    if !have("bash") {
        eprintln!("note: no bash here; the completion script was generated but not loaded");
        return;
    }
    let script = format!("source <('{}' completions bash) && complete -p kifu", s(&bin()));
    let out = std::process::Command::new("bash").args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("kifu"));
}

#[test]
fn every_man_page_has_the_usual_sections_in_order() {
    for command in ["", "convert", "check", "diagram", "formats", "info", "stats", "dedup", "completions", "man"] {
        let page = kifu().arg("man").args((!command.is_empty()).then_some(command)).output().unwrap();
        assert!(page.status.success(), "{command}");
        let roff = String::from_utf8(page.stdout).unwrap();
        let sections: Vec<&str> =
            roff.lines().filter_map(|l| l.strip_prefix(".SH ")).map(|t| t.trim_matches('"')).collect();
        let wanted = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES", "SEE ALSO"];
        let found: Vec<&str> = sections.iter().copied().filter(|t| wanted.contains(t)).collect();
        assert_eq!(found, wanted, "kifu man {command}: {sections:?}");
        assert!(!sections.contains(&"EXTRA"), "{command}: {sections:?}");
        let examples = &roff[roff.find(".SH \"EXAMPLES\"").unwrap()..];
        let name = if command.is_empty() { "kifu ".to_string() } else { format!("kifu {command}") };
        assert!(examples.contains(&name.replace('-', "\\-")), "kifu man {command}: no example runs it");
    }
}

#[test]
fn man_pages_render() {
    let page = kifu().arg("man").output().unwrap();
    assert!(page.status.success());
    let roff = String::from_utf8(page.stdout).unwrap();
    assert!(roff.contains(".TH kifu"), "{roff}");
    kifu()
        .args(["man", "convert"])
        .assert()
        .success()
        .stdout(contains(".TH kifu-convert").and(contains("kifu convert")));
    kifu().args(["man", "nonsense"]).assert().code(2);
    let dir = tempfile::tempdir().unwrap();
    kifu().args(["man", "--dir", s(dir.path())]).assert().success();
    assert!(names_in(dir.path()).contains(&"kifu-convert.1".to_string()));
    kifu().args(["man", "--dir", s(dir.path())]).assert().success(); // identical: unchanged
    if !have("man") {
        eprintln!("note: `man` is not installed; the page was generated but not rendered");
        return;
    }
    let mut child = std::process::Command::new("man")
        .args(["-l", "-"])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), roff.as_bytes()).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("kifu") && text.contains("convert"), "{text}");
}

#[test]
fn version_names_the_commit_when_built_from_git() {
    let out = kifu().arg("--version").output().unwrap();
    let version = String::from_utf8_lossy(&out.stdout);
    assert!(version.starts_with(&format!("kifu {}", env!("CARGO_PKG_VERSION"))), "{version}");
    let head =
        std::process::Command::new("git").args(["rev-parse", "--short", "HEAD"]).current_dir(manifest()).output();
    match head {
        Ok(h) if h.status.success() => {
            let commit = String::from_utf8_lossy(&h.stdout).trim().to_string();
            assert!(version.contains(&format!("({commit})")), "{version} should name {commit}");
        }
        _ => eprintln!("note: no git checkout here; the version alone is printed"),
    }
}

#[test]
fn diagnostics_about_a_move_name_it_in_convert_check_and_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("bracket.sgf");
    std::fs::write(&game, "(;GM[1]SZ[19];B[pd];W[dp]C[a ] b];B[qq])").unwrap();
    let named = "move 2 (W D4, SGF dp): ']' inside a text value is not escaped";
    kifu()
        .args(["convert", s(&game)])
        .assert()
        .success()
        .stderr(contains(format!("bracket.sgf:1:30: error[sgf.unescaped-bracket]: {named}")));
    kifu().args(["check", s(&game)]).assert().code(1).stdout(contains(named));
    let out = kifu().args(["convert", s(&game), "-O", s(&dir.path().join("out")), "--report", "-"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains(named), "the report names the move");
}

/// Runs `kifu ARGS` on a pseudo-terminal (util-linux `script`), typing `typed` then Ctrl-D;
/// returns what the terminal showed, or `None` when `script` is not installed.
fn on_a_terminal(args: &str, env: &[(&str, &str)], typed: &str) -> Option<String> {
    if !have("script") {
        eprintln!("note: `script` is not installed; the terminal behaviour is not tested");
        return None;
    }
    let mut child = std::process::Command::new("script")
        .args(["-qec", &format!("'{}' {args}", s(&bin())), "/dev/null"])
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    std::io::Write::write_all(&mut stdin, format!("{typed}\n").as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    std::io::Write::write_all(&mut stdin, b"\x04").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(stdin);
    Some(String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned())
}

#[test]
fn on_a_terminal_convert_says_it_reads_standard_input_and_colours_by_severity() {
    let Some(shown) = on_a_terminal("convert", &[("NO_COLOR", "")], "(;GM[1];B[pd]") else { return };
    assert!(shown.contains("kifu: reading a game record from standard input (end it with Ctrl-D"), "{shown:?}");
    assert!(shown.contains("\x1b[1m\x1b[31merror\x1b[0m[sgf.missing-close]"), "{shown:?}");
    let Some(shown) = on_a_terminal("convert", &[("NO_COLOR", "1")], "(;GM[1];B[pd]") else { return };
    assert!(shown.contains("error[sgf.missing-close]") && !shown.contains("\x1b[31m"), "{shown:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_is_whatever_standard_output_is() {
    let (dir, game) = with_game();
    // a pipe
    kifu().args(["convert", s(&game), "-o", "/dev/stdout"]).assert().success().stdout(CONVERTED);
    // a file the shell opened, for writing and for appending
    let file = dir.path().join("shell.txt");
    let script = format!(
        "'{k}' convert '{g}' -o /dev/stdout > '{f}' && '{k}' convert '{g}' -o /dev/fd/1 >> '{f}'",
        k = s(&bin()),
        g = s(&game),
        f = s(&file)
    );
    assert!(std::process::Command::new("sh").args(["-c", &script]).status().unwrap().success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CONVERTED.repeat(2));
}
