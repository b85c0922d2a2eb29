//! Placing a piece's diagnostics in the whole input: line, column and offset shifted by what came
//! before, NDJSON's `line N:` renumbered, and at most [`MAX_PER_CODE`] of a code kept overall.

use super::ReadPiece;
use crate::diag::{Diagnostic, MAX_PER_CODE, Position, Severity};
use crate::formats::{ReadError, ReadOutput};
use std::collections::HashMap;

/// The extent of a piece's decoded text: its length, line ends, and where its last line ends.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TextSpan {
    len: usize,
    /// Line ends (LF, CRLF or a lone CR, as [`crate::diag::LineIndex`] counts them).
    breaks: u32,
    /// LF characters (NDJSON numbers its lines by them).
    lfs: u32,
    /// Characters after the last line end.
    tail: u32,
}

impl TextSpan {
    /// The span of a decoded text: its end placed as every position is
    /// ([`crate::diag::positions_of`]).
    pub(super) fn of_text(text: &str) -> TextSpan {
        let b = text.as_bytes();
        let lfs = memchr::memchr_iter(b'\n', b).count() as u32;
        if memchr::memchr(b'\r', b).is_none() {
            // LF line ends only (most text): the line ends are the LFs.
            let last_line = memchr::memrchr(b'\n', b).map_or(b, |i| &b[i + 1..]);
            let tail = last_line.iter().filter(|&&c| c & 0xC0 != 0x80).count() as u32;
            return TextSpan { len: text.len(), breaks: lfs, lfs, tail };
        }
        let end = crate::diag::positions_of(text, &[text.len()])[0];
        TextSpan { len: text.len(), breaks: end.line - 1, lfs, tail: end.column - 1 }
    }

    /// The span of raw bytes (a piece that gave no text, such as JSON's): decoded as UTF-8 with
    /// replacements (valid UTF-8, the usual case, is checked by the fast validator only).
    pub(super) fn of_bytes(bytes: &[u8]) -> TextSpan {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(text) => TextSpan::of_text(text),
            Err(_) => TextSpan::of_text(&String::from_utf8_lossy(bytes)),
        }
    }
}

/// Where the next piece starts, and the diagnostics counted so far.
#[derive(Debug, Default)]
pub(super) struct Placer {
    ndjson: bool,
    offset: usize,
    line: u32,
    column: u32,
    lfs: u32,
    /// Per code: how many were seen, and the severity of the first.
    counts: HashMap<&'static str, (usize, Severity)>,
}

impl Placer {
    pub(super) fn new(ndjson: bool) -> Placer {
        Placer { ndjson, ..Placer::default() }
    }

    /// The piece's result with its diagnostics placed (and capped); moves past the piece.
    pub(super) fn place(&mut self, piece: ReadPiece) -> Result<ReadOutput, ReadError> {
        let out = match piece.read {
            Ok(mut r) => {
                r.diagnostics = self.diagnostics(r.diagnostics);
                Ok(r)
            }
            Err(mut e) => {
                e.diagnostics = self.diagnostics(e.diagnostics);
                Err(e)
            }
        };
        let s = piece.span;
        self.offset += s.len;
        self.lfs += s.lfs;
        if s.breaks > 0 {
            self.line += s.breaks;
            self.column = s.tail;
        } else {
            self.column += s.tail;
        }
        out
    }

    fn diagnostics(&mut self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut out = Vec::with_capacity(diags.len());
        for mut d in diags {
            // A piece's own summary of what it held back: counted, not kept.
            let held = held_back(&d.message);
            let entry = self.counts.entry(d.code).or_insert((0, d.severity));
            if let Some(n) = held {
                entry.0 += n;
                continue;
            }
            entry.0 += 1;
            if entry.0 > MAX_PER_CODE {
                continue;
            }
            if let Some(p) = d.position {
                let column = if p.line == 1 { p.column + self.column } else { p.column };
                d.position = Some(Position { line: p.line + self.line, column, offset: p.offset + self.offset });
            }
            if self.ndjson {
                d.message = renumber(&d.message, self.lfs);
            }
            if let Some(m) = shift_opened_at(&d.message, self.line, self.column) {
                d.message = m;
            }
            out.push(d);
        }
        out
    }

