//! Fox Go Server (`AP[foxwq]`, and its YuanYu / "GNU Go" disguised exports): komi and numeric
//! results in the unit of the rules (`KM[650] RU[Japanese]` = points ×100, `KM[375]
//! RU[Chinese]` = stones ×100, `RE[W+0.25]` under Chinese rules = a quarter stone), `KM[0]` in
//! even games, `TC`/`TT` byo-yomi. The komi ×100 rule applies to any file.

use super::{GameFacts, Prop, Work, codes, keys};
use crate::diag::Severity;
use crate::model::PropValue;

/// The unit a Fox record counts komi and results in, from its `RU`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Unit {
    /// No `RU`, or rules that say nothing about the unit: the value's fraction decides (a
    /// quarter is a stone count).
    #[default]
    Unknown,
    /// Japanese or Korean rules (`RU[Japanese]`): points.
    Points,
    /// Chinese rules (`RU[Chinese]`): stones, two points each (area counting).
    Stones,
}

impl Unit {
    /// The unit `RU` names: `Chinese`/`cn`/`中国` → stones, `Japanese`/`Korean` → points.
    pub(crate) fn of_rules(ru: &str) -> Unit {
        let r = ru.trim().to_ascii_lowercase();
        if r.starts_with("chin") || r == "cn" || r.contains("中国") {
            Unit::Stones
        } else if r.starts_with("jap") || r.starts_with("kor") || r == "jp" || r == "kr" || r.contains("日本") {
            Unit::Points
        } else {
            Unit::Unknown
        }
    }

    /// Whether a value `v` in this unit counts stones: under Chinese rules, or when `v` is a
    /// quarter (`0.25`, `3.75`: no count in half points gives one).
    fn stones(self, v: f64) -> bool {
        self == Unit::Stones || ((v * 4.0).fract() == 0.0 && (v * 2.0).fract() != 0.0)
    }
}

/// The komi in points a Fox record's `KM` stands for: an integer ×100 (`650` → 6.5 under
/// Japanese rules, `375` → 3.75 stones = 7.5 points under Chinese rules, `400` → 8 points under
/// Chinese rules, `50` → 0.5 in a handicap game), a multiple of 25 of at most 5000. `None` for
/// `0`, a value with a fraction (`7.5`, already points) or any other number.
pub(crate) fn fox_komi(raw: &str, unit: Unit) -> Option<f64> {
    let n: i32 = raw.trim().parse().ok()?;
    if n == 0 || n % 25 != 0 || n.abs() > 5000 {
        return None;
    }
    let c = f64::from(n) / 100.0;
    Some(if unit.stones(c) { c * 2.0 } else { c })
}

/// What Fox's numeric result means (see [`fox_result`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FoxResult {
    /// In points: the FF\[4\] result (`W+0.25` under Chinese rules → `W+0.5`).
    Points(String),
    /// Fox's code for a win on time (`W+0.02` → `W+T`).
    Time(String),
    /// A margin no unit explains (`B+0.03`, or `B+0.2` under Chinese rules): kept as it is.
    Unexplained,
}

/// The FF\[4\] result a Fox record's numeric `RE` (`W+1.25`, `B+6.50`) stands for, in the
/// unit of its rules; `None` when the value needs no change (a result in points, `W+R`, `0`).
pub(crate) fn fox_result(raw: &str, unit: Unit) -> Option<FoxResult> {
    let s = raw.trim();
    let (winner, margin) = s.split_once('+')?;
    let digits = margin.bytes().filter(u8::is_ascii_digit).count();
    let plain = digits > 0 && margin.bytes().all(|b| b.is_ascii_digit() || b == b'.') && margin.len() - digits <= 1;
    if !matches!(winner, "B" | "W") || !plain {
        return None;
    }
    let m: f64 = margin.parse().ok()?;
    if m == 0.02 {
        return Some(FoxResult::Time([winner, "+T"].concat()));
    }
    if (m * 4.0).fract() != 0.0 {
        return Some(FoxResult::Unexplained);
    }
    if unit.stones(m) {
        return Some(FoxResult::Points([winner, "+", &komi_text(m * 2.0)].concat()));
    }
    None
}

/// A komi ×100 read as points: `750` → 7.5, `650` → 6.5; a quarter (`375` = 3.75 stones,
/// Chinese counting) doubled to points (7.5). `None` when the value is no such komi.
pub(crate) fn scaled_komi(k: f64) -> Option<f64> {
    let c = k / 100.0;
    if c.abs() > 50.0 || (c * 4.0).fract() != 0.0 {
        return None;
    }
    let quarter = (c.abs() * 4.0) as i64 % 2 == 1;
    Some(if quarter { c * 2.0 } else { c })
}

