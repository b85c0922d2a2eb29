//! The structured GIB header values shared by the reader and the writer: the comma-separated
//! `KEY:VALUE` lists of `GAMEINFOMAIN`, `GAMEINFOSUB` and `*USERINFO`, the compact `GAMETAG`,
//! player names with ranks, Tygem's numeric levels, and dates.

/// One sub-field of a composite header value. `raw` is the text exactly as found (TABs and
/// all), so a kept sub-field is written back unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    /// The sub-key (`GRLT`, `C`, `I`, …).
    pub key: String,
    /// The sub-value (`255`, `2020:06:29:16:02`, …).
    pub value: String,
    /// The whole token as found (`\t\tC2020:06:29:16:02`).
    pub raw: String,
}

/// Splits a `KEY:VALUE,KEY:VALUE` list (`GAMEINFOMAIN`, `GAMEINFOSUB`, `*USERINFO`). Each pair
/// splits at its first `:` only (a Chinese `GTIME:每方限时: 无` keeps its second `:`); a piece
/// without `:` belongs to the previous value (a comma inside a comment).
pub(crate) fn split_pairs(value: &str) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    if value.trim().is_empty() {
        return out;
    }
    for piece in value.split(',') {
        let t = piece.trim_start();
        match t.split_once(':') {
            Some((k, v)) if is_key(k) => {
                out.push(Field { key: k.to_string(), value: v.to_string(), raw: piece.to_string() })
            }
            _ => match out.last_mut() {
                Some(last) => {
                    last.value.push(',');
                    last.value.push_str(piece);
                    last.raw.push(',');
                    last.raw.push_str(piece);
                }
                None => out.push(Field { key: String::new(), value: piece.to_string(), raw: piece.to_string() }),
            },
        }
    }
    out
}

fn is_key(k: &str) -> bool {
    !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Splits a `GAMETAG` value. The numeric tokens (`S0`, `R3`, `W255`, `T30-3-600`,
/// `C2020:06:29:16:02`) are a letter and a value; from the first `I:` on, tokens are `X:value`
/// and a piece that is not one belongs to the previous value. Reading numeric tokens only up to
/// `I:` means a name such as `W12,` can never pass for a result code.
pub(crate) fn split_tag(value: &str) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    let mut named = false;
    if value.trim().is_empty() {
        return out;
    }
    for piece in value.split(',') {
        let t = piece.trim_start();
        let bytes = t.as_bytes();
        let is_named = bytes.len() >= 2 && bytes[0].is_ascii_uppercase() && bytes[1] == b':';
        if is_named && (named || t.starts_with("I:")) {
            named = true;
            out.push(Field { key: t[..1].to_string(), value: t[2..].to_string(), raw: piece.to_string() });
        } else if !named && bytes.first().is_some_and(u8::is_ascii_uppercase) {
            out.push(Field { key: t[..1].to_string(), value: t[1..].to_string(), raw: piece.to_string() });
        } else if let Some(last) = out.last_mut() {
            last.value.push(',');
            last.value.push_str(piece);
            last.raw.push(',');
            last.raw.push_str(piece);
        } else {
            out.push(Field { key: String::new(), value: piece.to_string(), raw: piece.to_string() });
        }
    }
    out
}

/// The value of sub-key `key` in `fields`.
pub(crate) fn get<'a>(fields: &'a [Field], key: &str) -> Option<&'a str> {
    fields.iter().find(|f| f.key == key).map(|f| f.value.as_str())
}

/// An integer sub-value (`65`, ` 5`).
pub(crate) fn int(s: Option<&str>) -> Option<i64> {
    s.and_then(|s| s.trim().parse().ok())
}

/// Splits `name (rank)` at the last `(` when a `)` ends the value and the part between is a
/// rank; the space before `(` is optional and the name may contain spaces. Returns the trimmed
/// name and the normalised rank (`4D` → `4d`, `3段` → `3d`, `1급` → `1k`).
pub(crate) fn split_name(value: &str) -> (String, Option<String>) {
    let v = value.trim();
    if let Some(inner) = v.strip_suffix(')') {
        if let Some(open) = inner.rfind('(') {
            if let Some(rank) = crate::model::info::normalize_rank(&inner[open + 1..]) {
                return (inner[..open].trim().to_string(), Some(rank));
            }
        }
    }
    (v.to_string(), None)
}

/// Tygem's numeric level as an SGF rank: ≤ 17 → (18 − l) kyu, 18–26 → (l − 17) dan, ≥ 27 →
/// (l − 26) pro. `None` for levels below 1.
pub(crate) fn level_to_rank(level: i64) -> Option<String> {
    match level {
        1..=17 => Some(format!("{}k", 18 - level)),
        18..=26 => Some(format!("{}d", level - 17)),
        27..=60 => Some(format!("{}p", level - 26)),
        _ => None,
    }
}

/// An SGF rank (`4d`, `15k`, `9p`, marks ignored) as Tygem's numeric level.
pub(crate) fn rank_to_level(rank: &str) -> Option<i64> {
    let r = crate::model::info::normalize_rank(rank)?;
    let r = r.trim_end_matches(['*', '?']);
    let n: i64 = r[..r.len() - 1].parse().ok()?;
    match r.as_bytes().last()? {
        b'k' => Some((18 - n).max(1)),
        b'd' => Some(17 + n),
        b'p' => Some(26 + n),
        _ => None,
    }
}

