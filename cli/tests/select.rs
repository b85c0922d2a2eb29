//! Picking, naming and cleaning games, run as a process (formats/archives.md, "Filters" and
//! "Naming"; formats/normalise.md, "Stripping"): filters pick games (not files) in single and
//! batch conversions, `info` and `diagram`; `--name` names outputs from the games, hostile values
//! included, and never leaves -O; `--strip` removes what it names and counts it.

use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/sgf/analysis")).join(name)
}

/// in/coll.sgf (three games), in/sub/one.sgf (the first game again), in/hostile.sgf (names
/// that try to leave the folder or are reserved on Windows).
fn archive() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "in/coll.sgf",
            "(;GM[1]SZ[19]PB[Lee Sedol]PW[Cho Hunhyun]BR[9p]EV[Meijin]RO[3]DT[2001-05-06]RE[B+R];B[pd];W[dd];B[pp])\n\
             (;GM[1]SZ[19]PB[\u{ff2c}\u{ff45}\u{ff45} Changho]PW[Kim]DT[1999-01-02,03]RE[W+2.5];B[pd];W[dd])\n\
             (;GM[1]SZ[9]PB[Kim]PW[Park]DT[2001-07-01]RE[0];B[ee])\n",
        ),
        ("in/sub/one.sgf", "(;GM[1]SZ[19]PB[Lee Sedol]PW[Cho Hunhyun]DT[2001-05-06]RE[B+R];B[pd];W[dd];B[pp])\n"),
        ("in/hostile.sgf", "(;GM[1]PB[../../../escape]PW[CON]EV[a\u{7}b:c*d?]DT[2002-02-02];B[aa])\n"),
    ];
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"))
        .collect();
    out.sort();
    out
}

fn report(text: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(text).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn filters_pick_games_not_files() {
    let dir = archive();
    let out = kifu()
        .current_dir(dir.path())
        .args(["convert", "-r", "in", "-O", "out", "--player", "lee", "--since", "2000", "--report", "-"])
        .assert()
        .success();
    let lines = report(&out.get_output().stdout);
    let coll = lines.iter().find(|l| l["input"] == "in/coll.sgf").unwrap();
    assert_eq!((coll["games"].as_u64(), coll["filtered"].as_u64()), (Some(3), Some(2)));
    let hostile = lines.iter().find(|l| l["input"] == "in/hostile.sgf").unwrap();
    assert_eq!(hostile["status"], "skipped");
    assert_eq!(hostile["diagnostics"][0]["code"], "batch.filtered-out");
    let summary = lines.last().unwrap();
    assert_eq!(summary["filtered"], 3);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("3 games left out by the filters"), "{stderr}");
    assert_eq!(files_under(&dir.path().join("out")), ["coll.sgf", "sub/one.sgf"]);
    let kept = std::fs::read_to_string(dir.path().join("out/coll.sgf")).unwrap();
    assert_eq!(kept.matches("(;").count(), 1);
    assert!(kept.contains("PB[Lee Sedol]"));

    // The full-width name folds to `lee`; `=` asks for the whole name.
    let info = kifu().current_dir(dir.path()).args(["info", "in/coll.sgf", "--black", "LEE"]).assert().success();
    let text = String::from_utf8_lossy(&info.get_output().stdout).into_owned();
    assert_eq!(text.lines().count(), 3, "{text}");
    let info =
        kifu().current_dir(dir.path()).args(["info", "--json", "in/coll.sgf", "--black", "=lee"]).assert().success();
    assert_eq!(String::from_utf8_lossy(&info.get_output().stdout).lines().count(), 0);
    // Game numbers stay those of the input.
    let info = kifu()
        .current_dir(dir.path())
        .args(["info", "--json", "in/coll.sgf", "--winner", "draw", "--size", "9", "--source-format", "sgf"])
        .assert()
        .success();
    let rec: Value = serde_json::from_slice(&info.get_output().stdout).unwrap();
    assert_eq!((rec["game"].as_u64(), rec["black"].as_str()), (Some(3), Some("Kim")));
    // The span of a DT list: 1999-01-02,03 is on or before 1999-01-02.
    let info = kifu()
        .current_dir(dir.path())
        .args(["info", "in/coll.sgf", "--until", "1999-01-02", "--min-moves", "2", "--max-moves", "2"])
        .assert()
        .success();
    assert_eq!(String::from_utf8_lossy(&info.get_output().stdout).lines().count(), 2);
}

