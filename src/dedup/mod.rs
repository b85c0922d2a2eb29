//! Duplicate games: the same moves on the same board, up to the board's symmetries
//! ([formats/archives.md](crate::spec::archives), "Duplicates").
//!
//! Each game gets a [`Fingerprint`]: its starting stones and main-line moves written in the
//! orientation of the board (of its 8 symmetries, 4 on a board that is not square) that makes
//! the sequence lexicographically least, found in one pass over the moves. Two games are the same
//! when their fingerprints are equal; a game whose fingerprint is a proper prefix of another's is
//! an unfinished copy of it. [`Dedup`] groups fingerprints by hash (never comparing pairs), finds
//! prefixes through a hash of every prefix of every game at the lengths that shorter games have,
//! and ranks the copies of each group: most moves, then most game information, then most
//! comments, then the order they were added in.
//!
//! ```
//! use kifu::dedup::{Dedup, Fingerprint};
//! let read = |s: &str| kifu::read(s.as_bytes()).unwrap().collection.games.remove(0);
//! let a = read("(;SZ[19]PB[Shusaku];B[pd];W[dp];B[pq];W[dd])");
//! // The same game turned a quarter, without the players' names:
//! let b = read("(;SZ[19];B[pp];W[dd];B[cp];W[pd])");
//! let mut dedup = Dedup::new();
//! dedup.add(Fingerprint::of(&a));
//! dedup.add(Fingerprint::of(&b));
//! let groups = dedup.groups();
//! assert_eq!(groups.len(), 1);
//! assert_eq!(groups[0].copies[0].index, 0); // kept: it has more game information
//! ```

use crate::model::{BoardSize, Color, GameTree, Move, Point};
use std::collections::HashMap;

/// Shorter copies that are a prefix of a longer game are taken as unfinished copies of it from
/// this many moves on ([`Dedup::with_min_prefix`]); below it a short game is too likely to be a
/// common opening of two different games.
pub const MIN_PREFIX: usize = 20;

/// One of the board's symmetries: swap the axes (transpose) first, then mirror each axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Sym {
    transpose: bool,
    flip_x: bool,
    flip_y: bool,
}

impl Sym {
    const ALL: [Sym; 8] = {
        let mut all = [Sym { transpose: false, flip_x: false, flip_y: false }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Sym { transpose: i & 4 != 0, flip_x: i & 1 != 0, flip_y: i & 2 != 0 };
            i += 1;
        }
        all
    };

    /// The symmetry as a matrix on centred coordinates, `[[a, b], [c, d]]`: x' = a·x + b·y,
    /// y' = c·x + d·y (y grows downwards, as on SGF boards).
    fn matrix(self) -> [[i8; 2]; 2] {
        let (sx, sy) = (if self.flip_x { -1 } else { 1 }, if self.flip_y { -1 } else { 1 });
        if self.transpose { [[0, sx], [sy, 0]] } else { [[sx, 0], [0, sy]] }
    }
}

/// How a copy is turned relative to the kept copy of its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// As the kept copy.
    Same,
    /// Turned a quarter clockwise.
    Rotated90,
    /// Turned half a turn.
    Rotated180,
    /// Turned a quarter counter-clockwise.
    Rotated270,
    /// Mirrored left to right.
    MirroredLeftRight,
    /// Mirrored top to bottom.
    MirroredTopBottom,
    /// Mirrored on the diagonal from the top left corner.
    MirroredDiagonal,
    /// Mirrored on the diagonal from the top right corner.
    MirroredAntiDiagonal,
}

