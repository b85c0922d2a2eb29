//! Geometry: which part of the board is drawn (`--range`, `--crop auto`, `VW`), coordinate
//! labels, hoshi points, and where every line, stone and text goes in drawing units.

use super::scene::{Rect, Scene, bounding_box};
use super::{Labels, Options, Sides};
use crate::model::{BoardSize, Point, point::coord_letter};

/// Drawing units between two lines.
pub(super) const S: f64 = 100.0;
/// Space between the outermost lines and the board's border.
const PAD: f64 = 0.62 * S;
/// Extra space on a side with coordinates.
const COORD: f64 = 0.72 * S;

/// Decides the drawn part of the board: `--range` first, else `--crop auto`, else the view
/// (`VW`) or the whole board.
pub(super) fn frame(scene: &mut Scene, options: &Options) -> Result<(), String> {
    let size = scene.size;
    if let Some(r) = options.range {
        if r.left > r.right || r.top > r.bottom {
            return Err(format!("the range {r:?} has its corners the wrong way round"));
        }
        if r.right >= size.width || r.bottom >= size.height {
            return Err(format!(
                "the range {}:{} goes beyond the {size} board",
                Point::new(r.left, r.top),
                Point::new(r.right, r.bottom)
            ));
        }
        scene.view = r;
    } else if options.crop {
        let used = (0..size.height)
            .flat_map(|y| (0..size.width).map(move |x| Point::new(x, y)))
            .filter(|&p| {
                let c = scene.cell(p);
                !c.hidden && (c.stone.is_some() || c.mark.is_some())
            })
            .chain(scene.arrows.iter().flat_map(|a| [a.from, a.to]));
        if let Some(b) = bounding_box(used) {
            let v = scene.view;
            let grow = |lo: u8, hi: u8, min: u8, max: u8| {
                let lo = if lo <= min + 2 { min } else { lo - 1 };
                let hi = if hi + 2 >= max { max } else { hi + 1 };
                (lo, hi)
            };
            let (left, right) = grow(b.left.max(v.left), b.right.min(v.right), v.left, v.right);
            let (top, bottom) = grow(b.top.max(v.top), b.bottom.min(v.bottom), v.top, v.bottom);
            scene.view = Rect { left, top, right, bottom };
        }
    }
    Ok(())
}

/// The column letter(s) or row number of a coordinate.
pub(super) fn column_label(x: u8, labels: Labels) -> String {
    const GO: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    match labels {
        Labels::Sgf => coord_letter(x).map_or_else(|| x.to_string(), String::from),
        Labels::Go if x < 25 => (GO[x as usize] as char).to_string(),
        Labels::Go => format!("{}{}", GO[(x / 25 - 1) as usize % 25] as char, GO[(x % 25) as usize] as char),
    }
}

/// The row label: numbered from 1 at the bottom (Go), or the SGF letter from the top.
pub(super) fn row_label(y: u8, size: BoardSize, labels: Labels) -> String {
    match labels {
        Labels::Sgf => coord_letter(y).map_or_else(|| y.to_string(), String::from),
        Labels::Go => (size.height - y).to_string(),
    }
}

/// A point written the way the coordinates are (`D4`, or `dd` with SGF labels).
pub(super) fn point_label(p: Point, size: BoardSize, labels: Labels) -> String {
    format!("{}{}", column_label(p.x, labels), row_label(p.y, size, labels))
}

/// Star points: corners at the 3rd line (4th on boards of 12 lines and more), the centre of
/// odd boards, and side points on odd boards of 15 lines and more. Each axis decides alone, so
/// rectangles get them too.
pub(super) fn hoshi(size: BoardSize) -> Vec<Point> {
    let axis = |n: u8| -> (Vec<u8>, Option<u8>) {
        let d = match n {
            12.. => 3,
            7..=11 => 2,
            _ => return (Vec::new(), None),
        };
        let mid = (n % 2 == 1).then_some(n / 2);
        (vec![d, n - 1 - d], mid)
    };
    let (xs, mx) = axis(size.width);
    let (ys, my) = axis(size.height);
    let mut out = Vec::new();
    let side_x = mx.filter(|_| size.width >= 15);
    let side_y = my.filter(|_| size.height >= 15);
    for &y in ys.iter().chain(my.iter()) {
        for &x in xs.iter().chain(mx.iter()) {
            let centre_x = Some(x) == mx;
            let centre_y = Some(y) == my;
            let keep = match (centre_x, centre_y) {
                (false, false) => true,
                (true, true) => !xs.is_empty() && !ys.is_empty(),
                (true, false) => side_x.is_some(),
                (false, true) => side_y.is_some(),
            };
            if keep {
                out.push(Point::new(x, y));
            }
        }
    }
    out.sort();
    out
}

