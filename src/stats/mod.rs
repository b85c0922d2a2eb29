//! What an archive holds: formats, charsets, sizes, dates, players, results, handicaps, damage
//! and duplicates, gathered file by file ([formats/archives.md](crate::spec::archives),
//! "Statistics").
//!
//! [`FileStats::of`] takes what one file gave (on any thread; it holds no game, only counts and
//! [`Fingerprint`]s); [`Stats::add`] adds it, in path order; [`Stats::finish`] finds the
//! duplicate groups.
//!
//! ```
//! use kifu::stats::{FileStats, Stats};
//! let text = b"(;SZ[19]PB[Lee]PW[Gu]DT[2014-01-26]RE[W+R];B[pd];W[dp])";
//! let read = kifu::read(&text[..]).unwrap();
//! let mut stats = Stats::new();
//! stats.add(FileStats::of(kifu::Format::SGF, text.len() as u64, &read));
//! let stats = stats.finish();
//! assert_eq!((stats.files, stats.games, stats.results.white), (1, 1, 1));
//! assert_eq!(stats.years.get(&2014), Some(&1));
//! assert_eq!(stats.players(1)[0].1, 1);
//! ```

use crate::dedup::{Dedup, Fingerprint, Group, Relation};
use crate::diag::{Diagnostic, Severity};
use crate::formats::{Format, ReadOutput};
use crate::model::{Color, GameResult, GameTree};
use std::collections::{BTreeMap, HashMap};

/// Who won, counted over games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Results {
    /// `B+…`.
    pub black: usize,
    /// `W+…`.
    pub white: usize,
    /// `0`, `Draw`.
    pub draw: usize,
    /// `Void`.
    pub void: usize,
    /// `?`, no `RE`, or one kifu cannot read.
    pub unknown: usize,
}

/// One diagnostic code met while reading, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodeCount {
    /// Its severity (the most serious met for this code).
    pub severity: Option<Severity>,
    /// Files where it was met.
    pub files: usize,
    /// Times it was met.
    pub times: usize,
}

/// The duplicates found ([`crate::dedup`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Duplicates {
    /// Groups of two or more copies of one game.
    pub groups: usize,
    /// Games in those groups.
    pub copies: usize,
    /// Copies that are not kept (`copies - groups`).
    pub redundant: usize,
    /// Of those, copies that are an unfinished start of the kept game.
    pub prefixes: usize,
}

/// One file's contribution: counts, and the fingerprint of each game.
#[derive(Clone, Debug, Default)]
pub struct FileStats {
    format: Option<&'static str>,
    bytes: u64,
    charset: Option<(&'static str, &'static str)>,
    failed: bool,
    codes: Vec<(&'static str, Severity)>,
    games: Vec<GameStats>,
}

#[derive(Clone, Debug)]
struct GameStats {
    size: (u8, u8),
    date: Option<String>,
    players: [Option<String>; 2],
    result: Option<GameResult>,
    handicap: bool,
    print: Fingerprint,
}

impl FileStats {
    /// What a file of `bytes` bytes read as `format` holds.
    pub fn of(format: Format, bytes: u64, read: &ReadOutput) -> FileStats {
        FileStats {
            format: Some(format.name()),
            bytes,
            charset: read.charset.map(|d| (d.name(), d.source.as_str())),
            failed: false,
            codes: read.diagnostics.iter().map(|d| (d.code, d.severity)).collect(),
            games: read.collection.games.iter().map(game_stats).collect(),
        }
    }

    /// A file of `bytes` bytes that could not be read (`format` when it was told), with why.
    pub fn failed(format: Option<Format>, bytes: u64, diagnostics: &[Diagnostic]) -> FileStats {
        FileStats {
            format: format.map(Format::name),
            bytes,
            failed: true,
            codes: diagnostics.iter().map(|d| (d.code, d.severity)).collect(),
            ..FileStats::default()
        }
    }

    /// Counts a diagnostic met outside the reader (the command's format decision).
    pub fn note(&mut self, d: &Diagnostic) {
        self.codes.push((d.code, d.severity));
    }

