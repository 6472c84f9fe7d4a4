//! Equivalence classes over the quasi-identifiers (spec identity-risk.md Sec 1): the streaming
//! summary of the identity family.
//!
//! Each record in scope adds 1 to the count of its key, a tuple of dictionary codes. Keys are
//! bit-packed (see `packing`) and stored flat with a hash index of positions: 12 bytes a
//! class when the key fits one word, plus 9 bytes a slot of the index (1 to 2 slots a class),
//! which is freed before the metrics run. A 2 GB file of 19 million rows and 14 million
//! distinct keys peaks under 550 MB, on one core or two.

use std::hash::BuildHasher;

use super::class_index::{ClassIndex, PREFETCHES, prefetch};
use super::dictionary::{Dictionary, SUPPRESSED, is_blank};
use super::packing::{Packing, width};
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
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// Whether class `i` of `keys` (packed keys of `key.len()` words each) is `key`: one word
/// compared inline: a slice comparison calls `memcmp` (5 % of an audit of 8 QIs).
#[inline]
fn same_key(keys: &[u64], i: usize, key: &[u64]) -> bool {
    match key {
        [word] => keys[i] == *word,
        _ => keys[i * key.len()..(i + 1) * key.len()] == *key,
    }
}

/// Whether adding class `i` checks the memory budget first, and for room for how many
/// classes: at the first class, then each time the classes reach a power of two from 4 (as a
/// vector of counts grows), for twice as many.
fn budget_step(i: usize) -> Option<usize> {
    (i == 0 || (i >= 4 && i.is_power_of_two())).then(|| (2 * i).max(4))
}

/// How many keys ahead a lookup asks for its memory: enough to cover a read from memory
/// with the work of the keys between.
const AHEAD: usize = 16;

/// Slots of a [`Lookahead`]: more than [`AHEAD`], a power of two.
const RING: usize = 2 * AHEAD;

/// The keys packed (and hashed, when the index needs the hash) [`AHEAD`] rows before their
/// lookup to ask for their memory, kept for the lookup itself: a key is packed and hashed
/// once, not twice.
struct Lookahead {
    /// Words of a packed key.
    words: usize,
    /// [`RING`] packed keys.
    keys: Vec<u64>,
    hashes: [Option<u64>; RING],
    /// Per slot: the row whose key it holds and the packing it was packed with
    /// ([`ClassTable::repacks`]); `usize::MAX`: none.
    rows: [(usize, u32); RING],
}

impl Lookahead {
    fn new() -> Self {
        Lookahead { words: 0, keys: Vec::new(), hashes: [None; RING], rows: [(usize::MAX, 0); RING] }
    }

    /// The packed key of row `r` and its hash if computed, when it was packed with packing
    /// number `packing`.
    fn get(&self, r: usize, packing: u32) -> Option<(&[u64], Option<u64>)> {
        let s = r % RING;
        (self.rows[s] == (r, packing)).then(|| (&self.keys[s * self.words..(s + 1) * self.words], self.hashes[s]))
    }
}

/// The rows of a whole range gathered for [`ClassTable::absorb_batch`]: each row in scope as
/// one word, its key packed above its row number (0-based in the range), with widths large
/// enough for every code the columns' dictionaries can give.
pub struct RowBatch {
    /// Each QI's `(shift, mask)` in a key (a word holds the key above `row_bits` bits of row).
    fields: Vec<(u32, u64)>,
    layout: Packing,
    row_bits: u32,
    /// Per QI, the largest code the layout holds, and the largest code pushed.
    most: Vec<u32>,
    largest: Vec<u32>,
    words: Vec<u64>,
    /// Rows pushed (in scope or not) and rows the batch was made for.
    rows: u32,
    room: u32,
}

impl RowBatch {
    /// Adds the rows whose codes are `columns[a][i]` (QI `a`, row `i`; columns of equal
    /// length), counting those out of scope in `table`.
    pub fn push(&mut self, table: &mut ClassTable, columns: &[Vec<u32>]) {
        debug_assert_eq!(columns.len(), table.q);
        let rows = columns.first().map_or(0, Vec::len);
        let columns: Vec<&[u32]> = columns.iter().map(|c| &c[..rows]).collect();
        for i in 0..rows {
            let (mut word, mut all_suppressed, mut any_blank) = (0, true, false);
            for ((column, largest), &(shift, _)) in columns.iter().zip(&mut self.largest).zip(&self.fields) {
                let c = column[i];
                *largest = (*largest).max(c);
                word |= u64::from(c) << shift;
                all_suppressed &= c == SUPPRESSED;
                any_blank |= is_blank(c);
            }
            let row = u64::from(self.rows);
            self.rows = self.rows.wrapping_add(1);
            if table.scope_of(all_suppressed, any_blank) {
                self.words.push(word << self.row_bits | row);
            }
        }
    }
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
    /// From key to class. Emptied by [`ClassTable::forget_index`] once no class is added.
    index: ClassIndex,
    hasher: Fixed,
    scratch: Vec<u64>,
    /// How many times the keys were re-packed (a key packed before with another packing is
    /// packed again).
    repacks: u32,
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
            repacks: 0,
            packing,
            keys: Vec::new(),
            counts: Vec::new(),
            weights: weighted.then(Vec::new),
            index: ClassIndex::default(),
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
    /// weights and the hash index (8 bytes a slot, at most 7/8 full).
    fn memory_for(&self, classes: usize) -> u64 {
        let per = self.packing.words() * 8 + 4 + if self.weights.is_some() { 8 } else { 0 } + 9;
        (classes * per) as u64
    }

