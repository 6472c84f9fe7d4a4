//! SUDA: minimal sample uniques (MSUs), the SUDA score and the DIS-SUDA score of each record,
//! as sdcMicro's `suda2` codes them (spec peer-measures.md Sec 1).
//!
//! The search is SUDA2's (Manning, Haglin and Keane 2008): items are (column, value) pairs;
//! the MSUs of a table `T` are its items held by one record, and, for each other item `i`, the
//! MSUs `S` of the subtable `T_i` (the records holding `i`, over the items ranked above `i`)
//! for which a *special row* exists (a record of `T` outside `T_i` holding `S`), each extended
//! by `i`. Every MSU is found once, from its lowest-ranked item. Pruning: items held by every
//! record of a subtable are never part of its MSUs; a subtable of `t` records has no MSU of
//! more than `t - 1` items; no search goes past the maximum size `M`.
//!
//! It runs over the distinct keys of the class table (a class of `c` records is one row of
//! weight `c`), not over records: records of one key share their MSUs, and only keys held by
//! one record have any. The subtables of the top-level items are searched on all cores. A
//! subtable of at most [`SMALL_ROWS`] rows is searched as bit sets: each item as the set of
//! the rows holding it, the subtable of an item as the intersection (nothing copied: [`small`]).

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::metric::{Context, MetricResult, Status, min_mean_max};
use crate::table::classes::{ClassTable, MissingPolicy};
use crate::table::dictionary::is_blank;

mod small;
use small::{Bits, search_few};

/// How many of the highest-scoring records `suda_score.details.top` lists.
pub const TOP_RECORDS: usize = 20;

/// sdcMicro's limit on the number of QIs (spec Sec 1.5).
const MAX_QI: usize = 256;
/// Column sets are 64-bit masks: more QIs give `msu_search_too_large` (spec Sec 1.5 allows it).
const MAX_SEARCHED_QI: usize = 64;

/// The weights of the SUDA score (spec peer-measures.md Sec 1.1, 1.3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SudaWeights {
    /// sdcMicro's `original_scores = TRUE` (its default): `w(k) = (q' - k)!`.
    #[default]
    Elliot,
    /// sdcMicro's `original_scores = FALSE`.
    Ihsn,
}

/// Settings of SUDA (spec peer-measures.md Sec 1.1).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SudaParams {
    /// Whether SUDA runs (off by default: it is the one identity measure whose cost grows
    /// with the subsets of the QIs).
    pub suda: bool,
    /// `M`, the largest MSU size searched; `None` = the number of QIs (sdcMicro).
    pub suda_max_size: Option<usize>,
    /// The weights of the score.
    pub suda_weights: SudaWeights,
    /// `pi`, the sampling fraction of the DIS model.
    pub dis_fraction: f64,
    /// Whether a blank cell may belong to an MSU (`ordinary` only).
    pub suda_blank_in_msu: bool,
}

impl Default for SudaParams {
    fn default() -> Self {
        SudaParams { suda: false, suda_max_size: None, suda_weights: SudaWeights::Elliot, dis_fraction: 0.01, suda_blank_in_msu: false }
    }
}

/// Where the records of the class table came from, for `per_record` and `top`.
pub struct RecordIds<'a> {
    /// Per class, the 0-based row (of the source table) of its first record.
    pub first_row: &'a [u64],
    /// Per class, the record id of its first record (`None` when blank), when a `record_id`
    /// column is given.
    pub first_id: Option<&'a [Option<Box<str>>]>,
}

impl RecordIds<'_> {
    /// The keys of `per_record` for the records of `classes` (spec README Sec 10): their
    /// record ids when a `record_id` is given and each of these records has one of its own,
    /// else their 1-based row numbers.
    fn keys(&self, classes: &[usize]) -> Vec<String> {
        if let Some(ids) = self.first_id {
            let mut seen = std::collections::HashSet::with_capacity(classes.len());
            if classes.iter().all(|&i| ids[i].as_deref().is_some_and(|id| seen.insert(id))) {
                return classes.iter().map(|&i| ids[i].as_deref().unwrap_or_default().to_string()).collect();
            }
        }
        classes.iter().map(|&i| (self.first_row[i] + 1).to_string()).collect()
    }
}

/// The MSUs of every class (spec Sec 1.2) as column masks, side by side: those of class `i`
/// are `masks[start[i]..start[i + 1]]` (two allocations, not one per class).
pub struct Found {
    start: Vec<usize>,
    masks: Vec<u64>,
}

impl Found {
    /// No MSU for any of `classes` classes.
    fn none(classes: usize) -> Found {
        Found { start: vec![0; classes + 1], masks: Vec::new() }
    }

    /// The number of classes.
    pub fn classes(&self) -> usize {
        self.start.len() - 1
    }

    /// The MSUs of class `i`, in the order found.
    pub fn of(&self, i: usize) -> &[u64] {
        &self.masks[self.start[i]..self.start[i + 1]]
    }
}

/// The MSUs found, counted: per key (class) held by one record, its MSUs by size.
pub struct Msus {
    /// `M`.
    pub max: usize,
    /// `[m_1..m_M]` of each class side by side (all 0 for a class without MSU): one allocation,
    /// not one per class.
    sizes: Vec<u32>,
    /// Per QI, how many MSUs hold it.
    pub by_column: Vec<u64>,
}

impl Msus {
    /// Counts the MSUs of each class by size, and of each column.
    fn of(found: &Found, q: usize, max: usize) -> Msus {
        // Runs of classes on all cores, each with its own column counts, summed after.
        let n = found.classes();
        let run = crate::par::run_len(n);
        let mut sizes = vec![0u32; n * max];
        let runs: Vec<(usize, &mut [u32])> = sizes.chunks_mut(run * max).enumerate().map(|(k, s)| (k * run, s)).collect();
        let by_run = crate::par::map(runs, |(first, sizes)| {
            let mut by_column = vec![0u64; q];
            for (i, m) in (first..).zip(sizes.chunks_exact_mut(max)) {
                for &mask in found.of(i) {
                    m[mask.count_ones() as usize - 1] += 1;
                    bits(mask).for_each(|c| by_column[c] += 1);
                }
            }
            by_column
        });
        let by_column = (0..q).map(|c| by_run.iter().map(|b| b[c]).sum()).collect();
        Msus { max, sizes, by_column }
    }

    /// `[m_1..m_M]` of class `i` (empty for a class without MSU).
    pub fn counts(&self, i: usize) -> &[u32] {
        let m = &self.sizes[i * self.max..(i + 1) * self.max];
        if m.iter().all(|&x| x == 0) { &[] } else { m }
    }
}

/// The classes as rows of codes for the search.
struct Data {
    q: usize,
    codes: Vec<u32>,
    weight: Vec<u32>,
    wildcard: bool,
    /// Whether a blank cell is an item (`suda_blank_in_msu`, `ordinary` only).
    blank_item: bool,
    /// Per column, the number of its codes.
    values: Vec<usize>,
    /// Per column, where its codes start in a table of every column's codes ([`Ranks`]).
    offset: Vec<usize>,
    /// Subtables of at most this many rows (at most 256) are searched as bit sets ([`small`]),
    /// except under `wildcard`.
    small_rows: usize,
    /// Subtables whose rows have at most this many keys are merged through a slot per key
    /// ([`subtable_of_rows`]), except under `wildcard`.
    dense_keys: usize,
}

