//! The attacks on a release (spec peer-measures.md Sec 5) against the golden values of Sec G3,
//! and their properties: the same seed gives the same result; where every row is attacked,
//! the order of the rows of `O` and `C` does not matter.

use proptest::prelude::*;
use pseudolens_core::attack::{AttackParams, SoMode};
use pseudolens_core::metric::{MetricResult, Status};
use pseudolens_core::utility::attribute::AttributeSettings;
use pseudolens_core::{Audit, AuditConfig, Kind, Original, shareable};
use serde_json::Value;

const O: &str = "age,sex,zip,income,diag\n34,F,100,3100,flu\n36,F,100,2900,cold\n45,M,200,4100,flu\n52,M,200,5200,asthma\n29,F,300,2500,cold\n61,M,100,3900,flu\n47,F,200,4700,diabetes\n38,M,300,3300,cold\n55,F,300,6100,flu\n42,M,100,3600,asthma\n";
const P: &str = "age,sex,zip,income,diag\n35,F,100,3000,flu\n35,F,100,3000,cold\n44,M,200,4000,flu\n53,M,200,5000,asthma\n30,F,300,2500,cold\n60,M,100,4000,flu\n48,F,200,5000,diabetes\n39,M,,3500,cold\n54,F,300,6000,flu\n41,M,100,3500,asthma\n";
const C: &str = "age,sex,zip,income,diag\n33,M,100,3000,cold\n58,F,200,5500,flu\n40,F,300,3400,asthma\n27,M,300,2400,flu\n49,M,200,4300,cold\n63,F,100,4200,diabetes\n37,F,200,3200,flu\n44,M,100,3700,cold\n51,F,300,5900,flu\n31,M,200,2800,asthma\n";

fn config(attacks: AttackParams) -> AuditConfig {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let mut c =
        AuditConfig { quasi_identifiers: s(&["age", "sex", "zip", "income"]), sensitive: s(&["diag"]), attacks: Some(attacks), ..AuditConfig::default() };
    c.attributes.insert("zip".into(), AttributeSettings { kind: Some(Kind::Categorical), ..AttributeSettings::default() });
    c
}

fn side(config: &AuditConfig, csv: &str) -> pseudolens_core::utility::capture::Captured {
    let mut o = Original::new(config, None);
    o.push(csv.as_bytes()).unwrap();
    o.finish().unwrap()
}

fn run(o: &str, p: &str, c: Option<&str>, attacks: AttackParams) -> Vec<MetricResult> {
    let config = config(attacks);
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(side(&config, o));
    if let Some(c) = c {
        a.set_control(side(&config, c));
    }
    a.push(p.as_bytes()).unwrap();
    a.finish().unwrap().metrics.into_iter().filter(|m| m.family == "attack").collect()
}

fn metric<'a>(ms: &'a [MetricResult], id: &str) -> &'a MetricResult {
    ms.iter().find(|m| m.id == id).unwrap_or_else(|| panic!("no {id}"))
}

/// Within `1e-9` relative, or the half unit of the tenth decimal the golden values are given to.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= (1e-9 * b.abs()).max(5e-11)
}

fn f(m: &MetricResult, key: &str) -> f64 {
    m.details[key].as_f64().unwrap_or_else(|| panic!("no {key} in {}", m.details))
}

