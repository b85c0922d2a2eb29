//! Containers: `.zip`, `.tar`, `.tar.gz`/`.tgz` and `.gz` inputs, read member by member
//! (feature `archives`, on by default).
//!
//! [`detect`] tells a container by its first bytes (zip `PK\x03\x04`, gzip `\x1f\x8b`, tar
//! `ustar` at offset 257), else by its name; [`read_members`] gives its members as
//! ([`Member::path`], bytes) within the archive limits of [`Limits`]: a member
//! too large, too many members, an archive too large in all or compressed past
//! [`Limits::max_ratio`] are refused with a diagnostic before their
//! bytes are allocated. A member whose path is absolute or climbs with `..` is refused
//! ([`codes::UNSAFE_PATH`]); an archive inside an archive is not opened ([`codes::NESTED`]).
//! Each member is then read as a file would be ([`Reader`](crate::Reader)); it is named
//! `archive.zip!/inner/path` ([`member_name`]). The rules are in `formats/archives.md`
//! ([`spec::archives`](crate::spec::archives)).
//!
//! ```
//! use std::io::Write;
//! let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
//! zip.start_file("club/a.sgf", zip::write::SimpleFileOptions::default()).unwrap();
//! zip.write_all(b"(;GM[1]SZ[9];B[ee])").unwrap();
//! let bytes = zip.finish().unwrap().into_inner();
//!
//! let container = kifu::archive::detect(None, &bytes).unwrap();
//! let contents = kifu::archive::read_members(container, std::io::Cursor::new(bytes), "games.zip", &kifu::Limits::default());
//! let kifu::archive::Entry::Member(member) = &contents.entries[0] else { panic!() };
//! assert_eq!(kifu::archive::member_name("games.zip", &member.path), "games.zip!/club/a.sgf");
//! let read = kifu::Reader::new().read_bytes(member.bytes.clone(), Some(member.path.as_ref())).unwrap();
//! assert_eq!(read.collection.games.len(), 1);
//! ```

use crate::diag::Diagnostic;
use crate::formats::Limits;
use std::cell::Cell;
use std::io::{self, Read, Seek};
use std::path::Path;
use std::rc::Rc;

/// Diagnostic codes of containers (formats/archives.md).
pub mod codes {
    /// The archive cannot be read as its kind (truncated, corrupt, not what its name says).
    pub const DAMAGED: &str = "archive.damaged";
    /// A member larger than [`Limits::max_member`](crate::Limits::max_member) once
    /// uncompressed; refused unread.
    pub const MEMBER_TOO_LARGE: &str = "archive.member-too-large";
    /// More members than [`Limits::max_members`](crate::Limits::max_members); the archive is
    /// refused.
    pub const TOO_MANY_MEMBERS: &str = "archive.too-many-members";
    /// The members add up to more than [`Limits::max_archive`](crate::Limits::max_archive);
    /// the rest of the archive is refused.
    pub const TOO_LARGE: &str = "archive.too-large";
    /// A member (or compressed stream) expands more than
    /// [`Limits::max_ratio`](crate::Limits::max_ratio) times: a zip bomb; refused.
    pub const RATIO: &str = "archive.ratio";
    /// A member whose path is absolute, climbs out with `..`, is empty or holds control
    /// characters; refused.
    pub const UNSAFE_PATH: &str = "archive.unsafe-path";
    /// A member that is not a regular file (a link, a device); not read.
    pub const NOT_A_FILE: &str = "archive.not-a-file";
    /// A member that is itself an archive: archives are opened one level deep; not read.
    pub const NESTED: &str = "archive.nested";
    /// A member kifu cannot extract (encrypted, or a compression method other than stored and
    /// deflated).
    pub const UNSUPPORTED: &str = "archive.unsupported";
}

/// The kind of a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Container {
    /// A zip archive (members stored or deflated).
    Zip,
    /// An uncompressed tar archive.
    Tar,
    /// A gzip-compressed tar archive (`.tar.gz`, `.tgz`).
    TarGz,
    /// One gzip-compressed file (`game.sgf.gz`): one member, named as the archive without `.gz`.
    Gz,
}

impl Container {
    /// Its name: `zip`, `tar`, `tar.gz` or `gz`.
    pub fn name(self) -> &'static str {
        match self {
            Container::Zip => "zip",
            Container::Tar => "tar",
            Container::TarGz => "tar.gz",
            Container::Gz => "gz",
        }
    }
}

