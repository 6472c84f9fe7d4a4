//! Choosing among candidate releases of the same data (spec balance.md Sec 5-6): the
//! constrained choice with its derived weights (`rut_constrained_choice`) and the robustness
//! sweep over `alpha` (`rut_alpha_sweep`).
//!
//! Pure functions over `(name, R, U)` candidates, in input order: a comparison of several
//! audited releases passes each one's `risk_r` and `utility_u`.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::rut::rut;
use crate::metric::{Context, MetricResult, Status};

/// One candidate release.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// How the release is named in the results.
    pub name: String,
    /// Its overall risk `R` (`risk_r`).
    pub risk_r: f64,
    /// Its utility `U` (`utility_u`).
    pub utility_u: f64,
}

/// Settings of the constrained choice (Sec 5): the RUT weight and the optional thresholds.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChoiceParams {
    /// `alpha` of `rut`.
    pub rut_alpha: f64,
    /// Feasible only when `R <= tau_R`.
    pub tau_r: Option<f64>,
    /// Feasible only when `U >= tau_U`.
    pub tau_u: Option<f64>,
}

impl Default for ChoiceParams {
    fn default() -> Self {
        ChoiceParams { rut_alpha: 0.5, tau_r: None, tau_u: None }
    }
}

/// The `alpha` values of the sweep (Sec 6): 0.2 to 0.8 in steps of 0.1.
pub const SWEEP_ALPHAS: [f64; 7] = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

/// The admitted candidate with the largest `rut` at `alpha`; ties go to the smaller `R`, then
/// to the earlier candidate (Sec 5.1). `None` when no candidate is admitted.
pub fn argmax(candidates: &[Candidate], alpha: f64, admit: impl Fn(&Candidate) -> bool) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, c) in candidates.iter().enumerate().filter(|(_, c)| admit(c)) {
        let score = rut(c.utility_u, c.risk_r, alpha);
        let better = best.is_none_or(|(b, top)| {
            // Scores equal up to rounding tie: the same score computed in another order must not
            // decide the choice.
            if crate::numeric::ties(score, top) { c.risk_r < candidates[b].risk_r } else { score > top }
        });
        if better {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

fn names(candidates: &[Candidate]) -> Vec<&str> {
    candidates.iter().map(|c| c.name.as_str()).collect()
}

fn scores(candidates: &[Candidate], alpha: f64) -> Vec<f64> {
    candidates.iter().map(|c| rut(c.utility_u, c.risk_r, alpha)).collect()
}

/// `rut_alpha_sweep` (Sec 6): for each of [`SWEEP_ALPHAS`] the `rut` of every candidate and
/// the argmax; `details.stable` iff the argmax never changes.
pub fn rut_alpha_sweep(ctx: &Context, candidates: &[Candidate]) -> MetricResult {
    let id = "rut_alpha_sweep";
    if candidates.is_empty() {
        return ctx.without_value(id, Status::NotApplicable, "no_candidates");
    }
    let best: Vec<usize> = SWEEP_ALPHAS.iter().map(|&alpha| argmax(candidates, alpha, |_| true).expect("some candidate")).collect();
    let rows: Vec<Value> = SWEEP_ALPHAS
        .iter()
        .zip(&best)
        .map(|(&alpha, &b)| json!({ "alpha": alpha, "rut_per_candidate": scores(candidates, alpha), "argmax": candidates[b].name }))
        .collect();
    let stable = best.iter().all(|&b| b == best[0]);
    ctx.ok(id, rows).with_details(json!({ "candidates": names(candidates), "stable": stable }))
}

/// `rut_constrained_choice` (Sec 5): the feasible candidate (`R <= tau_R`, `U >= tau_U`,
/// each when given) with the largest `rut`; its name, or `null` with `no_feasible_release`.
/// `details.derived_weights` holds the weights of Sec 5.2 for each threshold given.
pub fn rut_constrained_choice(ctx: &Context, candidates: &[Candidate], p: &ChoiceParams) -> MetricResult {
    let id = "rut_constrained_choice";
    let feasible = |c: &Candidate| p.tau_r.is_none_or(|t| c.risk_r <= t) && p.tau_u.is_none_or(|t| c.utility_u >= t);
    let details = json!({
        "alpha": p.rut_alpha,
        "tau_r": p.tau_r,
        "tau_u": p.tau_u,
        "candidates": names(candidates),
        "rut_per_candidate": scores(candidates, p.rut_alpha),
        "feasible": candidates.iter().filter(|c| feasible(c)).map(|c| c.name.as_str()).collect::<Vec<_>>(),
        "derived_weights": derived_weights(candidates, p),
    });
    let result = match argmax(candidates, p.rut_alpha, feasible) {
        Some(i) => ctx.ok(id, &candidates[i].name),
        None if candidates.is_empty() => ctx.without_value(id, Status::NotApplicable, "no_candidates"),
        None => ctx.without_value(id, Status::NotApplicable, "no_feasible_release"),
    };
    result.with_details(details)
}

/// The weights of Sec 5.2, for each threshold given: for `tau_R` the smallest `beta` in
/// `0.00, 0.01, ..., 1.00` whose unconstrained argmax (at `alpha = 1 - beta`) has
/// `R <= tau_R`; for `tau_U` the smallest such `alpha` with `U >= tau_U`. `null` when no
/// weight on the grid qualifies.
pub fn derived_weights(candidates: &[Candidate], p: &ChoiceParams) -> Value {
    // Weights in hundredths, so that alpha + beta is exactly 1 in the output.
    let smallest = |alpha_of: fn(u32) -> u32, meets: &dyn Fn(&Candidate) -> bool| {
        (0..=100u32)
            .map(alpha_of)
            .find(|&a| argmax(candidates, f64::from(a) / 100.0, |_| true).is_some_and(|i| meets(&candidates[i])))
            .map_or(Value::Null, |a| json!({ "alpha": f64::from(a) / 100.0, "beta": f64::from(100 - a) / 100.0 }))
    };
    let mut out = serde_json::Map::new();
    if let Some(t) = p.tau_r {
        out.insert("tau_r".into(), smallest(|beta| 100 - beta, &|c| c.risk_r <= t));
    }
    if let Some(t) = p.tau_u {
        out.insert("tau_u".into(), smallest(|alpha| alpha, &|c| c.utility_u >= t));
    }
    Value::Object(out)
}

/// The cross-candidate results of a comparison (Sec 5-6), in this order:
/// `rut_alpha_sweep`, `rut_constrained_choice`; without quasi-identifiers neither has a value
/// (`no_quasi_identifiers`).
pub fn choose(quasi_identifiers: &[String], candidates: &[Candidate], p: &ChoiceParams) -> Vec<MetricResult> {
    let ctx = Context {
        family: "balance",
        scope: crate::metric::Scope { table: "P", quasi_identifiers: quasi_identifiers.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({ "rut_alpha": p.rut_alpha, "tau_r": p.tau_r, "tau_u": p.tau_u }),
    };
    if quasi_identifiers.is_empty() {
        // No release has a risk: the candidates are compared on utility alone, none chosen.
        let none = |id| ctx.without_value(id, Status::NotApplicable, "no_quasi_identifiers");
        return vec![none("rut_alpha_sweep"), none("rut_constrained_choice")];
    }
    vec![rut_alpha_sweep(&ctx, candidates), rut_constrained_choice(&ctx, candidates, p)]
}
