//! Overall risk, safety and the RUT score (spec balance.md Sec 2-4): `risk_r` combines
//! `R_int` and `R_ext`, `safety = 1 - R`, `rut = alpha U + beta (1 - R)`, its linear form
//! `rut_f1` and the ratio `rut_ratio`; the weight presets of \[RUT\] Table 4.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::BalanceParams;
use crate::metric::{Context, MetricResult, Status};

/// Ids of this module, in output order.
pub const IDS: [&str; 5] = ["risk_r", "safety", "rut", "rut_f1", "rut_ratio"];

/// How `risk_r` combines `R_int` and `R_ext` (Sec 2).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiskCombination {
    /// `max(R_int, R_ext)`, as in every \[RUT\] experiment.
    #[default]
    Max,
    /// `w_int R_int + (1 - w_int) R_ext`.
    Weighted,
    /// `min(1, R_int + R_ext)`.
    Sum,
}

impl RiskCombination {
    /// `R` from `R_int` and `R_ext`, with `w_int` for `weighted`.
    pub fn combine(self, r_int: f64, r_ext: f64, w_int: f64) -> f64 {
        match self {
            RiskCombination::Max => r_int.max(r_ext),
            RiskCombination::Weighted => w_int * r_int + (1.0 - w_int) * r_ext,
            RiskCombination::Sum => (r_int + r_ext).min(1.0),
        }
    }
}

/// The weight presets of \[RUT\] Table 4 (Sec 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightPreset {
    /// Analytics-centric internal use: alpha 0.7.
    Analytics,
    /// Balanced decision support (the default): alpha 0.5.
    Balanced,
    /// Compliance-centric sharing: alpha 0.4.
    Compliance,
    /// Public release, high-risk domains: alpha 0.3.
    Public,
}

impl WeightPreset {
    /// Every preset, in the order of \[RUT\] Table 4.
    pub const ALL: [WeightPreset; 4] = [WeightPreset::Analytics, WeightPreset::Balanced, WeightPreset::Compliance, WeightPreset::Public];

    /// The preset id.
    pub fn id(self) -> &'static str {
        match self {
            WeightPreset::Analytics => "analytics",
            WeightPreset::Balanced => "balanced",
            WeightPreset::Compliance => "compliance",
            WeightPreset::Public => "public",
        }
    }

    /// `alpha`, the weight of utility; `beta = 1 - alpha`.
    pub fn alpha(self) -> f64 {
        match self {
            WeightPreset::Analytics => 0.7,
            WeightPreset::Balanced => 0.5,
            WeightPreset::Compliance => 0.4,
            WeightPreset::Public => 0.3,
        }
    }
}

/// `rut = alpha U + (1 - alpha)(1 - R)` (Sec 3), in `[0, 1]`; higher is better.
pub fn rut(u: f64, r: f64, alpha: f64) -> f64 {
    alpha * u + (1.0 - alpha) * (1.0 - r)
}

/// `rut_f1 = alpha U - (1 - alpha) R` (Sec 3), in `[-beta, alpha]`.
pub fn rut_f1(u: f64, r: f64, alpha: f64) -> f64 {
    alpha * u - (1.0 - alpha) * r
}

/// `rut_ratio = U / R` (Sec 3); `None` (infinite) when `R = 0`.
pub fn rut_ratio(u: f64, r: f64) -> Option<f64> {
    (r > 0.0).then(|| u / r)
}

/// `risk_r`, `safety`, `rut`, `rut_f1` and `rut_ratio` from `R_int`, `R_ext` (`None`: no
/// applicable external risk, so `R = R_int` with warning `risk_without_external`) and `U`
/// (`None`: the RUT scores are `not_applicable`, `no_utility`); and `R`.
pub fn metrics(ctx: &Context, r_int: f64, r_ext: Option<f64>, u: Option<f64>, p: &BalanceParams) -> (Vec<MetricResult>, f64) {
    let (alpha, beta) = (p.rut_alpha, 1.0 - p.rut_alpha);
    let (r, combination) = match r_ext {
        Some(r_ext) => (p.risk_combination.combine(r_int, r_ext, p.risk_weight_internal), json!(p.risk_combination)),
        None => (r_int, json!(null)),
    };
    let mut out = vec![
        ctx.ok("risk_r", r).with_details(json!({ "r_internal": r_int, "r_external": r_ext, "combination": combination })),
        ctx.ok("safety", 1.0 - r).with_details(json!({ "risk_r": r })),
    ];
    match u {
        None => out.extend(["rut", "rut_f1", "rut_ratio"].map(|id| ctx.without_value(id, Status::NotApplicable, "no_utility"))),
        Some(u) => {
            let presets: serde_json::Map<String, serde_json::Value> =
                WeightPreset::ALL.iter().map(|w| (w.id().to_string(), json!(rut(u, r, w.alpha())))).collect();
            let weights = json!({ "alpha": alpha, "beta": beta, "utility_u": u, "risk_r": r });
            let mut with_presets = weights.clone();
            with_presets["presets"] = json!(presets);
            out.push(ctx.ok("rut", rut(u, r, alpha)).with_details(with_presets));
            out.push(ctx.ok("rut_f1", rut_f1(u, r, alpha)).with_details(weights.clone()));
            out.push(match rut_ratio(u, r) {
                Some(ratio) => ctx.ok("rut_ratio", ratio).with_details(weights),
                None => ctx.without_value("rut_ratio", Status::NotApplicable, "division_by_zero").with_details(json!({ "infinite": true })),
            });
        }
    }
    if r_ext.is_none() {
        for m in &mut out {
            m.warnings.push("risk_without_external");
        }
    }
    (out, r)
}
