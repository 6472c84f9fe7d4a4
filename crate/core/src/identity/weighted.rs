//! sdcMicro's individual risk with sampling weights (spec identity-risk.md Sec 8): each record's
//! probability of re-identification from its sample count `fk` and its weighted (estimated
//! population) count `Fk`, the global risk (expected re-identifications) and the number of
//! risky observations, as sdcMicro's `measure_risk` and `print(sdcObj, "risk")` report them.
//!
//! The caller groups records by key and computes `fk` and `Fk` under the missing-value policy;
//! this module only needs each distinct key's `(fk, Fk, records)`, so medians over records are
//! taken from cumulative counts without one value per record.

use serde_json::json;

use crate::interval::{CiParams, ratio_mean};
use crate::metric::{Context, MetricResult, Status, min_mean_max};
use crate::numeric::neumaier;

/// R's `mad()` consistency constant (spec Sec 8).
pub const MAD_CONSTANT: f64 = 1.4826;
/// `mad_factor` of `print(sdcObj, "risk")` (spec Sec 8).
pub const MAD_FACTOR: f64 = 2.0;
/// A risky observation's risk must also exceed this (spec Sec 8).
pub const RISKY_MIN: f64 = 0.1;

/// sdcMicro's individual risk `r` of a record with match count `fk` and weighted count `Fk`,
/// `approx` method (spec identity-risk.md Sec 8). `p = min(1, fk/Fk)`, `p = 1` when `Fk = 0`;
/// `p = 1` gives `1/fk` (also for weights below 1, where the formulas are undefined).
pub fn individual_risk(fk: f64, big_fk: f64) -> f64 {
    let p = if big_fk == 0.0 { 1.0 } else { (fk / big_fk).min(1.0) };
    let odds = p / (1.0 - p);
    if p >= 1.0 {
        1.0 / fk
    } else if fk == 1.0 {
        odds * libm::log(1.0 / p)
    } else if fk == 2.0 {
        odds - odds * odds * libm::log(1.0 / p)
    } else {
        p / (fk - (1.0 - p))
    }
}

/// Median of values repeated `count` times each (R's `median()`: the mean of the two middle
/// values of an even count), from cumulative counts. `items` needs a positive total.
fn median(mut items: Vec<(f64, u64)>) -> f64 {
    items.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: u64 = items.iter().map(|i| i.1).sum();
    // 0-based ranks of the middle value(s).
    let (lo, hi) = ((total - 1) / 2, total / 2);
    let at = |rank: u64| {
        let mut seen = 0;
        items.iter().find(|i| {
            seen += i.1;
            seen > rank
        })
    };
    let (a, b) = (at(lo).map_or(0.0, |i| i.0), at(hi).map_or(0.0, |i| i.0));
    (a + b) / 2.0
}

