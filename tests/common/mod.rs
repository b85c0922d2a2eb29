//! Helpers shared by the integration tests.
#![allow(dead_code)]

use kifu::{Diagnostic, Format, ReadOptions, ReadOutput};
use std::path::{Path, PathBuf};

/// Reads SGF text as the reader gives it (no `fix.*` normalisation), panicking on a fatal error.
pub fn read_sgf(text: &str) -> ReadOutput {
    let faithful = ReadOptions::default().with_no_repair(true);
    Format::SGF.read(text.as_bytes().to_vec(), &faithful).expect("readable SGF")
}

/// `(code, line, column)` of each diagnostic.
pub fn codes(diags: &[Diagnostic]) -> Vec<(&'static str, u32, u32)> {
    diags.iter().map(|d| (d.code, d.position.map_or(0, |p| p.line), d.position.map_or(0, |p| p.column))).collect()
}

/// The repository's root: the folder of the package under test, or its parent for the command's
/// package (`cli/`), whose tests use these helpers too.
pub fn repo() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if here.join("fixtures").is_dir() && here.join("src/lib.rs").is_file() {
        here.to_path_buf()
    } else {
        here.join("..")
    }
}

/// The shared reference folder next to the repository, or `None` (with a note) when absent.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let p = repo().join("../shared").join(sub);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("note: {} is absent; skipping this test", p.display());
        None
    }
}

/// Every file under `dir` (recursively) whose extension is one of `exts` (case-insensitive).
pub fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            p.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
        })
        .collect();
    out.sort();
    out
}

/// SGF text of one game of `moves` moves on a 19×19 board, on one line (the points cycle over the
/// board, so some are occupied: illegal moves a diagram reports).
pub fn long_game_sgf(moves: usize) -> String {
    let letters = b"abcdefghijklmnopqrs";
    let mut sgf = String::from("(;GM[1]FF[4]SZ[19]");
    for k in 0..moves {
        let p = (k * 7919) % 361;
        let colour = if k % 2 == 0 { 'B' } else { 'W' };
        sgf.push_str(&format!(";{colour}[{}{}]", letters[p % 19] as char, letters[p / 19] as char));
    }
    sgf.push(')');
    sgf
}

/// A collection of `size` bytes or more: one game with comments and variations, repeated.
pub fn big_collection(path: &Path, size: usize) -> Vec<u8> {
    let game = b"(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Black]PW[White]KM[6.5]RE[B+R]\n;B[pd]C[a comment \\] with ( and )];W[dp];B[pq]\n(;W[dd];B[qk])(;W[qq];B[qo]))\n";
    let game = game.to_vec();
    let file = std::fs::File::create(path).unwrap();
    let mut w = std::io::BufWriter::new(file);
    let mut n = 0;
    while n < size {
        std::io::Write::write_all(&mut w, &game).unwrap();
        n += game.len();
    }
    std::io::Write::flush(&mut w).unwrap();
    game
}
