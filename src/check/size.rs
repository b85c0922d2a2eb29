//! Board size and the root's format properties: `SZ` (default, square form, range, non-root
//! placement is reported by `placement`), `GM`, `FF`, `CA`.

use super::{At, Ctx, codes, shown};
use crate::model::BoardSize;
use crate::model::point::MAX_BOARD_SIDE;

/// Resolves the game's board from its own root and reports what is wrong with `SZ`, `GM`,
/// `FF` and `CA` there.
pub(crate) fn check(cx: &mut Ctx<'_>) {
    let root = cx.tree.root();
    if let Some(gm) = root.get("GM") {
        if let Some(v) = gm.first() {
            match v.trim().parse::<u32>() {
                Ok(1) => {}
                Ok(n) => {
                    cx.go = false;
                    cx.warning(
                        codes::NOT_GO,
                        At::Prop(gm),
                        format!("GM[{n}] is not Go (GM[1]); point and Go checks are skipped for this game"),
                    );
                }
                // A malformed GM is reported by the value checks; the game is read as Go.
                Err(_) => {}
            }
        }
    }
    if let Some(ff) = root.get("FF") {
        if let Some(Ok(n)) = ff.first().map(|v| v.trim().parse::<u32>()) {
            if !(1..=4).contains(&n) {
                cx.error(
                    codes::FF_UNKNOWN,
                    At::Prop(ff),
                    format!("FF[{n}] is not a file format version (FF[1] to FF[4] exist); read as FF[4]"),
                );
            } else if n < 4 {
                cx.old_ff = true;
            }
        }
    }
    if let Some(ca) = root.get("CA") {
        if let Some(v) = ca.first() {
            if crate::charset::encoding_for_label(v).is_none() {
                cx.warning(
                    codes::CHARSET_UNKNOWN,
                    At::Value(ca, 0),
                    format!("CA{}: kifu does not know this charset; the text was decoded by detection", shown(v)),
                );
            }
        }
    }
    let Some(sz) = root.get("SZ") else {
        if cx.go {
            cx.info(
                codes::SIZE_DEFAULT,
                At::Node(root.id()),
                "no SZ in the root: the board is 19x19, the FF[4] default for Go".to_string(),
            );
        }
        return;
    };
    let Some(value) = sz.values().next() else { return };
    let (w, h, composed) = match value.parts() {
        Some((a, b)) => (a, b, true),
        None => (value.as_str(), value.as_str(), false),
    };
    let side = |s: &str| s.trim().parse::<i64>().ok();
    let (Some(wn), Some(hn)) = (side(w), side(h)) else {
        cx.error(
            codes::SIZE_INVALID,
            At::Value(sz, 0),
            format!(
                "SZ{} is not a board size (a number, or columns:rows); the board is read as 19x19",
                shown(value.as_str())
            ),
        );
        return;
    };
    let clamp = |n: i64| n.clamp(1, MAX_BOARD_SIDE as i64) as u8;
    cx.size = BoardSize { width: clamp(wn), height: clamp(hn) };
    let axes: &[(i64, &str)] = if composed { &[(wn, "columns"), (hn, "rows")] } else { &[(wn, "a side of")] };
    for &(n, axis) in axes {
        if !(1..=MAX_BOARD_SIDE as i64).contains(&n) {
            let what = if composed { format!("{n} {axis}") } else { format!("{axis} {n}") };
            cx.error(
                codes::SIZE_RANGE,
                At::Value(sz, 0),
                format!(
                    "SZ{}: {what} is outside FF[4]'s 1..52; points are checked against {}",
                    shown(value.as_str()),
                    cx.size
                ),
            );
        }
    }
    if composed && wn == hn {
        cx.error(
            codes::SIZE_SQUARE_COMPOSED,
            At::Value(sz, 0),
            format!("SZ[{wn}:{hn}] writes a square board in composed form; FF[4] requires SZ[{wn}]"),
        );
    } else if composed && cx.old_ff {
        cx.warning(
            codes::SIZE_RECT_OLD_FF,
            At::Value(sz, 0),
            format!("SZ[{wn}:{hn}]: rectangular boards exist only in FF[4], but the file declares an older FF"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes_of, only_codes};

    #[test]
    fn missing_size_is_19_and_noted() {
        assert_eq!(codes_of("(;GM[1];B[ss])"), ["1:2 check.size-default"]);
        // 19x19 applies: 'ss' is on the board, 'tt' is a pass, 'ts' is off.
        assert_eq!(only_codes("(;GM[1];B[ts])"), ["check.size-default", "check.point-off-board"]);
    }

    #[test]
    fn square_in_composed_form_is_an_error() {
        assert_eq!(codes_of("(;FF[4]GM[1]SZ[9:9])"), ["1:15 check.size-square-composed"]);
    }

    #[test]
    fn sizes_outside_1_to_52() {
        assert_eq!(only_codes("(;SZ[200])"), ["check.size-range"]);
        assert_eq!(only_codes("(;SZ[10:53])"), ["check.size-range"]);
        assert_eq!(only_codes("(;SZ[0])"), ["check.size-range"]);
        assert_eq!(only_codes("(;SZ[-10])"), ["check.size-range"]);
        assert_eq!(only_codes("(;SZ[x])"), ["check.size-invalid"]);
        assert_eq!(only_codes("(;SZ[52];B[ZZ])"), Vec::<String>::new());
    }

    #[test]
    fn size_outside_root_does_not_resize() {
        assert_eq!(codes_of("(;FF[4]GM[1]SZ[19];SZ[9])"), ["1:20 check.root-property-placement"]);
        // the 19x19 board still applies below the child SZ
        assert_eq!(only_codes("(;SZ[19];SZ[9];B[pp])"), ["check.root-property-placement"]);
    }

    #[test]
    fn each_game_uses_its_own_root() {
        let text = "(;SZ[9];B[ii])\n(;B[ss])\n(;SZ[9:13];B[im];W[jm])";
        assert_eq!(codes_of(text), ["2:2 check.size-default", "2:3 check.move-in-root", "3:19 check.point-off-board"]);
    }

    #[test]
    fn non_go_games_skip_go_checks() {
        assert_eq!(only_codes("(;GM[12]FF[4];B[zz])"), ["check.not-go"]);
        assert_eq!(only_codes("(;FF[7])"), ["check.size-default", "check.ff-unknown"]);
        assert_eq!(only_codes("(;FF[1]SZ[19:25])"), ["check.size-rectangle-old-ff"]);
        assert_eq!(only_codes("(;CA[klingon]SZ[9])"), ["check.charset-unknown"]);
    }
}
