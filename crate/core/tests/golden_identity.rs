//! Golden values of spec golden.md G1 (identity), G5 (event-level k) and G7.3 ([HCT]
//! examples), plus the ARX oracle of G8 on adult.csv.

mod common;

use common::*;
use pseudolens_core::AuditConfig;
use pseudolens_core::identity::MissingPolicy;
use serde_json::json;

fn g1(policy: MissingPolicy, exclude_suppressed_rows: bool) -> pseudolens_core::Report {
    let config = AuditConfig { missing_policy: policy, exclude_suppressed_rows, ..qi(&["age", "zip", "sex"]) };
    audit(&fixture("g1.csv"), &config)
}

/// One column of the G1.2 table.
struct G1Column {
    setting: (MissingPolicy, bool),
    counts: [u64; 5],
    histogram: Option<serde_json::Value>,
    percentiles: [f64; 3],
    uniques: u64,
    uniqueness: f64,
    rare: f64,
    violators: [u64; 4],
    r_internal: f64,
    class_mean: f64,
    at_risk: f64,
    affected_highest: f64,
    affected_lowest: f64,
}

#[test]
fn g1_identity_metrics_under_every_policy() {
    let columns = [
        G1Column {
            setting: (MissingPolicy::Ordinary, true),
            counts: [18, 17, 1, 0, 7],
            histogram: Some(json!([[1, 3, 3], [2, 1, 2], [3, 1, 3], [4, 1, 4], [5, 1, 5]])),
            percentiles: [1.0, 4.0, 5.0],
            uniques: 3,
            uniqueness: 3.0 / 17.0,
            rare: 8.0 / 17.0,
            violators: [3, 5, 12, 17],
            r_internal: 7.0 / 17.0,
            class_mean: 0.611_904_761_904_762,
            at_risk: 12.0 / 17.0,
            affected_highest: 3.0 / 17.0,
            affected_lowest: 5.0 / 17.0,
        },
        G1Column {
            setting: (MissingPolicy::Wildcard, true),
            counts: [18, 17, 1, 0, 7],
            histogram: None,
            percentiles: [1.0, 4.0, 5.0],
            uniques: 2,
            uniqueness: 2.0 / 17.0,
            rare: 8.0 / 17.0,
            violators: [2, 2, 12, 17],
            r_internal: 6.0 / 17.0,
            class_mean: 0.4928571428571429,
            at_risk: 12.0 / 17.0,
            affected_highest: 2.0 / 17.0,
            affected_lowest: 5.0 / 17.0,
        },
        G1Column {
            setting: (MissingPolicy::Drop, true),
            counts: [18, 16, 1, 1, 6],
            histogram: Some(json!([[1, 2, 2], [2, 1, 2], [3, 1, 3], [4, 1, 4], [5, 1, 5]])),
            percentiles: [1.0, 4.0, 5.0],
            uniques: 2,
            uniqueness: 0.125,
            rare: 0.4375,
            violators: [2, 4, 11, 16],
            r_internal: 0.375,
            class_mean: 0.5472222222222222,
            at_risk: 0.6875,
            affected_highest: 2.0 / 16.0,
            affected_lowest: 5.0 / 16.0,
        },
        G1Column {
            setting: (MissingPolicy::Ordinary, false),
            counts: [18, 18, 1, 0, 8],
            histogram: Some(json!([[1, 4, 4], [2, 1, 2], [3, 1, 3], [4, 1, 4], [5, 1, 5]])),
            percentiles: [1.0, 3.0, 5.0],
            uniques: 4,
            uniqueness: 4.0 / 18.0,
            rare: 0.5,
            violators: [4, 6, 13, 18],
            r_internal: 8.0 / 18.0,
            class_mean: 0.6604166666666667,
            at_risk: 13.0 / 18.0,
            affected_highest: 4.0 / 18.0,
            affected_lowest: 5.0 / 18.0,
        },
    ];
    for c in columns {
        let r = g1(c.setting.0, c.setting.1);
        let what = format!("{:?}", c.setting);
        let ids = ["n_records_total", "n_records", "n_suppressed_records", "n_dropped_records", "n_classes"];
        for (id, want) in ids.iter().zip(c.counts) {
            assert_eq!(value(&r, id), &json!(want), "{what} {id}");
        }
        assert_eq!(value(&r, "k_anonymity"), &json!(1), "{what}");
        assert_eq!(value(&r, "max_class_size"), &json!(5), "{what}");
        match &c.histogram {
            Some(h) => assert_eq!(value(&r, "class_size_histogram"), h, "{what}"),
            None => assert_eq!(r.metric("class_size_histogram").unwrap().reason, Some("wildcard_classes_overlap")),
        }
        let p = value(&r, "ec_size_percentiles");
        for (key, want) in ["p5", "p50", "p95"].iter().zip(c.percentiles) {
            assert_eq!(p[key].as_f64(), Some(want), "{what} {key}");
        }
        assert_eq!(value(&r, "sample_uniques"), &json!(c.uniques), "{what}");
        assert_close(num(&r, "sample_uniqueness"), c.uniqueness, &what);
        assert_close(num(&r, "rare_combination_rate"), c.rare, &what);
        let v = value(&r, "k_violators").as_array().unwrap();
        for (entry, want) in v.iter().zip(c.violators) {
            assert_eq!(entry["records"], json!(want), "{what} violators at {}", entry["k"]);
        }
        assert_close(num(&r, "r_internal"), c.r_internal, &what);
        assert_close(num(&r, "prosecutor_success_rate"), c.r_internal, &what);
        assert_close(num(&r, "avg_risk_class_mean"), c.class_mean, &what);
        assert_close(num(&r, "prosecutor_highest_risk"), 1.0, &what);
        assert_close(num(&r, "prosecutor_lowest_risk"), 0.2, &what);
        assert_close(num(&r, "prosecutor_records_at_risk"), c.at_risk, &what);
        assert_close(num(&r, "prosecutor_records_affected_by_highest_risk"), c.affected_highest, &what);
        assert_close(num(&r, "prosecutor_records_affected_by_lowest_risk"), c.affected_lowest, &what);
        let rr = value(&r, "record_risk");
        assert_close(rr["mean"].as_f64().unwrap(), c.r_internal, &what);
    }
}

