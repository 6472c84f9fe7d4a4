//! SDMetrics' `DisclosureProtection` (spec synthetic.md Sec 11,
//! `sdmetrics/single_table/privacy/disclosure_protection.py:77-299`, `cap.py`,
//! `privacy/base.py:150-176`): an attacker who knows a record's key columns `K` reads the
//! share of each sensitive tuple among `P`'s rows with that key; `cap_protection = 1 - mean`
//! of the share of the true tuple over `O`'s rows, divided by the uniform guess's
//! `1 - 1 / prod nunique_O(s)`, capped at 1.
//!
//! Worked per distinct key: `P`'s rows are grouped by key into counts of sensitive tuples,
//! `O`'s rows by (key, sensitive tuple) with counts. The generalized method pools the keys of
//! `P` at the least Hamming distance once per distinct key of `O`.

use super::CapMethod;
use super::columns::SynColumn;
use super::tuples::{counts, tuple_ids};
use crate::hash::{Map, map};
use crate::par;

/// One column of `K` or `S` as codes of equality: per row of `O` and of `P`.
pub struct CapColumn {
    /// Per row of `O`.
    pub o: Vec<u32>,
    /// Per row of `P`.
    pub p: Vec<u32>,
}

impl CapColumn {
    /// The column's own values (missing is one value, numbers compare as numbers).
    pub fn plain(c: &SynColumn) -> CapColumn {
        CapColumn { o: c.o.clone(), p: c.p.clone() }
    }

    /// A continuous column cut as pandas `cut(x, bins)` does
    /// (`disclosure_protection.py:89-99`): `bins` equal-width bins over `O`'s range, closed on
    /// the right, the lowest edge lowered by 0.1 % of the range (or both edges moved by 0.1 %
    /// of the value when `O` holds one number); `P`'s outer edges are infinite. Bin `b` is
    /// code `b`; missing, and a value that is not a number, is code `bins` (the null value).
    pub fn binned(c: &SynColumn, bins: u32) -> CapColumn {
        let edges = edges(c.o.iter().filter_map(|&v| c.numbers[v as usize]), bins);
        let code: Vec<u32> = c
            .numbers
            .iter()
            .map(|x| match (x, &edges) {
                (Some(x), Some(e)) => {
                    // pandas: `searchsorted(edges, x, side="left") - 1`.
                    let ids = e.partition_point(|&edge| edge < *x);
                    (ids.max(1) - 1).min(bins as usize - 1) as u32
                }
                _ => bins,
            })
            .collect();
        let map = |rows: &[u32]| rows.iter().map(|&v| code[v as usize]).collect();
        CapColumn { o: map(&c.o), p: map(&c.p) }
    }
}

/// The `bins + 1` edges of pandas `cut` over `values` (numpy `linspace`: `start + i * step`,
/// the last edge `stop`), before the outer edges become infinite; `None` without a value.
fn edges(values: impl Iterator<Item = f64>, bins: u32) -> Option<Vec<f64>> {
    let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo > hi {
        return None;
    }
    let same = lo == hi;
    if same {
        lo -= if lo != 0.0 { 0.001 * lo.abs() } else { 0.001 };
        hi += if hi != 0.0 { 0.001 * hi.abs() } else { 0.001 };
    }
    let step = (hi - lo) / f64::from(bins);
    let mut e: Vec<f64> = (0..=bins).map(|i| f64::from(i) * step + lo).collect();
    e[bins as usize] = hi;
    if !same {
        e[0] -= (hi - lo) * 0.001;
    }
    Some(e)
}

/// The (`O`, `P`) rows of each column.
fn pairs(cols: &[CapColumn]) -> Vec<(&[u32], &[u32])> {
    cols.iter().map(|c| (c.o.as_slice(), c.p.as_slice())).collect()
}

