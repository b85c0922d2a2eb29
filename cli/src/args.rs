//! Parsing the arguments several commands share: format names and charset labels.

use crate::ExitCode;
use kifu::Format;
use kifu::charset::{ALIASES, ca_label, encoding_for_label};

/// The format named `name`, or a usage message listing the known ones.
pub fn format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<_> = Format::all().map(|f| f.name()).collect();
        format!("unknown format '{name}' (known: {})", names.join(", "))
    })
}

/// The charsets listed when a label is unknown (every one reads back by this name).
const KNOWN_CHARSETS: &[&encoding_rs::Encoding] = &[
    encoding_rs::UTF_8,
    encoding_rs::UTF_16LE,
    encoding_rs::UTF_16BE,
    encoding_rs::GB18030,
    encoding_rs::GBK,
    encoding_rs::BIG5,
    encoding_rs::EUC_KR,
    encoding_rs::SHIFT_JIS,
    encoding_rs::EUC_JP,
    encoding_rs::ISO_2022_JP,
    encoding_rs::WINDOWS_1250,
    encoding_rs::WINDOWS_1251,
    encoding_rs::WINDOWS_1252,
    encoding_rs::WINDOWS_1253,
    encoding_rs::WINDOWS_1254,
    encoding_rs::WINDOWS_1257,
    encoding_rs::ISO_8859_2,
    encoding_rs::ISO_8859_5,
    encoding_rs::ISO_8859_7,
    encoding_rs::ISO_8859_15,
    encoding_rs::KOI8_R,
    encoding_rs::KOI8_U,
    encoding_rs::MACINTOSH,
];

/// The charset named `label` (kifu's alias table on top of the WHATWG labels), or a usage
/// message listing the charsets and aliases kifu knows.
pub fn charset(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    encoding_for_label(label).ok_or_else(|| {
        let names: Vec<&str> = KNOWN_CHARSETS.iter().map(|e| ca_label(e)).collect();
        let aliases: Vec<&str> = ALIASES.iter().map(|(a, _)| *a).collect();
        format!(
            "unknown charset '{label}' (known: {}; aliases: {}; case, '-', '_' and spaces are ignored, \
             and every WHATWG label works too)",
            names.join(", "),
            aliases.join(", ")
        )
    })
}

/// Parses an optional argument with `parse`; a bad value is printed and becomes exit code 2.
pub fn optional<T>(value: Option<&str>, parse: fn(&str) -> Result<T, String>) -> Result<Option<T>, ExitCode> {
    value.map(parse).transpose().map_err(|msg| {
        eprintln!("kifu: {msg}");
        ExitCode::Usage
    })
}

/// An optional input format that kifu can read.
pub fn input_format(value: Option<&str>) -> Result<Option<Format>, ExitCode> {
    let f = optional(value, format)?;
    match f {
        Some(f) if !f.can_read() => {
            eprintln!("kifu: kifu cannot read {f}");
            Err(ExitCode::Usage)
        }
        f => Ok(f),
    }
}

/// The input options of commands that read: `-f FORMAT` and `--from-encoding LABEL`.
pub fn input(
    from: Option<&str>,
    from_encoding: Option<&str>,
) -> Result<(Option<Format>, Option<&'static encoding_rs::Encoding>), ExitCode> {
    Ok((input_format(from)?, optional(from_encoding, charset)?))
}
