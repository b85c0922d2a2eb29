//! Output names from a game's information: `--name '{year}/{date}-{black}-{white}'`
//! ([`spec::archives`](crate::spec::archives), "Naming").
//!
//! A [`Template`] is checked once (unknown placeholders, `..` parts, absolute paths are
//! errors); [`Template::expand`] fills it with a game's [`Values`] and gives a relative path
//! that is safe on every file system kifu runs on: each value has no `/`, `\`, control
//! characters or characters Windows forbids, no part is `.`, `..`, a reserved Windows device
//! name or ends in a dot or space, each part is at most [`MAX_PART_BYTES`] bytes, and an empty
//! value becomes [`EMPTY`].
//!
//! ```
//! use kifu::naming::{Template, Values};
//! let sgf = b"(;GM[1]PB[Lee Sedol]PW[Alpha/Go]DT[2016-03-13]RE[B+R])";
//! let game = &kifu::read_bytes(sgf.to_vec(), None, &Default::default())?.collection.games[0];
//! let template: Template = "{year}/{date}-{black}-{white}".parse()?;
//! let path = template.expand(&Values::of(game, "match4", 1), "sgf");
//! assert_eq!(path, std::path::Path::new("2016/2016-03-13-Lee Sedol-Alpha_Go.sgf"));
//! assert!("{player}".parse::<Template>().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::model::GameTree;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use unicode_normalization::UnicodeNormalization;

/// Every placeholder a template may hold, as written between braces.
pub const PLACEHOLDERS: [&str; 11] =
    ["date", "year", "black", "white", "black_rank", "white_rank", "event", "round", "result", "stem", "n"];

/// What an empty or missing value is written as.
pub const EMPTY: &str = "unknown";

/// The most bytes one part of a name (between two `/`) may take, extension included; a longer
/// one is cut at a character boundary. Leaves room under the 255 bytes most file systems allow
/// for the `-sgf-2` a name collision adds.
pub const MAX_PART_BYTES: usize = 200;

/// Whether Windows reserves `head` (a name before its first dot, lower case) for a device:
/// `con`, `prn`, `aux`, `nul`, `conin$`, `conout$`, and `com` or `lpt` with a digit 1–9 or one
/// of ¹ ² ³ (which count as digits there too).
fn reserved(head: &str) -> bool {
    if matches!(head, "con" | "prn" | "aux" | "nul" | "conin$" | "conout$") {
        return true;
    }
    let digit = |rest: &str| {
        matches!(rest, "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "\u{b9}" | "\u{b2}" | "\u{b3}")
    };
    head.strip_prefix("com").or_else(|| head.strip_prefix("lpt")).is_some_and(digit)
}

/// A template that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// A `{name}` that is not one of [`PLACEHOLDERS`].
    #[error("unknown placeholder {{{0}}} in the name template (known: {known})", known = known())]
    Unknown(String),
    /// A `{` without its `}`, or a `}` without its `{`.
    #[error("unbalanced brace in the name template '{0}' (placeholders are written {{black}})")]
    Brace(String),
    /// Starts with `/` (or `\`, or a drive `C:`): names are relative to the output folder.
    #[error("the name template '{0}' is absolute; names are made under the output folder")]
    Absolute(String),
    /// A part that is empty, `.` or `..`.
    #[error("the name template '{0}' has an empty, '.' or '..' part; names stay under the output folder")]
    BadPart(String),
}

fn known() -> String {
    PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect::<Vec<_>>().join(", ")
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Value(usize),
}

/// A checked name template: parts separated by `/` (each a folder, the last the file name
/// without its extension), made of text and `{placeholder}`s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Vec<Piece>>,
}

impl FromStr for Template {
    type Err = TemplateError;

