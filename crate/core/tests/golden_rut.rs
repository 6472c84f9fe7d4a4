//! Golden values of spec golden.md G3.1 (per-attribute \[RUT\] utility), G3.2 (totals) and the
//! optional ARX quality models of G3, through the audit path; the identities of a file
//! compared with itself, with its rows shuffled, with a dropped column and with rows that
//! cannot be paired. Expected values are the full-precision ones of
//! `shared/spec/golden/expected.json` (golden.md prints 10 digits).

mod common;

use common::*;
use pseudolens_core::metric::{MetricResult, Status};
use pseudolens_core::utility::attribute::AttributeSettings;
use pseudolens_core::utility::params::{Aggregation, LmaxMode, ProximityNorm};
use pseudolens_core::{AuditConfig, Report};
use serde_json::{Value, json};

fn num_of(r: &Report, id: &str, attr: &str) -> f64 {
    let m = for_attribute(r, id, attr);
    assert_eq!(m.status, Status::Ok, "{id} of {attr}: {:?} {:?}", m.status, m.reason);
    m.value.as_f64().unwrap_or_else(|| panic!("{id} of {attr} is {}", m.value))
}

/// The table-level result `id` (`scope.attribute = null`).
fn table<'r>(r: &'r Report, id: &str) -> &'r MetricResult {
    r.metrics.iter().find(|m| m.id == id && m.scope.attribute.is_none()).unwrap_or_else(|| panic!("no table-level {id}"))
}

fn table_num(r: &Report, id: &str) -> f64 {
    let m = table(r, id);
    assert_eq!(m.status, Status::Ok, "{id}: {:?}", m.reason);
    m.value.as_f64().unwrap()
}

const ATTRIBUTES: [&str; 5] = ["age", "zip", "sex", "income", "diag"];

#[test]
fn g3_1_selected_components() {
    let r = g3_report(|_| {});
    // (attribute, loss id, loss, similarity id, similarity, situation)
    let table = [
        ("age", "gen_loss", 0.9083333333333335, "cosine_similarity", 0.4926768681944593, "numeric_generalized"),
        ("zip", "gen_loss", 0.9900000000000001, "jaccard_similarity", 0.7999999999999999, "digit_string_generalized"),
        ("sex", "entropy_loss", 0.0, "cosine_similarity", 0.9999999999999998, "categorical_unchanged"),
        ("income", "proximity_loss", 0.013874020922320323, "cosine_similarity", 0.8333333333333333, "numeric"),
        ("diag", "entropy_loss", 0.4275177234956095, "jaccard_similarity", 0.6941176470588236, "categorical_recoded"),
    ];
    for (attr, loss_id, loss, sim_id, sim, situation) in table {
        assert_close(num_of(&r, loss_id, attr), loss, &format!("{attr} {loss_id}"));
        assert_close(num_of(&r, sim_id, attr), sim, &format!("{attr} {sim_id}"));
        assert_close(num_of(&r, "attribute_loss", attr), loss, &format!("{attr} attribute_loss"));
        assert_close(num_of(&r, "attribute_similarity", attr), sim, &format!("{attr} attribute_similarity"));
        let details = &for_attribute(&r, "attribute_loss", attr).details;
        assert_eq!(details["components"], json!([loss_id]), "{attr}");
        assert_eq!(details["situation"], json!(situation), "{attr}");
        assert_close(details["values"][0].as_f64().unwrap(), loss, attr);
        assert_eq!(for_attribute(&r, "attribute_similarity", attr).details["components"], json!([sim_id]), "{attr}");
    }
    // age: 11 cells at 0.9, the suppressed cell at 1.
    let age = &for_attribute(&r, "gen_loss", "age").details;
    assert_eq!((age["cells"].as_u64(), age["blank"].as_u64(), age["generalized"].as_u64()), (Some(12), Some(1), Some(11)));
    // Derived settings: age G = B = 67, wg = 1; income G = 63621, B = 100, wg = 637.
    let geometry = |attr| {
        let d = &for_attribute(&r, "cosine_similarity", attr).details;
        (d["G"].as_i64().unwrap(), d["B"].as_i64().unwrap(), d["wg"].as_i64().unwrap())
    };
    assert_eq!(geometry("age"), (67, 67, 1));
    assert_eq!(geometry("income"), (63621, 100, 637));
}

