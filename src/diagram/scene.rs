//! What a diagram shows, worked out once for every output: the stones of a position (setup and
//! moves replayed with captures by [`crate::go::Board`]), numbers, markup, the last move, the
//! view, notes and comments. The SVG, PNG and text writers only draw a [`Scene`].

use super::numbering::{Drawn, Numbering};
use super::{Options, codes};
use crate::diag::{Diagnostic, LineIndex};
use crate::go::Board;
use crate::model::point::expand_rect;
use crate::model::{BoardSize, Color, GameTree, Move, NodeId, Point};

/// A mark drawn on a point (SGF markup, or kifu's own marker for "x at ▲" notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `TR`.
    Triangle,
    /// `SQ`.
    Square,
    /// `CR`.
    Circle,
    /// `MA`.
    Cross,
    /// `SL`.
    Selected,
    /// `LB`, or a letter naming a stone in the notes.
    Label(String),
}

impl Mark {
    /// The CSS class of the mark (`triangle`, `square`, `circle`, `cross`, `selected`, `label`).
    pub fn class(&self) -> &'static str {
        match self {
            Mark::Triangle => "triangle",
            Mark::Square => "square",
            Mark::Circle => "circle",
            Mark::Cross => "cross",
            Mark::Selected => "selected",
            Mark::Label(_) => "label",
        }
    }
}

/// One intersection as drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// The stone shown.
    pub stone: Option<Color>,
    /// The move number drawn on the stone.
    pub number: Option<u32>,
    /// The mark drawn on the point.
    pub mark: Option<Mark>,
    /// Dimmed (`DD`).
    pub dim: bool,
    /// Outside the view (`VW`): nothing drawn.
    pub hidden: bool,
    /// The last move.
    pub last: bool,
}

/// An arrow (`AR`) or a line (`LN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Start point.
    pub from: Point,
    /// End point.
    pub to: Point,
    /// Whether it has a head (`AR`).
    pub head: bool,
}

/// A rectangle of intersections, bounds included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Leftmost column.
    pub left: u8,
    /// Top row.
    pub top: u8,
    /// Rightmost column.
    pub right: u8,
    /// Bottom row.
    pub bottom: u8,
}

impl Rect {
    /// The whole board.
    pub fn board(size: BoardSize) -> Rect {
        Rect { left: 0, top: 0, right: size.width - 1, bottom: size.height - 1 }
    }

    /// Reads `cc:ff` (two SGF points, any two opposite corners; `cc-ff` also) or a single point.
    pub fn parse(text: &str) -> Result<Rect, String> {
        let bad = || format!("'{text}' is not a range of SGF points such as cc:ff");
        let (a, b) = text.split_once([':', '-']).unwrap_or((text, text));
        let a = Point::from_sgf(a.trim()).ok_or_else(bad)?;
        let b = Point::from_sgf(b.trim()).ok_or_else(bad)?;
        Ok(Rect { left: a.x.min(b.x), top: a.y.min(b.y), right: a.x.max(b.x), bottom: a.y.max(b.y) })
    }

    /// Columns.
    pub fn width(&self) -> u8 {
        self.right - self.left + 1
    }

    /// Rows.
    pub fn height(&self) -> u8 {
        self.bottom - self.top + 1
    }

    /// Whether `p` lies inside.
    pub fn contains(&self, p: Point) -> bool {
        (self.left..=self.right).contains(&p.x) && (self.top..=self.bottom).contains(&p.y)
    }
}

/// Everything one diagram draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The board.
    pub size: BoardSize,
    /// Every intersection, row by row.
    pub cells: Vec<Cell>,
    /// Arrows and lines.
    pub arrows: Vec<Arrow>,
    /// The part of the board drawn.
    pub view: Rect,
    /// The title over the notes (`Figure 2 (51–100)`).
    pub caption: Option<String>,
    /// Moves that could not be drawn on their point: `73 at 61`, `80: pass`.
    pub notes: Vec<String>,
    /// The first numbered move (number and colour), when moves are numbered.
    pub first: Option<(u32, Color)>,
    /// Whether the numbered moves alternate in colour.
    pub alternate: bool,
    /// Comments printed under the board (`--comments`), each one line.
    pub comments: Vec<String>,
    /// What went wrong while building the scene (illegal moves skipped, marks off the board …).
    pub diagnostics: Vec<Diagnostic>,
}

impl Scene {
    /// The cell at `p` (which must be on the board).
    pub fn cell(&self, p: Point) -> &Cell {
        &self.cells[p.y as usize * self.size.width as usize + p.x as usize]
    }

    fn cell_mut(&mut self, p: Point) -> Option<&mut Cell> {
        let w = self.size.width as usize;
        if p.is_on(self.size) { self.cells.get_mut(p.y as usize * w + p.x as usize) } else { None }
    }
}

/// Moves `first..=last` to number (1-based, inclusive).
pub type Span = (u32, u32);

/// The board points of a point-list property on a node, with one diagnostic for each value
/// that reaches off the board.
fn points_of(tree: &GameTree, id: NodeId, ident: &str, size: BoardSize, diags: &mut Vec<Diagnostic>) -> Vec<Point> {
    let node = tree.node(id);
    let mut out = Vec::new();
    for prop in node.props().filter(|p| p.ident() == ident) {
        for v in prop.values() {
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

/// Builds the scene of `line` (root first). With `span`, the position before move `span.0` is
/// drawn with moves `span.0..=span.1` numbered, and the line stops after move `span.1`.
pub fn build(tree: &GameTree, line: &[NodeId], span: Option<Span>, options: &Options) -> Scene {
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
            if span.is_some_and(|(_, b)| moves >= b) {
                break;
            }
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

/// The smallest rectangle holding `points`.
pub fn bounding_box(points: impl Iterator<Item = Point>) -> Option<Rect> {
    let mut r: Option<Rect> = None;
    for p in points {
        r = Some(match r {
            None => Rect { left: p.x, top: p.y, right: p.x, bottom: p.y },
            Some(r) => {
                Rect { left: r.left.min(p.x), top: r.top.min(p.y), right: r.right.max(p.x), bottom: r.bottom.max(p.y) }
            }
        });
    }
    r
}

/// Draws the markup of node `id`: `TR SQ CR MA SL LB` on points, `AR LN` between them.
fn add_markup(scene: &mut Scene, tree: &GameTree, id: NodeId, diags: &mut Vec<Diagnostic>) {
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
fn name_referenced_stones(scene: &mut Scene, n: &Numbering, diags: &mut Vec<Diagnostic>) -> Vec<String> {
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
