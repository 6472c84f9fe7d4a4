//! The tables read beside the released one, with the audit's settings: the original `O`
//! (utility metrics, spec README Sec 2-3) and the reference `E` (journalist and marketer
//! models, R_external). Both are read like every table, into codes, one distinct value at a
//! time; each keeps its own detected delimiter and encoding (or the one forced).

use crate::config::AuditConfig;
use crate::error::Result;
use crate::ingest::cell::Normaliser;
use crate::ingest::encoding::Encoding;
use crate::ingest::reader::{Collect, CsvOptions, Feed, InputFacts, RecordSink, Rows};
use crate::table::TableBuilder;
use crate::table::reference::{Reference, ReferenceSink};
use crate::utility::capture::Captured;

/// Whether a column of `O` is a utility attribute (spec README Sec 3): not one of the
/// special columns, not ignored, and among `utility_columns` when those are given.
pub fn is_utility_attribute(config: &AuditConfig, name: &str) -> bool {
    let special = [&config.record_id, &config.person_id, &config.weight].iter().any(|c| c.as_deref() == Some(name));
    !special && !config.ignored.iter().any(|c| c == name) && (config.utility_columns.is_empty() || config.utility_columns.iter().any(|c| c == name))
}

/// Reading options of a side table: the audit's, with its own dialect and header detected.
fn side_options(config: &AuditConfig, encoding: Option<Encoding>) -> CsvOptions {
    CsvOptions { delimiter: None, encoding, ragged: config.ragged, header_row: None }
}

/// Captures the columns of `O` from blocks of codes.
pub struct OriginalSink {
    config: AuditConfig,
    norm: Normaliser,
    builder: TableBuilder,
    captured: Option<Captured>,
}

impl RecordSink for OriginalSink {
    fn header(&mut self, names: &[String]) -> Result<()> {
        let config = &self.config;
        let captured = Captured::new(names, |n| is_utility_attribute(config, n), config.record_id.as_deref())?.weighted(names, config.weight.as_deref());
        self.builder.need(captured.positions().map(|i| names[i].clone()));
        self.builder.header(names);
        self.captured = Some(captured);
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        self.builder.absorb(rows)?;
        self.captured.as_mut().expect("header comes first").absorb_block(&self.builder.block(), &self.norm);
        Ok(())
    }
}

impl Collect for OriginalSink {
    type Output = Captured;

    fn collect(mut self, facts: &InputFacts) -> Result<Captured> {
        let mut captured = self.captured.take().expect("a finished file has a header");
        captured.input = facts.clone();
        Ok(captured)
    }
}

/// A streaming read of the original table `O`.
pub type Original = Feed<OriginalSink>;

impl Original {
    /// Starts reading `O` with the audit's settings (`record_id`, `utility_columns`...);
    /// `encoding` forces one.
    pub fn new(config: &AuditConfig, encoding: Option<Encoding>) -> Self {
        let norm = config.normaliser();
        let sink = OriginalSink { config: config.clone(), builder: TableBuilder::new(norm.clone(), Vec::new(), None), norm, captured: None };
        Feed::with_sink(side_options(config, encoding), sink)
    }
}

/// Starts reading the reference table `E` for an audit with this configuration (its QIs,
/// `reference_columns`, missing tokens and policy); `encoding` forces one.
pub fn reference(config: &AuditConfig, encoding: Option<Encoding>) -> Reference {
    let sink = ReferenceSink::new(config.quasi_identifiers.clone(), config.reference_columns.clone(), config.missing_policy, config.normaliser())
        .with_subset_column(config.research_subset_column.clone());
    Feed::with_sink(side_options(config, encoding), sink)
}
