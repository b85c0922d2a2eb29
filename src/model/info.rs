//! Game information: typed accessors over the game-info properties (players, ranks, komi, …).

use super::tree::GameTree;
use std::fmt;

/// The game-info properties [`GameTree::info`] reads.
const INFO_IDENTS: [&str; 19] =
    ["PB", "PW", "BR", "WR", "BT", "WT", "KM", "HA", "RE", "DT", "RU", "TM", "OT", "EV", "RO", "PC", "GN", "SO", "GC"];

/// For each key of the property table, its index in [`INFO_IDENTS`] ([`NOT_INFO`] for the other
/// properties): one look-up per property instead of a search of the list.
fn info_index() -> &'static [u8] {
    static INDEX: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut t = vec![NOT_INFO; super::props::PROPS.len()];
        for (i, id) in INFO_IDENTS.iter().enumerate() {
            if let Some(k) = super::props::index_of(id) {
                t[usize::from(k)] = i as u8;
            }
        }
        t
    })
}

/// [`info_index`]'s entry for a property that is not game information.
const NOT_INFO: u8 = u8::MAX;

/// Indexes into [`InfoTexts::found`], one per field of [`INFO_IDENTS`].
pub(crate) mod field {
    pub(crate) const PB: usize = 0;
    pub(crate) const PW: usize = 1;
    pub(crate) const BR: usize = 2;
    pub(crate) const WR: usize = 3;
    pub(crate) const BT: usize = 4;
    pub(crate) const WT: usize = 5;
    pub(crate) const KM: usize = 6;
    pub(crate) const HA: usize = 7;
    pub(crate) const RE: usize = 8;
    pub(crate) const DT: usize = 9;
    pub(crate) const RU: usize = 10;
    pub(crate) const TM: usize = 11;
    pub(crate) const OT: usize = 12;
    pub(crate) const EV: usize = 13;
    pub(crate) const RO: usize = 14;
    pub(crate) const PC: usize = 15;
    pub(crate) const GN: usize = 16;
    pub(crate) const SO: usize = 17;
    pub(crate) const GC: usize = 18;
}

/// The texts [`GameTree::info`] reads its fields from, borrowed from the tree (what a writer of
/// the digest needs without building a [`GameInfo`]).
pub(crate) struct InfoTexts<'a> {
    /// The value of each field of [`INFO_IDENTS`] (indexed by the constants of [`field`]).
    pub(crate) found: [Option<&'a str>; INFO_IDENTS.len()],
    /// The first value of the root's first `SZ` (what [`GameTree::board_size`] reads).
    pub(crate) size: Option<&'a str>,
}

/// Who won and how, parsed from an FF\[4\] `RE` value.
///
/// ```
/// use kifu::model::{Color, GameResult, WinKind};
/// let r = GameResult::from_sgf("W+2.5").unwrap();
/// assert_eq!(r, GameResult::Win { winner: Color::White, how: WinKind::Score(2.5) });
/// assert_eq!(GameResult::from_sgf("B+Resign").unwrap().to_string(), "B+R");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// `B+…` / `W+…`.
    Win {
        /// The winner.
        winner: super::point::Color,
        /// How the game was won.
        how: WinKind,
    },
    /// `0` or `Draw`.
    Draw,
    /// `Void`: no result.
    Void,
    /// `?`: unknown result.
    Unknown,
}

/// How a game was won.
///
/// ```
/// use kifu::model::{GameResult, WinKind};
/// let Some(GameResult::Win { how, .. }) = GameResult::from_sgf("B+T") else { unreachable!() };
/// assert_eq!(how, WinKind::Time);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum WinKind {
    /// By a number of points (`B+3.5`).
    Score(f64),
    /// By points, margin not given (`B+`).
    Points,
    /// Resignation (`R`).
    Resign,
    /// Time (`T`).
    Time,
    /// Forfeit (`F`).
    Forfeit,
}