/// An SGF rank in Tygem's display form (`4d` → `4D`, `15k` → `15K`, `9p` → `9P`), marks dropped.
pub(crate) fn rank_display(rank: &str) -> String {
    match crate::model::info::normalize_rank(rank) {
        Some(r) => r.trim_end_matches(['*', '?']).to_uppercase(),
        None => rank.trim().to_string(),
    }
}

/// A calendar date.
pub(crate) type Date = (u32, u32, u32);

/// Reads the date from any GIB date form: GAMETAG `C2020:06:29:16:02`, GDATE and GAMEDATE
/// `2020- 6-29-16- 2-21` (space-padded), and the localised `2012年11月22日 下午 6:3`.
pub(crate) fn parse_date(s: &str) -> Option<Date> {
    let nums: Vec<u32> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(3)
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    match nums.as_slice() {
        &[y, m, d] if (1900..=2999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d) => Some((y, m, d)),
        _ => None,
    }
}

/// The date of a GIB date value that holds nothing more (no time of day, or `00:00:00`).
pub(crate) fn only_date(s: &str) -> Option<Date> {
    let date = parse_date(s)?;
    let rest_zero =
        s.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).skip(3).all(|p| p.bytes().all(|b| b == b'0'));
    rest_zero.then_some(date)
}

/// The date at the start of an SGF `DT` value (`2020-06-29`, also `2020-06-29,30`).
pub(crate) fn parse_sgf_date(dt: &str) -> Option<Date> {
    let head = dt.trim().get(..10)?;
    let b = head.as_bytes();
    if b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    parse_date(head)
}

/// `YYYY-MM-DD`.
pub(crate) fn sgf_date((y, m, d): Date) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_split_at_the_first_colon() {
        let f = split_pairs("GBKIND:5,GTIME:每方限时: 无,GRLT:1");
        assert_eq!(get(&f, "GTIME"), Some("每方限时: 无"));
        assert_eq!(int(get(&f, "GRLT")), Some(1));
        let f = split_pairs("GCMT:a, b,GX:1");
        assert_eq!(get(&f, "GCMT"), Some("a, b"));
        assert_eq!(f[0].raw, "GCMT:a, b");
    }

    #[test]
    fn tag_reads_numeric_tokens_then_names() {
        let f = split_tag("S0,R0,W4,Z0,T30-3-600,\t\tC2020:06:29:16:02,\t\tI:W12,L:18,M:x,y,N:18");
        assert_eq!(get(&f, "W"), Some("4"));
        assert_eq!(get(&f, "T"), Some("30-3-600"));
        assert_eq!(get(&f, "C"), Some("2020:06:29:16:02"));
        assert_eq!(get(&f, "I"), Some("W12"));
        assert_eq!(get(&f, "M"), Some("x,y"));
        assert_eq!(f.iter().find(|t| t.key == "C").unwrap().raw, "\t\tC2020:06:29:16:02");
    }

    #[test]
    fn names_split_at_the_last_parenthesis() {
        assert_eq!(split_name("Menskit (4D)"), ("Menskit".into(), Some("4d".into())));
        assert_eq!(split_name("harpmaster(3段)"), ("harpmaster".into(), Some("3d".into())));
        assert_eq!(split_name("Silver Star (8K)"), ("Silver Star".into(), Some("8k".into())));
        assert_eq!(split_name("dongjik (1급)"), ("dongjik".into(), Some("1k".into())));
        assert_eq!(split_name("a (b) (2D)"), ("a (b)".into(), Some("2d".into())));
        assert_eq!(split_name("team (red)"), ("team (red)".into(), None));
    }

    #[test]
    fn levels_and_ranks() {
        for (l, r) in [(3, "15k"), (17, "1k"), (18, "1d"), (21, "4d"), (25, "8d"), (27, "1p")] {
            assert_eq!(level_to_rank(l).as_deref(), Some(r));
            assert_eq!(rank_to_level(r), Some(l));
        }
        assert_eq!(level_to_rank(0), None);
        assert_eq!(rank_display("4d"), "4D");
    }

    #[test]
    fn dates_in_every_form() {
        assert_eq!(parse_date("2020- 6-29-16- 2-21"), Some((2020, 6, 29)));
        assert_eq!(parse_date("2020:06:29:16:02"), Some((2020, 6, 29)));
        assert_eq!(parse_date("2012年11月22日 下午 6:3"), Some((2012, 11, 22)));
        assert_eq!(parse_date("总: 268数"), None);
        assert_eq!(only_date("2020- 6-29- 0- 0- 0"), Some((2020, 6, 29)));
        assert_eq!(only_date("C2020:06:29"), Some((2020, 6, 29)));
        assert_eq!(only_date("2020- 6-29-16- 2-21"), None);
        assert_eq!(parse_sgf_date("2016-03-26"), Some((2016, 3, 26)));
        assert_eq!(sgf_date((2016, 3, 6)), "2016-03-06");
    }
}
