//! `kifu dedup`, `kifu stats` and `convert --dedup` (formats/archives.md, "Duplicates" and
//! "Statistics") on fixtures/dedup: one game as SGF (`site.sgf`, the most information and a
//! comment), GIB, NGF, a copy turned a quarter (`book-rotated.sgf`), a mirrored copy as the second
//! game of a collection, an unfinished download cut after 26 moves, and two games that are not
//! copies (another game, and the same moves from two handicap stones).

use pretty_assertions::assert_eq;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/dedup")
}

fn stdout(args: &[&str]) -> (String, i32) {
    let out = kifu().args(args).output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code().unwrap())
}

/// The name of a copy: its file name, with `#N` for a game of a collection.
fn copy_name(c: &Value) -> String {
    let file = Path::new(c["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
    if file == "collection.sgf" { format!("{file}#{}", c["game"]) } else { file }
}

#[test]
fn the_copies_of_one_game_make_one_group_whatever_their_format_and_orientation() {
    let dir = fixtures();
    let (out, code) = stdout(&["dedup", "-r", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let groups: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(groups.len(), 1, "{out}");
    let g = &groups[0];
    assert_eq!(g["kept_because"], "most-comments");
    let copies: Vec<(String, String, String, u64)> = g["copies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (copy_name(c), s("relation"), s("orientation"), c["moves"].as_u64().unwrap())
        })
        .collect();
    let want = |n: &str, r: &str, o: &str, m: u64| (n.to_string(), r.to_string(), o.to_string(), m);
    assert_eq!(
        copies,
        [
            want("site.sgf", "kept", "same", 40),
            want("tygem.gib", "same", "same", 40),
            want("server.ngf", "same", "same", 40),
            want("collection.sgf#2", "same", "mirrored-left-right", 40),
            want("book-rotated.sgf", "same", "rotated-90", 40),
            want("download-cut.sgf", "prefix", "same", 26),
        ]
    );
    // The text form: one line for the group, the kept copy first.
    let (text, _) = stdout(&["dedup", "-r", dir.to_str().unwrap()]);
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("site.sgf: kept (40 moves, most-comments); same: "), "{text}");
    assert!(text.contains("collection.sgf#2 (mirrored-left-right)"), "{text}");
    assert!(text.contains("; prefix: ") && text.contains("download-cut.sgf (26 moves)"), "{text}");
}

#[test]
fn a_rotated_unfinished_copy_inside_a_zip_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let site = std::fs::read_to_string(fixtures().join("site.sgf")).unwrap();
    // The first 30 moves, turned a half turn, as a member of a zip.
    let game = kifu::read(site.as_bytes()).unwrap().collection.games.remove(0);
    let mut text = String::from("(;SZ[19]");
    for node in game.main_line().filter_map(|n| n.mv()).take(30) {
        let (color, mv) = node;
        let p = mv.point().unwrap();
        let l = |c: u8| (b'a' + 18 - c) as char;
        text.push_str(&format!(";{}[{}{}]", color.as_sgf(), l(p.x), l(p.y)));
    }
    text.push(')');
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("club/cut.sgf", zip::write::SimpleFileOptions::default()).unwrap();
    zip.write_all(text.as_bytes()).unwrap();
    std::fs::write(dir.path().join("games.zip"), zip.finish().unwrap().into_inner()).unwrap();
    std::fs::write(dir.path().join("site.sgf"), &site).unwrap();
    let (out, code) = stdout(&["dedup", "-r", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let g: Value = serde_json::from_str(out.trim()).unwrap();
    let second = &g["copies"][1];
    assert!(second["file"].as_str().unwrap().ends_with("games.zip!/club/cut.sgf"), "{g}");
    assert_eq!((second["relation"].as_str(), second["orientation"].as_str()), (Some("prefix"), Some("rotated-180")));
    // Below the shortest prefix asked for, it is no copy.
    let (out, _) = stdout(&["dedup", "-r", dir.path().to_str().unwrap(), "--min-prefix", "31"]);
    assert_eq!(out, "");
}

#[test]
fn stats_count_the_archive() {
    let dir = fixtures();
    let (out, code) = stdout(&["stats", "-r", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((s["files"].as_u64(), s["games"].as_u64()), (Some(7), Some(8)));
    assert_eq!(s["formats"]["sgf"], serde_json::json!({"files": 5, "games": 6}));
    assert_eq!(s["formats"]["gib"]["games"], 1);
    assert_eq!(s["dates"]["first"], "2019-04-12");
    assert_eq!(s["dates"]["last"], "2020-01-02");
    assert_eq!(s["dates"]["years"], serde_json::json!({"2019": 4, "2020": 1}));
    assert_eq!(s["players"]["most_games"][0], serde_json::json!({"name": "Kato Aya", "games": 7}));
    assert_eq!(s["results"], serde_json::json!({"black": 2, "white": 3, "draw": 0, "void": 0, "unknown": 3}));
    assert_eq!(s["handicap"], 1);
    assert_eq!(s["damage"]["repaired"], 1);
    assert_eq!(s["damage"]["codes"][0]["code"], "sgf.missing-close");
    assert_eq!(s["duplicates"], serde_json::json!({"groups": 1, "copies": 6, "redundant": 5, "prefixes": 1}));
    let charsets: u64 = s["charsets"].as_array().unwrap().iter().map(|c| c["files"].as_u64().unwrap()).sum();
    assert_eq!(charsets, 7);
    let (text, _) = stdout(&["stats", "-r", dir.to_str().unwrap()]);
    assert!(text.contains("duplicates  1 groups, 6 copies, 5 not kept (1 unfinished)"), "{text}");
    assert!(text.contains("results     B 2, W 3, draw 0, void 0, unknown 3"), "{text}");
}

#[test]
fn convert_dedup_writes_each_game_once_and_names_the_kept_copy() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("o");
    let report = out.path().join("report.ndjson");
    let run = kifu()
        .args(["convert", "-r", fixtures().to_str().unwrap(), "-O", o.to_str().unwrap(), "--dedup", "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let mut written: Vec<String> =
        std::fs::read_dir(&o).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    written.sort();
    assert_eq!(written, ["collection.sgf", "handicap.sgf", "site.sgf"]);
    // The collection keeps its other game only.
    let kept = std::fs::read_to_string(o.join("collection.sgf")).unwrap();
    assert_eq!(kept.matches("(;").count(), 1);
    assert!(kept.contains("PB[Sato]"));
    let records: Vec<Value> =
        std::fs::read_to_string(&report).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let skipped: Vec<&Value> = records.iter().filter(|r| r["status"] == "skipped").collect();
    assert_eq!(skipped.len(), 4);
    for r in skipped {
        let d = r["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "batch.duplicate").unwrap();
        assert!(d["message"].as_str().unwrap().contains("site.sgf"), "{d}");
    }
}

#[test]
fn exit_codes_follow_the_table() {
    let dir = fixtures();
    // A folder without -r is a usage error; a missing input is 66.
    assert_eq!(stdout(&["dedup", dir.to_str().unwrap()]).1, 2);
    assert_eq!(stdout(&["stats", "no/such/file.sgf"]).1, 66);
    // An input that cannot be read is counted, and the run exits 1.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.sgf"), "(;B[aa])").unwrap();
    std::fs::write(tmp.path().join("b.gib"), "not a gib at all").unwrap();
    let (out, code) = stdout(&["stats", "-r", tmp.path().to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((s["files"].as_u64(), s["damage"]["failed"].as_u64()), (Some(2), Some(1)));
}

#[test]
fn filters_pick_the_games_dedup_and_stats_look_at_keeping_their_numbers() {
    let dir = fixtures();
    let dir = dir.to_str().unwrap();
    // --min-moves 30 leaves out the 26-move download (and the short first game of the collection)
    let (out, code) = stdout(&["dedup", "-r", dir, "--json", "--min-moves", "30"]);
    assert_eq!(code, 0);
    let groups: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(groups.len(), 1, "{out}");
    let names: Vec<String> = groups[0]["copies"].as_array().unwrap().iter().map(copy_name).collect();
    assert!(!names.contains(&"download-cut.sgf".to_string()), "{names:?}");
    // the mirrored copy keeps its number in its file although the first game was left out
    assert!(names.contains(&"collection.sgf#2".to_string()), "{names:?}");
    let err = kifu().args(["dedup", "-r", dir, "--min-moves", "30"]).output().unwrap().stderr;
    assert!(String::from_utf8_lossy(&err).contains("left out by the filters"));
    // stats count only the games the filters keep
    let (out, _) = stdout(&["stats", "-r", dir, "--json", "--player", "Sato"]);
    let stats: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["games"], 1, "{out}");
}
