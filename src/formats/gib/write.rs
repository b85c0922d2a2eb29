//! The GIB writer: one game tree → a Tygem-style file (CRLF, every header key readers rely on,
//! `INI` handicap count, `STO`/`SKI` records). Everything GIB cannot hold is reported item by
//! item, naming the node it came from.

use super::codes;
use super::facts;
use super::header;
use crate::diag::Diagnostic;
use crate::formats::legacy;
use crate::go::handicap::tygem_layout;
use crate::model::{BoardSize, Color, GameTree, Move, Node, NodeId, Point};

/// Root properties the writer maps (or that carry no game data).
const ROOT_MAPPED: &[&str] = &[
    "FF",
    "CA",
    "GM",
    "SZ",
    "AP",
    "ST",
    "PB",
    "PW",
    "BR",
    "WR",
    "KM",
    "HA",
    "RE",
    "DT",
    "TM",
    "OT",
    "GN",
    "PC",
    "GC",
    "AB",
    "PL",
    "B",
    "W",
    super::PROP_HEADER,
    super::PROP_GAME_LINE,
    super::PROP_INI_TEXT,
    super::PROP_RECORDS,
];
const MARKUP: &[&str] = &["AR", "CR", "DD", "LB", "LN", "MA", "SL", "SQ", "TR", "TB", "TW", "VW"];

/// Writes `game` as GIB text with CRLF line ends; `kind` is the `GIBOKIND` value.
pub(crate) fn write_text(game: &GameTree, kind: &str) -> (String, Vec<Diagnostic>) {
    let mut sink = Vec::new();
    let root = game.root();
    let size = game.board_size();
    if size != BoardSize::square(19) {
        sink.push(Diagnostic::warning(
            codes::LOSSY_BOARD_SIZE,
            format!("the board is {size}; GIB boards are 19x19, moves are written with their coordinates"),
        ));
    }
    report_variations(game, &mut sink);
    let (handicap, records) = moves(game, size, &mut sink);
    let private = header::private_entries(root, &mut sink);
    let facts = facts::facts(game, kind, handicap, records.len(), private.as_deref(), &mut sink);
    // The reader takes a text holding U+FFFD for one damaged by an earlier conversion and keeps
    // it privately only (`gib.damaged-text`): written, but it will not read back as itself.
    for (prop, text) in
        [("GN", &facts.name), ("PC", &facts.place), ("GC", &facts.comment), ("PB", &facts.black), ("PW", &facts.white)]
    {
        if text.as_deref().is_some_and(|t| t.contains('\u{FFFD}')) {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!(
                    "root node: {prop} holds U+FFFD, which GIB readers take for damage; it reads back privately only"
                ),
            ));
        }
    }

    let mut out = String::from("\\HS\r\n");
    out.push_str(&header::lines(private.as_deref(), &facts, &mut sink));
    out.push_str("\\HE\r\n\\GS\r\n");
    let game_line = game_line(root.value(super::PROP_GAME_LINE), &mut sink);
    out.push_str(&format!("{game_line}\r\n{} 0 &4\r\n", records.len() + 1));
    let ini = root.value(super::PROP_INI_TEXT).unwrap_or("");
    let (ini_clean, broken) = legacy::one_line(ini);
    if broken {
        sink.push(Diagnostic::warning(
            codes::LOSSY_PROPERTY,
            format!("root node: {}: line breaks or control characters replaced by spaces", super::PROP_INI_TEXT),
        ));
    } else if ini_clean.trim() != ini_clean {
        sink.push(blanks_dropped(super::PROP_INI_TEXT, ini));
    }
    out.push_str(&format!("INI 0 1 {handicap} &4{} \r\n", ini_clean.trim()));
    for (i, (color, mv)) in records.iter().enumerate() {
        let n = i + 2;
        match mv {
            Move::Play(p) => {
                let c = if *color == Color::Black { 1 } else { 2 };
                out.push_str(&format!("STO 0 {n} {c} {} {} \r\n", p.x, p.y));
            }
            Move::Pass => out.push_str(&format!("SKI 0 {n} \r\n")),
        }
    }
    for kept in root.values_of(super::PROP_RECORDS) {
        let (line, broken) = legacy::one_line(kept.as_str());
        let first = line.split_whitespace().next().unwrap_or("");
        if broken
            || matches!(first, "" | "STO" | "SKI" | "INI")
            || first.starts_with('\\')
            || first.starts_with(|c: char| c.is_ascii_digit())
        {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!(
                    "root node: {}[{}] is not a record kifu keeps; not written",
                    super::PROP_RECORDS,
                    kept.as_str().escape_debug()
                ),
            ));
            continue;
        }
        // A record of a type kifu does not know is written as it is; its reader (and kifu's)
        // will report it as unknown.
        if !matches!(first, "REM" | "IDX" | "DSC" | "SUR" | "WIT") {
            sink.push(Diagnostic::warning(
                codes::LOSSY_PROPERTY,
                format!(
                    "root node: record '{first}' ({}) is of no type GIB readers know; written as it is",
                    super::PROP_RECORDS
                ),
            ));
        }
        // The reader keeps a record line without its blanks at the ends.
        if !broken && line.trim() != line {
            sink.push(blanks_dropped(super::PROP_RECORDS, kept.as_str()));
        }
        out.push_str(line.trim());
        out.push_str(" \r\n");
    }
    out.push_str("\\GE\r\n");
    (out, sink)
}

