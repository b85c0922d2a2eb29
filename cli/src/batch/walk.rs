//! The one walk of every command that takes inputs: files named on the command line, game
//! records under walked folders (`-r`, `--include`, `--exclude`, `-L`), and the members of the
//! archives among them, each named `archive.zip!/inner/path` (formats/archives.md).
//!
//! Commands take the inputs one at a time from [`Inputs`] (`check`, `info`, and any other command
//! that reads records); a batch run (`convert`, `diagram`) plans them all first
//! ([`super::plan`]). Both see the same inputs, the same refusals and the same count of files
//! ignored, and end with the same total line ([`Totals::line`]).
//!
//! ```ignore
//! let options = args.walk.options(from, &read_options.limits)?; // WalkArgs, flattened
//! let mut inputs = walk::Inputs::new(&paths, options);
//! for item in &mut inputs {
//!     match item {
//!         walk::Item::Input(input) => { let read = input.read(); /* … */ }
//!         walk::Item::Refused(r) => { /* print r.diagnostic against r.name */ }
//!     }
//! }
//! let ignored = inputs.ignored();
//! ```

use super::{BatchError, BatchOptions, Glob, codes};
use crate::ExitCode;
use crate::members::Item as Member;
use kifu::archive::{Container, detect};
use kifu::diag::{Diagnostic, Severity};
use kifu::formats::{Format, Limits};
use kifu::output::is_temp_name;
use std::collections::VecDeque;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The walk options every command that takes inputs shares (flattened into its arguments).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct WalkArgs {
    /// Take the game records under folders given as INPUT (by extension or content), and the
    /// members of the archives met there.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Take only files matching GLOB from walked folders (repeatable; `*`, `**`, `?`, `[a-z]`).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Leave out files and folders matching GLOB (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Follow symbolic links while walking (otherwise they are reported as skipped).
    #[arg(short = 'L', long)]
    pub follow_symlinks: bool,
}

impl WalkArgs {
    /// Whether any walk option was given.
    pub fn any(&self) -> bool {
        self.recursive || !self.include.is_empty() || !self.exclude.is_empty() || self.follow_symlinks
    }

    /// The globs of `--include` and `--exclude`, or the usage message of a bad one.
    pub fn globs(&self) -> Result<(Vec<Glob>, Vec<Glob>), String> {
        let parse = |patterns: &[String]| -> Result<Vec<Glob>, String> {
            patterns.iter().map(|p| Glob::new(p).map_err(|e| e.to_string())).collect()
        };
        Ok((parse(&self.include)?, parse(&self.exclude)?))
    }

    /// The options of a walk that reads every input as `from` (when given) within `limits`, in
    /// path order; a bad glob is a usage message.
    pub fn options(&self, from: Option<Format>, limits: &Limits) -> Result<WalkOptions, String> {
        let (include, exclude) = self.globs()?;
        Ok(WalkOptions {
            recursive: self.recursive,
            follow_symlinks: self.follow_symlinks,
            include,
            exclude,
            from,
            limits: *limits,
            skip_dir: None,
            sorted: true,
        })
    }
}

/// How to walk: what [`WalkArgs`] says, the input format and the archive limits.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Walk folders given as inputs.
    pub recursive: bool,
    /// Follow symbolic links while walking.
    pub follow_symlinks: bool,
    /// When not empty, only files matching one of these are taken from walked folders.
    pub include: Vec<Glob>,
    /// Files and folders matching one of these are left out of walks.
    pub exclude: Vec<Glob>,
    /// Every input (and member) is a record of this format.
    pub from: Option<Format>,
    /// The bounds of what an archive may make kifu read.
    pub limits: Limits,
    /// A folder never walked into (a batch run's output folder).
    pub skip_dir: Option<PathBuf>,
    /// Each folder's entries in name order, so a walk gives its inputs in path order (a batch
    /// run sorts them itself).
    pub sorted: bool,
}

