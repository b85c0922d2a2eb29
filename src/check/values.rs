//! Value types: every known property's values against its FF\[4\] value type (Number, Real,
//! Double, Color, None, SimpleText/Text, Move, point lists and elists, composed values), the
//! number of values, and the game-info formats of `DT` and `RE`.

use super::{At, Ctx, codes, shown};
use crate::model::{GameResult, Point, Property, ValueType};

/// Checks the values of every known property in every node.
pub(crate) fn check(cx: &mut Ctx<'_>) {
    let tree = cx.tree;
    for node in tree.nodes() {
        for p in node.props() {
            if super::dialect_property(cx, p) {
                cx.info(
                    codes::DIALECT_PROPERTY,
                    At::Prop(p),
                    format!(
                        "{}{} is the Nihon Ki-in / Oro dialect's {} here, not FF[4]'s; kifu convert maps it",
                        p.ident(),
                        shown(p.first().unwrap_or("")),
                        if p.ident() == "TE" { "title" } else { "komi" }
                    ),
                );
                continue;
            }
            if let Some(def) = p.def() {
                check_prop(cx, p, def.value);
            }
        }
    }
}

fn check_prop(cx: &mut Ctx<'_>, p: Property<'_>, vt: ValueType) {
    let ident = p.ident();
    if !vt.is_list() && p.len() > 1 {
        cx.error(
            codes::VALUE_COUNT,
            At::Value(p, 1),
            format!("{ident} takes one value but has {}; the others are kept but mean nothing", p.len()),
        );
    }
    let n = p.len();
    // Extra values of a single-value property are reported once above, not type-checked.
    let checked = if vt.is_list() { n } else { 1 };
    for (i, v) in p.values().enumerate().take(checked) {
        let text = v.as_str();
        let at = At::Value(p, i);
        let bad = |what: &str| format!("{ident}{} is not {what}", shown(text));
        match vt {
            ValueType::None => {
                if !text.trim().is_empty() {
                    cx.error(codes::VALUE_TYPE, at, format!("{ident} takes no value, but has {}", shown(text)));
                }
            }
            ValueType::Number => {
                if !is_number(text) {
                    cx.error(codes::VALUE_TYPE, at, bad("a Number (an integer such as 2)"));
                } else if ident == "ST" && !matches!(text.trim(), "0" | "1" | "2" | "3") {
                    cx.error(codes::VALUE_TYPE, at, format!("ST{} is not a variation style (0 to 3)", shown(text)));
                }
            }
            ValueType::Real => {
                if !is_real(text) {
                    cx.error(codes::VALUE_TYPE, at, bad("a Real (a number such as 6.5)"));
                }
            }
            ValueType::Double => {
                if !matches!(text, "1" | "2") {
                    cx.error(codes::VALUE_TYPE, at, bad("a Double (1 or 2)"));
                }
            }
            ValueType::Color => {
                if !matches!(text, "B" | "W") {
                    cx.error(codes::VALUE_TYPE, at, bad("a Color (B or W)"));
                }
            }
            ValueType::SimpleText | ValueType::Text => check_text(cx, p, i, text),
            ValueType::Move => {
                if cx.go && !(text.is_empty() || Point::from_sgf(text).is_some()) {
                    cx.error(codes::VALUE_TYPE, at, bad("a Go move (two letters a-z/A-Z, or [] for a pass)"));
                }
            }
            ValueType::PointList | ValueType::PointElist => {
                if text.is_empty() {
                    if vt == ValueType::PointList {
                        cx.error(
                            codes::EMPTY_LIST,
                            at,
                            format!("{ident}[] is empty; {ident} needs at least one point"),
                        );
                    } else if n > 1 {
                        cx.error(
                            codes::VALUE_TYPE,
                            at,
                            format!("{ident}[] (the empty list) must be {ident}'s only value"),
                        );
                    }
                } else if cx.go {
                    let ok = match v.parts() {
                        Some((a, b)) => Point::from_sgf(a).is_some() && Point::from_sgf(b).is_some(),
                        None => Point::from_sgf(text).is_some(),
                    };
                    if !ok {
                        cx.error(codes::VALUE_TYPE, at, bad("a point (two letters) or a rectangle (aa:cc)"));
                    }
                }
            }
            ValueType::SizeValue => {} // size.rs
            ValueType::TextPair => {
                if v.parts().is_none() {
                    cx.warning(
                        codes::AP_VERSION,
                        at,
                        format!("{ident}{} has no ':version' part (FF[4]: {ident}[name:version])", shown(text)),
                    );
                }
            }
            ValueType::Label => match v.parts() {
                Some((a, _)) if !cx.go || Point::from_sgf(a).is_some() => {}
                Some(_) => cx.error(codes::VALUE_TYPE, at, bad("a label (point:text, e.g. [dd:A])")),
                None => cx.error(codes::VALUE_TYPE, at, bad("a label: point and text separated by ':' (e.g. [dd:A])")),
            },
            ValueType::PointPair => match v.parts() {
                Some(_) if !cx.go => {}
                Some((a, b)) => match (Point::from_sgf(a), Point::from_sgf(b)) {
                    (Some(x), Some(y)) if x == y => cx.error(
                        codes::VALUE_TYPE,
                        at,
                        format!("{ident}{}: start and end are the same point", shown(text)),
                    ),
                    (Some(_), Some(_)) => {}
                    _ => cx.error(codes::VALUE_TYPE, at, bad("two points separated by ':' (e.g. [aa:cc])")),
                },
                None => cx.error(codes::VALUE_TYPE, at, bad("two points separated by ':' (e.g. [aa:cc])")),
            },
            ValueType::Figure => {
                let ok = text.is_empty() || v.parts().is_some_and(|(a, _)| is_number(a));
                if !ok {
                    cx.error(codes::VALUE_TYPE, at, bad("a figure ([] or number:name)"));
                }
            }
        }
    }
    if let Some(v) = p.first() {
        match ident {
            "DT" if !crate::normalise::is_iso_date(v) => cx.warning(
                codes::DATE_FORMAT,
                At::Value(p, 0),
                format!("DT{} is not an FF[4] date (YYYY-MM-DD; partial dates and comma lists allowed)", shown(v)),
            ),
            "RE" if GameResult::from_sgf(v).is_none() || v.trim() != v => cx.warning(
                codes::RESULT_FORMAT,
                At::Value(p, 0),
                format!("RE{} is not an FF[4] result (B+3.5, W+R, B+T, 0, Void, ?)", shown(v)),
            ),
            _ => {}
        }
    }
}

