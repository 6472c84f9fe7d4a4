//! A protected release audited (spec protect.md Sec 5): the settings its written file is read
//! and audited with, and the check that the audit gives the figures the search predicted for
//! its node. Shared by the CLI (`protect --out`) and the page (the release audited at once).

use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::ingest::reader::Ragged;
use crate::protect::{Figures, Protector};
use crate::report::Report;

/// The settings a release written from a table read with `config` is audited with: the same
/// roles, policy and thresholds; read as the release is written (UTF-8, `delimiter`, the
/// header on the first line, no ragged rows), without the per-record values; a date form kept
/// only for a QI left at level 0 (`levels`, in the order of `qis`), whose cells are written as
/// read: a generalized date is a label (`2020-Q1`), no longer a date in the column's form.
pub fn release_config(config: &AuditConfig, qis: &[String], levels: &[usize], delimiter: &str) -> AuditConfig {
    let mut release = AuditConfig {
        delimiter: Some(delimiter.to_string()),
        encoding: None,
        header_row: None,
        ragged: Ragged::default(),
        per_record: false,
        keep_records: false,
        ..config.clone()
    };
    for (q, _) in qis.iter().zip(levels).filter(|(_, l)| **l > 0) {
        if let Some(a) = release.attributes.get_mut(q) {
            a.date_form = None;
        }
    }
    release
}

/// Whether the audit `report` of the written release of the node `levels` gives the figures
/// `protector` predicted for it: its `k`, classes and average risk, and the records of its
/// kept classes in scope (`release_differs` otherwise). `Ok(false)`: not checked, at the top of
/// every ladder, where no record stays in scope (Sec 5).
pub fn check_release(protector: &Protector, levels: &[usize], report: &Report) -> Result<bool> {
    if levels.iter().zip(&protector.ladders).all(|(&l, ladder)| l + 1 == ladder.height()) {
        return Ok(false);
    }
    let predicted = protector.evaluate(levels)?;
    same(&predicted, protector.records() - predicted.records_suppressed, report).map(|()| true)
}

/// `release_differs` unless the audit `report` gives the `predicted` `k`, classes and average
/// risk, and `kept` records in scope.
fn same(predicted: &Figures, kept: u64, report: &Report) -> Result<()> {
    let identity = &report.figures.identity;
    let classes = report.metric("n_classes").and_then(|m| m.value.as_u64());
    let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * a.abs().max(1.0),
        (a, b) => a == b,
    };
    let same = close(predicted.k.map(|k| k as f64), identity.k_anonymity)
        && classes == Some(predicted.classes)
        && close(predicted.average_risk, identity.r_internal)
        && kept == identity.n_records;
    if same {
        return Ok(());
    }
    Err(Error::internal(
        "release_differs",
        format!(
            "the audit of the release differs from the prediction: k {:?} (predicted {:?}), classes {classes:?} (predicted {}), average risk {:?} (predicted {:?}), records {} (predicted {kept}): please report this",
            identity.k_anonymity, predicted.k, predicted.classes, identity.r_internal, predicted.average_risk, identity.n_records
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utility::attribute::AttributeSettings;

    #[test]
    fn the_release_is_read_as_written_with_the_roles_kept() {
        let mut config = AuditConfig {
            quasi_identifiers: vec!["admit".into(), "born".into()],
            delimiter: Some(";".into()),
            header_row: Some(3),
            per_record: true,
            threshold: 0.1,
            ..AuditConfig::default()
        };
        for c in ["admit", "born"] {
            config.attributes.insert(c.into(), AttributeSettings { date_form: Some(crate::ingest::cell::DateForm::DayDot), ..AttributeSettings::default() });
        }
        let r = release_config(&config, &config.quasi_identifiers.clone(), &[1, 0], ",");
        assert_eq!((r.delimiter.as_deref(), r.header_row, r.per_record, r.threshold), (Some(","), None, false, 0.1));
        assert_eq!(r.quasi_identifiers, config.quasi_identifiers);
        // The generalized date is a label now; the date left at level 0 keeps its form.
        assert_eq!(r.attributes["admit"].date_form, None);
        assert_eq!(r.attributes["born"].date_form, Some(crate::ingest::cell::DateForm::DayDot));
    }
}