fn nonempty_bins(r: &pseudolens_core::Report) -> Vec<(f64, f64)> {
    let d = value(r, "risk_distribution").as_array().unwrap();
    assert_eq!(d.len(), 24);
    assert_eq!(d[23][2].as_f64(), Some(1.0), "cumulative share ends at 1");
    d.iter().filter(|b| b[1].as_f64().unwrap() > 0.0).map(|b| (b[0].as_f64().unwrap(), b[1].as_f64().unwrap())).collect()
}

#[test]
fn g1_risk_distribution() {
    let want = [(0.2, 5.0), (0.25, 4.0), (0.334, 3.0), (0.5, 2.0), (1.0, 3.0)];
    let got = nonempty_bins(&g1(MissingPolicy::Ordinary, true));
    assert_eq!(got.len(), want.len());
    for ((e, s), (we, ws)) in got.iter().zip(want) {
        assert_eq!(*e, we);
        assert_close(*s, ws / 17.0, "share");
    }
    let want = [(0.2, 5.0), (0.25, 4.0), (0.334, 6.0), (1.0, 2.0)];
    let got = nonempty_bins(&g1(MissingPolicy::Wildcard, true));
    for ((e, s), (we, ws)) in got.iter().zip(want) {
        assert_eq!(*e, we);
        assert_close(*s, ws / 17.0, "wildcard share");
    }
}

#[test]
fn g1_wildcard_alpha_half_gives_fractional_class_sizes() {
    let config = AuditConfig { missing_policy: MissingPolicy::Wildcard, wildcard_alpha: 0.5, ..qi(&["age", "zip", "sex"]) };
    let r = audit(&fixture("g1.csv"), &config);
    // f = 5 x5, 4 x4, 3 x3, 2.5 x2, 1, 1, 3: R_int = (1+1+1+2/2.5+1+1+1/3)/17.
    assert_close(num(&r, "r_internal"), (5.0 + 0.8 + 1.0 / 3.0) / 17.0, "r_internal");
    let top = &r.metric("record_risk").unwrap().details["top"];
    let f: Vec<f64> = top.as_array().unwrap().iter().map(|c| c["f"].as_f64().unwrap()).collect();
    assert_eq!(f, [1.0, 1.0, 2.5, 3.0, 3.0, 4.0, 5.0]);
}

