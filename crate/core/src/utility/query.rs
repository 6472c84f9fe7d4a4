//! Query accuracy (spec utility.md Sec 10; \[HCT\] Sec 3.2, 4.7), family `utility_query`.
//!
//! A query `(G, agg)` groups the rows of each table by the labels of `G` (normalised strings,
//! both blank forms the one label `BLANK`; a recoded column read on the `O` side through the
//! forward map `f_a`, as CTBIL does) and aggregates each group: `count`, `mean(c)` (over the
//! rows with a value, `rep(t)` for ranges) or `share(c, value)` (`100 x` rows with
//! `c = value` / rows; `O`'s `c` read through `f_c`). The cells are `O`'s groups:
//! `RE_c = 100 |v_P - v_O| / |v_O|`; an absent group counts `v_P = 0` for `count` and is *lost*
//! for `mean` and `share`; `v_O = 0` is a *zero cell*; a `mean` group of `O` without values is
//! skipped. The query's value is the unweighted mean of `RE_c` over the evaluated cells.
//!
//! Workload: a one-way count per QI and per sensitive attribute, a two-way count per QI pair
//! (QI order), then the user's `queries`; an exact repeat of an earlier query is left out.
//!
//! Ids, values and details (README Sec 10 result objects, `scope.attribute = null`):
//!
//! | id | value | params | details |
//! |---|---|---|---|
//! | `query_relative_error` (one per query) | mean `RE` in percent; null + `no_evaluated_cells` | `{missing_policy, query: {group_by, aggregate: "count" \| "mean" \| "share", column?, value?}, source: "default" \| "user"}` | `{cells: [{label: [string \| null (BLANK)], original, released, re, status: "ok" \| "lost" \| "zero" \| "skipped"}] (the 50 largest groups of O, ties by label), cells_total, evaluated_cells, max, median, weighted_mean (weights: group sizes in O), lost_cells, zero_cells, skipped_cells, tier: "good" \| "moderate" \| "poor", groups_released}` |
//! | `query_accuracy_summary` | `{mean, max, tiers: {good, moderate, poor}}` over the queries with a value | `{missing_policy}` | `{queries, evaluated, not_evaluated}` |
//!
//! Reasons of a query without value: `column_not_in_original`, `attribute_dropped`,
//! `not_comparable` (a recoded column and no forward map: unpaired data without hierarchy),
//! `no_evaluated_cells`; `error` / `column_not_numeric` for the mean of a categorical column.
//! Warnings: `midpoint_used` (a range entered a mean), `forward_map_partial` (some `O` value
//! of a recoded column has no `f_a` and keeps its label).

use serde_json::{Value, json};

use crate::hash::{Map, map};
use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::dictionary::SUPPRESSED;
use crate::utility::Tables;
use crate::utility::attribute::{Attribute, Typed};
use crate::utility::forward::{Forward, Grouping, Labels, NONE, forward};
use crate::utility::params::{Aggregate, CtbilBlank, Query};
use crate::utility::sdc::Sum;

/// Family of every result here.
pub const FAMILY: &str = "utility_query";
/// Cells listed in `details.cells`.
pub const CELLS_LISTED: usize = 50;

/// \[HCT\] tier of a relative error in percent (unrounded).
pub fn tier(re: f64) -> &'static str {
    if re < 5.0 {
        "good"
    } else if re <= 15.0 {
        "moderate"
    } else {
        "poor"
    }
}

