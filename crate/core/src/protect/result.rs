//! The `protect` result (spec protect.md Sec 6, README Sec 10 shape): the best node as
//! `{qi: level}`, its figures and the names of its levels, the minimal feasible nodes, the
//! Pareto front, the lattice's counts, the ladders, the criteria; without a feasible node,
//! `value` null, the warning `no_feasible_node` and the closest node.

use serde_json::{Map, Value, json};

use super::node::Figures;
use super::search::Search;
use super::{ProtectParams, Protector};
use crate::metric::{Context, MetricResult, Scope, Status};

/// The context of the family's result.
pub fn context(qis: &[String], p: &ProtectParams) -> Context {
    Context {
        family: "protect",
        scope: Scope { table: "O", quasi_identifiers: qis.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({
            "missing_policy": p.missing_policy,
            "exclude_suppressed_rows": p.exclude_suppressed_rows,
            "risk_threshold": p.risk_threshold,
            "max_nodes": p.max_nodes,
        }),
    }
}

/// A node's levels as `{qi: level}`.
fn levels(qis: &[String], levels: &[usize]) -> Value {
    Value::Object(qis.iter().zip(levels).map(|(q, &l)| (q.clone(), json!(l))).collect::<Map<String, Value>>())
}

/// A node's figures with its levels.
fn node(qis: &[String], at: &[usize], f: &Figures) -> Value {
    let mut v = json!(f);
    v["levels"] = levels(qis, at);
    v
}

/// The result of a search.
pub fn result(p: &Protector, s: &Search) -> MetricResult {
    let params = &p.params;
    let ctx = context(&p.qis, params);
    let figures = |i: usize| s.nodes[i].expect("a node reported was evaluated");
    let list = |nodes: &[usize]| nodes.iter().map(|&i| node(&p.qis, &s.lattice.levels(i), &figures(i))).collect::<Vec<_>>();
    let ladders: Map<String, Value> = p
        .ladders
        .iter()
        .map(|l| (l.qi.clone(), json!({ "kind": l.kind, "height": l.height(), "labels_per_level": l.levels.iter().map(|v| v.distinct).collect::<Vec<_>>() })))
        .collect();
    let c = &params.criteria;
    let mut details = json!({
        "minimal": list(&s.minimal),
        "pareto": list(&s.pareto),
        "nodes_total": s.lattice.size(),
        "nodes_feasible": s.feasible.len(),
        "nodes_evaluated": s.evaluated,
        "ladders": ladders,
        "criteria": { "k": c.k, "l": c.l, "t": c.t, "t_distance": c.t_distance, "average_risk": c.average_risk, "sensitive": params.sensitive },
        "suppression_limit": params.suppression_limit,
        "suppressed": params.suppressed,
        "objective": params.objective,
        "records_in_scope": p.records(),
        "records_out_of_scope": p.rows() - p.records(),
        "best": Value::Null,
    });
    if p.records() == 0 {
        return ctx.without_value("protect", Status::EmptyInput, "no_records_in_scope").with_details(details);
    }
    match s.best {
        Some(b) => {
            let at = s.lattice.levels(b);
            let mut best = node(&p.qis, &at, &figures(b));
            best["labels"] = Value::Object(p.qis.iter().zip(&p.ladders).zip(&at).map(|((q, l), &j)| (q.clone(), json!(l.levels[j].name))).collect());
            details["best"] = best;
            ctx.ok("protect", levels(&p.qis, &at)).with_details(details)
        }
        None => {
            if let Some(c) = s.closest {
                details["closest"] = node(&p.qis, &s.lattice.levels(c), &figures(c));
            }
            let mut r = ctx.ok("protect", Value::Null).with_details(details).with_warning("no_feasible_node");
            r.value = Value::Null;
            r
        }
    }
}
