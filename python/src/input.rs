//! What `kifu.read` and `kifu.read_table` accept: a path, bytes, or a binary file object (and,
//! for a table, an iterable of them).

use crate::adapter;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};
use std::io;
use std::path::{Path, PathBuf};

/// An input: a file to read, or bytes already in memory (with the file name they came from,
/// when known, for the format's extension).
#[derive(Clone)]
pub enum Input {
    /// A path (`str` or `os.PathLike`).
    Path(PathBuf),
    /// Bytes, and the name of the file object they were read from.
    Bytes(Vec<u8>, Option<PathBuf>),
}

impl Input {
    /// The path named or the file object's name, for messages and the format's extension.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Input::Path(p) => Some(p),
            Input::Bytes(_, name) => name.as_deref(),
        }
    }

    /// What `read` gives for the input's bytes and the path they came from: a path's file is
    /// read first (the outer error is the file system's), bytes are taken as they are.
    pub fn read_with<T>(self, read: impl FnOnce(Vec<u8>, Option<&Path>) -> T) -> io::Result<T> {
        match self {
            Input::Path(p) => Ok(read(adapter::read_file(&p)?, Some(&p))),
            Input::Bytes(b, name) => Ok(read(b, name.as_deref())),
        }
    }
}

/// Reads `source` into an [`Input`]: `bytes`, `bytearray` and `memoryview` as they are, a `str`
/// or `os.PathLike` as a path, anything with `read()` as a binary file object.
pub fn input(source: &Bound<'_, PyAny>) -> PyResult<Input> {
    if let Ok(b) = source.cast::<PyBytes>() {
        return Ok(Input::Bytes(b.as_bytes().to_vec(), None));
    }
    if let Ok(b) = source.cast::<PyByteArray>() {
        return Ok(Input::Bytes(b.to_vec(), None));
    }
    if source.cast::<PyMemoryView>().is_ok() {
        let b = source.py().get_type::<PyBytes>().call1((source,))?;
        return Ok(Input::Bytes(b.cast::<PyBytes>()?.as_bytes().to_vec(), None));
    }
    if source.cast::<PyString>().is_err() && source.hasattr("read")? {
        let data = source.call_method0("read")?;
        let Ok(bytes) = data.cast::<PyBytes>() else {
            return Err(PyTypeError::new_err(
                "kifu reads binary file objects: open the file with 'rb' (kifu decides the charset itself)",
            ));
        };
        let name = source.getattr("name").ok().and_then(|n| n.extract::<PathBuf>().ok());
        return Ok(Input::Bytes(bytes.as_bytes().to_vec(), name));
    }
    source.extract::<PathBuf>().map(Input::Path).map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a path, bytes or a binary file object, not {}",
            source.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string())
        ))
    })
}

/// The inputs `sources` names: one path, `bytes` or file object ([`input`]), or an iterable of
/// them.
pub fn inputs(sources: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    let single = sources.cast::<PyString>().is_ok()
        || sources.cast::<PyBytes>().is_ok()
        || sources.cast::<PyByteArray>().is_ok()
        || sources.cast::<PyMemoryView>().is_ok()
        || sources.hasattr("__fspath__")?
        || sources.hasattr("read")?;
    if single {
        return Ok(vec![input(sources)?]);
    }
    sources.try_iter()?.map(|item| input(&item?)).collect()
}

/// The items of an iterable of paths (`str` / `os.PathLike`), not yet converted ([`path`]).
pub fn path_items<'py>(items: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if items.cast::<PyString>().is_ok() {
        return Err(PyTypeError::new_err("expected an iterable of paths, not one path"));
    }
    items.try_iter()?.collect()
}

/// The path `item` names (`str` or `os.PathLike`).
pub fn path(item: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    item.extract()
}

/// Whether `text`, given where a path was expected, looks like a game record rather than a
/// path: it starts (after white space) as an SGF game tree (`(;`), a GIB header (`\HS`,
/// `\[GIBKIFU]`), a UGF header (`[Header]`) or kifu's JSON (`{`), or holds a line break.
pub fn looks_like_a_record(text: &str) -> bool {
    let t = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    ["(;", "( ;", "\\HS", "\\[GIBKIFU]", "[Header]", "[HEADER]", "{"].iter().any(|s| t.starts_with(s))
        || text.contains('\n')
}
