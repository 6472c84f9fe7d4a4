//! ARX's k-map and delta-presence (spec peer-measures.md Sec 3, 4): k-anonymity with respect
//! to a population, from a population table `E` (`k_map`) or estimated from a population size
//! `N` by ARX's Poisson estimators (`k_map_estimated`), and how far membership in the release
//! can be inferred from `E` (`delta_presence`).

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::MissingPolicy;
use super::population::Population;
use crate::json::count_or_real;
use crate::metric::{Context, MetricResult, Status};
use crate::table::classes::ClassTable;
use crate::table::reference::{Subset, SubsetFlags};

/// How many keys `k_map.details.lowest` lists (Sec 3.3).
pub const LOWEST: usize = 20;
/// How many keys `delta_presence.details.per_class` lists at most (project-defined bound: a
/// population of millions of keys would otherwise make a report of millions of entries).
pub const PER_CLASS: usize = 1000;

/// ARX's estimator of `k_map_estimated` (Sec 3.2).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KMapEstimator {
    /// The Poisson estimator (ARX's default).
    #[default]
    Poisson,
    /// The zero-truncated Poisson estimator.
    ZeroTruncatedPoisson,
}

/// Settings of k-map and delta-presence (Sec 3, 4), flattened into the audit configuration.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct KMapParams {
    /// `k` of k-map (ARX GUI default 5).
    pub k_map: u64,
    /// Significance level `alpha` of the estimated k-map (ARX default 0.01).
    pub k_map_alpha: f64,
    /// The estimator of the estimated k-map.
    pub k_map_estimator: KMapEstimator,
    /// `dmin` of delta-presence (no default).
    pub delta_min: Option<f64>,
    /// `dmax` of delta-presence (no default).
    pub delta_max: Option<f64>,
}

impl Default for KMapParams {
    fn default() -> Self {
        KMapParams { k_map: 5, k_map_alpha: 0.01, k_map_estimator: KMapEstimator::Poisson, delta_min: None, delta_max: None }
    }
}

impl KMapParams {
    /// Whether the settings are in range (`k >= 1`, `alpha` and the bounds in `[0, 1]`).
    pub fn valid(&self) -> bool {
        let unit = |x: f64| (0.0..=1.0).contains(&x);
        self.k_map >= 1 && unit(self.k_map_alpha) && self.delta_min.is_none_or(unit) && self.delta_max.is_none_or(unit)
    }
}

/// The values of class `i` of `table`, QI name -> value (null for a blank).
fn values(table: &ClassTable, i: usize, names: &[String]) -> Value {
    let map: serde_json::Map<String, Value> = names.iter().enumerate().map(|(a, n)| (n.clone(), json!(table.dict(a).display(table.code_at(i, a))))).collect();
    Value::Object(map)
}

/// `k_map` (Sec 3.1, 3.3) from `F` per class of `p` (`big_f`, raised to `f` where `E` is
/// smaller; `raised` keys were).
pub fn k_map(ctx: &Context, p: &ClassTable, big_f: &[f64], raised: usize, qi: &[String], params: &KMapParams) -> MetricResult {
    let k = params.k_map as f64;
    let min = big_f.iter().copied().fold(f64::INFINITY, f64::min);
    let violating: Vec<usize> = (0..p.len()).filter(|&i| big_f[i] < k).collect();
    let cmp = |a: &usize, b: &usize| big_f[*a].total_cmp(&big_f[*b]).then_with(|| p.cmp_values(*a, *b));
    // The lowest keys, bounded: one pass keeping the best LOWEST.
    let mut lowest: Vec<usize> = Vec::with_capacity(LOWEST + 1);
    for i in 0..p.len() {
        if lowest.len() == LOWEST && cmp(&i, &lowest[LOWEST - 1]) != Ordering::Less {
            continue;
        }
        let at = lowest.partition_point(|b| cmp(b, &i) == Ordering::Less);
        lowest.insert(at, i);
        lowest.truncate(LOWEST);
    }
    let lowest: Vec<Value> = lowest.iter().map(|&i| json!({ "values": values(p, i, qi), "f": p.count(i), "F": count_or_real(big_f[i]) })).collect();
    let mut m = ctx.ok("k_map", count_or_real(min)).with_details(json!({
        "k": params.k_map,
        "satisfied": min >= k,
        "violating_classes": violating.len(),
        "violating_records": violating.iter().map(|&i| p.count(i)).sum::<u64>(),
        "lowest": lowest,
    }));
    if raised > 0 {
        m.warnings.push("population_smaller_than_sample");
        m.details["keys_raised_to_sample"] = json!(raised);
    }
    m
}

