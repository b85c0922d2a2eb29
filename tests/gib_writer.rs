//! The GIB writer against what Tygem-era readers need and what kifu's own reader reads back:
//! ranks in Tygem's form, names readers split right, results GIB can hold, one value per line,
//! nothing invented, every move of a node, repeated setup, and one warning per kind of loss.
//! Also the header generations the reader meets (classic, mangled ids, modern `INFOMAIN`).

use kifu::formats::gib::codes;
use kifu::{Collection, Format, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use std::path::Path;

fn gib() -> Format {
    Format::from_name("gib").expect("gib is registered")
}

fn sgf(text: &str) -> Collection {
    Format::SGF.read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection
}

/// The GIB text and its warnings (the per-item notes left out).
fn write(text: &str) -> (String, Vec<String>) {
    let out = gib().write(&sgf(text), &WriteOptions::default()).unwrap();
    let warnings = out.diagnostics.iter().filter(|d| d.severity > Severity::Info).map(|d| d.message.clone()).collect();
    (String::from_utf8(out.bytes).unwrap(), warnings)
}

fn read_back(text: &str) -> kifu::GameTree {
    gib().read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection.games.remove(0)
}

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let start = format!("\\[{key}=");
    text.lines().find_map(|l| l.strip_prefix(start.as_str())).and_then(|v| v.strip_suffix("\\]"))
}

#[test]
fn ranks_are_written_in_tygem_form_or_reported() {
    let (text, warnings) = write("(;PB[Zhao]BR[P9段]PW[Ace]WR[7d*];B[pd])");
    assert_eq!(header(&text, "GAMEBLACKNAME"), Some("Zhao (9P)"));
    assert_eq!(header(&text, "GAMEWHITENAME"), Some("Ace (7D)"));
    assert_eq!(warnings, ["root node: WR[7d*] written as 7d (7D): GIB ranks have no '*' mark"]);
    let back = read_back(&text);
    assert_eq!((back.root().value("BR"), back.root().value("WR")), (Some("9p"), Some("7d")));

    for rank in ["NR", "11k+", "P"] {
        let (text, warnings) = write(&format!("(;PW[player1]WR[{rank}];B[pd])"));
        assert_eq!(header(&text, "GAMEWHITENAME"), Some("player1"), "{rank}");
        assert_eq!(warnings, [format!("root node: WR[{rank}] is not a rank GIB can hold; not written")]);
        assert_eq!(read_back(&text).root().value("WR"), None);
    }
    for (raw, want) in [("九段", "9D"), ("9단", "9D"), ("9p", "9P"), ("15k", "15K")] {
        let (text, _) = write(&format!("(;PB[x]BR[{raw}])"));
        assert_eq!(header(&text, "GAMEBLACKNAME"), Some(format!("x ({want})").as_str()), "{raw}");
    }
}

#[test]
fn a_name_ending_in_a_parenthesis_is_not_taken_for_a_rank() {
    let (text, warnings) = write("(;PB[GNU Go 3.2 (random seed 1554616589)];B[pd])");
    // A space after the `)`: readers that split `name (rank)` at a final `)` keep the name.
    assert_eq!(header(&text, "GAMEBLACKNAME"), Some("GNU Go 3.2 (random seed 1554616589) "));
    assert!(warnings.is_empty(), "{warnings:?}");
    let back = read_back(&text);
    assert_eq!((back.root().value("PB"), back.root().value("BR")), (Some("GNU Go 3.2 (random seed 1554616589)"), None));
}

#[test]
fn results_gib_cannot_hold_exactly_are_reported() {
    let (text, w) = write("(;RE[W+2.25])");
    assert_eq!(header(&text, "GAMERESULT"), Some("white 2.3 win"));
    assert_eq!(w, ["root node: RE[W+2.25] written as W+2.3 (GIB margins are in tenths)"]);
    let (text, w) = write("(;RE[W+0.0])");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(read_back(&text).root().value("RE"), Some("W+0"));
    let (text, w) = write("(;RE[W+0.02])");
    assert_eq!(w, ["root node: RE[W+0.02] written as W+0 (W+0.0) (GIB margins are in tenths)"]);
    assert_eq!(read_back(&text).root().value("RE"), Some("W+0"));
    let (text, w) = write("(;RE[B+AW])");
    // No FF[4] result says what `B+AW` says: reading keeps it as XSGFRE (fix.value-kept), which
    // GIB has no place for either.
    assert_eq!(w, ["root node: property XSGFRE not written"]);
    assert_eq!(read_back(&text).root().value("RE"), None);
    // A margin of 1e23 has no ZIPSU (no clamping to 9.2e17).
    let (text, w) = write("(;RE[B+1e23])");
    assert!(w[0].contains("not a result GIB can hold"), "{w:?}");
    assert!(!text.contains("ZIPSU:9"), "{text}");
    let (text, w) = write("(;RE[W+])");
    assert!(w[0].starts_with("root node: RE[W+] written as W+0 (W+0.0)"), "{w:?}");
    assert_eq!(read_back(&text).root().value("RE"), Some("W+"));
}

