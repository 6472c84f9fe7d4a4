//! One audit of one released table: the streaming pass, the audit of a table kept in memory,
//! and the summaries both feed (spec README; issue 11).
//!
//! [`Audit::push`] takes chunks cut anywhere; [`Audit::finish`] returns the [`Report`]. The
//! per-file state is a [`Table`] (column values, and codes when kept) and a [`TableSummary`]
//! (the class table and what the roles need), both mergeable with another part of the file.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::attribute::{self, AttributeInput, SensitiveSummary};
use crate::balance::BalanceInput;
use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::identity::attribution::{Lattice, SubsetStats};
use crate::identity::disjoint::DisjointClasses;
use crate::identity::lattice::invalid_piece;
use crate::identity::per_record::{PerRecord, RecordClasses};
use crate::identity::persons::Persons;
use crate::identity::{self, IdentityInput, PopulationTable};
use crate::ingest::cell::{Cell, Normaliser, parse_num};
use crate::ingest::cells::{CellBatch, CellReader, Format};
use crate::ingest::reader::{InputFacts, PartBounds, Probe, Reader, RecordSink, Rows, Span};
use crate::metric::{MetricResult, Status};
use crate::report::{ReadPath, Report, Warning, metric_warnings, reading_warnings};
use crate::table::classes::{ClassTable, MissingPolicy};
use crate::table::dictionary::MISSING;
use crate::table::profile::ColumnProfile;
use crate::table::reference::ReferenceTable;
use crate::table::roles::Role;
use crate::table::{Block, Table, TableBuilder, merge_bounds};
use crate::utility::UtilityInput;
use crate::utility::attribute::AttributeSettings;
use crate::utility::capture::Captured;

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

/// `O`'s column of an SA: its values and rows per code (`t_reference = original`).
type Reference<'a> = (&'a crate::table::dictionary::Dictionary, Vec<u64>);

/// The per-audit summaries of one table, absorbed from blocks of codes: the class table and
/// what the roles need (sensitive values, persons, weights, the utility capture).
pub struct TableSummary {
    columns: Vec<String>,
    qi_index: Vec<usize>,
    weight_index: Option<usize>,
    person_index: Option<usize>,
    sensitive_index: Vec<usize>,
    sensitive: Vec<SensitiveSummary>,
    /// `sa_mode = combined` with several SAs: the pseudo-SA of their tuples (attribute-risk.md
    /// Sec 8), and the tuple of each row's SA codes -> its code.
    combined: Option<(SensitiveSummary, crate::hash::Map<Vec<u32>, u32>)>,
    /// `sa_mode = extend_qi` with several SAs: per SA, the summary of a table whose QIs are `A`
    /// plus the other SAs (Sec 8).
    extended: Vec<TableSummary>,
    classes: ClassTable,
    persons: Option<Persons>,
    population: Option<Arc<ReferenceTable>>,
    original: Option<Arc<Captured>>,
    released: Option<Captured>,
    /// The control table `C` of the attacks (peer-measures.md Sec 5.1).
    control: Option<Arc<Captured>>,
    norm: Normaliser,
    facts: InputFacts,
    qi_maps: Vec<CodeMap>,
    sa_maps: Vec<CodeMap>,
    person_map: CodeMap,
    /// Per code of the weight column: its weight, or NaN when it is not a weight.
    weights: Vec<f64>,
    /// The block being absorbed, row by row: keys (the QI codes of each row one after the
    /// other), weights, persons and classes.
    rows: BlockRows,
    /// With SUDA on: per class, the 0-based row of its first record (SUDA's `per_record`
    /// names the records of the keys held once), and the rows absorbed so far.
    first_rows: Option<Vec<u64>>,
    /// With SUDA on and a record id: per class, the record id of its first record.
    first_ids: Option<Vec<Option<Box<str>>>>,
    rows_seen: u64,
    /// The record-id column, when SUDA or the per-record values name records by it.
    record_index: Option<usize>,
    /// Each row's class, when the per-record values are asked for.
    records: Option<RecordClasses>,
}

/// Buffers of [`TableSummary::absorb`], reused from block to block.
#[derive(Default)]
struct BlockRows {
    keys: Vec<u32>,
    weights: Vec<f64>,
    persons: Vec<u32>,
    classes: Vec<Option<u32>>,
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
                Error::config("unknown_column", format!("there is no column \"{name}\"; the columns are: {}", columns.join(", "))).in_column(name)
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
        let record_index = config.record_id.as_ref().filter(|_| config.suda.suda || config.records_kept()).map(find).transpose()?;
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
                    let sub = AuditConfig { quasi_identifiers, sensitive: vec![sa.clone()], suda: Default::default(), attribute, ..config.clone() };
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
            population: None,
            original: None,
            released: None,
            control: None,
            norm: config.normaliser(),
            facts: InputFacts::default(),
            person_map: CodeMap::default(),
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
    fn set_original(&mut self, original: Option<Arc<Captured>>, names: &[String], config: &AuditConfig) -> Result<()> {
        if let Some(o) = original {
            let released = Captured::new(names, |n| o.names.iter().any(|m| m == n), config.record_id.as_deref())?;
            self.released = Some(released.weighted(names, config.weight.as_deref()));
            self.original = Some(o);
        }
        Ok(())
    }

    /// Absorbs a block of rows.
    pub fn absorb(&mut self, block: &Block<'_>) -> Result<()> {
        self.absorb_found(block, None)
    }

    /// [`TableSummary::absorb`]; with `found`, the block's rows' classes found already
    /// ([`TableSummary::classes_by_sorting`]; `u32::MAX` for a row out of scope), else each
    /// row's class is looked up.
    fn absorb_found(&mut self, block: &Block<'_>, found: Option<&[u32]>) -> Result<()> {
        if let Some(c) = &mut self.released {
            c.absorb_block(block, &self.norm);
        }
        if self.qi_index.is_empty() {
            return Ok(());
        }
        let failed = match found {
            Some(found) => {
                self.rows.classes.clear();
                self.rows.classes.extend(found.iter().map(|&c| (c != u32::MAX).then_some(c)));
                None
            }
            None => {
                let mut failed = self.keys_of(block);
                let rows = &mut self.rows;
                rows.classes.clear();
                if let Err((i, e)) = self.classes.absorb_rows(&rows.keys, &rows.weights, &mut rows.classes) {
                    failed = Some(e.at_line(block.lines[i]));
                }
                failed
            }
        };
        self.absorb_classes(block, failed)
    }

