//! Writing: each game as its main line up to its first fork (`nodes`), then the rest of the
//! main line and its other lines listed flat (`variations`, each side line naming its parent
//! node by number), walked with an explicit stack, plus the read-only `info` digest of each
//! game. The nesting depth is the same for every tree.
//!
//! A game without variations (most games) is written in one pass over its nodes in storage
//! order: each node goes to a scratch buffer and each move to the digest's `main_line` in
//! another, since the digest (with its move count first) comes before the nodes. A node that
//! holds one move and nothing else is written from its slot in fixed-size copies, and its
//! `main_line` entry copied whole from a table of every point's entry.

use std::io::Write as _;

use super::{MARKER, VERSION};
use crate::charset::CharsetDecision;
use crate::model::info::{InfoTexts, field, is_written_rank, normalize_rank, parse_handicap, parse_komi};
use crate::model::{BoardSize, Collection, GameResult, GameTree, Move, NodeId};

/// The deepest indentation the writer gives (more than it needs: a document's deepest lines,
/// the nodes of a variation, are six levels in).
const MAX_INDENT: usize = 16;

/// A property without values met by the writer: index of its game in the collection, its node,
/// its identifier (reported by [`super::write_notes`]).
pub(crate) struct Empty {
    pub(crate) game: usize,
    pub(crate) node: usize,
    pub(crate) ident: String,
}

/// The properties without values met so far, and the game being written.
#[derive(Default)]
struct Notes {
    game: usize,
    empty: Vec<Empty>,
}

/// The output and the writer's scratch buffers, kept from game to game.
struct Out {
    s: Vec<u8>,
    pretty: bool,
    /// The `main_line` entries of the game being written, each after a `,`.
    entries: Vec<u8>,
    /// The nodes of the game being written when it has no variations (written before its
    /// digest, which comes first).
    nodes: Vec<u8>,
    notes: Notes,
}

impl Out {
    fn new(s: Vec<u8>, pretty: bool) -> Out {
        Out { s, pretty, entries: Vec::new(), nodes: Vec::new(), notes: Notes::default() }
    }

    /// A line break and indentation for `depth` (pretty output only).
    fn nl(&mut self, depth: usize) {
        if self.pretty {
            put_prefix(&mut self.s, BREAK, 1 + 2 * depth.min(MAX_INDENT));
        }
    }

    /// `"key": ` (`"key":` when compact).
    fn key(&mut self, k: &str) {
        string(&mut self.s, k);
        self.s.extend_from_slice(if self.pretty { &b": "[..] } else { &b":"[..] });
    }
}

/// A line break and two blanks per level, up to [`MAX_INDENT`] (copied whole, then cut).
const BREAK: &[u8; 1 + 2 * MAX_INDENT] = b"\n                                ";

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

