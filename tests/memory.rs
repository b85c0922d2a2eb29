//! Peak heap memory of the SGF reader on inputs built to exhaust it, measured by a counting
//! allocator (its tests take turns through [`ALONE`], so nothing else allocates while one
//! measures).

use kifu::{Format, ReadOptions};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size);
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held by each test while it runs: one measures at a time.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Heap bytes allocated at the peak of `f`, above what was allocated before it.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

/// `(` × 10,000,000 held 32 bytes of reader state per open variation (a 10 MB input peaked at
/// 336 MB); runs of empty variations are now counted, not stacked (issue 13).
#[test]
fn ten_million_open_variations_take_memory_bounded_by_the_input() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let n = 10_000_000;
    let codes = |r: &kifu::ReadOutput| r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();

    // Left open: read to the end, the depth reported.
    let mut input = vec![b'('; n];
    input.extend_from_slice(b";B[aa]");
    let (read, peak) = peak_during(|| Format::SGF.read(input, &ReadOptions::default()));
    let read = read.expect("the game is kept");
    assert_eq!(read.collection.games[0].len(), 1);
    let close = read.diagnostics.iter().find(|d| d.code == "sgf.missing-close").expect("reported");
    assert!(close.message.contains(&format!("({n} '(' unclosed)")), "{}", close.message);
    assert!(codes(&read).contains(&"sgf.redundant-paren"));
    eprintln!("(  x {n}, left open: peak {peak} bytes above the input");
    assert!(peak < 1 << 20, "peak {peak} bytes for a {n}-byte input");

    // Closed, blanks between the parentheses: each `(` found again when its `)` comes.
    let mut input = b"( ".repeat(n / 2);
    input.extend_from_slice(b";B[aa]");
    input.extend_from_slice(&b")\n".repeat(n / 2));
    let (read, peak) = peak_during(|| Format::SGF.read(input, &ReadOptions::default()));
    let read = read.expect("the game is kept");
    assert_eq!(read.collection.games.len(), 1);
    assert!(!codes(&read).contains(&"sgf.missing-close") && !codes(&read).contains(&"sgf.empty-variation"));
    eprintln!("( x {}, closed: peak {peak} bytes above the input", n / 2);
    assert!(peak < 1 << 20, "peak {peak} bytes for a {n}-byte input");

    // Empty variations closed: each reported at its own `(` (the first 100 shown).
    let input = [b"(;B[aa]".as_slice(), &b"(".repeat(1000), &b")".repeat(1000), b")"].concat();
    let read = Format::SGF.read(input, &ReadOptions::default()).unwrap();
    let empty: Vec<_> = read.diagnostics.iter().filter(|d| d.code == "sgf.empty-variation").collect();
    assert_eq!(empty.len(), 100 + 1, "100 shown, then the count");
    let columns: Vec<u32> = empty.iter().filter_map(|d| d.position.map(|p| p.column)).collect();
    assert_eq!(columns[..3], [1007, 1006, 1005], "innermost first, each at its own '('");
}

/// One game of 20,000 variations, each with root properties out of place (what a collection
/// with an unclosed `(` becomes): repairing it rebuilds the whole tree, which went through a
/// builder's per-node vectors and peaked at about 90 times the input (a 30 MB input took
/// 2.7 GB); it is now written straight into the compact tree.
#[test]
fn a_repaired_tree_of_many_nodes_takes_memory_bounded_by_the_input() {
    let _alone = ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let moves: String = (0..100)
        .map(|i| {
            format!(
                ";{}[{}{}]",
                ["B", "W"][i % 2],
                (b'a' + (i % 19) as u8) as char,
                (b'a' + (i * 7 % 19) as u8) as char
            )
        })
        .collect();
    let game = format!("(;GM[1]FF[4]SZ[19]PB[a]PW[b]{moves})\n");
    let input = format!("(;GM[1]FF[4]SZ[19]\n{}", game.repeat(20_000)).into_bytes();
    let size = input.len();
    let (read, peak) = peak_during(|| Format::SGF.read(input, &ReadOptions::default()));
    let read = read.expect("the game is kept");
    assert_eq!(read.collection.games.len(), 1);
    assert_eq!(read.collection.games[0].len(), 1 + 20_000 * 101);
    assert!(read.diagnostics.iter().any(|d| d.code == "fix.root-property"), "the repair ran");
    eprintln!("20,000 variations to repair, {size} bytes: peak {peak} bytes");
    assert!(peak < 12 * size, "peak {peak} bytes for a {size}-byte input");
}
