//! Attacks on a synthetic or perturbed release (spec peer-measures.md Sec 5, after
//! Anonymeter): singling out, linkability and inference of the original `O` through the
//! release `P`, each as a success rate and a risk with its 95 % interval, corrected by a
//! control table `C` of records not used to build `P` when one is given.
//!
//! - Sec 5.1 (columns, compatibility): [`columns`]; Sec 5.2 (seeded draws): [`draws`];
//! - Sec 5.3 (rates, risk, interval): [`confidence`]; Sec 5.4: [`singling_out`];
//! - Sec 5.5 (distance, neighbours): [`neighbors`]; Sec 5.6: [`linkability`]; Sec 5.7: [`inference`].

pub mod columns;
pub mod confidence;
pub mod draws;
pub mod inference;
pub mod linkability;
pub mod neighbors;
pub mod singling_out;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::metric::{Context, MetricResult, Scope, Status};
use crate::table::kind::Kind;
use crate::utility::attribute::AttributeSettings;
use crate::utility::capture::Captured;
use columns::{AttackColumn, Side};
use confidence::{Rate, bind, rate, residual, z_of};
pub use singling_out::SoMode;

/// The most attacks per evaluation: each is a query or a target held in memory.
pub const MAX_ATTACKS: u64 = 10_000_000;

/// How many singling-out queries the report quotes (Sec 5.8).
const QUOTED_QUERIES: usize = 20;

/// The settings of the attacks (Sec 5.2-5.7; the names are the spec's).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AttackParams {
    /// Attacks per evaluation (queries, targets), default 500.
    pub n_attacks: u64,
    /// The seed of the draws (Sec 5.2), default 0.
    pub seed: u64,
    /// Confidence level of the intervals, in `(0, 1)`, default 0.95.
    pub confidence_level: f64,
    /// Singling-out mode, default multivariate.
    pub so_mode: SoMode,
    /// Columns per multivariate query, default 3 (clamped to the columns).
    pub so_n_cols: u64,
    /// Most multivariate attempts, default 10^7.
    pub so_max_attempts: u64,
    /// Singling-out columns; empty = the utility attributes both tables hold, in `P` order.
    pub so_columns: Vec<String>,
    /// Count distinct rows only (Anonymeter's behaviour), default false.
    pub so_drop_duplicates: bool,
    /// The attacker's two column sets of linkability; none = the QIs split in two halves.
    pub link_aux: Option<(Vec<String>, Vec<String>)>,
    /// Neighbours per column set, default 1.
    pub link_n_neighbors: u64,
    /// The attacker's columns in inference; empty = the QIs.
    pub inf_aux: Vec<String>,
    /// The secrets; empty = every sensitive attribute not in `inf_aux`.
    pub inf_secrets: Vec<String>,
    /// Compare secrets as numbers within a tolerance; none = when the secret is numeric.
    pub inf_regression: Option<bool>,
    /// The relative tolerance of a numeric guess, default 0.05.
    pub inf_tolerance: f64,
}

impl Default for AttackParams {
    fn default() -> Self {
        AttackParams {
            n_attacks: 500,
            seed: 0,
            confidence_level: 0.95,
            so_mode: SoMode::Multivariate,
            so_n_cols: 3,
            so_max_attempts: 10_000_000,
            so_columns: Vec::new(),
            so_drop_duplicates: false,
            link_aux: None,
            link_n_neighbors: 1,
            inf_aux: Vec::new(),
            inf_secrets: Vec::new(),
            inf_regression: None,
            inf_tolerance: 0.05,
        }
    }
}

