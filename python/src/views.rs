//! The Python classes over kifu's model: `Collection`, `Game`, `Node`, `GameInfo`, `GameResult`,
//! `Charset`, and the game iterator. They are views: the games stay in kifu's compact storage,
//! shared through an `Arc`, and Python objects are made only for what is looked at.

use crate::adapter::{self, CharsetDecision, Collection, WriteSettings};
use crate::errors::{self, PyDiagnostic};
use crate::values;
use kifu::model::{Color, GameResult, Move, NodeId};
use kifu::{Diagnostic, GameTree, ReadOutput};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// The number of points a move can name (SGF's 52 × 52) plus one for a pass.
const MOVE_SLOTS: usize = 52 * 52 + 1;

/// Every move as Python sees it, made once: `("B" | "W", (x, y))`, or `(color, None)` for a
/// pass. The tuples are immutable, so a main line of any length is a list of shared objects.
static MOVES: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

fn py_move<'py>(py: Python<'py>, color: Color, mv: Move) -> PyResult<Bound<'py, PyTuple>> {
    let all = MOVES.get_or_try_init(py, || {
        let mut all = Vec::with_capacity(2 * MOVE_SLOTS);
        for color in [pyo3::intern!(py, "B"), pyo3::intern!(py, "W")] {
            for slot in 0..MOVE_SLOTS {
                let point = match slot {
                    s if s == MOVE_SLOTS - 1 => py.None().into_bound(py),
                    s => PyTuple::new(py, [s % 52, s / 52])?.into_any(),
                };
                all.push(PyTuple::new(py, [color.clone().into_any(), point])?.unbind());
            }
        }
        Ok::<_, PyErr>(all)
    })?;
    let slot = match mv {
        Move::Play(p) => usize::from(p.y) * 52 + usize::from(p.x),
        Move::Pass => MOVE_SLOTS - 1,
    };
    let index = if color == Color::Black { 0 } else { MOVE_SLOTS } + slot.min(MOVE_SLOTS - 1);
    Ok(all[index].bind(py).clone())
}

/// How an input was decoded: the charset's `name` (`UTF-8`, `EUC-KR`, `Shift_JIS`, `GBK`, …),
/// its `source` (`"bom"`, `"override"`, `"declared"` or `"detected"`) and the `reason` in a few
/// words. A value (compared and hashed by its three fields).
#[pyclass(frozen, module = "kifu", name = "Charset")]
#[derive(Clone)]
pub struct PyCharset {
    inner: CharsetDecision,
}

#[pymethods]
impl PyCharset {
    /// The charset's name as the command prints it (`UTF-8`, `EUC-KR`, `Shift_JIS`, `GBK`,
    /// `GB18030`, `UTF-16LE`, …).
    #[getter]
    fn name(&self) -> &'static str {
        kifu::charset::ca_label(self.inner.encoding)
    }

    /// How it was chosen: `"bom"`, `"override"` (the `encoding` argument), `"declared"` (the
    /// file said so) or `"detected"`.
    #[getter]
    fn source(&self) -> &'static str {
        self.inner.source.as_str()
    }

    /// Why, in a few words (`declared charset`, `valid UTF-8`, …).
    #[getter]
    fn reason(&self) -> &'static str {
        self.inner.reason
    }

    fn __repr__(&self) -> String {
        format!("<Charset {} ({}: {})>", self.name(), self.inner.source, self.inner.reason)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyCharset>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        values::hash_of(values::charset_state(&self.inner))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        values::reduce(py, "Charset", vec![values::charset_state(&self.inner).into_pyobject(py)?.into_any()])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

impl PyCharset {
    /// The decision restored from a pickle.
    pub fn new(inner: CharsetDecision) -> PyCharset {
        PyCharset { inner }
    }

    /// The decision.
    pub fn get(&self) -> CharsetDecision {
        self.inner
    }
}

fn charset_object(decision: Option<CharsetDecision>) -> Option<PyCharset> {
    decision.map(|inner| PyCharset { inner })
}

/// Output options shared by every writing method.
#[derive(Default)]
pub struct WriteArgs {
    /// Output charset label.
    pub encoding: Option<String>,
    /// `?` for unmappable characters.
    pub lossy: bool,
    /// SGF: point lists written point by point.
    pub expand_lists: bool,
}

impl WriteArgs {
    /// The library's settings, with the charset the games were read with.
    pub fn settings(&self, source_charset: Option<CharsetDecision>) -> PyResult<WriteSettings> {
        let encoding =
            self.encoding.as_deref().map(adapter::charset_named).transpose().map_err(PyValueError::new_err)?;
        Ok(WriteSettings { encoding, lossy: self.lossy, expand_point_lists: self.expand_lists, source_charset })
    }
}

/// A format named by the user, or a `ValueError`.
pub fn format_arg(name: Option<&str>) -> PyResult<Option<kifu::Format>> {
    name.map(adapter::format_named).transpose().map_err(PyValueError::new_err)
}

/// Writes `collection` as `format` with the GIL released; a failure is `kifu.WriteError`.
fn encode(
    py: Python<'_>,
    collection: &Collection,
    format: kifu::Format,
    settings: &WriteSettings,
) -> PyResult<kifu::WriteOutput> {
    crate::parallel::detach(py, || adapter::write(collection, format, settings))?.map_err(|e| {
        let (message, diagnostics) = adapter::write_error_diagnostics(e);
        errors::write_error(py, message, diagnostics, None)
    })
}

/// The text of a UTF-8 output (SGF, JSON), issuing a `KifuWarning` for each lossy item.
pub fn encode_text(
    py: Python<'_>,
    collection: &Collection,
    format: kifu::Format,
    charset: Option<CharsetDecision>,
) -> PyResult<String> {
    let out = encode(py, collection, format, &WriteArgs::default().settings(charset)?)?;
    errors::warn_all(py, &out.diagnostics)?;
    String::from_utf8(out.bytes).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `to_bytes`: any format, any charset; lossy items issue `KifuWarning`s.
fn encode_bytes(
    py: Python<'_>,
    collection: &Collection,
    format: &str,
    args: &WriteArgs,
    charset: Option<CharsetDecision>,
) -> PyResult<Vec<u8>> {
    let format = adapter::format_named(format).map_err(PyValueError::new_err)?;
    let out = encode(py, collection, format, &args.settings(charset)?)?;
    errors::warn_all(py, &out.diagnostics)?;
    Ok(out.bytes)
}

/// `write`: to `path` safely (`kifu::write_file`: never replacing a different file unless `force`),
/// returning the writer's diagnostics.
fn write_file<'py>(
    py: Python<'py>,
    collection: &Collection,
    path: PathBuf,
    format: Option<&str>,
    args: &WriteArgs,
    force: bool,
    charset: Option<CharsetDecision>,
) -> PyResult<Bound<'py, PyList>> {
    let format = adapter::output_format(format_arg(format)?, Some(&path));
    let out = encode(py, collection, format, &args.settings(charset)?)?;
    crate::parallel::detach(py, || adapter::write_file_safely(&path, &out.bytes, force))?
        .map_err(|e| errors::os_error(py, e, &path))?;
    errors::diagnostic_list(py, out.diagnostics)
}

