//! UGF/UGI reader and writer: fixtures against expected SGF, round trips, issue points, and the
//! shared samples against `EXPECTED.tsv`.

use kifu::formats::{sgf, ugf};
use kifu::go::Board;
use kifu::model::{Collection, GameTree, TreeBuilder};
use kifu::{Diagnostic, ReadOptions, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ugf");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("ugf" | "ugi")))
        .collect();
    out.sort();
    out
}

fn read(bytes: &[u8]) -> (GameTree, Vec<Diagnostic>) {
    let out = kifu::Format::UGF.read(bytes.to_vec(), &ReadOptions::default()).expect("readable");
    (out.collection.games.into_iter().next().unwrap(), out.diagnostics)
}

fn read_text(text: &str) -> (GameTree, Vec<Diagnostic>) {
    read(text.as_bytes())
}

fn to_sgf(tree: &GameTree) -> String {
    sgf::write_text(&Collection::new(vec![tree.clone()]), &WriteOptions::default())
}

fn write(tree: &GameTree) -> (String, Vec<Diagnostic>) {
    let out = kifu::Format::UGF.write(&Collection::new(vec![tree.clone()]), &WriteOptions::default()).unwrap();
    (String::from_utf8(out.bytes).unwrap(), out.diagnostics)
}

fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|d| d.code).collect()
}

fn assert_legal(tree: &GameTree, what: &str) {
    let replay = Board::replay_main_line(tree);
    assert_eq!(replay.issues, [], "{what}: illegal moves");
    // Every variation too: replay each root-to-leaf path.
    for leaf in tree.nodes().filter(|n| tree.first_child(n.id()).is_none()) {
        let mut path = vec![leaf.id()];
        while let Some(p) = tree.parent(*path.last().unwrap()) {
            path.push(p);
        }
        path.reverse();
        assert_eq!(Board::replay(tree, &path).issues, [], "{what}: illegal moves in a variation");
    }
}

#[test]
fn fixtures_match_expected_sgf_and_replay_legally() {
    let files = fixtures();
    assert!(files.len() >= 4);
    for f in files {
        let (tree, _) = read(&std::fs::read(&f).unwrap());
        let expected_path = f.with_extension("expected.sgf");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| panic!("{expected_path:?}"));
        assert_eq!(to_sgf(&tree), expected, "{f:?}");
        assert_legal(&tree, &f.display().to_string());
    }
}

#[test]
fn fixture_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ugf");
    let (_, d) = read(&std::fs::read(dir.join("review.ugi")).unwrap());
    assert_eq!(codes(&d), ["ugf.skipped-section", "ugf.skipped-section", "ugf.unknown-section", "ugf.comment-target"]);
    assert_eq!(d[3].position.map(|p| p.line), Some(38));
    let (_, d) = read(&std::fs::read(dir.join("jpn_pass.ugf")).unwrap());
    assert_eq!(codes(&d), ["ugf.comment-line", "ugf.inferred-colour"]);
    assert_eq!(d[1].position.map(|p| p.line), Some(23), "lone CR line ends are counted");
    let out =
        kifu::Format::UGF.read(std::fs::read(dir.join("igs_sjis.ugf")).unwrap(), &ReadOptions::default()).unwrap();
    assert_eq!(codes(&out.diagnostics), Vec::<&str>::new());
    let charset = out.charset.unwrap();
    assert_eq!((charset.name(), charset.source.as_str()), ("Shift_JIS", "declared"));
}

