//! The FF\[4\] property table for Go: each identifier's property type and value type.
//!
//! One table drives unescaping (Text vs SimpleText), composed-value splitting, placement checks
//! and value checks. Identifiers not in the table are kept as unknown properties.

/// Where a property may appear (FF\[4\] "property type").
///
/// ```
/// use kifu::model::{PropKind, ValueType, props};
/// let km = props::lookup("KM").unwrap();
/// assert_eq!((km.kind, km.value, km.description), (PropKind::GameInfo, ValueType::Real, "komi"));
/// assert!(props::lookup("LB").unwrap().value.is_composed());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropKind {
    /// Only in the root node (`SZ`, `CA`, `FF`, …).
    Root,
    /// In one game-info node per path (`PB`, `KM`, `RE`, …).
    GameInfo,
    /// In a move node (`B`, `W`, `BL`, …).
    Move,
    /// In a setup node (`AB`, `AW`, `AE`, `PL`).
    Setup,
    /// Anywhere (`C`, markup, annotations).
    Any,
}

/// The value type of a property (FF\[4\] "value type"), as kifu needs to read and check it.
///
/// ```
/// use kifu::model::{PropKind, ValueType, props};
/// let km = props::lookup("KM").unwrap();
/// assert_eq!((km.kind, km.value, km.description), (PropKind::GameInfo, ValueType::Real, "komi"));
/// assert!(props::lookup("LB").unwrap().value.is_composed());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// No value: `KO[]`, `DO[]`.
    None,
    /// Integer.
    Number,
    /// Decimal number.
    Real,
    /// `1` or `2`.
    Double,
    /// `B` or `W`.
    Color,
    /// Single-line text: newlines become spaces.
    SimpleText,
    /// Multi-line text: newlines kept.
    Text,
    /// A move (point or pass).
    Move,
    /// A list of points, compressible (`aa:cc`).
    PointList,
    /// A list of points that may be empty.
    PointElist,
    /// `Number` or `Number:Number` (`SZ`).
    SizeValue,
    /// `SimpleText:SimpleText` (`AP`).
    TextPair,
    /// A list of `Point:SimpleText` (`LB`).
    Label,
    /// A list of `Point:Point` (`AR`, `LN`).
    PointPair,
    /// `None` or `Number:SimpleText` (`FG`).
    Figure,
}

impl ValueType {
    /// Whether a value of this type never holds text (points, numbers, colours, sizes), so that
    /// `;`, `(`, `)` or `ID[` inside it mean a lost `]` to the SGF reader, and the SGF writer
    /// escapes them when such a value holds them.
    pub fn holds_no_text(self) -> bool {
        use ValueType as T;
        matches!(
            self,
            T::None
                | T::Number
                | T::Real
                | T::Double
                | T::Color
                | T::Move
                | T::PointList
                | T::PointElist
                | T::SizeValue
                | T::PointPair
        )
    }

    /// Whether a value of this type may be composed of two parts split at an unescaped `:`.
    pub fn is_composed(self) -> bool {
        matches!(
            self,
            ValueType::PointList
                | ValueType::PointElist
                | ValueType::SizeValue
                | ValueType::TextPair
                | ValueType::Label
                | ValueType::PointPair
                | ValueType::Figure
        )
    }

    /// Whether newlines in the value become spaces (SimpleText semantics).
    pub fn is_simple_text(self) -> bool {
        matches!(self, ValueType::SimpleText | ValueType::TextPair | ValueType::Label | ValueType::Figure)
    }

    /// Whether the property may hold more than one value.
    pub fn is_list(self) -> bool {
        matches!(self, ValueType::PointList | ValueType::PointElist | ValueType::Label | ValueType::PointPair)
    }
}

/// One row of the property table.
///
/// ```
/// use kifu::model::{PropKind, ValueType, props};
/// let km = props::lookup("KM").unwrap();
/// assert_eq!((km.kind, km.value, km.description), (PropKind::GameInfo, ValueType::Real, "komi"));
/// assert!(props::lookup("LB").unwrap().value.is_composed());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropDef {
    /// The FF\[4\] identifier.
    pub ident: &'static str,
    /// Where it may appear.
    pub kind: PropKind,
    /// Its value type.
    pub value: ValueType,
    /// A short English description.
    pub description: &'static str,
    /// Whether it is an FF\[1\]–FF\[3\] property that FF\[4\] dropped.
    pub obsolete: bool,
}

macro_rules! defs {
    ($( $id:literal $kind:ident $vt:ident $old:literal $desc:literal ;)*) => {
        /// Every property kifu knows, FF\[4\] Go properties first.
        pub static PROPS: &[PropDef] = &[
            $( PropDef { ident: $id, kind: PropKind::$kind, value: ValueType::$vt, description: $desc, obsolete: $old }, )*
        ];
    };
}