impl GameResult {
    /// Parses an FF\[4\] `RE` value (`B+R`, `W+3.5`, `B+Resign`, `0`, `Draw`, `Void`, `?`).
    pub fn from_sgf(value: &str) -> Option<GameResult> {
        use super::point::Color;
        let v = value.trim();
        match v {
            "0" | "Draw" | "D" => return Some(GameResult::Draw),
            "Void" => return Some(GameResult::Void),
            "?" => return Some(GameResult::Unknown),
            _ => {}
        }
        let (winner, rest) = match v.split_at_checked(2)? {
            ("B+", r) | ("b+", r) => (Color::Black, r),
            ("W+", r) | ("w+", r) => (Color::White, r),
            _ => return None,
        };
        let how = match rest {
            "" => WinKind::Points,
            "R" | "Resign" | "r" => WinKind::Resign,
            "T" | "Time" | "t" => WinKind::Time,
            "F" | "Forfeit" | "f" => WinKind::Forfeit,
            n => WinKind::Score(n.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0)?),
        };
        Some(GameResult::Win { winner, how })
    }

    /// The result as `(winner, how, margin)`, the way kifu's JSON and the Python binding spell
    /// it: `how` is `"score"` (with the `margin`), `"points"` (margin not given), `"resign"`,
    /// `"time"`, `"forfeit"`, `"draw"`, `"void"` or `"unknown"`; `winner` is `None` for the last
    /// three.
    ///
    /// ```
    /// use kifu::model::{Color, GameResult};
    /// assert_eq!(GameResult::from_sgf("W+2.5").unwrap().parts(), (Some(Color::White), "score", Some(2.5)));
    /// assert_eq!(GameResult::from_sgf("B+R").unwrap().parts(), (Some(Color::Black), "resign", None));
    /// assert_eq!(GameResult::from_sgf("0").unwrap().parts(), (None, "draw", None));
    /// ```
    pub fn parts(&self) -> (Option<super::point::Color>, &'static str, Option<f64>) {
        match self {
            GameResult::Draw => (None, "draw", None),
            GameResult::Void => (None, "void", None),
            GameResult::Unknown => (None, "unknown", None),
            GameResult::Win { winner, how } => {
                let (how, margin) = match how {
                    WinKind::Score(s) => ("score", Some(*s)),
                    WinKind::Points => ("points", None),
                    WinKind::Resign => ("resign", None),
                    WinKind::Time => ("time", None),
                    WinKind::Forfeit => ("forfeit", None),
                };
                (Some(*winner), how, margin)
            }
        }
    }

    /// The FF\[4\] form: `B+R`, `W+3.5` (never `+3.50` or `+4.0`), `0`, `Void`, `?`.
    pub fn to_sgf(&self) -> String {
        match self {
            GameResult::Draw => "0".into(),
            GameResult::Void => "Void".into(),
            GameResult::Unknown => "?".into(),
            GameResult::Win { winner, how } => {
                let tail = match how {
                    WinKind::Score(s) => format_real(*s),
                    WinKind::Points => String::new(),
                    WinKind::Resign => "R".into(),
                    WinKind::Time => "T".into(),
                    WinKind::Forfeit => "F".into(),
                };
                format!("{}+{}", winner.as_sgf(), tail)
            }
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sgf())
    }
}

