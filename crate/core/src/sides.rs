//! The tables read beside the released one, with the audit's settings: the original `O`
//! (utility metrics, spec README Sec 2-3), the reference `E` (journalist and marketer
//! models, R_external) and the control table `C` of the attacks (peer-measures.md Sec 5.1,
//! read like `O`). Each is read like every table, into codes, one distinct value at a time,
//! and keeps its own detected delimiter and encoding (or the one forced); each must be CSV.
//! [`Sides`] holds them for the audits that use them, [`SideReader`] reads one.

use std::sync::Arc;

use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::ingest::encoding::Encoding;
use crate::ingest::format::Format;
use crate::ingest::reader::{Collect, CsvOptions, Feed, InputFacts, RecordSink, Rows};
use crate::table::TableBuilder;
use crate::table::reference::{Reference, ReferenceSink, ReferenceTable};
use crate::utility::capture::Captured;

/// Whether a column of `O` is a utility attribute (spec README Sec 3): not one of the
/// special columns, not ignored, and among `utility_columns` when those are given.
pub fn is_utility_attribute(config: &AuditConfig, name: &str) -> bool {
    let special = [&config.record_id, &config.person_id, &config.weight, &config.household_column].iter().any(|c| c.as_deref() == Some(name));
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

/// Which table beside the release a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideRole {
    /// The original `O`.
    Original,
    /// The reference (population) table `E`.
    Reference,
    /// The control table `C` of the attacks.
    Control,
}

impl SideRole {
    /// The name in messages: `original`, `reference`, `control`.
    pub fn label(self) -> &'static str {
        match self {
            SideRole::Original => "original",
            SideRole::Reference => "reference",
            SideRole::Control => "control",
        }
    }

    /// The role of a label ([`SideRole::label`], or `population`, the page's name of `E`).
    pub fn from_label(label: &str) -> Option<SideRole> {
        match label {
            "original" => Some(SideRole::Original),
            "reference" | "population" => Some(SideRole::Reference),
            "control" => Some(SideRole::Control),
            _ => None,
        }
    }

    /// Whether the file `name` of this `format` can be this side table: only CSV can
    /// (`side_table_not_csv` otherwise).
    pub fn check_format(self, name: &str, format: Format) -> Result<()> {
        let what = match format {
            Format::Csv => return Ok(()),
            Format::Parquet => "a Parquet file",
            Format::Xlsx => "an Excel workbook",
            Format::Arrow => "Arrow data",
        };
        Err(Error::input("side_table_not_csv", format!("{name}: the {} table is read as CSV only; this file is {what} (save it as CSV)", self.label())))
    }
}

/// A streaming read of one side table: [`SideReader::push`] its bytes, then
/// [`SideReader::finish`] into the [`Sides`].
pub struct SideReader {
    role: SideRole,
    feed: SideFeed,
}

/// The reader of a side table: `O` and `C` are captured alike, `E` is a reference (boxed:
/// both are large).
enum SideFeed {
    Captured(Box<Original>),
    Reference(Box<Reference>),
}

impl SideReader {
    /// Starts reading the side table `role` with the audit's settings; `encoding` forces one.
    pub fn new(role: SideRole, config: &AuditConfig, encoding: Option<Encoding>) -> SideReader {
        let feed = match role {
            SideRole::Original | SideRole::Control => SideFeed::Captured(Box::new(Original::new(config, encoding))),
            SideRole::Reference => SideFeed::Reference(Box::new(reference(config, encoding))),
        };
        SideReader { role, feed }
    }

    /// Absorbs the next chunk of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        match &mut self.feed {
            SideFeed::Captured(o) => o.push(chunk),
            SideFeed::Reference(e) => e.push(chunk),
        }
    }

    /// Ends the file and gives the table to `sides` in its role.
    pub fn finish(self, sides: &mut Sides) -> Result<()> {
        match (self.feed, self.role) {
            (SideFeed::Reference(e), _) => sides.reference = Some(Arc::new(e.finish()?)),
            (SideFeed::Captured(o), SideRole::Control) => sides.control = Some(Arc::new(o.finish()?)),
            (SideFeed::Captured(o), _) => sides.original = Some(Arc::new(o.finish()?)),
        }
        Ok(())
    }
}

/// The side tables of an audit, each read once and shared (not copied) by every audit that
/// uses it: several candidate releases, every re-audit of a kept table.
#[derive(Clone, Default)]
pub struct Sides {
    /// The original `O` (the utility metrics).
    pub original: Option<Arc<Captured>>,
    /// The reference (population) table `E`.
    pub reference: Option<Arc<ReferenceTable>>,
    /// The control table `C` of the attacks.
    pub control: Option<Arc<Captured>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_table_must_be_csv_and_the_message_names_file_role_and_format() {
        assert!(SideRole::Original.check_format("o.csv", Format::Csv).is_ok());
        let e = SideRole::from_label("population").unwrap().check_format("e.parquet", Format::Parquet).unwrap_err();
        assert_eq!(e.code, "side_table_not_csv");
        assert_eq!(e.message, "e.parquet: the reference table is read as CSV only; this file is a Parquet file (save it as CSV)");
        assert_eq!(SideRole::from_label("control"), Some(SideRole::Control));
        assert_eq!(SideRole::from_label("table"), None);
    }

    #[test]
    fn each_side_reader_fills_its_own_role() {
        let config = AuditConfig { quasi_identifiers: vec!["age".into()], ..AuditConfig::default() };
        let mut sides = Sides::default();
        for role in [SideRole::Control, SideRole::Reference] {
            let mut reader = SideReader::new(role, &config, None);
            reader.push(b"age,zip\n30,1000\n").unwrap();
            reader.finish(&mut sides).unwrap();
        }
        assert!(sides.original.is_none() && sides.control.is_some() && sides.reference.is_some());
    }
}
