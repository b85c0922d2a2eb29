//! The game tree: a compact arena of nodes in pre-order, properties in document order, and values
//! as ranges into one text buffer.
//!
//! Layout (see [`formats/sgf.md`](crate::spec::sgf), "Model"): nodes are stored in pre-order, so a node's first child
//! is the next node and the main line is contiguous. Only nodes that are not their parent's first
//! child are listed in a side table, as are next-sibling links. Properties of node `i` are
//! `slots[starts[i]..starts[i + 1]]`, in 16-bit slots: a move on a point (`B[pd]`, most of a
//! game) takes one slot, any other property four (key, length, location); a property with one
//! short plain value keeps that value's range inline. Values that needed no unescaping point into
//! the shared source text; the others live in the tree's own buffer. Nothing here recurses.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::point::{BoardSize, Color, Move, Point};
use super::props::{self, PROPS, PropDef};
use super::starts::Starts;

/// Bit set on a text location that lies in the tree's own buffer rather than the source.
const OWN: u32 = 1 << 31;
/// `Prop::len` value meaning "values are in the `values` table".
const MULTI: u16 = u16::MAX;
/// `Prop::len` value meaning "the value is the two letters `PAIRS[2 * loc..2 * loc + 2]`".
const PAIR: u16 = u16::MAX - 1;
/// Bit set on a property key that indexes the tree's unknown identifiers.
const UNKNOWN: u16 = 1 << 14;
/// The slot key of every unknown identifier from the [`EXT_FROM`]th on: such a property is
/// always stored with its values in the `values` table, whose first record (the count) holds
/// the identifier's index in its `len`. So a tree holds any number of distinct identifiers.
const EXT: u16 = UNKNOWN | (UNKNOWN - 1);
/// The full key (see [`GameTree::key_for`]) from which the slot key is [`EXT`].
const EXT_FROM: u32 = EXT as u32;
/// Unknown identifiers a tree looks up by comparing each in turn; past this many it keeps a hash
/// map beside the list (built once, when the list grows past it).
const INDEX_FROM: usize = 16;
/// A slot with this bit holds a whole move on a point: the colour ([`MOVE_W`]) and the point's
/// letters as `26 * (x - 'a') + (y - 'a')` in the low 10 bits. Any other property takes
/// [`WIDE`] slots: key (this bit clear), length, location (low half, high half).
const MOVE_SLOT: u16 = 1 << 15;
/// The colour bit of a move slot (set: `W`).
const MOVE_W: u16 = 1 << 10;
/// Slots of a property that is not a move slot.
const WIDE: usize = 4;
/// The table keys of `B` and `W` (checked in a test; a move slot's colour bit is `key == KEY_W`).
#[cfg(test)]
const KEY_B: u16 = 0;
const KEY_W: u16 = 1;
/// Every two-letter lower-case point, in move-slot order: the text of a move slot's value.
static PAIRS: &str = concat!(
    "aaabacadaeafagahaiajakalamanaoapaqarasatauavawaxayaz",
    "babbbcbdbebfbgbhbibjbkblbmbnbobpbqbrbsbtbubvbwbxbybz",
    "cacbcccdcecfcgchcicjckclcmcncocpcqcrcsctcucvcwcxcycz",
    "dadbdcdddedfdgdhdidjdkdldmdndodpdqdrdsdtdudvdwdxdydz",
    "eaebecedeeefegeheiejekelemeneoepeqereseteuevewexeyez",
    "fafbfcfdfefffgfhfifjfkflfmfnfofpfqfrfsftfufvfwfxfyfz",
    "gagbgcgdgegfggghgigjgkglgmgngogpgqgrgsgtgugvgwgxgygz",
    "hahbhchdhehfhghhhihjhkhlhmhnhohphqhrhshthuhvhwhxhyhz",
    "iaibicidieifigihiiijikiliminioipiqirisitiuiviwixiyiz",
    "jajbjcjdjejfjgjhjijjjkjljmjnjojpjqjrjsjtjujvjwjxjyjz",
    "kakbkckdkekfkgkhkikjkkklkmknkokpkqkrksktkukvkwkxkykz",
    "lalblcldlelflglhliljlklllmlnlolplqlrlsltlulvlwlxlylz",
    "mambmcmdmemfmgmhmimjmkmlmmmnmompmqmrmsmtmumvmwmxmymz",
    "nanbncndnenfngnhninjnknlnmnnnonpnqnrnsntnunvnwnxnynz",
    "oaobocodoeofogohoiojokolomonooopoqorosotouovowoxoyoz",
    "papbpcpdpepfpgphpipjpkplpmpnpopppqprpsptpupvpwpxpypz",
    "qaqbqcqdqeqfqgqhqiqjqkqlqmqnqoqpqqqrqsqtquqvqwqxqyqz",
    "rarbrcrdrerfrgrhrirjrkrlrmrnrorprqrrrsrtrurvrwrxryrz",
    "sasbscsdsesfsgshsisjskslsmsnsospsqsrssstsusvswsxsysz",
    "tatbtctdtetftgthtitjtktltmtntotptqtrtstttutvtwtxtytz",
    "uaubucudueufuguhuiujukulumunuoupuqurusutuuuvuwuxuyuz",
    "vavbvcvdvevfvgvhvivjvkvlvmvnvovpvqvrvsvtvuvvvwvxvyvz",
    "wawbwcwdwewfwgwhwiwjwkwlwmwnwowpwqwrwswtwuwvwwwxwywz",
    "xaxbxcxdxexfxgxhxixjxkxlxmxnxoxpxqxrxsxtxuxvxwxxxyxz",
    "yaybycydyeyfygyhyiyjykylymynyoypyqyrysytyuyvywyxyyyz",
    "zazbzczdzezfzgzhzizjzkzlzmznzozpzqzrzsztzuzvzwzxzyzz"
);

/// The slots a property takes, from its first slot.
#[inline(always)]
fn width(first: u16) -> usize {
    if first & MOVE_SLOT != 0 { 1 } else { WIDE }
}

/// The move slot for `key` with value `v`, when it is `B` or `W` and `v` two lower-case letters.
#[inline(always)]
fn move_slot(key: u16, v: &[u8]) -> Option<u16> {
    let &[x, y] = v else { return None };
    (key <= KEY_W && x.is_ascii_lowercase() && y.is_ascii_lowercase()).then(|| move_bits(key, x, y))
}

/// The move slot of `key` (`B` or `W`) on the point of lower-case letters `x` `y`.
#[inline(always)]
fn move_bits(key: u16, x: u8, y: u8) -> u16 {
    let colour = if key == KEY_W { MOVE_W } else { 0 };
    MOVE_SLOT | colour | (u16::from(x.wrapping_sub(b'a')) * 26 + u16::from(y.wrapping_sub(b'a')))
}

/// The property whose slots start `slots`, and how many slots it takes; `None` at the end.
#[inline(always)]
fn decode(slots: &[u16]) -> Option<(Prop, usize)> {
    match *slots {
        [first, ..] if first & MOVE_SLOT != 0 => {
            Some((Prop { loc: u32::from(first & (MOVE_W - 1)), len: PAIR, key: u16::from(first & MOVE_W != 0) }, 1))
        }
        [key, len, lo, hi, ..] => Some((Prop { loc: u32::from(lo) | (u32::from(hi) << 16), len, key }, WIDE)),
        _ => None,
    }
}
/// `Val::split` value meaning "not composed".
const NO_SPLIT: u32 = u32::MAX;

/// The largest text buffer a tree can address (2 GiB).
pub(crate) const MAX_TEXT: usize = OWN as usize - 1;

/// Identifies a node within its [`GameTree`]. The root is always node 0; ids follow pre-order.
///
/// ```
/// use kifu::model::NodeId;
/// let game = kifu::read(&b"(;GM[1];B[pd];W[dp])"[..]).unwrap().collection.games.remove(0);
/// let last = NodeId::from_index(2);
/// assert_eq!(game.node(last).value("W"), Some("dp"));
/// assert_eq!(game.parent(last), Some(NodeId::from_index(1)));
/// assert_eq!(game.parent(NodeId::ROOT), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The root node of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The node at pre-order index `index` (whether it exists is checked when it is used).
    pub fn from_index(index: usize) -> NodeId {
        NodeId(u32::try_from(index).unwrap_or(u32::MAX))
    }

    /// The pre-order index of the node.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, Debug)]
