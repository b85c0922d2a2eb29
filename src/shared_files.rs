//! Test support: the SGF files of `../shared`, for tests that check two ways of reading agree on
//! real files.

use std::path::Path;

/// Calls `f` with the path and bytes of every `.sgf` file under `../shared` (links followed) and
/// returns how many; `None`, with a printed note, when `../shared` is absent.
pub(crate) fn each_shared_sgf(mut f: impl FnMut(&Path, Vec<u8>)) -> Option<usize> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if !dir.exists() {
        eprintln!("note: {} is absent; skipping this test", dir.display());
        return None;
    }
    let mut n = 0;
    for entry in walkdir::WalkDir::new(&dir).follow_links(true).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if !entry.file_type().is_file() || !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            continue;
        }
        f(path, std::fs::read(path).expect("readable file"));
        n += 1;
    }
    assert!(n > 100, "only {n} SGF files under {}", dir.display());
    Some(n)
}
