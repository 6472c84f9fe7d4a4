//! Unique exact matches (spec synthetic.md Sec 3, after SDNist's
//! `metrics/unique_exact_matches.py`): the records of `O` unique in `O` over every compared
//! column, and how many of them `P` holds exactly. Missing equals missing (SDNist 2.5's rule).

use super::columns::SynColumn;
use super::tuples::{counts, tuple_ids};

/// The counts of Sec 3.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactMatches {
    /// `|U|`, the records of `O` whose tuple occurs once in `O`.
    pub unique: u64,
    /// `100 |U| / n_O`.
    pub pct_unique: f64,
    /// The records of `U` whose tuple `P` holds.
    pub matched: u64,
    /// `100 matched / |U|`, 0 when `U` is empty.
    pub pct_matched: f64,
    /// `log10` of the feature space: the product of the columns' numbers of values in `O`
    /// and `P` (missing counted as a value).
    pub log10_feature_space: f64,
}

/// Unique exact matches over `columns`, for `O` with at least one row.
pub fn exact_matches(columns: &[SynColumn], n_o: usize, n_p: usize) -> ExactMatches {
    let pairs: Vec<(&[u32], &[u32])> = columns.iter().map(|c| (c.o.as_slice(), c.p.as_slice())).collect();
    let (o, p, n) = tuple_ids(&pairs, n_o, n_p);
    let in_o = counts(&o, n);
    let in_p = counts(&p, n);
    let unique = in_o.iter().filter(|&&c| c == 1).count() as u64;
    let matched = (0..n).filter(|&t| in_o[t] == 1 && in_p[t] > 0).count() as u64;
    let log10_feature_space = columns
        .iter()
        .map(|c| {
            let mut seen = vec![false; c.n_values()];
            c.o.iter().chain(&c.p).for_each(|&v| seen[v as usize] = true);
            (seen.iter().filter(|&&s| s).count() as f64).log10()
        })
        .sum();
    ExactMatches {
        unique,
        pct_unique: 100.0 * unique as f64 / n_o as f64,
        matched,
        pct_matched: if unique == 0 { 0.0 } else { 100.0 * matched as f64 / unique as f64 },
        log10_feature_space,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(o: &[u32], p: &[u32]) -> SynColumn {
        SynColumn::of_ids(o, p)
    }

    #[test]
    fn counts_unique_records_and_their_matches() {
        // O tuples: (2,5) (2,5) (3,5) (3,6) (0,6); P: (3,5) (3,5) (0,6) (4,4).
        // Unique in O: (3,5), (3,6), (0,6) -> 3 of 5 (60 %); P holds (3,5) and (0,6) -> 2 of 3.
        let a = column(&[2, 2, 3, 3, 0], &[3, 3, 0, 4]);
        let b = column(&[5, 5, 5, 6, 6], &[5, 5, 6, 4]);
        let m = exact_matches(&[a, b], 5, 4);
        assert_eq!((m.unique, m.matched), (3, 2));
        assert_eq!(m.pct_unique, 60.0);
        assert_eq!(m.pct_matched, 100.0 * 2.0 / 3.0);
        // Values seen: a {0,2,3,4}, b {4,5,6}: log10(12).
        assert!((m.log10_feature_space - 12f64.log10()).abs() < 1e-12);
    }

    #[test]
    fn no_unique_record_matches_nothing() {
        let m = exact_matches(&[column(&[2, 2], &[2])], 2, 1);
        assert_eq!((m.unique, m.matched, m.pct_matched), (0, 0, 0.0));
    }
}
