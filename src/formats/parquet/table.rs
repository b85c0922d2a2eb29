//! The table of games: its Arrow schema and the builder that appends games to record batches.

use crate::charset::{CharsetDecision, ca_label};
use crate::diag::{Diagnostic, Severity};
use crate::formats::{Format, ReadOutput, WriteOptions};
use crate::model::{BoardSize, Collection, Color, GameTree, Move, NodeId};
use arrow_array::builder::{Float64Builder, StringBuilder, UInt8Builder, UInt32Builder};
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch, StringArray, StructArray, UInt8Array, UInt32Array};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
use std::sync::{Arc, OnceLock};

/// The fields of a move or a setup stone: `color` (`B`, `W`), `x` and `y` (from 0 at the
/// top-left corner; null for a pass).
fn stone_fields() -> Fields {
    Fields::from(vec![
        Field::new("color", DataType::Utf8, false),
        Field::new("x", DataType::UInt8, true),
        Field::new("y", DataType::UInt8, true),
    ])
}

/// The fields of `result`: `text` (`RE` as written), `winner` (`B`, `W` or null), `how`
/// (`score`, `points`, `resign`, `time`, `forfeit`, `draw`, `void`, `unknown`; null when the
/// text is not an FF\[4\] result) and `margin` (points, for `score`).
fn result_fields() -> Fields {
    Fields::from(vec![
        Field::new("text", DataType::Utf8, false),
        Field::new("winner", DataType::Utf8, true),
        Field::new("how", DataType::Utf8, true),
        Field::new("margin", DataType::Float64, true),
    ])
}

/// The list type of `moves` and `setup`.
fn stones_type() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Struct(stone_fields()), false)))
}

/// The Arrow schema of the table of games: one row per game (specified, with the Parquet types,
/// in [`formats/parquet.md`](crate::spec::parquet)).
///
/// ```
/// let schema = kifu::formats::parquet::schema();
/// assert_eq!(schema.field(0).name(), "file");
/// assert!(schema.field_with_name("moves").is_ok());
/// ```
pub fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let text = |name: &str| Field::new(name, DataType::Utf8, true);
            Arc::new(Schema::new(vec![
                text("file"),
                text("member"),
                Field::new("game", DataType::UInt32, false),
                text("format"),
                text("charset"),
                text("charset_source"),
                text("black"),
                text("white"),
                text("black_rank"),
                text("white_rank"),
                Field::new("komi", DataType::Float64, true),
                Field::new("handicap", DataType::UInt32, true),
                Field::new("result", DataType::Struct(result_fields()), true),
                text("date"),
                text("event"),
                text("round"),
                text("place"),
                text("rules"),
                Field::new("width", DataType::UInt8, false),
                Field::new("height", DataType::UInt8, false),
                Field::new("move_count", DataType::UInt32, false),
                Field::new("moves", stones_type(), false),
                Field::new("setup", stones_type(), false),
                Field::new("sgf", DataType::Utf8, false),
                Field::new("errors", DataType::UInt32, false),
                Field::new("warnings", DataType::UInt32, false),
                Field::new("notes", DataType::UInt32, false),
            ]))
        })
        .clone()
}

/// Where a collection's games come from, for the table's first columns.
///
/// ```
/// use kifu::formats::parquet::Source;
/// let source = Source::new(kifu::Format::SGF).with_file("games/a.sgf");
/// assert_eq!(source.file.as_deref(), Some("games/a.sgf"));
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Source {
    /// The file as the caller names it (`None`: not from a file).
    pub file: Option<String>,
    /// The member of an archive the games were read from.
    pub member: Option<String>,
    /// The format the games were read as (`None`: not known).
    pub format: Option<Format>,
    /// The number of the first game in the file, less one (a piece of a large input starts
    /// after the games of the pieces before it).
    pub first_game: u32,
}

impl Source {
    /// Games read as `format`, from no named file.
    pub fn new(format: Format) -> Source {
        Source { format: Some(format), ..Source::default() }
    }

    /// This source with [`Source::file`] set.
    pub fn with_file(mut self, file: impl Into<String>) -> Source {
        self.file = Some(file.into());
        self
    }

