//! External linkage risk against a reference table `E` (spec balance.md Sec 1): `r_external`
//! and its match rate (Sec 1.1, the default `R_ext`), `r_unique`, the probability-based
//! diagnostic `r_external_probability` and the correlation-based `r_external_correlation`
//! (Sec 1.2; reported always, as a diagnostic that never enters `risk_r`).
//!
//! `E` is read by [`crate::reference`] into classes over `A_ext`, the QIs it shares with `P`.
//! Records of `P` sharing an `A_ext` key share `ext_count`, so everything here runs over the
//! classes of `P` projected onto `A_ext`, never over records.

use serde_json::json;

use crate::interval::{CiParams, ratio_mean};
use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::classes::{ClassTable, MissingPolicy, omega};
use crate::table::dictionary::is_blank;
use crate::table::reference::ReferenceTable;

/// Ids of this module, in output order.
pub const IDS: [&str; 5] = ["r_external", "r_external_match_rate", "r_unique", "r_external_probability", "r_external_correlation"];

/// `k_u` of `r_unique` (Sec 1.2): records whose `f` is at most this count.
pub const K_UNIQUE: u32 = 1;

/// The code standing for a value of `P` that `E` never holds: equal to no code of `E`, and
/// not blank.
const ABSENT: u32 = u32::MAX;

/// How the QIs of `P` meet the columns of `E`.
pub struct Linkage<'a> {
    e: &'a ClassTable,
    /// `(position in A, position in E)` of each attribute of `A_ext`, in `A` order.
    pairs: Vec<(usize, usize)>,
    /// `A_ext`, in `A` order.
    names: Vec<String>,
}

impl<'a> Linkage<'a> {
    /// The linkage of `P` (QIs `qi`, in `A` order) with `E`. Attributes are matched by name,
    /// whatever order `E` holds them in.
    pub fn new(qi: &[String], e: &'a ReferenceTable) -> Self {
        let (mut pairs, mut names) = (Vec::new(), Vec::new());
        for (a, name) in qi.iter().enumerate() {
            if let Some(b) = e.present.iter().position(|x| x == name) {
                pairs.push((a, b));
                names.push(name.clone());
            }
        }
        Linkage { e: &e.table, pairs, names }
    }

    /// `A_ext`, in `A` order.
    pub fn attributes(&self) -> &[String] {
        &self.names
    }

    /// The key of class `i` of `p` projected onto `A_ext`, in `E`'s codes and column order.
    fn project(&self, p: &ClassTable, i: usize) -> Vec<u32> {
        let mut key = vec![ABSENT; self.e.q()];
        for &(a, b) in &self.pairs {
            key[b] = p.dict(a).translate(p.code_at(i, a), self.e.dict(b)).unwrap_or(ABSENT);
        }
        key
    }

    /// `ext_count` of every class of `p` (Sec 1.1): the weight of the rows of `E` matching
    /// the class on `A_ext`, `omega` of identity-risk.md Sec 1.3 (exact key equality unless
    /// the policy is `wildcard`).
    pub fn ext_counts(&self, p: &ClassTable, alpha: f64) -> Vec<f64> {
        let e = self.e;
        let policy = p.policy();
        let exact = |key: &[u32]| {
            if key.contains(&ABSENT) { 0.0 } else { e.find(key).map_or(0.0, |j| e.count(j) as f64) }
        };
        if policy != MissingPolicy::Wildcard {
            return (0..p.len()).map(|i| exact(&self.project(p, i))).collect();
        }
        let e_keys: Vec<Vec<u32>> = (0..e.len()).map(|j| e.key(j)).collect();
        let blank: Vec<usize> = (0..e.len()).filter(|&j| e_keys[j].iter().any(|&c| is_blank(c))).collect();
        let weighed = |key: &[u32], j: usize| omega(key, &e_keys[j], policy, alpha).map_or(0.0, |w| w * e.count(j) as f64);
        (0..p.len())
            .map(|i| {
                let key = self.project(p, i);
                if key.iter().any(|&c| is_blank(c)) {
                    neumaier((0..e.len()).map(|j| weighed(&key, j)))
                } else {
                    // A complete key matches a complete row of E only when equal.
                    exact(&key) + neumaier(blank.iter().map(|&j| weighed(&key, j)))
                }
            })
            .collect()
    }

    /// Per attribute of `A_ext`, the share of each value among the records in scope of `P`
    /// and among the rows of `E`, over the union of their values, a blank being a value
    /// (Sec 1.2): the input of both the probability-based and the correlation-based approach.
    pub fn value_shares(&self, p: &ClassTable) -> Vec<Vec<(f64, f64)>> {
        let e = self.e;
        let (n, n_e) = (p.records() as f64, e.records() as f64);
        let (p_records, e_records) = (p.value_records(), e.value_records());
        self.pairs
            .iter()
            .map(|&(a, b)| {
                let (p_counts, e_counts) = (&p_records[a], &e_records[b]);
                let mut in_p = vec![false; e_counts.len()];
                let mut shares: Vec<(f64, f64)> = Vec::new();
                for (v, &c) in p_counts.iter().enumerate().filter(|(_, c)| **c > 0) {
                    let w = p.dict(a).translate(v as u32, e.dict(b));
                    if let Some(w) = w {
                        in_p[w as usize] = true;
                    }
                    shares.push((c as f64 / n, w.map_or(0.0, |w| e_counts[w as usize] as f64 / n_e)));
                }
                let only_e = e_counts.iter().enumerate().filter(|&(w, &c)| c > 0 && !in_p[w]);
                shares.extend(only_e.map(|(_, &c)| (0.0, c as f64 / n_e)));
                shares
            })
            .collect()
    }
}