/// `k_map` without a usable population table.
pub fn k_map_without(ctx: &Context, reason: &'static str, missing: &[String]) -> MetricResult {
    let m = ctx.without_value("k_map", Status::NotApplicable, reason);
    if missing.is_empty() { m } else { m.with_details(json!({ "missing": missing })) }
}

/// The Poisson(`lambda`) probabilities `Pois(0..=c_max)`, in log space term by term.
fn poisson_pmf(lambda: f64, c_max: u64) -> Vec<f64> {
    let ln = libm::log(lambda);
    let mut lp = -lambda;
    let mut out = Vec::with_capacity(c_max as usize + 1);
    for j in 0..=c_max {
        if j > 0 {
            lp += ln - libm::log(j as f64);
        }
        out.push(libm::exp(lp));
    }
    out
}

/// ARX's derived `k'` and the type I error (Sec 3.2) for sample size `n`, population `N`.
pub fn derived_k(k: u64, alpha: f64, estimator: KMapEstimator, n: u64, big_n: u64) -> (u64, f64, f64) {
    let lambda = n as f64 / big_n as f64 * k as f64;
    let target = 1.0 - alpha;
    // c* is searched while c + 1 < k only (the loops stop when the counter reaches k).
    let pmf = poisson_pmf(lambda, k.saturating_sub(1));
    let (mut derived, mut type1) = (k, 0.0);
    match estimator {
        KMapEstimator::Poisson => {
            let mut cdf = 0.0;
            for c in 0..k.saturating_sub(1) {
                cdf += pmf[c as usize];
                if cdf >= target {
                    (derived, type1) = (c + 2, 1.0 - cdf);
                    break;
                }
            }
        }
        KMapEstimator::ZeroTruncatedPoisson => {
            let mass = -libm::expm1(-lambda);
            let mut sum = 0.0;
            for c in 1..k.saturating_sub(1) {
                sum += pmf[c as usize];
                let g = sum / mass;
                if g >= target {
                    (derived, type1) = (c + 1, 1.0 - g);
                    break;
                }
            }
        }
    }
    (derived.min(n), type1, lambda)
}

/// `k_map_estimated` (Sec 3.2, 3.3): `n` records, smallest class size `k_anonymity`.
pub fn k_map_estimated(ctx: &Context, n: u64, k_anonymity: f64, population: &Population, params: &KMapParams) -> MetricResult {
    let id = "k_map_estimated";
    if !(params.k_map >= 1 && (0.0..=1.0).contains(&params.k_map_alpha)) {
        return ctx.without_value(id, Status::Error, "invalid_parameter");
    }
    let big_n = match population.size(n) {
        Ok(big_n) => big_n,
        Err((status, reason)) => return ctx.without_value(id, status, reason),
    };
    let (derived, type1, lambda) = derived_k(params.k_map, params.k_map_alpha, params.k_map_estimator, n, big_n);
    ctx.ok(id, derived).with_details(json!({
        "k": params.k_map,
        "alpha": params.k_map_alpha,
        "estimator": params.k_map_estimator,
        "n": n,
        "N": big_n,
        "pi": n as f64 / big_n as f64,
        "lambda": lambda,
        "type1_error": type1,
        "k_anonymity": count_or_real(k_anonymity),
        "satisfied": k_anonymity >= derived as f64,
    }))
}

/// A key of delta-presence: of `E` (`true`, its class) or only of `P` (`false`, its class),
/// with `f` and `F`.
type Key = (bool, usize, u64, u64);

