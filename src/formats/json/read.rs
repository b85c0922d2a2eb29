//! Reading: JSON text → arena ([`super::parse`]) → game trees, walked with an explicit stack.
//! Shape problems name the JSON path of the offending value and skip only that value.

use super::codes;
use super::parse::{self, Doc, Kind};
use crate::diag::{Diagnostic, Sink};
use crate::formats::{ReadError, ReadOptions, ReadOutput};
use crate::model::{Collection, GameTree, NewValue};
use std::collections::HashMap;
use std::sync::Arc;

/// Reads a document (`ndjson == false`) or one JSON value per line.
pub(super) fn read(bytes: Vec<u8>, options: &ReadOptions, ndjson: bool) -> Result<ReadOutput, ReadError> {
    let mut sink = Sink::new();
    let decoded = crate::charset::decode_owned(bytes, options.encoding, Some("UTF-8"), &mut sink);
    let text = decoded.text;
    if text.len() > crate::model::tree::MAX_TEXT {
        sink.push(Diagnostic::error(codes::TOO_LARGE, "the input is larger than a game tree can hold (2 GiB)"));
        return Err(ReadError { diagnostics: sink.finish("") });
    }
    let mut games = Vec::new();
    if ndjson {
        let mut start = 0;
        let mut line_no = 0;
        while start < text.len() {
            let end = memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
            let line = &text[start..end];
            if !line.trim().is_empty() {
                let prefix = format!("line {}: ", line_no + 1);
                parse_value(line, start, &prefix, &mut games, &mut sink);
            }
            line_no += 1;
            start = end + 1;
        }
    } else {
        parse_value(&text, 0, "", &mut games, &mut sink);
    }
    let no_game = games.is_empty();
    if no_game {
        sink.push(Diagnostic::error(codes::NO_GAME, "no game found in the input"));
    }
    let diagnostics = sink.finish(&text);
    if no_game {
        return Err(ReadError { diagnostics });
    }
    Ok(ReadOutput { collection: Collection::new(games), charset: Some(decoded.decision), diagnostics })
}

/// Parses one JSON value of `text` (placed at `base` in the input) and reads its games.
fn parse_value(text: &str, base: usize, prefix: &str, games: &mut Vec<GameTree>, sink: &mut Sink) {
    match parse::parse_keeping(text, base, READ_KEYS) {
        Err(e) => {
            sink.push_at(e.offset, Diagnostic::error(codes::SYNTAX, format!("{prefix}malformed JSON: {}", e.message)))
        }
        Ok((doc, notes)) => {
            for at in notes.lone_surrogates {
                sink.push_at(
                    at,
                    Diagnostic::warning(codes::LONE_SURROGATE, "a \\u escape is half a surrogate pair; read as U+FFFD"),
                );
            }
            Reader { doc: &doc, sink, prefix, values: Vec::new() }.top(games);
        }
    }
}

/// One step of a JSON path.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

/// A path as a chain of segments in an arena (variations share their parents' segments).
#[derive(Default)]
struct Paths {
    segs: Vec<(Option<usize>, Seg)>,
}

impl Paths {
    fn add(&mut self, parent: Option<usize>, seg: Seg) -> usize {
        self.segs.push((parent, seg));
        self.segs.len() - 1
    }

    /// `games[0].nodes[12].B`, with keys that are not plain identifiers quoted (`["a b"]`).
    fn render(&self, at: Option<usize>, extra: &[Seg]) -> String {
        let mut chain: Vec<&Seg> = extra.iter().rev().collect();
        let mut cur = at;
        while let Some(i) = cur {
            let Some((parent, seg)) = self.segs.get(i) else { break };
            chain.push(seg);
            cur = *parent;
        }
        let mut s = String::new();
        for seg in chain.iter().rev() {
            match seg {
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
                Seg::Key(k)
                    if k.bytes().next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
                        && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') =>
                {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Seg::Key(k) => s.push_str(&format!("[{k:?}]")),
            }
        }
        if s.is_empty() { "(top)".into() } else { s }
    }
}

struct Reader<'a> {
    doc: &'a Doc<'a>,
    sink: &'a mut Sink,
    prefix: &'a str,
    /// The values of the property being read (kept for the next one).
    values: Vec<NewValue<'a>>,
}

fn describe(kind: &Kind) -> &'static str {
    match kind {
        Kind::Null => "null",
        Kind::Bool(_) => "a boolean",
        Kind::Number(_) => "a number",
        Kind::String { .. } => "a string",
        Kind::Array { .. } => "an array",
        Kind::Object { .. } => "an object",
    }
}

