//! Reading every input of `kifu stats` and `kifu dedup` (and the first pass of `convert
//! --dedup`): the batch walk, each input read through the one pipeline on a pool, what it holds
//! kept as [`FileStats`] (counts and fingerprints, no game).

use crate::ExitCode;
use crate::batch::{self, BatchError, BatchOptions, Found, Verdict};
use crate::output::{Verbosity, diag_line};
use clap::Args;
use kifu::Diagnostic;
use kifu::formats::Format;
use kifu::stats::FileStats;
use rayon::prelude::*;
use std::path::PathBuf;

/// The inputs of `kifu stats` and `kifu dedup`.
#[derive(Debug, Args)]
pub struct CensusArgs {
    /// Files, archives and (with -r) folders to read.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub walk: crate::batch::WalkArgs,
    /// Input format (default: from the file extension, else from the content).
    #[arg(short = 'f', long = "from", value_name = "FORMAT")]
    pub from: Option<String>,
    /// Decode the inputs with this charset, whatever they declare (a byte-order mark still wins).
    #[arg(long, value_name = "LABEL")]
    pub from_encoding: Option<String>,
    /// Worker threads (default: one per core); the result is the same for any N.
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub jobs: Option<usize>,
    /// Print errors only (no closing summary line).
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub select: crate::select_args::SelectArgs,
}

/// One input read: its name (`archive.zip!/inner` for a member) and what it holds.
pub struct Read {
    /// The input's name as reports show it.
    pub name: String,
    /// What it holds.
    pub stats: FileStats,
    /// Games read (0 when it failed).
    pub games: usize,
    /// Why it failed or was not read, when it did.
    pub failure: Option<Diagnostic>,
    /// Whether it was skipped (a link not followed, an archive inside an archive).
    pub skipped: bool,
    /// The numbers in the file (from 1) of the games the filters kept, in order; empty when
    /// no filter was given (every game, numbered in order).
    pub numbers: Vec<usize>,
    /// Games the filters left out.
    pub left_out: usize,
}

impl Read {
    /// The number in its file (from 1) of the `i`th game kept (from 0).
    pub fn number(&self, i: usize) -> usize {
        self.numbers.get(i).copied().unwrap_or(i + 1)
    }
}

/// What the walk found and how each input read.
pub struct Census {
    /// Every input, in input-path order.
    pub reads: Vec<Read>,
    /// Files in walked folders that are not game records.
    pub ignored: usize,
}

impl Census {
    /// Inputs that failed.
    pub fn failed(&self) -> usize {
        self.reads.iter().filter(|r| r.failure.is_some() && !r.skipped).count()
    }
}

/// Reads one input's `bytes` (named `name`, at `path` when it is a file) with `options`.
pub fn read_one(name: String, path: &std::path::Path, bytes: std::io::Result<Vec<u8>>, options: &BatchOptions) -> Read {
    let failed = |stats: FileStats, d: Diagnostic| Read {
        name: name.clone(),
        stats,
        games: 0,
        failure: Some(d),
        skipped: false,
        numbers: Vec::new(),
        left_out: 0,
    };
    let len = bytes.as_ref().map_or(0, |b| b.len() as u64);
    let (decision, read) = match batch::read_input(path, &name, bytes, options) {
        Ok(decided) => decided,
        Err(d) => return failed(FileStats::failed(None, len, std::slice::from_ref(&d)), d),
    };
    let format = decision.format;
    match read {
        Ok(mut read) => {
            // The filters pick games: the numbers of those kept are remembered.
            let (mut numbers, before) = (Vec::new(), read.collection.games.len());
            if !options.filter.is_empty() {
                numbers = (1..=before)
                    .filter(|&n| options.filter.matches(&read.collection.games[n - 1], Some(format)))
                    .collect();
                options.filter.retain(&mut read.collection, Some(format));
            }
            let mut stats = FileStats::of(format, len, &read);
            if let Some(m) = &decision.mismatch {
                stats.note(m);
            }
            let games = read.collection.games.len();
            Read { name, stats, games, failure: None, skipped: false, numbers, left_out: before - games }
        }
        Err(e) => {
            let d = e
                .diagnostics
                .iter()
                .find(|d| d.severity == kifu::Severity::Error)
                .cloned()
                .unwrap_or_else(|| Diagnostic::error(batch::codes::CANNOT_READ, "no game read"));
            failed(FileStats::failed(Some(format), len, &e.diagnostics), d)
        }
    }
}

