//! The UGF writer: `[Header]`, `[Data]` (IGS orientation, handicap stones as move-0 lines) and,
//! when the game has comments or variations, `[ReviewNode]` and `[ReviewComment]`. Whatever UGF
//! cannot hold is reported item by item.

use super::header::{MAPPED, derive, mapped_key, partner_key, render, writer_owned};
use super::{PROP_CLOCK, PROP_COMMENT, PROP_HEADER, PROP_PLAYER, PROP_TIME, codes};
use crate::diag::Diagnostic;
use crate::formats::WriteError;
use crate::model::info::{GameResult, normalize_rank};
use crate::model::point::expand_rect;
use crate::model::{BoardSize, Collection, Color, GameTree, Move, NodeId, Point};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

/// Line separator written (Panda-eGG is a Windows program).
const EOL: &str = "\r\n";

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
    let commented = tree.nodes().any(|n| n.get("C").is_some());
    if tree.has_variations() || commented {
        write_review(tree, size, &main, &mut out, &mut diags);
    }
    if let Some(c) = tree.root().value(PROP_COMMENT) {
        out.push_str("[Comment]");
        out.push_str(EOL);
        for l in c.lines() {
            out.push_str(l);
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
    let size = tree.board_size().width.to_string();
    let get = |id: &str| -> Option<String> {
        if id == "SZ" {
            return Some(root.value("SZ").map_or_else(|| size.clone(), str::to_string));
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
    let line = |out: &mut String, k: &str, v: &str| {
        let _ = write!(out, "{k}={v}{EOL}");
    };
    out.push_str("[Header]");
    out.push_str(EOL);
    line(out, "Ver", raw("Ver").unwrap_or("UGF3,200"));
    let lang = if enc == encoding_rs::SHIFT_JIS {
        "SJIS"
    } else if enc == encoding_rs::UTF_8 {
        "UTF8"
    } else {
        enc.name()
    };
    line(out, "Lang", lang);
    line(out, "Crypt", "0,PLAIN_UGF_FILE,READ_WRITE");
    line(out, "Code", raw("Code").unwrap_or(""));
    let moves = tree.main_line().filter(|n| n.mv().is_some()).count();
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
                    diags
                        .push(Diagnostic::warning(codes::LOSSY_INFO, format!("{} written as {key}={v}", had.join(""))));
                }
                v
            }
        };
        line(out, key, &value);
        match key {
            "Winner" => line(out, "Moves", &moves.to_string()),
            "Copyright" => line(out, "CoordinateType", "IGS"),
            _ => {}
        }
    }
    for (k, v) in &kept {
        let k = k.trim();
        let own = ["Ver", "Code"].iter().any(|o| o.eq_ignore_ascii_case(k));
        if !own && mapped_key(k).is_none() && !writer_owned(k) {
            line(out, k, v);
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

fn setup_points(tree: &GameTree, id: NodeId, prop: &str) -> Vec<Point> {
    let Some(p) = tree.node(id).get(prop) else { return Vec::new() };
    p.values()
        .flat_map(|v| {
            let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
            expand_rect(a, b).into_iter().flatten()
        })
        .collect()
}

fn write_data(tree: &GameTree, size: BoardSize, main: &[NodeId], out: &mut String, diags: &mut Vec<Diagnostic>) {
    out.push_str("[Data]");
    out.push_str(EOL);
    for (prop, c) in [("AB", 'B'), ("AW", 'W')] {
        for p in setup_points(tree, NodeId::ROOT, prop) {
            if p.is_on(size) {
                let _ = write!(out, "{},{c}1,0,0{EOL}", letters(size, Move::Play(p)));
            } else {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_SETUP,
                    format!("{prop} point {p} is off the board; not written"),
                ));
            }
        }
    }
    let mut n = 0;
    for &id in main {
        let node = tree.node(id);
        let Some((colour, mv)) = node.mv_on(size) else { continue };
        if let Some(p) = mv.point().filter(|p| !p.is_on(size)) {
            diags.push(Diagnostic::warning(
                codes::LOSSY_MOVE,
                format!("move {p} of node {} is off the board; written as a pass", id.index()),
            ));
        }
        n += 1;
        let c = if colour == Color::Black { 'B' } else { 'W' };
        let player = node.value(PROP_PLAYER).unwrap_or("1");
        let secs = node.value(PROP_TIME).unwrap_or("0");
        let clock = node.value(PROP_CLOCK).map(|c| format!(" {c}")).unwrap_or_default();
        let _ = write!(out, "{},{c}{player},{n},{secs}{clock}{EOL}", letters(size, mv));
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

fn write_review(tree: &GameTree, size: BoardSize, main: &[NodeId], out: &mut String, diags: &mut Vec<Diagnostic>) {
    let hidden = hidden_nodes(tree, main);
    out.push_str("[ReviewNode]");
    out.push_str(EOL);
    let mut stack = vec![(NodeId::ROOT, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let shown = !hidden.contains(&id);
        if shown {
            let (c, x, y) = match tree.node(id).mv_on(size) {
                None => (0, 0, 0),
                Some((colour, mv)) => {
                    let c = if colour == Color::Black { 1 } else { 2 };
                    match mv {
                        Move::Play(p) if p.is_on(size) => (c, p.x as usize + 1, (size.height - p.y) as usize),
                        _ => (c, size.width as usize + 1, size.height as usize + 1),
                    }
                }
            };
            let _ = write!(out, "NODE,{},{c},{x},{y}{EOL}", depth + 1);
        }
        let child_depth = if shown { depth + 1 } else { depth };
        let children: Vec<NodeId> = tree.children(id).collect();
        for &child in children.iter().rev() {
            stack.push((child, child_depth));
        }
    }
    out.push_str("[ReviewComment]");
    out.push_str(EOL);
    for (depth, &id) in main.iter().filter(|id| !hidden.contains(id)).enumerate() {
        if let Some(c) = tree.node(id).value("C") {
            let _ = write!(out, ".Comment,{}{EOL}", depth + 1);
            for l in c.split('\n') {
                // A leading space protects lines the reader would take for markup.
                let guard = if l.starts_with(['[', '.', ' ']) { " " } else { "" };
                let _ = write!(out, "{guard}{l}{EOL}");
            }
        }
    }
    let on_main: HashSet<NodeId> = main.iter().copied().collect();
    for n in tree.nodes().filter(|n| (!on_main.contains(&n.id()) || hidden.contains(&n.id())) && n.get("C").is_some()) {
        diags.push(Diagnostic::warning(
            codes::LOSSY_VARIATION_COMMENT,
            format!("comment on node {} (a variation, or a main-line node without a move) not written", n.id().index()),
        ));
    }
}

fn report_lossy(tree: &GameTree, main: &[NodeId], diags: &mut Vec<Diagnostic>) {
    let mapped: Vec<&str> = MAPPED.iter().flat_map(|(_, ids)| ids.iter().copied()).collect();
    let on_main: HashSet<NodeId> = main.iter().copied().collect();
    let hidden = hidden_nodes(tree, main);
    let first_colour = tree.main_line().find_map(|n| n.mv()).map(|(c, _)| c);
    let mut lost: BTreeMap<String, usize> = BTreeMap::new();
    for node in tree.nodes() {
        for p in node.props() {
            let id = p.ident();
            let ok = if node.is_root() {
                ROOT_HANDLED.contains(&id)
                    || mapped.contains(&id)
                    || MOVE_HANDLED.contains(&id)
                    || (id == "GM" && p.first() == Some("1"))
                    || (id == "PL" && p.first().and_then(Color::from_sgf) == first_colour)
            } else if matches!(id, "B" | "W") && node.mv().is_none() {
                diags.push(Diagnostic::warning(
                    codes::LOSSY_MOVE,
                    format!(
                        "{id}[{}] on node {} is not a move; not written",
                        p.first().unwrap_or(""),
                        node.id().index()
                    ),
                ));
                true
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
