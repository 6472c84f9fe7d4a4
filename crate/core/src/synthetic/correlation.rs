//! Correlation difference (spec synthetic.md Sec 6, after SDNist's
//! `metrics/pearson_correlation.py:25-40` and `report/plots/correlation.py:62-84`): Pearson's
//! `r` (scipy `pearsonr`) and Kendall's tie-adjusted tau-b (pandas `Series.corr(method=
//! 'kendall')`, i.e. scipy `kendalltau`) between every two compared columns, coded as in
//! Sec 1.4 and unbinned, in `O` and in `P`, and `diff = P - O`.
//!
//! Both work per distinct pair of codes: a pair of columns is counted into its contingency of
//! distinct `(x, y)` codes, sorted, and every sum runs over those cells in that order. So the
//! cost is `O(n)` per pair plus the cells, and the result does not depend on the order of the
//! rows, bit for bit. Kendall counts its discordant pairs with a Fenwick tree over the `y`
//! codes (Knight's algorithm on the contingency), exactly in integers. The ranked codes and
//! the centred cross moments are shared with the PCA ([`super::pca`]) and the regression.

use super::coded::codes;
use super::columns::SynColumn;

/// The compared columns' codes, ranked: per column, its distinct codes ascending and, per row
/// of `O` and of `P`, the rank of its code.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// Per column, its distinct codes (of the values the rows of `O`, `P` or `H` hold), ascending.
    pub codes: Vec<Vec<f64>>,
    /// Per column, per row of `O`, the rank of its code.
    pub o: Vec<Vec<u32>>,
    /// Per column, per row of `P`.
    pub p: Vec<Vec<u32>>,
}

impl Ranked {
    /// Ranks the codes of `columns` (Sec 1.4), once per value id.
    pub fn new(columns: &[&SynColumn]) -> Self {
        let mut r = Ranked { codes: Vec::new(), o: Vec::new(), p: Vec::new() };
        for c in columns {
            let code = codes(c);
            let mut held = vec![false; c.n_values()];
            c.o.iter().chain(&c.p).chain(&c.h).for_each(|&v| held[v as usize] = true);
            let mut distinct: Vec<f64> = (0..c.n_values()).filter(|&v| held[v]).map(|v| code[v]).collect();
            distinct.sort_by(f64::total_cmp);
            distinct.dedup_by(|a, b| a.total_cmp(b).is_eq());
            let rank: Vec<u32> = code.iter().map(|x| distinct.binary_search_by(|d| d.total_cmp(x)).map_or(0, |i| i as u32)).collect();
            r.o.push(c.o.iter().map(|&v| rank[v as usize]).collect());
            r.p.push(c.p.iter().map(|&v| rank[v as usize]).collect());
            r.codes.push(distinct);
        }
        r
    }
}

/// One table's moments over the ranked columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Moments {
    /// Rows.
    pub n: u64,
    /// Per column, the mean of its codes.
    pub mean: Vec<f64>,
    /// Per column, how many distinct codes the table holds (fewer than 2: constant).
    pub distinct: Vec<usize>,
    /// `d x d`, row-major: `sum (x_a - mean_a)(x_b - mean_b)` over the rows (unscaled).
    pub cross: Vec<f64>,
    /// `d x d`, row-major, when asked: Kendall's tau-b, `None` for a constant column.
    pub kendall: Option<Vec<Option<f64>>>,
}

impl Moments {
    /// Pearson's `r` of columns `a` and `b` (1 on the diagonal), `None` when either is
    /// constant (scipy's NaN, Sec 6); clipped to [-1, 1] as scipy does.
    pub fn pearson(&self, a: usize, b: usize) -> Option<f64> {
        let d = self.mean.len();
        if self.distinct[a] < 2 || self.distinct[b] < 2 {
            return None;
        }
        if a == b {
            return Some(1.0);
        }
        let r = self.cross[a * d + b] / (self.cross[a * d + a] * self.cross[b * d + b]).sqrt();
        Some(r.clamp(-1.0, 1.0))
    }
}

