//! Header field values: player lines (name and rank), ranks, dates and the komi line.

/// Splits a player line into the name and the rank (the last token, when it looks like a rank).
/// Names may contain spaces and dots (`Lee S.D. 5D*`).
pub(crate) fn split_player(text: &str) -> (&str, Option<&str>) {
    let text = text.trim();
    match text.rfind(char::is_whitespace) {
        Some(i) => {
            let last = text[i..].trim_start();
            if looks_like_rank(last) { (text[..i].trim_end(), Some(last)) } else { (text, None) }
        }
        None if rank_to_sgf(text).is_some() => ("", Some(text)),
        None => (text, None),
    }
}

/// A rank starts with its number (`10k`, `9DP`, `五段`, `초단`) and holds nothing but letters,
/// digits and `*?+-`, so the last word of a rank-less name (`GnuGo 3.5.3`, `Dariush v2.6.8.2`,
/// `lev15`, `(random seed 5)`) is not taken for one.
fn looks_like_rank(token: &str) -> bool {
    token.chars().count() <= 8
        && token.chars().all(|c| c.is_alphanumeric() || matches!(c, '*' | '?' | '+' | '-'))
        && token.starts_with(|c: char| c.is_ascii_digit() || "初一二三四五六七八九十초".contains(c))
}

/// Normalises an NGF rank for SGF: `9DP`/`7단P`/`5段P` → `9p`, `5K` → `5k`, `5D*` → `5d*`,
/// `初段` → `1d`, `五段` → `5d`, `초단` → `1d`. `None` when it is not a recognisable rank.
pub(crate) use crate::formats::legacy::rank_to_sgf;

/// Reads an NGF date line: `YYYYMMDD [hh:mm]`, `YYYY-MM-DD` or `YYYY-M-D` (also with `/` or
/// `.`), giving the SGF `YYYY-MM-DD`.
pub(crate) fn parse_date(text: &str) -> Option<String> {
    let first = text.split_whitespace().next()?;
    let (y, m, d): (u32, u32, u32) = if first.len() == 8 && first.bytes().all(|b| b.is_ascii_digit()) {
        (first[..4].parse().ok()?, first[4..6].parse().ok()?, first[6..].parse().ok()?)
    } else {
        let mut parts = first.split(['-', '/', '.']);
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || y.len() != 4 || m.len() > 2 || d.len() > 2 {
            return None;
        }
        let num = |s: &str| s.parse::<u32>().ok().filter(|_| s.bytes().all(|b| b.is_ascii_digit()));
        (num(y)?, num(m)?, num(d)?)
    };
    ((1..=12).contains(&m) && (1..=31).contains(&d) && y >= 1000).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// The compact date form the writer produces (`YYYYMMDD`) for an SGF date `YYYY-MM-DD`.
pub(crate) fn compact_date(dt: &str) -> Option<String> {
    let b = dt.as_bytes();
    (b.len() == 10 && b[4] == b'-' && b[7] == b'-').then(|| format!("{}{}{}", &dt[..4], &dt[5..7], &dt[8..]))
}

/// The komi line in NGF's own form, an integer `n` (komi `n + 0.5` without handicap, `n` with
/// one). `None` for any other text, which the reader keeps raw in `XNGFKM` and the writer may
/// write back; one rule for both, so a kept text never reads back as a different komi.
pub(crate) fn integer_komi(text: &str) -> Option<i32> {
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn dates() {
        for (raw, want) in [
            ("20170316 [09:37]", "2017-03-16"),
            ("20100123 [21: 6]", "2010-01-23"),
            ("20100404", "2010-04-04"),
            ("2009-03-25", "2009-03-25"),
            ("2006-9-5", "2006-09-05"),
        ] {
            assert_eq!(parse_date(raw).as_deref(), Some(want), "{raw}");
        }
        assert_eq!(parse_date("2010-13-01"), None);
        assert_eq!(parse_date("yesterday"), None);
    }

    #[test]
    fn ranks() {
        for (raw, want) in [
            ("9DP", "9p"),
            ("7단P", "7p"),
            ("5段P", "5p"),
            ("5K", "5k"),
            ("7D*", "7d*"),
            ("21K*", "21k*"),
            ("5단*", "5d*"),
            ("初段", "1d"),
            ("五段", "5d"),
            ("九段", "9d"),
            ("초단", "1d"),
            ("十五級", "15k"),
        ] {
            assert_eq!(rank_to_sgf(raw).as_deref(), Some(want), "{raw}");
        }
        assert_eq!(split_player("Lee S.D. 5D*"), ("Lee S.D.", Some("5D*")));
        assert_eq!(split_player("user 1 1 10k"), ("user 1 1", Some("10k")));
        assert_eq!(split_player("Kobayashi."), ("Kobayashi.", None));
        assert_eq!(split_player("Lin H.C"), ("Lin H.C", None));
        assert_eq!(split_player("9DP"), ("", Some("9DP")));
        assert_eq!(split_player("GnuGo 3.5.3"), ("GnuGo 3.5.3", None));
        assert_eq!(split_player("Dariush v2.6.8.2"), ("Dariush v2.6.8.2", None));
        assert_eq!(split_player("GnuGo v3.2 lev15"), ("GnuGo v3.2 lev15", None));
        assert_eq!(split_player("박민수      초단"), ("박민수", Some("초단")));
    }

    #[test]
    fn only_an_integer_is_the_komi_lines_own_form() {
        let cases = ["6", " 0100404 ", "-3", "6.5", "six", "", "3e2"];
        let got: Vec<_> = cases.iter().map(|t| integer_komi(t)).collect();
        assert_eq!(got, [Some(6), Some(100_404), Some(-3), None, None, None, None]);
    }
}
