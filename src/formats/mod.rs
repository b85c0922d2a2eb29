//! The format registry: every format kifu reads or writes, in one place.
//!
//! A format is one module exporting a `FormatSpec` and one line in `REGISTRY`: its name,
//! aliases, file extensions, content sniffing and, when supported, its reader and writer.
//! Capabilities a format lacks are `None` ("unsupported"), never a stub.

use crate::charset::CharsetDecision;
use crate::diag::Diagnostic;
use crate::model::Collection;
use std::fmt;

pub(crate) mod cut;
pub mod gib;
pub mod json;
pub(crate) mod legacy;
mod limits;

pub use limits::Limits;
pub mod ngf;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod sgf;
pub mod ugf;

/// Every format, in the order `kifu formats` lists them. Sniffing tries them in this order, so
/// each sniffer must recognise only its own format (tested over every fixture).
#[cfg(not(feature = "parquet"))]
pub(crate) static REGISTRY: &[&FormatSpec] =
    &[&sgf::FORMAT, &gib::FORMAT, &ngf::FORMAT, &ugf::FORMAT, &json::FORMAT, &json::NDJSON_FORMAT];
/// Every format, in the order `kifu formats` lists them; Parquet (output only) last.
#[cfg(feature = "parquet")]
pub(crate) static REGISTRY: &[&FormatSpec] =
    &[&sgf::FORMAT, &gib::FORMAT, &ngf::FORMAT, &ugf::FORMAT, &json::FORMAT, &json::NDJSON_FORMAT, &parquet::FORMAT];

/// Options for reading (`kifu::Reader`, [`Format::read`]).
///
/// ```
/// use kifu::{Format, ReadOptions};
/// let bytes = b"(;PB[\xC0\xCC])".to_vec(); // EUC-KR, no CA
/// let options = ReadOptions::default().with_encoding(kifu::charset::encoding_for_label("euc-kr"));
/// let read = Format::SGF.read(bytes, &options).unwrap();
/// assert_eq!(read.collection.games[0].info().black.as_deref(), Some("이"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Decode with this charset whatever the file declares (a BOM still wins).
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// Record where each node and property starts in the decoded text, and keep it in the games
    /// (for `kifu check`); formats that cannot tell ignore it. Off by default.
    pub positions: bool,
    /// Keep the input's properties exactly as read: none of the `fix.*` repairs
    /// [`crate::normalise`] applies to SGF input (the reader still recovers a broken structure).
    /// Off by default.
    pub no_repair: bool,
    /// Prefix each diagnostic placed inside a move node with that move's name
    /// (`move 37 (B Q16, SGF pd): …`), for inputs read whole ([`Limits::whole_up_to`]) and every
    /// piece of a streamed one. On by default.
    pub name_moves: bool,
    /// The sizes that decide how inputs are read.
    pub limits: Limits,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { encoding: None, positions: false, no_repair: false, name_moves: true, limits: Limits::default() }
    }
}

impl ReadOptions {
    /// These options with [`ReadOptions::encoding`] set.
    pub fn with_encoding(mut self, encoding: Option<&'static encoding_rs::Encoding>) -> ReadOptions {
        self.encoding = encoding;
        self
    }

    /// These options with [`ReadOptions::positions`] set.
    pub fn with_positions(mut self, positions: bool) -> ReadOptions {
        self.positions = positions;
        self
    }

    /// These options with [`ReadOptions::no_repair`] set.
    pub fn with_no_repair(mut self, no_repair: bool) -> ReadOptions {
        self.no_repair = no_repair;
        self
    }

    /// These options with [`ReadOptions::name_moves`] set.
    pub fn with_name_moves(mut self, name_moves: bool) -> ReadOptions {
        self.name_moves = name_moves;
        self
    }

    /// These options with [`ReadOptions::limits`] set.
    pub fn with_limits(mut self, limits: Limits) -> ReadOptions {
        self.limits = limits;
        self
    }
}

