//! The settings of an audit (spec README Sec 3, 5, 6, 7) and their checks: the config layer,
//! above the metric families whose parameters it gathers, below the audit that uses it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::advice::AdviceParams;
use crate::attack::AttackParams;
use crate::attribute::AttributeParams;
use crate::balance::BalanceParams;
use crate::error::{Error, Result};
use crate::identity::IdentityParams;
use crate::identity::kmap::KMapParams;
use crate::identity::population::Population;
use crate::identity::suda::SudaParams;
use crate::ingest::cell::{DEFAULT_MISSING_TOKENS, Normaliser};
use crate::ingest::encoding::Encoding;
use crate::ingest::reader::{CsvOptions, Ragged};
use crate::interval::CiParams;
use crate::protect::{ProtectParams, ProtectSettings};
use crate::synthetic::SyntheticParams;
use crate::table::classes::MissingPolicy;
use crate::table::read::ReadSettings;
use crate::utility::attribute::AttributeSettings;
use crate::utility::params::UtilityParams;
use crate::verdict::scorr::ScorrThresholds;

/// The default share of the rows a policy may leave out before the report warns
/// (`left_out_share`, read by `scope`).
pub const LEFT_OUT_SHARE: f64 = 0.1;

/// What to audit and how (spec README Sec 3, 5, 6, 7). Every field has a default.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuditConfig {
    /// QI columns by header name; empty = profile only.
    pub quasi_identifiers: Vec<String>,
    /// Sensitive columns by header name.
    pub sensitive: Vec<String>,
    /// Missing-value policy.
    pub missing_policy: MissingPolicy,
    /// `alpha` of the wildcard policy.
    pub wildcard_alpha: f64,
    /// Remove rows whose QI cells are all suppressed.
    pub exclude_suppressed_rows: bool,
    /// Per-record risk threshold `tau`.
    pub threshold: f64,
    /// The share of the rows the policies (`drop`, `exclude_suppressed_rows`) may leave out
    /// before the report warns (`rows_left_out`, issue 36).
    pub left_out_share: f64,
    /// Missing tokens (the empty string is always one).
    pub missing_tokens: Vec<String>,
    /// Lower-case every non-blank value (and hierarchy label) with Unicode simple case
    /// folding before any comparison (spec README Sec 5 step 5).
    pub case_insensitive: bool,
    /// Delimiter (one character), `None` = detect.
    pub delimiter: Option<String>,
    /// Encoding, `None` = detect.
    pub encoding: Option<Encoding>,
    /// Ragged-row handling.
    pub ragged: Ragged,
    /// The header's row, 1-based as a spreadsheet numbers its rows (a CSV file's line); the
    /// rows above it are skipped as titles. `None`: the first row that is not blank, unless
    /// the rows above it are titles (CSV and xlsx; see `ingest::header`).
    pub header_row: Option<u64>,
    /// The person-id column of event-level data (spec README Sec 3 `person_id`).
    pub person_id: Option<String>,
    /// The sampling-weight column (spec README Sec 3 `weight`).
    pub weight: Option<String>,
    /// The household-id column (peer-measures.md Sec 2, role "household id"): the household
    /// risk groups records by it. Any column but a quasi-identifier; left out of the utility
    /// attributes and so of every utility and synthetic measure. Left out of the report's
    /// settings when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub household_column: Option<String>,
    /// Population size `N` for the uniqueness estimators (identity-risk.md Sec 7).
    pub population_size: Option<u64>,
    /// Sampling fraction `pi`, giving `N = round(n / pi)`.
    pub sampling_fraction: Option<f64>,
    /// A region preset of ARX giving `N` ("USA", "Germany", ...).
    pub population_region: Option<String>,
    /// ARX's records-at-risk threshold (identity-risk.md Sec 11.1).
    pub records_at_risk_threshold: f64,
    /// ARX's success-rate threshold (identity-risk.md Sec 11.1).
    pub success_rate_threshold: f64,
    /// Attribute-risk settings (attribute-risk.md): recursive `l` and `c`, and the l, t and
    /// beta thresholds whose failing classes are listed.
    #[serde(flatten)]
    pub attribute: AttributeParams,
    /// SCORR verdict thresholds (identity-risk.md Sec 11.2).
    #[serde(flatten)]
    pub scorr: ScorrThresholds,
    /// Risk combination and RUT weight (balance.md Sec 2-3).
    #[serde(flatten)]
    pub balance: BalanceParams,
    /// The record-id column pairing `O` and `P` (spec README Sec 8).
    pub record_id: Option<String>,
    /// The utility attributes (spec README Sec 3): columns of `O` compared with `P`; empty =
    /// every column but the record id, person id, weight, household id and `ignored` ones.
    pub utility_columns: Vec<String>,
    /// Columns left out of every computation (spec README Sec 3 roles `ignored` and
    /// `direct_identifier`).
    pub ignored: Vec<String>,
    /// The column of the reference table `E` holding a QI, where its name differs (QI name ->
    /// column of `E`); the others match by name.
    pub reference_columns: BTreeMap<String, String>,
    /// The column of `E` flagging the research subset of delta-presence (peer-measures.md
    /// Sec 4, form (b)); `None`: the released table is the subset (form (a)).
    pub research_subset_column: Option<String>,
    /// Declared kind, resolution, domain, rounding unit, weight and hierarchy per attribute.
    pub attributes: BTreeMap<String, AttributeSettings>,
    /// Utility settings (utility.md).
    #[serde(flatten)]
    pub utility: UtilityParams,
    /// The memory the class table (and a retained table) may take, in bytes; checked before
    /// allocating (issue 10: a clear message instead of an allocation failure).
    pub memory_budget: u64,
    /// What would lower the risk (the `advice` metric), when set.
    pub advice: Option<AdviceParams>,
    /// The attacks on the release (peer-measures.md Sec 5), when set; they need the original
    /// table, and take a control table when one is given.
    pub attacks: Option<AttackParams>,
    /// The measures of a synthetic or perturbed release against the original (synthetic.md),
    /// when set; they need the original table. Left out of the report's settings when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthetic: Option<SyntheticParams>,
    /// The protection chosen for this table (protect.md; issue 38): its ladders, criteria and
    /// node, carried by the settings file and the link for `pseudolens protect --settings` and
    /// the page's "Make a safe release"; the audit does not run it. Left out of the report's
    /// settings when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protect: Option<ProtectSettings>,
    /// k-map and delta-presence (peer-measures.md Sec 3, 4): `k_map`, `k_map_alpha`,
    /// `k_map_estimator`, `delta_min`, `delta_max`.
    #[serde(flatten)]
    pub kmap: KMapParams,
    /// The HIPAA Safe Harbor checklist (the `hipaa_safe_harbor` metric), when set.
    pub hipaa: bool,
    /// SUDA and DIS-SUDA (peer-measures.md Sec 1), off unless `suda` is set.
    #[serde(flatten)]
    pub suda: SudaParams,
    /// Confidence intervals of the model- and sample-based estimates (issue 15; docs/ci.md):
    /// `ci_level`, `ci_seed`, `ci_replicates`.
    #[serde(flatten)]
    pub ci: CiParams,
    /// Per-record vectors in the report (spec README Sec 10): `record_risk.details.per_record`
    /// (`P(i)` of each record, identity-risk.md Sec 4), and with SUDA on the `per_record` of
    /// `suda_score` and `suda_dis_score` and `suda_score`'s `msu_counts` (peer-measures.md
    /// Sec 1.5), keyed by `record_id` when given. Off by default: record-level, and as long as
    /// the file.
    pub per_record: bool,
    /// Keep each record's class for a per-record table ([`crate::Report::per_record`]: the
    /// CLI's `--per-record FILE`, the page's download) without putting it in the report's JSON.
    /// Not a setting of the file or the link: the front end asks for it.
    #[cfg_attr(test, ts(skip))]
    #[serde(skip)]
    pub keep_records: bool,
}

