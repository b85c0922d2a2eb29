//! Reads every SGF file under a folder and prints games, nodes, variations and diagnostics by
//! code: `cargo run --release --example corpus_stats -- ../shared/corpus/ai_yenw`.

use std::collections::BTreeMap;

fn main() {
    let dir = std::env::args().nth(1).expect("usage: corpus_stats DIR");
    let (mut files, mut games, mut nodes, mut variations, mut failed) = (0, 0, 0, 0, 0);
    let mut codes: BTreeMap<&'static str, usize> = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok) {
        if !e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(e.path()).expect("readable file");
        match kifu::Format::SGF.read(bytes, &kifu::ReadOptions::default()) {
            Ok(r) => {
                for g in &r.collection.games {
                    games += 1;
                    nodes += g.len();
                    variations += g.nodes().map(|n| g.child_count(n.id()).saturating_sub(1)).sum::<usize>();
                }
                for d in r.diagnostics {
                    *codes.entry(d.code).or_default() += 1;
                }
            }
            Err(_) => failed += 1,
        }
    }
    println!("files {files} games {games} nodes {nodes} variations {variations} failed {failed}");
    for (c, n) in codes {
        println!("  {c}: {n}");
    }
}
