//! Planning: every input's output path, decided before anything is converted.

use super::walk::{self, Verdict};
use super::{BatchError, BatchOptions, Collect, codes};
use kifu::diag::Diagnostic;
use kifu::formats::Format;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// `path` with its file name's extension replaced by `ext` (added when it has none), the name
/// kept as the operating system's bytes. Unlike `Path::with_extension`, a name that is all
/// extension keeps its own place: `..sgf` becomes `..sgf`, not the parent folder `..`.
pub(crate) fn with_extension(path: &Path, ext: &str) -> PathBuf {
    let Some(name) = path.file_name() else { return path.join(format!("unnamed.{ext}")) };
    let mut stem: OsString = match (path.file_stem(), path.extension()) {
        (Some(stem), Some(_)) => stem.to_os_string(),
        _ => name.to_os_string(),
    };
    stem.push(".");
    stem.push(ext);
    path.with_file_name(stem)
}

/// Whether `path` lies under the folder `dir`: it starts with `dir` and every component after is
/// a plain name (no `..`, no `.`, no root), so it cannot lead out of `dir` whatever the names.
pub(crate) fn stays_under(path: &Path, dir: &Path) -> bool {
    path.strip_prefix(dir).is_ok_and(|rest| {
        rest.components().next().is_some() && rest.components().all(|c| matches!(c, Component::Normal(_)))
    })
}

/// One input and what will be done with it.
#[derive(Debug)]
pub struct Job {
    /// The input path as found.
    pub input: PathBuf,
    /// The planned output path (the merged file with `--merge`), if the input is converted.
    pub output: Option<PathBuf>,
    /// The input format when known before reading (by `-f` or by extension / content).
    pub format: Option<Format>,
    /// Set when the input is skipped without reading, with the reason.
    pub(crate) skip: Option<Diagnostic>,
    /// Set when the input fails without reading, with the reason.
    pub(crate) fail: Option<Diagnostic>,
    /// Planning notes (name collisions).
    pub(crate) notes: Vec<Diagnostic>,
    /// Where an archive's member is read from when it is converted (its `input` is
    /// `archive.zip!/inner/path`, a name, not a file).
    pub(crate) member: Option<Member>,
    /// With `--name` and `--split`: the output of each game the filters keep, in order.
    pub(crate) part_names: Vec<PathBuf>,
    /// With `--dedup`: the games (0-based) not written, each with the note that names the kept
    /// copy ([`super::codes::DUPLICATE`]).
    pub(crate) duplicates: Vec<(usize, Diagnostic)>,
}

impl Job {
    /// Whether the run will read and convert this input (it has an output, and no reason to
    /// skip or fail it before reading).
    pub(crate) fn converts(&self) -> bool {
        self.output.is_some() && self.skip.is_none() && self.fail.is_none()
    }

    /// A copy of the input's bytes, read now (an archive's member from its archive read anew).
    pub(crate) fn peek(&self) -> std::io::Result<Vec<u8>> {
        match &self.member {
            Some(m) => m.peek(),
            None => std::fs::read(&self.input),
        }
    }
}

/// Where an archive's member is read from when it is converted.
#[derive(Debug)]
pub(crate) struct Member {
    /// The archive file.
    archive: std::sync::Arc<walk::Archive>,
    /// The member's path inside it.
    inner: String,
    /// Whether the member took its bytes or gave them up.
    settled: std::sync::atomic::AtomicBool,
}

impl Member {
    /// The member's bytes (read with its archive, once per run).
    pub(crate) fn take(&self) -> std::io::Result<Vec<u8>> {
        if self.settled.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Err(std::io::Error::other("the member was already converted"));
        }
        self.archive.take(&self.inner)
    }

    /// A copy of the member's bytes, read from its archive now (for `--name`, before the run;
    /// the run takes its own).
    pub(crate) fn peek(&self) -> std::io::Result<Vec<u8>> {
        self.archive.peek(&self.inner)
    }

    /// The member is done without its bytes (skipped, failed before reading, or read).
    pub(crate) fn settle(&self) {
        if !self.settled.swap(true, std::sync::atomic::Ordering::SeqCst) {
            self.archive.done();
        }
    }
}

