//! Contingency-table-based information loss (spec utility.md Sec 8.2; \[SDCG\], formula of
//! \[DT01\]): for every subset `T` of the variables `W` with `1 <= |T| <= Kdim`, the cell counts
//! of `O` and `P` over the union of both tables' labels, `d_T = sum_c |x^O_c - x^P_c|` and
//! `cells_T = prod_{a in T} (union labels of a)`; `ctbil = sum_T d_T`,
//! `ctbil_normalized = ctbil / sum_T cells_T`, and per table the total-variation distance
//! `1/2 sum_c |x^O_c/n_O - x^P_c/n_P|` (`n` = rows counted in that table).
//!
//! Labels: normalised strings; both blank forms are the one label `BLANK`, or the row leaves
//! the table under `ctbil_blank = exclude`. A recoded variable reads `O` through the forward
//! map `f_a` ([`crate::utility::forward`]); without one (unpaired, no hierarchy) every table
//! holding it is skipped and counted in `details.not_comparable`, as are tables holding a
//! variable absent from `O` (`not_in_original`) or from `P` (`attribute_dropped`).

use serde_json::{Value, json};

use crate::metric::{MetricResult, Status, min_mean_max};
use crate::utility::Tables;
use crate::utility::forward::{Forward, Grouping, Labels, NONE, forward};
use crate::utility::sdc::context;

/// Tables listed in `details.tables`.
pub const TABLES_LISTED: usize = 100;

/// Distance and total-variation distance of one table, from the group ids of its rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableLoss {
    /// `d_T = sum_c |x^O_c - x^P_c|`.
    pub distance: u64,
    /// `1/2 sum_c |x^O_c/n_O - x^P_c/n_P|`; `None` when a table counts no row.
    pub tv_distance: Option<f64>,
}

/// The loss of one table whose rows of `O` and `P` fall in cells `o` and `p` (`NONE` = left
/// out), cells lying in `0..size`.
pub fn table_loss(o: &[u32], p: &[u32], size: usize) -> TableLoss {
    let count = |ids: &[u32]| {
        let mut c = vec![0u32; size];
        let mut n = 0u64;
        for &g in ids.iter().filter(|&&g| g != NONE) {
            c[g as usize] += 1;
            n += 1;
        }
        (c, n)
    };
    let ((co, no), (cp, np)) = (count(o), count(p));
    let distance = co.iter().zip(&cp).map(|(&a, &b)| u64::from(a.abs_diff(b))).sum();
    let tv_distance = (no > 0 && np > 0).then(|| {
        let (no, np) = (no as f64, np as f64);
        0.5 * crate::numeric::neumaier(co.iter().zip(&cp).filter(|(a, b)| **a > 0 || **b > 0).map(|(&a, &b)| (f64::from(a) / no - f64::from(b) / np).abs()))
    });
    TableLoss { distance, tv_distance }
}

/// The subsets of `0..n` of sizes `1..=k`, by size, then lexicographically.
pub fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for size in 1..=k.min(n) {
        let mut c: Vec<usize> = (0..size).collect();
        loop {
            out.push(c.clone());
            // the rightmost position that can still advance
            let Some(i) = (0..size).rev().find(|&i| c[i] < n - size + i) else { break };
            c[i] += 1;
            for j in i + 1..size {
                c[j] = c[j - 1] + 1;
            }
        }
    }
    out
}

