//! ARX's table-level quality models (spec utility.md Sec 9, optional), family `utility_arx`,
//! over the equivalence classes of `P` and of `O` on the same quasi-identifiers
//! (identity-risk.md Sec 1):
//!
//! | id | result | min | max |
//! |---|---|---|---|
//! | `aecs` (average equivalence class size) | `n / K` of `P` | `n_O / K_O` of `O` | `N_P` |
//! | `discernibility` | `sum_j f_j^2 + N_P * n_removed` | `sum_j f_j^2` of `O` | `N_P^2` |
//!
//! `loss = clamp((result - min)/(max - min), 0, 1)` (`max = min` -> 0), `quality = 1 - loss`.
//! `N_P` = rows of `P`; `n_removed` = rows of `P` outside the risk scope: rows whose QI cells
//! are all `SUPPRESSED` (when `exclude_suppressed_rows`) and, under the policy `drop`, rows
//! with a blank QI cell. The same scope is applied to `O`. Under `wildcard` the classes
//! overlap (not a partition); these models read the partition by equal keys, blank being a
//! value (docs/decisions/utility/arx-quality-models.md). pyCANON's `discernability_metric` equals `discernibility.result`
//! when `P` keeps every row of `O`.
//!
//! One result each with `scope.attribute = null`: value `{result, min, max, loss, quality}`,
//! details `{records, classes, removed, rows}` of `P` and `original: {records, classes,
//! removed, rows}`. A QI that `O` lacks: `not_applicable` (`qi_not_in_original`); no QI:
//! `not_applicable` (`no_quasi_identifiers`); no record of `O` in scope: `not_applicable`
//! (`empty_original`); `aecs` without a record of `P` in scope: `empty_input`
//! (`no_records_in_scope`).

use serde_json::json;

use crate::hash::{Map, map};
use crate::metric::{MetricResult, Status};
use crate::table::classes::MissingPolicy;
use crate::table::dictionary::{SUPPRESSED, is_blank};
use crate::utility::Tables;
use crate::utility::rut::arx::{FAMILY, Model};

/// The table-level models, in output order.
pub const IDS: [&str; 2] = ["aecs", "discernibility"];

/// The equivalence classes of one table on the QIs: what the two models read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClassCounts {
    /// Rows of the table.
    pub rows: u64,
    /// Records in scope, `n = sum_j f_j`.
    pub records: u64,
    /// Classes, `K`.
    pub classes: u64,
    /// `sum_j f_j^2`.
    pub squares: u64,
    /// Rows outside the scope.
    pub removed: u64,
}

impl ClassCounts {
    /// The classes of the rows whose QI codes `columns` give (one slice per QI, one code per
    /// row; codes 0 and 1 are `MISSING` and `SUPPRESSED`).
    pub fn new(columns: &[&[u32]], policy: MissingPolicy, exclude_suppressed_rows: bool) -> Self {
        let rows = columns.first().map_or(0, |c| c.len());
        let mut sizes: Map<Vec<u32>, u64> = map();
        let mut removed = 0;
        // One key buffer for every row: a key is copied only for a class seen the first time.
        let mut key = vec![0u32; columns.len()];
        for i in 0..rows {
            for (k, c) in key.iter_mut().zip(columns) {
                *k = c[i];
            }
            let suppressed = exclude_suppressed_rows && key.iter().all(|&c| c == SUPPRESSED);
            let dropped = policy == MissingPolicy::Drop && key.iter().any(|&c| is_blank(c));
            if suppressed || dropped {
                removed += 1;
            } else {
                *sizes.entry_ref(key.as_slice()).or_insert(0) += 1;
            }
        }
        ClassCounts { rows: rows as u64, records: sizes.values().sum(), classes: sizes.len() as u64, squares: sizes.values().map(|f| f * f).sum(), removed }
    }

    fn details(&self) -> serde_json::Value {
        json!({ "records": self.records, "classes": self.classes, "removed": self.removed, "rows": self.rows })
    }
}

/// `aecs` of `P` against `O` (`None` when a table has no record in scope).
pub fn aecs(p: &ClassCounts, o: &ClassCounts) -> Option<Model> {
    (p.classes > 0 && o.classes > 0).then(|| Model {
        result: p.records as f64 / p.classes as f64,
        min: o.records as f64 / o.classes as f64,
        max: p.rows as f64,
    })
}

