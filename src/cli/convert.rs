//! `kifu convert`: one input (file or stdin) to one output (file or stdout); several inputs or
//! folders go to `batch.rs`.

use super::ExitCode;
use super::output::{
    Loudness, cannot_hold, finished, note_written, print_diagnostics, print_stdout, refuse_input_as_output,
    remove_stale_beside, write_file,
};
use super::stream;
use clap::Args;
use kifu::{Format, ReadOptions, WriteOptions};
use std::path::PathBuf;

/// Arguments of `kifu convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Input file; `-` or nothing reads standard input. Several files, or folders with -r, make a
    /// batch run (see -O).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Input format (default: from the file extension, else from the content).
    #[arg(short = 'f', long = "from", value_name = "FORMAT")]
    from: Option<String>,
    /// Output format (default: from the -o extension, else sgf).
    #[arg(short = 't', long = "to", value_name = "FORMAT")]
    to: Option<String>,
    /// Output file; nothing or `-` writes standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Decode the input with this charset, whatever it declares (a byte-order mark still wins).
    #[arg(long, value_name = "LABEL")]
    from_encoding: Option<String>,
    /// Write the output in this charset (default UTF-8), with a matching CA.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// With --encoding: write '?' (and warn) for characters the charset cannot hold, instead of
    /// failing.
    #[arg(long)]
    lossy: bool,
    /// SGF output: write compressed point lists (AB[aa:cc]) as single points.
    #[arg(long)]
    expand_lists: bool,
    /// Keep the input's properties exactly as read: no fix.* normalisation (merged duplicates,
    /// FF[3] and dialect forms, Fox komi, …; see formats/normalise.md).
    #[arg(long)]
    no_repair: bool,
    #[command(flatten)]
    loud: Loudness,
    #[command(flatten)]
    batch: Box<super::batch::BatchArgs>,
}

/// Inputs up to this size are read with node positions, so diagnostics name their move.
const NAMED_MOVES_UP_TO: usize = 16 << 20;

/// Whether the input may be large enough to stream: standard input (its size is known only
/// once read), or a regular file larger than [`kifu::stream::WHOLE_UP_TO`].
fn big(input: Option<&std::path::Path>) -> bool {
    match input.filter(|p| !super::input::is_stdin(p)) {
        None => true,
        Some(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() > kifu::stream::WHOLE_UP_TO as u64),
    }
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("kifu: {msg}");
    ExitCode::Usage
}

