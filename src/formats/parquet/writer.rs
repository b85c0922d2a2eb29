//! Writing record batches of the table as Parquet: each row group encoded on its own (on any
//! thread, [`encode`]) and appended in order.

use arrow_array::{Array, ArrayRef, RecordBatch, UInt32Array};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use std::io::Write;
use std::sync::{Arc, OnceLock};

/// A batch written whole ([`ParquetWriter::write`]) goes in row groups of about this many bytes
/// of Arrow memory, so that memory stays bounded whatever its size.
const ROW_GROUP_BYTES: usize = 16 << 20;

/// The index of the `game` column among the Parquet leaf columns (after `file` and `member`).
const GAME_LEAF: usize = 2;

/// How the table is written: Snappy, no dictionary or statistics for the `sgf` text.
fn properties() -> WriterProperties {
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")))
        .set_column_dictionary_enabled("sgf".into(), false)
        .set_column_statistics_enabled("sgf".into(), EnabledStatistics::None);
    // No statistics for the stones of `moves` and `setup` (millions of values, no use in
    // skipping pages).
    let mut props = props;
    for list in ["moves", "setup"] {
        for leaf in ["color", "x", "y"] {
            let path =
                parquet::schema::types::ColumnPath::new(vec![list.into(), "list".into(), "item".into(), leaf.into()]);
            props = props.set_column_statistics_enabled(path.clone(), EnabledStatistics::None);
            // No dictionaries: a lookup for each of millions of stones costs more than it saves.
            // The coordinates, small numbers, as bit-packed deltas; the colours, `B` and `W`, as
            // their lengths (bit-packed deltas: next to nothing) and their bytes.
            use parquet::basic::Encoding::{DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY};
            let encoding = if leaf == "color" { DELTA_LENGTH_BYTE_ARRAY } else { DELTA_BINARY_PACKED };
            props = props.set_column_dictionary_enabled(path.clone(), false);
            props = props.set_column_encoding(path, encoding);
        }
    }
    props.build()
}

/// Makes the column writers of a row group (those of any file with the table's schema and
/// [`properties`]), shared by every thread that encodes rows.
fn factory() -> Result<&'static ArrowRowGroupWriterFactory, ParquetError> {
    static FACTORY: OnceLock<Result<ArrowRowGroupWriterFactory, String>> = OnceLock::new();
    FACTORY
        .get_or_init(|| {
            let writer = ArrowWriter::try_new(Vec::new(), super::schema(), Some(properties()));
            writer.and_then(ArrowWriter::into_serialized_writer).map(|(_, f)| f).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| ParquetError::General(e.clone()))
}

/// One leaf's column writer fed with `column`, whole.
fn encode_columns(batch: &RecordBatch) -> Result<Vec<ArrowColumnChunk>, ParquetError> {
    let schema = super::schema();
    let mut writers = factory()?.create_column_writers(0)?;
    let mut next = writers.iter_mut();
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        for leaf in compute_leaves(field, column)? {
            next.next().ok_or_else(|| ParquetError::General("more leaves than column writers".into()))?.write(&leaf)?;
        }
    }
    writers.into_iter().map(|w| w.close()).collect()
}

/// A batch's rows encoded as one row group ([`encode`]), for [`ParquetWriter::append`].
pub struct EncodedRows {
    chunks: Vec<ArrowColumnChunk>,
    games: UInt32Array,
}

impl std::fmt::Debug for EncodedRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EncodedRows").field("rows", &self.games.len()).finish()
    }
}

impl EncodedRows {
    /// The number of rows.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// These rows with their `game` numbers raised by `by` (only that column is encoded again).
    pub fn renumbered(mut self, by: u32) -> Result<EncodedRows, ParquetError> {
        if by == 0 {
            return Ok(self);
        }
        let raised: UInt32Array = self.games.iter().map(|g| g.map(|g| g.saturating_add(by))).collect();
        let schema = super::schema();
        let field = schema.field_with_name("game").map_err(|e| ParquetError::General(e.to_string()))?;
        let array: ArrayRef = Arc::new(raised.clone());
        let mut writers = factory()?.create_column_writers(0)?;
        if writers.len() <= GAME_LEAF {
            return Err(ParquetError::General("no game column".into()));
        }
        let mut writer = writers.swap_remove(GAME_LEAF);
        for leaf in compute_leaves(field, &array)? {
            writer.write(&leaf)?;
        }
        self.chunks[GAME_LEAF] = writer.close()?;
        self.games = raised;
        Ok(self)
    }
}

/// Encodes `batch` (of [`super::schema`]) as one row group, on the calling thread: the work of
/// writing Parquet, done where the rows were built (a streamed conversion encodes its pieces on
/// the thread pool, and the writer only appends them in order).
pub fn encode(batch: &RecordBatch) -> Result<EncodedRows, ParquetError> {
    let at = batch.schema().index_of("game").map_err(|e| ParquetError::General(e.to_string()))?;
    let games = batch
        .column(at)
        .as_any()
        .downcast_ref::<UInt32Array>()
        .cloned()
        .ok_or_else(|| ParquetError::General("column game is not UInt32".into()))?;
    Ok(EncodedRows { chunks: encode_columns(batch)?, games })
}

