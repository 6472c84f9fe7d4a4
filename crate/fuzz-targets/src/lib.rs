//! The fuzz targets of pseudolens, one function per target: each takes the fuzz input and
//! panics when a property is violated. `fuzz/fuzz_targets/<name>.rs` hands them to libFuzzer
//! (`scripts/fuzz.sh`); `tests/replay.rs` replays the kept corpus and the regressions through
//! them on stable Rust, as part of `cargo test --workspace`.
//!
//! Inputs longer than [`MAX_INPUT`] are cut to it. No target returns before the code under
//! test has run: a short input reads as if padded with zero bytes.
//!
//! | target | input |
//! |---|---|
//! | [`config_json`] | JSON of an `AuditConfig`; other bytes build one from a fixed set of keys |
//! | [`cell_forms`] | text (lossy UTF-8): the whole, and each line |
//! | [`ingest_split`] | flags, shape (cut count, padding past 64 KiB), cut positions, then the CSV |
//! | [`record_count`] | flags, shape, then the CSV or a program writing it ([`shape::csv`]) |
//! | [`table_bytes`] | mode, then the bytes of a stored table, or a program for CSV whose table is written and damaged |
//! | [`formats::parquet_file`] | mode, then a Parquet file, or a program for a table written as Parquet, compared with its CSV and damaged |
//! | [`formats::xlsx_file`] | mode, then an .xlsx file, or a program for a table written as a workbook, compared with its CSV and damaged |
//!
//! # Speed
//!
//! Issue 10 asks for 10^7 executions per target, so each target runs 10^7 in at most about
//! half an hour on one core (`bash scripts/fuzz.sh all-runs 10000000`). What made them slow,
//! measured with `perf` on the libFuzzer binaries:
//!
//! - the audit's report: the identity suite and its serialization to JSON are most of a small
//!   audit (a profile-only audit of a few rows takes some 20 us instrumented, one with a QI
//!   0.5 ms, and `serde_json::to_value` of the report about as much again);
//! - CSV past the 64 KiB sniff window: the dialect detection tokenizes that window once per
//!   candidate delimiter, so a 64 KiB input costs five tokenizer passes per audit (1.5 ms for
//!   one long header name, 10 ms for 64 KiB of short rows);
//! - the comparison hooks of `-sanitizer-coverage-trace-compares` (cargo fuzz's default):
//!   60-80 % of the time of the tokenizer's and the cell parsers' byte loops.
//!   `scripts/fuzz.sh` builds without them (`FUZZ_TRACE_COMPARES=1` puts them back); the
//!   dictionary and the generators of [`shape`] supply the constants they would find.
//!
//! So each target keeps its costly paths for a fixed minority of the executions and makes
//! the common one cheap; every execution still runs the code under test, and the properties
//! are unchanged. The minority is drawn from a hash of the whole input ([`draw`]), not left
//! to a flag bit: inputs on a costly path find new hit counts more often, fill the corpus,
//! and their mutants keep the flag, so a flag alone let them take most of the time.
//! `PSEUDOLENS_FUZZ_STATS=1` prints the shares every 2^16 executions (`scripts/fuzz.sh`
//! shows the last line). Per target:
//!
//! - [`config_json`]: every input is parsed, round-tripped and checked, and a valid
//!   configuration reads the small table into an audit (roles, summaries: `finish_part`);
//!   one input in [`FULL_EVERY`] also builds and serializes the report and audits the table
//!   as its own original and reference (the utility and external-risk metrics).
//! - [`cell_forms`]: as before (the parsers are cheap without the comparison hooks).
//! - [`ingest_split`]: the reports are compared with `==` (their JSON only to confirm a
//!   difference); a long shape makes the CSV cross the sniff window for one input in
//!   [`LONG_EVERY`], flag bit 5 runs the identity suite for one in [`IDENTITY_EVERY`]; the
//!   others compare profile-only audits of the CSV as given.
//! - [`record_count`]: the count is the reader's, so a table reader reads it (the input
//!   facts, no summaries, profiles or report); generated CSV stops at [`SHORT_CSV`] bytes, and
//!   one input in [`LONG_EVERY`] with a long shape writes CSV past the sniff window.
//!
//! The replay test runs the regressions on every path ([`run_full`]), as does `--example
//! replay --full`.

pub mod formats;
pub mod rfc4180;
pub mod shape;

use pseudolens_core::MissingPolicy;
use pseudolens_core::ingest::cell::{Cell, Form, Normaliser, civil_from_days, parse_date, parse_date_range, parse_num, parse_numeric_range};
use pseudolens_core::ingest::reader::Ragged;
use pseudolens_core::{Audit, AuditConfig, Error, ErrorKind, Report, TableReader};
use serde_json::Value;

use shape::Bytes;

/// The longest input looked at (longer ones are cut): twice the 64 KiB the ingest holds back
/// to detect the encoding and the delimiter, so inputs cross that boundary.
pub const MAX_INPUT: usize = 128 * 1024;

/// The names of the targets, as `fuzz/fuzz_targets/` and the corpus folders spell them.
pub const TARGETS: [&str; 7] = ["config_json", "cell_forms", "ingest_split", "record_count", "table_bytes", "parquet_file", "xlsx_file"];

