//! Running a plan: read, convert and write every input on a rayon pool.

use super::plan::{Job, Plan, file_key, folded, numbered, stays_under};
use super::report::{Record, Report, Stage, Status};
use super::{BatchError, BatchOptions, Collect, codes};
use kifu::diag::Diagnostic;
use kifu::formats::Format;
use kifu::model::Collection;
use kifu::output::{
    Existing, OutputError, OutputPolicy, Written, parent_folder, remove_stale_temp_files, write_output,
    write_output_with,
};
use kifu::reader::Decision;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// A path as the report shows it (as `Path::display` does, without formatting machinery for
/// the usual UTF-8 path).
pub(super) fn path_text(p: &Path) -> String {
    p.to_str().map_or_else(|| p.display().to_string(), str::to_owned)
}

/// `name.sgf` → `name-007.sgf` (at least three digits, more when `count` needs them), the name
/// kept as the operating system's bytes.
fn split_name(base: &Path, index: usize, count: usize) -> PathBuf {
    let width = count.to_string().len().max(3);
    let (stem, ext) = match (base.file_stem(), base.extension()) {
        (Some(stem), ext) => (stem.to_os_string(), ext),
        (None, _) => (std::ffi::OsString::from("unnamed"), None),
    };
    let mut name = stem;
    name.push(format!("-{:0width$}", index + 1));
    if let Some(e) = ext {
        name.push(".");
        name.push(e);
    }
    base.with_file_name(name)
}

/// The first folder between `dir` and the file `path` (below `dir`) that is a symbolic link.
/// Folders found to be real are remembered per thread (a run writes thousands of files into the
/// same few folders).
fn linked_folder(path: &Path, dir: &Path) -> Option<PathBuf> {
    thread_local! {
        static REAL: std::cell::RefCell<std::collections::HashSet<PathBuf>> = Default::default();
    }
    let rest = path.parent()?.strip_prefix(dir).ok()?;
    let mut folder = dir.to_path_buf();
    for part in rest.components() {
        folder.push(part);
        if REAL.with_borrow(|r| r.contains(&folder)) {
            continue;
        }
        match std::fs::symlink_metadata(&folder) {
            Ok(m) if m.file_type().is_symlink() => return Some(folder),
            Ok(_) => {
                REAL.with_borrow_mut(|r| {
                    if r.len() > 4096 {
                        r.clear();
                    }
                    r.insert(folder.clone());
                });
            }
            Err(_) => return None, // not there yet: created as a real folder
        }
    }
    None
}

/// Reads a regular file. It is opened without blocking and its type checked on the open handle,
/// so a file replaced by a FIFO (or a device) after the walk fails at once instead of hanging
/// the run (`InvalidInput`).
fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    open_regular(path).and_then(read_opened)
}

