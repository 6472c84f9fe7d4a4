//! Golden values of SUDA and DIS-SUDA (peer-measures.md Sec G1): scores, DIS scores, MSUs and
//! the file-level summary of the G1 table, its variants (G1.3) and the padding to three QIs
//! (G1.4).

mod common;

use common::*;
use pseudolens_core::identity::suda::SudaWeights;
use pseudolens_core::table::classes::MissingPolicy;
use pseudolens_core::{AuditConfig, Report};
use serde_json::{Value, json};

/// The G1 table audited with SUDA on and its per-record lists in the report (`per_record`).
fn suda(qis: &[&str], change: impl FnOnce(&mut AuditConfig)) -> Report {
    let mut config = qi(qis);
    config.suda.suda = true;
    config.per_record = true;
    change(&mut config);
    audit(&fixture("suda_g1.csv"), &config)
}

/// Per row 1..=n, the value `per_record` gives (absent = 0).
fn per_row(r: &Report, id: &str, n: usize) -> Vec<f64> {
    let d = &r.metric(id).unwrap().details["per_record"];
    (1..=n).map(|row| d.get(row.to_string()).map_or(0.0, |v| v.as_f64().unwrap())).collect()
}

#[track_caller]
fn assert_all_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_close(*g, *w, &format!("{what}, row {}", i + 1));
    }
}

const QI: [&str; 4] = ["age", "sex", "zip", "job"];

#[test]
fn g1_1_scores_dis_and_msus() {
    let r = suda(&QI, |_| {});
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 3., 5., 0., 0., 0., 4., 8., 7., 4., 0.], "score");
    let dis = [0., 0., 0.01799270028, 0.03271555797, 0., 0., 0., 0.02522394245, 0.05611307618, 0.04820553918, 0.02522394245, 0.];
    let got = per_row(&r, "suda_dis_score", 12);
    for (i, (g, w)) in got.iter().zip(dis).enumerate() {
        // The spec prints 10 significant digits.
        assert!((g - w).abs() <= 5e-11 + 1e-9 * w, "dis row {}: {g} vs {w}", i + 1);
    }
    let score = r.metric("suda_score").unwrap();
    assert_eq!(score.details["weights"], json!([6.0, 2.0, 1.0, 1.0]));
    assert_eq!(score.details["q_eff"], json!(4));
    assert_eq!(score.details["msu_counts"]["9"], json!([1, 1, 0, 0]));
    assert_eq!(score.details["msu_counts"]["10"], json!([0, 3, 1, 0]));
    // MSUs of each scored record, smallest first.
    let msus: Vec<(u64, Value)> = score.details["top"].as_array().unwrap().iter().map(|t| (t["row"].as_u64().unwrap(), t["msus"].clone())).collect();
    let want = [
        (9, json!([["zip"], ["age", "job"]])),
        (10, json!([["age", "sex"], ["age", "zip"], ["age", "job"], ["sex", "zip", "job"]])),
        (4, json!([["age", "zip"], ["age", "job"], ["sex", "zip", "job"]])),
        (8, json!([["age", "zip"], ["age", "sex", "job"], ["sex", "zip", "job"]])),
        (11, json!([["age", "job"], ["zip", "job"]])),
        (3, json!([["age", "sex", "zip"], ["age", "sex", "job"], ["sex", "zip", "job"]])),
    ];
    assert_eq!(msus.len(), 6);
    for (row, sets) in want {
        let got = msus.iter().find(|m| m.0 == row).unwrap_or_else(|| panic!("row {row} listed"));
        assert_eq!(got.1, sets, "MSUs of row {row}");
    }
    // Highest score first.
    assert_eq!(msus[0].0, 9);
}