/// The default memory budget: 1 GiB, what a browser tab can spare.
pub const DEFAULT_MEMORY_BUDGET: u64 = 1 << 30;

impl Default for AuditConfig {
    fn default() -> Self {
        let p = IdentityParams::default();
        AuditConfig {
            quasi_identifiers: Vec::new(),
            sensitive: Vec::new(),
            missing_policy: p.missing_policy,
            wildcard_alpha: p.wildcard_alpha,
            exclude_suppressed_rows: p.exclude_suppressed_rows,
            threshold: p.threshold,
            left_out_share: LEFT_OUT_SHARE,
            missing_tokens: DEFAULT_MISSING_TOKENS.iter().map(|s| s.to_string()).collect(),
            case_insensitive: false,
            delimiter: None,
            encoding: None,
            ragged: Ragged::Error,
            header_row: None,
            person_id: None,
            weight: None,
            household_column: None,
            population_size: None,
            sampling_fraction: None,
            population_region: None,
            records_at_risk_threshold: p.records_at_risk_threshold,
            success_rate_threshold: p.success_rate_threshold,
            attribute: AttributeParams::default(),
            scorr: ScorrThresholds::default(),
            balance: BalanceParams::default(),
            record_id: None,
            utility_columns: Vec::new(),
            ignored: Vec::new(),
            reference_columns: BTreeMap::new(),
            research_subset_column: None,
            attributes: BTreeMap::new(),
            utility: UtilityParams::default(),
            memory_budget: DEFAULT_MEMORY_BUDGET,
            advice: None,
            attacks: None,
            synthetic: None,
            protect: None,
            kmap: KMapParams::default(),
            hipaa: false,
            suda: SudaParams::default(),
            ci: CiParams::default(),
            per_record: false,
            keep_records: false,
        }
    }
}

