//! The GIB reader: decoded text → header entries and move records (`map` then makes the game
//! tree).

use super::codes;
use crate::diag::{Diagnostic, Sink};
use crate::model::{Color, Point};

/// One `\[KEY=VALUE\]` header entry and the byte offset of its line.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) key: String,
    pub(super) value: String,
    pub(super) offset: usize,
}

/// A move record: `STO` (a play) or `SKI` (a pass, colour by alternation).
#[derive(Clone, Copy, Debug)]
pub(super) struct Record {
    pub(super) color: Option<Color>,
    pub(super) point: Option<Point>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Before,
    Header,
    BetweenSections,
    Game,
    After,
}

/// Everything read from the text before it is interpreted.
#[derive(Default)]
pub(super) struct Raw {
    pub(super) entries: Vec<Entry>,
    pub(super) records: Vec<(Record, usize)>,
    pub(super) handicap: Option<(i64, usize)>,
    pub(super) ini_text: Option<String>,
    pub(super) game_line: Option<String>,
    /// Records kept as they are (`REM 0 262`).
    pub(super) kept: Vec<String>,
    pub(super) found: bool,
}

/// Physical lines with the byte offset where each starts (CRLF, LF or lone CR; trailing blanks
/// trimmed).
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i <= bytes.len() {
        if i == bytes.len() || bytes[i] == b'\n' || bytes[i] == b'\r' {
            out.push((start, text[start..i].trim_end()));
            if i + 1 < bytes.len() && bytes[i] == b'\r' && bytes[i + 1] == b'\n' {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    out
}

/// Reads the header entries and the records of decoded GIB text.
pub(super) fn scan(text: &str, sink: &mut Sink) -> Raw {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let lines = lines(text);
    let mut raw = Raw::default();
    let mut section = Section::Before;
    let (mut before_reported, mut after_reported) = (false, false);
    let mut game_numbers = 0;
    let mut expected = 2i64;
    let mut i = 0;
    while i < lines.len() {
        let (off, line) = lines[i];
        i += 1;
        let t = line.trim_start();
        if t.is_empty() {
            continue;
        }
        match t {
            "\\HS" => {
                raw.found = true;
                section = Section::Header;
                continue;
            }
            "\\HE" => {
                section = Section::BetweenSections;
                continue;
            }
            "\\GS" => {
                if section == Section::Header {
                    sink.push_at(off, Diagnostic::warning(codes::MISSING_MARKER, "\\HE is missing before \\GS"));
                }
                raw.found = true;
                section = Section::Game;
                continue;
            }
            "\\GE" => {
                section = Section::After;
                continue;
            }
            _ => {}
        }
        if t.starts_with("\\[") && matches!(section, Section::Before | Section::BetweenSections) {
            if section == Section::Before {
                sink.push_at(off, Diagnostic::warning(codes::MISSING_MARKER, "\\HS is missing before the header"));
            }
            raw.found = true;
            section = Section::Header;
        }
        match section {
            Section::Before => {
                if !before_reported {
                    before_reported = true;
                    sink.push_at(off, Diagnostic::warning(codes::TEXT_BEFORE, "text before \\HS skipped"));
                }
            }
            Section::After => {
                if !after_reported {
                    after_reported = true;
                    sink.push_at(off, Diagnostic::warning(codes::TEXT_AFTER, "text after \\GE skipped"));
                }
            }
            Section::BetweenSections => {
                sink.push_at(off, Diagnostic::warning(codes::BAD_HEADER_LINE, "line between \\HE and \\GS skipped"));
            }
            Section::Header => {
                let mut rest = t.to_string();
                // A value may run over several physical lines: join until `\]`.
                let mut joined = 0;
                while rest.starts_with("\\[") && !rest.contains("\\]") && i < lines.len() {
                    let next = lines[i].1.trim();
                    if next.starts_with("\\[") || next.starts_with("\\H") || next.starts_with("\\G") {
                        break;
                    }
                    rest.push(' ');
                    rest.push_str(next);
                    i += 1;
                    joined += 1;
                }
                if joined > 0 {
                    sink.push_at(
                        off,
                        Diagnostic::info(
                            codes::MULTILINE_VALUE,
                            format!("a header value runs over {} lines; joined with spaces", joined + 1),
                        ),
                    );
                }
                header_line(&rest, off, &mut raw.entries, sink);
            }
            Section::Game => {
                let tokens: Vec<&str> = t.split_whitespace().collect();
                match tokens.first().copied().unwrap_or("") {
                    "STO" | "SKI" => {
                        let n = tokens.get(2).and_then(|s| s.parse::<i64>().ok());
                        if let Some(n) = n {
                            if n != expected {
                                sink.push_at(
                                    off,
                                    Diagnostic::info(
                                        codes::RECORD_NUMBER,
                                        format!("move record number {n} where {expected} was expected"),
                                    ),
                                );
                            }
                            expected = n.saturating_add(1);
                        }
                        match record(&tokens, off, sink) {
                            Some(r) => raw.records.push((r, off)),
                            None => sink.push_at(
                                off,
                                Diagnostic::warning(codes::BAD_RECORD, format!("unreadable record '{t}' skipped")),
                            ),
                        }
                    }
                    "INI" => match tokens.get(3).and_then(|s| s.parse::<i64>().ok()) {
                        Some(h) => {
                            raw.handicap = Some((h, off));
                            if let Some((_, free)) = t.split_once("&4") {
                                if !free.trim().is_empty() {
                                    raw.ini_text = Some(free.trim().to_string());
                                }
                            }
                        }
                        None => sink.push_at(
                            off,
                            Diagnostic::warning(codes::BAD_RECORD, format!("unreadable INI record '{t}' skipped")),
                        ),
                    },
                    first if first.bytes().all(|b| b.is_ascii_digit()) && game_numbers < 2 => {
                        // `2 1 0`, then `<last record> 0 &4`.
                        if game_numbers == 0 && t != "2 1 0" {
                            raw.game_line = Some(t.to_string());
                        }
                        game_numbers += 1;
                    }
                    first => {
                        // End-of-game and bookkeeping records of normal files are noted; another
                        // type is a warning. Both are kept.
                        let diag = if matches!(first, "REM" | "IDX" | "DSC" | "SUR" | "WIT") {
                            let what = format!("{first} record '{t}' kept in {} (not converted)", super::PROP_RECORDS);
                            Diagnostic::info(codes::KEPT_RECORD, what)
                        } else {
                            let what = format!("unknown record type '{first}': '{t}' kept in {}", super::PROP_RECORDS);
                            Diagnostic::warning(codes::UNKNOWN_RECORD, what)
                        };
                        sink.push_at(off, diag);
                        raw.kept.push(t.to_string());
                    }
                }
            }
        }
    }
    if section == Section::Game {
        // Cut off inside the moves: an error at the end of the input, as a truncated SGF is.
        let last = match raw.records.last() {
            Some((_, at)) => {
                let line = text[*at..].lines().next().unwrap_or("").trim();
                format!("the last move read is move {} ('{line}')", raw.records.len())
            }
            None => "no move was read".to_string(),
        };
        sink.push_at(
            text.len(),
            Diagnostic::error(
                codes::TRUNCATED,
                format!("the input ends inside the game section (\\GE is missing): {last}; the moves read are kept"),
            ),
        );
    } else if section == Section::Header {
        sink.push_at(
            text.len(),
            Diagnostic::error(
                codes::TRUNCATED,
                "the input ends inside the header (\\HE and the game section are missing): no move was read",
            ),
        );
    }
    raw
}

/// Reads `\[KEY=VALUE\]` entries from one (joined) line.
fn header_line(line: &str, off: usize, entries: &mut Vec<Entry>, sink: &mut Sink) {
    let mut rest = line.trim();
    while !rest.is_empty() {
        let Some(body) = rest.strip_prefix("\\[") else {
            sink.push_at(off, Diagnostic::warning(codes::BAD_HEADER_LINE, format!("header text '{rest}' skipped")));
            return;
        };
        let (content, after) = match body.find("\\]") {
            Some(e) => (&body[..e], &body[e + 2..]),
            None => {
                sink.push_at(
                    off,
                    Diagnostic::warning(
                        codes::BAD_HEADER_LINE,
                        "header entry without \\]; read to the end of the line",
                    ),
                );
                (body, "")
            }
        };
        match content.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                let key = k.trim().to_string();
                if entries.iter().any(|e| e.key == key) {
                    sink.push_at(
                        off,
                        Diagnostic::warning(
                            codes::DUPLICATE_KEY,
                            format!("header key {key} repeated; the first is used"),
                        ),
                    );
                }
                entries.push(Entry { key, value: v.to_string(), offset: off });
            }
            _ => sink.push_at(
                off,
                Diagnostic::warning(codes::BAD_HEADER_LINE, format!("header entry '{content}' has no KEY=; skipped")),
            ),
        }
        rest = after.trim_start();
    }
}

