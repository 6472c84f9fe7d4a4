//! Population uniqueness (spec identity-risk.md Sec 7): the estimated share of population-unique
//! records, from the sample's class-size histogram and a population size `N`, by the Zayatz,
//! Pitman and SNB estimators and Dankar's decision rule (as ARX), plus a project-defined curve of
//! all four over a range of sampling fractions, so a user without a known `N` still sees how
//! the estimate moves with it.
//!
//! Every estimate depends on `N`, so `N` is a deliberate input ([`Population`], no default).
//! No estimator returns NaN or infinity: an invalid solver result is a count of `None` with
//! reason `solver_invalid`, and `details.cause` says why.
//!
//! The gamma-family sums are evaluated as differences (`lgamma(x+m) - lgamma(x)`,
//! `psi(x+m) - psi(x)`, `psi1(x) - psi1(x+m)`) straight from the asymptotic series, so neither a
//! population of a billion (where `lgamma(N)` alone has an ulp of `4e-6`) nor a sample of a
//! million loses digits to cancellation, and Pitman costs `O(distinct sizes)` per iteration.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::interval::{CiParams, histogram_replicate, rescaled_percentile};
use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::special::{digamma_diff, ln_gamma_diff, trigamma_diff};

/// ARX's region presets, name and population (spec identity-risk.md Sec 7; \[HCT\] Sec 2.5).
pub const REGIONS: [(&str, u64); 14] = [
    ("USA", 317_238_626),
    ("Australia", 23_130_900),
    ("Canada", 34_834_841),
    ("EU", 507_420_000),
    ("Europe", 740_000_000),
    ("France", 65_820_916),
    ("Germany", 80_767_000),
    ("UK", 63_705_000),
    ("India", 1_210_569_573),
    ("China", 1_366_040_000),
    ("Brasil", 202_656_788),
    ("North America", 565_265_000),
    ("South America", 385_742_554),
    ("Africa", 1_100_000_000),
];

/// Sampling fractions of `population_uniqueness_curve` (project-defined; `N = round(n/pi)`).
pub const CURVE_FRACTIONS: [f64; 12] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0];

/// Convergence bound on `max(|F1|, |F2|)` of the Pitman and SNB solvers (spec Sec 7.2, 7.3).
const ACCURACY: f64 = 1e-6;
/// Newton-Raphson iterations at most (spec Sec 7.2, 7.3).
const MAX_ITERATIONS: u32 = 1000;
/// SNB start values of `a` and `beta` (spec Sec 7.3).
const SNB_STARTS: [f64; 4] = [0.0, 0.33, 0.66, 0.99];
/// Step of SNB's central-difference Jacobian (spec Sec 7.3).
const SNB_STEP: f64 = 1e-7;

/// How the population size `N` is given (spec identity-risk.md Sec 7). There is no default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Population {
    /// Not given: the estimators are `not_applicable`.
    Missing,
    /// `N` itself.
    Size(u64),
    /// Sampling fraction `pi` in `(0, 1]`; `N = round(n/pi)` (ARX).
    SamplingFraction(f64),
    /// A name of [`REGIONS`] (case, spaces and punctuation ignored).
    Region(String),
}

impl Population {
    /// `N` for a sample of `n` records, or the status and reason of the estimators' results.
    pub fn size(&self, n: u64) -> Result<u64, (Status, &'static str)> {
        let letters = |s: &str| -> String { s.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect() };
        let big_n = match self {
            Population::Missing => return Err((Status::NotApplicable, "population_size_missing")),
            Population::Size(big_n) => *big_n,
            Population::SamplingFraction(pi) if *pi > 0.0 && *pi <= 1.0 => (n as f64 / pi).round() as u64,
            Population::SamplingFraction(_) => return Err((Status::Error, "invalid_sampling_fraction")),
            Population::Region(name) => {
                let key = letters(name);
                match REGIONS.iter().find(|(r, _)| letters(r) == key) {
                    Some(&(_, big_n)) => big_n,
                    None => return Err((Status::Error, "unknown_region")),
                }
            }
        };
        if big_n < n { Err((Status::Error, "population_smaller_than_sample")) } else { Ok(big_n) }
    }
}

/// One estimator's outcome (spec identity-risk.md Sec 7).
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// `U`, the estimated number of population-unique records; `None` when invalid.
    pub count: Option<f64>,
    /// `solver_invalid` when `count` is `None`.
    pub reason: Option<&'static str>,
    /// Solver parameters and iterations, or `cause` (and where the solver ended) when invalid.
    pub details: Value,
}

impl Estimate {
    fn valid(count: f64, details: Value) -> Estimate {
        Estimate { count: Some(count), reason: None, details }
    }

    fn invalid(details: Value) -> Estimate {
        Estimate { count: None, reason: Some("solver_invalid"), details }
    }
}

/// `u` (classes), `c_1`, `c_2` of a histogram.
fn counts(hist: &[(u64, u64)]) -> (u64, u64, u64) {
    let of = |size| hist.iter().filter(|h| h.0 == size).map(|h| h.1).sum::<u64>();
    (hist.iter().map(|h| h.1).sum(), of(1), of(2))
}

/// The estimators need `1 <= n <= N`; [`metrics`] checks this before calling them.
fn out_of_domain(n: u64, big_n: u64) -> Option<Estimate> {
    (n == 0 || big_n < n).then(|| Estimate::invalid(json!({ "cause": "sample_not_within_population" })))
}

/// Zayatz (spec Sec 7.1): `U = c_1 P_u / pi`. `hist` holds `(s, c_s)` ascending, `n` records.
/// The hypergeometric `H1(N, s, n)` enters only as the ratio `H1(N,s,n)/H1(N,1,n)
/// = s C(N-s, n-1)/C(N-1, n-1)` (0 when `n-1 > N-s`), in log space.
pub fn zayatz(hist: &[(u64, u64)], n: u64, big_n: u64) -> Estimate {
    if let Some(e) = out_of_domain(n, big_n) {
        return e;
    }
    let c1 = counts(hist).1;
    if c1 == 0 {
        return Estimate::valid(0.0, json!({}));
    }
    let (nf, bn) = (n as f64, big_n as f64);
    let weighted = hist.iter().filter(|&&(s, _)| s + n - 1 <= big_n).map(|&(s, c)| {
        let (sf, m) = (s as f64, s as f64 - 1.0);
        c as f64 * libm::exp(libm::log(sf) - ln_gamma_diff(bn - sf + 1.0, m) + ln_gamma_diff(bn - sf - nf + 2.0, m))
    });
    let p_u = c1 as f64 / neumaier(weighted);
    Estimate::valid(c1 as f64 * p_u * bn / nf, json!({ "p_u": p_u }))
}