    /// Rows `from..to` of a retained table, block by block as [`TableSummary::absorb`], their
    /// classes found first by sorting when the class table can; `on_rows` is told the rows of
    /// each block absorbed (the progress of [`summarise`]).
    fn absorb_range(&mut self, table: &Table, needed: &[usize], from: usize, to: usize, on_rows: &dyn Fn(u64)) -> Result<()> {
        let found = self.classes_by_sorting(table, from, to)?;
        let mut codes = vec![Vec::new(); table.columns.len()];
        let mut lines = Vec::with_capacity(BLOCK_ROWS.min(to - from));
        for start in (from..to).step_by(BLOCK_ROWS) {
            let end = (start + BLOCK_ROWS).min(to);
            for &j in needed {
                table.columns[j].codes.as_ref().expect("a needed column is retained").slice_into(start, end, &mut codes[j]);
            }
            lines.clear();
            lines.extend((start..end).map(|r| table.lines.line(r as u64)));
            let found = found.as_deref().map(|f| &f[start - from..end - from]);
            self.absorb_found(&Block { codes: &codes, lines: &lines, columns: &table.columns }, found)?;
            on_rows((end - start) as u64);
        }
        Ok(())
    }

    /// The classes of rows `from..to` of a retained table found at once by sorting their keys
    /// ([`ClassTable::absorb_batch`]), each QI's codes mapped column by column (a column's
    /// values are coded in the order its rows give them, as row by row). `None` when the class
    /// table cannot ([`ClassTable::batch`]), or with a weight or person id (whose errors name
    /// the row they meet): then each row is looked up.
    fn classes_by_sorting(&mut self, table: &Table, from: usize, to: usize) -> Result<Option<Vec<u32>>> {
        if self.qi_index.is_empty() || self.weight_index.is_some() || self.person_index.is_some() {
            return Ok(None);
        }
        let most = self.qi_index.iter().map(|&j| u32::try_from(table.columns[j].values.len() + 1).unwrap_or(u32::MAX)).collect();
        let Some(mut batch) = self.classes.batch(most, to - from) else { return Ok(None) };
        let (mut codes, mut mapped) = (Vec::new(), vec![Vec::new(); self.qi_index.len()]);
        for start in (from..to).step_by(BLOCK_ROWS) {
            let end = (start + BLOCK_ROWS).min(to);
            let (classes, norm) = (&mut self.classes, &self.norm);
            for (a, ((&col, map), out)) in self.qi_index.iter().zip(&mut self.qi_maps).zip(&mut mapped).enumerate() {
                let column = &table.columns[col];
                column.codes.as_ref().expect("a needed column is retained").slice_into(start, end, &mut codes);
                out.clear();
                out.extend(codes.iter().map(|&code| map.get(code, || classes.code(a, norm.normalise(column.values.text(code))))));
            }
            batch.push(classes, &mapped);
        }
        let found = self.classes.absorb_batch(batch).map_err(|(row, e)| match row {
            Some(row) => e.at_line(table.lines.line((from + row) as u64)),
            None => e,
        })?;
        Ok(Some(found))
    }

    /// The keys of a block's rows (their QI codes, one row after the other), their weights
    /// and persons, up to a row in error (returned, with its line).
    fn keys_of(&mut self, block: &Block<'_>) -> Option<Error> {
        let norm = &self.norm;
        let values = |i: usize| &block.columns[i].values;
        if let Some(w) = self.weight_index {
            let v = values(w);
            for code in self.weights.len()..v.len() {
                self.weights.push(parse_weight(norm.normalise(v.text(code as u32))).unwrap_or(f64::NAN));
            }
        }
        let rows = &mut self.rows;
        rows.keys.clear();
        rows.weights.clear();
        rows.persons.clear();
        let mut failed = None;
        for i in 0..block.len() {
            for (a, &col) in self.qi_index.iter().enumerate() {
                let code = block.codes[col][i];
                let classes = &mut self.classes;
                rows.keys.push(self.qi_maps[a].get(code, || classes.code(a, norm.normalise(values(col).text(code)))));
            }
            if let Some(w) = self.weight_index {
                let x = self.weights[block.codes[w][i] as usize];
                if x.is_nan() {
                    let text = values(w).text(block.codes[w][i]);
                    failed = Some(
                        Error::input("invalid_weight", format!("a sampling weight must be a finite number >= 0, not \"{text}\""))
                            .at_line(block.lines[i])
                            .in_column(&self.columns[w]),
                    );
                }
                rows.weights.push(x);
            }
            if let (Some(p), Some(persons)) = (self.person_index, &mut self.persons) {
                let code = block.codes[p][i];
                let cell = norm.normalise(values(p).text(code));
                if cell.is_blank() && failed.is_none() {
                    failed = Some(Error::input("person_id_missing", "the person id is empty").at_line(block.lines[i]).in_column(&self.columns[p]));
                }
                rows.persons.push(self.person_map.get(code, || persons.code(cell)));
            }
            if failed.is_some() {
                rows.keys.truncate(i * self.qi_index.len());
                break;
            }
        }
        failed
    }

    /// What the classes of a block's rows (`self.rows.classes`) hold: first rows, records,
    /// persons, sensitive values; then the summaries of the extended QIs. `failed`: the
    /// block's row in error, returned after the rows before it are absorbed.
    fn absorb_classes(&mut self, block: &Block<'_>, failed: Option<Error>) -> Result<()> {
        let norm = &self.norm;
        let values = |i: usize| &block.columns[i].values;
        let rows = &self.rows;
        let q = self.qi_index.len();
        let id = |i: usize| self.record_index.and_then(|col| record_id(norm, values(col), block.codes[col][i]));
        if let Some(first) = &mut self.first_rows {
            for (i, class) in rows.classes.iter().enumerate() {
                if let Some(class) = *class {
                    let row = self.rows_seen + i as u64;
                    if first_row(first, class, row)
                        && let Some(ids) = &mut self.first_ids
                    {
                        first_id(ids, class, id(i).as_deref());
                    }
                }
            }
        }
        if let Some(records) = &mut self.records {
            for (i, &class) in rows.classes.iter().enumerate() {
                records.push(class, id(i).as_deref());
            }
        }
        self.rows_seen += block.len() as u64;
        // The combined pseudo-SA's tuple of a row, one buffer for the block.
        let mut tuple = Vec::new();
        for (i, class) in rows.classes.iter().enumerate() {
            let Some(class) = *class else { continue };
            let person = rows.persons.get(i).copied();
            if let (Some(person), Some(persons)) = (person, &mut self.persons) {
                persons.absorb(class, &rows.keys[i * q..(i + 1) * q], person);
            }
            tuple.clear();
            for (s, &col) in self.sensitive_index.iter().enumerate() {
                let code = block.codes[col][i];
                let summary = &mut self.sensitive[s];
                let v = self.sa_maps[s].get(code, || summary.code(norm.normalise(values(col).text(code))).unwrap_or(UNSET - 1));
                if v != UNSET - 1 {
                    summary.absorb(class, v, person);
                }
                if self.combined.is_some() {
                    tuple.push(v);
                }
            }
            // The pseudo-SA leaves out a row that any SA leaves out (a blank under `drop`).
            if let Some((summary, codes)) = &mut self.combined
                && !tuple.contains(&(UNSET - 1))
            {
                let sensitive = &self.sensitive;
                let v = *codes.entry_ref(tuple.as_slice()).or_insert_with_key(|t| {
                    let shown: Vec<Option<&str>> = t.iter().zip(sensitive).map(|(&v, s)| s.values.display(v)).collect();
                    summary.values.code(Cell::text(&serde_json::to_string(&shown).expect("strings serialize")))
                });
                summary.absorb(class, v, person);
            }
        }
        if failed.is_none() {
            for sub in &mut self.extended {
                sub.absorb(block)?;
            }
        }
        failed.map_or(Ok(()), Err)
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
        self.weights.clear();
        Ok(())
    }

