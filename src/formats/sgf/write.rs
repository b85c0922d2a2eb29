//! The SGF writer: FF\[4\], one readable canonical layout, escapes that always re-read.
//!
//! Layout: each game tree opens on a new line; the root node's properties follow `(;` on the
//! first line; further nodes are packed onto lines of at most 80 columns, a node never split
//! (long values simply make a long line); each variation opens on a new line. No line break is
//! ever inserted inside a value, so no break can separate an escape from what it escapes.

use crate::diag::Diagnostic;
use crate::formats::WriteOptions;
use crate::model::props::ValueType;
use crate::model::{Collection, GameTree, Node, NodeId, PropValue};
use std::fmt::Write as _;

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
    write_text_reporting(collection, options).0
}

/// [`write_text`], with a `sgf.lossy-value` warning for each value SGF cannot hold as it is
/// (it would read back otherwise): a property without values (written `[]`, one empty value),
/// a line break in SimpleText (read back as a space), a CR in Text (read back as LF).
pub(crate) fn write_text_reporting(collection: &Collection, options: &WriteOptions) -> (String, Vec<Diagnostic>) {
    let charset = crate::charset::ca_label(options.encoding());
    // A first guess at the size (a move node is about 7 bytes) saves most regrowing.
    let guess: usize = collection.games.iter().map(|g| g.len() * 2 + g.prop_total() * 6).sum();
    let lost = Lost { list: Vec::new(), game: None };
    let mut w = Writer { out: String::with_capacity(guess), col: 0, options, charset, lost };
    for (i, game) in collection.games.iter().enumerate() {
        w.lost.game = (collection.games.len() > 1).then_some(i + 1);
        if i > 0 {
            w.out.push('\n');
        }
        w.tree(game);
        w.out.push('\n');
    }
    (w.out, w.lost.list)
}

struct Writer<'o> {
    out: String,
    col: usize,
    options: &'o WriteOptions,
    charset: &'static str,
    /// What does not read back as it is.
    lost: Lost,
}

impl Writer<'_> {
    fn newline(&mut self) {
        self.out.push('\n');
        self.col = 0;
    }

    fn push(&mut self, s: &str) {
        self.out.push_str(s);
        match s.as_bytes().iter().rposition(|&c| c == b'\n') {
            Some(i) => self.col = width(&s[i + 1..]),
            None => self.col += width(s),
        }
    }

    /// Iterative pre-order walk: `(` before a variation, `)` after its last node. A game without
    /// variations is its nodes in order.
    fn tree(&mut self, tree: &GameTree) {
        self.push("(");
        if !tree.has_variations() {
            for i in 0..tree.len() {
                self.node(tree, NodeId::from_index(i), false, i == 1);
            }
            self.push(")");
            return;
        }
        let mut stack = vec![Step::Node(NodeId::ROOT, false)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Close => self.push(")"),
                Step::Node(id, opens_variation) => {
                    let after_root = tree.parent(id) == Some(NodeId::ROOT);
                    self.node(tree, id, opens_variation, after_root);
                    self.children(tree, id, &mut stack);
                }
            }
        }
        self.push(")");
    }

    /// Writes node `id` (`after_root`: its parent is the root, so it starts a line).
    fn node(&mut self, tree: &GameTree, id: NodeId, opens_variation: bool, after_root: bool) {
        let node = tree.node(id);
        if opens_variation {
            self.newline();
            self.push("(");
        }
        let at = self.out.len();
        if let Some(w) = (!node.is_root()).then(|| write_plain(tree, id, &mut self.out)).flatten() {
            // The common node, written straight (a line break goes in front when needed).
            if !opens_variation && (after_root || self.col + w > WIDTH) {
                self.out.insert(at, '\n');
                self.col = 0;
            }
            self.col += w;
            return;
        }
        // Written in place; a line break goes in front of it afterwards when it is needed.
        let one_line = write_node(node, self.options, self.charset, &mut self.out, &mut self.lost);
        let written = &self.out[at..];
        // Only values written through the escaping path can hold a line break.
        let last_break = if one_line { None } else { memchr::memrchr(b'\n', written.as_bytes()) };
        let first_line = match last_break {
            None => width(written),
            Some(_) => width(&written[..memchr::memchr(b'\n', written.as_bytes()).unwrap_or(0)]),
        };
        let tail = last_break.map(|i| width(&written[i + 1..]));
        if !opens_variation && !node.is_root() && (after_root || self.col + first_line > WIDTH) {
            self.out.insert(at, '\n');
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

/// Writes non-root node `id` when every property has one plain value that needs no escape and
/// no look (as `write_node` would write it); returns its width. Writes nothing and returns
/// `None` for any other node.
fn write_plain(tree: &GameTree, id: NodeId, out: &mut String) -> Option<usize> {
    let at = out.len();
    out.push(';');
    let mut seen = 0u8;
    for p in tree.quick_props(id) {
        let Some(v) = p.single() else {
            out.truncate(at);
            return None;
        };
        let ident = p.ident();
        seen |= v.bytes().fold(0, |acc, c| acc | PLAIN[usize::from(c)]);
        if !p.known() {
            seen |= ident.bytes().fold(0, |acc, c| acc | PLAIN[usize::from(c)]);
        }
        if seen & STOP != 0 {
            out.truncate(at);
            return None;
        }
        out.push_str(ident);
        out.push('[');
        out.push_str(v);
        out.push(']');
    }
    let written = &out[at..];
    Some(if seen & WIDE == 0 { written.len() } else { written.chars().count() })
}

/// [`PLAIN`]: a byte that keeps a value off the plain path (as [`PLAIN_STOP`]).
const STOP: u8 = 1;
/// [`PLAIN`]: a byte of a non-ASCII character (width counted in characters).
const WIDE: u8 = 2;

/// [`PLAIN_STOP`] and the non-ASCII bytes, as flags.
static PLAIN: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if PLAIN_STOP[i] {
            STOP
        } else if i >= 0x80 {
            WIDE
        } else {
            0
        };
        i += 1;
    }
    t
};