fn ci(m: &MetricResult) -> (f64, f64) {
    (m.details["ci"]["low"].as_f64().unwrap(), m.details["ci"]["high"].as_f64().unwrap())
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn g3_inference_categorical_and_regression() {
    let params = AttackParams { n_attacks: 10, inf_aux: names(&["age", "sex", "zip"]), ..AttackParams::default() };
    let ms = run(O, P, Some(C), params.clone());
    let m = metric(&ms, "anonymeter_inference_risk");
    assert_eq!(m.status, Status::Ok);
    assert_eq!((f(m, "k_att"), f(m, "k_ctl")), (9.0, 1.0));
    assert!(close(m.value.as_f64().unwrap(), 0.7325518012));
    let (lo, hi) = ci(m);
    assert!(close(lo, 0.4791571977) && close(hi, 0.9859464047), "{lo} {hi}");
    let ms = run(O, P, Some(C), AttackParams { inf_secrets: names(&["income"]), ..params });
    let m = metric(&ms, "anonymeter_inference_risk");
    assert_eq!(m.details["regression"], Value::Bool(true));
    assert_eq!(f(m, "k_att"), 8.0);
}

#[test]
fn g3_linkability_one_and_two_neighbours() {
    let params = AttackParams { n_attacks: 10, link_aux: Some((names(&["age", "sex"]), names(&["zip", "income"]))), ..AttackParams::default() };
    let ms = run(O, P, Some(C), params.clone());
    let m = metric(&ms, "anonymeter_linkability_risk");
    assert_eq!((f(m, "k_att"), f(m, "k_ctl")), (8.0, 1.0));
    assert!(close(m.value.as_f64().unwrap(), 0.6409828261));
    let (lo, hi) = ci(m);
    assert!(close(lo, 0.3406606864) && close(hi, 0.9413049657));
    // The default aux columns are the same halves of the QIs.
    let ms = run(O, P, Some(C), AttackParams { link_aux: None, ..params.clone() });
    assert_eq!(f(metric(&ms, "anonymeter_linkability_risk"), "k_att"), 8.0);
    let ms = run(O, P, Some(C), AttackParams { link_n_neighbors: 2, ..params });
    let m = metric(&ms, "anonymeter_linkability_risk");
    assert_eq!((f(m, "k_att"), f(m, "k_ctl")), (9.0, 4.0));
}

#[test]
fn g3_singling_out_univariate() {
    let params = AttackParams { n_attacks: 50, so_mode: SoMode::Univariate, ..AttackParams::default() };
    let ms = run(O, P, Some(C), params);
    let m = metric(&ms, "anonymeter_singling_out_risk");
    assert_eq!(f(m, "n_queries"), 16.0);
    assert_eq!((f(m, "k_att"), f(m, "k_ctl")), (6.0, 5.0));
    assert!(close(m.value.as_f64().unwrap(), 0.0213125417), "{}", m.value);
    let (lo, hi) = ci(m);
    assert!(lo == 0.0 && close(hi, 0.1627856107));
    assert!(m.warnings.contains(&"fewer_queries_than_attacks"));
    let mut hits: Vec<String> = m.details["queries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["singles_out_original"] == Value::Bool(true))
        .map(|q| q["query"].as_str().unwrap().to_string())
        .collect();
    hits.sort();
    assert_eq!(hits, ["age <= 30", "age >= 60", "diag = diabetes", "income <= 2500", "income == 2500", "income >= 6000"]);
}

#[test]
fn g3_singling_out_multivariate_seed_0() {
    let params = AttackParams { n_attacks: 5, so_n_cols: 2, seed: 0, ..AttackParams::default() };
    let ms = run(O, P, Some(C), params);
    let m = metric(&ms, "anonymeter_singling_out_risk");
    let mut got: Vec<Vec<String>> = m.details["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let mut preds: Vec<String> = q["query"].as_str().unwrap().split(" and ").map(|p| p.replace(' ', "").replace("==", "=")).collect();
            preds.sort();
            preds
        })
        .collect();
    got.sort();
    let mut want: Vec<Vec<String>> =
        [["age>=60", "sex=M"], ["income<=2500", "zip=300"], ["age<=30", "sex=F"], ["diag=asthma", "zip=200"], ["diag=cold", "zip=300"]]
            .iter()
            .map(|q| q.iter().map(|s| s.to_string()).collect())
            .collect();
    want.sort();
    assert_eq!(got, want);
    assert_eq!((f(m, "k_att"), f(m, "k_ctl")), (4.0, 2.0));
}

#[test]
fn without_original_or_secret_the_attacks_say_why() {
    let config = config(AttackParams::default());
    let mut a = Audit::new(config).unwrap();
    a.push(P.as_bytes()).unwrap();
    let ms: Vec<MetricResult> = a.finish().unwrap().metrics.into_iter().filter(|m| m.family == "attack").collect();
    assert_eq!(ms.len(), 3);
    assert!(ms.iter().all(|m| m.status == Status::NotApplicable && m.reason == Some("no_original_table")));
    let ms = run(O, P, None, AttackParams { inf_aux: names(&["age", "diag"]), inf_secrets: names(&["nope"]), ..AttackParams::default() });
    let m = metric(&ms, "anonymeter_inference_risk");
    assert_eq!((m.status, m.reason), (Status::Error, Some("column_missing")));
}

#[test]
fn a_smaller_control_is_corrected_for_its_size() {
    let mut c = String::from("age,sex,zip,income,diag\n");
    c.extend(C.lines().skip(1).take(6).map(|l| format!("{l}\n")));
    let params = AttackParams { n_attacks: 50, so_mode: SoMode::Univariate, ..AttackParams::default() };
    let ms = run(O, P, Some(&c), params);
    let m = metric(&ms, "anonymeter_singling_out_risk");
    assert!(m.warnings.contains(&"control_size_correction"));
    let w = m.details["correction"]["w"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&w));
    assert!(f(m, "k_ctl").is_finite());
}

/// The rows of a CSV text (after the header) in the order `perm` gives.
fn permuted(csv: &str, perm: &[usize]) -> String {
    let lines: Vec<&str> = csv.lines().collect();
    let mut out = format!("{}\n", lines[0]);
    for &i in perm {
        out.push_str(lines[1 + i]);
        out.push('\n');
    }
    out
}

