//! The confidence intervals in the CLI (issue 15, Deliver 1; docs/ci.md): the table shows each
//! interval beside its value; `--ci-level`, `--ci-replicates` and the settings file's
//! `ci_level` set them; the JSON intervals do not depend on the number of threads.

use std::process::Command;

fn file() -> std::path::PathBuf {
    let mut csv = String::from("age,sex,w\n");
    for i in 0..400u64 {
        let s = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        csv.push_str(&format!("{},{},{}\n", 18 + s % 70, ["F", "M"][(s % 2) as usize], 5 + s % 20));
    }
    let path = std::env::temp_dir().join(format!("pseudolens-ci-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

fn run(extra: &[&str]) -> String {
    let path = file();
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens"))
        .args(["audit", path.to_str().unwrap(), "--qi", "age,sex", "--weight", "w", "--sampling-fraction", "0.1"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn line<'a>(table: &'a str, id: &str) -> &'a str {
    table.lines().find(|l| l.starts_with(&format!("{id} "))).unwrap_or_else(|| panic!("no line {id}:\n{table}"))
}

#[test]
fn table_shows_intervals_beside_values() {
    let table = run(&[]);
    for id in ["population_uniqueness_zayatz", "population_uniqueness_dankar", "global_risk", "global_risk_er"] {
        assert!(line(&table, id).contains("  95% CI ["), "{}", line(&table, id));
    }
    assert!(!line(&table, "k_anonymity").contains("CI"));
    assert!(line(&run(&["--ci-level", "0.9"]), "global_risk").contains("  90% CI ["));
    assert!(!run(&["--ci-replicates", "0"]).contains("% CI ["));
    let settings = std::env::temp_dir().join(format!("pseudolens-ci-settings-{}.json", std::process::id()));
    std::fs::write(&settings, r#"{"ci_level": 0.8, "ci_seed": 3}"#).unwrap();
    assert!(line(&run(&["--settings", settings.to_str().unwrap()]), "population_uniqueness_zayatz").contains("  80% CI ["));
}

#[test]
fn intervals_do_not_depend_on_threads() {
    let ci = |threads: &str| {
        let report: serde_json::Value = serde_json::from_str(&run(&["--json", "--threads", threads])).unwrap();
        let metrics = report["metrics"].as_array().unwrap().clone();
        metrics.into_iter().filter(|m| m["details"].get("ci").is_some()).map(|m| (m["id"].clone(), m["details"]["ci"].clone())).collect::<Vec<_>>()
    };
    let one = ci("1");
    assert!(one.len() >= 6, "{one:?}");
    assert_eq!(one, ci("2"));
    assert_eq!(one.iter().find(|(id, _)| id == "population_uniqueness_zayatz").unwrap().1["seed"], 15);
}
