//! The class-partitioned audit (docs/spark.md): a table split into parts holding disjoint
//! classes, audited from the merged class statistics of its parts.

use super::kept::summarise;
use super::warnings::{not_assessable, table_warnings};
use crate::config::AuditConfig;
use crate::error::Result;
use crate::figures::Figures;
use crate::identity::disjoint::DisjointClasses;
use crate::report::{ReadPath, Report, Warning, metric_warnings};
use crate::table::Table;

/// The class statistics of a retained table whose classes no other part holds (a partition of
/// a table split by a hash of its QI values, [`crate::identity::disjoint::ClassHasher`]): the class-partitioned mode of
/// docs/spark.md. Only the QIs' codes are read (the other roles of `config` are ignored);
/// `class_partitioned_wildcard` under the wildcard policy.
pub fn class_statistics(table: &Table, config: &AuditConfig) -> Result<DisjointClasses> {
    let qi_only = AuditConfig { sensitive: Vec::new(), weight: None, person_id: None, ..config.clone() };
    DisjointClasses::of(&summarise(table, &qi_only, None, None)?.classes)
}

/// The report of a table split into parts holding disjoint classes: the profile and account of
/// the merged parts (`profile`: their tables, codes or not) and the identity metrics from the
/// merged class statistics. Says in a warning what this mode does not compute.
pub fn audit_disjoint(profile: &Table, classes: &DisjointClasses, config: &AuditConfig) -> Result<Report> {
    config.csv_options()?;
    let mut qi = Vec::new();
    for name in &config.quasi_identifiers {
        qi.push(crate::table::header::find(&profile.header, name)?);
    }
    // Spec README Sec 3: A is ordered by column position.
    qi.sort_unstable();
    let qi: Vec<String> = qi.into_iter().map(|i| profile.header[i].clone()).collect();
    let columns = profile.profiles(&config.normaliser());
    let mut warnings = table_warnings(&columns, &profile.facts);
    let (mut metrics, identity) = if qi.is_empty() { Default::default() } else { classes.metrics(&qi, &config.identity_params()) };
    if !qi.is_empty() && classes.all_blank && classes.records() > 0 {
        warnings.push(not_assessable(&mut metrics, &qi));
    }
    warnings.extend(crate::scope::warnings(identity.scope.as_ref(), &crate::scope::blank_qis(&columns, config), config));
    warnings.push(Warning {
        code: "class_partitioned",
        message: "audited from per-partition class statistics (the class-partitioned mode): the class sizes, uniqueness, record risk, the prosecutor, journalist and marketer models without a population table, the population-uniqueness estimators, the estimated k-map and ARX's verdict are exact; the sensitive-attribute family, QI attribution (distinction, separation, contribution, singling out), SCORR's risks and verdicts, the weighted risks, the household risk, the journalist model, k-map and delta-presence against a population table, the HIPAA checklist, SUDA, the attacks, utility and balance need the whole table and are not computed (docs/spark.md)".into(),
    });
    warnings.extend(metric_warnings(&metrics));
    Ok(Report {
        input: profile.facts.clone(),
        original_input: None,
        reference_input: None,
        columns,
        params: AuditConfig { quasi_identifiers: qi, ..config.clone() },
        metrics,
        warnings,
        read: ReadPath { mode: "class_partitioned", reason: "each partition held disjoint classes and sent their statistics".into() },
        per_record: None,
        figures: Figures { identity, ..Figures::default() },
    })
}
