//! Property tests of the streaming summaries: any chunking gives the same report as one pass,
//! merging the summaries of two parts equals one pass, row order changes nothing, and every
//! identity metric stays within its bounds.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::identity::MissingPolicy;
use pseudolens_core::{Audit, AuditConfig, Part, Report, Sides, TableReader, audit_table};
use serde_json::Value;

const HEADER: &str = "a,b,c,note,s,p,w\n";

type Row = [String; 7];

/// Rows over small alphabets with blanks (`""`, `NA`, `*`), so that classes collide; a
/// sensitive value, a person and a weight.
fn rows() -> impl Strategy<Value = Vec<Row>> {
    let cell = prop::sample::select(vec!["x", "y", "z", "1", "2", "30-39", "", "NA", "*", "**"]);
    let sa = prop::sample::select(vec!["flu", "cold", "3", "17", "", "*"]);
    let row = (cell.clone(), cell.clone(), cell, "[a-z ]{0,6}", sa, 1u8..6, 0u8..9)
        .prop_map(|(a, b, c, n, s, p, w)| [a.to_string(), b.to_string(), c.to_string(), n, s.to_string(), format!("p{p}"), format!("{}", f64::from(w) / 2.0)]);
    prop::collection::vec(row, 1..60)
}

fn csv(rows: &[Row]) -> Vec<u8> {
    let mut s = String::from(HEADER);
    for r in rows {
        s.push_str(&format!("{},{},{},\"{}\",{},{},{}\n", r[0], r[1], r[2], r[3], r[4], r[5], r[6]));
    }
    s.into_bytes()
}

/// Policy, `exclude_suppressed_rows`, and whether the SA, person and weight columns are used.
type Setting = (MissingPolicy, bool, bool, bool);

fn policy() -> impl Strategy<Value = Setting> {
    (prop::sample::select(vec![MissingPolicy::Ordinary, MissingPolicy::Wildcard, MissingPolicy::Drop]), any::<bool>(), any::<bool>(), any::<bool>())
}

fn config((policy, exclude, extras, event_level): Setting) -> AuditConfig {
    AuditConfig {
        missing_policy: policy,
        exclude_suppressed_rows: exclude,
        sensitive: if extras { vec!["s".into()] } else { Vec::new() },
        weight: extras.then(|| "w".into()),
        person_id: event_level.then(|| "p".into()),
        ..qi(&["a", "b", "c"])
    }
}

