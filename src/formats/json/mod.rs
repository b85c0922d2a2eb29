//! kifu's JSON form of the game tree, as one document (`json`) or one game per line (`ndjson`).
//! Specification: [`formats/json.md`](crate::spec::json); JSON Schema: `formats/json.schema.json`.
//!
//! Both directions work without recursion and in linear time. The document's nesting depth is
//! the same whatever the tree's depth (a game's lines are listed flat), so jq, Python's `json`
//! and serde_json with its default limits read it; version-1 documents, which nest variations,
//! are read too, at any depth.

mod parse;
mod read;
mod write;

use write::{Empty, document_bytes, lines_bytes};
#[cfg(feature = "serde")]
pub(crate) use write::{write_document, write_lines};

use super::{FormatSpec, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions, WriteOutput};
use crate::diag::Diagnostic;
use crate::model::Collection;

/// The version written in the `version` field (and the highest the reader knows). Version 2
/// lists a game's variations flat, each naming its parent node (but the first, the rest of the
/// main line after its first fork, which a version-1 reader follows as `variations[0]`), so the
/// nesting depth is the same for every tree; version 1 (variations nested in variations) is
/// still read.
pub const VERSION: u32 = 2;

/// The value of the `format` field that marks kifu's JSON.
pub const MARKER: &str = "kifu";

/// Diagnostic codes of the JSON and NDJSON readers and writers (documented in [`formats/json.md`](crate::spec::json)).
pub mod codes {
    /// The input is not well-formed JSON (position of the first problem); for NDJSON, the line
    /// was skipped.
    pub const SYNTAX: &str = "json.syntax";
    /// A value has the wrong shape; the message names its JSON path. The property, node or
    /// game it belongs to was skipped (a node keeps its place, without the property).
    pub const SHAPE: &str = "json.shape";
    /// A property identifier with lower-case letters (not FF\[4\]); read as SGF readers read
    /// it (`pb` → `PB`, `Ot` → `O`).
    pub const IDENTIFIER: &str = "json.identifier";
    /// A property with an empty value array; read as one empty value (`KO[]`).
    pub const NO_VALUES: &str = "json.no-values";
    /// A composed `[first, second]` value for a property whose values are not composed; read as
    /// the text `first:second` (what SGF gives back).
    pub const NOT_COMPOSED: &str = "json.not-composed";
    /// The `format` field is missing or is not `"kifu"`.
    pub const NOT_KIFU: &str = "json.not-kifu";
    /// The `version` field is missing, unknown or newer than this reader; a newer one is read
    /// as this version, a missing or unknown one game by game by its shape.
    pub const VERSION: &str = "json.version";
    /// A key kifu does not know was ignored.
    pub const UNKNOWN_KEY: &str = "json.unknown-key";
    /// A key appeared twice in an object other than a node; the last one was used.
    pub const DUPLICATE_KEY: &str = "json.duplicate-key";
    /// A variation without nodes or variations was skipped.
    pub const EMPTY_VARIATION: &str = "json.empty-variation";
    /// A version-2 variation whose `parent` is missing (only the first variation, the rest of
    /// the main line, may go without), is not the number of a node listed before it, or is a
    /// node of a variation that was dropped; the variation was dropped.
    pub const PARENT: &str = "json.parent";
    /// Several values for a property that takes one text (`"C": ["a", "b"]`); read as one
    /// text, joined as the SGF reader joins `C[a][b]` (a blank line; a space for simple text).
    pub const VALUES_JOINED: &str = "json.values-joined";
    /// Several values for another property that takes one value (`"KM": ["6.5", "7"]`); the
    /// first kept, the others moved to the private property `XSGF<ID>`, as the SGF reader does.
    pub const EXTRA_VALUES: &str = "json.extra-values";
    /// A `\u` escape named half a surrogate pair; it became U+FFFD.
    pub const LONE_SURROGATE: &str = "json.lone-surrogate";
    /// No game was found in the input.
    pub const NO_GAME: &str = "json.no-game";
    /// The input is larger than a tree can address.
    pub const TOO_LARGE: &str = "json.too-large";
    /// JSON is always written in UTF-8; another requested output charset was ignored.
    pub const UTF8_ONLY: &str = "json.utf8-only";
    /// Written: a property without values (only the library builds one) was written as one
    /// empty value `[""]`, what the reader makes of `[]`.
    pub const LOSSY_NO_VALUES: &str = "json.lossy-no-values";
}

/// The registry entry of the JSON document form.
pub(crate) static FORMAT: FormatSpec = FormatSpec {
    name: "json",
    aliases: &[],
    extensions: &["json"],
    description: "kifu JSON: all games in one document (lossless, with a read-only digest)",
    sniff: sniff_json,
    read: Some(read_json),
    write: Some(write_json),
    shared_extension: true,
    cut: None,
    repairs: false,
    parts: Some(DOCUMENT_PARTS),
    variations: true,
    collections: true,
    table: false,
};

/// The registry entry of the NDJSON form (one game per line).
pub(crate) static NDJSON_FORMAT: FormatSpec = FormatSpec {
    name: "ndjson",
    aliases: &[],
    extensions: &["ndjson", "jsonl"],
    description: "kifu JSON, one game per line (streamable)",
    sniff: sniff_ndjson,
    read: Some(read_ndjson),
    write: Some(write_ndjson),
    shared_extension: true,
    cut: Some(super::cut::Cut::Lines),
    repairs: false,
    parts: Some(LINE_PARTS),
    variations: true,
    collections: true,
    table: false,
};

