//! JSON helpers shared by the metric families.

use serde_json::{Value, json};

/// A count-like real as JSON: an integer when it is one (class sizes, `k`), else a real.
pub fn count_or_real(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { json!(v as i64) } else { json!(v) }
}