/// `M_a = sum_v freq_P(a = v) freq_E(a = v)` (Sec 1.2) of one attribute's value shares.
fn matching_probability(shares: &[(f64, f64)]) -> f64 {
    neumaier(shares.iter().map(|(x, y)| x * y))
}

/// Pearson correlation of paired values; `None` when either side is constant.
fn pearson(pairs: &[(f64, f64)]) -> Option<f64> {
    let k = pairs.len() as f64;
    let (mx, my) = (neumaier(pairs.iter().map(|p| p.0)) / k, neumaier(pairs.iter().map(|p| p.1)) / k);
    let sxy = neumaier(pairs.iter().map(|(x, y)| (x - mx) * (y - my)));
    let (sxx, syy) = (neumaier(pairs.iter().map(|(x, _)| (x - mx).powi(2))), neumaier(pairs.iter().map(|(_, y)| (y - my).powi(2))));
    (sxx > 0.0 && syy > 0.0).then(|| (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// A record's linkage risk from its `ext_count`: `1/ext_count`, 0 without a match. A
/// weighted wildcard count below 1 (`alpha < 1`) counts as one match, so the risk stays in
/// `[0, 1]`.
fn linkage_risk(ext_count: f64) -> f64 {
    if ext_count > 0.0 { 1.0 / ext_count.max(1.0) } else { 0.0 }
}

/// The results of [`IDS`] for `P` (classes `p`, QIs `qi`, non-empty) against `E`, and
/// `r_external` when it applies (the `R_ext` of `risk_r`). With `ci` enabled, `r_external`
/// carries the interval `details.ci` ([`ratio_mean`] over the classes of `P`, no
/// finite-population correction; docs/ci.md).
pub fn metrics(ctx: &Context, p: &ClassTable, qi: &[String], e: Option<&ReferenceTable>, alpha: f64, ci: &CiParams) -> (Vec<MetricResult>, Option<f64>) {
    let not_applicable = |reason| IDS.iter().map(|id| ctx.without_value(id, Status::NotApplicable, reason)).collect();
    let Some(e) = e else { return (not_applicable("no_external_table"), None) };
    let link = Linkage::new(qi, e);
    if link.attributes().is_empty() {
        return (not_applicable("no_common_quasi_identifiers"), None);
    }
    let n = p.records() as f64;
    let ext = link.ext_counts(p, alpha);
    let f = p.match_counts(alpha);
    let r_external = neumaier((0..p.len()).map(|i| p.count(i) as f64 * linkage_risk(ext[i]))) / n;
    let matched: u64 = (0..p.len()).filter(|&i| ext[i] > 0.0).map(|i| p.count(i)).sum();
    let rare = || (0..p.len()).filter(|&i| f[i] <= f64::from(K_UNIQUE));
    let r_unique = neumaier(rare().map(|i| p.count(i) as f64 * linkage_risk(ext[i]))) / n;
    let not_in_external: Vec<&String> = qi.iter().filter(|a| !link.attributes().contains(a)).collect();
    let mut about = json!({ "a_ext": link.attributes(), "not_in_external": not_in_external, "external_rows": e.table.records() });
    if ci.enabled() {
        let risks: Vec<(f64, u64)> = (0..p.len()).map(|i| (linkage_risk(ext[i]), p.count(i))).collect();
        if let Some(i) = ratio_mean(&risks, 0.0, (0.0, 1.0), ci) {
            about["ci"] = i.to_json();
        }
    }
    let mut out = vec![
        ctx.ok("r_external", r_external).with_details(about),
        ctx.ok("r_external_match_rate", matched as f64 / n).with_details(json!({ "matched_records": matched, "records": p.records() })),
        ctx.ok("r_unique", r_unique).with_details(json!({ "k_u": K_UNIQUE, "records": rare().map(|i| p.count(i)).sum::<u64>() })),
    ];
    let shares = link.value_shares(p);
    out.push(if e.table.is_empty() {
        ctx.without_value("r_external_probability", Status::NotApplicable, "empty_external_table")
    } else {
        let m: Vec<f64> = shares.iter().map(|s| matching_probability(s)).collect();
        let per_attribute: serde_json::Map<String, serde_json::Value> = link.attributes().iter().zip(&m).map(|(a, v)| (a.clone(), json!(v))).collect();
        ctx.ok("r_external_probability", m.iter().product::<f64>()).with_details(json!({ "per_attribute": per_attribute }))
    });
    out.push(if e.table.is_empty() {
        ctx.without_value("r_external_correlation", Status::NotApplicable, "empty_external_table")
    } else {
        let rho: Vec<Option<f64>> = shares.iter().map(|s| pearson(s)).collect();
        let per_attribute: serde_json::Map<String, serde_json::Value> = link.attributes().iter().zip(&rho).map(|(a, v)| (a.clone(), json!(v))).collect();
        let kept: Vec<f64> = rho.iter().flatten().map(|r| r.max(0.0)).collect();
        let details = json!({ "per_attribute": per_attribute });
        if kept.is_empty() {
            ctx.without_value("r_external_correlation", Status::NotApplicable, "constant_distributions").with_details(details)
        } else {
            ctx.ok("r_external_correlation", neumaier(kept.iter().copied()) / kept.len() as f64).with_details(details).with_warning("saturates_when_similar")
        }
    });
    (out, Some(r_external))
}
