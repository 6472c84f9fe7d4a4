//! Golden values of attribute disclosure (golden.md G2, G5, G6, G7.3, G7.5) and edge cases
//! (spec attribute-risk.md Sec 9).

mod common;

use common::*;
use pseudolens_core::{AuditConfig, Report};
use serde_json::{Value, json};

fn sa_config(qis: &[&str], sa: &[&str]) -> AuditConfig {
    AuditConfig { sensitive: sa.iter().map(|s| s.to_string()).collect(), ..qi(qis) }
}

/// The result of `id` for SA `sa` (`"*"` = aggregate), and for a QI attribute if given.
fn of<'r>(r: &'r Report, id: &str, sa: &str) -> &'r pseudolens_core::metric::MetricResult {
    r.metrics.iter().find(|m| m.id == id && m.scope.sensitive.as_deref() == Some(sa)).unwrap_or_else(|| panic!("{id} for {sa}"))
}

fn v(r: &Report, id: &str, sa: &str) -> f64 {
    of(r, id, sa).value.as_f64().unwrap_or_else(|| panic!("{id} {sa}: {:?}", of(r, id, sa)))
}

fn attr_max(r: &Report, id: &str, sa: &str, attribute: &str) -> f64 {
    let m = r.metrics.iter().find(|m| m.id == id && m.scope.sensitive.as_deref() == Some(sa) && m.scope.attribute.as_deref() == Some(attribute));
    m.unwrap().value["max"].as_f64().unwrap()
}

#[test]
fn g2_disease_and_salary() {
    let r = audit(&fixture("g2.csv"), &sa_config(&["zip", "age"], &["disease", "salary"]));
    assert_eq!(value(&r, "k_anonymity"), &json!(3));
    for (sa, l, l_max, l_ent, l_floor, c_star, c_int, l_c) in
        [("disease", 2.0, 3.0, 1.754765351, 1.0, 3.0, 4.0, 1.0), ("salary", 3.0, 3.0, 2.828427125, 2.0, 1.0, 2.0, 2.0)]
    {
        assert_eq!(v(&r, "l_distinct", sa), l, "{sa}");
        assert_eq!(v(&r, "l_distinct_max", sa), l_max, "{sa}");
        assert!((v(&r, "l_entropy", sa) - l_ent).abs() < 1e-9, "{sa}");
        assert_eq!(v(&r, "l_entropy_floor", sa), l_floor, "{sa}");
        assert_close(v(&r, "recursive_cl_c", sa), c_star, sa);
        assert_eq!(of(&r, "recursive_cl_c", sa).details["c_int"].as_f64(), Some(c_int), "{sa}");
        assert_eq!(v(&r, "recursive_cl_l", sa), l_c, "{sa}");
        assert_close(v(&r, "beta_likeness_basic", sa), 10.0 / 3.0, sa);
        assert_eq!(of(&r, "beta_likeness_enhanced", sa).reason, Some("unsatisfiable"), "{sa}");
        assert_close(v(&r, "delta_disclosure", sa), (13.0f64 / 3.0).ln(), sa);
        assert_close(v(&r, "delta_disclosure_log2", sa), 2.115477217, sa);
    }
    assert_close(v(&r, "t_closeness", "disease"), 8.0 / 13.0, "t equal");
    assert_eq!(of(&r, "t_closeness", "disease").details["distance"], json!("equal"));
    assert_close(v(&r, "t_closeness", "salary"), 1.0 / 3.0, "t ordered");
    assert_eq!(of(&r, "t_closeness", "salary").details["distance"], json!("ordered"));
    assert_eq!(of(&r, "alpha_k_anonymity", "disease").value, json!({ "alpha": 0.75, "k": 3 }));
    assert_eq!(of(&r, "alpha_k_anonymity", "salary").value, json!({ "alpha": 0.5, "k": 3 }));
    // SCORR on disease.
    assert!((attr_max(&r, "scorr_correlation_risk_attr", "disease", "zip") - 4.0 / 7.0).abs() < 1e-12);
    assert!((attr_max(&r, "scorr_correlation_risk_attr", "disease", "age") - 3.0 / 7.0).abs() < 1e-12);
    assert_close(of(&r, "scorr_correlation_risk_qi", "disease").value["max"].as_f64().unwrap(), 0.75, "R_co qi");
    // The aggregate is the worst case over both SAs.
    assert_eq!(v(&r, "l_distinct", "*"), 2.0);
    assert_close(v(&r, "t_closeness", "*"), 8.0 / 13.0, "t *");
    assert_eq!(of(&r, "beta_likeness_enhanced", "*").reason, Some("unsatisfiable"));
}

