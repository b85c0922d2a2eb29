//! Fox Go Server (`AP[foxwq]`, and its YuanYu / "GNU Go" disguised exports): komi ×100,
//! `KM[0]` in even games, `TC`/`TT` byo-yomi. The komi ×100 rule applies to any file.

use super::{GameFacts, Prop, Work, codes, keys};
use crate::diag::Severity;
use crate::model::PropValue;

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

/// Applies the komi and byo-yomi rules to the node.
pub(crate) fn repair(w: &mut Work<'_>, facts: &GameFacts) {
    if let Some(i) = w.find_key(keys::KM) {
        let origin = w.props[i].origin;
        let raw = w.props[i].first_text();
        if let Ok(k) = raw.trim().parse::<f64>() {
            if k.abs() > 100.0 {
                match scaled_komi(k) {
                    Some(points) => {
                        let text = komi_text(points);
                        let how = if (points - k / 100.0).abs() > f64::EPSILON {
                            " (×100, in stones under Chinese counting: doubled to points)"
                        } else {
                            " (komi ×100, as Fox and Tencent write it)"
                        };
                        let msg = if w.wants(codes::KOMI_SCALED) {
                            ["KM[", &raw, "] read as KM[", &text, "]", how].concat()
                        } else {
                            String::new()
                        };
                        w.props[i].values = super::Values::One(PropValue::new(text));
                        w.report(origin, Severity::Warning, codes::KOMI_SCALED, msg);
                    }
                    None => w.note(
                        origin,
                        Severity::Warning,
                        codes::KOMI_IMPLAUSIBLE,
                        format!("KM[{raw}] is not a plausible komi and no known scaling explains it; kept"),
                    ),
                }
            } else if k == 0.0 && facts.fox && w.find_key(keys::HA).is_none() && w.find("XSGFHA").is_none() {
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
