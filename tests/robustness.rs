//! No panic on damaged input, in any format, and the round-trip oracle of the fuzz targets
//! (`fuzz/src/oracle.rs`, included here by path) over every fixture (and every real sample in
//! ../shared/samples when it is there), then over fixtures mutated at random: whatever reads is
//! written in every format kifu writes, and what those writers produce must read back, as the
//! same model for SGF and JSON, with as many moves and a stable second write for the line-based
//! formats (the rules: `formats/robustness.md`).

#[path = "../fuzz/src/oracle.rs"]
#[allow(dead_code)]
mod oracle;

use kifu::Format;
use oracle::Finding;
use proptest::prelude::*;
use std::path::Path;

/// The fixtures, plus the real files of ../shared/samples when that folder is there.
fn fixtures() -> Vec<(Format, Vec<u8>)> {
    static ALL: std::sync::OnceLock<Vec<(Format, Vec<u8>)>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        let roots = [here.join("fixtures"), here.join("../shared/samples")];
        for (root, e) in roots.iter().flat_map(|r| walkdir::WalkDir::new(r).into_iter().map(move |e| (r, e))) {
            let Ok(e) = e else { continue };
            let p = e.path();
            // `fixtures/check/` holds `kifu check` expectations beside its SGF inputs. Judged on the
            // path inside the root: the clone itself may live under a folder named `check`.
            let inside = p.strip_prefix(root).unwrap_or(p);
            if inside.starts_with("check") && p.extension().is_none_or(|x| x != "sgf") {
                continue;
            }
            if let Some(f) = Format::from_path(p) {
                out.push((f, std::fs::read(p).unwrap()));
            }
        }
        out.sort_by(|a, b| a.1.cmp(&b.1));
        out
    })
    .clone()
}

/// Findings of rules whose owners have not fixed them yet on this branch: listed in
/// `formats/robustness.md` ("Open findings"), printed, not failed on. Everything else fails.
fn known_open(f: &Finding) -> bool {
    KNOWN_OPEN.iter().any(|(rule, writer, only)| f.rule == *rule && f.writer == *writer && only(f))
}

/// (rule, writer, which of its findings).
type Open = (&'static str, &'static str, fn(&Finding) -> bool);

const KNOWN_OPEN: &[Open] = &[];

fn exercise(format: Format, bytes: &[u8]) {
    let found = oracle::round_trip(bytes, Some(format));
    let (open, new): (Vec<_>, Vec<_>) = found.into_iter().partition(known_open);
    for f in &open {
        eprintln!("open finding ({format} input): {f:?}");
    }
    assert!(new.is_empty(), "{format} input {:?}: {new:#?}", String::from_utf8_lossy(bytes));
}

#[test]
fn every_fixture_converts_to_every_format_and_back() {
    let all = fixtures();
    assert!(all.len() >= 25, "{}", all.len());
    for (format, bytes) in all {
        exercise(format, &bytes);
    }
}

/// Replays a fuzzing corpus (`fuzz/build_corpus.sh`, then whatever a campaign added) through the
/// fuzz targets on stable Rust: `KIFU_FUZZ_CORPUS=fuzz/corpus cargo test --test robustness replay`.
/// Without the variable (or the folder), it says so and checks nothing else.
#[test]
fn replay_fuzz_corpus() {
    let Some(dir) = std::env::var_os("KIFU_FUZZ_CORPUS") else {
        eprintln!("note: KIFU_FUZZ_CORPUS is not set; no corpus replayed");
        return;
    };
    let mut runs = 0;
    for target in oracle::TARGETS {
        let sub = Path::new(&dir).join(target);
        for e in walkdir::WalkDir::new(&sub).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()) {
            let bytes = std::fs::read(e.path()).unwrap();
            if *target == "roundtrip" {
                exercise_any(&bytes);
            } else {
                oracle::run(target, &bytes);
            }
            runs += 1;
        }
    }
    eprintln!("replayed {runs} corpus files");
}

fn exercise_any(bytes: &[u8]) {
    let found = oracle::round_trip(bytes, None);
    let new: Vec<_> = found.into_iter().filter(|f| !known_open(f)).collect();
    assert!(new.is_empty(), "{:?}: {new:#?}", String::from_utf8_lossy(bytes));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..12),
    ) {
        let all = fixtures();
        let (format, mut b) = all[pick.index(all.len())].clone();
        for (at, byte, op) in edits {
            if b.is_empty() {
                b.push(byte);
                continue;
            }
            let i = at.index(b.len());
            match op {
                0 => b.insert(i, byte),
                1 => { b.remove(i); }
                2 => b[i] = byte,
                _ => { b.truncate(i); }
            }
        }
        exercise(format, &b);
    }
}

/// Issue 13, item 8: numbers of every GIB, NGF and UGF fixture and sample (their readers parse
/// numbers; SGF's does not) replaced by numbers at and past the integer limits; the reader,
/// `check` and every writer must neither panic nor overflow (tests build with
/// `overflow-checks = true`, Cargo.toml's test profile).
#[test]
fn numbers_at_the_integer_limits_never_overflow() {
    const HUGE: &[&str] = &["9223372036854775807", "18446744073709551616", "4294967296", "-9223372036854775808"];
    let options = kifu::WriteOptions::default().with_lossy(true);
    let mut runs = 0;
    for (format, bytes) in fixtures() {
        if bytes.len() > 8_000 || !matches!(format.name(), "gib" | "ngf" | "ugf") {
            continue;
        }
        // The start and end of every run of ASCII digits (at most 40 per file: the header's).
        let mut spans = Vec::new();
        let mut i = 0;
        while i < bytes.len() && spans.len() < 40 {
            if bytes[i].is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                spans.push((start, i));
            }
            i += 1;
        }
        for &(start, end) in &spans {
            for huge in HUGE {
                let mut b = bytes[..start].to_vec();
                b.extend_from_slice(huge.as_bytes());
                b.extend_from_slice(&bytes[end..]);
                runs += 1;
                let Ok(read) = format.read(b, &kifu::ReadOptions::default().with_positions(true)) else {
                    continue;
                };
                for d in &read.diagnostics {
                    let _ = d.to_string();
                }
                let _ = kifu::check::check_collection(&read.collection, &read.diagnostics);
                for to in Format::all().filter(|f| f.can_write()) {
                    let _ = to.write(&read.collection, &options);
                }
            }
        }
    }
    assert!(runs > 500, "{runs}");
}
