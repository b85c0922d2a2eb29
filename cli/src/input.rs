//! Reading one input of `convert`, `check` or `info`: a file, or standard input for `-`.

use crate::ExitCode;
use crate::members::Item;
use kifu::Diagnostic;
use kifu::formats::{Format, Limits};
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

/// One input's bytes and the name diagnostics use for it.
pub struct Input {
    /// The file, or `None` for standard input.
    pub path: Option<PathBuf>,
    /// `FILE` as given, or `<stdin>`.
    pub name: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
}

/// Why an input could not be read: the message and the exit code it gives alone.
pub struct Unreadable {
    /// The exit code when this is the only input (66, or 2 for a folder).
    pub code: ExitCode,
    /// What went wrong, without the input's name.
    pub message: String,
}

/// Why no format could be told for `bytes`: the input is empty (or only blanks), an archive
/// (whose members a batch run reads), or its name and content name none (formats/cli.md,
/// "Inputs").
pub fn no_format(bytes: &[u8]) -> String {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        "the input is empty: no game record to read".to_string()
    } else if let Some(kind) = kifu::archive::detect(None, bytes) {
        format!("the input is a {kind} archive; its members are read with -O DIR (formats/archives.md)")
    } else {
        "cannot tell the input format from its name or content; name it with -f FORMAT (see `kifu formats`)".to_string()
    }
}

/// When standard input is a terminal, one line on stderr says kifu is reading it.
pub fn note_terminal() {
    if std::io::stdin().is_terminal() {
        eprintln!("kifu: reading a game record from standard input (end it with Ctrl-D, or name a file)");
    }
}

/// Whether `path` names standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads `path` (standard input for `None` or `-`). When standard input is a terminal, one line
/// on stderr says kifu is reading it, so a forgotten argument does not look like a hang.
pub fn read(path: Option<&Path>) -> Result<Input, Unreadable> {
    match path.filter(|p| !is_stdin(p)) {
        Some(p) => {
            let name = p.display().to_string();
            if p.is_dir() {
                let message =
                    "is a folder; name files, or convert the files under it with `kifu convert -r`".to_string();
                return Err(Unreadable { code: ExitCode::Usage, message });
            }
            match std::fs::read(p) {
                Ok(bytes) => Ok(Input { path: Some(p.to_path_buf()), name, bytes }),
                Err(e) => Err(Unreadable { code: ExitCode::NoInput, message: format!("cannot read the file: {e}") }),
            }
        }
        None => {
            let stdin = std::io::stdin();
            note_terminal();
            let mut bytes = Vec::new();
            match stdin.lock().read_to_end(&mut bytes) {
                Ok(_) => Ok(Input { path: None, name: "<stdin>".to_string(), bytes }),
                Err(e) => {
                    Err(Unreadable { code: ExitCode::NoInput, message: format!("cannot read standard input: {e}") })
                }
            }
        }
    }
}

/// One input of a command after archives are opened: a file (or standard input) as read, a
/// member of an archive (named `archive.zip!/inner/path`, its `path` that name), or a member or
/// archive refused.
pub enum Part {
    /// Something to read.
    Input(Input),
    /// A member refused (or not read), or an archive that stopped early: its name and why.
    Refused {
        /// `archive.zip!/inner/path`, or the archive's name.
        name: String,
        /// Why.
        diagnostic: Diagnostic,
    },
}

/// `input` as [`Part`]s: itself, or when it is an archive (by content, else by name) its
/// members that are game records (by `from`, else by name or content) and its refusals; with
/// how many members are not game records.
pub fn parts(input: Input, from: Option<Format>, limits: &Limits) -> (Vec<Part>, usize) {
    let Some(kind) = kifu::archive::detect(input.path.as_deref(), &input.bytes) else {
        return (vec![Part::Input(input)], 0);
    };
    let path = input.path.clone().unwrap_or_default();
    let reader = std::io::Cursor::new(input.bytes);
    let opened = crate::members::open_reader(reader, &path, &input.name, kind, from, limits);
    let mut out: Vec<Part> = opened
        .items
        .into_iter()
        .map(|item| match item {
            Item::Record { name, bytes, .. } => Part::Input(Input { path: Some(PathBuf::from(&name)), name, bytes }),
            Item::Refused { name, diagnostic, .. } => Part::Refused { name, diagnostic },
        })
        .collect();
    if let Some(diagnostic) = opened.error {
        out.push(Part::Refused { name: input.name, diagnostic });
    }
    (out, opened.ignored)
}
