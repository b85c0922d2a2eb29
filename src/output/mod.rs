//! Writing one output file safely, the same way for every command and every kind of output:
//! [`kifu::write_file`](crate::write_file), the command's `-o`, `kifu convert -r`
//! (the command's batch runs) and streamed conversions ([`stream`](crate::stream)) all write
//! through [`write_output`] or [`write_output_with`].
//!
//! [`write_output`] never leaves a half-written file (a temporary file beside the destination,
//! then a rename), never replaces a file it was not asked to (an existing file whose bytes differ
//! needs [`Existing::Force`]), leaves an identical file untouched ([`Written::Unchanged`]), writes
//! *through* character devices, FIFOs and sockets (`/dev/null`, `/dev/stdout`) instead of
//! replacing them, replaces the *target* of a symbolic link (never the link), gives new files the
//! usual `0666` minus the umask, and keeps the mode of a file it replaces. Every temporary file is
//! named `.kifu-PID-XXXXXX.tmp` and registered, so a signal handler can remove them
//! ([`remove_temp_files`]) and a later run can remove those of dead processes
//! ([`remove_stale_temp_files`]).
//!
//! ```
//! use kifu::output::{Existing, OutputPolicy, Written, write_output};
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("game.sgf");
//! let policy = OutputPolicy::default(); // refuse to replace a different file
//! assert_eq!(write_output(&path, b"(;GM[1])", &policy).unwrap(), Written::Created);
//! assert_eq!(write_output(&path, b"(;GM[1])", &policy).unwrap(), Written::Unchanged);
//! assert!(write_output(&path, b"(;SZ[9])", &policy).unwrap_err().exists());
//! let force = policy.with_existing(Existing::Force);
//! assert_eq!(write_output(&path, b"(;SZ[9])", &force).unwrap(), Written::Replaced);
//! ```

mod compare;
mod temps;

pub use temps::{is_temp_name, remove_stale_temp_files, remove_temp_files};

use compare::{Compare, Tee};
use std::fs::{self, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use temps::{Registered, create_registered, temp_prefix};

/// What to do when an output file already exists and its bytes differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Existing {
    /// Leave the file alone and fail with [`OutputError::Exists`] (a batch run records the
    /// input as failed, `batch.output-exists`).
    #[default]
    Refuse,
    /// Replace it (`--force`).
    Force,
    /// Leave it ([`Written::Kept`]); a batch run records the input as skipped
    /// (`--skip-existing`), so an interrupted run can be resumed.
    Skip,
}

/// How [`write_output`] treats what is already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OutputPolicy {
    /// What to do with an existing regular file whose bytes differ.
    pub existing: Existing,
    /// Decide and report, but write nothing and create no folder.
    pub dry_run: bool,
    /// Create a missing parent folder (batch outputs under `-O`); otherwise it is an error.
    pub create_dirs: bool,
    /// Make a file written through a temporary one durable: its data synced before it is
    /// renamed into place, its folder synced after (so a power loss leaves the old file or the
    /// whole new one). On by default; off (`--no-sync`), a killed process still never leaves a
    /// partial output, but a power loss may.
    pub sync: bool,
}

impl Default for OutputPolicy {
    /// Refuse to replace a different file, write, create no folder, sync.
    fn default() -> Self {
        OutputPolicy { existing: Existing::Refuse, dry_run: false, create_dirs: false, sync: true }
    }
}

impl OutputPolicy {
    /// One named file: replaced when it differs (`replace`) or refused; no folder created.
    ///
    /// ```
    /// use kifu::output::{Existing, OutputPolicy};
    /// assert_eq!(OutputPolicy::single(true).existing, Existing::Force);
    /// assert!(!OutputPolicy::single(false).create_dirs);
    /// ```
    pub fn single(replace: bool) -> OutputPolicy {
        let existing = if replace { Existing::Force } else { Existing::Refuse };
        OutputPolicy { existing, ..OutputPolicy::default() }
    }

    /// This policy with [`OutputPolicy::existing`] set.
    pub fn with_existing(mut self, existing: Existing) -> OutputPolicy {
        self.existing = existing;
        self
    }

    /// This policy with [`OutputPolicy::dry_run`] set.
    pub fn with_dry_run(mut self, dry_run: bool) -> OutputPolicy {
        self.dry_run = dry_run;
        self
    }

    /// This policy with [`OutputPolicy::create_dirs`] set.
    pub fn with_create_dirs(mut self, create_dirs: bool) -> OutputPolicy {
        self.create_dirs = create_dirs;
        self
    }

    /// This policy with [`OutputPolicy::sync`] set.
    pub fn with_sync(mut self, sync: bool) -> OutputPolicy {
        self.sync = sync;
        self
    }
}

