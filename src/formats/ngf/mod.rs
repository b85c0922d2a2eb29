//! NGF (WBaduk / Cyberoro, Nihon Ki-in Yugen no Ma, and the Chinese "GI" variant): reader and
//! writer. Specification: [`formats/ngf.md`](crate::spec::ngf).

mod fields;
mod read;
mod result;
mod write;

pub(crate) use read::parse_text;
pub(crate) use result::{ParsedResult, parse_result};
pub(crate) use write::write_text;

use super::{FormatSpec, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions, WriteOutput};
use crate::model::Collection;

/// Diagnostic codes of the NGF reader and writer (documented in [`formats/ngf.md`](crate::spec::ngf)).
pub mod codes {
    /// Nothing NGF-like was found (no board-size line and no move line).
    pub const NO_GAME: &str = "ngf.no-game";
    /// The header has fewer lines than the format defines; the missing fields are absent.
    pub const SHORT_HEADER: &str = "ngf.short-header";
    /// A line between the header and the first move was skipped.
    pub const EXTRA_HEADER_LINE: &str = "ngf.extra-header-line";
    /// A header value (size, handicap, komi, date, time) could not be read; its raw text is kept
    /// in an `XNGF…` property.
    pub const BAD_HEADER_VALUE: &str = "ngf.bad-header-value";
    /// A rank is not in a known form; it was copied unchanged.
    pub const UNKNOWN_RANK: &str = "ngf.unknown-rank";
    /// The handicap has no known stone layout on this board; `HA` is set without `AB`.
    pub const NO_HANDICAP_LAYOUT: &str = "ngf.no-handicap-layout";
    /// The result text was not understood: no `RE`, the text is kept in `XNGFRE`.
    pub const UNKNOWN_RESULT: &str = "ngf.unknown-result";
    /// The result was taken from the comment on the last move (GI variant, informational).
    pub const RESULT_FROM_COMMENT: &str = "ngf.result-from-comment";
    /// The file is the GI-prefixed variant (informational).
    pub const GI_VARIANT: &str = "ngf.gi-variant";
    /// A move line is malformed (length, colour or letters); it was skipped.
    pub const BAD_MOVE: &str = "ngf.bad-move";
    /// The four coordinate letters are not of the form `x y y x`; the first pair was used.
    pub const NOT_PALINDROME: &str = "ngf.not-palindrome";
    /// A move lies off the board; it was skipped.
    pub const OFF_BOARD: &str = "ngf.off-board";
    /// A move counter is not the expected next number (informational; file order is kept).
    pub const MOVE_NUMBER: &str = "ngf.move-number";
    /// The input ends without a line end inside a move line, inside the header, or after fewer
    /// moves than the header counts: cut off (error, as a truncated SGF is); the moves read are
    /// kept.
    pub const TRUNCATED: &str = "ngf.truncated";
    /// The header's move count differs from the number of move lines (informational).
    pub const MOVE_COUNT: &str = "ngf.move-count";
    /// An `IDB[n] … [EndTxt]` comment is malformed or refers to no move.
    pub const BAD_COMMENT: &str = "ngf.bad-comment";
    /// A line after the moves that is neither a move nor a comment was skipped.
    pub const SKIPPED_LINE: &str = "ngf.skipped-line";
    /// Writer: a line NGF cannot leave empty was given its no-value form (`-` title, komi 0,
    /// time 0, date `00000000`), which reads back as no value (informational).
    pub const IMPLIED: &str = "ngf.implied";
    /// Writer: something in the game cannot be represented in NGF and was left out or changed.
    pub const LOSSY: &str = "ngf.lossy";
    /// Writer: UTF-8 output that detection would read as another charset starts with a BOM.
    pub const UTF8_MARK: &str = "ngf.utf8-mark";
}

/// The registry entry.
pub(crate) static FORMAT: FormatSpec = FormatSpec {
    name: "ngf",
    aliases: &[],
    extensions: &["ngf"],
    description: "WBaduk/Cyberoro and Yugen no Ma NGF, incl. the Chinese GI variant",
    sniff,
    read: Some(read),
    write: Some(write),
    shared_extension: false,
    cut: None,
    repairs: false,
    parts: None,
    variations: false,
    collections: false,
    table: false,
};

/// Whether a line (trimmed) starts like a move line, even if the rest is damaged: `PM`, two
/// upper-case letters and `B` or `W`. The reader's moves start at the first such line, so no
/// header value the writer writes may start so.
pub(crate) fn starts_a_move_line(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 5 && b.starts_with(b"PM") && b[2..4].iter().all(u8::is_ascii_uppercase) && matches!(b[4], b'B' | b'W')
}

/// Whether `line` is an NGF move line: `PM`, two counter letters, `B`/`W`, four letters.
pub(crate) fn is_move_line(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    line.len() == 9
        && line.starts_with(b"PM")
        && line[2..4].iter().all(u8::is_ascii_uppercase)
        && matches!(line[4], b'B' | b'W')
        && line[5..].iter().all(u8::is_ascii_uppercase)
}

