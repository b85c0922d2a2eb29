//! The round-trip oracle shared by the fuzz targets (`fuzz/fuzz_targets/`) and the bounded run
//! in `cargo test` (`tests/robustness.rs`): read the input (by sniffing, and with a named
//! format), write it in every format, read each output back, and check the rules below. It
//! depends on nothing but kifu, so both can include it by path.
//!
//! Rules (each finding names one):
//! * `reads-back`: a writer's output reads back with its own reader.
//! * `no-nul`: a text writer never writes a NUL byte (readers take it for UTF-16).
//! * `same-model`: SGF and JSON/NDJSON read back as the model written (SGF's root `FF`/`CA`
//!   excepted, which the writer sets), unless the writer reported a loss.
//! * `clean-read-back`: reading back SGF or JSON output raises no warning or error (but those
//!   about content kept as it is, such as an implausible komi).
//! * `same-moves`: GIB, NGF and UGF output reads back with as many main-line moves as the first
//!   game had, unless the writer reported a loss.
//! * `stable-write`: writing what a GIB, NGF or UGF file read back gives the same bytes again
//!   (values that break the line structure, invented header fields and lossy rewrites show here).
//! * `repair-free`: SGF output read back with the repairs on needs none (SGF→SGF is a fixpoint:
//!   a repair that leaves work for the next read, a duplicated point, a node holding a move and
//!   setup, a komi the repairs would rescale all show here). A rank spelt as the file had it
//!   (`BR[九段]` from UGF) is not counted: its repair rewrites the spelling, keeping it. Not
//!   checked for what the JSON reader read: it keeps a model as written, repairs left to do.
//! * `same-info`: GIB, NGF and UGF output reads back with the first game's komi and handicap,
//!   unless the writer reported a loss (an unknown komi written as 0, setup stones written as a
//!   handicap, a value out of range dropped).
//! * `clean-legacy-read-back`: reading back GIB, NGF or UGF output raises no warning that reading
//!   the input did not, unless the writer reported a loss (the writer writes what its own reader
//!   takes without complaint; content kept as it was, such as an unknown GIB record, is reported
//!   again on every read).

use kifu::{Collection, Format, ReadOptions, WriteOptions};

/// One broken rule: which, for which writer, and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule's name (see the module documentation).
    pub rule: &'static str,
    /// The writer's format.
    pub writer: &'static str,
    /// What was seen.
    pub detail: String,
}

/// Whether the format holds a single game and rewrites values into its own lines.
fn legacy(f: Format) -> bool {
    matches!(f.name(), "gib" | "ngf" | "ugf")
}

/// The collection without the root `FF` and `CA` properties that the SGF writer sets.
fn without_header(c: &Collection) -> Collection {
    let mut c = c.clone();
    for g in &mut c.games {
        if !g.is_empty() {
            g.remove_prop(kifu::model::NodeId::ROOT, "FF");
            g.remove_prop(kifu::model::NodeId::ROOT, "CA");
        }
    }
    c
}

/// Whether `d` reports again a value the input carried as kept raw text (a GIB, NGF or UGF line
/// in its `X…` property, such as an `XNGFRE` result no reader understands): written back as it
/// was, it is told of again on every read.
fn kept_again(collection: &Collection, d: &kifu::Diagnostic) -> bool {
    let Some(rest) = d.message.split("kept in ").nth(1) else { return false };
    let id: String = rest.chars().take_while(|c| c.is_ascii_uppercase()).collect();
    id.starts_with('X')
        && collection
            .games
            .first()
            .and_then(|g| g.get_node(kifu::model::NodeId::ROOT))
            .is_some_and(|n| n.get(&id).is_some())
}

fn lossy(d: &[kifu::Diagnostic]) -> bool {
    d.iter().any(|d| d.severity >= kifu::Severity::Warning)
}

/// The game information every writer must carry or report: the root's komi and handicap, as
/// numbers (`KM[6.50]` is `KM[6.5]`; no `HA`, `HA[0]` and `HA[1]` are all no handicap stones),
/// or as text when they are none.
fn info(game: Option<&kifu::GameTree>) -> (Option<String>, Option<String>) {
    let Some(game) = game.filter(|g| !g.is_empty()) else { return (None, None) };
    let root = game.root();
    // An empty value is no value: `KM[]` and no KM say the same.
    let km = root.value("KM").filter(|k| !k.trim().is_empty()).map(|k| match k.trim().parse::<f64>() {
        Ok(k) => format!("{k}"),
        Err(_) => k.to_string(),
    });
    let ha = root.value("HA").filter(|h| !h.trim().is_empty()).and_then(|h| match h.trim().parse::<u64>() {
        Ok(0 | 1) => None,
        Ok(h) => Some(h.to_string()),
        Err(_) => Some(h.to_string()),
    });
    (km, ha)
}

/// Reads `bytes` by sniffing, and (when `format` is given) with that format's reader too; then
/// runs every writer on what was read and checks the rules. Never panics on its own: a panic
/// comes from kifu.
pub fn round_trip(bytes: &[u8], format: Option<Format>) -> Vec<Finding> {
    let sniffed = kifu::read_bytes(bytes.to_vec(), None, &ReadOptions::default());
    let read = match format {
        Some(f) => f.read(bytes.to_vec(), &ReadOptions::default()),
        None => sniffed,
    };
    let Ok(read) = read else { return Vec::new() };
    // The JSON reader keeps a model as it was written (formats/json.md): what it read may need
    // repairs, and so may its SGF output.
    let from = format.or_else(|| Format::sniff(bytes));
    let clean = from.is_none_or(|f| !matches!(f.name(), "json" | "ndjson"));
    let seen: Vec<&str> = read.diagnostics.iter().map(|d| d.code).collect();
    check(&read.collection, clean, &seen)
}

