//! SGF (Smart Game Format) FF\[1\]–FF\[4\]: reader and writer. Specification: [`formats/sgf.md`](crate::spec::sgf).

mod declared;
mod read;
mod write;

pub use read::find_declared_charset;
pub(crate) use read::{parse_text, read_game_again, read_game_head_again};
#[cfg(feature = "parquet")]
pub(crate) use write::write_game;
pub use write::{normalize_header, write_text};

/// For the streaming reader, from one scan of `bytes`: the charset parts (start, label; as the
/// whole-file reader cuts them), where the first game whose root declares a known charset
/// starts, and where each game whose root has a `CA` (known or not) starts: at least those up
/// to that first game, all of them when a later game may declare another charset (the games
/// are not tokenized past the first declaration when none can: `declared::declares_only`).
pub(crate) fn charset_layout(bytes: &[u8]) -> (Vec<(usize, String)>, Option<usize>, Vec<usize>) {
    let lead = declared::leading_root_charsets(bytes);
    // The scan of the leading roots went through every game when none declares a known charset.
    let known = lead.last().and_then(|r| crate::charset::encoding_for_label(&r.label));
    if known.is_none_or(|enc| declared::declares_only(bytes, enc)) {
        let parts: Vec<(usize, String)> =
            lead.last().filter(|_| known.is_some()).map(|r| (0, r.label.clone())).into_iter().collect();
        let first = lead.last().filter(|_| known.is_some()).map(|r| r.game);
        return (parts, first, lead.iter().map(|r| r.game).collect());
    }
    let roots = declared::root_charsets(bytes);
    let first = roots.iter().find(|r| crate::charset::encoding_for_label(&r.label).is_some()).map(|r| r.game);
    let declaring = roots.iter().map(|r| r.game).collect();
    (read::declarations_of(roots).0, first, declaring)
}

/// Whether every `CA[` of `bytes` names `enc` (a known label, closed within 64 bytes): then no
/// game of `bytes` can declare anything else however its values are cut, and a streamed piece
/// whose carried charset is `enc` needs no scan of its roots.
pub(crate) fn every_label_names(bytes: &[u8], enc: &'static encoding_rs::Encoding) -> bool {
    declared::every_label_names(bytes, enc)
}

use super::{FormatSpec, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions, WriteOutput};
use crate::model::Collection;

/// Diagnostic codes of the SGF reader and writer (documented in [`formats/sgf.md`](crate::spec::sgf)).
pub mod codes {
    /// Text before the first game tree was skipped.
    pub const TEXT_BEFORE: &str = "sgf.text-before";
    /// Text between or after game trees was skipped.
    pub const TEXT_BETWEEN: &str = "sgf.text-between";
    /// A character that has no place in the grammar was skipped.
    pub const UNEXPECTED_CHAR: &str = "sgf.unexpected-char";
    /// A game tree was not closed by `)` before the end of the input.
    pub const MISSING_CLOSE: &str = "sgf.missing-close";
    /// A `)` closed nothing and was skipped.
    pub const EXTRA_CLOSE: &str = "sgf.extra-close";
    /// A game tree started without `(`.
    pub const MISSING_OPEN: &str = "sgf.missing-open";
    /// Properties appeared where a node should start with `;`; a node was opened.
    pub const MISSING_SEMICOLON: &str = "sgf.missing-semicolon";
    /// A `(` directly after `(` (a variation without a node before its own variations); the
    /// extra level was ignored.
    pub const REDUNDANT_PAREN: &str = "sgf.redundant-paren";
    /// An empty game tree `()` was skipped.
    pub const EMPTY_VARIATION: &str = "sgf.empty-variation";
    /// A node followed a variation inside one sequence; it became another variation.
    pub const NODE_AFTER_VARIATION: &str = "sgf.node-after-variation";
    /// A `]` that could not end the value was kept as part of the text.
    pub const UNESCAPED_BRACKET: &str = "sgf.unescaped-bracket";
    /// A point, number or other non-text value ran over a node boundary (`B[pd;W[dp]`): its `]`
    /// is missing; the value was closed before the `;`, `(` or `)`.
    pub const MISSING_BRACKET: &str = "sgf.missing-bracket";
    /// Lone CR line ends (old Mac files) in text values were read as LF (one note per input).
    pub const LONE_CR: &str = "sgf.lone-cr";
    /// A value ran to the end of the input without `]`.
    pub const UNTERMINATED_VALUE: &str = "sgf.unterminated-value";
    /// A property identifier had no value and was dropped.
    pub const MISSING_VALUE: &str = "sgf.missing-value";
    /// An FF\[1\]–FF\[3\] identifier with lower-case letters was normalised (`SiZe` → `SZ`).
    pub const OLD_IDENTIFIER: &str = "sgf.old-identifier";
    /// No game tree was found in the input.
    pub const NO_GAME: &str = "sgf.no-game";
    /// The input is larger than a tree can address.
    pub const TOO_LARGE: &str = "sgf.too-large";
    /// Written: a value SGF cannot hold as it is (a property without values, a line break in
    /// SimpleText, a CR in Text); it reads back otherwise.
    pub const LOSSY_VALUE: &str = "sgf.lossy-value";
}

