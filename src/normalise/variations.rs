//! Inline variations that continue the main line (Sina / MultiGo-era files:
//! `;W[ce](;B[qc];W[cq])C[…];B[kp]…`): nodes after a closed variation, inside the same
//! sequence, which FF\[4\] forbids. The SGF reader makes them another variation
//! (`sgf.node-after-variation`); here they become the continuation of the line the variation
//! branched from, and the variation a side line.

use super::{Finding, codes};
use crate::diag::{Diagnostic, Severity};
use crate::model::{GameTree, NodeId};

/// Whether the tree may hold such nodes: it has variations, and its text has a `)` followed by
/// a node or a property (a cheap scan; values may give false alarms). With the reader's node
/// offsets, or where it found the game, only the game's own text is scanned (a collection's
/// games share one source, so a whole-source scan per game would be quadratic); without them,
/// the whole source.
pub(crate) fn candidates(tree: &GameTree) -> bool {
    if !tree.has_variations() || tree.source().is_empty() {
        return false;
    }
    let src = tree.source();
    let last = NodeId::from_index(tree.len() - 1);
    let span = match (tree.node_offset(NodeId::ROOT), tree.node_offset(last), tree.read_span()) {
        (Some(a), Some(b), _) if a <= b && b <= src.len() => a..b,
        (_, _, Some(span)) => span,
        _ => 0..src.len(),
    };
    memchr::memchr_iter(b')', &src.as_bytes()[span.clone()]).any(|at| continues(src, span.start + at + 1))
}

/// Whether `src` has a `)` followed by a node or a property anywhere (one scan for all the
/// games that share it).
pub(crate) fn source_may_continue(src: &str) -> bool {
    memchr::memchr_iter(b')', src.as_bytes()).any(|at| continues(src, at + 1))
}

/// Whether the text at `from` (after a `)`) opens a node or a property: blanks, then `;` or a
/// letter.
fn continues(src: &str, from: usize) -> bool {
    src.as_bytes()[from..]
        .iter()
        .find(|c| !c.is_ascii_whitespace())
        .is_some_and(|&c| c == b';' || c.is_ascii_alphabetic())
}

/// Whether the text just before `at` (blanks skipped) is `)`.
fn after_close(src: &str, at: usize) -> bool {
    src.as_bytes()[..at].iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b')')
}

/// The new child order of every parent with such a continuation (continuations first), and one
/// finding per moved node. Needs the reader's node offsets; nothing is done without them.
pub(crate) fn plan(tree: &GameTree, findings: &mut Vec<Finding>) -> Vec<(NodeId, Vec<NodeId>)> {
    let mut out = Vec::new();
    if tree.node_offset(NodeId::ROOT).is_none() || !candidates(tree) {
        return out;
    }
    let src = tree.source();
    for n in tree.nodes() {
        let kids: Vec<NodeId> = tree.children(n.id()).collect();
        if kids.len() < 2 {
            continue;
        }
        let inline: Vec<NodeId> =
            kids[1..].iter().copied().filter(|&c| tree.node_offset(c).is_some_and(|o| after_close(src, o))).collect();
        if inline.is_empty() {
            continue;
        }
        for &c in &inline {
            let msg = "this node follows a closed variation in the same sequence (FF[4] forbids it): it now \
                       continues the line the variation branched from, and the variation is a side line";
            findings.push(Finding {
                node: c,
                origin: None,
                diag: Diagnostic::new(Severity::Warning, codes::INLINE_VARIATION, msg),
                capped: false,
            });
        }
        let mut order = inline.clone();
        order.extend(kids.iter().copied().filter(|k| !inline.contains(k)));
        out.push((n.id(), order));
    }
    out
}
