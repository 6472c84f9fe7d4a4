//! Entropy-based loss (spec utility.md Sec 4; \[RUT\] Sec 3.2.1), unpaired:
//!
//! ```text
//! H(X) = - sum_v p_v log2 p_v       over the distinct normalised values of all rows
//!                                   (MISSING and SUPPRESSED are values; numbers as strings)
//! entropy_original = H(O_a)   entropy_released = H(P_a)
//! entropy_difference = H(O_a) - H(P_a)                      (may be negative)
//! entropy_loss = clamp(entropy_difference / H(O_a), 0, 1);   H(O_a) = 0 -> 0
//! ```
//!
//! | id | value | details |
//! |---|---|---|
//! | `entropy_original`, `entropy_released` | bits | `n` (rows), `distinct` (values) |
//! | `entropy_difference` | bits | `entropy_original`, `entropy_released` |
//! | `entropy_loss` | in `[0,1]` | `entropy_original`, `entropy_released` |
//!
//! A table without rows gives `empty_input` (`no_records_in_scope`).
//!
//! With a `weight` column (Sec 4 "p_v = weight share"), `p_v` is the share of the table's
//! weight on `v`: a table with the column weighs each row by it, one without counts each row 1;
//! details add `weighted` (whether the table has the column) and `weight_total`. A weight that
//! is not a finite number >= 0 in `O`: `error` (`invalid_weight`); a total weight of 0:
//! `not_applicable` (`zero_weight`). `entropy_difference` and `entropy_loss` take the status
//! and reason of the entropy that has no value.

use serde_json::json;

use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::utility::attribute::Attribute;
use crate::utility::rut::Subject;

/// `H` in bits of a distribution given by its counts. The counts are summed in ascending
/// order, so the value does not depend on the order of the values.
pub fn entropy_bits(counts: &[u64]) -> f64 {
    entropy_of(&counts.iter().map(|&c| c as f64).collect::<Vec<f64>>())
}

/// `H` in bits of a distribution given by its masses (counts or sums of weights, `> 0` to
/// count), summed in ascending order.
pub fn entropy_of(masses: &[f64]) -> f64 {
    let mut m: Vec<f64> = masses.iter().copied().filter(|&x| x > 0.0).collect();
    m.sort_unstable_by(f64::total_cmp);
    let n = neumaier(m.iter().copied());
    // `0.0 +` turns the `-0` of a single value into `0`.
    0.0 + -neumaier(m.iter().map(|&k| {
        let p = k / n;
        p * libm::log2(p)
    }))
}

/// `entropy_loss` from the two entropies.
pub fn relative_loss(h_o: f64, h_p: f64) -> f64 {
    if h_o == 0.0 { 0.0 } else { ((h_o - h_p) / h_o).clamp(0.0, 1.0) }
}

/// One table's entropy from its counts, or from its masses (per code, and whether the table
/// has the weight column) when a weight column is set.
fn result(ctx: &Context, id: &'static str, counts: &[u64], masses: Option<(&[f64], bool)>, n: usize) -> MetricResult {
    let mut details = json!({ "n": n, "distinct": counts.iter().filter(|&&c| c > 0).count() });
    if n == 0 {
        return ctx.without_value(id, Status::EmptyInput, "no_records_in_scope").with_details(details);
    }
    let Some((masses, weighted)) = masses else {
        return ctx.ok(id, entropy_bits(counts)).with_details(details);
    };
    let total = neumaier(masses.iter().copied());
    details["weighted"] = json!(weighted);
    details["weight_total"] = json!(total);
    if !total.is_finite() {
        ctx.without_value(id, Status::Error, "invalid_weight").with_details(details)
    } else if total <= 0.0 {
        ctx.without_value(id, Status::NotApplicable, "zero_weight").with_details(details)
    } else {
        ctx.ok(id, entropy_of(masses)).with_details(details)
    }
}

/// `entropy_original` of attribute `a` (all `n_o` rows of `O`).
pub fn original(a: &Attribute, n_o: usize, ctx: &Context) -> MetricResult {
    result(ctx, "entropy_original", &a.o_count, a.masses.as_ref().map(|m| (&m.o[..], m.o_weighted)), n_o)
}

/// The four entropy metrics of one attribute, and `entropy_loss`'s value.
pub fn metrics(s: &Subject<'_>) -> (Vec<MetricResult>, Option<f64>) {
    let ho = original(s.a, s.n_o, &s.ctx);
    let hp = result(&s.ctx, "entropy_released", &s.a.p_count, s.a.masses.as_ref().map(|m| (&m.p[..], m.p_weighted)), s.n_p);
    let (diff, loss, value) = match (ho.value.as_f64(), hp.value.as_f64()) {
        (Some(o), Some(p)) => {
            let details = json!({ "entropy_original": o, "entropy_released": p });
            let loss = relative_loss(o, p);
            (
                s.ctx.ok("entropy_difference", o - p).with_details(details.clone()),
                s.ctx.ok("entropy_loss", loss).with_details(details),
                crate::figures::finite(loss),
            )
        }
        _ => {
            let failed = if ho.value.is_null() { &ho } else { &hp };
            let (status, reason) = (failed.status, failed.reason.unwrap_or("no_records_in_scope"));
            (s.ctx.without_value("entropy_difference", status, reason), s.ctx.without_value("entropy_loss", status, reason), None)
        }
    };
    (vec![ho, hp, diff, loss], value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_of_rut() {
        // G7.1: A,A,B,B,B,C,C,D -> 1.905639062 bits (the paper prints 1.90625).
        assert!((entropy_bits(&[2, 3, 2, 1]) - 1.905_639_062_229_566_5).abs() < 1e-12);
        assert_eq!(entropy_bits(&[5]).to_bits(), 0f64.to_bits());
        assert_eq!(entropy_bits(&[0, 4, 4]), 1.0);
    }

    #[test]
    fn relative_loss_is_bounded() {
        assert_eq!(relative_loss(0.0, 1.0), 0.0);
        assert_eq!(relative_loss(2.0, 3.0), 0.0, "more apparent randomness is no loss");
        assert_eq!(relative_loss(2.0, 0.5), 0.75);
        assert_eq!(relative_loss(2.0, 0.0), 1.0);
    }
}
