//! `kifu convert` over several inputs or whole folders: options, progress bar, summary, report.

use crate::ExitCode;
use crate::batch::{self, BatchError, BatchOptions, Collect, DiagRecord, Plan, Record, Report, Status};
use crate::output::{Verbosity, diag_line, print_stdout};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kifu::output::{Existing, OutputPolicy, Written, parent_folder, write_output};
use kifu::{Diagnostic, Format, Position, ReadOptions, Severity, WriteOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Options that turn `kifu convert` into a batch run.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// `-r`, `--include`, `--exclude`, `-L`: the walk every command that takes inputs shares.
    #[command(flatten)]
    pub walk: batch::WalkArgs,
    /// Output folder for several inputs; relative paths are mirrored with the target extension.
    /// Without it (nor --in-place, --merge, --split), several inputs go to standard output as one
    /// collection.
    #[arg(short = 'O', long = "output-dir", value_name = "DIR")]
    output_dir: Option<PathBuf>,
    /// Worker threads (default: one per core); for a single input, those that convert a large one
    /// (over 16 MiB) piece by piece. Outputs and report are the same for any N.
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    jobs: Option<usize>,
    /// Write an NDJSON report (one record per input, then a summary) to FILE, or `-` for stdout.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Do everything but write: the report equals a real run's apart from `dry_run`.
    #[arg(long)]
    dry_run: bool,
    /// Do not flush the outputs to the disk when the run ends (scratch runs; formats/cli.md,
    /// "Durability").
    #[arg(long)]
    no_sync: bool,
    /// Keep existing outputs and skip their inputs (resumes an interrupted run).
    #[arg(long, conflicts_with = "force")]
    skip_existing: bool,
    /// Allow writing into the input tree; without -O, outputs go beside their inputs.
    #[arg(long)]
    in_place: bool,
    /// One output file per game: NAME-001.sgf, NAME-002.sgf, …
    #[arg(long, conflicts_with = "merge")]
    split: bool,
    /// Write the games of all inputs, in the order given (a folder's files in path order), into
    /// this one file, as they are read; `-` writes standard output. The format is -t's, else
    /// the file's extension.
    #[arg(long, value_name = "FILE")]
    merge: Option<PathBuf>,
    /// Name each output under -O from its game: {date} {year} {black} {white} {black_rank}
    /// {white_rank} {event} {round} {result} {stem} {n}; `/` makes folders
    /// (`--name '{year}/{date}-{black}-{white}'`).
    #[arg(long, value_name = "TEMPLATE", value_parser = template)]
    name: Option<kifu::naming::Template>,
    /// Write one copy of each game found more than once (rotated, mirrored and unfinished copies
    /// included): the others are reported `skipped`, the kept copy named. Reads every input once
    /// more, first.
    #[arg(long)]
    dedup: bool,
}

/// A `--name` template, or a usage message with a close placeholder suggested.
fn template(text: &str) -> Result<kifu::naming::Template, String> {
    text.parse().map_err(|e: kifu::naming::TemplateError| match &e {
        kifu::naming::TemplateError::Unknown(name) => {
            format!("{e}{}", crate::args::did_you_mean(name, kifu::naming::PLACEHOLDERS))
        }
        _ => e.to_string(),
    })
}

impl BatchArgs {
    /// The file `--merge` names (`-` for standard output).
    pub fn merge_file(&self) -> Option<&Path> {
        self.merge.as_deref()
    }

    /// Merges every input into `file` (`-o` for an output that is a table of games).
    pub fn merge_into(&mut self, file: Option<PathBuf>) {
        self.merge = file;
    }

    /// `-j N` for one input and no other batch option: the threads of a single (streamed)
    /// conversion, not a batch run.
    pub fn single_jobs(&self, inputs: usize) -> Option<usize> {
        let jobs = self.jobs?;
        (inputs <= 1 && !self.wanted_without_jobs(inputs)).then_some(jobs)
    }

    /// Whether these arguments (with `inputs` INPUTs) ask for a batch run.
    pub fn wanted(&self, inputs: usize) -> bool {
        self.wanted_without_jobs(inputs) || (self.jobs.is_some() && inputs > 1)
    }

    fn wanted_without_jobs(&self, inputs: usize) -> bool {
        inputs > 1
            || self.walk.any()
            || self.output_dir.is_some()
            || self.report.is_some()
            || self.dry_run
            || self.skip_existing
            || self.in_place
            || self.split
            || self.merge.is_some()
            || self.name.is_some()
            || self.dedup
    }
}