/// All inputs of a run, ordered by input path, with their outputs decided.
#[derive(Debug)]
pub struct Plan {
    /// The inputs, in input-path order.
    pub jobs: Vec<Job>,
    /// Files in walked folders that are not game records.
    pub ignored: usize,
    /// Every planned output path, folded ([`folded`]), so `--split` names never take another
    /// input's output, not even one that differs only in case.
    pub(crate) planned: HashSet<PathBuf>,
    /// The identities of the input files, so no output (a `--split` name included) replaces one;
    /// taken (a `stat` per input) only when some output or other path to check exists.
    input_keys: std::sync::OnceLock<HashSet<FileKey>>,
}

/// The identities of the inputs that are converted (those with an output).
fn input_keys_of(jobs: &[Job]) -> HashSet<FileKey> {
    jobs.iter().filter(|j| j.output.is_some()).filter_map(|j| file_key(&j.input)).collect()
}

impl Plan {
    /// The identities of the converted input files, taken on first use.
    pub(crate) fn input_keys(&self) -> &HashSet<FileKey> {
        self.input_keys.get_or_init(|| input_keys_of(&self.jobs))
    }

    /// Why `path` (given for `what`, e.g. `the report`) may not be written by this run: it is
    /// an input file, or one of the run's planned outputs. `None` when it is free.
    pub fn clash(&self, path: &Path, what: &str) -> Option<String> {
        if file_key(path).is_some_and(|k| self.input_keys().contains(&k)) {
            return Some(format!("{what} {} is an input file; refusing to overwrite it", path.display()));
        }
        let target = resolve(path);
        let output = self.jobs.iter().filter_map(|j| j.output.as_deref()).find(|o| resolve(o) == target)?;
        Some(format!("{what} {} is also an output of this run ({})", path.display(), output.display()))
    }
}

/// `path` made absolute with symbolic links resolved as far as it exists (the rest appended
/// lexically), so two spellings of one file compare equal even before it is created.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path))
    };
    let mut rest = Vec::new();
    let mut cur = abs.as_path();
    loop {
        if let Ok(mut out) = std::fs::canonicalize(cur) {
            for c in rest.iter().rev() {
                match c {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::Normal(n) => out.push(n),
                    _ => {}
                }
            }
            return out;
        }
        match (cur.parent(), cur.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                cur = parent;
            }
            _ => return abs,
        }
    }
}

/// What identifies a file whatever path names it: device and inode on Unix, the canonical
/// path elsewhere.
#[cfg(unix)]
pub(crate) type FileKey = (u64, u64);
#[cfg(not(unix))]
pub(crate) type FileKey = PathBuf;

/// The identity of the existing file at `path` (links followed), or `None` when there is none.
pub(crate) fn file_key(path: &Path) -> Option<FileKey> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok()
    }
}

/// The output path for `input` when another input already has its natural one:
/// `stem-EXT.to`, then `stem-EXT-2.to`, `stem-EXT-3.to` … until free (`taken` holds folded
/// paths, [`folded`]). Names keep the operating system's bytes.
fn alternative(natural: &Path, input: &Path, taken: &HashSet<PathBuf>) -> PathBuf {
    let stem = natural.file_stem().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    let ext = natural.extension().map(std::ffi::OsStr::to_os_string);
    let from = input.extension().map_or_else(|| "x".into(), |s| s.to_ascii_lowercase());
    (1..)
        .map(|n| {
            let mut name = stem.clone();
            name.push("-");
            name.push(&from);
            if n > 1 {
                name.push(format!("-{n}"));
            }
            if let Some(e) = &ext {
                name.push(".");
                name.push(e);
            }
            natural.with_file_name(name)
        })
        .find(|p| !taken.contains(&folded(p)))
        .unwrap_or_else(|| natural.to_path_buf())
}

/// `path` as a file system that ignores case sees it: names that differ only in case are the
/// same file there (an archive copied to such a disk must keep every game), so outputs collide
/// on this key. Text is lower-cased; bytes that are not UTF-8 are kept, ASCII letters lowered.
pub(crate) fn folded(path: &Path) -> PathBuf {
    match path.to_str() {
        Some(s) => PathBuf::from(s.to_lowercase()),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                PathBuf::from(std::ffi::OsStr::from_bytes(&path.as_os_str().as_bytes().to_ascii_lowercase()))
            }
            #[cfg(not(unix))]
            {
                PathBuf::from(path.as_os_str().to_ascii_lowercase())
            }
        }
    }
}