/// Pitman's `(theta, alpha, iterations)`, or the details of why the fit is invalid
/// (spec Sec 7.2). Independent of `N`, so the curve fits once.
type PitmanFit = Result<(f64, f64, u32), Value>;

/// Newton-Raphson on Pitman's equations from ARX's initial guess, then the validity rule
/// `theta >= 0` and `0 < alpha < 1` (spec Sec 7.2).
fn pitman_fit(hist: &[(u64, u64)], n: u64) -> PitmanFit {
    let (u, c1, c2) = counts(hist);
    let (nf, uf, c1f) = (n as f64, u as f64, c1 as f64);
    let c2 = if c2 == 0 { 1.0 } else { c2 as f64 };
    let c = c1f * (c1f - 1.0) / c2;
    let den = ((2.0 * c1f * uf) + (c1f * c)) - (nf * c);
    if den == 0.0 {
        return Err(json!({ "cause": "initial_guess_undefined" }));
    }
    let mut theta = ((nf * uf * c) - (c1f * (nf - 1.0) * ((2.0 * uf) + c))) / den;
    let mut alpha = ((theta * (c1f - nf)) + ((nf - 1.0) * c1f)) / (nf * uf);
    let stop = |cause: &str, theta: f64, alpha: f64, it: u32| Err(json!({ "cause": cause, "theta": theta, "alpha": alpha, "iterations": it }));
    let mut it = 0;
    loop {
        let (f, j) = pitman_system(hist, n, u, theta, alpha);
        if !f.iter().all(|v| v.is_finite()) {
            return stop("non_finite", theta, alpha, it);
        }
        if f[0].abs().max(f[1].abs()) <= ACCURACY {
            if theta >= 0.0 && alpha > 0.0 && alpha < 1.0 {
                return Ok((theta, alpha, it));
            }
            return stop("outside_model", theta, alpha, it);
        }
        if it == MAX_ITERATIONS {
            return stop("not_converged", theta, alpha, it);
        }
        match solve(j, f) {
            Some([dt, da]) => (theta, alpha) = (theta - dt, alpha - da),
            None => return stop("singular_jacobian", theta, alpha, it),
        }
        it += 1;
    }
}

/// `F(theta, alpha)` and its Jacobian (spec Sec 7.2), by the digamma and trigamma closed forms.
fn pitman_system(hist: &[(u64, u64)], n: u64, u: u64, theta: f64, alpha: f64) -> ([f64; 2], [[f64; 2]; 2]) {
    let [s1, si, q1, qi, qii] = class_sums(theta, alpha, u);
    let m = (n - 1) as f64;
    let (o2, d2) = (digamma_diff(theta + 1.0, m), trigamma_diff(theta + 1.0, m));
    let sizes = || hist.iter().filter(|h| h.0 >= 2);
    let o4 = neumaier(sizes().map(|&(s, c)| c as f64 * digamma_diff(1.0 - alpha, (s - 1) as f64)));
    let d4 = neumaier(sizes().map(|&(s, c)| c as f64 * trigamma_diff(1.0 - alpha, (s - 1) as f64)));
    ([s1 - o2, si - o4], [[d2 - q1, -qi], [-qi, -qii - d4]])
}

/// `sum_{i=1}^{u-1}` of `1/(theta+i alpha)`, `i/(..)`, `1/(..)^2`, `i/(..)^2`, `i^2/(..)^2`.
/// Closed forms in `t = theta/alpha`; summed term by term for few classes, or when
/// `|t| >> u` (tiny `alpha`), where the closed forms for the `i`-weighted sums cancel.
fn class_sums(theta: f64, alpha: f64, u: u64) -> [f64; 5] {
    let m = u.saturating_sub(1) as f64;
    let t = theta / alpha;
    if m <= 64.0 || alpha == 0.0 || t.abs() > 1e3 * m {
        let mut acc = [0.0; 5];
        for i in 1..u {
            let (i, d) = (i as f64, theta + i as f64 * alpha);
            for (a, v) in acc.iter_mut().zip([1.0 / d, i / d, 1.0 / (d * d), i / (d * d), i * i / (d * d)]) {
                *a += v;
            }
        }
        return acc;
    }
    let (h, h2, a2) = (digamma_diff(t + 1.0, m), trigamma_diff(t + 1.0, m), alpha * alpha);
    [h / alpha, (m - t * h) / alpha, h2 / a2, (h - t * h2) / a2, (m - 2.0 * t * h + t * t * h2) / a2]
}

/// `J^-1 f` for a 2x2 `J`; `None` when `J` is singular.
fn solve(j: [[f64; 2]; 2], f: [f64; 2]) -> Option<[f64; 2]> {
    let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
    (det != 0.0).then(|| [(f[0] * j[1][1] - j[0][1] * f[1]) / det, (j[0][0] * f[1] - j[1][0] * f[0]) / det])
}

/// `U = Gamma(theta+1)/Gamma(theta+alpha) N^alpha` from a fit; invalid outside `(0, N]`.
fn pitman_at(fit: &PitmanFit, c1: u64, big_n: u64) -> Estimate {
    let (theta, alpha, iterations) = match fit {
        _ if c1 == 0 => return Estimate::valid(0.0, json!({})),
        Ok(fit) => *fit,
        Err(why) => return Estimate::invalid(why.clone()),
    };
    let details = json!({ "theta": theta, "alpha": alpha, "iterations": iterations });
    let count = libm::exp(ln_gamma_diff(theta + alpha, 1.0 - alpha) + alpha * libm::log(big_n as f64));
    if count > 0.0 && count <= big_n as f64 {
        Estimate::valid(count, details)
    } else {
        let mut details = details;
        details["cause"] = json!("outside_population");
        Estimate::invalid(details)
    }
}

/// Pitman (spec Sec 7.2).
pub fn pitman(hist: &[(u64, u64)], n: u64, big_n: u64) -> Estimate {
    if let Some(e) = out_of_domain(n, big_n) {
        return e;
    }
    let c1 = counts(hist).1;
    let fit = if c1 == 0 { Err(Value::Null) } else { pitman_fit(hist, n) };
    pitman_at(&fit, c1, big_n)
}