/// `delta_presence` (Sec 4) from the classes of `p` and of `e` (QI `a` of `p` is column
/// `columns[a]` of `e`): form (a) when `subset` is `None` (the released table is the research
/// subset), else form (b) (the rows of `E` its column flags; `p` is not used).
pub fn delta_presence(
    ctx: &Context,
    p: &ClassTable,
    e: &ClassTable,
    columns: &[usize],
    subset: Option<&Subset>,
    qi: &[String],
    params: &KMapParams,
) -> MetricResult {
    let ctx = Context { family: "membership", ..ctx.clone() };
    let id = "delta_presence";
    if p.policy() == MissingPolicy::Wildcard {
        return ctx.without_value(id, Status::NotApplicable, "policy_not_supported");
    }
    let (keys, raised, form) = match subset {
        None => {
            let (keys, raised) = released_keys(p, e, columns);
            (keys, raised, json!("released_table"))
        }
        Some(Subset { column, flags: SubsetFlags::Members(members) }) => {
            let keys = (0..e.len()).map(|j| (true, j, members[j], e.count(j))).collect();
            (keys, 0, json!({ "research_subset_column": column }))
        }
        Some(Subset { column, flags: SubsetFlags::MissingColumn }) => {
            return ctx.without_value(id, Status::Error, "research_subset_column_missing").with_details(json!({ "research_subset_column": column }));
        }
        Some(Subset { column, flags: SubsetFlags::InvalidFlag { line, value } }) => {
            let details = json!({ "research_subset_column": column, "line": line, "value": value });
            return ctx.without_value(id, Status::Error, "invalid_subset_flag").with_details(details);
        }
    };
    if keys.is_empty() {
        return ctx.without_value(id, Status::EmptyInput, "no_records_in_scope");
    }
    let delta = |k: &Key| k.2 as f64 / k.3 as f64;
    let (mut min, mut max, mut min_released) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY);
    for k in &keys {
        let d = delta(k);
        min = min.min(d);
        max = max.max(d);
        if k.2 > 0 {
            min_released = min_released.min(d);
        }
    }
    let outside = |d: f64| params.delta_min.is_some_and(|lo| d < lo) || params.delta_max.is_some_and(|hi| d > hi);
    let violating = keys.iter().filter(|k| outside(delta(k))).count();
    let satisfied = match (params.delta_min, params.delta_max) {
        (Some(_), Some(_)) => json!(violating == 0),
        _ => Value::Null,
    };
    let n_classes = keys.len();
    let mut m = ctx.ok(id, json!({ "min": min, "max": max })).with_details(json!({
        "min_released": min_released,
        "dmin": params.delta_min,
        "dmax": params.delta_max,
        "satisfied": satisfied,
        "violating_classes": violating,
        "n_classes": n_classes,
        "form": form,
        "per_class": per_class(keys, p, e, columns, qi),
        "per_class_truncated": n_classes > PER_CLASS,
    }));
    if raised > 0 {
        m.warnings.push("population_smaller_than_sample");
        m.details["keys_raised_to_sample"] = json!(raised);
    }
    m
}

/// Form (a)'s keys: every key of `E` with its released records `f` (`F` raised to `f` where
/// `E` is smaller), then the keys only `P` has (`F := f`); and how many were raised.
fn released_keys(p: &ClassTable, e: &ClassTable, columns: &[usize]) -> (Vec<Key>, usize) {
    let q = p.q();
    let mut f_e = vec![0u64; e.len()];
    let mut only_p: Vec<usize> = Vec::new();
    for i in 0..p.len() {
        let mut key = vec![0; q];
        let found = (0..q).all(|a| match p.dict(a).translate(p.code_at(i, a), e.dict(columns[a])) {
            Some(c) => {
                key[columns[a]] = c;
                true
            }
            None => false,
        });
        match found.then(|| e.find(&key)).flatten() {
            Some(j) => f_e[j] += p.count(i),
            None => only_p.push(i),
        }
    }
    let mut keys: Vec<Key> = (0..e.len()).map(|j| (true, j, f_e[j], e.count(j).max(f_e[j]))).collect();
    let raised = keys.iter().filter(|k| k.2 > e.count(k.1)).count() + only_p.len();
    keys.extend(only_p.iter().map(|&i| (false, i, p.count(i), p.count(i))));
    (keys, raised)
}

/// The first [`PER_CLASS`] keys, highest delta first (the keys whose membership is surest),
/// ties by values.
fn per_class(mut keys: Vec<Key>, p: &ClassTable, e: &ClassTable, columns: &[usize], qi: &[String]) -> Vec<Value> {
    let delta = |k: &Key| k.2 as f64 / k.3 as f64;
    let mut e_names = vec![String::new(); columns.len()];
    for (a, &b) in columns.iter().enumerate() {
        e_names[b] = qi[a].clone();
    }
    let cmp = |x: &Key, y: &Key| {
        delta(y).total_cmp(&delta(x)).then(x.0.cmp(&y.0).reverse()).then_with(|| {
            if x.0 && y.0 {
                e.cmp_values(x.1, y.1)
            } else if !x.0 && !y.0 {
                p.cmp_values(x.1, y.1)
            } else {
                Ordering::Equal
            }
        })
    };
    keys.sort_by(cmp);
    keys.iter()
        .take(PER_CLASS)
        .map(|k| {
            let v = if k.0 { values(e, k.1, &e_names) } else { values(p, k.1, qi) };
            json!({ "values": v, "f": k.2, "F": k.3, "delta": delta(k) })
        })
        .collect()
}

/// `delta_presence` without a usable population table.
pub fn delta_presence_without(ctx: &Context, reason: &'static str, missing: &[String]) -> MetricResult {
    let ctx = Context { family: "membership", ..ctx.clone() };
    let m = ctx.without_value("delta_presence", Status::NotApplicable, reason);
    if missing.is_empty() { m } else { m.with_details(json!({ "missing": missing })) }
}
