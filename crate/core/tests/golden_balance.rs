//! Golden values of the balance family (spec balance.md): R_external against `E1` (golden.md
//! G1.4) and `E3` (G3.3), risk_r, safety and the RUT scores (G3.3, from `utility_u` through the
//! audit and from the pure functions), [RUT] Tables 9 and 10 with the alpha sweep, presets and
//! constrained choices (G7.1), and the edge cases of Sec 7.

mod common;

use common::*;
use pseudolens_core::Original;
use pseudolens_core::balance::choice::{SWEEP_ALPHAS, argmax, derived_weights};
use pseudolens_core::balance::rut::{self, rut, rut_f1, rut_ratio};
use pseudolens_core::balance::{BalanceParams, Candidate, ChoiceParams, RiskCombination, WeightPreset, rut_alpha_sweep, rut_constrained_choice};
use pseudolens_core::identity::MissingPolicy;
use pseudolens_core::metric::{Context, MetricResult, Scope, Status};
use pseudolens_core::reference;
use pseudolens_core::{Audit, AuditConfig, Report};
use serde_json::{Value, json};

/// A table given compressed (golden.md: the last column `count` says how many identical rows
/// a line stands for), expanded as `reference.py`'s `expand_counts` does.
fn expand(compressed: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(compressed).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let (columns, last) = header.rsplit_once(',').unwrap();
    assert_eq!(last, "count");
    let mut out = format!("{columns}\n");
    for line in lines.filter(|l| !l.is_empty()) {
        let (row, count) = line.rsplit_once(',').unwrap();
        for _ in 0..count.parse::<usize>().unwrap() {
            out.push_str(row);
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// Audits `data` with `external` as the reference table `E` (both pushed in small chunks).
fn with_external(data: &[u8], external: &[u8], config: &AuditConfig) -> Report {
    let mut e = reference(config, None);
    for piece in external.chunks(7) {
        e.push(piece).unwrap();
    }
    let mut a = Audit::new(config.clone()).unwrap();
    for piece in data.chunks(11) {
        a.push(piece).unwrap();
    }
    a.set_population(e.finish().unwrap());
    a.finish().unwrap()
}

fn metric<'r>(r: &'r Report, id: &str) -> &'r MetricResult {
    r.metric(id).unwrap_or_else(|| panic!("no metric {id}"))
}

#[track_caller]
fn assert_within(got: f64, expected: f64, tolerance: f64, what: &str) {
    assert!((got - expected).abs() <= tolerance, "{what}: got {got}, expected {expected} within {tolerance}");
}

fn g1_e1(config: &AuditConfig) -> Report {
    with_external(&fixture("g1.csv"), &fixture("e1.csv"), config)
}

fn g3_e3(config: &AuditConfig) -> Report {
    with_external(&fixture("g3_released.csv"), &expand(&fixture("e3.csv")), config)
}

fn ctx() -> Context {
    Context {
        family: "balance",
        scope: Scope { table: "P", quasi_identifiers: Vec::new(), sensitive: None, attribute: None, subset: None },
        params: Value::Null,
    }
}

#[test]
fn g1_4_r_external_against_e1() {
    let r = g1_e1(&qi(&["age", "zip", "sex"]));
    // ext_count by rid: 1-5: 40; 6-9: 12; 10-12: 3; 13-14: 9; 15: 4; 16: 1; 17: 0.
    assert_close(num(&r, "r_external"), 0.17238562091503268, "r_external");
    assert_close(num(&r, "r_external"), (5.0 / 40.0 + 4.0 / 12.0 + 1.0 + 2.0 / 9.0 + 0.25 + 1.0) / 17.0, "by hand");
    assert_close(num(&r, "r_external_match_rate"), 16.0 / 17.0, "match rate");
    assert_close(num(&r, "r_unique"), 0.07352941176470588, "r_unique");
    assert_close(num(&r, "r_external_probability"), 0.12485805278948026, "probability");
    let m = &metric(&r, "r_external_probability").details["per_attribute"];
    assert_close(m["age"].as_f64().unwrap(), 0.42569659442724456, "M_age");
    assert_close(m["zip"].as_f64().unwrap(), 0.5921052631578948, "M_zip");
    assert_close(m["sex"].as_f64().unwrap(), 0.4953560371517028, "M_sex");
    // Correlation-based (Sec 1.2), by numpy.corrcoef over the union of each QI's values.
    let rho = &metric(&r, "r_external_correlation").details["per_attribute"];
    assert_close(rho["age"].as_f64().unwrap(), 0.8456707901950534, "rho_age");
    assert_close(rho["zip"].as_f64().unwrap(), 1.0, "rho_zip");
    assert_close(rho["sex"].as_f64().unwrap(), 0.9258388804182336, "rho_sex");
    assert_close(num(&r, "r_external_correlation"), 0.9238365568710957, "r_external_correlation");
    let ext = metric(&r, "r_external");
    assert_eq!((ext.family, ext.status), ("balance", Status::Ok));
    assert_eq!(ext.details["a_ext"], json!(["age", "zip", "sex"]));
    // 40 + 12 + 3 + 9 + 4 + 1 + 7 rows (golden.md says "49 rows in total", a slip).
    assert_eq!(ext.details["external_rows"], json!(76));
    assert_eq!(metric(&r, "r_external_match_rate").details["matched_records"], json!(16));
    assert_eq!(metric(&r, "r_unique").details["records"], json!(3));
    // With E, risk_r = max(R_int, R_ext) = R_int = 7/17 and no warning.
    let risk = metric(&r, "risk_r");
    assert_close(num(&r, "risk_r"), 7.0 / 17.0, "risk_r");
    assert!(risk.warnings.is_empty());
    assert_close(risk.details["r_external"].as_f64().unwrap(), 0.17238562091503268, "details.r_external");
    assert_close(num(&r, "safety"), 10.0 / 17.0, "safety");
}

#[test]
fn g1_4_under_drop_and_wildcard() {
    // drop: row 17 (blank sex) leaves P; E1 has no blank.
    let r = g1_e1(&AuditConfig { missing_policy: MissingPolicy::Drop, ..qi(&["age", "zip", "sex"]) });
    assert_close(num(&r, "r_external"), (5.0 / 40.0 + 4.0 / 12.0 + 1.0 + 2.0 / 9.0 + 0.25 + 1.0) / 16.0, "drop");
    assert_close(num(&r, "r_external_match_rate"), 1.0, "drop match rate");
    // wildcard: row 17 (40-49, 148**, MISSING) matches the 9 rows (40-49, 148**, M) of E1;
    // f = 1 only for rows 15 and 16.
    let r = g1_e1(&AuditConfig { missing_policy: MissingPolicy::Wildcard, ..qi(&["age", "zip", "sex"]) });
    assert_close(num(&r, "r_external"), (5.0 / 40.0 + 4.0 / 12.0 + 1.0 + 3.0 / 9.0 + 0.25 + 1.0) / 17.0, "wildcard");
    assert_close(num(&r, "r_external_match_rate"), 1.0, "wildcard match rate");
    assert_close(num(&r, "r_unique"), (0.25 + 1.0) / 17.0, "wildcard r_unique");
}

#[test]
fn wildcard_weights_blank_rows_of_e_by_alpha() {
    // P (A,x) matches E's (A,x) with weight 1 and (A,MISSING) with alpha: 1.5. P (B,y) matches
    // only (B,*): alpha = 0.5 < 1 counts as one match, risk 1.
    let config = AuditConfig { missing_policy: MissingPolicy::Wildcard, wildcard_alpha: 0.5, ..qi(&["q1", "q2"]) };
    let r = with_external(b"q1,q2\nA,x\nB,y\n", b"q1,q2\nA,x\nA,\nB,*\nC,x\n", &config);
    assert_close(num(&r, "r_external"), (1.0 / 1.5 + 1.0) / 2.0, "r_external");
    assert_close(num(&r, "r_external_match_rate"), 1.0, "match rate");
}

#[test]
fn e_lacking_a_qi_is_matched_on_the_common_ones_by_name() {
    // E1 without sex, its columns in another order: A_ext = (age, zip).
    let text = String::from_utf8(fixture("e1.csv")).unwrap();
    let mut e = String::from("zip,age\n");
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        e.push_str(&format!("{},{}\n", c[1], c[0]));
    }
    let r = with_external(&fixture("g1.csv"), e.as_bytes(), &qi(&["age", "zip", "sex"]));
    // (30-39,130**) 52 rows: rids 1-9; (40-49,130**) 3: 10-12; (40-49,148**) 9: 13, 14, 17;
    // (50-59,148**) 5: 15, 16.
    assert_close(num(&r, "r_external"), (9.0 / 52.0 + 1.0 + 3.0 / 9.0 + 2.0 / 5.0) / 17.0, "projected");
    assert_close(num(&r, "r_external_match_rate"), 1.0, "match rate");
    let m = metric(&r, "r_external");
    assert_eq!((&m.details["a_ext"], &m.details["not_in_external"]), (&json!(["age", "zip"]), &json!(["sex"])));
    let per = &metric(&r, "r_external_probability").details["per_attribute"];
    assert_eq!(per.as_object().unwrap().len(), 2);
    assert_close(per["age"].as_f64().unwrap(), 0.42569659442724456, "M_age does not depend on the other QIs");
    // The QI order given does not matter either.
    let again = with_external(&fixture("g1.csv"), e.as_bytes(), &qi(&["sex", "zip", "age"]));
    assert_close(num(&again, "r_external"), num(&r, "r_external"), "QI order");
}

