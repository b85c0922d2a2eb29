//! Picking games: a [`Filter`] says whether a game matches the players, event, dates, winner,
//! length, board size and source format asked for ([`spec::archives`](crate::spec::archives),
//! "Filters").
//!
//! Every criterion given must hold; a filter with none matches every game. Names and events
//! are compared after [`fold`]: Unicode NFKC, lower case, runs of blanks made one space, so
//! `ＬＥＥ  Sedol` matches `lee sedol`. A name matches when the folded text occurs in the
//! folded value (`Lee` matches `Lee Sedol` and `Lee Changho`); a text starting with `=` must be
//! the whole value (`=Lee Sedol`).
//!
//! ```
//! use kifu::select::{Filter, PartialDate, Winner};
//! let sgf = b"(;GM[1]PB[Lee Sedol]PW[AlphaGo]DT[2016-03-13]RE[B+R];B[pd];W[dd])";
//! let games = kifu::read_bytes(sgf.to_vec(), None, &Default::default())?;
//! let game = &games.collection.games[0];
//! let filter = Filter::new().player("lee").since("2016".parse::<PartialDate>()?).winner(Winner::Black);
//! assert!(filter.matches(game, None));
//! assert!(!Filter::new().white("=Alpha").matches(game, None));
//! assert!(!Filter::new().min_moves(3).matches(game, None));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::formats::Format;
use crate::model::{BoardSize, Collection, Color, GameResult, GameTree};
use std::fmt;
use std::str::FromStr;
use unicode_normalization::UnicodeNormalization;

/// `text` as filters compare it: Unicode NFKC (full-width letters, compatibility forms and
/// composed accents made one form), lower case, surrounding blanks dropped and every run of
/// blanks made one space.
///
/// ```
/// assert_eq!(kifu::select::fold("  ＬＥＥ\u{3000} Se\u{301}dol "), "lee sédol");
/// ```
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if c.is_whitespace() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push(' ');
            blank = false;
        }
        out.push(c);
    }
    out
}

/// How a name or event text is matched: the folded text inside the folded value, or (given
/// with a leading `=`) the whole folded value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Text {
    Contains(String),
    Whole(String),
}

impl Text {
    fn new(text: &str) -> Text {
        match text.strip_prefix('=') {
            Some(whole) => Text::Whole(fold(whole)),
            None => Text::Contains(fold(text)),
        }
    }

    fn matches(&self, value: Option<&str>) -> bool {
        let Some(value) = value else { return false };
        let value = fold(value);
        match self {
            Text::Contains(t) => value.contains(t.as_str()),
            Text::Whole(t) => value == *t,
        }
    }
}

/// A date as given to `--since` / `--until`: a year, a month of a year, or a day
/// (`2016`, `2016-03`, `2016-03-13`).
///
/// ```
/// use kifu::select::PartialDate;
/// let d: PartialDate = "2016-03".parse().unwrap();
/// assert_eq!((d.first(), d.last()), ((2016, 3, 1), (2016, 3, 31)));
/// assert!("2016-13".parse::<PartialDate>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialDate {
    /// The year.
    pub year: u16,
    /// The month (1–12), when given.
    pub month: Option<u8>,
    /// The day (1–31), when given (only with a month).
    pub day: Option<u8>,
}

/// A day as `(year, month, day)`; compared in that order.
pub type Day = (u16, u8, u8);

impl PartialDate {
    /// The first day the date covers (`2016` → 2016-01-01).
    pub fn first(self) -> Day {
        (self.year, self.month.unwrap_or(1), self.day.unwrap_or(1))
    }

    /// The last day the date covers (`2016` → 2016-12-31, `2016-02` → 2016-02-31: days are
    /// compared, not counted, so a month ends at 31).
    pub fn last(self) -> Day {
        (self.year, self.month.unwrap_or(12), self.day.unwrap_or(31))
    }
}

impl fmt::Display for PartialDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
        }
        if let Some(d) = self.day {
            write!(f, "-{d:02}")?;
        }
        Ok(())
    }
}

/// A value a filter cannot take (a date, winner or size that does not parse).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FilterError(String);

