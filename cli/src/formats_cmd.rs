//! `kifu formats`.

use crate::ExitCode;
use crate::output::print_stdout;
use clap::Args;
use kifu::Format;
use serde_json::json;

/// Arguments of `kifu formats`.
#[derive(Debug, Args)]
pub struct FormatsArgs {
    /// JSON Lines: one object per format (name, aliases, read, write, extensions, description).
    #[arg(long)]
    json: bool,
}

/// The table, or the JSON Lines with `--json`.
fn text(json: bool) -> String {
    let mut text =
        if json { String::new() } else { String::from("FORMAT      READ  WRITE  EXTENSIONS        DESCRIPTION\n") };
    for f in Format::all() {
        if json {
            let line = json!({
                "name": f.name(), "aliases": f.aliases(), "read": f.can_read(), "write": f.can_write(),
                "extensions": f.extensions(), "description": f.description(),
            });
            text.push_str(&format!("{line}\n"));
            continue;
        }
        let mut name = f.name().to_string();
        if !f.aliases().is_empty() {
            name = format!("{name} ({})", f.aliases().join(", "));
        }
        let yes = |b: bool| if b { "yes" } else { "no" };
        text.push_str(&format!(
            "{:<11} {:<5} {:<6} {:<17} {}\n",
            name,
            yes(f.can_read()),
            yes(f.can_write()),
            f.extensions().iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(" "),
            f.description()
        ));
    }
    text
}

/// Lists every registered format.
pub fn run(args: &FormatsArgs) -> ExitCode {
    match print_stdout(text(args.json).as_bytes()) {
        Ok(()) => ExitCode::Ok,
        Err(code) => code,
    }
}
