//! Property tests of the \[SDCG\] measures and query accuracy (spec utility.md Sec 8, 10):
//! CTBIL is non-negative and, with blanks as a category and no recoding, the one-way distance
//! of a variable is twice its suppressions; no result depends on the order of the rows.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::metric::Status;
use pseudolens_core::utility::params::{Aggregate, Query};
use pseudolens_core::{AuditConfig, Report};
use serde_json::Value;

const HEADER: &str = "rid,a,b,x,s";

/// One row of `O`: QI `a` (text), QI `b` (numbers), numeric `x`, sensitive `s`; blanks included.
type Row = [&'static str; 4];

fn row() -> impl Strategy<Value = Row> {
    let a = prop::sample::select(vec!["x", "y", "z", "", "NA", "*"]);
    let b = prop::sample::select(vec!["1", "2", "3", "1.0", ""]);
    let x = prop::sample::select(vec!["10", "12.5", "7", "31", "0", ""]);
    let s = prop::sample::select(vec!["flu", "cold", "asthma", ""]);
    (a, b, x, s).prop_map(|(a, b, x, s)| [a, b, x, s])
}

/// What happens to a released cell: kept, suppressed, or replaced.
fn edits(n: usize) -> impl Strategy<Value = Vec<[u8; 4]>> {
    prop::collection::vec([0u8..4, 0u8..4, 0u8..4, 0u8..4], n)
}

/// The released row: per cell, 0 and 1 keep it, 2 suppresses it, 3 replaces it (a new label for
/// `a` and `s`, a range for `x`, another number for `b`).
fn release(r: &Row, e: &[u8; 4], recode: bool) -> [String; 4] {
    let replaced = ["xy", "4", "0-49", "resp"];
    std::array::from_fn(|k| match e[k] {
        2 => "*".to_string(),
        3 if recode => replaced[k].to_string(),
        _ => r[k].to_string(),
    })
}

fn csv(rows: &[(usize, [String; 4])]) -> Vec<u8> {
    let mut s = format!("{HEADER}\n");
    for (id, r) in rows {
        s.push_str(&format!("r{id},{}\n", r.join(",")));
    }
    s.into_bytes()
}

fn config() -> AuditConfig {
    let mut c = qi(&["a", "b"]);
    c.sensitive = vec!["s".into()];
    c.record_id = Some("rid".into());
    c.utility.queries = vec![
        Query { group_by: vec!["a".into()], aggregate: Aggregate::Mean { column: "x".into() } },
        Query { group_by: vec!["b".into()], aggregate: Aggregate::Share { column: "s".into(), value: "flu".into() } },
    ];
    c
}

fn families(r: &Report) -> Vec<Value> {
    r.metrics.iter().filter(|m| m.family == "utility_sdc" || m.family == "utility_query").map(|m| serde_json::to_value(m).unwrap()).collect()
}

/// Rows of `O`, the edits of `P`, and two row orders.
fn case() -> impl Strategy<Value = (Vec<Row>, Vec<[u8; 4]>, Vec<usize>, Vec<usize>)> {
    prop::collection::vec(row(), 1..40).prop_flat_map(|rows| {
        let n = rows.len();
        let order = || Just((0..n).collect::<Vec<usize>>()).prop_shuffle();
        (Just(rows), edits(n), order(), order())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ctbil_counts_suppressions_twice((rows, edits, _, _) in case()) {
        let o: Vec<(usize, [String; 4])> = rows.iter().enumerate().map(|(i, r)| (i, r.map(String::from))).collect();
        let p: Vec<(usize, [String; 4])> = rows.iter().zip(&edits).enumerate().map(|(i, (r, e))| (i, release(r, e, false))).collect();
        let r = against(&csv(&o), &csv(&p), &config());
        let c = r.metrics.iter().find(|m| m.id == "ctbil").unwrap();
        prop_assert_eq!(c.status, Status::Ok);
        prop_assert!(c.value.as_u64().is_some());
        for (k, var) in ["a", "b"].iter().enumerate() {
            let table = &c.details["tables"][k];
            prop_assert_eq!(&table["variables"], &serde_json::json!([var]));
            let supp = for_attribute(&r, "suppressed_cells", var).value.as_u64().unwrap();
            prop_assert_eq!(table["distance"].as_u64().unwrap(), 2 * supp, "variable {}", var);
        }
        let normalized = r.metrics.iter().find(|m| m.id == "ctbil_normalized").unwrap().value.as_f64().unwrap();
        prop_assert!(normalized >= 0.0);
    }

    #[test]
    fn row_order_changes_nothing((rows, edits, order_o, order_p) in case(), recode in any::<bool>()) {
        let o: Vec<(usize, [String; 4])> = rows.iter().enumerate().map(|(i, r)| (i, r.map(String::from))).collect();
        let p: Vec<(usize, [String; 4])> = rows.iter().zip(&edits).enumerate().map(|(i, (r, e))| (i, release(r, e, recode))).collect();
        let shuffled = |t: &[(usize, [String; 4])], order: &[usize]| order.iter().map(|&i| t[i].clone()).collect::<Vec<_>>();
        let config = config();
        let a = families(&against(&csv(&o), &csv(&p), &config));
        let b = families(&against(&csv(&shuffled(&o, &order_o)), &csv(&shuffled(&p, &order_p)), &config));
        prop_assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            prop_assert!(same(x, y), "{}\n!=\n{}", x, y);
        }
        let ctbil = a.iter().find(|m| m["id"] == "ctbil").unwrap();
        prop_assert!(ctbil["value"].is_null() || ctbil["value"].as_u64().is_some());
    }
}