fn counts(ms: &[MetricResult]) -> Vec<(String, Value, Value)> {
    ms.iter().map(|m| (m.id.to_string(), m.details["k_att"].clone(), m.details["k_ctl"].clone())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Same tables, parameters and seed: the same result (Sec 5.2).
    #[test]
    fn the_same_seed_gives_the_same_result(seed in 0u64..1000, n in 1u64..12) {
        let params = AttackParams { n_attacks: n, seed, so_n_cols: 2, ..AttackParams::default() };
        let a = run(O, P, Some(C), params.clone());
        let b = run(O, P, Some(C), params);
        prop_assert_eq!(a, b);
    }

    /// Every row attacked (`n_attacks` at least the rows, univariate singling out with every
    /// candidate kept): the counts do not depend on the order of the rows of `O` and `C`.
    #[test]
    fn row_order_of_o_and_c_does_not_matter_when_every_row_is_attacked(
        po in Just((0..10).collect::<Vec<usize>>()).prop_shuffle(),
        pc in Just((0..10).collect::<Vec<usize>>()).prop_shuffle(),
        seed in 0u64..100,
    ) {
        let params = AttackParams { n_attacks: 50, seed, so_mode: SoMode::Univariate, link_n_neighbors: 2, ..AttackParams::default() };
        let a = run(O, P, Some(C), params.clone());
        let b = run(&permuted(O, &po), P, Some(&permuted(C, &pc)), params);
        prop_assert_eq!(counts(&a), counts(&b));
    }

    /// Univariate singling out with every candidate kept: the order of the release's rows
    /// changes the order of the candidates, not the set kept, so not the counts either (ties
    /// of the neighbour searches go to the lowest row number, so linkability and inference
    /// may change with it).
    #[test]
    fn row_order_of_p_does_not_matter_to_univariate_singling_out(
        pp in Just((0..10).collect::<Vec<usize>>()).prop_shuffle(),
        seed in 0u64..100,
    ) {
        let params = AttackParams { n_attacks: 50, seed, so_mode: SoMode::Univariate, ..AttackParams::default() };
        let so = |ms: &[MetricResult]| {
            let m = metric(ms, "anonymeter_singling_out_risk");
            (m.details["n_queries"].clone(), m.details["k_att"].clone(), m.details["k_ctl"].clone())
        };
        let a = run(O, P, Some(C), params.clone());
        let b = run(O, &permuted(P, &pp), Some(C), params);
        prop_assert_eq!(so(&a), so(&b));
    }
}

#[test]
fn the_shareable_report_drops_the_queries() {
    let config = config(AttackParams { n_attacks: 50, so_mode: SoMode::Univariate, ..AttackParams::default() });
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(side(&config, O));
    a.push(P.as_bytes()).unwrap();
    let report = a.finish().unwrap();
    let safe = shareable(&report, 5);
    let so = safe.report.metric("anonymeter_singling_out_risk").unwrap();
    assert!(so.details.get("queries").is_none());
    assert_eq!(safe.shareable.removed["attack_queries"], 1);
    assert!(so.value.is_number());
}

/// Generalized releases (Sec 5.1): an original value inside a released range, or matching a
/// released mask, is compatible; a query `match(zip, 1**)` singles out the original person whose
/// code it covers.
#[test]
fn generalized_cells_are_compatible_with_the_values_they_cover() {
    let o = "age,zip,diag\n34,101,flu\n47,205,cold\n61,309,flu\n";
    let p = "age,zip,diag\n30-39,1**,flu\n40-49,2**,cold\n60-69,3**,asthma\n";
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let mut config = AuditConfig { quasi_identifiers: s(&["age", "zip"]), sensitive: s(&["diag"]), ..AuditConfig::default() };
    config.attributes.insert("zip".into(), AttributeSettings { kind: Some(Kind::Categorical), ..AttributeSettings::default() });
    config.attacks =
        Some(AttackParams { n_attacks: 10, so_mode: SoMode::Univariate, inf_secrets: s(&["zip"]), inf_aux: s(&["age"]), ..AttackParams::default() });
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(side(&config, o));
    a.push(p.as_bytes()).unwrap();
    let ms: Vec<MetricResult> = a.finish().unwrap().metrics.into_iter().filter(|m| m.family == "attack").collect();
    // Inference of zip from age: each person's range leads to their own row, whose mask covers them.
    assert_eq!(f(metric(&ms, "anonymeter_inference_risk"), "k_att"), 3.0);
    // Linkability of age with zip: both halves lead to the person's own row.
    assert_eq!(f(metric(&ms, "anonymeter_linkability_risk"), "k_att"), 3.0);
    // Univariate singling out: the 3 ranges, the 3 masks and the 3 diagnoses occur once in P;
    // each range and mask covers one original person, "cold" is one person's, "flu" two
    // people's and "asthma" nobody's.
    let so = metric(&ms, "anonymeter_singling_out_risk");
    assert_eq!((f(so, "n_queries"), f(so, "k_att")), (9.0, 7.0));
}
