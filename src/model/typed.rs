//! Typed property values: every FF\[4\] Go value type read into Rust values ([`Typed`]), with
//! one accessor per type on [`Property`]. The raw text stays reachable through
//! [`Property::values`].

use super::point::{BoardSize, Color, Move, Point, expand_rect};
use super::props::ValueType;
use super::tree::{Property, Value};

/// An FF\[4\] `Double`: `1` (normal) or `2` (emphasized), as in `GB[2]` "very good for Black".
///
/// ```
/// use kifu::model::Double;
/// let game = kifu::read(&b"(;GM[1];B[pd]TE[2])"[..]).unwrap().collection.games.remove(0);
/// let te = game.root().first_child().unwrap().get("TE").unwrap();
/// assert_eq!(te.double(), Some(Double::Emphasized));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Double {
    /// `1`.
    Normal,
    /// `2`.
    Emphasized,
}

impl Double {
    /// Reads `1` or `2`.
    pub fn from_sgf(value: &str) -> Option<Double> {
        match value.trim() {
            "1" => Some(Double::Normal),
            "2" => Some(Double::Emphasized),
            _ => None,
        }
    }
}

/// A property's values read by the property's FF\[4\] value type ([`Property::typed`]).
///
/// ```
/// use kifu::model::{BoardSize, Typed};
/// let game = kifu::read(&b"(;SZ[13]HA[2]C[hello])"[..]).unwrap().collection.games.remove(0);
/// let typed: Vec<Typed> = game.root().props().filter_map(|p| p.typed()).collect();
/// assert_eq!(typed, [Typed::Size(BoardSize::square(13)), Typed::Number(2), Typed::Text("hello")]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Typed<'a> {
    /// No value (`KO[]`, `DO[]`, `IT[]`).
    None,
    /// An integer (`HA`, `MN`, `OB`, `FF`, …).
    Number(i64),
    /// A real number (`KM`, `TM`, `BL`, `V`, …).
    Real(f64),
    /// `1` or `2` (`GB`, `TE`, `BM`, `HO`, …).
    Double(Double),
    /// A colour (`PL`).
    Color(Color),
    /// Text (`C`, `GC`) or simple text (`PB`, `N`, `RE`, …), unescaped.
    Text(&'a str),
    /// A move (`B`, `W`), a pass included.
    Move(Move),
    /// A point list (`AB`, `AW`, `AE`, `TR`, `CR`, `SQ`, `MA`, `SL`, `TB`, `TW`, `DD`, `VW`),
    /// compressed rectangles expanded row by row; empty for `TB[]`, `DD[]`, `VW[]`.
    Points(Vec<Point>),
    /// A board size (`SZ`).
    Size(BoardSize),
    /// Two simple texts (`AP[CGoban:3]`).
    TextPair(&'a str, &'a str),
    /// Labels (`LB[dd:A]`): point and text.
    Labels(Vec<(Point, &'a str)>),
    /// Point pairs (`AR`, `LN`): from, to.
    PointPairs(Vec<(Point, Point)>),
    /// A figure (`FG`): `None` for `FG[]`, else flags and name.
    Figure(Option<(i64, &'a str)>),
}

fn number(v: &str) -> Option<i64> {
    v.trim().parse().ok()
}

fn real(v: &str) -> Option<f64> {
    v.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A point list's values (compressed rectangles expanded); `None` if any value is not a point.
fn point_list<'a>(values: impl Iterator<Item = Value<'a>>) -> Option<Vec<Point>> {
    let mut out = Vec::new();
    for v in values {
        if v.as_str().is_empty() && v.parts().is_none() {
            continue;
        }
        let (a, b) = v.parts().map_or((v.as_str(), None), |(a, b)| (a, Some(b)));
        out.extend(expand_rect(a, b)?);
    }
    Some(out)
}

impl<'a> Property<'a> {
    /// The values read by the property's FF\[4\] value type (the board size, needed for moves,
    /// is the tree's). `None` for unknown and private properties, and when a value does not
    /// have its type (the raw text is still in [`Property::values`]).
    ///
    /// ```
    /// use kifu::model::{Move, Point, Typed};
    /// let read = kifu::read(&b"(;SZ[9]KM[6.5]AB[aa:bb]LB[cc:A];B[ee];W[])"[..]).unwrap();
    /// let game = &read.collection.games[0];
    /// let root = game.root();
    /// assert_eq!(root.get("KM").unwrap().typed(), Some(Typed::Real(6.5)));
    /// assert_eq!(root.get("AB").unwrap().typed().map(|t| match t { Typed::Points(p) => p.len(), _ => 0 }), Some(4));
    /// assert_eq!(root.get("LB").unwrap().typed(), Some(Typed::Labels(vec![(Point::new(2, 2), "A")])));
    /// let w = game.node_at(&[0, 0]).unwrap();
    /// assert_eq!(game.node(w).get("W").unwrap().typed(), Some(Typed::Move(Move::Pass)));
    /// ```
    pub fn typed(&self) -> Option<Typed<'a>> {
        let first = || self.first();
        Some(match self.def()?.value {
            ValueType::None => Typed::None,
            ValueType::Number => Typed::Number(self.number()?),
            ValueType::Real => Typed::Real(self.real()?),
            ValueType::Double => Typed::Double(self.double()?),
            ValueType::Color => Typed::Color(self.color()?),
            ValueType::SimpleText | ValueType::Text => Typed::Text(first()?),
            ValueType::Move => Typed::Move(self.mv_on(self.tree_board_size())?),
            ValueType::PointList | ValueType::PointElist => Typed::Points(point_list(self.values())?),
            ValueType::SizeValue => Typed::Size(self.size()?),
            ValueType::TextPair => {
                let v = self.values().next()?;
                let (a, b) = v.parts().unwrap_or((v.as_str(), ""));
                Typed::TextPair(a, b)
            }
            ValueType::Label => Typed::Labels(self.labels()?),
            ValueType::PointPair => Typed::PointPairs(self.point_pairs()?),
            ValueType::Figure => Typed::Figure(self.figure()?),
        })
    }

    fn tree_board_size(&self) -> BoardSize {
        self.tree().board_size()
    }

    /// The first value as an integer (`HA[2]`, `MN[57]`).
    pub fn number(&self) -> Option<i64> {
        self.first().and_then(number)
    }

    /// The first value as a real number (`KM[6.5]`, `BL[30.2]`); non-finite values are `None`.
    pub fn real(&self) -> Option<f64> {
        self.first().and_then(real)
    }

    /// The first value as a [`Double`] (`GB[2]`).
    pub fn double(&self) -> Option<Double> {
        self.first().and_then(Double::from_sgf)
    }

    /// The first value as a move on a board of `size` (`B[pd]`; `B[]`, and `B[tt]` up to
    /// 19×19, are passes).
    pub fn mv_on(&self, size: BoardSize) -> Option<Move> {
        self.first().and_then(|v| Move::from_sgf(v, size))
    }

    /// The first value as a board size (`SZ[19]`, `SZ[19:13]`).
    pub fn size(&self) -> Option<BoardSize> {
        let v = self.values().next()?;
        match v.parts() {
            Some((w, h)) => BoardSize::from_sgf(&format!("{w}:{h}")),
            None => BoardSize::from_sgf(v.as_str()),
        }
    }

    /// The labels of `LB` (point and text); `None` if a value is not `point:text`.
    pub fn labels(&self) -> Option<Vec<(Point, &'a str)>> {
        self.values().map(|v| v.parts().and_then(|(p, t)| Some((Point::from_sgf(p)?, t)))).collect()
    }

    /// The point pairs of `AR` / `LN` (from, to); `None` if a value is not `point:point`.
    pub fn point_pairs(&self) -> Option<Vec<(Point, Point)>> {
        self.values().map(|v| v.parts().and_then(|(a, b)| Some((Point::from_sgf(a)?, Point::from_sgf(b)?)))).collect()
    }

    /// `FG`: `Some(None)` for `FG[]`, `Some(Some((flags, name)))` for `FG[257:Figure 1]`.
    pub fn figure(&self) -> Option<Option<(i64, &'a str)>> {
        let v = self.values().next()?;
        match v.parts() {
            Some((flags, name)) => Some(Some((number(flags)?, name))),
            None if v.as_str().is_empty() => Some(None),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::props::PROPS;

    fn root_of(sgf: &str) -> crate::model::GameTree {
        crate::formats::Format::SGF
            .read(sgf.as_bytes().to_vec(), &Default::default())
            .unwrap()
            .collection
            .games
            .remove(0)
    }

    #[test]
    fn every_go_property_reads_typed() {
        let t = root_of(
            "(;FF[4]GM[1]SZ[19:13]AP[kifu:0.1]CA[UTF-8]ST[2]HA[2]KM[0.5]TM[600]PB[b]RE[B+R]\
             AB[dd][pp]AW[aa:bb]AE[]PL[W]C[multi\nline]N[name]DM[1]GB[2]GW[1]HO[2]UC[1]V[-1.5]\
             AR[aa:bb]CR[cc]DD[]LB[dd:x][ee:y z]LN[aa:cc]MA[ff]SL[gg]SQ[hh]TR[ii]TB[jj:kk]TW[]\
             FG[257:Figure 1]PM[2]VW[]\
             ;B[tt]BL[30.5]OB[3]BM[2]KO[]MN[5];W[]WL[1]OW[1]TE[1]DO[]IT[])",
        );
        let mut seen = Vec::new();
        for n in t.nodes() {
            for p in n.props() {
                let typed = p.typed();
                assert!(typed.is_some(), "{:?} did not read typed", p);
                seen.push(p.ident());
            }
        }
        for d in PROPS.iter().filter(|d| !d.obsolete) {
            let text_info = d.kind == crate::model::PropKind::GameInfo && d.value.is_simple_text() || d.ident == "GC";
            assert!(seen.contains(&d.ident) || text_info, "{} not exercised", d.ident);
        }
        let root = t.root();
        let get = |id: &str| root.get(id).unwrap().typed().unwrap();
        assert_eq!(get("SZ"), Typed::Size(BoardSize { width: 19, height: 13 }));
        assert_eq!(get("AP"), Typed::TextPair("kifu", "0.1"));
        assert_eq!(
            get("AW"),
            Typed::Points(vec![Point::new(0, 0), Point::new(1, 0), Point::new(0, 1), Point::new(1, 1)])
        );
        assert_eq!(get("AE"), Typed::Points(vec![]));
        assert_eq!(get("PL"), Typed::Color(Color::White));
        assert_eq!(get("C"), Typed::Text("multi\nline"));
        assert_eq!(get("GB"), Typed::Double(Double::Emphasized));
        assert_eq!(get("V"), Typed::Real(-1.5));
        assert_eq!(get("HA"), Typed::Number(2));
        assert_eq!(get("LB"), Typed::Labels(vec![(Point::new(3, 3), "x"), (Point::new(4, 4), "y z")]));
        assert_eq!(get("LN"), Typed::PointPairs(vec![(Point::new(0, 0), Point::new(2, 2))]));
        assert_eq!(get("FG"), Typed::Figure(Some((257, "Figure 1"))));
        assert_eq!(
            get("TB"),
            Typed::Points(vec![Point::new(9, 9), Point::new(10, 9), Point::new(9, 10), Point::new(10, 10)])
        );
        let b = t.node(crate::model::NodeId::from_index(1));
        // tt is a pass on boards up to 19x19 (this one is 19x13).
        assert_eq!(b.get("B").unwrap().typed(), Some(Typed::Move(Move::Pass)));
        assert_eq!(b.get("KO").unwrap().typed(), Some(Typed::None));
        assert_eq!(b.get("BL").unwrap().typed(), Some(Typed::Real(30.5)));
    }

    #[test]
    fn values_of_the_wrong_type_are_none_but_raw_text_stays() {
        let t = root_of("(;KM[six]AB[dd][zz9]LB[dd]XX[private]FG[x:y])");
        let root = t.root();
        for id in ["KM", "AB", "LB", "XX", "FG"] {
            assert_eq!(root.get(id).unwrap().typed(), None, "{id}");
        }
        assert_eq!(root.value("KM"), Some("six"));
        assert_eq!(root.get("AB").unwrap().values().nth(1).unwrap().as_str(), "zz9");
    }
}
