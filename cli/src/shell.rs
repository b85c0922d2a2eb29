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
/// (`kifu convert`): NAME, SYNOPSIS, DESCRIPTION, OPTIONS (COMMANDS for kifu itself), the
/// command's own section where it has one, EXIT STATUS, EXAMPLES, SEE ALSO.
fn page(cmd: clap::Command, name: String, bin: String) -> Vec<u8> {
    let sub = name.strip_prefix("kifu-").unwrap_or("").to_string();
    let cmd = cmd.name(name.clone()).bin_name(bin);
    let man = clap_mangen::Man::new(cmd.clone());
    let mut roff = Vec::new();
    // Rendering into memory cannot fail.
    let _ = man.render_title(&mut roff);
    let _ = man.render_name_section(&mut roff);
    let _ = man.render_synopsis_section(&mut roff);
    let _ = man.render_description_section(&mut roff);
    let _ = man.render_options_section(&mut roff);
    if cmd.get_subcommands().next().is_some() {
        let _ = man.render_subcommands_section(&mut roff);
    }
    if sub == "diagram" {
        section(&mut roff, "NODE PATHS", crate::diagram::AFTER_HELP);
    }
    section(&mut roff, "EXIT STATUS", exit_status(&sub));
    let examples: Vec<String> = examples(&sub).iter().map(|(what, line)| format!("{what}:\n    {line}")).collect();
    section(&mut roff, "EXAMPLES", &examples.join("\n\n"));
    let mut see: Vec<String> = crate::command()
        .get_subcommands()
        .map(|s| format!("kifu-{}(1)", s.get_name()))
        .filter(|s| *s != format!("{name}(1)"))
        .collect();
    if !sub.is_empty() {
        see.insert(0, "kifu(1)".to_string());
    }
    section(
        &mut roff,
        "SEE ALSO",
        &format!(
            "{}\n\nThe formats/*.md pages of the kifu repository: cli.md (severities, exit codes, outputs), \
                  normalise.md (repairs), checks.md (kifu check), report.md (batch reports).",
            see.join(", ")
        ),
    );
    if cmd.get_version().is_some() {
        let _ = man.render_version_section(&mut roff);
    }
    roff
}

/// A section of plain text: paragraphs split at blank lines, indented lines kept as they are.
fn section(roff: &mut Vec<u8>, title: &str, text: &str) {
    roff.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
    for para in text.split("\n\n") {
        roff.extend_from_slice(b".PP\n.nf\n");
        for line in para.lines() {
            roff.extend_from_slice(escape(line).as_bytes());
            roff.push(b'\n');
        }
        roff.extend_from_slice(b".fi\n");
    }
}

/// Text as roff reads it literally: backslashes written `\e`, a leading `.` or `'` guarded.
fn escape(line: &str) -> String {
    let line = line.replace('\\', "\\e").replace('-', "\\-");
    if line.starts_with('.') || line.starts_with('\'') { format!("\\&{line}") } else { line }
}

/// The exit codes of one command (`""`: kifu itself).
fn exit_status(sub: &str) -> &'static str {
    match sub {
        "check" => crate::check::EXIT_CODES,
        "formats" | "completions" | "man" => {
            "0    success\n2    usage error\n73   (man --dir) a page exists and differs (give --force)\n\
             74   writing failed (a closed pipe is success)"
        }
        _ => crate::EXIT_CODES,
    }
}

/// What a command is used for, with the line that does it.
fn examples(sub: &str) -> &'static [(&'static str, &'static str)] {
    match sub {
        "convert" => &[
            (
                "Convert a Tygem record to SGF (the output format from the extension)",
                "kifu convert game.gib -o game.sgf",
            ),
            ("Print a record as JSON", "kifu convert game.sgf -t json"),
            (
                "Convert a whole folder, keeping its layout",
                "kifu convert -r records/ -O converted/ --report run.ndjson",
            ),
            ("Go on after an interruption", "kifu convert -r records/ -O converted/ --skip-existing"),
            ("Several records as one NDJSON stream, in the order given", "kifu convert a.gib b.sgf -t ndjson"),
            ("Write GB18030 for an old Chinese reader", "kifu convert game.sgf --encoding gb18030 -o old.sgf"),
        ],
        "check" => &[
            ("Check a record against FF[4] and the rules of Go", "kifu check game.sgf"),
            ("Only the errors, as JSON Lines", "kifu check -q --json *.sgf"),
            ("Every record under a folder and in its archives", "kifu check -r records/"),
        ],
        "diagram" => &[
            ("The final position as an SVG picture", "kifu diagram game.sgf -o final.svg"),
            (
                "The position after move 50 as a PNG, 600 pixels wide",
                "kifu diagram game.sgf --move 50 --width 600 -o move50.png",
            ),
            ("The board in the terminal", "kifu diagram game.sgf -t text"),
            ("The whole game as figures of 50 moves", "kifu diagram game.sgf --figures 50 -o fig.svg"),
            ("List the variations to pick one with --node", "kifu diagram game.sgf --list"),
        ],
        "info" => &[
            ("One line per game: players, result, moves, charset", "kifu info *.sgf"),
            ("The games under a folder, GIB files only", "kifu info -r records/ --include '*.gib'"),
        ],
        "formats" => &[
            ("The formats kifu reads and writes", "kifu formats"),
            ("The charset labels --encoding accepts", "kifu formats --encodings"),
        ],
        "completions" => &[("Completion in the current bash", "source <(kifu completions bash)")],
        "man" => &[
            ("The page of one command", "kifu man convert | man -l -"),
            ("Install every page", "kifu man --dir ~/.local/share/man/man1"),
        ],
        _ => &[
            ("Convert a record", "kifu convert game.gib -o game.sgf"),
            ("Check one", "kifu check game.sgf"),
            ("Draw its final position", "kifu diagram game.sgf -o final.svg"),
            ("The page of one command", "kifu man convert"),
        ],
    }
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
