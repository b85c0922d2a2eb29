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
#[cfg(test)]
pub(crate) fn name_moves(collection: &Collection, diags: &mut [Diagnostic]) {
    MoveNames::new(collection).apply(diags);
}

/// The node index that names the moves of diagnostics, built once for a collection so that several lists of
/// diagnostics (one per game, as `kifu check` keeps them) are named in time linear in their
/// size, not once per list over the whole collection.
pub struct MoveNames<'c> {
    collection: &'c Collection,
    starts: Starts<'c>,
}

/// Where nodes start in the input.
enum Starts<'c> {
    /// Games whose roots start in game order, each with every node's offset in node order (as
    /// the reader records a collection read from one text): the games' first offsets and their
    /// offsets as they are, nothing copied per node or sorted.
    InOrder(Vec<(usize, &'c [u32])>),
    /// (node offset, game, node), sorted by offset.
    Sorted(Vec<(usize, usize, NodeId)>),
}

/// The node offsets of `game` when every node has one and they ascend in node order.
fn offsets_in_order(game: &GameTree) -> Option<&[u32]> {
    // `u32::MAX` (no offset) is the largest value: a sorted list ends with none of them.
    let offsets = game.node_offsets().filter(|o| o.is_sorted() && o.last() != Some(&u32::MAX))?;
    (offsets.len() == game.len() && !offsets.is_empty()).then_some(offsets)
}

/// Every node of `collection` that has an offset, as (offset, game, node) sorted by offset.
fn sorted_starts(collection: &Collection) -> Vec<(usize, usize, NodeId)> {
    let mut starts: Vec<(usize, usize, NodeId)> = Vec::new();
    for (g, game) in collection.games.iter().enumerate() {
        starts.extend(game.nodes().filter_map(|n| game.node_offset(n.id()).map(|o| (o, g, n.id()))));
    }
    starts.sort_unstable_by_key(|&(o, g, _)| (o, g));
    starts
}

impl<'c> MoveNames<'c> {
    /// Indexes the nodes of `collection` by their offset in the input.
    pub fn new(collection: &'c Collection) -> Self {
        let games: Option<Vec<(usize, &[u32])>> =
            collection.games.iter().map(|g| offsets_in_order(g).map(|o| (o[0] as usize, o))).collect();
        // Games that follow one another in the text (each starting after the last node of the
        // one before) are searched game first, then node.
        let apart = |w: &[(usize, &[u32])]| w[0].1.last().is_some_and(|&last| (last as usize) < w[1].0);
        if let Some(games) = games.filter(|g| g.windows(2).all(apart)) {
            return MoveNames { collection, starts: Starts::InOrder(games) };
        }
        MoveNames { collection, starts: Starts::Sorted(sorted_starts(collection)) }
    }

    /// The game and node that the input's byte `offset` lies in.
    fn node_at(&self, offset: usize) -> Option<(usize, NodeId)> {
        match &self.starts {
            Starts::InOrder(games) => {
                let g = games.partition_point(|&(first, _)| first <= offset).checked_sub(1)?;
                let offsets = games[g].1;
                let at = offsets.partition_point(|&o| o as usize <= offset);
                at.checked_sub(1).map(|i| (g, NodeId::from_index(i)))
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

    #[test]
    fn games_in_text_order_are_searched_game_first_with_the_same_names() {
        // Diagnostics in the first, a middle and the last game, in a variation, and in the text
        // between two games.
        let text = "(;GM[1];B[aa];W[bb]C[a ] b])\n(;GM[1];B[cc](;W[dd]C[x]X[)(;W[ee]C[p ] q]))junk\n(;GM[1]\
                    ;B[ff];W[gg]C[z ] z];B[)";
        let read = Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions { positions: true, ..Default::default() });
        let read = read.unwrap();
        assert_eq!(read.collection.games.len(), 3);
        assert!(read.diagnostics.iter().filter(|d| d.position.is_some()).count() >= 3, "{:?}", read.diagnostics);
        let fast = MoveNames::new(&read.collection);
        assert!(matches!(fast.starts, Starts::InOrder(_)));
        let slow = MoveNames { collection: &read.collection, starts: Starts::Sorted(sorted_starts(&read.collection)) };
        let (mut a, mut b) = (read.diagnostics.clone(), read.diagnostics.clone());
        fast.apply(&mut a);
        slow.apply(&mut b);
        assert_eq!(a, b);
        assert!(a.iter().filter(|d| d.message.starts_with("move ")).count() >= 3, "{a:?}");
        for offset in 0..text.len() + 2 {
            assert_eq!(fast.node_at(offset), slow.node_at(offset), "offset {offset}");
        }
    }
}