    /// An error when room for `classes` would take more than the memory budget.
    fn check_budget(&self, classes: usize) -> Result<()> {
        self.check_budget_at(classes, self.counts.len())
    }

    /// [`ClassTable::check_budget`] with `so_far` classes.
    fn check_budget_at(&self, classes: usize, so_far: usize) -> Result<()> {
        if self.memory_for(classes) <= self.budget {
            return Ok(());
        }
        Err(Error::input(
            "memory_budget_exceeded",
            format!(
                "the equivalence classes would take more than the memory budget of {} MB ({so_far} classes so far); choose fewer quasi-identifiers, or raise the memory budget",
                self.budget / 1_000_000,
            ),
        ))
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
                let rank = |k: u64, a: usize, code: u64| (k << bits[a]) | u64::from(ranks[a][code as usize]);
                Some(match self.packing.one_word_fields() {
                    Some(fields) => {
                        self.keys[..self.len()].iter().map(|&w| fields.iter().enumerate().fold(0, |k, (a, &(s, m))| rank(k, a, (w >> s) & m))).collect()
                    }
                    None => (0..self.len()).map(|i| (0..self.q).fold(0, |k, a| rank(k, a, u64::from(self.code_at(i, a))))).collect(),
                })
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
        if !self.in_scope(key) {
            return Ok(None);
        }
        self.add(key, 1, weight).map(Some)
    }

    /// [`ClassTable::absorb`] of the rows of a block: `keys` holds their keys one after the
    /// other, `weights` their weights (empty when the table is not weighted). Pushes each
    /// row's class onto `classes`. On an error, the rows before the failing one are absorbed
    /// and the failing row's position comes with the error.
    ///
    /// The memory a row waits for is asked for a few rows ahead (the index's bucket of its
    /// key, then its class's count): when the classes outgrow the cache, those two reads are
    /// most of the cost of a row.
    pub fn absorb_rows(&mut self, keys: &[u32], weights: &[f64], classes: &mut Vec<Option<u32>>) -> std::result::Result<(), (usize, Error)> {
        debug_assert!(self.q > 0, "a table of no QI has one class and nothing to look up");
        let first = classes.len();
        let mut ahead = Lookahead::new();
        let mut failed = None;
        for (r, key) in keys.chunks_exact(self.q.max(1)).enumerate() {
            self.prefetch_ahead(keys, r, &mut ahead);
            if !self.in_scope(key) {
                classes.push(None);
                continue;
            }
            match self.class_of(key, ahead.get(r, self.repacks)) {
                Ok(c) => classes.push(Some(c)),
                Err(e) => {
                    failed = Some((r, e));
                    break;
                }
            }
        }
        let done = &classes[first..];
        for (r, class) in done.iter().enumerate() {
            if let Some(next) = done.get(r + AHEAD).copied().flatten() {
                prefetch(&self.counts[next as usize]);
            }
            if let Some(c) = *class {
                self.add_rows(c, 1, weights.get(r).copied().unwrap_or(0.0)).map_err(|e| (r, e))?;
            }
        }
        failed.map_or(Ok(()), Err)
    }

    /// A batch for the `rows` rows of a range, absorbed at once by sorting their keys instead
    /// of one lookup a row (a lookup waits for memory once the classes outgrow the cache; wasm
    /// cannot prefetch). `most[a]` bounds the codes of QI `a`. `None` when the table is not
    /// new and empty or is weighted, or when a key and a row number do not fit one word
    /// together.
    pub fn batch(&self, most: Vec<u32>, rows: usize) -> Option<RowBatch> {
        if self.q == 0 || !self.counts.is_empty() || self.rows_total > 0 || self.weights.is_some() {
            return None;
        }
        let room = u32::try_from(rows).ok()?;
        let row_bits = width(room.saturating_sub(1));
        let layout = Packing::new(most.iter().map(|&m| width(m).max(2)).collect());
        let fields = layout.one_word_fields().filter(|_| layout.width() + row_bits <= 64)?;
        let largest = vec![0; most.len()];
        Some(RowBatch { fields, layout, row_bits, most, largest, words: Vec::with_capacity(rows), rows: 0, room })
    }

