//! Streaming: games read part by part from any [`std::io::Read`] and written part by part to any
//! [`std::io::Write`], with bounded memory. Specification: `formats/streaming.md`.
//!
//! The input is cut into chunks of whole games ([`Chunks`]); each chunk is read by the format's
//! own reader ([`Format::read`]) with the same [`ReadOptions`], so every repair, diagnostic and
//! charset rule applies unchanged, and its diagnostics are moved to their place in the whole
//! input (line, column, offset, and NDJSON's `line N:`). Inputs of at most [`Limits::whole_up_to`](crate::Limits::whole_up_to) bytes
//! are not cut at all: they are one chunk, read exactly as [`Format::read`] reads them.

mod convert;
mod games;
mod join;
mod place;

pub use crate::formats::cut::{CHUNK_TARGET, Chunk, Chunks, Cut, RecordTooLarge, cut_for};

/// Diagnostic codes of streaming (documented in `formats/streaming.md`).
pub mod codes {
    pub use crate::formats::cut::codes::RECORD_TOO_LARGE;
}
pub use convert::{StreamError, StreamOptions, Summary, convert};
pub use games::{Chained, Games};
pub use join::{Joiner, joinable, write_part};

use crate::charset::{CharsetDecision, CharsetSource, codes as charset_codes};
use crate::diag::Diagnostic;
use crate::formats::{Format, Limits, ReadError, ReadOptions, ReadOutput};
use encoding_rs::Encoding;
use place::{Placer, TextSpan};
use std::io::{self, Read};

/// The input, as [`open`] found it.
// One per input, moved once: not worth a box in the public type.
#[allow(clippy::large_enum_variant)]
pub enum Input<R> {
    /// Small enough (or not cuttable): all its bytes, for [`Format::read`].
    Whole(Vec<u8>),
    /// Larger than [`Limits::whole_up_to`](crate::Limits::whole_up_to): its chunks.
    Parts(Parts<R>),
}

/// Reads the first `whole_up_to + 1` bytes of `reader` (with `head` already read from it;
/// `whole_up_to` is [`Limits::whole_up_to`](crate::Limits::whole_up_to)): an input that ends
/// there, or that `format` cannot cut, is returned whole; otherwise its parts. The other limits
/// are the defaults ([`open_within`] takes them all).
pub fn open<R: Read>(format: Format, head: Vec<u8>, reader: R, whole_up_to: usize) -> io::Result<Input<R>> {
    open_within(format, head, reader, &Limits::default().with_whole_up_to(whole_up_to))
}

/// [`open`] with every limit of `limits`: a record larger than
/// [`Limits::max_record`] is refused by the parts ([`RecordTooLarge`]) before it is held.
///
/// ```
/// use kifu::{Format, Limits, stream};
/// let input = b"{\"nodes\":[{\"C\":[\"a long comment\"]}]}\n".repeat(100);
/// let limits = Limits::default().with_whole_up_to(64).with_max_record(16);
/// let stream::Input::Parts(mut parts) = stream::open_within(Format::NDJSON, Vec::new(), &input[..], &limits)? else {
///     unreachable!("larger than whole_up_to")
/// };
/// let e = parts.next_piece().unwrap().unwrap_err();
/// assert!(stream::RecordTooLarge::of(&e).is_some_and(|r| r.offset == 0 && r.limit == 16));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn open_within<R: Read>(format: Format, mut head: Vec<u8>, mut reader: R, limits: &Limits) -> io::Result<Input<R>> {
    let whole_up_to = limits.whole_up_to;
    let want = whole_up_to.saturating_add(1).saturating_sub(head.len()) as u64;
    (&mut reader).take(want).read_to_end(&mut head)?;
    if head.len() <= whole_up_to {
        return Ok(Input::Whole(head));
    }
    match cut_for(format, &head) {
        Some(cut) => Ok(Input::Parts(Parts::new(format, head, reader, cut).with_max_record(limits.max_record))),
        None => {
            reader.read_to_end(&mut head)?;
            Ok(Input::Whole(head))
        }
    }
}

/// One chunk ready for its reader: the bytes as the reader gets them and the charset in effect.
#[derive(Debug)]
pub struct Piece {
    /// Place in input order.
    pub index: usize,
    /// The bytes (a UTF-8 byte-order mark of the input is repeated at the start of each).
    pub bytes: Vec<u8>,
    /// The charset the games before this piece declared last (SGF), used when the piece
    /// declares none; `None` when nothing was declared yet.
    pub carried: Option<&'static Encoding>,
    /// A game of the piece has a `CA` in its root (SGF; known charset or not).
    pub declares: bool,
}

