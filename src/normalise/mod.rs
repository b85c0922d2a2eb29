//! Normalisation after reading: the debris of old and odd SGF writers turned into clean FF\[4\],
//! each change reported as its own `fix.*` diagnostic. Specification: `formats/normalise.md`.
//!
//! Applied by [`crate::Format::read`] unless [`crate::ReadOptions::no_repair`] is set. Every
//! repair works on one node's property list; a few changed nodes are edited in place, more (or a
//! split or reordered node) rebuild the game once, linear in its size.
//! Positions: repairs are placed at the line and column of the property (or node) concerned,
//! from the reader's offsets. [`crate::Format::read`] records them for small inputs it is to
//! repair; a game read without them is read again with them (from where the reader found it)
//! only when a repair of it is shown (the first 100 of each code) or
//! it may hold inline variations. A large collection's games are repaired in parallel. Which
//! nodes need work is decided first, on the model's property keys, in one pass per node
//! (`scan.rs`): a clean game costs no allocation.

mod dialect;
mod duplicates;
mod fox;
mod old_ff;
mod scan;
mod small;
mod variations;

pub use dialect::is_oro_dialect;

/// Table keys ([`crate::model::props::PROPS`] indexes) of the identifiers the repairs look at
/// (checked against the table in a test).
pub(crate) mod keys {
    pub(crate) const B: u16 = 0;
    pub(crate) const W: u16 = 1;
    pub(crate) const KO: u16 = 2;
    pub(crate) const AB: u16 = 4;
    pub(crate) const AW: u16 = 5;
    pub(crate) const AE: u16 = 6;
    pub(crate) const PL: u16 = 7;
    pub(crate) const C: u16 = 8;
    pub(crate) const N: u16 = 13;
    pub(crate) const TE: u16 = 19;
    pub(crate) const AP: u16 = 29;
    pub(crate) const CA: u16 = 30;
    pub(crate) const FF: u16 = 31;
    pub(crate) const GM: u16 = 32;
    pub(crate) const ST: u16 = 33;
    pub(crate) const SZ: u16 = 34;
    pub(crate) const BR: u16 = 36;
    pub(crate) const OT: u16 = 44;
    pub(crate) const DT: u16 = 39;
    pub(crate) const RE: u16 = 48;
    pub(crate) const RU: u16 = 50;
    pub(crate) const TM: u16 = 52;
    pub(crate) const WR: u16 = 54;
    pub(crate) const HA: u16 = 56;
    pub(crate) const KM: u16 = 57;
    pub(crate) const BL: u16 = 58;
    pub(crate) const WL: u16 = 59;
    pub(crate) const L: u16 = 67;
    pub(crate) const M: u16 = 68;
    pub(crate) const KI: u16 = 69;
    pub(crate) const ID: u16 = 70;
    pub(crate) const BS: u16 = 71;
    pub(crate) const WS: u16 = 72;
}

use crate::diag::{Diagnostic, Severity};
use crate::formats::ReadOutput;
use std::borrow::Cow;

use crate::model::{GameTree, NewProp, NodeId, PropValue, Property, Stored};

/// Diagnostic codes of the normaliser (documented in `formats/normalise.md`).
pub mod codes {
    /// A property repeated in one node was merged into one (info).
    pub const DUPLICATE_MERGED: &str = "fix.duplicate-merged";
    /// A repeated single-value property with a different value: the first kept, the others moved
    /// to a private property (warning).
    pub const DUPLICATE_CONFLICT: &str = "fix.duplicate-conflict";
    /// Several values of a single-value text property joined into one (info).
    pub const VALUES_JOINED: &str = "fix.values-joined";
    /// Extra values of a single-value property moved to a private property (warning).
    pub const EXTRA_VALUES: &str = "fix.extra-values";
    /// An FF\[1\]–FF\[3\] property converted to its FF\[4\] equivalent (`L` → `LB`, `M` → `MA`,
    /// `KI` → `KM`) (info).
    pub const OLD_PROPERTY: &str = "fix.old-property";
    /// An FF\[1\]–FF\[3\] property FF\[4\] has no equivalent for, kept under a private identifier
    /// (info).
    pub const OLD_PROPERTY_KEPT: &str = "fix.old-property-kept";
    /// A value in an old or odd form written in FF\[4\]'s (`TM[30:00]` → `TM[1800]`,
    /// `HA[2.0]` → `HA[2]`, `PL[1]` → `PL[B]`, `SZ[19:19]` → `SZ[19]`) (info).
    pub const OLD_VALUE: &str = "fix.old-value";
    /// A value that is not of its property's type and has no FF\[4\] form, moved to a private
    /// property (warning).
    pub const VALUE_KEPT: &str = "fix.value-kept";
    /// An empty or meaningless value removed (`PL[]`, `TM[-]`, `GN[]`, `HA[0]`) (info).
    pub const EMPTY_REMOVED: &str = "fix.empty-removed";
    /// `PL` in a move node removed: the move says who plays (info).
    pub const MOVE_PL: &str = "fix.move-pl";
    /// A node holding setup and a move, or two moves, split in two (warning).
    pub const NODE_SPLIT: &str = "fix.node-split";
    /// A root property outside the root: removed when the root has the same, else kept under a
    /// private identifier (info / warning).
    pub const ROOT_PROPERTY: &str = "fix.root-property";
    /// `FF` and `CA` moved to the front of the root (info).
    pub const HEADER_ORDER: &str = "fix.header-order";
    /// A komi written ×100 (Fox, Tencent: `KM[750]`, `KM[375]`) read as points; the value kept
    /// in `XSGFKM` (info for a Fox file, whose form is known; warning for a file of unknown
    /// origin, where the scaling is a guess).
    pub const KOMI_SCALED: &str = "fix.komi-scaled";
    /// A Fox result in stones (`RE[W+0.25]` under Chinese rules) written in points, or Fox's
    /// code for a win on time (`RE[W+0.02]`) written `W+T`; the value kept in `XSGFRE` (info).
    pub const RESULT_SCALED: &str = "fix.result-scaled";
    /// A Fox numeric result no unit explains (`RE[B+0.03]`), left as it is (warning).
    pub const RESULT_IMPLAUSIBLE: &str = "fix.result-implausible";
    /// A komi too large to be one, left as it is (warning).
    pub const KOMI_IMPLAUSIBLE: &str = "fix.komi-implausible";
    /// A Fox even game with `KM[0]`: the komi actually used is not in the file (warning).
    pub const FOX_KOMI_ZERO: &str = "fix.fox-komi-zero";
    /// Fox byo-yomi `TC`/`TT` written as an `OT` text as well (info).
    pub const OVERTIME: &str = "fix.overtime";
    /// A rank in CJK or spelled-out form written as FF\[4\] usage has it (`15级` → `15k`) (info;
    /// warning for a bare kanji dan rank, which may be a professional's).
    pub const RANK: &str = "fix.rank";
    /// A result in Korean, Japanese or Chinese text written as FF\[4\] `RE`; the text kept (info).
    pub const RESULT_TEXT: &str = "fix.result-text";
    /// A Nihon Ki-in / Cyberoro dialect property mapped to FF\[4\]; the original kept (info).
    pub const DIALECT: &str = "fix.dialect";
    /// Nodes after a closed variation made the continuation of the line it branched from
    /// (warning).
    pub const INLINE_VARIATION: &str = "fix.inline-variation";
    /// An `AP` without a version written in FF\[4\]'s composed form with an empty version
    /// (`AP[YuanYu]` → `AP[YuanYu:]`) (info).
    pub const AP_VERSION: &str = "fix.ap-version";

