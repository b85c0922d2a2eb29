//! The charsets an SGF file declares: the `CA` property of each game tree's root node, found on
//! the raw bytes by the reader's own tokenizing rules (values with their escapes, a `]` that
//! cannot end a text value kept as text), so `CA[` inside a comment or another value never
//! counts. Inside values, a double-byte charset's character is skipped whole when the file
//! declares such a charset, so a Shift_JIS or Big5 trail byte `\` or `]` does not end a value.

use crate::model::props::{self, ValueType};
use encoding_rs::Encoding;

/// One root `CA`: where its game tree starts (`(`), where the property is, and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RootCharset {
    /// Byte offset of the game tree's `(`.
    pub(super) game: usize,
    /// Byte offset of the `CA` identifier.
    pub(super) at: usize,
    /// The label, trimmed.
    pub(super) label: String,
}

/// The root `CA` of every game tree of `bytes`, in order.
pub(super) fn root_charsets(bytes: &[u8]) -> Vec<RootCharset> {
    scan_roots(bytes, |_| false)
}

/// The root `CA`s of [`root_charsets`] up to and including the first whose label names a
/// known charset (all of them when none does): the scan stops after that game.
pub(super) fn leading_root_charsets(bytes: &[u8]) -> Vec<RootCharset> {
    scan_roots(bytes, |r| crate::charset::encoding_for_label(&r.label).is_some())
}

/// The first of [`root_charsets`]: the scan stops after that game.
pub(super) fn first_root_charset(bytes: &[u8]) -> Option<RootCharset> {
    scan_roots(bytes, |_| true).into_iter().next()
}

/// The root `CA`s up to and including the first for which `stop` holds.
fn scan_roots(bytes: &[u8], stop: impl Fn(&RootCharset) -> bool) -> Vec<RootCharset> {
    if may_name_ca(bytes) { scan_games(bytes, stop) } else { Vec::new() }
}

/// [`scan_roots`], tokenizing the games whatever the bytes hold.
fn scan_games(bytes: &[u8], stop: impl Fn(&RootCharset) -> bool) -> Vec<RootCharset> {
    // A double-byte charset whose trail bytes may be `\` or `]`.
    let dbcs = |label: &str| crate::charset::encoding_for_label(label).filter(|&e| has_ascii_trails(e));
    let mut out: Vec<RootCharset> = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'(', &bytes[i..]) {
        let start = i + k;
        let (found, end) = scan_game(bytes, start, None, &stop);
        let again = |enc| {
            Some(scan_game(bytes, start, Some(enc), &stop))
                .filter(|(r, _)| r.as_ref().and_then(|r| dbcs(&r.label)) == Some(enc))
        };
        let (found, end) = match found.as_ref().and_then(|r| dbcs(&r.label)) {
            // Scan the game again skipping that charset's characters whole, and keep that
            // reading when it finds the same declaration.
            Some(enc) => again(enc).unwrap_or((found, end)),
            // `PB[申]CA[SJIS]`: the trail byte 0x5C of 申 hides the `]` from the plain scan. Try
            // the double-byte charsets some `CA[` of the game names.
            None if found.is_none() => memchr::memmem::find_iter(&bytes[start..end], b"CA[")
                .filter_map(|at| {
                    let rest = &bytes[start + at + 3..];
                    let close = memchr::memchr(b']', &rest[..rest.len().min(64)])?;
                    std::str::from_utf8(&rest[..close]).ok().and_then(|l| dbcs(l.trim()))
                })
                .find_map(again)
                .unwrap_or((found, end)),
            None => (found, end),
        };
        let stop_here = found.as_ref().is_some_and(&stop);
        out.extend(found);
        if stop_here {
            break;
        }
        i = end.max(start + 1);
    }
    out
}

