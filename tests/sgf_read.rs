//! The SGF grammar, rule by rule, and lenient recovery with codes and positions.

mod common;
use common::{codes, read_sgf};
use kifu::model::{BoardSize, Color, Move, NodeId, Point};
use kifu::{Format, ReadOptions};
use pretty_assertions::assert_eq;

fn idents(tree: &kifu::GameTree, node: usize) -> Vec<String> {
    tree.node(NodeId::from_index(node)).props().map(|p| p.ident().to_string()).collect()
}

#[test]
fn collection_of_game_trees() {
    let r = read_sgf("(;GM[1]SZ[9];B[aa])\n(;GM[1]SZ[13];W[mm])");
    assert_eq!(r.collection.games.len(), 2);
    assert_eq!(r.collection.games[0].board_size(), BoardSize::square(9));
    assert_eq!(r.collection.games[1].board_size(), BoardSize::square(13));
    assert!(r.diagnostics.is_empty());
}

#[test]
fn whitespace_anywhere_the_grammar_allows() {
    let r = read_sgf(" ( ;\tFF [4]\r\n SZ\n[19] [x] ; B [pd] ( ; W[dd] ) ( ;W[dp] ) ) ");
    let t = &r.collection.games[0];
    assert_eq!(idents(t, 0), ["FF", "SZ"]);
    assert_eq!(t.root().get("SZ").unwrap().len(), 2);
    assert_eq!(t.len(), 4);
    assert_eq!(t.child_count(NodeId::from_index(1)), 2);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
}

#[test]
fn line_ends_cr_lf_crlf() {
    for nl in ["\n", "\r", "\r\n"] {
        let text = format!("(;C[a{nl}b]N[x{nl}y]{nl};B[aa])");
        let r = read_sgf(&text);
        let root = r.collection.games[0].root();
        assert_eq!(root.value("C"), Some("a\nb"), "{nl:?}");
        assert_eq!(root.value("N"), Some("x y"), "SimpleText newline becomes a space ({nl:?})");
    }
}

#[test]
fn old_identifiers_are_normalised() {
    let r = read_sgf("(;FileFormat[3]SiZe[9]PlayerBlack[Ann]CoPyright[me];Black[aa])");
    let t = &r.collection.games[0];
    assert_eq!(idents(t, 0), ["FF", "SZ", "PB", "CP"]);
    assert_eq!(idents(t, 1), ["B"]);
    assert_eq!(t.info().black.as_deref(), Some("Ann"));
    assert!(r.diagnostics.iter().all(|d| d.code == "sgf.old-identifier" && d.severity == kifu::Severity::Info));
}

#[test]
fn escapes_and_soft_breaks() {
    let r = read_sgf("(;C[a \\] b \\\\ c \\: d soft\\\nbreak]N[x\\\r\ny];B[aa])");
    let root = r.collection.games[0].root();
    assert_eq!(root.value("C"), Some("a ] b \\ c : d softbreak"));
    assert_eq!(root.value("N"), Some("xy"));
}

#[test]
fn composed_values_split_at_unescaped_colon() {
    let r = read_sgf("(;AP[My\\:App:1.0]LB[aa:x\\:y][bb:z]SZ[19:13]C[a:b])");
    let root = r.collection.games[0].root();
    let ap = root.get("AP").unwrap().values().next().unwrap();
    assert_eq!(ap.parts(), Some(("My:App", "1.0")));
    let lb: Vec<_> = root.get("LB").unwrap().values().map(|v| v.parts().unwrap()).collect();
    assert_eq!(lb, [("aa", "x:y"), ("bb", "z")]);
    assert_eq!(r.collection.games[0].board_size(), BoardSize { width: 19, height: 13 });
    // C is Text, not composed: no split.
    assert_eq!(root.get("C").unwrap().values().next().unwrap().parts(), None);
}

