//! The streaming audit of one file ([`Audit`]): its table read by a [`TableReader`] (CSV
//! bytes pushed in chunks cut anywhere, or rows of cells from a reader of another format)
//! whose blocks of codes feed the audit's summary ([`AuditBlocks`]); a file read in parts
//! gives [`AuditPart`]s merged in file order.

use std::sync::Arc;

use super::families::hipaa_metric;
use super::summary::TableSummary;
use crate::config::AuditConfig;
use crate::error::Result;
use crate::ingest::cells::CellBatch;
use crate::ingest::format::Format;
use crate::ingest::reader::{PartBounds, Probe, Span};
use crate::report::Report;
use crate::sides::Sides;
use crate::table::read::{BlockSink, FilePart, ReadsTable, TableReader};
use crate::table::reference::ReferenceTable;
use crate::table::{Block, Table, merge_bounds};
use crate::utility::capture::Captured;

/// What the blocks of a streaming audit's table feed: its summary, made at the header with the
/// side tables given before.
pub struct AuditBlocks {
    config: AuditConfig,
    original: Option<Arc<Captured>>,
    control: Option<Arc<Captured>>,
    population: Option<Arc<ReferenceTable>>,
    summary: Option<TableSummary>,
}

impl BlockSink for AuditBlocks {
    fn header(&mut self, names: &[String]) -> Result<()> {
        let mut summary = TableSummary::new(names, &self.config)?;
        summary.set_original(self.original.take(), names, &self.config)?;
        summary.control = self.control.take();
        self.summary = Some(summary);
        Ok(())
    }

    fn block(&mut self, block: &Block<'_>) -> Result<()> {
        self.summary.as_mut().expect("header comes first").absorb(block)
    }
}

/// A streaming audit of one file: CSV bytes pushed in chunks, or (see
/// [`Audit::reading_cells`]) a header and batches of cells from a reader of another format.
/// The rest of the reading (a part's end, the file's size) is its reader's
/// ([`ReadsTable::reader`]).
pub struct Audit {
    reader: TableReader<AuditBlocks>,
}

impl Audit {
    /// An audit with this configuration (checked here).
    pub fn new(config: AuditConfig) -> Result<Self> {
        Ok(Audit::reading(TableReader::new(config.read_settings()?), config))
    }

    /// An audit of one part of a file whose start was probed
    /// ([`Reader::probe`](crate::ingest::reader::Reader::probe)): the part reads the records
    /// starting in `span`; parts merge in file order ([`AuditPart::merge`]).
    pub fn part(config: AuditConfig, probe: &Probe, span: Span) -> Result<Self> {
        Ok(Audit::reading(TableReader::part(config.read_settings()?, probe, span), config))
    }

    /// The audit of what `reader` reads.
    fn reading(reader: TableReader, config: AuditConfig) -> Self {
        let blocks = AuditBlocks { config, original: None, control: None, population: None, summary: None };
        Audit { reader: reader.feeding(blocks) }
    }

    /// Absorbs the next chunk of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.reader.push(chunk)
    }

    /// The same audit fed a table of cells in `format` instead of CSV bytes
    /// ([`TableReader::reading_cells`]). Call before anything is pushed.
    pub fn reading_cells(self, format: Format) -> Self {
        Audit { reader: self.reader.reading_cells(format) }
    }

    /// [`Audit::reading_cells`] for a later part of a table (row groups read on their own,
    /// after the first part): its header is not counted again; parts merge in order
    /// ([`AuditPart::merge`]).
    pub fn reading_cells_part(self, format: Format) -> Self {
        Audit { reader: self.reader.reading_cells_part(format) }
    }

    /// The header of a table of cells ([`TableReader::push_header`]).
    pub fn push_header(&mut self, names: Vec<String>, line: u64) -> Result<()> {
        self.reader.push_header(names, line)
    }

    /// A batch of rows of cells, each of the header's width.
    pub fn push_cells(&mut self, batch: &CellBatch) -> Result<()> {
        self.reader.push_cells(batch)
    }

    /// Data rows read so far.
    pub fn rows(&self) -> u64 {
        self.reader.rows()
    }

    /// Gives the side tables ([`Sides`]): the original, the control and the population
    /// table, those it holds; call before the first push.
    pub fn set_sides(&mut self, sides: &Sides) {
        if let Some(o) = &sides.original {
            self.set_original(o.clone());
        }
        if let Some(c) = &sides.control {
            self.set_control(c.clone());
        }
        if let Some(e) = &sides.reference {
            self.set_population(e.clone());
        }
    }

    /// Gives the population table `E` of the journalist and marketer models (Sec 6).
    pub fn set_population(&mut self, population: impl Into<Arc<ReferenceTable>>) {
        self.reader.blocks().population = Some(population.into());
    }

    /// Gives the original table `O` for the utility metrics (shared, not copied); call before
    /// the first push.
    pub fn set_original(&mut self, original: impl Into<Arc<Captured>>) {
        let original = original.into();
        // The columns compared with the original need every value.
        self.reader.need(original.names.iter().cloned());
        self.reader.blocks().original = Some(original);
    }

    /// Gives the control table `C` of the attacks (peer-measures.md Sec 5.1: records of the
    /// population not used to build the release), read like the original; call before the
    /// first push.
    pub fn set_control(&mut self, control: impl Into<Arc<Captured>>) {
        self.reader.blocks().control = Some(control.into());
    }

    /// Ends the input; returns the table read and its summaries, for merging with the
    /// other parts of the same file.
    pub fn finish_part(self) -> Result<AuditPart> {
        let (part, blocks) = self.reader.finish_feeding()?;
        let mut summary = blocks.summary.expect("finish succeeds only after a header");
        summary.population = blocks.population;
        Ok(AuditPart { table: part.table, summary, config: blocks.config, bounds: part.bounds })
    }

    /// Ends the input and returns the report.
    pub fn finish(self) -> Result<Report> {
        Ok(self.finish_part()?.finish())
    }
}

impl ReadsTable for Audit {
    type Blocks = AuditBlocks;
    type Part = AuditPart;

    fn reader(&mut self) -> &mut TableReader<AuditBlocks> {
        &mut self.reader
    }

    fn reading_cells(self, format: Format) -> Self {
        Audit::reading_cells(self, format)
    }

    fn reading_cells_part(self, format: Format) -> Self {
        Audit::reading_cells_part(self, format)
    }

    fn finish_part(self) -> Result<AuditPart> {
        Audit::finish_part(self)
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

    /// The report.
    pub fn finish(self) -> Report {
        let profiles = self.table.profiles(&self.config.normaliser());
        let hipaa = hipaa_metric(&self.table, &profiles, &self.config);
        let mut report = self.summary.finish(profiles, self.table.facts, &self.config);
        report.metrics.extend(hipaa);
        report
    }
}

impl FilePart for AuditPart {
    fn bounds(&self) -> Option<PartBounds> {
        self.bounds
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    /// Merging a part costs looking its classes up in the part before it.
    fn merge_cost(&self) -> usize {
        self.classes()
    }

    fn merge(&mut self, next: AuditPart) -> Result<()> {
        AuditPart::merge(self, next)
    }
}
