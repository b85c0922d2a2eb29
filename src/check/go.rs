//! Go rules on every path of the tree: moves on occupied points, suicide, simple ko
//! recaptures, the same colour twice in a row, setup without effect, `HA` against the
//! handicap stones, and `RE` against the score counted from `TB`/`TW` on the main line.
//!
//! The walk is iterative: nodes come in pre-order and the position is saved only at nodes
//! where variations branch, then restored for each later child.

use super::{At, Ctx, codes};
use crate::go::{Board, IllegalMove};
use crate::model::point::expand_rect;
use crate::model::{Color, GameResult, GameTree, Move, Node, Point, Property, WinKind};
use std::collections::HashMap;

/// The position and move history at one node.
#[derive(Clone)]
struct State {
    board: Board,
    /// Colour of the last move on this path.
    last: Option<Color>,
    /// Colour `PL` named to play next (cleared by the next move).
    next: Option<Color>,
    /// Black moves still accepted in a row as freely placed handicap stones.
    free_handicap: u32,
    /// Stones captured by black (white stones) and by white.
    captured: [usize; 2],
}

/// Replays every path and reports what breaks the rules.
pub(crate) fn check(cx: &mut Ctx<'_>) {
    let tree = cx.tree;
    let size = cx.size;
    let handicap = handicap_value(tree);
    let opening = opening_setup(tree);
    let root_ab = opening.black;
    let suicide_allowed = tree.main_line().take(3).find_map(|n| n.value("RU")).is_some_and(|r| {
        let r = r.to_ascii_lowercase();
        ["nz", "new zealand", "tromp", "ing"].iter().any(|k| r.contains(k))
    });
    handicap_check(cx, handicap, &opening);
    let fresh = State {
        board: Board::new(size),
        last: None,
        next: None,
        free_handicap: match handicap {
            Some((h, _)) if h >= 2 && root_ab == 0 => h - 1,
            _ => 0,
        },
        captured: [0, 0],
    };
    let main_end = tree.main_line().last().map(|n| n.id());
    let mut saved: HashMap<u32, State> = HashMap::new();
    let mut state = fresh.clone();
    for node in tree.nodes() {
        let id = node.id();
        if let Some(parent) = tree.parent(id) {
            if parent.index() + 1 != id.index() {
                let last_child = tree.next_sibling(id).is_none();
                let restored = if last_child {
                    saved.remove(&(parent.index() as u32))
                } else {
                    saved.get(&(parent.index() as u32)).cloned()
                };
                state = restored.unwrap_or_else(|| fresh.clone());
            }
        }
        setup(cx, node, &mut state);
        if let Some(c) = node.value("PL").and_then(|v| match v {
            "B" => Some(Color::Black),
            "W" => Some(Color::White),
            _ => None,
        }) {
            state.next = Some(c);
        }
        play(cx, node, &mut state, suicide_allowed);
        if Some(id) == main_end {
            result_check(cx, node, &state);
        }
        if tree.first_child(id).and_then(|c| tree.next_sibling(c)).is_some() {
            saved.insert(id.index() as u32, state.clone());
        }
    }
}

fn setup(cx: &mut Ctx<'_>, node: Node<'_>, state: &mut State) {
    // Points already set in this node (a repeat is reported by the point checks), allocated
    // only for nodes with setup.
    let mut touched: Vec<bool> = Vec::new();
    let size = state.board.size();
    for p in node.props() {
        let Some(stone) = p.setup() else { continue };
        let mut useless = Vec::new();
        for v in p.values() {
            let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
            let Some(points) = expand_rect(a, b) else { continue };
            for pt in points {
                if !pt.is_on(size) {
                    continue;
                }
                if touched.is_empty() {
                    touched = vec![false; size.area()];
                }
                let i = pt.y as usize * size.width as usize + pt.x as usize;
                match touched.get_mut(i) {
                    Some(seen) if !*seen => *seen = true,
                    _ => continue,
                }
                if state.board.get(pt) == stone {
                    useless.push(pt);
                }
                state.board.set(pt, stone);
            }
        }
        if let Some(first) = useless.first() {
            let what = match stone {
                Some(c) => format!("{first} already holds a {} stone", colour_name(c)),
                None => format!("{first} is already empty"),
            };
            let more = if useless.len() > 1 { format!(" ({} points in all)", useless.len()) } else { String::new() };
            cx.warning(codes::SETUP_NO_EFFECT, At::Prop(p), format!("{} has no effect: {what}{more}", p.ident()));
        }
    }
}

