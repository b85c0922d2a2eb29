//! `kifu convert` over whole folders, run as a process: mirrored outputs, report records, exit
//! codes, determinism across thread counts, dry runs, resuming, and killed runs.

use pretty_assertions::assert_eq;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

fn fixtures() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("fixtures")
}

/// A small legal-looking game, different for every `i`.
fn game(i: usize, moves: usize) -> String {
    let letters = b"abcdefghijklmnopqrs";
    let mut s = format!("(;GM[1]FF[4]SZ[19]PB[Black {i}]PW[White {}]KM[6.5]RE[B+R]C[game {i}]", i * 7 % 13);
    for m in 0..moves {
        let k = (i * 31 + m * 17) % 361;
        let (x, y) = (letters[k % 19] as char, letters[k / 19] as char);
        s.push_str(&format!(";{}[{x}{y}]", if m % 2 == 0 { "B" } else { "W" }));
    }
    s.push(')');
    s
}

fn put(root: &Path, rel: &str, bytes: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Builds the test archive under `root/in`: `generated` games in nested folders, every fixture
/// (of every format), games written by every other format kifu both writes and reads, damaged
/// files, legacy charsets, name collisions, a multi-game file, a text file that is no game, and a
/// symbolic link. Returns how many inputs get a record and how many files are ignored.
fn archive(root: &Path, generated: usize) -> (usize, usize) {
    let input = root.join("in");
    for i in 0..generated {
        put(&input, &format!("club-{}/year-{}/game-{i:04}.sgf", i % 4, 2000 + i % 7), game(i, 40 + i % 50));
    }
    let (mut n, mut ignored) = (generated, 0);
    for e in walkdir::WalkDir::new(fixtures()).into_iter().map(|e| e.unwrap()).filter(|e| e.file_type().is_file()) {
        let bytes = std::fs::read(e.path()).unwrap();
        // by extension, except extensions other files share (.json): those need kifu's content
        let readable = kifu::Format::from_path(e.path()).is_some_and(|f| f.can_read() && !f.has_shared_extension());
        if readable || kifu::Format::sniff(&bytes).is_some() {
            n += 1;
        } else {
            ignored += 1;
        }
        put(&input, &format!("fixtures/{}", e.path().strip_prefix(fixtures()).unwrap().display()), bytes);
    }
    // the same games in every other format that kifu writes and reads (they join with the registry)
    let games = kifu::Format::SGF.read(format!("{}{}", game(1, 10), game(7, 30)).into_bytes(), &Default::default());
    let games = games.unwrap().collection;
    for f in kifu::Format::all().filter(|f| *f != kifu::Format::SGF && f.can_read() && f.can_write()) {
        let ext = f.extensions()[0];
        for (k, g) in games.games.iter().enumerate() {
            let one = kifu::Collection::new(vec![g.clone()]);
            if let Ok(w) = f.write(&one, &Default::default()) {
                let name = if k == 0 { format!("dup/x.{ext}") } else { format!("mixed/game.{ext}") };
                put(&input, &name, w.bytes);
                n += 1;
            }
        }
    }
    put(&input, "damaged/empty.sgf", "this is not a game record\n");
    put(&input, "damaged/truncated.sgf", "(;GM[1]SZ[9]PB[Cut];B[aa];W[bb]");
    let (kr, _, _) = encoding_rs::EUC_KR.encode("(;GM[1]CA[EUC-KR]SZ[19]PB[이세돌]PW[박정환];B[pd])");
    put(&input, "legacy/korean.sgf", kr);
    let (jp, _, _) = encoding_rs::SHIFT_JIS.encode("(;GM[1]CA[Shift_JIS]SZ[19]PB[本因坊秀策]PW[井上幻庵];B[qd])");
    put(&input, "legacy/japanese.sgf", jp);
    put(&input, "dup/x.sgf", game(1, 10));
    put(&input, "dup/x.txt", game(2, 10));
    put(&input, "multi/three.sgf", format!("{}{}{}", game(3, 5), game(4, 5), game(5, 5)));
    put(&input, "notes/readme.txt", "An archive of club games.\n");
    n += 7;
    ignored += 1;
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../dup/x.sgf", input.join("multi/link.sgf")).unwrap();
        n += 1;
    }
    (n, ignored)
}

