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
//! `details.per_record`: record risk, SUDA's scores; the household risk's `per_household`,
//! which names households by their ids; the permutation model's vectors, the
//! pairing's example ids, SUDA's MSU counts and its highest-scoring records), k-map's and
//! delta-presence's keys of fewer released records, the HIPAA checklist's example values, the
//! synthetic measures' apparent matches and k-marginal groups of fewer records, the
//! released sensitive values the original lacks (`unseen_values`) of fewer records, the values
//! an ordinal order or a hierarchy lacks, and the hierarchies and ordinal orders of the
//! settings (they list every value). What was left out is counted in `shareable.removed`, by
//! what it was.
//!
//! A function of the typed report, so that the CLI (`--shareable`), the binding and the page's
//! HTML report all filter one way: it reads the report's typed fields (its k, its input's
//! rows, the columns' profiles, each metric's id, family, scope and reason) and edits the
//! parts of a metric that are JSON already (its `details`). The page's worker makes the
//! variant from the report it holds, in the engine, without the report crossing back
//! (issue 37).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Serialize, Serializer};
use serde_json::{Value, json};

use crate::metric::MetricResult;
use crate::report::Report;
use crate::table::profile::ColumnProfile;
use crate::table::roles::Role;

/// The warning code marking a full report that holds per-record values (`per_record`).
pub const RECORD_LEVEL: &str = "record_level_values";

/// The minimum count when the report names none (the usual k of k-anonymity).
pub const DEFAULT_MIN_COUNT: u64 = 5;

/// What the shareable report left out, by kind (`report.shareable.removed`).
#[derive(Debug, Default)]
struct Removed(BTreeMap<&'static str, u64>);

impl Removed {
    fn add(&mut self, what: &'static str, n: usize) {
        if n > 0 {
            *self.0.entry(what).or_default() += n as u64;
        }
    }
}

/// The shareable variant's own entry (`shareable` of its JSON form): its minimum count and
/// what it left out, by kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareableInfo {
    /// The minimum count of records of every aggregate it kept.
    pub min_count: u64,
    /// What it left out, by kind, with how many; empty: the report held no record-level value.
    pub removed: BTreeMap<&'static str, u64>,
}

/// The shareable variant of a report ([`shareable`]): the report with what it may show, and
/// its [`ShareableInfo`].
///
/// Its JSON form is the report's with `shareable` added, every object's keys in alphabetical
/// order: the form the variant has had since issue 13, when it was made of the report's JSON
/// (a `serde_json::Value`, whose objects are sorted maps); the report corpus test pins it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareableReport {
    /// The report, less what a shareable report does not show.
    pub report: Report,
    /// Its minimum count and what was left out.
    pub shareable: ShareableInfo,
}

impl Serialize for ShareableReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serde_json::to_value(&self.report).map_err(serde::ser::Error::custom)?;
        out["shareable"] = serde_json::to_value(&self.shareable).map_err(serde::ser::Error::custom)?;
        out.serialize(serializer)
    }
}

/// The report's k: the advice's suppression k (`params.advice.suppress_below`), else 5.
pub fn min_count_of(report: &Report) -> u64 {
    report.params.advice.map(|a| a.suppress_below).filter(|&k| k >= 1).unwrap_or(DEFAULT_MIN_COUNT)
}