/// The cells of a pair's contingency: `(x rank, y rank, rows)`, sorted by `x` then `y`.
/// `scratch` is reused between pairs.
fn cells(x: &[u32], mx: usize, y: &[u32], my: usize, scratch: &mut Scratch) {
    scratch.cells.clear();
    let n = x.len();
    if mx.saturating_mul(my) <= 4 * n + 65_536 {
        // Dense: one counter per possible cell, scanned in order and zeroed again.
        scratch.dense.resize(mx * my, 0);
        x.iter().zip(y).for_each(|(&a, &b)| scratch.dense[a as usize * my + b as usize] += 1);
        for (i, c) in scratch.dense[..mx * my].iter_mut().enumerate() {
            if *c > 0 {
                scratch.cells.push(((i / my) as u32, (i % my) as u32, *c));
                *c = 0;
            }
        }
    } else {
        scratch.keys.clear();
        scratch.keys.extend(x.iter().zip(y).map(|(&a, &b)| (u64::from(a) << 32) | u64::from(b)));
        scratch.keys.sort_unstable();
        for &k in &scratch.keys {
            let (a, b) = ((k >> 32) as u32, k as u32);
            match scratch.cells.last_mut() {
                Some(last) if last.0 == a && last.1 == b => last.2 += 1,
                _ => scratch.cells.push((a, b, 1)),
            }
        }
    }
}

/// Buffers reused from one pair of columns to the next (no allocation per cell).
#[derive(Default)]
struct Scratch {
    dense: Vec<u64>,
    keys: Vec<u64>,
    cells: Vec<(u32, u32, u64)>,
    fenwick: Vec<u64>,
}

/// `t (t - 1) / 2` summed over the counts: the pairs of rows tied within each.
fn ties(counts: impl Iterator<Item = u64>) -> u64 {
    counts.map(|t| t * t.saturating_sub(1) / 2).sum()
}

/// Kendall's tau-b over the sorted `cells` of `n` rows, as scipy's `kendalltau` (variant b):
/// `(tot - xtie - ytie + ntie - 2 dis) / sqrt(tot - xtie) / sqrt(tot - ytie)`, clipped to
/// [-1, 1]; `None` when either column is constant.
fn kendall(cells: &[(u32, u32, u64)], n: u64, x_counts: &[u64], y_counts: &[u64], fenwick: &mut Vec<u64>) -> Option<f64> {
    let tot = n * n.saturating_sub(1) / 2;
    let (xtie, ytie) = (ties(x_counts.iter().copied()), ties(y_counts.iter().copied()));
    if xtie == tot || ytie == tot {
        return None;
    }
    let ntie = ties(cells.iter().map(|c| c.2));
    fenwick.clear();
    fenwick.resize(y_counts.len() + 1, 0);
    let (mut inserted, mut dis) = (0u64, 0u128);
    let mut start = 0;
    while start < cells.len() {
        let end = start + cells[start..].iter().take_while(|c| c.0 == cells[start].0).count();
        // Rows of smaller x with larger y: discordant with these.
        for &(_, y, c) in &cells[start..end] {
            let mut at_most = 0u64;
            let mut i = y as usize + 1;
            while i > 0 {
                at_most += fenwick[i];
                i &= i - 1;
            }
            dis += u128::from(c) * u128::from(inserted - at_most);
        }
        for &(_, y, c) in &cells[start..end] {
            let mut i = y as usize + 1;
            while i < fenwick.len() {
                fenwick[i] += c;
                i += i & i.wrapping_neg();
            }
            inserted += c;
        }
        start = end;
    }
    let con_minus_dis = i128::from(tot) - i128::from(xtie) - i128::from(ytie) + i128::from(ntie) - 2 * dis as i128;
    let tau = con_minus_dis as f64 / ((tot - xtie) as f64).sqrt() / ((tot - ytie) as f64).sqrt();
    Some(tau.clamp(-1.0, 1.0))
}