    /// The fingerprints of the file's games, in order.
    pub fn fingerprints(&self) -> impl Iterator<Item = &Fingerprint> + '_ {
        self.games.iter().map(|g| &g.print)
    }
}

/// The date of `DT` kifu sorts by: its first `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (the form the
/// repairs give a date they can read).
fn date_of(dt: &str) -> Option<String> {
    let b = dt.trim().as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    if !digits(0..4) || b.get(4).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let len = if b.get(4) == Some(&b'-') && digits(5..7) {
        if b.get(7) == Some(&b'-') && digits(8..10) { 10 } else { 7 }
    } else {
        4
    };
    Some(String::from_utf8_lossy(&b[..len]).into_owned())
}

fn game_stats(game: &GameTree) -> GameStats {
    let info = game.info();
    let size = game.board_size();
    let print = Fingerprint::of(game);
    let name = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    GameStats {
        size: (size.width, size.height),
        date: info.date.as_deref().and_then(date_of),
        players: [name(info.black), name(info.white)],
        handicap: info.handicap.is_some_and(|h| h >= 2) || {
            let (black, white) = print.setup_colors();
            black >= 2 && white == 0
        },
        result: info.result,
        print,
    }
}

/// What the files added so far hold.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Files added.
    pub files: usize,
    /// Games read.
    pub games: usize,
    /// Bytes of the files.
    pub bytes: u64,
    /// Files that could not be read at all.
    pub failed: usize,
    /// Files read with an error repaired.
    pub repaired: usize,
    /// Files read with warnings (and no error).
    pub warnings: usize,
    /// Per format: files and games (`-` for files whose format could not be told).
    pub formats: BTreeMap<&'static str, (usize, usize)>,
    /// Per charset and how it was decided (`bom`, `override`, `declared`, `detected`): files.
    pub charsets: BTreeMap<(&'static str, &'static str), usize>,
    /// Per board size (columns, rows): games.
    pub sizes: BTreeMap<(u8, u8), usize>,
    /// The earliest date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD` from `DT`).
    pub first_date: Option<String>,
    /// The latest date.
    pub last_date: Option<String>,
    /// Games per year.
    pub years: BTreeMap<u16, usize>,
    /// Games with no date kifu can read.
    pub undated: usize,
    /// Results.
    pub results: Results,
    /// Games with a handicap: `HA` of 2 or more, or two or more black stones and no white one
    /// placed before the first move (a problem's position, with stones of both colours, is not).
    pub handicap: usize,
    /// Per diagnostic code met while reading.
    pub codes: BTreeMap<&'static str, CodeCount>,
    /// Duplicates, after [`Stats::finish`].
    pub duplicates: Duplicates,
    players: HashMap<String, usize>,
    dedup: Dedup,
    groups: Vec<Group>,
}

impl Stats {
    /// Nothing counted yet.
    pub fn new() -> Stats {
        Stats { dedup: Dedup::new(), ..Stats::default() }
    }

    /// Adds one file (add them in path order: it breaks ties between duplicates).
    pub fn add(&mut self, file: FileStats) {
        self.files += 1;
        self.bytes += file.bytes;
        let format = self.formats.entry(file.format.unwrap_or("-")).or_default();
        format.0 += 1;
        format.1 += file.games.len();
        if let Some(c) = file.charset {
            *self.charsets.entry(c).or_default() += 1;
        }
        let worst = file.codes.iter().map(|c| c.1).max();
        if file.failed {
            self.failed += 1;
        } else if worst == Some(Severity::Error) {
            self.repaired += 1;
        } else if worst == Some(Severity::Warning) {
            self.warnings += 1;
        }
        let mut seen: Vec<&'static str> = Vec::new();
        for &(code, severity) in &file.codes {
            let c = self.codes.entry(code).or_default();
            c.times += 1;
            c.severity = c.severity.max(Some(severity));
            if !seen.contains(&code) {
                seen.push(code);
                c.files += 1;
            }
        }
        for g in file.games {
            self.games += 1;
            *self.sizes.entry(g.size).or_default() += 1;
            match g.date {
                Some(d) => {
                    if let Ok(y) = d[..4].parse::<u16>() {
                        *self.years.entry(y).or_default() += 1;
                    }
                    if self.first_date.as_ref().is_none_or(|f| d < *f) {
                        self.first_date = Some(d.clone());
                    }
                    if self.last_date.as_ref().is_none_or(|l| d > *l) {
                        self.last_date = Some(d);
                    }
                }
                None => self.undated += 1,
            }
            for p in g.players.into_iter().flatten() {
                *self.players.entry(p).or_default() += 1;
            }
            let r = &mut self.results;
            match g.result {
                Some(GameResult::Win { winner: Color::Black, .. }) => r.black += 1,
                Some(GameResult::Win { winner: Color::White, .. }) => r.white += 1,
                Some(GameResult::Draw) => r.draw += 1,
                Some(GameResult::Void) => r.void += 1,
                Some(GameResult::Unknown) | None => r.unknown += 1,
            }
            self.handicap += usize::from(g.handicap);
            self.dedup.add(g.print);
        }
    }