    /// `t_reference = original`: each SA's column of `O` (when `O` has it) and its rows per value.
    fn references<'o>(&self, original: Option<&'o Captured>) -> Vec<Option<Reference<'o>>> {
        self.sensitive_index
            .iter()
            .map(|&i| {
                let column = original?.column(&self.columns[i])?;
                let mut counts = vec![0u64; column.values.len()];
                column.codes.iter().for_each(|&c| counts[c as usize] += 1);
                Some((&column.values, counts))
            })
            .collect()
    }

    /// Each SA with what the settings declare about it (order, hierarchy) and its reference.
    fn sa_inputs<'a>(
        &'a self,
        attributes: &'a BTreeMap<String, AttributeSettings>,
        references: &'a [Option<Reference<'_>>],
        wants_original: bool,
    ) -> Vec<attribute::SaInput<'a>> {
        self.sensitive_index
            .iter()
            .zip(&self.sensitive)
            .zip(references)
            .map(|((&i, summary), reference)| {
                let name = self.columns[i].as_str();
                let settings = attributes.get(name);
                let order = settings.filter(|s| s.kind == Some(crate::table::kind::Kind::Ordinal)).and_then(|s| s.order.as_deref());
                let reference = reference.as_ref().map(|(values, counts)| attribute::distribution::Reference { values, counts });
                attribute::SaInput {
                    name,
                    summary,
                    declared: attribute::distribution::Declared { order, reference },
                    hierarchy: settings.and_then(|s| s.hierarchy.as_deref()),
                    reference_missing: wants_original && reference.is_none(),
                }
            })
            .collect()
    }

    /// Finishes into the report, with the profiles of the columns and the facts of the file.
    pub fn finish(self, columns: Vec<ColumnProfile>, facts: InputFacts, config: &AuditConfig) -> Report {
        self.finish_deferring(columns, facts, config, false).0
    }

    /// [`TableSummary::finish`]; with `attribution_deferred`, without the attribution results
    /// and with the advice pending (its "drop a QI" figures come from the attribution
    /// lattice's statistics), with the position of its metric: the caller adds them
    /// ([`SplitAudit`]).
    fn finish_deferring(
        mut self,
        columns: Vec<ColumnProfile>,
        facts: InputFacts,
        config: &AuditConfig,
        attribution_deferred: bool,
    ) -> (Report, Option<(usize, crate::advice::Pending)>) {
        self.facts = facts;
        self.classes.forget_index();
        for s in &mut self.sensitive {
            s.seal();
        }
        if let Some((s, _)) = &mut self.combined {
            s.seal();
        }
        for sub in &mut self.extended {
            sub.classes.forget_index();
            sub.sensitive.iter_mut().for_each(SensitiveSummary::seal);
        }
        let mut warnings = table_warnings(&columns, &self.facts);
        let mut steps = crate::progress::Measures::start();
        let qi: Vec<String> = self.qi_index.iter().map(|&i| self.columns[i].clone()).collect();
        let identity = config.identity_params();
        let population = match &self.population {
            None => PopulationTable::Absent,
            Some(r) if !r.missing.is_empty() => PopulationTable::MissingQi(r.missing.clone()),
            Some(r) => {
                let columns = qi.iter().map(|name| r.present.iter().position(|x| x == name).expect("no QI missing")).collect();
                PopulationTable::Table(&r.table, columns, r.subset.as_ref())
            }
        };
        let input = IdentityInput { table: &self.classes, persons: self.persons.as_ref(), population, qi: &qi, attribution_deferred };
        // SUDA (its search and its metrics) reads the class table alone: it runs beside the
        // identity suite, whose steps and its own leave cores idle in turn.
        let suda_ctx = crate::metric::Context {
            family: "identity",
            scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.clone(), sensitive: None, attribute: None, subset: None },
            params: serde_json::Value::Null,
        };
        let suda_ids =
            self.first_rows.as_deref().filter(|_| !qi.is_empty()).map(|first_row| identity::suda::RecordIds { first_row, first_id: self.first_ids.as_deref() });
        let (suda, mut metrics) = crate::par::join_some(
            suda_ids.as_ref().map(|ids| {
                || {
                    let found = identity::suda::msus_of(&self.classes, qi.len(), &config.suda);
                    identity::suda::metrics(&suda_ctx, &self.classes, &qi, &config.suda, ids, config.per_record, found)
                }
            }),
            || if qi.is_empty() { Vec::new() } else { identity::finish(&input, &identity) },
        );
        let mut per_record = self.records.take().filter(|_| !qi.is_empty()).map(|rows| {
            let size: Vec<u64> = (0..self.classes.len()).map(|i| self.classes.count(i)).collect();
            let f = match config.missing_policy {
                MissingPolicy::Wildcard => self.classes.match_counts(config.wildcard_alpha),
                _ => size.iter().map(|&c| c as f64).collect(),
            };
            PerRecord::new(rows, size, f)
        });
        let mut record_level = matches!((&per_record, config.per_record), (Some(p), true) if add_per_record(&mut metrics, "record_risk", p.risk_json()));
        if let Some(suda) = suda {
            if let (Some(columns), Some((scores, dis))) = (per_record.as_mut(), suda.scores) {
                columns.add_column("suda_score", scores);
                columns.add_column("dis_suda_score", dis);
            }
            record_level |= suda.metrics.iter().any(|m| m.details.get("per_record").is_some());
            metrics.extend(suda.metrics);
        }
        if record_level {
            warnings.push(Warning {
                code: crate::shareable::RECORD_LEVEL,
                message: "this report holds a value per record (details.per_record, asked for by the setting per_record): share its shareable variant, which leaves them out".into(),
            });
        }
        steps.next();
        let mut pending_advice = None;
        if let (Some(advice), false) = (&config.advice, qi.is_empty()) {
            let ctx = crate::metric::Context {
                family: "advice",
                scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.clone(), sensitive: None, attribute: None, subset: None },
                params: serde_json::json!(advice),
            };
            let norm = config.normaliser();
            let labels: Vec<_> = qi.iter().map(|q| config.attributes.get(q).and_then(|s| s.hierarchy.as_deref()).map(|h| norm.labels(h))).collect();
            let hierarchies: Vec<_> = labels.iter().map(|h| h.as_deref()).collect();
            let dates: Vec<_> = qi.iter().map(|q| columns.iter().find(|c| &c.name == q).and_then(|c| c.date_form)).collect();
            if attribution_deferred {
                match crate::advice::start(&ctx, &self.classes, &qi, &hierarchies, &dates, &identity, advice) {
                    Ok(pending) => pending_advice = Some((metrics.len(), pending)),
                    Err(without) => metrics.push(*without),
                }
            } else {
                metrics.push(crate::advice::metric(&ctx, &self.classes, &qi, &hierarchies, &dates, &identity, advice));
            }
        }
        steps.next();
        // Hierarchy and order labels are compared with the (folded) values.
        let attributes = config.read_labels();
        if !qi.is_empty() {
            let k = metrics.iter().find(|m| m.id == "k_anonymity").and_then(|m| m.value.as_f64());
            let original = self.original.as_deref().filter(|_| config.attribute.t_reference == attribute::TReference::Original);
            let wants_original = config.attribute.t_reference == attribute::TReference::Original;
            let references = self.references(original);
            let combined_name = self.sensitive_index.iter().map(|&i| self.columns[i].as_str()).collect::<Vec<_>>().join(" + ");
            if let Some((summary, _)) = &self.combined {
                // One pseudo-SA: no declared order or hierarchy; `O` has no column of tuples.
                let sa = attribute::SaInput { name: &combined_name, summary, declared: Default::default(), hierarchy: None, reference_missing: wants_original };
                let input =
                    AttributeInput { table: &self.classes, qi: &qi, sensitive: vec![sa], persons: self.persons.as_ref(), k, alpha: config.wildcard_alpha };
                metrics.extend(attribute::finish(&input, &config.attribute));
            } else if !self.extended.is_empty() {
                let subs: Vec<(Vec<String>, _, Option<f64>)> = self
                    .extended
                    .iter()
                    .map(|sub| {
                        let k = sub.classes.match_counts(config.wildcard_alpha).into_iter().reduce(f64::min);
                        (sub.qi_index.iter().map(|&i| sub.columns[i].clone()).collect(), sub.references(original), k)
                    })
                    .collect();
                let inputs: Vec<AttributeInput<'_>> = self
                    .extended
                    .iter()
                    .zip(&subs)
                    .map(|(sub, (sub_qi, refs, k))| AttributeInput {
                        table: &sub.classes,
                        qi: sub_qi,
                        sensitive: sub.sa_inputs(&attributes, refs, wants_original),
                        persons: sub.persons.as_ref(),
                        k: *k,
                        alpha: config.wildcard_alpha,
                    })
                    .collect();
                metrics.extend(attribute::finish_all(&inputs.iter().collect::<Vec<_>>(), &qi, &config.attribute));
            } else {
                let input = AttributeInput {
                    table: &self.classes,
                    qi: &qi,
                    sensitive: self.sa_inputs(&attributes, &references, wants_original),
                    persons: self.persons.as_ref(),
                    k,
                    alpha: config.wildcard_alpha,
                };
                metrics.extend(attribute::finish(&input, &config.attribute));
            }
            let sas: Vec<String> =
                if self.combined.is_some() { vec![combined_name] } else { self.sensitive_index.iter().map(|&i| self.columns[i].clone()).collect() };
            let ctx = crate::metric::Context {
                family: "verdict",
                scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.clone(), sensitive: None, attribute: None, subset: None },
                params: serde_json::Value::Null,
            };
            let verdicts = crate::verdict::scorr::metrics(&ctx, &metrics, &qi, &sas, &config.scorr);
            metrics.extend(verdicts);
            if qi_all_blank(&self.classes) {
                warnings.push(not_assessable(&mut metrics, &qi));
            }
        }
        steps.next();
        if let (Some(o), Some(p)) = (&self.original, &self.released) {
            // `O`'s delimiter decides whether a comma may be a decimal separator (Sec 4.2).
            let norm = config.normaliser().delimiter(&o.input.delimiter);
            metrics.extend(crate::utility::finish(&UtilityInput {
                original: o,
                released: p,
                qi: &qi,
                sensitive: &config.sensitive,
                attributes: &config.attributes,
                params: &config.utility,
                missing_policy: config.missing_policy,
                exclude_suppressed_rows: config.exclude_suppressed_rows,
                norm: &norm,
            }));
        }
        steps.next();
        if let Some(attacks) = &config.attacks {
            let norm = config.normaliser();
            let norm = match self.original.as_deref() {
                Some(o) => norm.delimiter(&o.input.delimiter),
                None => norm,
            };
            let input = crate::attack::AttackInput {
                original: self.original.as_deref(),
                released: self.released.as_ref(),
                control: self.control.as_deref(),
                qi: &qi,
                sensitive: &config.sensitive,
                attributes: &config.attributes,
                norm: &norm,
            };
            metrics.extend(crate::attack::metrics(&input, attacks));
        }
        steps.next();
        if !qi.is_empty() {
            let input = BalanceInput { table: &self.classes, qi: &qi, external: self.population.as_deref(), identity: &identity, metrics: &metrics };
            let balance = crate::balance::finish(&input, &config.balance);
            metrics.extend(balance);
        }
        steps.next();
        warnings.extend(crate::scope::warnings(&metrics, &crate::scope::blank_qis(&columns, config), config));
        warnings.extend(metric_warnings(&metrics));
        let report = Report {
            input: self.facts,
            original_input: self.original.as_ref().map(|o| o.input.clone()),
            reference_input: self.population.as_ref().map(|r| r.input.clone()),
            columns,
            params: AuditConfig { quasi_identifiers: qi, ..config.clone() },
            metrics,
            warnings,
            read: ReadPath::streaming("the file was read for this audit"),
            per_record: per_record.map(Arc::new),
        };
        (report, pending_advice)
    }
}

