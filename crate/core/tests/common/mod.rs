//! Helpers shared by the integration tests.
#![allow(dead_code)]

use pseudolens_core::{Audit, AuditConfig, Error, Report};
use serde_json::Value;

/// The spec's golden tables (`shared/spec/golden.md`), copied as fixtures.
pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// `shared/` beside the repository, as CI and developers have it.
pub fn shared(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(path)
}

/// Audits `bytes` pushed in chunks of `chunk` bytes.
pub fn audit_chunked(bytes: &[u8], config: &AuditConfig, chunk: usize) -> Result<Report, Error> {
    let mut a = Audit::new(config.clone())?;
    for piece in bytes.chunks(chunk.max(1)) {
        a.push(piece)?;
    }
    a.finish()
}

/// Audits `bytes` in one push.
pub fn audit(bytes: &[u8], config: &AuditConfig) -> Report {
    audit_chunked(bytes, config, usize::MAX).unwrap()
}

/// A configuration with these QIs and defaults otherwise.
pub fn qi(cols: &[&str]) -> AuditConfig {
    AuditConfig { quasi_identifiers: cols.iter().map(|s| s.to_string()).collect(), ..AuditConfig::default() }
}

/// The value of a metric, which must exist.
pub fn value<'r>(r: &'r Report, id: &str) -> &'r Value {
    &r.metric(id).unwrap_or_else(|| panic!("no metric {id}")).value
}

/// The value of a metric as f64.
pub fn num(r: &Report, id: &str) -> f64 {
    value(r, id).as_f64().unwrap_or_else(|| panic!("{id} is not a number: {}", value(r, id)))
}

/// Spec README Sec 9 tolerance: `|got - expected| <= 1e-9 max(1, |expected|)`.
pub fn close(got: f64, expected: f64) -> bool {
    (got - expected).abs() <= 1e-9 * expected.abs().max(1.0)
}

/// Asserts spec tolerance.
#[track_caller]
pub fn assert_close(got: f64, expected: f64, what: &str) {
    assert!(close(got, expected), "{what}: got {got}, expected {expected}");
}
