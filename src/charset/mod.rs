//! The charset layer shared by every reader and writer.
//!
//! Reading decides the charset in a fixed order and records how it decided
//! ([`CharsetDecision`]): a byte-order mark, a user override, a charset the file declares (SGF
//! `CA`, GIB `GIBOKIND`, UGF `Lang`), a declaration that turns out to be wrong, and detection
//! (valid UTF-8, else chardetng) for files that declare nothing. The whole input is decoded
//! before any grammar sees it, so multi-byte characters whose trail byte is `\` or `]`
//! (Shift_JIS, Big5) never break a value. Writing encodes UTF-8 by default, or a legacy charset
//! on request, reporting characters the target cannot hold. Specification:
//! [`formats/charsets.md`](crate::spec::charsets).
//!
//! Files: `labels.rs` (alias table, written names), `detect.rs` (UTF-8 damage, UTF-16 without
//! BOM, chardetng, script-coherence tie-break), `encode.rs` (writing), this file (the decision).

mod detect;
mod encode;
mod freq;
mod labels;

pub(crate) use detect::{Utf8Stats, coherence, coherent_cjk, detect_legacy, legacy_score, other_reading, utf8_score};
pub use detect::{sniff_utf16, suspicious_utf8};
pub(crate) use encode::encode_output;
pub use encode::{encode, writable};
pub use labels::{ALIASES, ca_label, encoding_for_label};

use crate::diag::{Diagnostic, Sink};
use encoding_rs::{DecoderResult, Encoding};
use std::fmt;

/// Diagnostic codes of the charset layer.
pub mod codes {
    /// The declared charset label is not known; the charset was detected instead.
    pub const UNKNOWN_LABEL: &str = "charset.unknown-label";
    /// The declared charset does not fit the bytes; another charset was used.
    pub const MISMATCH: &str = "charset.mismatch";
    /// Some bytes are invalid in the charset used; they are shown as U+FFFD.
    pub const INVALID_BYTES: &str = "charset.invalid-bytes";
    /// Characters the output charset cannot hold (written as `?`).
    pub const UNMAPPABLE: &str = "charset.unmappable";
    /// A player name that the charset detected for its file turned into nonsense reads as a
    /// name in another charset (EUC-KR names beside a GBK comment, no `CA`): warned, with the
    /// name in that charset and the `--from-encoding` that reads it (warning).
    pub const NAMES_DISAGREE: &str = "charset.names-disagree";
    /// An output charset kifu does not write: a stateful one (ISO-2022-JP) whose byte pairs
    /// include `]` and `\` (error).
    pub const UNWRITABLE: &str = "charset.unwritable";
    /// How the charset was decided (informational).
    pub const DECIDED: &str = "charset.decided";
    /// The games of one SGF collection declare different charsets; each part was decoded with
    /// its own.
    pub const MIXED: &str = "charset.mixed";
    /// A NUL character (byte 00 in an 8-bit charset, U+0000 in UTF-16) in the text; kept as
    /// U+FFFD, since no text format can hold it.
    pub const NUL: &str = "charset.nul";
}

/// How the charset of an input was decided.
///
/// ```
/// use kifu::charset::CharsetSource;
/// let declared = kifu::read(&b"(;CA[UTF-8]PB[x])"[..]).unwrap().charset.unwrap();
/// assert_eq!(declared.source, CharsetSource::Declared);
/// let bom = kifu::read(&b"\xEF\xBB\xBF(;PB[x])"[..]).unwrap().charset.unwrap();
/// assert_eq!(bom.source, CharsetSource::Bom);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharsetSource {
    /// A byte-order mark.
    Bom,
    /// The user named it (`--from-encoding`).
    Override,
    /// The file declared it (SGF `CA`, GIB `GIBOKIND`, UGF `Lang`).
    Declared,
    /// Detected from the bytes (valid UTF-8, or statistical detection).
    Detected,
}

impl CharsetSource {
    /// `bom`, `override`, `declared` or `detected`.
    pub fn as_str(self) -> &'static str {
        match self {
            CharsetSource::Bom => "bom",
            CharsetSource::Override => "override",
            CharsetSource::Declared => "declared",
            CharsetSource::Detected => "detected",
        }
    }
}

impl fmt::Display for CharsetSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which charset an input was decoded with, and why.
///
/// ```
/// let read = kifu::read_path("fixtures/gib/korean-euc-kr.gib").unwrap();
/// let decision = read.charset.unwrap();
/// assert_eq!(decision.name(), "EUC-KR");
/// println!("{} ({}: {})", decision.name(), decision.source, decision.reason);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CharsetDecision {
    /// The charset used.
    pub encoding: &'static Encoding,
    /// How it was chosen.
    pub source: CharsetSource,
    /// Why, in a few words (`declared charset`, `valid UTF-8`, `declaration does not fit; …`).
    pub reason: &'static str,
}

impl CharsetDecision {
    /// A decision: `encoding`, chosen from `source`, for `reason`.
    ///
    /// ```
    /// use kifu::charset::{CharsetDecision, CharsetSource};
    /// let d = CharsetDecision::new(encoding_rs::EUC_KR, CharsetSource::Declared, "declared charset");
    /// assert_eq!(d.name(), "EUC-KR");
    /// ```
    pub fn new(encoding: &'static Encoding, source: CharsetSource, reason: &'static str) -> CharsetDecision {
        CharsetDecision { encoding, source, reason }
    }

    /// The charset's canonical name (`UTF-8`, `EUC-KR`, `Shift_JIS`, `GBK`, …).
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// The decision as an informational diagnostic, `charset.decided`:
    /// `charset GBK (detected: not UTF-8; chardetng and script coherence)`. Readers record the
    /// decision in `ReadOutput::charset`; front ends show this note (`kifu convert -v`).
    pub fn note(&self) -> Diagnostic {
        Diagnostic::info(
            codes::DECIDED,
            format!("charset {} ({}: {})", ca_label(self.encoding), self.source, self.reason),
        )
    }
}

