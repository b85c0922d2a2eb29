//! Runs whose inputs all go into one output (`--merge FILE`, `--merge -`, a table), run as a
//! process: written as the inputs are read, in their order, with few large row groups for a
//! table, the format taken from the merged file's name, and a closed standard output ending the
//! run quietly.

use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;
use std::path::Path;

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

/// `n` small games under `root/in`, one a file, in nested folders; a damaged file among them.
fn inputs(root: &Path, n: usize) -> std::path::PathBuf {
    let dir = root.join("in");
    for i in 0..n {
        let sub = dir.join(format!("{:02}", i % 7));
        std::fs::create_dir_all(&sub).unwrap();
        let moves: String =
            (0..(i % 40 + 1)).map(|m| format!(";{}[{}]", ["B", "W"][m % 2], ["pd", "dp", "dd", "pp"][m % 4])).collect();
        std::fs::write(sub.join(format!("g{i:04}.sgf")), format!("(;GM[1]SZ[19]PB[Black {i}]PW[White]{moves})\n"))
            .unwrap();
    }
    std::fs::write(dir.join("damaged.sgf"), "no game here").unwrap();
    dir
}

fn report(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn many_inputs_make_one_table_with_few_row_groups_and_every_game() {
    let t = tempfile::tempdir().unwrap();
    let dir = inputs(t.path(), 600);
    let out = t.path().join("all.parquet");
    // The format is the merged file's: no -t.
    let run = kifu()
        .args(["convert", "-r"])
        .arg(&dir)
        .arg("--merge")
        .arg(&out)
        .arg("--report")
        .arg(t.path().join("r.ndjson"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    let builder = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(builder.metadata().file_metadata().num_rows(), 600);
    // Each input its own row group would be 600: small inputs are gathered.
    assert_eq!(builder.metadata().num_row_groups(), 1);
    let batches: Vec<_> = builder.build().unwrap().map(Result::unwrap).collect();
    let files: Vec<String> = batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name("file").unwrap();
            let c = arrow_array::cast::AsArray::as_string::<i32>(c);
            c.iter().map(|s| s.unwrap().to_string()).collect::<Vec<_>>()
        })
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "rows in the inputs' (path) order");
    let records = report(&t.path().join("r.ndjson"));
    let merged = records.iter().find(|r| r["type"] == "merge").unwrap();
    assert_eq!((merged["games"].as_u64(), merged["inputs"].as_u64()), (Some(600), Some(600)));
    let damaged = records.iter().find(|r| r["input"].as_str().is_some_and(|i| i.ends_with("damaged.sgf"))).unwrap();
    assert!(damaged.to_string().contains("batch.not-merged"), "{damaged}");
}

/// The column `name` of every row of the Parquet file at `path`, as text (a number's digits).
fn column(path: &Path, name: &str) -> Vec<String> {
    use arrow_array::cast::AsArray;
    let builder = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let batches: Vec<_> = builder.build().unwrap().map(Result::unwrap).collect();
    let text = |b: &arrow_array::RecordBatch, i| {
        let c = b.column_by_name(name).unwrap();
        match c.as_primitive_opt::<arrow_array::types::UInt32Type>() {
            Some(n) => n.value(i).to_string(),
            None => c.as_string::<i32>().value(i).to_string(),
        }
    };
    batches.iter().flat_map(|b| (0..b.num_rows()).map(move |i| text(b, i))).collect()
}

#[test]
fn a_table_keeps_the_games_that_filters_duplicates_and_strip_leave() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("in");
    std::fs::create_dir(&dir).unwrap();
    let long = "(;GM[1]SZ[19]PB[Ann]PW[Bo];B[pd]C[first];W[dp];B[pp])";
    std::fs::write(dir.join("a.sgf"), format!("(;GM[1]SZ[19]PB[Cy]PW[Di];B[dd]){long}")).unwrap();
    std::fs::write(dir.join("b.sgf"), long).unwrap();
    std::fs::write(dir.join("c.sgf"), "(;GM[1]SZ[19]PB[Eve]PW[Fay])").unwrap();
    let out = t.path().join("kept.parquet");
    let run = kifu()
        .args(["convert", "-r", "--min-moves", "2", "--dedup", "--strip", "comments"])
        .arg(&dir)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(t.path().join("r.ndjson"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    // The long game of a.sgf alone: the short one filtered out, b.sgf's copy of it a duplicate,
    // c.sgf's game filtered out; it keeps its number in its file, and loses its comment.
    assert_eq!(column(&out, "black"), ["Ann"]);
    assert_eq!(column(&out, "game"), ["2"]);
    assert!(column(&out, "file")[0].ends_with("a.sgf"));
    assert!(!column(&out, "sgf")[0].contains("C["), "{:?}", column(&out, "sgf"));
    let records = report(&t.path().join("r.ndjson"));
    let of = |name: &str| records.iter().find(|r| r["input"].as_str().is_some_and(|i| i.ends_with(name))).unwrap();
    assert_eq!(of("a.sgf")["filtered"], 1, "{}", of("a.sgf"));
    assert!(of("b.sgf").to_string().contains("batch.duplicate"), "{}", of("b.sgf"));
    assert!(of("c.sgf").to_string().contains("batch.filtered-out"), "{}", of("c.sgf"));
    let merged = records.iter().find(|r| r["type"] == "merge").unwrap();
    assert_eq!(merged["games"], 1, "{merged}");
}

#[test]
fn the_merged_file_names_its_format_and_holds_the_inputs_in_order() {
    let t = tempfile::tempdir().unwrap();
    let dir = inputs(t.path(), 120);
    let out = t.path().join("all.ndjson");
    kifu().args(["convert", "-r", "-q"]).arg(&dir).arg("--merge").arg(&out).assert().code(1);
    let text = std::fs::read_to_string(&out).unwrap();
    let blacks: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["info"]["black"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(blacks.len(), 120);
    let mut expected: Vec<(String, String)> =
        (0..120).map(|i| (format!("{:02}/g{i:04}.sgf", i % 7), format!("Black {i}"))).collect();
    expected.sort();
    assert_eq!(blacks, expected.into_iter().map(|(_, b)| b).collect::<Vec<_>>());
}

#[test]
fn a_closed_standard_output_ends_the_merge_quietly() {
    let t = tempfile::tempdir().unwrap();
    let dir = inputs(t.path(), 3000);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("kifu"))
        .args(["convert", "-r", "-t", "ndjson", "--report"])
        .arg(t.path().join("r.ndjson"))
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    assert_eq!(&first[..10], b"{\"format\":");
    drop(child.stdout.take());
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(!stderr.contains("cannot write"), "{stderr}");
    let records = report(&t.path().join("r.ndjson"));
    let closed = records.iter().filter(|r| r.to_string().contains("batch.stdout-closed")).count();
    assert!(closed > 0, "the inputs after the reader left are not read");
    assert_eq!(records.iter().filter(|r| r["type"] == "file").count(), 3001);
}
