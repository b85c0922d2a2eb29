//! `kifu convert`: one input (file or stdin) to one output (file or stdout); several inputs or
//! folders go to `batch.rs`.

use crate::ExitCode;
use crate::output::{
    Loudness, cannot_hold, finished, note_written, print_diagnostics, print_stdout, refuse_input_as_output,
    remove_stale_beside, write_file,
};
use crate::stream;
use clap::Args;
use kifu::reader::Decision;
use kifu::{Format, ReadOptions, Reader, WriteOptions};
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
    /// Refuse a game (an SGF game tree, an NDJSON line) larger than this many bytes (default
    /// 134217728, 128 MiB; reading takes several times a game's size).
    #[arg(long, value_name = "BYTES")]
    max_record: Option<usize>,
    /// Remove from the games: comments, variations, markup, analysis (AI engines' data),
    /// private (kifu's own X… properties), timing (BL, WL, OB, OW); comma-separated, repeatable.
    #[arg(long, value_name = "KINDS", value_delimiter = ',')]
    strip: Vec<kifu::strip::Kind>,
    /// Keep the main line only (= --strip variations).
    #[arg(long)]
    main_line: bool,
    #[command(flatten)]
    select: crate::select_args::SelectArgs,
    #[command(flatten)]
    loud: Loudness,
    #[command(flatten)]
    batch: Box<crate::batch_cmd::BatchArgs>,
}

impl ConvertArgs {
    /// What `--strip` and `--main-line` remove.
    fn strip(&self) -> kifu::strip::Strip {
        let set = self.strip.iter().fold(kifu::strip::Strip::new(), |s, &k| s.with(k));
        if self.main_line { set.with(kifu::strip::Kind::Variations) } else { set }
    }
}

/// Whether the input may be large enough to stream: standard input (its size is known only
/// once read), or a regular file larger than `whole_up_to` ([`kifu::Limits::whole_up_to`]).
fn big(input: Option<&std::path::Path>, whole_up_to: usize) -> bool {
    match input.filter(|p| !crate::input::is_stdin(p)) {
        None => true,
        Some(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() > whole_up_to as u64),
    }
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("kifu: {msg}");
    ExitCode::Usage
}

/// The input itself, or the one game record of an archive (a `.gz` of one file). An archive file
/// of several members is a batch run (`Err(None)`: its games go to standard output, or where
/// `-O`, `--merge` say); one read from standard input is a usage error.
fn single_member(
    input: crate::input::Input,
    from: Option<Format>,
    limits: &kifu::Limits,
    v: crate::output::Verbosity,
) -> Result<crate::input::Input, Option<ExitCode>> {
    let file = input.path.is_some();
    use crate::input::Part;
    let archive = input.name.clone();
    let (mut parts, _) = crate::input::parts(input, from, limits);
    if let [Part::Input(_)] = parts.as_slice() {
        if let Some(Part::Input(i)) = parts.pop() {
            return Ok(i);
        }
    }
    let records = parts.iter().filter(|p| matches!(p, Part::Input(_))).count();
    if file && records > 1 {
        return Err(None);
    }
    let mut refused = false;
    for part in &parts {
        if let Part::Refused { name, diagnostic } = part {
            print_diagnostics(name, std::slice::from_ref(diagnostic), v);
            refused |= diagnostic.severity == kifu::Severity::Error;
        }
    }
    if records == 0 {
        eprintln!("kifu: {archive}: the archive holds no game record to convert");
        return Err(Some(if refused { ExitCode::DataErr } else { ExitCode::NoInput }));
    }
    eprintln!(
        "kifu: {archive}: an archive of {records} game records on standard input; give it as a file to convert its members"
    );
    Err(Some(ExitCode::Usage))
}

