//! The native front end as the CLI and the Python package use it: side tables must be CSV (the
//! core's error), a file detected as UTF-8 that is not is read again as Windows-1252 with a
//! warning, and a file large enough to read in parts on several threads gives the report of
//! the one-thread read.

use std::path::{Path, PathBuf};

use pseudolens_core::{AuditConfig, bench_table};
use pseudolens_native::{Failure, Files, SidePaths};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/e2e/fixtures");

/// A file of this test in the temporary directory.
fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pseudolens-native-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

fn config(qi: &[&str]) -> AuditConfig {
    AuditConfig { quasi_identifiers: qi.iter().map(|q| q.to_string()).collect(), ..AuditConfig::default() }
}

#[test]
fn a_side_table_that_is_not_csv_is_the_cores_error() {
    let parquet = Path::new(FIXTURES).join("formats.parquet");
    let paths = SidePaths { reference: Some(&parquet), ..SidePaths::default() };
    match Files::read(&config(&["age"]), paths, 1, None, &()) {
        Err(Failure::Audit(e)) => {
            assert_eq!(e.code, "side_table_not_csv");
            assert!(e.message.contains("the reference table is read as CSV only; this file is a Parquet file"), "{}", e.message);
        }
        _ => panic!("a Parquet reference table is refused"),
    }
}

#[test]
fn a_file_that_is_not_utf8_is_read_again_as_windows_1252() {
    // Past the sample the encoding is detected from (64 KiB) all ASCII, then Windows-1252 bytes.
    let mut bytes = b"city,age\n".to_vec();
    bytes.extend(b"Bern,30\n".repeat(200_000));
    bytes.extend(b"Z\xfcrich,30\nGen\xe8ve,40\nGen\xe8ve,40\n");
    let path = temp("latin.csv", &bytes);
    let files = Files::read(&config(&["city"]), SidePaths::default(), 1, None, &()).unwrap();
    let Ok(report) = files.stream(&path, &config(&["city"])) else { panic!("the file is read") };
    let Ok((table, warning)) = files.read_table(&path, &config(&["city"])) else { panic!("the file is read") };
    std::fs::remove_file(&path).unwrap();
    assert_eq!(report.input.encoding, "windows-1252");
    assert_eq!(report.warnings.iter().filter(|w| w.code == "encoding_fallback").count(), 1);
    assert_eq!(warning.map(|w| w.code), Some("encoding_fallback"));
    assert_eq!(table.facts.rows_total, 200_003);
}

#[test]
fn a_file_read_in_parts_gives_the_one_thread_report() {
    // 100,000 rows (10.6 MB): over the size read in parts.
    let path = temp("parts.csv", &bench_table(100_000, 1, 0).flatten().collect::<Vec<u8>>());
    let config = config(&["age", "sex", "region"]);
    let mut files = Files::read(&config, SidePaths::default(), 1, None, &()).unwrap();
    let report = |files: &Files| match files.stream(&path, &config) {
        Ok(r) => serde_json::to_string(&r).unwrap(),
        Err(_) => panic!("the file is read"),
    };
    let one = report(&files);
    files.threads = 4;
    let four = report(&files);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(one, four);
}