#[test]
fn g3_1_other_components() {
    let r = g3_report(|_| {});
    let expected = [
        ("age", "jaccard_similarity", 0.18226600985221683),
        ("age", "jaccard_set", 0.0),
        ("age", "gen_loss_ncp", 0.2083333333333333),
        ("age", "entropy_original", 3.584962500721156),
        ("age", "entropy_released", 2.188721875540867),
        ("zip", "cosine_similarity", 0.9740215340114142),
        ("zip", "jaccard_set", 0.0),
        ("zip", "entropy_original", 2.5220552088742),
        ("zip", "entropy_released", 0.9798687566511528),
        ("sex", "entropy_original", 1.0),
        ("sex", "entropy_released", 1.0),
        ("sex", "entropy_difference", 0.0),
        ("sex", "jaccard_similarity", 1.0),
        ("income", "distance_manhattan", 2380.0),
        ("income", "distance_euclidean", 854.1662601625048),
        ("income", "mad", 216.36363636363637),
        ("income", "rmse", 257.5408175945567),
        ("income", "jaccard_similarity", 0.7142857142857144),
        ("income", "entropy_original", 3.584962500721156),
        ("income", "entropy_released", 3.584962500721156),
        ("diag", "entropy_original", 2.4182958340544896),
        ("diag", "entropy_released", 1.384431504340598),
        ("diag", "entropy_difference", 1.0338643297138916),
        ("diag", "cosine_similarity", 0.9098229375970784),
        ("diag", "jaccard_set", 0.0),
        ("diag", "gen_loss", 0.513888888888889),
    ];
    for (attr, id, v) in expected {
        assert_close(num_of(&r, id, attr), v, &format!("{attr} {id}"));
    }
    for attr in ATTRIBUTES {
        assert_eq!(num_of(&r, "consistency_loss", attr), 0.0, "{attr}: every recoding is deterministic");
    }
    // zip q vector: 13053, 13068, 13070 at 7/36; 14812, 14830, 14877 at 5/36.
    let q = &for_attribute(&r, "jaccard_similarity", "zip").details["q"];
    for (zip, share) in
        [("13053", 7.0 / 36.0), ("13068", 7.0 / 36.0), ("13070", 7.0 / 36.0), ("14812", 5.0 / 36.0), ("14830", 5.0 / 36.0), ("14877", 5.0 / 36.0)]
    {
        assert_close(q[zip].as_f64().unwrap(), share, zip);
    }
    assert_eq!(q.as_object().unwrap().len(), 6);
    // income: 11 pairs (row 9 blank in both), baseline Lmax_M and Lmax_E.
    let d = &for_attribute(&r, "proximity_loss", "income").details;
    assert_eq!(d["n"], json!(11));
    assert_close(d["lmax_m"].as_f64().unwrap(), 15594.87603305785, "Lmax_M");
    assert_close(d["lmax_e"].as_f64().unwrap(), 18728.64858140999, "Lmax_E");
    assert_eq!(d["lmax_mode"], json!("baseline"));
}

#[test]
fn g3_1_proximity_variants() {
    let r = g3_report(|c| c.utility.proximity_norm = ProximityNorm::Euclidean);
    assert_close(num_of(&r, "proximity_loss", "income"), 0.013751169310218735, "euclidean");
    assert_eq!(for_attribute(&r, "proximity_loss", "income").details["norm"], json!("euclidean"));
    // lmax_mode = rule, nearest rounding to u = 1000: 216.3636364 / 500.
    let r = g3_report(|c| {
        c.utility.lmax_mode = LmaxMode::Rule;
        c.attributes.insert("income".into(), AttributeSettings { rounding_unit: Some(1000.0), ..Default::default() });
    });
    assert_close(num_of(&r, "proximity_loss", "income"), 0.43272727272727274, "rule");
    assert_eq!(for_attribute(&r, "proximity_loss", "income").details["lmax"], json!(500.0));
    // ...and without a rounding unit the rule has no Lmax: age leaves the loss not applicable.
    let age = for_attribute(&r, "proximity_loss", "age");
    assert_eq!((age.status, age.reason), (Status::NotApplicable, Some("no_rounding_unit")));
}