/// What [`write_output`] did (or, in a dry run, would do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// A new file was created.
    Created,
    /// A different existing file was replaced (`--force`); it kept its mode.
    Replaced,
    /// The file already held exactly these bytes; nothing was written, its mtime is untouched.
    Unchanged,
    /// A character device, FIFO or socket was written through.
    Through,
    /// A different existing file was kept ([`Existing::Skip`]).
    Kept,
}

impl Written {
    /// Whether the destination holds the bytes afterwards (everything but [`Written::Kept`]).
    pub fn holds_output(self) -> bool {
        self != Written::Kept
    }
}

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// A different file exists and neither force nor skip was asked.
    #[error("{} exists and differs from what kifu would write; give --force to replace it", .0.display())]
    Exists(PathBuf),
    /// A symbolic link whose target differs, without force.
    #[error("{link} is a link to {target}, which exists and differs; give --force to replace {target}", link = .0.display(), target = .1.display())]
    LinkTargetExists(PathBuf, PathBuf),
    /// A symbolic link that points nowhere.
    #[error("{} is a symbolic link to a missing file; refusing to write through it", .0.display())]
    DanglingLink(PathBuf),
    /// The parent folder does not exist (and may not be created).
    #[error("folder {}/ does not exist", .0.display())]
    NoFolder(PathBuf),
    /// The path is a folder.
    #[error("{} is a folder", .0.display())]
    IsFolder(PathBuf),
    /// The path is a block device (a disk): never written.
    #[error("{} is a block device; kifu does not write to disks", .0.display())]
    BlockDevice(PathBuf),
    /// The output could not be opened or created.
    #[error("cannot create {}: {}", .0.display(), .1)]
    Create(PathBuf, io::Error),
    /// Writing the bytes failed (a full disk, `/dev/full`, a closed FIFO).
    #[error("cannot write {}: {}", .0.display(), .1)]
    Write(PathBuf, io::Error),
}

impl OutputError {
    /// Whether the output could not be created at all (exit 73); otherwise writing failed (74).
    pub fn cannot_create(&self) -> bool {
        !matches!(self, OutputError::Write(..))
    }

    /// Whether the error is an existing file that `--force` would replace.
    pub fn exists(&self) -> bool {
        matches!(self, OutputError::Exists(_) | OutputError::LinkTargetExists(..))
    }
}

/// The error as [`io::Error`] for callers outside the command (`kifu::write_file`): the
/// system's own error for [`Create`](OutputError::Create) and [`Write`](OutputError::Write)
/// (its errno kept; the caller knows the path), else a kind ([`AlreadyExists`] for a different
/// existing file, [`NotFound`] for a missing folder or a dangling link, [`IsADirectory`],
/// [`InvalidInput`] for a block device) with a message that names the paths and no option.
///
/// [`AlreadyExists`]: io::ErrorKind::AlreadyExists
/// [`NotFound`]: io::ErrorKind::NotFound
/// [`IsADirectory`]: io::ErrorKind::IsADirectory
/// [`InvalidInput`]: io::ErrorKind::InvalidInput
///
/// ```
/// use kifu::output::OutputError;
/// let e = std::io::Error::from(OutputError::Exists("game.sgf".into()));
/// assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
/// assert_eq!(e.to_string(), "game.sgf exists and differs from the output");
/// ```
impl From<OutputError> for io::Error {
    fn from(e: OutputError) -> io::Error {
        let message = e.to_string();
        let (kind, message) = match e {
            OutputError::Create(_, e) | OutputError::Write(_, e) => return e,
            OutputError::Exists(p) => {
                (io::ErrorKind::AlreadyExists, format!("{} exists and differs from the output", p.display()))
            }
            OutputError::LinkTargetExists(link, target) => {
                let (link, target) = (link.display(), target.display());
                (
                    io::ErrorKind::AlreadyExists,
                    format!("{link} is a link to {target}, which exists and differs from the output"),
                )
            }
            OutputError::DanglingLink(_) | OutputError::NoFolder(_) => (io::ErrorKind::NotFound, message),
            OutputError::IsFolder(_) => (io::ErrorKind::IsADirectory, message),
            OutputError::BlockDevice(_) => (io::ErrorKind::InvalidInput, message),
        };
        io::Error::new(kind, message)
    }
}

/// Whether `a` and `b` name one existing file (by device and inode on Unix, so links, hard
/// links and `..` do not hide it; by canonical path elsewhere).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

