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

/// `f` and record count of every distinct key, and `n`.
pub struct Sizes {
    /// `f` per key (spec identity-risk.md Sec 1.3).
    pub f: Vec<f64>,
    /// Records per key.
    pub counts: Vec<u64>,
    /// Records in scope.
    pub n: u64,
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
    let sizes = Sizes { f: table.match_counts(p.wildcard_alpha), counts: (0..table.len()).map(|i| table.count(i)).collect(), n };
    let mut family = Vec::new();
    if n > 0 {
        family.extend(class_size::metrics(&ctx, &sizes, partition));
        family.extend(record_risk::metrics(&ctx, &sizes, partition, p.threshold, riskiest(table, &sizes, qi)));
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
/// their values so the list does not depend on row order.
fn riskiest(table: &ClassTable, s: &Sizes, qi: &[String]) -> Value {
    let cmp_keys = |a: usize, b: usize| {
        (0..qi.len())
            .map(|q| table.dict(q).sort_key(table.code_at(a, q)).cmp(&table.dict(q).sort_key(table.code_at(b, q))))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    };
    let cmp = |&a: &usize, &b: &usize| s.f[a].total_cmp(&s.f[b]).then_with(|| cmp_keys(a, b));
    let mut idx: Vec<usize> = (0..table.len()).collect();
    if idx.len() > TOP_CLASSES {
        idx.select_nth_unstable_by(TOP_CLASSES, cmp);
        idx.truncate(TOP_CLASSES);
    }
    idx.sort_unstable_by(cmp);
    let rows: Vec<Value> = idx
        .iter()
        .map(|&i| {
            let values: serde_json::Map<String, Value> = qi
                .iter()
                .enumerate()
                .map(|(q, name)| (name.clone(), json!(table.dict(q).display(table.code_at(i, q)))))
                .collect();
            json!({ "values": values, "size": table.count(i), "f": crate::json::count_or_real(s.f[i]), "risk": 1.0 / s.f[i] })
        })
        .collect();
    Value::Array(rows)
}
