//! Row tuples as ids: the values of some columns of `O` and `P` numbered jointly, so that two
//! rows, of either table, share an id exactly when they hold the same values. The tuple so far
//! and as many next columns as fit make one mixed-radix `u64` key per row (value ids are
//! small), numbered in an array when the keys are few, else in a hash map: one pass per group
//! of columns, and no hash of a whole row, so no collision.

use crate::hash::{Map, map};

/// The tuple ids of `O`'s rows and of `P`'s over the columns given as (`O`'s value ids, `P`'s
/// value ids), and how many ids there are. No column: one tuple.
pub fn tuple_ids(columns: &[(&[u32], &[u32])], n_o: usize, n_p: usize) -> (Vec<u32>, Vec<u32>, usize) {
    let (mut o, mut p) = (vec![0u32; n_o], vec![0u32; n_p]);
    let lens: Vec<u64> = columns.iter().map(|(co, cp)| co.iter().chain(cp.iter()).max().map_or(1, |&v| u64::from(v) + 1)).collect();
    let mut ids = 1usize;
    let mut i = 0;
    while i < columns.len() {
        // The tuple so far is the first digit; then columns i..j while the radix fits.
        let mut radix = ids as u64;
        let mut j = i;
        while let Some(r) = lens.get(j).and_then(|&l| radix.checked_mul(l)) {
            radix = r;
            j += 1;
        }
        let key = |tuple: u32, row: usize, side: usize| {
            columns[i..j].iter().zip(&lens[i..j]).fold(u64::from(tuple), |k, (c, &l)| k * l + u64::from(if side == 0 { c.0[row] } else { c.1[row] }))
        };
        let keys = |t: &[u32], side: usize| -> Vec<u64> { t.iter().enumerate().map(|(row, &tuple)| key(tuple, row, side)).collect() };
        let (ko, kp) = (keys(&o, 0), keys(&p, 1));
        ids = if radix <= 4 * (n_o + n_p) as u64 + 1024 {
            let mut id = vec![u32::MAX; radix as usize];
            let mut next = 0u32;
            for (t, k) in o.iter_mut().zip(&ko).chain(p.iter_mut().zip(&kp)) {
                let slot = &mut id[*k as usize];
                if *slot == u32::MAX {
                    *slot = next;
                    next += 1;
                }
                *t = *slot;
            }
            next as usize
        } else {
            let mut id: Map<u64, u32> = map();
            id.reserve((n_o + n_p).min(radix as usize));
            for (t, &k) in o.iter_mut().zip(&ko).chain(p.iter_mut().zip(&kp)) {
                let fresh = id.len() as u32;
                *t = *id.entry(k).or_insert(fresh);
            }
            id.len()
        };
        i = j;
    }
    (o, p, ids)
}

/// The rows `0..n` ordered by `keys`, each (per row its value id, per value id its rank, or
/// `None` when the ids are ranks already), the first key first; rows of equal keys in their
/// own order. Per distinct tuple (numbered by [`tuple_ids`], then sorted), then one pass.
pub fn rows_by_ranks(keys: &[(&[u32], Option<&[u32]>)], n: usize) -> Vec<u32> {
    let columns: Vec<(&[u32], &[u32])> = keys.iter().map(|&(ids, _)| (ids, &[][..])).collect();
    let (tuple, _, n_tuples) = tuple_ids(&columns, n, 0);
    let mut first = vec![u32::MAX; n_tuples];
    let mut count = vec![0u32; n_tuples];
    for (row, &t) in tuple.iter().enumerate() {
        if first[t as usize] == u32::MAX {
            first[t as usize] = row as u32;
        }
        count[t as usize] += 1;
    }
    let key = |t: u32, k: usize| {
        let (ids, rank) = keys[k];
        let v = ids[first[t as usize] as usize];
        rank.map_or(v, |r| r[v as usize])
    };
    let mut order: Vec<u32> = (0..n_tuples as u32).collect();
    order.sort_unstable_by(|&a, &b| (0..keys.len()).map(|k| key(a, k).cmp(&key(b, k))).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal));
    // Each tuple's first position, then its rows in their own order.
    let mut start = vec![0u32; n_tuples];
    let mut at = 0u32;
    for &t in &order {
        start[t as usize] = at;
        at += count[t as usize];
    }
    let mut rows = vec![0u32; n];
    for (row, &t) in tuple.iter().enumerate() {
        rows[start[t as usize] as usize] = row as u32;
        start[t as usize] += 1;
    }
    rows
}

/// Rows per tuple id in each table.
pub fn counts(ids: &[u32], n_ids: usize) -> Vec<u32> {
    let mut c = vec![0u32; n_ids];
    ids.iter().for_each(|&t| c[t as usize] = c[t as usize].saturating_add(1));
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_share_an_id_exactly_when_their_values_are_equal() {
        let a_o = [1u32, 1, 2];
        let b_o = [5u32, 6, 5];
        let a_p = [2u32, 1];
        let b_p = [5u32, 7];
        let (o, p, n) = tuple_ids(&[(&a_o, &a_p), (&b_o, &b_p)], 3, 2);
        assert_eq!(n, 4);
        assert_eq!(p[0], o[2]);
        assert!(o[0] != o[1] && !o.contains(&p[1]));
        assert_eq!(counts(&o, n).iter().sum::<u32>(), 3);
    }

    #[test]
    fn columns_past_one_key_and_large_values_still_number_exactly() {
        // Three columns of values near 2^31: no two fit one u64 key with the tuple, so each
        // is its own hashed step.
        let big = |v: &[u32]| v.iter().map(|&x| x + (1 << 31)).collect::<Vec<_>>();
        let (a_o, b_o, c_o) = (big(&[1, 1, 2, 1]), big(&[5, 5, 5, 5]), big(&[7, 8, 7, 7]));
        let (a_p, b_p, c_p) = (big(&[2, 1]), big(&[5, 5]), big(&[7, 9]));
        let (o, p, n) = tuple_ids(&[(&a_o, &a_p), (&b_o, &b_p), (&c_o, &c_p)], 4, 2);
        assert_eq!(n, 4);
        assert_eq!((o[0], o[3]), (o[3], o[0]));
        assert!(o[0] != o[1] && o[0] != o[2] && o[1] != o[2]);
        assert_eq!(p[0], o[2]);
        assert!(!o.contains(&p[1]));
    }

    #[test]
    fn rows_by_ranks_orders_by_each_key_then_row() {
        // Key 0 as its own ranks, key 1 through a rank table that reverses ids 0 and 1.
        let (a, b) = ([1u32, 0, 1, 0], [0u32, 1, 1, 1]);
        let reverse = [1u32, 0];
        assert_eq!(rows_by_ranks(&[(&a, None), (&b, None)], 4), [1, 3, 0, 2]);
        assert_eq!(rows_by_ranks(&[(&a, None), (&b, Some(&reverse))], 4), [1, 3, 2, 0]);
    }

    #[test]
    fn no_column_is_one_tuple() {
        let (o, p, n) = tuple_ids(&[], 2, 1);
        assert_eq!((o, p, n), (vec![0, 0], vec![0], 1));
    }
}
