//! Statistics of numeric attributes (spec utility.md Sec 8.3; \[SDCG\], discrepancies of
//! \[DT01\]): means and sample variances per attribute, and the discrepancies between the
//! covariance matrices `V`, `V'` and the correlation matrices `R`, `R'` of `O` and `P`.
//!
//! Unpaired: each table separately, over its own rows. Cells are read as `rep(t)` (midpoint of
//! a range); blank and `INVALID` cells are left out. Means and variances come from the
//! per-value counts (`O(distinct values)`); covariances and correlations are pairwise-complete
//! and come from one pass over the rows that also gathers the listwise-complete moments used by
//! `eigen_diff` (Sec 8.5).

use serde_json::{Value, json};

use crate::metric::{MetricResult, Status};
use crate::table::kind::Kind;
use crate::utility::Tables;
use crate::utility::linalg::Matrix;
use crate::utility::sdc::{Numeric, NumericColumn, Sum, context, eigen, rel_change_pct};

/// Relative size below which a covariance is rounding noise (of the scale of the sums it is
/// computed from).
const ROUNDING: f64 = 1e-12;

/// `{mse, mae, mv}` of \[DT01\] between two lists of cells (Sec 8.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Discrepancy {
    /// `sum (v - v')^2 / cells`.
    pub mse: f64,
    /// `sum |v - v'| / cells`.
    pub mae: f64,
    /// `sum_{v != 0} |v - v'| / |v| / #{v != 0}`; `None` when every `v` is 0.
    pub mv: Option<f64>,
    /// Cells compared.
    pub cells: usize,
    /// Cells with `v = 0`, left out of `mv`.
    pub mv_skipped: usize,
}

/// The discrepancy of pairs `(v, v')`; `None` without any pair.
pub fn discrepancy(cells: impl IntoIterator<Item = (f64, f64)>) -> Option<Discrepancy> {
    let (mut sq, mut abs, mut rel) = (Sum::default(), Sum::default(), Sum::default());
    let (mut n, mut nz) = (0usize, 0usize);
    for (v, w) in cells {
        let d = (v - w).abs();
        sq.add(d * d);
        abs.add(d);
        n += 1;
        if v != 0.0 {
            rel.add(d / v.abs());
            nz += 1;
        }
    }
    (n > 0).then(|| Discrepancy {
        mse: sq.value() / n as f64,
        mae: abs.value() / n as f64,
        mv: (nz > 0).then(|| rel.value() / nz as f64),
        cells: n,
        mv_skipped: n - nz,
    })
}

/// Count, mean and sample variance of a column from its per-code counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// Values counted.
    pub n: u64,
    /// Mean (`NaN` when `n = 0`).
    pub mean: f64,
    /// Sample variance (`n - 1`); `None` when `n < 2`.
    pub var: Option<f64>,
}

impl Moments {
    /// Moments of the values `rep[c]` counted `count[c]` times (non-finite `rep` skipped).
    pub fn of_counts(rep: &[f64], count: &[u64]) -> Moments {
        let valued = || rep.iter().zip(count).filter(|(r, c)| r.is_finite() && **c > 0);
        let n: u64 = valued().map(|(_, c)| c).sum();
        let mut s = Sum::default();
        valued().for_each(|(r, &c)| s.add(r * c as f64));
        let mean = if n == 0 { f64::NAN } else { s.value() / n as f64 };
        let mut q = Sum::default();
        valued().for_each(|(r, &c)| q.add((r - mean) * (r - mean) * c as f64));
        Moments { n, mean, var: (n >= 2).then(|| q.value() / (n - 1) as f64) }
    }
}

/// Covariance and correlation of two columns over the rows where both have a value.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Pairwise {
    /// Rows with both values.
    pub n: u64,
    /// Sample covariance (`n - 1`); `None` when `n < 2`.
    pub cov: Option<f64>,
    /// Pearson correlation; `None` when `n < 2` or a variance is 0.
    pub cor: Option<f64>,
}

