//! Property tests of the attribute-disclosure options (issue 15): with a declared ordinal SA,
//! a hierarchy and each `t_distance`, any chunking, any row order and any cut into two merged
//! parts give the one-pass report; the distances keep their bounds (the equal distance bounds
//! the hierarchical and ordered ones: their ground distances lie in `[1/H, 1]` and
//! `[1/(m-1), 1]`); `t_reference = original` against the release itself changes nothing; the
//! settings survive their serialized form.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::attribute::{TDistance, TReference};
use pseudolens_core::identity::MissingPolicy;
use pseudolens_core::table::kind::Kind;
use pseudolens_core::{AttributeSettings, Audit, AuditConfig, Report};
use serde_json::Value;

fn rows() -> impl Strategy<Value = Vec<(String, String, String)>> {
    let qi = prop::sample::select(vec!["x", "y", "z", "", "*"]);
    let sa = prop::sample::select(vec!["lo", "mid", "hi", "top", "", "*"]);
    prop::collection::vec((qi.clone(), qi, sa).prop_map(|(a, b, s)| (a.to_string(), b.to_string(), s.to_string())), 1..50)
}

fn csv(rows: &[(String, String, String)]) -> Vec<u8> {
    let mut s = String::from("a,b,s,h\n");
    for (a, b, v) in rows {
        s.push_str(&format!("{a},{b},{v},{v}\n"));
    }
    s.into_bytes()
}

fn policy() -> impl Strategy<Value = MissingPolicy> {
    prop::sample::select(vec![MissingPolicy::Ordinary, MissingPolicy::Wildcard, MissingPolicy::Drop])
}

fn distance() -> impl Strategy<Value = TDistance> {
    prop::sample::select(vec![TDistance::Auto, TDistance::Equal, TDistance::Ordered, TDistance::Hierarchical])
}

/// `s` ordinal (lo < mid < hi < top) and `h` with a three-level hierarchy; both sensitive.
fn config(policy: MissingPolicy, distance: TDistance) -> AuditConfig {
    let mut c = AuditConfig { missing_policy: policy, sensitive: vec!["s".into(), "h".into()], ..qi(&["a", "b"]) };
    c.attribute.t_distance = distance;
    let order = ["lo", "mid", "hi", "top"].iter().map(|s| s.to_string()).collect();
    c.attributes.insert("s".into(), AttributeSettings { kind: Some(Kind::Ordinal), order: Some(order), ..Default::default() });
    let tree = [("lo", "low"), ("mid", "low"), ("hi", "high"), ("top", "high")];
    let rows = tree.iter().map(|(l, n)| vec![l.to_string(), n.to_string(), "*".to_string()]).collect();
    c.attributes.insert("h".into(), AttributeSettings { hierarchy: Some(rows), ..Default::default() });
    c
}

fn metrics(r: &Report) -> Value {
    serde_json::to_value(&r.metrics).unwrap()
}

fn get(r: &Report, id: &str, sa: &str) -> Option<f64> {
    r.metrics.iter().find(|m| m.id == id && m.scope.sensitive.as_deref() == Some(sa)).and_then(|m| m.value.as_f64())
}

