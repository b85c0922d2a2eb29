//! The UGF reader: sections, header, `[Data]` moves, `[ReviewNode]`/`[ReviewComment]` reviews and
//! `[Figure]` commentary, into the common model through [`TreeBuilder`].

use super::header::{derive, mapped_key, partner_key, render, writer_owned};
use super::moves::{Geometry, Line, move_prop, parse_move_line};
use super::review;
use super::{PROP_CLOCK, PROP_COMMENT, PROP_HEADER, PROP_PLAYER, PROP_TIME, codes};
use crate::diag::{Diagnostic, Sink};
use crate::model::{Collection, Color, Move, NodeId, Point, TreeBuilder};

/// Splits text into lines ending at CR, LF or CRLF, with each line's byte offset.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((start, &text[start..i]));
                start = i + 1;
            }
            b'\r' => {
                out.push((start, &text[start..i]));
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push((start, &text[start..]));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    None,
    Header,
    Data,
    Figure,
    ReviewNode,
    ReviewComment,
    Comment,
    Skipped,
    End,
}

/// Reports an input cut off (an error at its end, as a truncated SGF is; the moves read are
/// kept): the text stops without a line end inside `[Header]` before any `[Data]`, or inside a
/// `[Data]` line that has not its four fields (`CF,W`). A cut right at the end of a whole line
/// cannot be told from a complete file.
fn truncation(text: &str, section: Section, data: &[Line], sink: &mut Sink) {
    if text.is_empty() || text.ends_with(['\n', '\r']) {
        return;
    }
    let whole = |l: &str| l.split(',').count() >= 4;
    let what = match section {
        Section::Header if data.is_empty() => "the input ends inside [Header]: no move was read".to_string(),
        Section::Data => match data.split_last() {
            Some(((_, cut), before)) if !whole(cut.trim()) => {
                let kept = data.len() - 1;
                match before.iter().rev().find(|(_, l)| whole(l.trim())) {
                    Some((_, last)) => format!(
                        "the input ends inside the [Data] line '{}' ({kept} lines read before it, the last \
                         '{}'); the moves read are kept",
                        cut.trim(),
                        last.trim()
                    ),
                    None => format!("the input ends inside the [Data] line '{}': no move was read", cut.trim()),
                }
            }
            _ => return,
        },
        _ => return,
    };
    sink.push_at(text.len(), Diagnostic::error(codes::TRUNCATED, what));
}

/// Parses decoded UGF text into one game. `Err` holds the diagnostics when nothing could be read
/// (no `[Header]`/`[Data]`, or an encrypted file).
pub(crate) fn parse_text(text: String, mut sink: Sink) -> Result<(Collection, Vec<Diagnostic>), Vec<Diagnostic>> {
    let all = lines(&text);
    let mut section = Section::None;
    let mut parts: [Vec<Line>; 6] = Default::default();
    let mut found = false;
    for &(off, raw) in &all {
        let line = raw.trim_end();
        if section == Section::End {
            if !line.is_empty() {
                sink.push_at(off, Diagnostic::info(codes::AFTER_END, "text after [End] ignored"));
                break;
            }
            continue;
        }
        let in_text = matches!(section, Section::ReviewComment | Section::Figure | Section::Comment);
        // In text sections only a known section name ends the section.
        if line.starts_with('[') && line.ends_with(']') && (!in_text || is_section_name(line)) {
            let name = &line[1..line.len() - 1];
            section = match name.to_ascii_lowercase().as_str() {
                "header" => Section::Header,
                "data" => Section::Data,
                "figure" => Section::Figure,
                "reviewnode" => Section::ReviewNode,
                "reviewcomment" => Section::ReviewComment,
                "comment" => Section::Comment,
                "end" => Section::End,
                "remote" | "files" | "messageline" => {
                    sink.push_at(off, Diagnostic::info(codes::SKIPPED_SECTION, format!("section [{name}] skipped")));
                    Section::Skipped
                }
                _ => {
                    sink.push_at(
                        off,
                        Diagnostic::warning(codes::UNKNOWN_SECTION, format!("unknown section [{name}] skipped")),
                    );
                    Section::Skipped
                }
            };
            found |= matches!(section, Section::Header | Section::Data);
            continue;
        }
        if line.starts_with('#') && !in_text {
            sink.push_at(off, Diagnostic::info(codes::COMMENT_LINE, "comment line skipped"));
            continue;
        }
        let slot = match section {
            Section::Header => 0,
            Section::Data => 1,
            Section::Figure => 2,
            Section::ReviewNode => 3,
            Section::ReviewComment => 4,
            Section::Comment => 5,
            Section::None => {
                if !line.is_empty() {
                    sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, "text before the first section skipped"));
                }
                continue;
            }
            Section::Skipped | Section::End => continue,
        };
        parts[slot].push((off, raw));
    }
    if !found {
        sink.push(Diagnostic::error(codes::NO_GAME, "no [Header] or [Data] section: not a UGF file"));
        return Err(sink.finish(&text));
    }
    truncation(&text, section, &parts[1], &mut sink);
    let [head, data, figure, review_nodes, review_comments, comment] = parts;
    let mut b = TreeBuilder::new();
    let root = b.root();
    let Some(geo) = read_header(&head, &mut b, &mut sink) else {
        return Err(sink.finish(&text));
    };
    if !comment.is_empty() {
        let joined: Vec<&str> = comment.iter().map(|(_, l)| l.trim_end()).collect();
        b.add_prop(root, PROP_COMMENT, [joined.join("\n")]);
    }
    // Whether the header gives a handicap at all (`Hdcp=0,6.50` says "no handicap stones").
    let hdcp = head.iter().any(|(_, l)| l.split_once('=').is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case("Hdcp")));
    read_data(&data, geo, hdcp, &mut b, &mut sink);
    let ids = review::read_review(&review_nodes, geo, &mut b, &mut sink);
    review::read_review_comments(&review_comments, ids.as_ref(), &mut b, &mut sink);
    review::read_figures(&figure, geo, &mut b, &mut sink);
    let tree = b.build();
    Ok((Collection::new(vec![tree]), sink.finish(&text)))
}