/// Options for writing.
///
/// ```
/// use kifu::{Format, WriteOptions};
/// let read = kifu::read(&b"(;PB[Honinbo Dosaku])"[..]).unwrap();
/// let options = WriteOptions::default().with_encoding(kifu::charset::encoding_for_label("shift_jis"));
/// let out = Format::SGF.write(&read.collection, &options).unwrap();
/// assert!(out.bytes.starts_with(b"(;FF[4]CA[Shift_JIS]"));
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct WriteOptions {
    /// Output charset; UTF-8 when `None`.
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// SGF: write compressed point lists (`AB[aa:cc]`) as single points.
    pub expand_point_lists: bool,
    /// The charset the games were read with ([`ReadOutput::charset`]), for writers that record
    /// it (JSON's `info.charset`); `None` when unknown.
    pub source_charset: Option<CharsetDecision>,
    /// Write `?` (with a warning) for characters the output charset cannot hold, instead of
    /// failing with an error naming each one.
    pub lossy: bool,
}

impl WriteOptions {
    /// These options with [`WriteOptions::encoding`] set.
    pub fn with_encoding(mut self, encoding: Option<&'static encoding_rs::Encoding>) -> WriteOptions {
        self.encoding = encoding;
        self
    }

    /// These options with [`WriteOptions::expand_point_lists`] set.
    pub fn with_expand_point_lists(mut self, expand: bool) -> WriteOptions {
        self.expand_point_lists = expand;
        self
    }

    /// These options with [`WriteOptions::source_charset`] set.
    pub fn with_source_charset(mut self, charset: Option<CharsetDecision>) -> WriteOptions {
        self.source_charset = charset;
        self
    }

    /// These options with [`WriteOptions::lossy`] set.
    pub fn with_lossy(mut self, lossy: bool) -> WriteOptions {
        self.lossy = lossy;
        self
    }

    /// The output charset (UTF-8 by default).
    pub fn encoding(&self) -> &'static encoding_rs::Encoding {
        self.encoding.unwrap_or(encoding_rs::UTF_8)
    }
}

/// What a reader returns: the games, how the input was decoded, and every diagnostic.
///
/// ```
/// let read = kifu::read(&b"(;GM[1]C[never closed"[..]).unwrap();
/// assert_eq!(read.collection.games.len(), 1);
/// assert!(read.diagnostics.iter().any(|d| d.code == "sgf.missing-close"));
/// assert_eq!(read.charset.unwrap().name(), "UTF-8");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReadOutput {
    /// The games read.
    pub collection: Collection,
    /// The charset decision, for text formats.
    pub charset: Option<CharsetDecision>,
    /// Everything the reader repaired, skipped or noticed, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

/// What a writer returns: the bytes and what could not be represented.
///
/// ```
/// let read = kifu::read(&b"(;GM[1];B[pd](;W[dp])(;W[dd]))"[..]).unwrap();
/// let out = kifu::Format::NGF.write(&read.collection, &kifu::WriteOptions::default()).unwrap();
/// assert!(!out.bytes.is_empty());
/// assert!(out.diagnostics.iter().any(|d| d.code.starts_with("ngf.lossy")), "the variation is lost");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WriteOutput {
    /// The encoded output.
    pub bytes: Vec<u8>,
    /// Lossy items and other notes, item by item.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reading failed: nothing usable was found. The diagnostics say why and where.
///
/// ```
/// let err = kifu::Format::GIB.read(b"not a GIB file".to_vec(), &kifu::ReadOptions::default()).unwrap_err();
/// assert!(err.diagnostics.iter().any(|d| d.severity == kifu::Severity::Error));
/// ```
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}", .diagnostics.iter().find(|d| d.severity == crate::diag::Severity::Error).map_or_else(|| "unreadable input".to_string(), |d| d.to_string()))]
#[non_exhaustive]
pub struct ReadError {
    /// What was found, the fatal problem included.
    pub diagnostics: Vec<Diagnostic>,
}

