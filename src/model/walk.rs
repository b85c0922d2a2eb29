//! Walking a [`GameTree`] without recursion: leaves, every line from the root, the line through
//! a node, ancestors, and nodes addressed by a path of child indices. All of them work on trees
//! of any depth (a 100,000-move main line costs nothing more than its length).

use super::tree::{GameTree, Node, NodeId};

impl GameTree {
    /// Every leaf (a node without children), in document order; a tree without variations has
    /// one, the end of the main line.
    ///
    /// ```
    /// let game = kifu::read(&b"(;GM[1];B[pd](;W[dp])(;W[dd];B[pp]))"[..]).unwrap().collection.games.remove(0);
    /// let ends: Vec<_> = game.leaves().map(|n| n.mv().unwrap().1.to_string()).collect();
    /// assert_eq!(ends, ["dp", "pp"]);
    /// ```
    pub fn leaves(&self) -> impl Iterator<Item = Node<'_>> + '_ {
        self.nodes().filter(|n| self.first_child(n.id()).is_none())
    }

    /// Every line from the root to a leaf, one per leaf in document order, root first; the main
    /// line comes first. Built in one pass over the tree with one path kept between lines.
    ///
    /// ```
    /// let game = kifu::read(&b"(;GM[1];B[pd](;W[dp])(;W[dd];B[pp]))"[..]).unwrap().collection.games.remove(0);
    /// let lengths: Vec<usize> = game.lines().map(|line| line.len()).collect();
    /// assert_eq!(lengths, [3, 4]);
    /// let longest = game.lines().max_by_key(|line| line.len()).unwrap();
    /// assert_eq!(longest.last().unwrap().value("B"), Some("pp"));
    /// ```
    pub fn lines(&self) -> impl Iterator<Item = Vec<Node<'_>>> + '_ {
        let mut path: Vec<Node<'_>> = Vec::new();
        self.nodes().filter_map(move |n| {
            let parent = self.parent(n.id());
            while path.last().map(|p| p.id()) != parent {
                path.pop();
            }
            path.push(n);
            self.first_child(n.id()).is_none().then(|| path.clone())
        })
    }