/// Formats a real number as SGF does: no trailing zeros, no trailing point (`6.5`, `4`, `-2.75`).
pub fn format_real(x: f64) -> String {
    let s = format!("{:.4}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Normalises a rank for SGF: `4D` → `4d`, `3段` → `3d`, `1급` → `1k`, `9DP`/`9段P`/`P9`/`P9段`/`9段(P)`/
/// `프로 9단`/`9 pro` → `9p`,
/// `15K` → `15k`; a trailing `*` or `?` (FF\[4\]'s certainty marks) is kept. `None` when the text is
/// not a recognisable rank.
pub fn normalize_rank(raw: &str) -> Option<String> {
    let s = raw.trim();
    if is_written_rank(s) {
        return Some(s.to_string());
    }
    rank_from(s)
}

/// Whether `s` is a rank already in the written form (`9d`, `15k`, `1p*`; the case of most
/// ranks), which [`normalize_rank`] gives back as it is.
pub(crate) fn is_written_rank(s: &str) -> bool {
    let [d0 @ b'1'..=b'9', rest @ ..] = s.as_bytes() else { return false };
    let (n, unit) = match rest {
        [d1 @ b'0'..=b'9', unit @ ..] => (10 * (d0 - b'0') + (d1 - b'0'), unit),
        unit => (d0 - b'0', unit),
    };
    n <= 50 && matches!(unit, [b'd' | b'k' | b'p'] | [b'd' | b'k' | b'p', b'*' | b'?'])
}

/// The marks of a professional rank written beside the number (`9段(P)`, `프로 9단`, `9 pro`).
const PRO_MARKS: &[&str] = &["(P)", "（P）", "(p)", "(Pro)", "(pro)", "프로", "PRO", "Pro", "pro"];

/// A rank the text marks as professional with one of [`PRO_MARKS`]: the number with a dan unit
/// or none around the mark (`9段(P)`, `9단 프로`, `프로 9단`, `pro 9`, `9 pro`) as `9p`.
fn marked_pro(s: &str) -> Option<String> {
    let mark = PRO_MARKS.iter().find(|m| s.contains(**m))?;
    let rest = s.replacen(mark, " ", 1);
    let rest = rest.trim();
    let digits = rest.trim_end_matches(|c: char| !c.is_ascii_digit());
    let digits = digits.trim_start_matches(|c: char| !c.is_ascii_digit());
    let n: u32 = digits.parse().ok().filter(|n| (1..=50).contains(n))?;
    let at = rest.find(digits)?;
    let (before, after) = (rest[..at].trim(), rest[at + digits.len()..].trim());
    (before.is_empty() && matches!(after, "" | "d" | "D" | "p" | "P" | "段" | "단" | "dan" | "Dan"))
        .then(|| format!("{n}p"))
}

/// [`normalize_rank`] of a trimmed text, form by form.
fn rank_from(s: &str) -> Option<String> {
    if let Some(pro) = marked_pro(s) {
        return Some(pro);
    }
    // `P9`, `P9段` (WBaduk, Fox): a professional rank with the P first.
    if let Some(rest) = s.strip_prefix(['P', 'p']).filter(|r| r.starts_with(|c: char| c.is_ascii_digit())) {
        let digits = rest.trim_end_matches(|c: char| !c.is_ascii_digit());
        let (unit, mark) = match rest[digits.len()..].trim() {
            u @ ("*" | "?") => ("", u),
            u => (u.trim_end_matches(['*', '?']), &u[u.trim_end_matches(['*', '?']).len()..]),
        };
        return matches!(unit, "" | "d" | "D" | "段" | "단" | "dan")
            .then(|| normalize_rank(&format!("{digits}p{mark}")))
            .flatten();
    }
    let (core, mark) = match s.strip_suffix('*').or_else(|| s.strip_suffix('?')) {
        Some(c) => (c.trim_end(), &s[s.len() - 1..]),
        None => (s, ""),
    };
    let digits_end = core.find(|c: char| !c.is_ascii_digit()).unwrap_or(core.len());
    let (num, unit) = core.split_at(digits_end);
    let n: u32 = num.parse().ok().filter(|n| (1..=50).contains(n))?;
    let unit = unit.trim();
    let letter = match unit {
        "d" | "D" | "段" | "단" | "dan" | "Dan" => "d",
        "k" | "K" | "級" | "级" | "급" | "kyu" | "Kyu" => "k",
        "p" | "P" | "DP" | "dp" | "Dp" | "段P" | "단P" | "pro" | "Pro" => "p",
        _ => return None,
    };
    Some(format!("{n}{letter}{mark}"))
}

/// The game information of one game, read from its root (and the first game-info node of the
/// main line when the root lacks a property).
///
/// ```
/// let read = kifu::read(&b"(;PB[Cho Chikun]BR[9p]PW[Kobayashi Koichi]KM[5.5]RE[W+R])"[..]).unwrap();
/// let info = read.collection.games[0].info();
/// assert_eq!(info.black.as_deref(), Some("Cho Chikun"));
/// assert_eq!(info.komi, Some(5.5));
/// assert_eq!(info.result.unwrap().to_string(), "W+R");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct GameInfo {
    /// `PB`.
    pub black: Option<String>,
    /// `PW`.
    pub white: Option<String>,
    /// `BR`.
    pub black_rank: Option<String>,
    /// `WR`.
    pub white_rank: Option<String>,
    /// `BT`.
    pub black_team: Option<String>,
    /// `WT`.
    pub white_team: Option<String>,
    /// `KM` as a number.
    pub komi: Option<f64>,
    /// `HA` as a number.
    pub handicap: Option<u32>,
    /// `RE`, raw.
    pub result_text: Option<String>,
    /// `RE`, parsed.
    pub result: Option<GameResult>,
    /// `DT`.
    pub date: Option<String>,
    /// `RU`.
    pub rules: Option<String>,
    /// `TM` in seconds.
    pub time: Option<f64>,
    /// `OT`.
    pub overtime: Option<String>,
    /// `EV`.
    pub event: Option<String>,
    /// `RO`.
    pub round: Option<String>,
    /// `PC`.
    pub place: Option<String>,
    /// `GN`.
    pub name: Option<String>,
    /// `SO`.
    pub source: Option<String>,
    /// `GC`.
    pub comment: Option<String>,
}

impl GameTree {
    /// The game's information (see [`GameInfo`]).
    pub fn info(&self) -> GameInfo {
        let found = self.info_texts().found;
        let get = |i: usize| found[i].map(str::to_string);
        use field::*;
        let result_text = get(RE);
        GameInfo {
            black: get(PB),
            white: get(PW),
            black_rank: get(BR),
            white_rank: get(WR),
            black_team: get(BT),
            white_team: get(WT),
            komi: found[KM].and_then(parse_komi),
            handicap: found[HA].and_then(parse_handicap),
            result: result_text.as_deref().and_then(GameResult::from_sgf),
            result_text,
            date: get(DT),
            rules: get(RU),
            time: found[TM].and_then(|t| t.trim().parse::<f64>().ok()).filter(|k| k.is_finite()),
            overtime: get(OT),
            event: get(EV),
            round: get(RO),
            place: get(PC),
            name: get(GN),
            source: get(SO),
            comment: get(GC),
        }
    }

    /// The texts of [`GameTree::info`]'s fields and of the root's `SZ`, borrowed. Each field
    /// is the first value of the first property of its name in the first of the main line's
    /// first three nodes that has a value there; found in one pass over those nodes,
    /// properties told by their key.
    pub(crate) fn info_texts(&self) -> InfoTexts<'_> {
        let index = info_index();
        let size_key = super::props::index_of("SZ");
        let mut texts = InfoTexts { found: [None; INFO_IDENTS.len()], size: None };
        let mut size_seen = false;
        for n in self.main_line().take(3) {
            let mut seen = 0u32;
            for p in n.props() {
                let k = p.key();
                if !size_seen && Some(k) == size_key && n.is_root() {
                    size_seen = true;
                    texts.size = p.values().next().map(|v| v.as_str());
                }
                let i = match index.get(usize::from(k)) {
                    Some(&i) if i != NOT_INFO => usize::from(i),
                    _ => continue,
                };
                if seen & (1 << i) == 0 {
                    seen |= 1 << i;
                    if texts.found[i].is_none() {
                        texts.found[i] = p.values().next().map(|v| v.as_str());
                    }
                }
            }
        }
        texts
    }
}

