//! Eigenvalue difference (spec utility.md Sec 8.5; \[SDCG\], sdcMicro
//! `dUtility(method = "eigen")`): the eigenvalues of the correlation matrices of `O` and `P`
//! (listwise-complete rows, each table separately), paired by rank:
//! `eigen_diff = sum_k |lambda_k - mu_k| / lambda_k`. Null with `near_singular` when some
//! `lambda_k <= 1e-10 lambda_1` (collinear columns of `O`); `not_applicable` with fewer than two
//! attributes, fewer than two complete rows, or a zero-variance column. The eigenvalues come
//! from the crate's one deterministic solver ([`crate::utility::linalg::sym_eigen`]).

use serde_json::json;

use crate::metric::{Context, MetricResult, Status};
use crate::utility::linalg::{Matrix, sym_eigen};

/// Relative cut-off of the near-singular guard.
pub const NEAR_SINGULAR: f64 = 1e-10;

/// The correlation matrix of a covariance matrix; `None` when a variance is not positive.
pub fn correlation(cov: &Matrix) -> Option<Matrix> {
    let sd: Vec<f64> = cov.iter().enumerate().map(|(i, r)| r[i].sqrt()).collect();
    if sd.iter().any(|s| s.is_nan() || *s <= 0.0) {
        return None;
    }
    Some((0..cov.len()).map(|i| (0..cov.len()).map(|j| if i == j { 1.0 } else { (cov[i][j] / (sd[i] * sd[j])).clamp(-1.0, 1.0) }).collect()).collect())
}

/// Eigenvalues (descending) of two correlation matrices and `eigen_diff`; the difference is
/// `None` when the first matrix is near singular.
pub fn eigen_diff(original: &Matrix, released: &Matrix) -> (Vec<f64>, Vec<f64>, Option<f64>) {
    let (lo, _) = sym_eigen(original.clone());
    let (lp, _) = sym_eigen(released.clone());
    let singular = lo.is_empty() || lo.iter().any(|&l| l <= NEAR_SINGULAR * lo[0]);
    let diff = (!singular).then(|| crate::numeric::neumaier(lo.iter().zip(&lp).map(|(l, m)| (l - m).abs() / l)));
    (lo, lp, diff)
}

/// The listwise-complete rows of one table and their covariance matrix (`None` with fewer
/// than two rows).
pub(crate) type Listwise<'a> = (u64, Option<&'a Matrix>);

/// The `eigen_diff` result from the listwise moments of both tables.
pub(crate) fn metric(ctx: &Context, names: &[&str], dropped: &[&str], original: Listwise<'_>, released: Listwise<'_>) -> MetricResult {
    const ID: &str = "eigen_diff";
    let mut details = json!({
        "variables": names,
        "rows_original": original.0,
        "rows_released": released.0,
        "dropped": dropped,
    });
    if names.len() < 2 {
        return ctx.without_value(ID, Status::NotApplicable, "too_few_attributes").with_details(details);
    }
    let (Some(co), Some(cp)) = (original.1, released.1) else {
        return ctx.without_value(ID, Status::NotApplicable, "too_few_rows").with_details(details);
    };
    let (Some(ro), Some(rp)) = (correlation(co), correlation(cp)) else {
        return ctx.without_value(ID, Status::NotApplicable, "zero_variance").with_details(details);
    };
    let (lo, lp, diff) = eigen_diff(&ro, &rp);
    details["eigenvalues_original"] = json!(lo);
    details["eigenvalues_released"] = json!(lp);
    match diff {
        Some(d) => {
            details["percent"] = json!(100.0 * d);
            ctx.ok(ID, d).with_details(details)
        }
        None => ctx.without_value(ID, Status::NotApplicable, "near_singular").with_details(details),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utility::linalg::cov;

    fn cor(rows: &[[f64; 2]]) -> Matrix {
        let cols: Vec<Vec<f64>> = (0..2).map(|j| rows.iter().map(|r| r[j]).collect()).collect();
        correlation(&cov(&cols)).unwrap()
    }

    /// Golden G7.2: the guard on collinear columns, and the value on `X2` vs `Z`.
    #[test]
    fn sdcg_small_vectors() {
        let z = cor(&[[1.0, 12.0], [3.0, 20.0], [3.0, 27.0], [5.0, 40.0]]);
        let x = cor(&[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]]);
        assert_eq!(eigen_diff(&x, &z).2, None, "column 2 = 10 x column 1");
        let x2 = cor(&[[1.0, 10.0], [2.0, 25.0], [3.0, 28.0], [4.0, 40.0]]);
        let (lo, lp, d) = eigen_diff(&x2, &z);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        assert!(close(lo[0], 1.9730354718902339) && close(lo[1], 0.026964528109765906), "{lo:?}");
        assert!(close(lp[0], 1.9629444299452725) && close(lp[1], 0.03705557005472765), "{lp:?}");
        assert!(close(d.unwrap(), 0.37934842867171187), "{d:?}");
        assert_eq!(eigen_diff(&z, &z).2, Some(0.0));
    }
}
