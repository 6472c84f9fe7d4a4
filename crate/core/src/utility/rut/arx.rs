//! ARX's attribute-level quality models (spec utility.md Sec 9, optional), family
//! `utility_arx`, per quasi-identifier that `O` and `P` both hold. Each model gives
//! `(result, min, max)` and `loss = clamp((result - min)/(max - min), 0, 1)` (`max = min` -> 0);
//! ARX shows `quality = 1 - loss`.
//!
//! | id | result | min | max |
//! |---|---|---|---|
//! | `arx_granularity` (ARX "Loss") | `(1/N_P) sum_rows |GR(t)|/|Dom|`, blank 1 | `1/|Dom|` | 1 |
//! | `arx_gen_intensity` (ARX "Precision"; declared hierarchy of height `h >= 2`) | mean over rows of `level(t)/(h-1)`, blank 1 | 0 | 1 |
//! | `arx_nue` (non-uniform entropy; paired) | `-sum log2(cnt_O(o_i)/cnt_P(t_i))` over aligned rows | 0 | `-sum log2(cnt_O(o_i)/N_P)` |
//!
//! Per QI (`scope.attribute`): value `{result, min, max, loss}`, details `rows` (counted) and
//! `skipped`. `INVALID` cells (granularity) and values outside the hierarchy (generalization
//! intensity, warning `value_not_in_hierarchy`) are left out of the rows. Without a hierarchy:
//! `not_applicable` (`no_hierarchy`); a numeric QI without domain: `no_domain`.
//! Then per model one result with `scope.attribute = null`: value `{loss, quality}`, the loss
//! averaged arithmetically over the QIs with a value (`details.attributes`).
//! The table-level models `aecs` and `discernibility`: [`super::arx_classes`].

use serde_json::json;

use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::dictionary::is_blank;
use crate::utility::Tables;
use crate::utility::rut::Subject;
use crate::utility::rut::gen_loss::gr;
use crate::utility::rut::preimage::domain_size;

/// Family of the ARX quality models.
pub const FAMILY: &str = "utility_arx";
/// The attribute-level models, in output order.
pub const IDS: [&str; 3] = ["arx_granularity", "arx_gen_intensity", "arx_nue"];

/// `(result, min, max)` of one model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// The model's value.
    pub result: f64,
    /// Its value on the original.
    pub min: f64,
    /// Its worst value.
    pub max: f64,
}

impl Model {
    /// `clamp((result - min)/(max - min), 0, 1)`; 0 when `max = min`.
    pub fn loss(self) -> f64 {
        if self.max > self.min { ((self.result - self.min) / (self.max - self.min)).clamp(0.0, 1.0) } else { 0.0 }
    }
}

fn result(ctx: &Context, id: &'static str, m: Model, rows: u64, skipped: u64) -> MetricResult {
    ctx.ok(id, json!({ "result": m.result, "min": m.min, "max": m.max, "loss": m.loss() })).with_details(json!({ "rows": rows, "skipped": skipped }))
}

/// The three models of one quasi-identifier, and each one's loss (`None` without a value).
pub fn attribute(s: &Subject<'_>) -> (Vec<MetricResult>, Losses) {
    let ctx = Context { family: FAMILY, ..s.ctx.clone() };
    let out = vec![granularity(s, &ctx), gen_intensity(s, &ctx), nue(s, &ctx)];
    let loss = |r: &MetricResult| (r.status == Status::Ok).then(|| r.value["loss"].as_f64()).flatten();
    let losses = Losses { attribute: s.a.name.clone(), loss: [loss(&out[0]), loss(&out[1]), loss(&out[2])] };
    (out, losses)
}

/// The loss of each model ([`IDS`] order) of one quasi-identifier.
#[derive(Debug, Clone, PartialEq)]
pub struct Losses {
    /// The quasi-identifier.
    pub attribute: String,
    /// Per model, its loss.
    pub loss: [Option<f64>; 3],
}

