//! The readable (non-JSON) output of `audit`.

use std::io::{self, Write};

use pseudolens_core::Report;

/// The file as read, then one line per column: kind, shape, distinct values, proposed role.
pub fn print_profile(report: &Report, out: &mut impl Write) -> io::Result<()> {
    read_lines(report, out)?;
    writeln!(out)?;
    for c in &report.columns {
        let distinct = if c.distinct_exact { c.distinct.to_string() } else { format!("about {}", c.distinct) };
        writeln!(out, "{:<24} {:<12} {:<32} {:>12} distinct  {:?}", c.name, format!("{:?}", c.kind).to_lowercase(), c.shape, distinct, c.proposed_role)?;
    }
    for w in &report.warnings {
        writeln!(out, "warning ({}): {}", w.code, w.message)?;
    }
    Ok(())
}

/// One line per metric, its column in brackets, the advice's sentences, then the warnings.
pub fn print(report: &Report, out: &mut impl Write) -> io::Result<()> {
    read_lines(report, out)?;
    writeln!(out, "quasi-identifiers: {}", report.params.quasi_identifiers.join(", "))?;
    writeln!(out)?;
    for m in &report.metrics {
        let value = match &m.value {
            serde_json::Value::Array(a) if a.len() > 6 => format!("[{} entries]", a.len()),
            serde_json::Value::Null => format!("null ({})", m.reason.unwrap_or("")),
            v => v.to_string(),
        };
        let label = match m.scope.attribute.as_ref().or(m.scope.sensitive.as_ref()) {
            Some(column) => format!("{} [{column}]", m.id),
            None => m.id.to_string(),
        };
        writeln!(out, "{label:<46} {value}{}", interval(&m.details["ci"]))?;
    }
    if let Some(advice) = report.metric("advice").and_then(|m| m.value.as_array()) {
        writeln!(out, "\nwhat would lower the risk (best first):")?;
        for (i, e) in advice.iter().enumerate() {
            writeln!(out, "{:>3}. {}", i + 1, e["sentence"].as_str().unwrap_or(""))?;
        }
    }
    for w in &report.warnings {
        writeln!(out, "warning ({}): {}", w.code, w.message)?;
    }
    Ok(())
}

/// The confidence interval of `details.ci` beside the value (issue 15): `  95% CI [low, high]`,
/// or nothing when the metric has none (or too few bootstrap replicates gave an estimate).
fn interval(ci: &serde_json::Value) -> String {
    match (ci["level"].as_f64(), ci["low"].as_f64(), ci["high"].as_f64()) {
        (Some(level), Some(low), Some(high)) => format!("  {}% CI [{low:.6}, {high:.6}]", 100.0 * level),
        _ => String::new(),
    }
}

/// How the file was read: its size, its records, and how its rows reached the metrics.
fn read_lines(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let i = &report.input;
    match (i.format, &i.sheet) {
        (pseudolens_core::Format::Csv, _) => {
            writeln!(out, "{} rows, {} columns, {} bytes, CSV, encoding {}, delimiter {:?}", i.rows_total, i.columns, i.bytes, i.encoding, i.delimiter)?
        }
        (f, Some(sheet)) => writeln!(out, "{} rows, {} columns, {} bytes, {}, sheet \"{sheet}\"", i.rows_total, i.columns, i.bytes, f.label())?,
        (f, None) => writeln!(out, "{} rows, {} columns, {} bytes, {}", i.rows_total, i.columns, i.bytes, f.label())?,
    }
    writeln!(
        out,
        "read {} bytes, {} records = {} header + {} audited + {} blank + {} in error",
        i.bytes, i.records, i.header_records, i.rows_total, i.blank_records, i.error_records
    )?;
    writeln!(out, "read path: {} ({})", report.read.mode, report.read.reason)
}
