//! Structural and semantic validation of game records (`kifu check`).
//!
//! The reader's diagnostics give the structural verdict (parsed cleanly, or recovered and what
//! was repaired); the checks here judge what the properties mean: board size, points, where
//! properties sit, value types and the Go rules. Every finding is a [`Diagnostic`] with a
//! stable `check.*` code (listed in [`codes`], documented in [`formats/checks.md`](crate::spec::checks)) and, when the
//! reader recorded positions, the line and column of the node, property or value concerned.
//! Nothing here recurses: trees are walked in pre-order with per-node state.

mod go;
mod placement;
mod points;
mod size;
mod values;

use crate::diag::{Diagnostic, LineIndex, MAX_PER_CODE, Position, Severity};
use crate::model::{BoardSize, Collection, GameTree, NodeId, Property};
use std::collections::HashMap;

/// Diagnostic codes of the checks (documented in [`formats/checks.md`](crate::spec::checks)).
pub mod codes {
    /// The root has no `SZ`: the board is 19×19 (info).
    pub const SIZE_DEFAULT: &str = "check.size-default";
    /// A square board written in composed form, `SZ[9:9]` (error).
    pub const SIZE_SQUARE_COMPOSED: &str = "check.size-square-composed";
    /// A board side outside 1..52 (error).
    pub const SIZE_RANGE: &str = "check.size-range";
    /// An `SZ` value that is not a size at all (error).
    pub const SIZE_INVALID: &str = "check.size-invalid";
    /// A rectangular `SZ` in a file declaring FF\[1\]–FF\[3\] (warning).
    pub const SIZE_RECT_OLD_FF: &str = "check.size-rectangle-old-ff";
    /// The game is not Go (`GM` other than 1): point and Go checks are skipped (warning).
    pub const NOT_GO: &str = "check.not-go";
    /// `FF` names a format version that does not exist (error).
    pub const FF_UNKNOWN: &str = "check.ff-unknown";
    /// `CA` names a charset kifu does not know (warning).
    pub const CHARSET_UNKNOWN: &str = "check.charset-unknown";
    /// A point outside its game's board, per axis (error).
    pub const POINT_OFF_BOARD: &str = "check.point-off-board";
    /// `tt` on a board larger than 19×19 is a point, not a pass (warning).
    pub const TT_NOT_PASS: &str = "check.tt-not-pass";
    /// An FF\[4\] pass `[]` in a file declaring FF\[1\]–FF\[3\] (warning).
    pub const EMPTY_PASS_OLD_FF: &str = "check.empty-pass-old-ff";
    /// A point marked by two markup properties, or twice by one, in one node (warning).
    pub const MARKUP_OVERLAP: &str = "check.markup-overlap";
    /// A point set by two setup properties, or twice by one, in one node (error).
    pub const SETUP_OVERLAP: &str = "check.setup-overlap";
    /// A root property outside the root node (error).
    pub const ROOT_PROPERTY_PLACEMENT: &str = "check.root-property-placement";
    /// Game-info properties in a second node on one path (error).
    pub const GAME_INFO_TWICE: &str = "check.game-info-twice";
    /// Move and setup properties in one node (error).
    pub const MOVE_SETUP_MIXED: &str = "check.move-setup-mixed";
    /// A move in the root node (warning: style).
    pub const MOVE_IN_ROOT: &str = "check.move-in-root";
    /// Both `B` and `W` in one node (error).
    pub const TWO_MOVES: &str = "check.two-moves";
    /// A property given twice in one node (error).
    pub const DUPLICATE_PROPERTY: &str = "check.duplicate-property";
    /// A property FF\[4\] does not define; kept (warning).
    pub const UNKNOWN_PROPERTY: &str = "check.unknown-property";
    /// A private property kifu's own readers write to keep a legacy format's values
    /// (`XGIB…`, `XNGF…`, `XUGF…`) (info).
    pub const PRIVATE_PROPERTY: &str = "check.private-property";
    /// An FF\[1\]–FF\[3\] property FF\[4\] dropped (`L`, `M`, `KI`, …) (warning).
    pub const OBSOLETE_PROPERTY: &str = "check.obsolete-property";
    /// A move annotation (`BM`, `DO`, `IT`, `TE`) in a node without a move (warning).
    pub const ANNOTATION_WITHOUT_MOVE: &str = "check.annotation-without-move";
    /// Annotations that exclude each other in one node (`GB` and `GW`, `BM` and `TE`) (warning).
    pub const CONFLICTING_ANNOTATIONS: &str = "check.conflicting-annotations";
    /// Setup stones in a node after moves on its path (info).
    pub const SETUP_AFTER_MOVES: &str = "check.setup-after-moves";
    /// A value that does not have its property's FF\[4\] value type (error).
    pub const VALUE_TYPE: &str = "check.value-type";
    /// More values than the property takes (error).
    pub const VALUE_COUNT: &str = "check.value-count";
    /// An empty value where a point list must hold a point (error).
    pub const EMPTY_LIST: &str = "check.empty-list";
    /// An empty (or blank) text value (info).
    pub const EMPTY_TEXT: &str = "check.empty-text";
    /// A control character (such as NUL) inside a text value (warning).
    pub const CONTROL_CHAR: &str = "check.control-char";
    /// `AP` without the `:version` part (warning).
    pub const AP_VERSION: &str = "check.ap-version";
    /// `DT` not in FF\[4\]'s ISO form (`YYYY-MM-DD`, partial and comma lists allowed) (warning).
    pub const DATE_FORMAT: &str = "check.date-format";
    /// `RE` not in FF\[4\]'s form (`B+3.5`, `W+R`, `0`, `Void`, `?`) (warning).
    pub const RESULT_FORMAT: &str = "check.result-format";
    /// A move on an occupied point (error).
    pub const MOVE_OCCUPIED: &str = "check.move-occupied";
    /// A suicide, under rules that forbid it (error).
    pub const MOVE_SUICIDE: &str = "check.move-suicide";
    /// An immediate recapture of a simple ko (error).
    pub const MOVE_KO: &str = "check.move-ko";
    /// The same colour moves twice in a row without `PL` saying so (warning).
    pub const SAME_COLOR_TWICE: &str = "check.same-color-twice";
    /// Setup that changes nothing (`AB` on a black stone, `AE` on an empty point) (warning).
    pub const SETUP_NO_EFFECT: &str = "check.setup-no-effect";
    /// `HA` disagrees with the handicap stones in the root (warning).
    pub const HANDICAP_STONES: &str = "check.handicap-stones";
    /// The winner in `RE` contradicts the score counted from `TB`/`TW` (warning).
    pub const RESULT_WINNER: &str = "check.result-winner";
    /// The margin in `RE` matches neither territory nor area counting of `TB`/`TW` (info).
    pub const RESULT_MARGIN: &str = "check.result-margin";

