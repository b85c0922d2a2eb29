//! `kifu.read_table`: the inputs read in parallel with the GIL released, their games appended to
//! record batches of the table's schema in Rust, and the batches handed to pyarrow through the
//! Arrow C stream interface (`__arrow_c_stream__`), without a copy.

use crate::adapter::table::{self, GameTree, TableRead};
use crate::input::{self, Input};
use crate::{ReadArgs, errors, parallel};
use arrow_array::RecordBatch;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};
use std::io;
use std::path::{Path, PathBuf};

/// The filters `read_table` takes as keyword arguments: simple matches on each game.
#[derive(Default)]
struct Filters {
    /// `PB` or `PW` equals this.
    player: Option<String>,
    /// `PB` equals this.
    black: Option<String>,
    /// `PW` equals this.
    white: Option<String>,
    /// At least this many moves on the main line.
    min_moves: Option<usize>,
    /// At most this many moves on the main line.
    max_moves: Option<usize>,
    /// The board is this size (width, height).
    size: Option<(u8, u8)>,
}

/// The names `read_table` takes as filters.
const FILTERS: &str = "player, black, white, min_moves, max_moves, size";

impl Filters {
    fn from_dict(filters: Option<&Bound<'_, PyDict>>) -> PyResult<Filters> {
        let mut f = Filters::default();
        let Some(filters) = filters else { return Ok(f) };
        for (key, value) in filters.iter() {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            match key.as_str() {
                "player" => f.player = Some(value.extract()?),
                "black" => f.black = Some(value.extract()?),
                "white" => f.white = Some(value.extract()?),
                "min_moves" => f.min_moves = Some(value.extract()?),
                "max_moves" => f.max_moves = Some(value.extract()?),
                "size" => {
                    f.size = Some(match value.extract::<u8>() {
                        Ok(n) => (n, n),
                        Err(_) => value.extract::<(u8, u8)>().map_err(|_| {
                            PyTypeError::new_err("size is a board size: 19, or (width, height) such as (19, 13)")
                        })?,
                    })
                }
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "read_table() got an unknown filter '{other}' (filters: {FILTERS})"
                    )));
                }
            }
        }
        Ok(f)
    }

    fn keep(&self, game: &GameTree) -> bool {
        let names = self.player.is_some() || self.black.is_some() || self.white.is_some();
        if names {
            let info = game.info();
            let is =
                |want: &Option<String>, got: &Option<String>| want.as_ref().is_none_or(|w| got.as_ref() == Some(w));
            if !is(&self.black, &info.black) || !is(&self.white, &info.white) {
                return false;
            }
            if let Some(p) = &self.player {
                if info.black.as_ref() != Some(p) && info.white.as_ref() != Some(p) {
                    return false;
                }
            }
        }
        if self.min_moves.is_some() || self.max_moves.is_some() {
            let n = game.main_line_moves();
            if self.min_moves.is_some_and(|m| n < m) || self.max_moves.is_some_and(|m| n > m) {
                return false;
            }
        }
        if let Some((w, h)) = self.size {
            let size = game.board_size();
            if (size.width, size.height) != (w, h) {
                return false;
            }
        }
        true
    }
}

/// Why an input of a group failed: the file system's error or kifu's, with the input's path.
enum Failure {
    Io(io::Error, PathBuf),
    Read(kifu::ReadError, Option<PathBuf>),
    Table(String),
}

/// Inputs per record batch: a few hundred small files make one batch (not one batch per file).
const GROUP: usize = 256;

/// The record batches of one group of inputs (failed inputs left out when `skip_errors`).
fn group_batch(inputs: &[Input], args: ReadArgs, skip_errors: bool, filters: &Filters) -> Result<RecordBatch, Failure> {
    let mut reads: Vec<TableRead> = Vec::with_capacity(inputs.len());
    for input in inputs {
        let outcome = parallel::guard(|| {
            input.clone().read_with(|b, path| table::read_for_table(b, args.format, path, args.encoding))
        });
        match outcome {
            Ok(Ok(r)) => reads.push(r),
            _ if skip_errors => {}
            Ok(Err(e)) => return Err(Failure::Read(e, input.path().map(Path::to_path_buf))),
            Err(e) => return Err(Failure::Io(e, input.path().map(Path::to_path_buf).unwrap_or_default())),
        }
    }
    let keep = |g: &GameTree| filters.keep(g);
    table::batch(&reads, &keep).map_err(Failure::Table)
}

/// The table of games of `sources` as record batches, ready for pyarrow (`kifu.read_table`, in
/// `kifu/_table.py`, is the documented entry point).
#[pyfunction]
#[pyo3(signature = (sources, threads = None, format = None, encoding = None, skip_errors = false, filters = None))]
pub fn _read_table(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    threads: Option<usize>,
    format: Option<String>,
    encoding: Option<String>,
    skip_errors: bool,
    filters: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyArrowStream> {
    let args = ReadArgs::new(format, encoding)?;
    let filters = Filters::from_dict(filters)?;
    let inputs = input::inputs(sources)?;
    let groups: Vec<std::ops::Range<usize>> =
        (0..inputs.len()).step_by(GROUP).map(|s| s..(s + GROUP).min(inputs.len())).collect();
    let mut batches = Vec::with_capacity(groups.len());
    let work = |range: &std::ops::Range<usize>| group_batch(&inputs[range.clone()], args, skip_errors, &filters);
    parallel::pipeline(
        py,
        threads,
        &groups,
        |r| Ok(r.clone()),
        work,
        |_, done| {
            match done {
                Ok(batch) => batches.push(batch),
                Err(Failure::Read(e, path)) => return Err(errors::read_error(py, e, path.as_deref())),
                Err(Failure::Io(e, path)) => return Err(errors::os_error(py, e, &path)),
                Err(Failure::Table(message)) => return Err(PyRuntimeError::new_err(message)),
            }
            Ok(())
        },
    )?;
    Ok(PyArrowStream { batches })
}

/// Record batches of the table of games, handed over through the Arrow PyCapsule interface:
/// `pyarrow.RecordBatchReader.from_stream(obj)` (or any consumer of `__arrow_c_stream__`) takes
/// them without a copy.
#[pyclass(name = "ArrowStream", module = "kifu._kifu", frozen)]
pub struct PyArrowStream {
    batches: Vec<RecordBatch>,
}

#[pymethods]
impl PyArrowStream {
    /// A capsule `arrow_array_stream` holding an Arrow C stream of the batches (the schema is
    /// the table's; a `requested_schema` is not applied).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        PyCapsule::new_with_value(py, table::stream(self.batches.clone()), c"arrow_array_stream")
    }

    /// The number of rows (games).
    fn __len__(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }
}
