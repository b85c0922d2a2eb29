//! The cheap question before any repair: which nodes of a game does some repair touch? Decided
//! on the model's `u16` property keys, one pass over each node's properties, no allocation:
//! nearly every node of nearly every game needs nothing, and every read asks.

use super::{GameFacts, dialect, fox, keys, old_ff, small};
use crate::model::props::{PROPS, PropKind, ValueType};
use crate::model::{GameTree, Node, Property};

/// Whether `key` is one of the tree's unknown identifiers (not in the table).
fn unknown(key: u16) -> bool {
    usize::from(key) >= PROPS.len()
}

/// Bit of a known key in a node's set of keys (the table has fewer than 128 rows).
fn bit(key: u16) -> u128 {
    1u128 << key
}

/// The keys of the table's move properties (`B`, `W`, `BL`, …).
fn move_keys() -> u128 {
    static MASK: std::sync::OnceLock<u128> = std::sync::OnceLock::new();
    *MASK.get_or_init(|| {
        PROPS.iter().enumerate().filter(|(_, d)| d.kind == PropKind::Move).fold(0, |m, (i, _)| m | (1u128 << i))
    })
}

/// What the repairs know about a game, from its root.
pub(crate) fn facts_of(tree: &GameTree) -> GameFacts {
    let root = tree.root();
    let mut ff: Option<Option<&str>> = None;
    let (mut fox, mut tc, mut tt) = (false, false, false);
    // The dialect as `dialect::is_oro_dialect` decides it, in the same pass.
    let (mut oro, mut signature) = (false, 0);
    let mut unit = fox::Unit::Unknown;
    for p in root.props() {
        match p.key() {
            keys::RU => unit = fox::Unit::of_rules(p.first().unwrap_or("")),
            keys::FF if ff.is_none() => ff = Some(p.first()),
            keys::AP => fox |= p.values().any(|v| contains_ignore_case(v.as_str(), b"foxwq")),
            keys::KO | keys::TE => oro |= dialect::dialect_value(p),
            k if unknown(k) => match p.ident() {
                "TC" => tc = true,
                "TT" => tt = true,
                id => signature += usize::from(dialect::SIGNATURE.contains(&id)),
            },
            _ => {}
        }
    }
    let old_ff = ff.flatten().and_then(|v| v.trim().parse::<u32>().ok()).is_some_and(|v| (1..=3).contains(&v));
    GameFacts { fox: fox || (tc && tt), oro: oro || signature >= 2, old_ff, unit }
}

