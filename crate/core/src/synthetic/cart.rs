//! The reference classification tree of the propensity score (spec synthetic.md Sec 5.2): the
//! deterministic rule pseudolens puts in place of SDNist's unseeded
//! `sklearn.tree.DecisionTreeClassifier(max_depth=6)` (`sdnist/metrics/propensity.py:64-65`;
//! Gini, `splitter='best'`, `min_samples_split=2`, `min_samples_leaf=1`, every feature).
//!
//! Work is per distinct value: a feature is the rank of each row's value among the feature's
//! distinct values (after the cast to `f32`), so at a node the labels are counted per value
//! present and the candidate splits are scanned between consecutive present values; no row is
//! sorted. The rows of a node are a range of one index list, partitioned in place.

use std::cmp::Ordering;

/// sklearn's `FEATURE_THRESHOLD` (`sklearn/tree/_splitter.pyx`): two sorted values are a
/// candidate split only if the larger exceeds the smaller by more than this.
const FEATURE_THRESHOLD: f64 = 1e-7;

/// One feature of the stacked rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// Per row, the index of its value in `values`.
    pub rows: Vec<u32>,
    /// The distinct values, ascending: each an `f32` read as `f64` (Sec 5.2: "cast X to f32,
    /// then compare as f64").
    pub values: Vec<f64>,
}

impl Feature {
    /// The feature of per-row numbers, cast to `f32` and ranked.
    pub fn new(numbers: &[f64]) -> Self {
        let ids: Vec<u32> = (0..numbers.len() as u32).collect();
        Feature::of_ids(numbers, &[&ids])
    }

    /// The feature of rows given as value ids (`parts`, one after the other) whose numbers are
    /// `numbers` (per value id): the ranks are computed once per value id, not per row.
    pub fn of_ids(numbers: &[f64], parts: &[&[u32]]) -> Self {
        let cast: Vec<f64> = numbers.iter().map(|&x| f64::from(x as f32) + 0.0).collect();
        let mut values = cast.clone();
        values.sort_unstable_by(f64::total_cmp);
        values.dedup_by(|a, b| a.total_cmp(b) == Ordering::Equal);
        let rank: Vec<u32> = cast.iter().map(|x| values.binary_search_by(|v| v.total_cmp(x)).expect("a value of the feature") as u32).collect();
        let rows = parts.iter().flat_map(|p| p.iter().map(|&v| rank[v as usize])).collect();
        Feature { rows, values }
    }
}

/// A leaf: its depth and its rows of each label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    /// The root is at depth 0.
    pub depth: u32,
    /// Rows of label 0 (`O`).
    pub zeros: u64,
    /// Rows of label 1 (`P`).
    pub ones: u64,
}

impl Leaf {
    /// The probability of label 1 the tree predicts for the leaf's rows: `ones / rows`.
    pub fn p(&self) -> f64 {
        self.ones as f64 / (self.zeros + self.ones) as f64
    }
}

/// A split of a node: rows whose value is at most `threshold` go left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Split {
    /// The node's depth.
    pub depth: u32,
    /// The feature's index.
    pub feature: usize,
    /// sklearn's threshold `x[p-1]/2 + x[p]/2` (or `x[p-1]` if that equals `x[p]`).
    pub threshold: f64,
}

/// A fitted tree: its leaves and splits in depth-first order, left first.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// The leaves.
    pub leaves: Vec<Leaf>,
    /// The splits.
    pub splits: Vec<Split>,
}

/// Nodes of fewer rows compare costs without overflow checks: `(2^25)^5 < 2^128`.
const SMALL: usize = 1 << 25;

/// A split's Gini cost `a_L b_L / n_L + a_R b_R / n_R` as one fraction `num / den`.
#[derive(Debug, Clone, Copy)]
struct Cost {
    num: u128,
    den: u128,
}

impl Cost {
    fn new(a_l: u64, b_l: u64, a_r: u64, b_r: u64) -> Self {
        let (n_l, n_r) = (u128::from(a_l + b_l), u128::from(a_r + b_r));
        Cost { num: u128::from(a_l) * u128::from(b_l) * n_r + u128::from(a_r) * u128::from(b_r) * n_l, den: n_l * n_r }
    }

    /// Exact comparison: cross-multiplied in `u128` (Sec 5.2); past `u128` (more than about
    /// 4e7 rows), by the continued fractions of the two. `small`: the node has fewer than
    /// [`SMALL`] rows, so that `num <= n^3` and `den <= n^2` multiply within `u128` (no
    /// overflow check, which costs a call per product).
    fn less(&self, other: &Cost, small: bool) -> bool {
        if small {
            return self.num * other.den < other.num * self.den;
        }
        match (self.num.checked_mul(other.den), other.num.checked_mul(self.den)) {
            (Some(x), Some(y)) => x < y,
            _ => fraction_cmp(self.num, self.den, other.num, other.den) == Ordering::Less,
        }
    }
}