#[test]
fn g3_2_totals() {
    let r = g3_report(|_| {});
    assert_close(table_num(&r, "l_total"), 0.46794501555025264, "l_total");
    assert_close(table_num(&r, "s_total"), 0.764025569717323, "s_total");
    assert_close(table_num(&r, "utility_u"), 0.6480402770835352, "utility_u");
    assert_close(table_num(&r, "utility_ratio"), 1.6327250944620315, "utility_ratio");
    let d = &table(&r, "l_total").details;
    assert_eq!(d["attributes"].as_array().unwrap().len(), 5);
    assert_eq!(d["excluded"], json!([]));
    let r = g3_report(|c| c.utility.total_aggregation = Aggregation::Max);
    assert_close(table_num(&r, "l_total"), 0.9900000000000001, "l_total max");
    assert_close(table_num(&r, "s_total"), 0.9999999999999998, "s_total max");
}

#[test]
fn g3_arx_quality_models() {
    let r = g3_report(|_| {});
    let model = |id, attr| for_attribute(&r, id, attr).value.clone();
    let g = model("arx_granularity", "age");
    assert_close(g["result"].as_f64().unwrap(), 0.22014925373134328, "granularity");
    assert_close(g["loss"].as_f64().unwrap(), 0.20833333333333334, "granularity loss");
    let n = model("arx_nue", "age");
    assert_close(n["result"].as_f64().unwrap(), 16.75488750216347, "nue");
    assert_close(n["max"].as_f64().unwrap(), 43.01955000865386, "nue max");
    assert_close(n["loss"].as_f64().unwrap(), 0.3894714728255651, "nue loss");
    // Only QIs; no QI has a hierarchy.
    assert!(r.metrics.iter().all(|m| m.family != "utility_arx" || m.scope.attribute.as_deref() != Some("diag")));
    assert_eq!(for_attribute(&r, "arx_gen_intensity", "age").reason, Some("no_hierarchy"));
    assert_eq!(table(&r, "arx_gen_intensity").status, Status::NotApplicable);
    let avg = &table(&r, "arx_granularity").value;
    let losses: f64 = ["age", "zip", "sex"].iter().map(|a| for_attribute(&r, "arx_granularity", a).value["loss"].as_f64().unwrap()).sum();
    assert_close(avg["loss"].as_f64().unwrap(), losses / 3.0, "mean over QIs");
}

#[test]
fn g3_arx_table_level_models() {
    // golden.md G3: aecs 1.2 (input 1, loss 0.01818181818); discernibility 16 (input 12,
    // loss 4/132). P's classes on (age, zip, sex): two pairs and 8 singletons (row 11's `*`
    // age is one suppressed cell, in scope); O's 12 rows are 12 classes.
    let r = g3_report(|_| {});
    let aecs = table(&r, "aecs");
    assert_eq!((aecs.family, aecs.status), ("utility_arx", Status::Ok));
    assert_close(aecs.value["result"].as_f64().unwrap(), 1.2, "aecs");
    assert_close(aecs.value["min"].as_f64().unwrap(), 1.0, "aecs min");
    assert_close(aecs.value["max"].as_f64().unwrap(), 12.0, "aecs max");
    assert_close(aecs.value["loss"].as_f64().unwrap(), 0.2 / 11.0, "aecs loss");
    assert_close(aecs.value["quality"].as_f64().unwrap(), 1.0 - 0.2 / 11.0, "aecs quality");
    assert_eq!(aecs.details["classes"], json!(10));
    assert_eq!(aecs.details["original"]["classes"], json!(12));
    let d = table(&r, "discernibility");
    assert_close(d.value["result"].as_f64().unwrap(), 16.0, "discernibility");
    assert_close(d.value["min"].as_f64().unwrap(), 12.0, "discernibility min");
    assert_close(d.value["max"].as_f64().unwrap(), 144.0, "discernibility max");
    assert_close(d.value["loss"].as_f64().unwrap(), 4.0 / 132.0, "discernibility loss");
    // Policy drop: row 11 (age `*`) leaves the scope of P: n = 11, K = 9, sum f^2 = 15,
    // discernibility 15 + 12 * 1 = 27, loss (27 - 12)/(144 - 12) = 15/132; aecs 11/9.
    let r = g3_report(|c| c.missing_policy = pseudolens_core::table::classes::MissingPolicy::Drop);
    assert_close(table(&r, "discernibility").value["result"].as_f64().unwrap(), 27.0, "drop");
    assert_close(table(&r, "discernibility").value["loss"].as_f64().unwrap(), 15.0 / 132.0, "drop loss");
    assert_close(table(&r, "aecs").value["result"].as_f64().unwrap(), 11.0 / 9.0, "drop aecs");
}

