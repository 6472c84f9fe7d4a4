//! Work on several cores (issue 11: all cores), natively; one item after another in the
//! browser, where a wasm instance has one thread (the page reads in parallel with workers).

use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Threads to use; 0 = every core.
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// Uses at most `n` threads from now on (the CLI's `--threads`); 0 = every core.
pub fn set_threads(n: usize) {
    THREADS.store(n, Ordering::Relaxed);
}

/// The threads work may use.
pub fn threads() -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    match THREADS.load(Ordering::Relaxed) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Threads at work on the computations of this module: the caller's counts from the start,
/// each helper thread while it runs. A computation starts helpers only while this stays at
/// most [`threads`], so two computations side by side ([`join`]) share the cores instead of
/// each starting a thread per core (more threads than cores evict each other's data from
/// the caches: the attribution's sorts took half as long again when they did).
///
/// Signed: threads that call in side by side (tests, a host's own threads) each count as
/// the one caller, so while several lend their cores it goes below zero, never wraps (a
/// wrapped count would keep a waiting thread from its core for ever).
static BUSY: AtomicIsize = AtomicIsize::new(1);

/// Threads that have waited for another (in [`lend_while`]) and want their core back. They
/// come first: no helper starts while one waits, and helpers stop between items, so the
/// count of threads at work never passes [`threads`], not even for one item.
static WANTED: AtomicUsize = AtomicUsize::new(0);

/// Told whenever a core is given back, for the threads in [`WANTED`].
static FREED: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());

/// Takes a free core, if any.
fn claim_core() -> bool {
    BUSY.fetch_update(Ordering::AcqRel, Ordering::Acquire, |busy| (busy < threads() as isize).then_some(busy + 1)).is_ok()
}

/// Takes a free core for a helper thread; false when every core is at work or a waiting
/// thread wants one back.
fn take_core() -> bool {
    !core_wanted() && claim_core()
}

/// True when a helper should stop before its next item: a waiting thread wants its core.
fn core_wanted() -> bool {
    WANTED.load(Ordering::Acquire) > 0
}

/// A core held by a helper thread (or lent back by a waiting caller) until dropped.
struct Core;

impl Drop for Core {
    fn drop(&mut self) {
        BUSY.fetch_sub(1, Ordering::AcqRel);
        let _guard = FREED.0.lock();
        FREED.1.notify_all();
    }
}

/// Lends the calling thread's core to other computations while it waits in `wait`, then
/// takes one back when one is free (helpers give theirs up between items meanwhile).
fn lend_while<R>(wait: impl FnOnce() -> R) -> R {
    drop(Core);
    let r = wait();
    if !claim_core() {
        WANTED.fetch_add(1, Ordering::AcqRel);
        let mut guard = FREED.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // A core given back notifies under the lock, after it is counted free: none is missed
        // between this claim and the wait.
        while !claim_core() {
            guard = FREED.1.wait(guard).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        WANTED.fetch_sub(1, Ordering::AcqRel);
    }
    r
}

/// `f` of every item, in the items' order, the items shared out among the caller and helper
/// threads as they become free. The caller starts a helper before an item whenever a core
/// is free (up to one thread per core), so cores that another computation frees join in.
pub fn map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let most = threads().min(items.len());
    if most <= 1 {
        return items.into_iter().map(f).collect();
    }
    let len = items.len();
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let results: Vec<Mutex<Option<R>>> = (0..len).map(|_| Mutex::new(None)).collect();
    // Maps the next item; false when none is left.
    let step = || {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= len {
            return false;
        }
        let item = slots[i].lock().map(|mut t| t.take()).ok().flatten();
        if let Some(item) = item {
            let r = f(item);
            if let Ok(mut slot) = results[i].lock() {
                *slot = Some(r);
            }
        }
        true
    };
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        loop {
            if helpers.len() + 1 < most && next.load(Ordering::Relaxed) + 1 < len && take_core() {
                helpers.push(s.spawn(|| {
                    let _core = Core;
                    while !core_wanted() && step() {}
                }));
            }
            if !step() {
                break;
            }
        }
        // The helpers' last items: the caller's core is free meanwhile.
        if !helpers.is_empty() {
            let joined: Vec<_> = lend_while(|| helpers.into_iter().map(|h| h.join()).collect());
            if let Some(panic) = joined.into_iter().find_map(std::result::Result::err) {
                std::panic::resume_unwind(panic);
            }
        }
    });
    results.into_iter().map(|m| m.into_inner().ok().flatten().expect("every item was mapped")).collect()
}

/// How many of `len` items a run of work takes: a few runs a thread (so that a slow run
/// is shared out), never so short that starting it costs more than doing it.
pub fn run_len(len: usize) -> usize {
    len.div_ceil(threads() * 4).max(1 << 12)
}

