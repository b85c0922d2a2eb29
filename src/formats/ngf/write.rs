//! The NGF writer (SGF → NGF): the standard twelve header lines (White before Black), an English
//! result the reader parses back, and `PM` move lines; everything NGF cannot hold is reported
//! item by item as `ngf.lossy`.

use super::codes;
use super::fields::{compact_date, integer_komi, parse_date, rank_to_sgf, split_player};
use super::result::{ParsedResult, english_result, parse_result};
use crate::diag::Diagnostic;
use crate::formats::WriteError;
use crate::formats::legacy;
use crate::go::handicap::tygem_layout;
use crate::model::info::format_real;
use crate::model::{BoardSize, Collection, GameResult, GameTree, Move, Node, NodeId, Point};
use std::fmt::Write as _;

/// Root properties the header holds (or that only describe the SGF file itself).
const HELD: &[&str] = &[
    "GM",
    "FF",
    "CA",
    "SZ",
    "GN",
    "PW",
    "PB",
    "WR",
    "BR",
    "PC",
    "HA",
    "KM",
    "DT",
    "TM",
    "RE",
    "AB",
    "XNGFWR",
    "XNGFBR",
    "XNGFSZ",
    "XNGFHA",
    "XNGFKM",
    "XNGFDT",
    "XNGFTM",
    "XNGFRE",
    "XNGFUNKNOWN",
];

/// The largest board NGF letters address (`B`..`Z` = 0..24).
const LETTER_SIDE: u8 = 25;
/// The largest board size the reader takes (its moves are read only up to `Z`).
const MAX_SIDE: u8 = 52;
/// The number of moves the two-letter counter can number (`AB` = 1 … `ZZ` = 675).
const MAX_COUNTER: usize = 26 * 26 - 1;

struct Writer<'t> {
    tree: &'t GameTree,
    sink: Vec<Diagnostic>,
}

impl<'t> Writer<'t> {
    fn lossy(&mut self, message: impl Into<String>) {
        self.sink.push(Diagnostic::warning(codes::LOSSY, message));
    }

    fn root(&self, ident: &str) -> Option<&'t str> {
        self.tree.root().value(ident)
    }

    /// A kept raw line (`XNGF…`) made one line; `None` when nothing is left of it, as an empty
    /// line reads back as no line (an oracle finding: a control character written as "", then
    /// as the default).
    fn raw_line(&mut self, key: &str) -> Option<String> {
        let raw = self.root(key)?;
        Some(self.single_line(key, raw)).filter(|c| !c.is_empty())
    }

    fn note(&mut self, message: impl Into<String>) {
        self.sink.push(Diagnostic::info(codes::IMPLIED, message));
    }

    /// One header value on one line: line breaks, NUL and other control characters become
    /// spaces (reported).
    fn single_line(&mut self, what: &str, text: &str) -> String {
        let (clean, broken) = legacy::one_line(text.trim());
        if broken {
            self.lossy(format!("{what}: line breaks or control characters written as spaces: {}", clean.trim()));
        }
        if super::starts_a_move_line(clean.trim()) {
            // Read back, the header would end at this line (a robustness finding: a kept raw
            // result `PMABBQEEQ` came back as a move).
            self.lossy(format!("{what}: {} would read as the first move line; not written", clean.trim()));
            return String::new();
        }
        clean.trim().to_string()
    }

    fn player(&mut self, colour: &str, name_id: &str, rank_id: &str, raw_id: &str) -> String {
        let name = self.root(name_id).map(|n| self.single_line(name_id, n)).unwrap_or_default();
        let sgf_rank = self.root(rank_id);
        let raw = self.root(raw_id);
        let rank = match (sgf_rank, raw) {
            // The rank as the file spelt it, when readers take that spelling (ASCII: `9DP`,
            // `7D*`); `五段` or `7단P` become `5D`, `7DP`.
            (Some(r), Some(raw)) if rank_to_sgf(raw).as_deref().unwrap_or(raw) == r && raw.is_ascii() => {
                self.single_line(raw_id, raw)
            }
            // A rank text in no known form that the reader copied (`6Смир`): written back as the
            // file had it (refusing it made a second write differ from the first).
            (Some(r), Some(raw)) if raw == r && rank_to_sgf(raw).is_none() => self.single_line(raw_id, raw),
            (Some(r), Some(raw)) if rank_to_sgf(raw).as_deref() == Some(r) => {
                let ngf = ngf_rank(r);
                self.sink.push(Diagnostic::info(
                    codes::IMPLIED,
                    format!("rank '{raw}' written as {ngf}, the form every reader takes"),
                ));
                ngf
            }
            (Some(r), _) => match rank_to_sgf(r) {
                Some(sgf) => ngf_rank(&sgf),
                None => {
                    self.lossy(format!("{rank_id}[{r}] is not a rank NGF can hold; not written"));
                    String::new()
                }
            },
            (None, _) => String::new(),
        };
        let rank = if rank.contains(char::is_whitespace) {
            self.lossy(format!("{rank_id} '{rank}': spaces removed (NGF ranks are one word)"));
            rank.split_whitespace().collect()
        } else {
            rank
        };
        let line = player_line(&name, &rank);
        let (n, r) = split_player(&line);
        if n != name || r.unwrap_or("") != rank {
            self.lossy(format!(
                "{colour} player line '{line}' reads back as name '{n}' and rank '{}'",
                r.unwrap_or("")
            ));
            // Written as what it reads back as, so that writing that again gives this line.
            let r = r.map(|r| match rank_to_sgf(r) {
                Some(sgf) if !r.is_ascii() => ngf_rank(&sgf),
                _ => r.to_string(),
            });
            return player_line(n, r.as_deref().unwrap_or(""));
        }
        line
    }
}