/// A value written without its blanks at the ends, which a line holds but the reader trims.
fn blanks_dropped(prop: &str, value: &str) -> Diagnostic {
    let message = format!("root node: {prop}[{}] written without its blanks at the ends", value.escape_debug());
    Diagnostic::warning(codes::LOSSY_PROPERTY, message)
}

/// The first line of the game section: the kept `XGIBGS` value when it is a line of numbers
/// (`2 5 0`), else `2 1 0` (a value that could inject records is reported and not written).
fn game_line(kept: Option<&str>, sink: &mut Vec<Diagnostic>) -> String {
    let Some(v) = kept else { return "2 1 0".into() };
    let numbers = !v.trim().is_empty()
        && v.split(' ').all(|n| !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()));
    if numbers {
        return v.to_string();
    }
    sink.push(Diagnostic::warning(
        codes::LOSSY_PROPERTY,
        format!(
            "root node: {}[{}] is not a line of numbers; not written (2 1 0 written)",
            super::PROP_GAME_LINE,
            v.escape_debug()
        ),
    ));
    "2 1 0".into()
}

fn describe(id: NodeId, move_no: usize) -> String {
    if id == NodeId::ROOT { "root node".into() } else { format!("node {} (move {move_no})", id.index()) }
}

fn report_variations(game: &GameTree, sink: &mut Vec<Diagnostic>) {
    let mut moves_before = 0;
    for node in game.main_line() {
        let id = node.id();
        moves_before += usize::from(node.get("B").is_some() || node.get("W").is_some());
        for child in game.children(id).skip(1) {
            let mut count = 0;
            let mut stack = vec![child];
            while let Some(n) = stack.pop() {
                count += 1;
                stack.extend(game.children(n));
            }
            sink.push(Diagnostic::warning(
                codes::LOSSY_VARIATION,
                format!(
                    "node {}: variation after move {moves_before} ({count} node(s)) not written; GIB holds the main line only",
                    child.index()
                ),
            ));
        }
    }
}