/// What the single-file options contribute to a batch run (decided in `convert.rs`).
pub struct Common {
    /// `-f`.
    pub from: Option<Format>,
    /// `-t`.
    pub to: Option<Format>,
    /// Reader options (`--from-encoding` …).
    pub read: ReadOptions,
    /// Writer options (`--encoding`, `--expand-lists` …).
    pub write: WriteOptions,
    /// `--force`.
    pub force: bool,
    /// `--strict`.
    pub strict: bool,
    /// `-q` / `-v`.
    pub verbosity: Verbosity,
    /// Whether `-o` was given (it names one file, so it is refused here).
    pub single_output: bool,
    /// The filters (`--player` …).
    pub filter: kifu::select::Filter,
    /// `--strip` / `--main-line`.
    pub strip: kifu::strip::Strip,
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("kifu: {msg}");
    ExitCode::Usage
}

/// A report diagnostic back as a [`Diagnostic`], to print it in the one shape.
fn diagnostic(d: &DiagRecord) -> Diagnostic {
    let severity = match d.severity {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        _ => Severity::Info,
    };
    let mut out = Diagnostic::new(severity, d.code, d.message.clone());
    if let (Some(line), Some(column)) = (d.line, d.column) {
        out = out.at(Position::new(line, column, 0));
    }
    out
}

/// Prints what the user should see of one record on stderr: the errors of a failed input,
/// the `batch` stage's warnings; everything else with `-v` (the report has all of it).
fn print_record(r: &Record, v: Verbosity) {
    for d in &r.diagnostics {
        let show = match (d.severity, r.status == Status::Failed) {
            ("error", true) => true,
            ("info", _) => v.verbose && !v.quiet,
            _ => !v.quiet && (v.verbose || d.stage == batch::Stage::Batch),
        };
        if show {
            eprintln!("{}", diag_line(&r.input, &diagnostic(d)));
        }
    }
}

/// The closing lines of a batch run: the games and outputs, the repairs, then the total line
/// (last, as every command over several inputs ends; formats/cli.md, "The total line").
fn print_summary(report: &Report, elapsed: f64, dry_run: bool) {
    let s = &report.summary;
    let count = |st: Status| s.count(st);
    let totals = batch::Totals {
        inputs: s.inputs,
        ok: count(Status::Ok),
        warnings: count(Status::Warnings),
        errors: count(Status::Repaired),
        failed: count(Status::Failed),
        skipped: count(Status::Skipped),
        ignored: s.ignored,
    };
    let formats: Vec<String> = s.formats.iter().map(|(f, n)| format!("{f} {n}")).collect();
    let written = s.outputs.saturating_sub(report.unchanged);
    // Files handled per second: the inputs, or the outputs when there are more (--split).
    let rate = if elapsed > 0.0 { s.inputs.max(written) as f64 / elapsed } else { 0.0 };
    let to_stdout = report.merge.as_ref().is_some_and(|m| batch::is_stdout(Path::new(&m.output)));
    let outputs = if to_stdout {
        format!("{} to standard output", if dry_run { "would be written" } else { "written" })
    } else {
        format!(
            "{written} file{} {}, {} unchanged",
            if written == 1 { "" } else { "s" },
            if dry_run { "would be written" } else { "written" },
            report.unchanged
        )
    };
    eprintln!(
        "kifu: from {}: {} game{}, {outputs}, in {elapsed:.2} s ({rate:.0} files/s)",
        if formats.is_empty() { "nothing".to_string() } else { formats.join(", ") },
        s.games,
        if s.games == 1 { "" } else { "s" },
    );
    if let Some(line) = crate::output::repairs_line(s.repairs.iter().map(|r| (r.code, r.severity, r.count))) {
        eprintln!("{line}");
    }
    if let Some(line) = crate::select_args::left_out_line(s.filtered) {
        eprintln!("{line}");
    }
    if !s.stripped.is_empty() {
        let kinds: Vec<String> = s.stripped.iter().map(|(k, n)| format!("{k} {n}")).collect();
        eprintln!("kifu: stripped: {}", kinds.join(", "));
    }
    eprintln!("{}", totals.line("repaired with errors"));
}

/// Whether the file at `path` holds a kifu report (NDJSON whose last line is its summary).
fn is_kifu_report(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let last = text.lines().rev().find(|l| !l.trim().is_empty());
    let record = last.and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok());
    record.is_some_and(|r| r["type"] == "summary" && r.get("dry_run").is_some() && r.get("inputs").is_some())
}

