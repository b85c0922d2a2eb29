//! Board positions along a line of a game, for machine learning: replayed by the library's board
//! (`kifu::go::Board`: captures, and illegal moves refused and skipped), one plane per move.

use kifu::go::{Board, IllegalMove};
use kifu::model::{Color, GameTree, Move, NodeId, Point};
use kifu::{Diagnostic, diagram};
use numpy::IntoPyArray;
use numpy::ndarray::Array3;
use pyo3::prelude::*;

/// A move the board refused.
pub struct Illegal {
    /// The move's number along the line (1 for the first move).
    pub number: usize,
    pub color: Color,
    pub mv: Move,
    pub problem: IllegalMove,
}

impl Illegal {
    /// As `kifu diagram` reports it (`diagram.illegal-move`).
    pub fn diagnostic(&self) -> Diagnostic {
        let at = match self.mv {
            Move::Play(p) => p.to_string(),
            Move::Pass => "pass".to_string(),
        };
        let message = format!("move {} ({} {at}): {}; skipped on the board", self.number, self.color, self.problem);
        Diagnostic::warning(diagram::codes::ILLEGAL_MOVE, message)
    }
}

/// The positions of one line: `planes` planes of `rows × columns` cells (1 black, -1 white,
/// 0 empty), row by row.
pub struct Planes {
    pub cells: Vec<i8>,
    pub planes: usize,
    pub rows: usize,
    pub columns: usize,
    pub illegal: Vec<Illegal>,
}

/// The positions along `path` (the nodes from the root, in order): plane k is the position on
/// which the line's move k (from 0) is played, the last plane the position at the end. A node's
/// setup is applied before its move (as `Board::replay` does), so plane 0 holds the setup up to
/// the first move, and plane k the position after move k - 1 with the setup up to move k.
pub fn planes(tree: &GameTree, path: &[NodeId]) -> Planes {
    let size = tree.board_size();
    let (columns, rows) = (usize::from(size.width), usize::from(size.height));
    let area = rows * columns;
    let mut board = Board::new(size);
    // The board's stones as the array's cells, kept in step with what the board does (setup,
    // a move and its captures), so that a plane is a copy.
    let mut cells = vec![0i8; area];
    let at = |p: Point| usize::from(p.y) * columns + usize::from(p.x);
    // At most one move a node: the planes are written once, into a buffer that never grows (it
    // becomes the NumPy array as it is).
    let mut out =
        Planes { cells: Vec::with_capacity((path.len() + 1) * area), planes: 0, rows, columns, illegal: Vec::new() };
    for &id in path {
        // One pass over the node's properties: its setup goes on the board as it comes, its move
        // (the first `B` or `W`, as `Node::mv_on` takes it) is played after.
        let mut played = None;
        for p in tree.node(id).props() {
            match p.ident() {
                "AB" | "AW" | "AE" => {
                    let stone = p.setup().flatten();
                    for pt in p.points() {
                        if board.set(pt, stone) {
                            cells[at(pt)] = cell(stone);
                        }
                    }
                }
                "B" | "W" if played.is_none() => {
                    let color = if p.ident() == "B" { Color::Black } else { Color::White };
                    played = Some(p.values().next().and_then(|v| Move::from_sgf(v.as_str(), size)).map(|m| (color, m)));
                }
                _ => {}
            }
        }
        if let Some((color, mv)) = played.flatten() {
            out.cells.extend_from_slice(&cells);
            out.planes += 1;
            match board.play(color, mv) {
                Ok(captured) => {
                    if let Move::Play(p) = mv {
                        cells[at(p)] = cell(Some(color));
                    }
                    for p in captured {
                        cells[at(p)] = 0;
                    }
                }
                Err(problem) => out.illegal.push(Illegal { number: out.planes, color, mv, problem }),
            }
        }
    }
    out.cells.extend_from_slice(&cells);
    out.planes += 1;
    debug_assert!(same_stones(&board, &cells, columns));
    out
}

/// A cell of the array: 1 black, -1 white, 0 empty.
fn cell(stone: Option<Color>) -> i8 {
    match stone {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => 0,
    }
}

/// Whether `cells` hold the board's stones (checked in debug builds).
fn same_stones(board: &Board, cells: &[i8], columns: usize) -> bool {
    cells.iter().enumerate().all(|(i, &c)| {
        // Sizes are at most 52 × 52: the coordinates fit in u8.
        c == cell(board.get(Point::new((i % columns) as u8, (i / columns) as u8)))
    })
}

/// The planes as a NumPy `int8` array of shape `(planes, rows, columns)`, which takes over
/// their buffer: nothing is copied (NumPy frees it with the array).
pub fn array(py: Python<'_>, planes: Planes) -> PyResult<Bound<'_, PyAny>> {
    let shape = (planes.planes, planes.rows, planes.columns);
    let cells = Array3::from_shape_vec(shape, planes.cells)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("kifu's positions: {e}")))?;
    Ok(cells.into_pyarray(py).into_any())
}

/// A `KifuWarning` for every illegal move, prefixed with `place` (the file and game) if given.
pub fn warn_illegal(py: Python<'_>, planes: &Planes, place: Option<&str>) -> PyResult<()> {
    let found: Vec<Diagnostic> = planes
        .illegal
        .iter()
        .map(|i| {
            let mut d = i.diagnostic();
            if let Some(place) = place {
                d.message = format!("{place}: {}", d.message);
            }
            d
        })
        .collect();
    crate::errors::warn_all(py, &found)
}
