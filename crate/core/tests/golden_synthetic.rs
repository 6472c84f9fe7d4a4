//! The synthetic measures compared per distinct value (spec synthetic.md Sec 2-8) against the
//! worked example of Sec 13 (values obtained by running sdnist 2.4), and their properties: the
//! order of the rows of either table and the cutting of the release into chunks do not
//! change them; the report without the setting has none of them.

mod common;

use common::fixture;
use proptest::prelude::*;
use pseudolens_core::metric::{MetricResult, Status};
use pseudolens_core::table::kind::Kind;
use pseudolens_core::utility::attribute::AttributeSettings;
use pseudolens_core::{Audit, AuditConfig, CapMethod, Original, Report, SyntheticParams, shareable};
use serde_json::{Value, json};

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn config(params: SyntheticParams) -> AuditConfig {
    AuditConfig { quasi_identifiers: names(&["SEX", "RACE"]), synthetic: Some(params), ..AuditConfig::default() }
}

/// Sec 13's settings: AGE binned, grouped by G; the regression of AGE on EDU, by SEX.
fn example() -> SyntheticParams {
    SyntheticParams {
        kmarg_binned: names(&["AGE"]),
        kmarg_group_by: Some("G".into()),
        linreg_x: Some("EDU".into()),
        linreg_y: Some("AGE".into()),
        linreg_groups: names(&["SEX"]),
        ..SyntheticParams::default()
    }
}

fn audit(o: &[u8], p: &[u8], config: &AuditConfig, chunk: usize) -> Report {
    let mut original = Original::new(config, None);
    original.push(o).unwrap();
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(original.finish().unwrap());
    for piece in p.chunks(chunk.max(1)) {
        a.push(piece).unwrap();
    }
    a.finish().unwrap()
}

fn synthetic(report: &Report) -> Vec<MetricResult> {
    report.metrics.iter().filter(|m| m.family == "synthetic").cloned().collect()
}

fn metric<'a>(ms: &'a [MetricResult], id: &str) -> &'a MetricResult {
    ms.iter().find(|m| m.id == id).unwrap_or_else(|| panic!("no {id}"))
}

/// Sec 15: k-marginal within 1e-6 on the 0-1000 scale.
#[track_caller]
fn kmarg_close(got: &Value, expected: f64) {
    let got = got.as_f64().unwrap_or_else(|| panic!("not a number: {got}"));
    assert!((got - expected).abs() <= 1e-6, "got {got}, expected {expected}");
}

fn run(params: SyntheticParams) -> Vec<MetricResult> {
    synthetic(&audit(&fixture("synthetic/original.csv"), &fixture("synthetic/released.csv"), &config(params), usize::MAX))
}

#[test]
fn k_marginal_of_the_worked_example() {
    let ms = run(example());
    let k = metric(&ms, "k_marginal");
    assert_eq!(k.status, Status::Ok);
    // Grouped by G: overall 541.667, the headline; ungrouped 708.333.
    kmarg_close(&k.value, 1625.0 / 3.0);
    kmarg_close(&k.details["score_grouped"], 1625.0 / 3.0);
    kmarg_close(&k.details["score_ungrouped"], 2125.0 / 3.0);
    assert_eq!(k.details["binned"], json!(["AGE"]));
    let l1: Vec<(Value, f64)> = k.details["pairs"].as_array().unwrap().iter().map(|p| (p["columns"].clone(), p["l1"].as_f64().unwrap())).collect();
    let expected =
        [(["AGE", "EDU"], 0.75), (["AGE", "RACE"], 1.0), (["AGE", "SEX"], 0.25), (["EDU", "RACE"], 0.75), (["EDU", "SEX"], 0.25), (["RACE", "SEX"], 0.5)];
    assert_eq!(l1.len(), expected.len());
    for ((columns, got), (want_columns, want)) in l1.iter().zip(expected) {
        assert_eq!(*columns, json!(want_columns));
        assert!((got - want).abs() <= 1e-12, "{columns}: {got} vs {want}");
    }
    // Per group: A 333.333, B 83.333.
    let groups = k.details["groups"].as_array().unwrap();
    assert_eq!(groups.iter().map(|g| g["group"].clone()).collect::<Vec<_>>(), [json!("A"), json!("B")]);
    kmarg_close(&groups[0]["score"], 1000.0 / 3.0);
    kmarg_close(&groups[1]["score"], 250.0 / 3.0);
    assert_eq!((groups[0]["rows"].as_u64(), groups[1]["rows"].as_u64()), (Some(4), Some(4)));
}

#[test]
fn k_marginal_without_binning_or_group() {
    // Sec 13: AGE has 6 values in O, so the default rule leaves it unbinned: 645.833.
    let ms = run(SyntheticParams { kmarg_exclude: names(&["G"]), ..SyntheticParams::default() });
    let k = metric(&ms, "k_marginal");
    kmarg_close(&k.value, 7750.0 / 12.0);
    assert_eq!(k.details["score_grouped"], Value::Null);
    assert_eq!(k.details["binned"], json!([]));
}

