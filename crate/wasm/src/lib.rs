//! The wasm binding: forwards to `pseudolens-core` and converts values at the boundary. No
//! logic lives here (docs/architecture.md gives the TypeScript view of this API).

use std::sync::Arc;

use pseudolens_core::{AuditConfig, Error, ErrorKind};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js(value: &impl Serialize) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or_else(|e| JsValue::from_str(&format!("internal error while converting a result: {e}")))
}

fn error(e: &Error) -> JsValue {
    to_js(e)
}

fn config_from(config: JsValue) -> Result<AuditConfig, JsValue> {
    // Through serde_json so that a misspelt setting is refused, not silently ignored.
    serde_wasm_bindgen::from_value::<serde_json::Value>(config)
        .map_err(|e| e.to_string())
        .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
        .map_err(|e| error(&Error::config("invalid_config", format!("the audit settings are not valid: {e}"))))
}

/// The encoding a side table is forced to read in: "windows-1252" after an `encoding_mismatch`.
fn forced(encoding: Option<String>) -> Option<pseudolens_core::Encoding> {
    (encoding.as_deref() == Some("windows-1252")).then_some(pseudolens_core::Encoding::Windows1252)
}

/// A streaming audit of one CSV file: `new Audit(config)`, `push(chunk)`..., `finish()`.
#[wasm_bindgen]
pub struct Audit(Option<pseudolens_core::Audit>);

#[wasm_bindgen]
impl Audit {
    /// Checks the configuration (an `AuditConfig` object) and starts an audit.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Audit, JsValue> {
        pseudolens_core::Audit::new(config_from(config)?).map(|a| Audit(Some(a))).map_err(|e| error(&e))
    }

    /// Absorbs the next chunk of the file (cut anywhere).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.inner()?.push(chunk).map_err(|e| error(&e))
    }

    /// Data rows read so far.
    pub fn rows(&self) -> f64 {
        self.0.as_ref().map_or(0.0, |a| a.rows() as f64)
    }

    /// Ends the input and returns the report; the audit cannot be used afterwards.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let audit = self.0.take().ok_or_else(finished)?;
        audit.finish().map(|r| to_js(&r)).map_err(|e| error(&e))
    }

    /// Uses a finished population / reference table (journalist and marketer models, external
    /// linkage risk). The `Population` is shared, so several audits can use it.
    pub fn set_population(&mut self, population: &Population) -> Result<(), JsValue> {
        let table = population.0.as_ref().ok_or_else(finished)?.clone();
        self.inner()?.set_population(table);
        Ok(())
    }

    /// Uses a finished original table for the utility metrics; call before the first push.
    /// The `OriginalTable` is shared, so several candidate releases can use it.
    pub fn set_original(&mut self, original: &OriginalTable) -> Result<(), JsValue> {
        let table = original.0.as_ref().ok_or_else(finished)?.clone();
        self.inner()?.set_original(table);
        Ok(())
    }

    fn inner(&mut self) -> Result<&mut pseudolens_core::Audit, JsValue> {
        self.0.as_mut().ok_or_else(finished)
    }
}

/// A streaming read of the population / reference table `E`: `new Reference(config,
/// encoding)`, `push(chunk)`..., `finish()` gives a `Population` for `Audit.set_population`.
#[wasm_bindgen]
pub struct Reference(Option<pseudolens_core::Reference>);

/// A finished population table (shared with the audits that use it, not copied).
#[wasm_bindgen]
pub struct Population(Option<Arc<pseudolens_core::ReferenceTable>>);

#[wasm_bindgen]
impl Reference {
    /// Starts reading `E` with the audit's settings; `encoding` "windows-1252" forces it.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, encoding: Option<String>) -> Result<Reference, JsValue> {
        let config = config_from(config)?;
        Ok(Reference(Some(pseudolens_core::reference(&config, forced(encoding)))))
    }

    /// Absorbs the next chunk of `E`.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.0.as_mut().ok_or_else(finished)?.push(chunk).map_err(|e| error(&e))
    }

    /// Ends `E`.
    pub fn finish(&mut self) -> Result<Population, JsValue> {
        let r = self.0.take().ok_or_else(finished)?;
        r.finish().map(|t| Population(Some(Arc::new(t)))).map_err(|e| error(&e))
    }
}