/// SNB (spec Sec 7.3, as ARX codes it): Newton-Raphson with a central-difference Jacobian from
/// the 16 start points; the first converged start gives `U = k_hat beta^a`. `B`'s `-1` counts
/// occurring sizes only (entries with `c_s = 0` are skipped). As specified, a converged `U` is
/// not bounded to `[0, N]`: tiny samples can yield a negative `k_hat` and `U`.
pub fn snb(hist: &[(u64, u64)], n: u64, big_n: u64) -> Estimate {
    if let Some(e) = out_of_domain(n, big_n) {
        return e;
    }
    let (u, c1, c2) = counts(hist);
    if c1 == 0 {
        return Estimate::valid(0.0, json!({}));
    }
    let f = n as f64 / big_n as f64;
    let (mut v1, mut v2, mut v3, mut v4) = (0.0, 0.0, 0.0, 0.0);
    // `(1-f)^(s-1)` is the `(1-f)^s` of the size before when sizes follow each other (most
    // do): the same call, so the same bits (the bootstrap spends most of its time here).
    let mut before = (f64::NAN, 0.0);
    for &(s, c) in hist.iter().filter(|h| h.1 > 0) {
        let (s, c) = (s as f64, c as f64);
        let (down, down_less) = (libm::pow(1.0 - f, s), if before.0 == s - 1.0 { before.1 } else { libm::pow(1.0 - f, s - 1.0) });
        before = (s, down);
        let w = down * c;
        v1 += s * f * f * libm::pow(1.0 - f * f, s - 1.0) * c;
        v2 += w * libm::pow(1.0 + f, s) - 1.0;
        v3 += w;
        v4 += s * f * down_less * c;
    }
    let k = u as f64 + c1 as f64 * (v1 / v2) * (v3 / v4).powi(2);
    let (c1, c2) = (c1 as f64, c2 as f64);
    let g = |[a, b]: [f64; 2]| {
        let d = (1.0 - f) * (1.0 - b);
        [
            k * f * libm::pow(b / (1.0 - d), a) * ((a * d) / (1.0 - d) + 1.0) - c1,
            k * a * libm::pow(b, a) * f * f * (1.0 - b) / 2.0 * libm::pow(1.0 - d, a + 2.0) * (2.0 - (1.0 - a) * d) - c2,
        ]
    };
    for a0 in SNB_STARTS {
        for b0 in SNB_STARTS {
            let mut x = [a0, b0];
            for it in 0..MAX_ITERATIONS {
                let fx = g(x);
                if !fx.iter().all(|v| v.is_finite()) {
                    break;
                }
                if fx[0].abs().max(fx[1].abs()) <= ACCURACY {
                    let count = k * libm::pow(x[1], x[0]);
                    let details = json!({ "k_hat": k, "a": x[0], "beta": x[1], "start": [a0, b0], "iterations": it });
                    // Like Pitman's, a count outside [0, N] is no estimate (the spec bounds only
                    // Pitman; an unbounded SNB can go negative).
                    return if count.is_finite() && count > 0.0 && count <= big_n as f64 {
                        Estimate::valid(count, details)
                    } else {
                        Estimate::invalid(json!({ "cause": "degenerate_count", "start": [a0, b0] }))
                    };
                }
                let column = |e: [f64; 2]| {
                    let (hi, lo) = (g([x[0] + e[0], x[1] + e[1]]), g([x[0] - e[0], x[1] - e[1]]));
                    [(hi[0] - lo[0]) / (2.0 * SNB_STEP), (hi[1] - lo[1]) / (2.0 * SNB_STEP)]
                };
                let (ja, jb) = (column([SNB_STEP, 0.0]), column([0.0, SNB_STEP]));
                match solve([[ja[0], jb[0]], [ja[1], jb[1]]], fx) {
                    Some([da, db]) => x = [x[0] - da, x[1] - db],
                    None => break,
                }
            }
        }
    }
    Estimate::invalid(json!({ "cause": "no_convergence", "k_hat": k }))
}

/// Dankar's rule (spec Sec 7.4) on already computed estimates; `other` is Pitman when
/// `pi <= 0.1`, else SNB. `details.model` names the estimator used.
fn decide(c1: u64, pi: f64, zayatz: &Estimate, other: &Estimate) -> Estimate {
    let (count, model) = match (zayatz.count, other.count) {
        _ if c1 == 0 => (Some(0.0), "none"),
        (_, Some(p)) if pi <= 0.1 => (Some(p), "pitman"),
        (Some(z), Some(s)) if pi > 0.1 && s <= z => (Some(s), "snb"),
        (z, _) => (z, "zayatz"),
    };
    match count {
        Some(count) => Estimate::valid(count, json!({ "model": model })),
        None => Estimate::invalid(json!({ "cause": "zayatz_invalid", "model": model })),
    }
}

/// Dankar's decision rule (spec Sec 7.4): Pitman if valid when `pi <= 0.1`, else the smaller of
/// Zayatz and a valid SNB; Zayatz otherwise.
pub fn dankar(hist: &[(u64, u64)], n: u64, big_n: u64) -> Estimate {
    let pi = n as f64 / big_n as f64;
    let other = if pi <= 0.1 { pitman(hist, n, big_n) } else { snb(hist, n, big_n) };
    decide(counts(hist).1, pi, &zayatz(hist, n, big_n), &other)
}

/// Zayatz, Pitman, SNB and Dankar at `N`, Pitman from `fit`.
fn all_at(hist: &[(u64, u64)], n: u64, big_n: u64, fit: &PitmanFit) -> [Estimate; 4] {
    all_but_snb_at(hist, n, big_n, fit, true)
}

/// [`all_at`], SNB left out (as invalid) when `with_snb` is false and Dankar does not need it
/// (`pi <= 0.1`): the bootstrap skips SNB where the sample's own SNB gave no estimate, so no
/// interval needs it (SNB's start grid is most of a replicate's cost).
fn all_but_snb_at(hist: &[(u64, u64)], n: u64, big_n: u64, fit: &PitmanFit, with_snb: bool) -> [Estimate; 4] {
    let c1 = counts(hist).1;
    let pi = n as f64 / big_n as f64;
    let s = if with_snb || pi > 0.1 { snb(hist, n, big_n) } else { Estimate::invalid(json!({ "cause": "not_needed" })) };
    let (z, p) = (zayatz(hist, n, big_n), pitman_at(fit, c1, big_n));
    let d = decide(c1, pi, &z, if pi <= 0.1 { &p } else { &s });
    [z, p, s, d]
}