/// Runs the conversion.
pub fn run(args: ConvertArgs) -> ExitCode {
    let v = args.loud.verbosity();
    use super::args::{charset, format, optional};
    let parsed = (|| {
        Ok::<_, ExitCode>((
            optional(args.from.as_deref(), format)?,
            optional(args.to.as_deref(), format)?,
            optional(args.from_encoding.as_deref(), charset)?,
            optional(args.encoding.as_deref(), charset)?,
        ))
    })();
    let (from, to, from_enc, to_enc) = match parsed {
        Ok(p) => p,
        Err(code) => return code,
    };
    // What every path writes with (the charset and the source's charset are set where known).
    let written = WriteOptions { expand_point_lists: args.expand_lists, lossy: args.lossy, ..WriteOptions::default() };

    if args.batch.wanted(args.inputs.len()) {
        let common = super::batch::Common {
            from,
            to,
            read: ReadOptions { encoding: from_enc, no_repair: args.no_repair, ..ReadOptions::default() },
            write: WriteOptions { encoding: to_enc, ..written },
            force: args.force,
            strict: args.loud.strict,
            verbosity: v,
            single_output: args.output.is_some(),
        };
        return super::batch::run(&args.inputs, &args.batch, common);
    }
    let jobs = args.batch.single_jobs(args.inputs.len());
    let input = args.inputs.into_iter().next();
    let output = args.output.filter(|p| !super::input::is_stdin(p));
    // A large file, or standard input, goes through the streaming path when it proves large.
    let to_guess = to.or_else(|| output.as_deref().and_then(Format::from_path)).unwrap_or(Format::SGF);
    let read_in = if big(input.as_deref()) && kifu::stream::writes_in_parts(to_guess) {
        match stream::open(input.as_deref(), from) {
            Ok(stream::Opened::Whole(i)) => Ok(i),
            Ok(stream::Opened::Parts(s)) => {
                let write = WriteOptions { encoding: to_enc, ..written };
                let read = ReadOptions { encoding: from_enc, positions: false, no_repair: args.no_repair };
                let run = || stream::run(*s, to_guess, output.as_deref(), read, write, args.force, args.loud.strict, v);
                // `-j N` for one input: the threads that read and write its pieces.
                return match jobs.map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build()) {
                    Some(Ok(pool)) => pool.install(run),
                    _ => run(),
                };
            }
            Err(e) => Err(e),
        }
    } else {
        super::input::read(input.as_deref())
    };
    let read_in = match read_in {
        Ok(i) => i,
        Err(e) => {
            let shown = input.as_ref().map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
            eprintln!("kifu: {shown}: {}", e.message);
            return e.code;
        }
    };
    let (name, bytes) = (read_in.name, read_in.bytes);
    let input = read_in.path;
    let Some((from, mismatch)) = kifu::batch::detect_format(from, input.as_deref(), &bytes) else {
        eprintln!(
            "kifu: {name}: cannot tell the input format from its name or content; name it with -f FORMAT (see `kifu formats`)"
        );
        return ExitCode::DataErr;
    };
    let to = to.or_else(|| output.as_deref().and_then(Format::from_path)).unwrap_or(Format::SGF);
    if !from.can_read() {
        return usage(&format!("kifu cannot read {from}"));
    }
    if !to.can_write() {
        return usage(&format!("kifu cannot write {to}"));
    }
    if let Err(code) = refuse_input_as_output(input.as_deref(), output.as_deref()) {
        return code;
    }
    print_diagnostics(&name, mismatch.as_slice(), v);

    // Node positions let diagnostics name their move; recorded for inputs of ordinary size. The
    // reader's diagnostics are named before the normaliser (which may rebuild the tree) runs.
    let positions = bytes.len() <= NAMED_MOVES_UP_TO;
    let read = match from.read(bytes, &ReadOptions { encoding: from_enc, positions, no_repair: true }) {
        Ok(mut r) => {
            kifu::batch::name_moves(&r.collection, &mut r.diagnostics);
            if !args.no_repair && from == Format::SGF {
                kifu::normalise::apply(&mut r);
            }
            r
        }
        Err(e) => {
            print_diagnostics(&name, &e.diagnostics, v);
            return ExitCode::DataErr;
        }
    };
    if let Some(decision) = read.charset {
        print_diagnostics(&name, &[decision.note()], v);
    }
    print_diagnostics(&name, &read.diagnostics, v);
    let options = WriteOptions { encoding: to_enc, source_charset: read.charset, ..written };
    let out_name = output.as_ref().map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string());
    let written = match to.write(&read.collection, &options) {
        Ok(w) => w,
        Err(kifu::WriteError::Invalid(diags)) if !diags.is_empty() => {
            print_diagnostics(&out_name, &diags, v);
            return cannot_hold(to);
        }
        Err(e) => {
            eprintln!("kifu: {name}: {e}");
            return ExitCode::CannotHold;
        }
    };
    print_diagnostics(&out_name, &written.diagnostics, v);
    let result = match &output {
        Some(p) => {
            remove_stale_beside(p, v);
            write_file(p, &written.bytes, args.force).map(|w| note_written(&out_name, w, v))
        }
        None => print_stdout(&written.bytes),
    };
    if let Err(code) = result {
        return code;
    }
    finished(args.loud.strict, mismatch.iter().chain(&read.diagnostics).chain(&written.diagnostics))
}