#[test]
fn riskiest_classes_name_their_values() {
    let r = g1(MissingPolicy::Ordinary, true);
    let top = r.metric("record_risk").unwrap().details["top"].as_array().unwrap().clone();
    assert_eq!(top.len(), 7);
    // Ties on size are ordered by value, a MISSING cell (null) first.
    assert_eq!(top[0]["values"], json!({"age": "40-49", "zip": "148**", "sex": null}));
    assert_eq!(top[1]["values"], json!({"age": "50-59", "zip": "148**", "sex": "F"}));
    assert_eq!(top[6]["size"], json!(5));
}

#[test]
fn hct_example_classes_1_2_3_4_10() {
    // golden.md G7.3: classes f = {1,2,3,4,10}, n = 20, tau 0.2.
    let mut csv = String::from("q\n");
    for (class, size) in [1, 2, 3, 4, 10].iter().enumerate() {
        for _ in 0..*size {
            csv.push_str(&format!("c{class}\n"));
        }
    }
    let r = audit(csv.as_bytes(), &qi(&["q"]));
    assert_close(num(&r, "prosecutor_highest_risk"), 1.0, "highest");
    assert_close(num(&r, "prosecutor_lowest_risk"), 0.1, "lowest");
    assert_close(num(&r, "prosecutor_success_rate"), 0.25, "success");
    assert_close(num(&r, "prosecutor_records_at_risk"), 0.5, "at risk");
    assert_close(num(&r, "sample_uniqueness"), 0.05, "uniqueness");
    let bins = nonempty_bins(&r);
    assert_eq!(bins, [(0.1, 0.5), (0.25, 0.2), (0.334, 0.15), (0.5, 0.1), (1.0, 0.05)]);
}

#[test]
fn g5_event_level_k_is_record_based() {
    let csv = "rid,pid,age_band,sex,result\n1,p1,30-39,F,pass\n2,p1,30-39,F,pass\n3,p2,30-39,F,fail\n4,p3,30-39,M,pass\n5,p3,30-39,M,fail\n6,p4,30-39,M,pass\n7,p5,40-49,F,fail\n8,p5,40-49,F,fail\n9,p6,40-49,F,pass\n";
    let r = audit(csv.as_bytes(), &qi(&["age_band", "sex"]));
    assert_eq!(value(&r, "k_anonymity"), &json!(3));
}

#[test]
fn edge_cases_all_unique_one_class_and_no_records() {
    let r = audit(b"a\n1\n2\n3\n", &qi(&["a"]));
    assert_eq!((value(&r, "k_anonymity"), value(&r, "sample_uniques")), (&json!(1), &json!(3)));
    assert_close(num(&r, "r_internal"), 1.0, "all unique");
    let r = audit(b"a,b\nx,1\nx,2\nx,3\nx,4\n", &qi(&["a"]));
    assert_eq!(value(&r, "k_anonymity"), &json!(4), "single class: k = n");
    assert_close(num(&r, "r_internal"), 0.25, "single class");
    assert_close(num(&r, "prosecutor_records_at_risk"), 1.0, "1/4 > 0.2");
    let r = audit(b"a,b\n", &qi(&["a"]));
    assert_eq!(value(&r, "n_records"), &json!(0));
    let k = r.metric("k_anonymity").unwrap();
    assert_eq!((k.value.is_null(), k.status), (true, pseudolens_core::metric::Status::EmptyInput));
    let r = audit(b"a,b\n*,x\n*,y\n", &qi(&["a"]));
    assert_eq!((value(&r, "n_suppressed_records"), value(&r, "n_records")), (&json!(2), &json!(0)));
}

#[test]
fn g8_adult_matches_arx() {
    let path = shared("data/adult/adult.csv");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cols = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation", "salary-class"];
    let r = audit(&bytes, &qi(&cols));
    assert_eq!(r.input.delimiter, ";");
    assert_eq!(value(&r, "n_records"), &json!(30_162));
    assert_eq!(value(&r, "n_classes"), &json!(19_502));
    assert_eq!(value(&r, "sample_uniques"), &json!(15_512));
    assert_close(num(&r, "r_internal"), 0.6465751607983555, "r_internal");
    assert_close(num(&r, "sample_uniqueness"), 0.5142895033485844, "sample_uniqueness");
}