impl WriteOutput {
    /// An output of `bytes` with the writer's `diagnostics`.
    pub fn new(bytes: Vec<u8>, diagnostics: Vec<Diagnostic>) -> WriteOutput {
        WriteOutput { bytes, diagnostics }
    }
}

impl ReadError {
    /// A failed read with its `diagnostics` (the fatal one among them).
    ///
    /// ```
    /// let err = kifu::ReadError::new(vec![kifu::Diagnostic::error("io.unreadable", "cannot read x")]);
    /// assert_eq!(err.to_string(), "error[io.unreadable]: cannot read x");
    /// ```
    pub fn new(diagnostics: Vec<Diagnostic>) -> ReadError {
        ReadError { diagnostics }
    }
}

/// Writing failed.
///
/// ```
/// let none = kifu::Collection::default();
/// let err = kifu::Format::GIB.write(&none, &kifu::WriteOptions::default()).unwrap_err();
/// assert!(matches!(err, kifu::WriteError::Invalid(_)));
/// ```
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The format cannot be written.
    #[error("kifu cannot write {0}")]
    Unsupported(&'static str),
    /// The games cannot be represented at all in the format (e.g. no games, or a game the
    /// format cannot hold).
    #[error("{}", .0.first().map_or_else(|| "cannot write".to_string(), |d| d.message.clone()))]
    Invalid(Vec<Diagnostic>),
    /// The output could not be written ([`Collection::write_to`]).
    #[error("cannot write the output: {0}")]
    Io(std::sync::Arc<std::io::Error>),
}

/// The text of bytes a writer wrote: writers write UTF-8 only (what they copy comes from text,
/// the rest is ASCII), so the conversion never fails.
pub(crate) fn written_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Encodes a writer's text in the requested charset: characters the charset cannot hold are
/// errors naming each one, or with [`WriteOptions::lossy`] `?` and a warning each. `diagnostics`
/// (the writer's own, e.g. lossy items) come first in the result.
///
/// U+0000 is such a character in every charset: a NUL byte makes readers take a file for UTF-16
/// and stops C programs (`charset.unmappable`, written as `?` with `--lossy`).
pub(crate) fn encode_output(
    text: &str,
    options: &WriteOptions,
    mut diagnostics: Vec<Diagnostic>,
) -> Result<WriteOutput, WriteError> {
    let nul = nul_characters(text, options.lossy);
    let replaced;
    let text = if nul.is_empty() {
        text
    } else {
        replaced = text.replace('\0', "?");
        &replaced
    };
    let failed = !nul.is_empty() && !options.lossy;
    diagnostics.extend(nul);
    match crate::charset::encode_output(text, options.encoding(), options.lossy) {
        Ok((bytes, more)) if !failed => {
            diagnostics.extend(more);
            Ok(WriteOutput { bytes, diagnostics })
        }
        Ok((_, more)) | Err(more) => {
            diagnostics.extend(more);
            Err(WriteError::Invalid(diagnostics))
        }
    }
}

/// One `charset.unmappable` per U+0000 of a writer's `text`, at its line:column: an error, or a
/// warning when `lossy` (the character is then written as `?`).
pub(crate) fn nul_characters(text: &str, lossy: bool) -> Vec<Diagnostic> {
    if memchr::memchr(0, text.as_bytes()).is_none() {
        return Vec::new();
    }
    let mut sink = crate::diag::Sink::new();
    for at in memchr::memchr_iter(0, text.as_bytes()) {
        let d = if lossy {
            Diagnostic::warning(
                crate::charset::codes::UNMAPPABLE,
                "character U+0000 (NUL) cannot be written in a text file; written as '?'",
            )
        } else {
            Diagnostic::error(
                crate::charset::codes::UNMAPPABLE,
                "character U+0000 (NUL) cannot be written in a text file (pass --lossy to write '?')",
            )
        };
        sink.push_at(at, d);
    }
    sink.finish(text)
}

