//! serde support (feature `serde`): [`Collection`] and [`GameTree`] serialize in kifu's JSON
//! shape ([`formats/json.md`](crate::spec::json)) by running the JSON writer, and deserialize by running the JSON
//! reader, so there is one definition of the shape, not two. A collection is a document
//! (`{"format": "kifu", "version": 2, "games": [...]}`); a game is one NDJSON line's object.
//!
//! The data goes through a small ordered JSON value (property order matters), so any
//! self-describing serde format works (JSON, YAML, CBOR, MessagePack, …). The shape nests at
//! most nine levels whatever the tree (a game's lines are listed flat), so serde_json's
//! recursion limit (128) is never reached; a version-1 document, which nested variations,
//! may exceed it when deep (read those with [`Format::JSON`]).
//! Deserializing is strict: where the JSON reader would repair or skip something (and report
//! it), deserializing fails with that diagnostic.

use std::fmt;

use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::diag::Severity;
use crate::formats::{Format, ReadOptions, json};
use crate::model::{Collection, GameTree};

/// A JSON value whose objects keep their members in order.
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Json>),
    Map(Vec<(String, Json)>),
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Int(i) => s.serialize_i64(*i),
            Json::Uint(u) => s.serialize_u64(*u),
            Json::Float(f) => s.serialize_f64(*f),
            Json::Str(t) => s.serialize_str(t),
            Json::Seq(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            Json::Map(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("kifu JSON")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        Json::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
        Ok(Json::Int(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
        Ok(Json::Uint(u))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Json, E> {
        Ok(Json::Float(f))
    }
    fn visit_str<E>(self, t: &str) -> Result<Json, E> {
        Ok(Json::Str(t.to_string()))
    }
    fn visit_string<E>(self, t: String) -> Result<Json, E> {
        Ok(Json::Str(t))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(i) = seq.next_element()? {
            items.push(i);
        }
        Ok(Json::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some(kv) = map.next_entry()? {
            members.push(kv);
        }
        Ok(Json::Map(members))
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// The writer's text as a serde value (serde_json keeps its recursion limit).
fn value<E: serde::ser::Error>(text: &str) -> Result<Json, E> {
    serde_json::from_str(text).map_err(E::custom)
}

/// Reads kifu JSON through the JSON reader; any warning or error fails.
fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Collection, D::Error> {
    let v = Json::deserialize(d)?;
    let text = serde_json::to_string(&v).map_err(D::Error::custom)?;
    let read = Format::JSON
        .read(text.into_bytes(), &ReadOptions::default())
        .map_err(|e| D::Error::custom(format!("not kifu JSON: {e}")))?;
    match read.diagnostics.iter().find(|d| d.severity >= Severity::Warning) {
        Some(d) => Err(D::Error::custom(format!("kifu JSON: {}[{}]: {}", d.severity, d.code, d.message))),
        None => Ok(read.collection),
    }
}

impl Serialize for Collection {
    /// kifu's JSON document (as `Format::JSON` writes it, the `info` digest included).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        value::<S::Error>(&json::write_document(self, None))?.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Collection {
    /// A kifu JSON document, or a single game object.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Collection, D::Error> {
        read(d)
    }
}

impl Serialize for GameTree {
    /// One game object, as a line of `Format::NDJSON` (marker, version, digest, nodes,
    /// variations).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let one = Collection::new(vec![self.clone()]);
        let line = json::write_lines(&one, None);
        value::<S::Error>(line.trim_end())?.serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameTree {
    /// One game object (a document holding exactly one game also works).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameTree, D::Error> {
        let mut games = read(d)?.games;
        match games.len() {
            1 => Ok(games.remove(0)),
            n => Err(D::Error::custom(format!("expected one game, found {n}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{BoardSize, Color, Point};

    fn game(sgf: &str) -> GameTree {
        Format::SGF.read(sgf.as_bytes().to_vec(), &ReadOptions::default()).unwrap().collection.games.remove(0)
    }

    #[test]
    fn serde_json_gives_kifus_json_and_reads_it_back() {
        let g = game("(;GM[1]SZ[9]PB[Shūsaku]C[a \"quote\"];B[ee](;W[cc])(;W[gg]LB[cc:x]))");
        let c = Collection::new(vec![g.clone(), g.clone()]);
        let text = serde_json::to_string(&c).unwrap();
        let ours = String::from_utf8(Format::JSON.write(&c, &Default::default()).unwrap().bytes).unwrap();
        let a: serde_json::Value = serde_json::from_str(&text).unwrap();
        let b: serde_json::Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(a, b, "same shape as the JSON writer");
        assert_eq!(serde_json::from_str::<Collection>(&text).unwrap(), c);

        let one = serde_json::to_value(&g).unwrap();
        assert_eq!(one["format"], "kifu");
        assert_eq!(one["info"]["black"], "Shūsaku");
        // `nodes` runs to the first fork (`B[ee]`); the rest of the main line comes first in
        // `variations`, without `parent`, then the side line.
        assert_eq!(one["nodes"].as_array().map(Vec::len), Some(2));
        assert_eq!(one["variations"][0], serde_json::json!({"nodes": [{"W": ["cc"]}]}));
        assert_eq!(one["variations"][1]["parent"], 1);
        assert_eq!(one["variations"][1]["nodes"][0]["LB"][0], serde_json::json!(["cc", "x"]));
        // (serde_json::Value sorts keys, so the round trip goes through text.)
        assert_eq!(serde_json::from_str::<GameTree>(&serde_json::to_string(&g).unwrap()).unwrap(), g);
    }

    #[test]
    fn inside_a_users_struct_and_strict_on_repairs() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Saved {
            label: String,
            game: GameTree,
        }
        let saved = Saved { label: "x".into(), game: game("(;B[pd];W[dp])") };
        let text = serde_json::to_string(&saved).unwrap();
        assert_eq!(serde_json::from_str::<Saved>(&text).unwrap(), saved);
        let bad = r#"{"label":"x","game":{"format":"kifu","version":2,"nodes":[{"B":"pd"}],"variations":[]}}"#;
        let err = serde_json::from_str::<Saved>(bad).unwrap_err().to_string();
        assert!(err.contains("json.shape"), "{err}");
        let two = r#"{"format":"kifu","version":2,"games":[{"nodes":[{}]},{"nodes":[{}]}]}"#;
        assert!(serde_json::from_str::<GameTree>(two).unwrap_err().to_string().contains("found 2"));
    }

    #[test]
    fn deep_trees_go_through_serde_json_with_its_default_limits() {
        // 20,000 moves, each with a variation beside it (version 1 nested these 40,000 deep):
        // serialized and deserialized by serde_json as it comes, recursion limit included.
        let mut sgf = String::from("(;SZ[19]");
        for i in 0..20_000 {
            sgf.push_str(if i % 2 == 0 { "(;B[aa]" } else { "(;W[bb]" });
        }
        for _ in 0..20_000 {
            sgf.push_str(")(;B[cc]C[side])");
        }
        sgf.push(')');
        let g = game(&sgf);
        assert_eq!(g.len(), 40_001);
        let text = serde_json::to_string(&g).unwrap();
        assert_eq!(serde_json::from_str::<GameTree>(&text).unwrap(), g);
        let c = Collection::new(vec![g]);
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Collection>(&text).unwrap(), c);
    }

    #[test]
    fn small_types_have_the_digest_shape() {
        assert_eq!(serde_json::to_string(&Color::Black).unwrap(), r#""B""#);
        assert_eq!(serde_json::to_string(&Point::new(15, 3)).unwrap(), r#"{"x":15,"y":3}"#);
        assert_eq!(serde_json::to_string(&BoardSize::square(19)).unwrap(), r#"{"width":19,"height":19}"#);
        assert_eq!(serde_json::from_str::<Color>(r#""W""#).unwrap(), Color::White);
    }
}
