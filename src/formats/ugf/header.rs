//! `[Header]` keys: how each maps to SGF game information and back. The reader derives SGF
//! values from a raw line; the writer renders a fresh line from SGF values. Both directions live
//! here so a raw line is kept (in `XUGFHEADER`) exactly when the writer could not rebuild it.

use crate::model::Color;
use crate::model::info::{GameResult, WinKind, format_real, normalize_rank};

/// Header keys that map to SGF properties, in the order the writer emits them, with the SGF
/// properties each one feeds (in the order [`derive`] returns them).
pub(super) const MAPPED: &[(&str, &[&str])] = &[
    ("Title", &["EV"]),
    ("Place", &["PC"]),
    ("Date", &["DT"]),
    ("Rule", &["RU"]),
    ("Size", &["SZ"]),
    ("Hdcp", &["HA", "KM"]),
    ("Ptime", &["TM"]),
    ("Winner", &["RE"]),
    ("Writer", &["US"]),
    ("Copyright", &["CP"]),
    ("Comment", &["GC"]),
    ("Commentator", &["AN"]),
    ("PlayerB", &["PB", "BR", "BT"]),
    ("PlayerW", &["PW", "WR", "WT"]),
];

/// Keys the writer decides itself (never kept): charset, encryption, orientation, move count.
pub(super) const WRITER_OWNED: &[&str] = &["Lang", "Crypt", "CoordinateType", "Moves"];

/// The canonical spelling of a mapped key, compared case-insensitively.
pub(super) fn mapped_key(key: &str) -> Option<&'static str> {
    MAPPED.iter().map(|(k, _)| *k).find(|k| k.eq_ignore_ascii_case(key))
}

