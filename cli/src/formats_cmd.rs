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
    /// List the charset labels --encoding and --from-encoding accept instead (with --json: one
    /// object per charset).
    #[arg(long)]
    encodings: bool,
}

/// The charsets and their accepted labels: the name kifu writes in `CA`, then kifu's aliases.
fn encodings(json: bool) -> String {
    let mut text = if json {
        String::new()
    } else {
        String::from(
            "CHARSET       ALIASES\n(case, '-', '_' and spaces are ignored; every WHATWG label works too; \
             (read only): not written)\n",
        )
    };
    for enc in crate::args::KNOWN_CHARSETS {
        let name = kifu::charset::ca_label(enc);
        let aliases: Vec<&str> = kifu::charset::ALIASES.iter().filter(|(_, e)| *e == *enc).map(|(a, _)| *a).collect();
        if json {
            let write = kifu::charset::writable(enc);
            text.push_str(&format!("{}\n", json!({"name": name, "aliases": aliases, "write": write})));
        } else {
            let only = if kifu::charset::writable(enc) { "" } else { " (read only)" };
            text.push_str(format!("{name:<13} {}{only}", aliases.join(", ")).trim_end());
            text.push('\n');
        }
    }
    text
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
    let out = if args.encodings { encodings(args.json) } else { text(args.json) };
    match print_stdout(out.as_bytes()) {
        Ok(()) => ExitCode::Ok,
        Err(code) => code,
    }
}
