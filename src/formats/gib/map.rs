//! From what the reader found to the model: the header entries become SGF properties (players,
//! ranks, komi, handicap stones, result, date, time, names), the records become move nodes, and
//! everything SGF has no property for goes into the private `XGIB` root property.

use super::codes;
use super::fields::{self, Field};
use super::read::Entry;
use super::read::Raw;
use super::result;
use crate::diag::{Diagnostic, Sink};
use crate::go::handicap::tygem_layout;
use crate::model::info::format_real;
use crate::model::{BoardSize, Color, GameResult, GameTree, TreeBuilder, WinKind};

/// The header entries by key, with the composite values split.
struct Header<'a> {
    entries: &'a [Entry],
    main: Vec<Field>,
    sub: Vec<Field>,
    tag: Vec<Field>,
}

impl<'a> Header<'a> {
    fn entry(&self, key: &str) -> Option<&'a Entry> {
        let entries = self.entries;
        entries.iter().find(|e| e.key == key).or_else(|| entries.iter().find(|e| canonical(&e.key) == key))
    }
    fn get(&self, key: &str) -> Option<&'a str> {
        self.entry(key).map(|e| e.value.as_str())
    }
    fn offset(&self, key: &str) -> Option<usize> {
        self.entry(key).map(|e| e.offset)
    }
}

/// The classic key of a header entry: modern Tygem records (2020s) write `INFOMAIN` and
/// `INFOSUB` for `GAMEINFOMAIN` and `GAMEINFOSUB`.
fn canonical(key: &str) -> &str {
    match key {
        "INFOMAIN" => "GAMEINFOMAIN",
        "INFOSUB" => "GAMEINFOSUB",
        k => k,
    }
}

/// A login id or nick that an old Tygem client stored as UTF-16LE code units read as bytes
/// pairs (`敍獮楫t` for `Menskit`), restored; `None` when the value is not such a mangling.
pub(super) fn unmangle(value: &str) -> Option<String> {
    let mut out = String::new();
    let mut mangled = false;
    for c in value.chars() {
        let u = c as u32;
        if u < 0x80 {
            out.push(c);
            continue;
        }
        let (lo, hi) = (u & 0xFF, u >> 8);
        if u > 0xFFFF || !(0x20..0x7F).contains(&lo) || !(0x20..0x7F).contains(&hi) {
            return None;
        }
        mangled = true;
        out.push(lo as u8 as char);
        out.push(hi as u8 as char);
    }
    mangled.then_some(out)
}

/// A player named by the `*USERINFO` record (or `GAMETAG`): the nickname (the name Tygem
/// shows, and writes into `GAME*NAME` in the files that have it), else the login id, restored
/// when mangled; values still mangled beyond repair are not names. Returns the name and where
/// it came from (`WUSERINFO WNICK`).
fn user_name(h: &Header<'_>, color: Color) -> Option<(String, &'static str)> {
    let (info_key, id_key, nick_key, tag_id, tag_nick) = match color {
        Color::Black => ("BUSERINFO", "BID", "BNICK", "M", "B"),
        Color::White => ("WUSERINFO", "WID", "WNICK", "I", "A"),
    };
    let info = fields::split_pairs(h.get(info_key).unwrap_or(""));
    let usable = |v: &str| -> Option<String> {
        let v = v.trim();
        if v.is_empty() || v.contains('\u{FFFD}') {
            return None;
        }
        match unmangle(v) {
            Some(plain) => Some(plain),
            // Other non-ASCII text is a real name only in a file whose charset says so; the
            // mangled ids of Global files are CJK-looking noise.
            None if v.is_ascii() || h.get("GIBOKIND").is_some_and(|k| !k.eq_ignore_ascii_case("Global")) => {
                Some(v.to_string())
            }
            None => None,
        }
    };
    let (info_nick, info_id, gametag_nick, gametag_id) = match color {
        Color::Black => ("BUSERINFO's BNICK", "BUSERINFO's BID", "GAMETAG's B (nickname)", "GAMETAG's M (id)"),
        Color::White => ("WUSERINFO's WNICK", "WUSERINFO's WID", "GAMETAG's A (nickname)", "GAMETAG's I (id)"),
    };
    [
        (fields::get(&info, nick_key), info_nick),
        (fields::get(&info, id_key), info_id),
        (fields::get(&h.tag, tag_nick), gametag_nick),
        (fields::get(&h.tag, tag_id), gametag_id),
    ]
    .into_iter()
    .find_map(|(v, from)| v.and_then(usable).map(|n| (n, from)))
}