/// The registry entry.
pub(crate) static FORMAT: FormatSpec = FormatSpec {
    name: "sgf",
    aliases: &[],
    extensions: &["sgf"],
    description: "Smart Game Format FF[1]-FF[4] (writes FF[4])",
    sniff,
    read: Some(read),
    write: Some(write),
    shared_extension: false,
    cut: Some(super::cut::Cut::Sgf),
    repairs: true,
    parts: Some(PARTS),
    variations: true,
    collections: true,
    table: false,
};

/// SGF in parts: game trees one after the other, a line end between two.
const PARTS: super::PartWriter =
    super::PartWriter { head: String::new, part: write_into, separator: b"\n", tail: |_| "" };

/// A game tree opens the input. (Files with prose before the game are recognised by
/// [`crate::Format::sniff`]'s fallback, after every format's own signature was tried.)
fn sniff(bytes: &[u8]) -> bool {
    super::trim_start(bytes).starts_with(b"(")
}

/// Reads SGF bytes: charset decision (BOM, override, `CA`, detection), then the grammar.
///
/// The charset is decided from the games up to the first whose root declares a known charset.
/// A collection whose games declare different charsets is decoded part by part; whether a later
/// game declares another charset is learnt from the parser's reading of each game's root when
/// the text is the input itself and reads without any diagnostic (then the parser cuts games
/// and values where `declared.rs` does), else from a second scan of the bytes, which is not
/// needed when no identifier that may read as `CA` names another charset (`declares_only`).
pub(crate) fn read(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let bom = encoding_rs::Encoding::for_bom(&bytes).is_some();
    // Under an override the declaration is only checked against a byte-order mark: without one,
    // it is not looked for.
    let roots = if options.encoding.is_some() && !bom { Vec::new() } else { declared::leading_root_charsets(&bytes) };
    let (lead, declared) = read::declarations_of(roots);
    let first_enc = lead.first().and_then(|p| crate::charset::encoding_for_label(&p.1));
    // Kept for a second decoding when the first makes the file unparseable: only when that can
    // happen (a charset other than UTF-8 declared, a byte-order mark, the UTF-16 byte pattern;
    // every ASCII-compatible reading keeps `(` and `;`, which are never a trail byte).
    let fallback = (options.encoding.is_none()
        && (first_enc.is_some_and(|e| e != encoding_rs::UTF_8)
            || bom
            || crate::charset::sniff_utf16(&bytes).is_some()))
    .then(|| bytes.clone());
    // Only a file with a known root declaration, read without an override or a BOM, can be
    // cut into parts.
    let may_mix = first_enc.filter(|_| options.encoding.is_none() && !bom);
    let (collection, diagnostics, charset) = match may_mix {
        None => read_whole(bytes, options.encoding, declared.as_deref(), options.positions),
        Some(enc) => match crate::charset::decode_owned_as_is(bytes, options.encoding, declared.as_deref()) {
            Ok(decoded) => {
                let parsed = read::parse_text_with(decoded.text, crate::diag::Sink::new(), options.positions, true);
                let clean = parsed.diagnostics.is_empty() && declared::literal_labels_name(parsed.text.as_bytes(), enc);
                let parts = if (clean && read::declarations_of(parsed.roots).0.len() <= 1)
                    || declared::declares_only(parsed.text.as_bytes(), enc)
                {
                    Vec::new()
                } else {
                    read::declarations(parsed.text.as_bytes()).0
                };
                if parts.len() <= 1 {
                    (parsed.collection, parsed.diagnostics, decoded.decision)
                } else {
                    drop(parsed.collection);
                    let bytes = std::sync::Arc::try_unwrap(parsed.text).unwrap_or_else(|t| t.to_string());
                    read_parts(bytes.as_bytes(), &parts, options)
                }
            }
            Err(rest) => {
                // One part when no root can declare another charset: no scan of the games.
                let bytes = &rest.bytes;
                let parts = if declared::declares_only(bytes, enc) { Vec::new() } else { read::declarations(bytes).0 };
                if parts.len() > 1 {
                    read_parts(bytes, &parts, options)
                } else {
                    // Decoded with what the first try learnt (the same declaration, no override).
                    let mut sink = crate::diag::Sink::new();
                    let decoded = rest.decode(None, declared.as_deref(), &mut sink);
                    let (collection, diagnostics) = parse_text(decoded.text, sink, options.positions);
                    (collection, diagnostics, decoded.decision)
                }
            }
        },
    };
    if collection.games.is_empty() {
        if let Some(found) = fallback.and_then(|b| reread(&b, charset, options)) {
            return Ok(found);
        }
        return Err(ReadError { diagnostics });
    }
    Ok(ReadOutput { collection, charset: Some(charset), diagnostics })
}