/// The moments of one table: `rows[c]` the ranks of column `c`, `codes[c]` its codes per rank;
/// Kendall's tau-b too when `with_kendall`.
pub fn moments(rows: &[Vec<u32>], codes: &[Vec<f64>], with_kendall: bool) -> Moments {
    let d = rows.len();
    let n = rows.first().map_or(0, Vec::len);
    let counts: Vec<Vec<u64>> = rows
        .iter()
        .zip(codes)
        .map(|(r, c)| {
            let mut k = vec![0u64; c.len()];
            r.iter().for_each(|&v| k[v as usize] += 1);
            k
        })
        .collect();
    let mean: Vec<f64> =
        counts.iter().zip(codes).map(|(k, c)| if n == 0 { 0.0 } else { k.iter().zip(c).map(|(&k, &x)| k as f64 * x).sum::<f64>() / n as f64 }).collect();
    let distinct: Vec<usize> = counts.iter().map(|k| k.iter().filter(|&&k| k > 0).count()).collect();
    let mut cross = vec![0.0; d * d];
    let mut kendall_m = with_kendall.then(|| vec![None; d * d]);
    for a in 0..d {
        cross[a * d + a] = counts[a].iter().zip(&codes[a]).map(|(&k, &x)| k as f64 * (x - mean[a]) * (x - mean[a])).sum();
        if let Some(k) = kendall_m.as_mut() {
            k[a * d + a] = (distinct[a] >= 2).then_some(1.0);
        }
    }
    let mut scratch = Scratch::default();
    for a in 0..d {
        for b in a + 1..d {
            cells(&rows[a], codes[a].len(), &rows[b], codes[b].len(), &mut scratch);
            let s: f64 = scratch.cells.iter().map(|&(x, y, c)| c as f64 * (codes[a][x as usize] - mean[a]) * (codes[b][y as usize] - mean[b])).sum();
            cross[a * d + b] = s;
            cross[b * d + a] = s;
            if let Some(k) = kendall_m.as_mut() {
                let tau = kendall(&scratch.cells, n as u64, &counts[a], &counts[b], &mut scratch.fenwick);
                k[a * d + b] = tau;
                k[b * d + a] = tau;
            }
        }
    }
    Moments { n: n as u64, mean, distinct, cross, kendall: kendall_m }
}

/// One correlation's matrices: `d x d` rows, `None` where undefined.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrices {
    /// In `O`.
    pub original: Vec<Vec<Option<f64>>>,
    /// In `P`.
    pub released: Vec<Vec<Option<f64>>>,
    /// `P - O`, `None` when either is.
    pub diff: Vec<Vec<Option<f64>>>,
    /// The mean of `|diff|` over the defined cells above the diagonal (an extension).
    pub mean_abs_diff: Option<f64>,
    /// The largest `|diff|` there and its pair `(a, b)`, `a < b` (the first in row order on ties).
    pub max_abs_diff: Option<(f64, usize, usize)>,
}

impl Matrices {
    fn new(d: usize, o: impl Fn(usize, usize) -> Option<f64>, p: impl Fn(usize, usize) -> Option<f64>) -> Self {
        let grid = |f: &dyn Fn(usize, usize) -> Option<f64>| (0..d).map(|a| (0..d).map(|b| f(a, b)).collect()).collect::<Vec<Vec<_>>>();
        let original = grid(&o);
        let released = grid(&p);
        let diff = grid(&|a, b| Some(released[a][b]? - original[a][b]?));
        let (mut sum, mut count, mut max) = (0.0, 0usize, None::<(f64, usize, usize)>);
        for (a, row) in diff.iter().enumerate() {
            for (b, cell) in row.iter().enumerate().skip(a + 1) {
                if let Some(x) = *cell {
                    sum += x.abs();
                    count += 1;
                    if max.is_none_or(|m| x.abs() > m.0) {
                        max = Some((x.abs(), a, b));
                    }
                }
            }
        }
        Matrices { original, released, diff, mean_abs_diff: (count > 0).then(|| sum / count as f64), max_abs_diff: max }
    }
}

/// Both correlations of Sec 6.
#[derive(Debug, Clone, PartialEq)]
pub struct Correlations {
    /// Pearson's `r`.
    pub pearson: Matrices,
    /// Kendall's tau-b.
    pub kendall: Matrices,
}

