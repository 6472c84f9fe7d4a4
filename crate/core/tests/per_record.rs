//! Per-record vectors (spec README Sec 10; identity-risk.md Sec 4: `record_risk.details.per_record`
//! lists `P(i)`), keyed by `record_id` when given, else by 1-based row number; SUDA's per-record
//! scores keyed the same way (issue 16); the per-record table behind the CLI's CSV.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::table::classes::MissingPolicy;
use pseudolens_core::{AuditConfig, Report, TableReader, audit_table};
use serde_json::{Value, json};

/// Rows (age, sex, id) of the hand-checked table.
const TABLE: &str = "rid,age,sex\na,30,F\nb,30,F\nc,40,M\nd,*,*\ne,50,M\nf,30,F\n";

fn per_record(r: &Report, id: &str) -> Value {
    r.metric(id).unwrap().details.get("per_record").cloned().unwrap_or(Value::Null)
}

fn config(record_id: Option<&str>) -> AuditConfig {
    AuditConfig { per_record: true, record_id: record_id.map(String::from), ..qi(&["age", "sex"]) }
}

#[test]
fn record_risk_per_record_by_hand() {
    // Row 4 is all-suppressed: out of scope (spec README Sec 7). Classes (30, F) = rows 1, 2, 6
    // (f = 3), (40, M) = row 3, (50, M) = row 5 (f = 1): P = 1/3, 1/3, 1, -, 1, 1/3.
    // R_int = K/n = 3/5 = (1/3 + 1/3 + 1 + 1 + 1/3) / 5, the mean of record_risk.
    let third = 1.0 / 3.0;
    let r = audit(TABLE.as_bytes(), &config(None));
    assert_eq!(per_record(&r, "record_risk"), json!({ "1": third, "2": third, "3": 1.0, "5": 1.0, "6": third }));
    assert_eq!(r.metric("record_risk").unwrap().value["mean"], json!(0.6));
    assert!(r.warnings.iter().any(|w| w.code == "record_level_values"));
    // Keyed by the record id when given.
    let r = audit(TABLE.as_bytes(), &config(Some("rid")));
    assert_eq!(per_record(&r, "record_risk"), json!({ "a": third, "b": third, "c": 1.0, "e": 1.0, "f": third }));
    // The per-record table: every row of the file, the one out of scope without values.
    let mut csv = Vec::new();
    r.per_record.as_ref().unwrap().write_csv(&mut csv).unwrap();
    let want = "record_id,class_size,f,record_risk\na,3,3,0.3333333333333333\nb,3,3,0.3333333333333333\nc,1,1,1\nd,,,\ne,1,1,1\nf,3,3,0.3333333333333333\n";
    assert_eq!(String::from_utf8(csv).unwrap(), want);
    // A repeated id cannot key the records: row numbers.
    let r = audit(TABLE.replace("\nb,", "\na,").as_bytes(), &config(Some("rid")));
    assert_eq!(per_record(&r, "record_risk")["2"], json!(third));
    // Off by default; asked for the table only (the CLI's --per-record FILE), nothing in the JSON.
    let r = audit(TABLE.as_bytes(), &qi(&["age", "sex"]));
    assert_eq!((per_record(&r, "record_risk"), r.per_record.is_none()), (Value::Null, true));
    let r = audit(TABLE.as_bytes(), &AuditConfig { keep_records: true, ..qi(&["age", "sex"]) });
    assert_eq!((per_record(&r, "record_risk"), r.per_record.as_ref().map(|p| p.len())), (Value::Null, Some(6)));
    assert!(!r.warnings.iter().any(|w| w.code == "record_level_values"));
}

#[test]
fn wildcard_record_risk_by_hand() {
    // Under wildcard (alpha 1) a blank matches anything (spec identity-risk.md Sec 1.3):
    // row 1 (30, F) matches rows 1, 2; row 2 (30, blank) matches 1, 2; row 3 (40, M) itself.
    // P = 1/2, 1/2, 1; their mean 2/3 is R_int (Sec 4, record mean).
    let c = AuditConfig { missing_policy: MissingPolicy::Wildcard, ..config(None) };
    let r = audit(b"age,sex\n30,F\n30,\n40,M\n", &c);
    assert_eq!(per_record(&r, "record_risk"), json!({ "1": 0.5, "2": 0.5, "3": 1.0 }));
    assert_close(num(&r, "r_internal"), 2.0 / 3.0, "r_internal");
}

