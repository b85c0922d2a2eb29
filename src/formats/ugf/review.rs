//! Review parts of a UGF file: `[ReviewNode]` (the review tree), `[ReviewComment]` (comments on
//! main-line nodes) and `[Figure]` (`.Text` comments and `.Fig` variation diagrams).

use super::codes;
use super::moves::{Geometry, Line, MoveLine, child_with, main_line, move_prop, parse_move_line};
use crate::diag::{Diagnostic, Sink};
use crate::model::{Color, Move, NodeId, PropValue, TreeBuilder};
use std::collections::HashMap;

/// Node ids of a `[ReviewNode]` section read in the block grammar, for `.Comment,<id>`.
pub(super) type NodeIds = HashMap<u32, NodeId>;

/// `[ReviewNode]`: the block grammar when the section has `VARIATION,` lines, else the depth
/// grammar. Returns the node of each id for the block grammar (`None` for the depth grammar,
/// where `.Comment,N` means the main-line node at depth `N − 1`).
pub(super) fn read_review(lines: &[Line], geo: Geometry, b: &mut TreeBuilder, sink: &mut Sink) -> Option<NodeIds> {
    let blocks = lines.iter().any(|(_, l)| keyword(l) == Some(VARIATION));
    if blocks {
        Some(read_review_blocks(lines, geo, b, sink))
    } else {
        read_review_nodes(lines, geo, b, sink);
        None
    }
}

const VARIATION: &str = "VARIATION";
const VARIATION_END: &str = "VARIATIONEND";

/// `VARIATION,` or `VARIATIONEND,` (indented or not), upper-cased.
fn keyword(line: &str) -> Option<&'static str> {
    let t = line.trim();
    let word = t.strip_suffix(',').unwrap_or(t).trim();
    [VARIATION, VARIATION_END].into_iter().find(|k| word.eq_ignore_ascii_case(k))
}

