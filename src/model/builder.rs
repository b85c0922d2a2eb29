//! Building a [`GameTree`] in any order: legacy readers and editors add nodes under any parent
//! and properties to any node, then [`TreeBuilder::build`] lays the tree out in pre-order.

use std::sync::Arc;

use super::tree::{GameTree, NodeId, PropValue};

#[derive(Clone, Debug, Default)]
struct BNode {
    children: Vec<u32>,
    props: Vec<(String, Vec<PropValue>)>,
}

/// A game tree under construction. Node ids handed out here are builder ids; the built tree
/// renumbers nodes in pre-order.
///
/// ```
/// use kifu::model::TreeBuilder;
/// let mut b = TreeBuilder::new();
/// let root = b.root();
/// b.add_prop(root, "SZ", ["9"]);
/// let main = b.add_child(root);
/// b.add_prop(main, "B", ["ee"]);
/// let variation = b.add_child(root);
/// b.add_prop(variation, "B", ["cc"]);
/// let game = b.build();
/// assert_eq!(game.len(), 3);
/// assert_eq!(game.lines().count(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct TreeBuilder {
    nodes: Vec<BNode>,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        TreeBuilder::new()
    }
}

impl TreeBuilder {
    /// A builder holding an empty root node.
    pub fn new() -> TreeBuilder {
        TreeBuilder { nodes: vec![BNode::default()] }
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    /// Add a new last child under `parent` and return it.
    pub fn add_child(&mut self, parent: NodeId) -> NodeId {
        let id = self.nodes.len() as u32;
        self.nodes.push(BNode::default());
        self.nodes[parent.index()].children.push(id);
        NodeId(id)
    }

    /// Append a property to `node` (identifier as it should be written, e.g. `PB`).
    pub fn add_prop<V: Into<PropValue>>(&mut self, node: NodeId, ident: &str, values: impl IntoIterator<Item = V>) {
        let values = values.into_iter().map(Into::into).collect();
        self.nodes[node.index()].props.push((ident.to_string(), values));
    }

    /// Append to the values of the first `ident` property of `node`, creating it if needed.
    pub fn append_values<V: Into<PropValue>>(
        &mut self,
        node: NodeId,
        ident: &str,
        values: impl IntoIterator<Item = V>,
    ) {
        let props = &mut self.nodes[node.index()].props;
        let values = values.into_iter().map(Into::into);
        match props.iter_mut().find(|(i, _)| i == ident) {
            Some((_, v)) => v.extend(values),
            None => props.push((ident.to_string(), values.collect())),
        }
    }

    /// Replace the first `ident` property of `node` (or append it).
    pub fn set_prop<V: Into<PropValue>>(&mut self, node: NodeId, ident: &str, values: impl IntoIterator<Item = V>) {
        let values: Vec<PropValue> = values.into_iter().map(Into::into).collect();
        let props = &mut self.nodes[node.index()].props;
        match props.iter_mut().find(|(i, _)| i == ident) {
            Some((_, v)) => *v = values,
            None => props.push((ident.to_string(), values)),
        }
    }

    /// Whether `node` has a property `ident`.
    pub fn has_prop(&self, node: NodeId, ident: &str) -> bool {
        self.nodes[node.index()].props.iter().any(|(i, _)| i == ident)
    }

    /// The first value of the first `ident` property of `node`.
    pub fn value(&self, node: NodeId, ident: &str) -> Option<&str> {
        self.nodes[node.index()].props.iter().find(|(i, _)| i == ident)?.1.first().map(|v| v.text.as_str())
    }

    /// The children of `node`, in order.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes[node.index()].children.iter().map(|&c| NodeId(c))
    }

    /// Number of nodes so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a builder holds at least its root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Lay the tree out in pre-order (iteratively: any depth is fine).
    pub fn build(self) -> GameTree {
        struct Frame {
            parent: u32,
            children: Vec<u32>,
            next: usize,
            last: Option<u32>,
        }
        let mut tree = GameTree::with_source(Arc::new(String::new()));
        tree.reserve(self.nodes.len(), self.nodes.iter().map(|n| n.props.len()).sum());
        let mut nodes = self.nodes;
        let emit = |tree: &mut GameTree, node: &BNode| {
            for (ident, values) in &node.props {
                tree.push_prop_owned(ident, values);
            }
        };
        let root = std::mem::take(&mut nodes[0]);
        let root_id = tree.push_node(None, None);
        emit(&mut tree, &root);
        let mut stack = vec![Frame { parent: root_id, children: root.children, next: 0, last: None }];
        while let Some(top) = stack.last_mut() {
            let Some(&c) = top.children.get(top.next) else {
                stack.pop();
                continue;
            };
            top.next += 1;
            let id = tree.push_node(Some(top.parent), top.last);
            top.last = Some(id);
            let node = std::mem::take(&mut nodes[c as usize]);
            emit(&mut tree, &node);
            if !node.children.is_empty() {
                stack.push(Frame { parent: id, children: node.children, next: 0, last: None });
            }
        }
        tree.finish();
        tree
    }
}

impl GameTree {
    /// A builder holding a copy of this tree, for structural edits.
    pub fn to_builder(&self) -> TreeBuilder {
        let mut nodes: Vec<BNode> = self
            .nodes()
            .map(|n| BNode {
                children: Vec::new(),
                props: n
                    .props()
                    .map(|p| (p.ident().to_string(), p.values().map(|v| v.to_owned_value()).collect()))
                    .collect(),
            })
            .collect();
        for n in self.nodes().skip(1) {
            let p = self.parent(n.id()).expect("non-root has a parent");
            nodes[p.index()].children.push(n.id().0);
        }
        TreeBuilder { nodes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn builds_pre_order_from_any_order() {
        let mut b = TreeBuilder::new();
        let r = b.root();
        b.add_prop(r, "SZ", ["19"]);
        let m1 = b.add_child(r);
        let m2 = b.add_child(m1);
        let v1 = b.add_child(r); // variation added after the main line
        b.add_prop(m1, "B", ["pd"]);
        b.add_prop(m2, "W", ["dp"]);
        b.add_prop(v1, "B", ["dd"]);
        b.append_values(m1, "C", ["hello"]);
        let t = b.build();
        assert_eq!(t.len(), 4);
        let order: Vec<_> = t.nodes().map(|n| n.props().next().map(|p| p.first().unwrap().to_string())).collect();
        assert_eq!(order, [Some("19".into()), Some("pd".into()), Some("dp".into()), Some("dd".into())]);
        assert_eq!(t.node(NodeId(1)).value("C"), Some("hello"));
        assert_eq!(t.children(NodeId::ROOT).collect::<Vec<_>>(), [NodeId(1), NodeId(3)]);
        assert_eq!(t.to_builder().build(), t);
    }

    #[test]
    fn deep_chains_build_and_drop() {
        let mut b = TreeBuilder::new();
        let mut cur = b.root();
        for i in 0..100_000 {
            cur = b.add_child(cur);
            b.add_prop(cur, if i % 2 == 0 { "B" } else { "W" }, ["aa"]);
        }
        let t = b.build();
        assert_eq!(t.main_line().count(), 100_001);
    }
}