    /// This source with [`Source::member`] set.
    pub fn with_member(mut self, member: Option<String>) -> Source {
        self.member = member;
        self
    }

    /// This source with [`Source::first_game`] set.
    pub fn with_first_game(mut self, first_game: u32) -> Source {
        self.first_game = first_game;
        self
    }
}

/// Moves or setup stones of the rows appended so far, as the columns of a list of structs.
#[derive(Default)]
struct Stones {
    /// Where each row's stones start (one more entry than rows, once a row ended).
    offsets: Vec<i32>,
    colors: Vec<u8>,
    x: Vec<u8>,
    y: Vec<u8>,
    /// Whether each stone is on a point (false: a pass).
    on_point: Vec<bool>,
}

impl Stones {
    fn push(&mut self, color: Color, at: Option<(u8, u8)>) {
        self.colors.push(if color == Color::Black { b'B' } else { b'W' });
        let (x, y) = at.unwrap_or((0, 0));
        self.x.push(x);
        self.y.push(y);
        self.on_point.push(at.is_some());
    }

    /// Ends a row: the stones pushed since the last one are its.
    fn end_row(&mut self) -> Result<(), ArrowError> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let end = i32::try_from(self.colors.len())
            .map_err(|_| ArrowError::InvalidArgumentError("more than 2^31 stones in one batch".into()))?;
        self.offsets.push(end);
        Ok(())
    }

    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        let Stones { mut offsets, colors, x, y, on_point } = std::mem::take(self);
        if offsets.is_empty() {
            offsets.push(0);
        }
        let n = colors.len();
        let color = StringArray::try_new(OffsetBuffer::from_repeated_length(1, n), Buffer::from_vec(colors), None)?;
        let nulls = on_point.iter().any(|&b| !b).then(|| NullBuffer::from(on_point));
        let xs = UInt8Array::new(x.into(), nulls.clone());
        let ys = UInt8Array::new(y.into(), nulls);
        let values = StructArray::try_new(stone_fields(), vec![Arc::new(color), Arc::new(xs), Arc::new(ys)], None)?;
        let field = Arc::new(Field::new("item", DataType::Struct(stone_fields()), false));
        let list = ListArray::try_new(field, OffsetBuffer::new(ScalarBuffer::from(offsets)), Arc::new(values), None)?;
        Ok(Arc::new(list))
    }
}

/// Appends games to the columns of [`schema`] and gives them as Arrow record batches: what the
/// Parquet writer writes and what Python's `kifu.read_table` hands over.
///
/// ```
/// use kifu::formats::parquet::{Source, TableBuilder};
/// let read = kifu::read(&b"(;PB[Ann]PW[Bo]RE[W+2.5];B[pd];W[])"[..]).unwrap();
/// let mut table = TableBuilder::new();
/// table.append(&Source::new(kifu::Format::SGF).with_file("a.sgf"), &read).unwrap();
/// let batch = table.finish().unwrap();
/// assert_eq!(batch.num_rows(), 1);
/// assert_eq!(batch.schema(), kifu::formats::parquet::schema());
/// ```
pub struct TableBuilder {
    file: StringBuilder,
    member: StringBuilder,
    game: UInt32Builder,
    format: StringBuilder,
    charset: StringBuilder,
    charset_source: StringBuilder,
    black: StringBuilder,
    white: StringBuilder,
    black_rank: StringBuilder,
    white_rank: StringBuilder,
    komi: Float64Builder,
    handicap: UInt32Builder,
    result_text: StringBuilder,
    result_winner: StringBuilder,
    result_how: StringBuilder,
    result_margin: Float64Builder,
    result_valid: Vec<bool>,
    date: StringBuilder,
    event: StringBuilder,
    round: StringBuilder,
    place: StringBuilder,
    rules: StringBuilder,
    width: UInt8Builder,
    height: UInt8Builder,
    move_count: UInt32Builder,
    moves: Stones,
    setup: Stones,
    sgf: StringBuilder,
    errors: UInt32Builder,
    warnings: UInt32Builder,
    notes: UInt32Builder,
    rows: usize,
    /// Bytes of SGF text appended since the last batch.
    sgf_bytes: usize,
    /// The SGF writer's buffer, kept between games.
    scratch: Vec<u8>,
}

