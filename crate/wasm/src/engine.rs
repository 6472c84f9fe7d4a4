//! The engine's exports: the reading of CSV files, the kept table, every audit, the page's
//! helpers. The page's first engine (the `engine` feature); the full engine adds [`crate::full`].

use std::sync::Arc;

use pseudolens_core::{AuditConfig, Error};
use wasm_bindgen::prelude::*;

use crate::{config_from, error, to_js};

thread_local! {
    /// The page's progress hook (`on_progress`).
    static PROGRESS: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

/// Calls `hook(phase, done, total)` with the progress of every audit from now on (the core's
/// `progress` module: `rows` of a kept table summarised, then the `measures` steps), or none
/// when `hook` is undefined. The worker posts it to the page.
#[wasm_bindgen]
pub fn on_progress(hook: Option<js_sys::Function>) {
    PROGRESS.with(|p| *p.borrow_mut() = hook);
}

/// Runs `f` reporting its progress to the hook of `on_progress`, if any.
pub(crate) fn reporting<R>(f: impl FnOnce() -> R) -> R {
    if PROGRESS.with(|p| p.borrow().is_none()) {
        return f();
    }
    let hook = |step: pseudolens_core::progress::Step| {
        PROGRESS.with(|p| {
            if let Some(hook) = &*p.borrow() {
                // A hook that throws loses its progress, not the audit.
                let _ = hook.call3(&JsValue::NULL, &step.phase.as_str().into(), &(step.done as f64).into(), &(step.total as f64).into());
            }
        });
    };
    pseudolens_core::progress::reporting(Arc::new(hook), f)
}

/// The encoding a side table is forced to read in: "windows-1252" after an `encoding_mismatch`.
pub(crate) fn forced(encoding: Option<String>) -> Option<pseudolens_core::Encoding> {
    (encoding.as_deref() == Some("windows-1252")).then_some(pseudolens_core::Encoding::Windows1252)
}

/// The first of these settings (its name: `suda`, `hipaa`, `attacks`, `synthetic`) that needs
/// the full engine, whether or not this build is it; undefined when none does. The page asks the
/// first engine before an audit, and fetches the full engine when one does (an original or a
/// control table, and protect, need it too).
#[wasm_bindgen]
pub fn needs_full_engine(config: JsValue) -> Result<Option<String>, JsValue> {
    Ok(config_from(config)?.needs_full_engine().map(str::to_string))
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
    pub fn finish(&mut self) -> Result<Audited, JsValue> {
        let audit = self.0.take().ok_or_else(finished)?;
        reporting(|| audit.finish()).map(Audited).map_err(|e| error(&e))
    }

    /// An audit that keeps each record's class, for [`Audit::finish_per_record`] (the
    /// per-record CSV when the table is not kept: a second read of the file).
    pub fn for_records(config: JsValue) -> Result<Audit, JsValue> {
        let config = AuditConfig { keep_records: true, ..config_from(config)? };
        pseudolens_core::Audit::new(config).map(|a| Audit(Some(a))).map_err(|e| error(&e))
    }

    /// Ends the input and returns the per-record CSV (`Report::per_record`; empty without
    /// quasi-identifiers).
    pub fn finish_per_record(&mut self) -> Result<String, JsValue> {
        let audit = self.0.take().ok_or_else(finished)?;
        audit.finish().map(|r| per_record_csv(&r)).map_err(|e| error(&e))
    }

    /// Uses a finished population / reference table (journalist and marketer models, external
    /// linkage risk). The `Population` is shared, so several audits can use it.
    pub fn set_population(&mut self, population: &Population) -> Result<(), JsValue> {
        let table = population.0.as_ref().ok_or_else(finished)?.clone();
        self.inner()?.set_population(table);
        Ok(())
    }

    pub(crate) fn inner(&mut self) -> Result<&mut pseudolens_core::Audit, JsValue> {
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
        let classes: Vec<Vec<Option<String>>> =
            serde_wasm_bindgen::from_value(classes).map_err(|e| error(&Error::config("invalid_class", format!("the classes are not valid: {e}"))))?;
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

pub(crate) fn finished() -> JsValue {
    error(&Error::internal("audit_finished", "this audit has already finished"))
}

/// The dialect and header from the start of a file, for reading it in parts (issue 11):
/// `{encoding, delimiter, header}`, or `null` when the file is better read whole by one
/// worker (UTF-16, or a problem before its header ends). `complete`: `prefix` is the whole file.
#[wasm_bindgen]
pub fn probe(config: JsValue, prefix: &[u8], complete: bool) -> Result<JsValue, JsValue> {
    let opts = config_from(config)?.csv_options().map_err(|e| error(&e))?;
    Ok(pseudolens_core::Reader::probe(opts, prefix, complete).map_or(JsValue::NULL, |p| to_js(&p)))
}

/// Reads one part of a file into a kept table: `new TableReader(config, probe, start, end,
/// exact)` (`probe` null and `start` 0: the whole file), `push(chunk)` from byte `start` on
/// while `done()` is false, `finish()` gives the part as bytes (transferable) for
/// `KeptTable.from_bytes`.
#[wasm_bindgen]
pub struct TableReader(Option<pseudolens_core::TableReader>);

#[wasm_bindgen]
impl TableReader {
    /// Starts reading the part of the file from byte `start` (up to the record straddling
    /// byte `end`); `exact`: a record starts at `start`.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, probe: JsValue, start: f64, end: f64, exact: bool) -> Result<TableReader, JsValue> {
        let settings = config_from(config)?.table_settings().map_err(|e| error(&e))?;
        let reader = if probe.is_null() || probe.is_undefined() {
            pseudolens_core::TableReader::new(settings)
        } else {
            let probe: pseudolens_core::Probe =
                serde_wasm_bindgen::from_value(probe).map_err(|e| error(&Error::config("invalid_probe", format!("the probe is not valid: {e}"))))?;
            let span = pseudolens_core::Span { start: start as u64, end: if end.is_finite() { end as u64 } else { u64::MAX }, exact };
            pseudolens_core::TableReader::part(settings, &probe, span)
        };
        Ok(TableReader(Some(reader)))
    }

    /// The size of the whole file in bytes: a column too varied to keep is given up early.
    pub fn expect_file_bytes(&mut self, bytes: f64) -> Result<(), JsValue> {
        self.0.as_mut().ok_or_else(finished)?.expect_file_bytes(bytes as u64);
        Ok(())
    }

    /// Absorbs the next chunk.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.0.as_mut().ok_or_else(finished)?.push(chunk).map_err(|e| error(&e))
    }

    /// Whether the part has read its last record: push no more.
    pub fn done(&self) -> bool {
        self.0.as_ref().is_some_and(pseudolens_core::TableReader::done)
    }

    /// Data rows read so far.
    pub fn rows(&self) -> f64 {
        self.0.as_ref().map_or(0.0, |a| a.rows() as f64)
    }

    /// The part as bytes (the stored form: `docs/architecture.md`).
    pub fn finish(&mut self) -> Result<Vec<u8>, JsValue> {
        let reader = self.0.take().ok_or_else(finished)?;
        let part = reader.finish().map_err(|e| error(&e))?;
        Ok(part.to_bytes())
    }
}

/// The format of a file from its first bytes (8 are enough) and its name: `"csv"`,
/// `"parquet"` or `"xlsx"`; an error when the name says Parquet or Excel and the bytes do not.
#[wasm_bindgen]
pub fn file_format(start: &[u8], name: &str) -> Result<String, JsValue> {
    pseudolens_core::Format::of(start, name).map(|f| f.label().to_string()).map_err(|e| error(&e))
}

/// Whether a file can be the side table `role` (`"original"`, `"population"` or `"control"`):
/// the engine's decision from its first bytes (8 are enough) and its name; an error
/// (`side_table_not_csv`, or the format's own) when it cannot.
#[wasm_bindgen]
pub fn check_side(start: &[u8], name: &str, role: &str) -> Result<(), JsValue> {
    let role =
        pseudolens_core::SideRole::from_label(role).ok_or_else(|| error(&Error::config("invalid_side", format!("no side table is named \"{role}\""))))?;
    pseudolens_core::Format::of(start, name).and_then(|format| role.check_format(name, format)).map_err(|e| error(&e))
}

/// A table kept in memory, merged from the parts of its file: audits of any settings read
/// nothing again.
#[wasm_bindgen]
pub struct KeptTable {
    pub(crate) part: pseudolens_core::Part,
    pub(crate) sides: pseudolens_core::Sides,
}

#[wasm_bindgen]
impl KeptTable {
    /// A part from its bytes (`invalid_table`, `unsupported_table_version`).
    pub fn from_bytes(bytes: &[u8]) -> Result<KeptTable, JsValue> {
        let part = pseudolens_core::Part::from_bytes(bytes).map_err(|e| error(&e))?;
        Ok(KeptTable { part, sides: pseudolens_core::Sides::default() })
    }

    /// The table in its binary form, which `from_bytes` reads back (the audit worker moves
    /// the kept table into the full engine with it).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.part.to_bytes()
    }

    /// Where the part began and ended: `{first, end, end_line}`, or null for a whole file.
    pub fn bounds(&self) -> JsValue {
        self.part.bounds.map_or(JsValue::NULL, |b| to_js(&b))
    }

    /// Appends the next part of the same file (`parts_not_adjacent` when it does not start
    /// where this one ends).
    pub fn merge(&mut self, next: KeptTable) -> Result<(), JsValue> {
        self.part.merge(next.part).map_err(|e| error(&e))
    }

    /// The SHA-256 of the whole file, from the `Hasher` that read it in order.
    pub fn set_sha256(&mut self, hex: String) {
        self.part.set_sha256(hex);
    }

    /// Takes the memory the first audit's class sort will hold (`sorting_bytes`) and touches
    /// it, while the user picks the roles: the pages of memory a wasm instance grows into are
    /// mapped at their first touch, which took about 15 ms of the first audit of the 1M-row
    /// Adult-like table in the page (22 MB). Freed, the memory stays with the instance, where
    /// the audit takes it again (docs/decisions/wasm/first-audit-memory-touched-early.md).
    pub fn prepare_audit(&self) {
        let mut scratch = vec![1u8; pseudolens_core::sorting_bytes(self.part.table.facts.rows_total)];
        std::hint::black_box(&mut scratch);
    }

    /// The ladder proposed for each of `qis` from its values (`{qi: Ladder}`; a QI without
    /// one takes (value, `*`) or an uploaded hierarchy): in the first engine, as the page proposes
    /// them with every report.
    pub fn propose_ladders(&self, config: JsValue, qis: Vec<String>) -> Result<JsValue, JsValue> {
        let config = config_from(config)?;
        pseudolens_core::protect::propose(&self.part.table, &config.normaliser(), &qis).map(|p| to_js(&p)).map_err(|e| error(&e))
    }

    /// Why the rows are not kept, or null when every column is.
    pub fn not_retained(&self) -> Option<String> {
        (!self.part.table.is_retained()).then(|| self.part.table.not_retained.clone().unwrap_or_else(|| "a column has too many distinct values".into()))
    }

    /// Uses a population / reference table for the next audits (shared).
    pub fn set_population(&mut self, population: &Population) -> Result<(), JsValue> {
        self.sides.reference = Some(population.0.as_ref().ok_or_else(finished)?.clone());
        Ok(())
    }

    /// Forgets the side tables.
    pub fn clear_sides(&mut self) {
        self.sides = pseudolens_core::Sides::default();
    }

    /// The report of an audit with these settings, from the table (`not_retained`: read the
    /// file again).
    pub fn audit(&self, config: JsValue) -> Result<Audited, JsValue> {
        let config = config_from(config)?;
        reporting(|| pseudolens_core::audit_table(&self.part.table, &config, &self.sides)).map(Audited).map_err(|e| error(&e))
    }

    /// An audit with these settings in steps (`not_retained` as `audit`), whose attribution
    /// lattice and bootstrap parts reader workers can compute (`attribution_stats`,
    /// `bootstrap_part`) while this worker finishes the other metrics: `lattice()`,
    /// `bootstrap()`, `finish_others()`, `add_replicates(part)`, `complete(stats)`. The same
    /// report.
    pub fn start_audit(&self, config: JsValue) -> Result<PendingAudit, JsValue> {
        let config = config_from(config)?;
        reporting(|| pseudolens_core::SplitAudit::start(&self.part.table, &config, &self.sides)).map(|a| PendingAudit(Some(a))).map_err(|e| error(&e))
    }

    /// The per-record CSV of an audit with these settings, from the table's row codes
    /// (`not_retained`: read the file again with `Audit.for_records`).
    pub fn per_record_csv(&self, config: JsValue) -> Result<String, JsValue> {
        let config = AuditConfig { keep_records: true, ..config_from(config)? };
        pseudolens_core::audit_table(&self.part.table, &config, &self.sides).map(|r| per_record_csv(&r)).map_err(|e| error(&e))
    }

    /// The rows of these classes, from the table (see `Extract`).
    pub fn extract(&self, config: JsValue, classes: JsValue) -> Result<JsValue, JsValue> {
        let config = config_from(config)?;
        let classes: Vec<Vec<Option<String>>> =
            serde_wasm_bindgen::from_value(classes).map_err(|e| error(&Error::config("invalid_class", format!("the classes are not valid: {e}"))))?;
        pseudolens_core::extract_table(&self.part.table, &config, classes).map(|x| to_js(&x)).map_err(|e| error(&e))
    }
}