/// Where things go, in drawing units.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    /// The drawn part of the board.
    pub view: Rect,
    /// The board.
    pub size: BoardSize,
    /// Sides with coordinates.
    pub sides: Sides,
    /// x of the view's first column.
    pub x0: f64,
    /// y of the view's first row.
    pub y0: f64,
    /// Width of the board area (border included).
    pub width: f64,
    /// Height of the board area (border included).
    pub height: f64,
}

impl Geometry {
    /// The geometry of `scene` with coordinates on `sides`.
    pub(super) fn new(scene: &Scene, sides: Sides) -> Geometry {
        let v = scene.view;
        let extra = |on: bool| if on { COORD } else { 0.0 };
        let x0 = PAD + extra(sides.left);
        let y0 = PAD + extra(sides.top);
        let width = x0 + f64::from(v.width() - 1) * S + PAD + extra(sides.right);
        let height = y0 + f64::from(v.height() - 1) * S + PAD + extra(sides.bottom);
        Geometry { view: v, size: scene.size, sides, x0, y0, width, height }
    }

    /// x of column `c`.
    pub(super) fn x(&self, c: u8) -> f64 {
        self.x0 + f64::from(c - self.view.left) * S
    }

    /// y of row `r`.
    pub(super) fn y(&self, r: u8) -> f64 {
        self.y0 + f64::from(r - self.view.top) * S
    }

    /// The board's border rectangle: x, y, width, height.
    pub(super) fn board_rect(&self) -> (f64, f64, f64, f64) {
        let (l, t) = (self.x(self.view.left) - PAD, self.y(self.view.top) - PAD);
        let (r, b) = (self.x(self.view.right) + PAD, self.y(self.view.bottom) + PAD);
        (l, t, r - l, b - t)
    }

    /// Where a coordinate label goes on each side: the distance from the outermost line.
    pub(super) fn coord_offset(&self) -> f64 {
        PAD + COORD * 0.45
    }

    /// Whether `p` is in the drawn part.
    pub(super) fn shows(&self, p: Point) -> bool {
        self.view.contains(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoshi_points() {
        assert_eq!(hoshi(BoardSize::square(19)).len(), 9);
        assert_eq!(hoshi(BoardSize::square(13)).len(), 5);
        let nine = hoshi(BoardSize::square(9));
        assert_eq!(nine, [Point::new(2, 2), Point::new(2, 6), Point::new(4, 4), Point::new(6, 2), Point::new(6, 6)]);
        assert_eq!(hoshi(BoardSize::square(5)), []);
        assert_eq!(hoshi(BoardSize { width: 9, height: 13 }).len(), 5);
        assert_eq!(hoshi(BoardSize::square(52)).len(), 4);
    }

    #[test]
    fn labels() {
        assert_eq!(column_label(8, Labels::Go), "J");
        assert_eq!(column_label(18, Labels::Go), "T");
        assert_eq!(column_label(24, Labels::Go), "Z");
        assert_eq!(column_label(25, Labels::Go), "AA");
        assert_eq!(column_label(49, Labels::Go), "AZ");
        assert_eq!(column_label(51, Labels::Go), "BB");
        assert_eq!(column_label(30, Labels::Sgf), "E");
        assert_eq!(row_label(0, BoardSize::square(19), Labels::Go), "19");
        assert_eq!(point_label(Point::new(3, 15), BoardSize::square(19), Labels::Go), "D4");
    }
}