impl Orientation {
    /// The name used in kifu's outputs: `same`, `rotated-90`, `rotated-180`, `rotated-270`,
    /// `mirrored-left-right`, `mirrored-top-bottom`, `mirrored-diagonal`,
    /// `mirrored-anti-diagonal`.
    pub fn as_str(self) -> &'static str {
        match self {
            Orientation::Same => "same",
            Orientation::Rotated90 => "rotated-90",
            Orientation::Rotated180 => "rotated-180",
            Orientation::Rotated270 => "rotated-270",
            Orientation::MirroredLeftRight => "mirrored-left-right",
            Orientation::MirroredTopBottom => "mirrored-top-bottom",
            Orientation::MirroredDiagonal => "mirrored-diagonal",
            Orientation::MirroredAntiDiagonal => "mirrored-anti-diagonal",
        }
    }

    /// How a copy is turned from the kept one, each given by the symmetry that took its game to
    /// the fingerprint's orientation: the kept copy's board taken to the copy's, `copy⁻¹ · kept`.
    fn between(copy: Sym, kept: Sym) -> Orientation {
        let (k, c) = (kept.matrix(), copy.matrix());
        // A signed permutation matrix's inverse is its transpose.
        let inv = [[c[0][0], c[1][0]], [c[0][1], c[1][1]]];
        let m = |i: usize, j: usize| inv[i][0] * k[0][j] + inv[i][1] * k[1][j];
        match [[m(0, 0), m(0, 1)], [m(1, 0), m(1, 1)]] {
            [[1, 0], [0, 1]] => Orientation::Same,
            [[-1, 0], [0, -1]] => Orientation::Rotated180,
            [[-1, 0], [0, 1]] => Orientation::MirroredLeftRight,
            [[1, 0], [0, -1]] => Orientation::MirroredTopBottom,
            [[0, 1], [1, 0]] => Orientation::MirroredDiagonal,
            [[0, -1], [-1, 0]] => Orientation::MirroredAntiDiagonal,
            [[0, -1], [1, 0]] => Orientation::Rotated90,
            _ => Orientation::Rotated270,
        }
    }
}

impl std::fmt::Display for Orientation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Token bits: the point's index (or [`PASS`], [`OFF_BOARD`]) in the low 12 bits, white in bit
/// 12, a starting stone (setup) in bit 13.
const WHITE: u16 = 1 << 12;
const SETUP: u16 = 1 << 13;
const PASS: u16 = 0xFFF;
const OFF_BOARD: u16 = 0xFFE;

/// What identifies a game for [`Dedup`], and what ranks its copies.
///
/// The signature is the board size (as the larger side by the smaller: a 9×13 game turned a
/// quarter is the 13×9 one), the stones the game starts from (`AB`/`AW` on the main line up to
/// its first move: handicap stones), then the main line's moves with their colours, passes
/// included but the passes that end the game left out (servers record the closing passes
/// differently). Setup placed later in the game and `AE` are not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The board, larger side first.
    size: (u8, u8),
    /// The starting stones (sorted) then the moves, in the least orientation.
    tokens: Vec<u16>,
    /// How many of `tokens` are starting stones.
    setup: usize,
    /// The symmetry that took the game to `tokens`.
    sym: Sym,
    /// Moves on the main line (`B`/`W` properties), for ranking.
    pub main_line_moves: usize,
    /// Game-information properties with a value (players, ranks, result, date, event …).
    pub info: usize,
    /// Nodes with a comment (`C`).
    pub comments: usize,
}

impl Fingerprint {
    /// The fingerprint of `game`.
    pub fn of(game: &GameTree) -> Fingerprint {
        let size = game.board_size();
        let mut setup = Vec::new();
        let mut moves = Vec::new();
        for node in game.main_line() {
            let mv = node.mv_on(size);
            if moves.is_empty() {
                for p in node.props() {
                    if let Some(Some(color)) = p.setup() {
                        setup.extend(p.points().map(|pt| (color, pt)));
                    }
                }
            }
            if let Some(mv) = mv {
                moves.push(mv);
            }
        }
        while matches!(moves.last(), Some((_, Move::Pass))) {
            moves.pop();
        }
        let found = game.info_texts().found;
        let info = found.iter().filter(|v| v.is_some_and(|s| !s.trim().is_empty())).count();
        let comments =
            game.nodes().filter(|n| n.get("C").is_some_and(|c| c.first().is_some_and(|t| !t.is_empty()))).count();
        let (sym, setup_len, tokens) = canonical(size, &setup, &moves);
        Fingerprint {
            size: (size.width.max(size.height), size.width.min(size.height)),
            tokens,
            setup: setup_len,
            sym,
            main_line_moves: game.main_line_moves(),
            info,
            comments,
        }
    }

    /// Moves in the signature (the main line's, less the closing passes).
    pub fn moves(&self) -> usize {
        self.tokens.len() - self.setup
    }

    /// Starting stones in the signature.
    pub fn setup_stones(&self) -> usize {
        self.setup
    }

    /// The starting stones: how many black, how many white.
    pub fn setup_colors(&self) -> (usize, usize) {
        let white = self.tokens[..self.setup].iter().filter(|&&t| t & WHITE != 0).count();
        (self.setup - white, white)
    }

