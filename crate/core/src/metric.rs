//! Metric results in the format of spec README Sec 10.

use serde::Serialize;
use serde_json::{Value, json};

/// Outcome of a metric (spec README Sec 10).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A value was computed.
    Ok,
    /// The metric's preconditions do not hold.
    NotApplicable,
    /// Invalid input.
    Error,
    /// The scope holds no record.
    EmptyInput,
}

/// What a metric was computed over.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scope {
    /// Always `P` here: the released table.
    pub table: &'static str,
    /// The QI list `A`, in column order.
    pub quasi_identifiers: Vec<String>,
    /// The sensitive attribute, for attribute metrics.
    pub sensitive: Option<String>,
    /// A single attribute, for per-attribute metrics.
    pub attribute: Option<String>,
    /// A QI subset, for attribution metrics.
    pub subset: Option<Vec<String>>,
}

/// One metric result object.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricResult {
    /// Stable snake_case id (spec README Sec 11).
    pub id: &'static str,
    /// Metric family.
    pub family: &'static str,
    /// What it was computed over.
    pub scope: Scope,
    /// The value; `null` unless `status` is ok.
    pub value: Value,
    /// Outcome.
    pub status: Status,
    /// Machine code when `status` is not ok.
    pub reason: Option<&'static str>,
    /// Parameters that shaped the value.
    pub params: Value,
    /// Metric-specific extras.
    pub details: Value,
    /// Machine codes of warnings.
    pub warnings: Vec<&'static str>,
}

impl MetricResult {
    /// Adds details.
    pub fn with_details(mut self, details: Value) -> Self {
        self.details = details;
        self
    }

    /// Adds a warning code.
    pub fn with_warning(mut self, code: &'static str) -> Self {
        self.warnings.push(code);
        self
    }
}

/// Shared scope and parameters of a family's results.
#[derive(Debug, Clone)]
pub struct Context {
    /// Family name.
    pub family: &'static str,
    /// Scope of every result.
    pub scope: Scope,
    /// Parameters of every result.
    pub params: Value,
}

impl Context {
    /// A result with `status = ok`.
    pub fn ok(&self, id: &'static str, value: impl Serialize) -> MetricResult {
        self.result(id, json!(value), Status::Ok, None)
    }

    /// A result without value.
    pub fn without_value(&self, id: &'static str, status: Status, reason: &'static str) -> MetricResult {
        self.result(id, Value::Null, status, Some(reason))
    }

    fn result(&self, id: &'static str, value: Value, status: Status, reason: Option<&'static str>) -> MetricResult {
        MetricResult {
            id,
            family: self.family,
            scope: self.scope.clone(),
            value,
            status,
            reason,
            params: self.params.clone(),
            details: json!({}),
            warnings: Vec::new(),
        }
    }
}

/// `{min, mean, max}` (spec README Sec 10).
pub fn min_mean_max(min: f64, mean: f64, max: f64) -> Value {
    json!({ "min": min, "mean": mean, "max": max })
}
