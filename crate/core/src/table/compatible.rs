//! The compatible keys of the `wildcard` policy (spec identity-risk.md Sec 1.3, README Sec 7:
//! a blank QI value matches any value) summed in time proportional to the keys times their
//! blank patterns, not to the keys squared.
//!
//! Two keys are compatible when they agree on every QI where neither is blank. Keys are grouped
//! by their blank pattern (the QIs where they are blank); for a pair of patterns, blanking the
//! QIs blank in either turns compatibility into equality, so one hash of projected keys (those
//! of the smaller group), with the other group's masses summed, answers every key of the second.

use crate::hash::{Map, map};
use crate::table::dictionary::{MISSING, is_blank};

/// What is summed over compatible keys: a record count, a weight, a distribution.
pub trait Mass: Default {
    /// Adds `other`.
    fn add(&mut self, other: &Self);
    /// Takes away `other`, once added (exact for counts).
    fn sub(&mut self, other: &Self);
    /// Puts a sum made by many [`Mass::add`]s in its final form, before it is read.
    fn finish(&mut self) {}
}

impl Mass for f64 {
    fn add(&mut self, other: &Self) {
        *self += other;
    }
    fn sub(&mut self, other: &Self) {
        *self -= other;
    }
}

/// Records per code (an SA value, a person) of some keys: appended as summed, then sorted by
/// code and merged, zeros left out, once summed.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Counts(pub Vec<(u32, i64)>);

impl Mass for Counts {
    fn add(&mut self, other: &Self) {
        self.0.extend_from_slice(&other.0);
    }
    fn sub(&mut self, other: &Self) {
        self.0.extend(other.0.iter().map(|&(v, n)| (v, -n)));
    }
    fn finish(&mut self) {
        self.0.sort_unstable_by_key(|c| c.0);
        let mut merged: Vec<(u32, i64)> = Vec::with_capacity(self.0.len());
        for &(v, n) in &self.0 {
            match merged.last_mut() {
                Some(last) if last.0 == v => last.1 += n,
                _ => merged.push((v, n)),
            }
        }
        merged.retain(|c| c.1 != 0);
        self.0 = merged;
    }
}

/// The masses of the other keys compatible with one key, those without a blank (weight 1 in
/// `omega`) and those with one (weight `alpha`) apart.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Others<M> {
    /// Sum over the compatible keys without a blank.
    pub complete: M,
    /// Sum over the other compatible keys with a blank.
    pub blank: M,
}

/// For each of `keys` (distinct), the masses of the other keys compatible with it.
pub fn others<M: Mass>(keys: &[Vec<u32>], mass: &[M]) -> Vec<Others<M>> {
    let mut out: Vec<Others<M>> = keys.iter().map(|_| Others::default()).collect();
    let Some(q) = keys.first().map(Vec::len) else { return out };
    let mut patterns: Vec<Vec<bool>> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut ids: Map<Vec<bool>, usize> = map();
    for (i, key) in keys.iter().enumerate() {
        let pattern: Vec<bool> = key.iter().map(|&c| is_blank(c)).collect();
        let id = *ids.entry(pattern.clone()).or_insert_with(|| {
            patterns.push(pattern);
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[id].push(i);
    }
    let mut buf = vec![0u32; q];
    let project = |buf: &mut Vec<u32>, key: &[u32], hidden: &[bool]| {
        for ((b, &c), &h) in buf.iter_mut().zip(key).zip(hidden) {
            *b = if h { MISSING } else { c };
        }
    };
    for (pj, from) in groups.iter().enumerate() {
        let blank = patterns[pj].contains(&true);
        for (pi, to) in groups.iter().enumerate() {
            // Two distinct complete keys never match.
            if !blank && !patterns[pi].contains(&true) {
                continue;
            }
            let hidden: Vec<bool> = patterns[pi].iter().zip(&patterns[pj]).map(|(&a, &b)| a || b).collect();
            // The smaller group's projections are hashed. When it is `to`, only the keys of
            // `from` that some key of `to` asks for are summed (the complete keys, by far the
            // most, are each looked up once per pattern; their masses are not copied).
            let mut sums: Map<Box<[u32]>, M> = map();
            let asked = to.len() < from.len();
            for &i in to.iter().filter(|_| asked) {
                project(&mut buf, &keys[i], &hidden);
                if !sums.contains_key(buf.as_slice()) {
                    sums.insert(buf.as_slice().into(), M::default());
                }
            }
            for &j in from {
                project(&mut buf, &keys[j], &hidden);
                match sums.get_mut(buf.as_slice()) {
                    Some(s) => s.add(&mass[j]),
                    None if !asked => {
                        let mut s = M::default();
                        s.add(&mass[j]);
                        sums.insert(buf.as_slice().into(), s);
                    }
                    None => {}
                }
            }
            sums.values_mut().for_each(M::finish);
            for &i in to {
                project(&mut buf, &keys[i], &hidden);
                let Some(s) = sums.get(buf.as_slice()) else { continue };
                let o = &mut out[i];
                if blank {
                    o.blank.add(s);
                    // A key is in its own pattern's sum: only the others count.
                    if pi == pj {
                        o.blank.sub(&mass[i]);
                    }
                } else {
                    o.complete.add(s);
                }
            }
        }
    }
    for o in &mut out {
        o.complete.finish();
        o.blank.finish();
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::table::classes::{MissingPolicy, omega};

    /// The definition: every pair of keys through `omega`.
    fn by_pairs(keys: &[Vec<u32>], mass: &[f64]) -> Vec<Others<f64>> {
        (0..keys.len())
            .map(|i| {
                let mut o = Others::default();
                for j in (0..keys.len()).filter(|&j| j != i) {
                    // alpha 0 tells the blank keys apart (their weight) from complete ones.
                    match omega(&keys[i], &keys[j], MissingPolicy::Wildcard, 0.0) {
                        Some(w) if w == 1.0 => o.complete += mass[j],
                        Some(_) => o.blank += mass[j],
                        None => {}
                    }
                }
                o
            })
            .collect()
    }

    proptest! {
        #[test]
        fn the_sums_by_pattern_are_the_sums_over_every_pair(
            rows in prop::collection::vec((prop::collection::vec(0u32..5, 3), 1u32..4), 0..40),
        ) {
            // Codes 0 and 1 are the two blanks (MISSING, SUPPRESSED): they match each other.
            let mut keys: Vec<Vec<u32>> = Vec::new();
            let mut mass: Vec<f64> = Vec::new();
            for (key, n) in rows {
                if !keys.contains(&key) {
                    keys.push(key);
                    mass.push(f64::from(n));
                }
            }
            prop_assert_eq!(others(&keys, &mass), by_pairs(&keys, &mass));
        }
    }
}