impl Data {
    #[inline]
    fn code(&self, r: u32, c: usize) -> u32 {
        self.codes[r as usize * self.q + c]
    }

    /// The number of codes of all columns (the length of a rank table).
    fn all_values(&self) -> usize {
        self.values.iter().sum()
    }
}

/// Subtables of at most this many rows are searched as bit sets ([`small`]): most of the
/// search's subtables hold a few rows, and building each (its rows merged, its columns
/// sorted) cost more than searching it. 256 rows (4 words a set) measured best on the 1M-row
/// table (64 and 128 slower, 512 and 1024 no faster; docs/decisions/suda/small-subtables-as-bit-sets.md).
const SMALL_ROWS: usize = 256;

/// The most keys a subtable's rows are merged through directly ([`subtable_of_rows`]): a slot
/// per key (256 KB) instead of a hash of each row. 2^16 measured best on the 1M-row table
/// (2^12 and 2^24 slower, 2^20 no faster; docs/decisions/suda/dense-keys-for-large-subtables.md).
const DENSE_KEYS: usize = 1 << 16;

/// Code of a cell that holds no item of a subtable (a value ranked at or below its item).
const NONE: u32 = u32::MAX;

/// Buffers reused down the recursion of one top-level subtable (one thread at a time): once
/// it holds a buffer for each level, the search no longer allocates.
#[derive(Default)]
struct Pool {
    u32s: Vec<Vec<u32>>,
    usizes: Vec<Vec<usize>>,
    pairs: Vec<Vec<(u32, u64)>>,
    places: Vec<Vec<(usize, usize)>>,
    items: Vec<Vec<Item>>,
    columns: Vec<Vec<Column>>,
    indexes: Vec<hashbrown::HashTable<u32>>,
    known: Vec<Known>,
    /// Rank tables, every entry 0.
    ranks: Vec<Vec<u32>>,
    bits1: Vec<Vec<Bits<1>>>,
    bits2: Vec<Vec<Bits<2>>>,
    bits4: Vec<Vec<Bits<4>>>,
    /// Per dense key of a subtable's rows, the row + 1 holding it ([`Sub::project`]; every
    /// entry 0).
    slots_by_key: Vec<u32>,
    /// Per column and code, its digit in a dense key ([`subtable_of_rows`]; every entry 0).
    digits: Vec<u32>,
    /// Per rank of a table's items, the place + 1 of its item in a small subtable ([`small`]'s `Few::of`;
    /// every entry 0).
    slots: Vec<u32>,
}

impl Pool {
    fn u32s(&mut self) -> Vec<u32> {
        self.u32s.pop().unwrap_or_default()
    }

    fn put(&mut self, mut v: Vec<u32>) {
        v.clear();
        self.u32s.push(v);
    }

    /// An empty index for `n` rows. One much larger is not taken: clearing an index writes
    /// all of its slots, and a sparse one spreads a few rows over many cache lines.
    fn index(&mut self, n: usize) -> hashbrown::HashTable<u32> {
        match self.indexes.pop() {
            Some(index) if index.capacity() <= 4 * n + 64 => index,
            _ => hashbrown::HashTable::with_capacity(n),
        }
    }

    fn pairs(&mut self) -> Vec<(u32, u64)> {
        self.pairs.pop().unwrap_or_default()
    }

    fn put_pairs(&mut self, mut v: Vec<(u32, u64)>) {
        v.clear();
        self.pairs.push(v);
    }

    fn free(&mut self, sub: Sub) {
        let mut cols = sub.cols;
        cols.clear();
        self.usizes.push(cols);
        self.put(sub.codes);
        self.put(sub.weight);
        self.put(sub.id);
    }

    fn free_columns(&mut self, mut columns: Vec<Column>) {
        for col in columns.drain(..) {
            self.put(col.sorted);
        }
        self.columns.push(columns);
    }
}

/// A (sub)table: its rows over the columns that still hold items, each cell an item ranked
/// above the subtable's item or [`NONE`] (or a blank under `wildcard`), rows alike on these
/// cells merged into one of their summed weight. A subtable with no row of weight 1 has no
/// MSU: most of the search ends there.
struct Sub {
    /// The table's column of each column.
    cols: Vec<usize>,
    /// Row-major cells.
    codes: Vec<u32>,
    weight: Vec<u32>,
    /// Per row, a class of the table (the class itself for a row of weight 1).
    id: Vec<u32>,
}

impl Sub {
    fn len(&self) -> usize {
        self.weight.len()
    }

    #[inline]
    fn code(&self, r: usize, j: usize) -> u32 {
        self.codes[r * self.cols.len() + j]
    }

    /// The rows `rows` of a table over its columns `cols` (at most 64), each cell as `cell`
    /// gives it ([`NONE`] for a cell without item), the columns left without an item (blanks
    /// under `wildcard` aside) dropped, rows alike merged.
    /// With `dense` (the number of keys and a row's key: rows alike on the cells kept have
    /// the same key, others not), the rows are merged through a slot per key, not a hash.
    #[allow(clippy::too_many_arguments)]
    fn project(
        data: &Data,
        cols: &[usize],
        cell: impl Fn(u32, usize) -> u32,
        weight: impl Fn(u32) -> u32,
        id: impl Fn(u32) -> u32,
        rows: impl Iterator<Item = u32> + Clone,
        dense: Option<(usize, impl Fn(u32) -> usize)>,
        pool: &mut Pool,
    ) -> Sub {
        let item = |v: u32| v != NONE && !(data.wildcard && is_blank(v));
        // Columns left with an item: one pass over the rows, each row's cells read together.
        let all = if cols.len() == 64 { u64::MAX } else { (1u64 << cols.len()) - 1 };
        let mut held = 0u64;
        for r in rows.clone() {
            for j in bits(all & !held) {
                if item(cell(r, j)) {
                    held |= 1 << j;
                }
            }
            if held == all {
                break;
            }
        }
        let mut kept = pool.usizes.pop().unwrap_or_default();
        kept.extend(bits(held));
        let m = kept.len();
        let mut sub_cols = pool.usizes.pop().unwrap_or_default();
        sub_cols.extend(kept.iter().map(|&j| cols[j]));
        let mut sub = Sub { cols: sub_cols, codes: pool.u32s(), weight: pool.u32s(), id: pool.u32s() };
        if let Some((space, key_of)) = dense {
            // A slot per key: the row + 1 that holds it, 0 for none (reset after).
            let mut slots = std::mem::take(&mut pool.slots_by_key);
            if slots.len() < space {
                slots.resize(space, 0);
            }
            let mut keys = pool.u32s();
            for r in rows {
                let key = key_of(r);
                match slots[key] {
                    0 => {
                        sub.codes.extend(kept.iter().map(|&j| cell(r, j)));
                        sub.weight.push(weight(r));
                        sub.id.push(id(r));
                        slots[key] = sub.weight.len() as u32;
                        keys.push(key as u32);
                    }
                    at => sub.weight[at as usize - 1] += weight(r),
                }
            }
            keys.iter().for_each(|&key| slots[key as usize] = 0);
            pool.slots_by_key = slots;
            pool.put(keys);
            kept.clear();
            pool.usizes.push(kept);
            return sub;
        }
        // Rows alike merged: an index of the rows kept so far, by the hash of their cells (no
        // copy of the cells beside the subtable's own).
        let hasher = crate::hash::Fixed::with_seed(0x5eed);
        let hash = |key: &[u32]| hasher.hash_one(key);
        let mut index = pool.index(rows.size_hint().0);
        let mut key = pool.u32s();
        for r in rows {
            key.clear();
            key.extend(kept.iter().map(|&j| cell(r, j)));
            let h = hash(&key);
            let codes = &sub.codes;
            // Compared cell by cell: the keys are short, a call to `memcmp` costs more.
            match index.find(h, |&at| codes[at as usize * m..(at as usize + 1) * m].iter().zip(&key).all(|(a, b)| a == b)) {
                Some(&at) => sub.weight[at as usize] += weight(r),
                None => {
                    let at = sub.weight.len() as u32;
                    sub.codes.extend_from_slice(&key);
                    sub.weight.push(weight(r));
                    sub.id.push(id(r));
                    let codes = &sub.codes;
                    index.insert_unique(h, at, |&at| hash(&codes[at as usize * m..(at as usize + 1) * m]));
                }
            }
        }
        index.clear();
        pool.indexes.push(index);
        pool.put(key);
        kept.clear();
        pool.usizes.push(kept);
        sub
    }
}

