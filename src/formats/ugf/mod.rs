//! UGF/UGI (Pandanet IGS "Panda-eGG", Nihon Ki-in, review files): reader and writer.
//! Specification: [`formats/ugf.md`](crate::spec::ugf).

mod header;
mod moves;
mod read;
mod review;
mod write;

pub(crate) use read::parse_text;
pub(crate) use write::write_text;

use super::{FormatSpec, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions, WriteOutput};
use crate::model::Collection;

/// Private property on the root: raw `Key=value` header lines with no (or no exact) SGF home,
/// written back by the writer when they still agree with the game information.
pub const PROP_HEADER: &str = "XUGFHEADER";
/// Private property on a move node: seconds used for the move (4th `[Data]` field), when not 0.
pub const PROP_TIME: &str = "XUGFTIME";
/// Private property on a move node: text after the seconds field (e.g. `'00:00:31`).
pub const PROP_CLOCK: &str = "XUGFCLOCK";
/// Private property on a move node: the pair-go player index when it is not 1 (`B2` → `2`).
pub const PROP_PLAYER: &str = "XUGFPLAYER";
/// Private property on the root: the lines of a `[Comment]` section, joined by newlines.
pub const PROP_COMMENT: &str = "XUGFCOMMENT";

/// Diagnostic codes of the UGF reader and writer (documented in [`formats/ugf.md`](crate::spec::ugf)).
pub mod codes {
    /// The file is encrypted (`Crypt` other than `0,PLAIN…`); it cannot be read.
    pub const ENCRYPTED: &str = "ugf.encrypted";
    /// No `[Header]` or `[Data]` section was found.
    pub const NO_GAME: &str = "ugf.no-game";
    /// An unknown section was skipped.
    pub const UNKNOWN_SECTION: &str = "ugf.unknown-section";
    /// A known section kifu does not convert (`[Remote]`, `[Files]`, `[MessageLine]`) was skipped.
    pub const SKIPPED_SECTION: &str = "ugf.skipped-section";
    /// A `#` comment line was skipped.
    pub const COMMENT_LINE: &str = "ugf.comment-line";
    /// A line that fits no grammar of its section was skipped.
    pub const BAD_LINE: &str = "ugf.bad-line";
    /// The input ends without a line end inside `[Header]` or inside a `[Data]` line: cut off
    /// (error, as a truncated SGF is); the moves read are kept.
    pub const TRUNCATED: &str = "ugf.truncated";
    /// Text after `[End]` was ignored.
    pub const AFTER_END: &str = "ugf.after-end";
    /// A header value could not be parsed; it was kept raw in `XUGFHEADER`.
    pub const BAD_VALUE: &str = "ugf.bad-value";
    /// `CoordinateType` is missing or unknown; IGS orientation (rows from the bottom) was used.
    pub const COORDINATE_TYPE: &str = "ugf.coordinate-type";
    /// A `[Data]` line had a fifth field; it was ignored.
    pub const EXTRA_FIELD: &str = "ugf.extra-field";
    /// A move had no colour (`MK`); its colour was inferred by alternation.
    pub const INFERRED_COLOUR: &str = "ugf.inferred-colour";
    /// Move numbers are not consecutive from 1 (or a number is missing).
    pub const MOVE_NUMBER: &str = "ugf.move-number";
    /// A move-0 (setup) line came after the first move; it was added as setup on that node.
    pub const LATE_SETUP: &str = "ugf.late-setup";
    /// The number of black setup stones differs from the `Hdcp` handicap.
    pub const HANDICAP_MISMATCH: &str = "ugf.handicap-mismatch";
    /// A review comment or figure points past the last node; it was attached to the last main-line node.
    pub const COMMENT_TARGET: &str = "ugf.comment-target";
    /// A `[ReviewNode]` line skips depths; it was attached to the deepest node available.
    pub const NODE_GAP: &str = "ugf.node-gap";
    /// Setup (move-0) lines inside a `.Fig` block were not converted.
    pub const FIGURE_SETUP: &str = "ugf.figure-setup";
    /// The collection holds more than one game; only the first was written.
    pub const LOSSY_GAMES: &str = "ugf.lossy-games";
    /// A property has no UGF home and was not written (one diagnostic per identifier).
    pub const LOSSY_PROPERTY: &str = "ugf.lossy-property";
    /// A comment on a node outside the main line was not written.
    pub const LOSSY_VARIATION_COMMENT: &str = "ugf.lossy-variation-comment";
    /// A move that is off the board (written as a pass) or unreadable (not written).
    pub const LOSSY_MOVE: &str = "ugf.lossy-move";
    /// Setup stones (`AB`/`AW`/`AE`) after the root were not written.
    pub const LOSSY_SETUP: &str = "ugf.lossy-setup";
    /// A game-information value was written in a reduced form (result, date, time, players).
    pub const LOSSY_INFO: &str = "ugf.lossy-info";
    /// The board cannot be written in UGF (not square, or larger than 24).
    pub const BAD_SIZE: &str = "ugf.bad-size";
}

