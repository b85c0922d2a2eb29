//! kifu's temporary files: named `.kifu-PID-XXXXXX.tmp`, registered while they exist so that a
//! signal handler can remove them ([`remove_temp_files`]), and removed by a later run when their
//! process is gone ([`remove_stale_temp_files`]).

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files of this process that are not yet renamed into place.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(super) fn temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Set once [`remove_temp_files`] ran: no new temporary file is created after it.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Removes every temporary file this process has open and refuses to create more (for a SIGINT
/// / SIGTERM handler that then exits); returns how many were removed.
pub fn remove_temp_files() -> usize {
    let mut list = temps();
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    let n = list.iter().filter(|p| fs::remove_file(p).is_ok()).count();
    list.clear();
    n
}

/// The prefix of this process's temporary files: `.kifu-PID-` (made once, not a `getpid` per
/// file).
pub(super) fn temp_prefix() -> &'static str {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PREFIX.get_or_init(|| format!(".kifu-{}-", std::process::id()))
}

/// Whether a file name is one of kifu's temporary files (`.kifu-….tmp`).
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with(".kifu-") && name.ends_with(".tmp")
}

/// Removes the temporary files (`.kifu-PID-XXXXXX.tmp`) that killed runs left in `dirs`: those
/// whose process is gone. Only where processes can be checked (`/proc`); returns how many.
pub fn remove_stale_temp_files(dirs: &BTreeSet<&Path>) -> usize {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return 0;
    }
    let mut removed = 0;
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Some(pid) =
                name.strip_prefix(".kifu-").filter(|n| n.ends_with(".tmp")).and_then(|n| n.split('-').next())
            else {
                continue;
            };
            let gone = pid.parse::<u32>().is_ok_and(|p| p != std::process::id() && !proc.join(pid).exists());
            if gone && entry.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

/// Removes its path from the registry when dropped (the file itself is removed or renamed by
/// `tempfile`).
pub(super) struct Registered(pub(super) PathBuf);

impl Drop for Registered {
    fn drop(&mut self) {
        temps().retain(|p| p != &self.0);
    }
}

/// Registers `path` and creates it (new, `mode` or `0666` subject to the umask). Registration
/// comes first, under the lock that [`remove_temp_files`] takes, so an interrupted process never
/// creates a temporary file it will not remove.
pub(super) fn create_registered(path: &Path, mode: Option<&fs::Permissions>) -> io::Result<fs::File> {
    {
        let mut list = temps();
        if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        list.push(path.to_path_buf());
    }
    let mut open = fs::OpenOptions::new();
    open.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        open.mode(mode.map_or(0o666, |m| m.mode() & 0o7777));
    }
    let _ = mode;
    open.open(path).inspect_err(|_| temps().retain(|p| p != path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temp_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let own = format!("{}abc.tmp", temp_prefix());
        for name in [".kifu-4000000-abc.tmp", own.as_str(), ".kifu-x.tmp", "game.sgf"] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        let removed = remove_stale_temp_files(&BTreeSet::from([dir.path()]));
        if Path::new("/proc/self").exists() {
            assert_eq!(removed, 1);
            assert!(!dir.path().join(".kifu-4000000-abc.tmp").exists());
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 4 - removed);
        assert!(is_temp_name(&own) && !is_temp_name("kifu-abc.tmp"));
    }
}