/// Whether `bytes` hold an identifier that reads as `CA` (`CA`, `ca`, or upper-case `C` and `A`
/// with lower-case letters around them, FF\[1\]–FF\[3\] style) followed by blanks and `[`: when
/// not, no game declares a charset and nothing needs tokenizing.
fn may_name_ca(bytes: &[u8]) -> bool {
    ca_identifiers(bytes).next().is_some()
}

/// Every place where an identifier may read as `CA` (see [`may_name_ca`]): the offset of its
/// `C` (or of the `c` of `ca`) and of the `[` after it; a superset of the `CA` the reader
/// finds. Not in order: those with an upper-case `C`, then those of `ca`.
fn ca_identifiers(bytes: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let lower = |from: usize| from + bytes[from..].iter().take_while(|c| c.is_ascii_lowercase()).count();
    // The `[` after the letters ending at `end` and the blanks after them.
    let open = move |end: usize| {
        let blanks = bytes[end..].iter().take_while(|&&c| c.is_ascii_whitespace() || c < 0x20).count();
        (bytes.get(end + blanks) == Some(&b'[')).then_some(end + blanks)
    };
    // An upper-case `C` is rare in SGF; a lower-case `c` is in every other move.
    let upper = memchr::memchr_iter(b'C', bytes).filter_map(move |at| {
        // The `A` after the lower-case letters, then lower-case letters.
        let a = lower(at + 1);
        (bytes.get(a) == Some(&b'A')).then(|| open(lower(a + 1)).map(|o| (at, o))).flatten()
    });
    let lower_ca = memchr::memmem::find_iter(bytes, b"ca").filter_map(move |at| open(lower(at + 2)).map(|o| (at, o)));
    upper.chain(lower_ca)
}

/// Whether every `CA[` of `bytes` whose label (up to the first `]`, within 64 bytes) names a
/// known charset names `enc`: when so, no game of the file can declare another charset, however
/// its values are cut (the check behind reading a collection without scanning it twice).
pub(super) fn literal_labels_name(bytes: &[u8], enc: &'static Encoding) -> bool {
    labels_name(bytes, enc, false)
}

/// Whether every `CA[` of `bytes` names `enc`: as [`literal_labels_name`], and besides, no label
/// is unknown or without its `]` within 64 bytes (so the roots' labels are surely all `enc`).
pub(super) fn every_label_names(bytes: &[u8], enc: &'static Encoding) -> bool {
    labels_name(bytes, enc, true)
}

/// The `CA[` labels of `bytes` name `enc`; `strict`: unknown and unclosed labels count against.
fn labels_name(bytes: &[u8], enc: &'static Encoding, strict: bool) -> bool {
    // Games of one collection mostly repeat one label: the last one that passed is not looked
    // up again.
    let mut passed: &[u8] = &[];
    // (An upper-case `C` is rare in SGF: found first, it is cheaper than a substring search.)
    let mut literal = memchr::memchr_iter(b'C', bytes).filter(|&at| bytes[at..].starts_with(b"CA["));
    literal.all(|at| {
        let rest = &bytes[at + 3..];
        let Some(close) = memchr::memchr(b']', &rest[..rest.len().min(64)]) else { return !strict };
        let raw = &rest[..close];
        if raw == passed {
            return true;
        }
        let label = String::from_utf8_lossy(raw);
        let ok = crate::charset::encoding_for_label(label.trim()).map_or(!strict, |e| e == enc);
        if ok {
            passed = raw;
        }
        ok
    })
}