/// `out[i] = f(i)` for every `i`, the indices shared out among the threads in runs (each
/// value is computed alone, so the result does not depend on the threads).
pub fn fill<T: Send>(out: &mut [T], f: impl Fn(usize) -> T + Sync) {
    let run = run_len(out.len());
    let runs: Vec<(usize, &mut [T])> = out.chunks_mut(run).enumerate().map(|(k, c)| (k * run, c)).collect();
    map(runs, |(at, c)| c.iter_mut().enumerate().for_each(|(j, x)| *x = f(at + j)));
}

/// Merges parts in order, each into the part before it, the smallest (by `size`, what adding
/// it costs: its classes are looked up in the part before it) first. The large parts are then
/// added once each, last: a small part cut from the middle of a large range (by a reader done
/// early) is added to the part before it, not the large part after it to the small one and the
/// result again. A part that took few new classes keeps its index for the next merge into it;
/// one that took many rebuilds it then. `None` when there is no part.
pub fn merge_smallest_first<T, E>(mut parts: Vec<T>, size: impl Fn(&T) -> usize, merge: impl Fn(&mut T, T) -> Result<(), E>) -> Result<Option<T>, E> {
    while parts.len() > 1 {
        let k = (1..parts.len()).min_by_key(|&k| size(&parts[k])).expect("two parts at least");
        let part = parts.remove(k);
        merge(&mut parts[k - 1], part)?;
    }
    Ok(parts.pop())
}

/// `a()` and `b()` at once, `a` on a thread of its own when a core is free (else one after
/// the other): for independent computations whose own `map`s leave cores idle between steps.
pub fn join<A: Send, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    if threads() <= 1 || !take_core() {
        let x = a();
        return (x, b());
    }
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let _core = Core;
            a()
        });
        let y = b();
        // While `a` finishes, the caller's core is free for `a`'s own helpers.
        match lend_while(|| handle.join()) {
            Ok(x) => (x, y),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// [`join`] of a computation that may not be asked for: without `a`, `b` alone on this thread
/// (a thread started for nothing would hold a core that `b`'s own steps could take).
pub fn join_some<A: Send, B>(a: Option<impl FnOnce() -> A + Send>, b: impl FnOnce() -> B) -> (Option<A>, B) {
    match a {
        Some(a) => {
            let (x, y) = join(a, b);
            (Some(x), y)
        }
        None => (None, b()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_sets_every_index_once() {
        for len in [0, 1, 4095, 4096, 4097, 100_003] {
            let mut out = vec![usize::MAX; len];
            fill(&mut out, |i| i * 3);
            assert!(out.iter().enumerate().all(|(i, &x)| x == i * 3), "{len}");
        }
    }

    #[test]
    fn merges_the_smallest_part_into_the_one_before_it_first() {
        // Parts of sizes 5, 1, 4, 2, 3: added as 1 (into 5), 2 (into 4), 3 (into 4+2), 4+2+3.
        let parts: Vec<Vec<u32>> = [5, 1, 4, 2, 3].iter().map(|&n| vec![n; n as usize]).collect();
        let added = std::cell::RefCell::new(Vec::new());
        let merged = merge_smallest_first(parts, Vec::len, |a: &mut Vec<u32>, b| -> Result<(), ()> {
            added.borrow_mut().push(b.len());
            a.extend(b);
            Ok(())
        });
        assert_eq!(merged, Ok(Some([5, 1, 4, 2, 3].iter().flat_map(|&n| vec![n; n as usize]).collect())), "in order");
        assert_eq!(added.into_inner(), vec![1, 2, 3, 9]);
        assert_eq!(merge_smallest_first(Vec::<Vec<u32>>::new(), Vec::len, |_, _| Ok::<(), ()>(())), Ok(None));
        assert_eq!(merge_smallest_first(vec![vec![1], vec![2]], Vec::len, |_, _| Err("stop")), Err("stop"));
    }

    #[test]
    fn maps_in_order() {
        let out = map((0..1000u64).collect(), |x| x * x);
        assert_eq!(out, (0..1000u64).map(|x| x * x).collect::<Vec<_>>());
        assert!(map(Vec::<u8>::new(), |x| x).is_empty());
    }

    #[test]
    fn joins_some_results() {
        let asked = std::sync::atomic::AtomicBool::new(false);
        assert_eq!(join_some(Some(|| 2), || 3), (Some(2), 3));
        let none: Option<fn() -> u8> = None;
        assert_eq!(join_some(none, || asked.store(true, Ordering::Relaxed)), (None, ()));
        assert!(asked.load(Ordering::Relaxed), "b runs without a");
    }

    #[test]
    fn joins_both_results() {
        let data: Vec<u64> = (1..=100).collect();
        let (a, b) = join(|| data.iter().sum::<u64>(), || data.iter().map(|x| x * x).sum::<u64>());
        assert_eq!((a, b), (5050, 338_350));
    }
}