impl std::fmt::Display for Container {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How many bytes [`detect`] wants to see (fewer are fine): enough compressed bytes to find a
/// tar header inside a gzip stream.
pub const HEAD: usize = 64 << 10;

/// Whether `head` starts a tar archive: `ustar` at offset 257 (POSIX and GNU headers).
fn is_tar(head: &[u8]) -> bool {
    head.get(257..262) == Some(b"ustar")
}

/// The container `head` (the first bytes of an input, [`HEAD`] are plenty) begins, else the one
/// `path`'s name says (`.zip`, `.tar`, `.tgz`, `.tar.gz`, `.gz`), else `None`. The content wins:
/// a `.zip` that is an SGF file is not a container, and a zip named `.sgf` is one. A gzip stream
/// is a `.tar.gz` when what it starts with is a tar header.
///
/// ```
/// use kifu::archive::{Container, detect};
/// assert_eq!(detect(Some("a.sgf".as_ref()), b"PK\x03\x04rest"), Some(Container::Zip));
/// assert_eq!(detect(Some("a.zip".as_ref()), b"(;GM[1])"), None);
/// assert_eq!(detect(Some("a.gz".as_ref()), b""), Some(Container::Gz));
/// assert_eq!(detect(None, b"(;GM[1])"), None);
/// ```
pub fn detect(path: Option<&Path>, head: &[u8]) -> Option<Container> {
    let name = path.and_then(Path::file_name).map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Container::Zip);
    }
    if head.starts_with(b"\x1f\x8b") {
        let mut inner = Vec::new();
        let _ = flate2::read::MultiGzDecoder::new(head).take(512).read_to_end(&mut inner);
        let tar = is_tar(&inner) || name.ends_with(".tgz") || name.ends_with(".tar.gz");
        return Some(if tar { Container::TarGz } else { Container::Gz });
    }
    if is_tar(head) {
        return Some(Container::Tar);
    }
    // Nothing recognised in the content: an input whose name says archive but whose content is
    // something else is not one, unless it is empty or too short to tell (then reading it says
    // what is wrong).
    let unknown = head.len() < 512 && !head.starts_with(b"(") && !head.starts_with(b"{");
    if !unknown && !head.is_empty() {
        return None;
    }
    if name.ends_with(".zip") {
        Some(Container::Zip)
    } else if name.ends_with(".tgz") || name.ends_with(".tar.gz") {
        Some(Container::TarGz)
    } else if name.ends_with(".tar") {
        Some(Container::Tar)
    } else if name.ends_with(".gz") {
        Some(Container::Gz)
    } else {
        None
    }
}

/// How a member is named in diagnostics, reports and `kifu info`: `archive.zip!/inner/path`.
///
/// ```
/// assert_eq!(kifu::archive::member_name("in/games.zip", "club/a.sgf"), "in/games.zip!/club/a.sgf");
/// ```
pub fn member_name(archive: &str, inner: &str) -> String {
    format!("{archive}!/{inner}")
}

/// One member read: its path inside the archive (made safe: relative, `/`-separated, no `.` or
/// `..`) and its uncompressed bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Member {
    /// The path inside the archive (`club/a.sgf`).
    pub path: String,
    /// The member's bytes.
    pub bytes: Vec<u8>,
}

/// One entry of an archive: a member read, or one refused with the reason.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Entry {
    /// A regular file, read.
    Member(Member),
    /// A member not read: its path as the archive spells it and why ([`codes`]).
    Refused {
        /// The path as the archive spells it (`/` separators), shown with [`member_name`].
        path: String,
        /// Why it was not read.
        diagnostic: Diagnostic,
    },
}

/// What an archive holds, as far as it could be read.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Contents {
    /// The members in the archive's order, read or refused (folders are left out).
    pub entries: Vec<Entry>,
    /// Why reading stopped before the end: the archive is damaged, or past a limit that
    /// concerns it whole ([`codes::TOO_MANY_MEMBERS`], [`codes::TOO_LARGE`], [`codes::RATIO`] of
    /// a compressed stream). The entries before it are kept.
    pub error: Option<Diagnostic>,
}

