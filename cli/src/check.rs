//! `kifu check`: read each file, check every game, print the findings and one summary per file.

use crate::ExitCode;
use crate::batch::walk::Item;
use crate::output::{print_stdout, stdout_diag_line};
use clap::{Args, ValueEnum};
use kifu::check::{GameReport, Report, StructuralVerdict, check_collection};
use kifu::reader::{Decision, MoveNames};
use kifu::{Diagnostic, Format, ReadOptions, Reader, Severity};
use serde_json::json;
use std::path::PathBuf;

/// The exit codes of `kifu check` (shown by `kifu check --help`).
pub const EXIT_CODES: &str = "\
Exit codes (formats/cli.md):
  0   every file is clean (informational notes allowed)
  1   at least one error: a broken rule, an error-level repair, or (of several files) one
      that cannot be read
  2   usage error
  3   warnings, but no error
  65  the only file is not readable as its format
  66  the only file is missing or unreadable
  74  standard output cannot be written
Output lines: FILE:LINE:COL: SEVERITY[CODE]: MESSAGE, then one summary line per file.
Codes are documented in formats/checks.md.";

/// How to print the findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// `file:line:col: severity[code]: message` lines and a summary line per file.
    Text,
    /// JSON Lines: one object per diagnostic, per game and per file, each with a `type`.
    Json,
}

/// Arguments of `kifu check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files to check, in any format kifu reads; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// JSON Lines: one object per diagnostic, per game and per file (same as --format json).
    #[arg(long)]
    json: bool,
    /// Output style (`--json` is the short way to ask for JSON).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text, hide = true)]
    format: OutputFormat,
    /// Input format for every file (default: from each file's extension, else its content).
    #[arg(short = 'f', long = "from", value_name = "FORMAT")]
    from: Option<String>,
    /// Decode the inputs with this charset, whatever they declare (a byte-order mark still wins).
    #[arg(long, value_name = "LABEL")]
    from_encoding: Option<String>,
    /// Print errors only (warnings and notes are still counted in the summary lines).
    #[arg(short, long)]
    quiet: bool,
    /// Print everything, notes included (the default for check, whose findings are its output).
    #[arg(short, long)]
    verbose: bool,
    #[command(flatten)]
    walk: crate::batch::WalkArgs,
}

/// Everything found in one file, ready to print.
struct FileResult {
    name: String,
    format: Option<Format>,
    /// The report when the file could be read.
    report: Option<Report>,
    /// Diagnostics of a file that could not be read at all.
    fatal: Vec<Diagnostic>,
    /// The exit code of a file that could not be read, when it is the only one (65 or 66).
    unreadable: Option<ExitCode>,
}

impl FileResult {
    fn worst(&self) -> Option<Severity> {
        match &self.report {
            Some(r) => r.diagnostics().map(|d| d.severity).max(),
            // An input skipped on purpose (an archive inside an archive) is as bad as its reason.
            None if self.unreadable.is_none() => self.fatal.iter().map(|d| d.severity).max(),
            None => Some(Severity::Error),
        }
    }
}

