//! PCA comparison (spec synthetic.md Sec 7, after SDNist's `metrics/pca.py:46-92`): the
//! principal axes of `O` standardised with `O`'s mean and population SD (an SD of 0 becomes 1,
//! as sklearn's `StandardScaler`), and `P` projected through `O`'s scaler and axes.
//!
//! The covariance of standardised `O` is `O`'s Pearson matrix (0 rows and columns for a
//! constant column), so the axes are its eigenvectors ([`super::eigen`]), computed from the
//! per-distinct-pair moments of [`super::correlation`]; `P`'s projections' variances are
//! `w' S_P w` with `S_P` `P`'s covariance scaled by `O`'s SDs. Only the scatter reads rows.
//!
//! Sign convention (sklearn's `svd_flip` is another; conformance compares up to sign): each
//! axis is turned so that its loading of largest magnitude is positive (on a tie, the first
//! such column).

use super::correlation::{Moments, Ranked, moments};
use super::eigen::symmetric;
use crate::rng::SplitMix64;

/// Principal axes kept: `k = min(5, d)` (pca.py:47).
pub const MAX_AXES: usize = 5;
/// Points per table in the scatter at most.
pub const SCATTER_POINTS: usize = 1000;
/// The scatter's subsample seed (fixed; the sample does not depend on the rows' order).
const SCATTER_SEED: u64 = 0;

/// The comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Pca {
    /// `k` rows of `d` loadings (`components_`).
    pub loadings: Vec<Vec<f64>>,
    /// Per axis, the eigenvalue: the population variance of `O`'s projections.
    pub variance_original: Vec<f64>,
    /// Per axis, `O`'s explained-variance ratio (eigenvalue over the trace; `None` when the
    /// trace is 0). An extension.
    pub explained_variance_ratio: Vec<Option<f64>>,
    /// Per axis, the population variance of `P`'s projections. An extension.
    pub variance_released: Vec<f64>,
    /// Per axis, `min(var_P, var_O) / max(var_P, var_O)` (1 when both are 0).
    pub variance_ratio: Vec<f64>,
    /// The mean of `variance_ratio`: 1 when `P` spreads like `O` along `O`'s axes.
    pub score: f64,
    /// The first two axes' projections (one axis when `k = 1`), min-max scaled by `O`'s range,
    /// of at most [`SCATTER_POINTS`] rows per table: `(O, P)`.
    pub scatter: (Vec<Vec<f64>>, Vec<Vec<f64>>),
}

/// The standard deviations (population) of `O`'s columns, 1 for a constant column.
fn scales(o: &Moments) -> Vec<f64> {
    let d = o.mean.len();
    (0..d).map(|a| if o.distinct[a] < 2 { 1.0 } else { (o.cross[a * d + a] / o.n as f64).sqrt() }).collect()
}

/// `w' M w / n` for the `d x d` row-major `m`, scaled by `1 / (s_a s_b)`.
fn quadratic(w: &[f64], m: &[f64], s: &[f64], n: u64) -> f64 {
    let d = w.len();
    let mut q = 0.0;
    for a in 0..d {
        for b in 0..d {
            q += w[a] * w[b] * m[a * d + b] / (s[a] * s[b]);
        }
    }
    if n == 0 { 0.0 } else { q / n as f64 }
}