/// Runs target `name` on `data` as the fuzzer does.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "config_json" => config_json(data),
        "cell_forms" => cell_forms(data),
        "ingest_split" => ingest_split(data),
        "record_count" => record_count(data),
        "table_bytes" => table_bytes(data),
        "parquet_file" => formats::parquet_file(data),
        "xlsx_file" => formats::xlsx_file(data),
        _ => panic!("no fuzz target {name}"),
    }
}

/// Runs target `name` on `data` through every path, also the ones the fuzzer takes for a
/// fraction of the inputs only (for the regressions: a saved crash replays on the path it
/// crashed on whatever that fraction becomes).
pub fn run_full(name: &str, data: &[u8]) {
    match name {
        "config_json" => config_json_with(data, true),
        "ingest_split" => ingest_split_with(data, true),
        "record_count" => record_count_with(data, true),
        _ => run(name, data),
    }
}

/// Counts of the costly paths, printed with `PSEUDOLENS_FUZZ_STATS=1` (see the crate docs).
mod stats {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    static ON: OnceLock<bool> = OnceLock::new();
    static COUNTS: [AtomicU64; 9] = [const { AtomicU64::new(0) }; 9];

    /// Counts one execution of `target`; bit `i` of `paths` set means it took `names[i]`.
    pub fn note(target: &str, names: &[&str], paths: u32) {
        if !*ON.get_or_init(|| std::env::var_os("PSEUDOLENS_FUZZ_STATS").is_some()) {
            return;
        }
        let total = COUNTS[0].fetch_add(1, Relaxed) + 1;
        for (i, count) in COUNTS[1..=names.len()].iter().enumerate() {
            if paths & (1 << i) != 0 {
                count.fetch_add(1, Relaxed);
            }
        }
        if total.is_multiple_of(1 << 16) {
            let shares: Vec<String> =
                names.iter().zip(&COUNTS[1..]).map(|(name, c)| format!("{name} {:.2} %", 100.0 * c.load(Relaxed) as f64 / total as f64)).collect();
            eprintln!("pseudolens-stats {target}: {total} executions; {}", shares.join(", "));
        }
    }
}

fn cap(data: &[u8]) -> &[u8] {
    &data[..data.len().min(MAX_INPUT)]
}

/// A hash of the whole input (FNV-1a) that picks the costly paths a target takes for a
/// fixed share of the inputs: a mutation anywhere re-draws it, so that share holds whatever
/// the corpus holds and however the fuzzer weighs it. (A flag bit alone does not: the
/// inputs of a costly path find new hit counts more often, fill the corpus, and their
/// mutants keep the flag.)
pub fn draw(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// An error a person can cause is allowed; an internal one is a bug.
#[track_caller]
fn assert_clean(e: &Error) {
    assert!(matches!(e.kind, ErrorKind::Input | ErrorKind::Encoding | ErrorKind::Config), "internal error: {e:?}");
}

/// Pushes `pieces` into a fresh audit and finishes it.
fn audit_pieces<'a>(config: &AuditConfig, pieces: impl IntoIterator<Item = &'a [u8]>) -> Result<Report, Error> {
    let mut audit = Audit::new(config.clone())?;
    for piece in pieces {
        audit.push(piece)?;
    }
    audit.finish()
}

// ---------------------------------------------------------------------------------------------
// config_json