/// One column of a subtable, its rows sorted by code: the items are the runs.
struct Column {
    j: usize,
    sorted: Vec<u32>,
    /// Under `wildcard`, the rows with a blank cell come first (blank codes are the lowest),
    /// and belong to every item of the column.
    blanks: usize,
}

impl Column {
    /// The columns of `sub` in order, each its rows holding an item or a blank sorted by code,
    /// into `columns` (empty). A column of few values for the rows is sorted by counting, all such
    /// columns at once: their cells counted in one pass over the rows and placed in a second,
    /// each row's cells read side by side. The others (few rows for their values) are sorted
    /// in place.
    fn all(data: &Data, sub: &Sub, columns: &mut Vec<Column>, pool: &mut Pool) {
        debug_assert!(columns.is_empty());
        let (m, n) = (sub.cols.len(), sub.len());
        if m == 0 {
            return;
        }
        // Per column counted, its place in a row and where its counts start in `start`.
        let mut counted = pool.places.pop().unwrap_or_default();
        let mut size = 0;
        for j in 0..m {
            let values = data.values[sub.cols[j]];
            if n > 32 && values <= 2 * n + 64 {
                counted.push((j, size));
                size += values + 1;
            }
        }
        let mut start = pool.u32s();
        start.resize(size, 0);
        for row in sub.codes.chunks_exact(m) {
            for &(j, at) in &counted {
                if row[j] != NONE {
                    start[at + row[j] as usize + 1] += 1;
                }
            }
        }
        let mut next = counted.iter().peekable();
        for j in 0..m {
            let mut sorted = pool.u32s();
            if let Some(&(_, at)) = next.next_if(|&&(c, _)| c == j) {
                // The counts turned into where each code's rows start.
                let values = data.values[sub.cols[j]];
                let counts = &mut start[at..at + values + 1];
                for v in 0..values {
                    counts[v + 1] += counts[v];
                }
                sorted.resize(counts[values] as usize, 0);
            } else {
                sorted.extend((0..n as u32).filter(|&r| sub.code(r as usize, j) != NONE));
                sorted.sort_unstable_by_key(|&r| sub.code(r as usize, j));
            }
            columns.push(Column { j, sorted, blanks: 0 });
        }
        for (r, row) in sub.codes.chunks_exact(m).enumerate() {
            for &(j, at) in &counted {
                if row[j] != NONE {
                    let place = &mut start[at + row[j] as usize];
                    columns[j].sorted[*place as usize] = r as u32;
                    *place += 1;
                }
            }
        }
        if data.wildcard {
            for col in columns.iter_mut() {
                col.blanks = col.sorted.partition_point(|&r| is_blank(sub.code(r as usize, col.j)));
            }
        }
        pool.put(start);
        counted.clear();
        pool.places.push(counted);
    }
}

/// An item of a (sub)table worth a subtable.
struct Item {
    col: usize,
    from: usize,
    to: usize,
    support: u64,
    rank: u32,
}

/// The MSUs of a table found so far, per row: SUDA2's special-row test in the form of
/// subsets. An MSU `S` of the subtable of item `i` extends to the MSU `S + i` of the table iff
/// `S` is held by another record of the table, i.e. iff no MSU of the table lies within `S`;
/// such an MSU holds only items ranked above `i`, so with the items taken from the highest
/// rank down it is already known. Each row's masks are a chain through one vector (from an
/// index of its last one), so that adding a mask allocates nothing once the pool holds one.
#[derive(Default)]
struct Known {
    /// Per row with a mask: (row, its last mask in `masks`).
    last: hashbrown::HashTable<(u32, u32)>,
    /// (mask, the row's previous mask or [`NONE`]).
    masks: Vec<(u64, u32)>,
}

impl Known {
    fn hash(r: u32) -> u64 {
        crate::hash::Fixed::with_seed(0x5eed).hash_one(r)
    }

    /// Whether no MSU of row `r` found so far lies within `mask`.
    fn minimal(&self, r: u32, mask: u64) -> bool {
        let Some(&(_, mut at)) = self.last.find(Known::hash(r), |&(x, _)| x == r) else { return true };
        while at != NONE {
            let (m, previous) = self.masks[at as usize];
            if m & !mask == 0 {
                return false;
            }
            at = previous;
        }
        true
    }

    fn add(&mut self, r: u32, mask: u64) {
        let at = self.masks.len() as u32;
        let h = Known::hash(r);
        match self.last.find_mut(h, |&(x, _)| x == r) {
            Some(entry) => {
                self.masks.push((mask, entry.1));
                entry.1 = at;
            }
            None => {
                self.masks.push((mask, NONE));
                self.last.insert_unique(h, (r, at), |&(x, _)| Known::hash(x));
            }
        }
    }

    fn clear(&mut self) {
        self.last.clear();
        self.masks.clear();
    }
}

/// Whether the subtable of `item` can hold an MSU: a row of weight 1 among its rows (merging
/// rows only adds weights).
fn worth(sub: &Sub, col: &Column, item: &Item) -> bool {
    col.sorted[..col.blanks].iter().chain(&col.sorted[item.from..item.to]).any(|&r| sub.weight[r as usize] == 1)
}

