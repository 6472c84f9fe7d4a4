//! `--per-record FILE` (spec README Sec 10; identity-risk.md Sec 4): one CSV row per record of
//! the file, keyed by --record-id or row number, the same whatever the threads and whether the
//! table is kept (--retain) or streamed; its mean risk is R_int.

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("pseudolens-per-record-{}-{name}", std::process::id()))
}

/// A file past the CLI's 8 MiB threshold, so that two threads read it in two parts.
fn big_file() -> PathBuf {
    let path = temp("big.csv");
    let mut csv = String::from("id,age,sex,zip,note\n");
    for i in 0..260_000u64 {
        let s = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        csv.push_str(&format!("P{i},{},{},{},filler text\n", 18 + s % 70, ["F", "M"][(s % 2) as usize], 10_000 + s % 97));
    }
    std::fs::write(&path, csv).unwrap();
    path
}

fn run(file: &Path, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(["audit", file.to_str().unwrap(), "--qi", "age,sex,zip"]).args(extra).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn csv_per_record_same_on_every_path() {
    let file = big_file();
    let csv = |name: &str, extra: &[&str]| {
        let path = temp(name);
        let stdout = run(&file, &[&["--per-record", path.to_str().unwrap(), "--json"], extra].concat());
        (std::fs::read_to_string(&path).unwrap(), serde_json::from_str::<serde_json::Value>(&stdout).unwrap())
    };
    let (one, report) = csv("one.csv", &["--threads", "1", "--record-id", "id"]);
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines[0], "record_id,class_size,f,record_risk");
    assert_eq!(lines.len(), 260_001);
    assert!(lines[1].starts_with("P0,") && lines[260_000].starts_with("P259999,"));
    // The mean of the risks is R_int (identity-risk.md Sec 4).
    let risks: Vec<f64> = lines[1..].iter().map(|l| l.rsplit(',').next().unwrap().parse().unwrap()).collect();
    let mean = risks.iter().sum::<f64>() / risks.len() as f64;
    let metric = |id: &str| report["metrics"].as_array().unwrap().iter().find(|m| m["id"] == id).unwrap().clone();
    assert!((mean - metric("r_internal")["value"].as_f64().unwrap()).abs() < 1e-12);
    // Not in the JSON unless asked for.
    assert!(metric("record_risk")["details"].get("per_record").is_none());
    assert_eq!(csv("two.csv", &["--threads", "2", "--record-id", "id"]).0, one);
    assert_eq!(csv("kept.csv", &["--threads", "2", "--record-id", "id", "--retain"]).0, one);
    // Without a record id: row numbers, the same values.
    let (rows, _) = csv("rows.csv", &["--threads", "2"]);
    let strip = |s: &str| s.lines().skip(1).map(|l| l.split_once(',').unwrap().1.to_string()).collect::<Vec<_>>();
    assert!(rows.starts_with("row,class_size,f,record_risk\n1,"));
    assert_eq!(strip(&rows), strip(&one));
}

#[test]
fn per_record_in_report_and_shareable() {
    let path = temp("small.csv");
    std::fs::write(&path, "id,age,sex,zip\na,30,F,1\nb,30,F,1\nc,40,M,1\n").unwrap();
    let report: serde_json::Value = serde_json::from_str(&run(&path, &["--record-id", "id", "--per-record-in-report", "--json"])).unwrap();
    let risk = report["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "record_risk").unwrap();
    assert_eq!(risk["details"]["per_record"], serde_json::json!({ "a": 0.5, "b": 0.5, "c": 1.0 }));
    assert!(report["warnings"].as_array().unwrap().iter().any(|w| w["code"] == "record_level_values"));
    let safe: serde_json::Value = serde_json::from_str(&run(&path, &["--record-id", "id", "--per-record-in-report", "--shareable"])).unwrap();
    let risk = safe["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "record_risk").unwrap();
    assert!(risk["details"].get("per_record").is_none());
    assert!(safe["warnings"].as_array().unwrap().iter().all(|w| w["code"] != "record_level_values"));
}
