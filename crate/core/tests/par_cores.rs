//! `par` never has more threads at work than it may use (issue 11): two computations side by
//! side (`join`) share the cores, each `map` of theirs starting helpers only while a core is
//! free, and a core freed by one joins the other mid-way. In a process of its own: the count
//! of threads at work is the process's.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pseudolens_core::par;

/// Closures running now, and the most seen at once.
struct Gauge {
    now: AtomicUsize,
    most: AtomicUsize,
}

impl Gauge {
    fn new() -> Gauge {
        Gauge { now: AtomicUsize::new(0), most: AtomicUsize::new(0) }
    }

    /// Runs `f` counted, long enough for the others to overlap it.
    fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(2));
        let r = f();
        self.now.fetch_sub(1, Ordering::SeqCst);
        r
    }
}

#[test]
fn threads_at_work_never_pass_the_limit_and_results_keep_their_order() {
    // Three threads many times: a thread given its core back after a wait while the other's
    // helpers were at work once made four at work, for one item, on a loaded machine.
    for threads in [1, 2].into_iter().chain(std::iter::repeat_n(3, 20)) {
        par::set_threads(threads);
        let gauge = Gauge::new();
        let items = |k: u64| (0..40).map(move |i| i * k).collect::<Vec<u64>>();
        let (a, b) = par::join(
            || par::map(items(2), |x| gauge.run(|| x + 1)),
            || {
                // A short computation first: its core is then free for the other's helpers.
                let short = par::map(items(3).into_iter().take(4).collect(), |x| gauge.run(|| x));
                (short, par::map(items(5), |x| gauge.run(|| x * 2)))
            },
        );
        assert_eq!(a, items(2).iter().map(|x| x + 1).collect::<Vec<_>>());
        assert_eq!(b.0, vec![0, 3, 6, 9]);
        assert_eq!(b.1, items(5).iter().map(|x| x * 2).collect::<Vec<_>>());
        let most = gauge.most.load(Ordering::SeqCst);
        assert!(most <= threads, "{most} closures at once with {threads} threads");
        if threads > 1 {
            assert!(most > 1, "the cores were used: {most} at once with {threads} threads");
        }
    }
}
