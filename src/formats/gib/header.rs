//! The header the GIB writer produces: Tygem's keys in Tygem's order, each value generated from
//! the SGF properties when they give one, else taken from the private `XGIB` entries, else (for
//! a game that did not come from GIB) a neutral default.

use super::codes;
use super::fields;
use super::result;
use crate::diag::Diagnostic;
use crate::formats::legacy;
use crate::model::info::format_real;
use crate::model::{GameResult, GameTree, Node, WinKind};

/// Header keys in the order Tygem writes them.
const KEYS: &[&str] = &[
    "GIBOKIND",
    "TYPE",
    "SZAUDIO",
    "GAMECONDITION",
    "GAMETIME",
    "GAMERESULT",
    "GAMEZIPSU",
    "GAMEDUM",
    "GAMEGONGJE",
    "GAMETOTALNUM",
    "GAMENAME",
    "GAMEDATE",
    "GAMEPLACE",
    "GAMELECNAME",
    "GAMEWHITENAME",
    "GAMEWHITELEVEL",
    "GAMEWHITENICK",
    "GAMEWHITECOUNTRY",
    "GAMEWAVATA",
    "GAMEWIMAGE",
    "GAMEBLACKNAME",
    "GAMEBLACKLEVEL",
    "GAMEBLACKNICK",
    "GAMEBLACKCOUNTRY",
    "GAMEBAVATA",
    "GAMEBIMAGE",
    "GAMECOMMENT",
    "GAMEINFOMAIN",
    "GAMEINFOSUB",
    "WUSERINFO",
    "BUSERINFO",
    "GAMETAG",
];
const MAIN_KEYS: &[&str] = &["GBKIND", "GTYPE", "GCDT", "GTIME", "GRLT", "ZIPSU", "DUM", "GONGJE", "TCNT", "AUSZ"];
const SUB_KEYS: &[&str] = &["GNAMEF", "GPLCF", "GNAME", "GDATE", "GPLC", "GCMT"];
const TAG_KEYS: &[&str] = &["S", "R", "D", "G", "W", "Z", "T", "C", "I", "L", "M", "N", "A", "B", "J", "K"];
/// Keys always written, whatever `XGIB` holds.
const REQUIRED: &[&str] = &["GIBOKIND", "GAMEBLACKNAME", "GAMEWHITENAME", "GAMEINFOMAIN", "GAMETAG"];

/// What the model says, prepared once.
pub(super) struct Facts {
    pub(super) kind: String,
    black: Option<String>,
    white: Option<String>,
    black_rank: Option<String>,
    white_rank: Option<String>,
    komi10: Option<i64>,
    handicap: u32,
    result: Option<(i64, i64, GameResult)>,
    date: Option<legacy::Date>,
    time: Option<(u64, u64, u64)>,
    name: Option<String>,
    place: Option<String>,
    comment: Option<String>,
    moves: usize,
}
/// The header lines (`\\[KEY=VALUE\\]` with CRLF) for a game whose root is `root`.
pub(super) fn lines(root: Node<'_>, facts: &Facts, sink: &mut Vec<Diagnostic>) -> String {
    let private: Vec<(String, String)> = root
        .get(super::PROP_HEADER)
        .map(|p| {
            p.values()
                .filter_map(|v| {
                    let s = v.as_str();
                    // A key is a word (`GAMEINFOSUB`): one holding a line break or a blank
                    // would inject a line or read back as another key.
                    let kv = s
                        .split_once('=')
                        .filter(|(k, _)| !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
                        .map(|(k, v)| (k.to_string(), v.to_string()));
                    if kv.is_none() {
                        sink.push(Diagnostic::warning(
                            codes::LOSSY_PROPERTY,
                            format!("root node: XGIB value '{}' is not KEY=VALUE; not written", s.escape_debug()),
                        ));
                    }
                    kv
                })
                .collect()
        })
        .unwrap_or_default();
    let has_private = root.get(super::PROP_HEADER).is_some();
    let raw_of = |key: &str| private.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());

    let mut out = String::new();
    let header = merge(
        KEYS,
        &private,
        |key, raw| match key {
            "GAMEINFOMAIN" | "GAMEINFOSUB" | "GAMETAG" => composite(facts, key, raw, !has_private),
            _ => top_value(facts, key, raw),
        },
        |key| (!has_private || REQUIRED.contains(&key)).then(|| top_default(facts, key)).flatten(),
    );
    for (key, value, is_raw) in header {
        let composite = matches!(key.as_str(), "GAMEINFOMAIN" | "GAMEINFOSUB" | "GAMETAG");
        if !is_raw && !composite && raw_of(&key).is_some_and(|r| r != value) {
            sink.push(Diagnostic::info(
                codes::PRIVATE_SUPERSEDED,
                format!("XGIB entry {key} replaced by the value the SGF properties give"),
            ));
        }
        let (clean, broken) = legacy::one_line(&value);
        let clean = clean.replace("\\]", "]");
        if broken || clean.len() != value.len() {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!(
                    "header {key}: line breaks, control characters or '\\]' cannot be written in a GIB value; written as {key}={clean}"
                ),
            ));
        }
        out.push_str(&format!("\\[{key}={clean}\\]\r\n"));
    }
    out
}