/// A member path made safe (module documentation), or why it is refused.
///
/// ```
/// use kifu::archive::safe_path;
/// assert_eq!(safe_path("./club\\a.sgf").unwrap(), "club/a.sgf");
/// for bad in ["../a.sgf", "/etc/a.sgf", "c:/a.sgf", "a/../../b.sgf", "", "a\u{7}.sgf"] {
///     assert_eq!(safe_path(bad).unwrap_err().code, "archive.unsafe-path");
/// }
/// ```
pub fn safe_path(raw: &str) -> Result<String, Diagnostic> {
    let refuse = |why: &str| Err(Diagnostic::error(codes::UNSAFE_PATH, format!("member path {raw:?} {why}; refused")));
    let s = raw.replace('\\', "/");
    let b = s.as_bytes();
    if s.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':') {
        return refuse("is absolute");
    }
    if s.chars().any(char::is_control) {
        return refuse("holds control characters");
    }
    let parts: Vec<&str> = s.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if parts.contains(&"..") {
        return refuse("climbs out of the archive with ..");
    }
    if parts.is_empty() {
        return refuse("is empty");
    }
    Ok(parts.join("/"))
}

/// Members of more than this many bytes are held to [`Limits::max_ratio`]; below it, any ratio
/// is harmless.
const RATIO_FROM: u64 = 1 << 20;

fn too_large(path: &str, size: u64, limits: &Limits) -> Diagnostic {
    Diagnostic::error(
        codes::MEMBER_TOO_LARGE,
        format!(
            "member {path} is {size} bytes uncompressed, over the limit of {} (Limits::max_member); refused",
            limits.max_member
        ),
    )
}

fn ratio(path: &str, size: u64, compressed: u64, limits: &Limits) -> Diagnostic {
    Diagnostic::error(
        codes::RATIO,
        format!(
            "{path} expands {size} bytes from {compressed}, over {} times (Limits::max_ratio): a zip bomb; refused",
            limits.max_ratio
        ),
    )
}

fn over_ratio(size: u64, compressed: u64, limits: &Limits) -> bool {
    size > RATIO_FROM && size / compressed.max(1) > limits.max_ratio
}

/// Reads at most `limits.max_member` bytes of a member (one more tells that it is larger),
/// allocating no more than `declared` up front.
fn read_capped(mut r: impl Read, declared: u64, limits: &Limits) -> io::Result<Option<Vec<u8>>> {
    let cap = usize::try_from(declared.min(limits.max_member)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(cap);
    (&mut r).take(limits.max_member.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limits.max_member).then_some(bytes))
}

/// Bookkeeping shared by the kinds: the count and total against the limits.
struct Tally<'a> {
    limits: &'a Limits,
    members: usize,
    total: u64,
}

impl Tally<'_> {
    /// Counts one more member; the whole-archive error when there are too many.
    fn count(&mut self) -> Result<(), Diagnostic> {
        self.members += 1;
        if self.members > self.limits.max_members {
            return Err(Diagnostic::error(
                codes::TOO_MANY_MEMBERS,
                format!(
                    "the archive holds more than {} members (Limits::max_members); the rest is refused",
                    self.limits.max_members
                ),
            ));
        }
        Ok(())
    }

    /// Adds `size` bytes to the total; the whole-archive error past the limit.
    fn add(&mut self, size: u64) -> Result<(), Diagnostic> {
        self.total = self.total.saturating_add(size);
        if self.total > self.limits.max_archive {
            return Err(Diagnostic::error(
                codes::TOO_LARGE,
                format!(
                    "the members add up to more than {} bytes uncompressed (Limits::max_archive); the rest is refused",
                    self.limits.max_archive
                ),
            ));
        }
        Ok(())
    }
}

/// The member, or a refusal when it is itself an archive.
fn member(path: String, bytes: Vec<u8>) -> Entry {
    match detect(None, &bytes) {
        Some(kind) => Entry::Refused {
            diagnostic: Diagnostic::warning(
                codes::NESTED,
                format!("member {path} is itself a {kind} archive; archives are opened one level deep; not read"),
            ),
            path,
        },
        None => Entry::Member(Member { path, bytes }),
    }
}

fn damaged(kind: Container, e: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::DAMAGED, format!("cannot read the {kind} archive: {e}"))
}

