//! NGF integration tests: the project's fixtures against their expected SGF, round trips, the
//! real samples in ../shared against EXPECTED.tsv, and legal replay of every game.

use kifu::go::Board;
use kifu::go::handicap::tygem_layout;
use kifu::model::{BoardSize, Move};
use kifu::{Collection, Format, GameTree, ReadOptions, ReadOutput, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};

fn ngf() -> Format {
    Format::from_name("ngf").expect("ngf is registered")
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ngf");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixtures/ngf")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "ngf")
                && !p.file_name().is_some_and(|n| n.to_string_lossy().contains(".expected."))
        })
        .collect();
    v.sort();
    v
}

fn read_ngf(bytes: Vec<u8>) -> ReadOutput {
    ngf().read(bytes, &ReadOptions::default()).expect("readable NGF")
}

fn to_sgf(c: &Collection) -> String {
    String::from_utf8(Format::SGF.write(c, &WriteOptions::default()).expect("sgf").bytes).expect("utf-8")
}

fn assert_legal(name: &str, game: &GameTree) {
    let replay = Board::replay_main_line(game);
    assert!(replay.issues.is_empty(), "{name}: illegal moves {:?}", replay.issues);
    assert_eq!(replay.moves, game.main_line_moves(), "{name}");
}

#[test]
fn fixtures_match_their_expected_sgf() {
    let files = fixtures();
    assert_eq!(files.len(), 6);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(Format::sniff(&bytes), Some(ngf()), "{name} sniffs as NGF");
        let read = read_ngf(bytes);
        let expected = std::fs::read_to_string(path.with_extension("expected.sgf")).unwrap();
        assert_eq!(to_sgf(&read.collection), expected, "{name}");
        let charset = read.charset.unwrap().name();
        let want = match name.as_str() {
            "even_korean.ngf" => "EUC-KR",
            "japanese_result.ngf" => "Shift_JIS",
            "gi_variant.ngf" => "GBK",
            _ => "UTF-8",
        };
        assert_eq!(charset, want, "{name}");
        assert_legal(&name, &read.collection.games[0]);
    }
}

#[test]
fn round_trip_ngf_model_ngf_model() {
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let first = read_ngf(std::fs::read(&path).unwrap());
        let written = ngf().write(&first.collection, &WriteOptions::default()).unwrap();
        let second = read_ngf(written.bytes.clone());
        if name == "gi_variant.ngf" {
            // Written as standard NGF: the two comments and the GI-only lines are reported.
            // (the per-kind count that follows the items is a note)
            let lossy: Vec<&str> = written
                .diagnostics
                .iter()
                .filter(|d| d.severity != kifu::Severity::Info)
                .map(|d| d.message.as_str())
                .collect();
            assert_eq!(lossy, ["root property XNGFGI not written", "comment not written (2 times: move 3, move 9)"]);
            let (a, b) = (first.collection.games[0].info(), second.collection.games[0].info());
            assert_eq!((a.white, a.black, a.result, a.komi, a.date), (b.white, b.black, b.result, b.komi, b.date));
            continue;
        }
        if written.diagnostics.iter().any(|d| d.code == "ngf.implied") {
            // Non-ASCII ranks (`7단P`, `5段P`) and dash dates (`2009-03-25`) are written in the
            // forms every reader takes (`7DP`, `20090325`), each with a note; nothing else
            // changes.
            assert!(
                written
                    .diagnostics
                    .iter()
                    .all(|d| d.code == "ngf.implied" && d.message.contains("the form every reader takes")),
                "{name}: {:?}",
                written.diagnostics
            );
            if name == "even_korean.ngf" {
                let notes: Vec<&str> = written.diagnostics.iter().map(|d| d.message.as_str()).collect();
                assert_eq!(
                    notes,
                    [
                        "rank '7단P' written as 7DP, the form every reader takes",
                        "rank '5단*' written as 5D*, the form every reader takes",
                        "date '2009-03-25' written as 20090325, the form every reader takes"
                    ]
                );
            }
            assert_eq!(second.collection.games[0].info(), first.collection.games[0].info(), "{name}");
            continue;
        }
        assert!(written.diagnostics.is_empty(), "{name}: {:?}", written.diagnostics);
        assert_eq!(second.collection, first.collection, "{name}");
        // NGF -> SGF text -> model -> NGF: the private XNGF properties carry the raw values.
        let sgf = Format::SGF.read(to_sgf(&first.collection).into_bytes(), &ReadOptions::default()).unwrap();
        let via_sgf = ngf().write(&sgf.collection, &WriteOptions::default()).unwrap();
        assert!(via_sgf.diagnostics.is_empty(), "{name}: {:?}", via_sgf.diagnostics);
        assert_eq!(
            String::from_utf8(via_sgf.bytes).unwrap(),
            String::from_utf8(written.bytes.clone()).unwrap(),
            "{name}"
        );
        // Written back in the file's own charset, the authored files (full header) come out
        // byte for byte.
        if name != "short_header.ngf" {
            let enc = first.charset.map(|c| c.encoding);
            let again = ngf().write(&first.collection, &WriteOptions::default().with_encoding(enc)).unwrap();
            assert!(again.diagnostics.is_empty(), "{name}");
            let original = std::fs::read(&path).unwrap();
            assert_eq!(String::from_utf8_lossy(&again.bytes), String::from_utf8_lossy(&original), "{name}");
            assert_eq!(again.bytes, original, "{name}");
        }
    }
}

