//! GIB integration tests: the project's fixtures against their expected SGF, round trips,
//! generated files (every handicap, every result code, EUC-KR and GBK), the writer's lossy
//! reports, and the real samples in ../shared against EXPECTED.tsv.

use kifu::formats::gib::codes;
use kifu::go::Board;
use kifu::go::handicap::tygem_layout;
use kifu::model::{BoardSize, Color, Move};
use kifu::{Format, GameTree, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};

fn gib() -> Format {
    Format::from_name("gib").expect("gib is registered")
}

fn read_gib(bytes: Vec<u8>) -> kifu::ReadOutput {
    gib().read(bytes, &ReadOptions::default()).expect("readable GIB")
}

fn sgf_text(tree: &GameTree) -> String {
    let out = Format::SGF.write(&kifu::Collection::new(vec![tree.clone()]), &WriteOptions::default()).unwrap();
    String::from_utf8(out.bytes).unwrap()
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "gib")
                && !p.file_name().is_some_and(|n| n.to_string_lossy().contains(".expected."))
        })
        .collect();
    v.sort();
    v
}

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("note: ../shared is absent; skipping the tests over the real samples");
        None
    }
}

/// GIB → model → GIB → model: equal trees.
fn assert_round_trip(bytes: Vec<u8>, what: &str) {
    let first = read_gib(bytes).collection;
    let written = gib().write(&first, &WriteOptions::default()).unwrap();
    let text = String::from_utf8(written.bytes.clone()).expect("UTF-8 output");
    assert!(text.contains("\\[GIBOKIND=Global\\]\r\n"), "{what}");
    assert!(!text.replace("\r\n", "").contains('\n'), "{what}: CRLF only");
    let second = read_gib(written.bytes).collection;
    assert_eq!(first, second, "{what}");
}

fn replay_is_legal(tree: &GameTree, what: &str) {
    let replay = Board::replay_main_line(tree);
    assert!(replay.issues.is_empty(), "{what}: {:?}", replay.issues);
}

#[test]
fn fixtures_match_their_expected_sgf() {
    let all = fixtures();
    assert!(all.len() >= 5);
    for path in all {
        let out = read_gib(std::fs::read(&path).unwrap());
        let expected = std::fs::read_to_string(path.with_extension("expected.sgf")).unwrap();
        assert_eq!(sgf_text(&out.collection.games[0]), expected, "{}", path.display());
        replay_is_legal(&out.collection.games[0], &path.display().to_string());
    }
}

#[test]
fn fixtures_round_trip() {
    for path in fixtures() {
        assert_round_trip(std::fs::read(&path).unwrap(), &path.display().to_string());
    }
}

#[test]
fn gib_to_sgf_to_gib_keeps_private_values() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib/even-passes.gib");
    let original = std::fs::read(&path).unwrap();
    let game = read_gib(original.clone()).collection;
    let sgf = Format::SGF.write(&game, &WriteOptions::default()).unwrap().bytes;
    let back = Format::SGF.read(sgf, &ReadOptions::default()).unwrap().collection;
    let written = gib().write(&back, &WriteOptions::default()).unwrap();
    assert!(written.diagnostics.is_empty(), "{:?}", written.diagnostics);
    assert_eq!(read_gib(written.bytes.clone()).collection, game);
    // Tygem's own layout comes back line for line; only the optional space before "(4D)" differs.
    let original = String::from_utf8(original).unwrap().replace("stonecat(4D)", "stonecat (4D)");
    assert_eq!(String::from_utf8(written.bytes).unwrap(), original);
}

#[test]
fn fixture_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    let tw = read_gib(std::fs::read(dir.join("taiwan-two-line.gib")).unwrap());
    let codes: Vec<_> = tw.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["charset.mismatch", codes::MULTILINE_VALUE]);
    assert_eq!(tw.diagnostics[1].position.map(|p| p.line), Some(5));
    let ko = read_gib(std::fs::read(dir.join("korean-euc-kr.gib")).unwrap());
    assert_eq!(ko.charset.unwrap().name(), "EUC-KR");
    assert!(ko.diagnostics.is_empty(), "{:?}", ko.diagnostics);
    let cn = read_gib(std::fs::read(dir.join("handicap5-gbk.gib")).unwrap());
    assert_eq!(cn.charset.unwrap().name(), "gb18030");
}

