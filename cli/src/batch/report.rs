//! Report records of a batch run (specified in [`formats/report.md`](kifu::spec::report)), serialisable as NDJSON.

use kifu::charset::CharsetDecision;
use kifu::diag::{Diagnostic, Severity};
use serde::Serialize;
use std::collections::BTreeMap;

/// The outcome of one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Converted; nothing worth a warning.
    Ok,
    /// Converted, with warnings but no error (see the diagnostics).
    Warnings,
    /// Converted from a damaged input: at least one error-severity repair; the output holds what
    /// could be recovered and may differ from what the author meant.
    Repaired,
    /// Not converted (unreadable, unwritable, refused); the diagnostics say why.
    Failed,
    /// Deliberately not converted (`--skip-existing`, a symbolic link not followed).
    Skipped,
}

impl Status {
    /// Every status, in the order the summary lists them.
    pub const ALL: [Status; 5] = [Status::Ok, Status::Warnings, Status::Repaired, Status::Failed, Status::Skipped];

    /// `ok`, `warnings`, `repaired`, `failed` or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warnings => "warnings",
            Status::Repaired => "repaired",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
        }
    }

    /// Whether the input was converted (`ok`, `warnings` or `repaired`).
    pub fn converted(self) -> bool {
        matches!(self, Status::Ok | Status::Warnings | Status::Repaired)
    }
}

/// Which step of the run produced a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Walking, planning or writing files (`batch.*` codes).
    Batch,
    /// Reading the input.
    Read,
    /// Writing the output format.
    Write,
}

/// One diagnostic in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiagRecord {
    /// Which step found it.
    pub stage: Stage,
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// The stable code (`sgf.missing-close`, `batch.name-collision`, …).
    pub code: &'static str,
    /// The message.
    pub message: String,
    /// 1-based line in the decoded input, when the finding has a place.
    pub line: Option<u32>,
    /// 1-based column (in characters), when the finding has a place.
    pub column: Option<u32>,
}

impl DiagRecord {
    /// The record of `d` found at `stage`.
    pub fn new(stage: Stage, d: &Diagnostic) -> DiagRecord {
        DiagRecord {
            stage,
            severity: d.severity.as_str(),
            code: d.code,
            message: d.message.clone(),
            line: d.position.map(|p| p.line),
            column: d.position.map(|p| p.column),
        }
    }

    /// Whether this diagnostic is a warning or an error.
    pub fn is_warning(&self) -> bool {
        self.severity != Severity::Info.as_str()
    }
}

/// How an input was decoded: `{"name": "EUC-KR", "source": "declared"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharsetRecord {
    /// The charset's canonical name.
    pub name: &'static str,
    /// How it was decided: `bom`, `override`, `declared` or `detected`.
    pub source: &'static str,
}

impl From<CharsetDecision> for CharsetRecord {
    fn from(d: CharsetDecision) -> CharsetRecord {
        CharsetRecord { name: d.name(), source: d.source.as_str() }
    }
}

/// What happened to one input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The input path as found (the walked folder joined with the relative path).
    pub input: String,
    /// The planned output path (the merged file with `--merge`; the base name with `--split`).
    pub output: Option<String>,
    /// Every file written, or that would be written with `--dry-run`.
    pub outputs: Vec<String>,
    /// The input format, when known.
    pub from: Option<&'static str>,
    /// The output format.
    pub to: &'static str,
    /// How the input was decoded, for text formats that were read.
    pub charset: Option<CharsetRecord>,
    /// The outcome.
    pub status: Status,
    /// Games read from the input.
    pub games: usize,
    /// Every diagnostic: planning notes first, then the reader's, then the writer's.
    pub diagnostics: Vec<DiagRecord>,
    /// Games of the input the filters left out (formats/archives.md, "Filters"); absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub filtered: usize,
    /// What `--strip` removed, per kind (formats/normalise.md, "Stripping"); absent when
    /// nothing was.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stripped: BTreeMap<&'static str, usize>,
    /// How many of `outputs` already held exactly these bytes and were left untouched (not in
    /// the NDJSON, so a rerun gives the same report).
    #[serde(skip)]
    pub unchanged: usize,
}

impl Record {
    /// A record with nothing done yet.
    pub(crate) fn new(input: String, output: Option<String>, to: &'static str) -> Record {
        Record {
            input,
            output,
            outputs: Vec::new(),
            from: None,
            to,
            charset: None,
            status: Status::Ok,
            games: 0,
            diagnostics: Vec::new(),
            filtered: 0,
            stripped: BTreeMap::new(),
            unchanged: 0,
        }
    }

