//! ARX's journalist and marketer models against a population table `E` (spec identity-risk.md
//! Sec 6): `F(i)`, the number of population records matching record `i`, replaces `f(i)`.

use serde_json::json;

use super::{MissingPolicy, Sizes};
use crate::metric::{Context, MetricResult, Status};
use crate::numeric::{max_of, min_of, neumaier};
use crate::table::classes::ClassTable;
use crate::table::dictionary::is_blank;

/// Ids of this model, in output order.
pub const IDS: [&str; 5] =
    ["journalist_records_at_risk", "journalist_highest_risk", "journalist_lowest_risk", "journalist_success_rate", "marketer_success_rate"];

/// `F` per class of `p` from the population table `e` (same QIs; QI `a` of `p` is column
/// `columns[a]` of `e`), raised to `f` where the population is smaller than the sample; with
/// the number of keys raised.
pub fn population_counts(p: &ClassTable, e: &ClassTable, columns: &[usize], f: &[f64], alpha: f64) -> (Vec<f64>, usize) {
    let q = p.q();
    let wildcard = p.policy() == MissingPolicy::Wildcard;
    let e_keys: Vec<Vec<u32>> = if wildcard { (0..e.len()).map(|j| e.key(j)).map(|k| columns.iter().map(|&b| k[b]).collect()).collect() } else { Vec::new() };
    let mut raised = 0;
    let big_f = (0..p.len())
        .map(|i| {
            let mapped: Vec<Option<u32>> = (0..q).map(|a| p.dict(a).translate(p.code_at(i, a), e.dict(columns[a]))).collect();
            let in_e_order = || {
                let mut key = vec![0; q];
                for (a, m) in mapped.iter().enumerate() {
                    key[columns[a]] = (*m)?;
                }
                Some(key)
            };
            let exact = || in_e_order().and_then(|k| e.find(&k)).map_or(0.0, |j| e.count(j) as f64);
            let count = if !wildcard {
                exact()
            } else {
                e_keys
                    .iter()
                    .enumerate()
                    .filter_map(|(j, kj)| {
                        let compatible = mapped.iter().zip(kj).all(|(x, &y)| is_blank(y) || x.is_some_and(|x| is_blank(x) || x == y));
                        let equal = mapped.iter().zip(kj).all(|(x, &y)| *x == Some(y));
                        let w = if equal || !kj.iter().any(|&c| is_blank(c)) { 1.0 } else { alpha };
                        compatible.then(|| w * e.count(j) as f64)
                    })
                    .sum()
            };
            if count < f[i] {
                raised += 1;
                f[i]
            } else {
                count
            }
        })
        .collect();
    (big_f, raised)
}

/// The journalist and marketer metrics without a population table: `F = f`, and the values
/// equal the prosecutor model's (ARX behaviour), from the size groups.
pub fn without_population(ctx: &Context, s: &Sizes, tau: f64) -> (Vec<MetricResult>, Checked) {
    let (mut out, checked) = from_groups(ctx, s.groups.iter().map(|g| (g.f, g.records, g.classes)), s.n, s.classes, tau);
    for m in &mut out {
        m.warnings.push("no_population_table");
    }
    (out, checked)
}

/// The journalist and marketer metrics from `F` per class of `p` (`raised`: the keys whose
/// `F` was raised to `f`).
pub fn with_population(ctx: &Context, p: &ClassTable, big_f: &[f64], raised: usize, tau: f64) -> (Vec<MetricResult>, Checked) {
    let (mut out, checked) = from_groups(ctx, (0..p.len()).map(|i| (big_f[i], p.count(i), 1)), p.records(), p.len() as u64, tau);
    if raised > 0 {
        for m in &mut out {
            m.warnings.push("population_smaller_than_sample");
            m.details["keys_raised_to_sample"] = json!(raised);
        }
    }
    (out, checked)
}

/// The five metrics from groups of keys `(F, records, keys)` (a group per class, or per
/// distinct `F`), over `n` records and `keys` keys, and the values ARX checks.
fn from_groups(ctx: &Context, groups: impl Iterator<Item = (f64, u64, u64)> + Clone, n: u64, keys: u64, tau: f64) -> (Vec<MetricResult>, Checked) {
    let n = n as f64;
    let records = |pred: &dyn Fn(f64) -> bool| groups.clone().filter(|g| pred(g.0)).map(|g| g.1).sum::<u64>() as f64 / n;
    let min_f = min_of(groups.clone().map(|g| g.0), f64::INFINITY);
    let max_f = max_of(groups.clone().map(|g| g.0), 0.0);
    let marketer = neumaier(groups.clone().map(|(f, r, _)| r as f64 / f)) / n;
    let keys_over_population = keys as f64 / neumaier(groups.clone().map(|(f, _, k)| f * k as f64));
    let journalist = [records(&|x| 1.0 / x > tau), 1.0 / min_f, keys_over_population.max(marketer)];
    let out = vec![
        ctx.ok("journalist_records_at_risk", journalist[0]).with_details(json!({ "tau": tau })),
        ctx.ok("journalist_highest_risk", journalist[1]),
        ctx.ok("journalist_lowest_risk", 1.0 / max_f),
        ctx.ok("journalist_success_rate", journalist[2]),
        ctx.ok("marketer_success_rate", marketer),
    ];
    (out, Checked { journalist, marketer })
}

/// What ARX's thresholds check of these models (identity-risk.md Sec 11.1): the journalist's
/// records at risk, highest risk and success rate, and the marketer's success rate.
#[derive(Debug, Clone, Copy)]
pub struct Checked {
    /// Records at risk, highest risk, success rate.
    pub journalist: [f64; 3],
    /// The marketer's success rate.
    pub marketer: f64,
}

/// Every result `not_applicable` because `E` lacks some QIs.
pub fn missing_qi(ctx: &Context, missing: &[String]) -> Vec<MetricResult> {
    IDS.iter().map(|id| ctx.without_value(id, Status::NotApplicable, "population_missing_qi").with_details(json!({ "missing": missing }))).collect()
}
