//! The binding's only door into the kifu library's entry points: choosing formats and charsets,
//! reading, writing, and writing a file safely. Everything else in the binding works on the
//! model (`kifu::model`) and on what these functions return, so moving to newer library calls
//! changes this file only.

use kifu::{Diagnostic, Format, ReadError, ReadOptions, ReadOutput, Reader, WriteError, WriteOptions, WriteOutput};
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

pub use encoding_rs::Encoding;
pub use kifu::Collection;
pub use kifu::charset::CharsetDecision;

/// The format named `name` or one of its aliases (`sgf`, `ugi`, …), or a message listing them.
pub fn format_named(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<_> = Format::all().map(|f| f.name()).collect();
        format!("unknown format '{name}' (known: {})", names.join(", "))
    })
}

/// The charset labelled `label` (kifu's aliases on top of the WHATWG labels).
pub fn charset_named(label: &str) -> Result<&'static Encoding, String> {
    kifu::charset::encoding_for_label(label).ok_or_else(|| format!("unknown charset '{label}'"))
}

/// The library's read pipeline ([`kifu::Reader`], as `kifu convert` reads): the format named,
/// else the content's when it contradicts the extension (with the warning
/// `input.format-mismatch`), else the extension's, else the content's; the charset forced by
/// `encoding`, else decided by the reader.
fn reader(format: Option<Format>, encoding: Option<&'static Encoding>) -> Reader {
    Reader::new().with_format_opt(format).with_options(ReadOptions::default().with_encoding(encoding))
}

/// Reads `bytes` (from `path`, when they came from a file) through the library's read pipeline
/// ([`reader`]).
pub fn read_bytes(
    bytes: Vec<u8>,
    format: Option<Format>,
    path: Option<&Path>,
    encoding: Option<&'static Encoding>,
) -> Result<ReadOutput, ReadError> {
    reader(format, encoding).read_bytes(bytes, path)
}

/// Reads kifu's JSON as it was written (no repairs): the games a pickle carries.
pub fn read_exact_json(bytes: Vec<u8>) -> Result<ReadOutput, ReadError> {
    let json = Format::from_name("json").expect("kifu has a JSON format");
    Reader::new().with_format(json).with_options(ReadOptions::default().with_no_repair(true)).read_bytes(bytes, None)
}

/// Reads the file at `path` ([`read_bytes`]); the outer error is the file system's.
pub fn read_path(
    path: &Path,
    format: Option<Format>,
    encoding: Option<&'static Encoding>,
) -> io::Result<Result<ReadOutput, ReadError>> {
    let bytes = read_file(path)?;
    Ok(read_bytes(bytes, format, Some(path), encoding))
}

/// Size of each thread's buffer for [`read_file`]: many times a typical game record.
const BUFFER: usize = 64 * 1024;

thread_local! {
    static FILE_BUFFER: RefCell<Vec<u8>> = RefCell::new(vec![0; BUFFER]);
}

/// The bytes of the file at `path`, with few system calls (what matters over thousands of small
/// files): an open, reads into the thread's buffer until the end of the file (for a file smaller
/// than the buffer, one read and an empty one), a close, and no `stat` for the size.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    FILE_BUFFER.with_borrow_mut(|buffer| {
        let mut filled = 0;
        while filled < buffer.len() {
            match file.read(&mut buffer[filled..]) {
                Ok(0) => return Ok(buffer[..filled].to_vec()),
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        // A larger file: the rest is read after a copy of the buffer.
        let mut bytes = Vec::with_capacity(2 * BUFFER);
        bytes.extend_from_slice(buffer);
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    })
}

/// The games of one input read one at a time ([`kifu::Reader::games`]): a large SGF collection
/// or NDJSON file in pieces, with bounded memory; anything else whole.
pub type GameStream = kifu::stream::Games<kifu::stream::Chained<Box<dyn Read + Send>>>;

/// Opens `reader` (from `path`, when it is a file) for reading its games one at a time, the format
/// decided as [`read_bytes`] decides it; the outer error is the reader's, the inner one the
/// pipeline's (`format.unknown` when nothing tells the format).
pub fn stream_games(
    reader: Box<dyn Read + Send>,
    format: Option<Format>,
    path: Option<&Path>,
    encoding: Option<&'static Encoding>,
) -> io::Result<Result<GameStream, ReadError>> {
    Ok(self::reader(format, encoding).games(reader, path))
}