impl Default for TableBuilder {
    fn default() -> Self {
        TableBuilder::new()
    }
}

impl std::fmt::Debug for TableBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableBuilder").field("rows", &self.rows).field("sgf_bytes", &self.sgf_bytes).finish()
    }
}

/// A count as a `u32` column value (saturating: no table holds 4 billion of anything in a row).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl TableBuilder {
    /// An empty table.
    pub fn new() -> TableBuilder {
        TableBuilder::with_capacity(1024)
    }

    /// An empty table with room for `rows` rows before its buffers grow: the table of one small
    /// input (a file of one game) takes a few kilobytes, not the room of a thousand rows.
    ///
    /// ```
    /// use kifu::formats::parquet::{Source, TableBuilder};
    /// let read = kifu::read(&b"(;PB[Ann];B[pd])"[..]).unwrap();
    /// let mut table = TableBuilder::with_capacity(read.collection.games.len());
    /// table.append(&Source::new(kifu::Format::SGF), &read).unwrap();
    /// assert_eq!(table.finish().unwrap().num_rows(), 1);
    /// ```
    pub fn with_capacity(rows: usize) -> TableBuilder {
        let text = || StringBuilder::with_capacity(rows, rows * 16);
        TableBuilder {
            file: text(),
            member: text(),
            game: UInt32Builder::with_capacity(rows),
            format: text(),
            charset: text(),
            charset_source: text(),
            black: text(),
            white: text(),
            black_rank: text(),
            white_rank: text(),
            komi: Float64Builder::with_capacity(rows),
            handicap: UInt32Builder::with_capacity(rows),
            result_text: text(),
            result_winner: text(),
            result_how: text(),
            result_margin: Float64Builder::with_capacity(rows),
            result_valid: Vec::new(),
            date: text(),
            event: text(),
            round: text(),
            place: text(),
            rules: text(),
            width: UInt8Builder::with_capacity(rows),
            height: UInt8Builder::with_capacity(rows),
            move_count: UInt32Builder::with_capacity(rows),
            moves: Stones::default(),
            setup: Stones::default(),
            sgf: StringBuilder::with_capacity(rows, rows * 2048),
            errors: UInt32Builder::with_capacity(rows),
            warnings: UInt32Builder::with_capacity(rows),
            notes: UInt32Builder::with_capacity(rows),
            rows: 0,
            sgf_bytes: 0,
            scratch: Vec::new(),
        }
    }

    /// Rows appended since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was appended since the last batch.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// About the bytes of data the rows appended since the last batch hold (their SGF text, their
    /// stones and a share for the other columns): what a caller cuts row groups by.
    ///
    /// ```
    /// use kifu::formats::parquet::{Source, TableBuilder, data_size};
    /// let read = kifu::read(&b"(;PB[Ann];B[pd];W[dp];B[])"[..]).unwrap();
    /// let mut table = TableBuilder::with_capacity(1);
    /// table.append(&Source::new(kifu::Format::SGF), &read).unwrap();
    /// let held = table.size();
    /// let data = data_size(&table.finish().unwrap());
    /// assert!(held >= data / 2 && held <= data * 2, "{held} for {data}");
    /// ```
    pub fn size(&self) -> usize {
        // A stone: its colour (a byte and an offset), x and y; a row: offsets and values of the
        // short text columns, the numbers.
        self.sgf_bytes + 8 * (self.moves.colors.len() + self.setup.colors.len()) + 96 * self.rows
    }

    /// Appends every game of `read` (one read of one input), with its charset decision and
    /// diagnostics: each diagnostic counts for the game it falls in, by position (the games'
    /// offsets are known when the input was read with [`ReadOptions::positions`](crate::ReadOptions::positions));
    /// those without a position, or of a collection read without offsets, count for its first
    /// game.
    pub fn append(&mut self, source: &Source, read: &ReadOutput) -> Result<(), ArrowError> {
        self.append_games(source, read.charset, &read.collection.games, &read.diagnostics)
    }

    /// Appends the games of `read` for which `keep` holds, as [`TableBuilder::append`] does
    /// (each keeps its number in the file and the count of its own diagnostics).
    ///
    /// ```
    /// use kifu::formats::parquet::{Source, TableBuilder};
    /// let read = kifu::read(&b"(;PB[Ann];B[pd])(;PB[Bo])"[..]).unwrap();
    /// let mut table = TableBuilder::new();
    /// table.append_where(&Source::new(kifu::Format::SGF), &read, |g| g.main_line_moves() > 0).unwrap();
    /// assert_eq!(table.len(), 1);
    /// ```
    pub fn append_where(
        &mut self,
        source: &Source,
        read: &ReadOutput,
        keep: impl Fn(&GameTree) -> bool,
    ) -> Result<(), ArrowError> {
        self.append_kept(source, read.charset, &read.collection.games, &read.diagnostics, |_, g| keep(g))
    }

    /// Appends the games of `read` whose entry in `chosen` is true (a game past its end is
    /// kept), as [`TableBuilder::append_where`] does: for choices made by game number, such as
    /// the duplicates a run leaves out.
    ///
    /// ```
    /// use kifu::formats::parquet::{Source, TableBuilder};
    /// let read = kifu::read(&b"(;PB[Ann])(;PB[Bo])(;PB[Cy])"[..]).unwrap();
    /// let mut table = TableBuilder::new();
    /// table.append_chosen(&Source::new(kifu::Format::SGF), &read, &[false, true]).unwrap();
    /// let batch = table.finish().unwrap();
    /// let games = batch.column_by_name("game").unwrap();
    /// let games = games.as_any().downcast_ref::<arrow_array::UInt32Array>().unwrap();
    /// assert_eq!(games.values().to_vec(), [2, 3]);
    /// ```
    pub fn append_chosen(&mut self, source: &Source, read: &ReadOutput, chosen: &[bool]) -> Result<(), ArrowError> {
        let keep = |i: usize, _: &GameTree| chosen.get(i).copied().unwrap_or(true);
        self.append_kept(source, read.charset, &read.collection.games, &read.diagnostics, keep)
    }

    /// Appends `games` of `source` read with the `charset` decision; `diagnostics` are the
    /// read's (see [`TableBuilder::append`]).
    pub fn append_games(
        &mut self,
        source: &Source,
        charset: Option<CharsetDecision>,
        games: &[GameTree],
        diagnostics: &[Diagnostic],
    ) -> Result<(), ArrowError> {
        self.append_kept(source, charset, games, diagnostics, |_, _| true)
    }

    fn append_kept(
        &mut self,
        source: &Source,
        charset: Option<CharsetDecision>,
        games: &[GameTree],
        diagnostics: &[Diagnostic],
        keep: impl Fn(usize, &GameTree) -> bool,
    ) -> Result<(), ArrowError> {
        let counts = per_game(games, diagnostics);
        let options = WriteOptions::default();
        for (i, (game, counts)) in games.iter().zip(counts).enumerate() {
            if !keep(i, game) {
                continue;
            }
            self.file.append_option(source.file.as_deref());
            self.member.append_option(source.member.as_deref());
            self.game.append_value(source.first_game.saturating_add(count(i + 1)));
            self.format.append_option(source.format.map(Format::name));
            self.charset.append_option(charset.map(|d| ca_label(d.encoding)));
            self.charset_source.append_option(charset.map(|d| d.source.as_str()));
            self.info(game);
            self.stones(game)?;
            self.scratch = crate::formats::sgf::write_game(game, &options, std::mem::take(&mut self.scratch));
            let text = std::str::from_utf8(&self.scratch)
                .map_err(|e| ArrowError::InvalidArgumentError(format!("SGF text of game {}: {e}", i + 1)))?;
            self.sgf.append_value(text);
            self.sgf_bytes += text.len();
            let [errors, warnings, notes] = counts;
            self.errors.append_value(errors);
            self.warnings.append_value(warnings);
            self.notes.append_value(notes);
            self.rows += 1;
        }
        Ok(())
    }

    /// The information columns of one game.
    fn info(&mut self, game: &GameTree) {
        use crate::model::info::{GameResult, field, parse_handicap, parse_komi};
        let texts = game.info_texts();
        let f = &texts.found;
        self.black.append_option(f[field::PB]);
        self.white.append_option(f[field::PW]);
        self.black_rank.append_option(f[field::BR]);
        self.white_rank.append_option(f[field::WR]);
        self.komi.append_option(f[field::KM].and_then(parse_komi));
        self.handicap.append_option(f[field::HA].and_then(parse_handicap));
        match f[field::RE] {
            Some(text) => {
                let (winner, how, margin) = match GameResult::from_sgf(text) {
                    Some(r) => {
                        let (w, h, m) = r.parts();
                        (w.map(|c| if c == Color::Black { "B" } else { "W" }), Some(h), m)
                    }
                    None => (None, None, None),
                };
                self.result_text.append_value(text);
                self.result_winner.append_option(winner);
                self.result_how.append_option(how);
                self.result_margin.append_option(margin);
                self.result_valid.push(true);
            }
            None => {
                self.result_text.append_value("");
                self.result_winner.append_null();
                self.result_how.append_null();
                self.result_margin.append_null();
                self.result_valid.push(false);
            }
        }
        self.date.append_option(f[field::DT]);
        self.event.append_option(f[field::EV]);
        self.round.append_option(f[field::RO]);
        self.place.append_option(f[field::PC]);
        self.rules.append_option(f[field::RU]);
        let size = texts.size.and_then(BoardSize::from_sgf).unwrap_or_default();
        self.width.append_value(size.width);
        self.height.append_value(size.height);
    }

    /// The main line's moves and the root's setup stones of one game.
    fn stones(&mut self, game: &GameTree) -> Result<(), ArrowError> {
        let size = game.board_size();
        let mut moves = 0usize;
        for node in game.main_line() {
            if let Some([c, x, y]) = game.lone_move(node.id()) {
                let color = if c == b'W' { Color::White } else { Color::Black };
                let text = [x, y];
                let mv = std::str::from_utf8(&text).ok().and_then(|t| Move::from_sgf(t, size));
                self.push_move(color, mv);
                moves += 1;
                continue;
            }
            for p in node.props() {
                let color = match p.ident() {
                    "B" => Color::Black,
                    "W" => Color::White,
                    _ => continue,
                };
                moves += 1;
                self.push_move(color, p.mv_on(size));
            }
        }
        self.moves.end_row()?;
        self.move_count.append_value(count(moves));
        let root = game.node(NodeId::ROOT);
        for (ident, color) in [("AB", Color::Black), ("AW", Color::White)] {
            for p in root.points_of(ident) {
                self.setup.push(color, Some((p.x, p.y)));
            }
        }
        self.setup.end_row()
    }

    /// One move of the main line; a value that is not a move is left out of `moves` (it is
    /// counted in `move_count`, and the reader or `kifu check` reports it).
    fn push_move(&mut self, color: Color, mv: Option<Move>) {
        match mv {
            Some(Move::Play(p)) => self.moves.push(color, Some((p.x, p.y))),
            Some(Move::Pass) => self.moves.push(color, None),
            None => {}
        }
    }

    /// The rows appended so far as one record batch of [`schema`]; the builder is empty again.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let result = StructArray::try_new(
            result_fields(),
            vec![
                Arc::new(self.result_text.finish()),
                Arc::new(self.result_winner.finish()),
                Arc::new(self.result_how.finish()),
                Arc::new(self.result_margin.finish()),
            ],
            Some(NullBuffer::from(std::mem::take(&mut self.result_valid))),
        )?;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.member.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.format.finish()),
            Arc::new(self.charset.finish()),
            Arc::new(self.charset_source.finish()),
            Arc::new(self.black.finish()),
            Arc::new(self.white.finish()),
            Arc::new(self.black_rank.finish()),
            Arc::new(self.white_rank.finish()),
            Arc::new(self.komi.finish()),
            Arc::new(self.handicap.finish()),
            Arc::new(result),
            Arc::new(self.date.finish()),
            Arc::new(self.event.finish()),
            Arc::new(self.round.finish()),
            Arc::new(self.place.finish()),
            Arc::new(self.rules.finish()),
            Arc::new(self.width.finish()),
            Arc::new(self.height.finish()),
            Arc::new(self.move_count.finish()),
            self.moves.finish()?,
            self.setup.finish()?,
            Arc::new(self.sgf.finish()),
            Arc::new(self.errors.finish()),
            Arc::new(self.warnings.finish()),
            Arc::new(self.notes.finish()),
        ];
        self.rows = 0;
        self.sgf_bytes = 0;
        RecordBatch::try_new(schema(), columns)
    }
}

