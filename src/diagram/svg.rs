//! SVG: one group per layer (`board`, `grid`, `hoshi`, `coordinates`, `stones`, `numbers`,
//! `markup`, `arrows`, `notes`), CSS classes on everything (`stone black`, `mark triangle
//! on-white` …) and a `<style>` per look, so users can restyle; all text is real `<text>`.

use super::layout::{self, Geometry, S};
use super::scene::{Mark, Scene};
use super::{Options, Style};
use crate::model::{Color, Point};
use std::fmt::Write;

/// The font families asked for; DejaVu Sans is embedded for PNG output.
const FONTS: &str = "'DejaVu Sans', Verdana, Arial, sans-serif";
/// Pixels per line when no width is given.
const PX_PER_LINE: f64 = 32.0;
/// Font size of the notes, caption and comments.
const NOTE_SIZE: f64 = 0.42 * S;
/// Line height of the notes.
const NOTE_LINE: f64 = 0.6 * S;

fn css(style: Style) -> String {
    let (page, board, line, edge, black, white, mark_on_empty, selected, last) = match style {
        Style::Simple => ("#ffffff", "#e0b468", "#2b1d0e", 6.0, "#141414", "#fafafa", "#000000", "#3060e0", "#e02020"),
        Style::Print => ("#ffffff", "#ffffff", "#000000", 7.0, "#000000", "#ffffff", "#000000", "#000000", "#000000"),
        Style::Minimal => ("none", "none", "#606060", 2.5, "#202020", "#ffffff", "#000000", "#808080", "#808080"),
    };
    let line_w = if style == Style::Minimal { 2.0 } else { 3.0 };
    format!(
        ".background{{fill:{page}}}\
.board{{fill:{board}}}\
.grid .line{{stroke:{line};stroke-width:{line_w};fill:none;stroke-linecap:square}}\
.grid .edge{{stroke:{line};stroke-width:{edge};fill:none;stroke-linecap:square}}\
.hoshi circle{{fill:{line}}}\
.stone.black{{fill:{black};stroke:{black};stroke-width:3}}\
.stone.white{{fill:{white};stroke:#000000;stroke-width:3.5}}\
.stone.dim{{opacity:0.45}}\
text{{font-family:{FONTS};text-anchor:middle}}\
.coordinates text{{fill:#303030;font-size:{coord}px}}\
.numbers text{{font-size:{num}px}}\
.numbers text.small{{font-size:{small}px}}\
.numbers text.tiny{{font-size:{tiny}px}}\
.on-black{{fill:#ffffff;stroke:#ffffff}}\
.on-white{{fill:#000000;stroke:#000000}}\
.on-empty{{fill:{mark_on_empty};stroke:{mark_on_empty}}}\
.markup .shape{{fill:none;stroke-width:7}}\
.markup .label{{stroke:none;font-size:{label}px}}\
.markup .label-bg{{fill:{board};stroke:none}}\
.markup .selected{{fill:{selected};stroke:none;opacity:0.4}}\
.last-move{{fill:{last};stroke:none}}\
.arrows line{{stroke:{line};stroke-width:9;stroke-linecap:round}}\
.arrows .head{{fill:{line};stroke:none}}\
.notes text{{text-anchor:start;font-size:{NOTE_SIZE}px;fill:#000000}}\
.notes .caption{{font-weight:bold;font-size:{caption}px}}",
        coord = 0.4 * S,
        num = 0.52 * S,
        small = 0.42 * S,
        tiny = 0.32 * S,
        label = 0.5 * S,
        caption = 0.5 * S,
    )
}

/// Escapes text for XML.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A drawing coordinate written with at most two decimals and no trailing zeros, straight into
/// the output (integer arithmetic: float formatting was a tenth of the batch time).
#[derive(Clone, Copy)]
struct Num(i64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let abs = self.0.unsigned_abs();
        let sign = if self.0 < 0 { "-" } else { "" };
        match (abs / 100, abs % 100) {
            (0, 0) => f.write_str("0"),
            (i, 0) => write!(f, "{sign}{i}"),
            (i, d) if d % 10 == 0 => write!(f, "{sign}{i}.{}", d / 10),
            (i, d) => write!(f, "{sign}{i}.{d:02}"),
        }
    }
}

