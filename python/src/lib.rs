//! kifu for Python: the extension module `kifu._kifu`, re-exported by the `kifu` package.
//!
//! The binding has no conversion logic of its own: reading, writing, charsets and formats are the
//! kifu library's (reached through `adapter`); this crate turns its values into Python objects,
//! runs many inputs in parallel with the GIL released, and never lets a Rust panic through.

#![warn(missing_docs)]

mod adapter;
mod errors;
mod input;
mod moves;
mod parallel;
mod positions;
mod table;
mod values;
mod views;

use adapter::Encoding;
use errors::PyDiagnostic;
use input::Input;
use kifu::{Format, ReadOutput};
use pyo3::exceptions::PyTypeError;
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};
use std::io;
use std::path::{Path, PathBuf};
use views::{PyCharset, PyCollection, PyGame, PyGameInfo, PyGameIterator, PyGameResult, WriteArgs};

/// The extension's Rust allocations (the games, read on worker threads and freed on Python's)
/// go to mimalloc: with the system allocator, allocating and freeing across threads took a
/// third of `read_many`'s time on a corpus of small files.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What reading one input gives: the file system's error, kifu's, or the games.
type Outcome = io::Result<Result<ReadOutput, kifu::ReadError>>;

/// How to read: the format and charset the caller named, if any.
#[derive(Clone, Copy)]
struct ReadArgs {
    format: Option<Format>,
    encoding: Option<&'static Encoding>,
}

impl ReadArgs {
    fn new(format: Option<String>, encoding: Option<String>) -> PyResult<ReadArgs> {
        let format = views::format_arg(format.as_deref())?;
        let encoding = encoding.as_deref().map(adapter::charset_named).transpose().map_err(PyValueError::new_err)?;
        Ok(ReadArgs { format, encoding })
    }

    /// Reads `input` (no GIL needed), a panic becoming a read error.
    fn read(self, input: Input) -> Outcome {
        parallel::guard(|| input.read_with(|b, path| adapter::read_bytes(b, self.format, path, self.encoding)))
    }

    /// Reads the file at `path` (no GIL needed), a panic becoming a read error.
    fn read_path(self, path: &Path) -> Outcome {
        parallel::guard(|| adapter::read_path(path, self.format, self.encoding))
    }
}

/// The games, or the exception to raise for `path`.
fn raise<T>(py: Python<'_>, outcome: io::Result<Result<T, kifu::ReadError>>, path: Option<&Path>) -> PyResult<T> {
    match outcome {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(e)) => Err(errors::read_error(py, e, path)),
        Err(e) => Err(errors::os_error(py, e, path.unwrap_or(Path::new("")))),
    }
}

/// Reads `source` with the GIL released.
fn read_source(py: Python<'_>, source: &Bound<'_, PyAny>, args: ReadArgs) -> PyResult<ReadOutput> {
    let input = input::input(source)?;
    let path = input.path().map(Path::to_path_buf);
    let outcome = parallel::detach(py, || args.read(input))?;
    match outcome {
        Err(e) if source.cast::<PyString>().is_ok() && input::looks_like_a_record(&source.to_string()) => {
            Err(errors::os_error_with_hint(py, e, &source.to_string()))
        }
        outcome => raise(py, outcome, path.as_deref()),
    }
}

/// Reads a game record: `source` is a path (`str` or `os.PathLike`), `bytes` or a binary file
/// object. The format is `format` (`"sgf"`, `"gib"`, `"ngf"`, `"ugf"`, `"json"`, `"ndjson"`), else
/// the file extension, else the content; the charset is `encoding` (a label such as `"cp949"`),
/// else what the reader decides (byte-order mark, declaration, detection), as `kifu convert` does.
///
/// Raises `ReadError` (with `diagnostics`) when nothing is readable, `OSError` when the file
/// cannot be read. Repairs are not errors: they are in `Collection.diagnostics`.
#[pyfunction]
#[pyo3(signature = (source, format = None, encoding = None))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<String>,
    encoding: Option<String>,
) -> PyResult<PyCollection> {
    let out = read_source(py, source, ReadArgs::new(format, encoding)?)?;
    Ok(PyCollection::new(out))
}

