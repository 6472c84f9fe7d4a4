//! Golden values of the journalist and marketer models (golden.md G1.3, G7.3), SCORR's
//! uniqueness and uniformity risks (G1.8, G5, G6), QI attribution (G1.7) and the ARX verdict.

mod common;

use common::*;
use pseudolens_core::reference;
use pseudolens_core::{Audit, AuditConfig, Report};
use serde_json::{Value, json};

fn with_population(data: &[u8], population: &[u8], config: &AuditConfig) -> Report {
    let mut e = reference(config, None);
    for piece in population.chunks(100) {
        e.push(piece).unwrap();
    }
    let mut a = Audit::new(config.clone()).unwrap();
    a.push(data).unwrap();
    a.set_population(e.finish().unwrap());
    a.finish().unwrap()
}

/// The result with this id whose scope names this attribute or subset.
fn scoped<'r>(r: &'r Report, id: &str, what: &[&str]) -> &'r Value {
    let m = r.metrics.iter().find(|m| {
        m.id == id
            && (m.scope.attribute.as_deref().is_some_and(|a| what == [a])
                || m.scope.subset.as_ref().is_some_and(|s| s.iter().map(String::as_str).eq(what.iter().copied())))
    });
    &m.unwrap_or_else(|| panic!("{id} {what:?}")).value
}

fn mmm(v: &Value) -> [f64; 3] {
    ["min", "mean", "max"].map(|k| v[k].as_f64().unwrap())
}

#[track_caller]
fn assert_mmm(v: &Value, want: [f64; 3], what: &str) {
    let got = mmm(v);
    for (g, w) in got.iter().zip(want) {
        assert_close(*g, w, what);
    }
}

#[test]
fn g1_3_journalist_and_marketer_with_population() {
    let config = qi(&["age", "zip", "sex"]);
    let r = with_population(&fixture("g1.csv"), &fixture("e1.csv"), &config);
    assert_close(num(&r, "journalist_records_at_risk"), 6.0 / 17.0, "records at risk");
    assert_close(num(&r, "journalist_highest_risk"), 1.0, "highest");
    assert_close(num(&r, "journalist_lowest_risk"), 0.025, "lowest");
    assert_close(num(&r, "marketer_success_rate"), 0.2312091503267974, "marketer");
    assert_close(num(&r, "journalist_success_rate"), 0.2312091503267974, "journalist success");
    let m = r.metric("journalist_highest_risk").unwrap();
    assert_eq!(m.warnings, ["population_smaller_than_sample"]);
    assert_eq!(m.details["keys_raised_to_sample"], json!(1));
    // The QIs named in another order than the file's columns pair by name.
    for order in [["sex", "age", "zip"], ["zip", "sex", "age"]] {
        let r2 = with_population(&fixture("g1.csv"), &fixture("e1.csv"), &qi(&order));
        assert_close(num(&r2, "marketer_success_rate"), 0.2312091503267974, "marketer, QIs reordered");
        assert_close(num(&r2, "journalist_records_at_risk"), 6.0 / 17.0, "records at risk, QIs reordered");
    }
}

#[test]
fn without_population_journalist_equals_prosecutor() {
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    assert_close(num(&r, "journalist_records_at_risk"), num(&r, "prosecutor_records_at_risk"), "at risk");
    assert_close(num(&r, "marketer_success_rate"), 7.0 / 17.0, "marketer");
    assert_eq!(r.metric("marketer_success_rate").unwrap().warnings, ["no_population_table"]);
}

#[test]
fn population_missing_a_qi_is_not_applicable() {
    let r = with_population(&fixture("g1.csv"), b"age,zip\n30-39,130**\n", &qi(&["age", "zip", "sex"]));
    let m = r.metric("journalist_success_rate").unwrap();
    assert_eq!((m.reason, &m.details["missing"]), (Some("population_missing_qi"), &json!(["sex"])));
}

#[test]
fn hct_journalist_example() {
    // golden.md G7.3: sample A f=1, B f=2; population A F=4, B F=2.
    let r = with_population(b"q\nA\nB\nB\n", b"q\nA\nA\nA\nA\nB\nB\n", &qi(&["q"]));
    assert_close(num(&r, "journalist_records_at_risk"), 1.0, "at risk");
    assert_close(num(&r, "journalist_highest_risk"), 0.5, "highest");
    assert_close(num(&r, "journalist_success_rate"), 5.0 / 12.0, "success");
    assert_close(num(&r, "marketer_success_rate"), 5.0 / 12.0, "marketer");
    assert_close(num(&r, "prosecutor_success_rate"), 2.0 / 3.0, "prosecutor");
}

