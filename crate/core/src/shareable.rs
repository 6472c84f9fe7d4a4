//! The report safe to share (issue 13, Deliver 2): the same report holding only aggregates of
//! at least a minimum count of records (the report's k, [`min_count_of`], default
//! [`DEFAULT_MIN_COUNT`]).
//!
//! Left out: a column's most frequent values counted fewer times, its lowest and highest
//! values (one record each, as far as the report knows), every class listed with fewer records
//! (the riskiest groups, the worst and failing classes of attribute disclosure), the SCORR
//! classes at a maximum (their sizes are not known), a sensitive value tied to a class fewer
//! times, a query cell over fewer records of either table, a category of a similarity
//! distribution held by fewer records of either table, per-record lists (every
//! `details.per_record`: record risk, SUDA's scores; the permutation model's vectors, the
//! pairing's example ids, SUDA's MSU counts and its highest-scoring records), k-map's and
//! delta-presence's keys of fewer released records, the HIPAA checklist's example values, the
//! released sensitive values the original lacks (`unseen_values`) of fewer records, the values
//! an ordinal order or a hierarchy lacks, and the hierarchies and ordinal orders of the
//! settings (they list every value). What was left out is counted in `shareable.removed`, by
//! what it was.
//!
//! A function of the report's JSON form, so that the CLI (`--shareable`), the binding and the
//! page's HTML report all filter one way.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::report::Report;

/// The warning code marking a full report that holds per-record values (`per_record`).
pub const RECORD_LEVEL: &str = "record_level_values";

/// The minimum count when the report names none (the usual k of k-anonymity).
pub const DEFAULT_MIN_COUNT: u64 = 5;