struct Prop {
    loc: u32,
    len: u16,
    key: u16,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Val {
    loc: u32,
    len: u32,
    split: u32,
}

/// One game: a tree of nodes, each holding ordered properties with decoded, unescaped values.
///
/// ```
/// use kifu::model::Color;
/// let mut game = kifu::read(&b"(;GM[1]SZ[9]PB[Shusaku];B[ee];W[cc])"[..]).unwrap().collection.games.remove(0);
/// assert_eq!(game.board_size().width, 9);
/// assert_eq!(game.main_line_moves(), 2);
/// game.set_player(Color::White, "Gennan Inseki");
/// assert_eq!(game.info().white.as_deref(), Some("Gennan Inseki"));
/// ```
#[derive(Clone)]
pub struct GameTree {
    src: Arc<String>,
    own: String,
    node_props: Starts,
    /// (node, parent) for every node that is not its parent's first child; sorted by node.
    later: Vec<(u32, u32)>,
    /// (node, next sibling); sorted by node once the tree is complete.
    next: Vec<(u32, u32)>,
    next_sorted: bool,
    /// The properties of every node in order, as 16-bit slots (see [`MOVE_SLOT`]).
    slots: Vec<u16>,
    /// How many properties the slots hold.
    n_props: usize,
    /// The first slot of the property pushed last (while reading).
    last_pushed: u32,
    values: Vec<Val>,
    /// The identifiers not in the property table, in the order first met: unknown identifier
    /// `i` has the full key `UNKNOWN + i`.
    unknown: Vec<Box<str>>,
    /// Each unknown identifier's index, once there are more than [`INDEX_FROM`].
    unknown_index: Option<HashMap<Box<str>, u32>>,
    /// Byte offsets into the source text, recorded only when a reader was asked for them.
    positions: Option<Box<Positions>>,
    /// Where in the source text the reader found this game: from its `(` to after its `)`
    /// ([`NO_OFFSET`] when it was not read from one). The game can be read again there, with
    /// positions.
    read_span: [u32; 2],
}

/// Where nodes and properties start in the source text.
#[derive(Clone, Debug, Default)]
struct Positions {
    nodes: Vec<u32>,
    props: Vec<u32>,
}

/// Offset recorded for a node or property that has no place in the source.
const NO_OFFSET: u32 = u32::MAX;

impl Positions {
    /// Sets entry `at` of `offsets` (nodes or slots) to `offset` and drops any after it; the
    /// entries before it not set yet hold [`NO_OFFSET`] (the other slots of a property, most
    /// often: one is set by the reader, the next `at` is then [`WIDE`] after it).
    #[inline(always)]
    fn record(offsets: &mut Vec<u32>, at: usize, offset: usize) {
        let len = offsets.len();
        if len + WIDE - 1 == at {
            offsets.extend_from_slice(&[NO_OFFSET; WIDE - 1]);
        } else if len != at {
            offsets.resize(at, NO_OFFSET);
        }
        offsets.push(offset as u32);
    }
}

/// A value handed to the tree: text, and for a composed value the byte index of the `:` that
/// separates its two parts.
///
/// ```
/// use kifu::model::{PropValue, TreeBuilder};
/// let mut b = TreeBuilder::new();
/// b.add_prop(b.root(), "LB", [PropValue::composed("dd", "A"), PropValue::composed("pp", "B")]);
/// b.add_prop(b.root(), "C", ["a comment"]); // a &str converts into a PropValue
/// let game = b.build();
/// assert_eq!(game.root().get("LB").unwrap().labels().unwrap().len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropValue {
    /// The whole decoded value; for a composed value, both parts joined by `:`.
    pub text: String,
    /// For a composed value, the byte index of the separating `:` in `text`.
    pub split: Option<usize>,
}

impl PropValue {
    /// A plain value.
    pub fn new(text: impl Into<String>) -> Self {
        PropValue { text: text.into(), split: None }
    }

    /// A composed value `first:second`.
    pub fn composed(first: &str, second: &str) -> Self {
        PropValue { text: format!("{first}:{second}"), split: Some(first.len()) }
    }
}

/// A borrowed value for [`GameTree::push_prop_parts`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum NewValue<'a> {
    /// Plain text.
    Plain(&'a str),
    /// The text `first:second`: a composed value (`true`, as [`PropValue::composed`]) or plain.
    Pair(&'a str, &'a str, bool),
}

impl<T: Into<String>> From<T> for PropValue {
    fn from(t: T) -> Self {
        PropValue::new(t)
    }
}

impl From<&PropValue> for PropValue {
    fn from(v: &PropValue) -> Self {
        v.clone()
    }
}

impl From<Value<'_>> for PropValue {
    /// An owned copy of a value, composed parts kept.
    fn from(v: Value<'_>) -> Self {
        v.to_owned_value()
    }
}

impl Default for GameTree {
    fn default() -> Self {
        GameTree::new()
    }
}

impl GameTree {
    /// A tree with an empty root node.
    pub fn new() -> GameTree {
        let mut t = GameTree::with_source(Arc::new(String::new()));
        t.push_node(None, None);
        t.finish();
        t
    }

    /// An empty tree (no nodes yet) whose borrowed values refer to `src`.
    pub(crate) fn with_source(src: Arc<String>) -> GameTree {
        GameTree {
            src,
            own: String::new(),
            node_props: Starts::new(),
            later: Vec::new(),
            next: Vec::new(),
            next_sorted: true,
            slots: Vec::new(),
            n_props: 0,
            last_pushed: 0,
            values: Vec::new(),
            unknown: Vec::new(),
            unknown_index: None,
            positions: None,
            read_span: [NO_OFFSET; 2],
        }
    }

    /// Start recording source offsets for nodes and properties pushed from now on.
    pub(crate) fn record_positions(&mut self) {
        // As much room as the tree reserved for its nodes and property slots.
        let (nodes, props) = (self.node_props.capacity(), self.slots.capacity());
        self.positions =
            Some(Box::new(Positions { nodes: Vec::with_capacity(nodes), props: Vec::with_capacity(props) }));
    }

    /// Record where in the source text the reader found this game (`start..end`).
    pub(crate) fn set_read_span(&mut self, start: usize, end: usize) {
        let at = |o: usize| u32::try_from(o).unwrap_or(NO_OFFSET);
        self.read_span = [at(start), at(end)];
    }

    /// Where in [`GameTree::source`] the reader found this game (from its `(` to after its
    /// `)`), if it was read from one.
    pub(crate) fn read_span(&self) -> Option<std::ops::Range<usize>> {
        let [start, end] = self.read_span;
        let known = start != NO_OFFSET && end != NO_OFFSET && start <= end && end as usize <= self.src.len();
        (known && !self.src.is_empty()).then_some(start as usize..end as usize)
    }

    /// Record the source offset of the node just pushed.
    #[inline(always)]
    pub(crate) fn set_node_offset(&mut self, offset: usize) {
        if let Some(p) = &mut self.positions {
            Positions::record(&mut p.nodes, self.node_props.len() - 2, offset);
        }
    }

    /// Record the source offset of the property just pushed.
    #[inline(always)]
    pub(crate) fn set_prop_offset(&mut self, offset: usize) {
        if let Some(p) = &mut self.positions {
            // Offsets are kept by a property's first slot.
            Positions::record(&mut p.props, self.last_pushed as usize, offset);
        }
    }

    /// The text the recorded offsets refer to (the decoded input for trees read from SGF;
    /// empty for trees built otherwise).
    pub fn source(&self) -> &str {
        &self.src
    }

    /// The shared source text.
    pub(crate) fn source_arc(&self) -> Arc<String> {
        Arc::clone(&self.src)
    }

    /// Calls `f` with every node but those below the root that hold one move on a point
    /// (`B[pd]`) first and at most two more properties, of different keys, each with one value
    /// for which `plain(key, value)` holds: read from the slots alone (the normaliser's first
    /// look at a game, where most nodes are such moves).
    pub(crate) fn each_beyond_plain_moves(&self, plain: impl Fn(u16, &str) -> bool, mut f: impl FnMut(NodeId)) {
        // `run`: the nodes after those of `starts` hold one slot each (a move), the first of
        // them starting at the last entry of `starts` (see `Starts::Linear`).
        fn walk<T: Copy + Into<u32>>(
            tree: &GameTree,
            starts: &[T],
            run: usize,
            plain: &impl Fn(u16, &str) -> bool,
            f: &mut impl FnMut(NodeId),
        ) {
            let slots = &tree.slots[..];
            let nodes = starts.len().saturating_sub(1);
            // Nodes of one slot (a move) below the root are skipped: only the root may be called.
            if run > 0 && nodes == 0 {
                f(NodeId(0));
            }
            let mut i = 0;
            while i < nodes {
                // A run of nodes of one slot each (a slot alone is a move: any other property
                // takes `WIDE`), told a block at a time: most of a game.
                const BLOCK: usize = 16;
                if i > 0 && i + BLOCK <= nodes {
                    let w = &starts[i..=i + BLOCK];
                    let mut one_each = true;
                    for k in 0..BLOCK {
                        one_each &= w[k + 1].into().wrapping_sub(w[k].into()) == 1;
                    }
                    if one_each {
                        i += BLOCK;
                        continue;
                    }
                }
                let (s, e) = (starts[i].into() as usize, starts[i + 1].into() as usize);
                // The key of the property of `WIDE` slots at `at` when it has one value for which
                // `plain` holds.
                let plain_at = |at: usize| {
                    (slots[at] & MOVE_SLOT == 0)
                        .then(|| tree.prop_at(at))
                        .filter(|p| p.len < PAIR && plain(p.key, tree.text(p.loc, u32::from(p.len))))
                        .map(|p| p.key)
                };
                let skip = i > 0
                    && slots.get(s).is_some_and(|&m| m & MOVE_SLOT != 0)
                    && (e == s + 1
                        || (e == s + 1 + WIDE && plain_at(s + 1).is_some())
                        || (e == s + 1 + 2 * WIDE && {
                            let (a, b) = (plain_at(s + 1), plain_at(s + 1 + WIDE));
                            a.is_some() && b.is_some() && a != b
                        }));
                if !skip {
                    f(NodeId(i as u32));
                }
                i += 1;
            }
        }
        match &self.node_props {
            Starts::Narrow(v) => walk(self, v, 0, &plain, &mut f),
            Starts::Wide(v) => walk(self, v, 0, &plain, &mut f),
            Starts::Linear(v, run) => walk(self, v, *run as usize, &plain, &mut f),
        }
    }

