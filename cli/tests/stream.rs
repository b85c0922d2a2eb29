//! The command on stream inputs (the library side is in the root package's tests/stream.rs).

mod common;
use common::{big_collection, kifu_binary};
use kifu::{Format, ReadOptions, WriteOptions};

#[test]
fn a_game_cut_off_at_the_end_of_a_stream_is_reported_and_the_games_before_are_written() {
    let (kifu, _) = kifu_binary();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.sgf");
    big_collection(&input, 17 << 20);
    let mut f = std::fs::OpenOptions::new().append(true).open(&input).unwrap();
    std::io::Write::write_all(&mut f, b"(;GM[1]PB[Last];B[aa];W[bb").unwrap();
    drop(f);
    let output = dir.path().join("out.sgf");
    let out = std::process::Command::new(&kifu).arg("convert").arg(&input).arg("-o").arg(&output).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("sgf.unterminated-value") || stderr.contains("sgf.missing-close"), "{stderr}");
    // The position is that of the whole file (its last line), not of the last piece.
    let lines = std::fs::read(&input).unwrap().iter().filter(|&&c| c == b'\n').count() + 1;
    assert!(stderr.contains(&format!("cut.sgf:{lines}:")), "{stderr}");
    let text = std::fs::read_to_string(&output).unwrap();
    let written = text.matches("(;").count();
    assert!(text.contains("PB[Last]") && text.contains("W[bb]"), "the cut-off game is kept as far as it goes");
    assert_eq!(written, std::fs::read_to_string(&input).unwrap().matches("(;").count());
}

#[test]
fn standard_input_streams_to_a_json_document_with_the_whole_collection_bytes() {
    let (kifu, _) = kifu_binary();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.sgf");
    let size = 17 << 20;
    let game = big_collection(&input, size);
    // The whole collection: the one game, as many times as the file holds it.
    let mut whole = Format::SGF.read(game.clone(), &ReadOptions::default()).unwrap();
    let one = whole.collection.games[0].clone();
    whole.collection.games = vec![one; size.div_ceil(game.len())];
    // JSON only (NDJSON pieces are compared in the library tests above): the debug binary is slow.
    let to = "json";
    let format = Format::from_name(to).unwrap();
    let write = WriteOptions::default().with_source_charset(whole.charset);
    let expected = format.write(&whole.collection, &write).unwrap().bytes;
    let out = std::process::Command::new(&kifu)
        .args(["convert", "-q", "-", "-t", to])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout == expected, "{to}: {} bytes streamed, {} expected", out.stdout.len(), expected.len());
}
