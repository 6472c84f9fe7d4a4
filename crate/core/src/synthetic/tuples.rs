//! Row tuples as ids: the values of some columns of `O` and `P` numbered jointly, one column
//! at a time (a pair of the tuple so far and the next value gets the next id), so that two
//! rows, of either table, share an id exactly when they hold the same values. No hash of a
//! whole row, so no collision.

use crate::hash::{Map, map};

/// The tuple ids of `O`'s rows and of `P`'s over the columns given as (`O`'s value ids, `P`'s
/// value ids), and how many ids there are. No column: one tuple.
pub fn tuple_ids(columns: &[(&[u32], &[u32])], n_o: usize, n_p: usize) -> (Vec<u32>, Vec<u32>, usize) {
    let (mut o, mut p) = (vec![0u32; n_o], vec![0u32; n_p]);
    let mut ids = 1usize;
    for &(co, cp) in columns {
        let mut next: Map<u64, u32> = map();
        let mut step = |tuple: &mut u32, value: u32| {
            let key = (u64::from(*tuple) << 32) | u64::from(value);
            let fresh = next.len() as u32;
            *tuple = *next.entry(key).or_insert(fresh);
        };
        o.iter_mut().zip(co).for_each(|(t, &v)| step(t, v));
        p.iter_mut().zip(cp).for_each(|(t, &v)| step(t, v));
        ids = next.len();
    }
    (o, p, ids)
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
    fn no_column_is_one_tuple() {
        let (o, p, n) = tuple_ids(&[], 2, 1);
        assert_eq!((o, p, n), (vec![0, 0], vec![0], 1));
    }
}