fn run(args: &[&str], cwd: &Path) -> (i32, String) {
    let out = kifu().current_dir(cwd).arg("convert").args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stderr).unwrap())
}

fn report(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn by_input(records: &[Value]) -> BTreeMap<String, Value> {
    records
        .iter()
        .filter(|r| r["type"] == "file")
        .map(|r| (r["input"].as_str().unwrap().to_string(), r.clone()))
        .collect()
}

/// Every file under `dir`, relative path → bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(dir).unwrap().display().to_string(), std::fs::read(e.path()).unwrap()))
        .collect()
}

#[test]
fn mirrors_the_tree_and_reports_every_input() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (n, ignored) = archive(root, 300);
    let (code, stderr) = run(&["-r", "in", "-O", "out", "--report", "report.ndjson"], root);
    assert_eq!(code, 1, "a damaged file fails: {stderr}");
    let lines = report(&root.join("report.ndjson"));
    assert_eq!(lines.len(), n + 1);
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["inputs"], n);
    assert_eq!(summary["dry_run"], false);
    assert_eq!(summary["ignored"], ignored, "notes/readme.txt is no game");
    let records = by_input(&lines);
    // only the damaged file fails (and fixtures of other formats made to fail, if any)
    let failed: Vec<&String> = records.iter().filter(|(_, r)| r["status"] == "failed").map(|(k, _)| k).collect();
    assert_eq!(summary["status"]["failed"], failed.len());
    assert!(failed.contains(&&"in/damaged/empty.sgf".to_string()));
    assert!(failed.iter().all(|f| *f == "in/damaged/empty.sgf" || !f.starts_with("in/fixtures/sgf")), "{failed:?}");
    let formats = summary["formats"].as_object().unwrap();
    assert_eq!(formats.values().map(|v| v.as_u64().unwrap() as usize).sum::<usize>(), n);
    assert!(formats["sgf"].as_u64().unwrap() as usize > 300);
    for f in kifu::Format::all().filter(|f| *f != kifu::Format::SGF && f.can_read() && f.can_write()) {
        let r = &records[&format!("in/mixed/game.{}", f.extensions()[0])];
        assert_eq!((r["from"].as_str(), r["games"].as_u64()), (Some(f.name()), Some(1)), "{r}");
        assert_ne!(r["status"], "failed", "{r}");
        let x = &records[&format!("in/dup/x.{}", f.extensions()[0])];
        assert_eq!(x["diagnostics"][0]["code"], "batch.name-collision", "{x}");
    }
    // records are ordered by input path
    let inputs: Vec<&str> =
        lines.iter().filter(|r| r["type"] == "file").map(|r| r["input"].as_str().unwrap()).collect();
    let mut sorted = inputs.clone();
    sorted.sort_by_key(|s| PathBuf::from(s));
    assert_eq!(inputs, sorted);

    let r = &records["in/club-1/year-2005/game-0005.sgf"];
    assert_eq!((r["status"].as_str(), r["from"].as_str(), r["to"].as_str()), (Some("ok"), Some("sgf"), Some("sgf")));
    assert_eq!(r["output"], "out/club-1/year-2005/game-0005.sgf");
    assert_eq!(r["charset"]["name"], "UTF-8");
    let written = std::fs::read_to_string(root.join("out/club-1/year-2005/game-0005.sgf")).unwrap();
    assert!(written.starts_with("(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Black 5]"), "{written}");

    let failed = &records["in/damaged/empty.sgf"];
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["outputs"], serde_json::json!([]));
    let codes: Vec<&str> =
        failed["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"sgf.no-game"), "{codes:?}");
    assert!(!root.join("out/damaged/empty.sgf").exists());
    assert!(stderr.contains("in/damaged/empty.sgf:"), "{stderr}");

    let cut = &records["in/damaged/truncated.sgf"];
    assert_eq!(cut["status"], "repaired", "an error-level repair is not a warning");
    let d = cut["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "sgf.missing-close").unwrap();
    assert_eq!((d["stage"].as_str(), d["line"].as_u64()), (Some("read"), Some(1)));
    assert!(d["column"].as_u64().is_some_and(|c| c > 30), "{d}");

    let kr = &records["in/legacy/korean.sgf"];
    assert_eq!(kr["charset"], serde_json::json!({"name": "EUC-KR", "source": "declared"}));
    assert!(
        std::fs::read_to_string(root.join("out/legacy/korean.sgf"))
            .map_err(|e| format!("{e}: {kr}"))
            .unwrap()
            .contains("PB[이세돌]")
    );
    assert_eq!(records["in/legacy/japanese.sgf"]["charset"]["name"], "Shift_JIS");

    // a.sgf keeps its name; the other input aiming at it gets a reported alternative
    assert_eq!(records["in/dup/x.sgf"]["output"], "out/dup/x.sgf");
    let other = &records["in/dup/x.txt"];
    assert_eq!(other["output"], "out/dup/x-txt.sgf");
    assert_eq!(other["status"], "warnings");
    assert_eq!(other["diagnostics"][0]["code"], "batch.name-collision");
    assert!(stderr.contains("batch.name-collision"), "{stderr}");
    assert!(std::fs::read_to_string(root.join("out/dup/x-txt.sgf")).unwrap().contains("PB[Black 2]"));

    #[cfg(unix)]
    {
        let link = &records["in/multi/link.sgf"];
        assert_eq!(link["status"], "skipped");
        assert_eq!(link["diagnostics"][0]["code"], "batch.symlink");
        assert!(!root.join("out/multi/link.sgf").exists());
    }
    // every converted input has its output, and nothing else is in the output tree
    let out = files(&root.join("out"));
    let expected: Vec<String> = records
        .values()
        .flat_map(|r| r["outputs"].as_array().unwrap().iter().map(|o| o.as_str().unwrap()[4..].to_string()))
        .collect();
    assert_eq!(out.keys().cloned().collect::<Vec<_>>(), {
        let mut e = expected;
        e.sort();
        e
    });
    assert_eq!(summary["outputs"], out.len());
    assert!(stderr.contains(&format!("kifu: {n} inputs:")), "{stderr}");
    assert!(stderr.contains("files/s"), "{stderr}");
}

#[test]
fn thread_count_changes_neither_outputs_nor_report() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, 200);
    assert_eq!(run(&["-r", "in", "-O", "o1", "-j", "1", "--report", "r1"], root).0, 1);
    assert_eq!(run(&["-r", "in", "-O", "o4", "-j", "4", "--report", "r4"], root).0, 1);
    assert_eq!(files(&root.join("o1")), files(&root.join("o4")));
    let r1 = std::fs::read_to_string(root.join("r1")).unwrap();
    let r4 = std::fs::read_to_string(root.join("r4")).unwrap();
    assert_eq!(r1.replace("\"o1/", "\"o4/").replace(" o1/", " o4/"), r4);
}

