//! Converting many files at once: walk folders, plan output paths, convert in parallel, report.
//!
//! [`plan`] finds the inputs and decides every output path (mirroring relative paths, resolving
//! name collisions deterministically, refusing outputs that are inputs); [`execute`] converts
//! them on a rayon pool and returns a [`Report`] whose records and output bytes are the same for
//! any thread count. Nothing here prints: progress goes through a callback. The report records
//! are specified in [`formats/report.md`](kifu::spec::report).

pub mod glob;
mod merge;
mod plan;
pub mod report;
mod run;
pub mod walk;

pub use glob::Glob;
pub(crate) use plan::inputs;
pub use plan::{Plan, plan};
pub use report::{DiagRecord, Record, Report, Stage, Status};
pub(crate) use walk::{Found, Verdict};
pub use walk::{Inputs, Totals, WalkArgs};

use kifu::Reader;
use kifu::formats::{Format, ReadOptions, WriteError, WriteOptions, WriteOutput};
use kifu::model::Collection;
use kifu::output::Existing;
use std::path::PathBuf;
use std::sync::Arc;

/// Reads one input's `bytes` (as read from `path`, shown as `name`) through the options' reader:
/// the format decision, then the read. `Err` is why nothing could be read (the file, or no
/// format); the read's own refusal is the inner `Err`. The one read step of `convert`, `check`,
/// `info`, `diagram`, `stats` and `dedup` over a walk.
pub(crate) fn read_input(
    path: &std::path::Path,
    name: &str,
    bytes: std::io::Result<Vec<u8>>,
    options: &BatchOptions,
) -> Result<(kifu::reader::Decision, Result<kifu::ReadOutput, kifu::ReadError>), kifu::Diagnostic> {
    let bytes = bytes.map_err(|e| {
        let code = if e.kind() == std::io::ErrorKind::InvalidInput { codes::NOT_REGULAR } else { codes::CANNOT_READ };
        kifu::Diagnostic::error(code, format!("cannot read {name}: {e}"))
    })?;
    let reader = options.reader();
    let Ok(decision) = reader.decide(Some(path), &bytes) else {
        return Err(kifu::Diagnostic::error(codes::UNKNOWN_FORMAT, crate::input::no_format(&bytes)));
    };
    let read = reader.read_as(decision.format, bytes);
    Ok((decision, read))
}

/// Converts every input of `plan`, calling `progress` as each one finishes (from worker threads,
/// in completion order). The report's records follow the plan's (input-path) order; a merged
/// run ([`Collect::Merge`]) writes its one output as the inputs are read.
pub fn execute(plan: Plan, options: &BatchOptions, progress: &(dyn Fn(&Record) + Sync)) -> Result<Report, BatchError> {
    run::execute(plan, options, progress, merge::merge)
}

/// Makes each input's output in place of a format's writer (`kifu diagram` draws pictures
/// through it); everything else of a batch run (walk, plan, safety, report) stays the same.
pub trait Produce: Send + Sync {
    /// The output's name in the report's `to` field (`svg`, `png` …).
    fn name(&self) -> &'static str;
    /// The extension of the output files.
    fn extension(&self) -> &'static str;
    /// The output of one input's games (one part with `--split`).
    fn produce(&self, games: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError>;
}

impl std::fmt::Debug for dyn Produce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Produce({})", self.name())
    }
}

/// Diagnostic codes of batch runs (stage `batch` in the report).
pub mod codes {
    /// Two inputs would have had the same output path; this one got another name.
    pub const NAME_COLLISION: &str = "batch.name-collision";
    /// An output path would lead out of the output folder (or, in place, out of its input's
    /// folder); refused.
    pub const OUTPUT_OUTSIDE: &str = "batch.output-outside";
    /// A folder below the output folder is a symbolic link; refused without `--force`.
    pub const OUTPUT_LINK: &str = "batch.output-link";
    /// The output path resolves to an input file; refused.
    pub const OUTPUT_IS_INPUT: &str = "batch.output-is-input";
    /// The output exists and neither `--force` nor `--skip-existing` was given.
    pub const OUTPUT_EXISTS: &str = "batch.output-exists";
    /// The output exists and `--skip-existing` was given; the input was not converted.
    pub const SKIPPED_EXISTING: &str = "batch.skipped-existing";
    /// A symbolic link was not followed (give `--follow-symlinks`).
    pub const SYMLINK: &str = "batch.symlink";
    /// A folder entry could not be read while walking (permissions, a link loop).
    pub const WALK_ERROR: &str = "batch.walk-error";
    /// The input file could not be read.
    pub const CANNOT_READ: &str = "batch.cannot-read";
    /// The input's format could not be told from its name or content.
    pub const UNKNOWN_FORMAT: &str = "batch.unknown-format";
    /// The output (or its folder) could not be created or written.
    pub const CANNOT_WRITE: &str = "batch.cannot-write";
    /// The input is not a regular file (it became a FIFO, a device or a socket after the walk).
    pub const NOT_REGULAR: &str = "batch.not-regular";
    /// With `--merge`, this input contributed no games because it failed.
    pub const NOT_MERGED: &str = "batch.not-merged";
    /// With the merged output on standard output, its reader went away (a closed pipe): the
    /// inputs not read yet are skipped.
    pub const STDOUT_CLOSED: &str = "batch.stdout-closed";
    /// A member of an archive with neither `-O` nor `--merge`: kifu never writes into an
    /// archive, nor beside it in place.
    pub const ARCHIVE_IN_PLACE: &str = "batch.archive-in-place";
    /// The filters left out every game of the input: nothing written for it (skipped).
    pub const FILTERED_OUT: &str = "batch.filtered-out";
    /// With `--dedup`: a game left out because another copy of it is kept (named in the
    /// message); an input all of whose games are so left out is `skipped`.
    pub const DUPLICATE: &str = "batch.duplicate";
}

