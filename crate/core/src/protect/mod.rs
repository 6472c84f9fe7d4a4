//! Protect (spec protect.md): candidate releases of the original `O` by full-domain
//! generalization over a lattice of ladder levels with a record-suppression limit, an exact
//! search of that lattice for the criteria `k`, distinct `l`, `t` and a maximum average risk,
//! and the release of a chosen node as CSV.
//!
//! - Sec 1 ladders: [`ladder`] (kinds, nesting, ARX's layout) and [`labels`];
//! - Sec 2-3 the classes of a node, merged from the level-0 class table: [`base`], [`node`];
//! - Sec 3-4 the search, the best node, minimal nodes, Pareto front: [`search`];
//! - Sec 5 apply: [`apply`]; Sec 6 the result: [`result`].

pub mod apply;
pub mod base;
pub mod labels;
pub mod ladder;
pub mod node;
pub mod result;
pub mod search;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use apply::{Release, Suppressed};
pub use labels::DateLevel;
pub use ladder::{BuiltLadder, ColumnReading, Ladder};
pub use node::Figures;
pub use search::{Objective, Search};

use base::Base;
use node::Rules;
use search::Lattice;

use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::metric::MetricResult;
use crate::table::Table;
use crate::table::classes::MissingPolicy;

/// The default most nodes a lattice may have (Sec 2).
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// The t-closeness distance of the `t` criterion (attribute-risk.md Sec 3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TDistance {
    /// Ordered for a numeric SA, else equal.
    #[default]
    Auto,
    /// The equal distance.
    Equal,
    /// The ordered distance (a numeric SA; else `sa_not_ordered`).
    Ordered,
}

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
    /// The distance of `t`.
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

/// A table prepared for protection: its QIs in column order, their ladders, the level-0
/// classes and the rules. Any node's figures and release come from it without reading the
/// rows again.
pub struct Protector {
    /// The QIs, in column order.
    pub qis: Vec<String>,
    qi_columns: Vec<usize>,
    /// The ladder of each QI.
    pub ladders: Vec<BuiltLadder>,
    base: Base,
    rules: Rules,
    params: ProtectParams,
}

/// A settings error.
fn bad(code: &'static str, message: String) -> Error {
    Error::config(code, message)
}

/// The column of `name`: `unknown_column` otherwise.
fn column(table: &Table, name: &str) -> Result<usize> {
    table.header.iter().position(|h| h == name).ok_or_else(|| bad("unknown_column", format!("there is no column \"{name}\"")))
}

impl Protector {
    /// Checks the settings, reads the QIs' values and builds the ladders (nesting checked)
    /// and the level-0 classes. `no_quasi_identifiers` when none is given.
    pub fn new(table: &Table, norm: &Normaliser, params: &ProtectParams) -> Result<Protector> {
        let p = params;
        if p.missing_policy == MissingPolicy::Wildcard {
            return Err(bad("protect_wildcard_unsupported", "the wildcard missing-value policy is not supported by protect: choose ordinary or drop".into()));
        }
        if p.quasi_identifiers.is_empty() {
            return Err(bad("no_quasi_identifiers", "no quasi-identifier is given".into()));
        }
        let c = &p.criteria;
        if c.k.is_none() && c.l.is_none() && c.t.is_none() && c.average_risk.is_none() {
            return Err(bad("no_criteria", "no criterion is given: set k, l, t or a maximum average risk".into()));
        }
        if (c.l.is_some() || c.t.is_some()) && p.sensitive.is_empty() {
            return Err(bad("no_sensitive_attribute", "l and t need a sensitive attribute".into()));
        }
        for (what, ok) in [
            ("suppression_limit must lie in [0, 1]", (0.0..=1.0).contains(&p.suppression_limit)),
            ("k must be at least 1", c.k.is_none_or(|k| k >= 1)),
            ("l must be at least 1", c.l.is_none_or(|l| l >= 1)),
            ("t must lie in [0, 1]", c.t.is_none_or(|t| (0.0..=1.0).contains(&t))),
            ("average_risk must lie in (0, 1]", c.average_risk.is_none_or(|r| r > 0.0 && r <= 1.0)),
            ("risk_threshold must lie in (0, 1]", p.risk_threshold > 0.0 && p.risk_threshold <= 1.0),
        ] {
            if !ok {
                return Err(bad("invalid_parameter", what.into()));
            }
        }
        let mut qi_columns: Vec<usize> = p.quasi_identifiers.iter().map(|q| column(table, q)).collect::<Result<_>>()?;
        qi_columns.sort_unstable();
        qi_columns.dedup();
        let qis: Vec<String> = qi_columns.iter().map(|&j| table.header[j].clone()).collect();
        if let Some(q) = p.ladders.keys().find(|q| !qis.contains(q)) {
            return Err(bad("ladder_without_qi", format!("a ladder is given for \"{q}\", which is no quasi-identifier")));
        }
        let sa_columns: Vec<usize> = p.sensitive.iter().map(|s| column(table, s)).collect::<Result<_>>()?;
        if let Some(s) = p.sensitive.iter().find(|s| qis.contains(s)) {
            return Err(bad("sensitive_is_qi", format!("\"{s}\" cannot be both a quasi-identifier and a sensitive attribute")));
        }
        let base = Base::new(table, norm, &qi_columns, &sa_columns, p.missing_policy, p.exclude_suppressed_rows)?;
        let read = norm.clone().delimiter(&table.facts.delimiter);
        let mut ladders = Vec::with_capacity(qis.len());
        for (a, (&j, q)) in qi_columns.iter().zip(&qis).enumerate() {
            let ladder = p.ladders.get(q);
            let reading = match ladder {
                Some(Ladder::Bands { .. } | Ladder::Dates { .. }) => {
                    let profile = crate::table::profile::profile(&table.columns[j], q, j, table.facts.rows_total, &read);
                    ColumnReading { date: profile.date_form.or_else(|| norm.date_form(q)), decimal_comma: profile.decimal_comma }
                }
                _ => ColumnReading::default(),
            };
            let line = |code: u32| table.lines.line(u64::from(base.first_row[a][code as usize]));
            let label = |f: &str| norm.label(f).into_owned();
            ladders.push(BuiltLadder::build(q, ladder, base.values(a), base.classes.dict(a).len(), reading, &label, &line)?);
        }
        let t_ordered = match c.t_distance {
            TDistance::Equal => false,
            TDistance::Auto => true,
            TDistance::Ordered => {
                if let Some(sa) = base.sensitive.iter().find(|s| s.ordered.is_none()) {
                    return Err(bad("sa_not_ordered", format!("the ordered distance needs a numeric sensitive attribute; \"{}\" is not", sa.name)));
                }
                true
            }
        };
        let limit = (p.suppression_limit * base.n as f64 + 1e-9).floor() as u64;
        let rules = Rules { k: c.k, l: c.l, t: c.t, t_ordered, average_risk: c.average_risk, limit, tau: p.risk_threshold };
        Ok(Protector { qis, qi_columns, ladders, base, rules, params: p.clone() })
    }