#[test]
fn suda_per_record_keyed_by_record_id() {
    // Rows 1 (1, a, x) and 3 (2, b, x) hold sample uniques; row 2 and 4 share (1, b, y).
    let csv = "rid,c0,c1,c2\nr1,1,a,x\nr2,1,b,y\nr3,2,b,x\nr4,1,b,y\n";
    let mut c = qi(&["c0", "c1", "c2"]);
    c.suda.suda = true;
    c.per_record = true;
    let by_row = audit(csv.as_bytes(), &c);
    c.record_id = Some("rid".into());
    let by_id = audit(csv.as_bytes(), &c);
    for id in ["suda_score", "suda_dis_score"] {
        let (rows, ids) = (per_record(&by_row, id), per_record(&by_id, id));
        assert_eq!(rows.as_object().unwrap().keys().collect::<Vec<_>>(), ["1", "3"], "{id}");
        assert_eq!((ids["r1"].clone(), ids["r3"].clone()), (rows["1"].clone(), rows["3"].clone()), "{id}");
        assert_eq!(ids.as_object().unwrap().len(), 2);
    }
    let counts = &by_id.metric("suda_score").unwrap().details["msu_counts"];
    assert_eq!(counts.as_object().unwrap().keys().collect::<Vec<_>>(), ["r1", "r3"]);
    let top = &by_id.metric("suda_score").unwrap().details["top"];
    assert!(top.as_array().unwrap().iter().all(|t| t["record_id"] == json!(format!("r{}", t["row"]))), "{top}");
    // The per-record table carries the scores beside the risk.
    c.keep_records = true;
    let r = audit(csv.as_bytes(), &c);
    let p = r.per_record.as_ref().unwrap();
    let mut out = Vec::new();
    p.write_csv(&mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("record_id,class_size,f,record_risk,suda_score,dis_suda_score\nr1,1,1,1,"), "{out}");
    assert!(out.contains("\nr2,2,2,0.5,0,0\n"), "{out}");
}

/// A table of an id column and `q` QIs from small alphabets.
fn table() -> impl Strategy<Value = (usize, Vec<Vec<u8>>)> {
    (1usize..=3).prop_flat_map(|q| (Just(q), proptest::collection::vec(proptest::collection::vec(0u8..3, q), 1..40)))
}

fn csv(rows: &[(usize, Vec<u8>)], q: usize) -> Vec<u8> {
    let mut s = std::iter::once("rid".to_string()).chain((0..q).map(|c| format!("c{c}"))).collect::<Vec<_>>().join(",");
    s.push('\n');
    for (id, r) in rows {
        let cells: Vec<String> = std::iter::once(format!("id{id}")).chain(r.iter().map(|&v| if v == 0 { String::new() } else { format!("v{v}") })).collect();
        s.push_str(&cells.join(","));
        s.push('\n');
    }
    s.into_bytes()
}

fn policy() -> impl Strategy<Value = MissingPolicy> {
    prop_oneof![Just(MissingPolicy::Ordinary), Just(MissingPolicy::Wildcard), Just(MissingPolicy::Drop)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Bounds, the mean is R_int and min/max are record_risk's; each record keeps its value
    /// whatever the row order, the chunks and the threads of a kept table; the JSON round trip.
    #[test]
    fn per_record_follows_each_record((q, rows) in table(), policy in policy(), seed in any::<u64>(), chunk in 1usize..50, threads in 1usize..4) {
        let names: Vec<String> = (0..q).map(|c| format!("c{c}")).collect();
        let c = AuditConfig { missing_policy: policy, per_record: true, record_id: Some("rid".into()), ..qi(&names.iter().map(String::as_str).collect::<Vec<_>>()) };
        let rows: Vec<(usize, Vec<u8>)> = rows.into_iter().enumerate().collect();
        let a = audit(&csv(&rows, q), &c);
        let risk = a.metric("record_risk").unwrap();
        let p = per_record(&a, "record_risk");
        if risk.status != pseudolens_core::metric::Status::Ok {
            // No record in scope (drop, every row blank): no vector, and no mark.
            prop_assert_eq!(p, Value::Null);
            prop_assert!(!a.warnings.iter().any(|w| w.code == "record_level_values"));
            return Ok(());
        }
        let values: Vec<f64> = p.as_object().unwrap().values().map(|v| v.as_f64().unwrap()).collect();
        prop_assert!(values.iter().all(|&x| x > 0.0 && x <= 1.0));
        prop_assert_eq!(values.len() as u64, num(&a, "n_records") as u64);
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        prop_assert!((mean - num(&a, "r_internal")).abs() < 1e-12, "{} {}", mean, num(&a, "r_internal"));
        let (lo, hi) = values.iter().fold((1.0f64, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        prop_assert_eq!((json!(lo), json!(hi)), (risk.value["min"].clone(), risk.value["max"].clone()));
        // Another row order: each id keeps its value.
        let b = audit(&csv(&shuffled(&rows, seed), q), &c);
        prop_assert_eq!(&per_record(&b, "record_risk"), &p);
        // Chunks, and a kept table audited on several threads: the same per-record values.
        let chunked = audit_chunked(&csv(&rows, q), &c, chunk).unwrap();
        prop_assert_eq!(&chunked.per_record, &a.per_record);
        let mut reader = TableReader::new(c.table_settings().unwrap());
        reader.push(&csv(&rows, q)).unwrap();
        let table = reader.finish().unwrap().table;
        pseudolens_core::par::set_threads(threads);
        let kept = audit_table(&table, &c, &pseudolens_core::Sides::default()).unwrap();
        prop_assert_eq!(&kept.per_record, &a.per_record);
        prop_assert_eq!(&per_record(&kept, "record_risk"), &p);
        // Through JSON and back.
        let back: Value = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        let back_metric = back["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "record_risk").unwrap().clone();
        // (serde_json reads a decimal back within an ulp: its fast float parser.)
        let (read, wrote) = (back_metric["details"]["per_record"].as_object().unwrap(), p.as_object().unwrap());
        prop_assert_eq!(read.keys().collect::<Vec<_>>(), wrote.keys().collect::<Vec<_>>());
        for (x, y) in read.values().zip(wrote.values()) {
            prop_assert!((x.as_f64().unwrap() - y.as_f64().unwrap()).abs() <= 1e-15 * y.as_f64().unwrap());
        }
    }
}
