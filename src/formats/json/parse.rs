//! A small JSON parser that never recurses: values land in one flat arena, containers chain
//! their children by index, and every value remembers the byte offset where it starts (for
//! diagnostics). Strings without escapes are spans of the input; the others are unescaped into
//! one buffer. Nesting depth is limited only by memory, and a value costs a fixed few dozen
//! bytes with no allocation of its own.
//!
//! [`parse_keeping`] builds only what a reader reads: the values of other keys outside objects
//! that may be nodes are checked by [`Parser::skip`] (same errors, same notes) and stand as
//! `null`.

/// No value (end of a child chain).
const NONE: u32 = u32::MAX;

/// Text at `start..start + len` of the input, or of the string buffer at `start - input length`.
type Span = (u32, u32);

/// The kind of a JSON value; strings and container children live elsewhere in the [`Doc`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number(f64),
    /// Text at a [`Span`].
    String {
        start: u32,
        len: u32,
    },
    /// `len` items, chained from `first`.
    Array {
        first: u32,
        len: u32,
    },
    /// `len` members, chained from `first`; each member value carries its key.
    Object {
        first: u32,
        len: u32,
    },
}

/// A value, where it starts in the text, its next sibling and (in an object) its key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JValue {
    pub kind: Kind,
    pub offset: usize,
    next: u32,
    key: Span,
}

/// A parsed JSON text: the arena, the input and string buffer its strings point into, and the
/// index of the top-level value.
#[derive(Debug, Default)]
pub(crate) struct Doc<'a> {
    values: Vec<JValue>,
    input: &'a str,
    strings: String,
    pub root: u32,
}

/// The text of `span` (see [`Span`]).
fn span_text<'s>(input: &'s str, strings: &'s str, (start, len): Span) -> &'s str {
    let (start, len) = (start as usize, len as usize);
    let text = match start.checked_sub(input.len()) {
        None => input.get(start..start + len),
        Some(at) => strings.get(at..at + len),
    };
    text.unwrap_or("")
}

impl Doc<'_> {
    /// The value at `i` (indices handed out by the parser are always valid).
    pub(crate) fn get(&self, i: u32) -> &JValue {
        &self.values[i as usize]
    }

    fn text(&self, span: Span) -> &str {
        span_text(self.input, &self.strings, span)
    }

    /// The text of a string value.
    pub(crate) fn str(&self, i: u32) -> Option<&str> {
        match self.get(i).kind {
            Kind::String { start, len } => Some(self.text((start, len))),
            _ => None,
        }
    }

    fn chain(&self, first: u32, len: u32) -> impl Iterator<Item = u32> + '_ {
        let mut cur = first;
        (0..len).map(move |_| {
            let i = cur;
            cur = self.get(i).next;
            i
        })
    }

    /// The items of an array (nothing for other values).
    pub(crate) fn items(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let (first, len) = match self.get(i).kind {
            Kind::Array { first, len } => (first, len),
            _ => (NONE, 0),
        };
        self.chain(first, len)
    }

    /// The members of an object in document order, repeated keys included (nothing for other
    /// values).
    pub(crate) fn members(&self, i: u32) -> impl Iterator<Item = (&str, u32)> + '_ {
        let (first, len) = match self.get(i).kind {
            Kind::Object { first, len } => (first, len),
            _ => (NONE, 0),
        };
        self.chain(first, len).map(|v| (self.text(self.get(v).key), v))
    }

    /// The item after `i` in its array (`None` after the last), in constant time.
    pub(crate) fn next_item(&self, i: u32) -> Option<u32> {
        Some(self.get(i).next).filter(|&n| n != NONE)
    }

    /// Number of items or members of a container (0 for other values).
    pub(crate) fn len(&self, i: u32) -> usize {
        match self.get(i).kind {
            Kind::Array { len, .. } | Kind::Object { len, .. } => len as usize,
            _ => 0,
        }
    }
}

/// A syntax error: what was expected, and the byte offset where it went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// Non-fatal findings of the parser (lone surrogates replaced by U+FFFD).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ParseNotes {
    pub lone_surrogates: Vec<usize>,
}

/// Where unescaped string text goes: the string buffer, or nowhere for a skipped value.
trait Out {
    fn push_str(&mut self, s: &str);
    fn push(&mut self, c: char);
}

impl Out for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
    fn push(&mut self, c: char) {
        String::push(self, c);
    }
}

struct Discard;

impl Out for Discard {
    fn push_str(&mut self, _: &str) {}
    fn push(&mut self, _: char) {}
}