fn play(cx: &mut Ctx<'_>, node: Node<'_>, state: &mut State, suicide_allowed: bool) {
    let Some((color, mv)) = node.mv_on(cx.size) else { return };
    let Some(prop) = node.get(color.as_sgf()) else { return };
    let expected = state.next.or(state.last.map(Color::opponent));
    if color == Color::Black && state.last == Some(Color::Black) && state.free_handicap > 0 && state.next.is_none() {
        state.free_handicap -= 1;
    } else {
        if color == Color::White || state.last.is_some() {
            state.free_handicap = 0;
        }
        if expected.is_some_and(|e| e != color) {
            let msg = match state.next {
                Some(pl) => format!(
                    "{} moves, but PL[{}] gave the turn to {}",
                    colour_name(color),
                    pl.as_sgf(),
                    colour_name(pl)
                ),
                None => format!(
                    "{} plays twice in a row (a pass or PL[{}] would make the turn explicit)",
                    colour_name(color),
                    color.as_sgf()
                ),
            };
            cx.warning(codes::SAME_COLOR_TWICE, At::Prop(prop), msg);
        }
    }
    state.last = Some(color);
    state.next = None;
    let forced = node.get("KO").is_some();
    if let Move::Play(pt) = mv {
        if !pt.is_on(state.board.size()) {
            return; // reported by the point checks
        }
    }
    match state.board.play(color, mv) {
        Ok(caps) => state.captured[color as usize] += caps.len(),
        Err(_) if forced => {}
        Err(IllegalMove::Occupied) => {
            let on = Move::point(mv).and_then(|p| state.board.get(p)).map_or("", |c| colour_name(c));
            cx.error(
                codes::MOVE_OCCUPIED,
                At::Prop(prop),
                format!("{}{}: the point already holds a {on} stone", prop.ident(), show_move(mv)),
            );
        }
        Err(IllegalMove::Suicide) if suicide_allowed => {}
        Err(IllegalMove::Suicide) => cx.error(
            codes::MOVE_SUICIDE,
            At::Prop(prop),
            format!(
                "{}{}: suicide (the stone would have no liberty and captures nothing)",
                prop.ident(),
                show_move(mv)
            ),
        ),
        Err(IllegalMove::Ko) => cx.error(
            codes::MOVE_KO,
            At::Prop(prop),
            format!(
                "{}{}: retakes the ko immediately (KO[] in the node would mark it as intended)",
                prop.ident(),
                show_move(mv)
            ),
        ),
        Err(IllegalMove::OffBoard) => {}
    }
}

fn show_move(mv: Move) -> String {
    format!("[{}]", mv.to_sgf().unwrap_or_default())
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `HA` from the root or the first game-info node of the main line, with its property.
fn handicap_value(tree: &GameTree) -> Option<(u32, Property<'_>)> {
    tree.main_line().take(3).find_map(|n| n.get("HA")).and_then(|p| Some((p.first()?.trim().parse().ok()?, p)))
}

/// The setup before the first move of the main line: stone counts and the first `AB`.
struct Opening<'a> {
    black: u32,
    white: u32,
    first_ab: Option<Property<'a>>,
}

fn opening_setup(tree: &GameTree) -> Opening<'_> {
    let mut o = Opening { black: 0, white: 0, first_ab: None };
    for n in tree.main_line() {
        if n.get("B").is_some() || n.get("W").is_some() {
            break;
        }
        o.black = o.black.saturating_add(count_points(n.get("AB")));
        o.white = o.white.saturating_add(count_points(n.get("AW")));
        if o.first_ab.is_none() {
            o.first_ab = n.get("AB");
        }
    }
    o
}

fn count_points(p: Option<Property<'_>>) -> u32 {
    let Some(p) = p else { return 0 };
    let mut n = 0;
    for v in p.values() {
        let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
        if let Some(points) = expand_rect(a, b) {
            n = u32::try_from(points.count()).map_or(u32::MAX, |c| n.saturating_add(c));
        }
    }
    n
}