fn opt_str(out: &mut Vec<u8>, v: Option<&str>) {
    match v {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends `x` as Rust's `Display` writes it (the shortest text that reads back as `x`), `null`
/// when it is not finite. Whole and half numbers (most komi and margins) without `core::fmt`.
/// A number, or `null`.
fn opt_number(out: &mut Vec<u8>, x: Option<f64>) {
    match x {
        Some(x) => number(out, x),
        None => out.extend_from_slice(b"null"),
    }
}

fn number(out: &mut Vec<u8>, x: f64) {
    if !x.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    // Below 10^15 twice the number is exact and whole exactly when the number is whole or half.
    if x.is_sign_positive() && x < 1e15 && (2.0 * x).fract() == 0.0 {
        int(out, x as u64);
        if x.fract() != 0.0 {
            out.extend_from_slice(b".5");
        }
        return;
    }
    let _ = write!(out, "{x}");
}

/// Writes one kifu JSON document: `{"format": "kifu", "version": 2, "games": [...]}`, with
/// nodes one per line.
#[cfg(feature = "serde")]
pub(crate) fn write_document(collection: &Collection, charset: Option<CharsetDecision>) -> String {
    crate::formats::written_text(document_bytes(collection, charset).0)
}

/// [`write_document`] as UTF-8 bytes, with the properties without values it met.
pub(crate) fn document_bytes(collection: &Collection, charset: Option<CharsetDecision>) -> (Vec<u8>, Vec<Empty>) {
    let mut s = document_head().into_bytes();
    let empty = document_games(&mut s, collection, charset, true);
    s.extend_from_slice(document_tail(!collection.games.is_empty()).as_bytes());
    (s, empty)
}

/// The start of a document, up to the `[` of `games`.
pub(crate) fn document_head() -> String {
    let mut o = Out::new(Vec::new(), true);
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
/// game was written before them), so a document can be written part by part. Returns the
/// properties without values met (for [`super::write_notes`]).
pub(crate) fn document_games(
    s: &mut Vec<u8>,
    collection: &Collection,
    charset: Option<CharsetDecision>,
    first: bool,
) -> Vec<Empty> {
    let mut o = Out::new(std::mem::take(s), true);
    o.s.reserve(size_guess(collection, true));
    for (i, game) in collection.games.iter().enumerate() {
        if i > 0 || !first {
            o.s.push(b',');
        }
        o.nl(2);
        o.notes.game = i;
        game_object(&mut o, game, charset, 2, false);
    }
    *s = o.s;
    o.notes.empty
}

/// The end of a document after its games (`any`: at least one game was written).
pub(crate) fn document_tail(any: bool) -> &'static str {
    if any { "\n  ]\n}\n" } else { "]\n}\n" }
}

/// Writes kifu NDJSON: per game one line `{"format":"kifu","version":2,"info":…,"nodes":…,
/// "variations":…}`.
#[cfg(feature = "serde")]
pub(crate) fn write_lines(collection: &Collection, charset: Option<CharsetDecision>) -> String {
    crate::formats::written_text(lines_bytes(collection, charset).0)
}

/// [`write_lines`] as UTF-8 bytes, with the properties without values it met.
pub(crate) fn lines_bytes(collection: &Collection, charset: Option<CharsetDecision>) -> (Vec<u8>, Vec<Empty>) {
    let mut s = Vec::new();
    let empty = lines_into(&mut s, collection, charset);
    (s, empty)
}

/// Appends [`write_lines`]'s bytes to `s`; returns the properties without values met (for
/// [`super::write_notes`]).
pub(crate) fn lines_into(s: &mut Vec<u8>, collection: &Collection, charset: Option<CharsetDecision>) -> Vec<Empty> {
    let mut o = Out::new(std::mem::take(s), false);
    o.s.reserve(size_guess(collection, false));
    for (i, game) in collection.games.iter().enumerate() {
        o.notes.game = i;
        game_object(&mut o, game, charset, 0, true);
        o.s.push(b'\n');
    }
    *s = o.s;
    o.notes.empty
}

/// A first guess at the size of the games' JSON, to save most regrowing: a move node
/// (`{"B":["pd"]},`, after a line break and 8 blanks in a document) and its `main_line` entry
/// (`{"color":"B","x":15,"y":3},`) take about 40 bytes (50); a reservation not written to
/// costs no memory.
fn size_guess(collection: &Collection, pretty: bool) -> usize {
    let per_node = if pretty { 50 } else { 40 };
    collection.games.iter().map(|g| 512 + g.len() * per_node + g.prop_total() * 8).sum()
}

/// A game object at `depth`: the digest, then the main line and the other lines.
fn game_object(o: &mut Out, game: &GameTree, charset: Option<CharsetDecision>, depth: usize, marker: bool) {
    o.s.push(b'{');
    if marker {
        o.s.extend_from_slice(b"\"format\":\"kifu\",\"version\":");
        int(&mut o.s, VERSION);
        o.s.push(b',');
    }
    o.nl(depth + 1);
    o.key("info");
    let texts = game.info_texts();
    let size = texts.size.and_then(BoardSize::from_sgf).unwrap_or_default();
    // The nodes of a game without variations are written with its entries, in one pass.
    let flat = !game.has_variations() && !game.is_empty();
    o.entries.clear();
    let moves = if flat { flat_nodes(o, game, size, depth) } else { main_line_entries(o, game, size) };
    info(&mut o.s, &texts, size, charset);
    o.s.extend_from_slice(b",\"moves\":");
    int(&mut o.s, moves);
    o.s.extend_from_slice(b",\"main_line\":[");
    // Each entry follows a `,`; the first one's is not written.
    o.s.extend_from_slice(o.entries.get(1..).unwrap_or_default());
    o.s.extend_from_slice(b"]},");
    if game.is_empty() {
        o.nl(depth + 1);
        o.key("nodes");
        o.s.extend_from_slice(b"[{}],");
        o.nl(depth + 1);
        o.key("variations");
        o.s.extend_from_slice(b"[]}");
        return;
    }
    if flat {
        // One line: the nodes written above, and no variations.
        o.nl(depth + 1);
        o.key("nodes");
        o.s.push(b'[');
        o.s.extend_from_slice(&o.nodes);
        o.nl(depth + 1);
        o.s.extend_from_slice(b"],");
        o.nl(depth + 1);
        o.key("variations");
        o.s.extend_from_slice(b"[]");
        o.nl(depth);
        o.s.push(b'}');
        return;
    }
    tree(o, game, depth);
}

/// Writes the nodes of a game without variations (`nodes`' elements, at `depth`) into
/// `o.nodes` and the `main_line` entries of their moves into `o.entries`; returns the number of
/// moves.
fn flat_nodes(o: &mut Out, game: &GameTree, size: BoardSize, depth: usize) -> usize {
    // What goes before a node after the first: `,` and, in a document, a line break and blanks.
    let mut before = [b' '; 2 + 2 * MAX_INDENT];
    before[0] = b',';
    before[1] = b'\n';
    let n_before = if o.pretty { 2 + 2 * (depth + 2).min(MAX_INDENT) } else { 1 };
    // A lone move node (`{"B":["pd"]}`) after what goes before it: its 12 bytes change.
    let mut lone = [0u8; 64];
    lone[..before.len()].copy_from_slice(&before);
    lone[n_before..n_before + 12].copy_from_slice(b"{\"B\":[\"pd\"]}");
    // The buffers as locals while written (what the loop keeps at hand).
    let (mut nodes, mut entries, notes) = (std::mem::take(&mut o.nodes), std::mem::take(&mut o.entries), &mut o.notes);
    nodes.clear();
    nodes.reserve(game.len() * (n_before + 12) + 64);
    entries.reserve(game.len() * 28);
    let mut moves = 0;
    nodes.extend_from_slice(&before[1..n_before]);
    any_node(&mut nodes, game, NodeId::ROOT, notes);
    node_entries(&mut entries, &mut moves, game, NodeId::ROOT, size);
    for i in 1..game.len() {
        let id = NodeId::from_index(i);
        match game.lone_move(id) {
            Some([colour, x, y]) => {
                if n_before == 1 {
                    nodes
                        .extend_from_slice(&[b',', b'{', b'"', colour, b'"', b':', b'[', b'"', x, y, b'"', b']', b'}']);
                } else {
                    lone[n_before + 2] = colour;
                    lone[n_before + 7] = x;
                    lone[n_before + 8] = y;
                    put_prefix(&mut nodes, &lone, n_before + 12);
                }
                lone_entry(&mut entries, colour == b'B', x, y, size);
                moves += 1;
            }
            None => {
                nodes.extend_from_slice(&before[..n_before]);
                any_node(&mut nodes, game, id, notes);
                node_entries(&mut entries, &mut moves, game, id, size);
            }
        }
    }
    (o.nodes, o.entries) = (nodes, entries);
    moves
}

/// Writes the `main_line` entries of a game with variations into `o.entries`; returns their
/// number.
fn main_line_entries(o: &mut Out, game: &GameTree, size: BoardSize) -> usize {
    let mut moves = 0;
    for n in game.main_line() {
        match game.lone_move(n.id()) {
            Some([colour, x, y]) => {
                lone_entry(&mut o.entries, colour == b'B', x, y, size);
                moves += 1;
            }
            None => node_entries(&mut o.entries, &mut moves, game, n.id(), size),
        }
    }
    moves
}

/// A variation still to write: its first node and the number of its parent.
type Pending = (NodeId, usize);

/// Writes a `nodes` array at `depth`: the node `start` (numbered `*number`) and its first
/// children to the end of that line, or (`to_fork`) only up to its first node with more than
/// one child; returns that node's first child, where the line goes on. The later children of
/// each node go on `pending`, the last first, so that popping them lists the variations in
/// pre-order (SGF's order).
fn line_nodes(
    o: &mut Out,
    game: &GameTree,
    start: NodeId,
    depth: usize,
    number: &mut usize,
    pending: &mut Vec<Pending>,
    to_fork: bool,
) -> Option<NodeId> {
    o.s.push(b'[');
    let mut cur = start;
    let rest = loop {
        o.nl(depth + 1);
        node(&mut o.s, game, cur, &mut o.notes);
        let mut kids = game.children(cur);
        let first = kids.next();
        let at = pending.len();
        pending.extend(kids.map(|k| (k, *number)));
        pending[at..].reverse();
        *number += 1;
        match first {
            Some(next) if to_fork && pending.len() > at => break Some(next),
            Some(next) => {
                o.s.push(b',');
                cur = next;
            }
            None => break None,
        }
    };
    o.nl(depth);
    o.s.push(b']');
    rest
}

/// One element of `variations` at `depth`: `{"parent": N, "nodes": [...]}`, or without
/// `parent` (`None`) for the rest of the main line.
fn variation(
    o: &mut Out,
    game: &GameTree,
    start: NodeId,
    parent: Option<usize>,
    depth: usize,
    number: &mut usize,
    pending: &mut Vec<Pending>,
) {
    o.nl(depth);
    o.s.push(b'{');
    if let Some(parent) = parent {
        o.nl(depth + 1);
        o.key("parent");
        int(&mut o.s, parent);
        o.s.push(b',');
    }
    o.nl(depth + 1);
    o.key("nodes");
    line_nodes(o, game, start, depth + 1, number, pending, false);
    o.nl(depth);
    o.s.push(b'}');
}

/// A game with variations, for which the caller wrote the opening `{`: its main line up to its
/// first node with more than one child as `nodes`; then, in `variations`, the rest of the main
/// line (without `parent`: it continues after the last node of `nodes`, as its first child)
/// and every other line, each naming its parent by number (nodes are numbered in the order
/// written, which is SGF's order). A version-1 reader (main line = `nodes`, then
/// `variations[0]`, repeatedly) so still reads the main line and every node. No nesting grows
/// with the tree: each node is written once, with a stack on the heap.
fn tree(o: &mut Out, game: &GameTree, depth: usize) {
    let mut pending: Vec<Pending> = Vec::new();
    let mut number = 0;
    o.nl(depth + 1);
    o.key("nodes");
    let rest = line_nodes(o, game, NodeId::ROOT, depth + 1, &mut number, &mut pending, true);
    o.s.push(b',');
    o.nl(depth + 1);
    o.key("variations");
    o.s.push(b'[');
    let mut any = false;
    if let Some(rest) = rest {
        variation(o, game, rest, None, depth + 2, &mut number, &mut pending);
        any = true;
    }
    while let Some((start, parent)) = pending.pop() {
        if any {
            o.s.push(b',');
        }
        any = true;
        variation(o, game, start, Some(parent), depth + 2, &mut number, &mut pending);
    }
    if any {
        o.nl(depth + 1);
    }
    o.s.push(b']');
    o.nl(depth);
    o.s.push(b'}');
}

/// One node: `{"B":["pd"]}`, or, when an identifier repeats in the node, the pair form
/// `[["B",["pd"]],["B",["dd"]]]`.
#[inline(always)]
fn node(out: &mut Vec<u8>, game: &GameTree, id: NodeId, notes: &mut Notes) {
    // A node holding one move and nothing else (most nodes): `{"B":["pd"]}` in one copy.
    match game.lone_move(id).filter(|_| id != NodeId::ROOT) {
        Some([colour, x, y]) => {
            out.extend_from_slice(&[b'{', b'"', colour, b'"', b':', b'[', b'"', x, y, b'"', b']', b'}'])
        }
        None => any_node(out, game, id, notes),
    }
}

/// [`node`] for any node; a property without values is noted in `notes`.
fn any_node(out: &mut Vec<u8>, game: &GameTree, id: NodeId, notes: &mut Notes) {
    let n = game.node(id);
    let (start, noted) = (out.len(), notes.empty.len());
    // Written as an object, the keys seen kept as bits (known identifiers by key, others by
    // the key's low bits, a possible repeat checked against the properties before): a repeated
    // identifier (rare) starts the node again in pair form.
    // Past 64 other identifiers, their keys are kept in a set instead (a node of many distinct
    // unknown identifiers is written in linear time).
    let (mut known, mut other) = (0u128, 0u128);
    let (mut n_other, mut others): (usize, Option<std::collections::HashSet<u32>>) = (0, None);
    out.push(b'{');
    for (i, p) in n.props().enumerate() {
        let k = p.key();
        let (set, bit) = if p.known() && k < 128 { (&mut known, k) } else { (&mut other, k & 127) };
        let repeat = match &mut others {
            Some(ids) if !(p.known() && k < 128) => !ids.insert(p.ident_key()),
            _ => *set & (1 << bit) != 0 && n.props().take(i).any(|q| q.ident_key() == p.ident_key()),
        };
        if !(p.known() && k < 128) && others.is_none() {
            n_other += 1;
            if n_other > 64 && !repeat {
                let ids = n.props().take(i + 1).filter(|q| !(q.known() && q.key() < 128)).map(|q| q.ident_key());
                others = Some(ids.collect());
            }
        }
        if repeat {
            out.truncate(start);
            notes.empty.truncate(noted);
            out.push(b'[');
            for (i, p) in n.props().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.push(b'[');
                ident(out, p);
                out.push(b',');
                values(out, p, id, notes);
                out.push(b']');
            }
            out.push(b']');
            return;
        }
        *set |= 1 << bit;
        if i > 0 {
            out.push(b',');
        }
        // `"B":["pd"]`, `"BL":["1795.3"]`, `"KM":["6.5"]`: a known identifier with one short
        // value that needs no escape, assembled on the stack.
        if let (Some(d), Some(v)) = (p.def(), p.single_plain()) {
            let (k, v) = (d.ident.as_bytes(), v.as_bytes());
            if v.len() <= 23 && !v.iter().any(|&c| ESCAPE[usize::from(c)]) {
                let mut buf = [b'"'; 32];
                // Identifiers of the table have one or two letters.
                let at = match *k {
                    [a] => {
                        buf[1] = a;
                        2
                    }
                    [a, b] => {
                        buf[1] = a;
                        buf[2] = b;
                        3
                    }
                    _ => 0,
                };
                if at > 0 {
                    buf[at + 1..at + 3].copy_from_slice(b":[");
                    buf[at + 4..at + 4 + v.len()].copy_from_slice(v);
                    buf[at + 5 + v.len()] = b']';
                    put_prefix(out, &buf, at + 6 + v.len());
                    continue;
                }
            }
        }
        ident(out, p);
        out.push(b':');
        values(out, p, id, notes);
    }
    out.push(b'}');
}

/// A property's values as a JSON array (node `id`'s, for the note of a property without
/// values).
fn values(out: &mut Vec<u8>, p: crate::model::Property<'_>, id: NodeId, notes: &mut Notes) {
    out.push(b'[');
    if let Some(v) = p.single_plain() {
        // One plain value (most properties), without the value iterator.
        string(out, v);
        out.push(b']');
        return;
    }
    if p.is_empty() {
        // What the reader makes of `[]` (reported by the writer).
        string(out, "");
        notes.empty.push(Empty { game: notes.game, node: id.index(), ident: p.ident().to_string() });
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

/// The read-only digest up to its move count: typed game information from `texts` (what
/// [`GameTree::info`] reads).
fn info(out: &mut Vec<u8>, texts: &InfoTexts<'_>, size: BoardSize, charset: Option<CharsetDecision>) {
    let found = &texts.found;
    out.extend_from_slice(b"{\"size\":{\"width\":");
    int(out, size.width);
    out.extend_from_slice(b",\"height\":");
    int(out, size.height);
    out.push(b'}');
    out.extend_from_slice(b",\"black\":");
    opt_str(out, found[field::PB]);
    out.extend_from_slice(b",\"white\":");
    opt_str(out, found[field::PW]);
    out.extend_from_slice(b",\"black_rank\":");
    rank(out, found[field::BR]);
    out.extend_from_slice(b",\"white_rank\":");
    rank(out, found[field::WR]);
    out.extend_from_slice(b",\"komi\":");
    opt_number(out, found[field::KM].and_then(parse_komi));
    out.extend_from_slice(b",\"handicap\":");
    match found[field::HA].and_then(parse_handicap) {
        Some(h) => int(out, h),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"result\":");
    match found[field::RE] {
        None => out.extend_from_slice(b"null"),
        Some(text) => {
            out.extend_from_slice(b"{\"text\":");
            string(out, text);
            let (winner, how, margin) = match GameResult::from_sgf(text) {
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
            opt_number(out, margin);
            out.push(b'}');
        }
    }
    out.extend_from_slice(b",\"date\":");
    opt_str(out, found[field::DT]);
    out.extend_from_slice(b",\"rules\":");
    opt_str(out, found[field::RU]);
    out.extend_from_slice(b",\"event\":");
    opt_str(out, found[field::EV]);
    out.extend_from_slice(b",\"name\":");
    opt_str(out, found[field::GN]);
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
}

/// A rank, normalised when recognisable (`3段` → `3d`), else as written; `null` when absent.
fn rank(out: &mut Vec<u8>, r: Option<&str>) {
    match r {
        // The written form (most ranks) is what normalising gives back, without a copy.
        Some(r) if is_written_rank(r.trim()) => string(out, r.trim()),
        Some(r) => string(out, normalize_rank(r).as_deref().unwrap_or(r)),
        None => out.extend_from_slice(b"null"),
    }
}

/// The `main_line` entries of node `id`'s moves, each after a `,` (`moves` counts them).
///
/// Every value of every move property is an entry: a node `B[tt]W[tt]` holds two moves, and a
/// second value of one property (`W[ce][x]`) is listed too (as invalid), so `moves` counts what
/// a reader of the nodes counts. Move properties are told by their key.
fn node_entries(out: &mut Vec<u8>, moves: &mut usize, game: &GameTree, id: NodeId, size: BoardSize) {
    for p in game.node(id).props() {
        let black = match p.key() {
            KEY_B => true,
            KEY_W => false,
            _ => continue,
        };
        match p.single_plain() {
            Some(v) => entry(out, moves, black, v, size),
            None => p.values().for_each(|v| entry(out, moves, black, v.as_str(), size)),
        }
    }
}

/// The table keys of `B` and `W`: the first two identifiers of the property table (checked in
/// a test).
const KEY_B: u16 = 0;
const KEY_W: u16 = 1;

/// `,{"color":"B","x":X,"y":Y}` for both colours (black first) and every point with both
/// coordinates below 26 (the points of lower-case letters) at `26 * x + y`, in 32 bytes whose
/// last one is the length.
static POINT_ENTRIES: [[[u8; 32]; 26 * 26]; 2] = [point_entries(b'B'), point_entries(b'W')];

const fn point_entries(colour: u8) -> [[u8; 32]; 26 * 26] {
    /// Writes `c` in one or two digits at `e[n..]`; returns where they end.
    const fn digits(e: &mut [u8; 32], n: usize, c: usize) -> usize {
        if c >= 10 {
            e[n] = b'0' + (c / 10) as u8;
            e[n + 1] = b'0' + (c % 10) as u8;
            n + 2
        } else {
            e[n] = b'0' + c as u8;
            n + 1
        }
    }
    const HEAD: &[u8; 18] = b",{\"color\":\"B\",\"x\":";
    let mut t = [[0u8; 32]; 26 * 26];
    let mut x = 0;
    while x < 26 {
        let mut y = 0;
        while y < 26 {
            let mut e = [0u8; 32];
            let mut n = 0;
            while n < HEAD.len() {
                e[n] = HEAD[n];
                n += 1;
            }
            e[11] = colour;
            n = digits(&mut e, n, x);
            e[n] = b',';
            e[n + 1] = b'"';
            e[n + 2] = b'y';
            e[n + 3] = b'"';
            e[n + 4] = b':';
            n = digits(&mut e, n + 5, y);
            e[n] = b'}';
            e[31] = n as u8 + 1;
            t[26 * x + y] = e;
            y += 1;
        }
        x += 1;
    }
    t
}

/// `,{"color":"B","x":15,"y":3}`: the entry of a move on a point of the board.
#[inline(always)]
fn point_entry(out: &mut Vec<u8>, black: bool, x: u8, y: u8) {
    if x < 26 && y < 26 {
        let e = &POINT_ENTRIES[usize::from(!black)][26 * usize::from(x) + usize::from(y)];
        put_prefix(out, e, usize::from(e[31]));
        return;
    }
    out.extend_from_slice(if black { b",{\"color\":\"B\",\"x\":" } else { b",{\"color\":\"W\",\"x\":" });
    int(out, x);
    out.extend_from_slice(b",\"y\":");
    int(out, y);
    out.push(b'}');
}

/// The `main_line` entry of a node holding one move and nothing else (lower-case letters `x`
/// `y`), after a `,`: what [`entry`] writes for their text.
#[inline(always)]
fn lone_entry(out: &mut Vec<u8>, black: bool, x: u8, y: u8, size: BoardSize) {
    let (px, py) = (x.wrapping_sub(b'a'), y.wrapping_sub(b'a'));
    // `tt` (a pass on boards up to 19×19) is off those boards.
    if px < size.width && py < size.height {
        point_entry(out, black, px, py);
    } else {
        entry(out, &mut 0, black, std::str::from_utf8(&[x, y]).unwrap_or_default(), size);
    }
}

/// One entry of `main_line` after a `,` (`moves` counts them): the colour, then the point, a
/// pass, or the value as it is when it is no move on this board.
fn entry(out: &mut Vec<u8>, moves: &mut usize, black: bool, value: &str, size: BoardSize) {
    *moves += 1;
    match Move::from_sgf(value, size) {
        Some(Move::Play(pt)) if pt.is_on(size) => point_entry(out, black, pt.x, pt.y),
        mv => {
            out.extend_from_slice(if black { b",{\"color\":\"B\"," } else { b",{\"color\":\"W\"," });
            if mv == Some(Move::Pass) {
                out.extend_from_slice(b"\"pass\":true}");
            } else {
                out.extend_from_slice(b"\"invalid\":");
                string(out, value);
                out.push(b'}');
            }
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
        let text = String::from_utf8(lines_bytes(&read.collection, None).0).unwrap();
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
        let text = String::from_utf8(lines_bytes(&read.collection, None).0).unwrap();
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
        node(&mut s, &t, NodeId::ROOT, &mut Notes::default());
        node(&mut s, &t, NodeId(1), &mut Notes::default());
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
            node(&mut s, &t, NodeId::ROOT, &mut Notes::default());
            let s = crate::formats::written_text(s);
            assert_eq!(s.starts_with("[["), repeat, "{s}");
        }
    }

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for x in [0.0, -0.0, 6.5, 7.0, 375.0, 0.5, -6.5, -0.5, 2.75, 1e15, 1e16 + 2.0, 123456789.5, f64::MIN_POSITIVE] {
            let mut s = Vec::new();
            number(&mut s, x);
            assert_eq!(String::from_utf8(s).unwrap(), x.to_string(), "{x}");
        }
        let mut s = Vec::new();
        number(&mut s, f64::NAN);
        assert_eq!(s, b"null");
    }

    #[test]
    fn point_entries_spell_the_coordinates() {
        for (black, x, y, want) in [
            (true, 0, 0, r#",{"color":"B","x":0,"y":0}"#),
            (false, 15, 3, r#",{"color":"W","x":15,"y":3}"#),
            (true, 25, 9, r#",{"color":"B","x":25,"y":9}"#),
            (false, 26, 51, r#",{"color":"W","x":26,"y":51}"#),
        ] {
            let mut s = Vec::new();
            point_entry(&mut s, black, x, y);
            assert_eq!(String::from_utf8(s).unwrap(), want);
        }
        assert_eq!(crate::model::props::index_of("B"), Some(KEY_B));
        assert_eq!(crate::model::props::index_of("W"), Some(KEY_W));
    }

    #[test]
    fn repeats_of_unknown_identifiers_and_their_look_alikes_are_told_apart() {
        // Unknown identifiers share bits by their keys' low bits: only a true repeat turns the
        // node into pairs. Two identifiers whose keys share them are found first.
        let name = |i: u32| format!("X{}{}", (b'A' + (i / 26) as u8) as char, (b'A' + (i % 26) as u8) as char);
        let mut b = TreeBuilder::new();
        let r = b.root();
        for i in 0..300 {
            b.add_prop(r, &name(i), ["v"]);
        }
        let t = b.build();
        let keys: Vec<(u16, &str)> = t.root().props().map(|p| (p.key(), p.ident())).collect();
        let (x, y) = keys
            .iter()
            .find_map(|&(k, x)| keys.iter().find(|&&(l, _)| l != k && l & 127 == k & 127).map(|&(_, y)| (x, y)))
            .unwrap();
        let mut b = TreeBuilder::new();
        let r = b.root();
        for i in 0..300 {
            b.add_prop(r, &name(i), ["v"]);
        }
        let n = b.add_child(r);
        b.add_prop(n, x, ["1"]);
        b.add_prop(n, y, ["2"]);
        b.add_prop(n, "KM", ["6.5"]);
        let m = b.add_child(n);
        b.add_prop(m, y, ["1"]);
        b.add_prop(m, "C", ["a\"b"]);
        b.add_prop(m, y, ["2"]);
        let t = b.build();
        let mut s = Vec::new();
        node(&mut s, &t, NodeId(1), &mut Notes::default());
        node(&mut s, &t, NodeId(2), &mut Notes::default());
        let want = format!(r#"{{"{x}":["1"],"{y}":["2"],"KM":["6.5"]}}[["{y}",["1"]],["C",["a\"b"]],["{y}",["2"]]]"#);
        assert_eq!(crate::formats::written_text(s), want);
    }

    #[test]
    fn properties_without_values_are_noted_where_the_writer_meets_them() {
        // In a game with variations and in one without, in a node written as pairs too.
        let game = |variations: bool| {
            let mut b = TreeBuilder::new();
            let r = b.root();
            b.add_prop(r, "GN", std::iter::empty::<&str>());
            let one = b.add_child(r);
            b.add_prop(one, "B", ["pd"]);
            b.add_prop(one, "TR", std::iter::empty::<&str>());
            if variations {
                let two = b.add_child(r);
                b.add_prop(two, "B", ["dd"]);
                b.add_prop(two, "B", ["dp"]);
                b.add_prop(two, "SQ", std::iter::empty::<&str>());
            }
            b.build()
        };
        let collection = Collection::new(vec![game(false), game(true)]);
        for pretty in [false, true] {
            let empty = if pretty {
                let mut s = Vec::new();
                document_games(&mut s, &collection, None, true)
            } else {
                lines_bytes(&collection, None).1
            };
            let got: Vec<_> = empty.iter().map(|e| (e.game, e.node, e.ident.as_str())).collect();
            assert_eq!(got, [(0, 0, "GN"), (0, 1, "TR"), (1, 0, "GN"), (1, 1, "TR"), (1, 2, "SQ")]);
        }
        let text = String::from_utf8(lines_bytes(&collection, None).0).unwrap();
        assert!(text.contains(r#"[["B",["dd"]],["B",["dp"]],["SQ",[""]]]"#), "{text}");
    }
}