/// A reader: owned input bytes in, games out.
pub(crate) type ReadFn = fn(Vec<u8>, &ReadOptions) -> Result<ReadOutput, ReadError>;
/// A writer: games in, bytes out.
pub(crate) type WriteFn = fn(&Collection, &WriteOptions) -> Result<WriteOutput, WriteError>;

/// How a format writes a collection in parts that are joined into the whole collection's output
/// ([`crate::stream::convert`]): `head`, then each part's games (`part`, into a reused buffer)
/// joined by `separator`, then `tail`.
pub(crate) struct PartWriter {
    /// What comes before the first part (once a game was written).
    pub(crate) head: fn() -> String,
    /// The games of one part, written into `buffer` (emptied first).
    pub(crate) part: fn(&Collection, &WriteOptions, Vec<u8>) -> Result<WriteOutput, WriteError>,
    /// What joins two parts.
    pub(crate) separator: &'static [u8],
    /// What ends the output (`true`: some game was written).
    pub(crate) tail: fn(bool) -> &'static str,
}

/// The registry entry of one format: what it is called, how it is recognised, and what it can do.
/// Every ability is a field here, so code elsewhere asks the entry (through [`Format`]'s methods)
/// and never compares formats.
pub(crate) struct FormatSpec {
    /// Short name used on the command line (`sgf`).
    pub(crate) name: &'static str,
    /// Other accepted names (`ugi` for `ugf`).
    pub(crate) aliases: &'static [&'static str],
    /// File extensions, lower-case, without the dot; the first is used for output files.
    pub(crate) extensions: &'static [&'static str],
    /// One line for `kifu formats`.
    pub(crate) description: &'static str,
    /// Whether `bytes` (the start of an input) look like this format.
    pub(crate) sniff: fn(&[u8]) -> bool,
    /// The reader, if kifu can read the format.
    pub(crate) read: Option<ReadFn>,
    /// The writer, if kifu can write the format.
    pub(crate) write: Option<WriteFn>,
    /// Whether the extension is common to files of other kinds (`.json`): a folder walk takes
    /// such a file only when its content is recognised as this format.
    pub(crate) shared_extension: bool,
    /// How a large input can be cut into pieces of whole games, each read alone
    /// ([`crate::stream`]); `None`: read whole.
    pub(crate) cut: Option<cut::Cut>,
    /// Whether the `fix.*` repairs of [`crate::normalise`] apply to what the reader gives (the
    /// legacy readers build clean models, and kifu's JSON is kept exactly).
    pub(crate) repairs: bool,
    /// How the writer writes a collection in parts, when it can ([`Format::writes_in_parts`]).
    pub(crate) parts: Option<PartWriter>,
    /// Whether a game can hold variations (more than one line of play).
    pub(crate) variations: bool,
    /// Whether one file holds several games.
    pub(crate) collections: bool,
    /// Whether the output is a table of games, one row per game ([`Format::writes_table`]).
    pub(crate) table: bool,
}