/// The workload: default queries, then the user's; exact repeats left out.
pub fn workload(t: &Tables<'_>) -> Vec<(Query, &'static str)> {
    let count = |g: &[&String]| Query { group_by: g.iter().map(|s| (*s).clone()).collect(), aggregate: Aggregate::Count };
    let mut out: Vec<(Query, &'static str)> = Vec::new();
    let mut add = |q: Query, source| {
        if !out.iter().any(|(o, _)| *o == q) {
            out.push((q, source));
        }
    };
    for c in t.qi.iter().chain(t.sensitive) {
        add(count(&[c]), "default");
    }
    for (i, a) in t.qi.iter().enumerate() {
        for b in &t.qi[i + 1..] {
            add(count(&[a, b]), "default");
        }
    }
    for q in &t.params.queries {
        add(q.clone(), "user");
    }
    out
}

/// Every query of the workload and the summary.
pub fn metrics(t: &Tables<'_>) -> Vec<MetricResult> {
    let queries = workload(t);
    // One forward map per column read as labels (each is a pass over the aligned rows).
    let pairs = t.pairing.pairs().ok();
    let mut forwards: Map<&str, Forward> = map();
    for (q, _) in &queries {
        let share = match &q.aggregate {
            Aggregate::Share { column, .. } => Some(column),
            _ => None,
        };
        for name in q.group_by.iter().chain(share) {
            if let Some(a) = t.attribute(name).filter(|a| a.p.is_some() && !forwards.contains_key(name.as_str())) {
                forwards.insert(name.as_str(), forward(a, pairs));
            }
        }
    }
    let mut out: Vec<MetricResult> = queries.iter().map(|(q, source)| evaluate(t, q, source, &forwards)).collect();
    let values: Vec<f64> = out.iter().filter(|m| m.status == Status::Ok).filter_map(|m| m.value.as_f64()).collect();
    let ctx = t.context(FAMILY, None);
    let details = json!({ "queries": out.len(), "evaluated": values.len(), "not_evaluated": out.len() - values.len() });
    let summary = if values.is_empty() {
        ctx.without_value("query_accuracy_summary", Status::NotApplicable, "no_evaluated_queries")
    } else {
        let n = |name| values.iter().filter(|&&v| tier(v) == name).count();
        ctx.ok(
            "query_accuracy_summary",
            json!({
                "mean": neumaier(values.iter().copied()) / values.len() as f64,
                "max": values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                "tiers": { "good": n("good"), "moderate": n("moderate"), "poor": n("poor") },
            }),
        )
    };
    out.push(summary.with_details(details));
    out
}

/// A column of `O` that `P` also holds, or why the query cannot use it.
fn column<'a>(t: &'a Tables<'_>, name: &str) -> Result<(&'a Attribute, &'a [u32]), &'static str> {
    let a = t.attribute(name).ok_or("column_not_in_original")?;
    Ok((a, a.p.as_deref().ok_or("attribute_dropped")?))
}

/// What is aggregated per group.
enum Agg {
    Count,
    /// `rep` per code (NaN = no value).
    Mean(Vec<f64>),
    /// Whether an `O` code / a `P` code counts as `c = value`.
    Share(Vec<bool>, Vec<bool>),
}

/// Per-group accumulators of one table.
#[derive(Default)]
struct Side {
    rows: Vec<u32>,
    sum: Vec<Sum>,
    valued: Vec<u32>,
    hits: Vec<u32>,
}

impl Side {
    fn new(groups: usize, agg: &Agg) -> Side {
        let mut s = Side { rows: vec![0; groups], ..Side::default() };
        match agg {
            Agg::Count => {}
            Agg::Mean(_) => (s.sum, s.valued) = (vec![Sum::default(); groups], vec![0; groups]),
            Agg::Share(..) => s.hits = vec![0; groups],
        }
        s
    }

    /// The group's value; `None` when it has none (absent, or a mean without values).
    fn value(&self, g: usize, agg: &Agg) -> Option<f64> {
        match agg {
            Agg::Count => Some(f64::from(self.rows[g])),
            Agg::Mean(_) => (self.valued[g] > 0).then(|| self.sum[g].value() / f64::from(self.valued[g])),
            Agg::Share(..) => (self.rows[g] > 0).then(|| 100.0 * f64::from(self.hits[g]) / f64::from(self.rows[g])),
        }
    }
}

/// Renumbers group ids densely by first appearance, `O`'s rows first; returns the number of
/// groups and, per group, its first row of `O` (`NONE` for groups only in `P`).
fn compact(g: &mut Grouping) -> (usize, Vec<u32>) {
    let mut remap = vec![NONE; g.size];
    let mut first = Vec::new();
    for (i, id) in g.o.iter_mut().enumerate() {
        if *id != NONE {
            let r = &mut remap[*id as usize];
            if *r == NONE {
                *r = first.len() as u32;
                first.push(i as u32);
            }
            *id = *r;
        }
    }
    for id in g.p.iter_mut() {
        if *id != NONE {
            let r = &mut remap[*id as usize];
            if *r == NONE {
                *r = first.len() as u32;
                first.push(NONE);
            }
            *id = *r;
        }
    }
    (first.len(), first)
}

fn evaluate(t: &Tables<'_>, q: &Query, source: &'static str, forwards: &Map<&str, Forward>) -> MetricResult {
    const ID: &str = "query_relative_error";
    let mut ctx: Context = t.context(FAMILY, None);
    ctx.params["query"] = serde_json::to_value(q).unwrap_or(Value::Null);
    ctx.params["source"] = json!(source);
    let na = |reason| ctx.without_value(ID, Status::NotApplicable, reason);
    let mut partial = false;
    // Group columns.
    let mut cols = Vec::new();
    for name in &q.group_by {
        let (a, p) = match column(t, name) {
            Ok(c) => c,
            Err(reason) => return na(reason),
        };
        let f = &forwards[name.as_str()];
        let Some(map) = f.map.as_deref() else { return na("not_comparable") };
        partial |= f.undefined > 0;
        cols.push((a, p, map));
    }
    let labels: Vec<Labels<'_>> = cols.iter().map(|(a, p, map)| Labels::new(a, p, map, CtbilBlank::Category)).collect();
    // The aggregate.
    let mut midpoint = false;
    let (agg, src): (Agg, Option<(&Attribute, &[u32])>) = match &q.aggregate {
        Aggregate::Count => (Agg::Count, None),
        Aggregate::Mean { column: c } => {
            let (a, p) = match column(t, c) {
                Ok(x) => x,
                Err(reason) => return na(reason),
            };
            if a.kind.is_label() {
                return ctx.without_value(ID, Status::Error, "column_not_numeric");
            }
            let rep: Vec<f64> = (0..a.values.len() as u32).map(|c| if c <= SUPPRESSED { f64::NAN } else { a.rep(c).unwrap_or(f64::NAN) }).collect();
            let range = |count: &[u64]| (0..rep.len()).any(|c| count[c] > 0 && rep[c].is_finite() && matches!(a.typed[c], Typed::Range(_)));
            midpoint = range(&a.o_count) || range(&a.p_count);
            (Agg::Mean(rep), Some((a, p)))
        }
        Aggregate::Share { column: c, value } => {
            let (a, p) = match column(t, c) {
                Ok(x) => x,
                Err(reason) => return na(reason),
            };
            let f = &forwards[c.as_str()];
            let Some(map) = f.map.as_deref() else { return na("not_comparable") };
            partial |= f.undefined > 0;
            let target = a.values.lookup(value);
            let o_hit = map.iter().map(|&m| Some(m) == target && m > SUPPRESSED).collect();
            let p_hit = (0..a.values.len() as u32).map(|c| Some(c) == target && c > SUPPRESSED).collect();
            (Agg::Share(o_hit, p_hit), Some((a, p)))
        }
    };
    let mut g = if labels.is_empty() { Grouping { o: vec![0; t.n_o], p: vec![0; t.n_p], size: 1 } } else { Grouping::new(&labels.iter().collect::<Vec<_>>()) };
    let (groups, first) = compact(&mut g);
    let (mut so, mut sp) = (Side::new(groups, &agg), Side::new(groups, &agg));
    let accumulate = |side: &mut Side, ids: &[u32], codes: Option<&[u32]>, original: bool| {
        for (i, &id) in ids.iter().enumerate() {
            if id == NONE {
                continue;
            }
            let id = id as usize;
            side.rows[id] += 1;
            match (&agg, codes) {
                (Agg::Mean(rep), Some(codes)) => {
                    let v = rep[codes[i] as usize];
                    if v.is_finite() {
                        side.sum[id].add(v);
                        side.valued[id] += 1;
                    }
                }
                (Agg::Share(o_hit, p_hit), Some(codes)) => {
                    let hit = if original { o_hit } else { p_hit };
                    side.hits[id] += u32::from(hit[codes[i] as usize]);
                }
                _ => {}
            }
        }
    };
    accumulate(&mut so, &g.o, src.map(|(a, _)| a.o.as_slice()), true);
    accumulate(&mut sp, &g.p, src.map(|(_, p)| p), false);
    // Cells: O's groups.
    let (mut res, mut weights) = (Vec::new(), Vec::new());
    let (mut lost, mut zero, mut skipped) = (0usize, 0usize, 0usize);
    type Cell = (usize, Option<f64>, Option<f64>, Option<f64>, &'static str);
    let mut cells: Vec<Cell> = Vec::new();
    for id in (0..groups).filter(|&id| first[id] != NONE) {
        let vo = so.value(id, &agg);
        let vp = sp.value(id, &agg);
        let (status, re) = match (vo, vp) {
            (None, _) => ("skipped", None),
            (Some(_), None) => ("lost", None),
            (Some(0.0), Some(_)) => ("zero", None),
            (Some(o), Some(p)) => ("ok", Some(100.0 * (p - o).abs() / o.abs())),
        };
        match status {
            "skipped" => skipped += 1,
            "lost" => lost += 1,
            "zero" => zero += 1,
            _ => {}
        }
        if let Some(re) = re {
            res.push(re);
            weights.push(f64::from(so.rows[id]));
        }
        cells.push((id, vo, vp, re, status));
    }
    let cells_total = cells.len();
    // The largest groups of O first, ties by label text (BLANK first): independent of row order.
    let order = |x: &Cell, y: &Cell| {
        so.rows[y.0].cmp(&so.rows[x.0]).then_with(|| {
            let (rx, ry) = (first[x.0] as usize, first[y.0] as usize);
            labels.iter().zip(&cols).map(|(l, (a, _, _))| l.text(a, l.o(rx)).cmp(&l.text(a, l.o(ry)))).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
        })
    };
    crate::numeric::first_in_order(&mut cells, CELLS_LISTED, order);
    let listed: Vec<Value> = cells
        .iter()
        .map(|&(id, vo, vp, re, status)| {
            let row = first[id] as usize;
            let label: Vec<Option<&str>> = labels.iter().zip(&cols).map(|(l, (a, _, _))| l.text(a, l.o(row))).collect();
            json!({ "label": label, "original": vo, "released": vp, "re": re, "status": status, "rows": [so.rows[id], sp.rows[id]] })
        })
        .collect();
    let mut details = json!({
        "cells": listed,
        "cells_total": cells_total,
        "evaluated_cells": res.len(),
        "lost_cells": lost,
        "zero_cells": zero,
        "skipped_cells": skipped,
        "groups_released": (0..groups).filter(|&id| sp.rows[id] > 0).count(),
    });
    let mut m = if res.is_empty() {
        na("no_evaluated_cells").with_details(details)
    } else {
        let mean = neumaier(res.iter().copied()) / res.len() as f64;
        let mut sorted = res.clone();
        sorted.sort_by(f64::total_cmp);
        let k = sorted.len();
        let median = if k % 2 == 1 { sorted[k / 2] } else { (sorted[k / 2 - 1] + sorted[k / 2]) / 2.0 };
        let weighted = neumaier(res.iter().zip(&weights).map(|(r, w)| r * w)) / neumaier(weights.iter().copied());
        details["max"] = json!(sorted[k - 1]);
        details["median"] = json!(median);
        details["weighted_mean"] = json!(weighted);
        details["tier"] = json!(tier(mean));
        ctx.ok(ID, mean).with_details(details)
    };
    if midpoint {
        m = m.with_warning("midpoint_used");
    }
    if partial {
        m = m.with_warning("forward_map_partial");
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// \[HCT\] Sec 3.2 and golden G7.3: 200 -> 180 is 10 % (moderate); tiers are unrounded.
    #[test]
    fn tiers() {
        assert_eq!(tier(100.0 * (200.0f64 - 180.0).abs() / 200.0), "moderate");
        assert_eq!((tier(4.999), tier(5.0), tier(15.0), tier(15.0001)), ("good", "moderate", "moderate", "poor"));
    }

    #[test]
    fn compact_numbers_by_first_appearance() {
        let mut g = Grouping { o: vec![7, 3, 7, NONE], p: vec![5, 3], size: 8 };
        let (n, first) = compact(&mut g);
        assert_eq!((n, first), (3, vec![0, 1, NONE]));
        assert_eq!((g.o, g.p), (vec![0, 1, 0, NONE], vec![2, 1]));
    }
}
