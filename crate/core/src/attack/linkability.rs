//! Linkability (spec peer-measures.md Sec 5.6; Anonymeter `linkability_evaluator.py`): an
//! attacker holding two column sets of a target links them through the release when the
//! target's `k` nearest released rows on each set share a row.

use crate::attack::columns::{AttackColumn, Side};
use crate::attack::draws::{Stream, StreamId};
use crate::attack::neighbors::Space;

/// The counts of a linkability attack.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkOutcome {
    /// Targets (rows of `O`) linked.
    pub k_att: u64,
    /// Control targets (rows of `C`) linked.
    pub k_ctl: Option<u64>,
    /// Random pairs of neighbour sets that meet.
    pub k_base: u64,
    /// Per target of `O`: its row number and whether it was linked (record-level).
    pub targets: Vec<(usize, bool)>,
}

/// Which of the targets `rows` of `side` are linked.
fn linked(x0: &[&AttackColumn], x1: &[&AttackColumn], side: Side, rows: &[usize], n_p: usize, k: usize) -> Vec<bool> {
    let s0 = Space::new(x0, side, rows, n_p);
    let s1 = Space::new(x1, side, rows, n_p);
    crate::par::map(rows.to_vec(), |t| {
        let a = s0.nearest(side, t, k);
        let b = s1.nearest(side, t, k);
        a.iter().any(|r| b.contains(r))
    })
}

/// Runs the attack on `n` targets of `O` (and of `C` when `n_c` is given) with `k` neighbours.
#[allow(clippy::too_many_arguments)]
pub fn run(x0: &[&AttackColumn], x1: &[&AttackColumn], n_o: usize, n_p: usize, n_c: Option<usize>, n: usize, k: usize, seed: u64) -> LinkOutcome {
    let rows = Stream::new(seed, StreamId::LinkabilityOriginal).sample(n_o, n);
    let hits = linked(x0, x1, Side::Original, &rows, n_p, k);
    let k_att = hits.iter().filter(|&&h| h).count() as u64;
    let k_ctl = n_c.map(|n_c| {
        let rows = Stream::new(seed, StreamId::LinkabilityControl).sample(n_c, n);
        linked(x0, x1, Side::Control, &rows, n_p, k).iter().filter(|&&h| h).count() as u64
    });
    let mut base = Stream::new(seed, StreamId::LinkabilityBaseline);
    let k_base = (0..n)
        .filter(|_| {
            let a = base.sample(n_p, k);
            let b = base.sample(n_p, k);
            a.iter().any(|r| b.contains(r))
        })
        .count() as u64;
    LinkOutcome { k_att, k_ctl, k_base, targets: rows.into_iter().zip(hits).collect() }
}