/// `KM` as [`GameInfo::komi`] reads it.
pub(crate) fn parse_komi(k: &str) -> Option<f64> {
    k.trim().parse::<f64>().ok().filter(|k| k.is_finite())
}

/// `HA` as [`GameInfo::handicap`] reads it.
pub(crate) fn parse_handicap(h: &str) -> Option<u32> {
    h.trim().parse().ok()
}

#[cfg(test)]
mod tests {

    #[test]
    fn professional_marks() {
        for (raw, want) in [
            ("P6段", "6p"),
            ("9단P", "9p"),
            ("9段(P)", "9p"),
            ("9段（P）", "9p"),
            ("프로 9단", "9p"),
            ("9단 프로", "9p"),
            ("9 pro", "9p"),
            ("Pro 3", "3p"),
            ("p9", "9p"),
            ("9p", "9p"),
            ("9段", "9d"),
        ] {
            assert_eq!(normalize_rank(raw).as_deref(), Some(want), "{raw}");
        }
        for raw in ["pro", "12k pro", "(P)", "프로"] {
            assert_eq!(normalize_rank(raw), None, "{raw}");
        }
    }

    use super::*;
    use crate::model::point::Color;

    #[test]
    fn info_takes_the_first_value_of_the_first_property_in_the_first_three_nodes() {
        // Every field has its key in the table, and the field constants follow the list.
        assert_eq!(info_index().iter().filter(|&&i| i != NOT_INFO).count(), INFO_IDENTS.len());
        assert_eq!((INFO_IDENTS[field::PB], INFO_IDENTS[field::GC], INFO_IDENTS[field::RE]), ("PB", "GC", "RE"));
        let mut b = crate::model::TreeBuilder::new();
        let root = b.root();
        b.add_prop(root, "PB", [""]);
        b.add_prop(root, "PB", ["x"]);
        let one = b.add_child(root);
        b.add_prop(one, "PB", ["Ann"]);
        b.add_prop(one, "PW", ["Bo"]);
        let two = b.add_child(one);
        b.add_prop(two, "PW", ["Cy"]);
        b.add_prop(two, "KM", ["6.5"]);
        let three = b.add_child(two);
        b.add_prop(three, "RE", ["B+R"]);
        let game = b.build();
        let info = game.info();
        // The root's first `PB` holds an empty value, which counts (its second is not looked
        // at); the first `PW` on the main line wins; a fourth node is not looked at.
        assert_eq!((info.black.as_deref(), info.white.as_deref(), info.komi), (Some(""), Some("Bo"), Some(6.5)));
        assert_eq!(info.result_text, None);
    }

