//! The NGF reader: fixed header lines (or GI-prefixed ones), `PM` move lines and `IDB[n]`
//! comments, into the common model.

use super::codes;
use super::fields::{compact_date, integer_komi, parse_date, rank_to_sgf, split_player};
use super::result::{ParsedResult, parse_result};
use crate::diag::{Diagnostic, Sink};
use crate::formats::legacy;
use crate::go::handicap::tygem_layout;
use crate::model::info::format_real;
use crate::model::{BoardSize, GameTree, NodeId, TreeBuilder};

/// One line of the input: its byte offset in the decoded text and its trimmed text.
#[derive(Clone, Copy, Debug)]
struct Line<'a> {
    offset: usize,
    text: &'a str,
}

/// Header fields, in the order of a standard NGF header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Title,
    Size,
    White,
    Black,
    Site,
    Handicap,
    Unknown,
    Komi,
    Date,
    Time,
    Result,
    Count,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Size => "board size",
            Field::White => "White player",
            Field::Black => "Black player",
            Field::Site => "site",
            Field::Handicap => "handicap",
            Field::Unknown => "unknown (always 0)",
            Field::Komi => "komi",
            Field::Date => "date",
            Field::Time => "main time",
            Field::Result => "result",
            Field::Count => "move count",
        }
    }
}

/// The standard header, one field per line (0-based line numbers).
const STANDARD: [Option<Field>; 12] = [
    Some(Field::Title),
    Some(Field::Size),
    Some(Field::White),
    Some(Field::Black),
    Some(Field::Site),
    Some(Field::Handicap),
    Some(Field::Unknown),
    Some(Field::Komi),
    Some(Field::Date),
    Some(Field::Time),
    Some(Field::Result),
    Some(Field::Count),
];

/// The GI variant's header (after the `GI` prefix); `None` marks lines of unknown meaning.
const GI: [Option<Field>; 11] = [
    Some(Field::Title),
    Some(Field::White),
    Some(Field::Black),
    None,
    None,
    Some(Field::Date),
    Some(Field::Size),
    Some(Field::Handicap),
    None,
    Some(Field::Komi),
    Some(Field::Count),
];

