//! Containers as inputs: every command opens a `.zip`, `.tar`, `.tar.gz` or `.gz` through
//! [`kifu::archive`] and takes its members as it takes files, each named `archive.zip!/inner/path`
//! (formats/archives.md).

use kifu::Diagnostic;
use kifu::archive::{Container, Entry, detect, member_name, read_members};
use kifu::formats::{Format, Limits};
use std::io::{Read, Seek};
use std::path::Path;

/// The first `len` bytes of the file at `path` (fewer when it is shorter).
pub fn head(path: &Path, len: usize) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(len.min(4096));
    std::fs::File::open(path)?.take(len as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// The container the file at `path` is, if it is one (by content, else by name).
pub fn container(path: &Path) -> Option<Container> {
    let head = head(path, kifu::archive::HEAD).ok()?;
    detect(Some(path), &head)
}

/// The format of a game record named `name` whose content is `bytes`, or `None` when it is not
/// one: its extension names a readable format (one other files share, `.json`, only when the
/// content agrees), or its content is recognised.
pub fn recognise(name: &Path, bytes: &[u8]) -> Option<Format> {
    let by_name = Format::from_path(name).filter(|f| f.can_read());
    if let Some(f) = by_name.filter(|f| !f.has_shared_extension()) {
        return Some(f);
    }
    Format::sniff(&bytes[..bytes.len().min(64 << 10)])
}

/// One member of an opened archive.
#[derive(Debug)]
pub enum Item {
    /// A game record to read.
    Record {
        /// `archive.zip!/inner/path`.
        name: String,
        /// The path inside the archive (`inner/path`).
        inner: String,
        /// The format by `-f`, name or content.
        format: Format,
        /// The member's bytes.
        bytes: Vec<u8>,
    },
    /// A member refused (an error) or not read (a warning: a link, an archive inside).
    Refused {
        /// `archive.zip!/inner/path`.
        name: String,
        /// The path inside the archive as it spells it.
        inner: String,
        /// Why.
        diagnostic: Diagnostic,
    },
}

/// What an archive gave.
#[derive(Debug, Default)]
pub struct Opened {
    /// The members, in the archive's order.
    pub items: Vec<Item>,
    /// Members that are not game records (a README, an image).
    pub ignored: usize,
    /// Why reading stopped early (damaged, past a limit of the whole archive).
    pub error: Option<Diagnostic>,
}

/// Opens the archive at `path` (shown as `shown`), a `kind` as [`container`] said, and sorts its
/// members: records (by `from`, else by name or content), refusals, and members ignored.
pub fn open(
    path: &Path,
    shown: &str,
    kind: Container,
    from: Option<Format>,
    limits: &Limits,
) -> std::io::Result<Opened> {
    let file = std::io::BufReader::new(std::fs::File::open(path)?);
    Ok(open_reader(file, path, shown, kind, from, limits))
}

/// [`open`] of an archive already opened (or read: a `Cursor`), named `path`.
pub fn open_reader(
    reader: impl Read + Seek,
    path: &Path,
    shown: &str,
    kind: Container,
    from: Option<Format>,
    limits: &Limits,
) -> Opened {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let contents = read_members(kind, reader, &name, limits);
    let mut opened = Opened { error: contents.error, ..Opened::default() };
    for entry in contents.entries {
        match entry {
            Entry::Member(m) => match from.or_else(|| recognise(Path::new(&m.path), &m.bytes)) {
                Some(format) => opened.items.push(Item::Record {
                    name: member_name(shown, &m.path),
                    inner: m.path,
                    format,
                    bytes: m.bytes,
                }),
                None => opened.ignored += 1,
            },
            Entry::Refused { path, diagnostic } => {
                opened.items.push(Item::Refused { name: member_name(shown, &path), inner: path, diagnostic });
            }
            _ => {}
        }
    }
    opened
}
