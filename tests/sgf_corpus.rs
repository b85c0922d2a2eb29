//! Robustness over ~10,000 real SGF files (../shared/corpus): every non-empty file reads, and
//! read → write → read gives the same model. Skips when ../shared is absent.

mod common;
use common::{files, shared};
use kifu::formats::sgf::normalize_header;
use kifu::{Format, ReadOptions, Severity, WriteOptions};

#[test]
fn every_corpus_file_reads_and_round_trips() {
    let Some(dir) = shared("corpus") else { return };
    let (mut read_ok, mut nodes_by_folder) = (0, std::collections::BTreeMap::<String, usize>::new());
    for f in files(&dir, &["sgf"]) {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.display().to_string();
        let read = match Format::SGF.read(bytes.clone(), &ReadOptions::default()) {
            Ok(r) => r,
            Err(e) => {
                assert!(bytes.iter().all(u8::is_ascii_whitespace), "{name}: {:?}", e.diagnostics);
                continue;
            }
        };
        read_ok += 1;
        let folder =
            f.strip_prefix(&dir).unwrap().components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        *nodes_by_folder.entry(folder).or_default() += read.collection.games.iter().map(|g| g.len()).sum::<usize>();
        if read.diagnostics.iter().any(|d| d.severity == Severity::Error) {
            continue;
        }
        let out = Format::SGF.write(&read.collection, &WriteOptions::default()).unwrap().bytes;
        let again = Format::SGF.read(out, &ReadOptions::default()).unwrap();
        let mut expected = read.collection.clone();
        for g in &mut expected.games {
            normalize_header(g, "UTF-8");
        }
        assert!(again.collection == expected, "{name}: the round trip changed the model");
    }
    assert!(read_ok > 10_000, "{read_ok}");
    // The manifest's node count for the tsumego folder (its file count matches the disk).
    assert_eq!(nodes_by_folder.get("tsumego_js"), Some(&3179));
}