#[test]
fn the_sampling_equivalent_is_seeded_and_scores_every_size() {
    // Sec 2.5 on the worked example (n_O = 8): sizes round half to even (1 % -> 0 rows, 5 % ->
    // 0, 10 % -> 1, 20 % -> 2, 30 % -> 2, 40 % -> 3, 50 % -> 4, 60 % -> 5, 70 % -> 6, 80 % -> 6,
    // 90 % -> 7); each group gets the mean of 5 samples of 40 %; a seed repeats them.
    let k = |seed| metric(&run(SyntheticParams { kmarg_seed: seed, ..example() }), "k_marginal").details.clone();
    let d = k(0);
    let s = &d["sampling_equivalent"];
    assert_eq!(s["stochastic"], json!(true));
    let rows: Vec<u64> = s["samples"].as_array().unwrap().iter().map(|x| x["rows"].as_u64().unwrap()).collect();
    assert_eq!(rows, [0, 0, 1, 2, 2, 3, 4, 5, 6, 6, 7]);
    let percents: Vec<u64> = s["samples"].as_array().unwrap().iter().map(|x| x["percent"].as_u64().unwrap()).collect();
    assert!(percents.contains(&s["equivalent_percent"].as_u64().unwrap()));
    for g in d["groups"].as_array().unwrap() {
        let v = g["sample_score"].as_f64().unwrap();
        assert!((0.0..=1000.0).contains(&v));
    }
    assert_eq!(d, k(0));
    assert_ne!(d["sampling_equivalent"]["samples"], k(1)["sampling_equivalent"]["samples"]);
}

#[test]
fn measures_names_the_ones_computed_and_an_unknown_name_is_refused() {
    let ms = run(SyntheticParams { measures: names(&["unique_exact_matches"]), ..example() });
    assert_eq!(ms.iter().map(|m| m.id).collect::<Vec<_>>(), ["unique_exact_matches"]);
    let bad = SyntheticParams { measures: names(&["k_marginals"]), ..example() };
    let e = bad.check().unwrap_err();
    assert!(e.to_string().contains("\"k_marginals\""), "{e}");
}

#[test]
fn unique_exact_matches_of_the_worked_example() {
    let ms = run(example());
    let u = metric(&ms, "unique_exact_matches");
    // 8 unique target records (100 %); 3 matched exactly (rows 1, 3, 6): 37.5 %.
    assert_eq!(u.value, json!(37.5));
    assert_eq!((u.details["unique_target_records"].as_u64(), u.details["matched"].as_u64()), (Some(8), Some(3)));
    assert_eq!(u.details["pct_unique"], json!(100.0));
}

#[test]
fn apparent_match_of_the_worked_example() {
    let ms = run(example());
    let a = metric(&ms, "apparent_match");
    // Q = {SEX, RACE}: 3 unique in O, 2 in P, 1 pair (SEX 1, RACE 2), 12.5 % of O; G and EDU
    // agree, AGE does not (36 vs 35): 66.67 %.
    assert_eq!(a.value, json!(12.5));
    assert_eq!(a.details["matched"], json!(1));
    assert_eq!((a.details["unique_original"].as_u64(), a.details["unique_released"].as_u64()), (Some(3), Some(2)));
    assert_eq!(a.details["compared"], json!(["G", "EDU", "AGE"]));
    let record = &a.details["records"][0];
    assert_eq!(record["quasi"], json!(["1", "2"]));
    assert_eq!((record["row_original"].as_u64(), record["row_released"].as_u64()), (Some(2), Some(2)));
    assert!((record["match_pct"].as_f64().unwrap() - 200.0 / 3.0).abs() <= 1e-9);
    assert_eq!(a.details["histogram"], json!([0, 0, 0, 0, 0, 0, 1, 0, 0, 0]));
}

#[test]
fn pmse_of_the_worked_example() {
    let ms = run(example());
    let m = metric(&ms, "pmse");
    assert_eq!(m.status, Status::Ok);
    // Sec 13: G coded A=0, B=1, c = 1/2; the reference tree gives 25/192 (inside sklearn's
    // envelope {0.09375, 0.0989583, 0.125, 0.1302083} over random_state 0..49).
    let v = m.value.as_f64().unwrap();
    assert!((v - 25.0 / 192.0).abs() <= 1e-12, "pMSE {v}");
    assert_eq!((m.details["c"].as_f64(), m.details["max"].as_f64()), (Some(0.5), Some(0.25)));
    assert_eq!((m.details["n_original"].as_u64(), m.details["n_released"].as_u64()), (Some(8), Some(8)));
    let count = |key: &str| m.details["histogram"][key].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>();
    assert_eq!((count("original"), count("released")), (8, 8));
    assert_eq!(m.details["null"]["extension"], json!(true));
    assert_eq!(m.details["null"]["perms"], json!(20));
    let without_null = run(SyntheticParams { pmse_null_perms: 0, ..example() });
    assert_eq!(metric(&without_null, "pmse").details["null"], Value::Null);
    assert_eq!(metric(&without_null, "pmse").value, m.value);
}

