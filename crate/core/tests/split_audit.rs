//! The page's audit in steps (issue 12): the attribution lattice computed from its bytes by
//! another worker, the other metrics here, the results added after them, gives the report of
//! the one-pass audit of the retained table, bit for bit ([`SplitAudit`]); so does the advice,
//! whose "drop a QI" figures then come from the lattice's statistics, and the population
//! estimators' intervals, whose bootstrap's parts are computed from its bytes elsewhere
//! (issue 40), some of them or none.

use proptest::prelude::*;
use pseudolens_core::{
    AdviceParams, AuditConfig, Bootstrap, Lattice, MissingPolicy, Report, SplitAudit, Table, TableReader, audit_table, bench_table, stats_from_bytes,
    stats_to_bytes,
};

fn kept(chunks: impl IntoIterator<Item = Vec<u8>>, config: &AuditConfig) -> Table {
    let mut reader = TableReader::new(config.table_settings().unwrap());
    for chunk in chunks {
        reader.push(&chunk).unwrap();
    }
    reader.finish().unwrap().table
}

/// The report with the lattice sent away as bytes and its statistics back as bytes (`remote`),
/// or computed by `complete` itself; with the bootstrap's bytes sent away too and its parts
/// back as bytes, every `every`-th part from the last (0: none; the others computed by
/// `complete`), after the other metrics (as the page's audit worker gets them).
fn split(table: &Table, config: &AuditConfig, remote: bool, every: u32) -> (Report, bool) {
    let mut audit = SplitAudit::start(table, config, &pseudolens_core::Sides::default()).unwrap();
    let stats = audit.lattice().filter(|_| remote).map(|l| {
        let piece = Lattice::from_bytes(&l.to_bytes()).unwrap();
        stats_from_bytes(&stats_to_bytes(&piece.stats())).unwrap()
    });
    let parts: Vec<Vec<u8>> = audit.bootstrap().filter(|_| every > 0).map_or_else(Vec::new, |b| {
        let piece = Bootstrap::from_bytes(&b.to_bytes()).unwrap();
        (0..piece.parts()).rev().step_by(every as usize).map(|k| piece.part(k).unwrap()).collect()
    });
    let deferred = audit.lattice().is_some();
    audit.finish_others();
    for part in parts {
        audit.add_replicates(&part).unwrap();
    }
    (audit.complete(stats).unwrap(), deferred)
}

fn json(r: &Report) -> serde_json::Value {
    serde_json::to_value(r).unwrap()
}