/// The games of `source` (as `read` takes it) one at a time, read as they are taken. The
/// iterator's `charset` and `diagnostics` are the input's (`diagnostics` complete once the
/// iteration has ended).
///
/// Memory: a file larger than 16 MiB holding an SGF collection or NDJSON is read in pieces of
/// whole games (kifu's streaming reader, `Format::games`), so memory stays bounded (tens of MB)
/// whatever its size; smaller files and other formats are read whole. `bytes` and file objects
/// are in memory already. Raises `ReadError` (here, not while iterating) when the input holds no
/// game, `OSError` when the file cannot be read.
#[pyfunction]
#[pyo3(signature = (source, format = None, encoding = None))]
fn iter_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<String>,
    encoding: Option<String>,
) -> PyResult<PyGameIterator> {
    let args = ReadArgs::new(format, encoding)?;
    let input = input::input(source)?;
    let path = input.path().map(Path::to_path_buf);
    let reader: Box<dyn io::Read + Send> = match input {
        Input::Path(p) => Box::new(std::fs::File::open(&p).map_err(|e| {
            if source.cast::<PyString>().is_ok() && input::looks_like_a_record(&source.to_string()) {
                errors::os_error_with_hint(py, e, &source.to_string())
            } else {
                errors::os_error(py, e, &p)
            }
        })?),
        Input::Bytes(bytes, _) => Box::new(io::Cursor::new(bytes)),
    };
    let opened = parallel::detach(py, || {
        parallel::guard(|| adapter::stream_games(reader, args.format, path.as_deref(), args.encoding))
    })?;
    let games = raise(py, opened, path.as_deref())?;
    PyGameIterator::new(py, games, path)
}

/// Reads many files in parallel (`threads` threads, all cores when None) with the GIL released,
/// while the calling thread makes the `Collection`s of the files already read (in chunks, Python's
/// cyclic garbage collector paused meanwhile). Returns one item per path, in the order given: a
/// `Collection`, or the exception that reading that file would raise (`ReadError`, `OSError`) as a
/// value — one bad file does not stop the run.
#[pyfunction]
#[pyo3(signature = (paths, threads = None, *, format = None, encoding = None))]
fn read_many<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    threads: Option<usize>,
    format: Option<String>,
    encoding: Option<String>,
) -> PyResult<Bound<'py, PyList>> {
    let args = ReadArgs::new(format, encoding)?;
    let paths = input::path_items(paths)?;
    let mut items = Vec::with_capacity(paths.len());
    let build = |path: &PathBuf, outcome| {
        items.push(outcome_object(py, outcome, path)?);
        Ok(())
    };
    parallel::pipeline(py, threads, &paths, input::path, |path| args.read_path(path), build)?;
    PyList::new(py, items)
}

/// A `Collection`, or the exception for a file that failed, as a value.
fn outcome_object(py: Python<'_>, outcome: Outcome, path: &Path) -> PyResult<Py<PyAny>> {
    match raise(py, outcome, Some(path)) {
        Ok(out) => Ok(Py::new(py, PyCollection::new(out))?.into_any()),
        Err(e) => Ok(e.into_value(py).into_any()),
    }
}

/// The main lines of every game of every file, read in parallel with the GIL released, as NumPy
/// `int16` arrays of shape `(n, 3)` (see `Game.moves_array`): files in the order given, games in
/// file order. A file that cannot be read raises its error (the first such file in the order
/// given; reading stops there), unless `skip_errors`, which leaves it out.
#[pyfunction]
#[pyo3(signature = (paths, threads = None, *, format = None, encoding = None, skip_errors = false))]
fn load_moves<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    threads: Option<usize>,
    format: Option<String>,
    encoding: Option<String>,
    skip_errors: bool,
) -> PyResult<Bound<'py, PyList>> {
    let args = ReadArgs::new(format, encoding)?;
    let paths = input::path_items(paths)?;
    let numpy = import_numpy(py)?;
    let list = PyList::empty(py);
    let main_lines = |path: &PathBuf| {
        let outcome = args.read_path(path);
        outcome.map(|r| r.map(|out| out.collection.games.iter().map(moves::main_line_bytes).collect::<Vec<_>>()))
    };
    parallel::pipeline(py, threads, &paths, input::path, main_lines, |path, games| {
        let games = match games {
            Ok(Ok(g)) => g,
            _ if skip_errors => return Ok(()),
            Ok(Err(e)) => return Err(errors::read_error(py, e, Some(path))),
            Err(e) => return Err(errors::os_error(py, e, path)),
        };
        games.iter().try_for_each(|bytes| list.append(array_of(py, &numpy, bytes)?))
    })?;
    Ok(list)
}

