//! JSON and NDJSON: round trips over fixtures and ../shared, schema validation, the README's jq
//! examples, deep and long trees, reader diagnostics.

use kifu::model::{Collection, GameTree, PropValue, TreeBuilder};
use kifu::{Format, ReadOptions, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn json() -> Format {
    Format::from_name("json").expect("json registered")
}
fn ndjson() -> Format {
    Format::from_name("ndjson").expect("ndjson registered")
}

fn write(f: Format, c: &Collection) -> String {
    let out = f.write(c, &WriteOptions::default()).expect("writes");
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    String::from_utf8(out.bytes).expect("UTF-8")
}

fn read(f: Format, text: &str) -> kifu::ReadOutput {
    f.read(text.as_bytes().to_vec(), &ReadOptions::default()).expect("reads")
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------- schema validation

/// Validates `v` against the subset of JSON Schema 2020-12 that `formats/json.schema.json`
/// uses; any other keyword is a test failure, so the schema cannot drift out of what is checked.
fn validate(schema: &Value, root: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(obj) = schema.as_object() else {
        if schema == &Value::Bool(false) {
            errors.push(format!("{path}: not allowed"));
        }
        return;
    };
    let fail = |errors: &mut Vec<String>, what: String| errors.push(format!("{path}: {what}"));
    for (k, s) in obj {
        match k.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" | "$comment" => {}
            "$ref" => {
                let name = s.as_str().and_then(|r| r.strip_prefix("#/$defs/")).expect("local $ref");
                validate(&root["$defs"][name], root, v, path, errors);
            }
            "type" => {
                let types: Vec<&str> = match s {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => panic!("bad type"),
                };
                let ok = types.iter().any(|t| match *t {
                    "null" => v.is_null(),
                    "boolean" => v.is_boolean(),
                    "string" => v.is_string(),
                    "number" => v.is_number(),
                    "integer" => v.is_i64() || v.is_u64(),
                    "array" => v.is_array(),
                    "object" => v.is_object(),
                    t => panic!("unknown type {t}"),
                });
                if !ok {
                    fail(errors, format!("expected type {types:?}, found {v}"));
                }
            }
            "const" if v != s => fail(errors, format!("expected {s}")),
            "const" => {}
            "enum" if !s.as_array().expect("enum array").contains(v) => fail(errors, format!("{v} not in {s}")),
            "enum" => {}
            "minimum" if v.as_f64().is_some_and(|x| x < s.as_f64().unwrap_or(0.0)) => fail(errors, "too small".into()),
            "maximum" if v.as_f64().is_some_and(|x| x > s.as_f64().unwrap_or(0.0)) => fail(errors, "too large".into()),
            "minimum" | "maximum" => {}
            "pattern" => {
                if let Some(t) = v.as_str() {
                    // Only `^[ranges]+$` is used.
                    let class = s.as_str().and_then(|p| p.strip_prefix("^[")).and_then(|p| p.strip_suffix("]+$"));
                    let class: Vec<char> = class.expect("pattern of the form ^[...]+$").chars().collect();
                    let ranges: Vec<(char, char)> = class.chunks(3).map(|c| (c[0], c[2])).collect();
                    if t.is_empty() || !t.chars().all(|c| ranges.iter().any(|&(a, b)| (a..=b).contains(&c))) {
                        fail(errors, format!("{t:?} does not match {s}"));
                    }
                }
            }
            "minItems" | "maxItems" => {
                if let Some(a) = v.as_array() {
                    let n = s.as_u64().expect("count") as usize;
                    if (k == "minItems" && a.len() < n) || (k == "maxItems" && a.len() > n) {
                        fail(errors, format!("{k} {n} violated"));
                    }
                }
            }
            "items" => {
                if let Some(a) = v.as_array() {
                    let skip = obj.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len);
                    for (i, x) in a.iter().enumerate().skip(skip) {
                        validate(s, root, x, &format!("{path}[{i}]"), errors);
                    }
                }
            }
            "prefixItems" => {
                if let Some(a) = v.as_array() {
                    for (i, (x, sub)) in a.iter().zip(s.as_array().expect("array")).enumerate() {
                        validate(sub, root, x, &format!("{path}[{i}]"), errors);
                    }
                }
            }
            "required" => {
                if let Some(o) = v.as_object() {
                    for r in s.as_array().expect("array").iter().filter_map(Value::as_str) {
                        if !o.contains_key(r) {
                            fail(errors, format!("missing {r}"));
                        }
                    }
                }
            }
            "properties" => {
                if let Some(o) = v.as_object() {
                    for (name, sub) in s.as_object().expect("object") {
                        if let Some(x) = o.get(name) {
                            validate(sub, root, x, &format!("{path}.{name}"), errors);
                        }
                    }
                }
            }
            "additionalProperties" => {
                if let Some(o) = v.as_object() {
                    let known = obj.get("properties").and_then(Value::as_object);
                    for (name, x) in o {
                        if !known.is_some_and(|p| p.contains_key(name)) {
                            validate(s, root, x, &format!("{path}.{name}"), errors);
                        }
                    }
                }
            }
            "propertyNames" => {
                if let Some(o) = v.as_object() {
                    for name in o.keys() {
                        validate(s, root, &Value::String(name.clone()), &format!("{path}.{name}"), errors);
                    }
                }
            }
            "anyOf" => {
                let ok = s.as_array().expect("array").iter().any(|sub| {
                    let mut e = Vec::new();
                    validate(sub, root, v, path, &mut e);
                    e.is_empty()
                });
                if !ok {
                    fail(errors, "matches none of anyOf".into());
                }
            }
            other => panic!("schema keyword {other} is not supported by the test validator"),
        }
    }
}

/// Validates every JSON value of `text` (one document, or one per line) against the schema,
/// on a thread with a large stack (serde_json and the validator recurse).
fn assert_valid(text: String, lines: bool) {
    assert_valid_against("formats/json.schema.json", text, lines);
}

/// [`assert_valid`] against the schema file `schema` (a path in the repository).
fn assert_valid_against(schema: &str, text: String, lines: bool) {
    let schema_text = std::fs::read_to_string(manifest().join(schema)).expect("schema");
    let handle = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let schema: Value = serde_json::from_str(&schema_text).expect("schema is JSON");
            let parts: Vec<&str> =
                if lines { text.lines().filter(|l| !l.is_empty()).collect() } else { vec![text.as_str()] };
            for part in parts {
                let mut de = serde_json::Deserializer::from_str(part);
                de.disable_recursion_limit();
                let v: Value = serde::Deserialize::deserialize(&mut de).expect("output is JSON");
                let mut errors = Vec::new();
                validate(&schema, &schema, &v, "", &mut errors);
                assert!(errors.is_empty(), "schema violations: {:?}", &errors[..errors.len().min(10)]);
                // Drop deep values here, on the big stack.
                drop(v);
            }
        })
        .expect("thread");
    handle.join().expect("validation passed");
}

