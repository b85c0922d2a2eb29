//! Writes a generated SGF collection of about N megabytes (the benchmark's games) to a file:
//! `cargo run --release --example generate -- 100 /tmp/games.sgf`.

#[path = "../benches/support/games.rs"]
mod games;

fn main() {
    let mut args = std::env::args().skip(1);
    let mb: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let path = args.next().unwrap_or_else(|| "games.sgf".into());
    let text = games::collection(mb * 1_000_000, 42);
    std::fs::write(&path, text).expect("write output");
}