/// Reads an opened file of `len` bytes (as its `stat` said at the open) to its end, into a buffer
/// one byte longer, so that the end is found by one more `read` (no second `stat` and `lseek`
/// as `read_to_end` makes); a file that grew meanwhile is read whole.
fn read_opened((mut file, len): (std::fs::File, u64)) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0; usize::try_from(len).unwrap_or(0).saturating_add(1)];
    let mut n = 0;
    loop {
        if n == bytes.len() {
            bytes.resize(n * 2, 0);
        }
        match file.read(&mut bytes[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(n);
    Ok(bytes)
}

/// Opens `path` without waiting for a writer and checks on the open handle that it is a
/// regular file (not one replaced by a FIFO, device or socket since the walk); its length.
fn open_regular(path: &Path) -> io::Result<(std::fs::File, u64)> {
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let file = open.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file (a FIFO, device or socket)"));
    }
    Ok((file, meta.len()))
}

/// The bytes of an archive's member, read with its archive (each job is converted once).
fn take_member(job: &Job) -> Option<io::Result<Vec<u8>>> {
    job.member.as_ref().map(super::plan::Member::take)
}

/// The bytes of a job's input: its archive member's, or its file's.
pub(super) fn read_source(job: &Job) -> io::Result<Vec<u8>> {
    take_member(job).unwrap_or_else(|| read_regular(&job.input))
}

/// Reads one input (`bytes`, as read from `job.input`); fills `record` (format, charset, games,
/// read diagnostics). Returns the games and the charset decision (which the JSON writer records).
pub(super) fn read_input(
    job: &Job,
    bytes: io::Result<Vec<u8>>,
    options: &BatchOptions,
    record: &mut Record,
) -> Option<(Collection, Option<kifu::charset::CharsetDecision>)> {
    read_whole(job, bytes, options, record).map(|(read, _)| (read.collection, read.charset))
}

/// [`read_input`], giving what the read gave (diagnostics included) and the format read.
fn read_whole(
    job: &Job,
    bytes: io::Result<Vec<u8>>,
    options: &BatchOptions,
    record: &mut Record,
) -> Option<(kifu::ReadOutput, Format)> {
    let (Decision { format, mismatch, .. }, read) =
        match super::read_input(&job.input, &job.input.display().to_string(), bytes, options) {
            Ok(decided) => decided,
            Err(d) => {
                record.add(Stage::Batch, &[d]);
                record.status = Status::Failed;
                return None;
            }
        };
    record.add(Stage::Batch, mismatch.as_slice());
    record.from = Some(format.name());
    match read {
        Ok(read) => {
            record.charset = read.charset.map(Into::into);
            record.games = read.collection.games.len();
            record.add(Stage::Read, &read.diagnostics);
            Some((read, format))
        }
        Err(e) => {
            record.add(Stage::Read, &e.diagnostics);
            record.status = Status::Failed;
            None
        }
    }
}

/// Takes out of `collection` the games `--dedup` leaves out, noting each in `record`; returns
/// whether none is left (the input is then `skipped`).
pub(super) fn drop_duplicates(job: &Job, collection: &mut Collection, record: &mut Record) -> bool {
    if job.duplicates.is_empty() {
        return false;
    }
    let mut i = 0;
    collection.games.retain(|_| {
        let keep = !job.duplicates.iter().any(|(g, _)| *g == i);
        i += 1;
        keep
    });
    let notes: Vec<Diagnostic> = job.duplicates.iter().map(|(_, d)| d.clone()).collect();
    record.add(Stage::Batch, &notes);
    if collection.games.is_empty() {
        record.status = Status::Skipped;
        return true;
    }
    false
}

/// The games of `collection` that the filters keep, stripped as asked; counted in `record`.
/// `None` (the record skipped, with [`codes::FILTERED_OUT`]) when the filters leave none.
pub(super) fn pick(mut collection: Collection, options: &BatchOptions, record: &mut Record) -> Option<Collection> {
    let format = record.from.and_then(Format::from_name);
    let left_out = options.filter.retain(&mut collection, format);
    record.filtered += left_out;
    if left_out > 0 && collection.games.is_empty() {
        return filtered_out(record, left_out);
    }
    let removed = options.strip.apply_all(&mut collection);
    record.add_stripped(&removed);
    Some(collection)
}

/// Skips an input whose games the filters all left out (`left_out` of them), saying so.
fn filtered_out<T>(record: &mut Record, left_out: usize) -> Option<T> {
    let msg = format!("no game matches the filters ({left_out} left out); nothing written for it");
    record.add(Stage::Batch, &[Diagnostic::info(codes::FILTERED_OUT, msg)]);
    record.status = Status::Skipped;
    None
}

/// The diagnostics of a failed write: the writer's own, or one saying why it could not write.
pub(super) fn write_error(e: kifu::formats::WriteError) -> Vec<Diagnostic> {
    match e {
        kifu::formats::WriteError::Invalid(d) => d,
        other => vec![Diagnostic::error(codes::CANNOT_WRITE, other.to_string())],
    }
}

/// Writes one output through [`write_output`]; a failure is recorded and `Err` returned.
fn put(path: &Path, bytes: &[u8], options: &BatchOptions, record: &mut Record) -> Result<Written, ()> {
    write_output(path, bytes, &policy(options)).map_err(|e| record.add(Stage::Batch, &[output_error(&e)]))
}

/// How a batch run writes its outputs (folders under `-O` created as needed).
pub(super) fn policy(options: &BatchOptions) -> OutputPolicy {
    // Files are not synced one by one: the run flushes its outputs once at its end
    // (`sync_outputs`).
    OutputPolicy::default()
        .with_existing(options.existing)
        .with_dry_run(options.dry_run)
        .with_create_dirs(true)
        .with_sync(false)
}

/// The diagnostic of an output that could not be written.
pub(super) fn output_error(e: &OutputError) -> Diagnostic {
    if e.exists() {
        Diagnostic::error(codes::OUTPUT_EXISTS, format!("{e} (or --skip-existing to keep it)"))
    } else {
        Diagnostic::error(codes::CANNOT_WRITE, e.to_string())
    }
}

/// Whether an input of `len` bytes is one to convert piece by piece ([`stream_input`]).
fn is_big(len: u64, options: &BatchOptions) -> bool {
    len > options.read.limits.whole_up_to as u64
}

/// Converts `file`, the input opened by the caller and larger than
/// [`kifu::Limits::whole_up_to`], piece by piece into one output (see [`kifu::stream`]);
/// returns `false` (with `record` untouched) when the input is not one to stream (a format that
/// is not cut, an output format written whole).
fn stream_input(
    job: &Job,
    mut file: std::fs::File,
    output: &Path,
    options: &BatchOptions,
    record: &mut Record,
) -> bool {
    use kifu::stream::{self, StreamError, StreamOptions};
    // Filters and stripping work on whole collections: such an input is read whole.
    if !options.to.writes_in_parts() || !options.filter.is_empty() || !options.strip.is_empty() {
        return false;
    }
    let mut head = Vec::new();
    if (&mut file).take(64 << 10).read_to_end(&mut head).is_err() {
        return false;
    }
    let Ok(Decision { format, mismatch, .. }) = options.reader().decide(Some(&job.input), &head) else {
        return false;
    };
    let Ok(stream::Input::Parts(parts)) = stream::open_within(format, head, file, &options.read.limits) else {
        return false;
    };
    record.add(Stage::Batch, mismatch.as_slice());
    record.from = Some(format.name());
    let opts = StreamOptions::new(options.to).with_read(options.read.clone()).with_write(options.write.clone());
    let mut parts = Some(parts);
    let mut outcome = None;
    let mut fill = |w: &mut (dyn io::Write + Send)| {
        let Some(parts) = parts.take() else { return Err(io::Error::other("already converted")) };
        let (summary, result) = stream::convert(parts, &opts, w);
        let failed = result.as_ref().err().map(|e| io::Error::other(e.to_string()));
        outcome = Some((summary, result));
        failed.map_or(Ok(()), Err)
    };
    let written = write_output_with(output, &policy(options), &mut fill);
    if let Some((summary, result)) = outcome {
        record.charset = summary.charset.map(Into::into);
        record.games = summary.games;
        record.add(Stage::Read, &summary.read);
        record.add(Stage::Write, &summary.write);
        if let Err(e) = result {
            if let StreamError::Input(_) | StreamError::Unsupported(_) = e {
                record.add(Stage::Batch, &[Diagnostic::error(codes::CANNOT_READ, e.to_string())]);
            }
            record.status = Status::Failed;
            return true;
        }
    }
    match written {
        Ok(Written::Kept) => {
            let d = Diagnostic::info(codes::SKIPPED_EXISTING, "every output exists; skipped");
            record.add(Stage::Batch, &[d]);
            record.status = Status::Skipped;
            return true;
        }
        Ok(w) => {
            record.unchanged += usize::from(w == Written::Unchanged);
            record.outputs.push(path_text(output));
        }
        Err(e) => {
            record.add(Stage::Batch, &[output_error(&e)]);
            record.status = Status::Failed;
            return true;
        }
    }
    record.settle();
    true
}

/// Converts one input to its output(s).
fn convert_one(job: &Job, options: &BatchOptions, plan: &Plan) -> Record {
    let planned = &plan.planned;
    let shown = |p: &PathBuf| path_text(p);
    let mut record = Record::new(shown(&job.input), job.output.as_ref().map(shown), options.output_name());
    record.from = job.format.map(Format::name);
    record.add(Stage::Batch, &job.notes);
    if let Some(d) = &job.skip {
        record.add(Stage::Batch, std::slice::from_ref(d));
        record.status = Status::Skipped;
        return record;
    }
    if let Some(d) = &job.fail {
        return record.fail(d.clone());
    }
    let Some(output) = &job.output else { return record };
    let split = options.collect == Collect::Split;
    // --skip-existing resumes a run: an existing output is kept without reading its input.
    if !split && options.existing == Existing::Skip && exists(output) {
        let d = Diagnostic::info(codes::SKIPPED_EXISTING, format!("{} exists; skipped", output.display()));
        record.add(Stage::Batch, &[d]);
        record.status = Status::Skipped;
        return record;
    }
    // Opened once: its length tells whether it is converted piece by piece, and a small input
    // (nearly all) is read from this open. An archive's member was read with the archive.
    let bytes = match take_member(job) {
        Some(bytes) => bytes,
        None => match open_regular(&job.input) {
            Ok((file, len)) if is_big(len, options) => {
                if !split && job.duplicates.is_empty() && stream_input(job, file, output, options, &mut record) {
                    return record;
                }
                // Not streamed (its head may have been read): read whole from the start.
                read_regular(&job.input)
            }
            opened => opened.and_then(read_opened),
        },
    };
    let Some((mut collection, charset)) = read_input(job, bytes, options, &mut record) else { return record };
    if drop_duplicates(job, &mut collection, &mut record) {
        return record;
    }
    let Some(collection) = pick(collection, options, &mut record) else { return record };
    let write_options = options.write.clone().with_source_charset(charset);
    let parts: Vec<(PathBuf, Collection)> =
        if split && !job.part_names.is_empty() && job.part_names.len() == collection.games.len() {
            // Named by --name when planned: one name per kept game, collisions already resolved.
            job.part_names.iter().cloned().zip(collection.games.into_iter().map(|g| Collection::new(vec![g]))).collect()
        } else if split && collection.games.len() > 1 {
            let n = collection.games.len();
            collection
                .games
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let mut name = split_name(output, i, n);
                    // Another input's planned output: `name-001-2.sgf`, `-3` … (deterministic).
                    if planned.contains(&folded(&name)) {
                        let taken = name.clone();
                        name = (2..)
                            .map(|k| numbered(&taken, k))
                            .find(|p| !planned.contains(&folded(p)))
                            .unwrap_or_else(|| taken.clone());
                        let msg = format!(
                            "{} is the output of another input; writing {} instead",
                            taken.display(),
                            name.display()
                        );
                        record.add(Stage::Batch, &[Diagnostic::warning(codes::NAME_COLLISION, msg)]);
                    }
                    (name, Collection::new(vec![g]))
                })
                .collect()
        } else {
            vec![(output.clone(), collection)]
        };
    // A numbered name may be an input file (in place, next to `a.sgf` an older `a-001.sgf`); the
    // planned output was checked when planning.
    let numbered = |p: &PathBuf| p != output && file_key(p).is_some_and(|k| plan.input_keys().contains(&k));
    if let Some((path, _)) = parts.iter().find(|(p, _)| numbered(p)) {
        let msg = format!("the output {} is an input file; refusing to overwrite it", path.display());
        return record.fail(Diagnostic::error(codes::OUTPUT_IS_INPUT, msg));
    }
    // Every final path, split parts included, is proven to stay where the run writes: under
    // -O, or beside its input in place.
    let home = options.out_dir.clone().or_else(|| job.input.parent().map(Path::to_path_buf));
    if let Some((path, _)) = parts.iter().find(|(p, _)| home.as_deref().is_some_and(|h| !stays_under(p, h))) {
        let msg = format!("the output {} would leave {}; refused", path.display(), home.unwrap_or_default().display());
        return record.fail(Diagnostic::error(codes::OUTPUT_OUTSIDE, msg));
    }
    // A folder below -O that is a symbolic link would lead the outputs elsewhere: refused, as a
    // linked output file is, unless --force.
    if let (Some(dir), false) = (&options.out_dir, options.existing == Existing::Force) {
        if let Some(link) = parts.iter().find_map(|(p, _)| linked_folder(p, dir)) {
            let msg = format!(
                "{} is a symbolic link to a folder; refusing to write through it (--force does)",
                link.display()
            );
            return record.fail(Diagnostic::error(codes::OUTPUT_LINK, msg));
        }
    }
    let mut skipped = 0;
    for (path, part) in &parts {
        let written = match options.write(part, &write_options) {
            Ok(w) => w,
            Err(e) => {
                record.add(Stage::Write, &write_error(e));
                record.status = Status::Failed;
                return record;
            }
        };
        record.add(Stage::Write, &written.diagnostics);
        match put(path, &written.bytes, options, &mut record) {
            Ok(Written::Kept) => skipped += 1,
            Ok(w) => {
                record.unchanged += usize::from(w == Written::Unchanged);
                record.outputs.push(shown(path));
            }
            Err(()) => {
                record.status = Status::Failed;
                return record;
            }
        }
    }
    if skipped == parts.len() {
        let d = Diagnostic::info(codes::SKIPPED_EXISTING, "every output exists; skipped");
        record.add(Stage::Batch, &[d]);
        record.status = Status::Skipped;
    }
    record.settle();
    record
}

