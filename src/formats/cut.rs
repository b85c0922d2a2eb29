//! Splitting an input byte stream into chunks of whole games, with bounded buffering.
//!
//! SGF is cut only between two top-level game trees: a scanner follows `(`, `)`, value brackets
//! `[` `]` and `\` escapes (inside a game tree 64 bytes at a time, see `tree`), and cuts right
//! before a `(` that opens a game tree after one closed (the text between two games stays with
//! the game before, so the reader reports it as text after a game tree, as it does for the whole
//! file). NDJSON is cut at line ends. A chunk holds whole games up to about [`CHUNK_TARGET`]
//! bytes; a single game larger than that is one chunk of its own size, up to
//! [`Limits::max_record`](crate::Limits::max_record) bytes: past it the input is refused
//! ([`RecordTooLarge`]) before more of it is held.

use crate::diag::Diagnostic;
use std::io::{self, Read};

/// Diagnostic codes of cutting an input into records (documented in `formats/streaming.md`).
pub(crate) mod codes {
    /// One record (a game tree of SGF, a line of NDJSON, a whole input that cannot be cut) is
    /// larger than [`Limits::max_record`](crate::Limits::max_record); the input is refused.
    pub const RECORD_TOO_LARGE: &str = "input.record-too-large";
}

/// A record larger than [`Limits::max_record`](crate::Limits::max_record): the error of
/// [`Chunks`] (inside an [`io::Error`] of kind `InvalidData`, see [`RecordTooLarge::of`]) and
/// of reading such an input whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordTooLarge {
    /// The byte offset where the record starts in the input.
    pub offset: u64,
    /// The limit it passes.
    pub limit: usize,
}

impl std::fmt::Display for RecordTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the record (game or line) from byte {} is larger than {} bytes (Limits::max_record; --max-record raises it); the input is refused",
            self.offset, self.limit
        )
    }
}

impl std::error::Error for RecordTooLarge {}

impl RecordTooLarge {
    /// The error as a diagnostic ([`codes::RECORD_TOO_LARGE`]).
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(codes::RECORD_TOO_LARGE, self.to_string())
    }

    /// The record that `e` (an error of [`Chunks`]) is about, when that is why it failed.
    pub fn of(e: &io::Error) -> Option<&RecordTooLarge> {
        e.get_ref()?.downcast_ref()
    }
}

impl From<RecordTooLarge> for crate::ReadError {
    fn from(r: RecordTooLarge) -> crate::ReadError {
        crate::ReadError { diagnostics: vec![r.diagnostic()] }
    }
}

/// How an input of `format` whose first bytes are `head` can be cut (the format's registry entry,
/// [`Format::can_be_cut`](crate::Format::can_be_cut)); `None` for formats that hold one game or
/// one document, and for UTF-16 input (whose `(` and line ends are not single bytes).
pub fn cut_for(format: crate::Format, head: &[u8]) -> Option<Cut> {
    let utf16 = encoding_rs::Encoding::for_bom(head).is_some_and(|(e, _)| e != encoding_rs::UTF_8)
        || crate::charset::sniff_utf16(&head[..head.len().min(64 << 10)]).is_some();
    if utf16 { None } else { format.spec().cut }
}

/// The first record of `bytes` larger than `max` bytes, when `bytes` cut as `cut` has one
/// (without holding more than one record at a time).
pub(crate) fn record_over(bytes: &[u8], cut: Cut, max: usize) -> Option<RecordTooLarge> {
    if bytes.len() <= max {
        return None;
    }
    let mut chunks = Chunks::new(Vec::new(), bytes, cut).with_target(1).with_max_record(max);
    chunks.find_map(|c| c.err()).and_then(|e| RecordTooLarge::of(&e).cloned())
}

/// The size a chunk grows to before it is cut at the next game boundary.
pub const CHUNK_TARGET: usize = 512 << 10;

/// How much is read from the input at a time.
const READ_BLOCK: usize = 256 << 10;

/// How the input is cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Between SGF game trees.
    Sgf,
    /// At line ends (NDJSON).
    Lines,
}

/// A piece of the input holding whole games, and where it starts.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Its place in input order, from 0.
    pub index: usize,
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// The byte offset of its first byte in the input.
    pub offset: u64,
}

/// The bytes that change the scanner's state inside a game tree: `[`, `]`, `\\`, `(`, `)`.
#[cfg(test)]
static TREE_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'[' as usize] = 1;
    t[b']' as usize] = 1;
    t[b'\\' as usize] = 1;
    t[b'(' as usize] = 1;
    t[b')' as usize] = 1;
    t
};

