//! The SGF writer: FF\[4\], one readable canonical layout, escapes that always re-read.
//!
//! Layout: each game tree opens on a new line; the root node's properties follow `(;` on the
//! first line; further nodes are packed onto lines of at most 80 columns, a node never split
//! (long values simply make a long line); each variation opens on a new line. No line break is
//! ever inserted inside a value, so no break can separate an escape from what it escapes.

use crate::diag::Diagnostic;
use crate::formats::WriteOptions;
use crate::model::props::ValueType;
use crate::model::{Collection, GameTree, Node, NodeId, PropValue, Property};
use std::io::Write as _;

/// Preferred line width for packed nodes.
const WIDTH: usize = 80;

/// Sets the root's `FF` to 4 and its `CA` to `charset`, adding them at the front when absent
/// (FF first, CA right after FF): exactly what the writer does to the header, applied to a model.
pub fn normalize_header(tree: &mut GameTree, charset: &str) {
    let root = NodeId::ROOT;
    if tree.root().get("FF").is_some() {
        tree.set_prop(root, "FF", ["4"]);
    } else {
        tree.insert_prop(root, 0, "FF", ["4"]);
    }
    if tree.root().get("CA").is_some() {
        tree.set_prop(root, "CA", &[PropValue::new(charset)]);
    } else {
        let after_ff = tree.root().props().position(|p| p.ident() == "FF").map_or(0, |i| i + 1);
        tree.insert_prop(root, after_ff, "CA", &[PropValue::new(charset)]);
    }
}

/// Writes a collection as SGF text (charset name in `CA` from the options).
pub fn write_text(collection: &Collection, options: &WriteOptions) -> String {
    let (bytes, _) = write_bytes_reporting(collection, options, Vec::new());
    crate::formats::written_text(bytes)
}

/// [`write_text`] as UTF-8 bytes, with a `sgf.lossy-value` warning for each value SGF cannot
/// hold as it is (it would read back otherwise): a property without values (written `[]`, one
/// empty value), a line break in SimpleText (read back as a space), a CR in Text (read back as
/// LF). Written into `buf` (emptied first; a buffer used before saves growing a new one).
pub(crate) fn write_bytes_reporting(
    collection: &Collection,
    options: &WriteOptions,
    mut buf: Vec<u8>,
) -> (Vec<u8>, Vec<Diagnostic>) {
    let charset = crate::charset::ca_label(options.encoding());
    let lost = Lost { list: Vec::new(), game: None };
    buf.clear();
    buf.reserve(size_guess(collection));
    let mut w = Writer { out: buf, col: 0, options, charset, lost };
    for (i, game) in collection.games.iter().enumerate() {
        w.lost.game = (collection.games.len() > 1).then_some(i + 1);
        if i > 0 {
            w.out.push(b'\n');
        }
        w.tree(game);
        w.out.push(b'\n');
    }
    (w.out, w.lost.list)
}

/// One game as SGF text (`(…)` and a line end), UTF-8 with `CA[UTF-8]` unless `options` name
/// another charset's label, written into `buf` (emptied first). The writer's lossy notes are
/// not kept: callers that need them write the collection.
#[cfg(feature = "parquet")]
pub(crate) fn write_game(game: &GameTree, options: &WriteOptions, mut buf: Vec<u8>) -> Vec<u8> {
    buf.clear();
    let charset = crate::charset::ca_label(options.encoding());
    let mut w = Writer { out: buf, col: 0, options, charset, lost: Lost { list: Vec::new(), game: None } };
    w.tree(game);
    w.out.push(b'\n');
    w.out
}

/// About the size of the output, so that the buffer is seldom regrown: the size of the text the
/// games were read from (trees of one read share it), bounded by a generous guess from the
/// number of nodes and properties (a tree built in code, or one game of a large file).
fn size_guess(collection: &Collection) -> usize {
    let mut source = 0;
    let mut last: Option<*const u8> = None;
    let mut counted = 0;
    for g in &collection.games {
        let s = g.source();
        if last != Some(s.as_ptr()) {
            last = Some(s.as_ptr());
            source += s.len();
        }
        counted += g.len() * 2 + g.prop_total() * 16;
    }
    (source + source / 16).min(counted) + 256
}

struct Writer<'o> {
    out: Vec<u8>,
    col: usize,
    options: &'o WriteOptions,
    charset: &'static str,
    /// What does not read back as it is.
    lost: Lost,
}