/// The result of Sec 11.
#[derive(Debug, Clone, PartialEq)]
pub struct Cap {
    /// `1 - mean(score)` over the rows of `O` scored; `None` when none is.
    pub cap_protection: Option<f64>,
    /// `1 - 1 / prod_s nunique_O(s)`.
    pub baseline: f64,
    /// `min(cap_protection / baseline, 1)`; `None` without `cap_protection` or when the
    /// baseline is 0.
    pub score: Option<f64>,
    /// The rows of `O` scored.
    pub scored_rows: u64,
}

/// CAP over the known columns `known` and the sensitive columns `sensitive` (at least one
/// each), with `method`.
pub fn cap(known: &[CapColumn], sensitive: &[CapColumn], method: CapMethod) -> Cap {
    let n_o = known[0].o.len();
    let n_p = known[0].p.len();
    let (ko, kp, n_keys) = tuple_ids(&pairs(known), n_o, n_p);
    let (so, sp, _) = tuple_ids(&pairs(sensitive), n_o, n_p);
    let in_p = counts(&kp, n_keys);
    let pair_key = |k: u32, s: u32| (u64::from(k) << 32) | u64::from(s);
    let mut p_pairs: Map<u64, u32> = map();
    kp.iter().zip(&sp).for_each(|(&k, &s)| *p_pairs.entry(pair_key(k, s)).or_insert(0) += 1);
    let mut o_pairs: Map<u64, u64> = map();
    ko.iter().zip(&so).for_each(|(&k, &s)| *o_pairs.entry(pair_key(k, s)).or_insert(0) += 1);
    let mut o_pairs: Vec<(u64, u64)> = o_pairs.into_iter().collect();
    o_pairs.sort_unstable();
    let share = |k: u32, s: u32| f64::from(p_pairs.get(&pair_key(k, s)).copied().unwrap_or(0));
    let (mut sum, mut scored) = (0.0f64, 0u64);
    match method {
        CapMethod::Cap | CapMethod::ZeroCap => {
            for &(ks, c) in &o_pairs {
                let (k, s) = ((ks >> 32) as u32, ks as u32);
                if in_p[k as usize] > 0 {
                    sum += c as f64 * share(k, s) / f64::from(in_p[k as usize]);
                    scored += c;
                } else if method == CapMethod::ZeroCap {
                    scored += c;
                }
            }
        }
        CapMethod::GeneralizedCap => {
            // Each key's codes, from its first row on either side.
            let mut first: Vec<Option<(bool, usize)>> = vec![None; n_keys];
            ko.iter().enumerate().for_each(|(r, &k)| {
                first[k as usize].get_or_insert((true, r));
            });
            kp.iter().enumerate().for_each(|(r, &k)| {
                first[k as usize].get_or_insert((false, r));
            });
            let codes = |k: u32| -> Vec<u32> {
                let (in_o, r) = first[k as usize].expect("a key has a row");
                known.iter().map(|c| if in_o { c.o[r] } else { c.p[r] }).collect()
            };
            let p_keys: Vec<(u32, Vec<u32>)> = (0..n_keys as u32).filter(|&k| in_p[k as usize] > 0).map(|k| (k, codes(k))).collect();
            // Runs of `O`'s (key, tuple) pairs, one run per key.
            let mut runs: Vec<&[(u64, u64)]> = Vec::new();
            let mut rest: &[(u64, u64)] = &o_pairs;
            while let Some(&(ks, _)) = rest.first() {
                let len = rest.partition_point(|&(x, _)| x >> 32 == ks >> 32);
                let (run, tail) = rest.split_at(len);
                runs.push(run);
                rest = tail;
            }
            let parts: Vec<(f64, u64)> = par::map(runs, |run| {
                let k = (run[0].0 >> 32) as u32;
                let nearest: Vec<u32> = if in_p[k as usize] > 0 {
                    vec![k]
                } else {
                    let mine = codes(k);
                    let mut least = usize::MAX;
                    let mut nearest = Vec::new();
                    for (q, theirs) in &p_keys {
                        let h = mine.iter().zip(theirs).filter(|(a, b)| a != b).count();
                        if h < least {
                            least = h;
                            nearest.clear();
                        }
                        if h == least {
                            nearest.push(*q);
                        }
                    }
                    nearest
                };
                let total: f64 = nearest.iter().map(|&q| f64::from(in_p[q as usize])).sum();
                let mut sum = 0.0;
                let mut scored = 0;
                for &(ks, c) in run {
                    let s = ks as u32;
                    if total > 0.0 {
                        sum += c as f64 * nearest.iter().map(|&q| share(q, s)).sum::<f64>() / total;
                        scored += c;
                    }
                }
                (sum, scored)
            });
            for (s, c) in parts {
                sum += s;
                scored += c;
            }
        }
    }
    let product: f64 = sensitive
        .iter()
        .map(|c| {
            let mut seen: Vec<u32> = c.o.clone();
            seen.sort_unstable();
            seen.dedup();
            seen.len() as f64
        })
        .product();
    let baseline = 1.0 - 1.0 / product;
    let cap_protection = (scored > 0).then(|| 1.0 - sum / scored as f64);
    let score = cap_protection.filter(|_| baseline > 0.0).map(|c| (c / baseline).min(1.0));
    Cap { cap_protection, baseline, score, scored_rows: scored }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(o: &[u32], p: &[u32]) -> CapColumn {
        CapColumn { o: o.to_vec(), p: p.to_vec() }
    }

    #[test]
    fn hand_checked_methods() {
        // K: O keys a a b c; P keys a a b. S: O 1 2 1 1; P 1 1 2.
        // key a: P list (1,1): O (a,1) 1, (a,2) 0; key b: P (2): O (b,1) 0; c absent.
        // CAP: mean of 1, 0, 0 = 1/3; ZERO: (1 + 0 + 0 + 0) / 4; baseline 1 - 1/2.
        let k = col(&[0, 0, 1, 2], &[0, 0, 1]);
        let s = col(&[1, 2, 1, 1], &[1, 1, 2]);
        let c = cap(&[col(&k.o, &k.p)], &[col(&s.o, &s.p)], CapMethod::Cap);
        assert!((c.cap_protection.unwrap() - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(c.baseline, 0.5);
        assert_eq!(c.score, Some(1.0));
        let z = cap(&[col(&k.o, &k.p)], &[col(&s.o, &s.p)], CapMethod::ZeroCap);
        assert!((z.cap_protection.unwrap() - 0.75).abs() < 1e-15);
        // Generalized: c is at Hamming 1 from a and b: the pooled list (1,1,2) gives 2/3 for 1.
        let g = cap(&[k], &[s], CapMethod::GeneralizedCap);
        assert!((g.cap_protection.unwrap() - (1.0 - (1.0 + 2.0 / 3.0) / 4.0)).abs() < 1e-15);
        assert_eq!(g.scored_rows, 4);
    }

    #[test]
    fn no_key_in_common_scores_no_row() {
        let c = cap(&[col(&[0], &[1])], &[col(&[0], &[0])], CapMethod::Cap);
        assert_eq!((c.cap_protection, c.score, c.baseline), (None, None, 0.0));
    }

    #[test]
    fn edges_follow_pandas_cut() {
        // O AGE 23..70 in 3 bins: 23, 38.667, 54.333, 70 (the first lowered by 0.047).
        let e = edges([23.0, 70.0, 35.0].into_iter(), 3).unwrap();
        assert!((e[0] - (23.0 - 0.047)).abs() < 1e-12 && (e[1] - (23.0 + 47.0 / 3.0)).abs() < 1e-12 && e[3] == 70.0);
        let one = edges([5.0].into_iter(), 2).unwrap();
        assert!(one.iter().zip([4.995, 5.0, 5.005]).all(|(a, b)| (a - b).abs() < 1e-12), "{one:?}");
    }
}