/// Whether no game root of `bytes` can declare a known charset other than `enc` (not a
/// double-byte charset whose trail bytes may be `\\` or `]`): then [`root_charsets`] finds
/// only labels that are unknown or name `enc`, and a collection that declares `enc` first is
/// one part, without tokenizing its games. Checked on every identifier that may read as `CA`
/// (see [`may_name_ca`]), in a root or not, whose first value is read as the scan reads a
/// root's: its label must be unknown or name `enc`; and no literal `CA[` may name a double-byte
/// charset (the scan reads a game again skipping such a charset's characters, which can cut
/// its values elsewhere). `false` when unsure (a value longer than 4 KiB from such an
/// identifier): the caller then scans.
pub(super) fn declares_only(bytes: &[u8], enc: &'static Encoding) -> bool {
    if has_ascii_trails(enc) {
        return false;
    }
    let dbcs = |label: &str| crate::charset::encoding_for_label(label).is_some_and(has_ascii_trails);
    // Collections repeat one label: the last value that passed is not looked up again (nor
    // the last literal label).
    let (mut passed, mut literal): (&[u8], &[u8]) = (&[], &[]);
    ca_identifiers(bytes).all(|(at, open)| {
        // A literal `CA[`: the label up to the first `]` within 64 bytes, as the scan's second
        // look takes it.
        if bytes[at] == b'C' && open == at + 2 {
            let rest = &bytes[open + 1..];
            if let Some(close) = memchr::memchr(b']', &rest[..rest.len().min(64)]) {
                let raw = &rest[..close];
                if raw != literal && std::str::from_utf8(raw).is_ok_and(|l| dbcs(l.trim())) {
                    return false;
                }
                literal = raw;
            }
        }
        // The first value, read as a root's `CA` is.
        let limit = bytes.len().min(open + 1 + 4096);
        let end = match value_end(bytes, open + 1, true, None, limit) {
            Some(end) => end,
            None if limit == bytes.len() => bytes.len(),
            None => return false,
        };
        let value = bytes.get(open + 1..end.saturating_sub(1)).unwrap_or_default();
        if value == passed {
            return true;
        }
        let ok = match std::str::from_utf8(value) {
            Ok(label) => {
                let label = label.trim();
                label.is_empty()
                    || label.len() > 64
                    || crate::charset::encoding_for_label(label).is_none_or(|e| e == enc)
            }
            Err(_) => true,
        };
        if ok {
            passed = value;
        }
        ok
    })
}

/// Charsets whose second byte may be 0x5C or 0x5D.
fn has_ascii_trails(enc: &'static Encoding) -> bool {
    [encoding_rs::SHIFT_JIS, encoding_rs::BIG5, encoding_rs::GBK, encoding_rs::GB18030].contains(&enc)
}

/// The length of the character starting with byte `lead` in `enc` (1 for ASCII and single
/// bytes), from the lead byte and the next one.
fn char_len(enc: &'static Encoding, lead: u8, next: Option<u8>) -> usize {
    if lead < 0x80 {
        return 1;
    }
    if enc == encoding_rs::SHIFT_JIS {
        return if matches!(lead, 0x81..=0x9F | 0xE0..=0xFC) { 2 } else { 1 };
    }
    if enc == encoding_rs::GB18030 && next.is_some_and(|b| b.is_ascii_digit()) {
        return 4;
    }
    if (0x81..=0xFE).contains(&lead) { 2 } else { 1 }
}

