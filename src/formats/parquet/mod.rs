//! Parquet (feature `parquet`): a table of games, one row per game, written from Arrow record
//! batches. Output only. Specification: [`formats/parquet.md`](crate::spec::parquet).
//!
//! [`schema`] is the table's Arrow schema; [`TableBuilder`] appends the games of each read
//! input (with where they came from, their charset decision and the count of their
//! diagnostics) and gives record batches; [`ParquetWriter`] writes batches to any
//! [`std::io::Write`] in row groups of bounded size, each encoded on its own ([`encode`], on any
//! thread) and appended in order. A large input is converted piece by piece
//! by [`crate::stream::convert`], like the other formats; the registry says so with
//! [`Format::writes_table`](crate::Format::writes_table).
//!
//! ```
//! use kifu::formats::parquet::{ParquetWriter, Source, TableBuilder};
//! let read = kifu::read(&b"(;PB[Ann];B[pd];W[dp])(;PB[Bo];B[dd])"[..]).unwrap();
//! let mut table = TableBuilder::new();
//! table.append(&Source::new(kifu::Format::SGF).with_file("two.sgf"), &read).unwrap();
//! let mut writer = ParquetWriter::new(Vec::new()).unwrap();
//! writer.write(&table.finish().unwrap()).unwrap();
//! let bytes = writer.finish().unwrap();
//! assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
//! ```

mod table;
mod writer;

/// The Arrow record batch the table is given in (re-exported from `arrow-array`).
pub use arrow_array::RecordBatch;
pub use table::{Source, TableBuilder, renumbered, schema};
pub use writer::{EncodedRows, ParquetWriter, data_size, encode, row_groups};

use super::{FormatSpec, WriteError, WriteOptions, WriteOutput};
use crate::diag::Diagnostic;
use crate::model::Collection;

/// Diagnostic codes of the Parquet writer (documented in [`formats/parquet.md`](crate::spec::parquet)).
pub mod codes {
    /// The table could not be built or encoded (an Arrow or Parquet limit, such as more than
    /// 2 GiB of SGF text in one batch), or its output could not be written.
    pub const WRITE_FAILED: &str = "parquet.write-failed";
}

pub(crate) static FORMAT: FormatSpec = FormatSpec {
    name: "parquet",
    aliases: &[],
    extensions: &["parquet"],
    description: "Apache Parquet table of games, one row per game (output only)",
    sniff,
    read: None,
    write: Some(write),
    shared_extension: false,
    cut: None,
    repairs: false,
    parts: None,
    variations: false,
    collections: true,
    table: true,
};

/// A Parquet file starts (and ends) with `PAR1`.
fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PAR1")
}

/// The diagnostic of a table that could not be built or written.
pub(crate) fn failed(what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::WRITE_FAILED, format!("cannot write the Parquet table: {what}"))
}

/// The error of a table that could not be built or written: one [`codes::WRITE_FAILED`]
/// diagnostic saying why.
///
/// ```
/// let e = kifu::formats::parquet::write_failed("no room");
/// assert!(e.to_string().contains("no room"));
/// ```
pub fn write_failed(what: impl std::fmt::Display) -> WriteError {
    WriteError::Invalid(vec![failed(what)])
}

/// The table of one read input's games (see [`TableBuilder::append`]) as one record batch.
///
/// ```
/// use kifu::formats::parquet::{Source, batch_of};
/// let read = kifu::read(&b"(;PB[Ann])(;PB[Bo])"[..]).unwrap();
/// assert_eq!(batch_of(&Source::new(kifu::Format::SGF), &read).unwrap().num_rows(), 2);
/// ```
pub fn batch_of(source: &Source, read: &crate::ReadOutput) -> Result<arrow_array::RecordBatch, WriteError> {
    let mut table = TableBuilder::with_capacity(read.collection.games.len());
    table.append(source, read).and_then(|()| table.finish()).map_err(|e| WriteError::Invalid(vec![failed(e)]))
}

/// `batches` as one Parquet file in memory (row groups of [`ParquetWriter`]'s bound).
///
/// ```
/// use kifu::formats::parquet::{Source, batch_of, write_batches};
/// let read = kifu::read(&b"(;PB[Ann])"[..]).unwrap();
/// let bytes = write_batches(&[batch_of(&Source::new(kifu::Format::SGF), &read).unwrap()]).unwrap();
/// assert!(bytes.starts_with(b"PAR1"));
/// ```
pub fn write_batches(batches: &[arrow_array::RecordBatch]) -> Result<Vec<u8>, WriteError> {
    let mut writer = ParquetWriter::new(Vec::new()).map_err(write_failed)?;
    for b in writer::row_groups(batches.to_vec()).map_err(write_failed)? {
        writer.write(&b).map_err(write_failed)?;
    }
    writer.finish().map_err(write_failed)
}

/// The registry's writer: every game of `collection` in one Parquet file held in memory (no
/// source file; the charset decision from `options`). Large inputs go through
/// [`crate::stream::convert`] instead.
fn write(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    if collection.games.is_empty() {
        return Err(write_failed("no games"));
    }
    let batch = table::collection_batch(collection, options).map_err(write_failed)?;
    Ok(WriteOutput::new(write_batches(&[batch])?, Vec::new()))
}