/// `discernibility` of `P` against `O`.
pub fn discernibility(p: &ClassCounts, o: &ClassCounts) -> Model {
    let n = p.rows as f64;
    Model { result: p.squares as f64 + n * p.removed as f64, min: o.squares as f64, max: n * n }
}

/// `aecs` and `discernibility` of the release (`scope.attribute = null`).
pub fn metrics(t: &Tables<'_>, exclude_suppressed_rows: bool) -> Vec<MetricResult> {
    let ctx = t.context(FAMILY, None);
    let without = |status, reason| IDS.iter().map(|id| ctx.without_value(id, status, reason)).collect();
    if t.qi.is_empty() {
        return without(Status::NotApplicable, "no_quasi_identifiers");
    }
    let mut o_columns = Vec::with_capacity(t.qi.len());
    let mut p_columns = Vec::with_capacity(t.qi.len());
    for q in t.qi {
        match t.attribute(q).and_then(|a| Some((&a.o, a.p.as_ref()?))) {
            Some((o, p)) => {
                o_columns.push(o.as_slice());
                p_columns.push(p.as_slice());
            }
            None => return without(Status::NotApplicable, "qi_not_in_original"),
        }
    }
    let o = ClassCounts::new(&o_columns, t.missing_policy, exclude_suppressed_rows);
    let p = ClassCounts::new(&p_columns, t.missing_policy, exclude_suppressed_rows);
    if o.classes == 0 {
        return without(Status::NotApplicable, "empty_original");
    }
    let details = json!({ "records": p.records, "classes": p.classes, "removed": p.removed, "rows": p.rows, "original": o.details() });
    let value = |m: Model| json!({ "result": m.result, "min": m.min, "max": m.max, "loss": m.loss(), "quality": 1.0 - m.loss() });
    let first = match aecs(&p, &o) {
        Some(m) => ctx.ok(IDS[0], value(m)).with_details(details.clone()),
        None => ctx.without_value(IDS[0], Status::EmptyInput, "no_records_in_scope").with_details(details.clone()),
    };
    vec![first, ctx.ok(IDS[1], value(discernibility(&p, &o))).with_details(details)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Golden G3 (golden.md, ARX quality models): `P` on (age, zip, sex) has the classes
    /// {1,3} (30-39,130**,F), {2,12} (30-39,130**,M) and 8 singletons (row 11's `*` age is one
    /// suppressed cell, not an all-suppressed row): n = 12, K = 10, sum f^2 = 2^2 + 2^2 + 8 = 16.
    /// `O` has 12 distinct keys (the ages differ): 12 / 12 = 1 and sum f^2 = 12.
    /// aecs = 12/10 = 1.2, loss (1.2 - 1)/(12 - 1) = 0.2/11 = 0.01818181818;
    /// discernibility = 16 + 12 * 0, loss (16 - 12)/(144 - 12) = 4/132 = 0.0303030303.
    #[test]
    fn golden_g3() {
        let p = ClassCounts { rows: 12, records: 12, classes: 10, squares: 16, removed: 0 };
        let o = ClassCounts { rows: 12, records: 12, classes: 12, squares: 12, removed: 0 };
        let a = aecs(&p, &o).unwrap();
        assert_eq!((a.result, a.min, a.max), (1.2, 1.0, 12.0));
        assert!((a.loss() - 0.018_181_818_18).abs() < 1e-11);
        let d = discernibility(&p, &o);
        assert_eq!((d.result, d.min, d.max), (16.0, 12.0, 144.0));
        assert!((d.loss() - 4.0 / 132.0).abs() < 1e-15);
    }

    /// Hand: keys (a,x) (a,x) (b,*) (*,*) (b,-) with `*` = SUPPRESSED (1) and `-` = MISSING (0).
    /// Ordinary, suppressed rows excluded: row 4 removed; classes {1,2}, {3}, {5}: n = 4, K = 3,
    /// sum f^2 = 4 + 1 + 1 = 6. Drop: rows 3, 4 and 5 removed; {1,2}: n = 2, K = 1, sum 4.
    /// Suppressed rows kept (ordinary): {1,2}, {3}, {4}, {5}: sum 7.
    #[test]
    fn scope_follows_the_policy() {
        let (a, b, x) = (2, 3, 4);
        let c1 = [a, a, b, SUPPRESSED, b];
        let c2 = [x, x, SUPPRESSED, SUPPRESSED, 0];
        let ordinary = ClassCounts::new(&[&c1, &c2], MissingPolicy::Ordinary, true);
        assert_eq!(ordinary, ClassCounts { rows: 5, records: 4, classes: 3, squares: 6, removed: 1 });
        let drop = ClassCounts::new(&[&c1, &c2], MissingPolicy::Drop, true);
        assert_eq!(drop, ClassCounts { rows: 5, records: 2, classes: 1, squares: 4, removed: 3 });
        let kept = ClassCounts::new(&[&c1, &c2], MissingPolicy::Wildcard, false);
        assert_eq!(kept, ClassCounts { rows: 5, records: 5, classes: 4, squares: 7, removed: 0 });
        // discernibility of `ordinary` against `kept` as O: 6 + 5 * 1 = 11, min 7, max 25.
        let d = discernibility(&ordinary, &kept);
        assert_eq!((d.result, d.min, d.max), (11.0, 7.0, 25.0));
        assert!((d.loss() - 4.0 / 18.0).abs() < 1e-15);
    }

    #[test]
    fn nothing_in_scope() {
        let c = [SUPPRESSED, SUPPRESSED];
        let p = ClassCounts::new(&[&c], MissingPolicy::Ordinary, true);
        assert_eq!((p.records, p.classes, p.removed), (0, 0, 2));
        let o = ClassCounts::new(&[&[2, 3][..]], MissingPolicy::Ordinary, true);
        assert!(aecs(&p, &o).is_none());
        // Every row removed: N_P * n_removed = N_P^2, the worst value.
        assert_eq!(discernibility(&p, &o).loss(), 1.0);
    }

    fn table() -> impl Strategy<Value = Vec<(u32, u32)>> {
        prop::collection::vec((0u32..5, 0u32..4), 1..60)
    }

    proptest! {
        #[test]
        fn bounds_and_row_order(rows in table(), orig in table(), keys in prop::collection::vec(any::<u32>(), 60), drop in any::<bool>()) {
            let policy = if drop { MissingPolicy::Drop } else { MissingPolicy::Ordinary };
            let split = |rows: &[(u32, u32)]| -> (Vec<u32>, Vec<u32>) { rows.iter().copied().unzip() };
            let ((p1, p2), (o1, o2)) = (split(&rows), split(&orig));
            let p = ClassCounts::new(&[&p1, &p2], policy, true);
            let o = ClassCounts::new(&[&o1, &o2], policy, true);
            prop_assert_eq!(p.records + p.removed, p.rows);
            prop_assert!(p.classes <= p.records && p.squares >= p.records && p.squares <= p.records * p.records);
            let d = discernibility(&p, &o);
            prop_assert!(d.result >= p.records as f64 && d.result <= d.max);
            prop_assert!((0.0..=1.0).contains(&d.loss()));
            if let Some(a) = aecs(&p, &o) {
                prop_assert!(a.result >= 1.0 && a.result <= a.max);
                prop_assert!((0.0..=1.0).contains(&a.loss()));
            }
            // Any order of the rows gives the same classes.
            let mut order: Vec<usize> = (0..rows.len()).collect();
            order.sort_by_key(|&i| (keys[i], i));
            let shuffled: Vec<(u32, u32)> = order.iter().map(|&i| rows[i]).collect();
            let (s1, s2) = split(&shuffled);
            prop_assert_eq!(ClassCounts::new(&[&s1, &s2], policy, true), p);
            // A table against itself loses nothing (removed rows are a loss of `P` only).
            if p.removed == 0 {
                prop_assert_eq!(discernibility(&p, &p).loss(), 0.0);
            }
            if let Some(a) = aecs(&p, &p) {
                prop_assert_eq!(a.loss(), 0.0);
            }
        }
    }
}
