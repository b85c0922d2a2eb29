//! Main-line moves as compact arrays for machine learning.

use kifu::GameTree;
use kifu::model::{Color, Move};

/// The colour code in a moves array: 0 for Black, 1 for White.
pub fn color_code(color: Color) -> i16 {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The main-line moves of `tree` as `(color, x, y)` triples of native-endian `i16`, a pass as
/// `x = y = -1`: the bytes of a NumPy `int16` array of shape `(n, 3)`.
pub fn main_line_bytes(tree: &GameTree) -> Vec<u8> {
    let size = tree.board_size();
    let mut out = Vec::new();
    for (color, mv) in tree.main_line().filter_map(|n| n.mv_on(size)) {
        let (x, y) = match mv {
            Move::Play(p) => (i16::from(p.x), i16::from(p.y)),
            Move::Pass => (-1, -1),
        };
        for v in [color_code(color), x, y] {
            out.extend_from_slice(&v.to_ne_bytes());
        }
    }
    out
}