fn n(v: f64) -> Num {
    Num((v * 100.0).round() as i64)
}

/// Roughly how wide `text` is at `size` (wide East Asian characters count double).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars()
        .map(|c| if (c as u32) >= 0x1100 && !('\u{2000}'..'\u{2BFF}').contains(&c) { 1.0 } else { 0.6 })
        .sum::<f64>()
        * size
}

/// Breaks `text` into lines at most `width` wide (at spaces; very long words, and text
/// without spaces, are cut anywhere).
fn wrap(text: &str, width: f64, size: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let candidate = if cur.is_empty() { word.to_string() } else { format!("{cur} {word}") };
        if text_width(&candidate, size) <= width || cur.is_empty() && text_width(word, size) <= width {
            cur = candidate;
            continue;
        }
        if !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
        }
        for c in word.chars() {
            cur.push(c);
            if text_width(&cur, size) > width {
                let last = cur.pop();
                lines.push(std::mem::take(&mut cur));
                cur.extend(last);
            }
        }
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// The lines under the board: caption, notes, comments.
fn text_lines(scene: &Scene, width: f64) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(c) = &scene.caption {
        out.push(("caption", c.clone()));
    }
    // Notes break between notes ("73 at 61;" stays whole) unless one alone is too long.
    let mut line = String::new();
    for (i, note) in scene.notes.iter().enumerate() {
        let item = if i + 1 < scene.notes.len() { format!("{note};") } else { note.clone() };
        let candidate = if line.is_empty() { item.clone() } else { format!("{line} {item}") };
        if text_width(&candidate, NOTE_SIZE) <= width {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            out.push(("note", std::mem::take(&mut line)));
        }
        let mut parts = wrap(&item, width, NOTE_SIZE);
        line = parts.pop().unwrap_or_default();
        out.extend(parts.into_iter().map(|p| ("note", p)));
    }
    if !line.is_empty() {
        out.push(("note", line));
    }
    for c in &scene.comments {
        for l in wrap(c, width, NOTE_SIZE) {
            out.push(("comment", l));
        }
    }
    out
}

/// The class telling what a mark or number sits on.
fn on(stone: Option<Color>) -> &'static str {
    match stone {
        Some(Color::Black) => "on-black",
        Some(Color::White) => "on-white",
        None => "on-empty",
    }
}

