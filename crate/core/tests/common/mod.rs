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

/// The configuration of golden G3 (`shared/spec/golden.md`): record id `rid`, QIs age, zip
/// (declared categorical), sex, SA diag with its declared hierarchy.
pub fn g3_config() -> AuditConfig {
    use pseudolens_core::table::kind::Kind;
    use pseudolens_core::utility::attribute::AttributeSettings;
    let mut c = qi(&["age", "zip", "sex"]);
    c.sensitive = vec!["diag".into()];
    c.record_id = Some("rid".into());
    c.attributes.insert("zip".into(), AttributeSettings { kind: Some(Kind::Categorical), ..Default::default() });
    let rows = [
        ["influenza", "Respiratory"],
        ["pneumonia", "Respiratory"],
        ["bronchitis", "Respiratory"],
        ["gastritis", "Digestive"],
        ["ulcer", "Digestive"],
        ["diabetes", "Endocrine"],
    ];
    let hierarchy = rows.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect();
    c.attributes.insert("diag".into(), AttributeSettings { hierarchy: Some(hierarchy), ..Default::default() });
    c
}

/// Audits golden G3's release against its original with [`g3_config`] changed by `adjust`.
pub fn g3_report(adjust: impl FnOnce(&mut AuditConfig)) -> Report {
    let mut config = g3_config();
    adjust(&mut config);
    against(&fixture("g3_original.csv"), &fixture("g3_released.csv"), &config)
}

/// The result of metric `id` whose scope attribute is `attribute`.
pub fn for_attribute<'r>(r: &'r Report, id: &str, attribute: &str) -> &'r pseudolens_core::metric::MetricResult {
    r.metrics.iter().find(|m| m.id == id && m.scope.attribute.as_deref() == Some(attribute)).unwrap_or_else(|| panic!("no metric {id} for {attribute}"))
}

/// Equal JSON up to the spec tolerance on numbers (summation order may differ).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => close(x.as_f64().unwrap(), y.as_f64().unwrap()),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

/// Audits `released` against `original` (the utility metrics' inputs), each pushed in chunks
/// of 4096 bytes.
pub fn against(original: &[u8], released: &[u8], config: &AuditConfig) -> Report {
    let mut o = pseudolens_core::Original::new(config, None);
    for piece in original.chunks(4096) {
        o.push(piece).unwrap();
    }
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(o.finish().unwrap());
    for piece in released.chunks(4096) {
        a.push(piece).unwrap();
    }
    a.finish().unwrap()
}

/// `rows` in an order drawn from `seed` (xorshift, Fisher-Yates): the row-order property tests.
pub fn shuffled<T: Clone>(rows: &[T], seed: u64) -> Vec<T> {
    let mut out = rows.to_vec();
    let mut s = seed | 1;
    for i in (1..out.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        out.swap(i, (s % (i as u64 + 1)) as usize);
    }
    out
}
