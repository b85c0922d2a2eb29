//! A run whose inputs all go into one output (`--merge FILE`, `--merge -`, a table with `-o`),
//! written as it goes: the inputs are read a window at a time on the pool, then their games are
//! written in the plan's order through [`kifu::stream::Joiner`], so memory holds a window of
//! inputs (and a table's pending row group), never the whole merge.

use super::plan::{Job, Plan};
use super::report::{MergeRecord, Record, Report, Stage, Status};
use super::run::{
    drop_duplicates, output_error, path_text, pick, policy, read_input, read_source, table_rows, write_error,
};
use super::{BatchOptions, codes};
use kifu::diag::Diagnostic;
use kifu::formats::Format;
use kifu::formats::parquet::{RecordBatch, write_failed};
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
    /// Its rows, for a table.
    Rows(RecordBatch),
}

/// What takes each input's record and part, in order, and says whether to go on.
type Take<'a> = dyn FnMut(Record, Option<Part>, &mut Vec<Record>) -> ControlFlow<()> + 'a;

/// Inputs read at once per worker thread: the window of the pool.
const WINDOW_PER_THREAD: usize = 16;

/// Pending rows gathered before they are encoded as row groups (on the pool), per thread.
const PENDING_ROWS_BYTES: usize = 16 << 20;

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
        let mut pending = Pending::default();
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
                            games += rows.num_rows();
                            pending.push(rows);
                            flush_rows(&mut join, &mut pending, false).map_err(|e| stop(&mut refused, e))
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
        flush_rows(&mut join, &mut pending, true).map_err(|e| stop(&mut refused, e))?;
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

/// Rows waiting for their row group: the bytes of data they hold, and the memory (an input's
/// rows are built in buffers with room to spare, many times their data for a small input).
#[derive(Default)]
struct Pending {
    batches: Vec<RecordBatch>,
    size: usize,
    memory: usize,
}

impl Pending {
    fn push(&mut self, rows: RecordBatch) {
        self.size += kifu::formats::parquet::data_size(&rows);
        self.memory += rows.get_array_memory_size();
        self.batches.push(rows);
    }

    /// Gathers the batches into as few as hold them (buffers the size of their data), once
    /// their memory passes [`PENDING_MEMORY`].
    fn compact(&mut self) -> Result<(), String> {
        if self.memory < PENDING_MEMORY || self.batches.len() < 2 {
            return Ok(());
        }
        self.batches =
            kifu::formats::parquet::row_groups(std::mem::take(&mut self.batches)).map_err(|e| e.to_string())?;
        self.memory = self.batches.iter().map(RecordBatch::get_array_memory_size).sum();
        Ok(())
    }
}

/// The memory pending rows may take before they are gathered into batches of their size.
const PENDING_MEMORY: usize = 64 << 20;

/// Encodes the pending rows as row groups (on the pool) and appends them, once they fill a row
/// group per thread, or all of them at the `end`.
fn flush_rows<W: Write + Send>(
    join: &mut Joiner<W>,
    pending: &mut Pending,
    end: bool,
) -> Result<(), kifu::formats::WriteError> {
    if pending.batches.is_empty() {
        return Ok(());
    }
    if !end && pending.size < PENDING_ROWS_BYTES * rayon::current_num_threads().max(1) {
        return pending.compact().map_err(write_failed);
    }
    let mut groups = kifu::formats::parquet::row_groups(std::mem::take(&mut pending.batches)).map_err(write_failed)?;
    (pending.size, pending.memory) = (0, 0);
    // The last group, unless the end, waits for more rows (unless it is the only one: rows over
    // the threshold are never gathered again and again).
    if !end && groups.len() > 1 {
        groups.pop().into_iter().for_each(|last| pending.push(last));
    }
    let encoded: Vec<_> = groups.par_iter().map(kifu::formats::parquet::encode).collect();
    for rows in encoded {
        join.push_rows(rows.map_err(write_failed)?)?;
    }
    Ok(())
}