/// Applies the komi, result and byo-yomi rules to the node.
pub(crate) fn repair(w: &mut Work<'_>, facts: &GameFacts) {
    if let Some(i) = w.find_key(keys::KM) {
        komi(w, i, facts);
    }
    if facts.fox {
        if let Some(i) = w.find_key(keys::RE) {
            result(w, i, facts.unit);
        }
    }
    if facts.fox && w.is_root && w.find_key(keys::OT).is_none() {
        if let (Some(tc), Some(tt)) = (w.value("TC"), w.value("TT")) {
            let (tc, tt) = (tc.trim(), tt.trim());
            if tc.parse::<u32>().is_ok_and(|n| n > 0) && tt.parse::<f64>().is_ok() {
                let ot = [tc, "x", tt, " byo-yomi"].concat();
                let msg = if w.wants(codes::OVERTIME) {
                    ["Fox byo-yomi TC[", tc, "] TT[", tt, "] also written as OT[", &ot, "] (TC and TT kept)"].concat()
                } else {
                    String::new()
                };
                let at = w.find("TT").unwrap_or(w.props.len().saturating_sub(1));
                let origin = w.props[at].origin;
                w.props.insert(at + 1, Prop::one("OT", PropValue::new(ot), None));
                w.report(origin, Severity::Info, codes::OVERTIME, msg);
            }
        }
    }
}

/// The komi rules on the `KM` at `i`: Fox's ×100 in the unit of the rules, any file's komi
/// above 100 that is a komi ×100, a Fox even game's `KM[0]`.
fn komi(w: &mut Work<'_>, i: usize, facts: &GameFacts) {
    let origin = w.props[i].origin;
    let raw = w.props[i].first_text();
    let Ok(k) = raw.trim().parse::<f64>() else { return };
    // A komi read before keeps its text in XSGFKM: it is points already.
    let done = w.find(&super::private("KM")).is_some();
    let points = if done {
        None
    } else if facts.fox {
        fox_komi(&raw, facts.unit)
    } else if k.abs() > crate::formats::legacy::MAX_KOMI {
        scaled_komi(k)
    } else {
        None
    };
    if let Some(points) = points {
        let text = komi_text(points);
        let msg = if w.wants(codes::KOMI_SCALED) {
            let how = if (points - k / 100.0).abs() > f64::EPSILON {
                " (×100, in stones under Chinese counting: doubled to points)"
            } else if facts.fox {
                " (komi ×100, as Fox writes it)"
            } else {
                " (komi ×100, as Fox and Tencent write it)"
            };
            ["KM[", &raw, "] read as KM[", &text, "]", how, "; the value kept in XSGFKM"].concat()
        } else {
            String::new()
        };
        w.props[i].values = super::Values::One(PropValue::new(text));
        w.keep_private("KM", vec![PropValue::new(raw)], i);
        // The severity rule (formats/cli.md): Fox's own form, read by its known rule, is
        // information; a komi ×100 in a file of unknown origin is a guess.
        let severity = if facts.fox { Severity::Info } else { Severity::Warning };
        w.report(origin, severity, codes::KOMI_SCALED, msg);
    } else if k.abs() > crate::formats::legacy::MAX_KOMI && !done {
        w.note(
            origin,
            Severity::Warning,
            codes::KOMI_IMPLAUSIBLE,
            format!("KM[{raw}] is not a plausible komi and no known scaling explains it; kept"),
        );
    } else if k == 0.0 && facts.fox && w.find_key(keys::HA).is_none() && w.find("XSGFHA").is_none() && !done {
        // The komi is unknown, and KM[0] would claim it was 0: the value goes to a private
        // property, and nothing is invented.
        w.props[i].rename("XSGFKM");
        let msg = if w.wants(codes::FOX_KOMI_ZERO) {
            "KM[0] in a Fox even game: Fox writes 0 whatever komi was used, so the komi is unknown; \
             KM removed, the value kept in XSGFKM (KaTrain assumes 6.5, or 7.5 under Chinese rules, \
             and so does Ogatak; nothing in the file tells)"
                .into()
        } else {
            String::new()
        };
        w.report(origin, Severity::Warning, codes::FOX_KOMI_ZERO, msg);
    }
}