/// Reads the members of the archive `reader` holds, a `container` as [`detect`] said, within
/// `limits`. `name` is the archive's file name: a `.gz` holds one member named as it without
/// `.gz`. Nothing is read whole before the limits are checked: declared sizes first, then the
/// bytes through `Read::take`.
pub fn read_members(container: Container, reader: impl Read + Seek, name: &str, limits: &Limits) -> Contents {
    let mut tally = Tally { limits, members: 0, total: 0 };
    let mut contents = Contents::default();
    let result = match container {
        Container::Zip => zip_members(reader, &mut tally, &mut contents.entries),
        Container::Tar => tar_members(reader, false, &mut tally, &mut contents.entries),
        Container::TarGz => tar_members(reader, true, &mut tally, &mut contents.entries),
        Container::Gz => gz_member(reader, name, &mut tally, &mut contents.entries),
    };
    contents.error = result.err();
    contents
}

fn zip_members(reader: impl Read + Seek, tally: &mut Tally<'_>, out: &mut Vec<Entry>) -> Result<(), Diagnostic> {
    let limits = tally.limits;
    let mut zip = zip::ZipArchive::new(reader).map_err(|e| damaged(Container::Zip, e))?;
    for i in 0..zip.len() {
        let raw = zip.name_for_index(i).unwrap_or_default().to_string();
        let file = match zip.by_index(i) {
            Ok(f) => f,
            Err(zip::result::ZipError::UnsupportedArchive(why)) => {
                tally.count()?;
                let d = Diagnostic::error(codes::UNSUPPORTED, format!("member {raw}: {why}; not read"));
                out.push(Entry::Refused { path: raw, diagnostic: d });
                continue;
            }
            Err(e) => return Err(damaged(Container::Zip, e)),
        };
        if file.is_dir() {
            continue;
        }
        tally.count()?;
        let path = match safe_path(&raw) {
            Ok(p) => p,
            Err(d) => {
                out.push(Entry::Refused { path: raw, diagnostic: d });
                continue;
            }
        };
        if file.is_symlink() {
            let d = Diagnostic::warning(codes::NOT_A_FILE, format!("member {path} is a symbolic link; not read"));
            out.push(Entry::Refused { path, diagnostic: d });
            continue;
        }
        let (declared, compressed) = (file.size(), file.compressed_size());
        if declared > limits.max_member {
            out.push(Entry::Refused { diagnostic: too_large(&path, declared, limits), path });
            continue;
        }
        if over_ratio(declared, compressed, limits) {
            out.push(Entry::Refused {
                diagnostic: ratio(&format!("member {path}"), declared, compressed, limits),
                path,
            });
            continue;
        }
        tally.add(declared)?;
        match read_capped(file, declared, limits) {
            Ok(Some(bytes)) => {
                let size = bytes.len() as u64;
                tally.add(size.saturating_sub(declared))?;
                if over_ratio(size, compressed, limits) {
                    let diagnostic = ratio(&format!("member {path}"), size, compressed, limits);
                    out.push(Entry::Refused { path, diagnostic });
                } else {
                    out.push(member(path, bytes));
                }
            }
            Ok(None) => {
                let d = too_large(&path, limits.max_member.saturating_add(1), limits);
                out.push(Entry::Refused { path, diagnostic: d });
            }
            Err(e) => {
                let d = Diagnostic::error(codes::DAMAGED, format!("member {path} cannot be read: {e}"));
                out.push(Entry::Refused { path, diagnostic: d });
            }
        }
    }
    Ok(())
}

/// A reader that counts the bytes read through it (the compressed side of a gzip stream).
struct Counted<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get().saturating_add(n as u64));
        Ok(n)
    }
}

