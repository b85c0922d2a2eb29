//! Writing: the game tree as `{"nodes": [...], "variations": [...]}` objects, walked with an
//! explicit stack, plus the read-only `info` digest of each game.

use std::fmt::Write as _;

use super::{MARKER, VERSION};
use crate::charset::CharsetDecision;
use crate::model::{Collection, GameTree, Move, NodeId, info::normalize_rank};

/// Indentation stops growing past this depth, so deep variation trees stay linear in size.
const MAX_INDENT: usize = 16;

struct Out {
    s: String,
    pretty: bool,
}

impl Out {
    /// A line break and indentation for `depth` (pretty output only).
    fn nl(&mut self, depth: usize) {
        if self.pretty {
            // A line break and two blanks per level, in one copy.
            const BREAK: &str = "\n                                ";
            self.s.push_str(&BREAK[..1 + 2 * depth.min(MAX_INDENT)]);
        }
    }

    /// `"key": ` (`"key":` when compact).
    fn key(&mut self, k: &str) {
        string(&mut self.s, k);
        self.s.push_str(if self.pretty { ": " } else { ":" });
    }
}

/// Which bytes a JSON string must escape: `"`, `\\` and the control characters.
static ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Writes `s` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or
/// `\u00XX`, everything else as UTF-8. Runs without an escape are copied whole.
fn string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    // Most strings (points, numbers, names) need no escape: one check, one copy.
    if !bytes.iter().any(|&b| ESCAPE[usize::from(b)]) {
        out.reserve(bytes.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    out.push('"');
    let mut start = 0;
    while let Some(k) = bytes[start..].iter().position(|&b| ESCAPE[usize::from(b)]) {
        let i = start + k;
        out.push_str(&s[start..i]);
        match bytes[i] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            c => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(c >> 4)]));
                out.push(char::from(HEX[usize::from(c & 15)]));
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends an integer without `core::fmt`.
fn int(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
}

