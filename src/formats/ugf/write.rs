//! The UGF writer: `[Header]`, `[Data]` (IGS orientation, handicap stones as move-0 lines) and,
//! when the game has comments or variations, `[ReviewNode]` and `[ReviewComment]`. Whatever UGF
//! cannot hold is reported item by item.

use super::header::{MAPPED, derive, mapped_key, partner_key, render, writer_owned};
use super::{PROP_CLOCK, PROP_COMMENT, PROP_HEADER, PROP_PLAYER, PROP_TIME, codes};
use crate::diag::Diagnostic;
use crate::formats::{WriteError, legacy};
use crate::model::info::{GameResult, normalize_rank};
use crate::model::{BoardSize, Collection, Color, GameTree, Move, NodeId, Point};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

/// Line separator written (Panda-eGG is a Windows program).
const EOL: &str = "\r\n";
/// Header keys left out when there is no value (no date, no result).
const OMITTED: &[&str] = &["Date", "Winner"];

/// Root properties the header and `[Data]` carry.
const ROOT_HANDLED: &[&str] = &["FF", "CA", "GM", "AB", "AW", "C", PROP_HEADER, PROP_COMMENT];
/// Node properties `[Data]`/`[ReviewNode]` carry (main line for the private ones).
const MOVE_HANDLED: &[&str] = &["B", "W", "C"];
const MAIN_ONLY: &[&str] = &[PROP_TIME, PROP_CLOCK, PROP_PLAYER];

/// Writes the first game of `collection` as UGF text with `Lang=` naming `enc`.
pub(crate) fn write_text(
    collection: &Collection,
    enc: &'static encoding_rs::Encoding,
) -> Result<(String, Vec<Diagnostic>), WriteError> {
    let Some(tree) = collection.games.first() else {
        return Err(WriteError::Invalid(vec![Diagnostic::error(codes::NO_GAME, "no game to write")]));
    };
    let mut diags = Vec::new();
    if collection.games.len() > 1 {
        diags.push(Diagnostic::warning(
            codes::LOSSY_GAMES,
            format!("UGF holds one game; {} further game(s) not written", collection.games.len() - 1),
        ));
    }
    let size = tree.board_size();
    if !size.is_square() || !(2..=24).contains(&size.width) {
        return Err(WriteError::Invalid(vec![Diagnostic::error(
            codes::BAD_SIZE,
            format!("UGF boards are square, 2 to 24 lines; this one is {}", size.to_sgf()),
        )]));
    }
    let mut out = String::new();
    write_header(tree, enc, &mut out, &mut diags);
    let main: Vec<NodeId> = tree.main_line().map(|n| n.id()).collect();
    write_data(tree, size, &main, &mut out, &mut diags);
    // Comments that `[ReviewComment]` can place (not those of hidden nodes).
    let hidden = hidden_nodes(tree, &main);
    let commented = tree.nodes().any(|n| n.value("C").is_some_and(visible) && !hidden.contains(&n.id()));
    if tree.has_variations() || commented {
        write_review(tree, size, &main, &mut out, &mut diags);
    }
    if let Some(c) = tree.root().value(PROP_COMMENT) {
        out.push_str("[Comment]");
        out.push_str(EOL);
        if c.contains("\r\n") {
            one_comment_line("\r", NodeId::ROOT, &mut diags);
        }
        for l in c.lines() {
            let l = one_comment_line(l, NodeId::ROOT, &mut diags);
            // A line that names a section would end the text: a space keeps it text.
            if l.starts_with('[') && l.trim_end().ends_with(']') && super::read::is_section_name(l.trim_end()) {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_INFO,
                    format!("{PROP_COMMENT} line '{l}' written with a leading space (it would start a section)"),
                ));
                out.push(' ');
            }
            out.push_str(&l);
            out.push_str(EOL);
        }
    }
    report_lossy(tree, &main, &mut diags);
    Ok((out, diags))
}

