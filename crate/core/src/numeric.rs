//! Numeric helpers shared by every metric family (spec README Sec 9).

/// Whether two values are equal up to rounding (relative `1e-12`, absolute below 1): the same
/// figure summed in another order must not decide a choice or a worst case.
pub fn ties(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0)
}

/// Neumaier compensated sum (spec README Sec 9).
pub fn neumaier(values: impl IntoIterator<Item = f64>) -> f64 {
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for v in values {
        let t = sum + v;
        comp += if sum.abs() >= v.abs() { (sum - t) + v } else { (v - t) + sum };
        sum = t;
    }
    sum + comp
}
