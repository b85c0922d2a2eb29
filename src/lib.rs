//! kifu: convert Go (baduk, weiqi) game records between SGF, the legacy server formats and JSON.
//!
//! Every format reads into and writes from one model ([`model::Collection`] → [`model::GameTree`]
//! → nodes → properties). Readers decide the charset through one shared layer ([`charset`]) and
//! return [`diag::Diagnostic`]s beside their result; nothing here prints or panics on bad input.
//!
//! ```
//! use kifu::{Format, ReadOptions, WriteOptions};
//! let read = Format::SGF.read(b"(;GM[1]SZ[9]PB[Shusaku];B[ee])".to_vec(), &ReadOptions::default()).unwrap();
//! let game = &read.collection.games[0];
//! assert_eq!(game.info().black.as_deref(), Some("Shusaku"));
//! let out = Format::SGF.write(&read.collection, &WriteOptions::default()).unwrap();
//! assert!(String::from_utf8(out.bytes).unwrap().starts_with("(;FF[4]CA[UTF-8]GM[1]SZ[9]"));
//! ```

#![warn(missing_docs)]

pub mod batch;
pub mod charset;
pub mod check;
pub mod diag;
pub mod formats;
pub mod go;
pub mod model;
pub mod normalise;

pub use diag::{Diagnostic, Position, Severity};
pub use formats::{Format, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions, WriteOutput};
pub use model::{Collection, GameTree};

/// Reads `bytes` as `format`, or as the format sniffed from the content when `format` is `None`.
pub fn read(bytes: Vec<u8>, format: Option<Format>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let format = match format.or_else(|| Format::sniff(&bytes)) {
        Some(f) => f,
        None => {
            return Err(ReadError {
                diagnostics: vec![Diagnostic::error(
                    "format.unknown",
                    "cannot tell the input's format from its content",
                )],
            });
        }
    };
    format.read(bytes, options)
}
