//! One audit of one released table: configuration, the streaming pass, and the report.
//!
//! [`Audit::push`] takes chunks cut anywhere; [`Audit::finish`] returns the [`Report`]. The
//! per-file state is a [`TableSummary`] — column profiles and the class table — which can
//! also be merged with the summary of another part of the same table.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::balance::{BalanceInput, BalanceParams};
use crate::error::{Error, Result};
use crate::attribute::{self, AttributeInput, AttributeParams, SensitiveSummary};
use crate::identity::persons::Persons;
use crate::utility::attribute::AttributeSettings;
use crate::utility::capture::Captured;
use crate::utility::params::UtilityParams;
use crate::verdict::scorr::ScorrThresholds;
use crate::identity::population::Population;
use crate::identity::{self, ClassTable, IdentityInput, IdentityParams, MissingPolicy, PopulationTable};
use crate::ingest::cell::{Cell, parse_num};
use crate::reference::ReferenceTable;
use crate::ingest::cell::{DEFAULT_MISSING_TOKENS, Normaliser};
use crate::ingest::encoding::Encoding;
use crate::ingest::reader::{CsvOptions, InputFacts, PartBounds, Probe, Ragged, Reader, RecordSink, Rows, Span};
use crate::ingest::tokenizer::{Broken, MAX_FIELD_BYTES};
use crate::metric::MetricResult;
use crate::table::profile::ColumnProfile;
use crate::table::roles::Role;
use crate::table::{Block, Table, TableBuilder, merge_bounds};

/// What to audit and how (spec README Sec 3, 5, 6, 7). Every field has a default.
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
    /// Missing tokens (the empty string is always one).
    pub missing_tokens: Vec<String>,
    /// Delimiter (one character), `None` = detect.
    pub delimiter: Option<String>,
    /// Encoding, `None` = detect.
    pub encoding: Option<Encoding>,
    /// Ragged-row handling.
    pub ragged: Ragged,
    /// The person-id column of event-level data (spec README Sec 3 `person_id`).
    pub person_id: Option<String>,
    /// The sampling-weight column (spec README Sec 3 `weight`).
    pub weight: Option<String>,
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
    /// every column but the record id, person id, weight and `ignored` ones.
    pub utility_columns: Vec<String>,
    /// Columns left out of every computation (spec README Sec 3 roles `ignored` and
    /// `direct_identifier`).
    pub ignored: Vec<String>,
    /// The column of the reference table `E` holding a QI, where its name differs (QI name ->
    /// column of `E`); the others match by name.
    pub reference_columns: BTreeMap<String, String>,
    /// Declared kind, resolution, domain, rounding unit, weight and hierarchy per attribute.
    pub attributes: BTreeMap<String, AttributeSettings>,
    /// Utility settings (utility.md).
    #[serde(flatten)]
    pub utility: UtilityParams,
    /// The memory the class table (and a retained table) may take, in bytes; checked before
    /// allocating (issue 10: a clear message instead of an allocation failure).
    pub memory_budget: u64,
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
            missing_tokens: DEFAULT_MISSING_TOKENS.iter().map(|s| s.to_string()).collect(),
            delimiter: None,
            encoding: None,
            ragged: Ragged::Error,
            person_id: None,
            weight: None,
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
            attributes: BTreeMap::new(),
            utility: UtilityParams::default(),
            memory_budget: DEFAULT_MEMORY_BUDGET,
        }
    }
}

impl AuditConfig {
    fn identity_params(&self) -> IdentityParams {
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
        }
    }

    /// The normaliser of spec README Sec 5 with these settings.
    pub fn normaliser(&self) -> Normaliser {
        Normaliser::new(self.missing_tokens.clone(), vec!['*'])
    }

    /// Checks the settings; returns the CSV reading options.
    pub fn csv_options(&self) -> Result<CsvOptions> {
        for (name, t) in [
            ("risk threshold", self.threshold),
            ("records-at-risk threshold", self.records_at_risk_threshold),
            ("success-rate threshold", self.success_rate_threshold),
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
        self.balance.check()?;
        self.utility.check()?;
        let delimiter = match self.delimiter.as_deref() {
            None => None,
            Some(d) if d.len() == 1 => Some(d.as_bytes()[0]),
            Some("\\t") => Some(b'\t'),
            Some(d) => return Err(Error::config("invalid_delimiter", format!("the delimiter must be one ASCII character, not \"{d}\""))),
        };
        Ok(CsvOptions { delimiter, encoding: self.encoding, ragged: self.ragged })
    }
}