/// Keys of `AuditConfig` (flattened ones included) and JSON values that fit each.
const CONFIG_KEYS: [(&str, &[&str]); 52] = [
    ("quasi_identifiers", NAME_LISTS),
    ("sensitive", NAME_LISTS),
    ("missing_policy", &["\"ordinary\"", "\"wildcard\"", "\"drop\""]),
    ("wildcard_alpha", NUMBERS),
    ("exclude_suppressed_rows", &["true", "false"]),
    ("threshold", NUMBERS),
    ("left_out_share", NUMBERS),
    ("missing_tokens", &["[]", "[\"?\"]", "[\"\"]", "[\"*\",\"x\"]", "[\"NA\",\"1\"]"]),
    ("delimiter", &["null", "\",\"", "\";\"", "\"\\t\"", "\"\\\\t\"", "\"|\"", "\"\"", "\"\\\"\"", "\"\\n\"", "\"é\""]),
    ("encoding", &["null", "\"utf-8\"", "\"windows-1252\""]),
    ("ragged", &["\"error\"", "\"pad_or_truncate\""]),
    ("header_row", OPT_UINTS),
    ("person_id", NAMES),
    ("weight", NAMES),
    ("population_size", OPT_UINTS),
    ("sampling_fraction", OPT_NUMBERS),
    ("population_region", &["null", "\"USA\"", "\"Germany\"", "\"Atlantis\"", "\"\""]),
    ("records_at_risk_threshold", NUMBERS),
    ("success_rate_threshold", NUMBERS),
    ("recursive_l", UINTS),
    ("recursive_c", NUMBERS),
    ("l_threshold", OPT_NUMBERS),
    ("t_threshold", OPT_NUMBERS),
    ("beta_threshold", OPT_NUMBERS),
    ("scorr_k_min", NUMBERS),
    ("scorr_t_max", NUMBERS),
    ("scorr_low_max", NUMBERS),
    ("scorr_medium_max", NUMBERS),
    ("scorr_k_basis", &["\"records\"", "\"persons\""]),
    ("risk_combination", &["\"max\"", "\"weighted\"", "\"sum\""]),
    ("risk_weight_internal", NUMBERS),
    ("rut_alpha", NUMBERS),
    ("record_id", NAMES),
    ("utility_columns", NAME_LISTS),
    ("ignored", NAME_LISTS),
    ("reference_columns", &["{}", "{\"a\":\"b\"}", "{\"a\":\"zz\"}", "{\"b\":\"a\",\"a\":\"b\"}"]),
    (
        "attributes",
        &[
            "{}",
            "{\"a\":{\"kind\":\"numeric\",\"domain\":[0,100]}}",
            "{\"b\":{\"kind\":\"date\",\"resolution\":0}}",
            "{\"c\":{\"kind\":\"categorical\",\"hierarchy\":[[\"x\",\"X\"],[\"y\"],[]]}}",
            "{\"a\":{\"rounding_unit\":0,\"weight\":0}}",
            "{\"a\":{\"domain\":[5,-5],\"rounding_unit\":-1,\"weight\":-1}}",
            "{\"zz\":{\"kind\":\"numeric\"},\"a\":{\"resolution\":1e-300}}",
            "{\"b\":{\"date_form\":\"DD.MM.YYYY\"}}",
            "{\"b\":{\"date_form\":\"no such form\"}}",
        ],
    ),
    ("lmax_mode", &["\"baseline\"", "\"rule\"", "\"fixed\""]),
    ("lmax_value", OPT_NUMBERS),
    ("rounding_mode", &["\"nearest\"", "\"floor\"", "\"ceiling\""]),
    ("proximity_norm", &["\"manhattan\"", "\"euclidean\""]),
    ("similarity_bins", UINTS),
    ("component_aggregation", &["\"mean\"", "\"max\""]),
    ("total_aggregation", &["\"mean\"", "\"max\""]),
    ("similarity_weight", NUMBERS),
    ("ctbil_variables", NAME_LISTS),
    ("ctbil_max_dimension", UINTS),
    ("ctbil_blank", &["\"category\"", "\"exclude\""]),
    (
        "queries",
        &[
            "[]",
            "[{\"group_by\":[\"a\"],\"aggregate\":\"count\"}]",
            "[{\"group_by\":[\"a\",\"b\"],\"aggregate\":\"mean\",\"column\":\"c\"}]",
            "[{\"group_by\":[],\"aggregate\":\"share\",\"column\":\"b\",\"value\":\"x\"}]",
            "[{\"group_by\":[\"zz\"],\"aggregate\":\"mean\",\"column\":\"zz\"}]",
        ],
    ),
    ("permutation_columns", NAME_LISTS),
    ("seed", UINTS),
    // Not a key: `deny_unknown_fields` must refuse it.
    ("no_such_key", &["1", "null"]),
];
const NAMES: &[&str] = &["null", "\"a\"", "\"b\"", "\"c\"", "\"zz\"", "\"\"", "\" a \"", "\"x,\\\"y\\n\""];
const NAME_LISTS: &[&str] = &["[]", "[\"a\"]", "[\"a\",\"b\"]", "[\"c\",\"a\"]", "[\"a\",\"a\"]", "[\"zz\"]", "[\"a\",\"b\",\"c\",\"d\"]", "[\"\"]"];
const OPT_NUMBERS: &[&str] = &["null", "0", "1", "0.5", "-1", "2", "1e308", "5e-324"];
const NUMBERS: &[&str] = &["0", "1", "0.5", "-1", "2", "1e308", "5e-324", "0.33", "100", "-0.0", "0.9999999999999999", "1.0000000000000002"];
const OPT_UINTS: &[&str] = &["null", "0", "1", "18446744073709551615"];
const UINTS: &[&str] = &["0", "1", "2", "3", "100", "18446744073709551615", "4294967296"];

/// A JSON object built from `data`: each pair of bytes picks a key and one of its values
/// (what [`config_json`] parses when `data` is not a configuration).
pub fn config_from_bytes(data: &[u8]) -> String {
    let mut seen = Vec::new();
    let mut fields = Vec::new();
    for pair in data.chunks(2) {
        let (key, values) = CONFIG_KEYS[usize::from(pair[0]) % CONFIG_KEYS.len()];
        let value = values[usize::from(pair.get(1).copied().unwrap_or(0)) % values.len()];
        if !seen.contains(&key) {
            seen.push(key);
            fields.push(format!("\"{key}\":{value}"));
        }
    }
    format!("{{{}}}", fields.join(","))
}

/// Whether two JSON values are equal, numbers up to a few units in the last place (the
/// default `serde_json` float parser may be one off on a round trip).
fn json_close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) if x != y => (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs()),
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_close(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_close(v, w))),
        _ => a == b,
    }
}

