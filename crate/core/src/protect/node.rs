//! One node of the lattice (spec protect.md Sec 2-4): its classes merged from the level-0
//! classes through each QI's label codes, the classes violating the criteria, whether it is
//! feasible, and its figures (records suppressed, classes, `k`, average risk, records at
//! risk, loss, discernibility).

use serde::Serialize;

use super::base::Base;
use super::ladder::BuiltLadder;
use crate::attribute::closeness;
use crate::attribute::distribution::ClassDist;
use crate::hash::{Map, map};

/// The criteria and the suppression limit, resolved against `O` (Sec 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    /// A class violates `k` when smaller.
    pub k: Option<u64>,
    /// A class violates distinct `l` when it holds fewer values of some SA.
    pub l: Option<u64>,
    /// A class violates `t` when its distance to `Q` exceeds it for some SA.
    pub t: Option<f64>,
    /// Whether `t` uses the ordered distance (numeric SAs) or the equal one.
    pub t_ordered: bool,
    /// The table-level criterion `K' / N' <= r_max`.
    pub average_risk: Option<f64>,
    /// `floor(s_max * N)`.
    pub limit: u64,
    /// The records-at-risk threshold `tau` (identity-risk.md Sec 5).
    pub tau: f64,
}

/// The figures of one node (Sec 4).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figures {
    /// Records of the violating classes.
    pub records_suppressed: u64,
    /// Kept classes `K'`.
    pub classes: u64,
    /// The smallest kept class (`None` when none is kept).
    pub k: Option<u64>,
    /// `K' / N'` (`None` when no record is kept).
    pub average_risk: Option<f64>,
    /// Share of the kept records whose risk `1/f` is above `tau`.
    pub records_at_risk: Option<f64>,
    /// The normalized certainty penalty.
    pub loss: f64,
    /// `sum over kept classes f^2 + N * s`.
    pub discernibility: u64,
    /// Whether the node is feasible.
    #[serde(skip)]
    pub feasible: bool,
    /// Whether its suppression is within the limit with a record kept (the part of
    /// feasibility that is monotone for `k` and distinct `l`).
    #[serde(skip)]
    pub within_limit: bool,
}

/// The figures of the node `levels` and, per level-0 class, whether its records are
/// suppressed there.
pub fn evaluate(base: &Base, ladders: &[BuiltLadder], rules: &Rules, levels: &[usize]) -> (Figures, Vec<bool>) {
    let c0 = base.classes.len();
    let (group, groups) = groups(base, ladders, levels);
    let mut size = vec![0u64; groups];
    for (i, &g) in group.iter().enumerate() {
        size[g as usize] += base.classes.count(i);
    }
    let mut violates: Vec<bool> = size.iter().map(|&f| rules.k.is_some_and(|k| f < k)).collect();
    if rules.l.is_some() || rules.t.is_some() {
        for sa in &base.sensitive {
            diverse_and_close(sa, &group, rules, &mut violates);
        }
    }
    let (mut s, mut kept_classes, mut kept, mut k, mut at_risk, mut disc) = (0u64, 0u64, 0u64, u64::MAX, 0u64, 0u64);
    for (g, &f) in size.iter().enumerate() {
        if violates[g] {
            s += f;
        } else {
            kept_classes += 1;
            kept += f;
            k = k.min(f);
            disc += f * f;
            if 1.0 / f as f64 > rules.tau {
                at_risk += f;
            }
        }
    }
    // The loss of the kept cells: each QI's loss over every record in scope at its level (per
    // value, not per class), less the cells of the suppressed classes, which cost 1 each.
    let m = ladders.len();
    let cells = |a: usize| &ladders[a].levels[levels[a]].cost;
    let mut penalty = s as f64 * m as f64;
    for a in 0..m {
        penalty += base.value_records[a].iter().zip(cells(a)).map(|(&n, &c)| n as f64 * c).sum::<f64>();
    }
    if s > 0 {
        for i in (0..c0).filter(|&i| violates[group[i] as usize]) {
            let lost: f64 = (0..m).map(|a| cells(a)[base.class_codes[a][i] as usize]).sum();
            penalty -= base.classes.count(i) as f64 * lost;
        }
    }
    let n = base.n;
    let average_risk = (kept > 0).then(|| kept_classes as f64 / kept as f64);
    let within_limit = s <= rules.limit && kept > 0;
    let feasible = within_limit && rules.average_risk.is_none_or(|r| average_risk.is_some_and(|a| a <= r));
    let figures = Figures {
        records_suppressed: s,
        classes: kept_classes,
        k: (kept > 0).then_some(k),
        average_risk,
        records_at_risk: (kept > 0).then(|| at_risk as f64 / kept as f64),
        loss: if n == 0 || m == 0 { 0.0 } else { penalty / (m as f64 * n as f64) },
        discernibility: disc + n * s,
        feasible,
        within_limit,
    };
    (figures, group.iter().map(|&g| violates[g as usize]).collect())
}

