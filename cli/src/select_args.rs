//! The options that pick games (formats/archives.md, "Filters"), flattened into every command
//! that reads games: `#[command(flatten)] select: SelectArgs`, then [`SelectArgs::filter`].

use clap::Args;
use kifu::select::{Filter, PartialDate, Winner, parse_size};
use kifu::{BoardSize, Format};

/// Options that keep only the games that match (every one given must hold).
#[derive(Clone, Debug, Default, Args)]
pub struct SelectArgs {
    /// Keep games where either player's name holds NAME (case, width and accents folded;
    /// `=NAME` for the whole name). Twice: games between the two.
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    player: Vec<String>,
    /// Keep games whose black player matches NAME (as --player).
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    black: Vec<String>,
    /// Keep games whose white player matches NAME (as --player).
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    white: Vec<String>,
    /// Keep games whose event (EV) holds TEXT (as --player).
    #[arg(long, value_name = "TEXT", help_heading = "Filters")]
    event: Vec<String>,
    /// Keep games played on or after DATE (YYYY, YYYY-MM or YYYY-MM-DD; over DT).
    #[arg(long, value_name = "DATE", help_heading = "Filters")]
    since: Option<PartialDate>,
    /// Keep games played on or before DATE (YYYY, YYYY-MM or YYYY-MM-DD; over DT).
    #[arg(long, value_name = "DATE", help_heading = "Filters")]
    until: Option<PartialDate>,
    /// Keep games won by B, W, or drawn (draw).
    #[arg(long, value_name = "B|W|draw", help_heading = "Filters")]
    winner: Option<Winner>,
    /// Keep games with at least N moves on the main line.
    #[arg(long, value_name = "N", help_heading = "Filters")]
    min_moves: Option<usize>,
    /// Keep games with at most N moves on the main line.
    #[arg(long, value_name = "N", help_heading = "Filters")]
    max_moves: Option<usize>,
    /// Keep games on an N×N board (or WxH).
    #[arg(long, value_name = "N", value_parser = size, help_heading = "Filters")]
    size: Option<BoardSize>,
    /// Keep games read from records of format F (repeatable). Named so because `--format` is
    /// `kifu check`'s output form.
    #[arg(long = "source-format", value_name = "F", value_parser = crate::args::format, help_heading = "Filters")]
    source_format: Vec<Format>,
}

fn size(s: &str) -> Result<BoardSize, String> {
    parse_size(s).map_err(|e| e.to_string())
}

impl SelectArgs {
    /// The filter these options make (empty when none was given).
    pub fn filter(&self) -> Filter {
        let mut f = Filter::new();
        for n in &self.player {
            f = f.player(n);
        }
        for n in &self.black {
            f = f.black(n);
        }
        for n in &self.white {
            f = f.white(n);
        }
        for t in &self.event {
            f = f.event(t);
        }
        if let Some(d) = self.since {
            f = f.since(d);
        }
        if let Some(d) = self.until {
            f = f.until(d);
        }
        if let Some(w) = self.winner {
            f = f.winner(w);
        }
        if let Some(n) = self.min_moves {
            f = f.min_moves(n);
        }
        if let Some(n) = self.max_moves {
            f = f.max_moves(n);
        }
        if let Some(s) = self.size {
            f = f.size(s);
        }
        for &format in &self.source_format {
            f = f.format(format);
        }
        f
    }
}

/// The line saying how many games the filters left out (`None` when none was).
pub fn left_out_line(left_out: usize) -> Option<String> {
    (left_out > 0)
        .then(|| format!("kifu: {left_out} game{} left out by the filters", if left_out == 1 { "" } else { "s" }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        select: SelectArgs,
    }

    #[test]
    fn options_make_the_filter_and_bad_values_are_usage_errors() {
        let t =
            T::try_parse_from(["t", "--player", "lee", "--since", "2016", "--size", "19", "--source-format", "gib"])
                .unwrap();
        let f = t.select.filter();
        assert!(!f.is_empty());
        assert!(SelectArgs::default().filter().is_empty());
        for bad in [["--since", "2016-13"], ["--winner", "x"], ["--size", "0"], ["--source-format", "sfg"]] {
            let err = T::try_parse_from(["t", bad[0], bad[1]]).err().unwrap();
            assert_eq!(err.kind(), clap::error::ErrorKind::ValueValidation, "{bad:?}");
        }
    }
}