/// A small table whose header names every column the configuration mentions, so its roles
/// resolve, in the configuration's delimiter.
fn table_for(config: &AuditConfig) -> Vec<u8> {
    let mut names: Vec<&str> = vec!["a", "b", "c"];
    let lists = [
        &config.quasi_identifiers,
        &config.sensitive,
        &config.utility_columns,
        &config.ignored,
        &config.utility.ctbil_variables,
        &config.utility.permutation_columns,
    ];
    let singles = [&config.person_id, &config.weight, &config.record_id];
    let mentioned = lists
        .into_iter()
        .flatten()
        .map(String::as_str)
        .chain(singles.into_iter().flatten().map(String::as_str))
        .chain(config.attributes.keys().map(String::as_str))
        .chain(config.reference_columns.keys().map(String::as_str))
        .chain(config.utility.queries.iter().flat_map(|q| q.group_by.iter().map(String::as_str)));
    for name in mentioned {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let delimiter = match config.delimiter.as_deref() {
        Some("\\t") => b'\t',
        Some(d) if d.len() == 1 => d.as_bytes()[0],
        _ => b',',
    };
    let quote = |text: &str| {
        if text.bytes().any(|b| matches!(b, b'"' | b'\r' | b'\n') || b == delimiter) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
    };
    const VALUES: [&str; 10] = ["1", "2", "30-39", "NA", "*", "2024-02-29", "x", "12**", "0.5", ""];
    let mut out = Vec::new();
    let mut line = |cells: Vec<String>| {
        out.extend_from_slice(cells.join(&(delimiter as char).to_string()).as_bytes());
        out.extend_from_slice(b"\r\n");
    };
    line(names.iter().map(|n| quote(n)).collect());
    for r in 0..6 {
        line(
            names
                .iter()
                .enumerate()
                .map(|(j, &name)| {
                    if config.weight.as_deref() == Some(name) {
                        format!("{}", 1 + r % 2)
                    } else if config.person_id.as_deref() == Some(name) {
                        format!("p{}", r % 4)
                    } else if config.record_id.as_deref() == Some(name) {
                        format!("r{r}")
                    } else {
                        quote(VALUES[(r + 2 * j) % VALUES.len()])
                    }
                })
                .collect(),
        );
    }
    out
}

/// One input in this many takes the full path of [`config_json`].
pub const FULL_EVERY: u64 = 16;
/// Audits the table of [`table_for`] with `config`: reads it (the roles resolve, the
/// summaries fill); when `full`, also builds and serializes the report, and audits the table
/// against itself as original and reference (the utility and external-risk metrics).
///
/// Speed: the report is most of an execution, and varies most with the configuration (the
/// identity suite with its population estimators, the attribute metrics, the verdicts),
/// serializing it to JSON costs about as much again, and the full audit adds the original's
/// capture, the reference and the utility metrics. So the common path reads the table into
/// the audit's summaries (`finish_part`); the report and the rest are the full path's.
fn audit_with(config: &AuditConfig, full: bool) {
    let table = table_for(config);
    if !full {
        let read = || -> Result<(), Error> {
            let mut audit = Audit::new(config.clone())?;
            audit.push(&table)?;
            audit.finish_part().map(drop)
        };
        if let Err(e) = read() {
            assert_clean(&e);
        }
        return;
    }
    match audit_pieces(config, [table.as_slice()]) {
        Ok(report) => {
            serde_json::to_value(&report).expect("a report serializes");
        }
        Err(e) => assert_clean(&e),
    }
    let full = || -> Result<Report, Error> {
        let mut original = pseudolens_core::Original::new(config, None);
        original.push(&table)?;
        let original = original.finish()?;
        let mut reference = pseudolens_core::reference(config, None);
        reference.push(&table)?;
        let reference = reference.finish()?;
        let mut audit = Audit::new(config.clone())?;
        audit.set_original(original);
        audit.set_population(reference);
        audit.push(&table)?;
        audit.finish()
    };
    match full() {
        Ok(report) => {
            serde_json::to_value(&report).expect("a report serializes");
        }
        Err(e) => assert_clean(&e),
    }
}

/// Target `config_json`: the audit configuration as JSON.
///
/// The input is parsed as an `AuditConfig`; when it is not one, its bytes build a JSON object
/// from the configuration's keys (pairs of bytes: key, value), which is parsed instead. A
/// configuration that parses must check cleanly (`csv_options`, `Audit::new`: Ok or a
/// `Config` error), survive a JSON round trip, and audit a small table naming its columns
/// without panicking or an internal error; one input in [`FULL_EVERY`] also serializes the
/// report and audits the table as its own original and reference.
pub fn config_json(data: &[u8]) {
    config_json_with(data, false);
}

/// [`config_json`], on the full path when `full` or when the input's hash says so.
fn config_json_with(data: &[u8], full: bool) {
    let data = cap(data);
    let full = full || draw(data).is_multiple_of(FULL_EVERY);
    let parsed = match serde_json::from_slice::<AuditConfig>(data) {
        Ok(config) => Ok(config),
        Err(_) => {
            let built = config_from_bytes(data);
            serde_json::from_str::<AuditConfig>(&built).map_err(|e| (built, e))
        }
    };
    let config = match parsed {
        Ok(config) => config,
        Err((built, e)) => {
            // The built object can only fail on the stray key or on a value serde refuses by
            // name (a date form outside spec Sec 4.4's seven).
            let refused = built.contains("\"no_such_key\"") || built.contains("\"no such form\"");
            assert!(refused, "a configuration built from valid keys does not parse: {e}\n{built}");
            stats::note("config_json", &CONFIG_PATHS, u32::from(full));
            return;
        }
    };
    // Round trip.
    let text = serde_json::to_string(&config).expect("a configuration serializes");
    let again: AuditConfig = serde_json::from_str(&text).unwrap_or_else(|e| panic!("a serialized configuration does not parse: {e}\n{text}"));
    if again != config {
        let (a, b) = (serde_json::to_value(&config).unwrap(), serde_json::to_value(&again).unwrap());
        assert!(json_close(&a, &b), "the round trip changed the configuration:\n{a}\n{b}");
    }
    // Checks.
    let options = config.csv_options();
    if let Err(e) = &options {
        assert_eq!(e.kind, ErrorKind::Config, "{e:?}");
    }
    let audited = match Audit::new(config.clone()) {
        Ok(_) => {
            assert!(options.is_ok(), "Audit::new accepts what csv_options refuses");
            audit_with(&config, full);
            true
        }
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Config, "{e:?}");
            assert!(options.is_err(), "Audit::new refuses what csv_options accepts: {e:?}");
            false
        }
    };
    stats::note("config_json", &CONFIG_PATHS, u32::from(full) | u32::from(audited) << 1);
}

