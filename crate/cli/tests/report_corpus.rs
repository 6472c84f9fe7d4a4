//! The JSON report is the public contract (issue 37): a restructuring changes no figure. A fixed
//! corpus of files and settings, covering every metric family, every input format and each
//! missing-value policy, is audited by the CLI, and each output's SHA-256 is compared with the
//! one recorded in `tests/reports.sha256`. Reports are deterministic (no timing; the file's own
//! SHA-256 is a figure of the file; a comparison names its files as given, relative here), so
//! any difference is a changed figure.
//!
//! A deliberate change of a figure re-records the digests:
//! `PSEUDOLENS_BLESS=1 cargo test -p pseudolens --test report_corpus`. Every output is written to
//! `target/tmp/report-corpus/<case>.json`, so a failure can be diffed against the same run on the
//! commit before.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pseudolens_core::ContentHash;

const FIXTURES: &str = "../core/tests/fixtures";
const PAGE_FIXTURES: &str = "../../tests/e2e/fixtures";
/// The bundled hospital sample (`pseudolens sample`), written once per run.
const SAMPLE: &str = "@sample";
/// A generated table of 100,000 rows (`pseudolens generate`, 10.6 MB): over the size read in
/// parallel parts.
const GENERATED: &str = "@generated";

/// Each case: its name, then the CLI's arguments; a file is named relative to the fixtures
/// (`f:`), the page's fixtures (`e:`) or is the sample.
const CASES: &[(&str, &[&str])] = &[
    ("weights_sensitive", &["audit", "f:g1.csv", "--qi", "age,zip,sex", "--sensitive", "diag", "--weight", "w", "--json"]),
    (
        "attribute_lists",
        &[
            "audit",
            "f:g2.csv",
            "--qi",
            "zip,age",
            "--sensitive",
            "disease,salary",
            "--l-threshold",
            "3",
            "--t-threshold",
            "0.2",
            "--beta-threshold",
            "1",
            "--json",
        ],
    ),
    (
        "utility_by_id",
        &["audit", "f:g3_released.csv", "--original", "f:g3_original.csv", "--qi", "age,zip,sex", "--record-id", "rid", "--sensitive", "diag", "--json"],
    ),
    ("persons_scorr", &["audit", "f:g5.csv", "--qi", "age_band,sex", "--person-id", "pid", "--sensitive", "result", "--scorr-k-persons", "--json"]),
    ("wildcard", &["audit", "f:g6.csv", "--qi", "age_band,sex", "--missing", "wildcard", "--json"]),
    ("suda", &["audit", "f:suda_g1.csv", "--qi", "age,sex,zip,job", "--suda", "--json"]),
    ("household", &["audit", "f:suda_g1.csv", "--qi", "age,sex,zip,job", "--household", "hid", "--per-record-in-report", "--json"]),
    ("population", &["audit", "f:e3.csv", "--qi", "age,zip,sex", "--weight", "count", "--population", "1000", "--json"]),
    (
        "sample_advice_suda",
        &["audit", SAMPLE, "--qi", "age,sex,postcode,admission_month", "--sensitive", "diagnosis", "--advice", "--suda", "--region", "Germany", "--json"],
    ),
    (
        "sample_combined_drop",
        &["audit", SAMPLE, "--qi", "age,sex,postcode", "--sensitive", "diagnosis,ward", "--sa-mode", "combined", "--missing", "drop", "--json"],
    ),
    ("sample_shareable", &["audit", SAMPLE, "--qi", "age,sex,postcode", "--sensitive", "diagnosis", "--shareable"]),
    ("census_utility", &["audit", "e:census-ipso-01.csv", "--original", "e:census-ipso-original.csv", "--record-id", "record_id", "--qi", "FICA", "--json"]),
    ("parquet", &["audit", "e:formats.parquet", "--qi", "age,sex,zip", "--json"]),
    ("xlsx", &["audit", "e:formats.xlsx", "--qi", "age,sex,zip", "--json"]),
    ("titled_dates_advice", &["audit", "e:titled.csv", "--qi", "PLZ,Geburtsdatum,Geschlecht", "--sensitive", "Diagnose", "--advice", "--json"]),
    (
        "case_insensitive_wildcard",
        &["audit", "f:near-tie.csv", "--qi", "a,b,c", "--case-insensitive", "--missing", "wildcard", "--sensitive", "s", "--person-id", "p", "--json"],
    ),
    ("sample_retained", &["audit", SAMPLE, "--qi", "age,sex,postcode,admission_month", "--sensitive", "diagnosis", "--retain", "--suda", "--json"]),
    ("generated_parts", &["audit", GENERATED, "--qi", "age,sex,region,admission_date", "--sensitive", "diagnosis", "--threads", "4", "--json"]),
    ("generated_retained", &["audit", GENERATED, "--qi", "age,sex,region", "--sensitive", "ward", "--threads", "4", "--retain", "--advice", "--json"]),
    ("compare", &["compare", "f:g3_original.csv", "f:g3_released.csv", "f:g3_original.csv", "--qi", "age,zip,sex", "--json"]),
];