    #[test]
    fn info_texts_read_the_roots_first_size_as_board_size_does() {
        for (sgf, size) in [
            ("(;SZ[13]SZ[9];SZ[7])", Some("13")),
            ("(;GM[1];SZ[9])", None),
            ("(;SZ[x]PB[a])", Some("x")),
            ("(;SZ[19:13])", Some("19:13")),
        ] {
            let game = crate::read(sgf.as_bytes()).unwrap().collection.games.remove(0);
            let texts = game.info_texts();
            assert_eq!(texts.size, size, "{sgf}");
            let from_texts = texts.size.and_then(crate::model::BoardSize::from_sgf).unwrap_or_default();
            assert_eq!(from_texts, game.board_size(), "{sgf}");
        }
    }

    #[test]
    fn results_parse_and_print() {
        let r = GameResult::from_sgf("B+4.0").unwrap();
        assert_eq!(r, GameResult::Win { winner: Color::Black, how: WinKind::Score(4.0) });
        assert_eq!(r.to_sgf(), "B+4");
        assert_eq!(GameResult::from_sgf("W+Resign").unwrap().to_sgf(), "W+R");
        assert_eq!(GameResult::from_sgf("0"), Some(GameResult::Draw));
        assert_eq!(GameResult::from_sgf("B+x"), None);
        assert_eq!(format_real(6.50), "6.5");
        assert_eq!(format_real(-5.0), "-5");
        assert_eq!(format_real(3.75), "3.75");
    }

    #[test]
    fn ranks_normalise() {
        for (raw, want) in [
            ("4D", "4d"),
            ("3段", "3d"),
            ("1급", "1k"),
            ("15K", "15k"),
            ("9DP", "9p"),
            ("7단P", "7p"),
            ("7D*", "7d*"),
            ("2k?", "2k?"),
            ("P9", "9p"),
            ("P9段", "9p"),
        ] {
            assert_eq!(normalize_rank(raw).as_deref(), Some(want), "{raw}");
        }
        assert_eq!(normalize_rank("pro"), None);
        assert_eq!(normalize_rank(""), None);
    }

    #[test]
    fn ranks_in_the_written_form_are_given_back_as_the_forms_read_them() {
        let mut written = 0;
        for n in ["0", "1", "5", "9", "09", "10", "15", "49", "50", "51", "99", "100"] {
            for unit in ["d", "k", "p", "D", "K", "P", "dp", "x", "", " d"] {
                for mark in ["", "*", "?", "**", " *"] {
                    let s = format!("{n}{unit}{mark}");
                    if is_written_rank(&s) {
                        written += 1;
                        assert_eq!(rank_from(&s).as_deref(), Some(s.as_str()), "{s}");
                    }
                }
            }
        }
        // 1, 5, 9, 10, 15, 49 and 50 with d, k or p, and no mark, `*` or `?`.
        assert_eq!(written, 7 * 3 * 3);
    }
}
