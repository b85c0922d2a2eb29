//! What the GIB header says, prepared once from the game's root: the SGF properties as GIB can
//! hold them, and, for what they lack, what the `XGIB` entries give as the reader takes them.

use super::codes;
use super::fields;
use super::map;
use super::read::{Entry, Raw};
use super::result;
use crate::diag::{Diagnostic, Sink};
use crate::formats::legacy;
use crate::model::info::format_real;
use crate::model::{GameResult, GameTree, WinKind};

/// What the header says, prepared once.
pub(super) struct Facts {
    pub(super) kind: String,
    pub(super) black: Option<String>,
    pub(super) white: Option<String>,
    pub(super) black_rank: Option<String>,
    pub(super) white_rank: Option<String>,
    pub(super) komi10: Option<i64>,
    pub(super) handicap: u32,
    pub(super) result: Option<(i64, i64, GameResult)>,
    pub(super) date: Option<legacy::Date>,
    pub(super) time: Option<(u64, u64, u64)>,
    pub(super) name: Option<String>,
    pub(super) place: Option<String>,
    pub(super) comment: Option<String>,
    pub(super) moves: usize,
}

/// `GAMEBLACKNAME` / `GAMEWHITENAME`: `name (RANK)`, or the name alone.
pub(super) fn written_name(n: &Option<String>, r: &Option<String>) -> Option<String> {
    match (n, r) {
        (None, None) => None,
        (n, Some(r)) => Some(format!("{} ({})", n.as_deref().unwrap_or(""), fields::rank_display(r)).trim().into()),
        // A space after a final `)` keeps readers that split `name (rank)` at a closing
        // parenthesis from taking `GNU Go (seed 5)` for a rank; kifu trims it.
        (Some(n), None) if n.ends_with(')') => Some(format!("{n} ")),
        (Some(n), None) => Some(n.clone()),
    }
}

/// What the game says, and, for what it does not say (or says in a form GIB cannot hold), what
/// the `private` entries say as the reader takes them (a level for a player without `BR`, a
/// date or a time of a game without `DT` or `TM`, …): those entries are written, so the file
/// reads back with it, and writing it now is what makes one write final. Each such value is
/// reported.
pub(super) fn facts(
    game: &GameTree,
    kind: &str,
    handicap: u32,
    moves: usize,
    private: Option<&[(String, String)]>,
    sink: &mut Vec<Diagnostic>,
) -> Facts {
    let root = game.root();
    let mut f = facts_from(&|id| root.value(id).map(str::to_string), kind, handicap, moves, sink);
    split_rank(&mut f.black, &mut f.black_rank, "PB", sink);
    split_rank(&mut f.white, &mut f.white_rank, "PW", sink);
    let Some(private) = private else { return f };
    let name = |n: &Option<String>, r: &Option<String>| written_name(n, r).unwrap_or_default();
    // The reader's view of the header as it will be written, but for the values the game
    // lacks: the names as generated, then the private entries.
    let mut entries = vec![
        ("GAMEBLACKNAME".to_string(), name(&f.black, &f.black_rank)),
        ("GAMEWHITENAME".into(), name(&f.white, &f.white_rank)),
    ];
    entries.extend(private.iter().cloned());
    let raw = Raw {
        entries: entries.into_iter().map(|(key, value)| Entry { key, value, offset: 0 }).collect(),
        found: true,
        ..Raw::default()
    };
    let back = map::build(&raw, &mut Sink::new());
    let back_root = back.root();
    let b = facts_from(&|id| back_root.value(id).map(str::to_string), kind, handicap, moves, &mut Vec::new());
    let mut report = |props: &[&str]| {
        let shown: Vec<String> =
            props.iter().filter_map(|p| back_root.value(p).map(|v| format!("{p}[{}]", v.escape_debug()))).collect();
        sink.push(Diagnostic::warning(
            codes::LOSSY_PROPERTY,
            format!("root node: {} from the XGIB entries written (the reader takes it from them)", shown.join("")),
        ));
    };
    if f.black_rank.is_none() && b.black_rank.is_some() {
        report(&["PB", "BR"]);
        (f.black, f.black_rank) = (b.black, b.black_rank);
    }
    if f.white_rank.is_none() && b.white_rank.is_some() {
        report(&["PW", "WR"]);
        (f.white, f.white_rank) = (b.white, b.white_rank);
    }
    macro_rules! fill {
        ($($field:ident: $($prop:literal)+;)*) => {$(
            if f.$field.is_none() && b.$field.is_some() {
                report(&[$($prop),+]);
                f.$field = b.$field;
            }
        )*};
    }
    fill! {
        komi10: "KM";
        result: "RE";
        date: "DT";
        time: "TM" "OT";
        name: "GN";
        place: "PC";
        comment: "GC";
    }
    f
}

/// A name without a rank that ends in one (`PB[Lee (4d)]`, no `BR`) reads back as the name and
/// the rank: it is written so, and reported.
fn split_rank(name: &mut Option<String>, rank: &mut Option<String>, id: &str, sink: &mut Vec<Diagnostic>) {
    let Some(n) = name.as_deref().filter(|_| rank.is_none()) else { return };
    let (plain, Some(r)) = fields::split_name(n) else { return };
    let Some(r) = legacy::rank_to_sgf(&r).map(|s| legacy::rank_without_mark(&s).0.to_string()) else { return };
    sink.push(Diagnostic::warning(
        codes::LOSSY_PROPERTY,
        format!("root node: {id}[{n}] written as the name '{plain}' with the rank {r} (the reader splits it so)"),
    ));
    *name = Some(plain).filter(|p| !p.is_empty());
    *rank = Some(r);
}

/// The facts from the root properties `prop` gives (trimmed; empty values are none).
fn facts_from(
    prop: &dyn Fn(&str) -> Option<String>,
    kind: &str,
    handicap: u32,
    moves: usize,
    sink: &mut Vec<Diagnostic>,
) -> Facts {
    let text = |id: &str| prop(id).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    let komi10 = text("KM").and_then(|k| match k.parse::<f64>() {
        // A komi beyond ±MAX_KOMI reads back as none (the readers' rule): not written.
        Ok(x) if x.is_finite() && x.abs() <= crate::formats::legacy::MAX_KOMI => {
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
    // A text written whole as a header value: one line, as the reader reads it back.
    let mut written = |id: &str| {
        let raw = prop(id)?;
        let (line, broken) = legacy::one_line(&raw);
        if broken {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!("root node: {id}: line breaks or control characters written as spaces"),
            ));
        }
        Some(line.trim().to_string()).filter(|v| !v.is_empty())
    };
    let (black, white) = (written("PB"), written("PW"));
    let (name, place, comment) = (written("GN"), written("PC"), written("GC"));
    Facts {
        kind: kind.to_string(),
        black,
        white,
        black_rank,
        white_rank,
        komi10,
        handicap,
        result,
        date,
        time,
        name,
        place,
        comment,
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
    if (byo == 0) != (periods == 0) {
        // The reader makes an OT only of both (`GTIME:600-0-3` reads back as TM alone).
        let o = ot.as_deref().unwrap_or("");
        sink.push(Diagnostic::warning(
            codes::LOSSY_TIME,
            format!("root node: OT[{o}] has no byo-yomi GIB can hold (periods and seconds both needed); not written"),
        ));
        return Some((main, 0, 0));
    }
    Some((main, byo, periods))
}
