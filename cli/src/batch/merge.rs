//! A run whose inputs all go into one output (`--merge FILE`, `--merge -`, a table with `-o`),
//! written as it goes: the inputs are read a window at a time on the pool, then their games are
//! written in the plan's order through [`kifu::stream::Joiner`], so memory holds a window of
//! inputs (and a table's pending row group), never the whole merge.

use super::plan::{Job, Plan};
use super::report::{MergeRecord, Record, Report, Stage, Status};
use super::run::{
    TableInput, drop_duplicates, output_error, path_text, pick, policy, read_input, read_source, table_rows,
    write_error,
};
use super::{BatchOptions, codes};
use kifu::diag::Diagnostic;
use kifu::formats::Format;
use kifu::formats::WriteError;
use kifu::formats::parquet::{RecordBatch, TableBuilder, write_failed};
use kifu::output::{OutputError, Written, write_output_with};
use kifu::stream::{Joiner, write_part};
use rayon::prelude::*;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;

/// One input made ready for the merged output.
enum Part {
    /// Its games written in the output's format, and how many.
    Text(kifu::WriteOutput, usize),
    /// Its games, for a table.
    Rows(TableInput),
}

/// What takes each input's record and part, in order, and says whether to go on.
type Take<'a> = dyn FnMut(Record, Option<Part>, &mut Vec<Record>) -> ControlFlow<()> + 'a;

/// Inputs read at once per worker thread: the window of the pool.
const WINDOW_PER_THREAD: usize = 16;

/// The data of a row group of a table: rows are appended to one until it holds about this much.
const ROW_GROUP_BYTES: usize = 16 << 20;