#[test]
fn e_without_common_qi_and_without_e() {
    let r = with_external(&fixture("g1.csv"), b"other\nx\n", &qi(&["age", "zip", "sex"]));
    for id in ["r_external", "r_external_match_rate", "r_unique", "r_external_probability"] {
        let m = metric(&r, id);
        assert_eq!((m.status, m.reason), (Status::NotApplicable, Some("no_common_quasi_identifiers")), "{id}");
    }
    let r = audit(&fixture("g1.csv"), &qi(&["age", "zip", "sex"]));
    let m = metric(&r, "r_external");
    assert_eq!((m.status, m.reason, &m.value), (Status::NotApplicable, Some("no_external_table"), &Value::Null));
    // Without E: R = R_int, warning risk_without_external.
    let risk = metric(&r, "risk_r");
    assert_close(num(&r, "risk_r"), num(&r, "r_internal"), "R = R_int");
    assert_eq!(risk.warnings, ["risk_without_external"]);
    assert_eq!(metric(&r, "safety").warnings, ["risk_without_external"]);
}

#[test]
fn g3_3_risk_and_balance() {
    let config = qi(&["age", "zip", "sex"]);
    let r = g3_e3(&config);
    assert_close(num(&r, "r_internal"), 10.0 / 12.0, "r_internal");
    // ext_count by rid: 4, 2, 4, 3, 1, 2, 2, 1, 5, 1, 0, 2.
    let by_hand = (2.0 / 4.0 + 4.0 / 2.0 + 1.0 / 3.0 + 3.0 + 1.0 / 5.0) / 12.0;
    assert_close(num(&r, "r_external"), 0.5027777777777778, "r_external");
    assert_close(num(&r, "r_external"), by_hand, "r_external by hand");
    assert_close(num(&r, "r_external_match_rate"), 11.0 / 12.0, "match rate");
    assert_close(num(&r, "risk_r"), 0.8333333333333334, "risk_r max");
    assert_close(num(&r, "safety"), 0.16666666666666663, "safety");
    let weighted = g3_e3(&AuditConfig { balance: BalanceParams { risk_combination: RiskCombination::Weighted, ..BalanceParams::default() }, ..config.clone() });
    assert_close(num(&weighted, "risk_r"), 0.6680555555555556, "risk_r weighted");
    assert_close(num(&weighted, "safety"), 1.0 - 0.6680555555555556, "safety weighted");
    assert_eq!(metric(&weighted, "risk_r").params["risk_combination"], json!("weighted"));
    let sum = g3_e3(&AuditConfig { balance: BalanceParams { risk_combination: RiskCombination::Sum, ..BalanceParams::default() }, ..config.clone() });
    assert_close(num(&sum, "risk_r"), 1.0, "risk_r sum");
    let heavy = BalanceParams { risk_combination: RiskCombination::Weighted, risk_weight_internal: 0.8, ..BalanceParams::default() };
    let heavy = g3_e3(&AuditConfig { balance: heavy, ..config });
    assert_close(num(&heavy, "risk_r"), 0.8 * 10.0 / 12.0 + 0.2 * 0.5027777777777778, "w_int 0.8");
    // No original table: no utility_u, so the RUT scores are not applicable.
    for id in ["rut", "rut_f1", "rut_ratio"] {
        let m = metric(&r, id);
        assert_eq!((m.status, m.reason, &m.value), (Status::NotApplicable, Some("no_utility"), &Value::Null), "{id}");
    }
}

