//! The SGF reader: FF\[4\] grammar with lenient recovery, iterative (no recursion), values
//! borrowed from the decoded text unless they need unescaping.

use super::codes;
use crate::diag::{Diagnostic, Sink};
use crate::model::props::{self, ValueType};
use crate::model::{Collection, GameTree};
use nom::bytes::complete::{take_while, take_while1};
use nom::{IResult, Parser};
use std::collections::HashMap;
use std::sync::Arc;

/// Finds the charset an SGF file declares: the `CA` of the first game tree's root node that has
/// one, found by the reader's tokenizing rules on the raw bytes (see `declared.rs`); the scan
/// stops after that game (the streaming reader looks at its input's first 16 MiB with it).
pub fn find_declared_charset(bytes: &[u8]) -> Option<String> {
    super::declared::first_root_charset(bytes).map(|r| r.label)
}

/// Where a collection must be cut so that each part is decoded with the charset its games
/// declare: at the `(` of each game tree whose root `CA` names a charset other than the one
/// before. Returns the parts as (start, label); a single part when every game agrees.
#[cfg(test)]
fn charset_parts(bytes: &[u8]) -> Vec<(usize, String)> {
    declarations(bytes).0
}

/// Where a collection must be cut (as `charset_parts`) and [`find_declared_charset`], from one
/// scan.
pub(super) fn declarations(bytes: &[u8]) -> (Vec<(usize, String)>, Option<String>) {
    declarations_of(super::declared::root_charsets(bytes))
}

/// [`declarations`] from the roots' `CA` already found.
pub(super) fn declarations_of(roots: Vec<super::declared::RootCharset>) -> (Vec<(usize, String)>, Option<String>) {
    let first = roots.first().map(|r| r.label.clone());
    let mut parts: Vec<(usize, String)> = Vec::new();
    let mut current: Option<&'static encoding_rs::Encoding> = None;
    // Games of one collection mostly repeat one label: looked up once.
    let mut last: Option<(String, Option<&'static encoding_rs::Encoding>)> = None;
    for r in roots {
        let found = match &last {
            Some((label, enc)) if *label == r.label => *enc,
            _ => {
                let enc = crate::charset::encoding_for_label(&r.label);
                last = Some((r.label.clone(), enc));
                enc
            }
        };
        let Some(enc) = found else { continue };
        match current {
            None => parts.push((0, r.label)),
            Some(c) if c == enc => continue,
            Some(_) => parts.push((r.game, r.label)),
        }
        current = Some(enc);
    }
    (parts, first)
}

fn ws(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while(|c: u8| c.is_ascii_whitespace() || c < 0x20).parse(i)
}

fn ident(i: &[u8]) -> IResult<&[u8], &[u8]> {
    take_while1(|c: u8| c.is_ascii_alphabetic()).parse(i)
}

/// At most this many nodes and property slots are reserved in the first tree of an input (tens
/// of KB; see `Reader::game_tree`).
const SCRATCH_RESERVE: usize = 4096;

/// The nodes and property slots to reserve for the games of `text`, up to [`SCRATCH_RESERVE`]
/// each: a node for each `;`; a slot for each `;` with a `[` (a move, most nodes) and four for
/// each other `[` (any other property takes four slots; a value beyond a property's first takes
/// none). Counted over the first bytes only, where a small file's game lies whole.
fn room_for(text: &[u8]) -> (usize, usize) {
    let head = &text[..text.len().min(SCRATCH_RESERVE * 8)];
    let (mut semis, mut opens) = (0usize, 0usize);
    // Counted by runs of at most 255 bytes in byte-wide counters (a loop the compiler
    // vectorises).
    for run in head.chunks(255) {
        let (mut s, mut o) = (0u8, 0u8);
        for &c in run {
            s += u8::from(c == b';');
            o += u8::from(c == b'[');
        }
        semis += usize::from(s);
        opens += usize::from(o);
    }
    let slots = semis.min(opens) + 4 * opens.saturating_sub(semis);
    ((semis + 1).min(SCRATCH_RESERVE), slots.min(SCRATCH_RESERVE))
}

/// Games with more properties than this are not copied out of the reader's reused tree: it is
/// handed over whole (shrunk) and a new one started.
const SCRATCH_MAX_PROPS: usize = 1 << 16;

/// The parser's state for one input.
struct Reader<'s> {
    text: &'s str,
    bytes: &'s [u8],
    pos: usize,
    src: Arc<String>,
    sink: Sink,
    /// Reused buffer for one property's values.
    vals: Vec<crate::model::tree::Val>,
    /// Old identifiers already reported.
    reported_old: Vec<String>,
    /// Lone CR line ends met in text values: the first one's offset and the count.
    lone_cr: Option<(usize, usize)>,
    /// Whether to record node and property offsets.
    positions: bool,
    /// Whether runs of moves are read by [`Reader::move_run`] (always but in the tests that
    /// compare it with the general path, and when reading stops early).
    move_runs: bool,
    /// The last node to read: the game tree stops before the next one (`u32::MAX`: none).
    last_node: u32,
    /// The tree games are built in (reused: each game is then copied out at its final size).
    scratch: Option<GameTree>,
    /// The identifier lookup table (see `props::lookup_table`).
    table: &'static [u16; 26 * 27],
    /// Property keys of `B` and `W`.
    key_b: u16,
    key_w: u16,
    /// Property keys of `CA`, `BL` and `WL`.
    key_ca: u16,
    key_bl: u16,
    key_wl: u16,
    /// Each game's root `CA` as `declared.rs` finds it on the bytes, when asked for.
    roots: Option<Vec<super::declared::RootCharset>>,
    /// Where the game tree being read opens, and whether its root `CA` was found.
    game_open: usize,
    root_found: bool,
}

/// A variation being read: where its first node hangs, and its last node so far.
///
/// A `(` right after a `(` (blanks between) opens a variation like the one it is in, still
/// empty; such runs are kept as one frame that counts the empty ones beneath it (`below`), so
/// `(` × 10,000,000 holds one frame, not 10,000,000 (their `(` are found again by scanning back
/// over blanks when they close).
#[derive(Clone, Copy)]
struct Frame {
    attach: Option<u32>,
    tail: Option<u32>,
    open_at: usize,
    /// Whether this variation (or one nested in it) holds a node.
    seen: bool,
    /// Empty variations beneath this one, opened by the `(` just before its own.
    below: u32,
}

/// Parses decoded SGF text into a collection; diagnostics are added to `sink` and returned with
/// positions resolved.
/// With `positions`, every tree records where its nodes and properties start
/// ([`GameTree::node_offset`], [`crate::model::Property::offset`]).
#[cfg(test)]
pub(crate) fn parse_text(text: String, sink: Sink, positions: bool) -> (Collection, Vec<Diagnostic>) {
    parse_text_within(text, sink, positions, crate::Limits::default().pieces_from)
}

