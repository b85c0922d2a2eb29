//! kifu's fuzz targets' shared code, kept in `oracle.rs` so that the bounded run in the main
//! crate's `cargo test` (`tests/robustness.rs`) includes the same file by path. See
//! `formats/robustness.md`.

pub mod oracle;

pub use oracle::{TARGETS, run};
