//! A small JSON parser that never recurses: values land in a flat arena, containers list their
//! children by index, and every value remembers the byte offset where it starts (for
//! diagnostics). Nesting depth is limited only by memory.

/// One JSON value in the arena.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<u32>),
    Object(Vec<(String, u32)>),
}

/// A value and where it starts in the text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JValue {
    pub kind: Kind,
    pub offset: usize,
}

/// A parsed JSON text: the arena and the index of the top-level value.
#[derive(Debug, Default)]
pub(crate) struct Doc {
    pub values: Vec<JValue>,
    pub root: u32,
}

impl Doc {
    /// The value at `i` (the arena is built by the parser, so indices are always valid).
    pub fn get(&self, i: u32) -> &JValue {
        &self.values[i as usize]
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
    notes: ParseNotes,
}

/// Parses `text` as one JSON value (surrounding whitespace allowed). Offsets in the result and
/// in errors are `base + offset in text`.
pub(crate) fn parse(text: &str, base: usize) -> Result<(Doc, ParseNotes), SyntaxError> {
    let mut p = Parser { b: text.as_bytes(), text, pos: 0, base, values: Vec::new(), notes: ParseNotes::default() };
    let root = p.run()?;
    p.ws();
    if p.pos < p.b.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok((Doc { values: p.values, root }, p.notes))
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
        self.values.push(JValue { kind, offset: self.base + at });
        (self.values.len() - 1) as u32
    }

    /// Expects an object key (a string) followed by `:`.
    fn key(&mut self) -> Result<String, SyntaxError> {
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
        // Open containers: (arena index, pending key for objects).
        let mut stack: Vec<(u32, Option<String>)> = Vec::new();
        'value: loop {
            self.ws();
            let at = self.pos;
            let mut done = match self.b.get(at) {
                None => return Err(self.err("unexpected end of input; expected a value")),
                Some(b'{') => {
                    self.pos += 1;
                    let id = self.push(Kind::Object(Vec::new()), at);
                    self.ws();
                    if self.b.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        id
                    } else {
                        let k = self.key()?;
                        stack.push((id, Some(k)));
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.pos += 1;
                    let id = self.push(Kind::Array(Vec::new()), at);
                    self.ws();
                    if self.b.get(self.pos) == Some(&b']') {
                        self.pos += 1;
                        id
                    } else {
                        stack.push((id, None));
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    let s = self.string()?;
                    self.push(Kind::String(s), at)
                }
                Some(b't') => self.literal("true", Kind::Bool(true))?,
                Some(b'f') => self.literal("false", Kind::Bool(false))?,
                Some(b'n') => self.literal("null", Kind::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(_) => return Err(self.err("expected a value")),
            };
            // Attach finished values to their containers, closing containers as they end.
            loop {
                let Some((top, key)) = stack.last_mut() else { return Ok(done) };
                let top = *top;
                let is_obj = key.is_some();
                match (&mut self.values[top as usize].kind, key.take()) {
                    (Kind::Object(members), Some(k)) => members.push((k, done)),
                    (Kind::Array(items), None) => items.push(done),
                    _ => return Err(self.err("internal parser state")),
                }
                self.ws();
                match self.b.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        if is_obj {
                            let k = self.key()?;
                            if let Some(last) = stack.last_mut() {
                                last.1 = Some(k);
                            }
                        }
                        continue 'value;
                    }
                    Some(b'}') if is_obj => {
                        self.pos += 1;
                        stack.pop();
                        done = top;
                    }
                    Some(b']') if !is_obj => {
                        self.pos += 1;
                        stack.pop();
                        done = top;
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

    /// Reads a string starting at the opening quote.
    fn string(&mut self) -> Result<String, SyntaxError> {
        self.pos += 1;
        let mut out = String::new();
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
                    return Ok(out);
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

    fn kinds(text: &str) -> Vec<Kind> {
        parse(text, 0).unwrap().0.values.into_iter().map(|v| v.kind).collect()
    }

    #[test]
    fn parses_values_in_document_order() {
        assert_eq!(
            kinds(r#" {"a": [1, -2.5e1, "x\u00e9\ud834\udd1e\n"], "b": {}, "c": [true, false, null]} "#),
            vec![
                Kind::Object(vec![("a".into(), 1), ("b".into(), 5), ("c".into(), 6)]),
                Kind::Array(vec![2, 3, 4]),
                Kind::Number(1.0),
                Kind::Number(-25.0),
                Kind::String("xé𝄞\n".into()),
                Kind::Object(vec![]),
                Kind::Array(vec![7, 8, 9]),
                Kind::Bool(true),
                Kind::Bool(false),
                Kind::Null,
            ]
        );
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
        assert_eq!(doc.values[1].kind, Kind::String("a\u{FFFD}b".into()));
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
