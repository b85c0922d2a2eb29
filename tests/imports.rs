//! Imports run one way: no two sibling modules of `src/` use each other, directly or round a
//! longer cycle (docs/architecture.md, "Conventions"). The test reads the sources: every
//! `crate::…`, `super::…` and `self::…` path outside comments and `#[cfg(test)]` modules is
//! resolved to the module it names, and an edge is drawn between the two children of the
//! modules' nearest common ancestor (`formats::gib::header` using `formats::gib::map::build` is
//! `header → map` under `formats::gib`; `stream::convert` using `crate::reader::run` is
//! `stream → reader`). A child using its parent's own items, or a parent its children's, draws no
//! edge. The library (`src/`) and the command (`cli/src/`, package kifu-cli) are two graphs.
//!
//! Beside it, the rest of the architecture that a test can hold: the library depends on no crate
//! of the command, its heavy parts are features, and no code outside the format registry asks
//! which format it has.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path: `["formats", "gib", "header"]`; the crate root is empty.
type ModPath = Vec<String>;

/// Every `.rs` file of a crate whose root file is `root`, by module path.
fn modules(src: &Path, root: &str, skip: &[&str]) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(src).into_iter().filter_map(Result::ok) {
        let p = e.path();
        let rel = p.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
        if !rel.ends_with(".rs") || skip.iter().any(|s| rel == *s || rel.starts_with(&format!("{s}/"))) {
            continue;
        }
        let mut path: ModPath = rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
        if rel == root {
            path.clear();
        } else if path.last().is_some_and(|l| l == "mod") {
            path.pop();
        }
        out.insert(path, p.to_path_buf());
    }
    out
}

/// The code of a file without comments, string contents and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut skip_depth: Option<usize> = None;
    let mut depth = 0usize;
    let mut pending_test = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        if t.starts_with("#[cfg(test)]") {
            pending_test = true;
            continue;
        }
        let opens = line.matches('{').count();
        let closes = line.matches('}').count();
        if pending_test && skip_depth.is_none() {
            skip_depth = Some(depth);
        }
        pending_test = false;
        depth = (depth + opens).saturating_sub(closes);
        if let Some(d) = skip_depth {
            if depth <= d && (opens > 0 || closes > 0 || t.ends_with(';')) {
                skip_depth = None;
            }
            continue;
        }
        // Drop string literals (paths in messages are not imports) and trailing comments.
        let mut clean = String::new();
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str {
                clean.push(c);
            }
            prev = if prev == '\\' && c == '\\' { ' ' } else { c };
        }
        if let Some(i) = clean.find("//") {
            clean.truncate(i);
        }
        out.push_str(&clean);
        out.push('\n');
    }
    out
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else { return vec![tree.split(" as ").next().unwrap().trim().to_string()] };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut level, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => level += 1,
            '}' => level -= 1,
            ',' if level == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).flat_map(expand).map(|p| format!("{prefix}{p}")).collect()
}