#[test]
fn compressed_point_lists_read_as_points() {
    let r = read_sgf("(;SZ[9]AB[aa:bb][ee])");
    let t = &r.collection.games[0];
    let replay = kifu::go::Board::replay_main_line(t);
    let black: Vec<_> = ["aa", "ba", "ab", "bb", "ee"].iter().map(|s| Point::from_sgf(s).unwrap()).collect();
    for p in black {
        assert_eq!(replay.board.get(p), Some(Color::Black));
    }
    assert_eq!(replay.board.get(Point::from_sgf("cc").unwrap()), None);
}

#[test]
fn passes_empty_and_tt() {
    let r = read_sgf("(;SZ[19];B[];W[tt];B[pd])(;SZ[21];B[tt])");
    let g = &r.collection.games;
    let moves: Vec<_> = g[0].main_line().filter_map(|n| n.mv()).collect();
    assert_eq!(moves[0], (Color::Black, Move::Pass));
    assert_eq!(moves[1], (Color::White, Move::Pass));
    assert_eq!(moves[2].1, Move::Play(Point::new(15, 3)));
    let big: Vec<_> = g[1].main_line().filter_map(|n| n.mv()).collect();
    assert_eq!(big[0].1, Move::Play(Point::new(19, 19)), "tt is a point on 21x21");
}

#[test]
fn coordinates_up_to_52() {
    let r = read_sgf("(;SZ[52];B[ZZ];W[Aa])");
    let m: Vec<_> = r.collection.games[0].main_line().filter_map(|n| n.mv()).collect();
    assert_eq!(m[0].1, Move::Play(Point::new(51, 51)));
    assert_eq!(m[1].1, Move::Play(Point::new(26, 0)));
}

#[test]
fn unknown_and_private_properties_keep_place_and_values() {
    let r = read_sgf("(;GM[1]MULTIGOGM[1]XX[a][b]SZ[9];B[aa]TT[30])");
    let t = &r.collection.games[0];
    assert_eq!(idents(t, 0), ["GM", "MULTIGOGM", "XX", "SZ"]);
    let xx: Vec<_> = t.root().get("XX").unwrap().values().map(|v| v.as_str()).collect();
    assert_eq!(xx, ["a", "b"]);
    assert_eq!(t.node(NodeId::from_index(1)).value("TT"), Some("30"));
}

#[test]
fn duplicate_properties_are_both_kept() {
    let r = read_sgf("(;AP[GNU Go:3.8]AP[foxwq]C[a]C[b])");
    let t = &r.collection.games[0];
    assert_eq!(idents(t, 0), ["AP", "AP", "C", "C"]);
}

// ---- lenient recovery: each with its code and position ----

#[test]
fn text_before_the_first_tree() {
    let r = read_sgf("Some prose (see below).\n(;GM[1];B[aa])");
    assert_eq!(codes(&r.diagnostics), [("sgf.text-before", 1, 1)]);
    assert_eq!(r.collection.games[0].len(), 2);
}

#[test]
fn utf8_bom_is_not_junk() {
    let r = Format::SGF.read(b"\xEF\xBB\xBF(;GM[1])".to_vec(), &ReadOptions::default()).unwrap();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.charset.unwrap().source, kifu::charset::CharsetSource::Bom);
}

#[test]
fn missing_final_paren() {
    let r = read_sgf("(;GM[1];B[aa](;W[bb]");
    assert_eq!(codes(&r.diagnostics), [("sgf.missing-close", 1, 21)]);
    assert_eq!(r.collection.games[0].len(), 3);
}

#[test]
fn extra_close_paren() {
    let r = read_sgf("(;GM[1];B[aa]))\n");
    assert_eq!(codes(&r.diagnostics), [("sgf.extra-close", 1, 15)]);
    assert_eq!(r.collection.games.len(), 1);
}

#[test]
fn unescaped_bracket_inside_a_comment() {
    let r = read_sgf("(;C[see [3d] here];B[aa])");
    assert_eq!(codes(&r.diagnostics), [("sgf.unescaped-bracket", 1, 12)]);
    assert_eq!(r.collection.games[0].root().value("C"), Some("see [3d] here"));
    assert_eq!(r.collection.games[0].len(), 2);
    // The Sabaki #687 case.
    let r = read_sgf("(;US[Matsuyama[3d]];B[aa])");
    assert_eq!(r.collection.games[0].root().value("US"), Some("Matsuyama[3d]"));
}