#[test]
fn round_trip_ugf_model_ugf_model() {
    for f in fixtures() {
        let (m1, _) = read(&std::fs::read(&f).unwrap());
        let (u1, lossy) = write(&m1);
        let (m2, _) = read_text(&u1);
        let (u2, _) = write(&m2);
        assert_eq!(u2, u1, "{f:?}: the written UGF is a fixed point");
        if lossy.is_empty() {
            assert_eq!(to_sgf(&m2), to_sgf(&m1), "{f:?}");
        } else {
            // review.ugi: a label and a figure heading (the comment inside a variation is kept).
            assert_eq!(codes(&lossy), ["ugf.lossy-property", "ugf.lossy-property"], "{f:?}");
            assert_eq!(m2.main_line().count(), m1.main_line().count());
            assert_eq!(m2.len(), m1.len(), "{f:?}: same tree shape");
        }
    }
}

#[test]
fn ugf_to_sgf_to_ugf_keeps_private_values() {
    for f in fixtures() {
        let (m1, _) = read(&std::fs::read(&f).unwrap());
        let sgf_bytes = to_sgf(&m1).into_bytes();
        let via_sgf =
            kifu::Format::SGF.read(sgf_bytes, &ReadOptions::default().with_no_repair(true)).unwrap().collection;
        let direct = write(&m1).0;
        let out = kifu::Format::UGF.write(&via_sgf, &WriteOptions::default()).unwrap();
        assert_eq!(String::from_utf8(out.bytes).unwrap(), direct, "{f:?}");
    }
}

#[test]
fn round_trip_keeps_every_header_value_and_review_tree() {
    let text = "[Header]\nVer=REVIEW1,200\nLang=UTF8\nTitle=26th,Gosei,Title matches 5th game\nPlace=Tokyo\n\
Date=2019/03/08,22:09:00,2019/03/09,07:16:59\nRule=JPN\nSize=19\nHdcp=0,-5.50\nPtime=J;240;0;0,J;240;0;0,0,0\n\
Winner=N1,E\nCommentator=Someone\nPlayerB=A,Gosei,0,\nPlayerW=B,2k?,x,mail@x\nBMemb1=Team\nCoordinateType=IGS\n\
[Data]\nQP,B1,1,12\nDD,W1,2,0\n[ReviewNode]\nNODE,1,0,0,0\nNODE,2,1,17,16\nNODE,3,2,4,16\nNODE,2,1,4,4\nNODE,3,2,20,20\n\
[ReviewComment]\n.Comment,1\nroot\n.Comment,3\nsecond\n\nparagraph\n";
    let (m1, d) = read_text(text);
    assert_eq!(codes(&d), Vec::<&str>::new());
    let sgf = to_sgf(&m1);
    for want in ["RE[Void]", "AN[Someone]", "TM[14400]", "WR[2k?]", "BR[Gosei]", "KM[-5.5]", "C[root]", "(;B[dp];W[])"]
    {
        assert!(sgf.contains(want), "{want} in {sgf}");
    }
    let (u1, lossy) = write(&m1);
    assert_eq!(lossy, []);
    for line in [
        "Title=26th,Gosei,Title matches 5th game",
        "Winner=N1,E",
        "PlayerB=A,Gosei,0,",
        "BMemb1=Team",
        "Ver=REVIEW1,200",
    ] {
        assert!(u1.contains(&format!("{line}\r\n")), "{line} in {u1}");
    }
    let (m2, _) = read_text(&u1);
    assert_eq!(to_sgf(&m2), sgf);
}

#[test]
fn header_values_with_equals_and_commas_stay_intact() {
    let (t, _) = read_text("[Header]\nTitle=a=b,c\nComment=x=1, y=2\nCoordinateType=IGS\n[Data]\n");
    assert_eq!(t.root().value("EV"), Some("a=b c"));
    assert_eq!(t.root().value("GC"), Some("x=1, y=2"));
}

#[test]
fn rule_not_rules_and_keys_case_insensitive() {
    let (t, _) = read_text("[HEADER]\nRULE=CHN\nRules=AGA\nCoordinateType=IGS\n[DATA]\nQP,B1,1,0\n");
    assert_eq!(t.root().value("RU"), Some("CHN"));
    assert_eq!(t.root().get("XUGFHEADER").unwrap().first(), Some("Rules=AGA"));
    assert_eq!(t.main_line().nth(1).unwrap().value("B"), Some("qd"));
}