/// Sorts `found` by input path in `Path`'s order (component by component), stably. A path
/// comparison walks components, so the sort is made on a byte key that orders usual paths the
/// same way (each `/` made the lowest byte), then checked pair by pair in `Path`'s order; an
/// order the check refuses (an unusual path: `//`, `./`, a trailing `/`) is sorted again by
/// `Path`.
fn sort_by_path(found: &mut Vec<walk::Found>) {
    #[cfg(unix)]
    {
        use std::cmp::Ordering;
        use std::os::unix::ffi::OsStrExt;
        let key =
            |p: &Path| -> Vec<u8> { p.as_os_str().as_bytes().iter().map(|&b| if b == b'/' { 0 } else { b }).collect() };
        let mut keyed: Vec<(Vec<u8>, usize)> = found.iter().enumerate().map(|(i, f)| (key(&f.input), i)).collect();
        keyed.sort_unstable();
        let order: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
        let stable_order = |&(i, j): &(usize, usize)| match found[i].input.cmp(&found[j].input) {
            Ordering::Less => true,
            Ordering::Equal => i < j,
            Ordering::Greater => false,
        };
        if order.windows(2).map(|w| (w[0], w[1])).all(|pair| stable_order(&pair)) {
            let mut slots: Vec<Option<walk::Found>> = std::mem::take(found).into_iter().map(Some).collect();
            *found = order.iter().filter_map(|&i| slots.get_mut(i).and_then(Option::take)).collect();
            return;
        }
    }
    found.sort_by(|a, b| a.input.cmp(&b.input));
}

/// The inputs under `inputs`, walked as a run walks them, in input-path order, archives'
/// members with their bytes, and how many files were ignored: what `kifu stats` and `kifu dedup`
/// read (they plan no output).
pub(crate) fn inputs(inputs: &[PathBuf], options: &BatchOptions) -> Result<(Vec<walk::Found>, usize), BatchError> {
    let (mut found, ignored) = walk::find_with_members(inputs, options)?;
    sort_by_path(&mut found);
    found.dedup_by(|a, b| a.input == b.input);
    Ok((found, ignored))
}

/// The games of the input of `job` that the filters keep, with their numbers in the input (from
/// 1); `None` when it cannot be read (its conversion then says why).
fn kept_games(job: &Job, options: &BatchOptions) -> Option<Vec<(usize, kifu::GameTree)>> {
    let bytes = match &job.member {
        Some(m) => m.peek().ok()?,
        None => std::fs::read(&job.input).ok()?,
    };
    let reader = options.reader();
    let format = reader.decide(Some(&job.input), &bytes).ok()?.format;
    let read = reader.read_as(format, bytes).ok()?;
    let games = read.collection.games.into_iter().enumerate().map(|(i, g)| (i + 1, g));
    Some(games.filter(|(_, g)| options.filter.matches(g, Some(format))).collect())
}

/// `--name`: each converted input's output (with `--split`, each kept game's) named by
/// `template` under `dir` from the game's information. Inputs are read here (in parallel) for
/// it; an input that cannot be read, or whose games are all left out, keeps its mirrored name
/// (its conversion reports why). With `--split`, names that collide are numbered `-2`, `-3` …
/// in input order; per input, collisions are resolved with the mirrored names' rule.
fn name_outputs(jobs: &mut [Job], template: &kifu::naming::Template, dir: &Path, ext: &str, options: &BatchOptions) {
    use rayon::prelude::*;
    let split = options.collect == Collect::Split;
    let named: Vec<Vec<PathBuf>> = jobs
        .par_iter()
        .map(|job| {
            if job.output.is_none() {
                return Vec::new();
            }
            let stem = job.input.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let games = kept_games(job, options).unwrap_or_default();
            let name = |(n, g): &(usize, kifu::GameTree)| {
                dir.join(template.expand(&kifu::naming::Values::of(g, &stem, *n), ext))
            };
            if split { games.iter().map(name).collect() } else { games.first().map(name).into_iter().collect() }
        })
        .collect();
    let mut taken: HashSet<PathBuf> = jobs.iter().map(|j| folded(&j.input)).collect();
    for (job, names) in jobs.iter_mut().zip(named) {
        if names.is_empty() {
            continue;
        }
        if !split {
            job.output = names.into_iter().next();
            continue;
        }
        let mut parts = Vec::with_capacity(names.len());
        for name in names {
            let free = if taken.contains(&folded(&name)) {
                let alt =
                    (2..).map(|k| numbered(&name, k)).find(|p| !taken.contains(&folded(p))).unwrap_or(name.clone());
                job.notes.push(Diagnostic::warning(
                    codes::NAME_COLLISION,
                    format!(
                        "{} is already the output of another game; writing {} instead",
                        name.display(),
                        alt.display()
                    ),
                ));
                alt
            } else {
                name
            };
            taken.insert(folded(&free));
            parts.push(free);
        }
        job.output = parts.first().cloned();
        job.part_names = parts;
    }
}