/// Ids of the estimators' results, in output order.
const ESTIMATOR_IDS: [&str; 4] = ["population_uniqueness_zayatz", "population_uniqueness_pitman", "population_uniqueness_snb", "population_uniqueness_dankar"];

/// The four estimators' shares `U/N` at the sampling fraction `pi` (`N = round(n/pi)`, at
/// least `n`), Pitman from `fit`.
fn shares_at(hist: &[(u64, u64)], n: u64, pi: f64, fit: &PitmanFit, with_snb: bool) -> [Option<f64>; 4] {
    let big_n = ((n as f64 / pi).round() as u64).max(n);
    all_but_snb_at(hist, n, big_n, fit, with_snb).map(|e| e.count.map(|u| u / big_n as f64))
}

/// Replicates in one part of a bootstrap: the default 200 make 8 parts, which an audit worker
/// and its readers take one after another as each is free.
pub const PART_REPLICATES: u32 = 25;

/// One bootstrap replicate's shares `U/N` of the four estimators (Zayatz, Pitman, SNB,
/// Dankar): at the audit's `pi` (when `N` is known) and at each of [`CURVE_FRACTIONS`].
#[derive(Debug, Clone, PartialEq)]
pub struct Replicate {
    pub at_pi: [Option<f64>; 4],
    pub curve: [[Option<f64>; 4]; CURVE_FRACTIONS.len()],
}

/// The bootstrap of the estimators on a sample: its class-size histogram `(s, c_s)` ascending,
/// the sampling fraction `pi` when `N` is known, the interval settings, and whether
/// the sample's own SNB has an estimate at `pi` and at each curve fraction (a replicate skips
/// SNB where it has none: no interval needs it).
#[derive(Debug, Clone, PartialEq)]
pub struct Bootstrap {
    pub(super) hist: Vec<(u64, u64)>,
    pub(super) pi: Option<f64>,
    pub(super) ci: CiParams,
    pub(super) snb_at_pi: bool,
    pub(super) snb_curve: [bool; CURVE_FRACTIONS.len()],
}

impl Bootstrap {
    /// The bootstrap of the sample `hist` (of at least one record) with the population
    /// `population`.
    pub fn of(hist: &[(u64, u64)], population: &Population, ci: &CiParams) -> Bootstrap {
        let n = records(hist);
        let pi = population.size(n).ok().map(|big_n| n as f64 / big_n as f64);
        Bootstrap {
            hist: hist.to_vec(),
            pi,
            ci: *ci,
            snb_at_pi: pi.is_some_and(|pi| snb_valid(hist, n, pi)),
            snb_curve: CURVE_FRACTIONS.map(|pi| snb_valid(hist, n, pi)),
        }
    }

    /// The sample's histogram and records.
    pub fn sample(&self) -> (&[(u64, u64)], u64) {
        (&self.hist, records(&self.hist))
    }

    /// How many parts of [`PART_REPLICATES`] replicates (the last may hold fewer).
    pub fn parts(&self) -> u32 {
        self.ci.ci_replicates.div_ceil(PART_REPLICATES)
    }

    /// The replicates part `k` holds (empty past the last part).
    pub fn bounds(&self, k: u32) -> std::ops::Range<u32> {
        let first = k.saturating_mul(PART_REPLICATES).min(self.ci.ci_replicates);
        first..self.ci.ci_replicates.min(first.saturating_add(PART_REPLICATES))
    }

    /// Every replicate in order, each part from `given` (the parts computed elsewhere, by
    /// index: each of [`Bootstrap::bounds`]'s length) or computed here, all on the cores at once.
    pub fn replicates(&self, given: impl FnMut(u32) -> Option<Vec<Replicate>>) -> Vec<Replicate> {
        let parts: Vec<Option<Vec<Replicate>>> = (0..self.parts()).map(given).collect();
        let missing = parts.iter().zip(0..).filter(|(p, _)| p.is_none()).flat_map(|(_, k)| self.bounds(k)).collect();
        let mut computed = self.compute(missing).into_iter();
        parts.into_iter().zip(0..).flat_map(|(p, k)| p.unwrap_or_else(|| computed.by_ref().take(self.bounds(k).len()).collect())).collect()
    }

    /// Replicates `bs`: each resamples the classes and evaluates every estimator at the same
    /// sampling fractions as the sample, its `N` following its own `n*`; replicates are
    /// independent of each other and of the thread count.
    pub(super) fn compute(&self, bs: Vec<u32>) -> Vec<Replicate> {
        crate::par::map(bs, |b| replicate_shares(&self.hist, self.ci.ci_seed, b, self.pi, self.snb_at_pi, &self.snb_curve))
    }
}

/// The records of a class-size histogram `(s, c_s)`.
fn records(hist: &[(u64, u64)]) -> u64 {
    hist.iter().map(|(s, c)| s * c).sum()
}

/// Whether the sample's own SNB gives an estimate at the sampling fraction `pi` (`N = round(n/pi)`,
/// at least `n`): a bootstrap replicate skips SNB where it does not ([`Bootstrap`]).
fn snb_valid(hist: &[(u64, u64)], n: u64, pi: f64) -> bool {
    snb(hist, n, ((n as f64 / pi).round() as u64).max(n)).count.is_some()
}

/// Replicate `b` of the bootstrap of the sample `hist` with `seed` (issue 15; docs/ci.md): it
/// resamples the classes ([`histogram_replicate`]) and evaluates every estimator at the
/// sample's `pi` (when `N` is known) and at each curve fraction, its `N` following its own
/// `n*`; SNB only where the sample's own SNB gives an estimate (`snb_at_pi`, `snb_curve`).
fn replicate_shares(hist: &[(u64, u64)], seed: u64, b: u32, pi: Option<f64>, snb_at_pi: bool, snb_curve: &[bool; CURVE_FRACTIONS.len()]) -> Replicate {
    let h = histogram_replicate(hist, seed, b);
    let n = records(&h);
    if n == 0 {
        return Replicate { at_pi: [None; 4], curve: [[None; 4]; CURVE_FRACTIONS.len()] };
    }
    let fit = if counts(&h).1 == 0 { Err(Value::Null) } else { pitman_fit(&h, n) };
    let curve = std::array::from_fn(|i| shares_at(&h, n, CURVE_FRACTIONS[i], &fit, snb_curve[i]));
    Replicate { at_pi: pi.map_or([None; 4], |pi| shares_at(&h, n, pi, &fit, snb_at_pi)), curve }
}

