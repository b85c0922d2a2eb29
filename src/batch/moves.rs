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
    starts: Starts<'c>,
}

/// Where nodes start in the input.
enum Starts<'c> {
    /// One game whose nodes (every one with an offset) start in node order, as the reader
    /// records them: its offsets as they are, nothing copied or sorted.
    InOrder(&'c [u32]),
    /// (node offset, game, node), sorted by offset.
    Sorted(Vec<(usize, usize, NodeId)>),
}

impl<'c> MoveNames<'c> {
    /// Indexes the nodes of `collection` by their offset in the input.
    pub fn new(collection: &'c Collection) -> Self {
        if let [game] = collection.games.as_slice() {
            // `u32::MAX` (no offset) is the largest value: a sorted list ends with none of them.
            if let Some(offsets) = game.node_offsets().filter(|o| o.is_sorted() && o.last() != Some(&u32::MAX)) {
                if offsets.len() == game.len() {
                    return MoveNames { collection, starts: Starts::InOrder(offsets) };
                }
            }
        }
        let mut starts: Vec<(usize, usize, NodeId)> = Vec::new();
        for (g, game) in collection.games.iter().enumerate() {
            starts.extend(game.nodes().filter_map(|n| game.node_offset(n.id()).map(|o| (o, g, n.id()))));
        }
        starts.sort_unstable_by_key(|&(o, g, _)| (o, g));
        MoveNames { collection, starts: Starts::Sorted(starts) }
    }

    /// The game and node that the input's byte `offset` lies in.
    fn node_at(&self, offset: usize) -> Option<(usize, NodeId)> {
        match &self.starts {
            Starts::InOrder(offsets) => {
                let at = offsets.partition_point(|&o| o as usize <= offset);
                at.checked_sub(1).map(|i| (0, NodeId::from_index(i)))
            }
            Starts::Sorted(starts) => {
                let at = starts.partition_point(|&(o, _, _)| o <= offset);
                at.checked_sub(1).and_then(|i| starts.get(i)).map(|&(_, g, node)| (g, node))
            }
        }
    }

    /// Names the move of each diagnostic placed inside one.
    pub fn apply(&self, diags: &mut [Diagnostic]) {
        for d in diags.iter_mut() {
            let Some(pos) = d.position else { continue };
            let Some((g, node)) = self.node_at(pos.offset) else { continue };
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
        // The same game in a collection of two is indexed by sorting: the same names.
        let two = Collection::new(vec![read.collection.games[0].clone(), read.collection.games[0].clone()]);
        assert!(matches!(MoveNames::new(&read.collection).starts, Starts::InOrder(_)));
        assert!(matches!(MoveNames::new(&two).starts, Starts::Sorted(_)));
        let mut again = read.diagnostics.clone();
        name_moves(&two, &mut again);
        assert_eq!(again, diags);
        // without positions nothing changes
        let plain = Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
        let mut same = plain.diagnostics.clone();
        name_moves(&plain.collection, &mut same);
        assert_eq!(same, plain.diagnostics);
    }
}
