//! The propensity mean-squared error (spec synthetic.md Sec 5, after SDNist's
//! `metrics/propensity.py:52-101`): how well a classification tree tells the release `P` from
//! the original `O`. `O` (label 0) is stacked over `P` (label 1), the reference tree of Sec 5.2
//! ([`super::cart`], depth 6) is fitted on all `N` rows and predicts them in-sample, and
//! `pMSE = (1/N) sum_i (p_i - c)^2` with `c = n_P / N` (`propensity.py:94-96`). Every compared
//! column is coded by Sec 1.4 ([`super::coded`]); numbers are not binned (Sec 5.1).
//!
//! Also the propensity histogram of Sec 5.5 (`propensity.py:70-85`) and, as a labelled
//! extension SDNist lacks, the permutation null of Sec 5.4.

use super::cart::{Feature, Leaf, fit};
use super::coded::codes;
use super::columns::SynColumn;
use crate::rng::SplitMix64;

/// SDNist's `max_depth` (`propensity.py:64`).
pub const MAX_DEPTH: u32 = 6;

/// Bins of the propensity histogram (`propensity.py:25`, `bins=100`).
pub const BINS: usize = 100;

/// The permutation null of Sec 5.4 (a pseudolens extension).
#[derive(Debug, Clone, PartialEq)]
pub struct Null {
    /// Label permutations refitted.
    pub perms: u32,
    /// Their seed.
    pub seed: u64,
    /// The mean pMSE of the permuted labels.
    pub mean: f64,
    /// `pMSE / mean`; `None` when the mean is 0.
    pub ratio: Option<f64>,
}

/// The results of Sec 5.
#[derive(Debug, Clone, PartialEq)]
pub struct Pmse {
    /// The pMSE (Sec 5.3), in `[0, c(1-c)]`.
    pub pmse: f64,
    /// `c = n_P / N`.
    pub c: f64,
    /// `n_O`.
    pub n_original: u64,
    /// `n_P`.
    pub n_released: u64,
    /// The leaves of the tree.
    pub leaves: usize,
    /// Per bin of Sec 5.5, the rows of `O` whose propensity falls in it.
    pub histogram_original: Vec<u64>,
    /// Per bin, the rows of `P`.
    pub histogram_released: Vec<u64>,
    /// The permutation null, if asked for.
    pub null: Option<Null>,
}

impl Pmse {
    /// The largest pMSE, `c(1-c)`: the tables are told apart perfectly.
    pub fn max(&self) -> f64 {
        self.c * (1.0 - self.c)
    }
}

/// The features of the stacked rows (`O` then `P`): each column's Sec 1.4 codes, computed per
/// value id.
pub fn features(columns: &[&SynColumn]) -> Vec<Feature> {
    columns.iter().map(|c| Feature::of_ids(&codes(c), &[&c.o, &c.p])).collect()
}

/// `(1/N) sum_i (p_i - c)^2` over the leaves' rows (each row of a leaf has the leaf's `p`).
fn score(leaves: &[Leaf], c: f64) -> f64 {
    let n: u64 = leaves.iter().map(|l| l.zeros + l.ones).sum();
    let sum: f64 = leaves.iter().map(|l| (l.p() - c).powi(2) * (l.zeros + l.ones) as f64).sum();
    sum / n as f64
}

/// Sec 5.5's bin of a propensity: `min(floor(round(p, 2) * 100), 99)` with numpy's rounding
/// (`rint(100 p) / 100`, ties to even), then the product as Python computes it.
pub fn bin(p: f64) -> usize {
    let rounded = libm::rint(p * 100.0) / 100.0;
    (libm::floor(rounded * BINS as f64).max(0.0) as usize).min(BINS - 1)
}

/// The generator of permutation `k`: its own stream, so the permutations do not depend on how
/// many threads run them (the state `seed` mixed with `k`, as the bootstrap's replicates).
fn permutation_rng(seed: u64, k: u32) -> SplitMix64 {
    let mut mix = SplitMix64(seed ^ u64::from(k + 1).wrapping_mul(0x9E6C_63D0_676A_9A99));
    SplitMix64(mix.next())
}

/// The rows sorted by their values, feature after feature: the permuted labels are dealt in
/// this order, so the null does not depend on the order of the rows of either table (rows
/// with equal values are interchangeable to the tree).
fn canonical_order(features: &[Feature], n: usize) -> Vec<u32> {
    let keys: Vec<(&[u32], Option<&[u32]>)> = features.iter().map(|f| (f.rows.as_slice(), None)).collect();
    super::tuples::rows_by_ranks(&keys, n)
}