    /// Counts what `--strip` removed from this input.
    pub(crate) fn add_stripped(&mut self, removed: &kifu::strip::Removed) {
        for (kind, n) in removed.iter() {
            *self.stripped.entry(kind.name()).or_insert(0) += n;
        }
    }

    /// Adds diagnostics found at `stage`.
    pub(crate) fn add(&mut self, stage: Stage, diags: &[Diagnostic]) {
        self.diagnostics.extend(diags.iter().map(|d| DiagRecord::new(stage, d)));
    }

    /// Ends the record as failed with a `batch.*` diagnostic.
    pub(crate) fn fail(mut self, d: Diagnostic) -> Record {
        self.add(Stage::Batch, &[d]);
        self.status = Status::Failed;
        self
    }

    /// Sets `ok`, `warnings` or `repaired` from the diagnostics (unless failed or skipped).
    pub(crate) fn settle(&mut self) {
        if self.status == Status::Ok {
            if self.diagnostics.iter().any(|d| d.severity == Severity::Error.as_str()) {
                self.status = Status::Repaired;
            } else if self.diagnostics.iter().any(DiagRecord::is_warning) {
                self.status = Status::Warnings;
            }
        }
    }
}

/// The single output of `--merge`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MergeRecord {
    /// The merged file.
    pub output: String,
    /// The output format.
    pub to: &'static str,
    /// Inputs whose games went in.
    pub inputs: usize,
    /// Games written.
    pub games: usize,
    /// `ok`, `warnings` (lossy write), `failed` (not written) or `skipped` (exists, with
    /// `--skip-existing`).
    pub status: Status,
    /// The writer's diagnostics and any `batch.*` failure.
    pub diagnostics: Vec<DiagRecord>,
    /// Whether the file already held exactly these bytes (not in the NDJSON).
    #[serde(skip)]
    pub unchanged: bool,
}

/// Totals of a run. Holds no timings, so the report is the same for every run of the same inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Whether this was a `--dry-run` (nothing written).
    pub dry_run: bool,
    /// Inputs with a record.
    pub inputs: usize,
    /// Records per status (`ok`, `warnings`, `repaired`, `failed`, `skipped`; all present).
    pub status: BTreeMap<&'static str, usize>,
    /// Records per input format (`unknown` when it could not be told).
    pub formats: BTreeMap<&'static str, usize>,
    /// Files in walked folders that are not game records (neither a known extension nor
    /// recognised content), left alone.
    pub ignored: usize,
    /// Games read.
    pub games: usize,
    /// Output files that hold the result (written, or already identical).
    pub outputs: usize,
    /// Repairs per kind over every input, most frequent first (formats/cli.md, "Repairs").
    pub repairs: Vec<RepairCount>,
    /// Games the filters left out, over every input; absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub filtered: usize,
    /// What `--strip` removed over every input, per kind; absent when nothing was.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub stripped: BTreeMap<&'static str, usize>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// How many repairs of one kind (`fix.*` code and severity) a run made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RepairCount {
    /// The `fix.*` code.
    pub code: &'static str,
    /// `info` or `warning` (the severity rule of formats/cli.md).
    pub severity: &'static str,
    /// How many (the repairs a capped list did not show included).
    pub count: usize,
}

impl Summary {
    /// Records with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.status.get(status.as_str()).copied().unwrap_or(0)
    }
}

