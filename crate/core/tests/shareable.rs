//! The shareable report (issue 13, Deliver 2; `shareable.rs`): whatever the minimum count, no
//! value, combination of quasi-identifier values or query cell held by fewer records survives,
//! on the sample, on adult.csv and on a release compared with its original. The same checks
//! find such values in the full report, so they can fail.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use pseudolens_core::utility::params::Aggregate;
use pseudolens_core::{Audit, AuditConfig, Original, Query, Report, hospital_sample, sample, shareable};
use serde_json::Value;

use common::{audit, qi, shared};

/// The cells of a CSV file (quotes as RFC 4180, trimmed), the header first.
fn rows(bytes: &[u8], delimiter: char) -> Vec<Vec<String>> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (mut cells, mut cell, mut quoted) = (Vec::new(), String::new(), false);
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' if quoted && chars.peek() == Some(&'"') => {
                    cell.push('"');
                    chars.next();
                }
                '"' => quoted = !quoted,
                c if c == delimiter && !quoted => cells.push(std::mem::take(&mut cell).trim().to_string()),
                c => cell.push(c),
            }
        }
        cells.push(cell.trim().to_string());
        out.push(cells);
    }
    out
}

const BLANK: [&str; 6] = ["", "NA", "N/A", "NaN", "NULL", "null"];

/// What an independent count of the tables says must not appear: the values held by fewer than
/// `k` records of some column (and by at least `k` of none, nor a column's name), and the QI
/// combinations of fewer than `k` records of the released table.
struct Rare {
    values: BTreeSet<String>,
    combinations: Vec<BTreeMap<String, Value>>,
}

fn rare(tables: &[&[Vec<String>]], qis: &[String], k: u64) -> Rare {
    let mut counts: Vec<BTreeMap<&str, u64>> = Vec::new();
    let mut names = BTreeSet::new();
    for t in tables {
        let header = &t[0];
        names.extend(header.iter().cloned());
        for col in 0..header.len() {
            let mut c = BTreeMap::new();
            for row in &t[1..] {
                if let Some(v) = row.get(col) {
                    *c.entry(v.as_str()).or_default() += 1;
                }
            }
            counts.push(c);
        }
    }
    let common: BTreeSet<&str> = counts.iter().flat_map(|c| c.iter().filter(|(_, n)| **n >= k).map(|(v, _)| *v)).collect();
    let values = counts
        .iter()
        .flat_map(|c| c.iter().filter(|(_, n)| **n < k).map(|(v, _)| *v))
        .filter(|v| !BLANK.contains(v) && !common.contains(v) && !names.contains(*v))
        .map(str::to_string)
        .collect();
    let released = tables[0];
    let at: Vec<usize> = qis.iter().map(|q| released[0].iter().position(|h| h == q).unwrap()).collect();
    let mut classes: BTreeMap<Vec<&str>, u64> = BTreeMap::new();
    for row in &released[1..] {
        *classes.entry(at.iter().map(|&i| row[i].as_str()).collect()).or_default() += 1;
    }
    let combinations = classes
        .into_iter()
        .filter(|(_, n)| *n < k)
        .map(|(values, _)| qis.iter().zip(values).map(|(q, v)| (q.clone(), if BLANK.contains(&v) { Value::Null } else { Value::from(v) })).collect())
        .collect();
    Rare { values, combinations }
}

