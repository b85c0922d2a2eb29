//! Converting an input piece by piece: pieces are read and written in parallel on the current
//! rayon pool (a window of a few pieces per thread in flight, each taken by whichever thread is
//! free) and emitted in input order, so memory stays bounded by the window whatever the input's
//! size.

use super::join::{Joiner, write_part_into};
use super::place::Placer;
use super::{Cut, Parts, Piece, ReadPiece, read_piece};
use crate::charset::CharsetDecision;
use crate::diag::Diagnostic;
use crate::formats::{Format, ReadOptions, WriteError, WriteOptions, WriteOutput};
use std::io::{self, Read, Write};

/// What a streaming conversion does.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct StreamOptions {
    /// The output format (one that [`Format::writes_in_parts`]).
    pub to: Format,
    /// Options for each piece's reader.
    pub read: ReadOptions,
    /// Options for each piece's writer; a `source_charset` of `None` is filled with the first
    /// piece's charset decision (the whole-file reader's single decision).
    pub write: WriteOptions,
    /// The input's name, for outputs that record where each game came from (a table's `file`
    /// column, [`Format::writes_table`]).
    pub file: Option<String>,
}

impl StreamOptions {
    /// Options converting to `to` with the default read and write options.
    pub fn new(to: Format) -> StreamOptions {
        StreamOptions { to, read: ReadOptions::default(), write: WriteOptions::default(), file: None }
    }

    /// These options with `read` as the read options.
    pub fn with_read(mut self, read: ReadOptions) -> StreamOptions {
        self.read = read;
        self
    }

    /// These options with `write` as the write options.
    pub fn with_write(mut self, write: WriteOptions) -> StreamOptions {
        self.write = write;
        self
    }

    /// These options with [`StreamOptions::file`] set.
    pub fn with_file(mut self, file: Option<String>) -> StreamOptions {
        self.file = file;
        self
    }
}

/// What a streaming conversion read and wrote.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Summary {
    /// Games read (and written, unless an error stopped the conversion).
    pub games: usize,
    /// The charset decision of the first piece (that of the collection for the JSON writer).
    pub charset: Option<CharsetDecision>,
    /// Read diagnostics, placed in the whole input, then the collection-level ones.
    pub read: Vec<Diagnostic>,
    /// Write diagnostics, with the counts of repeated losses at the end.
    pub write: Vec<Diagnostic>,
}

/// Why a streaming conversion stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The input could not be read.
    #[error("cannot read the input: {0}")]
    Input(io::Error),
    /// No game was found (the diagnostics are in [`Summary::read`]).
    #[error("no game found in the input")]
    NoGame,
    /// The output format cannot hold a game (the diagnostics are in [`Summary::write`]).
    #[error("the output format cannot hold the input as it is")]
    CannotHold,
    /// The format cannot be written.
    #[error("kifu cannot write {0}")]
    Unsupported(&'static str),
    /// The output could not be written.
    #[error("{0}")]
    Output(io::Error),
}

/// A piece read and written, waiting to be emitted.
struct Done {
    piece: ReadPiece,
    games: usize,
    written: Option<Result<WriteOutput, WriteError>>,
    /// The piece's rows, for an output that is a table ([`Format::writes_table`]).
    #[cfg(feature = "parquet")]
    rows: Option<Result<crate::formats::parquet::EncodedRows, String>>,
}

/// The read options of the pieces: a table counts each game's diagnostics, placed by the offsets
/// of the games' roots.
fn piece_options(options: &StreamOptions) -> ReadOptions {
    if options.to.writes_table() { options.read.clone().with_positions(true) } else { options.read.clone() }
}

/// Reads and writes one piece (on a worker thread).
fn process(piece: Piece, format: Format, options: &StreamOptions, write: &WriteOptions, pool: &Buffers) -> Done {
    written(read_piece(format, piece, &piece_options(options)), format, options, write, pool)
}