/// A format: a handle on its registry entry.
///
/// ```
/// use kifu::Format;
/// let ngf: Format = "ngf".parse().unwrap();
/// assert_eq!(ngf, Format::NGF);
/// assert_eq!(Format::from_extension("ugi"), Some(Format::UGF));
/// let names: Vec<String> = Format::all().filter(|f| f.can_read()).map(|f| f.to_string()).collect();
/// assert_eq!(names, ["sgf", "gib", "ngf", "ugf", "json", "ndjson"]);
/// ```
#[derive(Clone, Copy)]
pub struct Format(&'static FormatSpec);

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Format {}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Format({})", self.0.name)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

impl Format {
    /// SGF (FF\[4\], also reading FF\[1\]–FF\[3\]): `.sgf`.
    pub const SGF: Format = Format(&sgf::FORMAT);
    /// GIB, Tygem's format: `.gib`.
    pub const GIB: Format = Format(&gib::FORMAT);
    /// NGF, WBaduk / Cyberoro / Yugen no Ma: `.ngf`.
    pub const NGF: Format = Format(&ngf::FORMAT);
    /// UGF/UGI, Pandanet: `.ugf`, `.ugi`.
    pub const UGF: Format = Format(&ugf::FORMAT);
    /// kifu's JSON, all games in one document: `.json`.
    pub const JSON: Format = Format(&json::FORMAT);
    /// kifu's JSON, one game per line: `.ndjson`, `.jsonl`.
    pub const NDJSON: Format = Format(&json::NDJSON_FORMAT);
    /// Apache Parquet, a table of games (output only, feature `parquet`): `.parquet`.
    #[cfg(feature = "parquet")]
    pub const PARQUET: Format = Format(&parquet::FORMAT);

    /// All formats in registry order.
    pub fn all() -> impl Iterator<Item = Format> {
        REGISTRY.iter().map(|s| Format(s))
    }

    /// The registry entry.
    pub(crate) fn spec(self) -> &'static FormatSpec {
        self.0
    }

    /// The short name.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The extensions (first = the one written).
    pub fn extensions(self) -> &'static [&'static str] {
        self.0.extensions
    }

    /// Other names the format answers to (`ugi` for UGF).
    pub fn aliases(self) -> &'static [&'static str] {
        self.0.aliases
    }

    /// One line saying what the format is (as `kifu formats` lists it).
    pub fn description(self) -> &'static str {
        self.0.description
    }

    /// Whether the format's extension is common to files of other kinds (`.json`), so that a
    /// file is taken as this format only when its content says so ([`Format::guess`]).
    pub fn has_shared_extension(self) -> bool {
        self.0.shared_extension
    }

    /// Whether a large input of this format can be cut into pieces of whole games, read one at a
    /// time with bounded memory ([`crate::stream`]): SGF between game trees, NDJSON at line ends.
    ///
    /// ```
    /// assert!(kifu::Format::SGF.can_be_cut() && kifu::Format::NDJSON.can_be_cut());
    /// assert!(!kifu::Format::GIB.can_be_cut());
    /// ```
    pub fn can_be_cut(self) -> bool {
        self.0.cut.is_some()
    }

    /// Whether what this format's reader gives gets the `fix.*` repairs of
    /// [`crate::normalise`] (SGF).
    pub fn gets_repairs(self) -> bool {
        self.0.repairs
    }

    /// Whether this format's writer can write a collection in parts joined into one output (SGF,
    /// JSON, NDJSON): a large input is then converted piece by piece ([`crate::stream`]).
    pub fn writes_in_parts(self) -> bool {
        self.0.parts.is_some()
    }

    /// Whether the output is a table of games, one row per game with where it came from
    /// ([`parquet`], feature `parquet`): one file holds the games of any number of inputs, each
    /// read with its own source, charset decision and diagnostics, and a large input is
    /// converted piece by piece ([`crate::stream::convert`]) into row groups of bounded size.
    ///
    /// ```
    /// assert!(!kifu::Format::SGF.writes_table());
    /// ```
    pub fn writes_table(self) -> bool {
        self.0.table
    }

    /// Whether a game in this format can hold variations.
    pub fn holds_variations(self) -> bool {
        self.0.variations
    }

    /// Whether one file of this format can hold several games.
    pub fn holds_collections(self) -> bool {
        self.0.collections
    }

    /// Whether kifu reads this format.
    pub fn can_read(self) -> bool {
        self.0.read.is_some()
    }

    /// Whether kifu writes this format.
    pub fn can_write(self) -> bool {
        self.0.write.is_some()
    }

    /// The format named `name` (or one of its aliases), case-insensitive.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::all()
            .find(|f| f.0.name.eq_ignore_ascii_case(name) || f.0.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
    }

    /// The format that uses file extension `ext` (without the dot), case-insensitive.
    pub fn from_extension(ext: &str) -> Option<Format> {
        Format::all().find(|f| f.0.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
    }

    /// The format of a path, from its extension.
    pub fn from_path(path: &std::path::Path) -> Option<Format> {
        path.extension().and_then(|e| e.to_str()).and_then(Format::from_extension)
    }

    /// The format whose reader writes the private property `ident`: kifu's legacy readers keep
    /// values SGF has no property for under `X` + the format's name (`XGIB`, `XNGFRE`, …).
    pub fn private_owner(ident: &str) -> Option<Format> {
        let rest = ident.strip_prefix('X')?;
        Format::all().find(|f| {
            let name = f.name().as_bytes();
            rest.len() >= name.len() && rest.as_bytes()[..name.len()].eq_ignore_ascii_case(name)
        })
    }

    /// The format of a file, from its path and its first bytes (as much of the file as is at
    /// hand; 64 KiB is plenty). A known extension decides, except a shared one (`.json`), which
    /// only counts when the content agrees (kifu's JSON document or lines); otherwise the
    /// content decides, as [`Format::sniff`]. `None` when neither tells.
    ///
    /// ```
    /// use kifu::Format;
    /// assert_eq!(Format::guess("game.GIB", b""), Some(Format::GIB));
    /// assert_eq!(Format::guess("download", b"(;GM[1]SZ[19])"), Some(Format::SGF));
    /// assert_eq!(Format::guess("games.json", b"{\"format\":\"kifu\",\"version\":1,\"nodes\":[{}]}\n"), Some(Format::NDJSON));
    /// assert_eq!(Format::guess("notes.txt", b"hello"), None);
    /// ```
    pub fn guess(path: impl AsRef<std::path::Path>, bytes: &[u8]) -> Option<Format> {
        let by_name = Format::from_path(path.as_ref());
        match by_name {
            Some(f) if f.0.shared_extension => match Format::sniff(bytes) {
                Some(s) if s.0.shared_extension => Some(s),
                _ => Some(f),
            },
            Some(f) => Some(f),
            None => Format::sniff(bytes),
        }
    }

    /// The first format whose signature matches the start of `bytes`; failing that, SGF when a
    /// game tree `(;` appears in the first 4 KiB (SGF files with prose before the game).
    /// UTF-16 input (with a byte-order mark, or recognised by its zero bytes) is transcoded
    /// before the signatures are tried.
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        let head = &bytes[..bytes.len().min(64 * 1024)];
        let transcoded;
        let utf16 = encoding_rs::Encoding::for_bom(head).map(|(e, _)| e).or_else(|| crate::charset::sniff_utf16(head));
        let head = match utf16 {
            Some(enc) if enc != encoding_rs::UTF_8 => {
                transcoded = enc.decode_with_bom_removal(head).0.into_owned();
                transcoded.as_bytes()
            }
            _ => head,
        };
        Format::all()
            .filter(|f| f.can_read())
            .find(|f| (f.0.sniff)(head))
            .or_else(|| memchr::memmem::find(&head[..head.len().min(4096)], b"(;").is_some().then_some(Format::SGF))
    }

    // `Format::read` (parse, then `normalise` for SGF) is in `src/entry.rs`, with the other entry
    // points: `normalise` uses `formats`, so `formats` does not use `normalise`.

    /// Write `collection` in this format. Lossy items are reported one by one by the writer;
    /// a kind of loss met more than once gets one warning with the count and the places, and
    /// its items stay in the list as notes (see `summarize_losses`).
    pub fn write(self, collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
        match self.0.write {
            Some(write) => write(collection, options).map(|mut out| {
                summarize_losses(&mut out.diagnostics);
                out
            }),
            None => Err(WriteError::Unsupported(self.0.name)),
        }
    }
}

