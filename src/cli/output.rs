//! Printing diagnostics and writing outputs safely.

use kifu::{Diagnostic, Severity};
use std::io::{self, Write};
use std::path::Path;

/// How much to print.
#[derive(Clone, Copy, Debug)]
pub struct Verbosity {
    /// Hide warnings and notes (errors still print).
    pub quiet: bool,
    /// Also print informational notes.
    pub verbose: bool,
}

/// Prints `diags` for `name` to stderr as `name:line:col: severity[code]: message`.
pub fn print_diagnostics(name: &str, diags: &[Diagnostic], v: Verbosity) {
    let stderr = io::stderr();
    let mut err = stderr.lock();
    for d in diags {
        let show = match d.severity {
            Severity::Error => true,
            Severity::Warning => !v.quiet,
            Severity::Info => v.verbose && !v.quiet,
        };
        if show {
            let _ = writeln!(err, "{name}:{d}");
        }
    }
}

/// Formats one diagnostic line as the CLI prints it (for tests).
#[cfg(test)]
pub fn line(name: &str, d: &Diagnostic) -> String {
    format!("{name}:{d}")
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so the
/// destination never holds a half-written file. Refuses to replace an existing file unless
/// `force`.
pub fn write_atomically(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new().prefix(".kifu-").suffix(".tmp").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if force {
        tmp.persist(path).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// Writes to stdout; a closed pipe is not an error.
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_clobbers_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.sgf");
        write_atomically(&p, b"one", false).unwrap();
        let e = write_atomically(&p, b"two", false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomically(&p, b"two", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        // no temporary files left behind
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn line_format() {
        let d = Diagnostic::error("sgf.x", "bad").at(kifu::Position { line: 2, column: 5, offset: 9 });
        assert_eq!(line("a.sgf", &d), "a.sgf:2:5: error[sgf.x]: bad");
    }
}
