//! A Go board: plays moves with captures, detects moves on occupied points, suicide and simple
//! ko recaptures, and replays a line of a game tree.

use crate::model::point::MAX_BOARD_SIDE;
use crate::model::{BoardSize, Color, GameTree, Move, NodeId, Point};
use std::fmt;

/// Why a move is illegal.
///
/// ```
/// use kifu::go::{Board, IllegalMove};
/// use kifu::model::{BoardSize, Color, Move, Point};
/// let mut board = Board::new(BoardSize::square(9));
/// board.play(Color::Black, Move::Play(Point::new(4, 4))).unwrap();
/// assert_eq!(board.play(Color::White, Move::Play(Point::new(4, 4))), Err(IllegalMove::Occupied));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The point already holds a stone.
    Occupied,
    /// The move would leave its own group without liberties and captures nothing.
    Suicide,
    /// The move retakes a ko immediately.
    Ko,
    /// The point is not on the board.
    OffBoard,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::Occupied => "the point is occupied",
            IllegalMove::Suicide => "the move is suicide",
            IllegalMove::Ko => "the move retakes a ko",
            IllegalMove::OffBoard => "the point is off the board",
        })
    }
}

/// A board position.
///
/// ```
/// use kifu::go::Board;
/// use kifu::model::{Color, Point};
/// let game = kifu::read(&b"(;SZ[9];B[ba];W[aa];B[ab])"[..]).unwrap().collection.games.remove(0);
/// let replay = Board::replay_main_line(&game);
/// assert_eq!(replay.board.get(Point::new(0, 0)), None, "the white stone in the corner was captured");
/// assert_eq!(replay.board.get(Point::new(1, 0)), Some(Color::Black));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: BoardSize,
    cells: Vec<Option<Color>>,
    ko: Option<Point>,
}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        Board { size, cells: vec![None; size.area()], ko: None }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    fn idx(&self, p: Point) -> usize {
        p.y as usize * self.size.width as usize + p.x as usize
    }

    /// The stone on `p`, if any (`None` also off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.is_on(self.size) { self.cells[self.idx(p)] } else { None }
    }

    /// Put (or with `None`, remove) a stone without playing: setup (`AB`, `AW`, `AE`).
    /// Points off the board are ignored and reported as `false`.
    pub fn set(&mut self, p: Point, stone: Option<Color>) -> bool {
        if !p.is_on(self.size) {
            return false;
        }
        let i = self.idx(p);
        self.cells[i] = stone;
        self.ko = None;
        true
    }

    fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + use<> {
        let (w, h) = (self.size.width, self.size.height);
        let mut v = [None; 4];
        if p.x > 0 {
            v[0] = Some(Point::new(p.x - 1, p.y));
        }
        if p.x + 1 < w {
            v[1] = Some(Point::new(p.x + 1, p.y));
        }
        if p.y > 0 {
            v[2] = Some(Point::new(p.x, p.y - 1));
        }
        if p.y + 1 < h {
            v[3] = Some(Point::new(p.x, p.y + 1));
        }
        v.into_iter().flatten()
    }

    /// The stones of the group holding `p` (of `color`) if it has no liberty, in the order a
    /// depth-first walk from `p` finds them; `None` as soon as a liberty is seen. Most groups
    /// touched by a move have a liberty beside the stone looked at, found without allocating.
    fn dead_group(&self, p: Point, color: Color) -> Option<Vec<Point>> {
        if self.neighbours(p).any(|n| self.cells[self.idx(n)].is_none()) {
            return None;
        }
        // The points seen, one bit each: on the stack for boards up to 52 × 52, the largest SGF
        // sizes (a `BoardSize` made by hand may be larger).
        let words = self.cells.len().div_ceil(64);
        let (mut small, mut large) = ([0u64; SEEN_WORDS], Vec::new());
        let seen: &mut [u64] = if words <= SEEN_WORDS {
            &mut small[..words]
        } else {
            large.resize(words, 0);
            &mut large
        };
        let mut mark = |i: usize| {
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            let new = seen[word] & bit == 0;
            seen[word] |= bit;
            new
        };
        let mut stack = vec![p];
        let mut stones = Vec::new();
        mark(self.idx(p));
        while let Some(q) = stack.pop() {
            stones.push(q);
            for n in self.neighbours(q) {
                let i = self.idx(n);
                match self.cells[i] {
                    None => return None,
                    Some(c) if c == color && mark(i) => stack.push(n),
                    _ => {}
                }
            }
        }
        Some(stones)
    }

    /// Play a move for `color`; returns the captured stones. On an illegal move the board is
    /// left unchanged.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Vec<Point>, IllegalMove> {
        let p = match mv {
            Move::Pass => {
                self.ko = None;
                return Ok(Vec::new());
            }
            Move::Play(p) => p,
        };
        if !p.is_on(self.size) {
            return Err(IllegalMove::OffBoard);
        }
        if self.get(p).is_some() {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some(p) {
            return Err(IllegalMove::Ko);
        }
        let i = self.idx(p);
        self.cells[i] = Some(color);
        let opponent = color.opponent();
        let mut captured = Vec::new();
        for n in self.neighbours(p) {
            if self.get(n) == Some(opponent) {
                if let Some(stones) = self.dead_group(n, opponent) {
                    for s in stones {
                        let j = self.idx(s);
                        if self.cells[j].is_some() {
                            self.cells[j] = None;
                            captured.push(s);
                        }
                    }
                }
            }
        }
        if self.dead_group(p, color).is_some() {
            self.cells[i] = None;
            return Err(IllegalMove::Suicide);
        }
        // A ko: one stone captured by a lone stone (every neighbour of `p` an opponent's stone
        // but the point just emptied, so `p` has no stone of its colour beside it).
        self.ko = (captured.len() == 1
            && self.neighbours(p).all(|n| self.get(n) == Some(opponent) || n == captured[0]))
        .then(|| captured[0]);
        Ok(captured)
    }
}

