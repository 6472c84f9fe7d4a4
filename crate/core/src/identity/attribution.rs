//! What drives the risk (spec identity-risk.md Sec 10): distinction and separation of every
//! subset of the quasi-identifiers (ARX), each QI's leave-one-out contribution, and the
//! smallest combinations that single out a record.
//!
//! Computed from the finished class table without another pass over the data: the classes of
//! a subset `S` are the classes of `A` projected onto `S`, which with bit-packed keys is a mask.

use serde_json::json;

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::hash::{Fixed, Map, map, square};
use crate::metric::{Context, MetricResult, Scope};
use crate::radix::radix_sort_words;
use crate::table::classes::ClassTable;

/// Above this many QIs only subsets of size 1, 2, q-1 and q are evaluated (spec Sec 10).
pub const FULL_LATTICE_MAX_QIS: usize = 10;

/// Beyond this many QIs attribution is not computed (subsets are bit masks of a `u32`).
pub const MAX_QIS: usize = 24;

/// Class statistics of one subset.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SubsetStats {
    /// Bit `a` set = QI `a` in the subset.
    pub mask: u32,
    /// Distinct keys `K_S`.
    pub classes: u64,
    /// `sum_j f_{S,j}^2`.
    pub sum_sq: u128,
    /// Records unique on `S`.
    pub uniques: u64,
    /// Records of the smallest class on `S` (its `k`).
    pub smallest: u64,
    /// Records in classes on `S` of fewer than the `risk_below` records they were counted
    /// with ([`at_risk_below`]): the records at risk, for advice's "drop a QI" (issue 12).
    pub at_risk: u64,
}

/// The class size from which a class's records are no longer at risk: a record is at risk
/// when `1/f > threshold` (its prosecutor risk above the threshold, spec identity-risk.md
/// Sec 5), which holds for the sizes `1 .. at_risk_below` and no other, `1/f` never growing
/// with `f`. At most `records + 1` (every class of a table of `records` is at risk).
pub fn at_risk_below(threshold: f64, records: u64) -> u64 {
    let at_risk = |f: u64| 1.0 / f as f64 > threshold;
    let (mut lo, mut hi) = (1u64, records.saturating_add(1));
    // The first size in [lo, hi] not at risk (hi when every smaller one is).
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if at_risk(mid) { lo = mid + 1 } else { hi = mid }
    }
    lo
}

/// Subsets evaluated for `q` QIs, in output order: by size, then by QI positions.
pub fn subsets(q: usize) -> Vec<u32> {
    let all_ones = (1u32 << q) - 1;
    let mut all: Vec<u32> = if q <= FULL_LATTICE_MAX_QIS {
        (1..=all_ones).collect()
    } else {
        let singles = (0..q).map(|a| 1u32 << a);
        let pairs = (0..q).flat_map(|a| (a + 1..q).map(move |b| (1u32 << a) | (1 << b)));
        let leave_one_out = (0..q).map(|a| all_ones & !(1 << a));
        singles.chain(pairs).chain(leave_one_out).chain([all_ones]).collect()
    };
    let positions = |m: u32| (0..q as u32).filter(|a| m >> a & 1 == 1).collect::<Vec<_>>();
    all.sort_by_key(|&m| (m.count_ones(), positions(m)));
    all
}

/// Up to this many value combinations a subset is counted in a dense array, not a hash table.
const DENSE_MAX: usize = 1 << 20;

/// A grouped subset: records per distinct key. With one-word keys the key is the masked
/// packed key itself, so grouping a subset of a subset never goes back to the classes.
enum Groups {
    /// `(masked key, records)`.
    Word(Vec<(u64, u32)>),
    /// `(a representative class, records)`, for keys longer than one word.
    Rep(Vec<(u32, u32)>),
    /// Only the group sizes: a subset too large to keep for its own subsets.
    Sizes(Vec<u32>),
}

impl Groups {
    fn len(&self) -> usize {
        match self {
            Groups::Word(g) => g.len(),
            Groups::Rep(g) => g.len(),
            Groups::Sizes(g) => g.len(),
        }
    }

    fn sizes(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Groups::Word(g) => Box::new(g.iter().map(|x| x.1)),
            Groups::Rep(g) => Box::new(g.iter().map(|x| x.1)),
            Groups::Sizes(g) => Box::new(g.iter().copied()),
        }
    }
}