fn read_found(f: Found, options: &BatchOptions) -> Read {
    let name = f.input.to_str().map_or_else(|| f.input.display().to_string(), str::to_owned);
    match f.verdict {
        Verdict::Convert(_) => {
            let bytes = match f.member {
                Some(b) => Ok(b),
                None => std::fs::read(&f.input),
            };
            read_one(name, &f.input, bytes, options)
        }
        Verdict::Skip(d) => Read {
            name,
            stats: FileStats::default(),
            games: 0,
            failure: Some(d),
            skipped: true,
            numbers: Vec::new(),
            left_out: 0,
        },
        Verdict::Fail(d) | Verdict::Named(d, _) => Read {
            name,
            stats: FileStats::failed(None, 0, std::slice::from_ref(&d)),
            games: 0,
            failure: Some(d),
            skipped: false,
            numbers: Vec::new(),
            left_out: 0,
        },
    }
}

/// The batch options of a census, or the exit code of a usage error (printed).
pub fn options(args: &CensusArgs) -> Result<BatchOptions, ExitCode> {
    let (from, encoding) = crate::args::input(args.from.as_deref(), args.from_encoding.as_deref())?;
    let (include, exclude) = args.walk.globs().map_err(|e| {
        eprintln!("kifu: {e}");
        ExitCode::Usage
    })?;
    let mut options = BatchOptions::new(Format::SGF);
    options.from = from;
    options.read = kifu::ReadOptions::default().with_encoding(encoding);
    options.recursive = args.walk.recursive;
    options.follow_symlinks = args.walk.follow_symlinks;
    options.include = include;
    options.exclude = exclude;
    options.jobs = args.jobs.unwrap_or(0);
    options.filter = args.select.filter();
    Ok(options)
}

/// Walks and reads every input on a pool of `options.jobs` threads; failures are printed on
/// standard error (`quiet` keeps them too: they are errors).
pub fn gather(inputs: &[PathBuf], options: &BatchOptions, v: Verbosity) -> Result<Census, ExitCode> {
    if inputs.iter().any(|p| p.as_os_str() == "-") {
        eprintln!("kifu: this command reads files and folders, not standard input");
        return Err(ExitCode::Usage);
    }
    let (found, ignored) = batch::inputs(inputs, options).map_err(|e| {
        eprintln!("kifu: {e}");
        match e {
            BatchError::NoInput(..) => ExitCode::NoInput,
            _ => ExitCode::Usage,
        }
    })?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.jobs).build().map_err(|e| {
        eprintln!("kifu: cannot start the worker threads: {e}");
        ExitCode::IoErr
    })?;
    let reads: Vec<Read> = pool.install(|| found.into_par_iter().map(|f| read_found(f, options)).collect());
    for r in &reads {
        if let Some(d) = &r.failure {
            if v.shows(d.severity) {
                eprintln!("{}", diag_line(&r.name, d));
            }
        }
    }
    Ok(Census { reads, ignored })
}

/// The closing line on standard error: inputs, games, failures, files ignored.
pub fn summary_line(census: &Census, games: usize) -> String {
    let inputs = census.reads.len();
    let mut line = format!(
        "kifu: {inputs} input{}, {games} game{}",
        if inputs == 1 { "" } else { "s" },
        if games == 1 { "" } else { "s" }
    );
    let failed = census.failed();
    if failed > 0 {
        line.push_str(&format!(", {failed} failed"));
    }
    let skipped = census.reads.iter().filter(|r| r.skipped).count();
    if skipped > 0 {
        line.push_str(&format!(", {skipped} skipped"));
    }
    if census.ignored > 0 {
        line.push_str(&format!("; {} other files ignored", census.ignored));
    }
    line
}