#[test]
fn values_that_would_break_lines_are_made_safe_or_refused() {
    // A kept game line that is not numbers would inject a phantom move.
    let (text, w) = write("(;XGIBGS[STO 0 5 2 6 1];B[pd])");
    assert!(text.contains("\\GS\r\n2 1 0\r\n2 0 &4\r\n"), "{text}");
    assert!(w[0].starts_with("root node: XGIBGS[STO 0 5 2 6 1] is not a line of numbers; not written"), "{w:?}");
    assert_eq!(read_back(&text).main_line().count(), 2);
    let (text, w) = write("(;XGIBGS[2 5 0];B[pd])");
    assert!(text.contains("\\GS\r\n2 5 0\r\n") && w.is_empty(), "{w:?}");
    // A line break in a header value or in the INI text, a STO kept as a record.
    let (text, w) = write("(;GC[Kim\nSTO 0 9 1 1 1]XGIBINI[a\nSTO 0 3 1 2 2]XGIBREC[STO 0 4 1 3 3][REM 0 9];B[pd])");
    assert_eq!(read_back(&text).main_line().count(), 2, "{text}");
    assert!(text.contains("\r\nREM 0 9 \r\n\\GE"), "{text}");
    // GAMECOMMENT (its GCMT copy is made one line first), XGIBINI, XGIBREC.
    assert_eq!(w.len(), 3, "{w:?}");
    assert!(w.iter().any(|m| m.contains("XGIBREC[STO 0 4 1 3 3] is not a record kifu keeps")), "{w:?}");
    assert!(!text.contains('\0'));
}

#[test]
fn a_comma_in_a_copied_text_starts_no_sub_field() {
    let (text, w) = write("(;GN[Cup]GC[great game,GNAME:Evil]PB[Kim,BLV:27];B[pd])");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(header(&text, "GAMECOMMENT"), Some("great game,GNAME:Evil"));
    assert!(header(&text, "GAMEINFOSUB").unwrap().ends_with(",GCMT:great game GNAME:Evil"), "{text}");
    assert!(header(&text, "BUSERINFO").unwrap().starts_with("BID:Kim BLV:27,BLV:,"), "{text}");
    let back = read_back(&text);
    let r = back.root();
    assert_eq!(
        (r.value("GN"), r.value("GC"), r.value("PB"), r.value("BR")),
        (Some("Cup"), Some("great game,GNAME:Evil"), Some("Kim,BLV:27"), None)
    );
}

#[test]
fn nothing_is_invented_and_a_second_write_is_the_same() {
    let (first, w) = write("(;GM[1]SZ[19]PB[Kim]PW[Lee]AB[dp]AB[pd]HA[2];W[qq];B[tt]W[tt])");
    // Repeated AB properties are one layout: no false warning.
    assert!(w.is_empty(), "{w:?}");
    assert!(!first.contains("GONGJE") && !first.contains("GTIME") && !first.contains(",G0,"), "{first}");
    let back = read_back(&first);
    assert_eq!((back.root().value("KM"), back.root().value("TM")), (None, None));
    // Both moves of the node B[tt]W[tt] are records.
    assert!(first.ends_with("STO 0 2 2 16 16 \r\nSKI 0 3 \r\nSKI 0 4 \r\n\\GE\r\n"), "{first}");
    let sgf_text =
        String::from_utf8(Format::SGF.write(&Collection::new(vec![back]), &WriteOptions::default()).unwrap().bytes)
            .unwrap();
    let (second, _) = write(&sgf_text);
    assert_eq!(second, first);
}

#[test]
fn repeated_losses_are_one_warning_per_kind_and_every_item_is_kept() {
    let moves: String =
        (0..100).map(|i| format!(";B[{}a]WL[30];W[{}b]", (b'a' + i % 19) as char, (b'a' + i % 19) as char)).collect();
    let out = gib().write(&sgf(&format!("(;GM[1]{moves})")), &WriteOptions::default()).unwrap();
    let warnings: Vec<&str> =
        out.diagnostics.iter().filter(|d| d.severity == Severity::Warning).map(|d| d.message.as_str()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("property WL not written (100 times: node 1 (move 1), "), "{}", warnings[0]);
    let items = out.diagnostics.iter().filter(|d| d.severity == Severity::Info && d.code == codes::LOSSY_PROPERTY);
    assert_eq!(items.count(), 100);
}