/// The games of one input, how it was decoded, and everything the reader noticed.
///
/// A sequence of `Game`: `len(c)`, `c[0]`, `for game in c`. `charset` is how the input was
/// decoded (None when the reader made no charset decision). `diagnostics` lists every repair,
/// skipped byte and note, in input order, with the charset decision first (`charset.decided`).
///
/// A value: two collections are equal when their games, charset decisions and diagnostics are;
/// pickling keeps all three (the games as kifu's JSON, which holds every property).
#[pyclass(frozen, module = "kifu", name = "Collection")]
pub struct PyCollection {
    inner: Arc<Collection>,
    charset: Option<CharsetDecision>,
    /// The reader's diagnostics (the charset decision is put first when they are asked for).
    diagnostics: Vec<Diagnostic>,
    /// The `Game` objects, made when first asked for (most of `read_many`'s results are looked
    /// at once, many never).
    games: PyOnceLock<Vec<Py<PyGame>>>,
    /// The content hash, made when first asked for.
    hash: OnceLock<u64>,
}

impl PyCollection {
    /// Wraps what a reader returned.
    pub fn new(read: ReadOutput) -> PyCollection {
        PyCollection::of(read.collection, read.charset, read.diagnostics)
    }

    /// Wraps games, their charset decision and the diagnostics of their reading.
    pub fn of(games: Collection, charset: Option<CharsetDecision>, diagnostics: Vec<Diagnostic>) -> PyCollection {
        PyCollection { inner: Arc::new(games), charset, diagnostics, games: PyOnceLock::new(), hash: OnceLock::new() }
    }

    /// The games, for `kifu.dumps`.
    pub fn collection(&self) -> &Collection {
        &self.inner
    }

    /// The charset decision, for `kifu.dumps`.
    pub fn charset_decision(&self) -> Option<CharsetDecision> {
        self.charset
    }

    fn game_objects(&self, py: Python<'_>) -> PyResult<&Vec<Py<PyGame>>> {
        self.games.get_or_try_init(py, || {
            let (coll, charset) = (&self.inner, self.charset);
            (0..coll.games.len()).map(|index| Py::new(py, PyGame::at(coll.clone(), index, charset))).collect()
        })
    }
}

