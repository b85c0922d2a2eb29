//! Fuzz target `ndjson` (see `fuzz/src/oracle.rs`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kifu_fuzz::run("ndjson", data));
