//! Walks every variation of every game and prints the longest one's moves:
//! `cargo run --example longest -- fixtures/examples/longest.sgf`.

use std::io::Write;

/// Prints, per game, how many lines (variations) it has and the moves of the longest (the
/// first of them on a tie).
pub fn run(path: &str, out: &mut impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let read = kifu::read_path(path)?;
    for (i, game) in read.collection.games.iter().enumerate() {
        let size = game.board_size();
        let lines = game.lines().count(); // every line from the root to a leaf, no recursion
        let Some(longest) = game.lines().reduce(|a, b| if b.len() > a.len() { b } else { a }) else { continue };
        let moves: Vec<String> =
            longest.iter().filter_map(|n| n.mv_on(size)).map(|(color, mv)| format!("{color}[{mv}]")).collect();
        writeln!(out, "game {}: {lines} lines; the longest has {} moves: {}", i + 1, moves.len(), moves.join(" "))?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: longest FILE")?;
    run(&path, &mut std::io::stdout().lock())
}
