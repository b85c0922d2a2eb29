//! Parsing the arguments several commands share: format names and charset labels.

use crate::ExitCode;
use kifu::Format;
use kifu::charset::{ALIASES, ca_label, encoding_for_label};

/// The format named `name`, or a usage message: a close name suggested (`sfg` → `sgf`), a
/// picture kind pointed to `kifu diagram`, the known names listed.
pub fn format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        if matches!(name.to_ascii_lowercase().as_str(), "svg" | "png" | "text" | "txt") {
            return format!(
                "'{name}' is a picture, not a game-record format: draw one with `kifu diagram FILE -t {}`",
                name.to_ascii_lowercase()
            );
        }
        let names: Vec<_> = Format::all().map(|f| f.name()).collect();
        // A format is suggested by its name when the word is close to the name or an alias.
        let close: Vec<String> = Format::all()
            .filter(|f| !did_you_mean(name, [f.name()].into_iter().chain(f.aliases().iter().copied())).is_empty())
            .map(|f| format!("'{}'", f.name()))
            .collect();
        let hint = if close.is_empty() { String::new() } else { format!("; did you mean {}?", close.join(" or ")) };
        format!("unknown format '{name}'{hint} (known: {})", names.join(", "))
    })
}

/// `; did you mean 'a'?` (or `'a' or 'b'`) for the candidates within two edits of `word`
/// (case, `-`, `_` and spaces ignored), else nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    let key = |s: &str| s.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).flat_map(char::to_lowercase).collect();
    let w: Vec<char> = key(word);
    let mut close: Vec<(usize, &str)> = Vec::new();
    for c in candidates {
        let d = distance(&w, &key(c));
        let limit = if w.len() <= 3 { 1 } else { 2 };
        if d <= limit && !close.iter().any(|(_, x)| key(x) == key(c)) {
            close.push((d, c));
        }
    }
    close.sort();
    let names: Vec<String> = close.iter().take(3).map(|(_, c)| format!("'{c}'")).collect();
    if names.is_empty() { String::new() } else { format!("; did you mean {}?", names.join(" or ")) }
}

/// Edits (insert, delete, replace, swap two neighbours) that make `a` into `b`.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The charsets listed when a label is unknown and by `kifu formats --encodings` (every one
/// reads back by this name).
pub const KNOWN_CHARSETS: &[&encoding_rs::Encoding] = &[
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
        let hint = did_you_mean(label, names.iter().chain(&aliases).copied());
        format!(
            "unknown charset '{label}'{hint} (known: {}; aliases: {}; case, '-', '_' and spaces are ignored, \
             and every WHATWG label works too; `kifu formats --encodings` lists them)",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested() {
        assert_eq!(did_you_mean("sfg", ["sgf", "gib", "ngf"]), "; did you mean 'sgf'?");
        assert_eq!(did_you_mean("shiftjis", ["Shift_JIS", "EUC-JP"]), "; did you mean 'Shift_JIS'?");
        assert_eq!(did_you_mean("ecu-kr", ["EUC-KR", "EUC-JP"]), "; did you mean 'EUC-KR'?");
        assert_eq!(did_you_mean("xyz", ["sgf", "gib"]), "");
        assert_eq!(distance(&['a', 'b'], &['b', 'a']), 1);
    }
}
