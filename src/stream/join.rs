//! One output made of the games of many inputs, given one input at a time (a merge).

use crate::diag::Diagnostic;
use crate::formats::{Format, WriteError, WriteOptions, WriteOutput};
use crate::model::Collection;
use std::io::{self, Write};

/// Whether `to` can be written input by input ([`Joiner`]): a format with a part writer, or a
/// table.
pub fn joinable(to: Format) -> bool {
    to.spec().parts.is_some() || (cfg!(feature = "parquet") && to.writes_table())
}

/// The games of one input in `to`, to be [pushed](Joiner::push) in order (a pure function of
/// its arguments: call it on any thread).
pub fn write_part(to: Format, games: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    write_part_into(to, games, options, Vec::new())
}

/// [`write_part`], written into `buffer` (empty; one used before, for its room).
pub(super) fn write_part_into(
    to: Format,
    games: &Collection,
    options: &WriteOptions,
    buffer: Vec<u8>,
) -> Result<WriteOutput, WriteError> {
    match &to.spec().parts {
        Some(parts) => (parts.part)(games, options, buffer),
        None => Err(WriteError::Unsupported(to.name())),
    }
}

/// Writes the games of many inputs into one output as they come, in bounded memory: each
/// input's games are written on their own ([`write_part`], on any thread), then pushed in
/// order. The bytes are those `to`'s writer gives for all the games at once (SGF, JSON, NDJSON:
/// the registry's part writers); a table ([`Format::writes_table`], feature `parquet`) gets its
/// row groups encoded (`Joiner::push_rows`), each of the size its caller cut it to.
///
/// ```
/// use kifu::Format;
/// use kifu::stream::{Joiner, write_part};
/// let a = kifu::read(&b"(;PB[Ann];B[pd])"[..]).unwrap().collection;
/// let b = kifu::read(&b"(;PB[Bo];B[dd])"[..]).unwrap().collection;
/// let mut join = Joiner::new(Format::JSON, Vec::new()).unwrap();
/// for games in [&a, &b] {
///     join.push(&write_part(Format::JSON, games, &Default::default()).unwrap(), games.games.len()).unwrap();
/// }
/// let joined = join.finish().unwrap();
/// let mut both = a.clone();
/// both.games.extend(b.games);
/// assert_eq!(joined, Format::JSON.write(&both, &Default::default()).unwrap().bytes);
/// ```
pub struct Joiner<W: Write + Send> {
    to: Format,
    out: Out<W>,
    /// A game was written (separators go between parts with games).
    any: bool,
    /// Diagnostics of the parts pushed, kept for [`Joiner::take_diagnostics`].
    diagnostics: Vec<Diagnostic>,
}

enum Out<W: Write + Send> {
    Text(W),
    #[cfg(feature = "parquet")]
    Table(crate::formats::parquet::ParquetWriter<W>),
}

impl<W: Write + Send> std::fmt::Debug for Joiner<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Joiner").field("to", &self.to.name()).field("any", &self.any).finish()
    }
}

impl<W: Write + Send> Joiner<W> {
    /// A joiner writing `to` into `out`; [`WriteError::Unsupported`] when `to` cannot be written
    /// in parts ([`joinable`]).
    pub fn new(to: Format, out: W) -> Result<Joiner<W>, WriteError> {
        #[cfg(feature = "parquet")]
        if to.writes_table() {
            let writer =
                crate::formats::parquet::ParquetWriter::new(out).map_err(crate::formats::parquet::write_failed)?;
            return Ok(Joiner { to, out: Out::Table(writer), any: false, diagnostics: Vec::new() });
        }
        if to.spec().parts.is_none() {
            return Err(WriteError::Unsupported(to.name()));
        }
        Ok(Joiner { to, out: Out::Text(out), any: false, diagnostics: Vec::new() })
    }

    /// Writes the next part (of `games` games; a part without games writes nothing). Its
    /// diagnostics are kept for [`Joiner::take_diagnostics`].
    pub fn push(&mut self, part: &WriteOutput, games: usize) -> io::Result<()> {
        self.diagnostics.extend(part.diagnostics.iter().cloned());
        self.push_bytes(&part.bytes, games)
    }

