//! The distance to the closest record (spec synthetic.md Sec 10.1, after SDMetrics'
//! `calculate_dcr`, `sdmetrics/single_table/privacy/dcr_utils.py:12-129`): for each row of a
//! table, the least mean per-column distance to a row of a reference table.
//!
//! Per cell: a numeric or date column gives `min(|x - y| / R, 1)` with `R` the reference's
//! range (when `R = 0`: 0 if equal, else 1), 1 when one value is missing and 0 when both are;
//! any other column gives 0 when the values are equal (missing equals missing), else 1.
//!
//! SDMetrics scans every pair of rows. Here the search is exact but does less work:
//! - each distinct tuple is searched once, on either side (a row's distance is its tuple's);
//! - a tuple the reference holds is at distance 0;
//! - the reference's distinct tuples are grouped by their categorical part; a group whose
//!   categorical part differs in `h` columns costs at least `h`, so groups are visited by
//!   increasing `h` and the search stops once `h` reaches the best sum so far; the groups at
//!   `h` 0 and 1 are looked up by key (the part with one column masked), and the others are
//!   read only while the best sum is above 2;
//! - within a group, tuples are sorted by one numeric column (the one with the most distinct
//!   values) and scanned outward from the searched value, each way until that column's cell
//!   alone brings the bound to the best sum.
//!
//! Sums of cells are compared before the division by the number of columns.

use super::columns::SynColumn;
use crate::hash::{Map, map};
use crate::par;
use crate::rng::SplitMix64;
use crate::table::dictionary::MISSING;
use crate::table::kind::Kind;

/// One column of a table, as the distance reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// A categorical (or ordinal) column: per row, the value id of the [`SynColumn`].
    Categorical(Vec<u32>),
    /// A numeric or date column: per row, the number (dates: the day number); `NaN` when
    /// missing or not a number.
    Numeric(Vec<f64>),
}

impl Cells {
    fn len(&self) -> usize {
        match self {
            Cells::Categorical(v) => v.len(),
            Cells::Numeric(v) => v.len(),
        }
    }

    /// The cell of `row` as a key of equality (numbers by their bits, one `NaN`, `0 = -0`).
    fn key(&self, row: usize) -> u64 {
        match self {
            Cells::Categorical(v) => u64::from(v[row]),
            Cells::Numeric(v) => {
                let x = v[row];
                if x.is_nan() { u64::MAX } else { (x + 0.0).to_bits() }
            }
        }
    }

    fn select(&self, rows: &[usize]) -> Cells {
        match self {
            Cells::Categorical(v) => Cells::Categorical(rows.iter().map(|&r| v[r]).collect()),
            Cells::Numeric(v) => Cells::Numeric(rows.iter().map(|&r| v[r]).collect()),
        }
    }
}

/// A table as the distance reads it: the compared columns, in one order for every table.
#[derive(Debug, Clone, PartialEq)]
pub struct DcrTable {
    /// The columns.
    pub columns: Vec<Cells>,
    /// Number of rows.
    pub rows: usize,
}

/// Which rows of a [`SynColumn`] a table takes.
#[derive(Debug, Clone, Copy)]
pub enum Side {
    /// The original `O`.
    Original,
    /// The release `P`.
    Released,
    /// The holdout `H`.
    Holdout,
}

/// Whether the distance reads a column as numbers (numeric and date columns, Sec 10.1).
pub fn is_numeric(c: &SynColumn) -> bool {
    c.numeric && matches!(c.kind, Kind::Numeric | Kind::Date)
}

impl DcrTable {
    /// The rows of one side of `columns`.
    pub fn of(columns: &[&SynColumn], side: Side) -> DcrTable {
        let ids = |c: &SynColumn| -> Vec<u32> {
            match side {
                Side::Original => c.o.clone(),
                Side::Released => c.p.clone(),
                Side::Holdout => c.h.clone(),
            }
        };
        let cells: Vec<Cells> = columns
            .iter()
            .map(|c| {
                let v = ids(c);
                if is_numeric(c) { Cells::Numeric(v.iter().map(|&i| c.numbers[i as usize].unwrap_or(f64::NAN)).collect()) } else { Cells::Categorical(v) }
            })
            .collect();
        let rows = cells.first().map_or(0, Cells::len);
        DcrTable { columns: cells, rows }
    }

