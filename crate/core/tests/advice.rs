//! The `advice` metric (issue 12): hand-checked figures, and every kind of change applied by
//! hand to the file, audited again, giving the figures the advice predicted.

mod common;

use common::{assert_close, audit, num, qi, value};
use pseudolens_core::{AdviceParams, AttributeSettings, AuditConfig, Report};
use serde_json::{Value, json};

fn advised(csv: &str, config: AuditConfig) -> (Report, Vec<Value>) {
    let config = AuditConfig { advice: config.advice.or(Some(AdviceParams::default())), ..config };
    let r = audit(csv.as_bytes(), &config);
    let list = value(&r, "advice").as_array().expect("a list").clone();
    (r, list)
}

#[test]
fn five_records_by_hand() {
    // Classes (31,M) (32,M) (33,F) (41,F)x2; tau 0.5: a record is at risk when f = 1.
    let csv = "age,sex\n31,M\n32,M\n33,F\n41,F\n41,F\n";
    let config = AuditConfig { threshold: 0.5, ..qi(&["age", "sex"]) };
    let (r, list) = advised(csv, config);
    let before = &r.metric("advice").unwrap().details["before"];
    assert_eq!(before, &json!({ "records": 5, "k": 1, "uniques": 3, "records_at_risk": 0.6, "verdict": "red" }));
    let find = |kind: &str, column: Option<&str>| {
        list.iter()
            .find(|e| e["change"]["kind"] == kind && column.is_none_or(|c| e["change"]["column"] == c) && e["change"]["width"] != 5)
            .unwrap_or_else(|| panic!("no {kind} change"))
    };
    // Suppressing classes under 5 removes every record: nothing left to advise on.
    assert!(list.iter().all(|e| e["change"]["kind"] != "suppress"));
    // Drop age: M x2, F x3; highest risk 1/2 <= 0.5, success rate 2/5 > 0.05: amber.
    let drop_age = find("drop", Some("age"));
    assert_eq!(drop_age["after"], json!({ "records": 5, "k": 2, "uniques": 0, "records_at_risk": 0.0, "verdict": "amber" }));
    assert_eq!(drop_age["generalization_loss"], 1.0);
    // Bands of 10: (3,M)x2 (3,F) (4,F)x2; 31, 32, 33 merged out of 4 ages; |GR| = 10.
    let bands = find("bands", Some("age"));
    assert_eq!(bands["after"], json!({ "records": 5, "k": 1, "uniques": 1, "records_at_risk": 0.2, "verdict": "red" }));
    assert_eq!(bands["values_merged"], 0.75);
    assert_close(bands["generalization_loss"].as_f64().unwrap(), 0.9, "loss of bands of 10");
    assert_eq!(
        bands["sentence"],
        "Coarsen age to bands of 10: k 1 → 1, records at risk 60.0 % → 20.0 %, verdict RED → RED; 75.0 % of age values merged, generalization loss 0.90."
    );
    let drop_sex = find("drop", Some("sex"));
    assert_eq!(drop_sex["after"]["records_at_risk"], 0.6);
    // Ranked by records at risk, then by cost: drop age (0), bands of 5 (0.2, loss 0.8) before
    // bands of 10 (0.2, loss 0.9), then drop sex (0.6).
    let order: Vec<String> = list.iter().map(|e| format!("{} {}", e["change"]["kind"].as_str().unwrap(), e["change"]["width"])).collect();
    assert_eq!(order, ["drop null", "bands 5", "bands 10", "drop null"]);
}

/// A table with a whole number, a date, a 5-digit code, a category with a hierarchy and a
/// two-valued column, from a fixed generator.
fn table() -> (String, Vec<Vec<String>>) {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let education = [
        ("Bachelors", "Undergraduate", "Higher"),
        ("Masters", "Graduate", "Higher"),
        ("Doctorate", "Graduate", "Higher"),
        ("9th", "School", "Secondary"),
        ("12th", "School", "Secondary"),
    ];
    let hierarchy = education.iter().map(|(a, b, c)| vec![a.to_string(), b.to_string(), c.to_string(), "*".to_string()]).collect();
    let mut csv = String::from("age,admitted,zip,education,sex\n");
    for _ in 0..20_000 {
        let age = 18 + next(20);
        let date = format!("2025-{:02}-{:02}", 1 + next(3), 1 + next(5));
        let zip = 10_000 + next(4) * 7;
        let edu = education[next(5) as usize].0;
        let sex = ["F", "M"][next(2) as usize];
        csv.push_str(&format!("{age},{date},{zip},{edu},{sex}\n"));
    }
    (csv, hierarchy)
}