    /// The property whose first slot is `i`, decoded.
    #[inline(always)]
    fn prop_at(&self, i: usize) -> Prop {
        decode(&self.slots[i..]).expect("a property's first slot").0
    }

    /// The text of a property stored with one value (`len` not [`MULTI`]).
    #[inline(always)]
    fn single_text(&self, p: Prop) -> &str {
        if p.len == PAIR {
            let at = 2 * p.loc as usize;
            &PAIRS[at..at + 2]
        } else {
            self.text(p.loc, u32::from(p.len))
        }
    }

    /// The slots of `p`.
    #[inline(always)]
    fn encode(p: Prop) -> ([u16; WIDE], usize) {
        if p.len == PAIR {
            let colour = if p.key == KEY_W { MOVE_W } else { 0 };
            ([MOVE_SLOT | colour | p.loc as u16, 0, 0, 0], 1)
        } else {
            ([p.key, p.len, p.loc as u16, (p.loc >> 16) as u16], WIDE)
        }
    }

    /// Appends `p`'s slots (its node's end is set by the caller).
    #[inline(always)]
    fn push_slots(&mut self, p: Prop) {
        let (slots, w) = Self::encode(p);
        self.last_pushed = self.slots.len() as u32;
        self.n_props += 1;
        self.slots.extend_from_slice(&slots[..w]);
    }

    /// The first slots of the properties in `s..e`.
    fn heads(&self, s: usize, e: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = s;
        std::iter::from_fn(move || {
            (at < e).then(|| {
                let i = at;
                at += width(self.slots[i]);
                i
            })
        })
    }

    /// Replaces slots `range` of `node` by `new`, keeping the node table and the recorded
    /// offsets in step (`offsets`: the recorded offset of each new slot).
    fn splice_slots(&mut self, node: NodeId, range: std::ops::Range<usize>, new: &[u16], offsets: &[u32]) {
        self.splice_slots_with(node, range, new, offsets.iter().copied());
    }

    /// [`GameTree::splice_slots`] with the new slots' offsets from an iterator (as many as
    /// slots).
    fn splice_slots_with(
        &mut self,
        node: NodeId,
        range: std::ops::Range<usize>,
        new: &[u16],
        offsets: impl ExactSizeIterator<Item = u32>,
    ) {
        let (start, end) = (range.start, range.end);
        let delta = new.len() as i64 - (end - start) as i64;
        splice_in(&mut self.slots, start..end, new.iter().copied());
        if let Some(p) = &mut self.positions {
            if end <= p.props.len() {
                splice_in(&mut p.props, start..end, offsets);
            } else if start < p.props.len() {
                p.props.truncate(start);
            }
        }
        if delta != 0 {
            self.node_props.shift_from(node.index() + 1, delta);
        }
    }

    /// Drops the source offsets recorded while reading ([`GameTree::node_offset`] and
    /// [`Property::offset`] then give `None`), freeing their memory: a reader records them for
    /// a small input it repairs, to place the repairs, whether asked for or not.
    ///
    /// ```
    /// use kifu::model::NodeId;
    /// let opts = kifu::ReadOptions::default().with_positions(true);
    /// let mut read = kifu::Format::SGF.read(b"(;GM[1];B[pd])".to_vec(), &opts).unwrap();
    /// let game = &mut read.collection.games[0];
    /// assert_eq!(game.node_offset(NodeId::ROOT), Some(1));
    /// game.forget_positions();
    /// assert_eq!(game.node_offset(NodeId::ROOT), None);
    /// ```
    pub fn forget_positions(&mut self) {
        self.positions = None;
    }

    /// Byte offset in [`GameTree::source`] where node `id` starts (its `;`), when the reader
    /// recorded positions.
    pub fn node_offset(&self, id: NodeId) -> Option<usize> {
        let o = *self.positions.as_ref()?.nodes.get(id.index())?;
        (o != NO_OFFSET).then_some(o as usize)
    }

    /// The recorded node offsets by node index (`u32::MAX` for a node without one), when the
    /// reader recorded positions.
    pub(crate) fn node_offsets(&self) -> Option<&[u32]> {
        self.positions.as_ref().map(|p| p.nodes.as_slice())
    }

    /// Reserve room for `nodes` more nodes and `props` more property slots.
    pub(crate) fn reserve(&mut self, nodes: usize, props: usize) {
        self.node_props.reserve_exact(nodes);
        self.slots.reserve_exact(props);
    }

    /// A copy whose buffers are exactly as large as their contents, and this tree emptied with
    /// its capacity kept (a reader builds each game in one reused tree, so each game's buffers
    /// are allocated once, at their final size).
    pub(crate) fn take_exact(&mut self) -> GameTree {
        // The node table is copied compacted (not cloned first), for a tree read without
        // positions: a large collection kept whole (trees with positions are read in pieces
        // and written at once, where the plain table is quicker to walk).
        let starts = std::mem::replace(&mut self.node_props, Starts::Narrow(Vec::new()));
        let mut out = self.clone();
        out.node_props = if self.positions.is_none() { starts.compacted() } else { starts.clone() };
        self.node_props = starts;
        if let Some(p) = &mut self.positions {
            p.nodes.clear();
            p.props.clear();
        }
        match &mut self.node_props {
            Starts::Narrow(v) => {
                v.clear();
                v.push(0);
            }
            wide => *wide = Starts::new(),
        }
        self.own.clear();
        self.later.clear();
        self.next.clear();
        self.next_sorted = true;
        self.slots.clear();
        self.n_props = 0;
        self.values.clear();
        self.unknown.clear();
        self.unknown_index = None;
        out
    }

    /// Release spare capacity.
    pub(crate) fn shrink(&mut self) {
        if let Some(p) = &mut self.positions {
            p.nodes.shrink_to_fit();
            p.props.shrink_to_fit();
        }
        self.node_props = self.node_props.compacted();
        self.slots.shrink_to_fit();
        self.values.shrink_to_fit();
        self.own.shrink_to_fit();
    }

    /// Append a node. `parent` is `None` only for the root; `prev_sibling` is the parent's
    /// current last child, if any. Pre-order must hold: the parent must be on the path from the
    /// root to the most recent node.
    #[inline]
    pub(crate) fn push_node(&mut self, parent: Option<u32>, prev_sibling: Option<u32>) -> u32 {
        let id = (self.node_props.len() - 1) as u32;
        self.node_props.push(self.slots.len() as u32);
        if let Some(p) = parent {
            if let Some(prev) = prev_sibling {
                self.later.push((id, p));
                if self.next.last().is_some_and(|&(n, _)| n > prev) {
                    self.next_sorted = false;
                }
                self.next.push((prev, id));
            } else {
                debug_assert_eq!(p + 1, id, "first child must follow its parent");
            }
        }
        id
    }

    /// Append a node as the first child of the last node (the common case while reading).
    #[inline(always)]
    pub(crate) fn push_first_child(&mut self) -> u32 {
        let id = (self.node_props.len() - 1) as u32;
        self.node_props.push(self.slots.len() as u32);
        id
    }

    /// Append a node as the first child of the last node, holding the move `key` (`B` or `W`)
    /// on the point `x` `y` (lower-case letters), written at `at` (its `;`, the move right after
    /// it; recorded when positions are): a move, while reading.
    #[inline(always)]
    pub(crate) fn push_move_node(&mut self, key: u16, x: u8, y: u8, at: usize) -> u32 {
        self.push_move_slot(key, x, y);
        let id = self.push_first_child();
        if let Some(p) = &mut self.positions {
            Positions::record(&mut p.nodes, id as usize, at);
            Positions::record(&mut p.props, self.last_pushed as usize, at + 1);
        }
        id
    }

    /// Append the move `key` (`B` or `W`) on the point `x` `y` (lower-case letters) to the last
    /// node.
    #[inline(always)]
    pub(crate) fn push_move(&mut self, key: u16, x: u8, y: u8) {
        self.push_move_slot(key, x, y);
        self.node_props.set_last(self.slots.len() as u32);
    }

    #[inline(always)]
    fn push_move_slot(&mut self, key: u16, x: u8, y: u8) {
        debug_assert!(key <= KEY_W && x.is_ascii_lowercase() && y.is_ascii_lowercase());
        self.last_pushed = self.slots.len() as u32;
        self.n_props += 1;
        self.slots.push(move_bits(key, x, y));
    }

    /// Sort the sibling table after building.
    pub(crate) fn finish(&mut self) {
        if !self.next_sorted {
            self.next.sort_unstable_by_key(|&(n, _)| n);
            self.next_sorted = true;
        }
    }

    /// The full key of an identifier (must be non-empty, upper-case for known ones): the table
    /// index of a known one, `UNKNOWN + i` for the tree's `i`th unknown one (added when new).
    /// Below [`EXT_FROM`] it is the key a property's slots hold; from there on the slots hold
    /// [`EXT`] and the values' first record the index. Any number of identifiers is held; each
    /// is found in constant time once there are more than [`INDEX_FROM`].
    pub(crate) fn key_for(&mut self, ident: &str) -> u32 {
        if let Some(i) = props::index_of(ident) {
            return u32::from(i);
        }
        u32::from(UNKNOWN) + self.unknown_id(ident)
    }

