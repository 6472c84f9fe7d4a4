//! The exact search over the lattice (spec protect.md Sec 2-4): every node's figures, with no
//! shortcut but the monotonicity Sec 3 allows. With `k` and distinct `l` (at any suppression
//! limit) and with `t` at a limit of 0, suppression within the limit is upward closed: a node
//! below one past it is past it too, and is not evaluated (the nodes are taken from the top,
//! height by height). `average_risk` is checked on every node evaluated. Then the best node,
//! the minimal feasible nodes, the Pareto front over `(average_risk, loss)`, and, when no node
//! is feasible, the node closest to it (every node then evaluated).

use super::base::Base;
use super::ladder::BuiltLadder;
use super::node::{Figures, Rules, evaluate};
use crate::error::{Error, Result};

/// The objective that orders the feasible nodes (Sec 4).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// The normalized certainty penalty, rounded to 12 decimals.
    #[default]
    Loss,
    /// The discernibility.
    Discernibility,
}

/// The lattice of nodes `(l_1, .., l_m)`, `0 <= l_i < h_i`, numbered so that the order of the
/// numbers is the lexicographic order of the level vectors.
#[derive(Debug, Clone)]
pub struct Lattice {
    heights: Vec<usize>,
    strides: Vec<usize>,
    size: usize,
}

