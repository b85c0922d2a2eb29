//! Diagnostics as values: what a reader, writer or check found, with a stable code and a position.
//!
//! The library never prints. Every repair, skipped byte, lossy write or rule violation becomes a
//! [`Diagnostic`] returned beside the result; the binary decides how to show it.

use std::fmt;

/// How serious a diagnostic is.
///
/// ```
/// use kifu::Severity;
/// assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
/// assert_eq!(Severity::Warning.to_string(), "warning");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Something the user may want to know; nothing is wrong with the data.
    Info,
    /// The input bends a rule or the output loses something; the result is still usable.
    Warning,
    /// The input breaks the format; what could be recovered was kept.
    Error,
}

impl Severity {
    /// The lower-case name used in messages and JSON: `error`, `warning`, `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in the input text: 1-based line and column (in characters), and the byte offset into
/// the decoded text.
///
/// ```
/// let read = kifu::read(&b"(;GM[1]\n;B[pd]C[a]b])"[..]).unwrap();
/// let d = read.diagnostics.iter().find(|d| d.code == "sgf.unescaped-bracket").unwrap();
/// let at = d.position.unwrap();
/// assert_eq!((at.line, at.column), (2, 10));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in Unicode characters.
    pub column: u32,
    /// Byte offset into the decoded (UTF-8) text.
    pub offset: usize,
}

impl Position {
    /// The position at `line`:`column` (both from 1), `offset` bytes into the decoded text.
    ///
    /// ```
    /// let at = kifu::Position::new(2, 10, 17);
    /// assert_eq!(at.to_string(), "2:10");
    /// ```
    pub fn new(line: u32, column: u32, offset: usize) -> Position {
        Position { line, column, offset }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One finding: severity, stable code (e.g. `sgf.unescaped-bracket`), message and position.
///
/// ```
/// use kifu::{Diagnostic, Severity};
/// let d = Diagnostic::warning("gib.lossy-comment", "node 3: the comment is not written");
/// assert_eq!(d.severity, Severity::Warning);
/// assert_eq!(d.to_string(), "warning[gib.lossy-comment]: node 3: the comment is not written");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// A stable, documented identifier such as `sgf.missing-close`.
    pub code: &'static str,
    /// A human-readable sentence.
    pub message: String,
    /// Where in the input, when the finding has a place.
    pub position: Option<Position>,
}

impl Diagnostic {
    /// A diagnostic without a position.
    pub fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic { severity, code, message: message.into(), position: None }
    }

    /// An error without a position.
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    /// A warning without a position.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    /// An informational note without a position.
    pub fn info(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, code, message)
    }

    /// The same diagnostic placed at `position`.
    pub fn at(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }
}

impl fmt::Display for Diagnostic {
    /// `line:col: severity[code]: message` (or without the position when there is none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.position {
            write!(f, "{p}: ")?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

/// One diagnostic as kifu prints it, in every command: `FILE:LINE:COL: severity[code]: message`,
/// or `FILE: severity[code]: message` when it has no place. `paint` wraps the severity word
/// (for colour on a terminal; pass [`plain`] otherwise).
pub fn render(file: &str, d: &Diagnostic, paint: impl Fn(Severity, &str) -> String) -> String {
    let severity = paint(d.severity, d.severity.as_str());
    match d.position {
        Some(p) => format!("{file}:{p}: {severity}[{}]: {}", d.code, d.message),
        None => format!("{file}: {severity}[{}]: {}", d.code, d.message),
    }
}

/// The severity word as it is, for [`render`] without colour.
pub fn plain(_: Severity, word: &str) -> String {
    word.to_string()
}

/// The board coordinate players read for the point at column `x`, row `y` (0-based from the
/// top-left) on a board `height` rows high: columns `A`–`Z` without `I`, rows counted from the
/// bottom (`Q16`). Boards wider than 25 columns have no letters for the rest: `(x+1)-row` then.
pub fn board_coordinate(x: u8, y: u8, height: u8) -> String {
    let row = u32::from(height).saturating_sub(u32::from(y));
    let letters: Vec<char> = ('A'..='Z').filter(|&c| c != 'I').collect();
    match letters.get(usize::from(x)) {
        Some(c) => format!("{c}{row}"),
        None => format!("{}-{row}", u32::from(x) + 1),
    }
}

/// Maps byte offsets of a text to line and column, built once per input and only when needed.
///
/// ```
/// let lines = kifu::diag::LineIndex::new("(;GM[1]\r\n;B[pd])");
/// let at = lines.position(10);
/// assert_eq!((at.line, at.column), (2, 2));
/// ```
#[derive(Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    /// Characters before each [`COLUMN_BLOCK`]-byte block of the text, built on the first
    /// position on a long line, so that a column costs at most one block's scan (a one-line
    /// game of 1,000,000 moves would otherwise make each position a scan of its line).
    blocks: std::sync::OnceLock<Vec<usize>>,
}

