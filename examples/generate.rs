//! Writes a generated SGF collection of about N megabytes (the benchmark's games) to a file:
//! `cargo run --release --example generate -- 100 /tmp/games.sgf`; with `--games N` instead
//! of the size, a collection of N small games (10–40 moves each).

#[path = "../benches/support/games.rs"]
mod games;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().is_some_and(|a| a == "--games") {
        args.next();
        let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
        let path = args.next().unwrap_or_else(|| "games.sgf".into());
        std::fs::write(&path, games::small_collection(n, 42)).expect("write output");
        return;
    }
    let mb: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let path = args.next().unwrap_or_else(|| "games.sgf".into());
    let text = games::collection(mb * 1_000_000, 42);
    std::fs::write(&path, text).expect("write output");
}