/// A warning for the person reading the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    /// Machine code.
    pub code: &'static str,
    /// One sentence.
    pub message: String,
}

/// Parameters echoed in the report: every setting of the audit, with the quasi-identifiers in
/// column order (spec README Sec 3) as the metrics used them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportParams {
    /// The settings.
    #[serde(flatten)]
    pub config: AuditConfig,
}

/// The result of an audit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// How the file was read.
    pub input: InputFacts,
    /// How the original table `O` was read, when given.
    pub original_input: Option<InputFacts>,
    /// How the reference table `E` was read, when given.
    pub reference_input: Option<InputFacts>,
    /// Per-column profile.
    pub columns: Vec<ColumnProfile>,
    /// Settings used.
    pub params: ReportParams,
    /// Metric results (spec README Sec 10), empty without quasi-identifiers.
    pub metrics: Vec<MetricResult>,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// How the rows reached the metrics: from a table kept in memory, or streamed.
    pub read: ReadPath,
}

/// How the rows of an audit reached the metrics (issue 11).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadPath {
    /// `retained` (a table read once and kept: another audit reads nothing again) or
    /// `streaming` (the file read for this audit).
    pub mode: &'static str,
    /// Why.
    pub reason: String,
}

impl ReadPath {
    /// The file was streamed for this audit, for this reason.
    pub fn streaming(reason: impl Into<String>) -> ReadPath {
        ReadPath { mode: "streaming", reason: reason.into() }
    }
}

impl Report {
    /// The result with this id, if computed.
    pub fn metric(&self, id: &str) -> Option<&MetricResult> {
        self.metrics.iter().find(|m| m.id == id)
    }
}

/// A column's codes mapped to the codes of a summary's own dictionary, filled in one distinct
/// value at a time: a cell costs an array lookup.
#[derive(Debug, Clone, Default)]
struct CodeMap(Vec<u32>);

const UNSET: u32 = u32::MAX;

impl CodeMap {
    #[inline]
    fn get(&mut self, code: u32, f: impl FnOnce() -> u32) -> u32 {
        match self.0.get(code as usize) {
            Some(&m) if m != UNSET => m,
            _ => {
                let m = f();
                if self.0.len() <= code as usize {
                    self.0.resize(code as usize + 1, UNSET);
                }
                self.0[code as usize] = m;
                m
            }
        }
    }
}

/// The per-audit summaries of one table, absorbed from blocks of codes: the class table and
/// what the roles need (sensitive values, persons, weights, the utility capture).
pub struct TableSummary {
    columns: Vec<String>,
    qi_index: Vec<usize>,
    weight_index: Option<usize>,
    person_index: Option<usize>,
    sensitive_index: Vec<usize>,
    sensitive: Vec<SensitiveSummary>,
    classes: ClassTable,
    persons: Option<Persons>,
    population: Option<Arc<ReferenceTable>>,
    original: Option<Arc<Captured>>,
    released: Option<Captured>,
    norm: Normaliser,
    facts: InputFacts,
    qi_maps: Vec<CodeMap>,
    sa_maps: Vec<CodeMap>,
    person_map: CodeMap,
    /// Per code of the weight column: its weight, or NaN when it is not a weight.
    weights: Vec<f64>,
    key: Vec<u32>,
}

/// The columns a configuration needs value by value (its roles): they keep every value.
pub fn needed_columns(config: &AuditConfig) -> Vec<String> {
    let mut v: Vec<String> = config.quasi_identifiers.iter().chain(&config.sensitive).cloned().collect();
    v.extend([&config.weight, &config.person_id, &config.record_id].into_iter().flatten().cloned());
    v
}