    /// The codes that report without changing anything (so they come again on every read).
    pub const REPORT_ONLY: &[&str] = &[KOMI_IMPLAUSIBLE, RESULT_IMPLAUSIBLE];

    /// Every code above.
    pub const ALL: &[&str] = &[
        DUPLICATE_MERGED,
        DUPLICATE_CONFLICT,
        VALUES_JOINED,
        EXTRA_VALUES,
        OLD_PROPERTY,
        OLD_PROPERTY_KEPT,
        OLD_VALUE,
        VALUE_KEPT,
        EMPTY_REMOVED,
        MOVE_PL,
        NODE_SPLIT,
        ROOT_PROPERTY,
        HEADER_ORDER,
        KOMI_SCALED,
        KOMI_IMPLAUSIBLE,
        RESULT_SCALED,
        RESULT_IMPLAUSIBLE,
        FOX_KOMI_ZERO,
        OVERTIME,
        RANK,
        RESULT_TEXT,
        DIALECT,
        INLINE_VARIATION,
        AP_VERSION,
    ];
}

/// The prefix of the private properties the normaliser keeps values under (`XSGFTM`, `XSGFKO`).
pub const PRIVATE_PREFIX: &str = "XSGF";

/// The private identifier for a value of `ident` that has no FF\[4\] home.
pub(crate) fn private(ident: &str) -> String {
    format!("{PRIVATE_PREFIX}{ident}")
}

/// One property while a node is worked on: as the tree holds it until a repair changes it.
#[derive(Clone, Debug)]
pub(crate) struct Prop<'t> {
    /// The identifier (borrowed from the tree for a property as read). Changed only through
    /// [`Prop::rename`], which keeps `key` in step.
    pub ident: Cow<'t, str>,
    /// The identifier's table key ([`crate::model::props::PROPS`] index), [`NO_KEY`] for an
    /// identifier not in the table: properties are found by comparing keys, not text.
    pub key: u16,
    pub values: Values<'t>,
    /// The property's index in the node as read (for its position), `None` for one added here.
    pub origin: Option<usize>,
}

/// [`Prop::key`] of an identifier not in the property table (`TC`, `XSGFKM`, …).
pub(crate) const NO_KEY: u16 = u16::MAX;

/// The [`Prop::key`] of `ident`.
#[inline]
pub(crate) fn key_of(ident: &str) -> u16 {
    crate::model::props::index_of(ident).unwrap_or(NO_KEY)
}

impl<'t> Prop<'t> {
    pub(crate) fn new(ident: impl Into<Cow<'t, str>>, values: Vec<PropValue>) -> Prop<'t> {
        Prop::with_origin(ident, values, None)
    }

    /// A property `ident` with `values`, placed as the property read at `origin`.
    pub(crate) fn with_origin(
        ident: impl Into<Cow<'t, str>>,
        values: Vec<PropValue>,
        origin: Option<usize>,
    ) -> Prop<'t> {
        let ident = ident.into();
        Prop { key: key_of(&ident), ident, values: values.into(), origin }
    }