    /// Whether there is anything to compare: a game with neither moves nor starting stones is
    /// nobody's copy.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// A 64-bit hash of the signature (size and tokens), the same for every copy of a game.
    pub fn hash(&self) -> u64 {
        self.prefix_hashes().last().unwrap_or(0)
    }

    /// The hash of the size and the first `k` tokens, for every `k` from 0 to the end (FNV-1a
    /// over the tokens, so each is one step from the one before).
    fn prefix_hashes(&self) -> impl Iterator<Item = u64> + '_ {
        let start = fnv(fnv(0xcbf2_9ce4_8422_2325, u16::from(self.size.0)), u16::from(self.size.1));
        std::iter::once(start).chain(self.tokens.iter().scan(start, |h, &t| {
            *h = fnv(*h, t);
            Some(*h)
        }))
    }
}

fn fnv(h: u64, t: u16) -> u64 {
    let h = (h ^ u64::from(t & 0xFF)).wrapping_mul(0x0000_0100_0000_01b3);
    (h ^ u64::from(t >> 8)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The token of a stone of `color` at `mv` seen through `sym` on a `size` board.
fn token(sym: Sym, size: BoardSize, color: Color, mv: Move, setup: bool) -> u16 {
    let (w, h) = (u16::from(size.width), u16::from(size.height));
    let point = match mv {
        Move::Pass => PASS,
        Move::Play(Point { x, y }) if u16::from(x) < w && u16::from(y) < h => {
            let (mut x, mut y, tw, th) =
                if sym.transpose { (u16::from(y), u16::from(x), h, w) } else { (u16::from(x), u16::from(y), w, h) };
            if sym.flip_x {
                x = tw - 1 - x;
            }
            if sym.flip_y {
                y = th - 1 - y;
            }
            y * tw + x
        }
        Move::Play(_) => OFF_BOARD,
    };
    point | if color == Color::White { WHITE } else { 0 } | if setup { SETUP } else { 0 }
}

/// The least of the game's orientations: the symmetry, the number of setup tokens and the
/// tokens. One pass: every symmetry still tied for least gives its token at each place, those
/// above the least drop out, and once one is left the rest is written with it alone. The starting
/// stones are a set, sorted in each orientation before the moves are compared.
///
/// The least orientation of a game is also least for its every prefix (were another orientation
/// less on a prefix, it would be less on the whole), so a prefix copy's fingerprint is exactly the
/// start of the longer game's, however either was turned.
fn canonical(size: BoardSize, setup: &[(Color, Point)], moves: &[(Color, Move)]) -> (Sym, usize, Vec<u16>) {
    // The orientations that keep the larger side across: all 8 on a square board.
    let mut alive: Vec<Sym> = Sym::ALL
        .into_iter()
        .filter(|s| size.width == size.height || s.transpose == (size.width < size.height))
        .collect();
    let mut setups: Vec<Vec<u16>> = alive
        .iter()
        .map(|&s| {
            let mut t: Vec<u16> = setup.iter().map(|&(c, p)| token(s, size, c, Move::Play(p), true)).collect();
            t.sort_unstable();
            t.dedup();
            t
        })
        .collect();
    if let Some(least) = setups.iter().min().cloned() {
        let keep: Vec<bool> = setups.iter().map(|t| *t == least).collect();
        let mut k = keep.iter();
        alive.retain(|_| k.next() == Some(&true));
        setups.retain(|t| *t == least);
    }
    let mut tokens = setups.swap_remove(0);
    let setup_len = tokens.len();
    tokens.reserve(moves.len());
    let mut i = 0;
    while alive.len() > 1 && i < moves.len() {
        let (color, mv) = moves[i];
        let least = alive.iter().map(|&s| token(s, size, color, mv, false)).min().unwrap_or(0);
        alive.retain(|&s| token(s, size, color, mv, false) == least);
        tokens.push(least);
        i += 1;
    }
    let sym = alive[0];
    tokens.extend(moves[i..].iter().map(|&(c, m)| token(sym, size, c, m, false)));
    (sym, setup_len, tokens)
}

/// Why a group's first copy is the one kept: the first of these that sets it apart from the
/// next best copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeptBecause {
    /// It has the most moves.
    MostMoves,
    /// As many moves as the next, and the most game information.
    MostInformation,
    /// As many moves and as much information, and the most comments.
    MostComments,
    /// Equal on all of these: the first in path order.
    PathOrder,
}

impl KeptBecause {
    /// `most-moves`, `most-information`, `most-comments`, `path-order`.
    pub fn as_str(self) -> &'static str {
        match self {
            KeptBecause::MostMoves => "most-moves",
            KeptBecause::MostInformation => "most-information",
            KeptBecause::MostComments => "most-comments",
            KeptBecause::PathOrder => "path-order",
        }
    }
}