    /// The index of the unknown identifier `ident`, added when new.
    fn unknown_id(&mut self, ident: &str) -> u32 {
        if let Some(index) = &self.unknown_index {
            if let Some(&i) = index.get(ident) {
                return i;
            }
        } else if let Some(i) = self.unknown.iter().position(|u| &**u == ident) {
            return i as u32;
        }
        // Node and value indices are `u32`, so are the identifiers' (each takes a property).
        let i = u32::try_from(self.unknown.len()).expect("fewer identifiers than properties");
        self.unknown.push(ident.into());
        match &mut self.unknown_index {
            Some(index) => {
                index.insert(ident.into(), i);
            }
            None if self.unknown.len() > INDEX_FROM => {
                let index = self.unknown.iter().enumerate().map(|(i, u)| (u.clone(), i as u32)).collect();
                self.unknown_index = Some(index);
            }
            None => {}
        }
        i
    }

    /// The full key (as [`Self::key_for`] gives it) of property `p`.
    #[inline]
    fn full_key(&self, p: Prop) -> u32 {
        if p.key == EXT { u32::from(UNKNOWN) + self.values[p.loc as usize].len } else { u32::from(p.key) }
    }

    /// A location and length for `text` copied into the own buffer.
    pub(crate) fn own_text(&mut self, text: &str) -> (u32, u32) {
        let loc = self.own.len();
        self.own.push_str(text);
        (OWN | loc as u32, text.len() as u32)
    }

    /// A location and length for the text `write` appends to the own buffer, and what `write`
    /// returns.
    pub(crate) fn own_with<T>(&mut self, write: impl FnOnce(&mut String) -> T) -> (u32, u32, T) {
        let loc = self.own.len();
        let r = write(&mut self.own);
        (OWN | loc as u32, (self.own.len() - loc) as u32, r)
    }

    /// Location for a range of the source text.
    pub(crate) fn src_loc(start: usize) -> u32 {
        start as u32
    }

    /// A value record (location from [`Self::own_text`] or [`Self::src_loc`]).
    pub(crate) fn val(loc: u32, len: u32, split: Option<usize>) -> Val {
        Val { loc, len, split: split.map_or(NO_SPLIT, |s| s as u32) }
    }

    /// Append a property with one value to the last node (`key` from [`Self::key_for`]).
    #[inline(always)]
    pub(crate) fn push_prop_single(&mut self, key: u32, v: Val) {
        if v.split == NO_SPLIT && v.len < u32::from(PAIR) && key < EXT_FROM {
            let p = self.short_prop(key as u16, v.loc, v.len as u16);
            self.push_last(p);
        } else {
            self.push_prop(key, &[v]);
        }
    }

    /// Append a property `key`, not `B` or `W`, with one plain value of `len` bytes at `loc` of
    /// the source to the last node (a time left after a move, while reading).
    #[inline(always)]
    pub(crate) fn push_short(&mut self, key: u16, loc: u32, len: u16) {
        debug_assert!(key > KEY_W && len < PAIR && loc & OWN == 0);
        self.push_last(Prop { loc, len, key });
    }

    /// A property with one short plain value at `loc`: a move slot when it is one.
    #[inline(always)]
    fn short_prop(&self, key: u16, loc: u32, len: u16) -> Prop {
        if len == 2 && key <= KEY_W && loc & OWN == 0 {
            let at = loc as usize;
            if let Some(slot) = move_slot(key, &self.src.as_bytes()[at..at + 2]) {
                return Prop { loc: u32::from(slot & (MOVE_W - 1)), len: PAIR, key };
            }
        }
        Prop { loc, len, key }
    }

    /// Total number of properties in the tree.
    pub(crate) fn prop_total(&self) -> usize {
        self.n_props
    }

    /// Append a property with `vals` to the last node (`key` from [`Self::key_for`]).
    pub(crate) fn push_prop(&mut self, key: u32, vals: &[Val]) {
        let p = match vals {
            [v] if v.split == NO_SPLIT && v.len < u32::from(PAIR) && key < EXT_FROM => {
                self.short_prop(key as u16, v.loc, v.len as u16)
            }
            _ => self.multi_prop(key, vals),
        };
        self.push_last(p);
    }

    /// Append a property with owned values to the last node.
    pub(crate) fn push_prop_owned(&mut self, ident: &str, values: &[PropValue]) {
        let key = self.key_for(ident);
        let prop = self.make_prop(key, values);
        self.push_last(prop);
    }

    /// Append `prop` to the last node.
    #[inline(always)]
    fn push_last(&mut self, prop: Prop) {
        self.push_slots(prop);
        self.node_props.set_last(self.slots.len() as u32);
    }

    #[inline(always)]
    fn text(&self, loc: u32, len: u32) -> &str {
        let (buf, at) = if loc & OWN != 0 { (&self.own, (loc & !OWN) as usize) } else { (&*self.src, loc as usize) };
        &buf[at..at + len as usize]
    }

    #[inline]
    fn ident_of(&self, p: Prop) -> &str {
        if p.key & UNKNOWN != 0 {
            &self.unknown[(self.full_key(p) - u32::from(UNKNOWN)) as usize]
        } else {
            PROPS[p.key as usize].ident
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.node_props.len() - 1
    }

    /// Whether the tree has no nodes (never true for a tree returned by a reader).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The root node.
    pub fn root(&self) -> Node<'_> {
        self.node(NodeId::ROOT)
    }

