//! Small real-world forms: `FF`/`CA` late in the root, `SZ[19:19]`, `PL` in a move node, empty
//! game-info texts (`GN[]`), ranks in CJK or spelled-out form, results in CJK text.

use super::{Work, codes};
use crate::diag::Severity;
use crate::model::info::normalize_rank;
use crate::model::props::{PropKind, ValueType};
use crate::model::{GameTree, Node, Property, PropValue};

/// Whether property `p` of node `n` is one this family repairs.
pub(crate) fn needs(p: Property<'_>, n: Node<'_>) -> bool {
    let v = p.first().unwrap_or("");
    match p.ident() {
        "SZ" => n.is_root() && square_composed(v).is_some(),
        "PL" => n.props().any(|q| matches!(q.ident(), "B" | "W")),
        "BR" | "WR" => v.trim().is_empty() || normalize_rank(v).is_some_and(|r| r != v),
        "RE" => v.trim().is_empty() || super::dialect::result_from_text(v).is_some(),
        _ => empty_info_text(p),
    }
}

fn empty_info_text(p: Property<'_>) -> bool {
    p.def().is_some_and(|d| {
        d.kind == PropKind::GameInfo && matches!(d.value, ValueType::SimpleText | ValueType::Text)
    }) && p.values().all(|v| v.as_str().trim().is_empty())
}

/// `SZ[19:19]`: the side of a square board written in composed form.
fn square_composed(v: &str) -> Option<&str> {
    let (a, b) = v.split_once(':')?;
    (a.trim() == b.trim() && a.trim().parse::<u32>().is_ok()).then(|| a.trim())
}

/// Whether the root's `FF` and `CA` are not at its front (`FF` first, `CA` right after it).
pub(crate) fn header_out_of_order(root: Node<'_>) -> bool {
    let idents: Vec<&str> = root.props().map(|p| p.ident()).collect();
    let ff = idents.iter().position(|&i| i == "FF");
    let ca = idents.iter().position(|&i| i == "CA");
    let ca_want = ff.map_or(0, |_| 1);
    ff.is_some_and(|i| i != 0) || ca.is_some_and(|i| i != ca_want)
}

/// Moves `FF` and `CA` to the front of the root (SGFC stops with fatal error 73 on a `CA` that
/// comes after text it had to decode).
pub(crate) fn header_first(w: &mut Work<'_>) {
    let ff = w.find("FF");
    let ca = w.find("CA");
    let ca_want = ff.map_or(0, |_| 1);
    if !(ff.is_some_and(|i| i != 0) || ca.is_some_and(|i| i != ca_want)) {
        return;
    }
    let mut front = Vec::new();
    for ident in ["FF", "CA"] {
        if let Some(i) = w.find(ident) {
            front.push(w.props.remove(i));
        }
    }
    let origin = front.first().and_then(|p| p.origin);
    let names: Vec<String> = front.iter().map(|p| p.ident.clone()).collect();
    for (k, p) in front.into_iter().enumerate() {
        w.props.insert(k, p);
    }
    let msg = format!("{} moved to the front of the root (readers decide the charset from it)", names.join(" and "));
    w.report(origin, Severity::Info, codes::HEADER_ORDER, msg);
}

/// Repairs the small forms of the node.
pub(crate) fn repair(w: &mut Work<'_>, _tree: &GameTree) {
    let mut i = 0;
    while i < w.props.len() {
        let ident = w.props[i].ident.clone();
        let origin = w.props[i].origin;
        let raw = w.props[i].first().to_string();
        match ident.as_str() {
            "SZ" if w.is_root => {
                if let Some(side) = square_composed(&raw).map(str::to_string) {
                    w.props[i].values = vec![PropValue::new(side.clone())];
                    let msg = format!("SZ[{raw}]: a square board is written SZ[{side}]");
                    w.report(origin, Severity::Info, codes::OLD_VALUE, msg);
                }
            }
            "PL" if w.props.iter().any(|p| matches!(p.ident.as_str(), "B" | "W")) => {
                w.props.remove(i);
                let msg = format!("PL[{raw}] in a move node removed (the move says who plays; FF[4] keeps PL to setup)");
                w.report(origin, Severity::Info, codes::MOVE_PL, msg);
                continue;
            }
            "BR" | "WR" if !raw.trim().is_empty() => {
                if let Some(rank) = normalize_rank(&raw).filter(|r| *r != raw) {
                    w.props[i].values = vec![PropValue::new(rank.clone())];
                    w.report(origin, Severity::Info, codes::RANK, format!("{ident}[{raw}] written {ident}[{rank}]"));
                }
            }
            "RE" if !raw.trim().is_empty() => {
                if let Some(re) = super::dialect::result_from_text(&raw) {
                    w.props[i].values = vec![PropValue::new(re.clone())];
                    w.keep_private("RE", vec![PropValue::new(raw.clone())], i);
                    let msg = format!("RE[{raw}] written RE[{re}]; the text kept in {}", super::private("RE"));
                    w.report(origin, Severity::Info, codes::RESULT_TEXT, msg);
                }
            }
            _ => {}
        }
        let p = &w.props[i];
        let empty = crate::model::props::lookup(&p.ident).is_some_and(|d| {
            d.kind == PropKind::GameInfo && matches!(d.value, ValueType::SimpleText | ValueType::Text)
        }) && p.values.iter().all(|v| v.text.trim().is_empty());
        if empty {
            let shown: String = p.values.iter().map(|v| format!("[{}]", v.text)).collect();
            w.props.remove(i);
            w.report(origin, Severity::Info, codes::EMPTY_REMOVED, format!("{ident}{shown} is empty; removed"));
            continue;
        }
        i += 1;
    }
}