fn same(id: &str, a: &str, b: &str) -> bool {
    let num = |s: &str| s.trim().parse::<f64>().ok();
    match id {
        "KM" | "TM" => num(a).is_some() && num(a) == num(b),
        "DT" => legacy::first_date(a).is_some_and(|d| Some(d) == legacy::first_date(b)),
        "BR" | "WR" => {
            normalize_rank(a).unwrap_or_else(|| a.trim().into()) == normalize_rank(b).unwrap_or_else(|| b.trim().into())
        }
        "RE" => {
            GameResult::from_sgf(a).is_some() && GameResult::from_sgf(a) == GameResult::from_sgf(b)
                || a.trim() == b.trim()
        }
        _ => a.trim() == b.trim(),
    }
}

fn agrees(derived: &[(&'static str, String)], current: &[(&'static str, String)]) -> bool {
    derived.len() == current.len() && derived.iter().zip(current).all(|((i, a), (j, b))| i == j && same(i, a, b))
}

fn write_header(tree: &GameTree, enc: &'static encoding_rs::Encoding, out: &mut String, diags: &mut Vec<Diagnostic>) {
    let root = tree.root();
    let kept: Vec<(&str, &str)> = root
        .get(PROP_HEADER)
        .map(|p| p.values().filter_map(|v| v.as_str().split_once('=')).collect())
        .unwrap_or_default();
    let raw = |key: &str| kept.iter().find(|(k, _)| k.trim().eq_ignore_ascii_case(key)).map(|(_, v)| *v);
    // PB/PW without the pair-go partners the reader joined on.
    let partners = |c: Color| -> Vec<&str> {
        kept.iter()
            .filter(|(k, _)| partner_key(k.trim()) == Some(c))
            .filter_map(|(_, v)| v.split(',').next().map(str::trim))
            .collect()
    };
    // The size the moves were written on: an unreadable `SZ` (`SZ[M9]`) is not copied.
    let size = tree.board_size().width.to_string();
    if let Some(sz) = root.value("SZ").filter(|sz| sz.trim() != size) {
        diags.push(Diagnostic::warning(
            codes::LOSSY_INFO,
            format!("SZ[{}] written as Size={size}, the board the moves were read on", sz.escape_debug()),
        ));
    }
    let get = |id: &str| -> Option<String> {
        if id == "SZ" {
            return Some(size.clone());
        }
        let v = root.value(id)?.to_string();
        let colour = match id {
            "PB" => Color::Black,
            "PW" => Color::White,
            _ => return Some(v),
        };
        let mut v = v;
        for p in partners(colour).iter().rev() {
            if let Some(s) = v.strip_suffix(&format!(" & {p}")) {
                v = s.to_string();
            }
        }
        Some(v)
    };
    // A value is one line: a line break (or NUL) in `HA` must not inject header lines.
    let line = |out: &mut String, diags: &mut Vec<Diagnostic>, k: &str, v: &str| {
        let (clean, broken) = legacy::one_line(v);
        if broken {
            diags.push(Diagnostic::warning(
                codes::LOSSY_INFO,
                format!("{k}: line breaks or control characters written as spaces: {k}={clean}"),
            ));
        }
        // Readers trim the end of a line.
        let kept = clean.trim_end();
        if kept.len() < clean.len() && !broken {
            diags.push(Diagnostic::warning(codes::LOSSY_INFO, format!("{k}: trailing blanks not written")));
        }
        let _ = write!(out, "{k}={kept}{EOL}");
    };
    out.push_str("[Header]");
    out.push_str(EOL);
    line(out, diags, "Ver", raw("Ver").unwrap_or("UGF3,200"));
    let lang = if enc == encoding_rs::SHIFT_JIS {
        "SJIS"
    } else if enc == encoding_rs::UTF_8 {
        "UTF8"
    } else {
        enc.name()
    };
    line(out, diags, "Lang", lang);
    line(out, diags, "Crypt", "0,PLAIN_UGF_FILE,READ_WRITE");
    line(out, diags, "Code", raw("Code").unwrap_or(""));
    // The moves `[Data]` holds: unreadable ones are not written (reported).
    let moves: usize = tree
        .main_line()
        .map(|n| legacy::node_moves(n, tree.board_size()).iter().filter(|m| m.2.is_some()).count())
        .sum();
    for &(key, ids) in MAPPED {
        let current: Vec<(&'static str, String)> = ids.iter().filter_map(|&id| get(id).map(|v| (id, v))).collect();
        if key == "Commentator" && current.is_empty() && raw(key).is_none() {
            continue;
        }
        let value = match raw(key) {
            Some(r) if derive(key, r).is_ok_and(|d| agrees(&d, &current)) => r.to_string(),
            _ => {
                let v = render(key, &get);
                if !derive(key, &v).is_ok_and(|d| agrees(&d, &current)) {
                    let had: Vec<String> = current.iter().map(|(i, v)| format!("{i}[{v}]")).collect();
                    let how = if v.is_empty() && OMITTED.contains(&key) {
                        "not written".to_string()
                    } else {
                        format!("written as {key}={v}")
                    };
                    diags.push(Diagnostic::warning(codes::LOSSY_INFO, format!("{} {how}", had.join(""))));
                }
                v
            }
        };
        // No date or no result: the line is left out (readers take an empty one for a value).
        if !(value.is_empty() && OMITTED.contains(&key)) {
            line(out, diags, key, &value);
        }
        match key {
            "Winner" => line(out, diags, "Moves", &moves.to_string()),
            "Copyright" => line(out, diags, "CoordinateType", "IGS"),
            _ => {}
        }
    }
    for (k, v) in &kept {
        let k = k.trim();
        let own = ["Ver", "Code"].iter().any(|o| o.eq_ignore_ascii_case(k));
        if !own && mapped_key(k).is_none() && !writer_owned(k) {
            if k.is_empty() || k.starts_with(['[', '#']) || k.contains(['\n', '\r']) {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_INFO,
                    format!("{PROP_HEADER} line '{}' is not a header line; not written", k.escape_debug()),
                ));
                continue;
            }
            // A partner of a pair-go side without a player: the reader would make it the name.
            let player = |c: Color| root.value(if c == Color::Black { "PB" } else { "PW" });
            if partner_key(k).is_some_and(|c| player(c).is_none_or(|p| p.trim().is_empty())) {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_INFO,
                    format!("{PROP_HEADER} line {k} names a partner of a side without a player; not written"),
                ));
                continue;
            }
            line(out, diags, k, v);
        }
    }
}