impl WalkOptions {
    fn of_batch(options: &BatchOptions) -> WalkOptions {
        WalkOptions {
            recursive: options.recursive,
            follow_symlinks: options.follow_symlinks,
            include: options.include.clone(),
            exclude: options.exclude.clone(),
            from: options.from,
            limits: options.read.limits,
            skip_dir: options.out_dir.as_ref().and_then(|d| std::fs::canonicalize(d).ok()),
            sorted: false,
        }
    }
}

/// What the walk decided about one path.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// Convert it; the format when already known (by `-f` or extension).
    Convert(Option<Format>),
    /// Record it as skipped for this reason.
    Skip(Diagnostic),
    /// Record it as failed for this reason.
    Fail(Diagnostic),
    /// An input named on the command line that cannot be taken, and the exit code it gives
    /// alone: missing or unreadable (66), a folder without `-r` (2).
    Named(Diagnostic, ExitCode),
}

/// One input found.
#[derive(Debug)]
pub(crate) struct Found {
    /// The path as found.
    pub input: PathBuf,
    /// The path relative to the walked folder (the file name for named files).
    pub rel: PathBuf,
    /// What to do with it.
    pub verdict: Verdict,
    /// Whether it was named on the command line (not found by walking a folder).
    pub named: bool,
    /// The bytes of an archive's member (its `input` is `archive.zip!/inner/path`, its `rel`
    /// `archive.zip/inner/path`), or of standard input.
    pub member: Option<Vec<u8>>,
    /// Which named input (counted from 0) it was found under: merges keep the order inputs are
    /// given in, as `cat` does.
    pub root: usize,
    /// The archive file a member comes from, to read it again when it is converted (a batch run
    /// drops the bytes read by the walk: [`Archive`]).
    pub archive: Option<(std::sync::Arc<Archive>, String)>,
}

/// An archive file whose members a batch run converts. The walk reads it once to find its
/// records, and drops their bytes; the run reads it again when the first of its members is
/// converted and holds its members' bytes until the last one is, so only the archives being
/// converted are in memory, not every archive of the walk.
#[derive(Debug)]
pub(crate) struct Archive {
    path: PathBuf,
    shown: String,
    kind: Container,
    from: Option<Format>,
    limits: Limits,
    /// The members' bytes by inner path once read, and how many members are still to take them.
    state: std::sync::Mutex<Held>,
}

/// The bytes an [`Archive`] holds: its members' by inner path once read, and how many members
/// are still to take theirs.
type Held = (Option<std::collections::HashMap<String, Vec<u8>>>, usize);

impl Archive {
    /// One more member will take its bytes (or give them up with [`Archive::done`]).
    pub(crate) fn expect_one(&self) {
        if let Ok(mut st) = self.state.lock() {
            st.1 += 1;
        }
    }

    /// The bytes of the member `inner` (each member's once); the archive is read on first use
    /// and its bytes dropped when the last member expected has taken its own.
    pub(crate) fn take(&self, inner: &str) -> std::io::Result<Vec<u8>> {
        let mut st = self.state.lock().map_err(|_| std::io::Error::other("a worker thread failed"))?;
        if st.0.is_none() {
            let opened = crate::members::open(&self.path, &self.shown, self.kind, self.from, &self.limits)?;
            let mut map = std::collections::HashMap::new();
            for item in opened.items {
                if let Member::Record { inner, bytes, .. } = item {
                    map.entry(inner).or_insert(bytes);
                }
            }
            st.0 = Some(map);
        }
        let bytes = st.0.as_mut().and_then(|m| m.remove(inner));
        st.1 = st.1.saturating_sub(1);
        if st.1 == 0 {
            st.0 = None;
        }
        bytes.ok_or_else(|| std::io::Error::other(format!("{} changed since the walk: the member is gone", self.shown)))
    }

    /// A copy of the bytes of the member `inner`, from the archive read anew (the members'
    /// shared reading is left as it is).
    pub(crate) fn peek(&self, inner: &str) -> std::io::Result<Vec<u8>> {
        let opened = crate::members::open(&self.path, &self.shown, self.kind, self.from, &self.limits)?;
        opened
            .items
            .into_iter()
            .find_map(|item| match item {
                Member::Record { inner: i, bytes, .. } if i == inner => Some(bytes),
                _ => None,
            })
            .ok_or_else(|| std::io::Error::other(format!("{} changed since the walk: the member is gone", self.shown)))
    }

