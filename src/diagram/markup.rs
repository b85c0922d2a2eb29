//! Markup on the drawn node (`TR SQ CR MA SL LB AR LN`), point lists read against the board,
//! and the marks naming the unnumbered stones "x at ▲" notes refer to.

use super::codes;
use super::numbering::Numbering;
use super::scene::{Arrow, Mark, Scene};
use crate::diag::Diagnostic;
use crate::model::point::expand_rect;
use crate::model::{BoardSize, GameTree, NodeId, Point};

/// The board points of a point-list property on a node, with one diagnostic for each value
/// that reaches off the board.
pub(super) fn points_of(
    tree: &GameTree,
    id: NodeId,
    ident: &str,
    size: BoardSize,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Point> {
    let node = tree.node(id);
    let mut out = Vec::new();
    for prop in node.props().filter(|p| p.ident() == ident) {
        for v in prop.values() {
            // `VW[]`, `DD[]`: the empty list (FF[4]: the whole board again, nothing dimmed).
            if v.as_str().is_empty() && v.parts().is_none() {
                continue;
            }
            let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
            let Some(points) = expand_rect(a, b) else {
                diags.push(Diagnostic::warning(
                    codes::BAD_MARKUP,
                    format!("{ident}[{}] is not a point or a rectangle; not drawn", v.as_str()),
                ));
                continue;
            };
            let before = out.len();
            let mut off = 0;
            for p in points {
                if p.is_on(size) { out.push(p) } else { off += 1 }
            }
            if off > 0 {
                let what = if out.len() == before { "not drawn" } else { "the part off the board is not drawn" };
                diags.push(Diagnostic::warning(
                    codes::OFF_BOARD,
                    format!("{ident}[{}] reaches off the {size} board; {what}", v.as_str()),
                ));
            }
        }
    }
    out
}

/// Draws the markup of node `id`: `TR SQ CR MA SL LB` on points, `AR LN` between them.
pub(super) fn add_markup(scene: &mut Scene, tree: &GameTree, id: NodeId, diags: &mut Vec<Diagnostic>) {
    let size = scene.size;
    let node = tree.node(id);
    for prop in node.props() {
        let ident = prop.ident();
        let shape = match ident {
            "TR" => Mark::Triangle,
            "SQ" => Mark::Square,
            "CR" => Mark::Circle,
            "MA" => Mark::Cross,
            "SL" => Mark::Selected,
            "LB" => {
                for v in prop.values() {
                    let Some((pt, text)) = v.parts().and_then(|(a, t)| Some((Point::from_sgf(a)?, t))) else {
                        diags.push(Diagnostic::warning(
                            codes::BAD_MARKUP,
                            format!("LB[{}] is not point:text; not drawn", v.as_str()),
                        ));
                        continue;
                    };
                    put_mark(scene, pt, Mark::Label(text.to_string()), "LB", diags);
                }
                continue;
            }
            "AR" | "LN" => {
                for v in prop.values() {
                    let pts = v.parts().and_then(|(a, b)| Some((Point::from_sgf(a)?, Point::from_sgf(b)?)));
                    match pts {
                        Some((from, to)) if from.is_on(size) && to.is_on(size) && from != to => {
                            scene.arrows.push(Arrow { from, to, head: ident == "AR" })
                        }
                        _ => diags.push(Diagnostic::warning(
                            codes::BAD_MARKUP,
                            format!(
                                "{ident}[{}] is not two distinct points on the {size} board; not drawn",
                                v.as_str()
                            ),
                        )),
                    }
                }
                continue;
            }
            _ => continue,
        };
        for p in points_of(tree, id, ident, size, diags) {
            put_mark(scene, p, shape.clone(), ident, diags);
        }
    }
}

fn put_mark(scene: &mut Scene, p: Point, mark: Mark, ident: &str, diags: &mut Vec<Diagnostic>) {
    let size = scene.size;
    let Some(cell) = scene.cell_mut(p) else {
        diags.push(Diagnostic::warning(codes::OFF_BOARD, format!("{ident}[{p}] lies off the {size} board; not drawn")));
        return;
    };
    match &cell.mark {
        None => cell.mark = Some(mark),
        Some(old) if *old == mark => {}
        Some(old) => diags.push(Diagnostic::warning(
            codes::MARK_CONFLICT,
            format!("{p} already has a {} mark; its {ident} is not drawn", old.class()),
        )),
    }
}

/// Marks the unnumbered stones the notes refer to (▲ when there is one and its point has no
/// mark; letters otherwise) and returns the notes.
pub(super) fn name_referenced_stones(scene: &mut Scene, n: &Numbering, diags: &mut Vec<Diagnostic>) -> Vec<String> {
    let stones = n.referenced_stones();
    let free = |s: &Scene, p: Point| s.cell(p).mark.is_none();
    if let [p] = stones.as_slice() {
        if free(scene, *p) {
            if let Some(c) = scene.cell_mut(*p) {
                c.mark = Some(Mark::Triangle);
            }
            return n.notes(|_| "▲".to_string());
        }
    }
    let used: Vec<String> = scene
        .cells
        .iter()
        .filter_map(|c| if let Some(Mark::Label(t)) = &c.mark { Some(t.clone()) } else { None })
        .collect();
    let mut letters = ('a'..='z').map(String::from).filter(|l| !used.contains(l));
    let mut names: Vec<(Point, String)> = Vec::new();
    for p in stones {
        let name = match &scene.cell(p).mark {
            Some(Mark::Label(t)) => t.clone(),
            _ => letters.next().unwrap_or_else(|| p.to_string()),
        };
        if let Some(c) = scene.cell_mut(p) {
            if let Some(old) = c.mark.replace(Mark::Label(name.clone())) {
                if !matches!(old, Mark::Label(_)) {
                    diags.push(Diagnostic::warning(
                        codes::MARK_CONFLICT,
                        format!("{p}: its {} mark gives way to the letter {name} the notes refer to", old.class()),
                    ));
                }
            }
        }
        names.push((p, name));
    }
    n.notes(|p| names.iter().find(|(q, _)| *q == p).map_or_else(|| p.to_string(), |(_, s)| s.clone()))
}
