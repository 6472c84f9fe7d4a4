//! Settings of the utility metrics (spec utility.md), flattened into the audit configuration.

use serde::{Deserialize, Serialize};

/// `lmax_mode` of the proximity loss (utility.md Sec 3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LmaxMode {
    /// Loss 1 = replacing every value by the mean (project-defined default).
    #[default]
    Baseline,
    /// \[RUT\] Sec 3.3: `u/2` for nearest rounding, `u` for floor or ceiling.
    Rule,
    /// A user value (`lmax_value`).
    Fixed,
}

/// How a declared rounding unit was applied (utility.md Sec 3, `lmax_mode = rule`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundingMode {
    /// To the nearest multiple.
    #[default]
    Nearest,
    /// Down.
    Floor,
    /// Up.
    Ceiling,
}

/// `proximity_norm` (utility.md Sec 3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProximityNorm {
    /// `mad / Lmax_M`.
    #[default]
    Manhattan,
    /// `rmse / Lmax_E`.
    Euclidean,
}

/// Mean or max aggregation (utility.md Sec 7 options).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aggregation {
    /// Weighted mean.
    #[default]
    Mean,
    /// Maximum.
    Max,
}

/// `ctbil_blank` (utility.md Sec 8.2).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CtbilBlank {
    /// Blank is the category `BLANK`.
    #[default]
    Category,
    /// Rows with a blank are left out of that table.
    Exclude,
}

/// The aggregate of a query (utility.md Sec 10).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "aggregate")]
pub enum Aggregate {
    /// Rows per group.
    Count,
    /// Mean of a numeric column per group.
    Mean {
        /// The column averaged.
        column: String,
    },
    /// Percentage of the group's rows with `column = value`.
    Share {
        /// The column tested.
        column: String,
        /// The value counted.
        value: String,
    },
}

/// A query of the workload (utility.md Sec 10).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Query {
    /// Group-by columns `G`.
    pub group_by: Vec<String>,
    /// The aggregate.
    #[serde(flatten)]
    pub aggregate: Aggregate,
}

/// Settings of the utility metrics.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UtilityParams {
    /// `lmax_mode` (Sec 3).
    pub lmax_mode: LmaxMode,
    /// `Lmax` of `lmax_mode = fixed`.
    pub lmax_value: Option<f64>,
    /// Rounding mode of `lmax_mode = rule`.
    pub rounding_mode: RoundingMode,
    /// `proximity_norm` (Sec 3).
    pub proximity_norm: ProximityNorm,
    /// `B_max` of the numeric histograms (Sec 6.1).
    pub similarity_bins: usize,
    /// How an attribute's loss and similarity components combine (Sec 7).
    pub component_aggregation: Aggregation,
    /// How `l_total` and `s_total` combine the attributes (Sec 7).
    pub total_aggregation: Aggregation,
    /// `w_S` of `utility_u`; `w_L = 1 - w_S` (Sec 7).
    pub similarity_weight: f64,
    /// Variables `W` of CTBIL; empty = the QIs (Sec 8.2).
    pub ctbil_variables: Vec<String>,
    /// `Kdim` of CTBIL (Sec 8.2).
    pub ctbil_max_dimension: usize,
    /// `ctbil_blank` (Sec 8.2).
    pub ctbil_blank: CtbilBlank,
    /// Queries added to the default workload (Sec 10).
    pub queries: Vec<Query>,
    /// Attributes of the permutation model; empty = every numeric and date one (Sec 11.1).
    pub permutation_columns: Vec<String>,
    /// Seed of the CM3 subsampling (Sec 11.5).
    pub seed: u64,
    /// `|rho|` from which the row-order leak warns (issue 16; project-defined default 0.9).
    pub row_order_threshold: f64,
}

/// The most bins a numeric histogram may have (Sec 6.1 `B_max`).
pub const MAX_SIMILARITY_BINS: usize = 1_000_000;

impl UtilityParams {
    /// Checks the settings that a value out of range would make meaningless.
    pub fn check(&self) -> crate::error::Result<()> {
        let bad = [
            ("similarity bins", !(1..=MAX_SIMILARITY_BINS).contains(&self.similarity_bins)),
            ("similarity weight", !(0.0..=1.0).contains(&self.similarity_weight)),
            ("Lmax value", self.lmax_value.is_some_and(|l| !(l.is_finite() && l > 0.0))),
            ("row-order threshold", !(0.0..=1.0).contains(&self.row_order_threshold)),
        ];
        match bad.iter().find(|b| b.1) {
            Some((what, _)) => Err(crate::error::Error::config("invalid_utility_setting", format!("the {what} is out of range"))),
            None => Ok(()),
        }
    }
}

impl Default for UtilityParams {
    fn default() -> Self {
        UtilityParams {
            lmax_mode: LmaxMode::Baseline,
            lmax_value: None,
            rounding_mode: RoundingMode::Nearest,
            proximity_norm: ProximityNorm::Manhattan,
            similarity_bins: 100,
            component_aggregation: Aggregation::Mean,
            total_aggregation: Aggregation::Mean,
            similarity_weight: 0.5,
            ctbil_variables: Vec::new(),
            ctbil_max_dimension: 2,
            ctbil_blank: CtbilBlank::Category,
            queries: Vec::new(),
            permutation_columns: Vec::new(),
            seed: crate::utility::permutation::DEFAULT_SEED,
            row_order_threshold: crate::utility::row_order::DEFAULT_THRESHOLD,
        }
    }
}