/// The line saying how many games the filters left out, when they left some out.
pub fn left_out_line(census: &Census) -> Option<String> {
    crate::select_args::left_out_line(census.reads.iter().map(|r| r.left_out).sum())
}

/// The exit code of a census: 1 when some input failed, else 0.
pub fn exit_code(census: &Census) -> ExitCode {
    if census.failed() > 0 { ExitCode::SomeFailed } else { ExitCode::Ok }
}

/// Where each fingerprint came from: the input (its index in the census) and the game's number
/// in it (from 1).
pub type Origins = Vec<(usize, usize)>;

/// Every game of `census` added to a [`Dedup`] in path order, with where each came from.
pub fn collect(census: &Census, min_prefix: usize) -> (kifu::dedup::Dedup, Origins) {
    let mut dedup = kifu::dedup::Dedup::new().with_min_prefix(min_prefix);
    let mut origins = Vec::new();
    for (i, r) in census.reads.iter().enumerate() {
        for (g, print) in r.stats.fingerprints().enumerate() {
            dedup.add(print.clone());
            origins.push((i, r.number(g)));
        }
    }
    (dedup, origins)
}

/// `FILE` for a file of one game, `FILE#N` for game N of a collection.
pub fn place(census: &Census, origins: &Origins, index: usize) -> String {
    let (file, game) = origins[index];
    let read = &census.reads[file];
    if read.games + read.left_out > 1 { format!("{}#{game}", read.name) } else { read.name.clone() }
}

/// `kifu convert --dedup`'s first pass: reads every input the plan converts, finds the groups
/// of copies, and marks in each job the games that are not kept (with the kept copy named).
/// Returns the number of groups. Inputs that fail here are left to fail in the run itself.
pub fn mark_duplicates(plan: &mut batch::Plan, options: &BatchOptions) -> Result<usize, ExitCode> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.jobs).build().map_err(|e| {
        eprintln!("kifu: cannot start the worker threads: {e}");
        ExitCode::IoErr
    })?;
    let todo: Vec<usize> = (0..plan.jobs.len()).filter(|&i| plan.jobs[i].converts()).collect();
    let reads: Vec<Read> = pool.install(|| {
        todo.par_iter()
            .map(|&i| {
                let job = &plan.jobs[i];
                let name = job.input.to_str().map_or_else(|| job.input.display().to_string(), str::to_owned);
                read_one(name, &job.input, job.peek(), options)
            })
            .collect()
    });
    let census = Census { reads, ignored: 0 };
    let (dedup, origins) = collect(&census, kifu::dedup::MIN_PREFIX);
    let groups = dedup.groups();
    for g in &groups {
        let kept = &g.copies[0];
        let kept_at = place(&census, &origins, kept.index);
        for c in &g.copies[1..] {
            let (read, game) = origins[c.index];
            let turned = match c.orientation {
                kifu::dedup::Orientation::Same => String::new(),
                o => format!(", {o}"),
            };
            let message = match c.relation {
                kifu::dedup::Relation::Prefix => format!(
                    "game {game} is an unfinished copy ({} of {} moves{turned}) of {kept_at}, which is kept; not written",
                    c.moves, kept.moves
                ),
                _ => format!(
                    "game {game} is the same game as {kept_at}{}, which is kept ({}); not written",
                    if turned.is_empty() { String::new() } else { format!(" ({})", &turned[2..]) },
                    g.kept_because.as_str()
                ),
            };
            let d = Diagnostic::info(batch::codes::DUPLICATE, message);
            plan.jobs[todo[read]].duplicates.push((game - 1, d));
        }
    }
    Ok(groups.len())
}