/// The class of the node of each level-0 class, and the number of classes. Each class's key is
/// its label codes in mixed radix (a QI at its top level splits nothing and is left out): a
/// key below a few times the level-0 classes indexes an array, a larger one a hash table; a key
/// past 64 bits refines the classes QI by QI.
fn groups(base: &Base, ladders: &[BuiltLadder], levels: &[usize]) -> (Vec<u32>, usize) {
    grouped(base, ladders, levels, (4 * base.classes.len() as u64).max(1 << 12))
}

/// [`groups`], keys up to `dense` indexing an array.
pub(super) fn grouped(base: &Base, ladders: &[BuiltLadder], levels: &[usize], dense: u64) -> (Vec<u32>, usize) {
    let c0 = base.classes.len();
    let active: Vec<usize> = (0..ladders.len()).filter(|&a| levels[a] + 1 < ladders[a].height()).collect();
    let radix = |a: usize| ladders[a].levels[levels[a]].texts.len() as u64;
    let product = active.iter().try_fold(1u64, |p, &a| p.checked_mul(radix(a)));
    let Some(p) = product else {
        return refined(base, ladders, levels, &active, vec![0u32; c0]);
    };
    // Each class's key, a QI (a column) at a time.
    let mut keys = vec![0u64; c0];
    for &a in &active {
        let (r, labels) = (radix(a), &ladders[a].levels[levels[a]].map);
        for (k, &code) in keys.iter_mut().zip(&base.class_codes[a]) {
            *k = *k * r + u64::from(labels[code as usize]);
        }
    }
    let mut group = vec![0u32; c0];
    if p <= dense {
        let mut ids = vec![u32::MAX; p as usize];
        let mut next = 0u32;
        for (g, &k) in group.iter_mut().zip(&keys) {
            let id = &mut ids[k as usize];
            if *id == u32::MAX {
                *id = next;
                next += 1;
            }
            *g = *id;
        }
        (group, next as usize)
    } else {
        let mut ids: Map<u64, u32> = map();
        ids.reserve(c0);
        for (g, &k) in group.iter_mut().zip(&keys) {
            let next = ids.len() as u32;
            *g = *ids.entry(k).or_insert(next);
        }
        (group, ids.len())
    }
}

/// [`groups`] QI by QI: each class's group so far and its label code as one 64-bit key.
pub(super) fn refined(base: &Base, ladders: &[BuiltLadder], levels: &[usize], active: &[usize], mut group: Vec<u32>) -> (Vec<u32>, usize) {
    let mut groups = usize::from(!group.is_empty());
    let mut ids: Map<u64, u32> = map();
    for &a in active {
        let labels = &ladders[a].levels[levels[a]].map;
        ids.clear();
        for (g, &code) in group.iter_mut().zip(&base.class_codes[a]) {
            let key = u64::from(*g) << 32 | u64::from(labels[code as usize]);
            let next = ids.len() as u32;
            *g = *ids.entry(key).or_insert(next);
        }
        groups = ids.len();
    }
    (group, groups)
}

/// Marks the classes that hold fewer than `l` values of the SA or lie farther than `t` from
/// its distribution over `O` (classes without a record in `R_s` are left as they are).
fn diverse_and_close(sa: &super::base::SaBase, group: &[u32], rules: &Rules, violates: &mut [bool]) {
    let mut merged: Vec<(u32, u32, u64)> = sa.entries.iter().map(|&(c, v, n)| (group[c as usize], v, n)).collect();
    merged.sort_unstable_by_key(|e| (e.0, e.1));
    let (mut own, mut counts, mut at) = (Vec::new(), Vec::new(), Vec::new());
    for class in merged.chunk_by(|x, y| x.0 == y.0) {
        own.clear();
        for e in class.chunk_by(|x, y| x.1 == y.1) {
            own.push((e[0].1, e.iter().map(|x| x.2).sum::<u64>()));
        }
        let g = class[0].0;
        if rules.l.is_some_and(|l| (own.len() as u64) < l) {
            violates[g as usize] = true;
        }
        if let Some(t) = rules.t {
            counts.clear();
            counts.extend(own.iter().map(|&(v, n)| (v, n as f64)));
            let records: u64 = own.iter().map(|x| x.1).sum();
            let d = ClassDist { class: g, records, own: &own, counts: &counts, total: records as f64 };
            let distance = match (&sa.ordered, rules.t_ordered) {
                (Some(o), true) => o.distance(&d, &mut at),
                _ => closeness::equal(&d, &sa.dist),
            };
            // A margin for the rounding of the sums: a merged class equal to its parts.
            if distance > t + 1e-12 {
                violates[g as usize] = true;
            }
        }
    }
}
