//! The progress of an audit (issue 36, item 7: the page's bar stayed at 0 for the 110 s of an
//! audit of a 1 GB file). The core stays push-driven and I/O-free: a front end that wants
//! progress runs the audit inside [`reporting`] with a hook, and the audit calls it with the
//! work done in each phase: the rows of a kept table summarised into classes, then the steps
//! of the metric families. The front end turns it into a percentage and an estimate of the
//! time left (the worker posts it to the page, the CLI prints it to stderr). Without a hook
//! nothing is reported and nothing is counted.

use std::cell::RefCell;
use std::sync::Arc;

/// What an audit is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The rows of a kept table summarised into classes (work units: rows).
    Rows,
    /// The metric families computed from the classes (work units: families).
    Measures,
    /// The nodes of a protect lattice evaluated or ruled out (work units: nodes).
    Nodes,
}

impl Phase {
    /// The phase's name on the wire: `rows`, `measures`, `nodes`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Rows => "rows",
            Phase::Measures => "measures",
            Phase::Nodes => "nodes",
        }
    }
}

/// Work done in a phase: `done` of `total` units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The phase.
    pub phase: Phase,
    /// Units done.
    pub done: u64,
    /// Units in all.
    pub total: u64,
}

/// A front end's receiver of [`Step`]s; called from any thread the audit works on.
pub type Hook = Arc<dyn Fn(Step) + Send + Sync>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// Runs `f` with `hook` receiving the progress of the audits it runs on this thread (and on
/// the helper threads they start); the hook in place before is restored afterwards.
pub fn reporting<R>(hook: Hook, f: impl FnOnce() -> R) -> R {
    let before = HOOK.with(|h| h.replace(Some(hook)));
    // Restored even when `f` panics.
    struct Restore(Option<Hook>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            HOOK.with(|h| *h.borrow_mut() = before);
        }
    }
    let _restore = Restore(before);
    f()
}

/// The hook of this thread, to hand to helper threads.
pub(crate) fn current() -> Option<Hook> {
    HOOK.with(|h| h.borrow().clone())
}

/// Reports `done` of `total` units of `phase` to this thread's hook, if any.
pub(crate) fn report(phase: Phase, done: u64, total: u64) {
    if let Some(hook) = current() {
        hook(Step { phase, done, total });
    }
}

/// The steps of the metric families of one audit: [`Measures::next`] after each.
pub(crate) struct Measures {
    done: u64,
}

impl Measures {
    /// The families computed in the audit's finish: identity (with SUDA), advice,
    /// the sensitive attributes and verdicts, utility, the attacks, balance.
    pub(crate) const STEPS: u64 = 6;

    /// Starts the steps (reports 0 done).
    pub(crate) fn start() -> Measures {
        report(Phase::Measures, 0, Self::STEPS);
        Measures { done: 0 }
    }

    /// One more step done.
    pub(crate) fn next(&mut self) {
        self.done = (self.done + 1).min(Self::STEPS);
        report(Phase::Measures, self.done, Self::STEPS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn steps_reach_the_hook_only_inside_reporting() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        report(Phase::Rows, 1, 2);
        reporting(Arc::new(move |s: Step| sink.lock().unwrap().push(s)), || {
            report(Phase::Rows, 1, 2);
            let mut m = Measures::start();
            m.next();
        });
        report(Phase::Rows, 2, 2);
        let seen = seen.lock().unwrap();
        assert_eq!(
            *seen,
            [
                Step { phase: Phase::Rows, done: 1, total: 2 },
                Step { phase: Phase::Measures, done: 0, total: 6 },
                Step { phase: Phase::Measures, done: 1, total: 6 }
            ]
        );
        assert!(current().is_none());
    }

    #[test]
    fn an_audit_of_a_kept_table_reports_its_rows_then_its_measures() {
        let config = crate::AuditConfig { quasi_identifiers: vec!["age".into(), "zip".into()], ..Default::default() };
        let csv: String = std::iter::once("age,zip\n".to_string()).chain((0..70_000).map(|i| format!("{},{}\n", i % 90, i % 13))).collect();
        let mut reader = crate::TableReader::new(config.table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        let table = reader.finish().unwrap().table;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let report =
            reporting(Arc::new(move |s: Step| sink.lock().unwrap().push(s)), || crate::audit_table(&table, &config, &crate::Sides::default()).unwrap());
        assert_eq!(report.input.rows_total, 70_000);
        let seen = seen.lock().unwrap();
        let rows: Vec<u64> = seen.iter().filter(|s| s.phase == Phase::Rows).map(|s| s.done).collect();
        // Block by block (65,536 rows at most), up to every row (threads may report out of order).
        assert!(rows.len() >= 2 && rows.iter().max() == Some(&70_000), "{rows:?}");
        let measures: Vec<u64> = seen.iter().filter(|s| s.phase == Phase::Measures).map(|s| s.done).collect();
        assert_eq!(measures, (0..=Measures::STEPS).collect::<Vec<_>>());
        let first_measure = seen.iter().position(|s| s.phase == Phase::Measures).unwrap();
        assert!(seen[..first_measure].iter().all(|s| s.phase == Phase::Rows));
    }
}