/// Rows summed in plain `f64` before they are added to the compensated totals.
const BLOCK: usize = 4096;

/// The pairwise- and listwise-complete second moments of the numeric columns of one table.
#[derive(Debug, Clone)]
pub struct CrossMoments {
    /// Columns.
    pub p: usize,
    /// Per column, the moments of all its values.
    pub columns: Vec<Moments>,
    /// Pairwise-complete moments for `i < j` at `[i][j]`.
    pub pairwise: Vec<Vec<Pairwise>>,
    /// Rows complete in every column.
    pub listwise_n: u64,
    /// Covariance matrix over those rows (`n - 1`); `None` when fewer than 2.
    pub listwise_cov: Option<Matrix>,
}

/// Index of `(i, j)`, `i <= j`, in the packed upper triangle of a `p x p` matrix.
fn tri(p: usize, i: usize, j: usize) -> usize {
    i * p - i * (i + 1) / 2 + j
}

impl CrossMoments {
    /// Moments of `p` columns of `rows` rows, column `j` of row `r` being `value(j, r)`
    /// (non-finite = no value); `columns` are the per-column moments (their means shift the
    /// sums, which keeps them accurate).
    pub fn new(columns: Vec<Moments>, rows: usize, value: impl Fn(usize, usize) -> f64) -> Self {
        let p = columns.len();
        let shift: Vec<f64> = columns.iter().map(|m| if m.mean.is_finite() { m.mean } else { 0.0 }).collect();
        // Complete rows: S_i (p values) and S_ij, i <= j (packed triangle).
        let full = p + p * (p + 1) / 2;
        // Incomplete rows, per pair i < j with both values: n, sx, sy, sxy, sxx, syy.
        let pairs = p * p.saturating_sub(1) / 2;
        let mut acc = vec![0.0f64; 1 + full + 6 * pairs];
        let mut tot = vec![Sum::default(); acc.len()];
        let mut d = vec![0.0f64; p];
        let flush = |acc: &mut [f64], tot: &mut [Sum]| {
            for (a, t) in acc.iter_mut().zip(tot.iter_mut()) {
                t.add(*a);
                *a = 0.0;
            }
        };
        for r in 0..rows {
            let mut complete = true;
            for j in 0..p {
                d[j] = value(j, r) - shift[j];
                complete &= d[j].is_finite();
            }
            if complete {
                acc[0] += 1.0;
                let (s, sij) = acc[1..1 + full].split_at_mut(p);
                for i in 0..p {
                    s[i] += d[i];
                    for j in i..p {
                        sij[tri(p, i, j)] += d[i] * d[j];
                    }
                }
            } else {
                let mut k = 1 + full;
                for i in 0..p {
                    for j in i + 1..p {
                        let (x, y) = (d[i], d[j]);
                        if x.is_finite() && y.is_finite() {
                            let a = &mut acc[k..k + 6];
                            a[0] += 1.0;
                            a[1] += x;
                            a[2] += y;
                            a[3] += x * y;
                            a[4] += x * x;
                            a[5] += y * y;
                        }
                        k += 6;
                    }
                }
            }
            if r % BLOCK == BLOCK - 1 {
                flush(&mut acc, &mut tot);
            }
        }
        flush(&mut acc, &mut tot);
        let v: Vec<f64> = tot.iter().map(|s| s.value()).collect();
        let nl = v[0];
        let s = &v[1..1 + p];
        let sij = &v[1 + p..1 + full];
        let centred = |n: f64, sxy: f64, sx: f64, sy: f64| (sxy - sx * sy / n) / (n - 1.0);
        // A covariance within rounding of zero is zero: its sign and size would otherwise
        // depend on the row order (`mv` divides by it, `eigen_diff`'s eigenvalues follow it).
        // The scale is that of the raw second moments the sums carry (a column of one
        // repeated value has no variance, yet its sums round).
        let covariance = |n: f64, sxy: f64, sx: f64, sy: f64, sxx: f64, syy: f64| {
            let scale = (sxx.abs() * syy.abs()).sqrt() / (n - 1.0);
            Some(centred(n, sxy, sx, sy)).filter(|c| c.abs() > ROUNDING * scale).unwrap_or(0.0)
        };
        let mut pairwise = vec![vec![Pairwise::default(); p]; p];
        let mut k = 1 + full;
        for i in 0..p {
            for j in i + 1..p {
                let e = &v[k..k + 6];
                k += 6;
                let n = nl + e[0];
                let (sx, sy) = (s[i] + e[1], s[j] + e[2]);
                let (sxy, sxx, syy) = (sij[tri(p, i, j)] + e[3], sij[tri(p, i, i)] + e[4], sij[tri(p, j, j)] + e[5]);
                if n >= 2.0 {
                    let (vx, vy) = (centred(n, sxx, sx, sx), centred(n, syy, sy, sy));
                    let cov = covariance(n, sxy, sx, sy, sxx, syy);
                    let cor = (vx > 0.0 && vy > 0.0).then(|| (cov / (vx * vy).sqrt()).clamp(-1.0, 1.0));
                    pairwise[i][j] = Pairwise { n: n as u64, cov: Some(cov), cor };
                } else {
                    pairwise[i][j] = Pairwise { n: n as u64, cov: None, cor: None };
                }
            }
        }
        // The variances on the diagonal as they are, the covariances off it as the pairwise ones.
        let listwise_cov = (nl >= 2.0).then(|| {
            (0..p)
                .map(|i| {
                    (0..p)
                        .map(|j| {
                            if i == j {
                                centred(nl, sij[tri(p, i, i)], s[i], s[i])
                            } else {
                                covariance(nl, sij[tri(p, i.min(j), i.max(j))], s[i], s[j], sij[tri(p, i, i)], sij[tri(p, j, j)])
                            }
                        })
                        .collect()
                })
                .collect()
        });
        CrossMoments { p, columns, pairwise, listwise_n: nl as u64, listwise_cov }
    }