    /// `TE` (title) or `KO` (komi) in the root of a Nihon Ki-in / Oro dialect file: not judged as
    /// FF\[4\]'s tesuji and ko properties (info).
    pub const DIALECT_PROPERTY: &str = "check.dialect-property";

    /// Every code above, for documentation checks.
    pub const ALL: &[&str] = &[
        SIZE_DEFAULT,
        SIZE_SQUARE_COMPOSED,
        SIZE_RANGE,
        SIZE_INVALID,
        SIZE_RECT_OLD_FF,
        NOT_GO,
        FF_UNKNOWN,
        CHARSET_UNKNOWN,
        POINT_OFF_BOARD,
        TT_NOT_PASS,
        EMPTY_PASS_OLD_FF,
        MARKUP_OVERLAP,
        SETUP_OVERLAP,
        ROOT_PROPERTY_PLACEMENT,
        GAME_INFO_TWICE,
        MOVE_SETUP_MIXED,
        MOVE_IN_ROOT,
        TWO_MOVES,
        DUPLICATE_PROPERTY,
        UNKNOWN_PROPERTY,
        PRIVATE_PROPERTY,
        OBSOLETE_PROPERTY,
        ANNOTATION_WITHOUT_MOVE,
        CONFLICTING_ANNOTATIONS,
        SETUP_AFTER_MOVES,
        VALUE_TYPE,
        VALUE_COUNT,
        EMPTY_LIST,
        EMPTY_TEXT,
        CONTROL_CHAR,
        AP_VERSION,
        DATE_FORMAT,
        RESULT_FORMAT,
        MOVE_OCCUPIED,
        MOVE_SUICIDE,
        MOVE_KO,
        SAME_COLOR_TWICE,
        SETUP_NO_EFFECT,
        HANDICAP_STONES,
        RESULT_WINNER,
        RESULT_MARGIN,
        DIALECT_PROPERTY,
    ];
}