/// The file with `f` applied to column `column`'s cells.
fn recoded(csv: &str, column: usize, f: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    for (i, line) in csv.lines().enumerate() {
        let mut cells: Vec<String> = line.split(',').map(String::from).collect();
        if i > 0 {
            cells[column] = f(&cells[column]);
        }
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// The light of `verdict_arx_thresholds` (the page's: green, amber when only success rates
/// fail, red).
fn light(r: &Report) -> &'static str {
    let v = value(r, "verdict_arx_thresholds");
    let models = ["prosecutor", "journalist"];
    if models.iter().any(|m| v[m]["records_at_risk"] == false || v[m]["highest_risk"] == false) {
        "red"
    } else if v["all_pass"] == true {
        "green"
    } else {
        "amber"
    }
}

#[test]
fn every_kind_of_advice_applied_by_hand_gives_the_predicted_figures() {
    let (csv, hierarchy) = table();
    let qis = ["age", "admitted", "zip", "education", "sex"];
    let mut config = qi(&qis);
    config.attributes.insert("education".into(), AttributeSettings { hierarchy: Some(hierarchy.clone()), ..AttributeSettings::default() });
    let (_, list) = advised(&csv, AuditConfig { advice: Some(AdviceParams { suppress_below: 3 }), ..config });
    let mut kinds: Vec<&str> = list.iter().map(|e| e["change"]["kind"].as_str().unwrap()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(kinds, ["bands", "drop", "hierarchy", "month", "suppress", "truncate", "year"]);
    let column = |e: &Value| qis.iter().position(|q| e["change"]["column"] == *q);
    for e in &list {
        let change = &e["change"];
        let (file, roles) = match change["kind"].as_str().unwrap() {
            "drop" => (csv.clone(), qi(&qis.iter().copied().filter(|q| change["column"] != *q).collect::<Vec<_>>())),
            "bands" => {
                let w = change["width"].as_i64().unwrap();
                (recoded(&csv, column(e).unwrap(), |t| (t.parse::<i64>().unwrap().div_euclid(w) * w).to_string()), qi(&qis))
            }
            "month" => (recoded(&csv, column(e).unwrap(), |t| t[..7].to_string()), qi(&qis)),
            "year" => (recoded(&csv, column(e).unwrap(), |t| t[..4].to_string()), qi(&qis)),
            "truncate" => {
                let keep = change["keep"].as_u64().unwrap() as usize;
                (recoded(&csv, column(e).unwrap(), |t| t[..keep].to_string()), qi(&qis))
            }
            "hierarchy" => {
                let level = change["level"].as_u64().unwrap() as usize;
                let node = |t: &str| hierarchy.iter().find(|row| row[0] == t).unwrap()[level].clone();
                (recoded(&csv, column(e).unwrap(), node), qi(&qis))
            }
            "suppress" => (without_small_classes(&csv, change["below"].as_u64().unwrap()), qi(&qis)),
            other => panic!("unexpected change {other}"),
        };
        let r = audit(file.as_bytes(), &roles);
        let after = &e["after"];
        let what = &e["sentence"];
        assert_eq!(after["k"].as_f64().unwrap(), num(&r, "k_anonymity"), "k: {what}");
        assert_eq!(after["uniques"].as_f64().unwrap(), num(&r, "sample_uniques"), "uniques: {what}");
        assert_close(after["records_at_risk"].as_f64().unwrap(), num(&r, "prosecutor_records_at_risk"), &format!("records at risk: {what}"));
        assert_eq!(after["verdict"], light(&r), "verdict: {what}");
    }
}

/// The file without the records of classes (over every column) smaller than `below`.
fn without_small_classes(csv: &str, below: u64) -> String {
    let mut sizes = std::collections::HashMap::new();
    for line in csv.lines().skip(1) {
        *sizes.entry(line).or_insert(0u64) += 1;
    }
    let mut lines = csv.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for line in lines.filter(|l| sizes[l] >= below) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[test]
fn the_advice_does_not_depend_on_row_order() {
    let (csv, _) = table();
    let mut lines: Vec<&str> = csv.lines().collect();
    let header = lines.remove(0);
    lines.reverse();
    let reversed = format!("{header}\n{}\n", lines.join("\n"));
    let config = qi(&["age", "admitted", "zip", "sex"]);
    assert_eq!(advised(&csv, config.clone()).1, advised(&reversed, config).1);
}