    /// Records in scope `N`.
    pub fn records(&self) -> u64 {
        self.base.n
    }

    /// The lattice of the ladders (`too_many_nodes` above `max_nodes`).
    pub fn lattice(&self) -> Result<Lattice> {
        Lattice::new(self.ladders.iter().map(BuiltLadder::height).collect(), &self.qis, self.params.max_nodes)
    }

    /// The levels of a node given as `{qi: level}` (a QI not named: level 0); `node_invalid`
    /// for an unknown QI or a level past its ladder.
    pub fn node(&self, levels: &BTreeMap<String, usize>) -> Result<Vec<usize>> {
        if let Some(q) = levels.keys().find(|q| !self.qis.contains(q)) {
            return Err(bad("node_invalid", format!("\"{q}\" is no quasi-identifier")));
        }
        self.qis
            .iter()
            .zip(&self.ladders)
            .map(|(q, l)| {
                let level = levels.get(q).copied().unwrap_or(0);
                if level < l.height() {
                    Ok(level)
                } else {
                    Err(bad("node_invalid", format!("the ladder of \"{q}\" has levels 0 to {}, not {level}", l.height() - 1)))
                }
            })
            .collect()
    }

    /// The figures of any node, feasible or not (levels in QI order, each below its ladder's
    /// height).
    pub fn evaluate(&self, levels: &[usize]) -> Figures {
        node::evaluate(&self.base, &self.ladders, &self.rules, levels).0
    }

    /// The exact search (Sec 3-4).
    pub fn search(&self) -> Result<Search> {
        let prune = self.rules.t.is_none() || self.params.suppression_limit == 0.0;
        Ok(search::search(&self.base, &self.ladders, &self.rules, self.lattice()?, self.params.objective, prune))
    }

    /// The `protect` result of a search (Sec 6).
    pub fn result(&self, search: &Search) -> MetricResult {
        result::result(self, search)
    }

    /// The release of the node `levels` (Sec 5): every column must be kept in memory
    /// (`not_retained` otherwise).
    pub fn release<'a>(&'a self, table: &'a Table, levels: &[usize]) -> Result<Release<'a>> {
        if let Some(j) = table.columns.iter().position(|c| !c.is_retained()) {
            return Err(Error::config("not_retained", "this column was not kept in memory: the release cannot be written from the kept table").in_column(&table.header[j]));
        }
        let (_, suppressed) = node::evaluate(&self.base, &self.ladders, &self.rules, levels);
        Ok(Release::new(table, &self.base, &self.ladders, &self.qi_columns, levels, suppressed, self.params.suppressed))
    }
}

/// The `protect` result of `table` (Sec 6): the search of its lattice under `params`. An
/// error for bad settings or ladders (a ladder that does not nest, an unmapped value, a
/// non-numeric cell under bands, a lattice over the node limit); `not_applicable` with
/// `no_quasi_identifiers` when no QI is given.
pub fn protect(table: &Table, norm: &Normaliser, params: &ProtectParams) -> Result<MetricResult> {
    if params.quasi_identifiers.is_empty() {
        return Ok(result::context(&[], params).without_value("protect", crate::metric::Status::NotApplicable, "no_quasi_identifiers"));
    }
    let p = Protector::new(table, norm, params)?;
    let search = p.search()?;
    Ok(p.result(&search))
}

/// The release of `table` as CSV bytes (Sec 5): the node of `params.node`, else the best one
/// (`no_feasible_node` when there is none).
pub fn release_csv(table: &Table, norm: &Normaliser, params: &ProtectParams) -> Result<Vec<u8>> {
    let p = Protector::new(table, norm, params)?;
    let levels = match &params.node {
        Some(n) => p.node(n)?,
        None => {
            let search = p.search()?;
            let best = search.best.ok_or_else(|| Error::input("no_feasible_node", "no node of the lattice meets the criteria within the suppression limit"))?;
            search.lattice.levels(best)
        }
    };
    Ok(p.release(table, &levels)?.to_bytes())
}
