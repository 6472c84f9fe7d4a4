//! Linear regression (spec synthetic.md Sec 8, after SDNist's `metrics/regression.py:13-163`
//! and `report/score/utility/linear_regression.py`): the OLS line of `y` on `x` (scipy
//! `linregress`) in `O` and in `P`, for all rows (Total) and for each subgroup (a combination
//! of the values of the group columns that `O` holds), with record counts; and for all rows,
//! the density matrices (per `x` value, the distribution of `y`, normalised only when that
//! `x` has at least `min_rows` rows, else zeros) of `O` and `P` and their difference `O - P`.
//!
//! `x` and `y` are coded as in Sec 1.4. A row missing `x`, `y` or a group value (blank, `*`,
//! or not a number in a numeric column) is dropped. Every sum runs over the distinct
//! `(group, x, y)` cells in sorted order: `O(n)` hashing, and the result does not depend on
//! the order of the rows.

use std::cmp::Ordering;

use super::coded::codes;
use super::columns::SynColumn;
use super::tuples::tuple_ids;
use crate::hash::{Map, map};
use crate::table::dictionary::{MISSING, SUPPRESSED};

/// An OLS line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// `cov(x, y) / var(x)`.
    pub slope: f64,
    /// `mean(y) - slope mean(x)`.
    pub intercept: f64,
}

/// One table's rows of a subgroup and their line (`None` with fewer than 2 rows or 2
/// distinct `x`; SDNist prints 0 there).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Side {
    /// Rows.
    pub rows: u64,
    /// The line.
    pub fit: Option<Fit>,
}

/// A subgroup (or the total, with no values).
#[derive(Debug, Clone, PartialEq)]
pub struct Subgroup {
    /// Per group column, the value id.
    pub values: Vec<u32>,
    /// In `O`.
    pub original: Side,
    /// In `P`.
    pub released: Side,
}

/// The regression's results.
#[derive(Debug, Clone, PartialEq)]
pub struct Regression {
    /// All the kept rows.
    pub total: Subgroup,
    /// The subgroups `O` holds, in the order of their values.
    pub groups: Vec<Subgroup>,
    /// The distinct `x` codes of the kept rows of `O` and `P`, ascending.
    pub x_values: Vec<f64>,
    /// The distinct `y` codes, ascending.
    pub y_values: Vec<f64>,
    /// Per `x` value, per `y` value: `O`'s share.
    pub density_original: Vec<Vec<f64>>,
    /// The same for `P`.
    pub density_released: Vec<Vec<f64>>,
    /// `O - P`.
    pub density_diff: Vec<Vec<f64>>,
    /// Rows dropped for a missing value, in `O` and in `P`.
    pub dropped: (u64, u64),
}

/// Whether value id `v` of `c` is missing for the regression.
fn missing(c: &SynColumn, v: u32) -> bool {
    v == MISSING || v == SUPPRESSED || (c.numeric && c.numbers[v as usize].is_none())
}

/// Per value id of `c`, the rank of its code among the codes of the kept rows, and those
/// codes ascending.
fn ranks(c: &SynColumn, kept_o: &[bool], kept_p: &[bool]) -> (Vec<u32>, Vec<f64>) {
    let code = codes(c);
    let mut held = vec![false; c.n_values()];
    c.o.iter().zip(kept_o).chain(c.p.iter().zip(kept_p)).filter(|(_, k)| **k).for_each(|(&v, _)| held[v as usize] = true);
    let mut distinct: Vec<f64> = (0..c.n_values()).filter(|&v| held[v]).map(|v| code[v]).collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup_by(|a, b| a.total_cmp(b).is_eq());
    let rank = code.iter().map(|x| distinct.binary_search_by(|d| d.total_cmp(x)).map_or(0, |i| i as u32)).collect();
    (rank, distinct)
}

/// The OLS line over `(x rank, y rank, rows)` cells, as scipy's `linregress`
/// (`np.cov(x, y, bias=1)`).
fn fit(cells: &[(u32, u32, u64)], xs: &[f64], ys: &[f64]) -> Side {
    let n: u64 = cells.iter().map(|c| c.2).sum();
    let mut distinct_x = 0;
    let mut last = None;
    for c in cells.iter().filter(|c| c.2 > 0) {
        if last != Some(c.0) {
            distinct_x += 1;
            last = Some(c.0);
        }
    }
    if n < 2 || distinct_x < 2 {
        return Side { rows: n, fit: None };
    }
    let nf = n as f64;
    let xm = cells.iter().map(|&(x, _, c)| c as f64 * xs[x as usize]).sum::<f64>() / nf;
    let ym = cells.iter().map(|&(_, y, c)| c as f64 * ys[y as usize]).sum::<f64>() / nf;
    let sxx: f64 = cells.iter().map(|&(x, _, c)| c as f64 * (xs[x as usize] - xm) * (xs[x as usize] - xm)).sum::<f64>() / nf;
    let sxy: f64 = cells.iter().map(|&(x, y, c)| c as f64 * (xs[x as usize] - xm) * (ys[y as usize] - ym)).sum::<f64>() / nf;
    let slope = sxy / sxx;
    Side { rows: n, fit: Some(Fit { slope, intercept: ym - slope * xm }) }
}