/// The ranks of a (sub)table's items: per column of the data and code, the rank of its item
/// in the table (0 for none; a table of every column's codes, looked up by the code a cell
/// already holds), and per column of the table the highest.
struct Ranks {
    of: Vec<u32>,
    max: Vec<u32>,
}

impl Ranks {
    /// Gives the buffers back, the rank table zeroed again (only the entries of `items`).
    fn free(mut self, data: &Data, sub: &Sub, columns: &[Column], items: &[Item], pool: &mut Pool) {
        for item in items {
            let col = &columns[item.col];
            self.of[data.offset[sub.cols[col.j]] + data_value(sub, col, item) as usize] = 0;
        }
        pool.ranks.push(self.of);
        pool.put(self.max);
    }
}

/// Ranks the items of a (sub)table by their support in it, fewest records first (ties by
/// column and code; any fixed order gives the same MSUs): SUDA2's order, made again in every
/// subtable. Sorts `items` from the highest rank down and returns the rank of each item, 0
/// for none (an item held by one record or by every record has no MSU in a subtable: the
/// first is an MSU of `sub` itself, the second adds nothing).
fn rank(data: &Data, sub: &Sub, columns: &[Column], items: &mut [Item], pool: &mut Pool) -> Ranks {
    items.sort_unstable_by_key(|item| (item.support, item.col, item.from));
    let mut of = pool.ranks.pop().unwrap_or_else(|| vec![0; data.all_values()]);
    let mut max = pool.u32s();
    max.resize(sub.cols.len(), 0);
    for (n, item) in items.iter_mut().enumerate() {
        item.rank = n as u32 + 1;
        let col = &columns[item.col];
        of[data.offset[sub.cols[col.j]] + data_value(sub, col, item) as usize] = item.rank;
        max[col.j] = item.rank;
    }
    items.reverse();
    Ranks { of, max }
}

/// Spec Sec 1.2: the MSUs of at most `k` items of the subtable of `item` of `sub` (whose rows
/// `rows` of `sub` hold it, or a blank), added to `out`: searched as bit sets ([`small`]) when
/// it has at most `data.small_rows` rows, else projected and searched ([`search`]).
#[allow(clippy::too_many_arguments)]
fn search_item(
    data: &Data,
    sub: &Sub,
    ranks: &Ranks,
    col: &Column,
    item: &Item,
    rows: impl Iterator<Item = u32> + Clone,
    k: usize,
    out: &mut Vec<(u32, u64)>,
    pool: &mut Pool,
) {
    let n = item.to - item.from;
    if data.wildcard || n > data.small_rows {
        let child = subtable_of_rows(data, sub, ranks, col, item, rows, pool);
        search(data, &child, k, out, pool);
        pool.free(child);
    } else if n <= 64 {
        search_few::<1>(data, sub, ranks, col, item, rows, k, out, pool);
    } else if n <= 128 {
        search_few::<2>(data, sub, ranks, col, item, rows, k, out, pool);
    } else {
        search_few::<4>(data, sub, ranks, col, item, rows, k, out, pool);
    }
}

/// The subtable of `item` of a table whose rows `rows` of `sub` hold it (or a blank).
fn subtable_of_rows(data: &Data, sub: &Sub, ranks: &Ranks, col: &Column, item: &Item, rows: impl Iterator<Item = u32> + Clone, pool: &mut Pool) -> Sub {
    let mut others = pool.usizes.pop().unwrap_or_default();
    others.extend((0..sub.cols.len()).filter(|&j| j != col.j && ranks.max[j] > item.rank));
    let mut cols = pool.usizes.pop().unwrap_or_default();
    cols.extend(others.iter().map(|&j| sub.cols[j]));
    // Per column kept, where its cells are in a row of `sub` and where its codes' ranks start:
    // read once, not for every cell.
    let mut at = pool.places.pop().unwrap_or_default();
    at.extend(others.iter().map(|&j| (j, data.offset[sub.cols[j]])));
    let width = sub.cols.len();
    let cell = |r: u32, j: usize| {
        let (j, ranked) = at[j];
        let v = sub.codes[r as usize * width + j];
        if v == NONE || (data.wildcard && is_blank(v)) || ranks.of[ranked + v as usize] > item.rank { v } else { NONE }
    };
    // Dense keys (not under `wildcard`): per column kept, its items ranked above `item`
    // numbered 1.. (0: no item), a row's key the number its cells write with these digits,
    // when there are at most `data.dense_keys` keys (the subtables of the most frequent
    // items, the largest, keep few items).
    let mut digits = std::mem::take(&mut pool.digits);
    let mut space = Some(1usize).filter(|_| !data.wildcard);
    if let Some(mut keys) = space {
        digits.resize(data.all_values(), 0);
        for &(j, ranked) in &at {
            let mut n = 0;
            let codes = ranked..ranked + data.values[sub.cols[j]];
            for (digit, &rank) in digits[codes.clone()].iter_mut().zip(&ranks.of[codes]) {
                if rank > item.rank {
                    n += 1;
                    *digit = (n * keys) as u32;
                }
            }
            keys *= n + 1;
            if keys > data.dense_keys {
                break;
            }
        }
        space = Some(keys).filter(|&keys| keys <= data.dense_keys);
    }
    let key_of = |r: u32| {
        at.iter().fold(0usize, |key, &(j, ranked)| {
            let v = sub.codes[r as usize * width + j];
            if v == NONE { key } else { key + digits[ranked + v as usize] as usize }
        })
    };
    let child = Sub::project(data, &cols, cell, |r| sub.weight[r as usize], |r| sub.id[r as usize], rows, space.map(|keys| (keys, key_of)), pool);
    if !data.wildcard {
        for &(j, ranked) in &at {
            digits[ranked..ranked + data.values[sub.cols[j]]].fill(0);
        }
    }
    pool.digits = digits;
    others.clear();
    cols.clear();
    at.clear();
    pool.usizes.push(others);
    pool.usizes.push(cols);
    pool.places.push(at);
    child
}

/// A table's rows copied in one column's order ([`in_order`]), and the place of each row.
type Ordered = (Sub, Vec<u32>);

/// A lock of the search's shared state (a panic elsewhere poisons nothing it needs).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The rows of `sub` that `col` sorts (those holding an item or a blank in it), copied in its
/// order: the rows of each of its items side by side. Written in one pass over `sub`'s rows
/// in order (each row to its place), so that no item's subtable gathers rows spread over the
/// whole table. Into the buffers of `spare` (a copy no longer read), if any: fresh pages cost
/// more to fault in than to overwrite.
fn in_order(sub: &Sub, col: &Column, spare: Option<Ordered>) -> Ordered {
    let m = sub.cols.len();
    let n = col.sorted.len();
    let (mut copy, mut place) = spare.unwrap_or_else(|| (Sub { cols: Vec::new(), codes: Vec::new(), weight: Vec::new(), id: Vec::new() }, Vec::new()));
    place.clear();
    place.resize(sub.len(), NONE);
    col.sorted.iter().enumerate().for_each(|(k, &r)| place[r as usize] = k as u32);
    copy.cols.clone_from(&sub.cols);
    for v in [&mut copy.codes, &mut copy.weight, &mut copy.id] {
        v.clear();
    }
    copy.codes.resize(n * m, 0);
    copy.weight.resize(n, 0);
    copy.id.resize(n, 0);
    for (r, &k) in place.iter().enumerate().filter(|&(_, &k)| k != NONE) {
        let k = k as usize;
        copy.codes[k * m..(k + 1) * m].copy_from_slice(&sub.codes[r * m..(r + 1) * m]);
        copy.weight[k] = sub.weight[r];
        copy.id[k] = sub.id[r];
    }
    (copy, place)
}