#[test]
fn g3_3_rut_scores_from_u() {
    // utility_u of G3.2 as the input.
    let (u, r_max) = (0.6480402770835352, 0.8333333333333334);
    assert_close(rut(u, r_max, 0.5), 0.4073534718751009, "rut");
    assert_close(rut_f1(u, r_max, 0.5), -0.0926465281248991, "rut_f1");
    assert_close(rut_ratio(u, r_max).unwrap(), 0.7776483325002421, "rut_ratio");
    let (out, _) = rut::metrics(&ctx(), 10.0 / 12.0, Some(0.5027777777777778), Some(u), &BalanceParams::default());
    let ids: Vec<&str> = out.iter().map(|m| m.id).collect();
    assert_eq!(ids, rut::IDS);
    let v = |id: &str| out.iter().find(|m| m.id == id).unwrap();
    assert_close(v("risk_r").value.as_f64().unwrap(), r_max, "risk_r");
    assert_close(v("rut").value.as_f64().unwrap(), 0.4073534718751009, "rut");
    assert_close(v("rut_f1").value.as_f64().unwrap(), -0.0926465281248991, "rut_f1");
    assert_close(v("rut_ratio").value.as_f64().unwrap(), 0.7776483325002421, "rut_ratio");
    let presets = &v("rut").details["presets"];
    for w in WeightPreset::ALL {
        assert_close(presets[w.id()].as_f64().unwrap(), w.alpha() * u + (1.0 - w.alpha()) * (1.0 - r_max), w.id());
    }
    assert!(out.iter().all(|m| m.status == Status::Ok && m.warnings.is_empty()));
}