/// A streaming read of the original table `O`: `new Original(config, encoding)`,
/// `push(chunk)`..., `finish()` gives an `OriginalTable` for `Audit.set_original`.
#[wasm_bindgen]
pub struct Original(Option<pseudolens_core::Original>);

/// A finished original table (shared with the audits that use it, not copied).
#[wasm_bindgen]
pub struct OriginalTable(Option<Arc<pseudolens_core::Captured>>);

#[wasm_bindgen]
impl Original {
    /// Starts reading `O` with the audit's settings (`record_id`, `utility_columns`);
    /// `encoding` "windows-1252" forces it.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, encoding: Option<String>) -> Result<Original, JsValue> {
        let config = config_from(config)?;
        Ok(Original(Some(pseudolens_core::Original::new(&config, forced(encoding)))))
    }

    /// Absorbs the next chunk of `O`.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.0.as_mut().ok_or_else(finished)?.push(chunk).map_err(|e| error(&e))
    }

    /// Ends `O`.
    pub fn finish(&mut self) -> Result<OriginalTable, JsValue> {
        let o = self.0.take().ok_or_else(finished)?;
        o.finish().map(|t| OriginalTable(Some(Arc::new(t)))).map_err(|e| error(&e))
    }
}

/// Record drill-down: `new Extract(config, classes)` where `classes` is a list of value lists
/// (one per QI, `null` = missing), `push(chunk)`..., `finish()` gives `{csv, rows, truncated}`.
#[wasm_bindgen]
pub struct Extract(Option<pseudolens_core::Extract>);

#[wasm_bindgen]
impl Extract {
    /// Starts a drill-down pass.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, classes: JsValue) -> Result<Extract, JsValue> {
        let config = config_from(config)?;
        let classes: Vec<Vec<Option<String>>> = serde_wasm_bindgen::from_value(classes)
            .map_err(|e| error(&Error::config("invalid_class", format!("the classes are not valid: {e}"))))?;
        pseudolens_core::Extract::new(&config, classes).map(|x| Extract(Some(x))).map_err(|e| error(&e))
    }

    /// Absorbs the next chunk.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.0.as_mut().ok_or_else(finished)?.push(chunk).map_err(|e| error(&e))
    }

    /// Ends the file.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let x = self.0.take().ok_or_else(finished)?;
        x.finish().map(|r| to_js(&r)).map_err(|e| error(&e))
    }
}

fn finished() -> JsValue {
    error(&Error { kind: ErrorKind::Internal, ..Error::config("audit_finished", "this audit has already finished") })
}

/// The choice among candidate releases (spec balance.md Sec 5-6): `candidates` is a list of
/// `{name, risk_r, utility_u}` (each release's `risk_r` and `utility_u`), `params`
/// `{rut_alpha?, tau_r?, tau_u?}`; returns `[rut_alpha_sweep, rut_constrained_choice]`.
#[wasm_bindgen]
pub fn choose(quasi_identifiers: Vec<String>, candidates: JsValue, params: JsValue) -> Result<JsValue, JsValue> {
    let invalid = |e: serde_wasm_bindgen::Error| error(&Error::config("invalid_candidates", format!("the candidates are not valid: {e}")));
    let candidates: Vec<pseudolens_core::Candidate> = serde_wasm_bindgen::from_value(candidates).map_err(invalid)?;
    let params: pseudolens_core::ChoiceParams = serde_wasm_bindgen::from_value(params).map_err(invalid)?;
    Ok(to_js(&pseudolens_core::choose(&quasi_identifiers, &candidates, &params)))
}

/// The bundled synthetic hospital sample, as CSV bytes.
#[wasm_bindgen]
pub fn sample_csv() -> Vec<u8> {
    pseudolens_core::hospital_sample()
}

/// The version of the core.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
