//! Golden values of the attribute-disclosure options (issue 15): the hierarchical t-closeness
//! distance (golden.md G2; attribute-risk.md Sec 3), declared ordinal sensitive attributes
//! (README Sec 4.1; attribute-risk.md Sec 3 ordered distance) and `t_reference = original`
//! (attribute-risk.md Sec 1). Values not in the spec are derived by hand beside each test.

mod common;

use common::*;
use pseudolens_core::attribute::{AttributeParams, TDistance, TReference};
use pseudolens_core::metric::{MetricResult, Status};
use pseudolens_core::table::kind::Kind;
use pseudolens_core::{AttributeSettings, AuditConfig, Report};
use serde_json::json;

fn sa_config(qis: &[&str], sa: &[&str]) -> AuditConfig {
    AuditConfig { sensitive: sa.iter().map(|s| s.to_string()).collect(), ..qi(qis) }
}

fn of<'r>(r: &'r Report, id: &str, sa: &str) -> &'r MetricResult {
    r.metrics.iter().find(|m| m.id == id && m.scope.sensitive.as_deref() == Some(sa)).unwrap_or_else(|| panic!("{id} for {sa}"))
}

fn v(r: &Report, id: &str, sa: &str) -> f64 {
    of(r, id, sa).value.as_f64().unwrap_or_else(|| panic!("{id} {sa}: {:?}", of(r, id, sa)))
}

/// golden.md G2's hierarchy of `disease` in ARX's layout: leaf, category, root.
fn disease_hierarchy() -> Vec<Vec<String>> {
    [
        ("flu", "Respiratory"),
        ("pneumonia", "Respiratory"),
        ("bronchitis", "Respiratory"),
        ("gastric ulcer", "Digestive"),
        ("gastritis", "Digestive"),
        ("stomach cancer", "Digestive"),
    ]
    .iter()
    .map(|(leaf, node)| vec![leaf.to_string(), node.to_string(), "*".to_string()])
    .collect()
}

fn g2_hierarchical(rows: Vec<Vec<String>>, t_threshold: Option<f64>) -> Report {
    let mut config = sa_config(&["zip", "age"], &["disease"]);
    config.attribute = AttributeParams { t_distance: TDistance::Hierarchical, t_threshold, ..Default::default() };
    config.attributes.insert("disease".into(), AttributeSettings { hierarchy: Some(rows), ..Default::default() });
    audit(&fixture("g2.csv"), &config)
}

#[test]
fn g2_hierarchical_distance() {
    let r = g2_hierarchical(disease_hierarchy(), None);
    // golden.md G2: t_closeness_hierarchical = 21/39, attained by class X = (476**, 20-29).
    assert_close(v(&r, "t_closeness_hierarchical", "disease"), 21.0 / 39.0, "hierarchical");
    assert_close(v(&r, "t_closeness", "disease"), 21.0 / 39.0, "t_closeness with the hierarchical distance");
    let t = of(&r, "t_closeness", "disease");
    assert_eq!(t.details["distance"], json!("hierarchical"));
    assert_eq!(t.details["worst_class"], json!({ "zip": "476**", "age": "20-29" }));
    assert_eq!(of(&r, "t_closeness_hierarchical", "disease").details["worst_class"], json!({ "zip": "476**", "age": "20-29" }));
    // The equal distance is still reported beside it (golden.md G2: 8/13).
    assert_close(v(&r, "t_closeness_equal", "disease"), 8.0 / 13.0, "equal");
    assert_close(v(&r, "t_closeness", "*"), 21.0 / 39.0, "aggregate");
}

#[test]
fn g2_hierarchical_per_class() {
    // golden.md G2 per class: X 0.5384615385, Y 0.2179487179, Z 0.3717948718, W 0.3365384615.
    // Each class is listed as failing just below its value and not just above it, so every
    // per-class distance is checked to 1e-9. By hand, class Y = (4790*, >=40) = {gastritis,
    // flu, bronchitis}, Q = (flu 4, gastritis 3, bronchitis 2, stomach cancer 2, gastric
    // ulcer 1, pneumonia 1)/13, extras x39: flu 1, pneumonia -3, bronchitis 7 (Respiratory:
    // pos 8, neg 3, weight 1/2); gastric ulcer -3, gastritis 4, stomach cancer -6 (Digestive:
    // pos 4, neg 9, weight 1/2); root: Respiratory +5, Digestive -5 (weight 1):
    // (3/2 + 4/2 + 5)/39 = 8.5/39 = 0.2179487179.
    for (zip, age, d) in [("476**", "20-29", 0.5384615385), ("4790*", ">=40", 8.5 / 39.0), ("476**", "30-39", 0.3717948718), ("4790*", "30-39", 0.3365384615)] {
        let class = json!({ "zip": zip, "age": age });
        let listed = |t0: f64| {
            let r = g2_hierarchical(disease_hierarchy(), Some(t0));
            of(&r, "t_closeness", "disease").details["failing"]["listed"].as_array().unwrap().contains(&class)
        };
        assert!(listed(d - 1e-9), "{class} listed below {d}");
        assert!(!listed(d + 1e-9), "{class} not listed above {d}");
    }
}