#[test]
fn g2_worst_class_and_failing_classes() {
    let config = AuditConfig {
        attribute: pseudolens_core::attribute::AttributeParams { t_threshold: Some(0.5), l_threshold: Some(3.0), ..Default::default() },
        ..sa_config(&["zip", "age"], &["disease"])
    };
    let r = audit(&fixture("g2.csv"), &config);
    let t = of(&r, "t_closeness", "disease");
    assert_eq!(t.details["worst_class"], json!({ "zip": "476**", "age": "30-39" }));
    // Per-class D: 0.538, 0.308, 0.615, 0.462: X and Z exceed 0.5.
    assert_eq!(t.details["failing"]["classes"], json!(2));
    let l = of(&r, "l_distinct", "disease");
    assert_eq!(l.details["failing"]["classes"], json!(1), "only W has fewer than 3 values");
    let shown = t.details["worst_distribution"].as_array().unwrap();
    assert_eq!(shown.len(), 6);
}

#[test]
fn g5_event_level_attribute_and_markov() {
    let config = AuditConfig { person_id: Some("pid".into()), ..sa_config(&["age_band", "sex"], &["result"]) };
    let r = audit(&fixture("g5.csv"), &config);
    assert_eq!(v(&r, "l_distinct", "result"), 2.0);
    assert_close(v(&r, "t_closeness", "result"), 2.0 / 9.0, "t");
    assert_close(v(&r, "beta_likeness_basic", "result"), 0.5, "beta");
    assert_close(v(&r, "beta_likeness_enhanced", "result"), 0.5, "beta enhanced");
    // golden.md prints "ln(3/2) = 0.5108256238": the value is |ln(3/5)| (class (40-49,F), pass 1/3 vs 5/9).
    assert_close(v(&r, "delta_disclosure", "result"), (5.0f64 / 3.0).ln(), "delta");
    assert_close(of(&r, "scorr_correlation_risk_qi", "result").value["max"].as_f64().unwrap(), 2.0 / 3.0, "R_co");
    let mm = &of(&r, "scorr_markov_risk", "result").value;
    assert_close(mm["min"].as_f64().unwrap(), 0.8814814815, "R_mm min");
    assert_close(mm["mean"].as_f64().unwrap(), 0.9493827160, "R_mm mean");
    assert_close(mm["max"].as_f64().unwrap(), 0.9814814815, "R_mm max");
}

#[test]
fn g6_person_level() {
    let r = audit(&fixture("g6.csv"), &sa_config(&["age_band", "sex"], &["diagnosis"]));
    assert_eq!((v(&r, "l_distinct", "diagnosis"), v(&r, "l_distinct_max", "diagnosis")), (2.0, 3.0));
    assert_close(v(&r, "t_closeness", "diagnosis"), 0.2333333333, "t");
    assert_close(v(&r, "l_entropy", "diagnosis"), 1.889881575, "l entropy");
    assert_eq!(v(&r, "l_entropy_floor", "diagnosis"), 1.0);
    assert_close(v(&r, "recursive_cl_c", "diagnosis"), 2.0, "c*");
    assert_close(v(&r, "beta_likeness_basic", "diagnosis"), 2.333333333, "beta");
    assert_close(v(&r, "delta_disclosure", "diagnosis"), 1.203972804, "delta");
    assert_close(of(&r, "alpha_k_anonymity", "diagnosis").value["alpha"].as_f64().unwrap(), 2.0 / 3.0, "alpha");
    let mm = &of(&r, "scorr_markov_risk", "diagnosis").value;
    assert_close(mm["min"].as_f64().unwrap(), 0.88, "R_mm min");
    assert_close(mm["mean"].as_f64().unwrap(), 0.9121666667, "R_mm mean");
    assert_close(mm["max"].as_f64().unwrap(), 1.0, "R_mm max");
    assert_close(attr_max(&r, "scorr_correlation_risk_attr", "diagnosis", "age_band"), 0.5, "co age");
    assert_close(attr_max(&r, "scorr_correlation_risk_attr", "diagnosis", "sex"), 4.0 / 7.0, "co sex");
}

