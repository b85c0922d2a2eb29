//! The UGF writer's header in Panda-eGG's forms, values kept to one line, repeated setup and
//! two-move nodes; UGI review files with nested `VARIATION` blocks read and written back.

use kifu::{Collection, Format, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::Path;

fn ugf() -> Format {
    Format::from_name("ugf").expect("ugf is registered")
}

fn sgf(text: &str) -> Collection {
    Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection
}

fn write(c: &Collection) -> (String, Vec<String>) {
    let out = ugf().write(c, &WriteOptions::default()).unwrap();
    let warnings = out.diagnostics.iter().filter(|d| d.severity > Severity::Info).map(|d| d.message.clone()).collect();
    (String::from_utf8(out.bytes).unwrap(), warnings)
}

fn read(text: &str) -> kifu::GameTree {
    ugf().read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection.games.remove(0)
}

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let start = format!("{key}=");
    text.lines().take_while(|l| *l != "[Data]").find_map(|l| l.strip_prefix(start.as_str()))
}

#[test]
fn header_forms_are_panda_eggs() {
    let (text, w) = write(&sgf("(;GM[1]SZ[19]PB[a]PW[b];B[pd])"));
    assert!(w.is_empty(), "{w:?}");
    // No komi: the field after the comma stays empty; no date, no result: no line at all.
    assert_eq!(header(&text, "Hdcp"), Some("0,"));
    assert_eq!(header(&text, "Date"), None);
    assert_eq!(header(&text, "Winner"), None);
    assert_eq!(header(&text, "Moves"), Some("1"));
    let back = read(&text);
    assert_eq!((back.root().value("KM"), back.root().value("DT"), back.root().value("RE")), (None, None, None));

    let (text, w) = write(&sgf("(;SZ[19]KM[6.5]DT[2018.04.28]RE[B+7.5];B[pd])"));
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(header(&text, "Hdcp"), Some("0,6.50"));
    assert_eq!(header(&text, "Date"), Some("2018/04/28,,2018/04/28,"));
    assert_eq!(header(&text, "Winner"), Some("B,7.50"));
    assert_eq!(read(&text).root().value("DT"), Some("2018-04-28"));
}

#[test]
fn a_line_break_in_a_value_injects_nothing() {
    // HA[0\n[Data]\nQD,B1,0,0] must not become a [Data] section with an invented stone.
    let mut c = sgf("(;SZ[19]PB[Kim]PW[Lee];B[pd])");
    c.games[0].set_prop(kifu::model::NodeId::ROOT, "HA", &[kifu::model::PropValue::new("0\n[Data]\nQD,B1,0,0")]);
    c.games[0].set_prop(kifu::model::NodeId::ROOT, "PC", &[kifu::model::PropValue::new("x\0y")]);
    let (text, w) = write(&c);
    assert!(!text.contains("\n[Data]\r\nQD") && !text.contains('\0'), "{text}");
    assert_eq!(text.lines().filter(|l| *l == "[Data]").count(), 1, "{text}");
    assert!(w.iter().any(|m| m.starts_with("Hdcp: line breaks or control characters written as spaces")), "{w:?}");
    let back = read(&text);
    assert_eq!((back.root().value("PB"), back.root().value("PW")), (Some("Kim"), Some("Lee")));
    assert_eq!(back.root().get("AB").map(|p| p.len()), None);
}

#[test]
fn repeated_setup_and_two_move_nodes() {
    let (text, w) = write(&sgf("(;SZ[9]HA[2]KM[0.5]AB[gc]AB[cg];W[ee];B[tt]W[tt])"));
    assert!(w.is_empty(), "{w:?}");
    assert!(text.contains("[Data]\r\nGG,B1,0,0\r\nCC,B1,0,0\r\nEE,W1,1,0\r\nYA,B1,2,0\r\nYA,W1,3,0\r\n"), "{text}");
    assert_eq!(header(&text, "Moves"), Some("3"));
    let back = read(&text);
    assert_eq!(back.root().points_of("AB").count(), 2);
    assert_eq!(back.main_line_moves(), 3);
}

