//! Numeric helpers shared by every metric family (spec README Sec 9).

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
