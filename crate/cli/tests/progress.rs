//! Progress on stderr (issue 36, item 7) and `compare` without `--qi` (utility alone, as the
//! page compares).

use std::path::PathBuf;
use std::process::Command;

fn pseudolens(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// A generated table of `rows` rows at generalization `level`, written once per test binary.
fn generated(rows: usize, level: u8) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pseudolens-progress-{}-{rows}-{level}.csv", std::process::id()));
    if !path.exists() {
        let (code, csv, err) = pseudolens(&["generate", "--rows", &rows.to_string(), "--level", &level.to_string()]);
        assert_eq!(code, 0, "{err}");
        std::fs::write(&path, csv).unwrap();
    }
    path
}

#[test]
fn progress_flag_prints_reads_and_audit_steps_on_stderr_only() {
    let file = generated(20_000, 0);
    let file = file.to_str().unwrap();
    let (code, json, err) = pseudolens(&["audit", file, "--qi", "age,sex,region", "--json", "--progress"]);
    assert_eq!(code, 0, "{err}");
    // stdout is the report alone.
    let report: serde_json::Value = serde_json::from_str(&json).expect("stdout is JSON");
    assert!(report["metrics"].is_array());
    assert!(err.contains(&format!("pseudolens: reading {file}: ")), "{err}");
    assert!(err.contains("pseudolens: auditing: computing the measures: 6 of 6 steps (100 %), finishing"), "{err}");
    assert!(err.lines().all(|l| l.starts_with("pseudolens: ") && l.contains(" %), ")), "{err}");
    // A table kept in memory: its rows are grouped into classes first.
    let (code, _, err) = pseudolens(&["audit", file, "--qi", "age,sex,region", "--json", "--retain", "--progress"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pseudolens: auditing: grouping the rows into classes: 20000 of 20000 rows (100 %)"), "{err}");
    // Without the flag and with stderr not a terminal: nothing.
    let (code, _, err) = pseudolens(&["audit", file, "--qi", "age,sex,region", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn compare_without_qi_compares_utility_alone() {
    let (original, a, b) = (generated(3_000, 0), generated(3_000, 1), generated(3_000, 2));
    let args = ["compare", original.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap(), "--record-id", "record_id"];
    let (code, out, err) = pseudolens(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("compared on utility alone"), "{out}");
    let (code, json, err) = pseudolens(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let first = &doc["candidates"][0]["metrics"];
    let value = |id: &str| first.as_array().unwrap().iter().find(|m| m["id"] == id).map(|m| m["value"].clone());
    assert!(value("utility_u").is_some_and(|v| v.is_f64()), "{first}");
    assert!(value("perm_um").is_some(), "{first}");
    assert_eq!(value("risk_r"), None);
}
