//! The report of an audit (spec README Sec 10) and the warnings of how its file was read.

use serde::Serialize;

use crate::balance::Candidate;
use crate::config::AuditConfig;
use crate::figures::Figures;
use crate::ingest::format::Format;
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

impl Warning {
    /// `file`, detected as UTF-8, was not (`cause`) and was read again as Windows-1252 (spec
    /// README Sec 6): the warning every front end gives.
    pub fn encoding_fallback(file: impl std::fmt::Display, cause: &impl std::fmt::Display) -> Warning {
        Warning { code: "encoding_fallback", message: format!("{file} is not valid UTF-8 ({cause}); it was read again as Windows-1252") }
    }
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
    /// Every setting of the audit, with the quasi-identifiers in column order (spec README
    /// Sec 3) as the metrics used them.
    pub params: AuditConfig,
    /// Metric results (spec README Sec 10), empty without quasi-identifiers.
    pub metrics: Vec<MetricResult>,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// How the rows reached the metrics: from a table kept in memory, or streamed.
    pub read: ReadPath,
    /// Each record's values (class size, record risk, SUDA's scores), when the settings asked
    /// to keep them ([`AuditConfig::records_kept`]); record-level, never in the JSON.
    #[cfg_attr(test, ts(skip))]
    #[serde(skip)]
    pub per_record: Option<std::sync::Arc<crate::identity::per_record::PerRecord>>,
    /// The figures the metric families handed each other ([`Figures`]), typed; never in the
    /// JSON (the metrics report them).
    #[cfg_attr(test, ts(skip))]
    #[serde(skip)]
    pub figures: Figures,
}

/// How the rows of an audit reached the metrics (issue 11).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadPath {
    /// `retained` (a table read once and kept: another audit reads nothing again),
    /// `streaming` (the file read for this audit) or `class_partitioned` (statistics of parts
    /// holding disjoint classes, docs/spark.md).
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

    /// The candidate this release stands for in a comparison (`name`): its `risk_r` and
    /// `utility_u` (from [`Report::figures`]), or the id of the one that has no value (no
    /// original, rows that cannot be paired...).
    pub fn candidate(&self, name: &str) -> std::result::Result<Candidate, &'static str> {
        Ok(Candidate { name: name.to_string(), risk_r: self.figures.risk_r.ok_or("risk_r")?, utility_u: self.figures.utility_u.ok_or("utility_u")? })
    }
}

/// A metric's warning code in words.
fn metric_warning_text(code: &str) -> Option<&'static str> {
    Some(match code {
        "no_population_table" => "no population table was given, so the journalist figures equal the prosecutor's",
        "population_smaller_than_sample" => "the population is smaller than the file",
        "person_in_several_classes" => "some persons have rows in more than one class",
        "saturates_when_similar" => "the correlation-based linkage risk approaches 1 whenever the two tables are similar",
        "risk_without_external" => "without a reference table the overall risk R is the risk inside the file (R_internal) alone",
        "sa_generalized_treated_as_categorical" => {
            "a numeric sensitive column holds ranges or masked values, so its values were compared as text (equal distance)"
        }
        "original_lacks_sensitive" => "t_reference is original, but the original table has no such column, so Q is the release's",
        "midpoint_used" => "ranges were read as their midpoints",
        "columns_excluded" => "columns that do not vary, or have fewer than 2 values, were left out",
        "attributes_excluded" => "columns that are not numeric in both tables were left out",
        "not_comparable" => "a recoded column could not be mapped to its original values",
        "forward_map_partial" => "some original values could not be mapped to one released value, so they keep their own label",
        "gr_unknown" => "a recoded value could not be traced to the original values it stands for",
        "empty_interval" => "a released range covers no value",
        "invalid_cells_skipped" => "cells that are not valid numbers were skipped",
        "original_not_exact" => "some original values are not plain numbers and were skipped",
        "lmax_undefined" => "the scale of the proximity loss could not be set",
        "value_not_in_hierarchy" => "some values are not in the column's generalization hierarchy and were skipped",
        "invalid_weight" => "an attribute weight is not a number of at least 0",
        "attribute_excluded_from_totals" => "a column with no usable loss or similarity measure was left out of the totals",
        "row_order_follows_original" => "the released rows still follow the original's order, so a record's position may identify it",
        "rank_deficient" => "some columns are constant or repeat others, so some of their correlations count as 0",
        _ => return None,
    })
}