/// An audit of a kept table in steps (`KeptTable.start_audit`); it holds no reference to the
/// table, which may be freed or read meanwhile.
#[wasm_bindgen]
pub struct PendingAudit(Option<pseudolens_core::SplitAudit>);

#[wasm_bindgen]
impl PendingAudit {
    /// The attribution lattice as bytes (transferable) for `attribution_stats`, or undefined
    /// when attribution is computed with the other metrics.
    pub fn lattice(&self) -> Option<Vec<u8>> {
        self.0.as_ref().and_then(pseudolens_core::SplitAudit::lattice).map(pseudolens_core::Lattice::to_bytes)
    }

    /// The bootstrap of the population estimators as bytes (for `bootstrap_part`, by part:
    /// `bootstrap_parts()` of them), or undefined when it is computed with the other metrics.
    pub fn bootstrap(&self) -> Option<Vec<u8>> {
        self.0.as_ref().and_then(pseudolens_core::SplitAudit::bootstrap).map(pseudolens_core::Bootstrap::to_bytes)
    }

    /// The parts of `bootstrap()` (0 when there is none).
    pub fn bootstrap_parts(&self) -> u32 {
        self.0.as_ref().and_then(pseudolens_core::SplitAudit::bootstrap).map_or(0, pseudolens_core::Bootstrap::parts)
    }

