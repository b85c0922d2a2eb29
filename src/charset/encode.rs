//! Writing: text to bytes in the output charset, with every character the charset cannot hold
//! reported by name and place.

use super::codes;
use super::labels::ca_label;
use crate::diag::{Diagnostic, Sink};
use encoding_rs::{EncoderResult, Encoding};

/// One character the output charset cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unmappable {
    /// The character.
    pub ch: char,
    /// Its byte offset in the text given to the encoder.
    pub offset: usize,
}

/// Encodes `text` in `enc`, writing `?` for each character the charset cannot hold and listing
/// them. UTF-16 is written with a byte-order mark; ISO-2022-JP ends in ASCII mode.
pub(crate) fn encode_listing(text: &str, enc: &'static Encoding) -> (Vec<u8>, Vec<Unmappable>) {
    if enc == encoding_rs::UTF_8 {
        return (text.as_bytes().to_vec(), Vec::new());
    }
    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        let le = enc == encoding_rs::UTF_16LE;
        let mut out = Vec::with_capacity(2 + text.len() * 2);
        out.extend_from_slice(if le { &[0xFF, 0xFE] } else { &[0xFE, 0xFF] });
        for u in text.encode_utf16() {
            out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        return (out, Vec::new());
    }
    let mut encoder = enc.new_encoder();
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut bad = Vec::new();
    let mut input = text;
    loop {
        out.reserve(input.len() * 4 + 16);
        let (res, read) = encoder.encode_from_utf8_to_vec_without_replacement(input, &mut out, true);
        let done = text.len() - input.len() + read;
        input = input.get(read..).unwrap_or("");
        match res {
            EncoderResult::InputEmpty => break,
            EncoderResult::Unmappable(ch) => {
                bad.push(Unmappable { ch, offset: done - ch.len_utf8() });
                out.push(b'?');
            }
            EncoderResult::OutputFull => {}
        }
    }
    (out, bad)
}

/// Encodes `text` in `enc`. Characters the charset cannot hold are written as `?` and counted;
/// UTF-16 is written with a byte-order mark.
pub fn encode(text: &str, enc: &'static Encoding) -> (Vec<u8>, usize) {
    let (bytes, bad) = encode_listing(text, enc);
    (bytes, bad.len())
}

/// Whether `enc` is refused as an output charset: a stateful charset whose escape sequences
/// switch to byte pairs drawn from 0x21–0x7E, `]` (0x5D) and `\` (0x5C) included. A reader that
/// scans bytes before decoding (most SGF readers; GIB's `\]`) cuts a value inside such a pair,
/// and no escaping helps: an escape character there is itself half of a pair. ISO-2022-JP is
/// the one such charset kifu can name (its other stateful labels, `iso-2022-kr` and the like,
/// are unknown labels).
pub(crate) fn unwritable(enc: &'static Encoding) -> bool {
    enc == encoding_rs::ISO_2022_JP
}

/// Whether kifu writes output in `enc` (every charset it reads but ISO-2022-JP, whose byte
/// pairs can hold `]` and `\`; see `formats/charsets.md`).
///
/// ```
/// assert!(kifu::charset::writable(encoding_rs::SHIFT_JIS));
/// assert!(!kifu::charset::writable(encoding_rs::ISO_2022_JP));
/// ```
pub fn writable(enc: &'static Encoding) -> bool {
    !unwritable(enc)
}

