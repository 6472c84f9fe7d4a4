//! Equivalence classes over the quasi-identifiers (spec identity-risk.md Sec 1): the streaming
//! summary of the identity family.
//!
//! Each record in scope adds 1 to the count of its key, a tuple of dictionary codes. Keys are
//! stored flat (q codes each) with a hash index of positions: about `4q + 8` bytes a class.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use super::dictionary::{Dictionary, SUPPRESSED, is_blank};
use crate::hash::Fixed;
use crate::ingest::cell::Cell;

/// Missing-value policy (spec README Sec 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingPolicy {
    /// Blank cells are ordinary values.
    #[default]
    Ordinary,
    /// A blank QI value matches any value of that QI.
    Wildcard,
    /// Rows with a blank QI value are removed.
    Drop,
}

/// The streaming summary: counts per key, and the records removed from scope.
#[derive(Debug, Clone)]
pub struct ClassTable {
    q: usize,
    exclude_suppressed: bool,
    policy: MissingPolicy,
    dicts: Vec<Dictionary>,
    keys: Vec<u32>,
    counts: Vec<u64>,
    index: HashTable<u32>,
    hasher: Fixed,
    /// Rows seen.
    pub rows_total: u64,
    /// Rows whose QI cells are all `SUPPRESSED`.
    pub suppressed: u64,
    /// Rows removed by `drop` (and not already removed as all-suppressed).
    pub dropped: u64,
}

impl ClassTable {
    /// An empty table for `q` quasi-identifiers.
    pub fn new(q: usize, policy: MissingPolicy, exclude_suppressed: bool) -> Self {
        ClassTable {
            q,
            exclude_suppressed,
            policy,
            dicts: vec![Dictionary::default(); q],
            keys: Vec::new(),
            counts: Vec::new(),
            index: HashTable::new(),
            hasher: Fixed::with_seed(0x5eed),
            rows_total: 0,
            suppressed: 0,
            dropped: 0,
        }
    }

    /// The code of `cell` in the dictionary of QI `a`.
    pub fn code(&mut self, a: usize, cell: Cell<'_>) -> u32 {
        self.dicts[a].code(cell)
    }

    /// Absorbs the key of one row: its QI codes in QI order (from [`ClassTable::code`]).
    pub fn absorb(&mut self, key: &[u32]) {
        self.rows_total += 1;
        let all_suppressed = key.iter().all(|&c| c == SUPPRESSED);
        if all_suppressed {
            self.suppressed += 1;
            if self.exclude_suppressed {
                return;
            }
        }
        if self.policy == MissingPolicy::Drop && key.iter().any(|&c| is_blank(c)) {
            self.dropped += 1;
            return;
        }
        self.add(key, 1);
    }

    fn add(&mut self, key: &[u32], n: u64) {
        let hash = self.hasher.hash_one(key);
        let (q, keys) = (self.q, &self.keys);
        let found = self.index.find(hash, |&i| &keys[i as usize * q..(i as usize + 1) * q] == key);
        match found {
            Some(&i) => self.counts[i as usize] += n,
            None => {
                let i = u32::try_from(self.counts.len()).expect("fewer than 4 billion classes");
                self.keys.extend_from_slice(key);
                self.counts.push(n);
                let (hasher, keys) = (&self.hasher, &self.keys);
                self.index.insert_unique(hash, i, |&j| hasher.hash_one(&keys[j as usize * q..(j as usize + 1) * q]));
            }
        }
    }

    /// Merges the table of another part of the same file (same QIs and settings).
    pub fn merge(&mut self, other: ClassTable) {
        let maps: Vec<Vec<u32>> = self.dicts.iter_mut().zip(&other.dicts).map(|(d, o)| d.absorb(o)).collect();
        let mut key = vec![0; self.q];
        for (i, &n) in other.counts.iter().enumerate() {
            for (a, k) in key.iter_mut().enumerate() {
                *k = maps[a][other.keys[i * self.q + a] as usize];
            }
            self.add(&key, n);
        }
        self.rows_total += other.rows_total;
        self.suppressed += other.suppressed;
        self.dropped += other.dropped;
    }

    /// Number of distinct keys `K`.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether no record is in scope.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Records in scope `n`.
    pub fn records(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The key of class `i`.
    pub fn key(&self, i: usize) -> &[u32] {
        &self.keys[i * self.q..(i + 1) * self.q]
    }

    /// Records of class `i`.
    pub fn count(&self, i: usize) -> u64 {
        self.counts[i]
    }

    /// The dictionary of QI `a`.
    pub fn dict(&self, a: usize) -> &Dictionary {
        &self.dicts[a]
    }

    /// The policy the table was built under.
    pub fn policy(&self) -> MissingPolicy {
        self.policy
    }

    /// `f` of each key (spec identity-risk.md Sec 1.3): the class size under `ordinary` and
    /// `drop`; under `wildcard` the (alpha-weighted) count of compatible records, with
    /// sdcMicro's rule that an all-blank key gets `f = n`.
    pub fn match_counts(&self, alpha: f64) -> Vec<f64> {
        let mut f: Vec<f64> = self.counts.iter().map(|&c| c as f64).collect();
        if self.policy != MissingPolicy::Wildcard {
            return f;
        }
        let n = self.records() as f64;
        let blank: Vec<usize> = (0..self.len()).filter(|&i| self.key(i).iter().any(|&c| is_blank(c))).collect();
        let compatible = |i: usize, j: usize| {
            self.key(i).iter().zip(self.key(j)).all(|(&a, &b)| a == b || is_blank(a) || is_blank(b))
        };
        for i in 0..self.len() {
            let key = self.key(i);
            if key.iter().all(|&c| c <= SUPPRESSED) {
                f[i] = n;
                continue;
            }
            let i_blank = key.iter().any(|&c| is_blank(c));
            // Complete keys are compatible with a complete key only when equal.
            let mut sum = 0.0;
            if i_blank {
                for j in (0..self.len()).filter(|&j| j != i && compatible(i, j)) {
                    let w = if blank.binary_search(&j).is_ok() { alpha } else { 1.0 };
                    sum += w * self.counts[j] as f64;
                }
            } else {
                for &j in blank.iter().filter(|&&j| compatible(i, j)) {
                    sum += alpha * self.counts[j] as f64;
                }
            }
            f[i] += sum;
        }
        f
    }
}
