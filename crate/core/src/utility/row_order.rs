//! Row-order leak (issue 16, Deliver 5; project-defined): whether the released rows still
//! follow the original's order, so that a reader who knows the original order (or a sorted
//! extract of it) can link records by position. Computed when `O` and `P` are paired by a
//! record id: the Spearman rank correlation between the positions of each paired record in
//! `O` and in `P`. Paired by row order, each record sits at the same position by construction
//! and the question has no answer (`not_applicable`, `row_order_pairing`).

use serde_json::json;

use crate::metric::{Context, MetricResult, Status};
use crate::utility::pairing::Pairing;

/// `|rho|` from which the leak is reported (project-defined, issue 16).
pub const DEFAULT_THRESHOLD: f64 = 0.9;

/// Spearman's rho of the pairs `(row of O, row of P)`: positions are distinct, so without
/// ties `rho = 1 - 6 sum d^2 / (m (m^2 - 1))` over the ranks among the paired rows. `None`
/// for fewer than 2 pairs.
pub fn spearman(pairs: &[(u32, u32)]) -> Option<f64> {
    let m = pairs.len();
    if m < 2 {
        return None;
    }
    let rank = |pick: fn(&(u32, u32)) -> u32| {
        let mut order: Vec<u32> = (0..m as u32).collect();
        order.sort_unstable_by_key(|&i| pick(&pairs[i as usize]));
        let mut r = vec![0u32; m];
        for (rank, &i) in order.iter().enumerate() {
            r[i as usize] = rank as u32;
        }
        r
    };
    let (ro, rp) = (rank(|p| p.0), rank(|p| p.1));
    let sum: u128 = ro.iter().zip(&rp).map(|(&a, &b)| (i64::from(a) - i64::from(b)).unsigned_abs() as u128).map(|d| d * d).sum();
    let mf = m as f64;
    Some(1.0 - 6.0 * sum as f64 / (mf * (mf * mf - 1.0)))
}

/// The `row_order_correlation` metric.
pub fn metric(ctx: &Context, pairing: &Pairing, threshold: f64) -> MetricResult {
    let id = "row_order_correlation";
    let alignment = pairing.details["alignment"].clone();
    let pairs = match pairing.pairs() {
        Err(reason) => return ctx.without_value(id, Status::NotApplicable, reason).with_details(json!({ "alignment": alignment })),
        Ok(_) if alignment != "record_id" => {
            return ctx.without_value(id, Status::NotApplicable, "row_order_pairing").with_details(json!({ "alignment": alignment }));
        }
        Ok(pairs) => pairs,
    };
    let Some(rho) = spearman(pairs) else {
        return ctx.without_value(id, Status::NotApplicable, "too_few_pairs").with_details(json!({ "alignment": alignment, "n_pairs": pairs.len() }));
    };
    let leak = rho.abs() >= threshold;
    let m = ctx.ok(id, rho).with_details(json!({ "alignment": alignment, "n_pairs": pairs.len(), "threshold": threshold, "leak": leak }));
    if leak { m.with_warning("row_order_follows_original") } else { m }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Scope;

    fn ctx() -> Context {
        Context {
            family: "row_order",
            scope: Scope { table: "P", quasi_identifiers: vec![], sensitive: None, attribute: None, subset: None },
            params: json!({}),
        }
    }

    fn by_id(pairs: Vec<(u32, u32)>) -> Pairing {
        Pairing { pairs: Ok(pairs), details: json!({ "alignment": "record_id" }) }
    }

    /// Hand-checked: same order 1, reversed -1; (0,0),(2,1),(1,2),(3,3): d = 0,1,1,0,
    /// rho = 1 - 6*2/(4*15) = 0.8.
    #[test]
    fn hand_checked_values() {
        assert_eq!(spearman(&[(0, 0), (1, 1), (2, 2)]), Some(1.0));
        assert_eq!(spearman(&[(2, 0), (1, 1), (0, 2)]), Some(-1.0));
        assert!((spearman(&[(0, 0), (2, 1), (1, 2), (3, 3)]).unwrap() - 0.8).abs() < 1e-15);
        // Gaps in O (records not released) do not matter: ranks among the paired rows.
        assert_eq!(spearman(&[(10, 0), (40, 1), (97, 2)]), Some(1.0));
        assert_eq!(spearman(&[(5, 0)]), None);
    }

    /// Against the textbook Pearson correlation of the ranks, on shuffles.
    #[test]
    fn equals_pearson_of_ranks() {
        let mut state = 7u64;
        for m in [2usize, 3, 10, 101] {
            let mut o: Vec<u32> = (0..m as u32).map(|i| i * 3).collect();
            for i in (1..m).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                o.swap(i, (state >> 33) as usize % (i + 1));
            }
            let pairs: Vec<(u32, u32)> = o.iter().enumerate().map(|(p, &o)| (o, p as u32)).collect();
            let x: Vec<f64> = o.iter().map(|&v| f64::from(v / 3)).collect();
            let y: Vec<f64> = (0..m).map(|i| i as f64).collect();
            let mean = (m as f64 - 1.0) / 2.0;
            let cov: f64 = x.iter().zip(&y).map(|(a, b)| (a - mean) * (b - mean)).sum();
            let var: f64 = y.iter().map(|b| (b - mean) * (b - mean)).sum();
            assert!((spearman(&pairs).unwrap() - cov / var).abs() < 1e-12, "m = {m}");
        }
    }

    /// Swapping which table is which, or listing the pairs in another order, gives the same rho.
    #[test]
    fn symmetric_and_order_free() {
        let pairs = vec![(3, 0), (0, 1), (4, 2), (1, 3), (2, 4)];
        let rho = spearman(&pairs).unwrap();
        let swapped: Vec<(u32, u32)> = pairs.iter().map(|&(a, b)| (b, a)).collect();
        let mut shuffled = pairs;
        shuffled.reverse();
        assert_eq!(spearman(&swapped), Some(rho));
        assert_eq!(spearman(&shuffled), Some(rho));
    }

    #[test]
    fn warns_from_the_threshold_and_not_for_row_order_pairing() {
        let m = metric(&ctx(), &by_id(vec![(0, 0), (1, 1), (3, 2), (2, 3)]), 0.9);
        assert_eq!(m.value, json!(0.8));
        assert!(m.warnings.is_empty());
        let m = metric(&ctx(), &by_id(vec![(0, 0), (1, 1), (3, 2), (2, 3)]), 0.8);
        assert_eq!(m.warnings, ["row_order_follows_original"]);
        assert_eq!(m.details["leak"], json!(true));
        let rows = Pairing { pairs: Ok(vec![(0, 0), (1, 1)]), details: json!({ "alignment": "row_order" }) };
        let m = metric(&ctx(), &rows, 0.9);
        assert_eq!((m.status, m.reason), (Status::NotApplicable, Some("row_order_pairing")));
        let none = Pairing { pairs: Err("row_count_mismatch"), details: json!({ "alignment": "none" }) };
        assert_eq!(metric(&ctx(), &none, 0.9).reason, Some("row_count_mismatch"));
    }
}
