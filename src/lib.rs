//! kifu reads and writes Go (baduk, weiqi) game records — SGF, GIB (Tygem), NGF (WBaduk),
//! UGF/UGI (Pandanet) and JSON — through one game-tree model, deciding every file's charset and
//! reporting every repair as a diagnostic instead of printing or panicking.
//!
//! # A tour
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let read = kifu::read_path("fixtures/gib/korean-euc-kr.gib")?; // any format, any charset
//! for game in &read.collection.games {
//!     let info = game.info(); // players, ranks, komi, result, date, …
//!     println!("{} vs {}", info.black.unwrap_or_default(), info.white.unwrap_or_default());
//!     for (color, mv) in game.main_line().filter_map(|node| node.mv()) {
//!         print!("{color}[{mv}] "); // B[qd] W[dp] …
//!     }
//! }
//! let mut sgf = Vec::new(); // convert, keeping the input's charset (EUC-KR here)
//! read.collection.write_to(&mut sgf, kifu::Format::SGF, &read.write_options())?;
//! # assert!(sgf.starts_with(b"(;FF[4]CA[EUC-KR]"));
//! # Ok(()) }
//! ```
//!
//! # Where to start
//!
//! * Reading: [`read_path`], [`read`] (any [`std::io::Read`]), [`read_bytes`]; or a
//!   [`Format`] by name ([`Format::SGF`], `"gib".parse()`, [`Format::guess`]) and
//!   [`Format::read`] with [`ReadOptions`]. A [`ReadOutput`] holds the games, the
//!   [charset decision](charset::CharsetDecision) and the [`Diagnostic`]s. Large collections:
//!   [`Format::games`] gives the games one at a time with bounded memory ([`stream`]).
//! * The model ([`model`]): [`Collection`] → [`GameTree`] → [`Node`] →
//!   [`Property`](model::Property) → [`Value`](model::Value), every property kept in order, with
//!   typed views ([`GameTree::info`], [`Node::mv`],
//!   [`Property::typed`](model::Property::typed)), typed setters ([`GameTree::set_player`],
//!   [`GameTree::set_info`], …), walks without recursion ([`GameTree::lines`],
//!   [`GameTree::leaves`], [`GameTree::node_at`]) and [`TreeBuilder`] for
//!   structural edits.
//! * Writing: [`Collection::write_to`] or [`Format::write`] with [`WriteOptions`]
//!   ([`ReadOutput::write_options`] keeps the input's charset); what a format cannot hold comes
//!   back as diagnostics, item by item. [`write_file`] puts the bytes in a file as the command
//!   does (temporary file and rename, no replacing without asking).
//! * Checking: [`check::check_collection`] (what `kifu check` reports); replaying: [`go::Board`].
//! * Drawing: [`diagram::scene()`] then [`diagram::render`] (SVG, PNG or text; numbered figures).
//! * The specifications of every format and every diagnostic code: [`spec`].
//!
//! Feature `archives` (default): [`archive`] reads `.zip`, `.tar`, `.tar.gz` and `.gz` member by
//! member within [`Limits`].
//!
//! Feature `serde`: `Serialize`/`Deserialize` for [`Collection`] and [`GameTree`] in the shape of
//! kifu's JSON ([`spec::json`]).

#![warn(missing_docs, unreachable_pub)]

// The API: what is `pub` here and in these modules is the public
// surface (docs/architecture.md, "API"); `unreachable_pub` keeps everything else `pub(crate)`.
#[cfg(feature = "archives")]
pub mod archive;
pub mod charset;
pub mod check;
pub mod diag;
pub mod diagram;
pub mod formats;
pub mod go;
pub mod model;
pub mod naming;
pub mod normalise;
pub mod output;
pub mod reader;
pub mod select;
#[cfg(not(doctest))]
pub mod spec;
pub mod stream;
pub mod strip;

pub use diag::{Diagnostic, Position, Severity};
pub use entry::{read, read_bytes, read_path, read_path_with, write_file};
pub use formats::{
    Format, Limits, ReadError, ReadOptions, ReadOutput, UnknownFormat, WriteError, WriteOptions, WriteOutput,
};
pub use model::{BoardSize, Collection, Color, GameInfo, GameTree, Move, Node, NodeId, Point, TreeBuilder};
pub use reader::Reader;

mod entry;
mod parallel;
#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(test)]
mod shared_files;