#[test]
fn g1_7_attribution() {
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    let table: [(&[&str], f64, f64); 7] = [
        (&["age"], 3.0 / 17.0, 0.6176470588),
        (&["zip"], 2.0 / 17.0, 0.4411764706),
        (&["sex"], 3.0 / 17.0, 0.5808823529),
        (&["age", "zip"], 4.0 / 17.0, 0.6838235294),
        (&["age", "sex"], 7.0 / 17.0, 0.8529411765),
        (&["zip", "sex"], 5.0 / 17.0, 0.7279411765),
        (&["age", "zip", "sex"], 7.0 / 17.0, 232.0 / 272.0),
    ];
    for (subset, distinction, separation) in table {
        assert_close(scoped(&r, "qi_distinction", subset).as_f64().unwrap(), distinction, "distinction");
        let got = scoped(&r, "qi_separation", subset).as_f64().unwrap();
        assert!((got - separation).abs() < 1e-9, "separation {subset:?}: {got}");
    }
    let order: Vec<Vec<String>> = r.metrics.iter().filter(|m| m.id == "qi_distinction").map(|m| m.scope.subset.clone().unwrap()).collect();
    assert_eq!(order[3], ["age", "zip"], "by size, then position");
    let c = |a| scoped(&r, "qi_contribution", &[a]).clone();
    assert_close(c("age")["delta_uniqueness"].as_f64().unwrap(), 1.0 / 17.0, "age du");
    assert_close(c("age")["delta_r_internal"].as_f64().unwrap(), 2.0 / 17.0, "age dr");
    assert_close(c("age")["share"].as_f64().unwrap(), 0.4, "age share");
    assert_close(c("zip")["share"].as_f64().unwrap(), 0.0, "zip share");
    assert_close(c("sex")["delta_uniqueness"].as_f64().unwrap(), 3.0 / 17.0, "sex du");
    assert_close(c("sex")["share"].as_f64().unwrap(), 0.6, "sex share");
    // The MISSING sex singles out row 17 on its own.
    assert_eq!(value(&r, "qi_singling_out"), &json!([{ "subset": ["sex"], "uniques": 1, "share": 1.0 / 17.0 }]));
}

#[test]
fn g1_8_scorr_uniqueness_and_uniformity() {
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    assert_mmm(value(&r, "scorr_uniqueness_risk"), [0.4319390328262671, 0.6205825845784474, 1.0], "R_uq");
    assert_mmm(value(&r, "scorr_uniformity_risk_qi"), [0.2, 7.0 / 17.0, 1.0], "R_uf");
    assert_mmm(scoped(&r, "scorr_uniformity_risk_attr", &["age"]), [1.0 / 9.0, 3.0 / 17.0, 0.5], "age");
    assert_mmm(scoped(&r, "scorr_uniformity_risk_attr", &["zip"]), [1.0 / 12.0, 2.0 / 17.0, 0.2], "zip");
    assert_mmm(scoped(&r, "scorr_uniformity_risk_attr", &["sex"]), [1.0 / 9.0, 3.0 / 17.0, 1.0], "sex");
    assert_eq!(r.metric("k_anonymity_person").unwrap().reason, Some("person_level_data"));
}

#[test]
fn g5_event_level() {
    let config = AuditConfig { person_id: Some("pid".into()), ..qi(&["age_band", "sex"]) };
    let r = audit(&fixture("g5.csv"), &config);
    assert_eq!(value(&r, "k_anonymity"), &json!(3));
    assert_eq!(value(&r, "k_anonymity_person"), &json!(2));
    let kp = r.metric("k_anonymity_person").unwrap();
    assert_eq!((&kp.details["persons"], &kp.details["persons_in_several_classes"]), (&json!(6), &json!(0)));
    assert_mmm(value(&r, "scorr_uniqueness_risk"), [0.5, 0.5, 0.5], "R_uq");
    assert_mmm(value(&r, "scorr_uniformity_risk_qi"), [1.0 / 3.0, 5.0 / 9.0, 2.0 / 3.0], "R_uf");
    assert_close(mmm(scoped(&r, "scorr_uniformity_risk_attr", &["age_band"]))[2], 2.0 / 3.0, "age_band max");
    assert_close(mmm(scoped(&r, "scorr_uniformity_risk_attr", &["sex"]))[2], 2.0 / 3.0, "sex max");
}

#[test]
fn g6_person_level_scorr() {
    let r = audit(&fixture("g6.csv"), &qi(&["age_band", "sex"]));
    assert_mmm(value(&r, "scorr_uniqueness_risk"), [0.3979400086720376, 0.4729032506, 0.5228787452803376], "R_uq");
    assert_close(mmm(value(&r, "scorr_uniformity_risk_qi"))[2], 1.0 / 3.0, "R_uf max");
    assert_close(mmm(scoped(&r, "scorr_uniformity_risk_attr", &["age_band"]))[2], 0.25, "age_band");
    assert_close(mmm(scoped(&r, "scorr_uniformity_risk_attr", &["sex"]))[2], 1.0 / 3.0, "sex");
}

