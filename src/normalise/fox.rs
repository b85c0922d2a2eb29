//! Fox Go Server (`AP[foxwq]`, and its YuanYu / "GNU Go" disguised exports): komi ×100,
//! `KM[0]` in even games, `TC`/`TT` byo-yomi. The komi ×100 rule applies to any file.

use super::{GameFacts, Prop, Work, codes};
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
    if let Some(i) = w.find("KM") {
        let origin = w.props[i].origin;
        let raw = w.props[i].first().to_string();
        if let Ok(k) = raw.trim().parse::<f64>() {
            if k.abs() > 100.0 {
                match scaled_komi(k) {
                    Some(points) => {
                        let text = crate::model::info::format_real(points);
                        w.props[i].values = vec![PropValue::new(text.clone())].into();
                        let how = if (points - k / 100.0).abs() > f64::EPSILON {
                            " (×100, in stones under Chinese counting: doubled to points)"
                        } else {
                            " (komi ×100, as Fox and Tencent write it)"
                        };
                        let msg = ["KM[", &raw, "] read as KM[", &text, "]", how].concat();
                        w.report(origin, Severity::Warning, codes::KOMI_SCALED, msg);
                    }
                    None => w.note(
                        origin,
                        Severity::Warning,
                        codes::KOMI_IMPLAUSIBLE,
                        format!("KM[{raw}] is not a plausible komi and no known scaling explains it; kept"),
                    ),
                }
            } else if k == 0.0 && facts.fox && w.find("HA").is_none() && w.find(&super::private("HA")).is_none() {
                // The komi is unknown, and KM[0] would claim it was 0: the value goes to a private
                // property, and nothing is invented.
                w.props[i].ident = super::private("KM").into();
                w.report(
                    origin,
                    Severity::Warning,
                    codes::FOX_KOMI_ZERO,
                    "KM[0] in a Fox even game: Fox writes 0 whatever komi was used, so the komi is unknown; \
                     KM removed, the value kept in XSGFKM (KaTrain assumes 6.5, or 7.5 under Chinese rules, \
                     and so does Ogatak; nothing in the file tells)"
                        .into(),
                );
            }
        }
    }
    if facts.fox && w.is_root && w.find("OT").is_none() {
        if let (Some(tc), Some(tt)) = (w.value("TC").map(str::to_string), w.value("TT").map(str::to_string)) {
            let (tc, tt) = (tc.trim().to_string(), tt.trim().to_string());
            if tc.parse::<u32>().is_ok_and(|n| n > 0) && tt.parse::<f64>().is_ok() {
                let ot = [tc.as_str(), "x", &tt, " byo-yomi"].concat();
                let at = w.find("TT").unwrap_or(w.props.len().saturating_sub(1));
                let origin = w.props[at].origin;
                w.props.insert(at + 1, Prop::new("OT", vec![PropValue::new(ot.clone())]));
                let msg = ["Fox byo-yomi TC[", &tc, "] TT[", &tt, "] also written as OT[", &ot, "] (TC and TT kept)"]
                    .concat();
                w.report(origin, Severity::Info, codes::OVERTIME, msg);
            }
        }
    }
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
}
