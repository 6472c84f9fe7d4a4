//! The compatible keys of the `wildcard` policy (spec identity-risk.md Sec 1.3, README Sec 7:
//! a blank QI value matches any value) summed in time proportional to the keys times their
//! blank patterns, not to the keys squared.
//!
//! Two keys are compatible when they agree on every QI where neither is blank. Keys are grouped
//! by their blank pattern (the QIs where they are blank); for a pair of patterns, blanking the
//! QIs blank in either turns compatibility into equality, so one hash of one group's projected
//! keys, with their masses summed, answers every key of the other. The complete keys, by far the
//! most, are each looked up once per blank pattern (both ways at once); a projection's hash is
//! the key's hash less the hidden QIs' parts, so no projected key is built.

use hashbrown::HashTable;

use crate::hash::{Map, folded_multiply, map};
use crate::table::dictionary::is_blank;

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

/// Projected keys, hashed without copying them: a key's hash is the sum of one word per QI
/// (`part`), so a projection's hash is the key's whole sum less the parts of the QIs hidden.
struct Keys {
    /// The keys' codes, one key after the other (read in order as the complete keys are).
    codes: Vec<u32>,
    q: usize,
    whole: Vec<u64>,
}

impl Keys {
    fn new(keys: &[Vec<u32>], q: usize) -> Self {
        let codes: Vec<u32> = keys.iter().flatten().copied().collect();
        let whole = codes.chunks_exact(q).map(|k| k.iter().enumerate().fold(0u64, |h, (a, &c)| h.wrapping_add(part(a, c)))).collect();
        Keys { codes, q, whole }
    }

    fn key(&self, i: usize) -> &[u32] {
        &self.codes[i * self.q..(i + 1) * self.q]
    }

    /// The hash of key `i` with the QIs `hidden` (their positions) left out.
    fn hash(&self, i: usize, hidden: &[usize]) -> u64 {
        let key = self.key(i);
        hidden.iter().fold(self.whole[i], |h, &a| h.wrapping_sub(part(a, key[a])))
    }

    /// Whether keys `i` and `j` agree outside `hidden`.
    fn same(&self, i: usize, j: usize, hidden: &[bool]) -> bool {
        self.key(i).iter().zip(self.key(j)).zip(hidden).all(|((a, b), &h)| h || a == b)
    }
}

/// Keys indexed by their projection (the QIs `hidden` left out): a slot per distinct one.
#[derive(Default)]
struct Projections {
    /// Slots by the projection's hash.
    slots: HashTable<u32>,
    /// A key of each slot and the slot's hash.
    reps: Vec<(usize, u64)>,
}

impl Projections {
    /// The slot of key `i`'s projection, if some key indexed has it.
    fn find(&self, keys: &Keys, i: usize, hidden: &Hidden) -> Option<u32> {
        let h = keys.hash(i, &hidden.at);
        self.slots.find(h, |&s| keys.same(self.reps[s as usize].0, i, &hidden.mask)).copied()
    }

    /// The slot of key `i`'s projection, made when it is the first.
    fn slot(&mut self, keys: &Keys, i: usize, hidden: &Hidden) -> u32 {
        if let Some(slot) = self.find(keys, i, hidden) {
            return slot;
        }
        let h = keys.hash(i, &hidden.at);
        let slot = self.reps.len() as u32;
        self.reps.push((i, h));
        let reps = &self.reps;
        self.slots.insert_unique(h, slot, |&s| reps[s as usize].1);
        slot
    }

    /// The masses of `from` summed by slot and finished: every key's when `make`, else only
    /// the keys whose projection is indexed already.
    fn sums<M: Mass>(&mut self, keys: &Keys, from: &[usize], mass: &[M], hidden: &Hidden, make: bool) -> Vec<M> {
        let mut sums: Vec<M> = self.reps.iter().map(|_| M::default()).collect();
        for &j in from {
            let slot = if make { Some(self.slot(keys, j, hidden)) } else { self.find(keys, j, hidden) };
            let Some(slot) = slot else { continue };
            if slot as usize == sums.len() {
                sums.push(M::default());
            }
            sums[slot as usize].add(&mass[j]);
        }
        sums.iter_mut().for_each(M::finish);
        sums
    }
}