/// The merged run of `plan` into `path` (`-` for standard output): each input's record, and the
/// merged output's.
pub(super) fn merge(plan: &Plan, path: &Path, options: &BatchOptions, progress: &(dyn Fn(&Record) + Sync)) -> Report {
    let to = options.to;
    let mut records: Vec<Record> = Vec::with_capacity(plan.jobs.len());
    let (mut inputs, mut games) = (0usize, 0usize);
    let mut scratch = Record::new(String::new(), None, options.output_name());
    // Why the writing stopped, when the output itself refused what it was given.
    let mut refused: Option<Vec<Diagnostic>> = None;
    let mut closed = false;
    let to_stdout = super::is_stdout(path);
    let mut fill = |out: &mut (dyn Write + Send)| -> io::Result<()> {
        let mut join = Joiner::new(to, out).map_err(|e| stop(&mut refused, e))?;
        let mut pending = Pending::new();
        let mut failure: Option<io::Error> = None;
        let mut take = |mut r: Record, part: Option<Part>, records: &mut Vec<Record>| {
            match part.filter(|_| failure.is_none()) {
                Some(part) => {
                    inputs += 1;
                    let written = match part {
                        Part::Text(w, n) => {
                            games += n;
                            join.push(&w, n)
                        }
                        Part::Rows(rows) => {
                            games += rows.rows();
                            pending.push(&rows, &mut join).map_err(|e| stop(&mut refused, e))
                        }
                    };
                    if let Err(e) = written {
                        failure = Some(e);
                    }
                }
                None if r.status == Status::Failed => {
                    let d = Diagnostic::info(codes::NOT_MERGED, "failed; none of its games are in the merged file");
                    r.add(Stage::Batch, &[d]);
                }
                None => {}
            }
            records.push(r);
            match &failure {
                Some(e) if to_stdout && e.kind() == io::ErrorKind::BrokenPipe => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        };
        let stopped = each_ready(&plan.jobs, options, progress, &mut records, &mut take);
        if let Some(e) = failure {
            closed = stopped && e.kind() == io::ErrorKind::BrokenPipe;
            return Err(e);
        }
        pending.flush(&mut join, true).map_err(|e| stop(&mut refused, e))?;
        scratch.add(Stage::Write, &join.take_diagnostics());
        join.finish().map(drop).map_err(|e| stop(&mut refused, e))
    };
    let written = if to_stdout {
        let result = if options.dry_run {
            fill(&mut io::sink())
        } else {
            fill(&mut io::BufWriter::with_capacity(1 << 16, io::stdout()))
        };
        result.map(|()| Written::Through).map_err(|e| OutputError::Write(path.to_path_buf(), e))
    } else {
        write_output_with(path, &policy(options), &mut fill)
    };
    let mut m = MergeRecord {
        output: path.display().to_string(),
        to: options.output_name(),
        inputs,
        games,
        status: Status::Ok,
        diagnostics: Vec::new(),
        unchanged: false,
    };
    match written {
        Ok(Written::Unchanged) => m.unchanged = true,
        Ok(Written::Kept) => {
            let d = Diagnostic::info(codes::SKIPPED_EXISTING, format!("{} exists; skipped", path.display()));
            scratch.add(Stage::Batch, &[d]);
            scratch.status = Status::Skipped;
        }
        Ok(_) => {}
        // A reader of standard output that went away wants no more: the inputs not read are
        // skipped, and nothing is an error.
        Err(_) if closed => {
            let d = Diagnostic::info(codes::STDOUT_CLOSED, "standard output was closed; not read");
            for job in &plan.jobs[records.len()..] {
                let mut r = Record::new(path_text(&job.input), None, options.output_name());
                r.add(Stage::Batch, std::slice::from_ref(&d));
                r.status = Status::Skipped;
                r.settle();
                records.push(r);
            }
        }
        Err(e) => {
            match refused.take() {
                Some(d) => scratch.add(Stage::Write, &d),
                None => scratch.add(Stage::Batch, &[output_error(&e)]),
            }
            scratch.status = Status::Failed;
        }
    }
    // The output was not written, or written only in part: every input still gets its record.
    if records.len() < plan.jobs.len() {
        let rest = &plan.jobs[records.len()..];
        each_ready(rest, options, progress, &mut records, &mut |r, _, records: &mut Vec<Record>| {
            records.push(r);
            ControlFlow::Continue(())
        });
    }
    scratch.settle();
    m.status = scratch.status;
    m.diagnostics = scratch.diagnostics;
    if m.status.converted() {
        for r in records.iter_mut().filter(|r| r.status != Status::Failed && r.status != Status::Skipped) {
            r.outputs.push(m.output.clone());
        }
    }
    Report::new(records, Some(m), plan.ignored, options.dry_run)
}

/// Keeps a write refusal's diagnostics in `refused` and gives the error that stops the output.
fn stop(refused: &mut Option<Vec<Diagnostic>>, e: kifu::formats::WriteError) -> io::Error {
    let error = io::Error::other(e.to_string());
    *refused = Some(write_error(e));
    error
}

/// Reads `jobs` a window at a time on the pool, and hands each input's record and part to
/// `take` in the plan's order; `true` when `take` stopped the run (the records of the window
/// already read are handed over all the same, without their parts).
fn each_ready(
    jobs: &[Job],
    options: &BatchOptions,
    progress: &(dyn Fn(&Record) + Sync),
    records: &mut Vec<Record>,
    take: &mut Take<'_>,
) -> bool {
    let window = WINDOW_PER_THREAD * rayon::current_num_threads().max(1);
    for chunk in jobs.chunks(window) {
        let ready: Vec<(Record, Option<Part>)> =
            chunk.par_iter().map(|job| ready_one(job, options, progress)).collect();
        let mut ready = ready.into_iter();
        for (r, part) in ready.by_ref() {
            if take(r, part, records).is_break() {
                records.extend(ready.map(|(r, _)| r));
                return true;
            }
        }
    }
    false
}

/// One input's record and what goes into the merged output from it (on a worker thread).
fn ready_one(job: &Job, options: &BatchOptions, progress: &(dyn Fn(&Record) + Sync)) -> (Record, Option<Part>) {
    let shown = job.output.as_deref().map(path_text);
    let mut r = Record::new(path_text(&job.input), shown, options.output_name());
    r.from = job.format.map(Format::name);
    r.add(Stage::Batch, &job.notes);
    let made = if let Some(d) = &job.skip {
        r.add(Stage::Batch, std::slice::from_ref(d));
        r.status = Status::Skipped;
        None
    } else if let Some(d) = &job.fail {
        r = r.fail(d.clone());
        None
    } else if options.to.writes_table() {
        table_rows(job, options, &mut r).map(Part::Rows)
    } else {
        text_part(job, options, &mut r)
    };
    r.settle();
    // A member that was not read gives up its place in its archive's bytes.
    job.member.iter().for_each(super::plan::Member::settle);
    progress(&r);
    (r, made)
}

/// An input's games, read, picked and written in the output's format.
fn text_part(job: &Job, options: &BatchOptions, r: &mut Record) -> Option<Part> {
    let (mut games, _) = read_input(job, read_source(job), options, r)?;
    if drop_duplicates(job, &mut games, r) {
        return None;
    }
    let games = pick(games, options, r)?;
    match write_part(options.to, &games, &options.write) {
        Ok(w) => Some(Part::Text(w, games.games.len())),
        Err(e) => {
            r.add(Stage::Write, &write_error(e));
            r.status = Status::Failed;
            None
        }
    }
}

/// Rows on their way into a table: the inputs' games appended, in the plan's order, to one
/// builder, cut into row groups of about [`ROW_GROUP_BYTES`], and encoded a row group per
/// thread at a time (on the pool). Memory holds those row groups, not the whole table.
struct Pending {
    table: TableBuilder,
    groups: Vec<RecordBatch>,
}

impl Pending {
    fn new() -> Pending {
        Pending { table: TableBuilder::new(), groups: Vec::new() }
    }

    /// Appends an input's chosen games, and writes the row groups they fill.
    fn push<W: Write + Send>(&mut self, input: &TableInput, join: &mut Joiner<W>) -> Result<(), WriteError> {
        input.append_to(&mut self.table).map_err(write_failed)?;
        if self.table.size() >= ROW_GROUP_BYTES {
            self.groups.push(self.table.finish().map_err(write_failed)?);
        }
        self.flush(join, false)
    }

    /// Encodes the row groups (on the pool) and appends them, once there is one per thread, or
    /// all of them, and the rows not yet in one, at the `end`.
    fn flush<W: Write + Send>(&mut self, join: &mut Joiner<W>, end: bool) -> Result<(), WriteError> {
        if end && !self.table.is_empty() {
            self.groups.push(self.table.finish().map_err(write_failed)?);
        }
        if self.groups.is_empty() || (!end && self.groups.len() < rayon::current_num_threads()) {
            return Ok(());
        }
        let encoded: Vec<_> = self.groups.par_iter().map(kifu::formats::parquet::encode).collect();
        self.groups.clear();
        for rows in encoded {
            join.push_rows(rows.map_err(write_failed)?)?;
        }
        Ok(())
    }
}