#[pymethods]
impl PyCollection {
    /// The games, in input order (a new list each time).
    #[getter]
    fn games<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.game_objects(py)?.iter().map(|g| g.clone_ref(py)))
    }

    /// How the input was decoded (None when the reader made no charset decision).
    #[getter]
    fn charset(&self) -> Option<PyCharset> {
        charset_object(self.charset)
    }

    /// What the reader found: a list of `Diagnostic`, the charset decision first.
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let note = self.charset.map(|c| c.note());
        errors::diagnostic_list(py, note.into_iter().chain(self.diagnostics.iter().cloned()))
    }

    fn __len__(&self) -> usize {
        self.inner.games.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: isize) -> PyResult<Py<PyGame>> {
        let games = self.game_objects(py)?;
        let n = games.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if (0..n).contains(&i) {
            Ok(games[i as usize].clone_ref(py))
        } else {
            Err(PyIndexError::new_err("game index out of range"))
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.games(py)?.try_iter()?.into_any())
    }

    fn __repr__(&self) -> String {
        let charset = self.charset.map_or_else(String::new, |c| format!(" {}", kifu::charset::ca_label(c.encoding)));
        format!("<Collection of {} game(s){charset}>", self.inner.games.len())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyCollection>().is_ok_and(|o| {
            let o = o.get();
            self.charset == o.charset
                && self.diagnostics == o.diagnostics
                && (Arc::ptr_eq(&self.inner, &o.inner) || self.inner == o.inner)
        })
    }

    fn __hash__(&self) -> u64 {
        *self.hash.get_or_init(|| {
            let games: Vec<u64> = self.inner.games.iter().map(values::tree_hash).collect();
            let charset = self.charset.as_ref().map(values::charset_state);
            values::hash_of((games, charset, self.diagnostics.len()))
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let payload = PyBytes::new(py, &values::games_payload(&self.inner)?).into_any();
        let charset = self.charset().into_pyobject(py)?.into_any();
        let diagnostics = PyList::new(py, self.diagnostics.iter().cloned().map(PyDiagnostic::new))?.into_any();
        values::reduce(py, "Collection", vec![payload, charset, diagnostics])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// A collection of its own (the games copied, new `Game` objects), equal to this one.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyCollection {
        PyCollection::of((*self.inner).clone(), self.charset, self.diagnostics.clone())
    }

    /// The games as FF[4] SGF text (UTF-8).
    fn to_sgf(&self, py: Python<'_>) -> PyResult<String> {
        encode_text(py, &self.inner, kifu::Format::SGF, self.charset)
    }

    /// The games as kifu's JSON (see the repository's formats/json.md).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        encode_text(py, &self.inner, adapter::format_named("json").map_err(PyValueError::new_err)?, self.charset)
    }

    /// The games in `format` (`"sgf"`, `"gib"`, `"ngf"`, `"ugf"`, `"json"`, `"ndjson"`), encoded in
    /// `encoding` (UTF-8 by default). Lossy items issue a `KifuWarning` each; characters the charset
    /// cannot hold raise `WriteError` unless `lossy` (then `?` and a warning).
    #[pyo3(signature = (format = String::from("sgf"), *, encoding = None, lossy = false, expand_lists = false))]
    #[pyo3(text_signature = "(self, format='sgf', *, encoding=None, lossy=False, expand_lists=False)")]
    fn to_bytes(
        &self,
        py: Python<'_>,
        format: String,
        encoding: Option<String>,
        lossy: bool,
        expand_lists: bool,
    ) -> PyResult<Vec<u8>> {
        encode_bytes(py, &self.inner, &format, &WriteArgs { encoding, lossy, expand_lists }, self.charset)
    }

    /// Writes the games to `path` as `kifu convert -o` does: the format named, else from the
    /// extension, else SGF; through a temporary file (`.kifu-PID-XXXXXX.tmp`) and a rename; a file
    /// already holding these bytes is left alone, a different one replaced only with `force` (else
    /// `FileExistsError`), keeping its mode (a new file gets 0666 minus the umask); devices and
    /// FIFOs (`/dev/stdout`) are written through; a missing folder is `FileNotFoundError`.
    /// Returns the writer's diagnostics (lossy items).
    #[pyo3(signature = (path, format = None, *, encoding = None, lossy = false, expand_lists = false, force = false))]
    #[allow(clippy::too_many_arguments)]
    fn write<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        format: Option<String>,
        encoding: Option<String>,
        lossy: bool,
        expand_lists: bool,
        force: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let args = WriteArgs { encoding, lossy, expand_lists };
        write_file(py, &self.inner, path, format.as_deref(), &args, force, self.charset)
    }
}

/// One game. `info` has its game information, `moves` the main line, `root` the tree's first
/// node (walk on with `children` and `parent`). Points are `(x, y)`, 0-based from the top-left
/// corner: `x` the column, `y` the row.
///
/// A value: two games are equal when their trees (shape, properties and values) and the charset
/// decision they were read with are; pickling keeps both.
#[pyclass(frozen, module = "kifu", name = "Game")]
pub struct PyGame {
    coll: Arc<Collection>,
    index: usize,
    charset: Option<CharsetDecision>,
    /// The content hash, made when first asked for.
    hash: OnceLock<u64>,
}

impl PyGame {
    /// A game on its own (read from a stream of games).
    pub fn alone(tree: GameTree, charset: Option<CharsetDecision>) -> PyGame {
        PyGame::at(Arc::new(Collection::new(vec![tree])), 0, charset)
    }

    fn at(coll: Arc<Collection>, index: usize, charset: Option<CharsetDecision>) -> PyGame {
        PyGame { coll, index, charset, hash: OnceLock::new() }
    }

