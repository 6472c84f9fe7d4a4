//! Property tests of the \[RUT\] utility measures (spec utility.md Sec 2-7, 9): on random
//! originals and releases made of the transformations the spec names (rounding, ranges,
//! digit masks, suppression, recoding to hierarchy nodes, masks, prefix truncation, invalid
//! cells, removed records), every loss and similarity stays in `[0, 1]`, no value is lost to
//! NaN, the row order of either table changes nothing under record-id pairing, and a table
//! compared with itself loses nothing.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::metric::Status;
use pseudolens_core::table::kind::Kind;
use pseudolens_core::utility::attribute::AttributeSettings;
use pseudolens_core::utility::params::{Aggregation, LmaxMode, ProximityNorm};
use pseudolens_core::{AuditConfig, Report};

/// One original row: numeric, categorical (with a hierarchy), digit-string code.
type Row = (Option<u8>, usize, usize);
/// How each cell is released.
type Change = (u8, u8, u8);

const CATS: [&str; 5] = ["aa", "ab", "ba", "bb", "c1"];
const ZIPS: [&str; 5] = ["13053", "13068", "14812", "14830", "23001"];

fn original_rows() -> impl Strategy<Value = Vec<(Row, Change)>> {
    let row = (prop::option::weighted(0.9, 0u8..100), 0usize..5, 0usize..5);
    prop::collection::vec((row, (0u8..9, 0u8..6, 0u8..5)), 1..40)
}

fn released_num(x: Option<u8>, how: u8) -> String {
    let Some(x) = x else { return String::new() };
    let d = x / 10 * 10;
    match how {
        0 => x.to_string(),
        1 => format!("{}", (f64::from(x) / 10.0).round() * 10.0),
        2 => format!("{d}-{}", d + 9),
        3 => format!("\"[{d},{})\"", d + 10),
        4 => "*".into(),
        5 => String::new(),
        6 => "x".into(),
        7 => ">=50".into(),
        _ => format!("{}*", x / 10),
    }
}

fn released_cat(c: usize, how: u8) -> String {
    let v = CATS[c];
    match how {
        0 => v.into(),
        1 => v[..1].to_uppercase(),
        2 => format!("{}*", &v[..1]),
        3 => "*".into(),
        4 => "zz".into(),
        _ => "NA".into(),
    }
}

fn released_zip(z: usize, how: u8) -> String {
    let v = ZIPS[z];
    match how {
        0 => v.into(),
        1 => v[..3].into(),
        2 => format!("{}**", &v[..3]),
        3 => "*".into(),
        _ => v[..4].into(),
    }
}

fn original_csv(rows: &[(Row, Change)]) -> Vec<u8> {
    let mut s = String::from("rid,num,cat,zip\n");
    for (i, ((x, c, z), _)) in rows.iter().enumerate() {
        s.push_str(&format!("r{i},{},{},{}\n", x.map(|x| x.to_string()).unwrap_or_default(), CATS[*c], ZIPS[*z]));
    }
    s.into_bytes()
}

/// The release of the rows in `order`, leaving out those `keep` rejects.
fn released_csv(rows: &[(Row, Change)], order: &[usize], keep: &[bool]) -> Vec<u8> {
    let mut s = String::from("rid,num,cat,zip\n");
    for &i in order.iter().filter(|&&i| keep[i]) {
        let ((x, c, z), (hn, hc, hz)) = rows[i];
        s.push_str(&format!("r{i},{},{},{}\n", released_num(x, hn), released_cat(c, hc), released_zip(z, hz)));
    }
    s.into_bytes()
}

/// Settings: norm, lmax mode, aggregations.
type Setting = (bool, u8, bool, bool);

fn setting() -> impl Strategy<Value = Setting> {
    (any::<bool>(), 0u8..3, any::<bool>(), any::<bool>())
}

fn config((euclidean, lmax, max_components, max_totals): Setting) -> AuditConfig {
    let mut c = qi(&["num", "cat", "zip"]);
    c.record_id = Some("rid".into());
    c.utility.proximity_norm = if euclidean { ProximityNorm::Euclidean } else { ProximityNorm::Manhattan };
    c.utility.lmax_mode = [LmaxMode::Baseline, LmaxMode::Rule, LmaxMode::Fixed][lmax as usize];
    c.utility.lmax_value = Some(7.5);
    c.utility.component_aggregation = if max_components { Aggregation::Max } else { Aggregation::Mean };
    c.utility.total_aggregation = if max_totals { Aggregation::Max } else { Aggregation::Mean };
    c.utility.similarity_bins = 7;
    c.attributes.insert("num".into(), AttributeSettings { rounding_unit: Some(10.0), ..Default::default() });
    c.attributes.insert("zip".into(), AttributeSettings { kind: Some(Kind::Categorical), ..Default::default() });
    let hierarchy = CATS.iter().map(|v| vec![v.to_string(), v[..1].to_uppercase()]).collect();
    c.attributes.insert("cat".into(), AttributeSettings { hierarchy: Some(hierarchy), weight: Some(2.0), ..Default::default() });
    c
}