#[test]
fn without_the_setting_the_report_has_no_synthetic_measure_nor_key() {
    let config = AuditConfig { quasi_identifiers: names(&["SEX", "RACE"]), ..AuditConfig::default() };
    let report = audit(&fixture("synthetic/original.csv"), &fixture("synthetic/released.csv"), &config, usize::MAX);
    assert!(synthetic(&report).is_empty());
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["params"].get("synthetic").is_none());
}

/// Sec 13's metadata for SDMetrics: G, SEX, RACE categorical; EDU, AGE numerical.
fn sdmetrics_config(params: SyntheticParams) -> AuditConfig {
    let mut c = config(params);
    for (name, kind) in [("G", Kind::Categorical), ("SEX", Kind::Categorical), ("RACE", Kind::Categorical), ("EDU", Kind::Numeric), ("AGE", Kind::Numeric)] {
        c.attributes.insert(name.into(), AttributeSettings { kind: Some(kind), ..AttributeSettings::default() });
    }
    c
}

fn captured(config: &AuditConfig, csv: &[u8]) -> pseudolens_core::utility::capture::Captured {
    let mut o = Original::new(config, None);
    o.push(csv).unwrap();
    o.finish().unwrap()
}

/// The synthetic measures of O and P (and the holdout H, when given) under Sec 13's metadata.
fn run_sdmetrics(params: SyntheticParams, holdout: Option<&[u8]>) -> Vec<MetricResult> {
    let config = sdmetrics_config(params);
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(captured(&config, &fixture("synthetic/original.csv")));
    if let Some(h) = holdout {
        a.set_control(captured(&config, h));
    }
    a.push(&fixture("synthetic/released.csv")).unwrap();
    synthetic(&a.finish().unwrap())
}

/// Sec 15: DCR distances, medians and CAP within 1e-9.
#[track_caller]
fn close(got: &Value, expected: f64) {
    let got = got.as_f64().unwrap_or_else(|| panic!("not a number: {got}"));
    assert!((got - expected).abs() <= 1e-9, "got {got}, expected {expected}");
}