/// The PCA comparison over the ranked columns (at least one; both tables hold rows).
pub fn pca(ranked: &Ranked) -> Pca {
    let d = ranked.codes.len();
    let o = moments(&ranked.o, &ranked.codes, false);
    let p = moments(&ranked.p, &ranked.codes, false);
    let sd = scales(&o);
    let cov: Vec<Vec<f64>> = (0..d).map(|a| (0..d).map(|b| o.cross[a * d + b] / (sd[a] * sd[b]) / o.n as f64).collect()).collect();
    let eigen = symmetric(&cov);
    let k = d.min(MAX_AXES);
    let trace: f64 = (0..d).map(|a| cov[a][a]).sum();
    let loadings: Vec<Vec<f64>> = eigen.vectors[..k]
        .iter()
        .map(|v| {
            let top = (0..d).fold(0, |best, a| if v[a].abs() > v[best].abs() { a } else { best });
            let sign = if v[top] < 0.0 { -1.0 } else { 1.0 };
            v.iter().map(|x| x * sign + 0.0).collect()
        })
        .collect();
    let variance_original: Vec<f64> = eigen.values[..k].iter().map(|&l| l.max(0.0)).collect();
    let variance_released: Vec<f64> = loadings.iter().map(|w| quadratic(w, &p.cross, &sd, p.n).max(0.0)).collect();
    let variance_ratio: Vec<f64> =
        variance_original.iter().zip(&variance_released).map(|(&a, &b)| if a.max(b) == 0.0 { 1.0 } else { a.min(b) / a.max(b) }).collect();
    let score = variance_ratio.iter().sum::<f64>() / k as f64;
    let scatter = scatter(ranked, &o.mean, &sd, &loadings[..k.min(2)]);
    Pca {
        explained_variance_ratio: variance_original.iter().map(|&l| (trace > 0.0).then(|| l / trace)).collect(),
        loadings,
        variance_original,
        variance_released,
        variance_ratio,
        score,
        scatter,
    }
}

/// Each row's projections on `axes`, `O`'s then `P`'s, scaled by `O`'s range per axis
/// (`(v - min_O) / (max_O - min_O)`, 0 when that range is 0) and subsampled: the points are
/// sorted, then at most [`SCATTER_POINTS`] drawn (seeded), so the sample does not depend on
/// the order of the rows.
fn scatter(ranked: &Ranked, mean: &[f64], sd: &[f64], axes: &[Vec<f64>]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    // Per axis, per column, per rank: the term of the projection.
    let terms: Vec<Vec<Vec<f64>>> =
        axes.iter().map(|w| ranked.codes.iter().enumerate().map(|(c, codes)| codes.iter().map(|x| (x - mean[c]) / sd[c] * w[c]).collect()).collect()).collect();
    let project = |rows: &[Vec<u32>]| -> Vec<Vec<f64>> {
        let n = rows.first().map_or(0, Vec::len);
        terms.iter().map(|t| (0..n).map(|i| t.iter().zip(rows).map(|(t, r)| t[r[i] as usize]).sum()).collect()).collect()
    };
    let (po, pp) = (project(&ranked.o), project(&ranked.p));
    let range: Vec<(f64, f64)> = po.iter().map(|v| v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)))).collect();
    let dims = axes.len();
    let sample = |proj: &[Vec<f64>]| -> Vec<Vec<f64>> {
        let n = proj.first().map_or(0, Vec::len);
        let scaled = |a: usize, i: usize| {
            let (lo, hi) = range[a];
            if hi > lo { ((proj[a][i] - lo) / (hi - lo) * 1e4).round() / 1e4 } else { 0.0 }
        };
        // Fixed-size points (no allocation per row); the second coordinate 0 when k = 1.
        let mut points: Vec<[f64; 2]> = (0..n).map(|i| [scaled(0, i), if dims > 1 { scaled(1, i) } else { 0.0 }]).collect();
        points.sort_unstable_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
        if n > SCATTER_POINTS {
            // A partial Fisher-Yates draw of positions, kept in sorted order.
            let mut rng = SplitMix64(SCATTER_SEED);
            let mut idx: Vec<usize> = (0..n).collect();
            rng.choose_front(&mut idx, SCATTER_POINTS);
            let mut chosen = idx[..SCATTER_POINTS].to_vec();
            chosen.sort_unstable();
            points = chosen.iter().map(|&i| points[i]).collect();
        }
        points.iter().map(|p| p[..dims].to_vec()).collect()
    };
    (sample(&po), sample(&pp))
}