impl TableSummary {
    fn new(columns: &[String], config: &AuditConfig) -> Result<Self> {
        let find = |name: &String| {
            columns.iter().position(|c| c == name).ok_or_else(|| {
                Error::config("unknown_column", format!("there is no column \"{name}\"; the columns are: {}", columns.join(", ")))
                    .in_column(name)
            })
        };
        let qi_index = config.quasi_identifiers.iter().map(find).collect::<Result<Vec<_>>>()?;
        let sensitive_index = config.sensitive.iter().map(find).collect::<Result<Vec<_>>>()?;
        let mut sorted = qi_index.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::config("duplicate_quasi_identifier", "a quasi-identifier is named twice"));
        }
        let weight_index = config.weight.as_ref().map(find).transpose()?;
        let person_index = config.person_id.as_ref().map(find).transpose()?;
        let special = [("weight", weight_index), ("person id", person_index)];
        let roles = special.iter().filter_map(|(r, i)| i.map(|i| (*r, i))).chain(sensitive_index.iter().map(|&i| ("sensitive", i)));
        let mut taken: Vec<usize> = sorted.clone();
        for (role, i) in roles {
            if taken.contains(&i) {
                return Err(Error::config("role_conflict", format!("the {role} column already has another role")).in_column(&columns[i]));
            }
            taken.push(i);
        }
        let mut classes = ClassTable::new(qi_index.len(), config.missing_policy, config.exclude_suppressed_rows, weight_index.is_some());
        classes.set_budget(config.memory_budget);
        Ok(TableSummary {
            columns: columns.to_vec(),
            // Spec README Sec 3: A is ordered by column position.
            qi_maps: vec![CodeMap::default(); sorted.len()],
            qi_index: sorted,
            weight_index,
            person_index,
            sensitive: sensitive_index.iter().map(|_| SensitiveSummary::new(config.missing_policy, person_index.is_some())).collect(),
            sa_maps: vec![CodeMap::default(); sensitive_index.len()],
            sensitive_index,
            classes,
            persons: person_index.map(|_| Persons::new(qi_index.len())),
            population: None,
            original: None,
            released: None,
            norm: config.normaliser(),
            facts: InputFacts::default(),
            person_map: CodeMap::default(),
            weights: Vec::new(),
            key: Vec::new(),
        })
    }

    /// Gives the original table `O`: the columns of this table that `O` has are captured.
    fn set_original(&mut self, original: Option<Arc<Captured>>, names: &[String], config: &AuditConfig) -> Result<()> {
        if let Some(o) = original {
            self.released = Some(Captured::new(names, |n| o.names.iter().any(|m| m == n), config.record_id.as_deref())?);
            self.original = Some(o);
        }
        Ok(())
    }

    /// Absorbs a block of rows.
    pub fn absorb(&mut self, block: &Block<'_>) -> Result<()> {
        if let Some(c) = &mut self.released {
            c.absorb_block(block, &self.norm);
        }
        if self.qi_index.is_empty() {
            return Ok(());
        }
        let norm = &self.norm;
        let values = |i: usize| &block.columns[i].values;
        if let Some(w) = self.weight_index {
            let v = values(w);
            for code in self.weights.len()..v.len() {
                self.weights.push(parse_weight(norm.normalise(v.text(code as u32))).unwrap_or(f64::NAN));
            }
        }
        for i in 0..block.len() {
            self.key.clear();
            for (a, &col) in self.qi_index.iter().enumerate() {
                let code = block.codes[col][i];
                let classes = &mut self.classes;
                self.key.push(self.qi_maps[a].get(code, || classes.code(a, norm.normalise(values(col).text(code)))));
            }
            let weight = match self.weight_index {
                Some(w) => {
                    let x = self.weights[block.codes[w][i] as usize];
                    if x.is_nan() {
                        let text = values(w).text(block.codes[w][i]);
                        return Err(Error::input("invalid_weight", format!("a sampling weight must be a finite number >= 0, not \"{text}\""))
                            .at_line(block.lines[i])
                            .in_column(&self.columns[w]));
                    }
                    x
                }
                None => 0.0,
            };
            let person = match (self.person_index, &mut self.persons) {
                (Some(p), Some(persons)) => {
                    let code = block.codes[p][i];
                    let cell = norm.normalise(values(p).text(code));
                    if cell.is_blank() {
                        return Err(Error::input("person_id_missing", "the person id is empty").at_line(block.lines[i]).in_column(&self.columns[p]));
                    }
                    Some(self.person_map.get(code, || persons.code(cell)))
                }
                _ => None,
            };
            let class = self.classes.absorb(&self.key, weight).map_err(|e| e.at_line(block.lines[i]))?;
            let Some(class) = class else { continue };
            if let (Some(person), Some(persons)) = (person, &mut self.persons) {
                persons.absorb(class, &self.key, person);
            }
            for (s, &col) in self.sensitive_index.iter().enumerate() {
                let code = block.codes[col][i];
                let summary = &mut self.sensitive[s];
                let v = self.sa_maps[s].get(code, || summary.code(norm.normalise(values(col).text(code))).unwrap_or(UNSET - 1));
                if v != UNSET - 1 {
                    summary.absorb(class, v, person);
                }
            }
        }
        Ok(())
    }

    /// Merges the summary of another part of the same table (same header and settings).
    pub fn merge(&mut self, other: TableSummary) -> Result<()> {
        let remap = self.classes.merge(other.classes)?;
        let persons = match (&mut self.persons, other.persons) {
            (Some(mine), Some(theirs)) => Some(mine.merge(theirs, &remap)),
            _ => None,
        };
        for (mine, theirs) in self.sensitive.iter_mut().zip(other.sensitive) {
            mine.merge(theirs, &remap, persons.as_deref());
        }
        if let (Some(mine), Some(theirs)) = (&mut self.released, other.released) {
            mine.append(theirs);
        }
        // The code maps belong to the part that filled them.
        self.qi_maps = vec![CodeMap::default(); self.qi_maps.len()];
        self.sa_maps = vec![CodeMap::default(); self.sa_maps.len()];
        self.person_map = CodeMap::default();
        self.weights.clear();
        Ok(())
    }

    /// Finishes into the report, with the profiles of the columns and the facts of the file.
    pub fn finish(mut self, columns: Vec<ColumnProfile>, facts: InputFacts, config: &AuditConfig) -> Report {
        self.facts = facts;
        let rows = self.facts.rows_total;
        let mut warnings = Vec::new();
        for c in &columns {
            if c.shape == "no values" && rows > 0 {
                warnings.push(Warning { code: "column_without_values", message: format!("column \"{}\" has no value in any row", c.name) });
            }
        }
        let qi: Vec<String> = self.qi_index.iter().map(|&i| self.columns[i].clone()).collect();
        let direct: Vec<&str> =
            columns.iter().filter(|c| c.proposed_role == Role::DirectIdentifier).map(|c| c.name.as_str()).collect();
        if !direct.is_empty() {
            warnings.push(Warning {
                code: "direct_identifiers_present",
                message: format!("these columns look like direct identifiers and should not be released: {}", direct.join(", ")),
            });
        }
        warnings.extend(reading_warnings(&self.facts));
        let identity = config.identity_params();
        let population = match &self.population {
            None => PopulationTable::Absent,
            Some(r) if !r.missing.is_empty() => PopulationTable::MissingQi(r.missing.clone()),
            Some(r) => {
                let columns = qi.iter().map(|name| r.present.iter().position(|x| x == name).expect("no QI missing")).collect();
                PopulationTable::Table(&r.table, columns)
            }
        };
        let input = IdentityInput { table: &self.classes, persons: self.persons.as_ref(), population, qi: &qi };
        let t0 = std::time::Instant::now();
        let mut metrics = if qi.is_empty() { Vec::new() } else { identity::finish(&input, &identity) };
        if std::env::var("PL_TIME").is_ok() { eprintln!("identity {:?}", t0.elapsed()); }
        if !qi.is_empty() {
            let k = metrics.iter().find(|m| m.id == "k_anonymity").and_then(|m| m.value.as_f64());
            let sensitive = self.sensitive_index.iter().zip(&self.sensitive).map(|(&i, s)| (self.columns[i].as_str(), s)).collect();
            let input = AttributeInput { table: &self.classes, qi: &qi, sensitive, persons: self.persons.as_ref(), k, alpha: config.wildcard_alpha };
            metrics.extend(attribute::finish(&input, &config.attribute));
            let sas: Vec<String> = self.sensitive_index.iter().map(|&i| self.columns[i].clone()).collect();
            let ctx = crate::metric::Context {
                family: "verdict",
                scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.clone(), sensitive: None, attribute: None, subset: None },
                params: serde_json::Value::Null,
            };
            let verdicts = crate::verdict::scorr::metrics(&ctx, &metrics, &qi, &sas, &config.scorr);
            metrics.extend(verdicts);
        }
        if std::env::var("PL_TIME").is_ok() { eprintln!("attribute+verdict {:?}", t0.elapsed()); }
        if let (Some(o), Some(p)) = (&self.original, &self.released) {
            metrics.extend(crate::utility::finish(o, p, config, &qi));
        }
        if !qi.is_empty() {
            let input = BalanceInput { table: &self.classes, qi: &qi, external: self.population.as_deref(), identity: &identity, metrics: &metrics };
            let balance = crate::balance::finish(&input, &config.balance);
            metrics.extend(balance);
        }
        Report {
            input: self.facts,
            original_input: self.original.as_ref().map(|o| o.input.clone()),
            reference_input: self.population.as_ref().map(|r| r.input.clone()),
            columns,
            params: ReportParams { config: AuditConfig { quasi_identifiers: qi, ..config.clone() } },
            metrics,
            warnings,
            read: ReadPath::streaming("the file was read for this audit"),
        }
    }
}