/// The shareable variant of a report: only aggregates of at least `min_count` records, with
/// `shareable = {min_count, removed: {what: how many}}`. A report whose `removed` is empty held
/// no record-level value.
pub fn shareable(report: &Report, min_count: u64) -> ShareableReport {
    let k = min_count.max(1);
    let mut out = report.clone();
    let mut removed = Removed::default();
    let n_released = Some(report.input.rows_total);
    let n_original = report.original_input.as_ref().map(|f| f.rows_total);
    let shown = value_columns(report);
    for c in &mut out.columns {
        let valued = shown.contains(c.name.as_str());
        columns_entry(c, if valued { k } else { u64::MAX }, &mut removed);
    }
    for m in &mut out.metrics {
        // A metric of a column whose values are not shown shows none of them either.
        let scope = &m.scope;
        let mut named = scope.quasi_identifiers.iter().chain(&scope.attribute).chain(&scope.sensitive);
        let hidden = named.any(|c| !shown.contains(c.as_str()));
        metric(m, if hidden { u64::MAX } else { k }, (n_original, n_released), &mut removed);
    }
    for settings in out.params.attributes.values_mut() {
        if settings.hierarchy.take().is_some() {
            removed.add("hierarchies", 1);
        }
        if settings.order.take().is_some() {
            removed.add("orders", 1);
        }
    }
    // The full report's mark that it holds per-record values: they are gone.
    out.warnings.retain(|w| w.code != RECORD_LEVEL);
    ShareableReport { report: out, shareable: ShareableInfo { min_count: k, removed: removed.0 } }
}

/// The columns whose values the shareable report may show (those of at least `k` records):
/// the ones the audit measured (quasi-identifiers, sensitive attributes and, with an original
/// table, the utility attributes), unless ignored or proposed as a direct identifier. A direct
/// identifier, an ignored column or one no metric read shows no value at all, however many
/// records hold it.
///
/// The columns the utility queries group by are not added: the JSON form this read before
/// issue 37 looked for them at `params.utility.queries`, which no report has (the utility
/// settings are flattened into `params`), so none ever was; adding them would show more
/// values, a change of the public report left to a decision of its own.
fn value_columns(report: &Report) -> BTreeSet<&str> {
    let p = &report.params;
    let special: Vec<&str> = [&p.record_id, &p.person_id, &p.weight, &p.household_column].into_iter().filter_map(Option::as_deref).collect();
    let mut audited: BTreeSet<&str> = p.quasi_identifiers.iter().chain(&p.sensitive).map(String::as_str).collect();
    if report.original_input.is_some() {
        let utility = &p.utility_columns;
        audited
            .extend(report.columns.iter().map(|c| c.name.as_str()).filter(|n| !special.contains(n) && (utility.is_empty() || utility.iter().any(|u| u == n))));
    }
    let direct: BTreeSet<&str> = report.columns.iter().filter(|c| c.proposed_role == Role::DirectIdentifier).map(|c| c.name.as_str()).collect();
    audited.retain(|c| !p.ignored.iter().any(|i| i == c) && !direct.contains(c));
    audited
}