fn digits(s: &str, len: std::ops::RangeInclusive<usize>) -> Option<u32> {
    (len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

impl FromStr for PartialDate {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<PartialDate, FilterError> {
        let bad = || FilterError(format!("'{s}' is not a date: give YYYY, YYYY-MM or YYYY-MM-DD"));
        let mut parts = s.trim().split('-');
        let year = parts.next().and_then(|y| digits(y, 4..=4)).ok_or_else(bad)?;
        let month = parts.next().map(|m| digits(m, 1..=2).filter(|m| (1..=12).contains(m)).ok_or_else(bad));
        let day = parts.next().map(|d| digits(d, 1..=2).filter(|d| (1..=31).contains(d)).ok_or_else(bad));
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(PartialDate {
            year: year as u16,
            month: month.transpose()?.map(|m| m as u8),
            day: day.transpose()?.map(|d| d as u8),
        })
    }
}

/// The days an FF\[4\] `DT` value covers, earliest and latest: `2016-03-13`, `2016-03`, `2016`,
/// and the lists FF\[4\] allows (`1996-05-06,07,08`, `1996-05,06`, `1996-12-27,28,1997-01-03`,
/// where a short part continues the part before it). `None` when no date can be read from it.
///
/// ```
/// use kifu::select::date_span;
/// assert_eq!(date_span("1996-12-27,28,1997-01-03"), Some(((1996, 12, 27), (1997, 1, 3))));
/// assert_eq!(date_span("2016-03"), Some(((2016, 3, 1), (2016, 3, 31))));
/// assert_eq!(date_span("last spring"), None);
/// ```
pub fn date_span(dt: &str) -> Option<(Day, Day)> {
    let mut span: Option<(Day, Day)> = None;
    let mut prev: Option<PartialDate> = None;
    for part in dt.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let date = match part.parse::<PartialDate>() {
            Ok(d) => d,
            Err(_) => {
                // A short part: MM-DD, or DD / MM continuing the part before it.
                let p = prev?;
                let nums: Vec<u32> = part.split('-').map(|n| digits(n, 1..=2)).collect::<Option<_>>()?;
                match (nums.as_slice(), p.month, p.day) {
                    ([m, d], Some(_), _) => PartialDate { year: p.year, month: Some(*m as u8), day: Some(*d as u8) },
                    ([d], Some(m), Some(_)) => PartialDate { year: p.year, month: Some(m), day: Some(*d as u8) },
                    ([m], Some(_), None) => PartialDate { year: p.year, month: Some(*m as u8), day: None },
                    _ => return None,
                }
            }
        };
        if date.month.is_some_and(|m| !(1..=12).contains(&m)) || date.day.is_some_and(|d| !(1..=31).contains(&d)) {
            return None;
        }
        let (first, last) = (date.first(), date.last());
        span = Some(match span {
            None => (first, last),
            Some((a, b)) => (a.min(first), b.max(last)),
        });
        prev = Some(date);
    }
    span
}

/// Who won, as `--winner` asks: black, white or a draw (jigo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Winner {
    /// `RE[B+…]`.
    Black,
    /// `RE[W+…]`.
    White,
    /// `RE[0]` / `RE[Draw]`.
    Draw,
}

impl FromStr for Winner {
    type Err = FilterError;

    /// `B`, `W` or `draw` (also `black`, `white`, `jigo`, `0`), in any case.
    fn from_str(s: &str) -> Result<Winner, FilterError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Winner::Black),
            "w" | "white" => Ok(Winner::White),
            "draw" | "jigo" | "0" => Ok(Winner::Draw),
            _ => Err(FilterError(format!("'{s}' is not a winner: give B, W or draw"))),
        }
    }
}

/// Parses a board size as `--size` takes it: `19`, or `19x13` (width × height).
///
/// ```
/// use kifu::BoardSize;
/// assert_eq!(kifu::select::parse_size("13").unwrap(), BoardSize::square(13));
/// assert!(kifu::select::parse_size("0").is_err());
/// ```
pub fn parse_size(s: &str) -> Result<BoardSize, FilterError> {
    let bad = || FilterError(format!("'{s}' is not a board size: give N or WxH, each from 1 to 52"));
    let side = |t: &str| digits(t.trim(), 1..=2).filter(|n| (1..=52).contains(n)).map(|n| n as u8).ok_or_else(bad);
    match s.split_once(['x', 'X', ':']) {
        Some((w, h)) => Ok(BoardSize { width: side(w)?, height: side(h)? }),
        None => Ok(BoardSize::square(side(s)?)),
    }
}

/// Which games to keep. Built criterion by criterion; every criterion given must hold.
///
/// ```
/// use kifu::select::Filter;
/// use kifu::{BoardSize, Format};
/// let filter = Filter::new().size(BoardSize::square(9)).format(Format::SGF);
/// let games = kifu::read_bytes(b"(;GM[1]SZ[9];B[ee])(;GM[1]SZ[19];B[pd])".to_vec(), None, &Default::default())?;
/// let mut collection = games.collection;
/// assert_eq!(filter.retain(&mut collection, Some(Format::SGF)), 1);
/// assert_eq!(collection.games.len(), 1);
/// # Ok::<(), kifu::ReadError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Filter {
    players: Vec<Text>,
    black: Vec<Text>,
    white: Vec<Text>,
    events: Vec<Text>,
    since: Option<PartialDate>,
    until: Option<PartialDate>,
    winner: Option<Winner>,
    min_moves: Option<usize>,
    max_moves: Option<usize>,
    size: Option<BoardSize>,
    formats: Vec<Format>,
}

