//! The accumulator of an audit: [`TableSummary`], what one table holds for the metric families
//! (the class table, the sensitive values, persons, weights, the utility capture), set up from
//! the roles of the settings and merged part by part.

use std::sync::Arc;

use super::maps::{BlockRows, CodeMap, first_id, first_row};
use crate::attribute::{self, SensitiveSummary};
use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::identity::household::Households;
use crate::identity::per_record::RecordClasses;
use crate::identity::persons::Persons;
use crate::ingest::cell::Normaliser;
use crate::ingest::reader::InputFacts;
use crate::table::classes::ClassTable;
use crate::table::reference::ReferenceTable;
use crate::utility::capture::Captured;

/// The per-audit summaries of one table, absorbed from blocks of codes: the class table and
/// what the roles need (sensitive values, persons, weights, the utility capture).
pub struct TableSummary {
    pub(super) columns: Vec<String>,
    pub(super) qi_index: Vec<usize>,
    pub(super) weight_index: Option<usize>,
    pub(super) person_index: Option<usize>,
    pub(super) sensitive_index: Vec<usize>,
    pub(super) sensitive: Vec<SensitiveSummary>,
    /// `sa_mode = combined` with several SAs: the pseudo-SA of their tuples (attribute-risk.md
    /// Sec 8), and the tuple of each row's SA codes -> its code.
    pub(super) combined: Option<(SensitiveSummary, crate::hash::Map<Vec<u32>, u32>)>,
    /// `sa_mode = extend_qi` with several SAs: per SA, the summary of a table whose QIs are `A`
    /// plus the other SAs (Sec 8).
    pub(super) extended: Vec<TableSummary>,
    pub(super) classes: ClassTable,
    pub(super) persons: Option<Persons>,
    /// The household column (peer-measures.md Sec 2): its position, and the records per
    /// (household, class).
    pub(super) household_index: Option<usize>,
    pub(super) households: Option<Households>,
    pub(super) population: Option<Arc<ReferenceTable>>,
    pub(super) original: Option<Arc<Captured>>,
    pub(super) released: Option<Captured>,
    /// The control table `C` of the attacks (peer-measures.md Sec 5.1).
    pub(super) control: Option<Arc<Captured>>,
    pub(super) norm: Normaliser,
    pub(super) facts: InputFacts,
    pub(super) qi_maps: Vec<CodeMap>,
    pub(super) sa_maps: Vec<CodeMap>,
    pub(super) person_map: CodeMap,
    pub(super) household_map: CodeMap,
    /// Per code of the weight column: its weight, or NaN when it is not a weight.
    pub(super) weights: Vec<f64>,
    /// The block being absorbed, row by row: keys (the QI codes of each row one after the
    /// other), weights, persons and classes.
    pub(super) rows: BlockRows,
    /// With SUDA on: per class, the 0-based row of its first record (SUDA's `per_record`
    /// names the records of the keys held once), and the rows absorbed so far.
    pub(super) first_rows: Option<Vec<u64>>,
    /// With SUDA on and a record id: per class, the record id of its first record.
    pub(super) first_ids: Option<Vec<Option<Box<str>>>>,
    pub(super) rows_seen: u64,
    /// The record-id column, when SUDA or the per-record values name records by it.
    pub(super) record_index: Option<usize>,
    /// Each row's class, when the per-record values are asked for.
    pub(super) records: Option<RecordClasses>,
}