/// Whether `hay` contains `needle` (ASCII lower case) in any case.
fn contains_ignore_case(hay: &str, needle: &[u8]) -> bool {
    hay.as_bytes().windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

/// Whether some repair applies to node `n` (see `formats/normalise.md`): what the repair
/// families would find, asked without their per-property work.
pub(crate) fn node_needs_work(n: Node<'_>, facts: &GameFacts) -> bool {
    let root = n.is_root();
    // A node holding a move and nothing a repair touches, before the general look (the plan
    // skips most such nodes from their slots already: `GameTree::each_beyond_plain_moves`).
    if !root && plain_move_node(n) {
        return false;
    }
    if n.props().next().is_none() {
        return false;
    }
    // One pass: the set of keys (a repeated one is a duplicate), a single-value property with
    // several values, a point list naming a point twice, `FF`/`CA` after text in the root.
    let mut present = 0u128;
    // The unknown identifiers' keys: the first 16 in an array, all in a set past that.
    let mut unknowns = [0u32; 16];
    let mut n_unknown = 0;
    let mut more: Option<std::collections::HashSet<u32>> = None;
    let mut first_text = usize::MAX;
    for (i, p) in n.props().enumerate() {
        let key = p.key();
        if unknown(key) {
            let id = p.ident_key();
            if let Some(set) = &mut more {
                if !set.insert(id) {
                    return true;
                }
            } else if unknowns[..n_unknown].contains(&id) {
                return true;
            } else if n_unknown < unknowns.len() {
                unknowns[n_unknown] = id;
                n_unknown += 1;
            } else {
                more = Some(unknowns.iter().copied().chain([id]).collect());
            }
        } else {
            if present & bit(key) != 0 {
                return true;
            }
            present |= bit(key);
            if p.len() >= 2 {
                match PROPS[usize::from(key)].value {
                    v if !v.is_list() => return true,
                    ValueType::PointList | ValueType::PointElist if repeats_value(p) => return true,
                    _ => {}
                }
            }
        }
        if root {
            match key {
                keys::FF | keys::CA if i > first_text => return true,
                keys::FF | keys::CA | keys::GM | keys::SZ | keys::ST => {}
                _ => first_text = first_text.min(i),
            }
        }
    }
    let has_move = present & move_keys() != 0;
    n.props().any(|p| prop_needs(p, root, present, has_move, facts))
}

/// Whether a point list repeats a value (as text): two-letter values in a bit set, others
/// sorted.
fn repeats_value(p: Property<'_>) -> bool {
    let mut seen = [0u64; 128 * 128 / 64];
    let mut others: Vec<&str> = Vec::new();
    for v in p.values() {
        match *v.as_str().as_bytes() {
            [a, b] if a < 128 && b < 128 => {
                let i = usize::from(a) * 128 + usize::from(b);
                if seen[i / 64] & (1 << (i % 64)) != 0 {
                    return true;
                }
                seen[i / 64] |= 1 << (i % 64);
            }
            _ => others.push(v.as_str()),
        }
    }
    others.sort_unstable();
    others.windows(2).any(|w| w[0] == w[1])
}

/// Whether one property of a node is one some repair family changes or reports.
fn prop_needs(p: Property<'_>, root: bool, present: u128, has_move: bool, facts: &GameFacts) -> bool {
    let key = p.key();
    if unknown(key) {
        let id = p.ident();
        return (facts.old_ff && old_ff::DROPPED_OLD.contains(&id))
            || (root && facts.fox && id == "TC")
            || (root && facts.oro && dialect::SIGNATURE.contains(&id));
    }
    // As the families read it: old forms from the first value when there is one, the small
    // forms from the first value or "".
    let odd = |id: &str| p.first().is_some_and(|v| old_ff::odd_value(id, v));
    let first = || p.first().unwrap_or("");
    let blank = super::blank;
    let general = match key {
        keys::L | keys::M | keys::KI | keys::ID | keys::BS | keys::WS => true,
        keys::DT => {
            (p.len() == 1 && odd("DT")) || empty_info_text(p) || (!blank(first()) && !super::is_iso_date(first()))
        }
        keys::TM | keys::BL | keys::WL | keys::HA => odd(PROPS[usize::from(key)].ident),
        keys::PL => odd("PL") || present & (bit(keys::B) | bit(keys::W)) != 0,
        keys::SZ => !root || small::square_composed(first()).is_some(),
        keys::AB | keys::AW | keys::AE => has_move,
        keys::B => present & bit(keys::W) != 0,
        keys::BR | keys::WR => {
            let v = first();
            !crate::model::info::is_written_rank(v) && (blank(v) || small::normalize_rank(v).is_some_and(|r| r != v))
        }
        keys::RE => {
            blank(first())
                || dialect::result_from_text(first()).is_some()
                || small::not_a_result(first())
                || (facts.fox && fox::fox_result(first(), facts.unit).is_some())
        }
        keys::C | keys::N => blank(first()) && p.len() == 1,
        keys::AP => {
            (root && p.len() == 1 && p.values().next().is_some_and(|v| v.parts().is_none()))
                || (!root && PROPS[usize::from(key)].kind == PropKind::Root)
        }
        keys::KM => {
            let k = p.first().and_then(|v| v.trim().parse::<f64>().ok());
            k.is_some_and(|k| k.abs() > 100.0)
                || (facts.fox && (k == Some(0.0) || fox::fox_komi(first(), facts.unit).is_some()))
        }
        _ => empty_info_text(p) || (!root && PROPS[usize::from(key)].kind == PropKind::Root),
    };
    general || (root && facts.oro && matches!(key, keys::KO | keys::TE) && dialect::dialect_value(p))
}

/// A game-info text property whose values are all blank (`GN[]`).
fn empty_info_text(p: Property<'_>) -> bool {
    p.def().is_some_and(|d| d.kind == PropKind::GameInfo && matches!(d.value, ValueType::SimpleText | ValueType::Text))
        && p.values().all(|v| super::blank(v.as_str()))
}

/// Whether non-root node `n` holds only `B` or `W`, `BL`/`WL` with a plain number and `C`
/// with text, each once with one value: no repair applies to such a node (what the full check
/// would find, without its per-property work).
pub(crate) fn plain_move_node(n: Node<'_>) -> bool {
    let mut seen = 0u8;
    for p in n.props() {
        if !p.is_single() {
            return false;
        }
        let v = || p.single_plain().unwrap_or("");
        let bit = match p.key() {
            keys::B => 1,
            keys::W => 2,
            keys::BL if plain_number(v()) => 4,
            keys::WL if plain_number(v()) => 8,
            keys::C if !super::blank(v()) => 16,
            _ => return false,
        };
        if seen & bit != 0 {
            return false;
        }
        seen |= bit;
    }
    seen & 3 != 3
}

/// Whether a property `key` with the one value `v` beside a move leaves the node plain (as
/// [`plain_move_node`] has it): a time left that is a plain number, or a comment with text.
pub(crate) fn plain_beside_move(key: u16, v: &str) -> bool {
    match key {
        keys::BL | keys::WL => plain_number(v),
        keys::C => !super::blank(v),
        _ => false,
    }
}

/// Digits with at most one `.` (`300`, `12.5`): a number `f64` parses, no old form.
pub(crate) fn plain_number(v: &str) -> bool {
    let mut dots = 0;
    let mut digits = 0;
    for b in v.bytes() {
        match b {
            b'0'..=b'9' => digits += 1,
            b'.' => dots += 1,
            _ => return false,
        }
    }
    digits > 0 && dots <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, ReadOptions};

    #[test]
    fn keys_are_the_table_rows() {
        use crate::model::props::index_of;
        let named = [
            ("B", keys::B),
            ("W", keys::W),
            ("KO", keys::KO),
            ("AB", keys::AB),
            ("AW", keys::AW),
            ("AE", keys::AE),
            ("PL", keys::PL),
            ("C", keys::C),
            ("N", keys::N),
            ("TE", keys::TE),
            ("AP", keys::AP),
            ("CA", keys::CA),
            ("FF", keys::FF),
            ("GM", keys::GM),
            ("ST", keys::ST),
            ("SZ", keys::SZ),
            ("BR", keys::BR),
            ("OT", keys::OT),
            ("DT", keys::DT),
            ("RE", keys::RE),
            ("RU", keys::RU),
            ("TM", keys::TM),
            ("WR", keys::WR),
            ("HA", keys::HA),
            ("KM", keys::KM),
            ("BL", keys::BL),
            ("WL", keys::WL),
            ("L", keys::L),
            ("M", keys::M),
            ("KI", keys::KI),
            ("ID", keys::ID),
            ("BS", keys::BS),
            ("WS", keys::WS),
        ];
        for (ident, key) in named {
            assert_eq!(index_of(ident), Some(key), "{ident}");
        }
        // `is_oro_dialect` counts only unknown keys as the dialect's signature.
        assert!(dialect::SIGNATURE.iter().all(|id| index_of(id).is_none()));
        assert!(PROPS.len() <= 128);
    }

    /// The question as the repair families asked it by name, property by property (the
    /// definition the key-based pass must agree with).
    fn by_name(n: Node<'_>, facts: &GameFacts) -> bool {
        if n.prop_count() == 0 {
            return false;
        }
        let duplicates = n.props().enumerate().any(|(i, p)| {
            n.props().take(i).any(|q| q.ident() == p.ident())
                || (p.len() >= 2
                    && match p.def().map(|d| d.value) {
                        Some(v) if !v.is_list() => true,
                        Some(ValueType::PointList | ValueType::PointElist) => repeats_value(p),
                        _ => false,
                    })
        });
        let idents: Vec<&str> = n.props().map(|p| p.ident()).collect();
        let header = ["FF", "CA", "GM", "SZ", "ST"];
        let first_text = idents.iter().position(|i| !header.contains(i)).unwrap_or(idents.len());
        let late = idents.iter().enumerate().any(|(k, i)| matches!(*i, "FF" | "CA") && k > first_text);
        if duplicates || (n.is_root() && late) {
            return true;
        }
        n.props().any(|p| {
            let v = p.first().unwrap_or("");
            let old = match p.ident() {
                "L" | "M" | "KI" | "BS" | "WS" | "ID" => true,
                "DT" => {
                    (p.len() == 1 && old_ff::odd_value("DT", v))
                        || (!v.trim().is_empty() && !super::super::is_iso_date(v))
                }
                id if facts.old_ff && old_ff::DROPPED_OLD.contains(&id) => true,
                id => old_ff::odd_value(id, v),
            };
            let small = match p.ident() {
                "SZ" => !n.is_root() || small::square_composed(v).is_some(),
                "PL" => n.props().any(|q| matches!(q.ident(), "B" | "W")),
                "AB" | "AW" | "AE" => n.props().any(|q| q.def().is_some_and(|d| d.kind == PropKind::Move)),
                "B" => n.get("W").is_some(),
                "BR" | "WR" => v.trim().is_empty() || small::normalize_rank(v).is_some_and(|r| r != v),
                "RE" => {
                    v.trim().is_empty()
                        || dialect::result_from_text(v).is_some()
                        || (facts.fox && fox::fox_result(v, facts.unit).is_some())
                        || small::not_a_result(v)
                }
                "C" | "N" => v.trim().is_empty() && p.len() == 1,
                "AP" => {
                    (n.is_root() && p.len() == 1 && p.values().next().is_some_and(|v| v.parts().is_none()))
                        || !n.is_root()
                }
                _ => empty_info_text(p) || (!n.is_root() && p.def().is_some_and(|d| d.kind == PropKind::Root)),
            };
            let km = || v.trim().parse::<f64>().ok();
            let fox = facts.fox
                && match p.ident() {
                    "KM" => km() == Some(0.0) || fox::fox_komi(v, facts.unit).is_some(),
                    "TC" => n.is_root(),
                    _ => false,
                };
            let oro = facts.oro
                && n.is_root()
                && (dialect::SIGNATURE.contains(&p.ident())
                    || match p.ident() {
                        "KO" | "TE" => dialect::dialect_value(p),
                        _ => false,
                    });
            let general = p.ident() == "KM" && km().is_some_and(|k| k.abs() > 100.0);
            old || small || fox || oro || general
        })
    }

    fn facts_by_name(tree: &GameTree) -> GameFacts {
        let root = tree.root();
        let old_ff = root.value("FF").and_then(|v| v.trim().parse::<u32>().ok()).is_some_and(|v| (1..=3).contains(&v));
        let fox = root
            .props()
            .any(|p| p.ident() == "AP" && p.values().any(|v| v.as_str().to_ascii_lowercase().contains("foxwq")))
            || (root.get("TC").is_some() && root.get("TT").is_some());
        let signature = root.props().filter(|p| dialect::SIGNATURE.contains(&p.ident())).count();
        let oro = signature >= 2 || root.props().any(|p| matches!(p.ident(), "KO" | "TE") && dialect::dialect_value(p));
        let unit = root.value("RU").map_or(fox::Unit::Unknown, fox::Unit::of_rules);
        GameFacts { fox, oro, old_ff, unit }
    }

    const TOKENS: &[&str] = &[
        ";",
        ";",
        ";",
        "(",
        ")",
        "B[aa]",
        "W[bb]",
        "B[]",
        "BL[30]",
        "WL[1:00]",
        "BL[12.5]",
        "C[x]",
        "C[ ]",
        "C[a][b]",
        "N[]",
        "AB[aa]",
        "AB[aa][aa]",
        "AB[aa:bb][cc]",
        "AE[aa]",
        "AW[bb]",
        "PL[B]",
        "PL[1]",
        "FF[4]",
        "FF[3]",
        "FF[3][4]",
        "CA[UTF-8]",
        "GM[1]",
        "SZ[19]",
        "SZ[19:19]",
        "ST[2]",
        "AP[FoxWQ]",
        "AP[x:y]",
        "TC[3]",
        "TT[30]",
        "KM[0]",
        "KM[750]",
        "KM[6.5]",
        "KM[]",
        "HA[1]",
        "HA[2]",
        "HA[2.0]",
        "TM[1800]",
        "TM[30:00]",
        "DT[2001-01-01]",
        "DT[13/5/95]",
        "DT[a][b]",
        "GN[]",
        "GN[x]",
        "PB[ ]",
        "BR[8d]",
        "BR[15级]",
        "WR[]",
        "RE[B+R]",
        "RE[黒中押し勝ち]",
        "RE[]",
        "KO[]",
        "KO[黒6目半]",
        "TE[1]",
        "TE[title]",
        "RD[x]",
        "LT[30]",
        "LC[5]",
        "GK[1]",
        "HD[2]",
        "L[aa]",
        "M[aa]",
        "KI[13]",
        "ID[x]",
        "BS[1]",
        "OM[1]",
        "XX[1]",
        "XX[2]",
        "YY[]",
        "LB[aa:x]",
        "LB[aa:x][aa:x]",
        "TR[aa][bb]",
        "MN[1]",
        "V[1][2]",
        "OT[x]",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// The key-based pass agrees with the question asked by name, on every node.
        #[test]
        fn keys_agree_with_names(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 1..40)) {
            let text = format!("(;{})", tokens.concat());
            let opts = ReadOptions { no_repair: true, ..ReadOptions::default() };
            if let Ok(r) = Format::SGF.read(text.into_bytes(), &opts) {
                for g in &r.collection.games {
                    let facts = facts_of(g);
                    let named = facts_by_name(g);
                    proptest::prop_assert_eq!((facts.fox, facts.oro, facts.old_ff), (named.fox, named.oro, named.old_ff));
                    proptest::prop_assert_eq!(facts.oro, dialect::is_oro_dialect(g));
                    for n in g.nodes() {
                        proptest::prop_assert_eq!(node_needs_work(n, &facts), by_name(n, &facts), "{:?}", n);
                    }
                    // The nodes the model's first look skips need nothing.
                    let mut looked = vec![false; g.len()];
                    g.each_beyond_plain_moves(plain_beside_move, |id| looked[id.index()] = true);
                    for n in g.nodes().filter(|n| !looked[n.id().index()]) {
                        proptest::prop_assert!(!by_name(n, &facts), "{:?}", n);
                    }
                }
            }
        }
    }

    #[test]
    fn plain_move_nodes_skip_only_what_no_repair_touches() {
        let opts = ReadOptions { no_repair: true, ..ReadOptions::default() };
        let r = Format::SGF
            .read(
                b"(;FF[4];B[pd]BL[30.5]C[hi];W[dd]WL[300];B[aa]BL[30:00];B[bb]C[];B[cc]W[dd];B[ee]BL[1]BL[2])".to_vec(),
                &opts,
            )
            .unwrap();
        let g = &r.collection.games[0];
        let plain: Vec<bool> = g.nodes().skip(1).map(plain_move_node).collect();
        assert_eq!(plain, [true, true, false, false, false, false]);
        let facts = facts_of(g);
        assert!(g.nodes().skip(3).all(|n| node_needs_work(n, &facts)));
        assert!(plain_number("12.5") && plain_number("300") && !plain_number("1.2.3") && !plain_number("."));
        assert!(!plain_number("") && !plain_number("-1") && !plain_number("30:00"));
        for rank in ["1k", "8d", "9p", "15k", "30k", "50k", "51k", "08d", "0k", "8D", "8 d", "100k", "k", "8dan"] {
            let same = small::normalize_rank(rank).is_some_and(|r| r == rank);
            assert_eq!(crate::model::info::is_written_rank(rank), same, "{rank}");
        }
    }
}