/// The warnings of the metrics, one per code in the order they first occur, each naming the
/// metrics it concerns: the report lists every warning the metrics carry, so a reader of the
/// JSON sees what the page shows.
pub fn metric_warnings(metrics: &[MetricResult]) -> Vec<Warning> {
    let mut by_code: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for m in metrics {
        for &code in &m.warnings {
            let at = match by_code.iter().position(|(c, _)| *c == code) {
                Some(at) => at,
                None => {
                    by_code.push((code, Vec::new()));
                    by_code.len() - 1
                }
            };
            let ids = &mut by_code[at].1;
            if !ids.contains(&m.id) {
                ids.push(m.id);
            }
        }
    }
    by_code
        .into_iter()
        .map(|(code, ids)| {
            let text = metric_warning_text(code).map_or_else(|| code.replace('_', " "), str::to_string);
            Warning { code, message: format!("{text} ({})", ids.join(", ")) }
        })
        .collect()
}

/// The warnings of how a file was read: renamed columns, ragged, blank and skipped records.
pub fn reading_warnings(facts: &InputFacts) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for name in &facts.renamed_columns {
        warnings.push(Warning { code: "empty_column_name", message: format!("a column without a name was called \"{name}\"") });
    }
    if facts.title_records > 0 {
        let (titles, line) = (facts.title_records, facts.header_line);
        let what = if facts.format == Format::Xlsx { "row" } else { "line" };
        let above = if titles == 1 { format!("the {what} above it was") } else { format!("the {titles} {what}s above it were") };
        warnings.push(Warning {
            code: "header_row",
            message: format!("the header was read from {what} {line}; {above} skipped as titles (name the header's row to read another)"),
        });
    }
    if let Some(&(line, fields)) = facts.ragged_lines.first() {
        let listed = facts.ragged_lines.iter().map(|(l, f)| format!("line {l} with {f} fields")).collect::<Vec<_>>();
        let more = facts.ragged_rows.saturating_sub(listed.len() as u64);
        warnings.push(Warning {
            code: "ragged_rows",
            message: if facts.ragged_rows == 1 {
                format!("1 row had a different number of fields than the header and was padded or cut (at line {line}, with {fields} fields)")
            } else {
                let and_more = if more == 0 { String::new() } else { format!(", and {more} more") };
                format!("{} rows had a different number of fields than the header and were padded or cut: {}{and_more}", facts.ragged_rows, listed.join(", "))
            },
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
                format!("{records} with a quote that is never closed skipped: the first opened at {at}; reading went on at line {}", b.line + 1),
            ),
            Broken::FieldTooLarge | Broken::TooManyColumns => {
                ("field_too_large", format!("{records} with a field longer than {} MiB skipped: the first at {at}", MAX_FIELD_BYTES >> 20))
            }
        };
        warnings.push(Warning { code, message });
    }
    if facts.error_records > 0 {
        warnings.push(Warning {
            code: "partial_read",
            message: format!(
                "this report is partial: {} of the file's {} records could not be read and {} left out",
                facts.error_records,
                facts.records,
                if facts.error_records == 1 { "was" } else { "were" }
            ),
        });
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::{Context, Scope};

    #[test]
    fn titles_are_said_only_when_title_rows_were_skipped() {
        let header_row = |header_records, title_records, header_line| {
            let facts = InputFacts { header_records, title_records, header_line, ..InputFacts::default() };
            reading_warnings(&facts).into_iter().find(|w| w.code == "header_row").map(|w| w.message)
        };
        assert_eq!(header_row(1, 0, 1), None);
        // Three files merged, one header each on line 1 (the Python package's parts, Spark).
        assert_eq!(header_row(3, 0, 1), None);
        let two = header_row(3, 2, 3).expect("two titles above line 3");
        assert!(two.contains("line 3") && two.contains("the 2 lines above it were"), "{two}");
    }

    #[test]
    fn metric_warnings_one_per_code_naming_their_metrics() {
        let ctx = Context {
            family: "test",
            scope: Scope { table: "P", quasi_identifiers: vec![], sensitive: None, attribute: None, subset: None },
            params: serde_json::Value::Null,
        };
        let metrics = [
            ctx.ok("journalist_highest_risk", 1.0).with_warning("no_population_table"),
            ctx.ok("il1s", 0.5).with_warning("midpoint_used").with_warning("unheard_of"),
            ctx.ok("journalist_success_rate", 0.2).with_warning("no_population_table"),
            ctx.ok("il1s", 0.4).with_warning("midpoint_used"),
            ctx.ok("k_anonymity", 2),
        ];
        let w = metric_warnings(&metrics);
        let codes: Vec<_> = w.iter().map(|w| w.code).collect();
        assert_eq!(codes, ["no_population_table", "midpoint_used", "unheard_of"]);
        assert!(w[0].message.ends_with("(journalist_highest_risk, journalist_success_rate)"), "{}", w[0].message);
        assert_eq!(w[1].message, "ranges were read as their midpoints (il1s)");
        assert_eq!(w[2].message, "unheard of (il1s)");
    }
}
