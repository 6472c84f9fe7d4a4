//! Success rate and risk of an attack (spec peer-measures.md Sec 5.3; Anonymeter
//! `stats/confidence.py`): the Wilson centre and half-width of each count, the control
//! correction `(a - c) / (1 - c)` with its propagated error, clamped to `[0, 1]`.

use serde_json::{Value, json};

/// A success rate: the Wilson centre and its half-width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// `rate(k)`.
    pub value: f64,
    /// `err(k)`.
    pub error: f64,
}

/// A risk with its interval, clamped to `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Risk {
    /// `clamp(r)`.
    pub value: f64,
    /// `clamp(r - e)`.
    pub low: f64,
    /// `clamp(r + e)`.
    pub high: f64,
}

impl Risk {
    /// `details.ci` in the report's shape of an interval.
    pub fn ci(&self, level: f64) -> Value {
        json!({ "level": level, "low": self.low, "high": self.high, "method": "wilson" })
    }
}

/// `z = Phi^-1((1 + conf) / 2)`.
pub fn z_of(confidence_level: f64) -> f64 {
    probit((1.0 + confidence_level) / 2.0)
}

/// `rate(k)` and `err(k)` of `k` successes in `n` attacks (Sec 5.3; `k` may be real).
pub fn rate(k: f64, n: f64, z: f64) -> Rate {
    let z2 = z * z;
    let var = k * (n - k) / n;
    let denominator = n + z2;
    Rate { value: (k + 0.5 * z2) / denominator, error: (z / denominator) * (var + 0.25 * z2).sqrt() }
}

/// The residual rate of the attack over the control (Sec 5.3), before clamping.
pub fn residual(attack: Rate, control: Rate) -> Rate {
    let value = (attack.value - control.value) / (1.0 - control.value);
    let d_attack = 1.0 / (1.0 - control.value).abs();
    let d_control = (attack.value - 1.0) / (1.0 - control.value).powi(2);
    Rate { value, error: ((attack.error * d_attack).powi(2) + (control.error * d_control).powi(2)).sqrt() }
}

/// The clamped risk of a rate.
pub fn bind(r: Rate) -> Risk {
    let clamp = |x: f64| x.clamp(0.0, 1.0);
    Risk { value: clamp(r.value), low: clamp(r.value - r.error), high: clamp(r.value + r.error) }
}

/// The standard normal quantile: Acklam's rational approximation refined by two Halley steps
/// on `erfc` (full double precision in `(0, 1)`).
pub fn probit(p: f64) -> f64 {
    const A: [f64; 6] = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00];
    const B: [f64; 5] = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01];
    const C: [f64; 6] = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00];
    const D: [f64; 4] = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let tail = |q: f64| (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0);
    let mut x = if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    for _ in 0..2 {
        let e = 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2) - p;
        let u = e * (2.0 * std::f64::consts::PI).sqrt() * libm::exp(x * x / 2.0);
        x -= u / (1.0 + x * u / 2.0);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1e-9)
    }

    fn risk(n: f64, k_att: f64, k_ctl: Option<f64>) -> (Rate, Option<Rate>, Risk) {
        let z = z_of(0.95);
        let a = rate(k_att, n, z);
        let c = k_ctl.map(|k| rate(k, n, z));
        (a, c, bind(c.map_or(a, |c| residual(a, c))))
    }

    #[test]
    fn z_of_95_percent() {
        assert!((z_of(0.95) - 1.959963984540054).abs() < 1e-14);
        assert!((probit(0.5)).abs() < 1e-15);
        assert!((probit(0.001) + 3.090232306167813).abs() < 1e-12);
    }

    /// Spec Sec G3, the four cases of Sec 5.3 alone.
    #[test]
    fn golden_g3_rates_and_risks() {
        let (a, c, r) = risk(500.0, 120.0, Some(60.0));
        assert!(close(a.value, 0.2419823285) && close(c.unwrap().value, 0.1228972494));
        assert!(close(r.value, 0.1357709562) && close(r.low, 0.0847550194) && close(r.high, 0.1867868930));
        let (_, _, r) = risk(10.0, 3.0, None);
        assert!(close(r.value, 0.3555065600) && close(r.low, 0.1077912674) && close(r.high, 0.6032218525));
        let (_, _, r) = risk(10.0, 10.0, Some(9.0));
        assert!(close(r.value, 0.3423802275) && r.low == 0.0 && r.high == 1.0);
        let (_, _, r) = risk(10.0, 2.0, Some(5.0));
        assert!(r.value == 0.0 && r.low == 0.0 && close(r.high, 0.4472253415));
    }
}