#[test]
fn dcr_overfitting_of_the_worked_example() {
    let ms = run_sdmetrics(SyntheticParams::default(), Some(&fixture("synthetic/holdout.csv")));
    let o = metric(&ms, "dcr_overfitting_protection");
    assert_eq!(o.status, Status::Ok);
    // 7 of 8 rows of P are closer to O than to H: score 2 (1 - 7/8) = 0.25.
    close(&o.value, 0.25);
    close(&o.details["closer_to_training"], 0.875);
    close(&o.details["closer_to_holdout"], 0.125);
    // DCR(P->O) = (0, .004255, 0, .259574, .181560, 0, .225532, .2): the median is the mean of
    // row 2's 1/235 (AGE 1/47 over 5 columns) and row 5's (EDU 1/3 + AGE 27/47) / 5 = 128/705:
    // 131/1410 = 0.0929078.
    close(&o.details["median_dcr_training"], 131.0 / 1410.0);
    // DCR(P->H), ranges from H (EDU 3, AGE 43): the middle ones are 1/43 and (1 + 2/43) / 5
    // = 9/43: median 5/43.
    close(&o.details["median_dcr_holdout"], 5.0 / 43.0);
    assert_eq!(o.details["holdout_rows"], json!(6));
    assert_eq!(o.details["holdout_small"], json!(false));
    assert_eq!(o.details["histogram_training"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum::<u64>(), 8);
    assert_eq!(o.details["estimate"], json!(false));
}

#[test]
fn dcr_baseline_of_the_worked_example_is_seeded() {
    let ms = run_sdmetrics(SyntheticParams::default(), None);
    let b = metric(&ms, "dcr_baseline_protection");
    assert_eq!(b.status, Status::Ok);
    close(&b.details["median_dcr_released"], 131.0 / 1410.0);
    assert_eq!((&b.details["seed"], &b.details["stochastic"], &b.details["estimate"]), (&json!(0), &json!(true), &json!(false)));
    let s = b.value.as_f64().unwrap();
    assert!((0.0..=1.0).contains(&s));
    close(&b.value, (131.0 / 1410.0 / b.details["median_dcr_random"].as_f64().unwrap()).min(1.0));
    // The same seed, the same table; another seed, another table.
    assert_eq!(run_sdmetrics(SyntheticParams::default(), None), ms);
    let other = run_sdmetrics(SyntheticParams { dcr_seed: 1, ..SyntheticParams::default() }, None);
    assert_ne!(metric(&other, "dcr_baseline_protection").details["median_dcr_random"], b.details["median_dcr_random"]);
    // Without a holdout, no overfitting score.
    assert_eq!(metric(&ms, "dcr_overfitting_protection").reason, Some("no_holdout"));
}

#[test]
fn a_holdout_lacking_a_column_is_an_error() {
    let h = b"G,SEX,RACE,EDU\nA,1,1,2\nB,2,2,4\n";
    let ms = run_sdmetrics(SyntheticParams::default(), Some(h));
    let o = metric(&ms, "dcr_overfitting_protection");
    assert_eq!((o.status, o.reason, &o.details["column"]), (Status::Error, Some("holdout_columns_differ"), &json!("AGE")));
    // Two rows against O's 8: a small holdout is flagged.
    let small = run_sdmetrics(SyntheticParams::default(), Some(b"G,SEX,RACE,EDU,AGE\nA,1,1,2,25\n"));
    let o = metric(&small, "dcr_overfitting_protection");
    assert_eq!((o.status, &o.details["holdout_small"]), (Status::Ok, &json!(true)));
    assert!(o.warnings.contains(&"holdout_small"));
}

fn cap_params(method: CapMethod, sensitive: &[&str], continuous: &[&str], bins: u32) -> SyntheticParams {
    SyntheticParams {
        cap_known: names(&["SEX", "RACE"]),
        cap_sensitive: names(sensitive),
        cap_method: method,
        cap_continuous: names(continuous),
        cap_bins: bins,
        ..SyntheticParams::default()
    }
}

#[test]
fn disclosure_protection_of_the_worked_example() {
    // K = {SEX, RACE}, S = {EDU}: baseline 0.75; CAP 0.5 -> 0.6667; ZERO_CAP 0.5625 -> 0.75;
    // GENERALIZED 0.5125 -> 0.6833.
    for (method, protection, score) in
        [(CapMethod::Cap, 0.5, 2.0 / 3.0), (CapMethod::ZeroCap, 0.5625, 0.75), (CapMethod::GeneralizedCap, 0.5125, 0.5125 / 0.75)]
    {
        let ms = run_sdmetrics(cap_params(method, &["EDU"], &[], 10), None);
        let d = metric(&ms, "disclosure_protection");
        assert_eq!(d.status, Status::Ok, "{method:?}");
        close(&d.value, score);
        close(&d.details["cap_protection"], protection);
        close(&d.details["baseline_protection"], 0.75);
    }
    // S = {AGE} continuous in 3 bins: baseline 2/3, CAP 0.5 -> 0.75.
    let ms = run_sdmetrics(cap_params(CapMethod::Cap, &["AGE"], &["AGE"], 3), None);
    let d = metric(&ms, "disclosure_protection");
    close(&d.value, 0.75);
    close(&d.details["baseline_protection"], 2.0 / 3.0);
    close(&d.details["cap_protection"], 0.5);
}

#[test]
fn disclosure_protection_needs_its_columns() {
    let no_sensitive = run_sdmetrics(SyntheticParams::default(), None);
    assert_eq!(metric(&no_sensitive, "disclosure_protection").reason, Some("no_sensitive_columns"));
    let missing = run_sdmetrics(cap_params(CapMethod::Cap, &["INCOME"], &[], 10), None);
    let d = metric(&missing, "disclosure_protection");
    assert_eq!((d.reason, &d.details["column"]), (Some("column_missing"), &json!("INCOME")));
    let text = run_sdmetrics(cap_params(CapMethod::Cap, &["G"], &["G"], 10), None);
    assert_eq!(metric(&text, "disclosure_protection").reason, Some("column_not_numeric"));
    // S = {G}: O holds 2 values; one constant column would give a zero baseline.
    let constant = run_sdmetrics(SyntheticParams { cap_known: names(&["G"]), cap_sensitive: names(&["SEX"]), ..SyntheticParams::default() }, None);
    assert_eq!(metric(&constant, "disclosure_protection").status, Status::Ok);
}

#[test]
fn without_an_original_every_measure_is_not_applicable() {
    let mut a = Audit::new(config(example())).unwrap();
    a.push(&fixture("synthetic/released.csv")).unwrap();
    let ms = synthetic(&a.finish().unwrap());
    assert_eq!(ms.len(), 10);
    assert!(ms.iter().all(|m| m.status == Status::NotApplicable && m.reason == Some("no_original_table")));
}

#[test]
fn bad_settings_give_clear_results() {
    let group_missing = run(SyntheticParams { kmarg_group_by: Some("PUMA".into()), ..SyntheticParams::default() });
    let k = metric(&group_missing, "k_marginal");
    assert_eq!((k.status, k.reason, &k.details["column"]), (Status::Error, Some("column_missing"), &json!("PUMA")));
    let not_numeric = run(SyntheticParams { kmarg_binned: names(&["G"]), ..SyntheticParams::default() });
    assert_eq!(metric(&not_numeric, "k_marginal").reason, Some("column_not_numeric"));
    let nothing = run(SyntheticParams { kmarg_exclude: names(&["G", "SEX", "RACE", "EDU", "AGE"]), ..SyntheticParams::default() });
    assert_eq!(metric(&nothing, "k_marginal").reason, Some("no_marginal_columns"));
    let zero_bins = AuditConfig { synthetic: Some(SyntheticParams { kmarg_bins: 0, ..SyntheticParams::default() }), ..AuditConfig::default() };
    assert_eq!(Audit::new(zero_bins).err().map(|e| e.code), Some("invalid_synthetic_setting"));
}

#[test]
fn the_shareable_report_drops_the_matches_and_small_groups() {
    let report = audit(&fixture("synthetic/original.csv"), &fixture("synthetic/released.csv"), &config(example()), usize::MAX);
    let shared = shareable(&report, 5);
    let ms = synthetic(&shared.report);
    let a = metric(&ms, "apparent_match");
    assert!(a.details.get("records").is_none());
    assert_eq!(metric(&ms, "k_marginal").details["groups"], json!([]));
    // The PCA's scatter (one point per record) goes; the regression's subgroups (4 + 4 rows
    // each) go at k = 5 and stay at k = 4.
    assert!(metric(&ms, "pca_comparison").details.get("scatter").is_none());
    assert!(metric(&ms, "pca_comparison").details.get("loadings").is_some());
    assert_eq!(metric(&ms, "linear_regression").details["subgroups"], json!([]));
    // The density matrices (shares of x values' rows) go whatever k.
    assert!(metric(&ms, "linear_regression").details.get("density").is_none());
    assert!(metric(&synthetic(&report), "linear_regression").details.get("density").is_some());
    let kept = synthetic(&shareable(&report, 4).report);
    assert!(metric(&kept, "linear_regression").details.get("density").is_none());
    assert_eq!(metric(&kept, "linear_regression").details["subgroups"].as_array().map(Vec::len), Some(2));
    assert!(metric(&synthetic(&report), "pca_comparison").details["scatter"]["original"].as_array().is_some_and(|a| a.len() == 8));
}

/// `got` (a JSON number) within `tol` of `want`.
#[track_caller]
fn near(got: &Value, want: f64, tol: f64) {
    let g = got.as_f64().unwrap_or_else(|| panic!("not a number: {got}"));
    assert!((g - want).abs() <= tol, "got {g}, expected {want}");
}

/// The upper triangle of the diff over (SEX, RACE, EDU, AGE), G (column 0) left out.
fn upper(diff: &Value) -> Vec<Value> {
    (1..5).flat_map(|a| (a + 1..5).map(move |b| (a, b))).map(|(a, b)| diff[a][b].clone()).collect()
}

#[test]
fn correlation_difference_of_the_worked_example() {
    let ms = run(example());
    let c = metric(&ms, "correlation_difference");
    assert_eq!(c.status, Status::Ok);
    assert_eq!(c.details["columns"], json!(["G", "SEX", "RACE", "EDU", "AGE"]));
    assert_eq!(c.details["extension"], json!(true));
    // Sec 13 as printed (1e-4), and sdnist 2.4 run on the fixtures (1e-9): SEX.RACE, SEX.EDU,
    // SEX.AGE, RACE.EDU, RACE.AGE, EDU.AGE.
    let pearson = [-0.5331586926200487, 0.06924912249073067, 0.0008603790935888256, -0.8821056586275231, -0.8979454800443868, -0.08914999134791862];
    let printed = [-0.5332, 0.0692, 0.0009, -0.8821, -0.8979, -0.0891];
    let kendall = [-0.41787739823069714, 0.04334806586398221, -0.06686378036847207, -0.8054118967153452, -0.7008482884140108, -0.14121675113605808];
    let printed_kendall = [-0.4179, 0.0433, -0.0669, -0.8054, -0.7008, -0.1412];
    for (((got, run), printed), (got_k, (run_k, printed_k))) in upper(&c.details["pearson"]["diff"])
        .iter()
        .zip(pearson)
        .zip(printed)
        .zip(upper(&c.details["kendall"]["diff"]).iter().zip(kendall.iter().zip(printed_kendall)))
    {
        near(got, run, 1e-9);
        near(got, printed, 5e-5);
        near(got_k, *run_k, 1e-9);
        near(got_k, printed_k, 5e-5);
    }
    // Symmetric, 0 on the diagonal.
    let diff = &c.details["pearson"]["diff"];
    assert_eq!(diff[2][1], diff[1][2]);
    assert_eq!(diff[3][3], json!(0.0));
    // The value: the mean |diff| of Pearson over the 10 pairs of the 5 columns.
    let all: Vec<f64> = (0..5).flat_map(|a| (a + 1..5).map(move |b| (a, b))).map(|(a, b)| diff[a][b].as_f64().unwrap().abs()).collect();
    near(&c.value, all.iter().sum::<f64>() / 10.0, 1e-15);
    near(&c.details["pearson"]["mean_abs_diff"], all.iter().sum::<f64>() / 10.0, 1e-15);
    let max = &c.details["pearson"]["max_abs_diff"];
    assert!(max["pair"] == json!(["RACE", "AGE"]) || max["value"].as_f64().unwrap() > 0.8979454800443868);
}

#[test]
fn a_constant_column_gives_null_cells() {
    let o = b"A,B,C\n1,5,2\n2,5,4\n3,5,5\n";
    let p = b"A,B,C\n1,6,1\n2,7,2\n2,6,3\n";
    let ms = synthetic(&audit(o, p, &AuditConfig { synthetic: Some(SyntheticParams::default()), ..AuditConfig::default() }, usize::MAX));
    let c = metric(&ms, "correlation_difference");
    assert_eq!(c.status, Status::Ok);
    assert_eq!(c.details["constant_columns"]["original"], json!(["B"]));
    assert_eq!(c.details["pearson"]["original"][0][1], Value::Null);
    assert_eq!(c.details["pearson"]["diff"][1][2], Value::Null);
    assert_eq!(c.details["kendall"]["diff"][0][1], Value::Null);
    assert!(c.details["pearson"]["diff"][0][2].is_number());
    // Only A.C is defined.
    assert_eq!(c.value, c.details["pearson"]["diff"][0][2].as_f64().map(f64::abs).map(Value::from).unwrap());
}

/// A table without its first column (G).
fn without_g(csv: &[u8]) -> Vec<u8> {
    std::str::from_utf8(csv).unwrap().lines().map(|l| format!("{}\n", l.split_once(',').unwrap().1)).collect::<String>().into_bytes()
}

/// Each loading row equals `want`'s up to its sign, within `tol`.
#[track_caller]
fn loadings_up_to_sign(got: &Value, want: &[&[f64]], tol: f64) {
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        let g: Vec<f64> = g.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let sign = if g.iter().zip(w.iter()).map(|(a, b)| a * b).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
        for (a, b) in g.iter().zip(w.iter()) {
            assert!((a * sign - b).abs() <= tol, "{g:?} vs {w:?}");
        }
    }
}