/// A Fox record's numeric result at `i` in points (the raw value kept in `XSGFRE`), Fox's time
/// code as `+T`, or a margin no unit explains reported and kept.
fn result(w: &mut Work<'_>, i: usize, unit: Unit) {
    if w.find(&super::private("RE")).is_some() {
        return;
    }
    let raw = w.props[i].first_text();
    let origin = w.props[i].origin;
    let (re, why) = match fox_result(&raw, unit) {
        None => return,
        Some(FoxResult::Unexplained) => {
            let msg = format!(
                "RE[{raw}]: a Fox margin that is neither a count in points nor in quarter stones \
                 (Fox writes +0.02 for a win on time; this code is not known); kept"
            );
            w.note(origin, Severity::Warning, codes::RESULT_IMPLAUSIBLE, msg);
            return;
        }
        Some(FoxResult::Points(re)) => (re, "in stones under Chinese counting: doubled to points"),
        Some(FoxResult::Time(re)) => (re, "Fox's code for a win on time"),
    };
    let msg = if w.wants(codes::RESULT_SCALED) {
        ["RE[", &raw, "] read as RE[", &re, "] (", why, "); the value kept in XSGFRE"].concat()
    } else {
        String::new()
    };
    w.props[i].values = super::Values::One(PropValue::new(re));
    w.keep_private("RE", vec![PropValue::new(raw)], i);
    // Fox's own forms read by its known rules: information (formats/cli.md, severity rule).
    w.report(origin, Severity::Info, codes::RESULT_SCALED, msg);
}

/// A komi of whole or half points as [`crate::model::info::format_real`] writes it (`7.5`,
/// `-6.5`, `0`), without going through a float format (every [`scaled_komi`] is one).
fn komi_text(points: f64) -> String {
    let halves = points * 2.0;
    if halves.fract() != 0.0 || halves.abs() > 1e9 {
        return crate::model::info::format_real(points);
    }
    let halves = halves as i64;
    let mut s = String::with_capacity(8);
    if halves < 0 {
        s.push('-');
    }
    let h = halves.unsigned_abs();
    let digits = (h / 2).to_string();
    s.push_str(&digits);
    if h % 2 == 1 {
        s.push_str(".5");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_scaling() {
        assert_eq!(scaled_komi(750.0), Some(7.5));
        assert_eq!(scaled_komi(650.0), Some(6.5));
        assert_eq!(scaled_komi(375.0), Some(7.5));
        assert_eq!(scaled_komi(550.0), Some(5.5));
        assert_eq!(scaled_komi(1234.0), None);
        assert_eq!(scaled_komi(-650.0), Some(-6.5));
    }

    #[test]
    fn fox_komi_and_result_in_the_unit_of_the_rules() {
        use Unit::{Points, Stones, Unknown};
        assert_eq!(Unit::of_rules("Chinese"), Stones);
        assert_eq!(Unit::of_rules("Japanese"), Points);
        assert_eq!(Unit::of_rules("AGA"), Unknown);
        assert_eq!(fox_komi("375", Stones), Some(7.5));
        assert_eq!(fox_komi("400", Stones), Some(8.0));
        assert_eq!(fox_komi("650", Points), Some(6.5));
        assert_eq!(fox_komi("800", Points), Some(8.0));
        assert_eq!(fox_komi("50", Points), Some(0.5));
        assert_eq!(fox_komi("375", Unknown), Some(7.5));
        assert_eq!(fox_komi("0", Points), None);
        assert_eq!(fox_komi("7.5", Points), None);
        assert_eq!(fox_komi("6", Points), None);
        let points = |s: &str| Some(FoxResult::Points(s.to_string()));
        assert_eq!(fox_result("W+0.25", Stones), points("W+0.5"));
        assert_eq!(fox_result("W+1.25", Stones), points("W+2.5"));
        assert_eq!(fox_result("B+1.75", Stones), points("B+3.5"));
        assert_eq!(fox_result("B+2.75", Stones), points("B+5.5"));
        assert_eq!(fox_result("B+6.50", Points), None);
        assert_eq!(fox_result("B+0.75", Unknown), points("B+1.5"));
        assert_eq!(fox_result("W+0.02", Points), Some(FoxResult::Time("W+T".into())));
        assert_eq!(fox_result("B+0.02", Stones), Some(FoxResult::Time("B+T".into())));
        assert_eq!(fox_result("B+0.03", Points), Some(FoxResult::Unexplained));
        assert_eq!(fox_result("B+0.2", Stones), Some(FoxResult::Unexplained));
        for kept in ["W+R", "draw", "0", "B+", "B+1.2.3", "X+1"] {
            assert_eq!(fox_result(kept, Stones), None, "{kept}");
        }
    }

    #[test]
    fn komi_text_is_format_real() {
        for h in -400..=400 {
            let x = f64::from(h) / 2.0;
            assert_eq!(komi_text(x), crate::model::info::format_real(x), "{x}");
        }
        for x in [-0.0, 0.25, 7.25, -3.75, 1e12, 123_456.5] {
            assert_eq!(komi_text(x), crate::model::info::format_real(x), "{x}");
        }
    }
}
