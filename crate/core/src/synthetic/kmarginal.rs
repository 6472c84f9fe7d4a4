//! The k-marginal score (spec synthetic.md Sec 2, after SDNist's `metrics/kmarginal.py`): for
//! every 2-way marginal of the columns, the L1 distance between `O`'s and `P`'s cell shares,
//! `score = 500 (2 - mean L1)` in [0, 1000]; grouped by a column (SDNist's PUMA), the cells
//! hold the group too, with a score per group. Counts per distinct cell; each L1 is summed
//! exactly in integers, `sum |c_O n_P - c_P n_O| / (n_O n_P)`.

use super::binning::Marginal;
use crate::hash::{Map, map};

/// The group column of the grouped variant (Sec 2.4): per row of `O` and `P`, its value id.
pub struct Group<'a> {
    /// Per row of `O`.
    pub o: &'a [u32],
    /// Per row of `P`.
    pub p: &'a [u32],
    /// Number of value ids.
    pub len: usize,
}

/// One marginal's distance.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// Its two columns (the same one twice when there is a single column).
    pub columns: [String; 2],
    /// `L1_ab` over the cells `(a, b)`, in [0, 2].
    pub l1: f64,
    /// The same over the cells `(g, a, b)`, when grouped.
    pub l1_grouped: Option<f64>,
}

/// One group's score (Sec 2.4).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupScore {
    /// The group's value id.
    pub group: u32,
    /// Rows of `O` in the group.
    pub rows: u64,
    /// `1000 (1 - mean_pairs min(D_g n_O / n_O,g, 1))`.
    pub score: f64,
}

/// The scores.
#[derive(Debug, Clone, PartialEq)]
pub struct KMarginal {
    /// Sec 2.3.
    pub score_ungrouped: f64,
    /// Sec 2.4, overall.
    pub score_grouped: Option<f64>,
    /// Every marginal, in the order of the sorted columns.
    pub pairs: Vec<Pair>,
    /// The groups `O` holds, by value id (empty when not grouped).
    pub groups: Vec<GroupScore>,
}

/// `|c_O n_P - c_P n_O|`.
fn gap(c: [u64; 2], n_o: u64, n_p: u64) -> u128 {
    (u128::from(c[0]) * u128::from(n_p)).abs_diff(u128::from(c[1]) * u128::from(n_o))
}

/// Dense cell numbering of `(g, a, b)` when the cells are few beside the rows (an array index,
/// no hashing per row), else `None`.
pub(super) fn dense_cells(a: &Marginal, b: &Marginal, groups: usize) -> Option<(usize, usize, usize)> {
    let len = |m: &Marginal| m.o.iter().chain(&m.p).max().map_or(1, |&c| c as usize + 1);
    let (la, lb) = (len(a), len(b));
    let cells = la.checked_mul(lb)?.checked_mul(groups)?;
    (cells <= 4 * (a.o.len() + a.p.len()) + 1024).then_some((la, lb, cells))
}

/// One marginal: the numerators of its L1 over `(a, b)` and, per group, over `(g, a, b)`.
fn numerators(a: &Marginal, b: &Marginal, group: Option<&Group<'_>>) -> (u128, Vec<u128>) {
    let (n_o, n_p) = (a.o.len() as u64, a.p.len() as u64);
    let groups = group.map_or(1, |g| g.len);
    let g_o = |i: usize| group.map_or(0, |g| g.o[i]);
    let g_p = |i: usize| group.map_or(0, |g| g.p[i]);
    let mut per_group = vec![0u128; groups];
    let mut flat: Map<(u32, u32), [u64; 2]> = map();
    let mut add = |g: u32, x: u32, y: u32, c: [u64; 2]| {
        per_group[g as usize] += gap(c, n_o, n_p);
        if group.is_some() {
            let e = flat.entry((x, y)).or_default();
            e[0] += c[0];
            e[1] += c[1];
        }
    };
    if let Some((la, lb, len)) = dense_cells(a, b, groups) {
        let mut cells = vec![[0u64; 2]; len];
        let at = |g: u32, x: u32, y: u32| (g as usize * la + x as usize) * lb + y as usize;
        (0..a.o.len()).for_each(|i| cells[at(g_o(i), a.o[i], b.o[i])][0] += 1);
        (0..a.p.len()).for_each(|i| cells[at(g_p(i), a.p[i], b.p[i])][1] += 1);
        for (i, &c) in cells.iter().enumerate().filter(|(_, c)| c[0] + c[1] > 0) {
            add((i / (la * lb)) as u32, ((i / lb) % la) as u32, (i % lb) as u32, c);
        }
    } else {
        let mut cells: Map<(u32, u32, u32), [u64; 2]> = map();
        (0..a.o.len()).for_each(|i| cells.entry((g_o(i), a.o[i], b.o[i])).or_default()[0] += 1);
        (0..a.p.len()).for_each(|i| cells.entry((g_p(i), a.p[i], b.p[i])).or_default()[1] += 1);
        cells.into_iter().for_each(|((g, x, y), c)| add(g, x, y, c));
    }
    let ungrouped = if group.is_some() { flat.values().map(|&c| gap(c, n_o, n_p)).sum() } else { per_group[0] };
    (ungrouped, per_group)
}

