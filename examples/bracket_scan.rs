//! The floor of streaming conversion: read a file in 1 MiB blocks and find every `[` and `]`
//! with memchr (what any SGF reader must at least do). `benches/speed.sh` divides by its time.
//! `cargo run --release --example bracket_scan -- games.sgf`.

use std::io::Read;

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "games.sgf".into());
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
