//! Permutation-model metrics (\[PERM\]; spec utility.md Sec 11): the reverse mapping of a
//! release onto the original values, the confidentiality metrics CM1-CM3 (canonical
//! correlations of ranks) and the utility metric UM (eigen-structure of the rank covariances).
//!
//! Tables are given as columns (`cols[j][i]` = attribute `j` of row `i`). The linear algebra
//! is small (`m x m`, `m` = number of attributes) and done here with a deterministic cyclic
//! Jacobi eigen-solver (Sec 11.4, 11.6: "Eigen and SVD routines MUST be deterministic"), so the
//! crate needs no linear-algebra dependency.

use std::cmp::Ordering;

use serde_json::{Value, json};

use crate::metric::{Context, MetricResult, Scope, Status};
use crate::numeric::neumaier;
use crate::utility::linalg::{Matrix, centered, cov, cross, mul, sym_eigen, transpose};

/// Relative eigenvalue cut-off of the whitening in Sec 11.4.
const KEEP_TOL: f64 = 1e-10;
/// The `1e-12` guards of Sec 11.4 (`rho -> 1`) and Sec 11.6 (UM).
const EPS: f64 = 1e-12;
/// `perm_reverse_mapping` carries the full vectors `z`, `pi`, `e`, `d` up to this `n`.
pub const FULL_VECTORS_MAX_N: usize = 50;
/// Subsamples drawn for CM3 when the tables differ in size (Sec 11.5).
pub const CM3_DRAWS: usize = 10;
/// Default seed of the CM3 subsampling (Sec 11.5); `ctx.params.seed` overrides it.
pub const DEFAULT_SEED: u64 = 42;

/// Ascending order of finite values; `+ 0.0` folds `-0` into `+0` so the two tie.
fn cmp(a: f64, b: f64) -> Ordering {
    (a + 0.0).total_cmp(&(b + 0.0))
}

/// Average (mid) ranks `1..n` (Sec 11.2): tied values share the mean of their positions.
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    // Sorting (value, row) pairs keeps the data contiguous: several times faster on a million
    // rows than sorting row indices that look their values up.
    let mut order: Vec<(f64, u32)> = x.iter().enumerate().map(|(i, &v)| (v + 0.0, i as u32)).collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut r = vec![0.0; x.len()];
    let mut k = 0;
    while k < order.len() {
        let mut j = k + 1;
        while j < order.len() && order[j].0.total_cmp(&order[k].0).is_eq() {
            j += 1;
        }
        // positions k+1..=j (1-based) share their mean
        let mid = (k + 1 + j) as f64 / 2.0;
        order[k..j].iter().for_each(|&(_, i)| r[i as usize] = mid);
        k = j;
    }
    r
}

/// Reverse mapping of one attribute (Sec 11.3), vectors indexed by row.
#[derive(Debug, Clone, PartialEq)]
pub struct ReverseMapping {
    /// `z_i`: the `rY[i]`-th smallest original value.
    pub z: Vec<f64>,
    /// `pi_i`: 1-based row of `x` with `z_i = x_{pi_i}` (the permutation, as in the spec's example).
    pub pi: Vec<usize>,
    /// `e_i = y_i - z_i`: residual noise (meaningful for numeric attributes).
    pub e: Vec<f64>,
    /// `d_i = |rX[i] - rY[i]|`: rank displacement.
    pub d: Vec<usize>,
}

/// Reverse mapping of paired columns `x` (original) and `y` (released) of equal length
/// (Sec 11.3): ordinal ranks, `x` ties by row index, `y` ties by `rX`.
pub fn reverse_mapping(x: &[f64], y: &[f64]) -> ReverseMapping {
    let n = x.len();
    let mut xs: Vec<(f64, usize)> = x.iter().enumerate().map(|(i, &v)| (v + 0.0, i)).collect();
    xs.sort_unstable_by(|a, b| cmp(a.0, b.0).then(a.1.cmp(&b.1))); // ties by row index
    let s: Vec<usize> = xs.into_iter().map(|(_, i)| i).collect();
    let mut rx = vec![0; n];
    s.iter().enumerate().for_each(|(k, &i)| rx[i] = k);
    let mut ys: Vec<(f64, usize, usize)> = y.iter().enumerate().map(|(i, &v)| (v + 0.0, rx[i], i)).collect();
    ys.sort_unstable_by(|a, b| cmp(a.0, b.0).then(a.1.cmp(&b.1))); // ties by rX (unique)
    let mut ry = vec![0; n];
    ys.iter().enumerate().for_each(|(k, &(_, _, i))| ry[i] = k);
    let z: Vec<f64> = (0..n).map(|i| x[s[ry[i]]]).collect();
    ReverseMapping {
        pi: (0..n).map(|i| s[ry[i]] + 1).collect(),
        e: (0..n).map(|i| y[i] - z[i]).collect(),
        d: (0..n).map(|i| rx[i].abs_diff(ry[i])).collect(),
        z,
    }
}

/// `U_kept diag(s_kept^(-1/2))` of a covariance matrix (Sec 11.4); `None` when `max(s) <= 0`.
fn whiten(c: Matrix) -> Option<Matrix> {
    let (s, u) = sym_eigen(c);
    let max = s.first().copied().filter(|&m| m > 0.0)?;
    let kept: Vec<usize> = (0..s.len()).filter(|&k| s[k] > KEEP_TOL * max).collect();
    Some(u.iter().map(|row| kept.iter().map(|&k| row[k] / s[k].sqrt()).collect()).collect())
}

/// Canonical correlations `rho_1 >= ... >= rho_r` of the column blocks `a` and `b` (same row
/// count) by the whitened form of Sec 11.4: eigenpairs of `Caa`, `Cbb` below `1e-10 * max`
/// are dropped, so a rank-deficient block yields fewer than `min(p, q)` correlations.
/// `None` when no correlation exists: fewer than 2 rows, an empty block, or a block without
/// variance (`max(s) = 0`). The singular values come from the eigenvalues of `K K'` (or
/// `K' K`, the smaller one), `K = Wa' Cab Wb`; clamped to `[0, 1]`, `>= 1 - 1e-12` -> 1.
pub fn canonical_correlations(a: &[Vec<f64>], b: &[Vec<f64>]) -> Option<Vec<f64>> {
    let n = a.first().map_or(0, Vec::len);
    if n < 2 || b.is_empty() {
        return None;
    }
    let (a, b) = (centered(a), centered(b));
    let wa = whiten(cross(&a, &a))?;
    let wb = whiten(cross(&b, &b))?;
    let k = mul(&transpose(&wa), &mul(&cross(&a, &b), &wb));
    let kt = transpose(&k);
    let gram = if k.len() <= kt.len() { mul(&k, &kt) } else { mul(&kt, &k) };
    let rho = sym_eigen(gram).0.into_iter().map(|l| {
        let r = l.max(0.0).sqrt().min(1.0);
        if r >= 1.0 - EPS { 1.0 } else { r }
    });
    Some(rho.collect())
}