/// The structural verdict of one game: what the reader had to do to get it.
///
/// ```
/// use kifu::check::{SemanticVerdict, StructuralVerdict, check_collection};
/// let read = kifu::read(&b"(;GM[1]SZ[9];B[ee];W[ee])"[..]).unwrap();
/// let report = check_collection(&read.collection, &read.diagnostics);
/// assert_eq!(report.structural(), StructuralVerdict::Clean);
/// assert_eq!(report.semantic(), SemanticVerdict::Invalid); // W plays on an occupied point
/// assert_eq!(report.games[0].worst(), Some(kifu::Severity::Error));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum StructuralVerdict {
    /// The input was read without a repair.
    Clean,
    /// The reader repaired or skipped something (see [`GameReport::repairs`]).
    Recovered,
}

/// The semantic verdict of one game: what the checks found (ordered from best to worst).
///
/// ```
/// use kifu::check::{SemanticVerdict, StructuralVerdict, check_collection};
/// let read = kifu::read(&b"(;GM[1]SZ[9];B[ee];W[ee])"[..]).unwrap();
/// let report = check_collection(&read.collection, &read.diagnostics);
/// assert_eq!(report.structural(), StructuralVerdict::Clean);
/// assert_eq!(report.semantic(), SemanticVerdict::Invalid); // W plays on an occupied point
/// assert_eq!(report.games[0].worst(), Some(kifu::Severity::Error));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SemanticVerdict {
    /// Nothing above an informational note.
    Valid,
    /// Warnings, no error.
    Questionable,
    /// At least one error.
    Invalid,
}

impl StructuralVerdict {
    /// `clean` or `recovered`.
    pub fn as_str(self) -> &'static str {
        match self {
            StructuralVerdict::Clean => "clean",
            StructuralVerdict::Recovered => "recovered",
        }
    }
}

impl SemanticVerdict {
    /// `valid`, `questionable` or `invalid`.
    pub fn as_str(self) -> &'static str {
        match self {
            SemanticVerdict::Valid => "valid",
            SemanticVerdict::Questionable => "questionable",
            SemanticVerdict::Invalid => "invalid",
        }
    }
}

/// What kifu found in one game.
///
/// ```
/// use kifu::check::{SemanticVerdict, StructuralVerdict, check_collection};
/// let read = kifu::read(&b"(;GM[1]SZ[9];B[ee];W[ee])"[..]).unwrap();
/// let report = check_collection(&read.collection, &read.diagnostics);
/// assert_eq!(report.structural(), StructuralVerdict::Clean);
/// assert_eq!(report.semantic(), SemanticVerdict::Invalid); // W plays on an occupied point
/// assert_eq!(report.games[0].worst(), Some(kifu::Severity::Error));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameReport {
    /// 0-based index of the game in its collection.
    pub index: usize,
    /// Parsed cleanly or recovered.
    pub structural: StructuralVerdict,
    /// The reader's repairs in this game: code and how many times, in first-seen order.
    pub repairs: Vec<(&'static str, usize)>,
    /// Valid, questionable or invalid.
    pub semantic: SemanticVerdict,
    /// The reader's diagnostics that belong to this game, then the checks', sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl GameReport {
    /// The most serious severity among the diagnostics (`None` when there are none).
    pub fn worst(&self) -> Option<Severity> {
        self.diagnostics.iter().map(|d| d.severity).max()
    }
}

/// What kifu found in one input: one report per game.
///
/// ```
/// use kifu::check::{SemanticVerdict, StructuralVerdict, check_collection};
/// let read = kifu::read(&b"(;GM[1]SZ[9];B[ee];W[ee])"[..]).unwrap();
/// let report = check_collection(&read.collection, &read.diagnostics);
/// assert_eq!(report.structural(), StructuralVerdict::Clean);
/// assert_eq!(report.semantic(), SemanticVerdict::Invalid); // W plays on an occupied point
/// assert_eq!(report.games[0].worst(), Some(kifu::Severity::Error));
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Report {
    /// The games, in input order.
    pub games: Vec<GameReport>,
}