fn record(tokens: &[&str], off: usize, sink: &mut Sink) -> Option<Record> {
    if tokens[0] == "SKI" {
        return Some(Record { color: None, point: None });
    }
    let num = |i: usize| tokens.get(i).and_then(|s| s.parse::<i64>().ok());
    let (p, x, y) = (num(3)?, num(4)?, num(5)?);
    if !(0..19).contains(&x) || !(0..19).contains(&y) {
        return None;
    }
    let color = match p {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => {
            sink.push_at(off, Diagnostic::warning(codes::BAD_COLOUR, format!("STO colour {p} is not 1 or 2")));
            None
        }
    };
    Some(Record { color, point: Some(Point::new(x as u8, y as u8)) })
}

#[cfg(test)]
mod tests {
    use super::super::parse_text;
    use super::*;
    use crate::model::GameTree;

    fn read(text: &str) -> (GameTree, Vec<Diagnostic>) {
        let (t, d) = parse_text(text, Sink::new());
        (t.expect("a game"), d)
    }

    const EVEN: &str = "\\HS\n\\[GIBOKIND=Global\\]\n\\[GAMEBLACKNAME=Kim Su (3D)\\]\n\\[GAMEWHITENAME=lee(1급)\\]\n\\[GAMEINFOMAIN=GBKIND:3,GTYPE:0,GCDT:0,GTIME:600-30-3,GRLT:0,ZIPSU:40,DUM:0,GONGJE:65,TCNT:3,AUSZ:0\\]\n\\[GAMETAG=S0,R0,D0,G65,W0,Z40,T30-3-600,C2021:01:02:03:04,I:x,L:20,M:y,N:18\\]\n\\HE\n\\GS\n2 1 0\n5 0 &4\nINI 0 1 0 &4 \nSTO 0 2 1 15 3 \nSTO 0 3 2 3 15 \nSKI 0 4 \nSKI 0 5 \n\\GE\n";