#[test]
fn g1_8_markov_and_correlation() {
    let r = audit(&fixture("g1.csv"), &sa_config(&["age", "zip", "sex"], &["diag"]));
    let co = &of(&r, "scorr_correlation_risk_qi", "diag").value;
    assert_close(co["mean"].as_f64().unwrap(), 0.6882352941, "R_co mean");
    assert_close(attr_max(&r, "scorr_correlation_risk_attr", "diag", "zip"), 0.4, "co zip");
    let mm = &of(&r, "scorr_markov_risk", "diag").value;
    assert_close(mm["min"].as_f64().unwrap(), 0.8431372549, "R_mm min");
    assert_close(mm["mean"].as_f64().unwrap(), 0.9610726644, "R_mm mean");
}

#[test]
fn hct_and_entropy_floor_examples() {
    // G7.3: one class [Circulatory x3, Diabetes x1].
    let r = audit(b"q,d\nx,C\nx,C\nx,C\nx,D\n", &sa_config(&["q"], &["d"]));
    assert_eq!(v(&r, "l_distinct", "d"), 2.0);
    assert!((v(&r, "l_entropy", "d") - 1.754765351).abs() < 1e-9);
    assert_close(v(&r, "recursive_cl_c", "d"), 3.0, "c*");
    // G7.3 ordered example: order A,B,C; Q = (0.5,0.3,0.2); class (1,0,0) -> 0.35 (equal 0.5).
    let mut csv = String::from("q,s\n");
    for (q, s, n) in [("x", "1", 1), ("y", "1", 4), ("y", "2", 3), ("y", "3", 2)] {
        csv.push_str(&format!("{q},{s}\n").repeat(n));
    }
    // Q = (5, 3, 2)/10, class x = (1, 0, 0): D_ord = 1/2 (0.5 + 0.2) = 0.35.
    let r = audit(csv.as_bytes(), &sa_config(&["q"], &["s"]));
    assert_close(v(&r, "t_closeness", "s"), 0.35, "ordered");
    assert_close(v(&r, "t_closeness_equal", "s"), 0.5, "equal");
    // G7.5: a, b, c once each: exp(H) sums to 2.9999999999999996; the floor is 3.
    let r = audit(b"q,s\nx,a\nx,b\nx,c\n", &sa_config(&["q"], &["s"]));
    assert_eq!(v(&r, "l_entropy_floor", "s"), 3.0);
}

#[test]
fn edge_cases() {
    // Single class: P = Q.
    let r = audit(b"q,s\nx,a\nx,b\nx,a\n", &sa_config(&["q"], &["s"]));
    for id in ["t_closeness", "beta_likeness_basic", "delta_disclosure"] {
        assert_eq!(v(&r, id, "s"), 0.0, "{id}");
    }
    assert_eq!(v(&r, "l_distinct", "s"), 2.0);
    // One SA value.
    let r = audit(b"q,s\nx,a\ny,a\n", &sa_config(&["q"], &["s"]));
    assert_eq!((v(&r, "l_distinct", "s"), v(&r, "l_entropy", "s"), v(&r, "t_closeness", "s")), (1.0, 1.0, 0.0));
    assert_eq!(of(&r, "scorr_correlation_risk_qi", "s").value["min"], json!(1.0));
    // An SA with only missing values: one category MISSING (ordinary), empty under drop.
    let r = audit(b"q,s\nx,\ny,NA\n", &sa_config(&["q"], &["s"]));
    assert_eq!(v(&r, "l_distinct", "s"), 1.0);
    let drop = AuditConfig { missing_policy: pseudolens_core::identity::MissingPolicy::Drop, ..sa_config(&["q"], &["s"]) };
    let r = audit(b"q,s\nx,\ny,NA\n", &drop);
    assert_eq!(of(&r, "l_distinct", "s").status, pseudolens_core::metric::Status::EmptyInput);
    // More categories than rows, numeric: ordered distance, each class of size 1.
    let r = audit(b"q,s\nx,1\ny,2\nz,30\n", &sa_config(&["q"], &["s"]));
    assert_close(v(&r, "t_closeness", "s"), 0.5, "ordered, m = 3: class {1}: (2/3 + 1/3)/2");
    // No SA: not applicable.
    let r = audit(b"q\nx\n", &qi(&["q"]));
    assert_eq!(r.metric("l_distinct").unwrap().reason, Some("no_sensitive_attribute"));
    // Generalized numeric SA: categorical with a warning.
    let r = audit(b"q,s\nx,10-19\ny,20\n", &sa_config(&["q"], &["s"]));
    assert_eq!(of(&r, "t_closeness", "s").warnings, ["sa_generalized_treated_as_categorical"]);
    let _ = Value::Null;
}

