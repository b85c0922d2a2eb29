//! The Nihon Ki-in / Cyberoro (Oro) dialect: `TE` = title, `RD` = date, `KO[黒6目半]` = komi text,
//! `HD` = handicap, `LT`/`LC` = byo-yomi, `GK`; and results written as Korean, Japanese or
//! Chinese text (`294수 흑0.5집승`, `黒中押し勝ち`), which appear in other files too.

use super::{Prop, Work, codes, keys};
use crate::diag::Severity;
use crate::model::{GameTree, PropValue, Property};

/// Root properties only the dialect writes (none is an FF\[4\] root or game-info property).
pub(crate) const SIGNATURE: &[&str] = &["RD", "LT", "LC", "GK", "HD"];

/// Whether `tree` is written in the Nihon Ki-in / Oro dialect. Decided on the root alone: two
/// or more of `RD`, `LT`, `LC`, `GK`, `HD`; or `KO` with a value (FF\[4\]'s `KO` is an empty
/// move property); or `TE` with a value other than `1`/`2` (FF\[4\]'s tesuji is a Double in a
/// move node). A normal file with `TE[1]` on a move is never taken for it.
pub fn is_oro_dialect(tree: &GameTree) -> bool {
    if tree.is_empty() {
        return false;
    }
    let root = tree.root();
    // The signature's identifiers are not in the property table: only unknown keys can be one.
    let mut signature = 0;
    for p in root.props() {
        match p.key() {
            keys::KO | keys::TE if dialect_value(p) => return true,
            _ if !p.known() => signature += usize::from(SIGNATURE.contains(&p.ident())),
            _ => {}
        }
    }
    signature >= 2
}

/// `KO` or `TE` in the root with a value FF\[4\] does not give them.
pub(crate) fn dialect_value(p: Property<'_>) -> bool {
    let v = || p.first().unwrap_or("").trim();
    match p.key() {
        keys::KO => !v().is_empty(),
        keys::TE => !matches!(v(), "" | "1" | "2"),
        _ => false,
    }
}