    /// Absorbs a batch's rows: the same classes, numbered the same (by their first row), the
    /// same counts and the same packing as [`ClassTable::absorb_rows`] of its rows in order.
    /// Returns each row's class, `u32::MAX` for a row out of scope; on an error, the row that
    /// meets it one by one (the memory budget: the first row of the class that passes it), if
    /// a row does.
    /// The keys are radix-sorted with their row numbers below them; a run of one key is a
    /// class whose first word holds its first row (the sort is stable), and the runs sorted by
    /// first row number the classes. The index is left to be built when a class is next
    /// looked up.
    pub fn absorb_batch(&mut self, batch: RowBatch) -> std::result::Result<Vec<u32>, (Option<usize>, Error)> {
        let RowBatch { layout, fields, row_bits, most, largest, mut words, rows, room } = batch;
        if rows > room || largest.iter().zip(&most).any(|(l, m)| l > m) {
            let e = Error::internal("batch_overflow", "a batch of rows held more rows or larger codes than it was made for");
            return Err((None, e));
        }
        let mut scratch = Vec::new();
        crate::radix::radix_sort_words(&mut words, &mut scratch, row_bits, layout.width());
        let row_mask = (1u64 << row_bits) - 1;
        // Where each run starts in `words`, the runs by their first row, and each QI's largest
        // code in scope (the keys' fields shifted up by `row_bits`).
        let mut starts: Vec<u32> = Vec::new();
        let mut widest = vec![0u64; self.q];
        scratch.clear();
        for (i, &w) in words.iter().enumerate() {
            if i == 0 || w >> row_bits != words[i - 1] >> row_bits {
                scratch.push((w & row_mask) << 32 | starts.len() as u64);
                starts.push(i as u32);
                widest.iter_mut().zip(&fields).for_each(|(m, &(s, mask))| *m = (*m).max((w >> (s + row_bits)) & mask));
            }
        }
        starts.push(words.len() as u32);
        let runs = scratch.len();
        let mut by_first = std::mem::take(&mut scratch);
        crate::radix::radix_sort_words(&mut by_first, &mut scratch, 32, row_bits);
        // (The packing of the keys is one word from the first class on, as one by one.)
        let steps = std::iter::successors(Some(0usize), |&i| Some((2 * i).max(4))).take_while(|&i| i < runs);
        if let Some((i, e)) = steps.filter_map(|i| self.check_budget_at(budget_step(i).expect("a step"), i).err().map(|e| (i, e))).next() {
            return Err((Some((by_first[i] >> 32) as usize), e));
        }
        let mut class_of_run = vec![0u32; runs];
        for (class, &f) in by_first.iter().enumerate() {
            class_of_run[(f & 0xffff_ffff) as usize] = class as u32;
        }
        drop((by_first, scratch));
        // Each run's key in the packing the rows in scope need (as absorbing them one by one
        // widens it), its count and its rows' class.
        let packing = Packing::new(widest.iter().map(|&w| width(w as u32).max(2)).collect());
        let same = packing == layout;
        let mut codes = vec![0; self.q];
        self.keys = vec![0; runs * packing.words()];
        self.counts = vec![0; runs];
        let mut classes = vec![u32::MAX; rows as usize];
        for (r, run) in starts.windows(2).enumerate() {
            let class = class_of_run[r] as usize;
            let members = &words[run[0] as usize..run[1] as usize];
            let key = members[0] >> row_bits;
            let out = &mut self.keys[class * packing.words()..(class + 1) * packing.words()];
            if same {
                out[0] = key;
            } else {
                codes.iter_mut().zip(&fields).for_each(|(c, &(s, m))| *c = ((key >> s) & m) as u32);
                packing.pack(&codes, out);
            }
            self.counts[class] = members.len() as u32;
            for &w in members {
                classes[(w & row_mask) as usize] = class as u32;
            }
        }
        if packing != self.packing {
            self.scratch = vec![0; packing.words()];
            self.packing = packing;
            self.repacks = self.repacks.wrapping_add(1);
        }
        self.order = std::sync::OnceLock::new();
        Ok(classes)
    }

    /// Asks for the index's bucket of the key [`AHEAD`] keys after key `r` of `keys` (keys
    /// of `q` codes one after the other), keeping the packed key (and its hash) in `ahead`
    /// for its lookup.
    #[inline]
    fn prefetch_ahead(&self, keys: &[u32], r: usize, ahead: &mut Lookahead) {
        if !PREFETCHES {
            return;
        }
        let q = self.q;
        let row = r + AHEAD;
        if let Some(next) = keys.get(row * q..(row + 1) * q) {
            // (The packing may have widened since the last key.)
            let w = self.packing.words();
            if ahead.words != w {
                *ahead = Lookahead { words: w, keys: vec![0; RING * w], ..Lookahead::new() };
            }
            let s = row % RING;
            let key = &mut ahead.keys[s * w..(s + 1) * w];
            // (A key the packing does not hold yet packs wrongly: its lookup widens the
            // packing first, which makes this copy stale.)
            self.packing.pack(next, key);
            let mut hash = None;
            self.index.prefetch(self.index.probe(key, || *hash.insert(self.hasher.hash_one(&*key))));
            ahead.hashes[s] = hash;
            ahead.rows[s] = (row, self.repacks);
        }
    }

    /// Counts a row out of scope (all-suppressed, or dropped) or not; false when it is out.
    fn in_scope(&mut self, key: &[u32]) -> bool {
        self.scope_of(key.iter().all(|&c| c == SUPPRESSED), key.iter().any(|&c| is_blank(c)))
    }

    /// [`ClassTable::in_scope`] of a row whose QIs are all suppressed or not, and of which one
    /// is blank or none.
    #[inline]
    fn scope_of(&mut self, all_suppressed: bool, any_blank: bool) -> bool {
        self.rows_total += 1;
        if all_suppressed {
            self.suppressed += 1;
            if self.exclude_suppressed {
                return false;
            }
        }
        if self.policy == MissingPolicy::Drop && any_blank {
            self.dropped += 1;
            return false;
        }
        true
    }

