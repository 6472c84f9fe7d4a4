//! Option `case_insensitive` (spec README Sec 5 step 5) on every table an audit reads: the
//! release, the original `O` (utility), the reference table `E` and the hierarchy labels.
//! The parts, the kept tables and the chunking: `accounting.rs`.

mod common;

use common::*;
use pseudolens_core::metric::Status;
use pseudolens_core::utility::attribute::AttributeSettings;
use pseudolens_core::{Audit, AuditConfig, reference};
use serde_json::json;

const RELEASE: &[u8] = b"sex,zip\nMale,130\nmale,130\nMALE,130\nFemale,130\nfemale,130\nF,131\n";

/// Hand: case-sensitively every `sex` value but `female`/`Female` differs: classes (Male,130),
/// (male,130), (MALE,130), (Female,130), (female,130), (F,131): 6 classes of 1, k = 1.
/// Case-insensitively: (male,130) x3, (female,130) x2, (f,131) x1: 3 classes, k = 1, and the
/// sample uniques fall from 6 to 1.
#[test]
fn male_male_male_form_one_class() {
    let config = qi(&["sex", "zip"]);
    let sensitive = audit(RELEASE, &config);
    assert_eq!(num(&sensitive, "n_classes"), 6.0);
    assert_eq!(num(&sensitive, "sample_uniques"), 6.0);
    let folded = audit(RELEASE, &AuditConfig { case_insensitive: true, ..config });
    assert_eq!(num(&folded, "n_classes"), 3.0);
    assert_eq!(num(&folded, "sample_uniques"), 1.0);
    assert_eq!(num(&folded, "max_class_size"), 3.0);
    assert_eq!(value(&folded, "class_size_histogram"), &json!([[1, 1, 1], [2, 1, 2], [3, 1, 3]]));
    assert!(folded.params.case_insensitive);
}

/// The missing tokens are matched before folding and case-sensitively: `NA` stays missing,
/// `Na` becomes the value `na` (README Sec 5: step 3 before step 5).
#[test]
fn missing_tokens_are_matched_before_folding() {
    let bytes = b"q\nNA\nNa\nna\nx\n";
    let r = audit(bytes, &AuditConfig { case_insensitive: true, ..qi(&["q"]) });
    // Classes: MISSING (1), na (2), x (1).
    assert_eq!(value(&r, "class_size_histogram"), &json!([[1, 2, 2], [2, 1, 2]]));
}

/// The original `O` is folded too: `O`'s `M`/`F` against `P`'s `m`/`f` is the same column.
/// Hand: O sex = M, F, M, F; P sex = m, f, m, f. Case-sensitively `P`'s values are not in
/// `Dom_O`: `jaccard_set` = |{M,F} ∩ {m,f}| / |{M,F,m,f}| = 0 (the frequency vectors go
/// through the observed recoding and agree); case-insensitively `P = O`: `jaccard_set` 1,
/// cosine 1, entropy loss 0, discernibility loss 0.
#[test]
fn the_original_is_folded_alike() {
    let o = b"rid,sex\n1,M\n2,F\n3,M\n4,F\n";
    let p = b"rid,sex\n1,m\n2,f\n3,m\n4,f\n";
    let mut config = qi(&["sex"]);
    config.record_id = Some("rid".into());
    let apart = against(o, p, &config);
    let set = for_attribute(&apart, "jaccard_set", "sex");
    assert_eq!((set.status, set.value.as_f64()), (Status::Ok, Some(0.0)));
    config.case_insensitive = true;
    let r = against(o, p, &config);
    assert_eq!(for_attribute(&r, "jaccard_set", "sex").value.as_f64(), Some(1.0));
    assert_close(for_attribute(&r, "cosine_similarity", "sex").value.as_f64().unwrap(), 1.0, "cosine");
    assert_eq!(for_attribute(&r, "entropy_loss", "sex").value.as_f64(), Some(0.0));
    let d = r.metrics.iter().find(|m| m.id == "discernibility").unwrap();
    assert_eq!(d.value["loss"], json!(0.0));
}

/// Hierarchy labels are values: a hierarchy written `Influenza -> Respiratory` recodes the
/// release's `respiratory` of the original's `INFLUENZA` once folded. Hand: O diag =
/// INFLUENZA, Pneumonia; P diag = respiratory, RESPIRATORY; both leaves under one node, so
/// `arx_gen_intensity` = mean level/(h-1) = 1/1 = 1 for both rows, and no value is outside
/// the hierarchy.
#[test]
fn hierarchy_labels_are_folded() {
    let o = b"rid,diag\n1,INFLUENZA\n2,Pneumonia\n";
    let p = b"rid,diag\n1,respiratory\n2,RESPIRATORY\n";
    let mut config = qi(&["diag"]);
    config.record_id = Some("rid".into());
    let hierarchy = vec![vec!["Influenza".to_string(), "Respiratory".to_string()], vec!["pneumonia".to_string(), "Respiratory".to_string()]];
    config.attributes.insert("diag".into(), AttributeSettings { hierarchy: Some(hierarchy), ..Default::default() });
    let apart = against(o, p, &config);
    assert_eq!(for_attribute(&apart, "arx_gen_intensity", "diag").reason, Some("no_counted_cells"));
    config.case_insensitive = true;
    let r = against(o, p, &config);
    let g = for_attribute(&r, "arx_gen_intensity", "diag");
    assert_eq!((g.status, g.value["result"].as_f64()), (Status::Ok, Some(1.0)));
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
}