/// Every place of the report (its settings and input facts aside) holding a rare value, a rare
/// combination as an object of QI values, or a query cell over fewer than `k` records.
fn leaks(report: &Value, rare: &Rare, k: u64) -> Vec<String> {
    fn walk(v: &Value, path: &str, rare: &Rare, k: u64, out: &mut Vec<String>) {
        match v {
            Value::String(s) if rare.values.contains(s) => out.push(format!("{path}: value {s:?}")),
            Value::Array(items) => items.iter().enumerate().for_each(|(i, x)| walk(x, &format!("{path}[{i}]"), rare, k, out)),
            Value::Object(map) => {
                for c in &rare.combinations {
                    if c.iter().all(|(q, x)| map.get(q) == Some(x)) {
                        out.push(format!("{path}: class {c:?}"));
                    }
                }
                if let (Some(label), Some(rows)) = (map.get("label"), map.get("rows").and_then(Value::as_array)) {
                    let small = rows.iter().filter_map(Value::as_u64).any(|n| n > 0 && n < k);
                    if label.is_array() && (small || rows.first().and_then(Value::as_u64).is_some_and(|n| n < k)) {
                        out.push(format!("{path}: query cell {label} over {rows:?}"));
                    }
                }
                for (key, x) in map {
                    if rare.values.contains(key) {
                        out.push(format!("{path}: key {key:?}"));
                    }
                    walk(x, &format!("{path}.{key}"), rare, k, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for key in ["columns", "metrics", "warnings"] {
        walk(&report[key], key, rare, k, &mut out);
    }
    out
}

/// For each minimum count: the full report holds rare values, the shareable one none.
fn check(report: &Report, tables: &[&[Vec<String>]], ks: &[u64]) {
    let full = serde_json::to_value(report).unwrap();
    for &k in ks {
        let rare = rare(tables, &report.params.quasi_identifiers, k);
        assert!(!leaks(&full, &rare, k).is_empty(), "k = {k}: the full report holds record-level values (the check can fail)");
        let typed = shareable(report, k);
        let safe = serde_json::to_value(&typed).unwrap();
        let found = leaks(&safe, &rare, k);
        assert!(found.is_empty(), "k = {k}: the shareable report leaks:\n{}", found.join("\n"));
        assert_eq!(safe["shareable"]["min_count"], k);
        assert!(safe["shareable"]["removed"].as_object().is_some_and(|m| !m.is_empty()), "k = {k}: it says what it left out");
        // The aggregates stay.
        for id in ["k_anonymity", "sample_uniques", "r_internal"] {
            assert_eq!(typed.report.metric(id), report.metric(id));
        }
    }
}

fn attribute_config(qis: &[&str], sensitive: &[&str]) -> AuditConfig {
    let mut c = qi(qis);
    c.sensitive = sensitive.iter().map(|s| s.to_string()).collect();
    c.attribute.l_threshold = Some(3.0);
    c.attribute.t_threshold = Some(0.1);
    c.attribute.beta_threshold = Some(0.5);
    c
}

#[test]
fn sample_shareable_keeps_no_count_below_the_minimum() {
    let bytes = hospital_sample();
    let report = audit(&bytes, &attribute_config(&["age", "sex", "postcode", "admission_month"], &["diagnosis"]));
    let table = rows(&bytes, ',');
    check(&report, &[&table], &[2, 5, 10]);
}

#[test]
fn adult_shareable_keeps_no_count_below_the_minimum() {
    let path = shared("data/adult/adult.csv");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report = audit(&bytes, &attribute_config(&["sex", "age", "race", "marital-status", "native-country"], &["occupation", "salary-class"]));
    let table = rows(&bytes, ';');
    check(&report, &[&table], &[3, 5]);
}

#[test]
fn utility_shareable_keeps_no_query_cell_or_category_below_the_minimum() {
    let original: Vec<u8> = sample::bench_table(1_500, 11, 0).flatten().collect();
    let released: Vec<u8> = sample::bench_table(1_500, 11, 1).flatten().collect();
    let mut config = attribute_config(&["age", "sex", "region"], &["diagnosis"]);
    config.record_id = Some("record_id".into());
    config.ignored = vec!["note".into()];
    config.utility.queries = vec![Query { group_by: vec!["ward".into(), "procedure".into()], aggregate: Aggregate::Count }];
    let mut o = Original::new(&config, None);
    o.push(&original).unwrap();
    let mut a = Audit::new(config).unwrap();
    a.set_original(o.finish().unwrap());
    a.push(&released).unwrap();
    let report = a.finish().unwrap();
    let (p, o) = (rows(&released, ','), rows(&original, ','));
    check(&report, &[&p, &o], &[5, 20]);
}