#[test]
fn pca_of_the_worked_example() {
    // Sec 13 on (SEX, RACE, EDU, AGE): k = 4, as printed (1e-4) and as sdnist 2.4 ran (1e-6).
    let config = config(example());
    let ms = synthetic(&audit(&without_g(&fixture("synthetic/original.csv")), &without_g(&fixture("synthetic/released.csv")), &config, usize::MAX));
    let m = metric(&ms, "pca_comparison");
    assert_eq!(m.status, Status::Ok);
    assert_eq!(m.details["k"], json!(4));
    loadings_up_to_sign(
        &m.details["loadings"],
        &[&[0.4152, 0.5378, 0.5096, 0.5279], &[0.7567, -0.4098, -0.4435, 0.2505], &[0.4457, -0.1849, 0.5435, -0.6868], &[-0.2373, -0.7132, 0.4982, 0.4322]],
        1e-4,
    );
    loadings_up_to_sign(
        &m.details["loadings"],
        &[
            &[0.4151751379199041, 0.5378282412537758, 0.509591386334222, 0.5279081423287811],
            &[0.7567442716703423, -0.40981461029334026, -0.4434678170177789, 0.25045236623702977],
            &[0.44571118823303546, -0.18487460198254904, 0.5435176245038885, -0.6868416921528133],
            &[-0.2372956991418258, -0.7131718934743446, 0.4982384028726626, 0.43224425436309516],
        ],
        1e-6,
    );
    // The sign convention: each axis's largest loading is positive (PC1's 0.7567, PC3's -0.7132 turned).
    assert!(m.details["loadings"][3][1].as_f64().unwrap() > 0.0);
    // The explained variance ratios sum to 1 over all 4 axes.
    let ratios: f64 = m.details["explained_variance_ratio"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).sum();
    assert!((ratios - 1.0).abs() < 1e-12);
    let v = m.value.as_f64().unwrap();
    assert!((0.0..=1.0).contains(&v));
    // SDNist's listing: PC0 "AGE (0.53),RACE (0.54)..." sorted by |loading rounded|.
    assert_eq!(m.details["top_features"][0][0]["name"], json!("RACE"));
    // With G (coded A = 0, B = 1), all 5 columns: sdnist 2.4's components.
    let ms = run(example());
    loadings_up_to_sign(
        &metric(&ms, "pca_comparison").details["loadings"],
        &[
            &[0.3256482527229543, 0.354696263937189, 0.5113309544003143, 0.4883426209265494, 0.5178860062853016],
            &[-0.70207525061368, 0.701847688841876, -0.054783618231569055, -0.07019925254189173, 0.08106160779970367],
            &[-0.48608215230303653, -0.35241589435013065, 0.4474604909449282, 0.5315164576018402, -0.3959754322727102],
            &[0.2968198444739467, 0.37181324562461804, -0.47607093041856696, 0.5522356105498378, -0.4919808837298436],
            &[0.27688567877941034, 0.3451931775163033, 0.5555852666326253, -0.41124157774742004, -0.5712979671901788],
        ],
        1e-6,
    );
}