/// The warnings about the columns and the reading: columns without values, columns that look
/// like direct identifiers, what the reader had to repair or skip.
fn table_warnings(columns: &[ColumnProfile], facts: &InputFacts) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let rows = facts.rows_total;
    let empty: Vec<String> = columns.iter().filter(|c| c.shape == "no values" && rows > 0).map(|c| format!("\"{}\"", c.name)).collect();
    match empty.len() {
        0 => {}
        1 => warnings.push(Warning { code: "column_without_values", message: format!("column {} has no value in any row", empty[0]) }),
        n => warnings.push(Warning { code: "column_without_values", message: format!("{n} columns have no value in any row: {}", name_list(&empty)) }),
    }
    let direct: Vec<&str> = columns.iter().filter(|c| c.proposed_role == Role::DirectIdentifier).map(|c| c.name.as_str()).collect();
    if !direct.is_empty() {
        warnings.push(Warning {
            code: "direct_identifiers_present",
            message: format!("these columns look like direct identifiers and should not be released: {}", name_list(&direct)),
        });
    }
    for c in columns.iter().filter(|c| !c.ambiguous_date_forms.is_empty()) {
        let forms: Vec<&str> = c.ambiguous_date_forms.iter().map(|f| f.name()).collect();
        warnings.push(Warning {
            code: "date_form_ambiguous",
            message: format!(
                "column \"{}\" holds dates that read in more than one form ({}): it is treated as categorical until its date_form is set",
                c.name,
                forms.join(" or ")
            ),
        });
    }
    for c in columns.iter().filter(|c| c.mixed_decimals) {
        warnings.push(Warning {
            code: "decimal_separator_mixed",
            message: format!("column \"{}\" writes some numbers with a decimal comma and others with a point: it is treated as categorical", c.name),
        });
    }
    warnings.extend(reading_warnings(facts));
    warnings
}