const TEMPLATE: &str = "\\HS\n\\[GIBOKIND=@KIND@\\]\n\\[GAMEBLACKNAME=@BLACK@\\]\n\\[GAMEWHITENAME=@WHITE@\\]\n\\[GAMEINFOMAIN=GBKIND:3,GTYPE:0,GCDT:@HA@,GTIME:600-30-3,GRLT:@CODE@,ZIPSU:@ZIPSU@,DUM:0,GONGJE:65,TCNT:4,AUSZ:0\\]\n\\[GAMETAG=S0,R@HA@,D0,G65,W@CODE@,Z@ZIPSU@,T30-3-600,C2022:02:02:02:02,I:a,L:18,M:b,N:18\\]\n\\HE\n\\GS\n2 1 0\n5 0 &4\nINI 0 1 @HA@ &4\nSTO 0 2 @FIRST@ 2 9 \nSTO 0 3 @SECOND@ 9 2 \nSTO 0 4 @FIRST@ 16 9 \nSKI 0 5 \n\\GE\n";

fn game(kind: &str, black: &str, white: &str, ha: u32, code: &str, zipsu: &str) -> String {
    let (first, second) = if ha >= 2 { ("2", "1") } else { ("1", "2") };
    TEMPLATE
        .replace("@KIND@", kind)
        .replace("@BLACK@", black)
        .replace("@WHITE@", white)
        .replace("@HA@", &ha.to_string())
        .replace("@CODE@", code)
        .replace("@ZIPSU@", zipsu)
        .replace("@FIRST@", first)
        .replace("@SECOND@", second)
}

#[test]
fn every_handicap_from_two_to_nine() {
    for ha in 2..=9u32 {
        let text = game("Global", "b (1K)", "w (1D)", ha, "255", "0");
        let out = read_gib(text.clone().into_bytes());
        let t = &out.collection.games[0];
        let want: Vec<String> =
            tygem_layout(BoardSize::square(19), ha).unwrap().iter().map(|p| p.to_sgf().unwrap()).collect();
        let ab: Vec<String> = t.root().get("AB").unwrap().values().map(|v| v.as_str().to_string()).collect();
        assert_eq!(ab, want, "HA {ha}");
        assert_eq!(t.root().value("HA"), Some(ha.to_string().as_str()));
        let first = t.main_line().nth(1).unwrap().mv().unwrap();
        assert_eq!(first.0, Color::White, "White moves first with HA {ha}");
        // The pass after White, Black, White is Black's.
        assert_eq!(t.main_line().nth(4).unwrap().mv(), Some((Color::Black, Move::Pass)));
        replay_is_legal(t, &format!("HA {ha}"));
        assert_round_trip(text.into_bytes(), &format!("HA {ha}"));
    }
}

#[test]
fn every_result_code() {
    for (code, zipsu, want) in [
        ("0", "45", Some("B+4.5")),
        ("0", "40", Some("B+4")),
        ("1", "110", Some("W+11")),
        ("3", "0", Some("B+R")),
        ("4", "0", Some("W+R")),
        ("5", "0", Some("B+F")),
        ("6", "0", Some("W+F")),
        ("7", "0", Some("B+T")),
        ("8", "0", Some("W+T")),
        ("255", "0", None),
    ] {
        let text = game("Global", "b", "w", 0, code, zipsu);
        let out = read_gib(text.clone().into_bytes());
        assert_eq!(out.collection.games[0].root().value("RE"), want, "GRLT {code}");
        assert_round_trip(text.into_bytes(), &format!("GRLT {code}"));
        // The writer puts the code back.
        let w = gib().write(&out.collection, &WriteOptions::default()).unwrap();
        let s = String::from_utf8(w.bytes).unwrap();
        assert!(s.contains(&format!("GRLT:{code},ZIPSU:{zipsu},")), "{s}");
    }
}

