//! The apparent match distribution (spec synthetic.md Sec 4, after SDNist's
//! `metrics/apparent_match_dist.py`): the records unique on the quasi-identifiers within `O`
//! and within `P` are joined on them, one to one, and each pair's share of equal values over
//! the other columns is its match percentage. Missing equals missing (Sec 1.3).

use super::columns::SynColumn;
use super::tuples::{counts, tuple_ids};

/// Histogram bins of the match percentage over [0, 100].
pub const HISTOGRAM_BINS: usize = 10;

/// One apparent match: a record of `O` and one of `P` alone in their table with their QI values.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// The row of `O` (0-based).
    pub row_o: usize,
    /// The row of `P` (0-based).
    pub row_p: usize,
    /// The percentage of the other columns on which they agree; `None` without such a column.
    pub match_pct: Option<f64>,
}

/// The figures of Sec 4.
#[derive(Debug, Clone, PartialEq)]
pub struct ApparentMatch {
    /// Records of `O` unique on the QIs within `O`.
    pub unique_o: u64,
    /// Records of `P` unique on the QIs within `P`.
    pub unique_p: u64,
    /// The matches, in the order of `O`'s rows.
    pub matches: Vec<Match>,
    /// Matches per tenth of [0, 100] (the last bin closed); empty without compared columns.
    pub histogram: Vec<u64>,
}

/// The apparent matches of `O` and `P` on the QI columns `quasi`, compared on `rest`.
pub fn apparent_match(quasi: &[&SynColumn], rest: &[&SynColumn], n_o: usize, n_p: usize) -> ApparentMatch {
    let pairs: Vec<(&[u32], &[u32])> = quasi.iter().map(|c| (c.o.as_slice(), c.p.as_slice())).collect();
    let (o, p, n) = tuple_ids(&pairs, n_o, n_p);
    let (in_o, in_p) = (counts(&o, n), counts(&p, n));
    let mut row_p = vec![usize::MAX; n];
    p.iter().enumerate().filter(|&(_, &t)| in_p[t as usize] == 1).for_each(|(i, &t)| row_p[t as usize] = i);
    let matches: Vec<Match> = o
        .iter()
        .enumerate()
        .filter(|&(_, &t)| in_o[t as usize] == 1 && in_p[t as usize] == 1)
        .map(|(i, &t)| {
            let j = row_p[t as usize];
            let equal = rest.iter().filter(|c| c.o[i] == c.p[j]).count();
            let match_pct = (!rest.is_empty()).then(|| 100.0 * equal as f64 / rest.len() as f64);
            Match { row_o: i, row_p: j, match_pct }
        })
        .collect();
    let mut histogram = vec![0u64; if rest.is_empty() { 0 } else { HISTOGRAM_BINS }];
    for pct in matches.iter().filter_map(|m| m.match_pct) {
        histogram[((pct / 100.0 * HISTOGRAM_BINS as f64) as usize).min(HISTOGRAM_BINS - 1)] += 1;
    }
    ApparentMatch { unique_o: in_o.iter().filter(|&&c| c == 1).count() as u64, unique_p: in_p.iter().filter(|&&c| c == 1).count() as u64, matches, histogram }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(o: &[u32], p: &[u32]) -> SynColumn {
        SynColumn::of_ids(o, p)
    }

    #[test]
    fn joins_the_records_unique_in_both_tables() {
        // QI q: O (2,2,3,4), P (3,4,4,5): unique in O {3, 4}, in P {3, 5}: one match, q = 3
        // (O row 2, P row 0). Other columns: x equal (6 = 6), y not (0 vs 7), z equal
        // (missing = missing): 2 of 3.
        let q = column(&[2, 2, 3, 4], &[3, 4, 4, 5]);
        let x = column(&[6, 6, 6, 6], &[6, 6, 6, 6]);
        let y = column(&[0, 0, 0, 0], &[7, 7, 7, 7]);
        let z = column(&[0, 0, 0, 0], &[0, 0, 0, 0]);
        let m = apparent_match(&[&q], &[&x, &y, &z], 4, 4);
        assert_eq!((m.unique_o, m.unique_p), (2, 2));
        assert_eq!(m.matches, [Match { row_o: 2, row_p: 0, match_pct: Some(200.0 / 3.0) }]);
        assert_eq!(m.histogram, [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn without_other_columns_the_percentage_is_null() {
        let q = column(&[2, 3], &[3]);
        let m = apparent_match(&[&q], &[], 2, 1);
        assert_eq!(m.matches, [Match { row_o: 1, row_p: 0, match_pct: None }]);
        assert!(m.histogram.is_empty());
    }

    #[test]
    fn a_full_match_falls_in_the_last_bin() {
        let q = column(&[2], &[2]);
        let x = column(&[5], &[5]);
        assert_eq!(apparent_match(&[&q], &[&x], 1, 1).histogram[9], 1);
    }
}