/// Decoded text and the decision behind it.
#[derive(Debug)]
pub struct Decoded {
    /// The whole input as UTF-8 text, without a byte-order mark.
    pub text: String,
    /// The charset and how it was chosen.
    pub decision: CharsetDecision,
}

/// One malformed byte sequence met while decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Damage {
    /// Byte offset of the U+FFFD that stands for it in the decoded text.
    pub offset: usize,
    /// The malformed bytes.
    pub bytes: Vec<u8>,
}

/// Decodes `bytes` with `enc` (no BOM handling), replacing each malformed sequence with U+FFFD;
/// returns the text and where each replacement is.
pub(crate) fn decode_marking(enc: &'static Encoding, bytes: &[u8]) -> (String, Vec<Damage>) {
    decode_marking_after(enc, bytes, 0)
}

/// [`decode_marking`] of `bytes` whose first `valid` bytes are known to be valid UTF-8.
fn decode_marking_after(enc: &'static Encoding, bytes: &[u8], valid: usize) -> (String, Vec<Damage>) {
    let mut damage = Vec::new();
    if enc == encoding_rs::UTF_8 {
        // The runs start where the text stops being valid (found again otherwise).
        let start = match std::str::from_utf8(&bytes[valid..]) {
            Ok(s) if valid == 0 => return (s.to_string(), damage),
            Ok(_) => bytes.len(),
            Err(e) => valid + e.valid_up_to(),
        };
        let marks = detect::Utf8Runs::new(&bytes[start..]).scan(start, |at, (valid, invalid)| {
            *at += valid.len() + invalid.len();
            Some((*at - invalid.len(), invalid.len()))
        });
        return utf8_marked(bytes, marks.filter(|&(_, n)| n > 0));
    }
    let mut decoder = enc.new_decoder_without_bom_handling();
    let cap = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(bytes.len() * 3);
    let mut out = String::with_capacity(cap + 16);
    let mut consumed = 0;
    loop {
        let input = bytes.get(consumed..).unwrap_or(&[]);
        let (res, read) = decoder.decode_to_string_without_replacement(input, &mut out, true);
        consumed += read;
        match res {
            DecoderResult::InputEmpty => break,
            DecoderResult::Malformed(len, extra) => {
                let end = consumed.saturating_sub(extra as usize);
                let start = end.saturating_sub(len as usize);
                damage.push(Damage { offset: out.len(), bytes: bytes.get(start..end).unwrap_or(&[]).to_vec() });
                out.push('\u{FFFD}');
            }
            DecoderResult::OutputFull => out.reserve(bytes.len().saturating_sub(consumed) * 3 + 16),
        }
    }
    (out, damage)
}

/// `bytes` as UTF-8 whose malformed sequences are `marks` (start, length; in order, as
/// [`Utf8Stats::measure`] finds them), each replaced with U+FFFD: the text and where each
/// replacement is.
fn utf8_marked(bytes: &[u8], marks: impl IntoIterator<Item = (usize, usize)>) -> (String, Vec<Damage>) {
    let mut damage = Vec::new();
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut from = 0;
    for (start, len) in marks {
        out.extend_from_slice(&bytes[from..start]);
        damage.push(Damage { offset: out.len(), bytes: bytes[start..start + len].to_vec() });
        out.extend_from_slice("\u{FFFD}".as_bytes());
        from = start + len;
    }
    out.extend_from_slice(&bytes[from..]);
    // Valid runs and replacement characters: always UTF-8.
    let text = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, damage)
}

/// [`utf8_marked`] of bytes it owns: the replacements are made in place (the text after a
/// malformed sequence shorter than U+FFFD's three bytes moves right, once), so that a large
/// damaged file is not copied into a second buffer of its size.
fn utf8_marked_owned(mut bytes: Vec<u8>, marks: &[(usize, usize)]) -> (String, Vec<Damage>) {
    const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();
    // Every malformed sequence is at most three bytes (a cut character, or one byte), so the
    // text only grows; the marks ascend and lie within the bytes.
    let fits = marks.iter().all(|&(start, len)| len <= REPLACEMENT.len() && start + len <= bytes.len())
        && marks.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0);
    if !fits {
        return utf8_marked(&bytes, marks.iter().copied());
    }
    let grow: usize = marks.iter().map(|&(_, len)| REPLACEMENT.len() - len).sum();
    let mut end = bytes.len();
    bytes.resize(end + grow, 0);
    // From the last mark back: the text after each moves by the growth of the marks up to it.
    let mut shift = grow;
    let mut damage = Vec::with_capacity(marks.len());
    for &(start, len) in marks.iter().rev() {
        bytes.copy_within(start + len..end, start + len + shift);
        let bad = bytes[start..start + len].to_vec();
        shift -= REPLACEMENT.len() - len;
        bytes[start + shift..start + shift + REPLACEMENT.len()].copy_from_slice(REPLACEMENT);
        damage.push(Damage { offset: start + shift, bytes: bad });
        end = start;
    }
    damage.reverse();
    // Valid runs and replacement characters: always UTF-8.
    let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, damage)
}

/// [`decode_marking_after`] of bytes it owns: UTF-8 is marked in place.
fn decode_marking_after_owned(enc: &'static Encoding, bytes: Vec<u8>, valid: usize) -> (String, Vec<Damage>) {
    if enc != encoding_rs::UTF_8 {
        return decode_marking_after(enc, &bytes, valid);
    }
    let start = match std::str::from_utf8(&bytes[valid..]) {
        Ok(_) if valid == 0 => {
            let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            return (text, Vec::new());
        }
        Ok(_) => bytes.len(),
        Err(e) => valid + e.valid_up_to(),
    };
    let marks: Vec<(usize, usize)> = detect::Utf8Runs::new(&bytes[start..])
        .scan(start, |at, (valid, invalid)| {
            *at += valid.len() + invalid.len();
            Some((*at - invalid.len(), invalid.len()))
        })
        .filter(|&(_, n)| n > 0)
        .collect();
    utf8_marked_owned(bytes, &marks)
}

