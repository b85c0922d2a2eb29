//! FF\[1\]–FF\[3\] content: properties FF\[4\] renamed or dropped, and values in old forms
//! (`TM[30:00]`, `HA[2.0]`, `PL[1]`). Long mixed-case identifiers (`PlayerBlack`) are already
//! shortened by the SGF reader (`sgf.old-identifier`).

use super::{GameFacts, Prop, Work, codes, keys};
use crate::diag::Severity;
use crate::model::PropValue;

/// FF\[1\]–FF\[3\] properties in kifu's table that FF\[4\] dropped without an equivalent: kept
/// under a private identifier in every file.
const DROPPED: &[&str] = &["BS", "WS", "ID"];

/// Other FF\[1\]–FF\[3\] properties FF\[4\] dropped: kept under a private identifier when the
/// root declares FF\[1\]–FF\[3\] (elsewhere the name may be some program's own). `LT` (FF\[3\]
/// "enforce losing on time") and `TC` (FF\[3\] "territory count") are left out: the Nihon Ki-in
/// and Fox dialects use those names for byo-yomi (see `dialect.rs`, `fox.rs`).
pub(crate) const DROPPED_OLD: &[&str] = &["CH", "EL", "EX", "OM", "OP", "OV", "RG", "SC", "SE", "SI"];

fn dropped(ident: &str, facts: &GameFacts) -> bool {
    DROPPED.contains(&ident) || (facts.old_ff && DROPPED_OLD.contains(&ident))
}

/// Whether `v` is an old or odd form of a `TM`, `BL`, `WL`, `HA`, `PL` or `DT` value.
pub(crate) fn odd_value(ident: &str, v: &str) -> bool {
    match ident {
        // An ISO date is written as it is (or is no date at all).
        "DT" => !is_iso_shape(v) && date_to_iso(v).is_some_and(|(iso, _)| iso != v),
        "TM" | "BL" | "WL" => v.trim().parse::<f64>().is_err(),
        "HA" => v.parse::<u32>().is_err() || v == "0" || v == "1",
        "PL" => !matches!(v, "B" | "W"),
        _ => false,
    }
}

/// `dddd-dd-dd`.
fn is_iso_shape(v: &str) -> bool {
    v.len() == 10 && v.bytes().enumerate().all(|(i, c)| if i == 4 || i == 7 { c == b'-' } else { c.is_ascii_digit() })
}

/// Converts or keeps every FF\[1\]–FF\[3\] property of the node, and rewrites old value forms.
pub(crate) fn repair(w: &mut Work<'_>, facts: &GameFacts) {
    let mut i = 0;
    while i < w.props.len() {
        // Most properties are none of this family's: told from the key alone.
        let candidate = match w.props[i].key {
            keys::DT | keys::TM | keys::BL | keys::WL | keys::HA | keys::PL => true,
            keys::L | keys::M | keys::KI | keys::ID | keys::BS | keys::WS => true,
            _ => facts.old_ff && DROPPED_OLD.contains(&&*w.props[i].ident),
        };
        if !candidate {
            i += 1;
            continue;
        }
        let (id, first) = (&*w.props[i].ident, w.props[i].first());
        let odd = odd_value(id, first);
        // Most properties are none of this family's.
        if !(odd || matches!(id, "L" | "M" | "KI") || dropped(id, facts)) {
            i += 1;
            continue;
        }
        let ident = w.props[i].ident.clone();
        let origin = w.props[i].origin;
        let removed = match &*ident {
            "L" => labels(w, i),
            "M" => rename(w, i, "MA", "marks (FF[3] M) written as MA crosses"),
            "KI" => {
                integer_komi(w, i);
                false
            }
            id if dropped(id, facts) => {
                let new = super::private(id);
                let msg = format!("{id} is an FF[1]-FF[3] property FF[4] has no equivalent for; kept as {new}");
                w.props[i].rename(new);
                w.report(origin, Severity::Info, codes::OLD_PROPERTY_KEPT, msg);
                false
            }
            "TM" | "BL" | "WL" if odd => time(w, i),
            "HA" if odd => handicap(w, i),
            "PL" if odd => player(w, i),
            "DT" if odd => {
                date(w, i);
                false
            }
            _ => false,
        };
        if !removed {
            i += 1;
        }
    }
}