#[test]
fn every_header_generation_names_the_players() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    for (file, black, white) in [
        ("even-passes.gib", None, None),
        ("mangled-userinfo.gib", Some(("Menskit", "2d")), Some(("K_002odc", "4d"))),
        ("modern-infomain.gib", Some(("kimsu77", "4d")), Some(("leeho", "6k"))),
    ] {
        let read = gib().read(std::fs::read(dir.join(file)).unwrap(), &ReadOptions::default()).unwrap();
        let root = read.collection.games[0].root();
        assert!(root.value("PB").is_some_and(|n| !n.is_empty()), "{file}");
        assert!(root.value("PW").is_some_and(|n| !n.is_empty()), "{file}");
        if let Some((name, rank)) = black {
            assert_eq!((root.value("PB"), root.value("BR")), (Some(name), Some(rank)), "{file}");
        }
        if let Some((name, rank)) = white {
            assert_eq!((root.value("PW"), root.value("WR")), (Some(name), Some(rank)), "{file}");
        }
        // Valid server files: end-of-game records and user-info names are notes, not warnings.
        assert!(read.diagnostics.iter().all(|d| d.severity == Severity::Info), "{file}: {:?}", read.diagnostics);
    }
    // The kept records go back after the moves.
    let read = gib().read(std::fs::read(dir.join("modern-infomain.gib")).unwrap(), &ReadOptions::default()).unwrap();
    let out = gib().write(&read.collection, &WriteOptions::default()).unwrap();
    let text = String::from_utf8(out.bytes).unwrap();
    assert!(text.ends_with("SKI 0 6 \r\nREM 0 7 \r\n\\GE\r\n"), "{text}");
    assert_eq!(header(&text, "GAMEBLACKNAME"), Some("kimsu77 (4D)"));
}

#[test]
fn the_interop_fixture_is_written_as_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    let input =
        Format::SGF.read(std::fs::read(dir.join("writer-interop.sgf")).unwrap(), &ReadOptions::default()).unwrap();
    let out = gib().write(&input.collection, &WriteOptions::default()).unwrap();
    let text = String::from_utf8(out.bytes).unwrap();
    assert_eq!(text, std::fs::read_to_string(dir.join("writer-interop.expected.gib")).unwrap());
    let warnings: Vec<&str> =
        out.diagnostics.iter().filter(|d| d.severity > Severity::Info).map(|d| d.message.as_str()).collect();
    assert_eq!(
        warnings,
        [
            "root node: RE[W+2.25] written as W+2.3 (GIB margins are in tenths)",
            "root node: BR[NR] is not a rank GIB can hold; not written"
        ]
    );
    let back = read_back(&text);
    let r = back.root();
    assert_eq!(
        (r.value("PB"), r.value("BR"), r.value("PW"), r.value("WR"), r.value("RE"), r.value("DT")),
        (Some("GNU Go 3.2 (random seed 5)"), None, Some("Zhao"), Some("9p"), Some("W+2.3"), Some("2018-04-28"))
    );
    assert_eq!((r.value("HA"), r.points_of("AB").count(), back.main_line_moves()), (Some("2"), 2, 4));
}

/// What a second write of `bytes` (read as GIB → GIB writer → reader → GIB writer) changes: the
/// first differing line of both outputs, or `None` when they are the same (or nothing reads).
fn unstable(format: Format, bytes: &[u8]) -> Option<String> {
    let read = format.read(bytes.to_vec(), &ReadOptions::default()).ok()?;
    if read.collection.games.is_empty() {
        return None;
    }
    let options = WriteOptions::default().with_lossy(true);
    let first = gib().write(&read.collection, &options).ok()?;
    let faithful = ReadOptions::default().with_no_repair(true);
    let back = gib().read(first.bytes.clone(), &faithful).ok()?;
    let second = gib().write(&back.collection, &options).ok()?;
    if second.bytes == first.bytes {
        return None;
    }
    let (a, b) = (String::from_utf8_lossy(&first.bytes), String::from_utf8_lossy(&second.bytes));
    let (x, y) = a.lines().zip(b.lines()).find(|(x, y)| x != y).unwrap_or(("", ""));
    Some(format!("{x:?} then {y:?}"))
}

