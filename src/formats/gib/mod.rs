//! GIB (Tygem, Tom, eWeiqi, Yidao, 棋城): reader and writer. Specification: [`formats/gib.md`](crate::spec::gib).

mod facts;
mod fields;
mod header;
mod map;
mod read;
mod result;
mod write;

pub(crate) use write::write_text;

use super::{FormatSpec, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions, WriteOutput};
use crate::diag::{Diagnostic, Sink};
use crate::model::{Collection, GameTree};

/// Parses decoded GIB text into a game tree; `None` (with a `gib.no-game` error) when the text
/// holds neither a header nor a game section.
pub(crate) fn parse_text(text: &str, mut sink: Sink) -> (Option<GameTree>, Vec<Diagnostic>) {
    let raw = read::scan(text, &mut sink);
    if !raw.found {
        sink.push(Diagnostic::error(codes::NO_GAME, "no GIB header (\\HS) or game section (\\GS) found"));
        return (None, sink.finish(text));
    }
    let tree = map::build(&raw, &mut sink);
    (Some(tree), sink.finish(text))
}

/// Root property holding, one value per entry, the raw `KEY=VALUE` header entries (and the
/// unmapped sub-fields of the composite ones) that SGF has no property for.
pub const PROP_HEADER: &str = "XGIB";
/// Root property holding the first line of the game section when it is not `2 1 0`.
pub const PROP_GAME_LINE: &str = "XGIBGS";
/// Root property holding, one value per line, the records of the game section kifu does not
/// convert (`REM 0 262`, …), written back after the moves.
pub const PROP_RECORDS: &str = "XGIBREC";
/// Root property holding the free text after `&4` on the `INI` line.
pub const PROP_INI_TEXT: &str = "XGIBINI";

/// Diagnostic codes of the GIB reader and writer (documented in [`formats/gib.md`](crate::spec::gib)).
pub mod codes {
    /// Text before `\HS` was skipped.
    pub const TEXT_BEFORE: &str = "gib.text-before";
    /// Text after `\GE` was skipped.
    pub const TEXT_AFTER: &str = "gib.text-after";
    /// A section marker (`\HS`, `\HE`, `\GS`) is missing; reading went on.
    pub const MISSING_MARKER: &str = "gib.missing-marker";
    /// The input ends inside the game section (no `\GE`): cut off (error, as a truncated SGF
    /// is); the moves read are kept.
    pub const TRUNCATED: &str = "gib.truncated";
    /// A header line is not `\[KEY=VALUE\]`; it was skipped.
    pub const BAD_HEADER_LINE: &str = "gib.bad-header-line";
    /// A header value ran over several physical lines; they were joined with a space.
    pub const MULTILINE_VALUE: &str = "gib.multiline-value";
    /// A header key appears twice; the first is used, the others are kept privately.
    pub const DUPLICATE_KEY: &str = "gib.duplicate-key";
    /// `GIBOKIND` names no known flavour; the charset was detected.
    pub const UNKNOWN_KIND: &str = "gib.unknown-kind";
    /// A record type kifu does not know (`IDX`, `REM`, …) was skipped.
    pub const UNKNOWN_RECORD: &str = "gib.unknown-record";
    /// A `STO`/`SKI`/`INI` record or game line could not be read; it was skipped.
    pub const BAD_RECORD: &str = "gib.bad-record";
    /// Move record numbers are not consecutive from 2.
    pub const RECORD_NUMBER: &str = "gib.record-number";
    /// A `STO` colour is neither 1 nor 2; the colour followed from alternation.
    pub const BAD_COLOUR: &str = "gib.bad-colour";
    /// The result code is unknown; no `RE` was written.
    pub const UNKNOWN_RESULT: &str = "gib.unknown-result";
    /// The handicap sources (`INI`, `GCDT`, GAMETAG `R`) disagree, or the count has no layout.
    pub const HANDICAP: &str = "gib.handicap";
    /// A player name came from `GAME*NICK` because `GAME*NAME` is missing.
    pub const NAME_FROM_NICK: &str = "gib.name-from-nick";
    /// A player name came from `*USERINFO` or `GAMETAG` (modern records name players only there):
    /// the nickname, else the login id.
    pub const NAME_FROM_USERINFO: &str = "gib.name-from-userinfo";
    /// A record kifu keeps without converting (`REM`, `IDX`, `DSC`, `SUR`, `WIT`): kept in
    /// `XGIBREC` and written back after the moves.
    pub const KEPT_RECORD: &str = "gib.kept-record";
    /// A text value holds U+FFFD (an earlier lossy conversion); it was kept privately only.
    pub const DAMAGED_TEXT: &str = "gib.damaged-text";
    /// No header and no game section was found.
    pub const NO_GAME: &str = "gib.no-game";
    /// Writer: only the first game of a collection was written.
    pub const LOSSY_GAMES: &str = "gib.lossy-games";
    /// Writer: a variation was not written.
    pub const LOSSY_VARIATION: &str = "gib.lossy-variation";
    /// Writer: a comment (`C`) was not written.
    pub const LOSSY_COMMENT: &str = "gib.lossy-comment";
    /// Writer: markup (`TR`, `LB`, …) was not written.
    pub const LOSSY_MARKUP: &str = "gib.lossy-markup";
    /// Writer: setup stones other than the handicap layout were not written.
    pub const LOSSY_SETUP: &str = "gib.lossy-setup";
    /// Writer: the board is not 19×19; moves off a 19×19 board were not written.
    pub const LOSSY_BOARD_SIZE: &str = "gib.lossy-board-size";
    /// Writer: a property GIB has no field for was not written.
    pub const LOSSY_PROPERTY: &str = "gib.lossy-property";
    /// Writer: the result has no GIB code (draw, void, unknown, unreadable) or lost precision.
    pub const LOSSY_RESULT: &str = "gib.lossy-result";
    /// Writer: a rank GIB cannot hold (`NR`, `11k+`) was left out, or its `*`/`?` mark dropped.
    pub const LOSSY_RANK: &str = "gib.lossy-rank";
    /// Writer: komi is not a multiple of 0.1 or is unreadable.
    pub const LOSSY_KOMI: &str = "gib.lossy-komi";
    /// Writer: `TM`/`OT` cannot be written as `main-byoyomi-periods` seconds.
    pub const LOSSY_TIME: &str = "gib.lossy-time";
    /// Writer: a pass by the player who also made the previous move reads back as the other
    /// colour (GIB passes carry no colour).
    pub const LOSSY_PASS_COLOUR: &str = "gib.lossy-pass-colour";
    /// Writer: the `AB` stones are not Tygem's layout for the handicap; readers will place the
    /// layout instead.
    pub const HANDICAP_LAYOUT: &str = "gib.handicap-layout";
    /// Writer: a private `XGIB` entry was replaced by the value the SGF properties give.
    pub const PRIVATE_SUPERSEDED: &str = "gib.private-superseded";
    /// Writer: the output charset has no GIB flavour; UTF-8 (`Global`) was written.
    pub const CHARSET: &str = "gib.charset";
    /// Writer: nothing to write.
    pub const NO_GAMES: &str = "gib.no-games";
}