/// `perm_cm1 = 1 - rho_1^2` (\[PERM\] Eq. 2); no correlation counts as `rho = 0` (Sec 11.4).
pub fn cm1(rho: &[f64]) -> f64 {
    1.0 - rho.first().map_or(0.0, |r| r * r)
}

/// `perm_cm2 = prod_i (1 - rho_i^2)` (\[PERM\] Eq. 5); missing correlations are factors 1.
pub fn cm2(rho: &[f64]) -> f64 {
    rho.iter().map(|r| 1.0 - r * r).product()
}

/// CM3 (\[PERM\] Eq. 6) with its components.
#[derive(Debug, Clone, PartialEq)]
pub struct Cm3 {
    /// `min_j c_j`.
    pub value: f64,
    /// `c_j` per attribute `j`.
    pub c: Vec<f64>,
    /// The argmin `j` (first on ties): the weakest sort key.
    pub weakest: usize,
    /// Some `c_j` had fewer than `m - 1` canonical correlations (Sec 11.4).
    pub rank_deficient: bool,
}

/// The rows of a table as contiguous integer keys (twice the average rank of each column), so
/// that the lexicographic sorts of CM3 compare slices instead of looking values up column by
/// column.
struct RowKeys {
    m: usize,
    keys: Vec<u32>,
}

impl RowKeys {
    fn new(r: &[Vec<f64>]) -> Self {
        let (m, n) = (r.len(), r[0].len());
        let mut keys = vec![0u32; n * m];
        for (c, col) in r.iter().enumerate() {
            for (i, rank) in average_ranks(col).into_iter().enumerate() {
                keys[i * m + c] = (2.0 * rank) as u32;
            }
        }
        RowKeys { m, keys }
    }

    /// Rows ordered by column `j`, ties by the other columns in column order, then row index.
    fn sorted(&self, j: usize) -> Vec<usize> {
        let m = self.m;
        let row = |i: usize| &self.keys[i * m..(i + 1) * m];
        let mut rows: Vec<usize> = (0..self.keys.len() / m).collect();
        rows.sort_unstable_by(|&a, &b| {
            let (ra, rb) = (row(a), row(b));
            ra[j].cmp(&rb[j]).then_with(|| (0..m).filter(|&c| c != j).map(|c| ra[c].cmp(&rb[c])).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)).then(a.cmp(&b))
        });
        rows
    }
}

/// CM3 of rank tables `rx`, `ry` (Sec 11.5): for each `j`, both tables sorted independently
/// by column `j` (lexicographic tie-break), the `k`-th rows paired, column `j` dropped and
/// `c_j` = CM2 of the two `(n x (m-1))` blocks. `None` unless `m >= 2` and the row counts
/// agree (unequal counts: [`cm3_subsampled`]).
pub fn cm3(rx: &[Vec<f64>], ry: &[Vec<f64>]) -> Option<Cm3> {
    let m = rx.len();
    if m < 2 || ry.len() != m || rx[0].len() != ry[0].len() {
        return None;
    }
    let (kx, ky) = (RowKeys::new(rx), RowKeys::new(ry));
    let block = |r: &[Vec<f64>], keys: &RowKeys, j: usize| -> Matrix {
        let rows = keys.sorted(j);
        (0..m).filter(|&c| c != j).map(|c| rows.iter().map(|&i| r[c][i]).collect()).collect()
    };
    let rhos: Vec<Vec<f64>> = (0..m).map(|j| canonical_correlations(&block(rx, &kx, j), &block(ry, &ky, j)).unwrap_or_default()).collect();
    let c: Vec<f64> = rhos.iter().map(|rho| cm2(rho)).collect();
    let weakest = (0..m).fold(0, |w, j| if c[j] < c[w] { j } else { w });
    Some(Cm3 { value: c[weakest], c, weakest, rank_deficient: rhos.iter().any(|rho| rho.len() < m - 1) })
}

/// Average ranks of every column (Sec 11.2).
pub fn rank_columns(cols: &[Vec<f64>]) -> Matrix {
    cols.iter().map(|c| average_ranks(c)).collect()
}

/// CM3 over [`CM3_DRAWS`] subsamples: mean, sample standard deviation and the per-draw results.
#[derive(Debug, Clone, PartialEq)]
pub struct Cm3Subsampled {
    /// Mean of the draws' CM3.
    pub mean: f64,
    /// Sample standard deviation (`n - 1`) of the draws' CM3.
    pub sd: f64,
    /// One [`Cm3`] per draw.
    pub draws: Vec<Cm3>,
}

/// CM3 of value tables of unequal size (Sec 11.5): [`CM3_DRAWS`] times, a subset of the larger
/// table's rows of the smaller size is drawn without replacement (partial Fisher-Yates with
/// SplitMix64 seeded once with `seed`), both tables are ranked afresh (Sec 11.2, ranks `1..n`
/// within the table compared) and [`cm3`] applied. `None` when `m < 2`.
pub fn cm3_subsampled(x: &[Vec<f64>], y: &[Vec<f64>], seed: u64) -> Option<Cm3Subsampled> {
    let (nx, ny) = (x.first().map_or(0, Vec::len), y.first().map_or(0, Vec::len));
    let (small, large, large_is_x) = if nx <= ny { (x, y, false) } else { (y, x, true) };
    let (k, n) = (nx.min(ny), nx.max(ny));
    let r_small = rank_columns(small);
    let mut rng = crate::rng::SplitMix64(seed);
    let mut draws = Vec::with_capacity(CM3_DRAWS);
    for _ in 0..CM3_DRAWS {
        let mut idx: Vec<usize> = (0..n).collect();
        rng.choose_front(&mut idx, k);
        let sub: Matrix = large.iter().map(|c| idx[..k].iter().map(|&i| c[i]).collect()).collect();
        let r_sub = rank_columns(&sub);
        draws.push(if large_is_x { cm3(&r_sub, &r_small) } else { cm3(&r_small, &r_sub) }?);
    }
    let mean = neumaier(draws.iter().map(|d| d.value)) / CM3_DRAWS as f64;
    let var = neumaier(draws.iter().map(|d| (d.value - mean).powi(2))) / (CM3_DRAWS - 1) as f64;
    Some(Cm3Subsampled { mean, sd: var.sqrt(), draws })
}

