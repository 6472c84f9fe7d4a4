//! Household risk (peer-measures.md Sec 2; sdcMicro `measure_risk` with `hid`): the golden
//! values of Sec G1.6, sdcMicro's formula computed here on a small table with and without
//! weights, the household column's role, and the property tests (bounds, row order, chunking,
//! the shareable report, the settings' round trip). Parts of a file read apart and kept tables
//! merged: `accounting.rs`.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::metric::Status;
use pseudolens_core::{AuditConfig, MissingPolicy, Report, shareable};
use serde_json::json;

/// The table of G1 (peer-measures.md Sec G1): `hid` is the household column of G1.6.
const G1: &[u8] = b"rid,age,sex,zip,job,hid
1,30,F,100,clerk,H1
2,30,F,100,clerk,H1
3,30,M,100,clerk,H2
4,30,M,200,nurse,H2
5,40,F,200,nurse,H3
6,40,F,200,nurse,H3
7,40,F,200,nurse,H3
8,40,M,100,nurse,H4
9,40,M,300,clerk,H4
10,50,F,100,nurse,H5
11,50,M,200,clerk,H6
12,50,M,200,,H6
";

fn g1_config() -> AuditConfig {
    AuditConfig { household_column: Some("hid".into()), ..qi(&["age", "sex", "zip", "job"]) }
}

fn metric<'r>(r: &'r Report, id: &str) -> &'r pseudolens_core::metric::MetricResult {
    r.metric(id).unwrap_or_else(|| panic!("{id}"))
}

/// G1.6: `h` = H1 0.75, H2 1, H3 19/27, H4 1, H5 1, H6 1; `er = 10.6111111111`,
/// `household_risk = 0.8842592593`.
#[test]
fn g1_6_household_risk() {
    let config = AuditConfig { per_record: true, ..g1_config() };
    let r = audit(G1, &config);
    assert_close(num(&r, "household_risk_er"), 10.6111111111, "household_risk_er");
    assert_close(num(&r, "household_risk"), 0.8842592593, "household_risk");
    let m = metric(&r, "household_risk");
    assert_close(m.details["pct"].as_f64().unwrap(), 88.42592593, "pct");
    assert_eq!(m.details["individual_risk_source"], json!("1/f"));
    assert_eq!(m.family, "identity");
    let per = metric(&r, "household_risk_er").details["per_household"].as_array().unwrap().clone();
    let want = [("H1", 2, 0.75), ("H2", 2, 1.0), ("H3", 3, 19.0 / 27.0), ("H4", 2, 1.0), ("H5", 1, 1.0), ("H6", 2, 1.0)];
    assert_eq!(per.len(), want.len());
    for (got, (id, size, h)) in per.iter().zip(want) {
        assert_eq!((got["id"].as_str(), got["size"].as_u64()), (Some(id), Some(size)));
        assert_close(got["h"].as_f64().unwrap(), h, id);
    }
    // The list of households follows the setting per_record, and makes the report record-level.
    assert!(r.warnings.iter().any(|w| w.code == "record_level_values"));
    let quiet = audit(G1, &g1_config());
    assert!(metric(&quiet, "household_risk_er").details.get("per_household").is_none());
    assert!(!quiet.warnings.iter().any(|w| w.code == "record_level_values"));
    assert_eq!(metric(&quiet, "household_risk_er").details["households"], json!(6));
}

#[test]
fn without_household_column_not_applicable() {
    let r = audit(G1, &qi(&["age", "sex"]));
    for id in ["household_risk_er", "household_risk"] {
        let m = metric(&r, id);
        assert_eq!((m.status, m.reason), (Status::NotApplicable, Some("no_household_column")), "{id}");
    }
    // The settings of a report without one do not name the key.
    assert!(serde_json::to_value(&r.params).unwrap().get("household_column").is_none());
}

/// A blank id: no household risk, still counted in `n` (Sec 2). Rows 3-4 lose their id:
/// `er = 10.6111 - 2 * 1 = 8.6111`, over n = 12.
#[test]
fn blank_ids_count_in_n_only() {
    let text = String::from_utf8(G1.to_vec()).unwrap().replace(",H2\n", ",\n");
    let r = audit(text.as_bytes(), &g1_config());
    assert_close(num(&r, "household_risk_er"), 10.6111111111 - 2.0, "er");
    assert_close(num(&r, "household_risk"), (10.6111111111 - 2.0) / 12.0, "risk");
    assert_eq!(metric(&r, "household_risk").details["records_without_household"], json!(2));
    // A suppressed id ("*") is blank too.
    let masked = String::from_utf8(G1.to_vec()).unwrap().replace(",H2\n", ",**\n");
    assert_eq!(audit(masked.as_bytes(), &g1_config()).metrics, r.metrics);
}

