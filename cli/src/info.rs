//! `kifu info`: one line (or JSON record) per game with its format, charset decision, players,
//! result and moves.

use crate::ExitCode;
use crate::batch::walk::Item;
use crate::output::{Verbosity, print_diagnostics, print_stdout};
use clap::Args;
use kifu::charset::ca_label;
use kifu::select::Filter;
use kifu::{Format, GameTree, ReadOptions, ReadOutput, Reader};
use serde_json::json;
use std::path::PathBuf;

/// Arguments of `kifu info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Input files; `-` (or nothing) reads standard input.
    #[arg(value_name = "FILE")]
    inputs: Vec<PathBuf>,
    /// Input format (default: from the file extension, else from the content).
    #[arg(short = 'f', long = "from", value_name = "FORMAT")]
    from: Option<String>,
    /// Decode the inputs with this charset, whatever they declare (a byte-order mark still wins).
    #[arg(long, value_name = "LABEL")]
    from_encoding: Option<String>,
    /// JSON Lines: one record per game (file, game, format, charset, players, ranks, result,
    /// komi, handicap, size, date, moves, variations).
    #[arg(long)]
    json: bool,
    /// Print errors only.
    #[arg(short, long)]
    quiet: bool,
    /// Also print informational notes (the charset decision).
    #[arg(short, long)]
    verbose: bool,
    #[command(flatten)]
    select: crate::select_args::SelectArgs,
    #[command(flatten)]
    walk: crate::batch::WalkArgs,
}

/// The header of the tab-separated form.
pub const HEADER: &str = "FILE\tGAME\tFORMAT\tCHARSET (SOURCE)\tB=BLACK\tW=WHITE\tRE=RESULT\tmoves=N\n";

/// Branches off the main line and off other variations: one per extra child of a node.
fn variations(game: &GameTree) -> usize {
    game.nodes().map(|n| game.child_count(n.id()).saturating_sub(1)).sum()
}

/// One line per game: `FILE<TAB>GAME<TAB>FORMAT<TAB>CHARSET (SOURCE)<TAB>B=…<TAB>W=…<TAB>RE=…<TAB>moves=N`.
/// Only the games `filter` keeps are listed, each with its number in the input.
pub fn lines(name: &str, format: Format, read: &ReadOutput, filter: &Filter) -> String {
    let charset = read.charset.map_or_else(|| "-".to_string(), |d| format!("{} ({})", ca_label(d.encoding), d.source));
    let mut out = String::new();
    for (i, game) in kept(read, format, filter) {
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

/// The games `filter` keeps, with their index in the input.
fn kept<'a>(read: &'a ReadOutput, format: Format, filter: &'a Filter) -> impl Iterator<Item = (usize, &'a GameTree)> {
    read.collection.games.iter().enumerate().filter(move |(_, g)| filter.matches(g, Some(format)))
}

/// One JSON record per game `filter` keeps.
pub fn records(name: &str, format: Format, read: &ReadOutput, filter: &Filter) -> String {
    let charset = read.charset.map(|d| json!({"name": ca_label(d.encoding), "source": d.source.as_str()}));
    let mut out = String::new();
    for (i, game) in kept(read, format, filter) {
        let info = game.info();
        let size = game.board_size();
        let line = json!({
            "file": name, "game": i + 1, "format": format.name(), "charset": charset,
            "black": info.black, "white": info.white,
            "black_rank": info.black_rank, "white_rank": info.white_rank,
            "result": info.result_text, "komi": info.komi, "handicap": info.handicap,
            "size": {"width": size.width, "height": size.height}, "date": info.date,
            "moves": game.main_line_moves(), "variations": variations(game),
        });
        out.push_str(&format!("{line}\n"));
    }
    out
}

/// Runs `kifu info`.
pub fn run(args: InfoArgs) -> ExitCode {
    let v = Verbosity { quiet: args.quiet, verbose: args.verbose };
    let (from, encoding) = match crate::args::input(args.from.as_deref(), args.from_encoding.as_deref()) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    #[allow(clippy::needless_update)]
    let reader = Reader::new().with_format_opt(from).with_options(ReadOptions::default().with_encoding(encoding));
    let inputs = if args.inputs.is_empty() { vec![PathBuf::from("-")] } else { args.inputs };
    let filter = args.select.filter();
    let mut left_out = 0;
    if let Err(code) = crate::batch::walk::refuse_folders(&inputs, args.walk.recursive, "describe") {
        return code;
    }
    let walk = match args.walk.options(from, &reader.options().limits) {
        Ok(w) => w,
        Err(msg) => {
            eprintln!("kifu: {msg}");
            return ExitCode::Usage;
        }
    };
    if !args.json {
        if let Err(code) = print_stdout(HEADER.as_bytes()) {
            return code;
        }
    }
    // The exit codes of the failures: what a single input exits with.
    let mut failed = Vec::new();
    let mut totals = crate::batch::Totals::default();
    // One walk: named files, the records under folders with -r, archives' members.
    let mut walked = crate::batch::Inputs::new(&inputs, walk);
    for item in &mut walked {
        let input = match item {
            Item::Input(input) => match (input.name.clone(), input.read()) {
                (_, Ok(i)) => i,
                (name, Err(e)) => {
                    eprintln!("kifu: {name}: {}", e.message);
                    failed.push(e.code);
                    totals.failed();
                    continue;
                }
            },
            Item::Refused(r) => {
                print_diagnostics(&r.name, std::slice::from_ref(&r.diagnostic), v);
                failed.extend(r.code);
                totals.refused(&r);
                continue;
            }
        };
        let Ok(decision) = reader.decide(input.path.as_deref(), &input.bytes) else {
            eprintln!("kifu: {}: {}", input.name, crate::input::no_format(&input.bytes));
            failed.push(ExitCode::DataErr);
            totals.failed();
            continue;
        };
        let (name, format) = (input.name, decision.format);
        print_diagnostics(&name, decision.mismatch.as_slice(), v);
        match reader.read_as(format, input.bytes) {
            Ok(read) => {
                if let Some(decision) = read.charset {
                    print_diagnostics(&name, &[decision.note()], v);
                }
                print_diagnostics(&name, &read.diagnostics, v);
                totals.read(decision.mismatch.iter().chain(&read.diagnostics).map(|d| d.severity).max());
                let shown = kept(&read, format, &filter).count();
                left_out += read.collection.games.len() - shown;
                let text = if args.json {
                    records(&name, format, &read, &filter)
                } else {
                    lines(&name, format, &read, &filter)
                };
                if let Err(code) = print_stdout(text.as_bytes()) {
                    return code;
                }
            }
            Err(e) => {
                print_diagnostics(&name, &e.diagnostics, v);
                failed.push(ExitCode::DataErr);
                totals.failed();
            }
        }
    }
    totals.ignored = walked.ignored();
    let several = walked.several();
    if let (false, Some(line)) = (v.quiet, crate::select_args::left_out_line(left_out)) {
        eprintln!("{line}");
    }
    if several && !v.quiet {
        eprintln!("{}", totals.line("repaired with errors"));
    }
    match failed.as_slice() {
        [] => ExitCode::Ok,
        [only] if !several => *only,
        _ => ExitCode::SomeFailed,
    }
}
