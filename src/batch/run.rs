//! Running a plan: read, convert and write every input on a rayon pool.

use super::plan::{Job, Plan};
use super::report::{MergeRecord, Record, Report, Stage, Status};
use super::{BatchError, BatchOptions, Collect, Existing, codes};
use crate::diag::Diagnostic;
use crate::formats::{Format, WriteOptions};
use crate::model::Collection;
use rayon::prelude::*;
use std::collections::{BTreeSet, HashSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file in the same folder (created as needed) and
/// a rename, so `path` never holds a half-written file. Refuses to replace an existing file
/// unless `force`.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let prefix = format!(".kifu-{}-", std::process::id());
    let builder = || tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir);
    // Create the folder only when it is missing: one failed open instead of a mkdir per file.
    let mut tmp = match builder() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            builder()?
        }
        r => r?,
    };
    tmp.write_all(bytes)?;
    if force {
        tmp.persist(path).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// Removes the temporary files (`.kifu-PID-XXXXXX.tmp`) that a killed run left in `dirs`: those
/// whose process is gone. Only where processes can be checked (`/proc`); returns how many.
fn remove_stale_temp_files(dirs: &BTreeSet<&Path>) -> usize {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return 0;
    }
    let mut removed = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Some(pid) =
                name.strip_prefix(".kifu-").filter(|n| n.ends_with(".tmp")).and_then(|n| n.split('-').next())
            else {
                continue;
            };
            let gone = pid.parse::<u32>().is_ok_and(|p| p != std::process::id() && !proc.join(pid).exists());
            if gone && entry.file_type().is_ok_and(|t| t.is_file()) && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// `name.sgf` → `name-007.sgf` (at least three digits, more when `count` needs them).
fn split_name(base: &Path, index: usize, count: usize) -> PathBuf {
    let width = count.to_string().len().max(3);
    let stem = base.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match base.extension() {
        Some(e) => format!("{stem}-{:0width$}.{}", index + 1, e.to_string_lossy()),
        None => format!("{stem}-{:0width$}", index + 1),
    };
    base.with_file_name(name)
}

/// Reads one input; fills `record` (format, charset, games, read diagnostics). Returns the games
/// and the charset decision (which the JSON writer records).
fn read_input(
    job: &Job,
    options: &BatchOptions,
    record: &mut Record,
) -> Option<(Collection, Option<crate::charset::CharsetDecision>)> {
    let bytes = match std::fs::read(&job.input) {
        Ok(b) => b,
        Err(e) => {
            let d = Diagnostic::error(codes::CANNOT_READ, format!("cannot read {}: {e}", job.input.display()));
            record.add(Stage::Batch, &[d]);
            record.status = Status::Failed;
            return None;
        }
    };
    let Some(format) = job.format.or_else(|| Format::from_path(&job.input)).or_else(|| Format::sniff(&bytes)) else {
        let d = Diagnostic::error(codes::UNKNOWN_FORMAT, "cannot tell the format from the name or content (give -f)");
        record.add(Stage::Batch, &[d]);
        record.status = Status::Failed;
        return None;
    };
    record.from = Some(format.name());
    match format.read(bytes, &options.read) {
        Ok(read) => {
            record.charset = read.charset.map(Into::into);
            record.games = read.collection.games.len();
            record.add(Stage::Read, &read.diagnostics);
            Some((read.collection, read.charset))
        }
        Err(e) => {
            record.add(Stage::Read, &e.diagnostics);
            record.status = Status::Failed;
            None
        }
    }
}

/// Writes one output file unless it exists and may not be replaced. Returns whether the file
/// was skipped because it exists (`--skip-existing`); a failure is recorded and `Err` returned.
fn put(path: &Path, bytes: &[u8], options: &BatchOptions, record: &mut Record) -> Result<bool, ()> {
    if options.existing != Existing::Force && exists(path) {
        if options.existing == Existing::Skip {
            return Ok(true);
        }
        let msg = format!("{} exists; give --force to replace it or --skip-existing to keep it", path.display());
        record.add(Stage::Batch, &[Diagnostic::error(codes::OUTPUT_EXISTS, msg)]);
        return Err(());
    }
    if options.dry_run {
        return Ok(false);
    }
    match write_atomically(path, bytes, options.existing == Existing::Force) {
        Ok(()) => Ok(false),
        Err(e) => {
            let (code, msg) = if e.kind() == io::ErrorKind::AlreadyExists {
                (codes::OUTPUT_EXISTS, format!("{} exists; give --force to replace it", path.display()))
            } else {
                (codes::CANNOT_WRITE, format!("cannot write {}: {e}", path.display()))
            };
            record.add(Stage::Batch, &[Diagnostic::error(code, msg)]);
            Err(())
        }
    }
}

/// Converts one input to its output(s).
fn convert_one(job: &Job, options: &BatchOptions, planned: &HashSet<PathBuf>) -> Record {
    let shown = |p: &PathBuf| p.display().to_string();
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
    if !split && options.existing != Existing::Force && exists(output) {
        if options.existing == Existing::Skip {
            let d = Diagnostic::info(codes::SKIPPED_EXISTING, format!("{} exists; skipped", output.display()));
            record.add(Stage::Batch, &[d]);
            record.status = Status::Skipped;
            return record;
        }
        let msg = format!("{} exists; give --force to replace it or --skip-existing to keep it", output.display());
        return record.fail(Diagnostic::error(codes::OUTPUT_EXISTS, msg));
    }
    let Some((collection, charset)) = read_input(job, options, &mut record) else { return record };
    let write_options = WriteOptions { source_charset: charset, ..options.write.clone() };
    let parts: Vec<(PathBuf, Collection)> = if split && collection.games.len() > 1 {
        let n = collection.games.len();
        collection
            .games
            .into_iter()
            .enumerate()
            .map(|(i, g)| {
                let mut name = split_name(output, i, n);
                // Another input's planned output: `name-001-2.sgf`, `-3` … (deterministic).
                if planned.contains(&name) {
                    let taken = name.clone();
                    let stem = name.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                    let ext = name.extension().map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
                    name = (2..)
                        .map(|k| taken.with_file_name(format!("{stem}-{k}{ext}")))
                        .find(|p| !planned.contains(p))
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
    let mut skipped = 0;
    for (path, part) in &parts {
        let written = match options.write(part, &write_options) {
            Ok(w) => w,
            Err(e) => {
                let diags = match e {
                    crate::formats::WriteError::Invalid(d) => d,
                    other => vec![Diagnostic::error(codes::CANNOT_WRITE, other.to_string())],
                };
                record.add(Stage::Write, &diags);
                record.status = Status::Failed;
                return record;
            }
        };
        record.add(Stage::Write, &written.diagnostics);
        match put(path, &written.bytes, options, &mut record) {
            Ok(true) => skipped += 1,
            Ok(false) => record.outputs.push(shown(path)),
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

/// Writes the merged collection.
fn merge(records: &mut [Record], parts: Vec<Option<Collection>>, path: &Path, options: &BatchOptions) -> MergeRecord {
    let mut games = Vec::new();
    let mut inputs = 0;
    for (record, part) in records.iter_mut().zip(parts) {
        match part {
            Some(c) => {
                inputs += 1;
                games.extend(c.games);
            }
            None if record.status == Status::Failed => {
                let d = Diagnostic::info(codes::NOT_MERGED, "failed; none of its games are in the merged file");
                record.add(Stage::Batch, &[d]);
            }
            None => {}
        }
    }
    let mut m = MergeRecord {
        output: path.display().to_string(),
        to: options.output_name(),
        inputs,
        games: games.len(),
        status: Status::Ok,
        diagnostics: Vec::new(),
    };
    let collection = Collection::new(games);
    let mut scratch = Record::new(String::new(), None, options.output_name());
    match options.write(&collection, &options.write) {
        Ok(w) => {
            scratch.add(Stage::Write, &w.diagnostics);
            match put(path, &w.bytes, options, &mut scratch) {
                Ok(false) => {}
                Ok(true) => {
                    let d = Diagnostic::info(codes::SKIPPED_EXISTING, format!("{} exists; skipped", path.display()));
                    scratch.add(Stage::Batch, &[d]);
                    scratch.status = Status::Skipped;
                }
                Err(()) => scratch.status = Status::Failed,
            }
        }
        Err(e) => {
            let diags = match e {
                crate::formats::WriteError::Invalid(d) => d,
                other => vec![Diagnostic::error(codes::CANNOT_WRITE, other.to_string())],
            };
            scratch.add(Stage::Write, &diags);
            scratch.status = Status::Failed;
        }
    }
    scratch.settle();
    m.status = scratch.status;
    m.diagnostics = scratch.diagnostics;
    m
}

/// Converts every input of `plan`, calling `progress` as each one finishes (from worker
/// threads, in completion order). The report's records follow the plan's (input-path) order.
pub fn execute(plan: Plan, options: &BatchOptions, progress: &(dyn Fn(&Record) + Sync)) -> Result<Report, BatchError> {
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
        let dirs: BTreeSet<&Path> = plan.jobs.iter().filter_map(|j| j.output.as_deref()?.parent()).collect();
        remove_stale_temp_files(&dirs)
    };
    let mut report = pool.install(|| match &merge_path {
        None => {
            let records: Vec<Record> = plan
                .jobs
                .par_iter()
                .map(|job| {
                    let r = convert_one(job, options, &plan.planned);
                    progress(&r);
                    r
                })
                .collect();
            Report::new(records, None, plan.ignored, options.dry_run)
        }
        Some(path) => {
            let (mut records, parts): (Vec<Record>, Vec<Option<Collection>>) = plan
                .jobs
                .par_iter()
                .map(|job| {
                    let shown = job.output.as_ref().map(|p| p.display().to_string());
                    let mut r = Record::new(job.input.display().to_string(), shown, options.output_name());
                    r.from = job.format.map(Format::name);
                    r.add(Stage::Batch, &job.notes);
                    let part = if let Some(d) = &job.skip {
                        r.add(Stage::Batch, std::slice::from_ref(d));
                        r.status = Status::Skipped;
                        None
                    } else if let Some(d) = &job.fail {
                        r = r.fail(d.clone());
                        None
                    } else {
                        read_input(job, options, &mut r).map(|(c, _)| c)
                    };
                    r.settle();
                    progress(&r);
                    (r, part)
                })
                .unzip();
            let m = merge(&mut records, parts, path, options);
            if matches!(m.status, Status::Ok | Status::Warnings) {
                for r in records.iter_mut().filter(|r| r.status != Status::Failed && r.status != Status::Skipped) {
                    r.outputs.push(m.output.clone());
                }
            }
            Report::new(records, Some(m), plan.ignored, options.dry_run)
        }
    });
    report.removed_temp_files = removed;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temp_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let own = format!(".kifu-{}-abc.tmp", std::process::id());
        for name in [".kifu-4000000-abc.tmp", own.as_str(), ".kifu-x.tmp", "game.sgf"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let removed = remove_stale_temp_files(&BTreeSet::from([dir.path()]));
        if Path::new("/proc/self").exists() {
            assert_eq!(removed, 1);
            assert!(!dir.path().join(".kifu-4000000-abc.tmp").exists());
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4 - removed);
    }

    #[test]
    fn split_names_are_numbered_and_padded() {
        assert_eq!(split_name(Path::new("o/a.sgf"), 0, 3), Path::new("o/a-001.sgf"));
        assert_eq!(split_name(Path::new("o/a.sgf"), 1233, 1500), Path::new("o/a-1234.sgf"));
    }

    #[test]
    fn atomic_write_creates_folders_and_never_clobbers() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x/y/out.sgf");
        write_atomically(&p, b"one", false).unwrap();
        assert_eq!(write_atomically(&p, b"two", false).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        write_atomically(&p, b"two", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path().join("x/y")).unwrap().count(), 1);
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
}