#[test]
fn arx_verdict_passes_and_fails_with_reasons() {
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    let v = r.metric("verdict_arx_thresholds").unwrap();
    assert_eq!(v.value["all_pass"], json!(false));
    assert_eq!(v.value["prosecutor"]["highest_risk"], json!(false));
    assert!(v.details["reasons"][0].as_str().unwrap().contains("above the threshold"));
    // One class of 100: every risk is 0.01.
    let csv = format!("q\n{}", "x\n".repeat(100));
    let r = audit(csv.as_bytes(), &qi(&["q"]));
    let v = r.metric("verdict_arx_thresholds").unwrap();
    assert_eq!(v.value["all_pass"], json!(true));
    assert_eq!(v.details["thresholds"], json!({ "highest_risk": 0.2, "records_at_risk": 0.05, "success_rate": 0.05 }));
    let strict = AuditConfig { success_rate_threshold: 0.001, ..qi(&["q"]) };
    let v = audit(csv.as_bytes(), &strict);
    assert_eq!(v.metric("verdict_arx_thresholds").unwrap().value["prosecutor"]["success_rate"], json!(false));
}

#[test]
fn weights_and_person_ids_are_checked() {
    let config = AuditConfig { weight: Some("w".into()), ..qi(&["a"]) };
    let e = audit_chunked(b"a,w\nx,1\ny,-2\n", &config, 3).unwrap_err();
    assert_eq!((e.code, e.line, e.column.as_deref()), ("invalid_weight", Some(3), Some("w")));
    let e = audit_chunked(b"a,w\nx,\n", &config, 3).unwrap_err();
    assert_eq!(e.code, "invalid_weight");
    let config = AuditConfig { person_id: Some("p".into()), ..qi(&["a"]) };
    let e = audit_chunked(b"a,p\nx,1\ny,NA\n", &config, 3).unwrap_err();
    assert_eq!((e.code, e.line), ("person_id_missing", Some(3)));
    let config = AuditConfig { person_id: Some("a".into()), ..qi(&["a"]) };
    assert_eq!(audit_chunked(b"a\nx\n", &config, 3).unwrap_err().code, "role_conflict");
}

#[test]
fn g1_6_weighted_risk_through_the_audit() {
    let config = AuditConfig { weight: Some("w".into()), ..qi(&["age", "zip", "sex"]) };
    let r = audit(&fixture("g1.csv"), &config);
    assert_close(num(&r, "global_risk_er"), 1.861446919126868, "ER");
    assert_close(num(&r, "global_risk"), 0.10949687759569811, "global");
    assert_eq!(value(&r, "risky_observations"), &json!(4));
    // Sum of w_i / f(i) over the total weight 252 (row 18 is out of scope).
    assert_close(num(&r, "r_internal_weighted"), (20.0 + 10.0 + 5.0 + 8.0 + 50.0 + 1.0 + 30.0) / 252.0, "weighted");
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    assert_eq!(r.metric("sdc_individual_risk").unwrap().reason, Some("no_weight_column"));
}

#[test]
fn g1_5_population_uniqueness_through_the_audit() {
    for (n, zayatz) in [(170, 0.03899420879), (1700, 0.03184041919)] {
        let config = AuditConfig { population_size: Some(n), ..qi(&["age", "zip", "sex"]) };
        let r = audit(&fixture("g1.csv"), &config);
        assert!((num(&r, "population_uniqueness_zayatz") - zayatz).abs() < 1e-10);
        assert_eq!(r.metric("population_uniqueness_pitman").unwrap().reason, Some("solver_invalid"));
        assert!((num(&r, "population_uniqueness_dankar") - zayatz).abs() < 1e-10);
    }
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    assert_eq!(r.metric("population_uniqueness_zayatz").unwrap().reason, Some("population_size_missing"));
    assert_eq!(value(&r, "population_uniqueness_curve").as_array().unwrap().len(), 12);
    let twice = AuditConfig { population_size: Some(100), sampling_fraction: Some(0.5), ..qi(&["age"]) };
    assert_eq!(pseudolens_core::Audit::new(twice).err().unwrap().code, "population_given_twice");
}

#[test]
fn weights_of_zero() {
    // Fk = 0 gives p = 1, so r = 1/fk; the weighted R_internal has no total weight.
    let config = AuditConfig { weight: Some("w".into()), ..qi(&["a"]) };
    let r = audit(b"a,w\nx,0\nx,0\ny,0\n", &config);
    assert_close(num(&r, "global_risk_er"), 0.5 + 0.5 + 1.0, "ER");
    let m = r.metric("r_internal_weighted").unwrap();
    assert_eq!((m.value.is_null(), m.reason), (true, Some("zero_total_weight")));
}