#[test]
fn g3_3_rut_through_the_audit_with_o_and_e3() {
    let config = g3_config();
    let mut o = Original::new(&config, None);
    o.push(&fixture("g3_original.csv")).unwrap();
    let mut e = reference(&config, None);
    e.push(&expand(&fixture("e3.csv"))).unwrap();
    let mut a = Audit::new(config).unwrap();
    a.set_original(o.finish().unwrap());
    a.push(&fixture("g3_released.csv")).unwrap();
    a.set_population(e.finish().unwrap());
    let r = a.finish().unwrap();
    assert_close(num(&r, "utility_u"), 0.6480402770835352, "utility_u (G3.2)");
    assert_close(num(&r, "r_external"), 0.5027777777777778, "r_external");
    assert_close(num(&r, "rut"), 0.4073534718751009, "rut");
    assert_close(num(&r, "rut_f1"), -0.0926465281248991, "rut_f1");
    assert_close(num(&r, "rut_ratio"), 0.7776483325002421, "rut_ratio");
    assert!(metric(&r, "rut").warnings.is_empty());
}

/// [RUT] Table 10 as printed: (name, R_int, R_ext, U).
const TABLE_10: [(&str, f64, f64, f64); 3] = [("P1", 0.6150, 0.6260, 0.9972), ("P2", 0.2132, 0.2156, 0.8580), ("P3", 0.0739, 0.0725, 0.7579)];