/// `sdc_individual_risk` (`{min, mean, max}` over records), `global_risk_er`, `global_risk`
/// (`details.pct`) and `risky_observations` (`details`: `median`, `mad`, `limit`) (spec
/// identity-risk.md Sec 8). `classes` holds `(fk, Fk, records)` per distinct key, in key order.
/// With `ci` enabled, the mean risk (`sdc_individual_risk`'s mean, `global_risk`) and
/// `global_risk_er` (`n` times it) carry the interval `details.ci` ([`ratio_mean`], the keys
/// as clusters; `f` the sampling fraction, records over the sum of weights; docs/ci.md).
pub fn metrics(ctx: &Context, classes: &[(f64, f64, u64)], f: f64, ci: &CiParams) -> Vec<MetricResult> {
    const IDS: [&str; 4] = ["sdc_individual_risk", "global_risk_er", "global_risk", "risky_observations"];
    let risks: Vec<(f64, u64)> = classes.iter().filter(|c| c.2 > 0).map(|&(fk, big_fk, records)| (individual_risk(fk, big_fk), records)).collect();
    let n: u64 = risks.iter().map(|r| r.1).sum();
    if n == 0 {
        return IDS.iter().map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect();
    }
    let er = neumaier(risks.iter().map(|&(r, records)| r * records as f64));
    let global = er / n as f64;
    let (min, max) = risks.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), r| (lo.min(r.0), hi.max(r.0)));
    let med = median(risks.clone());
    let mad = MAD_CONSTANT * median(risks.iter().map(|&(r, records)| ((r - med).abs(), records)).collect());
    let limit = med + MAD_FACTOR * mad;
    let risky: u64 = risks.iter().filter(|r| r.0 > limit && r.0 > RISKY_MIN).map(|r| r.1).sum();
    let interval = ci.enabled().then(|| ratio_mean(&risks, f, (0.0, 1.0), ci)).flatten();
    let with_ci = |mut details: serde_json::Value, factor: f64| {
        if let Some(i) = &interval {
            details["ci"] = i.scaled(factor).to_json();
        }
        details
    };
    vec![
        ctx.ok(IDS[0], min_mean_max(min, global, max)).with_details(with_ci(json!({}), 1.0)),
        ctx.ok(IDS[1], er).with_details(with_ci(json!({}), n as f64)),
        ctx.ok(IDS[2], global).with_details(with_ci(json!({ "pct": 100.0 * global }), 1.0)),
        ctx.ok(IDS[3], risky).with_details(json!({
            "median": med, "mad": mad, "limit": limit, "mad_factor": MAD_FACTOR, "min_risk": RISKY_MIN,
        })),
    ]
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::metric::Scope;

    fn ctx() -> Context {
        let scope = Scope { table: "P", quasi_identifiers: vec!["q".into()], sensitive: None, attribute: None, subset: None };
        Context { family: "identity", scope, params: json!({}) }
    }

    #[track_caller]
    fn assert_close(got: &Value, want: f64) {
        let got = got.as_f64().expect("a number");
        assert!((got - want).abs() <= 1e-9 * want.abs().max(1.0), "got {got:e}, want {want:e}");
    }

    /// G1.6: `(fk, Fk, records)` of classes A-F and row 17.
    const G1: [(f64, f64, u64); 7] = [(5.0, 100.0, 5), (4.0, 40.0, 4), (3.0, 15.0, 3), (2.0, 16.0, 2), (1.0, 50.0, 1), (1.0, 1.0, 1), (1.0, 30.0, 1)];

    #[test]
    fn golden_g1_6_weighted_risk() {
        let want = [0.01234567901, 0.03225806452, 0.09090909091, 0.1004195604, 0.07983720419, 1.0, 0.1172826683];
        for (&(fk, big_fk, _), want) in G1.iter().zip(want) {
            assert_close(&json!(individual_risk(fk, big_fk)), want);
        }
        let out = metrics(&ctx(), &G1, 0.1, &CiParams::default());
        let ids: Vec<_> = out.iter().map(|r| r.id).collect();
        assert_eq!(ids, ["sdc_individual_risk", "global_risk_er", "global_risk", "risky_observations"]);
        assert_close(&out[0].value["min"], 0.01234567901);
        assert_close(&out[0].value["mean"], 0.1094968776);
        assert_close(&out[0].value["max"], 1.0);
        assert_close(&out[1].value, 1.861446919);
        assert_close(&out[2].value, 0.1094968776);
        assert_close(&out[2].details["pct"], 10.94968776);
        assert_eq!(out[3].value, json!(4));
        assert_close(&out[3].details["median"], 0.03225806452);
        assert_close(&out[3].details["mad"], 0.02952210275);
        assert_close(&out[3].details["limit"], 0.09130227001);
    }

    #[test]
    fn risk_formulas_by_case() {
        // Weights below 1: Fk < fk clamps p to 1, so r = 1/fk.
        assert_eq!(individual_risk(4.0, 2.5), 0.25);
        assert_eq!(individual_risk(1.0, 0.5), 1.0);
        // Fk = 0 (all weights zero): p = 1.
        assert_eq!(individual_risk(3.0, 0.0), 1.0 / 3.0);
        // fk = 1: (p/(1-p)) ln(1/p), p = 1/4.
        assert_close(&json!(individual_risk(1.0, 4.0)), (1.0 / 3.0) * libm::log(4f64));
        // fk = 2: p/(1-p) - (p/(1-p))^2 ln(1/p), p = 1/2.
        assert_close(&json!(individual_risk(2.0, 4.0)), 1.0 - libm::log(2f64));
        // fk > 2: p/(fk - (1-p)), p = 1/2.
        assert_close(&json!(individual_risk(3.0, 6.0)), 0.5 / 2.5);
    }

    #[test]
    fn median_of_expanded_records() {
        // Records 0.1 x2, 0.2 x1, 0.5 x1: even count, middle values 0.1 and 0.2.
        assert_eq!(median(vec![(0.5, 1), (0.1, 2), (0.2, 1)]), 0.15000000000000002);
        assert_eq!(median(vec![(0.5, 1), (0.1, 2), (0.2, 2)]), 0.2);
        assert_eq!(median(vec![(0.3, 6)]), 0.3);
        // Through metrics: fk = Fk (r = 1/fk) for 2 + 2 records, median (1/4 + 1/2)/2.
        let out = metrics(&ctx(), &[(4.0, 4.0, 2), (2.0, 2.0, 2)], 1.0, &CiParams::default());
        assert_close(&out[3].details["median"], 0.375);
        assert_close(&out[3].details["mad"], MAD_CONSTANT * 0.125);
        assert_eq!(out[3].value, json!(0));
    }

    #[test]
    fn empty_input() {
        let out = metrics(&ctx(), &[(2.0, 10.0, 0)], 0.2, &CiParams::default());
        assert!(out.iter().all(|r| r.status == Status::EmptyInput && r.reason == Some("no_records_in_scope")));
    }
}
