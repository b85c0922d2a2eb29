//! Printing diagnostics (one shape, coloured by severity on a terminal) and writing outputs.

use crate::ExitCode;
use clap::ValueEnum;
use kifu::diag::render;
use kifu::output::{OutputError, OutputPolicy, Written, write_output};
use kifu::{Diagnostic, Format, Severity};
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::sync::OnceLock;

/// How much to print; `-q` and `-v` mean the same in every command.
#[derive(Clone, Copy, Debug)]
pub struct Verbosity {
    /// Hide warnings and notes (errors still print).
    pub quiet: bool,
    /// Also print informational notes.
    pub verbose: bool,
}

/// `--strict`, `-q` and `-v` of the commands that convert (`convert`, `diagram`).
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct Loudness {
    /// Treat warnings as failure (exit code 3).
    #[arg(long)]
    pub strict: bool,
    /// Print errors only.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also print informational notes (charset decision, normalised identifiers).
    #[arg(short, long)]
    pub verbose: bool,
}

impl Loudness {
    /// What to print.
    pub fn verbosity(self) -> Verbosity {
        Verbosity { quiet: self.quiet, verbose: self.verbose }
    }
}

impl Verbosity {
    /// Whether a diagnostic of `severity` is printed.
    pub fn shows(self, severity: Severity) -> bool {
        match severity {
            Severity::Error => true,
            Severity::Warning => !self.quiet,
            Severity::Info => self.verbose && !self.quiet,
        }
    }
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (and not empty) or `TERM=dumb`.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Whether standard error and standard output get colour, decided once.
static COLOR: OnceLock<(bool, bool)> = OnceLock::new();

/// Decides once whether standard error and standard output get colour.
pub fn set_color(choice: ColorChoice) {
    let on = |terminal: bool| match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            !no_color && !dumb && terminal
        }
    };
    let _ = COLOR.set((on(io::stderr().is_terminal()), on(io::stdout().is_terminal())));
}

/// The severity word, coloured for standard error when colour is on (error red, warning
/// yellow, info cyan).
fn paint(severity: Severity, word: &str) -> String {
    paint_if(COLOR.get().is_some_and(|c| c.0), severity, word)
}

/// The same for standard output (`check` prints its findings there).
fn paint_stdout(severity: Severity, word: &str) -> String {
    paint_if(COLOR.get().is_some_and(|c| c.1), severity, word)
}

fn paint_if(on: bool, severity: Severity, word: &str) -> String {
    if !on {
        return word.to_string();
    }
    let color = match severity {
        Severity::Error => anstyle::AnsiColor::Red,
        Severity::Warning => anstyle::AnsiColor::Yellow,
        Severity::Info => anstyle::AnsiColor::Cyan,
    };
    let style = anstyle::Style::new().fg_color(Some(color.into())).bold();
    format!("{style}{word}{style:#}")
}

/// One diagnostic line (no newline), coloured when colour is on.
pub fn diag_line(name: &str, d: &Diagnostic) -> String {
    one_line(render(name, d, paint))
}

/// One diagnostic line for standard output (no newline), coloured when colour is on there.
pub fn stdout_diag_line(name: &str, d: &Diagnostic) -> String {
    one_line(render(name, d, paint_stdout))
}

/// A printed diagnostic is one line whatever its message quotes: line breaks written `\n`,
/// `\r` (formats/cli.md). The library writes its messages so already; this holds for all.
fn one_line(line: String) -> String {
    if line.contains(['\n', '\r']) { line.replace('\r', "\\r").replace('\n', "\\n") } else { line }
}

/// Prints the diagnostics of `name` that `v` shows to stderr, one per line.
pub fn print_diagnostics(name: &str, diags: &[Diagnostic], v: Verbosity) {
    let stderr = io::stderr();
    let mut err = stderr.lock();
    for d in diags.iter().filter(|d| v.shows(d.severity)) {
        let _ = writeln!(err, "{}", diag_line(name, d));
    }
}