/// Records `row` as the first of `class` unless an earlier one is there; whether it is now.
fn first_row(first: &mut Vec<u64>, class: u32, row: u64) -> bool {
    let class = class as usize;
    if first.len() <= class {
        first.resize(class + 1, u64::MAX);
    }
    let earlier = row < first[class];
    first[class] = first[class].min(row);
    earlier
}

/// Records `id` as the record id of the first record of `class`.
fn first_id(ids: &mut Vec<Option<Box<str>>>, class: u32, id: Option<&str>) {
    let class = class as usize;
    if ids.len() <= class {
        ids.resize(class + 1, None);
    }
    ids[class] = id.map(Box::from);
}

/// The record id of a cell (normalised; `None` when blank or missing).
fn record_id<'a>(norm: &Normaliser, values: &'a crate::table::values::Values, code: u32) -> Option<std::borrow::Cow<'a, str>> {
    match norm.normalise(values.text(code)) {
        Cell::Text(t) => Some(t),
        _ => None,
    }
}

/// Puts a per-record vector in the details of metric `id` (spec README Sec 10), when it has
/// a value; whether it did.
fn add_per_record(metrics: &mut [MetricResult], id: &str, per_record: serde_json::Value) -> bool {
    match metrics.iter_mut().find(|m| m.id == id && m.status == Status::Ok) {
        Some(m) => {
            m.details["per_record"] = per_record;
            true
        }
        None => false,
    }
}

/// Names in a warning: the first [`LISTED_NAMES`], then how many more (a file of 20,000
/// columns would otherwise make one warning of 20,000 names).
fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(LISTED_NAMES).map(AsRef::as_ref).collect();
    match names.len().saturating_sub(LISTED_NAMES) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// Most names a warning lists.
const LISTED_NAMES: usize = 20;

/// The reason (and warning) code when every quasi-identifier cell of the audit is blank.
const QI_ALL_BLANK: &str = "quasi_identifiers_all_blank";

/// The verdicts, which a table whose quasi-identifiers are all blank cannot support.
const VERDICT_IDS: [&str; 4] = ["verdict_arx_thresholds", "verdict_scorr_conventional", "verdict_scorr_extended", "verdict_scorr_final"];

/// Whether the audit has records and every quasi-identifier is blank in each of them (the
/// class table then holds one class of blanks; a suppressed `*` is a value, not a blank).
fn qi_all_blank(classes: &ClassTable) -> bool {
    classes.records() > 0 && (0..classes.len()).all(|i| (0..classes.q()).all(|a| classes.code_at(i, a) == MISSING))
}

/// Every QI blank: one class of the whole file passes every threshold, but only because the
/// file holds nothing to group by. The verdicts say "not assessable" instead of a light
/// (docs/decisions/verdict/quasi-identifiers-all-blank.md); the warning that says why.
fn not_assessable(metrics: &mut [MetricResult], qi: &[String]) -> Warning {
    for m in metrics.iter_mut().filter(|m| VERDICT_IDS.contains(&m.id)) {
        m.value = serde_json::Value::Null;
        m.status = Status::NotApplicable;
        m.reason = Some(QI_ALL_BLANK);
        m.details = serde_json::json!({});
    }
    Warning {
        code: QI_ALL_BLANK,
        message: format!(
            "every quasi-identifier ({}) is blank in every audited record, so the audit cannot tell how re-identifiable the people in the file are and gives no verdict: check the roles, and whether the export emptied these columns",
            qi.join(", ")
        ),
    }
}

/// A sampling weight: a finite number >= 0 (spec identity-risk.md Sec 8).
fn parse_weight(cell: Cell<'_>) -> Option<f64> {
    match cell {
        Cell::Text(t) => parse_num(&t).filter(|w| *w >= 0.0),
        _ => None,
    }
}

/// The HIPAA Safe Harbor checklist over every column of the table, when asked for.
fn hipaa_metric(table: &Table, profiles: &[ColumnProfile], config: &AuditConfig) -> Option<MetricResult> {
    config.hipaa.then(|| {
        let ctx = crate::metric::Context {
            family: "hipaa",
            scope: crate::metric::Scope { table: "P", quasi_identifiers: config.quasi_identifiers.clone(), sensitive: None, attribute: None, subset: None },
            params: serde_json::json!({}),
        };
        crate::hipaa::metric(&ctx, &crate::hipaa::columns_of(table, profiles), &config.normaliser())
    })
}

/// Rows a block of a retained table holds.
const BLOCK_ROWS: usize = 1 << 16;

/// Rows a range of a retained table summarised at once holds at most: its classes are found by
/// sorting its rows' keys ([`TableSummary::classes_by_sorting`]), [`SORT_BYTES_PER_ROW`] a row
/// while it runs.
const RANGE_ROWS: usize = 1 << 21;

/// Bytes a row of a range takes while its classes are sorted: its word, the radix sort's
/// scratch word and its class ([`ClassTable::absorb_batch`](crate::table::classes::ClassTable::absorb_batch)).
const SORT_BYTES_PER_ROW: usize = 20;

/// The memory the class sort of an audit of a retained table of `rows` rows holds at most on
/// one thread (one range at a time). The page's audit worker takes and touches it before its
/// first audit (the wasm binding's `KeptTable::prepare_audit`).
pub fn sorting_bytes(rows: u64) -> usize {
    usize::try_from(rows).unwrap_or(usize::MAX).min(RANGE_ROWS) * SORT_BYTES_PER_ROW
}

/// Audits a retained table ([`Table::is_retained`]) without reading its file again: the same
/// report as a streaming audit with the same settings. `not_retained` when a column a role
/// of `config` needs was not kept (the caller reads the file again, streaming).
pub fn audit_table(table: &Table, config: &AuditConfig, original: Option<Arc<Captured>>, population: Option<Arc<ReferenceTable>>) -> Result<Report> {
    audit_table_with_control(table, config, original, population, None)
}

