//! Many inputs at once: a rayon pool working with the GIL released, results in input order, and
//! a guard so that a panic on one input becomes that input's error.

use kifu::{Diagnostic, ReadError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

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
        Ok(Err(ReadError { diagnostics: vec![Diagnostic::error(PANIC, message)] }))
    })
}

/// `f` over every item on `threads` threads (all cores when None), the GIL released, results in
/// input order.
pub fn map<I: Sync, T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    items: &[I],
    f: impl Fn(&I) -> T + Sync + Send,
) -> PyResult<Vec<T>> {
    let pool = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
        ),
        None => None,
    };
    Ok(py.detach(|| {
        let run = || items.par_iter().map(&f).collect::<Vec<T>>();
        match &pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }))
}