fn verdict<'r>(r: &'r Report, id: &str) -> &'r pseudolens_core::metric::MetricResult {
    r.metric(id).unwrap_or_else(|| panic!("{id}"))
}

#[test]
fn g5_scorr_verdict() {
    let config = AuditConfig { person_id: Some("pid".into()), ..sa_config(&["age_band", "sex"], &["result"]) };
    let r = audit(&fixture("g5.csv"), &config);
    assert_eq!(verdict(&r, "verdict_scorr_extended").value["category"], json!("high"));
    assert_eq!(verdict(&r, "verdict_scorr_extended").value["bands"]["uf_qi"], json!("high"));
    assert_eq!(verdict(&r, "verdict_scorr_conventional").value["compliant"], json!(false));
    assert_eq!(verdict(&r, "verdict_scorr_final").value, json!("not_approved"));
}

#[test]
fn g6_scorr_bands() {
    let r = audit(&fixture("g6.csv"), &sa_config(&["age_band", "sex"], &["diagnosis"]));
    let ext = &verdict(&r, "verdict_scorr_extended").value;
    assert_eq!(ext["bands"], json!({ "uq_qi": "medium", "uf_qi": "low", "uf_age_band": "low", "uf_sex": "low", "co_age_band": "medium", "co_sex": "medium" }));
    assert_eq!(ext["category"], json!("medium"));
    assert_eq!(verdict(&r, "verdict_scorr_final").value, json!("not_approved"));
    assert!(verdict(&r, "verdict_scorr_conventional").details["reasons"][0].as_str().unwrap().contains("k = 3"));
}

#[test]
fn scorr_compliance_and_k_hint() {
    // 12 records in one class with three SA values: compliant, every band low.
    let csv = |values: &[&str]| format!("q,s\n{}", (0..12).map(|i| format!("x,{}\n", values[i % values.len()])).collect::<String>());
    let r = audit(csv(&["a", "b", "c"]).as_bytes(), &sa_config(&["q"], &["s"]));
    assert_eq!(verdict(&r, "verdict_scorr_conventional").value["compliant"], json!(true));
    assert_eq!(verdict(&r, "verdict_scorr_final").value, json!("eligible"));
    // A binary SA always bands at least medium on R_co (Sec 7 note).
    let r = audit(csv(&["a", "b"]).as_bytes(), &sa_config(&["q"], &["s"]));
    assert_eq!(verdict(&r, "verdict_scorr_final").value, json!("release_with_acknowledged_risk"));
    // G7.4: n = 5000 -> medium from k = 18, low from k = 289.
    let csv = format!("q\n{}", (0..5000).map(|i| format!("{}\n", i / 10)).collect::<String>());
    let r = audit(csv.as_bytes(), &qi(&["q"]));
    assert_eq!(verdict(&r, "verdict_scorr_extended").details["k_hint"], json!({ "medium_from_k": 18, "low_from_k": 289 }));
    assert_eq!(verdict(&r, "verdict_scorr_final").reason, Some("no_sensitive_attribute"));
}

