//! The \[SDCG\] measures and query accuracy through the audit path (spec utility.md Sec 8, 10):
//! golden G3.4 and G7.2 (`shared/spec/golden.md`; full precision from `golden/expected.json`),
//! and the identities of a file compared with itself or with its rows shuffled.

mod common;

use common::*;
use pseudolens_core::metric::{MetricResult, Status};
use pseudolens_core::utility::params::{Aggregate, CtbilBlank, Query};
use pseudolens_core::{AuditConfig, Report};
use serde_json::{Value, json};

fn metric<'r>(r: &'r Report, id: &str) -> &'r MetricResult {
    r.metrics.iter().find(|m| m.id == id && m.scope.attribute.is_none()).unwrap_or_else(|| panic!("no metric {id}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn query(group_by: &[&str], aggregate: Aggregate) -> Query {
    Query { group_by: group_by.iter().map(|s| s.to_string()).collect(), aggregate }
}

/// The four queries of golden G3.4.
fn g3_queries() -> Vec<Query> {
    vec![
        query(&["age"], Aggregate::Count),
        query(&["sex", "zip"], Aggregate::Count),
        query(&["sex"], Aggregate::Mean { column: "income".into() }),
        query(&["age"], Aggregate::Share { column: "diag".into(), value: "Respiratory".into() }),
    ]
}

fn g3() -> Report {
    g3_report(|c| c.utility.queries = g3_queries())
}

/// The `query_relative_error` result of query `q`.
fn query_result<'r>(r: &'r Report, q: &Query) -> &'r MetricResult {
    let want = serde_json::to_value(q).unwrap();
    r.metrics.iter().find(|m| m.id == "query_relative_error" && m.params["query"] == want).unwrap_or_else(|| panic!("no result for query {want}"))
}

#[test]
fn g3_cells() {
    let r = g3();
    // attribute, missing O / P, suppressed, changed
    let table = [("age", 0, 1, 1, 12), ("zip", 0, 0, 0, 12), ("sex", 0, 0, 0, 0), ("income", 1, 1, 0, 11), ("diag", 0, 0, 0, 12)];
    for (a, na_o, na_p, supp, changed) in table {
        let m = &for_attribute(&r, "missing_count", a).value;
        assert_eq!((m["original"].as_u64(), m["released"].as_u64()), (Some(na_o), Some(na_p)), "missing_count {a}");
        assert_eq!(for_attribute(&r, "suppressed_cells", a).value, json!(supp), "suppressed_cells {a}");
        assert_eq!(for_attribute(&r, "changed_records", a).value, json!(changed), "changed_records {a}");
    }
    let income = &for_attribute(&r, "cell_transitions", "income").value;
    assert_eq!(income["blank_to_blank"], json!(1), "row 9 blank -> blank is not a change");
    let age = for_attribute(&r, "missing_count", "age");
    assert_eq!(age.details["released"]["suppressed"], json!(1));
    assert_eq!(age.value["ratio"], Value::Null, "NA_O = 0");
    assert_eq!(for_attribute(&r, "suppressed_cells", "age").details["alignment"], json!("record_id"));
}

#[test]
fn g3_ctbil() {
    let r = g3();
    let c = metric(&r, "ctbil");
    assert_eq!(c.value, json!(6));
    assert_close(f(&metric(&r, "ctbil_normalized").value), 6.0 / 38.0, "ctbil_normalized");
    let expected =
        [(vec!["age"], 2, 6), (vec!["zip"], 0, 2), (vec!["sex"], 0, 2), (vec!["age", "zip"], 2, 12), (vec!["age", "sex"], 2, 12), (vec!["zip", "sex"], 0, 4)];
    let tables = c.details["tables"].as_array().unwrap();
    assert_eq!(tables.len(), expected.len());
    for (t, (vars, d, cells)) in tables.iter().zip(expected) {
        assert_eq!((&t["variables"], &t["distance"], &t["cells"]), (&json!(vars), &json!(d), &json!(cells)), "{t}");
    }
    assert_eq!(c.details["cells_total"], json!(38));
    assert_eq!(c.details["forward"]["age"], json!({ "source": "observed", "undefined": 1 }), "f_age(91) is undefined");
    assert!(c.warnings.contains(&"forward_map_partial"));
    // One suppression -> one-way distance 2 (= suppressed_cells x 2).
    assert_eq!(for_attribute(&r, "suppressed_cells", "age").value, json!(1));
}

