//! SUDA's search on a small subtable (spec peer-measures.md Sec 1.2): at most `64 W` rows
//! as bit sets, each item the set of the rows holding it and the subtable of an item an
//! intersection, nothing projected or copied (docs/decisions/suda/small-subtables-as-bit-sets.md).

use super::{Column, Data, Item, NONE, Pool, Ranks, Sub, bits};

/// [`super::search_item`] as bit sets of `W` words (at most `64 W` rows, no `wildcard`).
#[allow(clippy::too_many_arguments)]
pub(super) fn search_few<const W: usize>(
    data: &Data,
    sub: &Sub,
    ranks: &Ranks,
    col: &Column,
    item: &Item,
    rows: impl Iterator<Item = u32> + Clone,
    k: usize,
    out: &mut Vec<(u32, u64)>,
    pool: &mut Pool,
) where
    Bits<W>: Pooled,
{
    let (few, items) = Few::<W>::of(data, sub, ranks, col, item, rows, pool);
    let mut found = pool.pairs();
    small(&few, few.all, &items, k, &mut found, pool);
    out.extend(found.iter().map(|&(b, mask)| (few.id[b as usize], mask)));
    pool.put_pairs(found);
    Bits::put(pool, items);
    few.free(pool);
}

/// A set of the rows of a small subtable: bit `b` of word `b / 64` for its row `b`.
#[derive(Clone, Copy)]
struct Rows<const W: usize>([u64; W]);

impl<const W: usize> Rows<W> {
    const EMPTY: Rows<W> = Rows([0; W]);