#[test]
fn handicaps_two_to_nine_use_the_tygem_layout_and_white_moves_first() {
    for h in 2..=9u32 {
        let text = format!(
            "Rated game\n19\nW 5D\nB 1D\nwww.cyberoro.com\n{h}\n0\n0\n20200101 [10:00]\n10\nWhite wins by resign!\n2\nPMABWDDDD\nPMACBRCCR\n"
        );
        let read = read_ngf(text.into_bytes());
        let g = &read.collection.games[0];
        assert_eq!(g.root().value("HA"), Some(h.to_string().as_str()));
        assert_eq!(g.root().value("KM"), Some("0"));
        let ab: Vec<String> = g.root().get("AB").unwrap().values().map(|v| v.as_str().to_string()).collect();
        let want: Vec<String> =
            tygem_layout(BoardSize::square(19), h).unwrap().iter().map(|p| p.to_sgf().unwrap()).collect();
        assert_eq!(ab, want, "handicap {h}");
        assert_eq!(g.root().first_child().unwrap().value("W"), Some("cc"));
        assert!(g.root().get("PL").is_none());
        assert_legal(&format!("H{h}"), g);
    }
}

#[test]
fn korean_and_japanese_files_generated_here_are_detected() {
    let korean = "제3회 친선대국 결승전\n19\n이창호      9단P\n조훈현      9단P\n한국기원\n0\n0\n6\n20100123 [21: 6]\n180\n250수 흑7집승\n2\nPMABBQEEQ\nPMACWEQQE\n";
    let japanese = "ﾚｰﾃｨﾝｸﾞ対局 第二局\n19\n高橋一郎    5段P\n中村次郎    7段*\n幽玄の間\n0\n0\n6\n20100404\n15\n黒中押し勝ち!\n2\nPMABBQEEQ\nPMACWEQQE\n";
    for (text, enc, white, black, re) in [
        (korean, encoding_rs::EUC_KR, "이창호", "조훈현", "B+7"),
        (japanese, encoding_rs::SHIFT_JIS, "高橋一郎", "中村次郎", "B+R"),
    ] {
        let (bytes, _, bad) = enc.encode(text);
        assert!(!bad);
        let read = read_ngf(bytes.into_owned());
        assert_eq!(read.charset.unwrap().encoding, enc);
        let info = read.collection.games[0].info();
        assert_eq!((info.white.as_deref(), info.black.as_deref()), (Some(white), Some(black)));
        assert_eq!(info.result_text.as_deref(), Some(re));
    }
}