#[test]
fn attribute_settings_are_checked() {
    let bad = |f: fn(&mut AuditConfig)| {
        let mut c = sa_config(&["q"], &["s"]);
        f(&mut c);
        pseudolens_core::Audit::new(c).err().map(|e| e.code)
    };
    assert_eq!(bad(|c| c.attribute.t_threshold = Some(-0.1)), Some("invalid_threshold"));
    assert_eq!(bad(|c| c.attribute.l_threshold = Some(0.5)), Some("invalid_threshold"));
    assert_eq!(bad(|c| c.scorr.scorr_t_max = 2.0), Some("invalid_threshold"));
    assert_eq!(bad(|c| c.attribute.beta_threshold = Some(1.0)), None);
    // k counted in persons without a person id: the final verdict says why.
    let mut c = sa_config(&["age_band", "sex"], &["diagnosis"]);
    c.scorr.scorr_k_basis = pseudolens_core::verdict::scorr::KBasis::Persons;
    let r = audit(&fixture("g6.csv"), &c);
    assert_eq!(verdict(&r, "verdict_scorr_final").reason, Some("k_unavailable"));
    let rows = verdict(&r, "verdict_scorr_extended").details["rows"].as_array().unwrap().clone();
    assert_eq!(rows[0]["kind"], json!("uniqueness"));
    assert!(rows.iter().any(|x| x["kind"] == json!("correlation") && x["attribute"] == json!("sex") && x["sensitive"] == json!("diagnosis")));
}

#[test]
fn near_ties_do_not_depend_on_row_order() {
    // Found by the row-order property: two classes whose t-closeness distances are equal but
    // summed in a different order picked a different worst class.
    let config = AuditConfig {
        missing_policy: pseudolens_core::identity::MissingPolicy::Wildcard,
        exclude_suppressed_rows: false,
        weight: Some("w".into()),
        ..sa_config(&["a", "b", "c"], &["s"])
    };
    let (a, b) = (audit(&fixture("near-tie.csv"), &config), audit(&fixture("near-tie-shuffled.csv"), &config));
    assert_eq!(of(&a, "t_closeness", "s").details["worst_class"], of(&b, "t_closeness", "s").details["worst_class"]);
}

/// SCORR's `R_co(i; {a})` when a QI's (value, SA value) pairs are too many for an array (1,100
/// values of `wide` x 1,000 SA values: counted in a hash table) beside QIs counted in arrays,
/// in two passes (`narrow` and `mid`, then `mid2`: 603,000 and 600,000 cells). Row `i`:
/// `wide = i mod 1100`, `narrow = i mod 3`, `mid = i mod 600`, `mid2 = (i + 1) mod 600`,
/// `sa = i mod 1000`. A value of `wide` holds 3 records (2 from 800 on), each with an SA value
/// of its own: 1/3 for 2,400 records and 1/2 for 600, mean 11/30. A value of `narrow` holds
/// each SA value once in 1,000; one of `mid` or `mid2` 5 records with 5 SA values.
#[test]
fn correlation_risk_of_a_qi_with_more_pairs_than_an_array_holds() {
    let mut csv = String::from("wide,narrow,mid,mid2,sa\n");
    for i in 0..3000 {
        csv.push_str(&format!("w{},n{},m{},m{},s{}\n", i % 1100, i % 3, i % 600, (i + 1) % 600, i % 1000));
    }
    let r = audit(csv.as_bytes(), &sa_config(&["wide", "narrow", "mid", "mid2"], &["sa"]));
    let spread = |attribute: &str| {
        let m = r.metrics.iter().find(|m| m.id == "scorr_correlation_risk_attr" && m.scope.attribute.as_deref() == Some(attribute)).unwrap();
        ["min", "mean", "max"].map(|k| m.value[k].as_f64().unwrap())
    };
    let [min, mean, max] = spread("wide");
    assert_close(min, 1.0 / 3.0, "wide min");
    assert_close(mean, 11.0 / 30.0, "wide mean");
    assert_close(max, 0.5, "wide max");
    for (attribute, share) in [("narrow", 0.001), ("mid", 0.2), ("mid2", 0.2)] {
        for x in spread(attribute) {
            assert_close(x, share, attribute);
        }
    }
}
