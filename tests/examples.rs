//! The programs of `examples/` run on fixtures: their `run` functions are compiled into this
//! test (no `cargo run` per example), and their `main`s are built by `cargo test` as examples.

#[allow(dead_code)]
#[path = "../examples/players.rs"]
mod players;

#[allow(dead_code)]
#[path = "../examples/rename.rs"]
mod rename;

#[allow(dead_code)]
#[path = "../examples/longest.rs"]
mod longest;

fn fixture(rel: &str) -> String {
    format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn players_of_a_gib_file() {
    let mut out = Vec::new();
    players::run(&fixture("gib/korean-euc-kr.gib"), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "이영희 (1k) vs 바둑왕 김철수 (2d): 8 moves, W+R\n");
}

#[test]
fn rename_keeps_format_and_charset() {
    let input = fixture("gib/korean-euc-kr.gib");
    let (bytes, notes) = rename::run(&input, "이세돌").unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    let again = kifu::Format::GIB.read(bytes.clone(), &kifu::ReadOptions::default()).unwrap();
    assert_eq!(again.charset.unwrap().name(), "EUC-KR", "written back in the input's charset");
    let info = again.collection.games[0].info();
    assert_eq!(info.black.as_deref(), Some("이세돌"));
    assert_eq!(info.white.as_deref(), Some("바둑왕 김철수"));
    let (euc, _, _) = encoding_rs::EUC_KR.encode("이세돌");
    assert!(memchr::memmem::find(&bytes, &euc).is_some());

    let (sgf, _) = rename::run(&fixture("sgf/variations.sgf"), "Black").unwrap();
    let text = String::from_utf8(sgf).unwrap();
    assert!(text.starts_with("(;FF[4]CA[UTF-8]GM[1]SZ[19]PB[Black]PW[Shiro]"), "{text}");
    assert!(text.contains("(;W[jj]AB[aa:cc])"), "variations kept: {text}");
}

#[test]
fn longest_variation() {
    let mut out = Vec::new();
    longest::run(&fixture("examples/longest.sgf"), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "game 1: 4 lines; the longest has 7 moves: B[ee] W[cc] B[cg] W[gc] B[gg] W[pass] B[ge]\n"
    );
    // On a tie the first line wins: here the main line.
    let mut out = Vec::new();
    longest::run(&fixture("sgf/variations.sgf"), &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().ends_with("W[dp] B[fq] W[cn]\n"));
}