/// The pMSE of the `n_o` rows of `O` and `n_p` of `P` whose features are `features` (rows of
/// `O` first; `n_o + n_p > 0`), with `perms` permutations of the labels for the null.
pub fn pmse(features: &[Feature], n_o: usize, n_p: usize, perms: u32, seed: u64) -> Pmse {
    let n = n_o + n_p;
    let c = n_p as f64 / n as f64;
    let labels: Vec<bool> = (0..n).map(|i| i >= n_o).collect();
    let tree = fit(features, &labels, MAX_DEPTH);
    let (mut histogram_original, mut histogram_released) = (vec![0; BINS], vec![0; BINS]);
    for leaf in &tree.leaves {
        let b = bin(leaf.p());
        histogram_original[b] += leaf.zeros;
        histogram_released[b] += leaf.ones;
    }
    let value = score(&tree.leaves, c);
    let null = (perms > 0).then(|| {
        let canonical = canonical_order(features, n);
        let nulls = crate::par::map((0..perms).collect(), |k| {
            let mut drawn = labels.clone();
            let mut rng = permutation_rng(seed, k);
            for i in (1..n).rev() {
                drawn.swap(i, rng.below(i + 1));
            }
            let mut shuffled = vec![false; n];
            for (&row, &label) in canonical.iter().zip(&drawn) {
                shuffled[row as usize] = label;
            }
            score(&fit(features, &shuffled, MAX_DEPTH).leaves, c)
        });
        let mean = nulls.iter().sum::<f64>() / f64::from(perms);
        Null { perms, seed, mean, ratio: (mean > 0.0).then(|| value / mean) }
    });
    Pmse { pmse: value, c, n_original: n_o as u64, n_released: n_p as u64, leaves: tree.leaves.len(), histogram_original, histogram_released, null }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stacked(o: &[f64], p: &[f64]) -> Feature {
        Feature::new(&[o, p].concat())
    }

    #[test]
    fn a_hand_checked_tree() {
        // O x = 0 1, P x = 1 2. Root: after 0 costs 0 + 1*2/3, after 1 costs 2*1/3 + 0: the
        // tie goes to the lower threshold 0.5. The right node (O 1, P 1, P 2) splits at 1.5.
        // Leaves p = 0 (1 row), 1/2 (2 rows), 1 (1 row); c = 1/2:
        // pMSE = (1/4 + 0 + 1/4) / 4 = 1/8.
        let r = pmse(&[stacked(&[0.0, 1.0], &[1.0, 2.0])], 2, 2, 0, 0);
        assert_eq!(r.pmse, 0.125);
        assert_eq!((r.c, r.max(), r.leaves), (0.5, 0.25, 3));
        assert_eq!((r.histogram_original[0], r.histogram_original[50], r.histogram_released[50], r.histogram_released[99]), (1, 1, 1, 1));
        assert_eq!(r.histogram_original.iter().sum::<u64>() + r.histogram_released.iter().sum::<u64>(), 4);
        assert_eq!(r.null, None);
    }

    #[test]
    fn identical_tables_score_zero() {
        // Every value holds as many O rows as P rows, so every split keeps p = c in both
        // children: each leaf has p = 1/2 = c.
        let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let y = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0];
        let r = pmse(&[stacked(&x, &x), stacked(&y, &y)], 8, 8, 0, 0);
        assert_eq!(r.pmse, 0.0);
        assert_eq!(r.histogram_original[50], 8);
    }

    #[test]
    fn perfect_separation_reaches_the_maximum() {
        let r = pmse(&[stacked(&[1.0, 2.0, 3.0], &[7.0])], 3, 1, 0, 0);
        assert_eq!(r.pmse, r.max());
        assert_eq!(r.max(), 0.25 * 0.75);
    }

    #[test]
    fn a_constant_column_gives_one_leaf() {
        let r = pmse(&[stacked(&[5.0; 4], &[5.0; 6])], 4, 6, 3, 0);
        assert_eq!((r.pmse, r.leaves), (0.0, 1));
        let null = r.null.unwrap();
        assert_eq!((null.mean, null.ratio), (0.0, None));
    }

    #[test]
    fn the_null_is_seeded() {
        let o: Vec<f64> = (0..60).map(|i| f64::from(i % 7)).collect();
        let p: Vec<f64> = (0..50).map(|i| f64::from(i % 5 + 1)).collect();
        let f = [stacked(&o, &p)];
        let a = pmse(&f, 60, 50, 5, 3);
        assert_eq!(a, pmse(&f, 60, 50, 5, 3));
        let null = a.null.as_ref().unwrap();
        assert!(null.mean > 0.0 && null.mean <= a.max());
        assert_eq!(null.ratio, Some(a.pmse / null.mean));
        assert_ne!(null.mean, pmse(&f, 60, 50, 5, 4).null.unwrap().mean);
        // The rows of O reversed: the same value and the same null.
        let reversed: Vec<f64> = o.iter().rev().copied().collect();
        assert_eq!(pmse(&[stacked(&reversed, &p)], 60, 50, 5, 3), a);
    }

    #[test]
    fn bins_follow_numpy_rounding() {
        assert_eq!((bin(0.0), bin(0.004), bin(0.005), bin(0.015), bin(0.29), bin(0.5), bin(0.995), bin(1.0)), (0, 0, 0, 2, 28, 50, 99, 99));
    }

    /// The timing of the task: 100k + 100k rows x 10 columns (4 of 2-10 codes, 4 of 100-1000,
    /// 2 near-continuous), the release shifted. Run with
    /// `cargo test --release -p pseudolens-core --lib pmse_timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    #[allow(clippy::print_stderr)]
    fn pmse_timing() {
        let n = 100_000;
        let mut rng = SplitMix64(42);
        let widths = [2usize, 4, 7, 10, 100, 300, 1000, 1000, 100_000, 1_000_000];
        let features: Vec<Feature> = widths
            .iter()
            .map(|&w| {
                let x: Vec<f64> = (0..2 * n).map(|i| (rng.below(w) + usize::from(i >= n && rng.below(10) == 0)) as f64).collect();
                Feature::new(&x)
            })
            .collect();
        for perms in [0, 20] {
            let t = std::time::Instant::now();
            let r = pmse(&features, n, n, perms, 0);
            eprintln!("pmse {perms} perms: {:.3} s, pMSE {}, {} leaves, null {:?}", t.elapsed().as_secs_f64(), r.pmse, r.leaves, r.null.map(|n| n.mean));
        }
        let t = std::time::Instant::now();
        let tree = fit(&features, &(0..2 * n).map(|i| i >= n).collect::<Vec<_>>(), MAX_DEPTH);
        eprintln!("one fit: {:.3} s, {} leaves", t.elapsed().as_secs_f64(), tree.leaves.len());
    }
}
