//! Equivalence classes over the quasi-identifiers (spec identity-risk.md Sec 1): the streaming
//! summary of the identity family.
//!
//! Each record in scope adds 1 to the count of its key, a tuple of dictionary codes. Keys are
//! bit-packed (see `packing`) and stored flat with a hash index of positions: about 18 bytes
//! a class when the key fits one word.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use super::dictionary::{Dictionary, SUPPRESSED, is_blank};
use super::packing::Packing;
use crate::error::{Error, Result};
use crate::hash::Fixed;
use crate::ingest::cell::Cell;

/// Where the classes and codes of a merged table went.
pub struct Remap {
    /// New class index of each of the other table's classes.
    pub classes: Vec<u32>,
    /// Per QI, the new code of each of the other table's codes.
    pub codes: Vec<Vec<u32>>,
}

/// `omega(i, j)` of spec identity-risk.md Sec 1.3: the weight of key `kj`'s records in the
/// count of key `ki`, or `None` when the keys do not match (`alpha` only under `wildcard`).
pub fn omega(ki: &[u32], kj: &[u32], policy: MissingPolicy, alpha: f64) -> Option<f64> {
    if ki == kj {
        return Some(1.0);
    }
    if policy != MissingPolicy::Wildcard {
        return None;
    }
    let compatible = ki.iter().zip(kj).all(|(&x, &y)| x == y || is_blank(x) || is_blank(y));
    compatible.then(|| if kj.iter().any(|&c| is_blank(c)) { alpha } else { 1.0 })
}

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
    packing: Packing,
    keys: Vec<u64>,
    counts: Vec<u32>,
    weights: Option<Vec<f64>>,
    /// Per class: the first word of its key (compared without reading `keys`) and its index.
    index: HashTable<(u64, u32)>,
    hasher: Fixed,
    scratch: Vec<u64>,
    budget: u64,
    /// Per QI, the rank of each code in the order of [`Dictionary::sort_key`] (computed when
    /// first needed; forgotten when a value is added).
    ranks: std::sync::OnceLock<Vec<Vec<u32>>>,
    /// Per class, its ranks packed QI by QI (the first QI highest): one integer comparison
    /// orders two classes by value. `None` when they do not fit 64 bits. Forgotten when a
    /// class or a value is added.
    order: std::sync::OnceLock<Option<Vec<u64>>>,
    /// Rows seen.
    pub rows_total: u64,
    /// Rows whose QI cells are all `SUPPRESSED`.
    pub suppressed: u64,
    /// Rows removed by `drop` (and not already removed as all-suppressed).
    pub dropped: u64,
}

impl ClassTable {
    /// An empty table for `q` quasi-identifiers; `weighted` keeps the sum of a weight per class.
    pub fn new(q: usize, policy: MissingPolicy, exclude_suppressed: bool, weighted: bool) -> Self {
        let packing = Packing::new(vec![2; q]);
        ClassTable {
            q,
            exclude_suppressed,
            policy,
            dicts: vec![Dictionary::default(); q],
            scratch: vec![0; packing.words()],
            packing,
            keys: Vec::new(),
            counts: Vec::new(),
            weights: weighted.then(Vec::new),
            index: HashTable::new(),
            hasher: Fixed::with_seed(0x5eed),
            budget: u64::MAX,
            ranks: std::sync::OnceLock::new(),
            order: std::sync::OnceLock::new(),
            rows_total: 0,
            suppressed: 0,
            dropped: 0,
        }
    }

    /// Limits the memory the classes may take, in bytes (checked before each growth).
    pub fn set_budget(&mut self, bytes: u64) {
        self.budget = bytes;
    }

    /// The memory the classes would take with room for `classes` of them: keys, counts,
    /// weights and the hash index.
    fn memory_for(&self, classes: usize) -> u64 {
        let per = self.packing.words() * 8 + 4 + if self.weights.is_some() { 8 } else { 0 } + 17;
        (classes * per) as u64
    }

    /// The code of `cell` in the dictionary of QI `a`.
    pub fn code(&mut self, a: usize, cell: Cell<'_>) -> u32 {
        let before = self.dicts[a].len();
        let c = self.dicts[a].code(cell);
        if self.dicts[a].len() != before {
            self.ranks = std::sync::OnceLock::new();
            self.order = std::sync::OnceLock::new();
        }
        c
    }

    /// Per QI, the rank of each code by value (blanks first, then text by code point).
    fn ranks(&self) -> &[Vec<u32>] {
        self.ranks.get_or_init(|| {
            self.dicts
                .iter()
                .map(|d| {
                    let mut order: Vec<u32> = (0..d.len() as u32).collect();
                    order.sort_unstable_by(|&x, &y| d.sort_key(x).cmp(&d.sort_key(y)));
                    let mut rank = vec![0u32; order.len()];
                    for (r, &c) in order.iter().enumerate() {
                        rank[c as usize] = r as u32;
                    }
                    rank
                })
                .collect()
        })
    }

