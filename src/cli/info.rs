//! `kifu info`: one line per game with its format, charset decision, players, result and moves.

use super::ExitCode;
use super::output::{Verbosity, print_diagnostics, write_stdout};
use clap::Args;
use kifu::charset::ca_label;
use kifu::{Format, ReadOptions, ReadOutput};
use std::path::PathBuf;

/// Arguments of `kifu info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Input files.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Input format (default: from the file extension, else from the content).
    #[arg(short = 'f', long = "from", value_name = "FORMAT")]
    from: Option<String>,
    /// Decode the inputs with this charset, whatever they declare (a byte-order mark still wins).
    #[arg(long, value_name = "LABEL")]
    from_encoding: Option<String>,
    /// Also print the readers' warnings and notes.
    #[arg(short, long)]
    verbose: bool,
}

/// One line per game: `FILE<TAB>GAME<TAB>FORMAT<TAB>CHARSET (SOURCE)<TAB>B=…<TAB>W=…<TAB>RE=…<TAB>moves=N`.
pub fn lines(name: &str, format: Format, read: &ReadOutput) -> String {
    let charset = read.charset.map_or_else(|| "-".to_string(), |d| format!("{} ({})", ca_label(d.encoding), d.source));
    let mut out = String::new();
    for (i, game) in read.collection.games.iter().enumerate() {
        let info = game.info();
        let clean = |s: Option<String>| s.unwrap_or_default().replace(['\t', '\n', '\r'], " ");
        out.push_str(&format!(
            "{name}\t{}\t{format}\t{charset}\tB={}\tW={}\tRE={}\tmoves={}\n",
            i + 1,
            clean(info.black),
            clean(info.white),
            clean(info.result_text),
            game.main_line_moves()
        ));
    }
    out
}

/// Runs `kifu info`.
pub fn run(args: InfoArgs) -> ExitCode {
    let v = Verbosity { quiet: false, verbose: args.verbose };
    let (from, encoding) = match super::args::input(args.from.as_deref(), args.from_encoding.as_deref()) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    // ReadOptions grows fields (positions, …); keep the update syntax.
    #[allow(clippy::needless_update)]
    let options = ReadOptions { encoding, ..ReadOptions::default() };
    let mut failed = 0;
    for path in &args.inputs {
        let name = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("kifu: cannot read {name}: {e}");
                failed += 1;
                continue;
            }
        };
        let Some(format) = from.or_else(|| Format::from_path(path)).or_else(|| Format::sniff(&bytes)) else {
            eprintln!("kifu: {name}: cannot tell the format; name it with -f FORMAT");
            failed += 1;
            continue;
        };
        match format.read(bytes, &options) {
            Ok(read) => {
                let quiet = Verbosity { quiet: !v.verbose, ..v };
                if let Some(decision) = read.charset {
                    print_diagnostics(&name, &[decision.note()], quiet);
                }
                print_diagnostics(&name, &read.diagnostics, quiet);
                if write_stdout(lines(&name, format, &read).as_bytes()).is_err() {
                    return ExitCode::IoErr;
                }
            }
            Err(e) => {
                print_diagnostics(&name, &e.diagnostics, v);
                failed += 1;
            }
        }
    }
    match failed {
        0 => ExitCode::Ok,
        n if n == args.inputs.len() && n == 1 => ExitCode::DataErr,
        _ => ExitCode::SomeFailed,
    }
}
