//! `--settings FILE` (issue 13, Deliver 3): the file holds the audit configuration's keys (the
//! page's settings file); the flags given override it; `--utility-settings` is the same flag.
//! `--shareable [K]` (Deliver 2) prints the report safe to share.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

const TABLE: &str = "age,sex,diagnosis\n31,M,flu\n32,M,flu\n33,F,asthma\n41,F,flu\n41,F,gout\n41,F,flu\n41,F,flu\n41,F,flu\n";

/// A directory of this test's own (the tests run side by side).
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pseudolens-settings-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("table.csv"), TABLE).unwrap();
    d
}

fn run(d: &PathBuf, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).arg("audit").arg(d.join("table.csv")).args(args).current_dir(d).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json_of(d: &PathBuf, args: &[&str]) -> Value {
    let (code, out, err) = run(d, args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_settings_file_gives_the_same_report_as_its_flags() {
    let d = dir("same");
    let settings =
        json!({ "quasi_identifiers": ["age", "sex"], "sensitive": ["diagnosis"], "threshold": 0.5, "l_threshold": 2, "advice": { "suppress_below": 2 } });
    std::fs::write(d.join("s.json"), settings.to_string()).unwrap();
    let from_file = json_of(&d, &["--settings", "s.json", "--json"]);
    let from_flags =
        json_of(&d, &["--qi", "age,sex", "--sensitive", "diagnosis", "--threshold", "0.5", "--l-threshold", "2", "--advice", "--advice-k", "2", "--json"]);
    assert_eq!(from_file, from_flags);
    // A report's params are a settings file: read back, they give the same report.
    std::fs::write(d.join("params.json"), from_file["params"].to_string()).unwrap();
    assert_eq!(json_of(&d, &["--settings", "params.json", "--json"]), from_file);
}

#[test]
fn flags_override_the_file_and_utility_settings_is_the_same_flag() {
    let d = dir("override");
    std::fs::write(d.join("s.json"), json!({ "quasi_identifiers": ["age"], "threshold": 0.5, "similarity_bins": 10 }).to_string()).unwrap();
    let r = json_of(&d, &["--settings", "s.json", "--threshold", "0.3", "--qi", "age,sex", "--json"]);
    assert_eq!(r["params"]["threshold"], 0.3);
    assert_eq!(r["params"]["quasi_identifiers"], json!(["age", "sex"]));
    assert_eq!(r["params"]["similarity_bins"], 10, "the file's other settings stay");
    let alias = json_of(&d, &["--utility-settings", "s.json", "--json"]);
    assert_eq!((alias["params"]["threshold"].clone(), alias["params"]["similarity_bins"].clone()), (json!(0.5), json!(10)));
}

#[test]
fn a_misspelt_setting_is_refused() {
    let d = dir("misspelt");
    std::fs::write(d.join("s.json"), json!({ "quasi_identifier": ["age"] }).to_string()).unwrap();
    let (code, _, err) = run(&d, &["--settings", "s.json", "--json"]);
    assert_eq!(code, 1);
    assert!(err.contains("not a settings file") && err.contains("quasi_identifier"), "{err}");
}

#[test]
fn shareable_prints_only_counts_of_at_least_k() {
    let d = dir("shareable");
    let full = json_of(&d, &["--qi", "age,sex", "--sensitive", "diagnosis", "--json"]);
    assert!(full["columns"][2]["top"].as_array().unwrap().iter().any(|e| e[0] == "gout"));
    let safe = json_of(&d, &["--qi", "age,sex", "--sensitive", "diagnosis", "--shareable"]);
    assert_eq!(safe["shareable"]["min_count"], 5);
    assert_eq!(safe["columns"][2]["top"], json!([["flu", 6]]), "only the value held by 5 records or more");
    assert_eq!(safe["metrics"][0], full["metrics"][0]);
    let two = json_of(&d, &["--qi", "age,sex", "--shareable", "2"]);
    assert_eq!(two["shareable"]["min_count"], 2);
    let top = two["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "record_risk").unwrap()["details"]["top"].clone();
    assert!(top.as_array().unwrap().iter().all(|c| c["size"].as_u64().unwrap() >= 2), "{top}");
}

#[test]
fn profile_with_a_settings_file_stays_a_profile() {
    let d = dir("profile");
    std::fs::write(d.join("s.json"), json!({ "quasi_identifiers": ["age"], "missing_tokens": ["", "41"] }).to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens"))
        .arg("profile")
        .arg(d.join("table.csv"))
        .args(["--settings", "s.json", "--json"])
        .current_dir(&d)
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["metrics"], json!([]));
    assert_eq!(r["columns"][0]["forms"]["missing"], 5, "the file's missing tokens apply");
}

/// The attacks (peer-measures.md Sec 5): `"attacks"` in a settings file gives the report of the
/// attack flags; `--control` is read like the original; `--shareable` drops the queries.
#[test]
fn the_attacks_from_a_settings_file_or_flags() {
    let d = dir("attacks");
    let original = "age,sex,diagnosis\n30,M,flu\n33,M,flu\n34,F,asthma\n40,F,flu\n42,F,gout\n44,F,flu\n45,F,cold\n47,F,flu\n";
    let control = "age,sex,diagnosis\n29,F,flu\n35,M,gout\n38,F,cold\n41,M,flu\n43,F,flu\n46,M,asthma\n";
    std::fs::write(d.join("o.csv"), original).unwrap();
    std::fs::write(d.join("c.csv"), control).unwrap();
    let settings = json!({ "quasi_identifiers": ["age", "sex"], "sensitive": ["diagnosis"],
        "attacks": { "n_attacks": 6, "seed": 9, "so_mode": "univariate", "link_n_neighbors": 2 } });
    std::fs::write(d.join("s.json"), settings.to_string()).unwrap();
    let base = ["--original", "o.csv", "--control", "c.csv", "--json"];
    let from_file = json_of(&d, &[&["--settings", "s.json"][..], &base].concat());
    let flags = ["--qi", "age,sex", "--sensitive", "diagnosis", "--n-attacks", "6", "--attack-seed", "9", "--so-mode", "univariate", "--link-n-neighbors", "2"];
    let from_flags = json_of(&d, &[&flags[..], &base].concat());
    assert_eq!(from_file["metrics"], from_flags["metrics"]);
    let attacks: Vec<&Value> = from_file["metrics"].as_array().unwrap().iter().filter(|m| m["family"] == "attack").collect();
    assert_eq!(attacks.len(), 3);
    for m in &attacks {
        assert_eq!(m["status"], "ok", "{m}");
        assert_eq!(m["params"]["control_given"], true);
        assert_eq!(m["params"]["seed"], 9);
    }
    let so = attacks.iter().find(|m| m["id"] == "anonymeter_singling_out_risk").unwrap();
    assert!(so["details"]["queries"].as_array().is_some_and(|q| !q.is_empty()));
    let safe = json_of(&d, &[&["--settings", "s.json", "--shareable"][..], &base[..4]].concat());
    let so = safe["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "anonymeter_singling_out_risk").unwrap();
    assert!(so["details"].get("queries").is_none());
    assert_eq!(safe["shareable"]["removed"]["attack_queries"], 1);
    // Without any attack setting there is no attack metric.
    let plain = json_of(&d, &["--qi", "age,sex", "--original", "o.csv", "--json"]);
    assert!(plain["metrics"].as_array().unwrap().iter().all(|m| m["family"] != "attack"));
}

/// The synthetic measures (synthetic.md Sec 2-4, issue 39): `--synthetic` and the `--kmarg-*`
/// flags give the report of `"synthetic"` in a settings file; `--shareable` drops the apparent
/// matches; without them no synthetic measure and no `synthetic` key.
#[test]
fn the_synthetic_measures_from_a_settings_file_or_flags() {
    let d = dir("synthetic");
    let original = "age,sex,diagnosis\n30,M,flu\n33,M,flu\n34,F,asthma\n41,F,flu\n42,F,gout\n41,F,flu\n45,F,cold\n47,F,flu\n";
    std::fs::write(d.join("o.csv"), original).unwrap();
    let settings = json!({ "quasi_identifiers": ["age", "sex"], "synthetic": { "kmarg_binned": ["age"], "kmarg_bins": 4, "kmarg_group_by": "sex" } });
    std::fs::write(d.join("s.json"), settings.to_string()).unwrap();
    let from_file = json_of(&d, &["--settings", "s.json", "--original", "o.csv", "--json"]);
    let flags = ["--qi", "age,sex", "--synthetic", "--kmarg-binned", "age", "--kmarg-bins", "4", "--kmarg-group-by", "sex", "--original", "o.csv", "--json"];
    let from_flags = json_of(&d, &flags);
    assert_eq!(from_file["metrics"], from_flags["metrics"]);
    assert_eq!(from_file["params"]["synthetic"], from_flags["params"]["synthetic"]);
    let synthetic: Vec<&Value> = from_flags["metrics"].as_array().unwrap().iter().filter(|m| m["family"] == "synthetic").collect();
    let ids: Vec<&str> = synthetic.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "k_marginal",
            "unique_exact_matches",
            "apparent_match",
            "pmse",
            "correlation_difference",
            "pca_comparison",
            "linear_regression",
            "dcr_baseline_protection",
            "dcr_overfitting_protection",
            "disclosure_protection"
        ]
    );
    // Without --linreg-x/-y, a holdout or sensitive columns, those three say why; the rest are computed.
    let status = |id: &str| synthetic.iter().find(|m| m["id"] == id).map(|m| (m["status"].as_str().unwrap(), m["reason"].as_str()));
    assert_eq!(status("linear_regression"), Some(("not_applicable", Some("not_configured"))));
    assert_eq!(status("dcr_overfitting_protection"), Some(("not_applicable", Some("no_holdout"))));
    assert_eq!(status("disclosure_protection"), Some(("not_applicable", Some("no_sensitive_columns"))));
    let skipped = ["linear_regression", "dcr_overfitting_protection", "disclosure_protection"];
    assert!(synthetic.iter().filter(|m| !skipped.contains(&m["id"].as_str().unwrap())).all(|m| m["status"] == "ok"), "{synthetic:?}");
    assert_eq!(synthetic[0]["details"]["binned"], json!(["age"]));
    // Unique on (age, sex): in the release (31,M) (32,M) (33,F); in the original none of them.
    assert_eq!(synthetic[2]["details"]["matched"], 0);
    let safe = json_of(&d, &[&flags[..], &["--shareable"]].concat());
    let am = safe["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "apparent_match").unwrap();
    assert!(am["details"].get("records").is_none());
    let (code, text, err) = run(&d, &flags[..flags.len() - 1]);
    assert_eq!(code, 0, "{err}");
    assert!(text.lines().any(|l| l.starts_with("k_marginal ")), "{text}");
    let plain = json_of(&d, &["--qi", "age,sex", "--original", "o.csv", "--json"]);
    assert!(plain["metrics"].as_array().unwrap().iter().all(|m| m["family"] != "synthetic"));
    assert!(plain["params"].get("synthetic").is_none());
}

/// `--holdout` is the attacks' `--control`: the same table reaches both; two different tables
/// are refused with a message naming both flags.
#[test]
fn the_holdout_is_the_control_table() {
    let d = dir("holdout");
    std::fs::write(d.join("o.csv"), "age,sex,diagnosis\n30,M,flu\n33,M,flu\n34,F,asthma\n41,F,flu\n").unwrap();
    std::fs::write(d.join("h.csv"), "age,sex,diagnosis\n31,M,flu\n35,F,gout\n40,F,flu\n").unwrap();
    let base = ["--qi", "age,sex", "--original", "o.csv", "--json"];
    let by_holdout = json_of(&d, &[&base[..], &["--holdout", "h.csv"]].concat());
    let by_both = json_of(&d, &[&base[..], &["--holdout", "h.csv", "--control", "h.csv"]].concat());
    let synthetic = |r: &Value| r["metrics"].as_array().unwrap().iter().filter(|m| m["family"] == "synthetic").cloned().collect::<Vec<_>>();
    assert!(!synthetic(&by_holdout).is_empty());
    assert_eq!(synthetic(&by_holdout), synthetic(&by_both));
    let (code, _, err) = run(&d, &[&base[..], &["--holdout", "h.csv", "--control", "o.csv"]].concat());
    assert_ne!(code, 0);
    assert!(err.contains("--control and --holdout"), "{err}");
}

/// The peers' settings (issue 16): the flags and the settings file's keys give the same report;
/// `--hipaa` prints the checklist in the readable output, never the word "compliant".
#[test]
fn peer_flags_equal_their_settings_keys() {
    let d = dir("peers");
    std::fs::write(d.join("e.csv"), "age,sex\n31,M\n31,M\n32,M\n33,F\n41,F\n41,F\n41,F\n41,F\n41,F\n41,F\n").unwrap();
    let settings = json!({ "quasi_identifiers": ["age", "sex"], "k_map": 2, "k_map_alpha": 0.05, "k_map_estimator": "zero_truncated_poisson", "delta_min": 0.1, "delta_max": 0.9, "hipaa": true, "row_order_threshold": 0.8 });
    std::fs::write(d.join("s.json"), settings.to_string()).unwrap();
    let from_file = json_of(&d, &["--settings", "s.json", "--reference", "e.csv", "--json"]);
    let from_flags = json_of(
        &d,
        &[
            "--qi",
            "age,sex",
            "--k-map",
            "2",
            "--k-map-alpha",
            "0.05",
            "--k-map-estimator",
            "zero-truncated-poisson",
            "--delta-presence",
            "0.1,0.9",
            "--hipaa",
            "--row-order-threshold",
            "0.8",
            "--reference",
            "e.csv",
            "--json",
        ],
    );
    assert_eq!(from_file, from_flags);
    let metric = |id: &str| from_file["metrics"].as_array().unwrap().iter().find(|m| m["id"] == id).unwrap().clone();
    assert_eq!(metric("k_map")["value"], 1, "(32,M) and (33,F) match one population row each");
    assert_eq!(metric("delta_presence")["details"]["dmax"], 0.9);
    assert_eq!(metric("hipaa_safe_harbor")["details"]["kinds"].as_array().unwrap().len(), 18);
    let (code, text, err) = run(&d, &["--qi", "age,sex", "--hipaa"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("HIPAA Safe Harbor checklist (what the values show; not a statement of compliance):"), "{text}");
    assert!(text.contains("(A) no finding     Names"), "{text}");
    assert!(!text.to_lowercase().contains("compliant"));
    // delta-presence's form (b): the research subset flagged in a column of the population.
    std::fs::write(d.join("ef.csv"), "age,sex,in\n31,M,1\n31,M,0\n32,M,yes\n41,F,no\n41,F,TRUE\n").unwrap();
    std::fs::write(d.join("sf.json"), json!({ "quasi_identifiers": ["age", "sex"], "research_subset_column": "in" }).to_string()).unwrap();
    let from_file = json_of(&d, &["--settings", "sf.json", "--reference", "ef.csv", "--json"]);
    let from_flags = json_of(&d, &["--qi", "age,sex", "--research-subset-column", "in", "--reference", "ef.csv", "--json"]);
    assert_eq!(from_file, from_flags);
    let delta = from_flags["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "delta_presence").unwrap().clone();
    // (31,M) 1/2, (32,M) 1/1, (41,F) 1/2.
    assert_eq!(delta["value"], json!({ "min": 0.5, "max": 1.0 }), "{delta}");
    assert_eq!(delta["details"]["form"], json!({ "research_subset_column": "in" }));
    let (code, _, err) = run(&d, &["--qi", "age", "--delta-presence", "0.6,0.1"]);
    assert_ne!(code, 0);
    assert!(err.contains("DMIN <= DMAX"), "{err}");
}

#[test]
fn case_insensitive_flag_equals_its_settings_key() {
    let d = dir("case");
    std::fs::write(d.join("table.csv"), "sex,zip\nMale,130\nmale,130\nMALE,130\nFemale,130\nfemale,130\nF,131\n").unwrap();
    std::fs::write(d.join("s.json"), json!({ "quasi_identifiers": ["sex", "zip"], "case_insensitive": true }).to_string()).unwrap();
    let from_file = json_of(&d, &["--settings", "s.json", "--json"]);
    let from_flags = json_of(&d, &["--qi", "sex,zip", "--case-insensitive", "--json"]);
    assert_eq!(from_file, from_flags);
    let classes = |r: &Value| r["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "n_classes").unwrap()["value"].clone();
    // (male,130) x3, (female,130) x2, (f,131); 6 classes case-sensitively.
    assert_eq!(classes(&from_flags), 3);
    assert_eq!(classes(&json_of(&d, &["--qi", "sex,zip", "--json"])), 6);
}