/// The module paths (as written) used by `code`: `use` trees and inline `crate::`/`super::` paths.
fn used_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let flat = code.replace('\n', " ");
    for stmt in flat.split(';') {
        let s = stmt.trim();
        let s = s
            .strip_prefix("pub(crate) ")
            .or_else(|| s.strip_prefix("pub(super) "))
            .or_else(|| s.strip_prefix("pub "))
            .unwrap_or(s);
        if let Some(tree) = s.strip_prefix("use ") {
            out.extend(expand(tree));
        }
    }
    let bytes = flat.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = flat[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':') {
                continue;
            }
            let end = flat[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(flat.len(), |e| e + i);
            out.push(flat[i..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// Resolves a written path used in module `at` to an absolute path of segments.
fn resolve(at: &ModPath, written: &str) -> Option<ModPath> {
    let segs: Vec<&str> = written.split("::").filter(|s| !s.is_empty()).collect();
    let (mut base, rest) = match *segs.first()? {
        "crate" => (Vec::new(), &segs[1..]),
        "self" => (at.clone(), &segs[1..]),
        "super" => {
            let ups = segs.iter().take_while(|s| **s == "super").count();
            let mut b = at.clone();
            for _ in 0..ups {
                b.pop()?;
            }
            (b, &segs[ups..])
        }
        _ => return None,
    };
    base.extend(rest.iter().map(|s| s.to_string()));
    Some(base)
}

/// Sibling edges `parent → (from child → to child)` of one crate.
fn edges(mods: &BTreeMap<ModPath, PathBuf>) -> BTreeMap<ModPath, BTreeSet<(String, String)>> {
    let mut out: BTreeMap<ModPath, BTreeSet<(String, String)>> = BTreeMap::new();
    for (at, file) in mods {
        let text = std::fs::read_to_string(file).unwrap();
        for written in used_paths(&code(&text)) {
            let Some(target) = resolve(at, &written) else { continue };
            let common = at.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common >= at.len() || common >= target.len() {
                continue; // a parent and its descendant
            }
            let parent: ModPath = at[..common].to_vec();
            let (from, to) = (&at[common], &target[common]);
            let mut sibling = parent.clone();
            sibling.push(to.clone());
            if mods.contains_key(&sibling) {
                out.entry(parent).or_default().insert((from.clone(), to.clone()));
            }
        }
    }
    out
}

/// Every cycle among the children of one parent, each as its modules in order.
fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let mut found = BTreeSet::new();
    let next = |n: &str| -> Vec<String> { edges.iter().filter(|(a, _)| a == n).map(|(_, b)| b.clone()).collect() };
    for (start, _) in edges {
        // Depth-first from `start`, looking for a way back to it.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((n, path)) = stack.pop() {
            for m in next(&n) {
                if &m == start {
                    let mut cycle = path.clone();
                    let min = cycle.iter().enumerate().min_by_key(|(_, s)| (*s).clone()).unwrap().0;
                    cycle.rotate_left(min);
                    found.insert(cycle);
                } else if !path.contains(&m) && path.len() < 8 {
                    let mut p = path.clone();
                    p.push(m.clone());
                    stack.push((m, p));
                }
            }
        }
    }
    found.into_iter().collect()
}

fn check(mods: &BTreeMap<ModPath, PathBuf>) -> Vec<String> {
    let mut problems = Vec::new();
    for (parent, e) in edges(mods) {
        for cycle in cycles(&e) {
            let under = if parent.is_empty() { "the crate root".to_string() } else { parent.join("::") };
            problems.push(format!("under {under}: {} → {}", cycle.join(" → "), cycle[0]));
        }
    }
    problems
}

#[test]
fn no_two_sibling_modules_use_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = modules(&root.join("src"), "lib.rs", &[]);
    assert!(library.contains_key(&vec!["reader".to_string()]) && library.len() > 40, "{}", library.len());
    let command = modules(&root.join("cli/src"), "main.rs", &[]);
    assert!(command.contains_key(&vec!["batch".to_string()]), "{:?}", command.keys().collect::<Vec<_>>());
    let mut problems = check(&library);
    problems.extend(check(&command).into_iter().map(|p| format!("command: {p}")));
    assert!(problems.is_empty(), "modules that use each other:\n{}", problems.join("\n"));
}

/// The `[dependencies]` table of a manifest: (crate name, whether optional).
fn dependencies(manifest: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, spec)) = line.split_once('=') {
                out.push((name.trim().to_string(), spec.contains("optional = true")));
            }
        }
    }
    out
}

#[test]
fn the_library_carries_no_command_and_its_heavy_parts_are_features() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let deps = dependencies(&manifest);
    assert!(deps.iter().any(|(n, _)| n == "encoding_rs"), "{deps:?}");
    for command_only in ["clap", "clap_complete", "clap_mangen", "indicatif", "ctrlc", "anstyle", "walkdir"] {
        assert!(!deps.iter().any(|(n, _)| n == command_only), "the library depends on {command_only}");
    }
    for heavy in ["resvg", "dejavu", "skrifa", "rayon", "serde", "serde_json", "zip", "tar", "flate2"] {
        assert!(deps.iter().any(|(n, optional)| n == heavy && *optional), "{heavy} is not behind a feature");
    }
}

#[test]
fn only_the_registry_asks_which_format_it_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["src", "cli/src", "python/src"] {
        for e in walkdir::WalkDir::new(root.join(dir)).into_iter().filter_map(Result::ok) {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if !rel.ends_with(".rs") || rel.starts_with("src/formats/") {
                continue;
            }
            for (i, line) in code(&std::fs::read_to_string(p).unwrap()).lines().enumerate() {
                if line.contains("== Format::") || line.contains("!= Format::") {
                    found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "format comparisons outside src/formats (make it a registry field):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checker_sees_uses_and_cycles() {
    let text = "use super::map;\nuse crate::{output::{Existing, write_output}, formats::Format};\n\
                // use super::header;\nfn f() { let _ = \"super::header\"; super::fields::int(None); }\n\
                #[cfg(test)]\nmod tests {\n    use super::header;\n}\n";
    let used = used_paths(&code(text));
    for want in [
        "super::map",
        "crate::output::Existing",
        "crate::output::write_output",
        "crate::formats::Format",
        "super::fields::int",
    ] {
        assert!(used.iter().any(|u| u == want), "{want} in {used:?}");
    }
    assert!(!used.iter().any(|u| u.contains("header")), "{used:?}");
    let at: ModPath = vec!["formats".into(), "gib".into(), "header".into()];
    assert_eq!(resolve(&at, "super::map::build").unwrap(), ["formats", "gib", "map", "build"]);
    assert_eq!(resolve(&at, "super::super::legacy").unwrap(), ["formats", "legacy"]);
    let e: BTreeSet<(String, String)> = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "c")]
        .iter()
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect();
    assert_eq!(cycles(&e), [vec!["a", "b", "c"], vec!["c", "d"]]);
}
