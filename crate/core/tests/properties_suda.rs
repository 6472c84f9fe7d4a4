//! SUDA (peer-measures.md Sec 1) against a literal reference: on small random tables the MSUs
//! of every record, found by enumerating every column set up to the maximum size and counting
//! the records that hold it, give the same per-record counts, scores and DIS as the SUDA2
//! search; and the result follows each record whatever the row order.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::table::classes::MissingPolicy;
use pseudolens_core::{AuditConfig, Report};

/// A table of a row id and `q` columns c0.. with values from small alphabets ("" = blank).
fn csv(rows: &[Vec<u8>], q: usize) -> Vec<u8> {
    // A row id first: a row of blanks is not an empty line.
    let mut s = std::iter::once("rid".to_string()).chain((0..q).map(|c| format!("c{c}"))).collect::<Vec<_>>().join(",");
    s.push('\n');
    for (i, r) in rows.iter().enumerate() {
        let cells: Vec<String> = std::iter::once(i.to_string()).chain(r.iter().map(|&v| if v == 0 { String::new() } else { format!("v{v}") })).collect();
        s.push_str(&cells.join(","));
        s.push('\n');
    }
    s.into_bytes()
}

/// Per record, `[m_1..m_M]` by enumeration (spec Sec 1.2 read literally).
fn reference(rows: &[Vec<u8>], q: usize, max: usize, policy: MissingPolicy, blank_in_msu: bool) -> Vec<Vec<u32>> {
    let blank = |v: u8| v == 0;
    let holds = |j: &Vec<u8>, i: &Vec<u8>, set: u32| {
        (0..q).filter(|c| set & (1 << c) != 0).all(|c| j[c] == i[c] || (policy == MissingPolicy::Wildcard && (blank(j[c]) || blank(i[c]))))
    };
    let count = |i: &Vec<u8>, set: u32| rows.iter().filter(|j| holds(j, i, set)).count();
    rows.iter()
        .map(|i| {
            let mut m = vec![0u32; max];
            for set in 1u32..(1 << q) {
                let k = set.count_ones() as usize;
                let usable = (0..q).filter(|c| set & (1 << c) != 0).all(|c| !blank(i[c]) || (blank_in_msu && policy == MissingPolicy::Ordinary));
                if k > max || !usable || count(i, set) != 1 {
                    continue;
                }
                if (0..q).filter(|c| set & (1 << c) != 0).all(|c| set == 1 << c || count(i, set & !(1 << c)) > 1) {
                    m[k - 1] += 1;
                }
            }
            m
        })
        .collect()
}

fn per_record(r: &Report, id: &str, n: usize) -> Vec<f64> {
    let d = &r.metric(id).unwrap().details["per_record"];
    (1..=n).map(|row| d.get(row.to_string()).map_or(0.0, |v| v.as_f64().unwrap())).collect()
}

fn counts(r: &Report, n: usize, max: usize) -> Vec<Vec<u32>> {
    let d = &r.metric("suda_score").unwrap().details["msu_counts"];
    (1..=n).map(|row| d.get(row.to_string()).map_or(vec![0; max], |v| v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect())).collect()
}

fn table() -> impl Strategy<Value = (usize, Vec<Vec<u8>>)> {
    (1usize..=6).prop_flat_map(|q| (Just(q), proptest::collection::vec(proptest::collection::vec(0u8..4, q), 1..40)))
}

fn policy() -> impl Strategy<Value = MissingPolicy> {
    prop_oneof![Just(MissingPolicy::Ordinary), Just(MissingPolicy::Wildcard), Just(MissingPolicy::Drop)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn suda2_equals_enumeration((q, rows) in table(), max_pick in 0usize..8, policy in policy(), blank_in_msu in any::<bool>()) {
        let max = 1 + max_pick % q;
        let mut config = AuditConfig { missing_policy: policy, ..qi(&(0..q).map(|c| format!("c{c}")).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>()) };
        config.suda.suda = true;
        config.per_record = true;
        config.suda.suda_max_size = Some(max);
        config.suda.suda_blank_in_msu = blank_in_msu;
        let r = audit(&csv(&rows, q), &config);
        // `drop` removes the rows with a blank QI before the search.
        let kept: Vec<(usize, Vec<u8>)> = rows.iter().cloned().enumerate().filter(|(_, r)| policy != MissingPolicy::Drop || r.iter().all(|&v| v != 0)).collect();
        if kept.is_empty() {
            return Ok(());
        }
        let only: Vec<Vec<u8>> = kept.iter().map(|k| k.1.clone()).collect();
        let want = reference(&only, q, max, policy, blank_in_msu);
        let got = counts(&r, rows.len(), max);
        for (j, (row, _)) in kept.iter().enumerate() {
            prop_assert_eq!(&got[*row], &want[j], "row {} of {:?}", row + 1, rows);
        }
        // Scores from the counts and the spec's weights.
        let m = r.metric("suda_score").unwrap();
        prop_assert!(m.details["weights"].is_array(), "{:?}", m);
        let w: Vec<f64> = m.details["weights"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let scores = per_record(&r, "suda_score", rows.len());
        for (j, (row, _)) in kept.iter().enumerate() {
            let s: f64 = want[j].iter().zip(&w).map(|(&m, w)| m as f64 * w).sum();
            prop_assert!((scores[*row] - s).abs() < 1e-12);
        }
    }

    #[test]
    fn results_follow_the_records_in_any_order((q, rows) in table(), seed in any::<u64>()) {
        let names: Vec<String> = (0..q).map(|c| format!("c{c}")).collect();
        let mut config = qi(&names.iter().map(String::as_str).collect::<Vec<_>>());
        config.suda.suda = true;
        config.per_record = true;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        let mut s = seed | 1;
        for i in (1..order.len()).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            order.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let shuffled: Vec<Vec<u8>> = order.iter().map(|&i| rows[i].clone()).collect();
        let (a, b) = (audit(&csv(&rows, q), &config), audit(&csv(&shuffled, q), &config));
        for id in ["suda_score", "suda_dis_score"] {
            let (x, y) = (per_record(&a, id, rows.len()), per_record(&b, id, rows.len()));
            for (new, &old) in order.iter().enumerate() {
                prop_assert!((x[old] - y[new]).abs() <= 1e-12 * x[old].abs().max(1.0), "{} of row {}", id, old + 1);
            }
            prop_assert_eq!(&a.metric(id).unwrap().value, &b.metric(id).unwrap().value);
        }
        let top = |r: &Report| {
            let mut t = r.metric("suda_score").unwrap().details["top"].clone();
            t.as_array_mut().unwrap().iter_mut().for_each(|e| { e.as_object_mut().unwrap().remove("row"); });
            t
        };
        prop_assert_eq!(top(&a), top(&b));
        prop_assert_eq!(&a.metric("suda_score").unwrap().details["variable_contributions"], &b.metric("suda_score").unwrap().details["variable_contributions"]);
    }
}