#[test]
fn validator_rejects_what_the_schema_forbids() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(manifest().join("formats/json.schema.json")).unwrap()).unwrap();
    for bad in [
        r#"{"format":"kifu","version":1,"games":[{"info":{},"nodes":[{}],"variations":[]}]}"#,
        r#"{"format":"kifu","version":2,"games":[]}x"#,
        r#"{"format":"kifu","version":1,"games":[]}"#,
        r#"{"format":"kifu","version":3,"games":[]}"#,
    ] {
        let Ok(v) = serde_json::from_str::<Value>(bad) else { continue };
        let mut errors = Vec::new();
        validate(&schema, &schema, &v, "", &mut errors);
        assert!(!errors.is_empty(), "{bad}");
    }
    let text = write(json(), &read(Format::SGF, "(;SZ[9];B[ee]LB[aa:x]C[hi])").collection);
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["games"][0]["nodes"][1]["b"] = Value::from(vec!["x"]);
    v["games"][0]["nodes"][1]["1x"] = Value::from(vec!["x"]);
    v["games"][0]["nodes"][1]["LB"] = serde_json::json!([["aa", "x", "y"]]);
    let mut errors = Vec::new();
    validate(&schema, &schema, &v, "", &mut errors);
    assert!(!errors.is_empty());
    // A variation without its parent, or with a nested (version 1) one.
    let text = write(json(), &read(Format::SGF, "(;SZ[9](;B[ee])(;B[cc]))").collection);
    for to in ["", r#""parent": 0, "variations": [],"#] {
        let changed = text.replacen(r#""parent": 0,"#, to, 1);
        assert_ne!(changed, text);
        let v: Value = serde_json::from_str(&changed).unwrap();
        let mut errors = Vec::new();
        validate(&schema, &schema, &v, "", &mut errors);
        assert!(!errors.is_empty(), "{changed}");
    }
}

// ---------------------------------------------------------------- round trips

fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    files
}

/// SGF → JSON → model and SGF → NDJSON → model; returns whether the file was used.
fn round_trip(path: &Path) -> bool {
    let bytes = std::fs::read(path).expect("readable");
    let Ok(sgf) = Format::SGF.read(bytes, &ReadOptions::default()) else { return false };
    if sgf.diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return false;
    }
    let options = WriteOptions::default().with_source_charset(sgf.charset);
    for f in [json(), ndjson()] {
        let out = f.write(&sgf.collection, &options).expect("writes");
        let text = String::from_utf8(out.bytes).expect("UTF-8");
        let back = f.read(text.clone().into_bytes(), &ReadOptions::default()).expect("reads back");
        assert_eq!(back.diagnostics, vec![], "{}", path.display());
        assert!(back.collection == sgf.collection, "{} via {f}: models differ", path.display());
        assert_valid(text, f == ndjson());
    }
    true
}

#[test]
fn fixtures_round_trip() {
    let files = sgf_files(&manifest().join("fixtures"));
    assert!(!files.is_empty());
    let used = files.iter().filter(|p| round_trip(p)).count();
    assert!(used >= 1);
}

#[test]
fn shared_samples_round_trip() {
    let shared = manifest().join("../shared");
    if !shared.exists() {
        eprintln!("note: ../shared is absent; skipping the shared round trip");
        return;
    }
    let mut used = 0;
    let mut skipped = 0;
    for dir in ["samples/sgf", "sgf-tests"] {
        for p in sgf_files(&shared.join(dir)) {
            if round_trip(&p) { used += 1 } else { skipped += 1 }
        }
    }
    eprintln!("shared round trip: {used} files, {skipped} skipped (read with errors)");
    assert!(used > 10);
}

#[test]
fn golden_fixture_is_written_and_read_exactly() {
    let dir = manifest().join("fixtures/json");
    // The fixture's repeated LB and odd values are kept as they are (no normalisation).
    let faithful = ReadOptions::default().with_no_repair(true);
    let sgf = Format::SGF.read(std::fs::read(dir.join("tour.expected.sgf")).unwrap(), &faithful).unwrap();
    let expected = std::fs::read_to_string(dir.join("tour.json")).unwrap();
    let options = WriteOptions::default().with_source_charset(sgf.charset);
    let out = String::from_utf8(json().write(&sgf.collection, &options).unwrap().bytes).unwrap();
    assert_eq!(out, expected);
    // Found by content, read back to the same model.
    assert_eq!(Format::sniff(expected.as_bytes()), Some(json()));
    let back = read(json(), &expected);
    assert_eq!(back.collection, sgf.collection);
    let first = &back.collection.games[0];
    let node1 = first.nodes().nth(1).unwrap();
    let lbs: Vec<_> =
        node1.props().filter(|p| p.ident() == "LB").flat_map(|p| p.values().collect::<Vec<_>>()).collect();
    assert_eq!(lbs[1].parts(), Some(("pp", "two:three")));
    assert_eq!(first.root().get("AP").unwrap().values().next().unwrap().parts(), Some(("Kifu:Test", "1.0")));
    // The same games as version 1 wrote them (variations nested) read to the same model,
    // without a word, and that file is what the version-1 schema describes.
    let v1 = std::fs::read_to_string(dir.join("tour.v1.json")).unwrap();
    assert!(v1.contains("\"version\": 1,") && !v1.contains("\"parent\""));
    let old = read(json(), &v1);
    assert_eq!(old.diagnostics, vec![]);
    assert_eq!(old.collection, sgf.collection);
    assert_valid_against("formats/json.v1.schema.json", v1, false);
}

