//! Fixture outputs, canonical byte identity, model round trips (fixtures and ../shared), deep
//! trees without recursion, and random input without panics.

mod common;
use common::{files, read_sgf, shared};
use kifu::formats::sgf::normalize_header;
use kifu::model::Collection;
use kifu::{Format, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};

fn write_sgf(c: &Collection) -> String {
    String::from_utf8(Format::SGF.write(c, &WriteOptions::default()).unwrap().bytes).unwrap()
}

fn fixture_inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sgf");
    files(&dir, &["sgf"]).into_iter().filter(|p| !p.to_string_lossy().ends_with(".expected.sgf")).collect()
}

#[test]
fn fixtures_convert_to_their_expected_output() {
    let inputs = fixture_inputs();
    assert!(inputs.len() >= 4);
    for input in inputs {
        let expected_path = input.with_extension("expected.sgf");
        let expected = std::fs::read_to_string(&expected_path).unwrap();
        let read = Format::SGF.read(std::fs::read(&input).unwrap(), &ReadOptions::default()).unwrap();
        assert_eq!(write_sgf(&read.collection), expected, "{}", input.display());
    }
}

#[test]
fn canonical_files_come_back_byte_identical() {
    for input in fixture_inputs() {
        let canonical = std::fs::read_to_string(input.with_extension("expected.sgf")).unwrap();
        let read = read_sgf(&canonical);
        assert!(read.diagnostics.is_empty(), "{}: {:?}", input.display(), read.diagnostics);
        assert_eq!(write_sgf(&read.collection), canonical, "{}", input.display());
    }
}

/// read → write → read gives the model read first, apart from the header the writer fixes
/// (FF[4] and the output CA).
fn assert_model_round_trip(bytes: Vec<u8>, name: &str) -> bool {
    let Ok(first) = Format::SGF.read(bytes, &ReadOptions::default()) else { return false };
    if first.diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return false;
    }
    let written = write_sgf(&first.collection);
    let second = read_sgf(&written);
    assert!(second.diagnostics.is_empty(), "{name}: re-read diagnostics {:?}", second.diagnostics);
    let mut expected = first.collection.clone();
    for g in &mut expected.games {
        normalize_header(g, "UTF-8");
    }
    assert_eq!(second.collection, expected, "{name}");
    // And the canonical text is stable.
    assert_eq!(write_sgf(&second.collection), written, "{name}");
    true
}

#[test]
fn model_round_trip_over_fixtures() {
    for input in fixture_inputs() {
        assert_model_round_trip(std::fs::read(&input).unwrap(), &input.display().to_string());
    }
}

#[test]
fn model_round_trip_over_shared_files() {
    let mut checked = 0;
    for sub in ["sgf-tests", "samples/sgf"] {
        let Some(dir) = shared(sub) else { return };
        for f in files(&dir, &["sgf"]) {
            if assert_model_round_trip(std::fs::read(&f).unwrap(), &f.display().to_string()) {
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} shared files read without errors");
}

#[test]
fn expected_values_of_shared_sgf_samples() {
    let Some(dir) = shared("samples") else { return };
    let table = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let mut checked = 0;
    for line in table.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, key, value) = (cols[0], cols[1], cols.get(2).copied().unwrap_or(""));
        if !file.starts_with("sgf/") {
            continue;
        }
        let read = Format::SGF.read(std::fs::read(dir.join(file)).unwrap(), &ReadOptions::default()).unwrap();
        let games = &read.collection.games;
        let root = games[0].root();
        let value = value.replace("\\n", "\n");
        match key {
            "GAMES" => assert_eq!(games.len().to_string(), value, "{file}"),
            "NODES" => assert_eq!(games[0].len().to_string(), value, "{file}"),
            "C" => {
                // The first comment in the game, compared on the expected prefix.
                let c = games[0].nodes().find_map(|n| n.value("C")).unwrap_or("");
                assert!(c.starts_with(&value), "{file}: C = {c:?}, expected to start with {value:?}");
            }
            "CHARSET" => {
                let name = read.charset.unwrap().name();
                let want = value.split([' ', ';']).next().unwrap();
                let ok = match want {
                    "ASCII" => true,
                    "UTF-16LE" => name == "UTF-16LE",
                    "GB2312" => name == "GBK" || name == "gb18030",
                    w => name.eq_ignore_ascii_case(w),
                };
                assert!(ok, "{file}: charset {name}, expected {value}");
            }
            k => assert_eq!(root.value(k).unwrap_or(""), value, "{file} {k}"),
        }
        checked += 1;
    }
    assert!(checked > 50);
}

/// Runs `f` on a thread with a small stack: recursion over a deep tree would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).unwrap().join().unwrap();
}

#[test]
fn hundred_thousand_move_main_line() {
    on_small_stack(|| {
        let mut text = String::from("(;GM[1]SZ[19]");
        for i in 0..100_000 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            text.push_str(&format!(
                ";{c}[{}{}]",
                (b'a' + (i % 19) as u8) as char,
                (b'a' + (i / 19 % 19) as u8) as char
            ));
        }
        text.push(')');
        let read = read_sgf(&text);
        assert_eq!(read.collection.games[0].len(), 100_001);
        assert_eq!(read.collection.games[0].main_line().count(), 100_001);
        let out = write_sgf(&read.collection);
        let again = read_sgf(&out);
        assert_eq!(again.collection.games[0].len(), 100_001);
        drop(read);
        drop(again);
    });
}