    #[inline]
    fn and(self, other: Rows<W>) -> Rows<W> {
        Rows(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The rows of `self` not in `other`.
    #[inline]
    fn without(self, other: Rows<W>) -> Rows<W> {
        Rows(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }

    #[inline]
    fn count(self) -> u64 {
        self.0.iter().map(|w| w.count_ones() as u64).sum()
    }

    #[inline]
    fn insert(&mut self, b: usize) {
        self.0[b / 64] |= 1 << (b % 64);
    }

    /// The rows, ascending.
    fn iter(self) -> impl Iterator<Item = usize> {
        (0..W).flat_map(move |w| bits(self.0[w]).map(move |b| w * 64 + b))
    }

    /// The first row (of a set that is not empty).
    #[inline]
    fn first(self) -> usize {
        let w = self.0.iter().position(|&w| w != 0).unwrap_or(0);
        w * 64 + self.0[w].trailing_zeros() as usize
    }
}

/// The rows of a subtable of at most `64 W` rows, for [`small`].
struct Few<const W: usize> {
    /// Per row, its class (a row of weight 1) or a class of the rows it merges.
    id: Vec<u32>,
    weight: Vec<u32>,
    /// The rows.
    all: Rows<W>,
    /// The rows of weight 1.
    ones: Rows<W>,
}

/// An item of a small subtable: the rows holding it, its column (of the data), its rank in
/// the table above (a fixed order for ties) and its support.
#[derive(Clone, Copy)]
pub(super) struct Bits<const W: usize> {
    rows: Rows<W>,
    col: u32,
    rank: u32,
    support: u64,
}

/// The pool's vectors of items of small subtables of one width.
pub(super) trait Pooled: Sized {
    fn vecs(pool: &mut Pool) -> &mut Vec<Vec<Self>>;

    fn take(pool: &mut Pool) -> Vec<Self> {
        Self::vecs(pool).pop().unwrap_or_default()
    }

    fn put(pool: &mut Pool, mut v: Vec<Self>) {
        v.clear();
        Self::vecs(pool).push(v);
    }
}

impl Pooled for Bits<1> {
    fn vecs(pool: &mut Pool) -> &mut Vec<Vec<Self>> {
        &mut pool.bits1
    }
}

impl Pooled for Bits<2> {
    fn vecs(pool: &mut Pool) -> &mut Vec<Vec<Self>> {
        &mut pool.bits2
    }
}

impl Pooled for Bits<4> {
    fn vecs(pool: &mut Pool) -> &mut Vec<Vec<Self>> {
        &mut pool.bits4
    }
}

impl<const W: usize> Few<W>
where
    Bits<W>: Pooled,
{
    /// The subtable of `item` of `sub` (whose rows `rows` of `sub` hold it; at most `64 W`,
    /// no `wildcard`), as its rows and the rows holding each of its items (those ranked above
    /// `item`, in the other columns). Rows alike are not merged: merging only adds weights, so
    /// every support is the same (a row of weight 1 with a twin has no item of support 1).
    fn of(
        data: &Data,
        sub: &Sub,
        ranks: &Ranks,
        col: &Column,
        item: &Item,
        rows: impl Iterator<Item = u32> + Clone,
        pool: &mut Pool,
    ) -> (Few<W>, Vec<Bits<W>>) {
        let mut few = Few { id: pool.u32s(), weight: pool.u32s(), all: Rows::EMPTY, ones: Rows::EMPTY };
        for (b, r) in rows.clone().enumerate() {
            few.id.push(sub.id[r as usize]);
            few.weight.push(sub.weight[r as usize]);
            few.all.insert(b);
            if sub.weight[r as usize] == 1 {
                few.ones.insert(b);
            }
        }
        let mut items = Bits::take(pool);
        let mut slots = std::mem::take(&mut pool.slots);
        let highest = ranks.max.iter().copied().max().unwrap_or(0) as usize;
        if slots.len() <= highest {
            slots.resize(highest + 1, 0);
        }
        let width = sub.cols.len();
        for j in (0..width).filter(|&j| j != col.j && ranks.max[j] > item.rank) {
            let ranked = &ranks.of[data.offset[sub.cols[j]]..];
            for (b, r) in rows.clone().enumerate() {
                let v = sub.codes[r as usize * width + j];
                if v == NONE || ranked[v as usize] <= item.rank {
                    continue;
                }
                let rank = ranked[v as usize];
                let slot = &mut slots[rank as usize];
                if *slot == 0 {
                    items.push(Bits { rows: Rows::EMPTY, col: sub.cols[j] as u32, rank, support: 0 });
                    *slot = items.len() as u32;
                }
                items[*slot as usize - 1].rows.insert(b);
            }
        }
        items.iter().for_each(|it| slots[it.rank as usize] = 0);
        pool.slots = slots;
        (few, items)
    }

    fn free(self, pool: &mut Pool) {
        pool.put(self.id);
        pool.put(self.weight);
    }

    /// The number of records of the rows `rows`: one per row, and the rest of each row of weight
    /// above 1.
    #[inline]
    fn support(&self, rows: Rows<W>) -> u64 {
        let heavy = rows.without(self.ones);
        rows.count() + if heavy.is_empty() { 0 } else { heavy.iter().map(|b| self.weight[b] as u64 - 1).sum() }
    }
}

/// Spec Sec 1.2, [`super::search`] on a small subtable: the MSUs of at most `k` items of its rows
/// `rows`, over `items` (an item's support is that of its rows among `rows`), as (row, column
/// mask), added to `out`. The subtable of an item is its rows, over the items ranked above it:
/// nothing is copied.
fn small<const W: usize>(few: &Few<W>, rows: Rows<W>, items: &[Bits<W>], k: usize, out: &mut Vec<(u32, u64)>, pool: &mut Pool)
where
    Bits<W>: Pooled,
{
    let total = few.support(rows);
    let from = out.len();
    let mut ranked = Bits::take(pool);
    for it in items {
        let held = it.rows.and(rows);
        // An MSU's items are held by its record, a row of weight 1: an item held by none is in
        // no MSU here or below (rows alike are not merged, so such a row may have a twin: this
        // only prunes less).
        if held.and(few.ones).is_empty() {
            continue;
        }
        let support = few.support(held);
        if support == 1 {
            out.push((held.first() as u32, 1 << it.col));
        } else if support < total && k >= 2 {
            ranked.push(Bits { rows: held, support, ..*it });
        }
    }
    // The highest-ranked item's subtable holds no item: with one item ranked, nothing more.
    if ranked.len() >= 2 {
        // SUDA2's order in this subtable (ties by the rank above: a fixed order), then the
        // items from the highest rank down; each row's MSUs found so far are chained (`last`,
        // `link`) for the special-row test (see [`super::Known`]).
        ranked.sort_unstable_by_key(|it| (it.support, it.col, it.rank));
        let mut last = pool.u32s();
        last.resize(few.id.len(), NONE);
        let mut link = pool.u32s();
        for (n, &(b, _)) in out[from..].iter().enumerate() {
            link.push(last[b as usize]);
            last[b as usize] = n as u32;
        }
        let mut below = pool.pairs();
        for n in (0..ranked.len() - 1).rev() {
            let it = ranked[n];
            let limit = (k - 1).min(it.support as usize - 1);
            below.clear();
            small(few, it.rows, &ranked[n + 1..], limit, &mut below, pool);
            for &(b, mask) in &below {
                let mut at = last[b as usize];
                while at != NONE && out[from + at as usize].1 & !mask != 0 {
                    at = link[at as usize];
                }
                if at == NONE {
                    link.push(last[b as usize]);
                    last[b as usize] = (out.len() - from) as u32;
                    out.push((b, mask | (1 << it.col)));
                }
            }
        }
        pool.put_pairs(below);
        pool.put(link);
        pool.put(last);
    }
    Bits::put(pool, ranked);
}
