//! Value semantics of the binding's objects: the state they are pickled as, how it is restored
//! (`_restore`), and the content hashes behind `__hash__`.
//!
//! Games travel as kifu's JSON (which holds every property: SGF → JSON → SGF gives the same
//! model), read back without repairs; the charset decision and the diagnostics travel beside
//! it, field by field, since no game format holds them.

use crate::adapter::{self, CharsetDecision, Collection};
use kifu::charset::CharsetSource;
use kifu::model::NodeId;
use kifu::{Diagnostic, GameTree, Severity};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyTuple};
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;

/// The library's diagnostic codes and charset reasons are `&'static str`; a restored one is
/// leaked once per distinct text and reused after. The library has a few hundred such texts; a
/// pickle naming more distinct ones than this is refused rather than growing memory for ever.
const MAX_INTERNED: usize = 4096;

static INTERNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// `text` as a `&'static str` (see [`MAX_INTERNED`]).
pub fn intern(text: &str) -> PyResult<&'static str> {
    let mut guard = INTERNED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let set = guard.get_or_insert_with(HashSet::new);
    if let Some(known) = set.get(text) {
        return Ok(known);
    }
    if set.len() >= MAX_INTERNED {
        return Err(PyValueError::new_err(
            "too many distinct diagnostic codes or charset reasons in pickled kifu objects",
        ));
    }
    let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
    set.insert(leaked);
    Ok(leaked)
}

/// The module's `_restore`, the first item of every `__reduce__`.
pub fn restorer(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static RESTORE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    RESTORE.import(py, "kifu._kifu", "_restore").cloned()
}

/// `(_restore, (kind, *state))`: what `__reduce__` returns.
pub fn reduce<'py>(py: Python<'py>, kind: &str, state: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
    let mut args = vec![kind.into_pyobject(py)?.into_any()];
    args.extend(state);
    PyTuple::new(py, [restorer(py)?, PyTuple::new(py, args)?.into_any()])
}

/// The games as kifu's JSON (no charset recorded: it travels beside).
pub fn games_payload(collection: &Collection) -> PyResult<Vec<u8>> {
    if collection.games.is_empty() {
        return Ok(Vec::new());
    }
    let settings = adapter::WriteSettings::default();
    let json = adapter::format_named("json").map_err(PyValueError::new_err)?;
    let out = adapter::write(collection, json, &settings).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if let Some(d) = out.diagnostics.iter().find(|d| d.severity >= Severity::Warning) {
        return Err(PyValueError::new_err(format!("kifu cannot pickle these games without loss: {d}")));
    }
    Ok(out.bytes)
}

/// The games of a payload made by [`games_payload`].
pub fn games_of_payload(payload: &[u8]) -> PyResult<Collection> {
    if payload.is_empty() {
        return Ok(Collection::default());
    }
    let read = adapter::read_exact_json(payload.to_vec())
        .map_err(|e| PyValueError::new_err(format!("not a pickled kifu collection: {e}")))?;
    if let Some(d) = read.diagnostics.iter().find(|d| d.severity >= Severity::Warning) {
        return Err(PyValueError::new_err(format!("the pickled kifu games do not read back as they were: {d}")));
    }
    Ok(read.collection)
}

/// A charset decision as plain values: `(name, source, reason)`.
pub fn charset_state(c: &CharsetDecision) -> (&'static str, &'static str, &'static str) {
    (kifu::charset::ca_label(c.encoding), c.source.as_str(), c.reason)
}

/// The charset decision of [`charset_state`]'s values.
pub fn charset_of_state(name: &str, source: &str, reason: &str) -> PyResult<CharsetDecision> {
    let encoding = adapter::charset_named(name).map_err(PyValueError::new_err)?;
    let source = match source {
        "bom" => CharsetSource::Bom,
        "override" => CharsetSource::Override,
        "declared" => CharsetSource::Declared,
        "detected" => CharsetSource::Detected,
        other => return Err(PyValueError::new_err(format!("unknown charset source '{other}'"))),
    };
    Ok(CharsetDecision::new(encoding, source, intern(reason)?))
}

/// A diagnostic as plain values: `(severity, code, message, line, column, offset)`.
pub type DiagnosticState = (String, String, String, Option<u32>, Option<u32>, Option<usize>);

/// The values of `d` ([`DiagnosticState`]).
pub fn diagnostic_state(d: &Diagnostic) -> DiagnosticState {
    let p = d.position;
    (
        d.severity.as_str().to_string(),
        d.code.to_string(),
        d.message.clone(),
        p.map(|p| p.line),
        p.map(|p| p.column),
        p.map(|p| p.offset),
    )
}

/// The diagnostic of [`diagnostic_state`]'s values.
pub fn diagnostic_of_state(state: DiagnosticState) -> PyResult<Diagnostic> {
    let (severity, code, message, line, column, offset) = state;
    let severity = match severity.as_str() {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        "info" => Severity::Info,
        other => return Err(PyValueError::new_err(format!("unknown severity '{other}'"))),
    };
    let d = Diagnostic::new(severity, intern(&code)?, message);
    Ok(match (line, column) {
        (Some(line), Some(column)) => d.at(kifu::Position::new(line, column, offset.unwrap_or(0))),
        _ => d,
    })
}

/// A hash of a tree's content, equal for trees that compare equal (same shape, same properties
/// and values in every node).
pub fn tree_hash(tree: &GameTree) -> u64 {
    let mut h = DefaultHasher::new();
    tree.len().hash(&mut h);
    for node in tree.nodes() {
        node.parent().map(|p| p.id().index()).hash(&mut h);
        for p in node.props() {
            p.ident().hash(&mut h);
            for v in p.values() {
                v.as_str().hash(&mut h);
            }
        }
    }
    h.finish()
}

/// A cheap hash of one node, equal for equal nodes of equal trees: its index, the tree's size
/// and the node's own properties.
pub fn node_hash(tree: &GameTree, id: NodeId) -> u64 {
    let mut h = DefaultHasher::new();
    (id.index(), tree.len()).hash(&mut h);
    for p in tree.node(id).props() {
        p.ident().hash(&mut h);
        for v in p.values() {
            v.as_str().hash(&mut h);
        }
    }
    h.finish()
}

/// Any hashable value's std hash.
pub fn hash_of(value: impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// The bytes of a `bytes` payload.
pub fn payload_bytes<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    Ok(value.cast::<PyBytes>()?.as_bytes())
}
