//! Review parts of a UGF file: `[ReviewNode]` (the review tree), `[ReviewComment]` (comments on
//! main-line nodes) and `[Figure]` (`.Text` comments and `.Fig` variation diagrams).

use super::codes;
use super::moves::{Geometry, Line, MoveLine, child_with, main_line, move_prop, parse_move_line};
use crate::diag::{Diagnostic, Sink};
use crate::model::{Color, Move, NodeId, PropValue, TreeBuilder};

/// `NODE,n,colour,x,y`: node `n` sits at depth `n − 1` under the node of depth `n − 2` on the
/// current path; an existing child with the same move is reused, else a variation starts.
pub(super) fn read_review_nodes(lines: &[Line], geo: Geometry, b: &mut TreeBuilder, sink: &mut Sink) {
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

/// `.Comment,N` blocks: the text for ReviewNode `N`, i.e. the main-line node after move `N − 1`.
pub(super) fn read_review_comments(lines: &[Line], b: &mut TreeBuilder, sink: &mut Sink) {
    let mut target: Option<(usize, u32)> = None;
    let mut text = String::new();
    let flush = |b: &mut TreeBuilder, target: Option<(usize, u32)>, text: &mut String, sink: &mut Sink| {
        if let Some((off, n)) = target {
            let node = main_node(b, n.saturating_sub(1) as usize, off, &format!(".Comment,{n}"), sink);
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