/// [`parse_text`], reading a text of `pieces_from` bytes or more in pieces on the thread pool
/// ([`crate::Limits::pieces_from`]).
pub(crate) fn parse_text_within(
    text: String,
    sink: Sink,
    positions: bool,
    pieces_from: usize,
) -> (Collection, Vec<Diagnostic>) {
    let parsed = parse_text_with(text, sink, positions, false, pieces_from);
    (parsed.collection, parsed.diagnostics)
}

/// What [`parse_text_with`] returns.
pub(super) struct Parsed {
    pub(super) collection: Collection,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The text the collection's values refer to.
    pub(super) text: Arc<String>,
    /// Each game's root `CA` (when asked for): on a text read without any diagnostic, what
    /// `declared::root_charsets` finds on the same bytes.
    pub(super) roots: Vec<super::declared::RootCharset>,
}

/// [`parse_text`], also returning the text and, with `roots`, each game's root `CA`.
pub(super) fn parse_text_with(text: String, sink: Sink, positions: bool, roots: bool, pieces_from: usize) -> Parsed {
    let mut sink = sink;
    if text.len() > crate::model::tree::MAX_TEXT {
        sink.push(Diagnostic::error(codes::TOO_LARGE, "the input is larger than 2 GiB"));
        let diagnostics = sink.finish("");
        return Parsed { collection: Collection::default(), diagnostics, text: Arc::new(text), roots: Vec::new() };
    }
    let src = Arc::new(text);
    // The reader borrows the text from a second handle on the same buffer.
    let holder = Arc::clone(&src);
    let text: &str = holder.as_str();
    if let Some((games, found)) = parse_pieces(text, &src, positions, roots, pieces_from) {
        let diagnostics = sink.finish(text);
        return Parsed { collection: Collection::new(games), diagnostics, text: holder, roots: found };
    }
    let mut r = Reader::new(text, src, sink, positions, roots);
    let games = r.collection();
    r.report_lone_cr();
    let roots = r.roots.take().unwrap_or_default();
    let diagnostics = r.sink.finish(text);
    Parsed { collection: Collection::new(games), diagnostics, text: holder, roots }
}

/// The game `tree` read again from where the reader found it in its source text, recording
/// positions: the same game (checked), with [`GameTree::node_offset`] and
/// [`crate::model::Property::offset`] as a read of the whole text with positions gives them.
/// `None` for a tree not read from a text, or edited since.
///
/// The reader's state at a game's `(` is the state it starts with (what it keeps between games
/// only words diagnostics), and it reads on from there to the same end, so the game reads the
/// same; a collection read in pieces reads as the whole text does (see [`parse_pieces`]).
pub(crate) fn read_game_again(tree: &GameTree) -> Option<GameTree> {
    let again = read_from_start(tree, |r| r.game_tree())?;
    (again == *tree).then_some(again)
}

