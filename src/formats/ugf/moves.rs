//! The move-line grammar the `[Data]`, `[ReviewNode]` and `[Figure]` readers share: lines,
//! board geometry, `XY,B1,n,seconds` move lines, and finding or adding the child that holds a
//! move.

use super::codes;
use crate::diag::{Diagnostic, Sink};
use crate::model::{Color, Move, NodeId, Point, TreeBuilder};

/// A line of a section and the byte offset where it starts.
pub(super) type Line<'a> = (usize, &'a str);

/// One parsed `[Data]` (or figure) move line.
pub(super) struct MoveLine {
    pub(super) offset: usize,
    pub(super) x: u8,
    pub(super) y: u8,
    pub(super) colour: Option<Color>,
    pub(super) player: Option<char>,
    pub(super) number: Option<u32>,
    pub(super) seconds: Option<String>,
    pub(super) clock: Option<String>,
}

/// Board geometry: size and row orientation.
#[derive(Clone, Copy)]
pub(super) struct Geometry {
    pub(super) size: u8,
    pub(super) flip: bool,
}

impl Geometry {
    /// A 0-based (column, row-as-written) pair → a move; off-board is a pass.
    pub(super) fn to_move(self, x: u8, y: u8) -> Move {
        if x >= self.size || y >= self.size {
            return Move::Pass;
        }
        let row = if self.flip { self.size - 1 - y } else { y };
        Move::Play(Point::new(x, row))
    }
}

fn letter(c: u8) -> Option<u8> {
    c.is_ascii_alphabetic().then(|| c.to_ascii_uppercase() - b'A')
}

/// Parses `XY,B1,n,seconds[ clock][,extra]`.
pub(super) fn parse_move_line(off: usize, line: &str, sink: &mut Sink) -> Option<MoveLine> {
    let fields: Vec<&str> = line.trim().split(',').collect();
    let coord = fields.first()?.trim().as_bytes();
    if coord.len() != 2 || fields.len() < 2 {
        return None;
    }
    let (x, y) = (letter(coord[0])?, letter(coord[1])?);
    let who = fields[1].trim();
    let mut chars = who.chars();
    let (colour, player) = match chars.next().map(|c| c.to_ascii_uppercase()) {
        Some('B') => (Some(Color::Black), chars.next()),
        Some('W') => (Some(Color::White), chars.next()),
        _ => (None, None),
    };
    let number = match fields.get(2).map(|s| s.trim()) {
        None | Some("") => None,
        Some(n) => Some(n.parse().ok()?),
    };
    let (seconds, clock) = match fields.get(3).map(|s| s.trim()) {
        None | Some("") => (None, None),
        Some(t) => {
            let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
            let rest = t[end..].trim();
            (Some(t[..end].to_string()).filter(|s| !s.is_empty()), Some(rest.to_string()).filter(|s| !s.is_empty()))
        }
    };
    if fields.len() > 4 {
        sink.push_at(
            off,
            Diagnostic::info(codes::EXTRA_FIELD, format!("extra field(s) ignored: {}", fields[4..].join(","))),
        );
    }
    Some(MoveLine { offset: off, x, y, colour, player, number, seconds, clock })
}

pub(super) fn move_prop(colour: Color, mv: Move) -> (&'static str, String) {
    (colour.as_sgf(), mv.to_sgf().unwrap_or_default())
}

/// The move (colour and SGF value) a builder node holds, if any.
fn node_move(b: &TreeBuilder, n: NodeId) -> Option<(&'static str, String)> {
    ["B", "W"].into_iter().find_map(|c| b.value(n, c).map(|v| (c, v.to_string())))
}

/// The child of `parent` holding exactly `mv` (or no move), else a new child holding it.
pub(super) fn child_with(b: &mut TreeBuilder, parent: NodeId, mv: Option<(&'static str, String)>) -> NodeId {
    let found = b.children(parent).find(|&c| node_move(b, c) == mv);
    if let Some(c) = found {
        return c;
    }
    let c = b.add_child(parent);
    if let Some((id, v)) = mv {
        b.add_prop(c, id, [v]);
    }
    c
}

/// The main line: the root and each first child.
pub(super) fn main_line(b: &TreeBuilder) -> Vec<NodeId> {
    let mut out = vec![b.root()];
    while let Some(next) = out.last().and_then(|&n| b.children(n).next()) {
        out.push(next);
    }
    out
}
