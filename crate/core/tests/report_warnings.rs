//! What the report says of itself: every warning a metric carries is listed in the report's
//! warnings (the page and the JSON show the same list), and a table whose quasi-identifiers
//! are all blank gets no verdict.

mod common;

use common::{audit, qi};
use pseudolens_core::metric::Status;

#[test]
fn every_metric_warning_is_in_the_report() {
    let report = audit(&common::fixture("g1.csv"), &qi(&["age", "sex", "zip"]));
    let listed: Vec<&str> = report.warnings.iter().map(|w| w.code).collect();
    let carried: Vec<&str> = report.metrics.iter().flat_map(|m| m.warnings.iter().copied()).collect();
    assert!(carried.contains(&"no_population_table"), "the fixture has a metric warning: {carried:?}");
    for code in &carried {
        assert_eq!(listed.iter().filter(|c| *c == code).count(), 1, "{code} listed once in {listed:?}");
    }
    let w = report.warnings.iter().find(|w| w.code == "no_population_table").unwrap();
    assert!(w.message.contains("journalist_highest_risk"), "names its metrics: {}", w.message);
}

const BLANK_QIS: &[u8] = b"id,age,sex,diag\n1,,,flu\n2,,,cold\n3,,,flu\n4,,,asthma\n5,,,flu\n6,,,cold\n";

#[test]
fn every_quasi_identifier_blank_gets_no_verdict() {
    let mut config = qi(&["age", "sex"]);
    config.sensitive = vec!["diag".into()];
    let report = audit(BLANK_QIS, &config);
    for id in ["verdict_arx_thresholds", "verdict_scorr_final"] {
        let m = report.metric(id).unwrap();
        assert_eq!((m.status, m.reason), (Status::NotApplicable, Some("quasi_identifiers_all_blank")), "{id}");
        assert!(m.value.is_null());
    }
    let w = report.warnings.iter().find(|w| w.code == "quasi_identifiers_all_blank").expect("a warning says why");
    assert!(w.message.contains("age, sex"), "{}", w.message);
    // k itself is still reported: the whole file is one class of blanks.
    assert_eq!(report.metric("k_anonymity").unwrap().value, 6);
}

#[test]
fn one_quasi_identifier_with_values_keeps_the_verdict() {
    let data = b"id,age,sex\n1,30,\n2,30,\n3,40,\n4,40,\n5,30,\n6,40,\n";
    let report = audit(data, &qi(&["age", "sex"]));
    assert_eq!(report.metric("verdict_arx_thresholds").unwrap().status, Status::Ok);
    assert!(report.warnings.iter().all(|w| w.code != "quasi_identifiers_all_blank"));
}

#[test]
fn columns_without_values_make_one_warning_of_bounded_length() {
    let names: Vec<String> = (0..500).map(|j| format!("e{j}")).collect();
    let header = format!("age,{}\n", names.join(","));
    let row = format!("30{}\n", ",".repeat(names.len()));
    let report = audit(format!("{header}{row}{row}").as_bytes(), &qi(&["age"]));
    let w: Vec<_> = report.warnings.iter().filter(|w| w.code == "column_without_values").collect();
    assert_eq!(w.len(), 1, "one warning for every empty column");
    assert!(w[0].message.starts_with("500 columns have no value in any row: \"e0\", \"e1\""), "{}", w[0].message);
    assert!(w[0].message.ends_with("and 480 more"), "{}", w[0].message);
}