/// How much of a cut input is looked at for its byte-order mark and first declared charset
/// (as much as an input read whole).
const LOOKAHEAD: usize = 16 << 20;

/// The chunks of one input and the sequential state that ties them together: the charset in
/// effect (SGF `CA`), where each chunk starts, and the charset parts seen.
pub struct Parts<R> {
    format: Format,
    cut: Cut,
    chunks: Chunks<R>,
    bom: bool,
    carried: Option<&'static Encoding>,
    /// The input's first bytes were looked at (BOM, first `CA`).
    started: bool,
    /// A piece split off the last chunk, given next.
    pending: Option<Piece>,
    /// (byte offset, charset) at each change of the declared charset.
    changes: Vec<(u64, &'static Encoding)>,
    index: usize,
}

impl<R: Read> Parts<R> {
    /// The parts of an input of `format` whose first bytes `head` were read from `reader`.
    pub fn new(format: Format, head: Vec<u8>, reader: R, cut: Cut) -> Self {
        Parts {
            format,
            cut,
            chunks: Chunks::new(head, reader, cut),
            bom: false,
            carried: None,
            started: false,
            pending: None,
            changes: Vec::new(),
            index: 0,
        }
    }

    /// Refuses a record larger than `bytes` ([`Chunks::with_max_record`]).
    pub fn with_max_record(mut self, bytes: usize) -> Self {
        self.chunks = self.chunks.with_max_record(bytes);
        self
    }

    /// Cuts chunks of about `target` bytes (see [`Chunks::with_target`]).
    pub fn with_target(mut self, target: usize) -> Self {
        self.chunks = self.chunks.with_target(target);
        self
    }

