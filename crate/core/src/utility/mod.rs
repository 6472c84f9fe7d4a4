//! Utility and information loss (spec utility.md): how much of the original table `O` a
//! release `P` preserves.
//!
//! - Sec 11 (permutation model \[PERM\]: reverse mapping, canonical correlations, CM1-CM3, UM):
//!   [`permutation`]; the columns it ranks are read by [`capture`] and paired here
//!   (README Sec 8).

pub mod capture;
pub mod permutation;

use serde_json::json;

use crate::hash::{Map, map};
use crate::metric::{Context, MetricResult, Scope, Status};
use capture::Captured;

/// How the rows of `O` and `P` were paired (spec README Sec 8).
enum Alignment {
    /// `P`'s row `i` pairs with `O`'s row `order[i]`; `removed` rows of `O` have no partner.
    ById { order: Vec<usize>, removed: usize },
    /// Row `i` with row `i`.
    ByRow,
    /// Not pairable: paired metrics are errors with this reason.
    None(&'static str),
}

fn align(o: &Captured, p: &Captured) -> Alignment {
    match (&o.ids, &p.ids) {
        (Some(oi), Some(pi)) => {
            if oi.iter().chain(pi).any(Option::is_none) {
                return Alignment::None("record_id_missing");
            }
            let mut at: Map<&str, usize> = map();
            for (i, id) in oi.iter().flatten().enumerate() {
                if at.insert(id.as_str(), i).is_some() {
                    return Alignment::None("record_id_not_unique");
                }
            }
            let mut seen: Map<&str, ()> = map();
            let mut order = Vec::with_capacity(pi.len());
            for id in pi.iter().flatten() {
                if seen.insert(id.as_str(), ()).is_some() {
                    return Alignment::None("record_id_not_unique");
                }
                match at.get(id.as_str()) {
                    Some(&i) => order.push(i),
                    None => return Alignment::None("record_id_unknown_in_released"),
                }
            }
            Alignment::ById { removed: oi.len() - order.len(), order }
        }
        _ if o.rows() == p.rows() => Alignment::ByRow,
        _ => Alignment::None("row_count_mismatch"),
    }
}

/// The permutation-model results of `P` against `O` over their common numeric columns.
pub fn finish(o: &Captured, p: &Captured, qi: &[String]) -> Vec<MetricResult> {
    let ctx = Context {
        family: "permutation",
        scope: Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({ "ties": "average_ranks" }),
    };
    let (mut names, mut skipped) = (Vec::new(), Vec::new());
    for (c, name) in o.names.iter().enumerate() {
        match p.column(name) {
            Some(pc) if !o.text[c] && !p.text[pc] => names.push(name.clone()),
            _ => skipped.push(name.clone()),
        }
    }
    // rep(t): the midpoint of the cell's interval, an infinite side replaced by O's domain.
    let column = |t: &Captured, name: &str, lo: f64, hi: f64| -> Vec<f64> {
        let c = t.column(name).expect("common column");
        t.cells[c].iter().map(|&(a, b)| (a.max(lo).min(hi) + b.min(hi).max(lo)) / 2.0).collect()
    };
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for name in &names {
        let c = o.column(name).expect("own column");
        let finite = o.cells[c].iter().flat_map(|&(a, b)| [a, b]).filter(|v| v.is_finite());
        let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
        xs.push(column(o, name, lo, hi));
        ys.push(column(p, name, lo, hi));
    }
    let alignment = align(o, p);
    let (aligned, details) = match &alignment {
        Alignment::ById { order, removed } => {
            xs = xs.iter().map(|x| order.iter().map(|&i| x[i]).collect()).collect();
            (true, json!({ "alignment": "record_id", "records_removed": removed }))
        }
        Alignment::ByRow => (true, json!({ "alignment": "row_order" })),
        Alignment::None(_) => (false, json!({ "alignment": "none" })),
    };
    let mut out = permutation::metrics(&ctx, &xs, &ys, &names, aligned);
    for m in &mut out {
        if let Alignment::None(reason) = alignment
            && m.status == Status::Error
        {
            m.reason = Some(reason);
        }
        if let (Some(d), Some(extra)) = (m.details.as_object_mut(), details.as_object()) {
            d.extend(extra.clone());
            if !skipped.is_empty() {
                d.insert("non_numeric_columns_skipped".into(), json!(skipped));
            }
        }
    }
    out
}