/// Ids whose value is a loss, and ids whose value is a similarity.
const LOSSES: [&str; 6] = ["gen_loss", "gen_loss_ncp", "proximity_loss", "entropy_loss", "consistency_loss", "attribute_loss"];
const SIMILARITIES: [&str; 4] = ["cosine_similarity", "jaccard_similarity", "jaccard_set", "attribute_similarity"];

#[test]
fn a_file_against_itself() {
    let o = fixture("g3_original.csv");
    let r = against(&o, &o, &g3_config());
    let mut seen = 0;
    for m in r.metrics.iter().filter(|m| m.family == "utility_rut" && m.reason != Some("not_numeric")) {
        let v = m.value.as_f64();
        if LOSSES.contains(&m.id) || m.id == "l_total" || m.id.starts_with("proximity_loss_record") {
            assert_eq!((m.status, v), (Status::Ok, Some(0.0)), "{} of {:?}", m.id, m.scope.attribute);
            seen += 1;
        } else if SIMILARITIES.contains(&m.id) || m.id == "s_total" {
            assert_eq!(m.status, Status::Ok, "{}", m.id);
            assert_close(v.unwrap(), 1.0, m.id);
            seen += 1;
        }
    }
    // proximity_loss is numeric only (3 categorical attributes); 4 table-level ids.
    assert_eq!(seen, 5 * (LOSSES.len() + SIMILARITIES.len()) - 3 + 4);
    assert_close(table_num(&r, "utility_u"), 1.0, "utility_u");
    assert_eq!(table(&r, "utility_ratio").reason, Some("division_by_zero"));
    assert_eq!(table(&r, "utility_ratio").details["infinite"], json!(true));
    for attr in ["age", "income"] {
        for id in ["distance_manhattan", "mad", "rmse"] {
            assert_eq!(num_of(&r, id, attr), 0.0);
        }
    }
}

/// `bytes` with its data rows reversed.
fn reversed(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let header = lines.remove(0);
    lines.reverse();
    format!("{header}\n{}\n", lines.join("\n")).into_bytes()
}

fn utility(r: &Report) -> Value {
    serde_json::to_value(r.metrics.iter().filter(|m| m.family == "utility_rut" || m.family == "utility_arx").collect::<Vec<_>>()).unwrap()
}

#[test]
fn shuffled_rows_paired_by_record_id_change_nothing() {
    let (o, p) = (fixture("g3_original.csv"), fixture("g3_released.csv"));
    let base = against(&o, &p, &g3_config());
    let shuffled = against(&o, &reversed(&p), &g3_config());
    assert!(same(&utility(&base), &utility(&shuffled)));
    let both = against(&reversed(&o), &reversed(&p), &g3_config());
    assert!(same(&utility(&base), &utility(&both)));
    assert_close(table_num(&shuffled, "utility_u"), 0.6480402770835352, "utility_u");
    // Paired by row order instead, the reversed release is compared with the wrong records.
    let by_row = AuditConfig { record_id: None, ..g3_config() };
    let wrong = against(&o, &reversed(&p), &by_row);
    assert!(num_of(&wrong, "proximity_loss", "income") > 0.5);
    assert!(num_of(&wrong, "consistency_loss", "diag") > 0.0);
    // The unpaired measures do not care.
    assert_close(num_of(&wrong, "cosine_similarity", "age"), 0.4926768681944593, "age cosine");
}

#[test]
fn a_dropped_attribute_is_a_total_loss() {
    let o = fixture("g3_original.csv");
    let p = String::from_utf8(fixture("g3_released.csv")).unwrap();
    // Without the income column (the fifth of six).
    let without: String = p
        .lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            cells.remove(4);
            cells.join(",") + "\n"
        })
        .collect();
    let r = against(&o, without.as_bytes(), &g3_config());
    assert_eq!(num_of(&r, "attribute_loss", "income"), 1.0);
    assert_eq!(num_of(&r, "attribute_similarity", "income"), 0.0);
    assert_eq!(for_attribute(&r, "attribute_loss", "income").details["dropped"], json!(true));
    for id in ["gen_loss", "mad", "proximity_loss", "entropy_loss", "consistency_loss", "cosine_similarity", "jaccard_similarity", "jaccard_set"] {
        let m = for_attribute(&r, id, "income");
        assert_eq!((m.status, m.reason), (Status::NotApplicable, Some("attribute_dropped")), "{id}");
    }
    assert_close(num_of(&r, "entropy_original", "income"), 3.584962500721156, "O is still there");
    let l = (0.9083333333333335 + 0.9900000000000001 + 0.0 + 1.0 + 0.4275177234956095) / 5.0;
    assert_close(table_num(&r, "l_total"), l, "l_total");
    let s = (0.4926768681944593 + 0.7999999999999999 + 1.0 + 0.0 + 0.6941176470588236) / 5.0;
    assert_close(table_num(&r, "s_total"), s, "s_total");
    // The record-level proximity loss keeps age only.
    assert_eq!(table(&r, "proximity_loss_record_l1").details["attributes"], json!(["age"]));
}