/// Radix-sort grouping is used up to this many source entries (it needs 32 bytes each);
/// larger sources are hashed in partitions of at most [`PARTITION`] groups.
const RADIX_MAX: usize = 2 << 20;

/// Groups per hash partition: about 40 MB of table.
const PARTITION: usize = 2 << 20;

/// Statistics of every subset in `masks`, each grouped from the smallest already grouped
/// superset (or from the classes themselves): small subsets cost little however many classes
/// there are. Grouped lists are kept while their entries total at most a quarter of the
/// classes, so memory stays within a few bytes a class.
pub fn project_all(table: &ClassTable, masks: &[u32], risk_below: u64) -> Vec<SubsetStats> {
    let mut budget = table.len() / 4 + 1024;
    let mut stored: Vec<(u32, Groups)> = Vec::new();
    let mut order: Vec<u32> = masks.to_vec();
    order.sort_by_key(|m| std::cmp::Reverse(m.count_ones()));
    let mut stats = Vec::with_capacity(masks.len());
    for mask in order {
        let source = stored.iter().filter(|(m, _)| m & mask == mask).map(|(_, g)| g).min_by_key(|g| g.len());
        // A source is a table of keys: `Sizes` is never stored.
        let groups = group(table, source, mask);
        let mut tally = Tally::<u128>::new();
        for f in groups.sizes() {
            tally.add(u64::from(f), risk_below);
        }
        stats.push(tally.stats(mask));
        let source_len = source.map_or(table.len(), Groups::len);
        if groups.len() < source_len && groups.len() <= budget && !matches!(groups, Groups::Sizes(_)) {
            budget -= groups.len();
            stored.push((mask, groups));
        }
    }
    stats
}

/// A symmetric chain decomposition of the subsets of `q` QIs (de Bruijn, van Ebbenhorst
/// Tengbergen and Kruyswijk): every subset lies on exactly one chain `S_1 ⊂ S_2 ⊂ ...` whose
/// members grow by one QI. Built by induction: each chain `A_1..A_k` of `q - 1` gives
/// `A_1..A_k, A_k + q` and `A_1 + q .. A_(k-1) + q`. There are `C(q, q/2)` chains, so the
/// 2^q - 1 subsets cost that many sorts (70 instead of 255 for 8 QIs).
fn chains(q: usize) -> Vec<Vec<u32>> {
    let mut chains = vec![vec![0u32]];
    for a in 0..q {
        let bit = 1u32 << a;
        let mut next = Vec::with_capacity(chains.len() * 2);
        for c in chains {
            let mut up = c.clone();
            up.push(c[c.len() - 1] | bit);
            next.push(up);
            if c.len() > 1 {
                next.push(c[..c.len() - 1].iter().map(|m| m | bit).collect());
            }
        }
        chains = next;
    }
    chains
}

/// Groups of a subset: one word each, its key above its count. `fields` gives each QI's
/// `(shift, bits)` in the key (the class table's packing for the classes; a chain's own
/// compact layout for the groups it keeps, so they are never expanded back).
struct Source {
    mask: u32,
    words: Vec<u64>,
    fields: Vec<(u32, u32)>,
}

/// What the chain sorts read: the classes of the full set of QIs as one word each, the packed
/// key above the count. Small (8 bytes a class) and enough on its own, so the lattice can be
/// computed by a worker that holds no table ([`super::lattice`]: the page's reader workers).
#[derive(Debug, Clone, PartialEq)]
pub struct Lattice {
    /// QIs.
    pub(crate) q: usize,
    /// Bits of a word below the key: a group's count can reach every record.
    pub(crate) count_bits: u32,
    /// Each QI's `(shift, bits)` in the key.
    pub(crate) fields: Vec<(u32, u32)>,
    /// One word a class.
    pub(crate) words: Vec<u64>,
    /// The class size from which records are not at risk ([`SubsetStats::at_risk`]).
    pub(crate) risk_below: u64,
}

