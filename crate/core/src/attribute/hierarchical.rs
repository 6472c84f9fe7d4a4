//! The hierarchical t-closeness distance (spec attribute-risk.md Sec 3 "Hierarchical
//! distance"; \[LLV07\]; ARX): the earth mover's distance whose ground distance is the height of
//! the lowest common ancestor in a user hierarchy, over the height of the root.
//!
//! The hierarchy comes in ARX's layout (one row per leaf: the leaf, then its ancestors from the
//! lowest level up). A node is its label at its level; rows whose last labels differ get one
//! root above them. A blank SA value (`MISSING`, `SUPPRESSED`) that the hierarchy does not
//! list hangs directly under the root (docs/decisions/attribute/t-distance-and-hierarchy.md).

use super::distribution::{ClassDist, Distributions};
use crate::hash::{Map, map};
use crate::table::dictionary::is_blank;

/// The tree over the SA's values, nodes ordered children before parents.
#[derive(Debug, Clone)]
pub struct Tree {
    /// Parent of each node (`usize::MAX` for the root, the last node).
    parent: Vec<usize>,
    /// `height(N) / H` of each node (leaves 0).
    weight: Vec<f64>,
    /// The leaf node of each SA value code present in `V` (`usize::MAX` otherwise).
    leaf_of: Vec<usize>,
    /// The leaves of `V`: `(value code, leaf node)`.
    leaves: Vec<(u32, usize)>,
}

/// Why the distance cannot be computed.
#[derive(Debug, Clone, PartialEq)]
pub struct Incomplete {
    /// The non-blank values of `V` the hierarchy's leaves miss (at most 20, in `V`'s order).
    pub missing: Vec<String>,
    /// How many there are.
    pub count: usize,
}

impl Tree {
    /// The tree of `rows` (ARX's layout) over the values of `dist`; `Err` when a non-blank
    /// value of `V` is not a leaf (`hierarchy_incomplete`).
    pub fn new(rows: &[Vec<String>], dist: &Distributions) -> Result<Tree, Incomplete> {
        // Nodes by (level, label); children first since a row lists a leaf before its ancestors.
        let mut index: Map<(usize, String), usize> = map();
        let mut parent: Vec<usize> = Vec::new();
        let mut height: Vec<usize> = Vec::new();
        let mut leaf_by_label: Map<String, usize> = map();
        let mut tops: Vec<usize> = Vec::new();
        for row in rows.iter().filter(|r| !r.is_empty()) {
            let mut below = usize::MAX;
            for (level, label) in row.iter().enumerate() {
                let node = *index.entry((level, label.clone())).or_insert_with(|| {
                    parent.push(usize::MAX);
                    height.push(0);
                    parent.len() - 1
                });
                if below != usize::MAX && parent[below] == usize::MAX {
                    parent[below] = node;
                }
                below = node;
            }
            let top = below;
            if !tops.contains(&top) {
                tops.push(top);
            }
            leaf_by_label.entry(row[0].clone()).or_insert_with(|| index[&(0, row[0].clone())]);
        }
        let tops: Vec<usize> = tops.into_iter().filter(|&t| parent[t] == usize::MAX).collect();
        let mut leaf_of = vec![usize::MAX; dist.q_counts.len()];
        let (mut missing, mut count, mut blanks) = (Vec::new(), 0usize, Vec::new());
        for &v in &dist.order {
            let label = dist.label(v);
            match leaf_by_label.get(label) {
                Some(&leaf) => leaf_of[v as usize] = leaf,
                None if is_blank(v) => blanks.push(v),
                None => {
                    count += 1;
                    if missing.len() < 20 {
                        missing.push(label.to_string());
                    }
                }
            }
        }
        if count > 0 {
            return Err(Incomplete { missing, count });
        }
        // One root: the single top, else a new node above every top; blank leaves hang under it.
        let root = if tops.len() == 1 {
            tops[0]
        } else {
            parent.push(usize::MAX);
            height.push(0);
            let root = parent.len() - 1;
            for &t in &tops {
                parent[t] = root;
            }
            root
        };
        for &v in &blanks {
            parent.push(root);
            height.push(0);
            leaf_of[v as usize] = parent.len() - 1;
        }
        // Heights: 1 + the highest child, found by walking up from every node.
        for start in 0..parent.len() {
            let (mut node, mut h) = (start, height[start]);
            while parent[node] != usize::MAX {
                node = parent[node];
                h += 1;
                if height[node] >= h {
                    break;
                }
                height[node] = h;
            }
        }
        // Order children before parents: by height, the root last.
        let mut order: Vec<usize> = (0..parent.len()).collect();
        order.sort_by_key(|&n| (n == root, height[n], n));
        let mut new = vec![0usize; parent.len()];
        for (i, &n) in order.iter().enumerate() {
            new[n] = i;
        }
        let h_root = height[root].max(1) as f64;
        let parent = order.iter().map(|&n| if parent[n] == usize::MAX { usize::MAX } else { new[parent[n]] }).collect();
        let weight = order.iter().map(|&n| height[n] as f64 / h_root).collect();
        for l in leaf_of.iter_mut().filter(|l| **l != usize::MAX) {
            *l = new[*l];
        }
        let leaves = dist.order.iter().map(|&v| (v, leaf_of[v as usize])).collect();
        Ok(Tree { parent, weight, leaf_of, leaves })
    }

    /// `D_hier(P_C, Q) = sum over internal N of height(N)/H * min(pos(N), neg(N))`; `scratch`
    /// holds `(extra, pos, neg)` per node and is reused across classes.
    pub fn distance(&self, d: &ClassDist<'_>, dist: &Distributions, scratch: &mut Vec<(f64, f64, f64)>) -> f64 {
        scratch.clear();
        scratch.resize(self.parent.len(), (0.0, 0.0, 0.0));
        for &(v, leaf) in &self.leaves {
            scratch[leaf].0 -= dist.q(v);
        }
        for &(v, w) in d.counts {
            scratch[self.leaf_of[v as usize]].0 += w / d.total;
        }
        let mut sum = 0.0;
        for n in 0..self.parent.len() {
            let (extra, pos, neg) = scratch[n];
            if self.weight[n] > 0.0 {
                sum += self.weight[n] * pos.min(neg);
            }
            let up = self.parent[n];
            if up != usize::MAX {
                let p = &mut scratch[up];
                p.0 += extra;
                if extra > 0.0 {
                    p.1 += extra;
                } else {
                    p.2 -= extra;
                }
            }
        }
        sum
    }
}