#[test]
fn linear_regression_of_the_worked_example() {
    let ms = run(example());
    let r = metric(&ms, "linear_regression");
    assert_eq!(r.status, Status::Ok);
    // Sec 13: O slope 8.73, intercept 20.33; P 6.05, 28.75 (scipy: 8.73015873015873,
    // 20.333333333333336).
    let t = &r.details["total"];
    near(&t["original"]["slope"], 8.73015873015873, 1e-9);
    near(&t["original"]["intercept"], 20.333333333333336, 1e-9);
    near(&t["released"]["slope"], 6.05, 1e-9);
    near(&t["released"]["intercept"], 28.75, 1e-9);
    assert_eq!((t["rows_original"].as_u64(), t["rows_released"].as_u64()), (Some(8), Some(8)));
    near(&r.value, 8.73015873015873 - 6.05, 1e-9);
    // By SEX (scipy): 1 -> O 2.3333 / 28, P -7 / 48.5; 2 -> 6.1667 / 34.75 in both.
    let s = r.details["subgroups"].as_array().unwrap();
    assert_eq!(s.iter().map(|g| g["values"].clone()).collect::<Vec<_>>(), [json!(["1"]), json!(["2"])]);
    near(&s[0]["original"]["slope"], 7.0 / 3.0, 1e-9);
    near(&s[0]["original"]["intercept"], 28.0, 1e-9);
    near(&s[0]["released"]["slope"], -7.0, 1e-9);
    near(&s[0]["released"]["intercept"], 48.5, 1e-9);
    near(&s[1]["released"]["slope"], 37.0 / 6.0, 1e-9);
    // Every x has fewer than 20 rows: the density matrices are all zero.
    for key in ["original", "released", "diff"] {
        assert!(r.details["density"][key].as_array().unwrap().iter().flat_map(|row| row.as_array().unwrap()).all(|v| v.as_f64() == Some(0.0)));
    }
    assert_eq!(r.details["density"]["x_values"], json!([1.0, 2.0, 3.0, 4.0]));
    assert_eq!((r.details["dropped_original"].as_u64(), r.details["dropped_released"].as_u64()), (Some(0), Some(0)));
}

