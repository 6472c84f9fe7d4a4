//! \[SDCG\] information-loss measures (spec utility.md Sec 8), family `utility_sdc`.
//!
//! Every result follows spec README Sec 10; per-attribute results carry `scope.attribute`.
//! Paired results (marked *paired*) are `error` with the pairing's reason (`row_count_mismatch`,
//! `record_id_missing`, `record_id_not_unique`, `record_id_unknown_in_released`) when the rows
//! of `O` and `P` cannot be aligned, and carry the pairing's `details` (`alignment`,
//! `records_removed`, `records_removed_share`). An attribute of `O` missing from `P` gives
//! `not_applicable` / `attribute_dropped` for its per-attribute results and is left out of
//! the table-level ones (`details.dropped`).
//!
//! Ids, values and details:
//!
//! | id | scope | value | details |
//! |---|---|---|---|
//! | `missing_count` | attribute | `{original, released, increase, increase_pct, ratio}` (`ratio` null when `original = 0`) | `{original: {missing, suppressed}, released: {missing, suppressed}, rows_original, rows_released}` |
//! | `cell_transitions` (paired) | attribute | `{unchanged, changed, suppressed, imputed, blank_to_blank}` | `{aligned_rows, comparison: "value" \| "string"}` |
//! | `suppressed_cells` (paired) | attribute | count | `{pct, aligned_rows}` |
//! | `changed_records` (paired) | attribute | count (changed + suppressed + imputed) | `{changed, suppressed, imputed, aligned_rows, pct}` |
//! | `ctbil` | table | `sum_T d_T` (integer) | `{tables: [{variables, distance, cells, tv_distance}] (first 100), tables_total, cells_total, variables, max_dimension, blank, forward: {variable: {source, undefined}}, not_comparable, not_comparable_variables: {variable: reason}}` |
//! | `ctbil_normalized` | table | `ctbil / sum_T cells_T` | `{ctbil, cells_total}` |
//! | `tv_distance` | table | `{min, mean, max}` over the tables of `ctbil` | `{tables}` |
//! | `mean_diff` | attribute (numeric) | `{original, released, difference, rel_change_pct}` (`rel` null when `original = 0`) | `{n_original, n_released}` |
//! | `variance_diff` | attribute (numeric) | as `mean_diff`, sample variances (`n - 1`) | as `mean_diff` |
//! | `cov_discrepancy` | table | `{mse, mae, mv}` over the cells `i <= j` | `{variables, original, released (matrices, null = undefined), cells, cells_undefined, mv_cells, mv_cells_skipped}` |
//! | `cor_discrepancy` | table | `{mse, mae, mv}` over the cells `i < j` | as `cov_discrepancy`, plus `excluded: {variable: reason}` |
//! | `il1s` (paired) | table | `(1/p') sum_j (1/n_j) sum |x - z| / (sqrt 2 S_j)` | `{attributes: {name: {s, pairs, value, sum}}, excluded: {name: reason}, kept}` |
//! | `il1s_sdcmicro_sum` (paired) | table | `sum_j sum |x - z| / (sqrt 2 S_j)` | as `il1s` |
//! | `il1_relpct_sum` (paired) | table | `sum_j sum_{x != 0} 100 |x - z| / |x|` | `{attributes: {name: {pairs, sum}}}` |
//! | `eigen_diff` | table | `sum_k |lambda_k - mu_k| / lambda_k`; null + `near_singular` | `{variables, eigenvalues_original, eigenvalues_released, rows_original, rows_released, percent}` |
//!
//! Numeric statistics (`mean_diff` ... `eigen_diff`, IL1s) use the attributes of kind
//! `numeric`; a `P` range enters as its midpoint `rep(t)` with warning `midpoint_used`; blank
//! and `INVALID` cells are left out. Warnings: `midpoint_used`, `columns_excluded` (a column
//! with zero variance or fewer than 2 values left out of `cor_discrepancy`), `attributes_excluded`
//! (IL1s), `not_comparable` (CTBIL tables skipped), `forward_map_partial` (some `O` value of a
//! recoded CTBIL variable has no `f_a` and keeps its label).

mod cells;
mod ctbil;
mod eigen;
mod il1s;
mod statistics;

pub use eigen::eigen_diff;
pub use il1s::{Il1s, Part, il1s, sample_sd};
pub use statistics::{Discrepancy, discrepancy};

use serde_json::Value;

use crate::metric::{Context, MetricResult, Status};
use crate::table::dictionary::SUPPRESSED;
use crate::table::kind::Kind;
use crate::utility::Tables;
use crate::utility::attribute::{Attribute, Typed};

