//! A Go board: plays moves with captures, detects moves on occupied points, suicide and simple
//! ko recaptures, and replays a line of a game tree.

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
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    /// The points row by row, each row followed by one edge cell, with a row of edge cells above
    /// and below: every point's four neighbours are at fixed offsets (±1, ±`stride`), and the
    /// edge stops a walk as a stone of neither colour would.
    cells: Vec<Cell>,
    stride: usize,
    ko: Option<Point>,
    /// The group walk's scratch (its stack, and the cells seen, marked with `walk`), kept from
    /// move to move so that a walk allocates nothing.
    stack: Vec<u32>,
    seen: Vec<u32>,
    walk: u32,
}

/// What a cell of the board holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    White,
    Edge,
}

impl Cell {
    fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            Cell::Empty | Cell::Edge => None,
        }
    }
}

impl PartialEq for Board {
    /// Same size, same stones, same ko.
    fn eq(&self, other: &Board) -> bool {
        (self.size, &self.cells, self.ko) == (other.size, &other.cells, other.ko)
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rows = Vec::new();
        for y in 0..self.size.height {
            let row = (0..self.size.width).map(|x| match self.get(Point::new(x, y)) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
            rows.push(row.collect::<String>());
        }
        f.debug_struct("Board").field("size", &self.size).field("rows", &rows).field("ko", &self.ko).finish()
    }
}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let stride = w + 1;
        let mut cells = vec![Cell::Edge; (h + 2) * stride + 1];
        for y in 0..h {
            cells[(y + 1) * stride..(y + 1) * stride + w].fill(Cell::Empty);
        }
        Board { size, seen: vec![0; cells.len()], cells, stride, ko: None, stack: Vec::new(), walk: 0 }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The cell of `p`, which is on the board.
    fn idx(&self, p: Point) -> usize {
        (usize::from(p.y) + 1) * self.stride + usize::from(p.x)
    }

    /// The point of the cell `i`, a point on the board.
    fn point(&self, i: usize) -> Point {
        // Cells of points are below (52 + 1) × 255 + 255 even on a board made by hand: the
        // coordinates fit in u8.
        Point::new((i % self.stride) as u8, (i / self.stride - 1) as u8)
    }

    /// The cells beside `i`, edge cells included.
    fn around(&self, i: usize) -> [usize; 4] {
        [i - 1, i + 1, i - self.stride, i + self.stride]
    }

