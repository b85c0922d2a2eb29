//! Source positions recorded on request (used by `kifu check`).

use kifu::diag::LineIndex;
use kifu::model::NodeId;
use kifu::{Format, ReadOptions};

#[test]
fn nodes_and_properties_know_where_they_start() {
    let text = "(;FF[4]SZ[9]\n;B[ee]\n  C[hi];W[cc])";
    let opts = ReadOptions::default().with_positions(true);
    let read = Format::SGF.read(text.as_bytes().to_vec(), &opts).unwrap();
    let tree = &read.collection.games[0];
    let idx = LineIndex::new(tree.source());
    let pos = |o: usize| {
        let p = idx.position(o);
        (p.line, p.column)
    };
    assert_eq!(pos(tree.node_offset(NodeId::ROOT).unwrap()), (1, 2));
    let c = tree.node(NodeId::from_index(1)).get("C").unwrap();
    assert_eq!(pos(c.offset().unwrap()), (3, 3));
    assert_eq!(c.node(), NodeId::from_index(1));
    assert_eq!(pos(tree.node_offset(NodeId::from_index(2)).unwrap()), (3, 8));
    // Without the option nothing is recorded.
    let plain = Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
    assert_eq!(plain.collection.games[0].node_offset(NodeId::ROOT), None);
}

/// A run of plain moves (read in one fast loop) records the same places as any other node:
/// each node at its `;`, each property at its identifier, the time left after a move included.
#[test]
fn runs_of_moves_record_every_place() {
    let text = "(;SZ[9];B[aa]BL[10];W[bb]WL[9.5]\n ;B[cc];W[dd]C[x];B[ee])";
    let opts = ReadOptions::default().with_positions(true).with_no_repair(true);
    let read = Format::SGF.read(text.as_bytes().to_vec(), &opts).unwrap();
    let tree = &read.collection.games[0];
    assert_eq!(tree.len(), 6);
    let mut props = 0;
    for node in tree.nodes() {
        let at = tree.node_offset(node.id()).unwrap();
        assert_eq!(&text[at..at + 1], ";", "node {}", node.id().index());
        for p in node.props() {
            let at = p.offset().unwrap();
            assert!(text[at..].starts_with(&format!("{}[", p.ident())), "{} at {at}", p.ident());
            props += 1;
        }
    }
    assert_eq!(props, 9);
}