/// The correlation difference over `columns` (both tables hold rows).
pub fn correlations(columns: &[&SynColumn]) -> Correlations {
    let ranked = Ranked::new(columns);
    let d = columns.len();
    let o = moments(&ranked.o, &ranked.codes, true);
    let p = moments(&ranked.p, &ranked.codes, true);
    let (ko, kp) = (o.kendall.clone().unwrap_or_default(), p.kendall.clone().unwrap_or_default());
    Correlations {
        pearson: Matrices::new(d, |a, b| o.pearson(a, b), |a, b| p.pearson(a, b)),
        kendall: Matrices::new(d, |a, b| ko[a * d + b], |a, b| kp[a * d + b]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(cols: &[&[f64]]) -> (Vec<Vec<u32>>, Vec<Vec<f64>>) {
        let mut rows = Vec::new();
        let mut codes = Vec::new();
        for c in cols {
            let mut d: Vec<f64> = c.to_vec();
            d.sort_by(f64::total_cmp);
            d.dedup();
            rows.push(c.iter().map(|x| d.binary_search_by(|y| y.total_cmp(x)).unwrap() as u32).collect());
            codes.push(d);
        }
        (rows, codes)
    }

    #[test]
    fn pearson_and_kendall_by_hand() {
        // x = (1, 2, 3, 4), y = (1, 3, 2, 4): r = 0.8; pairs: 5 concordant, 1 discordant,
        // no ties: tau = 4/6.
        let (rows, codes) = ranked(&[&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]]);
        let m = moments(&rows, &codes, true);
        assert!((m.pearson(0, 1).unwrap() - 0.8).abs() < 1e-12);
        assert!((m.kendall.as_ref().unwrap()[1].unwrap() - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(m.pearson(0, 0), Some(1.0));
    }

    #[test]
    fn kendall_tau_b_adjusts_for_ties() {
        // x = (1, 1, 2, 2), y = (1, 2, 2, 3): tot 6, xtie 2, ytie 1, ntie 0; discordant:
        // (x1, y2) before (x2, y2)? no (equal y); none else: dis 0. con - dis = 6-2-1+0 = 3,
        // tau = 3 / sqrt(4) / sqrt(5) (scipy: 0.6708203932).
        let (rows, codes) = ranked(&[&[1.0, 1.0, 2.0, 2.0], &[1.0, 2.0, 2.0, 3.0]]);
        let m = moments(&rows, &codes, true);
        assert!((m.kendall.as_ref().unwrap()[1].unwrap() - 3.0 / 2.0 / 5f64.sqrt()).abs() < 1e-12);
        // Reversed y: tau = -3 / sqrt(20).
        let (rows, codes) = ranked(&[&[1.0, 1.0, 2.0, 2.0], &[3.0, 2.0, 2.0, 1.0]]);
        let m = moments(&rows, &codes, true);
        assert!((m.kendall.as_ref().unwrap()[1].unwrap() + 3.0 / 2.0 / 5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn a_constant_column_has_no_correlation() {
        let (rows, codes) = ranked(&[&[1.0, 2.0, 3.0], &[5.0, 5.0, 5.0]]);
        let m = moments(&rows, &codes, true);
        assert_eq!((m.pearson(0, 1), m.pearson(1, 1)), (None, None));
        assert_eq!(m.kendall.unwrap(), [Some(1.0), None, None, None]);
    }

    #[test]
    fn the_sparse_path_equals_the_dense_one() {
        // 70,000 distinct codes per column: the pair's cells are sorted keys, not a grid.
        let n = 70_000u32;
        let x: Vec<f64> = (0..n).map(f64::from).collect();
        let y: Vec<f64> = (0..n).map(|i| f64::from((i * 7919) % n)).collect();
        let (rows, codes) = ranked(&[&x, &y]);
        let mut s = Scratch::default();
        cells(&rows[0], codes[0].len(), &rows[1], codes[1].len(), &mut s);
        assert_eq!(s.cells.len(), n as usize);
        assert!(s.cells.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        let k = moments(&rows, &codes, true).kendall.unwrap()[1].unwrap();
        assert!((-1.0..=1.0).contains(&k));
    }

    #[test]
    fn the_difference_and_its_summary() {
        let m =
            Matrices::new(3, |a, b| Some(if a == b { 1.0 } else { 0.5 }), |a, b| if a == 2 || b == 2 { None } else { Some(if a == b { 1.0 } else { 0.2 }) });
        assert_eq!(m.diff[0][1], Some(0.2 - 0.5));
        assert_eq!(m.diff[0][2], None);
        assert!((m.mean_abs_diff.unwrap() - 0.3).abs() < 1e-12);
        assert_eq!(m.max_abs_diff.map(|x| (x.1, x.2)), Some((0, 1)));
    }
}