    /// The game as a collection of its own and its charset decision, for `kifu.dumps`.
    pub fn parts(&self) -> (std::borrow::Cow<'_, Collection>, Option<CharsetDecision>) {
        (self.single(), self.charset)
    }

    /// The game's node at pre-order `index`, or a `ValueError`.
    pub fn node_at(&self, index: usize) -> PyResult<PyNode> {
        if index >= self.tree().len() {
            return Err(PyValueError::new_err(format!("the game has no node {index}")));
        }
        Ok(self.node(NodeId::from_index(index)))
    }

    /// The game's tree and charset decision.
    pub fn tree_and_charset(&self) -> (&GameTree, Option<CharsetDecision>) {
        (self.tree(), self.charset)
    }

    fn tree(&self) -> &GameTree {
        &self.coll.games[self.index]
    }

    fn node(&self, id: NodeId) -> PyNode {
        PyNode { coll: self.coll.clone(), game: self.index, id }
    }

    /// The nodes from the root to `node` (the main line when None); `node` must be of this game.
    fn path_to(&self, node: Option<&Bound<'_, PyNode>>) -> PyResult<Vec<NodeId>> {
        let Some(node) = node else {
            return Ok(self.tree().main_line().map(|n| n.id()).collect());
        };
        let node = node.get();
        let same = (Arc::ptr_eq(&self.coll, &node.coll) && self.index == node.game) || self.tree() == node.tree();
        if !same {
            return Err(PyValueError::new_err("the node is not a node of this game"));
        }
        let mut path = vec![node.id];
        while let Some(parent) = self.tree().parent(*path.last().expect("not empty")) {
            path.push(parent);
        }
        path.reverse();
        Ok(path)
    }

    /// The game as a collection of its own, for the writers.
    fn single(&self) -> std::borrow::Cow<'_, Collection> {
        if self.coll.games.len() == 1 {
            std::borrow::Cow::Borrowed(&*self.coll)
        } else {
            std::borrow::Cow::Owned(Collection::new(vec![self.tree().clone()]))
        }
    }
}

#[pymethods]
impl PyGame {
    /// The game information (players, ranks, komi, result, date, …).
    #[getter]
    fn info(&self, py: Python<'_>) -> PyResult<PyGameInfo> {
        PyGameInfo::of(py, self.tree())
    }

    /// The board size as `(columns, rows)` (19×19 when `SZ` is absent).
    #[getter]
    fn size(&self) -> (u8, u8) {
        let s = self.tree().board_size();
        (s.width, s.height)
    }

