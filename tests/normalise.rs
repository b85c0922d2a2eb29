//! Normalisation after reading (`formats/normalise.md`): one authored fixture per repair family
//! with its expected output and diagnostics, the real samples in ../shared that show each
//! dialect, and the zero-error property over ../shared/corpus (skips when ../shared is absent).
//!
//! `KIFU_BLESS=1 cargo test --test normalise` rewrites the expected files (review the diff).

mod common;
use common::{files, shared};
use kifu::{Diagnostic, Format, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> Vec<PathBuf> {
    files(&manifest().join("fixtures/sgf/normalise"), &["sgf"])
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".expected.sgf"))
        .collect()
}

fn read(bytes: Vec<u8>, no_repair: bool) -> kifu::ReadOutput {
    Format::SGF.read(bytes, &ReadOptions::default().with_no_repair(no_repair)).expect("readable SGF")
}

fn write(read: &kifu::ReadOutput) -> String {
    String::from_utf8(Format::SGF.write(&read.collection, &WriteOptions::default()).unwrap().bytes).unwrap()
}

fn fixes(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.code.starts_with("fix.")).collect()
}

#[test]
fn fixtures_normalise_to_their_expected_output_and_diagnostics() {
    let bless = std::env::var_os("KIFU_BLESS").is_some();
    let all = fixtures();
    assert!(all.len() >= 7, "one fixture per repair family");
    let mut seen = std::collections::BTreeSet::new();
    for f in all {
        let r = read(std::fs::read(&f).unwrap(), false);
        let out = write(&r);
        let diags: String = r.diagnostics.iter().map(|d| format!("{d}\n")).collect();
        let (out_path, diag_path) = (f.with_extension("expected.sgf"), f.with_extension("expected.txt"));
        if bless {
            std::fs::write(&out_path, &out).unwrap();
            std::fs::write(&diag_path, &diags).unwrap();
        }
        assert_eq!(out, std::fs::read_to_string(&out_path).unwrap(), "{}", f.display());
        assert_eq!(diags, std::fs::read_to_string(&diag_path).unwrap(), "{}", f.display());
        // Every repair has a place; repairs below the root name their move.
        for d in fixes(&r.diagnostics) {
            assert!(d.position.is_some(), "{}: {d}", f.display());
            seen.insert(d.code);
        }
        // Idempotent: the output reads back with no repair to make and writes the same bytes.
        let again = read(out.clone().into_bytes(), false);
        let changes: Vec<&Diagnostic> = fixes(&again.diagnostics)
            .into_iter()
            .filter(|d| !kifu::normalise::codes::REPORT_ONLY.contains(&d.code))
            .collect();
        assert_eq!(changes, Vec::<&Diagnostic>::new(), "{}", f.display());
        assert_eq!(write(&again), out, "{}", f.display());
    }
    let missing: Vec<&&str> = kifu::normalise::codes::ALL.iter().filter(|c| !seen.contains(**c)).collect();
    assert!(missing.is_empty(), "codes no fixture shows: {missing:?}");
}

#[test]
fn inline_variations_make_the_real_game_the_main_line() {
    let text = std::fs::read(manifest().join("fixtures/sgf/normalise/inline-variations.sgf")).unwrap();
    let before = read(text.clone(), true);
    let after = read(text, false);
    let moves = |r: &kifu::ReadOutput| r.collection.games[0].main_line_moves();
    assert!(moves(&before) < 20, "the reader alone gives a short main line: {}", moves(&before));
    assert_eq!(moves(&after), 120);
    assert_eq!(fixes(&after.diagnostics).len(), 3);
    // The repaired game replays: no error and no same-colour warning on any path.
    let out = write(&after);
    let back =
        Format::SGF.read(out.into_bytes(), &ReadOptions::default().with_positions(true).with_no_repair(true)).unwrap();
    let report = kifu::check::check_collection(&back.collection, &back.diagnostics);
    let bad: Vec<String> =
        report.diagnostics().filter(|d| d.severity >= Severity::Warning).map(|d| d.to_string()).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    // Side lines hang where they were written.
    let tree = &after.collection.games[0];
    let branching: Vec<usize> = tree.nodes().filter(|n| tree.child_count(n.id()) > 1).map(|n| n.id().index()).collect();
    assert_eq!(branching.len(), 3);
}