/// `name.sgf` → `name-K.sgf` (`name-001.sgf` → `name-001-K.sgf`), the name kept as the operating
/// system's bytes.
pub(super) fn numbered(path: &Path, k: usize) -> PathBuf {
    let mut name = path.file_stem().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(format!("-{k}"));
    if let Some(e) = path.extension() {
        name.push(".");
        name.push(e);
    }
    path.with_file_name(name)
}

/// Finds the inputs under `inputs` and plans their outputs.
pub fn plan(inputs: &[PathBuf], options: &BatchOptions) -> Result<Plan, BatchError> {
    let to = options.to;
    if options.produce.is_none() && !to.can_write() {
        return Err(BatchError::CannotWrite(to.name()));
    }
    let merge = match &options.collect {
        Collect::Merge(p) => Some(p.clone()),
        _ => None,
    };
    if options.name.is_some() && (merge.is_some() || options.out_dir.is_none()) {
        return Err(BatchError::NameNeedsOutputDir);
    }
    // `--merge -` (and several inputs with no destination): standard output, no file.
    let merge_file = merge.as_deref().filter(|m| !super::is_stdout(m));
    if merge.is_none() && options.out_dir.is_none() && !options.in_place {
        let what = match (&options.collect, inputs.len()) {
            (Collect::Split, _) => "--split's numbered files (one per game)",
            (_, 1) => "the files of a folder",
            _ => "several inputs",
        };
        return Err(BatchError::NoDestination(what));
    }
    if let (Some(out), false) = (&options.out_dir, options.in_place) {
        let out_abs = resolve(out);
        for root in inputs.iter().filter(|r| r.is_dir()) {
            if let Ok(root_abs) = std::fs::canonicalize(root) {
                if out_abs.starts_with(&root_abs) {
                    return Err(BatchError::OutputInsideInput(out.clone(), root.clone()));
                }
            }
        }
    }
    let (mut found, mut ignored) = walk::find(inputs, options)?;
    // The merged file of an earlier run found in a walked folder is our output, not an input;
    // an input named on the command line is never replaced by the merge.
    if let Some(key) = merge_file.and_then(file_key) {
        if let Some(f) = found.iter().find(|f| f.named && file_key(&f.input) == Some(key)) {
            let m = merge_file.unwrap_or(&f.input).display();
            return Err(BatchError::OutputClash(format!(
                "the merged file {m} is the input {}; refusing to overwrite it",
                f.input.display()
            )));
        }
        let before = found.len();
        found.retain(|f| file_key(&f.input) != Some(key));
        ignored += before - found.len();
    }
    sort_by_path(&mut found);
    found.dedup_by(|a, b| a.input == b.input);
    // A merge takes the inputs in the order they are given, as `cat` does (each folder's files
    // in path order); a stable sort keeps the path order within each.
    if merge.is_some() {
        found.sort_by_key(|f| f.root);
    }

    let ext = match &options.produce {
        Some(p) => p.extension(),
        None => to.extensions().first().copied().unwrap_or(to.name()),
    };
    let mut jobs: Vec<Job> = found
        .into_iter()
        .map(|f| {
            let is_member = f.archive.is_some() || f.member.is_some();
            let member = f.archive.map(|(archive, inner)| {
                archive.expect_one();
                Member { archive, inner, settled: std::sync::atomic::AtomicBool::new(false) }
            });
            let mut job = Job {
                input: f.input,
                output: None,
                format: None,
                skip: None,
                fail: None,
                notes: Vec::new(),
                member,
                part_names: Vec::new(),
                duplicates: Vec::new(),
            };
            match f.verdict {
                // kifu never writes into an archive: its members' outputs need a folder.
                Verdict::Convert(_) if is_member && merge.is_none() && options.out_dir.is_none() => {
                    let msg = "kifu never writes into an archive; give -O DIR (or --merge FILE) for its members";
                    job.fail = Some(Diagnostic::error(codes::ARCHIVE_IN_PLACE, msg));
                }
                Verdict::Convert(format) => {
                    job.format = format;
                    job.output = Some(match (&merge, &options.out_dir) {
                        (Some(m), _) => m.clone(),
                        (None, Some(dir)) => with_extension(&dir.join(&f.rel), ext),
                        (None, None) => with_extension(&job.input, ext),
                    });
                }
                Verdict::Skip(d) => {
                    job.format = options.from.or_else(|| Format::from_path(&job.input));
                    job.skip = Some(d);
                }
                Verdict::Fail(d) | Verdict::Named(d, _) => job.fail = Some(d),
            }
            job
        })
        .collect();

    if let (Some(template), Some(dir)) = (&options.name, &options.out_dir) {
        name_outputs(&mut jobs, template, dir, ext, options);
    }

    if merge.is_none() {
        // Same natural output: the input already named like its output wins, then the first by
        // path; the others get `stem-EXT.to`. Inputs and every natural output are reserved.
        // Grouped by hash (a path comparison walks components: a sorted map of every output cost
        // more than the rest of planning); only the groups of two or more, in path order.
        // Outputs are grouped by their folded path ([`folded`]): names that differ only in case
        // collide too.
        let mut groups: HashMap<PathBuf, Vec<usize>> = HashMap::with_capacity(jobs.len());
        for (i, job) in jobs.iter().enumerate() {
            if let Some(o) = &job.output {
                groups.entry(folded(o)).or_default().push(i);
            }
        }
        let mut taken: HashSet<PathBuf> = groups.keys().cloned().collect();
        taken.extend(jobs.iter().map(|j| folded(&j.input)));
        let mut clashes: Vec<(PathBuf, Vec<usize>)> = groups.into_iter().filter(|(_, m)| m.len() > 1).collect();
        clashes.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (_, mut members) in clashes {
            let keeps_name = |i: &usize| jobs.get(*i).is_some_and(|j| j.input.extension().is_some_and(|e| e == ext));
            members.sort_by_key(|i| (!keeps_name(i), *i));
            let Some((&winner, losers)) = members.split_first() else { continue };

            let winner_name = jobs.get(winner).map(|j| j.input.display().to_string()).unwrap_or_default();
            for &i in losers {
                let Some(job) = jobs.get_mut(i) else { continue };
                let Some(natural) = job.output.clone() else { continue };
                let alt = alternative(&natural, &job.input, &taken);
                taken.insert(folded(&alt));
                job.notes.push(Diagnostic::warning(
                    codes::NAME_COLLISION,
                    format!(
                        "{} is also the output of {winner_name}; writing {} instead",
                        natural.display(),
                        alt.display()
                    ),
                ));
                job.output = Some(alt);
            }
        }
    }

    // An output that does not exist yet cannot be an input; one that exists is compared by
    // identity, so links and `..` do not hide that it is an input. The inputs' identities are
    // taken only when some output exists (a fresh run needs none).
    let existing: Vec<(usize, FileKey)> = jobs
        .iter()
        .enumerate()
        .filter_map(|(i, j)| j.output.as_deref().filter(|o| !super::is_stdout(o)).and_then(file_key).map(|k| (i, k)))
        .collect();
    let input_keys = std::sync::OnceLock::new();
    if !existing.is_empty() {
        let keys = input_keys.get_or_init(|| input_keys_of(&jobs));
        for (i, key) in existing {
            if let (true, Some(job)) = (keys.contains(&key), jobs.get_mut(i)) {
                let out = job.output.as_deref().unwrap_or(Path::new("")).display();
                let message = format!("the output {out} is an input file; refusing to overwrite it");
                job.fail = Some(Diagnostic::error(codes::OUTPUT_IS_INPUT, message));
            }
        }
    }
    let planned = jobs.iter().flat_map(|j| j.output.iter().chain(&j.part_names)).map(|p| folded(p)).collect();
    Ok(Plan { jobs, ignored, planned, input_keys })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_sorted_as_paths_sort() {
        let found_at = |names: &[&str]| -> Vec<walk::Found> {
            let found = |n: &&str| walk::Found {
                input: PathBuf::from(n),
                rel: PathBuf::from(n),
                verdict: Verdict::Convert(None),
                named: true,
                member: None,
                root: 0,
                archive: None,
            };
            names.iter().map(found).collect()
        };
        let texts =
            |found: &[walk::Found]| -> Vec<String> { found.iter().map(|f| f.input.display().to_string()).collect() };
        // Unusual paths (equal as paths, spelt apart): the exact result of a stable sort by path.
        let names = ["a.b/x", "a/b", "a", "a/b/c", "a-b", "b", "a//b", "a/", "./a", "a/b", "é", "A"];
        let mut found = found_at(&names);
        let mut expected = found_at(&names);
        expected.sort_by(|a, b| a.input.cmp(&b.input));
        sort_by_path(&mut found);
        assert_eq!(texts(&found), texts(&expected));
        let usual: Vec<walk::Found> = ["x/b.sgf", "x.sgf", "x/a.sgf", "w.sgf"]
            .iter()
            .map(|n| walk::Found {
                input: PathBuf::from(n),
                rel: PathBuf::from(n),
                verdict: Verdict::Convert(None),
                named: false,
                member: None,
                root: 0,
                archive: None,
            })
            .collect();
        let mut usual = usual;
        sort_by_path(&mut usual);
        let got: Vec<&str> = usual.iter().filter_map(|f| f.input.to_str()).collect();
        assert_eq!(got, ["w.sgf", "x/a.sgf", "x/b.sgf", "x.sgf"]);
    }

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir
    }

    fn outputs(plan: &Plan, base: &Path) -> Vec<String> {
        plan.jobs
            .iter()
            .map(|j| j.output.as_ref().map(|o| o.strip_prefix(base).unwrap().display().to_string()).unwrap_or_default())
            .collect()
    }

    #[test]
    fn mirrors_paths_and_resolves_collisions_deterministically() {
        let dir =
            tree(&[("in/a/x.sgf", "(;)"), ("in/a/x.SGF", "(;)"), ("in/a/x.txt", "(;GM[1])"), ("in/b.sgf", "(;)")]);
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(dir.path().join("out"));
        let plan = plan(&[dir.path().join("in")], &opts).unwrap();
        // sorted by input path: x.SGF < x.sgf < x.txt
        assert_eq!(outputs(&plan, &dir.path().join("out")), ["a/x-sgf.sgf", "a/x.sgf", "a/x-txt.sgf", "b.sgf"]);
        assert_eq!(plan.jobs[0].notes[0].code, codes::NAME_COLLISION);
        assert!(plan.jobs[1].notes.is_empty());
    }

    #[test]
    fn in_place_never_targets_an_input() {
        let dir = tree(&[("a.sgf", "(;)"), ("a.txt", "(;)")]);
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.in_place = true;
        let plan = plan(&[dir.path().to_path_buf()], &opts).unwrap();
        assert_eq!(plan.jobs[0].fail.as_ref().unwrap().code, codes::OUTPUT_IS_INPUT);
        assert_eq!(outputs(&plan, dir.path())[1], "a-txt.sgf");
        assert!(plan.jobs[1].fail.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn an_output_that_is_a_link_to_its_input_is_refused() {
        let dir = tree(&[("in/a.sgf", "(;)"), ("in/b.sgf", "(;)")]);
        std::fs::create_dir(dir.path().join("out")).unwrap();
        std::os::unix::fs::symlink("../in/a.sgf", dir.path().join("out/a.sgf")).unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(dir.path().join("out"));
        let plan = plan(&[dir.path().join("in")], &opts).unwrap();
        assert_eq!(plan.jobs[0].fail.as_ref().unwrap().code, codes::OUTPUT_IS_INPUT);
        assert!(plan.jobs[1].fail.is_none());
    }

    #[test]
    fn output_folder_inside_the_input_is_refused() {
        let dir = tree(&[("a.sgf", "(;)")]);
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        opts.out_dir = Some(dir.path().join("new/out"));
        let err = plan(&[dir.path().to_path_buf()], &opts).unwrap_err();
        assert!(matches!(err, BatchError::OutputInsideInput(..)));
        opts.out_dir = None;
        assert!(matches!(plan(&[dir.path().to_path_buf()], &opts).unwrap_err(), BatchError::NoDestination(_)));
    }

    #[test]
    fn resolve_follows_links_and_appends_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(real.join("d")).unwrap();
        assert_eq!(resolve(&real.join("d/../d/new/x.sgf")), real.join("d/new/x.sgf"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("d"), real.join("link")).unwrap();
            assert_eq!(resolve(&real.join("link/y.sgf")), real.join("d/y.sgf"));
        }
    }
}
