//! No panic on damaged input, in any format: every fixture (and every real sample in
//! ../shared/samples when it is there), mutated at random, is read by its
//! own reader and by content sniffing; whatever reads is written in every format kifu writes,
//! and what those writers produce reads back.

use kifu::{Format, ReadOptions, WriteOptions};
use proptest::prelude::*;
use std::path::Path;

/// The fixtures, plus the real files of ../shared/samples when that folder is there.
fn fixtures() -> Vec<(Format, Vec<u8>)> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let walk = walkdir::WalkDir::new(here.join("fixtures"))
        .into_iter()
        .chain(walkdir::WalkDir::new(here.join("../shared/samples")));
    for e in walk.filter_map(Result::ok) {
        let p = e.path();
        if p.to_string_lossy().contains("/check/") && p.extension().is_none_or(|x| x != "sgf") {
            continue;
        }
        if let Some(f) = Format::from_path(p) {
            out.push((f, std::fs::read(p).unwrap()));
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

fn exercise(format: Format, bytes: Vec<u8>) {
    let sniffed = kifu::read_bytes(bytes.clone(), None, &ReadOptions::default());
    let Ok(read) = format.read(bytes, &ReadOptions::default()) else { return };
    drop(sniffed);
    for to in Format::all().filter(|f| f.can_write()) {
        let options = WriteOptions { lossy: true, ..WriteOptions::default() };
        if let Ok(out) = to.write(&read.collection, &options) {
            // A writer's output must read back with its own reader.
            if !read.collection.games.is_empty() && to.can_read() {
                let back = to.read(out.bytes, &ReadOptions::default());
                assert!(back.is_ok(), "{format} -> {to}: output does not read back: {:?}", back.err());
            }
        }
    }
}

#[test]
fn every_fixture_converts_to_every_format_and_back() {
    let all = fixtures();
    assert!(all.len() >= 25, "{}", all.len());
    for (format, bytes) in all {
        exercise(format, bytes);
    }
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
        exercise(format, b);
    }
}
