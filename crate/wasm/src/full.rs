//! The exports of the full engine (feature `full`): the original and control tables, with
//! the utility, synthetic and attack families that read them, and protect. The page's first
//! engine leaves them out (issue 40: a first report of one CSV needs none of them); the audit
//! worker fetches the full engine when a request needs it (web/src/worker/full-engine.ts).

use std::sync::Arc;

use pseudolens_core::{AuditConfig, Error};
use wasm_bindgen::prelude::*;

use crate::engine::{Audit, Audited, KeptTable, finished, forced, reporting};
use crate::{config_from, error, settings_from, to_js};

#[wasm_bindgen]
impl Audit {
    /// Uses a finished original table for the utility metrics; call before the first push.
    /// The `OriginalTable` is shared, so several candidate releases can use it.
    pub fn set_original(&mut self, original: &OriginalTable) -> Result<(), JsValue> {
        let table = original.0.as_ref().ok_or_else(finished)?.clone();
        self.inner()?.set_original(table);
        Ok(())
    }

    /// Uses a finished control table for the attacks (read like the original, as an
    /// `OriginalTable`: records of the population not used to make the release); call before
    /// the first push.
    pub fn set_control(&mut self, control: &OriginalTable) -> Result<(), JsValue> {
        let table = control.0.as_ref().ok_or_else(finished)?.clone();
        self.inner()?.set_control(table);
        Ok(())
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

/// The kept table's original and control tables, its protection (spec protect.md) and each
/// release written from it.
#[wasm_bindgen]
impl KeptTable {
    /// Uses an original table for the utility metrics of the next audits (shared).
    pub fn set_original(&mut self, original: &OriginalTable) -> Result<(), JsValue> {
        self.sides.original = Some(original.0.as_ref().ok_or_else(finished)?.clone());
        Ok(())
    }

    /// Uses a control table for the attacks of the next audits (shared).
    pub fn set_control(&mut self, control: &OriginalTable) -> Result<(), JsValue> {
        self.sides.control = Some(control.0.as_ref().ok_or_else(finished)?.clone());
        Ok(())
    }

    /// Prepares the protection of this table with the audit settings it was read with
    /// (`config`: the normalisation) and protect's `params` (`ProtectParams`): the ladders
    /// built and checked, the level-0 classes made. Errors name the QI, the level, the value
    /// or the line (`ladder_not_nested`, `ladder_value_unmapped`, `ladder_not_numeric`, ...).
    pub fn protector(&self, config: JsValue, params: JsValue) -> Result<Protecting, JsValue> {
        let config = config_from(config)?;
        let params: pseudolens_core::ProtectParams = settings_from(params, "invalid_parameter", "protect settings")?;
        let protector = reporting(|| pseudolens_core::Protector::new(&self.part.table, &config.normaliser(), &params)).map_err(|e| error(&e))?;
        Ok(Protecting { protector, config, delimiter: pseudolens_core::protect::apply::delimiter(&self.part.table) })
    }

    /// The release of the node `levels` (in QI order) as CSV bytes: the header line when
    /// `from` is 0, then the rows `from .. to` (spec protect.md Sec 5), so the page writes a
    /// download chunk by chunk.
    pub fn release_rows(&self, protecting: &Protecting, levels: Vec<u32>, from: f64, to: f64) -> Result<Vec<u8>, JsValue> {
        let levels: Vec<usize> = levels.into_iter().map(|l| l as usize).collect();
        let release = protecting.protector.release(&self.part.table, &levels).map_err(|e| error(&e))?;
        let (from, to) = (from as usize, (to as usize).min(release.rows()));
        let mut out = Vec::new();
        if from == 0 {
            release.write_header(&mut out);
        }
        release.write_rows(from.min(to), to, &mut out);
        Ok(out)
    }
}

/// The protection of a kept table (`KeptTable.protector`): the search of its lattice, any
/// node's figures, the ladders as the page shows them and in ARX's layout, and the check of a
/// written release's audit. It holds no reference to the table.
#[wasm_bindgen]
pub struct Protecting {
    protector: pseudolens_core::Protector,
    /// The audit settings the table was read with.
    config: AuditConfig,
    /// The delimiter its releases are written with.
    delimiter: String,
}

#[wasm_bindgen]
impl Protecting {
    /// The exact search (its progress: phase `nodes`); the `protect` result (Sec 6).
    pub fn search(&self) -> Result<JsValue, JsValue> {
        let search = reporting(|| self.protector.search()).map_err(|e| error(&e))?;
        Ok(to_js(&self.protector.result(&search)))
    }

    /// The node `levels` (in QI order) with its figures and feasibility (`NodeView`).
    pub fn node(&self, levels: Vec<u32>) -> Result<JsValue, JsValue> {
        let levels: Vec<usize> = levels.into_iter().map(|l| l as usize).collect();
        self.protector.node_view(&levels).map(|v| to_js(&v)).map_err(|e| error(&e))
    }

    /// Each ladder's levels with their labels and records (`LadderView[]`, in QI order).
    pub fn ladders(&self) -> JsValue {
        to_js(&self.protector.ladder_views())
    }

    /// The ladder of `qi` in ARX's hierarchy CSV layout.
    pub fn ladder_csv(&self, qi: &str) -> Result<String, JsValue> {
        let ladder = self.protector.ladders.iter().find(|l| l.qi == qi);
        ladder.map(|l| l.to_arx_csv()).ok_or_else(|| error(&Error::config("node_invalid", format!("\"{qi}\" is no quasi-identifier"))))
    }

    /// Rows of the table (the release's rows are written from 0 to this).
    pub fn rows(&self) -> f64 {
        self.protector.rows() as f64
    }

    /// The settings a written release of the node `levels` is audited with.
    pub fn release_config(&self, levels: Vec<u32>) -> JsValue {
        let levels: Vec<usize> = levels.into_iter().map(|l| l as usize).collect();
        to_js(&pseudolens_core::release_config(&self.config, &self.protector.qis, &levels, &self.delimiter))
    }

    /// Whether the audit of the written release of the node `levels` gives the figures
    /// predicted for it (`release_differs` otherwise); false: not checked, at the top of every
    /// ladder, where no record stays in scope (Sec 5).
    pub fn check(&self, levels: Vec<u32>, audited: &Audited) -> Result<bool, JsValue> {
        let levels: Vec<usize> = levels.into_iter().map(|l| l as usize).collect();
        pseudolens_core::check_release(&self.protector, &levels, &audited.0).map_err(|e| error(&e))
    }
}