/// Runs `read` with a reader recording positions, set at the `(` where `tree` was read in its
/// source text; `None` for a tree not read from a text.
fn read_from_start<T>(tree: &GameTree, read: impl FnOnce(&mut Reader<'_>) -> Option<T>) -> Option<T> {
    let start = tree.read_span()?.start;
    let src = tree.source_arc();
    let text: &str = src.as_str();
    if start >= text.len() || !text.is_char_boundary(start) {
        return None;
    }
    let mut r = Reader::new(text, Arc::clone(&src), Sink::new(), true, false);
    r.pos = start;
    read(&mut r)
}

/// The nodes of the game `tree` up to `last` (in pre-order) read again from where the reader
/// found it, recording positions: a tree of those nodes (checked to be the same as `tree`'s),
/// whose offsets are the ones [`read_game_again`] would give them. Cheaper when `last` is near
/// the root (a repair of the root needs its offsets only). `None` as for [`read_game_again`].
pub(crate) fn read_game_head_again(tree: &GameTree, last: crate::model::NodeId) -> Option<GameTree> {
    if last.index() >= tree.len() {
        return None;
    }
    let head = read_from_start(tree, |r| {
        r.move_runs = false;
        r.last_node = last.index() as u32;
        r.game_tree()
    })?;
    let same = head.len() == last.index() + 1
        && head.nodes().zip(tree.nodes()).all(|(a, b)| {
            a.parent().map(|p| p.id()) == b.parent().map(|p| p.id())
                && a.prop_count() == b.prop_count()
                && a.props().zip(b.props()).all(|(p, q)| p.ident() == q.ident() && p.values().eq(q.values()))
        });
    same.then_some(head)
}

/// Reads a large text in pieces in parallel, each from a `(;` to the next piece's (the games of
/// a collection are read independently): the games in order, and each game's root `CA` when
/// asked for. `None` (read it whole) for a small text, a one-thread pool, or when any piece
/// reports anything: a piece cut anywhere but between two game trees ends inside one, which
/// its reader reports, so pieces read without a word are exactly the whole text's games.
#[cfg(feature = "parallel")]
fn parse_pieces(
    text: &str,
    src: &Arc<String>,
    positions: bool,
    roots: bool,
    from_size: usize,
) -> Option<(Vec<GameTree>, Vec<super::declared::RootCharset>)> {
    use rayon::prelude::*;
    let threads = crate::parallel::threads();
    if text.len() < from_size || threads < 2 {
        return None;
    }
    let n = 4 * threads;
    let b = text.as_bytes();
    let mut cuts = vec![0];
    for k in 1..n {
        let from = (text.len() / n * k).max(*cuts.last()? + 1);
        match memchr::memmem::find(&b[from.min(b.len())..], b"(;") {
            Some(at) => cuts.push(from + at),
            None => break,
        }
    }
    cuts.dedup();
    cuts.push(text.len());
    let pieces: Vec<Option<(Vec<GameTree>, Vec<super::declared::RootCharset>)>> = cuts
        .par_windows(2)
        .map(|w| {
            let mut r = Reader::new(&text[..w[1]], Arc::clone(src), Sink::new(), positions, roots);
            r.pos = w[0];
            let games = r.collection();
            (r.sink.is_empty() && r.lone_cr.is_none()).then(|| (games, r.roots.take().unwrap_or_default()))
        })
        .collect();
    let mut games = Vec::with_capacity(pieces.iter().flatten().map(|p| p.0.len()).sum());
    let mut found = Vec::new();
    for piece in pieces {
        let (g, f) = piece?;
        games.extend(g);
        found.extend(f);
    }
    Some((games, found))
}

/// Without the feature `parallel`, a text is always read whole.
#[cfg(not(feature = "parallel"))]
fn parse_pieces(
    _text: &str,
    _src: &Arc<String>,
    _positions: bool,
    _roots: bool,
    _from_size: usize,
) -> Option<(Vec<GameTree>, Vec<super::declared::RootCharset>)> {
    None
}

impl<'s> Reader<'s> {
    /// A reader of `text` (a whole input, or an input up to the end of a piece), whose values
    /// refer to `src`.
    fn new(text: &'s str, src: Arc<String>, sink: Sink, positions: bool, roots: bool) -> Reader<'s> {
        Reader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            src,
            sink,
            vals: Vec::new(),
            reported_old: Vec::new(),
            lone_cr: None,
            positions,
            move_runs: true,
            last_node: u32::MAX,
            scratch: None,
            table: props::lookup_table(),
            key_b: props::index_of("B").unwrap_or_default(),
            key_w: props::index_of("W").unwrap_or_default(),
            key_ca: props::index_of("CA").unwrap_or_default(),
            key_bl: props::index_of("BL").unwrap_or_default(),
            key_wl: props::index_of("WL").unwrap_or_default(),
            roots: roots.then(Vec::new),
            game_open: 0,
            root_found: false,
        }
    }

    #[inline]
    fn skip_ws(&mut self) {
        // Fast path: the next byte is usually not blank.
        if self.bytes.get(self.pos).is_some_and(|&c| c > b' ') {
            return;
        }
        if let Ok((rest, _)) = ws(&self.bytes[self.pos..]) {
            self.pos = self.bytes.len() - rest.len();
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn warn(&mut self, at: usize, code: &'static str, msg: impl Into<String>) {
        self.sink.push_at(at, Diagnostic::warning(code, msg));
    }

    fn error(&mut self, at: usize, code: &'static str, msg: impl Into<String>) {
        self.sink.push_at(at, Diagnostic::error(code, msg));
    }

    /// Where the next game tree starts at or after `from`: `(` followed by `;` (blanks allowed),
    /// else `(` followed by a property.
    fn find_game_start(&self, from: usize) -> Option<usize> {
        let b = &self.bytes[from..];
        let mut fallback = None;
        for at in memchr::memchr_iter(b'(', b) {
            let after = &b[at + 1..];
            let after = match ws(after) {
                Ok((rest, _)) => rest,
                Err(_) => after,
            };
            if after.first() == Some(&b';') {
                return Some(from + at);
            }
            if fallback.is_none() {
                if let Ok((rest, _)) = ident(after) {
                    if let Ok((rest, _)) = ws(rest) {
                        if rest.first() == Some(&b'[') {
                            fallback = Some(from + at);
                        }
                    }
                }
            }
        }
        fallback
    }

    fn collection(&mut self) -> Vec<GameTree> {
        let mut games = Vec::new();
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else { break };
            match c {
                b'(' => {
                    if let Some(g) = self.game_tree() {
                        games.push(g);
                    }
                }
                b')' => {
                    self.warn(self.pos, codes::EXTRA_CLOSE, "')' closes no game tree; skipped");
                    self.pos += 1;
                }
                b';' if games.is_empty() && self.find_game_start(self.pos).is_none() => {
                    self.error(
                        self.pos,
                        codes::MISSING_OPEN,
                        "the game tree does not start with '('; read as if it did",
                    );
                    if let Some(g) = self.game_tree() {
                        games.push(g);
                    }
                }
                _ => {
                    let start = self.pos;
                    let next = self.find_game_start(start);
                    let end = next.unwrap_or(self.bytes.len());
                    let (code, what) = if games.is_empty() {
                        (codes::TEXT_BEFORE, "text before the first game tree")
                    } else {
                        (codes::TEXT_BETWEEN, "text after a game tree")
                    };
                    let snippet: String = self.text[start..end].chars().take(24).collect();
                    self.warn(start, code, format!("{what} skipped ({} bytes: {:?})", end - start, snippet.trim_end()));
                    self.pos = end;
                }
            }
        }
        if games.is_empty() {
            let msg = if self.text.trim().is_empty() { "the input is empty" } else { "no SGF game tree found" };
            self.error(self.bytes.len(), codes::NO_GAME, msg);
        }
        games
    }

    /// Reads one game tree starting at `(` (or at a `;` when the `(` is missing).
    fn game_tree(&mut self) -> Option<GameTree> {
        let mut tree = match self.scratch.take() {
            Some(t) => t,
            None => {
                let mut t = GameTree::with_source(Arc::clone(&self.src));
                // Room for a small file's game at once, so that its buffers do not grow step by
                // step, each step a copy; larger games grow from there.
                // (Not when reading stops early: a few nodes, near the root.)
                if self.last_node == u32::MAX {
                    let (nodes, slots) = room_for(&self.bytes[self.pos..]);
                    t.reserve(nodes, slots);
                }
                if self.positions {
                    t.record_positions();
                }
                t
            }
        };
        let mut unknown_keys: HashMap<&'s str, u32> = HashMap::new();
        let mut last_child: HashMap<u32, u32> = HashMap::new();
        let mut frames: Vec<Frame> = Vec::new();
        if self.peek() == Some(b'(') {
            frames.push(Frame { attach: None, tail: None, open_at: self.pos, seen: false, below: 0 });
            self.pos += 1;
        } else {
            frames.push(Frame { attach: None, tail: None, open_at: self.pos, seen: false, below: 0 });
        }
        let game_open = frames[0].open_at;
        self.game_open = game_open;
        self.root_found = false;
        // The node that receives properties: the last node created, until a '(' or ')'.
        let mut open_node: Option<u32> = None;
        let mut after_variation = false;
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else {
                let opened = crate::diag::LineIndex::new(self.text).position(game_open);
                let depth: usize = frames.iter().map(|f| f.below as usize + 1).sum();
                self.error(
                    self.bytes.len(),
                    codes::MISSING_CLOSE,
                    format!("the input ends inside a game tree opened at {opened} ({depth} '(' unclosed); closed"),
                );
                break;
            };
            match c {
                b';' => {
                    if tree.len() > self.last_node as usize {
                        break;
                    }
                    let node_at = self.pos;
                    self.pos += 1;
                    let id = self.new_node(&mut tree, &mut frames, &mut last_child);
                    tree.set_node_offset(node_at);
                    if after_variation {
                        self.warn(
                            node_at,
                            codes::NODE_AFTER_VARIATION,
                            "a node follows a variation in the same sequence; read as another variation",
                        );
                        after_variation = false;
                    }
                    open_node = Some(id);
                    if self.quick_move(&mut tree) && self.move_runs {
                        if let Some(last) = self.move_run(&mut tree) {
                            open_node = Some(last);
                            if let Some(top) = frames.last_mut() {
                                top.tail = Some(last);
                            }
                        }
                    }
                }
                b'(' => {
                    let top = frames.last_mut().expect("frames never empty here");
                    let before = self.bytes[..self.pos].trim_ascii_end().len();
                    let redundant = top.tail.is_none() && before > 0 && self.bytes[before - 1] == b'(';
                    if redundant && !top.seen && top.open_at == before - 1 {
                        // Like the empty variation it is in: counted, not stacked.
                        top.below += 1;
                        top.open_at = self.pos;
                    } else if top.tail.is_none() && top.attach.is_none() && tree.is_empty() {
                        // "((;" : a redundant level around the root.
                        frames.push(Frame { attach: None, tail: None, open_at: self.pos, seen: false, below: 0 });
                    } else {
                        let attach = top.tail.or(top.attach);
                        frames.push(Frame { attach, tail: None, open_at: self.pos, seen: false, below: 0 });
                    }
                    if redundant {
                        self.warn(
                            self.pos,
                            codes::REDUNDANT_PAREN,
                            "'(' directly after '(': a variation must start with a node; the extra level was ignored",
                        );
                    }
                    self.pos += 1;
                    open_node = None;
                    after_variation = false;
                }
                b')' => {
                    let top = frames.last_mut().expect("frames never empty here");
                    let f = *top;
                    if f.below > 0 {
                        // The empty variation beneath becomes the top; its `(` is the one
                        // before this frame's (blanks between).
                        let before = self.bytes[..f.open_at].trim_ascii_end().len();
                        *top = Frame {
                            attach: f.attach,
                            tail: None,
                            open_at: before.saturating_sub(1),
                            seen: f.seen || f.tail.is_some(),
                            below: f.below - 1,
                        };
                    } else {
                        frames.pop();
                        if let Some(parent) = frames.last_mut() {
                            parent.seen |= f.seen || f.tail.is_some();
                        }
                    }
                    if !f.seen && f.tail.is_none() {
                        self.warn(f.open_at, codes::EMPTY_VARIATION, "empty game tree '()' skipped");
                    }
                    self.pos += 1;
                    open_node = None;
                    if frames.is_empty() {
                        break;
                    }
                    after_variation = true;
                }
                c if c.is_ascii_alphabetic() => {
                    let id = match open_node {
                        Some(id) => id,
                        None if tree.len() > self.last_node as usize => break,
                        None => {
                            self.warn(
                                self.pos,
                                codes::MISSING_SEMICOLON,
                                "properties without a node: a ';' is missing; a node was opened",
                            );
                            let id = self.new_node(&mut tree, &mut frames, &mut last_child);
                            tree.set_node_offset(self.pos);
                            after_variation = false;
                            open_node = Some(id);
                            id
                        }
                    };
                    let _ = id;
                    self.property(&mut tree, &mut unknown_keys);
                }
                _ => {
                    let start = self.pos;
                    // Skip to the next character that can continue the grammar.
                    let skip = self.bytes[start..]
                        .iter()
                        .position(|&b| matches!(b, b';' | b'(' | b')') || b.is_ascii_alphabetic())
                        .unwrap_or(self.bytes.len() - start);
                    let shown: String = self.text[start..start + skip].chars().take(16).collect();
                    self.error(start, codes::UNEXPECTED_CHAR, format!("unexpected {:?} skipped", shown));
                    self.pos = start + skip.max(1).min(self.bytes.len() - start);
                    while !self.text.is_char_boundary(self.pos) {
                        self.pos += 1;
                    }
                }
            }
        }
        if tree.is_empty() {
            self.scratch = Some(tree);
            return None;
        }
        tree.set_read_span(game_open, self.pos);
        tree.finish();
        if tree.prop_total() > SCRATCH_MAX_PROPS {
            // A large game keeps its own buffers (no second copy of them).
            tree.shrink();
            return Some(tree);
        }
        if self.bytes[self.pos..].iter().all(|&c| c.is_ascii_whitespace() || c < 0x20) {
            // The input's last game (a one-game file's only one) keeps the buffers it was read
            // in: reserved for this input (see `room_for`), they are not copied again.
            if tree.prop_total() > SCRATCH_RESERVE {
                tree.shrink();
            }
            return Some(tree);
        }
        let out = tree.take_exact();
        self.scratch = Some(tree);
        Some(out)
    }

    /// Fast path for the most common node content, a move written `B[pd]` / `W[pd]` right after
    /// the `;`: stores it without the general property machinery. Anything else is left to it.
    /// Returns whether it did.
    #[inline(always)]
    fn quick_move(&mut self, tree: &mut GameTree) -> bool {
        let i = self.pos;
        let Some((key, x, y)) = self.plain_move_at(i) else { return false };
        tree.push_move(key, x, y);
        tree.set_prop_offset(i);
        self.pos = i + 5;
        true
    }

    /// The key and the point of a move written `B[pd]` / `W[pd]` at `i` with one value (a second value,
    /// `B[pd][qq]`, goes the general way).
    #[inline(always)]
    fn plain_move_at(&self, i: usize) -> Option<(u16, u8, u8)> {
        let &[c, b'[', x, y, b']'] = self.bytes.get(i..i + 5)? else { return None };
        let plain = (c == b'B' || c == b'W') && x.is_ascii_lowercase() && y.is_ascii_lowercase();
        if !plain || self.bytes[i + 5..].trim_ascii_start().first() == Some(&b'[') {
            return None;
        }
        Some((if c == b'B' { self.key_b } else { self.key_w }, x, y))
    }

    /// After a node read by [`Reader::quick_move`], the nodes that follow it in the same
    /// sequence and are moves of the same form (`;B[pd]`, blanks before the `;`), each the first
    /// child of the one before, and a time left written right after each move (`BL[1795.4]`):
    /// read in one loop, as the general path would read them (positions too). Returns the last
    /// node added, if any.
    fn move_run(&mut self, tree: &mut GameTree) -> Option<u32> {
        let b = self.bytes;
        // ASCII whitespace and control characters.
        let blank = |c: u8| c <= b' ';
        let mut i = self.pos;
        let mut last = None;
        loop {
            // Time left written right after the move (`BL[1795.4]`), a plain number.
            if let Some(&[t @ (b'B' | b'W'), b'L', b'[']) = b.get(i..i + 3) {
                let value = &b[i + 3..b.len().min(i + 3 + 12)];
                let Some(k) = value.iter().position(|&c| !(c.is_ascii_digit() || c == b'.')) else { break };
                if k == 0 || value[k] != b']' || b[i + 4 + k..].trim_ascii_start().first() == Some(&b'[') {
                    break;
                }
                let key = if t == b'B' { self.key_bl } else { self.key_wl };
                tree.push_short(key, GameTree::src_loc(i + 3), k as u16);
                tree.set_prop_offset(i);
                i += 4 + k;
            }
            let mut j = i;
            while j < b.len() && blank(b[j]) {
                j += 1;
            }
            if b.get(j) != Some(&b';') {
                break;
            }
            let Some((key, x, y)) = self.plain_move_at(j + 1) else { break };
            last = Some(tree.push_move_node(key, x, y, j));
            i = j + 6;
        }
        self.pos = i;
        last
    }

    #[inline(always)]
    fn new_node(&mut self, tree: &mut GameTree, frames: &mut [Frame], last_child: &mut HashMap<u32, u32>) -> u32 {
        // Fast path: the next node of a sequence (the parent is the node just read).
        if let Some(top) = frames.last_mut() {
            if let Some(t) = top.tail {
                if t as usize + 1 == tree.len() {
                    let id = tree.push_first_child();
                    top.tail = Some(id);
                    return id;
                }
            }
        }
        self.new_node_general(tree, frames, last_child)
    }

    #[inline(never)]
    fn new_node_general(
        &mut self,
        tree: &mut GameTree,
        frames: &mut [Frame],
        last_child: &mut HashMap<u32, u32>,
    ) -> u32 {
        let top = frames.last_mut().expect("frames never empty here");
        let parent = top.tail.or(top.attach);
        let next_id = tree.len() as u32;
        // A second sequence at the root level of one tree ("((;a)(;b))") hangs from the root.
        let parent = if next_id > 0 { Some(parent.unwrap_or(0)) } else { parent };
        let id = match parent {
            None => tree.push_node(None, None),
            Some(p) if p + 1 == next_id => tree.push_node(Some(p), None),
            Some(p) => {
                let prev = last_child.get(&p).copied().unwrap_or(p + 1);
                let id = tree.push_node(Some(p), Some(prev));
                last_child.insert(p, id);
                id
            }
        };
        top.tail = Some(id);
        id
    }

    /// Reads `IDENT[value][value]…` at the current position into the last node.
    fn property(&mut self, tree: &mut GameTree, unknown_keys: &mut HashMap<&'s str, u32>) {
        let start = self.pos;
        let b = self.bytes;
        // Fast path: one or two upper-case letters (nearly every property in real files).
        let mut end = start;
        while end < b.len() && b[end].is_ascii_uppercase() {
            end += 1;
        }
        let (key, vt) = if end < b.len() && !b[end].is_ascii_alphabetic() && end - start <= 2 {
            self.pos = end;
            let known = props::slot(&b[start..end]).map(|s| self.table[s]).filter(|&k| k != u16::MAX);
            match known {
                Some(k) => (u32::from(k), Some(props::PROPS[k as usize].value)),
                None => (self.unknown_key(tree, unknown_keys, start, end), None),
            }
        } else {
            self.slow_ident(tree, unknown_keys, start)
        };
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'[') {
            let shown = self.text[start..self.pos].trim_end();
            self.error(start, codes::MISSING_VALUE, format!("property '{shown}' has no value; dropped"));
            return;
        }
        self.pos += 1;
        let value_at = self.pos;
        let first = self.value(tree, vt);
        if key == u32::from(self.key_ca) && tree.len() == 1 {
            self.note_root_ca(start, value_at);
        }
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'[') {
            tree.push_prop_single(key, first);
        } else {
            self.vals.clear();
            self.vals.push(first);
            while self.bytes.get(self.pos) == Some(&b'[') {
                self.pos += 1;
                let v = self.value(tree, vt);
                self.vals.push(v);
                self.skip_ws();
            }
            tree.push_prop(key, &self.vals);
        }
        tree.set_prop_offset(start);
    }

    /// Records the root `CA` whose first value starts at `value_at` (the value just read), as
    /// `declared.rs` takes it: the first such property with a label of 1 to 64 bytes, trimmed.
    #[cold]
    fn note_root_ca(&mut self, at: usize, value_at: usize) {
        let Some(roots) = &mut self.roots else { return };
        if self.root_found {
            return;
        }
        let raw = self.text.get(value_at..self.pos.saturating_sub(1)).unwrap_or_default();
        let label = raw.trim();
        if !label.is_empty() && label.len() <= 64 {
            self.root_found = true;
            roots.push(super::declared::RootCharset { game: self.game_open, at, label: label.to_string() });
        }
    }

    fn unknown_key(
        &mut self,
        tree: &mut GameTree,
        unknown_keys: &mut HashMap<&'s str, u32>,
        start: usize,
        end: usize,
    ) -> u32 {
        let ident = &self.text[start..end];
        match unknown_keys.get(ident) {
            Some(&k) => k,
            None => {
                let k = tree.key_for(ident);
                unknown_keys.insert(ident, k);
                k
            }
        }
    }

    /// Identifiers longer than two letters or with lower-case letters (FF\[1\]-FF\[3\]).
    fn slow_ident(
        &mut self,
        tree: &mut GameTree,
        unknown_keys: &mut HashMap<&'s str, u32>,
        start: usize,
    ) -> (u32, Option<ValueType>) {
        let (rest, raw) = ident(&self.bytes[start..]).unwrap_or((&self.bytes[start..], &[]));
        let end = start + raw.len();
        self.pos = self.bytes.len() - rest.len();
        let raw_ident = &self.text[start..end];
        if !raw.iter().any(u8::is_ascii_lowercase) {
            return (self.unknown_key(tree, unknown_keys, start, end), None);
        }
        let upper: String = raw_ident.chars().filter(char::is_ascii_uppercase).collect();
        let ident = if upper.is_empty() { raw_ident.to_ascii_uppercase() } else { upper };
        if !self.reported_old.iter().any(|r| r == raw_ident) {
            self.reported_old.push(raw_ident.to_string());
            let msg = format!("identifier '{raw_ident}' read as '{ident}' (FF[1]-FF[3] lower-case letters)");
            self.sink.push_at(start, Diagnostic::info(codes::OLD_IDENTIFIER, msg));
        }
        let key = tree.key_for(&ident);
        (key, props::lookup(&ident).map(|d| d.value))
    }

    /// Reads one value after its `[`; leaves the position after the closing `]`.
    #[inline(always)]
    fn value(&mut self, tree: &mut GameTree, vt: Option<ValueType>) -> crate::model::tree::Val {
        let start = self.pos;
        let b = self.bytes;
        // Fast path for short plain values (moves, points, numbers): scan a few bytes by hand.
        let plain = vt.is_some_and(|t| !t.is_composed() && !t.is_simple_text() && t != ValueType::Text);
        if let Some(k) = self.short_value(start, 8, |c| c == b'\\').filter(|&k| {
            plain && (k <= 2 || !b[start..start + k].iter().any(|c| matches!(c, b';' | b'(' | b')' | b'[')))
        }) {
            self.pos = start + k + 1;
            return GameTree::val(GameTree::src_loc(start), k as u32, None);
        }
        // Short composed values (points of a list, `aa:cc`, `19:19`, `AP[name:1.0]`): no escape,
        // no line end, nothing that could start a node or a value; split at their first `:`.
        if vt.is_some_and(ValueType::is_composed) {
            let stop = |c| matches!(c, b'\\' | b';' | b'(' | b')' | b'[' | b'\r' | b'\n');
            if let Some(k) = self.short_value(start, 16, stop) {
                self.pos = start + k + 1;
                let split = b[start..start + k].iter().position(|&c| c == b':');
                return GameTree::val(GameTree::src_loc(start), k as u32, split);
            }
        }
        // Short text (names, dates, results, short comments, unknown properties' values): no
        // escape, no line end, a `]` that ends it.
        if matches!(vt, None | Some(ValueType::SimpleText | ValueType::Text)) {
            let stop = |c| matches!(c, b'\\' | b'\r' | b'\n');
            if let Some(k) = self.short_value(start, 32, stop).filter(|&k| self.can_follow_value(start + k + 1)) {
                self.pos = start + k + 1;
                return GameTree::val(GameTree::src_loc(start), k as u32, None);
            }
        }
        self.value_slow(tree, vt, start)
    }

    /// The length of the value starting at `start` when a `]` within its first `window` bytes
    /// ends it, with no byte before it for which `stop` holds (the short values' fast paths).
    #[inline(always)]
    fn short_value(&self, start: usize, window: usize, stop: impl Fn(u8) -> bool) -> Option<usize> {
        let short = &self.bytes[start..(start + window).min(self.bytes.len())];
        let k = short.iter().position(|&c| c == b']' || stop(c))?;
        (short[k] == b']').then_some(k)
    }

    fn value_slow(&mut self, tree: &mut GameTree, vt: Option<ValueType>, start: usize) -> crate::model::tree::Val {
        let b = self.bytes;
        let textual = matches!(vt, None | Some(ValueType::Text | ValueType::SimpleText));
        let mut i = start;
        let mut has_escape = false;
        let end = loop {
            match memchr::memchr2(b']', b'\\', &b[i..]) {
                None => {
                    self.error(
                        start - 1,
                        codes::UNTERMINATED_VALUE,
                        "value not closed by ']' before the end of the input",
                    );
                    break b.len();
                }
                Some(k) => {
                    let at = i + k;
                    if b[at] == b'\\' {
                        has_escape = true;
                        i = at + 2;
                        if i > b.len() {
                            self.error(
                                start - 1,
                                codes::UNTERMINATED_VALUE,
                                "value not closed by ']' before the end of the input",
                            );
                            break b.len();
                        }
                        continue;
                    }
                    if textual && !self.can_follow_value(at + 1) {
                        self.error(
                            at,
                            codes::UNESCAPED_BRACKET,
                            "']' inside a text value is not escaped; kept as text",
                        );
                        i = at + 1;
                        continue;
                    }
                    break at;
                }
            }
        };
        self.pos = (end + 1).min(b.len());
        let end = match self.missing_close(start, end, vt) {
            Some(cut) => {
                self.pos = cut;
                cut
            }
            None => end,
        };
        let raw = &self.text[start..end];
        let simple = vt.is_some_and(ValueType::is_simple_text);
        let text_kind = matches!(vt, None | Some(ValueType::Text));
        let composed = vt.is_some_and(ValueType::is_composed);
        let needs_work = has_escape
            || (simple && memchr::memchr2(b'\r', b'\n', raw.as_bytes()).is_some())
            || (text_kind && memchr::memchr(b'\r', raw.as_bytes()).is_some());
        if !needs_work {
            let split = if composed { memchr::memchr(b':', raw.as_bytes()) } else { None };
            return GameTree::val(GameTree::src_loc(start), raw.len() as u32, split);
        }
        if !simple && memchr::memchr(b'\r', raw.as_bytes()).is_some() {
            self.count_lone_cr(start, end);
        }
        // Line ends inside a value that holds no text stay as they are, escaped or not.
        let (loc, len, split) = tree.own_with(|own| unescape_into(raw, simple, composed, !(simple || text_kind), own));
        GameTree::val(loc, len, split)
    }

    /// Counts the lone CRs (not part of CRLF or LFCR, not escaped) of the text value at
    /// `start..end`: each becomes LF in the model (SGF's rule for line ends), reported once per
    /// input by [`Reader::report_lone_cr`].
    fn count_lone_cr(&mut self, start: usize, end: usize) {
        let b = self.bytes;
        for at in memchr::memchr_iter(b'\r', &b[start..end]).map(|k| start + k) {
            let before = if at > start { b[at - 1] } else { 0 };
            if b.get(at + 1) != Some(&b'\n') && before != b'\n' && before != b'\\' {
                self.lone_cr.get_or_insert((at, 0)).1 += 1;
            }
        }
    }

    /// One note for the lone CRs read as LF (a writer gives them back as LF).
    fn report_lone_cr(&mut self) {
        if let Some((at, n)) = self.lone_cr {
            let msg = format!(
                "{n} lone CR line end(s) in text values read as line breaks (LF), as SGF reads every line end; written back as LF"
            );
            self.sink.push_at(at, Diagnostic::info(codes::LONE_CR, msg));
        }
    }

    /// A value of a type that never holds `;`, `(` or `)` (points, numbers, colours, sizes) that
    /// runs from `start` to the `]` at `end` over a node boundary: `B[pd;W[dp]` lost its `]`
    /// before `;W[dp]`. Returns where the value must end (the `;`, `(` or `)`), with an
    /// `sgf.missing-bracket` error there, so the next node is not swallowed (SGFC recovers the
    /// same way).
    fn missing_close(&mut self, start: usize, end: usize, vt: Option<ValueType>) -> Option<usize> {
        if !vt.is_some_and(ValueType::holds_no_text) || end <= start {
            return None;
        }
        let raw = &self.bytes[start..end];
        // An escape means the value was written that way on purpose (the SGF writer escapes
        // these characters in such values).
        if raw.contains(&b'\\') {
            return None;
        }
        // `GM[1SZ[19]`: an upper-case identifier and `[` after a plausible value (a number or a
        // point) is the next property. (`FF[CAB[4]` has no such value before it and stays.)
        let ident = memchr::memchr(b'[', raw).and_then(|open| {
            let n = raw[..open].iter().rev().take_while(|c| c.is_ascii_uppercase()).count();
            let before = &raw[..open - n];
            let number = !before.is_empty() && before.iter().all(|c| c.is_ascii_digit() || b".+-".contains(c));
            let point = before.len() == 2 && before.iter().all(u8::is_ascii_lowercase);
            (n > 0 && (number || point)).then(|| open - n)
        });
        let node = memchr::memchr3(b';', b'(', b')', raw);
        let at = match (ident, node) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        let after = raw[at + 1..].trim_ascii_start();
        let boundary = match raw[at] {
            c if c.is_ascii_uppercase() => true,
            // `;` and then a property: the next node.
            b';' => {
                let n = after.iter().take_while(|c| c.is_ascii_alphabetic()).count();
                n > 0 && after[n..].trim_ascii_start().first() == Some(&b'[')
            }
            b'(' => after.first() == Some(&b';'),
            _ => true,
        };
        if !boundary {
            return None;
        }
        let cut = start + at;
        let shown = String::from_utf8_lossy(&raw[..at]);
        let msg = format!("value '{shown}' is not closed by ']' before '{}'; closed there", &self.text[cut..end]);
        self.error(cut, codes::MISSING_BRACKET, msg);
        Some(cut)
    }

    /// Whether the text at `at` (just after a `]`) can follow the end of a value
    /// ([`super::declared::can_follow_value`]).
    fn can_follow_value(&self, at: usize) -> bool {
        super::declared::can_follow_value(&self.bytes[at.min(self.bytes.len())..])
    }
}