pub(super) fn is_section_name(line: &str) -> bool {
    let name = line.get(1..line.len().saturating_sub(1)).unwrap_or("").to_ascii_lowercase();
    matches!(
        name.as_str(),
        "header"
            | "data"
            | "figure"
            | "reviewnode"
            | "reviewcomment"
            | "comment"
            | "end"
            | "remote"
            | "files"
            | "messageline"
    )
}

/// Reads `[Header]` into root properties; returns the geometry, or `None` for an encrypted file.
fn read_header(head: &[Line], b: &mut TreeBuilder, sink: &mut Sink) -> Option<Geometry> {
    let root = b.root();
    let mut props: Vec<(&'static str, String)> = vec![("GM", "1".into()), ("SZ", "19".into())];
    let mut kept: Vec<String> = Vec::new();
    let mut partners: Vec<(Color, String)> = Vec::new();
    let mut flip = None;
    for &(off, raw) in head {
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            sink.push_at(off, Diagnostic::warning(codes::BAD_LINE, format!("header line without '=' skipped: {line}")));
            continue;
        };
        let key = key.trim();
        if key.eq_ignore_ascii_case("Crypt") {
            let v = value.trim();
            let plain = v.is_empty() || v.get(..7).is_some_and(|p| p.eq_ignore_ascii_case("0,PLAIN"));
            if !plain {
                sink.push_at(
                    off,
                    Diagnostic::error(
                        codes::ENCRYPTED,
                        format!("the file is encrypted (Crypt={v}); kifu cannot read it"),
                    ),
                );
                return None;
            }
            continue;
        }
        if key.eq_ignore_ascii_case("CoordinateType") {
            let t = value.trim().get(..3).unwrap_or("").to_ascii_uppercase();
            flip = match t.as_str() {
                "IGS" => Some(true),
                "JPN" => Some(false),
                _ => {
                    sink.push_at(
                        off,
                        Diagnostic::warning(
                            codes::COORDINATE_TYPE,
                            format!("unknown CoordinateType '{}'; using IGS", value.trim()),
                        ),
                    );
                    Some(true)
                }
            };
            continue;
        }
        if writer_owned(key) {
            continue;
        }
        if let Some(colour) = partner_key(key) {
            if let Some(name) = value.split(',').next().map(str::trim).filter(|n| !n.is_empty()) {
                partners.push((colour, name.to_string()));
            }
            kept.push(line.to_string());
            continue;
        }
        let Some(canon) = mapped_key(key) else {
            // An empty `Code=` and `Ver=UGF3,200` are what the writer writes anyway.
            let default = (key.eq_ignore_ascii_case("Code") && value.trim().is_empty())
                || (key.eq_ignore_ascii_case("Ver") && value.trim() == "UGF3,200");
            if !default {
                kept.push(line.to_string());
            }
            continue;
        };
        match derive(canon, value) {
            Ok(vals) => {
                let get = |id: &str| vals.iter().find(|(k, _)| *k == id).map(|(_, v)| v.clone());
                if render(canon, &get) != value {
                    kept.push(line.to_string());
                }
                for (id, v) in vals {
                    match props.iter_mut().find(|(k, _)| *k == id) {
                        Some(slot) => slot.1 = v,
                        None => props.push((id, v)),
                    }
                }
            }
            Err(what) => {
                sink.push_at(
                    off,
                    Diagnostic::warning(codes::BAD_VALUE, format!("cannot parse {what}; kept as {PROP_HEADER}")),
                );
                kept.push(line.to_string());
            }
        }
    }
    if flip.is_none() {
        sink.push(Diagnostic::warning(codes::COORDINATE_TYPE, "no CoordinateType; using IGS (rows from the bottom)"));
    }
    for (colour, name) in partners {
        let id = if colour == Color::Black { "PB" } else { "PW" };
        match props.iter_mut().find(|(k, _)| *k == id) {
            Some(slot) => slot.1 = format!("{} & {name}", slot.1),
            None => props.push((id, name)),
        }
    }
    let size = props.iter().find(|(k, _)| *k == "SZ").and_then(|(_, v)| v.parse().ok()).unwrap_or(19);
    for (id, v) in props {
        b.add_prop(root, id, [v]);
    }
    if !kept.is_empty() {
        b.add_prop(root, PROP_HEADER, kept);
    }
    Some(Geometry { size, flip: flip.unwrap_or(true) })
}