/// Words of the bit set of points seen while walking a group, on the stack.
const SEEN_WORDS: usize = (MAX_BOARD_SIDE as usize * MAX_BOARD_SIDE as usize).div_ceil(64);

/// Something wrong found while replaying a line.
///
/// ```
/// use kifu::go::{Board, IllegalMove};
/// let game = kifu::read(&b"(;SZ[9];B[ee];W[ee])"[..]).unwrap().collection.games.remove(0);
/// let replay = Board::replay_main_line(&game);
/// assert_eq!(replay.issues.len(), 1);
/// assert_eq!((replay.issues[0].node.index(), replay.issues[0].problem), (2, IllegalMove::Occupied));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayIssue {
    /// The node holding the move.
    pub node: NodeId,
    /// The move's colour.
    pub color: Color,
    /// The point played.
    pub point: Point,
    /// What is wrong.
    pub problem: IllegalMove,
}

/// The result of replaying a line: the final board and every illegal move met on the way.
///
/// ```
/// let game = kifu::read(&b"(;SZ[9];B[ee];W[cc];B[])"[..]).unwrap().collection.games.remove(0);
/// let replay = kifu::go::Board::replay_main_line(&game);
/// assert_eq!(replay.moves, 3);
/// assert!(replay.issues.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Replay {
    /// The position after the last node.
    pub board: Board,
    /// Number of moves played (passes included).
    pub moves: usize,
    /// Illegal moves, in order; each was skipped.
    pub issues: Vec<ReplayIssue>,
}

impl Board {
    /// Replays the main line of `tree` on its board (setup and moves, captures included).
    pub fn replay_main_line(tree: &GameTree) -> Replay {
        let ids: Vec<NodeId> = tree.main_line().map(|n| n.id()).collect();
        Board::replay(tree, &ids)
    }