    fn from_str(text: &str) -> Result<Template, TemplateError> {
        let t = text.to_string();
        let drive = text.len() >= 2 && text.as_bytes()[1] == b':' && text.as_bytes()[0].is_ascii_alphabetic();
        if text.starts_with(['/', '\\']) || drive {
            return Err(TemplateError::Absolute(t));
        }
        let mut parts = Vec::new();
        for raw in text.split(['/', '\\']) {
            let mut pieces = Vec::new();
            let mut rest = raw;
            while !rest.is_empty() {
                match rest.find(['{', '}']) {
                    Some(at) if rest[at..].starts_with('}') => return Err(TemplateError::Brace(t)),
                    Some(at) => {
                        if at > 0 {
                            pieces.push(Piece::Text(rest[..at].to_string()));
                        }
                        let Some(end) = rest[at..].find('}') else { return Err(TemplateError::Brace(t)) };
                        let name = &rest[at + 1..at + end];
                        if name.contains('{') {
                            return Err(TemplateError::Brace(t));
                        }
                        let Some(i) = PLACEHOLDERS.iter().position(|p| *p == name) else {
                            return Err(TemplateError::Unknown(name.to_string()));
                        };
                        pieces.push(Piece::Value(i));
                        rest = &rest[at + end + 1..];
                    }
                    None => {
                        pieces.push(Piece::Text(rest.to_string()));
                        rest = "";
                    }
                }
            }
            let literal = pieces.iter().all(|p| matches!(p, Piece::Text(_)));
            if pieces.is_empty() || (literal && matches!(raw.trim(), "." | "..")) {
                return Err(TemplateError::BadPart(t));
            }
            parts.push(pieces);
        }
        Ok(Template { parts })
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for piece in part {
                match piece {
                    Piece::Text(t) => f.write_str(t)?,
                    Piece::Value(v) => write!(f, "{{{}}}", PLACEHOLDERS[*v])?,
                }
            }
        }
        Ok(())
    }
}

/// The values a template is filled with, in the order of [`PLACEHOLDERS`]; `None` is written
/// [`EMPTY`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values {
    values: [Option<String>; PLACEHOLDERS.len()],
}

impl Values {
    /// The values of `game`: `{date}` the first date of `DT` (`YYYY-MM-DD`, or as much of it as
    /// the record gives), `{year}` its year, players, ranks, event, round and result as the
    /// record spells them, `{stem}` the input's file name without its extension, `{n}` the
    /// game's number in its input (from 1).
    pub fn of(game: &GameTree, stem: &str, n: usize) -> Values {
        let root = game.root();
        let text = |id: &str| root.value(id).map(str::to_string);
        let dt = root.value("DT").unwrap_or("");
        let first = dt.split(',').next().unwrap_or("").trim();
        let date = first.parse::<crate::select::PartialDate>().ok();
        let mut v = Values::default();
        v.set("date", date.map(|d| d.to_string()).or_else(|| text("DT")));
        v.set("year", date.map(|d| format!("{:04}", d.year)));
        v.set("black", text("PB"));
        v.set("white", text("PW"));
        v.set("black_rank", text("BR"));
        v.set("white_rank", text("WR"));
        v.set("event", text("EV"));
        v.set("round", text("RO"));
        v.set("result", text("RE"));
        v.set("stem", Some(stem.to_string()));
        v.set("n", Some(n.to_string()));
        v
    }

    /// Sets the value of `placeholder` (one of [`PLACEHOLDERS`]; another name is ignored).
    pub fn set(&mut self, placeholder: &str, value: Option<String>) {
        if let Some(i) = PLACEHOLDERS.iter().position(|p| *p == placeholder) {
            self.values[i] = value;
        }
    }
}

/// `value` made safe inside one part of a file name: NFC, no control characters, `/`, `\` or
/// characters Windows forbids (`<>:"|?*`, each written `_`), blanks made single spaces and
/// trimmed; an empty result is [`EMPTY`].
///
/// ```
/// assert_eq!(kifu::naming::safe_value(" a/b:c\u{7}?\t "), "a_b_c_");
/// assert_eq!(kifu::naming::safe_value("\u{1}"), "unknown");
/// ```
pub fn safe_value(value: &str) -> String {
    let out = clean(value);
    if out.is_empty() { EMPTY.to_string() } else { out }
}

/// [`safe_value`] without the placeholder: an empty result stays empty.
fn clean(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.nfc() {
        if c.is_control() && !c.is_whitespace() {
            continue;
        }
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            continue;
        }
        out.push(if matches!(c, '/' | '\\' | '<' | '>' | ':' | '"' | '|' | '?' | '*') { '_' } else { c });
    }
    let end = out.trim_end().len();
    out.truncate(end);
    out
}

/// One part of a path made safe as a whole: not `.` or `..`, no trailing dot or space, no
/// Windows device name before its first dot, at most `max` bytes.
fn safe_part(part: &str, max: usize) -> String {
    let mut p = part.trim_matches(' ').trim_end_matches('.').to_string();
    if p.is_empty() || p.chars().all(|c| c == '.') {
        p = EMPTY.to_string();
    }
    let head = p.split('.').next().unwrap_or("").trim_end().to_lowercase();
    if reserved(&head) {
        p.insert(0, '_');
    }
    if p.len() > max {
        let mut cut = max;
        while !p.is_char_boundary(cut) {
            cut -= 1;
        }
        p.truncate(cut);
        let trimmed = p.trim_end_matches([' ', '.']).len();
        p.truncate(trimmed.max(1));
    }
    p
}