    /// Adds `n` rows of weight `weight` in all to the class of `codes`.
    fn add(&mut self, codes: &[u32], n: u32, weight: f64) -> Result<u32> {
        let i = self.class_of(codes, None)?;
        self.add_rows(i, n, weight)?;
        Ok(i)
    }

    /// Adds `n` rows of weight `weight` in all to class `i`.
    fn add_rows(&mut self, i: u32, n: u32, weight: f64) -> Result<()> {
        let count = &mut self.counts[i as usize];
        *count = count.checked_add(n).ok_or_else(|| Error::input("too_many_rows", "a class holds more than 4,294,967,295 rows, more than this tool counts"))?;
        if let Some(w) = &mut self.weights {
            w[i as usize] += weight;
        }
        Ok(())
    }

    /// The class of `codes` if the table has it (the index must be whole); `packed` as for
    /// [`ClassTable::class_of`], `scratch` a buffer for the packed key.
    fn known_class(&self, codes: &[u32], packed: Option<(&[u64], Option<u64>)>, scratch: &mut Vec<u64>) -> Option<u32> {
        if self.packing.widened_for(codes).is_some() {
            return None;
        }
        let (key, hash) = match packed {
            Some((key, hash)) => (key, hash),
            None => {
                scratch.resize(self.packing.words(), 0);
                self.packing.pack(codes, scratch);
                (&scratch[..], None)
            }
        };
        let probe = self.index.probe(key, || hash.unwrap_or_else(|| self.hasher.hash_one(key)));
        self.index.find(probe, |c| same_key(&self.keys, c as usize, key)).ok()
    }

