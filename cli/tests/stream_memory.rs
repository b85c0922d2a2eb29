//! A large collection converts in bounded memory (its own test binary, see
//! [`peak_kib_of`]).

mod common;

use common::{big_collection, kifu_binary};
use kifu::{Format, ReadOptions, WriteOptions};

/// Runs `cmd` through `sh` and returns its output and the peak resident memory, in KiB, of this
/// process's finished children (`RUSAGE_CHILDREN`: the largest of them so far, an upper bound on
/// this child's peak). A child's peak includes this process's own peak when it was spawned (Linux
/// carries the old memory's high-water mark over `exec`), so the test runs in a binary of its
/// own: beside other tests holding large inputs, the figure would be theirs.
fn peak_kib_of(cmd: &str) -> (std::process::Output, u64) {
    let out = std::process::Command::new("sh").arg("-c").arg(cmd).output().unwrap();
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    (out, usage.ru_maxrss as u64)
}

#[cfg(target_os = "linux")]
#[test]
fn a_large_collection_converts_in_bounded_memory_with_the_same_bytes() {
    let (kifu, release) = kifu_binary();
    // The debug binary is ~20x slower: a smaller input that still streams (> 16 MiB).
    let size = if release { 200 << 20 } else { 17 << 20 };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.sgf");
    let game = big_collection(&input, size);
    let output = dir.path().join("out.sgf");
    let cmd = format!("{} convert -q {} -o {}", kifu.display(), input.display(), output.display());
    let (out, peak) = peak_kib_of(&cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    eprintln!("{} bytes in {}: peak {peak} KiB", size, if release { "release" } else { "debug" });
    assert!(peak < 96 * 1024, "peak {peak} KiB for a {size}-byte input");
    // Same bytes as the collection API gives for the same games.
    let one = Format::SGF.read(game.clone(), &ReadOptions::default()).unwrap();
    let one = Format::SGF.write(&one.collection, &WriteOptions::default()).unwrap().bytes;
    let written = std::fs::read(&output).unwrap();
    let games = size.div_ceil(game.len());
    let mut expected = one.clone();
    for _ in 1..games {
        expected.push(b'\n');
        expected.extend_from_slice(&one);
    }
    assert_eq!(written.len(), expected.len());
    assert!(written == expected, "streamed output differs from the games written one by one");
}