impl TableSummary {
    pub(super) fn new(columns: &[String], config: &AuditConfig) -> Result<Self> {
        // Without the feature `full` its families are skipped: a setting asking for one is
        // refused here, where every audit starts, never left out of the report.
        if let Some(setting) = config.needs_full_engine().filter(|_| !crate::config::FULL_ENGINE) {
            return Err(Error::config("needs_full_engine", format!("the setting {setting} needs the full engine, which this build does not hold")));
        }
        let find = |name: &String| crate::table::header::find(columns, name);
        let qi_index = config.quasi_identifiers.iter().map(find).collect::<Result<Vec<_>>>()?;
        let sensitive_index = config.sensitive.iter().map(find).collect::<Result<Vec<_>>>()?;
        let mut sorted = qi_index.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::config("duplicate_quasi_identifier", "a quasi-identifier is named twice"));
        }
        let weight_index = config.weight.as_ref().map(find).transpose()?;
        let record_index = config.record_id.as_ref().filter(|_| config.suda.suda || config.records_kept()).map(find).transpose()?;
        let person_index = config.person_id.as_ref().map(find).transpose()?;
        let household_index = config.household_column.as_ref().map(find).transpose()?;
        if let Some(h) = household_index.filter(|h| sorted.contains(h)) {
            return Err(Error::config(
                "role_conflict",
                "the household id column is a quasi-identifier: household risk groups records by it, so it cannot also be known to an attacker as a QI; choose another column or give it another role",
            )
            .in_column(&columns[h]));
        }
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
        let several = config.sensitive.len() >= 2;
        let combined = (several && config.attribute.sa_mode == attribute::SaMode::Combined)
            .then(|| (SensitiveSummary::new(config.missing_policy, person_index.is_some()), crate::hash::map()));
        let extended = if several && config.attribute.sa_mode == attribute::SaMode::ExtendQi {
            config
                .sensitive
                .iter()
                .map(|sa| {
                    let mut quasi_identifiers = config.quasi_identifiers.clone();
                    quasi_identifiers.extend(config.sensitive.iter().filter(|o| *o != sa).cloned());
                    let attribute = attribute::AttributeParams { sa_mode: attribute::SaMode::PerAttribute, ..config.attribute.clone() };
                    let sub = AuditConfig {
                        quasi_identifiers,
                        sensitive: vec![sa.clone()],
                        suda: Default::default(),
                        attribute,
                        household_column: None,
                        ..config.clone()
                    };
                    TableSummary::new(columns, &sub)
                })
                .collect::<Result<Vec<_>>>()?
        } else {
            Vec::new()
        };
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
            combined,
            extended,
            classes,
            persons: person_index.map(|_| Persons::new(qi_index.len())),
            household_index,
            households: household_index.map(|_| Households::new()),
            population: None,
            original: None,
            released: None,
            control: None,
            norm: config.normaliser(),
            facts: InputFacts::default(),
            person_map: CodeMap::default(),
            household_map: CodeMap::default(),
            weights: Vec::new(),
            rows: BlockRows::default(),
            first_rows: config.suda.suda.then(Vec::new),
            first_ids: (config.suda.suda && record_index.is_some()).then(Vec::new),
            rows_seen: 0,
            record_index,
            records: config.records_kept().then(|| RecordClasses::new(record_index.is_some())),
        })
    }

    /// Gives the original table `O`: the columns of this table that `O` has are captured.
    pub(super) fn set_original(&mut self, original: Option<Arc<Captured>>, names: &[String], config: &AuditConfig) -> Result<()> {
        if let Some(o) = original {
            let released = Captured::new(names, |n| o.names.iter().any(|m| m == n), config.record_id.as_deref())?;
            self.released = Some(released.weighted(names, config.weight.as_deref()));
            self.original = Some(o);
        }
        Ok(())
    }

    /// Classes so far (what merging this part into another costs).
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// Merges the summary of another part of the same table (same header and settings).
    pub fn merge(&mut self, other: TableSummary) -> Result<()> {
        let remap = self.classes.merge(other.classes)?;
        let persons = match (&mut self.persons, other.persons) {
            (Some(mine), Some(theirs)) => Some(mine.merge(theirs, &remap)),
            _ => None,
        };
        if let (Some(mine), Some(theirs)) = (&mut self.households, other.households) {
            mine.merge(theirs, &remap.classes);
        }
        for (mine, theirs) in self.sensitive.iter_mut().zip(other.sensitive) {
            mine.merge(theirs, &remap, persons.as_deref());
        }
        if let (Some((mine, codes)), Some((theirs, _))) = (&mut self.combined, other.combined) {
            mine.merge(theirs, &remap, persons.as_deref());
            // The tuples' codes belong to the part that filled them.
            codes.clear();
        }
        for (mine, theirs) in self.extended.iter_mut().zip(other.extended) {
            mine.merge(theirs)?;
        }
        if let (Some(mine), Some(theirs)) = (&mut self.released, other.released) {
            mine.append(theirs);
        }
        if self.control.is_none() {
            self.control = other.control;
        }
        // Parts merge in file order: the other part's rows follow this one's.
        if let (Some(mine), Some(theirs)) = (&mut self.first_rows, &other.first_rows) {
            let mut their_ids = other.first_ids.map(Vec::into_iter);
            for (j, &row) in theirs.iter().enumerate() {
                let id = their_ids.as_mut().and_then(|ids| ids.next().flatten());
                if first_row(mine, remap.classes[j], self.rows_seen + row)
                    && let Some(ids) = &mut self.first_ids
                {
                    first_id(ids, remap.classes[j], id.as_deref());
                }
            }
        }
        if let (Some(mine), Some(theirs)) = (&mut self.records, other.records) {
            mine.append(theirs, &remap.classes);
        }
        self.rows_seen += other.rows_seen;
        // The code maps belong to the part that filled them.
        self.qi_maps = vec![CodeMap::default(); self.qi_maps.len()];
        self.sa_maps = vec![CodeMap::default(); self.sa_maps.len()];
        self.person_map = CodeMap::default();
        self.household_map = CodeMap::default();
        self.weights.clear();
        Ok(())
    }
}