    /// A property `ident` with the one value `value`, placed as the property read at `origin`.
    pub(crate) fn one(ident: &'static str, value: PropValue, origin: Option<usize>) -> Prop<'t> {
        Prop { ident: Cow::Borrowed(ident), key: key_of(ident), values: Values::One(value), origin }
    }

    /// Property `p` of a node, read at index `origin`: nothing copied.
    fn read(origin: usize, p: Property<'t>) -> Prop<'t> {
        let key = if p.known() { p.key() } else { NO_KEY };
        Prop { ident: Cow::Borrowed(p.ident()), key, values: Values::Read(p), origin: Some(origin) }
    }

    /// Gives the property another identifier.
    pub(crate) fn rename(&mut self, ident: impl Into<Cow<'t, str>>) {
        self.ident = ident.into();
        self.key = key_of(&self.ident);
    }

    pub(crate) fn first(&self) -> &str {
        self.values.first().unwrap_or("")
    }

    /// The first value (`""` when none), borrowed from the tree while it is as read.
    pub(crate) fn first_text(&self) -> Cow<'t, str> {
        match &self.values {
            Values::Read(p) => Cow::Borrowed(p.single_plain().or_else(|| p.first()).unwrap_or("")),
            Values::One(v) => Cow::Owned(v.text.clone()),
            Values::Owned(v) => Cow::Owned(v.first().map_or_else(String::new, |v| v.text.clone())),
        }
    }

    /// The property for writing back: as stored when neither its identifier nor its values
    /// changed.
    fn detach(self) -> Repaired {
        debug_assert_eq!(self.key, key_of(&self.ident), "{}", self.ident);
        match self.values {
            Values::Read(p) if same_ident(p, self.key, &self.ident) => Repaired::Kept(p.stored()),
            values => {
                // A table identifier is the table's own text: nothing copied.
                let ident = match crate::model::props::PROPS.get(usize::from(self.key)) {
                    Some(d) => Cow::Borrowed(d.ident),
                    None => Cow::Owned(self.ident.into_owned()),
                };
                match values {
                    Values::One(v) => Repaired::One(self.key, ident, v),
                    values => Repaired::New(self.key, ident, values.into_vec()),
                }
            }
        }
    }
}

/// Whether property `p` has the identifier of table key `key` (or, [`NO_KEY`], `ident`).
#[inline]
fn same_ident(p: Property<'_>, key: u16, ident: &str) -> bool {
    if key == NO_KEY { !p.known() && p.ident() == ident } else { p.known() && p.key() == key }
}

/// Whether `v` is empty or white space (as `v.trim().is_empty()`), told from its first byte
/// when that is an ASCII character.
#[inline]
pub(crate) fn blank(v: &str) -> bool {
    match v.as_bytes().first() {
        None => true,
        Some(&b) if b < 0x80 && !char::from(b).is_whitespace() => false,
        Some(_) => v.trim().is_empty(),
    }
}

/// How many repairs the diagnostic `d` stands for: 0 for a diagnostic that is no `fix.*`
/// repair, the number not shown for the summary that ends a code's list past the per-code cap
/// ("N more repairs like this not shown"), else 1. Summing it over a read's diagnostics counts
/// its repairs per code, as the command's `kifu: repairs:` line does.
///
/// ```
/// use kifu::Diagnostic;
/// use kifu::normalise::repairs_in;
/// assert_eq!(repairs_in(&Diagnostic::info("fix.overtime", "Fox byo-yomi …")), 1);
/// assert_eq!(repairs_in(&Diagnostic::info("fix.overtime", "250 more repairs like this not shown (350 in all)")), 250);
/// assert_eq!(repairs_in(&Diagnostic::warning("sgf.text-before", "…")), 0);
/// ```
pub fn repairs_in(d: &Diagnostic) -> usize {
    if !d.code.starts_with("fix.") {
        return 0;
    }
    match d.message.split_once(MORE_NOT_SHOWN) {
        Some((n, _)) => n.parse().unwrap_or(1),
        None => 1,
    }
}

/// The words of the diagnostic that ends a code's list past the per-code cap.
const MORE_NOT_SHOWN: &str = " more repairs like this not shown";

/// FF\[4\] DT: comma-separated dates; the first gives the year (`YYYY`, `YYYY-MM`,
/// `YYYY-MM-DD`); later ones may shorten to `MM-DD` or `DD` (or `MM` after `YYYY-MM`).
pub(crate) fn is_iso_date(s: &str) -> bool {
    let digits = |t: &str, n: usize| t.len() == n && t.bytes().all(|b| b.is_ascii_digit());
    let month = |t: &str| digits(t, 2) && (1..=12).contains(&t.parse::<u8>().unwrap_or(0));
    let day = |t: &str| digits(t, 2) && (1..=31).contains(&t.parse::<u8>().unwrap_or(0));
    // How precise the previous date was: 1 = year, 2 = month, 3 = day.
    let mut prev = 0;
    for part in s.split(',') {
        let fields: Vec<&str> = part.split('-').collect();
        let ok = match fields.as_slice() {
            [y] if digits(y, 4) => {
                prev = 1;
                true
            }
            [y, m] if digits(y, 4) && month(m) => {
                prev = 2;
                true
            }
            [y, m, d] if digits(y, 4) && month(m) && day(d) => {
                prev = 3;
                true
            }
            [m, d] if prev == 3 && month(m) && day(d) => true,
            [d] if prev == 3 && day(d) => true,
            [m] if prev == 2 && month(m) => true,
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    prev > 0
}

/// A message on one line: line breaks and tabs in the values it quotes written `\n`, `\r`,
/// `\t` (formats/cli.md: every diagnostic is one line).
pub(crate) fn one_line(msg: String) -> String {
    if !msg.contains(['\n', '\r', '\t']) {
        return msg;
    }
    msg.replace('\r', "\\r").replace('\n', "\\n").replace('\t', "\\t")
}

/// The values of a [`Prop`]: the tree's own until a repair changes them, then owned.
#[derive(Clone, Debug)]
pub(crate) enum Values<'t> {
    /// As read (borrowed from the tree).
    Read(Property<'t>),
    /// Changed or new.
    Owned(Vec<PropValue>),
    /// Changed or new, one value (no list allocated).
    One(PropValue),
}

impl Default for Values<'_> {
    fn default() -> Self {
        Values::Owned(Vec::new())
    }
}

impl From<Vec<PropValue>> for Values<'_> {
    fn from(v: Vec<PropValue>) -> Self {
        Values::Owned(v)
    }
}

impl IntoIterator for Values<'_> {
    type Item = PropValue;
    type IntoIter = std::vec::IntoIter<PropValue>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl Values<'_> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::Read(p) => p.len(),
            Values::One(_) => 1,
            Values::Owned(v) => v.len(),
        }
    }

    pub(crate) fn first(&self) -> Option<&str> {
        match self {
            Values::Read(p) => p.single_plain().or_else(|| p.first()),
            Values::One(v) => Some(&v.text),
            Values::Owned(v) => v.first().map(|v| v.text.as_str()),
        }
    }

    /// The values' texts, in order.
    pub(crate) fn texts(&self) -> impl Iterator<Item = &str> {
        let (read, owned) = match self {
            Values::Read(p) => (Some(p.values().map(|v| v.as_str())), None),
            Values::One(v) => (None, Some(std::slice::from_ref(v))),
            Values::Owned(v) => (None, Some(v.as_slice())),
        };
        let owned = owned.map(|v| v.iter().map(|v| v.text.as_str()));
        read.into_iter().flatten().chain(owned.into_iter().flatten())
    }

    /// Each value as its text and, for a composed value (`a:b`), its two parts.
    pub(crate) fn split_texts(&self) -> impl Iterator<Item = (&str, Option<(&str, &str)>)> {
        let (read, owned) = match self {
            Values::Read(p) => (Some(p.values().map(|v| (v.as_str(), v.parts()))), None),
            Values::One(v) => (None, Some(std::slice::from_ref(v))),
            Values::Owned(v) => (None, Some(v.as_slice())),
        };
        let owned =
            owned.map(|v| v.iter().map(|v| (v.text.as_str(), v.split.map(|s| (&v.text[..s], &v.text[s + 1..])))));
        read.into_iter().flatten().chain(owned.into_iter().flatten())
    }

    /// Whether every value is blank (empty or white space).
    pub(crate) fn all_blank(&self) -> bool {
        match self {
            Values::Read(p) => match p.single_plain() {
                Some(v) => blank(v),
                None => p.values().all(|v| blank(v.as_str())),
            },
            Values::One(v) => blank(&v.text),
            Values::Owned(v) => v.iter().all(|v| blank(&v.text)),
        }
    }

    /// Whether some value is composed (`a:b`).
    fn any_composed(&self) -> bool {
        match self {
            Values::Read(p) => p.values().any(|v| v.parts().is_some()),
            Values::One(v) => v.split.is_some(),
            Values::Owned(v) => v.iter().any(|v| v.split.is_some()),
        }
    }

    /// The values, owned (copied from the tree the first time), to change.
    pub(crate) fn to_mut(&mut self) -> &mut Vec<PropValue> {
        if !matches!(self, Values::Owned(_)) {
            *self = Values::Owned(std::mem::take(self).into_vec());
        }
        match self {
            Values::Owned(v) => v,
            Values::Read(_) | Values::One(_) => unreachable!("made owned above"),
        }
    }

    /// The values taken out (owned), leaving none.
    pub(crate) fn take(&mut self) -> Vec<PropValue> {
        std::mem::take(self).into_vec()
    }

    /// An owned copy.
    pub(crate) fn to_vec(&self) -> Vec<PropValue> {
        self.clone().into_vec()
    }

    pub(crate) fn into_vec(self) -> Vec<PropValue> {
        match self {
            Values::Read(p) => p.values().map(|v| v.to_owned_value()).collect(),
            Values::One(v) => vec![v],
            Values::Owned(v) => v,
        }
    }
}

/// A repaired node's property, detached from the tree (written back once the repairs are done).
enum Repaired {
    /// Unchanged: its stored form.
    Kept(Stored),
    /// Changed or new: table key ([`NO_KEY`] for another identifier), identifier and values.
    New(u16, Cow<'static, str>, Vec<PropValue>),
    /// Changed or new, with one value.
    One(u16, Cow<'static, str>, PropValue),
}

impl Repaired {
    /// The property for [`GameTree::replace_props`].
    fn as_new(&self) -> NewProp<'_> {
        match self {
            Repaired::Kept(s) => NewProp::Stored(*s),
            Repaired::New(NO_KEY, ident, values) => NewProp::Owned(ident, values),
            Repaired::New(key, _, values) => NewProp::Keyed(*key, values),
            Repaired::One(NO_KEY, ident, value) => NewProp::Owned(ident, std::slice::from_ref(value)),
            Repaired::One(key, _, value) => NewProp::Keyed(*key, std::slice::from_ref(value)),
        }
    }
}

/// A repair to report: where (node, property as read) and what.
#[derive(Debug)]
pub(crate) struct Finding {
    pub node: NodeId,
    pub origin: Option<usize>,
    pub diag: Diagnostic,
    /// Past the per-code cap ([`crate::diag::MAX_PER_CODE`]) already: counted, then dropped
    /// (not placed, its message not written).
    pub capped: bool,
}

/// What the repairs of one game know about it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GameFacts {
    /// Fox Go Server file (`AP[foxwq]`, or the `TC`/`TT` byo-yomi pair of its exports).
    pub fox: bool,
    /// Nihon Ki-in / Cyberoro dialect (see [`is_oro_dialect`]).
    pub oro: bool,
    /// The root declares FF\[1\]–FF\[3\].
    pub old_ff: bool,
    /// The unit of komi and results the root's `RU` gives (used for Fox records).
    pub unit: fox::Unit,
}

