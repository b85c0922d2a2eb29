//! The Rust side of `benches/peers.py`: reads the same inputs with kifu's library or with the
//! sgf-parse crate, so that the two are timed as whole processes in the same run.
//!
//! `cargo run --release --example peers -- kifu|sgf-parse --list FILES.txt` reads each file
//! named in `FILES.txt` (one path a line); `... kifu|sgf-parse COLLECTION.sgf` reads one file.
//! Prints `GAMES FAILED`: the games read, and the inputs the reader refused.
//!
//! kifu reads each input through `kifu::read_path` (format, charset, parse, repairs). sgf-parse
//! takes text only, so its input is made UTF-8 first (`String::from_utf8_lossy`, as a caller
//! without a charset decision would); it is its strict parse, as `sgf_parse::parse` does.

fn kifu_read(path: &str) -> Option<usize> {
    kifu::read_path(path).ok().map(|r| r.collection.games.len())
}

fn sgf_parse_read(path: &str) -> Option<usize> {
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    sgf_parse::parse(&text).ok().map(|games| games.len())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: peers kifu|sgf-parse (--list FILES.txt | FILE)";
    let (tool, paths) = match args.as_slice() {
        [tool, flag, list] if flag == "--list" => {
            (tool.as_str(), std::fs::read_to_string(list)?.lines().map(str::to_string).collect::<Vec<_>>())
        }
        [tool, file] => (tool.as_str(), vec![file.clone()]),
        _ => return Err(usage.into()),
    };
    let read: fn(&str) -> Option<usize> = match tool {
        "kifu" => kifu_read,
        "sgf-parse" => sgf_parse_read,
        _ => return Err(usage.into()),
    };
    let (mut games, mut failed) = (0, 0);
    for path in paths.iter().filter(|p| !p.is_empty()) {
        match read(path) {
            Some(n) => games += n,
            None => failed += 1,
        }
    }
    println!("{games} {failed}");
    Ok(())
}