/// The batch with its `game` numbers raised by `by` (a piece of a large input numbered its games
/// from 1, before the games of the pieces before it were counted).
pub fn renumbered(batch: &RecordBatch, by: u32) -> Result<RecordBatch, ArrowError> {
    if by == 0 {
        return Ok(batch.clone());
    }
    let at = batch.schema().index_of("game")?;
    let games = batch
        .column(at)
        .as_any()
        .downcast_ref::<UInt32Array>()
        .ok_or_else(|| ArrowError::SchemaError("column game is not UInt32".into()))?;
    let raised: UInt32Array = games.iter().map(|g| g.map(|g| g.saturating_add(by))).collect();
    let mut columns = batch.columns().to_vec();
    columns[at] = Arc::new(raised);
    RecordBatch::try_new(batch.schema(), columns)
}

/// Diagnostics counted per game and severity (errors, warnings, notes), by position: each falls
/// in the last game starting at or before it; unplaced ones (and all, without offsets) count for
/// the first game.
fn per_game(games: &[GameTree], diagnostics: &[Diagnostic]) -> Vec<[u32; 3]> {
    let mut counts = vec![[0u32; 3]; games.len()];
    if games.is_empty() {
        return counts;
    }
    let starts: Vec<Option<usize>> = games.iter().map(|g| g.node_offset(NodeId::ROOT)).collect();
    for d in diagnostics {
        let game = match d.position.map(|p| p.offset) {
            Some(o) => starts.iter().rposition(|s| s.is_some_and(|s| s <= o)).unwrap_or(0),
            None => 0,
        };
        let k = match d.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        counts[game][k] = counts[game][k].saturating_add(1);
    }
    counts
}