#[test]
fn euc_kr_and_gbk_files_generated_here() {
    for (kind, enc, black, white, rank, kyu) in [
        ("Korea", encoding_rs::EUC_KR, "흑돌사랑", "백호 기사", "3단", "2급"),
        ("China", encoding_rs::GBK, "石下之客", "白云 棋手", "3段", "2级"),
    ] {
        let text = game(kind, &format!("{black}({rank})"), &format!("{white} ({kyu})"), 0, "3", "0");
        let (bytes, _, bad) = enc.encode(&text);
        assert!(!bad);
        // Declared; declared wrongly (Global = UTF-8); and with no GIBOKIND (detection).
        let wrong = enc.encode(&text.replace(&format!("GIBOKIND={kind}"), "GIBOKIND=Global")).0.to_vec();
        let absent = enc.encode(&text.replace(&format!("\\[GIBOKIND={kind}\\]\n"), "")).0.to_vec();
        for bytes in [bytes.to_vec(), wrong, absent] {
            let out = read_gib(bytes);
            let root = out.collection.games[0].root();
            assert_eq!(root.value("PB"), Some(black), "{kind}");
            assert_eq!(root.value("BR"), Some("3d"), "{kind}");
            assert_eq!(root.value("PW"), Some(white), "{kind}");
            assert_eq!(root.value("WR"), Some("2k"), "{kind}");
        }
    }
}

#[test]
fn writer_can_write_a_legacy_flavour() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib/korean-euc-kr.gib");
    let game = read_gib(std::fs::read(path).unwrap()).collection;
    let w = gib().write(&game, &WriteOptions::default().with_encoding(Some(encoding_rs::EUC_KR))).unwrap();
    let back = read_gib(w.bytes.clone());
    assert_eq!(back.charset.unwrap().name(), "EUC-KR");
    assert!(w.bytes.starts_with(b"\\HS\r\n\\[GIBOKIND=Korea\\]\r\n"));
    assert_eq!(back.collection, game);
}

fn sgf(text: &str) -> kifu::Collection {
    Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection
}

#[test]
fn writer_reports_every_lossy_item_with_its_node() {
    let c = sgf(
        "(;GM[1]SZ[19]PB[Ann]BR[2k]PW[Bob]WR[3d]KM[6.5]RE[W+0.25]EV[Cup]AW[aa]\n;B[pd]C[hi]TR[dd][ee]\n(;W[dp]N[x];W[])(;W[qq]))",
    );
    let mut w = gib().write(&c, &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    w.diagnostics.retain(|d| d.severity != Severity::Info);
    let got: Vec<(&str, String)> = w.diagnostics.iter().map(|d| (d.code, d.message.clone())).collect();
    assert!(w.diagnostics.iter().all(|d| d.severity == Severity::Warning), "{got:?}");
    let codes: Vec<&str> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        codes,
        [
            codes::LOSSY_VARIATION,
            codes::LOSSY_PROPERTY,
            codes::LOSSY_SETUP,
            codes::LOSSY_COMMENT,
            codes::LOSSY_MARKUP,
            codes::LOSSY_PROPERTY,
            codes::LOSSY_PASS_COLOUR,
            codes::LOSSY_RESULT,
        ],
        "{got:?}"
    );
    assert!(got[0].1.starts_with("node 4: variation after move 1"), "{}", got[0].1);
    assert!(got[1].1.starts_with("root node: property EV"), "{}", got[1].1);
    assert!(got[3].1.starts_with("node 1 (move 1): comment C"), "{}", got[3].1);
    assert!(got[4].1.contains("markup TR (2 value(s))"), "{}", got[4].1);
    assert!(got[5].1.starts_with("node 2 (move 2): property N"), "{}", got[5].1);
    assert!(got[6].1.starts_with("node 3 (move 3)"), "{}", got[6].1);
    let text = String::from_utf8(w.bytes).unwrap();
    assert!(text.contains("\\[GAMEBLACKNAME=Ann (2K)\\]\r\n\\[GAMEBLACKLEVEL=16\\]"), "{text}");
    assert!(text.contains("GRLT:1,ZIPSU:3,"), "{text}");
    assert!(text.ends_with("STO 0 2 1 15 3 \r\nSTO 0 3 2 3 15 \r\nSKI 0 4 \r\n\\GE\r\n"), "{text}");
}