fn tar_members(reader: impl Read, gz: bool, tally: &mut Tally<'_>, out: &mut Vec<Entry>) -> Result<(), Diagnostic> {
    let limits = tally.limits;
    let kind = if gz { Container::TarGz } else { Container::Tar };
    let compressed = Rc::new(Cell::new(0u64));
    let expanded = Rc::new(Cell::new(0u64));
    let counted = Counted { inner: reader, count: Rc::clone(&compressed) };
    let stream: Box<dyn Read> = if gz {
        let decoder = flate2::read::MultiGzDecoder::new(counted);
        Box::new(Counted { inner: decoder, count: Rc::clone(&expanded) })
    } else {
        Box::new(counted)
    };
    let mut archive = tar::Archive::new(stream);
    let entries = archive.entries().map_err(|e| damaged(kind, e))?;
    for entry in entries {
        let file = entry.map_err(|e| damaged(kind, e))?;
        let header_kind = file.header().entry_type();
        if header_kind.is_dir() {
            continue;
        }
        tally.count()?;
        let raw = String::from_utf8_lossy(&file.path_bytes()).into_owned();
        let path = match safe_path(&raw) {
            Ok(p) => p,
            Err(d) => {
                out.push(Entry::Refused { path: raw, diagnostic: d });
                continue;
            }
        };
        if !(header_kind.is_file() || header_kind.is_contiguous()) {
            let d = Diagnostic::warning(
                codes::NOT_A_FILE,
                format!("member {path} is not a regular file (a link or a device); not read"),
            );
            out.push(Entry::Refused { path, diagnostic: d });
            continue;
        }
        let declared = file.size();
        // Skipping a member still reads through its bytes: one that would take the archive past
        // its limit ends the reading here.
        if declared > limits.max_member {
            tally.add(declared)?;
            out.push(Entry::Refused { diagnostic: too_large(&path, declared, limits), path });
            continue;
        }
        tally.add(declared)?;
        let read = read_capped(file, declared, limits).map_err(|e| damaged(kind, e))?;
        // The stream as a whole: a member that takes it past the ratio is not kept.
        if gz && over_ratio(expanded.get(), compressed.get(), limits) {
            return Err(ratio("the compressed stream", expanded.get(), compressed.get(), limits));
        }
        match read {
            Some(bytes) => out.push(member(path, bytes)),
            None => out.push(Entry::Refused { diagnostic: too_large(&path, declared, limits), path }),
        }
    }
    Ok(())
}

