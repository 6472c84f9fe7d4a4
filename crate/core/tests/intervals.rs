//! Confidence intervals through the whole audit (issue 15, Deliver 1; docs/ci.md): the
//! settings `ci_level`, `ci_seed`, `ci_replicates` round-trip and are checked; the intervals of
//! the population-uniqueness estimators, their curve and the weighted risk do not depend on the
//! order of the rows or on how the bytes are cut, and a 99 % interval holds the 90 % one.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::{AuditConfig, ErrorKind, Report};
use serde_json::Value;

/// Ids whose `details.ci` is checked (all with a number value here).
const WITH_CI: [&str; 5] = ["population_uniqueness_zayatz", "population_uniqueness_dankar", "global_risk", "global_risk_er", "sdc_individual_risk"];

fn config(level: f64) -> AuditConfig {
    let mut c = qi(&["a", "b"]);
    c.weight = Some("w".into());
    c.sampling_fraction = Some(0.1);
    c.ci.ci_level = level;
    c
}

fn csv(rows: &[(u8, u8, u8)]) -> Vec<u8> {
    let mut s = String::from("a,b,w\n");
    for (a, b, w) in rows {
        s.push_str(&format!("a{a},b{b},{}\n", 5 + *w as u32 * 3));
    }
    s.into_bytes()
}

fn ci<'r>(r: &'r Report, id: &str) -> &'r Value {
    &r.metric(id).unwrap_or_else(|| panic!("no metric {id}")).details["ci"]
}

#[test]
fn settings_round_trip_and_checks() {
    let c: AuditConfig = serde_json::from_str(r#"{"quasi_identifiers": ["a"], "ci_level": 0.9, "ci_seed": 7, "ci_replicates": 50}"#).unwrap();
    assert_eq!((c.ci.ci_level, c.ci.ci_seed, c.ci.ci_replicates), (0.9, 7, 50));
    let back: AuditConfig = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
    assert_eq!(back, c);
    let defaults = serde_json::to_value(AuditConfig::default()).unwrap();
    assert_eq!((defaults["ci_level"].as_f64(), defaults["ci_seed"].as_u64(), defaults["ci_replicates"].as_u64()), (Some(0.95), Some(15), Some(200)));
    for bad in [r#"{"ci_level": 1.0}"#, r#"{"ci_level": 0}"#, r#"{"ci_replicates": 100000}"#] {
        let c: AuditConfig = serde_json::from_str(bad).unwrap();
        let err = audit_chunked(b"a\n1\n", &c, 100).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Config, "{bad}");
    }
    // The report names the settings it ran with.
    let r = audit(&csv(&[(1, 1, 1), (1, 2, 2), (2, 2, 3)]), &config(0.8));
    assert_eq!(r.params.ci.ci_level, 0.8);
    assert_eq!(ci(&r, "population_uniqueness_zayatz")["level"].as_f64(), Some(0.8));
    assert_eq!(ci(&r, "population_uniqueness_zayatz")["seed"].as_u64(), Some(15));
}

#[test]
fn no_replicates_no_interval() {
    let mut c = config(0.95);
    c.ci.ci_replicates = 0;
    let r = audit(&csv(&[(1, 1, 1), (1, 2, 2), (2, 2, 3), (3, 1, 1)]), &c);
    for m in &r.metrics {
        assert!(m.details.get("ci").is_none(), "{}", m.id);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn intervals_ignore_row_order_and_chunks_and_nest(
        rows in prop::collection::vec((0u8..6, 0u8..4, 0u8..5), 8..60),
        chunk in 1usize..64,
    ) {
        let bytes = csv(&rows);
        let mut reversed = rows;
        reversed.reverse();
        let (a, b) = (audit(&bytes, &config(0.95)), audit(&csv(&reversed), &config(0.95)));
        let c = audit_chunked(&bytes, &config(0.95), chunk).unwrap();
        for id in WITH_CI {
            prop_assert!(same(ci(&a, id), ci(&b, id)), "{}: {} vs {}", id, ci(&a, id), ci(&b, id));
            prop_assert!(same(ci(&a, id), ci(&c, id)), "{}", id);
        }
        let curve = |r: &Report| r.metric("population_uniqueness_curve").unwrap().details["ci"].clone();
        prop_assert!(same(&curve(&a), &curve(&b)));
        let (wide, narrow) = (audit(&bytes, &config(0.99)), audit(&bytes, &config(0.9)));
        for id in WITH_CI {
            let ends = |r: &Report| (ci(r, id)["low"].as_f64(), ci(r, id)["high"].as_f64());
            if let ((Some(wl), Some(wh)), (Some(nl), Some(nh))) = (ends(&wide), ends(&narrow)) {
                prop_assert!(wl <= nl + 1e-12 && nl <= nh && nh <= wh + 1e-12, "{}: [{}, {}] vs [{}, {}]", id, wl, wh, nl, nh);
            }
        }
    }
}
