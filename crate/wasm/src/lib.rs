//! The wasm binding: forwards to `pseudolens-core` and converts values at the boundary. No
//! logic lives here (docs/architecture.md lists the exports; their types are the generated contract).
//!
//! Three modules are built from it (issue 40): the first engine ([`engine`], feature
//! `engine`), which the page loads first and which reads CSV and makes a first report; the full
//! engine (feature `full`: the first engine with [`full`], the original and control tables and
//! protect, and the core's families of its feature `full`), which the audit worker fetches when
//! a request needs it; and the readers of Parquet and Excel ([`readers`], feature `readers`),
//! fetched only when such a file is chosen. A native build (the tests) has all.

use pseudolens_core::{AuditConfig, Error};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;
}

/// A result as a plain JS object, through JSON text: the engine's own parser builds it in half
/// the time that a call across the boundary for every field takes (a report of the 1M-row
/// Adult-like table: 6-8 ms instead of 12-18), and the object is the CLI's JSON.
fn to_js(value: &impl Serialize) -> JsValue {
    serde_json::to_string(value)
        .map_err(|e| e.to_string())
        .and_then(|text| json_parse(&text).map_err(|_| "not JSON".to_string()))
        .unwrap_or_else(|e| JsValue::from_str(&format!("internal error while converting a result: {e}")))
}

fn error(e: &Error) -> JsValue {
    to_js(e)
}

/// Settings from the page, through serde_json so that a misspelt setting is refused, not
/// silently ignored (`code`, "the `what` are not valid: ...").
fn settings_from<T: serde::de::DeserializeOwned>(value: JsValue, code: &'static str, what: &str) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value::<serde_json::Value>(value)
        .map_err(|e| e.to_string())
        .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
        .map_err(|e| error(&Error::config(code, format!("the {what} are not valid: {e}"))))
}

fn config_from(config: JsValue) -> Result<AuditConfig, JsValue> {
    settings_from(config, "invalid_config", "audit settings")
}

#[cfg(feature = "engine")]
pub mod engine;
#[cfg(feature = "engine")]
pub use engine::*;
#[cfg(feature = "full")]
pub mod full;
#[cfg(feature = "full")]
pub use full::*;
#[cfg(feature = "readers")]
pub mod readers;
#[cfg(feature = "readers")]
pub use readers::*;
