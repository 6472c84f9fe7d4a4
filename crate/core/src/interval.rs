//! Confidence intervals for the estimates that rest on a model or a sample (issue 15, Deliver 1;
//! docs/ci.md): the population-uniqueness estimators and their curve, sdcMicro's weighted risk
//! and R_external.
//!
//! Two methods, both documented in docs/ci.md:
//! - [`histogram_replicate`] and [`rescaled_percentile`]: a bootstrap over the classes of the
//!   sample, drawn per class size (`c_s* ~ Poisson(c_s)`, independently), with percentile
//!   intervals whose distance from the estimate is rescaled by `sqrt(1 - f)` for a sample
//!   drawn without replacement at fraction `f` (Rao and Wu 1988), for estimators that come out
//!   of a solver and have no variance formula.
//! - [`ratio_mean`]: a mean over records of a per-class value (each class's records share it),
//!   whose linearisation variance treats the classes as the sampled clusters (Woodruff 1971),
//!   with a normal interval: no random numbers, one pass over the classes.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::numeric::neumaier;
use crate::rng::SplitMix64;

/// Default level of every interval.
pub const DEFAULT_LEVEL: f64 = 0.95;
/// Default seed of the bootstrap, named in every interval it gives.
pub const DEFAULT_SEED: u64 = 15;
/// Default bootstrap replicates.
pub const DEFAULT_REPLICATES: u32 = 200;
/// At most this many replicates (an audit must stay fast).
pub const MAX_REPLICATES: u32 = 10_000;
/// An interval needs at least this share of its replicates to give an estimate.
pub const MIN_VALID_SHARE: f64 = 0.5;

/// Method id of the bootstrap intervals.
pub const BOOTSTRAP: &str = "class_bootstrap_percentile";
/// Method id of the linearisation intervals.
pub const LINEARISATION: &str = "cluster_linearisation_normal";

/// The intervals' settings (keys `ci_level`, `ci_seed`, `ci_replicates`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CiParams {
    /// Confidence level in `(0, 1)`.
    pub ci_level: f64,
    /// Seed of the bootstrap: the same seed gives the same intervals. The settings may say
    /// `"random"`: a fresh seed is drawn from the system ([`fresh_seed`]) when they are read,
    /// and this field, the report's `params` and each interval's `seed` name it.
    #[cfg_attr(test, ts(type = "number"))]
    #[serde(deserialize_with = "seed_or_random")]
    pub ci_seed: u64,
    /// Bootstrap replicates; 0 = no interval.
    pub ci_replicates: u32,
}

impl Default for CiParams {
    fn default() -> Self {
        CiParams { ci_level: DEFAULT_LEVEL, ci_seed: DEFAULT_SEED, ci_replicates: DEFAULT_REPLICATES }
    }
}

impl CiParams {
    /// Checks the level and the number of replicates.
    pub fn check(&self) -> Result<()> {
        if !(self.ci_level > 0.0 && self.ci_level < 1.0) {
            return Err(Error::config("invalid_ci_level", format!("the confidence level must lie in (0, 1), not {}", self.ci_level)));
        }
        if self.ci_replicates > MAX_REPLICATES {
            return Err(Error::config("invalid_ci_replicates", format!("at most {MAX_REPLICATES} bootstrap replicates, not {}", self.ci_replicates)));
        }
        Ok(())
    }

    /// Whether intervals are asked for.
    pub fn enabled(&self) -> bool {
        self.ci_replicates > 0
    }
}

/// A fresh seed from the operating system's generator (`getrandom`; in the browser,
/// `crypto.getRandomValues`), for `ci_seed = "random"` (issue 15).
pub fn fresh_seed() -> Result<u64> {
    getrandom::u64().map_err(|e| Error::config("random_seed_unavailable", format!("no random seed could be drawn: {e}")))
}

/// `ci_seed` of the settings: a number, or `"random"` for a [`fresh_seed`] drawn now.
fn seed_or_random<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seed {
        Fixed(u64),
        Named(String),
    }
    match Seed::deserialize(d)? {
        Seed::Fixed(s) => Ok(s),
        Seed::Named(s) if s == "random" => fresh_seed().map_err(serde::de::Error::custom),
        Seed::Named(s) => Err(serde::de::Error::custom(format!("ci_seed is a number or \"random\", not \"{s}\""))),
    }
}