/// UM (\[PERM\] Eqs. 7-9; Sec 11.6) of rank tables `rx` (`n_x` rows) and `ry` (`n_y` rows) with
/// the same `m >= 1` columns; rows need not correspond. `lx_j` are the eigenvalue shares of
/// `C_XX`, `ly_j` the shares of `C_YY`'s variance along `C_XX`'s eigenvectors `v_j`. Guards:
/// all shares within `1e-12` of `1/m` -> 1; `trace(C_YY) = 0` -> 0; `D0 < 1e-12` -> 1 if
/// `D < 1e-12` else 0. `None` when `trace(C_XX) = 0` (Sec 11.7: `no_variance_original`).
pub fn um(rx: &[Vec<f64>], ry: &[Vec<f64>]) -> Option<f64> {
    let m = rx.len();
    let (cx, cy) = (cov(rx), cov(ry));
    let (tx, ty) = ((0..m).map(|j| cx[j][j]).sum::<f64>(), (0..m).map(|j| cy[j][j]).sum::<f64>());
    if tx.is_nan() || tx <= 0.0 {
        return None;
    }
    if ty.is_nan() || ty <= 0.0 {
        return Some(0.0);
    }
    let (lambda, v) = sym_eigen(cx);
    let lx: Vec<f64> = lambda.iter().map(|l| l / tx).collect();
    let ly: Vec<f64> = (0..m)
        .map(|j| {
            let vj: Vec<f64> = v.iter().map(|row| row[j]).collect();
            neumaier((0..m).flat_map(|a| (0..m).map(move |b| (a, b))).map(|(a, b)| vj[a] * cy[a][b] * vj[b])) / ty
        })
        .collect();
    let uniform = 1.0 / m as f64;
    if lx.iter().chain(&ly).all(|l| (l - uniform).abs() <= EPS) {
        return Some(1.0);
    }
    let d = neumaier(lx.iter().zip(&ly).map(|(a, b)| (a - b).powi(2)));
    let d0 = neumaier(lx.iter().map(|a| (a - uniform).powi(2)));
    Some(if d0 < EPS { f64::from(u8::from(d < EPS)) } else { 1.0 - (d / d0).min(1.0) })
}

/// Rows without a non-finite value in any column (listwise deletion, Sec 11.1).
fn complete_rows(cols: &[Vec<f64>], n: usize) -> Vec<usize> {
    (0..n).filter(|&i| cols.iter().all(|c| c[i].is_finite())).collect()
}

fn select(cols: &[Vec<f64>], rows: &[usize]) -> Matrix {
    cols.iter().map(|c| rows.iter().map(|&i| c[i]).collect()).collect()
}

/// Every column constant: `trace(C_XX) = 0` of the ranks (Sec 11.7).
fn no_variance(cols: &[Vec<f64>]) -> bool {
    cols.iter().all(|c| c.iter().all(|&v| cmp(v, c[0]).is_eq()))
}

const PAIRED: [&str; 2] = ["perm_cm1", "perm_cm2"];
const UNPAIRED: [&str; 2] = ["perm_cm3", "perm_um"];
const REVERSE: &str = "perm_reverse_mapping";