    /// A view of node `id`. Panics if `id` is not a node of this tree.
    pub fn node(&self, id: NodeId) -> Node<'_> {
        assert!(id.index() < self.len(), "node {} out of range", id.0);
        Node { tree: self, id }
    }

    /// A view of node `id`, or `None` if the tree has no such node.
    pub fn get_node(&self, id: NodeId) -> Option<Node<'_>> {
        (id.index() < self.len()).then_some(Node { tree: self, id })
    }

    /// All nodes in pre-order (document order).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
        (0..self.len() as u32).map(move |i| Node { tree: self, id: NodeId(i) })
    }

    /// The main line: the root, its first child, that node's first child, and so on.
    pub fn main_line(&self) -> impl Iterator<Item = Node<'_>> + '_ {
        let mut cur = (!self.is_empty()).then_some(NodeId::ROOT);
        std::iter::from_fn(move || {
            let id = cur?;
            cur = self.first_child(id);
            Some(Node { tree: self, id })
        })
    }

    fn is_later(&self, id: u32) -> Option<u32> {
        self.later.binary_search_by_key(&id, |&(n, _)| n).ok().map(|i| self.later[i].1)
    }

    /// The parent of `id`, `None` for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        if id.0 == 0 {
            return None;
        }
        Some(NodeId(self.is_later(id.0).unwrap_or(id.0 - 1)))
    }

    /// The first child of `id`.
    pub fn first_child(&self, id: NodeId) -> Option<NodeId> {
        let c = id.0 + 1;
        ((c as usize) < self.len() && self.is_later(c).is_none()).then_some(NodeId(c))
    }

    /// The next sibling of `id`.
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        debug_assert!(self.next_sorted);
        self.next.binary_search_by_key(&id.0, |&(n, _)| n).ok().map(|i| NodeId(self.next[i].1))
    }

    /// The children of `id`, first child (the main line) first.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut cur = self.first_child(id);
        std::iter::from_fn(move || {
            let c = cur?;
            cur = self.next_sibling(c);
            Some(c)
        })
    }

    /// Number of children of `id`.
    pub fn child_count(&self, id: NodeId) -> usize {
        self.children(id).count()
    }

    /// Nodes that have more than one child, i.e. where variations branch off.
    pub fn has_variations(&self) -> bool {
        !self.later.is_empty()
    }

    /// The board size from the root's `SZ`, 19×19 when it is absent or unreadable.
    pub fn board_size(&self) -> BoardSize {
        self.root().value("SZ").and_then(BoardSize::from_sgf).unwrap_or_default()
    }

    /// Number of moves (`B`/`W` properties) on the main line.
    pub fn main_line_moves(&self) -> usize {
        self.main_line().map(|n| n.props().filter(|p| matches!(p.ident(), "B" | "W")).count()).sum()
    }

    /// Replace the values of the first `ident` property of `node`, or append the property when
    /// the node has none. Values are anything that converts into a [`PropValue`] (`&str`,
    /// `String`, a [`Value`] of another property, …), as for [`TreeBuilder::set_prop`]. Costs
    /// time linear in the tree's size when the node is not the last.
    ///
    /// [`TreeBuilder::set_prop`]: super::TreeBuilder::set_prop
    ///
    /// ```
    /// let mut game = kifu::read(&b"(;PB[Honinbo Shusaku];B[pd])"[..]).unwrap().collection.games.remove(0);
    /// game.set_prop(kifu::model::NodeId::ROOT, "PB", ["Kuwahara Shusaku"]);
    /// assert_eq!(game.root().value("PB"), Some("Kuwahara Shusaku"));
    /// ```
    pub fn set_prop<V: Into<PropValue>>(&mut self, node: NodeId, ident: &str, values: impl IntoIterator<Item = V>) {
        let values: Vec<PropValue> = values.into_iter().map(Into::into).collect();
        let key = self.key_for(ident);
        let new = self.make_prop(key, &values);
        let (slots, w) = Self::encode(new);
        let (start, end) = self.prop_range(node);
        let found = self.heads(start, end).find(|&i| self.full_key(self.prop_at(i)) == key);
        match found {
            Some(i) => {
                // The property keeps its recorded offset.
                let kept = self.positions.as_ref().and_then(|p| p.props.get(i).copied()).unwrap_or(NO_OFFSET);
                let mut offsets = [NO_OFFSET; WIDE];
                offsets[0] = kept;
                let old = width(self.slots[i]);
                self.splice_slots(node, i..i + old, &slots[..w], &offsets[..w]);
            }
            None => {
                self.n_props += 1;
                self.splice_slots(node, end..end, &slots[..w], &[NO_OFFSET; WIDE][..w]);
            }
        }
    }

    /// Insert a property at position `index` among the properties of `node` (clamped to the
    /// end). Values as for [`GameTree::set_prop`]. Costs time linear in the tree's size.
    pub fn insert_prop<V: Into<PropValue>>(
        &mut self,
        node: NodeId,
        index: usize,
        ident: &str,
        values: impl IntoIterator<Item = V>,
    ) {
        let values: Vec<PropValue> = values.into_iter().map(Into::into).collect();
        let key = self.key_for(ident);
        let new = self.make_prop(key, &values);
        let (slots, w) = Self::encode(new);
        let (start, end) = self.prop_range(node);
        let at = self.heads(start, end).nth(index).unwrap_or(end);
        self.n_props += 1;
        self.splice_slots(node, at..at, &slots[..w], &[NO_OFFSET; WIDE][..w]);
    }

    fn make_prop(&mut self, key: u32, values: &[PropValue]) -> Prop {
        if let ([v], true) = (values, key < EXT_FROM) {
            if let Some(p) = v.split.is_none().then(|| self.short_own_prop(key as u16, &v.text)).flatten() {
                return p;
            }
        }
        let vals: Vec<Val> = values
            .iter()
            .map(|v| {
                let (loc, len) = self.own_text(&v.text);
                GameTree::val(loc, len, v.split)
            })
            .collect();
        self.multi_prop(key, &vals)
    }

    /// A property with one plain value `text`, as a move slot or a short value in the own
    /// buffer; `None` (nothing stored) when neither holds it.
    fn short_own_prop(&mut self, key: u16, text: &str) -> Option<Prop> {
        if let Some(slot) = move_slot(key, text.as_bytes()) {
            return Some(Prop { loc: u32::from(slot & (MOVE_W - 1)), len: PAIR, key });
        }
        (text.len() < PAIR as usize).then(|| {
            let (loc, len) = self.own_text(text);
            Prop { loc, len: len as u16, key }
        })
    }

    /// Append a property with borrowed values to the last node: what
    /// [`Self::push_prop_owned`] stores for the same values as [`PropValue`]s.
    pub(crate) fn push_prop_parts(&mut self, ident: &str, values: &[NewValue<'_>]) {
        let key = self.key_for(ident);
        let short = match *values {
            _ if key >= EXT_FROM => None,
            [NewValue::Plain(text)] => self.short_own_prop(key as u16, text),
            // Rare (a reader's warning): the joined text, as a `PropValue` holds it.
            [NewValue::Pair(first, second, false)] => self.short_own_prop(key as u16, &format!("{first}:{second}")),
            _ => None,
        };
        let prop = short.unwrap_or_else(|| {
            let vals: Vec<Val> = values
                .iter()
                .map(|v| match *v {
                    NewValue::Plain(text) => {
                        let (loc, len) = self.own_text(text);
                        GameTree::val(loc, len, None)
                    }
                    NewValue::Pair(first, second, composed) => {
                        let (loc, len, ()) = self.own_with(|s| {
                            s.push_str(first);
                            s.push(':');
                            s.push_str(second);
                        });
                        GameTree::val(loc, len, composed.then_some(first.len()))
                    }
                })
                .collect();
            self.multi_prop(key, &vals)
        });
        self.push_last(prop);
    }

    /// A property with the values `vals`: several, or one that the short form cannot hold, or
    /// any of an identifier whose full key `key` is past what slots hold (the first record's
    /// `len` then holds its index).
    fn multi_prop(&mut self, key: u32, vals: &[Val]) -> Prop {
        let at = self.values.len() as u32;
        let (key, id) = if key >= EXT_FROM { (EXT, key - u32::from(UNKNOWN)) } else { (key as u16, 0) };
        self.values.push(Val { loc: vals.len() as u32, len: id, split: NO_SPLIT });
        self.values.extend_from_slice(vals);
        Prop { loc: at, len: MULTI, key }
    }

    /// Replaces all the properties of `node` by `props` (in order) in one splice; the new
    /// properties have no recorded offset.
    pub(crate) fn replace_props<'p, I>(&mut self, node: NodeId, props: I)
    where
        I: IntoIterator<Item = NewProp<'p>>,
        I::IntoIter: Clone,
    {
        let props = props.into_iter();
        // The new values' text goes to the own buffer: room for all of it at once.
        let texts: usize = props
            .clone()
            .map(|p| match p {
                NewProp::Stored(_) => 0,
                NewProp::Owned(_, values) | NewProp::Keyed(_, values) => values.iter().map(|v| v.text.len()).sum(),
            })
            .sum();
        if self.own.capacity() - self.own.len() < texts {
            // As `splice_in` grows the slots: a little room, not twice the size.
            self.own.reserve_exact(texts + self.own.len() / 8);
        }
        let (start, end) = self.prop_range(node);
        // Room for the node's slots and a few more properties.
        let mut new: Vec<u16> = Vec::with_capacity(end - start + 4 * WIDE);
        let mut added = 0;
        for p in props {
            let stored = match p {
                NewProp::Stored(s) => s.0,
                NewProp::Owned(ident, values) => {
                    let key = self.key_for(ident);
                    self.make_prop(key, values)
                }
                NewProp::Keyed(key, values) => self.make_prop(u32::from(key), values),
            };
            let (slots, w) = Self::encode(stored);
            new.extend_from_slice(&slots[..w]);
            added += 1;
        }
        let removed = self.heads(start, end).count();
        self.n_props = self.n_props + added - removed;
        let n = new.len();
        self.splice_slots_with(node, start..end, &new, std::iter::repeat_n(NO_OFFSET, n));
    }

    /// The property of this tree whose stored form is `s` (without a node or recorded offset:
    /// for its identifier and values).
    pub(crate) fn stored_property(&self, s: Stored) -> Property<'_> {
        Property { tree: self, index: u32::MAX, raw: s.0 }
    }

    /// Remove every `ident` property of `node`; returns how many were removed.
    pub fn remove_prop(&mut self, node: NodeId, ident: &str) -> usize {
        let (start, end) = self.prop_range(node);
        let gone: Vec<(usize, usize)> = self
            .heads(start, end)
            .filter(|&i| self.ident_of(self.prop_at(i)) == ident)
            .map(|i| (i, width(self.slots[i])))
            .collect();
        // From the last, so that the earlier ranges stay where they are.
        for &(i, w) in gone.iter().rev() {
            self.splice_slots(node, i..i + w, &[], &[]);
        }
        self.n_props -= gone.len();
        gone.len()
    }

    #[inline]
    fn prop_range(&self, node: NodeId) -> (usize, usize) {
        (self.node_props.get(node.index()) as usize, self.node_props.get(node.index() + 1) as usize)
    }

    /// The move of a node that holds nothing else, as SGF writes it: `B` or `W` and the point's
    /// two letters (a writer's fast path; `None` for any other node).
    #[inline(always)]
    pub(crate) fn lone_move(&self, node: NodeId) -> Option<[u8; 3]> {
        let (s, e) = self.prop_range(node);
        let slot = *self.slots.get(s)?;
        if e != s + 1 || slot & MOVE_SLOT == 0 {
            return None;
        }
        let at = 2 * usize::from(slot & (MOVE_W - 1));
        let &[x, y] = &PAIRS.as_bytes()[at..at + 2] else { return None };
        Some([if slot & MOVE_W != 0 { b'W' } else { b'B' }, x, y])
    }
}

/// Replaces `v[range]` by `new` (as many items as it says): overwritten in place where the
/// lengths allow, the tail moved once otherwise (`Vec::splice` moves it through a temporary).
fn splice_in<T: Copy>(v: &mut Vec<T>, range: std::ops::Range<usize>, new: impl ExactSizeIterator<Item = T>) {
    let (start, end) = (range.start, range.end);
    let (old, n) = (end - start, new.len());
    if n > old {
        let tail = v.len() - end;
        let Some(&fill) = v.first() else {
            v.extend(new);
            return;
        };
        let extra = n - old;
        if v.capacity() - v.len() < extra {
            // Read trees are stored at their exact size and most get one edit (the root's
            // repairs): a little room, not twice the size (still geometric over many edits).
            v.reserve_exact(extra + v.len() / 8);
        }
        v.resize(v.len() + extra, fill);
        v.copy_within(end..end + tail, start + n);
    } else if n < old {
        v.copy_within(end.., start + n);
        v.truncate(v.len() - (old - n));
    }
    for (slot, x) in v[start..start + n].iter_mut().zip(new) {
        *slot = x;
    }
}

/// A property's stored form, detached from its node: its values stay where the tree keeps them
/// (the source text and the tree's own buffers only grow), so [`GameTree::replace_props`] can
/// put it back without copying them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stored(Prop);

/// A property handed to [`GameTree::replace_props`].
pub(crate) enum NewProp<'p> {
    /// One of the tree's properties, as stored.
    Stored(Stored),
    /// A new property: identifier and values.
    Owned(&'p str, &'p [PropValue]),
    /// A new property of the property table: its key (index in [`PROPS`]) and values.
    Keyed(u16, &'p [PropValue]),
}

/// The properties of one node, from their slots.
struct PropIter<'a> {
    tree: &'a GameTree,
    /// The first slot of `rest`.
    at: usize,
    /// The slots not read yet.
    rest: &'a [u16],
}

