//! Games one at a time: [`Format::games`].

use super::{Input, Pieces, open_within};
use crate::charset::CharsetDecision;
use crate::diag::Diagnostic;
use crate::formats::{Format, ReadError, ReadOptions, WriteOptions};
use crate::model::GameTree;
use crate::reader::{Reader, unreadable};
use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::Path;

impl Format {
    /// The games of `reader`, one at a time, with bounded memory: the streaming counterpart of
    /// [`Format::read`].
    ///
    /// An input of at most [`Limits::whole_up_to`](crate::Limits::whole_up_to) bytes, or one this format cannot cut (a JSON
    /// document, GIB, NGF, UGF, UTF-16 SGF), is read whole by [`Format::read`]; a larger SGF
    /// collection or NDJSON file is read in pieces of whole games (`formats/streaming.md`), so
    /// memory stays bounded whatever its size. The games, diagnostics (placed in the whole input)
    /// and charset decision are those [`Format::read`] gives for the whole input (the exceptions,
    /// for streamed inputs only, are in `formats/streaming.md`).
    ///
    /// Diagnostics are collected as games are read: take them with [`Games::take_diagnostics`]
    /// at any time and end with [`Games::finish`], which adds the collection-level ones and says
    /// whether any game was found.
    ///
    /// ```
    /// use kifu::{Format, ReadOptions};
    /// let input = &b"(;GM[1]PB[Ann];B[pd];W[dp])\n(;GM[1]PB[Bo];B[dd])\n"[..];
    /// let mut games = Format::SGF.games(input, &ReadOptions::default());
    /// let mut players = Vec::new();
    /// for game in games.by_ref() {
    ///     let game = game?; // an I/O error of the reader ends the games
    ///     players.push(game.info().black.unwrap_or_default());
    /// }
    /// assert_eq!(players, ["Ann", "Bo"]);
    /// let diagnostics = games.finish().expect("games were found");
    /// assert!(diagnostics.iter().all(|d| d.severity < kifu::Severity::Warning));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn games<R: Read>(self, reader: R, options: &ReadOptions) -> Games<R> {
        Games {
            format: self,
            options: options.clone(),
            state: State::Start(Some(reader)),
            queue: VecDeque::new(),
            diagnostics: Vec::new(),
            no_game: Vec::new(),
            charset: None,
            games: 0,
        }
    }
}

/// How much of an input [`Reader::games`] looks at to decide its format.
const HEAD: usize = 64 << 10;

impl Reader {
    /// The games of `reader` (the file at `path`, when it is one), one at a time with bounded
    /// memory: the format decided as [`Reader::decide`] decides it from the first 64 KiB (its
    /// mismatch warning, if any, is the first diagnostic), then [`Format::games`].
    ///
    /// ```
    /// let input = &b"(;GM[1]PB[Ann];B[pd])\n(;GM[1]PB[Bo];B[dd])\n"[..];
    /// let mut games = kifu::Reader::new().games(input, Some("games.ngf".as_ref())).unwrap();
    /// assert_eq!(games.by_ref().count(), 2);
    /// let diagnostics = games.finish().unwrap();
    /// assert_eq!(diagnostics[0].code, "input.format-mismatch");
    /// ```
    pub fn games<R: Read>(&self, mut reader: R, path: Option<&Path>) -> Result<Games<Chained<R>>, ReadError> {
        let mut head = Vec::with_capacity(HEAD);
        (&mut reader).take(HEAD as u64).read_to_end(&mut head).map_err(|e| unreadable("the input", &e))?;
        let decision = self.decide(path, &head)?;
        let mut games = decision.format.games(io::Cursor::new(head).chain(reader), self.options());
        games.diagnostics.extend(decision.mismatch);
        Ok(games)
    }
}

/// A reader whose first bytes were read to decide its format, put back in front of the rest.
pub type Chained<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

enum State<R> {
    /// Not opened yet.
    Start(Option<R>),
    /// Read in pieces.
    Pieces(Pieces<R>),
    /// Every game is in the queue (the pieces kept for their collection-level diagnostics).
    Done(Option<Pieces<R>>),
}

/// The games of one input, one at a time ([`Format::games`]).
pub struct Games<R> {
    format: Format,
    options: ReadOptions,
    state: State<R>,
    queue: VecDeque<GameTree>,
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics of pieces that held no game (reported only when no piece held one).
    no_game: Vec<Diagnostic>,
    charset: Option<CharsetDecision>,
    games: usize,
}

impl<R: Read> Games<R> {
    /// The diagnostics placed so far (since the last call), in input order.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// The charset decision of the input (of its first piece when it is read in pieces), once a
    /// game was read; `None` for formats without a charset.
    pub fn charset(&self) -> Option<CharsetDecision> {
        self.charset
    }

    /// Options that write the games in the input's charset, as [`crate::ReadOutput::write_options`].
    pub fn write_options(&self) -> WriteOptions {
        WriteOptions {
            encoding: self.charset.map(|c| c.encoding.output_encoding()),
            source_charset: self.charset,
            ..WriteOptions::default()
        }
    }

