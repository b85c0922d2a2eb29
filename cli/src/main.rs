//! The `kifu` command: arguments, files, printing. Everything else lives in the library.

mod args;
mod batch;
mod batch_cmd;
mod check;
mod convert;
mod diagram;
mod exit;
mod formats_cmd;
mod info;
mod input;
mod members;
mod output;
mod select_args;
mod shell;
mod stream;

use clap::{Parser, Subcommand};
pub use exit::ExitCode;

/// The exit-code table (formats/cli.md), shown by `--help`.
const EXIT_CODES: &str = "\
Exit codes (formats/cli.md):
  0    success (warnings and repaired errors were reported); outputs written or unchanged
  1    some inputs failed (batch runs, and check/info with several files); check: errors found
  2    usage error
  3    --strict: a warning or a repaired error was reported; check: warnings but no error
  4    the output format or charset cannot hold the input (give --lossy); nothing written
  65   the input is not readable as its format
  66   an input is missing or unreadable
  73   an output cannot be created (exists and differs without --force, is an input,
       its folder is missing)
  74   writing failed (disk full, /dev/full)
  130  interrupted; temporary files removed
A closed output pipe (e.g. `| head`) ends quietly with 0.";

/// `kifu --version`: the version, and the git commit when built from a checkout.
const VERSION: &str = env!("KIFU_VERSION");

/// Convert Go game records between SGF, GIB, NGF, UGF and JSON.
#[derive(Debug, Parser)]
#[command(name = "kifu", version = VERSION, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// Colour diagnostics by severity: auto (on a terminal, unless NO_COLOR), always, never.
    #[arg(long, global = true, value_enum, default_value_t = output::ColorChoice::Auto, value_name = "WHEN")]
    color: output::ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert game records from one format to another: one file, or whole folders with -r -O.
    #[command(after_help = EXIT_CODES)]
    Convert(convert::ConvertArgs),
    /// Check game records and report each problem with its line and column.
    ///
    /// Two verdicts per game: structure (what the reader had to repair) and meaning (board
    /// size, points, property placement, value types, Go rules on every variation).
    #[command(after_help = check::EXIT_CODES)]
    Check(check::CheckArgs),
    /// Draw a position of a record, or the whole game as numbered figures, as SVG, PNG or text.
    #[command(after_help = diagram::AFTER_HELP)]
    Diagram(Box<diagram::DiagramArgs>),
    /// List the formats kifu knows, with what it can read and write.
    Formats(formats_cmd::FormatsArgs),
    /// One line per game: format, charset and how it was decided, players, result, moves.
    #[command(after_help = EXIT_CODES)]
    Info(info::InfoArgs),
    /// Print a shell completion script: `source <(kifu completions bash)`.
    Completions(shell::CompletionsArgs),
    /// Print the man page of kifu or of one command, or write them all into a folder.
    Man(shell::ManArgs),
}

/// Removes this process's temporary files on SIGINT, SIGTERM and SIGHUP, then exits with 130.
fn clean_up_on_signals() {
    let _ = ctrlc::set_handler(|| {
        kifu::output::remove_temp_files();
        batch_cmd::say_interrupted();
        std::process::exit(ExitCode::Interrupted as i32);
    });
}

/// Parses the arguments, runs the command and returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { ExitCode::Usage } else { ExitCode::Ok };
            match e.print() {
                // Help or the version into a closed pipe (`kifu convert --help | head -1`).
                Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => return ExitCode::Ok as i32,
                Err(io) => {
                    eprintln!("kifu: cannot write standard output: {io}");
                    return ExitCode::IoErr as i32;
                }
                Ok(()) => {}
            }
            return code as i32;
        }
    };
    output::set_color(cli.color);
    clean_up_on_signals();
    let code = match cli.command {
        Command::Convert(args) => convert::run(args),
        Command::Check(args) => check::run(args),
        Command::Diagram(args) => diagram::run(*args),
        Command::Formats(args) => formats_cmd::run(&args),
        Command::Info(args) => info::run(args),
        Command::Completions(args) => shell::completions(&args),
        Command::Man(args) => shell::man(&args),
    };
    code as i32
}

/// The command definition, for completions and man pages.
fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

fn main() {
    std::process::exit(run());
}