/// Which header entries and sub-fields went into SGF properties (they are left out of `XGIB`).
#[derive(Default)]
struct Mapped {
    keys: Vec<&'static str>,
    main: Vec<&'static str>,
    sub: Vec<&'static str>,
    tag: Vec<&'static str>,
}

pub(super) fn build(raw: &Raw, sink: &mut Sink) -> GameTree {
    let h = Header {
        entries: &raw.entries,
        main: fields::split_pairs(composite_value(&raw.entries, "GAMEINFOMAIN")),
        sub: fields::split_pairs(composite_value(&raw.entries, "GAMEINFOSUB")),
        tag: fields::split_tag(raw.entries.iter().find(|e| e.key == "GAMETAG").map_or("", |e| &e.value)),
    };
    let mut m = Mapped { keys: vec!["GIBOKIND"], main: vec!["GBKIND"], ..Mapped::default() };
    let mut b = TreeBuilder::new();
    let root = b.root();
    b.add_prop(root, "GM", ["1"]);
    b.add_prop(root, "SZ", ["19"]);

    // Players and ranks: GAME*NAME, never the mangled id fields.
    for (color, name_key, nick_key, level_key, lv_sub, tag_level, pn, rn) in [
        (Color::Black, "GAMEBLACKNAME", "GAMEBLACKNICK", "GAMEBLACKLEVEL", "BLV", "N", "PB", "BR"),
        (Color::White, "GAMEWHITENAME", "GAMEWHITENICK", "GAMEWHITELEVEL", "WLV", "L", "PW", "WR"),
    ] {
        let (name, mut rank) = match h.get(name_key) {
            Some(v) => {
                m.keys.push(name_key);
                fields::split_name(v)
            }
            None => match h.get(nick_key) {
                Some(nick) if !nick.trim().is_empty() => {
                    sink.push(Diagnostic::warning(
                        codes::NAME_FROM_NICK,
                        format!("{name_key} is missing; the {} name comes from {nick_key}", color_word(color)),
                    ));
                    (nick.trim().to_string(), None)
                }
                _ => match user_name(&h, color) {
                    Some((n, from)) => {
                        sink.push(Diagnostic::info(
                            codes::NAME_FROM_USERINFO,
                            format!(
                                "{name_key} is missing; the {} name comes from {from} (the record, with the \
                                 login id, kept in XGIB)",
                                color_word(color)
                            ),
                        ));
                        (n, None)
                    }
                    None => (String::new(), None),
                },
            },
        };
        if rank.is_none() {
            let info_key = if color == Color::Black { "BUSERINFO" } else { "WUSERINFO" };
            let info = fields::split_pairs(h.get(info_key).unwrap_or(""));
            rank = h
                .get(level_key)
                .and_then(|l| {
                    crate::model::info::normalize_rank(l)
                        .or_else(|| fields::int(Some(l)).and_then(fields::level_to_rank))
                })
                .or_else(|| fields::int(fields::get(&info, lv_sub)).and_then(fields::level_to_rank))
                .or_else(|| fields::int(fields::get(&h.tag, tag_level)).and_then(fields::level_to_rank));
        }
        if !name.is_empty() {
            b.add_prop(root, pn, [name]);
        }
        if let Some(r) = rank {
            b.add_prop(root, rn, [r]);
        }
    }

    // Komi: GONGJE/10, else DUM/10 (INFOMAIN, then GAME*, then GAMETAG).
    let gongje = fields::int(fields::get(&h.main, "GONGJE"))
        .or_else(|| fields::int(h.get("GAMEGONGJE")))
        .or_else(|| fields::int(fields::get(&h.tag, "G")));
    let dum = fields::int(fields::get(&h.main, "DUM"))
        .or_else(|| fields::int(h.get("GAMEDUM")))
        .or_else(|| fields::int(fields::get(&h.tag, "D")));
    let komi = match (gongje, dum) {
        (Some(g), _) if g != 0 => Some(g),
        (_, Some(d)) if d != 0 => Some(d),
        (g, d) => g.or(d),
    };
    // A komi beyond ±MAX_KOMI is none (the rule of every reader): reported, the values kept.
    let komi = komi.filter(|&k| {
        let fits = (k as f64 / 10.0).abs() <= crate::formats::legacy::MAX_KOMI;
        if !fits {
            let off = h.offset("GAMEINFOMAIN").or(h.offset("GAMEGONGJE")).unwrap_or(0);
            sink.push_at(
                off,
                Diagnostic::warning(
                    codes::KOMI_RANGE,
                    format!(
                        "komi {} is beyond ±{} points; no KM, the values kept in XGIB",
                        format_real(k as f64 / 10.0),
                        crate::formats::legacy::MAX_KOMI
                    ),
                ),
            );
        }
        fits
    });
    if let Some(k) = komi {
        b.add_prop(root, "KM", [format_real(k as f64 / 10.0)]);
        m.keys.extend(["GAMEGONGJE", "GAMEDUM", "GAMECONDITION"]);
        m.main.extend(["GONGJE", "DUM"]);
        m.tag.extend(["G", "D"]);
    }

    // Handicap: INI gives the count; GCDT and GAMETAG R repeat it.
    let gcdt = fields::int(fields::get(&h.main, "GCDT"));
    let tag_r = fields::int(fields::get(&h.tag, "R"));
    let count = raw.handicap.map(|(n, _)| n).or(gcdt).or(tag_r).unwrap_or(0);
    for (what, v) in [("GCDT", gcdt), ("GAMETAG R", tag_r)] {
        if let Some(v) = v {
            if v != count {
                sink.push(Diagnostic::warning(
                    codes::HANDICAP,
                    format!("{what} says handicap {v} but the INI record says {count}; {count} is used"),
                ));
            }
        }
    }
    let count = if crate::formats::legacy::handicap_fits(count, BoardSize::square(19)) {
        m.main.push("GCDT");
        m.tag.push("R");
        count
    } else {
        // Not a handicap at all: no HA, the header's values stay in XGIB.
        let off = raw.handicap.map_or(0, |(_, o)| o);
        sink.push_at(
            off,
            Diagnostic::warning(
                codes::HANDICAP,
                format!("handicap {count} is out of range (more stones than a 19x19 board has points); no HA"),
            ),
        );
        0
    };
    if count >= 2 {
        b.add_prop(root, "HA", [count.to_string()]);
        match u32::try_from(count).ok().and_then(|n| tygem_layout(BoardSize::square(19), n)) {
            Some(points) => b.add_prop(root, "AB", points.into_iter().filter_map(|p| p.to_sgf())),
            None => {
                let off = raw.handicap.map_or(0, |(_, o)| o);
                sink.push_at(
                    off,
                    Diagnostic::warning(
                        codes::HANDICAP,
                        format!("no stone layout for handicap {count}; HA kept, no AB"),
                    ),
                );
            }
        }
    }

    // Result: GRLT (or GAMETAG W) with ZIPSU as margin; the localised text only as a fallback.
    let zipsu = fields::int(fields::get(&h.main, "ZIPSU"))
        .or_else(|| fields::int(h.get("GAMEZIPSU")))
        .or_else(|| fields::int(fields::get(&h.tag, "Z")));
    let code = fields::int(fields::get(&h.main, "GRLT")).or_else(|| fields::int(fields::get(&h.tag, "W")));
    let outcome = match code {
        Some(c) => match result::from_code(c, zipsu) {
            // A zero margin (`ZIPSU:0`) is told from "margin not given" by the text
            // (`white 0 win` for `W+0`).
            Some(Some(GameResult::Win { winner, how: WinKind::Points })) => {
                let text = h.get("GAMERESULT").and_then(result::from_text);
                Some(match text {
                    Some(GameResult::Win { winner: w, how: WinKind::Score(x) }) if w == winner && x == 0.0 => {
                        GameResult::Win { winner, how: WinKind::Score(0.0) }
                    }
                    _ => GameResult::Win { winner, how: WinKind::Points },
                })
            }
            Some(r) => r,
            None => {
                let off = h.offset("GAMEINFOMAIN").or(h.offset("GAMETAG")).unwrap_or(0);
                let text = h.get("GAMERESULT").and_then(result::from_text);
                sink.push_at(
                    off,
                    Diagnostic::warning(
                        codes::UNKNOWN_RESULT,
                        format!(
                            "unknown result code {c}; {}",
                            text.as_ref().map_or("no RE written".into(), |r| format!("RE[{r}] from GAMERESULT"))
                        ),
                    ),
                );
                text
            }
        },
        None => h.get("GAMERESULT").and_then(result::from_text),
    };
    if let Some(r) = outcome {
        b.add_prop(root, "RE", [r.to_sgf()]);
        m.keys.extend(["GAMERESULT", "GAMEZIPSU"]);
        m.main.extend(["GRLT", "ZIPSU"]);
        m.tag.extend(["W", "Z"]);
    }

    // Date: GAMETAG C, GDATE, then the localised GAMEDATE. The time of day stays in XGIB.
    let date = fields::get(&h.tag, "C")
        .and_then(fields::parse_date)
        .or_else(|| fields::get(&h.sub, "GDATE").and_then(fields::parse_date))
        .or_else(|| h.get("GAMEDATE").and_then(fields::parse_date));
    if let Some(d) = date {
        b.add_prop(root, "DT", [fields::sgf_date(d)]);
        // A date field that holds no time of day says nothing beyond DT.
        if h.get("GAMEDATE").and_then(fields::only_date) == Some(d) {
            m.keys.push("GAMEDATE");
        }
        if fields::get(&h.sub, "GDATE").and_then(fields::only_date) == Some(d) {
            m.sub.push("GDATE");
        }
        if fields::get(&h.tag, "C").and_then(fields::only_date) == Some(d) {
            m.tag.push("C");
        }
    }

    // Time: GTIME main-byoyomi-periods, else the reversed GAMETAG T byoyomi-periods-main.
    let gtime = fields::get(&h.main, "GTIME").and_then(|v| three(v).map(|[a, b, c]| (a, b, c)));
    let ttime = fields::get(&h.tag, "T").and_then(|v| three(v).map(|[b, p, main]| (main, b, p)));
    if let Some((main, byo, periods)) = gtime.or(ttime) {
        b.add_prop(root, "TM", [main.to_string()]);
        if byo > 0 && periods > 0 {
            b.add_prop(root, "OT", [format!("{periods}x{byo} byo-yomi")]);
        }
        m.keys.push("GAMETIME");
        m.main.push("GTIME");
        m.tag.push("T");
    }

    // Game name, place, comment.
    for (key, sub, prop) in [("GAMENAME", "GNAME", "GN"), ("GAMEPLACE", "GPLC", "PC"), ("GAMECOMMENT", "GCMT", "GC")] {
        let Some(v) = h.get(key).or_else(|| fields::get(&h.sub, sub)) else { continue };
        let v = v.trim();
        if v.is_empty() {
            continue;
        }
        if v.contains('\u{FFFD}') {
            sink.push_at(
                h.offset(key).unwrap_or(0),
                Diagnostic::warning(
                    codes::DAMAGED_TEXT,
                    format!("{key} holds U+FFFD (damaged by an earlier conversion); kept in XGIB, no {prop}"),
                ),
            );
            continue;
        }
        b.add_prop(root, prop, [v.to_string()]);
        m.keys.push(key);
        m.sub.push(sub);
    }

    // Private: what SGF has no property for.
    let private = private_entries(&h, &m);
    if !private.is_empty() {
        b.add_prop(root, super::PROP_HEADER, private);
    }
    if let Some(g) = &raw.game_line {
        b.add_prop(root, super::PROP_GAME_LINE, [g.clone()]);
    }
    if !raw.kept.is_empty() {
        b.add_prop(root, super::PROP_RECORDS, raw.kept.iter().cloned());
    }
    if let Some(t) = &raw.ini_text {
        b.add_prop(root, super::PROP_INI_TEXT, [t.clone()]);
    }

    // Moves: STO colours are explicit; a SKI pass takes the colour after the previous record.
    let mut next = if count >= 2 { Color::White } else { Color::Black };
    let mut cur = root;
    for (r, _) in &raw.records {
        let color = r.color.unwrap_or(next);
        cur = b.add_child(cur);
        let value = r.point.and_then(|p| p.to_sgf()).unwrap_or_default();
        b.add_prop(cur, color.as_sgf(), [value]);
        next = color.opponent();
    }
    if raw.records.is_empty() && count >= 2 {
        b.add_prop(root, "PL", ["W"]);
    }
    b.build()
}