    /// The moves of the main line: `(color, (x, y))` with color `"B"` or `"W"`, and `None`
    /// instead of the point for a pass.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let tree = self.tree();
        let size = tree.board_size();
        let moves = tree.main_line().filter_map(|n| n.mv_on(size)).map(|(c, m)| py_move(py, c, m));
        PyList::new(py, moves.collect::<PyResult<Vec<_>>>()?)
    }

    /// The root's setup stones: `{"AB": [(x, y), …], "AW": […], "AE": […]}` (handicap stones are
    /// in `AB`); compressed lists are expanded.
    #[getter]
    fn setup<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.node(NodeId::ROOT).setup(py)
    }

    /// The first node of the tree (game information and setup live here).
    #[getter]
    fn root(&self) -> PyNode {
        self.node(NodeId::ROOT)
    }

    /// Every node in pre-order (the main line first at every branch).
    fn nodes(&self) -> Vec<PyNode> {
        self.tree().nodes().map(|n| self.node(n.id())).collect()
    }

    /// The nodes of the main line, the root first.
    fn main_line(&self) -> Vec<PyNode> {
        self.tree().main_line().map(|n| self.node(n.id())).collect()
    }

    /// The main line as a NumPy `int16` array of shape `(n, 3)`: color (0 Black, 1 White), x, y;
    /// a pass is `x = y = -1`. Needs NumPy (imported only here).
    fn moves_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::numpy_moves(py, &crate::moves::main_line_bytes(self.tree()))
    }

    /// The number of nodes.
    fn __len__(&self) -> usize {
        self.tree().len()
    }

    fn __repr__(&self) -> String {
        let info = self.tree().info();
        let name = |n: Option<String>| n.unwrap_or_else(|| "?".into());
        let result = info.result_text.map_or_else(String::new, |r| format!(" {r}"));
        let moves = self.tree().main_line_moves();
        format!("<Game {} vs {}{result}, {moves} moves>", name(info.black), name(info.white))
    }

    /// How the input the game came from was decoded (as its collection's `charset`).
    #[getter]
    fn charset(&self) -> Option<PyCharset> {
        charset_object(self.charset)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGame>().is_ok_and(|o| {
            let o = o.get();
            self.charset == o.charset
                && ((Arc::ptr_eq(&self.coll, &o.coll) && self.index == o.index) || self.tree() == o.tree())
        })
    }

    fn __hash__(&self) -> u64 {
        *self.hash.get_or_init(|| {
            values::hash_of((values::tree_hash(self.tree()), self.charset.as_ref().map(values::charset_state)))
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let payload = PyBytes::new(py, &values::games_payload(&self.single())?).into_any();
        let charset = self.charset().into_pyobject(py)?.into_any();
        values::reduce(py, "Game", vec![payload, charset])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// A game of its own (the tree copied), equal to this one.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        PyGame::alone(self.tree().clone(), self.charset)
    }

    /// The positions of the main line, or of the line from the root to `node` (a node of this
    /// game): a NumPy `int8` array of shape `(moves + 1, rows, columns)`, indexed `[k, y, x]`,
    /// 1 a black stone, -1 a white one, 0 an empty point, replayed by kifu's board
    /// (`kifu::go::Board`: captures applied). Plane k is the position on which `moves[k]` is
    /// played, the last plane the position at the end of the line: plane 0 holds the setup
    /// (`AB`/`AW`/`AE`) up to the first move, and setup in later nodes is applied at its node,
    /// before the node's move. A pass repeats the position. A move the board refuses (occupied
    /// point, suicide, immediate ko retake, a point off the board) is skipped, as `kifu diagram`
    /// skips it (the next plane repeats the position), and issues a `KifuWarning`
    /// (`illegal_moves()` lists them).
    #[pyo3(signature = (node = None))]
    fn positions<'py>(&self, py: Python<'py>, node: Option<&Bound<'py, PyNode>>) -> PyResult<Bound<'py, PyAny>> {
        let path = self.path_to(node)?;
        let planes = crate::positions::planes(self.tree(), &path);
        crate::positions::warn_illegal(py, &planes, None)?;
        crate::import_numpy(py)?;
        crate::positions::array(py, planes)
    }

    /// The moves of the main line (or of the line to `node`) that kifu's board refuses, as
    /// `Diagnostic`s (`diagram.illegal-move`, as `kifu diagram` reports them):
    /// `move 2 (W cc): the point is occupied; skipped on the board`.
    #[pyo3(signature = (node = None))]
    fn illegal_moves<'py>(&self, py: Python<'py>, node: Option<&Bound<'py, PyNode>>) -> PyResult<Bound<'py, PyList>> {
        let path = self.path_to(node)?;
        let planes = crate::positions::planes(self.tree(), &path);
        errors::diagnostic_list(py, planes.illegal.iter().map(crate::positions::Illegal::diagnostic))
    }

    /// The game as FF[4] SGF text (UTF-8).
    fn to_sgf(&self, py: Python<'_>) -> PyResult<String> {
        encode_text(py, &self.single(), kifu::Format::SGF, self.charset)
    }

    /// The game as kifu's JSON (see the repository's formats/json.md).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        encode_text(py, &self.single(), adapter::format_named("json").map_err(PyValueError::new_err)?, self.charset)
    }

    /// The game in `format`, as `Collection.to_bytes`.
    #[pyo3(signature = (format = String::from("sgf"), *, encoding = None, lossy = false, expand_lists = false))]
    #[pyo3(text_signature = "(self, format='sgf', *, encoding=None, lossy=False, expand_lists=False)")]
    fn to_bytes(
        &self,
        py: Python<'_>,
        format: String,
        encoding: Option<String>,
        lossy: bool,
        expand_lists: bool,
    ) -> PyResult<Vec<u8>> {
        encode_bytes(py, &self.single(), &format, &WriteArgs { encoding, lossy, expand_lists }, self.charset)
    }

    /// Writes the game to `path`, as `Collection.write`.
    #[pyo3(signature = (path, format = None, *, encoding = None, lossy = false, expand_lists = false, force = false))]
    #[allow(clippy::too_many_arguments)]
    fn write<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        format: Option<String>,
        encoding: Option<String>,
        lossy: bool,
        expand_lists: bool,
        force: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let args = WriteArgs { encoding, lossy, expand_lists };
        write_file(py, &self.single(), path, format.as_deref(), &args, force, self.charset)
    }
}

/// A node of a game tree: its `properties` (identifier → list of values, in file order),
/// `children` (the main line first) and `parent`. Two nodes are equal when they are at the same
/// place (pre-order `index`) of equal trees; pickling keeps the node's game.
#[pyclass(frozen, module = "kifu", name = "Node")]
pub struct PyNode {
    coll: Arc<Collection>,
    game: usize,
    id: NodeId,
}

impl PyNode {
    fn get(&self) -> kifu::model::Node<'_> {
        self.tree().node(self.id)
    }

    fn tree(&self) -> &GameTree {
        &self.coll.games[self.game]
    }

    fn at(&self, id: NodeId) -> PyNode {
        PyNode { coll: self.coll.clone(), game: self.game, id }
    }

    fn setup<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for key in ["AB", "AW", "AE"] {
            dict.set_item(key, PyList::empty(py))?;
        }
        for p in self.get().props().filter(|p| p.setup().is_some()) {
            let points: Vec<(u8, u8)> = p.points().map(|q| (q.x, q.y)).collect();
            dict.get_item(p.ident())?.map_or(Ok(()), |list| list.call_method1("extend", (points,)).map(drop))?;
        }
        Ok(dict)
    }
}

