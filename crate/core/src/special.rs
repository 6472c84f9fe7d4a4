//! Special functions for the population-uniqueness estimators (spec identity-risk.md Sec 7):
//! differences of lgamma, digamma and trigamma, computed directly (recurrence plus the
//! asymptotic series) because at population sizes of a billion the plain difference
//! `lgamma(x + m) - lgamma(x)` loses five digits to rounding.

use std::f64::consts::PI;

/// Bernoulli numbers `B_2 .. B_16` of the asymptotic series.
const BERNOULLI: [f64; 8] = [1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0, 5.0 / 66.0, -691.0 / 2730.0, 7.0 / 6.0, -3617.0 / 510.0];
/// Arguments are shifted up by recurrence to at least this before the series is used
/// (the truncation error there is below `1e-17` relative).
const SERIES_FROM: f64 = 12.0;

/// `sum_k B_2k coef(2k) y^-(first + 2k - 2)`, `k = 1..8`.
pub(crate) fn series(y: f64, first: i32, coef: impl Fn(f64) -> f64) -> f64 {
    let (step, mut p) = (1.0 / (y * y), y.powi(-first));
    let mut sum = 0.0;
    for (k, b) in BERNOULLI.iter().enumerate() {
        sum += b * coef(2.0 * (k as f64 + 1.0)) * p;
        p *= step;
    }
    sum
}

/// `lgamma(x+m) - lgamma(x)` for `x > 0`, `m >= 0`, from Stirling's series.
pub(crate) fn ln_gamma_diff(mut x: f64, m: f64) -> f64 {
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc -= libm::log1p(m / x);
        x += 1.0;
    }
    let (y, tail) = (x + m, |k: f64| 1.0 / (k * (k - 1.0)));
    acc + (x - 0.5) * libm::log1p(m / x) + m * libm::log(y) - m + (series(y, 1, tail) - series(x, 1, tail))
}

/// `psi(x+m) - psi(x)` (`= sum_{k<m} 1/(x+k)` for integer `m >= 0`).
pub(crate) fn digamma_diff(mut x: f64, m: f64) -> f64 {
    if x <= 0.0 {
        return digamma(x + m) - digamma(x);
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc += 1.0 / x - 1.0 / (x + m);
        x += 1.0;
    }
    let (y, tail) = (x + m, |k: f64| 1.0 / k);
    acc + libm::log1p(m / x) + m / (2.0 * x * y) - (series(y, 2, tail) - series(x, 2, tail))
}

/// `psi1(x) - psi1(x+m)` (`= sum_{k<m} 1/(x+k)^2` for integer `m >= 0`).
pub(crate) fn trigamma_diff(mut x: f64, m: f64) -> f64 {
    if x <= 0.0 {
        return trigamma(x) - trigamma(x + m);
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc += 1.0 / (x * x) - 1.0 / ((x + m) * (x + m));
        x += 1.0;
    }
    let y = x + m;
    acc + m / (x * y) + m * (x + y) / (2.0 * x * x * y * y) + (series(x, 3, |_| 1.0) - series(y, 3, |_| 1.0))
}

/// Digamma `psi(x)`, with the reflection formula for `x <= 0` (Pitman's iterates may go there);
/// `tan` and `sin^2` have period 1, so `pi x` is reduced exactly first.
pub(crate) fn digamma(mut x: f64) -> f64 {
    if x <= 0.0 {
        return digamma(1.0 - x) - PI / libm::tan(PI * (x - x.round()));
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc -= 1.0 / x;
        x += 1.0;
    }
    acc + libm::log(x) - 0.5 / x - series(x, 2, |k| 1.0 / k)
}

/// Trigamma `psi1(x)`, with the reflection formula for `x <= 0`.
pub(crate) fn trigamma(mut x: f64) -> f64 {
    if x <= 0.0 {
        return (PI / libm::sin(PI * (x - x.round()))).powi(2) - trigamma(1.0 - x);
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    acc + 1.0 / x + 0.5 / (x * x) + series(x, 3, |_| 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, rel: f64) -> bool {
        (got - want).abs() <= rel * want.abs().max(1e-300)
    }

    #[test]
    fn special_functions_match_reference_values() {
        // Values from mpmath at 40 digits (digamma, polygamma(1, .), loggamma differences).
        let cases = [
            (digamma(1.0), -0.5772156649015329),
            (digamma(0.5), -1.9635100260214235),
            (digamma(3.7), 1.1671535393615113),
            (digamma(1e6), 13.81551005796419),
            (digamma(-2.5), 1.1031566406452433),
            (digamma(-0.3), 2.1133097796353972),
            (trigamma(1.0), PI * PI / 6.0),
            (trigamma(0.5), PI * PI / 2.0),
            (trigamma(12.5), 0.08328522460157839),
            (trigamma(1e6), 1.0000005000001667e-6),
            (trigamma(-2.5), 9.539246644989124),
            (trigamma(-0.3), 13.945160267805724),
            (ln_gamma_diff(0.5, 0.5), -0.5723649429247001),
            (ln_gamma_diff(3.7, 2.3), 3.359419416116658),
            (ln_gamma_diff(1e9, 1e6), 20723765.669863276),
            (ln_gamma_diff(1_199_970_000.0, 29999.0), 627146.3412091929),
            (ln_gamma_diff(2.0, 1e5), 1051310.7348345867),
            (digamma_diff(0.5, 10.0), 4.26651106031911),
            (digamma_diff(3.7, 100.0), 3.4695192258965726),
            (digamma_diff(1e11, 2e4), 1.9999998000100267e-07),
            (digamma_diff(4425.5, 19501.0), 1.6876954532336519),
            (digamma_diff(-2.5, 7.0), 0.2857142857142857),
            (digamma_diff(-7.3, 3.0), -0.4843957053830406),
            (trigamma_diff(0.5, 10.0), 4.834885244485553),
            (trigamma_diff(3.7, 100.0), 0.3003480110062077),
            (trigamma_diff(1e11, 2e4), 1.99999960002008e-18),
            (trigamma_diff(4425.5, 19501.0), 0.00018419316337253905),
            (trigamma_diff(-2.5, 7.0), 9.290521541950113),
            (trigamma_diff(-7.3, 3.0), 0.07956036765406592),
        ];
        for (i, (got, want)) in cases.into_iter().enumerate() {
            // Negative arguments go through the reflection formula and a cancelling difference.
            let rel = if [4, 5, 10, 11, 21, 22, 27, 28].contains(&i) { 1e-12 } else { 1e-13 };
            assert!(close(got, want, rel), "case {i}: got {got:e}, want {want:e}");
        }
        assert_eq!(ln_gamma_diff(7.0, 0.0), 0.0);
    }
}