    /// A member expected will not take its bytes (skipped or failed before reading).
    pub(crate) fn done(&self) {
        if let Ok(mut st) = self.state.lock() {
            st.1 = st.1.saturating_sub(1);
            if st.1 == 0 {
                st.0 = None;
            }
        }
    }
}

/// What a file in a walked folder is.
enum Kind {
    Record(Format),
    Archive(Container),
}

/// The relative path with `/` separators, for globs.
fn slash_path(rel: &Path) -> String {
    let parts: Vec<_> = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect();
    parts.join("/")
}

/// The format of a file in a walked folder, or `None` when it is not a game record: its
/// extension names a readable format, or its first 64 KiB are recognised. An extension other
/// kinds of files share (`.json`) counts only when the content is recognised too, so a
/// `package.json` is ignored rather than failed.
/// An archive (by content, else by name) is a container whose members are walked.
fn recognise(path: &Path) -> Option<Kind> {
    let by_name = Format::from_path(path).filter(|f| f.can_read());
    // A record's own extension decides without opening the file (a walk of 10,000 records opens
    // each once, to convert it); an archive so named is refused when it is read
    // (`input.archive`). Otherwise the content decides, from its first 64 KiB.
    if let Some(f) = by_name.filter(|f| !f.has_shared_extension()) {
        return Some(Kind::Record(f));
    }
    let head = crate::members::head(path, kifu::archive::HEAD).ok()?;
    if let Some(kind) = detect(Some(path), &head) {
        return Some(Kind::Archive(kind));
    }
    Format::sniff(&head).map(Kind::Record)
}

/// `rel` with an archive's inner path below it.
fn below(rel: &Path, inner: &str) -> PathBuf {
    let mut rel = rel.to_path_buf();
    rel.extend(inner.split('/'));
    rel
}

/// The members of the archive `opened` (at `input`, `rel`) as inputs: records to read, refusals
/// to report; members that are not records counted in `ignored`. An archive that cannot be
/// opened, or stops early (damaged, past a limit), is itself a failed input after its members.
fn expand(
    input: &Path,
    rel: &Path,
    opened: std::io::Result<crate::members::Opened>,
    kind: Option<Container>,
    walker: &mut Walker,
) {
    let shown = input.to_str().map_or_else(|| input.display().to_string(), str::to_owned);
    // An archive file (not standard input) can be read again: a batch run keeps no bytes.
    let archive = kind.map(|kind| {
        std::sync::Arc::new(Archive {
            path: input.to_path_buf(),
            shown: shown.clone(),
            kind,
            from: walker.options.from,
            limits: walker.options.limits,
            state: std::sync::Mutex::new((None, 0)),
        })
    });
    let fail = |d: Diagnostic| Found {
        input: input.to_path_buf(),
        rel: rel.to_path_buf(),
        verdict: Verdict::Fail(d),
        named: false,
        member: None,
        root: 0,
        archive: None,
    };
    let opened = match opened {
        Ok(o) => o,
        Err(e) => {
            walker.pending.push_back(fail(Diagnostic::error(codes::CANNOT_READ, format!("cannot read {shown}: {e}"))));
            return;
        }
    };
    walker.ignored += opened.ignored;
    for item in opened.items {
        walker.pending.push_back(match item {
            Member::Record { name, inner, format, bytes } => Found {
                input: PathBuf::from(name),
                rel: below(rel, &inner),
                verdict: Verdict::Convert(Some(format)),
                named: false,
                member: Some(bytes),
                root: 0,
                archive: archive.clone().map(|a| (a, inner)),
            },
            Member::Refused { name, inner, diagnostic } => {
                // A refused path is not joined to anything: its output is never planned.
                let verdict = match diagnostic.severity {
                    Severity::Error => Verdict::Fail(diagnostic),
                    _ => Verdict::Skip(diagnostic),
                };
                let rel = if kifu::archive::safe_path(&inner).is_ok() { below(rel, &inner) } else { rel.to_path_buf() };
                Found { input: PathBuf::from(name), rel, verdict, named: false, member: None, root: 0, archive: None }
            }
        });
    }
    if let Some(d) = opened.error {
        walker.pending.push_back(fail(d));
    }
}

