//! Dates in every written form and decimal commas (issue 36, spec README Sec 4.2 and 4.4): a
//! German export (`;`, CRLF, `dd.mm.yyyy`, decimal commas) reads its date of birth as a date
//! (a quasi-identifier, with month and year advice) and its weights as numbers; a column both
//! day-first and month-first read is reported, and read once its form is set.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pseudolens-dates-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// 24 patients: postcode, date of birth `dd.mm.yyyy` (every one distinct), sex, weight with a
/// decimal comma; `;` and CRLF.
fn german(d: &Path) -> PathBuf {
    let mut text = String::from("PLZ;Geburtsdatum;Geschlecht;Gewicht\r\n");
    for i in 0..24 {
        let (day, month, year) = (1 + i % 28, 1 + i % 12, 1950 + i);
        text.push_str(&format!("{};{day:02}.{month:02}.{year};{};{},{}\r\n", 10115 + i % 3, ["w", "m"][i as usize % 2], 60 + i, i % 10));
    }
    let path = d.join("export.csv");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(d: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(args).current_dir(d).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn column<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["columns"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("{name}"))
}

#[test]
fn a_german_export_reads_its_dates_of_birth_and_decimal_commas() {
    let d = dir("german");
    let file = german(&d);
    let profile = run(&d, &["profile", file.to_str().unwrap(), "--json"]);
    let born = column(&profile, "Geburtsdatum");
    assert_eq!((&born["kind"], &born["date_form"], &born["proposed_role"]), (&"date".into(), &"DD.MM.YYYY".into(), &"quasi_identifier".into()));
    // Hand-checked: the first row is 01.01.1950, the last 24.12.1973.
    assert_eq!((&born["min"], &born["max"]), (&"1950-01-01".into(), &"1973-12-24".into()));
    let weight = column(&profile, "Gewicht");
    assert_eq!((&weight["kind"], &weight["decimal_comma"]), (&"numeric".into(), &true.into()));
    assert_eq!((&weight["min"], &weight["max"]), (&"60".into(), &"83.3".into()));
    assert_eq!(weight["forms"]["exact"], 24);

    // The date of birth is generalized by month and year in the advice.
    let report = run(&d, &["audit", file.to_str().unwrap(), "--qi", "PLZ,Geburtsdatum", "--advice", "--json"]);
    let advice = report["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "advice").unwrap();
    let kinds: Vec<&str> =
        advice["value"].as_array().unwrap().iter().filter(|e| e["change"]["column"] == "Geburtsdatum").map(|e| e["change"]["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"month") && kinds.contains(&"year"), "{kinds:?}");

    // The readable profile shows the form.
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(["profile", file.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("Geburtsdatum")).unwrap();
    assert!(line.contains("date") && line.contains("DD.MM.YYYY"), "{line}");
    assert!(text.lines().find(|l| l.starts_with("Gewicht")).unwrap().contains("decimal comma"), "{text}");
}

#[test]
fn an_ambiguous_column_is_reported_until_its_form_is_set() {
    let d = dir("ambiguous");
    // Day and month never above 12: both DD/MM/YYYY and MM/DD/YYYY read every value.
    let rows: String = (0..12).map(|i| format!("{:02}/{:02}/2020,{}\n", 1 + i, 12 - i, i % 2)).collect();
    std::fs::write(d.join("visits.csv"), format!("visit,sex\n{rows}")).unwrap();
    let profile = run(&d, &["profile", "visits.csv", "--json"]);
    assert_eq!(column(&profile, "visit")["kind"], "categorical");
    let warning = profile["warnings"].as_array().unwrap().iter().find(|w| w["code"] == "date_form_ambiguous").expect("a warning");
    let message = warning["message"].as_str().unwrap();
    assert!(message.contains("DD/MM/YYYY") && message.contains("MM/DD/YYYY") && message.contains("\"visit\""), "{message}");

    let set = run(&d, &["profile", "visits.csv", "--date-form", "visit=MM/DD/YYYY", "--json"]);
    let visit = column(&set, "visit");
    assert_eq!((&visit["kind"], &visit["date_form"]), (&"date".into(), &"MM/DD/YYYY".into()));
    // Month first: 01/12/2020 is 12 January, 12/01/2020 1 December.
    assert_eq!((&visit["min"], &visit["max"]), (&"2020-01-12".into(), &"2020-12-01".into()));
    assert!(set["warnings"].as_array().unwrap().iter().all(|w| w["code"] != "date_form_ambiguous"));

    // A value above 12 decides: day first.
    std::fs::write(d.join("decided.csv"), format!("visit,sex\n{rows}13/01/2020,1\n")).unwrap();
    assert_eq!(column(&run(&d, &["profile", "decided.csv", "--json"]), "visit")["date_form"], "DD/MM/YYYY");

    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(["profile", "visits.csv", "--date-form", "visit=DD.MM.YY"]).current_dir(&d).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("DD-Mon-YYYY"), "the error lists the forms");
}