fn import_numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("numpy").map_err(|e| {
        PyImportError::new_err(format!(
            "kifu's moves_array(), positions(), load_moves() and load_positions() need NumPy, which is not installed ({e}); pip install numpy"
        ))
    })
}

fn array_of<'py>(py: Python<'py>, numpy: &Bound<'py, PyModule>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let buffer = PyByteArray::new(py, bytes);
    numpy.call_method1("frombuffer", (buffer, numpy.getattr("int16")?))?.call_method1("reshape", ((-1i64, 3i64),))
}

/// A NumPy `(n, 3)` `int16` array over moves bytes (`moves::main_line_bytes`).
fn numpy_moves<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    array_of(py, &import_numpy(py)?, bytes)
}

/// The positions of the main line of every game of every file, read in parallel with the GIL
/// released, as `Game.positions()` gives them: one NumPy `int8` array of shape
/// `(moves + 1, rows, columns)` per game (games of different board sizes cannot share one
/// array), files in the order given, games in file order. Each game's planes are written once,
/// on the reading threads, into the buffer that becomes its array (NumPy takes it over: no copy
/// with the GIL held). Every illegal move issues a
/// `KifuWarning` naming the file, the game (from 1) and the move. A file that cannot be read
/// raises its error (the first such file in the order given; reading stops there), unless
/// `skip_errors`, which leaves it out.
#[pyfunction]
#[pyo3(signature = (paths, threads = None, *, format = None, encoding = None, skip_errors = false))]
fn load_positions<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    threads: Option<usize>,
    format: Option<String>,
    encoding: Option<String>,
    skip_errors: bool,
) -> PyResult<Bound<'py, PyList>> {
    let args = ReadArgs::new(format, encoding)?;
    let paths = input::path_items(paths)?;
    import_numpy(py)?;
    let list = PyList::empty(py);
    let replay = |path: &PathBuf| {
        let outcome = args.read_path(path);
        outcome.map(|r| {
            r.map(|out| {
                let games = out.collection.games;
                games
                    .iter()
                    .map(|g| positions::planes(g, &g.main_line().map(|n| n.id()).collect::<Vec<_>>()))
                    .collect::<Vec<_>>()
            })
        })
    };
    parallel::pipeline(py, threads, &paths, input::path, replay, |path, games| {
        let games = match games {
            Ok(Ok(g)) => g,
            _ if skip_errors => return Ok(()),
            Ok(Err(e)) => return Err(errors::read_error(py, e, Some(path))),
            Err(e) => return Err(errors::os_error(py, e, path)),
        };
        games.into_iter().enumerate().try_for_each(|(i, planes)| {
            if !planes.illegal.is_empty() {
                let place = format!("{}: game {}", path.display(), i + 1);
                positions::warn_illegal(py, &planes, Some(&place))?;
            }
            list.append(positions::array(py, planes)?)
        })
    })?;
    Ok(list)
}

/// Reads a game record held in memory: `data` is text (`str`, decoded already: read as UTF-8)
/// or `bytes` (the charset decided as `read` decides it, or `encoding`). The format is
/// `format`, else the content's. `kifu.loads(kifu.dumps(x))` gives back games that write the same text.
#[pyfunction]
#[pyo3(signature = (data, format = None, encoding = None))]
fn loads(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    format: Option<String>,
    encoding: Option<String>,
) -> PyResult<PyCollection> {
    let (bytes, encoding) = if let Ok(text) = data.cast::<PyString>() {
        if encoding.is_some() {
            return Err(PyValueError::new_err("a str is decoded already: encoding applies to bytes only"));
        }
        (text.extract::<String>()?.into_bytes(), Some("utf-8".to_string()))
    } else if data.cast::<PyBytes>().is_ok() || data.cast::<PyByteArray>().is_ok() {
        (data.extract::<Vec<u8>>()?, encoding)
    } else {
        let name = data.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
        return Err(PyTypeError::new_err(format!(
            "kifu.loads reads str or bytes, not {name} (kifu.read reads paths and files)"
        )));
    };
    let args = ReadArgs::new(format, encoding)?;
    let outcome =
        parallel::detach(py, || parallel::guard(|| Ok(adapter::read_bytes(bytes, args.format, None, args.encoding))))?;
    Ok(PyCollection::new(raise(py, outcome, None)?))
}