/// Draws the scene at the origin; returns the SVG elements, the width and the height.
fn body(scene: &Scene, options: &Options) -> (String, f64, f64) {
    let g = Geometry::new(scene, options.sides());
    let v = g.view;
    let mut out = String::new();
    let (bx, by, bw, bh) = g.board_rect();
    let _ = writeln!(out, r#"<rect class="board" x="{}" y="{}" width="{}" height="{}"/>"#, n(bx), n(by), n(bw), n(bh));

    // Grid: lines reach half a line past the view where the board goes on; real edges are
    // drawn thicker.
    let half = S / 2.0;
    let (l, r, t, b) = (g.x(v.left), g.x(v.right), g.y(v.top), g.y(v.bottom));
    let ext = |cut: bool| if cut { half } else { 0.0 };
    let (el, er) = (ext(v.left > 0), ext(v.right + 1 < g.size.width));
    let (et, eb) = (ext(v.top > 0), ext(v.bottom + 1 < g.size.height));
    let mut lines = String::new();
    let mut edges = String::new();
    for y in v.top..=v.bottom {
        let edge = y == 0 || y + 1 == g.size.height;
        let d = format!("M{} {}H{}", n(l - el), n(g.y(y)), n(r + er));
        if edge { edges.push_str(&d) } else { lines.push_str(&d) }
    }
    for x in v.left..=v.right {
        let edge = x == 0 || x + 1 == g.size.width;
        let d = format!("M{} {}V{}", n(g.x(x)), n(t - et), n(b + eb));
        if edge { edges.push_str(&d) } else { lines.push_str(&d) }
    }
    out.push_str("<g class=\"grid\">");
    if !lines.is_empty() {
        let _ = write!(out, r#"<path class="line" d="{lines}"/>"#);
    }
    if !edges.is_empty() {
        let _ = write!(out, r#"<path class="edge" d="{edges}"/>"#);
    }
    out.push_str("</g>\n");

    let r_hoshi = if options.style == Style::Minimal { 0.06 } else { 0.09 } * S;
    out.push_str("<g class=\"hoshi\">");
    for p in layout::hoshi(g.size).into_iter().filter(|&p| g.shows(p) && scene.cell(p).stone.is_none()) {
        let _ = write!(out, r#"<circle cx="{}" cy="{}" r="{}"/>"#, n(g.x(p.x)), n(g.y(p.y)), n(r_hoshi));
    }
    out.push_str("</g>\n");

    if g.sides.any() {
        out.push_str("<g class=\"coordinates\">");
        let off = g.coord_offset();
        let base = 0.14 * S; // half the cap height of the coordinate font
        for x in v.left..=v.right {
            let label = esc(&layout::column_label(x, options.labels));
            let cx = n(g.x(x));
            if g.sides.top {
                let _ = write!(out, r#"<text x="{cx}" y="{}">{label}</text>"#, n(t - off + base));
            }
            if g.sides.bottom {
                let _ = write!(out, r#"<text x="{cx}" y="{}">{label}</text>"#, n(b + off + base));
            }
        }
        for y in v.top..=v.bottom {
            let label = esc(&layout::row_label(y, g.size, options.labels));
            let cy = n(g.y(y) + base);
            if g.sides.left {
                let _ = write!(out, r#"<text x="{}" y="{cy}">{label}</text>"#, n(l - off));
            }
            if g.sides.right {
                let _ = write!(out, r#"<text x="{}" y="{cy}">{label}</text>"#, n(r + off));
            }
        }
        out.push_str("</g>\n");
    }

    let points: Vec<Point> =
        (v.top..=v.bottom).flat_map(|y| (v.left..=v.right).map(move |x| Point::new(x, y))).collect();
    let shown = |p: &&Point| !scene.cell(**p).hidden;

    out.push_str("<g class=\"stones\">");
    for p in points.iter().filter(shown) {
        let c = scene.cell(*p);
        if let Some(color) = c.stone {
            let class = if color == Color::Black { "black" } else { "white" };
            let dim = if c.dim { " dim" } else { "" };
            let _ = write!(
                out,
                r#"<circle class="stone {class}{dim}" cx="{}" cy="{}" r="{}"/>"#,
                n(g.x(p.x)),
                n(g.y(p.y)),
                n(0.47 * S)
            );
        }
    }
    out.push_str("</g>\n");

    out.push_str("<g class=\"numbers\">");
    for p in points.iter().filter(shown) {
        let c = scene.cell(*p);
        if let (Some(k), Some(_)) = (c.number, c.stone) {
            let text = k.to_string();
            let (small, size) = match text.len() {
                0..=2 => ("", 0.52 * S),
                3 => (" small", 0.42 * S),
                _ => (" tiny", 0.32 * S),
            };
            let _ = write!(
                out,
                r#"<text class="{}{small}" x="{}" y="{}">{text}</text>"#,
                on(c.stone),
                n(g.x(p.x)),
                n(g.y(p.y) + 0.36 * size)
            );
        }
    }
    out.push_str("</g>\n");

    out.push_str("<g class=\"markup\">");
    for p in points.iter().filter(shown) {
        let c = scene.cell(*p);
        let (x, y) = (g.x(p.x), g.y(p.y));
        let cls = on(c.stone);
        match &c.mark {
            None => {}
            Some(Mark::Triangle) => {
                let (h, w) = (0.3 * S, 0.26 * S);
                let _ = write!(
                    out,
                    r#"<path class="shape triangle {cls}" d="M{} {}L{} {}L{} {}Z"/>"#,
                    n(x),
                    n(y - h),
                    n(x + w),
                    n(y + h * 0.5),
                    n(x - w),
                    n(y + h * 0.5)
                );
            }
            Some(Mark::Square) => {
                let a = 0.21 * S;
                let _ = write!(
                    out,
                    r#"<rect class="shape square {cls}" x="{}" y="{}" width="{}" height="{}"/>"#,
                    n(x - a),
                    n(y - a),
                    n(2.0 * a),
                    n(2.0 * a)
                );
            }
            Some(Mark::Circle) => {
                let _ = write!(
                    out,
                    r#"<circle class="shape circle {cls}" cx="{}" cy="{}" r="{}"/>"#,
                    n(x),
                    n(y),
                    n(0.24 * S)
                );
            }
            Some(Mark::Cross) => {
                let a = 0.2 * S;
                let _ = write!(
                    out,
                    r#"<path class="shape cross {cls}" d="M{} {}L{} {}M{} {}L{} {}"/>"#,
                    n(x - a),
                    n(y - a),
                    n(x + a),
                    n(y + a),
                    n(x - a),
                    n(y + a),
                    n(x + a),
                    n(y - a)
                );
            }
            Some(Mark::Selected) => {
                let a = 0.45 * S;
                let _ = write!(
                    out,
                    r#"<rect class="selected" x="{}" y="{}" width="{}" height="{}"/>"#,
                    n(x - a),
                    n(y - a),
                    n(2.0 * a),
                    n(2.0 * a)
                );
            }
            Some(Mark::Label(text)) => {
                if c.stone.is_none() {
                    let _ =
                        write!(out, r#"<circle class="label-bg" cx="{}" cy="{}" r="{}"/>"#, n(x), n(y), n(0.36 * S));
                }
                let size = if text.chars().count() > 2 { 0.36 * S } else { 0.5 * S };
                let _ = write!(
                    out,
                    r#"<text class="label {cls}" x="{}" y="{}" style="font-size:{}px">{}</text>"#,
                    n(x),
                    n(y + 0.36 * size),
                    n(size),
                    esc(text)
                );
            }
        }
        if c.last && c.mark.is_none() && c.number.is_none() {
            let _ = write!(out, r#"<circle class="last-move" cx="{}" cy="{}" r="{}"/>"#, n(x), n(y), n(0.17 * S));
        }
    }
    out.push_str("</g>\n");

    if !scene.arrows.is_empty() {
        out.push_str("<g class=\"arrows\">");
        for a in scene.arrows.iter().filter(|a| g.shows(a.from) && g.shows(a.to)) {
            let (x1, y1, x2, y2) = (g.x(a.from.x), g.y(a.from.y), g.x(a.to.x), g.y(a.to.y));
            let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt();
            let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
            let head = 0.3 * S;
            let (ex, ey) = if a.head { (x2 - ux * head * 0.8, y2 - uy * head * 0.8) } else { (x2, y2) };
            let class = if a.head { "arrow" } else { "line" };
            let _ =
                write!(out, r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#, n(x1), n(y1), n(ex), n(ey));
            if a.head {
                let (px, py) = (-uy, ux);
                let (bx, by) = (x2 - ux * head, y2 - uy * head);
                let _ = write!(
                    out,
                    r#"<path class="head" d="M{} {}L{} {}L{} {}Z"/>"#,
                    n(x2),
                    n(y2),
                    n(bx + px * head * 0.5),
                    n(by + py * head * 0.5),
                    n(bx - px * head * 0.5),
                    n(by - py * head * 0.5)
                );
            }
        }
        out.push_str("</g>\n");
    }

    let mut height = g.height;
    let lines = text_lines(scene, g.width - 2.0 * 0.3 * S);
    if !lines.is_empty() {
        out.push_str("<g class=\"notes\">");
        height += 0.15 * S;
        for (class, text) in lines {
            height += NOTE_LINE;
            let (x, y) = (n(0.3 * S), n(height - 0.17 * S));
            let _ = write!(out, r#"<text class="{class}" x="{x}" y="{y}">{}</text>"#, esc(&text));
        }
        height += 0.25 * S;
        out.push_str("</g>\n");
    }
    (out, g.width, height)
}

/// The size in pixels of a drawing `width` × `height` SVG units wide (before rounding):
/// `options.width`, else 32 pixels per line.
pub(super) fn pixels(width: f64, height: f64, options: &Options) -> (f64, f64) {
    let px = options.width.map_or(width / S * PX_PER_LINE, f64::from);
    (px, px * height / width)
}

fn document(inner: &str, width: f64, height: f64, options: &Options, background: bool) -> String {
    let (px, py) = pixels(width, height, options);
    let mut out = String::with_capacity(inner.len() + 2048);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="kifu-diagram style-{}" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        options.style.name(),
        n(px.round()),
        n(py.round()),
        n(width),
        n(height)
    );
    let _ = writeln!(out, "<style>{}</style>", css(options.style));
    if background {
        let _ = writeln!(out, r#"<rect class="background" width="{}" height="{}"/>"#, n(width), n(height));
    }
    out.push_str(inner);
    out.push_str("</svg>\n");
    out
}

/// A drawing as SVG documents to be drawn one over the other, all of one size (in SVG units
/// and, before rounding, in pixels).
#[cfg_attr(not(feature = "png"), allow(dead_code))]
pub(super) struct Layers {
    /// The size in pixels ([`pixels`]).
    pub(super) pixels: (f64, f64),
    /// The documents, drawn in order.
    pub(super) documents: Vec<String>,
}

/// The SVG of one scene.
pub(super) fn render(scene: &Scene, options: &Options) -> String {
    let (inner, w, h) = body(scene, options);
    document(&inner, w, h, options, true)
}

/// The SVG of one scene as one layer (see [`Layers`]).
pub(super) fn layers(scene: &Scene, options: &Options) -> Layers {
    let (inner, w, h) = body(scene, options);
    Layers { pixels: pixels(w, h, options), documents: vec![document(&inner, w, h, options, true)] }
}

/// Each scene's group, placed on the page, and the page's width and height.
fn figure_groups(scenes: &[Scene], options: &Options) -> (Vec<String>, f64, f64) {
    let mut groups = Vec::with_capacity(scenes.len());
    let (mut width, mut height) = (0.0f64, 0.0);
    for s in scenes {
        let (body, w, h) = body(s, options);
        let mut group = String::with_capacity(body.len() + 64);
        let _ = writeln!(group, r#"<g class="figure" transform="translate(0 {})">"#, n(height));
        group.push_str(&body);
        group.push_str("</g>\n");
        groups.push(group);
        width = width.max(w);
        height += h;
    }
    (groups, width.max(S), height.max(S))
}

/// Several scenes stacked on one page, each in its own `<g class="figure">`.
pub(super) fn render_page(scenes: &[Scene], options: &Options) -> String {
    let (groups, width, height) = figure_groups(scenes, options);
    document(&groups.concat(), width, height, options, true)
}

/// The page of [`render_page`] as layers: the page's background, then each figure in a document
/// of the page's size, so that a PNG parses and draws one figure at a time (the pixels are the
/// page's: every layer has the page's size and view box, and the figures are drawn in order).
pub(super) fn page_layers(scenes: &[Scene], options: &Options) -> Layers {
    let (groups, width, height) = figure_groups(scenes, options);
    let mut documents = vec![document("", width, height, options, true)];
    documents.extend(groups.iter().map(|g| document(g, width, height, options, false)));
    Layers { pixels: pixels(width, height, options), documents }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_escapes() {
        for (v, s) in [(3.0, "3"), (2.5, "2.5"), (-0.001, "0"), (-2.05, "-2.05"), (12.3, "12.3"), (0.07, "0.07")] {
            assert_eq!(n(v).to_string(), s);
        }
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn wrapping_keeps_every_character() {
        let text = "73 at 61; 74 at ▲; 80: pass; averyveryverylongwordthatcannotfit";
        let lines = wrap(text, 10.0 * 0.6 * NOTE_SIZE, NOTE_SIZE);
        assert!(lines.len() > 3);
        assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""));
        assert_eq!(wrap("", 100.0, NOTE_SIZE), [""]);
    }
}
