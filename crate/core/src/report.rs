//! The report of an audit (spec README Sec 10) and the warnings of how its file was read.

use serde::Serialize;

use crate::config::AuditConfig;
use crate::ingest::reader::InputFacts;
use crate::ingest::tokenizer::{Broken, MAX_FIELD_BYTES};
use crate::metric::MetricResult;
use crate::table::profile::ColumnProfile;

/// A warning for the person reading the report.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    /// Machine code.
    pub code: &'static str,
    /// One sentence.
    pub message: String,
}

/// Parameters echoed in the report: every setting of the audit, with the quasi-identifiers in
/// column order (spec README Sec 3) as the metrics used them.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportParams {
    /// The settings.
    #[serde(flatten)]
    pub config: AuditConfig,
}

/// The result of an audit.
#[cfg_attr(test, derive(ts_rs::TS))]
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