/// Ids whose value lies in `[0, 1]`.
const BOUNDED: [&str; 17] = [
    "gen_loss",
    "gen_loss_ncp",
    "proximity_loss",
    "entropy_loss",
    "consistency_loss",
    "cosine_similarity",
    "jaccard_similarity",
    "jaccard_set",
    "attribute_loss",
    "attribute_similarity",
    "proximity_loss_record_l1",
    "proximity_loss_record_l2",
    "l_total",
    "s_total",
    "utility_u",
    "arx_granularity",
    "arx_nue",
];
const LOSSES: [&str; 6] = ["gen_loss", "gen_loss_ncp", "proximity_loss", "entropy_loss", "consistency_loss", "attribute_loss"];
const SIMILARITIES: [&str; 4] = ["cosine_similarity", "jaccard_similarity", "jaccard_set", "attribute_similarity"];

fn utility(r: &Report) -> Vec<&pseudolens_core::metric::MetricResult> {
    r.metrics.iter().filter(|m| m.family == "utility_rut" || m.family == "utility_arx").collect()
}

/// A permutation of `0..n` from sort keys.
fn permutation(keys: &[u32], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (keys.get(i).copied().unwrap_or(0), i));
    order
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn losses_and_similarities_are_bounded(rows in original_rows(), keep in prop::collection::vec(prop::bool::weighted(0.85), 40), s in setting()) {
        let keep: Vec<bool> = keep.iter().take(rows.len()).copied().collect();
        let order: Vec<usize> = (0..rows.len()).collect();
        let r = against(&original_csv(&rows), &released_csv(&rows, &order, &keep), &config(s));
        let results = utility(&r);
        prop_assert!(results.len() > 60);
        for m in results {
            if m.status == Status::Ok {
                prop_assert!(!m.value.is_null(), "{} is ok without value", m.id);
            }
            if m.status != Status::Ok || !BOUNDED.contains(&m.id) {
                continue;
            }
            let v = if m.family == "utility_arx" { m.value["loss"].as_f64() } else { m.value.as_f64() };
            let v = v.unwrap();
            prop_assert!((0.0..=1.0).contains(&v), "{} of {:?} = {}", m.id, m.scope.attribute, v);
        }
        // With a released row, an attribute always has a usable component (entropy_loss or
        // a similarity at least), so U is defined.
        let u = r.metrics.iter().find(|m| m.id == "utility_u").unwrap();
        prop_assert_eq!(u.status == Status::Ok, keep.contains(&true), "{:?}", u.reason);
    }

    #[test]
    fn row_order_changes_nothing_under_record_ids(rows in original_rows(), keys_o in prop::collection::vec(any::<u32>(), 40), keys_p in prop::collection::vec(any::<u32>(), 40), keep in prop::collection::vec(prop::bool::weighted(0.85), 40), s in setting()) {
        let n = rows.len();
        let keep: Vec<bool> = keep.iter().take(n).copied().collect();
        let straight: Vec<usize> = (0..n).collect();
        let config = config(s);
        let base = against(&original_csv(&rows), &released_csv(&rows, &straight, &keep), &config);
        // Shuffle the release's rows, and the original's (rows and ids move together).
        let po = permutation(&keys_o, n);
        let shuffled_o: Vec<(Row, Change)> = po.iter().map(|&i| rows[i]).collect();
        // Ids follow the rows: row k of the shuffled O is row po[k] with its id.
        let o_bytes = {
            let mut s = String::from("rid,num,cat,zip\n");
            for (k, ((x, c, z), _)) in shuffled_o.iter().enumerate() {
                s.push_str(&format!("r{},{},{},{}\n", po[k], x.map(|x| x.to_string()).unwrap_or_default(), CATS[*c], ZIPS[*z]));
            }
            s.into_bytes()
        };
        let shuffled = against(&o_bytes, &released_csv(&rows, &permutation(&keys_p, n), &keep), &config);
        let (a, b) = (serde_json::to_value(utility(&base)).unwrap(), serde_json::to_value(utility(&shuffled)).unwrap());
        prop_assert!(same(&a, &b), "{}\n{}", a, b);
    }

    #[test]
    fn a_table_against_itself_loses_nothing(rows in original_rows(), s in setting()) {
        let o = original_csv(&rows);
        // A declared rounding unit says the release was rounded (|GR| of EXACT = u/res): not here.
        let mut config = config(s);
        config.attributes.get_mut("num").unwrap().rounding_unit = None;
        let r = against(&o, &o, &config);
        for m in utility(&r).into_iter().filter(|m| m.family == "utility_rut" && m.status == Status::Ok) {
            let v = m.value.as_f64().unwrap();
            if LOSSES.contains(&m.id) || m.id == "l_total" || m.id.starts_with("proximity_loss_record") {
                prop_assert_eq!(v, 0.0, "{} of {:?}", m.id, m.scope.attribute);
            } else if SIMILARITIES.contains(&m.id) || m.id == "s_total" || m.id == "utility_u" {
                prop_assert!(close(v, 1.0), "{} of {:?} = {}", m.id, m.scope.attribute, v);
            }
        }
        let u = r.metrics.iter().find(|m| m.id == "utility_u").unwrap();
        prop_assert!(close(u.value.as_f64().unwrap(), 1.0));
    }
}

