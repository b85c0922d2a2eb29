//! `kifu formats`.

use super::ExitCode;
use super::output::print_stdout;
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
        let spec = f.spec();
        if json {
            let line = json!({
                "name": spec.name, "aliases": spec.aliases, "read": f.can_read(), "write": f.can_write(),
                "extensions": spec.extensions, "description": spec.description,
            });
            text.push_str(&format!("{line}\n"));
            continue;
        }
        let mut name = spec.name.to_string();
        if !spec.aliases.is_empty() {
            name = format!("{name} ({})", spec.aliases.join(", "));
        }
        let yes = |b: bool| if b { "yes" } else { "no" };
        text.push_str(&format!(
            "{:<11} {:<5} {:<6} {:<17} {}\n",
            name,
            yes(f.can_read()),
            yes(f.can_write()),
            spec.extensions.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(" "),
            spec.description
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