fn opt_str(out: &mut String, v: Option<&str>) {
    match v {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

fn number(out: &mut String, x: f64) {
    if x.is_finite() {
        let _ = write!(out, "{x}");
    } else {
        out.push_str("null");
    }
}

/// Writes one kifu JSON document: `{"format": "kifu", "version": 1, "games": [...]}`, with
/// nodes one per line.
pub(crate) fn write_document(collection: &Collection, charset: Option<CharsetDecision>) -> String {
    let mut s = document_head();
    document_games(&mut s, collection, charset, true);
    s.push_str(document_tail(!collection.games.is_empty()));
    s
}

/// The start of a document, up to the `[` of `games`.
pub(crate) fn document_head() -> String {
    let mut o = Out { s: String::new(), pretty: true };
    o.s.push('{');
    o.nl(1);
    o.key("format");
    string(&mut o.s, MARKER);
    o.s.push(',');
    o.nl(1);
    o.key("version");
    int(&mut o.s, VERSION);
    o.s.push(',');
    o.nl(1);
    o.key("games");
    o.s.push('[');
    o.s
}

/// Appends the games of `collection` as elements of a document's `games` array (`first`: no
/// game was written before them), so a document can be written part by part.
pub(crate) fn document_games(s: &mut String, collection: &Collection, charset: Option<CharsetDecision>, first: bool) {
    let mut o = Out { s: std::mem::take(s), pretty: true };
    o.s.reserve(size_guess(collection));
    for (i, game) in collection.games.iter().enumerate() {
        if i > 0 || !first {
            o.s.push(',');
        }
        o.nl(2);
        game_object(&mut o, game, charset, 2, false);
    }
    *s = o.s;
}

/// The end of a document after its games (`any`: at least one game was written).
pub(crate) fn document_tail(any: bool) -> &'static str {
    if any { "\n  ]\n}\n" } else { "]\n}\n" }
}

/// Writes kifu NDJSON: per game one line `{"format":"kifu","version":1,"info":…,"nodes":…,
/// "variations":…}`.
pub(crate) fn write_lines(collection: &Collection, charset: Option<CharsetDecision>) -> String {
    let mut o = Out { s: String::with_capacity(size_guess(collection)), pretty: false };
    for game in &collection.games {
        game_object(&mut o, game, charset, 0, true);
        o.s.push('\n');
    }
    o.s
}

/// A first guess at the size of the games' JSON, to save most regrowing: a move node
/// (`{"B":["pd"]},`) and its `main_line` entry (`{"color":"B","x":15,"y":3},`) take about 40
/// bytes; a reservation not written to costs no memory.
fn size_guess(collection: &Collection) -> usize {
    collection.games.iter().map(|g| 512 + g.len() * 40 + g.prop_total() * 8).sum()
}

/// A game object at `depth`: the digest, then the root sequence and its variations.
fn game_object(o: &mut Out, game: &GameTree, charset: Option<CharsetDecision>, depth: usize, marker: bool) {
    o.s.push('{');
    if marker {
        o.key("format");
        string(&mut o.s, MARKER);
        o.s.push_str(",\"version\":");
        int(&mut o.s, VERSION);
        o.s.push(',');
    }
    o.nl(depth + 1);
    o.key("info");
    info(&mut o.s, game, charset);
    o.s.push(',');
    if game.is_empty() {
        o.nl(depth + 1);
        o.key("nodes");
        o.s.push_str("[{}],");
        o.nl(depth + 1);
        o.key("variations");
        o.s.push_str("[]}");
        return;
    }
    tree(o, game, depth);
}

/// Writes `"nodes": [...], "variations": [...]}` for the sequence starting at `start` (the
/// caller wrote the opening `{`). Returns the first child of a branching end, if any.
fn sequence(o: &mut Out, game: &GameTree, start: NodeId, depth: usize) -> Option<NodeId> {
    o.nl(depth + 1);
    o.key("nodes");
    o.s.push('[');
    let mut cur = start;
    loop {
        o.nl(depth + 2);
        node(&mut o.s, game, cur);
        let mut kids = game.children(cur);
        match (kids.next(), kids.next()) {
            (Some(only), None) => {
                o.s.push(',');
                cur = only;
            }
            (first, _) => {
                o.nl(depth + 1);
                o.s.push_str("],");
                o.nl(depth + 1);
                o.key("variations");
                o.s.push('[');
                return first;
            }
        }
    }
}

/// The root sequence and every variation below it, depth-first with an explicit stack.
fn tree(o: &mut Out, game: &GameTree, depth: usize) {
    // Per open `variations` array: the next child to write, whether one was written, depth.
    let mut stack: Vec<(Option<NodeId>, bool, usize)> = Vec::new();
    let first = sequence(o, game, NodeId::ROOT, depth);
    stack.push((first, false, depth));
    while let Some(top) = stack.last_mut() {
        let d = top.2;
        match top.0 {
            Some(child) => {
                top.0 = game.next_sibling(child);
                if top.1 {
                    o.s.push(',');
                }
                top.1 = true;
                o.nl(d + 2);
                o.s.push('{');
                let first = sequence(o, game, child, d + 2);
                stack.push((first, false, d + 2));
            }
            None => {
                if top.1 {
                    o.nl(d + 1);
                }
                o.s.push(']');
                o.nl(d);
                o.s.push('}');
                stack.pop();
            }
        }
    }
}

/// One node: `{"B":["pd"]}`, or, when an identifier repeats in the node, the pair form
/// `[["B",["pd"]],["B",["dd"]]]`.
fn node(out: &mut String, game: &GameTree, id: NodeId) {
    let n = game.node(id);
    // Keys are equal exactly when identifiers are.
    let repeated =
        n.prop_count() > 1 && n.props().enumerate().any(|(i, a)| n.props().take(i).any(|b| b.key() == a.key()));
    out.push(if repeated { '[' } else { '{' });
    for (i, p) in n.props().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if repeated {
            out.push('[');
            ident(out, p);
            out.push(',');
        } else {
            ident(out, p);
            out.push(':');
        }
        out.push('[');
        if p.is_empty() {
            // What the reader makes of `[]` (reported by the writer).
            string(out, "");
        }
        for (j, v) in p.values().enumerate() {
            if j > 0 {
                out.push(',');
            }
            match v.parts() {
                Some((a, b)) => {
                    out.push('[');
                    string(out, a);
                    out.push(',');
                    string(out, b);
                    out.push(']');
                }
                None => string(out, v.as_str()),
            }
        }
        out.push(']');
        if repeated {
            out.push(']');
        }
    }
    out.push(if repeated { ']' } else { '}' });
}

/// A property's identifier as a JSON string (the table's identifiers need no escape).
fn ident(out: &mut String, p: crate::model::Property<'_>) {
    match p.def() {
        Some(d) => {
            out.push('"');
            out.push_str(d.ident);
            out.push('"');
        }
        None => string(out, p.ident()),
    }
}