fn check_text(cx: &mut Ctx<'_>, p: Property<'_>, i: usize, text: &str) {
    if text.is_empty() {
        cx.info(codes::EMPTY_TEXT, At::Value(p, i), format!("{} has an empty value", p.ident()));
    } else if text.trim().is_empty() {
        cx.info(codes::EMPTY_TEXT, At::Value(p, i), format!("{} holds only blanks or line breaks", p.ident()));
    } else if let Some(c) = text.chars().find(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
        cx.warning(
            codes::CONTROL_CHAR,
            At::Value(p, i),
            format!("{} holds the control character U+{:04X}; is the file binary or mis-decoded?", p.ident(), c as u32),
        );
    }
}

/// FF\[4\] Number: an optional sign and digits.
fn is_number(s: &str) -> bool {
    let d = s.strip_prefix(['+', '-']).unwrap_or(s);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// FF\[4\] Real: a Number, optionally followed by `.` and digits.
fn is_real(s: &str) -> bool {
    match s.split_once('.') {
        None => is_number(s),
        Some((a, b)) => is_number(a) && !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{codes_of, only_codes};
    use super::*;

    #[test]
    fn numbers_reals_doubles_colors() {
        assert_eq!(codes_of("(;SZ[9]HA[对子]KM[abc])"), ["1:10 check.value-type", "1:16 check.value-type"]);
        assert_eq!(
            only_codes("(;SZ[9]HA[0]KM[-6.5]TM[300];B[aa]BL[34.]OB[1 kk])"),
            ["check.value-type", "check.value-type"]
        );
        assert_eq!(only_codes("(;SZ[9];DM[]PL[w 123];KO[xxxx])"), ["check.value-type"; 3]);
        assert_eq!(only_codes("(;SZ[9]ST[4])"), ["check.value-type"]);
    }

    #[test]
    fn moves_points_and_lists() {
        assert_eq!(only_codes("(;SZ[9];B[90])"), ["check.value-type"]);
        assert_eq!(only_codes("(;SZ[9];B[c   c])"), ["check.value-type"]);
        assert_eq!(only_codes("(;SZ[9];W[ce][too much])"), ["check.value-count"]);
        assert_eq!(only_codes("(;SZ[9]AW[])"), ["check.empty-list"]);
        assert_eq!(only_codes("(;SZ[9]AB[aa:cc][dd]AW[ee]VW[]TB[])"), Vec::<String>::new());
        assert_eq!(only_codes("(;SZ[9];VW[][aa])"), ["check.value-type"]);
        assert_eq!(only_codes("(;SZ[9];MA[a1])"), ["check.value-type"]);
    }

    #[test]
    fn composed_values() {
        assert_eq!(only_codes("(;SZ[9];LB[aa][bb:x])"), ["check.value-type"]);
        assert_eq!(only_codes("(;SZ[9];AR[a a: c r]LN[aa:aa];AR[aa:cc])"), ["check.value-type", "check.value-type"]);
        assert_eq!(only_codes("(;SZ[9]AP[foxwq])"), ["check.ap-version"]);
        assert_eq!(only_codes("(;SZ[9]AP[kifu:0.1];FG[]FG[1:x])"), ["check.duplicate-property"]);
        assert_eq!(only_codes("(;SZ[9];FG[x])"), ["check.value-type"]);
    }

    #[test]
    fn text_values() {
        assert_eq!(codes_of("(;SZ[9];C[   ]N[a\u{1}b])"), ["1:10 check.empty-text", "1:16 check.control-char"]);
    }

    #[test]
    fn game_info_formats() {
        assert_eq!(
            only_codes("(;SZ[9]DT[12th and 13th march 94]RE[john wins])"),
            ["check.date-format", "check.result-format"]
        );
        assert_eq!(only_codes("(;SZ[9]DT[2024-05-01,02,06-03]RE[W+Resign])"), Vec::<String>::new());
    }

    #[test]
    fn iso_dates() {
        for ok in ["1996", "1996-05", "1996-05-06", "1996-05-06,07", "1996-05-06,06-01", "1996-05,06", "1996,1997"] {
            assert!(crate::normalise::is_iso_date(ok), "{ok}");
        }
        for bad in ["", "96-05-06", "1996/05/06", "1996-13-01", "1996-05-32", "1996-05-06 10:00", "2024.01.05", "05-06"]
        {
            assert!(!crate::normalise::is_iso_date(bad), "{bad}");
        }
        assert!(is_real("6.5") && is_real("-0.5") && is_real("7") && !is_real("5.") && !is_real(".5"));
        assert!(is_number("+3") && !is_number("3.0") && !is_number(""));
    }
}