#[test]
fn dry_run_writes_nothing_and_reports_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, 50);
    assert_eq!(run(&["-r", "in", "-O", "out", "--dry-run", "--report", "dry"], root).0, 1);
    assert!(!root.join("out").exists());
    assert_eq!(run(&["-r", "in", "-O", "out", "--report", "real"], root).0, 1);
    let dry = std::fs::read_to_string(root.join("dry")).unwrap();
    let real = std::fs::read_to_string(root.join("real")).unwrap();
    assert!(dry.contains("\"dry_run\":true"));
    assert_eq!(dry.replace("\"dry_run\":true", "\"dry_run\":false"), real);
}

#[test]
fn existing_outputs_are_refused_forced_or_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (n, _) = archive(root, 40);
    assert_eq!(run(&["-r", "in", "-O", "out", "--report", "first"], root).0, 1);
    let failed = report(&root.join("first")).last().unwrap()["status"]["failed"].as_u64().unwrap() as usize;
    let complete = files(&root.join("out"));
    // an interrupted run: some outputs missing, one left as the user edited it
    std::fs::remove_file(root.join("out/club-0/year-2000/game-0000.sgf")).unwrap();
    std::fs::remove_dir_all(root.join("out/legacy")).unwrap();
    std::fs::write(root.join("out/dup/x.sgf"), "edited").unwrap();

    let (code, stderr) = run(&["-r", "in", "-O", "out", "--report", "refused"], root);
    assert_eq!(code, 1);
    assert!(stderr.contains("batch.output-exists"), "{stderr}");
    assert_eq!(std::fs::read(root.join("out/dup/x.sgf")).unwrap(), b"edited");
    let refused = by_input(&report(&root.join("refused")));
    assert_eq!(refused["in/dup/x.sgf"]["status"], "failed");
    assert_eq!(refused["in/legacy/korean.sgf"]["status"], "ok", "missing outputs are still written");

    std::fs::remove_file(root.join("out/club-0/year-2000/game-0000.sgf")).unwrap();
    std::fs::remove_dir_all(root.join("out/legacy")).unwrap();
    let (code, _) = run(&["-r", "in", "-O", "out", "--skip-existing", "--report", "resumed"], root);
    assert_eq!(code, 1, "the damaged input still fails");
    let resumed = report(&root.join("resumed"));
    let summary = resumed.last().unwrap();
    assert_eq!(summary["outputs"], 3, "only the three missing outputs are written");
    assert_eq!(summary["status"]["skipped"].as_u64().unwrap() as usize, n - failed - 3);
    assert_eq!(by_input(&resumed)["in/dup/x.sgf"]["diagnostics"][0]["code"], "batch.skipped-existing");
    assert_eq!(std::fs::read(root.join("out/dup/x.sgf")).unwrap(), b"edited");
    let mut now = files(&root.join("out"));
    now.insert("dup/x.sgf".into(), complete["dup/x.sgf"].clone());
    assert_eq!(now, complete);

    // a rerun with --skip-existing writes nothing
    let (_, _) = run(&["-r", "in", "-O", "out", "--skip-existing", "--report", "again"], root);
    assert_eq!(report(&root.join("again")).last().unwrap()["outputs"], 0);

    assert_eq!(run(&["-r", "in", "-O", "out", "--force"], root).0, 1);
    assert_eq!(files(&root.join("out")), complete);
    // --force and --skip-existing contradict each other
    assert_eq!(run(&["-r", "in", "-O", "out", "--force", "--skip-existing"], root).0, 2);
}