    /// The counts of diagnostics held back past [`MAX_PER_CODE`] of a code, in code order,
    /// worded as the whole input's reader ([`crate::diag::Sink::finish`]) and repairs (`fix.*`
    /// codes) word them.
    pub(super) fn finish(self) -> Vec<Diagnostic> {
        let mut over: Vec<_> = self.counts.into_iter().filter(|&(_, (n, _))| n > MAX_PER_CODE).collect();
        over.sort_by_key(|&(code, _)| code);
        over.into_iter()
            .map(|(code, (n, severity))| {
                let what = if code.starts_with("fix.") { "repairs " } else { "" };
                Diagnostic::new(
                    severity,
                    code,
                    format!("{} more {what}like this not shown ({n} in all)", n - MAX_PER_CODE),
                )
            })
            .collect()
    }
}

/// The number of diagnostics a summary held back: the reader's `K more like this not shown (N in
/// all)` or the repairs' `K more repairs like this not shown (N in all)`.
fn held_back(message: &str) -> Option<usize> {
    // The end first: a cheap test that most messages fail.
    let rest = message.strip_suffix(" in all)")?;
    let (k, n) = rest
        .split_once(" more like this not shown (")
        .or_else(|| rest.split_once(" more repairs like this not shown ("))?;
    n.parse::<usize>().ok()?;
    k.parse().ok()
}

/// `line N: …` with N moved on by `lines`.
fn renumber(message: &str, lines: u32) -> String {
    let renumbered = message.strip_prefix("line ").and_then(|rest| {
        let (n, tail) = rest.split_once(": ")?;
        let n: u32 = n.parse().ok()?;
        Some(format!("line {}: {tail}", n + lines))
    });
    renumbered.unwrap_or_else(|| message.to_string())
}

/// A message naming a place of the input (`… opened at 72:1 …`, SGF's missing close) with that
/// place moved like a position.
fn shift_opened_at(message: &str, lines: u32, column: u32) -> Option<String> {
    const AT: &str = "opened at ";
    let i = message.find(AT)? + AT.len();
    let rest = &message[i..];
    let end = rest.find(|c: char| !c.is_ascii_digit() && c != ':').unwrap_or(rest.len());
    let (l, c) = rest[..end].split_once(':')?;
    let (l, c): (u32, u32) = (l.parse().ok()?, c.parse().ok()?);
    let c = if l == 1 { c + column } else { c };
    Some(format!("{}{}:{}{}", &message[..i], l + lines, c, &rest[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_count_lines_like_the_line_index() {
        let s = TextSpan::of_text("ab\r\ncd\nλx\ry");
        assert_eq!((s.len, s.breaks, s.lfs, s.tail), (12, 3, 2, 1));
        let s = TextSpan::of_text("ab\ncd\nλx");
        assert_eq!((s.len, s.breaks, s.lfs, s.tail), (9, 2, 2, 2));
        let s = TextSpan::of_text("λx");
        assert_eq!((s.len, s.breaks, s.lfs, s.tail), (3, 0, 0, 2));
        assert_eq!(renumber("line 3: malformed", 10), "line 13: malformed");
        assert_eq!(held_back("5 more like this not shown (105 in all)"), Some(5));
        assert_eq!(held_back("7 more repairs like this not shown (107 in all)"), Some(7));
        assert_eq!(held_back("a value"), None);
        assert_eq!(held_back("5 more like this not shown (x in all)"), None);
        assert_eq!(held_back("KM[5 more like this not shown (105 in all)] kept"), None);
        assert_eq!(shift_opened_at("a tree opened at 1:3 (1)", 10, 4).unwrap(), "a tree opened at 11:7 (1)");
    }
}
