//! SCORR's correlation-only risk `R_co` (spec attribute-risk.md Sec 7) and its Markov-model
//! risk `R_mm` (identity-risk.md Sec 9), per sensitive attribute.

use super::SensitiveSummary;
use super::distribution::Distributions;
use crate::hash::{Map, map};
use crate::identity::persons::Persons;
use crate::table::classes::ClassTable;
use crate::table::classes::MissingPolicy;
use crate::table::dictionary::is_blank;

/// min, record-weighted mean and max.
#[derive(Debug, Clone, Copy)]
pub struct Spread {
    /// Smallest value.
    pub min: f64,
    /// Mean over records.
    pub mean: f64,
    /// Largest value.
    pub max: f64,
}

#[derive(Default)]
struct Acc {
    min: f64,
    max: f64,
    sum: f64,
    n: f64,
}

impl Acc {
    fn add(&mut self, v: f64, records: f64) {
        if self.n == 0.0 {
            (self.min, self.max) = (v, v);
        }
        // Comparisons, not f64::min/max: those are library calls in wasm (NaN never comes).
        if v < self.min {
            self.min = v;
        }
        if v > self.max {
            self.max = v;
        }
        self.sum += v * records;
        self.n += records;
    }

    fn spread(&self) -> Spread {
        Spread { min: self.min, mean: self.sum / self.n, max: self.max }
    }
}

/// `R_co(i; A) = f_A(i, SA) / f_A(i)`: the share of the record's own SA value in its class.
pub fn qi(dist: &Distributions) -> Spread {
    let mut acc = Acc::default();
    for d in dist.classes() {
        for &(v, n) in d.own {
            acc.add(d.p(v), n as f64);
        }
    }
    acc.spread()
}

/// `R_co(i; {a})` for QI `a`: the share of the record's SA value among the records with its
/// value of `a` (Sec 1.3 counts with `X = {a}`), from `a`'s [`ValuePairs`].
pub fn attr(table: &ClassTable, counts: &ValuePairs, alpha: f64) -> Spread {
    let ValuePairs { pairs, single } = counts;
    let wildcard = table.policy() == MissingPolicy::Wildcard;
    let blank_single: f64 = single.iter().enumerate().filter(|&(x, _)| is_blank(x as u32)).map(|(_, c)| c).sum();
    let n: f64 = single.iter().sum();
    let f = |x: u32| match (wildcard, is_blank(x)) {
        (false, _) => single[x as usize],
        (true, true) => n,
        (true, false) => single[x as usize] + alpha * blank_single,
    };
    let f_sa = |x: u32, v: u32, own: f64| {
        if !wildcard {
            return own;
        }
        // Other values y of `a` with the same SA value, weighted by omega.
        own + pairs
            .iter()
            .filter(|&&(y, w, _)| w == v && y != x && (is_blank(x) || is_blank(y)))
            .map(|&(y, _, c)| if is_blank(y) { alpha } else { 1.0 } * c)
            .sum::<f64>()
    };
    let mut acc = Acc::default();
    for &(x, v, c) in pairs {
        acc.add(f_sa(x, v, c) / f(x), c);
    }
    acc.spread()
}

/// Up to this many (value of `a`, SA value) cells, [`value_pairs`] counts in an array (8 MB)
/// rather than a hash table.
const DENSE_PAIRS: usize = 1 << 20;

/// What [`attr`] reads of one QI `a`: records per (value of `a`, SA value) present, in
/// ascending order of the pair, and per value of `a` (indexed by code).
pub struct ValuePairs {
    pairs: Vec<(u32, u32, f64)>,
    single: Vec<f64>,
}