fn table_10() -> Vec<Candidate> {
    TABLE_10
        .iter()
        .map(|&(name, r_int, r_ext, u)| Candidate { name: name.into(), risk_r: RiskCombination::Max.combine(r_int, r_ext, 0.5), utility_u: u })
        .collect()
}

#[test]
fn g7_1_table_10() {
    let printed = [(0.3740, 0.6856), (0.7844, 0.8212), (0.9261, 0.8420)];
    for (c, (safety, score)) in table_10().iter().zip(printed) {
        assert_within(1.0 - c.risk_r, safety, 6e-5, &format!("{} safety", c.name));
        assert_within(rut(c.utility_u, c.risk_r, 0.5), score, 6e-5, &format!("{} rut", c.name));
        assert_close(rut(c.utility_u, c.risk_r, 0.5), score, &format!("{} rut exactly", c.name));
    }
}

#[test]
fn g7_1_table_9() {
    // (R_int, R_ext, U) as printed -> (safety, rut) printed; rut from them in brackets.
    let rows: [(&str, f64, f64, f64, f64, f64, f64); 9] = [
        ("S1 P1", 1.0, 0.48, 1.0, 0.0, 0.5, 0.5),
        ("S1 P2", 0.99, 0.48, 0.89, 0.01, 0.45, 0.45),
        ("S1 P3", 0.81, 0.48, 0.76, 0.19, 0.47, 0.475),
        ("S2 P1", 0.47, 0.28, 1.0, 0.53, 0.76, 0.765),
        ("S2 P2", 0.41, 0.21, 0.86, 0.59, 0.72, 0.725),
        ("S2 P3", 0.35, 0.21, 0.75, 0.65, 0.70, 0.70),
        ("S3 P1", 1.0, 0.46, 1.0, 0.0, 0.5, 0.5),
        ("S3 P2", 0.99, 0.46, 0.81, 0.01, 0.41, 0.41),
        ("S3 P3", 0.87, 0.47, 0.74, 0.13, 0.43, 0.435),
    ];
    for (what, r_int, r_ext, u, safety, printed, exact) in rows {
        let r = RiskCombination::Max.combine(r_int, r_ext, 0.5);
        assert_within(1.0 - r, safety, 0.006, what);
        assert_within(rut(u, r, 0.5), printed, 0.006, what);
        assert_close(rut(u, r, 0.5), exact, what);
    }
}

#[test]
fn g7_1_alpha_sweep_on_table_10() {
    let expected: [([f64; 3], &str); 7] = [
        ([0.49864, 0.79912, 0.89246], "P3"),
        ([0.56096, 0.80648, 0.87564], "P3"),
        ([0.62328, 0.81384, 0.85882], "P3"),
        ([0.6856, 0.8212, 0.842], "P3"),
        ([0.74792, 0.82856, 0.82518], "P2"),
        ([0.81024, 0.83592, 0.80836], "P2"),
        ([0.87256, 0.84328, 0.79154], "P1"),
    ];
    let m = rut_alpha_sweep(&ctx(), &table_10());
    assert_eq!((m.id, m.status), ("rut_alpha_sweep", Status::Ok));
    let rows = m.value.as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for ((row, (scores, best)), alpha) in rows.iter().zip(expected).zip(SWEEP_ALPHAS) {
        assert_close(row["alpha"].as_f64().unwrap(), alpha, "alpha");
        for (got, want) in row["rut_per_candidate"].as_array().unwrap().iter().zip(scores) {
            assert_close(got.as_f64().unwrap(), want, &format!("rut at alpha {alpha}"));
        }
        assert_eq!(row["argmax"], json!(best), "argmax at alpha {alpha}");
    }
    assert_eq!(m.details["stable"], json!(false));
    assert_eq!(m.details["candidates"], json!(["P1", "P2", "P3"]));
}