/// One node's properties under repair, with the findings so far.
pub(crate) struct Work<'f> {
    pub node: NodeId,
    pub is_root: bool,
    pub props: Vec<Prop<'f>>,
    /// Nodes to insert below this one (a node split in two); the node's children move to the last.
    pub after: Vec<Vec<Prop<'f>>>,
    pub changed: bool,
    findings: &'f mut Vec<Finding>,
    /// The codes past the per-code cap in the games before (their findings are only counted).
    full: &'f [&'static str],
}

impl Work<'_> {
    /// Report a repair on the property read at `origin` (or on the node when `None`).
    pub(crate) fn report(&mut self, origin: Option<usize>, severity: Severity, code: &'static str, msg: String) {
        self.changed = true;
        self.note(origin, severity, code, msg);
    }

    /// Report something found that needs no change (the node is not rewritten for it).
    pub(crate) fn note(&mut self, origin: Option<usize>, severity: Severity, code: &'static str, msg: String) {
        let capped = !self.wants(code);
        let msg = one_line(msg);
        self.findings.push(Finding { node: self.node, origin, diag: Diagnostic::new(severity, code, msg), capped });
    }

    /// Whether a message for a finding of `code` is shown: false when the games before had more
    /// than [`crate::diag::MAX_PER_CODE`] of it (the finding is counted, its message not
    /// written: callers pass an empty one).
    pub(crate) fn wants(&self, code: &'static str) -> bool {
        !self.full.iter().any(|c| std::ptr::eq(*c, code) || *c == code)
    }

    /// The index of the first property `ident`.
    pub(crate) fn find(&self, ident: &str) -> Option<usize> {
        match crate::model::props::index_of(ident) {
            Some(k) => self.find_key(k),
            None => self.props.iter().position(|p| p.key == NO_KEY && p.ident == ident),
        }
    }

    /// The index of the first property with table key `key`.
    #[inline]
    pub(crate) fn find_key(&self, key: u16) -> Option<usize> {
        self.props.iter().position(|p| p.key == key)
    }

    /// The first value of the first property `ident`.
    pub(crate) fn value(&self, ident: &str) -> Option<&str> {
        self.find(ident).map(|i| self.props[i].first())
    }

    /// Adds `values` to the private property for `ident` (created after the property at `after`).
    pub(crate) fn keep_private(&mut self, ident: &str, values: Vec<PropValue>, after: usize) {
        let id = private(ident);
        match self.find(&id) {
            Some(i) => self.props[i].values.to_mut().extend(values),
            None => {
                let at = (after + 1).min(self.props.len());
                self.props.insert(at, Prop::new(id, values));
            }
        }
    }
}

/// Applies every repair to every game of `read`, adding one diagnostic per repair.
pub fn apply(read: &mut ReadOutput) {
    apply_reporting(read);
}

/// [`apply`]; returns whether some game needed work.
///
/// A large collection's games are repaired in runs, each run's games in parallel on the rayon
/// pool, then their diagnostics are placed and counted in game order. A game read without
/// positions is read again with them only to place a repair whose message is shown, or to look
/// for inline variations; it is returned without them.
pub(crate) fn apply_reporting(read: &mut ReadOutput) -> bool {
    // The games of a collection share their source text: scan it once for inline variations.
    let mut scanned: Option<(usize, bool)> = None;
    let mut may_continue = |tree: &GameTree| {
        let src = tree.source();
        let key = src.as_ptr() as usize;
        match scanned {
            Some((k, v)) if k == key => v,
            _ => {
                let v = variations::source_may_continue(src);
                scanned = Some((key, v));
                v
            }
        }
    };
    // One pass over each game: the nodes some repair touches (nothing allocated for a clean one).
    let games = &read.collection.games;
    let parallel = games.len() >= PARALLEL_FROM && crate::parallel::threads() > 1;
    let mut plans: Vec<Option<Plan>> = Vec::new();
    if parallel {
        let may: Vec<bool> = games.iter().map(&mut may_continue).collect();
        plans = plan_all(games, may);
        if plans.iter().all(Option::is_none) {
            plans.clear();
        }
    } else {
        for (i, game) in games.iter().enumerate() {
            let plan = plan(game, may_continue(game));
            if plan.is_some() && plans.is_empty() {
                plans.resize_with(i, || None);
            }
            if plan.is_some() || !plans.is_empty() {
                plans.push(plan);
            }
        }
    }
    if plans.is_empty() {
        return false;
    }
    let mut added = Vec::new();
    // The games of a collection come in the order of their shared text: their repairs are
    // placed in one pass over it.
    let mut cursor = crate::diag::PositionCursor::default();
    // Repairs per code so far, and the codes past the cap: a later game's repairs of those are
    // all dropped by `cap_per_code`, so they are only counted (no message, no position).
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    let mut full: Vec<&'static str> = Vec::new();
    // Repairs after the first one past the cap, per code: not kept, only counted.
    let mut dropped: Vec<(&'static str, usize)> = Vec::new();
    #[cfg(test)]
    let early_cap = !tests::NO_EARLY_CAP.with(std::cell::Cell::get);
    #[cfg(not(test))]
    let early_cap = true;
    let games = &mut read.collection.games;
    let mut runs: Vec<Repairs> = Vec::new();
    let mut scratch = Scratch::take();
    let (mut pending, mut placed) = (Vec::new(), Vec::new());
    let mut done = 0;
    while done < games.len() {
        let end = if parallel { done + done.clamp(RUN_FIRST, RUN_MAX) } else { done + 1 }.min(games.len());
        if parallel {
            // A run's games know the codes past the cap before it, not those that cross it within
            // the run: those are worded a little longer, then dropped by `cap_per_code` as the
            // cap drops them (the same diagnostics).
            runs = repair_run(&mut games[done..end], &mut plans[done..end], &full);
        } else {
            if runs.is_empty() {
                runs.push(Repairs::default());
            }
            if let Some(plan) = plans[done].take() {
                repair_game(&mut games[done], plan, &full, &mut scratch, &mut runs[0]);
            }
        }
        for run in &mut runs {
            let mut diags = run.diags.drain(..);
            for (n, src) in run.games.drain(..) {
                pending.clear();
                pending.extend(diags.by_ref().take(n));
                resolve(src.as_deref().map(String::as_str), &mut pending, &mut cursor, &mut placed);
                for d in placed.drain(..) {
                    let n = count(&mut counts, d.code);
                    *n += 1;
                    if *n == crate::diag::MAX_PER_CODE + 1 && early_cap {
                        full.push(d.code);
                    }
                    if *n <= crate::diag::MAX_PER_CODE + 1 {
                        added.push(d);
                    } else {
                        *count(&mut dropped, d.code) += 1;
                    }
                }
            }
        }
        done = end;
    }
    scratch.keep();
    cap_per_code(&mut added, &dropped);
    read.diagnostics.extend(added);
    true
}

/// Collections of this many games are planned and repaired on the rayon pool (when it has more
/// than one thread).
const PARALLEL_FROM: usize = 512;

/// The first runs of games repaired in parallel (a run as long as the games before it, from
/// this many up to [`RUN_MAX`]): the codes past the cap are known after a few short runs.
const RUN_FIRST: usize = 64;
/// The longest run of games repaired in parallel.
const RUN_MAX: usize = 4096;

/// What the repairs of one game start from: its facts, the nodes some repair touches, and
/// whether its source text may hold inline variations.
struct Plan {
    facts: GameFacts,
    nodes: Vec<NodeId>,
    may_continue: bool,
}

/// The [`Plan`] of `tree`, `None` when no repair applies (`may_continue`: whether its source
/// text may hold inline variations at all).
fn plan(tree: &GameTree, may_continue: bool) -> Option<Plan> {
    if tree.is_empty() {
        return None;
    }
    let facts = scan::facts_of(tree);
    let mut nodes = Vec::new();
    tree.each_beyond_plain_moves(scan::plain_beside_move, |id| {
        if scan::node_needs_work(tree.node(id), &facts) {
            nodes.push(id);
        }
    });
    (!nodes.is_empty() || inline_candidate(tree, may_continue)).then_some(Plan { facts, nodes, may_continue })
}

/// Whether `tree` may hold inline variations. A game that knows neither the reader's offsets nor
/// where the reader found it cannot scan only its own text: it is a candidate when it has
/// variations in a source that may continue them. A candidate read without offsets is read
/// again with them to find its inline variations.
fn inline_candidate(tree: &GameTree, may_continue: bool) -> bool {
    may_continue
        && if tree.node_offset(NodeId::ROOT).is_some() || tree.read_span().is_some() {
            variations::candidates(tree)
        } else {
            tree.has_variations()
        }
}

/// Whether any repair applies to `tree` (cheap: no allocation for a clean tree).
pub fn needs_repair(tree: &GameTree) -> bool {
    plan(tree, variations::source_may_continue(tree.source())).is_some()
}

/// A repair's diagnostic and the offset of its place in its game's source text (line and column
/// are found later, in game order).
type Pending = (Diagnostic, Option<usize>);

/// The diagnostics of a run of games, game after game: for each game, how many, and the text
/// their offsets are in (when some have one).
#[derive(Default)]
struct Repairs {
    diags: Vec<Pending>,
    games: Vec<(usize, Option<std::sync::Arc<String>>)>,
}

/// The plans of `games` ([`plan`], with whether each may continue inline), on the pool.
fn plan_all(games: &[GameTree], may: Vec<bool>) -> Vec<Option<Plan>> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        games.par_iter().zip(may).map(|(game, may)| plan(game, may)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        games.iter().zip(may).map(|(game, may)| plan(game, may)).collect()
    }
}

