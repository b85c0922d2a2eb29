//! Handicap stone layouts for formats that give only the number of stones (GIB, NGF).

use crate::model::{BoardSize, Point};

/// The handicap stones Tygem, WBaduk and Cyberoro place for `count` stones on a 19×19 board
/// (or any odd board of at least 7 lines, by the same star points): the first two stones are on
/// the upper-right and lower-left star points, the third on the **upper-left** (`dd`; verified on
/// real three-stone GIB files, where White's first move is on `pp`), the fourth on the
/// lower-right, the fifth on tengen, and six to nine add the side star points.
/// Returns `None` when `count` is not 2..=9 or the board has no such star points.
pub fn tygem_layout(size: BoardSize, count: u32) -> Option<Vec<Point>> {
    if !(2..=9).contains(&count) || !size.is_square() || size.width < 7 {
        return None;
    }
    let n = size.width;
    let edge = if n >= 13 { 3 } else { 2 };
    let (lo, hi, mid) = (edge, n - 1 - edge, n / 2);
    if count >= 5 && n % 2 == 0 {
        return None;
    }
    let ur = Point::new(hi, lo);
    let ll = Point::new(lo, hi);
    let ul = Point::new(lo, lo);
    let lr = Point::new(hi, hi);
    let c = Point::new(mid, mid);
    let (ml, mr, mt, mb) = (Point::new(lo, mid), Point::new(hi, mid), Point::new(mid, lo), Point::new(mid, hi));
    let v = match count {
        2 => vec![ur, ll],
        3 => vec![ur, ll, ul],
        4 => vec![ur, ll, ul, lr],
        5 => vec![ur, ll, ul, lr, c],
        6 => vec![ur, ll, ul, lr, ml, mr],
        7 => vec![ur, ll, ul, lr, ml, mr, c],
        8 => vec![ur, ll, ul, lr, ml, mr, mt, mb],
        _ => vec![ur, ll, ul, lr, ml, mr, mt, mb, c],
    };
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgf(v: Vec<Point>) -> Vec<String> {
        v.into_iter().map(|p| p.to_sgf().unwrap()).collect()
    }

    #[test]
    fn third_stone_is_top_left() {
        assert_eq!(sgf(tygem_layout(BoardSize::square(19), 3).unwrap()), ["pd", "dp", "dd"]);
        assert_eq!(sgf(tygem_layout(BoardSize::square(19), 2).unwrap()), ["pd", "dp"]);
        assert_eq!(tygem_layout(BoardSize::square(19), 9).unwrap().len(), 9);
        assert_eq!(sgf(tygem_layout(BoardSize::square(19), 5).unwrap())[4], "jj");
        assert!(tygem_layout(BoardSize::square(19), 1).is_none());
        assert!(tygem_layout(BoardSize::square(19), 10).is_none());
    }
}