/// A piece read, now written (its games are dropped once written).
fn written(mut read: ReadPiece, from: Format, options: &StreamOptions, write: &WriteOptions, pool: &Buffers) -> Done {
    let _ = from;
    #[cfg(feature = "parquet")]
    if options.to.writes_table() {
        let (games, rows) = match &mut read.read {
            Ok(r) => {
                let games = r.collection.games.len();
                let mut table = crate::formats::parquet::TableBuilder::new();
                let mut source = crate::formats::parquet::Source::new(from);
                source.file.clone_from(&options.file);
                // Built and encoded here, on the pool: the writer only appends row groups.
                let rows = table.append(&source, r).and_then(|()| table.finish()).map_err(|e| e.to_string());
                let rows = rows.and_then(|b| crate::formats::parquet::encode(&b).map_err(|e| e.to_string()));
                r.collection = crate::model::Collection::default();
                (games, Some(rows))
            }
            Err(_) => (0, None),
        };
        return Done { piece: read, games, written: None, rows };
    }
    let (games, written) = match &mut read.read {
        Ok(r) => {
            let collection = std::mem::take(&mut r.collection);
            (collection.games.len(), Some(write_part_into(options.to, &collection, write, pool.take())))
        }
        Err(_) => (0, None),
    };
    Done {
        piece: read,
        games,
        written,
        #[cfg(feature = "parquet")]
        rows: None,
    }
}

/// Output buffers of written pieces, kept for the pieces after them: a JSON piece's output is
/// several times its input, and a new buffer for each would be new memory to fault in each
/// time.
#[derive(Clone, Default)]
struct Buffers(std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>);

impl Buffers {
    /// At most this many buffers are kept.
    const KEEP: usize = 8;

    /// An empty buffer, with the room of one used before when there is one.
    fn take(&self) -> Vec<u8> {
        self.0.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default()
    }

    /// Keeps `buf` (emptied) for a later piece.
    fn put(&self, mut buf: Vec<u8>) {
        if let Ok(mut v) = self.0.lock() {
            if v.len() < Self::KEEP {
                buf.clear();
                v.push(buf);
            }
        }
    }
}

/// Where the emitting side writes.
enum Sink<'a> {
    /// Text: each piece's games, joined by the format's part writer ([`Joiner`]: its head,
    /// separators and tail).
    Parts(Joiner<&'a mut (dyn Write + Send)>),
    /// A table ([`Format::writes_table`]): each piece's row group (encoded on the pool) is
    /// appended into memory and passed on to the output; the table is begun at the first rows,
    /// so an input without games writes nothing.
    #[cfg(feature = "parquet")]
    Table(&'a mut (dyn Write + Send), Option<crate::formats::parquet::ParquetWriter<Vec<u8>>>),
    /// A format that cannot be written in parts: each piece's write says so.
    Refused,
}

impl<'a> Sink<'a> {
    fn new(to: Format, out: &'a mut (dyn Write + Send)) -> Sink<'a> {
        #[cfg(feature = "parquet")]
        if to.writes_table() {
            return Sink::Table(out, None);
        }
        Joiner::new(to, out).map_or(Sink::Refused, Sink::Parts)
    }

    /// Ends the output (a document's closing) and flushes it.
    fn finish(self, summary: &mut Summary) -> Result<(), StreamError> {
        match self {
            Sink::Parts(join) => join.finish().map(drop).map_err(|e| stop(summary, e)),
            #[cfg(feature = "parquet")]
            Sink::Table(out, _) => out.flush().map_err(StreamError::Output),
            Sink::Refused => Ok(()),
        }
    }
}

/// Why a write stopped the conversion; the diagnostics of games the format cannot hold go into
/// `summary`.
fn stop(summary: &mut Summary, e: WriteError) -> StreamError {
    match e {
        WriteError::Invalid(d) => {
            summary.write.extend(d);
            StreamError::CannotHold
        }
        WriteError::Unsupported(f) => StreamError::Unsupported(f),
        WriteError::Io(e) => StreamError::Output(
            std::sync::Arc::try_unwrap(e).unwrap_or_else(|e| io::Error::new(e.kind(), e.to_string())),
        ),
    }
}

/// The emitting side: places diagnostics, writes bytes in order.
struct Emit<'a> {
    to: Format,
    sink: Sink<'a>,
    placer: Placer,
    summary: Summary,
    no_game: Option<Diagnostic>,
    /// Where written buffers go back to once emitted.
    pool: Buffers,
}

impl Emit<'_> {
    fn emit(&mut self, done: Done) -> Result<(), StreamError> {
        match self.placer.place(done.piece) {
            Ok(r) => {
                self.summary.charset = self.summary.charset.or(r.charset);
                self.summary.games += done.games;
                let mixed = crate::charset::codes::MIXED;
                self.summary.read.extend(r.diagnostics.into_iter().filter(|d| d.code != mixed));
            }
            Err(e) => {
                for d in e.diagnostics {
                    if d.code.ends_with(".no-game") {
                        self.no_game.get_or_insert(d);
                    } else {
                        self.summary.read.push(d);
                    }
                }
            }
        }
        #[cfg(feature = "parquet")]
        if let Some(rows) = done.rows {
            return self.emit_rows(rows, done.games);
        }
        match done.written {
            None => Ok(()),
            Some(Ok(w)) => {
                let utf8 = crate::formats::json::codes::UTF8_ONLY;
                for d in w.diagnostics {
                    if d.code != utf8 || !self.summary.write.iter().any(|o| o.code == utf8) {
                        self.summary.write.push(d);
                    }
                }
                if done.games == 0 {
                    return Ok(());
                }
                let Sink::Parts(join) = &mut self.sink else { return Err(StreamError::Unsupported(self.to.name())) };
                join.push_bytes(&w.bytes, done.games).map_err(StreamError::Output)?;
                self.pool.put(w.bytes);
                Ok(())
            }
            Some(Err(e)) => Err(stop(&mut self.summary, e)),
        }
    }
}

