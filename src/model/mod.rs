//! The common game-tree model every format reads into and writes from.
//!
//! A [`Collection`] holds [`GameTree`]s; a tree holds nodes in pre-order; a node holds
//! properties in their original order; a property holds decoded, unescaped values. Unknown and
//! private properties are kept like known ones. Typed views ([`GameTree::info`],
//! [`Node::mv`], [`GameTree::board_size`]) sit on top.

mod builder;
mod edit;
pub mod info;
pub mod point;
pub mod props;
mod starts;
pub(crate) mod tree;
mod typed;
mod walk;

pub use builder::TreeBuilder;
pub use info::{GameInfo, GameResult, WinKind};
pub use point::{BoardSize, Color, Move, Point};
pub use props::{PropDef, PropKind, ValueType};
pub use tree::{GameTree, Node, NodeId, PropValue, Property, Value};
pub(crate) use tree::{NewProp, NewValue, Stored};
pub use typed::{Double, Typed};

/// The games of one input: an SGF collection, or a single game from a legacy format.
///
/// ```
/// let read = kifu::read(&b"(;GM[1];B[pd])(;GM[1];B[dd])"[..]).unwrap();
/// assert_eq!(read.collection.games.len(), 2);
/// let second = kifu::Collection::new(vec![read.collection.games[1].clone()]);
/// let sgf = kifu::Format::SGF.write(&second, &kifu::WriteOptions::default()).unwrap().bytes;
/// assert!(String::from_utf8(sgf).unwrap().ends_with(";B[dd])\n"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// The games, in input order.
    pub games: Vec<GameTree>,
}

impl Collection {
    /// A collection of the given games.
    pub fn new(games: Vec<GameTree>) -> Collection {
        Collection { games }
    }
}
