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

/// Length of the random part of a temporary file's name (as `tempfile` makes it: ASCII letters
/// and digits).
const RANDOM_LEN: usize = 6;

/// The process id in a name made exactly as kifu names its temporary files:
/// `.kifu-PID-XXXXXX.tmp`, the PID a decimal `u32` above zero without leading zeros, `XXXXXX`
/// six ASCII letters or digits. `None` for any other name (`.kifu-999999-keep.tmp`).
fn temp_name_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(".kifu-")?.strip_suffix(".tmp")?;
    let (pid, random) = rest.split_once('-')?;
    let digits = !pid.is_empty() && pid.len() <= 10 && pid.bytes().all(|b| b.is_ascii_digit());
    if !digits || pid.starts_with('0') {
        return None;
    }
    if random.len() != RANDOM_LEN || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether the file `meta` describes belongs to the user running this process (always true
/// where ownership cannot be told).
fn owned_by_us(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        // SAFETY: `geteuid` has no preconditions and cannot fail.
        std::os::unix::fs::MetadataExt::uid(meta) == unsafe { libc::geteuid() }
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

/// Removes the temporary files that killed runs left in `dirs`, and only what kifu can tell it
/// made: a regular file (not a link, not a folder) named exactly `.kifu-PID-XXXXXX.tmp` (the PID
/// in decimal without leading zeros, six ASCII letters or digits), owned by the user running
/// this process, whose process `PID` is not this
/// one and is gone. Only where processes can be checked (`/proc`); returns how many. A file a
/// user named that way is indistinguishable from kifu's own and is removed once its "process"
/// is gone: `formats/cli.md` reserves the pattern.
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
            let Some(pid) = name.to_str().and_then(temp_name_pid) else { continue };
            if pid == std::process::id() || proc.join(pid.to_string()).exists() {
                continue;
            }
            // `symlink_metadata`: a link is not followed, so never counted as a file.
            let ours = fs::symlink_metadata(entry.path()).is_ok_and(|m| m.file_type().is_file() && owned_by_us(&m));
            if ours && fs::remove_file(entry.path()).is_ok() {
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
        let own = format!("{}aB3xYz.tmp", temp_prefix());
        for name in [".kifu-4000000-aB3xYz.tmp", own.as_str(), ".kifu-x.tmp", "game.sgf"] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        let removed = remove_stale_temp_files(&BTreeSet::from([dir.path()]));
        if Path::new("/proc/self").exists() {
            assert_eq!(removed, 1);
            assert!(!dir.path().join(".kifu-4000000-aB3xYz.tmp").exists());
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 4 - removed);
        assert!(is_temp_name(&own) && !is_temp_name("kifu-abc.tmp"));
    }

    /// Files a user may have named: only the exact pattern of kifu's names, as a regular file,
    /// counts; a file named `.kifu-999999-keep.tmp` was once removed without a word.
    #[test]
    fn files_not_named_exactly_as_kifu_names_them_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let kept = [
            ".kifu-999999-keep.tmp",
            ".kifu-4000000-abcdefg.tmp",
            ".kifu-4000000-abcde.tmp",
            ".kifu-4000000-abc-de.tmp",
            ".kifu-4000000-abcd_e.tmp",
            ".kifu-04000000-abcdef.tmp",
            ".kifu-0-abcdef.tmp",
            ".kifu--4000000-abcdef.tmp",
            ".kifu-99999999999-abcdef.tmp",
            ".kifu-4000000-abcdef.tmp.bak",
            "kifu-4000000-abcdef.tmp",
            ".kifu-4000000-abcdef.TMP",
        ];
        for name in kept {
            fs::write(dir.path().join(name), "a user's file").unwrap();
        }
        // A folder and a link named as kifu names its files.
        fs::create_dir(dir.path().join(".kifu-4000001-abcdef.tmp")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("game.sgf", dir.path().join(".kifu-4000002-abcdef.tmp")).unwrap();
        fs::write(dir.path().join(".kifu-4000003-Zz09aA.tmp"), "kifu's").unwrap();
        let removed = remove_stale_temp_files(&BTreeSet::from([dir.path()]));
        if Path::new("/proc/self").exists() {
            assert_eq!(removed, 1);
            assert!(!dir.path().join(".kifu-4000003-Zz09aA.tmp").exists());
        }
        for name in kept {
            assert_eq!(fs::read(dir.path().join(name)).unwrap(), b"a user's file", "{name}");
        }
        assert!(dir.path().join(".kifu-4000001-abcdef.tmp").is_dir());
        #[cfg(unix)]
        assert!(fs::symlink_metadata(dir.path().join(".kifu-4000002-abcdef.tmp")).is_ok());
        assert_eq!(temp_name_pid(".kifu-4000000-abcdef.tmp"), Some(4_000_000));
        assert_eq!(temp_name_pid(&format!("{}aB3xYz.tmp", temp_prefix())), Some(std::process::id()));
    }

    #[test]
    fn kifus_own_temporary_names_match_the_pattern() {
        let dir = tempfile::tempdir().unwrap();
        for _ in 0..50 {
            let tmp = tempfile::Builder::new().prefix(temp_prefix()).suffix(".tmp").tempfile_in(dir.path()).unwrap();
            let name = tmp.path().file_name().unwrap().to_str().unwrap().to_string();
            assert_eq!(temp_name_pid(&name), Some(std::process::id()), "{name}");
        }
    }
}
