//! Many inputs at once: the inputs read in chunks on a rayon pool with the GIL released while the
//! calling thread turns the chunks already read into Python objects, in input order; and a guard
//! so that a panic on one input becomes that input's error.

use kifu::{Diagnostic, ReadError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::{Scope, ThreadPool};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, mpsc};

/// Diagnostic code of an input on which kifu panicked (a bug in kifu, reported as a read error).
pub const PANIC: &str = "internal.panic";

/// Runs `f`; a panic becomes a `ReadError` with an `internal.panic` diagnostic.
pub fn guard<T, E>(f: impl FnOnce() -> Result<Result<T, ReadError>, E>) -> Result<Result<T, ReadError>, E> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".into());
        let message = format!("kifu failed on this input (a bug in kifu, please report it): {what}");
        Ok(Err(ReadError::new(vec![Diagnostic::error(PANIC, message)])))
    })
}

/// The process that imported the module ([`note_home`]).
static HOME: OnceLock<u32> = OnceLock::new();

/// Notes the importing process, before any child is made by `fork`.
pub fn note_home() {
    HOME.get_or_init(std::process::id);
}

/// Runs `f` with the GIL released. In a child made by `fork`, it runs on the binding's own pool:
/// the library splits large inputs over rayon's global pool, whose threads stayed in the parent,
/// so there that work would wait for ever.
pub fn detach<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    if HOME.get() == Some(&std::process::id()) {
        return Ok(py.detach(f));
    }
    let pool = pool(None)?;
    Ok(py.detach(|| pool.install(f)))
}

/// The pools made so far, by thread count (None: rayon's default, one thread per core or
/// `RAYON_NUM_THREADS`), kept for the process's life (idle threads sleep), and the process they
/// were made in.
static POOLS: Mutex<Pools> = Mutex::new(Pools { process: 0, pools: Vec::new() });

struct Pools {
    process: u32,
    pools: Vec<(Option<usize>, Arc<ThreadPool>)>,
}

/// The pool of `threads` threads. Not rayon's global pool: a child made by `fork` (Python's
/// `multiprocessing` on Linux) has none of its parent's threads, so it makes pools of its own.
fn pool(threads: Option<usize>) -> PyResult<Arc<ThreadPool>> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let mut made = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if made.process != std::process::id() {
        // The parent's pools: their threads are not in this process (and their locks may be
        // held), so they are left alone, never dropped.
        std::mem::forget(std::mem::take(&mut made.pools));
        made.process = std::process::id();
    }
    if let Some((_, pool)) = made.pools.iter().find(|(n, _)| *n == threads) {
        return Ok(Arc::clone(pool));
    }
    // Threads named `kifu-N-i` (`kifu-i` for the default pool), for whoever lists threads.
    let name = threads.map_or_else(|| "kifu".to_string(), |n| format!("kifu-{n}"));
    let builder = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0));
    let pool = builder.thread_name(move |i| format!("{name}-{i}")).build();
    let pool = Arc::new(pool.map_err(|e| PyRuntimeError::new_err(e.to_string()))?);
    made.pools.push((threads, Arc::clone(&pool)));
    Ok(pool)
}

/// Most items a pool thread takes at once: enough to make a chunk's overhead (a job, a channel,
/// pausing the collector) negligible, few enough that the objects of the first chunk are being
/// built soon.
const CHUNK: usize = 64;

/// The chunk size for `n` items on `workers` threads: at least four chunks per thread (so that a
/// few inputs still spread over every thread), at most [`CHUNK`] items.
fn chunk_size(n: usize, workers: usize) -> usize {
    (n / (4 * workers.max(1))).clamp(1, CHUNK)
}

/// `f` over every source (as `convert` makes it into an item) on `threads` threads (all cores
/// when None) with the GIL released, and `build` over every item and its result in input order,
/// on the calling thread with the GIL held. The calling thread converts the sources chunk by chunk,
/// each chunk going to the pool as soon as it is converted, then takes the chunks' results in
/// order (Python's cyclic collector paused meanwhile, [`GcPause`]) while the pool reads the next
/// ones. On an error of `convert` or `build`, the chunks not begun are not read, and the error is
/// returned once the ones being read are done.
pub fn pipeline<'py, S, I: Send, T: Send>(
    py: Python<'py>,
    threads: Option<usize>,
    sources: &[S],
    convert: impl Fn(&S) -> PyResult<I>,
    f: impl Fn(&I) -> T + Sync + Send,
    build: impl FnMut(&I, T) -> PyResult<()>,
) -> PyResult<()> {
    let pool = pool(threads)?;
    let gc = py.import("gc")?;
    let size = chunk_size(sources.len(), pool.current_num_threads());
    let stop = AtomicBool::new(false);
    let chunks = Chunks { f: &f, stop: &stop };
    pool.in_place_scope(|scope| {
        let done = chunks.run(scope, &gc, sources.chunks(size), convert, build);
        stop.store(true, Ordering::Relaxed);
        done
    })
}

/// The work of [`pipeline`] within a rayon scope.
struct Chunks<'a, F> {
    f: &'a F,
    /// Set once the calling thread is done (or failed): the chunks not begun are not read.
    stop: &'a AtomicBool,
}

/// A chunk's items and their results, from the pool to the calling thread.
type Done<I, T> = mpsc::Receiver<(Vec<I>, Vec<T>)>;

impl<'a, F> Chunks<'a, F> {
    fn run<'s, S: 's, I: Send + 'a, T: Send + 'a>(
        self,
        scope: &Scope<'a>,
        gc: &Bound<'_, PyModule>,
        sources: impl Iterator<Item = &'s [S]>,
        convert: impl Fn(&S) -> PyResult<I>,
        mut build: impl FnMut(&I, T) -> PyResult<()>,
    ) -> PyResult<()>
    where
        F: Fn(&I) -> T + Sync,
    {
        let Chunks { f, stop } = self;
        let mut pending: Vec<Done<I, T>> = Vec::new();
        for chunk in sources {
            let items = chunk.iter().map(&convert).collect::<PyResult<Vec<I>>>()?;
            let (send, receive) = mpsc::sync_channel(1);
            pending.push(receive);
            scope.spawn(move |_| {
                if !stop.load(Ordering::Relaxed) {
                    let results = items.iter().map(f).collect();
                    // The receiver is gone only when the calling thread failed: nothing to do.
                    let _ = send.send((items, results));
                }
            });
        }
        let py = gc.py();
        pending.into_iter().try_for_each(|receive| {
            // Waiting for a chunk releases the GIL; one already read is taken at once.
            let (items, results) = match receive.try_recv() {
                Ok(done) => done,
                Err(_) => py
                    .detach(move || receive.recv())
                    .map_err(|_| PyRuntimeError::new_err("a reading thread of kifu stopped without a result"))?,
            };
            let _paused = GcPause::new(gc)?;
            items.iter().zip(results).try_for_each(|(item, result)| build(item, result))
        })
    }
}

/// Python's cyclic garbage collector switched off while this lives, if it was on: building
/// thousands of objects would otherwise run it again and again over the young ones.
struct GcPause<'py>(Option<Bound<'py, PyModule>>);

impl<'py> GcPause<'py> {
    fn new(gc: &Bound<'py, PyModule>) -> PyResult<GcPause<'py>> {
        if !gc.call_method0("isenabled")?.is_truthy()? {
            return Ok(GcPause(None));
        }
        gc.call_method0("disable")?;
        Ok(GcPause(Some(gc.clone())))
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            if let Err(e) = gc.call_method0("enable") {
                e.write_unraisable(gc.py(), None);
            }
        }
    }
}
