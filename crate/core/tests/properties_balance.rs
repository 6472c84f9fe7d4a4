//! Property tests of the balance family against a reference table `E` (spec balance.md Sec 1-2):
//! the values stay within their bounds, and neither the row order of `P` or `E`, nor the
//! chunking of either, nor merging two parts of `P` changes them.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::identity::MissingPolicy;
use pseudolens_core::reference;
use pseudolens_core::{Audit, AuditConfig, AuditPart, Report};
use serde_json::Value;

type Row = [&'static str; 3];

/// Cells over a small alphabet with blanks (`""`, `NA`, `*`), so that keys of `P` and `E` meet.
fn rows(max: usize) -> impl Strategy<Value = Vec<Row>> {
    let cell = prop::sample::select(vec!["x", "y", "z", "1", "", "NA", "*"]);
    prop::collection::vec([cell.clone(), cell.clone(), cell], 0..max)
}

/// `E`'s header: all QIs, some of them in another order, or with a column `P` lacks.
fn external_columns() -> impl Strategy<Value = Vec<usize>> {
    prop::sample::select(vec![vec![0, 1, 2], vec![2, 0], vec![1], vec![2, 1, 0, 3]])
}

fn p_csv(rows: &[Row]) -> Vec<u8> {
    let mut s = String::from("a,b,c\n");
    for r in rows {
        s.push_str(&format!("{},{},{}\n", r[0], r[1], r[2]));
    }
    s.into_bytes()
}

fn e_csv(rows: &[Row], columns: &[usize]) -> Vec<u8> {
    let names = ["a", "b", "c", "other"];
    let mut s = columns.iter().map(|&c| names[c]).collect::<Vec<_>>().join(",");
    s.push('\n');
    for r in rows {
        let cells: Vec<&str> = columns.iter().map(|&c| if c < 3 { r[c] } else { "o" }).collect();
        s.push_str(&cells.join(","));
        s.push('\n');
    }
    s.into_bytes()
}

type Setting = (MissingPolicy, bool, f64);

fn setting() -> impl Strategy<Value = Setting> {
    let policy = prop::sample::select(vec![MissingPolicy::Ordinary, MissingPolicy::Wildcard, MissingPolicy::Drop]);
    (policy, any::<bool>(), prop::sample::select(vec![1.0, 0.5, 0.0]))
}

fn config((policy, exclude, alpha): Setting) -> AuditConfig {
    AuditConfig { missing_policy: policy, exclude_suppressed_rows: exclude, wildcard_alpha: alpha, ..qi(&["a", "b", "c"]) }
}

fn external(e: &[u8], config: &AuditConfig, chunk: usize) -> pseudolens_core::ReferenceTable {
    let mut r = reference(config, None);
    for piece in e.chunks(chunk) {
        r.push(piece).unwrap();
    }
    r.finish().unwrap()
}

fn summary(p: &[u8], config: &AuditConfig, chunk: usize) -> AuditPart {
    let mut a = Audit::new(config.clone()).unwrap();
    for piece in p.chunks(chunk) {
        a.push(piece).unwrap();
    }
    a.finish_part().unwrap()
}

/// Audits `p` against `e`, each pushed in chunks of the given size.
fn run(p: &[u8], e: &[u8], config: &AuditConfig, chunks: (usize, usize)) -> Report {
    let mut a = Audit::new(config.clone()).unwrap();
    for piece in p.chunks(chunks.0) {
        a.push(piece).unwrap();
    }
    a.set_population(external(e, config, chunks.1));
    a.finish().unwrap()
}

/// The balance results as JSON.
fn balance(r: &Report) -> Value {
    serde_json::to_value(r.metrics.iter().filter(|m| m.family == "balance").collect::<Vec<_>>()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn values_stay_in_bounds(p in rows(40), e in rows(40), columns in external_columns(), s in setting()) {
        let r = run(&p_csv(&p), &e_csv(&e, &columns), &config(s), (usize::MAX, usize::MAX));
        prop_assume!(num(&r, "n_records") > 0.0);
        let (r_ext, rate, unique) = (num(&r, "r_external"), num(&r, "r_external_match_rate"), num(&r, "r_unique"));
        prop_assert!((0.0..=1.0).contains(&r_ext) && (0.0..=1.0).contains(&rate), "{} {}", r_ext, rate);
        prop_assert!(unique <= r_ext + 1e-12 && r_ext <= rate + 1e-12, "{} {} {}", unique, r_ext, rate);
        prop_assert!(rate > 0.0 || r_ext == 0.0);
        if let Some(m) = value(&r, "r_external_probability").as_f64() {
            prop_assert!((0.0..=1.0 + 1e-12).contains(&m));
        }
        let (risk, r_int) = (num(&r, "risk_r"), num(&r, "r_internal"));
        prop_assert!((0.0..=1.0).contains(&risk));
        prop_assert!(close(risk, r_int.max(r_ext)), "max combination");
        prop_assert!(close(num(&r, "safety"), 1.0 - risk));
    }

    #[test]
    fn row_order_of_p_and_e_changes_nothing(p in rows(40), e in rows(40), columns in external_columns(), s in setting(), seed in any::<u64>()) {
        let (pb, eb) = (p_csv(&p), e_csv(&e, &columns));
        let whole = balance(&run(&pb, &eb, &config(s), (usize::MAX, usize::MAX)));
        let p_shuffled = balance(&run(&p_csv(&shuffled(&p, seed)), &eb, &config(s), (usize::MAX, usize::MAX)));
        let e_shuffled = balance(&run(&pb, &e_csv(&shuffled(&e, seed ^ 0x9e37), &columns), &config(s), (usize::MAX, usize::MAX)));
        prop_assert!(same(&p_shuffled, &whole), "P shuffled:\n{:#}\n{:#}", p_shuffled, whole);
        prop_assert!(same(&e_shuffled, &whole), "E shuffled:\n{:#}\n{:#}", e_shuffled, whole);
    }

    #[test]
    fn chunked_pushes_equal_one_pass(p in rows(40), e in rows(40), columns in external_columns(), s in setting(), cp in 1usize..32, ce in 1usize..32) {
        let (pb, eb) = (p_csv(&p), e_csv(&e, &columns));
        let whole = run(&pb, &eb, &config(s), (usize::MAX, usize::MAX));
        let chunked = run(&pb, &eb, &config(s), (cp, ce));
        prop_assert_eq!(balance(&chunked), balance(&whole));
    }

    #[test]
    fn merging_two_parts_equals_one_pass(p in rows(40), e in rows(40), columns in external_columns(), s in setting(), cut in 0usize..40) {
        let cut = cut.min(p.len());
        let (pb, eb) = (p_csv(&p), e_csv(&e, &columns));
        let whole = run(&pb, &eb, &config(s), (usize::MAX, usize::MAX));
        let mut a = Audit::new(config(s)).unwrap();
        a.push(&p_csv(&p[..cut])).unwrap();
        a.set_population(external(&eb, &config(s), usize::MAX));
        let mut merged = a.finish_part().unwrap();
        merged.merge(summary(&p_csv(&p[cut..]), &config(s), usize::MAX)).unwrap();
        let merged = merged.finish();
        prop_assert!(same(&balance(&merged), &balance(&whole)), "{:#}\n{:#}", balance(&merged), balance(&whole));
    }
}
