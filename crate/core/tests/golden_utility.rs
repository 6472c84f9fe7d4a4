//! The permutation model through the audit path (spec utility.md Sec 11): the Census row of
//! [PERM] Table 1 over the twenty IPSO releases (shared/data/README.md), pairing by record id
//! and by row order, and the identities of a file compared with itself.

mod common;

use common::*;
use pseudolens_core::AuditConfig;
use pseudolens_core::utility::params::UtilityParams;

#[test]
fn census_ipso_reproduces_the_paper() {
    let dir = shared("data/census-ipso");
    let original = std::fs::read(dir.join("original.csv")).unwrap();
    let config = AuditConfig { record_id: Some("record_id".into()), ..AuditConfig::default() };
    let mut sums = [0.0; 4];
    for i in 1..=20 {
        let released = std::fs::read(dir.join(format!("ipso-{i:02}.csv"))).unwrap();
        let r = against(&original, &released, &config);
        for (s, id) in sums.iter_mut().zip(["perm_um", "perm_cm1", "perm_cm2", "perm_cm3"]) {
            *s += num(&r, id);
        }
    }
    let means = sums.map(|s| s / 20.0);
    let (paper, tolerance) = ([0.9638, 0.9904, 0.9849, 0.6673], [0.005, 0.005, 0.006, 0.02]);
    for k in 0..4 {
        assert!((means[k] - paper[k]).abs() <= tolerance[k], "UM, CM1, CM2, CM3 means {means:?} vs paper {paper:?}");
    }
}

#[test]
fn a_file_against_itself_and_shuffled() {
    let original = std::fs::read(shared("data/census-ipso/original.csv")).unwrap();
    let by_id = AuditConfig { record_id: Some("record_id".into()), ..AuditConfig::default() };
    let r = against(&original, &original, &by_id);
    for id in ["perm_cm1", "perm_cm2", "perm_cm3"] {
        assert!(num(&r, id).abs() < 1e-12, "{id}");
    }
    assert_close(num(&r, "perm_um"), 1.0, "UM");
    // Whole rows shuffled: pairing by record id changes nothing.
    let text = String::from_utf8(original.clone()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let header = lines.remove(0);
    lines.reverse();
    let shuffled = format!("{header}\n{}\n", lines.join("\n"));
    let r2 = against(&original, shuffled.as_bytes(), &by_id);
    assert!(num(&r2, "perm_cm1").abs() < 1e-12);
    // By row order the reversed file is a permutation of every record.
    let columns = ["FICA", "FEDTAX", "INTVAL", "POTHVAL"].map(String::from).to_vec();
    let r3 = against(
        &original,
        shuffled.as_bytes(),
        &AuditConfig { utility: UtilityParams { permutation_columns: columns, ..Default::default() }, ..AuditConfig::default() },
    );
    assert!(num(&r3, "perm_cm1") > 0.5);
    assert_close(num(&r3, "perm_um"), 1.0, "UM is unpaired");
}

#[test]
fn misaligned_files_are_errors_for_paired_metrics_only() {
    let o = b"id,x,y\n1,1,10\n2,2,20\n3,3,30\n4,4,50\n";
    let r = against(o, b"id,x,y\n1,1,10\n2,2,20\n", &AuditConfig::default());
    let cm1 = r.metric("perm_cm1").unwrap();
    assert_eq!((cm1.status, cm1.reason), (pseudolens_core::metric::Status::Error, Some("row_count_mismatch")));
    let by_id = AuditConfig { record_id: Some("id".into()), ..AuditConfig::default() };
    let r = against(o, b"id,x,y\n9,1,10\n", &by_id);
    assert_eq!(r.metric("perm_cm1").unwrap().reason, Some("record_id_unknown_in_released"));
    let r = against(o, b"id,x,y\n1,1,10\n2,2,20\n3,3,31\n", &by_id);
    assert_eq!(r.metric("perm_cm1").unwrap().details["records_removed"], serde_json::json!(1));
}