/// The SGF scanner's state between reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Scan {
    /// Open game-tree levels.
    depth: u32,
    /// Inside a property value.
    in_value: bool,
    /// The byte after a `\` inside a value is escaped.
    escaped: bool,
    /// A game tree has closed since the chunk started (the next one may start a new chunk).
    closed: bool,
}

/// An iterator over the chunks of an input.
pub struct Chunks<R> {
    reader: R,
    cut: Cut,
    buf: Vec<u8>,
    /// How far `buf` has been scanned.
    scanned: usize,
    /// The last cut found in `buf` (a chunk may end there).
    last_cut: Option<usize>,
    scan: Scan,
    eof: bool,
    offset: u64,
    index: usize,
    target: usize,
    /// Where the next chunk starts in `buf` (the bytes before were given out).
    start: usize,
    /// How much is read at a time ([`READ_BLOCK`]; tests read less).
    read_block: usize,
    /// A record (the bytes since the last cut) may not grow past this.
    max_record: usize,
    /// A record passed `max_record`: nothing more is given.
    refused: bool,
    /// The input offset where the current record starts.
    record: u64,
    /// The start of a record found larger than `max_record`.
    over_at: Option<u64>,
    /// Scans game trees byte by byte (the oracle of the tests).
    #[cfg(test)]
    bytewise: bool,
}

impl<R: Read> Chunks<R> {
    /// Chunks of `prefix` (bytes already read from the input) followed by the rest of `reader`.
    pub fn new(prefix: Vec<u8>, reader: R, cut: Cut) -> Self {
        Chunks {
            reader,
            cut,
            buf: prefix,
            scanned: 0,
            last_cut: None,
            scan: Scan::default(),
            eof: false,
            offset: 0,
            index: 0,
            target: CHUNK_TARGET,
            start: 0,
            read_block: READ_BLOCK,
            max_record: crate::Limits::default().max_record,
            refused: false,
            record: 0,
            over_at: None,
            #[cfg(test)]
            bytewise: false,
        }
    }

    /// Refuses a record of more than `bytes` bytes instead of
    /// [`Limits::max_record`](crate::Limits::max_record)'s default.
    pub fn with_max_record(mut self, bytes: usize) -> Self {
        self.max_record = bytes;
        self
    }

    /// The input offset of the byte at `at` in the buffer.
    fn offset_of(&self, at: usize) -> u64 {
        self.offset + (at - self.start) as u64
    }

    /// Records a cut at `at` (a record starts there), noting the record it ends when that one
    /// is larger than `max_record`.
    fn cut_at(&mut self, at: usize) {
        self.last_cut = Some(at);
        let here = self.offset_of(at);
        if here - self.record > self.max_record as u64 && self.over_at.is_none() {
            self.over_at = Some(self.record);
        }
        self.record = here;
    }

    /// When a record that ended is larger than `max_record`, or (with `open`, after a scan of the
    /// whole buffer) the record still open is: the records before it as a chunk, then the error.
    fn over(&mut self, open: bool) -> Option<io::Result<Chunk>> {
        let end = self.offset_of(self.buf.len());
        let offset = self.over_at.or((open && end - self.record > self.max_record as u64).then_some(self.record))?;
        let at = self.start + offset.saturating_sub(self.offset) as usize;
        if at > self.start {
            return Some(Ok(self.take(at)));
        }
        self.refused = true;
        Some(Err(io::Error::new(io::ErrorKind::InvalidData, RecordTooLarge { offset, limit: self.max_record })))
    }

    /// Cuts chunks of about `target` bytes instead of [`CHUNK_TARGET`] (tests cut small inputs).
    pub fn with_target(mut self, target: usize) -> Self {
        self.target = target.max(1);
        self
    }

    /// Reads `n` bytes at a time instead of [`READ_BLOCK`], so that the ends of reads fall
    /// anywhere in a small input.
    #[cfg(test)]
    fn with_read_block(mut self, n: usize) -> Self {
        self.read_block = n.max(1);
        self
    }

    /// Scans `buf` from `scanned` on; records cuts; stops at the first cut past the target.
    fn scan(&mut self) {
        match self.cut {
            Cut::Lines => {
                while let Some(k) = memchr::memchr(b'\n', &self.buf[self.scanned..]) {
                    self.scanned += k + 1;
                    self.cut_at(self.scanned);
                    if self.scanned - self.start >= self.target {
                        return;
                    }
                }
                self.scanned = self.buf.len();
            }
            #[cfg(test)]
            Cut::Sgf if self.bytewise => self.scan_sgf(tree_bytewise),
            Cut::Sgf => self.scan_sgf(tree),
        }
    }