    /// The table of these rows.
    pub fn select(&self, rows: &[usize]) -> DcrTable {
        DcrTable { columns: self.columns.iter().map(|c| c.select(rows)).collect(), rows: rows.len() }
    }

    /// The table as CSV (a header of `columns`' names; categorical cells by their labels,
    /// numbers in Rust's shortest round-trip form, missing as an empty cell), for the
    /// conformance check against `calculate_dcr` (Sec 10.2).
    pub fn to_csv(&self, columns: &[&SynColumn]) -> String {
        let quote = |s: &str| if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() };
        let mut out = columns.iter().map(|c| quote(&c.name)).collect::<Vec<_>>().join(",");
        out.push('\n');
        for r in 0..self.rows {
            let row: Vec<String> = self
                .columns
                .iter()
                .zip(columns)
                .map(|(cells, c)| match cells {
                    Cells::Categorical(v) => c.labels[v[r] as usize].as_deref().map(quote).unwrap_or_default(),
                    Cells::Numeric(v) if v[r].is_nan() => String::new(),
                    Cells::Numeric(v) => format!("{}", v[r]),
                })
                .collect();
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }
}

/// The distance of one numeric cell (Sec 10.1): `x` searched, `y` in the reference, `range`
/// the reference's range (`NaN` when it has no number: then `y` is missing).
#[inline]
fn numeric_cell(x: f64, y: f64, range: f64) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => 0.0,
        (true, false) | (false, true) => 1.0,
        _ if range == 0.0 => f64::from(u8::from(x != y)),
        _ => ((x - y).abs() / range).min(1.0),
    }
}

