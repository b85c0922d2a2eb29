//! `kifu dedup`: the groups of copies of one game among the inputs (formats/archives.md,
//! "Duplicates").

use crate::ExitCode;
use crate::census::{self, Census, CensusArgs, Origins, collect, place};
use crate::output::{Verbosity, print_stdout};
use clap::Args;
use kifu::dedup::{Group, Relation};
use serde_json::json;

/// Arguments of `kifu dedup`.
#[derive(Debug, Args)]
pub struct DedupArgs {
    #[command(flatten)]
    census: CensusArgs,
    /// One JSON record per group (NDJSON): every copy as file and game number, the kept copy
    /// first, and why it was kept.
    #[arg(long)]
    json: bool,
    /// A shorter game is an unfinished copy of a longer one when it has at least N moves.
    #[arg(long, value_name = "N", default_value_t = kifu::dedup::MIN_PREFIX)]
    min_prefix: usize,
}

/// The one line of a group.
pub fn line(census: &Census, origins: &Origins, group: &Group) -> String {
    let kept = &group.copies[0];
    let mut out =
        format!("{}: kept ({} moves, {})", place(census, origins, kept.index), kept.moves, group.kept_because.as_str());
    for relation in [Relation::Same, Relation::Prefix] {
        let copies: Vec<String> = group
            .copies
            .iter()
            .filter(|c| c.relation == relation)
            .map(|c| {
                let mut notes = Vec::new();
                if relation == Relation::Prefix {
                    notes.push(format!("{} moves", c.moves));
                }
                if c.orientation != kifu::dedup::Orientation::Same {
                    notes.push(c.orientation.as_str().to_string());
                }
                let p = place(census, origins, c.index);
                if notes.is_empty() { p } else { format!("{p} ({})", notes.join(", ")) }
            })
            .collect();
        if !copies.is_empty() {
            out.push_str(&format!("; {}: {}", relation.as_str(), copies.join(", ")));
        }
    }
    out.push('\n');
    out
}

/// The JSON record of a group.
pub fn record(census: &Census, origins: &Origins, group: &Group) -> String {
    let copies: Vec<_> = group
        .copies
        .iter()
        .map(|c| {
            let (file, game) = origins[c.index];
            json!({
                "file": census.reads[file].name, "game": game, "relation": c.relation.as_str(),
                "orientation": c.orientation.as_str(), "moves": c.moves,
            })
        })
        .collect();
    format!("{}\n", json!({"kept_because": group.kept_because.as_str(), "copies": copies}))
}

/// Runs `kifu dedup`.
pub fn run(args: DedupArgs) -> ExitCode {
    let v = Verbosity { quiet: args.census.quiet, verbose: false };
    let options = match census::options(&args.census) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let census = match census::gather(&args.census.inputs, &options, v) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let (dedup, origins) = collect(&census, args.min_prefix);
    let groups = dedup.groups();
    let mut text = String::new();
    for g in &groups {
        text.push_str(&if args.json { record(&census, &origins, g) } else { line(&census, &origins, g) });
    }
    if let Err(code) = print_stdout(text.as_bytes()) {
        return code;
    }
    if !v.quiet {
        let redundant: usize = groups.iter().map(|g| g.copies.len() - 1).sum();
        let prefixes = groups.iter().flat_map(|g| &g.copies).filter(|c| c.relation == Relation::Prefix).count();
        eprintln!(
            "{}: {} duplicate group{}, {redundant} cop{} not kept ({prefixes} unfinished)",
            census::summary_line(&census, dedup.len()),
            groups.len(),
            if groups.len() == 1 { "" } else { "s" },
            if redundant == 1 { "y" } else { "ies" },
        );
        if let Some(line) = census::left_out_line(&census) {
            eprintln!("{line}");
        }
    }
    census::exit_code(&census)
}
