//! kifu's specifications of the formats it reads and writes, as in the repository's `formats/`
//! folder: how each is read and written, and every diagnostic code.
//!
//! (The texts are Markdown written for the repository: `FF[4]` and similar are plain text here,
//! not links, and links between the files point into the repository.)

#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_rust_codeblocks)]

/// SGF: FF\[4\] and its ancestors, kifu's reading and writing rules.
#[doc = include_str!("../formats/sgf.md")]
pub mod sgf {}

/// GIB (Tygem).
#[doc = include_str!("../formats/gib.md")]
pub mod gib {}

/// NGF (WBaduk, Cyberoro, Yugen no Ma).
#[doc = include_str!("../formats/ngf.md")]
pub mod ngf {}

/// UGF/UGI (Pandanet).
#[doc = include_str!("../formats/ugf.md")]
pub mod ugf {}

/// kifu's JSON and NDJSON.
#[doc = include_str!("../formats/json.md")]
pub mod json {}

/// Parquet: the table of games (feature `parquet`).
#[doc = include_str!("../formats/parquet.md")]
pub mod parquet {}

/// Charsets: how every reader decides, and how writers encode.
#[doc = include_str!("../formats/charsets.md")]
pub mod charsets {}

/// The checks of `kifu check` ([`crate::check`]).
#[doc = include_str!("../formats/checks.md")]
pub mod checks {}

/// The records of a batch run's report.
#[doc = include_str!("../formats/report.md")]
pub mod report {}

/// Board diagrams: `kifu diagram` and [`crate::diagram`].
#[doc = include_str!("../formats/diagram.md")]
pub mod diagram {}

/// Whole archives: containers (`.zip`, `.tar`, `.tar.gz`, `.gz`) and their limits.
#[doc = include_str!("../formats/archives.md")]
pub mod archives {}
