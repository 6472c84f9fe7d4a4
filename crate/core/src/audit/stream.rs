//! The streaming audit of one file ([`Audit`]): CSV bytes pushed in chunks cut anywhere, or
//! rows of cells from a reader of another format, read into a table whose blocks feed the
//! summary; a file read in parts gives [`AuditPart`]s merged in file order.

use std::sync::Arc;

use super::families::hipaa_metric;
use super::summary::TableSummary;
use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::ingest::cells::{CellBatch, CellReader, Format};
use crate::ingest::reader::{InputFacts, PartBounds, Probe, Reader, RecordSink, Rows, Span};
use crate::report::Report;
use crate::table::reference::ReferenceTable;
use crate::table::{Table, TableBuilder, merge_bounds};
use crate::utility::capture::Captured;

/// The columns a configuration needs value by value (its roles): they keep every value.
pub fn needed_columns(config: &AuditConfig) -> Vec<String> {
    let mut v: Vec<String> = config.quasi_identifiers.iter().chain(&config.sensitive).cloned().collect();
    v.extend([&config.weight, &config.person_id, &config.record_id].into_iter().flatten().cloned());
    v
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
    /// of summarising it for one audit: [`audit_table`](super::audit_table) then audits it with any settings. The
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
