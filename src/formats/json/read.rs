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
    let repair = !options.no_repair;
    if ndjson {
        let mut start = 0;
        let mut line_no = 0;
        while start < text.len() {
            let end = memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
            let line = &text[start..end];
            if !line.trim().is_empty() {
                let prefix = format!("line {}: ", line_no + 1);
                parse_value(line, start, &prefix, repair, &mut games, &mut sink);
            }
            line_no += 1;
            start = end + 1;
        }
    } else {
        parse_value(&text, 0, "", repair, &mut games, &mut sink);
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

/// Parses one JSON value of `text` (placed at `base` in the input) and reads its games
/// (`repair`: several values of a single-value property are made one, as the SGF reader does).
fn parse_value(text: &str, base: usize, prefix: &str, repair: bool, games: &mut Vec<GameTree>, sink: &mut Sink) {
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
            Reader { doc: &doc, sink, prefix, repair, values: Vec::new() }.top(games);
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
    /// Whether several values of a single-value property are made one (not with `no_repair`).
    repair: bool,
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
            let version = self.marker(root, raw("format"), raw("version"));
            if let Some(g) = self.game(root, None, version) {
                games.push(g);
            }
            return;
        }
        let members = self.members(root, &paths, None, DOC_KEYS);
        let version = self.marker(root, members.get("format"), members.get("version"));
        let Some(list) = members.get("games") else { return };
        if !matches!(doc.get(list).kind, Kind::Array { .. }) {
            self.shape(list, "games".into(), "an array of games");
            return;
        }
        for (i, g) in doc.items(list).enumerate() {
            if let Some(t) = self.game(g, Some(i), version) {
                games.push(t);
            }
        }
    }

    /// Checks the marker and the version; returns the version the games are read as (`None`:
    /// missing or unknown, each game is read by its shape).
    fn marker(&mut self, root: u32, format: Option<u32>, version: Option<u32>) -> Option<u32> {
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
            Some(Kind::Number(n)) if *n == 1.0 || *n == 2.0 => Some(*n as u32),
            Some(Kind::Number(n)) if *n > f64::from(super::VERSION) => {
                self.warn(
                    version.unwrap_or(root),
                    codes::VERSION,
                    format!("version {n} is newer than this reader (version {}); reading it as such", super::VERSION),
                );
                Some(super::VERSION)
            }
            _ => {
                self.warn(
                    version.unwrap_or(root),
                    codes::VERSION,
                    "the \"version\" field is missing or not a known version; each game is read by its shape \
                     (version 2 when a variation has \"parent\")"
                        .into(),
                );
                None
            }
        }
    }

    /// The version a game's shape tells: 2 when one of its variations has `parent` (or it has
    /// none), else 1. Version 1 never names a parent; version 2 names one in every variation
    /// but the first, which may be the rest of the main line (`{"nodes": [...]}`, without
    /// `parent`). A game whose only variation has no `parent` reads the same either way (the
    /// variation continues the line), unless it nests more variations, which only version 1
    /// does.
    fn shape_version(&self, game: u32) -> u32 {
        let doc = self.doc;
        let vars = doc.members(game).filter(|(k, _)| *k == "variations").last().map(|(_, v)| v);
        let mut objects = vars
            .into_iter()
            .flat_map(|v| doc.items(v))
            .filter(|&v| matches!(doc.get(v).kind, Kind::Object { .. }))
            .peekable();
        if objects.peek().is_none() {
            return 2;
        }
        if objects.any(|v| doc.members(v).any(|(k, _)| k == "parent")) { 2 } else { 1 }
    }

    /// One game object → a tree, read as `version` (by its shape when `None`); `None` (with a
    /// diagnostic) when it has no root node.
    fn game(&mut self, value: u32, index: Option<usize>, version: Option<u32>) -> Option<GameTree> {
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
        match version.unwrap_or_else(|| self.shape_version(value)) {
            1 => self.game_v1(value, paths, game_path),
            _ => self.game_v2(value, paths, game_path),
        }
    }

    /// A version-1 game: variations nested in variations, each continuing from the last node of
    /// the sequence that holds it.
    fn game_v1(&mut self, value: u32, mut paths: Paths, game_path: Option<usize>) -> Option<GameTree> {
        let doc = self.doc;
        // Nodes are pushed in pre-order straight into the tree: the work list is depth-first
        // and each variation's first node follows the previous child of its parent.
        let mut b = GameTree::with_source(Arc::new(String::new()));
        let mut last_child: HashMap<u32, u32> = HashMap::new();
        // Work list: (variation object, node to hang it under, its path); the game itself comes
        // first, with no parent.
        let mut work: Vec<(u32, Option<u32>, Option<usize>)> = vec![(value, None, game_path)];
        while let Some((var, parent, at)) = work.pop() {
            let members = self.members(var, &paths, at, if parent.is_none() { GAME_KEYS } else { V1_VAR_KEYS });
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

    /// A version-2 game: the main line in `nodes` (up to its first fork, as the writer writes
    /// it, or whole), every other line flat in `variations`, each naming its parent by number
    /// (nodes are numbered in the order they are listed), but the first, which may go without
    /// `parent` and then continues the main line. The tree is laid out in pre-order whatever
    /// order the variations come in, with a stack on the heap.
    fn game_v2(&mut self, value: u32, mut paths: Paths, at: Option<usize>) -> Option<GameTree> {
        let doc = self.doc;
        let members = self.members(value, &paths, at, GAME_KEYS);
        let nodes_path = |paths: &Paths| paths.render(at, &[Seg::Key("nodes".into())]);
        let main = match members.get("nodes").map(|n| (n, doc.get(n).kind)) {
            Some((n, Kind::Array { first, len })) if len > 0 => (n, first, len),
            Some((n, Kind::Array { .. })) => {
                self.shape(n, nodes_path(&paths), "a game's root node");
                return None;
            }
            Some((n, _)) => {
                self.shape(n, nodes_path(&paths), "an array of nodes");
                return None;
            }
            None => {
                self.shape(value, paths.render(at, &[]), "an object with a \"nodes\" array");
                return None;
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
        // Every line with its first node, its first number, its parent's number (NONE for the
        // main line, and for a dropped line: it keeps its numbers, so later parents keep
        // their meaning).
        let mut lines = vec![Line { first: main.1, start: 0, len: main.2, parent: NONE, path: at }];
        let mut total = main.2 as usize;
        let vpath = (!vars.is_empty()).then(|| paths.add(at, Seg::Key("variations".into())));
        for (i, &v) in vars.iter().enumerate() {
            let vp = Some(paths.add(vpath, Seg::Index(i)));
            if !matches!(doc.get(v).kind, Kind::Object { .. }) {
                self.shape(v, paths.render(vp, &[]), "a variation object");
                continue;
            }
            let m = self.members(v, &paths, vp, VAR_KEYS);
            let (first, len) = match m.get("nodes").map(|n| (n, doc.get(n).kind)) {
                Some((_, Kind::Array { first, len })) => (first, len),
                Some((n, _)) => {
                    self.shape(n, paths.render(vp, &[Seg::Key("nodes".into())]), "an array of nodes");
                    continue;
                }
                None => {
                    self.shape(v, paths.render(vp, &[]), "an object with \"parent\" and \"nodes\"");
                    continue;
                }
            };
            if len == 0 {
                self.warn(
                    v,
                    codes::EMPTY_VARIATION,
                    format!("{}: variation without nodes skipped", paths.render(vp, &[])),
                );
                continue;
            }
            let start = total;
            total += len as usize;
            // The first variation may go without `parent`: it is the rest of the main line,
            // the first child of the last node of `nodes` (listed first, it comes first among
            // the lines hanging from that node).
            let parent = match m.get("parent") {
                None if i == 0 => Some(main.2 as usize - 1),
                parent => self.parent(v, parent, start, &lines, &paths, vp),
            };
            lines.push(Line { first, start, len, parent: parent.map_or(NONE, |p| p as u32), path: vp });
        }
        // The lines hanging from each node, in the order listed: those from node `n` are
        // `hang[from[n]..from[n + 1]]`.
        let mut from = vec![0u32; total + 1];
        for l in lines.iter().skip(1).filter(|l| l.parent != NONE) {
            from[l.parent as usize + 1] += 1;
        }
        for n in 1..from.len() {
            from[n] += from[n - 1];
        }
        let mut hang = vec![0u32; from[total] as usize];
        let mut fill = from.clone();
        for (k, l) in lines.iter().enumerate().skip(1).filter(|(_, l)| l.parent != NONE) {
            let slot = &mut fill[l.parent as usize];
            hang[*slot as usize] = k as u32;
            *slot += 1;
        }
        drop(fill);
        // Depth-first, children pushed last first: a node's next in its line is its first
        // child, then the lines hanging from it.
        let mut b = GameTree::with_source(Arc::new(String::new()));
        let mut last_child = vec![NONE; total];
        // (line, index in it, its JSON node, the parent's id in the tree)
        let mut stack: Vec<(u32, u32, u32, u32)> = vec![(0, 0, main.1, NONE)];
        while let Some((k, i, n, parent)) = stack.pop() {
            let id = if parent == NONE {
                b.push_node(None, None)
            } else {
                let prev = last_child[parent as usize];
                let id = b.push_node(Some(parent), (prev != NONE).then_some(prev));
                last_child[parent as usize] = id;
                id
            };
            let line = &lines[k as usize];
            let (path, number, len) = (line.path, line.start + i as usize, line.len);
            self.node(&mut b, n, &paths, path, i as usize);
            for &h in hang[from[number] as usize..from[number + 1] as usize].iter().rev() {
                stack.push((h, 0, lines[h as usize].first, id));
            }
            if i + 1 < len {
                if let Some(next) = doc.next_item(n) {
                    stack.push((k, i + 1, next, id));
                }
            }
        }
        b.finish();
        b.shrink();
        Some(b)
    }

    /// The parent number of the variation `v` whose first node is numbered `start`, when it is
    /// a node listed before and kept; otherwise `None`, with a `json.parent` error.
    fn parent(
        &mut self,
        v: u32,
        parent: Option<u32>,
        start: usize,
        lines: &[Line],
        paths: &Paths,
        at: Option<usize>,
    ) -> Option<usize> {
        let doc = self.doc;
        let path = || paths.render(at, &[Seg::Key("parent".into())]);
        let msg = match parent.map(|p| doc.get(p).kind) {
            None => format!(
                "{}: only the first variation may go without \"parent\" (it continues the main line); this one \
                 needs the number of the node it follows; variation dropped",
                paths.render(at, &[])
            ),
            Some(Kind::Number(n)) if n >= 0.0 && n.fract() == 0.0 && n < start as f64 => {
                let p = n as usize;
                // The line holding node `p`: the last one starting at or before it.
                let holder = &lines[lines.partition_point(|l| l.start <= p) - 1];
                if holder.start == 0 || holder.parent != NONE {
                    return Some(p);
                }
                format!("{}: node {p} is in a variation that was dropped; this one is dropped too", path())
            }
            Some(kind) => {
                let found = match kind {
                    Kind::Number(n) => n.to_string(),
                    k => describe(&k).to_string(),
                };
                format!(
                    "{}: expected the number of a node listed before this variation (0 to {}), found {found}; \
                     variation dropped",
                    path(),
                    start - 1
                )
            }
        };
        let at = doc.get(parent.unwrap_or(v)).offset;
        self.sink.push_at(at, Diagnostic::error(codes::PARENT, format!("{}{msg}", self.prefix)));
        None
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
        match crate::model::props::lookup(ident) {
            Some(d) if self.repair && values.len() > 1 && !d.value.is_list() => {
                self.one_value(b, d, &values, v, path);
            }
            _ => b.push_prop_parts(ident, &values),
        }
        self.values = values;
    }

    /// Several values (at `at`) of a property that takes one, made one as the SGF reader makes
    /// `C[a][b]` one, so that what SGF then gives back reads as the same: a text's values
    /// joined (each distinct non-empty one once, in order, with a blank line; a space for simple
    /// text), any other value's first kept and the others moved to `XSGF<ID>`.
    fn one_value(
        &mut self,
        b: &mut GameTree,
        d: &crate::model::PropDef,
        values: &[NewValue<'_>],
        at: u32,
        path: impl Fn() -> String,
    ) {
        use crate::model::ValueType;
        let (ident, n) = (d.ident, values.len());
        let (code, msg) = if matches!(d.value, ValueType::Text | ValueType::SimpleText) {
            let (sep, how) = if d.value == ValueType::Text { ("\n\n", "a blank line") } else { (" ", "a space") };
            let mut seen = std::collections::HashSet::new();
            let mut joined = String::new();
            for v in values {
                let text = match *v {
                    NewValue::Plain(t) => std::borrow::Cow::Borrowed(t),
                    NewValue::Pair(x, y, _) => std::borrow::Cow::Owned(format!("{x}:{y}")),
                };
                if !text.is_empty() && seen.insert(text.clone()) {
                    if !joined.is_empty() {
                        joined.push_str(sep);
                    }
                    joined.push_str(&text);
                }
            }
            b.push_prop_parts(ident, &[NewValue::Plain(&joined)]);
            (codes::VALUES_JOINED, format!("'{ident}' takes one text but has {n} values; joined with {how}"))
        } else {
            b.push_prop_parts(ident, &values[..1]);
            // A private property's values are plain text (`a:b`), as SGF gives them back.
            let rest: Vec<NewValue<'_>> = values[1..]
                .iter()
                .map(|v| match *v {
                    NewValue::Pair(x, y, _) => NewValue::Pair(x, y, false),
                    plain => plain,
                })
                .collect();
            // The prefix of the repairs' private properties (`normalise::PRIVATE_PREFIX`, which
            // imports from here, not the other way).
            let private = format!("XSGF{ident}");
            b.push_prop_parts(&private, &rest);
            let msg = format!("'{ident}' takes one value but has {n}; the first kept, the others moved to {private}");
            (codes::EXTRA_VALUES, msg)
        };
        let msg = format!("{}{}: {msg}", self.prefix, path());
        self.sink.push_at(self.doc.get(at).offset, Diagnostic::warning(code, msg));
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
const READ_KEYS: &[&str] = &["format", "version", "games", "nodes", "variations", "parent"];
const GAME_KEYS: &[&str] = &["format", "version", "info", "nodes", "variations"];
const V1_VAR_KEYS: &[&str] = &["nodes", "variations"];
const VAR_KEYS: &[&str] = &["parent", "nodes"];

/// No node, no parent (in [`Reader::game_v2`]'s tables).
const NONE: u32 = u32::MAX;

/// One line of a version-2 game: its first JSON node, the number of its first node, its
/// length, the number of its parent node (`NONE` for the main line and a dropped line), and
/// its JSON path.
struct Line {
    first: u32,
    start: usize,
    len: u32,
    parent: u32,
    path: Option<usize>,
}

/// The known members of an object.
struct Members(Vec<(&'static str, u32)>);

impl Members {
    fn get(&self, name: &str) -> Option<u32> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }
}
