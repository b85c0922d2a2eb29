//! Writing record batches of the table as Parquet, in row groups of bounded size.

use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use std::io::Write;

/// A row group is closed (and written out) once this many encoded bytes are buffered: what
/// keeps a conversion's memory bounded whatever the number of games.
pub(crate) const ROW_GROUP_BYTES: usize = 24 << 20;

/// Writes the table's record batches ([`super::schema`]) to `W` as one Parquet file: Snappy
/// compression, a row group closed every 24 MiB of encoded data (so memory stays bounded), no
/// dictionary or statistics for the `sgf` text.
///
/// ```
/// use kifu::formats::parquet::{ParquetWriter, Source, TableBuilder};
/// let read = kifu::read(&b"(;PB[Ann];B[pd])"[..]).unwrap();
/// let mut table = TableBuilder::new();
/// table.append(&Source::new(kifu::Format::SGF), &read).unwrap();
/// let mut writer = ParquetWriter::new(Vec::new()).unwrap();
/// writer.write(&table.finish().unwrap()).unwrap();
/// assert_eq!(writer.rows(), 1);
/// assert!(writer.finish().unwrap().starts_with(b"PAR1"));
/// ```
pub struct ParquetWriter<W: Write + Send> {
    inner: ArrowWriter<W>,
    rows: usize,
}

impl<W: Write + Send> std::fmt::Debug for ParquetWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetWriter").field("rows", &self.rows).finish()
    }
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A writer of the table into `out` (nothing is written until the first row group closes).
    pub fn new(out: W) -> Result<ParquetWriter<W>, ParquetError> {
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")))
            .set_column_dictionary_enabled("sgf".into(), false)
            .set_column_statistics_enabled("sgf".into(), EnabledStatistics::None)
            .build();
        let inner = ArrowWriter::try_new(out, super::schema(), Some(props))?;
        Ok(ParquetWriter { inner, rows: 0 })
    }

    /// Writes `batch`'s rows; closes the row group when it has grown to its bound.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        self.inner.write(batch)?;
        self.rows += batch.num_rows();
        if self.inner.in_progress_size() >= ROW_GROUP_BYTES {
            self.inner.flush()?;
        }
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Closes the last row group, writes the footer and gives back the output.
    pub fn finish(self) -> Result<W, ParquetError> {
        self.inner.into_inner()
    }
}
