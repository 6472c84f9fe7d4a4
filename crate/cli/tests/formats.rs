//! `pseudolens audit` of a Parquet file and of an Excel workbook (issue 14): told apart from
//! CSV by their first bytes, the same figures as the same table as CSV, the format named in
//! the report, and a clear error (no crash, no trace) for a corrupt file.

use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e/fixtures").join(name)
}

fn run(file: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens"))
        .arg("audit")
        .arg(file)
        .args(["--qi", "age,sex,zip", "--sensitive", "note", "--json"])
        .args(args)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn report(file: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(file, args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn parquet_and_xlsx_give_the_figures_of_the_csv() {
    let csv = report(&fixture("formats.csv"), &[]);
    assert_eq!(csv["input"]["format"], "csv");
    for (name, format, args) in
        [("formats.parquet", "parquet", &[][..]), ("formats.xlsx", "xlsx", &[][..]), ("formats.xlsx", "xlsx", &["--sheet", "Release", "--retain"][..])]
    {
        let r = report(&fixture(name), args);
        assert_eq!(r["input"]["format"], format, "{name}");
        assert_eq!(r["metrics"], csv["metrics"], "{name} {args:?}");
        assert_eq!(r["columns"], csv["columns"], "{name}");
        assert_eq!(r["input"]["rows_total"], 50);
        assert_eq!(r["input"]["records"], csv["input"]["records"]);
    }
    let xlsx = report(&fixture("formats.xlsx"), &[]);
    assert_eq!(xlsx["input"]["sheet"], "Release");
}

#[test]
fn parquet_row_groups_read_on_several_threads_give_the_same_report() {
    // formats.parquet holds 4 row groups of up to 16 rows.
    let one = report(&fixture("formats.parquet"), &["--threads", "1"]);
    for threads in ["2", "3", "4", "8"] {
        assert_eq!(report(&fixture("formats.parquet"), &["--threads", threads]), one, "{threads} threads");
        let retained = report(&fixture("formats.parquet"), &["--threads", threads, "--retain"]);
        assert_eq!(retained["metrics"], one["metrics"], "{threads} threads, retained");
        assert_eq!(retained["input"], one["input"], "{threads} threads, retained");
    }
    assert_eq!(one["input"]["records"], 51);
    assert_eq!(one["input"]["header_records"], 1);
}

#[test]
fn the_readable_output_names_the_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).args(["profile"]).arg(fixture("formats.xlsx")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("50 rows, 6 columns, ") && text.lines().next().unwrap().ends_with("xlsx, sheet \"Release\""), "{text}");
}

#[test]
fn a_corrupt_parquet_file_and_an_unknown_sheet_are_clear_errors() {
    let dir = std::env::temp_dir().join(format!("pseudolens-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(fixture("formats.parquet")).unwrap();
    let cut = dir.join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    let (code, _, err) = run(&cut, &[]);
    assert_eq!(code, 1);
    assert!(err.starts_with("pseudolens: error [unreadable_parquet]: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let (code, _, err) = run(&fixture("formats.xlsx"), &["--sheet", "Nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("[unknown_sheet]") && err.contains("Release"), "{err}");
    // A file on which the Parquet reader panics (found by the fuzz target parquet_file).
    let (code, _, err) = run(&fixture("panics.parquet"), &[]);
    assert_eq!(code, 1);
    assert!(err.starts_with("pseudolens: error [unreadable_parquet]: the Parquet reader stopped on this file"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let named = dir.join("not.parquet");
    std::fs::write(&named, "a,b\n1,2\n").unwrap();
    let (code, _, err) = run(&named, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("PAR1"), "{err}");
}