fn gz_member(reader: impl Read, name: &str, tally: &mut Tally<'_>, out: &mut Vec<Entry>) -> Result<(), Diagnostic> {
    let limits = tally.limits;
    let base = Path::new(name).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let lower = base.to_ascii_lowercase();
    let inner = match lower.strip_suffix(".gz") {
        Some(stem) if !stem.is_empty() => base[..stem.len()].to_string(),
        _ => format!("{base}.member"),
    };
    let path = safe_path(&inner).unwrap_or_else(|_| "member".to_string());
    tally.count()?;
    let compressed = Rc::new(Cell::new(0u64));
    let counted = Counted { inner: reader, count: Rc::clone(&compressed) };
    let decoder = flate2::read::MultiGzDecoder::new(counted);
    // Read in steps so that a bomb is stopped by its ratio long before the size limit.
    let mut bytes = Vec::new();
    let mut limited = decoder.take(limits.max_member.saturating_add(1));
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match limited.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(damaged(Container::Gz, e)),
        };
        bytes.extend_from_slice(&chunk[..n]);
        let size = bytes.len() as u64;
        if size > limits.max_member {
            out.push(Entry::Refused { diagnostic: too_large(&path, size, limits), path });
            return Ok(());
        }
        if over_ratio(size, compressed.get(), limits) {
            out.push(Entry::Refused {
                diagnostic: ratio(&format!("member {path}"), size, compressed.get(), limits),
                path,
            });
            return Ok(());
        }
    }
    tally.add(bytes.len() as u64)?;
    out.push(member(path, bytes));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn zip_of(files: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes, deflate) in files {
            let method = if *deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
            zip.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut tar = tar::Builder::new(Vec::new());
        for (name, bytes) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(bytes.len() as u64);
            header.set_mode(0o644);
            // Written raw so that hostile names reach the reader as they would from elsewhere.
            let raw = &mut header.as_old_mut().name;
            raw[..name.len()].copy_from_slice(name.as_bytes());
            header.set_cksum();
            tar.append(&header, *bytes).unwrap();
        }
        tar.into_inner().unwrap()
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn read(bytes: Vec<u8>, name: &str, limits: &Limits) -> Contents {
        let kind = detect(Some(name.as_ref()), &bytes).expect("a container");
        read_members(kind, Cursor::new(bytes), name, limits)
    }

    fn paths(c: &Contents) -> Vec<String> {
        c.entries
            .iter()
            .map(|e| match e {
                Entry::Member(m) => m.path.clone(),
                Entry::Refused { path, diagnostic } => format!("{path} ({})", diagnostic.code),
            })
            .collect()
    }

    #[test]
    fn zips_stored_and_deflated_give_their_members() {
        let bytes = zip_of(&[("a.sgf", b"(;GM[1])", false), ("dir/b.gib", b"\\HS\n", true)]);
        let c = read(bytes, "x.zip", &Limits::default());
        assert_eq!(paths(&c), ["a.sgf", "dir/b.gib"]);
        assert_eq!(c.error, None);
        let Entry::Member(b) = &c.entries[1] else { panic!() };
        assert_eq!(b.bytes, b"\\HS\n");
    }

    #[test]
    fn tar_and_tar_gz_are_told_by_content() {
        let tar = tar_of(&[("a.sgf", b"(;GM[1])"), ("../evil.sgf", b"(;)"), ("/abs.sgf", b"(;)")]);
        assert_eq!(detect(None, &tar), Some(Container::Tar));
        assert_eq!(detect(Some("x.gz".as_ref()), &gz(&tar)), Some(Container::TarGz));
        assert_eq!(detect(Some("x.sgf.gz".as_ref()), &gz(b"(;GM[1])")), Some(Container::Gz));
        for (bytes, name) in [(tar.clone(), "x.tar"), (gz(&tar), "x.tgz")] {
            let c = read(bytes, name, &Limits::default());
            assert_eq!(
                paths(&c),
                ["a.sgf", "../evil.sgf (archive.unsafe-path)", "/abs.sgf (archive.unsafe-path)"],
                "{name}"
            );
        }
    }

    #[test]
    fn a_gz_holds_one_member_named_as_the_archive() {
        let c = read(gz(b"(;GM[1];B[aa])"), "in/Game.SGF.gz", &Limits::default());
        assert_eq!(paths(&c), ["Game.SGF"]);
    }

    #[test]
    fn limits_refuse_before_reading() {
        let big = vec![b' '; 3 << 20];
        let small = Limits::default().with_max_member(1 << 20);
        let z = read(zip_of(&[("big.sgf", &big, true), ("ok.sgf", b"(;)", true)]), "b.zip", &small);
        assert_eq!(paths(&z), ["big.sgf (archive.member-too-large)", "ok.sgf"]);
        // A bomb: 3 MiB of spaces deflate to a few KiB.
        let z = read(zip_of(&[("bomb.sgf", &big, true)]), "b.zip", &Limits::default());
        assert_eq!(paths(&z), ["bomb.sgf (archive.ratio)"]);
        let g = read(gz(&big), "b.sgf.gz", &Limits::default());
        assert_eq!(paths(&g), ["b.sgf (archive.ratio)"]);
        let t = read(gz(&tar_of(&[("bomb.sgf", &big)])), "b.tgz", &Limits::default());
        assert_eq!(t.error.as_ref().map(|d| d.code), Some(codes::RATIO));
        let many = Limits::default().with_max_members(1);
        let z = read(zip_of(&[("a.sgf", b"(;)", false), ("b.sgf", b"(;)", false)]), "m.zip", &many);
        assert_eq!((paths(&z).len(), z.error.map(|d| d.code)), (1, Some(codes::TOO_MANY_MEMBERS)));
        let total = Limits::default().with_max_archive(4);
        let t = read(tar_of(&[("a.sgf", b"(;)"), ("b.sgf", b"(;)")]), "t.tar", &total);
        assert_eq!((paths(&t).len(), t.error.map(|d| d.code)), (1, Some(codes::TOO_LARGE)));
    }

    #[test]
    fn nested_and_damaged_archives_are_reported() {
        let inner = zip_of(&[("a.sgf", b"(;)", false)]);
        let c = read(zip_of(&[("inner.zip", &inner, false)]), "o.zip", &Limits::default());
        assert_eq!(paths(&c), ["inner.zip (archive.nested)"]);
        let c = read(b"PK\x03\x04 truncated".to_vec(), "d.zip", &Limits::default());
        assert_eq!(c.error.map(|d| d.code), Some(codes::DAMAGED));
        let c = read(b"\x1f\x8b\x08\x00garbage".to_vec(), "d.gz", &Limits::default());
        assert_eq!(c.error.map(|d| d.code), Some(codes::DAMAGED));
    }
}