/// `(x letter, y letter)` in IGS orientation; a pass is `YA`.
fn letters(size: BoardSize, mv: Move) -> String {
    match mv {
        Move::Play(p) if p.is_on(size) => {
            let x = (b'A' + p.x) as char;
            let y = (b'A' + (size.height - 1 - p.y)) as char;
            format!("{x}{y}")
        }
        _ => "YA".into(),
    }
}

/// The setup points of every `prop` property of the node (`AB[dp]AB[pd]` is one list).
fn setup_points(tree: &GameTree, id: NodeId, prop: &str) -> Vec<Point> {
    tree.node(id).points_of(prop).collect()
}

fn write_data(tree: &GameTree, size: BoardSize, main: &[NodeId], out: &mut String, diags: &mut Vec<Diagnostic>) {
    out.push_str("[Data]");
    out.push_str(EOL);
    // A point in both AB and AW (which FF[4] forbids) is written once, white, as UGF's reader
    // keeps the later of two lines on one point: a rewrite then gives the same lines.
    let white = setup_points(tree, NodeId::ROOT, "AW");
    for (prop, c) in [("AB", 'B'), ("AW", 'W')] {
        for p in setup_points(tree, NodeId::ROOT, prop) {
            if c == 'B' && white.contains(&p) {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_SETUP,
                    format!("point {p} is set up both black (AB) and white (AW); written white only"),
                ));
            } else if p.is_on(size) {
                let _ = write!(out, "{},{c}1,0,0{EOL}", letters(size, Move::Play(p)));
            } else {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_SETUP,
                    format!("{prop} point {p} is off the board; not written"),
                ));
            }
        }
    }
    // The reader checks `Hdcp` against the black setup stones: a game whose HA says otherwise
    // is written as it is, and said so.
    let black = setup_points(tree, NodeId::ROOT, "AB").iter().filter(|p| p.is_on(size)).count();
    if let Some(ha) = tree.root().value("HA").and_then(|h| h.trim().parse::<usize>().ok()).filter(|&h| h >= 2) {
        if ha != black {
            diags.push(Diagnostic::warning(
                codes::LOSSY_SETUP,
                format!("HA[{ha}] beside {black} black setup stone(s): written as they are (Hdcp={ha}), which readers report"),
            ));
        }
    }
    let mut n = 0;
    for &id in main {
        let node = tree.node(id);
        // Every move property: a node `B[tt]W[tt]` holds two moves.
        for (colour, _, mv) in legacy::node_moves(node, size) {
            let Some(mv) = mv else { continue };
            if let Some(p) = mv.point().filter(|p| !p.is_on(size)) {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_MOVE,
                    format!("node {}: move {p} is off the board; written as a pass", id.index()),
                ));
            }
            n += 1;
            let c = if colour == Color::Black { 'B' } else { 'W' };
            let number = |prop: &str, default: &'static str, diags: &mut Vec<Diagnostic>| -> String {
                match node.value(prop) {
                    Some(v) if !v.is_empty() && v.len() <= 9 && v.bytes().all(|b| b.is_ascii_digit()) => v.to_string(),
                    Some(v) => {
                        diags.push(Diagnostic::warning(
                            codes::LOSSY_MOVE,
                            format!("node {}: {prop}[{}] is not a number; not written", id.index(), v.escape_debug()),
                        ));
                        default.to_string()
                    }
                    None => default.to_string(),
                }
            };
            let player = number(PROP_PLAYER, "1", diags);
            let secs = number(PROP_TIME, "0", diags);
            // The clock field as the reader keeps it: one line, no blanks at its ends.
            let clock = match node.value(PROP_CLOCK) {
                Some(c) => {
                    let (clean, broken) = legacy::one_line(c);
                    let kept = clean.trim();
                    if broken || kept != c {
                        diags.push(Diagnostic::warning(
                            codes::LOSSY_MOVE,
                            format!("node {}: {PROP_CLOCK}[{}] written as '{}'", id.index(), c.escape_debug(), kept),
                        ));
                    }
                    if kept.is_empty() { String::new() } else { format!(" {kept}") }
                }
                None => String::new(),
            };
            let _ = write!(out, "{},{c}{player},{n},{secs}{clock}{EOL}", letters(size, mv));
        }
    }
}