/// A player line: the name padded to 11 columns, a space and the rank.
fn player_line(name: &str, rank: &str) -> String {
    match (name.is_empty(), rank.is_empty()) {
        // A space after a rank-less name with spaces: readers that take the last word for the
        // rank (ngf2sgf) then find an empty one. kifu trims it.
        (false, true) if name.contains(' ') => format!("{name} "),
        (_, true) => name.to_string(),
        (true, false) => rank.to_string(),
        (false, false) => {
            let pad = 11usize.saturating_sub(display_width(name));
            format!("{name}{:pad$} {rank}", "")
        }
    }
}

/// The NGF form of an SGF rank: `9p` → `9DP`, `5d*` → `5D*`, `15k` → `15K`; other text unchanged.
fn ngf_rank(sgf: &str) -> String {
    let (core, mark) = match sgf.strip_suffix(['*', '?']) {
        Some(c) => (c, &sgf[c.len()..]),
        None => (sgf, ""),
    };
    let digits = core.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = match &core[digits.len()..] {
        "p" => "DP",
        "d" => "D",
        "k" => "K",
        _ => return sgf.to_string(),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return sgf.to_string();
    }
    format!("{digits}{unit}{mark}")
}

/// Columns a name takes in the fixed-width layout of legacy software: one for ASCII and
/// half-width katakana, two for other characters (Hangul, kanji, kana, full-width forms).
fn display_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() || ('\u{FF61}'..='\u{FF9F}').contains(&c) { 1 } else { 2 }).sum()
}

/// The NGF letter of a 0-based coordinate (`0` → `B`).
fn letter(c: u8) -> char {
    (b'B' + c) as char
}