#[test]
fn an_unwritable_destination_fails_its_files_and_the_rest_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, 40);
    // a file where a folder is needed fails even for root, unlike a read-only folder
    put(root, "out/club-2", "in the way");
    let (code, stderr) = run(&["-r", "in", "-O", "out", "--report", "rep"], root);
    assert_eq!(code, 1);
    let records = by_input(&report(&root.join("rep")));
    let r = &records["in/club-2/year-2002/game-0002.sgf"];
    assert_eq!(r["status"], "failed");
    assert_eq!(r["diagnostics"].as_array().unwrap().last().unwrap()["code"], "batch.cannot-write");
    assert!(stderr.contains("batch.cannot-write"));
    assert_eq!(records["in/club-1/year-2001/game-0001.sgf"]["status"], "ok");
    assert!(root.join("out/club-1/year-2001/game-0001.sgf").exists());
}

#[cfg(unix)]
#[test]
fn a_read_only_destination_folder_fails_its_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, 12);
    let locked = root.join("out/club-3/year-2003");
    std::fs::create_dir_all(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(locked.join("probe"), "x").is_ok() {
        eprintln!("note: running with privileges that ignore folder permissions; read-only case skipped");
        return;
    }
    let (code, _) = run(&["-r", "in", "-O", "out", "--report", "rep"], root);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code, 1);
    let records = by_input(&report(&root.join("rep")));
    assert_eq!(records["in/club-3/year-2003/game-0003.sgf"]["status"], "failed");
    assert_eq!(records["in/club-3/year-2003/game-0003.sgf"]["diagnostics"][0]["code"], "batch.cannot-write");
    assert_eq!(records["in/club-1/year-2001/game-0001.sgf"]["status"], "ok");
    assert_eq!(std::fs::read_dir(&locked).unwrap().count(), 0);
}