/// The text of `obj` (a `Collection` or a `Game`) in `format` (`"sgf"` by default; any format
/// kifu writes), as a `str`; lossy items issue a `KifuWarning` each, as `to_bytes` does. For
/// another charset than UTF-8, use `obj.to_bytes(format, encoding=…)`.
#[pyfunction]
#[pyo3(signature = (obj, format = String::from("sgf")))]
#[pyo3(text_signature = "(obj, format='sgf')")]
fn dumps(py: Python<'_>, obj: &Bound<'_, PyAny>, format: String) -> PyResult<String> {
    let format = adapter::format_named(&format).map_err(PyValueError::new_err)?;
    let text = if let Ok(c) = obj.cast::<PyCollection>() {
        let c = c.get();
        views::encode_text(py, c.collection(), format, c.charset_decision())?
    } else if let Ok(g) = obj.cast::<PyGame>() {
        let (games, charset) = g.get().parts();
        views::encode_text(py, &games, format, charset)?
    } else {
        let name = obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
        return Err(PyTypeError::new_err(format!("kifu.dumps writes a Collection or a Game, not {name}")));
    };
    Ok(text)
}

/// Rebuilds a pickled kifu object (the first item of every `__reduce__`): `kind` names the class,
/// `state` is what its `__reduce__` gave. Not part of the API.
#[pyfunction]
#[pyo3(signature = (kind, *state))]
fn _restore<'py>(py: Python<'py>, kind: &str, state: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyAny>> {
    let item = |i: usize| state.get_item(i);
    let charset = |i: usize| -> PyResult<Option<adapter::CharsetDecision>> {
        let c = item(i)?;
        if c.is_none() { Ok(None) } else { Ok(Some(c.cast::<PyCharset>()?.get().get())) }
    };
    Ok(match kind {
        "Collection" => {
            let games = values::games_of_payload(values::payload_bytes(&item(0)?)?)?;
            let diagnostics = item(2)?
                .try_iter()?
                .map(|d| Ok(d?.cast::<PyDiagnostic>()?.get().get().clone()))
                .collect::<PyResult<Vec<_>>>()?;
            Py::new(py, PyCollection::of(games, charset(1)?, diagnostics))?.into_bound(py).into_any()
        }
        "Game" => {
            let mut games = values::games_of_payload(values::payload_bytes(&item(0)?)?)?;
            if games.games.len() != 1 {
                return Err(PyValueError::new_err("a pickled kifu game holds one game"));
            }
            Py::new(py, PyGame::alone(games.games.remove(0), charset(1)?))?.into_bound(py).into_any()
        }
        "Node" => {
            let game = item(0)?;
            let node = game.cast::<PyGame>()?.get().node_at(item(1)?.extract()?)?;
            Py::new(py, node)?.into_bound(py).into_any()
        }
        "Charset" => {
            let (name, source, reason): (String, String, String) = item(0)?.extract()?;
            let decision = values::charset_of_state(&name, &source, &reason)?;
            Py::new(py, PyCharset::new(decision))?.into_bound(py).into_any()
        }
        "Diagnostic" => {
            let d = values::diagnostic_of_state(item(0)?.extract()?)?;
            Py::new(py, PyDiagnostic::new(d))?.into_bound(py).into_any()
        }
        "GameResult" => Py::new(py, PyGameResult::of_state(item(0)?.cast()?)?)?.into_bound(py).into_any(),
        "GameInfo" => Py::new(py, PyGameInfo::of_state(item(0)?.cast()?)?)?.into_bound(py).into_any(),
        other => return Err(PyValueError::new_err(format!("kifu cannot restore a '{other}'"))),
    })
}