impl<'a> Reader<'a> {
    fn shape(&mut self, value: u32, path: String, expected: &str) {
        let v = self.doc.get(value);
        let msg = format!("{}{path}: expected {expected}, found {}", self.prefix, describe(&v.kind));
        self.sink.push_at(v.offset, Diagnostic::error(codes::SHAPE, msg));
    }

    fn warn(&mut self, value: u32, code: &'static str, msg: String) {
        let at = self.doc.get(value).offset;
        self.sink.push_at(at, Diagnostic::warning(code, format!("{}{msg}", self.prefix)));
    }

    /// The members of an object among `known`, the last one winning for a repeated key (with a
    /// warning); unknown keys are reported.
    fn members(&mut self, obj: u32, paths: &Paths, at: Option<usize>, known: &'static [&'static str]) -> Members {
        let doc = self.doc;
        let mut out: Vec<(&'static str, u32)> = Vec::new();
        for (k, v) in doc.members(obj) {
            match known.iter().find(|&&n| n == k) {
                Some(&name) => {
                    if let Some(slot) = out.iter_mut().find(|(n, _)| *n == name) {
                        let p = paths.render(at, &[Seg::Key(k.to_string())]);
                        self.warn(v, codes::DUPLICATE_KEY, format!("{p}: repeated key; the last one is used"));
                        slot.1 = v;
                    } else {
                        out.push((name, v));
                    }
                }
                None => {
                    let p = paths.render(at, &[Seg::Key(k.to_string())]);
                    self.warn(v, codes::UNKNOWN_KEY, format!("{p}: unknown key ignored"));
                }
            }
        }
        Members(out)
    }

    /// The top-level value: a document with `games`, or a single game object.
    fn top(&mut self, games: &mut Vec<GameTree>) {
        let doc = self.doc;
        let root = doc.root;
        let paths = Paths::default();
        if !matches!(doc.get(root).kind, Kind::Object { .. }) {
            self.shape(root, "(top)".into(), "an object with \"format\": \"kifu\"");
            return;
        }
        let raw = |name: &str| doc.members(root).filter(|(k, _)| *k == name).last().map(|(_, v)| v);
        if raw("games").is_none() {
            self.marker(root, raw("format"), raw("version"));
            if let Some(g) = self.game(root, None) {
                games.push(g);
            }
            return;
        }
        let members = self.members(root, &paths, None, DOC_KEYS);
        self.marker(root, members.get("format"), members.get("version"));
        let Some(list) = members.get("games") else { return };
        if !matches!(doc.get(list).kind, Kind::Array { .. }) {
            self.shape(list, "games".into(), "an array of games");
            return;
        }
        for (i, g) in doc.items(list).enumerate() {
            if let Some(t) = self.game(g, Some(i)) {
                games.push(t);
            }
        }
    }

    fn marker(&mut self, root: u32, format: Option<u32>, version: Option<u32>) {
        let doc = self.doc;
        match format.and_then(|f| doc.str(f)) {
            Some(s) if s == super::MARKER => {}
            _ => self.warn(
                format.unwrap_or(root),
                codes::NOT_KIFU,
                "the \"format\": \"kifu\" marker is missing or different; reading anyway".into(),
            ),
        }
        match version.map(|v| &doc.get(v).kind) {
            Some(Kind::Number(n)) if *n >= 1.0 && *n <= f64::from(super::VERSION) => {}
            Some(Kind::Number(n)) if *n > f64::from(super::VERSION) => self.warn(
                version.unwrap_or(root),
                codes::VERSION,
                format!("version {n} is newer than this reader (version {}); reading it as such", super::VERSION),
            ),
            _ => self.warn(
                version.unwrap_or(root),
                codes::VERSION,
                format!(
                    "the \"version\" field is missing or not a known version; reading it as version {}",
                    super::VERSION
                ),
            ),
        }
    }

    /// One game object → a tree; `None` (with a diagnostic) when it has no root node.
    fn game(&mut self, value: u32, index: Option<usize>) -> Option<GameTree> {
        let doc = self.doc;
        let mut paths = Paths::default();
        let game_path = index.map(|i| {
            let g = paths.add(None, Seg::Key("games".into()));
            paths.add(Some(g), Seg::Index(i))
        });
        if !matches!(doc.get(value).kind, Kind::Object { .. }) {
            self.shape(value, paths.render(game_path, &[]), "a game object");
            return None;
        }
        // Nodes are pushed in pre-order straight into the tree: the work list is depth-first
        // and each variation's first node follows the previous child of its parent.
        let mut b = GameTree::with_source(Arc::new(String::new()));
        let mut last_child: HashMap<u32, u32> = HashMap::new();
        // Work list: (variation object, node to hang it under, its path); the game itself comes
        // first, with no parent.
        let mut work: Vec<(u32, Option<u32>, Option<usize>)> = vec![(value, None, game_path)];
        while let Some((var, parent, at)) = work.pop() {
            let members = self.members(var, &paths, at, if parent.is_none() { GAME_KEYS } else { VAR_KEYS });
            let nodes = match members.get("nodes").map(|n| (n, doc.get(n).kind)) {
                Some((n, Kind::Array { .. })) => Some(n),
                Some((n, _)) => {
                    self.shape(n, paths.render(at, &[Seg::Key("nodes".into())]), "an array of nodes");
                    None
                }
                None => {
                    self.shape(var, paths.render(at, &[]), "an object with a \"nodes\" array");
                    None
                }
            };
            let vars: Vec<u32> = match members.get("variations").map(|n| (n, doc.get(n).kind)) {
                Some((n, Kind::Array { .. })) => doc.items(n).collect(),
                None => Vec::new(),
                Some((n, _)) => {
                    self.shape(n, paths.render(at, &[Seg::Key("variations".into())]), "an array of variations");
                    Vec::new()
                }
            };
            let mut cur = parent;
            let node_count = nodes.map_or(0, |n| doc.len(n));
            for (i, n) in nodes.into_iter().flat_map(|n| doc.items(n)).enumerate() {
                let id = match cur {
                    None => b.push_node(None, None),
                    Some(p) if i == 0 => {
                        let id = b.push_node(Some(p), last_child.get(&p).copied());
                        last_child.insert(p, id);
                        id
                    }
                    Some(p) => b.push_node(Some(p), None),
                };
                cur = Some(id);
                self.node(&mut b, n, &paths, at, i);
            }
            let Some(cur) = cur else {
                if let Some(n) = nodes {
                    self.shape(n, paths.render(at, &[Seg::Key("nodes".into())]), "a game's root node");
                }
                return None;
            };
            if node_count == 0 && vars.is_empty() {
                self.warn(var, codes::EMPTY_VARIATION, format!("{}: empty variation skipped", paths.render(at, &[])));
                continue;
            }
            let vpath = (!vars.is_empty()).then(|| paths.add(at, Seg::Key("variations".into())));
            for (i, &v) in vars.iter().enumerate().rev() {
                let vp = paths.add(vpath, Seg::Index(i));
                if matches!(doc.get(v).kind, Kind::Object { .. }) {
                    work.push((v, Some(cur), Some(vp)));
                } else {
                    self.shape(v, paths.render(Some(vp), &[]), "a variation object");
                }
            }
        }
        b.finish();
        b.shrink();
        Some(b)
    }

    /// Reads node `n` (index `i` of the `nodes` array at `at`) into the tree's last node.
    fn node(&mut self, b: &mut GameTree, n: u32, paths: &Paths, at: Option<usize>, i: usize) {
        let doc = self.doc;
        let node_path = |extra: Option<Seg>| {
            let mut segs = vec![Seg::Key("nodes".into()), Seg::Index(i)];
            segs.extend(extra);
            paths.render(at, &segs)
        };
        match doc.get(n).kind {
            Kind::Object { .. } => {
                for (k, v) in doc.members(n) {
                    let p = || node_path(Some(Seg::Key(k.to_string())));
                    self.prop(b, k, v, v, p);
                }
            }
            Kind::Array { .. } => {
                for (j, pair) in doc.items(n).enumerate() {
                    let mut two = doc.items(pair);
                    match (doc.get(pair).kind, doc.len(pair), two.next(), two.next()) {
                        (Kind::Array { .. }, 2, Some(ki), Some(vi)) => match doc.str(ki) {
                            Some(k) => {
                                let p = || node_path(Some(Seg::Index(j))) + "[1]";
                                self.prop(b, k, vi, ki, p);
                            }
                            None => self.shape(ki, node_path(Some(Seg::Index(j))) + "[0]", "a property identifier"),
                        },
                        _ => self.shape(pair, node_path(Some(Seg::Index(j))), "an [identifier, values] pair"),
                    }
                }
            }
            _ => self.shape(n, node_path(None), "a node: an object of properties or an array of pairs"),
        }
    }

    /// One property `ident` with values `v`; `ident_at` is where the identifier stands.
    fn prop(&mut self, b: &mut GameTree, ident: &str, v: u32, ident_at: u32, path: impl Fn() -> String) {
        let doc = self.doc;
        if ident.is_empty() || !ident.bytes().all(|c| c.is_ascii_alphabetic()) {
            let msg =
                format!("{}{}: a property identifier must be ASCII letters; property skipped", self.prefix, path());
            self.sink.push_at(doc.get(ident_at).offset, Diagnostic::error(codes::SHAPE, msg));
            return;
        }
        let ident = match ff4_identifier(ident) {
            Some(fixed) => {
                let msg = format!(
                    "{}{}: identifier '{ident}' is not FF[4] (upper-case letters); read as '{fixed}', as SGF readers read it",
                    self.prefix,
                    path()
                );
                self.sink.push_at(doc.get(ident_at).offset, Diagnostic::warning(codes::IDENTIFIER, msg));
                std::borrow::Cow::Owned(fixed)
            }
            None => std::borrow::Cow::Borrowed(ident),
        };
        let ident = ident.as_ref();
        let composed_type = crate::model::props::lookup(ident).is_some_and(|d| d.value.is_composed());
        const EXPECTED: &str = "an array of strings (or [first, second] pairs for composed values)";
        if !matches!(doc.get(v).kind, Kind::Array { .. }) {
            self.shape(v, path(), EXPECTED);
            return;
        }
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        for item in doc.items(v) {
            match doc.get(item).kind {
                Kind::String { .. } => values.push(NewValue::Plain(doc.str(item).unwrap_or(""))),
                Kind::Array { .. } => {
                    let mut two = doc.items(item);
                    match (doc.len(item), two.next().and_then(|a| doc.str(a)), two.next().and_then(|c| doc.str(c))) {
                        (2, Some(x), Some(y)) if composed_type => values.push(NewValue::Pair(x, y, true)),
                        (2, Some(x), Some(y)) => {
                            // SGF has no split for this property: `C[a:b]` reads back as one text.
                            let msg = format!(
                                "{}{}: '{ident}' values are not composed; [\"{x}\", \"{y}\"] read as \"{x}:{y}\"",
                                self.prefix,
                                path()
                            );
                            self.sink.push_at(doc.get(item).offset, Diagnostic::warning(codes::NOT_COMPOSED, msg));
                            values.push(NewValue::Pair(x, y, false));
                        }
                        _ => return self.shape(item, path(), "a composed value: an array of two strings"),
                    }
                }
                _ => return self.shape(item, path(), EXPECTED),
            }
        }
        if values.is_empty() {
            // SGF writes a property as `ID[value]…`: no value at all is one empty value (`KO[]`).
            let msg = format!("{}{}: a property needs a value; [] read as [\"\"]", self.prefix, path());
            self.sink.push_at(doc.get(v).offset, Diagnostic::warning(codes::NO_VALUES, msg));
            values.push(NewValue::Plain(""));
        }
        b.push_prop_parts(ident, &values);
        self.values = values;
    }
}

/// The FF\[4\] form of an identifier with lower-case letters, as SGF readers read FF\[1\]–FF\[3\]
/// identifiers: its upper-case letters (`Ot` → `O`, `SiZe` → `SZ`), or all of it in upper case
/// when it has none (`pb` → `PB`); `None` when it is FF\[4\] already.
fn ff4_identifier(ident: &str) -> Option<String> {
    if !ident.bytes().any(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let upper: String = ident.chars().filter(char::is_ascii_uppercase).collect();
    Some(if upper.is_empty() { ident.to_ascii_uppercase() } else { upper })
}

const DOC_KEYS: &[&str] = &["format", "version", "games"];
/// The keys whose values are read outside nodes (the others, `info` above all, are only
/// checked by the parser: see [`parse::parse_keeping`]).
const READ_KEYS: &[&str] = &["format", "version", "games", "nodes", "variations"];
const GAME_KEYS: &[&str] = &["format", "version", "info", "nodes", "variations"];
const VAR_KEYS: &[&str] = &["nodes", "variations"];

/// The known members of an object.
struct Members(Vec<(&'static str, u32)>);

impl Members {
    fn get(&self, name: &str) -> Option<u32> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }
}