impl Writer<'_> {
    fn newline(&mut self) {
        self.out.push(b'\n');
        self.col = 0;
    }

    /// Iterative pre-order walk: `(` before a variation, `)` after its last node. A game without
    /// variations is its nodes in order.
    fn tree(&mut self, tree: &GameTree) {
        self.out.push(b'(');
        self.col += 1;
        if !tree.has_variations() {
            for i in 0..tree.len() {
                self.node(tree, NodeId::from_index(i), false, i == 1);
            }
        } else {
            let mut stack = vec![Step::Node(NodeId::ROOT, false)];
            while let Some(step) = stack.pop() {
                match step {
                    Step::Close => {
                        self.out.push(b')');
                        self.col += 1;
                    }
                    Step::Node(id, opens_variation) => {
                        let after_root = tree.parent(id) == Some(NodeId::ROOT);
                        self.node(tree, id, opens_variation, after_root);
                        self.children(tree, id, &mut stack);
                    }
                }
            }
        }
        self.out.push(b')');
        self.col += 1;
    }

    /// Writes node `id` (`after_root`: its parent is the root, so it starts a line). The node is
    /// written in place; a line break goes in front of it afterwards when it is needed.
    #[inline(always)]
    fn node(&mut self, tree: &GameTree, id: NodeId, opens_variation: bool, after_root: bool) {
        let node = tree.node(id);
        if opens_variation {
            self.newline();
            self.out.push(b'(');
            self.col += 1;
        }
        // A node holding one move and nothing else (most nodes): six bytes, nothing to look up.
        if let Some([colour, x, y]) = tree.lone_move(id).filter(|_| id != NodeId::ROOT) {
            if !opens_variation && (after_root || self.col + 6 > WIDTH) {
                self.newline();
            }
            self.out.extend_from_slice(&[b';', colour, b'[', x, y, b']']);
            self.col += 6;
            return;
        }
        let at = self.out.len();
        let seen = if node.is_root() {
            write_root(node, self.options, self.charset, &mut self.out, &mut self.lost);
            SCAN
        } else {
            write_node(node, self.options, &mut self.out, &mut self.lost)
        };
        let written = &self.out[at..];
        let (first_line, tail) = if seen & SCAN == 0 {
            (if seen & WIDE == 0 { written.len() } else { width(written) }, None)
        } else {
            match memchr::memchr(b'\n', written) {
                None => (width(written), None),
                Some(first) => {
                    let last = memchr::memrchr(b'\n', written).unwrap_or(first);
                    (width(&written[..first]), Some(width(&written[last + 1..])))
                }
            }
        };
        if !opens_variation && !node.is_root() && (after_root || self.col + first_line > WIDTH) {
            self.out.insert(at, b'\n');
            self.col = 0;
        }
        self.col = match tail {
            Some(w) => w,
            None => self.col + first_line,
        };
    }

    /// Puts the children of `id` on the walk's stack.
    fn children(&mut self, tree: &GameTree, id: NodeId, stack: &mut Vec<Step>) {
        let mut children = tree.children(id);
        if let Some(first) = children.next() {
            match children.next() {
                None => stack.push(Step::Node(first, false)),
                Some(second) => {
                    let all: Vec<NodeId> = [first, second].into_iter().chain(children).collect();
                    for &c in all.iter().rev() {
                        stack.push(Step::Close);
                        stack.push(Step::Node(c, true));
                    }
                }
            }
        }
    }
}

/// A step of the writer's walk.
enum Step {
    /// A node, and whether it opens a variation.
    Node(NodeId, bool),
    /// The `)` after a variation's last node.
    Close,
}

/// [`CLASS`]: `\` and `]`, escaped in every value.
const ESC: u8 = 1;
/// [`CLASS`]: `:`, escaped in values of composed types.
const COLON: u8 = 2;
/// [`CLASS`]: `[`, `;`, `(`, `)`, escaped in values that hold no text.
const NO_TEXT: u8 = 4;
/// [`CLASS`]: CR (lossy in SimpleText and Text).
const CR: u8 = 8;
/// [`CLASS`]: LF (lossy in SimpleText; the line packing must look for it).
const LF: u8 = 16;
/// [`CLASS`]: a byte of a non-ASCII character (width counted in characters).
const WIDE: u8 = 32;
/// What a node's writer reports besides [`WIDE`]: what it wrote may hold a line break.
const SCAN: u8 = 64;
/// The classes that keep a single value off the verbatim path.
const STOP: u8 = ESC | COLON | NO_TEXT | CR | LF;