defs! {
    "B"  Move Move false "black move";
    "W"  Move Move false "white move";
    "KO" Move None false "execute an illegal move";
    "MN" Move Number false "set move number";
    "AB" Setup PointList false "add black stones";
    "AW" Setup PointList false "add white stones";
    "AE" Setup PointList false "clear points";
    "PL" Setup Color false "player to move";
    "C"  Any Text false "comment";
    "DM" Any Double false "even position";
    "GB" Any Double false "good for black";
    "GW" Any Double false "good for white";
    "HO" Any Double false "hotspot";
    "N"  Any SimpleText false "node name";
    "UC" Any Double false "unclear position";
    "V"  Any Real false "value";
    "BM" Move Double false "bad move";
    "DO" Move None false "doubtful move";
    "IT" Move None false "interesting move";
    "TE" Move Double false "tesuji";
    "AR" Any PointPair false "arrows";
    "CR" Any PointList false "circles";
    "DD" Any PointElist false "dim points";
    "LB" Any Label false "labels";
    "LN" Any PointPair false "lines";
    "MA" Any PointList false "crosses";
    "SL" Any PointList false "selected points";
    "SQ" Any PointList false "squares";
    "TR" Any PointList false "triangles";
    "AP" Root TextPair false "application";
    "CA" Root SimpleText false "charset";
    "FF" Root Number false "file format";
    "GM" Root Number false "game";
    "ST" Root Number false "variation style";
    "SZ" Root SizeValue false "board size";
    "AN" GameInfo SimpleText false "annotator";
    "BR" GameInfo SimpleText false "black rank";
    "BT" GameInfo SimpleText false "black team";
    "CP" GameInfo SimpleText false "copyright";
    "DT" GameInfo SimpleText false "date";
    "EV" GameInfo SimpleText false "event";
    "GN" GameInfo SimpleText false "game name";
    "GC" GameInfo Text false "game comment";
    "ON" GameInfo SimpleText false "opening";
    "OT" GameInfo SimpleText false "overtime";
    "PB" GameInfo SimpleText false "black player";
    "PC" GameInfo SimpleText false "place";
    "PW" GameInfo SimpleText false "white player";
    "RE" GameInfo SimpleText false "result";
    "RO" GameInfo SimpleText false "round";
    "RU" GameInfo SimpleText false "rules";
    "SO" GameInfo SimpleText false "source";
    "TM" GameInfo Real false "main time (seconds)";
    "US" GameInfo SimpleText false "user (who entered the record)";
    "WR" GameInfo SimpleText false "white rank";
    "WT" GameInfo SimpleText false "white team";
    "HA" GameInfo Number false "handicap";
    "KM" GameInfo Real false "komi";
    "BL" Move Real false "black time left";
    "WL" Move Real false "white time left";
    "OB" Move Number false "black moves left in overtime";
    "OW" Move Number false "white moves left in overtime";
    "FG" Any Figure false "figure";
    "PM" Any Number false "move number printing";
    "VW" Any PointElist false "view";
    "TB" Any PointElist false "black territory";
    "TW" Any PointElist false "white territory";
    "L"  Any PointList true "labels (FF[1]-FF[3]; FF[4] uses LB)";
    "M"  Any PointList true "marks (FF[1]-FF[3]; FF[4] uses MA)";
    "KI" GameInfo Number true "komi as an integer (FF[1]-FF[3])";
    "ID" GameInfo SimpleText true "game identifier (FF[1]-FF[3])";
    "BS" GameInfo Number true "black species (FF[1]-FF[3])";
    "WS" GameInfo Number true "white species (FF[1]-FF[3])";
}

/// Looks up an identifier (already upper-case) in the table.
pub fn lookup(ident: &str) -> Option<&'static PropDef> {
    index_of(ident).map(|i| &PROPS[i as usize])
}

/// The table index of an identifier, used as a compact property key.
pub(crate) fn index_of(ident: &str) -> Option<u16> {
    index_of_bytes(ident.as_bytes())
}

/// [`index_of`] on bytes.
#[inline]
pub(crate) fn index_of_bytes(ident: &[u8]) -> Option<u16> {
    let slot = slot(ident)?;
    let i = lookup_table()[slot];
    (i != u16::MAX).then_some(i)
}

/// Slot in the lookup table for a one- or two-letter upper-case identifier.
#[inline]
pub(crate) fn slot(b: &[u8]) -> Option<usize> {
    let up = |c: u8| c.is_ascii_uppercase().then(|| (c - b'A') as usize);
    match b {
        [a] => Some(up(*a)? * 27),
        [a, c] => Some(up(*a)? * 27 + 1 + up(*c)?),
        _ => None,
    }
}

pub(crate) fn lookup_table() -> &'static [u16; 26 * 27] {
    static TABLE: std::sync::OnceLock<[u16; 26 * 27]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [u16::MAX; 26 * 27];
        for (i, d) in PROPS.iter().enumerate() {
            if let Some(s) = slot(d.ident.as_bytes()) {
                t[s] = i as u16;
            }
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_unique_identifiers() {
        for (i, a) in PROPS.iter().enumerate() {
            for b in &PROPS[i + 1..] {
                assert_ne!(a.ident, b.ident);
            }
        }
    }

    #[test]
    fn lookup_gives_kind_and_type() {
        let sz = lookup("SZ").unwrap();
        assert_eq!((sz.kind, sz.value), (PropKind::Root, ValueType::SizeValue));
        assert_eq!(lookup("C").unwrap().value, ValueType::Text);
        assert!(lookup("PB").unwrap().value.is_simple_text());
        assert!(lookup("XX").is_none());
        assert!(lookup("MULTIGOGM").is_none());
    }
}