/// The block size of [`LineIndex`]'s character counts.
const COLUMN_BLOCK: usize = 4096;

/// Characters in `bytes` (valid UTF-8 or a slice of it cut anywhere): the bytes that are not
/// continuation bytes.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl<'a> LineIndex<'a> {
    /// Index the line starts of `text`. A line ends at LF, at CRLF, or at a lone CR.
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut i = 0;
        while let Some(k) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            let at = i + k;
            let next = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') { at + 2 } else { at + 1 };
            line_starts.push(next);
            i = next;
        }
        LineIndex { text, line_starts, blocks: std::sync::OnceLock::new() }
    }

    /// Characters of the text before byte `at`.
    fn chars_before(&self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        let blocks = self.blocks.get_or_init(|| {
            let mut acc = 0;
            bytes
                .chunks(COLUMN_BLOCK)
                .map(|c| {
                    let before = acc;
                    acc += chars_in(c);
                    before
                })
                .collect()
        });
        let k = at / COLUMN_BLOCK;
        blocks.get(k).copied().unwrap_or(0) + chars_in(&bytes[k * COLUMN_BLOCK..at])
    }

    /// The position of byte `offset` (clamped to the text and to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = if offset - start <= 2 * COLUMN_BLOCK {
            self.text[start..offset].chars().count() + 1
        } else {
            self.chars_before(offset) - self.chars_before(start) + 1
        };
        Position { line: line as u32, column: column as u32, offset }
    }
}

/// The positions of sorted byte offsets of `text`, found in one pass (same rules as
/// [`LineIndex`]: a line ends at LF, CRLF or a lone CR; columns count characters).
pub(crate) fn positions_of(text: &str, sorted: &[usize]) -> Vec<Position> {
    PositionCursor::default().positions(text, sorted)
}

/// [`positions_of`] resumed from call to call: offsets of one text asked in increasing order
/// over several calls (the games of a collection, one after the other) are found in one pass
/// over the text, not one pass from its start per call. An offset before the cursor, or
/// another text, starts again from the start.
#[derive(Default)]
pub(crate) struct PositionCursor {
    text: Option<(usize, usize)>,
    line: u32,
    line_start: usize,
    /// Where the search for line ends resumes: none is left unconsumed before it.
    scanned: usize,
    /// Characters from `line_start` to `counted_to` (so a long line is counted once).
    counted_to: usize,
    chars: usize,
}

impl PositionCursor {
    /// The positions of the sorted byte offsets `sorted` of `text`.
    pub(crate) fn positions(&mut self, text: &str, sorted: &[usize]) -> Vec<Position> {
        let id = Some((text.as_ptr() as usize, text.len()));
        if self.text != id || sorted.first().is_some_and(|&first| first < self.line_start) {
            *self = PositionCursor { text: id, line: 1, ..PositionCursor::default() };
        }
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(sorted.len());
        for &want in sorted {
            let mut offset = want.min(text.len());
            while !text.is_char_boundary(offset) {
                offset -= 1;
            }
            // Advance over every line end that lies before `offset`.
            let mut from = self.scanned.clamp(self.line_start, offset);
            // Line feeds alone (most text): counted a block at a time, the last one found from
            // the end, instead of stepping from line to line.
            let span = &bytes[from..offset];
            if span.len() >= FEW_BYTES && memchr::memchr(b'\r', span).is_none() {
                if let Some(last) = memchr::memrchr(b'\n', span) {
                    self.line += memchr::memchr_iter(b'\n', span).count() as u32;
                    self.line_start = from + last + 1;
                    (self.counted_to, self.chars) = (self.line_start, 0);
                }
                from = offset;
            }
            while let Some(k) = memchr::memchr2(b'\n', b'\r', &bytes[from..offset]) {
                let at = from + k;
                let next = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') { at + 2 } else { at + 1 };
                if next > offset {
                    // A CR right before the offset whose LF is the offset itself: the line ends
                    // after the pair, so the offset (the LF) still belongs to this line.
                    from = at;
                    break;
                }
                self.line += 1;
                self.line_start = next;
                (self.counted_to, self.chars) = (next, 0);
                from = next;
            }
            self.scanned = if from < offset && bytes[from] == b'\r' { from } else { offset };
            if self.counted_to > offset || self.counted_to < self.line_start {
                (self.counted_to, self.chars) = (self.line_start, 0);
            }
            self.chars += chars_in(&bytes[self.counted_to..offset]);
            self.counted_to = offset;
            out.push(Position { line: self.line, column: self.chars as u32 + 1, offset });
        }
        out
    }
}