/// The paths [`stats`] counts for [`config_json`].
const CONFIG_PATHS: [&str; 2] = ["full", "audited"];

// ---------------------------------------------------------------------------------------------
// cell_forms

#[track_caller]
fn check_interval(lo: f64, hi: f64, what: &str, t: &str) {
    assert!(lo <= hi, "{what} of {t:?}: lo {lo} > hi {hi} (or NaN)");
}

/// Every parser on one string, with its properties.
fn check_cell(t: &str, norm: &Normaliser) {
    if let Some(v) = parse_num(t) {
        assert!(v.is_finite(), "parse_num({t:?}) = {v}");
    }
    if let Some(d) = parse_date(t) {
        assert_eq!(civil_from_days(d), t, "parse_date({t:?}) = {d} does not print back");
    }
    if let Some((lo, hi)) = parse_date_range(t) {
        assert!(lo <= hi, "parse_date_range({t:?}) = ({lo}, {hi})");
    }
    if let Some(i) = parse_numeric_range(t, norm) {
        check_interval(i.lo, i.hi, "parse_numeric_range", t);
        // Only a one-sided bound has an infinite end.
        let one_sided = i.lo == f64::NEG_INFINITY && i.hi.is_finite() || i.hi == f64::INFINITY && i.lo.is_finite();
        assert!(one_sided || (i.lo.is_finite() && i.hi.is_finite()), "parse_numeric_range({t:?}) = {i:?} is not finite");
    }
    let cell = norm.normalise(t);
    let Cell::Text(x) = &cell else { return };
    let x: &str = x;
    assert!(!x.is_empty() && x == x.trim_matches(char::is_whitespace), "normalise({t:?}) = {x:?} is not trimmed");
    assert_eq!(norm.normalise(x), cell, "normalise is not idempotent on {t:?}");
    match Form::of(x, norm) {
        Form::Number(v) => assert_eq!(Some(v), parse_num(x), "Form::of({x:?})"),
        Form::NumericRange(i) => check_interval(i.lo, i.hi, "Form::NumericRange", x),
        Form::DigitMask(lo, hi) => {
            check_interval(lo, hi, "Form::DigitMask", x);
            assert!(lo.is_finite() && hi.is_finite(), "Form::of({x:?}) = DigitMask({lo}, {hi}) is not finite");
        }
        Form::Date(d) => assert_eq!(civil_from_days(d), x, "Form::of({x:?}) = Date({d})"),
        Form::DateRange(lo, hi) => assert!(lo <= hi, "Form::of({x:?}) = DateRange({lo}, {hi})"),
        Form::Mask => assert!(x.chars().any(|c| norm.is_mask(c)), "Form::of({x:?}) = Mask without a mask character"),
        Form::Text => {}
    }
}