/// Renames property `i` to `to` (merging into an existing `to`); returns whether `i` was removed.
fn rename(w: &mut Work<'_>, i: usize, to: &str, what: &str) -> bool {
    let origin = w.props[i].origin;
    let from = w.props[i].ident.clone();
    let (removed, dropped) = match w.find(to) {
        Some(k) => {
            // One list, in node order, each point (or value) once: merged as a repeated
            // property is, so that reading the result again finds nothing to merge.
            let (first, then) = if k < i { (k, i) } else { (i, k) };
            let (values, dropped) = super::duplicates::union(to, [&w.props[first].values, &w.props[then].values]);
            w.props[k].values = values.into();
            w.props.remove(i);
            (true, dropped)
        }
        None => {
            w.props[i].rename(to.to_string());
            (false, 0)
        }
    };
    let more = if dropped > 0 { format!(" ({dropped} value(s) {to} already had dropped)") } else { String::new() };
    w.report(origin, Severity::Info, codes::OLD_PROPERTY, format!("{from}: {what}{more}"));
    removed
}

/// FF\[3\] `L[aa][bb]` labels its points `a`, `b`, … in order: `LB[aa:a][bb:b]`.
fn labels(w: &mut Work<'_>, i: usize) -> bool {
    let values: Vec<PropValue> =
        w.props[i].values.texts().enumerate().map(|(k, v)| PropValue::composed(v, &label_text(k))).collect();
    w.props[i].values = values.into();
    rename(w, i, "LB", "labels (FF[3] L) written as LB with the letters a, b, c, … in order")
}

fn label_text(k: usize) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    if k < 26 { (letters[k] as char).to_string() } else { format!("{}", k + 1) }
}

/// `KI` held twice the komi as an integer (SGFC converts `KI[13]` to `KM[6.5]`). Dropped when a
/// `KM` is already there.
fn integer_komi(w: &mut Work<'_>, i: usize) {
    let origin = w.props[i].origin;
    let raw = w.props[i].first().to_string();
    let Ok(ki) = raw.trim().parse::<i64>() else {
        let new = super::private("KI");
        w.props[i].rename(new.clone());
        let msg = format!("KI[{raw}] is not an integer komi; kept as {new}");
        w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
        return;
    };
    let km = crate::model::info::format_real(ki as f64 / 2.0);
    if w.find("KM").is_some() {
        let new = super::private("KI");
        w.props[i].rename(new.clone());
        let msg = format!("KI[{raw}] (FF[3] integer komi ×2) beside a KM; kept as {new}");
        w.report(origin, Severity::Info, codes::OLD_PROPERTY_KEPT, msg);
    } else {
        w.props[i] = Prop::with_origin("KM", vec![PropValue::new(km.clone())], origin);
        let msg = format!("KI[{raw}] (FF[3] integer komi ×2) written as KM[{km}]");
        w.report(origin, Severity::Info, codes::OLD_PROPERTY, msg);
    }
}

/// A time in clock or unit form: seconds and what follows (the byo-yomi part).
pub(crate) fn parse_time(raw: &str) -> Option<(f64, &str)> {
    let s = raw.trim();
    let digits = |t: &str| t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    // Clock: H:MM:SS or MM:SS.
    let mut parts = Vec::new();
    let mut rest = s;
    loop {
        let n = digits(rest);
        if n == 0 {
            break;
        }
        parts.push(rest[..n].parse::<f64>().ok()?);
        rest = &rest[n..];
        match rest.strip_prefix(':') {
            Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) && parts.len() < 3 => rest = r,
            _ => break,
        }
    }
    if parts.len() >= 2 {
        let secs = parts.iter().fold(0.0, |acc, p| acc * 60.0 + p);
        return Some((secs, rest.trim()));
    }
    // A number with a unit.
    let n = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let value: f64 = s[..n].parse().ok()?;
    let after = s[n..].trim_start();
    const UNITS: &[(&str, f64)] = &[
        ("hours", 3600.0),
        ("hour", 3600.0),
        ("hrs", 3600.0),
        ("hr", 3600.0),
        ("h", 3600.0),
        ("시간", 3600.0),
        ("時間", 3600.0),
        ("小时", 3600.0),
        ("小時", 3600.0),
        ("minutes", 60.0),
        ("minute", 60.0),
        ("mins", 60.0),
        ("min", 60.0),
        ("m", 60.0),
        ("분", 60.0),
        ("分", 60.0),
        ("seconds", 1.0),
        ("second", 1.0),
        ("secs", 1.0),
        ("sec", 1.0),
        ("s", 1.0),
        ("초", 1.0),
        ("秒", 1.0),
    ];
    let (unit, factor) = UNITS
        .iter()
        .find(|(u, _)| after.starts_with(u) && !after[u.len()..].starts_with(|c: char| c.is_ascii_alphabetic()))?;
    Some((value * factor, after[unit.len()..].trim()))
}