struct Parser<'a> {
    b: &'a [u8],
    text: &'a str,
    pos: usize,
    base: usize,
    /// With [`parse_keeping`]: the keys whose values are built outside objects that may be nodes.
    keep: Option<&'a [&'a str]>,
    values: Vec<JValue>,
    strings: String,
    notes: ParseNotes,
}

/// Parses `text` as one JSON value (surrounding whitespace allowed). Offsets in the result and
/// in errors are `base + offset in text`.
#[cfg(test)]
pub(crate) fn parse(text: &str, base: usize) -> Result<(Doc<'_>, ParseNotes), SyntaxError> {
    run_parser(text, base, None)
}

/// [`parse`], building only the values of the keys in `keep` in objects that cannot be nodes
/// (those that are not items of an array under a `"nodes"` key): the values of other keys
/// there are checked as [`parse`] checks them, with the same errors and notes, and are `null`.
pub(crate) fn parse_keeping<'a>(
    text: &'a str,
    base: usize,
    keep: &'a [&'a str],
) -> Result<(Doc<'a>, ParseNotes), SyntaxError> {
    run_parser(text, base, Some(keep))
}

fn run_parser<'a>(
    text: &'a str,
    base: usize,
    keep: Option<&'a [&'a str]>,
) -> Result<(Doc<'a>, ParseNotes), SyntaxError> {
    // Spans of the string buffer start after the input, and the buffer is shorter than it:
    // both fit in u32 together (readers stop larger inputs before, with their own error).
    if text.len() > (u32::MAX / 2) as usize {
        return Err(SyntaxError { offset: base, message: "the input is larger than 2 GiB".into() });
    }
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        pos: 0,
        base,
        keep,
        values: Vec::new(),
        strings: String::new(),
        notes: ParseNotes::default(),
    };
    let root = p.run()?;
    p.ws();
    if p.pos < p.b.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok((Doc { values: p.values, input: text, strings: p.strings, root }, p.notes))
}