/// The warnings of how a file was read: renamed columns, ragged, blank and skipped records.
pub fn reading_warnings(facts: &InputFacts) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for name in &facts.renamed_columns {
        warnings.push(Warning { code: "empty_column_name", message: format!("a column without a name was called \"{name}\"") });
    }
    if let Some((line, fields)) = facts.first_ragged {
        warnings.push(Warning {
            code: "ragged_rows",
            message: format!(
                "{} rows had a different number of fields than the header and were padded or cut (the first at line {line}, with {fields} fields)",
                facts.ragged_rows
            ),
        });
    }
    if facts.blank_records > 0 {
        let n = facts.blank_records;
        let what = if n == 1 { "blank record (an empty line, or one of spaces) was" } else { "blank records (empty lines, or lines of spaces) were" };
        warnings.push(Warning { code: "blank_lines", message: format!("{n} {what} skipped") });
    }
    for b in &facts.broken {
        let at = match &b.column {
            Some(c) => format!("line {}, column \"{c}\"", b.line),
            None => format!("line {}", b.line),
        };
        let records = if b.count == 1 { "1 record".to_string() } else { format!("{} records", b.count) };
        let (code, message) = match b.why {
            Broken::UnclosedQuote => (
                "unclosed_quote",
                format!(
                    "{records} with a quote that is never closed skipped: the first opened at {at}; reading went on at line {}",
                    b.line + 1
                ),
            ),
            Broken::FieldTooLarge | Broken::TooManyColumns => (
                "field_too_large",
                format!("{records} with a field longer than {} MiB skipped: the first at {at}", MAX_FIELD_BYTES >> 20),
            ),
        };
        warnings.push(Warning { code, message });
    }
    if facts.error_records > 0 {
        warnings.push(Warning {
            code: "partial_read",
            message: format!(
                "this report is partial: {} of the file's {} records could not be read and were left out",
                facts.error_records, facts.records
            ),
        });
    }
    warnings
}