/// Below this many bytes, [`PositionCursor`] steps from line end to line end.
const FEW_BYTES: usize = 64;

/// Diagnostics collected while reading one input, placed by byte offset and resolved to
/// line:column at the end (so the common, clean case pays nothing for positions).
#[derive(Debug, Default)]
pub struct Sink {
    pending: Vec<(Option<usize>, Diagnostic)>,
    counts: std::collections::HashMap<&'static str, usize>,
}

/// How many diagnostics of one code a single input reports before the rest are summarised.
pub(crate) const MAX_PER_CODE: usize = 100;

/// Keeps the first [`MAX_PER_CODE`] diagnostics of each code of `diags` (already placed), then
/// one per code past it saying how many more there were, as a reader's [`Sink`] does.
pub(crate) fn cap_per_code(diags: &mut Vec<Diagnostic>) {
    if diags.len() <= MAX_PER_CODE {
        return;
    }
    let mut counts: std::collections::HashMap<&'static str, (usize, Severity)> = std::collections::HashMap::new();
    let mut order: Vec<&'static str> = Vec::new();
    diags.retain(|d| {
        let n = counts.entry(d.code).or_insert((0, d.severity));
        n.0 += 1;
        if n.0 == MAX_PER_CODE + 1 {
            order.push(d.code);
        }
        n.0 <= MAX_PER_CODE
    });
    for code in order {
        let (n, severity) = counts[code];
        diags.push(Diagnostic::new(
            severity,
            code,
            format!("{} more like this not shown ({n} in all)", n - MAX_PER_CODE),
        ));
    }
}

