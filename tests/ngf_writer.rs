//! The NGF writer on a game with none of the values NGF lines hold (no title, komi, date, time):
//! every line gets a value readers accept, both moves of a two-move node are written, repeated
//! `AB` is one handicap; a board NGF's reader refuses is refused.

use kifu::{Format, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ngf").join(name)
}

fn ngf() -> Format {
    Format::from_name("ngf").expect("ngf is registered")
}

#[test]
fn a_bare_game_is_written_with_no_empty_header_line() {
    let input = Format::SGF.read(std::fs::read(fixture("writer-bare.sgf")).unwrap(), &ReadOptions::default()).unwrap();
    let out = ngf().write(&input.collection, &WriteOptions::default()).unwrap();
    let text = String::from_utf8(out.bytes.clone()).unwrap();
    assert_eq!(text, std::fs::read_to_string(fixture("writer-bare.expected.ngf")).unwrap());
    let lines: Vec<&str> = text.lines().collect();
    // Title, komi, date and time are never empty (ngf2sgf needs numbers, KaTrain a title).
    for i in [0, 1, 5, 6, 7, 8, 9, 11] {
        assert!(!lines[i].trim().is_empty(), "line {}: {text}", i + 1);
    }
    let warnings: Vec<&str> =
        out.diagnostics.iter().filter(|d| d.severity == Severity::Warning).map(|d| d.message.as_str()).collect();
    assert_eq!(
        warnings,
        [
            "WR[NR] is not a rank NGF can hold; not written",
            "no KM: NGF cannot leave the komi unknown; written as komi 0 (reads back as KM[0])",
            "move 1: comment not written"
        ]
    );
    // Read back: no invented title, date or time; the names whole; three moves.
    let back = ngf().read(out.bytes, &ReadOptions::default()).unwrap();
    let g = &back.collection.games[0];
    let r = g.root();
    assert_eq!((r.value("GN"), r.value("DT"), r.value("TM")), (None, None, None));
    assert_eq!(
        (r.value("PB"), r.value("BR"), r.value("PW"), r.value("WR")),
        (Some("GNU Go 3.8"), None, Some("Kim Su"), None)
    );
    assert_eq!((r.value("HA"), r.points_of("AB").count()), (Some("2"), 2));
    assert_eq!(g.main_line_moves(), 3);
    assert!(!text.contains('\0'));
}
