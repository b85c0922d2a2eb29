//! The command within `kifu::Limits`: sizes from options and inputs past a limit are refused
//! with a one-line error naming it (and the option that raises it), never an abort on a failed
//! allocation. The commands run under `ulimit -v 4000000` (4 GB of address space), where an
//! allocation of the size asked for fails and aborts (rc 134).

mod common;

use common::{kifu_binary, long_game_sgf};
use std::path::Path;
use std::process::Output;

/// Runs `kifu ARGS` through `sh` under `ulimit -v KIB`.
fn kifu_within(kib: u64, args: &str) -> Output {
    let (kifu, _) = kifu_binary();
    let cmd = format!("ulimit -v {kib} && exec {} {args}", kifu.display());
    std::process::Command::new("sh").arg("-c").arg(cmd).output().unwrap()
}

/// The exit code and standard error of `out`.
fn status(out: &Output) -> (Option<i32>, String) {
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Asserts that `out` failed with 65 and one error line `code` naming `limit` (on standard error,
/// or on standard output for `kifu check`, whose findings are its output).
fn refused(out: &Output, code: &str, limit: &str) {
    let (rc, mut err) = status(out);
    err.push_str(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(rc, Some(65), "{err}");
    let line = err.lines().find(|l| l.contains("error[")).unwrap_or_else(|| panic!("no error line: {err}"));
    assert!(line.contains(&format!("error[{code}]")) && line.contains(limit), "{err}");
}

/// A file of one game of `moves` moves ([`long_game_sgf`]).
fn long_game(path: &Path, moves: usize) {
    std::fs::write(path, long_game_sgf(moves) + "\n").unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_png_too_large_for_memory_is_refused_by_max_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("g.sgf");
    long_game(&input, 40);
    let out = dir.path().join("d.png");
    for width in [40_000u64, 100_000, 4_294_967_295] {
        let o =
            kifu_within(4_000_000, &format!("diagram {} -t png --width {width} -o {}", input.display(), out.display()));
        refused(&o, "diagram.too-large", "--max-pixels");
        assert!(!out.exists());
    }
    // The limit is the image's pixels, and --max-pixels sets it.
    let args = format!("diagram {} -t png --width 1200 --force -o {}", input.display(), out.display());
    refused(
        &kifu_within(4_000_000, &format!("{args} --max-pixels 1439999")),
        "diagram.too-large",
        "Limits::max_pixels",
    );
    let o = kifu_within(4_000_000, &format!("{args} --max-pixels 1440000"));
    assert_eq!(status(&o).0, Some(0), "{}", status(&o).1);
    let png = std::fs::read(&out).unwrap();
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 1200, "the PNG's width");
}

/// `--figures 1 --page -t png` on a 1,000-move game: a page of about 662 × 705,000 pixels (1.9 GB),
/// whose SVG was parsed whole (2.5 GB) before the image's allocation aborted.
#[cfg(target_os = "linux")]
#[test]
fn a_page_of_a_thousand_figures_is_refused_or_drawn_within_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("long.sgf");
    long_game(&input, 1_000);
    let out = dir.path().join("page.png");
    let page = format!("diagram {} --figures 1 --page -t png -o {}", input.display(), out.display());
    let started = std::time::Instant::now();
    let o = kifu_within(4_000_000, &page);
    refused(&o, "diagram.too-large", "--max-pixels");
    assert!(status(&o).1.contains("a 662x"), "{}", status(&o).1);
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    assert!(!out.exists());
    refused(&kifu_within(4_000_000, &format!("{page} --max-figures 999")), "diagram.too-many-figures", "--max-figures");
    // A page the limit allows is drawn one figure at a time: 10 figures of 100 moves.
    let o = kifu_within(
        4_000_000,
        &format!("diagram {} --figures 100 --page -t png --width 100 -o {}", input.display(), out.display()),
    );
    assert_eq!(status(&o).0, Some(0), "{}", status(&o).1);
    let png = std::fs::read(&out).unwrap();
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 100);
    assert!(u32::from_be_bytes(png[20..24].try_into().unwrap()) > 10 * 100);
}

/// NDJSON lines of one game each; line `big` holds `moves` moves.
fn ndjson(path: &Path, lines: usize, big: usize, moves: usize) {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for k in 0..lines {
        f.write_all(br#"{"nodes":[{"GM":["1"],"SZ":["19"]}"#).unwrap();
        let n = if k == big { moves } else { 3 };
        for _ in 0..n / 2 {
            f.write_all(br#",{"B":["pd"]},{"W":["dp"]}"#).unwrap();
        }
        f.write_all(b"]}\n").unwrap();
    }
}

#[test]
fn a_record_past_max_record_is_refused_whole_and_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.ndjson");
    ndjson(&small, 20, 10, 20_000);
    let out = dir.path().join("out.sgf");
    let convert = |input: &Path, extra: &str| {
        kifu_within(4_000_000, &format!("convert {} -o {} {extra}", input.display(), out.display()))
    };
    refused(&convert(&small, "--max-record 100000"), "input.record-too-large", "--max-record");
    assert!(!out.exists());
    let o = kifu_within(4_000_000, &format!("check {} --max-record 100000", small.display()));
    refused(&o, "input.record-too-large", "Limits::max_record");
    assert_eq!(status(&convert(&small, "--max-record 1000000")).0, Some(0));
    std::fs::remove_file(&out).unwrap();

    // Streamed (over 16 MiB): refused where the line starts, nothing written.
    let large = dir.path().join("large.ndjson");
    ndjson(&large, 400_000, 150_000, 200_000);
    assert!(std::fs::metadata(&large).unwrap().len() > 16 << 20);
    let o = convert(&large, "--max-record 1000000");
    refused(&o, "input.record-too-large", "--max-record");
    assert!(!out.exists(), "no partial output");
    let start = std::fs::read(&large).unwrap().split(|&b| b == b'\n').take(150_000).map(|l| l.len() + 1).sum::<usize>();
    assert!(status(&o).1.contains(&format!("from byte {start} ")), "{}", status(&o).1);
}

/// The default limit (128 MiB): a line of moves a little over it (reading it whole took about
/// 12 times its size) is refused after 128 MiB is held, within 1.5 GB of address space.
#[cfg(target_os = "linux")]
#[test]
fn the_default_max_record_holds_a_line_of_moves_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("moves.ndjson");
    ndjson(&input, 2, 0, 11_000_000);
    assert!(std::fs::metadata(&input).unwrap().len() > 135 << 20);
    let out = dir.path().join("out.sgf");
    let o = kifu_within(1_500_000, &format!("convert {} -o {}", input.display(), out.display()));
    refused(&o, "input.record-too-large", "134217728");
    let o = kifu_within(1_500_000, &format!("check {}", input.display()));
    refused(&o, "input.record-too-large", "134217728");
}