/// An input's games for a table: the read, where it came from, and which of its games go in
/// (each keeps its number in the file and its own diagnostics' counts).
pub(super) struct TableInput {
    pub(super) source: kifu::formats::parquet::Source,
    pub(super) read: kifu::ReadOutput,
    pub(super) chosen: Vec<bool>,
}

impl TableInput {
    /// How many games go in.
    pub(super) fn rows(&self) -> usize {
        self.chosen.iter().filter(|&&c| c).count()
    }

    /// Appends the chosen games to `table`.
    pub(super) fn append_to(&self, table: &mut kifu::formats::parquet::TableBuilder) -> Result<(), String> {
        table.append_chosen(&self.source, &self.read, &self.chosen).map_err(|e| e.to_string())
    }
}

/// An input read for a table, its games chosen as [`drop_duplicates`] and [`pick`] choose them
/// for a text output (and stripped as asked); `None` when it failed, or none is left (skipped).
pub(super) fn table_rows(job: &Job, options: &BatchOptions, record: &mut Record) -> Option<TableInput> {
    let member = take_member(job);
    let is_member = member.is_some();
    let bytes = member.unwrap_or_else(|| read_regular(&job.input));
    let (mut read, format) = read_whole(job, bytes, options, record)?;
    let games = &mut read.collection.games;
    let mut chosen = vec![true; games.len()];
    if !job.duplicates.is_empty() {
        job.duplicates.iter().for_each(|&(g, _)| chosen.get_mut(g).into_iter().for_each(|c| *c = false));
        let notes: Vec<Diagnostic> = job.duplicates.iter().map(|(_, d)| d.clone()).collect();
        record.add(Stage::Batch, &notes);
        if !chosen.contains(&true) {
            record.status = Status::Skipped;
            return None;
        }
    }
    let left_out = options.filter.choose(games, Some(format), &mut chosen);
    record.filtered += left_out;
    if left_out > 0 && !chosen.contains(&true) {
        return filtered_out(record, left_out);
    }
    record.add_stripped(&options.strip.apply_chosen(games, &chosen));
    let shown = path_text(&job.input);
    let mut source = kifu::formats::parquet::Source::new(format);
    match shown.split_once("!/").filter(|_| is_member) {
        Some((archive, inner)) => {
            source.file = Some(archive.to_string());
            source.member = Some(inner.to_string());
        }
        None => source.file = Some(shown),
    }
    Some(TableInput { source, read, chosen })
}