/// Runs the conversion.
pub fn run(args: ConvertArgs) -> ExitCode {
    let v = args.loud.verbosity();
    use crate::args::{charset, format, optional};
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
    // What every path reads and writes with (the charset and the source's charset are set where
    // known).
    let mut read_options = ReadOptions::default().with_encoding(from_enc).with_no_repair(args.no_repair);
    if let Some(max) = args.max_record {
        read_options = read_options.clone().with_limits(read_options.limits.with_max_record(max));
    }
    // The output format as -t, the --merge file's extension or the -o extension names it (SGF
    // otherwise).
    let merged = args.batch.merge_file().filter(|p| !crate::batch::is_stdout(p)).and_then(Format::from_path);
    let to = to.or(merged);
    let to_guess = to.or_else(|| args.output.as_deref().and_then(Format::from_path)).unwrap_or(Format::SGF);
    // A table counts each game's diagnostics, placed by the offsets of the games' roots.
    let read_options = read_options.with_positions(to_guess.writes_table());
    let written = WriteOptions::default().with_expand_point_lists(args.expand_lists).with_lossy(args.lossy);

    if let Err(code) = crate::batch::walk::refuse_folders(&args.inputs, args.batch.walk.recursive, "convert") {
        return code;
    }
    let (filter, strip) = (args.select.filter(), args.strip());
    // A table holds the games of every input in one file: -o names it, as --merge would.
    let mut batch = args.batch;
    let mut output = args.output;
    if to_guess.writes_table() && batch.wanted(args.inputs.len()) && output.is_some() {
        batch.merge_into(output.take());
    }
    let to = if to_guess.writes_table() { Some(to_guess) } else { to };
    let single_output = output.is_some();
    let (force, strict, batch_write) = (args.force, args.loud.strict, written.clone());
    let batch_filter = filter.clone();
    let common = move |read: ReadOptions| crate::batch_cmd::Common {
        filter: batch_filter.clone(),
        strip,
        from,
        to,
        read,
        write: batch_write.clone().with_encoding(to_enc),
        force,
        strict,
        verbosity: v,
        single_output,
    };
    if batch.wanted(args.inputs.len()) {
        return crate::batch_cmd::run(&args.inputs, &batch, common(read_options));
    }
    let jobs = batch.single_jobs(args.inputs.len());
    let input = args.inputs.into_iter().next();
    let output = output.filter(|p| !crate::input::is_stdin(p));
    // A large file, or standard input, goes through the streaming path when it proves large.
    let reader = Reader::new().with_format_opt(from).with_options(read_options);
    let whole_up_to = reader.options().limits.whole_up_to;
    // An archive is read whole and opened (formats/archives.md), never streamed as a record.
    let archive = input.as_deref().filter(|p| !crate::input::is_stdin(p)).and_then(crate::members::container);
    // Filters and stripping work on whole collections: such an input is read whole.
    let streams = (to_guess.writes_in_parts() || to_guess.writes_table()) && filter.is_empty() && strip.is_empty();
    let read_in = if archive.is_none() && streams && big(input.as_deref(), whole_up_to) {
        match stream::open(input.as_deref(), &reader) {
            Ok(stream::Opened::Whole(i)) => Ok(i),
            Ok(stream::Opened::Parts(s)) => {
                let write = written.with_encoding(to_enc);
                let read = reader.options().clone();
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
        crate::input::read(input.as_deref())
    };
    let read_in = match read_in {
        Ok(i) => i,
        Err(e) => {
            let shown = input.as_ref().map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
            eprintln!("kifu: {shown}: {}", e.message);
            return e.code;
        }
    };
    let read_in = match single_member(read_in, from, &reader.options().limits, v) {
        Ok(i) => i,
        // An archive of several records: its members are several inputs.
        Err(None) => {
            let inputs: Vec<PathBuf> = input.into_iter().collect();
            let mut common = common(reader.options().clone());
            // A table of their games: -o names it, as for several inputs.
            if to_guess.writes_table() && output.is_some() {
                batch.merge_into(output);
                common.single_output = false;
            }
            return crate::batch_cmd::run(&inputs, &batch, common);
        }
        Err(Some(code)) => return code,
    };
    let (name, bytes) = (read_in.name, read_in.bytes);
    let input = read_in.path;
    let Ok(Decision { format: from, mismatch, .. }) = reader.decide(input.as_deref(), &bytes) else {
        eprintln!("kifu: {name}: {}", crate::input::no_format(&bytes));
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

    let mut read = match reader.read_as(from, bytes) {
        Ok(r) => r,
        Err(e) => {
            print_diagnostics(&name, &e.diagnostics, v);
            return ExitCode::DataErr;
        }
    };
    if let Some(decision) = read.charset {
        print_diagnostics(&name, &[decision.note()], v);
    }
    print_diagnostics(&name, &read.diagnostics, v);
    // The games the filters keep are chosen, not taken out: a table keeps each game's number in
    // its file, and each its own diagnostics.
    let mut chosen = vec![true; read.collection.games.len()];
    let left_out = filter.choose(&read.collection.games, Some(from), &mut chosen);
    if left_out > 0 && left_out == chosen.len() {
        if !v.quiet {
            eprintln!("kifu: {name}: no game matches the filters ({left_out} left out); nothing written");
        }
        return finished(args.loud.strict, mismatch.iter().chain(&read.diagnostics));
    }
    let removed = strip.apply_chosen(&mut read.collection.games, &chosen);
    let options = written.with_encoding(to_enc).with_source_charset(read.charset);
    let out_name = output.as_ref().map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string());
    // A table records where each game came from, its format and its diagnostics.
    let written = if to.writes_table() {
        let mut source = kifu::formats::parquet::Source::new(from);
        source.file = input.as_ref().map(|p| p.display().to_string());
        let mut table = kifu::formats::parquet::TableBuilder::with_capacity(chosen.len() - left_out);
        table
            .append_chosen(&source, &read, &chosen)
            .and_then(|()| table.finish())
            .map_err(kifu::formats::parquet::write_failed)
            .and_then(|b| kifu::formats::parquet::write_batches(&[b]))
            .map(|bytes| kifu::WriteOutput::new(bytes, Vec::new()))
    } else {
        let mut keep = chosen.iter();
        read.collection.games.retain(|_| keep.next().copied().unwrap_or(true));
        to.write(&read.collection, &options)
    };
    let written = match written {
        Ok(w) => w,
        Err(kifu::WriteError::Invalid(diags)) if !diags.is_empty() => {
            print_diagnostics(&out_name, &diags, v);
            return cannot_hold(to, &diags);
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
    let mut tally = crate::output::Tally::default();
    tally.add(&read.diagnostics);
    tally.print(v);
    if !v.quiet {
        if let Some(line) = crate::select_args::left_out_line(left_out) {
            eprintln!("{line}");
        }
        let kinds: Vec<String> = removed.iter().map(|(k, n)| format!("{k} {n}")).collect();
        if !kinds.is_empty() {
            eprintln!("kifu: stripped: {}", kinds.join(", "));
        }
    }
    finished(args.loud.strict, mismatch.iter().chain(&read.diagnostics).chain(&written.diagnostics))
}