    /// The SGF scan, with `tree` following the bytes inside a game tree.
    fn scan_sgf(&mut self, tree: fn(&[u8], usize, &mut Scan) -> usize) {
        let b = &self.buf;
        let mut i = self.scanned;
        let s = &mut self.scan;
        while i < b.len() {
            if s.escaped {
                s.escaped = false;
                i += 1;
                continue;
            }
            if s.depth == 0 && !s.in_value {
                // Between games the reader skips whitespace and reads a game tree at `(`, skips a
                // stray `)`, and skips other text up to the next `(;`.
                let Some(j) = b[i..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| i + k) else {
                    i = b.len();
                    break;
                };
                let at = match b[j] {
                    b'(' => j,
                    b')' => {
                        i = j + 1;
                        continue;
                    }
                    _ => match game_start(b, j, self.eof) {
                        Some(Some(at)) => at,
                        Some(None) => {
                            i = b.len();
                            break;
                        }
                        None => {
                            // Cannot tell yet: wait for more input.
                            i = j;
                            break;
                        }
                    },
                };
                if s.closed && at > self.start {
                    self.last_cut = Some(at);
                    let here = self.offset + (at - self.start) as u64;
                    if here - self.record > self.max_record as u64 && self.over_at.is_none() {
                        self.over_at = Some(self.record);
                    }
                    self.record = here;
                    if at - self.start >= self.target {
                        self.scanned = at;
                        return;
                    }
                }
                s.depth = 1;
                i = at + 1;
                continue;
            }
            i = tree(b, i, s);
        }
        self.scanned = i;
    }

    /// Gives out the chunk `buf[start..at]`; drops what was given out once it is most of the
    /// buffer (so the first, large read is not kept whole).
    fn take(&mut self, at: usize) -> Chunk {
        let bytes = if at - self.start > 2 * (self.target + READ_BLOCK) {
            // A large record: its bytes move out of the buffer instead of being copied.
            self.buf.drain(..self.start);
            self.scanned -= self.start;
            let at = at - self.start;
            self.start = 0;
            let rest = self.buf[at..].to_vec();
            self.scanned -= at;
            let mut bytes = std::mem::replace(&mut self.buf, rest);
            bytes.truncate(at);
            bytes.shrink_to_fit();
            self.last_cut = None;
            self.scan.closed = false;
            let chunk = Chunk { index: self.index, bytes, offset: self.offset };
            self.offset += at as u64;
            self.index += 1;
            return chunk;
        } else {
            self.buf[self.start..at].to_vec()
        };
        self.last_cut = None;
        self.scan.closed = false;
        let chunk = Chunk { index: self.index, bytes, offset: self.offset };
        self.offset += (at - self.start) as u64;
        self.index += 1;
        self.start = at;
        if self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
            if self.buf.capacity() > 4 * (self.target + READ_BLOCK) {
                self.buf.shrink_to(2 * (self.target + READ_BLOCK));
            }
        }
        chunk
    }

    /// Reads ahead until at least `n` bytes not yet given out are buffered (or the input ends),
    /// and returns them.
    pub fn lookahead(&mut self, n: usize) -> io::Result<&[u8]> {
        while !self.eof && self.buf.len() - self.start < n {
            self.fill()?;
        }
        Ok(&self.buf[self.start..])
    }

    /// Reads up to [`READ_BLOCK`] more bytes (several reads when the input gives less at a
    /// time, as a pipe does; the buffer's spare room is not zeroed for each).
    fn fill(&mut self) -> io::Result<()> {
        let before = self.buf.len();
        self.buf.reserve(self.read_block);
        (&mut self.reader).take(self.read_block as u64).read_to_end(&mut self.buf)?;
        if self.buf.len() == before {
            self.eof = true;
        }
        Ok(())
    }
}

/// Where the reader, skipping text from `from`, finds the next game: a `(` followed (after
/// whitespace) by `;`. `Some(None)`: none in `b` and the input is at its end; `None`: more input
/// is needed to tell.
fn game_start(b: &[u8], from: usize, eof: bool) -> Option<Option<usize>> {
    for at in memchr::memchr_iter(b'(', &b[from..]).map(|k| from + k) {
        match b[at + 1..].iter().find(|c| !c.is_ascii_whitespace()) {
            Some(b';') => return Some(Some(at)),
            Some(_) => {}
            None if eof => return Some(None),
            None => return None,
        }
    }
    if eof { Some(None) } else { None }
}