/// Spec Sec 1.2: MSUs of `sub` (over its items) of at most `k` items, as (class, column
/// mask), added to `out`.
fn search(data: &Data, sub: &Sub, k: usize, out: &mut Vec<(u32, u64)>, pool: &mut Pool) {
    if !sub.weight.contains(&1) {
        return;
    }
    let mut columns = pool.columns.pop().unwrap_or_default();
    Column::all(data, sub, &mut columns, pool);
    let mut items = pool.items.pop().unwrap_or_default();
    let from = out.len();
    scan(sub, &columns, k, out, &mut items);
    if !items.is_empty() {
        let mut found = pool.known.pop().unwrap_or_default();
        out[from..].iter().for_each(|&(r, m)| found.add(r, m));
        let ranks = rank(data, sub, &columns, &mut items, pool);
        let mut below = pool.pairs();
        for item in items.iter().filter(|item| worth(sub, &columns[item.col], item)) {
            let col = &columns[item.col];
            let limit = (k - 1).min(item.support as usize - 1);
            let c = sub.cols[col.j];
            let value = data_value(sub, col, item);
            below.clear();
            let rows = col.sorted[..col.blanks].iter().chain(&col.sorted[item.from..item.to]).copied();
            search_item(data, sub, &ranks, col, item, rows, limit, &mut below, pool);
            // Under `wildcard` a record with a blank cell is in every subtable of its column,
            // but the item is not its own.
            below.retain(|&(r, mask)| !(data.wildcard && data.code(r, c) != value) && found.minimal(r, mask));
            // The MSUs of one item never lie within another's subtable MSU (they hold the item).
            for &(r, m) in &below {
                found.add(r, m | (1 << c));
                out.push((r, m | (1 << c)));
            }
        }
        pool.put_pairs(below);
        found.clear();
        pool.known.push(found);
        ranks.free(data, sub, &columns, &items, pool);
    }
    items.clear();
    pool.items.push(items);
    pool.free_columns(columns);
}

/// The code of an item.
fn data_value(sub: &Sub, col: &Column, item: &Item) -> u32 {
    sub.code(col.sorted[item.from] as usize, col.j)
}

/// The 1-MSUs of a table, added to `out`, and the items whose subtables are searched
/// (`k >= 2`), to `items`.
fn scan(sub: &Sub, columns: &[Column], k: usize, out: &mut Vec<(u32, u64)>, items: &mut Vec<Item>) {
    let total: u64 = sub.weight.iter().map(|&w| w as u64).sum();
    for (ci, col) in columns.iter().enumerate() {
        let c = sub.cols[col.j];
        let blank_support: u64 = col.sorted[..col.blanks].iter().map(|&r| sub.weight[r as usize] as u64).sum();
        let mut from = col.blanks;
        while from < col.sorted.len() {
            let v = sub.code(col.sorted[from] as usize, col.j);
            let mut to = from;
            let mut support = blank_support;
            while to < col.sorted.len() && sub.code(col.sorted[to] as usize, col.j) == v {
                support += sub.weight[col.sorted[to] as usize] as u64;
                to += 1;
            }
            if support == 1 {
                out.push((sub.id[col.sorted[from] as usize], 1u64 << c));
            } else if support < total && k >= 2 {
                items.push(Item { col: ci, from, to, support, rank: 0 });
            }
            from = to;
        }
    }
}

/// The columns of a mask, ascending (one step per column, not per bit).
fn bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            c
        })
    })
}

impl Data {
    fn of(table: &ClassTable, blank_in_msu: bool, small_rows: usize, dense_keys: usize) -> Data {
        let q = table.q();
        let wildcard = table.policy() == MissingPolicy::Wildcard;
        let blank_item = blank_in_msu && !wildcard;
        let mut codes = vec![0u32; table.len() * q];
        // Runs of classes on all cores, each key unpacked once.
        let run = crate::par::run_len(table.len());
        let runs: Vec<(usize, &mut [u32])> = codes.chunks_mut(run * q.max(1)).enumerate().map(|(k, c)| (k * run, c)).collect();
        crate::par::map(runs, |(first, cells)| table.keys_into(first, cells));
        let weight: Vec<u32> = (0..table.len()).map(|i| table.count(i) as u32).collect();
        let values: Vec<usize> = (0..q).map(|c| table.dict(c).len()).collect();
        let offset = values.iter().scan(0, |at, &n| Some(std::mem::replace(at, *at + n))).collect();
        Data { q, codes, weight, wildcard, blank_item, values, offset, small_rows: small_rows.min(256), dense_keys }
    }
}

/// Spec Sec 1.2: the MSUs of every class of `table` up to `max` items. The subtables of the
/// top-level items are searched on all cores (each with its own [`Pool`]), their candidates
/// then tested in rank order from the highest rank down.
pub fn find_msus(table: &ClassTable, max: usize, blank_in_msu: bool) -> Found {
    find_msus_with(table, max, blank_in_msu, SMALL_ROWS, DENSE_KEYS)
}