/// The document in parts: its head, the games of each part as elements of `games` joined by
/// commas, its tail.
const DOCUMENT_PARTS: super::PartWriter =
    super::PartWriter { head: write::document_head, part: document_part, separator: b",", tail: write::document_tail };

/// NDJSON in parts: the lines of each part, one after the other.
const LINE_PARTS: super::PartWriter =
    super::PartWriter { head: String::new, part: lines_part, separator: b"", tail: |_| "" };

/// The games of one part of a document, with the notes the whole-document writer gives.
fn document_part(
    collection: &Collection,
    options: &WriteOptions,
    mut bytes: Vec<u8>,
) -> Result<WriteOutput, WriteError> {
    bytes.clear();
    let empty = write::document_games(&mut bytes, collection, options.source_charset, true);
    Ok(WriteOutput { diagnostics: write_notes(collection, options, empty), bytes })
}

/// The lines of one part, as the NDJSON writer writes them, with its notes.
fn lines_part(collection: &Collection, options: &WriteOptions, mut bytes: Vec<u8>) -> Result<WriteOutput, WriteError> {
    bytes.clear();
    let empty = write::lines_into(&mut bytes, collection, options.source_charset);
    Ok(WriteOutput { diagnostics: write_notes(collection, options, empty), bytes })
}

/// Where `"games"` and `"nodes"` first appear in a head that carries the kifu marker.
fn marker_keys(bytes: &[u8]) -> Option<(Option<usize>, Option<usize>)> {
    let b = super::trim_start(bytes);
    if !b.starts_with(b"{") {
        return None;
    }
    let at = memchr::memmem::find(b, b"\"format\"")?;
    let rest = &b[at + 8..];
    let rest = &rest[rest.iter().position(|c| !c.is_ascii_whitespace())?..];
    let rest = rest.strip_prefix(b":")?;
    let rest = &rest[rest.iter().position(|c| !c.is_ascii_whitespace())?..];
    if !rest.starts_with(b"\"kifu\"") {
        return None;
    }
    Some((memchr::memmem::find(b, b"\"games\""), memchr::memmem::find(b, b"\"nodes\"")))
}

fn sniff_json(bytes: &[u8]) -> bool {
    matches!(marker_keys(bytes), Some((Some(g), n)) if n.is_none_or(|n| g < n))
}

fn sniff_ndjson(bytes: &[u8]) -> bool {
    matches!(marker_keys(bytes), Some((g, Some(n))) if g.is_none_or(|g| n < g))
}

/// Reads a kifu JSON document (or a single game object).
pub(crate) fn read_json(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    read::read(bytes, options, false)
}

/// Reads kifu NDJSON: one game (or document) per line; a malformed line is reported and skipped.
pub(crate) fn read_ndjson(bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    read::read(bytes, options, true)
}

/// The writer's notes: the charset it ignored, and every property without values (`empty`, as
/// the writer met them: a warning each, placed by node and, in a collection, by game).
pub(crate) fn write_notes(collection: &Collection, options: &WriteOptions, empty: Vec<Empty>) -> Vec<Diagnostic> {
    let mut out = utf8_note(options);
    for e in empty {
        let game = if collection.games.len() > 1 { format!(" (game {})", e.game + 1) } else { String::new() };
        out.push(Diagnostic::warning(
            codes::LOSSY_NO_VALUES,
            format!("node {}{game}: property {} has no values; written as [\"\"], one empty value", e.node, e.ident),
        ));
    }
    out
}

fn utf8_note(options: &WriteOptions) -> Vec<Diagnostic> {
    match options.encoding {
        Some(e) if e != encoding_rs::UTF_8 => vec![Diagnostic::warning(
            codes::UTF8_ONLY,
            format!("JSON is always written in UTF-8; the requested charset {} was not used", e.name()),
        )],
        _ => Vec::new(),
    }
}

/// Writes one kifu JSON document holding every game (always UTF-8).
pub(crate) fn write_json(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    let (bytes, empty) = document_bytes(collection, options.source_charset);
    Ok(WriteOutput { bytes, diagnostics: write_notes(collection, options, empty) })
}

/// Writes kifu NDJSON: one compact game object per line (always UTF-8).
pub(crate) fn write_ndjson(collection: &Collection, options: &WriteOptions) -> Result<WriteOutput, WriteError> {
    let (bytes, empty) = lines_bytes(collection, options.source_charset);
    Ok(WriteOutput { bytes, diagnostics: write_notes(collection, options, empty) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_tells_documents_from_lines() {
        let doc = b"\xEF\xBB\xBF{\n  \"format\": \"kifu\",\n  \"version\": 1,\n  \"games\": [{\"nodes\": [{}]}]}";
        let line = b"{\"format\":\"kifu\",\"version\":2,\"info\":{},\"nodes\":[{}],\"variations\":[]}\n";
        assert!(sniff_json(doc) && !sniff_ndjson(doc));
        assert!(sniff_ndjson(line) && !sniff_json(line));
        assert!(!sniff_json(b"{\"format\": \"other\", \"games\": []}"));
        assert!(!sniff_json(b"(;FF[4])") && !sniff_ndjson(b"[1, 2]"));
    }
}
