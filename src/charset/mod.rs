//! The charset layer shared by every reader and writer.
//!
//! Reading decides the charset in a fixed order and records how it decided
//! ([`CharsetDecision`]): a byte-order mark, a user override, a charset the file declares (SGF
//! `CA`, GIB `GIBOKIND`, UGF `Lang`), a declaration that turns out to be wrong, and detection
//! (valid UTF-8, else chardetng) for files that declare nothing. The whole input is decoded
//! before any grammar sees it, so multi-byte characters whose trail byte is `\` or `]`
//! (Shift_JIS, Big5) never break a value. Writing encodes UTF-8 by default, or a legacy charset
//! on request, reporting characters the target cannot hold.

use crate::diag::{Diagnostic, Sink};
use encoding_rs::{DecoderResult, EncoderResult, Encoding};
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
    /// How the charset was decided (informational).
    pub const DECIDED: &str = "charset.decided";
}

/// How the charset of an input was decided.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharsetDecision {
    /// The charset used.
    pub encoding: &'static Encoding,
    /// How it was chosen.
    pub source: CharsetSource,
}

impl CharsetDecision {
    /// The charset's canonical name (`UTF-8`, `EUC-KR`, `Shift_JIS`, `GBK`, …).
    pub fn name(&self) -> &'static str {
        self.encoding.name()
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

/// Looks up a charset label as found in real files: WHATWG labels plus the aliases
/// `encoding_rs` lacks (`CP949`, `UHC`, `MS949`, `CP936`, `EUC-CN`, `CP932`, `SJIS`, `CP950`,
/// `UTF16LE`, …). Case, `-`, `_` and spaces are ignored. `iso-2022-kr` and other labels that
/// map to the "replacement" encoding give `None`.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let norm: String = label.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
    let alias = match norm.as_str() {
        "cp949" | "uhc" | "ms949" | "windows949" | "xwindows949" | "euckr" | "ksc5601" | "ksc56011987" | "korean" => {
            Some(encoding_rs::EUC_KR)
        }
        "cp936" | "ms936" | "euccn" | "gb2312" | "gbk" | "chinese" | "windows936" => Some(encoding_rs::GBK),
        "gb18030" => Some(encoding_rs::GB18030),
        "cp932" | "ms932" | "sjis" | "shiftjis" | "mskanji" | "windows31j" | "xsjis" => Some(encoding_rs::SHIFT_JIS),
        "cp950" | "ms950" | "big5" | "big5hkscs" | "windows950" => Some(encoding_rs::BIG5),
        "utf8" | "utf8bom" => Some(encoding_rs::UTF_8),
        "utf16" | "utf16le" | "ucs2" | "ucs2le" => Some(encoding_rs::UTF_16LE),
        "utf16be" | "ucs2be" => Some(encoding_rs::UTF_16BE),
        "latin1" | "iso88591" | "l1" | "ascii" | "usascii" | "cp1252" => Some(encoding_rs::WINDOWS_1252),
        _ => None,
    };
    alias.or_else(|| Encoding::for_label_no_replacement(label.trim().as_bytes()))
}

/// Decodes `bytes` with `enc`, replacing each malformed sequence with U+FFFD; returns the text
/// and the number of malformed sequences.
pub fn decode_counting(enc: &'static Encoding, bytes: &[u8]) -> (String, usize) {
    if enc == encoding_rs::UTF_8 {
        return match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_string(), 0),
            Err(_) => {
                let mut out = String::with_capacity(bytes.len() + 16);
                let mut errors = 0;
                for chunk in bytes.utf8_chunks() {
                    out.push_str(chunk.valid());
                    if !chunk.invalid().is_empty() {
                        out.push('\u{FFFD}');
                        errors += 1;
                    }
                }
                (out, errors)
            }
        };
    }
    let mut decoder = enc.new_decoder_without_bom_handling();
    let cap = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(bytes.len() * 3);
    let mut out = String::with_capacity(cap + 16);
    let mut errors = 0;
    let mut input = bytes;
    loop {
        let (res, read) = decoder.decode_to_string_without_replacement(input, &mut out, true);
        input = &input[read..];
        match res {
            DecoderResult::InputEmpty => break,
            DecoderResult::Malformed(_, _) => {
                errors += 1;
                out.push('\u{FFFD}');
            }
            DecoderResult::OutputFull => out.reserve(input.len() * 3 + 16),
        }
    }
    (out, errors)
}