/// The population table `E` is folded too. Hand: release sex = Male, Female; population
/// sex = MALE x2, male x1, FEMALE x3. k_map is the smallest population count of a released key:
/// case-sensitively neither `Male` nor `Female` is in `E`, and a key the population lacks
/// counts its released records (1 each): k_map = 1; case-insensitively `male` has 3 and
/// `female` 3: k_map = 3.
#[test]
fn the_reference_table_is_folded() {
    let population = b"sex\nMALE\nMALE\nmale\nFEMALE\nFEMALE\nFEMALE\n";
    let with_population = |config: &AuditConfig| {
        let mut e = reference(config, None);
        e.push(population).unwrap();
        let mut a = Audit::new(config.clone()).unwrap();
        a.push(b"sex\nMale\nFemale\n").unwrap();
        a.set_population(e.finish().unwrap());
        a.finish().unwrap()
    };
    let folded = with_population(&AuditConfig { case_insensitive: true, ..qi(&["sex"]) });
    assert_eq!(value(&folded, "k_map"), &json!(3));
    let apart = with_population(&qi(&["sex"]));
    assert_eq!(value(&apart, "k_map"), &json!(1));
}

/// The sensitive attribute's hierarchy and order labels are folded too (the attribute-disclosure
/// options). golden.md G2's hierarchical t-closeness of `disease` is 21/39 with the hierarchy
/// as written; with its leaves upper-cased (`FLU`, `Gastric Ulcer`, ...) they no longer name the
/// values (`hierarchy_incomplete`) unless the values are compared case-insensitively, which
/// gives 21/39 again.
#[test]
fn sensitive_hierarchy_and_order_labels_are_folded() {
    use pseudolens_core::attribute::{AttributeParams, TDistance};
    let leaves = [
        ("flu", "Respiratory"),
        ("pneumonia", "Respiratory"),
        ("bronchitis", "Respiratory"),
        ("gastric ulcer", "Digestive"),
        ("gastritis", "Digestive"),
        ("stomach cancer", "Digestive"),
    ];
    let rows = leaves.iter().map(|(leaf, node)| vec![leaf.to_uppercase(), node.to_string(), "*".to_string()]).collect();
    let mut config = AuditConfig { sensitive: vec!["disease".into()], ..qi(&["zip", "age"]) };
    config.attribute = AttributeParams { t_distance: TDistance::Hierarchical, ..Default::default() };
    config.attributes.insert("disease".into(), AttributeSettings { hierarchy: Some(rows), ..Default::default() });
    let t = |r: &pseudolens_core::Report| {
        r.metrics.iter().find(|m| m.id == "t_closeness_hierarchical" && m.scope.sensitive.as_deref() == Some("disease")).unwrap().clone()
    };
    let apart = t(&audit(&fixture("g2.csv"), &config));
    assert_eq!(apart.reason, Some("hierarchy_incomplete"));
    config.case_insensitive = true;
    let folded = t(&audit(&fixture("g2.csv"), &config));
    assert_close(folded.value.as_f64().unwrap(), 21.0 / 39.0, "hierarchical t, folded");
}

/// A declared order `LOW,Mid,HIGH` of the values low, mid, high: case-sensitively no value is
/// a label (`ordinal_label_unknown`); folded, the ordered distance applies. Hand: overall
/// (low, mid, high) = (1/2, 1/4, 1/4); class a = (1/2, 1/2, 0): cumulative differences
/// 0, 1/4, 0 -> (1/4)/(m - 1) = 1/8; class b = (1/2, 0, 1/2): 0, -1/4, 0 -> 1/8. t = 0.125.
#[test]
fn sensitive_order_labels_are_folded() {
    use pseudolens_core::table::kind::Kind;
    let bytes = b"q,s\na,low\na,mid\nb,high\nb,low\n";
    let mut config = AuditConfig { sensitive: vec!["s".into()], ..qi(&["q"]) };
    let order = Some(vec!["LOW".to_string(), "Mid".to_string(), "HIGH".to_string()]);
    config.attributes.insert("s".into(), AttributeSettings { kind: Some(Kind::Ordinal), order, ..Default::default() });
    let t =
        |r: &pseudolens_core::Report| r.metrics.iter().find(|m| m.id == "t_closeness_ordered" && m.scope.sensitive.as_deref() == Some("s")).unwrap().clone();
    assert_eq!(t(&audit(bytes, &config)).reason, Some("ordinal_label_unknown"));
    config.case_insensitive = true;
    assert_close(t(&audit(bytes, &config)).value.as_f64().unwrap(), 0.125, "ordered t, folded");
}