#[test]
fn g1_2_file_level() {
    let r = suda(&QI, |_| {});
    let s = value(&r, "suda_score");
    assert_close(s["min"].as_f64().unwrap(), 0.0, "min");
    assert_close(s["mean"].as_f64().unwrap(), 31.0 / 12.0, "mean");
    assert_close(s["max"].as_f64().unwrap(), 8.0, "max");
    assert_eq!(value(&r, "suda_msu_records"), &json!(6));
    assert_close(num(&r, "suda_msu_share"), 0.5, "share");
    assert_eq!(r.metric("suda_msu_records").unwrap().details["by_smallest_msu"], json!([1, 4, 1, 0]));
    let d = value(&r, "suda_dis_score");
    assert_close(d["mean"].as_f64().unwrap(), 0.01712289654, "mean dis");
    assert!((d["mean"].as_f64().unwrap() - 0.01712289654).abs() < 5e-11);
    assert_close(d["max"].as_f64().unwrap(), 0.05611307618, "max dis");
    let details = &r.metric("suda_dis_score").unwrap().details;
    assert_close(details["dis_file"].as_f64().unwrap(), 0.07 / 2.05, "dis_file");
    assert_eq!(details["u1"], json!(7));
    assert_eq!(details["p2"], json!(2));
    assert_close(details["q_exponent"].as_f64().unwrap(), 1.2, "Q");
    assert_eq!(details["histogram"], json!([6, 6, 0, 0, 0, 0, 0, 0, 0]));
    // MSUs by size: 1 of size 1, 9 of size 2, 7 of size 3.
    assert_eq!(r.metric("suda_score").unwrap().details["msu_total_by_size"], json!([1, 9, 7, 0]));
}

#[track_caller]
fn check_dis(r: &Report, want: &[(usize, f64)]) {
    let got = per_row(r, "suda_dis_score", 12);
    for &(row, w) in want {
        let g = got[row - 1];
        assert!((g - w).abs() <= 5e-11 + 1e-9 * w, "dis row {row}: {g} vs {w}");
    }
}

#[test]
fn g1_3_variants() {
    let r = suda(&QI, |c| c.suda.suda_max_size = Some(2));
    assert_eq!(r.metric("suda_score").unwrap().details["weights"], json!([3.0, 1.0]));
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 0., 2., 0., 0., 0., 1., 4., 3., 2., 0.], "M = 2");
    check_dis(&r, &[(4, 0.02629692005), (8, 0.01161894669), (9, 0.05842126781), (10, 0.04208383928), (11, 0.02629692005)]);

    let r = suda(&QI, |c| c.suda.suda_max_size = Some(3));
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 3., 5., 0., 0., 0., 4., 8., 7., 4., 0.], "M = 3");
    assert_eq!(r.metric("suda_score").unwrap().details["weights"], json!([6.0, 2.0, 1.0]));
    check_dis(&r, &[(3, 0.01799270028), (9, 0.05611307618)]);

    let r = suda(&QI, |c| c.suda.suda_weights = SudaWeights::Ihsn);
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 0.75, 1.25, 0., 0., 0., 1., 2.25, 1.75, 1., 0.], "ihsn");
    check_dis(&r, &[(3, 0.01779481058), (4, 0.03236107753), (8, 0.02494854171), (11, 0.02494854171), (9, 0.06341388571), (10, 0.04769149646)]);

    let r = suda(&QI, |c| c.suda.suda_blank_in_msu = true);
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 3., 5., 0., 0., 0., 4., 8., 7., 4., 6.], "blank in MSU");
    check_dis(&r, &[(3, 0.02010809639), (12, 0.04502173933)]);

    let r = suda(&QI, |c| c.missing_policy = MissingPolicy::Drop);
    assert_all_close(&per_row(&r, "suda_score", 11), &[0., 0., 3., 5., 0., 0., 0., 4., 8., 7., 8.], "drop");
    let details = &r.metric("suda_dis_score").unwrap().details;
    assert_eq!((details["u1"].clone(), details["p2"].clone()), (json!(6), json!(2)));
    check_dis(&r, &[(11, 0.0502389683)]);

    let r = suda(&QI, |c| c.missing_policy = MissingPolicy::Wildcard);
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 3., 4., 0., 0., 0., 4., 8., 5., 0., 0.], "wildcard");
    let details = &r.metric("suda_dis_score").unwrap().details;
    assert_eq!((details["u1"].clone(), details["p2"].clone()), (json!(5), json!(4)));
    check_dis(&r, &[(9, 0.02606290136)]);
}