    /// The class of `codes`, a new one (of no rows yet) when no row had them. `packed` is
    /// their key packed with the packing of [`ClassTable::repacks`] at the time, and its hash
    /// if known ([`ClassTable::prefetch_ahead`]).
    fn class_of(&mut self, codes: &[u32], packed: Option<(&[u64], Option<u64>)>) -> Result<u32> {
        let repacks = self.repacks;
        if let Some(wider) = self.packing.widened_for(codes) {
            self.repack(wider);
        } else if self.index.indexed() != self.counts.len() {
            self.rebuild_index(0);
        }
        if self.index.is_full() {
            // Grown by freeing and refilling: a growth that held the old and the new index at
            // once would raise the peak, and parts read on several cores tend to grow together.
            self.rebuild_index((2 * self.index.indexed()).max(16));
        }
        let mut key = std::mem::take(&mut self.scratch);
        let known = packed.filter(|_| repacks == self.repacks).map(|(k, h)| {
            key.copy_from_slice(k);
            h
        });
        if known.is_none() {
            self.packing.pack(codes, &mut key);
        }
        let probe = self.index.probe(&key, || known.flatten().unwrap_or_else(|| self.hasher.hash_one(&key)));
        let found = self.index.find(probe, |c| same_key(&self.keys, c as usize, &key));
        let r = match found {
            Ok(i) => Ok(i),
            Err(vacancy) => {
                // (u32::MAX marks an empty slot of the index.)
                let room = match u32::try_from(self.counts.len()) {
                    Ok(i) if i != u32::MAX => budget_step(i as usize).map_or(Ok(()), |room| self.check_budget(room)).map(|()| i),
                    _ => Err(Error::input("too_many_classes", "the file has more than 4 billion distinct keys")),
                };
                room.inspect(|&i| {
                    self.keys.extend_from_slice(&key);
                    self.counts.push(0);
                    if self.order.get().is_some() {
                        self.order = std::sync::OnceLock::new();
                    }
                    if let Some(ws) = &mut self.weights {
                        ws.push(0.0);
                    }
                    self.index.insert(probe, vacancy, i);
                })
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
        self.repacks = self.repacks.wrapping_add(1);
        self.rebuild_index(0);
    }

    /// Fills the hash index from the keys of the classes so far, with room for `room`
    /// classes; the old index is freed first.
    fn rebuild_index(&mut self, room: usize) {
        let w = self.packing.words();
        self.forget_index();
        self.index = ClassIndex::with_room(room.max(self.counts.len()), w, self.packing.width());
        for i in 0..self.counts.len() {
            // (A key of no QI has no word: every class of such a table has the empty key.)
            let key = &self.keys[i * w..(i + 1) * w];
            let probe = self.index.probe(key, || self.hasher.hash_one(key));
            self.index.insert_new(probe, i as u32);
        }
    }

    /// Frees the hash index (a third to a half of the table's memory) when no class will be
    /// added or found any more: the metrics read classes by position. A later `add` or
    /// `merge` rebuilds it; `find` needs it kept.
    pub fn forget_index(&mut self) {
        self.index = ClassIndex::default();
    }

    /// Merges the table of another part of the same file (same QIs and settings). Returns
    /// where `other`'s classes and codes went, for the summaries keyed by them.
    pub fn merge(&mut self, mut other: ClassTable) -> Result<Remap> {
        // `other`'s index goes first, and room for every class of `other` is made at once
        // (not by doubling): the peak of a merge of two large parts stays near the merged
        // table.
        other.forget_index();
        let more = other.len();
        self.check_budget(self.len() + more)?;
        self.keys.reserve_exact(more * self.packing.words());
        self.counts.reserve_exact(more);
        if let Some(w) = &mut self.weights {
            w.reserve_exact(more);
        }
        self.ranks = std::sync::OnceLock::new();
        self.order = std::sync::OnceLock::new();
        let codes: Vec<Vec<u32>> = self.dicts.iter_mut().zip(&other.dicts).map(|(d, o)| d.absorb(o)).collect();
        // Each class of `other` in this table's codes, and where it already is here, on all
        // cores (the table is only read); then the classes not here are added in order: the
        // same classes, numbered the same, as adding them one by one.
        if self.index.indexed() != self.counts.len() {
            self.rebuild_index(0);
        }
        let q = self.q;
        let mut classes = vec![u32::MAX; more];
        // (A table of no QI has keys of no code: a slot each keeps the runs in step.)
        let mut keys = vec![0u32; more * q.max(1)];
        let run = crate::par::run_len(more);
        let runs: Vec<(usize, &mut [u32], &mut [u32])> =
            classes.chunks_mut(run).zip(keys.chunks_mut(run * q.max(1))).enumerate().map(|(k, (c, r))| (k * run, c, r)).collect();
        let fields = other.packing.one_word_fields();
        crate::par::map(runs, |(at, run, keys)| {
            for r in 0..run.len() {
                let key = &mut keys[r * q..(r + 1) * q];
                match &fields {
                    Some(fields) => {
                        let w = other.keys[at + r];
                        key.iter_mut().zip(fields).zip(&codes).for_each(|((c, &(s, m)), codes)| *c = codes[((w >> s) & m) as usize]);
                    }
                    None => key.iter_mut().enumerate().for_each(|(a, c)| *c = codes[a][other.code_at(at + r, a) as usize]),
                }
            }
            let (mut ahead, mut scratch) = (Lookahead::new(), Vec::new());
            for (r, c) in run.iter_mut().enumerate() {
                self.prefetch_ahead(keys, r, &mut ahead);
                *c = self.known_class(&keys[r * q..(r + 1) * q], ahead.get(r, self.repacks), &mut scratch).unwrap_or(u32::MAX);
            }
        });
        let key = |i: usize| &keys[i * q..(i + 1) * q];
        let missing = classes.iter().filter(|&&c| c == u32::MAX).count();
        if missing * 4 < self.len() {
            // A few new classes: into the index, which stays whole for a next part.
            for (i, c) in classes.iter_mut().enumerate() {
                if *c == u32::MAX {
                    *c = self.class_of(key(i), None)?;
                }
            }
        } else {
            // Many: appended without the index (rebuilt if a next part needs it, for less
            // than adding them to it one by one), with the packing that holds them all,
            // numbered in order and packed on all cores.
            let base = self.len();
            if u32::try_from(base + missing).is_err() {
                return Err(Error::input("too_many_classes", "the file has more than 4 billion distinct keys"));
            }
            let mut widest = vec![0u32; q];
            let mut next = base as u32;
            for (i, c) in classes.iter_mut().enumerate().filter(|(_, c)| **c == u32::MAX) {
                widest.iter_mut().zip(key(i)).for_each(|(w, &c)| *w = (*w).max(c));
                (*c, next) = (next, next + 1);
            }
            if let Some(wider) = self.packing.widened_for(&widest) {
                self.repack(wider);
            }
            let w = self.packing.words();
            self.keys.resize((base + missing) * w, 0);
            self.counts.resize(base + missing, 0);
            if let Some(ws) = &mut self.weights {
                ws.resize(base + missing, 0.0);
            }
            // Each run of `other`'s classes packs its new ones into the next stretch of keys
            // (a table of no QI has keys of no word: nothing to pack).
            let mut rest = &mut self.keys[base * w..];
            let mut runs = Vec::new();
            for (k, chunk) in classes.chunks(run).enumerate().filter(|_| w > 0) {
                let new = chunk.iter().filter(|&&c| c as usize >= base).count();
                let (mine, after) = std::mem::take(&mut rest).split_at_mut(new * w);
                runs.push((k * run, chunk, mine));
                rest = after;
            }
            let packing = &self.packing;
            crate::par::map(runs, |(at, chunk, out)| {
                let news = chunk.iter().enumerate().filter(|(_, c)| **c as usize >= base);
                for ((j, _), slot) in news.zip(out.chunks_exact_mut(w)) {
                    packing.pack(key(at + j), slot);
                }
            });
        }
        for (i, &c) in classes.iter().enumerate() {
            self.add_rows(c, other.counts[i], other.weight(i))?;
        }
        self.rows_total += other.rows_total;
        self.suppressed += other.suppressed;
        self.dropped += other.dropped;
        Ok(Remap { classes, codes })
    }

    /// The class of these codes, if it exists.
    pub fn find(&self, codes: &[u32]) -> Option<usize> {
        debug_assert_eq!(self.index.indexed(), self.counts.len(), "find on a table whose index was forgotten");
        if self.packing.widened_for(codes).is_some() {
            return None;
        }
        let mut key = vec![0; self.packing.words()];
        self.packing.pack(codes, &mut key);
        let hash = self.hasher.hash_one(&key);
        self.index.find(self.index.probe(&key, || hash), |c| same_key(&self.keys, c as usize, &key)).ok().map(|c| c as usize)
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

    /// The codes of the keys of classes `first..`, one class after another (`q` codes each),
    /// as many as `out` holds: each key unpacked once, through its word's fields when keys are
    /// one word.
    pub fn keys_into(&self, first: usize, out: &mut [u32]) {
        let q = self.q.max(1);
        match self.packing.one_word_fields() {
            Some(fields) => {
                for (row, &w) in out.chunks_exact_mut(q).zip(&self.keys[first..]) {
                    row.iter_mut().zip(&fields).for_each(|(x, &(s, m))| *x = ((w >> s) & m) as u32);
                }
            }
            None => {
                for (i, row) in (first..).zip(out.chunks_exact_mut(q)) {
                    row.iter_mut().enumerate().for_each(|(a, x)| *x = self.code_at(i, a));
                }
            }
        }
    }

    /// Per QI, the records of each value code: one pass over the classes, their keys unpacked
    /// a run at a time ([`ClassTable::keys_into`]).
    pub fn value_records(&self) -> Vec<Vec<u64>> {
        let q = self.q;
        let mut records: Vec<Vec<u64>> = (0..q).map(|a| vec![0u64; self.dict(a).len()]).collect();
        if q == 0 {
            return records;
        }
        const RUN: usize = 1 << 12;
        let mut keys = vec![0u32; RUN * q];
        for first in (0..self.len()).step_by(RUN) {
            let keys = &mut keys[..RUN.min(self.len() - first) * q];
            self.keys_into(first, keys);
            for (i, key) in (first..).zip(keys.chunks_exact(q)) {
                records.iter_mut().zip(key).for_each(|(r, &code)| r[code as usize] += self.count(i));
            }
        }
        records
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
        let others = super::compatible::others(&keys, &f);
        for ((fi, key), o) in f.iter_mut().zip(&keys).zip(others) {
            // sdcMicro: an all-blank key matches the whole table.
            *fi = if key.iter().all(|&c| is_blank(c)) { total } else { *fi + o.complete + alpha * o.blank };
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::rng::SplitMix64;

    /// Absorbs rows of `q` values drawn below `spread` (wide values force re-packing; a
    /// spread over 2^16 makes keys pass 32 bits) and returns the table with a plain count
    /// of each row's values.
    fn table(rows: usize, q: usize, spread: usize, seed: u64) -> (ClassTable, HashMap<Vec<String>, u32>) {
        let mut rng = SplitMix64(seed);
        let mut t = ClassTable::new(q, MissingPolicy::Ordinary, false, false);
        let mut oracle = HashMap::new();
        for _ in 0..rows {
            let values: Vec<String> = (0..q).map(|_| rng.below(spread).to_string()).collect();
            let key: Vec<u32> = values.iter().enumerate().map(|(a, v)| t.code(a, Cell::text(v))).collect();
            t.absorb(&key, 0.0).unwrap();
            assert_eq!(t.index.indexed(), t.len(), "one index entry a class, also right after the index grew");
            *oracle.entry(values).or_insert(0) += 1;
        }
        (t, oracle)
    }

    fn counts_by_value(t: &ClassTable) -> HashMap<Vec<String>, u32> {
        let text = |a: usize, c: u32| t.dict(a).text(c).to_string();
        (0..t.len()).map(|i| ((0..t.q()).map(|a| text(a, t.code_at(i, a))).collect(), t.count(i) as u32)).collect()
    }

    #[test]
    fn counts_agree_with_a_plain_count_through_growth_and_repacking() {
        for (q, spread) in [(1, 3), (3, 40), (4, 70_000), (9, 300)] {
            let (t, oracle) = table(5_000, q, spread, q as u64);
            assert_eq!(counts_by_value(&t), oracle, "q {q}, spread {spread}");
            assert_eq!(t.index.indexed(), t.len(), "one index entry a class");
        }
    }

    #[test]
    fn keys_into_gives_each_class_its_codes_from_any_class_on() {
        // Keys of one word (3 x 6 bits) and of two (9 x 9 bits: 81).
        for (q, spread, words) in [(3, 40, 1), (9, 300, 2)] {
            let (t, _) = table(500, q, spread, 5);
            assert_eq!(t.packing().words(), words, "q {q}");
            for first in [0, 1, t.len() - 1] {
                let mut out = vec![u32::MAX; (t.len() - first) * q];
                t.keys_into(first, &mut out);
                let want: Vec<u32> = (first..t.len()).flat_map(|i| t.key(i)).collect();
                assert_eq!(out, want, "q {q}, from {first}");
            }
            // A shorter `out` takes the first classes only.
            let mut two = vec![0; 2 * q];
            t.keys_into(3, &mut two);
            assert_eq!(two, [t.key(3), t.key(4)].concat());
        }
    }

    #[test]
    fn value_records_count_each_value_of_each_qi() {
        // Rows (a, x) x2, (a, y), (b, x): QI 0 a 3, b 1; QI 1 x 3, y 1.
        let mut t = ClassTable::new(2, MissingPolicy::Ordinary, false, false);
        for (u, v) in [("a", "x"), ("a", "y"), ("a", "x"), ("b", "x")] {
            let key = [t.code(0, Cell::text(u)), t.code(1, Cell::text(v))];
            t.absorb(&key, 0.0).unwrap();
        }
        let r = t.value_records();
        let of = |a: usize, v: &str| r[a][t.dict(a).lookup(v).unwrap() as usize];
        assert_eq!((of(0, "a"), of(0, "b"), of(1, "x"), of(1, "y")), (3, 1, 3, 1));
        // Keys of one word and of two, past a run of classes: the same as a count class by class.
        for (q, spread) in [(3, 40), (9, 300)] {
            let (t, _) = table(5_000, q, spread, 7);
            let mut want: Vec<Vec<u64>> = (0..q).map(|a| vec![0; t.dict(a).len()]).collect();
            for i in 0..t.len() {
                (0..q).for_each(|a| want[a][t.code_at(i, a) as usize] += t.count(i));
            }
            assert_eq!(t.value_records(), want, "q {q}");
        }
    }

    #[test]
    fn keys_past_32_bits_that_share_their_low_bits_stay_apart() {
        // 70,000 values in each of two QIs: 17 bits each, so (x, y) and (x, y + 2^12) share
        // the low 29 bits the index keeps as a tag (their home buckets tell them apart).
        let mut t = ClassTable::new(2, MissingPolicy::Ordinary, false, false);
        let add = |t: &mut ClassTable, x: usize, y: usize| {
            let key = [t.code(0, Cell::text(&x.to_string())), t.code(1, Cell::text(&y.to_string()))];
            t.absorb(&key, 0.0).unwrap();
        };
        for i in 0..70_000 {
            add(&mut t, i, i);
        }
        for y in 0..70_000 {
            add(&mut t, 0, y);
        }
        assert_eq!(t.packing.width(), 34);
        assert_eq!(t.len(), 70_000 + 69_999);
        assert_eq!(t.count(0), 2);
        assert!((1..t.len()).all(|i| t.count(i) == 1));
    }

    #[test]
    fn a_forgotten_index_is_rebuilt_by_the_next_class_and_find_sees_every_class() {
        let (mut t, _) = table(2_000, 3, 70_000, 7);
        let before = t.len();
        t.forget_index();
        assert_eq!(t.index.indexed(), 0);
        let first = t.key(0);
        t.absorb(&first, 0.0).unwrap();
        assert_eq!(t.len(), before, "an existing key is found again, not added");
        assert_eq!(t.count(0), 2);
        for i in 0..t.len() {
            assert_eq!(t.find(&t.key(i)), Some(i));
        }
    }

    #[test]
    fn a_table_of_no_qi_keeps_its_one_class_through_a_forgotten_index() {
        let mut t = ClassTable::new(0, MissingPolicy::Ordinary, false, false);
        for _ in 0..3 {
            t.absorb(&[], 0.0).unwrap();
        }
        t.forget_index();
        t.absorb(&[], 0.0).unwrap();
        assert_eq!((t.len(), t.count(0)), (1, 4));
    }

    #[test]
    fn merged_parts_equal_one_pass() {
        for split in [0, 1, 999, 3_000] {
            let (whole, oracle) = table(3_000, 4, 70_000, 11);
            let mut rng = SplitMix64(11);
            let mut parts = [ClassTable::new(4, MissingPolicy::Ordinary, false, false), ClassTable::new(4, MissingPolicy::Ordinary, false, false)];
            for r in 0..3_000 {
                let values: Vec<String> = (0..4).map(|_| rng.below(70_000).to_string()).collect();
                let t = &mut parts[usize::from(r >= split)];
                let key: Vec<u32> = values.iter().enumerate().map(|(a, v)| t.code(a, Cell::text(v))).collect();
                t.absorb(&key, 0.0).unwrap();
            }
            let [mut a, b] = parts;
            a.merge(b).unwrap();
            assert_eq!(counts_by_value(&a), oracle, "split at {split}");
            assert_eq!(a.len(), whole.len());
            // A merge that added many classes at once left the index to be rebuilt: the next
            // row rebuilds it, with one entry a class, and finds every class again.
            let key = a.key(a.len() - 1);
            a.absorb(&key, 0.0).unwrap();
            assert_eq!(a.len(), whole.len());
            assert_eq!(a.index.indexed(), a.len(), "one index entry a class");
            for i in 0..a.len() {
                assert_eq!(a.find(&a.key(i)), Some(i));
            }
        }
    }

    /// Cells of rows: `values[r][a]` below 2 is blank (0 missing, 1 suppressed), else text.
    fn cell(v: u32) -> String {
        v.to_string()
    }

    fn coded(t: &mut ClassTable, values: &[Vec<u32>]) -> Vec<u32> {
        let mut keys = Vec::new();
        for row in values {
            for (a, &v) in row.iter().enumerate() {
                let text = cell(v);
                keys.push(t.code(
                    a,
                    match v {
                        0 => Cell::Missing,
                        1 => Cell::Suppressed,
                        _ => Cell::text(&text),
                    },
                ));
            }
        }
        keys
    }

    /// The rows absorbed one by one (in blocks of `block` rows) and as one batch (pushed in
    /// blocks of `push` rows) give the same table, the same class for each row, or the same
    /// error at the same row.
    fn batch_equals_one_by_one(values: &[Vec<u32>], q: usize, policy: MissingPolicy, exclude: bool, budget: u64, block: usize, push: usize) {
        let mut one = ClassTable::new(q, policy, exclude, false);
        one.set_budget(budget);
        let keys = coded(&mut one, values);
        let mut classes = Vec::new();
        let mut one_err = None;
        for (b, chunk) in keys.chunks(block * q).enumerate() {
            if let Err((r, e)) = one.absorb_rows(chunk, &[], &mut classes) {
                one_err = Some((b * block + r, e.message));
                break;
            }
        }
        let mut batched = ClassTable::new(q, policy, exclude, false);
        batched.set_budget(budget);
        let keys = coded(&mut batched, values);
        let most = (0..q).map(|a| batched.dict(a).len() as u32).collect();
        let mut batch = batched.batch(most, values.len()).expect("a batch");
        for chunk in keys.chunks(push * q) {
            let columns: Vec<Vec<u32>> = (0..q).map(|a| chunk.iter().skip(a).step_by(q).copied().collect()).collect();
            batch.push(&mut batched, &columns);
        }
        match (batched.absorb_batch(batch), one_err) {
            (Ok(rows), None) => {
                let want: Vec<u32> = classes.iter().map(|c| c.unwrap_or(u32::MAX)).collect();
                assert_eq!(rows, want, "each row's class");
                assert_eq!((batched.len(), batched.packing.clone()), (one.len(), one.packing.clone()));
                for i in 0..one.len() {
                    assert_eq!((batched.key(i), batched.count(i)), (one.key(i), one.count(i)), "class {i}");
                }
                assert_eq!((batched.rows_total, batched.suppressed, batched.dropped), (one.rows_total, one.suppressed, one.dropped));
                // The index is built when next needed: every class is found again.
                if let Some(first) = (!batched.is_empty()).then(|| batched.key(0)) {
                    batched.absorb(&first, 0.0).unwrap();
                }
                assert!((0..batched.len()).all(|i| batched.find(&batched.key(i)) == Some(i)));
            }
            (Err((row, e)), Some((want_row, want))) => assert_eq!((row, e.message), (Some(want_row), want)),
            (got, want) => panic!("batch {:?}, one by one {want:?}", got.map(|r| r.len()).map_err(|(r, e)| (r, e.message))),
        }
    }

    #[test]
    fn a_batch_gives_the_classes_of_one_by_one() {
        let mut rng = SplitMix64(3);
        // 70,000 rows: the sort's digits of 16 bits; blanks in a tenth of the cells.
        for (rows, q, spread) in [(70_000, 3, 40), (5_000, 3, 70_000), (3_000, 9, 6), (1, 2, 5)] {
            let values: Vec<Vec<u32>> =
                (0..rows).map(|_| (0..q).map(|_| if rng.below(10) == 0 { rng.below(2) as u32 } else { 2 + rng.below(spread) as u32 }).collect()).collect();
            for (policy, exclude) in [(MissingPolicy::Ordinary, false), (MissingPolicy::Drop, false), (MissingPolicy::Wildcard, true)] {
                batch_equals_one_by_one(&values, q, policy, exclude, u64::MAX, 1 << 16, 4096);
            }
        }
        // Rows whose QIs are all suppressed, left out.
        let values = vec![vec![1, 1], vec![2, 1], vec![1, 1], vec![2, 1]];
        batch_equals_one_by_one(&values, 2, MissingPolicy::Ordinary, true, u64::MAX, 1, 3);
    }

    #[test]
    fn a_batch_passes_the_memory_budget_at_the_row_one_by_one_does() {
        let values: Vec<Vec<u32>> = (0..3_000u32).map(|r| vec![2 + r % 97, 2 + r % 13]).collect();
        for budget in [10, 100, 400, 1_000, 20_000, 40_000] {
            batch_equals_one_by_one(&values, 2, MissingPolicy::Ordinary, false, budget, 700, 1000);
        }
    }

    #[test]
    fn no_batch_for_a_weighted_or_filled_table_or_a_key_past_one_word() {
        let t = ClassTable::new(2, MissingPolicy::Ordinary, false, true);
        assert!(t.batch(vec![10, 10], 100).is_none(), "weighted");
        let (t, _) = table(10, 2, 5, 1);
        assert!(t.batch(vec![10, 10], 100).is_none(), "classes already");
        let t = ClassTable::new(2, MissingPolicy::Ordinary, false, false);
        assert!(t.batch(vec![1 << 20, 1 << 20], 1 << 20).is_some(), "21 + 21 + 20 bits");
        assert!(t.batch(vec![1 << 21, 1 << 21], 1 << 20).is_some(), "22 + 22 + 20 bits");
        assert!(t.batch(vec![1 << 22, 1 << 21], 1 << 20).is_none(), "23 + 22 + 20 bits");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any rows, blanks, policy, budget and split into pushes: the batch is the one-by-one
        /// table.
        #[test]
        fn any_batch_equals_one_by_one(
            (q, values) in (1usize..6).prop_flat_map(|q| (Just(q), proptest::collection::vec(proptest::collection::vec(0u32..8, q), 0..400))),
            policy in prop_oneof![Just(MissingPolicy::Ordinary), Just(MissingPolicy::Drop)],
            exclude in any::<bool>(),
            budget in prop_oneof![Just(u64::MAX), 0u64..20_000],
            block in 1usize..500,
            push in 1usize..500,
        ) {
            batch_equals_one_by_one(&values, q, policy, exclude, budget, block, push);
        }
    }
}