/// The walk, one input at a time: named inputs in the order given, each walked folder in its
/// entries' order (name order when [`WalkOptions::sorted`]), an archive's members in the
/// archive's order. Only one archive's members are held at a time.
pub(crate) struct Walker {
    roots: std::vec::IntoIter<PathBuf>,
    /// How many roots were taken.
    taken: usize,
    options: WalkOptions,
    /// The folder being walked: its root and the walk.
    current: Option<(PathBuf, walkdir::IntoIter)>,
    /// Inputs found and not yet given (an archive's members).
    pending: VecDeque<Found>,
    /// Files in walked folders (and members) that are not game records, or left out.
    pub ignored: usize,
    /// Folders walked.
    pub folders: usize,
}

impl Walker {
    pub(crate) fn new(inputs: &[PathBuf], options: WalkOptions) -> Walker {
        Walker {
            roots: Vec::from(inputs).into_iter(),
            taken: 0,
            options,
            current: None,
            pending: VecDeque::new(),
            ignored: 0,
            folders: 0,
        }
    }

    /// Takes a root named on the command line: queues what it gives, or starts walking it.
    fn root(&mut self, root: PathBuf) {
        let named = |verdict, member| Found {
            rel: root.file_name().map_or_else(|| root.clone(), PathBuf::from),
            input: root.clone(),
            verdict,
            named: true,
            member,
            root: 0,
            archive: None,
        };
        if crate::input::is_stdin(&root) {
            crate::input::note_terminal();
            let mut bytes = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
                let d = Diagnostic::error("io.unreadable", format!("cannot read standard input: {e}"));
                self.pending.push_back(named(Verdict::Named(d, ExitCode::NoInput), None));
                return;
            }
            if let Some(kind) = detect(None, &bytes) {
                let opened = crate::members::open_reader(
                    std::io::Cursor::new(bytes),
                    Path::new(""),
                    "<stdin>",
                    kind,
                    self.options.from,
                    &self.options.limits,
                );
                expand(Path::new("<stdin>"), Path::new("stdin"), Ok(opened), None, self);
                return;
            }
            self.pending.push_back(named(Verdict::Convert(self.options.from), Some(bytes)));
            return;
        }
        let meta = match std::fs::metadata(&root) {
            Ok(m) => m,
            Err(e) => {
                let d = Diagnostic::error("io.unreadable", format!("cannot read the file: {e}"));
                self.pending.push_back(named(Verdict::Named(d, ExitCode::NoInput), None));
                return;
            }
        };
        if meta.is_dir() {
            if !self.options.recursive {
                let d = Diagnostic::error(
                    codes::WALK_ERROR,
                    "is a folder; give -r to take the game records under it".to_string(),
                );
                self.pending.push_back(named(Verdict::Named(d, ExitCode::Usage), None));
                return;
            }
            self.folders += 1;
            let mut walk = walkdir::WalkDir::new(&root).follow_links(self.options.follow_symlinks);
            if self.options.sorted {
                walk = walk.sort_by(|a, b| a.file_name().cmp(b.file_name()));
            }
            self.current = Some((root, walk.into_iter()));
            return;
        }
        if let Some(kind) = meta.is_file().then(|| crate::members::container(&root)).flatten() {
            let rel = root.file_name().map_or_else(|| root.clone(), PathBuf::from);
            let shown = root.to_str().map_or_else(|| root.display().to_string(), str::to_owned);
            let opened = crate::members::open(&root, &shown, kind, self.options.from, &self.options.limits);
            expand(&root.clone(), &rel, opened, Some(kind), self);
            return;
        }
        let format = self.options.from.or_else(|| Format::from_path(&root).filter(|f| f.can_read()));
        self.pending.push_back(named(Verdict::Convert(format), None));
    }

    /// The next input of the folder being walked, if any (archives queue their members).
    fn step(&mut self) -> Option<Found> {
        let (root, mut walk) = self.current.take()?;
        loop {
            let entry = match walk.next() {
                None => return None,
                Some(Ok(e)) => e,
                Some(Err(e)) => {
                    let input = e.path().map_or_else(|| root.clone(), Path::to_path_buf);
                    let rel = input.strip_prefix(&root).map_or_else(|_| input.clone(), Path::to_path_buf);
                    let d = Diagnostic::error(codes::WALK_ERROR, format!("cannot walk {}: {e}", input.display()));
                    self.current = Some((root, walk));
                    return Some(Found {
                        input,
                        rel,
                        verdict: Verdict::Fail(d),
                        named: false,
                        member: None,
                        root: 0,
                        archive: None,
                    });
                }
            };
            let ft = entry.file_type();
            let path = entry.path();
            let rel = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
            let opts = &self.options;
            // The slash form only when some glob is to match it.
            let globs = !(opts.include.is_empty() && opts.exclude.is_empty());
            let s = if globs { slash_path(&rel) } else { String::new() };
            if ft.is_dir() {
                // Never walk into the output folder (possible with --in-place), nor excluded ones.
                if entry.depth() > 0 {
                    let skip = opts.skip_dir.as_ref();
                    let is_out = skip.is_some() && std::fs::canonicalize(path).ok().as_ref() == skip;
                    if is_out || opts.exclude.iter().any(|g| g.matches(&s)) {
                        walk.skip_current_dir();
                    }
                }
                continue;
            }
            let name = entry.file_name().to_string_lossy();
            let included = opts.include.is_empty() || opts.include.iter().any(|g| g.matches(&s));
            if is_temp_name(&name) || !included || opts.exclude.iter().any(|g| g.matches(&s)) {
                self.ignored += 1;
                continue;
            }
            let found = |verdict| Found {
                input: path.to_path_buf(),
                rel: rel.clone(),
                verdict,
                named: false,
                member: None,
                root: 0,
                archive: None,
            };
            if ft.is_symlink() {
                let d = Diagnostic::info(codes::SYMLINK, "symbolic link not followed (give --follow-symlinks)");
                let f = found(Verdict::Skip(d));
                self.current = Some((root, walk));
                return Some(f);
            }
            if !ft.is_file() {
                self.ignored += 1;
                continue;
            }
            match recognise(path) {
                Some(Kind::Record(f)) => {
                    let f = found(Verdict::Convert(Some(opts.from.unwrap_or(f))));
                    self.current = Some((root, walk));
                    return Some(f);
                }
                Some(Kind::Archive(kind)) => {
                    let path = path.to_path_buf();
                    let shown = path.to_str().map_or_else(|| path.display().to_string(), str::to_owned);
                    let opened = crate::members::open(&path, &shown, kind, opts.from, &opts.limits);
                    expand(&path, &rel, opened, Some(kind), self);
                    if let Some(f) = self.pending.pop_front() {
                        self.current = Some((root, walk));
                        return Some(f);
                    }
                }
                None => self.ignored += 1,
            }
        }
    }
}