/// The read error of a streamed input refused by a limit ([`kifu::Limits::max_record`]), when
/// that is what `e` (an error of [`GameStream`]) is.
pub fn over_a_limit(e: &io::Error) -> Option<ReadError> {
    kifu::stream::RecordTooLarge::of(e).map(|r| r.clone().into())
}

/// The output format as the command decides it: the one named, else the output path's
/// extension, else SGF.
pub fn output_format(format: Option<Format>, path: Option<&Path>) -> Format {
    format.or_else(|| path.and_then(Format::from_path)).unwrap_or(Format::SGF)
}

/// What to write besides the games.
#[derive(Clone, Debug, Default)]
pub struct WriteSettings {
    /// Output charset (UTF-8 when `None`).
    pub encoding: Option<&'static Encoding>,
    /// `?` and a warning for characters the charset cannot hold, instead of an error.
    pub lossy: bool,
    /// SGF: compressed point lists written point by point.
    pub expand_point_lists: bool,
    /// How the games were read, for formats that record it.
    pub source_charset: Option<CharsetDecision>,
}

/// Writes `collection` as `format`.
pub fn write(collection: &Collection, format: Format, settings: &WriteSettings) -> Result<WriteOutput, WriteError> {
    let options = WriteOptions::default()
        .with_encoding(settings.encoding)
        .with_expand_point_lists(settings.expand_point_lists)
        .with_source_charset(settings.source_charset)
        .with_lossy(settings.lossy);
    format.write(collection, &options)
}

/// The diagnostics a write error carries (one made up from its message when it has none).
pub fn write_error_diagnostics(error: WriteError) -> (String, Vec<Diagnostic>) {
    let message = error.to_string();
    match error {
        WriteError::Invalid(d) if !d.is_empty() => (message, d),
        _ => (message, Vec::new()),
    }
}

/// Writes `bytes` to `path` as `kifu convert -o` does ([`kifu::write_file`]): through a
/// temporary file and a rename, special files written through, a file holding these bytes left
/// alone, and a different existing file replaced only with `force` (else
/// [`io::ErrorKind::AlreadyExists`]).
pub fn write_file_safely(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    kifu::write_file(path, bytes, force)
}

/// Whether `a` and `b` name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// The table of games (`kifu.read_table`): the library's builder, record batches and the Arrow
/// C stream that hands them over.
pub mod table {
    use super::*;
    use arrow_array::ffi_stream::FFI_ArrowArrayStream;
    use arrow_array::{RecordBatch, RecordBatchIterator};
    pub use kifu::GameTree;
    use kifu::formats::parquet::{Source, TableBuilder};

    /// One input read for the table: the format it was read as and what the read gave.
    pub struct TableRead {
        /// The file as the caller named it (`None` for bytes).
        pub file: Option<String>,
        /// The format decided.
        pub format: Format,
        /// The games, charset decision and diagnostics.
        pub read: ReadOutput,
    }

    /// Reads `bytes` (from `path`, when they came from a file) as [`read_bytes`] does, with the
    /// games' offsets kept so that each diagnostic counts for the game it falls in.
    pub fn read_for_table(
        bytes: Vec<u8>,
        format: Option<Format>,
        path: Option<&Path>,
        encoding: Option<&'static Encoding>,
    ) -> Result<TableRead, ReadError> {
        let options = ReadOptions::default().with_encoding(encoding).with_positions(true);
        let reader = Reader::new().with_format_opt(format).with_options(options);
        let decision = reader.decide(path, &bytes)?;
        let mut read = reader.read_as(decision.format, bytes).map_err(|mut e| {
            e.diagnostics.splice(0..0, decision.mismatch.clone());
            e
        })?;
        read.diagnostics.splice(0..0, decision.mismatch);
        let file = path.map(|p| p.to_string_lossy().into_owned());
        Ok(TableRead { file, format: decision.format, read })
    }

    /// The games of `reads` for which `keep` holds, as one record batch of the table's schema.
    pub fn batch(reads: &[TableRead], keep: &(dyn Fn(&GameTree) -> bool + Sync)) -> Result<RecordBatch, String> {
        let mut table = TableBuilder::new();
        for r in reads {
            let mut source = Source::new(r.format);
            source.file.clone_from(&r.file);
            table.append_where(&source, &r.read, keep).map_err(|e| e.to_string())?;
        }
        table.finish().map_err(|e| e.to_string())
    }

    /// `batches` as an Arrow C stream (the table's schema even when there are none).
    pub fn stream(batches: Vec<RecordBatch>) -> FFI_ArrowArrayStream {
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), kifu::formats::parquet::schema());
        FFI_ArrowArrayStream::new(Box::new(reader))
    }
}
