//! Writing: the game tree as `{"nodes": [...], "variations": [...]}` objects, walked with an
//! explicit stack, plus the read-only `info` digest of each game.

use std::io::Write as _;

use super::{MARKER, VERSION};
use crate::charset::CharsetDecision;
use crate::model::{BoardSize, Collection, GameTree, Move, NodeId, info::normalize_rank};

/// Indentation stops growing past this depth, so deep variation trees stay linear in size.
const MAX_INDENT: usize = 16;

struct Out {
    s: Vec<u8>,
    pretty: bool,
}

impl Out {
    /// A line break and indentation for `depth` (pretty output only).
    fn nl(&mut self, depth: usize) {
        if self.pretty {
            // A line break and two blanks per level, in one fixed-size copy.
            const BREAK: &[u8; 1 + 2 * MAX_INDENT] = b"\n                                ";
            put_prefix(&mut self.s, BREAK, 1 + 2 * depth.min(MAX_INDENT));
        }
    }

    /// `"key": ` (`"key":` when compact).
    fn key(&mut self, k: &str) {
        string(&mut self.s, k);
        self.s.extend_from_slice(if self.pretty { &b": "[..] } else { &b":"[..] });
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
#[inline]
fn string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    // Most strings (points, numbers, names) need no escape: one check, one copy.
    if !bytes.iter().any(|&b| ESCAPE[usize::from(b)]) {
        if bytes.len() <= 14 {
            // Points, numbers, short names: assembled on the stack, one fixed-size copy.
            let mut buf = [b'"'; 16];
            buf[1..1 + bytes.len()].copy_from_slice(bytes);
            buf[1 + bytes.len()] = b'"';
            put_prefix(out, &buf, bytes.len() + 2);
            return;
        }
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    out.push(b'"');
    let mut start = 0;
    while let Some(k) = bytes[start..].iter().position(|&b| ESCAPE[usize::from(b)]) {
        let i = start + k;
        out.extend_from_slice(&bytes[start..i]);
        match bytes[i] {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            c => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(c >> 4)]);
                out.push(HEX[usize::from(c & 15)]);
            }
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Appends the first `n` bytes of `buf` (`n` at most `N`): one copy of a fixed size, cheaper
/// than a copy of a variable one for a few bytes.
#[inline(always)]
fn put_prefix<const N: usize>(out: &mut Vec<u8>, buf: &[u8; N], n: usize) {
    let at = out.len();
    out.extend_from_slice(buf);
    out.truncate(at + n.min(N));
}

/// Appends an integer without `core::fmt`.
fn int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends a coordinate (below 100 digit by digit).
fn coordinate(out: &mut Vec<u8>, n: u8) {
    if n >= 100 {
        int(out, n);
        return;
    }
    if n >= 10 {
        out.push(b'0' + n / 10);
    }
    out.push(b'0' + n % 10);
}

fn opt_str(out: &mut Vec<u8>, v: Option<&str>) {
    match v {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

fn number(out: &mut Vec<u8>, x: f64) {
    if x.is_finite() {
        let _ = write!(out, "{x}");
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Writes one kifu JSON document: `{"format": "kifu", "version": 1, "games": [...]}`, with
/// nodes one per line.
#[cfg(feature = "serde")]
pub(crate) fn write_document(collection: &Collection, charset: Option<CharsetDecision>) -> String {
    crate::formats::written_text(document_bytes(collection, charset))
}

/// [`write_document`] as UTF-8 bytes.
pub(crate) fn document_bytes(collection: &Collection, charset: Option<CharsetDecision>) -> Vec<u8> {
    let mut s = document_head().into_bytes();
    document_games(&mut s, collection, charset, true);
    s.extend_from_slice(document_tail(!collection.games.is_empty()).as_bytes());
    s
}

/// The start of a document, up to the `[` of `games`.
pub(crate) fn document_head() -> String {
    let mut o = Out { s: Vec::new(), pretty: true };
    o.s.push(b'{');
    o.nl(1);
    o.key("format");
    string(&mut o.s, MARKER);
    o.s.push(b',');
    o.nl(1);
    o.key("version");
    int(&mut o.s, VERSION);
    o.s.push(b',');
    o.nl(1);
    o.key("games");
    o.s.push(b'[');
    crate::formats::written_text(o.s)
}

/// Appends the games of `collection` as elements of a document's `games` array (`first`: no
/// game was written before them), so a document can be written part by part.
pub(crate) fn document_games(s: &mut Vec<u8>, collection: &Collection, charset: Option<CharsetDecision>, first: bool) {
    let mut o = Out { s: std::mem::take(s), pretty: true };
    o.s.reserve(size_guess(collection));
    for (i, game) in collection.games.iter().enumerate() {
        if i > 0 || !first {
            o.s.push(b',');
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
#[cfg(feature = "serde")]
pub(crate) fn write_lines(collection: &Collection, charset: Option<CharsetDecision>) -> String {
    crate::formats::written_text(lines_bytes(collection, charset))
}

/// [`write_lines`] as UTF-8 bytes.
pub(crate) fn lines_bytes(collection: &Collection, charset: Option<CharsetDecision>) -> Vec<u8> {
    let mut s = Vec::new();
    lines_into(&mut s, collection, charset);
    s
}

/// Appends [`write_lines`]'s bytes to `s`.
pub(crate) fn lines_into(s: &mut Vec<u8>, collection: &Collection, charset: Option<CharsetDecision>) {
    let mut o = Out { s: std::mem::take(s), pretty: false };
    o.s.reserve(size_guess(collection));
    for game in &collection.games {
        game_object(&mut o, game, charset, 0, true);
        o.s.push(b'\n');
    }
    *s = o.s;
}

/// A first guess at the size of the games' JSON, to save most regrowing: a move node
/// (`{"B":["pd"]},`) and its `main_line` entry (`{"color":"B","x":15,"y":3},`) take about 40
/// bytes; a reservation not written to costs no memory.
fn size_guess(collection: &Collection) -> usize {
    collection.games.iter().map(|g| 512 + g.len() * 40 + g.prop_total() * 8).sum()
}

/// A game object at `depth`: the digest, then the root sequence and its variations.
fn game_object(o: &mut Out, game: &GameTree, charset: Option<CharsetDecision>, depth: usize, marker: bool) {
    o.s.push(b'{');
    if marker {
        o.key("format");
        string(&mut o.s, MARKER);
        o.s.extend_from_slice(b",\"version\":");
        int(&mut o.s, VERSION);
        o.s.push(b',');
    }
    o.nl(depth + 1);
    o.key("info");
    info(&mut o.s, game, charset);
    o.s.push(b',');
    if game.is_empty() {
        o.nl(depth + 1);
        o.key("nodes");
        o.s.extend_from_slice(b"[{}],");
        o.nl(depth + 1);
        o.key("variations");
        o.s.extend_from_slice(b"[]}");
        return;
    }
    tree(o, game, depth);
}

/// Writes `"nodes": [...], "variations": [...]}` for the sequence starting at `start` (the
/// caller wrote the opening `{`). Returns the first child of a branching end, if any.
fn sequence(o: &mut Out, game: &GameTree, start: NodeId, depth: usize) -> Option<NodeId> {
    o.nl(depth + 1);
    o.key("nodes");
    o.s.push(b'[');
    let mut cur = start;
    loop {
        o.nl(depth + 2);
        node(&mut o.s, game, cur);
        let mut kids = game.children(cur);
        match (kids.next(), kids.next()) {
            (Some(only), None) => {
                o.s.push(b',');
                cur = only;
            }
            (first, _) => {
                o.nl(depth + 1);
                o.s.extend_from_slice(b"],");
                o.nl(depth + 1);
                o.key("variations");
                o.s.push(b'[');
                return first;
            }
        }
    }
}

/// The root sequence and every variation below it, depth-first with an explicit stack.
fn tree(o: &mut Out, game: &GameTree, depth: usize) {
    if !game.has_variations() {
        // One sequence (most games): the nodes in storage order, and no variations.
        o.nl(depth + 1);
        o.key("nodes");
        o.s.push(b'[');
        for i in 0..game.len() {
            if i > 0 {
                o.s.push(b',');
            }
            o.nl(depth + 2);
            node(&mut o.s, game, NodeId::from_index(i));
        }
        o.nl(depth + 1);
        o.s.extend_from_slice(b"],");
        o.nl(depth + 1);
        o.key("variations");
        o.s.extend_from_slice(b"[]");
        o.nl(depth);
        o.s.push(b'}');
        return;
    }
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
                    o.s.push(b',');
                }
                top.1 = true;
                o.nl(d + 2);
                o.s.push(b'{');
                let first = sequence(o, game, child, d + 2);
                stack.push((first, false, d + 2));
            }
            None => {
                if top.1 {
                    o.nl(d + 1);
                }
                o.s.push(b']');
                o.nl(d);
                o.s.push(b'}');
                stack.pop();
            }
        }
    }
}

/// One node: `{"B":["pd"]}`, or, when an identifier repeats in the node, the pair form
/// `[["B",["pd"]],["B",["dd"]]]`.
#[inline(always)]
fn node(out: &mut Vec<u8>, game: &GameTree, id: NodeId) {
    // A node holding one move and nothing else (most nodes): `{"B":["pd"]}` in one copy.
    match game.lone_move(id).filter(|_| id != NodeId::ROOT) {
        Some([colour, x, y]) => {
            out.extend_from_slice(&[b'{', b'"', colour, b'"', b':', b'[', b'"', x, y, b'"', b']', b'}'])
        }
        None => any_node(out, game, id),
    }
}

/// [`node`] for any node.
fn any_node(out: &mut Vec<u8>, game: &GameTree, id: NodeId) {
    let n = game.node(id);
    // Keys are equal exactly when identifiers are.
    let repeated = n.prop_count() > 1 && {
        let mut keys = [0u16; 32];
        let mut count = 0;
        let mut repeated = false;
        for p in n.props() {
            let k = p.key();
            if count < keys.len() {
                repeated |= keys[..count].contains(&k);
                keys[count] = k;
                count += 1;
            } else {
                // Past 32 properties: against every one before, from the node.
                repeated |= n.props().take(count).any(|b| b.key() == k);
                count += 1;
            }
        }
        repeated
    };
    out.push(if repeated { b'[' } else { b'{' });
    for (i, p) in n.props().enumerate() {
        if !repeated {
            // `"B":["pd"]`: a one-letter known identifier with a two-letter value that needs no
            // escape (moves), in one copy.
            if let (Some(d), Some(v)) = (p.def(), p.single_plain()) {
                if let (&[k], &[a, b]) = (d.ident.as_bytes(), v.as_bytes()) {
                    if !ESCAPE[usize::from(a)] && !ESCAPE[usize::from(b)] {
                        if i > 0 {
                            out.push(b',');
                        }
                        out.extend_from_slice(&[b'"', k, b'"', b':', b'[', b'"', a, b, b'"', b']']);
                        continue;
                    }
                }
                // `"BL":["1795.3"]` and other short values: assembled on the stack.
                let (k, v) = (d.ident.as_bytes(), v.as_bytes());
                if k.len() + v.len() <= 24 && !v.iter().any(|&c| ESCAPE[usize::from(c)]) {
                    if i > 0 {
                        out.push(b',');
                    }
                    let mut buf = [b'"'; 32];
                    buf[1..1 + k.len()].copy_from_slice(k);
                    let at = 1 + k.len();
                    buf[at..at + 3].copy_from_slice(b"\":[");
                    buf[at + 4..at + 4 + v.len()].copy_from_slice(v);
                    buf[at + 5 + v.len()] = b']';
                    put_prefix(out, &buf, at + 6 + v.len());
                    continue;
                }
            }
        }
        if i > 0 {
            out.push(b',');
        }
        if repeated {
            out.push(b'[');
            ident(out, p);
            out.push(b',');
        } else {
            ident(out, p);
            out.push(b':');
        }
        out.push(b'[');
        if let Some(v) = p.single_plain() {
            // One plain value (most properties), without the value iterator.
            string(out, v);
            out.push(b']');
            if repeated {
                out.push(b']');
            }
            continue;
        }
        if p.is_empty() {
            // What the reader makes of `[]` (reported by the writer).
            string(out, "");
        }
        for (j, v) in p.values().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            match v.parts() {
                Some((a, b)) => {
                    out.push(b'[');
                    string(out, a);
                    out.push(b',');
                    string(out, b);
                    out.push(b']');
                }
                None => string(out, v.as_str()),
            }
        }
        out.push(b']');
        if repeated {
            out.push(b']');
        }
    }
    out.push(if repeated { b']' } else { b'}' });
}

/// A property's identifier as a JSON string (the table's identifiers need no escape).
fn ident(out: &mut Vec<u8>, p: crate::model::Property<'_>) {
    match p.def() {
        Some(d) => {
            out.push(b'"');
            out.extend_from_slice(d.ident.as_bytes());
            out.push(b'"');
        }
        None => string(out, p.ident()),
    }
}

/// The read-only digest: typed game information and the main line's moves.
fn info(out: &mut Vec<u8>, game: &GameTree, charset: Option<CharsetDecision>) {
    let gi = game.info();
    let size = game.board_size();
    out.extend_from_slice(b"{\"size\":{\"width\":");
    int(out, size.width);
    out.extend_from_slice(b",\"height\":");
    int(out, size.height);
    out.push(b'}');
    let rank = |r: &Option<String>| r.as_deref().map(|r| normalize_rank(r).unwrap_or_else(|| r.to_string()));
    for (k, v) in [
        ("black", gi.black.clone()),
        ("white", gi.white.clone()),
        ("black_rank", rank(&gi.black_rank)),
        ("white_rank", rank(&gi.white_rank)),
    ] {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(b"\":");
        opt_str(out, v.as_deref());
    }
    out.extend_from_slice(b",\"komi\":");
    match gi.komi {
        Some(k) => number(out, k),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"handicap\":");
    match gi.handicap {
        Some(h) => {
            int(out, h);
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"result\":");
    match &gi.result_text {
        None => out.extend_from_slice(b"null"),
        Some(text) => {
            out.extend_from_slice(b"{\"text\":");
            string(out, text);
            let (winner, how, margin) = match &gi.result {
                None => (None, None, None),
                Some(r) => {
                    let (winner, how, margin) = r.parts();
                    (winner.map(|c| c.as_sgf()), Some(how), margin)
                }
            };
            out.extend_from_slice(b",\"winner\":");
            opt_str(out, winner);
            out.extend_from_slice(b",\"how\":");
            opt_str(out, how);
            out.extend_from_slice(b",\"margin\":");
            match margin {
                Some(m) => number(out, m),
                None => out.extend_from_slice(b"null"),
            }
            out.push(b'}');
        }
    }
    for (k, v) in [("date", &gi.date), ("rules", &gi.rules), ("event", &gi.event), ("name", &gi.name)] {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(b"\":");
        opt_str(out, v.as_deref());
    }
    out.extend_from_slice(b",\"charset\":");
    match charset {
        Some(c) => {
            out.extend_from_slice(b"{\"name\":\"");
            out.extend_from_slice(c.name().as_bytes());
            out.extend_from_slice(b"\",\"source\":\"");
            out.extend_from_slice(c.source.as_str().as_bytes());
            out.extend_from_slice(b"\"}");
        }
        None => out.extend_from_slice(b"null"),
    }
    // Every value of every move property is an entry: a node `B[tt]W[tt]` holds two moves, and
    // a second value of one property (`W[ce][x]`) is listed too (as invalid), so `moves`
    // counts what a reader of the nodes counts. Move properties are told by their key.
    let (black, white) = (crate::model::props::index_of("B"), crate::model::props::index_of("W"));
    let color = |p: &crate::model::Property| {
        let k = Some(p.key());
        if k == black {
            Some(true)
        } else if k == white {
            Some(false)
        } else {
            None
        }
    };
    // The entries are written first (and counted), then the count and the entries.
    let (doc, out) = (out, &mut Vec::with_capacity(32 * game.len()));
    let mut moves = 0usize;
    let mut each = |n: crate::model::Node<'_>| {
        // A node holding one move and nothing else: its colour and letters from its one slot.
        if let Some([colour, x, y]) = game.lone_move(n.id()) {
            // Lower-case letters: what `Move::from_sgf` makes of them, without the text.
            let mv = if [x, y] == *b"tt" && size.width <= 19 && size.height <= 19 {
                Move::Pass
            } else {
                Move::Play(crate::model::Point::new(x - b'a', y - b'a'))
            };
            entry(out, &mut moves, colour == b'B', Some(mv), &[x, y], size);
            return;
        }
        for p in n.props() {
            let Some(black) = color(&p) else { continue };
            match p.single_plain() {
                Some(v) => entry(out, &mut moves, black, Move::from_sgf(v, size), v.as_bytes(), size),
                None => p.values().for_each(|v| {
                    let v = v.as_str();
                    entry(out, &mut moves, black, Move::from_sgf(v, size), v.as_bytes(), size);
                }),
            }
        }
    };
    // Without variations the main line is every node, in storage order.
    if game.has_variations() {
        game.main_line().for_each(&mut each);
    } else {
        game.nodes().for_each(&mut each);
    }
    doc.extend_from_slice(b",\"moves\":");
    int(doc, moves);
    doc.extend_from_slice(b",\"main_line\":[");
    doc.extend_from_slice(out);
    doc.extend_from_slice(b"]}");
}

/// Writes `c` (below 100) at `buf[at..]` in one or two digits; returns where they end.
#[inline(always)]
fn two_digits(buf: &mut [u8; 32], at: usize, c: u8) -> usize {
    if c >= 10 {
        buf[at] = b'0' + c / 10;
        buf[at + 1] = b'0' + c % 10;
        at + 2
    } else {
        buf[at] = b'0' + c;
        at + 1
    }
}

/// One entry of `main_line` (`,` before all but the first; `moves` counts them): the colour, then
/// the point, a pass, or the value as it is when it is no move on this board (`mv`: what
/// `Move::from_sgf` makes of `value`).
fn entry(out: &mut Vec<u8>, moves: &mut usize, black: bool, mv: Option<Move>, value: &[u8], size: BoardSize) {
    if *moves > 0 {
        out.push(b',');
    }
    *moves += 1;
    match mv {
        Some(Move::Play(pt)) if pt.is_on(size) && pt.x < 100 && pt.y < 100 => {
            // `{"color":"B","x":15,"y":3}` assembled on the stack from copies of fixed sizes.
            let mut buf = [0u8; 32];
            buf[..17].copy_from_slice(if black { b"{\"color\":\"B\",\"x\":" } else { b"{\"color\":\"W\",\"x\":" });
            let n = two_digits(&mut buf, 17, pt.x);
            buf[n..n + 5].copy_from_slice(b",\"y\":");
            let n = two_digits(&mut buf, n + 5, pt.y);
            buf[n] = b'}';
            put_prefix(out, &buf, n + 1);
            return;
        }
        _ => out.extend_from_slice(if black { b"{\"color\":\"B\"," } else { b"{\"color\":\"W\"," }),
    }
    match mv {
        Some(Move::Play(pt)) if pt.is_on(size) => {
            out.extend_from_slice(b"\"x\":");
            coordinate(out, pt.x);
            out.extend_from_slice(b",\"y\":");
            coordinate(out, pt.y);
            out.push(b'}');
        }
        Some(Move::Pass) => out.extend_from_slice(b"\"pass\":true}"),
        _ => {
            out.extend_from_slice(b"\"invalid\":");
            // `value` is the text of a value (or a lone move's two letters): valid UTF-8.
            string(out, &String::from_utf8_lossy(value));
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TreeBuilder;
    use pretty_assertions::assert_eq;

    #[test]
    fn lone_moves_are_written_as_every_other_node_is() {
        // Moves alone in their node (written from their one slot), beside other properties, a
        // pass as `tt` and as `[]`, a move in the root.
        let read = crate::read(&b"(;SZ[19]B[aa];B[pd];W[tt];B[dd]C[x];W[];B[sa]BL[30])"[..]).unwrap();
        let text = String::from_utf8(lines_bytes(&read.collection, None)).unwrap();
        let nodes = r#""nodes":[{"SZ":["19"],"B":["aa"]},{"B":["pd"]},{"W":["tt"]},{"B":["dd"],"C":["x"]},{"W":[""]},{"B":["sa"],"BL":["30"]}]"#;
        assert!(text.contains(nodes), "{text}");
        let line = concat!(
            r#""moves":6,"main_line":[{"color":"B","x":0,"y":0},{"color":"B","x":15,"y":3},"#,
            r#"{"color":"W","pass":true},{"color":"B","x":3,"y":3},{"color":"W","pass":true},"#,
            r#"{"color":"B","x":18,"y":0}]"#
        );
        assert!(text.contains(line), "{text}");
        // `tt` is a point on a board larger than 19; a point off a small board is invalid.
        let read = crate::read(&b"(;SZ[21];B[tt];W[ab])(;SZ[9];B[pd];W[ii])"[..]).unwrap();
        let text = String::from_utf8(lines_bytes(&read.collection, None)).unwrap();
        let big = r#""main_line":[{"color":"B","x":19,"y":19},{"color":"W","x":0,"y":1}]"#;
        let small = r#""main_line":[{"color":"B","invalid":"pd"},{"color":"W","x":8,"y":8}]"#;
        assert!(text.contains(big) && text.contains(small), "{text}");
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_controls() {
        let mut s = Vec::new();
        string(&mut s, "a\"b\\c\nd\u{1}é");
        assert_eq!(crate::formats::written_text(s), r#""a\"b\\c\nd\u0001é""#);
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
        let mut s = Vec::new();
        node(&mut s, &t, NodeId::ROOT);
        node(&mut s, &t, NodeId(1));
        assert_eq!(crate::formats::written_text(s), r#"{"AB":[["aa","cc"],"dd"]}[["B",["pd"]],["B",["dd"]]]"#);
        // Forty identifiers, all different, then the first again: the repeat is found past the
        // thirty-two the writer keeps at hand.
        for repeat in [false, true] {
            let mut b = TreeBuilder::new();
            let r = b.root();
            for i in 0..40 {
                b.add_prop(r, &format!("X{}{}", (b'A' + i / 26) as char, (b'A' + i % 26) as char), ["v"]);
            }
            if repeat {
                b.add_prop(r, "XAA", ["w"]);
            }
            let t = b.build();
            let mut s = Vec::new();
            node(&mut s, &t, NodeId::ROOT);
            let s = crate::formats::written_text(s);
            assert_eq!(s.starts_with("[["), repeat, "{s}");
        }
    }
}