/// The registry entry.
pub(crate) static FORMAT: FormatSpec = FormatSpec {
    name: "gib",
    aliases: &[],
    extensions: &["gib"],
    description: "Tygem / Tom / eWeiqi / Yidao game record (writes UTF-8, GIBOKIND=Global)",
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

fn sniff(bytes: &[u8]) -> bool {
    let b = super::trim_start(bytes);
    if b.starts_with(b"\\HS") || b.starts_with(b"\\[GIBOKIND=") {
        return true;
    }
    let head = &b[..b.len().min(4096)];
    memchr::memmem::find(head, b"\\HS").is_some() && memchr::memmem::find(head, b"\\[").is_some()
}

/// The charset label a GIB file declares: from `GIBOKIND` (Global, Korea, China, Taiwan,
/// Japan), else from `GAMEINFOMAIN`'s `GBKIND` (0 Korea, 2 Tom, 3 Global, 4 Taiwan, 5 China).
/// Both are ASCII, so they are found on the raw bytes. The second value is an unknown kind.
pub(crate) fn declared_charset(bytes: &[u8]) -> (Option<&'static str>, Option<String>) {
    let value_of = |key: &[u8], end: &[u8]| -> Option<String> {
        let at = memchr::memmem::find(bytes, key)? + key.len();
        let rest = &bytes[at..bytes.len().min(at + 64)];
        let stop = memchr::memmem::find(rest, end).unwrap_or(rest.len());
        let stop = rest[..stop].iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(stop);
        Some(String::from_utf8_lossy(&rest[..stop]).trim().to_string())
    };
    if let Some(kind) = value_of(b"\\[GIBOKIND=", b"\\]") {
        return match kind_label(&kind) {
            Some(l) => (Some(l), None),
            None => (None, Some(kind)),
        };
    }
    let label = value_of(b"GBKIND:", b",").and_then(|k| match k.as_str() {
        "0" => Some("EUC-KR"),
        "2" | "5" => Some("GB18030"),
        "3" => Some("UTF-8"),
        "4" => Some("Big5"),
        _ => None,
    });
    (label, None)
}

/// The charset of a `GIBOKIND` value.
pub(crate) fn kind_label(kind: &str) -> Option<&'static str> {
    match kind.trim().to_ascii_lowercase().as_str() {
        "global" => Some("UTF-8"),
        "korea" => Some("EUC-KR"),
        "china" => Some("GB18030"),
        "taiwan" => Some("Big5"),
        "japan" => Some("Shift_JIS"),
        _ => None,
    }
}