fn sniff(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let head = &b[..b.len().min(8192)];
    let lines: Vec<&[u8]> = head.split(|&c| c == b'\n').map(|l| l.trim_ascii()).collect();
    // Other formats start with a recognisable first character: `(` SGF, `\` GIB, `[` UGF, `{` JSON.
    if lines.iter().find(|l| !l.is_empty()).is_some_and(|l| matches!(l[0], b'(' | b'\\' | b'[' | b'{')) {
        return false;
    }
    if lines.iter().any(|l| is_move_line(l)) {
        return true;
    }
    // A header without moves: size, handicap and komi lines are integers.
    let int = |i: usize| lines.get(i).and_then(|l| std::str::from_utf8(l).ok()).and_then(|s| s.parse::<i32>().ok());
    int(1).is_some_and(|n| (2..=52).contains(&n)) && int(5).is_some() && int(7).is_some() && lines.len() >= 12
}

/// Reads NGF bytes: charset detection (no charset field), then the header and move lines.
pub(crate) fn read(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let mut sink = crate::diag::Sink::new();
    let decoded = crate::charset::decode_owned(bytes, options.encoding, None, &mut sink);
    let charset = decoded.decision;
    match parse_text(&decoded.text, sink) {
        (Some(game), diagnostics) => {
            Ok(ReadOutput { collection: Collection::new(vec![game]), charset: Some(charset), diagnostics })
        }
        (None, diagnostics) => Err(ReadError { diagnostics }),
    }
}

/// Writes the first game as NGF in the requested charset (UTF-8 by default). NGF declares no
/// charset: UTF-8 output whose few non-ASCII bytes the reader's detection would take for another
/// charset (short mojibake names such as `•”ƒŽq` read as GBK) starts with a UTF-8 byte-order
/// mark, which readers of the file's charset honour, with a note.
pub(crate) fn write(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    let (text, diagnostics) = write_text(collection)?;
    let mut out = super::encode_output(&text, options, diagnostics)?;
    if options.encoding() == encoding_rs::UTF_8 && !out.bytes.is_ascii() {
        // The text is no longer needed and, as UTF-8 with each NUL written as `?`, it is the
        // output: the charset decision reads it in place of a copy of the output.
        let mut probe = text.into_bytes();
        probe.iter_mut().filter(|b| **b == 0).for_each(|b| *b = b'?');
        debug_assert!(probe == out.bytes);
        let mut sink = crate::diag::Sink::new();
        let read_as = crate::charset::decode_owned(probe, None, None, &mut sink).decision.encoding;
        if read_as != encoding_rs::UTF_8 {
            out.bytes.splice(0..0, *b"\xEF\xBB\xBF");
            out.diagnostics.push(crate::diag::Diagnostic::info(
                codes::UTF8_MARK,
                format!(
                    "the UTF-8 text would be detected as {} on reading (NGF declares no charset); a UTF-8 byte-order mark is written first",
                    read_as.name()
                ),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_ngf_but_not_other_formats() {
        assert!(sniff(b"Rated game\n19\nA 1D\nB 2D\nsite\n0\n0\n6\n20200101\n5\n\n2\nPMABBREER\nPMACWEEEE\n"));
        assert!(sniff(b"\n19\nA 1D\nB 2D\nsite\n0\n0\n6\n20200101\n5\nProgressing!\n0\n"));
        assert!(sniff("GI\u{97e9}\nGI19\nPMABBREER\n".as_bytes()));
        assert!(!sniff(b"(;GM[1]C[PMABBREER\n])"));
        assert!(!sniff(b"\\HS\n\\[GIBOKIND=Global\\]\n\\HE\nSTO 0 2 1 15 3\n"));
        assert!(!sniff(b"[Header]\nLang=SJIS\n[Data]\nQD,B1,1,0\n"));
        assert!(!sniff(b"hello\nworld\n"));
    }

    #[test]
    fn utf8_that_reads_as_another_charset_gets_a_byte_order_mark() {
        let games = |pb: &str| {
            let text = "(;GM[1]SZ[19]PB[x]PW[a];B[pd])";
            let mut c = crate::formats::Format::SGF.read(text.into(), &ReadOptions::default()).unwrap().collection;
            c.games[0].set_player(crate::model::Color::Black, pb);
            c
        };
        let lossy = WriteOptions { lossy: true, ..WriteOptions::default() };
        // A control character (the writer makes it a space) does not change the decision.
        for pb in ["–{ˆö–V\u{8f}G\u{8d}ô", "–{ˆö–V\u{8f}G\u{8d}ô\0"] {
            let out = write(&games(pb), &lossy).unwrap();
            assert!(out.bytes.starts_with(b"\xEF\xBB\xBF"), "{pb:?}: {:?}", out.diagnostics);
            assert!(out.diagnostics.iter().any(|d| d.code == codes::UTF8_MARK), "{pb:?}");
            let back = read(out.bytes, &ReadOptions::default()).unwrap();
            let black = back.collection.games[0].info().black.unwrap();
            assert!(black.starts_with("–{ˆö–V") && black.ends_with('ô'), "{black}");
        }
        let out = write(&games("이세돌"), &lossy).unwrap();
        assert!(!out.bytes.starts_with(b"\xEF\xBB\xBF") && !out.diagnostics.iter().any(|d| d.code == codes::UTF8_MARK));
    }

    #[test]
    fn move_lines_are_recognised() {
        assert!(is_move_line(b"PMABBREER"));
        assert!(is_move_line(b"PMACWAAAA \r"));
        assert!(!is_move_line(b"PMACXEEEE"));
        assert!(!is_move_line(b"PMACWEEE"));
        assert!(!is_move_line(b"PMacWEEEE"));
    }
}
