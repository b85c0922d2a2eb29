//! The floor of streaming conversion: read a file in 1 MiB blocks and find every `[` and `]`
//! with memchr (what any SGF reader must at least do). `benches/speed.sh` divides by its time.
//! `cargo run --release --example bracket_scan -- games.sgf`; with `--sgf-parse MB` it instead
//! times the sgf-parse crate on the first MB megabytes (cut after a game), for reference.

use std::io::Read;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, mb, path] = args.as_slice() {
        if flag == "--sgf-parse" {
            return sgf_parse_prefix(path, mb.parse().unwrap_or(10));
        }
    }
    let path = args.first().cloned().unwrap_or_else(|| "games.sgf".into());
    let mut file = std::fs::File::open(&path)?;
    let mut buf = vec![0u8; 1 << 20];
    let (mut bytes, mut brackets) = (0u64, 0u64);
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        brackets += memchr::memchr2_iter(b'[', b']', &buf[..n]).count() as u64;
    }
    println!("{bytes} bytes, {brackets} brackets");
    Ok(())
}

/// Parses the first `mb` megabytes of `path` (up to the last game start) with sgf-parse.
fn sgf_parse_prefix(path: &str, mb: usize) -> std::io::Result<()> {
    let bytes = std::fs::read(path)?;
    let end = bytes.len().min(mb * 1_000_000);
    let end = memchr::memmem::rfind(&bytes[..end], b"\n(;").map_or(end, |k| k + 1);
    let text = String::from_utf8_lossy(&bytes[..end]);
    let start = std::time::Instant::now();
    let games = sgf_parse::parse(&text).map(|g| g.len()).unwrap_or(0);
    let s = start.elapsed().as_secs_f64();
    println!("sgf-parse: {games} games, {end} bytes in {s:.3} s ({:.0} MB/s)", end as f64 / 1e6 / s);
    Ok(())
}