/// UTF-8 statistics: (valid non-ASCII characters, invalid sequences).
fn utf8_stats(bytes: &[u8]) -> (usize, usize) {
    let (mut good, mut bad) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        bad += (!chunk.invalid().is_empty()) as usize;
    }
    (good, bad)
}

/// Statistical detection of a legacy charset (UTF-8 excluded: the caller checks it first).
pub fn detect(bytes: &[u8]) -> &'static Encoding {
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(bytes, true);
    det.guess(None, chardetng::Utf8Detection::Deny)
}

/// Decides the charset of `bytes` and decodes them.
///
/// `override_enc` is the user's choice; `declared` the label the file itself carries (found on
/// the raw bytes by the format's reader). Diagnostics go to `sink` without positions.
pub fn decode(
    bytes: &[u8],
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> Decoded {
    // 1. A byte-order mark.
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, errors) = decode_counting(enc, &bytes[bom_len..]);
        report_errors(enc, errors, sink);
        return Decoded { text, decision: CharsetDecision { encoding: enc, source: CharsetSource::Bom } };
    }
    // 2. The user's override.
    if let Some(enc) = override_enc {
        let (text, errors) = decode_counting(enc, bytes);
        report_errors(enc, errors, sink);
        return Decoded { text, decision: CharsetDecision { encoding: enc, source: CharsetSource::Override } };
    }
    let ascii = bytes.is_ascii();
    // 3. A declaration.
    if let Some(label) = declared {
        match encoding_for_label(label) {
            None => sink.push(Diagnostic::warning(
                codes::UNKNOWN_LABEL,
                format!("unknown charset '{label}'; detecting the charset instead"),
            )),
            Some(enc) if ascii && enc.is_ascii_compatible() => {
                return Decoded {
                    text: String::from_utf8(bytes.to_vec()).unwrap_or_default(),
                    decision: CharsetDecision { encoding: enc, source: CharsetSource::Declared },
                };
            }
            Some(enc) => {
                let (good, bad) = utf8_stats(bytes);
                if enc != encoding_rs::UTF_8 && bad == 0 && good > 0 {
                    // Valid multi-byte UTF-8 is almost never legacy text by accident.
                    sink.push(Diagnostic::warning(
                        codes::MISMATCH,
                        format!("the file declares '{label}' but its text is UTF-8; read as UTF-8"),
                    ));
                    return utf8_owned(bytes, CharsetSource::Detected);
                }
                let (text, errors) = decode_counting(enc, bytes);
                if errors == 0 {
                    return Decoded {
                        text,
                        decision: CharsetDecision { encoding: enc, source: CharsetSource::Declared },
                    };
                }
                // A declared UTF-8 that is mostly valid: keep it, the bad bytes are damage.
                if enc == encoding_rs::UTF_8 && good >= bad {
                    report_errors(enc, errors, sink);
                    return Decoded {
                        text,
                        decision: CharsetDecision { encoding: enc, source: CharsetSource::Declared },
                    };
                }
                let guess = detect(bytes);
                if guess != enc {
                    let (gtext, gerrors) = decode_counting(guess, bytes);
                    if gerrors == 0 {
                        sink.push(Diagnostic::warning(
                            codes::MISMATCH,
                            format!(
                                "the file declares '{label}' but its bytes are not valid {}; read as {}",
                                enc.name(),
                                guess.name()
                            ),
                        ));
                        return Decoded {
                            text: gtext,
                            decision: CharsetDecision { encoding: guess, source: CharsetSource::Detected },
                        };
                    }
                }
                report_errors(enc, errors, sink);
                return Decoded { text, decision: CharsetDecision { encoding: enc, source: CharsetSource::Declared } };
            }
        }
    }
    // 4. Nothing (usable) declared: valid UTF-8, mostly-valid UTF-8, else detection.
    let (good, bad) = if ascii { (0, 0) } else { utf8_stats(bytes) };
    if bad == 0 {
        return utf8_owned(bytes, CharsetSource::Detected);
    }
    let guess = detect(bytes);
    let (text, errors) = decode_counting(guess, bytes);
    if errors > 0 && good >= bad * 4 {
        let (text, errors) = decode_counting(encoding_rs::UTF_8, bytes);
        report_errors(encoding_rs::UTF_8, errors, sink);
        return Decoded {
            text,
            decision: CharsetDecision { encoding: encoding_rs::UTF_8, source: CharsetSource::Detected },
        };
    }
    report_errors(guess, errors, sink);
    Decoded { text, decision: CharsetDecision { encoding: guess, source: CharsetSource::Detected } }
}