impl Lattice {
    /// The lattice of `table`'s classes over its `q` QIs; `None` when a key and its count do
    /// not fit one word (then [`project_all`] groups each subset).
    fn of(table: &ClassTable, q: usize, risk_below: u64) -> Option<Lattice> {
        let packing = table.packing();
        let key_bits: u32 = (0..q).map(|a| packing.field(a)).map(|(shift, bits)| shift + bits).max().unwrap_or(0);
        let count_bits = 64 - table.records().leading_zeros();
        if packing.words() != 1 || key_bits + count_bits > 64 {
            return None;
        }
        Some(Lattice {
            q,
            count_bits,
            fields: (0..q).map(|a| packing.field(a)).collect(),
            words: (0..table.len()).map(|i| table.packed(i)[0] << count_bits | table.count(i)).collect(),
            risk_below,
        })
    }

    /// Statistics of every subset from the chains of [`chains`]: each chain is one sort, and
    /// each sort reads the groups of the smallest subset already grouped that contains the
    /// chain's largest member (the classes themselves at first). Chains are taken from the
    /// largest tops down, and each keeps its top's groups for the chains below while they fit
    /// in a few words a class.
    pub fn stats(self) -> Vec<SubsetStats> {
        let Lattice { q, count_bits, fields, words, risk_below } = self;
        let mut budget = 6 * words.len() + 4096;
        let classes = Source { mask: (1u32 << q) - 1, words, fields };
        let mut stored: Vec<Source> = Vec::new();
        let mut stats = Vec::new();
        // Sort buffers, taken by a chain and given back after it: reused from chain to chain
        // and from wave to wave, whichever thread sorts.
        let buffers: std::sync::Mutex<Vec<(Vec<u64>, Vec<u64>)>> = std::sync::Mutex::new(Vec::new());
        // Waves of chains whose tops have one size, from the largest: a wave reads the groups
        // the waves before it kept, so its chains run on all cores and the result is the same.
        let all = chains(q);
        // The chains whose tops have q or q-1 QIs all read the classes: one wave.
        for size in (1..=q as u32).rev().filter(|&size| q < 2 || size < q as u32) {
            let wave: Vec<&Vec<u32>> =
                all.iter().filter(|c| c.last().map(|m| m.count_ones()).is_some_and(|t| t == size || (size + 1 == q as u32 && t == q as u32))).collect();
            let done = crate::par::map(wave, |chain| {
                let top = *chain.last().expect("chains are not empty");
                let source = stored.iter().filter(|s| s.mask & top == top).min_by_key(|s| s.words.len()).unwrap_or(&classes);
                let keep = top != classes.mask && top.count_ones() > 1;
                let mut mine = buffers.lock().ok().and_then(|mut b| b.pop()).unwrap_or_default();
                let (members, groups) = chain_stats(q, chain, source, (count_bits, risk_below), keep, &mut mine);
                if let Ok(mut b) = buffers.lock() {
                    b.push(mine);
                }
                (top, source.words.len(), members, groups)
            });
            for (top, source_len, members, groups) in done {
                stats.extend(members);
                if let Some((words, fields)) = groups.filter(|(w, _)| w.len() < source_len && w.len() <= budget) {
                    budget -= words.len();
                    stored.push(Source { mask: top, words, fields });
                }
            }
        }
        stats
    }
}

/// The lattice [`metrics`] computes by chain sorts for these QIs, when it does: at most
/// [`FULL_LATTICE_MAX_QIS`] QIs, at most [`RADIX_MAX`] classes, a key and its count in one word.
/// `threshold`: the audit's, for [`SubsetStats::at_risk`].
pub fn lattice_of(table: &ClassTable, q: usize, threshold: f64) -> Option<Lattice> {
    let risk_below = at_risk_below(threshold, table.records());
    (q <= FULL_LATTICE_MAX_QIS && table.len() <= RADIX_MAX).then(|| Lattice::of(table, q, risk_below)).flatten()
}

#[cfg(test)]
fn chain_lattice(table: &ClassTable, q: usize, risk_below: u64) -> Option<Vec<SubsetStats>> {
    Lattice::of(table, q, risk_below).map(|l| l.stats())
}

/// A chain's top groups and their layout (each QI's `(shift, bits)`), kept for the chains below.
type Kept = (Vec<u64>, Vec<(u32, u32)>);

