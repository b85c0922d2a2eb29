//! A small JSON parser that never recurses: values land in one flat arena, containers chain
//! their children by index, all string text shares one buffer, and every value remembers the
//! byte offset where it starts (for diagnostics). Nesting depth is limited only by memory, and
//! a value costs a fixed few dozen bytes with no allocation of its own.

/// No value (end of a child chain).
const NONE: u32 = u32::MAX;

/// The kind of a JSON value; strings and container children live elsewhere in the [`Doc`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number(f64),
    /// Text at `start..start + len` of the document's string buffer.
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
    key: (u32, u32),
}

/// A parsed JSON text: the arena, the string buffer and the index of the top-level value.
#[derive(Debug, Default)]
pub(crate) struct Doc {
    values: Vec<JValue>,
    strings: String,
    pub root: u32,
}

impl Doc {
    /// The value at `i` (indices handed out by the parser are always valid).
    pub(crate) fn get(&self, i: u32) -> &JValue {
        &self.values[i as usize]
    }

    fn text(&self, (start, len): (u32, u32)) -> &str {
        self.strings.get(start as usize..(start + len) as usize).unwrap_or("")
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
#[derive(Clone, Debug, Default)]
pub(crate) struct ParseNotes {
    pub lone_surrogates: Vec<usize>,
}

struct Parser<'a> {
    b: &'a [u8],
    text: &'a str,
    pos: usize,
    base: usize,
    values: Vec<JValue>,
    strings: String,
    notes: ParseNotes,
}

/// Parses `text` as one JSON value (surrounding whitespace allowed). Offsets in the result and
/// in errors are `base + offset in text`.
pub(crate) fn parse(text: &str, base: usize) -> Result<(Doc, ParseNotes), SyntaxError> {
    if u32::try_from(text.len()).is_err() {
        return Err(SyntaxError { offset: base, message: "the input is larger than 4 GiB".into() });
    }
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        pos: 0,
        base,
        values: Vec::new(),
        strings: String::new(),
        notes: ParseNotes::default(),
    };
    let root = p.run()?;
    p.ws();
    if p.pos < p.b.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok((Doc { values: p.values, strings: p.strings, root }, p.notes))
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

    /// Expects an object key (a string) followed by `:`.
    fn key(&mut self) -> Result<(u32, u32), SyntaxError> {
        self.ws();
        if self.b.get(self.pos) != Some(&b'"') {
            return Err(self.err("expected a string key"));
        }
        let k = self.string()?;
        self.ws();
        if self.b.get(self.pos) != Some(&b':') {
            return Err(self.err("expected ':' after the key"));
        }
        self.pos += 1;
        Ok(k)
    }

    fn run(&mut self) -> Result<u32, SyntaxError> {
        // Open containers: arena index, last child so far, key of the member being read.
        struct Open {
            id: u32,
            last: u32,
            key: Option<(u32, u32)>,
        }
        let mut stack: Vec<Open> = Vec::new();
        'value: loop {
            self.ws();
            let at = self.pos;
            let mut done = match self.b.get(at) {
                None => return Err(self.err("unexpected end of input; expected a value")),
                Some(b'{') => {
                    self.pos += 1;
                    let id = self.push(Kind::Object { first: NONE, len: 0 }, at);
                    self.ws();
                    if self.b.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        id
                    } else {
                        let k = self.key()?;
                        stack.push(Open { id, last: NONE, key: Some(k) });
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
                        stack.push(Open { id, last: NONE, key: None });
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
                let is_obj = top.key.is_some();
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
                            let k = self.key()?;
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

    fn literal(&mut self, word: &str, kind: Kind) -> Result<u32, SyntaxError> {
        let at = self.pos;
        if self.b[at..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(self.push(kind, at))
        } else {
            Err(self.err("expected a value"))
        }
    }

    fn number(&mut self) -> Result<u32, SyntaxError> {
        let at = self.pos;
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

    /// Reads a string starting at the opening quote into the string buffer; returns its range.
    fn string(&mut self) -> Result<(u32, u32), SyntaxError> {
        self.pos += 1;
        let mut out = std::mem::take(&mut self.strings);
        let begin = out.len();
        let r = self.string_into(&mut out);
        self.strings = out;
        // The buffer never outgrows the input, whose size fits in u32.
        r.map(|()| (begin as u32, (self.strings.len() - begin) as u32))
    }

    fn string_into(&mut self, out: &mut String) -> Result<(), SyntaxError> {
        loop {
            let start = self.pos;
            while let Some(&c) = self.b.get(self.pos) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.pos += 1;
            }
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
    fn deep_nesting_needs_no_stack() {
        let n = 200_000;
        let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
        let (doc, _) = parse(&text, 0).unwrap();
        assert_eq!(doc.values.len(), n);
        let text = format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
        assert_eq!(parse(&text, 0).unwrap().0.values.len(), n + 1);
    }
}
