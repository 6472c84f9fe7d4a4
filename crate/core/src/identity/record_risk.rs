//! Record risk, R_internal and the ARX prosecutor model (spec identity-risk.md Sec 4 and 5).

use serde_json::{Value, json};

use super::Sizes;
use crate::metric::{Context, MetricResult, min_mean_max};
use crate::numeric::neumaier;

/// Upper edges of ARX's risk distribution bins (spec identity-risk.md Sec 5).
pub const RISK_EDGES: [f64; 24] =
    [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 0.001, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.125, 0.143, 0.167, 0.2, 0.25, 0.334, 0.5, 1.0];

/// `R_int = (1/n) sum_i 1/f(i)`; exactly `K/n` when classes partition the records.
pub fn r_internal(s: &Sizes, partition: bool) -> f64 {
    if partition { s.classes as f64 / s.n as f64 } else { neumaier(s.groups.iter().map(|g| g.records as f64 / g.f)) / s.n as f64 }
}

/// `record_risk`, `r_internal`, `avg_risk_class_mean`, the six prosecutor metrics and
/// `risk_distribution`, at per-record threshold `tau`, and `R_int`. `top` is the riskiest
/// classes; `per_record`, each record's risk when kept (`record_risk.details.per_record`).
/// Also gives `R_int` and ARX's three checked values of the prosecutor model (records at risk,
/// highest risk, success rate).
pub fn metrics(ctx: &Context, s: &Sizes, partition: bool, tau: f64, top: Value, per_record: Option<Value>) -> (Vec<MetricResult>, f64, [f64; 3]) {
    let nf = s.n as f64;
    let (k, max_f) = (s.min_f(), s.max_f());
    let r_int = r_internal(s, partition);
    let share_where = |pred: &dyn Fn(f64) -> bool| s.records_where(pred) as f64 / nf;
    let class_mean = neumaier(s.groups.iter().map(|g| g.classes as f64 / g.f)) / s.classes as f64;
    let mut bins = [0u64; RISK_EDGES.len()];
    for g in &s.groups {
        let risk = 1.0 / g.f;
        let b = RISK_EDGES.iter().position(|&e| e >= risk).unwrap_or(RISK_EDGES.len() - 1);
        bins[b] += g.records;
    }
    let mut cum = 0u64;
    let distribution: Vec<[f64; 3]> = RISK_EDGES
        .iter()
        .zip(bins)
        .map(|(&e, c)| {
            cum += c;
            [e, c as f64 / nf, (cum as f64 / nf).min(1.0)]
        })
        .collect();
    let mut record_risk = ctx.ok("record_risk", min_mean_max(1.0 / max_f, r_int, 1.0 / k)).with_details(json!({ "top": top }));
    if let Some(per_record) = per_record {
        record_risk.details["per_record"] = per_record;
    }
    let at_risk = share_where(&|f| 1.0 / f > tau);
    let out = vec![
        record_risk,
        ctx.ok("r_internal", r_int),
        ctx.ok("avg_risk_class_mean", class_mean),
        ctx.ok("prosecutor_lowest_risk", 1.0 / max_f),
        ctx.ok("prosecutor_success_rate", r_int),
        ctx.ok("prosecutor_highest_risk", 1.0 / k),
        ctx.ok("prosecutor_records_at_risk", at_risk).with_details(json!({ "tau": tau })),
        ctx.ok("prosecutor_records_affected_by_highest_risk", share_where(&|f| f == k)),
        ctx.ok("prosecutor_records_affected_by_lowest_risk", share_where(&|f| f == max_f)),
        ctx.ok("risk_distribution", distribution),
    ];
    (out, r_int, [at_risk, 1.0 / k, r_int])
}