/// How many bytes the scanner inside a game tree classifies at a time.
const BLOCK: usize = 64;

/// Where the bytes that matter inside a game tree are in a block (bit `k` for byte `k`): `[`,
/// `]`, `\\`, and `(` or `)` (told apart at the byte, as they are few).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Masks {
    open: u64,
    close: u64,
    escape: u64,
    paren: u64,
}

/// The masks of a block, 16 bytes at a time (SSE2 is part of every x86_64).
#[cfg(target_arch = "x86_64")]
fn classify(block: &[u8; BLOCK]) -> Masks {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    let mut m = Masks::default();
    // SAFETY: SSE2 is enabled on every x86_64 target; each load reads 16 of the block's 64 bytes.
    unsafe {
        let open = _mm_set1_epi8(b'[' as i8);
        let close = _mm_set1_epi8(b']' as i8);
        let escape = _mm_set1_epi8(b'\\' as i8);
        // `(` | 1 and `)` | 1 are both `)`, and no other byte is.
        let paren = _mm_set1_epi8(b')' as i8);
        let one = _mm_set1_epi8(1);
        for k in 0..BLOCK / 16 {
            let v = _mm_loadu_si128(block.as_ptr().add(16 * k).cast::<__m128i>());
            let bits = |eq: __m128i| u64::from(_mm_movemask_epi8(eq) as u16) << (16 * k);
            m.open |= bits(_mm_cmpeq_epi8(v, open));
            m.close |= bits(_mm_cmpeq_epi8(v, close));
            m.escape |= bits(_mm_cmpeq_epi8(v, escape));
            m.paren |= bits(_mm_cmpeq_epi8(_mm_or_si128(v, one), paren));
        }
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
use classify_words as classify;

/// The masks of a block, 8 bytes at a time in a `u64` (for targets without the x86_64 path).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn classify_words(block: &[u8; BLOCK]) -> Masks {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// The top bit of each byte of `w` equal to `c`.
    fn equal(w: u64, c: u8) -> u64 {
        let x = w ^ (LOW * u64::from(c));
        !(((x & !HIGH) + !HIGH) | x) & HIGH
    }
    /// The top bits of the eight bytes, as eight bits.
    fn gather(tops: u64) -> u64 {
        (tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
    }
    let mut m = Masks::default();
    for (k, w) in block.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(w.try_into().unwrap());
        m.open |= gather(equal(w, b'[')) << (8 * k);
        m.close |= gather(equal(w, b']')) << (8 * k);
        m.escape |= gather(equal(w, b'\\')) << (8 * k);
        m.paren |= gather(equal(w | LOW, b')')) << (8 * k);
    }
    m
}

/// Bit `k` of the result is the parity of bits `0..=k` of `x`.
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Follows a game tree from `i` (`s.depth > 0`, the byte at `i` not escaped) to the `)` that
/// closes it (returns the position after it, with `s.closed` set) or to the end of `b` (with
/// `s.escaped` set when the last byte is a `\` inside a value).
///
/// A block of [`BLOCK`] bytes is classified at once. When every `[` in it opens a value, every
/// `]` closes one and no `\` is inside a value (what most blocks are), the value state before
/// each byte is the parity of the brackets before it, and only the parentheses outside values
/// are looked at one by one; otherwise the block's bytes that matter are followed one by one,
/// as a byte-by-byte scan would.
fn tree(b: &[u8], mut i: usize, s: &mut Scan) -> usize {
    let (mut depth, mut in_value) = (s.depth, s.in_value);
    while i < b.len() {
        let n = (b.len() - i).min(BLOCK);
        let m = match b[i..].first_chunk::<BLOCK>() {
            Some(block) => classify(block),
            None => {
                let mut last = [0; BLOCK];
                last[..n].copy_from_slice(&b[i..]);
                classify(&last)
            }
        };
        let block = &b[i..i + n];
        let brackets = m.open | m.close;
        let parity = prefix_xor(brackets);
        // Inside a value before byte k, if every bracket changes the state.
        let inside = parity ^ brackets ^ 0u64.wrapping_sub(u64::from(in_value));
        if (m.open & inside) | (m.close & !inside) | (m.escape & inside) == 0 {
            let mut parens = m.paren & !inside;
            while parens != 0 {
                let k = parens.trailing_zeros() as usize;
                parens &= parens - 1;
                if block[k] == b'(' {
                    depth += 1;
                } else {
                    depth -= 1;
                    if depth == 0 {
                        (s.depth, s.in_value, s.closed) = (0, false, true);
                        return i + k + 1;
                    }
                }
            }
            in_value ^= parity >> 63 != 0;
            i += n;
            continue;
        }
        let mut bits = brackets | m.escape | m.paren;
        let mut skip = false;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = block[k];
            if in_value {
                match c {
                    b']' => in_value = false,
                    // The escaped byte is skipped (after the block when it is the next one's).
                    b'\\' if k + 1 < n => bits &= !(1 << (k + 1)),
                    b'\\' => skip = true,
                    _ => {}
                }
                continue;
            }
            match c {
                b'[' => in_value = true,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        (s.depth, s.in_value, s.closed) = (0, false, true);
                        return i + k + 1;
                    }
                }
                _ => {}
            }
        }
        i += n;
        if skip {
            // At the next read when the escaped byte is not here yet.
            if i < b.len() {
                i += 1;
            } else {
                s.escaped = true;
            }
        }
    }
    (s.depth, s.in_value) = (depth, in_value);
    i
}