#[pymethods]
impl PyNode {
    /// The properties: identifier → list of values (text, unescaped; a composed value such as
    /// `aa:cc` keeps its colon), in file order.
    #[getter]
    fn properties<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for p in self.get().props() {
            let values: Vec<&str> = p.values().map(|v| v.as_str()).collect();
            match dict.get_item(p.ident())? {
                Some(list) => list.call_method1("extend", (values,)).map(drop)?,
                None => dict.set_item(p.ident(), values)?,
            }
        }
        Ok(dict)
    }

    /// The children, the main line first.
    #[getter]
    fn children(&self) -> Vec<PyNode> {
        self.get().children().map(|c| self.at(c.id())).collect()
    }

    /// The parent, None for the root.
    #[getter]
    fn parent(&self) -> Option<PyNode> {
        self.get().parent().map(|p| self.at(p.id()))
    }

    /// The move played here, `(color, (x, y))` or `(color, None)` for a pass; None when the node
    /// plays no move.
    #[getter]
    #[pyo3(name = "move")]
    fn mv<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.get().mv().map(|(c, m)| py_move(py, c, m)).transpose()
    }

    /// The setup stones placed here: `{"AB": [(x, y), …], "AW": […], "AE": […]}`.
    #[getter(setup)]
    fn setup_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.setup(py)
    }

    /// The comment (`C`), or None.
    #[getter]
    fn comment(&self) -> Option<&str> {
        self.get().value("C")
    }

    /// The node's place in pre-order (the root is 0).
    #[getter]
    fn index(&self) -> usize {
        self.id.index()
    }

    /// The first value of property `ident`, or `default`.
    #[pyo3(signature = (ident, default = None))]
    fn get_value(&self, ident: String, default: Option<String>) -> Option<String> {
        self.get().value(&ident).map(str::to_string).or(default)
    }

    fn __getitem__(&self, ident: String) -> PyResult<Vec<&str>> {
        if self.get().get(&ident).is_none() {
            return Err(PyKeyError::new_err(ident));
        }
        let mut values = Vec::new();
        for p in self.get().props().filter(|p| p.ident() == ident) {
            values.extend(p.values().map(|v| v.as_str()));
        }
        Ok(values)
    }

    fn __contains__(&self, ident: String) -> bool {
        self.get().get(&ident).is_some()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyNode>().is_ok_and(|o| {
            let o = o.get();
            self.id == o.id && ((Arc::ptr_eq(&self.coll, &o.coll) && self.game == o.game) || self.tree() == o.tree())
        })
    }

    fn __hash__(&self) -> u64 {
        values::node_hash(self.tree(), self.id)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let game = PyGame::alone(self.tree().clone(), None).into_pyobject(py)?.into_any();
        values::reduce(py, "Node", vec![game, self.id.index().into_pyobject(py)?.into_any()])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The same node of a copy of its game, equal to this one.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyNode {
        PyNode { coll: Arc::new(Collection::new(vec![self.tree().clone()])), game: 0, id: self.id }
    }

    fn __repr__(&self) -> String {
        format!("<Node {:?}>", self.get())
    }
}

/// How a game ended: `winner` (`"B"`, `"W"` or None), `how` (`"score"`, `"points"` (margin not
/// given), `"resign"`, `"time"`, `"forfeit"`, `"draw"`, `"void"`, `"unknown"`) and `margin` (the
/// score difference, for `"score"`). `str(result)` is the FF[4] form (`B+R`, `W+3.5`).
///
/// Every game has one: a game without a result kifu understands (no `RE`, or one not in FF[4]
/// form) has an empty result, false in a boolean context, with `how`, `winner` and `margin`
/// None and `text` the `RE` as written (`""` without `RE`). A value (compared and hashed by its
/// fields).
#[pyclass(frozen, get_all, module = "kifu", name = "GameResult")]
pub struct PyGameResult {
    winner: Option<String>,
    how: Option<String>,
    margin: Option<f64>,
    text: String,
}

impl PyGameResult {
    fn of(r: Option<&GameResult>, written: Option<&str>) -> PyGameResult {
        match r {
            Some(r) => {
                let (winner, how, margin) = r.parts();
                let winner = winner.map(|c| Color::as_sgf(c).to_string());
                PyGameResult { winner, how: Some(how.to_string()), margin, text: r.to_sgf() }
            }
            None => PyGameResult { winner: None, how: None, margin: None, text: written.unwrap_or("").to_string() },
        }
    }

    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (self.winner.clone(), self.how.clone(), self.margin, self.text.clone()).into_pyobject(py)
    }
}

