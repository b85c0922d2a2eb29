//! The header the GIB writer produces: Tygem's keys in Tygem's order, each value generated from
//! the SGF properties when they give one, else taken from the private `XGIB` entries, else (for
//! a game that did not come from GIB) a neutral default.

use super::codes;
use super::facts::{Facts, written_name};
use super::fields;
use super::result;
use crate::diag::Diagnostic;
use crate::formats::legacy;
use crate::model::Node;
use crate::model::info::format_real;

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

/// The root's `XGIB` entries as `(key, value)`, each value already the one line it will be
/// written as (line breaks and control characters made spaces, `\]` made `]`; reported), so
/// the writer sees what its reader will read. An entry that is not `KEY=VALUE` with a word as
/// key (one holding a line break or a blank would inject a line or read back as another key)
/// is reported and left out. `None` when the root has no `XGIB`.
pub(super) fn private_entries(root: Node<'_>, sink: &mut Vec<Diagnostic>) -> Option<Vec<(String, String)>> {
    let p = root.get(super::PROP_HEADER)?;
    let mut out = Vec::new();
    for v in p.values() {
        let s = v.as_str();
        let kv = s
            .split_once('=')
            .filter(|(k, _)| !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'));
        let Some((key, value)) = kv else {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!("root node: XGIB value '{}' is not KEY=VALUE; not written", s.escape_debug()),
            ));
            continue;
        };
        out.push((key.to_string(), one_line_value(key, value, sink)));
    }
    Some(out)
}

/// `value` as one header line can hold it: line breaks and control characters made spaces and
/// `\]` (which would end the entry) made `]`, reported.
fn one_line_value(key: &str, value: &str, sink: &mut Vec<Diagnostic>) -> String {
    let (mut clean, broken) = legacy::one_line(value);
    while clean.contains("\\]") {
        clean = clean.replace("\\]", "]");
    }
    if broken || clean.len() != value.len() {
        sink.push(Diagnostic::warning(
            codes::LOSSY_PROPERTY,
            format!(
                "header {key}: line breaks, control characters or '\\]' cannot be written in a GIB value; written as {key}={clean}"
            ),
        ));
    }
    clean
}

/// The header lines (`\\[KEY=VALUE\\]` with CRLF): the generated values at their canonical
/// places among the `private` entries (`XGIB`, from [`private_entries`]) that are kept.
pub(super) fn lines(private: Option<&[(String, String)]>, facts: &Facts, sink: &mut Vec<Diagnostic>) -> String {
    let private = private.unwrap_or_default();
    // Entries that stay as they are come back as `XGIB`; without any, the file reads back as a
    // game without `XGIB`, so it is written as one: with Tygem's full key set.
    // A repeated key's later entries are written as they are.
    let repeated = private.iter().enumerate().any(|(i, (k, _))| private[..i].iter().any(|(p, _)| p == k));
    let has_private = repeated || private.iter().any(|(key, value)| keeps_raw(facts, key, value));
    let raw_of = |key: &str| private.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());

    let mut out = String::new();
    let header = merge(
        KEYS,
        private,
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
        let value = if is_raw { value } else { one_line_value(&key, &value, sink) };
        out.push_str(&format!("\\[{key}={value}\\]\r\n"));
    }
    out
}

/// Whether the private entry `key=value` is written (in part, for a composite) as it is, rather
/// than replaced by what the facts give.
fn keeps_raw(f: &Facts, key: &str, value: &str) -> bool {
    let (entry, fields) = match key {
        "GAMEINFOMAIN" | "GAMEINFOSUB" => (key, fields::split_pairs(value)),
        "GAMETAG" => (key, fields::split_tag(value)),
        _ => return !KEYS.contains(&key) || top_value(f, key, Some(value)).is_none(),
    };
    let canon = match entry {
        "GAMEINFOMAIN" => MAIN_KEYS,
        "GAMEINFOSUB" => SUB_KEYS,
        _ => TAG_KEYS,
    };
    let raw_of = |k: &str| fields.iter().find(|x| x.key == k).map(|x| x.raw.as_str());
    fields.iter().any(|x| !canon.contains(&x.key.as_str()) || sub_value(f, entry, &x.key, raw_of(&x.key)).is_none())
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

/// Merges raw items (kept in their order) with generated ones (each at its canonical rank:
/// before the first kept raw item that comes after it in `canon`). `value(key, raw)` gives the
/// generated value of a key, `None` to keep the raw item; `default(key)` fills a canonical key
/// that has neither. A raw item that a generated value replaces is dropped rather than replaced
/// in place: the reader maps the generated item away, so its place follows from the kept items
/// alone, and a second write puts it where the first did. Returns (key, text, is_raw).
fn merge(
    canon: &[&str],
    raw: &[(String, String)],
    value: impl Fn(&str, Option<&str>) -> Option<String>,
    default: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String, bool)> {
    let raw_of = |key: &str| raw.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let generated: Vec<Option<String>> = canon.iter().map(|&c| value(c, raw_of(c))).collect();
    let replaced = |key: &str| canon.iter().position(|c| *c == key).is_some_and(|i| generated[i].is_some());
    // (item, whether it repeats a key given before): a generated value replaces only the first
    // item of its key; the repeats stay, each after the key's first line.
    let kept: Vec<(&(String, String), bool)> = raw
        .iter()
        .enumerate()
        .map(|(i, item)| (item, raw[..i].iter().any(|(k, _)| *k == item.0)))
        .filter(|((k, _), repeat)| *repeat || !replaced(k))
        .collect();
    let mut out = Vec::new();
    let mut next = 0;
    let mut add_canon = |upto: usize, out: &mut Vec<(String, String, bool)>| {
        for i in next..upto.max(next) {
            let c = canon[i];
            if kept.iter().any(|((rk, _), repeat)| rk == c && !repeat) {
                continue;
            }
            if let Some(v) = generated[i].clone().or_else(|| default(c)) {
                out.push((c.to_string(), v, false));
            }
        }
        next = next.max(upto);
    };
    for ((k, r), repeat) in &kept {
        if let Some(at) = canon.iter().position(|c| c == k) {
            // A repeat comes after its key's first line, generated or kept.
            add_canon(if *repeat { at + 1 } else { at }, &mut out);
        }
        out.push((k.clone(), r.clone(), true));
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
        "GAMEBLACKNAME" => written_name(&f.black, &f.black_rank),
        "GAMEWHITENAME" => written_name(&f.white, &f.white_rank),
        "GAMEDATE" => {
            let d = f.date?;
            (!keeps_date(raw, d)).then(|| gib_date(d))
        }
        _ => None,
    }
}

/// Whether a raw date field stays as it is: it holds the date `d` and a time of day (the reader
/// keeps only such a field in `XGIB`; one that holds the date alone is generated again).
fn keeps_date(raw: Option<&str>, d: legacy::Date) -> bool {
    raw.is_some_and(|r| fields::parse_date(r) == Some(d) && fields::only_date(r).is_none())
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
        (!keeps_date(raw, d)).then(|| fmt(d))
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
