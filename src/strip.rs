//! Cleaning records for a purpose: removing comments, variations, markup, engine analysis,
//! kifu's private properties or clock data (formats/normalise.md,
//! "Stripping").
//!
//! A [`Strip`] is a set of [`Kind`]s; [`Strip::apply`] removes them from a game and says how
//! many of each it removed ([`Removed`]). Moves, setup stones and game information other than
//! what a kind names are never touched.
//!
//! ```
//! use kifu::strip::{Kind, Strip};
//! let sgf = b"(;GM[1]C[hello];B[pd]LZ[0.7.4 52.1 1.2k\nQ16]BL[300](;W[dd]CR[pd])(;W[dp]))";
//! let mut collection = kifu::read_bytes(sgf.to_vec(), None, &Default::default())?.collection;
//! let strip: Strip = "analysis,timing,variations".parse()?;
//! let removed = strip.apply_all(&mut collection);
//! assert_eq!((removed.get(Kind::Analysis), removed.get(Kind::Timing), removed.get(Kind::Variations)), (1, 1, 1));
//! let game = &collection.games[0];
//! assert_eq!(game.len(), 3);
//! assert_eq!(game.root().value("C"), Some("hello"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::formats::Format;
use crate::model::{Collection, GameTree, NodeId, TreeBuilder};
use std::fmt;
use std::str::FromStr;

/// What can be stripped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kind {
    /// Comments: `C` and the game comment `GC`.
    Comments,
    /// Every variation: only the main line (the first child of each node) is kept.
    Variations,
    /// Board markup: `AR`, `CR`, `DD`, `LB`, `LN`, `MA`, `SL`, `SQ`, `TR`.
    Markup,
    /// AI-analysis data of the programs listed in formats/normalise.md ("Stripping"):
    /// their properties, and the parts of comments they generate.
    Analysis,
    /// kifu's own private properties (`XSGF…`, `XGIB…`, `XNGF…`, `XUGF…`).
    Private,
    /// Clock data: time left (`BL`, `WL`) and overtime periods or stones left (`OB`, `OW`).
    Timing,
}

impl Kind {
    /// Every kind, in the order the summary lists them.
    pub const ALL: [Kind; 6] =
        [Kind::Comments, Kind::Variations, Kind::Markup, Kind::Analysis, Kind::Private, Kind::Timing];

    /// The kind's name as `--strip` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Comments => "comments",
            Kind::Variations => "variations",
            Kind::Markup => "markup",
            Kind::Analysis => "analysis",
            Kind::Private => "private",
            Kind::Timing => "timing",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name `--strip` does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown strip kind '{0}' (known: comments, variations, markup, analysis, private, timing)")]
pub struct UnknownKind(pub String);

impl FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Kind, UnknownKind> {
        let s = s.trim();
        Kind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(s)).ok_or_else(|| UnknownKind(s.to_string()))
    }
}

/// A set of [`Kind`]s to strip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strip(u8);

impl FromStr for Strip {
    type Err = UnknownKind;

    /// A comma-separated list of kinds: `comments,markup`.
    fn from_str(s: &str) -> Result<Strip, UnknownKind> {
        s.split(',').filter(|k| !k.trim().is_empty()).try_fold(Strip::new(), |set, k| Ok(set.with(k.parse()?)))
    }
}

/// How many of each kind [`Strip::apply`] removed: properties (a `C`, an `LZ`, a `BL` …), for
/// [`Kind::Variations`] the variations cut off (each a whole subtree), and for
/// [`Kind::Analysis`] also the comments from which generated text was cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Removed([usize; 6]);

impl Removed {
    /// How many of `kind` were removed.
    pub fn get(&self, kind: Kind) -> usize {
        self.0[kind.index()]
    }

    /// All removals.
    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Removed) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }

    /// Each kind with at least one removal, with its count.
    pub fn iter(&self) -> impl Iterator<Item = (Kind, usize)> + '_ {
        Kind::ALL.into_iter().map(|k| (k, self.get(k))).filter(|&(_, n)| n > 0)
    }
}

/// Properties of AI-analysis programs (formats/normalise.md, "Stripping", lists the sources).
pub const ANALYSIS_PROPERTIES: [&str; 5] = ["LZ", "LZOP", "LZOP2", "KT", "KTV"];
const MARKUP: [&str; 9] = ["AR", "CR", "DD", "LB", "LN", "MA", "SL", "SQ", "TR"];
const TIMING: [&str; 4] = ["BL", "WL", "OB", "OW"];
const COMMENTS: [&str; 2] = ["C", "GC"];

/// KaTrain ends each comment part it generates with this (Hangul filler, zero-width space).
const KATRAIN_MARK: &str = "\u{3164}\u{200b}";
/// KaTrain joins the parts of a comment with this.
const KATRAIN_SEPARATOR: &str = "\u{3164}\u{3164}";