/// Repairs per kind (code and severity) over a run, for its closing line
/// `kifu: repairs: 4,034 fix.komi-scaled (info), 2,131 fix.fox-komi-zero (warning)`
/// (formats/cli.md, "Repairs").
#[derive(Clone, Debug, Default)]
pub struct Tally(std::collections::BTreeMap<(&'static str, Severity), usize>);

impl Tally {
    /// Counts the repairs among `diags` ([`kifu::normalise::repairs_in`]).
    pub fn add<'a>(&mut self, diags: impl IntoIterator<Item = &'a Diagnostic>) {
        for d in diags {
            let n = kifu::normalise::repairs_in(d);
            if n > 0 {
                *self.0.entry((d.code, d.severity)).or_insert(0) += n;
            }
        }
    }

    /// The kinds, most frequent first: `(code, severity, count)`.
    pub fn kinds(&self) -> Vec<(&'static str, Severity, usize)> {
        let mut v: Vec<_> = self.0.iter().map(|(&(c, s), &n)| (c, s, n)).collect();
        v.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)).then(b.1.cmp(&a.1)));
        v
    }

    /// The closing line (no newline), or `None` when nothing was repaired.
    pub fn line(&self) -> Option<String> {
        repairs_line(self.kinds().into_iter().map(|(c, s, n)| (c, s.as_str(), n)))
    }

    /// Prints the closing line on standard error unless `-q`.
    pub fn print(&self, v: Verbosity) {
        if let Some(line) = self.line().filter(|_| !v.quiet) {
            eprintln!("{line}");
        }
    }
}

/// `kifu: repairs: 4,034 fix.komi-scaled (info), …` from `(code, severity, count)` in the
/// order given, or `None` when there is none.
pub fn repairs_line<'a>(kinds: impl IntoIterator<Item = (&'a str, &'a str, usize)>) -> Option<String> {
    kinds_line("repairs", kinds)
}

/// `kifu: LABEL: 12 code (severity), …`, or `None` when `kinds` is empty.
pub fn kinds_line<'a>(label: &str, kinds: impl IntoIterator<Item = (&'a str, &'a str, usize)>) -> Option<String> {
    let parts: Vec<String> = kinds.into_iter().map(|(c, s, n)| format!("{} {c} ({s})", thousands(n))).collect();
    if parts.is_empty() { None } else { Some(format!("kifu: {label}: {}", parts.join(", "))) }
}

/// Counts per kind (code and severity) of every diagnostic given, most frequent first: the
/// closing `kifu: findings:` line of `kifu check` over several files.
pub fn count_kinds<'a>(diags: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<(&'static str, &'static str, usize)> {
    let mut m: std::collections::BTreeMap<(&'static str, &'static str), usize> = Default::default();
    for d in diags {
        *m.entry((d.code, d.severity.as_str())).or_insert(0) += 1;
    }
    let mut v: Vec<_> = m.into_iter().map(|((c, s), n)| (c, s, n)).collect();
    v.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    v
}

/// `4034` → `4,034`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Writes to stdout; a closed pipe is not an error.
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// Writes to stdout; a failure is printed with its reason and becomes exit 74.
pub fn print_stdout(bytes: &[u8]) -> Result<(), ExitCode> {
    write_stdout(bytes).map_err(|e| {
        eprintln!("kifu: cannot write standard output: {e}");
        ExitCode::IoErr
    })
}

/// Writes one named output file with [`write_output`] (no folder is created); a failure is
/// printed and becomes exit 73 (cannot be created) or 74 (writing failed).
pub fn write_file(path: &Path, bytes: &[u8], force: bool) -> Result<Written, ExitCode> {
    write_output(path, bytes, &OutputPolicy::single(force)).map_err(|e| output_failed(&e))
}

/// Prints why an output could not be written; exit 73 when it could not be created, else 74.
pub fn output_failed(e: &OutputError) -> ExitCode {
    eprintln!("kifu: {e}");
    if e.cannot_create() { ExitCode::CantCreate } else { ExitCode::IoErr }
}