impl Sink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Record `diag` at byte `offset` of the decoded text.
    pub fn push_at(&mut self, offset: usize, diag: Diagnostic) {
        if self.admit(&diag) {
            self.pending.push((Some(offset), diag));
        }
    }

    /// Record `diag` with no position.
    pub fn push(&mut self, diag: Diagnostic) {
        if self.admit(&diag) {
            self.pending.push((None, diag));
        }
    }

    fn admit(&mut self, diag: &Diagnostic) -> bool {
        let n = self.counts.entry(diag.code).or_insert(0);
        *n += 1;
        *n <= MAX_PER_CODE
    }

    /// Moves the diagnostics of `other` into this sink, their offsets shifted by `delta` (for a
    /// text decoded in parts and joined).
    pub fn append_shifted(&mut self, other: Sink, delta: usize) {
        for (off, d) in other.pending {
            match off {
                Some(o) => self.push_at(o + delta, d),
                None => self.push(d),
            }
        }
    }

    /// Whether nothing has been recorded.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub(crate) fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Whether an error-severity diagnostic has been recorded.
    pub fn has_errors(&self) -> bool {
        self.pending.iter().any(|(_, d)| d.severity == Severity::Error)
    }

    /// Resolve offsets against `text` and return the diagnostics in the order recorded.
    pub fn finish(self, text: &str) -> Vec<Diagnostic> {
        if self.pending.is_empty() {
            return Vec::new();
        }
        // One pass over the text for all offsets: no per-line table for a large input.
        let mut wanted: Vec<usize> = self.pending.iter().filter_map(|(o, _)| *o).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let found = positions_of(text, &wanted);
        let mut out: Vec<Diagnostic> = self
            .pending
            .into_iter()
            .map(|(off, d)| match off {
                Some(o) => d.at(found[wanted.binary_search(&o).unwrap_or(0)]),
                None => d,
            })
            .collect();
        let mut over: Vec<_> = self.counts.into_iter().filter(|&(_, n)| n > MAX_PER_CODE).collect();
        over.sort();
        for (code, n) in over {
            let severity = out.iter().find(|d| d.code == code).map_or(Severity::Warning, |d| d.severity);
            out.push(Diagnostic::new(
                severity,
                code,
                format!("{} more like this not shown ({n} in all)", n - MAX_PER_CODE),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\r\ncd\nλx\ry";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(0), Position { line: 1, column: 1, offset: 0 });
        assert_eq!(idx.position(5), Position { line: 2, column: 2, offset: 5 });
        // 'x' comes after the two-byte 'λ': byte 9, column 2
        assert_eq!(idx.position(9), Position { line: 3, column: 2, offset: 9 });
        assert_eq!(idx.position(11).line, 4);
        assert_eq!(idx.position(999).line, 4);
    }

    #[test]
    fn one_pass_positions_agree_with_the_line_index() {
        let texts = ["ab\r\ncd\nλx\ry", "\r\n\r\n", "a\rb\r\n\nc", "", "λλ\n\n\rz"];
        for text in texts {
            let idx = LineIndex::new(text);
            let all: Vec<usize> = (0..=text.len() + 1).collect();
            let got = positions_of(text, &all);
            for (o, p) in all.iter().zip(got) {
                assert_eq!(p, idx.position(*o), "{text:?} at {o}");
            }
        }
    }

    #[test]
    fn a_cursor_resumed_over_calls_agrees_with_the_line_index() {
        let texts = ["ab\r\ncd\nλx\ry", "\r\n\r\n", "a\rb\r\n\nc", "λλ\n\n\rz"];
        for text in texts {
            let idx = LineIndex::new(text);
            let mut cursor = PositionCursor::default();
            // In order one offset per call, then back to the start (a fresh pass).
            for o in (0..=text.len() + 1).chain([0, 3]) {
                assert_eq!(cursor.positions(text, &[o]), [idx.position(o)], "{text:?} at {o}");
            }
        }
        // A long line asked in many calls: counted as it goes, the same columns.
        let long: String = "λ;B[aa]é".repeat(2000) + "\r\nx" + &"碁".repeat(3000);
        let idx = LineIndex::new(&long);
        let mut cursor = PositionCursor::default();
        for o in (0..long.len() + 2).step_by(331) {
            assert_eq!(cursor.positions(&long, &[o, o + 1]), [idx.position(o), idx.position(o + 1)], "at {o}");
        }
        // Another text starts again.
        let mut cursor = PositionCursor::default();
        assert_eq!(cursor.positions("a\nb\nc", &[4])[0].line, 3);
        assert_eq!(cursor.positions("x\ny", &[2])[0].line, 2);
    }

    #[test]
    fn a_cursor_over_many_lines_agrees_with_the_line_index() {
        // Long stretches of line feeds alone (counted a block at a time), with a CR here and there
        // and offsets asked far apart, near, at and after line ends.
        let game = ";B[pd];W[dd]C[λé]\n".repeat(40);
        let texts = [game.repeat(5), format!("{game}\r\n{game}\r{game}"), format!("\n\n{game}\r"), "x\n".repeat(600)];
        for text in &texts {
            let idx = LineIndex::new(text);
            for step in [1, 7, 97, 255, 256, 257, 1000, 4099] {
                let mut cursor = PositionCursor::default();
                let asks: Vec<usize> = (0..=text.len() + 1).step_by(step).collect();
                for pair in asks.chunks(2) {
                    let want: Vec<Position> = pair.iter().map(|&o| idx.position(o)).collect();
                    assert_eq!(cursor.positions(text, pair), want, "step {step} at {pair:?}");
                }
            }
        }
    }

    #[test]
    fn columns_on_long_lines_use_block_counts() {
        let text: String = "λ;B[aa]é".repeat(3000) + "\nx" + &"碁".repeat(5000);
        let idx = LineIndex::new(&text);
        for o in (0..text.len()).step_by(997).filter(|&o| text.is_char_boundary(o)) {
            let start = text[..o].rfind('\n').map_or(0, |i| i + 1);
            let want = text[start..o].chars().count() as u32 + 1;
            assert_eq!(idx.position(o).column, want, "at {o}");
        }
    }

    #[test]
    fn one_shape_with_and_without_a_place() {
        let d = Diagnostic::error("sgf.x", "bad").at(Position { line: 2, column: 5, offset: 9 });
        assert_eq!(render("a.sgf", &d, plain), "a.sgf:2:5: error[sgf.x]: bad");
        let d = Diagnostic::info("batch.y", "note");
        assert_eq!(render("a.sgf", &d, plain), "a.sgf: info[batch.y]: note");
        let red = |_: Severity, w: &str| format!("<{w}>");
        assert_eq!(render("a", &d, red), "a: <info>[batch.y]: note");
    }

    #[test]
    fn board_coordinates_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(board_coordinate(15, 3, 19), "Q16"); // SGF pd
        assert_eq!(board_coordinate(8, 0, 19), "J19"); // SGF ia: no I column
        assert_eq!(board_coordinate(0, 18, 19), "A1");
        assert_eq!(board_coordinate(24, 0, 25), "Z25");
        assert_eq!(board_coordinate(30, 0, 52), "31-52");
    }

    #[test]
    fn display_has_position_severity_and_code() {
        let d = Diagnostic::warning("sgf.test", "something").at(Position { line: 3, column: 7, offset: 0 });
        assert_eq!(d.to_string(), "3:7: warning[sgf.test]: something");
    }
}
