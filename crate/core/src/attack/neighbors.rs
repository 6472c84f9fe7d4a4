//! Distance and nearest neighbours in the release (spec peer-measures.md Sec 5.5; Anonymeter
//! `mixed_types_kneighbors.py`): a Gower-like distance with numeric terms scaled by the
//! range over `P` and the targets (values divided by `R_a` before subtracting, as Anonymeter
//! does), categorical terms 0 or 1, a blank on either side costing 1; ties go to the lowest
//! row number.

use crate::attack::columns::{AttackColumn, Side};
use crate::table::dictionary::is_blank;

/// One column of the distance, prepared for a set of targets.
enum Term<'a> {
    /// Numeric: per row of `P`, `lo / R` and `hi / R` (NaN when blank or unreadable), and `R`.
    Numeric { col: &'a AttackColumn, lo: Vec<f64>, hi: Vec<f64>, range: f64 },
    /// Categorical.
    Categorical(&'a AttackColumn),
}

/// The distance `d_X` of Sec 5.5 for one set of targets.
pub struct Space<'a> {
    terms: Vec<Term<'a>>,
    n_p: usize,
}

/// The numbers a cell contributes to a column's range: its value, or its interval's ends.
fn ends(col: &AttackColumn, code: u32) -> Option<(f64, f64)> {
    col.interval(code).map(|i| (i.lo, i.hi))
}

impl<'a> Space<'a> {
    /// The distance over `cols` (numeric columns first, then categorical, each in code-point
    /// order of the names) for targets `rows` of table `side`.
    pub fn new(cols: &[&'a AttackColumn], side: Side, rows: &[usize], n_p: usize) -> Self {
        let mut sorted: Vec<&AttackColumn> = cols.to_vec();
        sorted.sort_by(|a, b| (!a.numeric, a.name()).cmp(&(!b.numeric, b.name())));
        let terms = sorted
            .into_iter()
            .map(|col| {
                if !col.numeric {
                    return Term::Categorical(col);
                }
                let p = col.codes(Side::Released);
                let t = col.codes(side);
                let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
                for (lo, hi) in p.iter().chain(rows.iter().map(|&r| &t[r])).filter_map(|&c| ends(col, c)) {
                    min = min.min(lo);
                    max = max.max(hi);
                }
                let range = if max > min { max - min } else { 1.0 };
                let (lo, hi) = p.iter().map(|&c| ends(col, c).map_or((f64::NAN, f64::NAN), |(lo, hi)| (lo / range, hi / range))).unzip();
                Term::Numeric { col, lo, hi, range }
            })
            .collect();
        Space { terms, n_p }
    }

    /// `d_X(t, p)` for the target row `t` of `side` and every row of `P`, added to `out`.
    fn distances(&self, side: Side, t: usize, out: &mut [f64]) {
        out.iter_mut().for_each(|d| *d = 0.0);
        for term in &self.terms {
            match term {
                Term::Numeric { col, lo, hi, range } => {
                    let code = col.codes(side)[t];
                    let x = if is_blank(code) { None } else { col.number(code) };
                    match x {
                        None => out.iter_mut().for_each(|d| *d += 1.0),
                        Some(x) => {
                            let x = x / range;
                            for ((d, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
                                *d += if l.is_nan() { 1.0 } else { (l - x).max(0.0).max(x - h) };
                            }
                        }
                    }
                }
                Term::Categorical(col) => {
                    let o = col.codes(side)[t];
                    let p = col.codes(Side::Released);
                    if is_blank(o) {
                        out.iter_mut().for_each(|d| *d += 1.0);
                        continue;
                    }
                    for (d, &c) in out.iter_mut().zip(p) {
                        let same = c == o || (!is_blank(c) && !col.plain(c) && col.compatible_values(o, c));
                        if !same {
                            *d += 1.0;
                        }
                    }
                }
            }
        }
    }

    /// `N_k(t)`: the first `k` rows of `P` in ascending `(d_X(t, p), row)` order.
    pub fn nearest(&self, side: Side, t: usize, k: usize) -> Vec<usize> {
        let mut d = vec![0.0; self.n_p];
        self.distances(side, t, &mut d);
        let mut best: Vec<(f64, usize)> = Vec::with_capacity(k + 1);
        for (row, &x) in d.iter().enumerate() {
            if best.len() < k || x < best[best.len() - 1].0 {
                let at = best.partition_point(|&(y, _)| y <= x);
                best.insert(at, (x, row));
                best.truncate(k);
            }
        }
        best.into_iter().map(|(_, r)| r).collect()
    }
}