impl AttackParams {
    /// Checks the settings.
    pub fn check(&self) -> Result<()> {
        let bad = [
            ("number of attacks", self.n_attacks == 0 || self.n_attacks > MAX_ATTACKS),
            ("confidence level", !(self.confidence_level > 0.0 && self.confidence_level < 1.0)),
            ("columns per singling-out query", self.so_n_cols == 0),
            ("number of linkability neighbours", self.link_n_neighbors == 0),
            ("inference tolerance", self.inf_tolerance.is_nan() || self.inf_tolerance < 0.0),
        ];
        match bad.iter().find(|b| b.1) {
            Some((what, _)) => Err(Error::config(
                "invalid_attack_setting",
                format!(
                    "the {what} is out of range (the number of attacks lies from 1 to 10,000,000, the columns and neighbours are at least 1, the confidence level lies strictly between 0 and 1, the tolerance is at least 0)"
                ),
            )),
            None => Ok(()),
        }
    }
}

/// What the attacks read.
pub struct AttackInput<'a> {
    /// The original `O`; `None`: every attack is `not_applicable`.
    pub original: Option<&'a Captured>,
    /// The release `P` (the columns `O` has).
    pub released: Option<&'a Captured>,
    /// The control `C`.
    pub control: Option<&'a Captured>,
    /// The QIs `A`, in column order.
    pub qi: &'a [String],
    /// The sensitive attributes.
    pub sensitive: &'a [String],
    /// Declared kinds, domains and hierarchies.
    pub attributes: &'a BTreeMap<String, AttributeSettings>,
    /// The normalisation of cells.
    pub norm: &'a Normaliser,
}

const IDS: [&str; 3] = ["anonymeter_singling_out_risk", "anonymeter_linkability_risk", "anonymeter_inference_risk"];

/// The three attacks' results (Sec 5.8).
pub fn metrics(input: &AttackInput<'_>, params: &AttackParams) -> Vec<MetricResult> {
    let mut p_json = serde_json::to_value(params).unwrap_or(Value::Null);
    p_json["control_given"] = json!(input.control.is_some());
    let ctx = Context {
        family: "attack",
        scope: Scope { table: "P", quasi_identifiers: input.qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: p_json,
    };
    let all = |status: Status, reason: &'static str| IDS.iter().map(|id| ctx.without_value(id, status, reason)).collect();
    let (Some(o), Some(p)) = (input.original, input.released) else {
        return all(Status::NotApplicable, "no_original_table");
    };
    if o.rows() == 0 || p.rows() == 0 {
        return all(Status::EmptyInput, "empty_input");
    }
    let tables = Tables { o, p, c: input.control, input };
    vec![singling_out_metric(&ctx, &tables, params), linkability_metric(&ctx, &tables, params)]
        .into_iter()
        .chain(inference_metrics(&ctx, &tables, params))
        .collect()
}

struct Tables<'a> {
    o: &'a Captured,
    p: &'a Captured,
    c: Option<&'a Captured>,
    input: &'a AttackInput<'a>,
}

impl Tables<'_> {
    /// The named columns joined across the tables, or the first one a table lacks.
    fn columns(&self, names: &[String]) -> std::result::Result<Vec<AttackColumn>, String> {
        names
            .iter()
            .map(|name| {
                let (Some(o), Some(p)) = (self.o.column(name), self.p.column(name)) else { return Err(name.clone()) };
                let c = match self.c {
                    Some(c) => Some(c.column(name).ok_or_else(|| name.clone())?),
                    None => None,
                };
                let settings = self.input.attributes.get(name).cloned().unwrap_or_default();
                Ok(AttackColumn::new(name, o, p, c, settings, self.input.norm))
            })
            .collect()
    }

    fn n_c(&self) -> Option<usize> {
        self.c.map(Captured::rows)
    }
}

fn column_missing(ctx: &Context, id: &'static str, name: &str) -> MetricResult {
    ctx.without_value(id, Status::Error, "column_missing").with_details(json!({ "column": name }))
}