/// Reads a GIB file: charset from `GIBOKIND` (detection when absent or wrong), then the header
/// and the game section.
pub(crate) fn read(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let mut sink = crate::diag::Sink::new();
    let (label, unknown) = declared_charset(&bytes);
    if let Some(kind) = unknown {
        sink.push(crate::diag::Diagnostic::warning(
            codes::UNKNOWN_KIND,
            format!("GIBOKIND '{kind}' is not a known flavour; detecting the charset"),
        ));
    }
    let decoded = crate::charset::decode_owned(bytes, options.encoding, label, &mut sink);
    let charset = decoded.decision;
    let (tree, diagnostics) = parse_text(&decoded.text, sink);
    match tree {
        Some(t) => Ok(ReadOutput { collection: Collection::new(vec![t]), charset: Some(charset), diagnostics }),
        None => Err(ReadError { diagnostics }),
    }
}

/// Writes the first game as GIB with CRLF line ends: UTF-8 and `GIBOKIND=Global` by default,
/// or the flavour of the requested charset (EUC-KR → Korea, GBK/GB18030 → China, Big5 →
/// Taiwan, Shift_JIS → Japan).
pub(crate) fn write(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    let Some(game) = collection.games.first() else {
        return Err(WriteError::Invalid(vec![crate::diag::Diagnostic::error(codes::NO_GAMES, "no game to write")]));
    };
    let mut diagnostics = Vec::new();
    if collection.games.len() > 1 {
        diagnostics.push(crate::diag::Diagnostic::warning(
            codes::LOSSY_GAMES,
            format!("GIB holds one game; games 2 to {} were not written", collection.games.len()),
        ));
    }
    let mut enc = options.encoding();
    let kind = match enc.name() {
        "UTF-8" => "Global",
        "EUC-KR" => "Korea",
        "GBK" | "gb18030" => "China",
        "Big5" => "Taiwan",
        "Shift_JIS" => "Japan",
        other => {
            diagnostics.push(crate::diag::Diagnostic::warning(
                codes::CHARSET,
                format!("GIB has no flavour for {other}; wrote UTF-8 with GIBOKIND=Global"),
            ));
            enc = encoding_rs::UTF_8;
            "Global"
        }
    };
    let (text, diags) = write_text(game, kind);
    diagnostics.extend(diags);
    let options = WriteOptions { encoding: Some(enc), ..options.clone() };
    super::encode_output(&text, &options, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_gib_but_not_sgf() {
        assert!(sniff(b"\\HS\r\n\\[GIBOKIND=Global\\]\r\n"));
        assert!(sniff(b"junk\n\\HS\n\\[TYPE=0\\]\n"));
        assert!(!sniff(b"(;GM[1])"));
        assert_eq!(crate::formats::Format::sniff(b"\\HS\n\\[GIBOKIND=Korea\\]\n").map(|f| f.name()), Some("gib"));
    }

    #[test]
    fn charset_from_kind_then_gbkind() {
        assert_eq!(declared_charset(b"\\HS\n\\[GIBOKIND=Korea\\]\n"), (Some("EUC-KR"), None));
        assert_eq!(declared_charset(b"\\[GIBOKIND=China\\]"), (Some("GB18030"), None));
        assert_eq!(declared_charset(b"\\[GIBOKIND=Japan\\]"), (Some("Shift_JIS"), None));
        assert_eq!(declared_charset(b"\\[GIBOKIND=Taiwan\\]"), (Some("Big5"), None));
        assert_eq!(declared_charset(b"\\[GIBOKIND=Global\\]"), (Some("UTF-8"), None));
        assert_eq!(declared_charset(b"\\[GIBOKIND=Mars\\]"), (None, Some("Mars".into())));
        assert_eq!(declared_charset(b"\\[GAMEINFOMAIN=GBKIND:4,GTYPE:0\\]"), (Some("Big5"), None));
        assert_eq!(declared_charset(b"\\HS\n"), (None, None));
    }
}