#[test]
fn igs_and_jpn_orientation() {
    let igs = read_text("[Header]\nCoordinateType=IGS\n[Data]\nQP,B1,1,0\n").0;
    let jpn = read_text("[Header]\nCoordinateType=JPN\n[Data]\nQP,B1,1,0\n").0;
    let buggy = read_text("[Header]\nCoordinateType=igsB,2.5\n[Data]\nQP,B1,1,0\n").0;
    let (none, d) = read_text("[Header]\n[Data]\nQP,B1,1,0\n");
    let first = |t: &GameTree| t.main_line().nth(1).unwrap().value("B").unwrap().to_string();
    assert_eq!(first(&igs), "qd");
    assert_eq!(first(&jpn), "qp");
    assert_eq!(first(&buggy), "qd");
    assert_eq!(first(&none), "qd");
    assert_eq!(codes(&d), ["ugf.coordinate-type"]);
}

#[test]
fn passes_setup_and_writer_quirks() {
    let (t, d) = read_text(
        "[Header]\nCoordinateType=IGS\nHdcp=3,0.50\n[Data]\nPD,B1,0,0\nDP,B1,0,0\nCC,W1,0,0\nQD,W1,1,0\nYA,B1,,0,0\nYZ,MK,3,0\nZZ,B1,4,0\nTT,W1,5,0\n .Text,0,999,advert\n",
    );
    let root = t.root();
    assert_eq!(root.get("AB").unwrap().values().map(|v| v.as_str()).collect::<Vec<_>>(), ["pp", "dd"]);
    assert_eq!(root.value("AW"), Some("cq"));
    assert_eq!(root.value("HA"), Some("3"));
    let moves: Vec<String> = t.main_line().skip(1).map(|n| format!("{:?}", n.mv())).collect();
    assert_eq!(moves.len(), 5);
    let sgf = to_sgf(&t);
    assert!(sgf.contains(";W[qp];B[];W[];B[];W[]"), "{sgf}");
    assert_eq!(
        codes(&d),
        ["ugf.extra-field", "ugf.move-number", "ugf.inferred-colour", "ugf.bad-line", "ugf.handicap-mismatch"]
    );
}

#[test]
fn late_setup_and_bad_lines_are_reported() {
    let (t, d) = read_text("[Header]\nCoordinateType=JPN\n[Data]\nAA,B1,1,0\nBB,W1,0,0\nnonsense\n");
    // In a node of its own after the move (SGF has no node holding both).
    assert_eq!(t.main_line().nth(1).unwrap().value("AW"), None);
    assert_eq!(t.main_line().nth(2).unwrap().value("AW"), Some("bb"));
    assert_eq!(codes(&d), ["ugf.late-setup", "ugf.bad-line"]);
}

#[test]
fn comment_section_and_figures_are_kept() {
    let (t, d) = read_text(
        "[Header]\nCoordinateType=JPN\nSize=9\n[Data]\nCC,B1,1,0\nGG,W1,2,0\n[Figure]\n.Text,1\nNice.\n.#,3,3,A\n.EndText\n\
.Fig,2,1,1,9,9,Ref 1,1,0\nCC,B1,0,0\nCG,W1,2,0\nGC,B1,3,0\n.EndFig\n[Comment]\nfree text\n[ twice ]\n[End]\n\n",
    );
    assert_eq!(codes(&d), ["ugf.figure-setup"]);
    assert_eq!(
        to_sgf(&t),
        "(;FF[4]CA[UTF-8]GM[1]SZ[9]XUGFCOMMENT[free text\n[ twice \\]]\n;B[cc]C[Nice.]LB[cc:A]\n(;W[gg])\n(;W[cg]N[Ref 1];B[gc]))\n"
    );
    let (u, _) = write(&t);
    assert!(u.ends_with("[Comment]\r\nfree text\r\n[ twice ]\r\n"), "{u}");
    assert!(!u.contains("Size=\r\n"));
    let (_, d) = read_text("[Header]\nCoordinateType=JPN\n[End]\nmore\n");
    assert_eq!(codes(&d), ["ugf.after-end"]);
}

