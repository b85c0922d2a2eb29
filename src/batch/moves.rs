//! Naming the move a diagnostic is about, as players read it: `move 37 (B Q16, SGF pd)`.

use crate::diag::{Diagnostic, board_coordinate};
use crate::model::{Collection, GameTree, Move, NodeId};

/// The name of the move played at `node`, or `None` when it plays none: its number counted
/// from the root along its line, the colour, the board coordinate and the SGF point.
fn move_name(game: &GameTree, node: NodeId) -> Option<String> {
    let size = game.board_size();
    let (color, mv) = game.node(node).mv_on(size)?;
    if let Move::Play(p) = mv {
        if p.x >= size.width || p.y >= size.height {
            return None; // off the board: no coordinate a player could read
        }
    }
    let mut number = 0usize;
    let mut cur = Some(node);
    while let Some(id) = cur {
        number += usize::from(game.node(id).mv_on(size).is_some());
        cur = game.parent(id);
    }
    Some(match mv {
        Move::Pass => format!("move {number} ({color} pass)"),
        Move::Play(p) => {
            let sgf = p.to_sgf().unwrap_or_default();
            format!("move {number} ({color} {}, SGF {sgf})", board_coordinate(p.x, p.y, size.height))
        }
    })
}

/// Prefixes every positioned diagnostic that lies inside a move node with that move's name
/// (`move 37 (B Q16, SGF pd): …`). Needs a collection read with `ReadOptions::positions`;
/// without recorded positions nothing changes. Diagnostics at the very end of the input (an
/// unclosed tree) are about the file, not a move, and are left as they are.
pub fn name_moves(collection: &Collection, diags: &mut [Diagnostic]) {
    MoveNames::new(collection).apply(diags);
}

/// The node index behind [`name_moves`], built once for a collection so that several lists of
/// diagnostics (one per game, as `kifu check` keeps them) are named in time linear in their
/// size, not once per list over the whole collection.
pub struct MoveNames<'c> {
    collection: &'c Collection,
    /// (node offset, game, node), sorted by offset.
    starts: Vec<(usize, usize, NodeId)>,
}

impl<'c> MoveNames<'c> {
    /// Indexes the nodes of `collection` by their offset in the input.
    pub fn new(collection: &'c Collection) -> Self {
        let mut starts: Vec<(usize, usize, NodeId)> = Vec::new();
        for (g, game) in collection.games.iter().enumerate() {
            starts.extend(game.nodes().filter_map(|n| game.node_offset(n.id()).map(|o| (o, g, n.id()))));
        }
        starts.sort_unstable_by_key(|&(o, g, _)| (o, g));
        MoveNames { collection, starts }
    }

    /// Names the move of each diagnostic placed inside one.
    pub fn apply(&self, diags: &mut [Diagnostic]) {
        if self.starts.is_empty() {
            return;
        }
        for d in diags.iter_mut() {
            let Some(pos) = d.position else { continue };
            let at = self.starts.partition_point(|&(o, _, _)| o <= pos.offset);
            let Some(&(_, g, node)) = at.checked_sub(1).and_then(|i| self.starts.get(i)) else { continue };
            let Some(game) = self.collection.games.get(g) else { continue };
            if pos.offset >= game.source().trim_end().len() || d.message.starts_with("move ") {
                continue;
            }
            if let Some(name) = move_name(game, node) {
                d.message = format!("{name}: {}", d.message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, ReadOptions};

    #[test]
    fn diagnostics_inside_a_move_name_it() {
        let text = "(;GM[1]SZ[19];B[pd];W[dp]C[a ] b];B[]C[x]X[)";
        let read = Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions { positions: true, ..Default::default() });
        let read = read.unwrap();
        let mut diags = read.diagnostics.clone();
        assert!(!diags.is_empty());
        name_moves(&read.collection, &mut diags);
        let bracket = diags.iter().find(|d| d.code == "sgf.unescaped-bracket").expect("a bracket repair");
        assert!(bracket.message.starts_with("move 2 (W D4, SGF dp): "), "{}", bracket.message);
        // without positions nothing changes
        let plain = Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
        let mut same = plain.diagnostics.clone();
        name_moves(&plain.collection, &mut same);
        assert_eq!(same, plain.diagnostics);
    }
}
