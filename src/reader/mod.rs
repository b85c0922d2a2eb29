//! The read pipeline: the one way from an input's bytes to its games.
//!
//! [`Reader`] decides the input's format (a format named by the caller wins; else the content
//! wins over a file extension that says another format, with the warning
//! [`codes::FORMAT_MISMATCH`]; else the extension; else the content), then reads it in that
//! format: the charset decision and the parse (the format's reader), the repairs of
//! [`normalise`](crate::normalise) for formats that get them, and the name of the move each
//! diagnostic is about (`move 37 (B Q16, SGF pd): …`). [`read_path`](crate::read_path),
//! [`read`](crate::read), [`read_bytes`](crate::read_bytes), [`Format::read`], the streaming of
//! large inputs ([`crate::stream`]), the `kifu` command and the Python package all read through
//! it, so one input gives the same games and diagnostics whichever way it is read.
//!
//! ```
//! use kifu::Reader;
//! // A GIB file that holds SGF: the content wins, with a warning.
//! let read = Reader::new().read_bytes(b"(;GM[1]SZ[9];B[ee])".to_vec(), Some("game.gib".as_ref())).unwrap();
//! assert_eq!(read.diagnostics[0].code, "input.format-mismatch");
//! assert_eq!(read.collection.games[0].main_line().count(), 2);
//! // A format named by the caller wins over the extension and the content.
//! let err = Reader::new().with_format(kifu::Format::GIB).read_path("fixtures/sgf/variations.sgf").unwrap_err();
//! assert!(err.diagnostics.iter().any(|d| d.code == "gib.no-game"));
//! ```

mod detect;
mod moves;

pub use crate::formats::Limits;
pub use moves::MoveNames;

use crate::diag::Diagnostic;
use crate::formats::{Format, ReadError, ReadOptions, ReadOutput};
use std::io::Read;
use std::path::Path;

/// Diagnostic codes of the read pipeline (before any format's reader runs).
pub mod codes {
    /// The input could not be read (the message gives the operating system's reason).
    pub const UNREADABLE: &str = "io.unreadable";
    /// Neither the file name nor the content tells the input's format.
    pub const UNKNOWN_FORMAT: &str = "format.unknown";
    /// The format named has no reader.
    pub const CANNOT_READ: &str = "format.cannot-read";
    /// The extension names one format and the content is another; read as the content's format
    /// (a warning).
    pub const FORMAT_MISMATCH: &str = "input.format-mismatch";
    /// The input is an archive (zip, tar, tar.gz, gz) and no format was named: its members are
    /// read one by one ([`crate::archive`], feature `archives`), not the archive as one record.
    pub const ARCHIVE: &str = "input.archive";
    /// A record (a game tree of SGF, a line of NDJSON, the whole input of a format that is not
    /// cut) is larger than [`Limits::max_record`](crate::Limits::max_record); the input is refused before it is read.
    pub const RECORD_TOO_LARGE: &str = crate::formats::cut::codes::RECORD_TOO_LARGE;
}

/// The format an input is read as, and why.
///
/// ```
/// let d = kifu::Reader::new().decide(Some("x.ugf".as_ref()), b"(;GM[1])").unwrap();
/// assert_eq!(d.format, kifu::Format::SGF);
/// assert!(d.mismatch.is_some());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Decision {
    /// The format to read the input as.
    pub format: Format,
    /// The warning [`codes::FORMAT_MISMATCH`] when the content overruled the extension.
    pub mismatch: Option<Diagnostic>,
}

/// The read pipeline, configured: an optional format that wins over the input's name and content,
/// and the [`ReadOptions`] (charset, repairs, positions, move naming, [`Limits`]).
///
/// ```
/// use kifu::{Reader, ReadOptions};
/// let options = ReadOptions::default().with_encoding(kifu::charset::encoding_for_label("euc-kr"));
/// let read = Reader::new().with_options(options).read(&b"(;PB[\xC0\xCC])"[..]).unwrap();
/// assert_eq!(read.collection.games[0].info().black.as_deref(), Some("이"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Reader {
    format: Option<Format>,
    options: ReadOptions,
}

impl Reader {
    /// A reader with the default options that decides each input's format itself.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// This reader, reading every input as `format` (the command's `-f`).
    pub fn with_format(mut self, format: Format) -> Reader {
        self.format = Some(format);
        self
    }

    /// This reader, reading as `format` when it is `Some`, else deciding each input's format.
    pub fn with_format_opt(mut self, format: Option<Format>) -> Reader {
        self.format = format;
        self
    }

    /// This reader with `options`.
    pub fn with_options(mut self, options: ReadOptions) -> Reader {
        self.options = options;
        self
    }

