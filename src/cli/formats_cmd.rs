//! `kifu formats`.

use super::ExitCode;
use kifu::Format;

/// Lists every registered format.
pub fn run() -> ExitCode {
    let mut text = String::from("FORMAT      READ  WRITE  EXTENSIONS        DESCRIPTION\n");
    for f in Format::all() {
        let spec = f.spec();
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
    match super::output::write_stdout(text.as_bytes()) {
        Ok(()) => ExitCode::Ok,
        Err(_) => ExitCode::IoErr,
    }
}