/// The registry entry.
pub(crate) static FORMAT: FormatSpec = FormatSpec {
    name: "ugf",
    aliases: &["ugi"],
    extensions: &["ugf", "ugi"],
    description: "Pandanet IGS Panda-eGG / Nihon Ki-in UGF and UGI, review files included",
    sniff,
    read: Some(read),
    write: Some(write),
    shared_extension: false,
    cut: None,
    repairs: false,
    parts: None,
    variations: true,
    collections: false,
    table: false,
};

fn sniff(bytes: &[u8]) -> bool {
    let b = super::trim_start(bytes);
    let head = &b[..b.len().min(4096)];
    // `#` comment lines may come first.
    head.starts_with(b"[Header]")
        || head.starts_with(b"[HEADER]")
        || (head.starts_with(b"#")
            && (memchr::memmem::find(head, b"\n[Header]").is_some()
                || memchr::memmem::find(head, b"\r[Header]").is_some()))
}

/// Finds `Lang=` in the `[Header]` of raw bytes (header keys are ASCII).
pub(crate) fn find_declared_charset(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    for line in head.split(|&c| c == b'\n' || c == b'\r') {
        if line.starts_with(b"[Data]") {
            break;
        }
        if line.len() > 5 && line[..5].eq_ignore_ascii_case(b"Lang=") {
            let value = String::from_utf8_lossy(&line[5..]).trim().to_string();
            return (!value.is_empty()).then_some(value);
        }
    }
    None
}

/// Reads UGF/UGI bytes: charset from `Lang=` (a valid-UTF-8 file is read as UTF-8), then the
/// sections.
pub(crate) fn read(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let mut sink = crate::diag::Sink::new();
    let declared = find_declared_charset(&bytes);
    let decoded = crate::charset::decode_owned(bytes, options.encoding, declared.as_deref(), &mut sink);
    let charset = decoded.decision;
    match parse_text(decoded.text, sink) {
        Ok((collection, diagnostics)) => Ok(ReadOutput { collection, charset: Some(charset), diagnostics }),
        Err(diagnostics) => Err(ReadError { diagnostics }),
    }
}

/// Writes the first game as UGF (`Lang=UTF8`, or `SJIS` when asked for Shift_JIS).
pub(crate) fn write(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    let enc = options.encoding();
    let (text, diagnostics) = write_text(collection, enc)?;
    super::encode_output(&text, options, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_header_and_finds_lang() {
        assert!(sniff(b"[Header]\nVer=UGF3,200\n"));
        assert!(sniff(b"# comment\n[Header]\n"));
        assert!(sniff(b"# comment\r[Header]\r"));
        assert!(!sniff(b"(;FF[4])"));
        assert_eq!(find_declared_charset(b"[Header]\r\nLang=SJIS\r\n").as_deref(), Some("SJIS"));
        assert_eq!(find_declared_charset(b"[Header]\nTitle=x\n[Data]\nLang=UTF8\n"), None);
    }
}