#[test]
fn g3_statistics() {
    let r = g3();
    let checks = [
        ("mean_diff", "age", 44.0, 39.04545454545455, -11.260330578512393),
        ("mean_diff", "income", 50063.63636363636, 50000.0, -0.12711094970037473),
        ("variance_diff", "age", 307.09090909090907, 107.27272727272728, -65.06808762581409),
        ("variance_diff", "income", 385838505.4545455, 387400000.0, 0.4047015845696762),
    ];
    for (id, a, o, p, rel) in checks {
        let m = for_attribute(&r, id, a);
        assert_close(f(&m.value["original"]), o, &format!("{id} {a} original"));
        assert_close(f(&m.value["released"]), p, &format!("{id} {a} released"));
        assert_close(f(&m.value["rel_change_pct"]), rel, &format!("{id} {a} rel"));
        assert_close(f(&m.value["difference"]), p - o, &format!("{id} {a} difference"));
    }
    assert!(for_attribute(&r, "mean_diff", "age").warnings.contains(&"midpoint_used"));
    let cov = metric(&r, "cov_discrepancy");
    assert_eq!(cov.details["variables"], json!(["age", "income"]));
    assert_close(f(&cov.details["original"][0][1]), 5254.363636363648, "covariance O");
    assert_close(f(&cov.details["released"][0][1]), 166888.88888888888, "covariance P");
    assert_close(f(&cov.value["mse"]), 821463658388.359, "V mse");
    assert_close(f(&cov.value["mae"]), 574442.9629629485, "V mae");
    assert_close(f(&cov.value["mv"]), 10.472229376365913, "V mv");
    let cor = metric(&r, "cor_discrepancy");
    assert_close(f(&cor.details["original"][0][1]), 0.014904867120872106, "correlation O");
    assert_close(f(&cor.details["released"][0][1]), 0.94325150276866, "correlation P");
    assert_close(f(&cor.value["mse"]), 0.8618274759185666, "R mse");
    assert_close(f(&cor.value["mae"]), 0.9283466356477879, "R mae");
    assert_close(f(&cor.value["mv"]), 62.28479785289551, "R mv");
    let il = metric(&r, "il1s");
    assert_close(f(&il.value), 0.050664541469427726, "il1s");
    for (a, s, v) in [("age", 17.52400950384669, 0.09354035577873333), ("income", 19642.772346452155, 0.007788727160122117)] {
        let part = &il.details["attributes"][a];
        assert_close(f(&part["s"]), s, &format!("S {a}"));
        assert_eq!(part["pairs"], json!(11), "pairs {a}");
        assert_close(f(&part["value"]), v, &format!("il1s {a}"));
    }
    assert_close(f(&metric(&r, "il1s_sdcmicro_sum").value), 1.11461991232741, "il1s_sdcmicro_sum");
    let e = metric(&r, "eigen_diff");
    assert_close(f(&e.value), 1.8571058367613937, "eigen_diff");
    for (k, (o, p)) in [(1.014904867120872, 1.94325150276866), (0.985095132879128, 0.05674849723134001)].into_iter().enumerate() {
        assert_close(f(&e.details["eigenvalues_original"][k]), o, "eigenvalue O");
        assert_close(f(&e.details["eigenvalues_released"][k]), p, "eigenvalue P");
    }
    assert_eq!((&e.details["rows_original"], &e.details["rows_released"]), (&json!(11), &json!(10)), "listwise rows");
}