/// `NODE,id,colour,x,y` as (id, move): colour 0 is a node without a move, 1 Black, 2 White;
/// x and y are 1-based in the file's orientation (off the board: a pass).
fn node_line(line: &str, geo: Geometry) -> Option<(u32, Option<(&'static str, String)>)> {
    let f: Vec<&str> = line.trim().split(',').map(str::trim).collect();
    if !f.first()?.eq_ignore_ascii_case("NODE") {
        return None;
    }
    let nums: Vec<u32> = f.get(1..5)?.iter().map(|x| x.parse().ok()).collect::<Option<_>>()?;
    let (id, colour, x, y) = (nums[0], nums[1], nums[2], nums[3]);
    let mv = match colour {
        0 => None,
        c => {
            let colour = if c == 1 { Color::Black } else { Color::White };
            let coord = |v: u32| u8::try_from(v.wrapping_sub(1)).unwrap_or(u8::MAX);
            Some(move_prop(colour, geo.to_move(coord(x), coord(y))))
        }
    };
    Some((id, mv))
}

/// The block grammar: `NODE` lines follow each other as parent and child; a `VARIATION,` …
/// `VARIATIONEND,` block (indented, nestable) branches from the node before it, its first node
/// a further child of that node; after the block the line it interrupted goes on. Ids are names
/// only (variation ids continue after the main line's, with gaps).
fn read_review_blocks(lines: &[Line], geo: Geometry, b: &mut TreeBuilder, sink: &mut Sink) -> NodeIds {
    /// A node as read: its id, move, parent (index) and whether it starts a variation.
    struct Read {
        id: u32,
        mv: Option<(&'static str, String)>,
        parent: Option<usize>,
        starts_variation: bool,
    }
    let mut nodes: Vec<Read> = Vec::new();
    // The last node of each open line: the main line first, then per open variation the node
    // it branches from and its own last node.
    let mut stack: Vec<Option<usize>> = vec![None];
    for &(off, raw) in lines {
        if raw.trim().is_empty() {
            continue;
        }
        match keyword(raw) {
            Some(VARIATION) => {
                let from = stack.last().copied().flatten();
                if from.is_none() {
                    sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, "VARIATION before any NODE; skipped"));
                    continue;
                }
                stack.push(from);
                stack.push(None);
                continue;
            }
            Some(_) => {
                if stack.len() < 3 {
                    sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, "VARIATIONEND without VARIATION skipped"));
                } else {
                    stack.truncate(stack.len() - 2);
                }
                continue;
            }
            None => {}
        }
        let Some((id, mv)) = node_line(raw, geo) else {
            sink.push_at(
                off,
                Diagnostic::warning(codes::BAD_LINE, format!("[ReviewNode] line skipped: {}", raw.trim())),
            );
            continue;
        };
        let depth = stack.len();
        let (parent, starts_variation) = match stack[depth - 1] {
            Some(last) => (Some(last), false),
            None if depth == 1 => (None, false),
            None => (stack[depth - 2], true),
        };
        if nodes.iter().any(|n| n.id == id) {
            sink.push_at(
                off,
                Diagnostic::warning(codes::NODE_GAP, format!("node id {id} used twice; the last is kept")),
            );
        }
        nodes.push(Read { id, mv, parent, starts_variation });
        stack[depth - 1] = Some(nodes.len() - 1);
    }
    if stack.len() > 1 {
        sink.push(Diagnostic::warning(codes::BAD_LINE, "[ReviewNode] ends inside a VARIATION block; closed"));
    }
    // Children in tree order: the line a node continues first, then its variations.
    let mut children: Vec<Vec<usize>> = (0..nodes.len()).map(|_| Vec::new()).collect();
    let mut tops = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        match n.parent {
            Some(p) => children[p].push(i),
            None => tops.push(i),
        }
    }
    for list in &mut children {
        list.sort_by_key(|&i| nodes[i].starts_variation);
    }
    let mut ids = NodeIds::new();
    // (read node, builder parent); the first top node without a move is the root.
    let mut work: Vec<(usize, Option<NodeId>)> = tops.iter().rev().map(|&i| (i, None)).collect();
    while let Some((i, parent)) = work.pop() {
        let n = &nodes[i];
        let node = match parent {
            None if n.mv.is_none() => b.root(),
            None => child_with(b, b.root(), n.mv.clone()),
            Some(p) if n.starts_variation => {
                let c = b.add_child(p);
                if let Some((prop, v)) = n.mv.clone() {
                    b.add_prop(c, prop, [v]);
                }
                c
            }
            Some(p) => child_with(b, p, n.mv.clone()),
        };
        ids.insert(n.id, node);
        for &c in children[i].iter().rev() {
            work.push((c, Some(node)));
        }
    }
    ids
}

/// `NODE,n,colour,x,y`: node `n` sits at depth `n − 1` under the node of depth `n − 2` on the
/// current path; an existing child with the same move is reused, else a variation starts.
fn read_review_nodes(lines: &[Line], geo: Geometry, b: &mut TreeBuilder, sink: &mut Sink) {
    let mut path = vec![b.root()];
    let mut shift = 0usize;
    for &(off, raw) in lines {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let nums: Option<Vec<u32>> = f.get(1..5).and_then(|s| s.iter().map(|x| x.parse().ok()).collect());
        let (true, Some(nums)) = (f.first().is_some_and(|k| k.eq_ignore_ascii_case("NODE")), nums) else {
            sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("[ReviewNode] line skipped: {line}")));
            continue;
        };
        let (n, colour, x, y) = (nums[0], nums[1], nums[2], nums[3]);
        if n <= 1 {
            path.truncate(1);
            continue;
        }
        // After a gap, later numbers keep the same shift so the line continues.
        let want = (n - 1) as usize;
        let mut depth = want.saturating_sub(shift).max(1);
        if depth > path.len() {
            sink.push_at(off, Diagnostic::warning(codes::NODE_GAP, format!("node {n} follows no node {}", n - 1)));
            depth = path.len();
            shift = want - depth;
        }
        let parent = path[depth - 1];
        let mv = match colour {
            0 => None,
            c => {
                let colour = if c == 1 { Color::Black } else { Color::White };
                let (xi, yi) = (x.wrapping_sub(1), y.wrapping_sub(1));
                let (xi, yi) = (u8::try_from(xi).unwrap_or(u8::MAX), u8::try_from(yi).unwrap_or(u8::MAX));
                Some(move_prop(colour, geo.to_move(xi, yi)))
            }
        };
        let node = child_with(b, parent, mv);
        path.truncate(depth);
        path.push(node);
    }
}