fn metrics(r: &Report) -> Value {
    serde_json::to_value(&r.metrics).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn chunking_changes_nothing(rows in rows(), chunk in 1usize..64, p in policy()) {
        let bytes = csv(&rows);
        let whole = audit(&bytes, &config(p));
        let chunked = audit_chunked(&bytes, &config(p), chunk).unwrap();
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn merging_two_parts_equals_one_pass(rows in rows(), cut in 0usize..60, p in policy()) {
        let cut = cut.min(rows.len());
        let whole = audit(&csv(&rows), &config(p));
        let part = |rows: &[Row]| {
            let mut a = Audit::new(config(p)).unwrap();
            a.push(&csv(rows)).unwrap();
            a.finish_part().unwrap()
        };
        let mut merged = part(&rows[..cut]);
        merged.merge(part(&rows[cut..])).unwrap();
        let merged = merged.finish();
        prop_assert!(same(&metrics(&merged), &metrics(&whole)), "{:#?}\n{:#?}", merged.metrics, whole.metrics);
        prop_assert_eq!(&merged.columns, &whole.columns);
        prop_assert_eq!(merged.input.rows_total, whole.input.rows_total);
    }

    #[test]
    fn parts_keeping_their_roles_codes_alone_audit_as_the_whole(rows in rows(), cut in 0usize..60, p in policy()) {
        let (cut, config) = (cut.min(rows.len()), config(p));
        let kept = |rows: &[Row]| {
            let mut reader = TableReader::new(config.table_settings().unwrap());
            reader.push(&csv(rows)).unwrap();
            reader.finish().unwrap()
        };
        let whole = audit_table(&kept(&rows).table, &config, &Sides::default()).unwrap();
        // Each part forgets the codes its settings' roles do not need, then travels as bytes.
        let lean = |rows: &[Row]| {
            let (mut part, needed) = (kept(rows), config.needed_columns());
            part.table.keep_codes_of(&needed);
            let coded: Vec<&String> = part.table.header.iter().zip(&part.table.columns).filter(|(_, c)| c.is_retained()).map(|(h, _)| h).collect();
            assert!(coded.iter().all(|h| needed.contains(h)) && coded.len() == needed.len(), "{coded:?} against {needed:?}");
            Part::from_bytes(&part.to_bytes()).unwrap()
        };
        let mut merged = lean(&rows[..cut]);
        merged.merge(lean(&rows[cut..])).unwrap();
        let report = audit_table(&merged.table, &config, &Sides::default()).unwrap();
        prop_assert!(same(&metrics(&report), &metrics(&whole)), "{:#?}\n{:#?}", report.metrics, whole.metrics);
        prop_assert_eq!(&report.columns, &whole.columns);
        prop_assert_eq!(report.input.rows_total, whole.input.rows_total);
        // Settings whose roles need a column whose codes are gone are refused, saying why.
        let other = AuditConfig { quasi_identifiers: vec!["note".into()], ..config.clone() };
        let refused = audit_table(&merged.table, &other, &Sides::default()).unwrap_err();
        prop_assert_eq!(refused.code, "not_retained");
        prop_assert!(refused.message.contains("only the codes of the columns its settings' roles need"), "{}", refused.message);
    }

    #[test]
    fn row_order_changes_nothing(rows in rows(), seed in any::<u64>(), p in policy()) {
        let whole = audit(&csv(&rows), &config(p));
        let mut shuffled = rows;
        let mut s = seed | 1;
        for i in (1..shuffled.len()).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            shuffled.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let other = audit(&csv(&shuffled), &config(p));
        prop_assert!(same(&metrics(&other), &metrics(&whole)));
        prop_assert_eq!(&other.columns, &whole.columns);
    }

    #[test]
    fn identity_metrics_stay_in_bounds(rows in rows(), p in policy()) {
        let r = audit(&csv(&rows), &config(p));
        let n = num(&r, "n_records");
        prop_assume!(n > 0.0);
        let (k, max) = (num(&r, "k_anonymity"), num(&r, "max_class_size"));
        let r_int = num(&r, "r_internal");
        prop_assert!(k >= 1.0 - 1e-12 || p.0 == MissingPolicy::Wildcard);
        prop_assert!(k <= max && max <= n);
        prop_assert!(1.0 / max <= r_int + 1e-12 && r_int <= 1.0 / k + 1e-12);
        prop_assert!(r_int >= 1.0 / n - 1e-12 || p.0 == MissingPolicy::Wildcard);
        for id in ["sample_uniqueness", "rare_combination_rate", "prosecutor_records_at_risk", "prosecutor_records_affected_by_highest_risk", "prosecutor_records_affected_by_lowest_risk"] {
            let v = num(&r, id);
            prop_assert!((0.0..=1.0).contains(&v), "{} = {}", id, v);
        }
        let total = num(&r, "n_records_total");
        prop_assert_eq!(total, n + num(&r, "n_dropped_records") + if p.1 { num(&r, "n_suppressed_records") } else { 0.0 });
        let dist = value(&r, "risk_distribution").as_array().unwrap();
        let shares: f64 = dist.iter().map(|b| b[1].as_f64().unwrap()).sum();
        prop_assert!(close(shares, 1.0));
        if p.0 != MissingPolicy::Wildcard {
            let hist = value(&r, "class_size_histogram").as_array().unwrap();
            let recs: f64 = hist.iter().map(|h| h[2].as_f64().unwrap()).sum();
            prop_assert_eq!(recs, n);
            prop_assert!(close(r_int, num(&r, "n_classes") / n));
        }
    }
}