#[test]
fn version_1_nesting_is_read_with_its_odd_forms() {
    // Authored: a lone variation continues its line, one with no nodes hangs its variations
    // from the same parent, a variation without `variations`; the tree is the SGF fixture's.
    let dir = manifest().join("fixtures/json");
    let v1 = read(json(), &std::fs::read_to_string(dir.join("nested.v1.json")).unwrap());
    assert_eq!(v1.diagnostics, vec![]);
    let faithful = ReadOptions::default().with_no_repair(true);
    let sgf = Format::SGF.read(std::fs::read(dir.join("nested.v1.expected.sgf")).unwrap(), &faithful).unwrap();
    assert_eq!(v1.collection, sgf.collection);
    // Written again, it is version 2, and reads back the same.
    let text = write(json(), &v1.collection);
    assert!(text.contains("\"version\": 2,") && text.contains("\"parent\": 1,"), "{text}");
    assert_eq!(read(json(), &text).collection, sgf.collection);
    // Without a version, the shape tells: nested variations are version 1, `parent` version 2.
    let body = std::fs::read_to_string(dir.join("nested.v1.json")).unwrap().replace("\"version\": 1,", "");
    let r = read(json(), &body);
    assert_eq!(r.collection, sgf.collection);
    let d: Vec<&str> = r.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(d, ["json.version"]);
    let r = read(json(), &text.replace("\"version\": 2,", ""));
    assert_eq!(r.collection, sgf.collection);
    // Version 1 nested 5,000 deep (far past every common parser's limit) reads too.
    let depth = 5_000;
    let mut deep = String::from(r#"{"format":"kifu","version":1,"nodes":[{"SZ":["19"]}],"variations":["#);
    for i in 0..depth {
        let colour = if i % 2 == 0 { "B" } else { "W" };
        deep.push_str(r#"{"nodes":[{"W":["aa"]}],"variations":[]},{"nodes":[{""#);
        deep.push_str(colour);
        deep.push_str(r#"":["bb"]}],"variations":["#);
    }
    deep.push_str(&"]}".repeat(depth));
    deep.push_str("]}");
    let r = read(ndjson(), &deep);
    assert_eq!(r.diagnostics, vec![]);
    assert!(r.collection.games[0] == deep_tree(depth));
}

// ---------------------------------------------------------------- deep and long

/// A tree whose variations nest `depth` deep: every node on the spine has a side leaf first
/// and the spine continues as its second child, so each level is one more `variations` level.
fn deep_tree(depth: usize) -> GameTree {
    let mut b = TreeBuilder::new();
    let mut cur = b.root();
    b.add_prop(cur, "SZ", ["19"]);
    for i in 0..depth {
        let side = b.add_child(cur);
        b.add_prop(side, "W", ["aa"]);
        let next = b.add_child(cur);
        b.add_prop(next, if i % 2 == 0 { "B" } else { "W" }, [PropValue::new("bb")]);
        cur = next;
    }
    b.build()
}

/// How deep the arrays and objects of a JSON text nest.
fn nesting(text: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0, false, false);
    for b in text.bytes() {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, ..) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                max = max.max(depth);
            }
            (false, _, b']' | b'}') => depth -= 1,
            _ => {}
        }
    }
    max
}

/// The deepest a document nests: document, games, game, variations, variation, nodes, node,
/// values, composed value. A line has two levels less.
const MAX_NESTING: usize = 9;

/// Asserts that `text` (a document, or lines) nests no deeper than any game does and that
/// serde_json reads it with its default recursion limit (128).
fn assert_shallow(text: &str, lines: bool) {
    let parts: Vec<&str> = if lines { text.lines().collect() } else { vec![text] };
    for part in parts {
        assert!(nesting(part) <= MAX_NESTING - 2 * usize::from(lines), "nests {} deep", nesting(part));
        let v: Result<Value, _> = serde_json::from_str(part);
        assert!(v.is_ok(), "serde_json with its defaults: {:?}", v.err());
    }
}

#[test]
fn ten_thousand_deep_variations_both_ways() {
    let c = Collection::new(vec![deep_tree(10_000)]);
    for f in [json(), ndjson()] {
        let text = write(f, &c);
        assert_eq!(text.matches("\"parent\"").count(), 10_000);
        assert_shallow(&text, f == ndjson());
        let back = read(f, &text);
        assert_eq!(back.diagnostics, vec![]);
        assert!(back.collection == c, "{f}: deep tree differs");
        assert_valid(text, f == ndjson());
    }
    // The same depth built from SGF text.
    let mut sgf = String::from("(;SZ[19]");
    for _ in 0..10_000 {
        sgf.push_str("(;W[aa])(;B[bb]");
    }
    sgf.push_str(&")".repeat(10_001));
    let from_sgf = read(Format::SGF, &sgf).collection;
    assert!(read(json(), &write(json(), &from_sgf)).collection == from_sgf);
}

/// SGF text of a game `moves` deep whose every move has a one-move variation beside it.
fn branching_sgf(moves: usize) -> String {
    let point = |i: usize| format!("{}{}", (b'a' + (i % 19) as u8) as char, (b'a' + (i / 19 % 19) as u8) as char);
    let colour = |i: usize| if i % 2 == 0 { "B" } else { "W" };
    let mut sgf = String::from("(;GM[1]SZ[19]");
    for i in 0..moves {
        sgf.push_str(&format!("(;{}[{}]", colour(i), point(i)));
    }
    for i in (0..moves).rev() {
        sgf.push_str(&format!(")(;{}[{}]C[side {i}])", colour(i), point(i + 7)));
    }
    sgf.push(')');
    sgf
}

#[test]
fn a_hundred_thousand_moves_branching_at_every_move_round_trip_byte_for_byte() {
    let sgf = read(Format::SGF, &branching_sgf(100_000));
    let first = Format::SGF.write(&sgf.collection, &WriteOptions::default()).unwrap().bytes;
    for f in [json(), ndjson()] {
        let start = std::time::Instant::now();
        let text = write(f, &sgf.collection);
        assert_shallow(&text, f == ndjson());
        let back = read(f, &text);
        assert_eq!(back.diagnostics, vec![]);
        let again = Format::SGF.write(&back.collection, &WriteOptions::default()).unwrap().bytes;
        assert!(again == first, "{f}: SGF → {f} → SGF changed the SGF");
        eprintln!("{f}: 200,001 nodes, {} bytes, written and read in {:?}", text.len(), start.elapsed());
        if f == ndjson() {
            let game: Value = serde_json::from_str(text.trim_end()).unwrap();
            // The root forks (a side move beside the first move): `nodes` is the root alone,
            // the first variation the rest of the main line, without `parent`.
            assert_eq!(game["nodes"].as_array().map(Vec::len), Some(1), "`nodes` ends at the first fork");
            assert_eq!(game["variations"].as_array().map(Vec::len), Some(100_001));
            assert_eq!(game["variations"][0].get("parent"), None);
            assert_eq!(game["variations"][0]["nodes"].as_array().map(Vec::len), Some(100_000));
            // The first side line listed is the deepest: beside the last move, after node 99,999.
            assert_eq!(game["variations"][1]["parent"], 99_999);
            assert_eq!(game["variations"][100_000]["parent"], 0);
        }
    }
}

