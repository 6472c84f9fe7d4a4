//! SCORR's verdict (spec identity-risk.md Sec 11.2): the conventional compliance rule (k and
//! t), the extended low / medium / high bands of the uniqueness, uniformity and correlation
//! risks, and the final decision.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::figures::Figures;
use crate::metric::{Context, MetricResult, Status};

/// Which k the compliance rule uses.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KBasis {
    /// Record-based `k_anonymity` (reproduces SCORR's Table 3).
    #[default]
    Records,
    /// `k_anonymity_person` (recommended for event-level data).
    Persons,
}

/// SCORR thresholds (all configurable; the report states them).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScorrThresholds {
    /// Compliance needs `k > k_min` (strict).
    pub scorr_k_min: f64,
    /// Compliance needs `t <= t_max` for every SA.
    pub scorr_t_max: f64,
    /// Upper limit of the low band (after rounding to 2 decimals).
    pub scorr_low_max: f64,
    /// Upper limit of the medium band.
    pub scorr_medium_max: f64,
    /// Records or persons.
    pub scorr_k_basis: KBasis,
}

impl Default for ScorrThresholds {
    fn default() -> Self {
        ScorrThresholds { scorr_k_min: 10.0, scorr_t_max: 0.5, scorr_low_max: 0.33, scorr_medium_max: 0.66, scorr_k_basis: KBasis::Records }
    }
}

/// The band of a risk: round half up to 2 decimals, then compare (Sec 11.2).
pub fn band(x: f64, t: &ScorrThresholds) -> &'static str {
    let r = (100.0 * x + 0.5).floor() / 100.0;
    if r <= t.scorr_low_max {
        "low"
    } else if r <= t.scorr_medium_max {
        "medium"
    } else {
        "high"
    }
}

const RANK: [&str; 3] = ["low", "medium", "high"];

/// `verdict_scorr_conventional`, `verdict_scorr_extended`, `verdict_scorr_final` from the
/// figures of the identity and attribute families, for QIs `qi` and SAs `sas`.
pub fn metrics(ctx: &Context, figures: &Figures, qi: &[String], sas: &[String], t: &ScorrThresholds) -> Vec<MetricResult> {
    let ctx = Context { family: "verdict", params: json!(t), ..ctx.clone() };
    let identity = &figures.identity;
    let n = identity.n_records as f64;

    // Extended: every row is a max over records; (id, kind, attribute, sensitive, max).
    let mut rows: Vec<(String, f64)> = Vec::new();
    let mut parts: Vec<Value> = Vec::new();
    let mut row = |id: String, kind: &str, attribute: Option<&str>, sa: Option<&str>, x: Option<f64>| {
        if let Some(x) = x {
            parts.push(json!({ "id": id, "kind": kind, "attribute": attribute, "sensitive": sa, "value": x, "band": band(x, t) }));
            rows.push((id, x));
        }
    };
    row("uq_qi".into(), "uniqueness", None, None, identity.scorr_uniqueness_max);
    row("uf_qi".into(), "uniformity", None, None, identity.scorr_uniformity_qi_max);
    for (i, a) in qi.iter().enumerate() {
        row(format!("uf_{a}"), "uniformity", Some(a), None, identity.scorr_uniformity_attr_max.get(i).copied().flatten());
    }
    for sa in sas {
        for a in qi {
            let id = if sas.len() > 1 { format!("co_{a}_{sa}") } else { format!("co_{a}") };
            row(id, "correlation", Some(a), Some(sa), figures.sensitive(sa).and_then(|s| s.correlation_max(a)));
        }
    }
    let bands: serde_json::Map<String, Value> = rows.iter().map(|(id, x)| (id.clone(), json!(band(*x, t)))).collect();
    let category = rows.iter().map(|(_, x)| band(*x, t)).max_by_key(|b| RANK.iter().position(|r| r == b)).unwrap_or("low");
    let hint = k_hint(n, t);
    let mut out = Vec::new();
    let extended = if rows.is_empty() {
        ctx.without_value("verdict_scorr_extended", Status::EmptyInput, "no_records_in_scope")
    } else {
        let values: serde_json::Map<String, Value> = rows.iter().map(|(id, x)| (id.clone(), json!(x))).collect();
        ctx.ok("verdict_scorr_extended", json!({ "bands": bands, "category": category }))
            .with_details(json!({ "values": values, "rows": parts, "k_hint": hint }))
    };

    // Conventional: k > k_min and t <= t_max for every SA.
    let k = match t.scorr_k_basis {
        KBasis::Records => identity.k_anonymity,
        KBasis::Persons => identity.k_anonymity_person,
    };
    let ts: Vec<(String, Option<f64>)> = sas.iter().map(|sa| (sa.clone(), figures.sensitive(sa).and_then(|s| s.t_closeness))).collect();
    let conventional = match (sas.is_empty(), k) {
        (true, _) => ctx.without_value("verdict_scorr_conventional", Status::NotApplicable, "no_sensitive_attribute"),
        (false, None) => ctx.without_value("verdict_scorr_conventional", Status::NotApplicable, "k_unavailable"),
        (false, Some(k)) => {
            let mut reasons = Vec::new();
            if k <= t.scorr_k_min {
                reasons.push(format!("k = {k} is not above {}", t.scorr_k_min));
            }
            for (sa, tv) in &ts {
                match tv {
                    Some(tv) if *tv > t.scorr_t_max => reasons.push(format!("t-closeness of {sa} is {tv:.4}, above {}", t.scorr_t_max)),
                    None => reasons.push(format!("t-closeness of {sa} is not available")),
                    _ => {}
                }
            }
            let t_map: serde_json::Map<String, Value> = ts.iter().map(|(s, v)| (s.clone(), json!(v))).collect();
            ctx.ok("verdict_scorr_conventional", json!({ "compliant": reasons.is_empty(), "k": k, "t": t_map }))
                .with_details(json!({ "reasons": reasons, "k_basis": t.scorr_k_basis }))
        }
    };
    let compliant = conventional.value["compliant"].as_bool();
    let final_ = match (compliant, extended.status) {
        (Some(c), Status::Ok) => {
            let verdict = match (c, category) {
                (false, _) | (_, "high") => "not_approved",
                (true, "medium") => "release_with_acknowledged_risk",
                _ => "eligible",
            };
            ctx.ok("verdict_scorr_final", verdict).with_details(json!({ "compliant": c, "extended": category }))
        }
        _ => {
            // Pass on why the compliance rule could not be evaluated.
            let reason = conventional.reason.or(extended.reason).unwrap_or("not_applicable");
            ctx.without_value("verdict_scorr_final", Status::NotApplicable, reason)
        }
    };
    out.push(conventional);
    out.push(extended);
    out.push(final_);
    out
}

/// Smallest k whose `R_uq = 1 - ln k / ln n` bands medium (or lower), and low (Sec 11.2
/// hint). `R_uq` falls as k grows, so each is a binary search.
fn k_hint(n: f64, t: &ScorrThresholds) -> Value {
    if n < 2.0 {
        return Value::Null;
    }
    let rank = |k: u64| RANK.iter().position(|&r| r == band(1.0 - libm::log(k as f64) / libm::log(n), t)).unwrap_or(2);
    let first = |most: usize| {
        let (mut lo, mut hi) = (1u64, n as u64 + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if rank(mid) <= most { hi = mid } else { lo = mid + 1 }
        }
        (lo <= n as u64).then_some(lo)
    };
    json!({ "medium_from_k": first(1), "low_from_k": first(0) })
}