/// What a copy is to the kept copy of its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// The kept copy itself.
    Kept,
    /// The same moves (up to a symmetry).
    Same,
    /// Its moves are the kept copy's first moves: an unfinished copy.
    Prefix,
}

impl Relation {
    /// `kept`, `same`, `prefix`.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Kept => "kept",
            Relation::Same => "same",
            Relation::Prefix => "prefix",
        }
    }
}

/// One copy in a [`Group`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    /// The index the fingerprint was given by [`Dedup::add`].
    pub index: usize,
    /// What it is to the kept copy.
    pub relation: Relation,
    /// How it is turned relative to the kept copy.
    pub orientation: Orientation,
    /// Moves in its signature.
    pub moves: usize,
}

/// Two or more copies of one game, the kept copy first, then the others in rank order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The copies; `copies[0]` is kept.
    pub copies: Vec<Copy>,
    /// Why `copies[0]` is kept.
    pub kept_because: KeptBecause,
}

/// Finds the groups of copies among fingerprints added in path order.
///
/// Memory: the fingerprints (two bytes a move) and a few words per game. Time: linear in the
/// moves added, plus a hash look-up for each prefix length that some shorter game on the same
/// board has, at most one per move.
#[derive(Debug, Default)]
pub struct Dedup {
    prints: Vec<Fingerprint>,
    min_prefix: usize,
}

impl Dedup {
    /// An empty set, prefixes taken from [`MIN_PREFIX`] moves.
    pub fn new() -> Dedup {
        Dedup { prints: Vec::new(), min_prefix: MIN_PREFIX }
    }

    /// Shorter games are unfinished copies of a longer one when they have at least `moves`
    /// moves (at least 1); `usize::MAX` finds only games with the same moves.
    pub fn with_min_prefix(mut self, moves: usize) -> Dedup {
        self.min_prefix = moves.max(1);
        self
    }

    /// Adds a game's fingerprint; returns its index (0, 1, 2 … in the order added: add them in
    /// path order, which breaks the last tie).
    pub fn add(&mut self, print: Fingerprint) -> usize {
        self.prints.push(print);
        self.prints.len() - 1
    }

    /// The fingerprint added as `index`.
    pub fn get(&self, index: usize) -> Option<&Fingerprint> {
        self.prints.get(index)
    }

    /// Number of fingerprints added.
    pub fn len(&self) -> usize {
        self.prints.len()
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.prints.is_empty()
    }

    /// The rank of a copy: larger is better.
    fn rank(&self, i: usize) -> (usize, usize, usize, usize, std::cmp::Reverse<usize>) {
        let p = &self.prints[i];
        (p.moves(), p.main_line_moves, p.info, p.comments, std::cmp::Reverse(i))
    }

