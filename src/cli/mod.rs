//! Command-line definitions and dispatch.

mod args;
mod batch;
mod check;
mod convert;
mod diagram;
mod exit;
mod formats_cmd;
mod info;
mod output;

use clap::{Parser, Subcommand};
pub use exit::ExitCode;

const EXIT_CODES: &str = "\
Exit codes:
  0   success
  1   some inputs failed (batch runs)
  2   usage error
  3   --strict turned warnings into failure
  65  the input is not readable as its format
  66  an input is missing or unreadable
  73  an output cannot be created
  74  other I/O error
A closed output pipe (e.g. `| head`) ends quietly with 0.";

/// Convert Go game records between SGF, GIB, NGF, UGF and JSON.
#[derive(Debug, Parser)]
#[command(name = "kifu", version, about, after_help = EXIT_CODES)]
pub struct Cli {
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
    Formats,
    /// One line per game: format, charset and how it was decided, players, result, moves.
    Info(info::InfoArgs),
}

/// Parses the arguments, runs the command and returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { ExitCode::Usage } else { ExitCode::Ok };
            let _ = e.print();
            return code as i32;
        }
    };
    let code = match cli.command {
        Command::Convert(args) => convert::run(args),
        Command::Check(args) => check::run(args),
        Command::Diagram(args) => diagram::run(*args),
        Command::Formats => formats_cmd::run(),
        Command::Info(args) => info::run(args),
    };
    code as i32
}