impl Filter {
    /// A filter that keeps every game.
    pub fn new() -> Filter {
        Filter::default()
    }

    /// Whether no criterion was given (every game matches).
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Keep games where either player (`PB` or `PW`) matches `name`. Given twice, both must be
    /// found (either colour each): the games between two players.
    pub fn player(mut self, name: &str) -> Filter {
        self.players.push(Text::new(name));
        self
    }

    /// Keep games whose black player (`PB`) matches `name`.
    pub fn black(mut self, name: &str) -> Filter {
        self.black.push(Text::new(name));
        self
    }

    /// Keep games whose white player (`PW`) matches `name`.
    pub fn white(mut self, name: &str) -> Filter {
        self.white.push(Text::new(name));
        self
    }

    /// Keep games whose event (`EV`) matches `text`.
    pub fn event(mut self, text: &str) -> Filter {
        self.events.push(Text::new(text));
        self
    }

    /// Keep games played on or after `date` (a `DT` whose latest day is not before its first).
    pub fn since(mut self, date: PartialDate) -> Filter {
        self.since = Some(date);
        self
    }

    /// Keep games played on or before `date` (a `DT` whose earliest day is not after its last).
    pub fn until(mut self, date: PartialDate) -> Filter {
        self.until = Some(date);
        self
    }

    /// Keep games won by `winner` (`RE`).
    pub fn winner(mut self, winner: Winner) -> Filter {
        self.winner = Some(winner);
        self
    }

    /// Keep games with at least `n` moves on the main line.
    pub fn min_moves(mut self, n: usize) -> Filter {
        self.min_moves = Some(n);
        self
    }

    /// Keep games with at most `n` moves on the main line.
    pub fn max_moves(mut self, n: usize) -> Filter {
        self.max_moves = Some(n);
        self
    }

    /// Keep games on a board of this size (`SZ`, 19 when absent).
    pub fn size(mut self, size: BoardSize) -> Filter {
        self.size = Some(size);
        self
    }

    /// Keep games read from a record of this format (repeatable: any of them).
    pub fn format(mut self, format: Format) -> Filter {
        self.formats.push(format);
        self
    }

    /// Whether `game`, read from a record of `format` (when known), matches every criterion.
    pub fn matches(&self, game: &GameTree, format: Option<Format>) -> bool {
        if !self.formats.is_empty() && !format.is_some_and(|f| self.formats.contains(&f)) {
            return false;
        }
        if let Some(size) = self.size {
            if game.board_size() != size {
                return false;
            }
        }
        if self.min_moves.is_some() || self.max_moves.is_some() {
            let moves = game.main_line_moves();
            if self.min_moves.is_some_and(|n| moves < n) || self.max_moves.is_some_and(|n| moves > n) {
                return false;
            }
        }
        let needs_info = !(self.players.is_empty()
            && self.black.is_empty()
            && self.white.is_empty()
            && self.events.is_empty()
            && self.since.is_none()
            && self.until.is_none()
            && self.winner.is_none());
        if !needs_info {
            return true;
        }
        let root = game.root();
        let (pb, pw) = (root.value("PB"), root.value("PW"));
        if !self.players.iter().all(|t| t.matches(pb) || t.matches(pw))
            || !self.black.iter().all(|t| t.matches(pb))
            || !self.white.iter().all(|t| t.matches(pw))
            || !self.events.iter().all(|t| t.matches(root.value("EV")))
        {
            return false;
        }
        if self.since.is_some() || self.until.is_some() {
            let Some((first, last)) = root.value("DT").and_then(date_span) else { return false };
            if self.since.is_some_and(|d| last < d.first()) || self.until.is_some_and(|d| first > d.last()) {
                return false;
            }
        }
        if let Some(w) = self.winner {
            let result = root.value("RE").and_then(GameResult::from_sgf);
            let won = match result {
                Some(GameResult::Win { winner: Color::Black, .. }) => Some(Winner::Black),
                Some(GameResult::Win { winner: Color::White, .. }) => Some(Winner::White),
                Some(GameResult::Draw) => Some(Winner::Draw),
                _ => None,
            };
            if won != Some(w) {
                return false;
            }
        }
        true
    }