#[cfg(feature = "parquet")]
impl Emit<'_> {
    /// Writes a piece's rows into the table, numbered after the games before them (counted in
    /// `summary.games`, which already holds this piece's `games`).
    fn emit_rows(
        &mut self,
        rows: Result<crate::formats::parquet::EncodedRows, String>,
        games: usize,
    ) -> Result<(), StreamError> {
        let cannot = |summary: &mut Summary, e: &dyn std::fmt::Display| {
            summary.write.push(crate::formats::parquet::failed(e));
            StreamError::CannotHold
        };
        let before = u32::try_from(self.summary.games - games).unwrap_or(u32::MAX);
        let rows = match rows.and_then(|r| r.renumbered(before).map_err(|e| e.to_string())) {
            Ok(r) => r,
            Err(e) => return Err(cannot(&mut self.summary, &e)),
        };
        if rows.is_empty() {
            return Ok(());
        }
        let Sink::Table(out, table) = &mut self.sink else { return Ok(()) };
        if table.is_none() {
            match crate::formats::parquet::ParquetWriter::new(Vec::new()) {
                Ok(w) => *table = Some(w),
                Err(e) => return Err(cannot(&mut self.summary, &e)),
            }
        }
        let Some(table) = table.as_mut() else { return Ok(()) };
        if let Err(e) = table.append(rows) {
            return Err(cannot(&mut self.summary, &e));
        }
        let encoded = std::mem::take(table.written_mut());
        out.write_all(&encoded).map_err(StreamError::Output)
    }

    /// Ends the table: its last row group and its footer.
    fn finish_table(&mut self) -> Result<(), StreamError> {
        let Sink::Table(out, table) = &mut self.sink else { return Ok(()) };
        let Some(table) = table.take() else { return Ok(()) };
        match table.finish() {
            Ok(rest) => out.write_all(&rest).map_err(StreamError::Output),
            Err(e) => {
                self.summary.write.push(crate::formats::parquet::failed(&e));
                Err(StreamError::CannotHold)
            }
        }
    }
}

/// Converts the input `parts` to `options.to`, writing to `out` as it goes; returns what was
/// read and written, and why it stopped early, if it did. Output bytes are those the format's
/// writer gives for the whole collection, when every piece reads as it does in the whole file
/// (see `formats/streaming.md`).
pub fn convert<R: Read + Send>(
    mut parts: Parts<R>,
    options: &StreamOptions,
    out: &mut (dyn Write + Send),
) -> (Summary, Result<(), StreamError>) {
    let format = parts.format();
    let mut emit = Emit {
        to: options.to,
        sink: Sink::new(options.to, out),
        placer: Placer::new(format.spec().cut == Some(Cut::Lines)),
        summary: Summary::default(),
        no_game: None,
        pool: Buffers::default(),
    };
    let result = run(&mut parts, format, options, &mut emit);
    #[cfg(feature = "parquet")]
    let result = result.and_then(|()| if emit.summary.games > 0 { emit.finish_table() } else { Ok(()) });
    let Emit { mut summary, placer, no_game, sink, .. } = emit;
    summary.read.extend(parts.mixed_warning());
    summary.read.extend(placer.finish());
    crate::formats::summarize_losses(&mut summary.write);
    let result = result.and_then(|()| {
        if summary.games == 0 {
            summary.read.extend(no_game);
            return Err(StreamError::NoGame);
        }
        sink.finish(&mut summary)
    });
    (summary, result)
}