    /// `id`, its parent, and so on up to the root.
    ///
    /// ```
    /// use kifu::model::NodeId;
    /// let game = kifu::read(&b"(;GM[1];B[pd];W[dp])"[..]).unwrap().collection.games.remove(0);
    /// assert_eq!(game.ancestors(NodeId::from_index(2)).count(), 3);
    /// ```
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut cur = self.get_node(id).map(|n| n.id());
        std::iter::from_fn(move || {
            let c = cur?;
            cur = self.parent(c);
            Some(c)
        })
    }

    /// The number of moves of the path from the root to `id`: 0 for the root.
    pub fn depth(&self, id: NodeId) -> usize {
        self.ancestors(id).count().saturating_sub(1)
    }

    /// The nodes from the root to `id`, root first (empty when `id` is not in the tree).
    pub fn line_to(&self, id: NodeId) -> Vec<Node<'_>> {
        let mut line: Vec<Node<'_>> = self.ancestors(id).map(|a| self.node(a)).collect();
        line.reverse();
        line
    }

    /// The variation containing `id`: the line from the root through `id`, continued by first
    /// children down to a leaf.
    ///
    /// ```
    /// use kifu::model::NodeId;
    /// let game = kifu::read(&b"(;GM[1];B[pd](;W[dp])(;W[dd];B[pp]))"[..]).unwrap().collection.games.remove(0);
    /// let w_dd = game.nodes().find(|n| n.value("W") == Some("dd")).unwrap().id();
    /// let line: Vec<_> = game.line_through(w_dd).iter().skip(1).map(|n| n.mv().unwrap().1.to_string()).collect();
    /// assert_eq!(line, ["pd", "dd", "pp"]);
    /// ```
    pub fn line_through(&self, id: NodeId) -> Vec<Node<'_>> {
        let mut line = self.line_to(id);
        let mut cur = line.last().and_then(|n| self.first_child(n.id()));
        while let Some(c) = cur {
            line.push(self.node(c));
            cur = self.first_child(c);
        }
        line
    }

    /// The node reached from the root by taking, at each step, the child of that index (0 = the
    /// first child, which continues the main line); `None` when a step has no such child.
    /// `node_at(&[])` is the root.
    ///
    /// ```
    /// let game = kifu::read(&b"(;GM[1];B[pd](;W[dp])(;W[dd];B[pp]))"[..]).unwrap().collection.games.remove(0);
    /// let n = game.node_at(&[0, 1, 0]).unwrap();
    /// assert_eq!(game.node(n).value("B"), Some("pp"));
    /// assert_eq!(game.path_of(n), [0, 1, 0]);
    /// assert_eq!(game.node_at(&[0, 2]), None);
    /// ```
    pub fn node_at(&self, path: &[usize]) -> Option<NodeId> {
        let mut cur = self.get_node(NodeId::ROOT)?.id();
        for &k in path {
            cur = self.children(cur).nth(k)?;
        }
        Some(cur)
    }

    /// The path of child indices from the root to `id` (the inverse of [`GameTree::node_at`]).
    pub fn path_of(&self, id: NodeId) -> Vec<usize> {
        let mut path: Vec<usize> = self
            .ancestors(id)
            .filter_map(|n| {
                let p = self.parent(n)?;
                Some(self.children(p).position(|c| c == n).unwrap_or(0))
            })
            .collect();
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TreeBuilder;

    const DEPTH: usize = 100_000;

    /// A main line of `DEPTH` moves, a variation branching off at move 50,000 and running to the
    /// same depth, and a one-move variation at the root.
    fn deep() -> (GameTree, NodeId) {
        let mut b = TreeBuilder::new();
        let mut cur = b.root();
        let mut branch_point = cur;
        for i in 0..DEPTH {
            cur = b.add_child(cur);
            b.add_prop(cur, if i % 2 == 0 { "B" } else { "W" }, ["aa"]);
            if i == DEPTH / 2 {
                branch_point = cur;
            }
        }
        let mut v = branch_point;
        for _ in DEPTH / 2 + 1..DEPTH {
            v = b.add_child(v);
            b.add_prop(v, "C", ["variation"]);
        }
        let side = b.add_child(b.root());
        b.add_prop(side, "B", ["dd"]);
        let t = b.build();
        let branch = t.nodes().find(|n| n.value("C").is_some()).unwrap().id();
        (t, branch)
    }

    #[test]
    fn every_walk_handles_100000_deep_trees() {
        let (t, first_var) = deep();
        assert_eq!(t.main_line().count(), DEPTH + 1);
        assert_eq!(t.leaves().count(), 3);
        let lines: Vec<Vec<Node<'_>>> = t.lines().collect();
        assert_eq!(lines.iter().map(Vec::len).collect::<Vec<_>>(), [DEPTH + 1, DEPTH + 1, 2]);
        assert!(lines[0].iter().map(|n| n.id()).eq(t.main_line().map(|n| n.id())));
        assert_eq!(lines[1][DEPTH / 2 + 2].id(), first_var);
        assert_eq!(lines[2][1].value("B"), Some("dd"));

        let end = t.main_line().last().unwrap().id();
        assert_eq!(t.node_at(&vec![0; DEPTH]), Some(end));
        assert_eq!(t.path_of(end), vec![0; DEPTH]);
        assert_eq!(t.depth(end), DEPTH);
        let mut to_var = vec![0; DEPTH / 2 + 1];
        to_var.push(1);
        assert_eq!(t.node_at(&to_var), Some(first_var));
        assert_eq!(t.path_of(first_var), to_var);
        assert_eq!(t.node_at(&[1]).map(|n| t.node(n).value("B")), Some(Some("dd")));

        let through = t.line_through(first_var);
        assert_eq!(through.len(), DEPTH + 1);
        assert_eq!(through.last().unwrap().value("C"), Some("variation"));
        assert_eq!(t.line_to(first_var).len(), DEPTH / 2 + 3);
        assert_eq!(t.ancestors(end).count(), DEPTH + 1);
    }

    #[test]
    fn a_lone_root_is_its_own_line_and_leaf() {
        let t = GameTree::new();
        assert_eq!(t.lines().map(|l| l.len()).collect::<Vec<_>>(), [1]);
        assert_eq!(t.leaves().count(), 1);
        assert_eq!(t.node_at(&[]), Some(NodeId::ROOT));
        assert_eq!(t.node_at(&[0]), None);
        assert!(t.path_of(NodeId::ROOT).is_empty());
        assert!(t.line_to(NodeId::from_index(7)).is_empty());
    }
}