/// Checks `--report FILE` before anything is converted: not an input, not another output of
/// the run, its folder exists, and an existing file is kifu's own earlier report (or `--force`).
/// Returns whether an existing file will be replaced.
fn check_report_path(path: &Path, plan: &Plan, force: bool) -> Result<bool, ExitCode> {
    let refuse = |msg: String| {
        eprintln!("kifu: {msg}");
        ExitCode::CantCreate
    };
    if let Some(msg) = plan.clash(path, "the report") {
        return Err(refuse(msg));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {
            if !force && !is_kifu_report(path) {
                return Err(refuse(format!(
                    "the report {} exists and is not a kifu report; give --force to replace it",
                    path.display()
                )));
            }
            Ok(true)
        }
        Ok(m) if m.is_dir() => Err(refuse(format!("the report {} is a folder", path.display()))),
        Ok(_) => Ok(false),
        Err(_) => {
            let dir = parent_folder(path);
            if dir.is_dir() { Ok(false) } else { Err(refuse(format!("folder {}/ does not exist", dir.display()))) }
        }
    }
}

/// Writes the report (an output like the others: unchanged when identical).
fn write_report(path: &Path, text: &str, replacing: bool, v: Verbosity) -> Result<(), ExitCode> {
    if path.as_os_str() == "-" {
        return print_stdout(text.as_bytes());
    }
    match write_output(path, text.as_bytes(), &OutputPolicy::single(true)) {
        Ok(Written::Replaced) if replacing && !v.quiet => {
            eprintln!("kifu: replaced the report of an earlier run in {}", path.display());
            Ok(())
        }
        Ok(_) => Ok(()),
        Err(e) => {
            eprintln!("kifu: cannot write the report: {e}");
            Err(if e.cannot_create() { ExitCode::CantCreate } else { ExitCode::IoErr })
        }
    }
}

/// How far the batch run of this process is, for the line an interruption prints: inputs
/// finished, inputs planned (0: no batch run going).
static FINISHED: AtomicUsize = AtomicUsize::new(0);
static PLANNED: AtomicUsize = AtomicUsize::new(0);
/// Whether the run merges into one file (which an interruption leaves unwritten).
static MERGING: AtomicBool = AtomicBool::new(false);

/// On SIGINT, SIGTERM or SIGHUP during a batch run: says what was done and how to go on, as
/// rsync does (formats/cli.md, exit code 130).
pub fn say_interrupted() {
    let planned = PLANNED.load(Ordering::SeqCst);
    if planned == 0 {
        return;
    }
    let done = FINISHED.load(Ordering::SeqCst);
    let fresh_line = if std::io::stderr().is_terminal() { "\n" } else { "" };
    if MERGING.load(Ordering::SeqCst) {
        eprintln!("{fresh_line}kifu: interrupted after reading {done} of {planned} inputs; nothing was merged");
        return;
    }
    eprintln!(
        "{fresh_line}kifu: interrupted after {done} of {planned} inputs; their outputs are complete and stay, \
         no file is half-written; run the same command with --skip-existing to convert the rest"
    );
}

/// Whether the games of several inputs may go to standard output as one file of `to`: a format
/// that holds one game per file cannot (GIB, NGF, UGF: the registry says), pictures go to files,
/// and the report cannot share standard output with the games.
fn stdout_allowed(to: Format, args: &BatchArgs, pictures: bool) -> Result<(), ExitCode> {
    if pictures {
        return Err(usage("several pictures cannot go to standard output; give -O DIR"));
    }
    if !to.holds_collections() {
        return Err(usage(&format!(
            "{} holds one game per file: several inputs cannot go to standard output as one {0} file; \
             give -O DIR (or -t sgf, -t ndjson)",
            to.name()
        )));
    }
    if args.report.as_deref().is_some_and(batch::is_stdout) {
        return Err(usage("the games go to standard output; give --report FILE, not --report -"));
    }
    Ok(())
}

/// Runs a batch conversion.
pub fn run(inputs: &[PathBuf], args: &BatchArgs, common: Common) -> ExitCode {
    run_with(inputs, args, common, None)
}