/// The QIs left out of a projection: as a mask, and their positions.
struct Hidden {
    mask: Vec<bool>,
    at: Vec<usize>,
}

impl Hidden {
    fn new(mask: Vec<bool>) -> Self {
        let at = mask.iter().enumerate().filter(|&(_, &h)| h).map(|(a, _)| a).collect();
        Hidden { mask, at }
    }
}

/// The word code `c` of QI `a` adds to a key's hash.
fn part(a: usize, c: u32) -> u64 {
    folded_multiply(u64::from(c) | (a as u64) << 32, 0x9e37_79b9_7f4a_7c15)
}

/// For each of `keys` (distinct), the masses of the other keys compatible with it.
pub fn others<M: Mass>(keys: &[Vec<u32>], mass: &[M]) -> Vec<Others<M>> {
    let mut out: Vec<Others<M>> = keys.iter().map(|_| Others::default()).collect();
    let Some(q) = keys.first().map(Vec::len) else { return out };
    let mut patterns: Vec<Vec<bool>> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut ids: Map<Vec<bool>, usize> = map();
    let mut pattern = vec![false; q];
    for (i, key) in keys.iter().enumerate() {
        pattern.iter_mut().zip(key).for_each(|(p, &c)| *p = is_blank(c));
        let id = match ids.get(pattern.as_slice()) {
            Some(&id) => id,
            None => {
                ids.insert(pattern.clone(), groups.len());
                patterns.push(pattern.clone());
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        groups[id].push(i);
    }
    let keys = Keys::new(keys, q);
    // Two distinct complete keys never match: every pair of groups but that one is summed.
    let complete = patterns.iter().position(|p| !p.contains(&true));
    for (pb, group) in groups.iter().enumerate().filter(|&(p, _)| Some(p) != complete) {
        // The complete keys (by far the most) and this pattern's, both ways in one pass over
        // the complete keys, each looked up among this pattern's projections.
        if let Some(c) = complete {
            let hidden = Hidden::new(patterns[pb].clone());
            let mut index = Projections::default();
            let sums = index.sums(&keys, group, mass, &hidden, true);
            let mut matched: Vec<M> = sums.iter().map(|_| M::default()).collect();
            for &j in &groups[c] {
                if let Some(s) = index.find(&keys, j, &hidden) {
                    out[j].blank.add(&sums[s as usize]);
                    matched[s as usize].add(&mass[j]);
                }
            }
            matched.iter_mut().for_each(M::finish);
            for &i in group {
                let s = index.find(&keys, i, &hidden).expect("indexed above");
                out[i].complete.add(&matched[s as usize]);
            }
        }
        // Every blank pattern's keys summed for this one's, the QIs blank in either hidden.
        // The smaller group is indexed: when it is this one, only the projections it asks for
        // are summed.
        for (pa, from) in groups.iter().enumerate().filter(|&(p, _)| Some(p) != complete) {
            let hidden = Hidden::new(patterns[pa].iter().zip(&patterns[pb]).map(|(&a, &b)| a || b).collect());
            let mut index = Projections::default();
            let asked = group.len() < from.len();
            if asked {
                group.iter().for_each(|&i| _ = index.slot(&keys, i, &hidden));
            }
            let sums = index.sums(&keys, from, mass, &hidden, !asked);
            for &i in group {
                let Some(s) = index.find(&keys, i, &hidden) else { continue };
                out[i].blank.add(&sums[s as usize]);
                // A key is in its own pattern's sum: only the others count.
                if pa == pb {
                    out[i].blank.sub(&mass[i]);
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
                        Some(1.0) => o.complete += mass[j],
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