/// The folder `path` is in (`.` for a bare name).
pub fn parent_folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` under `policy` (see the module documentation); returns what was done.
///
/// This is the one way kifu writes a file: single-file `-o`, batch outputs, `--split`,
/// `--merge` and `--report` all go through it (or through [`write_output_with`], which it calls).
pub fn write_output(path: &Path, bytes: &[u8], policy: &OutputPolicy) -> Result<Written, OutputError> {
    // The length is known: an existing file of another length is not read, and one equal to the
    // bytes is found so before any temporary file is made, `Force` or not.
    write_sized(path, policy, Some(bytes.len() as u64), &mut |w: &mut (dyn Write + Send)| w.write_all(bytes))
}

/// Whether `path` names an open file descriptor (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`,
/// directly or through links): the file the caller already opened for us, written through.
fn is_descriptor(path: &Path) -> bool {
    let mut cur = path.to_path_buf();
    for _ in 0..8 {
        let s = cur.to_string_lossy();
        if s.starts_with("/dev/fd/") || s.starts_with("/proc/self/fd/") || s.starts_with("/proc/thread-self/fd/") {
            return true;
        }
        match fs::read_link(&cur) {
            Ok(next) => cur = if next.is_absolute() { next } else { parent_folder(&cur).join(next) },
            Err(_) => return false,
        }
    }
    false
}

#[cfg(unix)]
fn is_block_device(m: &Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_block_device(&m.file_type())
}

#[cfg(not(unix))]
fn is_block_device(_: &Metadata) -> bool {
    false
}

/// What fills a streamed output: writes the bytes into the writer it is given.
pub type Fill<'f> = &'f mut dyn FnMut(&mut (dyn Write + Send)) -> io::Result<()>;

/// [`write_output`] for output produced as it is written (a streaming conversion): `fill`
/// writes the bytes, into a temporary file beside `path` that is then renamed into place, or
/// through a device. The same rules apply; an existing file is compared with the bytes as they
/// are written, and left untouched when they are equal ([`Written::Unchanged`]). When `fill`
/// fails, nothing is renamed into place and the temporary file is removed; its error is returned
/// as [`OutputError::Write`]. A dry run calls `fill` with a writer that only compares.
pub fn write_output_with(path: &Path, policy: &OutputPolicy, fill: Fill<'_>) -> Result<Written, OutputError> {
    write_sized(path, policy, None, fill)
}

/// [`write_output_with`], with the output's length when it is known beforehand (then `fill`
/// may be called twice: to compare, then to write).
fn write_sized(path: &Path, policy: &OutputPolicy, size: Option<u64>, fill: Fill<'_>) -> Result<Written, OutputError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => create_with(path, policy, size, fill),
        Err(e) => Err(OutputError::Create(path.to_path_buf(), e)),
        Ok(m) if m.file_type().is_symlink() => {
            if is_descriptor(path) {
                return through_with(path, policy, fill);
            }
            match fs::metadata(path) {
                Err(_) => Err(OutputError::DanglingLink(path.to_path_buf())),
                Ok(t) if t.is_file() => {
                    let target = fs::canonicalize(path).map_err(|e| OutputError::Create(path.to_path_buf(), e))?;
                    existing_with(&target, &t, policy, size, fill).map_err(|e| match e {
                        OutputError::Exists(t) => OutputError::LinkTargetExists(path.to_path_buf(), t),
                        e => e,
                    })
                }
                Ok(t) if t.is_dir() => Err(OutputError::IsFolder(path.to_path_buf())),
                Ok(t) if is_block_device(&t) => Err(OutputError::BlockDevice(path.to_path_buf())),
                Ok(_) => through_with(path, policy, fill),
            }
        }
        Ok(m) if m.is_dir() => Err(OutputError::IsFolder(path.to_path_buf())),
        Ok(m) if m.is_file() => existing_with(path, &m, policy, size, fill),
        Ok(m) if is_block_device(&m) => Err(OutputError::BlockDevice(path.to_path_buf())),
        Ok(_) => through_with(path, policy, fill),
    }
}

/// An existing regular file, compared while the new bytes are produced (not read at all when
/// the output's known `size` differs from its length).
fn existing_with(
    path: &Path,
    meta: &Metadata,
    policy: &OutputPolicy,
    size: Option<u64>,
    fill: Fill<'_>,
) -> Result<Written, OutputError> {
    let decide = |equal: bool| match policy.existing {
        _ if equal => Ok(Written::Unchanged),
        Existing::Refuse => Err(OutputError::Exists(path.to_path_buf())),
        Existing::Skip => Ok(Written::Kept),
        Existing::Force => Ok(Written::Replaced),
    };
    let old = (path, meta.len());
    let compare_first = size == Some(meta.len());
    if policy.dry_run || policy.existing != Existing::Force || compare_first {
        // Only a replacement needs the bytes on disk: refusing, keeping or finding them equal
        // needs a comparison alone, and leaves no temporary file behind. Bytes of a known
        // length are compared first even when forced: an equal file needs no temporary one.
        let mut compare = Compare::new(Some(old), size);
        {
            let mut out = io::BufWriter::with_capacity(buffer_for(size, 1 << 16), &mut compare);
            fill(&mut out).and_then(|()| out.flush()).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
        }
        let equal = compare.finish();
        if policy.dry_run || policy.existing != Existing::Force || equal {
            return decide(equal);
        }
    }
    // Forced: compared while written unless the comparison was made (or the lengths differ).
    let against = (size.is_none()).then_some(old);
    let staged = stage(path, Some(meta.permissions()), against, size, fill)?;
    let written = decide(staged.equal)?;
    if written == Written::Replaced {
        staged.replace(path, policy)?;
    }
    Ok(written)
}