#[test]
fn g1_4_padding_to_three_qis() {
    let r = suda(&["age", "sex"], |_| {});
    assert_all_close(&per_row(&r, "suda_score", 12), &[0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 0., 0.], "q = 2");
    let m = r.metric("suda_score").unwrap();
    assert_eq!(m.warnings, ["suda_padded_to_three_qis"]);
    assert_eq!(m.details["weights"], json!([2.0, 1.0]));
    let details = &r.metric("suda_dis_score").unwrap().details;
    assert_eq!((details["u1"].clone(), details["p2"].clone()), (json!(1), json!(8)));
    assert_close(details["q_exponent"].as_f64().unwrap(), 1.25, "Q");
    assert_close(per_row(&r, "suda_dis_score", 12)[9], 1.0 / 793.0, "dis(10)");
}

#[test]
fn parameters_out_of_range_are_errors() {
    for change in [
        (|c: &mut AuditConfig| c.suda.suda_max_size = Some(5)) as fn(&mut AuditConfig),
        |c| c.suda.suda_max_size = Some(0),
        |c| c.suda.dis_fraction = 0.0,
        |c| c.suda.dis_fraction = 1.5,
    ] {
        let r = suda(&QI, change);
        let m = r.metric("suda_score").unwrap();
        assert_eq!((m.status, m.reason), (pseudolens_core::metric::Status::Error, Some("invalid_parameter")));
    }
}

#[test]
fn record_level_lists_follow_per_record() {
    // Without `per_record` the report keeps the summaries, `top` and the histogram, not the
    // lists as long as the file (docs/decisions/suda/per-record-follows-setting.md); the per-record table keeps the scores.
    let mut config = qi(&QI);
    config.suda.suda = true;
    config.keep_records = true;
    let r = audit(&fixture("suda_g1.csv"), &config);
    let (score, dis) = (&r.metric("suda_score").unwrap().details, &r.metric("suda_dis_score").unwrap().details);
    assert_eq!((score.get("per_record"), score.get("msu_counts"), dis.get("per_record")), (None, None, None));
    assert_eq!((score["top"].as_array().unwrap().len(), score["msu_total_by_size"].clone()), (6, json!([1, 9, 7, 0])));
    assert!(!r.warnings.iter().any(|w| w.code == "record_level_values"));
    let mut csv = Vec::new();
    r.per_record.as_ref().unwrap().write_csv(&mut csv).unwrap();
    // Row 9's score is 8 (G1.1), its DIS 0.05611307618.
    let row9 = String::from_utf8(csv).unwrap().lines().nth(9).unwrap().to_string();
    assert!(row9.starts_with("9,1,1,1,8,0.0561130761"), "{row9}");
    // With it, the three lists and the warning of a record-level report.
    config.per_record = true;
    let r = audit(&fixture("suda_g1.csv"), &config);
    let (score, dis) = (&r.metric("suda_score").unwrap().details, &r.metric("suda_dis_score").unwrap().details);
    assert_eq!((score["per_record"]["9"].clone(), score["msu_counts"]["9"].clone()), (json!(8.0), json!([1, 1, 0, 0])));
    assert_eq!(dis["per_record"].as_object().unwrap().len(), 6);
    assert!(r.warnings.iter().any(|w| w.code == "record_level_values"));
}

#[test]
fn off_by_default() {
    let r = audit(&fixture("suda_g1.csv"), &qi(&QI));
    assert!(r.metric("suda_score").is_none());
}
