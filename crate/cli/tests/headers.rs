//! The header row (issue 36): an export's title rows above the header are skipped, counted and
//! named in a warning, in CSV and in a workbook; `--header-row N` and the settings key
//! `header_row` name the header's row; the roles proposed from German column names.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e/fixtures").join(name)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn report(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn warning<'a>(r: &'a Value, code: &str) -> Option<&'a str> {
    r["warnings"].as_array().unwrap().iter().find(|w| w["code"] == code).map(|w| w["message"].as_str().unwrap())
}

#[test]
fn a_title_row_above_the_header_is_skipped_in_csv_and_xlsx() {
    for (name, at) in [("titled.csv", "line 3"), ("titled.xlsx", "row 3")] {
        let path = fixture(name);
        let path = path.to_str().unwrap();
        for threads in ["1", "2"] {
            let r = report(&["audit", path, "--qi", "Geburtsdatum,Geschlecht,PLZ", "--threads", threads, "--json"]);
            let i = &r["input"];
            assert_eq!(
                (i["records"].as_u64(), i["header_records"].as_u64(), i["blank_records"].as_u64(), i["rows_total"].as_u64()),
                (Some(33), Some(2), Some(1), Some(30)),
                "{name}"
            );
            let w = warning(&r, "header_row").unwrap_or_else(|| panic!("{name}: no header_row warning"));
            assert!(w.contains(at), "{name}: {w}");
            assert!(warning(&r, "empty_column_name").is_none(), "{name}");
        }
        // The roles proposed from the German names.
        let p = report(&["profile", path, "--json"]);
        let roles: Vec<(&str, &str)> =
            p["columns"].as_array().unwrap().iter().map(|c| (c["name"].as_str().unwrap(), c["proposed_role"].as_str().unwrap())).collect();
        assert_eq!(
            roles,
            [
                ("Nachname", "direct_identifier"),
                ("Geburtsdatum", "quasi_identifier"),
                ("Geschlecht", "quasi_identifier"),
                ("PLZ", "quasi_identifier"),
                ("Diagnose", "sensitive")
            ],
            "{name}"
        );
    }
}

#[test]
fn the_header_row_is_named_by_a_flag_or_the_settings_file() {
    let csv = fixture("formats.csv");
    let csv = csv.to_str().unwrap();
    // Row 2 named: its cells are the column names, row 1 a title.
    let flag = report(&["audit", csv, "--qi", "20,F", "--header-row", "2", "--json"]);
    assert_eq!((flag["input"]["header_records"].as_u64(), flag["input"]["rows_total"].as_u64()), (Some(2), Some(49)));
    assert!(warning(&flag, "header_row").unwrap().contains("line 2"));
    let dir = std::env::temp_dir().join(format!("pseudolens-headers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("s.json");
    std::fs::write(&settings, r#"{"quasi_identifiers": ["20", "F"], "header_row": 2}"#).unwrap();
    let file = report(&["audit", csv, "--settings", settings.to_str().unwrap(), "--json"]);
    assert_eq!(file["metrics"], flag["metrics"]);
    assert_eq!(file["input"], flag["input"]);
    // In a workbook too; row 1 named reads the title as the header.
    let xlsx = fixture("titled.xlsx");
    // Row 4, the first data row, named: its cells are the names.
    let r = report(&["audit", xlsx.to_str().unwrap(), "--qi", "w,80331", "--header-row", "4", "--json"]);
    assert_eq!((r["input"]["header_records"].as_u64(), r["input"]["blank_records"].as_u64(), r["input"]["rows_total"].as_u64()), (Some(3), Some(1), Some(29)));
    let (code, _, err) = run(&["audit", xlsx.to_str().unwrap(), "--qi", "Geburtsdatum", "--header-row", "1", "--json"]);
    assert_ne!(code, 0);
    assert!(err.contains("Geburtsdatum"), "{err}");
    let (code, _, err) = run(&["audit", csv, "--qi", "age", "--header-row", "99"]);
    assert_ne!(code, 0);
    assert!(err.contains("no row at line 99"), "{err}");
}