/// The class of each byte, as flags.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'\\' as usize] = ESC;
    t[b']' as usize] = ESC;
    t[b':' as usize] = COLON;
    t[b'[' as usize] = NO_TEXT;
    t[b';' as usize] = NO_TEXT;
    t[b'(' as usize] = NO_TEXT;
    t[b')' as usize] = NO_TEXT;
    t[b'\r' as usize] = CR;
    t[b'\n' as usize] = LF;
    let mut i = 0x80;
    while i < 256 {
        t[i] = WIDE;
        i += 1;
    }
    t
};

/// The classes of the bytes of `s`, or-ed.
#[inline]
fn classes(s: &[u8]) -> u8 {
    s.iter().fold(0, |acc, &c| acc | CLASS[usize::from(c)])
}

/// Appends `s` (short strings, identifiers and moves, byte by byte: cheaper than a copy call).
#[inline]
fn put(out: &mut Vec<u8>, s: &[u8]) {
    if s.len() <= 8 {
        for &b in s {
            out.push(b);
        }
    } else {
        out.extend_from_slice(s);
    }
}

/// Writes non-root node `node` (`;` and its properties) at the end of `out`; returns [`WIDE`]
/// when it wrote a non-ASCII character and [`SCAN`] when it may have written a line break.
#[inline(always)]
fn write_node(node: Node<'_>, options: &WriteOptions, out: &mut Vec<u8>, lost: &mut Lost) -> u8 {
    out.push(b';');
    let mut seen = 0;
    for p in node.props() {
        seen |= write_prop(node, p, options, out, lost);
    }
    seen
}

/// Writes property `p` of `node`; returns what [`write_node`] returns.
#[inline(always)]
fn write_prop(node: Node<'_>, p: Property<'_>, options: &WriteOptions, out: &mut Vec<u8>, lost: &mut Lost) -> u8 {
    let ident = p.ident();
    let mut seen = 0;
    if p.def().is_none() {
        let c = classes(ident.as_bytes());
        seen |= c & WIDE;
        if c & LF != 0 {
            seen |= SCAN;
        }
    }
    // One plain value (moves, numbers, most text), written as it is unless it has a byte to
    // escape or a line break.
    let Some(v) = p.single_plain() else {
        put(out, ident.as_bytes());
        write_values(node, p, options, out, lost);
        return seen | SCAN;
    };
    let v = v.as_bytes();
    let c = classes(v);
    seen |= c & WIDE;
    if c & STOP == 0 {
        match (ident.as_bytes(), v) {
            // A move (or any one-letter property with a two-letter value): one short copy.
            (&[i], &[a, b]) => out.extend_from_slice(&[i, b'[', a, b, b']']),
            _ => {
                put(out, ident.as_bytes());
                out.push(b'[');
                put(out, v);
                out.push(b']');
            }
        }
        return seen;
    }
    let vt = p.def().map(|d| d.value);
    let composed = vt.is_some_and(ValueType::is_composed);
    let no_text = vt.is_some_and(ValueType::holds_no_text);
    report_line_ends(lost, node, ident, vt, c);
    if c & LF != 0 {
        seen |= SCAN;
    }
    put(out, ident.as_bytes());
    out.push(b'[');
    let special = ESC | if composed { COLON } else { 0 } | if no_text { NO_TEXT } else { 0 };
    if c & special == 0 {
        out.extend_from_slice(v);
    } else {
        escape_into(out, v, special);
    }
    out.push(b']');
    seen
}

/// Writes the root node at the end of `out`: `FF[4]` and `CA` naming the output's charset
/// replace the node's own (added at the front when absent, FF first, CA right after FF).
fn write_root(node: Node<'_>, options: &WriteOptions, charset: &str, out: &mut Vec<u8>, lost: &mut Lost) {
    let ca = |out: &mut Vec<u8>| {
        out.extend_from_slice(b"CA[");
        out.extend_from_slice(charset.as_bytes());
        out.push(b']');
    };
    out.push(b';');
    let (has_ff, mut missing_ca) = (node.get("FF").is_some(), node.get("CA").is_none());
    if !has_ff {
        out.extend_from_slice(b"FF[4]");
        if missing_ca {
            ca(out);
            missing_ca = false;
        }
    }
    for p in node.props() {
        match p.ident() {
            "FF" => {
                out.extend_from_slice(b"FF[4]");
                if missing_ca {
                    ca(out);
                    missing_ca = false;
                }
            }
            "CA" => ca(out),
            _ => {
                write_prop(node, p, options, out, lost);
            }
        }
    }
}