/// `Poisson(mean)`: inversion below 30, else Hoermann's PTRS (1993, as numpy).
fn poisson(rng: &mut SplitMix64, mean: f64) -> u64 {
    if mean <= 0.0 {
        return 0;
    }
    if mean < 30.0 {
        let (u, mut p) = (rng.unit(), libm::exp(-mean));
        let (mut x, mut cdf) = (0u64, p);
        while u > cdf && x < 1000 {
            x += 1;
            p *= mean / x as f64;
            cdf += p;
        }
        return x;
    }
    let (slam, loglam) = (mean.sqrt(), libm::log(mean));
    let b = 0.931 + 2.53 * slam;
    let a = -0.059 + 0.02483 * b;
    let inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
    let vr = 0.9277 - 3.6224 / (b - 2.0);
    loop {
        let (u, v) = (rng.unit() - 0.5, rng.unit());
        let us = 0.5 - u.abs();
        let k = libm::floor((2.0 * a / us + b) * u + mean + 0.43);
        if us >= 0.07 && v <= vr {
            return k as u64;
        }
        if k < 0.0 || (us < 0.013 && v > us) {
            continue;
        }
        if libm::log(v) + libm::log(inv_alpha) - libm::log(a / (us * us) + b) <= -mean + k * loglam - libm::lgamma(k + 1.0) {
            return k as u64;
        }
    }
}