/// `TM`/`BL`/`WL` not in seconds. Returns whether property `i` was removed.
fn time(w: &mut Work<'_>, i: usize) -> bool {
    let ident = w.props[i].ident.clone();
    let origin = w.props[i].origin;
    let raw = w.props[i].first().to_string();
    if raw.trim().is_empty() || raw.trim() == "-" {
        w.props.remove(i);
        w.report(origin, Severity::Info, codes::EMPTY_REMOVED, format!("{ident}[{raw}] holds no time; removed"));
        return true;
    }
    let parsed = parse_time(&raw)
        .filter(|(_, tail)| tail.is_empty() || (ident == "TM" && (tail.starts_with('(') || tail.starts_with('+'))));
    let Some((secs, tail)) = parsed else {
        let new = super::private(&ident);
        w.props[i].rename(new.clone());
        let msg = format!("{ident}[{raw}] is not a time in seconds and has no FF[4] form; kept as {new}");
        w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
        return false;
    };
    let secs_text = crate::model::info::format_real(secs);
    w.props[i].values = vec![PropValue::new(secs_text.clone())].into();
    let overtime = tail.trim_start_matches('+').trim().trim_start_matches('(').trim_end_matches(')').trim();
    let mut msg = format!("{ident}[{raw}] written {ident}[{secs_text}]");
    if !overtime.is_empty() {
        if w.find("OT").is_none() {
            w.props.insert(i + 1, Prop::new("OT", vec![PropValue::new(overtime)]));
            msg.push_str(&format!(" and OT[{overtime}]"));
        } else {
            w.keep_private(&ident, vec![PropValue::new(raw.clone())], i);
            msg.push_str(&format!("; the whole value kept in {}", super::private(&ident)));
        }
    }
    w.report(origin, Severity::Info, codes::OLD_VALUE, msg);
    false
}

/// `HA[2.0]`, `HA[ 3 ]` → integer; `HA[0]` removed; `HA[1]` kept as private (FF\[4\] handicaps
/// start at 2; Fox writes 1 for a game without komi). Returns whether `i` was removed.
fn handicap(w: &mut Work<'_>, i: usize) -> bool {
    let origin = w.props[i].origin;
    let raw = w.props[i].first_text();
    let number = raw.trim().parse::<f64>().ok().filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x < 1000.0);
    match number.map(|x| x as u32) {
        Some(0) => {
            w.props.remove(i);
            let msg = if w.wants(codes::EMPTY_REMOVED) {
                ["HA[", &raw, "] (no handicap) removed"].concat()
            } else {
                String::new()
            };
            w.report(origin, Severity::Info, codes::EMPTY_REMOVED, msg);
            true
        }
        Some(1) => {
            let new = super::private("HA");
            w.props[i].rename(new.clone());
            let msg =
                format!("HA[{raw}] is not an FF[4] handicap (2 or more; Fox writes 1 for no komi); kept as {new}");
            w.report(origin, Severity::Info, codes::VALUE_KEPT, msg);
            false
        }
        Some(n) => {
            w.props[i].values = vec![PropValue::new(n.to_string())].into();
            w.report(origin, Severity::Info, codes::OLD_VALUE, format!("HA[{raw}] written HA[{n}]"));
            false
        }
        None => {
            let new = super::private("HA");
            w.props[i].rename(new.clone());
            let msg = format!("HA[{raw}] is not a number of stones; kept as {new}");
            w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
            false
        }
    }
}

/// `PL[1]`/`PL[2]` (GNU Go regression files), `PL[b]`, `PL[black]` → `B`/`W`; `PL[]` removed.
/// Returns whether `i` was removed.
fn player(w: &mut Work<'_>, i: usize) -> bool {
    let origin = w.props[i].origin;
    let raw = w.props[i].first().to_string();
    let colour = match raw.trim().to_ascii_lowercase().as_str() {
        "1" | "b" | "black" => Some("B"),
        "2" | "w" | "white" => Some("W"),
        "" => None,
        _ => {
            let new = super::private("PL");
            w.props[i].rename(new.clone());
            let msg = format!("PL[{raw}] is not a colour; kept as {new}");
            w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
            return false;
        }
    };
    match colour {
        Some(c) => {
            w.props[i].values = vec![PropValue::new(c)].into();
            w.report(origin, Severity::Info, codes::OLD_VALUE, format!("PL[{raw}] written PL[{c}]"));
            false
        }
        None => {
            w.props.remove(i);
            w.report(origin, Severity::Info, codes::EMPTY_REMOVED, "PL[] names no player; removed".into());
            true
        }
    }
}