// --- The real samples in ../shared -------------------------------------------------------------

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("note: ../shared is absent; skipping the NGF sample tests");
        None
    }
}

fn moves(g: &GameTree) -> Vec<String> {
    let size = g.board_size();
    g.main_line()
        .filter_map(|n| n.mv_on(size))
        .map(|(c, m)| format!("{}[{}]", c.as_sgf(), m.to_sgf().unwrap_or_default()))
        .collect()
}

/// The value of one EXPECTED.tsv key for a read game.
fn actual(key: &str, read: &ReadOutput, input: &[u8]) -> String {
    let g = &read.collection.games[0];
    let root = g.root();
    match key {
        "SZ" | "PB" | "BR" | "PW" | "WR" | "KM" | "HA" | "PL" | "RE" | "DT" => {
            root.value(key).unwrap_or("").to_string()
        }
        "AB" => {
            let mut v: Vec<String> =
                root.get("AB").map(|p| p.values().map(|v| v.as_str().to_string()).collect()).unwrap_or_default();
            v.sort();
            v.join(",")
        }
        "MOVES" => g.main_line_moves().to_string(),
        "PASSES" => {
            let size = g.board_size();
            g.main_line().filter(|n| matches!(n.mv_on(size), Some((_, Move::Pass)))).count().to_string()
        }
        "FIRST3" => moves(g).iter().take(3).cloned().collect::<Vec<_>>().join(";"),
        "LAST" => moves(g).last().cloned().unwrap_or_default(),
        "LEGAL" => if Board::replay_main_line(g).issues.is_empty() { "yes" } else { "no" }.to_string(),
        "CHARSET" => {
            let enc = read.charset.unwrap().encoding;
            if input.is_ascii() && enc == encoding_rs::UTF_8 {
                "ASCII".into()
            } else if enc == encoding_rs::GBK || enc == encoding_rs::GB18030 {
                "GB2312".into()
            } else {
                enc.name().to_string()
            }
        }
        other => panic!("EXPECTED.tsv key {other} is not handled by this test"),
    }
}

#[test]
fn samples_match_expected_tsv() {
    let Some(shared) = shared() else { return };
    let samples = shared.join("samples");
    let tsv = match std::fs::read_to_string(samples.join("EXPECTED.tsv")) {
        Ok(t) => t,
        Err(_) => {
            eprintln!("note: EXPECTED.tsv is absent; skipping");
            return;
        }
    };
    let rows: Vec<(&str, &str, &str)> = tsv
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?, f.next()?, f.next().unwrap_or("")))
        })
        .filter(|(file, _, _)| file.starts_with("ngf/"))
        .collect();
    assert!(rows.len() >= 40, "NGF rows in EXPECTED.tsv: {}", rows.len());
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples.join("ngf")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let katrain = shared.join("sgf-tests/katrain/handicap2.ngf");
    files.push(katrain.clone());
    let mut checked = 0;
    for path in &files {
        // KaTrain's handicap2.ngf is byte-identical to Sabaki's (MANIFEST.tsv): same rows.
        let key = if *path == katrain {
            "ngf/SabakiHQ__Sabaki__handicap2.ngf".to_string()
        } else {
            format!("ngf/{}", path.file_name().unwrap().to_string_lossy())
        };
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(Format::sniff(&bytes), Some(ngf()), "{key} sniffs as NGF");
        let read = read_ngf(bytes.clone());
        let mine: Vec<_> = rows.iter().filter(|(f, _, _)| *f == key).collect();
        assert!(!mine.is_empty(), "{key} has rows");
        for (_, k, want) in mine {
            assert_eq!(actual(k, &read, &bytes), *want, "{key} {k}");
            checked += 1;
        }
        assert_legal(&key, &read.collection.games[0]);
    }
    assert!(checked >= rows.len());
}