fn utf8_owned(bytes: &[u8], source: CharsetSource) -> Decoded {
    let text = String::from_utf8(bytes.to_vec()).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Decoded { text, decision: CharsetDecision { encoding: encoding_rs::UTF_8, source } }
}

/// Like [`decode`] but takes ownership, so valid UTF-8 input is not copied.
pub fn decode_owned(
    bytes: Vec<u8>,
    override_enc: Option<&'static Encoding>,
    declared: Option<&str>,
    sink: &mut Sink,
) -> Decoded {
    let fast = override_enc.is_none_or(|e| e == encoding_rs::UTF_8)
        && Encoding::for_bom(&bytes).is_none()
        && declared.is_none_or(|l| encoding_for_label(l) == Some(encoding_rs::UTF_8) || bytes.is_ascii());
    if fast {
        match String::from_utf8(bytes) {
            Ok(text) => {
                let source = match (override_enc, declared) {
                    (Some(_), _) => CharsetSource::Override,
                    (None, Some(_)) => CharsetSource::Declared,
                    (None, None) => CharsetSource::Detected,
                };
                let encoding = match declared.and_then(encoding_for_label) {
                    Some(e) if override_enc.is_none() => e,
                    _ => encoding_rs::UTF_8,
                };
                return Decoded { text, decision: CharsetDecision { encoding, source } };
            }
            Err(e) => return decode(e.as_bytes(), override_enc, declared, sink),
        }
    }
    decode(&bytes, override_enc, declared, sink)
}

fn report_errors(enc: &'static Encoding, errors: usize, sink: &mut Sink) {
    if errors > 0 {
        sink.push(Diagnostic::warning(
            codes::INVALID_BYTES,
            format!("{errors} byte sequence(s) are not valid {}; shown as U+FFFD", enc.name()),
        ));
    }
}

/// Encodes `text` in `enc`. Characters the charset cannot hold are written as `?` and counted;
/// UTF-16 is written with a byte-order mark.
pub fn encode(text: &str, enc: &'static Encoding) -> (Vec<u8>, usize) {
    if enc == encoding_rs::UTF_8 {
        return (text.as_bytes().to_vec(), 0);
    }
    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        let le = enc == encoding_rs::UTF_16LE;
        let mut out = Vec::with_capacity(2 + text.len() * 2);
        out.extend_from_slice(if le { &[0xFF, 0xFE] } else { &[0xFE, 0xFF] });
        for u in text.encode_utf16() {
            out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        return (out, 0);
    }
    let mut encoder = enc.new_encoder();
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut unmappable = 0;
    let mut input = text;
    loop {
        out.reserve(input.len() * 4 + 16);
        let (res, read) = encoder.encode_from_utf8_to_vec_without_replacement(input, &mut out, true);
        input = &input[read..];
        match res {
            EncoderResult::InputEmpty => break,
            EncoderResult::Unmappable(_) => {
                unmappable += 1;
                out.push(b'?');
            }
            EncoderResult::OutputFull => {}
        }
    }
    (out, unmappable)
}