/// A date in another order or with a time as FF\[4\]'s ISO form: `2017.08.20 05:42`,
/// `2016/11/23 12:00:00 UT`, `1995-5-3`, `13/5/95` (day first: 13 is no month), `13.05.1995`,
/// `99-7-5` (two-digit years: 50–99 are 19xx, 00–49 20xx), `2017年8月20日`, `August 5, 1995`.
/// Returns the ISO date and whether text was left out (a time). `None` when the order is a guess
/// (`5/3/95`) or the text is no date.
pub(crate) fn date_to_iso(raw: &str) -> Option<(String, bool)> {
    let s = raw.trim();
    if let Some(iso) = month_name_date(s) {
        return Some((iso, false));
    }
    let end = s.find(|c: char| c.is_whitespace() || c == 'T').unwrap_or(s.len());
    let (head, tail) = s.split_at(end);
    let parts: Vec<&str> = head.split(['.', '-', '/', '年', '月', '日']).filter(|p| !p.is_empty()).collect();
    let sep = head.chars().find(|c| !c.is_ascii_digit())?;
    if parts.len() != 3 || parts.iter().any(|p| !p.chars().all(|c| c.is_ascii_digit()) || p.len() > 4) {
        return None;
    }
    let n: Vec<u32> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
    let year = |i: usize| if parts[i].len() == 2 { if n[i] >= 50 { 1900 + n[i] } else { 2000 + n[i] } } else { n[i] };
    let (y, m, d) = if parts[0].len() == 4 || (parts[0].len() == 2 && sep == '-' && parts[2].len() <= 2) {
        (year(0), n[1], n[2])
    } else if parts[2].len() == 4 || parts[2].len() == 2 {
        if n[0] > 12 || (sep == '.' && n[1] <= 12) {
            (year(2), n[1], n[0])
        } else if n[1] > 12 {
            (year(2), n[0], n[1])
        } else {
            return None;
        }
    } else {
        return None;
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1000..=9999).contains(&y) {
        return None;
    }
    let rest = tail.trim().trim_start_matches(',').trim();
    Some((format!("{y:04}-{m:02}-{d:02}"), !rest.is_empty()))
}

/// `August 5, 1995` / `Aug 5 1995`.
fn month_name_date(s: &str) -> Option<String> {
    const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    let mut words = s.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty());
    let month = words.next()?.to_ascii_lowercase();
    let m = MONTHS.iter().position(|p| month.get(..3).is_some_and(|three| p.starts_with(three)))? as u32 + 1;
    let d: u32 = words.next()?.parse().ok().filter(|d| (1..=31).contains(d))?;
    let y: u32 = words.next()?.parse().ok().filter(|y| (1000..=9999).contains(y))?;
    words.next().is_none().then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// `DT` in another order or with a time: the ISO date; a dropped time kept in `XSGFDT`.
pub(super) fn date(w: &mut Work<'_>, i: usize) {
    let origin = w.props[i].origin;
    let raw = w.props[i].first().to_string();
    let Some((iso, dropped)) = date_to_iso(&raw) else { return };
    w.props[i].values = vec![PropValue::new(iso.clone())].into();
    let mut msg = format!("DT[{raw}] written DT[{iso}]");
    if dropped {
        w.keep_private("DT", vec![PropValue::new(raw.clone())], i);
        msg.push_str(&format!("; the whole value kept in {}", super::private("DT")));
    }
    w.report(origin, Severity::Info, codes::OLD_VALUE, msg);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_iso_form() {
        let iso = |s: &str| date_to_iso(s).map(|(d, dropped)| format!("{d}{}", if dropped { "+" } else { "" }));
        assert_eq!(iso("2017.08.20 05:42").as_deref(), Some("2017-08-20+"));
        assert_eq!(iso("2016/11/23 12:00:00 UT").as_deref(), Some("2016-11-23+"));
        assert_eq!(iso("2018-01-29T10:00:00.000000000+08:00").as_deref(), Some("2018-01-29+"));
        assert_eq!(iso("13/5/95").as_deref(), Some("1995-05-13"));
        assert_eq!(iso("13.05.1995").as_deref(), Some("1995-05-13"));
        assert_eq!(iso("99-7-5").as_deref(), Some("1999-07-05"));
        assert_eq!(iso("2017年8月20日").as_deref(), Some("2017-08-20"));
        assert_eq!(iso("August 5, 1995").as_deref(), Some("1995-08-05"));
        assert_eq!(iso("2024-03-09").as_deref(), Some("2024-03-09"));
        assert_eq!(iso("5/3/95"), None);
        assert_eq!(iso("1996-05-06,07"), None);
        assert_eq!(iso("soon"), None);
        assert_eq!(iso("/=¼\u{feff}{{:"), None);
        assert_eq!(iso("¼¼¼ 5, 1995"), None);
    }

    #[test]
    fn times_parse() {
        assert_eq!(parse_time("30:00"), Some((1800.0, "")));
        assert_eq!(parse_time("1:30:00(5x1:00)"), Some((5400.0, "(5x1:00)")));
        assert_eq!(parse_time("60 minutes + 5 minutes / 30 stones"), Some((3600.0, "+ 5 minutes / 30 stones")));
        assert_eq!(parse_time("1시간"), Some((3600.0, "")));
        assert_eq!(parse_time("abc"), None);
        assert_eq!(parse_time("5,5,5,5"), None);
    }
}