/// The CLI, run from this crate's folder: the fixtures are named relative to it, so a report
/// that names its files (a comparison's candidates) is the same in any clone.
fn cli() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pseudolens"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-corpus");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn arg(a: &str, dir: &Path) -> String {
    match a {
        SAMPLE => dir.join("sample.csv").display().to_string(),
        GENERATED => dir.join("generated.csv").display().to_string(),
        _ if a.starts_with("f:") => format!("{FIXTURES}/{}", &a[2..]),
        _ if a.starts_with("e:") => format!("{PAGE_FIXTURES}/{}", &a[2..]),
        _ => a.to_string(),
    }
}

fn digest(bytes: &[u8]) -> String {
    let mut h = ContentHash::default();
    h.update(bytes);
    h.hex()
}

#[test]
fn every_report_of_the_corpus_is_the_recorded_one() {
    let dir = out_dir();
    for (file, args) in [("sample.csv", &["sample"][..]), ("generated.csv", &["generate", "--rows", "100000", "--seed", "3"])] {
        let out = cli().args(args).output().unwrap();
        assert!(out.status.success());
        std::fs::write(dir.join(file), &out.stdout).unwrap();
    }

    let mut found = BTreeMap::new();
    for (name, args) in CASES {
        let out = cli().args(args.iter().map(|a| arg(a, &dir))).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.len() > 1000 && out.stdout.starts_with(b"{"), "{name}: a report is printed");
        std::fs::write(dir.join(format!("{name}.json")), &out.stdout).unwrap();
        found.insert(name.to_string(), digest(&out.stdout));
    }

    let recorded_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reports.sha256");
    let written: String = found.iter().map(|(name, d)| format!("{d}  {name}\n")).collect();
    if std::env::var_os("PSEUDOLENS_BLESS").is_some() {
        std::fs::write(&recorded_path, written).unwrap();
        return;
    }
    let recorded: BTreeMap<String, String> = std::fs::read_to_string(&recorded_path)
        .unwrap()
        .lines()
        .map(|l| {
            let (d, name) = l.split_once("  ").unwrap();
            (name.to_string(), d.to_string())
        })
        .collect();
    let changed: Vec<&String> = found.keys().filter(|k| recorded.get(*k) != found.get(*k)).collect();
    assert_eq!(recorded.len(), found.len(), "every case is recorded, none more");
    assert!(changed.is_empty(), "reports that changed (outputs in {}): {changed:?}", dir.display());
}

#[test]
fn reports_do_not_depend_on_threads() {
    // What makes a digest a figure of the input alone: the same report on one thread or all.
    let dir = out_dir();
    let file = arg("e:census-ipso-01.csv", &dir);
    let run = |threads: &str| cli().args(["audit", &file, "--qi", "FICA,FEDTAX", "--json", "--threads", threads]).output().unwrap().stdout;
    assert_eq!(digest(&run("1")), digest(&run("4")));
}