/// The permutation-model results (Sec 11): `perm_reverse_mapping` (one per attribute, scope
/// `attribute`), `perm_cm1`, `perm_cm2`, `perm_cm3`, `perm_um`.
///
/// `original` (`X`) and `released` (`Y`) hold the `m` attributes named by `names` as columns, in
/// the same order, already mapped to numbers (Sec 11.1: numeric value, day number, ordinal
/// position, `rep(t)`). A blank or `INVALID` cell is a non-finite value (NaN); rows holding one
/// are deleted listwise here: per aligned pair for reverse mapping, CM1 and CM2, per table for
/// CM3 and UM (Sec 11.1), with the counts in `details.dropped`. `pairs` lists the aligned
/// `(row of O, row of P)` (README Sec 8); when the tables cannot be paired it holds the reason
/// and the paired metrics are `error`.
///
/// `perm_reverse_mapping`: `value` = `{mean_d, max_d, share_d0, mean_abs_e}`; `details` carry
/// the full vectors `z`, `pi` (1-based rows), `e`, `d` only for `n <= 50`
/// ([`FULL_VECTORS_MAX_N`]), summaries only above. CM3 on tables of unequal size uses
/// [`cm3_subsampled`] with seed `ctx.params.seed` (default [`DEFAULT_SEED`]).
pub fn metrics(ctx: &Context, original: &[Vec<f64>], released: &[Vec<f64>], names: &[String], pairs: Result<&[(u32, u32)], &'static str>) -> Vec<MetricResult> {
    debug_assert!(original.len() == names.len() && released.len() == names.len());
    let per_attr = |name: &String| Context { scope: Scope { attribute: Some(name.clone()), ..ctx.scope.clone() }, ..ctx.clone() };
    let all = |status: Status, reason: &'static str| -> Vec<MetricResult> {
        let rm = names.iter().map(|a| per_attr(a).without_value(REVERSE, status, reason));
        rm.chain(PAIRED.iter().chain(&UNPAIRED).map(|id| ctx.without_value(id, status, reason))).collect()
    };
    let (nx, ny) = (original.first().map_or(0, Vec::len), released.first().map_or(0, Vec::len));
    if names.is_empty() {
        return all(Status::NotApplicable, "no_attributes");
    }
    if nx == 0 || ny == 0 {
        return all(Status::EmptyInput, "no_records_in_scope");
    }
    let mut out = Vec::new();

    // paired: reverse mapping, CM1, CM2 on aligned pairs complete on both sides
    match pairs {
        Ok(pairs) => {
            let complete = |&&(o, p): &&(u32, u32)| original.iter().all(|c| c[o as usize].is_finite()) && released.iter().all(|c| c[p as usize].is_finite());
            let kept: Vec<(u32, u32)> = pairs.iter().filter(complete).copied().collect();
            let dropped = json!({ "pairs": pairs.len() - kept.len() });
            let pick = |cols: &[Vec<f64>], side: fn(&(u32, u32)) -> u32| -> Matrix {
                cols.iter().map(|c| kept.iter().map(|p| c[side(p) as usize]).collect()).collect()
            };
            let (x, y) = (pick(original, |p| p.0), pick(released, |p| p.1));
            let fail = |status: Status, reason: &'static str| {
                let rm = names.iter().map(|a| per_attr(a).without_value(REVERSE, status, reason));
                let cm = PAIRED.iter().map(|id| ctx.without_value(id, status, reason));
                rm.chain(cm).map(|r| r.with_details(json!({ "dropped": dropped }))).collect::<Vec<_>>()
            };
            if kept.len() < 3 {
                out.extend(fail(Status::NotApplicable, "too_few_rows"));
            } else if no_variance(&x) {
                out.extend(fail(Status::Error, "no_variance_original"));
            } else {
                out.extend(names.iter().zip(x.iter().zip(&y)).map(|(a, (xc, yc))| reverse_result(&per_attr(a), xc, yc, &dropped)));
                let rho = canonical_correlations(&rank_columns(&x), &rank_columns(&y)).unwrap_or_default();
                let details = json!({ "rho": rho, "n": kept.len(), "dropped": dropped });
                for (id, v) in PAIRED.iter().zip([cm1(&rho), cm2(&rho)]) {
                    let r = ctx.ok(id, v).with_details(details.clone());
                    out.push(if rho.len() < names.len() { r.with_warning("rank_deficient") } else { r });
                }
            }
        }
        Err(reason) => {
            out.extend(names.iter().map(|a| per_attr(a).without_value(REVERSE, Status::Error, reason)));
            out.extend(PAIRED.iter().map(|id| ctx.without_value(id, Status::Error, reason)));
        }
    }

    // unpaired: CM3, UM on each table's complete rows
    let (rows_x, rows_y) = (complete_rows(original, nx), complete_rows(released, ny));
    let dropped = json!({ "original": nx - rows_x.len(), "released": ny - rows_y.len() });
    let (x, y) = (select(original, &rows_x), select(released, &rows_y));
    let fail = |status: Status, reason: &'static str| {
        UNPAIRED.iter().map(|id| ctx.without_value(id, status, reason).with_details(json!({ "dropped": dropped }))).collect::<Vec<_>>()
    };
    if names.len() == 1 {
        out.extend(fail(Status::NotApplicable, "single_attribute"));
    } else if rows_x.len() < 3 || rows_y.len() < 3 {
        out.extend(fail(Status::NotApplicable, "too_few_rows"));
    } else if no_variance(&x) {
        out.extend(fail(Status::Error, "no_variance_original"));
    } else {
        let (rx, ry) = (rank_columns(&x), rank_columns(&y));
        let n = json!({ "original": rows_x.len(), "released": rows_y.len() });
        let (value, mut details, deficient) = if rows_x.len() == rows_y.len() {
            let c = cm3(&rx, &ry).expect("m >= 2 and equal row counts");
            (c.value, json!({ "c": c.c, "weakest": names[c.weakest] }), c.rank_deficient)
        } else {
            let seed = ctx.params.get("seed").and_then(Value::as_u64).unwrap_or(DEFAULT_SEED);
            let s = cm3_subsampled(&x, &y, seed).expect("m >= 2");
            let draws: Vec<Value> = s.draws.iter().map(|d| json!({ "value": d.value, "c": d.c, "weakest": names[d.weakest] })).collect();
            (s.mean, json!({ "sd": s.sd, "draws": draws, "seed": seed }), s.draws.iter().any(|d| d.rank_deficient))
        };
        details["n"] = n.clone();
        details["dropped"] = dropped.clone();
        let r = ctx.ok("perm_cm3", value).with_details(details);
        out.push(if deficient { r.with_warning("rank_deficient") } else { r });
        let u = um(&rx, &ry).expect("trace(C_XX) > 0");
        out.push(ctx.ok("perm_um", u).with_details(json!({ "n": n, "dropped": dropped })));
    }
    out
}