/// Decodes `bytes` with `enc`, replacing each malformed sequence with U+FFFD; returns the text
/// and the number of malformed sequences.
pub(crate) fn decode_counting(enc: &'static Encoding, bytes: &[u8]) -> (String, usize) {
    let (text, damage) = decode_marking(enc, bytes);
    (text, damage.len())
}

fn clean(enc: &'static Encoding, bytes: &[u8]) -> bool {
    enc.decode_without_bom_handling_and_without_replacement(bytes).is_some()
}

/// The decision for input that is valid UTF-8 and can be taken as it is (no BOM, no UTF-16
/// pattern: the caller checks), or `None` when the full decision must run (a declaration or
/// override that disagrees with UTF-8, an unknown label).
fn as_is(text: &str, override_enc: Option<&'static Encoding>, declared: Option<&str>) -> Option<CharsetDecision> {
    let ascii = text.is_ascii();
    let fits = |enc: &'static Encoding| enc == encoding_rs::UTF_8 || (ascii && enc.is_ascii_compatible());
    if let Some(enc) = override_enc {
        return fits(enc).then_some(CharsetDecision {
            encoding: enc,
            source: CharsetSource::Override,
            reason: OVERRIDE,
        });
    }
    match declared {
        None if !ascii && suspicious_utf8(text) => None,
        None => Some(CharsetDecision {
            encoding: encoding_rs::UTF_8,
            source: CharsetSource::Detected,
            reason: if ascii { ASCII } else { VALID_UTF8 },
        }),
        Some(label) => {
            let enc = encoding_for_label(label)?;
            fits(enc).then_some(CharsetDecision { encoding: enc, source: CharsetSource::Declared, reason: DECLARED })
        }
    }
}