/// Statistics of every non-empty member of one chain from a single sort of `source`: with
/// the chain's QIs ordered as they join it, every member's groups are runs of a common
/// prefix of the sorted keys. With `keep`, also returns the groups of the chain's largest
/// member, in the chain's compact layout, with that layout. `buffers` are reused from chain
/// to chain.
fn chain_stats(
    q: usize,
    chain: &[u32],
    source: &Source,
    (count_bits, risk_below): (u32, u64),
    keep: bool,
    buffers: &mut (Vec<u64>, Vec<u64>),
) -> (Vec<SubsetStats>, Option<Kept>) {
    let mut order: Vec<usize> = Vec::new();
    let mut seen = 0u32;
    for &m in chain {
        for a in 0..q {
            if m >> a & 1 == 1 && seen >> a & 1 == 0 {
                order.push(a);
            }
        }
        seen |= m;
    }
    let fields: Vec<(u32, u32)> = order.iter().map(|&a| source.fields[a]).collect();
    let width: u32 = fields.iter().map(|f| f.1).sum();
    // Member j keeps the first |S_j| fields: the top bits of the compact key.
    let members: Vec<(u32, u32)> =
        chain.iter().filter(|m| **m != 0).map(|&m| (m, width - fields.iter().take(m.count_ones() as usize).map(|f| f.1).sum::<u32>())).collect();
    let count_mask = (1u64 << count_bits) - 1;
    let gather = Gather::new(&fields);
    let (a, b) = buffers;
    a.clear();
    a.extend(source.words.iter().map(|&w| gather.compact(w >> count_bits) << count_bits | (w & count_mask)));
    radix_sort_words(a, b, count_bits, width);
    let bounds: Vec<u32> = members.iter().map(|m| m.1).collect();
    // Every sum of squares is at most the records squared: in one word below 2^32 records.
    let (member_stats, top_groups) =
        if count_bits <= 32 { scan_runs::<u64>(a, count_bits, &bounds, risk_below) } else { scan_runs::<u128>(a, count_bits, &bounds, risk_below) };
    let stats = members.iter().zip(member_stats).map(|(&(mask, _), s)| SubsetStats { mask, ..s }).collect();
    let groups = keep.then(|| a[..top_groups].to_vec());
    // The compact layout: the chain's QIs in order, the first most significant.
    let groups = groups.map(|g| {
        let mut layout = vec![(0, 0); q];
        let mut below = width;
        for (&a, &(_, bits)) in order.iter().zip(&fields) {
            below -= bits;
            layout[a] = (below, bits);
        }
        (g, layout)
    });
    (stats, groups)
}

/// A sum of squares of group sizes: in one word when it cannot pass 2^64 (fewer than 2^32
/// records: [`chain_stats`]), which wasm32 adds and multiplies in one instruction.
trait SquareSum: Copy + Default + std::ops::Add<Output = Self> + std::ops::AddAssign {
    fn square_of(f: u64) -> Self;
    fn wide(self) -> u128;
}

impl SquareSum for u64 {
    #[inline(always)]
    fn square_of(f: u64) -> u64 {
        f * f
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
}

impl SquareSum for u128 {
    #[inline(always)]
    fn square_of(f: u64) -> u128 {
        square(f)
    }
    fn wide(self) -> u128 {
        self
    }
}

/// The statistics of each member of a chain from its sorted words (key above `count_bits`,
/// count below), member `j` grouping on the key's bits from `bounds[j]` up (`bounds`
/// decreasing: the last member groups on the whole key). Writes the last member's groups
/// over the words already read (group `g` after word `g` is read) and returns their number.
/// The members that change group at a word are found from a table of the highest bit in
/// which its key differs from the word before's: every member whose bits reach that bit.
fn scan_runs<S: SquareSum>(a: &mut [u64], count_bits: u32, bounds: &[u32], risk_below: u64) -> (Vec<SubsetStats>, usize) {
    let m = bounds.len();
    let (Some(&first), Some(last)) = (a.first(), m.checked_sub(1)) else {
        return (vec![SubsetStats::default(); m], 0);
    };
    // The first member whose group changes when bit `h` is the highest that differs (the
    // last member's always does: it is kept apart, in registers).
    let first_changed: [usize; 64] = std::array::from_fn(|h| bounds.iter().position(|&b| b <= h as u32).unwrap_or(last).min(last));
    let mut smaller = vec![Open::<S>::new(); last];
    let count_mask = (1u64 << count_bits) - 1;
    let (mut cum, mut top) = (0u64, Open::<S>::new());
    let mut prev = first >> count_bits;
    for i in 0..a.len() {
        let x = a[i];
        let key = x >> count_bits;
        let diff = prev ^ key;
        if diff != 0 {
            a[top.tally.classes as usize] = prev << count_bits | (cum - top.start);
            top.close(cum, risk_below);
            for open in &mut smaller[first_changed[63 - diff.leading_zeros() as usize]..] {
                open.close(cum, risk_below);
            }
        }
        cum += x & count_mask;
        prev = key;
    }
    a[top.tally.classes as usize] = prev << count_bits | (cum - top.start);
    let groups = top.tally.classes as usize + 1;
    let mut stats: Vec<SubsetStats> = smaller.into_iter().map(|open| open.end(cum, risk_below)).collect();
    stats.push(top.end(cum, risk_below));
    (stats, groups)
}

/// The statistics of a subset's groups, one group at a time.
#[derive(Clone, Copy)]
struct Tally<S> {
    classes: u64,
    sum: S,
    uniques: u64,
    smallest: u64,
    at_risk: u64,
}

impl<S: SquareSum> Tally<S> {
    fn new() -> Self {
        Tally { classes: 0, sum: S::default(), uniques: 0, smallest: u64::MAX, at_risk: 0 }
    }