    /// Finds the duplicate groups among the games added.
    pub fn finish(mut self) -> Stats {
        self.groups = self.dedup.groups();
        let copies: usize = self.groups.iter().map(|g| g.copies.len()).sum();
        let prefixes = self.groups.iter().flat_map(|g| &g.copies).filter(|c| c.relation == Relation::Prefix).count();
        self.duplicates =
            Duplicates { groups: self.groups.len(), copies, redundant: copies - self.groups.len(), prefixes };
        self
    }

    /// The duplicate groups ([`Stats::finish`]); a copy's index counts games in the order added.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The `n` players with the most games (either colour), most first, then by name.
    pub fn players(&self, n: usize) -> Vec<(&str, usize)> {
        let mut all: Vec<(&str, usize)> = self.players.iter().map(|(p, &c)| (p.as_str(), c)).collect();
        all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.truncate(n);
        all
    }

    /// Number of different player names.
    pub fn player_count(&self) -> usize {
        self.players.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_taken_from_their_iso_start() {
        assert_eq!(date_of("2020-08-21").as_deref(), Some("2020-08-21"));
        assert_eq!(date_of("2020-08-21,22").as_deref(), Some("2020-08-21"));
        assert_eq!(date_of("2020-08").as_deref(), Some("2020-08"));
        assert_eq!(date_of("1846").as_deref(), Some("1846"));
        assert_eq!(date_of("20200821"), None);
        assert_eq!(date_of("Spring 1846"), None);
    }

    #[test]
    fn counts_add_up() {
        let mut stats = Stats::new();
        let games = b"(;SZ[19]PB[A]PW[B]DT[2019-03-01]RE[B+R]HA[2]AB[dd][pp];W[qd])\
                      (;SZ[9]PB[A]PW[C]DT[2021]RE[Void]AB[aa][bb]AW[cc];B[ee])(;PB[ C ]RE[x])";
        let read = crate::read(&games[..]).unwrap();
        stats.add(FileStats::of(Format::SGF, games.len() as u64, &read));
        let fail = Diagnostic::error("sgf.no-game", "no game");
        stats.add(FileStats::failed(None, 3, &[fail]));
        let s = stats.finish();
        assert_eq!((s.files, s.games, s.failed, s.bytes), (2, 3, 1, games.len() as u64 + 3));
        assert_eq!(s.formats.get("sgf"), Some(&(1, 3)));
        assert_eq!(s.formats.get("-"), Some(&(1, 0)));
        assert_eq!(s.results, Results { black: 1, white: 0, draw: 0, void: 1, unknown: 1 });
        assert_eq!((s.first_date.as_deref(), s.last_date.as_deref(), s.undated), (Some("2019-03-01"), Some("2021"), 1));
        assert_eq!(s.years.iter().map(|(y, n)| (*y, *n)).collect::<Vec<_>>(), [(2019, 1), (2021, 1)]);
        assert_eq!(s.players(2), [("A", 2), ("C", 2)]);
        assert_eq!(s.handicap, 1);
        assert_eq!(s.sizes.get(&(9, 9)), Some(&1));
        assert_eq!(s.codes.get("sgf.no-game").map(|c| c.files), Some(1));
        assert_eq!(s.duplicates, Duplicates::default());
    }
}