/// Runs the checks and prints the results.
pub fn run(args: CheckArgs) -> ExitCode {
    let (from, encoding) = match crate::args::input(args.from.as_deref(), args.from_encoding.as_deref()) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    // The file is checked as it is: no normalisation (that is what `kifu convert` does).
    let options = ReadOptions::default().with_encoding(encoding).with_positions(true).with_no_repair(true);
    if let Err(code) = crate::batch::walk::refuse_folders(&args.files, args.walk.recursive, "check") {
        return code;
    }
    let walk = match args.walk.options(from, &options.limits) {
        Ok(w) => w,
        Err(msg) => {
            eprintln!("kifu: {msg}");
            return ExitCode::Usage;
        }
    };
    let mut worst = None;
    let mut unreadable = None;
    let json = args.json || args.format == OutputFormat::Json;
    let mut kinds: Vec<Diagnostic> = Vec::new();
    let mut results = 0;
    let mut totals = crate::batch::Totals::default();
    // One walk: named files, the records under folders with -r, archives' members.
    let mut inputs = crate::batch::Inputs::new(&args.files, walk);
    for item in &mut inputs {
        let result = match item {
            Item::Input(input) => match (input.name.clone(), input.read()) {
                (_, Ok(input)) => check_bytes(input, from, &options),
                (name, Err(e)) => FileResult {
                    name,
                    format: None,
                    report: None,
                    fatal: vec![Diagnostic::error("io.unreadable", e.message)],
                    unreadable: Some(e.code),
                },
            },
            Item::Refused(r) => {
                FileResult { name: r.name, format: None, report: None, fatal: vec![r.diagnostic], unreadable: r.code }
            }
        };
        results += 1;
        match (&result.report, result.unreadable) {
            (Some(_), _) => totals.read(result.worst()),
            (None, Some(_)) => totals.failed(),
            (None, None) => {
                totals.inputs += 1;
                totals.skipped += 1;
            }
        }
        kinds.extend(result.report.iter().flat_map(|r| r.diagnostics()).chain(&result.fatal).map(|d| {
            Diagnostic::new(d.severity, d.code, String::new()) // the kind only
        }));
        worst = worst.max(result.worst());
        unreadable = unreadable.or(result.unreadable);
        let text = if json { render_json(&result, args.quiet) } else { render_text(&result, args.quiet) };
        if let Err(code) = print_stdout(text.as_bytes()) {
            return code;
        }
    }
    totals.ignored = inputs.ignored();
    let several = inputs.several();
    // Over several files (or members), the findings per kind, then the total line, close the run
    // (on standard error: the lines above are the result).
    if several && !args.quiet {
        if let Some(line) = crate::output::kinds_line("findings", crate::output::count_kinds(&kinds)) {
            eprintln!("{line}");
        }
        eprintln!("{}", totals.line("with errors"));
    }
    if let (Some(code), false, 1) = (unreadable, several, results) {
        return code;
    }
    match worst {
        Some(Severity::Error) => ExitCode::SomeFailed,
        Some(Severity::Warning) => ExitCode::Strict,
        _ => ExitCode::Ok,
    }
}

/// Checks one input read (a file, standard input or an archive's member).
fn check_bytes(input: crate::input::Input, from: Option<Format>, options: &ReadOptions) -> FileResult {
    let crate::input::Input { path, name, bytes } = input;
    let fail = |format, code: &'static str, msg: String| FileResult {
        name: name.clone(),
        format,
        report: None,
        fatal: vec![Diagnostic::error(code, msg)],
        unreadable: Some(if code == "io.unreadable" { ExitCode::NoInput } else { ExitCode::DataErr }),
    };
    let reader = Reader::new().with_format_opt(from).with_options(options.clone());
    let Ok(Decision { format, mismatch, .. }) = reader.decide(path.as_deref(), &bytes) else {
        return fail(None, "format.unknown", crate::input::no_format(&bytes));
    };
    match reader.read_as(format, bytes) {
        Ok(read) => {
            let mut diags = mismatch.into_iter().collect::<Vec<_>>();
            diags.extend(read.diagnostics);
            let mut report = check_collection(&read.collection, &diags);
            let names = MoveNames::new(&read.collection);
            for g in &mut report.games {
                names.apply(&mut g.diagnostics);
            }
            FileResult { name, format: Some(format), report: Some(report), fatal: Vec::new(), unreadable: None }
        }
        Err(e) => FileResult {
            name,
            format: Some(format),
            report: None,
            fatal: e.diagnostics,
            unreadable: Some(ExitCode::DataErr),
        },
    }
}

fn shown(d: &Diagnostic, quiet: bool) -> bool {
    !quiet || d.severity == Severity::Error
}

fn diag_line(name: &str, d: &Diagnostic) -> String {
    format!("{}\n", stdout_diag_line(name, d))
}