/// Converts the file `src` into `dst` as `kifu convert SRC -o DST` does: the input format is
/// `from_format`, else `src`'s extension, else its content; the output format `to`, else `dst`'s
/// extension, else SGF. `from_encoding` forces the input charset, `encoding` picks the output's
/// (UTF-8 by default), `lossy` writes `?` for characters it lacks, `expand_lists` writes SGF point
/// lists point by point. The output is written as the command writes it (see `Collection.write`):
/// an existing `dst` that differs is replaced only with `force` (else `FileExistsError`); `dst`
/// being `src` is refused. Returns every diagnostic (the charset decision, the reader's, the
/// writer's lossy items).
#[pyfunction]
#[pyo3(signature = (src, dst, to = None, *, from_format = None, from_encoding = None, encoding = None, lossy = false, expand_lists = false, force = false))]
#[allow(clippy::too_many_arguments)]
fn convert<'py>(
    py: Python<'py>,
    src: PathBuf,
    dst: PathBuf,
    to: Option<String>,
    from_format: Option<String>,
    from_encoding: Option<String>,
    encoding: Option<String>,
    lossy: bool,
    expand_lists: bool,
    force: bool,
) -> PyResult<Bound<'py, PyList>> {
    let args = ReadArgs::new(from_format, from_encoding)?;
    let to = adapter::output_format(views::format_arg(to.as_deref())?, Some(&dst));
    let write = WriteArgs { encoding, lossy, expand_lists };
    let settings = write.settings(None)?;
    if adapter::same_file(&src, &dst) {
        let message = format!("the output {} is the input; refusing to overwrite it", dst.display());
        return Err(errors::write_error(py, message, Vec::new(), Some(&dst)));
    }
    let outcome = parallel::detach(py, || args.read_path(&src))?;
    let read = raise(py, outcome, Some(&src))?;
    let settings = adapter::WriteSettings { source_charset: read.charset, ..settings };
    let written = parallel::detach(py, || adapter::write(&read.collection, to, &settings))?.map_err(|e| {
        let (message, diagnostics) = adapter::write_error_diagnostics(e);
        errors::write_error(py, format!("{}: {message}", dst.display()), diagnostics, Some(&dst))
    })?;
    parallel::detach(py, || adapter::write_file_safely(&dst, &written.bytes, force))?
        .map_err(|e| errors::os_error(py, e, &dst))?;
    let all = read.charset.map(|c| c.note()).into_iter().chain(read.diagnostics).chain(written.diagnostics);
    errors::diagnostic_list(py, all)
}

/// Test hook: panics inside the binding, in the way `kind` names — `"binding"` (pyo3's own
/// guard: `pyo3_runtime.PanicException`), `"read"` (the read guard: `ReadError` with code
/// `internal.panic`) or `"read_many"` (one of three inputs of a parallel run panics; returns the
/// three results). Not part of the API.
#[pyfunction]
fn _panic_for_tests<'py>(py: Python<'py>, kind: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let kind: String = kind.extract()?;
    let boom = |i: usize| -> Outcome {
        parallel::guard(|| {
            if i == 1 {
                panic!("deliberate panic {i}");
            }
            Ok(adapter::read_bytes(b"(;GM[1];B[aa])".to_vec(), None, None, None))
        })
    };
    match kind.as_str() {
        "binding" => panic!("deliberate panic in the binding"),
        "read" => raise(py, boom(1), None).map(|_| py.None().into_bound(py)),
        "read_many" => {
            let mut items = Vec::new();
            let build = |_: &usize, o| {
                items.push(outcome_object(py, o, Path::new("<test>"))?);
                Ok(())
            };
            parallel::pipeline(py, Some(2), &[0, 1, 2], |&i| Ok(i), |&i| boom(i), build)?;
            Ok(PyList::new(py, items)?.into_any())
        }
        _ => Err(PyValueError::new_err("kind: binding, read or read_many")),
    }
}

/// kifu: read and write Go game records (SGF, GIB, NGF, UGF/UGI, JSON).
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    parallel::note_home();
    m.add_class::<PyCollection>()?;
    m.add_class::<views::PyGame>()?;
    m.add_class::<views::PyNode>()?;
    m.add_class::<views::PyGameInfo>()?;
    m.add_class::<views::PyGameResult>()?;
    m.add_class::<views::PyCharset>()?;
    m.add_class::<PyGameIterator>()?;
    m.add_class::<PyDiagnostic>()?;
    m.add_class::<table::PyArrowStream>()?;
    m.add("KifuError", py.get_type::<errors::KifuError>())?;
    m.add("ReadError", errors::read_error_type(py)?)?;
    m.add("WriteError", py.get_type::<errors::WriteError>())?;
    m.add("KifuWarning", py.get_type::<errors::KifuWarning>())?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(iter_games, m)?)?;
    m.add_function(wrap_pyfunction!(read_many, m)?)?;
    m.add_function(wrap_pyfunction!(load_moves, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(load_positions, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(dumps, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_function(wrap_pyfunction!(table::_read_table, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
