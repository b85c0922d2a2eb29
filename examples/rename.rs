//! Changes the Black player's name and writes the record back in its own format and charset:
//! `cargo run --example rename -- game.gib "Lee Sedol" renamed.gib`.

/// Reads `input`, sets `PB` to `black` in every game, and returns the bytes to write, in the
/// input's format and charset, with what the writer reported.
pub fn run(input: &str, black: &str) -> Result<(Vec<u8>, Vec<kifu::Diagnostic>), Box<dyn std::error::Error>> {
    let bytes = std::fs::read(input)?;
    let format = kifu::Format::guess(input, &bytes).ok_or("not a game record kifu knows")?;
    let mut read = format.read(bytes, &kifu::ReadOptions::default())?;
    for game in &mut read.collection.games {
        game.set_player(kifu::model::Color::Black, black);
    }
    let mut bytes = Vec::new();
    let notes = read.collection.write_to(&mut bytes, format, &read.write_options())?;
    Ok((bytes, notes))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, black, output] = args.as_slice() else {
        return Err("usage: rename INPUT NEW_BLACK_NAME OUTPUT".into());
    };
    let (bytes, notes) = run(input, black)?;
    for n in notes {
        eprintln!("{output}: {n}");
    }
    std::fs::write(output, bytes)?;
    Ok(())
}