fn names(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_audit_in_steps_is_the_one_pass_audit() {
    let qis8 = ["age", "sex", "region", "admission_date", "ward", "diagnosis", "procedure", "length_of_stay"];
    // `deferred`: whether attribution is computed apart (keys of one word; the 8 QIs of this
    // table need two, and are computed with the other metrics).
    let configs = [
        (AuditConfig { quasi_identifiers: names(&qis8), ..AuditConfig::default() }, false),
        (
            AuditConfig {
                quasi_identifiers: names(&["age", "sex", "ward", "diagnosis", "length_of_stay", "region"]),
                suda: pseudolens_core::identity::suda::SudaParams { suda: true, ..Default::default() },
                ..AuditConfig::default()
            },
            true,
        ),
        (AuditConfig { quasi_identifiers: names(&qis8[..5]), sensitive: names(&["diagnosis", "procedure"]), ..AuditConfig::default() }, true),
        (AuditConfig { quasi_identifiers: names(&["sex"]), per_record: true, ..AuditConfig::default() }, true),
        (AuditConfig { quasi_identifiers: names(&qis8[..4]), missing_policy: MissingPolicy::Wildcard, ..AuditConfig::default() }, true),
        // More QIs than the full lattice takes: attribution is computed with the other metrics.
        (AuditConfig { quasi_identifiers: names(&[&qis8[..], &["record_id", "note", "sex"][..2]].concat()), ..AuditConfig::default() }, false),
        (AuditConfig::default(), false),
    ];
    let table = kept(bench_table(5_000, 7, 0), &AuditConfig::default());
    // Each with the advice too (the page's default; and a threshold under which larger
    // classes are at risk).
    let advised = configs.iter().flat_map(|(c, deferred)| {
        let advice = Some(AdviceParams::default());
        [(AuditConfig { advice, ..c.clone() }, *deferred), (AuditConfig { advice, threshold: 0.05, ..c.clone() }, *deferred)]
    });
    for (config, deferred) in configs.clone().into_iter().chain(advised) {
        let one = audit_table(&table, &config, &pseudolens_core::Sides::default()).unwrap();
        for (remote, every) in [(true, 1), (true, 3), (false, 0)] {
            let (steps, was_deferred) = split(&table, &config, remote, every);
            assert_eq!(was_deferred, deferred, "{:?}", config.quasi_identifiers);
            assert_eq!(json(&steps), json(&one), "{:?}, remote {remote}, every {every}", config.quasi_identifiers);
        }
    }
}

#[test]
fn statistics_of_another_audit_are_refused() {
    let table = kept(bench_table(2_000, 3, 0), &AuditConfig::default());
    let three = AuditConfig { quasi_identifiers: names(&["age", "sex", "ward"]), ..AuditConfig::default() };
    let two = AuditConfig { quasi_identifiers: names(&["age", "sex"]), ..AuditConfig::default() };
    let other = SplitAudit::start(&table, &two, &pseudolens_core::Sides::default()).unwrap().lattice().unwrap().clone().stats();
    let mut audit = SplitAudit::start(&table, &three, &pseudolens_core::Sides::default()).unwrap();
    audit.finish_others();
    assert_eq!(audit.complete(Some(other)).unwrap_err().code, "invalid_piece");
}

#[test]
fn the_bootstrap_is_deferred_with_intervals_and_a_partition_alone() {
    let table = kept(bench_table(2_000, 3, 0), &AuditConfig::default());
    let qi = names(&["age", "sex", "ward"]);
    let start = |config: AuditConfig| SplitAudit::start(&table, &config, &pseudolens_core::Sides::default()).unwrap();
    let audit = start(AuditConfig { quasi_identifiers: qi.clone(), ..AuditConfig::default() });
    // The default 200 replicates in parts of 25.
    assert_eq!(audit.bootstrap().map(Bootstrap::parts), Some(8));
    let mut ci = AuditConfig { quasi_identifiers: qi.clone(), ..AuditConfig::default() };
    ci.ci.ci_replicates = 0;
    assert!(start(ci).bootstrap().is_none(), "no intervals asked for");
    assert!(start(AuditConfig { quasi_identifiers: qi, missing_policy: MissingPolicy::Wildcard, ..AuditConfig::default() }).bootstrap().is_none());
    assert!(start(AuditConfig::default()).bootstrap().is_none(), "no QIs");
}

#[test]
fn replicates_of_another_bootstrap_are_refused() {
    let table = kept(bench_table(2_000, 3, 0), &AuditConfig::default());
    let start = |qi: &[&str]| {
        SplitAudit::start(&table, &AuditConfig { quasi_identifiers: names(qi), ..AuditConfig::default() }, &pseudolens_core::Sides::default()).unwrap()
    };
    let other = start(&["age", "sex"]).bootstrap().unwrap().part(0).unwrap();
    let mut audit = start(&["age", "sex", "ward"]);
    assert_eq!(audit.add_replicates(&other).unwrap_err().code, "invalid_piece");
    let mut mine = audit.bootstrap().unwrap().part(7).unwrap();
    assert!(audit.bootstrap().unwrap().part(8).is_err(), "past the last part");
    let last = mine.len() - 5;
    mine[last] ^= 1;
    assert_eq!(audit.add_replicates(&mine).unwrap_err().code, "invalid_piece", "a changed byte");
}

/// A small table of `q` QIs with few values each: many shared classes and some uniques.
fn small_table() -> impl Strategy<Value = (Vec<u8>, usize)> {
    (1usize..=6, 1usize..120).prop_flat_map(|(q, rows)| {
        (proptest::collection::vec(proptest::collection::vec(0u8..4, q), rows), Just(q)).prop_map(|(cells, q)| {
            let mut csv: Vec<u8> = (0..q).map(|a| format!("c{a}")).collect::<Vec<_>>().join(",").into_bytes();
            csv.push(b'\n');
            for row in cells {
                // A missing value as a quoted empty field: with one QI a bare empty field would
                // be a blank line, skipped, and a table of blank lines has no lattice to defer.
                let line: Vec<String> = row.iter().map(|&v| if v == 3 { "\"\"".to_string() } else { v.to_string() }).collect();
                csv.extend(line.join(",").bytes());
                csv.push(b'\n');
            }
            (csv, q)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn pieces_computed_apart_give_the_one_pass_report((csv, q) in small_table(), wildcard in any::<bool>(), threshold in prop_oneof![Just(0.2), 0.01f64..1.0]) {
        let config = AuditConfig {
            quasi_identifiers: (0..q).map(|a| format!("c{a}")).collect(),
            missing_policy: if wildcard { MissingPolicy::Wildcard } else { MissingPolicy::Ordinary },
            threshold,
            advice: Some(AdviceParams { suppress_below: 3 }),
            ..AuditConfig::default()
        };
        let table = kept([csv], &config);
        let one = audit_table(&table, &config, &pseudolens_core::Sides::default()).unwrap();
        let (steps, deferred) = split(&table, &config, true, 2);
        prop_assert!(deferred);
        prop_assert_eq!(json(&steps), json(&one));
    }
}
