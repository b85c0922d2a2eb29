//! Points on the board: every move, setup, markup and label point inside its own game's
//! board (per axis, so rectangles are judged right), `tt` as a pass only up to 19×19, and
//! points repeated within one node's markup or setup.

use super::{At, Ctx, codes, shown};
use crate::model::point::expand_rect;
use crate::model::{BoardSize, Point, Property, ValueType};
use std::collections::HashSet;

const MARKUP: &[&str] = &["CR", "MA", "SL", "SQ", "TR"];
const SETUP: &[&str] = &["AB", "AW", "AE"];

/// Checks every point value of every node against the game's board.
pub(crate) fn check(cx: &mut Ctx<'_>) {
    let tree = cx.tree;
    let size = cx.size;
    let big = size.width > 19 || size.height > 19;
    for node in tree.nodes() {
        let mut markup: HashSet<Point> = HashSet::new();
        let mut setup: HashSet<Point> = HashSet::new();
        for p in node.props() {
            let Some(def) = p.def() else { continue };
            let ident = p.ident();
            for (i, v) in p.values().enumerate() {
                let text = v.as_str();
                let pts: Vec<&str> = match def.value {
                    ValueType::Move => {
                        if text.is_empty() && cx.old_ff {
                            cx.warning(
                                codes::EMPTY_PASS_OLD_FF,
                                At::Value(p, i),
                                format!("{ident}[] is an FF[4] pass, but the file declares an older FF (where a pass is [tt])"),
                            );
                        }
                        if text == "tt" && big {
                            cx.warning(
                                codes::TT_NOT_PASS,
                                At::Value(p, i),
                                format!("{ident}[tt] on a {size} board is the point at column 20, row 20, not a pass (tt means pass only up to 19x19; FF[4] writes a pass as [])"),
                            );
                        }
                        if text == "tt" && !big { vec![] } else { vec![text] }
                    }
                    ValueType::PointList | ValueType::PointElist => match v.parts() {
                        Some((a, b)) => vec![a, b],
                        None => vec![text],
                    },
                    ValueType::Label => v.parts().map(|(a, _)| vec![a]).unwrap_or_default(),
                    ValueType::PointPair => v.parts().map(|(a, b)| vec![a, b]).unwrap_or_default(),
                    _ => continue,
                };
                // Off the board: one finding per value.
                if let Some(why) = pts.iter().filter_map(|s| Point::from_sgf(s)).find_map(|pt| off_board(pt, size)) {
                    cx.error(codes::POINT_OFF_BOARD, At::Value(p, i), format!("{ident}{}: {why}", shown(text)));
                    continue;
                }
                let repeat = if MARKUP.contains(&ident) {
                    Some((&mut markup, codes::MARKUP_OVERLAP, "markup"))
                } else if SETUP.contains(&ident) {
                    Some((&mut setup, codes::SETUP_OVERLAP, "setup"))
                } else {
                    None
                };
                if let Some((seen, code, what)) = repeat {
                    repeated(cx, p, i, seen, code, what);
                }
            }
        }
    }
}

/// Why `pt` is not on a board of `size`, per axis; `None` when it is on it.
fn off_board(pt: Point, size: BoardSize) -> Option<String> {
    let col = pt.x >= size.width;
    let row = pt.y >= size.height;
    let shape = if size.is_square() {
        format!("{size} board")
    } else {
        format!("{size} board ({} columns, {} rows)", size.width, size.height)
    };
    match (col, row) {
        (false, false) => None,
        (true, false) => Some(format!("column {} is outside the {shape}", pt.x as u32 + 1)),
        (false, true) => Some(format!("row {} is outside the {shape}", pt.y as u32 + 1)),
        (true, true) => Some(format!("column {} and row {} are outside the {shape}", pt.x as u32 + 1, pt.y as u32 + 1)),
    }
}

fn repeated(cx: &mut Ctx<'_>, p: Property<'_>, i: usize, seen: &mut HashSet<Point>, code: &'static str, what: &str) {
    let Some(v) = p.values().nth(i) else { return };
    let (a, b) = match v.parts() {
        Some((a, b)) => (a, Some(b)),
        None => (v.as_str(), None),
    };
    let Some(points) = expand_rect(a, b) else { return };
    let mut dup = Vec::new();
    for pt in points {
        if !seen.insert(pt) {
            dup.push(pt);
        }
    }
    if let Some(first) = dup.first() {
        let msg = format!(
            "{}{}: {first} is already marked by another {what} value in this node{}",
            p.ident(),
            shown(v.as_str()),
            if dup.len() > 1 { format!(" ({} points in all)", dup.len()) } else { String::new() }
        );
        if code == codes::SETUP_OVERLAP {
            cx.error(code, At::Value(p, i), msg);
        } else {
            cx.warning(code, At::Value(p, i), msg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes_of, only_codes};

    #[test]
    fn points_are_checked_per_axis() {
        // 9 columns, 13 rows: im is the lower-right corner; jm and in are off.
        assert_eq!(
            codes_of("(;SZ[9:13]AB[im];B[jm];W[in])"),
            ["1:19 check.point-off-board", "1:25 check.point-off-board"]
        );
        assert_eq!(only_codes("(;SZ[13:9];B[ma])"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[9]AW[aa:jj]TR[ka]LB[kk:x]AR[aa:zz])"), ["check.point-off-board"; 4]);
    }

    #[test]
    fn tt_is_a_pass_only_up_to_19() {
        assert_eq!(only_codes("(;SZ[19];B[tt])"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[9];B[tt])"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[21];B[tt])"), ["check.tt-not-pass"]);
        // On 20x20, tt is the point (20,20): off the board as well.
        assert_eq!(only_codes("(;SZ[19:20];B[tt])"), ["check.tt-not-pass", "check.point-off-board"]);
        assert_eq!(only_codes("(;FF[3]SZ[19];B[])"), ["check.empty-pass-old-ff"]);
    }

    #[test]
    fn repeated_points_in_one_node() {
        assert_eq!(only_codes("(;SZ[9];MA[aa][ab][ba][aa];TR[aa]MA[aa])"), ["check.markup-overlap"; 2]);
        assert_eq!(only_codes("(;SZ[9]AB[aa:bb]AW[bb])"), ["check.setup-overlap"]);
    }
}