#[test]
fn g7_1_presets_on_table_10() {
    let expected = [
        (WeightPreset::Analytics, [0.81024, 0.83592, 0.80836]),
        (WeightPreset::Balanced, [0.6856, 0.8212, 0.842]),
        (WeightPreset::Compliance, [0.62328, 0.81384, 0.85882]),
        (WeightPreset::Public, [0.56096, 0.80648, 0.87564]),
    ];
    for (preset, scores) in expected {
        for (c, want) in table_10().iter().zip(scores) {
            assert_close(rut(c.utility_u, c.risk_r, preset.alpha()), want, preset.id());
        }
    }
    assert_eq!(BalanceParams::default().rut_alpha, WeightPreset::Balanced.alpha());
}

#[test]
fn g7_1_constrained_choice() {
    let candidates = table_10();
    let by_r = rut_constrained_choice(&ctx(), &candidates, &ChoiceParams { tau_r: Some(0.1), ..ChoiceParams::default() });
    assert_eq!((by_r.id, by_r.status, &by_r.value), ("rut_constrained_choice", Status::Ok, &json!("P3")));
    assert_eq!(by_r.details["feasible"], json!(["P3"]));
    // Sec 5.2: the argmax moves from P2 to P3 at alpha = 0.1417/0.2418 = 0.586, so the
    // smallest beta on the grid is 0.42.
    assert_eq!(by_r.details["derived_weights"], json!({ "tau_r": { "alpha": 0.58, "beta": 0.42 } }));
    let by_u = rut_constrained_choice(&ctx(), &candidates, &ChoiceParams { tau_u: Some(0.8), ..ChoiceParams::default() });
    assert_eq!(by_u.value, json!("P2"));
    assert_eq!(by_u.details["feasible"], json!(["P1", "P2"]));
    assert_eq!(by_u.details["derived_weights"], json!({ "tau_u": { "alpha": 0.59, "beta": 0.41 } }));
    let both = rut_constrained_choice(&ctx(), &candidates, &ChoiceParams { tau_r: Some(0.1), tau_u: Some(0.8), rut_alpha: 0.5 });
    assert_eq!((both.status, both.reason, &both.value), (Status::NotApplicable, Some("no_feasible_release"), &Value::Null));
    assert_eq!(both.details["derived_weights"], json!({ "tau_r": { "alpha": 0.58, "beta": 0.42 }, "tau_u": { "alpha": 0.59, "beta": 0.41 } }));
    // No threshold: the plain argmax; an unreachable one: no derived weight.
    let free = rut_constrained_choice(&ctx(), &candidates, &ChoiceParams::default());
    assert_eq!((free.value.clone(), free.details["derived_weights"].clone()), (json!("P3"), json!({})));
    let never = derived_weights(&candidates, &ChoiceParams { tau_r: Some(0.01), ..ChoiceParams::default() });
    assert_eq!(never, json!({ "tau_r": null }));
}

#[test]
fn ties_go_to_smaller_risk_then_input_order() {
    let c = |name: &str, r: f64, u: f64| Candidate { name: name.into(), risk_r: r, utility_u: u };
    // Equal rut at alpha 0.5 (0.7), computed in a different order.
    let tied = [c("A", 0.4, 0.8), c("B", 0.2, 0.6)];
    assert_eq!(argmax(&tied, 0.5, |_| true), Some(1));
    let same = [c("A", 0.3, 0.7), c("B", 0.3, 0.7)];
    assert_eq!(argmax(&same, 0.5, |_| true), Some(0));
    assert_eq!(argmax(&same, 0.5, |_| false), None);
}