    /// How many games were given out so far.
    pub fn given(&self) -> usize {
        self.games - self.queue.len()
    }

    /// Ends the reading (the games not yet taken are dropped): the diagnostics not yet taken
    /// and the collection-level ones (`charset.mixed`, the counts past
    /// 100 of a code), or, when the input held no game at all, the
    /// [`ReadError`] [`Format::read`] gives.
    pub fn finish(mut self) -> Result<Vec<Diagnostic>, ReadError> {
        let mut out = std::mem::take(&mut self.diagnostics);
        let started = !matches!(self.state, State::Start(Some(_)));
        if let State::Pieces(p) | State::Done(Some(p)) = std::mem::replace(&mut self.state, State::Done(None)) {
            out.extend(p.finish());
        }
        if self.games == 0 && started {
            out.append(&mut self.no_game);
            return Err(ReadError { diagnostics: out });
        }
        Ok(out)
    }

    /// Reads until a game is queued or the input ends.
    fn fill(&mut self) -> io::Result<()> {
        while self.queue.is_empty() {
            match &mut self.state {
                State::Start(reader) => {
                    let reader = reader.take().expect("opened once");
                    self.state = match open_within(self.format, Vec::new(), reader, &self.options.limits) {
                        Ok(Input::Whole(bytes)) => {
                            self.add(self.format.read(bytes, &self.options), true);
                            State::Done(None)
                        }
                        Ok(Input::Parts(parts)) => State::Pieces(Pieces::new(parts, self.options.clone())),
                        Err(e) => {
                            self.state = State::Done(None);
                            return Err(e);
                        }
                    };
                }
                State::Pieces(pieces) => {
                    let failed = match pieces.next() {
                        Some(Ok(read)) => {
                            self.add(read, false);
                            continue;
                        }
                        Some(Err(e)) => Some(e),
                        None => None,
                    };
                    // The pieces are over (or failed): kept for their closing diagnostics.
                    if let State::Pieces(p) = std::mem::replace(&mut self.state, State::Done(None)) {
                        self.state = State::Done(Some(p));
                    }
                    if let Some(e) = failed {
                        return Err(e);
                    }
                }
                State::Done(_) => return Ok(()),
            }
        }
        Ok(())
    }

    fn add(&mut self, read: Result<crate::ReadOutput, ReadError>, whole: bool) {
        match read {
            Ok(r) => {
                self.charset = self.charset.or(r.charset);
                self.games += r.collection.games.len();
                self.queue.extend(r.collection.games);
                // A streamed input's `charset.mixed` is given once, by `finish`.
                let mixed = crate::charset::codes::MIXED;
                self.diagnostics.extend(r.diagnostics.into_iter().filter(|d| whole || d.code != mixed));
            }
            Err(e) => {
                for d in e.diagnostics {
                    if !whole && d.code.ends_with(".no-game") {
                        self.no_game.push(d);
                    } else {
                        self.diagnostics.push(d);
                    }
                }
            }
        }
    }
}

impl<R: Read> Iterator for Games<R> {
    type Item = io::Result<GameTree>;

    fn next(&mut self) -> Option<io::Result<GameTree>> {
        if let Err(e) = self.fill() {
            return Some(Err(e));
        }
        self.queue.pop_front().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_a_small_input_are_those_of_the_whole_read() {
        let input = b"(;GM[1]CA[UTF-8]PB[Ann];B[pd])(;PB[Bo];B[dd];W[xx])".to_vec();
        let whole = Format::SGF.read(input.clone(), &ReadOptions::default()).unwrap();
        let mut games = Format::SGF.games(&input[..], &ReadOptions::default());
        let read: Vec<GameTree> = games.by_ref().map(Result::unwrap).collect();
        assert_eq!(read, whole.collection.games);
        assert_eq!(games.charset(), whole.charset);
        assert_eq!(games.given(), 2);
        assert_eq!(games.finish().unwrap(), whole.diagnostics);
    }

    #[test]
    fn no_game_is_the_read_error() {
        let input = b"no game here".to_vec();
        let whole = Format::SGF.read(input.clone(), &ReadOptions::default()).unwrap_err();
        let mut games = Format::SGF.games(&input[..], &ReadOptions::default());
        assert!(games.next().is_none());
        assert_eq!(games.finish().unwrap_err().diagnostics, whole.diagnostics);
    }

    #[test]
    fn a_large_collection_is_read_in_pieces_with_the_same_games() {
        let game = b"(;GM[1]PB[Ann];B[pd];W[dp](;B[dd])(;B[qq]))\n";
        let input = game.repeat(crate::Limits::default().whole_up_to / game.len() + 1000);
        let one = Format::SGF.read(game.to_vec(), &ReadOptions::default()).unwrap().collection.games.remove(0);
        let mut games = Format::SGF.games(&input[..], &ReadOptions::default());
        let mut n = 0;
        for g in games.by_ref() {
            assert!(g.unwrap() == one);
            n += 1;
        }
        assert_eq!(n, input.len() / game.len());
        assert!(matches!(games.state, State::Done(Some(_))), "read in pieces");
        assert!(games.finish().unwrap().is_empty());
    }
}