/// Family of every result here.
pub const FAMILY: &str = "utility_sdc";

/// Every \[SDCG\] measure of `P` against `O` (utility.md Sec 8).
pub fn metrics(t: &Tables<'_>) -> Vec<MetricResult> {
    let mut out = cells::metrics(t);
    out.extend(ctbil::metrics(t));
    let numeric = Numeric::new(t);
    out.extend(statistics::metrics(t, &numeric));
    out.extend(il1s::metrics(t, &numeric));
    out
}

/// A running Neumaier sum (the streaming form of [`crate::numeric::neumaier`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sum {
    sum: f64,
    comp: f64,
}

impl Sum {
    /// Adds `v`.
    #[inline]
    pub fn add(&mut self, v: f64) {
        let t = self.sum + v;
        self.comp += if self.sum.abs() >= v.abs() { (self.sum - t) + v } else { (v - t) + self.sum };
        self.sum = t;
    }

    /// The sum.
    pub fn value(self) -> f64 {
        self.sum + self.comp
    }
}

/// A numeric attribute held by both tables, with `rep(t)` per code (NaN = no value: blank,
/// `INVALID`).
pub(crate) struct NumericColumn<'a> {
    pub a: &'a Attribute,
    pub p: &'a [u32],
    pub rep: Vec<f64>,
    /// Whether a range of `P` (or of `O`) enters as its midpoint.
    pub midpoint_used: bool,
}

impl NumericColumn<'_> {
    /// Value of row `i` of `O`.
    #[inline]
    pub fn o(&self, i: usize) -> f64 {
        self.rep[self.a.o[i] as usize]
    }

    /// Value of row `i` of `P`.
    #[inline]
    pub fn p(&self, i: usize) -> f64 {
        self.rep[self.p[i] as usize]
    }
}

/// The numeric utility attributes: those both tables hold, and the dropped ones.
pub(crate) struct Numeric<'a> {
    pub columns: Vec<NumericColumn<'a>>,
    pub dropped: Vec<&'a Attribute>,
}

impl<'a> Numeric<'a> {
    fn new(t: &'a Tables<'_>) -> Self {
        let (mut columns, mut dropped) = (Vec::new(), Vec::new());
        for a in t.attributes.iter().filter(|a| a.kind == Kind::Numeric) {
            let Some(p) = a.p.as_deref() else {
                dropped.push(a);
                continue;
            };
            let rep: Vec<f64> = (0..a.values.len() as u32).map(|c| if c <= SUPPRESSED { f64::NAN } else { a.rep(c).unwrap_or(f64::NAN) }).collect();
            let used = |count: &[u64]| (0..a.values.len()).any(|c| count[c] > 0 && matches!(a.typed[c], Typed::Range(_)) && rep[c].is_finite());
            let midpoint_used = used(&a.p_count) || used(&a.o_count);
            columns.push(NumericColumn { a, p, rep, midpoint_used });
        }
        Numeric { columns, dropped }
    }

    /// Names of the dropped numeric attributes.
    pub fn dropped_names(&self) -> Vec<&str> {
        self.dropped.iter().map(|a| a.name.as_str()).collect()
    }

    /// Whether some column reads a range as its midpoint.
    pub fn midpoint_used(&self) -> bool {
        self.columns.iter().any(|c| c.midpoint_used)
    }
}

/// The context of a per-attribute (`Some`) or table-level (`None`) result.
pub(crate) fn context(t: &Tables<'_>, attribute: Option<&str>) -> Context {
    t.context(FAMILY, attribute)
}

/// A paired result that cannot be computed because the rows are not aligned.
pub(crate) fn unpaired(ctx: &Context, id: &'static str, reason: &'static str, t: &Tables<'_>) -> MetricResult {
    ctx.without_value(id, Status::Error, reason).with_details(t.pairing.details.clone())
}

/// Adds the pairing's details (`alignment`, `records_removed`...) to a paired result.
pub(crate) fn with_pairing(mut m: MetricResult, t: &Tables<'_>) -> MetricResult {
    if let (Some(d), Some(extra)) = (m.details.as_object_mut(), t.pairing.details.as_object()) {
        for (k, v) in extra {
            d.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    m
}

/// `100 (released - original) / |original|`, null when `original = 0`.
pub(crate) fn rel_change_pct(original: f64, released: f64) -> Value {
    if original == 0.0 { Value::Null } else { serde_json::json!(100.0 * (released - original) / original.abs()) }
}
