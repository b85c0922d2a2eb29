//! Exceptions and diagnostics as Python sees them.

use kifu::{Diagnostic, Severity};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use std::io;
use std::path::Path;

create_exception!(
    kifu,
    KifuError,
    PyException,
    "Base class of kifu's errors. `diagnostics` lists what was found (list of Diagnostic)."
);
create_exception!(
    kifu,
    WriteError,
    KifuError,
    "The games cannot be written as asked (format not writable, games it cannot hold, characters the charset lacks). `diagnostics` says which."
);
create_exception!(
    kifu,
    KifuWarning,
    PyUserWarning,
    "Something a conversion lost or repaired, issued by to_sgf(), to_json() and to_bytes() (write() and convert() return them as Diagnostic values instead)."
);

/// `kifu.ReadError`: a `KifuError` and a `ValueError` (as `json` and sgfmill raise on bad input),
/// made at import (pyo3's `create_exception!` takes one base).
pub fn read_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.get_or_try_init(py, || {
        let bases = PyTuple::new(py, [py.get_type::<KifuError>(), py.get_type::<PyValueError>()])?;
        let dict = PyDict::new(py);
        dict.set_item("__module__", "kifu")?;
        dict.set_item(
            "__doc__",
            "The input holds nothing readable as its format (also a ValueError). `diagnostics` says why and where; `path` names the file (None for bytes).",
        )?;
        let made = py.get_type::<PyType>().call1(("ReadError", bases, dict))?;
        Ok(made.cast_into::<PyType>()?.unbind())
    })
    .map(|t| t.bind(py))
}

/// One finding: `severity` (`"error"`, `"warning"`, `"info"`), a stable `code` such as
/// `sgf.missing-close` (documented in the repository's formats/*.md), a `message`, and the 1-based
/// `line` and `column` in the input when the finding has a place.
///
/// A value: equal diagnostics compare equal and hash alike; pickling keeps every field.
#[pyclass(frozen, eq, module = "kifu", name = "Diagnostic")]
#[derive(Clone, PartialEq)]
pub struct PyDiagnostic {
    inner: Diagnostic,
}

impl PyDiagnostic {
    /// Wraps a diagnostic.
    pub fn new(inner: Diagnostic) -> PyDiagnostic {
        PyDiagnostic { inner }
    }

    /// The diagnostic.
    pub fn get(&self) -> &Diagnostic {
        &self.inner
    }
}

#[pymethods]
impl PyDiagnostic {
    /// `"error"`, `"warning"` or `"info"`.
    #[getter]
    fn severity(&self) -> &'static str {
        self.inner.severity.as_str()
    }

    /// The stable code (`sgf.unescaped-bracket`, `charset.decided`, …).
    #[getter]
    fn code(&self) -> &'static str {
        self.inner.code
    }

    /// A sentence saying what was found.
    #[getter]
    fn message(&self) -> &str {
        &self.inner.message
    }

    /// The 1-based line in the input, or None.
    #[getter]
    fn line(&self) -> Option<u32> {
        self.inner.position.map(|p| p.line)
    }

    /// The 1-based column (in characters) in the input, or None.
    #[getter]
    fn column(&self) -> Option<u32> {
        self.inner.position.map(|p| p.column)
    }

    /// `line:column: severity[code]: message`, as the command prints it after the file name.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Diagnostic {}>", self.inner)
    }

    fn __hash__(&self) -> u64 {
        let d = &self.inner;
        crate::values::hash_of((d.severity, d.code, &d.message, d.position))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = crate::values::diagnostic_state(&self.inner).into_pyobject(py)?.into_any();
        crate::values::reduce(py, "Diagnostic", vec![state])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// The diagnostics as a Python list of `Diagnostic`.
pub fn diagnostic_list<'py>(
    py: Python<'py>,
    diagnostics: impl IntoIterator<Item = Diagnostic>,
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, diagnostics.into_iter().map(|inner| PyDiagnostic { inner }))
}