#[test]
fn flat_hierarchy_equals_equal_distance() {
    // Every leaf directly under the root: H = 1 and the root's min(pos, neg) = 1/2 sum |P - Q|,
    // the equal distance (8/13 on G2).
    let flat = disease_hierarchy().into_iter().map(|row| vec![row[0].clone(), "*".into()]).collect();
    let r = g2_hierarchical(flat, None);
    assert_close(v(&r, "t_closeness_hierarchical", "disease"), 8.0 / 13.0, "flat");
}

#[test]
fn incomplete_hierarchy() {
    let rows = disease_hierarchy().into_iter().filter(|row| row[0] != "pneumonia").collect();
    let r = g2_hierarchical(rows, None);
    let h = of(&r, "t_closeness_hierarchical", "disease");
    assert_eq!((h.status, h.reason), (Status::NotApplicable, Some("hierarchy_incomplete")));
    assert_eq!(h.details["missing"], json!(["pneumonia"]));
    assert_eq!(of(&r, "t_closeness", "disease").reason, Some("hierarchy_incomplete"));
    // Without a hierarchy: not applicable, and the default distance is unchanged.
    let r = audit(&fixture("g2.csv"), &sa_config(&["zip", "age"], &["disease"]));
    assert_eq!(of(&r, "t_closeness_hierarchical", "disease").reason, Some("no_hierarchy"));
    assert_eq!(of(&r, "t_closeness", "disease").details["distance"], json!("equal"));
}

#[test]
fn blank_value_hangs_under_the_root() {
    // Class x = {a}, class y = {b, MISSING}; hierarchy a, b -> G -> *: H = 2, MISSING is a leaf
    // under the root. Q = (a 1/3, b 1/3, MISSING 1/3). Class x: extras a 2/3, b -1/3, MISSING
    // -1/3; G: pos 2/3, neg 1/3 -> 1/3 x 1/2; root: G +1/3, MISSING -1/3 -> 1/3 x 1.
    // D = 1/6 + 1/3 = 1/2. Class y: a -1/3, b 1/6, MISSING 1/6; G: min(1/6, 1/3) x 1/2 = 1/12;
    // root: G -1/6, MISSING +1/6 -> 1/6. D = 1/4. t = 1/2.
    let mut config = sa_config(&["q"], &["s"]);
    config.attribute.t_distance = TDistance::Hierarchical;
    let rows = vec![vec!["a".to_string(), "G".into(), "*".into()], vec!["b".to_string(), "G".into(), "*".into()]];
    config.attributes.insert("s".into(), AttributeSettings { hierarchy: Some(rows), ..Default::default() });
    let r = audit(b"q,s\nx,a\ny,b\ny,\n", &config);
    assert_close(v(&r, "t_closeness", "s"), 0.5, "with a blank");
}

fn ordinal(order: &[&str]) -> AttributeSettings {
    AttributeSettings { kind: Some(Kind::Ordinal), order: Some(order.iter().map(|s| s.to_string()).collect()), ..Default::default() }
}