/// Main-line nodes without a move that have children: `[Data]` cannot place them, so they are
/// left out of `[ReviewNode]` too (their properties are reported).
fn hidden_nodes(tree: &GameTree, main: &[NodeId]) -> HashSet<NodeId> {
    main.iter()
        .copied()
        .filter(|&id| id != NodeId::ROOT && tree.node(id).mv().is_none() && tree.first_child(id).is_some())
        .collect()
}

/// One step of writing `[ReviewNode]` (an explicit stack: no recursion on deep trees).
enum Step {
    /// Write this node (if any) at this block level, then what follows it.
    Chain(Option<NodeId>, usize),
    /// Open a `VARIATION,` block at this level starting with this node.
    Variation(NodeId, usize),
}

/// `[ReviewNode]` in the block grammar (see formats/ugf.md): the main line as `NODE,1…N`, each
/// variation in a `VARIATION,` … `VARIATIONEND,` block after the node it branches from, its
/// ids continuing after the main line's; then `[ReviewComment]` with `.Comment,<id>` for every
/// commented node, variations included.
fn write_review(tree: &GameTree, size: BoardSize, main: &[NodeId], out: &mut String, diags: &mut Vec<Diagnostic>) {
    let hidden = hidden_nodes(tree, main);
    // The NODE lines of a node: one per move (`B[tt]W[tt]` takes two), one for a node without.
    let lines_of = |id: NodeId| -> Vec<(usize, usize, usize)> {
        let moves: Vec<(Color, Move)> =
            legacy::node_moves(tree.node(id), size).into_iter().filter_map(|(c, _, m)| Some((c, m?))).collect();
        if moves.is_empty() {
            return vec![(0, 0, 0)];
        }
        // A root holding a move: readers take `NODE,1` for a root without one, so an empty root
        // comes first and the move is its child (as `[Data]` reads back).
        let root = (id == NodeId::ROOT).then_some((0, 0, 0));
        root.into_iter()
            .chain(moves.iter().map(|&(colour, mv)| {
                let c = if colour == Color::Black { 1 } else { 2 };
                match mv {
                    Move::Play(p) if p.is_on(size) => (c, p.x as usize + 1, (size.height - p.y) as usize),
                    _ => (c, size.width as usize + 1, size.height as usize + 1),
                }
            }))
            .collect()
    };
    let on_main: HashSet<NodeId> = main.iter().copied().collect();
    let mut next_id = 1 + main.iter().filter(|id| !hidden.contains(id)).map(|&id| lines_of(id).len()).sum::<usize>();
    let mut main_id = 0;
    // The id of each node's last line, for the comments.
    let mut id_of: std::collections::HashMap<NodeId, usize> = std::collections::HashMap::new();
    out.push_str("[ReviewNode]");
    out.push_str(EOL);
    let mut steps = vec![Step::Chain(Some(NodeId::ROOT), 0)];
    while let Some(step) = steps.pop() {
        match step {
            Step::Variation(first, level) => {
                let _ = write!(out, "{}VARIATION,{EOL}", "  ".repeat(level));
                steps.push(Step::Chain(Some(first), level));
            }
            Step::Chain(None, 0) => {}
            Step::Chain(None, level) => {
                let _ = write!(out, "{}VARIATIONEND,{EOL}", "  ".repeat(level));
            }
            Step::Chain(Some(id), level) => {
                if !(level == 0 && hidden.contains(&id)) {
                    for (c, x, y) in lines_of(id) {
                        let n = if on_main.contains(&id) && level == 0 {
                            main_id += 1;
                            main_id
                        } else {
                            next_id += 1;
                            next_id - 1
                        };
                        let _ = write!(out, "{}NODE,{n},{c},{x},{y}{EOL}", "  ".repeat(level));
                        id_of.insert(id, n);
                    }
                }
                let children: Vec<NodeId> = tree.children(id).collect();
                steps.push(Step::Chain(children.first().copied(), level));
                for &v in children.iter().skip(1).rev() {
                    steps.push(Step::Variation(v, level + 1));
                }
            }
        }
    }
    out.push_str("[ReviewComment]");
    out.push_str(EOL);
    // Main line first, then the variations, in id order.
    let mut commented: Vec<(usize, NodeId)> =
        tree.nodes().filter(|n| n.get("C").is_some()).filter_map(|n| Some((*id_of.get(&n.id())?, n.id()))).collect();
    commented.sort();
    for (n, id) in commented {
        let Some(c) = tree.node(id).value("C") else { continue };
        if !visible(c) {
            diags.push(Diagnostic::warning(
                codes::LOSSY_INFO,
                format!("node {}: a comment of blanks only not written (it reads back as none)", id.index()),
            ));
            continue;
        }
        let _ = write!(out, ".Comment,{n}{EOL}");
        let mut lines: Vec<String> = c.split('\n').map(|l| one_comment_line(l, id, diags)).collect();
        // The reader drops blank lines at both ends of a comment.
        let last = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
        let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
        if first > 0 || last < lines.len() {
            diags.push(Diagnostic::warning(
                codes::LOSSY_INFO,
                format!("node {}: blank lines at the start or end of a comment not written", id.index()),
            ));
        }
        lines.truncate(last);
        for l in &lines[first.min(last)..] {
            // A leading space protects lines the reader would take for markup.
            let guard = if l.starts_with(['[', '.', ' ']) { " " } else { "" };
            let _ = write!(out, "{guard}{l}{EOL}");
        }
    }
    for n in tree.nodes().filter(|n| !id_of.contains_key(&n.id()) && n.get("C").is_some()) {
        diags.push(Diagnostic::warning(
            codes::LOSSY_VARIATION_COMMENT,
            format!("node {}: comment on a main-line node without a move not written", n.id().index()),
        ));
    }
}