#[test]
fn linear_regression_needs_its_setting_and_columns() {
    let none = run(SyntheticParams::default());
    let r = metric(&none, "linear_regression");
    assert_eq!((r.status, r.reason), (Status::NotApplicable, Some("not_configured")));
    let bad = run(SyntheticParams { linreg_x: Some("EDU".into()), linreg_y: Some("INCOME".into()), ..SyntheticParams::default() });
    let r = metric(&bad, "linear_regression");
    assert_eq!((r.status, r.reason, &r.details["column"]), (Status::Error, Some("column_missing"), &json!("INCOME")));
    // One x value in P: no line, no value, the rest in details.
    let o = b"X,Y\n1,2\n2,4\n,7\n";
    let p = b"X,Y\n1,1\n1,3\n";
    let params = SyntheticParams { linreg_x: Some("X".into()), linreg_y: Some("Y".into()), ..SyntheticParams::default() };
    let ms = synthetic(&audit(o, p, &AuditConfig { synthetic: Some(params), ..AuditConfig::default() }, usize::MAX));
    let r = metric(&ms, "linear_regression");
    assert_eq!((r.status, r.reason), (Status::NotApplicable, Some("no_line")));
    assert_eq!(r.details["total"]["released"], Value::Null);
    assert_eq!(r.details["dropped_original"], json!(1));
}

/// Sorts a table's data rows with `order` (a permutation of them).
fn reorder(csv: &[u8], order: &[usize]) -> Vec<u8> {
    let text = std::str::from_utf8(csv).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let rows: Vec<&str> = lines.collect();
    let mut out = format!("{header}\n");
    for &i in order {
        out.push_str(rows[i % rows.len()]);
        out.push('\n');
    }
    out.into_bytes()
}