    #[test]
    fn even_game_maps_the_header() {
        let (t, d) = read(EVEN);
        assert!(d.is_empty(), "{d:?}");
        let r = t.root();
        assert_eq!(r.value("PB"), Some("Kim Su"));
        assert_eq!(r.value("BR"), Some("3d"));
        assert_eq!(r.value("PW"), Some("lee"));
        assert_eq!(r.value("WR"), Some("1k"));
        assert_eq!(r.value("KM"), Some("6.5"));
        assert_eq!(r.value("RE"), Some("B+4"));
        assert_eq!(r.value("DT"), Some("2021-01-02"));
        assert_eq!(r.value("TM"), Some("600"));
        assert_eq!(r.value("OT"), Some("3x30 byo-yomi"));
        let x: Vec<_> = r.get("XGIB").unwrap().values().map(|v| v.as_str().to_string()).collect();
        assert_eq!(x, ["GAMEINFOMAIN=GTYPE:0,TCNT:3,AUSZ:0", "GAMETAG=S0,C2021:01:02:03:04,I:x,L:20,M:y,N:18"]);
        let moves: Vec<_> = t.main_line().skip(1).map(|n| format!("{:?}", n.mv().unwrap())).collect();
        assert_eq!(moves.len(), 4);
        // Passes alternate after White's move: Black passes, then White.
        assert_eq!(t.main_line().nth(3).unwrap().value("B"), Some(""));
        assert_eq!(t.main_line().nth(4).unwrap().value("W"), Some(""));
    }