#[test]
fn a_million_deep_tree_needs_no_stack_and_linear_time() {
    // Every level one more variation (the spine is each node's second child): a writer or
    // reader that recursed per level would overflow this test thread's stack.
    let start = std::time::Instant::now();
    let c = Collection::new(vec![deep_tree(1_000_000)]);
    let built = start.elapsed();
    let text = write(ndjson(), &c);
    let written = start.elapsed() - built;
    let back = read(ndjson(), &text);
    let took = start.elapsed() - built;
    eprintln!(
        "a tree 1,000,000 deep: {} bytes, built in {built:?}, written in {written:?}, read in {:?}",
        text.len(),
        took - written
    );
    assert!(back.collection == c);
    assert!(nesting(&text) <= MAX_NESTING - 2);
    assert!(took < std::time::Duration::from_secs(120), "{took:?}");
}

#[test]
fn every_fox_record_nests_shallow_and_round_trips() {
    let dir = manifest().join("../shared/samples/sgf-fox");
    if !dir.exists() {
        eprintln!("note: ../shared is absent; skipping the Fox records");
        return;
    }
    let files = sgf_files(&dir);
    assert_eq!(files.len(), 26);
    let mut deepest_v1 = 0;
    for p in &files {
        let sgf = Format::SGF.read(std::fs::read(p).unwrap(), &ReadOptions::default()).unwrap();
        for f in [json(), ndjson()] {
            let text = write(f, &sgf.collection);
            assert_shallow(&text, f == ndjson());
            let back = read(f, &text);
            assert!(back.collection == sgf.collection, "{}", p.display());
        }
        // How deep version 1 nested this record: one level more per branching node on a line.
        let g = &sgf.collection.games[0];
        let mut depth = vec![0usize; g.len()];
        for n in g.nodes().skip(1) {
            let parent = g.parent(n.id()).unwrap();
            let branching = g.children(parent).nth(1).is_some();
            depth[n.id().index()] = depth[parent.index()] + 2 * usize::from(branching);
        }
        deepest_v1 = deepest_v1.max(depth.into_iter().max().unwrap_or(0));
    }
    eprintln!("Fox records: version 1 nested up to {deepest_v1} levels; version 2 at most {MAX_NESTING}");
    assert!(deepest_v1 > 128);
}

#[test]
fn long_main_line_is_a_flat_array() {
    let mut b = TreeBuilder::new();
    let mut cur = b.root();
    for i in 0..100_000u32 {
        cur = b.add_child(cur);
        let p = format!("{}{}", (b'a' + (i % 19) as u8) as char, (b'a' + (i / 19 % 19) as u8) as char);
        b.add_prop(cur, if i % 2 == 0 { "B" } else { "W" }, [p]);
    }
    let c = Collection::new(vec![b.build()]);
    let start = std::time::Instant::now();
    let text = write(json(), &c);
    let back = read(json(), &text);
    eprintln!("100,000 moves: {} bytes, write+read {:?}", text.len(), start.elapsed());
    assert!(back.collection == c);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["games"][0]["nodes"].as_array().unwrap().len(), 100_001);
    assert_eq!(v["games"][0]["variations"], serde_json::json!([]));
    assert_eq!(v["games"][0]["info"]["moves"], 100_000);
}

// ---------------------------------------------------------------- reader diagnostics

fn diags(f: Format, text: &str) -> Vec<String> {
    match f.read(text.as_bytes().to_vec(), &ReadOptions::default()) {
        Ok(r) => r.diagnostics.iter().map(|d| d.to_string()).collect(),
        Err(e) => e.diagnostics.iter().map(|d| d.to_string()).collect(),
    }
}

#[test]
fn malformed_json_is_an_error_with_line_and_column() {
    let text = "{\"format\": \"kifu\", \"version\": 1,\n \"games\": [\n  {\"nodes\": [{\"B\": [\"pd\"]}}]\n]}";
    let e = json().read(text.as_bytes().to_vec(), &ReadOptions::default()).unwrap_err();
    assert_eq!(e.diagnostics[0].to_string(), "3:27: error[json.syntax]: malformed JSON: expected ',' or ']'");
}

#[test]
fn wrong_shapes_name_the_json_path() {
    let text = r#"{"format": "kifu", "version": 1, "games": [{"nodes": [{"SZ": ["9"]}, {"B": "ee"}, {"W": [["a"]], "C": ["ok"]}, 7],
      "variations": [{"nodes": [{"B": [1]}]}, {"nodes": [{"1x": ["a"]}]}, {"nodes": []}], "extra": true}]}"#;
    assert_eq!(
        diags(json(), text),
        [
            "2:100: warning[json.unknown-key]: games[0].extra: unknown key ignored",
            "1:76: error[json.shape]: games[0].nodes[1].B: expected an array of strings (or [first, second] pairs for composed values), found a string",
            "1:90: error[json.shape]: games[0].nodes[2].W: expected a composed value: an array of two strings, found an array",
            "1:112: error[json.shape]: games[0].nodes[3]: expected a node: an object of properties or an array of pairs, found a number",
            "2:40: error[json.shape]: games[0].variations[0].nodes[0].B: expected an array of strings (or [first, second] pairs for composed values), found a number",
            "2:65: error[json.shape]: games[0].variations[1].nodes[0][\"1x\"]: a property identifier must be ASCII letters; property skipped",
            "2:75: warning[json.empty-variation]: games[0].variations[2]: empty variation skipped",
        ]
    );
    // What was sound is kept: four main-line nodes (bad ones without the bad property), two variations.
    let r = read(json(), text);
    let t = &r.collection.games[0];
    assert_eq!(t.len(), 6);
    assert_eq!(t.nodes().nth(2).unwrap().value("C"), Some("ok"));
}

#[test]
fn ndjson_skips_bad_lines_and_keeps_the_rest() {
    let c = read(Format::SGF, "(;SZ[9];B[ee])(;SZ[13];W[gg])").collection;
    let text = write(ndjson(), &c);
    assert_eq!(text.lines().count(), 2);
    assert_eq!(Format::sniff(text.as_bytes()), Some(ndjson()));
    let broken = text.replacen('\n', "\n{\"nodes\": [\n\n", 1);
    let r = read(ndjson(), &broken);
    assert_eq!(r.collection, c);
    let d: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(d, ["2:12: error[json.syntax]: line 2: malformed JSON: unexpected end of input; expected a value"]);
    // Nothing readable at all is a read error.
    assert!(ndjson().read(b"\n\n".to_vec(), &ReadOptions::default()).is_err());
    assert!(
        json().read(b"{\"format\":\"kifu\",\"version\":1,\"games\":[]}".to_vec(), &ReadOptions::default()).is_err()
    );
}