/// What does not depend on the order of the rows: everything but the matches' row numbers.
fn invariant(ms: &[MetricResult]) -> Vec<Value> {
    ms.iter()
        .map(|m| {
            let mut d = m.details.clone();
            if let Some(records) = d.get_mut("records").and_then(Value::as_array_mut) {
                for r in records.iter_mut() {
                    r.as_object_mut().unwrap().retain(|k, _| k == "quasi" || k == "match_pct");
                }
            }
            json!([m.id, m.value, d])
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn row_order_and_chunks_do_not_matter(
        o_order in Just((0..8).collect::<Vec<usize>>()).prop_shuffle(),
        p_order in Just((0..8).collect::<Vec<usize>>()).prop_shuffle(),
        chunk in 1usize..64,
    ) {
        let config = config(example());
        let base = invariant(&run(example()));
        let o = reorder(&fixture("synthetic/original.csv"), &o_order);
        let p = reorder(&fixture("synthetic/released.csv"), &p_order);
        let got = invariant(&synthetic(&audit(&o, &p, &config, chunk)));
        prop_assert_eq!(got, base);
    }

    #[test]
    fn scores_stay_in_their_bounds_and_serialize_round_trip(
        o in proptest::collection::vec((0u8..3, 0u8..4, 0u8..30), 1..40),
        p in proptest::collection::vec((0u8..3, 0u8..4, 0u8..30), 1..40),
        group in any::<bool>(),
    ) {
        let csv = |rows: &[(u8, u8, u8)]| {
            let mut s = String::from("G,SEX,RACE,EDU,AGE\n");
            for (i, &(a, b, c)) in rows.iter().enumerate() {
                s.push_str(&format!("{},{a},{b},{},{c}\n", if i % 2 == 0 { "A" } else { "B" }, i % 3));
            }
            s.into_bytes()
        };
        let params = SyntheticParams {
            kmarg_group_by: group.then(|| "G".to_string()),
            kmarg_bins: 5,
            cap_known: names(&["SEX", "RACE"]),
            cap_sensitive: names(&["AGE"]),
            cap_continuous: if group { names(&["AGE"]) } else { Vec::new() },
            cap_method: if group { CapMethod::GeneralizedCap } else { CapMethod::ZeroCap },
            linreg_x: Some("EDU".into()),
            linreg_y: Some("AGE".into()),
            linreg_groups: names(&["G"]),
            ..SyntheticParams::default()
        };
        let report = audit(&csv(&o), &csv(&p), &config(params), usize::MAX);
        let ms = synthetic(&report);
        let k = metric(&ms, "k_marginal");
        for score in [&k.value, &k.details["score_ungrouped"]].into_iter().chain(k.details["groups"].as_array().unwrap().iter().map(|g| &g["score"])) {
            let s = score.as_f64().unwrap();
            prop_assert!((-1e-9..=1000.0 + 1e-9).contains(&s), "score {}", s);
        }
        for id in ["unique_exact_matches", "apparent_match"] {
            let v = metric(&ms, id).value.as_f64().unwrap();
            prop_assert!((0.0..=100.0).contains(&v));
        }
        let m = metric(&ms, "pmse");
        let (v, max) = (m.value.as_f64().unwrap(), m.details["max"].as_f64().unwrap());
        prop_assert!((0.0..=max + 1e-15).contains(&v), "pMSE {} above {}", v, max);
        let null = m.details["null"]["mean"].as_f64().unwrap();
        prop_assert!((0.0..=max + 1e-15).contains(&null));
        for id in ["dcr_baseline_protection", "disclosure_protection"] {
            let m = metric(&ms, id);
            if let Some(v) = m.value.as_f64() {
                prop_assert!((0.0..=1.0).contains(&v), "{} {}", id, v);
            } else {
                prop_assert!(m.reason.is_some());
            }
        }
        // Mean |r_P - r_O| in [0, 2]; the PCA's ratio in [0, 1]; every correlation in [-1, 1].
        let c = metric(&ms, "correlation_difference");
        if let Some(v) = c.value.as_f64() {
            prop_assert!((0.0..=2.0).contains(&v));
        }
        for kind in ["pearson", "kendall"] {
            for table in ["original", "released"] {
                for r in c.details[kind][table].as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap()).filter_map(Value::as_f64) {
                    prop_assert!((-1.0..=1.0).contains(&r));
                }
            }
        }
        let v = metric(&ms, "pca_comparison").value.as_f64().unwrap();
        prop_assert!((0.0..=1.0 + 1e-12).contains(&v), "pca {}", v);
        if let Some(v) = metric(&ms, "linear_regression").value.as_f64() {
            prop_assert!(v >= 0.0);
        }
        let json = serde_json::to_string(&report.params).unwrap();
        let back: AuditConfig = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, report.params);
    }

    #[test]
    fn dcr_and_cap_do_not_depend_on_row_order(
        o_order in Just((0..8).collect::<Vec<usize>>()).prop_shuffle(),
        p_order in Just((0..8).collect::<Vec<usize>>()).prop_shuffle(),
        h_order in Just((0..6).collect::<Vec<usize>>()).prop_shuffle(),
        method in prop_oneof![Just(CapMethod::Cap), Just(CapMethod::ZeroCap), Just(CapMethod::GeneralizedCap)],
    ) {
        let params = cap_params(method, &["EDU", "AGE"], &["AGE"], 3);
        let config = sdmetrics_config(params.clone());
        let mine = |ms: Vec<MetricResult>| -> Vec<MetricResult> {
            ms.into_iter().filter(|m| m.id.starts_with("dcr_") || m.id == "disclosure_protection").collect()
        };
        let base = mine(run_sdmetrics(params, Some(&fixture("synthetic/holdout.csv"))));
        let mut a = Audit::new(config.clone()).unwrap();
        a.set_original(captured(&config, &reorder(&fixture("synthetic/original.csv"), &o_order)));
        a.set_control(captured(&config, &reorder(&fixture("synthetic/holdout.csv"), &h_order)));
        a.push(&reorder(&fixture("synthetic/released.csv"), &p_order)).unwrap();
        let got = mine(synthetic(&a.finish().unwrap()));
        prop_assert_eq!(got.len(), 3);
        for (g, b) in got.iter().zip(&base) {
            prop_assert_eq!(g.status, b.status);
            let (x, y) = (g.value.as_f64().unwrap(), b.value.as_f64().unwrap());
            prop_assert!((x - y).abs() <= 1e-12, "{}: {} vs {}", g.id, x, y);
        }
    }
}
