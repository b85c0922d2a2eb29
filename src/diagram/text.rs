//! A Unicode text board for terminals and e-mail: `●` black, `○` white, `·` empty, `+` star
//! point, move numbers in place, marks on empty points as `△ □ ◯ × ▪` or their label. What one
//! character cannot show (marks on stones, dimmed points, arrows and lines, the last move, who
//! played the first numbered move) is written under the board.

use super::Options;
use super::layout::{self, hoshi};
use super::scene::{Mark, Scene};
use crate::model::{Color, Point};
use std::fmt::Write;

fn stone(c: Color) -> &'static str {
    match c {
        Color::Black => "●",
        Color::White => "○",
    }
}

fn glyph(mark: &Mark) -> String {
    match mark {
        Mark::Triangle => "△".into(),
        Mark::Square => "□".into(),
        Mark::Circle => "◯".into(),
        Mark::Cross => "×".into(),
        Mark::Selected => "▪".into(),
        Mark::Label(t) => t.chars().take(3).collect(),
    }
}

/// Pads `s` on the left to `w` characters.
fn pad(s: &str, w: usize) -> String {
    let n = s.chars().count();
    format!("{}{s}", " ".repeat(w.saturating_sub(n)))
}

/// The text board of `scene`.
pub(super) fn render(scene: &Scene, options: &Options) -> String {
    let v = scene.view;
    let size = scene.size;
    let sides = options.sides();
    let stars = hoshi(size);
    let points = || (v.top..=v.bottom).flat_map(|y| (v.left..=v.right).map(move |x| Point::new(x, y)));
    let widest = points()
        .map(|p| {
            let c = scene.cell(p);
            match (&c.number, &c.mark) {
                (Some(k), _) => k.to_string().len(),
                (None, Some(m)) if c.stone.is_none() => glyph(m).chars().count(),
                _ => 1,
            }
        })
        .max()
        .unwrap_or(1);
    let col_labels: Vec<String> = (v.left..=v.right).map(|x| layout::column_label(x, options.labels)).collect();
    let w = 1 + widest.max(col_labels.iter().map(|l| l.len()).max().unwrap_or(1));
    let row_w = (v.top..=v.bottom).map(|y| layout::row_label(y, size, options.labels).len()).max().unwrap_or(1);

    let mut out = String::new();
    if let Some(c) = &scene.caption {
        let _ = writeln!(out, "{c}");
    }
    let header = {
        let mut h = " ".repeat(if sides.left { row_w + 1 } else { 0 });
        for l in &col_labels {
            h.push_str(&pad(l, w));
        }
        h.trim_end().to_string()
    };
    let mut board: Vec<String> = Vec::new();
    if sides.top {
        board.push(header.clone());
    }
    let mut on_stones: Vec<(String, String)> = Vec::new();
    let mut last = None;
    for y in v.top..=v.bottom {
        let label = layout::row_label(y, size, options.labels);
        let mut line = String::new();
        if sides.left {
            line.push_str(&pad(&label, row_w));
            line.push(' ');
        }
        for x in v.left..=v.right {
            let p = Point::new(x, y);
            let c = scene.cell(p);
            let shown = if c.hidden {
                " ".to_string()
            } else if let (Some(k), Some(_)) = (c.number, c.stone) {
                k.to_string()
            } else if let Some(s) = c.stone {
                if let Some(m) = &c.mark {
                    let name = format!("{} on {}", glyph(m), stone(s));
                    let at = layout::point_label(p, size, options.labels);
                    match on_stones.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, list)) => {
                            list.push(' ');
                            list.push_str(&at);
                        }
                        None => on_stones.push((name, at)),
                    }
                }
                if c.last {
                    last = Some((s, p));
                }
                stone(s).to_string()
            } else if let Some(m) = &c.mark {
                glyph(m)
            } else if stars.contains(&p) {
                "+".to_string()
            } else {
                "·".to_string()
            };
            line.push_str(&pad(&shown, w));
        }
        if sides.right {
            line.push(' ');
            line.push_str(&label);
        }
        board.push(line.trim_end().to_string());
    }
    if sides.bottom {
        board.push(header);
    }
    // Without row labels, the padding before the first column is not needed.
    let indent = if sides.left {
        0
    } else {
        board.iter().filter(|l| !l.is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0)
    };
    for l in &board {
        let _ = writeln!(out, "{}", l.get(indent..).unwrap_or(""));
    }
    if let Some((k, c)) = scene.first {
        if scene.alternate {
            let _ = writeln!(out, "{} {k} first, colours alternate", stone(c));
        } else {
            for color in [Color::Black, Color::White] {
                let mut list: Vec<u32> = points()
                    .filter_map(|p| scene.cell(p).number.filter(|_| scene.cell(p).stone == Some(color)))
                    .collect();
                list.sort_unstable();
                let list: Vec<String> = list.iter().map(u32::to_string).collect();
                let _ = writeln!(out, "{}: {}", stone(color), list.join(" "));
            }
        }
    }
    if !scene.notes.is_empty() {
        let _ = writeln!(out, "{}", scene.notes.join("; "));
    }
    if !on_stones.is_empty() {
        let list: Vec<String> = on_stones.into_iter().map(|(n, l)| format!("{n}: {l}")).collect();
        let _ = writeln!(out, "Marks on stones: {}", list.join("; "));
    }
    let at = |p: Point| layout::point_label(p, size, options.labels);
    let dim: Vec<String> = points().filter(|&p| scene.cell(p).dim && !scene.cell(p).hidden).map(at).collect();
    if !dim.is_empty() {
        let _ = writeln!(out, "Dimmed: {}", dim.join(" "));
    }
    for (head, name, sign) in [(true, "Arrows", "→"), (false, "Lines", "–")] {
        let list: Vec<String> = scene
            .arrows
            .iter()
            .filter(|a| a.head == head && v.contains(a.from) && v.contains(a.to))
            .map(|a| format!("{}{sign}{}", at(a.from), at(a.to)))
            .collect();
        if !list.is_empty() {
            let _ = writeln!(out, "{name}: {}", list.join(" "));
        }
    }
    if let Some((c, p)) = last {
        let _ = writeln!(out, "Last move: {} {}", stone(c), layout::point_label(p, size, options.labels));
    }
    for c in &scene.comments {
        let _ = writeln!(out, "{c}");
    }
    out
}