fn counts<'a>(diags: impl Iterator<Item = &'a Diagnostic>) -> [usize; 3] {
    let mut n = [0; 3];
    for d in diags {
        match d.severity {
            Severity::Error => n[0] += 1,
            Severity::Warning => n[1] += 1,
            Severity::Info => n[2] += 1,
        }
    }
    n
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn structure_text(g: &GameReport) -> String {
    match g.structural {
        StructuralVerdict::Clean => "clean".to_string(),
        StructuralVerdict::Recovered => {
            let what: Vec<String> = g.repairs.iter().map(|(c, n)| format!("{c} x{n}")).collect();
            format!("recovered ({})", what.join(", "))
        }
    }
}

/// The file's verdicts: the worst over its games.
fn file_verdicts(r: &Report) -> (&'static str, &'static str) {
    (r.structural().as_str(), r.semantic().as_str())
}

/// The structure of an input from which no game was read: `unreadable`, or `skipped` for one
/// not read on purpose (a link not followed, an archive inside an archive).
fn not_read(f: &FileResult) -> &'static str {
    if f.unreadable.is_some() { "unreadable" } else { "skipped" }
}

fn render_text(f: &FileResult, quiet: bool) -> String {
    let mut out = String::new();
    let name = &f.name;
    let Some(report) = &f.report else {
        for d in f.fatal.iter().filter(|d| shown(d, quiet)) {
            out.push_str(&diag_line(name, d));
        }
        let [e, w, i] = counts(f.fatal.iter());
        out.push_str(&format!(
            "{name}: no game read: structure {}; {}, {}, {}\n",
            not_read(f),
            plural(e, "error"),
            plural(w, "warning"),
            plural(i, "note")
        ));
        return out;
    };
    for d in report.diagnostics().filter(|d| shown(d, quiet)) {
        out.push_str(&diag_line(name, d));
    }
    if report.games.len() > 1 {
        for g in &report.games {
            out.push_str(&format!(
                "{name}: game {}: structure {}; semantics {}\n",
                g.index + 1,
                structure_text(g),
                g.semantic.as_str()
            ));
        }
    }
    let (structure, semantics) = file_verdicts(report);
    let structure = match report.games.as_slice() {
        [g] => structure_text(g),
        _ => structure.to_string(),
    };
    let [e, w, i] = counts(report.diagnostics());
    out.push_str(&format!(
        "{name}: {}: structure {structure}; semantics {semantics}; {}, {}, {}\n",
        plural(report.games.len(), "game"),
        plural(e, "error"),
        plural(w, "warning"),
        plural(i, "note")
    ));
    out
}

fn diag_json(name: &str, game: Option<usize>, d: &Diagnostic) -> serde_json::Value {
    json!({
        "type": "diagnostic",
        "file": name,
        "game": game,
        "line": d.position.map(|p| p.line),
        "column": d.position.map(|p| p.column),
        "severity": d.severity.as_str(),
        "code": d.code,
        "message": d.message,
    })
}

fn render_json(f: &FileResult, quiet: bool) -> String {
    let mut lines: Vec<serde_json::Value> = Vec::new();
    let name = &f.name;
    let format = f.format.map(|f| f.name());
    match &f.report {
        None => {
            lines.extend(f.fatal.iter().filter(|d| shown(d, quiet)).map(|d| diag_json(name, None, d)));
            let [e, w, i] = counts(f.fatal.iter());
            lines.push(json!({
                "type": "summary", "file": name, "format": format, "games": 0,
                "structure": not_read(f), "semantics": null,
                "errors": e, "warnings": w, "notes": i,
            }));
        }
        Some(report) => {
            for g in &report.games {
                lines.extend(
                    g.diagnostics.iter().filter(|d| shown(d, quiet)).map(|d| diag_json(name, Some(g.index + 1), d)),
                );
            }
            for g in &report.games {
                let [e, w, i] = counts(g.diagnostics.iter());
                let repairs: serde_json::Map<String, serde_json::Value> =
                    g.repairs.iter().map(|(c, n)| (c.to_string(), json!(n))).collect();
                lines.push(json!({
                    "type": "game", "file": name, "game": g.index + 1,
                    "structure": g.structural.as_str(), "repairs": repairs,
                    "semantics": g.semantic.as_str(),
                    "errors": e, "warnings": w, "notes": i,
                }));
            }
            let (structure, semantics) = file_verdicts(report);
            let [e, w, i] = counts(report.diagnostics());
            lines.push(json!({
                "type": "summary", "file": name, "format": format, "games": report.games.len(),
                "structure": structure, "semantics": semantics,
                "errors": e, "warnings": w, "notes": i,
            }));
        }
    }
    let mut out = String::new();
    for l in lines {
        out.push_str(&l.to_string());
        out.push('\n');
    }
    out
}
