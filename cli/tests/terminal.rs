//! The command where people meet it: a closed pipe after help, and what standard output takes
//! when it is a terminal (a pseudo-terminal here).

use std::ffi::CStr;
use std::io::Read;
use std::os::fd::FromRawFd;
use std::path::Path;
use std::process::{Command, Stdio};

const KIFU: &str = env!("CARGO_BIN_EXE_kifu");

const GAME: &str = "(;GM[1]FF[4]SZ[9]PB[Ann]PW[Bo];B[ee];W[cc])";

/// Runs kifu with standard output on a fresh pseudo-terminal: exit code, what the terminal
/// showed, standard error.
fn on_terminal(args: &[&str], dir: &Path) -> (i32, Vec<u8>, String) {
    // SAFETY: plain libc calls on a descriptor this function owns; the name buffer is large
    // enough and NUL-terminated by ptsname_r on success.
    let (master, name) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "no pseudo-terminal");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut buf = [0 as libc::c_char; 256];
        assert_eq!(libc::ptsname_r(master, buf.as_mut_ptr(), buf.len()), 0);
        (std::fs::File::from_raw_fd(master), CStr::from_ptr(buf.as_ptr()).to_str().unwrap().to_owned())
    };
    let slave = std::fs::OpenOptions::new().read(true).write(true).open(&name).unwrap();
    let mut cmd = Command::new(KIFU);
    cmd.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::from(slave)).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(cmd); // our copy of the terminal's other end: reading ends once the child's closes
    let reader = std::thread::spawn(move || {
        let mut master = master;
        let mut shown = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match master.read(&mut buf) {
                Ok(0) | Err(_) => break, // EIO once the last writer closed
                Ok(n) => shown.extend_from_slice(&buf[..n]),
            }
        }
        shown
    });
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let code = child.wait().unwrap().code().unwrap();
    (code, reader.join().unwrap(), stderr)
}