/// A path where nothing exists yet. The folder is looked at only when the temporary file
/// cannot be created (one failed open instead of a `stat` per file in a batch run).
fn create_with(path: &Path, policy: &OutputPolicy, size: Option<u64>, fill: Fill<'_>) -> Result<Written, OutputError> {
    let dir = parent_folder(path);
    let missing = |dir: &Path| if policy.create_dirs { None } else { Some(OutputError::NoFolder(dir.to_path_buf())) };
    if policy.dry_run {
        if let Some(e) = missing(dir).filter(|_| !dir.is_dir()) {
            return Err(e);
        }
        fill(&mut io::sink()).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
        return Ok(Written::Created);
    }
    let staged = match stage(path, None, None, size, fill) {
        // The folder is missing, or was missing when the open was tried: another worker may
        // have created it since, so a folder that exists now means "try again", not a failure.
        Err(OutputError::Create(_, e)) if e.kind() == io::ErrorKind::NotFound => {
            if !dir.is_dir() {
                if let Some(e) = missing(dir) {
                    return Err(e);
                }
                fs::create_dir_all(dir).map_err(|e| OutputError::Create(dir.to_path_buf(), e))?;
            }
            stage(path, None, None, size, fill)?
        }
        r => r?,
    };
    staged.place_new(path, policy)
}

/// A character device, FIFO, socket or open descriptor: opened and written, never replaced. It
/// is opened for appending, so `-o /dev/stdout` after a shell's `>>` adds to the file.
fn through_with(path: &Path, policy: &OutputPolicy, fill: Fill<'_>) -> Result<Written, OutputError> {
    if policy.dry_run {
        fill(&mut io::sink()).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
        return Ok(Written::Through);
    }
    let file = fs::OpenOptions::new().append(true).open(path).map_err(|e| OutputError::Create(path.into(), e))?;
    let mut out = io::BufWriter::with_capacity(1 << 20, file);
    fill(&mut out).and_then(|()| out.flush()).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
    Ok(Written::Through)
}

/// A filled temporary file beside its destination, not yet renamed.
struct Staged {
    tmp: tempfile::NamedTempFile,
    _registered: Registered,
    /// Whether its bytes equal the file it was compared with.
    equal: bool,
}

impl Staged {
    /// Renames it into place, replacing what is there.
    fn replace(self, path: &Path, policy: &OutputPolicy) -> Result<(), OutputError> {
        self.sync(path, policy)?;
        let Staged { tmp, _registered, .. } = self;
        tmp.persist(path).map_err(|e| OutputError::Create(path.to_path_buf(), e.error))?;
        sync_folder(path, policy)
    }

    /// Renames it into place where nothing was: [`Written::Created`]. Another writer may have
    /// put a file there since (concurrent runs on one folder): when it holds the same bytes it
    /// is the output, [`Written::Unchanged`], whoever wrote it; otherwise the policy decides as
    /// for a file that was there from the start.
    fn place_new(self, path: &Path, policy: &OutputPolicy) -> Result<Written, OutputError> {
        self.sync(path, policy)?;
        let Staged { tmp, _registered, .. } = self;
        let tmp = match tmp.persist_noclobber(path) {
            Ok(_) => return sync_folder(path, policy).map(|()| Written::Created),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => e.file,
            Err(e) => return Err(OutputError::Create(path.to_path_buf(), e.error)),
        };
        let exists = || OutputError::Exists(path.to_path_buf());
        // Only a regular file can be the same output; anything else that appeared is refused.
        let there = fs::symlink_metadata(path).map_err(|e| OutputError::Create(path.to_path_buf(), e))?;
        if !there.is_file() {
            return Err(exists());
        }
        let ours = tmp.as_file().metadata().map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
        let mut compare = Compare::new(Some((path, there.len())), Some(ours.len()));
        if compare.is_open() {
            let mut staged = fs::File::open(tmp.path()).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
            io::copy(&mut staged, &mut compare).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
        }
        match policy.existing {
            _ if compare.finish() => Ok(Written::Unchanged),
            Existing::Refuse => Err(exists()),
            Existing::Skip => Ok(Written::Kept),
            Existing::Force => {
                tmp.persist(path).map_err(|e| OutputError::Create(path.to_path_buf(), e.error))?;
                sync_folder(path, policy).map(|()| Written::Replaced)
            }
        }
    }

