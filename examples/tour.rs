//! The README's library example: read a record in any format and charset, print its players
//! and moves, and write it back as SGF in the charset it was read in.
//! `cargo run --example tour`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let read = kifu::read_path("fixtures/gib/korean-euc-kr.gib")?; // any format, any charset
    for d in &read.diagnostics {
        eprintln!("{d}"); // every repair, with its line and column; the library never prints
    }
    for game in &read.collection.games {
        let info = game.info(); // players, ranks, komi, result, date, …
        println!("{} vs {}", info.black.unwrap_or_default(), info.white.unwrap_or_default());
        for (color, mv) in game.main_line().filter_map(|node| node.mv()) {
            print!("{color}[{mv}] "); // B[qd] W[dp] …
        }
        println!();
    }
    let mut sgf = Vec::new(); // convert, keeping the input's charset (EUC-KR here)
    read.collection.write_to(&mut sgf, kifu::Format::SGF, &read.write_options())?;
    println!("{} bytes of SGF", sgf.len());
    Ok(())
}