/// Decides the charset of `bytes` and decodes them.
///
/// `override_enc` is the user's choice; `declared` the label the file itself carries (found on
/// the raw bytes by the format's reader). The decision order is documented in
/// [`formats/charsets.md`](crate::spec::charsets): BOM, override, UTF-16 pattern, declaration (checked against the
/// bytes), then valid UTF-8, damaged UTF-8, and chardetng with the script-coherence tie-break.
/// Diagnostics go to `sink`, placed at offsets of the decoded text: `charset.mismatch` /
/// `charset.unknown-label` when the declaration was not used, `charset.invalid-bytes` at each
/// U+FFFD the decoding had to put in. The decision itself is returned ([`CharsetDecision::note`]
/// makes it a `charset.decided` info diagnostic).
pub fn decode(
    bytes: &[u8],
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> Decoded {
    decode_after(bytes, 0, override_enc, declared, sink)
}

/// [`decode`] of `bytes` whose first `valid` bytes are known to be valid UTF-8 (they are not
/// validated again).
fn decode_after(
    bytes: &[u8],
    valid: usize,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> Decoded {
    let (decision, body, marks) = decide(bytes, valid, override_enc, declared, sink);
    // UTF-8 whose malformed sequences the decision found is not validated again to find them.
    let (text, damage) = match marks {
        Some(marks) if decision.encoding == encoding_rs::UTF_8 => utf8_marked(body, marks),
        // (The body is `bytes` without a byte-order mark.)
        _ => decode_marking_after(decision.encoding, body, valid.saturating_sub(bytes.len() - body.len())),
    };
    finish_decoding(text, damage, decision, sink)
}

/// [`decode_after`] of bytes it owns: damaged UTF-8 without a byte-order mark is repaired in
/// place (no second buffer of the input's size).
fn decode_after_owned(
    bytes: Vec<u8>,
    valid: usize,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> Decoded {
    let (decision, body, marks) = decide(&bytes, valid, override_enc, declared, sink);
    let skip = bytes.len() - body.len();
    let (text, damage) = match marks {
        Some(marks) if decision.encoding == encoding_rs::UTF_8 && skip == 0 => utf8_marked_owned(bytes, &marks),
        Some(marks) if decision.encoding == encoding_rs::UTF_8 => utf8_marked(&bytes[skip..], marks),
        _ if skip == 0 => decode_marking_after_owned(decision.encoding, bytes, valid),
        _ => decode_marking_after(decision.encoding, &bytes[skip..], valid.saturating_sub(skip)),
    };
    finish_decoding(text, damage, decision, sink)
}

/// The end of a decoding: NULs marked, each replacement reported where it is.
fn finish_decoding(text: String, damage: Vec<Damage>, decision: CharsetDecision, sink: &mut Sink) -> Decoded {
    // Each NUL before a damaged place becomes U+FFFD, two bytes longer: the place moves.
    let nul = memchr::memchr(0, text.as_bytes()).is_some();
    let nuls: Vec<usize> =
        if damage.is_empty() || !nul { Vec::new() } else { memchr::memchr_iter(0, text.as_bytes()).collect() };
    let text = if nul { mark_nul(text, sink) } else { text };
    let name = ca_label(decision.encoding);
    for mut d in damage {
        d.offset += 2 * nuls.partition_point(|&n| n < d.offset);
        let hex: Vec<String> = d.bytes.iter().map(|b| format!("{b:02X}")).collect();
        sink.push_at(
            d.offset,
            Diagnostic::warning(
                codes::INVALID_BYTES,
                format!("bytes {} are not valid {name}; kept as U+FFFD", hex.join(" ")),
            ),
        );
    }
    Decoded { text, decision }
}

/// At most this many malformed UTF-8 sequences are remembered from the decision for decoding
/// (more: the decoding finds them again; legacy text read as UTF-8 has one every few bytes).
const MARKS_KEPT: usize = 4096;

// Reasons recorded in a `CharsetDecision`.
const BOM: &str = "byte-order mark";
const OVERRIDE: &str = "--from-encoding";
const UTF16_PATTERN: &str = "UTF-16 byte pattern, no byte-order mark";
const DECLARED: &str = "declared charset";
const DECLARED_DAMAGED: &str = "declared charset, some characters damaged";
const DECLARED_UNFIT: &str = "declared charset, although no charset fits every byte";
const UNFIT_CJK: &str = "a single-byte declaration on coherent CJK text; script coherence";
const UNFIT_UTF8: &str = "the declaration does not fit; the text is UTF-8";
const UNFIT_DETECTED: &str = "the declaration does not fit; chardetng and script coherence";
const ISO2022JP: &str = "ISO-2022-JP escape sequences";
const ASCII: &str = "the text is ASCII";
const VALID_UTF8: &str = "valid UTF-8";
const ACCIDENTAL_UTF8: &str = "short text, valid UTF-8 by accident; chardetng and script coherence";
const DAMAGED_UTF8: &str = "UTF-8, some characters damaged";
const DETECTED: &str = "not UTF-8; chardetng and script coherence";

fn decide<'b>(
    bytes: &'b [u8],
    valid: usize,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> (CharsetDecision, &'b [u8], Option<detect::Marks>) {
    let pick = |encoding, source, reason| CharsetDecision { encoding, source, reason };
    let declared_enc = declared.and_then(encoding_for_label);
    // 1. A byte-order mark.
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        if let (Some(label), Some(d)) = (declared, declared_enc) {
            if d != enc {
                sink.push(Diagnostic::warning(
                    codes::MISMATCH,
                    format!(
                        "the file declares '{label}' but starts with a {} byte-order mark; read as {}",
                        enc.name(),
                        enc.name()
                    ),
                ));
            }
        }
        return (pick(enc, CharsetSource::Bom, BOM), bytes.get(bom_len..).unwrap_or(&[]), None);
    }
    // 2. The user's override.
    if let Some(enc) = override_enc {
        return (pick(enc, CharsetSource::Override, OVERRIDE), bytes, None);
    }
    // UTF-16 without a BOM: no declaration inside it can be read from the raw bytes.
    if let Some(enc) = sniff_utf16(bytes) {
        if clean(enc, bytes) {
            return (pick(enc, CharsetSource::Detected, UTF16_PATTERN), bytes, None);
        }
    }
    let ascii = bytes.is_ascii();
    // From here on the body is `bytes`, whose malformed UTF-8 sequences `marks` holds.
    let (stats, marks) =
        if ascii { (Utf8Stats::default(), None) } else { Utf8Stats::measure_after(bytes, valid, MARKS_KEPT) };
    // 3. A declaration, checked against the bytes.
    if let Some(label) = declared {
        match declared_enc {
            None => sink.push(Diagnostic::warning(
                codes::UNKNOWN_LABEL,
                format!("unknown charset '{label}'; the charset is detected instead"),
            )),
            Some(enc) if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE => {
                // The label was read from the raw bytes as ASCII, so they are not UTF-16 (a
                // UTF-16 file without a BOM was recognised above).
                sink.push(Diagnostic::warning(
                    codes::MISMATCH,
                    format!("the file declares '{label}' but is not UTF-16 (the declaration itself is 8-bit text); the charset is detected instead"),
                ));
            }
            Some(enc) => {
                if ascii && enc.is_ascii_compatible() {
                    return (pick(enc, CharsetSource::Declared, DECLARED), bytes, marks);
                }
                // 4. A declaration that does not fit.
                let utf8_like = stats.is_valid() || (stats.is_damaged_utf8() && stats.good >= 2);
                if enc != encoding_rs::UTF_8 && utf8_like && stats.good > 0 {
                    // Multi-byte UTF-8 is almost never legacy text by accident.
                    sink.push(Diagnostic::warning(
                        codes::MISMATCH,
                        format!("the file declares '{label}' but its text is UTF-8; read as UTF-8"),
                    ));
                    return (pick(encoding_rs::UTF_8, CharsetSource::Detected, UNFIT_UTF8), bytes, marks);
                }
                // Latin-1 decodes any byte: a single-byte declaration on coherent double-byte
                // CJK text is caught by script coherence.
                if enc.is_single_byte() && !ascii {
                    if let Some(cjk) = coherent_cjk(bytes, enc) {
                        sink.push(Diagnostic::warning(
                            codes::MISMATCH,
                            format!(
                                "the file declares '{label}' but its bytes are coherent {} text; read as {}",
                                ca_label(cjk),
                                ca_label(cjk)
                            ),
                        ));
                        return (pick(cjk, CharsetSource::Detected, UNFIT_CJK), bytes, marks);
                    }
                }
                // (For UTF-8 the measure says it: the same validation.)
                let fits = if enc == encoding_rs::UTF_8 { stats.is_valid() } else { clean(enc, bytes) };
                if fits {
                    return (pick(enc, CharsetSource::Declared, DECLARED), bytes, marks);
                }
                if enc == encoding_rs::UTF_8 && stats.is_damaged_utf8() {
                    return (pick(enc, CharsetSource::Declared, DECLARED_DAMAGED), bytes, marks);
                }
                // Declared UTF-8 with valid characters and some damage: it stands unless a
                // legacy reading fits the file far better (decided by how much of the file each
                // reading decodes cleanly and coherently, not all or nothing).
                if enc == encoding_rs::UTF_8 && stats.good > 0 {
                    let guess = detect_legacy(bytes);
                    let utf8 = utf8_score(bytes);
                    let legacy = legacy_score(bytes, guess);
                    if !clean(guess, bytes) || legacy <= utf8 + (utf8.abs() / 2).max(8) {
                        return (pick(enc, CharsetSource::Declared, DECLARED_DAMAGED), bytes, marks);
                    }
                }
                // A few damaged characters in a long text do not make the declaration wrong,
                // unless another charset reads every byte and reads far better (GBK declared as
                // Big5 decodes with one error in fifty characters, as nonsense).
                let (text, damage) = decode_marking(enc, bytes);
                let non_ascii = text.chars().filter(|&c| !c.is_ascii() && c != '\u{FFFD}').count();
                let minor = damage.len() <= (non_ascii / 50).max(1) && non_ascii > damage.len();
                let guess = detect_legacy(bytes);
                let alternative =
                    if guess == enc { None } else { guess.decode_without_bom_handling_and_without_replacement(bytes) };
                if let Some(alt) = alternative {
                    let declared_score = coherence(&text, enc);
                    let far_better = coherence(&alt, guess) > declared_score + (declared_score.abs() / 2).max(8);
                    if !minor || far_better {
                        sink.push(Diagnostic::warning(
                            codes::MISMATCH,
                            format!(
                                "the file declares '{label}' but its bytes are not valid {}; they are valid {}, read as that",
                                ca_label(enc),
                                ca_label(guess)
                            ),
                        ));
                        return (pick(guess, CharsetSource::Detected, UNFIT_DETECTED), bytes, marks);
                    }
                }
                if minor {
                    return (pick(enc, CharsetSource::Declared, DECLARED_DAMAGED), bytes, marks);
                }
                if enc != encoding_rs::UTF_8 && stats.is_damaged_utf8() {
                    sink.push(Diagnostic::warning(
                        codes::MISMATCH,
                        format!(
                            "the file declares '{label}' but its text is UTF-8 (with damaged characters); read as UTF-8"
                        ),
                    ));
                    return (pick(encoding_rs::UTF_8, CharsetSource::Detected, UNFIT_UTF8), bytes, marks);
                }
                return (pick(enc, CharsetSource::Declared, DECLARED_UNFIT), bytes, marks);
            }
        }
    }
    // 5. Nothing usable declared.
    if ascii {
        if memchr::memchr(0x1B, bytes).is_some() {
            let guess = detect_legacy(bytes);
            if guess == encoding_rs::ISO_2022_JP && clean(guess, bytes) {
                return (pick(guess, CharsetSource::Detected, ISO2022JP), bytes, marks);
            }
        }
        return (pick(encoding_rs::UTF_8, CharsetSource::Detected, ASCII), bytes, marks);
    }
    if stats.is_valid() {
        // (More than 8 non-ASCII characters are never suspicious: no need to look.)
        if stats.good <= 8 && suspicious_utf8(std::str::from_utf8(bytes).unwrap_or_default()) {
            let guess = detect_legacy(bytes);
            if let Some(legacy) = guess.decode_without_bom_handling_and_without_replacement(bytes) {
                if coherence(&legacy, guess) > 0 {
                    return (pick(guess, CharsetSource::Detected, ACCIDENTAL_UTF8), bytes, marks);
                }
            }
        }
        return (pick(encoding_rs::UTF_8, CharsetSource::Detected, VALID_UTF8), bytes, marks);
    }
    // Damaged UTF-8 with many good characters is UTF-8; with few (a short name: Big5 簡 is
    // valid UTF-8 "²", then 麗 a cut character), the reading that fits more of the file wins.
    if stats.is_damaged_utf8() && stats.good >= 8 {
        return (pick(encoding_rs::UTF_8, CharsetSource::Detected, DAMAGED_UTF8), bytes, marks);
    }
    let guess = detect_legacy(bytes);
    // Some valid multi-byte UTF-8 and some damage: the reading that fits more of the file wins.
    if stats.good > 0 && utf8_score(bytes) >= legacy_score(bytes, guess) {
        return (pick(encoding_rs::UTF_8, CharsetSource::Detected, DAMAGED_UTF8), bytes, marks);
    }
    (pick(guess, CharsetSource::Detected, DETECTED), bytes, marks)
}

/// Replaces each U+0000 of `text` with U+FFFD, with a `charset.nul` error at its place: no text
/// format holds a NUL character (a writer would have to refuse it), so it is damage, reported
/// where it was met like an invalid byte sequence.
fn mark_nul(text: String, sink: &mut Sink) -> String {
    if memchr::memchr(0, text.as_bytes()).is_none() {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in text.split('\0').enumerate() {
        if i > 0 {
            sink.push_at(
                out.len(),
                Diagnostic::error(codes::NUL, "a NUL character (U+0000) in the text; kept as U+FFFD"),
            );
            out.push('\u{FFFD}');
        }
        out.push_str(part);
    }
    out
}

/// Like [`decode`] but takes ownership, so valid UTF-8 input is not copied.
pub fn decode_owned(
    bytes: Vec<u8>,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> Decoded {
    match taken_as_is(bytes, override_enc, declared) {
        Ok(Decoded { text, decision }) => Decoded { text: mark_nul(text, sink), decision },
        Err(rest) => decode_after_owned(rest.bytes, rest.valid, override_enc, declared, sink),
    }
}

/// Bytes [`decode_owned_as_is`] did not take as they are, with what it learnt of them.
#[derive(Debug)]
pub(crate) struct Undecoded {
    /// The input.
    pub(crate) bytes: Vec<u8>,
    /// How many bytes at the start are known to be valid UTF-8.
    valid: usize,
    /// Not tried as they are (a NUL to mark).
    untried: bool,
}

impl Undecoded {
    /// [`decode_owned`] of these bytes, with the override and declaration they were tried with
    /// (the part known to be valid UTF-8 is not validated again).
    pub(crate) fn decode(
        self,
        override_enc: Option<&'static Encoding>,
        declared: Option<&str>,
        sink: &mut Sink,
    ) -> Decoded {
        if self.untried {
            return decode_owned(self.bytes, override_enc, declared, sink);
        }
        decode_after_owned(self.bytes, self.valid, override_enc, declared, sink)
    }
}

/// [`decode_owned`] when its result is the input itself (valid UTF-8 taken as it is, no NUL
/// to mark, so nothing reported): the text, byte for byte the input, and the decision.
/// Otherwise the bytes are handed back undecoded ([`Undecoded::decode`] goes on).
pub(crate) fn decode_owned_as_is(
    bytes: Vec<u8>,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
) -> Result<Decoded, Undecoded> {
    if memchr::memchr(0, &bytes).is_some() {
        return Err(Undecoded { bytes, valid: 0, untried: true });
    }
    taken_as_is(bytes, override_enc, declared)
}

/// Valid UTF-8 without a byte-order mark or the UTF-16 pattern that [`as_is`] takes as it is
/// (NULs not yet marked); otherwise the bytes back, with how much of them is valid UTF-8.
fn taken_as_is(
    bytes: Vec<u8>,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
) -> Result<Decoded, Undecoded> {
    if Encoding::for_bom(&bytes).is_some() || sniff_utf16(&bytes).is_some() {
        return Err(Undecoded { bytes, valid: 0, untried: false });
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        Undecoded { bytes: e.into_bytes(), valid, untried: false }
    })?;
    match as_is(&text, override_enc, declared) {
        Some(decision) => Ok(Decoded { text, decision }),
        None => {
            let valid = text.len();
            Err(Undecoded { bytes: text.into_bytes(), valid, untried: false })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;

    /// Decodes and returns the warnings and errors (the info note is checked separately).
    fn dec(bytes: &[u8], declared: Option<&str>) -> (Decoded, Vec<Diagnostic>) {
        let mut sink = Sink::new();
        let d = decode(bytes, None, declared, &mut sink);
        let diags = sink.finish(&d.text);
        assert!(diags.iter().all(|d| d.severity > Severity::Info), "{diags:?}");
        assert!(!d.decision.reason.is_empty());
        (d, diags)
    }

    fn codes_of(diags: &[Diagnostic]) -> Vec<&'static str> {
        diags.iter().map(|d| d.code).collect()
    }

    fn enc(e: &'static Encoding, s: &str) -> Vec<u8> {
        e.encode(s).0.into_owned()
    }

    #[test]
    fn damage_after_a_nul_is_reported_where_its_replacement_is() {
        // Found by tests/charset.rs's property test: the NUL's U+FFFD moved the damage.
        let bytes = [0xC2, 0x80, 1, 1, 0, 1, 0, 0x80, 0];
        let mut sink = Sink::new();
        let d = decode(&bytes, None, None, &mut sink);
        let diags = sink.finish(&d.text);
        let damage: Vec<usize> =
            diags.iter().filter(|x| x.code == codes::INVALID_BYTES).map(|x| x.position.unwrap().offset).collect();
        assert!(!damage.is_empty());
        for at in damage {
            assert!(d.text[at..].starts_with('\u{FFFD}'), "no U+FFFD at {at} in {:?}", d.text);
        }
    }

    #[test]
    fn a_nul_character_is_kept_as_a_replacement_and_reported_where_it_is() {
        let mut korean = enc(encoding_rs::EUC_KR, "(;CA[EUC-KR]PB[이세돌]N[");
        korean.extend_from_slice(b"\0x])");
        for (bytes, text) in [
            (b"(;N[\0illegal]\nC[a\0])".to_vec(), "(;N[\u{FFFD}illegal]\nC[a\u{FFFD}])"),
            (korean, "(;CA[EUC-KR]PB[이세돌]N[\u{FFFD}x])"),
        ] {
            let mut sink = Sink::new();
            let d = decode_owned(bytes, None, Some(if text.contains("EUC") { "EUC-KR" } else { "UTF-8" }), &mut sink);
            assert_eq!(d.text, text);
            let diags = sink.finish(&d.text);
            let nul: Vec<_> = diags.iter().filter(|d| d.code == codes::NUL).collect();
            assert_eq!(nul.len(), text.matches('\u{FFFD}').count(), "{diags:?}");
            assert!(nul.iter().all(|d| d.severity == Severity::Error));
            let first = nul[0].position.expect("placed");
            assert_eq!(first.line, 1);
            assert_eq!(first.column as usize, text.split('\u{FFFD}').next().map_or(0, |s| s.chars().count()) + 1);
        }
    }

    #[test]
    fn bom_wins() {
        let (d, diags) = dec(b"\xEF\xBB\xBF(;C[x])", Some("GB2312"));
        assert_eq!(d.text, "(;C[x])");
        assert_eq!(d.decision.source, CharsetSource::Bom);
        assert_eq!(codes_of(&diags), [codes::MISMATCH]);
        let utf16: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("(;C[é])".encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
        let (d, _) = dec(&utf16, None);
        assert_eq!(d.text, "(;C[é])");
        assert_eq!(d.decision.encoding, encoding_rs::UTF_16LE);
    }

    #[test]
    fn override_beats_the_declaration() {
        let bytes = enc(encoding_rs::BIG5, "(;CA[UTF-8]PB[聶衛平])");
        let mut sink = Sink::new();
        let d = decode_owned(bytes, Some(encoding_rs::BIG5), Some("UTF-8"), &mut sink);
        assert_eq!(d.text, "(;CA[UTF-8]PB[聶衛平])");
        assert_eq!((d.decision.encoding, d.decision.source), (encoding_rs::BIG5, CharsetSource::Override));
    }

    #[test]
    fn declared_charset_is_used_when_it_fits() {
        let bytes = enc(encoding_rs::EUC_KR, "(;PB[이세돌])");
        let (d, diags) = dec(&bytes, Some("EUC-KR"));
        assert_eq!(d.text, "(;PB[이세돌])");
        assert_eq!(d.decision.source, CharsetSource::Declared);
        assert!(diags.is_empty());
    }

    #[test]
    fn lying_utf8_declaration_on_cp949_bytes() {
        let bytes = enc(encoding_rs::EUC_KR, "(;PB[이세돌]PW[박정환]C[바둑은 재미있다])");
        let (d, diags) = dec(&bytes, Some("UTF-8"));
        assert_eq!(d.text, "(;PB[이세돌]PW[박정환]C[바둑은 재미있다])");
        assert_eq!((d.decision.encoding, d.decision.source), (encoding_rs::EUC_KR, CharsetSource::Detected));
        assert_eq!(codes_of(&diags), [codes::MISMATCH]);
    }

    #[test]
    fn lying_legacy_declaration_on_utf8_text() {
        let (d, diags) = dec("(;CA[Shift_JIS]PB[柯洁])".as_bytes(), Some("Shift_JIS"));
        assert_eq!(d.text, "(;CA[Shift_JIS]PB[柯洁])");
        assert_eq!(d.decision.encoding, encoding_rs::UTF_8);
        assert_eq!(codes_of(&diags), [codes::MISMATCH]);
    }

    #[test]
    fn utf8_truncated_in_a_name_keeps_a_replacement_character_and_reports_it() {
        let mut bytes = "(;PB[你若有".as_bytes().to_vec();
        bytes.extend_from_slice(&"情".as_bytes()[..2]);
        bytes.extend_from_slice("]PW[CGI]C[围棋很好玩])".as_bytes());
        for declared in [Some("UTF-8"), None, Some("GBK")] {
            let (d, diags) = dec(&bytes, declared);
            assert!(d.text.starts_with("(;PB[你若有\u{FFFD}]PW[CGI]"), "{declared:?}: {}", d.text);
            assert_eq!(d.decision.encoding, encoding_rs::UTF_8);
            let bad: Vec<_> = diags.iter().filter(|d| d.code == codes::INVALID_BYTES).collect();
            assert_eq!(bad.len(), 1);
            assert!(bad[0].message.contains("E6 83"), "{}", bad[0].message);
            assert_eq!(bad[0].position.map(|p| p.column), Some(9));
        }
    }

    #[test]
    fn unknown_label_is_a_warning_and_detection_takes_over() {
        let bytes = enc(encoding_rs::SHIFT_JIS, "(;CA[x-klingon]PB[井山裕太]PW[山下敬吾]C[囲碁は楽しいです])");
        let (d, diags) = dec(&bytes, Some("x-klingon"));
        assert_eq!(codes_of(&diags), [codes::UNKNOWN_LABEL]);
        assert_eq!((d.decision.encoding, d.decision.source), (encoding_rs::SHIFT_JIS, CharsetSource::Detected));
    }

    #[test]
    fn undeclared_legacy_text_is_detected() {
        let bytes = enc(encoding_rs::SHIFT_JIS, "(;PB[井山裕太]PW[山下敬吾]C[囲碁は楽しいです。申し分ない])");
        let (d, diags) = dec(&bytes, None);
        assert_eq!(d.decision.encoding, encoding_rs::SHIFT_JIS);
        assert_eq!(d.decision.source, CharsetSource::Detected);
        assert!(d.text.contains("申し分ない"));
        assert!(diags.is_empty());
    }

    #[test]
    fn damage_in_a_legacy_charset_is_kept_and_placed() {
        let mut bytes = enc(encoding_rs::EUC_KR, "(;PB[이세돌]\nC[바둑은 재미있다 ");
        bytes.push(0xC8); // a lead byte cut off by ']'
        bytes.extend_from_slice(b"])");
        let (d, diags) = dec(&bytes, Some("EUC-KR"));
        assert!(d.text.ends_with("재미있다 \u{FFFD}])"), "{}", d.text);
        assert_eq!(codes_of(&diags), [codes::INVALID_BYTES]);
        let p = diags[0].position.unwrap();
        assert_eq!((p.line, p.column), (2, 12));
    }

    #[test]
    fn the_decision_is_reported_as_info() {
        let mut sink = Sink::new();
        let d = decode_owned(b"(;CA[UTF-8]C[ok])".to_vec(), None, Some("UTF-8"), &mut sink);
        assert!(sink.finish(&d.text).is_empty());
        let note = d.decision.note();
        assert_eq!((note.severity, note.code), (Severity::Info, codes::DECIDED));
        assert_eq!(note.message, "charset UTF-8 (declared: declared charset)");
        let bytes = enc(encoding_rs::GBK, "(;C[黑先白死，这是一个常见的死活题])");
        let (d, _) = dec(&bytes, None);
        assert_eq!(d.decision.note().message, "charset GBK (detected: not UTF-8; chardetng and script coherence)");
    }

    #[test]
    fn owned_and_borrowed_paths_agree() {
        let samples: Vec<(Vec<u8>, Option<&str>)> = vec![
            (b"(;C[ascii])".to_vec(), None),
            (b"(;C[ascii])".to_vec(), Some("nonsense")),
            (b"(;C[ascii])".to_vec(), Some("GB2312")),
            ("(;C[é])".as_bytes().to_vec(), Some("ISO-8859-1")),
            ("(;C[é])".as_bytes().to_vec(), None),
            (enc(encoding_rs::GBK, "(;C[围棋很好玩])"), Some("UTF-8")),
        ];
        for (bytes, declared) in samples {
            let (a, da) = dec(&bytes, declared);
            let mut sink = Sink::new();
            let b = decode_owned(bytes.clone(), None, declared, &mut sink);
            let db = sink.finish(&b.text);
            assert_eq!((a.text, a.decision, da), (b.text, b.decision, db), "{declared:?}");
        }
    }

    /// [`decode_marking`]'s UTF-8 branch as it was, over `utf8_chunks`.
    fn utf8_by_chunks(bytes: &[u8]) -> (String, Vec<Damage>) {
        let mut damage = Vec::new();
        let mut out = String::new();
        for chunk in bytes.utf8_chunks() {
            out.push_str(chunk.valid());
            if !chunk.invalid().is_empty() {
                damage.push(Damage { offset: out.len(), bytes: chunk.invalid().to_vec() });
                out.push('\u{FFFD}');
            }
        }
        (out, damage)
    }

    #[test]
    fn utf8_is_decoded_as_utf8_chunks_cut_it() {
        for bytes in detect::tests::utf8_edge_cases() {
            let expected = utf8_by_chunks(&bytes);
            assert_eq!(decode_marking(encoding_rs::UTF_8, &bytes), expected, "{bytes:02X?}");
            for valid in detect::tests::valid_starts(&bytes) {
                assert_eq!(decode_marking_after(encoding_rs::UTF_8, &bytes, valid), expected, "{bytes:02X?}");
            }
            // From the decision's marks, as `decode` does.
            let (_, marks) = Utf8Stats::measure(&bytes, usize::MAX);
            let marks = marks.unwrap_or_default();
            assert_eq!(utf8_marked(&bytes, marks.iter().copied()), expected, "{bytes:02X?}");
            // In place, from the marks or finding them.
            assert_eq!(utf8_marked_owned(bytes.clone(), &marks), expected, "{bytes:02X?}");
            for valid in detect::tests::valid_starts(&bytes) {
                let owned = decode_marking_after_owned(encoding_rs::UTF_8, bytes.clone(), valid);
                assert_eq!(owned, expected, "{bytes:02X?}");
            }
        }
    }

    #[test]
    fn decoding_with_the_decisions_marks_is_decoding_again() {
        // Damaged UTF-8 declared, undeclared and declared otherwise; more malformed sequences
        // than are kept; legacy text.
        let mut many = Vec::new();
        for _ in 0..MARKS_KEPT + 5 {
            many.extend_from_slice("(;PB[你若有".as_bytes());
            many.extend_from_slice(b"\xE6\x83]C[x])\n");
        }
        let mut samples: Vec<Vec<u8>> = detect::tests::utf8_edge_cases().into_iter().step_by(97).collect();
        samples.push(many);
        samples.push(enc(encoding_rs::EUC_KR, "(;PB[이세돌]PW[박정환]C[바둑은 재미있다])"));
        let mut used = 0;
        for bytes in samples {
            for declared in [None, Some("UTF-8"), Some("GBK"), Some("x-unknown")] {
                let (decision, body, marks) = decide(&bytes, 0, None, declared, &mut Sink::new());
                let general = decode_marking(decision.encoding, body);
                match marks {
                    Some(marks) if decision.encoding == encoding_rs::UTF_8 => {
                        assert_eq!(utf8_marked(body, marks), general, "{bytes:02X?}");
                        used += 1;
                    }
                    // (Not measured: ASCII, a BOM, UTF-16; or too damaged to keep.)
                    _ => {}
                }
            }
        }
        assert!(used > 100, "{used}");
    }

    #[test]
    fn what_the_first_try_learnt_decodes_as_decode_owned() {
        let mut samples: Vec<Vec<u8>> = detect::tests::utf8_edge_cases().into_iter().step_by(31).collect();
        samples.extend([
            b"(;N[\0illegal]\nC[a\0\xff])".to_vec(),
            b"\xEF\xBB\xBF(;C[x\xff])".to_vec(),
            "(;PB[时越])".as_bytes().to_vec(),
            "(;C[ʱԽ])".as_bytes().to_vec(),
            enc(encoding_rs::GBK, "(;CA[UTF-8]C[围棋很好玩])"),
            "(;C[é])".encode_utf16().flat_map(|u| u.to_le_bytes()).collect(),
        ]);
        for bytes in samples {
            for (o, declared) in
                [(None, None), (None, Some("UTF-8")), (None, Some("GBK")), (Some(encoding_rs::UTF_8), None)]
            {
                let mut sink = Sink::new();
                let a = decode_owned(bytes.clone(), o, declared, &mut sink);
                let da = sink.finish(&a.text);
                let (b, db) = match decode_owned_as_is(bytes.clone(), o, declared) {
                    Ok(d) => (d, Vec::new()),
                    Err(rest) => {
                        let mut sink = Sink::new();
                        let d = rest.decode(o, declared, &mut sink);
                        let diags = sink.finish(&d.text);
                        (d, diags)
                    }
                };
                assert_eq!((a.text, a.decision, da), (b.text, b.decision, db), "{bytes:02X?} {declared:?}");
                // Any valid start given: the same.
                for valid in detect::tests::valid_starts(&bytes) {
                    let mut sink = Sink::new();
                    let c = decode_after(&bytes, valid, o, declared, &mut sink);
                    let dc = sink.finish(&c.text);
                    let mut sink = Sink::new();
                    let e = decode_after_owned(bytes.clone(), valid, o, declared, &mut sink);
                    let de = sink.finish(&e.text);
                    assert_eq!((&c.text, c.decision, &dc), (&e.text, e.decision, &de), "{bytes:02X?}");
                    let mut sink = Sink::new();
                    let d = decode(&bytes, o, declared, &mut sink);
                    let dd = sink.finish(&d.text);
                    assert_eq!((c.text, c.decision, dc), (d.text, d.decision, dd), "{bytes:02X?}");
                }
            }
        }
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        let mut x: u32 = 12345;
        for len in 0..300 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (x >> 16) as u8
                })
                .collect();
            for declared in [None, Some("UTF-8"), Some("Shift_JIS"), Some("UTF-16BE")] {
                let mut sink = Sink::new();
                let d = decode(&bytes, None, declared, &mut sink);
                let _ = sink.finish(&d.text);
            }
        }
    }
}
