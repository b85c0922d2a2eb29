//! Which position to draw: a node of a game tree named by move number or by variation path, and
//! the list of variations with the numbers `--node` takes.
//!
//! Variations are numbered in depth-first order, 1 being the main line: variation `v` is the
//! line from the root to the `v`-th leaf met in pre-order (the numbering sgf-render uses). A
//! path is `V` (the end of variation `V`), `V@M` (move `M` of that line) or `V/D` (the node at
//! depth `D` of that line, the root being depth 0: for setup-only nodes of problems).

use crate::model::{GameTree, NodeId};
use std::fmt::Write;

/// A node given on the command line or by a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// The last node of the main line.
    #[default]
    Last,
    /// The node of move `n` on the main line (`0` = the root, before any move).
    Move(usize),
    /// A node named by a [`NodePath`].
    Path(NodePath),
}

/// Where on a variation a [`NodePath`] stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The variation's last node.
    End,
    /// The node of this move number (`0` = the root).
    Move(usize),
    /// The node at this depth (`0` = the root).
    Depth(usize),
}

/// A variation (1 = the main line, numbered depth-first) and a place on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodePath {
    /// The variation number, from 1.
    pub variation: usize,
    /// Where on it.
    pub stop: Stop,
}

impl NodePath {
    /// Parses `V`, `V@M` or `V/D` (see the module documentation).
    pub fn parse(text: &str) -> Result<NodePath, String> {
        let bad = || format!("'{text}' is not a node path (V, V@MOVE or V/DEPTH, e.g. 2@37)");
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
        let (v, stop) = if let Some((v, m)) = text.split_once('@') {
            (v, Stop::Move(number(m)?))
        } else if let Some((v, d)) = text.split_once('/') {
            (v, Stop::Depth(number(d)?))
        } else {
            (text, Stop::End)
        };
        let variation = number(v)?;
        if variation == 0 {
            return Err(format!("'{text}': variations are numbered from 1 (the main line)"));
        }
        Ok(NodePath { variation, stop })
    }
}

/// The leaves of `tree` in pre-order: the ends of its variations, numbered from 1.
fn leaves(tree: &GameTree) -> Vec<NodeId> {
    (0..tree.len()).map(NodeId::from_index).filter(|&id| tree.first_child(id).is_none()).collect()
}

/// The nodes from the root to `id`, root first.
pub fn path_to(tree: &GameTree, id: NodeId) -> Vec<NodeId> {
    let mut line = vec![id];
    let mut cur = id;
    while let Some(p) = tree.parent(cur) {
        line.push(p);
        cur = p;
    }
    line.reverse();
    line
}

/// Number of moves (`B`/`W`, passes included) on `line`.
pub fn moves_on(tree: &GameTree, line: &[NodeId]) -> usize {
    let size = tree.board_size();
    line.iter().filter(|&&id| tree.node(id).mv_on(size).is_some()).count()
}

/// Cuts `line` after the node of move `n`; `0` keeps the nodes before the first move (the
/// root and any setup nodes).
fn cut_at_move(tree: &GameTree, line: &mut Vec<NodeId>, n: usize, what: &str) -> Result<(), String> {
    let size = tree.board_size();
    let has_move = |id: &NodeId| tree.node(*id).mv_on(size).is_some();
    if n == 0 {
        let keep = line.iter().take_while(|id| !has_move(id)).count();
        line.truncate(keep.max(1));
        return Ok(());
    }
    let mut count = 0;
    for (i, id) in line.iter().enumerate() {
        if has_move(id) {
            count += 1;
            if count == n {
                line.truncate(i + 1);
                return Ok(());
            }
        }
    }
    Err(format!("{what} has {count} moves; there is no move {n}"))
}

/// The nodes from the root to the node `target` names, root first.
pub fn resolve(tree: &GameTree, target: &Target) -> Result<Vec<NodeId>, String> {
    match target {
        Target::Last => Ok(tree.main_line().map(|n| n.id()).collect()),
        Target::Move(n) => {
            let mut line: Vec<NodeId> = tree.main_line().map(|n| n.id()).collect();
            cut_at_move(tree, &mut line, *n, "the main line")?;
            Ok(line)
        }
        Target::Path(path) => {
            let leaves = leaves(tree);
            let Some(&leaf) = leaves.get(path.variation - 1) else {
                return Err(format!(
                    "the game has {} variation{}; there is no variation {} (see --list)",
                    leaves.len(),
                    if leaves.len() == 1 { "" } else { "s" },
                    path.variation
                ));
            };
            let mut line = path_to(tree, leaf);
            match path.stop {
                Stop::End => {}
                Stop::Move(m) => cut_at_move(tree, &mut line, m, &format!("variation {}", path.variation))?,
                Stop::Depth(d) => {
                    if d >= line.len() {
                        return Err(format!(
                            "variation {} has {} nodes below the root; there is no depth {d}",
                            path.variation,
                            line.len() - 1
                        ));
                    }
                    line.truncate(d + 1);
                }
            }
            Ok(line)
        }
    }
}

