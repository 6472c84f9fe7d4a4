//! Issue 15's done-when: hierarchical t-closeness (attribute-risk.md Sec 3) on `adult.csv`
//! with ARX's hierarchy files matches an independent computation: a plain recursive reading of
//! the formula over the text of the file (split on `;`, classes keyed by their QI texts, the
//! tree as a map from a node to its children), sharing no code with the core.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use pseudolens_core::attribute::TDistance;
use pseudolens_core::{AttributeSettings, AuditConfig};

/// A node of the hierarchy: its level and label.
type Node = (usize, String);

/// The hierarchy file's rows.
fn hierarchy(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(shared(&format!("data/adult/adult_hierarchy_{name}.csv"))).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split(';').map(|c| c.trim().to_string()).collect()).collect()
}

/// `extra(N)`, adding `height(N)/H * min(pos, neg)` of each internal node below `N` to `sum`.
fn walk(node: &Node, children: &BTreeMap<Node, BTreeSet<Node>>, height: &BTreeMap<Node, usize>, h: f64, diff: &BTreeMap<String, f64>, sum: &mut f64) -> f64 {
    match children.get(node) {
        None => diff.get(&node.1).copied().unwrap_or(0.0),
        Some(kids) => {
            let (mut pos, mut neg, mut extra) = (0.0, 0.0, 0.0);
            for kid in kids {
                let e = walk(kid, children, height, h, diff, sum);
                extra += e;
                if e > 0.0 {
                    pos += e;
                } else {
                    neg -= e;
                }
            }
            *sum += height[node] as f64 / h * f64::min(pos, neg);
            extra
        }
    }
}

fn node_height(node: &Node, children: &BTreeMap<Node, BTreeSet<Node>>, height: &mut BTreeMap<Node, usize>) -> usize {
    let h = children.get(node).map_or(0, |kids| 1 + kids.iter().map(|k| node_height(k, children, height)).max().unwrap_or(0));
    height.insert(node.clone(), h);
    h
}

/// `max_C D_hier(P_C, Q)` of column `sa` with classes on `qis`, straight from the text.
fn independent(text: &str, qis: &[&str], sa: &str, rows: &[Vec<String>]) -> f64 {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(';').collect();
    let at = |c: &str| header.iter().position(|h| *h == c).unwrap();
    let (qi_at, sa_at): (Vec<usize>, usize) = (qis.iter().map(|q| at(q)).collect(), at(sa));
    let mut classes: BTreeMap<Vec<String>, BTreeMap<String, f64>> = BTreeMap::new();
    let mut q: BTreeMap<String, f64> = BTreeMap::new();
    let mut n = 0.0;
    for line in lines.filter(|l| !l.is_empty()) {
        let cells: Vec<&str> = line.split(';').collect();
        let key = qi_at.iter().map(|&i| cells[i].to_string()).collect();
        *classes.entry(key).or_default().entry(cells[sa_at].to_string()).or_insert(0.0) += 1.0;
        *q.entry(cells[sa_at].to_string()).or_insert(0.0) += 1.0;
        n += 1.0;
    }
    let mut children: BTreeMap<Node, BTreeSet<Node>> = BTreeMap::new();
    for row in rows {
        for level in 1..row.len() {
            children.entry((level, row[level].clone())).or_default().insert((level - 1, row[level - 1].clone()));
        }
    }
    let root = (rows[0].len() - 1, rows[0].last().unwrap().clone());
    let mut height = BTreeMap::new();
    let h = node_height(&root, &children, &mut height) as f64;
    let mut worst = 0.0f64;
    for counts in classes.values() {
        let size: f64 = counts.values().sum();
        let diff: BTreeMap<String, f64> = q.iter().map(|(v, c)| (v.clone(), counts.get(v).copied().unwrap_or(0.0) / size - c / n)).collect();
        let mut sum = 0.0;
        walk(&root, &children, &height, h, &diff, &mut sum);
        worst = worst.max(sum);
    }
    worst
}

#[test]
fn adult_hierarchical_t_matches_an_independent_computation() {
    let path = shared("data/adult/adult.csv");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = String::from_utf8(bytes.clone()).unwrap();
    let qis = ["sex", "age", "race"];
    // occupation: 3 levels (H = 2); education: 4 levels (H = 3); marital-status: 3 levels.
    let sas = ["occupation", "education", "marital-status"];
    let mut config = AuditConfig { sensitive: sas.iter().map(|s| s.to_string()).collect(), ..qi(&qis) };
    config.attribute.t_distance = TDistance::Hierarchical;
    for sa in sas {
        config.attributes.insert(sa.to_string(), AttributeSettings { hierarchy: Some(hierarchy(sa)), ..Default::default() });
    }
    let r = audit(&bytes, &config);
    for sa in sas {
        let expected = independent(&text, &qis, sa, &hierarchy(sa));
        let m = r.metrics.iter().find(|m| m.id == "t_closeness_hierarchical" && m.scope.sensitive.as_deref() == Some(sa)).unwrap();
        let got = m.value.as_f64().unwrap_or_else(|| panic!("{sa}: {m:?}"));
        assert!(expected > 0.0 && expected < 1.0, "{sa}: {expected}");
        assert_close(got, expected, sa);
        let t = r.metrics.iter().find(|m| m.id == "t_closeness" && m.scope.sensitive.as_deref() == Some(sa)).unwrap();
        assert_close(t.value.as_f64().unwrap(), expected, sa);
    }
}