/// Compares `a/b` with `c/d` (`b`, `d` > 0) exactly without overflow: integer parts first, then
/// the reciprocals of the remainders.
fn fraction_cmp(mut a: u128, mut b: u128, mut c: u128, mut d: u128) -> Ordering {
    let mut flip = false;
    loop {
        let (p, q) = (a / b, c / d);
        if p != q {
            return if flip { q.cmp(&p) } else { p.cmp(&q) };
        }
        let (r, s) = (a % b, c % d);
        match (r == 0, s == 0) {
            (true, true) => return Ordering::Equal,
            (true, false) => return if flip { Ordering::Greater } else { Ordering::Less },
            (false, true) => return if flip { Ordering::Less } else { Ordering::Greater },
            // r/b < s/d  <=>  b/r > d/s.
            (false, false) => (a, b, c, d, flip) = (b, r, d, s, !flip),
        }
    }
}

/// The best split of a node so far.
struct Best {
    cost: Cost,
    feature: usize,
    /// The largest value index that goes left.
    last_left: u32,
    threshold: f64,
}

/// Fits the tree of Sec 5.2 with `max_depth` on the rows of `features` (each as long as
/// `labels`, label 1 = the release) and returns its leaves: the in-sample prediction of a row is
/// its leaf's `p()`.
pub fn fit(features: &[Feature], labels: &[bool], max_depth: u32) -> Tree {
    let n = labels.len();
    assert!(features.iter().all(|f| f.rows.len() == n), "every feature has a value per row");
    let widest = features.iter().map(|f| f.values.len()).max().unwrap_or(0);
    let mut counts: Vec<[u32; 2]> = vec![[0, 0]; widest];
    let mut present: Vec<u32> = Vec::with_capacity(widest);
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut tree = Tree { leaves: Vec::new(), splits: Vec::new() };
    // (start, end, depth) of the nodes to visit, the next on top.
    let mut stack = vec![(0usize, n, 0u32)];
    while let Some((start, end, depth)) = stack.pop() {
        let rows = &mut order[start..end];
        let ones = rows.iter().filter(|&&r| labels[r as usize]).count() as u64;
        let zeros = rows.len() as u64 - ones;
        let leaf = Leaf { depth, zeros, ones };
        if depth >= max_depth || rows.len() < 2 || zeros == 0 || ones == 0 {
            tree.leaves.push(leaf);
            continue;
        }
        let mut best: Option<Best> = None;
        let small = rows.len() < SMALL;
        for (f, feature) in features.iter().enumerate() {
            present.clear();
            for &r in rows.iter() {
                let v = feature.rows[r as usize];
                let c = &mut counts[v as usize];
                if c[0] == 0 && c[1] == 0 {
                    present.push(v);
                }
                c[usize::from(labels[r as usize])] += 1;
            }
            if present.len() > 1 {
                // In value order: a scan of every value when the node holds many of them,
                // else a sort of those it holds.
                if feature.values.len() <= 8 * present.len() {
                    present.clear();
                    present.extend((0..feature.values.len() as u32).filter(|&v| counts[v as usize] != [0, 0]));
                } else {
                    present.sort_unstable();
                }
                let (mut a_l, mut b_l) = (0u64, 0u64);
                for w in present.windows(2) {
                    let c = counts[w[0] as usize];
                    a_l += u64::from(c[0]);
                    b_l += u64::from(c[1]);
                    let (lo, hi) = (feature.values[w[0] as usize], feature.values[w[1] as usize]);
                    if hi <= lo + FEATURE_THRESHOLD {
                        continue;
                    }
                    let cost = Cost::new(a_l, b_l, zeros - a_l, ones - b_l);
                    if best.as_ref().is_none_or(|b| cost.less(&b.cost, small)) {
                        let mid = lo / 2.0 + hi / 2.0;
                        let threshold = if mid == hi || mid.is_infinite() { lo } else { mid };
                        best = Some(Best { cost, feature: f, last_left: w[0], threshold });
                    }
                }
            }
            for &v in &present {
                counts[v as usize] = [0, 0];
            }
        }
        let Some(best) = best else {
            tree.leaves.push(leaf);
            continue;
        };
        tree.splits.push(Split { depth, feature: best.feature, threshold: best.threshold });
        let split = &features[best.feature].rows;
        let left = partition(rows, |r| split[r as usize] <= best.last_left);
        // Right pushed first: the left child is visited first.
        stack.push((start + left, end, depth + 1));
        stack.push((start, start + left, depth + 1));
    }
    tree
}

