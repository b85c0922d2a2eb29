//! Source positions recorded on request (used by `kifu check`).

use kifu::diag::LineIndex;
use kifu::model::NodeId;
use kifu::{Format, ReadOptions};

#[test]
fn nodes_and_properties_know_where_they_start() {
    let text = "(;FF[4]SZ[9]\n;B[ee]\n  C[hi];W[cc])";
    let opts = ReadOptions { positions: true, ..ReadOptions::default() };
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
