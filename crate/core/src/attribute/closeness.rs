//! t-closeness: the earth mover's distance between a class's SA distribution and the whole
//! table's (spec attribute-risk.md Sec 3), with the equal ground distance (nominal SAs) and
//! the ordered one (numeric and ordinal SAs); the hierarchical one is in `hierarchical.rs`.
//!
//! The ordered distance touches only the class's own values: between two of them the class's
//! cumulative share is constant, and the table's cumulative share is non-decreasing, so each
//! stretch is summed in closed form after one binary search. A class costs `O(m_C log |V|)`,
//! not `O(|V|)`, which bounds the cost with hundreds of categories.

use super::distribution::{ClassDist, Distributions};
use crate::numeric::at_least_zero;

/// `D_eq(P_C, Q) = 1/2 (sum_{v in C} |P - Q| + 1 - sum_{v in C} Q(v))`.
pub fn equal(d: &ClassDist<'_>, dist: &Distributions) -> f64 {
    let (mut diff, mut q_in) = (0.0, 0.0);
    for &(v, w) in d.counts {
        let q = dist.q(v);
        diff += (w / d.total - q).abs();
        q_in += q;
    }
    0.5 * (diff + at_least_zero(1.0 - q_in))
}

/// Precomputed cumulative shares of `Q` along the order of `V`.
pub struct Ordered {
    /// `position[code]` = index of the value in the order (or `usize::MAX`).
    position: Vec<usize>,
    /// `cq[i]` = share of the first `i + 1` values, for `i` in `0..m-1`.
    cq: Vec<f64>,
    /// Prefix sums of `cq`: `s[i] = cq[0] + ... + cq[i-1]`.
    s: Vec<f64>,
}

impl Ordered {
    /// The cumulative shares of `dist`.
    pub fn new(dist: &Distributions) -> Self {
        let m = dist.order.len();
        let mut position = vec![usize::MAX; dist.q_counts.len()];
        for (i, &v) in dist.order.iter().enumerate() {
            position[v as usize] = i;
        }
        let mut cq = Vec::with_capacity(m.saturating_sub(1));
        let mut acc = 0u64;
        for &v in dist.order.iter().take(m.saturating_sub(1)) {
            acc += dist.q_ref[v as usize];
            cq.push(acc as f64 / dist.q_total as f64);
        }
        let mut s = vec![0.0; cq.len() + 1];
        for i in 0..cq.len() {
            s[i + 1] = s[i] + cq[i];
        }
        Ordered { position, cq, s }
    }

    /// `sum_{i in [a, b)} |c - cq[i]|`.
    fn stretch(&self, a: usize, b: usize, c: f64) -> f64 {
        if a >= b {
            return 0.0;
        }
        let t = a + self.cq[a..b].partition_point(|&x| x < c);
        c * (t - a) as f64 - (self.s[t] - self.s[a]) + (self.s[b] - self.s[t]) - c * (b - t) as f64
    }

    /// `D_ord(P_C, Q) = 1/(m-1) sum_{i=1}^{m-1} |sum_{k<=i} (P(v_k) - Q(v_k))|`; `at` is
    /// scratch space reused across classes.
    pub fn distance(&self, d: &ClassDist<'_>, at: &mut Vec<(usize, f64)>) -> f64 {
        let steps = self.cq.len();
        if steps == 0 {
            return 0.0;
        }
        at.clear();
        at.extend(d.counts.iter().map(|&(v, w)| (self.position[v as usize], w / d.total)));
        at.sort_unstable_by_key(|x| x.0);
        let (mut sum, mut cp, mut from) = (0.0, 0.0, 0usize);
        for &(pos, p) in at.iter() {
            // Indices from..pos have the class share cp; from pos on it includes p.
            sum += self.stretch(from, pos.min(steps), cp);
            cp += p;
            from = pos.min(steps);
        }
        sum += self.stretch(from, steps, cp);
        // The closed form cancels terms; a class equal to the table can land just below 0.
        at_least_zero(sum / steps as f64)
    }
}
