//! Balance of risk and utility (spec balance.md): the external linkage risk against a
//! reference table `E`, the overall risk `R` and safety, the RUT score, and the choice among
//! several candidate releases.
//!
//! - Sec 1 (R_external, match rate, unique-combination and probability-based approaches):
//!   [`external`].
//! - Sec 2-4 (risk_r, safety, rut, rut_f1, rut_ratio, weight presets): [`rut`].
//! - Sec 5-6 (constrained choice, derived weights, alpha sweep): [`choice`], pure functions
//!   over candidates that a comparison of several releases calls.

pub mod choice;
pub mod external;
pub mod rut;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::{Error, Result};
use crate::identity::{ClassTable, IdentityParams};
use crate::metric::{Context, MetricResult, Scope, Status};
use crate::table::reference::ReferenceTable;
pub use choice::{Candidate, ChoiceParams, choose, rut_alpha_sweep, rut_constrained_choice};
pub use rut::{RiskCombination, WeightPreset};

/// Ids of a single release's balance results, in output order.
pub const IDS: [&str; 10] =
    ["r_external", "r_external_match_rate", "r_unique", "r_external_probability", "r_external_correlation", "risk_r", "safety", "rut", "rut_f1", "rut_ratio"];

/// Settings of the balance family (balance.md Sec 2-3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BalanceParams {
    /// How `risk_r` combines `R_int` and `R_ext` (Sec 2).
    pub risk_combination: RiskCombination,
    /// `w_int` of the `weighted` combination; `w_ext = 1 - w_int` (Sec 2).
    pub risk_weight_internal: f64,
    /// `alpha`, the weight of utility in `rut`; `beta = 1 - alpha` (Sec 3, presets Sec 4).
    pub rut_alpha: f64,
}

impl Default for BalanceParams {
    fn default() -> Self {
        BalanceParams { risk_combination: RiskCombination::Max, risk_weight_internal: 0.5, rut_alpha: WeightPreset::Balanced.alpha() }
    }
}

impl BalanceParams {
    /// Checks that both weights lie in `[0, 1]`.
    pub fn check(&self) -> Result<()> {
        for (what, w) in [("internal risk weight", self.risk_weight_internal), ("RUT alpha", self.rut_alpha)] {
            if !(0.0..=1.0).contains(&w) {
                return Err(Error::config("invalid_weight_setting", format!("the {what} must lie in [0, 1], not {w}")));
            }
        }
        Ok(())
    }
}

/// What the balance family of one release is computed from.
pub struct BalanceInput<'a> {
    /// The class table of the released file `P`.
    pub table: &'a ClassTable,
    /// QI names, in QI order (`A`).
    pub qi: &'a [String],
    /// The external reference table `E`, if given.
    pub external: Option<&'a ReferenceTable>,
    /// The identity settings (policy, wildcard `alpha`, suppressed rows).
    pub identity: &'a IdentityParams,
    /// The identity family's `r_internal`, if it has a value.
    pub r_internal: Option<f64>,
    /// The utility family's `utility_u`, with an original table and a value.
    pub utility_u: Option<f64>,
}

/// The balance results of one release: [`IDS`] in order; and `risk_r`'s value.
pub fn finish(input: &BalanceInput<'_>, p: &BalanceParams) -> (Vec<MetricResult>, Option<f64>) {
    let id = input.identity;
    let ctx = Context {
        family: "balance",
        scope: Scope { table: "P", quasi_identifiers: input.qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({
            "missing_policy": id.missing_policy,
            "exclude_suppressed_rows": id.exclude_suppressed_rows,
            "wildcard_alpha": id.wildcard_alpha,
            "risk_combination": p.risk_combination,
            "risk_weight_internal": p.risk_weight_internal,
            "rut_alpha": p.rut_alpha,
        }),
    };
    if input.table.is_empty() {
        return (IDS.iter().map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect(), None);
    }
    let (mut out, r_ext) = external::metrics(&ctx, input.table, input.qi, input.external, id.wildcard_alpha, &id.ci);
    let risk_r = match input.r_internal {
        Some(r_int) => {
            let (rut, r) = rut::metrics(&ctx, r_int, r_ext, input.utility_u, p);
            out.extend(rut);
            crate::figures::finite(r)
        }
        None => {
            out.extend(rut::IDS.iter().map(|id| ctx.without_value(id, Status::NotApplicable, "no_internal_risk")));
            None
        }
    };
    (out, risk_r)
}