impl Report {
    /// Every diagnostic of every game, in order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.games.iter().flat_map(|g| g.diagnostics.iter())
    }

    /// The input's structural verdict: recovered when any game was.
    pub fn structural(&self) -> StructuralVerdict {
        self.games.iter().map(|g| g.structural).max().unwrap_or(StructuralVerdict::Clean)
    }

    /// The input's semantic verdict: the worst of its games.
    pub fn semantic(&self) -> SemanticVerdict {
        self.games.iter().map(|g| g.semantic).max().unwrap_or(SemanticVerdict::Valid)
    }

    /// How many diagnostics have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics().filter(|d| d.severity == severity).count()
    }
}

/// Checks every game of `collection`. `reader` holds the reader's diagnostics for the same
/// input: each is attached to the game it falls in (by position; unplaced ones to the first
/// game) and decides that game's structural verdict.
pub fn check_collection(collection: &Collection, reader: &[Diagnostic]) -> Report {
    let starts: Vec<Option<usize>> = collection.games.iter().map(|g| g.node_offset(NodeId::ROOT)).collect();
    let mut per_game: Vec<Vec<Diagnostic>> = vec![Vec::new(); collection.games.len()];
    for d in reader {
        let at = d.position.map(|p| p.offset);
        let game = match at {
            Some(o) => starts.iter().rposition(|s| s.is_some_and(|s| s <= o)).unwrap_or(0),
            None => 0,
        };
        if let Some(v) = per_game.get_mut(game) {
            v.push(d.clone());
        }
    }
    let mut index_cache: Option<(*const u8, usize, LineIndex<'_>)> = None;
    let mut counts: HashMap<&'static str, usize> = HashMap::new();
    let mut games = Vec::with_capacity(collection.games.len());
    for (i, (tree, read)) in collection.games.iter().zip(per_game).enumerate() {
        let src = tree.source();
        let same = index_cache.as_ref().is_some_and(|(p, l, _)| *p == src.as_ptr() && *l == src.len());
        if !same {
            index_cache = Some((src.as_ptr(), src.len(), LineIndex::new(src)));
        }
        let lines = index_cache.as_ref().map(|(_, _, l)| l);
        let checks = check_tree_with(tree, lines);
        games.push(game_report(i, read, checks, &mut counts));
    }
    Report { games }
}

/// Checks one game tree; positions are resolved against [`GameTree::source`] when the reader
/// recorded them.
pub fn check(tree: &GameTree) -> Vec<Diagnostic> {
    let lines = LineIndex::new(tree.source());
    check_tree_with(tree, Some(&lines))
}

fn game_report(
    index: usize,
    read: Vec<Diagnostic>,
    checks: Vec<Diagnostic>,
    counts: &mut HashMap<&'static str, usize>,
) -> GameReport {
    // The reader already said that the declared charset is unknown: do not say it twice.
    let mut checks = checks;
    if read.iter().any(|d| d.code == crate::charset::codes::UNKNOWN_LABEL) {
        checks.retain(|d| d.code != codes::CHARSET_UNKNOWN);
    }
    let mut repairs: Vec<(&'static str, usize)> = Vec::new();
    for d in read.iter().filter(|d| d.severity >= Severity::Warning) {
        match repairs.iter_mut().find(|(c, _)| *c == d.code) {
            Some((_, n)) => *n += 1,
            None => repairs.push((d.code, 1)),
        }
    }
    let structural = if repairs.is_empty() { StructuralVerdict::Clean } else { StructuralVerdict::Recovered };
    let semantic = match checks.iter().map(|d| d.severity).max() {
        Some(Severity::Error) => SemanticVerdict::Invalid,
        Some(Severity::Warning) => SemanticVerdict::Questionable,
        _ => SemanticVerdict::Valid,
    };
    // Reader diagnostics first, then the checks; a stable sort by position keeps that order on
    // ties. Unplaced diagnostics come first.
    let mut diagnostics = read;
    let mut over: Vec<(&'static str, Severity)> = Vec::new();
    for d in checks {
        let n = counts.entry(d.code).or_insert(0);
        *n += 1;
        if *n <= MAX_PER_CODE {
            diagnostics.push(d);
        } else if *n == MAX_PER_CODE + 1 {
            over.push((d.code, d.severity));
        }
    }
    diagnostics.sort_by_key(|d| d.position.map(|p| p.offset));
    for (code, severity) in over {
        diagnostics.push(Diagnostic::new(
            severity,
            code,
            format!("more than {MAX_PER_CODE} findings like this in this input; the rest are not shown"),
        ));
    }
    GameReport { index, structural, repairs, semantic, diagnostics }
}

fn check_tree_with(tree: &GameTree, lines: Option<&LineIndex<'_>>) -> Vec<Diagnostic> {
    if tree.is_empty() {
        return Vec::new();
    }
    let oro = crate::normalise::is_oro_dialect(tree);
    let mut cx = Ctx {
        tree,
        lines,
        out: Vec::new(),
        shown: HashMap::new(),
        size: BoardSize::default(),
        go: true,
        old_ff: false,
        oro,
    };
    size::check(&mut cx);
    placement::check(&mut cx);
    values::check(&mut cx);
    if cx.go {
        points::check(&mut cx);
        go::check(&mut cx);
    }
    cx.out
}

/// What the checks of one tree share: the tree, positions, the findings, and the game's board.
pub(crate) struct Ctx<'t> {
    tree: &'t GameTree,
    lines: Option<&'t LineIndex<'t>>,
    out: Vec<Diagnostic>,
    /// Findings per code so far: past [`MAX_PER_CODE`] a finding is only counted (it is never
    /// shown), so its position is not computed (a position costs a scan of its line, and a
    /// one-line 1,000,000-move game would make that quadratic).
    shown: HashMap<&'static str, usize>,
    /// The board resolved from this game's root.
    size: BoardSize,
    /// Whether the game is Go (GM[1] or no GM).
    go: bool,
    /// Whether the root declares FF\[1\]–FF\[3\].
    old_ff: bool,
    /// Whether the game is in the Nihon Ki-in / Oro dialect ([`crate::normalise::is_oro_dialect`]).
    oro: bool,
}

/// `TE` or `KO` in the root of a dialect file: the title and the komi, not FF\[4\]'s properties.
fn dialect_property(cx: &Ctx<'_>, p: Property<'_>) -> bool {
    cx.oro && p.node() == NodeId::ROOT && matches!(p.ident(), "TE" | "KO")
}

/// Where a finding is: nothing, a node, a property, or one value of a property.
#[derive(Clone, Copy)]
pub(crate) enum At<'a> {
    Node(NodeId),
    Prop(Property<'a>),
    Value(Property<'a>, usize),
}

impl<'t> Ctx<'t> {
    fn position(&self, at: At<'_>) -> Option<Position> {
        let lines = self.lines?;
        let offset = match at {
            At::Node(id) => self.tree.node_offset(id)?,
            At::Prop(p) => p.offset()?,
            At::Value(p, i) => value_offset(self.tree.source(), p.offset()?, i).or(p.offset())?,
        };
        Some(lines.position(offset))
    }

    fn emit(&mut self, severity: Severity, code: &'static str, at: At<'_>, message: String) {
        let mut d = Diagnostic::new(severity, code, message);
        let n = self.shown.entry(code).or_insert(0);
        *n += 1;
        if *n <= MAX_PER_CODE {
            d.position = self.position(at);
        }
        self.out.push(d);
    }

    fn error(&mut self, code: &'static str, at: At<'_>, message: String) {
        self.emit(Severity::Error, code, at, message);
    }

    fn warning(&mut self, code: &'static str, at: At<'_>, message: String) {
        self.emit(Severity::Warning, code, at, message);
    }

    fn info(&mut self, code: &'static str, at: At<'_>, message: String) {
        self.emit(Severity::Info, code, at, message);
    }
}

/// The byte offset of the `[` opening value `index` of the property whose identifier starts at
/// `prop_at` in `src` (SGF text), found by scanning the brackets.
fn value_offset(src: &str, prop_at: usize, index: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = prop_at;
    while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    let mut n = 0;
    loop {
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if b.get(i) != Some(&b'[') {
            return None;
        }
        if n == index {
            return Some(i);
        }
        i += 1;
        loop {
            match b.get(i)? {
                b'\\' => i += 2,
                b']' => break,
                _ => i += 1,
            }
        }
        i += 1;
        n += 1;
    }
}

/// Shows a value in a message: `[text]`, shortened when long, on one line.
pub(crate) fn shown(value: &str) -> String {
    let mut s: String = value.chars().take(40).collect();
    if s.len() < value.len() {
        s.push('…');
    }
    format!("[{}]", crate::normalise::one_line(s))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{Format, ReadOptions};

    /// Reads `text` with positions and checks its games; returns `line:col code` strings of the
    /// check diagnostics (without the reader's).
    pub(crate) fn codes_of(text: &str) -> Vec<String> {
        let opts = ReadOptions { positions: true, no_repair: true, ..ReadOptions::default() };
        let read = Format::SGF.read(text.as_bytes().to_vec(), &opts).expect("readable");
        let report = check_collection(&read.collection, &[]);
        report
            .diagnostics()
            .map(|d| match d.position {
                Some(p) => format!("{}:{} {}", p.line, p.column, d.code),
                None => d.code.to_string(),
            })
            .collect()
    }

    /// The codes only.
    pub(crate) fn only_codes(text: &str) -> Vec<String> {
        codes_of(text).into_iter().map(|s| s.rsplit(' ').next().unwrap_or_default().to_string()).collect()
    }

    #[test]
    fn every_code_is_listed_once_and_documented() {
        let doc = include_str!("../../formats/checks.md");
        for (i, c) in codes::ALL.iter().enumerate() {
            assert!(c.starts_with("check."), "{c}");
            assert!(!codes::ALL[..i].contains(c), "{c} twice");
            assert!(doc.contains(&format!("`{c}`")), "{c} is not documented in formats/checks.md");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn arbitrary_sgf_like_input_never_panics(text in r"[(;)\[\]\\:a-eA-Z0-9 tTsS\n]{0,80}") {
            let opts = ReadOptions { positions: true, no_repair: true, ..ReadOptions::default() };
            if let Ok(read) = Format::SGF.read(text.as_bytes().to_vec(), &opts) {
                let report = check_collection(&read.collection, &read.diagnostics);
                proptest::prop_assert_eq!(report.games.len(), read.collection.games.len());
            }
        }
    }

    const TOKENS: &[&str] = &[
        "(;",
        ";",
        ")",
        "(",
        "B[aa]",
        "W[bb]",
        "B[tt]",
        "W[]",
        "B[ss]",
        "SZ[9:9]",
        "SZ[5]",
        "SZ[2:3]",
        "SZ[53]",
        "AB[aa:cc]",
        "AW[bb]",
        "AE[ab]",
        "LB[aa:x]",
        "AR[aa:bb]",
        "HA[2]",
        "KO[]",
        "PL[W]",
        "TB[aa:bb]",
        "TW[cc]",
        "RE[B+3]",
        "RE[0]",
        "KM[6.5]",
        "C[x]",
        "GM[2]",
        "FF[3]",
        "MA[aa][aa]",
        "VW[]",
        "DT[2024-01-02]",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        #[test]
        fn arbitrary_token_sequences_never_panic(
            tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..60)
        ) {
            let text: String = tokens.concat();
            let opts = ReadOptions { positions: true, no_repair: true, ..ReadOptions::default() };
            if let Ok(read) = Format::SGF.read(text.into_bytes(), &opts) {
                let report = check_collection(&read.collection, &read.diagnostics);
                proptest::prop_assert_eq!(report.games.len(), read.collection.games.len());
                for d in report.diagnostics() {
                    proptest::prop_assert!(d.position.is_some() || d.code.starts_with("charset."));
                }
            }
        }
    }

    #[test]
    fn value_offsets_skip_escapes() {
        let src = r"(;C[a\]b] [x]LB[aa:t]";
        assert_eq!(value_offset(src, 2, 0), Some(3));
        assert_eq!(value_offset(src, 2, 1), Some(10));
        assert_eq!(value_offset(src, 2, 2), None);
        assert_eq!(value_offset(src, 13, 0), Some(15));
    }

    #[test]
    fn reader_diagnostics_give_the_structural_verdict_per_game() {
        let text = "(;GM[1]SZ[9];B[ee])\n(;GM[1]SZ[9];B[ee]";
        let opts = ReadOptions { positions: true, no_repair: true, ..ReadOptions::default() };
        let read = Format::SGF.read(text.as_bytes().to_vec(), &opts).unwrap();
        let report = check_collection(&read.collection, &read.diagnostics);
        assert_eq!(report.games.len(), 2);
        assert_eq!(report.games[0].structural, StructuralVerdict::Clean);
        assert_eq!(report.games[1].structural, StructuralVerdict::Recovered);
        assert_eq!(report.games[1].repairs, vec![("sgf.missing-close", 1)]);
        assert_eq!(report.games[0].semantic, SemanticVerdict::Valid);
        assert_eq!(report.structural(), StructuralVerdict::Recovered);
        assert_eq!(report.semantic(), SemanticVerdict::Valid);
        assert_eq!(report.count(Severity::Error), 1);
    }

    #[test]
    fn clean_game_has_no_findings() {
        assert_eq!(codes_of("(;FF[4]GM[1]SZ[9]KM[6.5]DT[2024-05-01]RE[B+R];B[ee];W[cc];B[gg])"), Vec::<String>::new());
    }

    #[test]
    fn deeply_nested_variations_are_walked_iteratively() {
        // Every node has two children: a one-move leaf and the next level.
        let depth = 20_000;
        let mut text = String::from("(;GM[1]SZ[19]");
        for i in 0..depth {
            let colour = if i % 2 == 0 { "B" } else { "W" };
            text.push_str(&format!("(;{colour}[tt])(;{colour}[]"));
        }
        text.push_str(&")".repeat(depth + 1));
        let out = codes_of(&text);
        assert_eq!(out, Vec::<String>::new());
        // A move twice on one path, deep down, is still found.
        let mut bad = String::from("(;GM[1]SZ[19];B[aa]");
        for _ in 0..depth {
            bad.push_str("(;W[]C[x])(;W[]");
        }
        bad.push_str(";B[aa]");
        bad.push_str(&")".repeat(depth + 1));
        let found = only_codes(&bad);
        assert!(found.contains(&"check.move-occupied".to_string()), "{found:?}");
        // White passes twice in a row on every level: 100 findings shown, then one line saying
        // that more were left out.
        assert_eq!(found.iter().filter(|c| *c == "check.same-color-twice").count(), MAX_PER_CODE + 1);
    }

    #[test]
    fn deep_trees_do_not_recurse() {
        let mut text = String::from("(;GM[1]SZ[19]");
        for i in 0..50_000 {
            let c = (b'a' + (i % 19) as u8) as char;
            let r = (b'a' + ((i / 19) % 19) as u8) as char;
            text.push_str(&format!(";{}[{c}{r}]", if i % 2 == 0 { "B" } else { "W" }));
        }
        text.push(')');
        let out = codes_of(&text);
        assert!(out.iter().any(|c| c.ends_with("check.move-occupied")));
    }

    #[test]
    fn findings_past_the_cap_are_counted_without_a_position() {
        // One line, every move on an occupied point: a position for each of the 20,000 findings
        // would scan the line each time (quadratic on a 1,000,000-move game).
        let mut text = String::from("(;GM[1]SZ[19];B[aa]");
        for i in 0..20_000 {
            text.push_str(if i % 2 == 0 { ";W[aa]" } else { ";B[aa]" });
        }
        text.push(')');
        let read = Format::SGF.read(text.into_bytes(), &ReadOptions { positions: true, ..Default::default() }).unwrap();
        let found = check(&read.collection.games[0]);
        let occupied: Vec<_> = found.iter().filter(|d| d.code == codes::MOVE_OCCUPIED).collect();
        assert_eq!(occupied.len(), 20_000);
        assert!(occupied[..MAX_PER_CODE].iter().all(|d| d.position.is_some()));
        assert!(occupied[MAX_PER_CODE..].iter().all(|d| d.position.is_none()));
        assert_eq!(occupied[1].position.map(|p| p.column), Some(27));
    }
}