/// An exception of class `kind` with `message`, carrying `diagnostics` and `path` as attributes.
fn with_diagnostics(
    py: Python<'_>,
    kind: Bound<'_, PyType>,
    message: String,
    diagnostics: Vec<Diagnostic>,
    path: Option<&Path>,
) -> PyErr {
    let err = PyErr::from_type(kind, (message,));
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("diagnostics", diagnostic_list(py, diagnostics)?)?;
        value.setattr("path", path.map(|p| p.display().to_string()))?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// `kifu.ReadError` for the input `path` (None for bytes or a file object without a name).
pub fn read_error(py: Python<'_>, error: kifu::ReadError, path: Option<&Path>) -> PyErr {
    let name = path.map_or_else(|| "<input>".to_string(), |p| p.display().to_string());
    match read_error_type(py) {
        Ok(kind) => with_diagnostics(py, kind.clone(), format!("{name}: {error}"), error.diagnostics, path),
        Err(e) => e,
    }
}

/// `kifu.WriteError` with `message` and what the writer found.
pub fn write_error(py: Python<'_>, message: String, diagnostics: Vec<Diagnostic>, path: Option<&Path>) -> PyErr {
    with_diagnostics(py, py.get_type::<WriteError>(), message, diagnostics, path)
}

/// The `OSError` subclass Python itself raises for `error` on `path` (FileNotFoundError,
/// FileExistsError, PermissionError, …), with `errno` and `filename` set. An error kifu made
/// (an existing output, a missing folder) gets the errno of its kind and keeps its message.
pub fn os_error(py: Python<'_>, error: io::Error, path: &Path) -> PyErr {
    match errno_and_text(py, &error) {
        Some((errno, strerror)) => PyOSError::new_err((errno, strerror, path.display().to_string())),
        None => error.into(),
    }
}

/// The errno of `error` and Python's text for it (`os.strerror`), or kifu's message for an error
/// kifu made; None for an error of neither kind.
fn errno_and_text(py: Python<'_>, error: &io::Error) -> Option<(i32, String)> {
    match error.raw_os_error() {
        Some(errno) => {
            let strerror = py
                .import("os")
                .and_then(|os| os.call_method1("strerror", (errno,)))
                .and_then(|s| s.extract::<String>())
                .unwrap_or_else(|_| error.to_string());
            Some((errno, strerror))
        }
        None => errno_of(py, error.kind()).map(|errno| (errno, error.to_string())),
    }
}

/// The `OSError` for a `str` that was taken as a path but holds a game record: the usual error
/// (`FileNotFoundError`, or "File name too long"), its message pointing to `kifu.loads`, and the
/// file name cut to its first characters.
pub fn os_error_with_hint(py: Python<'_>, error: io::Error, text: &str) -> PyErr {
    let shown: String = text.chars().take(40).collect();
    let shown = if shown.len() < text.len() { format!("{shown}…") } else { shown };
    let hint = "the argument looks like a game record, not a path: kifu.loads(text) reads a record held in a str";
    let (errno, strerror) = errno_and_text(py, &error).unwrap_or_else(|| (0, error.to_string()));
    PyOSError::new_err((errno, format!("{strerror}; {hint}"), shown))
}

/// The errno (from Python's `errno` module) of the kinds kifu's own file errors have.
fn errno_of(py: Python<'_>, kind: io::ErrorKind) -> Option<i32> {
    let name = match kind {
        io::ErrorKind::AlreadyExists => "EEXIST",
        io::ErrorKind::NotFound => "ENOENT",
        io::ErrorKind::IsADirectory => "EISDIR",
        io::ErrorKind::InvalidInput => "EINVAL",
        _ => return None,
    };
    py.import("errno").and_then(|m| m.getattr(name)).and_then(|v| v.extract()).ok()
}

/// Issues a `KifuWarning` for every warning or error among `diagnostics` (lossy writes).
pub fn warn_all(py: Python<'_>, diagnostics: &[Diagnostic]) -> PyResult<()> {
    let category = py.get_type::<KifuWarning>();
    for d in diagnostics.iter().filter(|d| d.severity >= Severity::Warning) {
        let text = std::ffi::CString::new(d.to_string().replace('\0', "\\0")).unwrap_or_default();
        PyErr::warn(py, category.as_any(), &text, 2)?;
    }
    Ok(())
}