    /// The input's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The next piece, splitting a chunk whose first games take the carried charset from the
    /// game that declares another one on (as the whole-file reader decodes such a collection in
    /// parts).
    pub fn next_piece(&mut self) -> Option<io::Result<Piece>> {
        if let Some(p) = self.pending.take() {
            return Some(Ok(p));
        }
        if !self.started {
            self.started = true;
            // As for the whole file, games before the first declaration take the first one
            // found (here: in the input's first `LOOKAHEAD` bytes).
            let head = match self.chunks.lookahead(LOOKAHEAD) {
                Ok(h) => h,
                Err(e) => return Some(Err(e)),
            };
            self.bom = head.starts_with(b"\xEF\xBB\xBF");
            if self.cut == Cut::Sgf {
                let first = crate::formats::sgf::find_declared_charset(head);
                self.carried = first.as_deref().and_then(crate::charset::encoding_for_label);
            }
        }
        let chunk = match self.chunks.next()? {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        if self.cut != Cut::Sgf {
            return Some(Ok(self.piece(chunk.bytes, None, false)));
        }
        // Most collections repeat one declaration: when every `CA[` of the chunk names the
        // charset already in effect, nothing changes and the roots need no scan (the piece is
        // read with the carried charset, as the games before declared it).
        if let (Some(c), Some(&(_, last))) = (self.carried, self.changes.last()) {
            if c == last && crate::formats::sgf::every_label_names(&chunk.bytes, c) {
                return Some(Ok(self.piece(chunk.bytes, Some(c), false)));
            }
        }
        let (parts, first_game, declaring) = crate::formats::sgf::charset_layout(&chunk.bytes);
        let labels: Vec<(usize, &'static Encoding)> = parts
            .iter()
            .filter_map(|(at, label)| crate::charset::encoding_for_label(label).map(|e| (*at, e)))
            .collect();
        let mut bytes = chunk.bytes;
        let carried = self.carried;
        // Where the chunk's first declaring game starts; the games before keep the carried one.
        let split = match (carried, labels.first(), first_game) {
            (Some(c), Some(&(_, e)), Some(k)) if c != e && k > 0 => Some((k, e)),
            _ => None,
        };
        for &(at, e) in &labels {
            if self.changes.last().is_none_or(|&(_, last)| last != e) {
                self.changes.push((chunk.offset + at as u64, e));
            }
        }
        if let Some(&(_, e)) = labels.last() {
            self.carried = Some(e);
        }
        if self.changes.is_empty() {
            if let Some(c) = carried {
                self.changes.push((0, c));
            }
        }
        match split {
            Some((k, _)) => {
                let rest = bytes.split_off(k);
                let first = self.piece(bytes, carried, declaring.iter().any(|&g| g < k));
                let second = self.piece(rest, None, true);
                self.pending = Some(second);
                Some(Ok(first))
            }
            None => Some(Ok(self.piece(bytes, carried, !declaring.is_empty()))),
        }
    }

    fn piece(&mut self, mut bytes: Vec<u8>, carried: Option<&'static Encoding>, declares: bool) -> Piece {
        if self.bom && self.index > 0 {
            bytes.splice(0..0, *b"\xEF\xBB\xBF");
        }
        let index = self.index;
        self.index += 1;
        Piece { index, bytes, carried, declares }
    }

    /// The warning `charset.mixed` when the pieces read so far declared more than one charset
    /// (the whole-file reader gives the same warning).
    pub fn mixed_warning(&self) -> Option<Diagnostic> {
        (self.changes.len() > 1).then(|| {
            let names: Vec<String> =
                self.changes.iter().map(|(at, e)| format!("{} from byte {at}", e.name())).collect();
            Diagnostic::warning(
                charset_codes::MIXED,
                format!(
                    "the games of this collection declare different charsets; each part was decoded with its own: {}",
                    names.join(", ")
                ),
            )
        })
    }
}

/// A piece read: its games and diagnostics (not yet placed), and the extent of its text.
#[derive(Debug)]
pub struct ReadPiece {
    /// Place in input order.
    pub index: usize,
    /// What the reader returned (diagnostics relative to the piece).
    pub read: Result<ReadOutput, ReadError>,
    span: TextSpan,
}

/// Reads one piece through the read pipeline ([`crate::Reader`]) as `format`: the carried charset
/// is given as the charset to use when the piece declares none (and no charset was named in
/// `options`).
pub(crate) fn read_piece(format: Format, piece: Piece, options: &ReadOptions) -> ReadPiece {
    let carried = if options.encoding.is_none() && !piece.declares { piece.carried } else { None };
    let opts;
    let options = match carried {
        Some(c) => {
            opts = ReadOptions { encoding: Some(c), ..options.clone() };
            &opts
        }
        None => options,
    };
    // The games of a format cut at line ends (NDJSON) keep no source text: the piece's extent is
    // taken from its bytes before they go to the reader; other formats' pieces are kept for
    // the case that their reader gives no text.
    let lines = format.spec().cut == Some(Cut::Lines);
    let bytes_span = lines.then(|| TextSpan::of_bytes(&piece.bytes));
    let copy = if lines { Vec::new() } else { piece.bytes.clone() };
    let mut read = crate::reader::run(format, piece.bytes, options);
    if carried.is_some() {
        if let Ok(r) = &mut read {
            r.charset = r.charset.map(as_declared);
        }
    }
    let text =
        read.as_ref().ok().and_then(|r| r.collection.games.first()).map(|g| g.source()).filter(|s| !s.is_empty());
    let span = match (text, bytes_span) {
        (Some(t), _) => TextSpan::of_text(t),
        (None, Some(span)) => span,
        (None, None) => TextSpan::of_bytes(&copy),
    };
    ReadPiece { index: piece.index, read, span }
}

/// A decision made with the carried charset as an override, as the whole-file reader words it:
/// the games before declared it.
fn as_declared(d: CharsetDecision) -> CharsetDecision {
    match d.source {
        CharsetSource::Override if d.reason == "--from-encoding" => {
            CharsetDecision { source: CharsetSource::Declared, reason: "declared charset", ..d }
        }
        _ => d,
    }
}

/// The pieces of an input read one after the other, with diagnostics placed in the whole input:
/// the piece-level counterpart of [`Format::read`] (sequential; [`convert`] reads in parallel;
/// [`Format::games`] gives the games one by one).
pub struct Pieces<R> {
    parts: Parts<R>,
    options: ReadOptions,
    placer: Placer,
}

impl<R: Read> Pieces<R> {
    /// The pieces of `parts`, read with `options`.
    pub fn new(parts: Parts<R>, options: ReadOptions) -> Self {
        let lines = parts.cut == Cut::Lines;
        Pieces { parts, options, placer: Placer::new(lines) }
    }

    /// The collection-level diagnostics once every piece was read: `charset.mixed` when the
    /// games declared several charsets, and the counts of diagnostics held back past
    /// 100 of a code.
    pub fn finish(self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self.parts.mixed_warning().into_iter().collect();
        out.extend(self.placer.finish());
        out
    }
}

impl<R: Read> Iterator for Pieces<R> {
    type Item = io::Result<Result<ReadOutput, ReadError>>;

    fn next(&mut self) -> Option<Self::Item> {
        let piece = match self.parts.next_piece()? {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        let read = read_piece(self.parts.format(), piece, &self.options);
        Some(Ok(self.placer.place(read)))
    }
}