/// The bytes `batch`'s rows hold (the data, not the room its buffers were given).
///
/// ```
/// use kifu::formats::parquet::{Source, batch_of, data_size};
/// let read = kifu::read(&b"(;PB[Ann];B[pd])"[..]).unwrap();
/// let batch = batch_of(&Source::new(kifu::Format::SGF), &read).unwrap();
/// assert!(data_size(&batch) < batch.get_array_memory_size());
/// ```
pub fn data_size(batch: &RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| c.to_data().get_slice_memory_size().unwrap_or_else(|_| c.get_array_memory_size()))
        .sum()
}

/// `batches` (of [`super::schema`], one per input, say) gathered into batches of about a row
/// group's size each (16 MiB of data; a batch larger than that stays whole): many small
/// inputs make a few large row groups, which readers prefer to many small ones.
///
/// ```
/// use kifu::formats::parquet::{Source, batch_of, row_groups};
/// let one = |t: &str| batch_of(&Source::new(kifu::Format::SGF), &kifu::read(t.as_bytes()).unwrap()).unwrap();
/// let groups = row_groups(vec![one("(;PB[Ann])"), one("(;PB[Bo])(;PB[Cy])")]).unwrap();
/// assert_eq!(groups.len(), 1);
/// assert_eq!(groups[0].num_rows(), 3);
/// ```
pub fn row_groups(batches: Vec<RecordBatch>) -> Result<Vec<RecordBatch>, ParquetError> {
    let mut out = Vec::new();
    let mut group: Vec<RecordBatch> = Vec::new();
    let mut size = 0;
    let close = |group: &mut Vec<RecordBatch>, out: &mut Vec<RecordBatch>| -> Result<(), ParquetError> {
        match group.len() {
            0 => {}
            1 => out.extend(group.pop()),
            _ => {
                let joined = arrow_select::concat::concat_batches(&super::schema(), group.iter())
                    .map_err(|e| ParquetError::General(e.to_string()))?;
                group.clear();
                out.push(joined);
            }
        }
        Ok(())
    };
    for b in batches.into_iter().filter(|b| b.num_rows() > 0) {
        let n = data_size(&b);
        if size + n > ROW_GROUP_BYTES && !group.is_empty() {
            close(&mut group, &mut out)?;
            size = 0;
        }
        size += n;
        group.push(b);
    }
    close(&mut group, &mut out)?;
    Ok(out)
}

/// Writes the table's record batches ([`super::schema`]) to `W` as one Parquet file: Snappy
/// compression, no dictionary or statistics for the `sgf` text, the Arrow schema embedded. A
/// batch written with [`ParquetWriter::write`] goes in row groups of about 16 MiB; rows encoded
/// elsewhere ([`encode`]) are appended as their own row group.
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
    file: SerializedFileWriter<W>,
    rows: usize,
}

impl<W: Write + Send> std::fmt::Debug for ParquetWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetWriter").field("rows", &self.rows).finish()
    }
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A writer of the table into `out`.
    pub fn new(out: W) -> Result<ParquetWriter<W>, ParquetError> {
        let (file, _) = ArrowWriter::try_new(out, super::schema(), Some(properties()))?.into_serialized_writer()?;
        Ok(ParquetWriter { file, rows: 0 })
    }

    /// Writes `batch`'s rows, in row groups of bounded size.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        let rows = batch.num_rows();
        let size = batch.get_array_memory_size().max(1);
        let step = usize::try_from(rows as u128 * ROW_GROUP_BYTES as u128 / size as u128)
            .unwrap_or(rows)
            .clamp(1, rows.max(1));
        let mut start = 0;
        while start < rows {
            let n = step.min(rows - start);
            self.append(encode(&batch.slice(start, n))?)?;
            start += n;
        }
        Ok(())
    }

    /// Appends rows encoded by [`encode`] as the next row group.
    pub fn append(&mut self, rows: EncodedRows) -> Result<(), ParquetError> {
        if rows.is_empty() {
            return Ok(());
        }
        let mut group = self.file.next_row_group()?;
        for chunk in rows.chunks {
            chunk.append_to_row_group(&mut group)?;
        }
        group.close()?;
        self.rows += rows.games.len();
        Ok(())
    }

    /// The output as written so far: for an in-memory output (`Vec<u8>`), what has been encoded
    /// can be taken from it (and passed on) between writes; the writer counts its bytes itself.
    pub fn written_mut(&mut self) -> &mut W {
        self.file.inner_mut()
    }

    /// Rows written so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Writes the footer and gives back the output.
    pub fn finish(self) -> Result<W, ParquetError> {
        self.file.into_inner()
    }
}