#[test]
fn variations_nested_ten_thousand_deep() {
    on_small_stack(|| {
        let depth = 10_000;
        let mut text = String::from("(;GM[1]");
        for _ in 0..depth {
            text.push_str("(;B[aa]");
        }
        for _ in 0..depth {
            text.push(')');
        }
        text.push(')');
        let read = read_sgf(&text);
        assert!(read.diagnostics.is_empty(), "{:?}", &read.diagnostics[..1]);
        let tree = &read.collection.games[0];
        assert_eq!(tree.len(), depth + 1);
        // Deep and branching: every level gets a sibling.
        let mut text2 = String::from("(;GM[1]");
        for _ in 0..depth {
            text2.push_str("(;B[aa]");
        }
        for _ in 0..depth {
            text2.push_str(")(;W[bb])");
        }
        text2.push(')');
        let read2 = read_sgf(&text2);
        assert!(read2.diagnostics.is_empty(), "{:?}", &read2.diagnostics[..1]);
        assert_eq!(read2.collection.games[0].len(), 2 * depth + 1);
        let out = write_sgf(&read2.collection);
        let again = read_sgf(&out);
        let mut expected = read2.collection.clone();
        normalize_header(&mut expected.games[0], "UTF-8");
        assert!(again.collection == expected, "deep tree changed in the round trip");
        // Every B node has two children, so every child opens a variation: 2 per level + 1.
        assert_eq!(out.matches('(').count(), 2 * depth + 1);
    });
}

mod random {
    use super::*;
    use proptest::prelude::*;

    fn read_any(bytes: Vec<u8>) {
        // Must not panic; errors are fine.
        let _ = Format::SGF.read(bytes, &ReadOptions::default());
    }

    const SEED: &str = "(;FF[4]CA[UTF-8]SZ[19]PB[黑]C[a\\]b:c]LB[aa:x]AB[aa:cc];B[pd](;W[dd]C[x])(;W[]))";

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            read_any(bytes);
        }

        #[test]
        fn random_sgf_alphabet_never_panics(s in "[()\\[\\];\\\\:A-Za-z \n\r]{0,300}") {
            read_any(s.into_bytes());
        }

        #[test]
        fn random_unicode_never_panics(s in "[(;)\\[\\]\\\\:A-Z]?(\\PC|[;()\\[\\]\\\\]){0,200}") {
            read_any(s.into_bytes());
        }

        #[test]
        fn random_bytes_with_a_charset_never_panic(
            label in "(UTF-8|GB2312|Shift_JIS|Big5|EUC-KR|UTF-16LE|x)",
            body in proptest::collection::vec(any::<u8>(), 0..256),
        ) {
            let mut b = format!("(;CA[{label}]C[").into_bytes();
            b.extend(body);
            b.extend_from_slice(b"])");
            read_any(b);
        }

        #[test]
        fn mutated_sgf_never_panics(edits in proptest::collection::vec((0usize..200, any::<u8>(), 0u8..3), 1..8)) {
            let mut b = SEED.as_bytes().to_vec();
            for (at, byte, op) in edits {
                let at = at % (b.len() + 1);
                match op {
                    0 => b.insert(at, byte),
                    1 if at < b.len() => { b.remove(at); }
                    _ if at < b.len() => b[at] = byte,
                    _ => {}
                }
            }
            if let Ok(r) = Format::SGF.read(b, &ReadOptions::default()) {
                // Whatever was read writes (a NUL byte only with --lossy, as `?`) and re-reads.
                let lossy = WriteOptions::default().with_lossy(true);
                let out = Format::SGF.write(&r.collection, &lossy).unwrap().bytes;
                let again = Format::SGF.read(out, &ReadOptions::default()).unwrap();
                prop_assert_eq!(again.collection.games.len(), r.collection.games.len());
            }
        }
    }
}

#[test]
fn compressed_lists_are_kept_unless_expansion_is_asked_for() {
    let read = read_sgf("(;SZ[9]AB[aa:bb][ee]TR[cc:cd]LB[aa:x])");
    let kept = write_sgf(&read.collection);
    assert!(kept.contains("AB[aa:bb][ee]TR[cc:cd]LB[aa:x]"), "{kept}");
    let options = WriteOptions::default().with_expand_point_lists(true);
    let out = String::from_utf8(Format::SGF.write(&read.collection, &options).unwrap().bytes).unwrap();
    // Row by row, in the same order every time; labels are not point lists.
    assert!(out.contains("AB[aa][ba][ab][bb][ee]TR[cc][cd]LB[aa:x]"), "{out}");
    let again = read_sgf(&out);
    let a = kifu::go::Board::replay_main_line(&read.collection.games[0]).board;
    let b = kifu::go::Board::replay_main_line(&again.collection.games[0]).board;
    assert_eq!(a, b);
}