#[test]
fn faults_in_ignored_values_are_reported_as_anywhere_else() {
    // `info` and unknown keys are not read, but their JSON is checked all the same: the same
    // error at the same place, and a lone surrogate there is still a warning.
    let good = r#"{"format":"kifu","version":1,"info":{"black":"x","komi":6.5,"main_line":[{"color":"B","x":3,"y":4}]},"nodes":[{"B":["aa"]}],"variations":[],"extra":{"k":[true,null]}}"#;
    let cut = |s: &str| good[..good.find(s).unwrap() + s.len()].to_string();
    let syntax = |at: &str, m: &str| format!("{at}: error[json.syntax]: line 1: malformed JSON: {m}");
    let extra = "2:149: warning[json.unknown-key]: line 2: extra: unknown key ignored";
    for (line, first) in [
        (cut("main_"), syntax("1:67", "unterminated string")),
        (good.replace(r#""x":3"#, r#""x":03"#), syntax("1:92", "expected ',' or '}'")),
        (good.replace(r#""black":"x""#, r#""black":"a\qb""#), syntax("1:48", "invalid escape in string")),
        (
            good.replace(r#""black":"x""#, "\"black\":\"a\tb\""),
            syntax("1:48", "control character in string; it must be escaped"),
        ),
        (good.replace("6.5", "6."), syntax("1:59", "invalid number: digits expected after '.'")),
        (good.replace("6.5", "1e"), syntax("1:59", "invalid number: digits expected in the exponent")),
        (good.replace("4}]", "4},]"), syntax("1:100", "expected a value")),
        (good.replace(r#""color":"#, r#""color" "#), syntax("1:83", "expected ':' after the key")),
        (good.replace("true", "tru"), syntax("1:155", "expected a value")),
        (good.replace("null]", "null}"), syntax("1:164", "expected ',' or ']'")),
        (cut(r#""black":"x"#) + r"\u12", syntax("1:50", "incomplete \\u escape")),
    ] {
        assert_eq!(diags(ndjson(), &format!("{line}\n{good}\n")), [first.as_str(), extra], "{line}");
    }
    let lone = good.replace(r#""black":"x""#, r#""black":"a\ud800b""#);
    let r = read(ndjson(), &format!("{lone}\n{good}\n"));
    assert_eq!(r.collection.games.len(), 2);
    let d: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        d,
        [
            "1:48: warning[json.lone-surrogate]: a \\u escape is half a surrogate pair; read as U+FFFD",
            "1:156: warning[json.unknown-key]: line 1: extra: unknown key ignored",
            extra,
        ]
    );
}

#[test]
fn version_2_parents_must_be_nodes_listed_before() {
    // Nodes are numbered as listed: main line 0–2, then variations[0] 3–4, variations[2] 5.
    let text = r#"{"format":"kifu","version":2,"nodes":[{"SZ":["9"]},{"B":["ee"]},{"W":["cc"]}],"variations":[
      {"parent":1,"nodes":[{"W":["gg"]},{"B":["cc"]}]},
      {"parent":3,"nodes":[]},
      {"parent":7,"nodes":[{"W":["aa"]}]},
      {"parent":4,"nodes":[{"W":["ab"]}]},
      {"parent":5,"nodes":[{"W":["ac"]}]},
      {"parent":1.5,"nodes":[{"W":["ad"]}]},
      {"nodes":[{"W":["ae"]}]},
      {"parent":0,"nodes":[{"B":["af"]}],"variations":[]},
      7]}"#;
    assert_eq!(
        diags(ndjson(), &text.replace('\n', "")),
        [
            "1:154: warning[json.empty-variation]: line 1: variations[1]: variation without nodes skipped",
            "1:194: error[json.parent]: line 1: variations[2].parent: expected the number of a node listed before this variation (0 to 4), found 7; variation dropped",
            "1:278: error[json.parent]: line 1: variations[4].parent: node 5 is in a variation that was dropped; this one is dropped too",
            "1:320: error[json.parent]: line 1: variations[5].parent: expected the number of a node listed before this variation (0 to 7), found 1.5; variation dropped",
            "1:354: error[json.parent]: line 1: variations[6]: only the first variation may go without \"parent\" (it continues the main line); this one needs the number of the node it follows; variation dropped",
            "1:433: warning[json.unknown-key]: line 1: variations[7].variations: unknown key ignored",
            "1:443: error[json.shape]: line 1: variations[8]: expected a variation object, found a number",
        ]
    );
    // What was sound is kept, each line where its parent says.
    let sgf = |c: &Collection| Format::SGF.write(c, &WriteOptions::default()).unwrap().bytes;
    let r = read(json(), text);
    assert_eq!(r.collection.games[0].len(), 7);
    let kept = read(Format::SGF, "(;SZ[9](;B[ee](;W[cc])(;W[gg];B[cc];W[ab]))(;B[af]))").collection;
    assert_eq!(String::from_utf8(sgf(&r.collection)).unwrap(), String::from_utf8(sgf(&kept)).unwrap());
    // Variations listed out of SGF's order (a shallower one first) make the same tree, which
    // is written back in SGF's order.
    let shuffled = r#"{"format":"kifu","version":2,"nodes":[{"SZ":["9"]},{"B":["ee"]},{"W":["cc"]},{"B":["gg"]}],
      "variations":[{"parent":1,"nodes":[{"W":["gg"]}]},{"parent":2,"nodes":[{"B":["cc"]}]}]}"#;
    let r = read(json(), shuffled);
    assert_eq!(r.diagnostics, vec![]);
    let want = read(Format::SGF, "(;SZ[9];B[ee](;W[cc](;B[gg])(;B[cc]))(;W[gg]))").collection;
    assert_eq!(r.collection, want);
    let again = write(ndjson(), &r.collection);
    let sgf_order = r#""nodes":[{"SZ":["9"]},{"B":["ee"]}],"variations":[{"nodes":[{"W":["cc"]},{"B":["gg"]}]},{"parent":2,"nodes":[{"B":["cc"]}]},{"parent":1,"nodes":[{"W":["gg"]}]}]"#;
    assert!(again.contains(sgf_order), "{again}");
}

/// A JSON node's properties as (identifier, values), a composed value as `first:second`,
/// sorted (serde_json's `Value` sorts an object's keys).
fn json_props(node: &Value) -> Vec<(String, Vec<String>)> {
    let value = |v: &Value| match v {
        Value::Array(ab) => format!("{}:{}", ab[0].as_str().unwrap(), ab[1].as_str().unwrap()),
        v => v.as_str().expect("a value is a string or a pair").to_string(),
    };
    let values = |vs: &Value| vs.as_array().expect("values").iter().map(value).collect::<Vec<_>>();
    let mut props: Vec<_> = match node {
        Value::Object(m) => m.iter().map(|(k, vs)| (k.clone(), values(vs))).collect(),
        Value::Array(pairs) => pairs.iter().map(|p| (p[0].as_str().unwrap().to_string(), values(&p[1]))).collect(),
        other => panic!("not a node: {other}"),
    };
    props.sort();
    props
}

/// A model node's properties as [`json_props`] gives a JSON node's.
fn model_props(n: kifu::model::Node<'_>) -> Vec<(String, Vec<String>)> {
    let value =
        |v: kifu::model::Value<'_>| v.parts().map_or_else(|| v.as_str().to_string(), |(a, b)| format!("{a}:{b}"));
    let mut props: Vec<_> = n.props().map(|p| (p.ident().to_string(), p.values().map(value).collect())).collect();
    props.sort();
    props
}

/// What a reader written for version 1 makes of a game object, as the interop harness's
/// readers do: the main line (`nodes`, then `variations[0]`'s, repeatedly) and every node (each
/// `nodes` array reached by walking `variations`, recursively).
fn version_1_walk(game: &Value) -> (Vec<&Value>, Vec<&Value>) {
    let mut main = Vec::new();
    let mut seq = Some(game);
    while let Some(s) = seq {
        main.extend(s["nodes"].as_array().expect("nodes"));
        seq = s.get("variations").and_then(Value::as_array).and_then(|v| v.first());
    }
    let mut all = Vec::new();
    let mut work = vec![game];
    while let Some(s) = work.pop() {
        all.extend(s["nodes"].as_array().expect("nodes"));
        work.extend(s.get("variations").and_then(Value::as_array).into_iter().flatten().rev());
    }
    (main, all)
}

#[test]
fn a_version_1_walker_reads_the_main_line_and_every_node() {
    // Trees forking at the root, at the last main-line node, deep, nested, and none at all.
    let mut inputs: Vec<(String, Collection)> = [
        "(;SZ[9];B[ee](;W[cc];B[gg](;W[cg])(;W[gc]))(;W[gg]))",
        "(;SZ[9];B[aa];W[bb](;B[cc])(;B[dd]))",
        "(;SZ[9](;B[aa])(;B[bb];W[cc])(;B[dd]C[third]))",
        "(;SZ[9];B[aa];W[bb];B[cc])",
        &branching_sgf(300),
    ]
    .iter()
    .map(|sgf| (sgf.chars().take(40).collect(), read(Format::SGF, sgf).collection))
    .collect();
    inputs.push(("deep tree".into(), Collection::new(vec![deep_tree(300)])));
    let faithful = ReadOptions::default().with_no_repair(true);
    let mut files = vec![
        manifest().join("fixtures/json/tour.expected.sgf"),
        manifest().join("fixtures/json/nested.v1.expected.sgf"),
    ];
    let fox = manifest().join("../shared/samples/sgf-fox");
    if fox.exists() {
        files.extend(sgf_files(&fox));
    } else {
        eprintln!("note: ../shared is absent; the version-1 walk skips the Fox records");
    }
    for f in files {
        let c = Format::SGF.read(std::fs::read(&f).unwrap(), &faithful).unwrap().collection;
        inputs.push((f.display().to_string(), c));
    }
    let mut forked = 0;
    for (name, c) in &inputs {
        let doc: Value = serde_json::from_str(&write(json(), c)).unwrap();
        let lines: Vec<Value> = write(ndjson(), c).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        for (i, g) in c.games.iter().enumerate() {
            // The model's main line and its nodes in SGF's order (pre-order).
            let main: Vec<_> = g.main_line().map(model_props).collect();
            let mut sgf_order = Vec::new();
            let mut stack = vec![kifu::model::NodeId::ROOT];
            while let Some(id) = stack.pop() {
                sgf_order.push(model_props(g.node(id)));
                let kids: Vec<_> = g.children(id).collect();
                stack.extend(kids.into_iter().rev());
            }
            let moves: usize =
                main.iter().flatten().filter(|(k, _)| k == "B" || k == "W").map(|(_, vs)| vs.len()).sum();
            for game in [&doc["games"][i], &lines[i]] {
                let (walked_main, walked_all) = version_1_walk(game);
                let walked_main: Vec<_> = walked_main.into_iter().map(json_props).collect();
                assert_eq!(walked_main, main, "{name}: the main line a version-1 reader sees");
                assert_eq!(walked_all.len(), g.len(), "{name}: the nodes a version-1 reader counts");
                assert_eq!(game["info"]["moves"], moves, "{name}: info.moves against the walked main line");
                // Nodes are numbered in the order listed, which is SGF's order.
                let mut listed: Vec<&Value> = game["nodes"].as_array().unwrap().iter().collect();
                for v in game["variations"].as_array().unwrap() {
                    listed.extend(v["nodes"].as_array().unwrap());
                }
                let listed: Vec<_> = listed.into_iter().map(json_props).collect();
                assert_eq!(listed, sgf_order, "{name}: listed order");
                // `nodes` runs to the first fork; only the first variation goes without `parent`.
                let vars = game["variations"].as_array().unwrap();
                if g.has_variations() {
                    forked += 1;
                    let fork = g.main_line().position(|n| n.children().nth(1).is_some()).unwrap();
                    assert_eq!(game["nodes"].as_array().unwrap().len(), fork + 1, "{name}");
                    assert!(vars[0].get("parent").is_none() && vars[0].get("variations").is_none(), "{name}");
                    assert!(vars[1..].iter().all(|v| v["parent"].is_u64()), "{name}");
                } else {
                    assert!(vars.is_empty(), "{name}");
                }
            }
        }
    }
    assert!(forked >= 2 * 7, "{forked} games with variations walked");
}

#[test]
fn the_rest_of_the_main_line_without_parent_and_todays_shape_both_read() {
    let sgf = "(;SZ[9];B[ee](;W[cc];B[gg](;W[cg])(;W[gc]))(;W[gg]))";
    let want = read(Format::SGF, sgf).collection;
    let line = write(ndjson(), &want);
    let rest = r#""variations":[{"nodes":[{"W":["cc"]},{"B":["gg"]},{"W":["cg"]}]},{"parent":3,"nodes":[{"W":["gc"]}]},{"parent":1,"nodes":[{"W":["gg"]}]}]"#;
    assert!(line.contains(r#""nodes":[{"SZ":["9"]},{"B":["ee"]}],"#) && line.contains(rest), "{line}");
    // The shape that names a parent in every variation, `nodes` the whole main line, reads the
    // same, with a version and without one (then the shape tells: `parent` is version 2).
    let whole = r#"{"format":"kifu","version":2,"nodes":[{"SZ":["9"]},{"B":["ee"]},{"W":["cc"]},{"B":["gg"]},{"W":["cg"]}],
      "variations":[{"parent":3,"nodes":[{"W":["gc"]}]},{"parent":1,"nodes":[{"W":["gg"]}]}]}"#;
    for text in [line.clone(), whole.replace('\n', ""), line.replace(r#""version":2,"#, "")] {
        let r = read(ndjson(), &text);
        assert_eq!(r.collection, want, "{text}");
        let codes: Vec<&str> = r.diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.iter().all(|&c| c == "json.version"), "{codes:?}");
    }
    // The rest of the main line may hang from any main line: `nodes` cut anywhere, the first
    // variation taking the rest, still reads the same tree.
    let cut = r#"{"format":"kifu","version":2,"nodes":[{"SZ":["9"]}],"variations":[
      {"nodes":[{"B":["ee"]},{"W":["cc"]},{"B":["gg"]},{"W":["cg"]}]},{"parent":3,"nodes":[{"W":["gc"]}]},{"parent":1,"nodes":[{"W":["gg"]}]}]}"#;
    let r = read(json(), cut);
    assert_eq!(r.diagnostics, vec![]);
    assert_eq!(r.collection, want);
    // Only the first variation may go without `parent`: a second one is dropped, and said.
    let second = r#"{"format":"kifu","version":2,"nodes":[{"SZ":["9"]},{"B":["ee"]}],"variations":[{"nodes":[{"W":["cc"]}]},{"nodes":[{"W":["gg"]}]}]}"#;
    assert_eq!(
        diags(json(), second),
        [
            "1:105: error[json.parent]: variations[1]: only the first variation may go without \"parent\" (it continues the main line); this one needs the number of the node it follows; variation dropped"
        ]
    );
    assert_eq!(read(json(), second).collection, read(Format::SGF, "(;SZ[9];B[ee];W[cc])").collection);
    // Without a version, a game whose one variation nests more is version 1 (version 2 never
    // nests), and one whose variations name no parent at all is version 1 too.
    let v1_one = r#"{"format":"kifu","nodes":[{"SZ":["9"]},{"B":["ee"]}],"variations":[
      {"nodes":[{"W":["cc"]}],"variations":[{"nodes":[{"B":["gg"]}]},{"nodes":[{"B":["dd"]}]}]}]}"#;
    let v1_two = r#"{"format":"kifu","nodes":[{"SZ":["9"]},{"B":["ee"]}],"variations":[
      {"nodes":[{"W":["cc"]}]},{"nodes":[{"W":["gg"]}]}]}"#;
    for (text, sgf) in [(v1_one, "(;SZ[9];B[ee];W[cc](;B[gg])(;B[dd]))"), (v1_two, "(;SZ[9];B[ee](;W[cc])(;W[gg]))")] {
        for f in [json(), ndjson()] {
            let r = read(f, &text.replace('\n', ""));
            assert_eq!(r.collection, read(Format::SGF, sgf).collection, "{f}: {text}");
            let codes: Vec<&str> = r.diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["json.version"], "{f}: {text}");
        }
    }
    // In a document without a version, each game is read by its own shape.
    let mixed = format!(r#"{{"format":"kifu","games":[{},{}]}}"#, v1_one.replace('\n', ""), line.trim_end());
    let r = read(json(), &mixed);
    let both = read(Format::SGF, &format!("(;SZ[9];B[ee];W[cc](;B[gg])(;B[dd])){sgf}")).collection;
    assert_eq!(r.collection, both);
}

#[test]
fn several_values_for_one_value_properties_are_made_one_and_said() {
    // `"C": ["a", "b"]` would be written `C[a][b]`, which the SGF reader joins: the JSON reader
    // joins it the same way, with a warning, so that every round trip after it is exact.
    let text = r#"{"format":"kifu","version":2,"nodes":[{"GN":["a","b","a"],"C":["one","","two"],"KM":["6.5","7"],"AB":["aa","bb"]}],"variations":[]}"#;
    let r = read(json(), text);
    let d: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        d,
        [
            "1:45: warning[json.values-joined]: nodes[0].GN: 'GN' takes one text but has 3 values; joined with a space",
            "1:63: warning[json.values-joined]: nodes[0].C: 'C' takes one text but has 3 values; joined with a blank line",
            "1:85: warning[json.extra-values]: nodes[0].KM: 'KM' takes one value but has 2; the first kept, the others moved to XSGFKM",
        ]
    );
    let root = r.collection.games[0].root();
    assert_eq!(root.value("GN"), Some("a b"));
    assert_eq!(root.value("C"), Some("one\n\ntwo"));
    assert_eq!(root.value("KM"), Some("6.5"));
    assert_eq!(root.value("XSGFKM"), Some("7"));
    assert_eq!(root.get("AB").unwrap().values().count(), 2, "a list keeps its values");
    // From here on, SGF → JSON → SGF and JSON → SGF → JSON are exact, without a word.
    let sgf = Format::SGF.write(&r.collection, &WriteOptions::default()).unwrap().bytes;
    let via_sgf = Format::SGF.read(sgf.clone(), &ReadOptions::default()).unwrap();
    assert_eq!(via_sgf.diagnostics, vec![]);
    let json_again = write(json(), &via_sgf.collection);
    let back = read(json(), &json_again);
    assert_eq!(back.diagnostics, vec![]);
    assert_eq!(back.collection, via_sgf.collection);
    assert_eq!(Format::SGF.write(&back.collection, &WriteOptions::default()).unwrap().bytes, sgf);
    let once_more = Format::SGF.read(sgf.clone(), &ReadOptions::default()).unwrap();
    assert_eq!(write(json(), &once_more.collection), json_again);
    // Read without repairs, the values stay as they are (as SGF's `C[a][b]` does then), and
    // the round trip without repairs is exact too.
    let exact = ReadOptions::default().with_no_repair(true);
    let r = json().read(text.as_bytes().to_vec(), &exact).unwrap();
    assert_eq!(r.diagnostics, vec![]);
    assert_eq!(r.collection.games[0].root().get("C").unwrap().values().count(), 3);
    let sgf = Format::SGF.write(&r.collection, &WriteOptions::default()).unwrap().bytes;
    assert!(String::from_utf8_lossy(&sgf).contains("C[one][][two]"));
    let via_sgf = Format::SGF.read(sgf.clone(), &exact).unwrap();
    assert_eq!(via_sgf.collection.games[0].root().get("C").unwrap().values().count(), 3);
    let back = json().read(write(json(), &via_sgf.collection).into_bytes(), &exact).unwrap();
    assert_eq!(back.diagnostics, vec![]);
    assert_eq!(back.collection, via_sgf.collection);
    assert_eq!(Format::SGF.write(&back.collection, &WriteOptions::default()).unwrap().bytes, sgf);
}

