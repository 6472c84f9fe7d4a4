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

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::record_risk::neumaier;
use crate::metric::{Context, MetricResult, Status};

/// ARX's region presets, name and population (spec identity-risk.md Sec 7; [HCT] Sec 2.5).
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
        let letters = |s: &str| s.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
        let big_n = match self {
            Population::Missing => return Err((Status::NotApplicable, "population_size_missing")),
            Population::Size(big_n) => *big_n,
            Population::SamplingFraction(pi) if *pi > 0.0 && *pi <= 1.0 => (n as f64 / pi).round() as u64,
            Population::SamplingFraction(_) => return Err((Status::Error, "invalid_sampling_fraction")),
            Population::Region(name) => {
                let key: String = letters(name);
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
        c as f64 * (sf.ln() - ln_gamma_diff(bn - sf + 1.0, m) + ln_gamma_diff(bn - sf - nf + 2.0, m)).exp()
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
    let stop = |cause: &str, theta: f64, alpha: f64, it: u32| {
        Err(json!({ "cause": cause, "theta": finite_or_null(theta), "alpha": finite_or_null(alpha), "iterations": it }))
    };
    for it in 0..=MAX_ITERATIONS {
        let (f, j) = pitman_system(hist, n, u, theta, alpha);
        if !f.iter().chain(j.iter().flatten()).all(|v| v.is_finite()) {
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
    }
    unreachable!("the loop returns at it == MAX_ITERATIONS")
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

fn finite_or_null(v: f64) -> Value {
    if v.is_finite() { json!(v) } else { Value::Null }
}

/// `U = Gamma(theta+1)/Gamma(theta+alpha) N^alpha` from a fit; invalid outside `(0, N]`.
fn pitman_at(fit: &PitmanFit, c1: u64, big_n: u64) -> Estimate {
    let (theta, alpha, iterations) = match fit {
        _ if c1 == 0 => return Estimate::valid(0.0, json!({})),
        Ok(fit) => *fit,
        Err(why) => return Estimate::invalid(why.clone()),
    };
    let details = json!({ "theta": theta, "alpha": alpha, "iterations": iterations });
    let count = (ln_gamma_diff(theta + alpha, 1.0 - alpha) + alpha * (big_n as f64).ln()).exp();
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
/// the 16 start points; the first converged start gives `U = k_hat beta^a`.
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
    for &(s, c) in hist {
        let (s, c) = (s as f64, c as f64);
        let w = (1.0 - f).powf(s) * c;
        v1 += s * f * f * (1.0 - f * f).powf(s - 1.0) * c;
        v2 += w * (1.0 + f).powf(s) - 1.0;
        v3 += w;
        v4 += s * f * (1.0 - f).powf(s - 1.0) * c;
    }
    let k = u as f64 + c1 as f64 * (v1 / v2) * (v3 / v4).powi(2);
    let (c1, c2) = (c1 as f64, c2 as f64);
    let g = |[a, b]: [f64; 2]| {
        let d = (1.0 - f) * (1.0 - b);
        [
            k * f * (b / (1.0 - d)).powf(a) * ((a * d) / (1.0 - d) + 1.0) - c1,
            k * a * b.powf(a) * f * f * (1.0 - b) / 2.0 * (1.0 - d).powf(a + 2.0) * (2.0 - (1.0 - a) * d) - c2,
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
                    let count = k * x[1].powf(x[0]);
                    let details = json!({ "k_hat": k, "a": x[0], "beta": x[1], "start": [a0, b0], "iterations": it });
                    return if count.is_finite() && count != 0.0 {
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
    Estimate::invalid(json!({ "cause": "no_convergence", "k_hat": finite_or_null(k) }))
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
    let c1 = counts(hist).1;
    let pi = n as f64 / big_n as f64;
    let (z, p, s) = (zayatz(hist, n, big_n), pitman_at(fit, c1, big_n), snb(hist, n, big_n));
    let d = decide(c1, pi, &z, if pi <= 0.1 { &p } else { &s });
    [z, p, s, d]
}

/// Ids of the estimators' results, in output order.
const ESTIMATOR_IDS: [&str; 4] = [
    "population_uniqueness_zayatz",
    "population_uniqueness_pitman",
    "population_uniqueness_snb",
    "population_uniqueness_dankar",
];

/// The four `population_uniqueness_*` results (value `U/N`; `details`: `U`, `N`, `pi`,
/// `population`, and the estimator's parameters) and `population_uniqueness_curve` (spec
/// identity-risk.md Sec 7). `hist` is `(s, c_s)` ascending over `n` records; `partition` is
/// false under the `wildcard` policy, where the class sizes are not a partition.
pub fn metrics(
    ctx: &Context,
    hist: &[(u64, u64)],
    n: u64,
    population: &Population,
    partition: bool,
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
    let mut out: Vec<MetricResult> = match population.size(n) {
        Err((status, reason)) => ESTIMATOR_IDS
            .iter()
            .map(|id| ctx.without_value(id, status, reason).with_details(json!({ "population": population })))
            .collect(),
        Ok(big_n) => {
            let pi = n as f64 / big_n as f64;
            ESTIMATOR_IDS
                .iter()
                .zip(all_at(hist, n, big_n, &fit))
                .map(|(id, e)| {
                    let mut details = json!({ "U": e.count, "N": big_n, "pi": pi, "population": population });
                    if let (Value::Object(d), Value::Object(extra)) = (&mut details, e.details) {
                        d.extend(extra);
                    }
                    match (e.count, e.reason) {
                        (Some(count), _) => ctx.ok(id, count / big_n as f64),
                        (None, reason) => ctx.without_value(id, Status::NotApplicable, reason.unwrap_or("solver_invalid")),
                    }
                    .with_details(details)
                })
                .collect()
        }
    };
    let curve: Vec<Value> = CURVE_FRACTIONS
        .iter()
        .map(|&pi| {
            let big_n = (n as f64 / pi).round() as u64;
            let [z, p, s, d] = all_at(hist, n, big_n, &fit);
            let share = |e: &Estimate| e.count.map(|u| u / big_n as f64);
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
    out.push(ctx.ok("population_uniqueness_curve", curve).with_details(json!({ "pitman": pitman_details })));
    out
}

/// Bernoulli numbers `B_2 .. B_16` of the asymptotic series.
const BERNOULLI: [f64; 8] =
    [1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0, 5.0 / 66.0, -691.0 / 2730.0, 7.0 / 6.0, -3617.0 / 510.0];
/// Arguments are shifted up by recurrence to at least this before the series is used
/// (the truncation error there is below `1e-17` relative).
const SERIES_FROM: f64 = 12.0;

/// `sum_k B_2k coef(2k) y^-(first + 2k - 2)`, `k = 1..8`.
fn series(y: f64, first: i32, coef: impl Fn(f64) -> f64) -> f64 {
    let (step, mut p) = (1.0 / (y * y), y.powi(-first));
    let mut sum = 0.0;
    for (k, b) in BERNOULLI.iter().enumerate() {
        sum += b * coef(2.0 * (k as f64 + 1.0)) * p;
        p *= step;
    }
    sum
}

/// `lgamma(x+m) - lgamma(x)` for `x > 0`, `m >= 0`, from Stirling's series.
fn ln_gamma_diff(mut x: f64, m: f64) -> f64 {
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc -= (m / x).ln_1p();
        x += 1.0;
    }
    let (y, tail) = (x + m, |k: f64| 1.0 / (k * (k - 1.0)));
    acc + (x - 0.5) * (m / x).ln_1p() + m * y.ln() - m + (series(y, 1, tail) - series(x, 1, tail))
}

/// `psi(x+m) - psi(x)` (`= sum_{k<m} 1/(x+k)` for integer `m >= 0`).
fn digamma_diff(mut x: f64, m: f64) -> f64 {
    if x <= 0.0 {
        return digamma(x + m) - digamma(x);
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc += 1.0 / x - 1.0 / (x + m);
        x += 1.0;
    }
    let (y, tail) = (x + m, |k: f64| 1.0 / k);
    acc + (m / x).ln_1p() + m / (2.0 * x * y) - (series(y, 2, tail) - series(x, 2, tail))
}

/// `psi1(x) - psi1(x+m)` (`= sum_{k<m} 1/(x+k)^2` for integer `m >= 0`).
fn trigamma_diff(mut x: f64, m: f64) -> f64 {
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

/// Digamma `psi(x)`, with the reflection formula for `x <= 0` (Pitman's iterates may go there).
fn digamma(mut x: f64) -> f64 {
    if x <= 0.0 {
        return digamma(1.0 - x) - PI / (PI * x).tan();
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc -= 1.0 / x;
        x += 1.0;
    }
    acc + x.ln() - 0.5 / x - series(x, 2, |k| 1.0 / k)
}

/// Trigamma `psi1(x)`, with the reflection formula for `x <= 0`.
fn trigamma(mut x: f64) -> f64 {
    if x <= 0.0 {
        return (PI / (PI * x).sin()).powi(2) - trigamma(1.0 - x);
    }
    let mut acc = 0.0;
    while x < SERIES_FROM {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    acc + 1.0 / x + 0.5 / (x * x) + series(x, 3, |_| 1.0)
}

#[cfg(test)]
mod tests;
