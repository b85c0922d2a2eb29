//! SGF read and write throughput on a generated collection (and, with `KIFU_BENCH_DIR`, on real
//! files), with sgf-parse reading the same text as a reference point.
//!
//! `cargo bench --bench sgf`; `KIFU_BENCH_DIR=../shared/corpus cargo bench --bench sgf`.

#[path = "support/games.rs"]
mod games;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kifu::{Format, ReadOptions, WriteOptions};
use std::hint::black_box;

fn generated(c: &mut Criterion) {
    let text = games::collection(20_000_000, 7);
    let mut g = c.benchmark_group("generated-20MB");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("kifu-read", |b| {
        b.iter(|| {
            let r = Format::SGF.read(black_box(text.as_bytes().to_vec()), &ReadOptions::default()).unwrap();
            black_box(r.collection.games.len())
        })
    });
    g.bench_function("baseline-copy-and-validate-utf8", |b| {
        b.iter(|| black_box(String::from_utf8(black_box(text.as_bytes().to_vec())).unwrap().len()))
    });
    g.bench_function("sgf-parse-read", |b| b.iter(|| black_box(sgf_parse::parse(black_box(&text)).unwrap().len())));
    let read = Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
    g.bench_function("kifu-write", |b| {
        b.iter(|| black_box(Format::SGF.write(&read.collection, &WriteOptions::default()).unwrap().bytes.len()))
    });
    g.finish();
}

fn real_files(c: &mut Criterion) {
    let Ok(dir) = std::env::var("KIFU_BENCH_DIR") else { return };
    let files: Vec<Vec<u8>> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .filter_map(|e| std::fs::read(e.path()).ok())
        .collect();
    let total: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(format!("real-{}-files", files.len()));
    g.sample_size(10);
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("kifu-read", |b| {
        b.iter(|| {
            let mut n = 0;
            for f in &files {
                if let Ok(r) = Format::SGF.read(f.clone(), &ReadOptions::default()) {
                    n += r.collection.games.len();
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, generated, real_files);
criterion_main!(benches);
