//! The attribute-disclosure options on the command line (issue 15): `--kind COL=ordinal`,
//! `--order`, `--t-distance`, `--hierarchy SA=FILE`, `--t-reference`, `--sa-mode` give the
//! report of the same keys in a settings file.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

/// golden.md G2 (13 rows, QIs zip and age, SAs disease and salary).
const G2: &str = include_str!("../../core/tests/fixtures/g2.csv");
const HIERARCHY: &str =
    "flu;Respiratory;*\npneumonia;Respiratory;*\nbronchitis;Respiratory;*\ngastric ulcer;Digestive;*\ngastritis;Digestive;*\nstomach cancer;Digestive;*\n";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pseudolens-attr-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("g2.csv"), G2).unwrap();
    std::fs::write(d.join("disease.csv"), HIERARCHY).unwrap();
    d
}

fn json_of(d: &PathBuf, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).arg("audit").arg(d.join("g2.csv")).args(args).current_dir(d).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn metric<'a>(r: &'a Value, id: &str, sa: &str) -> &'a Value {
    r["metrics"].as_array().unwrap().iter().find(|m| m["id"] == id && m["scope"]["sensitive"] == sa).unwrap_or_else(|| panic!("{id} {sa}"))
}

#[test]
fn flags_give_the_settings_file_report() {
    let d = dir("flags");
    let order = "3,4,5,6,7,8,9,10,11,12";
    let flags = json_of(
        &d,
        &[
            "--qi",
            "zip,age",
            "--sensitive",
            "disease,salary",
            "--t-distance",
            "hierarchical",
            "--hierarchy",
            "disease=disease.csv",
            "--kind",
            "salary=ordinal",
            "--order",
            &format!("salary={order}"),
            "--t-reference",
            "released",
            "--sa-mode",
            "per-attribute",
            "--json",
        ],
    );
    // golden.md G2: hierarchical t of disease 21/39; salary has no hierarchy.
    let t = metric(&flags, "t_closeness", "disease");
    assert!((t["value"].as_f64().unwrap() - 21.0 / 39.0).abs() < 1e-12);
    assert_eq!(t["details"]["distance"], "hierarchical");
    assert_eq!(metric(&flags, "t_closeness", "salary")["reason"], "no_hierarchy");
    assert_eq!(metric(&flags, "t_closeness_ordered", "salary")["details"]["order"], "declared");
    let rows: Vec<Vec<&str>> = HIERARCHY.lines().map(|l| l.split(';').collect()).collect();
    let settings = json!({
        "quasi_identifiers": ["zip", "age"], "sensitive": ["disease", "salary"], "t_distance": "hierarchical",
        "t_reference": "released", "sa_mode": "per_attribute",
        "attributes": { "disease": { "hierarchy": rows }, "salary": { "kind": "ordinal", "order": order.split(',').collect::<Vec<_>>() } },
    });
    std::fs::write(d.join("s.json"), settings.to_string()).unwrap();
    assert_eq!(json_of(&d, &["--settings", "s.json", "--json"]), flags);
}

#[test]
fn sa_mode_flag_and_an_unknown_kind() {
    let d = dir("mode");
    let r = json_of(&d, &["--qi", "zip,age", "--sensitive", "disease,salary", "--sa-mode", "combined", "--json"]);
    assert!(metric(&r, "t_closeness", "disease + salary")["value"].is_number());
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).arg("audit").arg(d.join("g2.csv")).args(["--qi", "zip", "--kind", "age=rank"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("numeric, date, categorical or ordinal"));
}
