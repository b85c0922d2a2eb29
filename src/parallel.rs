//! The thread pool the library's parallel work runs on: with the feature `parallel`, rayon's
//! current pool (the global one, or the one a caller installed); without it, the calling thread
//! alone. Every parallel path has a sequential one giving the same results, taken when the pool
//! has one thread.

/// The threads of the pool the caller runs on (1 without the feature `parallel`).
pub(crate) fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}
