//! Points, moves, colours and board sizes, with SGF's coordinate letters.

use std::fmt;

/// A player's colour.
///
/// ```
/// use kifu::model::Color;
/// assert_eq!(Color::from_sgf("W"), Some(Color::White));
/// assert_eq!(Color::Black.opponent(), Color::White);
/// assert_eq!(Color::Black.to_string(), "B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Color {
    /// Black (`B`).
    #[cfg_attr(feature = "serde", serde(rename = "B"))]
    Black,
    /// White (`W`).
    #[cfg_attr(feature = "serde", serde(rename = "W"))]
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"B"` or `"W"`: the move property identifier and SGF's Color value.
    pub fn as_sgf(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    /// Reads an SGF Color value (`B`/`W`, case-insensitive, surrounding blanks ignored).
    pub fn from_sgf(value: &str) -> Option<Color> {
        match value.trim() {
            "B" | "b" => Some(Color::Black),
            "W" | "w" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_sgf())
    }
}

/// An intersection, 0-based, origin at the top-left corner: `x` is the column, `y` the row.
///
/// ```
/// use kifu::model::Point;
/// let p = Point::from_sgf("pd").unwrap();
/// assert_eq!((p.x, p.y), (15, 3));
/// assert_eq!(p.to_string(), "pd");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// Column, 0 = leftmost.
    pub x: u8,
    /// Row, 0 = top.
    pub y: u8,
}

/// The largest board side SGF can address (`a`–`z` then `A`–`Z`).
pub const MAX_BOARD_SIDE: u8 = 52;

/// The SGF letter for a 0-based coordinate (`0` → `a`, `26` → `A`), if it is below 52.
pub fn coord_letter(c: u8) -> Option<char> {
    match c {
        0..=25 => Some((b'a' + c) as char),
        26..=51 => Some((b'A' + c - 26) as char),
        _ => None,
    }
}

/// The 0-based coordinate of an SGF letter (`a` → 0, `A` → 26).
pub fn letter_coord(l: u8) -> Option<u8> {
    match l {
        b'a'..=b'z' => Some(l - b'a'),
        b'A'..=b'Z' => Some(l - b'A' + 26),
        _ => None,
    }
}

impl Point {
    /// A point from 0-based column and row.
    pub fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Reads a two-letter SGF point (`pd`); `None` for anything else.
    pub fn from_sgf(value: &str) -> Option<Point> {
        match value.as_bytes() {
            [a, b] => Some(Point { x: letter_coord(*a)?, y: letter_coord(*b)? }),
            _ => None,
        }
    }

    /// The two-letter SGF form, if both coordinates are below 52.
    pub fn to_sgf(self) -> Option<String> {
        let mut s = String::with_capacity(2);
        s.push(coord_letter(self.x)?);
        s.push(coord_letter(self.y)?);
        Some(s)
    }

    /// Whether the point lies on a board of `size`.
    pub fn is_on(self, size: BoardSize) -> bool {
        self.x < size.width && self.y < size.height
    }
}

impl fmt::Display for Point {
    /// The SGF letters, or `(x,y)` when a coordinate is beyond SGF's range.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_sgf() {
            Some(s) => f.write_str(&s),
            None => write!(f, "({},{})", self.x, self.y),
        }
    }
}

/// A move: a play on a point, or a pass.
///
/// ```
/// use kifu::model::{BoardSize, Move, Point};
/// let size = BoardSize::square(19);
/// assert_eq!(Move::from_sgf("dp", size), Some(Move::Play(Point::new(3, 15))));
/// assert_eq!(Move::from_sgf("tt", size), Some(Move::Pass));
/// assert_eq!(Move::from_sgf("", size), Some(Move::Pass));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone played on a point.
    Play(Point),
    /// A pass.
    Pass,
}

impl Move {
    /// Reads an SGF Go move: `""` is a pass, `tt` is a pass on boards up to 19×19, anything else
    /// must be a two-letter point. Returns `None` for a value that is neither.
    pub fn from_sgf(value: &str, size: BoardSize) -> Option<Move> {
        if value.is_empty() {
            return Some(Move::Pass);
        }
        if value == "tt" && size.width <= 19 && size.height <= 19 {
            return Some(Move::Pass);
        }
        Point::from_sgf(value).map(Move::Play)
    }