/// A composite entry (`GAMEINFOMAIN`, `GAMEINFOSUB`, `GAMETAG`): the raw sub-fields in their
/// order, generated ones replacing or joining them; with `defaults`, every sub-field Tygem
/// writes. `None` when nothing is left to write and there was no raw entry.
fn composite(f: &Facts, entry: &str, raw: Option<&str>, defaults: bool) -> Option<String> {
    let (canon, fields, tag) = match entry {
        "GAMEINFOMAIN" => (MAIN_KEYS, fields::split_pairs(raw.unwrap_or("")), false),
        "GAMEINFOSUB" => (SUB_KEYS, fields::split_pairs(raw.unwrap_or("")), false),
        _ => (TAG_KEYS, fields::split_tag(raw.unwrap_or("")), true),
    };
    let raws: Vec<(String, String)> = fields.into_iter().map(|f| (f.key, f.raw)).collect();
    let items =
        merge(canon, &raws, |k, r| sub_value(f, entry, k, r), |k| defaults.then(|| sub_default(f, entry, k)).flatten());
    let text = items
        .into_iter()
        .map(|(k, v, is_raw)| {
            if is_raw {
                v
            } else if tag && !matches!(k.as_str(), "I" | "L" | "M" | "N" | "A" | "B" | "J" | "K") {
                format!("{k}{v}")
            } else {
                format!("{k}:{v}")
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    (!text.is_empty() || raw.is_some()).then_some(text)
}

/// Merges raw items (kept in their order) with generated ones (placed at their canonical
/// rank). `value(key, raw)` gives the generated value that replaces or adds an item, `None` to
/// keep the raw one; `default(key)` fills a canonical key that has neither. Returns
/// (key, text, is_raw).
fn merge(
    canon: &[&str],
    raw: &[(String, String)],
    value: impl Fn(&str, Option<&str>) -> Option<String>,
    default: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    let mut add_canon = |upto: usize, out: &mut Vec<(String, String, bool)>| {
        for &c in &canon[..upto] {
            if done.contains(&c) || raw.iter().any(|(rk, _)| rk == c) {
                continue;
            }
            done.push(c);
            if let Some(v) = value(c, None).or_else(|| default(c)) {
                out.push((c.to_string(), v, false));
            }
        }
    };
    for (k, r) in raw {
        if let Some(at) = canon.iter().position(|c| c == k) {
            add_canon(at, &mut out);
        }
        out.push(match value(k, Some(r)) {
            Some(v) => (k.clone(), v, false),
            None => (k.clone(), r.clone(), true),
        });
    }
    add_canon(canon.len(), &mut out);
    out
}

fn space2(n: u32) -> String {
    format!("{n:>2}")
}

fn gib_date((y, m, d): legacy::Date) -> String {
    format!("{y}-{}-{}- 0- 0- 0", space2(m), space2(d))
}

/// A generated top-level value: what the SGF properties say, or `None` to keep the raw entry.
fn top_value(f: &Facts, key: &str, raw: Option<&str>) -> Option<String> {
    let name = |n: &Option<String>, r: &Option<String>| -> Option<String> {
        match (n, r) {
            (None, None) => None,
            (n, Some(r)) => Some(format!("{} ({})", n.as_deref().unwrap_or(""), fields::rank_display(r)).trim().into()),
            // A space after a final `)` keeps readers that split `name (rank)` at a closing
            // parenthesis from taking `GNU Go (seed 5)` for a rank; kifu trims it.
            (Some(n), None) if n.ends_with(')') => Some(format!("{n} ")),
            (Some(n), None) => Some(n.clone()),
        }
    };
    match key {
        "GIBOKIND" => Some(f.kind.clone()),
        "GAMECONDITION" => {
            let k = f.komi10?;
            Some(if f.handicap >= 2 {
                if k != 0 {
                    format!("{} Handicap : White Dum({k})", f.handicap)
                } else {
                    format!("{} Handicap", f.handicap)
                }
            } else {
                format!("Even : Black {} Dum", format_real(k as f64 / 10.0))
            })
        }
        "GAMETIME" => f.time.map(|(main, byo, periods)| {
            format!("Time limit {}minute : {byo} second countdown {periods} time", main / 60)
        }),
        "GAMERESULT" => f.result.as_ref().map(|(_, _, r)| result::english(r)),
        "GAMEZIPSU" => f.result.as_ref().map(|(_, z, _)| z.to_string()),
        "GAMEDUM" => f.komi10.map(|k| if f.handicap >= 2 { k } else { 0 }.to_string()),
        "GAMEGONGJE" => f.komi10.map(|k| if f.handicap >= 2 { 0 } else { k }.to_string()),
        "GAMENAME" => f.name.clone(),
        "GAMEPLACE" => f.place.clone(),
        "GAMECOMMENT" => f.comment.clone(),
        "GAMEBLACKNAME" => name(&f.black, &f.black_rank),
        "GAMEWHITENAME" => name(&f.white, &f.white_rank),
        "GAMEDATE" => {
            let d = f.date?;
            (raw.and_then(fields::parse_date) != Some(d)).then(|| gib_date(d))
        }
        _ => None,
    }
}

/// The value of a key the game has no `XGIB` entry for (a game that did not come from GIB).
fn top_default(f: &Facts, key: &str) -> Option<String> {
    let level =
        |r: &Option<String>| r.as_deref().and_then(fields::rank_to_level).map_or(String::new(), |l| l.to_string());
    Some(match key {
        "TYPE" | "SZAUDIO" | "GAMEWHITECOUNTRY" | "GAMEBLACKCOUNTRY" | "GAMEWAVATA" | "GAMEBAVATA" => "0".into(),
        "GAMEZIPSU" => "0".into(),
        // No komi, no time: the fields are left out rather than invented (`KM[0]`, `TM[0]`).
        "GAMEDUM" | "GAMEGONGJE" => return None,
        "GAMETOTALNUM" => (if f.result.is_some() { f.moves } else { 0 }).to_string(),
        "GAMEDATE" => f.date.map(gib_date).unwrap_or_default(),
        "GAMEWHITELEVEL" => level(&f.white_rank),
        "GAMEBLACKLEVEL" => level(&f.black_rank),
        "GAMEWHITENICK" => f.white.clone().unwrap_or_default(),
        "GAMEBLACKNICK" => f.black.clone().unwrap_or_default(),
        "WUSERINFO" | "BUSERINFO" => {
            let (p, n, r) =
                if key == "WUSERINFO" { ("W", &f.white, &f.white_rank) } else { ("B", &f.black, &f.black_rank) };
            let n = in_list(&n.clone().unwrap_or_default());
            format!("{p}ID:{n},{p}LV:{},{p}NICK:{n},{p}NCD:0,{p}AID:0,{p}IMG:", level(r))
        }
        _ => String::new(),
    })
}

/// A text copied into a `KEY:VALUE,…` list (`GCMT`, `GAMETAG` names, `*USERINFO` ids): a comma
/// would start a sub-field (`GC[x,GNAME:y]` read back as a game name), so commas become spaces.
/// Nothing is lost: the same text is written whole in its own key (`GAMECOMMENT`,
/// `GAMEBLACKNAME`, …), which readers prefer. It is one line without blank ends, as the reader
/// reads that key back.
fn in_list(text: &str) -> String {
    legacy::one_line(text).0.trim().replace(',', " ")
}

/// A generated sub-field of a composite entry, or `None` to keep the raw one.
fn sub_value(f: &Facts, entry: &str, key: &str, raw: Option<&str>) -> Option<String> {
    let date_if_changed = |raw: Option<&str>, fmt: &dyn Fn(fields::Date) -> String| {
        let d = f.date?;
        (raw.and_then(fields::parse_date) != Some(d)).then(|| fmt(d))
    };
    match (entry, key) {
        ("GAMEINFOMAIN", "GBKIND") => Some(
            match f.kind.as_str() {
                "Korea" => "0",
                "China" => "5",
                "Taiwan" => "4",
                _ => "3",
            }
            .into(),
        ),
        ("GAMEINFOMAIN", "GCDT") | ("GAMETAG", "R") => Some(f.handicap.to_string()),
        ("GAMEINFOMAIN", "GTIME") => f.time.map(|(m, b, p)| format!("{m}-{b}-{p}")),
        ("GAMETAG", "T") => f.time.map(|(m, b, p)| format!("{b}-{p}-{m}")),
        ("GAMEINFOMAIN", "GRLT") | ("GAMETAG", "W") => f.result.as_ref().map(|(c, _, _)| c.to_string()),
        ("GAMEINFOMAIN", "ZIPSU") | ("GAMETAG", "Z") => f.result.as_ref().map(|(_, z, _)| z.to_string()),
        ("GAMEINFOMAIN", "DUM") | ("GAMETAG", "D") => f.komi10.map(|k| if f.handicap >= 2 { k } else { 0 }.to_string()),
        ("GAMEINFOMAIN", "GONGJE") | ("GAMETAG", "G") => {
            f.komi10.map(|k| if f.handicap >= 2 { 0 } else { k }.to_string())
        }
        ("GAMEINFOSUB", "GNAME") => f.name.as_deref().map(in_list),
        ("GAMEINFOSUB", "GPLC") => f.place.as_deref().map(in_list),
        ("GAMEINFOSUB", "GCMT") => f.comment.as_deref().map(in_list),
        ("GAMEINFOSUB", "GDATE") => {
            date_if_changed(raw, &|(y, m, d)| format!("{y}-{}-{}- 0- 0- 0", space2(m), space2(d)))
        }
        ("GAMETAG", "C") => date_if_changed(raw, &|(y, m, d)| format!("{y:04}:{m:02}:{d:02}:00:00")),
        _ => None,
    }
}

/// A sub-field for a composite entry the game has no `XGIB` entry for.
fn sub_default(f: &Facts, entry: &str, key: &str) -> Option<String> {
    let level =
        |r: &Option<String>| r.as_deref().and_then(fields::rank_to_level).map_or(String::new(), |l| l.to_string());
    let name = |n: &Option<String>| in_list(n.as_deref().unwrap_or_default());
    Some(match (entry, key) {
        ("GAMEINFOMAIN", "GTIME" | "DUM" | "GONGJE") | ("GAMETAG", "T" | "D" | "G") => return None,
        ("GAMEINFOMAIN", "GRLT") | ("GAMETAG", "W") => "255".into(),
        ("GAMEINFOMAIN", "TCNT") => (if f.result.is_some() { f.moves } else { 0 }).to_string(),
        ("GAMETAG", "C") => return f.date.map(|(y, m, d)| format!("{y:04}:{m:02}:{d:02}:00:00")),
        ("GAMEINFOSUB", "GDATE") => return f.date.map(|(y, m, d)| format!("{y}-{}-{}- 0- 0- 0", space2(m), space2(d))),
        ("GAMEINFOSUB", "GNAME" | "GPLC" | "GCMT") => String::new(),
        ("GAMETAG", "I" | "A") => name(&f.white),
        ("GAMETAG", "M" | "B") => name(&f.black),
        ("GAMETAG", "L") => level(&f.white_rank),
        ("GAMETAG", "N") => level(&f.black_rank),
        _ => "0".into(),
    })
}
pub(super) fn facts(game: &GameTree, kind: &str, handicap: u32, moves: usize, sink: &mut Vec<Diagnostic>) -> Facts {
    let root = game.root();
    let text = |id: &str| root.value(id).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let komi10 = text("KM").and_then(|k| match k.parse::<f64>() {
        Ok(x) if x.is_finite() && (x * 10.0).abs() < 1e9 => {
            let k10 = (x * 10.0).round();
            if (k10 - x * 10.0).abs() > 1e-6 {
                sink.push(Diagnostic::warning(
                    codes::LOSSY_KOMI,
                    format!("root node: KM[{k}] written as {} (GIB komi is in tenths)", format_real(k10 / 10.0)),
                ));
            }
            Some(k10 as i64)
        }
        _ => {
            sink.push(Diagnostic::warning(
                codes::LOSSY_KOMI,
                format!("root node: KM[{k}] is not a komi GIB can hold; not written"),
            ));
            None
        }
    });
    let result = text("RE").and_then(|re| {
        let parsed = GameResult::from_sgf(&re);
        match parsed.as_ref().and_then(result::to_code) {
            Some((code, z, lossy)) => {
                let mut r = parsed?;
                if lossy {
                    // The margin GIB holds, in the result text too (`white 2.3 win`).
                    if let GameResult::Win { winner, how: WinKind::Score(_) } = r {
                        r = GameResult::Win { winner, how: WinKind::Score(z as f64 / 10.0) };
                    }
                    let tenths = match &r {
                        GameResult::Win { winner, .. } => format!("{}+{:.1}", winner.as_sgf(), z as f64 / 10.0),
                        other => other.to_sgf(),
                    };
                    let shown = if tenths == r.to_sgf() { tenths } else { format!("{} ({tenths})", r.to_sgf()) };
                    sink.push(Diagnostic::warning(
                        codes::LOSSY_RESULT,
                        format!("root node: RE[{re}] written as {shown} (GIB margins are in tenths)"),
                    ));
                }
                if let GameResult::Win { winner, how: WinKind::Points } = &r {
                    // GIB readers take ZIPSU 0 for a margin of 0; kifu reads `white win` as W+.
                    let w = winner.as_sgf();
                    sink.push(Diagnostic::warning(
                        codes::LOSSY_RESULT,
                        format!(
                            "root node: RE[{re}] written as {w}+0 ({w}+0.0): GIB has no win without a margin (kifu reads the result text back as {w}+)"
                        ),
                    ));
                }
                Some((code, z, r))
            }
            None => {
                sink.push(Diagnostic::warning(
                    codes::LOSSY_RESULT,
                    format!("root node: RE[{re}] is not a result GIB can hold; not written (GRLT 255, unfinished)"),
                ));
                None
            }
        }
    });
    let date = text("DT").and_then(|dt| match legacy::first_date(&dt) {
        Some((d, more)) => {
            if more {
                sink.push(Diagnostic::warning(
                    codes::LOSSY_PROPERTY,
                    format!("root node: DT[{dt}] written as its first date {}", legacy::iso_date(d)),
                ));
            }
            Some(d)
        }
        None => {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!("root node: DT[{dt}] is not a date; not written"),
            ));
            None
        }
    });
    let time = time(text("TM"), text("OT"), sink);
    let mut rank = |id: &str| -> Option<String> {
        let raw = text(id)?;
        let Some(sgf) = legacy::rank_to_sgf(&raw) else {
            sink.push(Diagnostic::warning(
                codes::LOSSY_RANK,
                format!("root node: {id}[{raw}] is not a rank GIB can hold; not written"),
            ));
            return None;
        };
        let (core, mark) = legacy::rank_without_mark(&sgf);
        if !mark.is_empty() {
            sink.push(Diagnostic::warning(
                codes::LOSSY_RANK,
                format!(
                    "root node: {id}[{raw}] written as {core} ({}): GIB ranks have no '{mark}' mark",
                    core.to_uppercase()
                ),
            ));
        }
        Some(core.to_string())
    };
    let (black_rank, white_rank) = (rank("BR"), rank("WR"));
    Facts {
        kind: kind.to_string(),
        black: text("PB"),
        white: text("PW"),
        black_rank,
        white_rank,
        komi10,
        handicap,
        result,
        date,
        time,
        name: text("GN"),
        place: text("PC"),
        comment: text("GC"),
        moves,
    }
}

/// `TM` seconds and `OT` `NxS byo-yomi` as (main, byo-yomi seconds, periods).
fn time(tm: Option<String>, ot: Option<String>, sink: &mut Vec<Diagnostic>) -> Option<(u64, u64, u64)> {
    if tm.is_none() && ot.is_none() {
        return None;
    }
    let main = match tm.as_deref().map(|t| t.parse::<f64>()) {
        Some(Ok(x)) if x.is_finite() && x >= 0.0 => {
            if x.fract() != 0.0 {
                sink.push(Diagnostic::warning(
                    codes::LOSSY_TIME,
                    format!("root node: TM[{x}] written as whole seconds"),
                ));
            }
            x.round() as u64
        }
        Some(_) => {
            sink.push(Diagnostic::warning(codes::LOSSY_TIME, "root node: TM is not a number of seconds; written as 0"));
            0
        }
        None => 0,
    };
    let (byo, periods) = match ot.as_deref() {
        None => (0, 0),
        Some(o) => {
            let head = o.split_whitespace().next().unwrap_or("");
            match head.split_once(['x', 'X']).and_then(|(p, s)| Some((s.parse::<u64>().ok()?, p.parse::<u64>().ok()?)))
            {
                Some(bp) if o.trim_start_matches(head).trim().eq_ignore_ascii_case("byo-yomi") || o.trim() == head => {
                    bp
                }
                _ => {
                    sink.push(Diagnostic::warning(
                        codes::LOSSY_TIME,
                        format!("root node: OT[{o}] is not 'NxS byo-yomi'; not written"),
                    ));
                    (0, 0)
                }
            }
        }
    };
    Some((main, byo, periods))
}