    /// The groups of two or more copies, in the order of their kept copies' indexes.
    ///
    /// Copies with the same signature make a class (found by hash, then checked token by token).
    /// A class of at least the minimum prefix length that is the start of longer classes joins
    /// the longest of them (the best ranked on a tie); a short game that begins two different
    /// longer games so joins one group, not both.
    pub fn groups(&self) -> Vec<Group> {
        // Classes: the same size and tokens.
        let mut by_hash: HashMap<((u8, u8), u64), Vec<usize>> = HashMap::with_capacity(self.prints.len());
        let mut class_of = vec![usize::MAX; self.prints.len()];
        let mut classes: Vec<Vec<usize>> = Vec::new();
        for (i, p) in self.prints.iter().enumerate() {
            if p.is_empty() {
                continue;
            }
            let reps = by_hash.entry((p.size, p.hash())).or_default();
            match reps.iter().find(|&&c| self.prints[classes[c][0]].tokens == p.tokens) {
                Some(&c) => {
                    classes[c].push(i);
                    class_of[i] = c;
                }
                None => {
                    reps.push(classes.len());
                    class_of[i] = classes.len();
                    classes.push(vec![i]);
                }
            }
        }
        // Prefixes: the classes that may be a prefix, by (size, length, hash); the lengths
        // they have, by size.
        let mut short: HashMap<((u8, u8), usize, u64), Vec<usize>> = HashMap::new();
        let mut lengths: HashMap<(u8, u8), Vec<usize>> = HashMap::new();
        for (c, members) in classes.iter().enumerate() {
            let p = &self.prints[members[0]];
            if p.moves() >= self.min_prefix {
                short.entry((p.size, p.tokens.len(), p.hash())).or_default().push(c);
                lengths.entry(p.size).or_default().push(p.tokens.len());
            }
        }
        for l in lengths.values_mut() {
            l.sort_unstable();
            l.dedup();
        }
        // For each class, the longest class it begins (best ranked on a tie).
        let mut parent: Vec<Option<usize>> = vec![None; classes.len()];
        if !short.is_empty() {
            for (c, members) in classes.iter().enumerate() {
                let p = &self.prints[members[0]];
                let Some(lens) = lengths.get(&p.size) else { continue };
                let hashes: Vec<u64> = p.prefix_hashes().collect();
                for &k in lens.iter().take_while(|&&k| k < p.tokens.len()) {
                    let Some(found) = short.get(&(p.size, k, hashes[k])) else { continue };
                    for &s in found {
                        let sp = &self.prints[classes[s][0]];
                        if sp.tokens[..] != p.tokens[..k] {
                            continue;
                        }
                        let better = match parent[s] {
                            None => true,
                            Some(q) => {
                                let best = |x: usize| classes[x].iter().map(|&i| self.rank(i)).max();
                                self.prints[classes[q][0]].tokens.len() < p.tokens.len()
                                    || (self.prints[classes[q][0]].tokens.len() == p.tokens.len() && best(c) > best(q))
                            }
                        };
                        if better {
                            parent[s] = Some(c);
                        }
                    }
                }
            }
        }
        // A class's group is the class at the top of its chain of parents: the longest game.
        // Each parent is longer, so the chain ends; the top is found once per class.
        let mut top: Vec<usize> = (0..classes.len()).collect();
        let mut order: Vec<usize> = (0..classes.len()).collect();
        order.sort_unstable_by_key(|&c| std::cmp::Reverse(self.prints[classes[c][0]].tokens.len()));
        for &c in &order {
            if let Some(p) = parent[c] {
                top[c] = top[p];
            }
        }
        let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
        for (c, m) in classes.iter().enumerate() {
            members.entry(top[c]).or_default().extend(m);
        }
        let mut groups: Vec<Group> = members
            .into_values()
            .filter(|m| m.len() > 1)
            .map(|mut m| {
                m.sort_unstable_by_key(|&i| std::cmp::Reverse(self.rank(i)));
                let kept = m[0];
                let (k, next) = (self.rank(kept), self.rank(m[1]));
                let kept_because = if k.0 != next.0 || k.1 != next.1 {
                    KeptBecause::MostMoves
                } else if k.2 != next.2 {
                    KeptBecause::MostInformation
                } else if k.3 != next.3 {
                    KeptBecause::MostComments
                } else {
                    KeptBecause::PathOrder
                };
                let kp = &self.prints[kept];
                let copies = m
                    .iter()
                    .map(|&i| {
                        let p = &self.prints[i];
                        let relation = if i == kept {
                            Relation::Kept
                        } else if class_of[i] == class_of[kept] {
                            Relation::Same
                        } else {
                            Relation::Prefix
                        };
                        Copy { index: i, relation, orientation: Orientation::between(p.sym, kp.sym), moves: p.moves() }
                    })
                    .collect();
                Group { copies, kept_because }
            })
            .collect();
        groups.sort_unstable_by_key(|g| g.copies[0].index);
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> GameTree {
        crate::read(text.as_bytes()).unwrap().collection.games.remove(0)
    }

    /// A game of `n` moves spread over a 19×19 board, with no symmetry of its own.
    fn moves(n: usize) -> Vec<(u8, u8)> {
        (0..n).map(|i| (((i * 7 + 3) % 19) as u8, ((i * 11 + 2) % 19) as u8)).collect()
    }

    fn sgf(size: (u8, u8), pts: &[(u8, u8)], head: &str, f: impl Fn(u8, u8) -> (u8, u8)) -> String {
        let mut s = format!(
            "(;SZ[{}]{head}",
            if size.0 == size.1 { size.0.to_string() } else { format!("{}:{}", size.0, size.1) }
        );
        for (i, &(x, y)) in pts.iter().enumerate() {
            let (x, y) = f(x, y);
            s.push_str(&format!(
                ";{}[{}{}]",
                if i % 2 == 0 { 'B' } else { 'W' },
                (b'a' + x) as char,
                (b'a' + y) as char
            ));
        }
        s.push(')');
        s
    }

    fn print(text: &str) -> Fingerprint {
        Fingerprint::of(&game(text))
    }

    #[test]
    fn every_symmetry_gives_the_same_fingerprint() {
        let pts = moves(40);
        let base = print(&sgf((19, 19), &pts, "", |x, y| (x, y)));
        type Turn = fn(u8, u8) -> (u8, u8);
        let turns: [Turn; 8] = [
            |x, y| (x, y),
            |x, y| (18 - y, x),
            |x, y| (18 - x, 18 - y),
            |x, y| (y, 18 - x),
            |x, y| (18 - x, y),
            |x, y| (x, 18 - y),
            |x, y| (y, x),
            |x, y| (18 - y, 18 - x),
        ];
        let mut seen = std::collections::HashSet::new();
        for t in turns {
            let p = print(&sgf((19, 19), &pts, "", t));
            assert_eq!((p.size, &p.tokens, p.hash()), (base.size, &base.tokens, base.hash()));
            seen.insert(Orientation::between(p.sym, base.sym));
        }
        assert_eq!(seen.len(), 8, "each turn named apart: {seen:?}");
        // A different game is not the same.
        let mut other = pts.clone();
        other.swap(10, 11);
        assert_ne!(print(&sgf((19, 19), &other, "", |x, y| (x, y))).tokens, base.tokens);
    }

    #[test]
    fn orientations_are_named_as_seen() {
        let pts = moves(30);
        let a = print(&sgf((19, 19), &pts, "", |x, y| (x, y)));
        // Turned a quarter clockwise (y down): the point right of the centre goes below it.
        let b = print(&sgf((19, 19), &pts, "", |x, y| (18 - y, x)));
        assert_eq!(Orientation::between(b.sym, a.sym), Orientation::Rotated90);
        assert_eq!(Orientation::between(a.sym, b.sym), Orientation::Rotated270);
        let c = print(&sgf((19, 19), &pts, "", |x, y| (18 - x, y)));
        assert_eq!(Orientation::between(c.sym, a.sym), Orientation::MirroredLeftRight);
    }

    #[test]
    fn boards_that_are_not_square_have_four_symmetries_and_a_quarter_turn_of_their_own() {
        let pts: Vec<(u8, u8)> = (0..25).map(|i| ((i * 5 + 1) % 13, (i * 3 + 2) % 9)).collect();
        let a = print(&sgf((13, 9), &pts, "", |x, y| (x, y)));
        let b = print(&sgf((13, 9), &pts, "", |x, y| (12 - x, 8 - y)));
        assert_eq!(a.tokens, b.tokens);
        // The same game written on a 9×13 board, turned a quarter.
        let c = print(&sgf((9, 13), &pts, "", |x, y| (8 - y, x)));
        assert_eq!((a.size, &a.tokens), (c.size, &c.tokens));
        // A 13×9 copy is not a 19×19 one.
        assert_ne!(a.size, print(&sgf((19, 19), &pts, "", |x, y| (x, y))).size);
    }

    #[test]
    fn a_rotated_prefix_is_found_even_when_its_moves_are_symmetric() {
        // The first moves lie on the diagonal, so the prefix alone leaves the orientation open;
        // the longer game decides it later. The prefix's fingerprint must still be its start.
        let mut pts: Vec<(u8, u8)> = (0..22).map(|i| ((i % 19) as u8, (i % 19) as u8)).collect();
        pts.truncate(19);
        pts.extend([(3, 15), (15, 3), (2, 16)]);
        pts.extend(moves(40));
        let long = print(&sgf((19, 19), &pts, "PB[a]", |x, y| (x, y)));
        let short = print(&sgf((19, 19), &pts[..25], "", |x, y| (18 - y, x)));
        assert_eq!(&long.tokens[..short.tokens.len()], &short.tokens[..]);
        let diag = print(&sgf((19, 19), &pts[..19], "", |x, y| (18 - x, 18 - y)));
        assert_eq!(&long.tokens[..diag.tokens.len()], &diag.tokens[..]);
        let mut d = Dedup::new();
        d.add(short);
        d.add(long);
        d.add(print(&sgf((19, 19), &moves(30), "", |x, y| (x, y))));
        let g = d.groups();
        assert_eq!(g.len(), 1);
        let rel: Vec<_> = g[0].copies.iter().map(|c| (c.index, c.relation)).collect();
        assert_eq!(rel, [(1, Relation::Kept), (0, Relation::Prefix)]);
        assert_eq!(g[0].kept_because, KeptBecause::MostMoves);
    }

    #[test]
    fn short_prefixes_are_not_copies_and_the_ranking_decides_the_kept_copy() {
        let pts = moves(60);
        let mut d = Dedup::new();
        d.add(print(&sgf((19, 19), &pts[..10], "", |x, y| (x, y)))); // too short to be a prefix
        d.add(print(&sgf((19, 19), &pts, "", |x, y| (x, y))));
        d.add(print(&sgf((19, 19), &pts, "PB[x]PW[y]", |x, y| (y, x))));
        d.add(print(&sgf((19, 19), &pts, "PB[x]PW[y]", |x, y| (x, y))));
        let g = d.groups();
        assert_eq!(g.len(), 1);
        let order: Vec<_> = g[0].copies.iter().map(|c| c.index).collect();
        assert_eq!(order, [2, 3, 1]);
        assert_eq!(g[0].kept_because, KeptBecause::PathOrder);
        assert_eq!(g[0].copies[1].orientation, Orientation::MirroredDiagonal);
        let mut d = Dedup::new();
        d.add(print(&sgf((19, 19), &pts, "PB[x]", |x, y| (x, y))));
        d.add(print(&sgf((19, 19), &pts, "PB[x]C[note]", |x, y| (x, y))));
        assert_eq!(d.groups()[0].kept_because, KeptBecause::MostComments);
        assert_eq!(d.groups()[0].copies[0].index, 1);
        let mut d = Dedup::new().with_min_prefix(5);
        d.add(print(&sgf((19, 19), &pts[..10], "", |x, y| (x, y))));
        d.add(print(&sgf((19, 19), &pts, "", |x, y| (x, y))));
        assert_eq!(d.groups().len(), 1);
    }

    #[test]
    fn setup_stones_are_part_of_the_signature() {
        let pts = moves(30);
        let a = print(&sgf((19, 19), &pts, "HA[2]AB[dd][pp]", |x, y| (x, y)));
        let b = print(&sgf((19, 19), &pts, "HA[2]AB[pp][dd]", |x, y| (x, y)));
        let c = print(&sgf((19, 19), &pts, "", |x, y| (x, y)));
        let d = print(&sgf((19, 19), &pts, "HA[2]AB[dp][pd]", |x, y| (x, y)));
        assert_eq!(a.tokens, b.tokens);
        assert_eq!((a.setup_stones(), a.setup_colors()), (2, (2, 0)));
        assert_ne!(a.tokens, c.tokens);
        assert_ne!(a.tokens, d.tokens);
        // The same handicap game turned: stones and moves turn together.
        let e = print(&sgf((19, 19), &pts, "HA[2]AB[dp][pd]", |x, y| (18 - x, y)));
        assert_eq!(a.tokens, e.tokens);
        // Closing passes are left out; a pass inside the game is kept.
        assert_eq!(print("(;B[aa];W[bb];B[];W[tt])").tokens, print("(;B[aa];W[bb])").tokens);
        assert_ne!(print("(;B[aa];W[];B[bb])").tokens, print("(;B[aa];B[bb])").tokens);
        assert!(print("(;GM[1]PB[x])").is_empty());
    }

    #[test]
    fn a_short_game_that_begins_two_games_joins_the_longest() {
        let pts = moves(80);
        let mut other = pts[..40].to_vec();
        other.extend(moves(100)[60..90].iter().copied());
        let mut d = Dedup::new();
        d.add(print(&sgf((19, 19), &pts[..30], "", |x, y| (x, y))));
        d.add(print(&sgf((19, 19), &other, "", |x, y| (x, y))));
        d.add(print(&sgf((19, 19), &pts, "", |x, y| (x, y))));
        d.add(print(&sgf((19, 19), &pts[..50], "", |x, y| (x, y))));
        let g = d.groups();
        assert_eq!(g.len(), 1);
        let order: Vec<_> = g[0].copies.iter().map(|c| (c.index, c.relation)).collect();
        assert_eq!(order, [(2, Relation::Kept), (3, Relation::Prefix), (0, Relation::Prefix)]);
    }
}