/// The household column may not be a QI; any other role is allowed (here a sensitive one).
#[test]
fn household_column_is_not_a_quasi_identifier() {
    let config = AuditConfig { household_column: Some("zip".into()), ..qi(&["age", "zip"]) };
    let e = audit_chunked(G1, &config, 64).unwrap_err();
    assert_eq!((e.code, e.column.as_deref()), ("role_conflict", Some("zip")));
    assert!(e.message.contains("household id"), "{}", e.message);
    let config = AuditConfig { household_column: Some("nope".into()), ..qi(&["age"]) };
    assert!(audit_chunked(G1, &config, 64).is_err());
    let sensitive = AuditConfig { sensitive: vec!["hid".into()], ..g1_config() };
    assert_eq!(num(&audit(G1, &sensitive), "household_risk_er"), num(&audit(G1, &g1_config()), "household_risk_er"));
}

/// sdcMicro's individual risk (`indivRisk.R`, "approx", identity-risk.md Sec 8), written
/// again here from the spec.
fn sdc_r(fk: f64, big_fk: f64) -> f64 {
    let p = if big_fk == 0.0 { 1.0 } else { (fk / big_fk).min(1.0) };
    if p == 1.0 {
        return 1.0 / fk;
    }
    let odds = p / (1.0 - p);
    match fk as u64 {
        1 => odds * (1.0 / p).ln(),
        2 => odds - odds * odds * (1.0 / p).ln(),
        _ => p / (fk - (1.0 - p)),
    }
}

/// sdcMicro's household risk on rows `(key, household, weight)` (`measure_risk.R` L280-289):
/// `r` per record, `h = 1 - prod (1 - r)` per household, summed over the records with an id,
/// divided by the rows.
fn sdc_household(rows: &[(String, String, f64)], weighted: bool) -> (f64, f64) {
    let mut er = 0.0;
    let r: Vec<f64> = rows
        .iter()
        .map(|(k, _, _)| {
            let same = rows.iter().filter(|o| &o.0 == k);
            let fk = same.clone().count() as f64;
            if weighted { sdc_r(fk, same.map(|o| o.2).sum()) } else { 1.0 / fk }
        })
        .collect();
    for (_, hid, _) in rows.iter().filter(|row| !row.1.is_empty()) {
        let keep: f64 = rows.iter().zip(&r).filter(|(o, _)| &o.1 == hid).map(|(_, r)| 1.0 - r).product();
        er += 1.0 - keep;
    }
    (er, er / rows.len() as f64)
}

fn csv(rows: &[(String, String, f64)]) -> String {
    let mut s = String::from("a,b,hh,w\n");
    for (k, h, w) in rows {
        let (a, b) = k.split_at(1);
        s.push_str(&format!("{a},{b},{h},{w}\n"));
    }
    s
}

/// A small table with weights: classes of sizes 1, 2, 3 and 4 (each branch of the formula),
/// households across classes and one record without household.
#[test]
fn golden_sdcmicro_formula_with_and_without_weights() {
    let spec = [
        ("x1", "h1", 10.0),
        ("y1", "h1", 3.0),
        ("y1", "h2", 5.0),
        ("z1", "h2", 2.0),
        ("z1", "h3", 2.5),
        ("z1", "h3", 7.0),
        ("w2", "h4", 1.5),
        ("w2", "", 4.0),
        ("w2", "h4", 8.0),
        ("w2", "h5", 0.5),
    ];
    let rows: Vec<(String, String, f64)> = spec.iter().map(|&(k, h, w)| (k.to_string(), h.to_string(), w)).collect();
    let text = csv(&rows);
    for weighted in [false, true] {
        let config = AuditConfig { household_column: Some("hh".into()), weight: weighted.then(|| "w".into()), ..qi(&["a", "b"]) };
        let r = audit(text.as_bytes(), &config);
        let (er, risk) = sdc_household(&rows, weighted);
        assert_close(num(&r, "household_risk_er"), er, "er");
        assert_close(num(&r, "household_risk"), risk, "risk");
        let source = if weighted { "weights" } else { "1/f" };
        assert_eq!(metric(&r, "household_risk").details["individual_risk_source"], json!(source));
    }
}

/// Under `wildcard`, `r = 1/f` with `f` the match count; under `drop`, a dropped record is out
/// of `n` and of its household.
#[test]
fn missing_value_policies() {
    let text = "a,b,hh\n1,x,h1\n1,,h1\n2,y,h2\n2,y,h2\n3,,h3\n";
    let base = AuditConfig { household_column: Some("hh".into()), ..qi(&["a", "b"]) };
    // wildcard: f = 2 (rows 1, 2 match), 2, 2, 2, 1.
    let wild = audit(text.as_bytes(), &AuditConfig { missing_policy: MissingPolicy::Wildcard, ..base.clone() });
    let want = 2.0 * 0.75 + 2.0 * 0.75 + 1.0;
    assert_close(num(&wild, "household_risk_er"), want, "wildcard");
    // drop: rows 2 and 5 are out; h1 = {r 1} = 1, h2 = 0.75 twice; n = 3.
    let drop = audit(text.as_bytes(), &AuditConfig { missing_policy: MissingPolicy::Drop, ..base });
    assert_close(num(&drop, "household_risk_er"), 1.0 + 1.5, "drop");
    assert_close(num(&drop, "household_risk"), 2.5 / 3.0, "drop n");
}