/// Whether this build holds the families of the feature `full` (SUDA, HIPAA, the utility,
/// synthetic and attack families); without them the audit never runs them and refuses the
/// settings that ask for them (`needs_full_engine`, [`AuditConfig::needs_full_engine`]).
pub const FULL_ENGINE: bool = cfg!(feature = "full");

impl AuditConfig {
    /// The first setting (its name) that asks for a family of the feature `full`: SUDA,
    /// HIPAA, the attacks or the synthetic measures. The utility family runs with an original
    /// table, which is not a setting: the wasm binding without `full` cannot take one.
    pub fn needs_full_engine(&self) -> Option<&'static str> {
        [(self.suda.suda, "suda"), (self.hipaa, "hipaa"), (self.attacks.is_some(), "attacks"), (self.synthetic.is_some(), "synthetic")]
            .into_iter()
            .find_map(|(asked, name)| asked.then_some(name))
    }

    /// The settings of the identity family.
    pub fn identity_params(&self) -> IdentityParams {
        IdentityParams {
            missing_policy: self.missing_policy,
            wildcard_alpha: self.wildcard_alpha,
            exclude_suppressed_rows: self.exclude_suppressed_rows,
            threshold: self.threshold,
            records_at_risk_threshold: self.records_at_risk_threshold,
            success_rate_threshold: self.success_rate_threshold,
            population: match (self.population_size, self.sampling_fraction, &self.population_region) {
                (Some(n), _, _) => Population::Size(n),
                (_, Some(pi), _) => Population::SamplingFraction(pi),
                (_, _, Some(region)) => Population::Region(region.clone()),
                _ => Population::Missing,
            },
            kmap: self.kmap,
            ci: self.ci,
        }
    }

    /// The settings of a protect search of this table: its QIs, sensitive columns, policies
    /// and `tau`, with the protection of `protect` (its defaults when unset).
    pub fn protect_params(&self) -> ProtectParams {
        let p = self.protect.clone().unwrap_or_default();
        ProtectParams {
            quasi_identifiers: self.quasi_identifiers.clone(),
            sensitive: self.sensitive.clone(),
            ladders: p.ladders,
            criteria: p.criteria,
            suppression_limit: p.suppression_limit,
            objective: p.objective,
            suppressed: p.suppressed,
            max_nodes: p.max_nodes,
            missing_policy: self.missing_policy,
            exclude_suppressed_rows: self.exclude_suppressed_rows,
            risk_threshold: self.threshold,
            node: p.node,
        }
    }

    /// Whether the audit keeps each record's class (for `per_record` or a per-record table).
    pub fn records_kept(&self) -> bool {
        self.per_record || self.keep_records
    }

    /// The attribute settings with every hierarchy and order label read like a value (trimmed
    /// and case-folded) under `case_insensitive` (spec README Sec 5 step 5); as given otherwise.
    pub fn read_labels(&self) -> std::borrow::Cow<'_, BTreeMap<String, AttributeSettings>> {
        if !self.case_insensitive {
            return std::borrow::Cow::Borrowed(&self.attributes);
        }
        let norm = self.normaliser();
        let read = |s: &AttributeSettings| AttributeSettings {
            hierarchy: s.hierarchy.as_deref().map(|h| norm.labels(h)),
            order: s.order.as_ref().map(|o| o.iter().map(|l| norm.label(l).into_owned()).collect()),
            ..s.clone()
        };
        std::borrow::Cow::Owned(self.attributes.iter().map(|(k, s)| (k.clone(), read(s))).collect())
    }

    /// The columns the roles need value by value: they keep every value.
    pub fn needed_columns(&self) -> Vec<String> {
        let mut v: Vec<String> = self.quasi_identifiers.iter().chain(&self.sensitive).cloned().collect();
        v.extend([&self.weight, &self.person_id, &self.record_id, &self.household_column].into_iter().flatten().cloned());
        v
    }

    /// How a streaming audit with these settings reads its table (the settings checked:
    /// [`AuditConfig::csv_options`]).
    pub fn read_settings(&self) -> Result<ReadSettings> {
        Ok(ReadSettings { csv: self.csv_options()?, norm: self.normaliser(), needed: self.needed_columns(), retain: None, needed_only: false })
    }

    /// How a [`TableReader`](crate::table::read::TableReader) reads a table kept in memory
    /// (a code per row, within `memory_budget`) for audits with any settings: the reading
    /// settings alone apply and are checked (delimiter, encoding, ragged rows, header row,
    /// missing tokens, memory budget); the columns these settings' roles need keep every value.
    pub fn table_settings(&self) -> Result<ReadSettings> {
        let reading = AuditConfig {
            delimiter: self.delimiter.clone(),
            encoding: self.encoding,
            ragged: self.ragged,
            header_row: self.header_row,
            missing_tokens: self.missing_tokens.clone(),
            memory_budget: self.memory_budget,
            ..AuditConfig::default()
        };
        Ok(ReadSettings { needed: self.needed_columns(), retain: Some(self.memory_budget), ..reading.read_settings()? })
    }

    /// The normaliser of spec README Sec 5 with these settings.
    pub fn normaliser(&self) -> Normaliser {
        let forms = self.attributes.iter().filter_map(|(c, a)| a.date_form.map(|f| (c.clone(), f))).collect();
        Normaliser::new(self.missing_tokens.clone(), vec!['*']).case_insensitive(self.case_insensitive).date_forms(forms)
    }

    /// Checks the settings; returns the CSV reading options.
    pub fn csv_options(&self) -> Result<CsvOptions> {
        for (name, t) in [
            ("risk threshold", self.threshold),
            ("records-at-risk threshold", self.records_at_risk_threshold),
            ("success-rate threshold", self.success_rate_threshold),
            ("left-out share", self.left_out_share),
        ] {
            if !(0.0..=1.0).contains(&t) {
                return Err(Error::config("invalid_threshold", format!("the {name} must lie in [0, 1], not {t}")));
            }
        }
        let a = &self.attribute;
        let checks = [
            ("l threshold", a.l_threshold.is_some_and(|l| l.is_nan() || l < 1.0)),
            ("t threshold", a.t_threshold.is_some_and(|t| !(0.0..=1.0).contains(&t))),
            ("beta threshold", a.beta_threshold.is_some_and(|b| b.is_nan() || b < 0.0)),
            ("recursive l", a.recursive_l == 0),
            ("recursive c", a.recursive_c.is_nan() || a.recursive_c <= 0.0),
            ("SCORR t_max", !(0.0..=1.0).contains(&self.scorr.scorr_t_max)),
            ("SCORR k_min", self.scorr.scorr_k_min.is_nan() || self.scorr.scorr_k_min < 0.0),
            ("SCORR band limits", !(0.0 <= self.scorr.scorr_low_max && self.scorr.scorr_low_max <= self.scorr.scorr_medium_max)),
        ];
        if !self.kmap.valid() {
            return Err(Error::config("invalid_parameter", "k-map's k must be at least 1, and its alpha and the delta-presence bounds must lie in [0, 1]"));
        }
        if let Some((what, _)) = checks.iter().find(|c| c.1) {
            return Err(Error::config("invalid_threshold", format!("the {what} is out of range")));
        }
        let given = [self.population_size.is_some(), self.sampling_fraction.is_some(), self.population_region.is_some()];
        if given.iter().filter(|g| **g).count() > 1 {
            return Err(Error::config("population_given_twice", "give the population as a size, a sampling fraction or a region, not several"));
        }
        if self.sampling_fraction.is_some_and(|f| !(f > 0.0 && f <= 1.0)) {
            return Err(Error::config("invalid_sampling_fraction", "the sampling fraction must lie in (0, 1]"));
        }
        if self.memory_budget == 0 {
            return Err(Error::config("invalid_memory_budget", "the memory budget must be more than 0 bytes"));
        }
        if !(0.0..=1.0).contains(&self.wildcard_alpha) {
            return Err(Error::config("invalid_alpha", format!("the wildcard alpha must lie in [0, 1], not {}", self.wildcard_alpha)));
        }
        for (name, a) in &self.attributes {
            match (a.kind == Some(crate::table::kind::Kind::Ordinal), &a.order) {
                (true, None) => return Err(Error::config("ordinal_order_missing", format!("the ordinal column \"{name}\" needs its order of labels"))),
                (false, Some(_)) => {
                    return Err(Error::config("order_without_ordinal", format!("an order is declared for \"{name}\", whose kind is not ordinal")));
                }
                (true, Some(o)) if (1..o.len()).any(|i| o[..i].contains(&o[i])) => {
                    return Err(Error::config("ordinal_label_repeated", format!("the order of \"{name}\" names a label twice")));
                }
                _ => {}
            }
        }
        self.balance.check()?;
        self.ci.check()?;
        self.utility.check()?;
        if let Some(a) = &self.attacks {
            a.check()?;
        }
        if let Some(s) = &self.synthetic {
            s.check()?;
        }
        let delimiter = match self.delimiter.as_deref() {
            None => None,
            Some(d) if d.len() == 1 => Some(d.as_bytes()[0]),
            Some("\\t") => Some(b'\t'),
            Some(d) => return Err(Error::config("invalid_delimiter", format!("the delimiter must be one ASCII character, not \"{d}\""))),
        };
        if self.header_row == Some(0) {
            return Err(Error::config("invalid_header_row", "the header's row is numbered from 1, as a spreadsheet numbers its rows"));
        }
        Ok(CsvOptions { delimiter, encoding: self.encoding, ragged: self.ragged, header_row: self.header_row })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_full_engine_names_the_first_setting_that_asks() {
        let first = AuditConfig::default();
        assert_eq!(first.needs_full_engine(), None);
        // Every other setting of a first report, SAs and advice among them, needs no more.
        let sensitive = AuditConfig { sensitive: vec!["diagnosis".into()], advice: Some(AdviceParams::default()), per_record: true, ..AuditConfig::default() };
        assert_eq!(sensitive.needs_full_engine(), None);
        let suda = AuditConfig { suda: SudaParams { suda: true, ..SudaParams::default() }, ..AuditConfig::default() };
        assert_eq!(suda.needs_full_engine(), Some("suda"));
        assert_eq!(AuditConfig { hipaa: true, ..AuditConfig::default() }.needs_full_engine(), Some("hipaa"));
        assert_eq!(AuditConfig { attacks: Some(AttackParams::default()), ..AuditConfig::default() }.needs_full_engine(), Some("attacks"));
        assert_eq!(AuditConfig { synthetic: Some(SyntheticParams::default()), ..AuditConfig::default() }.needs_full_engine(), Some("synthetic"));
        // The first in the order suda, hipaa, attacks, synthetic.
        let both = AuditConfig { hipaa: true, synthetic: Some(SyntheticParams::default()), ..AuditConfig::default() };
        assert_eq!(both.needs_full_engine(), Some("hipaa"));
    }
}