/// [`audit_table`] with the control table `C` of the attacks (peer-measures.md Sec 5.1).
pub fn audit_table_with_control(
    table: &Table,
    config: &AuditConfig,
    original: Option<Arc<Captured>>,
    population: Option<Arc<ReferenceTable>>,
    control: Option<Arc<Captured>>,
) -> Result<Report> {
    Ok(Summarised::of(table, config, original, population, control)?.finish(config, false).0)
}

/// A retained table summarised with the settings of an audit: all its report needs, so the
/// table itself is no longer read.
struct Summarised {
    summary: TableSummary,
    profiles: Vec<ColumnProfile>,
    facts: InputFacts,
    hipaa: Option<MetricResult>,
}

impl Summarised {
    fn of(
        table: &Table,
        config: &AuditConfig,
        original: Option<Arc<Captured>>,
        population: Option<Arc<ReferenceTable>>,
        control: Option<Arc<Captured>>,
    ) -> Result<Summarised> {
        let mut summary = summarise(table, config, original, population)?;
        summary.control = control;
        let profiles = table.profiles(&config.normaliser());
        let hipaa = hipaa_metric(table, &profiles, config);
        Ok(Summarised { summary, profiles, facts: table.facts.clone(), hipaa })
    }

    fn finish(self, config: &AuditConfig, attribution_deferred: bool) -> (Report, Option<(usize, crate::advice::Pending)>) {
        let (mut report, advice) = self.summary.finish_deferring(self.profiles, self.facts, config, attribution_deferred);
        report.metrics.extend(self.hipaa);
        report.read = ReadPath { mode: "retained", reason: "the table was read once and kept in memory".into() };
        (report, advice)
    }
}

/// An audit of a retained table in steps, whose attribution lattice (the largest piece of
/// the audit of the classes: about 45 % of the page's audit of the 1M-row Adult-like table
/// with 8 QIs) another worker can compute from bytes while this one finishes the other
/// metrics: [`SplitAudit::start`] summarises the table, [`SplitAudit::lattice`] gives the
/// piece ([`crate::identity::lattice`]), [`SplitAudit::finish_others`] computes the rest and
/// [`SplitAudit::complete`] adds the attribution results and the advice's "drop a QI" entries
/// from the statistics computed elsewhere, or here. The same report as [`audit_table_with_control`] (the page's audit
/// worker and its reader workers; natively the lattice already runs beside the rest).
pub struct SplitAudit {
    config: AuditConfig,
    /// The table summarised, until [`SplitAudit::finish_others`] turns it into the report.
    summarised: Option<Box<Summarised>>,
    report: Option<Report>,
    /// The advice waiting for the lattice's statistics, and where its metric goes.
    advice: Option<(usize, crate::advice::Pending)>,
    /// The lattice, when attribution is deferred (QIs, records, and keys that fit one word).
    lattice: Option<Lattice>,
    /// Records in scope.
    n: u64,
}

impl SplitAudit {
    /// Summarises `table` with these settings and the side tables (`not_retained` as
    /// [`audit_table`]); the table is not read afterwards.
    pub fn start(
        table: &Table,
        config: &AuditConfig,
        original: Option<Arc<Captured>>,
        population: Option<Arc<ReferenceTable>>,
        control: Option<Arc<Captured>>,
    ) -> Result<SplitAudit> {
        let summarised = Summarised::of(table, config, original, population, control)?;
        let classes = &summarised.summary.classes;
        let q = summarised.summary.qi_index.len();
        let n = classes.records();
        let lattice = if q > 0 && n > 0 { identity::attribution::lattice_of(classes, q, config.identity_params().threshold) } else { None };
        Ok(SplitAudit { config: config.clone(), summarised: Some(Box::new(summarised)), report: None, advice: None, lattice, n })
    }

    /// The attribution lattice to compute elsewhere (`identity::attribution::Lattice::stats`),
    /// or `None` when attribution is not deferred (no QIs or records, or keys too wide: then
    /// it is computed with the other metrics).
    pub fn lattice(&self) -> Option<&Lattice> {
        self.lattice.as_ref()
    }

    /// Computes every metric but attribution (at most once).
    pub fn finish_others(&mut self) {
        if let Some(summarised) = self.summarised.take() {
            let (report, advice) = summarised.finish(&self.config, self.lattice.is_some());
            (self.report, self.advice) = (Some(report), advice);
        }
    }

    /// The report, its attribution results from `stats` (the statistics of [`Self::lattice`]
    /// computed elsewhere) or, without them, computed here. `invalid_piece` when `stats` are
    /// not those of every subset the lattice evaluates.
    pub fn complete(mut self, stats: Option<Vec<SubsetStats>>) -> Result<Report> {
        self.finish_others();
        let mut report = self.report.take().expect("finish_others gives the report");
        let Some(lattice) = self.lattice else { return Ok(report) };
        let qi = report.params.quasi_identifiers.clone();
        let stats = match stats {
            Some(stats) => {
                let mut masks: Vec<u32> = stats.iter().map(|s| s.mask).collect();
                masks.sort_unstable();
                if masks != (1..1u32 << qi.len()).collect::<Vec<_>>() {
                    return Err(invalid_piece("the attribution statistics are not those of this audit's subsets"));
                }
                stats
            }
            None => lattice.stats(),
        };
        // The advice's metric first: its place was counted before the attribution results.
        if let Some((at, pending)) = self.advice.take() {
            let drops = crate::advice::drop_figures(&stats, qi.len(), self.n, &self.config.identity_params());
            report.metrics.insert(at, pending.finish(drops));
        }
        // The identity family of a table with records ends with ARX's verdict.
        let at = report
            .metrics
            .iter()
            .position(|m| m.id == "verdict_arx_thresholds")
            .ok_or_else(|| invalid_piece("no verdict_arx_thresholds to add the attribution results before"))?;
        let attribution = identity::attribution_from(&qi, &self.config.identity_params(), self.n, stats);
        report.metrics.splice(at..at, attribution);
        Ok(report)
    }
}

/// The class statistics of a retained table whose classes no other part holds (a partition of
/// a table split by a hash of its QI values, [`crate::identity::disjoint::ClassHasher`]): the class-partitioned mode of
/// docs/spark.md. Only the QIs' codes are read (the other roles of `config` are ignored);
/// `class_partitioned_wildcard` under the wildcard policy.
pub fn class_statistics(table: &Table, config: &AuditConfig) -> Result<DisjointClasses> {
    let qi_only = AuditConfig { sensitive: Vec::new(), weight: None, person_id: None, ..config.clone() };
    DisjointClasses::of(&summarise(table, &qi_only, None, None)?.classes)
}

