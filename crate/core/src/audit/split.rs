//! The audit of a kept table in steps ([`SplitAudit`]): its attribution lattice computed
//! elsewhere (another worker of the page) while the other metrics finish here.

use super::families::Deferred;
use super::kept::Summarised;
use crate::config::AuditConfig;
use crate::error::Result;
use crate::identity::attribution::{Lattice, SubsetStats};
use crate::identity::{self, lattice::invalid_piece};
use crate::report::Report;
use crate::sides::Sides;
use crate::table::Table;

/// An audit of a retained table in steps, whose attribution lattice (the largest piece of
/// the audit of the classes: about 45 % of the page's audit of the 1M-row Adult-like table
/// with 8 QIs) another worker can compute from bytes while this one finishes the other
/// metrics: [`SplitAudit::start`] summarises the table, [`SplitAudit::lattice`] gives the
/// piece ([`crate::identity::lattice`]), [`SplitAudit::finish_others`] computes the rest and
/// [`SplitAudit::complete`] adds the attribution results and the advice's "drop a QI" entries
/// from the statistics computed elsewhere, or here. The same report as [`audit_table`](super::audit_table) (the page's audit
/// worker and its reader workers; natively the lattice already runs beside the rest).
pub struct SplitAudit {
    config: AuditConfig,
    /// The table summarised, until [`SplitAudit::finish_others`] turns it into the report.
    summarised: Option<Box<Summarised>>,
    report: Option<Report>,
    /// What the report waits for: the advice and the attribution results.
    deferred: Deferred,
    /// The lattice, when attribution is deferred (QIs, records, and keys that fit one word).
    lattice: Option<Lattice>,
    /// Records in scope.
    n: u64,
}

impl SplitAudit {
    /// Summarises `table` with these settings and the side tables (`not_retained` as
    /// [`audit_table`](super::audit_table)); the table is not read afterwards.
    pub fn start(table: &Table, config: &AuditConfig, sides: &Sides) -> Result<SplitAudit> {
        let summarised = Summarised::of(table, config, sides)?;
        let classes = &summarised.summary.classes;
        let q = summarised.summary.qi_index.len();
        let n = classes.records();
        let lattice = if q > 0 && n > 0 { identity::attribution::lattice_of(classes, q, config.identity_params().threshold) } else { None };
        Ok(SplitAudit {
            config: config.clone(),
            summarised: Some(Box::new(summarised)),
            report: None,
            deferred: Deferred { advice: None, attribution_at: None },
            lattice,
            n,
        })
    }

    /// The attribution lattice to compute elsewhere (`identity::attribution::Lattice::stats`),
    /// or `None` when attribution is not deferred (no QIs or records, or keys too wide: then
    /// it is computed with the other metrics).
    pub fn lattice(&self) -> Option<&Lattice> {
        self.lattice.as_ref()
    }

    /// Computes every metric but attribution (at most once).
    pub fn finish_others(&mut self) {
        if let Some(summarised) = self.summarised.take() {
            let (report, deferred) = summarised.finish(&self.config, self.lattice.is_some());
            (self.report, self.deferred) = (Some(report), deferred);
        }
    }

    /// The report, its attribution results from `stats` (the statistics of [`Self::lattice`]
    /// computed elsewhere) or, without them, computed here. `invalid_piece` when `stats` are
    /// not those of every subset the lattice evaluates.
    pub fn complete(mut self, stats: Option<Vec<SubsetStats>>) -> Result<Report> {
        self.finish_others();
        let mut report = self.report.take().expect("finish_others gives the report");
        let Some(lattice) = self.lattice else { return Ok(report) };
        let qi = report.params.quasi_identifiers.clone();
        let stats = match stats {
            Some(stats) => {
                let mut masks: Vec<u32> = stats.iter().map(|s| s.mask).collect();
                masks.sort_unstable();
                if masks != (1..1u32 << qi.len()).collect::<Vec<_>>() {
                    return Err(invalid_piece("the attribution statistics are not those of this audit's subsets"));
                }
                stats
            }
            None => lattice.stats(),
        };
        // The advice's metric first: its place was counted before the attribution results.
        if let Some((at, pending)) = self.deferred.advice.take() {
            let drops = crate::advice::drop_figures(&stats, qi.len(), self.n, &self.config.identity_params());
            report.metrics.insert(at, pending.finish(drops));
        }
        let at = self.deferred.attribution_at.ok_or_else(|| invalid_piece("no identity results to add the attribution results to"))?;
        let attribution = identity::attribution_from(&qi, &self.config.identity_params(), self.n, stats);
        report.metrics.splice(at..at, attribution);
        Ok(report)
    }
}