/// Single-byte mutations in the root node of the GIB fixtures' SGF (where the `XGIB` entries
/// are; every even byte deleted, every odd byte replaced by a line break, to stay fast): a second GIB write equals the first (the
/// writer writes what its reader reads back the same way, and reports what it drops).
#[test]
fn a_second_write_of_any_single_byte_mutation_is_the_first() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gib");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.retain(|p| p.to_string_lossy().ends_with(".expected.sgf"));
    names.sort();
    let mut seen = std::collections::BTreeSet::new();
    let mut inputs = 0;
    for path in &names {
        let bytes = std::fs::read(path).unwrap();
        let root = bytes.windows(2).position(|w| w == b"\n;").unwrap_or(bytes.len());
        for i in 0..root {
            let mut input = bytes.clone();
            if i % 2 == 0 {
                input.remove(i);
            } else {
                input[i] = b'\n';
            }
            {
                inputs += 1;
                if let Some(d) = unstable(Format::SGF, &input) {
                    if seen.insert(d.clone()) {
                        eprintln!("{}@{i}: {d}", path.file_name().unwrap().to_string_lossy());
                    }
                }
            }
        }
    }
    assert!(inputs > 3_000, "{inputs}");
    assert_eq!(seen.len(), 0, "{seen:#?}");
}

/// The writer writes its header in the form its reader gives back, in one pass: this is the
/// check that it does (the writer itself reads nothing back). Over every fixture, every file of
/// ../shared/samples and the cases of this file, a write read back and written again is the
/// same text, and what it reads back reads back the same from the second write.
#[test]
fn one_write_is_final_for_every_fixture_sample_and_case() {
    const CASES: &[&str] = &[
        "(;PB[Zhao]BR[P9段]PW[Ace]WR[7d*];B[pd])",
        "(;PW[player1]WR[NR];B[pd])",
        "(;PB[GNU Go 3.2 (random seed 1554616589)];B[pd])",
        "(;PB[Lee (4d)]PW[Kim\u{1}];B[pd])",
        "(;RE[W+2.25])",
        "(;RE[W+0.0])",
        "(;RE[B+AW])",
        "(;RE[W+])",
        "(;XGIBGS[STO 0 5 2 6 1];B[pd])",
        "(;GC[Kim\nSTO 0 9 1 1 1]XGIBINI[ a\nSTO 0 3 1 2 2 ]XGIBREC[STO 0 4 1 3 3][REM 0 9 ];B[pd])",
        "(;GN[Cup]GC[great game,GNAME:Evil]PB[Kim,BLV:27];B[pd])",
        "(;GM[1]SZ[19]PB[Kim]PW[Lee]AB[dp]AB[pd]HA[2];W[qq];B[tt]W[tt])",
        "(;TM[600]OT[3x0 byo-yomi];B[pd])",
        // XGIB entries the game's properties no longer agree with: a level for a player
        // without BR, a date and a time for a game without DT and TM, a sub-field written
        // in another place, a comment hidden in a sub-field, a value over several lines.
        "(;PB[stonecat]XGIB[GAMEBLACKLEVEL=21][GAMEINFOSUB=GNAME:0,GPLCF:0,GDATE:2021- 3- 7- 9- 5- 1,GCMT:\n\
         [GAMETAG=S1,W255,Z0,C2019:12:01:20:15,I:tutor01]][GAMEINFOMAIN=GTIME:600-30-3];B[pd])",
        "(;GN[x]XGIB[GAMENAME=y][GAMECOMMENT=a\\\\]b];B[pd])",
        "(;XGIB[GAMEINFO];B[pd])",
    ];
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs: Vec<(String, Format, Vec<u8>)> =
        CASES.iter().enumerate().map(|(i, c)| (format!("case {i}"), Format::SGF, c.as_bytes().to_vec())).collect();
    let samples = here.join("../shared/samples");
    if !samples.exists() {
        eprintln!("note: {} is absent; fixtures and cases only", samples.display());
    }
    for e in walkdir::WalkDir::new(here.join("fixtures")).into_iter().chain(walkdir::WalkDir::new(samples)) {
        let e = e.unwrap();
        if let Some(f) = Format::from_path(e.path()).filter(|_| e.file_type().is_file()) {
            inputs.push((e.path().display().to_string(), f, std::fs::read(e.path()).unwrap()));
        }
    }
    let options = WriteOptions::default().with_lossy(true);
    let faithful = ReadOptions::default().with_no_repair(true);
    let as_sgf = |c: &Collection| Format::SGF.write(c, &WriteOptions::default()).unwrap().bytes;
    let mut checked = 0;
    for (name, format, bytes) in inputs {
        let Ok(read) = format.read(bytes, &ReadOptions::default()) else { continue };
        let Ok(first) = gib().write(&read.collection, &options) else { continue };
        let back = gib().read(first.bytes.clone(), &faithful).unwrap();
        let second = gib().write(&back.collection, &options).unwrap();
        let (a, b) = (String::from_utf8_lossy(&first.bytes), String::from_utf8_lossy(&second.bytes));
        assert_eq!(a, b, "{name}: a second write differs");
        let again = gib().read(second.bytes, &faithful).unwrap();
        assert_eq!(as_sgf(&again.collection), as_sgf(&back.collection), "{name}: reads back differently");
        checked += 1;
    }
    assert!(checked >= CASES.len() + 20, "{checked}");
}