/// Moves the rows for which `left` holds to the front; returns their number.
fn partition(rows: &mut [u32], left: impl Fn(u32) -> bool) -> usize {
    let mut k = 0;
    for i in 0..rows.len() {
        if left(rows[i]) {
            rows.swap(i, k);
            k += 1;
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(zeros: usize, ones: usize) -> Vec<bool> {
        (0..zeros + ones).map(|i| i >= zeros).collect()
    }

    #[test]
    fn features_are_ranked_after_the_cast_to_f32() {
        // 0.1 and 0.1 + 1e-12 are one f32; 2.5 stays.
        let f = Feature::new(&[2.5, 0.1, 0.1 + 1e-12, -1.0]);
        assert_eq!(f.values, vec![-1.0, f64::from(0.1f32), 2.5]);
        assert_eq!(f.rows, vec![2, 1, 1, 0]);
    }

    #[test]
    fn one_feature_separating_the_labels_gives_pure_leaves() {
        // x: O 1 2 3, P 4 5 6: the root splits at 3.5 with cost 0; both children are pure.
        let f = Feature::new(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let t = fit(&[f], &labels(3, 3), 6);
        assert_eq!(t.splits, vec![Split { depth: 0, feature: 0, threshold: 3.5 }]);
        assert_eq!(t.leaves, vec![Leaf { depth: 1, zeros: 3, ones: 0 }, Leaf { depth: 1, zeros: 0, ones: 3 }]);
    }

    #[test]
    fn ties_go_to_the_earlier_feature_then_the_lower_threshold() {
        // Labels 0 1 0 1 on x = 0 1 2 3, the feature given twice.
        let f0 = Feature::new(&[0.0, 1.0, 2.0, 3.0]);
        let t = fit(&[f0.clone(), f0], &[false, true, false, true], 1);
        // Costs: after 0: 0/1 + (1*2)/3 = 2/3; after 1: 1/2 + 1/2 = 1; after 2: (2*1)/3 + 0 = 2/3.
        // The tie 2/3 goes to the lower threshold, 0.5, on feature 0.
        assert_eq!(t.splits, vec![Split { depth: 0, feature: 0, threshold: 0.5 }]);
        assert_eq!(t.leaves, vec![Leaf { depth: 1, zeros: 1, ones: 0 }, Leaf { depth: 1, zeros: 1, ones: 2 }]);
    }

    #[test]
    fn splits_even_without_improvement() {
        // Labels 0 1 | 0 1 on x = 0 0 1 1: the only split costs 1/2 + 1/2 = 1, the root's
        // a b / n = 4/4 = 1 as well; the tree splits anyway and stops at depth 1 (no more values).
        let f = Feature::new(&[0.0, 0.0, 1.0, 1.0]);
        let t = fit(&[f], &[false, true, false, true], 6);
        assert_eq!(t.splits.len(), 1);
        assert_eq!(t.leaves, vec![Leaf { depth: 1, zeros: 1, ones: 1 }, Leaf { depth: 1, zeros: 1, ones: 1 }]);
    }

    #[test]
    fn values_closer_than_the_threshold_are_no_candidate() {
        // 1.0 and its f32 successor differ by 1.19e-7 > 1e-7; 1e-8 and 2e-8 differ by less.
        let f = Feature::new(&[1e-8, 2e-8]);
        let t = fit(&[f], &labels(1, 1), 6);
        assert!(t.splits.is_empty());
        assert_eq!(t.leaves, vec![Leaf { depth: 0, zeros: 1, ones: 1 }]);
        let next = f64::from(f32::from_bits(1f32.to_bits() + 1));
        let t = fit(&[Feature::new(&[1.0, next])], &labels(1, 1), 6);
        assert_eq!(t.splits.len(), 1);
        // The midpoint is not an f64 equal to `next`, so it stays.
        assert_eq!(t.splits[0].threshold, 0.5 + next / 2.0);
    }

    #[test]
    fn depth_limits_the_tree() {
        // Alternating labels on 0..16: every split is possible, the depth stops it.
        let x: Vec<f64> = (0..16).map(f64::from).collect();
        let labels: Vec<bool> = (0..16).map(|i| i % 2 == 1).collect();
        let t = fit(&[Feature::new(&x)], &labels, 2);
        assert!(t.leaves.iter().all(|l| l.depth <= 2));
        assert_eq!(t.leaves.iter().map(|l| l.zeros + l.ones).sum::<u64>(), 16);
        assert!(t.leaves.len() <= 4);
    }

    #[test]
    fn fractions_compare_exactly() {
        assert_eq!(fraction_cmp(1, 3, 2, 6), Ordering::Equal);
        assert_eq!(fraction_cmp(1, 3, 1, 2), Ordering::Less);
        assert_eq!(fraction_cmp(7, 5, 4, 3), Ordering::Greater);
        assert_eq!(fraction_cmp(u128::MAX - 1, u128::MAX, u128::MAX - 2, u128::MAX - 1), Ordering::Greater);
        assert_eq!(fraction_cmp(2, 4, 3, 7), Ordering::Greater);
        let big = Cost { num: u128::MAX / 3, den: u128::MAX / 2 };
        let bigger = Cost { num: u128::MAX / 2, den: u128::MAX / 2 };
        assert!(big.less(&bigger, false) && !bigger.less(&big, false));
        let (third, half) = (Cost::new(1, 1, 0, 1), Cost::new(1, 1, 1, 1));
        assert!(third.less(&half, true) && third.less(&half, false) && !half.less(&third, true));
    }
}
