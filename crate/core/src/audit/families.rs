//! The family runner: a [`TableSummary`] finished into the report, one step per group of
//! metric families (identity with SUDA, the advice, the sensitive attributes and the
//! verdicts, utility, the attacks and the synthetic measures, balance), each from the summary and the settings.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::summary::TableSummary;
use super::warnings::{not_assessable, qi_all_blank, table_warnings};
use crate::attribute::{self, AttributeInput, SensitiveSummary};
use crate::balance::BalanceInput;
use crate::config::AuditConfig;
use crate::figures::{Figures, IdentityFigures, SensitiveFigures};
use crate::identity::per_record::PerRecord;
use crate::identity::{self, IdentityInput, IdentityParams, PopulationTable};
use crate::ingest::reader::InputFacts;
use crate::metric::MetricResult;
use crate::report::{ReadPath, Report, Warning, metric_warnings};
use crate::table::Table;
use crate::table::classes::MissingPolicy;
use crate::table::profile::ColumnProfile;
use crate::utility::UtilityInput;
use crate::utility::attribute::AttributeSettings;
use crate::utility::capture::Captured;
/// `O`'s column of an SA: its values and rows per code (`t_reference = original`).
type Reference<'a> = (&'a crate::table::dictionary::Dictionary, Vec<u64>);

/// What [`TableSummary::finish_deferring`] leaves for
/// [`SplitAudit::complete`](super::SplitAudit::complete) to add.
pub(super) struct Deferred {
    /// The advice waiting for the lattice's statistics, and the position of its metric.
    pub(super) advice: Option<(usize, crate::advice::Pending)>,
    /// Where the attribution results go (before the identity family's last result, ARX's
    /// verdict), when attribution was deferred and the identity family ran.
    pub(super) attribution_at: Option<usize>,
}

/// What an audit in steps leaves out for [`SplitAudit`](super::SplitAudit) to add from pieces
/// computed elsewhere: attribution (from the lattice's statistics) and the population
/// estimators' intervals (from the bootstrap's replicates).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Deferring {
    pub(super) attribution: bool,
    pub(super) bootstrap: bool,
}