#[test]
fn g3_query_accuracy() {
    let r = g3();
    let q = g3_queries();
    // count by age: 30-39 4->4, 40-49 3->3, 20-29 2->2, 50-59 2->2, 91 1->absent (100 %)
    let m = query_result(&r, &q[0]);
    assert_close(f(&m.value), 20.0, "count by age");
    assert_eq!(m.details["tier"], json!("poor"));
    let cells: Vec<(Value, Value, Value)> =
        m.details["cells"].as_array().unwrap().iter().map(|c| (c["label"][0].clone(), c["original"].clone(), c["released"].clone())).collect();
    let expected = [("30-39", 4, 4), ("40-49", 3, 3), ("20-29", 2, 2), ("50-59", 2, 2), ("91", 1, 0)];
    assert_eq!(cells, expected.map(|(l, o, p)| (json!(l), json!(o as f64), json!(p as f64))).to_vec());
    assert_eq!(m.params["source"], json!("default"), "the user's repeat of a default query is left out");
    // count by sex x zip: 4 cells, all equal
    let m = query_result(&r, &q[1]);
    assert_eq!((f(&m.value), &m.details["cells_total"], &m.details["tier"]), (0.0, &json!(4), &json!("good")));
    // mean(income) by sex: F 41854 -> 41600, M 56905 -> 57000
    let m = query_result(&r, &q[2]);
    assert_close(f(&m.value), 0.3869082069453134, "mean(income) by sex");
    assert_eq!(m.details["tier"], json!("good"));
    let by_sex: Vec<(Value, f64, f64)> =
        m.details["cells"].as_array().unwrap().iter().map(|c| (c["label"][0].clone(), f(&c["original"]), f(&c["released"]))).collect();
    assert_eq!(by_sex.len(), 2);
    for (label, o, p) in by_sex {
        let (eo, ep) = if label == json!("F") { (41854.0, 41600.0) } else { (56905.0, 57000.0) };
        assert_close(o, eo, "mean O");
        assert_close(p, ep, "mean P");
    }
    // share(diag = Respiratory) by age: 50-59 zero cell, 91 lost
    let m = query_result(&r, &q[3]);
    assert_eq!(f(&m.value), 0.0);
    assert_eq!((&m.details["lost_cells"], &m.details["zero_cells"], &m.details["evaluated_cells"]), (&json!(1), &json!(1), &json!(3)));
    assert_eq!(m.details["tier"], json!("good"));
    let s = metric(&r, "query_accuracy_summary");
    let values: Vec<f64> = r.metrics.iter().filter(|m| m.id == "query_relative_error" && m.status == Status::Ok).map(|m| f(&m.value)).collect();
    assert_eq!(values.len(), 3 + 1 + 3 + 3, "3 QIs, 1 SA, 3 QI pairs, 3 new user queries");
    assert_close(f(&s.value["max"]), 20.0, "summary max");
    assert_close(f(&s.value["mean"]), values.iter().sum::<f64>() / values.len() as f64, "summary mean");
    assert_eq!(s.value["tiers"]["poor"], json!(values.iter().filter(|&&v| v > 15.0).count()));
}

fn csv(header: &str, rows: &[Vec<String>]) -> Vec<u8> {
    let mut s = format!("{header}\n");
    for r in rows {
        s.push_str(&r.join(","));
        s.push('\n');
    }
    s.into_bytes()
}

fn matrix_csv(m: &[[f64; 2]]) -> Vec<u8> {
    csv("a,b", &m.iter().map(|r| r.iter().map(|v| v.to_string()).collect()).collect::<Vec<_>>())
}

