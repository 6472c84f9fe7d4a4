//! The audit of a kept table in steps ([`SplitAudit`]): its attribution lattice and the parts
//! of its bootstrap computed elsewhere (other workers of the page) while the other metrics
//! finish here.

use super::families::{Deferred, Deferring};
use super::kept::Summarised;
use crate::config::AuditConfig;
use crate::error::Result;
use crate::identity::attribution::{Lattice, SubsetStats};
use crate::identity::population::{Bootstrap, Replicate};
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
/// from the statistics computed elsewhere, or here. So with the population estimators'
/// bootstrap (most of the rest when the classes are many and small: about 60 % of the audit
/// of that table with 7 QIs): [`SplitAudit::bootstrap`] gives the piece
/// ([`crate::identity::bootstrap`]), [`SplitAudit::add_replicates`] takes the replicates of
/// each part computed elsewhere, and [`SplitAudit::complete`] computes the parts not given.
/// The same report as [`audit_table`](super::audit_table) (the page's audit worker and its
/// reader workers; natively both already run on every core).
pub struct SplitAudit {
    config: AuditConfig,
    /// The table summarised, until [`SplitAudit::finish_others`] turns it into the report.
    summarised: Option<Box<Summarised>>,
    report: Option<Report>,
    /// What the report waits for: the advice and the attribution results.
    deferred: Deferred,
    /// The lattice, when attribution is deferred (QIs, records, and keys that fit one word).
    lattice: Option<Lattice>,
    /// The bootstrap of the population estimators, when their intervals are deferred (QIs,
    /// records, intervals asked for, a policy other than `wildcard`), and the replicates of
    /// each of its parts given so far.
    bootstrap: Option<(Bootstrap, Vec<Option<Vec<Replicate>>>)>,
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
        let params = config.identity_params();
        let lattice = if q > 0 && n > 0 { identity::attribution::lattice_of(classes, q, params.threshold) } else { None };
        let bootstrap = if q > 0 { identity::bootstrap_of(classes, &params) } else { None };
        Ok(SplitAudit {
            config: config.clone(),
            summarised: Some(Box::new(summarised)),
            report: None,
            deferred: Deferred { advice: None, attribution_at: None },
            lattice,
            bootstrap: bootstrap.map(|b| {
                let parts = vec![None; b.parts() as usize];
                (b, parts)
            }),
            n,
        })
    }

    /// The attribution lattice to compute elsewhere (`identity::attribution::Lattice::stats`),
    /// or `None` when attribution is not deferred (no QIs or records, or keys too wide: then
    /// it is computed with the other metrics).
    pub fn lattice(&self) -> Option<&Lattice> {
        self.lattice.as_ref()
    }

    /// The bootstrap of the population estimators to compute elsewhere in parts
    /// ([`Bootstrap::part`]), or `None` when their intervals are computed with the other
    /// metrics (none asked for, no QIs or records, the `wildcard` policy).
    pub fn bootstrap(&self) -> Option<&Bootstrap> {
        self.bootstrap.as_ref().map(|(b, _)| b)
    }

    /// Takes the replicates of one part of [`Self::bootstrap`] computed elsewhere (the bytes
    /// of [`Bootstrap::part`]); `invalid_piece` when they are not a part of this audit's
    /// bootstrap.
    pub fn add_replicates(&mut self, bytes: &[u8]) -> Result<()> {
        let (bootstrap, parts) = self.bootstrap.as_mut().ok_or_else(|| invalid_piece("this audit has no bootstrap to compute elsewhere"))?;
        let (k, replicates) = bootstrap.read_part(bytes)?;
        parts[k as usize] = Some(replicates);
        Ok(())
    }

    /// Computes every metric but attribution and the population estimators' intervals (at
    /// most once).
    pub fn finish_others(&mut self) {
        if let Some(summarised) = self.summarised.take() {
            let deferring = Deferring { attribution: self.lattice.is_some(), bootstrap: self.bootstrap.is_some() };
            let (report, deferred) = summarised.finish(&self.config, deferring);
            (self.report, self.deferred) = (Some(report), deferred);
        }
    }

    /// The report, its attribution results from `stats` (the statistics of [`Self::lattice`]
    /// computed elsewhere) or, without them, computed here, and the population estimators
    /// with the intervals of the bootstrap, its parts not given ([`Self::add_replicates`])
    /// computed here. `invalid_piece` when `stats` are not those of every subset the lattice
    /// evaluates.
    pub fn complete(mut self, stats: Option<Vec<SubsetStats>>) -> Result<Report> {
        self.finish_others();
        let mut report = self.report.take().expect("finish_others gives the report");
        if let Some((bootstrap, mut parts)) = self.bootstrap.take() {
            let reps = bootstrap.replicates(|k| parts[k as usize].take());
            let qi = &report.params.quasi_identifiers;
            for result in identity::population_from(qi, &self.config.identity_params(), &bootstrap, &reps) {
                let at = report.metrics.iter().position(|m| m.id == result.id && m.family == result.family);
                report.metrics[at.ok_or_else(|| invalid_piece("no population estimate to add the intervals to"))?] = result;
            }
        }
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
