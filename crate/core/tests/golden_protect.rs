//! Golden example G-P1 of spec protect.md Sec 7: twelve records, QIs age (bands 10, 20), zip
//! (prefix 4, 3) and sex (value, `*`), SA diagnosis; the three rows of its table and the
//! release of node (3,2,0).

use std::collections::BTreeMap;

use pseudolens_core::ingest::cell::Normaliser;
use pseudolens_core::{AuditConfig, Criteria, Ladder, ProtectParams, Protector, Table, TableReader, protect, release_csv};
use serde_json::{Value, json};

/// G-P1's table (protect.md Sec 7).
const G_P1: &str = include_str!("fixtures/g-p1.csv");

fn table(csv: &str) -> Table {
    let config = AuditConfig { quasi_identifiers: vec!["age".into(), "zip".into(), "sex".into()], ..AuditConfig::default() };
    let mut reader = TableReader::new(config.table_settings().unwrap());
    reader.push(csv.as_bytes()).unwrap();
    reader.finish().unwrap().table
}

fn params(k: u64, l: Option<u64>, s_max: f64) -> ProtectParams {
    let mut ladders = BTreeMap::new();
    ladders.insert("age".to_string(), Ladder::Bands { widths: vec![10.0, 20.0], bottom: None, top: None });
    ladders.insert("zip".to_string(), Ladder::Prefix { lengths: vec![4, 3] });
    ProtectParams {
        quasi_identifiers: vec!["age".into(), "zip".into(), "sex".into()],
        sensitive: if l.is_some() { vec!["diagnosis".into()] } else { Vec::new() },
        ladders,
        criteria: Criteria { k: Some(k), l, ..Criteria::default() },
        suppression_limit: s_max,
        ..ProtectParams::default()
    }
}

fn node(age: usize, zip: usize, sex: usize) -> Value {
    json!({ "age": age, "zip": zip, "sex": sex })
}

fn levels(list: &Value) -> Vec<Value> {
    list.as_array().unwrap().iter().map(|n| n["levels"].clone()).collect()
}

#[track_caller]
fn close(got: &Value, want: f64) {
    let g = got.as_f64().unwrap_or_else(|| panic!("{got} is no number"));
    assert!((g - want).abs() <= 1e-9, "got {g}, want {want}");
}

#[test]
fn g_p1_k2_without_suppression() {
    let t = table(G_P1);
    let r = protect(&t, &Normaliser::default(), &params(2, None, 0.0)).unwrap();
    assert_eq!(r.value, node(3, 2, 0));
    let d = &r.details;
    assert_eq!((d["nodes_total"].clone(), d["nodes_feasible"].clone()), (json!(32), json!(4)));
    assert_eq!(levels(&d["minimal"]), vec![node(3, 2, 0)]);
    let b = &d["best"];
    assert_eq!((b["records_suppressed"].clone(), b["classes"].clone(), b["k"].clone(), b["discernibility"].clone()), (json!(0), json!(4), json!(2), json!(38)));
    close(&b["average_risk"], 1.0 / 3.0);
    close(&b["loss"], (11.0 / 12.0 + 31.0 / 72.0) / 3.0);
    close(&b["loss"], 0.449074074074);
    assert_eq!(b["labels"], json!({ "age": "*", "zip": "first 3 characters", "sex": "value" }));
    assert_eq!(d["ladders"]["age"], json!({ "kind": "bands", "height": 4, "labels_per_level": [11, 4, 3, 1] }));
    assert_eq!(d["ladders"]["zip"], json!({ "kind": "prefix", "height": 4, "labels_per_level": [7, 4, 2, 1] }));
    assert_eq!(d["ladders"]["sex"], json!({ "kind": "default", "height": 2, "labels_per_level": [2, 1] }));
    // Pruning: evaluated fewer nodes than the lattice has.
    assert!(d["nodes_evaluated"].as_u64().unwrap() < 32);
}

#[test]
fn g_p1_k2_with_a_quarter_suppressed() {
    let t = table(G_P1);
    let r = protect(&t, &Normaliser::default(), &params(2, None, 0.25)).unwrap();
    assert_eq!(r.value, node(3, 2, 0));
    let d = &r.details;
    assert_eq!(d["nodes_feasible"], json!(11));
    assert_eq!(levels(&d["minimal"]), vec![node(1, 2, 1), node(2, 3, 0), node(3, 1, 0)]);
    let b = &d["best"];
    assert_eq!((b["records_suppressed"].clone(), b["classes"].clone(), b["k"].clone(), b["discernibility"].clone()), (json!(0), json!(4), json!(2), json!(38)));
    close(&b["average_risk"], 1.0 / 3.0);
    close(&b["loss"], 0.449074074074);
}

