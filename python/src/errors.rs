//! Exceptions and diagnostics as Python sees them.

use kifu::{Diagnostic, Severity};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyList;
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
    ReadError,
    KifuError,
    "The input holds nothing readable as its format. `diagnostics` says why and where; `path` names the file (None for bytes)."
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

/// One finding: `severity` (`"error"`, `"warning"`, `"info"`), a stable `code` such as
/// `sgf.missing-close` (documented in the repository's formats/*.md), a `message`, and the 1-based
/// `line` and `column` in the input when the finding has a place.
#[pyclass(frozen, eq, module = "kifu", name = "Diagnostic")]
#[derive(Clone, PartialEq)]
pub struct PyDiagnostic {
    inner: Diagnostic,
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
}

/// The diagnostics as a Python list of `Diagnostic`.
pub fn diagnostic_list<'py>(
    py: Python<'py>,
    diagnostics: impl IntoIterator<Item = Diagnostic>,
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, diagnostics.into_iter().map(|inner| PyDiagnostic { inner }))
}

/// An exception of class `E` with `message`, carrying `diagnostics` and `path` as attributes.
fn with_diagnostics<E: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    diagnostics: Vec<Diagnostic>,
    path: Option<&Path>,
) -> PyErr {
    let err = PyErr::new::<E, _>((message,));
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
    with_diagnostics::<ReadError>(py, format!("{name}: {error}"), error.diagnostics, path)
}

/// `kifu.WriteError` with `message` and what the writer found.
pub fn write_error(py: Python<'_>, message: String, diagnostics: Vec<Diagnostic>, path: Option<&Path>) -> PyErr {
    with_diagnostics::<WriteError>(py, message, diagnostics, path)
}

/// The `OSError` subclass Python itself raises for `error` on `path` (FileNotFoundError,
/// FileExistsError, PermissionError, …), with `errno` and `filename` set. An error kifu made
/// (an existing output, a missing folder) gets the errno of its kind and keeps its message.
pub fn os_error(py: Python<'_>, error: io::Error, path: &Path) -> PyErr {
    let (errno, strerror) = match error.raw_os_error() {
        Some(errno) => {
            let strerror = py
                .import("os")
                .and_then(|os| os.call_method1("strerror", (errno,)))
                .and_then(|s| s.extract::<String>())
                .unwrap_or_else(|_| error.to_string());
            (errno, strerror)
        }
        None => match errno_of(py, error.kind()) {
            Some(errno) => (errno, error.to_string()),
            None => return error.into(),
        },
    };
    PyOSError::new_err((errno, strerror, path.display().to_string()))
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