/// Every game of `collection` as one record batch (no source file; the charset decision from
/// `options`), for the registry's whole-collection writer.
pub(crate) fn collection_batch(collection: &Collection, options: &WriteOptions) -> Result<RecordBatch, ArrowError> {
    let mut table = TableBuilder::new();
    table.append_games(&Source::default(), options.source_charset, &collection.games, &[])?;
    table.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, UInt8Type, UInt32Type};

    fn read(text: &str) -> ReadOutput {
        let options = crate::ReadOptions::default().with_positions(true);
        Format::SGF.read(text.as_bytes().to_vec(), &options).unwrap()
    }

    #[test]
    fn every_column_holds_what_the_game_says() {
        let text = "(;GM[1]SZ[9]PB[Ann]PW[Bo]BR[3d]KM[6.5]HA[2]AB[cc][gg]RE[W+2.5]DT[2024-05-01]EV[Cup]RO[3]PC[Tokyo]RU[Japanese]\
                    ;W[ee];B[];W[ab])\n(;GM[1]PB[Cy]RE[Void])";
        let mut table = TableBuilder::new();
        let source = Source::new(Format::SGF).with_file("a.sgf").with_member(Some("x/a.sgf".into()));
        table.append(&source, &read(text)).unwrap();
        assert_eq!(table.len(), 2);
        let b = table.finish().unwrap();
        assert!(table.is_empty());
        let s = |name: &str| b.column_by_name(name).unwrap().as_string::<i32>().clone();
        assert_eq!(s("file").value(1), "a.sgf");
        assert_eq!(s("member").value(0), "x/a.sgf");
        assert_eq!(s("format").value(0), "sgf");
        assert_eq!(s("charset").value(0), "UTF-8");
        assert_eq!((s("black").value(0), s("white").value(0), s("black_rank").value(0)), ("Ann", "Bo", "3d"));
        assert!(s("white_rank").is_null(0));
        assert_eq!(b.column_by_name("game").unwrap().as_primitive::<UInt32Type>().values(), &[1, 2]);
        assert_eq!(b.column_by_name("komi").unwrap().as_primitive::<Float64Type>().value(0), 6.5);
        assert_eq!(b.column_by_name("handicap").unwrap().as_primitive::<UInt32Type>().value(0), 2);
        assert_eq!(b.column_by_name("width").unwrap().as_primitive::<UInt8Type>().values(), &[9, 19]);
        let result = b.column_by_name("result").unwrap().as_struct();
        assert_eq!(result.column(0).as_string::<i32>().value(0), "W+2.5");
        assert_eq!(result.column(1).as_string::<i32>().value(0), "W");
        assert_eq!(result.column(2).as_string::<i32>().value(0), "score");
        assert_eq!(result.column(3).as_primitive::<Float64Type>().value(0), 2.5);
        assert_eq!(result.column(2).as_string::<i32>().value(1), "void");
        assert!(result.column(1).is_null(1));
        assert_eq!((s("date").value(0), s("event").value(0), s("round").value(0)), ("2024-05-01", "Cup", "3"));
        assert_eq!((s("place").value(0), s("rules").value(0)), ("Tokyo", "Japanese"));
        assert_eq!(b.column_by_name("move_count").unwrap().as_primitive::<UInt32Type>().values(), &[3, 0]);
        let moves = b.column_by_name("moves").unwrap().as_list::<i32>();
        let first = moves.value(0);
        let first = first.as_struct();
        let colors: Vec<&str> = first.column(0).as_string::<i32>().iter().map(Option::unwrap).collect();
        assert_eq!(colors, ["W", "B", "W"]);
        let x = first.column(1).as_primitive::<UInt8Type>();
        let y = first.column(2).as_primitive::<UInt8Type>();
        assert_eq!((x.value(0), y.value(0)), (4, 4));
        assert!(x.is_null(1) && y.is_null(1), "a pass has no point");
        assert_eq!((x.value(2), y.value(2)), (0, 1));
        assert_eq!(moves.value(1).len(), 0);
        let setup = b.column_by_name("setup").unwrap().as_list::<i32>().value(0);
        let setup = setup.as_struct();
        assert_eq!(setup.column(1).as_primitive::<UInt8Type>().values(), &[2, 6]);
        let sgf = s("sgf");
        assert!(sgf.value(0).starts_with("(;FF[4]CA[UTF-8]GM[1]SZ[9]PB[Ann]"), "{}", sgf.value(0));
        assert!(sgf.value(1).ends_with(")\n"));
        let again = Format::SGF.read(sgf.value(0).as_bytes().to_vec(), &Default::default()).unwrap();
        assert_eq!(again.collection.games[0].main_line_moves(), 3);
    }

    #[test]
    fn diagnostics_count_for_the_game_they_fall_in() {
        // The second game holds an unescaped bracket (a warning) and the third a bad komi.
        let text = "(;GM[1];B[pd])\n(;GM[1]C[a]b];B[dd])\n(;GM[1]KM[x])";
        let read = read(text);
        assert!(!read.diagnostics.is_empty());
        let counts = per_game(&read.collection.games, &read.diagnostics);
        assert_eq!(counts[0], [0, 0, 0]);
        assert!(counts[1].iter().sum::<u32>() > 0, "{:?} {:?}", counts, read.diagnostics);
        let total: u32 = counts.iter().flatten().sum();
        assert_eq!(total as usize, read.diagnostics.len());
        // Without offsets every diagnostic counts for the first game.
        let plain = Format::SGF.read(text.as_bytes().to_vec(), &Default::default()).unwrap();
        let counts = per_game(&plain.collection.games, &plain.diagnostics);
        assert_eq!(counts[0].iter().sum::<u32>() as usize, plain.diagnostics.len());
    }

    #[test]
    fn renumbering_raises_the_game_numbers() {
        let mut table = TableBuilder::new();
        table.append(&Source::new(Format::SGF), &read("(;GM[1])(;GM[1])")).unwrap();
        let b = renumbered(&table.finish().unwrap(), 10).unwrap();
        assert_eq!(b.column_by_name("game").unwrap().as_primitive::<UInt32Type>().values(), &[11, 12]);
    }
}