    /// The format every input is read as, when one was named.
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// The options.
    pub fn options(&self) -> &ReadOptions {
        &self.options
    }

    /// The format to read an input as, from its path (when it is a file) and its first bytes (64
    /// KiB are plenty): the named format; else the extension's when the content agrees or no
    /// format recognises it; else the content's, with a warning when the extension named another.
    /// An error [`codes::UNKNOWN_FORMAT`] when nothing tells.
    ///
    /// With feature `archives`, an input that is an archive ([`crate::archive::detect`]) is an
    /// error [`codes::ARCHIVE`] unless a format was named: a zip of GIB files is not one GIB game.
    pub fn decide(&self, path: Option<&Path>, head: &[u8]) -> Result<Decision, ReadError> {
        #[cfg(feature = "archives")]
        if let (None, Some(kind)) = (self.format, crate::archive::detect(path, head)) {
            return Err(ReadError {
                diagnostics: vec![Diagnostic::error(
                    codes::ARCHIVE,
                    format!("the input is a {kind} archive: its members are to be read one by one (kifu::archive)"),
                )],
            });
        }
        match detect::detect_format(self.format, path, head) {
            Some((format, mismatch)) => Ok(Decision { format, mismatch }),
            None => Err(ReadError {
                diagnostics: vec![Diagnostic::error(
                    codes::UNKNOWN_FORMAT,
                    "cannot tell the input's format from its name or content",
                )],
            }),
        }
    }

    /// Reads `bytes` (the content of the file at `path`, when it came from one): the format
    /// decided by [`Reader::decide`], then [`Reader::read_as`]. The mismatch warning, when there
    /// is one, is the first diagnostic (of the result or of the error).
    pub fn read_bytes(&self, bytes: Vec<u8>, path: Option<&Path>) -> Result<ReadOutput, ReadError> {
        let decision = self.decide(path, &bytes)?;
        let read = self.read_as(decision.format, bytes);
        match decision.mismatch {
            None => read,
            Some(m) => match read {
                Ok(mut r) => {
                    r.diagnostics.insert(0, m);
                    Ok(r)
                }
                Err(mut e) => {
                    e.diagnostics.insert(0, m);
                    Err(e)
                }
            },
        }
    }

    /// Reads the file at `path` ([`Reader::read_bytes`]); an error [`codes::UNREADABLE`] when it
    /// cannot be read.
    pub fn read_path(&self, path: impl AsRef<Path>) -> Result<ReadOutput, ReadError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| unreadable(&path.display().to_string(), &e))?;
        self.read_bytes(bytes, Some(path))
    }

    /// Reads everything from `reader` ([`Reader::read_bytes`] without a path: the format from the
    /// content, unless one was named).
    pub fn read(&self, mut reader: impl Read) -> Result<ReadOutput, ReadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(|e| unreadable("the input", &e))?;
        self.read_bytes(bytes, None)
    }

    /// Reads `bytes` as `format`, whatever the reader's own format: the format's reader (charset
    /// and parse), its repairs, and the names of the moves the diagnostics are about.
    pub fn read_as(&self, format: Format, bytes: Vec<u8>) -> Result<ReadOutput, ReadError> {
        run(format, bytes, &self.options)
    }
}

pub(crate) fn unreadable(what: &str, e: &std::io::Error) -> ReadError {
    ReadError { diagnostics: vec![Diagnostic::error(codes::UNREADABLE, format!("cannot read {what}: {e}"))] }
}

/// The pipeline after the format decision: parse, repair, name moves.
///
/// Offsets of nodes and properties are recorded while reading when they are asked for, when
/// moves are to be named and the input is read whole ([`Limits::whole_up_to`]), and when a small
/// input is to be repaired ([`Limits::offsets_up_to`]: the repairs are placed by them). They are
/// dropped afterwards unless asked for.
pub(crate) fn run(format: Format, bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let Some(read) = format.spec().read else {
        return Err(ReadError {
            diagnostics: vec![Diagnostic::error(codes::CANNOT_READ, format!("kifu cannot read {}", format.name()))],
        });
    };
    let limits = &options.limits;
    if let Some(over) = record_over(format, &bytes, limits.max_record) {
        return Err(over.into());
    }
    let repair = !options.no_repair && format.gets_repairs();
    let record = !options.positions
        && ((options.name_moves && bytes.len() <= limits.whole_up_to)
            || (repair && bytes.len() <= limits.offsets_up_to));
    let recorded;
    let opts = if record {
        recorded = ReadOptions { positions: true, ..options.clone() };
        &recorded
    } else {
        options
    };
    let mut out = read(bytes, opts)?;
    if repair {
        crate::normalise::apply(&mut out);
    }
    if options.name_moves && out.diagnostics.iter().any(|d| d.position.is_some()) {
        MoveNames::new(&out.collection).apply(&mut out.diagnostics);
    }
    if record {
        out.collection.games.iter_mut().for_each(crate::model::GameTree::forget_positions);
    }
    Ok(out)
}

