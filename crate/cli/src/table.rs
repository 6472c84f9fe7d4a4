//! The readable (non-JSON) output of `audit`.

use std::io::{self, Write};

use pseudolens_core::Report;

/// The file as read, then one line per column: kind, shape, distinct values, proposed role.
pub fn print_profile(report: &Report, out: &mut impl Write) -> io::Result<()> {
    read_lines(report, out)?;
    writeln!(out)?;
    for c in &report.columns {
        let distinct = if c.distinct_exact { c.distinct.to_string() } else { format!("about {}", c.distinct) };
        // How the column's values read, when not as plain ISO dates and decimal points.
        let reading = match (c.date_form, c.decimal_comma) {
            (Some(f), _) => format!("  {}", f.name()),
            (None, true) => "  decimal comma".to_string(),
            (None, false) => String::new(),
        };
        writeln!(
            out,
            "{:<24} {:<12} {:<32} {:>12} distinct  {:?}{reading}",
            c.name,
            format!("{:?}", c.kind).to_lowercase(),
            c.shape,
            distinct,
            c.proposed_role
        )?;
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
    if let Some(m) = report.metric("hipaa_safe_harbor") {
        hipaa(&m.details, out)?;
    }
    if let Some(suda) = report.metric("suda_score").filter(|m| m.value.is_object()) {
        suda_lines(&suda.details, out)?;
    }
    for w in &report.warnings {
        writeln!(out, "warning ({}): {}", w.code, w.message)?;
    }
    Ok(())
}

/// The HIPAA Safe Harbor checklist: one line per identifier kind, then its findings.
fn hipaa(details: &serde_json::Value, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "\nHIPAA Safe Harbor checklist (what the values show; not a statement of compliance):")?;
    for k in details["kinds"].as_array().into_iter().flatten() {
        let status = match k["status"].as_str() {
            Some("flagged") => "FLAGGED",
            Some("not_found") => "no finding",
            _ => "not checkable",
        };
        writeln!(out, "  ({}) {:<14} {}", k["paragraph"].as_str().unwrap_or(""), status, k["label"].as_str().unwrap_or(""))?;
        for f in k["findings"].as_array().into_iter().flatten() {
            let example = f["example_value"].as_str().map(|e| format!(", e.g. \"{e}\"")).unwrap_or_default();
            writeln!(out, "      column \"{}\": {}{example}", f["column"].as_str().unwrap_or(""), f["reason"].as_str().unwrap_or(""))?;
        }
        if let (Some(note), "not checkable") = (k["note"].as_str(), status) {
            writeln!(out, "      {note}")?;
        }
    }
    Ok(())
}

/// SUDA's drivers and highest-scoring records (the page's drill-down).
fn suda_lines(details: &serde_json::Value, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "\nSUDA: share of the minimal sample uniques holding each variable:")?;
    for v in details["variable_contributions"].as_array().into_iter().flatten() {
        writeln!(out, "  {:<24} {:>6.1} %  ({} MSUs)", v["column"].as_str().unwrap_or(""), 100.0 * v["share"].as_f64().unwrap_or(0.0), v["msus"])?;
    }
    let top = details["top"].as_array().map_or(&[][..], Vec::as_slice);
    if !top.is_empty() {
        writeln!(out, "SUDA: highest-scoring records (row, score, minimal sample uniques):")?;
    }
    for t in top.iter().take(10) {
        let sets: Vec<String> = t["msus"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                let names: Vec<&str> = s.as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect();
                format!("{{{}}}", names.join(","))
            })
            .collect();
        writeln!(out, "  row {:<10} {:>8}  {}", t["row"], t["score"], sets.join(" "))?;
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
        "read {} bytes, {} records = {} header + {} rows + {} blank + {} in error",
        i.bytes, i.records, i.header_records, i.rows_total, i.blank_records, i.error_records
    )?;
    if let Some(scope) = &report.figures.identity.scope {
        writeln!(out, "audited: {}", scope.account())?;
    }
    writeln!(out, "read path: {} ({})", report.read.mode, report.read.reason)
}