/// The report of a table split into parts holding disjoint classes: the profile and account of
/// the merged parts (`profile`: their tables, codes or not) and the identity metrics from the
/// merged class statistics. Says in a warning what this mode does not compute.
pub fn audit_disjoint(profile: &Table, classes: &DisjointClasses, config: &AuditConfig) -> Result<Report> {
    config.csv_options()?;
    let mut qi = Vec::new();
    for name in &config.quasi_identifiers {
        match profile.header.iter().position(|c| c == name) {
            Some(i) => qi.push(i),
            None => {
                return Err(
                    Error::config("unknown_column", format!("there is no column \"{name}\"; the columns are: {}", profile.header.join(", "))).in_column(name)
                );
            }
        }
    }
    // Spec README Sec 3: A is ordered by column position.
    qi.sort_unstable();
    let qi: Vec<String> = qi.into_iter().map(|i| profile.header[i].clone()).collect();
    let columns = profile.profiles(&config.normaliser());
    let mut warnings = table_warnings(&columns, &profile.facts);
    let mut metrics = if qi.is_empty() { Vec::new() } else { classes.metrics(&qi, &config.identity_params()) };
    if !qi.is_empty() && classes.all_blank && classes.records() > 0 {
        warnings.push(not_assessable(&mut metrics, &qi));
    }
    warnings.extend(crate::scope::warnings(&metrics, &crate::scope::blank_qis(&columns, config), config));
    warnings.push(Warning {
        code: "class_partitioned",
        message: "audited from per-partition class statistics (the class-partitioned mode): the class sizes, uniqueness, record risk, the prosecutor, journalist and marketer models without a population table, the population-uniqueness estimators, the estimated k-map and ARX's verdict are exact; the sensitive-attribute family, QI attribution (distinction, separation, contribution, singling out), SCORR's risks and verdicts, the weighted risks, the journalist model, k-map and delta-presence against a population table, the HIPAA checklist, SUDA, the attacks, utility and balance need the whole table and are not computed (docs/spark.md)".into(),
    });
    warnings.extend(metric_warnings(&metrics));
    Ok(Report {
        input: profile.facts.clone(),
        original_input: None,
        reference_input: None,
        columns,
        params: AuditConfig { quasi_identifiers: qi, ..config.clone() },
        metrics,
        warnings,
        read: ReadPath { mode: "class_partitioned", reason: "each partition held disjoint classes and sent their statistics".into() },
        per_record: None,
    })
}

/// The summaries of a retained table with the settings `config`, from row ranges read on all
/// cores; `not_retained` when a column a role needs was not kept.
fn summarise(table: &Table, config: &AuditConfig, original: Option<Arc<Captured>>, population: Option<Arc<ReferenceTable>>) -> Result<TableSummary> {
    config.csv_options()?;
    let mut summary = TableSummary::new(&table.header, config)?;
    summary.set_original(original, &table.header, config)?;
    summary.population = population;
    let mut needed: Vec<usize> = summary.qi_index.iter().chain(&summary.sensitive_index).copied().collect();
    needed.extend([summary.weight_index, summary.person_index, summary.record_index].into_iter().flatten());
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
    let rows = table.facts.rows_total as usize;
    // Row ranges summarised on all cores, merged in order.
    let parts = crate::par::threads().min(rows / BLOCK_ROWS + 1).max(rows.div_ceil(RANGE_ROWS)).max(1);
    let ranges: Vec<(usize, usize)> = (0..parts).map(|p| (rows * p / parts, rows * (p + 1) / parts)).collect();
    // The rows summarised, told to the progress hook of the caller's thread from every thread.
    let (hook, summarised) = (crate::progress::current(), std::sync::atomic::AtomicU64::new(0));
    let on_rows = |n: u64| {
        if let Some(hook) = &hook {
            let done = summarised.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
            hook(crate::progress::Step { phase: crate::progress::Phase::Rows, done, total: rows as u64 });
        }
    };
    let summaries = crate::par::map(ranges, |(from, to)| -> Result<TableSummary> {
        let mut part = TableSummary::new(&table.header, config)?;
        part.set_original(summary.original.clone(), &table.header, config)?;
        part.absorb_range(table, &needed, from, to, &on_rows)?;
        Ok(part)
    });
    let population = summary.population.take();
    let mut summary = crate::par::merge_smallest_first(summaries.into_iter().collect::<Result<Vec<_>>>()?, TableSummary::classes, TableSummary::merge)?
        .expect("one part at least");
    summary.population = population;
    Ok(summary)
}

/// The reader's sink of an audit: the table builder, and the summaries fed from its blocks.
struct AuditSink {
    config: AuditConfig,
    builder: TableBuilder,
    original: Option<Arc<Captured>>,
    control: Option<Arc<Captured>>,
    summary: Option<TableSummary>,
}

impl RecordSink for AuditSink {
    fn header(&mut self, names: &[String]) -> Result<()> {
        let mut summary = TableSummary::new(names, &self.config)?;
        summary.set_original(self.original.take(), names, &self.config)?;
        summary.control = self.control.take();
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

/// Where an audit's rows come from: CSV bytes, or rows of cells from a reader of another
/// format ([`Audit::reading_cells`]).
// One per audit, made once: the size of the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
enum Source {
    Csv(Reader),
    Cells(CellReader),
}

impl Source {
    fn facts(&self) -> &InputFacts {
        match self {
            Source::Csv(r) => r.facts(),
            Source::Cells(r) => r.facts(),
        }
    }

    fn finish(&mut self, sink: &mut AuditSink) -> Result<()> {
        match self {
            Source::Csv(r) => r.finish(sink),
            Source::Cells(r) => r.finish(),
        }
    }

    fn cells(&mut self) -> Result<&mut CellReader> {
        match self {
            Source::Cells(r) => Ok(r),
            Source::Csv(_) => Err(Error {
                kind: crate::error::ErrorKind::Internal,
                code: "not_cells",
                message: "this audit reads CSV bytes, not cells".into(),
                line: None,
                column: None,
            }),
        }
    }
}

/// A streaming audit of one file: CSV bytes pushed in chunks, or (see
/// [`Audit::reading_cells`]) a header and batches of cells from a reader of another format.
pub struct Audit {
    source: Source,
    sink: AuditSink,
    population: Option<Arc<ReferenceTable>>,
}

impl Audit {
    /// An audit with this configuration (checked here).
    pub fn new(config: AuditConfig) -> Result<Self> {
        let opts = config.csv_options()?;
        let builder = TableBuilder::new(config.normaliser(), needed_columns(&config), None);
        Ok(Audit {
            source: Source::Csv(Reader::new(opts)),
            sink: AuditSink { config, builder, original: None, control: None, summary: None },
            population: None,
        })
    }

    /// Absorbs the next chunk of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        match &mut self.source {
            Source::Csv(r) => r.push(chunk, &mut self.sink),
            Source::Cells(_) => Err(Error {
                kind: crate::error::ErrorKind::Internal,
                code: "not_csv",
                message: "this audit reads cells, not CSV bytes".into(),
                line: None,
                column: None,
            }),
        }
    }