    /// The FF\[4\] form: the point's letters, or `""` for a pass.
    pub fn to_sgf(self) -> Option<String> {
        match self {
            Move::Play(p) => p.to_sgf(),
            Move::Pass => Some(String::new()),
        }
    }

    /// The point played, if this is not a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    /// The point's SGF letters, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(p) => p.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Board dimensions: columns (`width`) and rows (`height`), 1..=52 each.
///
/// ```
/// use kifu::model::BoardSize;
/// let s = BoardSize::from_sgf("13:9").unwrap();
/// assert_eq!((s.width, s.height, s.area()), (13, 9, 117));
/// assert_eq!(s.to_string(), "13x9");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoardSize {
    /// Number of columns.
    pub width: u8,
    /// Number of rows.
    pub height: u8,
}

impl Default for BoardSize {
    /// 19×19, the FF\[4\] default for Go.
    fn default() -> Self {
        BoardSize::square(19)
    }
}

impl BoardSize {
    /// A square board.
    pub fn square(n: u8) -> BoardSize {
        BoardSize { width: n, height: n }
    }

    /// Whether the board is square.
    pub fn is_square(self) -> bool {
        self.width == self.height
    }

    /// Reads an SZ value: `19` or `19:13` (columns first). `None` when not numbers in 1..=52.
    pub fn from_sgf(value: &str) -> Option<BoardSize> {
        let parse = |s: &str| s.trim().parse::<u8>().ok().filter(|n| (1..=MAX_BOARD_SIDE).contains(n));
        match value.split_once(':') {
            None => parse(value).map(BoardSize::square),
            Some((w, h)) => Some(BoardSize { width: parse(w)?, height: parse(h)? }),
        }
    }

    /// The FF\[4\] SZ value: one number for a square, `w:h` otherwise.
    pub fn to_sgf(self) -> String {
        if self.is_square() { self.width.to_string() } else { format!("{}:{}", self.width, self.height) }
    }

    /// Number of intersections.
    pub fn area(self) -> usize {
        self.width as usize * self.height as usize
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// Expands one element of an SGF point list: a point (`aa`) or a compressed rectangle (`aa:cc`,
/// corners in any order). Returns `None` when a part is not a point.
pub fn expand_rect(first: &str, second: Option<&str>) -> Option<impl Iterator<Item = Point>> {
    let a = Point::from_sgf(first)?;
    let b = match second {
        Some(s) => Point::from_sgf(s)?,
        None => a,
    };
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    Some((y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| Point { x, y })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_cover_52_lines_both_ways() {
        for c in 0..52u8 {
            let l = coord_letter(c).unwrap();
            assert_eq!(letter_coord(l as u8), Some(c));
        }
        assert_eq!(coord_letter(52), None);
        assert_eq!(Point::from_sgf("ZZ"), Some(Point::new(51, 51)));
        assert_eq!(Point::new(51, 0).to_sgf().as_deref(), Some("Za"));
    }

    #[test]
    fn tt_is_a_pass_only_up_to_19() {
        assert_eq!(Move::from_sgf("tt", BoardSize::square(19)), Some(Move::Pass));
        assert_eq!(Move::from_sgf("tt", BoardSize::square(21)), Some(Move::Play(Point::new(19, 19))));
        assert_eq!(Move::from_sgf("tt", BoardSize { width: 19, height: 21 }), Some(Move::Play(Point::new(19, 19))));
        assert_eq!(Move::from_sgf("", BoardSize::square(52)), Some(Move::Pass));
        assert_eq!(Move::from_sgf("p", BoardSize::square(19)), None);
    }

    #[test]
    fn board_size_forms() {
        assert_eq!(BoardSize::from_sgf("9"), Some(BoardSize::square(9)));
        assert_eq!(BoardSize::from_sgf("9:13"), Some(BoardSize { width: 9, height: 13 }));
        assert_eq!(BoardSize::from_sgf("53"), None);
        assert_eq!(BoardSize::from_sgf("0"), None);
        assert_eq!(BoardSize { width: 9, height: 13 }.to_sgf(), "9:13");
        assert_eq!(BoardSize::square(19).to_sgf(), "19");
    }

    #[test]
    fn rectangles_expand_row_by_row() {
        let pts: Vec<_> = expand_rect("cb", Some("aa")).unwrap().map(|p| p.to_sgf().unwrap()).collect();
        assert_eq!(pts, ["aa", "ba", "ca", "ab", "bb", "cb"]);
    }
}