/// The generator of replicate `b`: its own stream, so the replicates do not depend on how
/// many threads draw them.
fn replicate_rng(seed: u64, b: u32) -> SplitMix64 {
    let mut mix = SplitMix64(seed ^ u64::from(b).wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix64(mix.next())
}

/// Replicate `b` of a class-size histogram `(s, c_s)`: each class kept `Poisson(1)` times, so
/// `c_s* ~ Poisson(c_s)` independently per size; sizes drawn 0 times are left out.
pub fn histogram_replicate(hist: &[(u64, u64)], seed: u64, b: u32) -> Vec<(u64, u64)> {
    let mut rng = replicate_rng(seed, b);
    hist.iter().map(|&(s, c)| (s, poisson(&mut rng, c as f64))).filter(|h| h.1 > 0).collect()
}

/// The `p`-quantile of sorted values (linear interpolation, R's type 7).
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let (lo, hi) = (libm::floor(h) as usize, libm::ceil(h) as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Percentile interval of the replicates, each end's distance from `estimate` rescaled by
/// `sqrt(1 - f)` (Rao and Wu 1988: the finite-population correction of a sample drawn at
/// fraction `f` without replacement; `f = 1` gives a zero-width interval at the estimate).
/// `None` replicates gave no estimate; fewer than [`MIN_VALID_SHARE`] valid ones give no ends.
pub fn rescaled_percentile(estimate: f64, replicates: &[Option<f64>], f: f64, p: &CiParams) -> Interval {
    let mut valid: Vec<f64> = replicates.iter().flatten().copied().filter(|v| v.is_finite()).collect();
    valid.sort_by(f64::total_cmp);
    let scale = (1.0 - f.clamp(0.0, 1.0)).sqrt();
    let enough = !valid.is_empty() && valid.len() as f64 >= MIN_VALID_SHARE * replicates.len() as f64;
    let alpha = 1.0 - p.ci_level;
    let ends = enough.then(|| {
        let end = |q: f64| estimate + scale * (quantile(&valid, q) - estimate);
        (end(alpha / 2.0), end(1.0 - alpha / 2.0))
    });
    Interval {
        level: p.ci_level,
        ends,
        method: BOOTSTRAP,
        seed: Some(p.ci_seed),
        replicates: Some((replicates.len() as u32, valid.len() as u32)),
        fpc: 1.0 - f.clamp(0.0, 1.0),
    }
}

/// The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9).
// The coefficients as Acklam publishes them.
#[allow(clippy::excessive_precision)]
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.383577518672690e2, -3.066479806614716e1, 2.506628277459239];
    const B: [f64; 5] = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
    const C: [f64; 6] = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
    const D: [f64; 4] = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
    let tail = |q: f64| (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0);
    if p < 0.02425 {
        tail(libm::sqrt(-2.0 * libm::log(p)))
    } else if p > 1.0 - 0.02425 {
        -tail(libm::sqrt(-2.0 * libm::log(1.0 - p)))
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Normal interval of a mean over records of a value shared by each class's records:
/// `classes` holds `(value, records)`. The ratio `R = sum(m v) / sum(m)` with the classes as
/// clusters has linearisation variance `(1 - f) K/(K-1) sum(m^2 (v - R)^2) / (sum m)^2`
/// (Woodruff 1971; `f` the sampling fraction, `K` the classes). Ends clamped to `[lo, hi]`,
/// the range the value can take. `None` without classes.
pub fn ratio_mean(classes: &[(f64, u64)], f: f64, range: (f64, f64), p: &CiParams) -> Option<Interval> {
    let k = classes.iter().filter(|c| c.1 > 0).count();
    let total = classes.iter().map(|c| c.1).sum::<u64>() as f64;
    if k == 0 {
        return None;
    }
    let mean = neumaier(classes.iter().map(|&(v, m)| v * m as f64)) / total;
    let fpc = 1.0 - f.clamp(0.0, 1.0);
    let spread = neumaier(classes.iter().map(|&(v, m)| (m as f64 * (v - mean)).powi(2)));
    let var = if k > 1 { fpc * k as f64 / (k - 1) as f64 * spread / (total * total) } else { 0.0 };
    let half = normal_quantile(0.5 + p.ci_level / 2.0) * var.sqrt();
    let ends = Some(((mean - half).clamp(range.0, range.1), (mean + half).clamp(range.0, range.1)));
    Some(Interval { level: p.ci_level, ends, method: LINEARISATION, seed: None, replicates: None, fpc })
}

/// A confidence interval as the report writes it in `details.ci`.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    /// Confidence level.
    pub level: f64,
    /// `(low, high)`; `None` when too few replicates gave an estimate.
    pub ends: Option<(f64, f64)>,
    /// [`BOOTSTRAP`] or [`LINEARISATION`].
    pub method: &'static str,
    /// The bootstrap's seed.
    pub seed: Option<u64>,
    /// Bootstrap replicates drawn and those that gave an estimate.
    pub replicates: Option<(u32, u32)>,
    /// The finite-population correction `1 - f` applied.
    pub fpc: f64,
}

impl Interval {
    /// The same interval with both ends multiplied by `factor` (a share to a count).
    pub fn scaled(&self, factor: f64) -> Interval {
        Interval { ends: self.ends.map(|(lo, hi)| (lo * factor, hi * factor)), ..self.clone() }
    }

    /// `{"level", "low", "high", "method", "fpc"}`, with `seed`, `replicates` and
    /// `valid_replicates` for the bootstrap; `low` and `high` null (with `reason`) when too few
    /// replicates gave an estimate.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "level": self.level,
            "low": self.ends.map(|e| e.0),
            "high": self.ends.map(|e| e.1),
            "method": self.method,
            "fpc": self.fpc,
        });
        if let Some(seed) = self.seed {
            v["seed"] = json!(seed);
        }
        if let Some((drawn, valid)) = self.replicates {
            v["replicates"] = json!(drawn);
            v["valid_replicates"] = json!(valid);
        }
        if self.ends.is_none() {
            v["reason"] = json!("too_few_valid_replicates");
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn normal_quantiles() {
        // R: qnorm(0.975), qnorm(0.995), qnorm(0.95), qnorm(0.001).
        for (p, want) in [(0.975, 1.959963984540054), (0.995, 2.575829303548901), (0.95, 1.644853626951472), (0.001, -3.090232306167813)] {
            assert!((normal_quantile(p) - want).abs() < 1e-8, "{p}: {}", normal_quantile(p));
        }
        assert_eq!(normal_quantile(0.5), 0.0);
    }

    #[test]
    fn quantile_type_7() {
        // R: quantile(c(1, 2, 4, 8), c(0, 0.25, 0.5, 1), type = 7) = 1, 1.75, 3, 8.
        let v = [1.0, 2.0, 4.0, 8.0];
        assert_eq!([0.0, 0.25, 0.5, 1.0].map(|p| quantile(&v, p)), [1.0, 1.75, 3.0, 8.0]);
    }

    #[test]
    fn poisson_mean_and_variance() {
        for mean in [0.3f64, 1.0, 7.5, 29.0, 30.0, 400.0, 261_261.0] {
            let mut rng = SplitMix64(mean.to_bits());
            let draws: Vec<f64> = (0..20_000).map(|_| poisson(&mut rng, mean) as f64).collect();
            let m = draws.iter().sum::<f64>() / draws.len() as f64;
            let v = draws.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (draws.len() - 1) as f64;
            // 20,000 draws: the mean within 5 standard errors, the variance within 6 %.
            assert!((m - mean).abs() < 5.0 * (mean / 20_000.0).sqrt(), "mean {mean}: {m}");
            assert!((v / mean - 1.0).abs() < 0.06, "mean {mean}: variance {v}");
        }
        assert_eq!(poisson(&mut SplitMix64(1), 0.0), 0);
    }

    #[test]
    fn percentile_by_hand() {
        let p = CiParams { ci_level: 0.5, ..CiParams::default() };
        // Replicates 1..=5 (and one failed): quartiles 2 and 4; f = 0.75 halves the distances
        // from the estimate 3.
        let reps = [Some(5.0), Some(1.0), None, Some(3.0), Some(2.0), Some(4.0)];
        let i = rescaled_percentile(3.0, &reps, 0.0, &p);
        assert_eq!((i.ends, i.replicates), (Some((2.0, 4.0)), Some((6, 5))));
        assert_eq!(rescaled_percentile(3.0, &reps, 0.75, &p).ends, Some((2.5, 3.5)));
        // Sampling fraction 1: the sample is the population, the interval has no width.
        assert_eq!(rescaled_percentile(3.0, &reps, 1.0, &p).ends, Some((3.0, 3.0)));
        // Fewer than half valid: no ends.
        let i = rescaled_percentile(3.0, &[Some(1.0), None, None], 0.0, &p);
        assert_eq!(i.ends, None);
        assert_eq!(i.to_json()["reason"], "too_few_valid_replicates");
    }

    #[test]
    fn ratio_mean_by_hand() {
        let p = CiParams::default();
        // Values 0 and 1 on two classes of 2 records: mean 1/2, sum m^2 (v - R)^2 = 2, total 4,
        // K/(K-1) = 2: variance 2 * 2 / 16 = 1/4, half-width 1.96 * 0.5, clamped to [0, 1].
        let i = ratio_mean(&[(0.0, 2), (1.0, 2)], 0.0, (0.0, 1.0), &p).unwrap();
        assert_eq!(i.ends, Some((0.0, 1.0)));
        let i = ratio_mean(&[(0.0, 2), (1.0, 2)], 0.0, (-9.0, 9.0), &p).unwrap();
        let (lo, hi) = i.ends.unwrap();
        assert!((lo - (0.5 - 0.5 * 1.959963984540054)).abs() < 1e-8 && (hi - (0.5 + 0.5 * 1.959963984540054)).abs() < 1e-8);
        // Every class the same value: no width; f = 1 likewise.
        assert_eq!(ratio_mean(&[(0.25, 3), (0.25, 1)], 0.0, (0.0, 1.0), &p).unwrap().ends, Some((0.25, 0.25)));
        assert_eq!(ratio_mean(&[(0.0, 2), (1.0, 2)], 1.0, (0.0, 1.0), &p).unwrap().ends, Some((0.5, 0.5)));
        assert_eq!(ratio_mean(&[], 0.0, (0.0, 1.0), &p), None);
        let j = ratio_mean(&[(0.0, 2), (1.0, 2)], 0.0, (0.0, 1.0), &p).unwrap().to_json();
        assert_eq!((j["method"].as_str(), j.get("seed")), (Some(LINEARISATION), None));
    }

    #[test]
    fn checks_and_round_trip() {
        assert!(CiParams::default().check().is_ok());
        for level in [0.0, 1.0, f64::NAN, 1.5] {
            assert!(CiParams { ci_level: level, ..CiParams::default() }.check().is_err());
        }
        assert!(CiParams { ci_replicates: MAX_REPLICATES + 1, ..CiParams::default() }.check().is_err());
        let p = CiParams { ci_level: 0.9, ci_seed: u64::MAX, ci_replicates: 0 };
        let back: CiParams = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!((back, p.enabled()), (p, false));
    }

    #[test]
    fn random_seed_is_drawn_once_and_named() {
        let read = |json: &str| serde_json::from_str::<CiParams>(json);
        // Two reads of "random" draw two seeds (equal with probability 2^-64); the parameters
        // read hold the seed drawn, so writing and reading them again reproduces the run.
        let (a, b) = (read(r#"{"ci_seed": "random"}"#).unwrap(), read(r#"{"ci_seed": "random"}"#).unwrap());
        assert_ne!(a.ci_seed, b.ci_seed);
        let again: CiParams = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(again, a);
        assert_eq!(read(r#"{"ci_seed": 7}"#).unwrap().ci_seed, 7);
        assert!(read(r#"{"ci_seed": "fresh"}"#).unwrap_err().to_string().contains("not \"fresh\""));
        assert!(read(r#"{"ci_seed": -1}"#).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn replicates_are_seeded_and_level_nests(
            entries in prop::collection::btree_map(1u64..50, 1u64..400, 1..10),
            seed in any::<u64>(),
            b in 0u32..1000,
        ) {
            let hist: Vec<(u64, u64)> = entries.into_iter().collect();
            prop_assert_eq!(histogram_replicate(&hist, seed, b), histogram_replicate(&hist, seed, b));
            let reps: Vec<Option<f64>> = (0..64).map(|b| {
                let h = histogram_replicate(&hist, seed, b);
                let n: u64 = h.iter().map(|(s, c)| s * c).sum();
                (n > 0).then(|| h.iter().filter(|x| x.0 == 1).map(|x| x.1).sum::<u64>() as f64 / n as f64)
            }).collect();
            let at = |level: f64| rescaled_percentile(0.3, &reps, 0.1, &CiParams { ci_level: level, ..CiParams::default() }).ends;
            let (wide, narrow) = (at(0.99), at(0.9));
            if let (Some(w), Some(n)) = (wide, narrow) {
                prop_assert!(w.0 <= n.0 && n.0 <= n.1 && n.1 <= w.1);
            }
        }
    }
}