/// Whether the writer owns `key`.
pub(super) fn writer_owned(key: &str) -> bool {
    WRITER_OWNED.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// Pair-go partner keys (`PlayerB2`, `PlayerW3`, …): the colour.
pub(super) fn partner_key(key: &str) -> Option<Color> {
    let rest = key.get(6..)?;
    if !key.get(..6)?.eq_ignore_ascii_case("Player") || rest.len() < 2 {
        return None;
    }
    let colour = match rest.as_bytes().first()? {
        b'B' | b'b' => Color::Black,
        b'W' | b'w' => Color::White,
        _ => return None,
    };
    rest[1..].bytes().all(|c| c.is_ascii_digit()).then_some(colour)
}

fn nonempty(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// The SGF values (property, value) a mapped header line stands for. `Err` names what could not
/// be parsed.
pub(super) fn derive(key: &str, value: &str) -> Result<Vec<(&'static str, String)>, String> {
    let mut out = Vec::new();
    let v = value.trim();
    match key {
        "Title" => {
            let parts: Vec<&str> = v.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
            if !parts.is_empty() {
                out.push(("EV", parts.join(" ")));
            }
        }
        "Place" => out.extend(nonempty(v).map(|s| ("PC", s))),
        "Rule" => out.extend(nonempty(v).map(|s| ("RU", s))),
        "Writer" => out.extend(nonempty(v).map(|s| ("US", s))),
        "Copyright" => out.extend(nonempty(v).map(|s| ("CP", s))),
        "Comment" => out.extend(nonempty(value).map(|s| ("GC", s))),
        "Commentator" => out.extend(nonempty(v).map(|s| ("AN", s))),
        "Date" => {
            let first = v.split(',').next().unwrap_or("").trim();
            match crate::formats::legacy::first_date(first) {
                Some((d, false)) => out.push(("DT", crate::formats::legacy::iso_date(d))),
                // `//` (or nothing) is the dummy date.
                _ if first.bytes().all(|c| c == b'/' || c == b'-') => {}
                _ => return Err(format!("date '{first}' is not YYYY/MM/DD")),
            }
        }
        "Size" if !v.is_empty() => {
            let n: u8 = v.parse().ok().filter(|n| (2..=24).contains(n)).ok_or(format!("size '{v}'"))?;
            out.push(("SZ", n.to_string()));
        }
        "Hdcp" => {
            let (h, k) = v.split_once(',').unwrap_or((v, ""));
            let h = h.trim();
            if !h.is_empty() {
                let n: u32 = h.parse().map_err(|_| format!("handicap '{h}'"))?;
                if n >= 2 {
                    out.push(("HA", n.to_string()));
                }
            }
            let k = k.trim();
            if !k.is_empty() {
                // A decimal comma (`0,50`) is the only comma left after the handicap.
                let k = k.replacen(',', ".", 1);
                let x: f64 = k.parse().ok().filter(|x: &f64| x.is_finite()).ok_or(format!("komi '{k}'"))?;
                // A komi beyond ±MAX_KOMI is none (the rule of every reader).
                if x.abs() > crate::formats::legacy::MAX_KOMI {
                    return Err(format!("komi '{k}' (beyond ±{} points)", crate::formats::legacy::MAX_KOMI));
                }
                out.push(("KM", format_real(x)));
            }
        }
        "Ptime" => {
            let first = v.split(',').next().unwrap_or("");
            let mut sub = first.split(';');
            let kind = sub.next().unwrap_or("").trim();
            let minutes = sub.next().unwrap_or("").trim();
            if !minutes.is_empty() && !kind.eq_ignore_ascii_case("N") {
                let m: u32 = minutes.parse().map_err(|_| format!("time '{minutes}'"))?;
                if m > 0 {
                    out.push(("TM", (u64::from(m) * 60).to_string()));
                }
            }
        }
        "Winner" => out.extend(winner_to_re(v)?.map(|r| ("RE", r))),
        "PlayerB" | "PlayerW" => {
            let black = key == "PlayerB";
            let mut f = value.split(',');
            if let Some(name) = f.next().and_then(nonempty) {
                out.push((if black { "PB" } else { "PW" }, name));
            }
            if let Some(rank) = f.next().and_then(nonempty) {
                let rank = normalize_rank(&rank).unwrap_or(rank);
                out.push((if black { "BR" } else { "WR" }, rank));
            }
            if let Some(team) = f.next().and_then(nonempty).filter(|t| t != "0") {
                out.push((if black { "BT" } else { "WT" }, team));
            }
        }
        _ => {}
    }
    Ok(out)
}

/// `Winner=` → `RE`: `B,7.50` → `B+7.5`, `W,C` → `W+R`, `B,F`, `B,T`, `D` → `0`, `N…` → `Void`,
/// `O` (both lose) → `Void`, `E` → `?`, `A`/`P` (unfinished) and empty → no `RE`.
pub(super) fn winner_to_re(v: &str) -> Result<Option<String>, String> {
    let (who, how) = v.split_once(',').map_or((v.trim(), ""), |(a, b)| (a.trim(), b.trim()));
    let upper = who.to_ascii_uppercase();
    let winner = match upper.as_str() {
        "" => return Ok(None),
        "B" => Color::Black,
        "W" => Color::White,
        "D" => return Ok(Some("0".into())),
        "O" => return Ok(Some("Void".into())),
        "E" => return Ok(Some("?".into())),
        "A" | "P" => return Ok(None),
        u if u.starts_with('N') => return Ok(Some("Void".into())),
        _ => return Err(format!("winner '{v}'")),
    };
    let kind = match how.to_ascii_uppercase().as_str() {
        "C" | "R" => WinKind::Resign,
        "F" => WinKind::Forfeit,
        "T" => WinKind::Time,
        "" => WinKind::Points,
        n => WinKind::Score(
            n.replacen(',', ".", 1)
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or(format!("winner '{v}'"))?,
        ),
    };
    Ok(Some(GameResult::Win { winner, how: kind }.to_sgf()))
}

/// `RE` → `Winner=`; `None` when `RE` has no UGF form.
pub(super) fn re_to_winner(re: &str) -> Option<String> {
    Some(match GameResult::from_sgf(re)? {
        GameResult::Draw => "D".into(),
        GameResult::Void => "N".into(),
        GameResult::Unknown => "E".into(),
        GameResult::Win { winner, how } => {
            let w = winner.as_sgf();
            match how {
                WinKind::Score(s) => format!("{w},{s:.2}"),
                WinKind::Points => format!("{w},"),
                WinKind::Resign => format!("{w},C"),
                WinKind::Time => format!("{w},T"),
                WinKind::Forfeit => format!("{w},F"),
            }
        }
    })
}

/// A fresh header value for mapped `key` from the SGF values `get` returns.
pub(super) fn render(key: &str, get: &dyn Fn(&str) -> Option<String>) -> String {
    let g = |id: &str| get(id).unwrap_or_default();
    match key {
        "Title" => g("EV"),
        "Place" => g("PC"),
        "Rule" => g("RU"),
        "Writer" => g("US"),
        "Copyright" => g("CP"),
        "Comment" => g("GC"),
        "Commentator" => g("AN"),
        // Panda-eGG's four fields (start date, time, end date, time); times are not known.
        "Date" => match crate::formats::legacy::first_date(&g("DT")) {
            Some(((y, m, d), _)) => format!("{y:04}/{m:02}/{d:02},,{y:04}/{m:02}/{d:02},"),
            None => String::new(),
        },
        "Size" => g("SZ"),
        "Hdcp" => {
            let ha = get("HA").unwrap_or_else(|| "0".into());
            // Readers split at the comma: with no komi the field after it stays empty.
            // A komi beyond ±MAX_KOMI reads back as none: not written (reported by the writer).
            let fits = |k: &f64| k.abs() <= crate::formats::legacy::MAX_KOMI;
            match get("KM").and_then(|k| k.trim().parse::<f64>().ok()).filter(fits) {
                Some(k) => format!("{},{k:.2}", ha.trim()),
                None => format!("{},", ha.trim()),
            }
        }
        // Minutes the reader takes back (a u32); a larger or non-finite time is left out, as
        // the read-back comparison then reports.
        "Ptime" => match get("TM")
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|t| *t >= 60.0 && (*t / 60.0).round() <= f64::from(u32::MAX))
        {
            Some(t) => {
                let m = (t / 60.0).round() as u64;
                format!("J;{m};0;0,J;{m};0;0,0,0")
            }
            None => "N;0;0;0,N;0;0;0,0,0".into(),
        },
        "Winner" => get("RE").and_then(|r| re_to_winner(&r)).unwrap_or_default(),
        "PlayerB" => format!("{},{},{},", g("PB"), g("BR"), g("BT")),
        "PlayerW" => format!("{},{},{},", g("PW"), g("WR"), g("WT")),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn re(v: &str) -> Option<String> {
        winner_to_re(v).unwrap()
    }

    #[test]
    fn every_winner_form() {
        assert_eq!(re("B,7.50").as_deref(), Some("B+7.5"));
        assert_eq!(re("W,C").as_deref(), Some("W+R"));
        assert_eq!(re("B,F").as_deref(), Some("B+F"));
        assert_eq!(re("W,T").as_deref(), Some("W+T"));
        assert_eq!(re("B,").as_deref(), Some("B+"));
        assert_eq!(re("D").as_deref(), Some("0"));
        assert_eq!(re("N1,E").as_deref(), Some("Void"));
        assert_eq!(re("N").as_deref(), Some("Void"));
        assert_eq!(re("O").as_deref(), Some("Void"));
        assert_eq!(re("E").as_deref(), Some("?"));
        assert_eq!(re("A"), None);
        assert_eq!(re("P"), None);
        assert!(winner_to_re("B,xyz").is_err());
        assert!(winner_to_re("Q").is_err());
        for r in ["B+7.5", "W+R", "B+F", "W+T", "0", "Void", "?"] {
            assert_eq!(re(&re_to_winner(r).unwrap()).as_deref(), Some(r));
        }
    }

    #[test]
    fn komi_forms() {
        assert_eq!(derive("Hdcp", "0,-5.50").unwrap(), [("KM", "-5.5".to_string())]);
        assert_eq!(derive("Hdcp", "2,0,50").unwrap(), [("HA", "2".to_string()), ("KM", "0.5".to_string())]);
        assert_eq!(derive("Hdcp", "0,6.50").unwrap(), [("KM", "6.5".to_string())]);
        assert!(derive("Hdcp", "x,1").is_err());
    }

    #[test]
    fn players_dates_and_keys() {
        let pb = derive("PlayerB", "kaziwami,7d,,panda@.jp").unwrap();
        assert_eq!(pb, [("PB", "kaziwami".to_string()), ("BR", "7d".to_string())]);
        let pw = derive("PlayerW", "K.Yamashita,Gosei,0,").unwrap();
        assert_eq!(pw, [("PW", "K.Yamashita".to_string()), ("WR", "Gosei".to_string())]);
        let dt = derive("Date", "2019/03/08,22:09:00,2019/03/09,07:16:59").unwrap();
        assert_eq!(dt, [("DT", "2019-03-08".to_string())]);
        assert_eq!(derive("Date", "//,").unwrap(), []);
        assert_eq!(derive("Ptime", "J;240;0;0,J;240;0;0,0,0").unwrap(), [("TM", "14400".to_string())]);
        // A time the reader cannot take back (an oracle finding: TM[1E4400]) is not written.
        let tm = |t: &'static str| move |k: &str| (k == "TM").then(|| t.to_string());
        assert_eq!(render("Ptime", &tm("14400")), "J;240;0;0,J;240;0;0,0,0");
        assert_eq!(render("Ptime", &tm("1E4400")), "N;0;0;0,N;0;0;0,0,0");
        assert_eq!(render("Ptime", &tm("1E30")), "N;0;0;0,N;0;0;0,0,0");
        assert_eq!(partner_key("PlayerB2"), Some(Color::Black));
        assert_eq!(partner_key("PlayerW"), None);
        assert_eq!(mapped_key("RULE"), Some("Rule"));
        assert_eq!(mapped_key("Rules"), None);
    }
}