/// The CSV `bytes` with a weight column `w`: the weight of the row with record id `r{i}` is
/// `weight(i)`.
fn with_weights(bytes: &[u8], weight: impl Fn(usize) -> String) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let mut lines = text.lines();
    let mut s = format!("{},w\n", lines.next().unwrap());
    for line in lines {
        let i: usize = line.split(',').next().unwrap()[1..].parse().unwrap();
        s.push_str(&format!("{line},{}\n", weight(i)));
    }
    s.into_bytes()
}

/// The values (not the details) of the weighted measures and the totals they feed.
fn weighed_values(r: &Report) -> serde_json::Value {
    let ids = [
        "entropy_original",
        "entropy_released",
        "entropy_difference",
        "entropy_loss",
        "cosine_similarity",
        "jaccard_similarity",
        "attribute_loss",
        "attribute_similarity",
        "l_total",
        "s_total",
        "utility_u",
    ];
    serde_json::to_value(
        r.metrics.iter().filter(|m| ids.contains(&m.id)).map(|m| (m.id, m.scope.attribute.clone(), m.status, m.value.clone())).collect::<Vec<_>>(),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Weighted entropy and similarity (utility.md Sec 4, 6.1): scaling every weight by a
    /// constant changes nothing, all weights 1 is the unweighted result, and the row order of
    /// either table changes nothing.
    #[test]
    fn weights_scale_free_and_one_is_unweighted(rows in original_rows(), w in prop::collection::vec(1u8..10, 40), keys in prop::collection::vec(any::<u32>(), 40), keep in prop::collection::vec(prop::bool::weighted(0.85), 40), s in setting()) {
        let n = rows.len();
        let keep: Vec<bool> = keep.iter().take(n).copied().collect();
        let straight: Vec<usize> = (0..n).collect();
        let (o, p) = (original_csv(&rows), released_csv(&rows, &straight, &keep));
        let mut config = config(s);
        config.weight = Some("w".into());
        let weighted = |scale: f64, o: &[u8], p: &[u8]| {
            let f = |i: usize| format!("{}", f64::from(w[i]) * scale);
            against(&with_weights(o, f), &with_weights(p, |i| format!("{}", f64::from(w[(i + 7) % 40]) * scale)), &config)
        };
        let base = weighted(1.0, &o, &p);
        let scaled = weighted(3.7, &o, &p);
        let (a, b) = (weighed_values(&base), weighed_values(&scaled));
        prop_assert!(same(&a, &b), "{}\n{}", a, b);
        let shuffled = weighted(1.0, &o, &released_csv(&rows, &permutation(&keys, n), &keep));
        let c = weighed_values(&shuffled);
        prop_assert!(same(&a, &c), "{}\n{}", a, c);
        let ones = against(&with_weights(&o, |_| "1".into()), &with_weights(&p, |_| "1".into()), &config);
        let plain = against(&o, &p, &AuditConfig { weight: None, ..config.clone() });
        let (x, y) = (weighed_values(&ones), weighed_values(&plain));
        prop_assert!(same(&x, &y), "{}\n{}", x, y);
    }
}