fn add_comment(b: &mut TreeBuilder, node: NodeId, text: &str) {
    let text = text.trim_matches(|c: char| c == '\n' || c == '\r');
    if text.is_empty() {
        return;
    }
    let joined = match b.value(node, "C") {
        Some(old) => format!("{old}\n\n{text}"),
        None => text.to_string(),
    };
    b.set_prop(node, "C", [joined]);
}

/// The main-line node at `depth`, or the last one (reported) when the line is shorter.
fn main_node(b: &TreeBuilder, depth: usize, off: usize, what: &str, sink: &mut Sink) -> NodeId {
    let main = main_line(b);
    match main.get(depth) {
        Some(&n) => n,
        None => {
            sink.push_at(
                off,
                Diagnostic::warning(
                    codes::COMMENT_TARGET,
                    format!("{what} points past the last node ({}); attached to the last node", main.len()),
                ),
            );
            main.last().copied().unwrap_or(b.root())
        }
    }
}

/// `.Comment,N` blocks: the text for ReviewNode `N`: the node with id `N` in the block grammar
/// (`ids`), else the main-line node after move `N − 1`.
pub(super) fn read_review_comments(lines: &[Line], ids: Option<&NodeIds>, b: &mut TreeBuilder, sink: &mut Sink) {
    let mut target: Option<(usize, u32)> = None;
    let mut text = String::new();
    let flush = |b: &mut TreeBuilder, target: Option<(usize, u32)>, text: &mut String, sink: &mut Sink| {
        if let Some((off, n)) = target {
            let node = match ids.and_then(|ids| ids.get(&n)) {
                Some(&node) => node,
                None => main_node(b, n.saturating_sub(1) as usize, off, &format!(".Comment,{n}"), sink),
            };
            add_comment(b, node, text);
        }
        text.clear();
    };
    for &(off, raw) in lines {
        let line = raw.trim_end();
        if let Some(rest) = line.strip_prefix(".Comment,") {
            flush(b, target, &mut text, sink);
            match rest.trim().parse() {
                Ok(n) => target = Some((off, n)),
                Err(_) => {
                    sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("bad comment header: {line}")));
                    target = None;
                }
            }
            continue;
        }
        if target.is_none() {
            if !line.trim().is_empty() {
                sink.push_at(
                    off,
                    Diagnostic::warning(codes::BAD_LINE, "[ReviewComment] text before any .Comment skipped"),
                );
            }
            continue;
        }
        // One leading space is the writer's guard (and the usual indent of real files).
        text.push_str(line.strip_prefix(' ').unwrap_or(line));
        text.push('\n');
    }
    flush(b, target, &mut text, sink);
}

/// A `.Fig` block under construction.
struct Fig {
    offset: usize,
    number: usize,
    heading: String,
    moves: Vec<MoveLine>,
    text: String,
    labels: Vec<PropValue>,
}