/// Whether a comment holds something a reader keeps (not only blanks and control characters).
fn visible(comment: &str) -> bool {
    comment.chars().any(|c| !c.is_whitespace() && !c.is_control())
}

/// One line of a comment made fit for a line of the file: control characters (a CR, a NUL)
/// become spaces and trailing blanks go (the reader trims them), reported (`ugf.lossy-info`).
fn one_comment_line(line: &str, id: NodeId, diags: &mut Vec<Diagnostic>) -> String {
    let (mut clean, broken) = legacy::one_line(line);
    let kept = clean.trim_end().len();
    if broken || kept < clean.len() {
        clean.truncate(kept);
        diags.push(Diagnostic::warning(
            codes::LOSSY_INFO,
            format!("node {}: control characters or trailing blanks in a comment line not written", id.index()),
        ));
    }
    clean
}

fn report_lossy(tree: &GameTree, main: &[NodeId], diags: &mut Vec<Diagnostic>) {
    let mapped: Vec<&str> = MAPPED.iter().flat_map(|(_, ids)| ids.iter().copied()).collect();
    let on_main: HashSet<NodeId> = main.iter().copied().collect();
    let hidden = hidden_nodes(tree, main);
    let first_colour = tree.main_line().find_map(|n| n.mv()).map(|(c, _)| c);
    let mut lost: BTreeMap<String, usize> = BTreeMap::new();
    let size = tree.board_size();
    for node in tree.nodes() {
        for p in node.props() {
            let id = p.ident();
            let unreadable = || p.first().and_then(|v| Move::from_sgf(v, size)).is_none();
            let ok = if matches!(id, "B" | "W") && unreadable() {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_MOVE,
                    format!(
                        "node {}: {id}[{}] is not a move; not written",
                        node.id().index(),
                        p.first().unwrap_or("").escape_debug()
                    ),
                ));
                true
            } else if node.is_root() {
                ROOT_HANDLED.contains(&id)
                    || mapped.contains(&id)
                    || MOVE_HANDLED.contains(&id)
                    || (id == "GM" && p.first() == Some("1"))
                    || (id == "PL" && p.first().and_then(Color::from_sgf) == first_colour)
            } else if matches!(id, "AB" | "AW" | "AE") {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_SETUP,
                    format!("{id} on node {} not written (UGF has setup only before move 1)", node.id().index()),
                ));
                true
            } else {
                (id == "C" && hidden.contains(&node.id()))
                    || (MOVE_HANDLED.contains(&id) && !hidden.contains(&node.id()))
                    || (MAIN_ONLY.contains(&id) && on_main.contains(&node.id()))
            };
            if !ok {
                *lost.entry(id.to_string()).or_default() += 1;
            }
        }
    }
    for (id, n) in lost {
        diags.push(Diagnostic::warning(
            codes::LOSSY_PROPERTY,
            format!("{id} ({n} time(s)) has no UGF form; not written"),
        ));
    }
}