/// The risk fields of Sec 5.8 for counts `k_att`, `k_base`, `k_ctl` of `n` attacks.
fn risk_details(n: u64, k_att: f64, k_base: f64, k_ctl: Option<f64>, level: f64) -> (f64, Value, bool) {
    let z = z_of(level);
    let nf = n as f64;
    let attack = rate(k_att, nf, z);
    let control: Option<Rate> = k_ctl.map(|k| rate(k, nf, z));
    let base = rate(k_base, nf, z);
    let risk = bind(control.map_or(attack, |c| residual(attack, c)));
    let uncorrected = bind(attack);
    let baseline = bind(base);
    let details = json!({
        "ci": risk.ci(level),
        "attack_rate": attack.value,
        "attack_error": attack.error,
        "control_rate": control.map(|c| c.value),
        "control_error": control.map(|c| c.error),
        "risk_without_control": { "value": uncorrected.value, "ci": uncorrected.ci(level) },
        "baseline_risk": baseline.value,
        "baseline_ci": baseline.ci(level),
        "n_attacks": n,
        "k_att": k_att,
        "k_base": k_base,
        "k_ctl": k_ctl,
    });
    (risk.value, details, base.value >= attack.value)
}

fn finish(ctx: &Context, id: &'static str, value: f64, mut details: Value, extra: Value, not_better: bool) -> MetricResult {
    if let (Some(d), Some(e)) = (details.as_object_mut(), extra.as_object()) {
        d.extend(e.clone());
    }
    let m = ctx.ok(id, value).with_details(details);
    if not_better { m.with_warning("attack_not_better_than_baseline") } else { m }
}

/// Singling out (Sec 5.4).
fn singling_out_metric(ctx: &Context, t: &Tables<'_>, params: &AttackParams) -> MetricResult {
    let id = IDS[0];
    let names = if params.so_columns.is_empty() { t.p.names.clone() } else { params.so_columns.clone() };
    let cols = match t.columns(&names) {
        Ok(c) => c,
        Err(name) => return column_missing(ctx, id, &name),
    };
    if cols.is_empty() {
        return ctx.without_value(id, Status::NotApplicable, "no_columns");
    }
    let n_cols = (params.so_n_cols as usize).min(cols.len());
    let dedup = params.so_drop_duplicates;
    let p = singling_out::Rows::new(&cols, Side::Released, t.p.rows(), dedup);
    let o = singling_out::Rows::new(&cols, Side::Original, t.o.rows(), dedup);
    let c = t.c.map(|c| singling_out::Rows::new(&cols, Side::Control, c.rows(), dedup));
    let settings = singling_out::SoSettings {
        mode: params.so_mode,
        n_attacks: params.n_attacks as usize,
        n_cols,
        max_attempts: params.so_max_attempts,
        seed: params.seed,
    };
    let out = singling_out::run(&p, &o, c.as_ref(), &settings);
    let (value, details, not_better) = risk_details(params.n_attacks, out.k_att as f64, out.k_base as f64, out.k_ctl, params.confidence_level);
    let quoted: Vec<Value> = out
        .queries
        .iter()
        .zip(&out.singles_out_o)
        .take(QUOTED_QUERIES)
        .map(|(q, &hit)| json!({ "query": singling_out::query_text(q, &cols), "singles_out_original": hit }))
        .collect();
    let extra = json!({
        "n_queries": out.queries.len(),
        "queries": quoted,
        "mode": params.so_mode,
        "n_cols": if params.so_mode == SoMode::Univariate { 1 } else { n_cols },
        "columns": names,
        "seed": params.seed,
        "k_ctl_uncorrected": out.k_ctl_raw,
        "correction": out.correction_w.map(|w| json!({ "w": w, "rows_original": o.rows.len(), "rows_control": c.as_ref().map(|c| c.rows.len()) })),
    });
    let mut m = finish(ctx, id, value, details, extra, not_better);
    if params.so_mode == SoMode::Multivariate && (params.so_n_cols as usize) > cols.len() {
        m = m.with_warning("n_cols_clamped");
    }
    if (out.queries.len() as u64) < params.n_attacks {
        m = m.with_warning("fewer_queries_than_attacks");
    }
    if out.correction_w.is_some() {
        m = m.with_warning("control_size_correction");
    }
    m
}

/// `n = min(n_attacks, sizes...)`, and whether it was clamped.
fn clamp_n(n_attacks: u64, sizes: &[usize]) -> (usize, bool) {
    let n = sizes.iter().fold(n_attacks as usize, |n, &s| n.min(s));
    (n, (n as u64) < n_attacks)
}