#[test]
fn ordinal_sa_uses_the_declared_order() {
    // Class x = {low}; class y = low x4, mid x3, high x2: Q = (low 5, mid 3, high 2)/10.
    // Declared order low < mid < high: P - Q = (0.5, -0.3, -0.2), cumulative 0.5, 0.2:
    // D_ord = 0.7 / 2 = 0.35 (golden.md G7.3's ordered example). Code-point order (high, low,
    // mid) would give (-0.2, 0.5, -0.3), cumulative -0.2, 0.3: 0.25.
    let mut csv = String::from("q,s\nx,low\n");
    for (s, n) in [("low", 4), ("mid", 3), ("high", 2)] {
        csv.push_str(&format!("y,{s}\n").repeat(n));
    }
    let mut config = sa_config(&["q"], &["s"]);
    config.attributes.insert("s".into(), ordinal(&["low", "mid", "high"]));
    let r = audit(csv.as_bytes(), &config);
    assert_close(v(&r, "t_closeness", "s"), 0.35, "ordinal, default distance");
    assert_eq!(of(&r, "t_closeness", "s").details["distance"], json!("ordered"));
    assert_close(v(&r, "t_closeness_ordered", "s"), 0.35, "ordered");
    assert_eq!(of(&r, "t_closeness_ordered", "s").details["order"], json!("declared"));
    assert_close(v(&r, "t_closeness_equal", "s"), 0.5, "equal");
    // The same labels undeclared: categorical, equal distance, no ordered distance.
    let r = audit(csv.as_bytes(), &sa_config(&["q"], &["s"]));
    assert_close(v(&r, "t_closeness", "s"), 0.5, "categorical");
    assert_eq!(of(&r, "t_closeness_ordered", "s").reason, Some("sa_not_ordered"));
    // Asked for explicitly, the ordered distance of a categorical SA is not applicable.
    let mut config = sa_config(&["q"], &["s"]);
    config.attribute.t_distance = TDistance::Ordered;
    assert_eq!(of(&audit(csv.as_bytes(), &config), "t_closeness", "s").reason, Some("sa_not_ordered"));
}

#[test]
fn ordinal_blanks_come_last() {
    // Class x = {low}; class y = low x4, mid x3, high, MISSING: V in order (low, mid, high,
    // MISSING), Q = (5, 3, 1, 1)/10. Class x: P - Q = (0.5, -0.3, -0.1, -0.1), cumulative 0.5,
    // 0.2, 0.1: D = 0.8 / 3 = 0.2666666667 (MISSING first would give 0.6 / 3 = 0.2).
    let mut csv = String::from("q,s\nx,low\n");
    for (s, n) in [("low", 4), ("mid", 3), ("high", 1), ("", 1)] {
        csv.push_str(&format!("y,{s}\n").repeat(n));
    }
    let mut config = sa_config(&["q"], &["s"]);
    config.attributes.insert("s".into(), ordinal(&["low", "mid", "high"]));
    let r = audit(csv.as_bytes(), &config);
    assert_close(v(&r, "t_closeness", "s"), 0.8 / 3.0, "blanks last");
}

#[test]
fn ordinal_label_unknown_and_config_errors() {
    let mut config = sa_config(&["q"], &["s"]);
    config.attributes.insert("s".into(), ordinal(&["low", "high"]));
    let r = audit(b"q,s\nx,low\ny,mid\ny,high\n", &config);
    let t = of(&r, "t_closeness", "s");
    assert_eq!((t.status, t.reason), (Status::Error, Some("ordinal_label_unknown")));
    assert_eq!(t.details["labels"], json!(["mid"]));
    // An ordinal kind needs its order; an order needs the ordinal kind; a label once.
    let code = |settings: AttributeSettings| {
        let mut c = sa_config(&["q"], &["s"]);
        c.attributes.insert("s".into(), settings);
        pseudolens_core::Audit::new(c).err().map(|e| e.code)
    };
    assert_eq!(code(AttributeSettings { kind: Some(Kind::Ordinal), ..Default::default() }), Some("ordinal_order_missing"));
    assert_eq!(code(AttributeSettings { order: Some(vec!["a".into()]), ..Default::default() }), Some("order_without_ordinal"));
    assert_eq!(code(ordinal(&["a", "b", "a"])), Some("ordinal_label_repeated"));
    assert_eq!(code(ordinal(&["a", "b"])), None);
}