/// `HA` against the setup before the first move (the root, or setup nodes right after it):
/// `HA[n]` (n ≥ 2) wants n black stones and no white ones; two or more black stones alone want
/// an `HA`. `HA[n]` with no setup at all is accepted when the game starts with n black moves
/// (free placement).
fn handicap_check(cx: &mut Ctx<'_>, handicap: Option<(u32, Property<'_>)>, opening: &Opening<'_>) {
    let root = cx.tree.root();
    let (ab, aw) = (opening.black, opening.white);
    match handicap {
        Some((h, p)) if h >= 2 => {
            if ab == 0 && aw == 0 {
                let blacks =
                    cx.tree.main_line().skip(1).take_while(|n| matches!(n.mv(), Some((Color::Black, _)))).count();
                if blacks as u32 != h {
                    cx.warning(
                        codes::HANDICAP_STONES,
                        At::Prop(p),
                        format!("HA[{h}] but no handicap stones are set up (AB) before the first move, and the game does not start with {h} black moves"),
                    );
                }
            } else if ab != h || aw > 0 {
                let white = if aw > 0 { format!(" and {aw} white") } else { String::new() };
                cx.warning(
                    codes::HANDICAP_STONES,
                    At::Prop(p),
                    format!("HA[{h}] but the setup before the first move places {ab} black stone(s){white}"),
                );
            }
        }
        _ if ab >= 2 && aw == 0 => {
            let at = match (handicap, opening.first_ab) {
                (Some((_, p)), _) | (None, Some(p)) => At::Prop(p),
                (None, None) => At::Node(root.id()),
            };
            let ha = handicap.map_or_else(|| "no HA".to_string(), |(h, _)| format!("HA[{h}]"));
            cx.warning(
                codes::HANDICAP_STONES,
                at,
                format!("the setup before the first move places {ab} black stones and no white ones, like a handicap, but the game has {ha}"),
            );
        }
        _ => {}
    }
}