    /// Syncs its data to the disk when the policy asks.
    fn sync(&self, path: &Path, policy: &OutputPolicy) -> Result<(), OutputError> {
        if !policy.sync {
            return Ok(());
        }
        #[cfg(test)]
        tests::SYNCS.with(|s| s.borrow_mut().push("file"));
        self.tmp.as_file().sync_all().map_err(|e| OutputError::Write(path.to_path_buf(), e))
    }
}

/// Syncs the folder of `path` (where a file was just renamed) when the policy asks, so the
/// rename itself survives a power loss. Only on Unix (elsewhere a folder cannot be opened as a
/// file); a file system that cannot sync a folder (`EINVAL`) is taken as done.
fn sync_folder(path: &Path, policy: &OutputPolicy) -> Result<(), OutputError> {
    if !policy.sync || !cfg!(unix) {
        return Ok(());
    }
    #[cfg(test)]
    tests::SYNCS.with(|s| s.borrow_mut().push("folder"));
    let synced = fs::File::open(parent_folder(path)).and_then(|dir| dir.sync_all());
    match synced {
        Err(e) if !matches!(e.kind(), io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported) => {
            Err(OutputError::Write(path.to_path_buf(), e))
        }
        _ => Ok(()),
    }
}

/// The buffer between `fill` and a file: none for bytes of a known `size` (written in one
/// piece), else `streamed`.
fn buffer_for(size: Option<u64>, streamed: usize) -> usize {
    if size.is_some() { 0 } else { streamed }
}