impl Iterator for Walker {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        // Everything pending or walked belongs to the last root taken.
        let stamp = |mut f: Found, taken: usize| {
            f.root = taken.saturating_sub(1);
            f
        };
        loop {
            if let Some(f) = self.pending.pop_front() {
                return Some(stamp(f, self.taken));
            }
            if self.current.is_some() {
                match self.step() {
                    Some(f) => return Some(stamp(f, self.taken)),
                    None => continue,
                }
            }
            let root = self.roots.next()?;
            self.taken += 1;
            self.root(root);
        }
    }
}

/// Walks `inputs` for a batch run; returns what was found (in the order the folders list their
/// entries; the plan sorts by path) and how many files were ignored. A named input that is
/// missing, or a folder without `-r`, stops the run before anything is converted.
pub(crate) fn find(inputs: &[PathBuf], options: &BatchOptions) -> Result<(Vec<Found>, usize), BatchError> {
    for root in inputs {
        let meta = std::fs::metadata(root).map_err(|e| BatchError::NoInput(root.clone(), e))?;
        if meta.is_dir() && !options.recursive {
            return Err(BatchError::IsDirectory(root.clone()));
        }
    }
    let mut walker = Walker::new(inputs, WalkOptions::of_batch(options));
    // A member's bytes are dropped as it is found: the run reads its archive again (`Archive`).
    let found: Vec<Found> = walker
        .by_ref()
        .map(|mut f| {
            if f.archive.is_some() {
                f.member = None;
            }
            f
        })
        .collect();
    Ok((found, walker.ignored))
}