#[test]
fn katrain_handicap2_expectations() {
    let Some(shared) = shared() else { return };
    let read = read_ngf(std::fs::read(shared.join("sgf-tests/katrain/handicap2.ngf")).unwrap());
    let g = &read.collection.games[0];
    let info = g.info();
    assert_eq!(info.date.as_deref(), Some("2017-03-16"));
    assert_eq!(info.handicap, Some(2));
    assert_eq!((info.black.as_deref(), info.white.as_deref()), (Some("p81587"), Some("ace550")));
    // KaTrain expects "W+" (winner only); kifu also keeps the reason.
    assert!(info.result_text.as_deref().is_some_and(|r| r.starts_with("W+")));
    assert_eq!(g.board_size(), BoardSize::square(19));
    assert_eq!(moves(g).first().map(String::as_str), Some("W[pq]"));
}

// --- Robustness ---------------------------------------------------------------------------------

mod robustness {
    use super::*;
    use proptest::prelude::*;

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("PMABBREER".to_string()),
            Just("PMACWAAAA".to_string()),
            Just("GI".to_string()),
            Just("IDB[".to_string()),
            Just("[EndTxt]".to_string()),
            Just("19".to_string()),
            Just("十十十十十十十十十十段".to_string()),
            Just("흑 반집승 >> 白".to_string()),
            Just("2009-3-".to_string()),
            "[A-Z0-9 .:\\-\\[\\]*]{0,12}".prop_map(|s| s),
            any::<char>().prop_map(|c| c.to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn reading_and_writing_never_panics(pieces in proptest::collection::vec(piece(), 0..60)) {
            let text: String = pieces.concat();
            if let Ok(read) = ngf().read(text.into_bytes(), &ReadOptions::default()) {
                let written = ngf().write(&read.collection, &WriteOptions::default());
                prop_assert!(written.is_ok());
            }
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = ngf().read(bytes, &ReadOptions::default());
        }
    }
}

/// An NGF cut in the middle of a move line (or of its header) is an error at the place the
/// input ends, naming the last move read, as severe as a truncated SGF; the moves read are kept.
#[test]
fn truncated_ngf_is_an_error_at_its_end() {
    let whole = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ngf/even_korean.ngf")).unwrap();
    let at = |needle: &[u8]| whole.windows(needle.len()).position(|w| w == needle).unwrap();
    let sgf_cut = Format::SGF.read(b"(;GM[1];B[pd];W[d".to_vec(), &ReadOptions::default()).unwrap();
    let sgf_severity = sgf_cut.diagnostics.iter().find(|d| d.code == "sgf.missing-close").unwrap().severity;
    // Inside the third move line, `PMADBRQQR`.
    let cut = at(b"PMADBRQQR") + 5;
    let r = read_ngf(whole[..cut].to_vec());
    let d = r.diagnostics.iter().find(|d| d.code == kifu::formats::ngf::codes::TRUNCATED).expect("ngf.truncated");
    assert_eq!(d.severity, sgf_severity);
    assert_eq!(d.severity, kifu::Severity::Error);
    let last_line = whole[..cut].split(|b| *b == b'\n').count() as u32;
    assert_eq!(d.position.map(|p| p.line), Some(last_line), "{d}");
    assert!(d.message.contains("'PMACWEQQE'") && d.message.contains("2 read of the 12"), "{d}");
    assert_eq!(r.collection.games[0].main_line_moves(), 2);
    // The whole file has no such error; a file cut in its header has one.
    assert!(read_ngf(whole.clone()).diagnostics.iter().all(|d| d.code != kifu::formats::ngf::codes::TRUNCATED));
    let r = read_ngf(whole[..at(b"\n19\n") + 3].to_vec());
    let d = r.diagnostics.iter().find(|d| d.code == kifu::formats::ngf::codes::TRUNCATED).expect("cut in the header");
    assert!(d.message.contains("inside the header"), "{d}");
}