#[test]
fn review_node_gaps_are_reported() {
    let (t, d) =
        read_text("[Header]\nCoordinateType=IGS\nSize=9\n[ReviewNode]\nNODE,1,0,0,0\nNODE,5,1,1,1\nNODE,6,2,9,9\n");
    assert_eq!(codes(&d), ["ugf.node-gap"]);
    assert_eq!(to_sgf(&t), "(;FF[4]CA[UTF-8]GM[1]SZ[9]\n;B[ai];W[ia])\n");
}

#[test]
fn encrypted_files_are_a_clear_error() {
    let err = kifu::Format::UGF
        .read(b"[Header]\nCRYPT=9666\n[Data]\nQP,B1,1,0\n".to_vec(), &ReadOptions::default())
        .unwrap_err();
    assert_eq!(codes(&err.diagnostics), ["ugf.encrypted"]);
    assert!(err.to_string().contains("encrypted"), "{err}");
    let ok = kifu::Format::UGF.read(b"[Header]\nCrypt=0,PLAIN_UGF_FILE,READ_WRITE\n".to_vec(), &ReadOptions::default());
    assert!(ok.is_ok());
    let none = kifu::Format::UGF.read(b"Ver=UGF3\n".to_vec(), &ReadOptions::default()).unwrap_err();
    assert_eq!(codes(&none.diagnostics), ["ugf.bad-line", "ugf.no-game"]);
}

#[test]
fn shift_jis_generated_by_the_test_and_utf8_override() {
    let text = "[Header]\r\nLang=SJIS\r\nPlayerB=本因坊秀策,本因坊,,\r\nPlayerW=ﾃｽﾄ髙,3段,,\r\nCoordinateType=IGS\r\n[Data]\r\nQP,B1,1,0\r\n";
    let (bytes, unmappable) = kifu::charset::encode(text, encoding_rs::SHIFT_JIS);
    assert_eq!(unmappable, 0);
    assert!(std::str::from_utf8(&bytes).is_err());
    let out = kifu::Format::UGF.read(bytes, &ReadOptions::default()).unwrap();
    assert_eq!(out.charset.unwrap().name(), "Shift_JIS");
    let root = out.collection.games[0].root();
    assert_eq!(root.value("PB"), Some("本因坊秀策"));
    assert_eq!(root.value("PW"), Some("ﾃｽﾄ髙"));
    assert_eq!(root.value("WR"), Some("3d"));
    // The CP932 extension pair FB FC (髙) decodes.
    let cp932 = b"[Header]\nLang=SJIS\nPlayerB=\xfb\xfc,,,\n".to_vec();
    let out = kifu::Format::UGF.read(cp932, &ReadOptions::default()).unwrap();
    assert_eq!(out.collection.games[0].root().value("PB"), Some("髙"));
    // Lang=SJIS over valid UTF-8: UTF-8 wins.
    let out = kifu::Format::UGF
        .read("[Header]\nLang=SJIS\nPlayerB=山田,,,\nCoordinateType=IGS\n".as_bytes().to_vec(), &ReadOptions::default())
        .unwrap();
    assert_eq!(out.charset.unwrap().name(), "UTF-8");
    assert_eq!(out.collection.games[0].root().value("PB"), Some("山田"));
    assert_eq!(codes(&out.diagnostics), ["charset.mismatch"]);
}