/// Per axis, the `top` columns by decreasing `|loading rounded to 2 d.p.|`, ties in column
/// order: SDNist's listing (pca.py:63-69), with the unrounded loading.
pub fn top_features(loadings: &[f64], top: usize) -> Vec<(usize, f64)> {
    let mut order: Vec<usize> = (0..loadings.len()).collect();
    let rounded = |x: f64| ((x * 100.0).round() / 100.0).abs();
    order.sort_by(|&a, &b| rounded(loadings[b]).total_cmp(&rounded(loadings[a])));
    order.into_iter().take(top).map(|a| (a, loadings[a])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(o: &[&[f64]], p: &[&[f64]]) -> Ranked {
        let mut r = Ranked { codes: Vec::new(), o: Vec::new(), p: Vec::new() };
        for (co, cp) in o.iter().zip(p) {
            let mut d: Vec<f64> = co.iter().chain(cp.iter()).copied().collect();
            d.sort_by(f64::total_cmp);
            d.dedup();
            r.o.push(co.iter().map(|x| d.iter().position(|y| y == x).unwrap() as u32).collect());
            r.p.push(cp.iter().map(|x| d.iter().position(|y| y == x).unwrap() as u32).collect());
            r.codes.push(d);
        }
        r
    }

    #[test]
    fn two_perfectly_correlated_columns_by_hand() {
        // x and 2x: standardised they are equal; the correlation matrix [[1,1],[1,1]] has
        // eigenvalues 2 and 0, axes (1,1)/sqrt2 and (1,-1)/sqrt2 (made positive at the first).
        let x: [f64; 4] = [1.0, 2.0, 3.0, 4.0];
        let y: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
        let r = ranked(&[&x, &y], &[&x, &y]);
        let m = pca(&r);
        let h = std::f64::consts::FRAC_1_SQRT_2;
        assert!((m.loadings[0][0] - h).abs() < 1e-12 && (m.loadings[0][1] - h).abs() < 1e-12);
        assert!((m.variance_original[0] - 2.0).abs() < 1e-12 && m.variance_original[1].abs() < 1e-12);
        assert!((m.explained_variance_ratio[0].unwrap() - 1.0).abs() < 1e-12);
        // P = O: same spread; the second axis has none in either.
        assert!((m.score - 1.0).abs() < 1e-9);
        assert_eq!(m.scatter.0, m.scatter.1);
        assert_eq!(m.scatter.0[0][0], 0.0);
    }

    #[test]
    fn a_shrunk_release_spreads_less() {
        // P's x is half as spread (about the same mean): along the one axis of x alone, its
        // variance is 1/4 of O's.
        let o: [f64; 4] = [1.0, 2.0, 3.0, 4.0];
        let p: [f64; 4] = [2.0, 2.5, 2.5, 3.0];
        let m = pca(&ranked(&[&o], &[&p]));
        assert_eq!(m.loadings, [vec![1.0]]);
        assert!((m.variance_original[0] - 1.0).abs() < 1e-12);
        // var(P) = 0.125, var(O) = 1.25: (0.125 / 1.25) = 0.1 in O's SD units.
        assert!((m.variance_released[0] - 0.1).abs() < 1e-12);
        assert!((m.score - 0.1).abs() < 1e-12);
    }

    #[test]
    fn the_scatter_is_capped_and_in_o_range() {
        let o: Vec<f64> = (0..3000).map(f64::from).collect();
        let p: Vec<f64> = (0..2000).map(|i| f64::from(i) * 2.0).collect();
        let m = pca(&ranked(&[&o], &[&p]));
        assert_eq!((m.scatter.0.len(), m.scatter.1.len()), (SCATTER_POINTS, SCATTER_POINTS));
        assert!(m.scatter.0.iter().all(|p| (0.0..=1.0).contains(&p[0])));
        assert!(m.scatter.1.iter().any(|p| p[0] > 1.0));
    }

    #[test]
    fn the_top_features_follow_sdnist_rounding() {
        // |0.504| and |-0.5| both round to 0.5: column order decides.
        assert_eq!(top_features(&[0.1, -0.5, 0.504, 0.7], 3), [(3, 0.7), (1, -0.5), (2, 0.504)]);
    }
}