/// Tokenizes the game tree whose `(` is at `game` as the reader does; returns its root `CA`
/// and the offset after its closing `)` (or the end). `dbcs` is the double-byte charset whose
/// characters are skipped whole inside values. A root `CA` for which `done` holds ends the scan
/// there: its caller looks no further (the offset returned is then that of the value's end).
fn scan_game(
    bytes: &[u8],
    game: usize,
    dbcs: Option<&'static Encoding>,
    done: &impl Fn(&RootCharset) -> bool,
) -> (Option<RootCharset>, usize) {
    let mut found = None;
    let mut depth = 1usize;
    // Nodes seen in the game tree; the root is node 1.
    let mut nodes = 0usize;
    let mut in_root = false;
    let mut i = game + 1;
    let mut past_root = false;
    while i < bytes.len() {
        if nodes > 0 && !in_root {
            if !past_root {
                past_root = true;
                // No `CA[` further on: no later game can declare anything, stop here.
                if memchr::memmem::find(&bytes[i..], b"CA[").is_none() {
                    return (found, bytes.len());
                }
            }
            // Past the root only the game tree's end matters: jump to the next bracket or
            // parenthesis.
            let c = bytes[i];
            if !matches!(c, b'[' | b'(' | b')') {
                i += 1;
                continue;
            }
            if c == b'[' {
                // A move on a point followed by the next node or a parenthesis (most values past
                // the root) ends at its `]` by either rule: skipped whole.
                if let [_, a, b, b']', b';' | b'(' | b')', ..] = bytes[i..] {
                    if a.is_ascii_lowercase() && b.is_ascii_lowercase() {
                        i += 4;
                        continue;
                    }
                }
                // Every value is skipped by the text rule here: on well-formed values it ends
                // where the type's rule does, and it is the cheaper of the two.
                i = skip_value(bytes, i + 1, true, dbcs);
                continue;
            }
        }
        match bytes[i] {
            b'(' => {
                depth += 1;
                in_root = false;
                i += 1;
            }
            b')' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return (found, i);
                }
                in_root = false;
            }
            b';' => {
                nodes += 1;
                in_root = nodes == 1 && depth == 1;
                i += 1;
            }
            b'[' => i = skip_value(bytes, i + 1, true, dbcs),
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                // Properties without a `;` before them open the root (the reader does so).
                if nodes == 0 && depth == 1 {
                    nodes = 1;
                    in_root = true;
                }
                let (is_ca, vt) = identify(&bytes[start..i]);
                let textual = matches!(vt, None | Some(ValueType::Text | ValueType::SimpleText));
                let mut first = true;
                loop {
                    while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] < 0x20) {
                        i += 1;
                    }
                    if bytes.get(i) != Some(&b'[') {
                        break;
                    }
                    let end = skip_value(bytes, i + 1, textual, dbcs);
                    if first && in_root && is_ca && found.is_none() {
                        let value = bytes.get(i + 1..end.saturating_sub(1)).unwrap_or_default();
                        if let Ok(label) = std::str::from_utf8(value) {
                            let label = label.trim();
                            if !label.is_empty() && label.len() <= 64 {
                                let root = RootCharset { game, at: start, label: label.to_string() };
                                if done(&root) {
                                    return (Some(root), end);
                                }
                                found = Some(root);
                            }
                        }
                    }
                    first = false;
                    i = end;
                }
            }
            _ => i += 1,
        }
    }
    (found, bytes.len())
}

/// Whether the identifier `raw` is `CA`, and its value type, as the reader reads identifiers
/// (FF\[1\]–FF\[3\] lower-case letters dropped); one or two upper-case letters, nearly every
/// identifier, are looked up without allocating.
fn identify(raw: &[u8]) -> (bool, Option<ValueType>) {
    if let Some(slot) = props::slot(raw) {
        let k = props::lookup_table()[slot];
        return (raw == b"CA", props::PROPS.get(k as usize).map(|d| d.value));
    }
    let upper: Vec<u8> = raw.iter().copied().filter(u8::is_ascii_uppercase).collect();
    let ident = if upper.is_empty() { raw.to_ascii_uppercase() } else { upper };
    let ident = std::str::from_utf8(&ident).unwrap_or_default();
    (ident == "CA", props::lookup(ident).map(|d| d.value))
}

/// Skips a value whose text starts at `from` (after its `[`); returns the offset after its
/// closing `]` (or the end of the input). A `]` in a `textual` value that cannot end it (what
/// follows is not blanks and then `;`, `(`, `)`, `[`, the end, or an identifier and `[`) is
/// part of the text, as the reader keeps it.
fn skip_value(bytes: &[u8], from: usize, textual: bool, dbcs: Option<&'static Encoding>) -> usize {
    value_end(bytes, from, textual, dbcs, bytes.len()).unwrap_or(bytes.len())
}