    /// Takes the replicates of one part of `bootstrap()` that `bootstrap_part` gave; the parts
    /// not given are computed by `complete`.
    pub fn add_replicates(&mut self, part: &[u8]) -> Result<(), JsValue> {
        self.0.as_mut().ok_or_else(finished)?.add_replicates(part).map_err(|e| error(&e))
    }

    /// Computes every metric but attribution and the population estimators' intervals.
    pub fn finish_others(&mut self) -> Result<(), JsValue> {
        let audit = self.0.as_mut().ok_or_else(finished)?;
        reporting(|| audit.finish_others());
        Ok(())
    }

    /// The report, with the attribution statistics `attribution_stats` gave for `lattice()`
    /// (undefined: computed here) and the bootstrap's replicates (`add_replicates`; the parts
    /// not given computed here); the audit cannot be used afterwards.
    pub fn complete(&mut self, stats: Option<Vec<u8>>) -> Result<Audited, JsValue> {
        let audit = self.0.take().ok_or_else(finished)?;
        let stats = stats.map(|b| pseudolens_core::stats_from_bytes(&b)).transpose().map_err(|e| error(&e))?;
        audit.complete(stats).map(Audited).map_err(|e| error(&e))
    }
}

/// An audit's report, held in the engine (`Audit.finish`, `KeptTable.audit`,
/// `PendingAudit.complete`): its JSON form, and its shareable variant at any minimum count made
/// from the typed report, so the report never crosses back into the engine (issue 37). Free it
/// when no other variant will be asked for.
#[wasm_bindgen]
pub struct Audited(pub(crate) pseudolens_core::Report);

