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
    // One file per call: the tests run on several threads, and a file rewritten while another
    // run reads it can be read empty.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("pseudolens-ci-{}-{call}.csv", std::process::id()));
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
    let _ = std::fs::remove_file(&path);
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

#[test]
fn random_seed_is_named_and_reproduces_the_run() {
    let report = |extra: &[&str]| -> serde_json::Value { serde_json::from_str(&run(&[&["--json"], extra].concat())).unwrap() };
    let intervals =
        |r: &serde_json::Value| -> Vec<serde_json::Value> { r["metrics"].as_array().unwrap().iter().filter_map(|m| m["details"].get("ci").cloned()).collect() };
    let fresh = report(&["--ci-seed", "random"]);
    let seed = fresh["params"]["ci_seed"].as_u64().unwrap();
    // The seed drawn is the one every bootstrap interval names, and giving it back reproduces
    // the intervals exactly.
    let bootstrap: Vec<_> = intervals(&fresh).into_iter().filter(|ci| ci.get("seed").is_some()).collect();
    assert!(!bootstrap.is_empty() && bootstrap.iter().all(|ci| ci["seed"] == seed), "{bootstrap:?}");
    assert_eq!(intervals(&report(&["--ci-seed", &seed.to_string()])), intervals(&fresh));
    // Another draw: another seed (equal with probability 2^-64).
    assert_ne!(report(&["--ci-seed", "random"])["params"]["ci_seed"], seed);
    // The settings file's "random" likewise.
    let settings = std::env::temp_dir().join(format!("pseudolens-ci-random-{}.json", std::process::id()));
    std::fs::write(&settings, r#"{"ci_seed": "random"}"#).unwrap();
    assert_ne!(report(&["--settings", settings.to_str().unwrap()])["params"]["ci_seed"], 15);
}