    /// Counts a group of `f` records (at risk below `risk_below`).
    #[inline(always)]
    fn add(&mut self, f: u64, risk_below: u64) {
        self.classes += 1;
        self.sum += S::square_of(f);
        self.uniques += u64::from(f == 1);
        self.smallest = self.smallest.min(f);
        self.at_risk += if f < risk_below { f } else { 0 };
    }

    /// The statistics of subset `mask` (a smallest class of 0 when there is none).
    fn stats(self, mask: u32) -> SubsetStats {
        let smallest = if self.classes == 0 { 0 } else { self.smallest };
        SubsetStats { mask, classes: self.classes, sum_sq: self.sum.wide(), uniques: self.uniques, smallest, at_risk: self.at_risk }
    }
}

/// A chain member's tally while its sorted words are scanned, and where its open group
/// started (a cumulative count of records).
#[derive(Clone, Copy)]
struct Open<S> {
    tally: Tally<S>,
    start: u64,
}

impl<S: SquareSum> Open<S> {
    fn new() -> Self {
        Open { tally: Tally::new(), start: 0 }
    }

    /// Closes the open group at `cum` records and opens the next there.
    #[inline(always)]
    fn close(&mut self, cum: u64, risk_below: u64) {
        self.tally.add(cum - self.start, risk_below);
        self.start = cum;
    }

    /// The statistics once the last group, ending at `cum`, is closed.
    fn end(mut self, cum: u64, risk_below: u64) -> SubsetStats {
        self.close(cum, risk_below);
        self.tally.stats(0)
    }
}

/// [`compact`] by table lookups: the fields `(shift, bits)` of a key gathered one byte of the
/// key at a time (a bit selection distributes over the key's bytes), a few loads instead of a
/// shift and mask per field.
struct Gather {
    tables: Vec<[u64; 256]>,
}

impl Gather {
    fn new(fields: &[(u32, u32)]) -> Gather {
        let key_bits = fields.iter().map(|&(shift, bits)| shift + bits).max().unwrap_or(0);
        let tables = (0..key_bits.div_ceil(8)).map(|p| std::array::from_fn(|b| compact((b as u64) << (8 * p), fields))).collect();
        Gather { tables }
    }