#[pymethods]
impl PyGameResult {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        match self.how {
            Some(_) => format!("<GameResult {}>", self.text),
            None => format!("<GameResult none {:?}>", self.text),
        }
    }

    /// False for the empty result of a game without one.
    fn __bool__(&self) -> bool {
        self.how.is_some()
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<PyGameResult>() {
            Ok(o) => self.state(py)?.eq(o.get().state(py)?),
            Err(_) => Ok(false),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.state(py)?.hash()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        values::reduce(py, "GameResult", vec![self.state(py)?.into_any()])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

impl PyGameResult {
    /// The result of [`PyGameResult::state`]'s values.
    pub fn of_state(state: &Bound<'_, PyTuple>) -> PyResult<PyGameResult> {
        let (winner, how, margin, text) = state.extract()?;
        Ok(PyGameResult { winner, how, margin, text })
    }
}

/// The game information, from the root (and the first nodes of the main line when the root
/// lacks a property). Every field is None when the game does not say.
#[pyclass(frozen, get_all, module = "kifu", name = "GameInfo")]
pub struct PyGameInfo {
    /// Black's name (`PB`).
    black: Option<String>,
    /// White's name (`PW`).
    white: Option<String>,
    /// Black's rank (`BR`), as written.
    black_rank: Option<String>,
    /// White's rank (`WR`).
    white_rank: Option<String>,
    /// Black's team (`BT`).
    black_team: Option<String>,
    /// White's team (`WT`).
    white_team: Option<String>,
    /// Komi (`KM`).
    komi: Option<f64>,
    /// Handicap stones (`HA`).
    handicap: Option<u32>,
    /// The result parsed (`RE`); an empty result (false, its fields None) when absent or not in
    /// FF[4] form.
    result: Py<PyGameResult>,
    /// The result as written (`RE`).
    result_text: Option<String>,
    /// Date (`DT`), as written.
    date: Option<String>,
    /// Rules (`RU`).
    rules: Option<String>,
    /// Main time in seconds (`TM`).
    time: Option<f64>,
    /// Overtime (`OT`).
    overtime: Option<String>,
    /// Event (`EV`).
    event: Option<String>,
    /// Round (`RO`).
    round: Option<String>,
    /// Place (`PC`).
    place: Option<String>,
    /// Game name (`GN`).
    name: Option<String>,
    /// Source (`SO`).
    source: Option<String>,
    /// Game comment (`GC`).
    comment: Option<String>,
    /// Board size as `(columns, rows)`.
    size: (u8, u8),
}

impl PyGameInfo {
    fn of(py: Python<'_>, tree: &GameTree) -> PyResult<PyGameInfo> {
        let i = tree.info();
        let size = tree.board_size();
        let result = Py::new(py, PyGameResult::of(i.result.as_ref(), i.result_text.as_deref()))?;
        Ok(PyGameInfo {
            black: i.black,
            white: i.white,
            black_rank: i.black_rank,
            white_rank: i.white_rank,
            black_team: i.black_team,
            white_team: i.white_team,
            komi: i.komi,
            handicap: i.handicap,
            result,
            result_text: i.result_text,
            date: i.date,
            rules: i.rules,
            time: i.time,
            overtime: i.overtime,
            event: i.event,
            round: i.round,
            place: i.place,
            name: i.name,
            source: i.source,
            comment: i.comment,
            size: (size.width, size.height),
        })
    }
}

impl PyGameInfo {
    /// Every field, in the order of the declaration.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let fields: Vec<Bound<'py, PyAny>> = vec![
            self.black.clone().into_pyobject(py)?.into_any(),
            self.white.clone().into_pyobject(py)?.into_any(),
            self.black_rank.clone().into_pyobject(py)?.into_any(),
            self.white_rank.clone().into_pyobject(py)?.into_any(),
            self.black_team.clone().into_pyobject(py)?.into_any(),
            self.white_team.clone().into_pyobject(py)?.into_any(),
            self.komi.into_pyobject(py)?.into_any(),
            self.handicap.into_pyobject(py)?.into_any(),
            self.result.bind(py).clone().into_any(),
            self.result_text.clone().into_pyobject(py)?.into_any(),
            self.date.clone().into_pyobject(py)?.into_any(),
            self.rules.clone().into_pyobject(py)?.into_any(),
            self.time.into_pyobject(py)?.into_any(),
            self.overtime.clone().into_pyobject(py)?.into_any(),
            self.event.clone().into_pyobject(py)?.into_any(),
            self.round.clone().into_pyobject(py)?.into_any(),
            self.place.clone().into_pyobject(py)?.into_any(),
            self.name.clone().into_pyobject(py)?.into_any(),
            self.source.clone().into_pyobject(py)?.into_any(),
            self.comment.clone().into_pyobject(py)?.into_any(),
            self.size.into_pyobject(py)?.into_any(),
        ];
        PyTuple::new(py, fields)
    }

    /// The information of [`PyGameInfo::state`]'s values.
    pub fn of_state(state: &Bound<'_, PyTuple>) -> PyResult<PyGameInfo> {
        let f = |i: usize| state.get_item(i);
        let s = |i: usize| -> PyResult<Option<String>> { f(i)?.extract() };
        Ok(PyGameInfo {
            black: s(0)?,
            white: s(1)?,
            black_rank: s(2)?,
            white_rank: s(3)?,
            black_team: s(4)?,
            white_team: s(5)?,
            komi: f(6)?.extract()?,
            handicap: f(7)?.extract()?,
            result: f(8)?.cast_into::<PyGameResult>()?.unbind(),
            result_text: s(9)?,
            date: s(10)?,
            rules: s(11)?,
            time: f(12)?.extract()?,
            overtime: s(13)?,
            event: s(14)?,
            round: s(15)?,
            place: s(16)?,
            name: s(17)?,
            source: s(18)?,
            comment: s(19)?,
            size: f(20)?.extract()?,
        })
    }
}