#[test]
fn paren_without_semicolon() {
    let r = read_sgf("(FF[4]GM[1]PB[Honinbo]\n;B[pd])");
    assert_eq!(codes(&r.diagnostics), [("sgf.missing-semicolon", 1, 2)]);
    let t = &r.collection.games[0];
    assert_eq!(idents(t, 0), ["FF", "GM", "PB"]);
    assert_eq!(t.len(), 2);
}

#[test]
fn empty_variation() {
    let r = read_sgf("(;GM[1]()(;B[aa]))");
    assert_eq!(codes(&r.diagnostics), [("sgf.empty-variation", 1, 8)]);
    assert_eq!(r.collection.games[0].len(), 2);
    let r = read_sgf("()(;GM[1])");
    assert_eq!(codes(&r.diagnostics), [("sgf.empty-variation", 1, 1)]);
    assert_eq!(r.collection.games.len(), 1);
}

#[test]
fn unterminated_value() {
    let r = read_sgf("(;GM[1]C[never closed");
    assert_eq!(codes(&r.diagnostics), [("sgf.unterminated-value", 1, 9), ("sgf.missing-close", 1, 22)]);
    assert_eq!(r.collection.games[0].root().value("C"), Some("never closed"));
}

#[test]
fn property_without_value() {
    let r = read_sgf("(;GM[1]PB;B[aa])");
    assert_eq!(codes(&r.diagnostics), [("sgf.missing-value", 1, 8)]);
    assert_eq!(r.collection.games[0].len(), 2);
}

#[test]
fn stray_characters_inside_a_tree() {
    let r = read_sgf("(;GM[1] 123 ;B[aa])");
    assert_eq!(codes(&r.diagnostics), [("sgf.unexpected-char", 1, 9)]);
    assert_eq!(r.collection.games[0].len(), 2);
}

#[test]
fn node_after_variation() {
    let r = read_sgf("(;GM[1](;B[aa]);B[bb])");
    assert_eq!(codes(&r.diagnostics), [("sgf.node-after-variation", 1, 16)]);
    let t = &r.collection.games[0];
    assert_eq!(t.child_count(NodeId::ROOT), 2);
}

#[test]
fn no_game_at_all_is_an_error_with_position() {
    let e = Format::SGF.read(b"just text".to_vec(), &ReadOptions::default()).unwrap_err();
    let c = codes(&e.diagnostics);
    assert_eq!(c.last().unwrap().0, "sgf.no-game");
    assert_eq!(c[0], ("sgf.text-before", 1, 1));
}

#[test]
fn missing_open_paren() {
    let r = read_sgf(";GM[1];B[aa])");
    assert_eq!(codes(&r.diagnostics)[0], ("sgf.missing-open", 1, 1));
    assert_eq!(r.collection.games[0].len(), 2);
}

#[test]
fn each_game_resolves_its_own_size() {
    let r = read_sgf("(;SZ[9];B[ii])(;B[ss])(;SZ[9:13];B[im])");
    let sizes: Vec<_> = r.collection.games.iter().map(|g| g.board_size()).collect();
    assert_eq!(sizes, [BoardSize::square(9), BoardSize::square(19), BoardSize { width: 9, height: 13 }]);
}

#[test]
fn game_info_accessors() {
    let r = read_sgf(
        "(;GM[1]PB[Lee Sedol]BR[9p]PW[AlphaGo]KM[7.5]HA[0]RE[W+R]DT[2016-03-09]RU[Chinese]TM[7200]OT[3x60 byo-yomi]EV[Match]PC[Seoul])",
    );
    let i = r.collection.games[0].info();
    assert_eq!(i.black.as_deref(), Some("Lee Sedol"));
    assert_eq!(i.black_rank.as_deref(), Some("9p"));
    assert_eq!(i.komi, Some(7.5));
    assert_eq!(i.handicap, Some(0));
    assert_eq!(i.result.unwrap().to_sgf(), "W+R");
    assert_eq!(i.date.as_deref(), Some("2016-03-09"));
    assert_eq!(i.rules.as_deref(), Some("Chinese"));
    assert_eq!(i.time, Some(7200.0));
    assert_eq!(i.overtime.as_deref(), Some("3x60 byo-yomi"));
    assert_eq!(i.event.as_deref(), Some("Match"));
    assert_eq!(i.place.as_deref(), Some("Seoul"));
}