#[test]
fn a_single_conversion_and_a_diagram_take_the_filters() {
    let dir = archive();
    let out = kifu()
        .current_dir(dir.path())
        .args(["convert", "in/coll.sgf", "--white", "park", "-t", "json"])
        .assert()
        .success();
    let doc: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["games"].as_array().unwrap().len(), 1);
    let none =
        kifu().current_dir(dir.path()).args(["convert", "in/coll.sgf", "-o", "x.sgf", "--event", "honinbo"]).assert();
    let stderr = String::from_utf8_lossy(&none.get_output().stderr).into_owned();
    assert!(stderr.contains("no game matches the filters (3 left out)"), "{stderr}");
    assert!(!dir.path().join("x.sgf").exists());
    // --game counts the games kept: the first game of Kim's is game 2 of the file.
    let d = kifu()
        .current_dir(dir.path())
        .args(["diagram", "in/coll.sgf", "--player", "kim", "--game", "2", "-t", "text", "-o", "-"])
        .assert()
        .success();
    let board = String::from_utf8_lossy(&d.get_output().stdout).into_owned();
    assert!(board.starts_with("   A B C D E F G H J"), "a 9×9 board: {board}");
    assert!(!board.contains(" K "), "{board}");
    for bad in [["--since", "2001-13"], ["--winner", "x"], ["--size", "99"], ["--source-format", "sfg"]] {
        kifu().current_dir(dir.path()).args(["info", "in/coll.sgf", bad[0], bad[1]]).assert().code(2);
    }
}

#[test]
fn names_come_from_the_games_and_stay_under_the_output_folder() {
    let dir = archive();
    let out = kifu()
        .current_dir(dir.path())
        .args(["convert", "-r", "in", "-O", "out", "--split", "--name", "{year}/{date}-{black}-{white}"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("batch.name-collision"), "{stderr}");
    assert_eq!(
        files_under(&dir.path().join("out")),
        [
            "1999/1999-01-02-\u{ff2c}\u{ff45}\u{ff45} Changho-Kim.sgf",
            "2001/2001-05-06-Lee Sedol-Cho Hunhyun-2.sgf",
            "2001/2001-05-06-Lee Sedol-Cho Hunhyun.sgf",
            "2001/2001-07-01-Kim-Park.sgf",
            "2002/2002-02-02-.._.._.._escape-CON.sgf",
        ]
    );
    // Nothing was written beside the input and output folders.
    let mut top: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    top.sort();
    assert_eq!(top, ["in", "out"]);

    // A value alone in a part: `..`, a reserved name, forbidden characters, nothing.
    kifu()
        .current_dir(dir.path())
        .args(["convert", "in/hostile.sgf", "-O", "o2", "--name", "{black}/{white}/{event}/{round}"])
        .assert()
        .success();
    assert_eq!(files_under(&dir.path().join("o2")), [".._.._.._escape/_CON/ab_c_d_/unknown.sgf"]);

    // Per input (no --split): the first kept game names the file; {stem} and {n} as given.
    kifu()
        .current_dir(dir.path())
        .args(["convert", "-r", "in", "-O", "o3", "--name", "{stem}-{n}-{result}", "--winner", "B"])
        .assert()
        .success();
    assert_eq!(files_under(&dir.path().join("o3")), ["coll-1-B+R.sgf", "one-1-B+R.sgf"]);
}

#[test]
fn bad_templates_are_usage_errors() {
    let dir = archive();
    for (template, says) in [
        ("{blak}", "did you mean 'black'?"),
        ("../{n}", "'..' part"),
        ("/abs/{n}", "is absolute"),
        ("{n", "unbalanced brace"),
    ] {
        let out = kifu()
            .current_dir(dir.path())
            .args(["convert", "-r", "in", "-O", "out", "--name", template])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(says), "{template}: {stderr}");
    }
    let out =
        kifu().current_dir(dir.path()).args(["convert", "-r", "in", "--merge", "m.sgf", "--name", "{n}"]).assert();
    assert_eq!(out.get_output().status.code(), Some(2));
    assert!(!dir.path().join("m.sgf").exists());
}

#[test]
fn analysis_written_by_lizzie_and_katrain_is_stripped_and_counted() {
    let out = kifu().arg("convert").arg(fixture("lizzie.sgf")).args(["--strip", "analysis"]).assert().success();
    let sgf = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!sgf.contains("LZ[") && !sgf.contains("winrate") && !sgf.contains("playouts"), "{sgf}");
    assert!(sgf.contains("C[A calm answer.]") && sgf.contains("C[a variation of my own]"), "{sgf}");
    assert!(sgf.contains("(;B[pp])"), "the variation stays: {sgf}");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    // Four LZ properties, three comments with Lizzie's note.
    assert!(stderr.contains("kifu: stripped: analysis 7"), "{stderr}");

    let out = kifu()
        .arg("convert")
        .arg(fixture("katrain.sgf"))
        .args(["--strip", "analysis", "--strip", "timing"])
        .assert()
        .success();
    let sgf = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for gone in ["KT[", "KTV[", "BL[", "WL[", "KaTrain 1.14", "Score:", "\u{3164}"] {
        assert!(!sgf.contains(gone), "{gone}: {sgf}");
    }
    assert!(sgf.contains("C[I liked this move]") && sgf.contains("AP[KaTrain:1.14.0]"), "{sgf}");
    assert_eq!(sgf.matches(";B[").count() + sgf.matches(";W[").count(), 3);
}