    /// Writes the bytes of the next part (of `games` games; a part without games writes
    /// nothing), as [`Joiner::push`] does, its diagnostics left to the caller.
    ///
    /// ```
    /// use kifu::Format;
    /// use kifu::stream::{Joiner, write_part};
    /// let games = kifu::read(&b"(;PB[Ann])"[..]).unwrap().collection;
    /// let part = write_part(Format::SGF, &games, &Default::default()).unwrap();
    /// let mut join = Joiner::new(Format::SGF, Vec::new()).unwrap();
    /// join.push_bytes(&part.bytes, 1).unwrap();
    /// assert!(join.take_diagnostics().is_empty());
    /// assert_eq!(join.finish().unwrap(), Format::SGF.write(&games, &Default::default()).unwrap().bytes);
    /// ```
    pub fn push_bytes(&mut self, bytes: &[u8], games: usize) -> io::Result<()> {
        // Without the feature `parquet`, text is the only kind of output.
        #[allow(irrefutable_let_patterns)]
        let Out::Text(out) = &mut self.out else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "a table takes rows, not text"));
        };
        let Some(parts) = &self.to.spec().parts else { return Ok(()) };
        if games == 0 {
            return Ok(());
        }
        if self.any {
            out.write_all(parts.separator)?;
        } else {
            out.write_all((parts.head)().as_bytes())?;
        }
        self.any = true;
        out.write_all(bytes)
    }

    /// Appends rows encoded by [`encode`](crate::formats::parquet::encode) as the table's next
    /// row group (feature `parquet`); their game numbers are kept (each input numbers its own).
    #[cfg(feature = "parquet")]
    pub fn push_rows(&mut self, rows: crate::formats::parquet::EncodedRows) -> Result<(), WriteError> {
        let Out::Table(table) = &mut self.out else { return Err(WriteError::Unsupported(self.to.name())) };
        self.any |= !rows.is_empty();
        table.append(rows).map_err(crate::formats::parquet::write_failed)
    }

    /// The diagnostics of the parts pushed so far, lossy items of one kind summarised as the
    /// whole writer summarises them; the list is emptied.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        let mut d = std::mem::take(&mut self.diagnostics);
        crate::formats::summarize_losses(&mut d);
        d
    }

    /// Ends the output (a document's closing, a table's footer) and gives back the writer.
    /// Without any game, the output is what `to`'s writer gives for none.
    pub fn finish(self) -> Result<W, WriteError> {
        match self.out {
            Out::Text(mut out) => {
                let io = |e: io::Error| WriteError::Io(std::sync::Arc::new(e));
                if let Some(parts) = &self.to.spec().parts {
                    if !self.any {
                        out.write_all((parts.head)().as_bytes()).map_err(io)?;
                    }
                    out.write_all((parts.tail)(self.any).as_bytes()).map_err(io)?;
                }
                out.flush().map_err(io)?;
                Ok(out)
            }
            #[cfg(feature = "parquet")]
            Out::Table(table) => table.finish().map_err(crate::formats::parquet::write_failed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Collection {
        crate::read(text.as_bytes()).unwrap().collection
    }

    #[test]
    fn parts_joined_are_the_whole_collection_written() {
        let inputs = [
            "(;GM[1]PB[Ann];B[pd](;W[dd])(;W[dp]))",
            "(;GM[1]PB[Bo]C[a\\]b];B[aa])(;GM[1]PW[Cy])",
            "",
            "(;GM[1]SZ[9];B[ee])",
        ];
        let options = WriteOptions::default();
        for to in Format::all().filter(|f| f.can_write() && f.spec().parts.is_some()) {
            let mut join = Joiner::new(to, Vec::new()).unwrap();
            let mut all = Collection::default();
            for text in inputs {
                let c = if text.is_empty() { Collection::default() } else { games(text) };
                join.push(&write_part(to, &c, &options).unwrap(), c.games.len()).unwrap();
                all.games.extend(c.games);
            }
            let joined = join.finish().unwrap();
            assert_eq!(
                String::from_utf8_lossy(&joined),
                String::from_utf8_lossy(&to.write(&all, &options).unwrap().bytes),
                "{to}"
            );
        }
    }

    #[test]
    fn no_game_is_what_the_writer_gives_for_none() {
        for to in Format::all().filter(|f| f.can_write() && f.spec().parts.is_some()) {
            let mut join = Joiner::new(to, Vec::new()).unwrap();
            join.push(&write_part(to, &Collection::default(), &WriteOptions::default()).unwrap(), 0).unwrap();
            let none = to.write(&Collection::default(), &WriteOptions::default()).map(|w| w.bytes).unwrap_or_default();
            assert_eq!(join.finish().unwrap(), none, "{to}");
        }
    }

    #[test]
    fn a_format_without_parts_is_refused() {
        for to in Format::all().filter(|f| !joinable(*f)) {
            assert!(matches!(Joiner::new(to, Vec::new()), Err(WriteError::Unsupported(_))), "{to}");
        }
    }
}