/// Unescapes a raw value: `\` + newline disappears (soft break); `\` + any character gives
/// that character; SimpleText newlines become spaces; Text line ends become `\n`. For composed
/// types, returns the byte index of the first unescaped `:`. Copies runs of plain text whole.
#[cfg(test)]
fn unescape(raw: &str, simple: bool, composed: bool) -> (String, Option<usize>) {
    unescape_with(raw, simple, composed, false)
}

/// [`unescape`], keeping unescaped line ends as they are when `keep_breaks`.
#[cfg(test)]
fn unescape_with(raw: &str, simple: bool, composed: bool, keep_breaks: bool) -> (String, Option<usize>) {
    let mut out = String::with_capacity(raw.len());
    let split = unescape_into(raw, simple, composed, keep_breaks, &mut out);
    (out, split)
}

/// [`unescape_with`] appending to `out`; the split is counted from where the value starts in it.
fn unescape_into(raw: &str, simple: bool, composed: bool, keep_breaks: bool, out: &mut String) -> Option<usize> {
    let b = raw.as_bytes();
    let base = out.len();
    let mut split = None;
    let mut run = 0; // start of the plain run not yet copied
    let mut i = 0;
    let is_special = |c: u8| c == b'\\' || (!keep_breaks && (c == b'\r' || c == b'\n')) || c == b':';
    while i < b.len() {
        // The next special byte (`:` matters only in composed values; elsewhere it is copied).
        let next = if composed {
            b[i..].iter().position(|&c| is_special(c))
        } else if keep_breaks {
            memchr::memchr(b'\\', &b[i..])
        } else {
            memchr::memchr3(b'\\', b'\r', b'\n', &b[i..])
        };
        let Some(k) = next else { break };
        i += k;
        let c = b[i];
        out.push_str(&raw[run..i]);
        match c {
            b'\\' => {
                i += 1;
                match b.get(i) {
                    None => {}
                    Some(&nl @ (b'\r' | b'\n')) => {
                        let other = if nl == b'\r' { b'\n' } else { b'\r' };
                        i += 1;
                        if b.get(i) == Some(&other) {
                            i += 1;
                        }
                        run = i;
                        continue;
                    }
                    Some(_) => {
                        // Keep the escaped character (which may be multi-byte) as the next run.
                        run = i;
                        i += raw[i..].chars().next().map_or(1, char::len_utf8);
                        out.push_str(&raw[run..i]);
                        run = i;
                        continue;
                    }
                }
            }
            b'\r' | b'\n' => {
                let other = if c == b'\r' { b'\n' } else { b'\r' };
                i += 1;
                if b.get(i) == Some(&other) {
                    i += 1;
                }
                out.push(if simple { ' ' } else { '\n' });
                run = i;
                continue;
            }
            _ => {
                // ':'
                if composed && split.is_none() {
                    split = Some(out.len() - base);
                }
                out.push(':');
            }
        }
        i += 1;
        run = i;
    }
    out.push_str(&raw[run.min(b.len())..]);
    split
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default size from which a text is read in pieces.
    #[cfg(feature = "parallel")]
    const PIECES: usize = 8 << 20;

    #[test]
    fn unescape_rules() {
        assert_eq!(unescape(r"a\]b\\c", false, false), ("a]b\\c".into(), None));
        assert_eq!(unescape("soft\\\nbreak", false, false).0, "softbreak");
        assert_eq!(unescape("soft\\\r\nbreak", true, false).0, "softbreak");
        assert_eq!(unescape("two\r\nlines", false, false).0, "two\nlines");
        assert_eq!(unescape("two\r\nlines", true, false).0, "two lines");
        assert_eq!(unescape(r"aa:b\:c", false, true), ("aa:b:c".into(), Some(2)));
        assert_eq!(unescape(r"a\:b:c", false, true), ("a:b:c".into(), Some(3)));
        assert_eq!(unescape("\\龍\\", false, false), ("龍".into(), None));
        assert_eq!(unescape("end\\", false, false), ("end".into(), None));
        assert_eq!(unescape("a\n\rb\r", false, false), ("a\nb\n".into(), None));
    }

    #[test]
    fn collections_are_cut_where_the_declared_charset_changes() {
        let b = b"(;CA[GB2312]C[a])(;CA[gbk]C[b])\n(;CA[UTF-8]C[c])(;CA[x-unknown])(;CA[Shift_JIS]C[d])";
        let parts = charset_parts(b);
        let starts: Vec<usize> = parts.iter().map(|p| p.0).collect();
        assert_eq!(starts, [0, 32, 64]);
        assert_eq!(parts[2].1, "Shift_JIS");
        assert_eq!(charset_parts(b"(;CA[UTF-8]C[x]CA[utf8])").len(), 1);
        assert!(charset_parts(b"(;C[x])").is_empty());
    }

    /// `text` read node by node, without [`Reader::move_run`]: the games (positions recorded)
    /// and the diagnostics.
    fn parse_general(text: &str) -> (Vec<GameTree>, Vec<Diagnostic>) {
        let src = Arc::new(text.to_string());
        let mut r = Reader::new(text, Arc::clone(&src), Sink::new(), true, false);
        r.move_runs = false;
        let games = r.collection();
        r.report_lone_cr();
        (games, r.sink.finish(text))
    }

    /// The node and property offsets of `games`, in order.
    fn offsets(games: &[GameTree]) -> Vec<Option<usize>> {
        let mut out = Vec::new();
        for g in games {
            for n in g.nodes() {
                out.push(g.node_offset(n.id()));
                out.extend(n.props().map(|p| p.offset()));
            }
        }
        out
    }

    /// `text` reads the same with and without [`Reader::move_run`], offsets included.
    fn runs_agree(text: &str) -> bool {
        let (fast, d1) = parse_text(text.to_string(), Sink::new(), true);
        let (general, d2) = parse_general(text);
        fast.games == general && d1 == d2 && offsets(&fast.games) == offsets(&general)
    }

    #[test]
    fn runs_of_moves_read_as_the_general_path_reads_them() {
        let texts = [
            "(;GM[1];B[pd];W[dp]\n;B[pq] ;W[dd](;B[qq];W[cc])(;B[aa]C[x];W[bb]))",
            "(;B[pd];W[dp][dq];B[qq]\x01;W[cc];B[pd]C[a];W[ZZ];B[a];W[ab])",
            "(;B[pd];W[dp];B[pq];W[dd]",
            "(;B[pd];W[dp]);B[qq])(;B[aa];W[bb] (;B[cc]) ;W[dd])",
            "(;B[pd]BL[1795.4];W[dp]WL[12]WL[3];B[aa]BL[1][2];W[bb]BL[];B[cc]WL[1.5]\n;W[dd]BL[x];B[ee]BL[9)",
        ];
        for text in texts {
            assert!(runs_agree(text), "{text}");
        }
        let (c, _) = parse_text("(;B[pd];W[dp]\n;B[pq])".to_string(), Sink::new(), false);
        let moves: Vec<&str> = c.games[0].nodes().filter_map(|n| n.props().next().map(|p| p.ident())).collect();
        assert_eq!(moves, ["B", "W", "B"]);
        assert_eq!(c.games[0].nodes().last().and_then(|n| n.value("B")), Some("pq"));
    }

    #[test]
    fn runs_of_moves_read_as_the_general_path_reads_them_in_every_shared_file() {
        crate::shared_files::each_shared_sgf(|path, bytes| {
            assert!(runs_agree(&String::from_utf8_lossy(&bytes)), "{}", path.display());
        });
    }

    /// Every game of `text` read without positions reads again, alone, as the whole text read
    /// with positions gives it (offsets included); pieces too.
    fn read_again_agrees(text: &str) {
        let (with, _) = parse_text(text.to_string(), Sink::new(), true);
        let (without, _) = parse_text(text.to_string(), Sink::new(), false);
        assert_eq!(with.games.len(), without.games.len(), "{text}");
        for (w, g) in with.games.iter().zip(&without.games) {
            let again = read_game_again(g).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(&again, w, "{text}");
            let all = offsets(std::slice::from_ref(w));
            assert_eq!(offsets(std::slice::from_ref(&again)), all, "{text}");
            // Up to a node: the offsets of the nodes up to it.
            for last in [0, g.len() / 2, g.len() - 1] {
                let head = read_game_head_again(g, crate::model::NodeId::from_index(last));
                let head = head.unwrap_or_else(|| panic!("{last} {text}"));
                let n = offsets(std::slice::from_ref(&head)).len();
                assert_eq!(offsets(std::slice::from_ref(&head)), all[..n], "{last} {text}");
                assert_eq!(head.len(), last + 1, "{text}");
            }
        }
        let src = Arc::new(text.to_string());
        if let Some((games, _)) = parse_pieces(text, &src, false, false, 0) {
            for (g, w) in games.iter().zip(&with.games) {
                assert_eq!(read_game_again(g).as_ref(), Some(w), "{text}");
            }
        }
    }

    #[test]
    fn a_game_reads_again_alone_as_in_its_text() {
        let texts = [
            "(;GM[1];B[pd];W[dp]\n;B[pq] ;W[dd](;B[qq];W[cc])(;B[aa]C[x];W[bb]))(;B[aa])",
            "junk (;C[a\\]b]PB[x) (;B[pd]) ;W[dd]",
            ";B[pd];W[dp] (;C[second])",
            "(;B[pd];W[dp]);B[qq])(;B[aa];W[bb] (;B[cc]) ;W[dd])",
            "((;B[aa]))(()(;C[x]))((;B[bb])(;B[cc]))",
            "(;C[lone\rcr]B[pd]BL[1795.4];W[dp]WL[12]WL[3];B[aa]BL[1][2])(;B[cc]WL[1.5]\n;W[dd]BL[x];B[ee]BL[9)",
            "(;FF[3]SiZe[9]AB[aa:cc]XX[1]YY[2](;B[pd];W[dp]",
        ];
        for text in texts {
            read_again_agrees(text);
        }
        // Not read from a text, or edited since: not read again.
        let (c, _) = parse_text("(;B[pd])(;B[dd])".to_string(), Sink::new(), false);
        let mut edited = c.games[1].clone();
        edited.set_prop(crate::model::NodeId::ROOT, "C", ["x"]);
        assert!(read_game_again(&edited).is_none());
        assert!(read_game_head_again(&edited, crate::model::NodeId::ROOT).is_none());
        assert!(read_game_again(&GameTree::new()).is_none());
    }

    #[test]
    fn every_game_of_the_shared_files_reads_again_alone() {
        crate::shared_files::each_shared_sgf(|_, bytes| read_again_agrees(&String::from_utf8_lossy(&bytes)));
    }

    /// Pieces read in parallel give the whole text's games and roots, or nothing.
    #[cfg(feature = "parallel")]
    fn pieces_agree(text: &str) -> bool {
        let src = Arc::new(text.to_string());
        let pieces = parse_pieces(text, &src, false, true, 0);
        let whole = parse_text_with(text.to_string(), Sink::new(), false, true, PIECES);
        match pieces {
            Some((games, roots)) => {
                assert!(whole.diagnostics.is_empty(), "{text}");
                assert_eq!(games, whole.collection.games, "{text}");
                let at = |r: &[super::super::declared::RootCharset]| -> Vec<(usize, usize, String)> {
                    r.iter().map(|r| (r.game, r.at, r.label.clone())).collect()
                };
                assert_eq!(at(&roots), at(&whole.roots), "{text}");
                true
            }
            None => false,
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn pieces_read_in_parallel_are_the_whole_texts_games() {
        if rayon::current_num_threads() < 2 {
            eprintln!("one thread: pieces are not read in parallel");
            return;
        }
        let game = "(;GM[1]CA[UTF-8]SZ[19]\n;B[pd];W[dp]BL[12.5];B[pp]C[a (;B[aa]) b]\n;W[dd])\n";
        let branchy = "(;GM[1]\n(;B[pd];W[dd])\n(;B[dd]\n(;W[pp])(;W[qq])))\n";
        let clean = game.replace(" (;B[aa])", "").repeat(40);
        assert!(pieces_agree(&clean), "a clean collection is read in pieces");
        for text in [
            game.repeat(40),
            branchy.repeat(40),
            format!("{clean}{}", branchy.repeat(40)),
            format!("{clean}(;B[pd]"),
            format!("x{clean}"),
        ] {
            pieces_agree(&text);
        }
        crate::shared_files::each_shared_sgf(|_, bytes| {
            pieces_agree(&String::from_utf8_lossy(&bytes));
        });
    }

    #[test]
    fn declared_charset_found_on_raw_bytes() {
        assert_eq!(find_declared_charset(b"(;FF[4]CA[ GB2312 ]PB[x])").as_deref(), Some("GB2312"));
        assert_eq!(find_declared_charset(b"(;XCA[no]PB[x])"), None);
        assert_eq!(find_declared_charset(b"(;PB[x])"), None);
    }
}