/// Writes one node (`;` and its properties) at the end of `out`; returns `true` when what it
/// wrote holds no line break for sure (every value took the plain path).
fn write_node(node: Node<'_>, options: &WriteOptions, charset: &str, out: &mut String, lost: &mut Lost) -> bool {
    let mut one_line = true;
    out.push(';');
    let root = node.is_root();
    let (has_ff, mut missing_ca) = (root && node.get("FF").is_some(), root && node.get("CA").is_none());
    if root && !has_ff {
        out.push_str("FF[4]");
        if missing_ca {
            let _ = write!(out, "CA[{}]", charset);
            missing_ca = false;
        }
    }
    for p in node.props() {
        let ident = p.ident();
        out.push_str(ident);
        if p.def().is_none() && ident.contains('\n') {
            one_line = false;
        }
        // Fast path: one plain value with nothing to escape (moves, numbers, most text).
        if !root {
            if let Some(v) = p.single_plain() {
                if !v.bytes().any(|c| PLAIN_STOP[usize::from(c)]) {
                    out.reserve(v.len() + 2);
                    out.push('[');
                    out.push_str(v);
                    out.push(']');
                    continue;
                }
            }
        }
        one_line = false;
        if root && ident == "FF" {
            out.push_str("[4]");
            if missing_ca {
                let _ = write!(out, "CA[{}]", charset);
                missing_ca = false;
            }
            continue;
        }
        if root && ident == "CA" {
            let _ = write!(out, "[{}]", charset);
            continue;
        }
        let vt = p.def().map(|d| d.value);
        let composed_type = vt.is_some_and(ValueType::is_composed);
        let no_text = vt.is_some_and(ValueType::holds_no_text);
        let expand = options.expand_point_lists && matches!(vt, Some(ValueType::PointList | ValueType::PointElist));
        if p.is_empty() {
            out.push_str("[]");
            lost.push(node, format!("property {ident} has no values; written as {ident}[], one empty value"));
            continue;
        }
        let simple = vt.is_some_and(ValueType::is_simple_text);
        let text = matches!(vt, None | Some(ValueType::Text));
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
            if simple && memchr::memchr2(b'\r', b'\n', v.as_str().as_bytes()).is_some() {
                lost.push(node, format!("a line break in {ident} is read back as a space (SGF SimpleText)"));
            } else if text && memchr::memchr(b'\r', v.as_str().as_bytes()).is_some() {
                lost.push(node, format!("CR line ends in {ident} are read back as LF"));
            }
            out.push('[');
            match v.parts() {
                Some((a, b)) => {
                    escape_into(out, a, true, no_text);
                    out.push(':');
                    escape_into(out, b, true, no_text);
                }
                None => escape_into(out, v.as_str(), composed_type, no_text),
            }
            out.push(']');
        }
    }
    one_line
}

/// The bytes that keep a single value off the plain path: what may need an escape (`\\`, `]`,
/// `:`, and `[`, `;`, `(`, `)` in values that hold no text) and line breaks (lossy in
/// SimpleText, and where the line packing must look).
static PLAIN_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let stops = *b"\\]:[;()\r\n";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
};

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

/// Escapes `\` and `]` (and `:` when `colon`; `[`, `;`, `(` and `)` when `no_text`, so that a
/// damaged point or number value is not taken for a lost `]` when it is read back).
fn escape_into(out: &mut String, s: &str, colon: bool, no_text: bool) {
    let special =
        |c: u8| c == b'\\' || c == b']' || (colon && c == b':') || (no_text && matches!(c, b'[' | b';' | b'(' | b')'));
    let b = s.as_bytes();
    // Values are mostly short (moves, numbers): a plain scan beats a search routine here.
    if !b.iter().any(|&c| special(c)) {
        out.push_str(s);
        return;
    }
    let mut run = 0;
    for (i, &c) in b.iter().enumerate() {
        if special(c) {
            // The special characters are ASCII, so these slices end on character boundaries.
            out.push_str(&s[run..i]);
            out.push('\\');
            run = i;
        }
    }
    out.push_str(&s[run..]);
}

/// Display width used for line packing: characters (bytes for ASCII text).
fn width(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { s.chars().count() }
}