/// Whether `path` names standard output (`--merge -`).
pub fn is_stdout(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// How inputs map to outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Collect {
    /// One output per input.
    #[default]
    PerFile,
    /// One output per game: `name-001.sgf`, `name-002.sgf`, … (a single-game input keeps
    /// `name.sgf`).
    Split,
    /// Every game of every input, in the order the inputs are given (a folder's files in path
    /// order), into this one file; `-` is standard output.
    Merge(PathBuf),
}

/// Options of a batch run.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Read every input as this format (default: by extension, else by content).
    pub from: Option<Format>,
    /// The output format.
    pub to: Format,
    /// Reader options (charset override …).
    pub read: ReadOptions,
    /// Writer options (output charset …).
    pub write: WriteOptions,
    /// Walk folders given as inputs.
    pub recursive: bool,
    /// Follow symbolic links while walking (they are recorded as skipped otherwise).
    pub follow_symlinks: bool,
    /// When not empty, only files matching one of these are taken from walked folders.
    pub include: Vec<Glob>,
    /// Files and folders matching one of these are left out of walks.
    pub exclude: Vec<Glob>,
    /// Where the outputs go, mirroring the relative paths of the inputs.
    pub out_dir: Option<PathBuf>,
    /// Allow writing inside the input tree; without `out_dir`, outputs go beside their inputs.
    pub in_place: bool,
    /// What to do with existing outputs.
    pub existing: Existing,
    /// Do everything but create folders and write files.
    pub dry_run: bool,
    /// One output per input, per game, or one for all.
    pub collect: Collect,
    /// Worker threads; 0 = one per core.
    pub jobs: usize,
    /// Flush the outputs to the disk once, when the run ends (each file is not synced on its
    /// own: that costs a disk round trip per file).
    pub sync: bool,
    /// Makes the outputs instead of `to`'s writer (name and extension included).
    pub produce: Option<Arc<dyn Produce>>,
    /// Only the games that match are converted (formats/archives.md, "Filters").
    pub filter: kifu::select::Filter,
    /// What is removed from the games before they are written (formats/normalise.md,
    /// "Stripping").
    pub strip: kifu::strip::Strip,
    /// Names the outputs under `out_dir` from each game's information (formats/archives.md,
    /// "Naming") instead of mirroring the input paths.
    pub name: Option<kifu::naming::Template>,
}

impl BatchOptions {
    /// Default options converting to `to`.
    pub fn new(to: Format) -> BatchOptions {
        BatchOptions {
            from: None,
            to,
            read: ReadOptions::default(),
            write: WriteOptions::default(),
            recursive: false,
            follow_symlinks: false,
            include: Vec::new(),
            exclude: Vec::new(),
            out_dir: None,
            in_place: false,
            existing: Existing::Refuse,
            dry_run: false,
            collect: Collect::PerFile,
            jobs: 0,
            sync: true,
            produce: None,
            filter: kifu::select::Filter::new(),
            strip: kifu::strip::Strip::new(),
            name: None,
        }
    }

    /// The read pipeline every input goes through: `from` when given, and `read`.
    pub fn reader(&self) -> Reader {
        Reader::new().with_format_opt(self.from).with_options(self.read.clone())
    }

    /// The output's name: the producer's, else the format's.
    pub fn output_name(&self) -> &'static str {
        self.produce.as_ref().map_or(self.to.name(), |p| p.name())
    }

    /// Writes `games` with the producer, else with `to`'s writer.
    pub fn write(&self, games: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
        match &self.produce {
            Some(p) => p.produce(games, options),
            None => self.to.write(games, options),
        }
    }
}

/// A problem that stops a batch before any file is converted.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A folder was given without `recursive`.
    #[error("{} is a folder; give -r to convert the game records under it", .0.display())]
    IsDirectory(PathBuf),
    /// An input given by name does not exist or cannot be read.
    #[error("cannot read {}: {}", .0.display(), .1)]
    NoInput(PathBuf, std::io::Error),
    /// Neither an output folder nor `in_place` was given.
    #[error("{0} need an output folder: give -O DIR (or --in-place to write beside the inputs)")]
    NoDestination(&'static str),
    /// The output folder lies inside an input folder.
    #[error("the output folder {} is inside the input folder {}; choose another or give --in-place", .0.display(), .1.display())]
    OutputInsideInput(PathBuf, PathBuf),
    /// The output format cannot be written.
    #[error("kifu cannot write {0}")]
    CannotWrite(&'static str),
    /// An output path (`--merge`, `--report`) names an input or another output of the run.
    #[error("{0}")]
    OutputClash(String),
    /// `--name` without `-O`, or with `--merge`.
    #[error("--name names the files written under -O DIR (not with --merge or --in-place alone)")]
    NameNeedsOutputDir,
    /// The worker pool could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
}