fn run<R: Read + Send>(
    parts: &mut Parts<R>,
    format: Format,
    options: &StreamOptions,
    emit: &mut Emit<'_>,
) -> Result<(), StreamError> {
    // The first piece alone: its charset decision is the one the writer records for all.
    let first = match parts.next_piece() {
        None => return Ok(()),
        Some(p) => p.map_err(StreamError::Input)?,
    };
    let read = read_piece(format, first, &piece_options(options));
    let mut write = options.write.clone();
    if write.source_charset.is_none() {
        write.source_charset = read.read.as_ref().ok().and_then(|r| r.charset);
    }
    let pool = emit.pool.clone();
    emit.emit(written(read, format, options, &write, &pool))?;
    rest(parts, format, options, emit, &write, &pool)
}

/// The pieces after the first, each read and written by whichever thread of the pool is free and
/// emitted in input order.
#[cfg(feature = "parallel")]
fn rest<R: Read + Send>(
    parts: &mut Parts<R>,
    format: Format,
    options: &StreamOptions,
    emit: &mut Emit<'_>,
    write: &WriteOptions,
    pool: &Buffers,
) -> Result<(), StreamError> {
    // A window of pieces in flight: each is read and written by whichever thread is free, and
    // emitted as soon as the pieces before it are; no thread waits for a whole batch.
    let window = 4 * rayon::current_num_threads().max(1);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Done)>();
    let mut result = Ok(());
    let out = &mut result;
    rayon::scope_fifo(move |scope| {
        let mut waiting = std::collections::BTreeMap::new();
        let (mut spawned, mut emitted, mut more) = (0usize, 0usize, true);
        loop {
            while more && spawned - emitted < window {
                match parts.next_piece() {
                    Some(Ok(piece)) => {
                        let (tx, index) = (tx.clone(), spawned);
                        scope.spawn_fifo(move |_| {
                            // Every piece spawned is received before the receiver is dropped.
                            let _ = tx.send((index, process(piece, format, options, write, pool)));
                        });
                        spawned += 1;
                    }
                    Some(Err(e)) => {
                        *out = Err(StreamError::Input(e));
                        more = false;
                    }
                    None => more = false,
                }
            }
            if emitted == spawned {
                return;
            }
            // A piece done, if one is; else this thread reads and writes a piece itself, or
            // waits for one when every piece in flight is taken.
            let done = rx.try_recv().ok().or_else(|| match rayon::yield_now() {
                Some(rayon::Yield::Executed) => None,
                _ => rx.recv().ok(),
            });
            if let Some((index, done)) = done {
                waiting.insert(index, done);
            }
            while let Some(done) = waiting.remove(&emitted) {
                emitted += 1;
                if out.is_ok() {
                    if let Err(e) = emit.emit(done) {
                        // The pieces in flight are finished and dropped.
                        *out = Err(e);
                        more = false;
                    }
                }
            }
        }
    });
    result
}