/// The [`ValuePairs`] of every QI of `table`. A QI with at most [`DENSE_PAIRS`] possible pairs
/// is counted in an array indexed by the pair (no hashing: measured at 10 % of a browser audit
/// with two sensitive columns, by hash table), several QIs in one pass over the classes while
/// their arrays total at most [`DENSE_PAIRS`] cells (one pass instead of one a QI: 157 -> 64 ms
/// of the hospital table's audit in wasm); the others in a hash table each.
pub fn value_pairs(dist: &Distributions, table: &ClassTable) -> Vec<ValuePairs> {
    let nv = dist.q_counts.len();
    let values: Vec<usize> = (0..table.q()).map(|a| table.dict(a).len()).collect();
    let dense: Vec<usize> = (0..table.q()).filter(|&a| values[a].saturating_mul(nv) <= DENSE_PAIRS).collect();
    let mut out: Vec<ValuePairs> = values.iter().map(|&n| ValuePairs { pairs: Vec::new(), single: vec![0.0; n] }).collect();
    let mut rest = &dense[..];
    while !rest.is_empty() {
        let (mut take, mut total) = (0, 0);
        while take < rest.len() && total + values[rest[take]] * nv <= DENSE_PAIRS {
            total += values[rest[take]] * nv;
            take += 1;
        }
        let (pass, after) = rest.split_at(take);
        rest = after;
        let mut cells: Vec<Vec<u64>> = pass.iter().map(|&a| vec![0u64; values[a] * nv]).collect();
        for d in dist.classes() {
            for (&a, cells) in pass.iter().zip(&mut cells) {
                let x = table.code_at(d.class as usize, a) as usize;
                let single = &mut out[a].single[x];
                for &(v, n) in d.own {
                    cells[x * nv + v as usize] += n;
                    *single += n as f64;
                }
            }
        }
        for (&a, cells) in pass.iter().zip(cells) {
            out[a].pairs = cells.iter().enumerate().filter(|&(_, &c)| c > 0).map(|(i, &c)| ((i / nv) as u32, (i % nv) as u32, c as f64)).collect();
        }
    }
    for (a, counts) in out.iter_mut().enumerate().filter(|(a, _)| !dense.contains(a)) {
        let mut pair: Map<(u32, u32), f64> = map();
        for d in dist.classes() {
            let x = table.code_at(d.class as usize, a);
            for &(v, n) in d.own {
                *pair.entry((x, v)).or_insert(0.0) += n as f64;
                counts.single[x as usize] += n as f64;
            }
        }
        counts.pairs = pair.into_iter().map(|((x, v), c)| (x, v, c)).collect();
        counts.pairs.sort_unstable_by_key(|p| (p.0, p.1));
    }
    out
}

/// `R_mm(i) = 1 - (f_A(i)/n)(1 - R_uf(i;A))(1 - R_co(i;A))(1 - f_SA(i,pers)/f_SA(i))`; `None`
/// under `wildcard` (not supported: the person-restricted counts there need every record).
pub fn markov(sa: &SensitiveSummary, dist: &Distributions, table: &ClassTable, persons: Option<&Persons>) -> Option<Spread> {
    if table.policy() == MissingPolicy::Wildcard {
        return None;
    }
    let n = table.records() as f64;
    let mut acc = Acc::default();
    let q = |v: u32| dist.q_counts[v as usize] as f64;
    match (persons, &sa.triples) {
        (Some(p), Some(triples)) => {
            let mut value_person: Map<(u32, u32), f64> = map();
            for (&(_, v, pid), &c) in triples {
                *value_person.entry((v, pid)).or_insert(0.0) += f64::from(c);
            }
            let mut rows: Vec<_> = triples.iter().map(|(&k, &c)| (k, c)).collect();
            rows.sort_unstable();
            for ((c, v, pid), count) in rows {
                let f = table.count(c as usize) as f64;
                let r_uf = f64::from(p.by_class[&(c, pid)]) / f;
                let r_co = f64::from(sa.pairs.get(c, v)) / f;
                let r_sa = value_person[&(v, pid)] / q(v);
                acc.add(1.0 - (f / n) * (1.0 - r_uf) * (1.0 - r_co) * (1.0 - r_sa), f64::from(count));
            }
        }
        _ => {
            for d in dist.classes() {
                let f = table.count(d.class as usize) as f64;
                for &(v, count) in d.own {
                    let r_co = count as f64 / f;
                    acc.add(1.0 - (f / n) * (1.0 - 1.0 / f) * (1.0 - r_co) * (1.0 - 1.0 / q(v)), count as f64);
                }
            }
        }
    }
    Some(acc.spread())
}