impl<'a> PropIter<'a> {
    #[inline]
    fn new(tree: &'a GameTree, s: usize, e: usize) -> PropIter<'a> {
        PropIter { tree, at: s, rest: tree.slots.get(s..e).unwrap_or_default() }
    }
}

impl<'a> Iterator for PropIter<'a> {
    type Item = Property<'a>;
    #[inline]
    fn next(&mut self) -> Option<Property<'a>> {
        let i = self.at;
        let (raw, n) = decode(self.rest)?;
        self.rest = &self.rest[n..];
        self.at += n;
        Some(Property { tree: self.tree, index: i as u32, raw })
    }
    /// Counted when asked (a walk over the slots left).
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.tree.heads(self.at, self.at + self.rest.len()).count();
        (n, Some(n))
    }
}

impl ExactSizeIterator for PropIter<'_> {}

/// A node of a [`GameTree`], borrowed.
///
/// ```
/// use kifu::model::{Color, Move, Point};
/// let game = kifu::read(&b"(;GM[1];B[pd]C[corner])"[..]).unwrap().collection.games.remove(0);
/// let node = game.root().first_child().unwrap();
/// assert_eq!(node.mv(), Some((Color::Black, Move::Play(Point::new(15, 3)))));
/// assert_eq!(node.value("C"), Some("corner"));
/// assert!(node.parent().unwrap().is_root());
/// ```
#[derive(Clone, Copy)]
pub struct Node<'a> {
    tree: &'a GameTree,
    id: NodeId,
}

impl<'a> Node<'a> {
    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The tree the node belongs to.
    pub fn tree(&self) -> &'a GameTree {
        self.tree
    }

    /// Whether this is the root node.
    pub fn is_root(&self) -> bool {
        self.id.0 == 0
    }

    /// The node's properties in their original order.
    pub fn props(&self) -> impl ExactSizeIterator<Item = Property<'a>> + 'a {
        let (s, e) = self.tree.prop_range(self.id);
        PropIter::new(self.tree, s, e)
    }

    /// Number of properties.
    pub fn prop_count(&self) -> usize {
        let (s, e) = self.tree.prop_range(self.id);
        self.tree.heads(s, e).count()
    }

    /// The first property named `ident` (upper-case FF\[4\] identifier or the unknown identifier).
    pub fn get(&self, ident: &str) -> Option<Property<'a>> {
        self.props().find(|p| p.ident() == ident)
    }

    /// The first value of the first property named `ident`.
    pub fn value(&self, ident: &str) -> Option<&'a str> {
        self.get(ident).and_then(|p| p.values().next()).map(|v| v.as_str())
    }

    /// Every value of every property named `ident`, in order: a property repeated in one node
    /// (`AB[dp]AB[pd]`, as some programs write) reads as one list.
    pub fn values_of(&self, ident: &str) -> impl Iterator<Item = Value<'a>> + 'a {
        let ident = ident.to_string();
        self.props().filter(move |p| p.ident() == ident).flat_map(|p| p.values().collect::<Vec<_>>())
    }

    /// The points of every property named `ident` (see [`Property::points`]), repeated
    /// properties included.
    pub fn points_of(&self, ident: &str) -> impl Iterator<Item = Point> + 'a {
        let ident = ident.to_string();
        self.props().filter(move |p| p.ident() == ident).flat_map(|p| p.points().collect::<Vec<_>>())
    }

    /// The parent node.
    pub fn parent(&self) -> Option<Node<'a>> {
        self.tree.parent(self.id).map(|id| Node { tree: self.tree, id })
    }

    /// The children, main line first.
    pub fn children(&self) -> impl Iterator<Item = Node<'a>> + 'a {
        let tree = self.tree;
        tree.children(self.id).map(move |id| Node { tree, id })
    }

    /// The first child.
    pub fn first_child(&self) -> Option<Node<'a>> {
        self.tree.first_child(self.id).map(|id| Node { tree: self.tree, id })
    }

    /// The move this node plays, if it has a `B` or `W` property whose value is a move on the
    /// tree's board (passes included).
    pub fn mv(&self) -> Option<(Color, Move)> {
        self.mv_on(self.tree.board_size())
    }

    /// Like [`Node::mv`] with the board size given (saves looking it up for every node).
    pub fn mv_on(&self, size: BoardSize) -> Option<(Color, Move)> {
        for p in self.props() {
            let color = match p.ident() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            let v = p.values().next()?;
            return Move::from_sgf(v.as_str(), size).map(|m| (color, m));
        }
        None
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} ", self.id.0)?;
        for p in self.props() {
            write!(f, "{p:?}")?;
        }
        Ok(())
    }
}

/// A property of a node, borrowed: identifier and values.
///
/// ```
/// let game = kifu::read(&b"(;AB[dd][pp:qq])"[..]).unwrap().collection.games.remove(0);
/// let ab = game.root().get("AB").unwrap();
/// assert_eq!((ab.ident(), ab.len()), ("AB", 2));
/// assert_eq!(ab.points().count(), 5); // pp:qq is a rectangle of four
/// ```
#[derive(Clone, Copy)]
pub struct Property<'a> {
    tree: &'a GameTree,
    /// Its first slot.
    index: u32,
    raw: Prop,
}

impl<'a> Property<'a> {
    fn raw(&self) -> Prop {
        self.raw
    }

    /// The tree the property belongs to.
    pub fn tree(&self) -> &'a GameTree {
        self.tree
    }

    /// The identifier (FF\[4\] upper-case form for known properties).
    #[inline]
    pub fn ident(&self) -> &'a str {
        self.tree.ident_of(self.raw())
    }

    /// The property's stored form, detached from its node (see [`Stored`]).
    pub(crate) fn stored(&self) -> Stored {
        Stored(self.raw)
    }

    /// The compact key: the table index of a known identifier; unknown identifiers have keys
    /// of their own (from `PROPS.len()` up), one per identifier in the tree's first 16,383
    /// unknown ones, one shared by the others ([`Self::ident_key`] tells them apart).
    pub(crate) fn key(&self) -> u16 {
        self.raw().key
    }

    /// A key of the identifier's own, for any number of unknown identifiers: the same for two
    /// properties of one tree exactly when their identifiers are the same.
    #[inline]
    pub(crate) fn ident_key(&self) -> u32 {
        self.tree.full_key(self.raw())
    }

    /// The table entry for a known property.
    pub fn def(&self) -> Option<&'static PropDef> {
        let k = self.raw().key;
        (k & UNKNOWN == 0).then(|| &PROPS[k as usize])
    }

    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = Value<'a>> + 'a {
        let p = self.raw();
        let tree = self.tree;
        let (single, range) = if p.len == MULTI {
            let n = tree.values[p.loc as usize].loc as usize;
            (None, p.loc as usize + 1..p.loc as usize + 1 + n)
        } else {
            (Some(Value { text: tree.single_text(p), split: None }), 0..0)
        };
        let single_len = single.is_some() as usize;
        ValueIter { single, rest: range.map(move |i| tree.values[i]), tree, len: single_len }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        let p = self.raw();
        if p.len == MULTI { self.tree.values[p.loc as usize].loc as usize } else { 1 }
    }

    /// Whether the property has no value (never true for a read property: `KO[]` has one empty value).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Byte offset in [`GameTree::source`] where the property's identifier starts, when the
    /// reader recorded positions.
    pub fn offset(&self) -> Option<usize> {
        let o = *self.tree.positions.as_ref()?.props.get(self.index as usize)?;
        (o != NO_OFFSET).then_some(o as usize)
    }

    /// The node this property belongs to.
    pub fn node(&self) -> NodeId {
        let i = self.index;
        let n = self.tree.node_props.partition_point_le(i);
        NodeId((n - 1) as u32)
    }

    /// The points of a point-list property (`AB`, `TR`, `TB`, …), compressed rectangles
    /// (`aa:cc`) expanded row by row, in value order. Values that are not points are skipped.
    pub fn points(&self) -> impl Iterator<Item = Point> + 'a {
        self.values().flat_map(|v| {
            let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
            super::point::expand_rect(a, b).into_iter().flatten()
        })
    }

    /// For a setup property, what it puts on its points: `Some(Some(Black))` for `AB`,
    /// `Some(Some(White))` for `AW`, `Some(None)` for `AE` (clear); `None` for other properties.
    pub fn setup(&self) -> Option<Option<Color>> {
        match self.ident() {
            "AB" => Some(Some(Color::Black)),
            "AW" => Some(Some(Color::White)),
            "AE" => Some(None),
            _ => None,
        }
    }

    /// The value of a property stored with one plain (not composed) value, without going through
    /// the value iterator (the writer's fast path).
    #[inline]
    pub(crate) fn single_plain(&self) -> Option<&'a str> {
        let p = self.raw();
        (p.len != MULTI).then(|| self.tree.single_text(p))
    }

    /// Whether the property is stored with one plain value.
    #[inline]
    pub(crate) fn is_single(&self) -> bool {
        self.raw.len != MULTI
    }

    /// Whether the identifier is in the table.
    #[inline]
    pub(crate) fn known(&self) -> bool {
        self.raw.key & UNKNOWN == 0
    }

    /// The first value read as a colour (`PL[B]`).
    pub fn color(&self) -> Option<Color> {
        self.first().and_then(Color::from_sgf)
    }

    /// The first value as text.
    pub fn first(&self) -> Option<&'a str> {
        self.values().next().map(|v| v.as_str())
    }
}