/// `ctbil`, `ctbil_normalized`, `tv_distance`.
pub fn metrics(t: &Tables<'_>) -> Vec<MetricResult> {
    let p = t.params;
    let blank = p.ctbil_blank;
    let mut ctx = context(t, None);
    let mut w: Vec<&str> = Vec::new();
    let chosen: Vec<&String> = if p.ctbil_variables.is_empty() { t.qi.iter().collect() } else { p.ctbil_variables.iter().collect() };
    for v in chosen {
        if !w.contains(&v.as_str()) {
            w.push(v);
        }
    }
    ctx.params["variables"] = json!(w);
    ctx.params["max_dimension"] = json!(p.ctbil_max_dimension);
    ctx.params["blank"] = json!(blank);
    let ids = ["ctbil", "ctbil_normalized", "tv_distance"];
    if w.is_empty() || p.ctbil_max_dimension == 0 {
        return ids.iter().map(|id| ctx.without_value(id, Status::NotApplicable, "no_variables")).collect();
    }
    let pairs = t.pairing.pairs().ok();
    // Per variable: its labels, or why its tables cannot be compared.
    let mut forwards: Vec<(String, Forward)> = Vec::new();
    let mut bad = serde_json::Map::new();
    let labels: Vec<Option<Labels<'_>>> = w
        .iter()
        .map(|&name| {
            let Some(a) = t.attribute(name) else {
                bad.insert(name.into(), json!("not_in_original"));
                return None;
            };
            let Some(pc) = a.p.as_deref() else {
                bad.insert(name.into(), json!("attribute_dropped"));
                return None;
            };
            let f = forward(a, pairs);
            let Some(map) = f.map.as_deref() else {
                bad.insert(name.into(), json!("no_forward_map"));
                return None;
            };
            let l = Labels::new(a, pc, map, blank);
            if f.recoded {
                forwards.push((name.to_string(), f));
            }
            Some(l)
        })
        .collect();
    let (mut tables, mut not_comparable) = (Vec::new(), 0usize);
    let (mut total, mut cells_total) = (0u64, 0u64);
    let mut tv = Vec::new();
    for subset in subsets(w.len(), p.ctbil_max_dimension) {
        let vars: Option<Vec<&Labels<'_>>> = subset.iter().map(|&i| labels[i].as_ref()).collect();
        let Some(vars) = vars else {
            not_comparable += 1;
            continue;
        };
        let g = Grouping::new(&vars);
        let loss = table_loss(&g.o, &g.p, g.size);
        let cells = vars.iter().fold(1u64, |acc, l| acc.saturating_mul(l.count() as u64));
        total += loss.distance;
        cells_total = cells_total.saturating_add(cells);
        if let Some(d) = loss.tv_distance {
            tv.push(d);
        }
        tables.push(json!({
            "variables": subset.iter().map(|&i| w[i]).collect::<Vec<_>>(),
            "distance": loss.distance,
            "cells": cells,
            "tv_distance": loss.tv_distance,
        }));
    }
    let forward_details: serde_json::Map<String, Value> =
        forwards.iter().map(|(n, f)| (n.clone(), json!({ "source": f.source, "undefined": f.undefined }))).collect();
    let partial = forwards.iter().any(|(_, f)| f.undefined > 0);
    let tables_total = tables.len();
    let details = json!({
        "tables": tables.iter().take(TABLES_LISTED).collect::<Vec<_>>(),
        "tables_total": tables_total,
        "cells_total": cells_total,
        "variables": w,
        "max_dimension": p.ctbil_max_dimension,
        "blank": blank,
        "forward": forward_details,
        "not_comparable": not_comparable,
        "not_comparable_variables": bad,
    });
    let warn = |mut m: MetricResult| {
        if not_comparable > 0 {
            m = m.with_warning("not_comparable");
        }
        if partial {
            m = m.with_warning("forward_map_partial");
        }
        m
    };
    if tables_total == 0 {
        return ids.iter().map(|id| warn(ctx.without_value(id, Status::NotApplicable, "not_comparable").with_details(details.clone()))).collect();
    }
    let normalized = if cells_total == 0 {
        ctx.without_value("ctbil_normalized", Status::EmptyInput, "no_cells")
    } else {
        ctx.ok("ctbil_normalized", total as f64 / cells_total as f64)
    };
    let tv_metric = if tv.is_empty() {
        ctx.without_value("tv_distance", Status::EmptyInput, "no_rows")
    } else {
        let min = tv.iter().copied().fold(f64::INFINITY, f64::min);
        let max = tv.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        ctx.ok("tv_distance", min_mean_max(min, crate::numeric::neumaier(tv.iter().copied()) / tv.len() as f64, max))
    };
    vec![
        warn(ctx.ok("ctbil", total).with_details(details)),
        warn(normalized.with_details(json!({ "ctbil": total, "cells_total": cells_total }))),
        warn(tv_metric.with_details(json!({ "tables": tv.len() }))),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_by_size_then_lexicographic() {
        assert_eq!(subsets(3, 2), vec![vec![0], vec![1], vec![2], vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(subsets(2, 5).len(), 3);
        assert_eq!(subsets(4, 4).len(), 15);
    }

    #[test]
    fn distance_and_tv() {
        let l = table_loss(&[0, 0, 1, NONE], &[0, 1, 1, 2], 3);
        assert_eq!(l.distance, 3);
        // O (2/3, 1/3, 0) vs P (1/4, 2/4, 1/4)
        let tv = 0.5 * ((2.0 / 3.0 - 0.25) + (0.5 - 1.0 / 3.0) + 0.25);
        assert!((l.tv_distance.unwrap() - tv).abs() < 1e-15);
    }
}
