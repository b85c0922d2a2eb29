//! Parsing the arguments several commands share: format names and charset labels.

use super::ExitCode;
use kifu::Format;
use kifu::charset::encoding_for_label;

/// The format named `name`, or a usage message listing the known ones.
pub fn format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<_> = Format::all().map(|f| f.name()).collect();
        format!("unknown format '{name}' (known: {})", names.join(", "))
    })
}

/// The charset named `label` (kifu's alias table on top of the WHATWG labels).
pub fn charset(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    encoding_for_label(label).ok_or_else(|| format!("unknown charset '{label}'"))
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