/// Without the feature `parallel`: the pieces after the first, one after the other on the
/// calling thread.
#[cfg(not(feature = "parallel"))]
fn rest<R: Read + Send>(
    parts: &mut Parts<R>,
    format: Format,
    options: &StreamOptions,
    emit: &mut Emit<'_>,
    write: &WriteOptions,
    pool: &Buffers,
) -> Result<(), StreamError> {
    while let Some(piece) = parts.next_piece() {
        let piece = piece.map_err(StreamError::Input)?;
        emit.emit(process(piece, format, options, write, pool))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::Cut;

    /// `n` games named `Player 0` …, one piece each, of 1 to 4,001 moves (so pieces finish out
    /// of order on several threads); game `bad` names a player ISO-8859-2 cannot hold.
    fn games(n: usize, bad: usize) -> String {
        (0..n)
            .map(|i| {
                let name = if i == bad { "李".to_string() } else { format!("Player {i}") };
                format!("(;GM[1]PB[{name}]{})\n", ";B[aa];W[bb]".repeat(i * 37 % 11 * 200 + 1))
            })
            .collect()
    }

    fn run_to(
        text: &str,
        threads: usize,
        encoding: &'static encoding_rs::Encoding,
    ) -> (Summary, Result<(), StreamError>, Vec<u8>) {
        let parts = Parts::new(Format::SGF, Vec::new(), text.as_bytes(), Cut::Sgf).with_target(1);
        let options = StreamOptions::new(Format::SGF).with_write(WriteOptions::default().with_encoding(Some(encoding)));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut out = Vec::new();
        let (summary, result) = pool.install(|| convert(parts, &options, &mut out));
        (summary, result, out)
    }

    #[test]
    fn pieces_are_emitted_in_input_order_on_any_number_of_threads() {
        let text = games(200, usize::MAX);
        let whole = Format::SGF.read(text.clone().into_bytes(), &ReadOptions::default()).unwrap();
        let expected = Format::SGF.write(&whole.collection, &WriteOptions::default()).unwrap().bytes;
        for threads in [1, 2, 3, 8] {
            let (summary, result, out) = run_to(&text, threads, encoding_rs::UTF_8);
            assert!(result.is_ok(), "{threads} threads: {result:?}");
            assert_eq!(summary.games, 200);
            assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&expected), "{threads} threads");
        }
    }

    /// The formats a stream can be converted to: those written in parts, and a table.
    fn streamable() -> impl Iterator<Item = Format> {
        Format::all()
            .filter(|f| f.can_write() && (f.writes_in_parts() || (cfg!(feature = "parquet") && f.writes_table())))
    }

    #[test]
    fn an_input_without_games_writes_no_byte() {
        let text = "no game here\n".repeat(1_000);
        for to in streamable() {
            let parts = Parts::new(Format::SGF, Vec::new(), text.as_bytes(), Cut::Sgf).with_target(1);
            let mut out = Vec::new();
            let (summary, result) = convert(parts, &StreamOptions::new(to), &mut out);
            assert!(matches!(result, Err(StreamError::NoGame)), "{to}: {result:?}");
            assert!(out.is_empty(), "{to}: {} bytes", out.len());
            assert_eq!(summary.read.iter().filter(|d| d.code.ends_with(".no-game")).count(), 1, "{to}");
        }
    }

    /// An output that takes `room` bytes, then refuses writes (or only flushes) with `kind`.
    struct Failing {
        room: usize,
        kind: io::ErrorKind,
        at_flush: bool,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if !self.at_flush && buf.len() > self.room {
                return Err(self.kind.into());
            }
            self.room = self.room.saturating_sub(buf.len());
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            if self.at_flush { Err(self.kind.into()) } else { Ok(()) }
        }
    }

    #[test]
    fn an_output_that_fails_stops_the_conversion_with_its_error() {
        let text = games(40, usize::MAX);
        for to in streamable() {
            for (room, at_flush) in [(0, false), (5_000, false), (usize::MAX, true)] {
                let parts = Parts::new(Format::SGF, Vec::new(), text.as_bytes(), Cut::Sgf).with_target(1);
                let mut out = Failing { room, kind: io::ErrorKind::BrokenPipe, at_flush };
                let (summary, result) = convert(parts, &StreamOptions::new(to), &mut out);
                let Err(StreamError::Output(e)) = result else { panic!("{to} {room}: {result:?}") };
                assert_eq!(e.kind(), io::ErrorKind::BrokenPipe, "{to} {room}");
                assert!(summary.write.is_empty(), "{to} {room}: {:?}", summary.write);
            }
        }
    }

    #[test]
    fn a_piece_that_cannot_be_written_stops_the_output_after_the_pieces_before_it() {
        let text = games(120, 70);
        for threads in [1, 2, 4] {
            let (summary, result, out) = run_to(&text, threads, encoding_rs::ISO_8859_2);
            assert!(matches!(result, Err(StreamError::CannotHold)), "{threads} threads: {result:?}");
            let out = String::from_utf8(out).unwrap();
            // Every game before the one that failed, in order, and none after it.
            let names: Vec<&str> = out.split("PB[").skip(1).map(|s| &s[..s.find(']').unwrap()]).collect();
            let expected: Vec<String> = (0..70).map(|i| format!("Player {i}")).collect();
            assert_eq!(names, expected, "{threads} threads");
            assert!(summary.write.iter().any(|d| d.message.contains('李')), "{:?}", summary.write);
        }
    }
}