#[wasm_bindgen]
impl Audited {
    /// The report (its JSON form).
    pub fn report(&self) -> JsValue {
        to_js(&self.0)
    }

    /// The report safe to share (issue 13, Deliver 2): only aggregates of at least
    /// `min_count` records (undefined: the report's k, the advice's, else 5), with
    /// `shareable = {min_count, removed}`; a report whose `removed` is empty held no
    /// record-level value.
    pub fn shareable(&self, min_count: Option<f64>) -> JsValue {
        let k = min_count.filter(|k| k.is_finite() && *k >= 1.0).map_or_else(|| pseudolens_core::min_count_of(&self.0), |k| k as u64);
        to_js(&pseudolens_core::shareable(&self.0, k))
    }

    /// The file's SHA-256 when the report has none yet (a hash still under way when the
    /// audit of a kept table started).
    pub fn set_sha256(&mut self, hex: String) {
        self.0.input.sha256.get_or_insert(hex);
    }
}

/// The statistics of every subset of an attribution lattice (`PendingAudit.lattice`), as
/// bytes for `PendingAudit.complete`: the reader workers compute them while the audit worker
/// finishes the other metrics.
#[wasm_bindgen]
pub fn attribution_stats(lattice: &[u8]) -> Result<Vec<u8>, JsValue> {
    let lattice = pseudolens_core::Lattice::from_bytes(lattice).map_err(|e| error(&e))?;
    Ok(pseudolens_core::stats_to_bytes(&lattice.stats()))
}