    /// Unmarks in `chosen` the marked games of `games` that do not match (read from a record of
    /// `format`), leaving the games in place (a table keeps each game's number in its file);
    /// returns how many were unmarked.
    ///
    /// ```
    /// use kifu::select::Filter;
    /// let read = kifu::read(&b"(;B[pd])(;B[pd];W[dp])"[..]).unwrap();
    /// let mut chosen = vec![true; 2];
    /// assert_eq!(Filter::new().min_moves(2).choose(&read.collection.games, None, &mut chosen), 1);
    /// assert_eq!(chosen, [false, true]);
    /// ```
    pub fn choose(&self, games: &[GameTree], format: Option<Format>, chosen: &mut [bool]) -> usize {
        if self.is_empty() {
            return 0;
        }
        let mut left_out = 0;
        for (c, game) in chosen.iter_mut().zip(games).filter(|(c, _)| **c) {
            *c = self.matches(game, format);
            left_out += usize::from(!*c);
        }
        left_out
    }

    /// Keeps the games of `collection` that match (read from a record of `format`); returns
    /// how many were left out.
    pub fn retain(&self, collection: &mut Collection, format: Option<Format>) -> usize {
        if self.is_empty() {
            return 0;
        }
        let before = collection.games.len();
        collection.games.retain(|g| self.matches(g, format));
        before - collection.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(sgf: &str) -> GameTree {
        crate::read_bytes(sgf.as_bytes().to_vec(), None, &Default::default()).unwrap().collection.games.remove(0)
    }

    #[test]
    fn names_fold_case_width_and_composition() {
        let g = game("(;GM[1]PB[Lee  Sedol]PW[Ｃｈｏ Ｈｕｎ-ｈｙｕｎ]EV[28th Meijin];B[aa])");
        assert!(Filter::new().player("LEE SEDOL").matches(&g, None));
        assert!(Filter::new().player("cho hun").matches(&g, None));
        assert!(Filter::new().white("=cho hun-hyun").matches(&g, None));
        assert!(!Filter::new().white("=cho").matches(&g, None));
        assert!(!Filter::new().black("cho").matches(&g, None));
        assert!(Filter::new().player("lee").player("cho").matches(&g, None));
        assert!(!Filter::new().player("lee").player("kim").matches(&g, None));
        assert!(Filter::new().event("meijin").matches(&g, None));
        // A composed é matches the decomposed form.
        let accented = game("(;GM[1]PB[Ren\u{e9}])");
        assert!(Filter::new().black("rene\u{301}").matches(&accented, None));
        // A missing name never matches.
        assert!(!Filter::new().player("").matches(&game("(;GM[1])"), None));
    }

    #[test]
    fn dates_cover_their_span() {
        let g = game("(;GM[1]DT[1996-12-27,28,1997-01-03])");
        let d = |s: &str| s.parse::<PartialDate>().unwrap();
        assert!(Filter::new().since(d("1997")).matches(&g, None));
        assert!(Filter::new().until(d("1996-12-27")).matches(&g, None));
        assert!(!Filter::new().since(d("1997-01-04")).matches(&g, None));
        assert!(!Filter::new().until(d("1996-12-26")).matches(&g, None));
        assert!(!Filter::new().since(d("1990")).matches(&game("(;GM[1])"), None));
        assert_eq!(date_span("1996-05,06"), Some(((1996, 5, 1), (1996, 6, 31))));
        assert_eq!(date_span("2001-05-06,07-01"), Some(((2001, 5, 6), (2001, 7, 1))));
        assert_eq!(date_span("05,06"), None);
        assert!("16".parse::<PartialDate>().is_err() && "2016-1-2-3".parse::<PartialDate>().is_err());
    }

    #[test]
    fn winner_moves_size_and_format() {
        let g = game("(;GM[1]SZ[13]RE[W+3.5];B[aa];W[bb](;B[cc])(;B[dd];W[ee]))");
        assert!(Filter::new().winner("w".parse().unwrap()).matches(&g, None));
        assert!(!Filter::new().winner(Winner::Draw).matches(&g, None));
        assert!(Filter::new().winner(Winner::Draw).matches(&game("(;GM[1]RE[0])"), None));
        assert!(Filter::new().min_moves(3).max_moves(3).matches(&g, None));
        assert!(!Filter::new().min_moves(4).matches(&g, None));
        assert!(Filter::new().size(parse_size("13").unwrap()).matches(&g, None));
        assert!(!Filter::new().size(BoardSize::square(19)).matches(&g, None));
        assert!(Filter::new().size(BoardSize::square(19)).matches(&game("(;GM[1])"), None));
        assert!(Filter::new().format(Format::SGF).matches(&g, Some(Format::SGF)));
        assert!(!Filter::new().format(Format::SGF).matches(&g, None));
        assert!("x".parse::<Winner>().is_err() && parse_size("53").is_err() && parse_size("9x").is_err());
        assert_eq!(parse_size("19x13").unwrap(), BoardSize { width: 19, height: 13 });
    }
}