/// `comment` without the text analysis programs generate: KaTrain's marked parts, Lizzie's
/// two-line winrate note. `None` when nothing was cut.
pub fn clean_comment(comment: &str) -> Option<String> {
    let mut text = comment.to_string();
    let mut cut = false;
    if text.contains(KATRAIN_MARK) {
        let kept: Vec<&str> = text.split(KATRAIN_SEPARATOR).filter(|part| !part.contains(KATRAIN_MARK)).collect();
        text = kept.join(KATRAIN_SEPARATOR);
        cut = true;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let note = (line.starts_with("Black's winrate: ") || line.starts_with("White's winrate: "))
            && lines.get(i + 1).is_some_and(|l| l.starts_with('(') && l.trim_end().ends_with(" playouts)"));
        if note {
            cut = true;
            i += 2;
            continue;
        }
        kept.push(line);
        i += 1;
    }
    if !cut {
        return None;
    }
    Some(kept.join("\n").trim_matches(['\n', '\r', ' ']).to_string())
}

impl Strip {
    /// Strips nothing.
    pub fn new() -> Strip {
        Strip(0)
    }

    /// This set and `kind`.
    pub fn with(self, kind: Kind) -> Strip {
        Strip(self.0 | kind.bit())
    }

    /// Whether `kind` is stripped.
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Whether nothing is stripped.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kind a property `ident` is removed as, if any.
    fn removes(self, ident: &str) -> Option<Kind> {
        let hit = |k: Kind, list: &[&str]| (self.contains(k) && list.contains(&ident)).then_some(k);
        hit(Kind::Comments, &COMMENTS)
            .or_else(|| hit(Kind::Markup, &MARKUP))
            .or_else(|| hit(Kind::Timing, &TIMING))
            .or_else(|| hit(Kind::Analysis, &ANALYSIS_PROPERTIES))
            .or_else(|| {
                (self.contains(Kind::Private) && Format::private_owner(ident).is_some()).then_some(Kind::Private)
            })
    }

    /// Whether applying would change `game` (so an untouched game is not rebuilt).
    fn touches(self, game: &GameTree) -> bool {
        if self.contains(Kind::Variations) && game.has_variations() {
            return true;
        }
        game.nodes().any(|n| {
            n.props().any(|p| {
                self.removes(p.ident()).is_some()
                    || (self.contains(Kind::Analysis)
                        && matches!(p.ident(), "C" | "GC")
                        && p.values().next().is_some_and(|v| clean_comment(v.as_str()).is_some()))
            })
        })
    }

    /// Removes this set's kinds from `game`; what was removed.
    pub fn apply(self, game: &mut GameTree) -> Removed {
        let mut removed = Removed::default();
        if self.is_empty() || !self.touches(game) {
            return removed;
        }
        let main_only = self.contains(Kind::Variations);
        let mut builder = TreeBuilder::new();
        // The builder id of each kept node, by the old node's index.
        let mut new_id: Vec<Option<NodeId>> = vec![None; game.len()];
        for node in game.nodes() {
            let id = node.id();
            let target = match game.parent(id) {
                None => builder.root(),
                Some(parent) => {
                    let Some(p) = new_id[parent.index()] else { continue };
                    if main_only && game.first_child(parent) != Some(id) {
                        continue;
                    }
                    builder.add_child(p)
                }
            };
            new_id[id.index()] = Some(target);
            if main_only {
                removed.0[Kind::Variations.index()] += game.child_count(id).saturating_sub(1);
            }
            for prop in node.props() {
                let ident = prop.ident();
                if let Some(kind) = self.removes(ident) {
                    removed.0[kind.index()] += 1;
                    continue;
                }
                if self.contains(Kind::Analysis) && matches!(ident, "C" | "GC") {
                    if let Some(text) = prop.values().next().and_then(|v| clean_comment(v.as_str())) {
                        removed.0[Kind::Analysis.index()] += 1;
                        if !text.is_empty() {
                            builder.add_prop(target, ident, [text]);
                        }
                        continue;
                    }
                }
                builder.add_prop(target, ident, prop.values().map(|v| v.to_owned_value()));
            }
        }
        *game = builder.build();
        removed
    }