/// The error of parsing a [`Format`] from a name that no format has.
///
/// ```
/// let err = "kif".parse::<kifu::Format>().unwrap_err();
/// assert_eq!(err, kifu::formats::UnknownFormat("kif".into()));
/// assert!(err.to_string().starts_with("unknown format \"kif\" (known: sgf, "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?} (known: {known})", known = known_names())]
pub struct UnknownFormat(pub String);

/// Every format's name and aliases, as the registry lists them.
fn known_names() -> String {
    let names: Vec<&str> =
        Format::all().flat_map(|f| std::iter::once(f.name()).chain(f.aliases().iter().copied())).collect();
    names.join(", ")
}

impl std::str::FromStr for Format {
    type Err = UnknownFormat;

    /// A format by name or alias, case-insensitive ([`Format::from_name`]).
    ///
    /// ```
    /// let f: kifu::Format = "gib".parse().unwrap();
    /// assert_eq!(f, kifu::Format::GIB);
    /// assert_eq!("UGI".parse::<kifu::Format>(), Ok(kifu::Format::UGF));
    /// assert!("doc".parse::<kifu::Format>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::from_name(s).ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// Summarises repeated lossy items per kind: a kind is a lossy code (`<format>.lossy…`) with
/// what was lost, the message after its place (`node 17 (move 17): property WL not written`
/// is of kind `property WL not written`). A kind met more than once gets one warning, placed
/// at its first item, that counts and places every item; the items stay in the list as notes
/// (info), so a report keeps each one and the terminal shows one line per kind.
pub(crate) fn summarize_losses(diags: &mut Vec<Diagnostic>) {
    use crate::diag::Severity;
    let kinds: Vec<Option<(&'static str, String)>> = diags
        .iter()
        .map(|d| {
            (d.code.contains(".lossy") && d.severity == Severity::Warning).then(|| {
                let what = split_place(&d.message).map_or_else(|| numbers_hidden(&d.message), |(_, w)| w.to_string());
                (d.code, what)
            })
        })
        .collect();
    // Each kind with its items' indices; only repeated kinds are summarised.
    let mut groups: Vec<(&(&'static str, String), Vec<usize>)> = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        let Some(k) = k else { continue };
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, items)) => items.push(i),
            None => groups.push((k, vec![i])),
        }
    }
    groups.retain(|(_, items)| items.len() > 1);
    let summaries: Vec<(usize, Diagnostic)> = groups
        .iter()
        .map(|((code, what), items)| {
            let places: Vec<&str> =
                items.iter().filter_map(|&i| split_place(&diags[i].message)).map(|(p, _)| p).collect();
            let shown = match places.len() {
                0 => String::new(),
                n if n <= 8 => format!(": {}", places.join(", ")),
                n => format!(": {}, …, {}", places[..4].join(", "), places[n - 1]),
            };
            let message = if places.is_empty() {
                format!("{} ({} times in all)", diags[items[0]].message, items.len())
            } else {
                format!("{what} ({} times{shown})", items.len())
            };
            (items[0], Diagnostic::warning(code, message))
        })
        .collect();
    if summaries.is_empty() {
        return;
    }
    let repeated: Vec<usize> = groups.iter().flat_map(|(_, items)| items.iter().copied()).collect();
    let mut out = Vec::with_capacity(diags.len() + summaries.len());
    for (i, d) in std::mem::take(diags).into_iter().enumerate() {
        if let Some((_, summary)) = summaries.iter().find(|(at, _)| *at == i) {
            out.push(summary.clone());
        }
        let severity = if repeated.contains(&i) { Severity::Info } else { d.severity };
        out.push(Diagnostic { severity, ..d });
    }
    *diags = out;
}