/// `details.ci` of an estimate `share` at fraction `pi` from the replicates' shares.
fn interval(share: f64, reps: &[Replicate], pick: impl Fn(&Replicate) -> Option<f64>, pi: f64, ci: &CiParams) -> Value {
    let values: Vec<Option<f64>> = reps.iter().map(pick).collect();
    rescaled_percentile(share, &values, pi, ci).to_json()
}

/// The four `population_uniqueness_*` results (value `U/N`; `details`: `U`, `N`, `pi`,
/// `population`, the estimator's parameters and, with `ci` enabled, the interval `ci` of the
/// value) and `population_uniqueness_curve` (spec identity-risk.md Sec 7; `details.ci` one
/// object per point, an interval per estimator). `hist` is `(s, c_s)` ascending over `n`
/// records; `partition` is false under the `wildcard` policy, where the class sizes are not a
/// partition. The bootstrap's replicates are computed here ([`metrics_from`] takes them;
/// [`super::bootstrap`] computes them elsewhere).
pub fn metrics(ctx: &Context, hist: &[(u64, u64)], n: u64, population: &Population, partition: bool, ci: &CiParams) -> Vec<MetricResult> {
    let reps = if ci.enabled() && n > 0 && partition { Bootstrap::of(hist, population, ci).replicates(|_| None) } else { Vec::new() };
    metrics_from(ctx, hist, n, population, partition, ci, &reps)
}

