//! Finding the inputs: files named on the command line, and game records under walked folders.

use super::{BatchError, BatchOptions, codes};
use crate::members::Item;
use kifu::archive::{Container, detect};
use kifu::diag::{Diagnostic, Severity};
use kifu::formats::Format;
use kifu::output::is_temp_name;
use std::path::{Path, PathBuf};

/// What the walk decided about one path.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// Convert it; the format when already known (by `-f` or extension).
    Convert(Option<Format>),
    /// Record it as skipped for this reason.
    Skip(Diagnostic),
    /// Record it as failed for this reason.
    Fail(Diagnostic),
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
    /// `archive.zip/inner/path`).
    pub member: Option<Vec<u8>>,
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

/// The members of the archive `input` (at `rel`) as inputs: records to convert, refusals to
/// report; members that are not records counted in `ignored`. An archive that cannot be opened,
/// or stops early (damaged, past a limit), is itself a failed input.
fn expand(
    input: &Path,
    rel: &Path,
    kind: Container,
    options: &BatchOptions,
    found: &mut Vec<Found>,
    ignored: &mut usize,
) {
    let shown = input.to_str().map_or_else(|| input.display().to_string(), str::to_owned);
    let at = |inner: &str| {
        let mut rel = rel.to_path_buf();
        rel.extend(inner.split('/'));
        rel
    };
    let fail = |d: Diagnostic| Found {
        input: input.to_path_buf(),
        rel: rel.to_path_buf(),
        verdict: Verdict::Fail(d),
        named: false,
        member: None,
    };
    let opened = match crate::members::open(input, &shown, kind, options.from, &options.read.limits) {
        Ok(o) => o,
        Err(e) => {
            found.push(fail(Diagnostic::error(codes::CANNOT_READ, format!("cannot read {shown}: {e}"))));
            return;
        }
    };
    *ignored += opened.ignored;
    for item in opened.items {
        found.push(match item {
            Item::Record { name, inner, format, bytes } => Found {
                input: PathBuf::from(name),
                rel: at(&inner),
                verdict: Verdict::Convert(Some(format)),
                named: false,
                member: Some(bytes),
            },
            Item::Refused { name, inner, diagnostic } => {
                // A refused path is not joined to anything: its output is never planned.
                let verdict = match diagnostic.severity {
                    Severity::Error => Verdict::Fail(diagnostic),
                    _ => Verdict::Skip(diagnostic),
                };
                let rel = if kifu::archive::safe_path(&inner).is_ok() { at(&inner) } else { rel.to_path_buf() };
                Found { input: PathBuf::from(name), rel, verdict, named: false, member: None }
            }
        });
    }
    if let Some(d) = opened.error {
        found.push(fail(d));
    }
}

/// Walks `inputs`; returns what was found (in the order the folders list their entries; the
/// plan sorts by path) and how many files were ignored.
pub(crate) fn find(inputs: &[PathBuf], options: &BatchOptions) -> Result<(Vec<Found>, usize), BatchError> {
    let mut found = Vec::new();
    let mut ignored = 0;
    let skip_dir = options.out_dir.as_ref().and_then(|d| std::fs::canonicalize(d).ok());
    for root in inputs {
        let meta = std::fs::metadata(root).map_err(|e| BatchError::NoInput(root.clone(), e))?;
        if !meta.is_dir() {
            let rel = root.file_name().map_or_else(|| root.clone(), PathBuf::from);
            if let Some(kind) = meta.is_file().then(|| crate::members::container(root)).flatten() {
                expand(root, &rel, kind, options, &mut found, &mut ignored);
                continue;
            }
            let format = options.from.or_else(|| Format::from_path(root).filter(|f| f.can_read()));
            found.push(Found {
                input: root.clone(),
                rel,
                verdict: Verdict::Convert(format),
                named: true,
                member: None,
            });
            continue;
        }
        if !options.recursive {
            return Err(BatchError::IsDirectory(root.clone()));
        }
        let excluded = |rel: &Path| {
            let s = slash_path(rel);
            options.exclude.iter().any(|g| g.matches(&s))
        };
        // Unsorted: the plan sorts every input by path (walkdir's sorting took a file name out of
        // each path at every comparison).
        let walker = walkdir::WalkDir::new(root).follow_links(options.follow_symlinks).into_iter().filter_entry(|e| {
            if e.depth() == 0 || !e.file_type().is_dir() {
                return true;
            }
            let rel = e.path().strip_prefix(root).unwrap_or(e.path());
            // Never walk into the output folder (possible with --in-place), nor excluded ones.
            let is_out = skip_dir.is_some() && std::fs::canonicalize(e.path()).ok() == skip_dir;
            !(excluded(rel) || is_out)
        });
        for entry in walker {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let input = e.path().map_or_else(|| root.clone(), Path::to_path_buf);
                    let rel = input.strip_prefix(root).map_or_else(|_| input.clone(), Path::to_path_buf);
                    let d = Diagnostic::error(codes::WALK_ERROR, format!("cannot walk {}: {e}", input.display()));
                    found.push(Found { input, rel, verdict: Verdict::Fail(d), named: false, member: None });
                    continue;
                }
            };
            let ft = entry.file_type();
            if ft.is_dir() {
                continue;
            }
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
            let name = entry.file_name().to_string_lossy();
            // The slash form only when some glob is to match it.
            let globs = !(options.include.is_empty() && options.exclude.is_empty());
            let s = if globs { slash_path(&rel) } else { String::new() };
            let included = options.include.is_empty() || options.include.iter().any(|g| g.matches(&s));
            if is_temp_name(&name) || !included || options.exclude.iter().any(|g| g.matches(&s)) {
                ignored += 1;
                continue;
            }
            if ft.is_symlink() {
                let d = Diagnostic::info(codes::SYMLINK, "symbolic link not followed (give --follow-symlinks)");
                found.push(Found {
                    input: path.to_path_buf(),
                    rel,
                    verdict: Verdict::Skip(d),
                    named: false,
                    member: None,
                });
                continue;
            }
            if !ft.is_file() {
                ignored += 1;
                continue;
            }
            match recognise(path) {
                Some(Kind::Record(f)) => {
                    let verdict = Verdict::Convert(Some(options.from.unwrap_or(f)));
                    found.push(Found { input: path.to_path_buf(), rel, verdict, named: false, member: None });
                }
                Some(Kind::Archive(kind)) => expand(path, &rel, kind, options, &mut found, &mut ignored),
                None => ignored += 1,
            }
        }
    }
    Ok((found, ignored))
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
        let (found, _) = find(&[root], &opts).unwrap();
        assert_eq!(found.len(), 1);
    }
}