/// The household column is no utility attribute: with an original table it is never compared.
#[test]
fn household_column_is_not_compared_with_the_original() {
    let config = AuditConfig { household_column: Some("house_key".into()), ..qi(&["age"]) };
    let o = b"age,house_key,ward\n30,a,x\n40,b,y\n40,b,y\n";
    let p = b"age,house_key,ward\n30,c,x\n40,d,y\n40,d,x\n";
    let r = against(o, p, &config);
    let utility: Vec<_> = r.metrics.iter().filter(|m| m.family.starts_with("utility")).collect();
    assert!(!utility.is_empty());
    let text = serde_json::to_string(&utility).unwrap();
    assert!(!text.contains("house_key"), "the household column was compared");
    assert!(text.contains("ward"));
}

/// The shareable report leaves the list of households out (their ids identify) and shows no
/// value of the household column.
#[test]
fn shareable_drops_the_households() {
    let full = audit(G1, &AuditConfig { per_record: true, ..g1_config() });
    let s = shareable(&full, 5);
    let er = s.report.metric("household_risk_er").unwrap();
    assert!(er.details.get("per_household").is_none());
    assert_eq!(er.value, metric(&full, "household_risk_er").value);
    assert!(s.shareable.removed.get("per_record_lists").is_some_and(|&n| n >= 1));
    let hid = s.report.columns.iter().find(|c| c.name == "hid").unwrap();
    assert!(hid.top.is_empty());
}

/// The setting reads back from its JSON form (the settings file, the page's link).
#[test]
fn settings_round_trip() {
    let config = g1_config();
    let text = serde_json::to_string(&config).unwrap();
    assert!(text.contains("\"household_column\":\"hid\""));
    let back: AuditConfig = serde_json::from_str(&text).unwrap();
    assert_eq!(back, config);
    let back: AuditConfig = serde_json::from_str(r#"{"quasi_identifiers": ["age"], "household_column": "hid"}"#).unwrap();
    assert_eq!(back.household_column.as_deref(), Some("hid"));
}

/// Random tables: QIs `a, b` of few values (blanks among them), a household id of few values
/// (blanks among them), a weight.
fn table() -> impl Strategy<Value = Vec<(u8, u8, u8, u8)>> {
    proptest::collection::vec((0..4u8, 0..3u8, 0..6u8, 1..20u8), 1..60)
}

fn table_csv(rows: &[(u8, u8, u8, u8)]) -> String {
    let mut s = String::from("a,b,hh,w\n");
    for &(a, b, h, w) in rows {
        let b = if b == 0 { String::new() } else { b.to_string() };
        let h = if h == 0 { String::new() } else { format!("h{h}") };
        s.push_str(&format!("{a},{b},{h},{w}\n"));
    }
    s
}

fn household_metrics(r: &Report) -> Vec<pseudolens_core::metric::MetricResult> {
    r.metrics.iter().filter(|m| m.id.starts_with("household_risk")).cloned().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `0 <= household_risk <= 1` and `household_risk_er <= n`; the order of the rows and the
    /// chunking of the file change nothing, under every policy, with or without weights.
    #[test]
    fn bounds_row_order_and_chunking(rows in table(), seed in any::<u64>(), chunk in 1usize..50, policy in 0..3usize, weighted in any::<bool>()) {
        let missing_policy = [MissingPolicy::Ordinary, MissingPolicy::Wildcard, MissingPolicy::Drop][policy];
        let config = AuditConfig { household_column: Some("hh".into()), weight: weighted.then(|| "w".into()), missing_policy, per_record: true, ..qi(&["a", "b"]) };
        let text = table_csv(&rows);
        let whole = audit(text.as_bytes(), &config);
        let mine = household_metrics(&whole);
        prop_assert_eq!(mine.len(), 2);
        if mine[1].status == Status::Ok {
            let v = mine[1].value.as_f64().unwrap();
            prop_assert!((0.0..=1.0).contains(&v), "household_risk {}", v);
            let n = whole.metric("n_records").unwrap().value.as_f64().unwrap();
            prop_assert!(mine[0].value.as_f64().unwrap() <= n + 1e-9);
        }
        let chunked = audit_chunked(text.as_bytes(), &config, chunk).unwrap();
        prop_assert_eq!(&household_metrics(&chunked), &mine);
        let reordered = audit(table_csv(&shuffled(&rows, seed)).as_bytes(), &config);
        prop_assert_eq!(&household_metrics(&reordered), &mine);
        // Without weights and blanks, sdcMicro's formula computed here.
        if !weighted && missing_policy == MissingPolicy::Ordinary {
            let spec: Vec<(String, String, f64)> =
                rows.iter().map(|&(a, b, h, w)| (format!("{a}{b}"), if h == 0 { String::new() } else { format!("h{h}") }, f64::from(w))).collect();
            let (er, _) = sdc_household(&spec, false);
            prop_assert!(close(mine[0].value.as_f64().unwrap(), er), "er {} want {}", mine[0].value, er);
        }
    }
}