/// A sampling weight: a finite number >= 0 (spec identity-risk.md Sec 8).
fn parse_weight(cell: Cell<'_>) -> Option<f64> {
    match cell {
        Cell::Text(t) => parse_num(t).filter(|w| *w >= 0.0),
        _ => None,
    }
}

/// Rows a block of a retained table holds.
const BLOCK_ROWS: usize = 1 << 16;

/// Audits a retained table ([`Table::is_retained`]) without reading its file again: the same
/// report as a streaming audit with the same settings. `not_retained` when a column a role
/// of `config` needs was not kept (the caller reads the file again, streaming).
pub fn audit_table(
    table: &Table,
    config: &AuditConfig,
    original: Option<Arc<Captured>>,
    population: Option<Arc<ReferenceTable>>,
) -> Result<Report> {
    config.csv_options()?;
    let mut summary = TableSummary::new(&table.header, config)?;
    summary.set_original(original, &table.header, config)?;
    summary.population = population;
    let mut needed: Vec<usize> = summary.qi_index.iter().chain(&summary.sensitive_index).copied().collect();
    needed.extend([summary.weight_index, summary.person_index].into_iter().flatten());
    if let Some(r) = &summary.released {
        needed.extend(r.positions());
    }
    needed.sort_unstable();
    needed.dedup();
    for &j in &needed {
        if !table.columns[j].is_retained() {
            let why = table.not_retained.clone().unwrap_or_else(|| format!("more than {} distinct values", crate::table::RETAIN_CAP));
            return Err(Error::config("not_retained", format!("this column was not kept in memory ({why}); read the file again for this audit"))
                .in_column(&table.header[j]));
        }
    }
    let t0 = std::time::Instant::now();
    let rows = table.facts.rows_total as usize;
    // Row ranges summarised on all cores, merged in order.
    let parts = crate::par::threads().min(rows / BLOCK_ROWS + 1).max(1);
    let ranges: Vec<(usize, usize)> = (0..parts).map(|p| (rows * p / parts, rows * (p + 1) / parts)).collect();
    let mut summaries = crate::par::map(ranges, |(from, to)| -> Result<TableSummary> {
        let mut part = TableSummary::new(&table.header, config)?;
        part.set_original(summary.original.clone(), &table.header, config)?;
        let mut codes = vec![Vec::new(); table.columns.len()];
        let mut lines = Vec::with_capacity(BLOCK_ROWS.min(to - from));
        for start in (from..to).step_by(BLOCK_ROWS) {
            let end = (start + BLOCK_ROWS).min(to);
            for &j in &needed {
                table.columns[j].codes.as_ref().expect("checked above").slice_into(start, end, &mut codes[j]);
            }
            lines.clear();
            lines.extend((start..end).map(|r| table.lines.line(r as u64)));
            part.absorb(&Block { codes: &codes, lines: &lines, columns: &table.columns })?;
        }
        Ok(part)
    })
    .into_iter();
    let population = summary.population.take();
    let mut summary = summaries.next().expect("one part at least")?;
    for part in summaries {
        summary.merge(part?)?;
    }
    summary.population = population;
    if std::env::var("PL_TIME").is_ok() { eprintln!("summary {:?}", t0.elapsed()); }
    let profiles = table.profiles(&config.normaliser());
    if std::env::var("PL_TIME").is_ok() { eprintln!("profiles {:?}", t0.elapsed()); }
    let mut report = summary.finish(profiles, table.facts.clone(), config);
    if std::env::var("PL_TIME").is_ok() { eprintln!("finish {:?}", t0.elapsed()); }
    report.read = ReadPath { mode: "retained", reason: "the table was read once and kept in memory".into() };
    Ok(report)
}