/// The reference's range of each numeric column (`NaN` without a number), in the order of
/// the numeric columns.
fn ranges(reference: &DcrTable) -> Vec<f64> {
    reference
        .columns
        .iter()
        .filter_map(|c| match c {
            Cells::Numeric(v) => {
                let (lo, hi) = v.iter().filter(|x| !x.is_nan()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
                Some(if lo <= hi { hi - lo } else { f64::NAN })
            }
            Cells::Categorical(_) => None,
        })
        .collect()
}

/// Numbers the tuples of `a`'s and `b`'s rows jointly over `columns` (indices into both
/// tables' columns), one column at a time; returns the ids of `a`'s rows, of `b`'s rows and
/// the number of ids.
fn number(a: &DcrTable, b: &DcrTable, columns: &[usize]) -> (Vec<u32>, Vec<u32>, usize) {
    let (mut ia, mut ib) = (vec![0u32; a.rows], vec![0u32; b.rows]);
    let mut ids = 1usize;
    for &c in columns {
        let mut next: Map<(u32, u64), u32> = map();
        for (ids_of, table) in [(&mut ia, a), (&mut ib, b)] {
            for (r, t) in ids_of.iter_mut().enumerate() {
                let fresh = next.len() as u32;
                *t = *next.entry((*t, table.columns[c].key(r))).or_insert(fresh);
            }
        }
        ids = next.len();
    }
    (ia, ib, ids)
}

/// The reference's distinct tuples sharing one categorical part, sorted by the pivot column.
struct Group {
    /// The members' numeric values, `m` per member, row after row: first the members whose
    /// pivot value is a number, by that number, then those whose pivot is missing.
    numbers: Vec<f64>,
    /// The members whose pivot value is a number.
    with_pivot: usize,
}

/// What the search reads of the reference.
struct Index {
    groups: Vec<Group>,
    /// The numeric columns' ranges.
    ranges: Vec<f64>,
    /// The pivot, an index into the numeric columns (when there is one).
    pivot: usize,
    /// Every group under the key of its categorical part with one column masked (`c`, for
    /// each categorical column) and under its whole part (`c` = the number of categorical
    /// columns), sorted by key: the groups within Hamming distance 1 of a part, found
    /// without reading every group. Keys may collide: a found group's distance is checked.
    near: Vec<(u64, u32)>,
    /// The groups' categorical parts (value ids) column by column (`[c][g]`): distances are
    /// counted a column at a time, in loops the compiler vectorises.
    by_column: Vec<Vec<u32>>,
}

/// The key of the categorical part `cat` with its column `masked` left out (none when
/// `masked` is past its end).
fn masked_key(cat: &[u32], masked: usize) -> u64 {
    let mut h = (masked as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for (j, &v) in cat.iter().enumerate() {
        let v = if j == masked { u64::from(u32::MAX) } else { u64::from(v) };
        h = (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    h
}

impl Index {
    /// `parts`: each group's categorical part, in the order of `groups`.
    fn new(groups: Vec<Group>, parts: &[Vec<u32>], ranges: Vec<f64>, pivot: usize) -> Index {
        let n_cat = parts.first().map_or(0, Vec::len);
        let mut near: Vec<(u64, u32)> = parts.iter().enumerate().flat_map(|(g, part)| (0..=n_cat).map(move |c| (masked_key(part, c), g as u32))).collect();
        near.sort_unstable();
        let by_column = (0..n_cat).map(|c| parts.iter().map(|part| part[c]).collect()).collect();
        Index { groups, ranges, pivot, near, by_column }
    }

    /// The Hamming distance of group `g`'s categorical part to `cat`.
    fn hamming(&self, g: u32, cat: &[u32]) -> u32 {
        self.by_column.iter().zip(cat).filter(|&(column, &v)| column[g as usize] != v).count() as u32
    }

    /// The groups within Hamming distance 1 of `cat`, with their distance, nearest first.
    fn near(&self, cat: &[u32]) -> Vec<(u32, u32)> {
        let mut found: Vec<(u32, u32)> = Vec::new();
        for c in 0..=cat.len() {
            let key = masked_key(cat, c);
            let from = self.near.partition_point(|&(k, _)| k < key);
            for &(_, g) in self.near[from..].iter().take_while(|&&(k, _)| k == key) {
                let h = self.hamming(g, cat);
                if h <= 1 {
                    found.push((h, g));
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found.into_iter().map(|(h, g)| (g, h)).collect()
    }

    /// Every group's Hamming distance to `cat`.
    fn distances(&self, cat: &[u32]) -> Vec<u32> {
        let mut distance = vec![0u32; self.groups.len()];
        for (column, &v) in self.by_column.iter().zip(cat) {
            for (d, &x) in distance.iter_mut().zip(column) {
                *d += u32::from(x != v);
            }
        }
        distance
    }

    /// The least sum of cells from the tuple (`cat`, `num`) to a reference tuple: the groups
    /// within Hamming distance 1 (`near`), then, only while a farther group could still be
    /// closer (the best sum above 2), the others one distance after another (`distance`,
    /// counted once per categorical part on first need).
    fn search(&self, num: &[f64], near: &[(u32, u32)], distance: &mut Option<Vec<u32>>, cat: &[u32]) -> f64 {
        let mut best = f64::INFINITY;
        for &(g, h) in near {
            if f64::from(h) >= best {
                return best;
            }
            best = self.in_group(g, h, num, best);
        }
        let distance = distance.get_or_insert_with(|| self.distances(cat));
        let mut h = 2u32;
        while f64::from(h) < best && h as usize <= cat.len() {
            for (g, _) in distance.iter().enumerate().filter(|&(_, &d)| d == h) {
                best = self.in_group(g as u32, h, num, best);
            }
            h += 1;
        }
        best
    }

    /// The least sum of cells from `num` to a member of group `g`, at Hamming distance `h`,
    /// if below `best` (else `best`).
    fn in_group(&self, g: u32, h: u32, num: &[f64], mut best: f64) -> f64 {
        let m = num.len();
        let h = f64::from(h);
        let group = &self.groups[g as usize];
        if m == 0 {
            return best.min(h);
        }
        let full = |member: usize, best: f64| -> f64 {
            let row = &group.numbers[member * m..(member + 1) * m];
            let mut s = h;
            for j in 0..m {
                s += numeric_cell(num[j], row[j], self.ranges[j]);
                if s >= best {
                    return f64::INFINITY;
                }
            }
            s
        };
        let p = self.pivot;
        let x = num[p];
        let pivots = |member: usize| group.numbers[member * m + p];
        let n = group.numbers.len() / m;
        if x.is_nan() {
            // Members with a missing pivot first (their pivot cell is 0), then the rest (1).
            for member in (group.with_pivot..n).chain(0..group.with_pivot) {
                if member == 0 && group.with_pivot > 0 && h + 1.0 >= best {
                    break;
                }
                best = best.min(full(member, best));
            }
            return best;
        }
        let at = {
            let (mut lo, mut hi) = (0, group.with_pivot);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if pivots(mid) < x { lo = mid + 1 } else { hi = mid }
            }
            lo
        };
        let range = self.ranges[p];
        for member in at..group.with_pivot {
            if h + numeric_cell(x, pivots(member), range) >= best {
                break;
            }
            best = best.min(full(member, best));
        }
        for member in (0..at).rev() {
            if h + numeric_cell(x, pivots(member), range) >= best {
                break;
            }
            best = best.min(full(member, best));
        }
        if h + 1.0 < best {
            for member in group.with_pivot..n {
                best = best.min(full(member, best));
            }
        }
        best
    }
}

/// Per row of `table`, its DCR to `reference` (Sec 10.1): the least mean cell distance to a
/// row of `reference`, the numeric ranges taken from `reference`. `NaN` for every row when
/// `reference` has no row or there is no column.
pub fn dcr(table: &DcrTable, reference: &DcrTable) -> Vec<f64> {
    let d = table.columns.len();
    if d == 0 || reference.rows == 0 {
        return vec![f64::NAN; table.rows];
    }
    let categorical: Vec<usize> = (0..d).filter(|&c| matches!(table.columns[c], Cells::Categorical(_))).collect();
    let numeric: Vec<usize> = (0..d).filter(|&c| matches!(table.columns[c], Cells::Numeric(_))).collect();
    let all: Vec<usize> = categorical.iter().chain(&numeric).copied().collect();
    let (ref_cat, tab_cat, n_cat) = number(reference, table, &categorical);
    let (ref_all, tab_all, n_all) = number(reference, table, &all);
    // Distinct tuples: the first row of each id on either side.
    let mut ref_first = vec![u32::MAX; n_all];
    for (r, &t) in ref_all.iter().enumerate() {
        if ref_first[t as usize] == u32::MAX {
            ref_first[t as usize] = r as u32;
        }
    }
    let mut tab_first = vec![u32::MAX; n_all];
    for (r, &t) in tab_all.iter().enumerate() {
        if tab_first[t as usize] == u32::MAX {
            tab_first[t as usize] = r as u32;
        }
    }
    let numbers = |t: &DcrTable, row: usize, out: &mut Vec<f64>| {
        for &c in &numeric {
            if let Cells::Numeric(v) = &t.columns[c] {
                out.push(v[row]);
            }
        }
    };
    let cat_values = |t: &DcrTable, row: usize| -> Vec<u32> {
        categorical
            .iter()
            .map(|&c| match &t.columns[c] {
                Cells::Categorical(v) => v[row],
                Cells::Numeric(_) => unreachable!("categorical columns"),
            })
            .collect()
    };
    // The pivot: the numeric column with the most distinct reference values.
    let pivot = (0..numeric.len())
        .max_by_key(|&j| {
            let mut keys: Vec<u64> = (0..reference.rows).map(|r| reference.columns[numeric[j]].key(r)).collect();
            keys.sort_unstable();
            keys.dedup();
            (keys.len(), usize::MAX - j)
        })
        .unwrap_or(0);
    // The reference's groups, by categorical id.
    let mut group_of = vec![u32::MAX; n_cat];
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    let mut parts: Vec<Vec<u32>> = Vec::new();
    for (t, &r) in ref_first.iter().enumerate() {
        if r == u32::MAX {
            continue;
        }
        let cat = ref_cat[r as usize] as usize;
        if group_of[cat] == u32::MAX {
            group_of[cat] = groups.len() as u32;
            groups.push(Group { numbers: Vec::new(), with_pivot: 0 });
            parts.push(cat_values(reference, r as usize));
            members.push(Vec::new());
        }
        members[group_of[cat] as usize].push(t as u32);
    }
    let m = numeric.len();
    for (group, list) in groups.iter_mut().zip(&members) {
        let mut rows: Vec<Vec<f64>> = list
            .iter()
            .map(|&t| {
                let mut v = Vec::with_capacity(m);
                numbers(reference, ref_first[t as usize] as usize, &mut v);
                v
            })
            .collect();
        if m > 0 {
            rows.sort_by(|a, b| match (a[pivot].is_nan(), b[pivot].is_nan()) {
                (false, false) => a[pivot].total_cmp(&b[pivot]),
                (x, y) => x.cmp(&y),
            });
            group.with_pivot = rows.iter().filter(|r| !r[pivot].is_nan()).count();
        }
        group.numbers = rows.concat();
    }
    let index = Index::new(groups, &parts, ranges(reference), pivot);
    // The table's distinct tuples not in the reference, by categorical id.
    let mut searched: Vec<(u32, u32)> = (0..n_all as u32)
        .filter(|&t| tab_first[t as usize] != u32::MAX && ref_first[t as usize] == u32::MAX)
        .map(|t| (tab_cat[tab_first[t as usize] as usize], t))
        .collect();
    searched.sort_unstable();
    // Work items: runs of at most 256 tuples of one categorical part.
    let mut items: Vec<&[(u32, u32)]> = Vec::new();
    let mut rest: &[(u32, u32)] = &searched;
    while let Some(&(cat, _)) = rest.first() {
        let same = rest.partition_point(|&(c, _)| c == cat).min(256);
        let (item, tail) = rest.split_at(same);
        items.push(item);
        rest = tail;
    }
    let found: Vec<Vec<(u32, f64)>> = par::map(items, |item| {
        let row = tab_first[item[0].1 as usize] as usize;
        let cat = cat_values(table, row);
        let near = index.near(&cat);
        let mut distance = None;
        let mut num = Vec::with_capacity(m);
        item.iter()
            .map(|&(_, t)| {
                num.clear();
                numbers(table, tab_first[t as usize] as usize, &mut num);
                (t, index.search(&num, &near, &mut distance, &cat))
            })
            .collect()
    });
    let mut of_tuple = vec![0.0f64; n_all];
    for (t, s) in found.into_iter().flatten() {
        of_tuple[t as usize] = s / d as f64;
    }
    tab_all.iter().map(|&t| of_tuple[t as usize]).collect()
}

/// The plain scan of every pair of rows (the definition; for tests).
pub fn dcr_scan(table: &DcrTable, reference: &DcrTable) -> Vec<f64> {
    let d = table.columns.len();
    let ranges = ranges(reference);
    (0..table.rows)
        .map(|r| {
            (0..reference.rows)
                .map(|q| {
                    let mut j = 0;
                    let s: f64 = table
                        .columns
                        .iter()
                        .zip(&reference.columns)
                        .map(|(a, b)| match (a, b) {
                            (Cells::Categorical(a), Cells::Categorical(b)) => f64::from(u8::from(a[r] != b[q])),
                            (Cells::Numeric(a), Cells::Numeric(b)) => {
                                j += 1;
                                numeric_cell(a[r], b[q], ranges[j - 1])
                            }
                            _ => unreachable!("the same columns"),
                        })
                        .sum();
                    s / d as f64
                })
                .fold(f64::NAN, f64::min)
        })
        .collect()
}

/// The random table of Sec 10.2 (SDMetrics' `_generate_random_data`,
/// `dcr_baseline_protection.py:58-85`), `n` rows drawn column after column from `O`'s
/// columns with the seeded SplitMix64: a numeric column whose numbers in `O` are all integers
/// (and a date column, in days) gives uniform integers in `[min, max]`, another numeric
/// column uniform numbers in `[min, max)`, a categorical column a uniform pick among `O`'s
/// distinct non-missing values (in the report's order of values, so the row order of `O`
/// does not matter); then each cell is missing with `O`'s missing rate of the column (a value
/// that is not a number counts as missing).
pub fn random_table(columns: &[&SynColumn], n: usize, seed: u64) -> DcrTable {
    let mut rng = SplitMix64(seed);
    let cells = columns
        .iter()
        .map(|c| {
            let n_o = c.o.len().max(1);
            if is_numeric(c) {
                let xs: Vec<f64> = c.o.iter().filter_map(|&v| c.numbers[v as usize]).collect();
                let rate = (c.o.len() - xs.len()) as f64 / n_o as f64;
                let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
                let integers = c.kind == Kind::Date || xs.iter().all(|x| x.fract() == 0.0);
                let mut v: Vec<f64> = (0..n)
                    .map(|_| {
                        if xs.is_empty() {
                            f64::NAN
                        } else if integers {
                            lo + rng.below((hi - lo) as usize + 1) as f64
                        } else {
                            lo + rng.unit() * (hi - lo)
                        }
                    })
                    .collect();
                if rate > 0.0 {
                    v.iter_mut().for_each(|x| {
                        if rng.unit() < rate {
                            *x = f64::NAN;
                        }
                    });
                }
                Cells::Numeric(v)
            } else {
                let mut seen = vec![false; c.n_values()];
                c.o.iter().for_each(|&v| seen[v as usize] = true);
                let missing = c.o.iter().filter(|&&v| v == MISSING).count();
                let mut values: Vec<u32> = (0..c.n_values() as u32).filter(|&v| v != MISSING && seen[v as usize]).collect();
                values.sort_by(|&a, &b| c.order(a, b));
                let rate = missing as f64 / n_o as f64;
                let mut v: Vec<u32> = (0..n).map(|_| if values.is_empty() { MISSING } else { values[rng.below(values.len())] }).collect();
                if rate > 0.0 {
                    v.iter_mut().for_each(|x| {
                        if rng.unit() < rate {
                            *x = MISSING;
                        }
                    });
                }
                Cells::Categorical(v)
            }
        })
        .collect();
    DcrTable { columns: cells, rows: n }
}

/// `k` of `n` row indices drawn without replacement with the seeded SplitMix64 (a partial
/// Fisher-Yates shuffle), in ascending order.
pub fn subsample(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut rng = SplitMix64(seed ^ 0x5DC2_0000_0000_0001);
    let mut all: Vec<usize> = (0..n).collect();
    let k = k.min(n);
    rng.choose_front(&mut all, k);
    all.truncate(k);
    all.sort_unstable();
    all
}

/// The median of `values` (the mean of the two middle ones for an even count, as pandas);
/// `NaN` when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// The counts of `values` in 20 equal bins over `[0, 1]` (the last one closed), for the
/// page's charts.
pub fn histogram(values: &[f64]) -> Vec<u64> {
    let mut h = vec![0u64; 20];
    for &x in values.iter().filter(|x| !x.is_nan()) {
        h[((x * 20.0).floor().max(0.0) as usize).min(19)] += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(columns: Vec<Cells>) -> DcrTable {
        let rows = columns[0].len();
        DcrTable { columns, rows }
    }

    #[test]
    fn cells_follow_sdmetrics() {
        assert_eq!(numeric_cell(1.0, 3.0, 4.0), 0.5);
        assert_eq!(numeric_cell(1.0, 30.0, 4.0), 1.0);
        assert_eq!(numeric_cell(f64::NAN, 3.0, 4.0), 1.0);
        assert_eq!(numeric_cell(3.0, f64::NAN, 4.0), 1.0);
        assert_eq!(numeric_cell(f64::NAN, f64::NAN, 4.0), 0.0);
        assert_eq!(numeric_cell(2.0, 2.0, 0.0), 0.0);
        assert_eq!(numeric_cell(2.0, 2.5, 0.0), 1.0);
    }

    #[test]
    fn a_hand_checked_distance() {
        // Reference: (a, 0), (b, 10); range 10. Row (b, 4): to (a,0) (1 + 0.4)/2 = 0.7, to
        // (b,10) (0 + 0.6)/2 = 0.3. Row (a, 0): 0. Row (c, missing): (1 + 1)/2 = 1.
        let reference = table(vec![Cells::Categorical(vec![2, 3]), Cells::Numeric(vec![0.0, 10.0])]);
        let t = table(vec![Cells::Categorical(vec![3, 2, 4]), Cells::Numeric(vec![4.0, 0.0, f64::NAN])]);
        let got = dcr(&t, &reference);
        assert!((got[0] - 0.3).abs() < 1e-15 && got[1] == 0.0 && got[2] == 1.0, "{got:?}");
        assert_eq!(got, dcr_scan(&t, &reference));
    }

    #[test]
    fn the_search_equals_the_scan_on_random_tables() {
        let mut rng = SplitMix64(7);
        // Up to 4 label columns of 4 or 12 values: nearest tuples at Hamming distance 0, 1
        // (found by key) and 2 or more (the full order).
        for round in 0..100 {
            let n_cat = round % 5;
            let n_num = (round / 5) % 4;
            let values = if round % 2 == 0 { 4 } else { 12 };
            if n_cat + n_num == 0 {
                continue;
            }
            let make = |rows: usize, rng: &mut SplitMix64| {
                let mut cols = Vec::new();
                for _ in 0..n_cat {
                    cols.push(Cells::Categorical((0..rows).map(|_| rng.below(values) as u32).collect()));
                }
                for j in 0..n_num {
                    cols.push(Cells::Numeric(
                        (0..rows)
                            .map(|_| {
                                if rng.below(10) == 0 {
                                    f64::NAN
                                } else if j == 2 {
                                    5.0
                                } else {
                                    rng.below(30) as f64 / 2.0
                                }
                            })
                            .collect(),
                    ));
                }
                DcrTable { columns: cols, rows }
            };
            let t = make(1 + rng.below(60), &mut rng);
            let r = make(1 + rng.below(60), &mut rng);
            let fast = dcr(&t, &r);
            let slow = dcr_scan(&t, &r);
            for (a, b) in fast.iter().zip(&slow) {
                assert!((a - b).abs() < 1e-12, "round {round}: {a} vs {b}");
            }
        }
    }

    #[test]
    fn medians_histograms_and_subsamples() {
        assert_eq!(median(&[0.3, 0.1, 0.2]), 0.2);
        assert_eq!(median(&[0.4, 0.1, 0.2, 0.3]), 0.25);
        assert!(median(&[]).is_nan());
        let h = histogram(&[0.0, 0.05, 0.5, 1.0]);
        assert_eq!((h[0], h[1], h[10], h[19]), (1, 1, 1, 1));
        let s = subsample(100, 10, 3);
        assert_eq!(s.len(), 10);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(s, subsample(100, 10, 3));
    }
}
