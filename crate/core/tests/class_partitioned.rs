//! The class-partitioned mode (docs/spark.md): a table split by the hash of its rows' QI
//! values, each part's class statistics merged, gives the identity metrics of the whole table
//! audited in one piece; a hand-checked merge; the binary form; what it refuses.

use proptest::prelude::*;
use pseudolens_core::identity::MissingPolicy;
use pseudolens_core::interval::CiParams;
use pseudolens_core::{AuditConfig, ClassPart, DisjointClasses, Table, TableReader, audit_table, class_statistics};
use serde_json::Value;

const HEADER: [&str; 4] = ["a", "b", "c", "s"];

/// `replicates` of the estimators' bootstrap intervals (docs/ci.md): the property tests run
/// 256 cases each, so they check the intervals on a few replicates.
fn config_with(policy: MissingPolicy, exclude_suppressed_rows: bool, replicates: u32) -> AuditConfig {
    AuditConfig {
        quasi_identifiers: vec!["c".into(), "a".into(), "b".into()],
        sensitive: vec!["s".into()],
        missing_policy: policy,
        exclude_suppressed_rows,
        ci: CiParams { ci_replicates: replicates, ..CiParams::default() },
        ..AuditConfig::default()
    }
}

fn config(policy: MissingPolicy, exclude_suppressed_rows: bool) -> AuditConfig {
    config_with(policy, exclude_suppressed_rows, 5)
}

fn table(rows: &[[String; 4]], config: &AuditConfig) -> Table {
    let mut csv = HEADER.join(",") + "\n";
    for r in rows {
        csv.push_str(&r.join(","));
        csv.push('\n');
    }
    let mut reader = TableReader::new(config.table_settings().unwrap());
    reader.push(csv.as_bytes()).unwrap();
    reader.finish().unwrap().table
}

/// The table split into `parts` by the hash of each row's QI cells, each part's class
/// statistics merged, audited.
fn partitioned(rows: &[[String; 4]], parts: u64, config: &AuditConfig) -> pseudolens_core::Report {
    let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    let hasher = ClassPart::hasher(&header, config).unwrap();
    let mut split: Vec<Vec<[String; 4]>> = vec![Vec::new(); parts as usize];
    for r in rows {
        let h = hasher.hash(hasher.columns().iter().map(|&j| r[j].as_str()));
        split[(h % parts) as usize].push(r.clone());
    }
    let mut merged: Option<ClassPart> = None;
    for part in split.iter().filter(|p| !p.is_empty()) {
        let part = ClassPart::from_bytes(&ClassPart::of(table(part, config), config).unwrap().to_bytes()).unwrap();
        match &mut merged {
            None => merged = Some(part),
            Some(m) => m.merge(part).unwrap(),
        }
    }
    merged.unwrap().audit(config).unwrap()
}

/// Equal JSON, numbers within a relative 1e-12 (sums of the same terms in another order).
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w))),
        _ => a == b,
    }
}

fn rows() -> impl Strategy<Value = Vec<[String; 4]>> {
    // ` x` and `x` are one value, `NA` and the empty cell one blank, `*` and `**` suppressed.
    let cell = prop::sample::select(vec!["x", " x", "y", "1", "30-39", "", "NA", "*", "**"]);
    let row = (cell.clone(), cell.clone(), cell, prop::sample::select(vec!["flu", "cold", ""]))
        .prop_map(|(a, b, c, s)| [a.to_string(), b.to_string(), c.to_string(), s.to_string()]);
    prop::collection::vec(row, 1..80)
}

proptest! {
    /// Every identity metric of the partitioned audit is the one-piece audit's, for any split.
    #[test]
    fn parts_with_disjoint_classes_give_the_whole_tables_identity_metrics(
        rows in rows(),
        parts in 1u64..6,
        drop in any::<bool>(),
        exclude in any::<bool>(),
    ) {
        let config = config(if drop { MissingPolicy::Drop } else { MissingPolicy::Ordinary }, exclude);
        let whole = audit_table(&table(&rows, &config), &config, &pseudolens_core::Sides::default()).unwrap();
        let split = partitioned(&rows, parts, &config);
        prop_assert!(!split.metrics.is_empty());
        for m in &split.metrics {
            let w = whole.metrics.iter().find(|w| w.id == m.id && w.scope == m.scope).unwrap_or_else(|| panic!("{} is not in the one-piece audit", m.id));
            prop_assert_eq!(m.status, w.status, "{}", m.id);
            prop_assert!(close(&m.value, &w.value), "{}: {} != {}", m.id, m.value, w.value);
            prop_assert!(close(&m.details, &w.details), "{}: {} != {}", m.id, m.details, w.details);
        }
        // The profile and the account are the whole table's too.
        prop_assert_eq!(split.input.rows_total, whole.input.rows_total);
        for (p, w) in split.columns.iter().zip(&whole.columns) {
            prop_assert_eq!(p.distinct, w.distinct);
            prop_assert_eq!(p.forms.missing, w.forms.missing);
        }
        prop_assert_eq!(split.read.mode, "class_partitioned");
        prop_assert!(split.warnings.iter().any(|w| w.code == "class_partitioned"));
    }

    /// Merging is order-free and survives the binary form.
    #[test]
    fn merging_class_statistics_is_order_free(rows in rows(), cut in 0usize..80) {
        let config = config(MissingPolicy::Ordinary, true);
        // Two parts cut anywhere hold disjoint classes once each class is given to one side.
        let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
        let hasher = ClassPart::hasher(&header, &config).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for r in &rows {
            let h = hasher.hash(hasher.columns().iter().map(|&j| r[j].as_str()));
            if h % 80 < cut as u64 { a.push(r.clone()) } else { b.push(r.clone()) }
        }
        prop_assume!(!a.is_empty() && !b.is_empty());
        let sa = class_statistics(&table(&a, &config), &config).unwrap();
        let sb = class_statistics(&table(&b, &config), &config).unwrap();
        let (mut ab, mut ba) = (sa.clone(), sb.clone());
        ab.merge(sb);
        ba.merge(sa);
        prop_assert_eq!(&ab, &ba);
        prop_assert_eq!(DisjointClasses::from_bytes(&ab.to_bytes()).unwrap(), ab);
    }
}