/// [`find_msus`], the subtables of at most `small_rows` rows searched as bit sets, those of at
/// most `dense_keys` keys merged through a slot per key.
fn find_msus_with(table: &ClassTable, max: usize, blank_in_msu: bool, small_rows: usize, dense_keys: usize) -> Found {
    let mut data = Data::of(table, blank_in_msu, small_rows, dense_keys);
    let q = data.q;
    let cols: Vec<usize> = (0..q).collect();
    let mut pool = Pool::default();
    let cell = |r: u32, c: usize| {
        let v = data.code(r, c);
        if data.wildcard || data.blank_item || !is_blank(v) { v } else { NONE }
    };
    // The classes are distinct keys: when every cell is an item (no blank, or blanks as items
    // under `ordinary`), they are the top table as they are, every column held, nothing to merge.
    let whole = !data.wildcard && (data.blank_item || !data.codes.iter().any(|&v| is_blank(v)));
    let top = if whole {
        // From here their cells and weights are read through `top` alone (`Data::code` only
        // under `wildcard`): moved, not copied.
        Sub { cols, codes: std::mem::take(&mut data.codes), weight: std::mem::take(&mut data.weight), id: (0..table.len() as u32).collect() }
    } else {
        Sub::project(&data, &cols, cell, |r| data.weight[r as usize], |r| r, 0..table.len() as u32, None::<(usize, fn(u32) -> usize)>, &mut pool)
    };
    if !top.weight.contains(&1) {
        return Found::none(table.len());
    }
    let mut columns = Vec::new();
    Column::all(&data, &top, &mut columns, &mut pool);
    let (mut ones, mut items) = (Vec::new(), Vec::new());
    scan(&top, &columns, max, &mut ones, &mut items);
    let ranks = rank(&data, &top, &columns, &mut items, &mut pool);
    items.retain(|item| worth(&top, &columns[item.col], item));
    // Every subtable's candidates at once (a thread takes the next item as it becomes free), then
    // tested in rank order: the same MSUs for any number of threads. The items are taken column
    // by column, the largest first; a column's rows are copied in its order ([`in_order`]) by
    // the first of its items to run and dropped after the last, so at most a copy per thread
    // or two are held at once.
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (items[i].col, std::cmp::Reverse(items[i].support)));
    let left: Vec<AtomicUsize> = (0..columns.len()).map(|ci| AtomicUsize::new(items.iter().filter(|item| item.col == ci).count())).collect();
    // A copy no longer read, and the pools of items done, are taken up by the next (their
    // buffers are already faulted in).
    let copies: Vec<Mutex<Option<Arc<Ordered>>>> = (0..columns.len()).map(|_| Mutex::new(None)).collect();
    let spare_copies = Mutex::new(Vec::new());
    let spare_pools = Mutex::new(Vec::new());
    let searched = crate::par::map(order.clone(), |i| {
        let item = &items[i];
        let col = &columns[item.col];
        let ordered = lock(&copies[item.col])
            .get_or_insert_with(|| {
                let spare = lock(&spare_copies).pop();
                Arc::new(in_order(&top, col, spare))
            })
            .clone();
        let spare = lock(&spare_pools).pop();
        let mut pool: Pool = spare.unwrap_or_default();
        let limit = (max - 1).min(item.support as usize - 1);
        let c = top.cols[col.j];
        let value = data_value(&top, col, item);
        let mut out = Vec::new();
        // The rows of the item side by side in the copy, read in order.
        let rows = (0..col.blanks as u32).chain(item.from as u32..item.to as u32);
        search_item(&data, &ordered.0, &ranks, col, item, rows, limit, &mut out, &mut pool);
        drop(ordered);
        if left[item.col].fetch_sub(1, Ordering::AcqRel) == 1 {
            let last = lock(&copies[item.col]).take();
            if let Some(Ok(copy)) = last.map(Arc::try_unwrap) {
                lock(&spare_copies).push(copy);
            }
        }
        lock(&spare_pools).push(pool);
        out.retain(|&(r, _)| !(data.wildcard && data.code(r, c) != value));
        (c, out)
    });
    let mut candidates: Vec<(usize, Vec<(u32, u64)>)> = vec![(0, Vec::new()); items.len()];
    order.into_iter().zip(searched).for_each(|(i, found)| candidates[i] = found);
    // Room for each class's 1-MSUs and every candidate of it, side by side; the gaps the
    // candidates rejected leave are closed at the end.
    let n = table.len();
    let mut start = vec![0usize; n + 1];
    ones.iter().chain(candidates.iter().flat_map(|(_, list)| list)).for_each(|&(r, _)| start[r as usize + 1] += 1);
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut len = vec![0usize; n];
    let mut masks = vec![0u64; start[n]];
    for (r, m) in ones {
        masks[start[r as usize] + len[r as usize]] = m;
        len[r as usize] += 1;
    }
    // A candidate kept from one item never lies within another of the same item (it holds the
    // item's column, they do not), so each may be tested against the MSUs kept before it. Only
    // a class's own candidates meet, so runs of classes are tested on all cores, each thread
    // reading every list in rank order and testing the candidates of its run.
    let threads = crate::par::threads().clamp(1, n.max(1));
    let mut runs = Vec::with_capacity(threads);
    let (mut masks_left, mut len_left) = (&mut masks[..], &mut len[..]);
    for k in 0..threads {
        let (lo, hi) = (n * k / threads, n * (k + 1) / threads);
        let (m, m_rest) = std::mem::take(&mut masks_left).split_at_mut(start[hi] - start[lo]);
        let (l, l_rest) = std::mem::take(&mut len_left).split_at_mut(hi - lo);
        (masks_left, len_left) = (m_rest, l_rest);
        runs.push((lo..hi, m, l));
    }
    crate::par::map(runs, |(classes, masks, len)| {
        let base = start[classes.start];
        for (c, list) in &candidates {
            for &(r, mask) in list.iter().filter(|(r, _)| classes.contains(&(*r as usize))) {
                let (at, l) = (start[r as usize] - base, &mut len[r as usize - classes.start]);
                if masks[at..at + *l].iter().all(|&m| m & !mask != 0) {
                    masks[at + *l] = mask | (1 << c);
                    *l += 1;
                }
            }
        }
    });
    let mut to = 0;
    for i in 0..n {
        let from = start[i];
        masks.copy_within(from..from + len[i], to);
        start[i] = to;
        to += len[i];
    }
    start[n] = to;
    masks.truncate(to);
    Found { start, masks }
}

/// The weights `w(1)..w(M)` (spec Sec 1.3).
pub fn weights(q: usize, max: usize, scheme: SudaWeights) -> Vec<f64> {
    let qe = q.max(3);
    match scheme {
        SudaWeights::Elliot => {
            let upper = if max == q { qe - 1 } else { max.min(qe - 1) };
            (1..=max).map(|k| (k..upper).map(|j| (qe - j) as f64).product()).collect()
        }
        SudaWeights::Ihsn => {
            let fact = |n: usize| (1..=n).map(|x| x as f64).product::<f64>();
            (1..=max).map(|k| ((1u64 << (qe - k)) as f64 - 1.0) * fact(k) * fact(qe - k) / fact(qe)).collect()
        }
    }
}

/// The upper edges of the 9 bins of sdcMicro's DIS histogram (spec Sec 1.5).
fn histogram(dis: impl Iterator<Item = (f64, u64)>) -> Vec<u64> {
    let edges: Vec<f64> = (0..8).map(|k| k as f64 * 0.1 + f64::EPSILON).collect();
    let mut bins = vec![0u64; 9];
    for (d, n) in dis {
        bins[edges.iter().position(|&e| d <= e).unwrap_or(8)] += n;
    }
    bins
}

/// SUDA's metrics and, when they have values, the SUDA and DIS-SUDA score of each class (the
/// per-record table's `suda_score` and `dis_suda_score`).
pub struct Scored {
    pub metrics: Vec<MetricResult>,
    pub scores: Option<(Vec<f64>, Vec<f64>)>,
}