fn granularity(s: &Subject<'_>, ctx: &Context) -> MetricResult {
    let id = IDS[0];
    let Some(dom) = domain_size(s.a).filter(|&d| d >= 1.0) else {
        return ctx.without_value(id, Status::NotApplicable, "no_domain");
    };
    let (mut terms, mut rows, mut skipped, mut warnings) = (Vec::new(), 0u64, 0u64, Vec::new());
    for &c in &s.order {
        let k = s.a.p_count[c as usize];
        if k == 0 {
            continue;
        }
        let ratio = if is_blank(c) {
            1.0
        } else {
            match gr(s, c) {
                Some(g) => {
                    if let Some(w) = g.warning.filter(|w| !warnings.contains(w)) {
                        warnings.push(w);
                    }
                    g.size / dom
                }
                None => {
                    skipped += k;
                    continue;
                }
            }
        };
        rows += k;
        terms.push(k as f64 * ratio);
    }
    if rows == 0 {
        return ctx.without_value(id, Status::NotApplicable, "no_counted_cells");
    }
    let mut r = result(ctx, id, Model { result: neumaier(terms) / rows as f64, min: 1.0 / dom, max: 1.0 }, rows, skipped);
    r.warnings = warnings;
    r
}

fn gen_intensity(s: &Subject<'_>, ctx: &Context) -> MetricResult {
    let id = IDS[1];
    let Some(h) = s.a.hierarchy.as_ref().filter(|h| h.height >= 2) else {
        return ctx.without_value(id, Status::NotApplicable, "no_hierarchy");
    };
    let top = (h.height - 1) as f64;
    let (mut terms, mut rows, mut skipped) = (Vec::new(), 0u64, 0u64);
    for &c in &s.order {
        let k = s.a.p_count[c as usize];
        if k == 0 {
            continue;
        }
        let level = if is_blank(c) { Some(top) } else { h.level.get(s.a.values.text(c)).map(|&l| l as f64) };
        match level {
            Some(l) => {
                rows += k;
                terms.push(k as f64 * l / top);
            }
            None => skipped += k,
        }
    }
    if rows == 0 {
        return ctx.without_value(id, Status::NotApplicable, "no_counted_cells");
    }
    let r = result(ctx, id, Model { result: neumaier(terms) / rows as f64, min: 0.0, max: 1.0 }, rows, skipped);
    if skipped > 0 { r.with_warning("value_not_in_hierarchy") } else { r }
}

fn nue(s: &Subject<'_>, ctx: &Context) -> MetricResult {
    let id = IDS[2];
    let pairs = match s.pairs {
        Ok(p) => p,
        Err(reason) => return ctx.without_value(id, Status::Error, reason),
    };
    if pairs.is_empty() {
        return ctx.without_value(id, Status::NotApplicable, "no_pairs");
    }
    let n = s.n_p as f64;
    let (mut res, mut max) = (Vec::with_capacity(pairs.len()), Vec::with_capacity(pairs.len()));
    for &(i, j) in pairs {
        let (o, t) = (s.a.o[i as usize], s.p[j as usize]);
        let (co, cp) = (s.a.o_count[o as usize] as f64, s.a.p_count[t as usize] as f64);
        res.push(-libm::log2(co / cp));
        max.push(-libm::log2(co / n));
    }
    result(ctx, id, Model { result: 0.0 + neumaier(res), min: 0.0, max: 0.0 + neumaier(max) }, pairs.len() as u64, 0)
}

/// Per model, the loss averaged over the quasi-identifiers (`scope.attribute = null`).
pub fn averages(t: &Tables<'_>, per_attribute: &[Losses]) -> Vec<MetricResult> {
    let ctx = t.context(FAMILY, None);
    IDS.iter()
        .enumerate()
        .map(|(model, &id)| {
            let (names, losses): (Vec<&str>, Vec<f64>) = per_attribute.iter().filter_map(|a| Some((a.attribute.as_str(), a.loss[model]?))).unzip();
            if losses.is_empty() {
                return ctx.without_value(id, Status::NotApplicable, "no_usable_attribute");
            }
            let loss = neumaier(losses.iter().copied()) / losses.len() as f64;
            ctx.ok(id, json!({ "loss": loss, "quality": 1.0 - loss })).with_details(json!({ "attributes": names }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_is_normalised_and_clamped() {
        assert_eq!(Model { result: 0.5, min: 0.0, max: 2.0 }.loss(), 0.25);
        assert_eq!(Model { result: 3.0, min: 0.0, max: 2.0 }.loss(), 1.0);
        assert_eq!(Model { result: 1.0, min: 1.0, max: 1.0 }.loss(), 0.0);
    }
}