/// A lossy message's place and what was lost: `node 17 (move 17): property WL not written`
/// → (`node 17 (move 17)`, `property WL not written`).
fn split_place(message: &str) -> Option<(&str, &str)> {
    let (place, what) = message.split_once(": ")?;
    (place.starts_with("node ") || place.starts_with("move ")).then_some((place, what))
}

/// A message with its numbers hidden, so items that differ only by node or move number share
/// a kind.
fn numbers_hidden(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_number = false;
    for c in message.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// Skips a UTF-8 BOM and leading ASCII whitespace (for sniffers).
pub(crate) fn trim_start(bytes: &[u8]) -> &[u8] {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    &b[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_by_name_extension_and_content() {
        assert_eq!(Format::from_name("SGF"), Some(Format::SGF));
        assert_eq!(Format::from_extension("SGF"), Some(Format::SGF));
        assert_eq!(Format::from_path(std::path::Path::new("a/b.sgf")), Some(Format::SGF));
        assert_eq!(Format::sniff(b"\xEF\xBB\xBF  (;FF[4])"), Some(Format::SGF));
        assert_eq!(Format::sniff(b"hello"), None);
    }

    #[test]
    fn every_format_has_a_constant_a_name_and_a_guess() {
        #[cfg(not(feature = "parquet"))]
        let consts = [Format::SGF, Format::GIB, Format::NGF, Format::UGF, Format::JSON, Format::NDJSON];
        #[cfg(feature = "parquet")]
        let consts =
            [Format::SGF, Format::GIB, Format::NGF, Format::UGF, Format::JSON, Format::NDJSON, Format::PARQUET];
        assert_eq!(consts.to_vec(), Format::all().collect::<Vec<_>>());
        for f in consts {
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
            assert_eq!(Format::guess(format!("x.{}", f.extensions()[0]), b""), Some(f));
        }
        assert_eq!("nope".parse::<Format>(), Err(UnknownFormat("nope".into())));
        let line = b"{\"format\":\"kifu\",\"version\":1,\"nodes\":[{}]}\n";
        // A shared extension yields to the content; a proper one wins over it.
        assert_eq!(Format::guess("a.json", line), Some(Format::NDJSON));
        assert_eq!(Format::guess("a.jsonl", b"{\"format\":\"kifu\",\"games\":[]}"), Some(Format::JSON));
        assert_eq!(Format::guess("a.json", b"(;GM[1])"), Some(Format::JSON));
        assert_eq!(Format::guess("a.gib", b"(;GM[1])"), Some(Format::GIB));
        assert_eq!(Format::guess("", b"\\HS\n\\[GIBOKIND=Global\\]\n"), Some(Format::GIB));
        assert_eq!(Format::guess("a.txt", b"nothing"), None);
    }

    #[test]
    fn repeated_losses_are_summarised_per_kind() {
        use crate::diag::Severity;
        let mut d = vec![
            Diagnostic::warning("x.lossy-property", "node 17 (move 17): property WL not written"),
            Diagnostic::warning("x.lossy-markup", "node 2 (move 2): markup TR not written"),
            Diagnostic::warning("x.lossy-property", "node 18 (move 18): property WL not written"),
            Diagnostic::warning("x.lossy-property", "node 19 (move 19): property BL not written"),
            Diagnostic::warning("x.lossy", "comment at move 3 not written"),
            Diagnostic::warning("x.lossy", "comment at move 4 not written"),
        ];
        summarize_losses(&mut d);
        let shown: Vec<(Severity, &str)> = d.iter().map(|d| (d.severity, d.message.as_str())).collect();
        assert_eq!(
            shown,
            [
                (Severity::Warning, "property WL not written (2 times: node 17 (move 17), node 18 (move 18))"),
                (Severity::Info, "node 17 (move 17): property WL not written"),
                (Severity::Warning, "node 2 (move 2): markup TR not written"),
                (Severity::Info, "node 18 (move 18): property WL not written"),
                (Severity::Warning, "node 19 (move 19): property BL not written"),
                (Severity::Warning, "comment at move 3 not written (2 times in all)"),
                (Severity::Info, "comment at move 3 not written"),
                (Severity::Info, "comment at move 4 not written"),
            ]
        );
    }

    #[test]
    fn names_and_extensions_are_unique() {
        let all: Vec<Format> = Format::all().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.name(), b.name());
                for e in a.extensions() {
                    assert!(!b.extensions().contains(e), "{e} claimed twice");
                }
            }
        }
    }
}