    /// The same audit (or table reader) fed a table of cells in `format` instead of CSV
    /// bytes: [`Audit::push_header`] once, then [`Audit::push_cells`]; the CSV reading settings
    /// (delimiter, encoding, ragged rows) do not apply. Call before anything is pushed.
    pub fn reading_cells(mut self, format: Format) -> Self {
        self.source = Source::Cells(CellReader::new(format));
        self
    }

    /// [`Audit::reading_cells`] for a later part of a table (row groups read on their own,
    /// after the first part): its header is not counted again; parts merge in order
    /// ([`AuditPart::merge`]).
    pub fn reading_cells_part(mut self, format: Format) -> Self {
        self.source = Source::Cells(CellReader::later_part(format));
        self
    }

    /// The header of a table of cells, at `line` (0 when the names are not a row of the
    /// table, as in Parquet; see [`crate::ingest::cells`]).
    pub fn push_header(&mut self, names: Vec<String>, line: u64) -> Result<()> {
        self.source.cells()?.header(names, line, &mut self.sink)
    }

    /// The rows of a table of cells above its header: `titles` skipped as titles, `blanks`
    /// blank (call before [`Audit::push_header`]; [`crate::ingest::header`] says which row is
    /// the header).
    pub fn push_above_header(&mut self, titles: u64, blanks: u64) -> Result<()> {
        self.source.cells()?.above_header(titles, blanks);
        Ok(())
    }

    /// The header's row the settings name (`header_row`), if any.
    pub fn header_row(&self) -> Option<u64> {
        self.sink.config.header_row
    }

    /// A batch of rows of cells, each of the header's width.
    pub fn push_cells(&mut self, batch: &CellBatch) -> Result<()> {
        let Source::Cells(r) = &mut self.source else { return self.source.cells().map(|_| ()) };
        r.rows(batch, &mut self.sink)
    }

    /// The size and SHA-256 (lower-case hex) of the file a table of cells was read from.
    pub fn set_file(&mut self, bytes: u64, sha256: Option<String>) {
        if let Source::Cells(r) = &mut self.source {
            r.set_file(bytes, sha256);
        }
    }

    /// Names the sheet a table of cells was read from, in a workbook.
    pub fn set_sheet(&mut self, sheet: &str) {
        if let Source::Cells(r) = &mut self.source {
            r.set_sheet(sheet);
        }
    }

    /// The size of the whole file in bytes (of which this may read a part): a column too
    /// varied to keep is then given up early ([`TableBuilder::expect_file_bytes`]).
    pub fn expect_file_bytes(&mut self, bytes: u64) {
        self.sink.builder.expect_file_bytes(bytes);
    }

    /// Data rows read so far.
    pub fn rows(&self) -> u64 {
        self.source.facts().rows_total
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

    /// Gives the control table `C` of the attacks (peer-measures.md Sec 5.1: records of the
    /// population not used to build the release), read like the original; call before the
    /// first push.
    pub fn set_control(&mut self, control: impl Into<Arc<Captured>>) {
        self.sink.control = Some(control.into());
    }

    /// An audit of one part of a file whose start was probed ([`Reader::probe`]): the part
    /// reads the records starting in `span`; parts merge in file order ([`AuditPart::merge`]).
    pub fn part(config: AuditConfig, probe: &Probe, span: Span) -> Result<Self> {
        let opts = config.csv_options()?;
        let builder = TableBuilder::new(config.normaliser(), needed_columns(&config), None);
        Ok(Audit {
            source: Source::Csv(Reader::part(opts, probe, span)),
            sink: AuditSink { config, builder, original: None, control: None, summary: None },
            population: None,
        })
    }

    /// A reader that keeps the table (a code per row, within `config.memory_budget`) instead
    /// of summarising it for one audit: [`audit_table`] then audits it with any settings. The
    /// columns `config`'s roles need keep every value; the reading settings are `config`'s.
    pub fn table_reader(config: &AuditConfig) -> Result<Self> {
        let reading = AuditConfig {
            delimiter: config.delimiter.clone(),
            encoding: config.encoding,
            ragged: config.ragged,
            header_row: config.header_row,
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
        audit.source = Source::Csv(Reader::part(audit.sink.config.csv_options()?, probe, span));
        Ok(audit)
    }

    /// Ends a part earlier, at byte `end` of the file, for another thread to read from there
    /// on (see [`Reader::end_at`]); `false` when it cannot end there any more.
    pub fn end_at(&mut self, end: u64) -> bool {
        match &mut self.source {
            Source::Csv(r) => r.end_at(end),
            Source::Cells(_) => false,
        }
    }

    /// Whether a part has read its last record: push no more.
    pub fn done(&self) -> bool {
        matches!(&self.source, Source::Csv(r) if r.done())
    }

    /// Ends the input; returns the table read and its summaries, for merging with the
    /// other parts of the same file.
    pub fn finish_part(mut self) -> Result<AuditPart> {
        self.source.finish(&mut self.sink)?;
        let mut summary = self.sink.summary.expect("finish succeeds only after a header");
        summary.population = self.population;
        let table = self.sink.builder.finish(self.source.facts().clone());
        let bounds = match &self.source {
            Source::Csv(r) => r.bounds(),
            Source::Cells(_) => None,
        };
        Ok(AuditPart { table, summary, config: self.sink.config, bounds })
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

/// The table a part read and where it lay in its file (its stored form, `Part::to_bytes`),
/// without the summaries of the audit that read it.
impl From<AuditPart> for crate::table::Part {
    fn from(part: AuditPart) -> Self {
        crate::table::Part { table: part.table, bounds: part.bounds }
    }
}

impl AuditPart {
    /// Classes of the part (what merging it into another costs).
    pub fn classes(&self) -> usize {
        self.summary.classes()
    }

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

    /// Gives the control table `C` (see [`Audit::set_control`]).
    pub fn set_control(&mut self, control: impl Into<Arc<Captured>>) {
        self.summary.control = Some(control.into());
    }

    /// The SHA-256 of the whole file, computed beside a parallel read.
    pub fn set_sha256(&mut self, hex: String) {
        self.table.facts.sha256 = Some(hex);
    }

    /// The report.
    pub fn finish(self) -> Report {
        let profiles = self.table.profiles(&self.config.normaliser());
        let hipaa = hipaa_metric(&self.table, &profiles, &self.config);
        let mut report = self.summary.finish(profiles, self.table.facts, &self.config);
        report.metrics.extend(hipaa);
        report
    }
}
