//! Identity disclosure (spec identity-risk.md): equivalence classes over the
//! quasi-identifiers, class sizes, uniqueness, record risk and the ARX prosecutor model.

pub mod class_size;
pub mod classes;
pub mod dictionary;
pub mod packing;
pub mod record_risk;

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::metric::{Context, MetricResult, Scope, Status};
pub use classes::{ClassTable, MissingPolicy};

/// How many of the riskiest classes `record_risk.details.top` lists.
pub const TOP_CLASSES: usize = 20;

/// Settings of the identity family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdentityParams {
    /// Missing-value policy (spec README Sec 7).
    pub missing_policy: MissingPolicy,
    /// `alpha` of `wildcard` (spec identity-risk.md Sec 1.3).
    pub wildcard_alpha: f64,
    /// Remove rows whose QI cells are all `SUPPRESSED` (spec README Sec 7).
    pub exclude_suppressed_rows: bool,
    /// Per-record threshold `tau` (spec identity-risk.md Sec 5).
    pub threshold: f64,
}

impl Default for IdentityParams {
    fn default() -> Self {
        IdentityParams {
            missing_policy: MissingPolicy::Ordinary,
            wildcard_alpha: 1.0,
            exclude_suppressed_rows: true,
            threshold: 0.2,
        }
    }
}

/// Keys grouped by their `f`: the class-size histogram every identity metric derives from,
/// so finishing costs memory in the number of distinct sizes, not of classes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeGroup {
    /// `f` (spec identity-risk.md Sec 1.3): a class size, or a wildcard match count.
    pub f: f64,
    /// Distinct keys with this `f`.
    pub classes: u64,
    /// Records with this `f`.
    pub records: u64,
}

/// The groups in ascending `f`, with `n` and `K`.
pub struct Sizes {
    /// Groups, ascending `f`.
    pub groups: Vec<SizeGroup>,
    /// Records in scope.
    pub n: u64,
    /// Distinct keys.
    pub classes: u64,
}

impl Sizes {
    /// Groups the keys of `table` by `f` (`f_of(i)` for key `i`).
    fn of(table: &ClassTable, f_of: impl Fn(usize) -> f64) -> Sizes {
        // Positive binary64 values sort like their bit patterns.
        let mut by_f: std::collections::BTreeMap<u64, (u64, u64)> = std::collections::BTreeMap::new();
        for i in 0..table.len() {
            let e = by_f.entry(f_of(i).to_bits()).or_default();
            e.0 += 1;
            e.1 += table.count(i);
        }
        let groups: Vec<SizeGroup> =
            by_f.into_iter().map(|(f, (classes, records))| SizeGroup { f: f64::from_bits(f), classes, records }).collect();
        Sizes { n: table.records(), classes: table.len() as u64, groups }
    }

    /// Smallest `f` (`k`).
    pub fn min_f(&self) -> f64 {
        self.groups.first().map_or(0.0, |g| g.f)
    }

    /// Largest `f`.
    pub fn max_f(&self) -> f64 {
        self.groups.last().map_or(0.0, |g| g.f)
    }

    /// Records whose `f` satisfies `pred`.
    pub fn records_where(&self, pred: impl Fn(f64) -> bool) -> u64 {
        self.groups.iter().filter(|g| pred(g.f)).map(|g| g.records).sum()
    }
}

/// The identity family's results from a finished class table.
pub fn finish(table: &ClassTable, qi: &[String], p: &IdentityParams) -> Vec<MetricResult> {
    let ctx = Context {
        family: "identity",
        scope: Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({
            "missing_policy": p.missing_policy,
            "exclude_suppressed_rows": p.exclude_suppressed_rows,
            "wildcard_alpha": p.wildcard_alpha,
        }),
    };
    let n = table.records();
    let mut out = vec![
        ctx.ok("n_records_total", table.rows_total),
        ctx.ok("n_records", n),
        ctx.ok("n_suppressed_records", table.suppressed),
        ctx.ok("n_dropped_records", table.dropped),
    ];
    let partition = p.missing_policy != MissingPolicy::Wildcard;
    let wildcard_f = (!partition).then(|| table.match_counts(p.wildcard_alpha));
    let f_of = |i: usize| wildcard_f.as_ref().map_or(table.count(i) as f64, |f| f[i]);
    let sizes = Sizes::of(table, f_of);
    let mut family = Vec::new();
    if n > 0 {
        family.extend(class_size::metrics(&ctx, &sizes, partition));
        family.extend(record_risk::metrics(&ctx, &sizes, partition, p.threshold, riskiest(table, f_of, qi)));
    } else {
        for id in IDS {
            family.push(ctx.without_value(id, Status::EmptyInput, "no_records_in_scope"));
        }
    }
    out.extend(family);
    out
}

/// Ids computed from the classes, in output order (empty input reports each as `empty_input`).
const IDS: [&str; 19] = [
    "k_anonymity",
    "n_classes",
    "class_size_histogram",
    "ec_size_percentiles",
    "max_class_size",
    "k_violators",
    "sample_uniques",
    "sample_uniqueness",
    "rare_combination_rate",
    "record_risk",
    "r_internal",
    "avg_risk_class_mean",
    "prosecutor_lowest_risk",
    "prosecutor_success_rate",
    "prosecutor_highest_risk",
    "prosecutor_records_at_risk",
    "prosecutor_records_affected_by_highest_risk",
    "prosecutor_records_affected_by_lowest_risk",
    "risk_distribution",
];

/// The [`TOP_CLASSES`] classes with the highest record risk (smallest `f`), ties broken by
/// their values so the list does not depend on row order. One pass, bounded memory.
fn riskiest(table: &ClassTable, f_of: impl Fn(usize) -> f64, qi: &[String]) -> Value {
    let cmp = |a: &(f64, usize), b: &(f64, usize)| {
        a.0.total_cmp(&b.0).then_with(|| {
            (0..qi.len())
                .map(|q| table.dict(q).sort_key(table.code_at(a.1, q)).cmp(&table.dict(q).sort_key(table.code_at(b.1, q))))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        })
    };
    let mut best: Vec<(f64, usize)> = Vec::with_capacity(TOP_CLASSES + 1);
    for i in 0..table.len() {
        let c = (f_of(i), i);
        if best.len() == TOP_CLASSES && cmp(&c, &best[TOP_CLASSES - 1]) != Ordering::Less {
            continue;
        }
        let at = best.partition_point(|b| cmp(b, &c) == Ordering::Less);
        best.insert(at, c);
        best.truncate(TOP_CLASSES);
    }
    let rows: Vec<Value> = best
        .iter()
        .map(|&(f, i)| {
            let values: serde_json::Map<String, Value> = qi
                .iter()
                .enumerate()
                .map(|(q, name)| (name.clone(), json!(table.dict(q).display(table.code_at(i, q)))))
                .collect();
            json!({ "values": values, "size": table.count(i), "f": crate::json::count_or_real(f), "risk": 1.0 / f })
        })
        .collect();
    Value::Array(rows)
}
