//! What a diagram shows: the cells of the board (stones, numbers, marks), arrows, the part of
//! the board drawn, notes and comments. [`scene()`](super::scene()) works a [`Scene`] out once;
//! the SVG, PNG and text writers only draw it.

use crate::diag::Diagnostic;
use crate::model::{BoardSize, Color, Point};

/// A mark drawn on a point (SGF markup, or kifu's own marker for "x at ▲" notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `TR`.
    Triangle,
    /// `SQ`.
    Square,
    /// `CR`.
    Circle,
    /// `MA`.
    Cross,
    /// `SL`.
    Selected,
    /// `LB`, or a letter naming a stone in the notes.
    Label(String),
}

impl Mark {
    /// The CSS class of the mark (`triangle`, `square`, `circle`, `cross`, `selected`, `label`).
    pub fn class(&self) -> &'static str {
        match self {
            Mark::Triangle => "triangle",
            Mark::Square => "square",
            Mark::Circle => "circle",
            Mark::Cross => "cross",
            Mark::Selected => "selected",
            Mark::Label(_) => "label",
        }
    }
}

/// One intersection as drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// The stone shown.
    pub stone: Option<Color>,
    /// The move number drawn on the stone.
    pub number: Option<u32>,
    /// The mark drawn on the point.
    pub mark: Option<Mark>,
    /// Dimmed (`DD`).
    pub dim: bool,
    /// Outside the view (`VW`): nothing drawn.
    pub hidden: bool,
    /// The last move.
    pub last: bool,
}

/// An arrow (`AR`) or a line (`LN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Start point.
    pub from: Point,
    /// End point.
    pub to: Point,
    /// Whether it has a head (`AR`).
    pub head: bool,
}

/// A rectangle of intersections, bounds included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Leftmost column.
    pub left: u8,
    /// Top row.
    pub top: u8,
    /// Rightmost column.
    pub right: u8,
    /// Bottom row.
    pub bottom: u8,
}

impl Rect {
    /// The whole board.
    pub fn board(size: BoardSize) -> Rect {
        Rect { left: 0, top: 0, right: size.width - 1, bottom: size.height - 1 }
    }

    /// Reads `cc:ff` (two SGF points, any two opposite corners; `cc-ff` also) or a single point.
    pub fn parse(text: &str) -> Result<Rect, String> {
        let bad = || format!("'{text}' is not a range of SGF points such as cc:ff");
        let (a, b) = text.split_once([':', '-']).unwrap_or((text, text));
        let a = Point::from_sgf(a.trim()).ok_or_else(bad)?;
        let b = Point::from_sgf(b.trim()).ok_or_else(bad)?;
        Ok(Rect { left: a.x.min(b.x), top: a.y.min(b.y), right: a.x.max(b.x), bottom: a.y.max(b.y) })
    }

    /// Columns.
    pub fn width(&self) -> u8 {
        self.right - self.left + 1
    }

    /// Rows.
    pub fn height(&self) -> u8 {
        self.bottom - self.top + 1
    }

    /// Whether `p` lies inside.
    pub fn contains(&self, p: Point) -> bool {
        (self.left..=self.right).contains(&p.x) && (self.top..=self.bottom).contains(&p.y)
    }
}

/// Everything one diagram draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The board.
    pub size: BoardSize,
    /// Every intersection, row by row.
    pub cells: Vec<Cell>,
    /// Arrows and lines.
    pub arrows: Vec<Arrow>,
    /// The part of the board drawn.
    pub view: Rect,
    /// The title over the notes (`Figure 2 (51–100)`).
    pub caption: Option<String>,
    /// Moves that could not be drawn on their point: `73 at 61`, `80: pass`.
    pub notes: Vec<String>,
    /// The first numbered move (number and colour), when moves are numbered.
    pub first: Option<(u32, Color)>,
    /// Whether the numbered moves alternate in colour.
    pub alternate: bool,
    /// Comments printed under the board (`--comments`), each one line.
    pub comments: Vec<String>,
    /// What went wrong while building the scene (illegal moves skipped, marks off the board …).
    pub diagnostics: Vec<Diagnostic>,
}

impl Scene {
    /// The cell at `p` (which must be on the board).
    pub fn cell(&self, p: Point) -> &Cell {
        &self.cells[p.y as usize * self.size.width as usize + p.x as usize]
    }

    pub(super) fn cell_mut(&mut self, p: Point) -> Option<&mut Cell> {
        let w = self.size.width as usize;
        if p.is_on(self.size) { self.cells.get_mut(p.y as usize * w + p.x as usize) } else { None }
    }
}

/// Moves `first..=last` to number (1-based, inclusive).
pub type Span = (u32, u32);

/// The smallest rectangle holding `points`.
pub fn bounding_box(points: impl Iterator<Item = Point>) -> Option<Rect> {
    let mut r: Option<Rect> = None;
    for p in points {
        r = Some(match r {
            None => Rect { left: p.x, top: p.y, right: p.x, bottom: p.y },
            Some(r) => {
                Rect { left: r.left.min(p.x), top: r.top.min(p.y), right: r.right.max(p.x), bottom: r.bottom.max(p.y) }
            }
        });
    }
    r
}
