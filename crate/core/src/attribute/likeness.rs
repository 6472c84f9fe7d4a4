//! beta-likeness, delta-disclosure and (alpha,k)-anonymity (spec attribute-risk.md Sec 4-6):
//! how much a class raises or lowers the share of a sensitive value against the table.

use super::distribution::{ClassDist, Distributions};

/// Per-class figures.
#[derive(Debug, Clone, Copy, Default)]
pub struct Likeness {
    /// `max (P - Q)/Q` over values with `P > Q` (0 if none).
    pub beta: f64,
    /// Pairs with `(P - Q)/Q > -ln Q` (enhanced beta-likeness cannot hold for them).
    pub violations: u64,
    /// `max |ln(P/Q)|` over values of the class.
    pub delta: f64,
    /// `max P`.
    pub alpha: f64,
}

/// The figures of one class. (Maxima by comparison, not `f64::max`, a library call in wasm:
/// no value here is NaN.) beta and delta skip the values with `Q(v) = 0`, possible only with
/// `t_reference = original` (Sec 1; the caller lists them in `details.unseen_values`).
pub fn of(d: &ClassDist<'_>, dist: &Distributions) -> Likeness {
    let mut l = Likeness::default();
    for &(v, w) in d.counts {
        let (p, q) = (w / d.total, dist.q(v));
        if p > l.alpha {
            l.alpha = p;
        }
        if q == 0.0 {
            continue;
        }
        if p > q {
            let b = (p - q) / q;
            if b > l.beta {
                l.beta = b;
            }
            // Spec Sec 4 allows (P - Q)/Q <= -ln Q; compare with a relative tolerance.
            if b > dist.neg_ln_q[v as usize] * (1.0 + 1e-12) {
                l.violations += 1;
            }
        }
        if p > 0.0 {
            // (The same figure as `log(p / q)` with p = 1, taken from the table.)
            let delta = if p == 1.0 { dist.delta_whole[v as usize] } else { libm::log(p / q).abs() };
            if delta > l.delta {
                l.delta = delta;
            }
        }
    }
    l
}
