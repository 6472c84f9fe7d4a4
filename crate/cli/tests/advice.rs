//! `pseudolens audit --advice` (issue 12): the readable output lists what would lower the
//! risk, best first, the JSON carries the `advice` metric, and `--advice-k` sets the
//! suppression's k (at least 2).

use std::process::Command;

/// Audits a five-row table (its own file per `name`: the tests run side by side).
fn run(name: &str, args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("pseudolens-advice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.csv"));
    std::fs::write(&file, "age,sex\n31,M\n32,M\n33,F\n41,F\n41,F\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(["audit", file.to_str().unwrap(), "--qi", "age,sex"]).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_readable_output_lists_the_changes_best_first() {
    let (code, out, _) = run("readable", &["--advice", "--advice-k", "2", "--threshold", "0.5"]);
    assert_eq!(code, 0);
    let list = &out[out.find("what would lower the risk (best first):").expect("the advice heading")..];
    let first = list.lines().nth(1).unwrap();
    // Suppressing the 3 records of classes under 2 and dropping age both leave no record at
    // risk; the suppression costs less (3 of 5 records against the whole column).
    assert_eq!(
        first,
        "  1. Suppress the records of classes smaller than 2: k 1 → 2, records at risk 60.0 % → 0.0 %, verdict RED → AMBER; 3 records suppressed (60.0 %)."
    );
    assert!(list.lines().nth(2).unwrap().starts_with("  2. Drop age: k 1 → 2"));
}

#[test]
fn the_json_holds_the_metric_only_when_asked() {
    let (_, with, _) = run("with", &["--advice", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&with).unwrap();
    let advice = report["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "advice").expect("the advice metric");
    assert_eq!(advice["details"]["suppress_below"], 5);
    let (_, without, _) = run("without", &["--json"]);
    let report: serde_json::Value = serde_json::from_str(&without).unwrap();
    assert!(report["metrics"].as_array().unwrap().iter().all(|m| m["id"] != "advice"));
    assert_eq!(report["params"]["advice"], serde_json::Value::Null);
}

#[test]
fn a_suppression_k_below_2_is_refused() {
    let (code, _, err) = run("k1", &["--advice", "--advice-k", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--advice-k"), "{err}");
}