/// What the shareable report left out, by kind, and its minimum count (`report.shareable`).
#[derive(Debug, Default)]
struct Removed(BTreeMap<&'static str, u64>);

impl Removed {
    fn add(&mut self, what: &'static str, n: usize) {
        if n > 0 {
            *self.0.entry(what).or_default() += n as u64;
        }
    }
}

/// The report's k: the advice's suppression k (`params.advice.suppress_below`), else 5.
pub fn min_count_of(report: &Value) -> u64 {
    report["params"]["advice"]["suppress_below"].as_u64().filter(|&k| k >= 1).unwrap_or(DEFAULT_MIN_COUNT)
}

impl Report {
    /// [`shareable`] of this report's JSON form.
    pub fn shareable(&self, min_count: u64) -> Value {
        shareable(&serde_json::to_value(self).unwrap_or(Value::Null), min_count)
    }
}

/// The shareable variant of a report (its JSON form): only aggregates of at least `min_count`
/// records, with `shareable = {min_count, removed: {what: how many}}` added. A report whose
/// `removed` is empty held no record-level value.
pub fn shareable(report: &Value, min_count: u64) -> Value {
    let k = min_count.max(1);
    let mut out = report.clone();
    let mut removed = Removed::default();
    let rows = |key: &str| report[key]["rows_total"].as_u64();
    let (n_released, n_original) = (rows("input"), rows("original_input"));
    let shown = value_columns(report);
    if let Some(columns) = out["columns"].as_array_mut() {
        for c in columns {
            let valued = c["name"].as_str().is_some_and(|n| shown.contains(n));
            columns_entry(c, if valued { k } else { u64::MAX }, &mut removed);
        }
    }
    if let Some(metrics) = out["metrics"].as_array_mut() {
        for m in metrics {
            // A metric of a column whose values are not shown shows none of them either.
            let scope = &m["scope"];
            let named = scope["quasi_identifiers"].as_array().into_iter().flatten().chain([&scope["attribute"], &scope["sensitive"]]);
            let hidden = named.filter_map(Value::as_str).any(|c| !shown.contains(c));
            metric(m, if hidden { u64::MAX } else { k }, (n_original, n_released), &mut removed);
        }
    }
    if let Some(attributes) = out["params"]["attributes"].as_object_mut() {
        for settings in attributes.values_mut() {
            if settings.get("hierarchy").is_some_and(|h| !h.is_null()) {
                settings["hierarchy"] = Value::Null;
                removed.add("hierarchies", 1);
            }
            if settings.get("order").is_some_and(|o| !o.is_null()) {
                settings["order"] = Value::Null;
                removed.add("orders", 1);
            }
        }
    }
    // The full report's mark that it holds per-record values: they are gone.
    if let Some(warnings) = out["warnings"].as_array_mut() {
        warnings.retain(|w| w["code"] != RECORD_LEVEL);
    }
    out["shareable"] = json!({ "min_count": k, "removed": removed.0 });
    out
}

/// The columns whose values the shareable report may show (those of at least `k` records):
/// the ones the audit measured (quasi-identifiers, sensitive attributes and, with an original
/// table, the utility attributes and the columns its queries group by), unless ignored or
/// proposed as a direct identifier. A direct identifier, an ignored column or one no metric
/// read shows no value at all, however many records hold it.
fn value_columns(report: &Value) -> BTreeSet<String> {
    let p = &report["params"];
    let names = |v: &Value| -> Vec<String> { v.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect() };
    let ignored = names(&p["ignored"]);
    let special: Vec<&str> = ["record_id", "person_id", "weight"].iter().filter_map(|key| p[*key].as_str()).collect();
    let mut audited: BTreeSet<String> = names(&p["quasi_identifiers"]).into_iter().chain(names(&p["sensitive"])).collect();
    if !report["original_input"].is_null() {
        let utility = names(&p["utility_columns"]);
        audited.extend(
            report["columns"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str())
                .filter(|n| !special.contains(n) && (utility.is_empty() || utility.iter().any(|u| u == n)))
                .map(str::to_string),
        );
        for q in p["utility"]["queries"].as_array().into_iter().flatten() {
            audited.extend(names(&q["group_by"]));
        }
    }
    let direct: BTreeSet<&str> =
        report["columns"].as_array().into_iter().flatten().filter(|c| c["proposed_role"] == "direct_identifier").filter_map(|c| c["name"].as_str()).collect();
    audited.retain(|c| !ignored.contains(c) && !direct.contains(c.as_str()));
    audited
}

/// A column's profile: its frequent values of at least `k` records (none with `u64::MAX`),
/// no extremes.
fn columns_entry(c: &mut Value, k: u64, removed: &mut Removed) {
    if let Some(top) = c["top"].as_array_mut() {
        let before = top.len();
        top.retain(|e| e[1].as_u64().is_some_and(|n| n >= k));
        removed.add("column_values", before - top.len());
    }
    for key in ["min", "max"] {
        if c.get(key).is_some_and(|v| !v.is_null()) {
            c[key] = Value::Null;
            removed.add("column_extremes", 1);
        }
    }
}

/// Keeps the entries of `list` for which `keep` holds; counts the others under `what`.
fn retain(list: &mut Value, what: &'static str, removed: &mut Removed, keep: impl Fn(&Value) -> bool) {
    if let Some(items) = list.as_array_mut() {
        let before = items.len();
        items.retain(|e| keep(e));
        removed.add(what, before - items.len());
    }
}

/// Removes `details[key]` when present and not null, counting it under `what`.
fn drop_key(details: &mut Value, key: &str, what: &'static str, removed: &mut Removed) {
    if let Some(map) = details.as_object_mut()
        && let Some(v) = map.remove(key)
    {
        removed.add(what, usize::from(!v.is_null()));
    }
}

fn metric(m: &mut Value, k: u64, (n_o, n_p): (Option<u64>, Option<u64>), removed: &mut Removed) {
    let id = m["id"].as_str().unwrap_or("").to_string();
    let attack = m["family"] == "attack";
    let details = &mut m["details"];
    if !details.is_object() {
        return;
    }
    // Identity: the riskiest classes (record_risk.details.top).
    if let Some(top) = details.get_mut("top") {
        retain(top, "classes", removed, |e| e["size"].as_u64().is_some_and(|n| n >= k));
    }
    // Attribute disclosure: the worst class, and the sensitive values tied to it.
    if details.get("worst_class").is_some() {
        let size = details["worst_class_size"].as_u64().unwrap_or(0);
        if size < k {
            drop_key(details, "worst_class", "classes", removed);
            drop_key(details, "worst_class_size", "class_sizes", &mut Removed::default());
            if let Some(rows) = details.get("worst_distribution").and_then(Value::as_array) {
                removed.add("sensitive_values", rows.len());
                details["worst_distribution"] = json!([]);
            }
        } else if let Some(rows) = details.get_mut("worst_distribution") {
            // [value, share in the class, share in the file]: the value's records in the class.
            retain(rows, "sensitive_values", removed, |r| r[1].as_f64().is_some_and(|p| (p * size as f64).round() >= k as f64));
        }
    }
    // t_reference = original: the released values the original lacks, with their records.
    if let Some(unseen) = details.get_mut("unseen_values") {
        retain(unseen, "sensitive_values", removed, |e| e[1].as_u64().is_some_and(|n| n >= k));
    }
    // The values an ordinal order or a hierarchy lacks (any of them may be one record's).
    match m["reason"].as_str() {
        Some("ordinal_label_unknown") => drop_key(&mut m["details"], "labels", "sensitive_values", removed),
        Some("hierarchy_incomplete") => drop_key(&mut m["details"], "missing", "sensitive_values", removed),
        _ => {}
    }
    let details = &mut m["details"];
    // The classes past the l, t or beta threshold, with their records.
    if let Some(failing) = details.get_mut("failing")
        && failing.get("listed").is_some()
    {
        let sizes: Vec<u64> = failing["listed_records"].as_array().map(|a| a.iter().map(|n| n.as_u64().unwrap_or(0)).collect()).unwrap_or_default();
        let listed = failing["listed"].as_array().cloned().unwrap_or_default();
        let kept: Vec<usize> = (0..listed.len()).filter(|&i| sizes.get(i).is_some_and(|&n| n >= k)).collect();
        removed.add("classes", listed.len() - kept.len());
        failing["listed"] = Value::Array(kept.iter().map(|&i| listed[i].clone()).collect());
        failing["listed_records"] = Value::Array(kept.iter().map(|&i| json!(sizes[i])).collect());
    }
    // The attacks' singling-out queries: each picks out one record by its values.
    if attack {
        drop_key(details, "queries", "attack_queries", removed);
    }
    // SCORR: the QI values of classes at a maximum, whose sizes the report does not give.
    if id.starts_with("scorr_") {
        for key in ["argmax", "argmax_values"] {
            if let Some(argmax) = details.get_mut(key) {
                retain(argmax, "classes", removed, |_| false);
            }
        }
    }
    // Query accuracy: cells over at least k records of the original and none or at least k of
    // the release.
    if let Some(cells) = details.get_mut("cells")
        && cells.is_array()
    {
        retain(cells, "query_cells", removed, |c| {
            let o = c["rows"][0].as_u64().unwrap_or(0);
            let p = c["rows"][1].as_u64().unwrap_or(0);
            o >= k && (p == 0 || p >= k)
        });
    }
    // Similarity of distributions: categories (and bins of numbers or dates, which may hold
    // one value each) of at least k records in each table; the shares per bin go.
    if details.get("n_original").is_some() {
        let (n_o, n_p) = (details["n_original"].as_u64().or(n_o), details["n_released"].as_u64().or(n_p));
        let rare = |share: Option<f64>, n: Option<u64>| -> bool {
            let count = share.unwrap_or(0.0) * n.unwrap_or(0) as f64;
            count > 0.0 && (n.is_none() || count.round() < k as f64)
        };
        let (mut gone, mut empty_bins): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        for (key, n) in [("p", n_o), ("q", n_p)] {
            if let Some(map) = details.get(key).and_then(Value::as_object) {
                gone.extend(map.iter().filter(|(_, s)| rare(s.as_f64(), n)).map(|(v, _)| v.clone()));
            }
        }
        let d = &details["distribution"];
        if let (Some(labels), Some(po), Some(pr)) = (d["labels"].as_array(), d["original"].as_array(), d["released"].as_array()) {
            for (i, label) in labels.iter().enumerate() {
                let name = label.as_str().unwrap_or("");
                // The slots the chart adds after the values: no value of the data.
                let special = matches!(name, "other" | "blank" | "unmatched");
                let (x, y) = (po.get(i).and_then(Value::as_f64), pr.get(i).and_then(Value::as_f64));
                // An empty bin is left out too: its label is a value of the grid, and may be one
                // of the data held elsewhere by fewer records.
                let empty = x.unwrap_or(0.0) == 0.0 && y.unwrap_or(0.0) == 0.0;
                if !special && empty {
                    empty_bins.push(name.to_string());
                } else if !special && (rare(x, n_o) || rare(y, n_p)) {
                    gone.push(name.to_string());
                }
            }
        }
        gone.sort();
        gone.dedup();
        removed.add("distribution_values", gone.len());
        gone.extend(empty_bins);
        for key in ["p", "q"] {
            if let Some(map) = details.get_mut(key).and_then(Value::as_object_mut) {
                map.retain(|v, _| !gone.contains(v));
            } else if details.get(key).is_some_and(Value::is_array) {
                drop_key(details, key, "distribution_values", removed);
            }
        }
        let d = &mut details["distribution"];
        if let Some(labels) = d["labels"].as_array().cloned() {
            let keep: Vec<bool> = labels.iter().map(|l| !gone.iter().any(|g| Some(g.as_str()) == l.as_str())).collect();
            for key in ["labels", "original", "released"] {
                if let Some(a) = d[key].as_array_mut() {
                    let mut i = 0;
                    a.retain(|_| {
                        i += 1;
                        keep.get(i - 1).copied().unwrap_or(true)
                    });
                }
            }
        }
    }
    // k-map's lowest keys and delta-presence's keys: those of at least k released records
    // (a population key without released record, when it holds at least k people).
    if id == "k_map"
        && let Some(lowest) = details.get_mut("lowest")
    {
        retain(lowest, "classes", removed, |e| e["f"].as_u64().is_some_and(|n| n >= k));
    }
    if id == "delta_presence"
        && let Some(per) = details.get_mut("per_class")
    {
        retain(per, "classes", removed, |e| {
            let f = e["f"].as_u64().unwrap_or(0);
            f >= k || (f == 0 && e["F"].as_u64().is_some_and(|n| n >= k))
        });
    }
    // The HIPAA checklist's example values (one cell each).
    if id == "hipaa_safe_harbor" {
        drop_everywhere(details, "example_value", "example_values", removed);
    }
    // Per-record lists: the permutation model's vectors and the pairing's example ids.
    if id == "perm_reverse_mapping" {
        for key in ["z", "pi", "e", "d"] {
            drop_key(details, key, "per_record_lists", removed);
        }
    }
    // Per-record vectors of any metric (spec README Sec 10: record risk, SUDA's scores) and
    // SUDA's MSU counts per record (its highest-scoring records, one record each, went with
    // `top` above).
    for key in ["per_record", "msu_counts"] {
        drop_key(details, key, "per_record_lists", removed);
    }
    drop_everywhere(details, "examples", "per_record_lists", removed);
}

/// Removes `key` from every object within `v` (the pairing's example ids, wherever a metric
/// carries the pairing's details).
fn drop_everywhere(v: &mut Value, key: &str, what: &'static str, removed: &mut Removed) {
    match v {
        Value::Object(map) => {
            if let Some(x) = map.remove(key) {
                removed.add(what, usize::from(!x.is_null()));
            }
            map.values_mut().for_each(|x| drop_everywhere(x, key, what, removed));
        }
        Value::Array(items) => items.iter_mut().for_each(|x| drop_everywhere(x, key, what, removed)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts no generated table of the integration tests reaches: per-record lists, the
    /// pairing's examples, SCORR's classes at a maximum, hierarchies, extremes.
    /// The attribute options' values (issue 15): released values `O` lacks, of fewer records;
    /// the values an ordinal order or a hierarchy lacks; the declared orders.
    #[test]
    fn unseen_unknown_and_orders_go() {
        let report = json!({
            "params": { "advice": null, "attributes": { "grade": { "kind": "ordinal", "order": ["lo", "hi"], "hierarchy": null } } },
            "metrics": [
                { "id": "delta_disclosure", "details": { "log_base": "e", "unseen_values": [["rare", 1], ["common", 9]] } },
                { "id": "t_closeness", "reason": "ordinal_label_unknown", "details": { "labels": ["mid"], "count": 1 } },
                { "id": "t_closeness_hierarchical", "reason": "hierarchy_incomplete", "details": { "missing": ["x"], "count": 1 } },
                { "id": "l_distinct", "details": { "labels": ["kept: not an unknown label"] } }
            ]
        });
        let safe = shareable(&report, 5);
        assert_eq!(safe["metrics"][0]["details"]["unseen_values"], json!([["common", 9]]));
        assert_eq!(safe["metrics"][1]["details"], json!({ "count": 1 }));
        assert_eq!(safe["metrics"][2]["details"], json!({ "count": 1 }));
        assert_eq!(safe["metrics"][3], report["metrics"][3]);
        assert_eq!(safe["params"]["attributes"]["grade"]["order"], Value::Null);
        assert_eq!(safe["shareable"]["removed"], json!({ "orders": 1, "sensitive_values": 3 }));
    }

    /// Issue 36: only the audited columns show values (of at least k records); a direct
    /// identifier, an ignored column or one no metric reads shows none, and neither does a
    /// metric of such a column.
    #[test]
    fn only_audited_columns_show_values() {
        let column = |name: &str, role: &str| json!({ "name": name, "proposed_role": role, "top": [["frequent", 50]] });
        let mut report = json!({
            "original_input": null,
            "params": { "quasi_identifiers": ["age", "name"], "sensitive": ["diag"], "ignored": ["note"], "record_id": "rid",
                        "utility_columns": [], "utility": { "queries": [{ "group_by": ["ward"] }] } },
            "columns": [column("age", "quasi_identifier"), column("name", "direct_identifier"), column("diag", "sensitive"),
                        column("note", "insensitive"), column("remarks", "insensitive"), column("rid", "direct_identifier"),
                        column("ward", "insensitive")],
            "metrics": [
                { "id": "record_risk", "scope": { "quasi_identifiers": ["age", "name"] }, "details": { "top": [{ "size": 50 }] } },
                { "id": "jsd", "scope": { "attribute": "remarks" }, "details": { "cells": [{ "rows": [50, 50] }] } },
                { "id": "jsd", "scope": { "attribute": "ward" }, "details": { "cells": [{ "rows": [50, 50] }] } }
            ]
        });
        let tops = |safe: &Value| -> Vec<usize> { safe["columns"].as_array().unwrap().iter().map(|c| c["top"].as_array().unwrap().len()).collect() };
        let safe = shareable(&report, 5);
        assert_eq!(tops(&safe), [1, 0, 1, 0, 0, 0, 0]);
        assert_eq!(safe["metrics"][0]["details"]["top"], json!([]), "a class holding a direct identifier's value");
        assert_eq!(safe["shareable"]["removed"], json!({ "classes": 1, "column_values": 5, "query_cells": 2 }));
        // With an original table: the utility attributes and the queries' columns are audited.
        report["original_input"] = json!({ "rows_total": 100 });
        let safe = shareable(&report, 5);
        assert_eq!(tops(&safe), [1, 0, 1, 0, 1, 0, 1]);
        assert_eq!((&safe["metrics"][1], &safe["metrics"][2]), (&report["metrics"][1], &report["metrics"][2]));
        report["params"]["utility_columns"] = json!(["age"]);
        assert_eq!(tops(&shareable(&report, 5)), [1, 0, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn per_record_lists_examples_and_hierarchies_go() {
        let report = json!({
            "input": { "rows_total": 40 },
            "warnings": [{ "code": "record_level_values", "message": "" }, { "code": "other", "message": "" }],
            "columns": [{ "name": "age", "min": "17", "max": "90", "top": [["30", 12], ["90", 1]] }],
            "params": { "advice": null, "quasi_identifiers": ["age"], "attributes": { "diag": { "hierarchy": [["Flu", "Respiratory"]], "kind": null } } },
            "metrics": [
                { "id": "perm_reverse_mapping", "details": { "n": 40, "z": [1.0], "pi": [1], "e": [0.0], "d": [0] } },
                { "id": "cell_transitions", "details": { "alignment": "none", "examples": ["P7", "P9"], "nested": { "examples": ["P1"] } } },
                { "id": "scorr_uniqueness_risk", "details": { "argmax": [{ "age": "90" }] } },
                { "id": "scorr_uniformity_risk_attr", "details": { "argmax_values": ["90"] } },
                { "id": "rut_alpha_sweep", "details": { "argmax": "lvl1.csv" } },
                { "id": "k_anonymity", "value": 1, "details": {} },
                { "id": "record_risk", "details": { "top": [], "per_record": { "1": 0.5, "2": 0.5 } } }
            ]
        });
        let safe = shareable(&report, 5);
        assert_eq!(safe["columns"][0], json!({ "name": "age", "min": null, "max": null, "top": [["30", 12]] }));
        assert_eq!(safe["metrics"][0]["details"], json!({ "n": 40 }));
        assert_eq!(safe["metrics"][1]["details"], json!({ "alignment": "none", "nested": {} }));
        assert_eq!(safe["metrics"][2]["details"]["argmax"], json!([]));
        assert_eq!(safe["metrics"][3]["details"]["argmax_values"], json!([]));
        assert_eq!(safe["metrics"][4]["details"]["argmax"], "lvl1.csv", "a candidate's name is no value of the data");
        assert_eq!(safe["metrics"][5], report["metrics"][5]);
        assert_eq!(safe["metrics"][6]["details"], json!({ "top": [] }));
        assert_eq!(safe["warnings"], json!([{ "code": "other", "message": "" }]));
        assert_eq!(safe["params"]["attributes"]["diag"]["hierarchy"], Value::Null);
        assert_eq!(
            safe["shareable"],
            json!({ "min_count": 5, "removed": { "classes": 2, "column_extremes": 2, "column_values": 1, "hierarchies": 1, "per_record_lists": 7 } })
        );
    }
}
