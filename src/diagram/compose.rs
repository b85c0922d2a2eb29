//! Working a [`Scene`] out from a line of a game tree: setup and moves replayed with captures by
//! [`crate::go::Board`], numbered moves, markup, the last move, `VW` and `DD` as SGF inherits
//! them, comments, and every diagnostic placed at its node.

use super::markup::{add_markup, name_referenced_stones, points_of};
use super::numbering::{Drawn, Numbering};
use super::scene::{Cell, Rect, Scene, Span, bounding_box};
use super::{Options, codes};
use crate::diag::{Diagnostic, LineIndex};
use crate::go::Board;
use crate::model::{Color, GameTree, Move, NodeId, Point};

/// Builds the scene of `line` (root first). With `span`, the position before move `span.0` is
/// drawn with moves `span.0..=span.1` numbered, and the line stops after move `span.1`.
pub(super) fn build(tree: &GameTree, line: &[NodeId], span: Option<Span>, options: &Options) -> Scene {
    build_from(tree, line, span, options, 0)
}

/// [`build`], keeping the diagnostics of the nodes before move `report_from` out (a figure's
/// findings about the moves before it were reported by the figure before).
pub(super) fn build_from(
    tree: &GameTree,
    line: &[NodeId],
    span: Option<Span>,
    options: &Options,
    report_from: u32,
) -> Scene {
    let size = tree.board_size();
    let mut diags = Vec::new();
    let mut board = Board::new(size);
    let mut numbering: Option<Numbering> = None;
    let mut view: Option<Vec<Point>> = None;
    let mut dim: Vec<Point> = Vec::new();
    let mut moves = 0u32;
    let mut end = line.first().copied().unwrap_or(NodeId::ROOT);
    let mut numbered_nodes = Vec::new();
    // (diagnostic index, node) for placing diagnostics at their node.
    let mut nodes: Vec<(usize, NodeId)> = Vec::new();
    for &id in line {
        let node = tree.node(id);
        let mv = node.mv_on(size);
        if let (Some((a, _)), true, None) = (span, mv.is_some(), &numbering) {
            if moves + 1 == a {
                numbering = Some(Numbering::new(size.width, board_cells(&board)));
            }
        }
        for p in node.props() {
            let Some(stone) = p.setup() else { continue };
            for pt in p.points() {
                board.set(pt, stone);
                if let Some(n) = &mut numbering {
                    if pt.is_on(size) {
                        n.setup(pt, stone);
                    }
                }
            }
        }
        let before = diags.len();
        if node.get("VW").is_some() {
            let pts = points_of(tree, id, "VW", size, &mut diags);
            view = (!pts.is_empty()).then_some(pts);
        }
        if node.get("DD").is_some() {
            dim = points_of(tree, id, "DD", size, &mut diags);
        }
        end = id;
        let here = moves + u32::from(mv.is_some());
        locate(&mut diags[before..], here);
        nodes.extend((before..diags.len()).map(|i| (i, id)));
        if let Some((color, m)) = mv {
            moves += 1;
            if let Err(problem) = board.play(color, m) {
                nodes.push((diags.len(), id));
                diags.push(Diagnostic::warning(
                    codes::ILLEGAL_MOVE,
                    format!("move {moves} ({color} {}): {problem}; skipped on the board", show_move(m)),
                ));
            }
            if let Some(n) = &mut numbering {
                n.play(moves, color, m);
                numbered_nodes.push((moves, id));
            }
        }
        if here < report_from {
            diags.truncate(before);
            while nodes.last().is_some_and(|&(i, _)| i >= before) {
                nodes.pop();
            }
        }
        if mv.is_some() && span.is_some_and(|(_, b)| moves >= b) {
            break;
        }
    }

    let mut scene = Scene {
        size,
        cells: vec![Cell::default(); size.area()],
        arrows: Vec::new(),
        view: Rect::board(size),
        caption: options.caption.clone(),
        notes: Vec::new(),
        first: None,
        alternate: true,
        comments: Vec::new(),
        diagnostics: Vec::new(),
    };
    match &numbering {
        Some(n) => {
            for (cell, d) in scene.cells.iter_mut().zip(&n.drawn) {
                match *d {
                    Drawn::Empty => {}
                    Drawn::Stone(c) => cell.stone = Some(c),
                    Drawn::Numbered(k, c) => {
                        cell.stone = Some(c);
                        cell.number = Some(k);
                    }
                }
            }
            scene.first = n.first;
            scene.alternate = n.alternates();
        }
        None => {
            for (cell, s) in scene.cells.iter_mut().zip(board_cells(&board)) {
                cell.stone = s;
            }
            if options.last_move {
                if let Some((_, Move::Play(p))) = tree.node(end).mv_on(size) {
                    if let Some(c) = scene.cell_mut(p) {
                        c.last = c.stone.is_some();
                    }
                }
            }
        }
    }
    if options.markup {
        let before = diags.len();
        add_markup(&mut scene, tree, end, &mut diags);
        locate(&mut diags[before..], moves);
        nodes.extend((before..diags.len()).map(|i| (i, end)));
    }
    for p in dim {
        if let Some(c) = scene.cell_mut(p) {
            c.dim = true;
        }
    }
    if let Some(n) = &numbering {
        scene.notes = name_referenced_stones(&mut scene, n, &mut diags);
    }
    if let Some(pts) = &view {
        for c in scene.cells.iter_mut() {
            c.hidden = true;
        }
        for &p in pts {
            if let Some(c) = scene.cell_mut(p) {
                c.hidden = false;
            }
        }
        scene.view = bounding_box(pts.iter().copied()).unwrap_or(scene.view);
    }
    if options.comments {
        let comment = |id: NodeId| tree.node(id).value("C").map(str::trim).filter(|c| !c.is_empty());
        if numbering.is_some() {
            for (k, id) in &numbered_nodes {
                if let Some(c) = comment(*id) {
                    push_comment(&mut scene.comments, &format!("{k}: "), c);
                }
            }
        } else if let Some(c) = comment(end) {
            push_comment(&mut scene.comments, "", c);
        }
    }
    place(&mut diags, &nodes, tree);
    scene.diagnostics = diags;
    scene
}

/// Gives each diagnostic the line and column of its node, when the reader recorded positions
/// (`ReadOptions::positions`).
fn place(diags: &mut [Diagnostic], nodes: &[(usize, NodeId)], tree: &GameTree) {
    if nodes.is_empty() || tree.node_offset(NodeId::ROOT).is_none() {
        return;
    }
    let index = LineIndex::new(tree.source());
    for &(i, id) in nodes {
        if let (Some(d), Some(offset)) = (diags.get_mut(i), tree.node_offset(id)) {
            d.position = Some(index.position(offset));
        }
    }
}

/// Says at which move (of the line drawn) a diagnostic's node is.
fn locate(diags: &mut [Diagnostic], moves: u32) {
    for d in diags {
        d.message = match moves {
            0 => format!("before move 1: {}", d.message),
            n => format!("at move {n}: {}", d.message),
        };
    }
}

fn push_comment(out: &mut Vec<String>, prefix: &str, text: &str) {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        out.push(if i == 0 { format!("{prefix}{line}") } else { line.to_string() });
    }
}

fn show_move(m: Move) -> String {
    match m {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => p.to_string(),
    }
}

fn board_cells(board: &Board) -> impl Iterator<Item = Option<Color>> + '_ {
    let size = board.size();
    (0..size.height).flat_map(move |y| (0..size.width).map(move |x| board.get(Point::new(x, y))))
}