/// Everything a run did: one record per input in input-path order, the merge, the totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// One record per input, ordered by input path.
    pub records: Vec<Record>,
    /// The merged output, with `--merge`.
    pub merge: Option<MergeRecord>,
    /// The totals.
    pub summary: Summary,
    /// Temporary files of killed earlier runs removed from the output folders (not part of the
    /// NDJSON, which must not depend on earlier runs).
    pub removed_temp_files: usize,
    /// Of the summary's `outputs`, those that already held exactly these bytes and were left
    /// untouched (not part of the NDJSON either: a rerun that changes nothing gives the same
    /// report).
    pub unchanged: usize,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Line<'a> {
    File(&'a Record),
    Merge(&'a MergeRecord),
    Summary(&'a Summary),
}

impl Report {
    /// Builds the totals for `records`.
    pub(crate) fn new(records: Vec<Record>, merge: Option<MergeRecord>, ignored: usize, dry_run: bool) -> Report {
        let mut summary = Summary { dry_run, inputs: records.len(), ignored, ..Summary::default() };
        for s in Status::ALL {
            summary.status.insert(s.as_str(), 0);
        }
        for r in &records {
            *summary.status.entry(r.status.as_str()).or_insert(0) += 1;
            *summary.formats.entry(r.from.unwrap_or("unknown")).or_insert(0) += 1;
            summary.games += r.games;
            summary.outputs += r.outputs.len();
            summary.filtered += r.filtered;
            for (kind, n) in &r.stripped {
                *summary.stripped.entry(kind).or_insert(0) += n;
            }
        }
        let mut repairs: BTreeMap<(&'static str, &'static str), usize> = BTreeMap::new();
        for d in records.iter().flat_map(|r| &r.diagnostics).filter(|d| d.code.starts_with("fix.")) {
            let severity = [Severity::Error, Severity::Warning]
                .into_iter()
                .find(|s| s.as_str() == d.severity)
                .unwrap_or(Severity::Info);
            let n = kifu::normalise::repairs_in(&Diagnostic::new(severity, d.code, d.message.clone()));
            *repairs.entry((d.code, d.severity)).or_insert(0) += n;
        }
        let mut repairs: Vec<RepairCount> =
            repairs.into_iter().map(|((code, severity), count)| RepairCount { code, severity, count }).collect();
        repairs.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)).then(a.severity.cmp(b.severity)));
        summary.repairs = repairs;
        let mut unchanged = records.iter().map(|r| r.unchanged).sum();
        if let Some(m) = &merge {
            summary.outputs = usize::from(m.status.converted());
            unchanged = usize::from(m.unchanged);
        }
        Report { records, merge, summary, removed_temp_files: 0, unchanged }
    }

    /// The report as NDJSON: `{"type":"file",…}` per input, `{"type":"merge",…}` with
    /// `--merge`, then `{"type":"summary",…}`; one JSON object per line.
    pub fn to_ndjson(&self) -> String {
        let mut out = String::new();
        let lines = self.records.iter().map(Line::File).chain(self.merge.iter().map(Line::Merge));
        for line in lines.chain(std::iter::once(Line::Summary(&self.summary))) {
            // Serialising these plain structs cannot fail.
            if let Ok(s) = serde_json::to_string(&line) {
                out.push_str(&s);
                out.push('\n');
            }
        }
        out
    }

    /// Whether any record (or the merge) has warnings or repaired errors.
    pub fn has_warnings(&self) -> bool {
        let flagged = |s: Status| matches!(s, Status::Warnings | Status::Repaired);
        Status::ALL.into_iter().filter(|&s| flagged(s)).any(|s| self.summary.count(s) > 0)
            || self.merge.as_ref().is_some_and(|m| flagged(m.status))
    }

    /// Whether any record (or the merge) failed.
    pub fn has_failures(&self) -> bool {
        self.summary.count(Status::Failed) > 0 || self.merge.as_ref().is_some_and(|m| m.status == Status::Failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu::diag::Position;

    #[test]
    fn ndjson_has_typed_lines_and_totals() {
        let mut r = Record::new("in/a.sgf".into(), Some("out/a.sgf".into()), "sgf");
        r.from = Some("sgf");
        r.games = 2;
        r.outputs.push("out/a.sgf".into());
        r.add(Stage::Read, &[Diagnostic::warning("sgf.x", "bad").at(Position::new(3, 4, 9))]);
        r.settle();
        assert_eq!(r.status, Status::Warnings);
        let failed = Record::new("in/b.sgf".into(), None, "sgf").fail(Diagnostic::error("batch.cannot-read", "gone"));
        let report = Report::new(vec![r, failed], None, 5, false);
        let text = report.to_ndjson();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["type"], "file");
        assert_eq!(lines[0]["diagnostics"][0]["line"], 3);
        assert_eq!(lines[0]["diagnostics"][0]["stage"], "read");
        assert_eq!(lines[1]["status"], "failed");
        assert_eq!(lines[1]["from"], serde_json::Value::Null);
        assert_eq!(lines[2]["type"], "summary");
        assert_eq!(lines[2]["status"]["ok"], 0);
        assert_eq!(lines[2]["status"]["warnings"], 1);
        assert_eq!(lines[2]["formats"]["unknown"], 1);
        assert_eq!(lines[2]["ignored"], 5);
        assert_eq!(lines[2]["games"], 2);
        assert!(report.has_failures() && report.has_warnings());
    }
}
