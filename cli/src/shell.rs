//! Shell integration: `kifu completions SHELL` and `kifu man`.

use crate::ExitCode;
use crate::output::{print_stdout, write_file};
use clap::Args;
use clap_complete::Shell;
use std::path::PathBuf;

/// Arguments of `kifu completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: Shell,
}

/// Arguments of `kifu man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (default: kifu itself).
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    command: Option<String>,
    /// Write kifu.1 and kifu-COMMAND.1 for every command into this folder instead.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// With --dir: replace pages that exist and differ.
    #[arg(long, requires = "dir")]
    force: bool,
}

/// Prints the completion script for one shell.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut cmd = crate::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "kifu", &mut script);
    match print_stdout(&script) {
        Ok(()) => ExitCode::Ok,
        Err(code) => code,
    }
}

/// The man page of `cmd`, named `name` (`kifu`, `kifu-convert`), invoked as `bin`
/// (`kifu convert`).
fn page(cmd: clap::Command, name: String, bin: String) -> Vec<u8> {
    let cmd = cmd.name(name).bin_name(bin);
    let mut roff = Vec::new();
    // Rendering into memory cannot fail.
    let _ = clap_mangen::Man::new(cmd).render(&mut roff);
    roff
}

/// Every page: `kifu` and one per command (completions and man included).
fn pages() -> Vec<(String, Vec<u8>)> {
    let root = crate::command();
    let mut out = vec![("kifu".to_string(), page(root.clone(), "kifu".to_string(), "kifu".to_string()))];
    for sub in root.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("kifu-{}", sub.get_name());
        out.push((name.clone(), page(sub.clone(), name, format!("kifu {}", sub.get_name()))));
    }
    out
}

/// Prints one man page, or writes them all into a folder.
pub fn man(args: &ManArgs) -> ExitCode {
    if let Some(dir) = &args.dir {
        for (name, roff) in pages() {
            if let Err(code) = write_file(&dir.join(format!("{name}.1")), &roff, args.force) {
                return code;
            }
        }
        return ExitCode::Ok;
    }
    let wanted = args.command.as_deref().map_or_else(|| "kifu".to_string(), |c| format!("kifu-{c}"));
    let Some((_, roff)) = pages().into_iter().find(|(n, _)| *n == wanted) else {
        let known: Vec<String> = crate::command().get_subcommands().map(|s| s.get_name().to_string()).collect();
        eprintln!("kifu: no command '{}' (known: {})", args.command.as_deref().unwrap_or(""), known.join(", "));
        return ExitCode::Usage;
    };
    match print_stdout(&roff) {
        Ok(()) => ExitCode::Ok,
        Err(code) => code,
    }
}