/// The reader's sink of an audit: the table builder, and the summaries fed from its blocks.
struct AuditSink {
    config: AuditConfig,
    builder: TableBuilder,
    original: Option<Arc<Captured>>,
    summary: Option<TableSummary>,
}

impl RecordSink for AuditSink {
    fn header(&mut self, names: &[String]) -> Result<()> {
        let mut summary = TableSummary::new(names, &self.config)?;
        summary.set_original(self.original.take(), names, &self.config)?;
        self.builder.header(names);
        self.summary = Some(summary);
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        self.builder.absorb(rows)?;
        let summary = self.summary.as_mut().expect("header comes first");
        summary.absorb(&self.builder.block())
    }
}

/// A streaming audit of one CSV file.
pub struct Audit {
    csv: Reader,
    sink: AuditSink,
    population: Option<Arc<ReferenceTable>>,
}

impl Audit {
    /// An audit with this configuration (checked here).
    pub fn new(config: AuditConfig) -> Result<Self> {
        let opts = config.csv_options()?;
        let builder = TableBuilder::new(config.normaliser(), needed_columns(&config), None);
        Ok(Audit { csv: Reader::new(opts), sink: AuditSink { config, builder, original: None, summary: None }, population: None })
    }

    /// Absorbs the next chunk of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.csv.push(chunk, &mut self.sink)
    }

    /// Data rows read so far.
    pub fn rows(&self) -> u64 {
        self.csv.facts().rows_total
    }

    /// Gives the population table `E` of the journalist and marketer models (Sec 6).
    pub fn set_population(&mut self, population: impl Into<Arc<ReferenceTable>>) {
        self.population = Some(population.into());
    }

    /// Gives the original table `O` for the utility metrics (shared, not copied); call before
    /// the first push.
    pub fn set_original(&mut self, original: impl Into<Arc<Captured>>) {
        let original = original.into();
        // The columns compared with the original need every value.
        self.sink.builder.need(original.names.iter().cloned());
        self.sink.original = Some(original);
    }

    /// An audit of one part of a file whose start was probed ([`Reader::probe`]): the part
    /// reads the records starting in `span`; parts merge in file order ([`AuditPart::merge`]).
    pub fn part(config: AuditConfig, probe: &Probe, span: Span) -> Result<Self> {
        let opts = config.csv_options()?;
        let builder = TableBuilder::new(config.normaliser(), needed_columns(&config), None);
        Ok(Audit { csv: Reader::part(opts, probe, span), sink: AuditSink { config, builder, original: None, summary: None }, population: None })
    }

    /// A reader that keeps the table (a code per row, within `config.memory_budget`) instead
    /// of summarising it for one audit: [`audit_table`] then audits it with any settings. The
    /// columns `config`'s roles need keep every value; the reading settings are `config`'s.
    pub fn table_reader(config: &AuditConfig) -> Result<Self> {
        let reading = AuditConfig {
            delimiter: config.delimiter.clone(),
            encoding: config.encoding,
            ragged: config.ragged,
            missing_tokens: config.missing_tokens.clone(),
            memory_budget: config.memory_budget,
            ..AuditConfig::default()
        };
        let mut audit = Audit::new(reading)?;
        audit.sink.builder.need(needed_columns(config));
        audit.sink.builder.set_retain(Some(config.memory_budget));
        Ok(audit)
    }

    /// [`Audit::table_reader`] for one part of a file.
    pub fn table_part(config: &AuditConfig, probe: &Probe, span: Span) -> Result<Self> {
        let mut audit = Audit::table_reader(config)?;
        audit.csv = Reader::part(audit.sink.config.csv_options()?, probe, span);
        Ok(audit)
    }

    /// Whether a part has read its last record: push no more.
    pub fn done(&self) -> bool {
        self.csv.done()
    }

    /// Ends the input; returns the table read and its summaries, for merging with the
    /// other parts of the same file.
    pub fn finish_part(mut self) -> Result<AuditPart> {
        self.csv.finish(&mut self.sink)?;
        let mut summary = self.sink.summary.expect("finish succeeds only after a header");
        summary.population = self.population;
        let table = self.sink.builder.finish(self.csv.facts().clone());
        Ok(AuditPart { table, summary, config: self.sink.config, bounds: self.csv.bounds() })
    }

    /// Ends the input and returns the report.
    pub fn finish(self) -> Result<Report> {
        Ok(self.finish_part()?.finish())
    }
}