/// Runs a batch whose outputs `produce` makes (diagrams), or `common.to`'s writer when `None`.
pub fn run_with(
    inputs: &[PathBuf],
    args: &BatchArgs,
    common: Common,
    produce: Option<std::sync::Arc<dyn batch::Produce>>,
) -> ExitCode {
    let v = common.verbosity;
    if common.single_output {
        return usage("-o names one output file; with several inputs give -O DIR (or --merge FILE)");
    }
    if inputs.is_empty() || inputs.iter().any(|p| p.as_os_str() == "-") {
        return usage("a batch conversion reads files and folders, not standard input");
    }
    if let Some(dir) = args.output_dir.as_deref().filter(|d| d.exists() && !d.is_dir()) {
        eprintln!("kifu: the output folder {} is not a folder", dir.display());
        return ExitCode::CantCreate;
    }
    let to = common.to.unwrap_or(Format::SGF);
    if produce.is_none() && !to.can_write() {
        return usage(&format!("kifu cannot write {to}"));
    }
    let (include, exclude) = match args.walk.globs() {
        Ok(globs) => globs,
        Err(e) => return usage(&e),
    };
    let mut options = BatchOptions::new(to);
    options.from = common.from;
    options.read = common.read;
    options.write = common.write;
    options.recursive = args.walk.recursive;
    options.follow_symlinks = args.walk.follow_symlinks;
    options.include = include;
    options.exclude = exclude;
    options.out_dir = args.output_dir.clone();
    options.in_place = args.in_place;
    options.existing = match (common.force, args.skip_existing) {
        (true, _) => Existing::Force,
        (_, true) => Existing::Skip,
        _ => Existing::Refuse,
    };
    options.dry_run = args.dry_run;
    options.sync = !args.no_sync;
    // With no destination, several inputs go to standard output as one collection, as `cat`
    // does (formats/cli.md, "Several inputs to standard output"); `--merge -` asks for it.
    let no_destination = args.output_dir.is_none() && !args.in_place && args.merge.is_none() && !args.split;
    let to_stdout = args.merge.as_deref().is_some_and(batch::is_stdout) || (no_destination && produce.is_none());
    if to_stdout {
        if let Err(code) = stdout_allowed(to, args, produce.is_some()) {
            return code;
        }
    }
    options.collect = match (&args.merge, args.split) {
        _ if to_stdout => Collect::Merge(PathBuf::from("-")),
        (Some(m), _) => Collect::Merge(m.clone()),
        (None, true) => Collect::Split,
        _ => Collect::PerFile,
    };
    options.jobs = args.jobs.unwrap_or(0);
    options.produce = produce;
    options.filter = common.filter;
    options.strip = common.strip;
    options.name = args.name.clone();

    let start = Instant::now();
    let mut plan = match batch::plan(inputs, &options) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("kifu: {e}");
            return match e {
                BatchError::NoInput(..) => ExitCode::NoInput,
                BatchError::Threads(_) => ExitCode::IoErr,
                BatchError::OutputClash(_) => ExitCode::CantCreate,
                _ => ExitCode::Usage,
            };
        }
    };
    if args.dedup {
        match crate::census::mark_duplicates(&mut plan, &options) {
            Ok(groups) if v.verbose && !v.quiet => eprintln!("kifu: {groups} groups of duplicate games"),
            Ok(_) => {}
            Err(code) => return code,
        }
    }
    let report_path = args.report.as_deref().filter(|p| p.as_os_str() != "-");
    let replacing = match report_path.map(|p| check_report_path(p, &plan, common.force)) {
        Some(Err(code)) => return code,
        Some(Ok(r)) => r,
        None => false,
    };
    if plan.jobs.is_empty() && !v.quiet {
        eprintln!("kifu: no game records found");
    }
    let bar = if std::io::stderr().is_terminal() && !v.quiet {
        let bar = ProgressBar::with_draw_target(Some(plan.jobs.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} files  {rate}  ETA {eta}  {msg}") {
            let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} files/s", state.per_sec());
            };
            bar.set_style(style.with_key("rate", rate));
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let failures = AtomicUsize::new(0);
    MERGING.store(matches!(options.collect, Collect::Merge(_)), Ordering::SeqCst);
    PLANNED.store(plan.jobs.len(), Ordering::SeqCst);
    let progress = |r: &Record| {
        FINISHED.fetch_add(1, Ordering::SeqCst);
        if r.status == Status::Failed {
            let n = failures.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} failed"));
        }
        bar.inc(1);
    };
    let report = match batch::execute(plan, &options, &progress) {
        Ok(r) => r,
        Err(e) => {
            bar.finish_and_clear();
            eprintln!("kifu: {e}");
            return ExitCode::IoErr;
        }
    };
    bar.finish_and_clear();
    PLANNED.store(0, Ordering::SeqCst);
    let elapsed = start.elapsed().as_secs_f64();

    for r in &report.records {
        print_record(r, v);
    }
    if let Some(m) = &report.merge {
        for d in m.diagnostics.iter().filter(|d| d.severity == "error" || (v.verbose && !v.quiet)) {
            eprintln!("{}", diag_line(&m.output, &diagnostic(d)));
        }
    }
    if let Some(path) = &args.report {
        if let Err(code) = write_report(path, &report.to_ndjson(), replacing, v) {
            return code;
        }
    }
    if !v.quiet {
        if report.removed_temp_files > 0 {
            eprintln!("kifu: removed {} temporary files left by an interrupted run", report.removed_temp_files);
        }
        print_summary(&report, elapsed, options.dry_run);
    }
    if report.has_failures() {
        ExitCode::SomeFailed
    } else if common.strict && report.has_warnings() {
        ExitCode::Strict
    } else {
        ExitCode::Ok
    }
}