struct ValueIter<'a, I> {
    single: Option<Value<'a>>,
    rest: I,
    tree: &'a GameTree,
    len: usize,
}

impl<'a, I: ExactSizeIterator<Item = Val>> Iterator for ValueIter<'a, I> {
    type Item = Value<'a>;
    fn next(&mut self) -> Option<Value<'a>> {
        if let Some(v) = self.single.take() {
            self.len = 0;
            return Some(v);
        }
        let v = self.rest.next()?;
        Some(Value { text: self.tree.text(v.loc, v.len), split: (v.split != NO_SPLIT).then_some(v.split as usize) })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len + self.rest.len();
        (n, Some(n))
    }
}

impl<'a, I: ExactSizeIterator<Item = Val>> ExactSizeIterator for ValueIter<'a, I> {}

impl fmt::Debug for Property<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ident())?;
        for v in self.values() {
            match v.parts() {
                Some((a, b)) => write!(f, "[{a:?}:{b:?}]")?,
                None => write!(f, "[{:?}]", v.as_str())?,
            }
        }
        Ok(())
    }
}

/// One property value: decoded, unescaped text; a composed value also knows its two parts.
///
/// ```
/// let game = kifu::read(&b"(;AP[kifu:0.1]C[a\\]b])"[..]).unwrap().collection.games.remove(0);
/// let ap = game.root().get("AP").unwrap().values().next().unwrap();
/// assert_eq!(ap.parts(), Some(("kifu", "0.1")));
/// assert_eq!(game.root().value("C"), Some("a]b")); // unescaped
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    text: &'a str,
    split: Option<usize>,
}

impl<'a> Value<'a> {
    /// The whole value (both parts joined by `:` for a composed value).
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The two parts of a composed value (`aa:cc`, `SGFC:2.0`), split where the input had an
    /// unescaped `:`.
    pub fn parts(&self) -> Option<(&'a str, &'a str)> {
        self.split.map(|s| (&self.text[..s], &self.text[s + 1..]))
    }

    /// This value as a [`PropValue`] (an owned copy).
    pub fn to_owned_value(&self) -> PropValue {
        PropValue { text: self.text.to_string(), split: self.split }
    }
}

impl PartialEq for GameTree {
    /// Two trees are equal when they have the same shape and the same properties with the same
    /// values in every node, whatever their storage.
    fn eq(&self, other: &GameTree) -> bool {
        self.len() == other.len()
            && self.later.iter().map(|l| l.0).eq(other.later.iter().map(|l| l.0))
            && self.nodes().zip(other.nodes()).all(|(a, b)| {
                a.parent().map(|p| p.id) == b.parent().map(|p| p.id)
                    && a.prop_count() == b.prop_count()
                    && a.props().zip(b.props()).all(|(p, q)| p.ident() == q.ident() && p.values().eq(q.values()))
            })
    }
}

impl Eq for GameTree {}