    /// Moments of the `O` (`original = true`) or `P` side of numeric columns.
    fn of_side(cols: &[&NumericColumn<'_>], original: bool, rows: usize) -> Self {
        let columns = cols.iter().map(|c| Moments::of_counts(&c.rep, if original { &c.a.o_count } else { &c.a.p_count })).collect();
        if original { Self::new(columns, rows, |j, r| cols[j].o(r)) } else { Self::new(columns, rows, |j, r| cols[j].p(r)) }
    }

    /// `V[i][j]`: the variance of column `i` on the diagonal, else the pairwise covariance.
    pub fn cov(&self, i: usize, j: usize) -> Option<f64> {
        if i == j { self.columns[i].var } else { self.pairwise[i.min(j)][i.max(j)].cov }
    }

    /// `R[i][j]` (pairwise), 1 on the diagonal of a column with positive variance.
    pub fn cor(&self, i: usize, j: usize) -> Option<f64> {
        if i == j { self.columns[i].var.filter(|v| *v > 0.0).map(|_| 1.0) } else { self.pairwise[i.min(j)][i.max(j)].cor }
    }

    fn matrix(&self, f: impl Fn(usize, usize) -> Option<f64>) -> Value {
        json!((0..self.p).map(|i| (0..self.p).map(|j| f(i, j)).collect::<Vec<_>>()).collect::<Vec<_>>())
    }
}

fn discrepancy_value(d: &Discrepancy) -> Value {
    json!({ "mse": d.mse, "mae": d.mae, "mv": d.mv })
}

/// `mean_diff`, `variance_diff` per numeric attribute, `cov_discrepancy`, `cor_discrepancy`
/// and `eigen_diff`.
pub(crate) fn metrics(t: &Tables<'_>, numeric: &Numeric<'_>) -> Vec<MetricResult> {
    let mut out = Vec::new();
    let cols: Vec<&NumericColumn<'_>> = numeric.columns.iter().collect();
    let mo = CrossMoments::of_side(&cols, true, t.n_o);
    let mp = CrossMoments::of_side(&cols, false, t.n_p);
    // Per attribute, in O's column order.
    for a in t.attributes.iter().filter(|a| a.kind == Kind::Numeric) {
        let ctx = context(t, Some(&a.name));
        let Some(j) = cols.iter().position(|c| c.a.name == a.name) else {
            out.push(ctx.without_value("mean_diff", Status::NotApplicable, "attribute_dropped"));
            out.push(ctx.without_value("variance_diff", Status::NotApplicable, "attribute_dropped"));
            continue;
        };
        let (o, p) = (mo.columns[j], mp.columns[j]);
        let details = json!({ "n_original": o.n, "n_released": p.n });
        let diff = |x: f64, y: f64| json!({ "original": x, "released": y, "difference": y - x, "rel_change_pct": rel_change_pct(x, y) });
        let warn = |m: MetricResult| if cols[j].midpoint_used { m.with_warning("midpoint_used") } else { m };
        out.push(warn(if o.n == 0 || p.n == 0 {
            ctx.without_value("mean_diff", Status::NotApplicable, "no_values").with_details(details.clone())
        } else {
            ctx.ok("mean_diff", diff(o.mean, p.mean)).with_details(details.clone())
        }));
        out.push(warn(match (o.var, p.var) {
            (Some(x), Some(y)) => ctx.ok("variance_diff", diff(x, y)).with_details(details),
            _ => ctx.without_value("variance_diff", Status::NotApplicable, "too_few_values").with_details(details),
        }));
    }
    let ctx = context(t, None);
    let names: Vec<&str> = cols.iter().map(|c| c.a.name.as_str()).collect();
    let dropped = numeric.dropped_names();
    let warn = |m: MetricResult| if numeric.midpoint_used() { m.with_warning("midpoint_used") } else { m };
    let p = cols.len();
    // cov_discrepancy over i <= j.
    let mut undefined = 0usize;
    let cells: Vec<(f64, f64)> = (0..p)
        .flat_map(|i| (i..p).map(move |j| (i, j)))
        .filter_map(|(i, j)| {
            let c = mo.cov(i, j).zip(mp.cov(i, j));
            undefined += usize::from(c.is_none());
            c
        })
        .collect();
    let mut details = json!({
        "variables": names,
        "original": mo.matrix(|i, j| mo.cov(i, j)),
        "released": mp.matrix(|i, j| mp.cov(i, j)),
        "cells_undefined": undefined,
        "dropped": dropped,
    });
    out.push(warn(match discrepancy(cells) {
        _ if p == 0 => ctx.without_value("cov_discrepancy", Status::NotApplicable, "no_numeric_attributes").with_details(details.clone()),
        None => ctx.without_value("cov_discrepancy", Status::NotApplicable, "no_cells").with_details(details.clone()),
        Some(d) => {
            details["cells"] = json!(d.cells);
            details["mv_cells"] = json!(d.cells - d.mv_skipped);
            details["mv_cells_skipped"] = json!(d.mv_skipped);
            ctx.ok("cov_discrepancy", discrepancy_value(&d)).with_details(details.clone())
        }
    }));
    // cor_discrepancy over i < j of the columns with a positive variance and 2 values in both tables.
    let mut excluded = serde_json::Map::new();
    let kept: Vec<usize> = (0..p)
        .filter(|&j| {
            let reason = match (mo.columns[j].var, mp.columns[j].var) {
                (None, _) | (_, None) => Some("fewer_than_2_values"),
                (Some(x), Some(y)) if x <= 0.0 || y <= 0.0 => Some("zero_variance"),
                _ => None,
            };
            if let Some(r) = reason {
                excluded.insert(names[j].into(), json!(r));
            }
            reason.is_none()
        })
        .collect();
    let mut undefined = 0usize;
    let cells: Vec<(f64, f64)> = kept
        .iter()
        .enumerate()
        .flat_map(|(a, &i)| kept[a + 1..].iter().map(move |&j| (i, j)))
        .filter_map(|(i, j)| {
            let c = mo.cor(i, j).zip(mp.cor(i, j));
            undefined += usize::from(c.is_none());
            c
        })
        .collect();
    let mut details = json!({
        "variables": kept.iter().map(|&j| names[j]).collect::<Vec<_>>(),
        "original": mo.matrix(|i, j| mo.cor(i, j)),
        "released": mp.matrix(|i, j| mp.cor(i, j)),
        "matrix_variables": names,
        "cells_undefined": undefined,
        "excluded": excluded,
        "dropped": dropped,
    });
    let mut cor = match discrepancy(cells) {
        _ if kept.len() < 2 => ctx.without_value("cor_discrepancy", Status::NotApplicable, "too_few_attributes").with_details(details),
        None => ctx.without_value("cor_discrepancy", Status::NotApplicable, "no_cells").with_details(details),
        Some(d) => {
            details["cells"] = json!(d.cells);
            details["mv_cells"] = json!(d.cells - d.mv_skipped);
            details["mv_cells_skipped"] = json!(d.mv_skipped);
            ctx.ok("cor_discrepancy", discrepancy_value(&d)).with_details(details)
        }
    };
    if !excluded.is_empty() {
        cor = cor.with_warning("columns_excluded");
    }
    out.push(warn(cor));
    out.push(warn(eigen::metric(&ctx, &names, &dropped, (mo.listwise_n, mo.listwise_cov.as_ref()), (mp.listwise_n, mp.listwise_cov.as_ref()))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Golden G7.2: \[DT01\] X vs X' of the small vectors.
    #[test]
    fn dt01_small_vectors() {
        let x = [[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]];
        let z = [[1.0, 12.0], [3.0, 20.0], [3.0, 27.0], [5.0, 40.0]];
        let d = discrepancy(x.iter().flatten().copied().zip(z.iter().flatten().copied())).unwrap();
        assert!((d.mse - 1.875).abs() < 1e-15);
        assert!((d.mae - 0.875).abs() < 1e-15);
        assert!((d.mv.unwrap() - 0.13125).abs() < 1e-15);
        assert_eq!(discrepancy([(0.0, 1.0)]).unwrap().mv, None);
        assert!(discrepancy([]).is_none());
    }

    #[test]
    fn moments_pairwise_and_listwise() {
        let nan = f64::NAN;
        let cols = [vec![1.0, 2.0, 3.0, 4.0, nan], vec![10.0, 25.0, 28.0, nan, 7.0]];
        let moments: Vec<Moments> = cols
            .iter()
            .map(|c| {
                let count = vec![1u64; c.len()];
                Moments::of_counts(c, &count)
            })
            .collect();
        assert_eq!(moments[0].n, 4);
        assert!((moments[0].var.unwrap() - 5.0 / 3.0).abs() < 1e-14);
        let m = CrossMoments::new(moments, 5, |j, r| cols[j][r]);
        assert_eq!(m.listwise_n, 3);
        // rows 0..3 of both: x = 1,2,3, y = 10,25,28: cov = 9
        let Pairwise { n, cov, cor } = m.pairwise[0][1];
        assert_eq!(n, 3);
        assert!((cov.unwrap() - 9.0).abs() < 1e-12);
        let r = 9.0 / (1.0f64 * (93.0f64)).sqrt();
        assert!((cor.unwrap() - r).abs() < 1e-12, "{cor:?} vs {r}");
        let l = m.listwise_cov.unwrap();
        assert!((l[0][1] - 9.0).abs() < 1e-12 && (l[0][0] - 1.0).abs() < 1e-12);
    }
}