#[test]
fn shift_jis_and_big5_trail_bytes_do_not_break_values() {
    // 申 = 90 5C in Shift_JIS; 因 = A6 5D in Big5.
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("(;CA[Shift_JIS]C[申し分ない];B[aa])");
    let r = Format::SGF.read(sjis.into_owned(), &ReadOptions::default()).unwrap();
    assert_eq!(r.collection.games[0].root().value("C"), Some("申し分ない"));
    assert_eq!(r.collection.games[0].len(), 2);
    let (big5, _, _) = encoding_rs::BIG5.encode("(;CA[Big5]C[因為];B[aa])");
    let r = Format::SGF.read(big5.into_owned(), &ReadOptions::default()).unwrap();
    assert_eq!(r.collection.games[0].root().value("C"), Some("因為"));
}

#[test]
fn redundant_paren() {
    let r = read_sgf("(;GM[1]((;B[aa])(;B[bb])))");
    assert_eq!(codes(&r.diagnostics), [("sgf.redundant-paren", 1, 9)]);
    let t = &r.collection.games[0];
    assert_eq!(t.child_count(NodeId::ROOT), 2);
    let r = read_sgf("((;GM[1]))");
    assert_eq!(codes(&r.diagnostics), [("sgf.redundant-paren", 1, 2)]);
    assert_eq!(r.collection.games[0].len(), 1);
}

#[test]
fn a_move_with_two_values_keeps_both() {
    let r = read_sgf("(;GM[1];B[aa] [bb];W[cc][dd]C[x])");
    let t = &r.collection.games[0];
    let b: Vec<_> = t.node(NodeId::from_index(1)).get("B").unwrap().values().map(|v| v.as_str()).collect();
    assert_eq!(b, ["aa", "bb"]);
    assert_eq!(t.node(NodeId::from_index(2)).get("W").unwrap().len(), 2);
    assert!(r.diagnostics.is_empty());
}

#[test]
fn games_declaring_different_charsets_are_each_decoded_with_their_own() {
    // An archive built by concatenating files from different servers.
    let mut bytes = encoding_rs::GBK.encode("(;CA[GB2312]PB[柯洁]C[围棋])\n").0.into_owned();
    bytes.extend_from_slice("(;CA[UTF-8]PB[이세돌])\n".as_bytes());
    bytes.extend_from_slice(&encoding_rs::SHIFT_JIS.encode("(;CA[Shift_JIS]PB[井山裕太]C[申し分ない])\n").0);
    let r = Format::SGF.read(bytes, &ReadOptions::default()).unwrap();
    let names: Vec<_> = r.collection.games.iter().map(|g| g.info().black.unwrap()).collect();
    assert_eq!(names, ["柯洁", "이세돌", "井山裕太"]);
    assert_eq!(r.collection.games[2].root().value("C"), Some("申し分ない"));
    let mixed: Vec<_> = r.diagnostics.iter().filter(|d| d.code == "charset.mixed").collect();
    assert_eq!(mixed.len(), 1, "{:?}", r.diagnostics);
    assert!(mixed[0].message.contains("GBK") && mixed[0].message.contains("Shift_JIS"), "{}", mixed[0].message);
    // The same games all in UTF-8 with agreeing declarations read as one part, quietly.
    let same = "(;CA[UTF-8]PB[柯洁])(;CA[utf-8]PB[이세돌])";
    assert!(Format::SGF.read(same.as_bytes().to_vec(), &ReadOptions::default()).unwrap().diagnostics.is_empty());
}