#[test]
fn weights_and_exclusions() {
    // diag counts three times; a weight of 0 leaves sex out of the mean.
    let r = g3_report(|c| {
        c.attributes.get_mut("diag").unwrap().weight = Some(3.0);
        c.attributes.insert("sex".into(), AttributeSettings { weight: Some(0.0), ..Default::default() });
    });
    let l = (0.9083333333333335 + 0.9900000000000001 + 0.013874020922320323 + 3.0 * 0.4275177234956095) / 6.0;
    assert_close(table_num(&r, "l_total"), l, "weighted l_total");
    // Under lmax_mode = fixed without a value income has no loss component: excluded.
    let r = g3_report(|c| c.utility.lmax_mode = LmaxMode::Fixed);
    let m = table(&r, "l_total");
    assert_eq!(m.details["excluded"], json!(["income"]));
    assert_eq!(m.warnings, ["attribute_excluded_from_totals"]);
    assert_eq!(for_attribute(&r, "attribute_loss", "income").reason, Some("no_usable_component"));
    assert_close(m.value.as_f64().unwrap(), (0.9083333333333335 + 0.9900000000000001 + 0.4275177234956095) / 4.0, "l_total without income");
}

#[test]
fn rows_that_cannot_be_paired() {
    let o = fixture("g3_original.csv");
    let p = String::from_utf8(fixture("g3_released.csv")).unwrap();
    let fewer: String = p.lines().take(11).map(|l| format!("{l}\n")).collect();
    let r = against(&o, fewer.as_bytes(), &AuditConfig { record_id: None, ..g3_config() });
    for id in ["distance_manhattan", "mad", "proximity_loss", "consistency_loss"] {
        let m = for_attribute(&r, id, "income");
        assert_eq!((m.status, m.reason), (Status::Error, Some("row_count_mismatch")), "{id}");
    }
    assert_eq!(table(&r, "proximity_loss_record_l1").status, Status::Error);
    assert_eq!(for_attribute(&r, "arx_nue", "age").reason, Some("row_count_mismatch"));
    // gen_loss falls back to every released cell: 10 age ranges at 0.9.
    let g = for_attribute(&r, "gen_loss", "age");
    assert_close(g.value.as_f64().unwrap(), 0.9, "unpaired gen_loss");
    assert_eq!(g.details["counted"], json!("released_cells"));
    // A recoded label cannot be sized without pairs; diag's labels are hierarchy nodes.
    assert!(for_attribute(&r, "gen_loss", "diag").warnings.is_empty());
    assert_eq!(table(&r, "utility_u").status, Status::Ok);
}