/// Report for unmappable characters, used by writers.
pub fn unmappable_diagnostic(enc: &'static Encoding, count: usize) -> Diagnostic {
    Diagnostic::warning(
        codes::UNMAPPABLE,
        format!("{count} character(s) cannot be written in {}; written as '?'", enc.name()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(bytes: &[u8], declared: Option<&str>) -> (Decoded, Vec<Diagnostic>) {
        let mut sink = Sink::new();
        let d = decode(bytes, None, declared, &mut sink);
        let diags = sink.finish(&d.text);
        (d, diags)
    }

    #[test]
    fn aliases_cover_labels_from_the_wild() {
        assert_eq!(encoding_for_label("CP949"), Some(encoding_rs::EUC_KR));
        assert_eq!(encoding_for_label("UHC"), Some(encoding_rs::EUC_KR));
        assert_eq!(encoding_for_label("EUC-CN"), Some(encoding_rs::GBK));
        assert_eq!(encoding_for_label("cp932"), Some(encoding_rs::SHIFT_JIS));
        assert_eq!(encoding_for_label("CP950"), Some(encoding_rs::BIG5));
        assert_eq!(encoding_for_label("UTF16LE"), Some(encoding_rs::UTF_16LE));
        assert_eq!(encoding_for_label("iso-2022-kr"), None);
        assert_eq!(encoding_for_label("windows-1251"), Some(encoding_rs::WINDOWS_1251));
        assert_eq!(encoding_for_label("nonsense"), None);
    }

    #[test]
    fn bom_wins() {
        let (d, _) = dec(b"\xEF\xBB\xBF(;C[x])", Some("GB2312"));
        assert_eq!(d.text, "(;C[x])");
        assert_eq!(d.decision.source, CharsetSource::Bom);
        let utf16: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("(;C[é])".encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
        let (d, _) = dec(&utf16, None);
        assert_eq!(d.text, "(;C[é])");
        assert_eq!(d.decision.encoding, encoding_rs::UTF_16LE);
    }

    #[test]
    fn declared_charset_is_used_when_it_fits() {
        let (bytes, _, _) = encoding_rs::EUC_KR.encode("(;PB[이세돌])");
        let (d, diags) = dec(&bytes, Some("EUC-KR"));
        assert_eq!(d.text, "(;PB[이세돌])");
        assert_eq!(d.decision.source, CharsetSource::Declared);
        assert!(diags.is_empty());
    }

    #[test]
    fn lying_utf8_declaration_on_cp949_bytes() {
        let (bytes, _, _) = encoding_rs::EUC_KR.encode("(;PB[이세돌]PW[박정환]C[바둑은 재미있다])");
        let (d, diags) = dec(&bytes, Some("UTF-8"));
        assert_eq!(d.text, "(;PB[이세돌]PW[박정환]C[바둑은 재미있다])");
        assert_eq!(d.decision.encoding, encoding_rs::EUC_KR);
        assert_eq!(diags[0].code, codes::MISMATCH);
    }

    #[test]
    fn utf8_truncated_in_a_name_keeps_a_replacement_character() {
        let mut bytes = "(;PB[你若有".as_bytes().to_vec();
        bytes.extend_from_slice(&"情".as_bytes()[..2]);
        bytes.extend_from_slice("]PW[CGI]C[围棋很好玩])".as_bytes());
        let (d, diags) = dec(&bytes, Some("UTF-8"));
        assert!(d.text.starts_with("(;PB[你若有\u{FFFD}]"), "{}", d.text);
        assert_eq!(d.decision.encoding, encoding_rs::UTF_8);
        assert_eq!(diags[0].code, codes::INVALID_BYTES);
    }

    #[test]
    fn undeclared_legacy_text_is_detected() {
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("(;PB[井山裕太]PW[山下敬吾]C[囲碁は楽しいです。申し分ない])");
        let (d, _) = dec(&bytes, None);
        assert_eq!(d.decision.encoding, encoding_rs::SHIFT_JIS);
        assert_eq!(d.decision.source, CharsetSource::Detected);
        assert!(d.text.contains("申し分ない"));
    }

    #[test]
    fn encode_reports_unmappable() {
        let (bytes, bad) = encode("a바둑b", encoding_rs::EUC_KR);
        assert_eq!(bad, 0);
        assert!(bytes.len() > 3);
        let (bytes, bad) = encode("a😀b", encoding_rs::SHIFT_JIS);
        assert_eq!((bytes.as_slice(), bad), (&b"a?b"[..], 1));
    }
}