/// `perm_reverse_mapping` of one attribute (see [`metrics`]).
fn reverse_result(ctx: &Context, x: &[f64], y: &[f64], dropped: &Value) -> MetricResult {
    let rm = reverse_mapping(x, y);
    let n = x.len() as f64;
    let value = json!({
        "mean_d": neumaier(rm.d.iter().map(|&d| d as f64)) / n,
        "max_d": rm.d.iter().max(),
        "share_d0": rm.d.iter().filter(|&&d| d == 0).count() as f64 / n,
        "mean_abs_e": neumaier(rm.e.iter().map(|e| e.abs())) / n,
    });
    let details = if x.len() <= FULL_VECTORS_MAX_N {
        json!({ "n": x.len(), "dropped": dropped, "z": rm.z, "pi": rm.pi, "e": rm.e, "d": rm.d })
    } else {
        json!({ "n": x.len(), "dropped": dropped })
    };
    ctx.ok(REVERSE, value).with_details(details)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`metrics`] with rows paired in order when `aligned` (and the sizes agree).
    fn run(ctx: &Context, x: &[Vec<f64>], y: &[Vec<f64>], names: &[String], aligned: bool) -> Vec<MetricResult> {
        let n = x.first().map_or(0, Vec::len);
        let pairs: Vec<(u32, u32)> = (0..n as u32).map(|i| (i, i)).collect();
        let same = y.first().map_or(0, Vec::len) == n;
        metrics(ctx, x, y, names, if aligned && same { Ok(&pairs) } else { Err("row_count_mismatch") })
    }
    use proptest::prelude::*;

    /// `|got - expected| <= 1e-9 |expected|` (absolute `1e-12` at 0).
    fn close(got: f64, expected: f64) -> bool {
        (got - expected).abs() <= 1e-9 * expected.abs() + 1e-12
    }

    #[track_caller]
    fn assert_close(got: f64, expected: f64) {
        assert!(close(got, expected), "got {got}, expected {expected}");
    }

    #[track_caller]
    fn assert_all_close(got: &[f64], expected: &[f64]) {
        assert_eq!(got.len(), expected.len(), "got {got:?}, expected {expected:?}");
        got.iter().zip(expected).for_each(|(&g, &e)| assert_close(g, e));
    }

    /// Row-major literal -> columns.
    fn cols(rows: &[&[f64]]) -> Matrix {
        (0..rows[0].len()).map(|j| rows.iter().map(|r| r[j]).collect()).collect()
    }

    /// CM1, CM2, CM3 (with `c_j`) and UM of value tables, through the public functions.
    fn all_metrics(x: &[Vec<f64>], y: &[Vec<f64>]) -> (Vec<f64>, f64, f64, Option<Cm3>, f64) {
        let (rx, ry) = (rank_columns(x), rank_columns(y));
        let rho = canonical_correlations(&rx, &ry).unwrap_or_default();
        (rho.clone(), cm1(&rho), cm2(&rho), cm3(&rx, &ry), um(&rx, &ry).unwrap())
    }

    const T1_X: [&[f64]; 5] = [&[1., 10.], &[2., 20.], &[3., 30.], &[4., 50.], &[5., 40.]];
    const T1_Y: [&[f64]; 5] = [&[2., 10.], &[1., 20.], &[3., 40.], &[5., 30.], &[4., 50.]];

    #[test]
    fn golden_reverse_mapping_example() {
        let rm = reverse_mapping(&[10., 20., 30., 40.], &[22., 9., 41., 33.]);
        assert_eq!(rm, ReverseMapping { z: vec![20., 10., 40., 30.], pi: vec![2, 1, 4, 3], e: vec![2., -1., 1., 3.], d: vec![1; 4] });
    }

    /// reference.py `reverse_map` on a case with ties in both `x` and `y`.
    #[test]
    fn reverse_mapping_with_ties_matches_reference() {
        let x = [3., 1., 4., 1., 5., 9., 2., 6., 5., 3.];
        let y = [2.5, 1., 4., 4., 7., 8., 2., 5., 6., 3.];
        let rm = reverse_mapping(&x, &y);
        assert_eq!(rm.z, [2., 1., 4., 3., 6., 9., 1., 5., 5., 3.]);
        assert_eq!(rm.pi, [7, 2, 3, 10, 8, 6, 4, 5, 9, 1]);
        assert_eq!(rm.e, [0.5, 0., 0., 1., 1., -1., 1., 0., 1., 0.]);
        assert_eq!(rm.d, [1, 0, 0, 3, 2, 0, 1, 2, 0, 1]);
        let mut z = rm.z;
        z.sort_by(|a, b| a.total_cmp(b));
        let mut xs = x.to_vec();
        xs.sort_by(|a, b| a.total_cmp(b));
        assert_eq!(z, xs, "sort(z) = sort(x)");
        let id = reverse_mapping(&x, &x);
        assert_eq!((id.pi, id.e, id.d), ((1..=10).collect(), vec![0.; 10], vec![0; 10]));
    }

    #[test]
    fn average_ranks_of_golden_tables() {
        assert_eq!(average_ranks(&[1., 2., 2., 3., 4., 5.]), [1., 2.5, 2.5, 4., 5., 6.]);
        assert_eq!(average_ranks(&[5., 3., 4., 1., 2., 5.]), [5.5, 3., 4., 1., 2., 5.5]);
        assert_eq!(average_ranks(&[4., 4., 2., 2., 4.5, 4.5]), [3.5, 3.5, 1.5, 1.5, 5.5, 5.5]);
        assert_eq!(average_ranks(&[3., 1., 4., 1., 5., 9., 2., 6., 5., 3.]), [4.5, 1.5, 6., 1.5, 7.5, 10., 3., 9., 7.5, 4.5]);
        assert_eq!(average_ranks(&[0.0, -0.0]), [1.5, 1.5]);
        assert!(average_ranks(&[]).is_empty());
    }

    #[test]
    fn golden_t1() {
        let (x, y) = (cols(&T1_X), cols(&T1_Y));
        assert_eq!(rank_columns(&x), [vec![1., 2., 3., 4., 5.], vec![1., 2., 3., 5., 4.]]);
        assert_eq!(rank_columns(&y), [vec![2., 1., 3., 5., 4.], vec![1., 2., 4., 3., 5.]]);
        let (rho, c1, c2, c3, u) = all_metrics(&x, &y);
        assert_all_close(&rho, &[0.9568897829018085, 0.7492233496018765]);
        assert_close(c1, 0.08436194337812986);
        assert_close(c2, 0.037006578947368696);
        let c3 = c3.unwrap();
        assert_all_close(&c3.c, &[0.36, 0.75]);
        assert_close(c3.value, 0.36);
        assert_eq!(c3.weakest, 0);
        assert_close(u, 8.0 / 9.0);
        assert_eq!(cov(&rank_columns(&x)), [[2.5, 2.25], [2.25, 2.5]]);
    }

    #[test]
    fn golden_t2_ties() {
        let x = cols(&[&[1., 5.], &[2., 3.], &[2., 4.], &[3., 1.], &[4., 2.], &[5., 5.]]);
        let y = cols(&[&[1.5, 4.], &[1.5, 4.], &[3.5, 2.], &[3.5, 2.], &[5., 4.5], &[5., 4.5]]);
        let (rho, c1, c2, c3, u) = all_metrics(&x, &y);
        assert_all_close(&rho, &[0.9254590329414579, 0.43594461831182973]);
        assert_close(c1, 0.14352557834706148);
        assert_close(c2, 0.11624887082204162);
        let c3 = c3.unwrap();
        assert_all_close(&c3.c, &[0.9080882352941176, 0.9411764705882353]);
        assert_close(c3.value, 0.9080882352941176);
        assert_close(u, 0.0);
    }

    #[test]
    fn golden_identity_and_trivial_permutation() {
        let x = cols(&T1_X);
        let (rho, c1, c2, c3, u) = all_metrics(&x, &x);
        assert_eq!(rho, [1.0, 1.0]);
        assert_eq!((c1, c2, c3.unwrap().value, u), (0.0, 0.0, 0.0, 1.0));
        let y = cols(&[T1_X[2], T1_X[0], T1_X[4], T1_X[1], T1_X[3]]);
        let (_, c1, c2, c3, u) = all_metrics(&x, &y);
        assert_close(c1, 0.2223989098);
        assert_close(c2, 0.2216066482);
        assert_eq!(c3.unwrap().value, 0.0);
        assert_close(u, 1.0);
    }

    // Random cases from reference.py (numpy `default_rng(20240607)`; script in the report):
    // R1 integer data with ties (n = 10, m = 3), R2 continuous correlated data (n = 15, m = 4),
    // R3 = R2's X against the first 11 rows of R2's Y (unpaired UM, both directions).
    const R1_X: [&[f64]; 10] =
        [&[3., 0., 3.], &[2., 4., 2.], &[0., 4., 3.], &[3., 3., 0.], &[0., 2., 4.], &[1., 4., 2.], &[3., 2., 2.], &[3., 4., 0.], &[4., 3., 4.], &[0., 1., 2.]];
    const R1_Y: [&[f64]; 10] = [
        &[2., 0., 4.],
        &[2., 3., 3.],
        &[-1., 3., 4.],
        &[4., 4., -1.],
        &[0., 3., 5.],
        &[2., 3., 3.],
        &[2., 3., 2.],
        &[3., 5., 1.],
        &[5., 3., 4.],
        &[0., 1., 1.],
    ];
    const R2_X: [&[f64]; 15] = [
        &[-1.952, -1.836, -0.641, 0.616],
        &[-1.249, -0.72, 0.061, -1.44],
        &[-0.441, 0.661, 0.255, -0.766],
        &[-0.265, 0.146, -0.733, -2.353],
        &[1.001, 0.411, -0.414, -0.626],
        &[1.136, 0.678, 1.299, 2.733],
        &[-1.553, -0.492, 0.542, 2.555],
        &[0.456, 1.51, -0.754, -0.527],
        &[0.242, 0.755, -0.824, -1.425],
        &[-0.593, -1.021, 0.067, 0.284],
        &[0.565, 1.429, -1.694, -1.701],
        &[0.179, -0.528, -2.358, -2.493],
        &[-1.319, -0.384, -2.443, -1.364],
        &[-0.81, -1.058, 0.416, 0.34],
        &[1.036, -1.007, -1.599, -0.529],
    ];
    #[allow(clippy::approx_constant)] // random data; -0.318 is not meant as 1/pi
    const R2_Y: [&[f64]; 15] = [
        &[-1.626, -1.892, -0.807, -0.043],
        &[-0.679, -0.023, -1.252, -2.053],
        &[-0.1, -0.079, 0.382, -1.222],
        &[0.96, 0.098, 0.767, -2.179],
        &[1.584, 0.514, 0.129, 0.108],
        &[0.431, 1.244, 1.244, 0.821],
        &[-1.686, -1.617, 0.709, 1.61],
        &[0.718, 1.488, -1.081, -0.13],
        &[-0.078, 1.135, -2.064, -1.356],
        &[0.003, -1.038, -0.318, 0.354],
        &[1.084, 1.656, -2.392, -2.868],
        &[-0.017, -1.618, -2.463, -1.081],
        &[-1.727, -0.334, -2.529, -1.575],
        &[-1.417, 1.142, 0.218, 0.846],
        &[0.079, -0.366, -1.266, -1.127],
    ];

    #[test]
    fn random_r1_ties_matches_reference() {
        let (rho, c1, c2, c3, u) = all_metrics(&cols(&R1_X), &cols(&R1_Y));
        assert_all_close(&rho, &[0.9548354191906215, 0.9308962920138282, 0.687874471201758]);
        assert_close(c1, 0.08828932225907005);
        assert_close(c2, 0.006206373655886618);
        let c3 = c3.unwrap();
        assert_all_close(&c3.c, &[0.5843255689159889, 0.6974466401017578, 0.5700603448767215]);
        assert_eq!(c3.weakest, 2);
        assert_close(u, 0.1610947496804519);
    }

    #[test]
    fn random_r2_continuous_matches_reference() {
        let (rho, c1, c2, c3, u) = all_metrics(&cols(&R2_X), &cols(&R2_Y));
        assert_all_close(&rho, &[0.9482305202407877, 0.8700794123844746, 0.6852703398900157, 0.45945460139751865]);
        assert_close(c1, 0.10085888048388514);
        assert_close(c2, 0.010253737227994506);
        let c3 = c3.unwrap();
        assert_all_close(&c3.c, &[0.6862676298828452, 0.4882405897540468, 0.4939001289203218, 0.4014334493301648]);
        assert_eq!(c3.weakest, 3);
        assert_close(u, 0.8889713047795401);
    }

    #[test]
    fn random_r3_unpaired_um_matches_reference() {
        let rx = rank_columns(&cols(&R2_X));
        let ry = rank_columns(&cols(&R2_Y[..11]));
        assert_close(um(&rx, &ry).unwrap(), 0.9273575944693968);
        assert_close(um(&ry, &rx).unwrap(), 0.939817831387871);
        assert_eq!(cm3(&rx, &ry), None, "unequal n needs subsampling");
    }

    #[test]
    fn canonical_correlation_guards() {
        let x = cols(&T1_X);
        let constant = vec![vec![7.0; 5], vec![7.0; 5]];
        assert_eq!(canonical_correlations(&x, &constant), None);
        assert_eq!(canonical_correlations(&x[..1], &[vec![1.0]]), None, "n < 2");
        // duplicated column: rank 1, so only one correlation
        let dup = vec![x[0].clone(), x[0].clone()];
        let rho = canonical_correlations(&dup, &x).unwrap();
        assert_eq!(rho, [1.0]);
        // m = 1: |Spearman|
        let rho = canonical_correlations(&[vec![1., 2., 3., 4., 5.]], &[vec![2., 1., 3., 5., 4.]]).unwrap();
        assert_all_close(&rho, &[0.8]);
    }

    #[test]
    fn um_guards() {
        let rx = rank_columns(&cols(&T1_X));
        assert_eq!(um(&[vec![3.0; 5], vec![3.0; 5]], &rx), None, "trace(C_XX) = 0");
        assert_eq!(um(&rx, &[vec![3.0; 5], vec![3.0; 5]]), Some(0.0), "trace(C_YY) = 0");
        // independent columns of equal variance: every share is 1/m -> 1
        let flat = rank_columns(&cols(&[&[1., 2.], &[2., 4.], &[3., 1.], &[4., 3.]]));
        assert_eq!(um(&flat, &flat), Some(1.0));
    }

    #[test]
    fn cm3_subsampling_is_deterministic_and_bounded() {
        let (x, y) = (cols(&R2_X), cols(&R2_Y[..11]));
        let a = cm3_subsampled(&x, &y, DEFAULT_SEED).unwrap();
        let b = cm3_subsampled(&y, &x, DEFAULT_SEED).unwrap();
        assert_eq!(a.draws.len(), CM3_DRAWS);
        assert!((0.0..=1.0).contains(&a.mean) && a.sd > 0.0, "{a:?}");
        assert_eq!(a, cm3_subsampled(&x, &y, DEFAULT_SEED).unwrap());
        assert_ne!(a.mean, cm3_subsampled(&x, &y, 7).unwrap().mean);
        assert!((0.0..=1.0).contains(&b.mean));
        // equal sizes: every draw is a permutation of the full table, and CM3 ignores row order
        let full = cm3_subsampled(&x, &cols(&R2_Y), 1).unwrap();
        let direct = cm3(&rank_columns(&x), &rank_columns(&cols(&R2_Y))).unwrap();
        full.draws.iter().for_each(|d| assert_close(d.value, direct.value));
    }

    fn ctx() -> Context {
        let scope = Scope { table: "P", quasi_identifiers: vec![], sensitive: None, attribute: None, subset: None };
        Context { family: "permutation", scope, params: json!({}) }
    }

    fn names(m: usize) -> Vec<String> {
        (0..m).map(|j| format!("a{j}")).collect()
    }

    fn find<'a>(out: &'a [MetricResult], id: &str) -> &'a MetricResult {
        out.iter().find(|r| r.id == id).unwrap()
    }

    #[test]
    fn builder_ok_on_t1() {
        let out = run(&ctx(), &cols(&T1_X), &cols(&T1_Y), &names(2), true);
        let ids: Vec<&str> = out.iter().map(|r| r.id).collect();
        assert_eq!(ids, [REVERSE, REVERSE, "perm_cm1", "perm_cm2", "perm_cm3", "perm_um"]);
        assert!(out.iter().all(|r| r.status == Status::Ok && r.warnings.is_empty()), "{out:?}");
        assert_close(find(&out, "perm_cm1").value.as_f64().unwrap(), 0.08436194337812986);
        assert_close(find(&out, "perm_cm2").value.as_f64().unwrap(), 0.037006578947368696);
        assert_close(find(&out, "perm_cm3").value.as_f64().unwrap(), 0.36);
        assert_close(find(&out, "perm_um").value.as_f64().unwrap(), 8.0 / 9.0);
        assert_eq!(find(&out, "perm_cm3").details["weakest"], "a0");
        let rm = &out[1];
        assert_eq!(rm.scope.attribute.as_deref(), Some("a1"));
        // reference.py reverse_map((10,20,30,50,40), (10,20,40,30,50))
        assert_eq!(rm.details["pi"], json!([1, 2, 5, 3, 4]));
        assert_eq!(rm.details["d"], json!([0, 0, 1, 2, 1]));
        assert_eq!(rm.value, json!({ "mean_d": 0.8, "max_d": 2, "share_d0": 0.4, "mean_abs_e": 0.0 }));
    }

    #[test]
    fn builder_unaligned_and_unequal_n() {
        let out = run(&ctx(), &cols(&R2_X), &cols(&R2_Y[..11]), &names(4), false);
        for r in out.iter().filter(|r| r.id == REVERSE || PAIRED.contains(&r.id)) {
            assert_eq!((r.status, r.reason), (Status::Error, Some("row_count_mismatch")));
        }
        assert_close(find(&out, "perm_um").value.as_f64().unwrap(), 0.9273575944693968);
        let c3 = find(&out, "perm_cm3");
        assert_eq!((c3.status, c3.details["seed"].as_u64()), (Status::Ok, Some(DEFAULT_SEED)));
        assert_eq!(c3.value.as_f64(), Some(cm3_subsampled(&cols(&R2_X), &cols(&R2_Y[..11]), DEFAULT_SEED).unwrap().mean));
        let seeded = Context { params: json!({ "seed": 7 }), ..ctx() };
        let out7 = run(&seeded, &cols(&R2_X), &cols(&R2_Y[..11]), &names(4), false);
        assert_eq!(find(&out7, "perm_cm3").details["seed"], 7);
    }

    #[test]
    fn builder_listwise_deletion() {
        let mut x = cols(&R2_X);
        let mut y = cols(&R2_Y);
        x[1][3] = f64::NAN;
        y[2][7] = f64::INFINITY;
        y[0][3] = f64::NAN;
        let out = run(&ctx(), &x, &y, &names(4), true);
        let cm1_r = find(&out, "perm_cm1");
        assert_eq!(cm1_r.details["dropped"], json!({ "pairs": 2 }));
        assert_eq!(cm1_r.details["n"], 13);
        let keep: Vec<usize> = (0..15).filter(|&i| i != 3 && i != 7).collect();
        let rho = canonical_correlations(&rank_columns(&select(&x, &keep)), &rank_columns(&select(&y, &keep))).unwrap();
        assert_close(cm1_r.value.as_f64().unwrap(), cm1(&rho));
        // per table: X loses row 3, Y rows 3 and 7 -> unequal n, CM3 subsampled
        let u = find(&out, "perm_um");
        assert_eq!(u.details["dropped"], json!({ "original": 1, "released": 2 }));
        let rows_y: Vec<usize> = (0..15).filter(|&i| i != 3 && i != 7).collect();
        let rows_x: Vec<usize> = (0..15).filter(|&i| i != 3).collect();
        let expected = um(&rank_columns(&select(&x, &rows_x)), &rank_columns(&select(&y, &rows_y))).unwrap();
        assert_eq!(u.value.as_f64(), Some(expected));
        assert!(find(&out, "perm_cm3").details["sd"].is_number());
    }

    #[test]
    fn builder_edge_cases() {
        // m = 1: CM1 = CM2 = 1 - r_s^2, CM3 and UM not applicable
        let out = run(&ctx(), &cols(&T1_X)[..1], &cols(&T1_Y)[..1], &names(1), true);
        assert_close(find(&out, "perm_cm1").value.as_f64().unwrap(), 0.36);
        assert_close(find(&out, "perm_cm2").value.as_f64().unwrap(), 0.36);
        for id in UNPAIRED {
            assert_eq!((find(&out, id).status, find(&out, id).reason), (Status::NotApplicable, Some("single_attribute")));
        }
        // n < 3 after deletion
        let x = cols(&[&[1., 2.], &[2., 1.], &[f64::NAN, 3.]]);
        let out = run(&ctx(), &x, &x, &names(2), true);
        assert!(out.iter().all(|r| (r.status, r.reason) == (Status::NotApplicable, Some("too_few_rows"))), "{out:?}");
        // no variance in X
        let flat = vec![vec![1.0; 5], vec![2.0; 5]];
        let out = run(&ctx(), &flat, &cols(&T1_Y), &names(2), true);
        assert!(out.iter().all(|r| (r.status, r.reason) == (Status::Error, Some("no_variance_original"))), "{out:?}");
        // no variance in Y: UM 0, CM1 = CM2 = 1 with a warning, CM3 = 1
        let out = run(&ctx(), &cols(&T1_X), &flat, &names(2), true);
        for (id, v) in [("perm_cm1", 1.0), ("perm_cm2", 1.0), ("perm_cm3", 1.0), ("perm_um", 0.0)] {
            assert_eq!(find(&out, id).value.as_f64(), Some(v), "{id}");
        }
        for id in ["perm_cm1", "perm_cm2", "perm_cm3"] {
            assert_eq!(find(&out, id).warnings, ["rank_deficient"], "{id}");
        }
        // empty tables, no attributes
        let out = run(&ctx(), &[vec![], vec![]], &[vec![], vec![]], &names(2), true);
        assert!(out.iter().all(|r| (r.status, r.reason) == (Status::EmptyInput, Some("no_records_in_scope"))));
        let out = run(&ctx(), &[], &[], &[], true);
        assert_eq!(out.len(), 4);
        assert!(out.iter().all(|r| r.reason == Some("no_attributes")));
    }

    #[test]
    fn builder_reverse_mapping_summaries_only_for_large_n() {
        let x: Vec<f64> = (0..60).map(|i| ((i * 37) % 60) as f64).collect();
        let y: Vec<f64> = x.iter().map(|v| v + if (*v as i64) % 2 == 0 { 1.5 } else { -1.5 }).collect();
        let out = run(&ctx(), std::slice::from_ref(&x), &[y], &names(1), true);
        let rm = find(&out, REVERSE);
        assert_eq!(rm.details, json!({ "n": 60, "dropped": { "pairs": 0 } }));
        assert_eq!(rm.value, json!({ "mean_d": 1.0, "max_d": 1, "share_d0": 0.0, "mean_abs_e": 0.5 }));
        let small = run(&ctx(), &[x[..50].to_vec()], &[x[..50].to_vec()], &names(1), true);
        assert_eq!(find(&small, REVERSE).details["d"], json!(vec![0; 50]));
    }

    /// Small tables with many ties (values 0..4) or continuous values.
    fn table() -> impl Strategy<Value = (Matrix, Matrix)> {
        (3usize..25, 1usize..5, any::<bool>()).prop_flat_map(|(n, m, ties)| {
            let cell = if ties { (0u8..5).prop_map(f64::from).boxed() } else { (-1e3..1e3f64).boxed() };
            let col = || proptest::collection::vec(proptest::collection::vec(cell.clone(), n), m);
            (col(), col())
        })
    }

    proptest! {
        #[test]
        fn metrics_are_bounded_and_self_comparison_is_perfect((x, y) in table()) {
            let (rx, ry) = (rank_columns(&x), rank_columns(&y));
            prop_assume!(!no_variance(&x));
            let rho = canonical_correlations(&rx, &ry).unwrap_or_default();
            let (c1, c2) = (cm1(&rho), cm2(&rho));
            prop_assert!((0.0..=1.0).contains(&c1) && (0.0..=1.0).contains(&c2) && c2 <= c1 + 1e-12);
            prop_assert!((0.0..=1.0).contains(&um(&rx, &ry).unwrap()));
            if let Some(c3) = cm3(&rx, &ry) {
                prop_assert!(c3.c.iter().all(|c| (0.0..=1.0).contains(c)));
            }
            let self_rho = canonical_correlations(&rx, &rx).unwrap();
            prop_assert_eq!(cm1(&self_rho), 0.0);
            prop_assert_eq!(cm2(&self_rho), 0.0);
            prop_assert_eq!(um(&rx, &rx), Some(1.0));
            if x.len() >= 2 {
                prop_assert_eq!(cm3(&rx, &rx).unwrap().value, 0.0);
            }
            for (xc, yc) in x.iter().zip(&y) {
                let rm = reverse_mapping(xc, yc);
                let (mut z, mut xs) = (rm.z.clone(), xc.clone());
                z.sort_by(|a, b| a.total_cmp(b));
                xs.sort_by(|a, b| a.total_cmp(b));
                prop_assert_eq!(z, xs);
            }
        }
    }

    /// Census IPSO releases (shared/data/README.md): the means over the twenty releases must lie
    /// near the permutation-model paper's Table 1 values.
    #[test]
    fn census_ipso_means_match_paper() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/census-ipso/");
        let attrs = ["FICA", "FEDTAX", "INTVAL", "POTHVAL"];
        let load = |file: &str| -> std::collections::BTreeMap<u64, Vec<f64>> {
            let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
            let mut lines = text.lines();
            let header: Vec<&str> = lines.next().unwrap().split(',').collect();
            let pos = |c: &str| header.iter().position(|h| *h == c).unwrap();
            let (id, at): (usize, Vec<usize>) = (pos("record_id"), attrs.iter().map(|a| pos(a)).collect());
            lines
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let f: Vec<&str> = l.split(',').collect();
                    (f[id].parse().unwrap(), at.iter().map(|&j| f[j].parse().unwrap()).collect())
                })
                .collect()
        };
        let original = load("original.csv");
        let as_cols =
            |t: &std::collections::BTreeMap<u64, Vec<f64>>| -> Matrix { (0..attrs.len()).map(|j| original.keys().map(|k| t[k][j]).collect()).collect() };
        let x = as_cols(&original);
        assert_eq!(x[0].len(), 1080);
        let names: Vec<String> = attrs.iter().map(|a| a.to_string()).collect();
        let itself = run(&ctx(), &x, &x, &names, true);
        for (id, v) in [("perm_um", 1.0), ("perm_cm1", 0.0), ("perm_cm2", 0.0), ("perm_cm3", 0.0)] {
            assert_eq!(find(&itself, id).value.as_f64(), Some(v), "{id} of the original against itself");
        }
        let mut sums = [0.0; 4];
        for r in 1..=20 {
            let release = load(&format!("ipso-{r:02}.csv"));
            assert_eq!(release.len(), original.len());
            let out = run(&ctx(), &x, &as_cols(&release), &names, true);
            for (s, id) in sums.iter_mut().zip(["perm_um", "perm_cm1", "perm_cm2", "perm_cm3"]) {
                *s += find(&out, id).value.as_f64().unwrap() / 20.0;
            }
        }
        let [um_, cm1_, cm2_, cm3_] = sums;
        let msg = format!("means over 20 releases: UM {um_:.4} CM1 {cm1_:.4} CM2 {cm2_:.4} CM3 {cm3_:.4} (paper 0.9638, 0.9904, 0.9849, 0.6673)");
        assert!((um_ - 0.9638).abs() <= 0.005, "{msg}");
        assert!((cm1_ - 0.9904).abs() <= 0.005, "{msg}");
        assert!((cm2_ - 0.9849).abs() <= 0.006, "{msg}");
        assert!((cm3_ - 0.6673).abs() <= 0.02, "{msg}");
        // reference.py (ranks, cm12, cm3, um) on the same files
        let reference = [0.964139988026834, 0.9914676321832238, 0.9859918207498504, 0.6561854168570695];
        sums.iter().zip(reference).for_each(|(&got, r)| assert_close(got, r));
    }
}
