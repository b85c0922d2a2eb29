//! Where properties sit: root properties only in the root, one game-info node on any path,
//! move and setup not mixed, no move in the root, no property twice in a node, unknown and
//! obsolete properties, move annotations without a move, annotations that exclude each other.

use super::{At, Ctx, codes};
use crate::model::{NodeId, PropKind, Property};

/// Annotation pairs FF\[4\] forbids in one node.
const EXCLUSIVE: &[&[&str]] = &[&["GB", "GW", "DM", "UC"], &["BM", "DO", "IT", "TE"]];

/// Walks the nodes in pre-order, carrying per node the nearest game-info node on its path and
/// whether a move came before it.
pub(crate) fn check(cx: &mut Ctx<'_>) {
    let tree = cx.tree;
    let n = tree.len();
    // For node i: the nearest node at or above it holding game-info properties.
    let mut info_at: Vec<Option<u32>> = vec![None; n];
    // For node i: whether it or a node above it holds a move.
    let mut moved: Vec<bool> = vec![false; n];
    // Private properties of kifu's legacy readers, noted once per identifier.
    let mut private_seen: Vec<&str> = Vec::new();
    for node in tree.nodes() {
        let id = node.id();
        let i = id.index();
        let parent = tree.parent(id).map(NodeId::index);
        let above_info = parent.and_then(|p| info_at[p]);
        let above_moved = parent.is_some_and(|p| moved[p]);
        let props: Vec<Property<'_>> = node.props().collect();

        let mut has_move = None;
        let mut has_setup = None;
        let mut has_stones = None;
        let mut has_info = None;
        let mut moves = Vec::new();
        for (k, p) in props.iter().enumerate() {
            let ident = p.ident();
            if props[..k].iter().any(|q| q.ident() == ident) {
                cx.error(
                    codes::DUPLICATE_PROPERTY,
                    At::Prop(*p),
                    format!("{ident} appears twice in this node; FF[4] allows each property once per node"),
                );
            }
            if super::dialect_property(cx, *p) {
                continue;
            }
            let Some(def) = p.def() else {
                if let Some(format) = crate::Format::private_owner(ident) {
                    if private_seen.contains(&ident) {
                        continue;
                    }
                    private_seen.push(ident);
                    cx.info(
                        codes::PRIVATE_PROPERTY,
                        At::Prop(*p),
                        format!("{ident} is kifu's private property for {format} values SGF has no home for; kept (noted once)"),
                    );
                    continue;
                }
                // FF[4] lets applications define their own properties and asks every reader to
                // keep the ones it does not know, as SGFC does: a note, not a fault of the file.
                let more = if ident.len() > 2 { " (FF[4]'s own identifiers have one or two letters)" } else { "" };
                cx.info(
                    codes::UNKNOWN_PROPERTY,
                    At::Prop(*p),
                    format!("{ident} is not an FF[4] property{more}: an application's own, kept as it is"),
                );
                continue;
            };
            if def.obsolete {
                cx.warning(
                    codes::OBSOLETE_PROPERTY,
                    At::Prop(*p),
                    format!("{ident} is an FF[1]-FF[3] property that FF[4] dropped ({})", def.description),
                );
            }
            match def.kind {
                PropKind::Root if !node.is_root() => {
                    let what = if ident == "SZ" {
                        format!("; the board stays {} from the root", cx.size)
                    } else {
                        String::new()
                    };
                    cx.error(
                        codes::ROOT_PROPERTY_PLACEMENT,
                        At::Prop(*p),
                        format!("{ident} is a root property but sits in a later node; it has no effect there{what}"),
                    );
                }
                PropKind::Move => {
                    has_move.get_or_insert(*p);
                    if matches!(ident, "B" | "W") {
                        moves.push(*p);
                    }
                }
                PropKind::Setup => {
                    has_setup.get_or_insert(*p);
                    if ident != "PL" {
                        has_stones.get_or_insert(*p);
                    }
                }
                PropKind::GameInfo => {
                    has_info.get_or_insert(*p);
                }
                _ => {}
            }
        }
        if let (Some(m), Some(s)) = (has_move, has_setup) {
            cx.error(
                codes::MOVE_SETUP_MIXED,
                At::Prop(s),
                format!(
                    "setup property {} and move property {} in one node; FF[4] keeps them in separate nodes",
                    s.ident(),
                    m.ident()
                ),
            );
        }
        if let [first, second, ..] = moves.as_slice() {
            if first.ident() != second.ident() {
                cx.error(
                    codes::TWO_MOVES,
                    At::Prop(*second),
                    "B and W in one node; each move needs its own node".to_string(),
                );
            }
        }
        if node.is_root() {
            if let Some(m) = moves.first() {
                cx.warning(
                    codes::MOVE_IN_ROOT,
                    At::Prop(*m),
                    format!(
                        "move {} in the root node; by convention the root holds only game information and setup",
                        m.ident()
                    ),
                );
            }
        }
        if moves.is_empty() {
            let annotations: Vec<&Property<'_>> = props
                .iter()
                .filter(|p| matches!(p.ident(), "BM" | "DO" | "IT" | "TE") && !super::dialect_property(cx, **p))
                .collect();
            for p in annotations {
                cx.warning(
                    codes::ANNOTATION_WITHOUT_MOVE,
                    At::Prop(*p),
                    format!("move annotation {} in a node without a move", p.ident()),
                );
            }
        }
        for group in EXCLUSIVE {
            let present: Vec<&Property<'_>> = props.iter().filter(|p| group.contains(&p.ident())).collect();
            if let [first, rest @ ..] = present.as_slice() {
                for p in rest.iter().filter(|p| p.ident() != first.ident()) {
                    cx.warning(
                        codes::CONFLICTING_ANNOTATIONS,
                        At::Prop(**p),
                        format!(
                            "{} contradicts {} in the same node (FF[4] allows one of {})",
                            p.ident(),
                            first.ident(),
                            group.join(", ")
                        ),
                    );
                }
            }
        }
        if let (Some(p), Some(earlier)) = (has_info, above_info) {
            let place = cx
                .position(At::Node(NodeId::from_index(earlier as usize)))
                .map_or_else(String::new, |pos| format!(" (line {})", pos.line));
            let which = if earlier == 0 { "the root".to_string() } else { format!("an earlier node{place}") };
            cx.error(
                codes::GAME_INFO_TWICE,
                At::Prop(p),
                format!(
                    "game-info property {} here, but {which} on this path already holds game information; FF[4] allows one game-info node per path",
                    p.ident()
                ),
            );
        }
        if let Some(s) = has_stones {
            if above_moved && has_move.is_none() {
                cx.info(
                    codes::SETUP_AFTER_MOVES,
                    At::Prop(s),
                    format!("setup {} after moves: the position is edited in the middle of the game", s.ident()),
                );
            }
        }
        info_at[i] = if has_info.is_some() { Some(i as u32) } else { above_info };
        moved[i] = above_moved || !moves.is_empty();
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes_of, only_codes};

    #[test]
    fn root_properties_only_in_the_root() {
        assert_eq!(
            codes_of("(;SZ[9];B[aa]\n;FF[4]CA[UTF-8])"),
            ["2:2 check.root-property-placement", "2:7 check.root-property-placement"]
        );
    }

    #[test]
    fn one_game_info_node_per_path() {
        // PB in the root and again below: error. In two sibling variations: fine.
        assert_eq!(only_codes("(;SZ[9]PB[a];B[aa];PW[b])"), ["check.game-info-twice"]);
        assert_eq!(only_codes("(;SZ[9](;PB[a];B[aa])(;PB[b];B[bb]))"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[9];GN[x];GC[y])"), ["check.game-info-twice"]);
    }

    #[test]
    fn move_and_setup_mixed_and_two_moves() {
        assert_eq!(codes_of("(;SZ[9];B[aa]AB[bb])"), ["1:14 check.move-setup-mixed"]);
        assert_eq!(codes_of("(;SZ[9];B[aa]W[bb])"), ["1:14 check.two-moves"]);
    }

    #[test]
    fn move_in_root_is_a_style_warning() {
        assert_eq!(codes_of("(;SZ[9]B[aa])"), ["1:8 check.move-in-root"]);
    }

    #[test]
    fn duplicate_unknown_and_obsolete() {
        assert_eq!(
            codes_of("(;SZ[9];C[a]C[b]XX[k]LONGID[x]L[aa])"),
            [
                "1:13 check.duplicate-property",
                "1:17 check.unknown-property",
                "1:22 check.unknown-property",
                "1:31 check.obsolete-property"
            ]
        );
    }

    #[test]
    fn annotations() {
        assert_eq!(only_codes("(;SZ[9];TE[1])"), ["check.annotation-without-move"]);
        assert_eq!(only_codes("(;SZ[9];GB[2]GW[1])"), ["check.conflicting-annotations"]);
        assert_eq!(only_codes("(;SZ[9];B[cd]BM[1]TE[2])"), ["check.conflicting-annotations"]);
    }

    #[test]
    fn setup_after_moves_is_noted() {
        assert_eq!(codes_of("(;SZ[9]AB[aa];B[bb];AE[aa])"), ["1:21 check.setup-after-moves"]);
    }
}
