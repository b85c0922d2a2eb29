//! Repeated properties in one node (`AB[gc]AB[cg]`, `C[a]C[b]`, `GM[1]…GM[1]`), and repeated
//! points inside one point list (`AB[aa][aa]`): merged into one property, values in order.

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

/// Words of a bit set with a bit per one- or two-letter identifier ([`props::slot`]).
const SLOT_WORDS: usize = (26 * 27usize).div_ceil(64);

/// The one- and two-letter identifiers given more than once in `props` (a bit per slot), and
/// whether a longer one is: one pass instead of comparing every pair.
fn repeats(props: &[Prop<'_>]) -> ([u64; SLOT_WORDS], bool) {
    let mut seen = [0u64; SLOT_WORDS];
    let mut twice = [0u64; SLOT_WORDS];
    let mut long = false;
    for (i, p) in props.iter().enumerate() {
        match props::slot(p.ident.as_bytes()) {
            Some(s) => {
                let bit = 1u64 << (s % 64);
                twice[s / 64] |= seen[s / 64] & bit;
                seen[s / 64] |= bit;
            }
            None => long |= props[..i].iter().any(|q| q.ident == p.ident),
        }
    }
    (twice, long)
}

/// Whether some identifier occurs twice in `props`: told from the table keys (a bit each; the
/// table has fewer than 128 rows), the other identifiers compared as text.
fn any_repeat(props: &[Prop<'_>]) -> bool {
    let mut seen = 0u128;
    for (i, p) in props.iter().enumerate() {
        if p.key == super::NO_KEY {
            if props[..i].iter().any(|q| q.key == super::NO_KEY && q.ident == p.ident) {
                return true;
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

/// Merges every repeated property of the node into its first occurrence.
pub(crate) fn merge(w: &mut Work<'_>) {
    // No identifier repeated and no property with several values (most nodes): nothing to do.
    if w.props.iter().all(|p| p.values.len() < 2) && !any_repeat(&w.props) {
        return;
    }
    let (twice, long) = repeats(&w.props);
    if w.props.iter().all(|p| p.values.len() < 2) && !long && twice.iter().all(|&w| w == 0) {
        return;
    }
    // Whether property `i` is repeated later: a one- or two-letter identifier is met first where
    // it repeats (the later ones are merged into it there), and no repair here adds one.
    let repeated_later = |props: &[Prop<'_>], i: usize| match props::slot(props[i].ident.as_bytes()) {
        Some(s) => twice[s / 64] & (1 << (s % 64)) != 0,
        None => props[i + 1..].iter().any(|p| p.ident == props[i].ident),
    };
    let mut i = 0;
    while i < w.props.len() {
        let repeated = repeated_later(&w.props, i);
        let several = w.props[i].values.len() > 1;
        let kind = if repeated || several { merge_kind(&w.props[i].ident) } else { Merge::List };
        if !repeated && (kind == Merge::List || !several) {
            // Nothing to merge (the common case): nothing copied.
            i += 1;
            continue;
        }
        let ident = w.props[i].ident.clone();
        let repeats: Vec<usize> = (i + 1..w.props.len()).filter(|&k| w.props[k].ident == ident).collect();
        if repeats.is_empty() {
            if matches!(kind, Merge::Text | Merge::Single) && w.props[i].values.len() > 1 {
                several_values(w, i, kind == Merge::Text || is_simple_text(&ident));
            } else if kind == Merge::Points && w.props[i].values.len() > 1 && points_repeat(&w.props[i].values) {
                let origin = w.props[i].origin;
                let (kept, dropped) = dedupe_points(&w.props[i].values);
                w.props[i].values = kept.into();
                if dropped > 0 {
                    let msg = format!("{ident} lists {dropped} point(s) twice; each kept once");
                    w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
                }
            }
            i += 1;
            continue;
        }
        let times = repeats.len() + 1;
        let origin = w.props[i].origin;
        if matches!(kind, Merge::Points | Merge::List) {
            // One pass: the values of every occurrence offered in order, each kept value copied
            // once; then the repeats removed together.
            let all = || std::iter::once(i).chain(repeats.iter().copied());
            let mut merged = Merged::new(kind == Merge::Points, all().map(|k| w.props[k].values.len()).sum());
            for k in all() {
                for (text, parts) in w.props[k].values.split_texts() {
                    merged.offer(text, parts.map(|(a, _)| a.len()));
                }
            }
            let (mut at, mut next) = (0, repeats.iter().copied().peekable());
            w.props.retain(|_| {
                let repeat = next.next_if_eq(&at).is_some();
                at += 1;
                !repeat
            });
            let dropped = merged.dropped;
            w.props[i].values = merged.kept.into();
            let more = if dropped > 0 { format!(", {dropped} repeated value(s) dropped") } else { String::new() };
            let msg = format!("{ident} given {times} times in one node; merged into one (values in order{more})");
            w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
            i += 1;
            continue;
        }
        let mut extra: Vec<Prop<'_>> = Vec::with_capacity(repeats.len());
        for &k in repeats.iter().rev() {
            extra.push(w.props.remove(k));
        }
        extra.reverse();
        // Text or Single (lists were merged above).
        if kind == Merge::Text {
            let mut texts: Vec<String> = w.props[i].values.take().into_iter().map(|v| v.text).collect();
            for t in extra.into_iter().flat_map(|p| p.values).map(|v| v.text) {
                if !texts.contains(&t) {
                    texts.push(t);
                }
            }
            texts.retain(|t| !t.is_empty());
            w.props[i].values = vec![PropValue::new(texts.join("\n\n"))].into();
            let msg = format!("{ident} given {times} times in one node; the texts joined with a blank line");
            w.report(origin, Severity::Info, codes::DUPLICATE_MERGED, msg);
        } else {
            // Every value of every occurrence, in order: the first stays, the distinct others
            // (a first occurrence may itself hold several) are the conflict.
            let mut all = w.props[i].values.take().into_iter();
            let first = all.next().unwrap_or_else(|| PropValue::new(""));
            w.props[i].values = vec![first.clone()].into();
            let mut distinct: Vec<PropValue> = Vec::new();
            for v in all.chain(extra.into_iter().flat_map(|p| p.values)) {
                let same = same_values(&ident, std::slice::from_ref(&v), std::slice::from_ref(&first));
                if !same && !distinct.contains(&v) {
                    distinct.push(v);
                }
            }
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
                w.keep_private(&ident, distinct, i);
                w.report(origin, Severity::Warning, codes::DUPLICATE_CONFLICT, msg);
            }
        }
        i += 1;
    }
}

/// After the other repairs: properties they renamed or added under a name the node already has
/// (two `XSGFSZ`, say) are joined into the first, values in order (reported by the repair that
/// made them).
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
    let mut i = 0;
    while i < props.len() {
        let mut k = i + 1;
        while k < props.len() {
            if props[k].ident == props[i].ident {
                let more = props.remove(k).values;
                let values = props[i].values.to_mut();
                for v in more {
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
            } else {
                k += 1;
            }
        }
        i += 1;
    }
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
fn several_values(w: &mut Work<'_>, i: usize, text: bool) {
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
            w.keep_private(&ident, rest, i);
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
    (merged.kept, merged.dropped)
}

/// Points already listed (alone or in a rectangle) dropped; a rectangle that overlaps earlier
/// points is written as its remaining single points. Values that are not points stay.
fn dedupe_points(values: &Values<'_>) -> (Vec<PropValue>, usize) {
    let mut merged = Merged::new(true, values.len());
    for (text, parts) in values.split_texts() {
        merged.offer(text, parts.map(|(a, _)| a.len()));
    }
    (merged.kept, merged.dropped)
}

/// The values of a list merged from several, offered one by one: repeated ones dropped (for a
/// point list, points already covered, as [`dedupe_points`] says), the kept ones copied once.
struct Merged {
    points: bool,
    /// More than one value in all: an empty value among points is dropped.
    many: bool,
    covered: Covered,
    kept: Vec<PropValue>,
    dropped: usize,
}

impl Merged {
    fn new(points: bool, total: usize) -> Merged {
        Merged { points, many: total > 1, covered: Covered::default(), kept: Vec::with_capacity(total), dropped: 0 }
    }

    /// Offers the value `text` (composed when `split` is the index of its `:`).
    fn offer(&mut self, text: &str, split: Option<usize>) {
        let own = || PropValue { text: text.to_string(), split };
        if !self.points {
            if self.kept.iter().any(|v| v.text == text && v.split == split) {
                self.dropped += 1;
            } else {
                self.kept.push(own());
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
    fn repeats_told_by_key_are_repeats_told_by_slot() {
        let idents = ["B", "W", "AB", "C", "TC", "TT", "XSGFKM", "XSGFHA", "MULTIGOGM", "KM", "OT", "ZZ"];
        let mut seed = 11u64;
        for n in 0..200 {
            let props: Vec<Prop<'_>> = (0..n % 9)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    Prop::new(idents[(seed >> 33) as usize % idents.len()], Vec::new())
                })
                .collect();
            let (twice, long) = repeats(&props);
            assert_eq!(any_repeat(&props), long || twice.iter().any(|&w| w != 0), "{props:?}");
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