#[test]
fn g_p1_k2_l2_with_a_quarter_suppressed() {
    let t = table(G_P1);
    let r = protect(&t, &Normaliser::default(), &params(2, Some(2), 0.25)).unwrap();
    assert_eq!(r.value, node(3, 2, 0));
    let d = &r.details;
    assert_eq!(d["nodes_feasible"], json!(10));
    assert_eq!(levels(&d["minimal"]), vec![node(1, 2, 1), node(2, 3, 0), node(3, 1, 1), node(3, 2, 0)]);
    let b = &d["best"];
    assert_eq!((b["records_suppressed"].clone(), b["classes"].clone(), b["k"].clone()), (json!(2), json!(3), json!(3)));
    close(&b["average_risk"], 0.3);
    close(&b["loss"], 0.541666666667);
}

#[test]
fn g_p1_applied() {
    let t = table(G_P1);
    let out = String::from_utf8(release_csv(&t, &Normaliser::default(), &params(2, None, 0.0)).unwrap()).unwrap();
    let want = "age,zip,sex,diagnosis
*,104**,F,flu
*,104**,F,asthma
*,104**,M,flu
*,104**,M,diabetes
*,104**,F,flu
*,104**,F,asthma
*,103**,M,flu
*,103**,M,diabetes
*,103**,F,flu
*,103**,M,asthma
*,103**,F,flu
*,104**,M,flu
";
    assert_eq!(out, want);
    // With l = 2 at a quarter suppressed, the class (*, 103**, F) of two flu is removed, or
    // starred.
    let p = params(2, Some(2), 0.25);
    let removed = String::from_utf8(release_csv(&t, &Normaliser::default(), &p).unwrap()).unwrap();
    assert_eq!(removed.lines().count(), 11);
    assert!(!removed.contains("103**,F"));
    let starred =
        String::from_utf8(release_csv(&t, &Normaliser::default(), &ProtectParams { suppressed: pseudolens_core::Suppressed::Star, ..p }).unwrap()).unwrap();
    assert_eq!(starred.lines().filter(|l| *l == "*,*,*,flu").count(), 2);
}

#[test]
fn g_p1_ladders_in_arx_layout() {
    let t = table(G_P1);
    let p = Protector::new(&t, &Normaliser::default(), &params(2, None, 0.0)).unwrap();
    let age = p.ladders[0].to_arx_csv();
    assert!(age.starts_with("34;[30,40);[20,40);*\n36;[30,40);[20,40);*\n"), "{age}");
    assert_eq!(age.lines().count(), 11);
    assert_eq!(p.ladders[1].to_arx_csv().lines().next(), Some("10489;1048*;104**;*"));
}

#[test]
fn a_settings_file_carries_the_protection_and_gives_the_search_its_params() {
    let text = r#"{
        "quasi_identifiers": ["age", "zip", "sex"],
        "threshold": 0.1,
        "protect": {
            "ladders": {"age": {"kind": "bands", "widths": [10, 20]}, "zip": {"kind": "prefix", "lengths": [4, 3]}},
            "criteria": {"k": 2},
            "suppression_limit": 0.25,
            "node": {"age": 2, "zip": 1}
        }
    }"#;
    let config: AuditConfig = serde_json::from_str(text).unwrap();
    let p = config.protect_params();
    let want = ProtectParams { risk_threshold: 0.1, node: Some(BTreeMap::from([("age".into(), 2), ("zip".into(), 1)])), ..params(2, None, 0.25) };
    assert_eq!(p, want);
    // The settings written again read back the same, and a key protect does not know is refused.
    let back: AuditConfig = serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
    assert_eq!(back, config);
    assert!(serde_json::from_str::<AuditConfig>(r#"{"protect": {"criteria": {"k": 2}, "supression_limit": 0.1}}"#).is_err());
    // Without it, nothing is written and the search gets protect's defaults.
    let plain = AuditConfig { quasi_identifiers: vec!["age".into()], ..AuditConfig::default() };
    assert!(!serde_json::to_string(&plain).unwrap().contains("protect"));
    assert_eq!(plain.protect_params().criteria, ProtectParams::default().criteria);
}