/// Creates a registered temporary file beside `path` (with `mode`, the replaced file's, set
/// explicitly so the umask cannot narrow it) and fills it with the output (of `size` bytes when
/// known), comparing with the file at `compare` (path, length) as it goes.
fn stage(
    path: &Path,
    mode: Option<fs::Permissions>,
    compare: Option<(&Path, u64)>,
    size: Option<u64>,
    fill: Fill<'_>,
) -> Result<Staged, OutputError> {
    let dir = parent_folder(path);
    let tmp = tempfile::Builder::new()
        .prefix(temp_prefix())
        .suffix(".tmp")
        .make_in(dir, |p| create_registered(p, mode.as_ref()))
        .map_err(|e| OutputError::Create(path.to_path_buf(), e))?;
    let registered = Registered(tmp.path().to_path_buf());
    if let Some(m) = &mode {
        fs::set_permissions(tmp.path(), m.clone()).map_err(|e| OutputError::Create(path.to_path_buf(), e))?;
    }
    let mut tmp = tmp;
    let mut tee = Tee { file: tmp.as_file_mut(), compare: Compare::new(compare, size) };
    {
        let mut out = io::BufWriter::with_capacity(buffer_for(size, 1 << 20), &mut tee);
        fill(&mut out).and_then(|()| out.flush()).map_err(|e| OutputError::Write(path.to_path_buf(), e))?;
    }
    let equal = tee.compare.finish();
    Ok(Staged { tmp, _registered: registered, equal })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFUSE: OutputPolicy =
        OutputPolicy { existing: Existing::Refuse, dry_run: false, create_dirs: false, sync: true };

    std::thread_local! {
        /// What this thread synced, in order (`file`, `folder`).
        pub(super) static SYNCS: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    fn syncs() -> Vec<&'static str> {
        SYNCS.with(|s| std::mem::take(&mut *s.borrow_mut()))
    }

    #[test]
    fn files_renamed_into_place_are_synced_then_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.sgf");
        syncs();
        assert_eq!(write_output(&p, b"one", &REFUSE).unwrap(), Written::Created);
        assert_eq!(syncs(), ["file", "folder"]);
        // Nothing written, nothing synced.
        assert_eq!(write_output(&p, b"one", &REFUSE).unwrap(), Written::Unchanged);
        assert!(write_output(&p, b"two", &REFUSE).is_err());
        assert_eq!(syncs(), [""; 0]);
        let force = OutputPolicy { existing: Existing::Force, ..REFUSE };
        assert_eq!(write_output(&p, b"two", &force).unwrap(), Written::Replaced);
        let fill = |text: &'static [u8]| move |w: &mut (dyn Write + Send)| w.write_all(text);
        assert_eq!(write_output_with(&p, &force, &mut fill(b"three")).unwrap(), Written::Replaced);
        assert_eq!(write_output_with(&dir.path().join("new.sgf"), &force, &mut fill(b"x")).unwrap(), Written::Created);
        assert_eq!(syncs(), ["file", "folder", "file", "folder", "file", "folder"]);
        // Devices are written through, not synced; nor is anything without `sync`.
        assert_eq!(write_output(Path::new("/dev/null"), b"x", &REFUSE).unwrap(), Written::Through);
        let unsynced = OutputPolicy { sync: false, ..force };
        assert_eq!(write_output(&p, b"four", &unsynced).unwrap(), Written::Replaced);
        assert_eq!(write_output(&dir.path().join("other.sgf"), b"x", &unsynced).unwrap(), Written::Created);
        assert_eq!(syncs(), [""; 0]);
        assert_eq!(fs::read(&p).unwrap(), b"four");
        assert!(OutputPolicy::default().sync && OutputPolicy::single(true).sync);
    }

    /// Another writer puts a file where a new output goes, between the look and the rename:
    /// the same bytes are the output (`unchanged`), other bytes are a file that exists.
    #[test]
    fn a_file_that_appears_before_the_rename_is_compared_again() {
        let dir = tempfile::tempdir().unwrap();
        let staged_for = |p: &Path, bytes: &'static [u8]| {
            stage(p, None, None, Some(bytes.len() as u64), &mut |w: &mut (dyn Write + Send)| w.write_all(bytes))
                .unwrap()
        };
        let p = dir.path().join("out.sgf");
        let skip = OutputPolicy { existing: Existing::Skip, ..REFUSE };
        let force = OutputPolicy { existing: Existing::Force, ..REFUSE };
        // What another writer put there, the policy, what is done (`None`: refused), what is
        // there after.
        type Case = (&'static [u8], OutputPolicy, Option<Written>, &'static [u8]);
        let cases: [Case; 5] = [
            (b"(;GM[1])", REFUSE, Some(Written::Unchanged), b"(;GM[1])"),
            (b"(;GM[2])", REFUSE, None, b"(;GM[2])"),
            (b"(;GM[1])x", REFUSE, None, b"(;GM[1])x"),
            (b"(;GM[2])", skip, Some(Written::Kept), b"(;GM[2])"),
            (b"(;GM[2])", force, Some(Written::Replaced), b"(;GM[1])"),
        ];
        for (there, policy, expected, after) in cases {
            let staged = staged_for(&p, b"(;GM[1])");
            fs::write(&p, there).unwrap();
            match (staged.place_new(&p, &policy), expected) {
                (Ok(w), Some(e)) => assert_eq!(w, e),
                (Err(e), None) => assert!(e.exists(), "{e}"),
                (r, e) => panic!("{r:?}, expected {e:?}"),
            }
            assert_eq!(fs::read(&p).unwrap(), after);
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
            fs::remove_file(&p).unwrap();
        }
        // A folder that appeared is no output.
        let staged = staged_for(&p, b"(;GM[1])");
        fs::create_dir(&p).unwrap();
        assert!(staged.place_new(&p, &force).unwrap_err().exists());
    }

    /// Concurrent runs writing the same bytes to one new file: one creates it, the others find
    /// it unchanged; none reports that it exists and differs.
    #[test]
    fn concurrent_writers_of_the_same_bytes_all_succeed() {
        for round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("same.sgf");
            let barrier = std::sync::Barrier::new(6);
            let results: Vec<Written> = std::thread::scope(|s| {
                let workers: Vec<_> = (0..6)
                    .map(|_| {
                        s.spawn(|| {
                            barrier.wait();
                            write_output(&p, b"(;GM[1]PB[same])", &REFUSE)
                        })
                    })
                    .collect();
                workers.into_iter().map(|w| w.join().unwrap().expect("no false 'exists and differs'")).collect()
            });
            assert_eq!(results.iter().filter(|&&w| w == Written::Created).count(), 1, "round {round}: {results:?}");
            assert!(results.iter().all(|&w| matches!(w, Written::Created | Written::Unchanged)));
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
        }
    }

    #[test]
    fn creates_refuses_keeps_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.sgf");
        assert_eq!(write_output(&p, b"one", &REFUSE).unwrap(), Written::Created);
        assert_eq!(write_output(&p, b"one", &REFUSE).unwrap(), Written::Unchanged);
        assert!(write_output(&p, b"two", &REFUSE).unwrap_err().exists());
        let skip = OutputPolicy { existing: Existing::Skip, ..REFUSE };
        assert_eq!(write_output(&p, b"two", &skip).unwrap(), Written::Kept);
        assert_eq!(fs::read(&p).unwrap(), b"one");
        let force = OutputPolicy { existing: Existing::Force, ..REFUSE };
        assert_eq!(write_output(&p, b"two", &force).unwrap(), Written::Replaced);
        assert_eq!(fs::read(&p).unwrap(), b"two");
        // Forced, the same bytes: found equal before any temporary file, the file left as it is;
        // other bytes of the same length replace it.
        #[cfg(unix)]
        let inode = || std::os::unix::fs::MetadataExt::ino(&fs::metadata(&p).unwrap());
        #[cfg(unix)]
        let first = inode();
        assert_eq!(write_output(&p, b"two", &force).unwrap(), Written::Unchanged);
        #[cfg(unix)]
        assert_eq!(inode(), first, "not replaced");
        assert_eq!(write_output(&p, b"TWO", &force).unwrap(), Written::Replaced);
        assert_eq!(fs::read(&p).unwrap(), b"TWO");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
        assert!(!temps::temps().iter().any(|t| t.starts_with(dir.path())));
    }

    #[test]
    fn output_errors_become_io_errors_of_their_kind() {
        use io::ErrorKind as K;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.sgf");
        write_output(&p, b"one", &REFUSE).unwrap();
        let io_error = |path: &Path| io::Error::from(write_output(path, b"two", &REFUSE).unwrap_err());
        let exists = io_error(&p);
        assert_eq!(exists.kind(), K::AlreadyExists);
        assert_eq!(exists.to_string(), format!("{} exists and differs from the output", p.display()));
        let no_folder = io_error(&dir.path().join("x/b.sgf"));
        assert_eq!(no_folder.kind(), K::NotFound);
        assert!(no_folder.to_string().contains("does not exist"), "{no_folder}");
        assert_eq!(io_error(dir.path()).kind(), K::IsADirectory);
        // The system's own error is passed on as it is, its errno kept.
        let denied = io::Error::from_raw_os_error(13);
        let e = io::Error::from(OutputError::Create(p.clone(), denied));
        assert_eq!((e.raw_os_error(), e.kind()), (Some(13), K::PermissionDenied));
        let e = io::Error::from(OutputError::Write(p.clone(), io::Error::new(K::StorageFull, "full")));
        assert_eq!((e.kind(), e.to_string().as_str()), (K::StorageFull, "full"));
        let l = io::Error::from(OutputError::LinkTargetExists("l".into(), "t".into()));
        assert_eq!(
            (l.kind(), l.to_string().as_str()),
            (K::AlreadyExists, "l is a link to t, which exists and differs from the output")
        );
        assert_eq!(io::Error::from(OutputError::DanglingLink(p.clone())).kind(), K::NotFound);
        assert_eq!(io::Error::from(OutputError::BlockDevice(p.clone())).kind(), K::InvalidInput);
        for e in [exists, no_folder, l] {
            assert!(!e.to_string().contains("--force"), "no option of the command in a library error: {e}");
        }
    }

    #[test]
    fn outputs_larger_than_a_comparison_piece_are_compared_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.sgf");
        let big: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        assert_eq!(write_output(&p, &big, &REFUSE).unwrap(), Written::Created);
        assert_eq!(write_output(&p, &big, &REFUSE).unwrap(), Written::Unchanged);
        let mut last = big.clone();
        *last.last_mut().unwrap() = b'!';
        assert!(write_output(&p, &last, &REFUSE).unwrap_err().exists());
        assert!(write_output(&p, &big[..big.len() - 1], &REFUSE).unwrap_err().exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }

    /// Workers writing the first files of a folder that does not exist yet: each either creates
    /// the folder or finds it created by another, and every file is written (a CI failure: the
    /// worker that saw the folder appear between its failed open and its check gave up).
    #[test]
    fn workers_creating_one_folder_at_once_all_succeed() {
        for round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let sub = dir.path().join(format!("r{round}/a/b"));
            let mk = OutputPolicy { create_dirs: true, ..REFUSE };
            let barrier = std::sync::Barrier::new(8);
            std::thread::scope(|s| {
                for i in 0..8 {
                    let (sub, barrier) = (&sub, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        let r = write_output(&sub.join(format!("{i}.sgf")), b"(;GM[1])", &mk);
                        assert_eq!(r.unwrap(), Written::Created, "worker {i}, round {round}");
                    });
                }
            });
            assert_eq!(fs::read_dir(&sub).unwrap().count(), 8);
        }
    }

    #[test]
    fn streamed_outputs_follow_the_same_rules() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.sgf");
        let fill = |text: &'static [u8]| move |w: &mut (dyn Write + Send)| w.write_all(text);
        assert_eq!(write_output_with(&p, &REFUSE, &mut fill(b"one")).unwrap(), Written::Created);
        assert_eq!(write_output_with(&p, &REFUSE, &mut fill(b"one")).unwrap(), Written::Unchanged);
        assert!(write_output_with(&p, &REFUSE, &mut fill(b"on")).unwrap_err().exists());
        assert!(write_output_with(&p, &REFUSE, &mut fill(b"one+")).unwrap_err().exists());
        let force = OutputPolicy { existing: Existing::Force, ..REFUSE };
        let dry = OutputPolicy { dry_run: true, ..force };
        assert_eq!(write_output_with(&p, &dry, &mut fill(b"two")).unwrap(), Written::Replaced);
        assert_eq!(write_output_with(&p, &dry, &mut fill(b"one")).unwrap(), Written::Unchanged);
        assert_eq!(write_output_with(&p, &force, &mut fill(b"two")).unwrap(), Written::Replaced);
        assert_eq!(fs::read(&p).unwrap(), b"two");
        let mut failing = |w: &mut (dyn Write + Send)| {
            w.write_all(b"half")?;
            Err(io::Error::other("conversion failed"))
        };
        let e = write_output_with(&dir.path().join("new.sgf"), &REFUSE, &mut failing).unwrap_err();
        assert!(!e.cannot_create(), "{e}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary or half file left");
        assert_eq!(write_output_with(Path::new("/dev/null"), &REFUSE, &mut fill(b"x")).unwrap(), Written::Through);
    }

    #[test]
    fn missing_folders_are_named_or_created() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x/y/out.sgf");
        let e = write_output(&p, b"one", &REFUSE).unwrap_err();
        assert_eq!(e.to_string(), format!("folder {}/ does not exist", dir.path().join("x/y").display()));
        let dry = OutputPolicy { create_dirs: true, dry_run: true, ..REFUSE };
        assert_eq!(write_output(&p, b"one", &dry).unwrap(), Written::Created);
        assert!(!dir.path().join("x").exists());
        let mk = OutputPolicy { create_dirs: true, ..REFUSE };
        assert_eq!(write_output(&p, b"one", &mk).unwrap(), Written::Created);
        assert_eq!(fs::read(&p).unwrap(), b"one");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_written_through_and_modes_kept() {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(write_output(Path::new("/dev/null"), b"x", &REFUSE).unwrap(), Written::Through);
        assert!(std::os::unix::fs::FileTypeExt::is_char_device(&fs::metadata("/dev/null").unwrap().file_type()));
        if Path::new("/dev/full").exists() {
            let e = write_output(Path::new("/dev/full"), b"x", &REFUSE).unwrap_err();
            assert!(!e.cannot_create(), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("kept-mode.sgf");
        fs::write(&p, "old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        let force = OutputPolicy { existing: Existing::Force, ..REFUSE };
        write_output(&p, b"new", &force).unwrap();
        assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn links_replace_their_target_with_force_only() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.sgf");
        let link = dir.path().join("link.sgf");
        fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink("target.sgf", &link).unwrap();
        let e = write_output(&link, b"new", &REFUSE).unwrap_err();
        assert!(matches!(e, OutputError::LinkTargetExists(..)), "{e}");
        let force = OutputPolicy { existing: Existing::Force, ..REFUSE };
        assert_eq!(write_output(&link, b"new", &force).unwrap(), Written::Replaced);
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"new");
        std::os::unix::fs::symlink("nowhere.sgf", dir.path().join("dangling.sgf")).unwrap();
        let e = write_output(&dir.path().join("dangling.sgf"), b"x", &force).unwrap_err();
        assert!(matches!(e, OutputError::DanglingLink(_)));
    }

    #[cfg(unix)]
    #[test]
    fn the_same_file_is_told_through_hard_links() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.sgf");
        fs::write(&a, "x").unwrap();
        fs::hard_link(&a, dir.path().join("b.sgf")).unwrap();
        assert!(same_file(&a, &dir.path().join("b.sgf")));
        assert!(same_file(&a, &dir.path().join("../").join(dir.path().file_name().unwrap()).join("a.sgf")));
        fs::write(dir.path().join("c.sgf"), "x").unwrap();
        assert!(!same_file(&a, &dir.path().join("c.sgf")) && !same_file(&a, &dir.path().join("none")));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn descriptors_are_told_through_their_links() {
        assert!(is_descriptor(Path::new("/dev/stdout")));
        assert!(is_descriptor(Path::new("/dev/fd/2")));
        assert!(is_descriptor(Path::new("/proc/self/fd/1")));
        assert!(!is_descriptor(Path::new("/dev/null")));
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/dev/stderr", dir.path().join("err")).unwrap();
        assert!(is_descriptor(&dir.path().join("err")));
        assert!(!is_descriptor(&dir.path().join("missing")));
    }
}