/// The report of `rows` read as two parts cut at `cut`, merged.
fn merged_at(rows: &[(String, String, String)], cut: usize, c: &AuditConfig) -> Report {
    let part = |rows: &[(String, String, String)]| {
        let mut a = Audit::new(c.clone()).unwrap();
        a.push(&csv(rows)).unwrap();
        a.finish_part().unwrap()
    };
    let mut merged = part(&rows[..cut]);
    merged.merge(part(&rows[cut..])).unwrap();
    merged.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn chunking_and_row_order_change_nothing(rows in rows(), chunk in 1usize..40, seed in any::<u64>(), p in policy(), d in distance()) {
        let c = config(p, d);
        let whole = audit(&csv(&rows), &c);
        prop_assert_eq!(&whole, &audit_chunked(&csv(&rows), &c, chunk).unwrap());
        prop_assert!(same(&metrics(&audit(&csv(&shuffled(&rows, seed)), &c)), &metrics(&whole)));
    }

    #[test]
    fn merging_two_parts_equals_one_pass(rows in rows(), cut in 0usize..50, p in policy(), d in distance()) {
        let c = config(p, d);
        let cut = cut.min(rows.len());
        let whole = audit(&csv(&rows), &c);
        prop_assert!(same(&metrics(&merged_at(&rows, cut, &c)), &metrics(&whole)));
    }

    #[test]
    fn distances_keep_their_bounds(rows in rows(), p in policy()) {
        let r = audit(&csv(&rows), &config(p, TDistance::Auto));
        for sa in ["s", "h"] {
            let Some(eq) = get(&r, "t_closeness_equal", sa) else { continue };
            prop_assert!((0.0..=1.0 + 1e-12).contains(&eq));
            // h: H = 2 (a blank value hangs under the root).
            if let Some(hier) = get(&r, "t_closeness_hierarchical", sa) {
                prop_assert!(hier <= eq + 1e-12 && hier >= eq / 2.0 - 1e-12, "{} hier {} eq {}", sa, hier, eq);
            }
            if let Some(ord) = get(&r, "t_closeness_ordered", sa) {
                prop_assert!(ord <= eq + 1e-12, "{} ord {} eq {}", sa, ord, eq);
                prop_assert!(ord >= 0.0);
            }
        }
        // The ordinal SA's default distance is the ordered one; `h` has no ordered distance.
        if let Some(ord) = get(&r, "t_closeness_ordered", "s") {
            prop_assert_eq!(get(&r, "t_closeness", "s"), Some(ord));
        }
        prop_assert!(get(&r, "t_closeness_ordered", "h").is_none());
    }

    #[test]
    fn original_reference_equal_to_the_release_changes_nothing(rows in rows(), p in prop::sample::select(vec![MissingPolicy::Ordinary, MissingPolicy::Wildcard])) {
        // (Under `drop`, or with `exclude_suppressed_rows`, a row can leave `R` but it stays
        // in `O`'s column: Sec 1.)
        let released = AuditConfig { exclude_suppressed_rows: false, ..config(p, TDistance::Auto) };
        let original = AuditConfig { attribute: pseudolens_core::attribute::AttributeParams { t_reference: TReference::Original, ..released.attribute.clone() }, ..released.clone() };
        let bytes = csv(&rows);
        let a = against(&bytes, &bytes, &released);
        let b = against(&bytes, &bytes, &original);
        for id in ["t_closeness", "t_closeness_equal", "t_closeness_hierarchical", "beta_likeness_basic", "delta_disclosure"] {
            for sa in ["s", "h"] {
                let (x, y) = (get(&a, id, sa), get(&b, id, sa));
                prop_assert!(x == y || x.zip(y).is_some_and(|(x, y)| close(x, y)), "{} {}: {:?} {:?}", id, sa, x, y);
            }
        }
    }

    #[test]
    fn settings_survive_serialization(p in policy(), d in distance(), original in any::<bool>()) {
        let mut c = config(p, d);
        c.attribute.t_reference = if original { TReference::Original } else { TReference::Released };
        let back: AuditConfig = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
        prop_assert_eq!(back, c);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Digits declared ordinal in their numeric order give the permutation model the numeric
    /// attribute's ranks, so the same results (utility.md Sec 11.1: ordinal position).
    #[test]
    fn ordinal_permutation_equals_numeric(pairs in prop::collection::vec((0u8..5, 0u8..5, 0u8..4), 3..30)) {
        let table = |pick: fn(&(u8, u8, u8)) -> u8| {
            let mut s = String::from("q,g,n\n");
            for r in &pairs {
                s.push_str(&format!("x{},{},{}\n", r.2, pick(r), r.2));
            }
            s.into_bytes()
        };
        let (o, p) = (table(|r| r.0), table(|r| r.1));
        let base = AuditConfig { utility_columns: vec!["g".into(), "n".into()], ..qi(&["q"]) };
        let mut numeric = base.clone();
        numeric.attributes.insert("g".into(), AttributeSettings { kind: Some(Kind::Numeric), ..Default::default() });
        let mut ordinal = base;
        let order = (0..5).map(|i| i.to_string()).collect();
        ordinal.attributes.insert("g".into(), AttributeSettings { kind: Some(Kind::Ordinal), order: Some(order), ..Default::default() });
        let perm = |r: &Report| -> Vec<Value> {
            r.metrics.iter().filter(|m| m.id.starts_with("perm_")).map(|m| serde_json::json!([m.id, m.scope.attribute, m.value, m.details["d"], m.details["pi"]])).collect()
        };
        let (a, b) = (against(&o, &p, &numeric), against(&o, &p, &ordinal));
        prop_assert!(same(&Value::Array(perm(&a)), &Value::Array(perm(&b))), "{:?}\n{:?}", perm(&a), perm(&b));
        prop_assert!(perm(&b).iter().any(|m| m[1] == "g"));
    }
}

fn sa_mode() -> impl Strategy<Value = pseudolens_core::attribute::SaMode> {
    use pseudolens_core::attribute::SaMode;
    prop::sample::select(vec![SaMode::PerAttribute, SaMode::Combined, SaMode::ExtendQi])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Both modes of Sec 8: chunking, row order and a cut into merged parts change nothing.
    #[test]
    fn sa_modes_are_streaming_invariant(rows in rows(), chunk in 1usize..40, cut in 0usize..50, seed in any::<u64>(), p in policy(), mode in sa_mode()) {
        let mut c = config(p, TDistance::Auto);
        c.attribute.sa_mode = mode;
        let whole = audit(&csv(&rows), &c);
        prop_assert_eq!(&whole, &audit_chunked(&csv(&rows), &c, chunk).unwrap());
        let cut = cut.min(rows.len());
        prop_assert!(same(&metrics(&merged_at(&rows, cut, &c)), &metrics(&whole)));
        prop_assert!(same(&metrics(&audit(&csv(&shuffled(&rows, seed)), &c)), &metrics(&whole)));
    }

    /// A tuple takes at least as many values in a class as each of its parts; classes refined by
    /// the other SAs hold at most as many values as the classes of A (policy `ordinary`).
    #[test]
    fn sa_modes_bound_l_distinct(rows in rows()) {
        use pseudolens_core::attribute::SaMode;
        // h differs from s: it cycles through three of the values by row.
        let mut text = String::from("a,b,s,h\n");
        for (i, (a, b, v)) in rows.iter().enumerate() {
            text.push_str(&format!("{a},{b},{v},{}\n", ["lo", "hi", "top"][i % 3]));
        }
        let with = |mode| {
            let mut c = AuditConfig { exclude_suppressed_rows: false, ..config(MissingPolicy::Ordinary, TDistance::Auto) };
            c.attribute.sa_mode = mode;
            audit(text.as_bytes(), &c)
        };
        let (per, combined, extended) = (with(SaMode::PerAttribute), with(SaMode::Combined), with(SaMode::ExtendQi));
        let l = |r: &Report, sa: &str| get(r, "l_distinct", sa).unwrap();
        prop_assert!(l(&combined, "s + h") >= l(&per, "s").max(l(&per, "h")));
        for sa in ["s", "h"] {
            prop_assert!(l(&extended, sa) <= l(&per, sa));
        }
    }
}