/// A merged run of a plan into one output ([`super::merge::merge`], given by the caller: the
/// merge reads its inputs with this module's steps).
pub(super) type Merge = fn(&Plan, &Path, &BatchOptions, &(dyn Fn(&Record) + Sync)) -> Report;

/// Converts every input of `plan`, calling `progress` as each one finishes (from worker
/// threads, in completion order). The report's records follow the plan's (input-path) order.
pub(super) fn execute(
    plan: Plan,
    options: &BatchOptions,
    progress: &(dyn Fn(&Record) + Sync),
    merge: Merge,
) -> Result<Report, BatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .thread_name(|i| format!("kifu-batch-{i}"))
        .build()
        .map_err(|e| BatchError::Threads(e.to_string()))?;
    let merge_path = match &options.collect {
        Collect::Merge(p) => Some(p.clone()),
        _ => None,
    };
    let removed = if options.dry_run {
        0
    } else {
        let dirs: BTreeSet<&Path> = plan
            .jobs
            .iter()
            .filter_map(|j| j.output.as_deref())
            .filter(|o| !super::is_stdout(o))
            .map(parent_folder)
            .collect();
        remove_stale_temp_files(&dirs)
    };
    let mut report = pool.install(|| match &merge_path {
        None => {
            let records: Vec<Record> = plan
                .jobs
                .par_iter()
                .map(|job| {
                    let r = convert_one(job, options, &plan);
                    // A member that was not read gives up its place in its archive's bytes.
                    job.member.iter().for_each(super::plan::Member::settle);
                    progress(&r);
                    r
                })
                .collect();
            Report::new(records, None, plan.ignored, options.dry_run)
        }
        Some(path) => merge(&plan, path, options, progress),
    });
    report.removed_temp_files = removed;
    if options.sync && !options.dry_run {
        sync_outputs(&report);
    }
    Ok(report)
}