#[test]
fn strict_turns_warnings_into_exit_code_3() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "in/a.sgf", game(1, 20));
    put(root, "in/b.sgf", "(;GM[1];B[aa]");
    assert_eq!(run(&["-r", "in", "-O", "out"], root).0, 0);
    assert_eq!(run(&["-r", "in", "-O", "out2", "--strict"], root).0, 3);
    assert!(root.join("out2/b.sgf").exists(), "--strict still writes, like a single conversion");
    std::fs::remove_file(root.join("in/b.sgf")).unwrap();
    assert_eq!(run(&["-r", "in", "-O", "out3", "--strict", "-q"], root), (0, String::new()));
}

#[test]
fn split_and_merge_collections() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "in/multi/three.sgf", format!("{}{}{}", game(3, 5), game(4, 5), game(5, 5)));
    put(root, "in/one.sgf", game(6, 5));
    assert_eq!(run(&["-r", "in", "-O", "out", "--split", "--report", "rep"], root).0, 0);
    let out = files(&root.join("out"));
    assert_eq!(
        out.keys().collect::<Vec<_>>(),
        ["multi/three-001.sgf", "multi/three-002.sgf", "multi/three-003.sgf", "one.sgf"]
    );
    assert!(String::from_utf8_lossy(&out["multi/three-002.sgf"]).contains("PB[Black 4]"));
    let rec = by_input(&report(&root.join("rep")));
    assert_eq!(rec["in/multi/three.sgf"]["games"], 3);
    assert_eq!(rec["in/multi/three.sgf"]["outputs"].as_array().unwrap().len(), 3);

    // a split name that is another input's output is renamed, whatever the thread count
    put(root, "in/multi/three-002.sgf", game(9, 5));
    for j in ["1", "4"] {
        let out = format!("split-{j}");
        assert_eq!(run(&["-r", "in", "-O", &out, "--split", "-j", j, "--report", &format!("{out}.rep")], root).0, 0);
        let names: Vec<String> = files(&root.join(&out)).into_keys().collect();
        assert_eq!(
            names,
            ["multi/three-001.sgf", "multi/three-002-2.sgf", "multi/three-002.sgf", "multi/three-003.sgf", "one.sgf"]
        );
        let three = &by_input(&report(&root.join(format!("{out}.rep"))))["in/multi/three.sgf"];
        assert_eq!(three["diagnostics"][0]["code"], "batch.name-collision");
        assert!(std::fs::read_to_string(root.join(&out).join("multi/three-002.sgf")).unwrap().contains("Black 9"));
    }
    std::fs::remove_file(root.join("in/multi/three-002.sgf")).unwrap();

    assert_eq!(run(&["-r", "in", "--merge", "all.sgf", "--report", "m"], root).0, 0);
    let all = std::fs::read_to_string(root.join("all.sgf")).unwrap();
    let order: Vec<usize> = ["Black 3", "Black 4", "Black 5", "Black 6"].iter().map(|p| all.find(p).unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "games in input-path order");
    let lines = report(&root.join("m"));
    let merge = lines.iter().find(|l| l["type"] == "merge").unwrap();
    assert_eq!((merge["inputs"].as_u64(), merge["games"].as_u64()), (Some(2), Some(4)));
    assert_eq!(lines.last().unwrap()["outputs"], 1);
    // an identical merged file is unchanged; a different one is refused, or kept with --skip-existing
    assert_eq!(run(&["-r", "in", "--merge", "all.sgf"], root).0, 0);
    std::fs::write(root.join("all.sgf"), "(;GM[1]PB[someone else])").unwrap();
    assert_eq!(run(&["-r", "in", "--merge", "all.sgf"], root).0, 1);
    assert_eq!(run(&["-r", "in", "--merge", "all.sgf", "--skip-existing", "--report", "m2"], root).0, 0);
    let lines = report(&root.join("m2"));
    assert_eq!(lines.iter().find(|l| l["type"] == "merge").unwrap()["status"], "skipped");
    assert_eq!(lines.last().unwrap()["outputs"], 0);
}