/// Exit 73 (with its message) when the named output is the input file itself.
pub fn refuse_input_as_output(input: Option<&Path>, output: Option<&Path>) -> Result<(), ExitCode> {
    match (input, output) {
        (Some(i), Some(o)) if kifu::output::same_file(i, o) => {
            eprintln!("kifu: the output {} is the input; refusing to overwrite it", o.display());
            Err(ExitCode::CantCreate)
        }
        _ => Ok(()),
    }
}

/// Exit 4, after the writer's diagnostics `diags`: nothing was written. The line names what
/// cannot hold the input: the charset when a character was the trouble, else the format.
pub fn cannot_hold(to: Format, diags: &[Diagnostic]) -> ExitCode {
    if diags.iter().any(|d| d.code.starts_with("charset.")) {
        eprintln!(
            "kifu: nothing written: the output charset cannot hold some characters of the input (see above; \
             write UTF-8, or give --lossy to write '?' for them)"
        );
    } else {
        eprintln!("kifu: nothing written: {to} cannot hold the input as it is (see above; --lossy may help)");
    }
    ExitCode::CannotHold
}

/// With `-v`, says that an output file already held what was written.
pub fn note_written(name: &str, written: Written, v: Verbosity) {
    if written == Written::Unchanged && v.verbose && !v.quiet {
        eprintln!("kifu: {name} unchanged (it already holds this output)");
    }
}

/// The exit code of a conversion that wrote its output: 3 under `--strict` when any of the
/// diagnostics is a warning or an error, else 0.
pub fn finished<'a>(strict: bool, diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> ExitCode {
    if strict && diagnostics.into_iter().any(|d| d.severity >= Severity::Warning) {
        ExitCode::Strict
    } else {
        ExitCode::Ok
    }
}

/// Removes the temporary files of killed runs beside a file output (not in /dev for /dev/null).
pub(super) fn remove_stale_beside(p: &Path, v: Verbosity) {
    let dir = kifu::output::parent_folder(p);
    let file = std::fs::symlink_metadata(p).map_or(true, |m| m.is_file());
    let removed =
        if file { kifu::output::remove_stale_temp_files(&std::collections::BTreeSet::from([dir])) } else { 0 };
    if removed > 0 && !v.quiet {
        eprintln!("kifu: removed {removed} temporary files left by an interrupted run in {}", dir.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_format_is_plain_without_colour() {
        let d = Diagnostic::error("sgf.x", "bad").at(kifu::Position::new(2, 5, 9));
        assert_eq!(diag_line("a.sgf", &d), "a.sgf:2:5: error[sgf.x]: bad");
        let d = Diagnostic::info("fix.x", "C[\n\r\n] kept");
        assert_eq!(diag_line("a.sgf", &d), "a.sgf: info[fix.x]: C[\\n\\r\\n] kept");
    }

    #[test]
    fn repairs_are_tallied_per_kind() {
        let mut t = Tally::default();
        assert_eq!(t.line(), None);
        let komi = Diagnostic::info("fix.komi-scaled", "KM[650] read as KM[6.5]");
        let zero = Diagnostic::warning("fix.fox-komi-zero", "KM[0] …");
        let more = Diagnostic::info("fix.komi-scaled", "4031 more repairs like this not shown (4131 in all)");
        t.add([&komi, &komi, &zero, &more, &Diagnostic::warning("sgf.text-before", "x")]);
        t.add([&Diagnostic::warning("fix.komi-scaled", "KM[750] …")]);
        assert_eq!(
            t.line().unwrap(),
            "kifu: repairs: 4,033 fix.komi-scaled (info), 1 fix.fox-komi-zero (warning), 1 fix.komi-scaled (warning)"
        );
        assert_eq!(
            (thousands(999), thousands(1000), thousands(1234567)),
            ("999".into(), "1,000".into(), "1,234,567".into())
        );
    }

    #[test]
    fn verbosity_is_one_rule() {
        let q = Verbosity { quiet: true, verbose: false };
        let v = Verbosity { quiet: false, verbose: true };
        assert!(q.shows(Severity::Error) && !q.shows(Severity::Warning) && !q.shows(Severity::Info));
        assert!(v.shows(Severity::Warning) && v.shows(Severity::Info));
    }
}