#[test]
fn every_winner_form_reads() {
    for (w, re) in [
        ("B,7.50", Some("B+7.5")),
        ("W,C", Some("W+R")),
        ("B,F", Some("B+F")),
        ("B,T", Some("B+T")),
        ("D", Some("0")),
        ("N1,E", Some("Void")),
        ("N", Some("Void")),
        ("O", Some("Void")),
        ("E", Some("?")),
        ("A", None),
        ("P", None),
    ] {
        let (t, d) = read_text(&format!("[Header]\nCoordinateType=IGS\nWinner={w}\n"));
        assert_eq!(t.root().value("RE"), re, "{w}");
        assert_eq!(d, []);
        let (u, lossy) = write(&t);
        assert!(u.contains(&format!("Winner={w}\r\n")), "{w}: {u}");
        assert_eq!(lossy, []);
    }
    let (t, d) = read_text("[Header]\nCoordinateType=IGS\nWinner=Q,7\n");
    assert_eq!(t.root().value("RE"), None);
    assert_eq!(codes(&d), ["ugf.bad-value"]);
}

#[test]
fn writer_sgf_to_ugf() {
    let sgf_text = "(;GM[1]FF[4]SZ[19]PB[黒]PW[白]BR[3d]KM[6.5]HA[2]RE[W+Resign]DT[2020-01-02]AB[dp][pd]LB[aa:x]\
;W[qp]C[first];B[]TR[aa](;W[dd];AB[cc]B[ee])(;W[ee]C[var]))(;GM[1])";
    let coll = kifu::Format::SGF
        .read(sgf_text.as_bytes().to_vec(), &ReadOptions::default().with_no_repair(true))
        .unwrap()
        .collection;
    let opts = WriteOptions::default().with_encoding(Some(encoding_rs::SHIFT_JIS));
    let out = kifu::Format::UGF.write(&coll, &opts).unwrap();
    let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(&out.bytes);
    assert!(!bad);
    for line in [
        "Lang=SJIS",
        "CoordinateType=IGS",
        "PlayerB=黒,3d,,",
        "Hdcp=2,6.50",
        "Winner=W,C",
        "Date=2020/01/02,,2020/01/02,",
        "Moves=4",
        "DD,B1,0,0",
        "PP,B1,0,0",
        "QD,W1,1,0",
        "YA,B1,2,0",
        "DP,W1,3,0",
        "EO,B1,4,0",
        "NODE,3,1,20,20",
        "  VARIATION,",
        "  NODE,6,2,5,15",
        "  VARIATIONEND,",
        "NODE,4,2,4,16",
        "NODE,5,1,5,15",
        ".Comment,2",
        ".Comment,6",
    ] {
        assert!(text.contains(&format!("{line}\r\n")), "{line} in {text}");
    }
    assert_eq!(
        codes(&out.diagnostics),
        ["ugf.lossy-games", "ugf.lossy-setup", "ugf.lossy-property", "ugf.lossy-property"]
    );
    assert!(out.diagnostics[2].message.starts_with("LB"), "{:?}", out.diagnostics);
    assert!(out.diagnostics[3].message.starts_with("TR"));
    // And it reads back: main line, handicap, variation.
    let (t, _) = read(text.as_bytes());
    assert_eq!(t.root().get("AB").unwrap().len(), 2);
    assert_eq!(t.main_line().count(), 5);
    assert!(t.has_variations());
    assert_eq!(t.main_line().nth(1).unwrap().value("C"), Some("first"));
}

#[test]
fn writer_rejects_what_ugf_cannot_hold() {
    let mut b = TreeBuilder::new();
    let r = b.root();
    b.add_prop(r, "SZ", ["9:13"]);
    assert!(kifu::Format::UGF.write(&Collection::new(vec![b.build()]), &WriteOptions::default()).is_err());
    assert!(kifu::Format::UGF.write(&Collection::default(), &WriteOptions::default()).is_err());
    let mut b = TreeBuilder::new();
    let r = b.root();
    b.add_prop(r, "RE", ["Black won by a lot"]);
    b.add_prop(r, "EV", ["a,b"]);
    let (_, d) = write(&b.build());
    assert_eq!(codes(&d), ["ugf.lossy-info", "ugf.lossy-info"]);
    let mut b = TreeBuilder::new();
    let n1 = b.add_child(b.root());
    b.add_prop(n1, "B", ["zz"]);
    let n2 = b.add_child(n1);
    b.add_prop(n2, "W", ["what"]);
    let (u, d) = write(&b.build());
    assert!(u.contains("YA,B1,1,0\r\n"), "{u}");
    assert_eq!(codes(&d), ["ugf.lossy-move", "ugf.lossy-move"]);
}