/// Target `cell_forms`: the cell normaliser and every form parser (numbers, numeric ranges,
/// digit masks, dates, date ranges) on the input as text, whole and line by line, with the
/// default normaliser and one whose missing token and mask characters come from the input.
///
/// Speed: some 30 us an execution without the comparison hooks (see the crate docs), four
/// times that with them; the work grows with the input (the range parser's separator search
/// on long text more than linearly).
pub fn cell_forms(data: &[u8]) {
    let text = String::from_utf8_lossy(cap(data));
    let first = text.lines().next().unwrap_or("");
    let mut masks = vec!['*', '#'];
    masks.extend(text.chars().next().filter(|c| !c.is_whitespace()));
    let norms = [Normaliser::default(), Normaliser::new(vec![first.to_string(), "?".into(), "-".into()], masks)];
    for norm in &norms {
        check_cell(&text, norm);
        for piece in text.split(['\n', ',']).take(4096) {
            check_cell(piece, norm);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ingest_split

/// What one audit gave, comparably.
#[derive(Debug)]
enum Outcome {
    Report(Box<Report>),
    Error { kind: ErrorKind, code: &'static str, line: Option<u64>, column: Option<String> },
}

impl Outcome {
    fn json(&self) -> Value {
        match self {
            Outcome::Report(r) => serde_json::to_value(r).expect("a report serializes"),
            Outcome::Error { kind, code, line, column } => {
                serde_json::json!({ "error": format!("{kind:?}"), "code": code, "line": line, "column": column })
            }
        }
    }
}

/// Whether two outcomes are the same: `==` on the reports (cheap), and when that fails their
/// JSON, where a NaN (not equal to itself) is `null` on both sides.
fn same(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Report(x), Outcome::Report(y)) => x == y || a.json() == b.json(),
        (Outcome::Error { kind, code, line, column }, Outcome::Error { kind: k, code: c, line: l, column: col }) => {
            (kind, code, line, column) == (k, c, l, col)
        }
        _ => false,
    }
}

/// Where two outcomes first differ (a JSON pointer), with both values cut to a readable size.
fn difference(a: &Outcome, b: &Outcome) -> String {
    fn first(path: String, a: &Value, b: &Value) -> Option<(String, String, String)> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() && x.keys().eq(y.keys()) => {
                x.iter().find_map(|(k, v)| first(format!("{path}/{k}"), v, &y[k]))
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x.iter().zip(y).enumerate().find_map(|(i, (v, w))| first(format!("{path}/{i}"), v, w)),
            _ if a == b => None,
            _ => Some((path, a.to_string(), b.to_string())),
        }
    }
    let cut = |s: String| if s.len() > 300 { format!("{}... ({} bytes)", &s[..s.floor_char_boundary(300)], s.len()) } else { s };
    if let (Outcome::Error { .. }, _) | (_, Outcome::Error { .. }) = (a, b) {
        // Both whole (an error is short but for its column name).
        let show = |o: &Outcome| match o {
            Outcome::Error { kind, code, line, column } => {
                let column = match column {
                    Some(c) if c.len() > 40 => format!("{:?}... ({} bytes)", &c[..c.floor_char_boundary(40)], c.len()),
                    c => format!("{c:?}"),
                };
                format!("{kind:?} {code} at line {line:?}, column {column}")
            }
            Outcome::Report(_) => "a report".into(),
        };
        return format!("{} vs {}", show(a), show(b));
    }
    match first(String::new(), &a.json(), &b.json()) {
        Some((path, v, w)) => format!("at {path}: {} vs {}", cut(v), cut(w)),
        None => "no difference".into(),
    }
}

fn outcome(r: Result<Report, Error>) -> Outcome {
    match r {
        Ok(report) => Outcome::Report(Box::new(report)),
        Err(e) => {
            assert_clean(&e);
            Outcome::Error { kind: e.kind, code: e.code, line: e.line, column: e.column }
        }
    }
}

/// The bytes the ingest holds back to detect the encoding and the delimiter.
const SNIFF: usize = pseudolens_core::ingest::dialect::SAMPLE_BYTES;

/// One input in this many with a long shape (high nibble `E` or `F`) is made long.
pub const LONG_EVERY: u64 = 32;

/// One input in this many with flag bit 5 runs the identity suite.
pub const IDENTITY_EVERY: u64 = 16;

/// Target `ingest_split`: the same bytes pushed whole and cut in pieces give the same result.
///
/// Input: a flag byte (bit 0: ragged `pad_or_truncate`; bit 1: explicit delimiter, bits 2-3
/// which; bit 4: missing policy `wildcard`; bit 5: the first header column as the QI, so the
/// identity suite runs, for one input in [`IDENTITY_EVERY`]; bit 6: also pushed one byte at a
/// time when at most 4 KiB; bit 7: one more cut, near the 64 KiB sniff boundary), a shape
/// byte (low bits: 0-4 cuts as `b % 5`; high nibble, for one input in [`LONG_EVERY`]: `F`
/// puts 64 KiB of `x` at the end of the first line, `E` repeats the CSV past 64 KiB, so the
/// rest crosses the 64 KiB the ingest holds back), two bytes per cut (its position as a
/// fraction of the length), with bit 7 one byte placing the extra cut (at `64 KiB - 128 + b`
/// in a CSV longer than 64 KiB, else at the fraction `b/256`), then the CSV. The header is
/// read by a profile-only audit of the whole; when that fails, no QI.
///
/// Speed (instrumented, one core): a profile-only audit of a small CSV takes some 20 us, the
/// identity suite's report 0.5 ms, and CSV past 64 KiB 1.5 ms (a 64 KiB header name) to
/// 10 ms (64 KiB of rows: the dialect detection tokenizes the sniff window once per
/// candidate delimiter). So the reports are compared with `==`, their JSON only to confirm a
/// difference (a NaN is not equal to itself), without serializing them (`config_json`'s full
/// path checks that), and the costly paths are drawn ([`draw`]) for a fixed share of the
/// inputs; the others compare profile-only audits of the CSV as given.
pub fn ingest_split(data: &[u8]) {
    ingest_split_with(data, false);
}

/// [`ingest_split`]; `all`: the long shapes and flag bit 5 always take their path.
fn ingest_split_with(data: &[u8], all: bool) {
    let data = cap(data);
    let draw = draw(data);
    let mut bytes = Bytes::new(data);
    let flags = bytes.byte();
    let shape = bytes.byte();
    let cuts: Vec<u16> = (0..shape % 5).map(|_| bytes.u16()).collect();
    let near = (flags & 0x80 != 0).then(|| bytes.byte());
    let mut csv = bytes.rest().to_vec();
    // Past the 64 KiB the ingest holds back to detect the encoding and the delimiter. Pad: the
    // first line grows by 64 KiB of `x` (one long header name), so the rest of the CSV lies
    // beyond. Repeat: a 64 KiB audit of many rows.
    let boundary = SNIFF + 16;
    let long = all || draw.is_multiple_of(LONG_EVERY);
    match shape >> 4 {
        0xF if long => {
            let at = csv.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(csv.len());
            csv.splice(at..at, std::iter::repeat_n(b'x', boundary));
        }
        0xE if long && !csv.is_empty() => {
            let unit = csv.clone();
            while csv.len() <= boundary {
                csv.extend_from_slice(&unit);
            }
        }
        _ => {}
    }
    let mut config = AuditConfig::default();
    if flags & 1 != 0 {
        config.ragged = Ragged::PadOrTruncate;
    }
    if flags & 2 != 0 {
        let d = shape::DELIMITERS[usize::from(flags >> 2) & 3];
        config.delimiter = Some((d as char).to_string());
    }
    if flags & 0x10 != 0 {
        config.missing_policy = MissingPolicy::Wildcard;
    }
    let identity = flags & 0x20 != 0 && (all || (draw / LONG_EVERY).is_multiple_of(IDENTITY_EVERY));
    if identity
        && let Ok(profile) = audit_pieces(&config, [csv.as_slice()])
        && let Some(first) = profile.columns.first()
    {
        config.quasi_identifiers = vec![first.name.clone()];
    }
    let whole = outcome(audit_pieces(&config, [csv.as_slice()]));
    let mut at: Vec<usize> = cuts.iter().map(|&c| (usize::from(c) * csv.len()) >> 16).collect();
    if let Some(b) = near {
        let b = usize::from(b);
        at.push(if csv.len() > SNIFF { (SNIFF - 128 + b).min(csv.len()) } else { (b * csv.len()) >> 8 });
    }
    at.sort_unstable();
    let mut pieces = Vec::new();
    let mut start = 0;
    for &end in at.iter().chain([&csv.len()]) {
        pieces.push(&csv[start..end]);
        start = end;
    }
    let split = outcome(audit_pieces(&config, pieces.iter().copied()));
    assert!(same(&whole, &split), "pushed whole and cut at {at:?} (of {} bytes): {}", csv.len(), difference(&whole, &split));
    let single = flags & 0x40 != 0 && csv.len() <= 4096;
    if single {
        let single = outcome(audit_pieces(&config, csv.chunks(1)));
        assert!(same(&whole, &single), "pushed whole and one byte at a time: {}", difference(&whole, &single));
    }
    let long = csv.len() > SNIFF;
    stats::note("ingest_split", &["long", "identity", "one byte at a time"], u32::from(long) | u32::from(identity) << 1 | u32::from(single) << 2);
}

// ---------------------------------------------------------------------------------------------
// record_count

/// The most CSV [`record_count`] generates from a program, unless the shape asks for a long
/// one (then [`MAX_INPUT`]).
pub const SHORT_CSV: usize = 8 * 1024;

/// Target `record_count`: the audit's record count against [`rfc4180::count`].
///
/// Input: a flag byte (bit 0: ragged `pad_or_truncate`, the lenient reading; bit 1: explicit
/// delimiter, bits 2-3 which; bits 4-5: 0 = the rest is the CSV as is, else it is a program
/// for [`shape::csv`]; bits 6-7: the BOM put before generated CSV: none, UTF-8, UTF-16 LE, BE),
/// a shape byte (columns `1 + b % 5`, the line end `(b >> 3) % 3`; from `0xE0` up, generated
/// CSV may be long: see below), then the CSV or program.
///
/// Speed: a program byte writes a row, so a program of a few KiB wrote up to 128 KiB of CSV
/// (five tokenizer passes over the 64 KiB sniff window, a profile of thousands of rows).
/// Generated CSV stops at [`SHORT_CSV`] bytes, except for one input in [`LONG_EVERY`]
/// ([`draw`]) with a shape byte of `0xE0` or more: that one runs its program again until
/// the CSV crosses the 64 KiB sniff window (up to [`MAX_INPUT`]), so long CSV does not wait
/// for the fuzzer to grow a program of kilobytes. The counts are the reader's, so a table reader reads the CSV
/// for its input facts: the summaries, the column profiles and the report (tested by `ingest_split` and
/// `config_json`) are not built.
pub fn record_count(data: &[u8]) {
    record_count_with(data, false);
}

/// [`record_count`]; `all`: a long shape always may write long CSV.
fn record_count_with(data: &[u8], all: bool) {
    let data = cap(data);
    let long = all || draw(data).is_multiple_of(LONG_EVERY);
    let mut bytes = Bytes::new(data);
    let flags = bytes.byte();
    let shape = bytes.byte();
    let lenient = flags & 1 != 0;
    let explicit = flags & 2 != 0;
    let delimiter = shape::DELIMITERS[usize::from(flags >> 2) & 3];
    let generated = flags & 0x30 != 0;
    let csv = if generated {
        let columns = 1 + usize::from(shape) % 5;
        let line_end = shape::LINE_ENDS[usize::from(shape >> 3) % 3];
        // Long: the program runs again until the CSV crosses the sniff window.
        let (min, limit) = if shape >= 0xE0 && long { (SNIFF + 1024, MAX_INPUT) } else { (0, SHORT_CSV) };
        shape::with_prefix(shape::csv(bytes.rest(), delimiter, columns, line_end, min, limit), flags >> 6)
    } else {
        bytes.rest().to_vec()
    };
    let mut config = AuditConfig::default();
    if lenient {
        config.ragged = Ragged::PadOrTruncate;
    }
    if explicit {
        config.delimiter = Some((delimiter as char).to_string());
    }
    let mode = if lenient { rfc4180::Mode::Lenient } else { rfc4180::Mode::Strict };
    let read = || -> Result<pseudolens_core::ingest::reader::InputFacts, Error> {
        let mut reader = TableReader::new(config.read_settings()?);
        reader.push(&csv)?;
        Ok(reader.finish()?.table.facts)
    };
    match read() {
        Ok(f) => {
            let input = || serde_json::to_value(&f).expect("the input facts serialize");
            assert_eq!(f.bytes, csv.len() as u64, "input.bytes is not the input length");
            let used = match f.delimiter.as_str() {
                "\\t" => b'\t',
                d => {
                    assert_eq!(d.len(), 1, "input.delimiter {d:?} is not one byte");
                    d.as_bytes()[0]
                }
            };
            if explicit {
                assert_eq!(used, delimiter, "the explicit delimiter was not used");
            }
            let expected = rfc4180::count(&csv, used, mode);
            if !lenient {
                assert_eq!(
                    expected.unclosed_quote(),
                    None,
                    "the quote opened on line {:?} is never closed, yet the audit succeeded",
                    expected.unclosed_quote()
                );
            }
            let rfc = expected.summary();
            assert_eq!(f.records, expected.records, "input.records; RFC 4180: {rfc}");
            assert_eq!(
                f.records,
                f.header_records + f.blank_records + f.rows_total + f.error_records,
                "records != header + blank + rows + error records: {}",
                input()
            );
            assert_eq!(f.error_records, expected.error_records, "input.error_records; RFC 4180: {rfc}");
            assert!(f.blank_records >= expected.empty_records, "input.blank_records {} < empty lines; RFC 4180: {rfc}", f.blank_records);
            assert_eq!(f.lines, expected.lines, "input.lines; RFC 4180: {rfc}");
        }
        Err(e) => {
            assert_clean(&e);
            if e.code == "unclosed_quote" {
                let line = e.line.expect("an unclosed quote names its line");
                // Without an explicit delimiter the detected one is unknown: one candidate
                // must agree.
                let delimiters: &[u8] = if explicit { &[delimiter] } else { &shape::DELIMITERS };
                let agrees = delimiters.iter().any(|&d| {
                    let c = rfc4180::count(&csv, d, mode);
                    if lenient { c.unclosed_quotes.contains(&line) } else { c.unclosed_quote() == Some(line) }
                });
                assert!(agrees, "unclosed_quote at line {line}, but RFC 4180 finds none there: {e:?}");
            }
        }
    }
    stats::note("record_count", &["generated", "long"], u32::from(generated) | u32::from(csv.len() > SNIFF) << 1);
}

/// `table_bytes` (issue 11): the binary form of a (partial) table read back with
/// `Part::from_bytes` is an error (`invalid_table`, `unsupported_table_version`) or a table
/// that profiles, audits (one input in [`FULL_EVERY`]) and writes the same bytes again;
/// never a panic.
///
/// Mode bit 0 clear: the rest of the input is the stored form (bit 1 clear: after a good magic
/// and version), with a good checksum appended so that every check behind it is reached.
/// Bit 0 set: the rest is a program for CSV ([`shape::csv`]); its table is read, written,
/// damaged at positions the input names (the checksum made good again) and read back.
pub fn table_bytes(data: &[u8]) {
    use pseudolens_core::Part;
    let data = cap(data);
    let mut b = Bytes::new(data);
    let mode = b.byte();
    let wire = if mode & 1 == 0 {
        let mut wire = if mode & 2 == 0 { b"PLTB\x03\x00\x00\x00".to_vec() } else { Vec::new() };
        wire.extend_from_slice(b.rest());
        let crc = crc32fast::hash(&wire);
        wire.extend_from_slice(&crc.to_le_bytes());
        wire
    } else {
        let damage: Vec<(u16, u8)> = (0..(mode >> 1) % 4).map(|_| (b.u16(), b.byte())).collect();
        let csv = shape::csv(b.rest(), b',', 3, b"\n", 0, 4096);
        let settings = AuditConfig { ragged: Ragged::PadOrTruncate, ..AuditConfig::default() }.table_settings().expect("the default settings");
        let mut reader = TableReader::new(settings);
        let part = reader.push(&csv).and_then(|()| reader.finish());
        let Ok(part) = part else { return };
        let mut wire = part.to_bytes();
        let back = Part::from_bytes(&wire).expect("a written table reads back");
        assert_eq!(back.to_bytes(), wire, "a table read back writes the same bytes");
        let body = wire.len() - 4;
        for (at, x) in damage {
            wire[usize::from(at) % body] ^= x | 1;
        }
        let crc = crc32fast::hash(&wire[..body]);
        wire[body..].copy_from_slice(&crc.to_le_bytes());
        wire
    };
    match Part::from_bytes(&wire) {
        Err(e) => assert!(["invalid_table", "unsupported_table_version"].contains(&e.code), "{e:?}"),
        Ok(part) => {
            let again = part.to_bytes();
            assert_eq!(Part::from_bytes(&again).expect("a table that passed reads back").to_bytes(), again);
            let _ = part.table.profiles(&Normaliser::default());
            // The audit (most of the cost) for one table in FULL_EVERY.
            if draw(data).is_multiple_of(FULL_EVERY) {
                let qi: Vec<String> = part.table.header.iter().take(2).cloned().collect();
                let config = AuditConfig { quasi_identifiers: qi, ..AuditConfig::default() };
                if let Err(e) = pseudolens_core::audit_table(&part.table, &config, &pseudolens_core::Sides::default()) {
                    assert_clean(&e);
                }
            }
        }
    }
}