#[test]
fn numeric_order_declared_as_ordinal_gives_the_numeric_distance() {
    // golden.md G2's salary declared ordinal in its numeric order: t = 1/3 as numeric.
    let mut config = sa_config(&["zip", "age"], &["salary"]);
    config.attributes.insert("salary".into(), ordinal(&["3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]));
    let r = audit(&fixture("g2.csv"), &config);
    assert_close(v(&r, "t_closeness", "salary"), 1.0 / 3.0, "declared numeric order");
}

#[test]
fn t_reference_original() {
    // O's SA: a x2, b, c (n = 4): Q = (a 1/2, b 1/4, c 1/4, d 0); V = {a, b, c, d}.
    // P: class x = {a, b}, class y = {a, d}.
    // Equal distance: x: 1/2 (0 + 1/4 + 1/4 + 0) = 1/4; y: 1/2 (0 + 1/4 + 1/4 + 1/2) = 1/2.
    // beta: x, b: (1/2 - 1/4)/(1/4) = 1; y: a has P = Q, d has Q = 0 (skipped): beta = 1.
    // delta: x: |ln 1|, |ln 2|; y: |ln 1|, d skipped: ln 2. unseen_values = [[d, 1 record]].
    let o = b"q,s\nx,a\nx,a\ny,b\ny,c\n";
    let p = b"q,s\nx,a\nx,b\ny,a\ny,d\n";
    let mut config = sa_config(&["q"], &["s"]);
    config.attribute.t_reference = TReference::Original;
    let r = against(o, p, &config);
    assert_close(v(&r, "t_closeness", "s"), 0.5, "t");
    assert_eq!(of(&r, "t_closeness", "s").details["reference"], json!("original"));
    assert_close(v(&r, "beta_likeness_basic", "s"), 1.0, "beta");
    assert_close(v(&r, "delta_disclosure", "s"), std::f64::consts::LN_2, "delta");
    assert_eq!(of(&r, "beta_likeness_basic", "s").details["unseen_values"], json!([["d", 1]]));
    assert_eq!(of(&r, "delta_disclosure", "s").details["unseen_values"], json!([["d", 1]]));
    // Released reference: Q = (a 1/2, b 1/4, d 1/4): both classes at 1/4.
    config.attribute.t_reference = TReference::Released;
    let r = against(o, p, &config);
    assert_close(v(&r, "t_closeness", "s"), 0.25, "released");
    assert!(of(&r, "beta_likeness_basic", "s").details.get("unseen_values").is_none());
    // Without an original: Q is the release's, with a warning.
    config.attribute.t_reference = TReference::Original;
    let r = audit(p, &config);
    assert_close(v(&r, "t_closeness", "s"), 0.25, "no original");
    assert_eq!(of(&r, "t_closeness", "s").warnings, ["original_lacks_sensitive"]);
}

#[test]
fn ordinal_attribute_in_the_permutation_model() {
    // utility.md Sec 11.1: an ordinal attribute enters the permutation model as its position
    // in the declared order (low 0 < mid 1 < high 2). O's grade x = (low, mid, high, low) =
    // (0, 1, 2, 0), P's y = (mid, high, low, low) = (1, 2, 0, 0), paired by row order.
    // Sec 11.3: s = rows of x ascending, ties by row = (0, 3, 1, 2), rX = (0, 2, 3, 1); y
    // ascending, ties by rX: rows 3 (0, rX 1), 2 (0, rX 3), 0, 1: rY = (2, 3, 1, 0).
    // z_i = x[s[rY_i]] = (1, 2, 0, 0); pi = s[rY] + 1 = (2, 3, 4, 1); e = y - z = 0;
    // d = |rX - rY| = (2, 1, 2, 1). (Code-point order high < low < mid would give pi =
    // (2, 3, 1, 4).) A label the order lacks, and a blank, leave their pair out (Sec 11.1).
    let o = b"q,grade\na,low\nb,mid\nc,high\nd,low\ne,mid\n";
    let p = b"q,grade\na,mid\nb,high\nc,low\nd,low\ne,\n";
    let mut config = AuditConfig { utility_columns: vec!["grade".into()], ..qi(&["q"]) };
    config.attributes.insert("grade".into(), ordinal(&["low", "mid", "high"]));
    let r = against(o, p, &config);
    let m = r.metrics.iter().find(|m| m.id == "perm_reverse_mapping" && m.scope.attribute.as_deref() == Some("grade")).expect("grade enters the model");
    assert_eq!(m.status, Status::Ok, "{m:?}");
    assert_eq!(m.details["z"], json!([1.0, 2.0, 0.0, 0.0]));
    assert_eq!(m.details["pi"], json!([2, 3, 4, 1]));
    assert_eq!(m.details["d"], json!([2, 1, 2, 1]));
    assert_close(m.value["mean_d"].as_f64().unwrap(), 1.5, "mean d");
    assert_eq!(m.value["mean_abs_e"], json!(0.0));
    // Undeclared, the same column is categorical: it stays out of the model.
    let r = against(o, p, &AuditConfig { utility_columns: vec!["grade".into()], ..qi(&["q"]) });
    assert!(!r.metrics.iter().any(|m| m.id == "perm_reverse_mapping" && m.scope.attribute.as_deref() == Some("grade")));
}

/// Six records, QI q, SAs s1 (text) and s2 (numeric), for the modes of Sec 8.
const TWO_SAS: &[u8] = b"q,s1,s2\nx,a,1\nx,a,2\nx,b,1\ny,a,1\ny,b,2\ny,b,2\n";

#[test]
fn sa_mode_combined() {
    // Pseudo-SA of the tuples: class x = {(a,1), (a,2), (b,1)}, class y = {(a,1), (b,2) x2};
    // Q = ((a,1) 2, (a,2) 1, (b,1) 1, (b,2) 2)/6. l_distinct = min(3, 2) = 2. Equal distance
    // (a tuple has no order): x: 1/2 (0 + 1/6 + 1/6 + 1/3) = 1/3; y: 1/2 (0 + 1/6 + 1/6 + 1/3)
    // = 1/3. alpha = 2/3 (y, (b,2)). Per attribute, t would be 1/6 for both s1 and s2.
    let mut config = sa_config(&["q"], &["s1", "s2"]);
    config.attribute.sa_mode = pseudolens_core::attribute::SaMode::Combined;
    let r = audit(TWO_SAS, &config);
    let name = "s1 + s2";
    assert_eq!(v(&r, "l_distinct", name), 2.0);
    assert_close(v(&r, "t_closeness", name), 1.0 / 3.0, "combined t");
    assert_eq!(of(&r, "t_closeness", name).details["distance"], json!("equal"));
    assert_close(of(&r, "alpha_k_anonymity", name).value["alpha"].as_f64().unwrap(), 2.0 / 3.0, "alpha");
    assert_close(v(&r, "t_closeness", "*"), 1.0 / 3.0, "aggregate");
    assert!(!r.metrics.iter().any(|m| m.family == "attribute" && m.scope.sensitive.as_deref() == Some("s1")), "no per-SA result");
    let per = audit(TWO_SAS, &sa_config(&["q"], &["s1", "s2"]));
    assert_close(v(&per, "t_closeness", "s1"), 1.0 / 6.0, "per attribute s1");
    assert_close(v(&per, "t_closeness", "s2"), 1.0 / 6.0, "per attribute s2");
}

#[test]
fn sa_mode_extend_qi() {
    // s1 on classes (q, s2): (x,1) = {a, b}, (x,2) = {a}, (y,1) = {a}, (y,2) = {b, b};
    // Q = (a 1/2, b 1/2): D_eq = 0, 1/2, 1/2, 1/2; t = 1/2; l_distinct = 1; k = 1, so
    // l_distinct_max = min(1, 2) = 1. s2 on classes (q, s1): (x,a) = {1, 2}, (x,b) = {1},
    // (y,a) = {1}, (y,b) = {2, 2}; Q = (1: 1/2, 2: 1/2), ordered (m = 2): |P(1) - Q(1)| = 0,
    // 1/2, 1/2, 1/2; t = 1/2. The aggregate: t 1/2, l 1, scoped to q alone (pyCANON gen=False).
    let mut config = sa_config(&["q"], &["s1", "s2"]);
    config.attribute.sa_mode = pseudolens_core::attribute::SaMode::ExtendQi;
    let r = audit(TWO_SAS, &config);
    for (sa, qis, distance) in [("s1", ["q", "s2"], "equal"), ("s2", ["q", "s1"], "ordered")] {
        assert_close(v(&r, "t_closeness", sa), 0.5, sa);
        assert_eq!(of(&r, "t_closeness", sa).details["distance"], json!(distance));
        assert_eq!(of(&r, "t_closeness", sa).scope.quasi_identifiers, qis);
        assert_eq!(v(&r, "l_distinct", sa), 1.0);
        assert_eq!(v(&r, "l_distinct_max", sa), 1.0);
    }
    assert_close(v(&r, "t_closeness", "*"), 0.5, "aggregate");
    assert_eq!(v(&r, "l_distinct", "*"), 1.0);
    assert_eq!(of(&r, "t_closeness", "*").scope.quasi_identifiers, ["q"]);
    // The identity family still uses A alone.
    assert_eq!(value(&r, "k_anonymity"), &json!(3));
}