/// The first record of `bytes` larger than `max` bytes: a game tree or a line when the format
/// is cut ([`Format::can_be_cut`]), else the whole input. Only inputs larger than `max` are
/// scanned.
fn record_over(format: Format, bytes: &[u8], max: usize) -> Option<crate::formats::cut::RecordTooLarge> {
    if bytes.len() <= max {
        return None;
    }
    match crate::formats::cut::cut_for(format, bytes) {
        Some(cut) => crate::formats::cut::record_over(bytes, cut, max),
        None => Some(crate::formats::cut::RecordTooLarge { offset: 0, limit: max }),
    }
}

impl Format {
    /// Reads `bytes` in this format through the [`Reader`] pipeline: the charset decision, the
    /// parse, the repairs of [`normalise`](crate::normalise) (SGF; unless
    /// [`ReadOptions::no_repair`]) and the names of the moves diagnostics are about. The games
    /// carry the offsets of their nodes and properties only when [`ReadOptions::positions`]
    /// asks for them.
    ///
    /// ```
    /// use kifu::{Format, ReadOptions};
    /// let read = Format::SGF.read(b"(;GM[1]SZ[9];B[ee])".to_vec(), &ReadOptions::default()).unwrap();
    /// assert_eq!(read.collection.games[0].main_line().count(), 2);
    /// let err = Format::GIB.read(b"not a GIB file".to_vec(), &ReadOptions::default()).unwrap_err();
    /// assert!(err.diagnostics.iter().any(|d| d.code == "gib.no-game"));
    /// ```
    pub fn read(self, bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
        run(self, bytes, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_wins_over_a_lying_extension_and_a_named_format_over_both() {
        let sgf = b"(;GM[1]SZ[19];B[pd])".to_vec();
        let read = Reader::new().read_bytes(sgf.clone(), Some(Path::new("x.gib"))).unwrap();
        assert_eq!(read.diagnostics[0].code, codes::FORMAT_MISMATCH);
        assert_eq!(read.collection.games.len(), 1);
        let err = Reader::new().with_format(Format::GIB).read_bytes(sgf.clone(), Some(Path::new("x.sgf"))).unwrap_err();
        assert!(err.diagnostics.iter().any(|d| d.code == "gib.no-game"), "{err}");
        let err = Reader::new().read_bytes(b"hello".to_vec(), Some(Path::new("notes.txt"))).unwrap_err();
        assert_eq!(err.diagnostics[0].code, codes::UNKNOWN_FORMAT);
    }

    #[test]
    fn diagnostics_name_their_moves_and_offsets_are_dropped_unless_asked_for() {
        let text = b"(;GM[1]SZ[19];B[pd];W[dp]C[a ] b];B[dd])".to_vec();
        let read = Reader::new().read_bytes(text.clone(), None).unwrap();
        let bracket = read.diagnostics.iter().find(|d| d.code == "sgf.unescaped-bracket").unwrap();
        assert!(bracket.message.starts_with("move 2 (W D4, SGF dp): "), "{}", bracket.message);
        assert!(read.collection.games[0].node_offsets().is_none());
        let options = ReadOptions { positions: true, ..ReadOptions::default() };
        let kept = Reader::new().with_options(options).read_bytes(text.clone(), None).unwrap();
        assert!(kept.collection.games[0].node_offsets().is_some());
        assert_eq!(kept.diagnostics, read.diagnostics);
        // Without naming, the same diagnostics without the names.
        let plain = Reader::new().with_options(ReadOptions { name_moves: false, ..ReadOptions::default() });
        let plain = plain.read_bytes(text, None).unwrap();
        let bare = plain.diagnostics.iter().find(|d| d.code == "sgf.unescaped-bracket").unwrap();
        assert!(!bare.message.starts_with("move "), "{}", bare.message);
        assert_eq!(plain.collection, read.collection);
    }

    #[test]
    fn unreadable_paths_and_readers_are_diagnostics() {
        let err = Reader::new().read_path("fixtures/no-such-file.sgf").unwrap_err();
        assert_eq!(err.diagnostics[0].code, codes::UNREADABLE);
        assert!(err.diagnostics[0].message.contains("no-such-file.sgf"), "{}", err.diagnostics[0].message);
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        assert!(Reader::new().read(Broken).unwrap_err().to_string().contains("disk on fire"));
    }
}