/// Linkability (Sec 5.6).
fn linkability_metric(ctx: &Context, t: &Tables<'_>, params: &AttackParams) -> MetricResult {
    let id = IDS[1];
    let (x0, x1) = match &params.link_aux {
        Some(aux) => aux.clone(),
        None => {
            let q = t.input.qi.len();
            if q < 2 {
                return ctx.without_value(id, Status::NotApplicable, "too_few_aux_columns");
            }
            let half = q.div_ceil(2);
            (t.input.qi[..half].to_vec(), t.input.qi[half..].to_vec())
        }
    };
    let (c0, c1) = match (t.columns(&x0), t.columns(&x1)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(name), _) | (_, Err(name)) => return column_missing(ctx, id, &name),
    };
    let mut sizes = vec![t.o.rows()];
    sizes.extend(t.n_c());
    let (n, clamped) = clamp_n(params.n_attacks, &sizes);
    let k = (params.link_n_neighbors as usize).min(t.p.rows());
    let (r0, r1): (Vec<&AttackColumn>, Vec<&AttackColumn>) = (c0.iter().collect(), c1.iter().collect());
    let out = linkability::run(&r0, &r1, t.o.rows(), t.p.rows(), t.n_c(), n, k, params.seed);
    let (value, details, not_better) = risk_details(n as u64, out.k_att as f64, out.k_base as f64, out.k_ctl.map(|k| k as f64), params.confidence_level);
    let extra = json!({ "aux": [x0, x1], "n_neighbors": k, "seed": params.seed });
    let m = finish(ctx, id, value, details, extra, not_better);
    if clamped { m.with_warning("n_attacks_clamped") } else { m }
}

/// Inference (Sec 5.7), one result per secret.
fn inference_metrics(ctx: &Context, t: &Tables<'_>, params: &AttackParams) -> Vec<MetricResult> {
    let id = IDS[2];
    let aux_names = if params.inf_aux.is_empty() { t.input.qi.to_vec() } else { params.inf_aux.clone() };
    let secrets: Vec<String> =
        if params.inf_secrets.is_empty() { t.input.sensitive.iter().filter(|s| !aux_names.contains(s)).cloned().collect() } else { params.inf_secrets.clone() };
    if secrets.is_empty() {
        return vec![ctx.without_value(id, Status::NotApplicable, "no_sensitive_attribute")];
    }
    let aux = match t.columns(&aux_names) {
        Ok(c) => c,
        Err(name) => return vec![column_missing(ctx, id, &name)],
    };
    let aux_refs: Vec<&AttackColumn> = aux.iter().collect();
    let mut sizes = vec![t.o.rows(), t.p.rows()];
    sizes.extend(t.n_c());
    let (n, clamped) = clamp_n(params.n_attacks, &sizes);
    secrets
        .iter()
        .map(|secret| {
            let mut ctx = ctx.clone();
            ctx.scope.sensitive = Some(secret.clone());
            let col = match t.columns(std::slice::from_ref(secret)) {
                Ok(mut c) => c.remove(0),
                Err(name) => return column_missing(&ctx, id, &name),
            };
            let regression = params.inf_regression.unwrap_or(col.attr.kind == Kind::Numeric);
            let out = inference::run(&aux_refs, &col, t.o.rows(), t.p.rows(), t.n_c(), n, regression, params.inf_tolerance, params.seed);
            let (value, details, not_better) =
                risk_details(n as u64, out.k_att as f64, out.k_base as f64, out.k_ctl.map(|k| k as f64), params.confidence_level);
            let extra = json!({ "aux": aux_names, "secret": secret, "regression": regression, "tolerance": params.inf_tolerance, "seed": params.seed });
            let mut m = finish(&ctx, id, value, details, extra, not_better);
            if clamped {
                m = m.with_warning("n_attacks_clamped");
            }
            if out.midpoint_used {
                m = m.with_warning("midpoint_used");
            }
            m
        })
        .collect()
}