#[test]
fn a_normal_file_with_tesuji_is_not_the_dialect() {
    let r = read(b"(;GM[1]FF[4]SZ[19]PB[a];B[pd]TE[1];W[dd]KO[])".to_vec(), false);
    assert!(fixes(&r.diagnostics).is_empty(), "{:?}", r.diagnostics);
    assert!(!kifu::normalise::is_oro_dialect(&r.collection.games[0]));
    let oro = read(std::fs::read(manifest().join("fixtures/sgf/normalise/oro-nihonkiin.sgf")).unwrap(), true);
    assert!(kifu::normalise::is_oro_dialect(&oro.collection.games[0]));
    // kifu check calls the dialect's TE and KO neither errors nor warnings.
    let checked = Format::SGF
        .read(
            std::fs::read(manifest().join("fixtures/sgf/normalise/oro-nihonkiin.sgf")).unwrap(),
            &ReadOptions::default().with_positions(true).with_no_repair(true),
        )
        .unwrap();
    let report = kifu::check::check_collection(&checked.collection, &checked.diagnostics);
    let errors: Vec<String> =
        report.diagnostics().filter(|d| d.severity == Severity::Error).map(|d| d.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(report.diagnostics().filter(|d| d.code == "check.dialect-property").count(), 2);
}

/// The real files in ../shared/samples/sgf that show each dialect.
#[test]
fn shared_samples_show_each_dialect() {
    let Some(dir) = shared("samples/sgf") else { return };
    let get = |name: &str| {
        let r = read(std::fs::read(dir.join(name)).unwrap(), false);
        let codes: Vec<&'static str> = fixes(&r.diagnostics).iter().map(|d| d.code).collect();
        (r, codes)
    };
    let root_value = |r: &kifu::ReadOutput, id: &str| r.collection.games[0].root().value(id).map(str::to_string);
    // Fox through YuanYu: KM[750], TC/TT byo-yomi, 9段 ranks.
    let (r, codes) = get("yenw__computer-go-dataset__fox_cgi_65495949.SGF");
    assert_eq!(root_value(&r, "KM").as_deref(), Some("7.5"));
    assert_eq!(root_value(&r, "OT").as_deref(), Some("3x20 byo-yomi"));
    assert_eq!(root_value(&r, "BR").as_deref(), Some("9d"));
    assert!(codes.contains(&"fix.komi-scaled") && codes.contains(&"fix.overtime"), "{codes:?}");
    // Tencent: KM[375] = 3.75 stones = 7.5 points.
    let (r, _) = get("yenw__computer-go-dataset__tencent_s1-1_KM375.SGF");
    assert_eq!(root_value(&r, "KM").as_deref(), Some("7.5"));
    // Fox disguised as GNU Go: the repeated AP merged, KM[0] HA[0] not a komi of 0, 15级 = 15k.
    let (r, codes) = get("sanderland__katrain__fox_sgf_works.sgf");
    assert_eq!(root_value(&r, "KM"), None);
    assert_eq!(root_value(&r, "XSGFKM").as_deref(), Some("0"));
    assert_eq!(root_value(&r, "XSGFAP").as_deref(), Some("foxwq"));
    assert_eq!(root_value(&r, "BR").as_deref(), Some("15k"));
    assert!(codes.contains(&"fix.fox-komi-zero") && codes.contains(&"fix.duplicate-conflict"), "{codes:?}");
    // HA[1]: kept privately, the komi 0 is real (no fox-komi-zero).
    let (r, codes) = get("sanderland__katrain__fox_sgf_error.sgf");
    assert_eq!(root_value(&r, "KM").as_deref(), Some("0"));
    assert_eq!(root_value(&r, "XSGFHA").as_deref(), Some("1"));
    assert!(!codes.contains(&"fix.fox-komi-zero"), "{codes:?}");
    // A CA after the text (Sabaki's legacy-charset files): moved to the front.
    let (r, codes) = get("SabakiHQ__Sabaki__chinese.sgf");
    assert_eq!(r.collection.games[0].root().props().next().map(|p| p.ident()), Some("CA"));
    assert!(codes.contains(&"fix.header-order"));
    // PL in Sabaki's move nodes.
    let (_, codes) = get("SabakiHQ__sgf__utf8bom.sgf");
    assert!(codes.contains(&"fix.move-pl"), "{codes:?}");
    // The FF[1] file (MGT long identifiers) needs nothing beyond the reader's renaming.
    let (_, codes) = get("sanderland__katrain__xmgt97.sgf");
    assert!(codes.is_empty(), "{codes:?}");
    // GoGui's verbose FF[3] file: L/M written as LB/MA, TM text kept privately.
    if let Some(gogui) = shared("sgf-tests/gogui") {
        let r = read(std::fs::read(gogui.join("sgf__verbose-property-names.sgf")).unwrap(), false);
        let tree = &r.collection.games[0];
        assert!(tree.nodes().all(|n| n.get("L").is_none() && n.get("M").is_none()));
        assert!(tree.nodes().any(|n| n.get("LB").is_some()) && tree.nodes().any(|n| n.get("MA").is_some()));
    }
    // YuanYu re-exports of AlphaGo games carry the Oro dialect's properties (KO[7.5], RD, LT, LC).
    if let Some(corpus) = shared("corpus/ai_yenw/AlphaGo") {
        let r = read(std::fs::read(corpus.join("FH vs AG G2.sgf")).unwrap(), false);
        assert!(kifu::normalise::is_oro_dialect(&r.collection.games[0]) || root_value(&r, "KM").is_some());
        assert_eq!(root_value(&r, "KM").as_deref(), Some("7.5"));
        assert_eq!(root_value(&r, "DT").as_deref(), Some("2015-10-05"));
        assert_eq!(root_value(&r, "OT").as_deref(), Some("3x30 byo-yomi"));
    }
}

/// Check codes no repair can fix: illegal moves and points the game does not have.
const UNREPAIRABLE: &[&str] = &[
    "check.move-occupied",
    "check.move-ko",
    "check.move-suicide",
    "check.point-off-board",
    "check.setup-overlap",
    "check.size-range",
    "check.size-invalid",
    "check.ff-unknown",
];

/// Every file of ../shared/corpus and ../shared/samples (GIB, NGF and UGF through their own
/// readers): kifu's own SGF output checks with no error a repair could have fixed, and converting it again gives the same bytes. Runs the
/// files in parallel (rayon) so that it stays well under 20 s in a debug build on two cores.
#[test]
fn corpus_output_has_no_error_a_repair_could_fix() {
    let Some(corpus) = shared("corpus") else { return };
    let mut inputs = files(&corpus, &["sgf"]);
    if let Some(samples) = shared("samples") {
        inputs.extend(files(&samples, &["sgf", "gib", "ngf", "ugf"]));
    }
    struct One {
        repairs: BTreeMap<&'static str, usize>,
        errors: BTreeMap<&'static str, usize>,
        fixable: Vec<String>,
        unstable: Option<String>,
    }
    let t = std::time::Instant::now();
    let results: Vec<One> = inputs
        .par_iter()
        .filter_map(|f| {
            let format = Format::from_path(f)?;
            let r = format.read(std::fs::read(f).ok()?, &ReadOptions::default()).ok()?;
            let mut repairs = BTreeMap::new();
            for d in fixes(&r.diagnostics) {
                *repairs.entry(d.code).or_default() += 1;
            }
            let out = Format::SGF.write(&r.collection, &WriteOptions::default()).ok()?.bytes;
            let opts = ReadOptions::default().with_positions(true).with_no_repair(true);
            let back = Format::SGF.read(out.clone(), &opts).ok()?;
            let report = kifu::check::check_collection(&back.collection, &[]);
            let mut errors = BTreeMap::new();
            let mut fixable = Vec::new();
            for d in report.diagnostics().filter(|d| d.severity == Severity::Error) {
                *errors.entry(d.code).or_default() += 1;
                if !UNREPAIRABLE.contains(&d.code) {
                    fixable.push(format!("{}: {d}", f.display()));
                }
            }
            // SGF -> SGF -> SGF: when no repair applies to the output, the second conversion is the
            // writer's canonical round trip (byte-identical, tests/sgf_roundtrip.rs); otherwise
            // it is made here.
            let unstable = if back.collection.games.iter().any(kifu::normalise::needs_repair) {
                let again = Format::SGF.read(out.clone(), &ReadOptions::default()).ok()?;
                let second = Format::SGF.write(&again.collection, &WriteOptions::default()).ok()?.bytes;
                (second != out).then(|| f.display().to_string())
            } else {
                None
            };
            Some(One { repairs, errors, fixable, unstable })
        })
        .collect();
    eprintln!("corpus pass: {:?}", t.elapsed());
    let mut repairs: BTreeMap<&str, usize> = BTreeMap::new();
    let mut errors: BTreeMap<&str, usize> = BTreeMap::new();
    for one in &results {
        for (c, n) in &one.repairs {
            *repairs.entry(c).or_default() += n;
        }
        for (c, n) in &one.errors {
            *errors.entry(c).or_default() += n;
        }
    }
    eprintln!("{} files; repairs per code: {repairs:#?}\nerrors left in the output: {errors:#?}", results.len());
    let fixable: Vec<&String> = results.iter().flat_map(|r| &r.fixable).collect();
    assert!(fixable.is_empty(), "errors a repair could fix: {fixable:#?}");
    let unstable: Vec<&String> = results.iter().filter_map(|r| r.unstable.as_ref()).collect();
    assert!(unstable.is_empty(), "SGF -> SGF -> SGF not byte-identical: {unstable:#?}");
    assert!(results.len() > 10_000);
    // The repairs the corpus is known to need, by their largest families.
    assert!(repairs.get("fix.duplicate-merged").copied().unwrap_or(0) > 1_000, "{repairs:?}");
    assert!(repairs.get("fix.komi-scaled").copied().unwrap_or(0) > 3_000, "{repairs:?}");
}

/// Every real Fox record of ../shared/samples/sgf-fox: komi and result in points (the raw values
/// in `XSGFKM`/`XSGFRE`), computed here from the raw value and the rules' unit, and nothing
/// else changed but the other documented rules' properties (ranks, `HA`, the repeated `AP`,
/// `OT`); the moves and variations exactly as read.
#[test]
fn fox_records_get_komi_and_result_in_points() {
    let Some(dir) = shared("samples/sgf-fox") else { return };
    let all = files(&dir, &["sgf"]);
    assert!(all.len() >= 26, "{}", all.len());
    let props = |n: kifu::model::Node<'_>| -> Vec<(String, Vec<String>)> {
        n.props().map(|p| (p.ident().to_string(), p.values().map(|v| v.as_str().to_string()).collect())).collect()
    };
    let mut seen = BTreeMap::<&str, usize>::new();
    for f in all {
        let bytes = std::fs::read(&f).unwrap();
        let (raw, fixed) = (read(bytes.clone(), true), read(bytes, false));
        let (a, b) = (&raw.collection.games[0], &fixed.collection.games[0]);
        let ra = a.root();
        let rb = b.root();
        let stones = ra.value("RU") == Some("Chinese");
        // Komi: an integer ×100, doubled under Chinese counting; KM[0] is 0 in any unit.
        let km = ra.value("KM").unwrap();
        let n: i32 = km.parse().unwrap();
        if n != 0 {
            let points = f64::from(n) / 100.0 * if stones { 2.0 } else { 1.0 };
            assert_eq!(rb.value("KM").map(|v| v.parse::<f64>().unwrap()), Some(points), "{}", f.display());
            assert_eq!(rb.value("XSGFKM"), Some(km), "{}", f.display());
            *seen.entry("komi").or_default() += 1;
        }
        // Result: a margin in stones doubled, +0.02 a win on time, Fox's `draw` FF[4]'s `0`, the
        // rest as read.
        let re = ra.value("RE").unwrap();
        let want = match re.split_once('+').map(|(w, m)| (w, m.parse::<f64>())) {
            _ if re == "draw" => "0".to_string(),
            Some((w, Ok(0.02))) => format!("{w}+T"),
            Some((w, Ok(m))) if stones => format!("{w}+{}", m * 2.0),
            _ => re.to_string(),
        };
        assert_eq!(rb.value("RE").map(str::to_string), Some(want.clone()), "{}", f.display());
        if want != re {
            assert_eq!(rb.value("XSGFRE"), Some(re), "{}", f.display());
            *seen.entry("result").or_default() += 1;
        }
        // Nothing else: the root's other properties as read (or under the other rules), every
        // other node exactly.
        let others = ["KM", "RE", "XSGFKM", "XSGFRE", "BR", "WR", "HA", "XSGFHA", "AP", "XSGFAP", "OT"];
        let keep = |v: Vec<(String, Vec<String>)>| -> Vec<(String, Vec<String>)> {
            v.into_iter().filter(|(id, _)| !others.contains(&id.as_str())).collect()
        };
        assert_eq!(keep(props(ra)), keep(props(rb)), "{}", f.display());
        assert_eq!(a.nodes().count(), b.nodes().count(), "{}", f.display());
        assert!(a.nodes().zip(b.nodes()).skip(1).all(|(x, y)| props(x) == props(y)), "{}", f.display());
        for d in fixes(&fixed.diagnostics) {
            assert!(
                [
                    "fix.komi-scaled",
                    "fix.result-scaled",
                    "fix.rank",
                    "fix.empty-removed",
                    "fix.value-kept",
                    "fix.duplicate-conflict",
                    "fix.overtime",
                    "fix.ap-version",
                    "fix.result-text"
                ]
                .contains(&d.code),
                "{}: {d}",
                f.display()
            );
        }
    }
    eprintln!("{seen:?}");
    assert!(seen["komi"] >= 24 && seen["result"] >= 8, "{seen:?}");
}