/// Flushes a run's outputs to the disk: the data of every file system they are on (one
/// `syncfs` each, on Linux; `sync` elsewhere on Unix), then each folder holding one, so that
/// their names are durable too. Best effort: a failure here cannot undo what was written.
fn sync_outputs(report: &Report) {
    let folders: BTreeSet<&Path> = report
        .records
        .iter()
        .flat_map(|r| r.outputs.iter())
        .chain(report.merge.iter().map(|m| &m.output))
        .filter(|o| !super::is_stdout(Path::new(o.as_str())))
        .map(|o| parent_folder(Path::new(o.as_str())))
        .collect();
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mut devices = BTreeSet::new();
        for folder in &folders {
            let Ok(dir) = std::fs::File::open(folder) else { continue };
            let Ok(meta) = dir.metadata() else { continue };
            if devices.insert(meta.dev()) {
                #[cfg(target_os = "linux")]
                // SAFETY: `dir` is an open file descriptor for the duration of the call.
                unsafe {
                    libc::syncfs(std::os::unix::io::AsRawFd::as_raw_fd(&dir));
                }
                #[cfg(not(target_os = "linux"))]
                // SAFETY: `sync` takes no arguments and cannot fail.
                unsafe {
                    libc::sync();
                }
            }
            let _ = dir.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = folders;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::execute;

    /// A file the walk saw as regular and that became a FIFO before it was opened (issue 13,
    /// "Hangs"): the open does not wait for a writer and the read fails at once.
    #[cfg(unix)]
    #[test]
    fn an_input_replaced_by_a_fifo_fails_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        std::fs::write(&path, "(;GM[1])").unwrap();
        assert!(read_regular(&path).is_ok());
        std::fs::remove_file(&path).unwrap();
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let start = std::time::Instant::now();
        let err = read_regular(&path).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    /// A numbered name that is an input under another name (a hard link), in a run where no
    /// planned output exists: the inputs' identities are taken then, and the input is kept.
    #[cfg(unix)]
    #[test]
    fn a_numbered_name_that_is_an_input_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (input, out) = (dir.path().join("in"), dir.path().join("out"));
        std::fs::create_dir_all(&out).unwrap();
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("a.sgf"), "(;GM[1]PB[A];B[aa])(;GM[1]PB[B];B[bb])").unwrap();
        std::fs::write(input.join("x.sgf"), "(;GM[1]PB[X];B[cc])").unwrap();
        std::fs::hard_link(input.join("x.sgf"), out.join("a-001.sgf")).unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(out.clone());
        opts.collect = Collect::Split;
        opts.jobs = 1;
        let report = execute(super::super::plan(std::slice::from_ref(&input), &opts).unwrap(), &opts, &|_| {}).unwrap();
        let a = report.records.iter().find(|r| r.input.ends_with("a.sgf")).unwrap();
        assert_eq!(a.status, Status::Failed);
        assert!(a.diagnostics.iter().any(|d| d.code == codes::OUTPUT_IS_INPUT), "{:?}", a.diagnostics);
        assert_eq!(std::fs::read_to_string(input.join("x.sgf")).unwrap(), "(;GM[1]PB[X];B[cc])");
    }

    #[test]
    fn split_names_are_numbered_and_padded() {
        assert_eq!(split_name(Path::new("o/a.sgf"), 0, 3), Path::new("o/a-001.sgf"));
        assert_eq!(split_name(Path::new("o/a.sgf"), 1233, 1500), Path::new("o/a-1234.sgf"));
        assert_eq!(split_name(Path::new("o/..sgf"), 0, 2), Path::new("o/.-001.sgf"));
    }

    /// Names that are not UTF-8 keep their bytes: two inputs differing in one such byte get two
    /// outputs (a lossy conversion made both `a\u{FFFD}-001.sgf`, and one input's games were lost).
    #[cfg(unix)]
    #[test]
    fn split_names_keep_the_bytes_of_legacy_names() {
        use std::os::unix::ffi::OsStrExt;
        let a = Path::new("o").join(std::ffi::OsStr::from_bytes(b"a\xff.sgf"));
        let b = Path::new("o").join(std::ffi::OsStr::from_bytes(b"a\xfe.sgf"));
        assert_ne!(split_name(&a, 0, 2), split_name(&b, 0, 2));
        assert_eq!(split_name(&a, 0, 2).file_name().unwrap().as_bytes(), b"a\xff-001.sgf");
    }

    /// Inputs whose names differ only in case, or only in a byte that is not UTF-8, each keep
    /// their games, split or not (`--force` included): no output is shared.
    #[cfg(unix)]
    #[test]
    fn names_that_differ_in_case_or_in_legacy_bytes_keep_every_game() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let (input, out) = (dir.path().join("in"), dir.path().join("out"));
        std::fs::create_dir(&input).unwrap();
        let names: [&[u8]; 4] = [b"Game.sgf", b"game.sgf", b"a\xff.sgf", b"a\xfe.sgf"];
        for (i, name) in names.iter().enumerate() {
            let games = format!("(;GM[1]PB[p{i}];B[aa])(;GM[1]PB[q{i}];B[bb])");
            std::fs::write(input.join(std::ffi::OsStr::from_bytes(name)), games).unwrap();
        }
        for collect in [Collect::PerFile, Collect::Split] {
            let mut opts = BatchOptions::new(Format::SGF);
            opts.recursive = true;
            opts.out_dir = Some(out.join(format!("{collect:?}")));
            opts.collect = collect.clone();
            opts.existing = Existing::Force;
            opts.jobs = 2;
            let report =
                execute(super::super::plan(std::slice::from_ref(&input), &opts).unwrap(), &opts, &|_| {}).unwrap();
            assert!(report.records.iter().all(|r| r.status != Status::Failed), "{:?}", report.records);
            // (The report shows names as text; the files keep their bytes.)
            let outputs: usize = report.records.iter().map(|r| r.outputs.len()).sum();
            let files: Vec<std::ffi::OsString> =
                std::fs::read_dir(opts.out_dir.as_ref().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
            let unique: std::collections::HashSet<Vec<u8>> =
                files.iter().map(|f| f.as_bytes().to_ascii_lowercase()).collect();
            let want = if collect == Collect::Split { 8 } else { 4 };
            assert_eq!((outputs, files.len(), unique.len()), (want, want, want), "{collect:?}: {files:?}");
            let mut players = Vec::new();
            for entry in std::fs::read_dir(opts.out_dir.as_ref().unwrap()).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                players.extend(text.match_indices("PB[").map(|(at, _)| text[at + 3..at + 5].to_string()));
            }
            players.sort();
            assert_eq!(players, ["p0", "p1", "p2", "p3", "q0", "q1", "q2", "q3"], "{collect:?}");
        }
    }

    /// A folder below -O that is a link to another folder is not written through without
    /// --force.
    #[cfg(unix)]
    #[test]
    fn a_linked_folder_below_the_output_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (input, out, elsewhere) = (dir.path().join("in"), dir.path().join("out"), dir.path().join("elsewhere"));
        for d in [input.join("sub"), out.clone(), elsewhere.clone()] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(input.join("sub/a.sgf"), "(;GM[1];B[aa])").unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("sub")).unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(out.clone());
        opts.jobs = 1;
        let run = |opts: &BatchOptions| {
            execute(super::super::plan(std::slice::from_ref(&input), opts).unwrap(), opts, &|_| {}).unwrap()
        };
        let report = run(&opts);
        assert_eq!(report.records[0].status, Status::Failed);
        assert!(report.records[0].diagnostics.iter().any(|d| d.code == codes::OUTPUT_LINK), "{:?}", report.records);
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        opts.existing = Existing::Force;
        assert_eq!(run(&opts).records[0].status, Status::Ok);
        assert!(elsewhere.join("a.sgf").exists());
    }

    /// An input named `..sgf` (two games, `--split`): its outputs stay under -O.
    #[test]
    fn split_outputs_of_an_all_extension_name_stay_under_the_output_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (input, out) = (dir.path().join("in"), dir.path().join("out"));
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("..sgf"), "(;GM[1];B[aa])(;GM[1];B[bb])").unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(out.clone());
        opts.collect = Collect::Split;
        opts.jobs = 1;
        let report = execute(super::super::plan(std::slice::from_ref(&input), &opts).unwrap(), &opts, &|_| {}).unwrap();
        let outside: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(outside.len(), 2, "nothing written beside in/ and out/: {outside:?}");
        assert_eq!(report.records[0].status, Status::Ok, "{:?}", report.records[0].diagnostics);
        assert!(out.join(".-001.sgf").exists() && out.join(".-002.sgf").exists());
        assert!(stays_under(&out.join("a/b.sgf"), &out) && !stays_under(&out.join("../b.sgf"), &out));
        assert!(!stays_under(&out, &out) && !stays_under(Path::new("elsewhere/b.sgf"), &out));
    }

    #[test]
    fn runs_split_merge_and_dry_run() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("two.sgf"), "(;GM[1]PB[A];B[aa])(;GM[1]PB[B];B[bb])").unwrap();
        std::fs::write(input.join("bad.sgf"), "nothing here").unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(dir.path().join("out"));
        opts.collect = Collect::Split;
        opts.jobs = 2;
        opts.dry_run = true;
        let dry = execute(super::super::plan(std::slice::from_ref(&input), &opts).unwrap(), &opts, &|_| {}).unwrap();
        assert!(!dir.path().join("out").exists());
        opts.dry_run = false;
        let real = execute(super::super::plan(std::slice::from_ref(&input), &opts).unwrap(), &opts, &|_| {}).unwrap();
        assert_eq!(dry.records, real.records);
        assert_eq!(real.records[0].status, Status::Failed);
        assert_eq!(real.records[1].outputs.len(), 2);
        assert!(dir.path().join("out/two-002.sgf").exists());

        opts.collect = Collect::Merge(dir.path().join("all.sgf"));
        let merged = execute(super::super::plan(&[input], &opts).unwrap(), &opts, &|_| {}).unwrap();
        let m = merged.merge.unwrap();
        assert_eq!((m.inputs, m.games, m.status), (1, 2, Status::Ok));
        assert_eq!(merged.records[0].diagnostics.last().unwrap().code, codes::NOT_MERGED);
        let text = std::fs::read_to_string(dir.path().join("all.sgf")).unwrap();
        assert_eq!(text.matches("(;").count(), 2);
    }

    #[test]
    fn the_batch_engine_takes_any_producer() {
        struct Count;
        impl super::super::Produce for Count {
            fn name(&self) -> &'static str {
                "count"
            }
            fn extension(&self) -> &'static str {
                "n"
            }
            fn produce(
                &self,
                games: &kifu::Collection,
                _: &kifu::WriteOptions,
            ) -> Result<kifu::WriteOutput, kifu::WriteError> {
                Ok(kifu::WriteOutput::new(games.games.len().to_string().into_bytes(), Vec::new()))
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::create_dir(&input).unwrap();
        std::fs::write(input.join("two.sgf"), "(;GM[1]PB[A];B[aa])(;GM[1]PB[B];B[bb])").unwrap();
        let mut options = super::super::BatchOptions::new(Format::SGF);
        options.recursive = true;
        options.out_dir = Some(dir.path().join("out"));
        options.produce = Some(std::sync::Arc::new(Count));
        let plan = super::super::plan(std::slice::from_ref(&input), &options).unwrap();
        let report = execute(plan, &options, &|_| {}).unwrap();
        assert_eq!(report.records[0].to, "count");
        assert_eq!(std::fs::read_to_string(dir.path().join("out/two.n")).unwrap(), "2");
    }
}