/// Encodes a writer's output `text` in `enc`, reporting each character the charset cannot hold
/// with its line:column in `text`: an error (`Err`, nothing written) unless `lossy`, in which
/// case it is written as `?` and the report is a warning. A charset kifu does not write
/// ([`unwritable`]) is an error whatever `lossy` says.
pub(crate) fn encode_output(
    text: &str,
    enc: &'static Encoding,
    lossy: bool,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Vec<Diagnostic>> {
    if unwritable(enc) {
        return Err(vec![Diagnostic::error(
            codes::UNWRITABLE,
            format!(
                "{} is not written: its escape sequences switch to byte pairs that include ']' and '\\', \
                 which readers that scan bytes take for the end of a value or an escape (write UTF-8, \
                 Shift_JIS or EUC-JP)",
                enc.name()
            ),
        )]);
    }
    let (bytes, bad) = encode_listing(text, enc);
    if bad.is_empty() {
        return Ok((bytes, Vec::new()));
    }
    let mut sink = Sink::new();
    let name = ca_label(enc);
    for u in &bad {
        let what = format!("character '{}' (U+{:04X})", u.ch, u.ch as u32);
        let d = if lossy {
            Diagnostic::warning(codes::UNMAPPABLE, format!("{what} cannot be written in {name}; written as '?'"))
        } else {
            Diagnostic::error(
                codes::UNMAPPABLE,
                format!("{what} cannot be written in {name} (write UTF-8, or pass --lossy to write '?')"),
            )
        };
        sink.push_at(u.offset, d);
    }
    let diags = sink.finish(text);
    if lossy { Ok((bytes, diags)) } else { Err(diags) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;

    #[test]
    fn encode_counts_unmappable() {
        let (bytes, bad) = encode("a바둑b", encoding_rs::EUC_KR);
        assert_eq!((bytes.len(), bad), (6, 0));
        let (bytes, bad) = encode("a😀b", encoding_rs::SHIFT_JIS);
        assert_eq!((bytes.as_slice(), bad), (&b"a?b"[..], 1));
        let (bytes, _) = encode("(;", encoding_rs::UTF_16BE);
        assert_eq!(bytes, [0xFE, 0xFF, 0, b'(', 0, b';']);
    }

    #[test]
    fn unmappable_is_an_error_naming_the_character_and_its_place() {
        let text = "(;FF[4]\nPB[이세돌]PW[Ke Jie])";
        let diags = encode_output(text, encoding_rs::SHIFT_JIS, false).unwrap_err();
        assert_eq!(diags.len(), 3);
        assert_eq!(diags[0].severity, Severity::Error);
        assert_eq!(diags[0].code, codes::UNMAPPABLE);
        assert!(diags[0].message.contains("'이' (U+C774)"), "{}", diags[0].message);
        assert!(diags[0].message.contains("Shift_JIS"));
        let p = diags[0].position.unwrap();
        assert_eq!((p.line, p.column), (2, 4));
        assert_eq!(diags[2].position.unwrap().column, 6);
    }

    /// ISO-2022-JP: `本` is the pair `4B 5C` (`K\\`) and `丸` the pair `34 5D` (`4]`), a `\\`
    /// and a `]` to a reader that scans bytes. Refused, with or without `lossy`.
    #[test]
    fn a_stateful_charset_is_refused() {
        let (bytes, _) = encode("C[本丸]", encoding_rs::ISO_2022_JP);
        assert_eq!(&bytes[5..9], b"K\\4]", "{bytes:?}");
        for lossy in [false, true] {
            let diags = encode_output("C[本丸]", encoding_rs::ISO_2022_JP, lossy).unwrap_err();
            assert_eq!(diags.len(), 1);
            assert_eq!((diags[0].code, diags[0].severity), (codes::UNWRITABLE, Severity::Error));
            assert!(diags[0].message.starts_with("ISO-2022-JP is not written"), "{}", diags[0].message);
        }
        assert!(!unwritable(encoding_rs::SHIFT_JIS) && !unwritable(encoding_rs::UTF_8));
    }

    #[test]
    fn lossy_writes_a_replacement_and_warns() {
        let (bytes, diags) = encode_output("C[a😀b]", encoding_rs::GB18030, true).unwrap();
        // GB18030 holds every character.
        assert!(diags.is_empty());
        assert_eq!(encoding_rs::GB18030.decode(&bytes).0, "C[a😀b]");
        let (bytes, diags) = encode_output("C[a😀b]", encoding_rs::BIG5, true).unwrap();
        assert_eq!(bytes, b"C[a?b]");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].severity, Severity::Warning);
    }
}