impl Lattice {
    /// The lattice of ladders of these heights; `too_many_nodes` above `max_nodes` (naming
    /// the ladder with the most levels, `names[i]` for ladder `i`).
    pub fn new(heights: Vec<usize>, names: &[String], max_nodes: u64) -> Result<Lattice> {
        let size = heights.iter().try_fold(1u64, |p, &h| p.checked_mul(h as u64)).unwrap_or(u64::MAX);
        if size > max_nodes {
            let (most, h) = heights.iter().enumerate().max_by_key(|&(i, h)| (h, std::cmp::Reverse(i))).map_or((0, 0), |(i, &h)| (i, h));
            return Err(Error::config(
                "too_many_nodes",
                format!(
                    "the lattice has {size} nodes, more than max_nodes ({max_nodes}); the ladder of \"{}\" has the most levels ({h}): give it fewer",
                    names[most]
                ),
            ));
        }
        let mut strides = vec![1usize; heights.len()];
        for i in (0..heights.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * heights[i + 1];
        }
        Ok(Lattice { heights, strides, size: size as usize })
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The levels of node `i`.
    pub fn levels(&self, i: usize) -> Vec<usize> {
        self.strides.iter().zip(&self.heights).map(|(&s, &h)| i / s % h).collect()
    }

    /// The number of a node from its levels.
    pub fn index(&self, levels: &[usize]) -> usize {
        levels.iter().zip(&self.strides).map(|(l, s)| l * s).sum()
    }

    /// `sum l_i` of node `i`.
    pub fn height(&self, i: usize) -> usize {
        self.levels(i).iter().sum()
    }

    /// The nodes one level above node `i` in one QI.
    fn above(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.strides.iter().zip(&self.heights).filter(move |&(&s, &h)| i / s % h + 1 < h).map(move |(&s, _)| i + s)
    }

    /// The nodes one level below node `i` in one QI.
    fn below(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.strides.iter().zip(&self.heights).filter(move |&(&s, &h)| !(i / s).is_multiple_of(h)).map(move |(&s, _)| i - s)
    }
}

/// What the search found.
#[derive(Debug, Clone)]
pub struct Search {
    /// The lattice searched.
    pub lattice: Lattice,
    /// The figures of every node evaluated.
    pub nodes: Vec<Option<Figures>>,
    /// How many nodes were evaluated.
    pub evaluated: u64,
    /// The feasible nodes, ascending.
    pub feasible: Vec<usize>,
    /// The best node (Sec 4 tie rules).
    pub best: Option<usize>,
    /// The minimal feasible nodes, ascending.
    pub minimal: Vec<usize>,
    /// The Pareto front over `(average_risk, loss)`, by average risk, then loss, then node.
    pub pareto: Vec<usize>,
    /// Without a feasible node: the node suppressing the fewest records (then the lower
    /// height, then the lexicographically smaller levels).
    pub closest: Option<usize>,
}

/// A value rounded to 12 decimals, as an integer key.
pub fn rounded(x: f64) -> i64 {
    (x * 1e12).round() as i64
}

/// Searches the lattice of `ladders` under `rules` (see the module's note on what is pruned).
pub fn search(base: &Base, ladders: &[BuiltLadder], rules: &Rules, lattice: Lattice, objective: Objective, prune: bool) -> Search {
    let size = lattice.size();
    let mut nodes: Vec<Option<Figures>> = vec![None; size];
    let mut past_limit = vec![false; size];
    let mut by_height: Vec<Vec<usize>> = vec![Vec::new(); lattice.heights.iter().map(|h| h - 1).sum::<usize>() + 1];
    for i in 0..size {
        by_height[lattice.height(i)].push(i);
    }
    let mut evaluated = 0u64;
    let mut done = 0u64;
    for layer in by_height.iter().rev() {
        let todo: Vec<usize> = layer
            .iter()
            .copied()
            .filter(|&i| {
                let inferred = prune && lattice.above(i).any(|j| past_limit[j]);
                past_limit[i] = inferred;
                !inferred
            })
            .collect();
        evaluated += todo.len() as u64;
        let figures = crate::par::map(todo.clone(), |i| evaluate(base, ladders, rules, &lattice.levels(i)).0);
        for (i, f) in todo.into_iter().zip(figures) {
            past_limit[i] = !f.within_limit;
            nodes[i] = Some(f);
        }
        // A layer's nodes are evaluated or ruled out.
        done += layer.len() as u64;
        crate::progress::report(crate::progress::Phase::Nodes, done, size as u64);
    }
    let feasible: Vec<usize> = (0..size).filter(|&i| nodes[i].is_some_and(|f| f.feasible)).collect();
    let key = |i: usize| {
        let f = nodes[i].expect("a feasible node was evaluated");
        let primary = match objective {
            Objective::Loss => rounded(f.loss) as i128,
            Objective::Discernibility => i128::from(f.discernibility),
        };
        (primary, f.records_suppressed, lattice.height(i), i)
    };
    let best = feasible.iter().copied().min_by_key(|&i| key(i));
    // Minimal: feasible with no feasible node below (at any distance), ascending numbers
    // reach every node below before the node.
    let mut below_feasible = vec![false; size];
    let mut is_feasible = vec![false; size];
    for &i in &feasible {
        is_feasible[i] = true;
    }
    for i in 0..size {
        below_feasible[i] = lattice.below(i).any(|j| is_feasible[j] || below_feasible[j]);
    }
    let minimal = feasible.iter().copied().filter(|&i| !below_feasible[i]).collect();
    let pareto = pareto(&feasible, |i| {
        let f = nodes[i].expect("evaluated");
        (rounded(f.average_risk.unwrap_or(0.0)), rounded(f.loss))
    });
    let closest = if feasible.is_empty() {
        for (i, node) in nodes.iter_mut().enumerate() {
            if node.is_none() {
                *node = Some(evaluate(base, ladders, rules, &lattice.levels(i)).0);
                evaluated += 1;
            }
        }
        (0..size).min_by_key(|&i| (nodes[i].expect("evaluated").records_suppressed, lattice.height(i), i))
    } else {
        None
    };
    Search { lattice, nodes, evaluated, feasible, best, minimal, pareto, closest }
}

/// The nodes of `feasible` that no other dominates on `(risk, loss)`: none at most as large
/// in both and smaller in one. By risk, then loss, then node.
fn pareto(feasible: &[usize], point: impl Fn(usize) -> (i64, i64)) -> Vec<usize> {
    let mut sorted: Vec<(i64, i64, usize)> = feasible.iter().map(|&i| (point(i).0, point(i).1, i)).collect();
    sorted.sort_unstable();
    let mut out = Vec::new();
    // The smallest loss among the strictly smaller risks.
    let mut best_before = i64::MAX;
    for group in sorted.chunk_by(|a, b| a.0 == b.0) {
        let least = group[0].1;
        if least < best_before {
            out.extend(group.iter().filter(|p| p.1 == least).map(|p| p.2));
        }
        best_before = best_before.min(least);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_numbers_nodes_in_lexicographic_order() {
        let l = Lattice::new(vec![4, 4, 2], &["age".into(), "zip".into(), "sex".into()], 1000).unwrap();
        assert_eq!(l.size(), 32);
        assert_eq!((l.levels(0), l.levels(31), l.index(&[3, 2, 0]), l.height(l.index(&[3, 2, 0]))), (vec![0, 0, 0], vec![3, 3, 1], 28, 5));
        let mut above: Vec<usize> = l.above(l.index(&[3, 2, 0])).collect();
        above.sort_unstable();
        assert_eq!(above, vec![l.index(&[3, 2, 1]), l.index(&[3, 3, 0])]);
        assert_eq!(l.below(0).count(), 0);
        let e = Lattice::new(vec![4, 4, 2], &["age".into(), "zip".into(), "sex".into()], 31).unwrap_err();
        assert_eq!(e.code, "too_many_nodes");
        assert!(e.message.contains("32 nodes") && e.message.contains("\"age\""), "{}", e.message);
    }

    #[test]
    fn the_pareto_front_keeps_ties_and_drops_the_dominated() {
        // (risk, loss): 0 (1,5), 1 (1,5), 2 (2,3), 3 (2,4), 4 (3,3), 5 (0,9).
        let points = [(1, 5), (1, 5), (2, 3), (2, 4), (3, 3), (0, 9)];
        assert_eq!(pareto(&[0, 1, 2, 3, 4, 5], |i| points[i]), vec![5, 0, 1, 2]);
    }
}