/// The regression of `y` on `x`, with subgroups over `groups` (possibly none); a density
/// row needs `min_rows` rows.
pub fn regression(x: &SynColumn, y: &SynColumn, groups: &[&SynColumn], min_rows: u32) -> Regression {
    let all: Vec<&SynColumn> = [x, y].into_iter().chain(groups.iter().copied()).collect();
    let keep = |rows: fn(&SynColumn) -> &[u32]| -> Vec<bool> {
        let n = rows(x).len();
        (0..n).map(|i| all.iter().all(|c| !missing(c, rows(c)[i]))).collect()
    };
    let kept_o = keep(|c| &c.o);
    let kept_p = keep(|c| &c.p);
    let (x_rank, xs) = ranks(x, &kept_o, &kept_p);
    let (y_rank, ys) = ranks(y, &kept_o, &kept_p);
    let pairs: Vec<(&[u32], &[u32])> = groups.iter().map(|c| (c.o.as_slice(), c.p.as_slice())).collect();
    let (go, gp, n_groups) = tuple_ids(&pairs, x.o.len(), x.p.len());
    // Per cell (tuple, x rank, y rank): rows of O and of P; per tuple, its values.
    let mut cells: Map<(u32, u32, u32), [u64; 2]> = map();
    let mut values: Vec<Option<Vec<u32>>> = vec![None; n_groups];
    let mut count = |side: usize, g: &[u32], xv: &[u32], yv: &[u32], kept: &[bool], rows: fn(&SynColumn) -> &[u32]| {
        for i in (0..kept.len()).filter(|&i| kept[i]) {
            cells.entry((g[i], x_rank[xv[i] as usize], y_rank[yv[i] as usize])).or_default()[side] += 1;
            if side == 0 && values[g[i] as usize].is_none() {
                values[g[i] as usize] = Some(groups.iter().map(|c| rows(c)[i]).collect());
            }
        }
    };
    count(0, &go, &x.o, &y.o, &kept_o, |c| &c.o);
    count(1, &gp, &x.p, &y.p, &kept_p, |c| &c.p);
    // The groups O holds, ordered by their values column after column.
    let mut present: Vec<u32> = (0..n_groups as u32).filter(|&g| values[g as usize].is_some()).collect();
    let order = |a: &u32, b: &u32| -> Ordering {
        let (va, vb) = (values[*a as usize].as_ref().expect("present"), values[*b as usize].as_ref().expect("present"));
        groups.iter().zip(va.iter().zip(vb)).map(|(c, (&p, &q))| c.order(p, q)).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
    };
    present.sort_by(order);
    let mut position = vec![u32::MAX; n_groups];
    present.iter().enumerate().for_each(|(i, &g)| position[g as usize] = i as u32);
    let mut sorted: Vec<((u32, u32, u32), [u64; 2])> = cells.into_iter().collect();
    sorted.sort_unstable_by_key(|&((g, a, b), _)| (position[g as usize], a, b));
    // The total: the cells over every group (P's rows of groups O lacks included).
    let mut total_cells: Vec<(u32, u32, [u64; 2])> = sorted.iter().map(|&((_, a, b), c)| (a, b, c)).collect();
    total_cells.sort_unstable_by_key(|c| (c.0, c.1));
    let mut merged: Vec<(u32, u32, [u64; 2])> = Vec::with_capacity(total_cells.len());
    for (a, b, c) in total_cells {
        match merged.last_mut() {
            Some(last) if last.0 == a && last.1 == b => {
                last.2[0] += c[0];
                last.2[1] += c[1];
            }
            _ => merged.push((a, b, c)),
        }
    }
    let side = |cells: &[(u32, u32, [u64; 2])], s: usize| fit(&cells.iter().map(|&(a, b, c)| (a, b, c[s])).collect::<Vec<_>>(), &xs, &ys);
    let total = Subgroup { values: Vec::new(), original: side(&merged, 0), released: side(&merged, 1) };
    let mut out_groups = Vec::new();
    let mut start = 0;
    while start < sorted.len() {
        let g = (sorted[start].0).0;
        let end = start + sorted[start..].iter().take_while(|c| (c.0).0 == g).count();
        if position[g as usize] != u32::MAX {
            let cells: Vec<(u32, u32, [u64; 2])> = sorted[start..end].iter().map(|&((_, a, b), c)| (a, b, c)).collect();
            out_groups.push(Subgroup { values: values[g as usize].clone().unwrap_or_default(), original: side(&cells, 0), released: side(&cells, 1) });
        }
        start = end;
    }
    let density = |s: usize| -> Vec<Vec<f64>> {
        let mut m = vec![vec![0.0; ys.len()]; xs.len()];
        let mut row_total = vec![0u64; xs.len()];
        for &(a, b, c) in &merged {
            m[a as usize][b as usize] = c[s] as f64;
            row_total[a as usize] += c[s];
        }
        for (row, &t) in m.iter_mut().zip(&row_total) {
            let keep = t > 0 && t >= u64::from(min_rows);
            row.iter_mut().for_each(|v| *v = if keep { *v / t as f64 } else { 0.0 });
        }
        m
    };
    let (density_original, density_released) = (density(0), density(1));
    let density_diff = density_original.iter().zip(&density_released).map(|(a, b)| a.iter().zip(b).map(|(a, b)| a - b).collect()).collect();
    let dropped = ((kept_o.iter().filter(|k| !**k).count()) as u64, (kept_p.iter().filter(|k| !**k).count()) as u64);
    Regression { total, groups: out_groups, x_values: xs, y_values: ys, density_original, density_released, density_diff, dropped }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::table::kind::Kind;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    fn column(kind: Kind, o: &[&str], p: &[&str]) -> SynColumn {
        let settings = AttributeSettings { kind: Some(kind), ..AttributeSettings::default() };
        SynColumn::new("c", &Column::of(o), &Column::of(p), None, settings, &Normaliser::default())
    }

    #[test]
    fn a_line_by_hand() {
        // O: (1, 2) (2, 4) (3, 5): slope 1.5, intercept 11/3 - 1.5 * 2 = 2/3.
        // P: (1, 1) (1, 3): one x, no line. A blank y drops a row.
        let x = column(Kind::Numeric, &["1", "2", "3", "4"], &["1", "1"]);
        let y = column(Kind::Numeric, &["2", "4", "5", ""], &["1", "3"]);
        let r = regression(&x, &y, &[], 20);
        let f = r.total.original.fit.unwrap();
        assert!((f.slope - 1.5).abs() < 1e-12 && (f.intercept - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.total.original.rows, 3);
        assert_eq!(r.total.released, Side { rows: 2, fit: None });
        assert_eq!(r.dropped, (1, 0));
        assert_eq!(r.x_values, [1.0, 2.0, 3.0]);
        // No x has 20 rows: all zeros.
        assert!(r.density_original.iter().flatten().all(|&v| v == 0.0));
    }

    #[test]
    fn density_rows_are_normalised_from_min_rows() {
        // x = 1: y (1, 1, 2) in O: shares 2/3, 1/3; P: y (2): share 1; x = 2 has one row.
        let x = column(Kind::Numeric, &["1", "1", "1", "2"], &["1", "2"]);
        let y = column(Kind::Numeric, &["1", "1", "2", "2"], &["2", "1"]);
        let r = regression(&x, &y, &[], 1);
        assert_eq!(r.density_original, [vec![2.0 / 3.0, 1.0 / 3.0], vec![0.0, 1.0]]);
        assert_eq!(r.density_released, [vec![0.0, 1.0], vec![1.0, 0.0]]);
        assert_eq!(r.density_diff[0], [2.0 / 3.0, 1.0 / 3.0 - 1.0]);
        let r = regression(&x, &y, &[], 2);
        assert_eq!(r.density_original[1], [0.0, 0.0]);
        assert_eq!(r.density_released, [vec![0.0; 2], vec![0.0; 2]]);
    }

    #[test]
    fn subgroups_are_those_of_o_in_value_order() {
        // Group b: O (1, 1) (2, 3): slope 2; group a: O (1, 0) (3, 0): slope 0; P's group c
        // is not a subgroup but counts in the total.
        let x = column(Kind::Numeric, &["1", "2", "1", "3"], &["1", "2", "5"]);
        let y = column(Kind::Numeric, &["1", "3", "0", "0"], &["1", "1", "9"]);
        let g = column(Kind::Categorical, &["b", "b", "a", "a"], &["b", "b", "c"]);
        let r = regression(&x, &y, &[&g], 20);
        assert_eq!(r.groups.len(), 2);
        assert_eq!(g.labels[r.groups[0].values[0] as usize].as_deref(), Some("a"));
        assert_eq!(r.groups[0].original.fit.map(|f| f.slope), Some(0.0));
        assert_eq!(r.groups[1].original.fit.map(|f| f.slope), Some(2.0));
        assert_eq!(r.groups[0].released.rows, 0);
        assert_eq!(r.groups[1].released.fit.map(|f| f.slope), Some(0.0));
        assert_eq!(r.total.released.rows, 3);
    }
}