#[test]
fn registry_knows_ugf_and_ugi() {
    use kifu::Format;
    let f = Format::from_name("ugi").unwrap();
    assert_eq!(f.name(), "ugf");
    assert_eq!(Format::from_extension("UGI"), Some(f));
    assert_eq!(Format::sniff(b"[Header]\r\nVer=UGF3,200\r\n"), Some(f));
}

// ---- The shared samples, against EXPECTED.tsv ----------------------------------------------

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.join("samples/ugf").is_dir() {
        Some(p)
    } else {
        eprintln!("note: ../shared/samples/ugf is absent; UGF sample tests skipped");
        None
    }
}

fn value_of(t: &GameTree, id: &str) -> String {
    t.root()
        .get(id)
        .map(|p| p.values().map(|v| v.as_str().to_string()).collect::<Vec<_>>().join(","))
        .unwrap_or_default()
}

fn actual(t: &GameTree, key: &str, bytes: &[u8], charset: &str) -> Option<String> {
    let moves: Vec<String> =
        t.main_line().filter_map(|n| ["B", "W"].iter().find_map(|c| n.value(c).map(|v| format!("{c}[{v}]")))).collect();
    Some(match key {
        "SZ" | "PB" | "BR" | "PW" | "WR" | "KM" | "HA" | "AB" | "PL" | "RE" | "DT" => value_of(t, key),
        "MOVES" => moves.len().to_string(),
        "PASSES" => moves.iter().filter(|m| m.ends_with("[]")).count().to_string(),
        "FIRST3" => moves.iter().take(3).cloned().collect::<Vec<_>>().join(";"),
        "LAST" => moves.last().cloned().unwrap_or_default(),
        "LEGAL" => if Board::replay_main_line(t).issues.is_empty() { "yes" } else { "no" }.into(),
        "CHARSET" => {
            if bytes.is_ascii() {
                "ASCII".into()
            } else {
                charset.into()
            }
        }
        "COMMENTS" => t.nodes().filter(|n| n.get("C").is_some()).count().to_string(),
        "VARIATIONS" => t.nodes().map(|n| t.child_count(n.id()).saturating_sub(1)).sum::<usize>().to_string(),
        _ => return None,
    })
}

#[test]
fn shared_samples_match_expected_tsv() {
    let Some(shared) = shared() else { return };
    let tsv = std::fs::read_to_string(shared.join("samples/EXPECTED.tsv")).unwrap_or_default();
    let mut checked = 0;
    let mut files = std::collections::BTreeSet::new();
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (Some(file), Some(key), Some(want)) = (cols.first(), cols.get(1), cols.get(2)) else { continue };
        if !file.starts_with("ugf/") {
            continue;
        }
        let bytes = std::fs::read(shared.join("samples").join(file)).unwrap();
        let out = kifu::Format::UGF.read(bytes.clone(), &ReadOptions::default()).unwrap();
        let t = &out.collection.games[0];
        let got = actual(t, key, &bytes, out.charset.unwrap().name()).unwrap_or_else(|| panic!("unknown key {key}"));
        assert_eq!(got, *want, "{file} {key}");
        checked += 1;
        files.insert(file.to_string());
    }
    eprintln!("checked {checked} EXPECTED.tsv values over {} UGF samples", files.len());
}