/// Refuses a folder among `paths` when `recursive` is off, before anything is read: one line
/// naming the folder and `-r` (`kifu: games/ is a folder; give -r to check the game records under
/// it`), exit code 2.
pub fn refuse_folders(paths: &[PathBuf], recursive: bool, command: &str) -> Result<(), ExitCode> {
    match paths.iter().find(|p| !recursive && !crate::input::is_stdin(p) && p.is_dir()) {
        Some(dir) => {
            eprintln!("kifu: {} is a folder; give -r to {command} the game records under it", dir.display());
            Err(ExitCode::Usage)
        }
        None => Ok(()),
    }
}

/// One input to read: a file, standard input or an archive's member.
#[derive(Debug)]
pub struct Input {
    /// `FILE` as given or found, `<stdin>`, or `archive.zip!/inner/path`.
    pub name: String,
    /// The file on disk (`None` for standard input and members).
    file: Option<PathBuf>,
    /// The bytes already read (standard input, a member).
    bytes: Option<Vec<u8>>,
}

impl Input {
    /// The input read: its bytes, with the path the format decision looks at (the file, or the
    /// member's name; none for standard input).
    pub fn read(self) -> Result<crate::input::Input, crate::input::Unreadable> {
        let path = match (&self.file, self.name.as_str()) {
            (Some(f), _) => Some(f.clone()),
            (None, "<stdin>") => None,
            (None, name) => Some(PathBuf::from(name)),
        };
        let bytes = match (self.bytes, &self.file) {
            (Some(b), _) => b,
            (None, Some(f)) => std::fs::read(f).map_err(|e| crate::input::Unreadable {
                code: ExitCode::NoInput,
                message: format!("cannot read the file: {e}"),
            })?,
            (None, None) => Vec::new(),
        };
        Ok(crate::input::Input { path, name: self.name, bytes })
    }
}

/// An input that is not read: why, and what it means for the exit code.
#[derive(Debug)]
pub struct Refused {
    /// The input's name (`archive.zip!/inner/path` for a member).
    pub name: String,
    /// Why.
    pub diagnostic: Diagnostic,
    /// The exit code it gives when it is the only input: 66 (missing), 2 (a folder without
    /// `-r`), 65 (an archive or member that cannot be read); `None` for an input skipped on
    /// purpose (a link not followed, an archive inside an archive), which is no failure.
    pub code: Option<ExitCode>,
}

/// What the walk gives: an input to read, or one refused.
#[derive(Debug)]
pub enum Item {
    /// Read it.
    Input(Input),
    /// Report it.
    Refused(Refused),
}

/// The inputs of a command, one at a time, in path order: named files (standard input for `-`),
/// the game records under folders walked with `-r`, and archives' members. Only one archive's
/// members are held in memory at a time (each within `Limits::max_member`, all within
/// `Limits::max_archive`); a file is read when its [`Input::read`] is called.
pub struct Inputs {
    walker: Walker,
    given: usize,
}

impl Inputs {
    /// The walk of `paths` (the command's INPUTs; `-` is standard input).
    pub fn new(paths: &[PathBuf], options: WalkOptions) -> Inputs {
        Inputs { walker: Walker::new(paths, options), given: 0 }
    }