/// [`metrics`] with the bootstrap's replicates `reps` (all of them, in order: [`Bootstrap`];
/// none when `ci` is not enabled).
pub fn metrics_from(
    ctx: &Context,
    hist: &[(u64, u64)],
    n: u64,
    population: &Population,
    partition: bool,
    ci: &CiParams,
    reps: &[Replicate],
) -> Vec<MetricResult> {
    let ids = ESTIMATOR_IDS.iter().chain(["population_uniqueness_curve"].iter());
    if n == 0 {
        return ids.map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect();
    }
    if !partition {
        return ids.map(|id| ctx.without_value(id, Status::NotApplicable, "wildcard_policy")).collect();
    }
    let c1 = counts(hist).1;
    let fit = if c1 == 0 { Err(Value::Null) } else { pitman_fit(hist, n) };
    let size = population.size(n);
    let mut out: Vec<MetricResult> = match size {
        Err((status, reason)) => {
            ESTIMATOR_IDS.iter().map(|id| ctx.without_value(id, status, reason).with_details(json!({ "population": population }))).collect()
        }
        Ok(big_n) => {
            let pi = n as f64 / big_n as f64;
            ESTIMATOR_IDS
                .iter()
                .zip(all_at(hist, n, big_n, &fit))
                .enumerate()
                .map(|(j, (id, e))| {
                    let result = match e.count {
                        Some(count) => ctx.ok(id, count / big_n as f64),
                        None => ctx.without_value(id, Status::NotApplicable, e.reason.unwrap_or("solver_invalid")),
                    };
                    let mut details = json!({ "U": e.count, "N": big_n, "pi": pi, "population": population });
                    if let (Value::Object(d), Value::Object(extra)) = (&mut details, e.details) {
                        d.extend(extra);
                    }
                    if let (Some(count), true) = (e.count, ci.enabled()) {
                        details["ci"] = interval(count / big_n as f64, reps, |r| r.at_pi[j], pi, ci);
                    }
                    result.with_details(details)
                })
                .collect()
        }
    };
    let mut curve_ci = Vec::new();
    let curve: Vec<Value> = CURVE_FRACTIONS
        .iter()
        .enumerate()
        .map(|(i, &pi)| {
            let big_n = (n as f64 / pi).round() as u64;
            let [z, p, s, d] = all_at(hist, n, big_n, &fit);
            let share = |e: &Estimate| e.count.map(|u| u / big_n as f64);
            if ci.enabled() {
                let names = ["zayatz", "pitman", "snb", "dankar"];
                let mut point = json!({ "pi": pi });
                for (j, e) in [&z, &p, &s, &d].into_iter().enumerate() {
                    point[names[j]] = share(e).map_or(Value::Null, |v| interval(v, reps, |r| r.curve[i][j], pi, ci));
                }
                curve_ci.push(point);
            }
            json!({
                "pi": pi, "n_population": big_n, "zayatz": share(&z), "pitman": share(&p), "snb": share(&s),
                "dankar": share(&d), "dankar_model": d.details["model"],
            })
        })
        .collect();
    let pitman_details = match &fit {
        Ok((theta, alpha, iterations)) => json!({ "theta": theta, "alpha": alpha, "iterations": iterations }),
        Err(why) => why.clone(),
    };
    let mut details = json!({ "pitman": pitman_details });
    if ci.enabled() {
        details["ci"] = Value::Array(curve_ci);
    }
    out.push(ctx.ok("population_uniqueness_curve", curve).with_details(details));
    out
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use proptest::prelude::*;

    use super::*;
    use crate::metric::Scope;

    fn close(got: f64, want: f64, rel: f64) -> bool {
        (got - want).abs() <= rel * want.abs().max(1e-300)
    }

    #[track_caller]
    fn assert_close(got: Option<f64>, want: f64, rel: f64) {
        let got = got.expect("a value");
        assert!(close(got, want, rel), "got {got:e}, want {want:e}");
    }

    fn ctx() -> Context {
        let scope = Scope { table: "P", quasi_identifiers: vec!["q".into()], sensitive: None, attribute: None, subset: None };
        Context { family: "identity", scope, params: json!({}) }
    }

    /// G1.5: `c_1 = 3`, `u = 7`, `n = 17`.
    const G1: [(u64, u64); 5] = [(1, 3), (2, 1), (3, 1), (4, 1), (5, 1)];

    #[test]
    fn class_sums_closed_forms_match_term_sums() {
        for (theta, alpha, u) in [(30.0, 0.4, 200u64), (3176.2, 0.718, 19502), (47.2, -6.1, 150), (0.5, 0.99, 90)] {
            let mut want = [0.0; 5];
            for i in 1..u {
                let (i, d) = (i as f64, theta + i as f64 * alpha);
                for (w, v) in want.iter_mut().zip([1.0 / d, i / d, 1.0 / (d * d), i / (d * d), i * i / (d * d)]) {
                    *w += v;
                }
            }
            for (got, want) in class_sums(theta, alpha, u).into_iter().zip(want) {
                assert!(close(got, want, 1e-9), "theta {theta} alpha {alpha}: got {got:e}, want {want:e}");
            }
        }
    }

    #[test]
    fn golden_g1_5_small_sample() {
        for (big_n, want) in [(170, 0.03899420879), (1700, 0.03184041919)] {
            let z = zayatz(&G1, 17, big_n);
            assert_close(z.count.map(|u| u / big_n as f64), want, 1e-9);
            let p = pitman(&G1, 17, big_n);
            assert_eq!((p.count, p.reason), (None, Some("solver_invalid")));
            assert_eq!(p.details["cause"], "outside_model");
            assert_close(p.details["theta"].as_f64(), 47.2180774469916, 1e-6);
            assert_close(p.details["alpha"].as_f64(), -6.144875742616698, 1e-6);
            let s = snb(&G1, 17, big_n);
            assert_eq!((s.count, s.reason), (None, Some("solver_invalid")));
            let d = dankar(&G1, 17, big_n);
            assert_eq!((d.count, &d.details["model"]), (z.count, &json!("zayatz")));
        }
        let out = metrics(&ctx(), &G1, 17, &Population::Size(170), true, &CiParams::default());
        let ids: Vec<_> = out.iter().map(|r| r.id).collect();
        assert_eq!(ids[..4], ESTIMATOR_IDS);
        assert_eq!(ids[4], "population_uniqueness_curve");
        assert_close(out[0].value.as_f64(), 0.03899420879, 1e-9);
        assert_eq!((out[0].details["N"].as_u64(), out[0].details["pi"].as_f64()), (Some(170), Some(0.1)));
        assert_eq!((out[1].status, out[1].reason, &out[1].value), (Status::NotApplicable, Some("solver_invalid"), &Value::Null));
        assert_eq!((out[2].status, out[2].reason), (Status::NotApplicable, Some("solver_invalid")));
        assert_eq!((&out[3].value, &out[3].details["model"]), (&out[0].value, &json!("zayatz")));
    }

    /// Class-size histogram of ARX's adult.csv, all 9 columns as QIs (golden G8).
    fn adult() -> (Vec<(u64, u64)>, u64) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/adult/adult.csv");
        let text = std::fs::read_to_string(path).expect("shared/data/adult/adult.csv");
        let mut classes: HashMap<Vec<&str>, u64> = HashMap::new();
        for line in text.lines().skip(1) {
            *classes.entry(line.trim_end_matches('\r').split(';').collect()).or_default() += 1;
        }
        let mut hist: BTreeMap<u64, u64> = BTreeMap::new();
        for size in classes.values() {
            *hist.entry(*size).or_default() += 1;
        }
        (hist.into_iter().collect(), classes.values().sum())
    }

    #[test]
    fn golden_g8_adult_oracle() {
        let (hist, n) = adult();
        assert_eq!((n, counts(&hist).0, counts(&hist).1), (30162, 19502, 15512));
        // pi, Zayatz, Pitman, SNB, Dankar, model (golden.md G8).
        let table = [
            (0.01, 0.27171272, 0.14460835312, None, 0.14460835312, "pitman"),
            (0.1, 0.32074023934, 0.27684993884, None, 0.27684993884, "pitman"),
            (0.2, 0.35770992348, 0.33662801702, None, 0.35770992348, "zayatz"),
            (1.0, 0.51428950335, 0.53002393693, Some(0.51428950337), 0.51428950335, "zayatz"),
        ];
        for (pi, z, p, s, d, model) in table {
            let big_n = Population::SamplingFraction(pi).size(n).unwrap();
            let share = |e: Estimate| e.count.map(|u| u / big_n as f64);
            let est = [zayatz(&hist, n, big_n), pitman(&hist, n, big_n), snb(&hist, n, big_n), dankar(&hist, n, big_n)];
            assert_close(share(est[0].clone()), z, 1e-6);
            assert_close(share(est[1].clone()), p, 1e-6);
            assert_close(est[1].details["theta"].as_f64(), 3176.2335, 1e-6);
            assert_close(est[1].details["alpha"].as_f64(), 0.71794895, 1e-6);
            match s {
                Some(s) => assert_close(share(est[2].clone()), s, 1e-6),
                None => assert_eq!(est[2].count, None, "pi {pi}"),
            }
            assert_close(share(est[3].clone()), d, 1e-6);
            assert_eq!(est[3].details["model"], model, "pi {pi}");
        }
        // pi = 1: Zayatz is the sample uniqueness exactly (c_1 / n).
        assert_eq!(zayatz(&hist, n, n).count, Some(15512.0));
        let curve = metrics(&ctx(), &hist, n, &Population::Missing, true, &CiParams::default()).pop().unwrap();
        let at = |i: usize, key: &str| curve.value[i][key].as_f64();
        assert_eq!(curve.value.as_array().map(Vec::len), Some(CURVE_FRACTIONS.len()));
        assert_close(at(3, "pitman"), 0.14460835312, 1e-6);
        assert_close(at(11, "zayatz"), 0.51428950335, 1e-6);
        assert_eq!(curve.value[6]["dankar_model"], "pitman");
    }

    #[test]
    fn sampling_fraction_one_gives_sample_uniques() {
        for hist in [&G1[..], &[(1, 9), (4, 2), (40, 1)], &[(1, 1)]] {
            let n = hist.iter().map(|(s, c)| s * c).sum();
            assert_eq!(zayatz(hist, n, n).count, Some(hist[0].1 as f64));
        }
    }

    #[test]
    fn no_sample_uniques_give_zero() {
        let hist = [(2, 3), (5, 1)];
        for big_n in [11, 110, 11_000] {
            for e in [zayatz(&hist, 11, big_n), pitman(&hist, 11, big_n), snb(&hist, 11, big_n)] {
                assert_eq!(e.count, Some(0.0));
            }
            let d = dankar(&hist, 11, big_n);
            assert_eq!((d.count, &d.details["model"]), (Some(0.0), &json!("none")));
        }
        let out = metrics(&ctx(), &hist, 11, &Population::Region("usa".into()), true, &CiParams::default());
        assert!(out[..4].iter().all(|r| r.status == Status::Ok && r.value == json!(0.0)));
    }

    #[test]
    fn snb_skips_empty_histogram_entries() {
        // B subtracts 1 per occurring size; a c_s = 0 entry must not count.
        for big_n in [7, 20, 200] {
            assert_eq!(snb(&[(1, 2), (3, 1), (4, 0)], 5, big_n), snb(&[(1, 2), (3, 1)], 5, big_n));
        }
    }

    #[test]
    fn population_inputs_and_statuses() {
        let status = |p: Population, partition: bool, n: u64| {
            let out = metrics(&ctx(), &G1, n, &p, partition, &CiParams::default());
            assert_eq!(out.len(), 5);
            out.into_iter().map(|r| (r.status, r.reason)).collect::<Vec<_>>()
        };
        let missing = status(Population::Missing, true, 17);
        assert!(missing[..4].iter().all(|s| *s == (Status::NotApplicable, Some("population_size_missing"))));
        assert_eq!(missing[4], (Status::Ok, None));
        let small = status(Population::Size(16), true, 17);
        assert!(small[..4].iter().all(|s| *s == (Status::Error, Some("population_smaller_than_sample"))));
        assert!(status(Population::Size(170), false, 17).iter().all(|s| *s == (Status::NotApplicable, Some("wildcard_policy"))));
        assert!(status(Population::Missing, true, 0).iter().all(|s| *s == (Status::EmptyInput, Some("no_records_in_scope"))));
        assert_eq!(status(Population::SamplingFraction(0.0), true, 17)[0], (Status::Error, Some("invalid_sampling_fraction")));
        assert_eq!(status(Population::Region("Atlantis".into()), true, 17)[0], (Status::Error, Some("unknown_region")));
        assert_eq!(Population::Region("north_america".into()).size(17), Ok(565_265_000));
        assert_eq!(Population::SamplingFraction(0.3).size(17), Ok(57));
        assert_eq!(Population::Size(17).size(17), Ok(17));
    }

    #[test]
    fn large_sample_is_fast() {
        // Expected Pitman class counts (theta ~ 0, alpha = 0.7) for 400,000 classes, sizes up to
        // 8,000, fractions carried: n = 4,626,315 records in 1,792 distinct sizes.
        let (mut hist, mut p, mut carry) = (Vec::new(), 0.7f64, 0.0);
        for s in 1..=8000u64 {
            let x = 400_000.0 * p + carry;
            (carry, p) = (x - x.floor(), p * (s as f64 - 0.7) / (s as f64 + 1.0));
            if x >= 1.0 {
                hist.push((s, x as u64));
            }
        }
        let n = hist.iter().map(|(s, c)| s * c).sum();
        assert_eq!((n, hist.len()), (4_626_315, 1792));
        let start = std::time::Instant::now();
        // The estimators alone (their intervals' cost is measured on the bench: docs/ci.md).
        let off = CiParams { ci_replicates: 0, ..CiParams::default() };
        let out = metrics(&ctx(), &hist, n, &Population::SamplingFraction(0.01), true, &off);
        let elapsed = start.elapsed();
        // scipy (digamma closed forms, numpy solve): theta 415.7055574962965, alpha 0.6988924928296204.
        assert_close(out[1].details["theta"].as_f64(), 415.7055574962965, 1e-6);
        assert_close(out[1].details["alpha"].as_f64(), 0.6988924928296204, 1e-6);
        assert!(elapsed.as_secs_f64() < 5.0, "{elapsed:?}");
    }

    /// `(estimate, low, high)` of each estimator's result, `None` when it gave no value.
    fn intervals(out: &[MetricResult]) -> Vec<Option<(f64, f64, f64)>> {
        out[..4]
            .iter()
            .map(|r| {
                let ci = &r.details["ci"];
                Some((r.value.as_f64()?, ci["low"].as_f64()?, ci["high"].as_f64()?))
            })
            .collect()
    }

    /// Class of each record of a synthetic population of `size` records: four independent
    /// attributes with Zipf-like value frequencies (80, 16, 40 and 2 values), so a few
    /// combinations are common and many are rare or unique.
    fn synthetic_population(size: usize, seed: u64) -> Vec<u32> {
        let mut rng = crate::rng::SplitMix64(seed);
        let cumulative = |values: u32, s: f64| {
            let mut acc = 0.0;
            let mut cum: Vec<f64> = (0..values)
                .map(|i| {
                    acc += 1.0 / libm::pow(f64::from(i + 1), s);
                    acc
                })
                .collect();
            cum.iter_mut().for_each(|c| *c /= acc);
            cum
        };
        let attributes = [cumulative(80, 0.6), cumulative(16, 1.0), cumulative(40, 1.2), cumulative(2, 0.2)];
        (0..size)
            .map(|_| {
                attributes.iter().fold(0u32, |key, cum| {
                    let u = rng.unit();
                    key * cum.len() as u32 + cum.partition_point(|&c| c <= u).min(cum.len() - 1) as u32
                })
            })
            .collect()
    }

    /// Class-size histogram of the records of `population` kept with probability `pi`.
    fn bernoulli_sample(population: &[u32], pi: f64, seed: u64) -> (Vec<(u64, u64)>, u64) {
        let mut rng = crate::rng::SplitMix64(seed);
        let mut classes: HashMap<u32, u64> = HashMap::new();
        for &key in population {
            if rng.unit() < pi {
                *classes.entry(key).or_default() += 1;
            }
        }
        let mut hist: BTreeMap<u64, u64> = BTreeMap::new();
        for size in classes.values() {
            *hist.entry(*size).or_default() += 1;
        }
        (hist.into_iter().collect(), classes.values().sum())
    }

    /// Issue 15's coverage check (docs/ci.md): 20 Bernoulli samples of a known synthetic
    /// population at two sampling fractions; each estimator's 95 % intervals must cover the mean
    /// of its estimates in at least 16 of the samples where it gives one. The same simulation
    /// prints each estimator's bias against the true population uniqueness (the figures in
    /// docs/ci.md: `cargo test --release -p pseudolens-core ci_coverage -- --nocapture`).
    #[test]
    #[allow(clippy::print_stdout, reason = "the study prints its figures for docs/ci.md")]
    fn ci_coverage_and_bias_by_simulation() {
        const SAMPLES: u64 = 20;
        let population = synthetic_population(200_000, 1515);
        let big_n = population.len() as u64;
        let mut sizes: HashMap<u32, u64> = HashMap::new();
        for &key in &population {
            *sizes.entry(key).or_default() += 1;
        }
        let truth = sizes.values().filter(|&&s| s == 1).count() as f64 / big_n as f64;
        println!("population N = {big_n}, classes {}, true uniqueness {truth:.5}", sizes.len());
        println!("pi    estimator  valid  mean       bias       rel.bias  sd         covered");
        for pi in [0.02, 0.2] {
            let runs: Vec<Vec<Option<(f64, f64, f64)>>> = (0..SAMPLES)
                .map(|k| {
                    let (hist, n) = bernoulli_sample(&population, pi, 100 + k);
                    intervals(&metrics(&ctx(), &hist, n, &Population::Size(big_n), true, &CiParams::default()))
                })
                .collect();
            for (j, name) in ["zayatz", "pitman", "snb", "dankar"].into_iter().enumerate() {
                let got: Vec<(f64, f64, f64)> = runs.iter().filter_map(|r| r[j]).collect();
                if got.is_empty() {
                    println!("{pi:<5} {name:<10} 0");
                    continue;
                }
                let mean = got.iter().map(|g| g.0).sum::<f64>() / got.len() as f64;
                let sd = (got.iter().map(|g| (g.0 - mean).powi(2)).sum::<f64>() / (got.len() as f64 - 1.0).max(1.0)).sqrt();
                let covered = got.iter().filter(|g| g.1 <= mean && mean <= g.2).count();
                let bias = mean - truth;
                println!("{pi:<5} {name:<10} {:<6} {mean:<10.5} {bias:<+10.5} {:<+9.3} {sd:<10.5} {covered}/{}", got.len(), bias / truth, got.len());
                assert!(got.iter().all(|g| g.1 <= g.2));
                assert!(covered * 5 >= got.len() * 4, "pi {pi} {name}: {covered} of {} cover the mean", got.len());
            }
        }
    }

    #[test]
    fn ci_hand_checked_degenerate_cases() {
        // No sample unique: every replicate has none either, every estimator is 0 in each.
        let out = metrics(&ctx(), &[(2, 3), (5, 1)], 11, &Population::Size(110), true, &CiParams::default());
        assert_eq!(intervals(&out), vec![Some((0.0, 0.0, 0.0)); 4]);
        let ci = &out[0].details["ci"];
        assert_eq!((ci["level"].as_f64(), ci["seed"].as_u64(), ci["replicates"].as_u64()), (Some(0.95), Some(15), Some(200)));
        assert_eq!(ci["method"], "class_bootstrap_percentile");
        // The sample is the population (pi = 1): no sampling variability, zero width at c_1/n.
        let out = metrics(&ctx(), &G1, 17, &Population::Size(17), true, &CiParams::default());
        assert_eq!(intervals(&out)[0], Some((3.0 / 17.0, 3.0 / 17.0, 3.0 / 17.0)));
        let curve = out.last().unwrap();
        let last = &curve.details["ci"][CURVE_FRACTIONS.len() - 1];
        assert_eq!((last["pi"].as_f64(), last["zayatz"]["low"].as_f64(), last["zayatz"]["high"].as_f64()), (Some(1.0), Some(3.0 / 17.0), Some(3.0 / 17.0)));
        // Pitman gives no estimate on G1: no interval either.
        assert!(out[1].details.get("ci").is_none() && last["pitman"].is_null());
        // 0 replicates: no interval anywhere.
        let off = CiParams { ci_replicates: 0, ..CiParams::default() };
        let out = metrics(&ctx(), &G1, 17, &Population::Size(170), true, &off);
        assert!(out.iter().all(|r| r.details.get("ci").is_none()));
    }

    #[test]
    fn ci_seeded_and_nested_on_adult() {
        let (hist, n) = adult();
        let at = |level: f64, seed: u64| {
            let ci = CiParams { ci_level: level, ci_seed: seed, ci_replicates: 100 };
            metrics(&ctx(), &hist, n, &Population::SamplingFraction(0.05), true, &ci)
        };
        let (a, b) = (at(0.95, 15), at(0.95, 15));
        assert_eq!(a, b);
        assert_ne!(intervals(&a), intervals(&at(0.95, 16)));
        let (wide, narrow) = (intervals(&at(0.99, 15)), intervals(&at(0.9, 15)));
        for (w, m) in wide.iter().zip(&narrow) {
            if let (Some(w), Some(m)) = (w, m) {
                assert!(w.1 <= m.1 && m.1 <= m.2 && m.2 <= w.2, "{w:?} {m:?}");
            }
        }
        // Zayatz and Pitman converge on adult: their intervals are there and not degenerate.
        for j in [0, 1] {
            let (v, lo, hi) = intervals(&a)[j].unwrap();
            assert!(lo < hi && (lo - v).abs() < 0.2 * v && (hi - v).abs() < 0.2 * v, "{j}: {v} [{lo}, {hi}]");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn estimates_are_never_non_finite(entries in prop::collection::vec((1u64..80, 0u64..60), 1..12)) {
            let hist: Vec<(u64, u64)> = entries.into_iter().collect::<BTreeMap<_, _>>().into_iter().collect();
            let n: u64 = hist.iter().map(|(s, c)| s * c).sum();
            prop_assume!(n > 0);
            for pi in CURVE_FRACTIONS {
                let big_n = (n as f64 / pi).round() as u64;
                let z = zayatz(&hist, n, big_n).count.unwrap();
                prop_assert!(z.is_finite() && (0.0..=big_n as f64).contains(&z));
                let p = pitman(&hist, n, big_n).count;
                prop_assert!(p.is_none_or(|p| p > 0.0 && p <= big_n as f64) || counts(&hist).1 == 0);
                prop_assert!(snb(&hist, n, big_n).count.is_none_or(f64::is_finite));
                prop_assert!(dankar(&hist, n, big_n).count.is_some_and(f64::is_finite));
            }
            let curve = metrics(&ctx(), &hist, n, &Population::Missing, true, &CiParams::default()).pop().unwrap();
            prop_assert_eq!(curve.value.as_array().map(Vec::len), Some(CURVE_FRACTIONS.len()));
        }
    }
}
