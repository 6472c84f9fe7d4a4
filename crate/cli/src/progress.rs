//! Progress on stderr (issue 36, item 7): the bytes of each file read, then the audit's own
//! progress (the core's `progress` hook: rows summarised, the measures' steps), each with a
//! percentage and the time left at the rate so far. Shown when stderr is a terminal and the
//! run lasts over a second (one line, rewritten), or from the start with `--progress` (a
//! line per change, at most four a second); never on stdout, so `--json` stays clean.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use pseudolens_core::progress::{Hook, Phase, Step};

/// How often the line is written.
const TICK: Duration = Duration::from_millis(250);

/// A run shorter than this shows no progress on a terminal.
const QUIET_START: Duration = Duration::from_secs(1);

/// What is being done: a file read (its bytes) or a phase of the audit.
#[derive(Debug, Clone, PartialEq)]
struct Work {
    what: String,
    unit: Unit,
    done: u64,
    total: u64,
}

/// What a [`Work`] counts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Unit {
    /// The bytes of a file, counted by [`FileBytes`] (shown in MB).
    Bytes,
    /// Rows grouped, or the measures' steps: counted by the core's hook.
    Named(&'static str),
}

/// The state the reading threads and the audit's hook update, and the writer thread reads.
struct Meter {
    /// `--progress`: a line per change, and the last state of each file and phase when it
    /// ends (else only what a tick sees).
    asked: bool,
    /// Bytes read of the file being read.
    bytes: AtomicU64,
    /// The file being read (its name and size), else the audit's phase.
    work: Mutex<Work>,
    /// When the current work began, and its units done then (for the estimate).
    began: Mutex<(Instant, u64)>,
    /// The line last written (a line is not written twice in a row).
    last: Mutex<Option<String>>,
}

static METER: OnceLock<Meter> = OnceLock::new();

/// The bytes of the files read, counted on the meter (nothing unless progress is shown).
pub struct FileBytes;

impl pseudolens_native::ReadProgress for FileBytes {
    fn start(&self, name: &str, len: u64) {
        if let Some(m) = METER.get() {
            m.set(Work { what: format!("reading {name}"), unit: Unit::Bytes, done: 0, total: len });
            m.bytes.store(0, Ordering::Relaxed);
        }
    }

    fn read(&self, n: usize) {
        if let Some(m) = METER.get() {
            m.bytes.fetch_add(n as u64, Ordering::Relaxed);
        }
    }
}

impl Meter {
    fn set(&self, work: Work) {
        if self.asked {
            let before = self.line();
            if before.as_ref().is_some_and(|_| self.work.lock().unwrap_or_else(|e| e.into_inner()).what != work.what) {
                self.show(before, false);
            }
        }
        let mut now = self.work.lock().unwrap_or_else(|e| e.into_inner());
        if now.what != work.what {
            *self.began.lock().unwrap_or_else(|e| e.into_inner()) = (Instant::now(), work.done);
        }
        *now = work;
    }

    /// The line for the work now: "reading big.csv: 512.0 of 1024.0 MB (50 %), about 8 s
    /// left"; `None` before any.
    fn line(&self) -> Option<String> {
        let mut work = self.work.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if work.what.is_empty() {
            return None;
        }
        if work.unit == Unit::Bytes {
            work.done = self.bytes.load(Ordering::Relaxed).min(work.total);
        }
        let (began, from) = *self.began.lock().unwrap_or_else(|e| e.into_inner());
        let share = work.done as f64 / work.total.max(1) as f64;
        let amount = match work.unit {
            Unit::Bytes => format!("{:.1} of {:.1} MB", work.done as f64 / 1e6, work.total as f64 / 1e6),
            Unit::Named(unit) => format!("{} of {} {unit}", work.done, work.total),
        };
        Some(format!("{}: {amount} ({:.0} %), {}", work.what, 100.0 * share, time_left(work.done, work.total, from, began.elapsed())))
    }
}

impl Meter {
    /// Writes `line` to stderr unless it is the last one written: on a line of its own, or
    /// over the last one (`rewrite`); whether anything was written so far.
    fn show(&self, line: Option<String>, rewrite: bool) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(text) = line.as_deref().filter(|&l| Some(l) != last.as_deref()) {
            let mut err = std::io::stderr().lock();
            let _ = if rewrite { write!(err, "\r\x1b[Kpseudolens: {text}") } else { writeln!(err, "pseudolens: {text}") };
            let _ = err.flush();
            *last = line;
        }
        last.is_some()
    }
}

/// "about 12 s left" at the rate since the work began (from `from` units).
fn time_left(done: u64, total: u64, from: u64, elapsed: Duration) -> String {
    if done >= total {
        return "finishing".into();
    }
    if done <= from || elapsed < Duration::from_millis(250) {
        return "estimating the time left".into();
    }
    let left = elapsed.as_secs_f64() * (total - done) as f64 / (done - from) as f64;
    match left {
        l if l < 1.0 => "less than a second left".into(),
        l if l < 90.0 => format!("about {} s left", l.round()),
        l => format!("about {} min left", (l / 60.0).round()),
    }
}

/// The core's progress hook, feeding the meter.
fn hook() -> Hook {
    Arc::new(|step: Step| {
        if let Some(m) = METER.get() {
            let (what, unit) = match step.phase {
                Phase::Rows => ("auditing: grouping the rows into classes", "rows"),
                Phase::Measures => ("auditing: computing the measures", "steps"),
                Phase::Nodes => ("protecting: searching the lattice", "nodes"),
            };
            m.set(Work { what: what.into(), unit: Unit::Named(unit), done: step.done, total: step.total });
        }
    })
}

/// Runs `f` showing its progress on stderr: with `asked` (`--progress`) from the start, a
/// line per change; else when stderr is a terminal, after a second, on one line rewritten.
pub fn shown<R>(asked: bool, f: impl FnOnce() -> R) -> R {
    let terminal = std::io::stderr().is_terminal();
    if !asked && !terminal {
        return f();
    }
    let meter = METER.get_or_init(|| Meter {
        asked,
        bytes: AtomicU64::new(0),
        work: Mutex::new(Work { what: String::new(), unit: Unit::Named("steps"), done: 0, total: 1 }),
        began: Mutex::new((Instant::now(), 0)),
        last: Mutex::new(None),
    });
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let rewrite = terminal && !asked;
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut shown = false;
            loop {
                let done = stop.load(Ordering::Acquire);
                // On a terminal: nothing for a run under a second; the last state once shown.
                if asked || (started.elapsed() >= QUIET_START && (!done || shown)) {
                    shown = meter.show(meter.line(), rewrite);
                }
                if done {
                    if rewrite && shown {
                        let _ = writeln!(std::io::stderr());
                    }
                    return;
                }
                std::thread::park_timeout(TICK);
            }
        });
        let result = pseudolens_core::progress::reporting(hook(), f);
        stop.store(true, Ordering::Release);
        writer.thread().unpark();
        let _ = writer.join();
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_from_the_rate_so_far() {
        assert_eq!(time_left(25, 100, 0, Duration::from_secs(4)), "about 12 s left");
        assert_eq!(time_left(10, 100, 0, Duration::from_secs(20)), "about 3 min left");
        assert_eq!(time_left(0, 100, 0, Duration::from_secs(4)), "estimating the time left");
        assert_eq!(time_left(100, 100, 0, Duration::from_secs(4)), "finishing");
    }
}