impl fmt::Debug for GameTree {
    /// One line per node: `#id ^parent IDENT["value"]…`, easy to diff in tests.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "GameTree ({} nodes)", self.len())?;
        for n in self.nodes() {
            match n.parent() {
                Some(p) => write!(f, "  ^{} ", p.id.0)?,
                None => write!(f, "  ")?,
            }
            writeln!(f, "{n:?}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A distinct upper-case identifier of five letters for every `i` (none in the table).
    fn unknown_name(i: usize) -> String {
        let mut s = String::from("XQ");
        let mut n = i;
        for _ in 0..4 {
            s.push(char::from(b'A' + (n % 26) as u8));
            n /= 26;
        }
        s
    }

    #[test]
    fn any_number_of_distinct_unknown_identifiers_is_held_apart() {
        // Past the 16,383 identifiers a slot key holds, and past the size where the lookup
        // switches to a hash map.
        let n = 20_000;
        let mut b = crate::model::TreeBuilder::new();
        let root = NodeId::ROOT;
        for i in 0..n {
            let name = unknown_name(i);
            // One value (the short form for the first ones), two values, a composed value.
            match i % 3 {
                0 => b.add_prop(root, &name, [i.to_string()]),
                1 => b.add_prop(root, &name, [i.to_string(), "b".to_string()]),
                _ => b.add_prop(root, &name, [PropValue::composed(&i.to_string(), "c")]),
            }
        }
        let mut t = b.build();
        assert_eq!(t.unknown.len(), n);
        assert!(t.unknown_index.is_some());
        let check = |t: &GameTree, replaced: usize| {
            let props: Vec<Property<'_>> = t.root().props().collect();
            assert_eq!(props.len(), n);
            for (i, p) in props.iter().enumerate() {
                assert_eq!(p.ident(), unknown_name(i));
                assert!(!p.known() && p.def().is_none());
                let first = if i == replaced { "new".to_string() } else { i.to_string() };
                let texts: Vec<&str> = p.values().map(|v| v.as_str()).collect();
                match i % 3 {
                    _ if i == replaced => assert_eq!(texts, ["new"]),
                    0 => assert_eq!(texts, [first.as_str()]),
                    1 => assert_eq!(texts, [first.as_str(), "b"]),
                    _ => assert_eq!(p.values().next().unwrap().parts(), Some((first.as_str(), "c"))),
                }
            }
            // Keys are the same exactly for the same identifier.
            let keys: std::collections::HashSet<u32> = props.iter().map(|p| p.ident_key()).collect();
            assert_eq!(keys.len(), n);
        };
        check(&t, usize::MAX);
        // Setting and removing find the identifier itself, not another sharing its slot key.
        let late = n - 5;
        t.set_prop(root, &unknown_name(late), ["new"]);
        check(&t, late);
        let gone = n - 1;
        assert_eq!(t.remove_prop(root, &unknown_name(gone)), 1);
        assert_eq!(t.root().props().count(), n - 1);
        assert!(t.root().get(&unknown_name(gone)).is_none());
        assert_eq!(t.root().value(&unknown_name(late)), Some("new"));
        // A copy through the builder keeps every identifier.
        let copy = t.to_builder().build();
        assert_eq!(copy.root().props().count(), n - 1);
        assert!(
            copy.root().props().zip(t.root().props()).all(|(a, b)| a.ident() == b.ident() && a.values().eq(b.values()))
        );
    }

    #[test]
    fn lone_moves_are_told_from_their_one_slot() {
        let read = crate::read(&b"(;B[aa];W[sr];B[pd]C[x];W[zz];B[tt]BL[30];W[])"[..]).unwrap();
        let game = &read.collection.games[0];
        let moves: Vec<Option<[u8; 3]>> = game.nodes().map(|n| game.lone_move(n.id())).collect();
        // The root's move, then a move alone, a move beside a comment, the last letters of the
        // alphabet, a move beside a time left, a pass written empty.
        assert_eq!(moves, [Some(*b"Baa"), Some(*b"Wsr"), None, Some(*b"Wzz"), None, None]);
    }

    fn sample() -> GameTree {
        // root -> a -> b ; a -> c ; root -> d
        let mut t = GameTree::with_source(Arc::new("pdSZ".to_string()));
        t.push_node(None, None);
        let sz = t.key_for("SZ");
        let (loc, len) = t.own_text("19");
        t.push_prop(sz, &[GameTree::val(loc, len, None)]);
        let a = t.push_node(Some(0), None);
        let bk = t.key_for("B");
        t.push_prop(bk, &[GameTree::val(GameTree::src_loc(0), 2, None)]);
        let b = t.push_node(Some(a), None);
        t.push_prop_owned("XY", &["private".into()]);
        let c = t.push_node(Some(a), Some(b));
        t.push_prop_owned("AB", &[PropValue::composed("aa", "bb"), "cc".into()]);
        let _d = t.push_node(Some(0), Some(a));
        let _ = c;
        t.finish();
        t
    }

    #[test]
    fn borrowed_values_are_stored_as_owned_ones() {
        let long = "x".repeat(70_000);
        let cases: Vec<(&str, Vec<NewValue>, Vec<PropValue>)> = vec![
            ("B", vec![NewValue::Plain("pd")], vec!["pd".into()]),
            ("C", vec![NewValue::Plain("")], vec!["".into()]),
            ("C", vec![NewValue::Plain(&long)], vec![long.as_str().into()]),
            ("C", vec![NewValue::Pair("a", "b", false)], vec!["a:b".into()]),
            ("LB", vec![NewValue::Pair("dd", "A", true)], vec![PropValue::composed("dd", "A")]),
            (
                "AB",
                vec![NewValue::Pair("aa", "bb", true), NewValue::Plain("cc")],
                vec![PropValue::composed("aa", "bb"), "cc".into()],
            ),
            ("XY", vec![NewValue::Plain("private")], vec!["private".into()]),
        ];
        let (mut parts, mut owned) = (GameTree::new(), GameTree::new());
        for t in [&mut parts, &mut owned] {
            t.push_node(None, None);
        }
        for (ident, new, old) in &cases {
            parts.push_prop_parts(ident, new);
            owned.push_prop_owned(ident, old);
        }
        assert!(parts == owned);
        assert_eq!(format!("{:?}", (&parts.slots, &parts.values)), format!("{:?}", (&owned.slots, &owned.values)));
        assert_eq!(parts.own, owned.own);
    }

    #[test]
    fn structure_follows_pre_order() {
        let t = sample();
        assert_eq!(t.len(), 5);
        assert_eq!(t.children(NodeId(0)).collect::<Vec<_>>(), [NodeId(1), NodeId(4)]);
        assert_eq!(t.children(NodeId(1)).collect::<Vec<_>>(), [NodeId(2), NodeId(3)]);
        assert_eq!(t.parent(NodeId(3)), Some(NodeId(1)));
        assert_eq!(t.parent(NodeId(4)), Some(NodeId(0)));
        assert_eq!(t.first_child(NodeId(2)), None);
        assert_eq!(t.main_line().map(|n| n.id().0).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn values_come_from_source_and_own_buffers() {
        let t = sample();
        assert_eq!(t.node(NodeId(1)).value("B"), Some("pd"));
        assert_eq!(t.root().value("SZ"), Some("19"));
        assert_eq!(t.node(NodeId(2)).value("XY"), Some("private"));
        let ab = t.node(NodeId(3)).get("AB").unwrap();
        let vals: Vec<_> = ab.values().collect();
        assert_eq!(vals.len(), 2);
        assert_eq!(vals[0].parts(), Some(("aa", "bb")));
        assert_eq!(vals[1].as_str(), "cc");
        assert_eq!(ab.len(), 2);
    }

    #[test]
    fn typed_point_and_colour_views() {
        let mut t = sample();
        t.set_prop(NodeId(3), "PL", ["W"]);
        let n = t.node(NodeId(3));
        let pts: Vec<String> = n.get("AB").unwrap().points().map(|p| p.to_sgf().unwrap()).collect();
        assert_eq!(pts, ["aa", "ba", "ab", "bb", "cc"]);
        assert_eq!(n.get("PL").unwrap().color(), Some(Color::White));
    }

    #[test]
    fn repeated_properties_read_as_one_list() {
        let mut b = crate::model::TreeBuilder::new();
        let r = b.root();
        b.add_prop(r, "AB", ["dp"]);
        b.add_prop(r, "C", ["x"]);
        b.add_prop(r, "AB", [PropValue::new("pd"), PropValue::composed("aa", "ab")]);
        let c = b.add_child(r);
        b.add_prop(c, "B", ["tt"]);
        b.add_prop(c, "W", ["tt"]);
        let t = b.build();
        assert_eq!(t.root().values_of("AB").count(), 3);
        let points: Vec<String> = t.root().points_of("AB").filter_map(|p| p.to_sgf()).collect();
        assert_eq!(points, ["dp", "pd", "aa", "ab"]);
        assert_eq!(t.root().values_of("AW").count(), 0);
        // A node `B[tt]W[tt]` holds two moves.
        assert_eq!(t.main_line_moves(), 2);
    }

    #[test]
    fn set_and_remove_props_keep_other_nodes() {
        let mut t = sample();
        t.set_prop(NodeId(0), "CA", ["UTF-8"]);
        t.set_prop(NodeId(0), "SZ", ["9"]);
        assert_eq!(t.root().props().map(|p| p.ident()).collect::<Vec<_>>(), ["SZ", "CA"]);
        assert_eq!(t.board_size(), BoardSize::square(9));
        assert_eq!(t.node(NodeId(1)).value("B"), Some("pd"));
        assert_eq!(t.remove_prop(NodeId(0), "SZ"), 1);
        assert_eq!(t.root().props().map(|p| p.ident()).collect::<Vec<_>>(), ["CA"]);
        assert_eq!(t.node(NodeId(2)).value("XY"), Some("private"));
    }

    #[test]
    fn moves_take_one_slot_and_read_as_their_text() {
        assert_eq!((props::index_of("B"), props::index_of("W")), (Some(KEY_B), Some(KEY_W)));
        assert_eq!(PAIRS.len(), 26 * 26 * 2);
        for (i, pair) in PAIRS.as_bytes().chunks(2).enumerate() {
            assert_eq!(move_slot(KEY_B, pair), Some(MOVE_SLOT | i as u16), "{pair:?}");
        }
        assert_eq!(move_slot(KEY_W, b"pd"), Some(MOVE_SLOT | MOVE_W | (15 * 26 + 3)));
        assert_eq!((move_slot(KEY_B, b"pD"), move_slot(KEY_B, b"p"), move_slot(2, b"pd")), (None, None, None));
        let mut t = GameTree::with_source(Arc::new("B[pd]W[tt]B[]W[Pd]".to_string()));
        t.push_node(None, None);
        for (key, at, len) in [(KEY_B, 2, 2), (KEY_W, 7, 2), (KEY_B, 12, 0), (KEY_W, 15, 2)] {
            t.push_prop_single(u32::from(key), GameTree::val(GameTree::src_loc(at), len, None));
        }
        t.push_move_node(KEY_W, b'p', b'd', 0);
        t.push_prop_owned("B", &["qq".into()]);
        t.finish();
        assert_eq!(t.slots.len(), 1 + 1 + WIDE + WIDE + 1 + 1);
        let root: Vec<(&str, &str)> = t.root().props().map(|p| (p.ident(), p.first().unwrap())).collect();
        assert_eq!(root, [("B", "pd"), ("W", "tt"), ("B", ""), ("W", "Pd")]);
        assert_eq!(t.root().props().len(), 4);
        let child: Vec<&str> = t.node(NodeId(1)).props().map(|p| p.first().unwrap()).collect();
        assert_eq!(child, ["pd", "qq"]);
        assert_eq!(t.prop_total(), 6);
        assert!(t.own.is_empty());
        // Edits move slots of either width.
        t.set_prop(NodeId(0), "W", ["a long value"]);
        t.insert_prop(NodeId(0), 1, "C", ["x"]);
        t.set_prop(NodeId(1), "B", ["dd"]);
        assert_eq!(t.remove_prop(NodeId(0), "B"), 2);
        let root: Vec<(&str, &str)> = t.root().props().map(|p| (p.ident(), p.first().unwrap())).collect();
        assert_eq!(root, [("C", "x"), ("W", "a long value"), ("W", "Pd")]);
        assert_eq!(
            t.node(NodeId(1)).props().map(|p| (p.ident(), p.first().unwrap())).collect::<Vec<_>>(),
            [("W", "pd"), ("B", "dd")]
        );
        assert_eq!(t.prop_total(), 5);
        t.push_move_node(KEY_B, b'a', b'a', 0);
        let mut looked = Vec::new();
        t.each_beyond_plain_moves(|_, _| true, |id| looked.push(id.0));
        assert_eq!(looked, [0, 1]);
        t.push_prop_owned("C", &["x".into()]);
        let mut looked = Vec::new();
        t.each_beyond_plain_moves(|key, v| key == 8 && v == "x", |id| looked.push(id.0));
        assert_eq!(looked, [0, 1]);
        looked.clear();
        t.each_beyond_plain_moves(|_, _| false, |id| looked.push(id.0));
        assert_eq!(looked, [0, 1, 2]);
    }

    /// [`GameTree::each_beyond_plain_moves`] node by node, without its block skip.
    fn beyond_one_by_one(t: &GameTree, plain: impl Fn(u16, &str) -> bool) -> Vec<u32> {
        let mut out = Vec::new();
        for i in 0..t.len() {
            let (s, e) = t.prop_range(NodeId(i as u32));
            let heads: Vec<usize> = t.heads(s, e).collect();
            let single = |at: usize| {
                let p = t.prop_at(at);
                (t.slots[at] & MOVE_SLOT == 0 && p.len < PAIR && plain(p.key, t.single_text(p))).then_some(p.key)
            };
            let skip = i > 0
                && heads.first().is_some_and(|&h| t.slots[h] & MOVE_SLOT != 0)
                && match heads[1..] {
                    [] => true,
                    [a] => single(a).is_some(),
                    [a, b] => single(a).is_some() && single(b).is_some() && single(a) != single(b),
                    _ => false,
                };
            if !skip {
                out.push(i as u32);
            }
        }
        out
    }

    #[test]
    fn plain_moves_are_skipped_a_block_at_a_time_as_one_by_one() {
        let opts = crate::ReadOptions { no_repair: true, ..Default::default() };
        let kinds =
            [";B[aa]", ";W[bb]", ";B[cc]BL[30]", ";W[dd]BL[1]WL[2]", ";B[ee]BL[1]BL[2]", ";", ";C[x]B[ff]", ";B[]"];
        let mut seed = 7u64;
        for len in [0usize, 1, 15, 16, 17, 33, 100, 400] {
            for _ in 0..8 {
                let mut text = String::from("(;GM[1]");
                for _ in 0..len {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // Mostly plain moves, as in real games.
                    let k = (seed >> 33) as usize % 24;
                    text.push_str(if k < kinds.len() { kinds[k] } else { kinds[k % 2] });
                }
                text.push(')');
                let read = crate::Format::SGF.read(text.into_bytes(), &opts).unwrap();
                for t in &read.collection.games {
                    for plain in [|_: u16, _: &str| true, |k: u16, v: &str| k == 58 && v == "30"] {
                        let mut looked = Vec::new();
                        t.each_beyond_plain_moves(plain, |id| looked.push(id.0));
                        assert_eq!(looked, beyond_one_by_one(t, plain), "{len}");
                    }
                }
            }
        }
    }

    #[test]
    fn equality_ignores_storage() {
        let a = sample();
        let mut b = sample();
        assert_eq!(a, b);
        b.set_prop(NodeId(1), "B", ["pd"]); // same text, now in the own buffer
        assert_eq!(a, b);
        b.set_prop(NodeId(1), "B", ["dd"]);
        assert_ne!(a, b);
    }
}