/// Compares `RE` with the score counted from `TB`/`TW` in the main line's last node, when they
/// are there: territory counting (territory + prisoners + dead stones) and area counting
/// (stones + territory); `KM` is added for white.
fn result_check(cx: &mut Ctx<'_>, last: Node<'_>, state: &State) {
    let (Some(tb), Some(tw)) = (last.get("TB"), last.get("TW")) else { return };
    let tree = cx.tree;
    let Some(re) = tree.main_line().take(3).find_map(|n| n.get("RE")) else { return };
    let Some(result) = re.first().and_then(GameResult::from_sgf) else { return };
    let komi =
        tree.main_line().take(3).find_map(|n| n.value("KM")).and_then(|k| k.trim().parse::<f64>().ok()).unwrap_or(0.0);
    let points = |p: Property<'_>| -> Vec<Point> {
        let mut out = Vec::new();
        for v in p.values() {
            let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
            if let Some(it) = expand_rect(a, b) {
                out.extend(it.filter(|pt| pt.is_on(state.board.size())));
            }
        }
        out.sort();
        out.dedup();
        out
    };
    let (tb, tw) = (points(tb), points(tw));
    let board = &state.board;
    let dead_in = |area: &[Point], c: Color| area.iter().filter(|&&p| board.get(p) == Some(c)).count() as f64;
    let territory_b = tb.len() as f64 + state.captured[Color::Black as usize] as f64 + dead_in(&tb, Color::White);
    let territory_w =
        tw.len() as f64 + state.captured[Color::White as usize] as f64 + dead_in(&tw, Color::Black) + komi;
    let size = board.size();
    let mut stones = [0.0f64; 2];
    for y in 0..size.height {
        for x in 0..size.width {
            let p = Point::new(x, y);
            match board.get(p) {
                Some(Color::Black) if tw.binary_search(&p).is_err() => stones[0] += 1.0,
                Some(Color::White) if tb.binary_search(&p).is_err() => stones[1] += 1.0,
                _ => {}
            }
        }
    }
    let own = |area: &[Point], c: Color| area.iter().filter(|&&p| board.get(p) != Some(c)).count() as f64;
    let area_b = stones[0] + own(&tb, Color::Black);
    let area_w = stones[1] + own(&tw, Color::White) + komi;
    let margins = [territory_b - territory_w, area_b - area_w];
    let claimed = match &result {
        GameResult::Win { winner, how: WinKind::Score(s) } => Some(if *winner == Color::Black { *s } else { -*s }),
        GameResult::Draw => Some(0.0),
        _ => None,
    };
    let show = |m: f64| match m {
        m if m > 0.0 => format!("B+{}", crate::model::info::format_real(m)),
        m if m < 0.0 => format!("W+{}", crate::model::info::format_real(-m)),
        _ => "a draw".to_string(),
    };
    let counted = format!("territory counting gives {}, area counting {}", show(margins[0]), show(margins[1]));
    let winner_sign = match &result {
        GameResult::Win { winner: Color::Black, .. } => 1.0,
        GameResult::Win { winner: Color::White, .. } => -1.0,
        _ => 0.0,
    };
    let contradicts = |m: f64| if winner_sign == 0.0 { m != 0.0 } else { m * winner_sign < 0.0 };
    let re_text = re.first().unwrap_or_default();
    if (winner_sign != 0.0 || claimed.is_some()) && margins.iter().all(|&m| contradicts(m)) {
        cx.warning(
            codes::RESULT_WINNER,
            At::Value(re, 0),
            format!("RE[{re_text}] but the territory marked in the last node (TB/TW) says otherwise: {counted} (komi {komi})"),
        );
    } else if let Some(c) = claimed {
        if margins.iter().all(|m| (m - c).abs() > 0.01) {
            cx.info(
                codes::RESULT_MARGIN,
                At::Value(re, 0),
                format!("RE[{re_text}] differs from the score of the territory marked in the last node: {counted} (komi {komi})"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes_of, only_codes};

    #[test]
    fn occupied_suicide_and_ko() {
        assert_eq!(codes_of("(;SZ[9];B[aa];W[aa])"), ["1:15 check.move-occupied"]);
        assert_eq!(only_codes("(;SZ[9];B[ba];W[ee];B[ab];W[aa])"), ["check.move-suicide"]);
        assert_eq!(only_codes("(;SZ[9]RU[NZ];B[ba];W[ee];B[ab];W[aa])"), Vec::<String>::new());
        // ko: black captures at cb, white retakes at bb at once
        let ko = "(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc][bb];B[cb];W[bb])";
        assert_eq!(only_codes(ko), ["check.move-ko"]);
        let forced = "(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc][bb];B[cb];W[bb]KO[])";
        assert_eq!(only_codes(forced), Vec::<String>::new());
    }

    #[test]
    fn every_variation_is_replayed_from_its_branch() {
        // The second variation replays from the root, where aa is free; the third from B[aa].
        let text = "(;SZ[9](;B[aa];W[bb](;B[cc])(;B[bb]))(;B[bb];W[aa]))";
        assert_eq!(only_codes(text), ["check.move-occupied"]);
    }

    #[test]
    fn same_colour_twice() {
        assert_eq!(codes_of("(;SZ[9];B[aa];W[cc];B[dd];C[x];B[ee])"), ["1:32 check.same-color-twice"]);
        assert_eq!(only_codes("(;SZ[9];B[aa];PL[B];B[cc])"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[9];B[aa];PL[W];B[cc])"), ["check.same-color-twice"]);
        assert_eq!(only_codes("(;SZ[9];B[aa];W[cc];AE[cc];B[ee];W[gh])"), ["check.setup-after-moves"]);
        // first variation move continues from the branch point's colour
        assert_eq!(only_codes("(;SZ[9];B[aa];W[cg](;B[ab])(;W[ab]))"), ["check.same-color-twice"]);
    }

    #[test]
    fn setup_without_effect() {
        assert_eq!(
            only_codes("(;SZ[9];B[aa];W[ab];AB[aa]AW[ab]AE[ac])"),
            ["check.setup-after-moves", "check.setup-no-effect", "check.setup-no-effect", "check.setup-no-effect"]
        );
    }

    #[test]
    fn handicap_against_setup() {
        assert_eq!(only_codes("(;GM[1]HA[2])"), ["check.size-default", "check.handicap-stones"]);
        assert_eq!(only_codes("(;SZ[9]HA[2]AB[aa][bb])"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[9]AB[aa][ab])"), ["check.handicap-stones"]);
        assert_eq!(only_codes("(;SZ[9]HA[2]AB[aa][ab]AW[cc])"), ["check.handicap-stones"]);
        assert_eq!(only_codes("(;SZ[9]HA[2]AW[aa][ab])"), ["check.handicap-stones"]);
        // free placement: HA[2] then two black moves, then white
        assert_eq!(only_codes("(;SZ[9]HA[2];B[cc];B[gg];W[ee])"), Vec::<String>::new());
        // handicap stones in a setup node after the root
        assert_eq!(only_codes("(;SZ[9]HA[2];AB[cc][gg];W[ee])"), Vec::<String>::new());
        // a problem with both colours set up is not a handicap
        assert_eq!(only_codes("(;SZ[9]AB[aa][ab]AW[ba])"), Vec::<String>::new());
    }

    #[test]
    fn result_against_marked_territory() {
        // 3x3... a 5x5 board split by a wall: black owns columns a-b, white d-e.
        let game = |re: &str| {
            format!(
                "(;SZ[5]KM[0]RE[{re}];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de]TB[aa:be]TW[ea:ee])"
            )
        };
        // black: 10 territory; white: 5 territory.
        assert_eq!(only_codes(&game("B+5")), Vec::<String>::new());
        assert_eq!(only_codes(&game("W+5")), ["check.result-winner"]);
        assert_eq!(only_codes(&game("B+7")), ["check.result-margin"]);
        assert_eq!(only_codes(&game("B+R")), Vec::<String>::new());
    }
}
