//! `kifu convert` on a large input (see [`kifu::stream`]): read, converted and written piece by
//! piece, both cores at work, into a temporary file renamed into place (or standard output).

use crate::ExitCode;
use crate::input::{Input, Unreadable, is_stdin};
use crate::output::{
    Verbosity, cannot_hold, finished, note_written, output_failed, print_diagnostics, refuse_input_as_output,
    remove_stale_beside,
};
use kifu::output::{OutputError, OutputPolicy, write_output_with};
use kifu::reader::Decision;
use kifu::stream::{Parts, StreamError, StreamOptions, Summary};
use kifu::{Diagnostic, Format, ReadOptions, Reader, WriteOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// A large input, opened and cut into pieces.
pub struct Streamed {
    name: String,
    path: Option<PathBuf>,
    parts: Parts<Box<dyn Read + Send>>,
    mismatch: Option<Diagnostic>,
}

/// An input as [`open`] found it.
pub enum Opened {
    /// Small, or not one kifu streams: read whole, as every other input.
    Whole(Input),
    /// Large: its pieces.
    Parts(Box<Streamed>),
}

/// Opens `input` (standard input for `None` or `-`) and reads its first bytes: an input of at
/// most [`kifu::Limits::whole_up_to`] bytes, or whose format cannot be cut, is read whole.
pub fn open(input: Option<&Path>, reader_of: &Reader) -> Result<Opened, Unreadable> {
    let (path, name, mut reader): (Option<PathBuf>, String, Box<dyn Read + Send>) = match input.filter(|p| !is_stdin(p))
    {
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => (Some(p.to_path_buf()), p.display().to_string(), Box::new(f)),
            Err(e) => {
                return Err(Unreadable { code: ExitCode::NoInput, message: format!("cannot read the file: {e}") });
            }
        },
        None => {
            crate::input::note_terminal();
            (None, "<stdin>".to_string(), Box::new(io::stdin()))
        }
    };
    let unreadable =
        |e: io::Error| Unreadable { code: ExitCode::NoInput, message: format!("cannot read the input: {e}") };
    let mut head = Vec::new();
    (&mut reader).take(64 << 10).read_to_end(&mut head).map_err(unreadable)?;
    let Ok(Decision { format, mismatch, .. }) = reader_of.decide(path.as_deref(), &head) else {
        reader.read_to_end(&mut head).map_err(unreadable)?;
        return Ok(Opened::Whole(Input { path, name, bytes: head }));
    };
    match kifu::stream::open_within(format, head, reader, &reader_of.options().limits).map_err(unreadable)? {
        kifu::stream::Input::Whole(bytes) => Ok(Opened::Whole(Input { path, name, bytes })),
        kifu::stream::Input::Parts(parts) => Ok(Opened::Parts(Box::new(Streamed { name, path, parts, mismatch }))),
    }
}

/// Converts a large input to `to`, into `output` (standard output for `None`).
#[allow(clippy::too_many_arguments)]
pub fn run(
    s: Streamed,
    to: Format,
    output: Option<&Path>,
    read: ReadOptions,
    write: WriteOptions,
    force: bool,
    strict: bool,
    v: Verbosity,
) -> ExitCode {
    let Streamed { name, path, parts, mismatch } = s;
    if let Err(code) = refuse_input_as_output(path.as_deref(), output) {
        return code;
    }
    print_diagnostics(&name, mismatch.as_slice(), v);
    let file = path.as_ref().map(|p| p.display().to_string());
    let options = StreamOptions::new(to).with_read(read).with_write(write).with_file(file);
    let mut parts = Some(parts);
    let mut outcome: Option<(Summary, Result<(), StreamError>)> = None;
    let mut fill = |w: &mut (dyn Write + Send)| {
        let Some(parts) = parts.take() else { return Err(io::Error::other("the input was already converted")) };
        let (summary, result) = kifu::stream::convert(parts, &options, w);
        let failed = match &result {
            Ok(()) => None,
            Err(StreamError::Output(e)) => Some(io::Error::new(e.kind(), e.to_string())),
            Err(e) => Some(io::Error::other(e.to_string())),
        };
        outcome = Some((summary, result));
        failed.map_or(Ok(()), Err)
    };
    let written = match output {
        Some(p) => {
            remove_stale_beside(p, v);
            write_output_with(p, &OutputPolicy::single(force), &mut fill).map(Some)
        }
        None => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::with_capacity(1 << 20, stdout);
            let r = fill(&mut out).and_then(|()| out.flush());
            match r {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(None),
                Err(e) => Err(OutputError::Write(PathBuf::from("standard output"), e)),
                Ok(()) => Ok(None),
            }
        }
    };
    let out_name = output.map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string());
    let Some((summary, result)) = outcome else {
        // The output could not be created: nothing was read.
        return written.err().map_or(ExitCode::IoErr, |e| output_failed(&e));
    };
    if let Some(decision) = summary.charset {
        print_diagnostics(&name, &[decision.note()], v);
    }
    print_diagnostics(&name, &summary.read, v);
    print_diagnostics(&out_name, &summary.write, v);
    match result {
        Err(StreamError::NoGame) => return ExitCode::DataErr,
        Err(StreamError::Input(e)) if kifu::stream::RecordTooLarge::of(&e).is_some() => {
            let over = kifu::stream::RecordTooLarge::of(&e).map(|r| r.diagnostic());
            print_diagnostics(&name, over.as_slice(), v);
            return ExitCode::DataErr;
        }
        Err(StreamError::Input(e)) => {
            eprintln!("kifu: {name}: cannot read the input: {e}");
            return ExitCode::NoInput;
        }
        Err(StreamError::CannotHold) => return cannot_hold(to, &summary.write),
        Err(StreamError::Unsupported(f)) => {
            eprintln!("kifu: kifu cannot write {f}");
            return ExitCode::Usage;
        }
        Err(_) | Ok(()) => {}
    }
    match written {
        Err(e) => return output_failed(&e),
        Ok(Some(w)) => note_written(&out_name, w, v),
        Ok(None) => {}
    }
    let mut tally = crate::output::Tally::default();
    tally.add(&summary.read);
    tally.print(v);
    finished(strict, mismatch.iter().chain(&summary.read).chain(&summary.write))
}