/// [`skip_value`], looking for the value's end only before `limit` (at most the input's
/// length; what follows a `]` is still read in full): `None` when there is none.
fn value_end(bytes: &[u8], from: usize, textual: bool, dbcs: Option<&'static Encoding>, limit: usize) -> Option<usize> {
    let mut i = from;
    while i < limit {
        let c = bytes[i];
        match (c, dbcs) {
            (b'\\', _) => i += 2,
            (b']', _) => {
                let next = bytes.get(i + 1);
                if !textual || matches!(next, Some(b';' | b'(' | b')')) || can_follow_value(&bytes[i + 1..]) {
                    return Some(i + 1);
                }
                i += 1;
            }
            (c, Some(enc)) if c >= 0x80 => i += char_len(enc, c, bytes.get(i + 1).copied()),
            (_, None) => {
                // Most values are short (moves): look at a few bytes by hand first.
                let rest = &bytes[i..];
                if matches!(rest, [a, b, b']', ..] if a.is_ascii_lowercase() && b.is_ascii_lowercase()) {
                    i += 2;
                    continue;
                }
                let rest = &bytes[i..limit];
                let short = &rest[..rest.len().min(16)];
                match short.iter().position(|&c| c == b']' || c == b'\\') {
                    Some(k) => i += k.max(1),
                    None => match memchr::memchr2(b']', b'\\', &rest[short.len()..]) {
                        Some(k) => i += short.len() + k,
                        None => return None,
                    },
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Whether `rest` (what follows a `]`) can follow the end of a value: blanks (control characters
/// included), then `;`, `(`, `)`, `[`, the end of the input, or an identifier followed by `[`.
/// The reader's rule, shared with it.
pub(super) fn can_follow_value(rest: &[u8]) -> bool {
    let blank = |rest: &[u8]| rest.iter().position(|&c| !(c.is_ascii_whitespace() || c < 0x20)).unwrap_or(rest.len());
    let rest = &rest[blank(rest)..];
    match rest.first() {
        None | Some(b';' | b'(' | b')' | b'[') => true,
        Some(c) if c.is_ascii_alphabetic() => {
            let n = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
            let after = &rest[n..];
            after.get(blank(after)) == Some(&b'[')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(bytes: &[u8]) -> Vec<(usize, String)> {
        root_charsets(bytes).into_iter().map(|r| (r.game, r.label)).collect()
    }

    #[test]
    fn the_first_root_charset_is_the_full_scans_first() {
        let cases: &[&[u8]] = &[b"(;C[x])(;CA[x-unknown])(;CA[GBK])", b"(;PB[x])", b"(;CA [UTF-8])(;CA[GBK])"];
        for bytes in cases {
            assert_eq!(first_root_charset(bytes), root_charsets(bytes).into_iter().next());
        }
        crate::shared_files::each_shared_sgf(|path, bytes| {
            let all = root_charsets(&bytes);
            assert_eq!(first_root_charset(&bytes).as_ref(), all.first(), "{}", path.display());
            assert!(all.starts_with(&leading_root_charsets(&bytes)), "{}", path.display());
        });
    }

    #[test]
    fn bytes_without_a_ca_identifier_need_no_scan() {
        let cases: &[&[u8]] = &[
            b"(;CA[UTF-8])",
            b"(;CA \n [UTF-8])",
            b"(;ca[UTF-8])",
            b"(;CharsetA[UTF-8])",
            b"(;xCyyAz\t[GBK])",
            b"(;C[CA])",
            b"(;C[a]AC[b])",
        ];
        for bytes in cases {
            let found = !scan_games(bytes, |_| false).is_empty();
            assert!(!found || may_name_ca(bytes), "{:?}", String::from_utf8_lossy(bytes));
        }
        assert!(!may_name_ca(b"(;C[x]PC[ca]B[ca];W[Ca])"));
        crate::shared_files::each_shared_sgf(|path, bytes| {
            if !may_name_ca(&bytes) {
                assert!(scan_games(&bytes, |_| false).is_empty(), "{}", path.display());
            }
        });
    }

    #[test]
    fn only_root_ca_properties_count() {
        assert_eq!(labels(b"(;FF[4]CA[ GB2312 ]PB[x])"), [(0, "GB2312".to_string())]);
        assert_eq!(labels(b"(;XCA[no]PB[x])"), []);
        assert_eq!(labels(b"(;PB[x];CA[UTF-16])"), []);
        assert_eq!(labels(b"(;GM[1]PB[Ann]C[Tip: old tools wrote CA[UTF-16\\] here];B[pd])\n"), []);
        assert_eq!(labels(b"(;C[unescaped CA[UTF-16] here]PB[x])"), []);
        assert_eq!(labels(b"])\n(;G])\n(;GM[1CA[UTF-16]];B[ac];"), []);
        assert_eq!(labels(b"CA[GBK] (;C[x])"), []);
        assert_eq!(labels(b"(CA[Big5]C[x])"), [(0, "Big5".to_string())]);
        assert_eq!(labels(b"(;C[a]CA[UTF-8])(;CA[EUC-KR])"), [(0, "UTF-8".into()), (16, "EUC-KR".into())]);
        assert_eq!(labels(b"(;C[x](;CA[GBK]))"), []);
        // A game tree inside a later comment is text, not a game.
        let text = b"(;CA[UTF-8]PB[a];C[x (;CA[GBK]) y];B[aa])(;CA[Big5])";
        assert_eq!(labels(text), [(0, "UTF-8".into()), (41, "Big5".into())]);
    }

    #[test]
    fn every_label_names_refuses_what_the_literal_check_lets_pass() {
        let utf8 = encoding_rs::UTF_8;
        let repeated = b"(;CA[UTF-8]PB[a])(;CA[ utf-8 ]C[x CA[UTF-8] y])";
        assert!(every_label_names(repeated, utf8) && literal_labels_name(repeated, utf8));
        assert!(every_label_names(b"(;PB[no declaration])", utf8));
        // An unknown label, or one not closed within 64 bytes, may hide a root declaration.
        let unknown = b"(;CA[x-unknown]PB[a])";
        assert!(!every_label_names(unknown, utf8) && literal_labels_name(unknown, utf8));
        let far = format!("(;CA[{}GBK]PB[a])", " ".repeat(70));
        assert!(!every_label_names(far.as_bytes(), utf8) && literal_labels_name(far.as_bytes(), utf8));
        let other = b"(;CA[UTF-8])(;CA[GBK])";
        assert!(!every_label_names(other, utf8) && !literal_labels_name(other, utf8));
    }

    /// What [`declares_only`] promises: every root label the scan finds is unknown or names
    /// `enc`.
    fn only_enc_in_roots(bytes: &[u8], enc: &'static Encoding) -> bool {
        root_charsets(bytes).iter().all(|r| crate::charset::encoding_for_label(&r.label).is_none_or(|e| e == enc))
    }

    #[test]
    fn declares_only_is_what_the_scan_finds() {
        let utf8 = encoding_rs::UTF_8;
        let yes: &[&[u8]] = &[
            b"(;CA[UTF-8]B[aa])(;CA[utf-8]C[x])(;CA[ UTF-8 ]PB[a])",
            b"(;CA[UTF-8])(;CA[x-unknown])(;C[a]CA[UTF8])",
            b"(;CA[UTF-8]C[caf\xe9 \xff])",
            b"(;PB[no declaration];B[ca];W[cA])",
            b"(;CA[UTF-8]C[unterminated",
            // In a comment, a `]` that cannot end a value: as a root's, the label is unknown.
            b"(;CA[UTF-8])(;C[x CA[EUC-KR] y])",
        ];
        let no: &[&[u8]] = &[
            b"(;CA[UTF-8])(;CA[GBK])",
            b"(;CA[UTF-8])(;CA \n[EUC-KR])",
            b"(;CA[UTF-8])(;ca[EUC-KR])",
            b"(;CA[UTF-8])(;CharsetA[EUC-KR])",
            // In a comment: not a root, but the check does not tokenize.
            b"(;CA[UTF-8])(;C[x CA[EUC-KR]PB[y] z])",
            // A Shift_JIS trail byte `\` hides the `]` of PB: the scan reads the game again.
            b"(;CA[UTF-8]PB[\x90\x5C]CA[SJIS]PW[x])",
            b"(;CA[UTF-8])(;CA[Big5 ]C[x])",
        ];
        for bytes in yes {
            assert!(declares_only(bytes, utf8), "{:?}", String::from_utf8_lossy(bytes));
            assert!(only_enc_in_roots(bytes, utf8));
        }
        for bytes in no {
            assert!(!declares_only(bytes, utf8), "{:?}", String::from_utf8_lossy(bytes));
        }
        // The label is the value as the reader ends it: `]B` cannot end it.
        let odd = b"(;CA[UTF-8])(;CA[UTF-16]BE])";
        assert_eq!(labels(odd)[1].1, "UTF-16]BE");
        assert!(!declares_only(odd, utf8) && !declares_only(odd, encoding_rs::UTF_16LE));
        // A value longer than the check reads: unsure.
        let long = format!("(;CA[UTF-8])(;C[x CA[{}])", "y]z ".repeat(2000));
        assert!(!declares_only(long.as_bytes(), utf8));
        // A double-byte charset is never vouched for.
        assert!(!declares_only(b"(;CA[GBK]C[x])", encoding_rs::GBK));
    }

    #[test]
    fn declares_only_never_hides_a_root_declaration() {
        let pieces: [&[u8]; 24] = [
            b"(;",
            b"(",
            b")",
            b";",
            b"CA[",
            b"ca[",
            b"CA [",
            b"CxA[",
            b"]",
            b"\\",
            b"UTF-8",
            b"GBK",
            b"EUC-KR",
            b"SJIS",
            b"x-unknown",
            b"C[",
            b"PB[",
            b";B[pd]",
            b" ",
            b"\x90\x5C",
            b"\xA5\x5D",
            b"UTF-16",
            b"BE]",
            b"\n",
        ];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let encs = [encoding_rs::UTF_8, encoding_rs::EUC_KR, encoding_rs::WINDOWS_1252, encoding_rs::UTF_16BE];
        let mut vouched = 0;
        for _ in 0..20_000 {
            let mut bytes = b"(;CA[UTF-8]".to_vec();
            for _ in 0..next(24) {
                bytes.extend_from_slice(pieces[next(pieces.len())]);
            }
            for enc in encs {
                if declares_only(&bytes, enc) {
                    vouched += 1;
                    assert!(only_enc_in_roots(&bytes, enc), "{enc:?}: {:?}", String::from_utf8_lossy(&bytes));
                }
            }
        }
        assert!(vouched > 1000, "{vouched}");
        crate::shared_files::each_shared_sgf(|path, bytes| {
            for enc in encs {
                if declares_only(&bytes, enc) {
                    assert!(only_enc_in_roots(&bytes, enc), "{enc:?}: {}", path.display());
                }
            }
        });
    }

    #[test]
    fn double_byte_trail_bytes_do_not_end_values() {
        // 申 = 90 5C in Shift_JIS; 功 = A5 5C in Big5.
        let sjis = b"(;PB[\x90\x5C]CA[SJIS]PW[x])";
        assert_eq!(labels(sjis), [(0, "SJIS".to_string())]);
        let big5 = b"(;CA[Big5]PB[\xA5\x5C]C[CA[GBK]];B[aa])";
        assert_eq!(labels(big5), [(0, "Big5".to_string())]);
    }
}