#[test]
fn never_writes_into_the_input_tree_unless_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "in/a.sgf", game(1, 5));
    put(root, "in/b.txt", game(2, 5));
    let (code, stderr) = run(&["-r", "in", "-O", "in/converted"], root);
    assert_eq!(code, 2);
    assert!(stderr.contains("--in-place"), "{stderr}");
    // No destination: the games go to standard output, and nothing is written in the tree.
    let out = kifu().current_dir(root).args(["convert", "-r", "in"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.find("PB[Black 1]").unwrap() < text.find("PB[Black 2]").unwrap(), "{text}");
    assert!(!root.join("in/b.sgf").exists());
    // in place: b.txt → b.sgf beside it; a.sgf would overwrite itself and is refused
    let (code, stderr) = run(&["-r", "in", "--in-place", "--report", "rep"], root);
    assert_eq!(code, 1);
    assert!(stderr.contains("batch.output-is-input"), "{stderr}");
    assert_eq!(std::fs::read_to_string(root.join("in/a.sgf")).unwrap(), game(1, 5));
    assert!(std::fs::read_to_string(root.join("in/b.sgf")).unwrap().contains("PB[Black 2]"));
    // an output folder inside the input with --in-place is not walked on the next run
    let (code, stderr) = run(&["-r", "in", "--in-place", "-O", "in/conv", "--report", "r1"], root);
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = run(&["-r", "in", "--in-place", "-O", "in/conv", "--skip-existing", "--report", "r2"], root);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report(&root.join("r1")).last().unwrap()["inputs"], 3);
    assert_eq!(report(&root.join("r2")).last().unwrap()["inputs"], 3);
    // nor is a merged file of an earlier run
    assert_eq!(run(&["-r", "in", "--merge", "in/all.sgf", "--in-place"], root).0, 0);
    assert_eq!(run(&["-r", "in", "--merge", "in/all.sgf", "--in-place", "--force", "--report", "r3"], root).0, 0);
    let r3 = report(&root.join("r3"));
    assert_eq!(r3.last().unwrap()["inputs"], 6, "a.sgf, b.sgf, b.txt and the three in conv/");
    assert!(r3.iter().all(|l| l["input"] != "in/all.sgf"));
    assert_eq!(r3.iter().find(|l| l["type"] == "merge").unwrap()["games"], 6);
    // several named files; -o is refused for them
    assert_eq!(run(&["in/a.sgf", "in/b.txt", "-o", "x.sgf"], root).0, 2);
    assert_eq!(run(&["in/a.sgf", "in/b.txt", "-O", "named"], root).0, 0);
    assert_eq!(files(&root.join("named")).len(), 2);
    assert_eq!(run(&["in", "-O", "o"], root).0, 2, "a folder needs -r");
    assert_eq!(run(&["missing.sgf", "-O", "o"], root).0, 66);
}

#[test]
fn include_and_exclude_globs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, 20);
    let (code, _) = run(&["-r", "in", "-O", "out", "--include", "club-*/**", "--exclude", "year-2003"], root);
    assert_eq!(code, 0);
    let out = files(&root.join("out"));
    assert_eq!(out.len(), 20 - 3, "games 3, 10 and 17 are in year-2003");
    assert!(out.keys().all(|k| k.starts_with("club-") && !k.contains("year-2003")));
    assert_eq!(run(&["-r", "in", "-O", "o2", "--include", "[x"], root).0, 2);
}