/// Maps the dialect's root properties to FF\[4\]; values without an exact FF\[4\] form are kept
/// under private identifiers (`XSGFKO`, `XSGFLT`, …).
pub(crate) fn repair(w: &mut Work<'_>) {
    if !w.is_root {
        return;
    }
    let mut i = 0;
    while i < w.props.len() {
        let ident = w.props[i].ident.clone();
        let origin = w.props[i].origin;
        let raw = w.props[i].first().to_string();
        let msg = match &*ident {
            "TE" if !raw.trim().is_empty() && raw.trim() != "1" && raw.trim() != "2" => {
                match ["EV", "GN"].into_iter().find(|t| w.find(t).is_none()) {
                    Some(to) => {
                        w.props[i].rename(to);
                        format!("TE[{raw}] is the dialect's title: written as {to}")
                    }
                    None => keep(w, i, "TE", "title; EV and GN are taken"),
                }
            }
            "RD" => {
                if w.find("DT").is_none() {
                    w.props[i].rename("DT");
                    // In FF[4]'s form as any DT is (the repairs of old forms ran before this
                    // one): a second read finds nothing to do.
                    if !super::is_iso_date(raw.trim()) {
                        super::old_ff::date(w, i);
                        let left = w.props[i].first().to_string();
                        let private = super::private("DT");
                        if w.props[i].ident == "DT" && !super::is_iso_date(&left) && w.find(&private).is_none() {
                            // What no repair reads as a date is kept, not guessed (as for any DT).
                            w.props[i].rename(private.clone());
                            let msg =
                                format!("DT[{left}] is no FF[4] date and none can be read from it; kept as {private}");
                            w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
                        }
                    }
                    format!("RD[{raw}] is the dialect's date: written as DT")
                } else {
                    keep(w, i, "RD", "date beside a DT")
                }
            }
            "KO" if !raw.trim().is_empty() => match komi_from_text(&raw) {
                Some(k) if w.find("KM").is_none() => {
                    let km = crate::model::info::format_real(k);
                    let numeric = raw.trim().parse::<f64>().is_ok();
                    if numeric {
                        w.props[i] = Prop::with_origin("KM", vec![PropValue::new(km.clone())], origin);
                        format!("KO[{raw}] is the dialect's komi: written as KM[{km}]")
                    } else {
                        w.props[i].rename(super::private("KO"));
                        w.props.insert(i, Prop::with_origin("KM", vec![PropValue::new(km.clone())], origin));
                        i += 1;
                        format!("KO[{raw}] is the dialect's komi: written as KM[{km}], the text kept in XSGFKO")
                    }
                }
                _ => keep(w, i, "KO", "komi text"),
            },
            "HD" => match raw.trim().parse::<u32>() {
                Ok(n) if n >= 2 && w.find("HA").is_none() => {
                    w.props[i] = Prop::with_origin("HA", vec![PropValue::new(n.to_string())], origin);
                    format!("HD[{raw}] is the dialect's handicap: written as HA[{n}]")
                }
                Ok(0) => {
                    w.props.remove(i);
                    w.report(
                        origin,
                        Severity::Info,
                        codes::DIALECT,
                        format!("HD[{raw}] (the dialect's handicap, none) removed"),
                    );
                    continue;
                }
                _ => keep(w, i, "HD", "handicap"),
            },
            "LT" | "LC" | "GK" => {
                let what = match &*ident {
                    "LT" => "byo-yomi time",
                    "LC" => "byo-yomi periods",
                    _ => "meaning unknown",
                };
                keep(w, i, &ident, what)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        w.report(origin, Severity::Info, codes::DIALECT, msg);
        i += 1;
    }
    overtime(w);
}

/// Renames property `i` to its private identifier; returns the message.
fn keep(w: &mut Work<'_>, i: usize, ident: &str, what: &str) -> String {
    let new = super::private(ident);
    let raw = w.props[i].first().to_string();
    w.props[i].rename(new.clone());
    format!("{ident}[{raw}] ({what} in the Nihon Ki-in / Oro dialect) kept as {new}")
}

/// `LT[30秒]` and `LC[5回]` together: an `OT` text `5x30 byo-yomi` (when there is no `OT`).
fn overtime(w: &mut Work<'_>) {
    if w.find("OT").is_some() {
        return;
    }
    let (Some(lt), Some(lc)) = (w.find("XSGFLT"), w.find("XSGFLC")) else { return };
    let secs = super::old_ff::parse_time(w.props[lt].first())
        .filter(|(_, tail)| tail.is_empty())
        .map(|(s, _)| s)
        .or_else(|| w.props[lt].first().trim().parse::<f64>().ok());
    let digits: String = w.props[lc].first().trim().chars().take_while(char::is_ascii_digit).collect();
    if let (Some(secs), Ok(n)) = (secs, digits.parse::<u32>()) {
        let ot = format!("{n}x{} byo-yomi", crate::model::info::format_real(secs));
        let origin = w.props[lt].origin;
        let at = lt.max(lc) + 1;
        w.props.insert(at, Prop::new("OT", vec![PropValue::new(ot.clone())]));
        w.report(origin, Severity::Info, codes::DIALECT, format!("the dialect's LT and LC also written as OT[{ot}]"));
    }
}

/// A komi in the dialect's text: `7.5`, `黒6目半` (6.5), `덤 6집반` (6.5), `6目半コミ`.
pub(crate) fn komi_from_text(raw: &str) -> Option<f64> {
    let s = raw.trim();
    if let Ok(k) = s.parse::<f64>() {
        return Some(k);
    }
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let rest = &s[start..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let mut k: f64 = rest[..end].parse().ok()?;
    let after = &rest[end..];
    if ["目半", "집반", "半", "반"].iter().any(|h| after.starts_with(h)) {
        k += 0.5;
    }
    Some(k)
}

/// A result in Korean, Japanese or Chinese text as an FF\[4\] `RE`: `294수 흑0.5집승` → `B+0.5`,
/// `黒中押し勝ち` → `B+R`, `226수 백불계승` → `W+R`, `黑胜2目半` → `B+2.5`, read by the NGF reader's
/// multilingual result parser; a margin in stones (Chinese counting: `白胜2又1/4子`, `黑胜1/4子`,
/// `白胜半子`) doubled to points. `None` for ASCII text (FF\[4\] or English prose, left as it
/// is), or text not understood.
pub(crate) fn result_from_text(raw: &str) -> Option<String> {
    let s = raw.trim();
    if s.is_ascii() {
        return english_result(s).or_else(|| english_sentence(s));
    }
    match crate::formats::ngf::parse_result(s) {
        crate::formats::ngf::ParsedResult::Result(r) => Some(r.to_sgf()),
        _ => None,
    }
}

/// An English result that says what FF\[4\] says in its own words: `draw`, `W+time`,
/// `B+Resign`, `White resigns.`; `None` for anything else (an FF\[4\] result included).
fn english_result(s: &str) -> Option<String> {
    let lower = s.trim_end_matches('.').trim().to_ascii_lowercase();
    let how = |rest: &str| match rest.trim() {
        "time" | "timeout" | "time over" | "t" => Some("T"),
        "resign" | "resigns" | "resignation" | "r" => Some("R"),
        "forfeit" | "f" => Some("F"),
        _ => None,
    };
    let out = match lower.as_str() {
        "draw" | "jigo" => "0".to_string(),
        "void" => "Void".to_string(),
        "white resigns" => "B+R".to_string(),
        "black resigns" => "W+R".to_string(),
        _ => {
            let (who, rest) = lower.split_once('+')?;
            let who = match who.trim() {
                "b" | "black" => "B",
                "w" | "white" => "W",
                _ => return None,
            };
            [who, "+", how(rest)?].concat()
        }
    };
    (out != s).then_some(out)
}

/// An English sentence naming the winner or the loser and how, as NGF files and kifu's own NGF
/// writer put them (`White wins by resignation!`, `Black wins by 3.5 points!`, `White loses on
/// time!`), read by the NGF reader's result parser: a win with its margin or kind.
fn english_sentence(s: &str) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let names_a_player = lower.starts_with("black ") || lower.starts_with("white ");
    let says_who_won = [" win", " lose", " lost"].iter().any(|w| lower.contains(w));
    if !names_a_player || !says_who_won {
        return None;
    }
    // A win whose kind the sentence does not name is `W+` (FF[4]: the score is optional); the
    // text itself is kept beside it by the repair.
    match crate::formats::ngf::parse_result(s) {
        crate::formats::ngf::ParsedResult::Result(r @ crate::model::GameResult::Win { .. }) => Some(r.to_sgf()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_sentences_of_ngf_files() {
        for (text, re) in [
            ("White wins by resignation!", "W+R"),
            ("Black wins by 3.5 points!", "B+3.5"),
            ("White loses on time!", "B+T"),
            ("White wins!", "W+"),
            ("white wins by disconnection", "W+F"),
        ] {
            assert_eq!(result_from_text(text).as_deref(), Some(re), "{text}");
        }
        for kept in ["White to play", "Black and White agreed", "john wins"] {
            assert_eq!(result_from_text(kept), None, "{kept}");
        }
    }

    #[test]
    fn english_results() {
        for (text, re) in [("draw", "0"), ("Draw", "0"), ("W+time", "W+T"), ("W+Time Over", "W+T"), ("B+Resign", "B+R")]
        {
            assert_eq!(result_from_text(text).as_deref(), Some(re), "{text}");
        }
        assert_eq!(result_from_text("White resigns.").as_deref(), Some("B+R"));
        assert_eq!(result_from_text("b+r").as_deref(), Some("B+R"));
        for kept in ["B+R", "W+T", "0", "Void", "B+Illegal", "john wins", "B+3.5"] {
            assert_eq!(result_from_text(kept), None, "{kept}");
        }
    }

    #[test]
    fn results_in_text() {
        assert_eq!(result_from_text("294수 흑0.5집승").as_deref(), Some("B+0.5"));
        assert_eq!(result_from_text("226수 백불계승").as_deref(), Some("W+R"));
        assert_eq!(result_from_text("257手完, 黒中押し勝ち").as_deref(), Some("B+R"));
        assert_eq!(result_from_text("黑胜2目半").as_deref(), Some("B+2.5"));
        assert_eq!(result_from_text("白6目半勝ち").as_deref(), Some("W+6.5"));
        assert_eq!(result_from_text("흑 불계패").as_deref(), Some("W+R"));
        assert_eq!(result_from_text("黒半目勝ち").as_deref(), Some("B+0.5"));
        assert_eq!(result_from_text("B+R"), None);
        assert_eq!(result_from_text("黑胜1/4子").as_deref(), Some("B+0.5"));
        assert_eq!(result_from_text("白胜2又1/4子").as_deref(), Some("W+4.5"));
        assert_eq!(result_from_text(" 白胜2又1/4子").as_deref(), Some("W+4.5"));
        assert_eq!(result_from_text("白胜1又3/4子").as_deref(), Some("W+3.5"));
        assert_eq!(result_from_text("白胜半子").as_deref(), Some("W+1"));
    }

    #[test]
    fn komi_in_text() {
        assert_eq!(komi_from_text("黒6目半"), Some(6.5));
        assert_eq!(komi_from_text("덤 6집반"), Some(6.5));
        assert_eq!(komi_from_text("7.5"), Some(7.5));
        assert_eq!(komi_from_text("なし"), None);
    }
}
