//! The audit of a table kept in memory ([`Table::is_retained`]): the table summarised with the
//! settings of each audit, row ranges on all cores, their classes found by sorting; no file
//! is read again.

use std::sync::Arc;

use super::families::{Deferred, Deferring, hipaa_metric};
use super::summary::TableSummary;
use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::ingest::reader::InputFacts;
use crate::metric::MetricResult;
use crate::report::{ReadPath, Report};
use crate::sides::Sides;
use crate::table::profile::ColumnProfile;
use crate::table::reference::ReferenceTable;
use crate::table::{Block, Table};
use crate::utility::capture::Captured;

/// Rows a block of a retained table holds.
const BLOCK_ROWS: usize = 1 << 16;

/// Rows a range of a retained table summarised at once holds at most: its classes are found by
/// sorting its rows' keys ([`TableSummary::classes_by_sorting`]), [`SORT_BYTES_PER_ROW`] a row
/// while it runs.
const RANGE_ROWS: usize = 1 << 21;

/// Bytes a row of a range takes while its classes are sorted: its word, the radix sort's
/// scratch word and its class ([`ClassTable::absorb_batch`](crate::table::classes::ClassTable::absorb_batch)(crate::table::classes::ClassTable::absorb_batch)).
const SORT_BYTES_PER_ROW: usize = 20;

/// The memory the class sort of an audit of a retained table of `rows` rows holds at most on
/// one thread (one range at a time). The page's audit worker takes and touches it before its
/// first audit (the wasm binding's `KeptTable::prepare_audit`).
pub fn sorting_bytes(rows: u64) -> usize {
    usize::try_from(rows).unwrap_or(usize::MAX).min(RANGE_ROWS) * SORT_BYTES_PER_ROW
}

/// Audits a retained table ([`Table::is_retained`]) without reading its file again: the same
/// report as a streaming audit with the same settings. `not_retained` when a column a role
/// of `config` needs was not kept (the caller reads the file again, streaming). `sides`: the
/// side tables it is audited against (none: `Sides::default()`).
pub fn audit_table(table: &Table, config: &AuditConfig, sides: &Sides) -> Result<Report> {
    Ok(Summarised::of(table, config, sides)?.finish(config, Deferring::default()).0)
}

/// A retained table summarised with the settings of an audit: all its report needs, so the
/// table itself is no longer read.
pub(super) struct Summarised {
    pub(super) summary: TableSummary,
    profiles: Vec<ColumnProfile>,
    facts: InputFacts,
    hipaa: Option<MetricResult>,
}

impl Summarised {
    pub(super) fn of(table: &Table, config: &AuditConfig, sides: &Sides) -> Result<Summarised> {
        let mut summary = summarise(table, config, sides.original.clone(), sides.reference.clone())?;
        summary.control = sides.control.clone();
        let profiles = table.profiles(&config.normaliser());
        let hipaa = hipaa_metric(table, &profiles, config);
        Ok(Summarised { summary, profiles, facts: table.facts.clone(), hipaa })
    }

    pub(super) fn finish(self, config: &AuditConfig, deferring: Deferring) -> (Report, Deferred) {
        let (mut report, deferred) = self.summary.finish_deferring(self.profiles, self.facts, config, deferring);
        report.metrics.extend(self.hipaa);
        report.read = ReadPath { mode: "retained", reason: "the table was read once and kept in memory".into() };
        (report, deferred)
    }
}

/// The summaries of a retained table with the settings `config`, from row ranges read on all
/// cores; `not_retained` when a column a role needs was not kept.
pub(super) fn summarise(table: &Table, config: &AuditConfig, original: Option<Arc<Captured>>, population: Option<Arc<ReferenceTable>>) -> Result<TableSummary> {
    config.csv_options()?;
    let mut summary = TableSummary::new(&table.header, config)?;
    summary.set_original(original, &table.header, config)?;
    summary.population = population;
    let mut needed: Vec<usize> = summary.qi_index.iter().chain(&summary.sensitive_index).copied().collect();
    needed.extend([summary.weight_index, summary.person_index, summary.record_index, summary.household_index].into_iter().flatten());
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

impl TableSummary {
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
    /// ([`ClassTable::absorb_batch`](crate::table::classes::ClassTable::absorb_batch)), each QI's codes mapped column by column (a column's
    /// values are coded in the order its rows give them, as row by row). `None` when the class
    /// table cannot ([`ClassTable::batch`](crate::table::classes::ClassTable::batch)), or with a weight or person id (whose errors name
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
}
