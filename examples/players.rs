//! Players and move count of a game record in any format kifu reads (a GIB file, say):
//! `cargo run --example players -- fixtures/gib/korean-euc-kr.gib`.

use std::io::Write;

/// Prints `BLACK (RANK) vs WHITE (RANK): N moves, RESULT` for each game of the file at `path`,
/// then the diagnostics.
pub fn run(path: &str, out: &mut impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let read = kifu::read_path(path)?; // format and charset decided, diagnostics returned
    for game in &read.collection.games {
        let info = game.info();
        let who = |name: Option<String>, rank: Option<String>| match (name, rank) {
            (Some(n), Some(r)) => format!("{n} ({r})"),
            (n, _) => n.unwrap_or_else(|| "?".into()),
        };
        let result = info.result.map_or_else(|| "no result".to_string(), |r| r.to_string());
        let moves = game.main_line().filter(|n| n.mv().is_some()).count();
        writeln!(
            out,
            "{} vs {}: {moves} moves, {result}",
            who(info.black, info.black_rank),
            who(info.white, info.white_rank)
        )?;
    }
    for d in &read.diagnostics {
        writeln!(out, "{path}: {d}")?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: players FILE")?;
    run(&path, &mut std::io::stdout().lock())
}
