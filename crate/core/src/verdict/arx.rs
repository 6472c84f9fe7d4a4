//! ARX's threshold check (spec identity-risk.md Sec 11.1), with the reason in words.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::metric::{Context, MetricResult};

/// The three ARX thresholds (GUI defaults); a metric passes iff `value <= threshold`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ArxThresholds {
    /// Highest risk (also the per-record `tau`): 0.2.
    pub highest_risk: f64,
    /// Records at risk: 0.05.
    pub records_at_risk: f64,
    /// Success rate: 0.05.
    pub success_rate: f64,
}

/// The values checked: (records at risk, highest risk, success rate) for prosecutor and
/// journalist, and the marketer success rate.
pub struct AttackerValues {
    /// Prosecutor model.
    pub prosecutor: [f64; 3],
    /// Journalist model.
    pub journalist: [f64; 3],
    /// Marketer success rate.
    pub marketer: f64,
}

/// ARX's traffic light (the page's verdict): green when every check passes, amber when only
/// the success-rate checks fail, red otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Light {
    /// Every threshold met.
    Green,
    /// Only the average risk (success rate) above its threshold.
    Amber,
    /// Records at risk or the highest risk above their thresholds.
    Red,
}

impl Light {
    /// The light of these values (a check passes iff `value <= threshold`).
    pub fn of(v: &AttackerValues, t: &ArxThresholds) -> Light {
        let per_record = [v.prosecutor, v.journalist].iter().any(|&[at, hi, _]| at > t.records_at_risk || hi > t.highest_risk);
        let average = [v.prosecutor[2], v.journalist[2], v.marketer].iter().any(|&sr| sr > t.success_rate);
        if per_record {
            Light::Red
        } else if average {
            Light::Amber
        } else {
            Light::Green
        }
    }

    /// The light in capitals, as the advice's sentences say it.
    pub fn word(self) -> &'static str {
        match self {
            Light::Green => "GREEN",
            Light::Amber => "AMBER",
            Light::Red => "RED",
        }
    }
}

/// `verdict_arx_thresholds`: value as the spec gives it; `details.reasons` one sentence per
/// failed check, `details.thresholds` the values used, `details.light` the traffic light.
pub fn arx(ctx: &Context, v: &AttackerValues, t: &ArxThresholds) -> MetricResult {
    let mut reasons = Vec::new();
    let mut check = |model: &str, what: &str, value: f64, limit: f64| {
        let pass = value <= limit;
        if !pass {
            reasons.push(format!("{model} {what} is {value:.4}, above the threshold {limit}"));
        }
        pass
    };
    let three = |check: &mut dyn FnMut(&str, &str, f64, f64) -> bool, model: &str, [at, hi, sr]: [f64; 3]| -> Value {
        json!({
            "records_at_risk": check(model, "records at risk", at, t.records_at_risk),
            "highest_risk": check(model, "highest risk", hi, t.highest_risk),
            "success_rate": check(model, "success rate", sr, t.success_rate),
        })
    };
    let prosecutor = three(&mut check, "prosecutor", v.prosecutor);
    let journalist = three(&mut check, "journalist", v.journalist);
    let marketer = json!({ "success_rate": check("marketer", "success rate", v.marketer, t.success_rate) });
    let all_pass = reasons.is_empty();
    ctx.ok("verdict_arx_thresholds", json!({ "prosecutor": prosecutor, "journalist": journalist, "marketer": marketer, "all_pass": all_pass }))
        .with_details(json!({ "reasons": reasons, "thresholds": t, "light": Light::of(v, t) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: ArxThresholds = ArxThresholds { highest_risk: 0.2, records_at_risk: 0.05, success_rate: 0.05 };

    fn values(prosecutor: [f64; 3]) -> AttackerValues {
        AttackerValues { prosecutor, journalist: prosecutor, marketer: 0.01 }
    }

    #[test]
    fn green_when_all_pass_amber_when_only_success_rates_fail_red_when_a_record_level_check_fails() {
        assert_eq!(Light::of(&values([0.0, 0.2, 0.05]), &T), Light::Green);
        assert_eq!(Light::of(&values([0.0, 0.1, 0.30]), &T), Light::Amber);
        assert_eq!(Light::of(&values([0.0, 0.5, 0.01]), &T), Light::Red);
        assert_eq!(Light::of(&values([0.06, 0.1, 0.01]), &T), Light::Red);
        let marketer = AttackerValues { marketer: 0.5, ..values([0.0, 0.1, 0.01]) };
        assert_eq!(Light::of(&marketer, &T), Light::Amber);
    }
}