/// Writes the first game of `collection` as NGF text (LF line ends) and the lossy items.
pub(crate) fn write_text(collection: &Collection) -> Result<(String, Vec<Diagnostic>), WriteError> {
    let Some(tree) = collection.games.first() else {
        return Err(WriteError::Invalid(vec![Diagnostic::error(codes::NO_GAME, "no game to write")]));
    };
    let size = tree.board_size();
    if !size.is_square() || size.width > MAX_SIDE || size.width < 2 {
        return Err(WriteError::Invalid(vec![Diagnostic::error(
            codes::LOSSY,
            format!("NGF holds square boards from 2x2 to {MAX_SIDE}x{MAX_SIDE}, not {}", size.to_sgf()),
        )]));
    }
    if tree.root().value("GM").is_some_and(|g| g.trim() != "1") {
        return Err(WriteError::Invalid(vec![Diagnostic::error(codes::LOSSY, "NGF holds Go games only (GM[1])")]));
    }
    let mut w = Writer { tree, sink: Vec::new() };
    if collection.games.len() > 1 {
        w.lossy(format!("NGF holds one game: games 2 to {} not written", collection.games.len()));
    }
    for p in tree.root().props() {
        if !HELD.contains(&p.ident()) && !matches!(p.ident(), "B" | "W") {
            w.lossy(format!("root property {} not written", p.ident()));
        }
    }

    let mut out = String::new();
    // Every header line is one line, whatever a kept raw value (`XNGFRE`, `XNGFKM`, …) holds.
    let mut broken: Vec<String> = Vec::new();
    let mut line = |s: &str| {
        let (clean, changed) = legacy::one_line(s);
        if changed {
            broken.push(clean.clone());
        }
        out.push_str(&clean);
        out.push('\n');
    };
    // Always a title: KaTrain strips the file before splitting it into lines, so an empty first
    // line would shift the header. `-` stands for none (the reader reads it so).
    let title = w.root("GN").map(|t| w.single_line("GN", t)).filter(|t| !t.is_empty() && t != NO_TITLE);
    if w.root("GN").is_some_and(|t| t.trim() == NO_TITLE) {
        w.lossy(format!("GN[{NO_TITLE}] is the NGF title that stands for none; not written"));
    }
    line(title.as_deref().unwrap_or(NO_TITLE));
    // The raw size line comes back only when the reader will still recognise the file: line 2
    // must read as a number, unless move lines follow (then `19x` is tolerated).
    let has_moves = tree.main_line().any(|n| n.get("B").is_some() || n.get("W").is_some());
    let raw_ok = |raw: &str| {
        raw.trim().parse::<u32>().is_ok() || (has_moves && raw.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    };
    match (w.root("SZ"), w.root("XNGFSZ")) {
        (None, Some(raw)) if raw_ok(raw) => line(raw),
        _ => line(&size.width.to_string()),
    }
    let white = w.player("White", "PW", "WR", "XNGFWR");
    line(&white);
    let black = w.player("Black", "PB", "BR", "XNGFBR");
    line(&black);
    let site = w.root("PC").map(|t| w.single_line("PC", t)).unwrap_or_default();
    line(&site);

    // Handicap: HA, or AB stones in the handicap layout; other setup is lossy.
    // Every AB property of the root: some programs repeat it (`AB[dp]AB[pd]`).
    let ab: Vec<Point> = tree.root().points_of("AB").collect();
    let ha = w.root("HA").and_then(|h| h.trim().parse::<u32>().ok()).filter(|&h| h >= 2);
    let same = |layout: Option<Vec<Point>>| {
        layout.is_some_and(|mut l| {
            let mut a = ab.clone();
            l.sort();
            a.sort();
            a.dedup();
            l == a
        })
    };
    let handicap = match ha {
        Some(h) => {
            if !ab.is_empty() && !same(tygem_layout(size, h)) {
                w.lossy(format!("AB stones are not the handicap-{h} layout NGF implies; written as HA {h} only"));
            }
            h
        }
        None if !ab.is_empty() && same(tygem_layout(size, ab.len() as u32)) => {
            let n = ab.len() as u32;
            if n >= 2 {
                // The file then says handicap n, which reads back as HA[n]: say so.
                w.lossy(format!(
                    "no HA: the {n} AB stones (the handicap-{n} layout) written as handicap {n}, which reads back as HA[{n}]"
                ));
            }
            n
        }
        None => {
            if !ab.is_empty() {
                w.lossy(format!("{} AB setup stones (not a handicap layout) not written", ab.len()));
            }
            0
        }
    };
    let komi = w.root("KM").and_then(|k| k.trim().parse::<f64>().ok()).filter(|k| k.is_finite());
    // A komi beyond ±MAX_KOMI reads back as none: not written (the reader's rule).
    let komi = match komi {
        Some(k) if k.abs() > legacy::MAX_KOMI => {
            w.lossy(format!(
                "KM[{}] is beyond ±{} points, which NGF readers do not take for a komi; not written",
                format_real(k),
                legacy::MAX_KOMI
            ));
            None
        }
        k => k,
    };
    // The kept raw komi text only when the reader keeps it too (`integer_komi` is the rule of
    // both): a text that reads as an integer is the n (+ 0.5 without handicap) form, so `0100404`
    // for KM 100404 would come back as 100404.5 (a robustness proptest finding).
    let raw_komi = w
        .root("XNGFKM")
        .filter(|raw| komi.is_some() && integer_komi(raw).is_none() && raw.trim().parse::<f64>().ok() == komi);
    // An unreadable handicap line (kept raw in XNGFHA) was read as 0.
    // Made one line first; a raw text with nothing left (a control character) reads back as no
    // line, so it is written as 0 (an oracle finding: `\u{1}` written as "", then as "0").
    let zero = if handicap == 0 { w.raw_line("XNGFHA") } else { None }.unwrap_or_else(|| "0".into());
    let raw_km = w.raw_line("XNGFKM");
    let h_line = if handicap == 0 { zero.clone() } else { handicap.to_string() };
    let (handicap_line, komi_line) = match komi {
        _ if raw_komi.is_some() => (h_line, raw_komi.unwrap_or_default().to_string()),
        None if raw_km.is_some() => (h_line, raw_km.unwrap_or_default()),
        // No komi: readers need a number; handicap line 1 with komi 0 is the no-komi form
        // (read as KM[0], which readers take for no komi).
        // An unknown komi cannot stay unknown: NGF has no empty komi line, and 0 reads back as
        // KM[0] (a warning says so).
        None if handicap >= 2 => {
            w.lossy("no KM: NGF cannot leave the komi unknown; written as komi 0 (reads back as KM[0])");
            (h_line, "0".into())
        }
        None => {
            w.lossy(
                "no KM: NGF cannot leave the komi unknown; written as handicap line 1 and komi 0, NGF's \
                 no-komi form (reads back as KM[0])",
            );
            ("1".into(), "0".into())
        }
        Some(k) if handicap >= 2 => {
            if k.fract() != 0.0 {
                w.lossy(format!("komi {} in a handicap game written as the integer {}", format_real(k), k.floor()));
            }
            (handicap.to_string(), format_real(k.floor()))
        }
        Some(k) if (k - 0.5).fract() == 0.0 => (zero, format_real(k - 0.5)),
        // An integer komi without handicap stones: handicap line 1 ("no .5 added").
        Some(k) if k.fract() == 0.0 => {
            if let Some(raw) = w.root("XNGFHA") {
                w.lossy(format!("handicap text '{raw}' replaced by 1 (integer komi {})", format_real(k)));
            }
            ("1".into(), format_real(k))
        }
        Some(k) => {
            let n = (k - 0.5).round();
            w.lossy(format!("komi {} written as {} (NGF komi is n + 0.5)", format_real(k), format_real(n + 0.5)));
            (zero, format_real(n))
        }
    };
    if w.root("KM").is_some_and(|k| k.trim().parse::<f64>().ok().filter(|k| k.is_finite()).is_none()) {
        w.lossy(format!("KM '{}' is not a number; not written", w.root("KM").unwrap_or_default()));
    }
    line(&handicap_line);
    let unknown = w.raw_line("XNGFUNKNOWN").unwrap_or_else(|| "0".into());
    line(&unknown);
    line(&komi_line);

    // Readers take the date from 8 leading digits: the kept raw form only when it has them.
    let eight_digits = |raw: &str| raw.len() >= 8 && raw.as_bytes()[..8].iter().all(u8::is_ascii_digit);
    let date = match (w.root("DT"), w.root("XNGFDT")) {
        (Some(dt), Some(raw)) if parse_date(raw).as_deref() == Some(dt) && eight_digits(raw) => {
            w.single_line("XNGFDT", raw)
        }
        (Some(dt), raw) => match legacy::first_date(dt) {
            Some((d, more)) => {
                let iso = legacy::iso_date(d);
                if more {
                    w.lossy(format!("DT[{dt}] written as its first date {iso}"));
                } else if let Some(raw) = raw.filter(|raw| parse_date(raw).as_deref() == Some(dt)) {
                    w.note(format!(
                        "date '{raw}' written as {}, the form every reader takes",
                        compact_date(&iso).unwrap_or_default()
                    ));
                }
                compact_date(&iso).unwrap_or_default()
            }
            None => {
                w.lossy(format!("DT[{dt}] is not a date; not written (date line {NO_DATE})"));
                NO_DATE.into()
            }
        },
        // A date readers take apart (`2006-9-5`) in the form they all take, as it will be
        // written again once read back; an unreadable date of an NGF input as it came. A kept
        // raw date with nothing in it counts as none: an empty line would read back as no date
        // and be written as NO_DATE the next time (an oracle finding).
        (None, raw) => match raw.and_then(|_| w.raw_line("XNGFDT")) {
            Some(clean) => match parse_date(&clean).and_then(|iso| compact_date(&iso)) {
                Some(compact) if !eight_digits(&clean) => {
                    w.note(format!("date '{clean}' written as {compact}, the form every reader takes"));
                    compact
                }
                _ => clean,
            },
            None => {
                w.note(format!("no DT: date line written as {NO_DATE}, NGF's form for no date"));
                NO_DATE.into()
            }
        },
    };
    line(&date);
    let time = match (
        w.root("TM").map(|t| t.trim().parse::<f64>().ok().filter(|t| t.is_finite() && *t >= 0.0)),
        w.raw_line("XNGFTM"),
    ) {
        (Some(Some(t)), _) => {
            if t % 60.0 != 0.0 {
                w.lossy(format!("TM {} s written as {} whole minutes", format_real(t), (t / 60.0).round()));
            }
            format!("{}", (t / 60.0).round() as u64)
        }
        (Some(None), _) => {
            w.lossy(format!(
                "TM[{}] is not a number of seconds; not written (time 0)",
                w.root("TM").unwrap_or_default()
            ));
            "0".into()
        }
        (None, Some(raw)) => raw,
        (None, None) => "0".into(),
    };
    if time == "0" && w.root("TM").is_some() {
        w.note("TM under 30 seconds: time line 0 reads back as no time limit");
    }
    line(&time);
    let re = w.root("RE");
    let parsed = re.and_then(GameResult::from_sgf);
    let raw_re = w.root("XNGFRE");
    let result = match (re, parsed) {
        // The original text, as long as it still says what RE says.
        (Some(_), Some(r)) => match raw_re.filter(|raw| parse_result(raw) == ParsedResult::Result(r.clone())) {
            Some(raw) => w.single_line("XNGFRE", raw),
            None => english_result(&r),
        },
        (Some(text), None) => {
            w.lossy(format!(
                "RE[{text}] is not an FF[4] result: not written as a result (the result line holds the text)"
            ));
            w.single_line("RE", text)
        }
        // No RE: keep a text that gives none either ("Progressing!", an unreadable result).
        (None, _) => match raw_re.filter(|raw| !matches!(parse_result(raw), ParsedResult::Result(_))) {
            Some(raw) => w.single_line("XNGFRE", raw),
            None => String::new(),
        },
    };
    line(&result);

    // Moves: the main line; everything else is reported.
    let mut moves = String::new();
    let mut count = 0usize;
    let mut counter_wrapped = false;
    let mut id = Some(NodeId::ROOT);
    while let Some(node_id) = id {
        let node = tree.node(node_id);
        let children: Vec<NodeId> = tree.children(node_id).collect();
        for mv in move_of(&mut w, node, size, count) {
            count += 1;
            if count > MAX_COUNTER && !counter_wrapped {
                counter_wrapped = true;
                w.lossy(format!("more than {MAX_COUNTER} moves: the move counter wraps around"));
            }
            let c = count % (MAX_COUNTER + 1);
            let (hi, lo) = ((b'A' + (c / 26) as u8) as char, (b'A' + (c % 26) as u8) as char);
            let _ = writeln!(moves, "PM{hi}{lo}{mv}");
        }
        if !node.is_root() {
            for p in node.props() {
                if !matches!(p.ident(), "B" | "W") {
                    let what = match p.ident() {
                        "C" => "comment".to_string(),
                        id => format!("property {id}"),
                    };
                    w.lossy(format!("move {count}: {what} not written"));
                }
            }
        }
        for extra in children.iter().skip(1) {
            let n = subtree_size(tree, *extra);
            w.lossy(format!("move {count}: variation of {n} node(s) after it not written"));
        }
        id = children.first().copied();
    }
    line(&count.to_string());
    for l in broken {
        w.lossy(format!("header line '{l}': line breaks or control characters written as spaces"));
    }
    out.push_str(&moves);
    Ok((out, w.sink))
}

/// The title line that stands for no title.
const NO_TITLE: &str = "-";
/// The date line that stands for no date (eight digits, which every reader accepts).
const NO_DATE: &str = "00000000";

/// The moves of `node` as NGF letters (`B` + `EEEE`-style): every move property, so a node
/// `B[tt]W[tt]` gives two; a value that is not a move is reported.
fn move_of(w: &mut Writer<'_>, node: Node<'_>, size: BoardSize, before: usize) -> Vec<String> {
    let mut found = Vec::new();
    for (color, value, mv) in legacy::node_moves(node, size) {
        let id = color.as_sgf();
        match mv {
            Some(Move::Pass) => found.push(format!("{id}AAAA")),
            Some(Move::Play(pt)) if pt.is_on(size) && pt.x < LETTER_SIDE && pt.y < LETTER_SIDE => {
                let (x, y) = (letter(pt.x), letter(pt.y));
                found.push(format!("{id}{x}{y}{y}{x}"));
            }
            Some(Move::Play(pt)) if pt.is_on(size) => w.lossy(format!(
                "move {before}: {id}[{value}] is past Z, the last line NGF letters address; not written"
            )),
            _ => w.lossy(format!("move {before}: {id}[{value}] is not a move on the board; not written")),
        }
    }
    found
}

fn subtree_size(tree: &GameTree, id: NodeId) -> usize {
    let mut stack = vec![id];
    let mut n = 0;
    while let Some(x) = stack.pop() {
        n += 1;
        stack.extend(tree.children(x));
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Sink;
    use crate::formats::sgf;
    use pretty_assertions::assert_eq;

    fn sgf_game(text: &str) -> Collection {
        sgf::parse_text(text.to_string(), Sink::new(), false).0
    }

    /// The text and the warnings (the informational notes left out).
    fn write(text: &str) -> (String, Vec<String>) {
        let (out, d) = write_text(&sgf_game(text)).expect("written");
        (out, d.into_iter().filter(|d| d.severity > crate::diag::Severity::Info).map(|d| d.message).collect())
    }

    /// A board the reader takes but letters cannot wholly address (a proptest finding: `GI\n30\n`
    /// read, then refused by the writer): written with its size; a move past `Z` is reported.
    #[test]
    fn boards_past_z_keep_their_size_and_report_moves_they_cannot_address() {
        let (out, d) = write("(;GM[1]SZ[30]KM[6.5];B[ac];W[zz];B[cd])");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].contains("W[zz] is past Z"), "{d:?}");
        let read = crate::formats::Format::NGF.read(out.clone().into_bytes(), &Default::default()).unwrap();
        assert!(!read.diagnostics.iter().any(|d| d.severity > crate::diag::Severity::Info), "{:?}", read.diagnostics);
        let game = &read.collection.games[0];
        assert_eq!(game.board_size(), BoardSize::square(30));
        let moves: Vec<_> = game.main_line().filter_map(|n| n.mv()).collect();
        let kept = sgf_game("(;GM[1]SZ[30];B[ac];B[cd])");
        assert_eq!(moves, kept.games[0].main_line().filter_map(|n| n.mv()).collect::<Vec<_>>());
        assert_eq!(write_text(&read.collection).unwrap().0, out, "a second write is the same");
    }

    #[test]
    fn header_order_white_first_and_moves() {
        let (out, d) = write(
            "(;GM[1]SZ[19]GN[Test]PB[Kim]BR[3d]PW[Lee S.D.]WR[9p]PC[Seoul]KM[6.5]DT[2020-05-01]TM[600]RE[W+R];B[pd];W[];B[dp])",
        );
        assert_eq!(
            out,
            "Test\n19\nLee S.D.    9DP\nKim         3D\nSeoul\n0\n0\n6\n20200501\n10\nWhite wins by resignation!\n3\nPMABBQEEQ\nPMACWAAAA\nPMADBEQQE\n"
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn handicap_and_komi_forms() {
        let (out, d) = write("(;SZ[19]HA[3]AB[pd][dp][dd]KM[0.5];W[pp])");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!((lines[5], lines[7]), ("3", "0"));
        assert_eq!(d.len(), 1, "{d:?}");
        let (out, _) = write("(;SZ[19]AB[pd][dp];W[pp])");
        assert_eq!(out.lines().nth(5), Some("2"));
        let (out, d) = write("(;SZ[19]KM[0];B[pp])");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!((lines[5], lines[7], d.len()), ("1", "0", 0));
        let (_, d) = write("(;SZ[19]AB[aa]KM[6.75];B[pp])");
        assert_eq!(d.len(), 2, "{d:?}");
    }

    #[test]
    fn lossy_items_are_reported_one_by_one() {
        let (_, d) = write("(;SZ[19]KM[6.5]EV[Cup]RU[Japanese];B[pd]C[hi]TR[dd](;W[dp];B[qq])(;W[dd]))(;B[aa])");
        assert_eq!(d.len(), 6, "{d:?}");
        assert!(d[0].contains("games 2 to 2"));
        assert!(d.iter().any(|m| m == "move 1: comment not written"));
        assert!(d.iter().any(|m| m == "move 1: property TR not written"));
        assert!(d.iter().any(|m| m == "move 1: variation of 1 node(s) after it not written"));
        assert!(d.iter().any(|m| m.contains("root property EV")));
    }

    #[test]
    fn no_line_is_left_empty() {
        let (out, d) = write("(;GM[1]SZ[19];B[pd];W[dp]C[a\0b])");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(&lines[..12], ["-", "19", "", "", "", "1", "0", "0", "00000000", "0", "", "2"]);
        // The unknown komi cannot stay unknown in NGF: said so.
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].starts_with("no KM: NGF cannot leave the komi unknown"), "{d:?}");
        assert_eq!(d[1], "move 2: comment not written");
        let back = super::super::parse_text(&out, Sink::new()).0.expect("read");
        let r = back.root();
        assert_eq!((r.value("GN"), r.value("DT"), r.value("TM"), r.value("KM")), (None, None, None, Some("0")));
    }

    #[test]
    fn both_moves_of_a_node_repeated_setup_and_control_characters() {
        let (out, d) = write("(;SZ[19]HA[2]KM[0]AB[dp]AB[pd]PB[a\0b]PW[x\ny];W[pp];B[tt]W[tt])");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!((lines[2], lines[3], lines[5]), ("x y ", "a b ", "2"));
        assert_eq!(&lines[11..], ["3", "PMABWQQQQ", "PMACBAAAA", "PMADWAAAA"]);
        assert!(!out.contains('\0'));
        assert_eq!(d, ["PB: line breaks or control characters written as spaces: a b"]);
    }

    #[test]
    fn ranks_ngf_cannot_hold_are_reported() {
        let (out, d) = write("(;KM[6.5]PB[Master]BR[P]PW[GoFuN]WR[NR]BR[P9段])");
        assert_eq!(out.lines().nth(3), Some("Master"));
        assert_eq!(
            d,
            ["WR[NR] is not a rank NGF can hold; not written", "BR[P] is not a rank NGF can hold; not written"]
        );
        let (out, _) = write("(;PB[Zhao]BR[P9段])");
        assert_eq!(out.lines().nth(3), Some("Zhao        9DP"));
    }

    /// A kept handicap text that is only a control character is written as 0 and stays so.
    #[test]
    fn a_raw_handicap_line_of_control_characters_is_written_as_zero() {
        let (out, d) = write("(;GM[1]SZ[19]KM[6.5]XNGFHA[\u{1}]XNGFUNKNOWN[\u{1}];B[pd])");
        assert_eq!((out.lines().nth(5), out.lines().nth(6)), (Some("0"), Some("0")), "{out}");
        assert!(d.iter().any(|d| d.contains("XNGFHA")), "{d:?}");
        let read = crate::formats::Format::NGF.read(out.clone().into_bytes(), &Default::default()).unwrap();
        assert_eq!(write_text(&read.collection).unwrap().0, out);
        for raw in ["XNGFTM[\u{1}]", "XNGFKM[\u{1}]"] {
            let (out, _) = write(&format!("(;GM[1]SZ[19]{raw};B[pd])"));
            let read = crate::formats::Format::NGF.read(out.clone().into_bytes(), &Default::default()).unwrap();
            assert_eq!(write_text(&read.collection).unwrap().0, out, "{raw}");
        }
    }

    /// A kept raw date with nothing in it and no `DT` (an oracle finding: `XNGFDT[` cut off at the
    /// end of an input) is written as `00000000`, not as an empty line that reads back as no date.
    #[test]
    fn an_empty_raw_date_is_written_as_no_date() {
        for raw in ["XNGFDT[]", "XNGFDT[ ]", "XNGFDT[\u{1}]"] {
            let (out, _) = write(&format!("(;GM[1]SZ[19]{raw};B[pd])"));
            assert_eq!(out.lines().nth(8), Some(NO_DATE), "{raw}: {out}");
            let read = crate::formats::Format::NGF.read(out.clone().into_bytes(), &Default::default()).unwrap();
            assert_eq!(write_text(&read.collection).unwrap().0, out, "{raw}");
        }
    }

    /// A name whose last word reads back as a rank text (an oracle finding: `PW[Иван 6Смир]`)
    /// is written once as it reads back, and a second write gives the same line.
    #[test]
    fn a_name_ending_in_an_unreadable_rank_text_is_stable() {
        let (out, _) = write("(;GM[1]SZ[19]PW[Иван 6Смир]PB[Ана Петрова];B[pd])");
        let read = crate::formats::Format::NGF.read(out.clone().into_bytes(), &Default::default()).unwrap();
        assert_eq!(write_text(&read.collection).unwrap().0, out);
        let (out, _) = write("(;GM[1]SZ[19]PW[Kim]WR[6Смир]XNGFWR[6Смир];B[pd])");
        assert_eq!(out.lines().nth(2), Some("Kim         6Смир"), "{out}");
    }

    #[test]
    fn refuses_what_ngf_cannot_hold() {
        assert!(write_text(&sgf_game("(;SZ[1])")).is_err());
        assert!(write_text(&sgf_game("(;SZ[19:13])")).is_err());
        assert!(write_text(&Collection::default()).is_err());
    }

    #[test]
    fn names_are_padded_by_display_width() {
        let (out, _) = write("(;PW[박민수]WR[7p]PB[ｶﾀ]BR[1k])");
        assert_eq!(out.lines().nth(2), Some("박민수      7DP"));
        assert_eq!(out.lines().nth(3), Some("ｶﾀ          1K"));
    }

    #[test]
    fn unreadable_header_values_round_trip() {
        let text = "t\n19x\nW           1D\nB           1D\ns\nx\n3\nsix\nsoon\nlong\nGame over\n1\nPMABBREER\n";
        let first = super::super::parse_text(text, Sink::new()).0.expect("read");
        let c = Collection::new(vec![first.clone()]);
        let (out, d) = write_text(&c).expect("written");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, text);
        assert_eq!(super::super::parse_text(&out, Sink::new()).0, Some(first));
        let c = Collection::new(vec![super::super::parse_text("t\n19\nW\nB\ns\nx\n0\n7\n", Sink::new()).0.unwrap()]);
        assert_eq!(write_text(&c).unwrap().0.lines().nth(5), Some("x"));
    }

    /// A kept raw komi that reads as an integer is not written back (a proptest finding: KM 100404
    /// with `XNGFKM[0100404]` was written `0100404`, then read as 100404.5; the same with a komi
    /// in range).
    #[test]
    fn a_raw_komi_read_as_an_integer_is_not_kept() {
        let (out, _) = write("(;GM[1]SZ[19]KM[94]XNGFKM[094])");
        assert_eq!(out.lines().nth(5), Some("1"));
        assert_eq!(out.lines().nth(7), Some("94"));
        let back = super::super::parse_text(&out, Sink::new()).0.expect("read");
        assert_eq!(back.root().value("KM"), Some("94"));
        let (out, _) = write("(;GM[1]SZ[19]KM[6.5]XNGFKM[6.50])");
        assert_eq!(out.lines().nth(7), Some("6.50"));
    }

    /// A header value that starts like a move line is not written (a proptest finding: a kept raw
    /// result `PMABBQEEQ` ended the header when read back, and the moves moved by a line).
    #[test]
    fn header_values_that_read_as_moves_are_not_written() {
        let (out, d) = write("(;GM[1]SZ[19]PB[PMAAB]XNGFRE[\u{e}PMABBQEEQ];B[pd];W[dp])");
        let first_move = out.lines().position(super::super::starts_a_move_line);
        assert_eq!(first_move, Some(12), "{out}");
        assert_eq!(d.iter().filter(|m| m.contains("would read as the first move line")).count(), 2, "{d:?}");
        let back = super::super::parse_text(&out, Sink::new()).0.expect("read");
        let moves: Vec<_> = back.main_line().filter_map(|n| n.value("B").or(n.value("W"))).collect();
        assert_eq!(moves, ["pd", "dp"]);
    }

    #[test]
    fn ranks_convert_back() {
        assert_eq!(ngf_rank("9p"), "9DP");
        assert_eq!(ngf_rank("5d*"), "5D*");
        assert_eq!(ngf_rank("15k"), "15K");
        assert_eq!(ngf_rank("amateur"), "amateur");
    }
}