/// What [`read`] returns before the fallback: the games, the diagnostics and the decision.
type Read = (Collection, Vec<crate::diag::Diagnostic>, crate::charset::CharsetDecision);

/// Reads the whole input in one charset (see [`crate::charset::decode_owned`]).
fn read_whole(
    bytes: Vec<u8>,
    override_enc: Option<&'static encoding_rs::Encoding>,
    declared: Option<&str>,
    positions: bool,
) -> Read {
    let mut sink = crate::diag::Sink::new();
    let decoded = crate::charset::decode_owned(bytes, override_enc, declared, &mut sink);
    let (collection, diagnostics) = parse_text(decoded.text, sink, positions);
    (collection, diagnostics, decoded.decision)
}

/// Reads a collection whose games declare different charsets: decoded part by part.
fn read_parts(bytes: &[u8], parts: &[(usize, String)], options: &ReadOptions) -> Read {
    let mut sink = crate::diag::Sink::new();
    let (text, charset) = decode_parts(bytes, parts, &mut sink);
    let (collection, diagnostics) = parse_text(text, sink, options.positions);
    (collection, diagnostics, charset)
}

/// A charset that makes the file unparseable is never chosen over one that parses: when the
/// decoded text holds no game tree, the bytes are decoded again without the declaration, then
/// as UTF-8, then as windows-1252 (every ASCII-compatible reading gives the same structure, so
/// this matters for UTF-16 and double-byte readings that swallow `]` or `\`). The first that
/// parses is used, with a `charset.mismatch` warning.
fn reread(bytes: &[u8], failed: crate::charset::CharsetDecision, options: &ReadOptions) -> Option<ReadOutput> {
    use crate::charset::{CharsetDecision, CharsetSource};
    // A byte-order mark that does not fit (a UTF-16 mark on 8-bit text) is dropped.
    let bytes = bytes.get(encoding_rs::Encoding::for_bom(bytes).map_or(0, |(_, n)| n)..).unwrap_or_default();
    let mut tried = vec![failed.encoding];
    let mut sink = crate::diag::Sink::new();
    let detected = crate::charset::decode(bytes, None, None, &mut sink).decision;
    for enc in [detected.encoding, encoding_rs::UTF_8, encoding_rs::WINDOWS_1252] {
        if tried.contains(&enc) {
            continue;
        }
        tried.push(enc);
        let mut sink = crate::diag::Sink::new();
        sink.push(crate::diag::Diagnostic::warning(
            crate::charset::codes::MISMATCH,
            format!("no game tree can be read from this file as {}; read as {}", failed.encoding.name(), enc.name()),
        ));
        let decoded = crate::charset::decode(bytes, Some(enc), None, &mut sink);
        let (collection, diagnostics) = parse_text(decoded.text, sink, options.positions);
        if !collection.games.is_empty() {
            let charset = CharsetDecision {
                encoding: enc,
                source: CharsetSource::Detected,
                reason: "the first charset chosen makes the file unparseable",
            };
            return Some(ReadOutput { collection, charset: Some(charset), diagnostics });
        }
    }
    None
}