/// Repairs `games` (a run) on the pool, each as [`repair_game`] with its plan: their
/// diagnostics, in game order (one part per chunk of games).
fn repair_run(games: &mut [GameTree], plans: &mut [Option<Plan>], full: &[&'static str]) -> Vec<Repairs> {
    let per = games.len().div_ceil(4 * crate::parallel::threads()).max(1);
    let chunk = |(games, plans): (&mut [GameTree], &mut [Option<Plan>])| {
        let mut scratch = Scratch::take();
        let mut out = Repairs::default();
        for (game, plan) in games.iter_mut().zip(plans) {
            if let Some(plan) = plan.take() {
                repair_game(game, plan, full, &mut scratch, &mut out);
            }
        }
        scratch.keep();
        out
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        games.par_chunks_mut(per).zip(plans.par_chunks_mut(per)).map(chunk).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        games.chunks_mut(per).zip(plans.chunks_mut(per)).map(chunk).collect()
    }
}

/// Buffers of one game's repairs, kept from game to game (most games of a collection need the
/// same few repairs: nothing is allocated for them after the first).
#[derive(Default)]
struct Scratch {
    findings: Vec<Finding>,
    /// The repaired properties of every rewritten node, node after node, part after part.
    flat: Vec<Repaired>,
    /// Property counts of the parts (a node split in two has two) in `flat`.
    parts: Vec<usize>,
    /// Each rewritten node and the range of its parts in `parts`.
    rewrites: Vec<(NodeId, std::ops::Range<usize>)>,
}

std::thread_local! {
    /// This thread's repair buffers between inputs (the small files of a batch come one after
    /// another on each thread).
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

impl Scratch {
    /// Entries a kept buffer may hold room for; a larger one (after a large game) is let go.
    const KEEP_UP_TO: usize = 1024;

    /// This thread's buffers (new ones when they are in use, by a repair that reads a game
    /// again, say).
    fn take() -> Scratch {
        SCRATCH.take()
    }

    /// Empties the buffers and keeps them for this thread's next input.
    fn keep(mut self) {
        let room = [self.findings.capacity(), self.flat.capacity(), self.parts.capacity(), self.rewrites.capacity()];
        if room.iter().all(|&n| n <= Self::KEEP_UP_TO) {
            self.findings.clear();
            self.flat.clear();
            self.parts.clear();
            self.rewrites.clear();
            SCRATCH.set(self);
        }
    }
}

/// Repairs one game (in place, or rebuilt when something changed); adds its diagnostics to
/// `out`, unplaced (`full`: the codes whose repairs are only counted).
fn repair_game(tree: &mut GameTree, plan: Plan, full: &[&'static str], scratch: &mut Scratch, out: &mut Repairs) {
    let Plan { facts, nodes, may_continue } = plan;
    let with_positions = tree.node_offset(NodeId::ROOT).is_some();
    repair_nodes(tree, &facts, &nodes, full, scratch);
    // A game read without offsets is read again with them: whole to find inline variations (its
    // repairs are then redone on the same game, read with them), else up to the last node whose
    // repair is shown, to place those.
    let mut head = None;
    if !with_positions && inline_candidate(tree, may_continue) {
        if let Some(again) = crate::formats::sgf::read_game_again(tree) {
            *tree = again;
            repair_nodes(tree, &facts, &nodes, full, scratch);
        }
    } else if !with_positions {
        let shown = scratch.findings.iter().filter(|f| !f.capped).map(|f| f.node).max();
        head = shown.and_then(|last| crate::formats::sgf::read_game_head_again(tree, last));
    }
    let order = variations::plan(tree, &mut scratch.findings);
    let from = out.diags.len();
    place(tree, head.as_ref().unwrap_or(tree), &mut scratch.findings, &mut out.diags);
    let src = out.diags[from..].iter().any(|d| d.1.is_some()).then(|| tree.source_arc());
    out.games.push((out.diags.len() - from, src));
    edit(tree, scratch, &order);
    if !with_positions {
        tree.forget_positions();
    }
}

/// Runs the repairs on `nodes` of `tree` (its findings and rewritten nodes into `scratch`, emptied
/// first).
fn repair_nodes(tree: &GameTree, facts: &GameFacts, nodes: &[NodeId], full: &[&'static str], scratch: &mut Scratch) {
    scratch.findings.clear();
    scratch.flat.clear();
    scratch.parts.clear();
    scratch.rewrites.clear();
    for &id in nodes {
        let n = tree.node(id);
        // Room for the few properties a repair adds (`OT`, `XSGF…`).
        let mut props: Vec<Prop<'_>> = Vec::with_capacity(n.prop_count() + 4);
        props.extend(n.props().enumerate().map(|(i, p)| Prop::read(i, p)));
        let mut w = Work {
            node: n.id(),
            is_root: n.is_root(),
            props,
            after: Vec::new(),
            changed: false,
            findings: &mut scratch.findings,
            full,
        };
        repair_node(&mut w, facts, tree);
        if w.changed {
            let Work { node, props, after, .. } = w;
            let first = scratch.parts.len();
            for props in std::iter::once(props).chain(after) {
                scratch.parts.push(props.len());
                scratch.flat.extend(props.into_iter().map(Prop::detach));
            }
            scratch.rewrites.push((node, first..scratch.parts.len()));
        }
    }
}

/// Writes the rewritten nodes of `scratch` and the child `order` into `tree`.
fn edit(tree: &mut GameTree, scratch: &mut Scratch, order: &[(NodeId, Vec<NodeId>)]) {
    if scratch.rewrites.is_empty() && order.is_empty() {
        return;
    }
    // A few nodes whose properties change (the root, mostly) are edited in place, which keeps the
    // tree's storage and positions; splits, reorders and many nodes rebuild the tree once.
    if order.is_empty() && scratch.rewrites.len() <= IN_PLACE && scratch.rewrites.iter().all(|(_, r)| r.len() == 1) {
        let mut at = 0;
        for (node, r) in &scratch.rewrites {
            let n = scratch.parts[r.start];
            tree.replace_props(*node, scratch.flat[at..at + n].iter().map(Repaired::as_new));
            at += n;
        }
        return;
    }
    let mut flat = scratch.flat.drain(..);
    let rewrites: Vec<(NodeId, Vec<Vec<Repaired>>)> = scratch
        .rewrites
        .iter()
        .map(|(node, r)| (*node, scratch.parts[r.clone()].iter().map(|&n| flat.by_ref().take(n).collect()).collect()))
        .collect();
    drop(flat);
    *tree = rebuild(tree, rewrites, order);
}

/// How many rewritten nodes are edited in place (each edit is linear in the tree's size).
const IN_PLACE: usize = 8;

/// Runs the repair families on one node, in an order where each sees the previous one's work.
fn repair_node(w: &mut Work<'_>, facts: &GameFacts, tree: &GameTree) {
    duplicates::merge(w);
    old_ff::repair(w, facts);
    small::repair(w, tree);
    small::split(w);
    if facts.oro {
        dialect::repair(w);
    }
    fox::repair(w, facts);
    if w.is_root {
        small::header_first(w);
    }
    duplicates::coalesce(w);
    // A private property is read back as plain text: composed values become `a:b` text.
    for p in w.props.iter_mut().chain(w.after.iter_mut().flatten()) {
        if p.key == NO_KEY && p.ident.starts_with(PRIVATE_PREFIX) && p.values.any_composed() {
            p.values.to_mut().iter_mut().for_each(|v| v.split = None);
        }
    }
}

/// The findings of one game as diagnostics, each with the offset of its place (from the reader's
/// offsets, recorded in `tree` or in `read`, the same game read again up to a node) when its
/// message is shown, and the move number of nodes below the root added.
fn place(tree: &GameTree, read: &GameTree, findings: &mut Vec<Finding>, out: &mut Vec<Pending>) {
    if findings.iter().all(|f| f.capped) {
        out.extend(findings.drain(..).map(|f| (f.diag, None)));
        return;
    }
    // The recorded offsets of the properties of the node last asked about (findings come node
    // by node).
    let mut props_of: Option<(NodeId, Vec<Option<usize>>)> = None;
    let offsets: Vec<Option<usize>> = findings
        .iter()
        .map(|f| {
            if f.capped {
                return None;
            }
            let node = read.get_node(f.node)?;
            let Some(i) = f.origin else { return read.node_offset(f.node) };
            if props_of.as_ref().is_none_or(|(n, _)| *n != f.node) {
                props_of = Some((f.node, node.props().map(|p| p.offset()).collect()));
            }
            match props_of.as_ref().and_then(|(_, offs)| offs.get(i)) {
                Some(&o) => o.or_else(|| read.node_offset(f.node)),
                None => read.node_offset(f.node),
            }
        })
        .collect();
    let numbers = move_numbers(tree, findings);
    out.extend(findings.drain(..).zip(offsets).map(|(f, off)| {
        let mut d = f.diag;
        if f.capped {
            return (d, None);
        }
        match numbers.as_ref().map_or(0, |c| c[f.node.index()]) {
            0 if f.node != NodeId::ROOT => d.message = format!("node {}: {}", f.node.index(), d.message),
            0 => {}
            n => {
                let own = tree.node(f.node).props().any(|p| matches!(p.key(), keys::B | keys::W));
                let at = if own { "" } else { ", the node after it" };
                d.message = format!("move {n}{at}: {}", d.message);
            }
        }
        (d, off)
    }));
}

/// One game's diagnostics from [`place`] (emptied) into `out`, their offsets in `src` resolved to
/// line:column, sorted by place.
fn resolve(
    src: Option<&str>,
    pending: &mut Vec<Pending>,
    cursor: &mut crate::diag::PositionCursor,
    out: &mut Vec<Diagnostic>,
) {
    let from = out.len();
    let mut wanted: Vec<usize> = pending.iter().filter_map(|d| d.1).collect();
    let found = match src {
        Some(src) if !wanted.is_empty() => {
            wanted.sort_unstable();
            wanted.dedup();
            cursor.positions(src, &wanted)
        }
        _ => {
            wanted.clear();
            Vec::new()
        }
    };
    out.extend(pending.drain(..).map(|(d, off)| match off.and_then(|o| wanted.binary_search(&o).ok()) {
        Some(i) => d.at(found[i]),
        None => d,
    }));
    out[from..].sort_by_key(|d| d.position.map(|p| p.offset));
}

/// The move number (moves on the path from the root, this node's included) of every node, 0
/// for a node before the first move; `None` when every finding is on the root (which has no
/// number).
fn move_numbers(tree: &GameTree, findings: &[Finding]) -> Option<Vec<u32>> {
    if findings.iter().all(|f| f.node == NodeId::ROOT || f.capped) {
        return None;
    }
    let mut count = vec![0u32; tree.len()];
    for n in tree.nodes() {
        let here = n.props().any(|p| matches!(p.key(), keys::B | keys::W)) as u32;
        count[n.id().index()] = n.parent().map_or(0, |p| count[p.id().index()]) + here;
    }
    Some(count)
}

/// The count of `code` in `counts` (a new entry at 0 the first time).
fn count<'c>(counts: &'c mut Vec<(&'static str, usize)>, code: &'static str) -> &'c mut usize {
    let k = match counts.iter().position(|(c, _)| std::ptr::eq(*c, code) || *c == code) {
        Some(k) => k,
        None => {
            counts.push((code, 0));
            counts.len() - 1
        }
    };
    &mut counts[k].1
}

/// Keeps at most [`crate::diag::MAX_PER_CODE`] repairs of one code per input, then one summary.
/// `dropped`: repairs per code that came after the first one past the cap and were not kept,
/// counted in the summary.
fn cap_per_code(diags: &mut Vec<Diagnostic>, dropped: &[(&'static str, usize)]) {
    if diags.len() <= crate::diag::MAX_PER_CODE {
        return;
    }
    // A few codes: a list, not a map.
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    let mut over: Vec<(&'static str, Severity)> = Vec::new();
    diags.retain(|d| {
        let n = count(&mut counts, d.code);
        *n += 1;
        if *n == crate::diag::MAX_PER_CODE + 1 {
            over.push((d.code, d.severity));
        }
        *n <= crate::diag::MAX_PER_CODE
    });
    for (code, severity) in over {
        let n = counts.iter().chain(dropped).filter(|(c, _)| *c == code).map(|&(_, n)| n).sum::<usize>();
        diags.push(Diagnostic::new(
            severity,
            code,
            format!("{}{MORE_NOT_SHOWN} ({n} in all)", n - crate::diag::MAX_PER_CODE),
        ));
    }
}

/// Builds the repaired tree: nodes in `rewrites` get their new properties; the children listed
/// in `order` come in that order (the others keep theirs).
fn rebuild(tree: &GameTree, rewrites: Vec<(NodeId, Vec<Vec<Repaired>>)>, order: &[(NodeId, Vec<NodeId>)]) -> GameTree {
    // Written straight into the compact tree, in preorder (a parent, then each child's subtree
    // in turn): a tree of millions of nodes is never held in a builder's per-node vectors.
    struct Frame {
        /// The new node whose children these are, and the new id of the last one written.
        parent: u32,
        last: Option<u32>,
        kids: Vec<NodeId>,
        next: usize,
    }
    let mut rewrites: std::collections::HashMap<NodeId, Vec<Vec<Repaired>>> = rewrites.into_iter().collect();
    let reordered: std::collections::HashMap<NodeId, &Vec<NodeId>> = order.iter().map(|(p, c)| (*p, c)).collect();
    let mut out = GameTree::with_source(std::sync::Arc::new(String::new()));
    out.reserve(tree.len(), tree.nodes().map(|n| n.prop_count()).sum());
    let mut values: Vec<PropValue> = Vec::new();
    let mut copy = |out: &mut GameTree, p: Property<'_>| {
        values.clear();
        values.extend(p.values().map(|v| v.to_owned_value()));
        out.push_prop_owned(p.ident(), &values);
    };
    // Writes node `id` (split into a chain of nodes by a rewrite) under `parent`; returns the
    // new ids of the chain's first and last nodes.
    let mut write = |out: &mut GameTree, id: NodeId, parent: Option<u32>, prev: Option<u32>| {
        let first = out.push_node(parent, prev);
        let mut at = first;
        match rewrites.remove(&id) {
            Some(chain) => {
                for (k, props) in chain.into_iter().enumerate() {
                    if k > 0 {
                        at = out.push_node(Some(at), None);
                    }
                    for p in props {
                        match p {
                            Repaired::Kept(s) => copy(out, tree.stored_property(s)),
                            Repaired::New(_, ident, values) => out.push_prop_owned(&ident, &values),
                            Repaired::One(_, ident, value) => out.push_prop_owned(&ident, std::slice::from_ref(&value)),
                        }
                    }
                }
            }
            None => tree.node(id).props().for_each(|p| copy(out, p)),
        }
        (first, at)
    };
    let kids_of = |id: NodeId| -> Vec<NodeId> {
        match reordered.get(&id) {
            Some(c) => c.to_vec(),
            None => tree.children(id).collect(),
        }
    };
    let (_, root) = write(&mut out, NodeId::ROOT, None, None);
    let mut stack = vec![Frame { parent: root, last: None, kids: kids_of(NodeId::ROOT), next: 0 }];
    while let Some(top) = stack.last_mut() {
        let Some(&id) = top.kids.get(top.next) else {
            stack.pop();
            continue;
        };
        top.next += 1;
        let (first, last) = write(&mut out, id, Some(top.parent), top.last);
        top.last = Some(first);
        let kids = kids_of(id);
        if !kids.is_empty() {
            stack.push(Frame { parent: last, last: None, kids, next: 0 });
        }
    }
    out.finish();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, ReadOptions};

    fn read(text: &str) -> ReadOutput {
        Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap()
    }

    #[test]
    fn clean_games_need_nothing() {
        let r = read("(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[a]KM[6.5];B[pd];W[dd](;B[pp])(;B[dp]))");
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert!(!needs_repair(&r.collection.games[0]));
    }

    #[test]
    fn offsets_are_kept_only_when_asked_for() {
        let clean = read("(;GM[1]FF[4]SZ[19];B[pd])");
        assert_eq!(clean.collection.games[0].node_offset(NodeId::ROOT), None);
        let text = "(;GM[1]SZ[19]\nPB[x]C[a]C[b];B[pd])";
        let repaired = read(text);
        assert_eq!(repaired.collection.games[0].node_offset(NodeId::from_index(1)), None);
        let options = ReadOptions { positions: true, ..ReadOptions::default() };
        let kept = Format::SGF.read(text.as_bytes().to_vec(), &options).unwrap();
        assert_eq!(kept.collection.games[0].node_offset(NodeId::from_index(1)), Some(27));
        assert_eq!(kept.diagnostics, repaired.diagnostics);
        let game = &repaired.collection.games[0];
        assert_eq!(game.root().value("C"), Some("a\n\nb"));
        assert_eq!(repaired.diagnostics[0].to_string().split(": ").next(), Some("2:6"));
    }

    #[test]
    fn findings_have_positions_and_move_numbers() {
        let r = read("(;GM[1]SZ[9]\n;B[aa];W[bb]C[x]C[y];B[cc]\n;AB[dd]AB[ee])");
        let fix: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            fix,
            [
                "2:13: info[fix.duplicate-merged]: move 2: C given 2 times in one node; the texts joined with a blank line",
                "3:2: info[fix.duplicate-merged]: move 3, the node after it: AB given 2 times in one node; merged into one (values in order)",
            ]
        );
    }

    #[test]
    fn a_few_nodes_are_edited_in_place_many_rebuild() {
        // In place: the tree keeps its source text and recorded positions.
        let few = read("(;GM[1]SZ[9]C[a]C[b];B[aa])");
        assert!(!few.collection.games[0].source().is_empty());
        assert_eq!(few.collection.games[0].root().value("C"), Some("a\n\nb"));
        // Many: rebuilt, same content.
        let text: String = (0..20).map(|i| format!(";B[{}a]C[x]C[y]", (b'a' + i) as char)).collect();
        let many = read(&format!("(;GM[1]SZ[19]{text})"));
        let tree = &many.collection.games[0];
        assert_eq!(tree.len(), 21);
        assert!(tree.nodes().skip(1).all(|n| n.value("C") == Some("x\n\ny") && n.prop_count() == 2));
    }

    std::thread_local! {
        /// Set by a test: every repair is placed and worded, capped only at the end.
        pub(super) static NO_EARLY_CAP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    #[test]
    fn repairs_past_the_cap_are_counted_as_when_all_are_worded() {
        // Many games whose roots and moves need the common repairs, codes crossing the cap in
        // different games and at different places of one game.
        let mut text = String::new();
        for g in 0..260 {
            let extra = match g % 5 {
                0 => "GN[]",
                1 => "HA[0]",
                2 => "C[a]C[b]",
                _ => "",
            };
            text.push_str(&format!(
                "(;CA[UTF-8]AP[foxwq]GM[1]FF[4]\nSZ[19]{extra}\nBR[9段]WR[P{}]KM[{}]TC[3]TT[30]\n;B[pd];W[dd]{}\n;B[pp])\n",
                g % 9 + 1,
                if g % 3 == 0 { 0 } else { 750 },
                if g % 7 == 0 { "C[x]C[y]" } else { "" },
            ));
        }
        let run = |early: bool| {
            NO_EARLY_CAP.with(|c| c.set(!early));
            let r = read(&text);
            NO_EARLY_CAP.with(|c| c.set(false));
            let out = Format::SGF.write(&r.collection, &crate::WriteOptions::default()).unwrap().bytes;
            let diags: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
            (diags, out)
        };
        let (early, late) = (run(true), run(false));
        assert!(early.0.iter().any(|d| d.contains("more repairs like this not shown")));
        assert_eq!(early, late);
    }

    #[test]
    fn a_large_input_read_without_positions_is_placed_as_one_read_with_them() {
        // Over the size up to which the reader records positions: each game whose repairs are
        // shown is read again with them; the result is the one of a read that recorded them,
        // without the offsets nobody asked for.
        let game = "(;CA[UTF-8]AP[YuanYu]GM[1]FF[4]\nSZ[19]GN[]HA[0]\nBR[9段]KM[750]TC[3]TT[30]\n;B[pd];W[dd]C[a]C[b]\n;B[pp])\n";
        let text = game.repeat(400 << 10 >> 7);
        assert!(text.len() > 256 << 10);
        // (Moves not named: with names, every input read whole is read with positions.)
        let unnamed = ReadOptions { name_moves: false, ..ReadOptions::default() };
        let late = Format::SGF.read(text.clone().into_bytes(), &unnamed).unwrap();
        let opts = ReadOptions { positions: true, ..unnamed };
        let early = Format::SGF.read(text.clone().into_bytes(), &opts).unwrap();
        assert_eq!(late.diagnostics, early.diagnostics);
        assert!(late.diagnostics.iter().any(|d| d.position.is_some_and(|p| p.line > 400)));
        assert_eq!(late.collection, early.collection);
        assert!(late.collection.games.iter().all(|g| g.node_offset(NodeId::ROOT).is_none()));
        assert!(early.collection.games.iter().all(|g| g.node_offset(NodeId::ROOT).is_some()));
        // With names (the default), the same games, offsets dropped after naming.
        let named = Format::SGF.read(text.into_bytes(), &ReadOptions::default()).unwrap();
        assert_eq!(named.collection, late.collection);
        assert_eq!(named.diagnostics.len(), late.diagnostics.len());
    }

    /// A collection whose games need repairs of many kinds, some rare (crossing the cap late, in
    /// the middle of a run of games repaired in parallel), with inline variations.
    fn mixed_collection(games: usize) -> String {
        let mut text = String::new();
        for g in 0..games {
            let extra = match g % 7 {
                0 => "GN[]",
                1 => "HA[0]",
                2 => "C[a]C[b]",
                3 if g % 3 == 0 => "TM[30:00]",
                _ => "",
            };
            let moves = match g % 11 {
                0 => ";B[aa](;W[bb])C[inline];B[cc]",
                5 => ";B[aa]PL[W]L[bb][cc]",
                _ => ";B[pd];W[dd]",
            };
            text.push_str(&format!(
                "(;CA[UTF-8]AP[foxwq]GM[1]FF[4]\nSZ[19]{extra}\nBR[{}段]KM[{}]TC[3]TT[30]\n{moves}\n;B[pp])\n",
                g % 9 + 1,
                if g % 3 == 0 { 0 } else { 750 },
            ));
        }
        text
    }

    #[test]
    fn repairs_on_the_pool_are_the_repairs_in_order() {
        // From 512 games the repairs run in parallel by runs of games; one thread repairs game
        // after game. With positions recorded while reading, and without (games read again).
        let text = mixed_collection(3000);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let mut results = Vec::new();
        for positions in [false, true] {
            let opts = ReadOptions { positions, ..ReadOptions::default() };
            let a = one.install(|| Format::SGF.read(text.clone().into_bytes(), &opts).unwrap());
            let b = two.install(|| Format::SGF.read(text.clone().into_bytes(), &opts).unwrap());
            assert!(a.diagnostics.iter().any(|d| d.code == codes::INLINE_VARIATION && d.position.is_some()));
            assert!(a.diagnostics.iter().any(|d| d.message.contains("more repairs like this")));
            assert_eq!(a.diagnostics, b.diagnostics);
            assert_eq!(a.collection, b.collection);
            let n =
                |r: &ReadOutput| r.collection.games.iter().filter(|g| g.node_offset(NodeId::ROOT).is_some()).count();
            // (Games with inline variations are rebuilt, without offsets.)
            assert_eq!(n(&a), n(&b));
            assert_eq!(n(&a) > 2000, positions);
            results.push(b);
        }
        // Read without offsets (each game read again where needed) as with them.
        assert_eq!(results[0].diagnostics, results[1].diagnostics);
        assert_eq!(results[0].collection, results[1].collection);
    }

    #[test]
    fn repairs_are_capped_per_code() {
        let text: String = (0..150)
            .map(|i| format!(";B[{}{}]C[x]C[y]", (b'a' + (i % 19) as u8) as char, (b'a' + (i / 19) as u8) as char))
            .collect();
        let r = read(&format!("(;GM[1]SZ[19]{text})"));
        let merged = r.diagnostics.iter().filter(|d| d.code == codes::DUPLICATE_MERGED).count();
        assert_eq!(merged, crate::diag::MAX_PER_CODE + 1);
        assert!(r.diagnostics.last().unwrap().message.contains("150 in all"));
    }

    const TOKENS: &[&str] = &[
        "(",
        ")",
        ";",
        "(;",
        "GM[1]",
        "FF[4]",
        "FF[3]",
        "CA[UTF-8]",
        "SZ[9]",
        "SZ[9:9]",
        "AB[aa]",
        "AB[aa:bb]",
        "AW[bb]",
        "AE[aa]",
        "B[cc]",
        "W[dd]",
        "B[cc][dd]",
        "PL[1]",
        "PL[]",
        "PL[W]",
        "C[x]",
        "C[]",
        "C[a][b]",
        "N[ ]",
        "KM[750]",
        "KM[0]",
        "KM[1234]",
        "HA[0]",
        "HA[1]",
        "HA[2.0]",
        "TC[3]",
        "TT[30]",
        "AP[foxwq]",
        "TE[title]",
        "TE[1]",
        "KO[黒6目半]",
        "KO[]",
        "RD[2001-01-18]",
        "LT[30秒]",
        "LC[5回]",
        "HD[3]",
        "GK[1]",
        "RE[黒中押し勝ち]",
        "RE[B+R]",
        "BR[15级]",
        "WR[九段]",
        "TM[30:00(5x1:00)]",
        "TM[-]",
        "BL[1:00]",
        "DT[13/5/95]",
        "DT[2017.08.20 05:42]",
        "L[aa][bb]",
        "M[cc]",
        "KI[13]",
        "ID[x]",
        "GN[]",
        "PB[é]",
        "LB[aa:x]",
        "TR[aa][aa]",
        "XSGFKM[1]",
        "\n",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// Any mix of repairable forms: no panic, and the output needs no further repair.
        #[test]
        fn repairs_never_panic_and_settle(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..50)) {
            let text: String = tokens.concat();
            if let Ok(r) = Format::SGF.read(text.into_bytes(), &ReadOptions::default()) {
                let out = Format::SGF.write(&r.collection, &crate::WriteOptions::default()).unwrap().bytes;
                if let Ok(again) = Format::SGF.read(out.clone(), &ReadOptions::default()) {
                    let second = Format::SGF.write(&again.collection, &crate::WriteOptions::default()).unwrap().bytes;
                    proptest::prop_assert_eq!(String::from_utf8_lossy(&second), String::from_utf8_lossy(&out));
                }
            }
        }
    }

    #[test]
    fn codes_are_documented() {
        let doc = include_str!("../../formats/normalise.md");
        for c in codes::ALL {
            assert!(doc.contains(&format!("`{c}`")), "{c} is not in formats/normalise.md");
        }
    }
}