#[test]
fn markers_versions_and_single_games() {
    let d = diags(json(), r#"{"nodes": [{"B": ["aa"]}]}"#);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[0].contains("json.not-kifu") && d[1].contains("json.version"));
    let d = diags(json(), r#"{"format": "kifu", "version": 3, "nodes": [{}], "variations": []}"#);
    assert_eq!(d, ["1:31: warning[json.version]: version 3 is newer than this reader (version 2); reading it as such"]);
    assert_eq!(diags(json(), r#"{"format": "kifu", "version": 1, "nodes": [{}], "variations": []}"#), [""; 0]);
    let d = diags(json(), r#"{"format":"kifu","version":1,"games":[{"nodes":[{"C":["a\ud800"]}]}],"games":[]}"#);
    assert!(d.iter().any(|s| s.contains("json.lone-surrogate")) && d.iter().any(|s| s.contains("json.duplicate-key")));
}

#[test]
fn writing_another_charset_warns_and_stays_utf8() {
    let c = read(Format::SGF, "(;PB[柯洁])").collection;
    let out = json().write(&c, &WriteOptions::default().with_encoding(Some(encoding_rs::GBK))).unwrap();
    assert!(String::from_utf8(out.bytes).unwrap().contains("柯洁"));
    assert_eq!(out.diagnostics[0].code, "json.utf8-only");
}

// ---------------------------------------------------------------- README jq examples

/// The jq examples of the README's `### JSON` section, with what they print for
/// `fixtures/json/tour.json`.
const JQ_EXAMPLES: &[(&str, &str)] = &[
    ("'.games[0].info.black'", "\"Hoshino Ai\"\n"),
    (
        "-r '.games[] | [.info.black, .info.white, .info.result.winner // \"-\"] | @tsv'",
        "Hoshino Ai\t김 민준\tW\nSolo\t\tB\n",
    ),
    ("-c '.games[0].info.main_line[:2]'", "[{\"color\":\"B\",\"x\":15,\"y\":3},{\"color\":\"W\",\"x\":3,\"y\":15}]\n"),
    ("-r '.games[0].nodes[0].C[0]'", "A comment with ] and \\ and a line\nbreak.\n"),
    ("'[.games[] | .info.moves] | add'", "5\n"),
];

/// What each example computes, in Rust, for when jq is not installed.
fn jq_equivalent(i: usize, v: &Value) -> String {
    let g = v["games"].as_array().unwrap();
    match i {
        0 => format!("{}\n", g[0]["info"]["black"]),
        1 => g
            .iter()
            .map(|g| {
                let s = |x: &Value| x.as_str().unwrap_or("").to_string();
                let w = g["info"]["result"]["winner"].as_str().unwrap_or("-");
                format!("{}\t{}\t{}\n", s(&g["info"]["black"]), s(&g["info"]["white"]), w)
            })
            .collect(),
        2 => format!("{}\n", Value::from(g[0]["info"]["main_line"].as_array().unwrap()[..2].to_vec())),
        3 => format!("{}\n", g[0]["nodes"][0]["C"][0].as_str().unwrap()),
        4 => format!("{}\n", g.iter().map(|g| g["info"]["moves"].as_u64().unwrap()).sum::<u64>()),
        _ => unreachable!(),
    }
}

/// Splits a jq argument string like `-r '.a | .b'` into arguments.
fn jq_args(s: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('\'') {
            let end = r.find('\'').unwrap();
            args.push(r[..end].to_string());
            rest = r[end + 1..].trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            args.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    args
}

#[test]
fn readme_jq_examples_work() {
    let readme = std::fs::read_to_string(manifest().join("README.md")).unwrap();
    let section = readme.split("### JSON").nth(1).expect("README has a ### JSON section");
    let tour = manifest().join("fixtures/json/tour.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&tour).unwrap()).unwrap();
    let have_jq = std::process::Command::new("jq").arg("--version").output().is_ok_and(|o| o.status.success());
    for (i, (filter, expected)) in JQ_EXAMPLES.iter().enumerate() {
        assert!(section.contains(&format!("jq {filter}")), "README lacks `jq {filter}`");
        assert_eq!(&jq_equivalent(i, &v), expected, "Rust equivalent of example {i}");
        if have_jq {
            let out = std::process::Command::new("jq").args(jq_args(filter)).arg(&tour).output().unwrap();
            assert!(out.status.success(), "jq {filter}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(String::from_utf8(out.stdout).unwrap(), *expected, "jq {filter}");
        }
    }
    if !have_jq {
        eprintln!("note: jq is not installed; checked the README examples with Rust equivalents");
    }
}

#[test]
fn readme_ndjson_example_works() {
    let readme = std::fs::read_to_string(manifest().join("README.md")).unwrap();
    let filter = "select(.info.result.winner == \"W\") | .info.white";
    assert!(readme.contains(&format!("-t ndjson | jq -c '{filter}'")));
    let sgf = Format::SGF
        .read(std::fs::read(manifest().join("fixtures/json/tour.expected.sgf")).unwrap(), &ReadOptions::default());
    let text = write(ndjson(), &sgf.unwrap().collection);
    let rust: String = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["info"]["result"]["winner"] == "W")
        .map(|v| format!("{}\n", v["info"]["white"]))
        .collect();
    assert_eq!(rust, "\"김 민준\"\n");
    if std::process::Command::new("jq").arg("--version").output().is_ok_and(|o| o.status.success()) {
        let mut child = std::process::Command::new("jq")
            .args(["-c", filter])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), rust);
    }
}

#[test]
fn sniffing_prefers_kifu_json_over_sgf_looking_text() {
    let c = read(Format::SGF, "(;C[see (;B[aa\\]) here])").collection;
    for f in [json(), ndjson()] {
        assert_eq!(Format::sniff(write(f, &c).as_bytes()), Some(f));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any input, and any cut or byte change of a real document, reads or fails cleanly.
    #[test]
    fn reading_never_panics(junk in ".{0,200}", cut in 0usize..2000, byte in 0u8..128, at in 0usize..2000) {
        let tour = std::fs::read(manifest().join("fixtures/json/tour.json")).unwrap();
        let mut changed = tour.clone();
        let at = at % changed.len();
        changed[at] = byte;
        for input in [junk.into_bytes(), tour[..cut.min(tour.len())].to_vec(), changed] {
            for f in [json(), ndjson()] {
                if let Ok(r) = f.read(input.clone(), &ReadOptions::default()) {
                    // Whatever was read writes and reads back to the same model.
                    let again = read(f, &write(f, &r.collection));
                    proptest::prop_assert!(again.collection == r.collection);
                }
            }
        }
    }
}