/// Hand-checked: classes {x,x,y | sizes 2, 1} in one part and {z: 3, w: 1} in the other merge
/// into the histogram 1 -> 2 classes (2 records), 2 -> 1 (2), 3 -> 1 (3): 7 records, 4
/// classes, k = 1, two sample uniques, the riskiest classes `w` then `y` (f = 1, by value).
#[test]
fn a_hand_checked_merge() {
    let config = AuditConfig { quasi_identifiers: vec!["a".into()], ..AuditConfig::default() };
    let one = |cells: &[&str]| {
        let mut reader = TableReader::new(config.table_settings().unwrap());
        reader.push(format!("a\n{}\n", cells.join("\n")).as_bytes()).unwrap();
        class_statistics(&reader.finish().unwrap().table, &config).unwrap()
    };
    let mut s = one(&["x", "y", "x"]);
    s.merge(one(&["z", "w", "z", "z"]));
    assert_eq!(s.groups, vec![(1, 2, 2), (2, 1, 2), (3, 1, 3)]);
    assert_eq!((s.records(), s.rows_total), (7, 7));
    let top: Vec<&str> = s.riskiest.iter().map(|c| c.values[0].1.as_str()).collect();
    assert_eq!(top, ["w", "y", "x", "z"]);
    let (metrics, _) = s.metrics(&["a".into()], &config.identity_params());
    let value = |id: &str| metrics.iter().find(|m| m.id == id).unwrap().value.clone();
    assert_eq!(value("k_anonymity"), 1);
    assert_eq!(value("n_classes"), 4);
    assert_eq!(value("sample_uniques"), 2);
    assert_eq!(value("r_internal").as_f64().unwrap(), 4.0 / 7.0);
}

/// The wildcard policy is refused (a blank would match classes of other partitions).
#[test]
fn the_wildcard_policy_is_refused() {
    let config = config(MissingPolicy::Wildcard, true);
    let t = table(&[["x".into(), "".into(), "1".into(), "flu".into()]], &config);
    assert_eq!(class_statistics(&t, &config).unwrap_err().code, "class_partitioned_wildcard");
}

/// Rows of one class have one hash, whatever their spacing or missing token.
#[test]
fn rows_of_one_class_hash_alike() {
    let config = config(MissingPolicy::Ordinary, true);
    let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    let h = ClassPart::hasher(&header, &config).unwrap();
    assert_eq!(h.columns(), [2, 0, 1]);
    assert_eq!(h.hash([" x ", "NA", "*"]), h.hash(["x", "", "**"]));
    assert_ne!(h.hash(["x", "", "*"]), h.hash(["", "x", "*"]));
    assert_ne!(h.hash(["xy", "", ""]), h.hash(["x", "y", ""]));
}

/// Bytes that are not a class part are refused with a clear code.
#[test]
fn bytes_that_are_not_a_class_part_are_refused() {
    assert_eq!(ClassPart::from_bytes(b"PLTB....").unwrap_err().code, "invalid_class_part");
    let config = config(MissingPolicy::Ordinary, true);
    let mut bytes = ClassPart::of(table(&[["x".into(), "y".into(), "1".into(), "flu".into()]], &config), &config).unwrap().to_bytes();
    bytes[4] = 9;
    assert_eq!(ClassPart::from_bytes(&bytes).unwrap_err().code, "unsupported_class_part_version");
    bytes[4] = 1;
    let n = bytes.len();
    bytes[n - 1] ^= 1;
    assert_eq!(ClassPart::from_bytes(&bytes).unwrap_err().code, "invalid_table");
}

/// A column of many distinct values ships its sketch, not its values: a part stays small, the
/// profile estimates the column's distinct values (and says so).
#[test]
fn a_column_of_many_values_ships_its_sketch() {
    let config = AuditConfig { quasi_identifiers: vec!["a".into()], ..AuditConfig::default() };
    let part = |from: usize| {
        let mut csv = String::from("a,id\n");
        for i in from..from + 10_000 {
            csv.push_str(&format!("{},person-{i:08}\n", i % 7));
        }
        let mut reader = TableReader::new(config.table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        ClassPart::of(reader.finish().unwrap().table, &config).unwrap()
    };
    let (mut one, two) = (part(0), part(10_000));
    let bytes = one.to_bytes().len();
    // The sketch's 16,384 registers and the 7 values of `a`, not 10,000 ids of 15 bytes.
    assert!(bytes < 40_000, "{bytes} bytes");
    one.merge(two).unwrap();
    let report = one.audit(&config).unwrap();
    let id = &report.columns[1];
    assert!(!id.distinct_exact && id.distinct.abs_diff(20_000) < 400, "{}", id.distinct);
    assert_eq!((report.columns[0].distinct, report.columns[0].distinct_exact), (7, true));
}