    /// Files in walked folders and archives' members that are not game records (or left out by
    /// `--include`/`--exclude`), so far.
    pub fn ignored(&self) -> usize {
        self.walker.ignored
    }

    /// Whether the run is over several inputs so far: more than one item (an archive's members
    /// included), or a folder walked. The total line is printed then, and a failure is exit code
    /// 1 rather than its own.
    pub fn several(&self) -> bool {
        self.given > 1 || self.walker.folders > 0
    }
}

impl Iterator for Inputs {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let found = self.walker.next()?;
        self.given += 1;
        let name = found.input.to_str().map_or_else(|| found.input.display().to_string(), str::to_owned);
        let refused = |diagnostic: Diagnostic, code| Item::Refused(Refused { name: name.clone(), diagnostic, code });
        Some(match found.verdict {
            Verdict::Convert(_) => {
                let stdin = found.named && crate::input::is_stdin(&found.input);
                let file = (found.member.is_none() && !stdin).then(|| found.input.clone());
                let name = if stdin { "<stdin>".to_string() } else { name };
                Item::Input(Input { name, file, bytes: found.member })
            }
            Verdict::Skip(d) => refused(d, None),
            Verdict::Fail(d) => {
                let code = if d.code == codes::CANNOT_READ { ExitCode::NoInput } else { ExitCode::DataErr };
                refused(d, Some(code))
            }
            Verdict::Named(d, code) => refused(d, Some(code)),
        })
    }
}

/// The counts of a run over several inputs, for its one total line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Inputs taken (members and refusals included).
    pub inputs: usize,
    /// Inputs whose worst finding is a note.
    pub ok: usize,
    /// Inputs whose worst finding is a warning.
    pub warnings: usize,
    /// Inputs read with errors (repaired, or found by `check`).
    pub errors: usize,
    /// Inputs not read (or not written).
    pub failed: usize,
    /// Inputs skipped on purpose.
    pub skipped: usize,
    /// Other files ignored.
    pub ignored: usize,
}

impl Totals {
    /// Counts one input read whose worst finding is `worst`.
    pub fn read(&mut self, worst: Option<Severity>) {
        self.inputs += 1;
        match worst {
            Some(Severity::Error) => self.errors += 1,
            Some(Severity::Warning) => self.warnings += 1,
            _ => self.ok += 1,
        }
    }

    /// Counts one input refused: failed, or skipped when it has no exit code.
    pub fn refused(&mut self, refused: &Refused) {
        self.inputs += 1;
        if refused.code.is_some() {
            self.failed += 1;
        } else {
            self.skipped += 1;
        }
    }

    /// Counts one input that failed.
    pub fn failed(&mut self) {
        self.inputs += 1;
        self.failed += 1;
    }