/// The replicates of part `part` of an audit's bootstrap (`PendingAudit.bootstrap`), as bytes
/// for its `add_replicates`: what a reader worker computes while the audit worker finishes the
/// other metrics (issue 40).
#[wasm_bindgen]
pub fn bootstrap_part(bootstrap: &[u8], part: u32) -> Result<Vec<u8>, JsValue> {
    pseudolens_core::Bootstrap::from_bytes(bootstrap).and_then(|b| b.part(part)).map_err(|e| error(&e))
}

/// The report's per-record values as CSV text (empty when it has none).
fn per_record_csv(report: &pseudolens_core::Report) -> String {
    let mut out = Vec::new();
    if let Some(p) = &report.per_record {
        // Writing to memory cannot fail.
        let _ = p.write_csv(&mut out);
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The SHA-256 of a file read in order: `update(chunk)`..., `hex()`.
#[wasm_bindgen]
#[derive(Default)]
pub struct Hasher(pseudolens_core::ContentHash);

#[wasm_bindgen]
impl Hasher {
    /// A new hash.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Hasher {
        Hasher::default()
    }

    /// Adds the next chunk.
    pub fn update(&mut self, chunk: &[u8]) {
        self.0.update(chunk);
    }

    /// The digest, lower-case hex (the hash cannot be used afterwards).
    pub fn hex(&mut self) -> String {
        std::mem::take(&mut self.0).hex()
    }
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

/// The encoding to read a file in again after an error with this `code` (`"windows-1252"`
/// after `encoding_mismatch`), or undefined: the core's rule, so the worker keeps no copy.
#[wasm_bindgen]
pub fn fallback_encoding(code: &str) -> Option<String> {
    pseudolens_core::Encoding::fallback(code).map(|e| e.label().to_string())
}

/// Rows of the table [`WarmUp`] audits.
const WARM_UP_ROWS: usize = 5_000;
/// Audits of the generated table with its QIs in the warm-up. The functions an audit runs per
/// bootstrap replicate or once over its classes (the population estimators, the sorts, the
/// finishing of the metrics) ran too little in one audit of the small table for V8 to optimize
/// them, and were optimized during the first audit of a file instead, on the cores that audit
/// needed: V8 compiled 24 functions during the page's first audit of the 1M-row Adult-like
/// table after one warm-up audit, 14 after five (docs/decisions/wasm/warm-up-five-audits.md).
const WARM_UP_AUDITS: usize = 5;

/// Reads and audits a generated table of 5,000 rows (5 QIs, a sensitive column) the way the
/// page audits a file, and drops the reports, so that the first audit of a file runs optimized
/// code. V8 runs a wasm function in its baseline tier until it has run for a while, and
/// switches only at its next call: a function called once per audit with a long loop (the
/// class table's sort, attribution's sorts, the finishing metrics) ran its whole first call
/// there. The page's steps: a part read as a reader worker reads it (`new WarmUp()`), kept from
/// its bytes, then with each `step()` its profile, then the audit in steps with the page's
/// default settings (the advice included) and its shareable variant, [`WARM_UP_AUDITS`] times.
/// The audit worker runs the steps once it has said it is ready, one task each, so that a
/// request waits for one step at most (issue 40: the engine ready within 1 s of a cold load);
/// the reader workers instantiate the same compiled module, so the code optimized here is
/// theirs too. Measured in docs/decisions/wasm/warm-up-five-audits.md.
#[wasm_bindgen]
pub struct WarmUp {
    table: KeptTable,
    /// The steps run so far.
    done: usize,
}

#[wasm_bindgen]
impl WarmUp {
    /// Reads the generated table.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<WarmUp, JsValue> {
        let mut reader = TableReader::new(to_js(&AuditConfig::default()), JsValue::NULL, 0.0, f64::INFINITY, true)?;
        for chunk in pseudolens_core::bench_table(WARM_UP_ROWS, 1, 0) {
            reader.push(&chunk)?;
        }
        Ok(WarmUp { table: KeptTable::from_bytes(&reader.finish()?)?, done: 0 })
    }

    /// Runs the next step (the profile, then the audits); false once every step has run.
    pub fn step(&mut self) -> Result<bool, JsValue> {
        if self.done > WARM_UP_AUDITS {
            return Ok(false);
        }
        let names = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let config = if self.done == 0 {
            AuditConfig::default()
        } else {
            AuditConfig {
                quasi_identifiers: names(&pseudolens_core::BENCH_QIS),
                sensitive: names(&["diagnosis"]),
                advice: Some(pseudolens_core::AdviceParams::default()),
                ..AuditConfig::default()
            }
        };
        let mut pending = self.table.start_audit(to_js(&config))?;
        let stats = pending.lattice().map(|lattice| attribution_stats(&lattice)).transpose()?;
        if let Some(bootstrap) = pending.bootstrap() {
            for part in 0..pending.bootstrap_parts() {
                pending.add_replicates(&bootstrap_part(&bootstrap, part)?)?;
            }
        }
        pending.finish_others()?;
        // The worker sends the shareable variant with every report it posts.
        let audited = pending.complete(stats)?;
        let _ = (audited.report(), audited.shareable(None));
        self.done += 1;
        Ok(self.done <= WARM_UP_AUDITS)
    }
}

/// Every step of [`WarmUp`] at once: what the benches run before they time the engine.
#[wasm_bindgen]
pub fn warm_up() -> Result<(), JsValue> {
    let mut warm = WarmUp::new()?;
    while warm.step()? {}
    Ok(())
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