/// A value: compared and hashed by its fields; pickled with them.
#[pymethods]
impl PyGameInfo {
    fn __repr__(&self) -> String {
        let s = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
        format!("<GameInfo {} vs {}, {}>", s(&self.black), s(&self.white), s(&self.result_text))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<PyGameInfo>() {
            Ok(o) => self.state(py)?.eq(o.get().state(py)?),
            Err(_) => Ok(false),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.state(py)?.hash()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        values::reduce(py, "GameInfo", vec![self.state(py)?.into_any()])
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// The games of one input, one at a time (`kifu.iter_games`), read as they are taken: a large
/// SGF collection or NDJSON file is read in pieces, so memory stays bounded whatever its size.
/// `charset` and `diagnostics` are the input's, as on `Collection`; `diagnostics` holds what was
/// found so far, all of it once the iteration has ended.
#[pyclass(module = "kifu", name = "GameIterator")]
pub struct PyGameIterator {
    /// The reader; `None` once it has ended.
    games: Mutex<Option<adapter::GameStream>>,
    /// The game read ahead (the first, read when the iterator is made).
    ahead: Option<GameTree>,
    charset: Option<CharsetDecision>,
    diagnostics: Vec<Diagnostic>,
    /// The file read, for error messages.
    path: Option<PathBuf>,
}

impl PyGameIterator {
    /// Starts reading `games`: the first game is read at once, so that an input holding none
    /// raises `ReadError` here, as `read` does, and `charset` is known.
    pub fn new(py: Python<'_>, games: adapter::GameStream, path: Option<PathBuf>) -> PyResult<PyGameIterator> {
        let mut it = PyGameIterator {
            games: Mutex::new(Some(games)),
            ahead: None,
            charset: None,
            diagnostics: Vec::new(),
            path,
        };
        it.ahead = it.pull(py)?;
        Ok(it)
    }

    /// The next game from the reader (the GIL released while it reads); at the end, the
    /// collection-level diagnostics are added, or the `ReadError` of an input without games
    /// raised. A panic inside kifu becomes a `ReadError` with code `internal.panic`.
    fn pull(&mut self, py: Python<'_>) -> PyResult<Option<GameTree>> {
        let slot = self.games.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(games) = slot.as_mut() else { return Ok(None) };
        let step = crate::parallel::detach(py, || {
            crate::parallel::guard(|| match games.next() {
                Some(Ok(game)) => Ok(Ok(Some(game))),
                Some(Err(e)) => Err(e),
                None => Ok(Ok(None)),
            })
        })?;
        self.charset = self.charset.or(games.charset());
        self.diagnostics.extend(games.take_diagnostics());
        let path = self.path.as_deref();
        match step {
            Ok(Ok(Some(game))) => Ok(Some(game)),
            Ok(Ok(None)) => {
                let games = slot.take().expect("the reader is there");
                let end = crate::parallel::detach(py, || {
                    crate::parallel::guard(|| Ok::<_, std::convert::Infallible>(games.finish()))
                })?;
                match end {
                    Ok(Ok(found)) => {
                        self.diagnostics.extend(found);
                        Ok(None)
                    }
                    Ok(Err(e)) => Err(errors::read_error(py, e, path)),
                    Err(never) => match never {},
                }
            }
            Ok(Err(e)) => {
                slot.take();
                Err(errors::read_error(py, e, path))
            }
            Err(e) => {
                slot.take();
                // A record past `Limits::max_record` is the input's fault: `ReadError`, as `read` raises.
                match adapter::over_a_limit(&e) {
                    Some(over) => Err(errors::read_error(py, over, path)),
                    None => Err(errors::os_error(py, e, path.unwrap_or(std::path::Path::new("")))),
                }
            }
        }
    }
}

#[pymethods]
impl PyGameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyGame>> {
        let game = match self.ahead.take() {
            Some(game) => Some(game),
            None => self.pull(py)?,
        };
        Ok(game.map(|tree| PyGame::alone(tree, self.charset)))
    }

    /// How the input was decoded.
    #[getter]
    fn charset(&self) -> Option<PyCharset> {
        charset_object(self.charset)
    }

    /// What the reader found so far (all of it once the iteration has ended), as on `Collection`.
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let note = self.charset.map(|c| c.note());
        errors::diagnostic_list(py, note.into_iter().chain(self.diagnostics.iter().cloned()))
    }
}