    /// Per class, its value ranks packed into one integer, QI by QI, when they fit.
    fn order_keys(&self) -> Option<&[u64]> {
        self.order
            .get_or_init(|| {
                let ranks = self.ranks();
                let bits: Vec<u32> = self.dicts.iter().map(|d| 64 - (d.len() as u64).leading_zeros()).collect();
                if bits.iter().sum::<u32>() > 64 {
                    return None;
                }
                let key = |i: usize| (0..self.q).fold(0u64, |k, a| (k << bits[a]) | u64::from(ranks[a][self.code_at(i, a) as usize]));
                Some((0..self.len()).map(key).collect())
            })
            .as_deref()
    }

    /// The rank of a code of QI `a` among that QI's values (the order of
    /// [`ClassTable::cmp_values`]).
    pub fn value_rank(&self, a: usize, code: u32) -> u32 {
        self.ranks()[a][code as usize]
    }

    /// Absorbs the key of one row (its QI codes in QI order, from [`ClassTable::code`]) with
    /// its weight (ignored unless the table is weighted). Returns the row's class, or `None`
    /// when the row is out of scope (all-suppressed, or dropped).
    pub fn absorb(&mut self, key: &[u32], weight: f64) -> Result<Option<u32>> {
        self.rows_total += 1;
        let all_suppressed = key.iter().all(|&c| c == SUPPRESSED);
        if all_suppressed {
            self.suppressed += 1;
            if self.exclude_suppressed {
                return Ok(None);
            }
        }
        if self.policy == MissingPolicy::Drop && key.iter().any(|&c| is_blank(c)) {
            self.dropped += 1;
            return Ok(None);
        }
        self.add(key, 1, weight).map(Some)
    }

    fn add(&mut self, codes: &[u32], n: u32, weight: f64) -> Result<u32> {
        if let Some(wider) = self.packing.widened_for(codes) {
            self.repack(wider);
        }
        let mut key = std::mem::take(&mut self.scratch);
        self.packing.pack(codes, &mut key);
        let hash = self.hasher.hash_one(&key);
        let (w, keys) = (self.packing.words(), &self.keys);
        // (A key of no QI has no word: its first word reads as 0.)
        let first = key.first().copied().unwrap_or(0);
        let found = self.index.find(hash, |&(k0, i)| k0 == first && (w == 1 || keys[i as usize * w..(i as usize + 1) * w] == key[..]));
        let r = match found {
            Some(&(_, i)) => match self.counts[i as usize].checked_add(n) {
                Some(c) => {
                    self.counts[i as usize] = c;
                    if let Some(w) = &mut self.weights {
                        w[i as usize] += weight;
                    }
                    Ok(i)
                }
                None => Err(Error::input("too_many_rows", "a class holds more than 4,294,967,295 rows, more than this tool counts")),
            },
            None => {
                let i = u32::try_from(self.counts.len()).map_err(|_| Error::input("too_many_classes", "the file has more than 4 billion distinct keys"))?;
                if self.counts.len() == self.counts.capacity() && self.memory_for((self.counts.len() * 2).max(4)) > self.budget {
                    self.scratch = key;
                    return Err(Error::input(
                        "memory_budget_exceeded",
                        format!(
                            "the equivalence classes would take more than the memory budget of {} MB ({} classes so far); choose fewer quasi-identifiers, or raise the memory budget",
                            self.budget / 1_000_000,
                            self.counts.len()
                        ),
                    ));
                }
                self.keys.extend_from_slice(&key);
                self.counts.push(n);
                if self.order.get().is_some() {
                    self.order = std::sync::OnceLock::new();
                }
                if let Some(ws) = &mut self.weights {
                    ws.push(weight);
                }
                let (hasher, keys) = (&self.hasher, &self.keys);
                self.index.insert_unique(hash, (first, i), |&(_, j)| hasher.hash_one(&keys[j as usize * w..(j as usize + 1) * w]));
                Ok(i)
            }
        };
        self.scratch = key;
        r
    }

    /// Moves every key to a wider packing and rebuilds the index.
    fn repack(&mut self, wider: Packing) {
        let (old_w, new_w) = (self.packing.words(), wider.words());
        let mut keys = Vec::with_capacity(self.counts.len() * new_w);
        let mut codes = vec![0; self.q];
        let mut word = vec![0; new_w];
        for old in self.keys.chunks_exact(old_w.max(1)).take(self.counts.len()) {
            for (a, c) in codes.iter_mut().enumerate() {
                *c = self.packing.code(old, a);
            }
            wider.pack(&codes, &mut word);
            keys.extend_from_slice(&word);
        }
        self.keys = keys;
        self.packing = wider;
        self.scratch = vec![0; new_w];
        self.index.clear();
        let (hasher, keys) = (&self.hasher, &self.keys);
        for i in 0..self.counts.len() {
            let hash = hasher.hash_one(&keys[i * new_w..(i + 1) * new_w]);
            let first = keys.get(i * new_w).copied().filter(|_| new_w > 0).unwrap_or(0);
            self.index.insert_unique(hash, (first, i as u32), |&(_, j)| hasher.hash_one(&keys[j as usize * new_w..(j as usize + 1) * new_w]));
        }
    }