#[test]
fn a_killed_run_leaves_no_partial_outputs_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    archive(root, 1500);
    assert_eq!(run(&["-r", "in", "-O", "complete", "-j", "1"], root).0, 1);
    let complete = files(&root.join("complete"));
    let bin = assert_cmd::cargo::cargo_bin!("kifu");
    for wait_for in [1, 400] {
        let out = format!("out-{wait_for}");
        let mut child = std::process::Command::new(bin)
            .current_dir(root)
            .args(["convert", "-r", "in", "-O", &out, "-j", "2", "-q"])
            .spawn()
            .unwrap();
        // kill it once it has written `wait_for` files (or when it ends on its own)
        while child.try_wait().unwrap().is_none() {
            let done = walkdir::WalkDir::new(root.join(&out)).into_iter().filter_map(Result::ok).count();
            if done > wait_for {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let _ = child.kill();
        let _ = child.wait();
        let partial = files(&root.join(&out));
        if wait_for == 1 {
            assert!(partial.len() < complete.len(), "the run was stopped part-way");
        }
        for (rel, bytes) in &partial {
            let name = rel.rsplit('/').next().unwrap();
            if name.starts_with(".kifu-") && name.ends_with(".tmp") {
                continue; // a temporary file of a killed writer: never under an output's name
            }
            assert_eq!(Some(bytes), complete.get(rel), "{rel} is complete");
        }
        assert_eq!(run(&["-r", "in", "-O", &out, "--skip-existing", "-q"], root).0, 1);
        // the resumed run also removed the temporary files the killed one left in its folders
        assert_eq!(files(&root.join(&out)), complete);
    }
}

#[test]
fn shared_samples_convert_without_failures() {
    let shared = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("../shared/samples");
    if !shared.is_dir() {
        eprintln!("note: {} is absent; skipping", shared.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rep = dir.path().join("rep");
    let out = kifu()
        .args(["convert", "-r"])
        .arg(&shared)
        .arg("-O")
        .arg(dir.path().join("out"))
        .arg("--report")
        .arg(&rep)
        .output()
        .unwrap();
    let lines = report(&rep);
    let summary = lines.last().unwrap();
    // every sample of a format kifu reads today gets a record, and none fails
    let readable = walkdir::WalkDir::new(&shared)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && kifu::Format::from_path(e.path()).is_some_and(|f| f.can_read()))
        .count();
    assert!(readable > 0);
    assert!(summary["inputs"].as_u64().unwrap() as usize >= readable);
    // the charset each record reports agrees with the verified one in EXPECTED.tsv (GB2312 is
    // decoded as a superset; pure ASCII reads the same in any ASCII-compatible charset)
    let expected = std::fs::read_to_string(shared.join("EXPECTED.tsv")).unwrap_or_default();
    let charsets: BTreeMap<&str, &str> = expected
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.get(1) == Some(&"CHARSET")).then(|| (f[0], f.get(2).copied().unwrap_or("")))
        })
        .collect();
    let mut compared = 0;
    for r in lines.iter().filter(|l| l["type"] == "file") {
        assert_ne!(r["status"], "failed", "{r}");
        let input = r["input"].as_str().unwrap();
        let rel = Path::new(input).strip_prefix(&shared).unwrap().display().to_string();
        let (Some(want), Some(got)) = (charsets.get(rel.as_str()), r["charset"]["name"].as_str()) else { continue };
        let name = want.split([';', ' ']).next().unwrap();
        match name {
            "ASCII" => {}
            // GB2312 is decoded as a superset: GBK, or GB18030 for GIB's China flavour.
            "GB2312" => assert!(got == "GBK" || got == "gb18030", "{rel}: {got}"),
            _ => assert_eq!(got, name, "{rel}"),
        }
        if want.contains("with BOM") {
            assert_eq!(r["charset"]["source"], "bom", "{rel}");
        }
        compared += 1;
    }
    assert!(compared > 0 || charsets.is_empty(), "EXPECTED.tsv has charsets for the samples kifu reads");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn json_files_of_other_kinds_are_ignored_not_failed() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    put(&src, "package.json", r#"{"name": "not-a-game", "version": "1.0.0"}"#);
    put(&src, "game.sgf", game(1, 10));
    let (code, _) = run(&["-q", "-r", "src", "-O", "json", "-t", "json"], dir.path());
    assert_eq!(code, 0);
    put(&src, "kifu.json", std::fs::read(dir.path().join("json/game.json")).unwrap());
    let (code, _) = run(&["-q", "-r", "src", "-O", "out", "--report", "r.ndjson"], dir.path());
    assert_eq!(code, 0);
    let records = report(&dir.path().join("r.ndjson"));
    let inputs: Vec<&str> =
        records.iter().filter(|r| r["type"] == "file").map(|r| r["input"].as_str().unwrap()).collect();
    assert_eq!(inputs.len(), 2, "{inputs:?}");
    assert!(inputs.iter().all(|i| !i.ends_with("package.json")), "{inputs:?}");
    assert_eq!(records.last().unwrap()["ignored"], 1);
}
