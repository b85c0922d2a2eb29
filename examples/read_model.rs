//! Reads one SGF file into kifu's model and prints games and nodes: a whole-process probe for
//! speed and peak memory (`cargo run --release --example read_model -- FILE`). With `--bytes`
//! it only reads the file and checks whether it is UTF-8 (the baseline); with `--write` it also writes
//! the collection back as SGF (in memory); with `--no-repair` it skips normalisation.

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let baseline = args.iter().any(|a| a == "--bytes");
    let write = args.iter().any(|a| a == "--write");
    let no_repair = args.iter().any(|a| a == "--no-repair");
    args.retain(|a| a != "--bytes" && a != "--write" && a != "--no-repair");
    let path = args.first().expect("usage: read_model [--bytes] FILE");
    let bytes = std::fs::read(path).expect("read input");
    if baseline {
        let valid = std::str::from_utf8(&bytes).is_ok();
        println!("{} bytes, valid UTF-8: {valid}", bytes.len());
        return;
    }
    let read =
        kifu::Format::SGF.read(bytes, &kifu::ReadOptions::default().with_no_repair(no_repair)).expect("readable SGF");
    let nodes: usize = read.collection.games.iter().map(|g| g.len()).sum();
    println!("{} games, {} nodes, {} diagnostics", read.collection.games.len(), nodes, read.diagnostics.len());
    if write {
        let out = kifu::Format::SGF.write(&read.collection, &kifu::WriteOptions::default()).expect("writable");
        println!("{} bytes written", out.bytes.len());
    }
}