#[test]
fn main_line_and_other_kinds_in_a_batch_report() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("in")).unwrap();
    std::fs::copy(fixture("lizzie.sgf"), dir.path().join("in/lizzie.sgf")).unwrap();
    std::fs::copy(fixture("katrain.sgf"), dir.path().join("in/katrain.sgf")).unwrap();
    let out = kifu()
        .current_dir(dir.path())
        .args(["convert", "-r", "in", "-O", "out", "--main-line", "--strip", "comments,markup,private"])
        .args(["--report", "-"])
        .assert()
        .success();
    let lines = report(&out.get_output().stdout);
    let lizzie = lines.iter().find(|l| l["input"] == "in/lizzie.sgf").unwrap();
    // The comment inside the cut variation goes with it: counted as the variation only.
    assert_eq!(lizzie["stripped"], serde_json::json!({"comments": 3, "variations": 1}));
    let summary = lines.last().unwrap();
    assert_eq!(summary["stripped"], serde_json::json!({"comments": 6, "variations": 1}));
    let text = std::fs::read_to_string(dir.path().join("out/lizzie.sgf")).unwrap();
    assert!(!text.contains("C[") && !text.contains("B[dd]") && text.contains("LZ["), "{text}");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("kifu: stripped: comments 6, variations 1"), "{stderr}");

    // kifu's own private properties: a converted GIB keeps its header in XGIB, unless stripped.
    let gib = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/gib/even-passes.gib"));
    let kept = kifu().arg("convert").arg(gib).assert().success();
    assert!(String::from_utf8_lossy(&kept.get_output().stdout).contains("XGIB["));
    let out = kifu().arg("convert").arg(gib).args(["--strip", "private"]).assert().success();
    let sgf = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!sgf.contains("XGIB[") && sgf.contains(";B["), "{sgf}");
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("kifu: stripped: private "));
}

#[test]
fn an_archives_members_are_named_from_their_games() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let games = [
        ("a.sgf", "(;GM[1]SZ[19]PB[Lee]PW[Cho]DT[2001-02-03];B[pd])"),
        ("deep/b.sgf", "(;GM[1]SZ[19]PB[Kim]PW[Park]DT[1999-01-01];B[dd])"),
    ];
    for (name, text) in games {
        zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    std::fs::write(dir.path().join("games.zip"), zip.finish().unwrap().into_inner()).unwrap();
    let out = dir.path().join("out");
    kifu()
        .args(["convert", "games.zip", "-O", "out", "--name", "{year}/{black}-{white}"])
        .current_dir(dir.path())
        .assert()
        .success();
    assert_eq!(files_under(&out), ["1999/Kim-Park.sgf", "2001/Lee-Cho.sgf"]);
    let kim = std::fs::read_to_string(out.join("1999/Kim-Park.sgf")).unwrap();
    assert!(kim.contains("PB[Kim]") && kim.contains("B[dd]"), "{kim}");
}

/// The `game` and `black` columns of the Parquet file at `path`.
fn table_games(path: &Path) -> Vec<(u32, String)> {
    use arrow_array::cast::AsArray;
    let file = std::fs::File::open(path).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
    let mut rows = Vec::new();
    for batch in reader.map(Result::unwrap) {
        let games = batch.column_by_name("game").unwrap().as_primitive::<arrow_array::types::UInt32Type>().clone();
        let black = batch.column_by_name("black").unwrap().as_string::<i32>().clone();
        rows.extend(games.values().iter().zip(black.iter()).map(|(g, b)| (*g, b.unwrap_or("").to_string())));
    }
    rows
}

#[test]
fn filters_pick_a_tables_rows_and_each_keeps_its_number_in_its_file() {
    let dir = archive();
    let out = dir.path().join("picked.parquet");
    let mut run = kifu();
    run.arg("convert").arg(dir.path().join("in/coll.sgf")).args(["--size", "19", "--player", "kim", "-o"]);
    let run = run.arg(&out).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    // Of the three games, the second alone is 19×19 with Kim: it stays game 2 of coll.sgf.
    assert_eq!(table_games(&out), [(2, "\u{ff2c}\u{ff45}\u{ff45} Changho".to_string())]);
}