#[test]
fn sec_7_edge_cases() {
    // n = 0 (header only): every balance result is empty_input.
    let r = with_external(b"age,zip,sex\n", &fixture("e1.csv"), &qi(&["age", "zip", "sex"]));
    for id in ["r_external", "r_external_match_rate", "risk_r", "safety", "rut"] {
        assert_eq!(metric(&r, id).status, Status::EmptyInput, "{id}");
    }
    // R = 0: rut_ratio infinite; U = 1, R = 0: rut = 1.
    let (out, _) = rut::metrics(&ctx(), 0.0, Some(0.0), Some(1.0), &BalanceParams::default());
    let m = |id: &str| out.iter().find(|m| m.id == id).unwrap();
    assert_eq!(m("rut").value, json!(1.0));
    let ratio = m("rut_ratio");
    assert_eq!((ratio.status, ratio.reason, &ratio.value), (Status::NotApplicable, Some("division_by_zero"), &Value::Null));
    assert_eq!(ratio.details["infinite"], json!(true));
    // Single candidate: the sweep is trivially stable.
    let one = rut_alpha_sweep(&ctx(), &[Candidate { name: "only".into(), risk_r: 0.3, utility_u: 0.9 }]);
    assert_eq!(one.details["stable"], json!(true));
    assert!(one.value.as_array().unwrap().iter().all(|row| row["argmax"] == json!("only")));
    let none = rut_alpha_sweep(&ctx(), &[]);
    assert_eq!((none.status, none.reason), (Status::NotApplicable, Some("no_candidates")));
}

#[test]
fn settings_are_read_echoed_and_checked() {
    let c: AuditConfig =
        serde_json::from_str(r#"{"quasi_identifiers": ["age"], "risk_combination": "sum", "risk_weight_internal": 0.3, "rut_alpha": 0.7}"#).unwrap();
    assert_eq!(c.balance, BalanceParams { risk_combination: RiskCombination::Sum, risk_weight_internal: 0.3, rut_alpha: 0.7 });
    assert!(serde_json::from_str::<AuditConfig>(r#"{"risk_combinaton": "sum"}"#).is_err());
    assert!(serde_json::from_str::<AuditConfig>(r#"{"risk_combination": "mean"}"#).is_err());
    let r = audit(&fixture("g1.csv"), &c);
    let params = serde_json::to_value(&r.params).unwrap();
    assert_eq!((&params["risk_combination"], &params["rut_alpha"]), (&json!("sum"), &json!(0.7)));
    for bad in [BalanceParams { rut_alpha: 1.5, ..BalanceParams::default() }, BalanceParams { risk_weight_internal: -0.1, ..BalanceParams::default() }] {
        let e = Audit::new(AuditConfig { balance: bad, ..AuditConfig::default() }).err().unwrap();
        assert_eq!(e.code, "invalid_weight_setting");
    }
}

#[test]
fn reference_columns_named_otherwise_are_matched_as_told() {
    // E1 with its columns renamed: matched by name, nothing is shared; matched as told, the
    // values of G1.4 come back.
    let text = String::from_utf8(fixture("e1.csv")).unwrap().replacen("age,zip,sex", "AGE,postcode,sex", 1);
    let config = qi(&["age", "zip", "sex"]);
    let r = with_external(&fixture("g1.csv"), text.as_bytes(), &config);
    assert_eq!(metric(&r, "r_external").details["a_ext"], json!(["sex"]));
    let mut told = config;
    told.reference_columns = [("age", "AGE"), ("zip", "postcode")].into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let r = with_external(&fixture("g1.csv"), text.as_bytes(), &told);
    assert_close(num(&r, "r_external"), 0.17238562091503268, "r_external");
    assert_close(num(&r, "marketer_success_rate"), 0.2312091503267974, "marketer");
}