/// Why SUDA gives no scores for `q` QIs, MSUs up to `max`, these settings and `n` records in
/// scope (spec Sec 1.5), if it does not.
fn unavailable(q: usize, max: usize, p: &SudaParams, n: u64) -> Option<(Status, &'static str)> {
    if q == 0 {
        Some((Status::NotApplicable, "no_quasi_identifiers"))
    } else if max == 0 || max > q || !(p.dis_fraction > 0.0 && p.dis_fraction <= 1.0) {
        Some((Status::Error, "invalid_parameter"))
    } else if q > MAX_QI {
        Some((Status::Error, "too_many_quasi_identifiers"))
    } else if q > MAX_SEARCHED_QI {
        Some((Status::Error, "msu_search_too_large"))
    } else if n == 0 {
        Some((Status::EmptyInput, "no_records_in_scope"))
    } else {
        None
    }
}

/// The MSUs of every class, or the status and reason of SUDA's metrics when there are none.
pub type Search = Result<Found, (Status, &'static str)>;

/// Spec Sec 1.2: the MSUs [`metrics`] reads for `q` QIs, searched on their own (so that the
/// audit can run the search beside the identity suite).
pub fn msus_of(table: &ClassTable, q: usize, p: &SudaParams) -> Search {
    let max = p.suda_max_size.unwrap_or(q);
    match unavailable(q, max, p, table.records()) {
        Some(why) => Err(why),
        None => Ok(find_msus(table, max, p.suda_blank_in_msu)),
    }
}

/// The SUDA metrics (spec peer-measures.md Sec 1.5) of a finished class table, and the SUDA
/// and DIS-SUDA score of each class for the per-record values. With `lists`, the record-level
/// lists of Sec 1.5
/// (`per_record` of both scores, `msu_counts`) are in the details: as long as the file, they
/// follow the audit's `per_record` setting, as record risk's vector does (docs/decisions/suda/per-record-follows-setting.md).
/// `found`: [`msus_of`] the same table, QIs and settings.
pub fn metrics(ctx: &Context, table: &ClassTable, qi: &[String], p: &SudaParams, ids: &RecordIds<'_>, lists: bool, found: Search) -> Scored {
    const IDS: [&str; 4] = ["suda_score", "suda_msu_records", "suda_msu_share", "suda_dis_score"];
    let q = qi.len();
    let max = p.suda_max_size.unwrap_or(q);
    let ctx = Context {
        params: json!({
            "missing_policy": table.policy(),
            "suda_max_size": max,
            "suda_weights": p.suda_weights,
            "dis_fraction": p.dis_fraction,
            "suda_blank_in_msu": p.suda_blank_in_msu,
        }),
        ..ctx.clone()
    };
    let all = |status: Status, reason: &'static str| Scored { metrics: IDS.iter().map(|id| ctx.without_value(id, status, reason)).collect(), scores: None };
    let found = match found {
        Ok(found) => found,
        Err((status, reason)) => return all(status, reason),
    };
    let n = table.records();
    let msus = Msus::of(&found, q, max);
    let w = weights(q, max, p.suda_weights);
    let qe = q.max(3);
    let score = |i: usize| -> f64 { msus.counts(i).iter().zip(&w).fold(0.0, |s, (&m, &w)| s + m as f64 * w) };
    let mut scores = vec![0.0; table.len()];
    crate::par::fill(&mut scores, score);
    // f_A with alpha = 1 (spec Sec 1.1): the class size, or the compatible records.
    let f: Vec<f64> =
        if table.policy() == MissingPolicy::Wildcard { table.match_counts(1.0) } else { (0..table.len()).map(|i| table.count(i) as f64).collect() };
    let records_where = |want: f64| (0..table.len()).filter(|&i| f[i] == want).map(|i| table.count(i)).sum::<u64>();
    let (u1, p2) = (records_where(1.0), records_where(2.0));
    let pi = p.dis_fraction;
    let q_exp = 1.0 + (8.0 - qe as f64) / 20.0;
    let scored: Vec<usize> = (0..table.len()).filter(|&i| scores[i] > 0.0).collect();
    // `score^-q` and `score^q` once per distinct score (a few hundred), not per class.
    let mut pow: crate::hash::Map<u64, (f64, f64)> = crate::hash::map();
    for &i in &scored {
        pow.entry(scores[i].to_bits()).or_insert_with(|| (scores[i].powf(-q_exp), scores[i].powf(q_exp)));
    }
    let s = crate::numeric::neumaier(scored.iter().map(|&i| table.count(i) as f64 * pow[&scores[i].to_bits()].0));
    let dis_of = |score: f64| if score > 0.0 { 1.0 / (1.0 + p2 as f64 * (1.0 - pi) / (pi * pow[&score.to_bits()].1 * s)) } else { 0.0 };
    let mut dis = vec![0.0; table.len()];
    crate::par::fill(&mut dis, |i| dis_of(scores[i]));
    let dis_file = (u1 > 0).then(|| u1 as f64 * pi / (u1 as f64 * pi + p2 as f64 * (1.0 - pi)));
    let summary = |v: &[f64]| {
        let (lo, hi) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let sum = crate::numeric::neumaier((0..table.len()).map(|i| v[i] * table.count(i) as f64));
        min_mean_max(lo, sum / n as f64, hi)
    };
    let mut total_by_size = vec![0u64; max];
    let mut by_smallest = vec![0u64; max];
    for &i in &scored {
        msus.counts(i).iter().enumerate().for_each(|(k, &m)| total_by_size[k] += m as u64);
        if let Some(k) = msus.counts(i).iter().position(|&m| m > 0) {
            by_smallest[k] += 1;
        }
    }
    let all_msus: u64 = total_by_size.iter().sum();
    let contributions: Vec<Value> = qi
        .iter()
        .enumerate()
        .map(|(c, name)| {
            let share = if all_msus > 0 { msus.by_column[c] as f64 / all_msus as f64 } else { 0.0 };
            json!({ "column": name, "msus": msus.by_column[c], "share": share })
        })
        .collect();
    let top = top_records(table, qi, &scores, &dis, &found, ids);
    let mut score_details = json!({
        "msu_total_by_size": total_by_size,
        "weights": w,
        "q_eff": qe,
        "max_msu_size": max,
        "weights_scheme": p.suda_weights,
        "variable_contributions": contributions,
        "top": top,
        "score_histogram": score_histogram(&scores, table),
    });
    let mut dis_details = json!({
        "dis_file": dis_file,
        "u1": u1,
        "p2": p2,
        "q_exponent": q_exp,
        "dis_fraction": pi,
        "histogram": histogram((0..table.len()).map(|i| (dis[i], table.count(i)))),
    });
    // The record-level lists, built only when asked for: the records of a scored class, one
    // each (only a key held by one record has MSUs), in file order.
    if lists {
        let mut by_row: Vec<usize> = scored.clone();
        by_row.sort_unstable_by_key(|&i| ids.first_row[i]);
        let keys = ids.keys(&by_row);
        let list = |v: &dyn Fn(usize) -> Value| Value::Object(by_row.iter().zip(&keys).map(|(&i, k)| (k.clone(), v(i))).collect());
        score_details["per_record"] = list(&|i| json!(scores[i]));
        score_details["msu_counts"] = list(&|i| json!(msus.counts(i)));
        dis_details["per_record"] = list(&|i| json!(dis[i]));
    }
    let mut score_metric = ctx.ok("suda_score", summary(&scores)).with_details(score_details);
    if q < 3 {
        score_metric = score_metric.with_warning("suda_padded_to_three_qis");
    }
    let n_scored = scored.len() as u64;
    let metrics = vec![
        score_metric,
        ctx.ok("suda_msu_records", n_scored).with_details(json!({ "by_smallest_msu": by_smallest })),
        ctx.ok("suda_msu_share", n_scored as f64 / n as f64),
        ctx.ok("suda_dis_score", summary(&dis)).with_details(dis_details),
    ];
    Scored { metrics, scores: Some((scores, dis)) }
}

/// The distribution of scores for the page's chart: records per distinct score, ascending
/// (summed per distinct score, then the few distinct scores sorted; scores are never -0).
fn score_histogram(scores: &[f64], table: &ClassTable) -> Value {
    let mut records: crate::hash::Map<u64, u64> = crate::hash::map();
    for (i, s) in scores.iter().enumerate() {
        *records.entry(s.to_bits()).or_default() += table.count(i);
    }
    let mut out: Vec<(f64, u64)> = records.into_iter().map(|(s, c)| (f64::from_bits(s), c)).collect();
    out.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    json!(out.iter().map(|&(s, c)| json!({ "score": s, "records": c })).collect::<Vec<_>>())
}

/// The [`TOP_RECORDS`] records with the highest scores (ties by their values, so the list does
/// not depend on row order), with their values and MSUs.
fn top_records(table: &ClassTable, qi: &[String], scores: &[f64], dis: &[f64], found: &Found, ids: &RecordIds<'_>) -> Value {
    let mut order: Vec<usize> = (0..table.len()).filter(|&i| scores[i] > 0.0).collect();
    let highest_first = |&a: &usize, &b: &usize| scores[b].total_cmp(&scores[a]).then_with(|| table.cmp_values(a, b));
    crate::numeric::first_in_order(&mut order, TOP_RECORDS, highest_first);
    let rows: Vec<Value> = order
        .iter()
        .map(|&i| {
            let values: serde_json::Map<String, Value> =
                qi.iter().enumerate().map(|(c, name)| (name.clone(), json!(table.dict(c).display(table.code_at(i, c))))).collect();
            let mut sets = found.of(i).to_vec();
            sets.sort_unstable_by_key(|&m| (m.count_ones(), bits(m).collect::<Vec<_>>()));
            let names: Vec<Vec<&str>> = sets.iter().map(|&m| bits(m).map(|c| qi[c].as_str()).collect()).collect();
            let mut row = json!({ "row": ids.first_row[i] + 1, "values": values, "size": 1, "score": scores[i], "dis": dis[i], "msus": names });
            if let Some(id) = ids.first_id {
                row["record_id"] = json!(id[i]);
            }
            row
        })
        .collect();
    Value::Array(rows)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::ingest::cell::Cell;

    /// A class table of `rows` over `q` QIs (value 0 = a missing cell).
    fn classes(rows: &[Vec<u8>], q: usize, policy: MissingPolicy) -> ClassTable {
        let mut t = ClassTable::new(q, policy, false, false);
        for row in rows {
            let texts: Vec<String> = row.iter().map(|v| format!("v{v}")).collect();
            let key: Vec<u32> = (0..q).map(|a| if row[a] == 0 { t.code(a, Cell::Missing) } else { t.code(a, Cell::text(&texts[a])) }).collect();
            t.absorb(&key, 0.0).unwrap();
        }
        t
    }

    /// Each class's MSUs, sorted (the search finds them in an order of its own).
    fn sorted(found: &Found) -> Vec<Vec<u64>> {
        (0..found.classes())
            .map(|i| {
                let mut m = found.of(i).to_vec();
                m.sort_unstable();
                m
            })
            .collect()
    }

    #[test]
    fn small_subtables_keep_twin_rows_apart() {
        // Four records, one a class, over 3 QIs:
        //   r0 = (a, x, p), r1 = (a, x, q), r2 = (b, x, p), r3 = (b, y, q).
        // Supports: a 2, b 2, x 3, y 1, p 2, q 2, so {y} is r3's 1-MSU. Pairs held by one
        // record, neither item unique: {a,p} r0, {a,q} r1, {b,p} r2, {b,q} r3 (c0 c2),
        // {b,x} r2 (c0 c1), {x,q} r1 (c1 c2); {a,x} and {x,p} are held twice, {b,y} and {y,q}
        // hold {y}. Every triple holds one of these: no 3-MSU.
        // Ranked by support (ties by column): a, b, p, q, x. The subtable of p (r0, r2) over
        // the items ranked above p (q, x) is two rows (x) and (x): twins, kept apart as bit
        // sets (merged when projected); x is held by both, so neither finds an MSU there.
        let t = classes(&[vec![1, 1, 1], vec![1, 1, 2], vec![2, 1, 1], vec![2, 2, 2]], 3, MissingPolicy::Ordinary);
        let (c0, c1, c2) = (1u64, 2u64, 4u64);
        let want = vec![vec![c0 | c2], vec![c0 | c2, c1 | c2], vec![c0 | c1, c0 | c2], vec![c1, c0 | c2]];
        let mut want: Vec<Vec<u64>> = want;
        want.iter_mut().for_each(|m| m.sort_unstable());
        for small_rows in [0, 256] {
            for dense_keys in [0, DENSE_KEYS] {
                assert_eq!(sorted(&find_msus_with(&t, 3, false, small_rows, dense_keys)), want, "small_rows {small_rows}, dense_keys {dense_keys}");
            }
        }
    }

    fn table() -> impl Strategy<Value = (usize, Vec<Vec<u8>>)> {
        (1usize..=7).prop_flat_map(|q| (Just(q), proptest::collection::vec(proptest::collection::vec(0u8..5, q), 1..300)))
    }

    fn policy() -> impl Strategy<Value = MissingPolicy> {
        prop_oneof![Just(MissingPolicy::Ordinary), Just(MissingPolicy::Wildcard)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Subtables searched as bit sets, and subtables merged through dense keys, give the
        /// MSUs of subtables projected through a hash and searched (`small_rows` and
        /// `dense_keys` 0), at any threshold.
        #[test]
        fn small_subtables_give_the_projected_search((q, rows) in table(), max_pick in 0usize..8, policy in policy(), blank_in_msu in any::<bool>()) {
            let max = 1 + max_pick % q;
            let t = classes(&rows, q, policy);
            let projected = sorted(&find_msus_with(&t, max, blank_in_msu, 0, 0));
            for (small_rows, dense_keys) in [(0, 12), (0, DENSE_KEYS), (1, 0), (3, DENSE_KEYS), (16, 40), (64, DENSE_KEYS), (100, 0), (256, DENSE_KEYS)] {
                prop_assert_eq!(&sorted(&find_msus_with(&t, max, blank_in_msu, small_rows, dense_keys)), &projected, "small_rows {}, dense_keys {}", small_rows, dense_keys);
            }
        }
    }
}