/// The setup stones of one node, in line order: a point set again is set once, by its last line.
struct Setup {
    node: NodeId,
    stones: Vec<(Color, Point)>,
}

impl Setup {
    /// Sets `p` to `colour`; the colour it had when it was set already.
    fn set(&mut self, colour: Color, p: Point) -> Option<Color> {
        match self.stones.iter().position(|&(_, q)| q == p) {
            Some(i) => {
                let before = self.stones.remove(i).0;
                self.stones.push((colour, p));
                Some(before)
            }
            None => {
                self.stones.push((colour, p));
                None
            }
        }
    }

    fn black(&self) -> u32 {
        self.stones.iter().filter(|(c, _)| *c == Color::Black).count() as u32
    }

    /// Writes the node's `AB` and `AW`.
    fn write(&self, b: &mut TreeBuilder) {
        for (colour, id) in [(Color::Black, "AB"), (Color::White, "AW")] {
            let points: Vec<String> =
                self.stones.iter().filter(|(c, _)| *c == colour).filter_map(|(_, p)| p.to_sgf()).collect();
            if !points.is_empty() {
                b.append_values(self.node, id, points);
            }
        }
    }
}

/// Reads `[Data]`: setup stones (move number 0) and the main line. `hdcp`: whether the header
/// has a `Hdcp` line (which then says how many of the setup stones are a handicap).
fn read_data(data: &[Line], geo: Geometry, hdcp: bool, b: &mut TreeBuilder, sink: &mut Sink) {
    let root = b.root();
    let mut cur = root;
    let mut moves = 0u32;
    let mut last: Option<Color> = None;
    // The setup of the root, then of each node of setup lines after a move (each in a node of
    // its own, after the move it follows: SGF has no node holding a move and setup, and the
    // order of the lines is the order of the game).
    let mut setups: Vec<Setup> = vec![Setup { node: root, stones: Vec::new() }];
    for &(off, raw) in data {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let Some(m) = parse_move_line(off, line, sink) else {
            sink.push_at(off, Diagnostic::info(codes::BAD_LINE, format!("[Data] line skipped: {line}")));
            continue;
        };
        let mv = geo.to_move(m.x, m.y);
        if m.number == Some(0) {
            let (Some(colour), Move::Play(p)) = (m.colour, mv) else {
                sink.push_at(
                    off,
                    Diagnostic::warning(codes::BAD_LINE, format!("setup line without colour or point skipped: {line}")),
                );
                continue;
            };
            if setups.last().is_none_or(|s| s.node != cur) {
                sink.push_at(
                    off,
                    Diagnostic::warning(
                        codes::LATE_SETUP,
                        format!("setup stone after move {moves}; set in a node of its own after that move"),
                    ),
                );
                cur = b.add_child(cur);
                setups.push(Setup { node: cur, stones: Vec::new() });
            }
            let setup = setups.last_mut().expect("the root's setup at least");
            let point = p.to_sgf().unwrap_or_default();
            match setup.set(colour, p) {
                Some(before) if before == colour => sink.push_at(
                    off,
                    Diagnostic::info(
                        codes::DUPLICATE_SETUP,
                        format!("setup point {point} given twice ({}); set once", colour.as_sgf()),
                    ),
                ),
                Some(before) => sink.push_at(
                    off,
                    Diagnostic::warning(
                        codes::DUPLICATE_SETUP,
                        format!(
                            "setup point {point} given as {} and then as {}; the later line kept",
                            before.as_sgf(),
                            colour.as_sgf()
                        ),
                    ),
                ),
                None => {}
            }
            continue;
        }
        moves += 1;
        if m.number != Some(moves) {
            let got = m.number.map_or_else(|| "none".to_string(), |n| n.to_string());
            sink.push_at(
                m.offset,
                Diagnostic::warning(codes::MOVE_NUMBER, format!("move number {got}, expected {moves}")),
            );
        }
        let colour = match m.colour {
            Some(c) => c,
            None => {
                let c = match last {
                    Some(l) => l.opponent(),
                    None if setups[0].black() > 0 => Color::White,
                    None => Color::Black,
                };
                sink.push_at(
                    off,
                    Diagnostic::info(
                        codes::INFERRED_COLOUR,
                        format!("move {moves} has no colour; {} inferred", c.as_sgf()),
                    ),
                );
                c
            }
        };
        last = Some(colour);
        cur = b.add_child(cur);
        let (id, v) = move_prop(colour, mv);
        b.add_prop(cur, id, [v]);
        if let Some(s) = m.seconds.filter(|s| !s.trim_start_matches('0').is_empty()) {
            b.add_prop(cur, PROP_TIME, [s]);
        }
        if let Some(c) = m.clock {
            b.add_prop(cur, PROP_CLOCK, [c]);
        }
        if let Some(p) = m.player.filter(|p| *p != '1') {
            b.add_prop(cur, PROP_PLAYER, [p.to_string()]);
        }
    }
    for setup in &setups {
        setup.write(b);
    }
    // A `Hdcp` of 0 or 1 beside setup stones says they are no handicap (a position set up):
    // only a handicap count that disagrees with the stones, or setup stones with no `Hdcp` at
    // all, are worth a word.
    let black_setup = setups[0].black();
    let ha: u32 = b.value(root, "HA").and_then(|h| h.parse().ok()).unwrap_or(0);
    if ha >= 2 && ha != black_setup {
        sink.push(Diagnostic::warning(
            codes::HANDICAP_MISMATCH,
            format!("Hdcp says {ha} handicap stone(s) but [Data] has {black_setup} black setup stone(s)"),
        ));
    } else if !hdcp && black_setup >= 2 {
        sink.push(Diagnostic::warning(
            codes::HANDICAP_MISMATCH,
            format!(
                "no Hdcp line, but [Data] has {black_setup} black setup stones; read as setup, not as a handicap (no HA)"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cr_lf_and_crlf() {
        let l: Vec<&str> = lines("a\rb\nc\r\nd").into_iter().map(|(_, s)| s).collect();
        assert_eq!(l, ["a", "b", "c", "d"]);
        assert_eq!(lines("a\r\n\r\nb").into_iter().map(|(o, _)| o).collect::<Vec<_>>(), [0, 3, 5]);
    }

    #[test]
    fn igs_and_jpn_rows() {
        let igs = Geometry { size: 19, flip: true };
        let jpn = Geometry { size: 19, flip: false };
        assert_eq!(igs.to_move(16, 15).to_sgf().as_deref(), Some("qd"));
        assert_eq!(jpn.to_move(16, 15).to_sgf().as_deref(), Some("qp"));
        assert_eq!(igs.to_move(24, 0), Move::Pass);
        assert_eq!(igs.to_move(3, 25), Move::Pass);
    }
}