/// Golden G7.2: the small vectors of the guide through the audit path (row-order pairing).
#[test]
fn g7_2_small_vectors() {
    let x = matrix_csv(&[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]]);
    let z = matrix_csv(&[[1.0, 12.0], [3.0, 20.0], [3.0, 27.0], [5.0, 40.0]]);
    let r = against(&x, &z, &AuditConfig::default());
    assert_close(f(&metric(&r, "il1s").value), 0.17116329922036438, "il1s");
    assert_close(f(&metric(&r, "il1s_sdcmicro_sum").value), 1.369306393762915, "il1s_sdcmicro_sum");
    let e = metric(&r, "eigen_diff");
    assert_eq!((&e.value, e.status, e.reason), (&Value::Null, Status::NotApplicable, Some("near_singular")), "column 2 = 10 x column 1");
    let x2 = matrix_csv(&[[1.0, 10.0], [2.0, 25.0], [3.0, 28.0], [4.0, 40.0]]);
    let r = against(&x2, &z, &AuditConfig::default());
    let e = metric(&r, "eigen_diff");
    assert_close(f(&e.value), 0.37934842867171187, "eigen_diff");
    assert_close(f(&e.details["eigenvalues_original"][0]), 1.9730354718902339, "lambda_1");
    assert_close(f(&e.details["eigenvalues_released"][1]), 0.03705557005472765, "mu_2");
    assert_close(f(&metric(&r, "il1s").value), 0.19423746488241678, "il1s");
}

/// Golden G7.2 (hand): `[a, b, NA, c, a, NA]` -> `[a, NA, NA, d, b, x]`.
#[test]
fn g7_2_changed_records() {
    let col = |v: &[&str]| csv("v", &v.iter().map(|s| vec![s.to_string()]).collect::<Vec<_>>());
    let r = against(&col(&["a", "b", "NA", "c", "a", "NA"]), &col(&["a", "NA", "NA", "d", "b", "x"]), &AuditConfig::default());
    assert_eq!(for_attribute(&r, "changed_records", "v").value, json!(4));
    let m = &for_attribute(&r, "missing_count", "v").value;
    assert_eq!((&m["original"], &m["released"], &m["ratio"]), (&json!(2), &json!(2), &json!(1.0)));
    assert_eq!(for_attribute(&r, "suppressed_cells", "v").value, json!(1));
}

/// Guide Ex. 6.4 tables (REGION x URBRUR) before and after suppressing 81 REGION values.
fn ex64() -> (Vec<u8>, Vec<u8>) {
    let before = [(235, 89), (261, 73), (295, 76), (304, 71), (121, 139), (100, 236)];
    let after = [(235, 89), (261, 73), (295, 76), (304, 71), (105, 130), (79, 201)];
    let (mut o, mut p) = (Vec::new(), Vec::new());
    for (region, (b, a)) in before.iter().zip(after).enumerate() {
        for (urbrur, (nb, na)) in [(1, (b.0, a.0)), (2, (b.1, a.1))] {
            for k in 0..nb {
                o.push(vec![(region + 1).to_string(), urbrur.to_string()]);
                p.push(vec![if k < na { (region + 1).to_string() } else { "NA".into() }, urbrur.to_string()]);
            }
        }
    }
    (csv("region,urbrur", &o), csv("region,urbrur", &p))
}

#[test]
fn g7_2_guide_example_6_4() {
    let (o, p) = ex64();
    let config = qi(&["region", "urbrur"]);
    let r = against(&o, &p, &config);
    let c = metric(&r, "ctbil");
    assert_eq!(c.value, json!(324));
    assert_close(f(&metric(&r, "ctbil_normalized").value), 14.08695652173913, "ctbil_normalized");
    let tables = &c.details["tables"];
    assert_eq!((&tables[0]["distance"], &tables[0]["cells"]), (&json!(162), &json!(7)), "REGION");
    assert_eq!((&tables[1]["distance"], &tables[1]["cells"]), (&json!(0), &json!(2)), "URBRUR");
    assert_eq!((&tables[2]["distance"], &tables[2]["cells"]), (&json!(162), &json!(14)), "REGION x URBRUR");
    assert_eq!(for_attribute(&r, "suppressed_cells", "region").value, json!(81));
    // NA excluded: two-way distance 81 over 12 cells (6.75).
    let mut excl = config;
    excl.utility.ctbil_blank = CtbilBlank::Exclude;
    let r = against(&o, &p, &excl);
    let two = &metric(&r, "ctbil").details["tables"][2];
    assert_eq!((&two["variables"], &two["distance"], &two["cells"]), (&json!(["region", "urbrur"]), &json!(81), &json!(12)));
    assert_close(f(&two["distance"]) / f(&two["cells"]), 6.75, "NA excluded, normalised");
}