/// The read-only digest: typed game information and the main line's moves.
fn info(out: &mut String, game: &GameTree, charset: Option<CharsetDecision>) {
    let gi = game.info();
    let size = game.board_size();
    out.push_str("{\"size\":{\"width\":");
    int(out, size.width);
    out.push_str(",\"height\":");
    int(out, size.height);
    out.push('}');
    let rank = |r: &Option<String>| r.as_deref().map(|r| normalize_rank(r).unwrap_or_else(|| r.to_string()));
    for (k, v) in [
        ("black", gi.black.clone()),
        ("white", gi.white.clone()),
        ("black_rank", rank(&gi.black_rank)),
        ("white_rank", rank(&gi.white_rank)),
    ] {
        out.push_str(",\"");
        out.push_str(k);
        out.push_str("\":");
        opt_str(out, v.as_deref());
    }
    out.push_str(",\"komi\":");
    match gi.komi {
        Some(k) => number(out, k),
        None => out.push_str("null"),
    }
    out.push_str(",\"handicap\":");
    match gi.handicap {
        Some(h) => {
            int(out, h);
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"result\":");
    match &gi.result_text {
        None => out.push_str("null"),
        Some(text) => {
            out.push_str("{\"text\":");
            string(out, text);
            let (winner, how, margin) = match &gi.result {
                None => (None, None, None),
                Some(r) => {
                    let (winner, how, margin) = r.parts();
                    (winner.map(|c| c.as_sgf()), Some(how), margin)
                }
            };
            out.push_str(",\"winner\":");
            opt_str(out, winner);
            out.push_str(",\"how\":");
            opt_str(out, how);
            out.push_str(",\"margin\":");
            match margin {
                Some(m) => number(out, m),
                None => out.push_str("null"),
            }
            out.push('}');
        }
    }
    for (k, v) in [("date", &gi.date), ("rules", &gi.rules), ("event", &gi.event), ("name", &gi.name)] {
        out.push_str(",\"");
        out.push_str(k);
        out.push_str("\":");
        opt_str(out, v.as_deref());
    }
    out.push_str(",\"charset\":");
    match charset {
        Some(c) => {
            out.push_str("{\"name\":\"");
            out.push_str(c.name());
            out.push_str("\",\"source\":\"");
            out.push_str(c.source.as_str());
            out.push_str("\"}");
        }
        None => out.push_str("null"),
    }
    // Every value of every move property is an entry: a node `B[tt]W[tt]` holds two moves, and
    // a second value of one property (`W[ce][x]`) is listed too (as invalid), so `moves`
    // counts what a reader of the nodes counts.
    let is_move = |p: &crate::model::Property| matches!(p.ident(), "B" | "W");
    let mut moves = 0usize;
    for n in game.main_line() {
        for p in n.props().filter(is_move) {
            moves += p.values().count();
        }
    }
    out.push_str(",\"moves\":");
    int(out, moves);
    out.push_str(",\"main_line\":[");
    let mut first = true;
    for n in game.main_line() {
        for p in n.props().filter(is_move) {
            for v in p.values() {
                if !first {
                    out.push(',');
                }
                first = false;
                let value = v.as_str();
                out.push_str("{\"color\":\"");
                out.push_str(p.ident());
                out.push_str("\",");
                match Move::from_sgf(value, size) {
                    Some(Move::Play(pt)) if pt.is_on(size) => {
                        out.push_str("\"x\":");
                        int(out, pt.x);
                        out.push_str(",\"y\":");
                        int(out, pt.y);
                        out.push('}');
                    }
                    Some(Move::Pass) => out.push_str("\"pass\":true}"),
                    _ => {
                        out.push_str("\"invalid\":");
                        string(out, value);
                        out.push('}');
                    }
                }
            }
        }
    }
    out.push_str("]}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TreeBuilder;
    use pretty_assertions::assert_eq;

    #[test]
    fn strings_escape_quotes_backslashes_and_controls() {
        let mut s = String::new();
        string(&mut s, "a\"b\\c\nd\u{1}é");
        assert_eq!(s, r#""a\"b\\c\nd\u0001é""#);
    }

    #[test]
    fn nodes_use_pair_form_only_for_repeated_identifiers() {
        let mut b = TreeBuilder::new();
        let r = b.root();
        b.add_prop(r, "AB", [crate::model::PropValue::composed("aa", "cc"), "dd".into()]);
        let n = b.add_child(r);
        b.add_prop(n, "B", ["pd"]);
        b.add_prop(n, "B", ["dd"]);
        let t = b.build();
        let mut s = String::new();
        node(&mut s, &t, NodeId::ROOT);
        node(&mut s, &t, NodeId(1));
        assert_eq!(s, r#"{"AB":[["aa","cc"],"dd"]}[["B",["pd"]],["B",["dd"]]]"#);
    }
}