/// `[Figure]`: `.Text,<move>` … `.EndText` comments a main-line move; `.Fig,<move>,…,<heading>,…`
/// … `.EndFig` is a variation hung where its first move number belongs.
pub(super) fn read_figures(lines: &[Line], geo: Geometry, b: &mut TreeBuilder, sink: &mut Sink) {
    let mut fig: Option<Fig> = None;
    // (offset, move number, text, labels) of a top-level .Text block.
    let mut text_block: Option<(usize, usize, String, Vec<PropValue>)> = None;
    let mut in_fig_text = false;
    for &(off, raw) in lines {
        let line = raw.trim_end();
        let t = line.trim_start();
        let fields: Vec<&str> = t.split(',').collect();
        let head = fields.first().copied().unwrap_or("");
        let label = |fields: &[&str]| -> Option<PropValue> {
            let x: u8 = fields.get(1)?.trim().parse().ok()?;
            let y: u8 = fields.get(2)?.trim().parse().ok()?;
            let Move::Play(p) = geo.to_move(x.checked_sub(1)?, y.checked_sub(1)?) else { return None };
            Some(PropValue::composed(&p.to_sgf()?, &fields.get(3..)?.join(",")))
        };
        if let Some(f) = fig.as_mut() {
            match head {
                ".EndFig" => {
                    if let Some(f) = fig.take() {
                        finish_figure(f, geo, b, sink);
                    }
                    in_fig_text = false;
                }
                ".Text" => in_fig_text = true,
                ".EndText" => in_fig_text = false,
                ".#" => match label(&fields) {
                    Some(l) => f.labels.push(l),
                    None => sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("bad label: {t}"))),
                },
                _ if in_fig_text => {
                    f.text.push_str(line);
                    f.text.push('\n');
                }
                _ if t.is_empty() => {}
                _ => match parse_move_line(off, t, sink) {
                    Some(m) => f.moves.push(m),
                    None => {
                        sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("figure line skipped: {t}")))
                    }
                },
            }
            continue;
        }
        if let Some(tb) = text_block.as_mut() {
            match head {
                ".EndText" => {
                    if let Some((o, n, text, labels)) = text_block.take() {
                        let node = main_node(b, n, o, &format!(".Text,{n}"), sink);
                        add_comment(b, node, &text);
                        if !labels.is_empty() {
                            b.append_values(node, "LB", labels);
                        }
                    }
                }
                ".#" => match label(&fields) {
                    Some(l) => tb.3.push(l),
                    None => sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("bad label: {t}"))),
                },
                _ => {
                    tb.2.push_str(line);
                    tb.2.push('\n');
                }
            }
            continue;
        }
        let number = fields.get(1).and_then(|n| n.trim().parse::<usize>().ok());
        match (head, number) {
            (".Text", Some(n)) => text_block = Some((off, n, String::new(), Vec::new())),
            (".Fig", Some(n)) => {
                let heading = fields.get(6).map(|s| s.trim().to_string()).unwrap_or_default();
                fig = Some(Fig {
                    offset: off,
                    number: n,
                    heading,
                    moves: Vec::new(),
                    text: String::new(),
                    labels: Vec::new(),
                });
            }
            _ if t.is_empty() => {}
            _ => sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("[Figure] line skipped: {t}"))),
        }
    }
    if let Some((o, n, text, labels)) = text_block {
        let node = main_node(b, n, o, &format!(".Text,{n}"), sink);
        add_comment(b, node, &text);
        if !labels.is_empty() {
            b.append_values(node, "LB", labels);
        }
    }
    if let Some(f) = fig {
        finish_figure(f, geo, b, sink);
    }
}

fn finish_figure(f: Fig, geo: Geometry, b: &mut TreeBuilder, sink: &mut Sink) {
    let setup = f.moves.iter().filter(|m| m.number == Some(0)).count();
    if setup > 0 {
        sink.push_at(
            f.offset,
            Diagnostic::info(
                codes::FIGURE_SETUP,
                format!("{setup} setup line(s) of a figure not converted (the tree holds the position)"),
            ),
        );
    }
    let moves: Vec<&MoveLine> = f.moves.iter().filter(|m| m.number != Some(0)).collect();
    let Some(first) = moves.first() else {
        let node = main_node(b, f.number, f.offset, &format!(".Fig,{}", f.number), sink);
        let text = if f.heading.is_empty() { f.text } else { format!("{}\n{}", f.heading, f.text) };
        add_comment(b, node, &text);
        if !f.labels.is_empty() {
            b.append_values(node, "LB", f.labels);
        }
        return;
    };
    let start = first.number.unwrap_or(1).saturating_sub(1) as usize;
    let mut cur = main_node(b, start, f.offset, &format!(".Fig,{}", f.number), sink);
    let mut last_colour = b.value(cur, "B").map(|_| Color::Black).or(b.value(cur, "W").map(|_| Color::White));
    let mut first_node = None;
    for m in moves {
        let colour = m.colour.unwrap_or_else(|| last_colour.map_or(Color::Black, Color::opponent));
        last_colour = Some(colour);
        cur = child_with(b, cur, Some(move_prop(colour, geo.to_move(m.x, m.y))));
        first_node.get_or_insert(cur);
    }
    if let Some(n) = first_node.filter(|_| !f.heading.is_empty()) {
        b.set_prop(n, "N", [f.heading]);
    }
    add_comment(b, cur, &f.text);
    if !f.labels.is_empty() {
        b.append_values(cur, "LB", f.labels);
    }
}