impl TableSummary {
    /// `t_reference = original`: each SA's column of `O` (when `O` has it) and its rows per value.
    fn references<'o>(&self, original: Option<&'o Captured>) -> Vec<Option<Reference<'o>>> {
        self.sensitive_index
            .iter()
            .map(|&i| {
                let column = original?.column(&self.columns[i])?;
                let mut counts = vec![0u64; column.values.len()];
                column.codes.iter().for_each(|&c| counts[c as usize] += 1);
                Some((&column.values, counts))
            })
            .collect()
    }

    /// Each SA with what the settings declare about it (order, hierarchy) and its reference.
    fn sa_inputs<'a>(
        &'a self,
        attributes: &'a BTreeMap<String, AttributeSettings>,
        references: &'a [Option<Reference<'_>>],
        wants_original: bool,
    ) -> Vec<attribute::SaInput<'a>> {
        self.sensitive_index
            .iter()
            .zip(&self.sensitive)
            .zip(references)
            .map(|((&i, summary), reference)| {
                let name = self.columns[i].as_str();
                let settings = attributes.get(name);
                let order = settings.filter(|s| s.kind == Some(crate::table::kind::Kind::Ordinal)).and_then(|s| s.order.as_deref());
                let reference = reference.as_ref().map(|(values, counts)| attribute::distribution::Reference { values, counts });
                attribute::SaInput {
                    name,
                    summary,
                    declared: attribute::distribution::Declared { order, reference },
                    hierarchy: settings.and_then(|s| s.hierarchy.as_deref()),
                    reference_missing: wants_original && reference.is_none(),
                }
            })
            .collect()
    }

    /// Finishes into the report, with the profiles of the columns and the facts of the file.
    pub fn finish(self, columns: Vec<ColumnProfile>, facts: InputFacts, config: &AuditConfig) -> Report {
        self.finish_deferring(columns, facts, config, Deferring::default()).0
    }

    /// [`TableSummary::finish`]; with `deferring.attribution`, without the attribution results
    /// and with the advice pending (its "drop a QI" figures come from the attribution
    /// lattice's statistics), with the position of its metric; with `deferring.bootstrap`,
    /// the population estimators without their intervals: the caller adds them
    /// ([`SplitAudit`](super::SplitAudit)). The families run in this order, a progress step each: identity
    /// (with SUDA and the per-record values), the advice, the sensitive attributes and the
    /// verdicts, utility, the attacks, balance.
    pub(super) fn finish_deferring(mut self, columns: Vec<ColumnProfile>, facts: InputFacts, config: &AuditConfig, deferring: Deferring) -> (Report, Deferred) {
        self.facts = facts;
        self.seal();
        let mut warnings = table_warnings(&columns, &self.facts);
        let mut steps = crate::progress::Measures::start();
        let qi: Vec<String> = self.qi_index.iter().map(|&i| self.columns[i].clone()).collect();
        let identity = config.identity_params();
        let (mut metrics, per_record, record_level, identity_figures, identity_len) = self.identity_metrics(&qi, &identity, config, deferring);
        // The identity family of a table with records ends with ARX's verdict: attribution goes before it.
        let attribution_at = identity_len.checked_sub(1).filter(|_| deferring.attribution);
        let mut figures = Figures { identity: identity_figures, ..Figures::default() };
        if record_level {
            warnings.push(Warning {
                code: crate::shareable::RECORD_LEVEL,
                message: "this report holds a value per record (details.per_record, and the household ids of details.per_household, asked for by the setting per_record): share its shareable variant, which leaves them out".into(),
            });
        }
        steps.next();
        let advice = self.advice_metric(&mut metrics, &qi, &columns, &identity, config, deferring.attribution);
        steps.next();
        if !qi.is_empty() {
            figures.sensitive = self.attribute_metrics(&mut metrics, &qi, figures.identity.k_anonymity, config);
            metrics.extend(self.verdicts(&figures, &qi, config));
            if qi_all_blank(&self.classes) {
                warnings.push(not_assessable(&mut metrics, &qi));
            }
        }
        steps.next();
        if let Some((utility, utility_u)) = self.utility_metrics(&qi, config) {
            metrics.extend(utility);
            figures.utility_u = utility_u;
        }
        steps.next();
        metrics.extend(self.attack_metrics(&qi, config));
        metrics.extend(self.synthetic_metrics(&qi, config));
        steps.next();
        if !qi.is_empty() {
            let input = BalanceInput {
                table: &self.classes,
                qi: &qi,
                external: self.population.as_deref(),
                identity: &identity,
                r_internal: figures.identity.r_internal,
                utility_u: figures.utility_u,
            };
            let (balance, risk_r) = crate::balance::finish(&input, &config.balance);
            metrics.extend(balance);
            figures.risk_r = risk_r;
        }
        steps.next();
        warnings.extend(crate::scope::warnings(figures.identity.scope.as_ref(), &crate::scope::blank_qis(&columns, config), config));
        warnings.extend(metric_warnings(&metrics));
        let report = Report {
            input: self.facts,
            original_input: self.original.as_ref().map(|o| o.input.clone()),
            reference_input: self.population.as_ref().map(|r| r.input.clone()),
            columns,
            params: AuditConfig { quasi_identifiers: qi, ..config.clone() },
            metrics,
            warnings,
            read: ReadPath::streaming("the file was read for this audit"),
            per_record: per_record.map(Arc::new),
            figures,
        };
        (report, Deferred { advice, attribution_at })
    }

    /// Ends the absorbing: the class tables forget their lookup index, the sensitive
    /// summaries are sealed.
    fn seal(&mut self) {
        self.classes.forget_index();
        for s in &mut self.sensitive {
            s.seal();
        }
        if let Some((s, _)) = &mut self.combined {
            s.seal();
        }
        for sub in &mut self.extended {
            sub.classes.forget_index();
            sub.sensitive.iter_mut().for_each(SensitiveSummary::seal);
        }
    }

    /// The identity family and SUDA, run side by side, and the per-record values; whether
    /// the metrics hold a value per record; the identity family's figures and how many of the
    /// results (the first) are its.
    fn identity_metrics(
        &mut self,
        qi: &[String],
        identity: &IdentityParams,
        config: &AuditConfig,
        deferring: Deferring,
    ) -> (Vec<MetricResult>, Option<PerRecord>, bool, IdentityFigures, usize) {
        let population = match &self.population {
            None => PopulationTable::Absent,
            Some(r) if !r.missing.is_empty() => PopulationTable::MissingQi(r.missing.clone()),
            Some(r) => {
                let columns = qi.iter().map(|name| r.present.iter().position(|x| x == name).expect("no QI missing")).collect();
                PopulationTable::Table(&r.table, columns, r.subset.as_ref())
            }
        };
        let mut per_record = self.records.take().filter(|_| !qi.is_empty()).map(|rows| {
            let size: Vec<u64> = (0..self.classes.len()).map(|i| self.classes.count(i)).collect();
            let f = match config.missing_policy {
                MissingPolicy::Wildcard => self.classes.match_counts(config.wildcard_alpha),
                _ => size.iter().map(|&c| c as f64).collect(),
            };
            PerRecord::new(rows, size, f)
        });
        let record_risks = per_record.as_ref().filter(|_| config.per_record).map(PerRecord::risk_json);
        let risks_kept = record_risks.is_some();
        let input = IdentityInput {
            table: &self.classes,
            persons: self.persons.as_ref(),
            population,
            qi,
            attribution_deferred: deferring.attribution,
            bootstrap_deferred: deferring.bootstrap,
            record_risks,
            households: self.households.as_ref(),
            per_household: config.per_record,
        };
        // SUDA (its search and its metrics) reads the class table alone: it runs beside the
        // identity suite, whose steps and its own leave cores idle in turn.
        let suda_ctx = crate::metric::Context {
            family: "identity",
            scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
            params: serde_json::Value::Null,
        };
        let suda_ids =
            self.first_rows.as_deref().filter(|_| !qi.is_empty()).map(|first_row| identity::suda::RecordIds { first_row, first_id: self.first_ids.as_deref() });
        let (suda, (mut metrics, figures)) = crate::par::join_some(
            suda_ids.as_ref().filter(|_| crate::config::FULL_ENGINE).map(|ids| {
                || {
                    let found = identity::suda::msus_of(&self.classes, qi.len(), &config.suda);
                    identity::suda::metrics(&suda_ctx, &self.classes, qi, &config.suda, ids, config.per_record, found)
                }
            }),
            || if qi.is_empty() { (Vec::new(), IdentityFigures::default()) } else { identity::finish(&input, identity) },
        );
        // `record_risk` holds them when the identity family measured records; the household
        // risk lists each household's id with the setting `per_record`.
        let mut record_level = (risks_kept || (config.per_record && self.households.is_some())) && figures.n_records > 0;
        let identity_len = metrics.len();
        if let Some(suda) = suda {
            // SUDA's scores list each scored record when the settings keep per-record values.
            record_level |= config.per_record && suda.scores.is_some();
            if let (Some(columns), Some((scores, dis))) = (per_record.as_mut(), suda.scores) {
                columns.add_column("suda_score", scores);
                columns.add_column("dis_suda_score", dis);
            }
            metrics.extend(suda.metrics);
        }
        (metrics, per_record, record_level, figures, identity_len)
    }

    /// The advice, when asked for and there are QIs: appended to `metrics`, or, with
    /// `attribution_deferred`, pending with the position of its metric.
    fn advice_metric(
        &self,
        metrics: &mut Vec<MetricResult>,
        qi: &[String],
        columns: &[ColumnProfile],
        identity: &IdentityParams,
        config: &AuditConfig,
        attribution_deferred: bool,
    ) -> Option<(usize, crate::advice::Pending)> {
        let (Some(advice), false) = (&config.advice, qi.is_empty()) else { return None };
        let ctx = crate::metric::Context {
            family: "advice",
            scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
            params: serde_json::json!(advice),
        };
        let norm = config.normaliser();
        let labels: Vec<_> = qi.iter().map(|q| config.attributes.get(q).and_then(|s| s.hierarchy.as_deref()).map(|h| norm.labels(h))).collect();
        let hierarchies: Vec<_> = labels.iter().map(|h| h.as_deref()).collect();
        let dates: Vec<_> = qi.iter().map(|q| columns.iter().find(|c| &c.name == q).and_then(|c| c.date_form)).collect();
        if attribution_deferred {
            match crate::advice::start(&ctx, &self.classes, qi, &hierarchies, &dates, identity, advice) {
                Ok(pending) => return Some((metrics.len(), pending)),
                Err(without) => metrics.push(*without),
            }
        } else {
            metrics.push(crate::advice::metric(&ctx, &self.classes, qi, &hierarchies, &dates, identity, advice));
        }
        None
    }

    /// The sensitive-attribute family, per SA, of the combined pseudo-SA, or of the tables
    /// whose QIs extend to the other SAs (`sa_mode`), appended to `metrics`; each SA's
    /// figures. `k` is the identity family's `k_anonymity`.
    fn attribute_metrics(&self, metrics: &mut Vec<MetricResult>, qi: &[String], k: Option<f64>, config: &AuditConfig) -> Vec<SensitiveFigures> {
        // Hierarchy and order labels are compared with the (folded) values.
        let attributes = config.read_labels();
        let original = self.original.as_deref().filter(|_| config.attribute.t_reference == attribute::TReference::Original);
        let wants_original = config.attribute.t_reference == attribute::TReference::Original;
        let references = self.references(original);
        let (results, figures) = if let Some((summary, _)) = &self.combined {
            // One pseudo-SA: no declared order or hierarchy; `O` has no column of tuples.
            let name = self.combined_name();
            let sa = attribute::SaInput { name: &name, summary, declared: Default::default(), hierarchy: None, reference_missing: wants_original };
            let input = AttributeInput { table: &self.classes, qi, sensitive: vec![sa], persons: self.persons.as_ref(), k, alpha: config.wildcard_alpha };
            attribute::finish(&input, &config.attribute)
        } else if !self.extended.is_empty() {
            let subs: Vec<(Vec<String>, _, Option<f64>)> = self
                .extended
                .iter()
                .map(|sub| {
                    let k = sub.classes.match_counts(config.wildcard_alpha).into_iter().reduce(f64::min);
                    (sub.qi_index.iter().map(|&i| sub.columns[i].clone()).collect(), sub.references(original), k)
                })
                .collect();
            let inputs: Vec<AttributeInput<'_>> = self
                .extended
                .iter()
                .zip(&subs)
                .map(|(sub, (sub_qi, refs, k))| AttributeInput {
                    table: &sub.classes,
                    qi: sub_qi,
                    sensitive: sub.sa_inputs(&attributes, refs, wants_original),
                    persons: sub.persons.as_ref(),
                    k: *k,
                    alpha: config.wildcard_alpha,
                })
                .collect();
            attribute::finish_all(&inputs.iter().collect::<Vec<_>>(), qi, &config.attribute)
        } else {
            let input = AttributeInput {
                table: &self.classes,
                qi,
                sensitive: self.sa_inputs(&attributes, &references, wants_original),
                persons: self.persons.as_ref(),
                k,
                alpha: config.wildcard_alpha,
            };
            attribute::finish(&input, &config.attribute)
        };
        metrics.extend(results);
        figures
    }

    /// The name of the combined pseudo-SA: the SAs' names joined by " + ".
    fn combined_name(&self) -> String {
        self.sensitive_index.iter().map(|&i| self.columns[i].as_str()).collect::<Vec<_>>().join(" + ")
    }

    /// SCORR's verdicts from the figures of the identity and attribute families.
    fn verdicts(&self, figures: &Figures, qi: &[String], config: &AuditConfig) -> Vec<MetricResult> {
        let sas: Vec<String> =
            if self.combined.is_some() { vec![self.combined_name()] } else { self.sensitive_index.iter().map(|&i| self.columns[i].clone()).collect() };
        let ctx = crate::metric::Context {
            family: "verdict",
            scope: crate::metric::Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
            params: serde_json::Value::Null,
        };
        crate::verdict::scorr::metrics(&ctx, figures, qi, &sas, &config.scorr)
    }

    /// The utility family and its `utility_u`, with an original table.
    fn utility_metrics(&self, qi: &[String], config: &AuditConfig) -> Option<(Vec<MetricResult>, Option<f64>)> {
        let (Some(o), Some(p), true) = (&self.original, &self.released, crate::config::FULL_ENGINE) else { return None };
        // `O`'s delimiter decides whether a comma may be a decimal separator (Sec 4.2).
        let norm = config.normaliser().delimiter(&o.input.delimiter);
        Some(crate::utility::finish(&UtilityInput {
            original: o,
            released: p,
            qi,
            sensitive: &config.sensitive,
            attributes: &config.attributes,
            params: &config.utility,
            missing_policy: config.missing_policy,
            exclude_suppressed_rows: config.exclude_suppressed_rows,
            norm: &norm,
        }))
    }

    /// The attacks, when asked for.
    fn attack_metrics(&self, qi: &[String], config: &AuditConfig) -> Vec<MetricResult> {
        let Some(attacks) = config.attacks.as_ref().filter(|_| crate::config::FULL_ENGINE) else { return Vec::new() };
        let norm = config.normaliser();
        let norm = match self.original.as_deref() {
            Some(o) => norm.delimiter(&o.input.delimiter),
            None => norm,
        };
        let input = crate::attack::AttackInput {
            original: self.original.as_deref(),
            released: self.released.as_ref(),
            control: self.control.as_deref(),
            qi,
            sensitive: &config.sensitive,
            attributes: &config.attributes,
            norm: &norm,
        };
        crate::attack::metrics(&input, attacks)
    }

    /// The measures of a synthetic release against the original, when asked for.
    fn synthetic_metrics(&self, qi: &[String], config: &AuditConfig) -> Vec<MetricResult> {
        let Some(params) = config.synthetic.as_ref().filter(|_| crate::config::FULL_ENGINE) else { return Vec::new() };
        let norm = config.normaliser();
        let norm = match self.original.as_deref() {
            Some(o) => norm.delimiter(&o.input.delimiter),
            None => norm,
        };
        let input = crate::synthetic::SyntheticInput {
            original: self.original.as_deref(),
            released: self.released.as_ref(),
            holdout: self.control.as_deref(),
            qi,
            sensitive: &config.sensitive,
            attributes: &config.attributes,
            norm: &norm,
        };
        crate::synthetic::metrics(&input, params)
    }
}

/// The HIPAA Safe Harbor checklist over every column of the table, when asked for.
pub(super) fn hipaa_metric(table: &Table, profiles: &[ColumnProfile], config: &AuditConfig) -> Option<MetricResult> {
    (config.hipaa && crate::config::FULL_ENGINE).then(|| {
        let ctx = crate::metric::Context {
            family: "hipaa",
            scope: crate::metric::Scope { table: "P", quasi_identifiers: config.quasi_identifiers.clone(), sensitive: None, attribute: None, subset: None },
            params: serde_json::json!({}),
        };
        crate::hipaa::metric(&ctx, &crate::hipaa::columns_of(table, profiles), &config.normaliser())
    })
}