/// The value of a composite entry, under its classic or its modern key.
fn composite_value<'e>(entries: &'e [Entry], key: &str) -> &'e str {
    // The first entry under either spelling (`INFOMAIN`, `GAMEINFOMAIN`): the first is used.
    entries.iter().find(|e| canonical(&e.key) == key).map_or("", |e| &e.value)
}

fn color_word(c: Color) -> &'static str {
    if c == Color::Black { "black" } else { "white" }
}

/// Three non-negative integers separated by `-` (`600-30-3`).
fn three(v: &str) -> Option<[u64; 3]> {
    let mut it = v.trim().split('-').map(|p| p.trim().parse::<u64>().ok());
    let out = [it.next()??, it.next()??, it.next()??];
    it.next().is_none().then_some(out)
}

/// The `XGIB` values: every header entry not mapped to SGF, in file order; the composite
/// entries keep only their unmapped sub-fields (and are left out when none is left). A key
/// given more than once is kept whole every time, its first entry included: the writer writes
/// the first (its values generated again) and then the others as they are, so a repeated key
/// keeps its place and its repeats through any number of rewrites.
fn private_entries(h: &Header<'_>, m: &Mapped) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let times = |key: &str| h.entries.iter().filter(|e| canonical(&e.key) == key).count();
    for e in h.entries {
        let key = canonical(&e.key);
        let first = !seen.contains(&key);
        seen.push(key);
        if times(key) > 1 {
            out.push(format!("{key}={}", e.value));
            continue;
        }
        if first && m.keys.contains(&e.key.as_str()) {
            continue;
        }
        let value = match (first, key) {
            (true, "GAMEINFOMAIN") => keep(&h.main, &m.main),
            (true, "GAMEINFOSUB") => keep(&h.sub, &m.sub),
            (true, "GAMETAG") => keep(&h.tag, &m.tag),
            _ => Some(e.value.clone()),
        };
        let Some(value) = value else { continue };
        out.push(format!("{key}={value}"));
    }
    out
}

fn keep(fields: &[Field], mapped: &[&str]) -> Option<String> {
    let kept: Vec<&str> = fields.iter().filter(|f| !mapped.contains(&f.key.as_str())).map(|f| f.raw.as_str()).collect();
    (!kept.is_empty()).then(|| kept.join(","))
}
