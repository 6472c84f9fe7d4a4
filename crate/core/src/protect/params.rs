//! The settings of the protect family (spec protect.md Sec 1-6): the QIs and sensitive
//! attributes, a ladder per QI, the criteria, the suppression limit, the objective, what the
//! release does with suppressed records, and the node to apply.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::apply::Suppressed;
use super::ladder::Ladder;
use super::search::Objective;
pub use crate::attribute::TDistance;
use crate::table::classes::MissingPolicy;

/// The default most nodes a lattice may have (Sec 2).
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// The privacy criteria (Sec 3), each optional, at least one given.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Criteria {
    /// A class smaller than `k` violates it.
    pub k: Option<u64>,
    /// A class with fewer than `l` distinct values of some SA violates it.
    pub l: Option<u64>,
    /// A class farther than `t` from some SA's distribution over `O` violates it.
    pub t: Option<f64>,
    /// The distance of `t` (the attribute family's: `auto` orders a numeric SA; `hierarchical`
    /// is not supported here, `t_distance_unsupported`).
    pub t_distance: TDistance,
    /// The largest average risk `K' / N'` of a feasible node.
    pub average_risk: Option<f64>,
}

/// Settings of the protect family (spec protect.md).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProtectParams {
    /// The quasi-identifiers (taken in column order).
    pub quasi_identifiers: Vec<String>,
    /// The sensitive attributes of `l` and `t`.
    pub sensitive: Vec<String>,
    /// The ladder of each QI; a QI without one gets (value, `*`).
    pub ladders: BTreeMap<String, Ladder>,
    /// The criteria.
    pub criteria: Criteria,
    /// `s_max`: the share of the records in scope that may be suppressed, in `[0, 1]`.
    pub suppression_limit: f64,
    /// What orders the feasible nodes.
    pub objective: Objective,
    /// What the release does with suppressed records.
    pub suppressed: Suppressed,
    /// The most nodes the lattice may have.
    pub max_nodes: u64,
    /// `ordinary` or `drop` (`wildcard`: `protect_wildcard_unsupported`).
    pub missing_policy: MissingPolicy,
    /// Records whose QI cells are all `SUPPRESSED` leave the scope (README Sec 7).
    pub exclude_suppressed_rows: bool,
    /// `tau` of the records at risk (identity-risk.md Sec 5).
    pub risk_threshold: f64,
    /// The node to apply, `{qi: level}` (a QI not named: level 0); `None`: the best node.
    pub node: Option<BTreeMap<String, usize>>,
}

impl Default for ProtectParams {
    fn default() -> Self {
        ProtectParams {
            quasi_identifiers: Vec::new(),
            sensitive: Vec::new(),
            ladders: BTreeMap::new(),
            criteria: Criteria::default(),
            suppression_limit: 0.0,
            objective: Objective::Loss,
            suppressed: Suppressed::Remove,
            max_nodes: DEFAULT_MAX_NODES,
            missing_policy: MissingPolicy::Ordinary,
            exclude_suppressed_rows: true,
            risk_threshold: 0.2,
            node: None,
        }
    }
}

/// The protection chosen for a table as a settings file and a link carry it (issue 38,
/// Deliver 5; `AuditConfig::protect`): what [`ProtectParams`] holds beyond the audit's own
/// settings, from which the QIs, the sensitive columns, the missing-value policy and `tau` come
/// (`AuditConfig::protect_params`). Hierarchy ladders hold values of the data: a link leaves
/// them out (the page), the settings file keeps them.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProtectSettings {
    /// The ladder of each QI; a QI without one gets (value, `*`).
    pub ladders: BTreeMap<String, Ladder>,
    /// The criteria.
    pub criteria: Criteria,
    /// `s_max`, in `[0, 1]`.
    pub suppression_limit: f64,
    /// What orders the feasible nodes.
    pub objective: Objective,
    /// What the release does with suppressed records.
    pub suppressed: Suppressed,
    /// The most nodes the lattice may have.
    pub max_nodes: u64,
    /// The node chosen, `{qi: level}`; `None`: the best node.
    pub node: Option<BTreeMap<String, usize>>,
}

impl Default for ProtectSettings {
    fn default() -> Self {
        let p = ProtectParams::default();
        ProtectSettings {
            ladders: p.ladders,
            criteria: p.criteria,
            suppression_limit: p.suppression_limit,
            objective: p.objective,
            suppressed: p.suppressed,
            max_nodes: p.max_nodes,
            node: p.node,
        }
    }
}

/// A preset of criteria and suppression limit that a front end offers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Preset {
    /// A stable id.
    pub id: &'static str,
    /// Its name, in words.
    pub name: &'static str,
    /// The criteria.
    pub criteria: Criteria,
    /// The suppression limit `s_max`.
    pub suppression_limit: f64,
}

/// The presets (issue 38): ARX's green thresholds (the audit's ARX verdict is green when no
/// record's risk is above 0.2, so `k` 5, and the success rate is at most 5 %, so an average
/// risk of at most 5 %) with up to 5 % of the records suppressed; and `k` 5 with at most 1 %
/// suppressed (docs/decisions/protect/page-protect.md).
pub const PRESETS: [Preset; 2] = [
    Preset {
        id: "arx_green",
        name: "ARX's green thresholds: k 5, average risk at most 5 %, at most 5 % suppressed",
        criteria: Criteria { k: Some(5), l: None, t: None, t_distance: TDistance::Auto, average_risk: Some(0.05) },
        suppression_limit: 0.05,
    },
    Preset {
        id: "k5_1pct",
        name: "k 5, at most 1 % suppressed",
        criteria: Criteria { k: Some(5), l: None, t: None, t_distance: TDistance::Auto, average_risk: None },
        suppression_limit: 0.01,
    },
];
