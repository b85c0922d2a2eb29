//! Helpers of the command's tests: the library's (tests/common/mod.rs) and the binary under test.
#![allow(dead_code)]

#[path = "../../../tests/common/mod.rs"]
mod library;

pub use library::*;
use std::path::{Path, PathBuf};

/// The release binary when it is at least as new as the debug one under test (fast enough for
/// 200 MB), else the debug binary.
pub fn kifu_binary() -> (PathBuf, bool) {
    let debug = PathBuf::from(env!("CARGO_BIN_EXE_kifu"));
    let release = debug.parent().and_then(|p| p.parent()).map(|t| t.join("release/kifu"));
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match release.filter(|r| modified(r).is_some_and(|t| Some(t) >= modified(&debug))) {
        Some(r) => (r, true),
        None => (debug, false),
    }
}
