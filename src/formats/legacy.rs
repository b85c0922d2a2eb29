//! What the line-based legacy writers (GIB, NGF, UGF) share: values made safe for one line,
//! ranks in every spelling, the first date of a `DT`, and the moves of a node.

use crate::model::info::normalize_rank;
use crate::model::{BoardSize, Color, Move, Node};

/// The largest komi, in points either way, that kifu takes for one: a value beyond it is a komi
/// in another unit (Fox's ×100, which the SGF repairs read) or no komi at all. The line-based
/// readers do not take such a value as a komi (they report it and keep its text) and their
/// writers do not write one, so that every format reads one number as the same komi.
pub(crate) const MAX_KOMI: f64 = 100.0;

/// A handicap larger than the board has points is no handicap: the line-based readers report
/// such a count and keep its text.
pub(crate) fn handicap_fits(count: i64, size: BoardSize) -> bool {
    (0..=i64::from(size.width) * i64::from(size.height)).contains(&count)
}

/// `text` made fit for one line of a line-based file: line breaks, NUL and the other control
/// characters become spaces (runs of them one space). The flag says whether anything changed.
pub(crate) fn one_line(text: &str) -> (String, bool) {
    if !text.chars().any(is_breaking) {
        return (text.to_string(), false);
    }
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if is_breaking(c) {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() {
            out.push(' ');
        }
        gap = false;
        out.push(c);
    }
    (out, true)
}

/// Characters a line-based format cannot hold inside a value (TAB is kept: GIB's `GAMETAG`
/// has them).
fn is_breaking(c: char) -> bool {
    c.is_control() && c != '\t' || c == '\u{2028}' || c == '\u{2029}' || c == '\u{85}'
}

/// A rank in any spelling kifu meets (`4D`, `4d`, `3段`, `1급`, `9DP`, `P9`, `P9段`, `9단P`,
/// `九段`, `初段`, `十五級`, `7d*`) as its SGF form (`4d`, `9p`, `7d*`); `None` when the text is
/// not a rank.
pub(crate) fn rank_to_sgf(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let mut chars = raw.char_indices().peekable();
    let digit = |c: char| "一二三四五六七八九".find(c).map(|i| i as u32 / 3 + 1);
    let mut value: Option<u32> = None;
    let mut rest_at = 0;
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '初' | '초' if value.is_none() => value = Some(1),
            '十' => value = Some(value.unwrap_or(1).saturating_mul(10)),
            c if digit(c).is_some() => value = Some(value.unwrap_or(0).saturating_add(digit(c).unwrap_or(0))),
            _ => {
                rest_at = i;
                break;
            }
        }
        chars.next();
        rest_at = i + c.len_utf8();
    }
    match value {
        Some(n) => normalize_rank(&format!("{n}{}", &raw[rest_at..])),
        None => normalize_rank(raw),
    }
}

/// A rank as a writer that has no certainty marks holds it: the SGF form without `*`/`?`, and
/// the mark that was dropped (empty when none).
pub(crate) fn rank_without_mark(sgf: &str) -> (&str, &str) {
    match sgf.strip_suffix(['*', '?']) {
        Some(core) => (core, &sgf[core.len()..]),
        None => (sgf, ""),
    }
}

/// A calendar date.
pub(crate) type Date = (u32, u32, u32);

/// The first date of a `DT` value in the forms SGF files use (`2020-06-29`, `2020-6-9`,
/// `2018.04.28`, `2018/04/28`, `2017.08.20 05:42`, `20170820`, `2020-06-29,30`); `None` when
/// it starts with no date. The flag says whether the value holds more than that date.
pub(crate) fn first_date(dt: &str) -> Option<(Date, bool)> {
    let t = dt.trim();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let head_len = t.find([',', ' ', 'T']).unwrap_or(t.len());
    let head = &t[..head_len];
    let (y, m, d) = if head.len() == 8 && digits(head) {
        (&head[..4], &head[4..6], &head[6..])
    } else {
        let mut parts = head.split(['-', '.', '/']);
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || y.len() != 4 || m.len() > 2 || d.len() > 2 {
            return None;
        }
        (y, m, d)
    };
    if !(digits(y) && digits(m) && digits(d)) {
        return None;
    }
    let (y, m, d) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let ok = (1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d);
    ok.then_some(((y, m, d), head_len < t.len()))
}

/// `YYYY-MM-DD`.
pub(crate) fn iso_date((y, m, d): Date) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

/// Every move property (`B`, `W`) of `node` in property order, with its value: a node
/// `B[tt]W[tt]` holds two moves. `None` for a value that is not a move on `size`.
pub(crate) fn node_moves<'a>(node: Node<'a>, size: BoardSize) -> Vec<(Color, &'a str, Option<Move>)> {
    node.props()
        .filter_map(|p| {
            let color = match p.ident() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => return None,
            };
            let value = p.first().unwrap_or("");
            Some((color, value, Move::from_sgf(value, size)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_replaces_breaks_and_nul() {
        assert_eq!(one_line("a\r\nb\nc"), ("a b c".to_string(), true));
        assert_eq!(one_line("x\0y"), ("x y".to_string(), true));
        assert_eq!(one_line("\nlead"), ("lead".to_string(), true));
        assert_eq!(one_line("tab\tkept"), ("tab\tkept".to_string(), false));
    }

    #[test]
    fn ranks_in_every_spelling() {
        for (raw, want) in [
            ("P9", "9p"),
            ("P9段", "9p"),
            ("9p", "9p"),
            ("九段", "9d"),
            ("9단", "9d"),
            ("9DP", "9p"),
            ("7d*", "7d*"),
            ("初段", "1d"),
            ("十五級", "15k"),
            ("4D", "4d"),
        ] {
            assert_eq!(rank_to_sgf(raw).as_deref(), Some(want), "{raw}");
        }
        for raw in ["NR", "11k+", "P", "-", "lev15", "v2.6.8.2", "3.5.3"] {
            assert_eq!(rank_to_sgf(raw), None, "{raw}");
        }
        assert_eq!(rank_without_mark("7d*"), ("7d", "*"));
        assert_eq!(rank_without_mark("2k"), ("2k", ""));
    }

    #[test]
    fn first_dates() {
        assert_eq!(first_date("2020-06-29"), Some(((2020, 6, 29), false)));
        assert_eq!(first_date("2018.04.28"), Some(((2018, 4, 28), false)));
        assert_eq!(first_date("2017.08.20 05:42"), Some(((2017, 8, 20), true)));
        assert_eq!(first_date("2006-9-5"), Some(((2006, 9, 5), false)));
        assert_eq!(first_date("2020-06-29,30"), Some(((2020, 6, 29), true)));
        assert_eq!(first_date("20170316"), Some(((2017, 3, 16), false)));
        assert_eq!(first_date("13/5/95"), None);
        assert_eq!(first_date("2020-13-01"), None);
        assert_eq!(first_date(""), None);
    }
}
