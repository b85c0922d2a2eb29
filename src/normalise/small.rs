//! Small real-world forms: `FF`/`CA` late in the root, `SZ[19:19]`, `PL` in a move node, empty
//! game-info texts (`GN[]`) and comments (`C[]`), root properties outside the root, ranks in CJK
//! or spelled-out form, results in CJK text, setup and moves mixed in one node.

use super::{Work, codes, keys, one_line};
use crate::diag::Severity;
/// A rank as FF\[4\] usage writes it (`15k`, `4d`, `9p`), also from kanji numerals (`九段`,
/// `十五級`, `初段`); `None` when the text is not a rank.
pub(crate) fn normalize_rank(raw: &str) -> Option<String> {
    if let Some(rank) = quick_rank(raw) {
        return Some(rank);
    }
    crate::model::info::normalize_rank(raw).or_else(|| crate::model::info::normalize_rank(&kanji_digits(raw.trim())?))
}

/// The commonest ranks (`9段`, `15级`, `4단`, `P9`, `P8段`) as
/// [`crate::model::info::normalize_rank`] writes them, without its general parse: digits and
/// a unit, nothing around them. `None` for anything else (the general parse decides).
fn quick_rank(raw: &str) -> Option<String> {
    let (pro, rest) = match raw.as_bytes().first()? {
        b'P' | b'p' => (true, &raw[1..]),
        _ => (false, raw),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let n = rest[..digits].bytes().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    if !(1..=50).contains(&n) {
        return None;
    }
    let letter = match (pro, &rest[digits..]) {
        (true, "" | "段" | "단" | "d" | "D") => 'p',
        (false, "段" | "단") => 'd',
        (false, "級" | "级" | "급") => 'k',
        _ => return None,
    };
    let mut out = String::with_capacity(3);
    if n >= 10 {
        out.push(char::from(b'0' + (n / 10) as u8));
    }
    out.push(char::from(b'0' + (n % 10) as u8));
    out.push(letter);
    Some(out)
}

/// Whether writing `raw` as an FF\[4\] rank drops what it may mean: a dan rank in kanji numerals
/// without a professional mark (`九段`, `初段`) is how Japanese records write professionals and
/// amateurs alike; kifu writes `9d` and keeps the text. Digit ranks (`9段`, Fox's and Tygem's
/// amateur ranks) and marked ones (`P9段`, `九段(P)`) lose nothing.
pub(crate) fn ambiguous_rank(raw: &str) -> bool {
    let s = raw.trim();
    s.ends_with('段') && kanji_digits(s).is_some() && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// `九段` → `9段`, `十五級` → `15級`, `初段` → `1段`: the kanji number before the unit in digits.
fn kanji_digits(s: &str) -> Option<String> {
    let unit = s.find(['段', '級', '级', '단', '급'])?;
    let (num, rest) = s.split_at(unit);
    if num == "初" {
        return Some(format!("1{rest}"));
    }
    let digit = |c: char| "一二三四五六七八九".chars().position(|d| d == c).map(|i| i as u32 + 1);
    let chars: Vec<char> = num.chars().collect();
    let n = match chars.as_slice() {
        ['十'] => 10,
        [d] => digit(*d)?,
        ['十', d] => 10 + digit(*d)?,
        [t, '十'] => digit(*t)? * 10,
        [t, '十', d] => digit(*t)? * 10 + digit(*d)?,
        _ => return None,
    };
    Some(format!("{n}{rest}"))
}
use crate::model::props::{PropKind, ValueType};
use crate::model::{GameTree, PropValue};

/// `SZ[19:19]`: the side of a square board written in composed form.
pub(crate) fn square_composed(v: &str) -> Option<&str> {
    let (a, b) = v.split_once(':')?;
    (a.trim() == b.trim() && a.trim().parse::<u32>().is_ok()).then(|| a.trim())
}

/// Whether `FF` or `CA` comes after a property with text in the root (readers that decide the
/// charset from the first `CA` need it before any text; the writer puts a missing `CA` after
/// `FF`). The root properties whose values are plain ASCII (`FF`, `CA`, `GM`, `SZ`, `ST`) are no
/// text.
fn header_late(keys: impl Iterator<Item = u16>) -> bool {
    let mut text_before = false;
    for k in keys {
        if matches!(k, keys::FF | keys::CA) && text_before {
            return true;
        }
        text_before |= !matches!(k, keys::FF | keys::CA | keys::GM | keys::SZ | keys::ST);
    }
    false
}

/// Moves `FF` and `CA` to the front of the root when one comes after text (SGFC stops with
/// fatal error 73 on a `CA` that follows text it had to decode).
pub(crate) fn header_first(w: &mut Work<'_>) {
    if !header_late(w.props.iter().map(|p| p.key)) {
        return;
    }
    // Each moved to the front in turn, the properties before it shifted by one.
    let mut moved = 0;
    let mut origin = None;
    let mut names = "";
    for (key, name) in [(keys::FF, "FF"), (keys::CA, "CA")] {
        if let Some(i) = w.find_key(key) {
            w.props[moved..=i].rotate_right(1);
            origin = w.props[moved].origin;
            names = if moved == 0 { name } else { "FF and CA" };
            moved += 1;
        }
    }
    // Messages of the common repairs are joined without `format!` (they come on most reads).
    let msg = if w.wants(codes::HEADER_ORDER) {
        [names, " moved to the front of the root (readers decide the charset from it)"].concat()
    } else {
        String::new()
    };
    w.report(origin, Severity::Info, codes::HEADER_ORDER, msg);
}

/// A node holding setup (`AB`/`AW`/`AE`/`PL`) and a move, or both `B` and `W`, is split as SGFC
/// does: setup, game information and `N` first, then the move with the node's other properties
/// (comments and markup describe the position after it); in the root everything but the move
/// stays. `B` and `W` each get a node, in their order.
pub(crate) fn split(w: &mut Work<'_>) {
    let is_move = |p: &super::Prop| def(p.key).is_some_and(|d| d.kind == PropKind::Move);
    // In the root, everything but the move stays (game information, header).
    let root = w.is_root;
    let is_setup = |p: &super::Prop| matches!(p.key, keys::AB | keys::AW | keys::AE | keys::PL);
    // As SGFC does: setup, game information, root properties and N stay; the rest moves. A
    // private property keeping a game-information or root value (`XSGFDT`) stays beside it, so
    // that a second read finds the two together as the first did.
    let info_kind = |d: &crate::model::props::PropDef| matches!(d.kind, PropKind::GameInfo | PropKind::Root);
    let stays = |p: &super::Prop| {
        root || is_setup(p)
            || p.key == keys::N
            || def(p.key).is_some_and(info_kind)
            || p.ident.strip_prefix(super::PRIVATE_PREFIX).and_then(crate::model::props::lookup).is_some_and(info_kind)
    };
    let stays = |p: &super::Prop| if root { !is_move(p) } else { stays(p) };
    if w.props.iter().any(is_move) && w.props.iter().any(is_setup) {
        let origin = w.props.iter().find(|p| is_setup(p)).and_then(|p| p.origin);
        let (setup, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut w.props).into_iter().partition(stays);
        let names: Vec<String> = setup.iter().filter(|p| is_setup(p)).map(|p| p.ident.to_string()).collect();
        w.props = setup;
        w.after.push(rest);
        let msg =
            format!("setup ({}) and a move in one node: split into a setup node and the move's node", names.join(", "));
        w.report(origin, Severity::Warning, codes::NODE_SPLIT, msg);
    }
    let last = w.after.last().map_or(&w.props, |l| l);
    let b = last.iter().position(|p| p.key == keys::B);
    let wh = last.iter().position(|p| p.key == keys::W);
    if let (Some(b), Some(wh)) = (b, wh) {
        let mut node = match w.after.pop() {
            Some(n) => n,
            None => std::mem::take(&mut w.props),
        };
        let second = if b < wh { "W" } else { "B" };
        let origin = node.iter().find(|p| p.ident == second).and_then(|p| p.origin);
        let k = node.iter().position(|p| p.ident == second).unwrap_or(0);
        let moved = node.remove(k);
        let timing = if second == "W" { ["WL", "OW"] } else { ["BL", "OB"] };
        let mut next = vec![moved];
        while let Some(t) = node.iter().position(|p| timing.contains(&&*p.ident)) {
            next.push(node.remove(t));
        }
        if w.props.is_empty() {
            w.props = node;
        } else {
            w.after.push(node);
        }
        w.after.push(next);
        let first = if second == "W" { "B" } else { "W" };
        let msg = format!("{first} and {second} in one node: {second} moved to a node of its own after {first}");
        w.report(origin, Severity::Warning, codes::NODE_SPLIT, msg);
    }
}

/// Repairs the small forms of the node.
pub(crate) fn repair(w: &mut Work<'_>, tree: &GameTree) {
    let mut i = 0;
    while i < w.props.len() {
        let origin = w.props[i].origin;
        // Most properties are none of the forms below: only the blank-text check applies.
        let key = w.props[i].key;
        let root_kind = !w.is_root && def(key).is_some_and(|d| d.kind == PropKind::Root);
        let looked_at = matches!(
            key,
            keys::SZ | keys::PL | keys::BR | keys::WR | keys::RE | keys::DT | keys::C | keys::N | keys::AP
        );
        if !looked_at && !root_kind {
            if empty_info_text(&w.props[i]) {
                let ident = w.props[i].ident.clone();
                remove_empty(w, i, &ident, origin);
            } else {
                i += 1;
            }
            continue;
        }
        let first = w.props[i].first();
        // A rank already in its FF[4] form (`9d`, most of them) is left as it is.
        if matches!(key, keys::BR | keys::WR) && crate::model::info::is_written_rank(first) {
            i += 1;
            continue;
        }
        let ident = w.props[i].ident.clone();
        let raw = w.props[i].first_text();
        match key {
            keys::SZ if w.is_root => {
                if let Some(side) = square_composed(&raw).map(str::to_string) {
                    w.props[i].values = vec![PropValue::new(side.clone())].into();
                    let msg = format!("SZ[{raw}]: a square board is written SZ[{side}]");
                    w.report(origin, Severity::Info, codes::OLD_VALUE, msg);
                }
            }
            // FF[4]: AP is composed, name:version. A name without a version is written with an
            // empty version (nothing invented, the name kept whole); an empty AP names nothing.
            keys::AP if w.is_root && w.props[i].values.len() == 1 && !w.props[i].values.any_composed() => {
                if raw.trim().is_empty() {
                    w.props.remove(i);
                    w.report(origin, Severity::Info, codes::EMPTY_REMOVED, "AP[] names no application; removed".into());
                    continue;
                }
                w.props[i].values = super::Values::One(PropValue::composed(&raw, ""));
                let msg = format!("AP[{raw}] written AP[{raw}:] (FF[4]: AP[name:version]; the version is not known)");
                w.report(origin, Severity::Info, codes::AP_VERSION, msg);
            }
            keys::PL if w.props.iter().any(|p| matches!(p.key, keys::B | keys::W)) => {
                w.props.remove(i);
                let msg =
                    format!("PL[{raw}] in a move node removed (the move says who plays; FF[4] keeps PL to setup)");
                w.report(origin, Severity::Info, codes::MOVE_PL, msg);
                continue;
            }
            keys::BR | keys::WR if !super::blank(&raw) => {
                if let Some(rank) = normalize_rank(&raw).filter(|r| *r != raw) {
                    let kept = ambiguous_rank(&raw);
                    let msg = if !w.wants(codes::RANK) {
                        String::new()
                    } else if kept {
                        let private = super::private(&ident);
                        [
                            &*ident,
                            "[",
                            &raw,
                            "] written ",
                            &ident,
                            "[",
                            &rank,
                            "]; the text kept in ",
                            &private,
                            " (a bare kanji dan rank may be a professional's: nothing in it tells)",
                        ]
                        .concat()
                    } else {
                        [&*ident, "[", &raw, "] written ", &ident, "[", &rank, "]"].concat()
                    };
                    w.props[i].values = super::Values::One(PropValue::new(rank));
                    if kept {
                        w.keep_private(&ident, vec![PropValue::new(raw.clone())], i);
                    }
                    // A bare kanji dan rank written as an amateur's is a guess: a warning.
                    let severity = if kept { Severity::Warning } else { Severity::Info };
                    w.report(origin, severity, codes::RANK, msg);
                }
            }
            keys::RE if !super::blank(&raw) => {
                if let Some(re) = super::dialect::result_from_text(&raw) {
                    w.props[i].values = vec![PropValue::new(re.clone())].into();
                    w.keep_private("RE", vec![PropValue::new(raw.clone())], i);
                    let msg = format!("RE[{raw}] written RE[{re}]; the text kept in {}", super::private("RE"));
                    w.report(origin, Severity::Info, codes::RESULT_TEXT, msg);
                } else if not_a_result(&raw) {
                    // No FF[4] result says what the text says (`B+Illegal`, `john wins`): the
                    // text is kept, under a private identifier (among the values of one already
                    // there), and no result invented.
                    let new = super::private("RE");
                    let msg = format!("RE[{raw}] is no FF[4] result and says none exactly; kept as {new}");
                    w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
                    if w.find(&new).is_some() {
                        let values = w.props.remove(i).values.to_vec();
                        w.keep_private("RE", values, i.saturating_sub(1));
                        continue;
                    }
                    w.props[i].rename(new);
                }
            }
            keys::DT if !super::blank(&raw) && !super::is_iso_date(&raw) => {
                // What the old-form repair could not read as a date is kept, not guessed; beside
                // an `XSGFDT` already there (a second DT, a dropped time), among its values.
                let new = super::private("DT");
                let msg = format!("DT[{raw}] is no FF[4] date and none can be read from it; kept as {new}");
                if w.find(&new).is_some() {
                    let values = w.props.remove(i).values.to_vec();
                    w.keep_private("DT", values, i.saturating_sub(1));
                    w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
                    continue;
                }
                w.props[i].rename(new.clone());
                w.report(origin, Severity::Warning, codes::VALUE_KEPT, msg);
            }
            // A comment or name of nothing but blanks and line breaks says nothing: removed, as
            // SGFC removes it (its Text check counts what is left once trailing blanks go:
            // parse.c, Check_Text), and called blank when it is not empty.
            keys::C | keys::N if super::blank(&raw) && w.props[i].values.len() == 1 => {
                w.props.remove(i);
                let what = if raw.is_empty() { "is empty" } else { "holds only blanks or line breaks" };
                let msg = one_line([&*ident, "[", &raw, "] ", what, "; removed"].concat());
                w.report(origin, Severity::Info, codes::EMPTY_REMOVED, msg);
                continue;
            }
            _ if root_kind => {
                let id = &*ident;
                let in_root: Option<Vec<PropValue>> =
                    tree.root().get(id).map(|p| p.values().map(|v| v.to_owned_value()).collect());
                if in_root == Some(w.props[i].values.to_vec()) {
                    w.props.remove(i);
                    let msg = format!("{ident}[{raw}] outside the root means nothing (the root has the same); removed");
                    w.report(origin, Severity::Info, codes::ROOT_PROPERTY, msg);
                    continue;
                }
                let new = super::private(id);
                w.props[i].rename(new.clone());
                let msg = format!(
                    "{ident}[{raw}] is a root property outside the root, where it means nothing; kept as {new}"
                );
                w.report(origin, Severity::Warning, codes::ROOT_PROPERTY, msg);
            }
            _ => {}
        }
        if empty_info_text(&w.props[i]) {
            remove_empty(w, i, &ident, origin);
            continue;
        }
        i += 1;
    }
}

/// Whether `raw` is not an FF\[4\] result (`B+3.5`, `W+R`, `0`, `Void`, `?`, without blanks
/// around it).
pub(crate) fn not_a_result(raw: &str) -> bool {
    crate::model::GameResult::from_sgf(raw).is_none() || raw.trim() != raw
}

/// The table entry of a [`super::Prop::key`].
#[inline]
fn def(key: u16) -> Option<&'static crate::model::props::PropDef> {
    crate::model::props::PROPS.get(usize::from(key))
}

/// A game-info text property whose values are all blank (`GN[]`).
fn empty_info_text(p: &super::Prop) -> bool {
    def(p.key)
        .is_some_and(|d| d.kind == PropKind::GameInfo && matches!(d.value, ValueType::SimpleText | ValueType::Text))
        && p.values.all_blank()
}

/// Removes the blank game-info text at `i` (read as `ident`), reported.
fn remove_empty(w: &mut Work<'_>, i: usize, ident: &str, origin: Option<usize>) {
    let mut msg = String::new();
    if w.wants(codes::EMPTY_REMOVED) {
        msg.push_str(ident);
        for v in w.props[i].values.texts() {
            msg.push('[');
            msg.push_str(v);
            msg.push(']');
        }
        msg.push_str(" is empty; removed");
    }
    w.props.remove(i);
    w.report(origin, Severity::Info, codes::EMPTY_REMOVED, msg);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_ranks_are_the_general_parse() {
        let units = ["", "段", "단", "級", "级", "급", "d", "D", "k", "p", " 段", "段 ", "dan", "*", "段*"];
        for pre in ["", "P", "p", " ", "PP", "十"] {
            for num in ["0", "1", "9", "09", "10", "15", "50", "51", "99", "100", "", "1.5"] {
                for unit in units {
                    let raw = format!("{pre}{num}{unit}");
                    let general = crate::model::info::normalize_rank(&raw)
                        .or_else(|| crate::model::info::normalize_rank(&kanji_digits(raw.trim())?));
                    if let Some(quick) = quick_rank(&raw) {
                        assert_eq!(Some(quick), general, "{raw:?}");
                    }
                    assert_eq!(normalize_rank(&raw), general, "{raw:?}");
                }
            }
        }
        assert_eq!(quick_rank("9段").as_deref(), Some("9d"));
        assert_eq!(quick_rank("P9").as_deref(), Some("9p"));
        assert_eq!(quick_rank("15级").as_deref(), Some("15k"));
    }
}