/// The table and summaries of one part of a file, as an audit read them.
pub struct AuditPart {
    /// The table read.
    pub table: Table,
    summary: TableSummary,
    config: AuditConfig,
    /// Where the part began and ended, when it was read as a part of a file.
    pub bounds: Option<PartBounds>,
}

impl AuditPart {
    /// Appends the next part of the same file (same settings): parts of one file read in
    /// parallel must be adjacent (`parts_not_adjacent` otherwise); their lines continue.
    pub fn merge(&mut self, mut other: AuditPart) -> Result<()> {
        self.bounds = merge_bounds(self.bounds, other.bounds, &mut other.table)?;
        self.table.append(other.table)?;
        self.summary.merge(other.summary)
    }

    /// Gives the population table `E` (see [`Audit::set_population`]).
    pub fn set_population(&mut self, population: impl Into<Arc<ReferenceTable>>) {
        self.summary.population = Some(population.into());
    }

    /// The SHA-256 of the whole file, computed beside a parallel read.
    pub fn set_sha256(&mut self, hex: String) {
        self.table.facts.sha256 = Some(hex);
    }

    /// The report.
    pub fn finish(self) -> Report {
        let profiles = self.table.profiles(&self.config.normaliser());
        self.summary.finish(profiles, self.table.facts, &self.config)
    }
}
