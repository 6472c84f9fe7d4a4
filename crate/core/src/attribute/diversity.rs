//! l-diversity: distinct, entropy and recursive (c,l) (spec attribute-risk.md Sec 2).

use super::distribution::ClassDist;

/// Per-class l-diversity figures.
pub struct Diversity {
    /// Distinct values in the class.
    pub distinct: usize,
    /// `exp(H_C)`, the effective number of values.
    pub entropy_l: f64,
    /// `r_1 / sum_{i>=l} r_i` for the given `l`; `None` when the class has fewer than `l` values.
    pub c_star: Option<f64>,
    /// The largest `l` satisfied with the given `c` (1 if none).
    pub l_for_c: usize,
}

/// The figures of one class for recursive parameters `l` and `c`; `r` and `tail` are scratch
/// space reused across classes.
pub fn of(d: &ClassDist<'_>, l: usize, c: f64, (r, tail): (&mut Vec<f64>, &mut Vec<f64>)) -> Diversity {
    r.clear();
    r.extend(d.counts.iter().map(|x| x.1).filter(|&w| w > 0.0));
    r.sort_unstable_by(|a, b| b.total_cmp(a));
    let h: f64 = -r.iter().map(|&w| w / d.total).map(|p| p * libm::log(p)).sum::<f64>();
    // tail[i] = r_i + ... + r_m (0-based), so r_l + ... = tail[l - 1].
    tail.clear();
    tail.resize(r.len() + 1, 0.0);
    for i in (0..r.len()).rev() {
        tail[i] = tail[i + 1] + r[i];
    }
    let c_star = (l >= 1 && r.len() >= l).then(|| r[0] / tail[l - 1]);
    let l_for_c = (1..=r.len()).rev().find(|&ll| r[0] < c * tail[ll - 1]).unwrap_or(1);
    Diversity { distinct: r.len(), entropy_l: libm::exp(h), c_star, l_for_c }
}

/// `floor(x + 1e-9)` (spec README Sec 9).
pub fn floor_tolerant(x: f64) -> f64 {
    (x + 1e-9).floor()
}