/// Weighted entropy and similarity (utility.md Sec 4 "p_v = weight share", Sec 6.1 "counts are
/// weighted"), by hand. O: F (w 1), F (w 1), M (w 2) -> masses F 2, M 2, shares (1/2, 1/2),
/// H(O) = 1 bit. P: F (w 1), F (w 1), M (w 6) -> F 2, M 6, shares (1/4, 3/4),
/// H(P) = -(1/4 log2 1/4 + 3/4 log2 3/4) = 0.5 + 0.3112781245 = 0.8112781245;
/// entropy_loss = (1 - 0.8112781245)/1 = 0.1887218755.
/// cosine = (1/2 1/4 + 1/2 3/4) / (sqrt(1/2) sqrt(10/16)) = 0.5 / 0.5590169944 = 2/sqrt(5)
/// = 0.8944271910; weighted Jaccard = (1/4 + 1/2)/(1/2 + 3/4) = 0.6.
/// Unweighted the two tables are alike (F 2, M 1 each): loss 0, cosine 1.
#[test]
fn weighted_entropy_and_similarity() {
    let o = b"rid,sex,w\n1,F,1\n2,F,1\n3,M,2\n";
    let p = b"rid,sex,w\n1,F,1\n2,F,1\n3,M,6\n";
    let mut config = qi(&["sex"]);
    config.record_id = Some("rid".into());
    let plain = against(o, p, &config);
    assert_close(num_of(&plain, "entropy_original", "sex"), 0.9182958340544896, "unweighted H(O)");
    assert_eq!(num_of(&plain, "entropy_loss", "sex"), 0.0);
    assert_close(num_of(&plain, "cosine_similarity", "sex"), 1.0, "unweighted cosine");
    config.weight = Some("w".into());
    let r = against(o, p, &config);
    assert_close(num_of(&r, "entropy_original", "sex"), 1.0, "H(O)");
    assert_close(num_of(&r, "entropy_released", "sex"), 0.8112781244591328, "H(P)");
    assert_close(num_of(&r, "entropy_loss", "sex"), 0.18872187554086717, "entropy_loss");
    assert_close(num_of(&r, "cosine_similarity", "sex"), 2.0 / 5f64.sqrt(), "cosine");
    assert_close(num_of(&r, "jaccard_similarity", "sex"), 0.6, "jaccard");
    let d = &for_attribute(&r, "entropy_released", "sex").details;
    assert_eq!((d["weighted"].clone(), d["weight_total"].clone(), d["n"].clone()), (json!(true), json!(8.0), json!(3)));
    let d = &for_attribute(&r, "cosine_similarity", "sex").details;
    assert_eq!(d["weighted"], json!({ "original": true, "released": true }));
    assert_eq!((d["weight_original"].clone(), d["weight_released"].clone()), (json!(4.0), json!(8.0)));
    // jaccard_set compares the value sets: not weighed.
    assert_eq!(num_of(&r, "jaccard_set", "sex"), 1.0);
}

/// An original without the weight column counts each row 1. O: F, F, M -> (2/3, 1/3); P as
/// above weighed (1/4, 3/4). cosine = (2/3 1/4 + 1/3 3/4) / (sqrt(5/9) sqrt(10/16))
/// = (5/12) / (sqrt(50)/12) = 5/sqrt(50) = 1/sqrt(2); weighted Jaccard
/// = (1/4 + 1/3)/(2/3 + 3/4) = (7/12)/(17/12) = 7/17. H(O) = 0.9182958341 (counts).
/// A weight that is not a number in O: error `invalid_weight`; all weights 0 in P:
/// `zero_weight`.
#[test]
fn weights_of_one_table_only_and_invalid_weights() {
    let o = b"rid,sex\n1,F\n2,F\n3,M\n";
    let p = b"rid,sex,w\n1,F,1\n2,F,1\n3,M,6\n";
    let mut config = qi(&["sex"]);
    config.record_id = Some("rid".into());
    config.weight = Some("w".into());
    let r = against(o, p, &config);
    assert_close(num_of(&r, "cosine_similarity", "sex"), 1.0 / 2f64.sqrt(), "cosine");
    assert_close(num_of(&r, "jaccard_similarity", "sex"), 7.0 / 17.0, "jaccard");
    assert_close(num_of(&r, "entropy_original", "sex"), 0.9182958340544896, "H(O) by counts");
    assert_eq!(for_attribute(&r, "entropy_original", "sex").details["weighted"], json!(false));
    let bad = against(b"rid,sex,w\n1,F,x\n2,F,1\n3,M,2\n", p, &config);
    for id in ["entropy_original", "entropy_difference", "entropy_loss", "cosine_similarity", "jaccard_similarity"] {
        let m = for_attribute(&bad, id, "sex");
        assert_eq!((m.status, m.reason), (Status::Error, Some("invalid_weight")), "{id}");
    }
    assert_close(num_of(&bad, "entropy_released", "sex"), 0.8112781244591328, "H(P) still");
    let zero = against(b"rid,sex,w\n1,F,1\n2,F,1\n3,M,2\n", b"rid,sex,w\n1,F,0\n2,F,0\n3,M,0\n", &config);
    for id in ["entropy_released", "entropy_loss", "cosine_similarity"] {
        assert_eq!(for_attribute(&zero, id, "sex").reason, Some("zero_weight"), "{id}");
    }
}