/// The variation tree of `tree` as text: one line per variation with its number, where it
/// leaves the variation it branches from and the moves it spans.
///
/// ```text
/// 1  moves 1-120
/// 2    from move 37 of 1: moves 37-45
/// 3      from move 40 of 2: moves 40-52
/// ```
pub fn list_variations(tree: &GameTree) -> String {
    let size = tree.board_size();
    let leaves = leaves(tree);
    // For every node: its move number (moves from the root up to and including it).
    let mut move_no = vec![0usize; tree.len()];
    for i in 0..tree.len() {
        let id = NodeId::from_index(i);
        let own = usize::from(tree.node(id).mv_on(size).is_some());
        move_no[i] = tree.parent(id).map_or(0, |p| move_no[p.index()]) + own;
    }
    // The variation each node was first reached by (the lowest-numbered leaf below it).
    let mut owner = vec![0usize; tree.len()];
    let mut depth = vec![0usize; leaves.len()];
    let width = leaves.len().to_string().len();
    let mut out = String::new();
    for (v, &leaf) in leaves.iter().enumerate() {
        let line = path_to(tree, leaf);
        // The first node of this line not already owned by an earlier variation.
        let start = line.iter().position(|id| owner[id.index()] == 0).unwrap_or(0);
        let parent = (start > 0).then(|| owner[line[start - 1].index()]);
        for id in &line[start..] {
            owner[id.index()] = v + 1;
        }
        depth[v] = parent.map_or(0, |p| depth[p - 1] + 1);
        let first = move_no[line[start].index()].max(1);
        let last = move_no[leaf.index()];
        let span = match last {
            0 => "no moves".to_string(),
            _ if first > last => format!("no moves after move {last}"),
            _ if first == last => format!("move {last}"),
            _ => format!("moves {first}-{last}"),
        };
        let _ = write!(out, "{:>width$}  {}", v + 1, "  ".repeat(depth[v]));
        match parent {
            Some(p) => {
                let _ = writeln!(out, "from move {} of {p}: {span}", move_no[line[start - 1].index()]);
            }
            None => {
                let _ = writeln!(out, "{span}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, ReadOptions};

    fn tree(sgf: &str) -> GameTree {
        Format::SGF.read(sgf.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection.games.remove(0)
    }

    #[test]
    fn paths_parse() {
        assert_eq!(NodePath::parse("3").unwrap(), NodePath { variation: 3, stop: Stop::End });
        assert_eq!(NodePath::parse("2@37").unwrap(), NodePath { variation: 2, stop: Stop::Move(37) });
        assert_eq!(NodePath::parse("1/0").unwrap(), NodePath { variation: 1, stop: Stop::Depth(0) });
        assert!(NodePath::parse("0").is_err());
        assert!(NodePath::parse("x@3").is_err());
        assert!(NodePath::parse("1.2").is_err());
    }

    #[test]
    fn variations_are_numbered_depth_first() {
        // Main line B aa, W bb, B cc; at move 2 a variation W dd (with a sub-variation at 3),
        // and at move 1 another first move.
        let t = tree("(;SZ[5](;B[aa](;W[bb];B[cc])(;W[dd](;B[ee])(;B[ea])))(;B[ab]))");
        let text = list_variations(&t);
        assert_eq!(
            text,
            "1  moves 1-3\n2    from move 1 of 1: moves 2-3\n3      from move 2 of 2: move 3\n4    from move 0 of 1: move 1\n"
        );
        let at = |v, stop| {
            let line = resolve(&t, &Target::Path(NodePath { variation: v, stop })).unwrap();
            t.node(*line.last().unwrap()).mv().map(|(_, m)| m.point().unwrap().to_sgf().unwrap())
        };
        assert_eq!(at(1, Stop::End).as_deref(), Some("cc"));
        assert_eq!(at(3, Stop::End).as_deref(), Some("ea"));
        assert_eq!(at(3, Stop::Move(2)).as_deref(), Some("dd"));
        assert_eq!(at(4, Stop::End).as_deref(), Some("ab"));
        assert_eq!(at(2, Stop::Depth(0)), None);
        assert!(resolve(&t, &Target::Path(NodePath { variation: 5, stop: Stop::End })).is_err());
        assert!(resolve(&t, &Target::Path(NodePath { variation: 2, stop: Stop::Move(4) })).is_err());
        let line = resolve(&t, &Target::Move(2)).unwrap();
        assert_eq!(line.len(), 3);
        assert_eq!(resolve(&t, &Target::Move(0)).unwrap().len(), 1);
        assert!(resolve(&t, &Target::Move(9)).unwrap_err().contains("3 moves"));
    }
}
