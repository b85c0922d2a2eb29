//! `kifu stats`: what the inputs hold, for people or as one JSON document (formats/archives.md,
//! "Statistics"). The counting is the library's ([`kifu::stats`]).

use crate::ExitCode;
use crate::census::{self, CensusArgs};
use crate::output::{Verbosity, print_stdout};
use clap::Args;
use kifu::stats::Stats;
use serde_json::json;

/// Arguments of `kifu stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    census: CensusArgs,
    /// One JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// How many players to list (those with the most games).
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
}

/// Sizes as `512 B`, `3.7 KiB`, `10.9 MiB`: bytes, or KiB, MiB, GiB, TiB with one decimal.
fn human(bytes: u64) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.1} {}", units[u])
}

/// The text form.
pub fn text(s: &Stats, top: usize) -> String {
    let mut out = String::new();
    let mut row = |k: &str, v: String| out.push_str(&format!("{k:<11} {v}\n"));
    row("files", format!("{} ({}), {} games", s.files, human(s.bytes), s.games));
    let formats: Vec<String> =
        s.formats.iter().map(|(f, (files, games))| format!("{f} {files} files {games} games")).collect();
    row("formats", join(&formats));
    let charsets: Vec<String> = s.charsets.iter().map(|((c, how), n)| format!("{c} ({how}) {n}")).collect();
    row("charsets", join(&charsets));
    let sizes: Vec<String> = s.sizes.iter().map(|((w, h), n)| format!("{w}x{h} {n}")).collect();
    row("boards", join(&sizes));
    let range = match (&s.first_date, &s.last_date) {
        (Some(a), Some(b)) => format!("{a} to {b}"),
        _ => "-".to_string(),
    };
    row("dates", format!("{range}; {} undated", s.undated));
    let years: Vec<String> = s.years.iter().map(|(y, n)| format!("{y} {n}")).collect();
    row("years", join(&years));
    let players: Vec<String> = s.players(top).iter().map(|(p, n)| format!("{p} {n}")).collect();
    row("players", format!("{} names; most games: {}", s.player_count(), join(&players)));
    let r = &s.results;
    row("results", format!("B {}, W {}, draw {}, void {}, unknown {}", r.black, r.white, r.draw, r.void, r.unknown));
    row("handicap", format!("{} games", s.handicap));
    row("damage", format!("{} failed, {} repaired, {} with warnings", s.failed, s.repaired, s.warnings));
    for (code, c) in &s.codes {
        let sev = c.severity.map_or("-", |x| x.as_str());
        row("", format!("{code} ({sev}): {} files, {} times", c.files, c.times));
    }
    let d = &s.duplicates;
    row(
        "duplicates",
        format!("{} groups, {} copies, {} not kept ({} unfinished)", d.groups, d.copies, d.redundant, d.prefixes),
    );
    out
}

fn join(items: &[String]) -> String {
    if items.is_empty() { "-".to_string() } else { items.join(", ") }
}

/// The JSON document.
pub fn document(s: &Stats, top: usize, ignored: usize) -> serde_json::Value {
    let formats: serde_json::Map<String, serde_json::Value> =
        s.formats.iter().map(|(f, (files, games))| (f.to_string(), json!({"files": files, "games": games}))).collect();
    let charsets: Vec<_> =
        s.charsets.iter().map(|((c, how), n)| json!({"charset": c, "source": how, "files": n})).collect();
    let sizes: serde_json::Map<String, serde_json::Value> =
        s.sizes.iter().map(|((w, h), n)| (format!("{w}x{h}"), json!(n))).collect();
    let years: serde_json::Map<String, serde_json::Value> =
        s.years.iter().map(|(y, n)| (y.to_string(), json!(n))).collect();
    let players: Vec<_> = s.players(top).iter().map(|(p, n)| json!({"name": p, "games": n})).collect();
    let codes: Vec<_> = s
        .codes
        .iter()
        .map(|(code, c)| json!({"code": code, "severity": c.severity.map(|x| x.as_str()), "files": c.files, "times": c.times}))
        .collect();
    let r = &s.results;
    let d = &s.duplicates;
    json!({
        "files": s.files, "games": s.games, "bytes": s.bytes, "ignored": ignored,
        "formats": formats, "charsets": charsets, "sizes": sizes,
        "dates": {"first": s.first_date, "last": s.last_date, "undated": s.undated, "years": years},
        "players": {"names": s.player_count(), "most_games": players},
        "results": {"black": r.black, "white": r.white, "draw": r.draw, "void": r.void, "unknown": r.unknown},
        "handicap": s.handicap,
        "damage": {"failed": s.failed, "repaired": s.repaired, "warnings": s.warnings, "codes": codes},
        "duplicates": {"groups": d.groups, "copies": d.copies, "redundant": d.redundant, "prefixes": d.prefixes},
    })
}

/// Runs `kifu stats`.
pub fn run(args: StatsArgs) -> ExitCode {
    let v = Verbosity { quiet: args.census.quiet, verbose: false };
    let options = match census::options(&args.census) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut census = match census::gather(&args.census.inputs, &options, v) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut stats = Stats::new();
    for r in &mut census.reads {
        if !r.skipped {
            stats.add(std::mem::take(&mut r.stats));
        }
    }
    let stats = stats.finish();
    let out =
        if args.json { format!("{}\n", document(&stats, args.top, census.ignored)) } else { text(&stats, args.top) };
    if let Err(code) = print_stdout(out.as_bytes()) {
        return code;
    }
    if !v.quiet {
        eprintln!("{}", census::summary_line(&census, stats.games));
        if let Some(line) = census::left_out_line(&census) {
            eprintln!("{line}");
        }
    }
    census::exit_code(&census)
}
