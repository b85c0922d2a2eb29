//! The Parquet table (feature `parquet`), read back with the parquet crate's own reader: a
//! collection converted piece by piece holds the rows of the whole read, numbered in input
//! order, with each game's diagnostics.
#![cfg(feature = "parquet")]

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use arrow_array::{Array, RecordBatch};
use kifu::formats::parquet::{ParquetWriter, Source, TableBuilder, batch_of, schema};
use kifu::stream::{self, Parts, StreamOptions};
use kifu::{Format, ReadOptions};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Every row of the Parquet file `bytes`, as batches read by the parquet crate.
fn read_back(bytes: Vec<u8>) -> Vec<RecordBatch> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file_of(&bytes)).unwrap().build().unwrap();
    reader.map(Result::unwrap).collect()
}

/// A temporary file holding `bytes` (what the parquet crate's reader reads from).
fn file_of(bytes: &[u8]) -> std::fs::File {
    use std::io::{Seek, Write};
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(bytes).unwrap();
    f.rewind().unwrap();
    f
}

fn strings(batches: &[RecordBatch], column: &str) -> Vec<Option<String>> {
    batches
        .iter()
        .flat_map(|b| b.column_by_name(column).unwrap().as_string::<i32>().iter().map(|s| s.map(str::to_string)))
        .collect()
}

fn numbers(batches: &[RecordBatch], column: &str) -> Vec<u32> {
    batches
        .iter()
        .flat_map(|b| b.column_by_name(column).unwrap().as_primitive::<UInt32Type>().values().to_vec())
        .collect()
}

/// `n` games, a bad one (an unescaped bracket, an error) every seventh.
fn collection(n: usize) -> String {
    (0..n)
        .map(|i| {
            let comment = if i % 7 == 3 { "C[a]b]" } else { "" };
            format!("(;GM[1]PB[Player {i}]{comment}{})\n", ";B[pd];W[dp]".repeat(i % 13 + 1))
        })
        .collect()
}

#[test]
fn a_collection_converted_in_pieces_reads_back_as_the_whole_read() {
    let text = collection(300);
    let options = ReadOptions::default().with_positions(true);
    let whole = Format::SGF.read(text.clone().into_bytes(), &options).unwrap();
    let expected = read_back(
        kifu::formats::parquet::write_batches(&[
            batch_of(&Source::new(Format::SGF).with_file("c.sgf"), &whole).unwrap()
        ])
        .unwrap(),
    );
    for threads in [1, 2] {
        let parts = Parts::new(Format::SGF, Vec::new(), text.as_bytes(), stream::Cut::Sgf).with_target(4096);
        let opts = StreamOptions::new(Format::PARQUET).with_file(Some("c.sgf".into()));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut out = Vec::new();
        let (summary, result) = pool.install(|| stream::convert(parts, &opts, &mut out));
        result.unwrap();
        assert_eq!(summary.games, 300);
        let got = read_back(out);
        assert_eq!(got[0].schema(), schema());
        assert_eq!(numbers(&got, "game"), (1..=300).collect::<Vec<u32>>(), "{threads} threads");
        for column in ["file", "black", "sgf", "format"] {
            assert_eq!(strings(&got, column), strings(&expected, column), "{column}, {threads} threads");
        }
        for column in ["move_count", "errors", "warnings", "notes"] {
            assert_eq!(numbers(&got, column), numbers(&expected, column), "{column}, {threads} threads");
        }
        // Each bad game carries its own error, and no other game does.
        let warned: Vec<usize> =
            numbers(&got, "errors").iter().enumerate().filter(|(_, w)| **w > 0).map(|(i, _)| i).collect();
        assert_eq!(warned, (0..300).filter(|i| i % 7 == 3).collect::<Vec<_>>());
        let moves: usize = got.iter().map(|b| b.column_by_name("moves").unwrap().as_list::<i32>().values().len()).sum();
        assert_eq!(moves, (0..300).map(|i| 2 * (i % 13 + 1)).sum::<usize>());
    }
}

#[test]
fn row_groups_close_at_their_bound_and_every_row_is_kept() {
    // One game with 1 MB of text that does not compress (letters of a pseudo-random sequence),
    // appended 20 times: about 20 MB of Arrow memory, more than one row group of about 16 MiB.
    let mut state = 12345u64;
    let mut letter = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        char::from(b'a' + (state >> 59) as u8 % 26)
    };
    let comment: String = (0..1_000_000).map(|_| letter()).collect();
    let read = kifu::read(format!("(;GM[1]PB[Ann]C[{comment}];B[pd])").as_bytes()).unwrap();
    let mut table = TableBuilder::new();
    for _ in 0..20 {
        table.append(&Source::new(Format::SGF), &read).unwrap();
    }
    let mut writer = ParquetWriter::new(Vec::new()).unwrap();
    writer.write(&table.finish().unwrap()).unwrap();
    let bytes = writer.finish().unwrap();
    let meta = ParquetRecordBatchReaderBuilder::try_new(file_of(&bytes)).unwrap();
    assert!(meta.metadata().num_row_groups() >= 2, "{} row groups", meta.metadata().num_row_groups());
    let back = read_back(bytes);
    assert_eq!(back.iter().map(RecordBatch::num_rows).sum::<usize>(), 20);
    assert!(strings(&back, "sgf").iter().all(|s| s.as_deref().is_some_and(|s| s.len() > 1_000_000)));
}

#[test]
fn the_registry_writes_a_collection_without_a_source() {
    let read = common::read_sgf("(;GM[1]PB[Ann]RE[B+R];B[pd])(;GM[1]PB[Bo])");
    let out = Format::PARQUET.write(&read.collection, &Default::default()).unwrap();
    let back = read_back(out.bytes);
    assert_eq!(strings(&back, "black"), [Some("Ann".to_string()), Some("Bo".to_string())]);
    assert_eq!(strings(&back, "file"), [None, None]);
    assert!(back[0].column_by_name("format").unwrap().is_null(0));
    assert!(Format::PARQUET.writes_table() && !Format::PARQUET.can_read());
    assert_eq!(Format::from_extension("parquet"), Some(Format::PARQUET));
}