#[test]
fn writer_checks_the_handicap_layout_and_board_size() {
    let good = sgf("(;SZ[19]HA[3]AB[dd][pd][dp];W[pp])");
    let mut w = gib().write(&good, &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    w.diagnostics.retain(|d| d.severity != Severity::Info);
    assert!(w.diagnostics.is_empty(), "{:?}", w.diagnostics);
    assert!(String::from_utf8(w.bytes).unwrap().contains("INI 0 1 3 &4 \r\nSTO 0 2 2 15 15 "));
    let japanese = sgf("(;SZ[19]HA[3]AB[pd][dp][pp];W[dd])");
    let mut w = gib().write(&japanese, &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    w.diagnostics.retain(|d| d.severity != Severity::Info);
    assert_eq!(w.diagnostics[0].code, codes::HANDICAP_LAYOUT);
    assert!(w.diagnostics[0].message.contains("readers will place pd,dp,dd"), "{}", w.diagnostics[0].message);
    let mut pl = gib().write(&sgf("(;PL[W];W[pd])"), &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    pl.diagnostics.retain(|d| d.severity != Severity::Info);
    assert_eq!(pl.diagnostics[0].code, codes::LOSSY_PROPERTY);
    assert!(pl.diagnostics[0].message.starts_with("root node: PL[W]"), "{}", pl.diagnostics[0].message);
    let small = sgf("(;SZ[9];B[ee];W[ii])");
    let mut w = gib().write(&small, &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    w.diagnostics.retain(|d| d.severity != Severity::Info);
    assert_eq!(w.diagnostics[0].code, codes::LOSSY_BOARD_SIZE);
    let big = sgf("(;SZ[21];B[tt];W[aa])");
    let mut w = gib().write(&big, &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    w.diagnostics.retain(|d| d.severity != Severity::Info);
    let codes: Vec<_> = w.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [codes::LOSSY_BOARD_SIZE, codes::LOSSY_BOARD_SIZE]);
    assert!(w.diagnostics[1].message.starts_with("node 1 (move 1): B[tt]"), "{}", w.diagnostics[1].message);
}

/// The values EXPECTED.tsv lists for one game.
fn actual(key: &str, out: &kifu::ReadOutput, bytes: &[u8]) -> String {
    let t = &out.collection.games[0];
    let root = t.root();
    let moves: Vec<(Color, Move)> = t.main_line().filter_map(|n| n.mv()).collect();
    let show = |(c, m): &(Color, Move)| format!("{}[{}]", c.as_sgf(), m.to_sgf().unwrap_or_default());
    match key {
        "AB" => {
            let mut v: Vec<String> =
                root.get("AB").map(|p| p.values().map(|v| v.as_str().to_string()).collect()).unwrap_or_default();
            v.sort();
            v.join(",")
        }
        "MOVES" => moves.len().to_string(),
        "PASSES" => moves.iter().filter(|m| m.1 == Move::Pass).count().to_string(),
        "FIRST3" => moves.iter().take(3).map(show).collect::<Vec<_>>().join(";"),
        "LAST" => moves.last().map(show).unwrap_or_default(),
        "LEGAL" => if Board::replay_main_line(t).issues.is_empty() { "yes" } else { "no" }.to_string(),
        "CHARSET" => {
            let name = out.charset.unwrap().name();
            match name {
                "UTF-8" if bytes.is_ascii() => "ASCII".into(),
                "gb18030" | "GBK" => "GB2312".into(),
                n => n.to_string(),
            }
        }
        k => root.value(k).unwrap_or("").to_string(),
    }
}

fn check_expected(shared: &Path, sample: &str, path: &Path) -> usize {
    let tsv = std::fs::read_to_string(shared.join("samples/EXPECTED.tsv")).unwrap();
    let bytes = std::fs::read(path).unwrap();
    let out = read_gib(bytes.clone());
    let mut checked = 0;
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 3 || cols[0] != sample {
            continue;
        }
        assert_eq!(actual(cols[1], &out, &bytes), cols[2], "{sample} {}", cols[1]);
        checked += 1;
    }
    checked
}

#[test]
fn real_samples_match_expected_tsv() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("samples/gib");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 8);
    let mut rows = 0;
    for path in &files {
        let name = format!("gib/{}", path.file_name().unwrap().to_str().unwrap());
        let n = check_expected(&shared, &name, path);
        assert!(n >= 17, "{name}: only {n} EXPECTED rows");
        rows += n;
        let out = read_gib(std::fs::read(path).unwrap());
        replay_is_legal(&out.collection.games[0], &name);
        assert!(out.diagnostics.iter().all(|d| d.severity < Severity::Error), "{name}: {:?}", out.diagnostics);
        assert_round_trip(std::fs::read(path).unwrap(), &name);
    }
    assert!(rows >= 136, "{rows} rows checked");
    // KaTrain's own copy of test.gib, against the same rows.
    let katrain = shared.join("sgf-tests/katrain/test.gib");
    if katrain.is_file() {
        assert!(check_expected(&shared, "gib/sanderland__katrain__test.gib", &katrain) >= 17);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any text, and any damage to a real-looking file, reads without a panic, and whatever is
    /// read writes back as GIB without a panic.
    #[test]
    fn never_panics(noise in ".{0,200}", cut in 0usize..1500, insert in "[\\\\\\[\\]=:, 0-9A-Z\n\r-]{0,40}") {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib/even-passes.gib");
        let base = std::fs::read_to_string(path).unwrap();
        let mut at = cut.min(base.len());
        while !base.is_char_boundary(at) {
            at -= 1;
        }
        let damaged = format!("{}{insert}{}", &base[..at], &base[at..]);
        let fields = format!(
            "\\HS\n\\[GAMEINFOMAIN={noise}\\]\n\\[GAMETAG={insert}{noise}\\]\n\\[GAMEBLACKNAME={noise}\\]\n\\[GAMEDATE={noise}\\]\n\\GS\nINI 0 1 {cut}\nSTO 0 2 {insert}\n"
        );
        for text in [noise.clone(), damaged, format!("\\HS\n{noise}\n\\GS\n{insert}"), fields] {
            if let Ok(out) = gib().read(text.into_bytes(), &ReadOptions::default()) {
                let _ = gib().write(&out.collection, &WriteOptions::default()).unwrap();
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any game-info values write as GIB without a panic, and the GIB reads back.
    #[test]
    fn writer_never_panics(v in proptest::collection::vec("[^\\]\\\\]{0,12}", 8)) {
        let text = format!(
            "(;SZ[{}]KM[{}]HA[{}]RE[{}]TM[{}]OT[{}]DT[{}]PB[{}]AB[dd][pp];B[pd];W[])",
            v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
        );
        if let Ok(read) = Format::SGF.read(text.into_bytes(), &ReadOptions::default()) {
            let w = gib().write(&read.collection, &WriteOptions::default()).unwrap();
            gib().read(w.bytes, &ReadOptions::default()).unwrap();
        }
    }
}

#[test]
fn sgf_game_writes_tygem_header_and_reads_back() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    let input = Format::SGF.read(std::fs::read(dir.join("writer-input.sgf")).unwrap(), &ReadOptions::default());
    let input = input.unwrap().collection;
    let w = gib().write(&input, &WriteOptions::default()).unwrap();
    assert!(w.diagnostics.is_empty(), "{:?}", w.diagnostics);
    let expected = std::fs::read_to_string(dir.join("writer-input.expected.gib")).unwrap();
    assert_eq!(String::from_utf8(w.bytes.clone()).unwrap(), expected);
    // Every SGF property the input has comes back; the rest is XGIB.
    let back = read_gib(w.bytes).collection;
    let (a, b) = (&input.games[0], &back.games[0]);
    for p in a.root().props() {
        if !matches!(p.ident(), "FF") {
            assert_eq!(b.root().value(p.ident()), p.first(), "{}", p.ident());
        }
    }
    let moves = |t: &GameTree| t.main_line().filter_map(|n| n.mv()).collect::<Vec<_>>();
    assert_eq!(moves(a), moves(b));
    assert_eq!(moves(b)[3], (Color::White, Move::Pass));
}

#[test]
fn writer_keeps_header_values_on_one_line() {
    let c = sgf("(;GC[first line\nsecond line];B[pd])");
    let mut w = gib().write(&c, &WriteOptions::default()).unwrap();
    // the per-kind counts that follow the items are notes
    w.diagnostics.retain(|d| d.severity != Severity::Info);
    let text = String::from_utf8(w.bytes).unwrap();
    assert!(text.contains("\\[GAMECOMMENT=first line second line\\]\r\n"), "{text}");
    // GAMECOMMENT (GAMEINFOSUB's GCMT copy is made one line as the reader reads GAMECOMMENT)
    assert_eq!(w.diagnostics.len(), 1, "{:?}", w.diagnostics);
    assert!(text.contains(",GCMT:first line second line\\]\r\n"), "{text}");
    assert!(w.diagnostics.iter().all(|d| d.code == codes::LOSSY_PROPERTY));
}

/// The severity kifu gives an SGF cut off inside its game tree (`sgf.missing-close`).
fn truncated_sgf_severity() -> Severity {
    let r = Format::SGF.read(b"(;GM[1]SZ[19];B[pd];W[dp];B[p".to_vec(), &ReadOptions::default()).unwrap();
    r.diagnostics.iter().find(|d| d.code == "sgf.missing-close").expect("sgf.missing-close").severity
}

/// A GIB cut in the middle of its moves (or of its header) is an error at the place the input
/// ends, naming the last move read, as severe as a truncated SGF; the moves read are kept.
#[test]
fn truncated_gib_is_an_error_at_its_end() {
    let whole = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib/even-passes.gib")).unwrap();
    let text = String::from_utf8(whole.clone()).unwrap();
    // Inside the fourth move record, `STO 0 5 2 3 3`.
    let cut = text.find("STO 0 5").unwrap() + 8;
    let r = read_gib(whole[..cut].to_vec());
    let d = r.diagnostics.iter().find(|d| d.code == codes::TRUNCATED).expect("gib.truncated");
    assert_eq!(d.severity, truncated_sgf_severity());
    assert_eq!(d.severity, Severity::Error);
    let last_line = text[..cut].lines().count() as u32;
    assert_eq!(d.position.map(|p| p.line), Some(last_line), "{d}");
    assert!(d.message.contains("move 3 ('STO 0 4 1 16 15')"), "{d}");
    assert_eq!(r.collection.games[0].main_line().filter(|n| n.get("B").is_some() || n.get("W").is_some()).count(), 3);
    // The complete file has no such error; a file cut inside its header has one, no move read.
    assert!(read_gib(whole.clone()).diagnostics.iter().all(|d| d.code != codes::TRUNCATED));
    let cut = text.find("\\HE").unwrap() - 3;
    let r = read_gib(whole[..cut].to_vec());
    let d = r.diagnostics.iter().find(|d| d.code == codes::TRUNCATED).expect("gib.truncated in the header");
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message.contains("no move was read"), "{d}");
}