/// Runs kifu with standard output a pipe whose reading end is already closed.
fn into_closed_pipe(args: &[&str]) -> (i32, String) {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors, which are owned below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors are open and owned by nobody else.
    let (reader, writer) = unsafe { (std::fs::File::from_raw_fd(fds[0]), std::fs::File::from_raw_fd(fds[1])) };
    drop(reader);
    let out =
        Command::new(KIFU).args(args).stdin(Stdio::null()).stdout(writer).stderr(Stdio::piped()).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn help_into_a_closed_pipe_exits_0_every_time() {
    for args in [&["convert", "--help"][..], &["diagram", "-h"], &["--help"], &["--version"], &["man", "convert"]] {
        for _ in 0..10 {
            let (code, stderr) = into_closed_pipe(args);
            assert_eq!((code, stderr.as_str()), (0, ""), "kifu {args:?} into a closed pipe");
        }
    }
}

#[test]
fn help_into_head_exits_0_every_time() {
    for _ in 0..10 {
        for line in ["kifu convert --help | head -1", "kifu diagram -h | head -2"] {
            let out =
                Command::new("bash").args(["-o", "pipefail", "-c", &line.replacen("kifu", KIFU, 1)]).output().unwrap();
            assert!(out.status.success(), "{line}: {:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
            assert!(out.stderr.is_empty(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

#[test]
fn pictures_are_not_written_to_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.sgf"), GAME).unwrap();
    for kind in ["png", "svg"] {
        let (code, shown, stderr) = on_terminal(&["diagram", "game.sgf", "-t", kind], dir.path());
        assert_eq!(code, 2, "{kind}: {stderr}");
        assert!(shown.is_empty(), "{kind}: the terminal got {} bytes", shown.len());
        assert!(stderr.contains("standard output is a terminal") && stderr.contains("-o -"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // -o - writes it anyway
    let (code, shown, stderr) = on_terminal(&["diagram", "game.sgf", "-t", "png", "-o", "-"], dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(shown.starts_with(b"\x89PNG"), "{:?}", &shown[..8.min(shown.len())]);
    // -o FILE writes the file and nothing on the terminal
    let (code, shown, stderr) = on_terminal(&["diagram", "game.sgf", "-t", "png", "-o", "b.png"], dir.path());
    assert_eq!((code, shown.len()), (0, 0), "{stderr}");
    assert!(std::fs::read(dir.path().join("b.png")).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn a_terminal_gets_the_text_board_by_default_and_a_pipe_gets_svg() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.sgf"), GAME).unwrap();
    let (code, shown, stderr) = on_terminal(&["diagram", "game.sgf"], dir.path());
    let shown = String::from_utf8(shown).unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert!(!shown.contains("<svg") && shown.contains('●') && shown.contains('○'), "{shown}");
    let (code, shown, _) = on_terminal(&["diagram", "game.sgf", "-t", "text"], dir.path());
    assert_eq!(code, 0);
    assert!(String::from_utf8(shown).unwrap().contains('●'));
    let piped = Command::new(KIFU).args(["diagram", "game.sgf"]).current_dir(dir.path()).output().unwrap();
    assert!(piped.status.success());
    assert!(String::from_utf8(piped.stdout).unwrap().contains("<svg"));
    // game records are text: convert prints them on a terminal as before
    let (code, shown, _) = on_terminal(&["convert", "game.sgf"], dir.path());
    assert_eq!(code, 0);
    let shown = String::from_utf8(shown).unwrap();
    assert!(shown.starts_with("(;GM[1]FF[4]"), "{shown:?}");
}

/// Waits until `pid` catches SIGINT (its handler is installed), from `/proc/PID/status`.
fn wait_for_handler(pid: u32) {
    let status = std::path::PathBuf::from(format!("/proc/{pid}/status"));
    let start = std::time::Instant::now();
    while status.exists() && start.elapsed() < std::time::Duration::from_secs(20) {
        let caught = std::fs::read_to_string(&status).ok().and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("SigCgt:"))?;
            u64::from_str_radix(line.trim_start_matches("SigCgt:").trim(), 16).ok()
        });
        if caught.is_some_and(|c| c & (1 << (libc::SIGINT - 1)) != 0) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn an_interrupted_batch_run_says_what_was_done_and_how_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let game = format!("(;GM[1]FF[4]SZ[19]C[{}]{})", "x".repeat(20_000), ";B[pd];W[dp]".repeat(300));
    let n = 600;
    for i in 0..n {
        std::fs::write(input.join(format!("g{i:04}.sgf")), &game).unwrap();
    }
    let out = dir.path().join("out");
    let args = ["convert", "-r", input.to_str().unwrap(), "-O", out.to_str().unwrap(), "-j", "1"];
    let child = Command::new(KIFU).args(args).stderr(Stdio::piped()).spawn().unwrap();
    wait_for_handler(child.id());
    // once some outputs are there, interrupt
    let start = std::time::Instant::now();
    while std::fs::read_dir(&out).map_or(0, |d| d.count()) < 3 && start.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: kill(2) on our own child's pid has no memory effects.
    assert_eq!(unsafe { libc::kill(i32::try_from(child.id()).unwrap(), libc::SIGINT) }, 0);
    let result = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(result.stderr).unwrap();
    if result.status.code() == Some(0) {
        eprintln!("note: the run ended before the interrupt; nothing to check");
        return;
    }
    assert_eq!(result.status.code(), Some(130), "{stderr}");
    let line = stderr.lines().last().unwrap();
    assert!(line.starts_with("kifu: interrupted after ") && line.contains(&format!(" of {n} inputs")), "{stderr}");
    assert!(line.contains("--skip-existing"), "{line}");
    let done: usize = line["kifu: interrupted after ".len()..].split(' ').next().unwrap().parse().unwrap();
    let written = std::fs::read_dir(&out).unwrap().count();
    assert!(written >= done && done < n, "{done} said, {written} written");
    // the advice works: the rest is converted, what was there kept
    let again = Command::new(KIFU).args(args).arg("--skip-existing").output().unwrap();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), n);
}
