//! Repeated properties in one node (`AB[gc]AB[cg]`, `C[a]C[b]`, `GM[1]…GM[1]`), and repeated
//! points inside one point list (`AB[aa][aa]`): merged into one property, values in order.

use std::collections::{HashMap, HashSet};

use super::{Prop, Values, Work, codes};
use crate::diag::Severity;
use crate::model::props::{self, ValueType};
use crate::model::{Point, PropValue};

/// How values of one property are merged.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Merge {
    /// Point lists: concatenated, repeated points dropped.
    Points,
    /// Other lists (labels, arrows, unknown properties): concatenated, identical values dropped.
    List,
    /// Text: distinct values joined with a blank line (as SGFC does).
    Text,
    /// Single values: identical ones collapse; a different one is a conflict.
    Single,
}

fn merge_kind(ident: &str) -> Merge {
    match props::lookup(ident).map(|d| d.value) {
        Some(ValueType::PointList | ValueType::PointElist) => Merge::Points,
        Some(ValueType::Label | ValueType::PointPair) | None => Merge::List,
        Some(ValueType::Text) => Merge::Text,
        Some(_) => Merge::Single,
    }
}

/// No property follows (see [`links`]).
const NONE: usize = usize::MAX;

/// For every property, the index of the next with the same identifier ([`NONE`] when none),
/// and whether one before has it: one pass, one- and two-letter identifiers told by their
/// table slot, others through a hash map (compared in pairs up to 32 properties).
fn links(props: &[Prop<'_>]) -> (Vec<usize>, Vec<bool>) {
    let mut next = vec![NONE; props.len()];
    let mut later = vec![false; props.len()];
    if props.len() <= 32 {
        // A few properties (nearly every node): compared in pairs, cheaper than the tables.
        for i in 0..props.len() {
            if let Some(k) = (i + 1..props.len()).find(|&k| props[k].ident == props[i].ident) {
                next[i] = k;
                later[k] = true;
            }
        }
        return (next, later);
    }
    let mut last_by_slot = [NONE; 26 * 27];
    let mut last_by_name: HashMap<&str, usize> = HashMap::new();
    for (i, p) in props.iter().enumerate() {
        let last = match props::slot(p.ident.as_bytes()) {
            Some(s) => &mut last_by_slot[s],
            None => last_by_name.entry(&p.ident).or_insert(NONE),
        };
        if *last != NONE {
            next[*last] = i;
            later[i] = true;
        }
        *last = i;
    }
    (next, later)
}

/// Whether some identifier occurs twice in `props`: told from the table keys (a bit each; the
/// table has fewer than 128 rows), the other identifiers compared as text (through a set past a
/// few).
fn any_repeat(props: &[Prop<'_>]) -> bool {
    let mut seen = 0u128;
    let mut others = [""; 16];
    let mut n_others = 0;
    let mut many: Option<HashSet<&str>> = None;
    for p in props {
        if p.key == super::NO_KEY {
            if let Some(set) = &mut many {
                if !set.insert(&p.ident) {
                    return true;
                }
            } else if others[..n_others].contains(&&*p.ident) {
                return true;
            } else if n_others < others.len() {
                others[n_others] = &p.ident;
                n_others += 1;
            } else {
                many = Some(others.iter().copied().chain([&*p.ident]).collect());
            }
        } else {
            let bit = 1u128 << (p.key & 127);
            if seen & bit != 0 {
                return true;
            }
            seen |= bit;
        }
    }
    false
}

/// A private property to add once the node's repeats are removed: its identifier's, the values,
/// and the index of the property it follows.
type Private = (String, Vec<PropValue>, usize);

/// Merges every repeated property of the node into its first occurrence. Linear in the node's
/// properties and values: each repeat is found through [`links`], removed in one pass at the
/// end, and values are compared through [`Distinct`].
pub(crate) fn merge(w: &mut Work<'_>) {
    // No identifier repeated and no property with several values (most nodes): nothing to do.
    let repeat = any_repeat(&w.props);
    if !repeat && w.props.iter().all(|p| p.values.len() < 2) {
        return;
    }
    // Without a repeat (a list of several values, most often), no links are needed.
    let (next, later) = if repeat { links(&w.props) } else { (Vec::new(), Vec::new()) };
    let next = |i: usize| next.get(i).copied().unwrap_or(NONE);
    let mut gone = vec![false; if repeat { w.props.len() } else { 0 }];
    let mut private: Vec<Private> = Vec::new();
    for i in 0..w.props.len() {
        if later.get(i) == Some(&true) {
            // Merged into the first of its identifier.
            continue;
        }
        let repeated = next(i) != NONE;
        let several = w.props[i].values.len() > 1;
        let kind = if repeated || several { merge_kind(&w.props[i].ident) } else { Merge::List };
        if !repeated && (kind == Merge::List || !several) {
            // Nothing to merge (the common case): nothing copied.
            continue;
        }
        let ident = w.props[i].ident.clone();
        if !repeated {
            if matches!(kind, Merge::Text | Merge::Single) {
                several_values(w, i, kind == Merge::Text || is_simple_text(&ident), &mut private);
            } else if kind == Merge::Points && points_repeat(&w.props[i].values) {
                let origin = w.props[i].origin;
                let (kept, dropped) = dedupe_points(&w.props[i].values);
                w.props[i].values = kept.into();
                if dropped > 0 {
                    let msg = format!("{ident} lists {dropped} point(s) twice; each kept once");
                    w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
                }
            }
            continue;
        }
        let repeats: Vec<usize> =
            std::iter::successors(Some(next(i)), |&k| Some(next(k)).filter(|&n| n != NONE)).collect();
        for &k in &repeats {
            gone[k] = true;
        }
        let times = repeats.len() + 1;
        let origin = w.props[i].origin;
        let all = || std::iter::once(i).chain(repeats.iter().copied());
        if matches!(kind, Merge::Points | Merge::List) {
            // One pass: the values of every occurrence offered in order, each kept value copied
            // once.
            let mut merged = Merged::new(kind == Merge::Points, all().map(|k| w.props[k].values.len()).sum());
            for k in all() {
                for (text, parts) in w.props[k].values.split_texts() {
                    merged.offer(text, parts.map(|(a, _)| a.len()));
                }
            }
            let (kept, dropped) = merged.into_kept();
            w.props[i].values = kept.into();
            let more = if dropped > 0 { format!(", {dropped} repeated value(s) dropped") } else { String::new() };
            let msg = format!("{ident} given {times} times in one node; merged into one (values in order{more})");
            w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
            continue;
        }
        let extra: Vec<PropValue> = repeats.iter().flat_map(|&k| w.props[k].values.take()).collect();
        // Text or Single (lists were merged above).
        if kind == Merge::Text {
            // The first occurrence's texts as they are, then each other text not given yet.
            let mut texts = Distinct::default();
            for v in w.props[i].values.take() {
                texts.push(v);
            }
            for v in extra {
                texts.offer(v);
            }
            let texts: Vec<String> = texts.kept.into_iter().map(|v| v.text).filter(|t| !t.is_empty()).collect();
            w.props[i].values = vec![PropValue::new(texts.join("\n\n"))].into();
            let msg = format!("{ident} given {times} times in one node; the texts joined with a blank line");
            w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
        } else {
            // Every value of every occurrence, in order: the first stays, the distinct others
            // (a first occurrence may itself hold several) are the conflict.
            let mut all = w.props[i].values.take().into_iter();
            let first = all.next().unwrap_or_else(|| PropValue::new(""));
            w.props[i].values = vec![first.clone()].into();
            let mut distinct = Distinct::default();
            for v in all.chain(extra) {
                if !same_values(&ident, std::slice::from_ref(&v), std::slice::from_ref(&first)) {
                    distinct.offer(v);
                }
            }
            let distinct = distinct.kept;
            if distinct.is_empty() {
                let msg = format!("{ident} given {times} times with the same value; kept once");
                w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
            } else if matches!(&*ident, "FF" | "CA") {
                let shown: Vec<&str> = distinct.iter().map(|v| v.text.as_str()).collect();
                let msg = format!(
                    "{ident} given {times} times ({} and {}); the first kept, the writer writes its own",
                    w.props[i].first(),
                    shown.join(", ")
                );
                w.report(origin, Severity::Warning, codes::DUPLICATE_CONFLICT, msg);
            } else {
                let shown: Vec<String> = distinct.iter().map(|v| format!("[{}]", v.text)).collect();
                let msg = format!(
                    "{ident} given {times} times with different values; [{}] kept, {} moved to {}",
                    w.props[i].first(),
                    shown.join(""),
                    super::private(&ident)
                );
                private.push((ident.into_owned(), distinct, i));
                w.report(origin, Severity::Warning, codes::DUPLICATE_CONFLICT, msg);
            }
        }
    }
    // The repeats removed in one pass, then the private properties added (each after the
    // property it comes from; at most one per table identifier, so few).
    let mut before = Vec::with_capacity(gone.len());
    let mut removed = 0;
    for &g in &gone {
        before.push(removed);
        removed += usize::from(g);
    }
    if removed > 0 {
        let mut at = 0;
        w.props.retain(|_| {
            at += 1;
            !gone[at - 1]
        });
    }
    let mut added = 0;
    for (ident, values, i) in private {
        let len = w.props.len();
        w.keep_private(&ident, values, i - before.get(i).copied().unwrap_or(0) + added);
        added += w.props.len() - len;
    }
}

/// After the other repairs: properties they renamed or added under a name the node already has
/// (two `XSGFSZ`, say) are joined into the first, values in order (reported by the repair that
/// made them). Linear, as [`merge`].
pub(crate) fn coalesce(w: &mut Work<'_>) {
    coalesce_props(&mut w.props);
    for node in &mut w.after {
        coalesce_props(node);
    }
}

fn coalesce_props(props: &mut Vec<Prop<'_>>) {
    if !any_repeat(props) {
        return;
    }
    let (next, later) = links(props);
    for i in 0..props.len() {
        if later[i] || next[i] == NONE {
            continue;
        }
        let mut values = Distinct::default();
        for v in props[i].values.take() {
            values.push(v);
        }
        let mut k = next[i];
        while k != NONE {
            for v in props[k].values.take() {
                values.offer(v);
            }
            k = next[k];
        }
        props[i].values = values.kept.into();
    }
    let mut at = 0;
    props.retain(|_| {
        at += 1;
        !later[at - 1]
    });
}

/// Values kept in order, each offered one kept only when no equal one is (compared one by one
/// while they are few, through a set of their texts past that).
#[derive(Default)]
struct Distinct {
    kept: Vec<PropValue>,
    set: Option<HashSet<(String, Option<usize>)>>,
}

impl Distinct {
    /// Values compared one by one up to this many.
    const FEW: usize = 16;

    /// Keeps `v` whether or not an equal one is kept.
    fn push(&mut self, v: PropValue) {
        if let Some(set) = &mut self.set {
            set.insert((v.text.clone(), v.split));
        }
        self.kept.push(v);
        self.index();
    }

    /// Keeps `v` unless an equal one is kept; whether it was.
    fn offer(&mut self, v: PropValue) -> bool {
        let new = match &mut self.set {
            Some(set) => set.insert((v.text.clone(), v.split)),
            None => !self.kept.contains(&v),
        };
        if new {
            self.kept.push(v);
            self.index();
        }
        new
    }

    /// Whether a text and split are kept.
    fn contains(&self, text: &str, split: Option<usize>) -> bool {
        match &self.set {
            // Borrowed lookups need an owned key here; built only past `FEW`.
            Some(set) => set.contains(&(text.to_string(), split)),
            None => self.kept.iter().any(|v| v.text == text && v.split == split),
        }
    }

    fn index(&mut self) {
        if self.set.is_none() && self.kept.len() > Self::FEW {
            self.set = Some(self.kept.iter().map(|v| (v.text.clone(), v.split)).collect());
        }
    }
}

/// The values of `lists` (the occurrences of one list property `ident`, in node order) as one
/// list, as [`merge`] joins a repeated property: a point already listed (alone or in a
/// rectangle) dropped for a point list, an identical value dropped for another list; and how
/// many were dropped. Used when a repair renames a property into one the node already has
/// (`M[ei][k]MA[ei]` → `MA[ei][k]`), so a second read finds nothing to merge.
pub(crate) fn union<'a>(ident: &str, lists: impl IntoIterator<Item = &'a Values<'a>>) -> (Vec<PropValue>, usize) {
    let lists: Vec<&Values<'_>> = lists.into_iter().collect();
    let points = merge_kind(ident) == Merge::Points;
    let mut merged = Merged::new(points, lists.iter().map(|v| v.len()).sum());
    for values in lists {
        for (text, parts) in values.split_texts() {
            merged.offer(text, parts.map(|(a, _)| a.len()));
        }
    }
    merged.into_kept()
}

/// Whether two value lists say the same: equal, or for `CA` two labels of one charset.
fn same_values(ident: &str, a: &[PropValue], b: &[PropValue]) -> bool {
    if a == b {
        return true;
    }
    let charset = |v: &[PropValue]| v.first().and_then(|v| crate::charset::encoding_for_label(v.text.trim()));
    ident == "CA" && charset(a).is_some() && charset(a) == charset(b)
}

fn is_simple_text(ident: &str) -> bool {
    props::lookup(ident).is_some_and(|d| d.value == ValueType::SimpleText)
}

/// A single-value property read with several values (`C[a][b]`, `GN[a][b]`, `W[ce][dd]`): texts
/// are joined (Text with a blank line, SimpleText with a space), other values keep the first and
/// move the rest to a private property.
fn several_values(w: &mut Work<'_>, i: usize, text: bool, private: &mut Vec<Private>) {
    let ident = w.props[i].ident.clone();
    let origin = w.props[i].origin;
    let n = w.props[i].values.len();
    let (kept, _) = dedupe_values(w.props[i].values.take());
    if text {
        let sep = if is_simple_text(&ident) { " " } else { "\n\n" };
        let joined: Vec<String> = kept.into_iter().map(|v| v.text).filter(|t| !t.is_empty()).collect();
        w.props[i].values = vec![PropValue::new(joined.join(sep))].into();
        let how = if sep == " " { "a space" } else { "a blank line" };
        let msg = format!("{ident} takes one value but has {n}; joined with {how}");
        w.report(origin, Severity::Info, codes::VALUES_JOINED, msg);
    } else {
        let mut kept = kept.into_iter();
        let first = kept.next().unwrap_or_else(|| PropValue::new(""));
        let rest: Vec<PropValue> = kept.collect();
        w.props[i].values = vec![first.clone()].into();
        if rest.is_empty() {
            let msg = format!("{ident} has the value [{}] {n} times; kept once", first.text);
            w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
        } else {
            let shown: Vec<String> = rest.iter().map(|v| format!("[{}]", v.text)).collect();
            let msg = format!(
                "{ident} takes one value but has {n}; [{}] kept, {} moved to {}",
                first.text,
                shown.join(""),
                super::private(&ident)
            );
            private.push((ident.into_owned(), rest, i));
            w.report(origin, Severity::Warning, codes::EXTRA_VALUES, msg);
        }
    }
}

/// Identical values dropped after their first occurrence.
fn dedupe_values(values: Vec<PropValue>) -> (Vec<PropValue>, usize) {
    let mut merged = Merged::new(false, values.len());
    for v in &values {
        merged.offer(&v.text, v.split);
    }
    merged.into_kept()
}

/// Points already listed (alone or in a rectangle) dropped; a rectangle that overlaps earlier
/// points is written as its remaining single points. Values that are not points stay.
fn dedupe_points(values: &Values<'_>) -> (Vec<PropValue>, usize) {
    let mut merged = Merged::new(true, values.len());
    for (text, parts) in values.split_texts() {
        merged.offer(text, parts.map(|(a, _)| a.len()));
    }
    merged.into_kept()
}

/// The values of a list merged from several, offered one by one: repeated ones dropped (for a
/// point list, points already covered, as [`dedupe_points`] says), the kept ones copied once.
struct Merged {
    points: bool,
    /// More than one value in all: an empty value among points is dropped.
    many: bool,
    covered: Covered,
    kept: Vec<PropValue>,
    /// The values of a list that is not of points, kept once each.
    distinct: Distinct,
    dropped: usize,
}

impl Merged {
    fn new(points: bool, total: usize) -> Merged {
        let kept = Vec::with_capacity(if points { total } else { 0 });
        let mut distinct = Distinct::default();
        if !points {
            distinct.kept.reserve(total);
        }
        Merged { points, many: total > 1, covered: Covered::default(), kept, distinct, dropped: 0 }
    }

    /// The values kept, and how many were dropped.
    fn into_kept(self) -> (Vec<PropValue>, usize) {
        (if self.points { self.kept } else { self.distinct.kept }, self.dropped)
    }

    /// Offers the value `text` (composed when `split` is the index of its `:`).
    fn offer(&mut self, text: &str, split: Option<usize>) {
        let own = || PropValue { text: text.to_string(), split };
        if !self.points {
            if self.distinct.contains(text, split) {
                self.dropped += 1;
            } else {
                self.distinct.push(own());
            }
            return;
        }
        if text.is_empty() && self.many {
            // `[]` beside points means nothing (an elist's empty value stands alone).
            self.dropped += 1;
            return;
        }
        let (a, b) = match split {
            Some(s) => (&text[..s], Some(&text[s + 1..])),
            None => (text, None),
        };
        let Some(points) = crate::model::point::expand_rect(a, b) else {
            self.kept.push(own());
            return;
        };
        let covered = &self.covered;
        let (total, fresh) = points.fold((0, 0), |(t, f), p| (t + 1, f + usize::from(!covered.contains(p))));
        let points = crate::model::point::expand_rect(a, b).into_iter().flatten();
        if fresh == total {
            points.for_each(|p| {
                self.covered.insert(p);
            });
            self.kept.push(own());
        } else {
            self.dropped += total - fresh;
            for p in points {
                if self.covered.insert(p) {
                    if let Some(s) = p.to_sgf() {
                        self.kept.push(PropValue::new(s));
                    }
                }
            }
        }
    }
}

/// Whether [`dedupe_points`] would drop something from `values` (a point listed twice, alone or
/// in a rectangle, or an empty value among others): told without copying them.
fn points_repeat(values: &Values<'_>) -> bool {
    let many = values.len() > 1;
    let mut covered = Covered::default();
    for (text, parts) in values.split_texts() {
        if text.is_empty() && many {
            return true;
        }
        let (a, b) = match parts {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let Some(points) = crate::model::point::expand_rect(a, b) else { continue };
        for p in points {
            if !covered.insert(p) {
                return true;
            }
        }
    }
    false
}

/// A set of board points (coordinates below 52, as SGF letters give them).
struct Covered([u64; 52 * 52 / 64 + 1]);

impl Default for Covered {
    fn default() -> Self {
        Covered([0; 52 * 52 / 64 + 1])
    }
}

impl Covered {
    fn at(p: Point) -> usize {
        usize::from(p.y) * 52 + usize::from(p.x)
    }

    fn contains(&self, p: Point) -> bool {
        let i = Covered::at(p);
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Adds `p`; whether it was new.
    fn insert(&mut self, p: Point) -> bool {
        let i = Covered::at(p);
        let new = !self.contains(p);
        self.0[i / 64] |= 1 << (i % 64);
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_told_by_key_are_repeats_told_by_links() {
        let mut idents: Vec<String> =
            ["B", "W", "AB", "C", "TC", "TT", "XSGFKM", "XSGFHA", "MULTIGOGM", "KM", "OT", "ZZ"]
                .map(String::from)
                .to_vec();
        // Enough other identifiers for the set past 16 of them.
        idents.extend((0..60).map(|i| format!("XU{i}")));
        let mut seed = 11u64;
        for n in 0..400 {
            let props: Vec<Prop<'_>> = (0..n % 41)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    Prop::new(idents[(seed >> 33) as usize % idents.len()].clone(), Vec::new())
                })
                .collect();
            let (next, later) = links(&props);
            assert_eq!(any_repeat(&props), later.iter().any(|&l| l), "{props:?}");
            for (i, &k) in next.iter().enumerate() {
                if k != NONE {
                    assert!(k > i && props[k].ident == props[i].ident && later[k]);
                    assert!(props[i + 1..k].iter().all(|p| p.ident != props[i].ident));
                } else {
                    assert!(props[i + 1..].iter().all(|p| p.ident != props[i].ident));
                }
            }
        }
    }

    #[test]
    fn points_repeat_exactly_when_dedupe_drops_something() {
        let lists: [&[&str]; 7] =
            [&["aa", "bb"], &["aa", "aa"], &["aa:bb", "ba"], &["aa:bb", "cc"], &["aa", ""], &[""], &["zz!", "zz!"]];
        for list in lists {
            let vals: Vec<PropValue> = list
                .iter()
                .map(|t| match t.split_once(':') {
                    Some((a, b)) => PropValue::composed(a, b),
                    None => PropValue::new(*t),
                })
                .collect();
            let vals = Values::Owned(vals);
            let (_, dropped) = dedupe_points(&vals);
            let repeat = points_repeat(&vals);
            assert_eq!(repeat, dropped > 0, "{list:?}");
        }
    }

    #[test]
    fn points_dedupe_keeps_order_and_rectangles() {
        let vals =
            vec![PropValue::new("aa"), PropValue::composed("aa", "bb"), PropValue::new("cc"), PropValue::new("cc")];
        let (kept, dropped) = dedupe_points(&Values::Owned(vals));
        let texts: Vec<&str> = kept.iter().map(|v| v.text.as_str()).collect();
        assert_eq!(texts, ["aa", "ba", "ab", "bb", "cc"]);
        assert_eq!(dropped, 2);
    }
}