/// Writes the values of property `p` of `node` (after its identifier): each escaped as its
/// type asks, a compressed point list expanded when the options say so, what does not read
/// back as it is reported.
fn write_values(node: Node<'_>, p: Property<'_>, options: &WriteOptions, out: &mut Vec<u8>, lost: &mut Lost) {
    let ident = p.ident();
    let vt = p.def().map(|d| d.value);
    let composed = vt.is_some_and(ValueType::is_composed);
    let no_text = vt.is_some_and(ValueType::holds_no_text);
    let expand = options.expand_point_lists && matches!(vt, Some(ValueType::PointList | ValueType::PointElist));
    if p.is_empty() {
        out.extend_from_slice(b"[]");
        lost.push(node, format!("property {ident} has no values; written as {ident}[], one empty value"));
        return;
    }
    let no_text_bits = if no_text { NO_TEXT } else { 0 };
    for v in p.values() {
        if expand {
            if let Some((a, b)) = v.parts() {
                if let Some(points) = crate::model::point::expand_rect(a, Some(b)) {
                    for pt in points {
                        let _ = write!(out, "[{pt}]");
                    }
                    continue;
                }
            }
        }
        let s = v.as_str().as_bytes();
        if memchr::memchr2(b'\r', b'\n', s).is_some() {
            report_line_ends(lost, node, ident, vt, classes(s));
        }
        out.push(b'[');
        match v.parts() {
            Some((a, b)) => {
                escape_into(out, a.as_bytes(), ESC | COLON | no_text_bits);
                out.push(b':');
                escape_into(out, b.as_bytes(), ESC | COLON | no_text_bits);
            }
            None => escape_into(out, s, ESC | if composed { COLON } else { 0 } | no_text_bits),
        }
        out.push(b']');
    }
}

/// Reports a value that does not read back with its line ends (`c`: its [`classes`]): any line
/// break in SimpleText (read back as a space), a CR in Text or in an unknown property (read back
/// as LF).
fn report_line_ends(lost: &mut Lost, node: Node<'_>, ident: &str, vt: Option<ValueType>, c: u8) {
    if vt.is_some_and(ValueType::is_simple_text) && c & (CR | LF) != 0 {
        lost.push(node, format!("a line break in {ident} is read back as a space (SGF SimpleText)"));
    } else if matches!(vt, None | Some(ValueType::Text)) && c & CR != 0 {
        lost.push(node, format!("CR line ends in {ident} are read back as LF"));
    }
}

/// The `sgf.lossy-value` warnings of a write, each placed by node and, in a collection, by game.
struct Lost {
    list: Vec<Diagnostic>,
    /// The game being written (1-based), in a collection of several.
    game: Option<usize>,
}

impl Lost {
    fn push(&mut self, node: Node<'_>, what: String) {
        let game = self.game.map(|g| format!(" (game {g})")).unwrap_or_default();
        let message = format!("node {}{game}: {what}", node.id().index());
        self.list.push(Diagnostic::warning(super::codes::LOSSY_VALUE, message));
    }
}

/// Appends `s` with a `\` before each byte of the classes `special` ([`ESC`]: `\` and `]`;
/// [`COLON`]; [`NO_TEXT`]: `[`, `;`, `(`, `)`, so that a damaged point or number value is not
/// taken for a lost `]` when it is read back).
fn escape_into(out: &mut Vec<u8>, s: &[u8], special: u8) {
    let mut run = 0;
    for (i, &c) in s.iter().enumerate() {
        if CLASS[usize::from(c)] & special != 0 {
            // The special bytes are ASCII, so the runs end on character boundaries.
            out.extend_from_slice(&s[run..i]);
            out.push(b'\\');
            run = i;
        }
    }
    out.extend_from_slice(&s[run..]);
}

/// Display width used for line packing: characters (bytes for ASCII text).
fn width(s: &[u8]) -> usize {
    s.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}