#[test]
fn review_variations_nested_with_id_gaps_and_comments() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ugf/variations.ugi");
    let read = ugf().read(std::fs::read(&path).unwrap(), &ReadOptions::default()).unwrap();
    assert!(read.diagnostics.iter().all(|d| d.severity == Severity::Info), "{:?}", read.diagnostics);
    let t = &read.collection.games[0];
    // Main line: root, B cc, W gg, B gc, W cg; a variation from W gg (B ee, W cg) with its own
    // nested variation (B dd) beside its continuation (B gc).
    let main: Vec<String> = t.main_line().skip(1).map(|n| format!("{:?}", n.mv().unwrap())).collect();
    assert_eq!(main.len(), 4);
    let w_gg = t.main_line().nth(2).unwrap();
    let kids: Vec<_> = w_gg.children().collect();
    assert_eq!((kids.len(), kids[1].value("B"), kids[1].value("C")), (2, Some("ee"), Some("The centre first.")));
    let w_cg = kids[1].first_child().unwrap();
    let inner: Vec<_> = w_cg.children().map(|n| (n.value("B"), n.value("C"))).collect();
    assert_eq!(inner, [(Some("gc"), None), (Some("dd"), Some("Nested idea."))]);
    assert_eq!(t.main_line().last().unwrap().value("C"), Some("Last move."));

    // Written back in the block grammar, variation comments included; a fixed point.
    let (text, w) = write(&read.collection);
    assert!(w.is_empty(), "{w:?}");
    assert!(text.contains("NODE,3,2,7,3\r\n  VARIATION,\r\n  NODE,6,1,5,5\r\n  NODE,7,2,3,3\r\n    VARIATION,\r\n    NODE,8,1,4,6\r\n    VARIATIONEND,\r\n  NODE,9,1,7,7\r\n  VARIATIONEND,\r\nNODE,4,1,7,7\r\n"), "{text}");
    assert!(text.contains(".Comment,6\r\nThe centre first.\r\n.Comment,8\r\nNested idea.\r\n"), "{text}");
    let again = ugf().read(text.clone().into_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(again.collection, read.collection);
    assert_eq!(write(&again.collection).0, text);
}

#[test]
fn review_blocks_that_do_not_close_are_reported() {
    let text = "[Header]\nSize=9\nCoordinateType=IGS\n[Data]\nCG,B1,1,0\n[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,3,7\nVARIATION,\nNODE,9,1,5,5\nVARIATIONEND,\nVARIATIONEND,\nVARIATION,\nNODE,10,1,4,4\n";
    let out = ugf().read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
    let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["ugf.bad-line", "ugf.bad-line"], "{:?}", out.diagnostics);
    assert_eq!(out.collection.games[0].node(kifu::model::NodeId::from_index(1)).children().count(), 2);
}

#[test]
fn a_point_set_up_both_black_and_white_is_written_once_and_rewrites_the_same() {
    let (first, warnings) = write(&sgf("(;SZ[19]AB[cc][ec][fb]AW[ec][fb][dd];B[bb])"));
    assert!(warnings.iter().any(|w| w.contains("point") && w.contains("written white only")), "{warnings:?}");
    let data: Vec<&str> = first.lines().skip_while(|l| *l != "[Data]").collect();
    assert_eq!(data.iter().filter(|l| l.ends_with("1,0,0")).count(), 4, "{first}");
    let back = ugf().read(first.clone().into_bytes(), &ReadOptions::default()).unwrap();
    assert!(back.diagnostics.iter().all(|d| d.severity < Severity::Warning), "{:?}", back.diagnostics);
    let (second, _) = write(&back.collection);
    assert_eq!(second, first);
}