/// Splits the text into lines (LF, CRLF or lone CR), trimming blanks at both ends.
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i <= bytes.len() {
        let end = i == bytes.len();
        if end || bytes[i] == b'\n' || bytes[i] == b'\r' {
            let raw = &text[start..i];
            let lead = raw.len() - raw.trim_start().len();
            out.push(Line { offset: start + lead, text: raw.trim() });
            if !end && bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    while out.last().is_some_and(|l| l.text.is_empty()) {
        out.pop();
    }
    out
}

/// Private properties: the raw NGF text of fields whose SGF value is not an exact rendering.
const PRIVATE_ORDER: [&str; 10] =
    ["XNGFWR", "XNGFBR", "XNGFSZ", "XNGFHA", "XNGFKM", "XNGFDT", "XNGFTM", "XNGFRE", "XNGFUNKNOWN", "XNGFGI"];

struct Reader {
    sink: Sink,
    root: Vec<(&'static str, Vec<String>)>,
    private: Vec<(&'static str, Vec<String>)>,
    size: BoardSize,
    handicap: u32,
    gi: bool,
}

impl Reader {
    fn root(&mut self, ident: &'static str, value: impl Into<String>) {
        self.root.push((ident, vec![value.into()]));
    }

    fn private(&mut self, ident: &'static str, value: impl Into<String>) {
        match self.private.iter_mut().find(|(i, _)| *i == ident) {
            Some((_, v)) => v.push(value.into()),
            None => self.private.push((ident, vec![value.into()])),
        }
    }

    fn bad_value(&mut self, line: Line<'_>, field: Field, ident: &'static str) {
        self.sink.push_at(
            line.offset,
            Diagnostic::warning(
                codes::BAD_HEADER_VALUE,
                format!("{} '{}' is not readable; kept as {ident}", field.name(), line.text),
            ),
        );
        self.private(ident, line.text);
    }

    /// A readable value out of its field's range (`why`): reported, kept as `ident`, no SGF
    /// property.
    fn out_of_range(&mut self, line: Line<'_>, field: Field, ident: &'static str, why: &str) {
        self.sink.push_at(
            line.offset,
            Diagnostic::warning(
                codes::OUT_OF_RANGE,
                format!("{} '{}' is out of range ({why}); not read, kept as {ident}", field.name(), line.text),
            ),
        );
        self.private(ident, line.text);
    }

    fn player(&mut self, line: Line<'_>, name_ident: &'static str, rank_ident: &'static str, raw: &'static str) {
        let (name, rank) = split_player(line.text);
        if !name.is_empty() {
            self.root(name_ident, name);
        }
        if let Some(rank) = rank {
            match rank_to_sgf(rank) {
                Some(r) => self.root(rank_ident, r),
                None => {
                    self.sink.push_at(
                        line.offset + line.text.len() - rank.len(),
                        Diagnostic::info(codes::UNKNOWN_RANK, format!("rank '{rank}' is not in a known form; copied")),
                    );
                    self.root(rank_ident, rank);
                }
            }
            self.private(raw, rank);
        }
    }
}

/// A parsed move line.
enum MoveLine {
    Play { colour: char, x: u8, y: u8 },
    Pass { colour: char },
}

/// Parses text into one game. Returns `None` (with an error diagnostic) when nothing NGF-like is
/// found.
pub(crate) fn parse_text(text: &str, sink: Sink) -> (Option<GameTree>, Vec<crate::diag::Diagnostic>) {
    let text_body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let shift = text.len() - text_body.len();
    let mut all = lines(text_body);
    for l in &mut all {
        l.offset += shift;
    }
    let mut r =
        Reader { sink, root: Vec::new(), private: Vec::new(), size: BoardSize::square(19), handicap: 0, gi: false };
    let first_move = all.iter().position(|l| super::starts_a_move_line(l.text)).unwrap_or(all.len());
    let header = &all[..first_move];
    r.gi = header.len() >= 2 && header.iter().all(|l| l.text.starts_with("GI"));
    let size_ok = |l: Option<&Line<'_>>| l.and_then(|l| l.text.parse::<u32>().ok()).is_some();
    if first_move == all.len() && !r.gi && !size_ok(header.get(1)) {
        let mut sink = r.sink;
        sink.push(Diagnostic::error(codes::NO_GAME, "no NGF header (board size on line 2) and no move lines found"));
        return (None, sink.finish(text));
    }
    if r.gi {
        r.sink.push_at(
            header[0].offset,
            Diagnostic::info(codes::GI_VARIANT, "GI-prefixed NGF variant (Chinese); header read by its own layout"),
        );
    }
    let layout: &[Option<Field>] = if r.gi { &GI } else { &STANDARD };
    let mut fields: Vec<(Field, Line<'_>)> = Vec::new();
    for (i, line) in header.iter().enumerate() {
        let mut line = *line;
        if r.gi {
            line.text = line.text[2..].trim();
            line.offset += 2;
        }
        match layout.get(i) {
            Some(Some(f)) => fields.push((*f, line)),
            Some(None) => {
                if !line.text.is_empty() {
                    r.private("XNGFGI", format!("{}:{}", i + 1, line.text));
                }
            }
            None if line.text.is_empty() => {}
            None => r.sink.push_at(
                line.offset,
                Diagnostic::warning(
                    codes::EXTRA_HEADER_LINE,
                    format!("line after the header and before the moves skipped: '{}'", line.text),
                ),
            ),
        }
    }
    if header.len() < layout.len() {
        let missing: Vec<&str> = layout[header.len()..].iter().flatten().map(|f| f.name()).collect();
        let at = header.last().map_or(0, |l| l.offset);
        r.sink.push_at(
            at,
            Diagnostic::warning(
                codes::SHORT_HEADER,
                format!("the header has {} of {} lines; missing: {}", header.len(), layout.len(), missing.join(", ")),
            ),
        );
    }
    let get = |f: Field| fields.iter().find(|(g, _)| *g == f).map(|(_, l)| *l).filter(|l| !l.text.is_empty());

    // Board size and handicap first: the moves and the komi depend on them.
    if let Some(l) = get(Field::Size) {
        match l.text.parse::<u8>().ok().filter(|n| (2..=52).contains(n)) {
            Some(n) => {
                r.size = BoardSize::square(n);
                r.root("SZ", n.to_string());
            }
            None => r.bad_value(l, Field::Size, "XNGFSZ"),
        }
    } else {
        r.root("SZ", "19");
    }
    if let Some(l) = get(Field::Handicap) {
        match l.text.parse::<u32>() {
            Ok(n) if legacy::handicap_fits(i64::from(n), r.size) => r.handicap = n,
            Ok(_) => r.out_of_range(l, Field::Handicap, "XNGFHA", "more stones than the board has points"),
            Err(_) => r.bad_value(l, Field::Handicap, "XNGFHA"),
        }
    }
    // `-` is the writer's title for none (a file never starts with an empty line).
    if let Some(l) = get(Field::Title).filter(|l| l.text != "-") {
        r.root("GN", l.text);
    }
    if let Some(l) = get(Field::Black) {
        r.player(l, "PB", "BR", "XNGFBR");
    }
    if let Some(l) = get(Field::White) {
        r.player(l, "PW", "WR", "XNGFWR");
    }
    if let Some(l) = get(Field::Site) {
        r.root("PC", l.text);
    }
    // Eight zeros (with or without a time) is the form for no date.
    let no_date = |t: &str| t.split_whitespace().next().is_some_and(|d| d.bytes().all(|b| b == b'0') && d.len() == 8);
    if let Some(l) = get(Field::Date).filter(|l| !no_date(l.text)) {
        match parse_date(l.text) {
            Some(dt) => {
                if compact_date(&dt).as_deref() != Some(l.text) {
                    r.private("XNGFDT", l.text);
                }
                r.root("DT", dt);
            }
            None => r.bad_value(l, Field::Date, "XNGFDT"),
        }
    }
    if let Some(l) = get(Field::Time) {
        match l.text.parse::<u32>() {
            // 0 minutes: no time limit given.
            Ok(0) => {}
            Ok(min) => r.root("TM", (u64::from(min) * 60).to_string()),
            Err(_) => r.bad_value(l, Field::Time, "XNGFTM"),
        }
    }
    if r.handicap >= 2 {
        r.root("HA", r.handicap.to_string());
    }
    if let Some(l) = get(Field::Komi) {
        // Points: the integer form (n + 0.5 in an even game), or a decimal taken as it is. A
        // komi beyond ±MAX_KOMI is none (the same bound the SGF repairs hold a komi to).
        let out_of_range = format!("beyond ±{} points", legacy::MAX_KOMI);
        if let Some(n) = integer_komi(l.text) {
            let km = if r.handicap == 0 { f64::from(n) + 0.5 } else { f64::from(n) };
            if km.abs() <= legacy::MAX_KOMI {
                r.root("KM", format_real(km));
            } else {
                r.out_of_range(l, Field::Komi, "XNGFKM", &out_of_range);
            }
        } else {
            match l.text.parse::<f64>().ok().filter(|k| k.is_finite()) {
                Some(k) if k.abs() <= legacy::MAX_KOMI => {
                    r.root("KM", format_real(k));
                    r.private("XNGFKM", l.text);
                }
                Some(_) => r.out_of_range(l, Field::Komi, "XNGFKM", &out_of_range),
                None => r.bad_value(l, Field::Komi, "XNGFKM"),
            }
        }
    }
    if let Some(l) = get(Field::Result) {
        r.private("XNGFRE", l.text);
        match parse_result(l.text) {
            ParsedResult::Result(res) => r.root("RE", res.to_sgf()),
            ParsedResult::Empty | ParsedResult::InProgress => {}
            ParsedResult::Unknown => r.sink.push_at(
                l.offset,
                Diagnostic::warning(
                    codes::UNKNOWN_RESULT,
                    format!("result '{}' not understood; no RE, the text is kept in XNGFRE", l.text),
                ),
            ),
        }
    }
    if let Some(l) = get(Field::Unknown).filter(|l| l.text != "0") {
        r.private("XNGFUNKNOWN", l.text);
    }
    if r.handicap >= 2 {
        match tygem_layout(r.size, r.handicap) {
            Some(points) => {
                let values: Vec<String> = points.into_iter().filter_map(|p| p.to_sgf()).collect();
                r.root.push(("AB", values));
            }
            None => {
                let at = get(Field::Handicap).map_or(0, |l| l.offset);
                r.sink.push_at(
                    at,
                    Diagnostic::warning(
                        codes::NO_HANDICAP_LAYOUT,
                        format!("no stone layout for handicap {} on this board; HA without AB", r.handicap),
                    ),
                );
            }
        }
    }

    // Moves, comments and trailing lines.
    let mut moves: Vec<(char, Option<(u8, u8)>)> = Vec::new();
    let mut comments: Vec<(usize, Line<'_>, String)> = Vec::new();
    let mut expected_counter = 1u32;
    let mut i = first_move;
    while i < all.len() {
        let line = all[i];
        i += 1;
        let t = line.text;
        if t.is_empty() {
            continue;
        }
        if t.starts_with("PM") {
            if let Some(counter) = t.get(2..4).and_then(counter_value) {
                if counter != expected_counter {
                    r.sink.push_at(
                        line.offset + 2,
                        Diagnostic::info(
                            codes::MOVE_NUMBER,
                            format!("move counter {counter}, expected {expected_counter}; file order kept"),
                        ),
                    );
                }
                expected_counter = counter + 1;
            } else {
                expected_counter = expected_counter.saturating_add(1);
            }
            match parse_move(line, &mut r) {
                Some(MoveLine::Pass { colour }) => moves.push((colour, None)),
                Some(MoveLine::Play { colour, x, y }) => moves.push((colour, Some((x, y)))),
                None => {}
            }
        } else if let Some(rest) = t.strip_prefix("IDB[") {
            let Some((num, body)) = rest.split_once(']') else {
                r.sink.push_at(line.offset, Diagnostic::warning(codes::BAD_COMMENT, "IDB line without ']'; skipped"));
                continue;
            };
            let mut body = body.trim_start().to_string();
            let mut closed = false;
            loop {
                if let Some(k) = body.find("[EndTxt]") {
                    let after = body[k + 8..].trim().to_string();
                    body.truncate(k);
                    closed = true;
                    if !after.is_empty() {
                        r.sink.push_at(
                            line.offset,
                            Diagnostic::warning(codes::SKIPPED_LINE, format!("text after [EndTxt] skipped: '{after}'")),
                        );
                    }
                    break;
                }
                match all.get(i) {
                    Some(next) => {
                        body.push('\n');
                        body.push_str(next.text);
                        i += 1;
                    }
                    None => break,
                }
            }
            if !closed {
                r.sink.push_at(
                    line.offset,
                    Diagnostic::warning(codes::BAD_COMMENT, "comment not closed by [EndTxt]; kept up to the end"),
                );
            }
            match num.trim().parse::<usize>() {
                // A comment of nothing but blanks says nothing (as an empty `C[]`, which SGF's
                // repairs remove): none is made.
                Ok(_) if body.trim_end().is_empty() => {}
                Ok(n) => comments.push((n, line, body.trim_end().to_string())),
                Err(_) => {
                    r.sink.push_at(
                        line.offset,
                        Diagnostic::warning(codes::BAD_COMMENT, format!("IDB move number '{num}' unreadable; skipped")),
                    );
                }
            }
        } else if r.gi && t.starts_with("GI") {
            let v = t[2..].trim();
            if !v.is_empty() {
                // `i` already points past this line: it is the 1-based line number.
                r.private("XNGFGI", format!("{i}:{v}"));
            }
        } else {
            r.sink.push_at(line.offset, Diagnostic::warning(codes::SKIPPED_LINE, format!("line skipped: '{t}'")));
        }
    }
    truncation(text, &all, header.len() < layout.len(), get(Field::Count), moves.len(), &mut r);
    if let Some(l) = get(Field::Count) {
        match l.text.parse::<usize>() {
            Ok(n) if n == moves.len() => {}
            _ => r.sink.push_at(
                l.offset,
                Diagnostic::info(
                    codes::MOVE_COUNT,
                    format!("the header says '{}' moves; the file has {}", l.text, moves.len()),
                ),
            ),
        }
    }
    // The GI variant has no result line: the comment on the last move may state it.
    if r.gi && !r.root.iter().any(|(i, _)| *i == "RE") {
        if let Some((_, line, body)) = comments.iter().rev().find(|(n, _, _)| *n == moves.len() && *n > 0) {
            if let ParsedResult::Result(res) = parse_result(body) {
                r.sink.push_at(
                    line.offset,
                    Diagnostic::info(
                        codes::RESULT_FROM_COMMENT,
                        format!("result {} taken from the comment on the last move", res.to_sgf()),
                    ),
                );
                r.root("RE", res.to_sgf());
            }
        }
    }

    let mut b = TreeBuilder::new();
    let root = b.root();
    b.add_prop(root, "GM", ["1"]);
    for (ident, values) in &r.root {
        b.add_prop(root, ident, values.iter().cloned());
    }
    for ident in PRIVATE_ORDER {
        if let Some((_, values)) = r.private.iter().find(|(i, _)| *i == ident) {
            b.add_prop(root, ident, values.iter().cloned());
        }
    }
    let mut nodes: Vec<NodeId> = vec![root];
    let mut cur = root;
    for (colour, point) in &moves {
        cur = b.add_child(cur);
        let value = point.and_then(|(x, y)| crate::model::Point::new(x, y).to_sgf()).unwrap_or_default();
        b.add_prop(cur, if *colour == 'B' { "B" } else { "W" }, [value]);
        nodes.push(cur);
    }
    let mut texts: Vec<(NodeId, String)> = Vec::new();
    for (n, line, body) in comments {
        let node = match nodes.get(n) {
            Some(&node) => node,
            None => {
                r.sink.push_at(
                    line.offset,
                    Diagnostic::warning(
                        codes::BAD_COMMENT,
                        format!("comment for move {n}, but the game has {} moves; put on the last move", moves.len()),
                    ),
                );
                cur
            }
        };
        match texts.iter_mut().find(|(id, _)| *id == node) {
            Some((_, t)) => {
                t.push_str("\n\n");
                t.push_str(&body);
            }
            None => texts.push((node, body)),
        }
    }
    for (node, body) in texts {
        b.add_prop(node, "C", [body]);
    }
    (Some(b.build()), r.sink.finish(text))
}

fn counter_value(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    match b {
        [a, c] if a.is_ascii_uppercase() && c.is_ascii_uppercase() => {
            Some(u32::from(a - b'A') * 26 + u32::from(c - b'A'))
        }
        _ => None,
    }
}

/// Reports an input cut off (an error at its end, as a truncated SGF is; the moves read are
/// kept): the text stops without a line end inside a move line (`PMAB`), or inside a header
/// that is not complete, or after fewer moves than the header's count.
fn truncation(text: &str, all: &[Line<'_>], short_header: bool, count: Option<Line<'_>>, read: usize, r: &mut Reader) {
    if text.is_empty() || text.ends_with(['\n', '\r']) {
        return;
    }
    let Some(last) = all.iter().rev().find(|l| !l.text.is_empty()) else { return };
    let partial_move = last.text.starts_with("PM") && last.text.len() < 9;
    let fewer = count.and_then(|l| l.text.parse::<usize>().ok()).is_some_and(|n| n > read);
    let last_move = all.iter().rev().find(|l| super::starts_a_move_line(l.text) && l.text.len() >= 9);
    let what = match (partial_move || fewer, short_header) {
        (true, _) => match last_move {
            Some(m) => format!(
                "the input ends inside the moves ({read} read{}); the last move read is '{}'",
                count.map_or(String::new(), |c| format!(" of the {} the header counts", c.text)),
                m.text
            ),
            None => "the input ends inside the moves: no move was read".to_string(),
        },
        (false, true) => "the input ends inside the header: no move was read".to_string(),
        (false, false) => return,
    };
    let kept = if read > 0 { "; the moves read are kept" } else { "" };
    r.sink.push_at(text.len(), Diagnostic::error(codes::TRUNCATED, format!("{what}{kept}")));
}

/// Parses one `PM` line, reporting what is wrong with it; `None` when it is skipped.
fn parse_move(line: Line<'_>, r: &mut Reader) -> Option<MoveLine> {
    let b = line.text.as_bytes();
    let bad = |r: &mut Reader, why: &str| {
        r.sink.push_at(
            line.offset,
            Diagnostic::warning(codes::BAD_MOVE, format!("move line '{}' {why}; skipped", line.text)),
        );
        None
    };
    if b.len() != 9 || !b.is_ascii() {
        return bad(r, "is not PM + 2 counter letters + colour + 4 letters");
    }
    let colour = match b[4] {
        b'B' => 'B',
        b'W' => 'W',
        _ => return bad(r, "has no colour B or W"),
    };
    let c = &b[5..9];
    if !c.iter().all(u8::is_ascii_uppercase) || !b[2..4].iter().all(u8::is_ascii_uppercase) {
        return bad(r, "has characters other than capital letters");
    }
    if c[0] != c[3] || c[1] != c[2] {
        r.sink.push_at(
            line.offset + 5,
            Diagnostic::warning(
                codes::NOT_PALINDROME,
                format!("coordinates '{}' are not of the form x y y x; the first pair was used", &line.text[5..]),
            ),
        );
    }
    if c[0] == b'A' && c[1] == b'A' {
        return Some(MoveLine::Pass { colour });
    }
    let (x, y) = (c[0].wrapping_sub(b'B'), c[1].wrapping_sub(b'B'));
    if c[0] == b'A' || c[1] == b'A' || x >= r.size.width || y >= r.size.height {
        r.sink.push_at(
            line.offset + 5,
            Diagnostic::warning(
                codes::OFF_BOARD,
                format!("move '{}' is off the {}x{} board; skipped", &line.text[5..], r.size.width, r.size.height),
            ),
        );
        return None;
    }
    Some(MoveLine::Play { colour, x, y })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn read(text: &str) -> (GameTree, Vec<Diagnostic>) {
        let (g, d) = parse_text(text, Sink::new());
        (g.expect("a game"), d)
    }

    fn codes_of(d: &[Diagnostic]) -> Vec<&'static str> {
        d.iter().map(|d| d.code).collect()
    }

    const EVEN: &str = "Rated game\n19\nLee S.D.    5D*\nKim 1K\nwww.cyberoro.com\n0\n0\n6\n20100123 [21: 6]\n5\nWhite loses on time\n3\nPMABBREER\nPMACWEEEE\nPMADBAAAA\n";

    #[test]
    fn header_lines_white_first_names_with_spaces() {
        let (g, d) = read(EVEN);
        let info = g.info();
        assert_eq!(info.white.as_deref(), Some("Lee S.D."));
        assert_eq!(info.white_rank.as_deref(), Some("5d*"));
        assert_eq!(info.black.as_deref(), Some("Kim"));
        assert_eq!(info.black_rank.as_deref(), Some("1k"));
        assert_eq!(g.root().value("XNGFWR"), Some("5D*"));
        assert_eq!(g.root().value("XNGFBR"), Some("1K"));
        assert_eq!(info.komi, Some(6.5));
        assert_eq!(info.date.as_deref(), Some("2010-01-23"));
        assert_eq!(g.root().value("XNGFDT"), Some("20100123 [21: 6]"));
        assert_eq!(info.time, Some(300.0));
        assert_eq!(info.result_text.as_deref(), Some("B+T"));
        assert_eq!(info.name.as_deref(), Some("Rated game"));
        assert_eq!(info.place.as_deref(), Some("www.cyberoro.com"));
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn moves_coordinates_and_pass() {
        let (g, _) = read(EVEN);
        let moves: Vec<String> = g.main_line().skip(1).map(|n| format!("{:?}", n.props().next().unwrap())).collect();
        assert_eq!(g.node(NodeId(1)).value("B"), Some("qd"));
        assert_eq!(g.node(NodeId(2)).value("W"), Some("dd"));
        assert_eq!(g.node(NodeId(3)).value("B"), Some(""));
        assert_eq!(moves.len(), 3);
    }

    #[test]
    fn bad_move_lines_are_reported() {
        let text = "t\n19\nA\nB\ns\n0\n0\n6\n20100101\n5\n\n4\nPMABBREER\nPMACWEFEE\nPMADBUUUU\nPMAEXCCCC\n";
        let (g, d) = read(text);
        assert_eq!(codes_of(&d), [codes::NOT_PALINDROME, codes::OFF_BOARD, codes::BAD_MOVE, codes::MOVE_COUNT]);
        assert_eq!(d[0].position.map(|p| (p.line, p.column)), Some((14, 6)));
        assert_eq!(g.main_line_moves(), 2);
        assert_eq!(g.node(NodeId(2)).value("W"), Some("de"));
    }

    #[test]
    fn a_damaged_first_move_still_starts_the_moves() {
        let (g, d) = read("t\n19\nW 1D\nB 1D\ns\n0\n0\n6\n20100101\n5\n\n2\nPMABBREER x\nPMACWEEEE\n");
        assert_eq!(codes_of(&d), [codes::BAD_MOVE, codes::MOVE_COUNT]);
        assert_eq!(g.main_line_moves(), 1);
    }

    #[test]
    fn komi_and_handicap_rules() {
        let head = |h: &str, k: &str| format!("t\n19\nW 1D\nB 1D\ns\n{h}\n0\n{k}\n20100101\n5\n\n0\n");
        let (g, _) = read(&head("0", "7"));
        assert_eq!(g.root().value("KM"), Some("7.5"));
        assert_eq!(g.root().value("HA"), None);
        let (g, _) = read(&head("1", "0"));
        assert_eq!((g.root().value("KM"), g.root().value("HA")), (Some("0"), None));
        let (g, _) = read(&head("3", "0"));
        assert_eq!(g.root().value("KM"), Some("0"));
        assert_eq!(g.root().value("HA"), Some("3"));
        let ab: Vec<&str> = g.root().get("AB").unwrap().values().map(|v| v.as_str()).collect();
        assert_eq!(ab, ["pd", "dp", "dd"]);
        let (g, d) = read(&head("x", "six"));
        assert_eq!(codes_of(&d), [codes::BAD_HEADER_VALUE, codes::BAD_HEADER_VALUE]);
        assert_eq!((g.root().value("XNGFHA"), g.root().value("XNGFKM")), (Some("x"), Some("six")));
        let (g, d) = read(&head("12", "0"));
        assert_eq!(codes_of(&d), [codes::NO_HANDICAP_LAYOUT]);
        assert!(g.root().get("AB").is_none());
    }

    #[test]
    fn unknown_rank_is_copied_with_a_note() {
        let (g, d) = read("t\n19\nAlice 3dan?x\nBob 2K\n");
        assert_eq!(g.root().value("WR"), Some("3dan?x"));
        assert!(codes_of(&d).contains(&codes::UNKNOWN_RANK));
    }

    #[test]
    fn unknown_result_is_kept_raw() {
        let (g, d) = read("t\n19\nW 1D\nB 1D\ns\n0\n0\n6\n20100101\n5\nGame over\n0\n");
        assert_eq!(g.root().value("RE"), None);
        assert_eq!(g.root().value("XNGFRE"), Some("Game over"));
        assert_eq!(codes_of(&d), [codes::UNKNOWN_RESULT]);
        let (g, d) = read("t\n19\nW 1D\nB 1D\ns\n0\n0\n6\n20100101\n5\nProgressing!\n0\n");
        assert_eq!((g.root().value("RE"), d.len()), (None, 0));
    }

    #[test]
    fn short_header_finds_moves_by_prefix() {
        let (g, d) = read("Old game\n19\nW 2D\nB 1D\nsite\n0\n0\n5\nPMABBQEEQ\nPMACWEQQE\n");
        assert_eq!(codes_of(&d), [codes::SHORT_HEADER]);
        assert!(d[0].message.contains("date, main time, result, move count"), "{}", d[0].message);
        assert_eq!(g.main_line_moves(), 2);
        assert_eq!(g.root().value("KM"), Some("5.5"));
    }

    #[test]
    fn gi_variant_and_comments() {
        let text = "GI\u{6bd4}\u{8d5b}\nGI\u{5f20}\u{4e09} \u{521d}\u{6bb5}\nGI\u{674e}\u{56db} \u{4e94}\u{6bb5}\nGI\nGI\nGI2006-9-5\nGI19\nGI0\nGI0\nGI6\nGI2\nPMABBREER\nPMACWEEEE\nGI1\nIDB[2] \u{767d}\u{4e2d}\u{76d8}\u{80dc}\n(live)[EndTxt]\n";
        let (g, d) = read(text);
        assert_eq!(codes_of(&d), [codes::GI_VARIANT, codes::RESULT_FROM_COMMENT]);
        let info = g.info();
        assert_eq!(info.white.as_deref(), Some("\u{5f20}\u{4e09}"));
        assert_eq!(info.white_rank.as_deref(), Some("1d"));
        assert_eq!(info.black_rank.as_deref(), Some("5d"));
        assert_eq!(info.komi, Some(6.5));
        assert_eq!(info.date.as_deref(), Some("2006-09-05"));
        assert_eq!(info.result_text.as_deref(), Some("W+R"));
        assert_eq!(g.node(NodeId(2)).value("C"), Some("\u{767d}\u{4e2d}\u{76d8}\u{80dc}\n(live)"));
        let gi: Vec<&str> = g.root().get("XNGFGI").unwrap().values().map(|v| v.as_str()).collect();
        assert_eq!(gi, ["9:0", "14:1"]);
    }

    #[test]
    fn stray_lines_and_no_game() {
        let (_, d) = read("t\n19\nW 1D\nB 1D\ns\n0\n0\n6\n20100101\n5\n\n1\nextra\nPMABBREER\ngarbage\n");
        assert_eq!(codes_of(&d), [codes::EXTRA_HEADER_LINE, codes::SKIPPED_LINE]);
        let (g, d) = parse_text("hello\nworld\n", Sink::new());
        assert!(g.is_none());
        assert_eq!(codes_of(&d), [codes::NO_GAME]);
        assert!(parse_text("", Sink::new()).0.is_none());
    }
}