/// Decodes a collection whose games declare different charsets part by part (each part from the
/// game that changes the charset to the next such game), as SGF says `CA` holds per game tree.
/// Returns the joined text and the first part's decision; a warning names every part.
fn decode_parts(
    bytes: &[u8],
    parts: &[(usize, String)],
    sink: &mut crate::diag::Sink,
) -> (String, crate::charset::CharsetDecision) {
    let mut text = String::with_capacity(bytes.len());
    let mut first = None;
    let mut names = Vec::new();
    for (i, (start, label)) in parts.iter().enumerate() {
        let end = parts.get(i + 1).map_or(bytes.len(), |p| p.0);
        let mut part_sink = crate::diag::Sink::new();
        let decoded = crate::charset::decode(&bytes[*start..end], None, Some(label), &mut part_sink);
        sink.append_shifted(part_sink, text.len());
        names.push(format!("{} from byte {start}", decoded.decision.name()));
        first.get_or_insert(decoded.decision);
        text.push_str(&decoded.text);
    }
    sink.push(crate::diag::Diagnostic::warning(
        crate::charset::codes::MIXED,
        format!(
            "the games of this collection declare different charsets; each part was decoded with its own: {}",
            names.join(", ")
        ),
    ));
    // `parts` is never empty here; UTF-8 stands in for the impossible case.
    let decision = first.unwrap_or(crate::charset::CharsetDecision {
        encoding: encoding_rs::UTF_8,
        source: crate::charset::CharsetSource::Detected,
        reason: "no part to decode",
    });
    (text, decision)
}

/// Writes FF\[4\] SGF in the requested charset (UTF-8 by default).
pub(crate) fn write(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    write_into(collection, options, Vec::new())
}