    /// Merges the table of another part of the same file (same QIs and settings). Returns
    /// where `other`'s classes and codes went, for the summaries keyed by them.
    pub fn merge(&mut self, other: ClassTable) -> Result<Remap> {
        self.ranks = std::sync::OnceLock::new();
        self.order = std::sync::OnceLock::new();
        let codes: Vec<Vec<u32>> = self.dicts.iter_mut().zip(&other.dicts).map(|(d, o)| d.absorb(o)).collect();
        let mut key = vec![0; self.q];
        let mut classes = Vec::with_capacity(other.len());
        for i in 0..other.len() {
            for (a, k) in key.iter_mut().enumerate() {
                *k = codes[a][other.code_at(i, a) as usize];
            }
            classes.push(self.add(&key, other.counts[i], other.weight(i))?);
        }
        self.rows_total += other.rows_total;
        self.suppressed += other.suppressed;
        self.dropped += other.dropped;
        Ok(Remap { classes, codes })
    }

    /// The class of these codes, if it exists.
    pub fn find(&self, codes: &[u32]) -> Option<usize> {
        if self.packing.widened_for(codes).is_some() {
            return None;
        }
        let mut key = vec![0; self.packing.words()];
        self.packing.pack(codes, &mut key);
        let w = self.packing.words();
        let hash = self.hasher.hash_one(&key);
        self.index.find(hash, |&(_, i)| self.keys[i as usize * w..(i as usize + 1) * w] == key[..]).map(|&(_, i)| i as usize)
    }

    /// Orders two classes by their values (blanks first, then text by code point), QI by
    /// QI: a tie-break that does not depend on row order.
    pub fn cmp_values(&self, a: usize, b: usize) -> std::cmp::Ordering {
        if let Some(order) = self.order_keys() {
            return order[a].cmp(&order[b]);
        }
        let ranks = self.ranks();
        (0..self.q)
            .map(|q| ranks[q][self.code_at(a, q) as usize].cmp(&ranks[q][self.code_at(b, q) as usize]))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    }

    /// Sum of the weights of class `i` (0 when the table is not weighted).
    pub fn weight(&self, i: usize) -> f64 {
        self.weights.as_ref().map_or(0.0, |w| w[i])
    }

    /// Whether the table keeps weights.
    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    /// The packed key of class `i` and the packing (for projections onto QI subsets).
    pub fn packed(&self, i: usize) -> &[u64] {
        let w = self.packing.words();
        &self.keys[i * w..(i + 1) * w]
    }

    /// The packing of the keys.
    pub fn packing(&self) -> &Packing {
        &self.packing
    }

    /// Number of quasi-identifiers.
    pub fn q(&self) -> usize {
        self.q
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
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }

    /// The code of QI `a` in the key of class `i`.
    pub fn code_at(&self, i: usize, a: usize) -> u32 {
        let w = self.packing.words();
        self.packing.code(&self.keys[i * w..(i + 1) * w], a)
    }

    /// The codes of the key of class `i`.
    pub fn key(&self, i: usize) -> Vec<u32> {
        (0..self.q).map(|a| self.code_at(i, a)).collect()
    }

    /// Records of class `i`.
    pub fn count(&self, i: usize) -> u64 {
        u64::from(self.counts[i])
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
        self.match_sums(alpha, |j| f64::from(self.counts[j]))
    }

    /// Like [`ClassTable::match_counts`], summing `mass(j)` of the matching classes instead of
    /// their record counts (the weights, for sdcMicro's `Fk`).
    pub fn match_sums(&self, alpha: f64, mass: impl Fn(usize) -> f64) -> Vec<f64> {
        let mut f: Vec<f64> = (0..self.len()).map(&mass).collect();
        if self.policy != MissingPolicy::Wildcard {
            return f;
        }
        let total: f64 = f.iter().sum();
        let keys: Vec<Vec<u32>> = (0..self.len()).map(|i| self.key(i)).collect();
        let blank: Vec<usize> = (0..self.len()).filter(|&j| keys[j].iter().any(|&c| is_blank(c))).collect();
        for (i, fi) in f.iter_mut().enumerate() {
            let key = &keys[i];
            // sdcMicro: an all-blank key matches the whole table.
            if key.iter().all(|&c| is_blank(c)) {
                *fi = total;
                continue;
            }
            // A complete key matches another complete key only when equal: only blank keys can add.
            let others: Box<dyn Iterator<Item = usize>> =
                if blank.binary_search(&i).is_ok() { Box::new(0..self.len()) } else { Box::new(blank.iter().copied()) };
            *fi += others
                .filter(|&j| j != i)
                .filter_map(|j| omega(key, &keys[j], MissingPolicy::Wildcard, alpha).map(|w| w * mass(j)))
                .sum::<f64>();
        }
        f
    }
}