    /// The stone on `p`, if any (`None` also off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.is_on(self.size) { self.cells[self.idx(p)].color() } else { None }
    }

    /// Put (or with `None`, remove) a stone without playing: setup (`AB`, `AW`, `AE`).
    /// Points off the board are ignored and reported as `false`.
    pub fn set(&mut self, p: Point, stone: Option<Color>) -> bool {
        if !p.is_on(self.size) {
            return false;
        }
        let i = self.idx(p);
        self.cells[i] = stone.map_or(Cell::Empty, Cell::stone);
        self.ko = None;
        true
    }

    /// Whether the group holding cell `i` (of `color`) has no liberty; if so, its stones are
    /// left on `self.stack`, in the order a breadth-first walk from `i` finds them. Most groups
    /// touched by a move have a liberty beside the stone looked at, found without walking.
    fn dead_group(&mut self, i: usize, color: Cell) -> bool {
        if self.around(i).iter().any(|&n| self.cells[n] == Cell::Empty) {
            return false;
        }
        self.walk = self.walk.wrapping_add(1);
        if self.walk == 0 {
            // Once in four billion walks the marks start over.
            self.seen.fill(0);
            self.walk = 1;
        }
        let walk = self.walk;
        self.stack.clear();
        self.stack.push(i as u32);
        self.seen[i] = walk;
        // The stack holds every stone found; `next` is the first not yet looked around.
        let mut next = 0;
        while let Some(&q) = self.stack.get(next) {
            next += 1;
            for n in self.around(q as usize) {
                match self.cells[n] {
                    Cell::Empty => return false,
                    c if c == color && self.seen[n] != walk => {
                        self.seen[n] = walk;
                        self.stack.push(n as u32);
                    }
                    _ => {}
                }
            }
        }
        true
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
        let i = self.idx(p);
        if self.cells[i] != Cell::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.ko == Some(p) {
            return Err(IllegalMove::Ko);
        }
        let (own, opponent) = (Cell::stone(color), Cell::stone(color.opponent()));
        self.cells[i] = own;
        let mut captured = Vec::new();
        for n in self.around(i) {
            // A group met twice is gone by the second time.
            if self.cells[n] == opponent && self.dead_group(n, opponent) {
                for k in 0..self.stack.len() {
                    let s = self.stack[k] as usize;
                    self.cells[s] = Cell::Empty;
                    captured.push(self.point(s));
                }
            }
        }
        // A move that captures has the liberties it made.
        if captured.is_empty() && self.dead_group(i, own) {
            self.cells[i] = Cell::Empty;
            return Err(IllegalMove::Suicide);
        }
        // A ko: one stone captured by a lone stone (every neighbour of `p` an opponent's stone
        // but the point just emptied, so `p` has no stone of its colour beside it).
        self.ko = match captured[..] {
            [one] => {
                let k = self.idx(one);
                let lone = self
                    .around(i)
                    .iter()
                    .all(|&n| n == k || matches!(self.cells[n], Cell::Edge) || self.cells[n] == opponent);
                lone.then_some(one)
            }
            _ => None,
        };
        Ok(captured)
    }
}

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

    /// The rules the board keeps, written the plain way: a grid of stones, groups found by
    /// walking it again for every question.
    struct Plain {
        w: usize,
        h: usize,
        stones: Vec<Option<Color>>,
        ko: Option<usize>,
    }

    impl Plain {
        fn beside(&self, i: usize) -> Vec<usize> {
            let (x, y) = (i % self.w, i / self.w);
            let mut v = Vec::new();
            if x > 0 {
                v.push(i - 1);
            }
            if x + 1 < self.w {
                v.push(i + 1);
            }
            if y > 0 {
                v.push(i - self.w);
            }
            if y + 1 < self.h {
                v.push(i + self.w);
            }
            v
        }

        /// The group of `i` and whether it has a liberty.
        fn group(&self, i: usize) -> (std::collections::BTreeSet<usize>, bool) {
            let mut group = std::collections::BTreeSet::from([i]);
            let mut todo = vec![i];
            let mut free = false;
            while let Some(q) = todo.pop() {
                for n in self.beside(q) {
                    match self.stones[n] {
                        None => free = true,
                        c if c == self.stones[i] && group.insert(n) => todo.push(n),
                        _ => {}
                    }
                }
            }
            (group, free)
        }

        fn play(&mut self, color: Color, i: usize) -> Result<std::collections::BTreeSet<usize>, IllegalMove> {
            if self.stones[i].is_some() {
                return Err(IllegalMove::Occupied);
            }
            if self.ko == Some(i) {
                return Err(IllegalMove::Ko);
            }
            let before = self.stones.clone();
            self.stones[i] = Some(color);
            let mut captured = std::collections::BTreeSet::new();
            for n in self.beside(i) {
                if self.stones[n] == Some(color.opponent()) {
                    let (group, free) = self.group(n);
                    if !free {
                        captured.extend(group);
                    }
                }
            }
            for &c in &captured {
                self.stones[c] = None;
            }
            if !self.group(i).1 {
                self.stones = before;
                return Err(IllegalMove::Suicide);
            }
            // A ko: the lone stone that took one stone has no liberty but the point it emptied.
            let taken = captured.first().copied().filter(|_| captured.len() == 1);
            let lone = |t: usize| self.beside(i).iter().all(|&n| n == t || self.stones[n] == Some(color.opponent()));
            self.ko = taken.filter(|&t| lone(t));
            Ok(captured)
        }
    }

    proptest::proptest! {
        /// On small boards, where random moves capture, fill and retake kos often, the board
        /// and the plain rules agree on every move and on every point after it.
        #[test]
        fn agrees_with_the_plain_rules(w in 1u8..7, h in 1u8..7, moves in proptest::collection::vec((0u8..7, 0u8..7, proptest::bool::ANY, 0u8..12), 1..160)) {
            let mut board = Board::new(BoardSize { width: w, height: h });
            let (wu, hu) = (usize::from(w), usize::from(h));
            let mut plain = Plain { w: wu, h: hu, stones: vec![None; wu * hu], ko: None };
            for (x, y, black, kind) in moves {
                let color = if black { Color::Black } else { Color::White };
                let p = Point::new(x, y);
                if kind == 0 {
                    proptest::prop_assert_eq!(board.play(color, Move::Pass), Ok(Vec::new()));
                    plain.ko = None;
                } else if kind == 1 {
                    let stone = (x % 3 != 0).then_some(color);
                    proptest::prop_assert_eq!(board.set(p, stone), p.is_on(board.size()));
                    if p.is_on(board.size()) {
                        plain.stones[usize::from(y) * wu + usize::from(x)] = stone;
                        plain.ko = None;
                    }
                } else if !p.is_on(board.size()) {
                    proptest::prop_assert_eq!(board.play(color, Move::Play(p)), Err(IllegalMove::OffBoard));
                } else {
                    let got = board.play(color, Move::Play(p)).map(|caps| {
                        caps.iter().map(|c| usize::from(c.y) * wu + usize::from(c.x)).collect::<std::collections::BTreeSet<_>>()
                    });
                    proptest::prop_assert_eq!(got, plain.play(color, usize::from(y) * wu + usize::from(x)));
                }
                for (i, &stone) in plain.stones.iter().enumerate() {
                    proptest::prop_assert_eq!(board.get(Point::new((i % wu) as u8, (i / wu) as u8)), stone);
                }
            }
        }
    }

    #[test]
    fn off_board_is_reported() {
        let mut b = Board::new(BoardSize { width: 9, height: 13 });
        assert!(b.play(Color::Black, Move::Play(p("im"))).is_ok());
        assert_eq!(b.play(Color::Black, Move::Play(p("jm"))), Err(IllegalMove::OffBoard));
        assert_eq!(b.play(Color::Black, Move::Play(p("in"))), Err(IllegalMove::OffBoard));
    }
}