    #[inline]
    fn compact(&self, key: u64) -> u64 {
        self.tables.iter().enumerate().fold(0, |c, (p, t)| c | t[(key >> (8 * p)) as usize & 0xff])
    }
}

/// A packed key's fields `(shift, bits)` side by side in a narrow integer, the first field
/// most significant.
fn compact(key: u64, fields: &[(u32, u32)]) -> u64 {
    fields.iter().fold(0u64, |c, &(shift, bits)| (c << bits) | ((key >> shift) & ((1u64 << bits) - 1)))
}

/// The packed key of a compact one ([`compact`]'s inverse, other fields zero).
fn expand(mut c: u64, fields: &[(u32, u32)]) -> u64 {
    let mut key = 0u64;
    for &(shift, bits) in fields.iter().rev() {
        key |= (c & ((1u64 << bits) - 1)) << shift;
        c >>= bits;
    }
    key
}

/// Groups one-word keys by the fields `(shift, bits)`: the fields are packed side by side into
/// a narrow integer and sorted with an LSD radix sort (11 bits a pass), then runs are counted.
/// Faster than hashing when most keys are distinct, and no random memory access.
fn radix_group(src: &[(u64, u32)], fields: &[(u32, u32)]) -> Vec<(u64, u32)> {
    let mut out: Vec<(u64, u32)> = Vec::new();
    for (k, n) in radix_sort(src, fields) {
        match out.last_mut() {
            Some(last) if last.0 == k => last.1 = last.1.saturating_add(n),
            _ => out.push((k, n)),
        }
    }
    for g in &mut out {
        g.0 = expand(g.0, fields);
    }
    out
}

/// The keys of `src` compacted to the fields `(shift, bits)` (the first field most
/// significant) and sorted by an LSD radix sort, 11 bits a pass.
fn radix_sort(src: &[(u64, u32)], fields: &[(u32, u32)]) -> Vec<(u64, u32)> {
    let width: u32 = fields.iter().map(|f| f.1).sum();
    let mut a: Vec<(u64, u32)> = src.iter().map(|&(k, n)| (compact(k, fields), n)).collect();
    let mut b = vec![(0u64, 0u32); a.len()];
    let mut shift = 0;
    while shift < width {
        let mut count = [0usize; 1 << 11];
        for &(k, _) in &a {
            count[((k >> shift) & 0x7ff) as usize] += 1;
        }
        let mut at = 0;
        for c in count.iter_mut() {
            (*c, at) = (at, at + *c);
        }
        for &x in &a {
            let d = ((x.0 >> shift) & 0x7ff) as usize;
            b[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(&mut a, &mut b);
        shift += 11;
    }
    a
}

/// Groups `source` (the classes when `None`) by the projection of its keys onto `mask`.
fn group(table: &ClassTable, source: Option<&Groups>, mask: u32) -> Groups {
    let packing = table.packing();
    let in_mask: Vec<usize> = (0..table.q()).filter(|&a| mask >> a & 1 == 1).collect();
    let bits: Vec<u64> = (0..packing.words()).map(|w| in_mask.iter().map(|&a| packing.field_mask(a, w)).fold(0, |x, y| x | y)).collect();
    // At most as many groups as combinations of the subset's values.
    let combos = in_mask.iter().fold(1usize, |p, &a| p.saturating_mul(table.dict(a).len()));
    let len = source.map_or(table.len(), Groups::len);
    if packing.words() > 1 {
        let src: Vec<(u32, u32)> = match source {
            Some(Groups::Rep(g)) => g.clone(),
            _ => (0..table.len()).map(|i| (i as u32, table.count(i) as u32)).collect(),
        };
        return Groups::Rep(rep_group(table, &src, &bits, combos.min(len)));
    }
    let entries = || -> Box<dyn Iterator<Item = (u64, u32)> + '_> {
        match source {
            Some(Groups::Word(g)) => Box::new(g.iter().copied()),
            _ => Box::new((0..table.len()).map(|i| (table.packed(i)[0], table.count(i) as u32))),
        }
    };
    let len = if packing.words() == 1 { len } else { table.len() };
    if combos <= DENSE_MAX && combos <= 2 * len {
        // Mixed-radix index of the subset's codes into a dense array.
        let index = |key: u64| in_mask.iter().fold(0usize, |i, &a| i * table.dict(a).len() + packing.code(&[key], a) as usize);
        let mut counts = vec![(0u64, 0u32); combos];
        for (key, n) in entries() {
            let c = &mut counts[index(key)];
            (c.0, c.1) = (key & bits[0], c.1.saturating_add(n));
        }
        return Groups::Word(counts.into_iter().filter(|c| c.1 > 0).collect());
    }
    if len <= RADIX_MAX {
        let src: Vec<(u64, u32)> = entries().collect();
        return Groups::Word(radix_group(&src, &in_mask.iter().map(|&a| packing.field(a)).collect::<Vec<_>>()));
    }
    // Hash partitions: equal keys share a hash, so each partition is counted on its own.
    let hasher = Fixed::with_seed(0x5eed);
    let parts = combos.min(len).div_ceil(PARTITION) as u64;
    let mut sizes = Vec::new();
    for part in 0..parts {
        let mut groups: Map<u64, u32> = map();
        for (key, n) in entries() {
            let k = key & bits[0];
            if hasher.hash_one(k) % parts == part {
                let g = groups.entry(k).or_insert(0);
                *g = g.saturating_add(n);
            }
        }
        sizes.extend(groups.into_values());
    }
    Groups::Sizes(sizes)
}

/// Groups classes with keys longer than one word by representative.
fn rep_group(table: &ClassTable, src: &[(u32, u32)], bits: &[u64], capacity: usize) -> Vec<(u32, u32)> {
    let key_of = |i: u32| table.packed(i as usize).iter().zip(bits).map(|(k, b)| k & b).collect::<Vec<u64>>();
    let hasher = Fixed::with_seed(0x5eed);
    let hash = |i: u32| hasher.hash_one(key_of(i));
    let mut groups: HashTable<(u32, u32)> = HashTable::with_capacity(capacity);
    for &(rep, n) in src {
        let (h, key) = (hash(rep), key_of(rep));
        match groups.find_mut(h, |&(r, _)| key_of(r) == key) {
            Some(g) => g.1 = g.1.saturating_add(n),
            None => {
                groups.insert_unique(h, (rep, n), |&(r, _)| hash(r));
            }
        }
    }
    groups.into_iter().collect()
}

/// `qi_distinction` and `qi_separation` per subset, `qi_contribution` per QI and
/// `qi_singling_out` (project-defined: the minimal subsets on which some record is unique).
/// `threshold`: the audit's, for [`SubsetStats::at_risk`].
pub fn metrics(ctx: &Context, table: &ClassTable, qi: &[String], threshold: f64) -> Vec<MetricResult> {
    if qi.len() > MAX_QIS {
        let why = "too_many_quasi_identifiers";
        return ["qi_distinction", "qi_separation", "qi_contribution", "qi_singling_out"]
            .map(|id| ctx.without_value(id, crate::metric::Status::NotApplicable, why))
            .to_vec();
    }
    let stats = match lattice_of(table, qi.len(), threshold) {
        Some(lattice) => lattice.stats(),
        None => project_all(table, &subsets(qi.len()), at_risk_below(threshold, table.records())),
    };
    metrics_from(ctx, table.records(), qi, stats)
}

/// [`metrics`] from the statistics of every evaluated subset (in any order) of a table of `n`
/// records: computed here, or elsewhere from its [`Lattice`].
pub fn metrics_from(ctx: &Context, n: u64, qi: &[String], mut stats: Vec<SubsetStats>) -> Vec<MetricResult> {
    let nf = n as f64;
    let q = qi.len();
    let masks = subsets(q);
    stats.sort_by_key(|s| masks.iter().position(|&m| m == s.mask));
    let names = |m: u32| (0..q).filter(|&a| m >> a & 1 == 1).map(|a| qi[a].clone()).collect::<Vec<_>>();
    let mut out = Vec::new();
    for s in &stats {
        let sub = Context { scope: Scope { subset: Some(names(s.mask)), ..ctx.scope.clone() }, ..ctx.clone() };
        out.push(sub.ok("qi_distinction", s.classes as f64 / nf));
        out.push(if n > 1 {
            sub.ok("qi_separation", (nf * nf - s.sum_sq as f64) / (nf * (nf - 1.0)))
        } else {
            sub.without_value("qi_separation", crate::metric::Status::NotApplicable, "single_record")
        });
    }
    let all = (1u32 << q) - 1;
    let of = |m: u32| stats.iter().find(|s| s.mask == m).copied();
    let whole = of(all).expect("the full set is always evaluated");
    // Leave-one-out: R_int(empty) = 1/n, sample_uniqueness(empty) = [n = 1].
    let without = |a: usize| {
        let m = all & !(1 << a);
        if m == 0 {
            (1.0 / nf, f64::from(u8::from(n == 1)))
        } else {
            let s = of(m).expect("subsets of size q-1 are always evaluated");
            (s.classes as f64 / nf, s.uniques as f64 / nf)
        }
    };
    let deltas: Vec<(f64, f64)> = (0..q)
        .map(|a| {
            let (r, u) = without(a);
            // (R_int, uniqueness) of A minus a; the deltas are >= 0.
            (whole.uniques as f64 / nf - u, whole.classes as f64 / nf - r)
        })
        .collect();
    let total: f64 = deltas.iter().map(|d| d.1).sum();
    for (a, name) in qi.iter().enumerate() {
        let (du, dr) = deltas[a];
        let sub = Context { scope: Scope { attribute: Some(name.clone()), ..ctx.scope.clone() }, ..ctx.clone() };
        let share = if total > 0.0 { json!(dr / total) } else { json!(null) };
        out.push(sub.ok("qi_contribution", json!({ "delta_uniqueness": du, "delta_r_internal": dr, "share": share })));
    }
    // Minimal subsets with a unique record: no evaluated proper subset singles anyone out.
    let singling: Vec<&SubsetStats> = stats.iter().filter(|s| s.uniques > 0).collect();
    let minimal: Vec<_> = singling
        .iter()
        .filter(|s| !singling.iter().any(|t| t.mask != s.mask && t.mask & s.mask == t.mask))
        .map(|s| json!({ "subset": names(s.mask), "uniques": s.uniques, "share": s.uniques as f64 / nf }))
        .collect();
    out.push(ctx.ok("qi_singling_out", minimal).with_details(json!({ "evaluated_subsets": stats.len(), "full_lattice": q <= FULL_LATTICE_MAX_QIS })));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::classes::MissingPolicy;

    #[test]
    fn chains_cover_every_subset_once() {
        for q in 1..=10 {
            let mut all: Vec<u32> = chains(q).into_iter().flatten().filter(|&m| m != 0).collect();
            all.sort_unstable();
            assert_eq!(all, (1..(1u32 << q)).collect::<Vec<_>>(), "q = {q}");
        }
        assert_eq!(chains(8).len(), 70);
    }

    #[test]
    fn runs_scanned_with_one_word_or_two_agree() {
        // Sorted words, a 10-bit key above a 6-bit count; members group on bits 7.., 3.., 0..
        let mut s = 5u64;
        let mut words: Vec<u64> = (0..2000)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % 1024) << 6 | (1 + s % 40)
            })
            .collect();
        words.sort_unstable();
        let (mut a, mut b) = (words.clone(), words.clone());
        let one = scan_runs::<u64>(&mut a, 6, &[7, 3, 0], 5);
        let two = scan_runs::<u128>(&mut b, 6, &[7, 3, 0], 5);
        assert_eq!(one, two);
        assert_eq!(a[..one.1], b[..two.1]);
        assert_eq!(one.0.iter().map(|s| s.classes).collect::<Vec<_>>(), [8, 128, one.1 as u64]);
    }

    #[test]
    fn chain_sorts_and_per_subset_grouping_agree() {
        // Four QIs: two waves; six: four waves, the later ones reading groups kept in a
        // chain's compact layout, keys over several bytes.
        for q in [4usize, 6] {
            let mut t = ClassTable::new(q, MissingPolicy::Ordinary, true, false);
            let mut s = 7u64;
            for _ in 0..3000 {
                let key: Vec<u32> = (0..q)
                    .map(|a| {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        let v = (s % [3, 40, 7, 300, 2, 1000][a]).to_string();
                        t.code(a, crate::ingest::cell::Cell::text(&v))
                    })
                    .collect();
                t.absorb(&key, 0.0).unwrap();
            }
            let masks = subsets(q);
            let mut by_chain: Vec<SubsetStats> = chain_lattice(&t, q, 3).unwrap();
            let mut by_subset = project_all(&t, &masks, 3);
            by_chain.sort_by_key(|s| s.mask);
            by_subset.sort_by_key(|s| s.mask);
            assert_eq!(by_chain, by_subset, "q = {q}");
            assert!(by_chain.iter().any(|s| s.at_risk > 0 && s.smallest < 3), "records at risk counted");
        }
    }

    #[test]
    fn the_sizes_at_risk_are_those_below_the_bound() {
        for threshold in [0.0, 0.05, 0.1, 0.2, 1.0 / 3.0, 0.5, 0.999, 1.0, 2.0] {
            let below = at_risk_below(threshold, 1000);
            for f in 1..=1000u64 {
                assert_eq!(f < below, 1.0 / f as f64 > threshold, "threshold {threshold}, size {f}");
            }
        }
        assert_eq!(at_risk_below(0.2, 100), 5);
        assert_eq!(at_risk_below(0.0, 100), 101, "every class of the table is at risk");
        assert_eq!(at_risk_below(1.0, 100), 1, "none is");
    }
}