/// A column's profile: its frequent values of at least `k` records (none with `u64::MAX`),
/// no extremes.
fn columns_entry(c: &mut ColumnProfile, k: u64, removed: &mut Removed) {
    let before = c.top.len();
    c.top.retain(|(_, n)| *n >= k);
    removed.add("column_values", before - c.top.len());
    for extreme in [&mut c.min, &mut c.max] {
        if extreme.take().is_some() {
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

/// A metric's details: what they show of fewer than `k` records goes (`n_o`, `n_p`: the rows
/// of the original and of the released table).
fn metric(m: &mut MetricResult, k: u64, (n_o, n_p): (Option<u64>, Option<u64>), removed: &mut Removed) {
    let id = m.id;
    let attack = m.family == "attack";
    let details = &mut m.details;
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
    match m.reason {
        Some("ordinal_label_unknown") => drop_key(details, "labels", "sensitive_values", removed),
        Some("hierarchy_incomplete") => drop_key(details, "missing", "sensitive_values", removed),
        _ => {}
    }
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
    // The apparent matches: each is a record alone in both tables with its QI values; the
    // k-marginal's groups of fewer records.
    if m.family == "synthetic" {
        drop_key(details, "records", "apparent_matches", removed);
        // The PCA's scatter: each point is one record's coordinates. The regression's density
        // matrices: a cell's share of an x value's rows may stand for fewer than k records.
        drop_key(details, "scatter", "pca_points", removed);
        drop_key(details, "density", "regression_density", removed);
        // The regression's subgroups (values of the table): those of at least k records of
        // the original and none or at least k of the release.
        if let Some(subgroups) = details.get_mut("subgroups") {
            retain(subgroups, "regression_subgroups", removed, |g| {
                g["rows_original"].as_u64().is_some_and(|n| n >= k) && g["rows_released"].as_u64().is_some_and(|n| n == 0 || n >= k)
            });
        }
        if let Some(groups) = details.get_mut("groups") {
            retain(groups, "k_marginal_groups", removed, |g| g["rows"].as_u64().is_some_and(|n| n >= k));
        }
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
    // Per-record vectors of any metric (spec README Sec 10: record risk, SUDA's scores),
    // each household's risk and SUDA's MSU counts per record (its highest-scoring records, one record each, went with
    // `top` above).
    // The household risk's list of households names each by its id, an identifier.
    for key in ["per_record", "msu_counts", "per_household"] {
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
    use crate::config::AuditConfig;
    use crate::figures::Figures;
    use crate::ingest::reader::InputFacts;
    use crate::metric::{Scope, Status};
    use crate::report::{ReadPath, Warning};
    use crate::table::kind::Kind;
    use crate::table::profile::Forms;
    use crate::utility::attribute::AttributeSettings;

    fn report(params: AuditConfig, columns: Vec<ColumnProfile>, metrics: Vec<MetricResult>) -> Report {
        Report {
            input: InputFacts::default(),
            original_input: None,
            reference_input: None,
            columns,
            params,
            metrics,
            warnings: Vec::new(),
            read: ReadPath::streaming(""),
            per_record: None,
            figures: Figures::default(),
        }
    }

    fn column(name: &str, role: Role, top: &[(&str, u64)]) -> ColumnProfile {
        ColumnProfile {
            name: name.into(),
            index: 0,
            kind: Kind::Categorical,
            forms: Forms::default(),
            shape: String::new(),
            distinct: top.len() as u64,
            distinct_exact: true,
            min: None,
            max: None,
            top: top.iter().map(|(v, n)| (v.to_string(), *n)).collect(),
            proposed_role: role,
            role_reason: String::new(),
            date_form: None,
            decimal_comma: false,
            ambiguous_date_forms: Vec::new(),
            mixed_decimals: false,
        }
    }

    /// A metric over `scope`'s columns: the quasi-identifiers, then an attribute.
    fn metric(id: &'static str, qis: &[&str], attribute: Option<&str>, details: Value) -> MetricResult {
        MetricResult {
            id,
            family: "test",
            scope: Scope {
                table: "P",
                quasi_identifiers: qis.iter().map(|q| q.to_string()).collect(),
                sensitive: None,
                attribute: attribute.map(str::to_string),
                subset: None,
            },
            value: Value::Null,
            status: Status::Ok,
            reason: None,
            params: Value::Null,
            details,
            warnings: Vec::new(),
        }
    }

    fn names(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    fn json_of(r: &ShareableReport) -> Value {
        serde_json::to_value(r).unwrap()
    }

    /// The attribute options' values (issue 15): released values `O` lacks, of fewer records;
    /// the values an ordinal order or a hierarchy lacks; the declared orders.
    #[test]
    fn unseen_unknown_and_orders_go() {
        let mut params = AuditConfig::default();
        let grade = AttributeSettings { kind: Some(Kind::Ordinal), order: Some(names(&["lo", "hi"])), ..AttributeSettings::default() };
        params.attributes.insert("grade".into(), grade);
        let unknown = |id, reason, details| MetricResult { reason: Some(reason), ..metric(id, &[], None, details) };
        let full = report(
            params,
            Vec::new(),
            vec![
                metric("delta_disclosure", &[], None, json!({ "log_base": "e", "unseen_values": [["rare", 1], ["common", 9]] })),
                unknown("t_closeness", "ordinal_label_unknown", json!({ "labels": ["mid"], "count": 1 })),
                unknown("t_closeness_hierarchical", "hierarchy_incomplete", json!({ "missing": ["x"], "count": 1 })),
                metric("l_distinct", &[], None, json!({ "labels": ["kept: not an unknown label"] })),
            ],
        );
        let safe = shareable(&full, 5);
        let details = |i: usize| &safe.report.metrics[i].details;
        assert_eq!(details(0)["unseen_values"], json!([["common", 9]]));
        assert_eq!(details(1), &json!({ "count": 1 }));
        assert_eq!(details(2), &json!({ "count": 1 }));
        assert_eq!(safe.report.metrics[3], full.metrics[3]);
        assert_eq!(safe.report.params.attributes["grade"].order, None);
        assert_eq!(json_of(&safe)["shareable"]["removed"], json!({ "orders": 1, "sensitive_values": 3 }));
    }

    /// Issue 36: only the audited columns show values (of at least k records); a direct
    /// identifier, an ignored column or one no metric reads shows none, and neither does a
    /// metric of such a column.
    #[test]
    fn only_audited_columns_show_values() {
        let frequent = [("frequent", 50)];
        let mut params = AuditConfig { quasi_identifiers: names(&["age", "name"]), sensitive: names(&["diag"]), ..AuditConfig::default() };
        params.ignored = names(&["note"]);
        params.record_id = Some("rid".into());
        params.household_column = Some("hh".into());
        let columns = [
            ("age", Role::QuasiIdentifier),
            ("name", Role::DirectIdentifier),
            ("diag", Role::Sensitive),
            ("note", Role::Insensitive),
            ("remarks", Role::Insensitive),
            ("rid", Role::DirectIdentifier),
            ("ward", Role::Insensitive),
            ("hh", Role::Insensitive),
        ];
        let cells = json!({ "cells": [{ "rows": [50, 50] }] });
        let mut full = report(
            params,
            columns.iter().map(|(n, r)| column(n, *r, &frequent)).collect(),
            vec![
                metric("record_risk", &["age", "name"], None, json!({ "top": [{ "size": 50 }] })),
                metric("jsd", &[], Some("remarks"), cells.clone()),
                metric("jsd", &[], Some("ward"), cells),
            ],
        );
        let tops = |safe: &ShareableReport| -> Vec<usize> { safe.report.columns.iter().map(|c| c.top.len()).collect() };
        let safe = shareable(&full, 5);
        assert_eq!(tops(&safe), [1, 0, 1, 0, 0, 0, 0, 0]);
        assert_eq!(safe.report.metrics[0].details["top"], json!([]), "a class holding a direct identifier's value");
        assert_eq!(json_of(&safe)["shareable"]["removed"], json!({ "classes": 1, "column_values": 6, "query_cells": 2 }));
        // With an original table: the utility attributes are audited.
        full.original_input = Some(InputFacts { rows_total: 100, ..InputFacts::default() });
        let safe = shareable(&full, 5);
        // The household column is no utility attribute: its values stay hidden.
        assert_eq!(tops(&safe), [1, 0, 1, 0, 1, 0, 1, 0]);
        assert_eq!(safe.report.metrics[1..], full.metrics[1..]);
        full.params.utility_columns = names(&["age", "ward"]);
        assert_eq!(tops(&shareable(&full, 5)), [1, 0, 1, 0, 0, 0, 1, 0]);
    }

    /// The parts no generated table of the integration tests reaches: per-record lists, the
    /// pairing's examples, SCORR's classes at a maximum, hierarchies, extremes.
    #[test]
    fn per_record_lists_examples_and_hierarchies_go() {
        let mut params = AuditConfig { quasi_identifiers: names(&["age"]), ..AuditConfig::default() };
        let diag = AttributeSettings { hierarchy: Some(vec![names(&["Flu", "Respiratory"])]), ..AttributeSettings::default() };
        params.attributes.insert("diag".into(), diag);
        let age = ColumnProfile { min: Some("17".into()), max: Some("90".into()), ..column("age", Role::QuasiIdentifier, &[("30", 12), ("90", 1)]) };
        let mut full = report(
            params,
            vec![age],
            vec![
                metric("perm_reverse_mapping", &[], None, json!({ "n": 40, "z": [1.0], "pi": [1], "e": [0.0], "d": [0] })),
                metric("cell_transitions", &[], None, json!({ "alignment": "none", "examples": ["P7", "P9"], "nested": { "examples": ["P1"] } })),
                metric("scorr_uniqueness_risk", &[], None, json!({ "argmax": [{ "age": "90" }] })),
                metric("scorr_uniformity_risk_attr", &[], None, json!({ "argmax_values": ["90"] })),
                metric("rut_alpha_sweep", &[], None, json!({ "argmax": "lvl1.csv" })),
                MetricResult { value: json!(1), ..metric("k_anonymity", &["age"], None, json!({})) },
                metric("record_risk", &["age"], None, json!({ "top": [], "per_record": { "1": 0.5, "2": 0.5 } })),
                metric("household_risk_er", &["age"], None, json!({ "households": 1, "per_household": [{ "id": "H1", "size": 2, "h": 0.75 }] })),
            ],
        );
        full.input.rows_total = 40;
        let other = Warning { code: "other", message: String::new() };
        full.warnings = vec![Warning { code: RECORD_LEVEL, message: String::new() }, other.clone()];
        let safe = shareable(&full, 5);
        let age = &safe.report.columns[0];
        assert_eq!((&age.min, &age.max, &age.top), (&None, &None, &vec![("30".to_string(), 12)]));
        let details = |i: usize| &safe.report.metrics[i].details;
        assert_eq!(details(0), &json!({ "n": 40 }));
        assert_eq!(details(1), &json!({ "alignment": "none", "nested": {} }));
        assert_eq!(details(2)["argmax"], json!([]));
        assert_eq!(details(3)["argmax_values"], json!([]));
        assert_eq!(details(4)["argmax"], "lvl1.csv", "a candidate's name is no value of the data");
        assert_eq!(safe.report.metrics[5], full.metrics[5]);
        assert_eq!(details(6), &json!({ "top": [] }));
        assert_eq!(details(7), &json!({ "households": 1 }), "the households' ids go");
        assert_eq!(safe.report.warnings, [other]);
        assert_eq!(safe.report.params.attributes["diag"].hierarchy, None);
        assert_eq!(
            json_of(&safe)["shareable"],
            json!({ "min_count": 5, "removed": { "classes": 2, "column_extremes": 2, "column_values": 1, "hierarchies": 1, "per_record_lists": 8 } })
        );
    }

    /// The JSON form: the report's, `shareable` added, every object's keys in alphabetical
    /// order (the form the variant has had since it was made of the report's JSON).
    #[test]
    fn its_json_is_the_reports_with_shareable_added_keys_sorted() {
        let params = AuditConfig { quasi_identifiers: names(&["age"]), ..AuditConfig::default() };
        let full = report(params, vec![column("age", Role::QuasiIdentifier, &[("30", 12)])], Vec::new());
        let text = serde_json::to_string(&shareable(&full, 5)).unwrap();
        let mut expected = serde_json::to_value(&full).unwrap();
        expected["shareable"] = json!({ "min_count": 5, "removed": {} });
        assert_eq!(text, serde_json::to_string(&expected).unwrap());
        assert!(text.starts_with(r#"{"columns":[{"ambiguous_date_forms":[]"#), "{text}");
    }

    #[test]
    fn the_minimum_is_the_advice_k_else_five() {
        let mut full = report(AuditConfig::default(), Vec::new(), Vec::new());
        assert_eq!(min_count_of(&full), 5);
        full.params.advice = Some(crate::advice::AdviceParams { suppress_below: 8 });
        assert_eq!(min_count_of(&full), 8);
        full.params.advice = Some(crate::advice::AdviceParams { suppress_below: 0 });
        assert_eq!(min_count_of(&full), 5);
        assert_eq!(shareable(&full, 0).shareable.min_count, 1);
    }
}