/// An open container: arena index, last child so far, key of the member being read, and
/// whether it is an object. `nodes`: for an array, it is the value of a `"nodes"` key; for an
/// object, it is an item of such an array (it may be a node, so all its values are built).
struct Open {
    id: u32,
    last: u32,
    key: Option<Span>,
    is_obj: bool,
    nodes: bool,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> SyntaxError {
        SyntaxError { offset: self.base + self.pos, message: message.to_string() }
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.pos) {
            self.pos += 1;
        }
    }

    fn push(&mut self, kind: Kind, at: usize) -> u32 {
        self.values.push(JValue { kind, offset: self.base + at, next: NONE, key: (0, 0) });
        (self.values.len() - 1) as u32
    }

    /// Expects an object key (a string, read by `string`) followed by `:`.
    fn key<T>(&mut self, string: impl FnOnce(&mut Self) -> Result<T, SyntaxError>) -> Result<T, SyntaxError> {
        self.ws();
        if self.b.get(self.pos) != Some(&b'"') {
            return Err(self.err("expected a string key"));
        }
        let k = string(self)?;
        self.ws();
        if self.b.get(self.pos) != Some(&b':') {
            return Err(self.err("expected ':' after the key"));
        }
        self.pos += 1;
        Ok(k)
    }

    /// Whether the value about to be read (a member of `top`) is built.
    fn builds(&self, top: Option<&Open>) -> bool {
        match (self.keep, top) {
            (Some(keep), Some(Open { is_obj: true, nodes: false, key: Some(k), .. })) => {
                keep.contains(&span_text(self.text, &self.strings, *k))
            }
            _ => true,
        }
    }

    fn run(&mut self) -> Result<u32, SyntaxError> {
        let mut stack: Vec<Open> = Vec::new();
        'value: loop {
            self.ws();
            let at = self.pos;
            let mut done = match self.b.get(at) {
                _ if !self.builds(stack.last()) => {
                    self.skip()?;
                    self.push(Kind::Null, at)
                }
                None => return Err(self.err("unexpected end of input; expected a value")),
                Some(b'{') => {
                    self.pos += 1;
                    let id = self.push(Kind::Object { first: NONE, len: 0 }, at);
                    self.ws();
                    if self.b.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        id
                    } else {
                        let key = Some(self.key(Self::string)?);
                        let nodes = stack.last().is_some_and(|top| !top.is_obj && top.nodes);
                        stack.push(Open { id, last: NONE, key, is_obj: true, nodes });
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    let id = self.push(Kind::Array { first: NONE, len: 0 }, at);
                    self.ws();
                    if self.b.get(self.pos) == Some(&b']') {
                        self.pos += 1;
                        id
                    } else {
                        let nodes = stack
                            .last()
                            .and_then(|top| top.key)
                            .is_some_and(|k| span_text(self.text, &self.strings, k) == "nodes");
                        stack.push(Open { id, last: NONE, key: None, is_obj: false, nodes });
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    let (start, len) = self.string()?;
                    self.push(Kind::String { start, len }, at)
                }
                Some(b't') => self.literal("true", Kind::Bool(true))?,
                Some(b'f') => self.literal("false", Kind::Bool(false))?,
                Some(b'n') => self.literal("null", Kind::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(_) => return Err(self.err("expected a value")),
            };
            // Attach finished values to their containers, closing containers as they end.
            loop {
                let Some(top) = stack.last_mut() else { return Ok(done) };
                let is_obj = top.is_obj;
                if let Some(k) = top.key.take() {
                    self.values[done as usize].key = k;
                }
                if top.last == NONE {
                    if let Kind::Array { first, .. } | Kind::Object { first, .. } =
                        &mut self.values[top.id as usize].kind
                    {
                        *first = done;
                    }
                } else {
                    self.values[top.last as usize].next = done;
                }
                if let Kind::Array { len, .. } | Kind::Object { len, .. } = &mut self.values[top.id as usize].kind {
                    *len += 1;
                }
                top.last = done;
                let id = top.id;
                self.ws();
                match self.b.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        if is_obj {
                            let k = self.key(Self::string)?;
                            if let Some(top) = stack.last_mut() {
                                top.key = Some(k);
                            }
                        }
                        continue 'value;
                    }
                    Some(b'}') if is_obj => {
                        self.pos += 1;
                        stack.pop();
                        done = id;
                    }
                    Some(b']') if !is_obj => {
                        self.pos += 1;
                        stack.pop();
                        done = id;
                    }
                    None => return Err(self.err("unexpected end of input; a container is not closed")),
                    _ if is_obj => return Err(self.err("expected ',' or '}'")),
                    _ => return Err(self.err("expected ',' or ']'")),
                }
            }
        }
    }

    /// Checks one value as [`Self::run`] reads it (same errors at the same offsets, same notes)
    /// and builds nothing. The stack holds whether each open container is an object.
    fn skip(&mut self) -> Result<(), SyntaxError> {
        let mut stack: Vec<bool> = Vec::new();
        'value: loop {
            self.ws();
            match self.b.get(self.pos) {
                None => return Err(self.err("unexpected end of input; expected a value")),
                Some(&open @ (b'{' | b'[')) => {
                    self.pos += 1;
                    self.ws();
                    let is_obj = open == b'{';
                    if self.b.get(self.pos) == Some(if is_obj { &b'}' } else { &b']' }) {
                        self.pos += 1;
                    } else {
                        if is_obj {
                            self.key(Self::skip_string)?;
                        }
                        stack.push(is_obj);
                        continue 'value;
                    }
                }
                Some(b'"') => self.skip_string()?,
                Some(b't') => self.word("true")?,
                Some(b'f') => self.word("false")?,
                Some(b'n') => self.word("null")?,
                Some(b'-' | b'0'..=b'9') => self.number_end()?,
                Some(_) => return Err(self.err("expected a value")),
            }
            loop {
                let Some(&is_obj) = stack.last() else { return Ok(()) };
                self.ws();
                match self.b.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        if is_obj {
                            self.key(Self::skip_string)?;
                        }
                        continue 'value;
                    }
                    Some(b'}') if is_obj => {
                        self.pos += 1;
                        stack.pop();
                    }
                    Some(b']') if !is_obj => {
                        self.pos += 1;
                        stack.pop();
                    }
                    None => return Err(self.err("unexpected end of input; a container is not closed")),
                    _ if is_obj => return Err(self.err("expected ',' or '}'")),
                    _ => return Err(self.err("expected ',' or ']'")),
                }
            }
        }
    }

    /// Expects `word` (a literal) at the current position.
    fn word(&mut self, word: &str) -> Result<(), SyntaxError> {
        if self.b[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.err("expected a value"))
        }
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<u32, SyntaxError> {
        let at = self.pos;
        self.word(word)?;
        Ok(self.push(kind, at))
    }

    /// Moves past a number, checking its syntax.
    fn number_end(&mut self) -> Result<(), SyntaxError> {
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.b.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos > s
        };
        if self.b.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.b.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.err("invalid number")),
        }
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.err("invalid number: digits expected after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.b.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.b.get(self.pos) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.err("invalid number: digits expected in the exponent"));
            }
        }
        Ok(())
    }

    fn number(&mut self) -> Result<u32, SyntaxError> {
        let at = self.pos;
        self.number_end()?;
        let x = self.text[at..self.pos].parse::<f64>().unwrap_or(f64::NAN);
        Ok(self.push(Kind::Number(x), at))
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let h = self.b.get(self.pos..self.pos + 4).ok_or_else(|| self.err("incomplete \\u escape"))?;
        let s = std::str::from_utf8(h).ok().filter(|s| s.bytes().all(|c| c.is_ascii_hexdigit()));
        let v = s.and_then(|s| u32::from_str_radix(s, 16).ok()).ok_or_else(|| self.err("invalid \\u escape"))?;
        self.pos += 4;
        Ok(v)
    }

    /// Moves past the characters that need no unescaping.
    fn plain(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                break;
            }
            self.pos += 1;
        }
    }

    /// Reads a string starting at the opening quote; returns its span: of the input when it has
    /// no escapes, else of its unescaped text in the string buffer.
    fn string(&mut self) -> Result<Span, SyntaxError> {
        if let Some((start, end)) = self.unescaped_string() {
            return Ok((start as u32, (end - start) as u32));
        }
        let mut out = std::mem::take(&mut self.strings);
        let begin = out.len();
        let r = self.string_into(&mut out);
        self.strings = out;
        // The input and the buffer (never longer than the input) fit in u32 together.
        r.map(|()| ((self.b.len() + begin) as u32, (self.strings.len() - begin) as u32))
    }

    /// Checks a string starting at the opening quote, keeping nothing.
    fn skip_string(&mut self) -> Result<(), SyntaxError> {
        match self.unescaped_string() {
            Some(_) => Ok(()),
            None => self.string_into(&mut Discard),
        }
    }

    /// Moves past a string starting at the opening quote when it needs no unescaping, giving
    /// its text's range; else moves only past the quote (`None`).
    fn unescaped_string(&mut self) -> Option<(usize, usize)> {
        self.pos += 1;
        let start = self.pos;
        self.plain();
        if self.b.get(self.pos) == Some(&b'"') {
            self.pos += 1;
            return Some((start, self.pos - 1));
        }
        self.pos = start;
        None
    }

    fn string_into(&mut self, out: &mut impl Out) -> Result<(), SyntaxError> {
        loop {
            let start = self.pos;
            self.plain();
            // Stops only at ASCII bytes, so both ends are character boundaries.
            out.push_str(&self.text[start..self.pos]);
            match self.b.get(self.pos) {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    let esc_at = self.pos;
                    self.pos += 1;
                    let Some(&e) = self.b.get(self.pos) else { return Err(self.err("unterminated string")) };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) && self.b[self.pos..].starts_with(b"\\u") {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    self.pos = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or_else(|| {
                                self.notes.lone_surrogates.push(self.base + esc_at);
                                '\u{FFFD}'
                            }));
                        }
                        _ => {
                            self.pos = esc_at;
                            return Err(self.err("invalid escape in string"));
                        }
                    }
                }
                Some(_) => return Err(self.err("control character in string; it must be escaped")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compact JSON of value `i` (recursive; for small test documents only).
    fn dump(doc: &Doc, i: u32) -> String {
        match doc.get(i).kind {
            Kind::Null => "null".into(),
            Kind::Bool(b) => b.to_string(),
            Kind::Number(x) => x.to_string(),
            Kind::String { .. } => format!("{:?}", doc.str(i).unwrap()),
            Kind::Array { .. } => format!("[{}]", doc.items(i).map(|c| dump(doc, c)).collect::<Vec<_>>().join(",")),
            Kind::Object { .. } => format!(
                "{{{}}}",
                doc.members(i).map(|(k, c)| format!("{k:?}:{}", dump(doc, c))).collect::<Vec<_>>().join(",")
            ),
        }
    }

    #[test]
    fn parses_values_in_document_order() {
        let (doc, _) =
            parse(r#" {"a": [1, -2.5e1, "x\u00e9\ud834\udd1e\n"], "b": {}, "c": [true, false, null], "a": 0} "#, 0)
                .unwrap();
        assert_eq!(dump(&doc, doc.root), r#"{"a":[1,-25,"xé𝄞\n"],"b":{},"c":[true,false,null],"a":0}"#);
        assert_eq!(doc.len(doc.root), 4);
        assert_eq!(doc.get(doc.items(doc.members(doc.root).next().unwrap().1).nth(1).unwrap()).offset, 11);
    }

    #[test]
    fn reports_offsets_of_syntax_errors() {
        for (text, at) in [
            ("[1, 2", 5),
            ("{\"a\" 1}", 5),
            ("[01]", 2),
            ("\"a\tb\"", 2),
            ("[1] x", 4),
            ("{\"a\":1,}", 7),
            ("[\"\\x\"]", 2),
            ("", 0),
        ] {
            let e = parse(text, 10).unwrap_err();
            assert_eq!(e.offset, at + 10, "{text}: {e:?}");
        }
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let (doc, notes) = parse(r#"["a\ud800b"]"#, 0).unwrap();
        assert_eq!(doc.str(1), Some("a\u{FFFD}b"));
        assert_eq!(notes.lone_surrogates, vec![3]);
    }

    #[test]
    fn only_kept_values_and_nodes_are_built() {
        let text =
            r#"{"info": {"a": [1, "\u00e9"]}, "nodes": [{"info": ["x"]}, [["info", []]]], "n\u006fdes": [{"x": 1}]}"#;
        let (doc, _) = parse_keeping(text, 5, &["nodes"]).unwrap();
        let members: Vec<(&str, u32)> = doc.members(doc.root).collect();
        let kinds: Vec<(&str, Kind, usize)> =
            members.iter().map(|&(k, v)| (k, doc.get(v).kind, doc.get(v).offset)).collect();
        assert!(matches!(kinds[0], ("info", Kind::Null, 14)), "{kinds:?}");
        assert_eq!(kinds[1].0, "nodes");
        // A key with escapes is compared as it reads: a node list too.
        assert_eq!(kinds[2].0, "nodes");
        assert_eq!(dump(&doc, members[1].1), r#"[{"info":["x"]},[["info",[]]]]"#);
        assert_eq!(dump(&doc, members[2].1), r#"[{"x":1}]"#);
        // Outside node lists, objects at any depth build only the kept keys.
        let (doc, _) = parse_keeping(r#"[{"a": {"b": 1}, "nodes": []}]"#, 0, &["nodes"]).unwrap();
        assert_eq!(dump(&doc, doc.root), r#"[{"a":null,"nodes":[]}]"#);
    }

    /// Every cut and every one-byte change of `text` (with a few inserted tokens) as `parse`
    /// and as `parse_keeping` with nothing kept: the same error or the same notes.
    fn skipping_agrees_on_variants_of(text: &str) {
        let same = |t: &str| {
            let full = parse(t, 3).map(|(_, n)| n);
            let skipped = parse_keeping(t, 3, &[]).map(|(_, n)| n);
            assert_eq!(full, skipped, "{t:?}");
        };
        let bytes = ["\"", "\\", "{", "}", "[", "]", ",", ":", "0", "-", ".", "e", "u", "\t", " ", "x", "t", "n"];
        let tokens =
            [r"\ud800", r"\udc00", r"\ud834\udd1e", r"\ud800\u0041", r"\uZZ", "1e+", "01", "é", "[1,]", "{\"a\" 1}"];
        for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
            same(&text[..at]);
            for t in bytes.iter().chain(&tokens) {
                same(&format!("{}{t}{}", &text[..at], &text[at..]));
                let next = text[at..].chars().next().map_or(0, char::len_utf8);
                same(&format!("{}{t}{}", &text[..at], &text[at + next..]));
            }
        }
    }

    #[test]
    fn skipped_values_fail_and_warn_as_built_ones() {
        skipping_agrees_on_variants_of(
            r#" {"info": {"b": "x\"y\u00e9\ud834\udd1e", "k": -6.5e+2, "m": [{"c": "B", "x": 3}, [], {}], "t": [true, false, null]}} "#,
        );
        skipping_agrees_on_variants_of(r#"{"a": "\ud800 é", "b": [0.5, {"c": [[]]}]}"#);
    }

    #[test]
    fn deep_nesting_needs_no_stack() {
        let n = 200_000;
        let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
        let (doc, _) = parse(&text, 0).unwrap();
        assert_eq!(doc.values.len(), n);
        let text = format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
        assert_eq!(parse(&text, 0).unwrap().0.values.len(), n + 1);
    }
}