    /// [`Strip::apply`] on the games of `games` marked in `chosen` (a game past its end counts
    /// as marked); what was removed from them.
    ///
    /// ```
    /// use kifu::strip::{Kind, Strip};
    /// let mut read = kifu::read(&b"(;C[a];B[pd]C[b])(;C[c])"[..]).unwrap();
    /// let removed = Strip::new().with(Kind::Comments).apply_chosen(&mut read.collection.games, &[true, false]);
    /// assert_eq!(removed.get(Kind::Comments), 2);
    /// ```
    pub fn apply_chosen(self, games: &mut [GameTree], chosen: &[bool]) -> Removed {
        let mut removed = Removed::default();
        for (i, game) in games.iter_mut().enumerate() {
            if chosen.get(i).copied().unwrap_or(true) {
                removed.add(&self.apply(game));
            }
        }
        removed
    }

    /// [`Strip::apply`] on every game of `collection`; what was removed from all of them.
    pub fn apply_all(self, collection: &mut Collection) -> Removed {
        let mut removed = Removed::default();
        for game in &mut collection.games {
            removed.add(&self.apply(game));
        }
        removed
    }
}

impl fmt::Display for Strip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Kind::ALL.into_iter().filter(|k| self.contains(*k)).map(Kind::name).collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(sgf: &str) -> GameTree {
        crate::read_bytes(sgf.as_bytes().to_vec(), None, &Default::default()).unwrap().collection.games.remove(0)
    }

    fn sgf(game: &GameTree) -> String {
        let bytes = Format::SGF.write(&Collection::new(vec![game.clone()]), &Default::default()).unwrap().bytes;
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn each_kind_removes_its_properties_only() {
        let text = "(;GM[1]FF[4]SZ[9]GC[game]XGIB[\\[GAMEINFOMAIN\\]]XSGFDT[x]C[root];B[ee]BL[30]OB[2]LB[ee:A]CR[dd]C[hi]\
                    ;W[dd]WL[20]OW[1]TR[ee]LZ[x]KT[abc]XNGFRE[y])";
        for (kind, n, gone) in [
            (Kind::Comments, 3, &["C[", "GC["][..]),
            (Kind::Markup, 3, &["LB[", "CR[", "TR["][..]),
            (Kind::Timing, 4, &["BL[", "WL[", "OB[", "OW["][..]),
            (Kind::Private, 3, &["XGIB[", "XSGFDT[", "XNGFRE["][..]),
            (Kind::Analysis, 2, &["LZ[", "KT["][..]),
        ] {
            let mut g = game(text);
            let removed = Strip::new().with(kind).apply(&mut g);
            assert_eq!(removed.get(kind), n, "{kind}");
            assert_eq!(removed.total(), n, "{kind}");
            let out = sgf(&g);
            for ident in gone {
                assert!(!out.contains(ident), "{kind}: {ident} in {out}");
            }
            assert!(out.contains("B[ee]") && out.contains("W[dd]") && out.contains("SZ[9]"), "{out}");
        }
    }

    #[test]
    fn variations_leave_the_main_line() {
        let mut g = game("(;GM[1];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff])(;W[gg]))");
        let removed = Strip::new().with(Kind::Variations).apply(&mut g);
        assert_eq!(removed.get(Kind::Variations), 3);
        assert_eq!(g.len(), 5);
        assert!(!g.has_variations());
        assert_eq!(g.main_line().filter(|n| n.mv().is_some()).count(), 4);
    }

    #[test]
    fn generated_comment_text_is_cut_and_the_rest_kept() {
        let katrain = "my note\n\u{3164}\u{3164}\nMove 12: B Q16\nScore: B+2.1\u{3164}\u{200b}";
        assert_eq!(clean_comment(katrain).as_deref(), Some("my note"));
        let only = "\nSGF generated by KaTrain 1.14\u{3164}\u{200b}\n";
        assert_eq!(clean_comment(only).as_deref(), Some(""));
        let lizzie = "Black's winrate: 56.3% (+1.2%)\n(40b / 1.2k playouts)\n\nnice move";
        assert_eq!(clean_comment(lizzie).as_deref(), Some("nice move"));
        assert_eq!(clean_comment("Black's winrate is high"), None);
        let mut g = game(&format!("(;GM[1]C[{only}];B[aa]C[{lizzie}];W[bb]C[plain])"));
        let removed = Strip::new().with(Kind::Analysis).apply(&mut g);
        assert_eq!(removed.get(Kind::Analysis), 2);
        assert_eq!(g.root().value("C"), None);
        let comments: Vec<_> = g.nodes().filter_map(|n| n.value("C")).collect();
        assert_eq!(comments, ["nice move", "plain"]);
    }

    #[test]
    fn kinds_parse_and_an_untouched_game_is_kept() {
        assert_eq!("Comments, markup".parse::<Strip>().unwrap().to_string(), "comments,markup");
        assert!("comment".parse::<Strip>().is_err());
        let mut g = game("(;GM[1];B[aa])");
        assert_eq!(Strip::new().with(Kind::Markup).apply(&mut g).total(), 0);
    }
}