    /// The one total line (formats/cli.md, "The total line"): `kifu: 12 inputs: 9 ok, 1 with
    /// warnings, 1 repaired with errors, 1 failed, 0 skipped; 3 other files ignored`; `errors`
    /// names the third count (`repaired with errors`, or `with errors` for `check`).
    pub fn line(&self, errors: &str) -> String {
        let mut line = format!(
            "kifu: {} input{}: {} ok, {} with warnings, {} {errors}, {} failed, {} skipped",
            self.inputs,
            if self.inputs == 1 { "" } else { "s" },
            self.ok,
            self.warnings,
            self.errors,
            self.failed,
            self.skipped
        );
        if self.ignored > 0 {
            line.push_str(&format!(
                "; {} other file{} ignored",
                self.ignored,
                if self.ignored == 1 { "" } else { "s" }
            ));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_paths() {
        assert_eq!(slash_path(Path::new("a/b/c.sgf")), "a/b/c.sgf");
    }

    #[test]
    fn walk_picks_records_by_extension_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("x/y")).unwrap();
        std::fs::write(root.join("x/y/a.sgf"), "(;GM[1])").unwrap();
        std::fs::write(root.join("x/game.txt"), "(;GM[1];B[aa])").unwrap();
        std::fs::write(root.join("readme.txt"), "not a game").unwrap();
        std::fs::write(root.join("x/.kifu-zz.tmp"), "(;").unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        let err = find(std::slice::from_ref(&root), &opts).unwrap_err();
        assert!(matches!(err, BatchError::IsDirectory(_)));
        opts.recursive = true;
        let (found, ignored) = find(std::slice::from_ref(&root), &opts).unwrap();
        let mut rels: Vec<_> = found.iter().map(|f| slash_path(&f.rel)).collect();
        rels.sort(); // found in the folders' order; the plan sorts by path
        assert_eq!(rels, ["x/game.txt", "x/y/a.sgf"]);
        assert_eq!(ignored, 2);
        opts.exclude = vec![super::super::Glob::new("y").unwrap()];
        let (found, _) = find(std::slice::from_ref(&root), &opts).unwrap();
        assert_eq!(found.len(), 1);

        // The commands' walk: the same inputs, in path order, the same files ignored.
        let walk = WalkArgs { recursive: true, ..WalkArgs::default() };
        let mut inputs = Inputs::new(std::slice::from_ref(&root), walk.options(None, &Limits::default()).unwrap());
        let names: Vec<String> = inputs
            .by_ref()
            .map(|i| match i {
                Item::Input(i) => slash_path(Path::new(&i.name).strip_prefix(&root).unwrap()),
                Item::Refused(r) => panic!("{r:?}"),
            })
            .collect();
        assert_eq!(names, ["x/game.txt", "x/y/a.sgf"]);
        assert_eq!(inputs.ignored(), 2);
        assert!(inputs.several());
        // Without -r a folder is refused as a usage error, naming -r.
        let mut flat = Inputs::new(&[root], WalkOptions::default());
        match flat.next() {
            Some(Item::Refused(r)) => {
                assert_eq!(r.code, Some(ExitCode::Usage));
                assert!(r.diagnostic.message.contains("give -r"), "{}", r.diagnostic.message);
            }
            other => panic!("{other:?}"),
        }
    }

    /// A batch walk keeps no member's bytes; the run reads the archive once, when the first of
    /// its members is converted, and drops its bytes when the last one has taken its own.
    #[test]
    fn a_batch_run_holds_an_archive_only_while_its_members_are_converted() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let mut zip = zip::ZipWriter::new(std::fs::File::create(dir.path().join("g.zip")).unwrap());
        for (name, text) in [("a.sgf", "(;GM[1]PB[A])"), ("b.sgf", "(;GM[1]PB[B])"), ("c.txt", "hello")] {
            zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
        let mut opts = BatchOptions::new(Format::SGF);
        opts.recursive = true;
        let (found, ignored) = find(&[dir.path().to_path_buf()], &opts).unwrap();
        assert_eq!((found.len(), ignored), (2, 1));
        assert!(found.iter().all(|f| f.member.is_none()), "no bytes kept by the walk");
        let (archive, _) = found[0].archive.clone().unwrap();
        let held = |a: &Archive| a.state.lock().unwrap().0.is_some();
        archive.expect_one();
        archive.expect_one();
        assert!(!held(&archive));
        let inner: Vec<String> = found.iter().map(|f| f.archive.as_ref().unwrap().1.clone()).collect();
        assert_eq!(inner, ["a.sgf", "b.sgf"]);
        assert_eq!(archive.take("a.sgf").unwrap(), b"(;GM[1]PB[A])");
        assert!(held(&archive), "read once, for both members");
        archive.done(); // b.sgf is skipped without reading
        assert!(!held(&archive), "dropped after the last member");
    }

    #[test]
    fn the_total_line_counts_every_kind() {
        let mut t = Totals::default();
        t.read(None);
        t.read(Some(Severity::Warning));
        t.read(Some(Severity::Error));
        t.failed();
        t.refused(&Refused { name: "a".into(), diagnostic: Diagnostic::info("x.y", "z"), code: None });
        t.ignored = 1;
        assert_eq!(
            t.line("with errors"),
            "kifu: 5 inputs: 1 ok, 1 with warnings, 1 with errors, 1 failed, 1 skipped; 1 other file ignored"
        );
    }
}