impl Template {
    /// The relative path of the output named by this template for `values`, with `.ext`
    /// added to its last part (`ext` may be empty). Every part is safe (see the module's
    /// documentation); the path has no root, no `.` or `..` part and at least one part.
    pub fn expand(&self, values: &Values, ext: &str) -> PathBuf {
        let mut path = PathBuf::new();
        let last = self.parts.len().saturating_sub(1);
        for (i, part) in self.parts.iter().enumerate() {
            let mut text = String::new();
            for piece in part {
                match piece {
                    Piece::Text(t) => text.extend(t.chars().map(|c| if c.is_whitespace() { ' ' } else { c })),
                    Piece::Value(v) => text.push_str(&safe_value(values.values[*v].as_deref().unwrap_or(""))),
                }
            }
            let text = safe_value(&text);
            if i == last && !ext.is_empty() {
                let stem = safe_part(&text, MAX_PART_BYTES.saturating_sub(ext.len() + 1));
                path.push(format!("{stem}.{ext}"));
            } else {
                path.push(safe_part(&text, MAX_PART_BYTES));
            }
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Component, Path};

    fn values(pairs: &[(&str, &str)]) -> Values {
        let mut v = Values::default();
        for (k, val) in pairs {
            v.set(k, Some(val.to_string()));
        }
        v
    }

    #[test]
    fn templates_are_checked() {
        assert_eq!("{plyer}".parse::<Template>(), Err(TemplateError::Unknown("plyer".into())));
        assert!(matches!("/x/{n}".parse::<Template>(), Err(TemplateError::Absolute(_))));
        assert!(matches!("C:{n}".parse::<Template>(), Err(TemplateError::Absolute(_))));
        assert!(matches!("../{n}".parse::<Template>(), Err(TemplateError::BadPart(_))));
        assert!(matches!("a//{n}".parse::<Template>(), Err(TemplateError::BadPart(_))));
        assert!(matches!("{n".parse::<Template>(), Err(TemplateError::Brace(_))));
        assert!(matches!("n}".parse::<Template>(), Err(TemplateError::Brace(_))));
        let t: Template = "{year}/{date}-{black}".parse().unwrap();
        assert_eq!(t.to_string(), "{year}/{date}-{black}");
    }

    #[test]
    fn hostile_values_stay_one_safe_part() {
        let t: Template = "{black}".parse().unwrap();
        for hostile in
            ["..", "../../etc/passwd", "/abs", "C:\\x", "CON", "con.txt", "a. . .", "\u{0}\u{1b}", "  ", "x*y?"]
        {
            let p = t.expand(&values(&[("black", hostile)]), "sgf");
            let parts: Vec<_> = p.components().collect();
            assert_eq!(parts.len(), 1, "{hostile:?} gave {p:?}");
            assert!(matches!(parts[0], Component::Normal(_)), "{hostile:?} gave {p:?}");
            let name = p.to_str().unwrap();
            assert!(!name.chars().any(|c| c.is_control() || "<>:\"/\\|?*".contains(c)), "{name:?}");
            assert!(!name.to_ascii_lowercase().starts_with("con."), "{name:?}");
        }
        assert_eq!(t.expand(&values(&[("black", "..")]), "sgf"), Path::new("unknown.sgf"));
        assert_eq!(t.expand(&values(&[]), "sgf"), Path::new("unknown.sgf"));
        assert_eq!(t.expand(&values(&[("black", "CON")]), "sgf"), Path::new("_CON.sgf"));
        assert_eq!(t.expand(&values(&[("black", "Lpt\u{b9}")]), "sgf"), Path::new("_Lpt\u{b9}.sgf"));
        assert_eq!(t.expand(&values(&[("black", "conout$")]), "sgf"), Path::new("_conout$.sgf"));
        assert_eq!(t.expand(&values(&[("black", "console")]), "sgf"), Path::new("console.sgf"));
        let long = "가".repeat(300);
        let p = t.expand(&values(&[("black", &long)]), "sgf");
        assert!(p.as_os_str().len() <= MAX_PART_BYTES && p.to_str().unwrap().ends_with("가.sgf"));
    }

    #[test]
    fn folders_come_from_the_template_only() {
        let t: Template = "{year}/{event}/{n}".parse().unwrap();
        let p = t.expand(&values(&[("year", "2020"), ("event", "a/b"), ("n", "3")]), "gib");
        assert_eq!(p, Path::new("2020/a_b/3.gib"));
        let p = t.expand(&values(&[("n", "1")]), "");
        assert_eq!(p, Path::new("unknown/unknown/1"));
    }
}