/// The results of the two families, as JSON.
fn families(r: &Report) -> Vec<Value> {
    r.metrics.iter().filter(|m| m.family == "utility_sdc" || m.family == "utility_query").map(|m| serde_json::to_value(m).unwrap()).collect()
}

#[test]
fn a_file_against_itself_and_shuffled() {
    let config = {
        let mut c = g3_config();
        c.utility.queries = g3_queries();
        c
    };
    let original = fixture("g3_original.csv");
    let r = against(&original, &original, &config);
    assert_eq!(metric(&r, "ctbil").value, json!(0));
    assert_eq!(f(&metric(&r, "il1s").value), 0.0);
    assert!(f(&metric(&r, "eigen_diff").value).abs() < 1e-12);
    for a in ["age", "zip", "sex", "income", "diag"] {
        assert_eq!(for_attribute(&r, "changed_records", a).value, json!(0), "{a}");
    }
    let queries: Vec<&MetricResult> = r.metrics.iter().filter(|m| m.id == "query_relative_error").collect();
    assert_eq!(queries.len(), 10);
    for m in queries {
        if m.params["query"]["aggregate"] == json!("share") {
            // O holds only leaves: every share of "Respiratory" is 0 (zero cells), nothing to compare.
            assert_eq!((m.reason, &m.details["zero_cells"]), (Some("no_evaluated_cells"), &json!(12)), "12 distinct ages");
        } else {
            assert_eq!(m.value, json!(0.0), "{}", m.params["query"]);
        }
    }
    assert_eq!(f(&metric(&r, "cov_discrepancy").value["mse"]), 0.0);
    // Rows of P reversed: pairing by record id changes nothing.
    let released = fixture("g3_released.csv");
    let text = String::from_utf8(released.clone()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let header = lines.remove(0);
    lines.reverse();
    let shuffled = format!("{header}\n{}\n", lines.join("\n"));
    let (a, b) = (families(&against(&original, &released, &config)), families(&against(&original, shuffled.as_bytes(), &config)));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!(same(x, y), "{x}\n!=\n{y}");
    }
}

#[test]
fn unpaired_tables() {
    // Different row counts without record id: paired results are errors, unpaired ones are computed.
    let o = b"x,y\n1,10\n2,20\n3,30\n4,50\n";
    let r = against(o, b"x,y\n1,10\n2,20\n", &AuditConfig::default());
    for id in ["il1s", "il1s_sdcmicro_sum", "il1_relpct_sum"] {
        assert_eq!((metric(&r, id).status, metric(&r, id).reason), (Status::Error, Some("row_count_mismatch")), "{id}");
    }
    let m = for_attribute(&r, "changed_records", "x");
    assert_eq!((m.status, m.reason), (Status::Error, Some("row_count_mismatch")));
    assert_eq!(for_attribute(&r, "mean_diff", "x").status, Status::Ok);
    // A recoded QI with neither pairing nor hierarchy cannot be compared.
    let r = against(b"q\na\nb\nc\n", b"q\nab\nab\n", &qi(&["q"]));
    let c = metric(&r, "ctbil");
    assert_eq!((c.status, c.reason), (Status::NotApplicable, Some("not_comparable")));
    assert_eq!(c.details["not_comparable"], json!(1));
    assert_eq!(query_result(&r, &query(&["q"], Aggregate::Count)).reason, Some("not_comparable"));
    // A dropped attribute.
    let r = against(b"q,w\na,1\nb,2\n", b"q\na\nb\n", &qi(&["q"]));
    assert_eq!(for_attribute(&r, "missing_count", "w").reason, Some("attribute_dropped"));
    assert_eq!(for_attribute(&r, "mean_diff", "w").reason, Some("attribute_dropped"));
}