#[test]
fn every_shared_sample_reads_replays_and_round_trips() {
    let Some(shared) = shared() else { return };
    for e in std::fs::read_dir(shared.join("samples/ugf")).unwrap() {
        let path = e.unwrap().path();
        let (t, d) = read(&std::fs::read(&path).unwrap());
        assert!(d.iter().all(|d| d.severity != kifu::Severity::Error), "{path:?}: {d:?}");
        assert_legal(&t, &path.display().to_string());
        let (u, lossy) = write(&t);
        assert_eq!(lossy, [], "{path:?}");
        let (t2, _) = read_text(&u);
        assert_eq!(to_sgf(&t2), to_sgf(&t), "{path:?}");
    }
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    const TOKENS: &[&str] = &[
        "[Header]\n",
        "[Data]\n",
        "[ReviewNode]\n",
        "[ReviewComment]\n",
        "[Figure]\n",
        "[Comment]\n",
        "[End]\n",
        "[X]\n",
        "Size=",
        "Hdcp=",
        "Winner=",
        "CoordinateType=",
        "PlayerB=",
        "Crypt=",
        "Date=",
        "NODE,",
        ".Comment,",
        ".Text,",
        ".EndText\n",
        ".Fig,",
        ".EndFig\n",
        ".#,",
        "QP,B1,",
        "YZ,MK,",
        "ZZ",
        "0",
        "1",
        "2",
        "19",
        "25",
        "255",
        "-",
        ",",
        ";",
        "=",
        "\n",
        "\r",
        "\r\n",
        "#",
        " ",
        "あ",
        "\u{FFFD}",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn reader_and_writer_never_panic(picks in proptest::collection::vec(0..TOKENS.len(), 0..120)) {
            let text: String = picks.iter().map(|&i| TOKENS[i]).collect();
            if let Ok(out) = kifu::Format::UGF.read(text.into_bytes(), &ReadOptions::default()) {
                if let Ok(w) = kifu::Format::UGF.write(&out.collection, &WriteOptions::default()) {
                    let again = kifu::Format::UGF.read(w.bytes, &ReadOptions::default());
                    prop_assert!(again.is_ok());
                }
            }
        }
    }
}

/// A UGF cut in the middle of a `[Data]` line (or of its header) is an error at the place the
/// input ends, naming the last line read, as severe as a truncated SGF; the moves read are kept.
#[test]
fn truncated_ugf_is_an_error_at_its_end() {
    let whole = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ugf/handicap.ugf")).unwrap();
    let text = String::from_utf8_lossy(&whole).into_owned();
    let sgf_cut = kifu::Format::SGF.read(b"(;GM[1];B[pd];W[d".to_vec(), &ReadOptions::default()).unwrap();
    let sgf_severity = sgf_cut.diagnostics.iter().find(|d| d.code == "sgf.missing-close").unwrap().severity;
    // Inside `CF,W2,3,12`.
    let cut = text.find("CF,W2").unwrap() + 4;
    let (tree, diags) = read(&whole[..cut]);
    let d = diags.iter().find(|d| d.code == ugf::codes::TRUNCATED).expect("ugf.truncated");
    assert_eq!(d.severity, sgf_severity);
    assert_eq!(d.severity, kifu::Severity::Error);
    assert_eq!(d.position.map(|p| p.line), Some(text[..cut].lines().count() as u32), "{d}");
    assert!(d.message.contains("'CF,W'") && d.message.contains("'DQ,B2,2,11'"), "{d}");
    assert!(tree.main_line_moves() >= 1, "the moves read are kept");
    assert!(read(&whole).1.iter().all(|d| d.code != ugf::codes::TRUNCATED));
    let (_, diags) = read(&whole[..text.find("Size").unwrap() + 2]);
    assert!(diags.iter().any(|d| d.code == ugf::codes::TRUNCATED && d.message.contains("[Header]")), "{diags:?}");
}