/// [`write`], into `buf` (emptied first: a buffer used before, so that a stream of pieces does
/// not grow a new one for each).
pub(crate) fn write_into(
    collection: &Collection,
    options: &WriteOptions,
    buf: Vec<u8>,
) -> Result<WriteOutput, WriteError> {
    // Escaping is done on characters before encoding, so a Shift_JIS or Big5 trail byte 0x5C or
    // 0x5D is never escaped and a real `]` or `\` always is.
    let (bytes, lost) = write::write_bytes_reporting(collection, options, buf);
    if options.encoding() == encoding_rs::UTF_8 && memchr::memchr(0, &bytes).is_none() {
        // Nothing to encode: hand the text over without a copy (a 200 MB comment is written
        // with one buffer, not two).
        return Ok(WriteOutput { bytes, diagnostics: lost });
    }
    let text = super::written_text(bytes);
    super::encode_output(&text, options, lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader as it was before the parser reported the roots' `CA`: every game's root
    /// declaration found by a scan of the bytes before decoding.
    fn read_scanning_first(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
        let mut sink = crate::diag::Sink::new();
        let (parts, declared) = read::declarations(&bytes);
        let mixed = parts.len() > 1 && options.encoding.is_none() && encoding_rs::Encoding::for_bom(&bytes).is_none();
        let fallback = (options.encoding.is_none()
            && (parts
                .first()
                .and_then(|p| crate::charset::encoding_for_label(&p.1))
                .is_some_and(|e| e != encoding_rs::UTF_8)
                || encoding_rs::Encoding::for_bom(&bytes).is_some()
                || crate::charset::sniff_utf16(&bytes).is_some()))
        .then(|| bytes.clone());
        let (text, charset) = if mixed {
            decode_parts(&bytes, &parts, &mut sink)
        } else {
            let decoded = crate::charset::decode_owned(bytes, options.encoding, declared.as_deref(), &mut sink);
            (decoded.text, decoded.decision)
        };
        let (collection, diagnostics) = parse_text(text, sink, options.positions);
        if collection.games.is_empty() {
            if let Some(found) = fallback.and_then(|b| reread(&b, charset, options)) {
                return Ok(found);
            }
            return Err(ReadError { diagnostics });
        }
        Ok(ReadOutput { collection, charset: Some(charset), diagnostics })
    }

    /// `read` and `read_scanning_first` agree on `bytes`: same charset, games and diagnostics.
    /// (And with an override: the declaration is then not looked for without a byte-order mark.)
    fn agree(bytes: &[u8]) -> Result<(), String> {
        for encoding in [None, Some(encoding_rs::UTF_8), Some(encoding_rs::GBK)] {
            let options = ReadOptions { encoding, ..ReadOptions::default() };
            let (new, old) = (read(bytes.to_vec(), &options), read_scanning_first(bytes.to_vec(), &options));
            let same = match (&new, &old) {
                (Ok(a), Ok(b)) => {
                    a.charset == b.charset && a.collection == b.collection && a.diagnostics == b.diagnostics
                }
                (Err(a), Err(b)) => a.diagnostics == b.diagnostics,
                _ => false,
            };
            if !same {
                return Err(format!("{encoding:?}: {new:?}\n  vs\n{old:?}"));
            }
        }
        Ok(())
    }

    #[test]
    fn roots_from_the_parser_decide_as_a_scan_of_the_bytes() {
        let cases: &[&[u8]] = &[
            b"(;CA[UTF-8]C[a])(;CA[UTF-8]C[b])",
            b"(;CA[UTF-8]C[a])(;CA[GBK]C[b])",
            b"(;CA[GB2312]C[a])(;CA[gbk]C[b])\n(;CA[UTF-8]C[c])(;CA[x-unknown])(;CA[Shift_JIS]C[d])",
            // Not a literal `CA[`: the parser's roots tell.
            b"(;CA[UTF-8]C[a])(;CA [GBK]C[b])",
            // A value with an escaped `]` and a double-byte lead byte before it (\xC4\x81 is
            // valid UTF-8; 0x81 is a Shift_JIS lead byte): only the scan's second look finds it.
            "(;CA[UTF-8]C[a])(;PB[\u{101}\\]CA[SJIS]PW[x])".as_bytes(),
            // Damaged structure: the scan of the bytes decides.
            b"(;CA[UTF-8]C[a]) junk (;C[x]CA[Big5]B[aa])(;CA[UTF-8])",
            b"(;CA[UTF-8]C[a]]CA[GBK]]) (;CA[GBK])",
            b"(;CA[ISO-8859-1]C[caf\xe9])(;CA[UTF-8]C[x])",
            b"(;CA[UTF-8]C[a\0b])(;CA[GBK])",
            b"(;CA[nonsense]C[a])(;CA[UTF-8]C[b])(;CA[GBK]C[b])",
            b"\xef\xbb\xbf(;CA[UTF-8]C[a])(;CA[GBK]C[b])",
            // Damaged UTF-8: one part when no `CA` can name another charset, else the scan.
            b"(;CA[UTF-8]C[a\xff])(;CA[utf-8]C[b])(;CA[x-unknown])",
            b"(;CA[UTF-8]C[a\xff])(;CA[GBK]C[b])",
            b"(;CA[UTF-8]C[a\xff])(;C[x CA[GBK] y])",
            b"(;CA[UTF-8]C[a\xe4\xbd])(;ca[EUC-KR]C[b\xb0\xa1])",
            b"(;CA[UTF-8]C[a\xff])(;CA[UTF-16]BE]C[b])",
            b"(;CA[UTF-8]C[a\xff])(;PB[\x90\x5C]CA[SJIS]PW[x])",
            b"(;CA[windows-1252]C[caf\xe9])(;CA[latin1]C[b])",
            b"(;CA[windows-1252]C[caf\xe9])(;CA[EUC-KR]C[\xb0\xa1])",
        ];
        for case in cases {
            if let Err(e) = agree(case) {
                panic!("{:?}:\n{e}", String::from_utf8_lossy(case));
            }
        }
        assert!(
            read(cases[1].to_vec(), &ReadOptions::default())
                .unwrap()
                .diagnostics
                .iter()
                .any(|d| d.code == crate::charset::codes::MIXED)
        );
    }

    /// `charset_layout` as a scan of every root gives it: the same parts and first declaring
    /// game, and the declaring games up to that one (all of them when it is not found).
    fn layout_agrees(bytes: &[u8]) -> Result<(), String> {
        let roots = declared::root_charsets(bytes);
        let first = roots.iter().find(|r| crate::charset::encoding_for_label(&r.label).is_some()).map(|r| r.game);
        let declaring: Vec<usize> = roots.iter().map(|r| r.game).collect();
        let parts = read::declarations_of(roots).0;
        let (p, f, d) = charset_layout(bytes);
        let up_to_first: Vec<usize> = declaring.iter().copied().filter(|&g| first.is_none_or(|k| g <= k)).collect();
        let ok = p == parts && f == first && declaring.starts_with(&d) && d.starts_with(&up_to_first);
        if ok { Ok(()) } else { Err(format!("{p:?} {f:?} {d:?}\n  vs\n{parts:?} {first:?} {declaring:?}")) }
    }

    #[test]
    fn the_layout_is_the_full_scans() {
        let cases: &[&[u8]] = &[
            b"(;CA[UTF-8]C[a])(;CA[UTF-8]C[b])",
            b"(;C[a])(;CA[x-unknown])(;CA[UTF-8]C[b])(;CA[utf8])",
            b"(;C[a])(;CA[x-unknown])(;C[b])",
            b"(;C[a])(;CA[UTF-8]C[b])(;CA[GBK])",
            b"(;CA[UTF-8]C[a\xff])(;C[x CA[GBK] y])(;CA[GBK])",
            b"(;CA[GBK]C[a])(;CA[GBK])",
            b"(;PB[\x90\x5C]CA[SJIS]PW[x])(;CA[SJIS])",
            b"no game",
        ];
        for case in cases {
            if let Err(e) = layout_agrees(case) {
                panic!("{:?}:\n{e}", String::from_utf8_lossy(case));
            }
        }
        crate::shared_files::each_shared_sgf(|path, bytes| {
            if let Err(e) = layout_agrees(&bytes) {
                panic!("{}:\n{e}", path.display());
            }
        });
    }

    #[test]
    fn roots_from_the_parser_decide_as_a_scan_on_every_shared_file() {
        let n = crate::shared_files::each_shared_sgf(|path, bytes| {
            if let Err(e) = agree(&bytes) {
                panic!("{}:\n{e}", path.display());
            }
        });
        if let Some(n) = n {
            eprintln!("compared {n} SGF files");
        }
    }
}