/// Runs every writer on `collection` and checks the rules.
pub fn check_writers(collection: &Collection) -> Vec<Finding> {
    check(collection, true, &[])
}

/// [`check_writers`]; `clean`: whether `collection` was read by a reader that leaves nothing to
/// repair (every reader but JSON's), so that its SGF output must be `repair-free`; `seen`: the
/// codes reading the input raised (content kept as it was, such as an unknown GIB record or a
/// repeated header key, raises them again on every read: no `clean-legacy-read-back` finding).
fn check(collection: &Collection, clean: bool, seen: &[&str]) -> Vec<Finding> {
    let mut found = Vec::new();
    if collection.games.is_empty() {
        return found;
    }
    let options = WriteOptions::default().with_lossy(true);
    for to in Format::all().filter(|f| f.can_write() && f.can_read()) {
        let mut finding = |rule: &'static str, detail: String| found.push(Finding { rule, writer: to.name(), detail });
        let Ok(out) = to.write(collection, &options) else { continue };
        if out.bytes.contains(&0) {
            finding("no-nul", "the output holds a NUL byte".into());
        }
        // Read back as written: a repair on the second read would hide what the writer did.
        let faithful = ReadOptions::default().with_no_repair(true);
        let back = match to.read(out.bytes.clone(), &faithful) {
            Ok(back) => back,
            Err(e) => {
                finding("reads-back", format!("{e}"));
                continue;
            }
        };
        let reported = lossy(&out.diagnostics);
        if legacy(to) {
            let (before, after) = (info(collection.games.first()), info(back.collection.games.first()));
            if !reported && before != after {
                finding("same-info", format!("{before:?} written, {after:?} read back"));
            }
            if let Some(d) = back.diagnostics.iter().find(|d| {
                d.severity >= kifu::Severity::Warning && !seen.contains(&d.code) && !kept_again(collection, d)
            }) {
                if !reported {
                    finding("clean-legacy-read-back", d.to_string());
                }
            }
            let first = collection.games[0].main_line_moves();
            let again = back.collection.games.first().map_or(0, |g| g.main_line_moves());
            if !reported && first != again {
                finding("same-moves", format!("{first} main-line moves written, {again} read back"));
            }
            if let Ok(second) = to.write(&back.collection, &options) {
                if second.bytes != out.bytes {
                    let a = String::from_utf8_lossy(&out.bytes);
                    let b = String::from_utf8_lossy(&second.bytes);
                    let line = a
                        .lines()
                        .zip(b.lines())
                        .position(|(x, y)| x != y)
                        .unwrap_or(a.lines().count().min(b.lines().count()));
                    finding(
                        "stable-write",
                        format!(
                            "line {}: {:?} then {:?}",
                            line + 1,
                            a.lines().nth(line).unwrap_or(""),
                            b.lines().nth(line).unwrap_or("")
                        ),
                    );
                }
            }
        } else {
            if !reported && without_header(&back.collection) != without_header(collection) {
                finding("same-model", format!("{:?} read back as {:?}", collection.games, back.collection.games));
            }
            if let Some(d) = back.diagnostics.iter().find(|d| {
                d.severity >= kifu::Severity::Warning && !kifu::normalise::codes::REPORT_ONLY.contains(&d.code)
            }) {
                finding("clean-read-back", d.to_string());
            }
            if to == Format::SGF && clean {
                if let Ok(again) = to.read(out.bytes.clone(), &ReadOptions::default()) {
                    if let Some(d) = again.diagnostics.iter().find(|d| {
                        d.code.starts_with("fix.")
                            && !kifu::normalise::codes::REPORT_ONLY.contains(&d.code)
                            && d.code != kifu::normalise::codes::RANK
                    }) {
                        finding("repair-free", d.to_string());
                    }
                }
            }
        }
    }
    found
}

/// The fuzz targets, by name: one per reader, `sniff` (format sniffing + reading) and
/// `roundtrip` (this oracle).
pub const TARGETS: &[&str] = &["sgf", "gib", "ngf", "ugf", "json", "ndjson", "sniff", "roundtrip"];

/// Runs target `name` on `data`; panics on a finding (a bug), as libFuzzer expects.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "sniff" => {
            if let Ok(out) = kifu::read_bytes(data.to_vec(), None, &ReadOptions::default()) {
                let _ = Format::SGF.write(&out.collection, &WriteOptions::default());
            }
        }
        "roundtrip" => {
            let ignored = std::env::var("KIFU_FUZZ_IGNORE").unwrap_or_default();
            let found: Vec<_> = round_trip(data, None).into_iter().filter(|f| !ignores(&ignored, f)).collect();
            assert!(found.is_empty(), "{found:#?}");
        }
        reader => {
            let format = Format::from_name(reader).expect("a target named after a format");
            if let Ok(out) = format.read(data.to_vec(), &ReadOptions::default().with_positions(true)) {
                for d in &out.diagnostics {
                    let _ = d.to_string();
                }
            }
        }
    }
}

/// Whether `list` (`rule:writer` items separated by commas, `*` for any writer, as in
/// `KIFU_FUZZ_IGNORE=stable-write:gib,same-moves:*`) names the finding: known open findings
/// a campaign should not stop at.
pub fn ignores(list: &str, f: &Finding) -> bool {
    list.split(',')
        .filter_map(|item| item.trim().split_once(':'))
        .any(|(rule, writer)| rule == f.rule && (writer == "*" || writer == f.writer))
}