/// The scores of the marginals of `columns` (sorted by name, at least one; both tables hold
/// rows), grouped by `group` when given. One column: its 1-way marginal.
pub fn k_marginal(columns: &[(String, Marginal)], group: Option<Group<'_>>) -> KMarginal {
    let (n_o, n_p) = (columns[0].1.o.len() as u64, columns[0].1.p.len() as u64);
    let denominator = (n_o as f64) * (n_p as f64);
    let pairs: Vec<(usize, usize)> =
        if columns.len() == 1 { vec![(0, 0)] } else { (0..columns.len()).flat_map(|i| (i + 1..columns.len()).map(move |j| (i, j))).collect() };
    let group_rows = group.as_ref().map(|g| {
        let mut rows = vec![0u64; g.len];
        g.o.iter().for_each(|&v| rows[v as usize] += 1);
        rows
    });
    let mut scaled_sum = vec![0f64; group.as_ref().map_or(0, |g| g.len)];
    let pairs: Vec<Pair> = pairs
        .into_iter()
        .map(|(i, j)| {
            let (ungrouped, per_group) = numerators(&columns[i].1, &columns[j].1, group.as_ref());
            if let Some(rows) = &group_rows {
                for ((s, &num), &r) in scaled_sum.iter_mut().zip(&per_group).zip(rows) {
                    if r > 0 {
                        *s += (num as f64 / (n_p as f64 * r as f64)).min(1.0);
                    }
                }
            }
            Pair {
                columns: [columns[i].0.clone(), columns[j].0.clone()],
                l1: ungrouped as f64 / denominator,
                l1_grouped: group.as_ref().map(|_| per_group.iter().sum::<u128>() as f64 / denominator),
            }
        })
        .collect();
    let m = pairs.len() as f64;
    let score = |l1: f64| 500.0 * (2.0 - l1 / m);
    let groups = group_rows.map_or_else(Vec::new, |rows| {
        (0..rows.len()).filter(|&g| rows[g] > 0).map(|g| GroupScore { group: g as u32, rows: rows[g], score: 1000.0 * (1.0 - scaled_sum[g] / m) }).collect()
    });
    KMarginal {
        score_ungrouped: score(pairs.iter().map(|p| p.l1).sum()),
        score_grouped: group.as_ref().map(|_| score(pairs.iter().filter_map(|p| p.l1_grouped).sum())),
        pairs,
        groups,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marginal(o: &[u32], p: &[u32]) -> (String, Marginal) {
        (String::new(), Marginal { o: o.to_vec(), p: p.to_vec() })
    }

    #[test]
    fn identical_tables_score_1000_and_disjoint_ones_0() {
        let same = k_marginal(&[marginal(&[2, 3, 3], &[3, 2, 3]), marginal(&[4, 4, 5], &[5, 4, 4])], None);
        assert_eq!(same.score_ungrouped, 1000.0);
        let apart = k_marginal(&[marginal(&[2, 2], &[3, 3])], None);
        assert_eq!((apart.score_ungrouped, apart.pairs[0].l1), (0.0, 2.0));
    }

    #[test]
    fn many_cells_are_hashed_with_the_same_result() {
        // Codes past 4 (n_O + n_P) + 1024 cells: the hashed path; the same cells shifted.
        let (a_o, a_p, b_o, b_p) = ([2u32, 2, 3, 3], [2u32, 3, 3, 3], [4u32, 4, 5, 4], [4u32, 5, 5, 5]);
        let far = |v: &[u32]| v.iter().map(|&c| c + 5000).collect::<Vec<_>>();
        let (go, gp) = ([0, 0, 1, 1], [0, 1, 1, 1]);
        let near = [marginal(&a_o, &a_p), marginal(&b_o, &b_p)];
        let far = [marginal(&far(&a_o), &far(&a_p)), marginal(&far(&b_o), &far(&b_p))];
        assert!(dense_cells(&near[0].1, &near[1].1, 3).is_some() && dense_cells(&far[0].1, &far[1].1, 3).is_none());
        let group = || Some(Group { o: &go, p: &gp, len: 3 });
        assert_eq!(k_marginal(&near, group()), k_marginal(&far, group()));
        assert_eq!(k_marginal(&near, None), k_marginal(&far, None));
    }

    #[test]
    fn a_hand_checked_pair() {
        // O cells (a,b): (2,4) (2,4) (3,5) (3,4); P: (2,4) (3,5) (3,5) (3,5).
        // shares O 1/2, 1/4, 1/4 over (2,4), (3,5), (3,4); P 1/4, 3/4, 0: L1 = 1/4 + 1/2 + 1/4 = 1.
        let k = k_marginal(&[marginal(&[2, 2, 3, 3], &[2, 3, 3, 3]), marginal(&[4, 4, 5, 4], &[4, 5, 5, 5])], None);
        assert_eq!(k.pairs[0].l1, 1.0);
        assert_eq!(k.score_ungrouped, 500.0);
        // Grouped by g: O (0,0,1,1), P (0,1,1,1). Group 0: O (2,4) x2 -> 1/2; P (2,4) -> 1/4:
        // D_0 = 1/4, scaled = 1/4 * 4/2 = 1/2 -> 500. Group 1: O (3,5) 1/4, (3,4) 1/4; P (3,5)
        // 3/4: D_1 = 1/2 + 1/4 = 3/4, scaled = min(3/4 * 4/2, 1) = 1 -> 0. Overall L1 = 1.
        let (go, gp) = ([0, 0, 1, 1], [0, 1, 1, 1]);
        let k = k_marginal(&[marginal(&[2, 2, 3, 3], &[2, 3, 3, 3]), marginal(&[4, 4, 5, 4], &[4, 5, 5, 5])], Some(Group { o: &go, p: &gp, len: 3 }));
        assert_eq!(k.score_grouped, Some(500.0));
        assert_eq!(k.groups, [GroupScore { group: 0, rows: 2, score: 500.0 }, GroupScore { group: 1, rows: 2, score: 0.0 }]);
    }
}