    #[test]
    fn two_line_value_crlf_and_garbage_around() {
        let text = "junk\r\n\\HS\r\n\\[GIBOKIND=Taiwan\\]\r\n\\[GAMETIME=限制時間 50分\r\n30秒 讀秒 3次\\]\r\n\\[ZZZ=1\\]\r\n\\HE\r\n\\GS\r\n2 1 0\r\n3 0 &4\r\nINI 0 1 0 &4\r\nREM 0 2\r\nSTO 0 2 1 3 3\r\n\\GE\r\ntrailing\r\n";
        let (t, d) = read(text);
        let codes: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::TEXT_BEFORE, codes::MULTILINE_VALUE, codes::KEPT_RECORD, codes::TEXT_AFTER]);
        assert_eq!(d[2].severity, crate::diag::Severity::Info);
        assert_eq!(t.root().value(super::super::PROP_RECORDS), Some("REM 0 2"));
        assert_eq!(d[1].position.unwrap().line, 4);
        let x: Vec<_> = t.root().get("XGIB").unwrap().values().map(|v| v.as_str().to_string()).collect();
        assert_eq!(x, ["GAMETIME=限制時間 50分 30秒 讀秒 3次", "ZZZ=1"]);
        assert_eq!(t.main_line().nth(1).unwrap().value("B"), Some("dd"));
    }

    #[test]
    fn handicap_three_uses_the_tygem_layout_and_white_first() {
        let text = "\\HS\n\\[GAMEINFOMAIN=GCDT:3,GRLT:255,DUM:5,GONGJE:0\\]\n\\HE\n\\GS\n2 1 0\n3 0 &4\nINI 0 1 3 &4\nSTO 0 2 2 15 15\nSKI 0 3\n\\GE\n";
        let (t, _) = read(text);
        let r = t.root();
        assert_eq!(r.value("HA"), Some("3"));
        let ab: Vec<_> = r.get("AB").unwrap().values().map(|v| v.as_str()).collect();
        assert_eq!(ab, ["pd", "dp", "dd"]);
        assert_eq!(r.value("KM"), Some("0.5"));
        assert_eq!(r.value("RE"), None);
        assert_eq!(t.main_line().nth(1).unwrap().value("W"), Some("pp"));
        assert_eq!(t.main_line().nth(2).unwrap().value("B"), Some(""));
    }

    #[test]
    fn result_text_is_the_fallback_and_unknown_codes_are_reported() {
        let (t, _) = read("\\HS\n\\[GAMERESULT=黑1目半胜\\]\n\\HE\n\\GS\n\\GE\n");
        assert_eq!(t.root().value("RE"), Some("B+1.5"));
        let (t, d) = read("\\HS\n\\[GAMEINFOMAIN=GRLT:2,ZIPSU:0\\]\n\\HE\n\\GS\n\\GE\n");
        assert_eq!(t.root().value("RE"), None);
        assert_eq!(d[0].code, codes::UNKNOWN_RESULT);
    }

    #[test]
    fn names_fall_back_to_nick_and_levels() {
        let (t, d) = read(
            "\\HS\n\\[GAMEBLACKNICK=bob\\]\n\\[GAMEBLACKLEVEL=18\\]\n\\[GAMEWHITENAME=al\\]\n\\[WUSERINFO=WID:敍獮,WLV:3\\]\n\\HE\n",
        );
        assert_eq!(t.root().value("PB"), Some("bob"));
        assert_eq!(t.root().value("BR"), Some("1d"));
        assert_eq!(t.root().value("PW"), Some("al"));
        assert_eq!(t.root().value("WR"), Some("15k"));
        assert_eq!(d[0].code, codes::NAME_FROM_NICK);
    }

    #[test]
    fn damaged_names_and_bad_records() {
        let (t, d) = read("\\HS\n\\[GAMEPLACE=Ÿ���� �ٵ�\\]\n\\HE\n\\GS\nSTO 0 2 1 19 3\nSTO 0 3 3 1 1\n\\GE\n");
        assert_eq!(t.root().value("PC"), None);
        let codes: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(codes, [codes::BAD_RECORD, codes::BAD_COLOUR, codes::DAMAGED_TEXT]);
        assert_eq!(t.main_line().nth(1).unwrap().value("B"), Some("bb"));
    }

    #[test]
    fn huge_record_numbers_do_not_overflow() {
        let (t, d) = read("\\HS\n\\HE\n\\GS\nSTO 0 9223372036854775807 1 3 3\nSTO 0 2 2 4 4\n\\GE\n");
        assert_eq!(t.main_line().count(), 3);
        assert_eq!(d.iter().filter(|d| d.code == codes::RECORD_NUMBER).count(), 2, "{d:?}");
    }

    #[test]
    fn modern_headers_name_the_players_from_userinfo() {
        let text = "\\HS\n\\[INFOMAIN=GBKIND:3,GTYPE:0,GCDT:0,GTIME:600-30-3,GRLT:4,ZIPSU:0,DUM:0,GONGJE:65,TCNT:1,AUSZ:0\\]\n\\[INFOSUB=GNAMEF:0,GPLCF:0,GNAME:Rank,GDATE:2023- 4- 2-20-11- 5,GPLC:Tygem Baduk,GCMT:\\]\n\\[BUSERINFO=BID:kimsu77,BLV:21,BNICK:KimSu,BNCD:3,BAID:0,BIMG:\\]\n\\[WUSERINFO=WID:敍獮楫t,WLV:19,WNICK:敍獮楫t,WNCD:3,WAID:0,WIMG:\\]\n\\HE\n\\GS\n2 1 0\n2 0 &4\nINI 0 1 0 &4\nSTO 0 2 1 3 3\n\\GE\n";
        let (t, d) = read(text);
        let r = t.root();
        assert_eq!((r.value("PB"), r.value("BR")), (Some("KimSu"), Some("4d")));
        assert_eq!((r.value("PW"), r.value("WR")), (Some("Menskit"), Some("2d")));
        assert_eq!((r.value("KM"), r.value("RE"), r.value("DT")), (Some("6.5"), Some("W+R"), Some("2023-04-02")));
        assert_eq!(r.value("GN"), Some("Rank"));
        assert!(d.iter().all(|d| d.severity == crate::diag::Severity::Info), "{d:?}");
        assert_eq!(d.iter().filter(|d| d.code == codes::NAME_FROM_USERINFO).count(), 2);
    }

    /// One header per generation: the name Tygem shows is the nickname; `GAME*NAME`, where a
    /// file has it, wins; the login id stays in `XGIB`.
    #[test]
    fn players_are_named_by_nickname_in_every_header_generation() {
        let moves = "\\HE\n\\GS\n2 1 0\n2 0 &4\nINI 0 1 0 &4\nSTO 0 2 1 3 3\n\\GE\n";
        // Classic: GAME*NAME (here the nickname, as in the 2020 files) with the id elsewhere.
        let classic = format!(
            "\\HS\n\\[GIBOKIND=Global\\]\n\\[GAMEWHITENAME=W_009b56 (3D)\\]\n\\[GAMEWHITENICK=W_009b56\\]\n\\[GAMEBLACKNAME=Tom (2D)\\]\n\\[GAMEBLACKNICK=Tom\\]\n\\[WUSERINFO=WID:qys1980,WLV:20,WNICK:W_009b56,WNCD:0,WAID:0,WIMG:\\]\n\\[BUSERINFO=BID:tom_1,BLV:19,BNICK:Tom,BNCD:0,BAID:0,BIMG:\\]\n{moves}"
        );
        // Mangled ids (Global, 2020): the id restores to `pjm570318`, the nickname to `K_002odc`.
        let mangled = format!(
            "\\HS\n\\[GIBOKIND=Global\\]\n\\[WUSERINFO=WID:橰㕭〷ㄳ8,WLV:21,WNICK:彋〰漲捤,WNCD:0,WAID:0,WIMG:\\]\n\\[BUSERINFO=BID:敍獮楫t,BLV:21,BNICK:敍獮楫t,BNCD:3,BAID:0,BIMG:\\]\n{moves}"
        );
        // Modern (2025): INFOMAIN, USERINFO and GAMETAG only.
        let modern = format!(
            "\\HS\n\\[INFOMAIN=GBKIND:3,GTYPE:0,GCDT:0,GTIME:600-30-3,GRLT:4,ZIPSU:0,DUM:0,GONGJE:65,TCNT:1,AUSZ:0\\]\n\\[BUSERINFO=BID:abc123,BLV:21,BNICK:B_01aa77,BNCD:3,BAID:0,BIMG:\\]\n\\[WUSERINFO=WID:qys1980,WLV:20,WNICK:W_009b56,WNCD:0,WAID:0,WIMG:\\]\n\\[GAMETAG=S0,R0,D0,G65,W4,Z0,T30-3-600,C2025:05:01:10:00,I:qys1980,L:20,M:abc123,N:21,A:W_009b56,B:B_01aa77,J:0,K:3\\]\n{moves}"
        );
        // GAMETAG alone: its nickname (A/B) before its id (I/M).
        let tag_only = format!(
            "\\HS\n\\[INFOMAIN=GBKIND:3,GRLT:4,ZIPSU:0,GONGJE:65\\]\n\\[GAMETAG=S0,I:qys1980,L:20,M:abc123,N:21,A:W_009b56,B:B_01aa77\\]\n{moves}"
        );
        for (text, pb, pw, from) in [
            (&classic, "Tom", "W_009b56", None),
            (&mangled, "Menskit", "K_002odc", Some("WUSERINFO's WNICK")),
            (&modern, "B_01aa77", "W_009b56", Some("WUSERINFO's WNICK")),
            (&tag_only, "B_01aa77", "W_009b56", Some("GAMETAG's A (nickname)")),
        ] {
            let (t, d) = read(text);
            let r = t.root();
            assert_eq!((r.value("PB"), r.value("PW")), (Some(pb), Some(pw)), "{text}");
            let header: Vec<&str> =
                r.get(super::super::PROP_HEADER).map(|p| p.values().map(|v| v.as_str()).collect()).unwrap_or_default();
            if text.contains("WUSERINFO") {
                assert!(header.iter().any(|h| h.starts_with("WUSERINFO=WID:")), "the id is kept: {header:?}");
            }
            match from {
                Some(from) => {
                    assert!(d.iter().any(|d| d.code == codes::NAME_FROM_USERINFO && d.message.contains(from)), "{d:?}")
                }
                None => assert!(d.iter().all(|d| d.code != codes::NAME_FROM_USERINFO), "{d:?}"),
            }
        }
    }

    #[test]
    fn zero_margin_comes_back() {
        let (t, _) = read("\\HS\n\\[GAMERESULT=white 0 win\\]\n\\[GAMEINFOMAIN=GRLT:1,ZIPSU:0\\]\n\\HE\n\\GS\n\\GE\n");
        assert_eq!(t.root().value("RE"), Some("W+0"));
        let (t, _) = read("\\HS\n\\[GAMERESULT=white win\\]\n\\[GAMEINFOMAIN=GRLT:1,ZIPSU:0\\]\n\\HE\n\\GS\n\\GE\n");
        assert_eq!(t.root().value("RE"), Some("W+"));
    }

    #[test]
    fn nothing_gib_is_an_error() {
        let (t, d) = parse_text("hello", Sink::new());
        assert!(t.is_none());
        assert_eq!(d.last().unwrap().code, codes::NO_GAME);
    }
}