/// Walks the main line: the handicap count for `INI`, the move records, and a diagnostic for
/// every property that cannot be written.
fn moves(game: &GameTree, size: BoardSize, sink: &mut Vec<Diagnostic>) -> (u32, Vec<(Color, Move)>) {
    let root = game.root();
    let handicap = handicap(root, sink);
    let mut records = Vec::new();
    let mut next = if handicap >= 2 { Color::White } else { Color::Black };
    for node in game.main_line() {
        let is_root = node.is_root();
        // Every move property is a record: a node `B[tt]W[tt]` holds two moves.
        for (color, value, mv) in legacy::node_moves(node, size) {
            let here = describe(node.id(), records.len() + 1);
            let id = color.as_sgf();
            match mv {
                Some(Move::Play(pt)) if pt.x >= 19 || pt.y >= 19 => sink.push(Diagnostic::warning(
                    codes::LOSSY_BOARD_SIZE,
                    format!("{here}: {id}[{pt}] is off a 19x19 board; not written"),
                )),
                Some(mv) => {
                    if mv == Move::Pass && color != next {
                        sink.push(Diagnostic::warning(
                            codes::LOSSY_PASS_COLOUR,
                            format!(
                                "{here}: a {} pass follows a {} move; GIB reads it as a {} pass",
                                color.as_sgf(),
                                color.as_sgf(),
                                next.as_sgf()
                            ),
                        ));
                    }
                    records.push((color, mv));
                    next = color.opponent();
                }
                None => sink.push(Diagnostic::warning(
                    codes::LOSSY_PROPERTY,
                    format!("{here}: unreadable move {id}[{value}]; not written"),
                )),
            }
        }
        let here = describe(node.id(), records.len());
        for p in node.props() {
            let id = p.ident();
            let values = p.len();
            if id == "B" || id == "W" {
                continue;
            }
            if is_root && ROOT_MAPPED.contains(&id) && id != "B" && id != "W" {
                let implied = if handicap >= 2 { "W" } else { "B" };
                if id == "PL" && p.first().map(str::trim) != Some(implied) {
                    sink.push(Diagnostic::warning(
                        codes::LOSSY_PROPERTY,
                        format!(
                            "{here}: PL[{}] not written; GIB's first player follows from the handicap",
                            p.first().unwrap_or("")
                        ),
                    ));
                }
                if id == "GM" && p.first().map(str::trim) != Some("1") {
                    sink.push(Diagnostic::warning(
                        codes::LOSSY_PROPERTY,
                        format!("{here}: GM[{}] is not Go", p.first().unwrap_or("")),
                    ));
                }
                continue;
            }
            let (code, what) = if id == "C" {
                (codes::LOSSY_COMMENT, "comment C".to_string())
            } else if MARKUP.contains(&id) {
                (codes::LOSSY_MARKUP, format!("markup {id} ({values} value(s))"))
            } else if matches!(id, "AB" | "AW" | "AE") {
                (codes::LOSSY_SETUP, format!("setup {id} ({values} point(s))"))
            } else {
                (codes::LOSSY_PROPERTY, format!("property {id}"))
            };
            sink.push(Diagnostic::warning(code, format!("{here}: {what} not written")));
        }
    }
    (handicap, records)
}

/// The `INI` count: `HA`, checked against the root's `AB` stones and Tygem's layout.
fn handicap(root: Node<'_>, sink: &mut Vec<Diagnostic>) -> u32 {
    let ha = root.value("HA").and_then(|h| h.trim().parse::<u32>().ok());
    if let (Some(raw), None) = (root.value("HA"), ha) {
        sink.push(Diagnostic::warning(
            codes::LOSSY_PROPERTY,
            format!("root node: HA[{}] is not a handicap count; not written", raw.escape_debug()),
        ));
    }
    // Every AB property of the root: some programs repeat it (`AB[dp]AB[pd]`).
    let stones: Vec<Point> = root.points_of("AB").collect();
    let count = ha.filter(|&h| h >= 2).unwrap_or(stones.len() as u32);
    if ha.is_none_or(|h| h < 2) && count >= 2 {
        // GIB holds setup stones only as a handicap: the file says handicap `count`, which
        // reads back as HA[count].
        sink.push(Diagnostic::warning(
            codes::IMPLIED_HANDICAP,
            format!(
                "root node: no HA; the {count} AB stones written as handicap {count} (INI {count}), which reads back as HA[{count}]"
            ),
        ));
    }
    if count < 2 {
        if !stones.is_empty() {
            sink.push(Diagnostic::warning(
                codes::LOSSY_SETUP,
                format!("root node: setup AB ({} point(s)) is not a handicap; not written", stones.len()),
            ));
        }
        return 0;
    }
    let Some(layout) = tygem_layout(BoardSize::square(19), count) else {
        sink.push(Diagnostic::warning(
            codes::HANDICAP_LAYOUT,
            format!("root node: handicap {count} has no Tygem layout; written as no handicap"),
        ));
        return 0;
    };
    if !stones.is_empty() {
        let mut a = stones.clone();
        let mut b = layout.clone();
        a.sort();
        a.dedup();
        b.sort();
        if a != b {
            let list = |v: &[Point]| v.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",");
            sink.push(Diagnostic::warning(
                codes::HANDICAP_LAYOUT,
                format!(
                    "root node: AB stones {} are not Tygem's layout for {count} stones; written as INI {count}, readers will place {}",
                    list(&stones),
                    list(&layout)
                ),
            ));
        }
    }
    count
}