    /// Replays the given nodes in order (normally a path from the root).
    pub fn replay(tree: &GameTree, path: &[NodeId]) -> Replay {
        let size = tree.board_size();
        let mut board = Board::new(size);
        let mut issues = Vec::new();
        let mut moves = 0;
        for &id in path {
            let node = tree.node(id);
            for p in node.props() {
                let Some(stone) = p.setup() else { continue };
                for pt in p.points() {
                    board.set(pt, stone);
                }
            }
            if let Some((color, mv)) = node.mv_on(size) {
                moves += 1;
                if let Err(problem) = board.play(color, mv) {
                    if let Move::Play(point) = mv {
                        issues.push(ReplayIssue { node: id, color, point, problem });
                    }
                }
            }
        }
        Replay { board, moves, issues }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    #[test]
    fn captures_and_suicide() {
        let mut b = Board::new(BoardSize::square(9));
        b.play(Color::Black, Move::Play(p("ba"))).unwrap();
        b.play(Color::Black, Move::Play(p("ab"))).unwrap();
        assert_eq!(b.play(Color::White, Move::Play(p("aa"))), Err(IllegalMove::Suicide));
        assert_eq!(b.get(p("aa")), None);
        b.play(Color::White, Move::Play(p("ca"))).unwrap();
        b.play(Color::White, Move::Play(p("bb"))).unwrap();
        assert_eq!(b.play(Color::White, Move::Play(p("ac"))).unwrap(), Vec::<Point>::new());
        // black ab is now in atari; white aa captures ab and ba? aa captures both (each one liberty)
        let caps = b.play(Color::White, Move::Play(p("aa"))).unwrap();
        assert_eq!(caps.len(), 2);
        assert_eq!(b.play(Color::Black, Move::Play(p("aa"))), Err(IllegalMove::Occupied));
    }

    #[test]
    fn simple_ko_recapture_is_refused_once() {
        // A ko shape: black at ba, ab, cb, bc-ish; white at ca, bb's neighbours...
        let mut b = Board::new(BoardSize::square(5));
        for s in ["ba", "ab", "bc"] {
            b.play(Color::Black, Move::Play(p(s))).unwrap();
        }
        for s in ["ca", "db", "cc"] {
            b.play(Color::White, Move::Play(p(s))).unwrap();
        }
        b.play(Color::White, Move::Play(p("bb"))).unwrap();
        // black captures white bb at cb
        assert_eq!(b.play(Color::Black, Move::Play(p("cb"))).unwrap(), vec![p("bb")]);
        // white may not retake at bb immediately
        assert_eq!(b.play(Color::White, Move::Play(p("bb"))), Err(IllegalMove::Ko));
        b.play(Color::White, Move::Pass).unwrap();
        b.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(b.play(Color::White, Move::Play(p("bb"))).unwrap(), vec![p("cb")]);
    }

    #[test]
    fn a_group_walk_finds_a_far_liberty_and_captures_a_long_chain() {
        // A white chain along the first row whose only liberty is at its far end: black's move at
        // the near end captures nothing; once the far liberty is filled, the whole chain goes.
        let mut b = Board::new(BoardSize::square(19));
        for x in 0..10u8 {
            b.set(Point::new(x, 0), Some(Color::White));
            b.set(Point::new(x, 1), Some(Color::Black));
        }
        assert_eq!(b.play(Color::Black, Move::Play(Point::new(11, 0))).unwrap(), Vec::<Point>::new());
        assert_eq!(b.get(Point::new(0, 0)), Some(Color::White));
        let caps = b.play(Color::Black, Move::Play(Point::new(10, 0))).unwrap();
        assert_eq!(caps.len(), 10);
        assert!((0..10u8).all(|x| b.get(Point::new(x, 0)).is_none()));
        // White may play back into the emptied row: each point has a liberty.
        assert!(b.play(Color::White, Move::Play(Point::new(0, 0))).is_ok());
    }

    #[test]
    fn boards_larger_than_sgf_sizes_walk_groups_too() {
        // A size no SGF file has (made by hand): the group walk's bit set is on the heap.
        let mut b = Board::new(BoardSize::square(100));
        b.set(Point::new(98, 99), Some(Color::Black));
        b.set(Point::new(99, 98), Some(Color::Black));
        assert_eq!(b.play(Color::White, Move::Play(Point::new(99, 99))), Err(IllegalMove::Suicide));
        b.set(Point::new(97, 99), Some(Color::White));
        b.set(Point::new(98, 98), Some(Color::White));
        assert_eq!(
            b.play(Color::White, Move::Play(Point::new(99, 99))).unwrap(),
            vec![Point::new(98, 99)],
            "white at the corner captures the black stone beside it"
        );
        assert_eq!(b.play(Color::White, Move::Play(Point::new(99, 99))), Err(IllegalMove::Occupied));
    }

    #[test]
    fn off_board_is_reported() {
        let mut b = Board::new(BoardSize { width: 9, height: 13 });
        assert!(b.play(Color::Black, Move::Play(p("im"))).is_ok());
        assert_eq!(b.play(Color::Black, Move::Play(p("jm"))), Err(IllegalMove::OffBoard));
        assert_eq!(b.play(Color::Black, Move::Play(p("in"))), Err(IllegalMove::OffBoard));
    }
}