/// The byte-by-byte scan inside a game tree that [`tree`] replaces (kept as its oracle): bytes
/// that matter are found through a table, one state change at a time.
#[cfg(test)]
fn tree_bytewise(b: &[u8], mut i: usize, s: &mut Scan) -> usize {
    let (mut depth, mut in_value) = (s.depth, s.in_value);
    loop {
        while i < b.len() && TREE_BYTES[usize::from(b[i])] == 0 {
            i += 1;
        }
        let Some(&c) = b.get(i) else { break };
        i += 1;
        if in_value {
            match c {
                b']' => in_value = false,
                // The escaped byte is skipped (at the next read when it is not here yet).
                b'\\' if i < b.len() => i += 1,
                b'\\' => s.escaped = true,
                _ => {}
            }
            continue;
        }
        match c {
            b'[' => in_value = true,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    s.closed = true;
                    break;
                }
            }
            _ => {}
        }
    }
    (s.depth, s.in_value) = (depth, in_value);
    i
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        if self.refused {
            return None;
        }
        loop {
            self.scan();
            if let Some(over) = self.over(false) {
                return Some(over);
            }
            if let Some(at) = self.last_cut.filter(|&at| at - self.start >= self.target) {
                return Some(Ok(self.take(at)));
            }
            // The scan went through the buffer: what follows the last cut is one record.
            if let Some(over) = self.over(true) {
                return Some(over);
            }
            if self.eof {
                if self.scanned < self.buf.len() {
                    continue;
                }
                if self.start == self.buf.len() {
                    return None;
                }
                let all = self.buf.len();
                return Some(Ok(self.take(all)));
            }
            if let Err(e) = self.fill() {
                return Some(Err(e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cuts(input: &[u8], cut: Cut) -> Vec<Vec<u8>> {
        Chunks::new(Vec::new(), input, cut).map(|c| c.unwrap().bytes).collect()
    }

    #[test]
    fn small_inputs_are_one_chunk_and_nothing_is_lost() {
        assert_eq!(cuts(b"(;B[aa])\n(;W[bb])\n", Cut::Sgf), vec![b"(;B[aa])\n(;W[bb])\n".to_vec()]);
        assert!(cuts(b"", Cut::Sgf).is_empty());
    }

    #[test]
    fn sgf_is_cut_between_games_only() {
        // Brackets, parentheses and escapes inside values never cut.
        let game = b"(;C[a ) ( \\] (;]PB[x](;B[aa])(;B[bb]))\ntext between\n";
        let mut input = Vec::new();
        while input.len() < 3 * CHUNK_TARGET {
            input.extend_from_slice(game);
        }
        let chunks = cuts(&input, Cut::Sgf);
        assert!(chunks.len() >= 3, "{}", chunks.len());
        assert_eq!(chunks.concat(), input);
        for c in &chunks {
            assert!(c.starts_with(b"(;C[a ) ("), "cut inside a game");
            assert!(c.ends_with(b"text between\n"));
        }
    }

    /// A reader that gives at most `n` bytes a call, so that escapes and brackets fall on the
    /// ends of reads.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn cuts_do_not_depend_on_where_reads_end() {
        // Escaped brackets and backslashes, parentheses in values, variations; shifted so that
        // the end of the first read falls on every byte of a game, escapes included.
        let game = b"(;C[a \\] ( \\\\](;B[aa]C[x\\)](;W[bb])(;W[cc])))\n";
        for shift in 0..game.len() {
            let mut input = vec![b' '; shift];
            while input.len() < READ_BLOCK + 4096 {
                input.extend_from_slice(game);
            }
            let cut = |chunks: Chunks<_>| -> Vec<Vec<u8>> {
                chunks.with_target(64 << 10).map(|c| c.unwrap().bytes).collect()
            };
            let at_once = cut(Chunks::new(input.clone(), Trickle(&[], 1), Cut::Sgf));
            let read = cut(Chunks::new(Vec::new(), Trickle(&input, 4093), Cut::Sgf));
            assert_eq!(read, at_once, "shift {shift}");
            assert!(read.len() > 4 && read[1..].iter().all(|c| c.starts_with(b"(;C[a")));
            assert_eq!(read.concat(), input);
        }
    }

    /// Bits of the bytes of `block` that `pick` takes, one byte at a time.
    fn mask(block: &[u8; BLOCK], pick: impl Fn(u8) -> bool) -> u64 {
        block.iter().enumerate().filter(|&(_, &c)| pick(c)).fold(0, |m, (k, _)| m | 1 << k)
    }

    /// SGF-like text: the bytes the scanner follows (alone, escaped, in values), whitespace,
    /// letters, multibyte text, and runs of plain moves or of text without any of them (so that
    /// whole blocks go either way).
    fn sgf_text(pieces: usize) -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            8 => prop::sample::select(vec![
                "(", ")", "[", "]", "\\", ";", "(;", " ", "\n", "\r\n", "B", "x", "é", "囲碁",
                "\\]", "\\\\", "\\[", "\\)", "C[", "C[a ( b", "C[x)]", ";B[pd]", ";W[dp]",
                "(;B[aa]", ")(", "))", "\n(;GM[1]", "text ",
            ])
            .prop_map(|p| p.as_bytes().to_vec()),
            1 => (1usize..40).prop_map(|n| ";B[pd];W[dp]".repeat(n).into_bytes()),
            1 => prop::collection::vec(prop::sample::select(b"ab; \n\xc3\xa9".to_vec()), 0..200),
        ];
        prop::collection::vec(piece, 0..pieces).prop_map(|p| p.concat())
    }

    /// A block of bytes, the ones that matter often.
    fn block() -> impl Strategy<Value = [u8; BLOCK]> {
        let byte = prop_oneof![
            3 => prop::sample::select(b"[]\\()".to_vec()),
            1 => prop::sample::select(b"'(')*+,/;XYZ[\\]^_{|}".to_vec()),
            2 => any::<u8>(),
        ];
        prop::collection::vec(byte, BLOCK).prop_map(|v| v.try_into().unwrap())
    }

    /// Each byte that changes the scan, escapes and the game's close on either side of a block's
    /// end and of the buffer's: the block scan stops where the byte-by-byte scan does.
    #[test]
    fn block_and_buffer_ends_are_followed_as_byte_by_byte() {
        let snippets: [&[u8]; 8] = [b"\\]x]", b"\\\\]", b"\\[(]", b"](;B[aa])", b"]))", b"](", b"]C[)\\", b"][]["];
        for snippet in snippets {
            for k in 0..2 * BLOCK + 8 {
                let mut text = b"(;C[".to_vec();
                text.resize(text.len() + k, b'x');
                text.extend_from_slice(snippet);
                text.extend_from_slice(&b"x];B[aa](;W[bb]))\n".repeat(9));
                for len in (k..text.len()).step_by(3).chain([text.len()]) {
                    let b = &text[..len];
                    for (at, in_value) in [(1, false), (4, true), (k, true), (k + 2, true), (k + 3, false)] {
                        let start = Scan { depth: 1, in_value, ..Scan::default() };
                        let (mut want, mut got) = (start, start);
                        let end = tree_bytewise(b, at.min(len), &mut want);
                        assert_eq!(tree(b, at.min(len), &mut got), end, "{k} {len} {at}");
                        assert_eq!(got, want, "{k} {len} {at}");
                    }
                }
            }
        }
    }

    /// A reader that gives the sizes of `sizes` in turn.
    struct Reads<'a>(&'a [u8], Vec<usize>, usize);

    impl Read for Reads<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1[self.2 % self.1.len()].min(buf.len()).min(self.0.len());
            self.2 += 1;
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn blocks_are_classified_as_byte_by_byte(b in block()) {
            let want = Masks {
                open: mask(&b, |c| c == b'['),
                close: mask(&b, |c| c == b']'),
                escape: mask(&b, |c| c == b'\\'),
                paren: mask(&b, |c| c == b'(' || c == b')'),
            };
            prop_assert_eq!(classify(&b), want);
            prop_assert_eq!(classify_words(&b), want);
        }

        /// From any place in a game tree, in a value or not, the block scan stops where the
        /// byte-by-byte scan does, in the same state.
        #[test]
        fn game_trees_are_followed_as_byte_by_byte(
            text in sgf_text(300), at in 0.0..1.0f64, depth in 1u32..4, in_value: bool,
        ) {
            let at = (text.len() as f64 * at) as usize;
            let start = Scan { depth, in_value, ..Scan::default() };
            let (mut want, mut got) = (start, start);
            let end = tree_bytewise(&text, at, &mut want);
            prop_assert_eq!(tree(&text, at, &mut got), end);
            prop_assert_eq!(got, want);
        }

        /// The cuts of the block scan are those of the byte-by-byte scan, and do not depend on
        /// how much is read at a time nor on the reads' sizes.
        #[test]
        fn cuts_are_those_of_the_byte_by_byte_scan(
            text in sgf_text(400),
            head in 0.0..1.0f64,
            read_block in 1usize..400,
            sizes in prop::collection::vec(1usize..100, 1..5),
            target in 1usize..3000,
        ) {
            let head = (text.len() as f64 * head) as usize;
            let chunks = |bytewise: bool, head: usize, read_block: usize| -> Vec<(usize, u64, Vec<u8>)> {
                let mut c = Chunks::new(text[..head].to_vec(), Reads(&text[head..], sizes.clone(), 0), Cut::Sgf)
                    .with_target(target)
                    .with_read_block(read_block);
                c.bytewise = bytewise;
                c.map(|c| c.map(|c| (c.index, c.offset, c.bytes)).unwrap()).collect()
            };
            let want = chunks(true, text.len(), READ_BLOCK);
            prop_assert_eq!(want.iter().map(|c| &c.2[..]).collect::<Vec<_>>().concat(), text.clone());
            let mut offset = 0;
            for (k, c) in want.iter().enumerate() {
                prop_assert_eq!((c.0, c.1), (k, offset));
                offset += c.2.len() as u64;
            }
            prop_assert_eq!(&chunks(true, head, read_block), &want);
            let got = chunks(false, head, read_block);
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(chunks(false, text.len(), READ_BLOCK), want);
        }
    }

    /// The chunks of `input` cut at `target` with records of at most `max` bytes, and the error
    /// that ends them, if any.
    fn limited(
        input: &[u8],
        cut: Cut,
        target: usize,
        max: usize,
        block: usize,
    ) -> (Vec<Vec<u8>>, Option<RecordTooLarge>) {
        let mut chunks =
            Chunks::new(Vec::new(), input, cut).with_target(target).with_max_record(max).with_read_block(block);
        let mut out = Vec::new();
        for c in chunks.by_ref() {
            match c {
                Ok(c) => out.push(c.bytes),
                Err(e) => {
                    assert!(chunks.next().is_none(), "nothing after the error");
                    return (out, Some(RecordTooLarge::of(&e).expect("a record too large").clone()));
                }
            }
        }
        (out, None)
    }

    #[test]
    fn a_record_past_max_record_is_refused_exactly_and_where_it_starts() {
        // NDJSON: a record is a line with its line end (10, 501, 21 bytes).
        let lines = [vec![b'a'; 9], vec![b'b'; 500], vec![b'c'; 20]];
        let input: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
        for block in [1, 7, 64, 1 << 20] {
            for target in [1, 100, 1 << 20] {
                let (before, over) = limited(&input, Cut::Lines, target, 500, block);
                assert_eq!(over, Some(RecordTooLarge { offset: 10, limit: 500 }), "block {block} target {target}");
                assert_eq!(before.concat(), input[..10], "the records before it are given first");
                let (chunks, over) = limited(&input, Cut::Lines, target, 501, block);
                assert_eq!((chunks.concat(), over), (input.clone(), None), "block {block} target {target}");
            }
        }
        // SGF: a record runs from its `(` to the next game's (the text between included).
        let games = [&b"(;B[aa])\n"[..], b"(;C[0123456789])\n", b"(;W[bb])"];
        let input = games.concat();
        for block in [1, 5, 1 << 20] {
            let (before, over) = limited(&input, Cut::Sgf, 1, 16, block);
            assert_eq!(over, Some(RecordTooLarge { offset: 9, limit: 16 }), "block {block}");
            assert_eq!(before, [games[0].to_vec()], "block {block}");
            let (chunks, over) = limited(&input, Cut::Sgf, 1, 17, block);
            assert_eq!((chunks, over), (games.iter().map(|g| g.to_vec()).collect(), None), "block {block}");
            // The last record, ended by the input's end.
            let (_, over) = limited(&input, Cut::Sgf, 1, 7, block);
            assert_eq!(over.map(|o| o.offset), Some(0));
        }
        assert_eq!(record_over(&input, Cut::Sgf, 16), Some(RecordTooLarge { offset: 9, limit: 16 }));
        assert_eq!(record_over(&input, Cut::Sgf, 17), None);
    }

    /// Chunks larger than a few targets move out of the buffer instead of being copied: the
    /// chunks still give every byte once, in order, at their offsets, cut where records end.
    #[test]
    fn large_records_are_given_whole_at_their_offsets() {
        let sizes = [100usize, 3 << 20, 10, 2 << 20, 700 << 10, 5];
        for cut in [Cut::Lines, Cut::Sgf] {
            let records: Vec<Vec<u8>> = sizes
                .iter()
                .enumerate()
                .map(|(k, &n)| match cut {
                    Cut::Lines => [vec![b'a' + k as u8; n - 1], vec![b'\n']].concat(),
                    Cut::Sgf => [b"(;C[".to_vec(), vec![b'a' + k as u8; n], b"])".to_vec()].concat(),
                })
                .collect();
            let input = records.concat();
            for block in [1000, READ_BLOCK, 3 << 20] {
                let chunks: Vec<Chunk> =
                    Chunks::new(Vec::new(), &input[..], cut).with_read_block(block).map(Result::unwrap).collect();
                let mut at = 0u64;
                for c in &chunks {
                    assert_eq!(c.offset, at, "{cut:?} block {block}");
                    at += c.bytes.len() as u64;
                }
                assert!(chunks.iter().flat_map(|c| c.bytes.iter()).eq(input.iter()), "{cut:?} block {block}");
                // Each chunk ends where a record does; the large ones took the path that moves them.
                let ends: Vec<usize> = records
                    .iter()
                    .scan(0, |at, r| {
                        *at += r.len();
                        Some(*at)
                    })
                    .collect();
                assert!(chunks.iter().all(|c| ends.contains(&(c.offset as usize + c.bytes.len()))));
                assert!(chunks.iter().any(|c| c.bytes.len() > 2 * (CHUNK_TARGET + READ_BLOCK)));
            }
        }
    }

    /// An endless line is refused once `max_record` bytes are held, not read to its end.
    #[test]
    fn an_endless_record_is_refused_with_bounded_reading() {
        struct Counting<R>(R, std::rc::Rc<std::cell::Cell<u64>>);
        impl<R: Read> Read for Counting<R> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.read(buf)?;
                self.1.set(self.1.get() + n as u64);
                Ok(n)
            }
        }
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let endless = Counting(io::repeat(b'x').take(1 << 40), std::rc::Rc::clone(&read));
        let max = 4 << 20;
        for cut in [Cut::Lines, Cut::Sgf] {
            read.set(0);
            let endless = Counting(
                io::repeat(if cut == Cut::Sgf { b'(' } else { b'x' }).take(1 << 40),
                std::rc::Rc::clone(&read),
            );
            let mut chunks = Chunks::new(b"(;C[".to_vec(), endless, cut).with_max_record(max);
            let e = chunks.next().unwrap().unwrap_err();
            assert_eq!(RecordTooLarge::of(&e), Some(&RecordTooLarge { offset: 0, limit: max }));
            assert!(e.to_string().contains("Limits::max_record"), "{e}");
            assert!(read.get() <= (max + READ_BLOCK) as u64, "{cut:?}: {} bytes read", read.get());
            assert!(chunks.next().is_none());
        }
        drop(endless);
    }

    #[test]
    fn lines_are_cut_at_line_ends() {
        let line = b"{\"nodes\":[{}]}\n";
        let input: Vec<u8> = line.iter().copied().cycle().take(line.len() * 100_000).collect();
        let chunks = cuts(&input, Cut::Lines);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.ends_with(b"\n") && c.starts_with(b"{")));
        assert_eq!(chunks.concat(), input);
    }

    #[test]
    fn a_game_cut_off_at_the_end_is_the_last_chunk() {
        let mut input = b"(;B[aa])\n".repeat(CHUNK_TARGET / 9 + 10);
        input.extend_from_slice(b"(;B[cc];W[dd");
        let chunks = cuts(&input, Cut::Sgf);
        assert_eq!(chunks.concat(), input);
        assert!(chunks.last().unwrap().ends_with(b"W[dd"));
    }
}
