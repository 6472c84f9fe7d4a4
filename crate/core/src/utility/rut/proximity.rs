//! Distances, MAD and proximity loss of numeric and date attributes over aligned rows (spec
//! utility.md Sec 3; \[RUT\] Sec 3.2.1, 3.3):
//!
//! ```text
//! e_i = |x_i - rep(P_i[a])|       i in I_a (both cells non-blank; O EXACT, P readable)
//! distance_manhattan = sum e_i    distance_euclidean = sqrt(sum e_i^2)
//! mad = manhattan / n_a           rmse = euclidean / sqrt(n_a)
//! proximity_loss = min(1, mad / Lmax_M)  or  min(1, rmse / Lmax_E)   (proximity_norm)
//! ```
//! `Lmax` by `lmax_mode`: `baseline` (mean absolute / root-mean-square deviation of the `x_i`
//! from their mean), `rule` (`u/2` for nearest rounding, `u` for floor or ceiling, `u` the
//! declared `rounding_unit`; without one: `not_applicable`, `no_rounding_unit`), `fixed`
//! (`lmax_value`; without one: `not_applicable`, `no_lmax_value`). `Lmax = 0`: loss 0 if the
//! error is 0, else 1. Under `rule`, \[RUT\] asks for the coarsest release's `Lmax` when several
//! releases are compared: give it as `fixed`.
//!
//! An `O` cell that is not `EXACT` skips the pair (warning `original_not_exact`), so does an
//! `INVALID` release (warning `invalid_cells_skipped`); a released range enters by its midpoint
//! (warning `midpoint_used`). No pair left: `not_applicable` (`no_pairs`).
//!
//! `proximity_loss_record_l1` / `_l2` (Sec 3 vector form): per aligned record with at least one
//! numeric pair, `e_{i,a} = min(1, |x - rep| / Lmax_M(a))` (the mode's `Lmax_M`), `l1_i` = mean
//! over its attributes, `l2_i = sqrt(mean e^2)`; value = mean over those records; details
//! `records`, `attributes`.

use serde_json::json;

use crate::metric::{MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::dictionary::is_blank;
use crate::utility::Tables;
use crate::utility::attribute::{Attribute, Typed};
use crate::utility::params::{LmaxMode, ProximityNorm, RoundingMode, UtilityParams};
use crate::utility::rut::{FAMILY, Subject};

/// The per-attribute ids, in output order.
pub const IDS: [&str; 5] = ["distance_manhattan", "distance_euclidean", "mad", "rmse", "proximity_loss"];
/// The record-level ids.
pub const RECORD_IDS: [&str; 2] = ["proximity_loss_record_l1", "proximity_loss_record_l2"];

/// The usable aligned pairs of one attribute.
#[derive(Debug, Clone, Default)]
pub struct Errors {
    /// `(index of the pair, x_i, e_i)`.
    pub items: Vec<(usize, f64, f64)>,
    /// Pairs whose `O` cell is not `EXACT`.
    pub skipped_original: u64,
    /// Pairs whose `P` cell has no representative value (`INVALID`).
    pub skipped_released: u64,
    /// Whether a range entered by its midpoint.
    pub midpoint: bool,
}

impl Errors {
    /// The original values `x_i`.
    pub fn xs(&self) -> Vec<f64> {
        self.items.iter().map(|&(_, x, _)| x).collect()
    }

    /// The absolute errors `e_i`.
    pub fn es(&self) -> Vec<f64> {
        self.items.iter().map(|&(_, _, e)| e).collect()
    }
}

/// `e_i` over the aligned pairs where both cells are non-blank (Sec 3).
pub fn errors(a: &Attribute, p: &[u32], pairs: &[(u32, u32)]) -> Errors {
    let mut e = Errors::default();
    for (k, &(i, j)) in pairs.iter().enumerate() {
        let (o, t) = (a.o[i as usize], p[j as usize]);
        if is_blank(o) || is_blank(t) {
            continue;
        }
        let Typed::Exact(x) = a.typed[o as usize] else {
            e.skipped_original += 1;
            continue;
        };
        let Some(r) = a.rep(t) else {
            e.skipped_released += 1;
            continue;
        };
        e.midpoint |= a.is_range(t);
        e.items.push((k, x, (x - r).abs()));
    }
    e
}

/// `sum e_i` (\[RUT\] example (1,2) vs (4,6): 7).
pub fn manhattan(e: &[f64]) -> f64 {
    neumaier(e.iter().copied())
}

/// `sqrt(sum e_i^2)` (\[RUT\] example: 5).
pub fn euclidean(e: &[f64]) -> f64 {
    neumaier(e.iter().map(|v| v * v)).sqrt()
}

/// `(Lmax_M, Lmax_E)` of an attribute with original values `xs` under `lmax_mode`.
pub fn lmax(a: &Attribute, params: &UtilityParams, xs: &[f64]) -> Result<(f64, f64), &'static str> {
    match params.lmax_mode {
        LmaxMode::Baseline => {
            let n = xs.len() as f64;
            let mean = neumaier(xs.iter().copied()) / n;
            let m = neumaier(xs.iter().map(|x| (x - mean).abs())) / n;
            let e = (neumaier(xs.iter().map(|x| (x - mean) * (x - mean))) / n).sqrt();
            Ok((m, e))
        }
        LmaxMode::Rule => {
            let u = a.settings.rounding_unit.ok_or("no_rounding_unit")?;
            let l = if params.rounding_mode == RoundingMode::Nearest { u / 2.0 } else { u };
            Ok((l, l))
        }
        LmaxMode::Fixed => params.lmax_value.map(|l| (l, l)).ok_or("no_lmax_value"),
    }
}

/// `min(1, err / lmax)`; `lmax = 0`: 0 if the error is 0, else 1.
pub fn loss(err: f64, lmax: f64) -> f64 {
    if lmax > 0.0 {
        (err / lmax).min(1.0)
    } else if err == 0.0 {
        0.0
    } else {
        1.0
    }
}

/// Distances, MAD, RMSE and proximity loss of one attribute, and the proximity loss's value.
pub fn metrics(s: &Subject<'_>) -> (Vec<MetricResult>, Option<f64>) {
    if !s.numeric() {
        return (IDS.iter().map(|id| s.ctx.without_value(id, Status::NotApplicable, "not_numeric")).collect(), None);
    }
    let pairs = match s.pairs {
        Ok(p) => p,
        Err(reason) => return (s.unpaired(&IDS, reason), None),
    };
    let e = errors(s.a, s.p, pairs);
    let mut warnings = Vec::new();
    if e.midpoint {
        warnings.push("midpoint_used");
    }
    if e.skipped_original > 0 {
        warnings.push("original_not_exact");
    }
    if e.skipped_released > 0 {
        warnings.push("invalid_cells_skipped");
    }
    let n = e.items.len();
    let base = json!({ "n": n, "skipped_original": e.skipped_original, "skipped_released": e.skipped_released });
    let with = |r: MetricResult, details: serde_json::Value| {
        let mut r = r.with_details(details);
        r.warnings.clone_from(&warnings);
        r
    };
    if n == 0 {
        return (IDS.iter().map(|id| with(s.ctx.without_value(id, Status::NotApplicable, "no_pairs"), base.clone())).collect(), None);
    }
    let es = e.es();
    let (dm, de) = (manhattan(&es), euclidean(&es));
    let (mad, rmse) = (dm / n as f64, de / (n as f64).sqrt());
    let mut out: Vec<MetricResult> = IDS[..4].iter().zip([dm, de, mad, rmse]).map(|(id, v)| with(s.ctx.ok(id, v), base.clone())).collect();
    let mut details = base;
    details["norm"] = json!(s.params.proximity_norm);
    details["lmax_mode"] = json!(s.params.lmax_mode);
    details["mad"] = json!(mad);
    details["rmse"] = json!(rmse);
    let mut value = None;
    out.push(match lmax(s.a, s.params, &e.xs()) {
        Ok((lm, le)) => {
            let (err, l) = match s.params.proximity_norm {
                ProximityNorm::Manhattan => (mad, lm),
                ProximityNorm::Euclidean => (rmse, le),
            };
            details["lmax_m"] = json!(lm);
            details["lmax_e"] = json!(le);
            details["lmax"] = json!(l);
            value = crate::figures::finite(loss(err, l));
            with(s.ctx.ok("proximity_loss", loss(err, l)), details)
        }
        Err(reason) => with(s.ctx.without_value("proximity_loss", Status::NotApplicable, reason), details),
    });
    (out, value)
}

/// `proximity_loss_record_l1` and `proximity_loss_record_l2` over the numeric and date
/// attributes (Sec 3 vector form).
pub fn record_metrics(t: &Tables<'_>) -> Vec<MetricResult> {
    let ctx = t.context(FAMILY, None);
    let pairs = match t.pairing.pairs() {
        Ok(p) => p,
        Err(reason) => return RECORD_IDS.iter().map(|id| ctx.without_value(id, Status::Error, reason)).collect(),
    };
    let (mut sum1, mut sum2, mut count) = (vec![0.0; pairs.len()], vec![0.0; pairs.len()], vec![0u32; pairs.len()]);
    let (mut used, mut warnings) = (Vec::new(), Vec::new());
    for a in t.attributes.iter().filter(|a| a.is_numeric()) {
        let Some(p) = a.p.as_deref() else { continue };
        let e = errors(a, p, pairs);
        if e.items.is_empty() {
            continue;
        }
        let Ok((lm, _)) = lmax(a, t.params, &e.xs()) else {
            if !warnings.contains(&"lmax_undefined") {
                warnings.push("lmax_undefined");
            }
            continue;
        };
        if e.midpoint && !warnings.contains(&"midpoint_used") {
            warnings.push("midpoint_used");
        }
        for &(k, _, err) in &e.items {
            let v = loss(err, lm);
            sum1[k] += v;
            sum2[k] += v * v;
            count[k] += 1;
        }
        used.push(a.name.clone());
    }
    let records = count.iter().filter(|&&c| c > 0).count();
    let details = json!({ "records": records, "attributes": used });
    let done = |r: MetricResult| {
        let mut r = r.with_details(details.clone());
        r.warnings.clone_from(&warnings);
        r
    };
    if records == 0 {
        return RECORD_IDS.iter().map(|id| done(ctx.without_value(id, Status::NotApplicable, "no_pairs"))).collect();
    }
    let per = |f: &dyn Fn(usize) -> f64| neumaier((0..pairs.len()).filter(|&k| count[k] > 0).map(f)) / records as f64;
    let l1 = per(&|k| sum1[k] / f64::from(count[k]));
    let l2 = per(&|k| (sum2[k] / f64::from(count[k])).sqrt());
    vec![done(ctx.ok(RECORD_IDS[0], l1)), done(ctx.ok(RECORD_IDS[1], l2))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::rut::preimage::tests::{attribute, row_pairs};

    #[test]
    fn worked_examples_of_rut() {
        // G7.1: (1,2) vs (4,6): Manhattan 7, Euclidean 5.
        let e = [3.0, 4.0];
        assert_eq!(manhattan(&e), 7.0);
        assert_eq!(euclidean(&e), 5.0);
        // MAD of [5,10,15] vs [6,9,14]: 1.
        let a = attribute(&["5", "10", "15"], &["6", "9", "14"], AttributeSettings::default());
        let pairs = row_pairs(3);
        let params = UtilityParams::default();
        let (out, _) = metrics(&Subject::new(&a, Ok(&pairs), &params, 3, 3));
        let v = |id: &str| out.iter().find(|m| m.id == id).unwrap().value.as_f64().unwrap();
        assert_eq!(v("mad"), 1.0);
        assert_eq!(v("distance_manhattan"), 3.0);
        assert!((v("rmse") - 1.0).abs() < 1e-15);
        // Baseline Lmax_M: mean |x - 10| = 10/3.
        assert!((v("proximity_loss") - 0.3).abs() < 1e-15);
    }

    #[test]
    fn lmax_modes() {
        let mut params = UtilityParams { lmax_mode: LmaxMode::Rule, ..Default::default() };
        let a = attribute(&["5", "10"], &["0", "10"], AttributeSettings { rounding_unit: Some(10.0), ..Default::default() });
        assert_eq!(lmax(&a, &params, &[5.0, 10.0]), Ok((5.0, 5.0)));
        params.rounding_mode = RoundingMode::Floor;
        assert_eq!(lmax(&a, &params, &[5.0, 10.0]), Ok((10.0, 10.0)));
        let plain = attribute(&["5"], &["5"], AttributeSettings::default());
        assert_eq!(lmax(&plain, &params, &[5.0]), Err("no_rounding_unit"));
        params.lmax_mode = LmaxMode::Fixed;
        assert_eq!(lmax(&plain, &params, &[5.0]), Err("no_lmax_value"));
        params.lmax_value = Some(2.0);
        assert_eq!(lmax(&plain, &params, &[5.0]), Ok((2.0, 2.0)));
        assert_eq!((loss(0.0, 0.0), loss(1e-9, 0.0), loss(3.0, 2.0), loss(1.0, 4.0)), (0.0, 1.0, 1.0, 0.25));
    }

    #[test]
    fn ranges_enter_by_their_midpoint_and_blanks_are_skipped() {
        let a = attribute(&["34", "41", "", "50"], &["30-39", "*", "40", "x"], AttributeSettings::default());
        let pairs = row_pairs(4);
        let params = UtilityParams::default();
        let (out, _) = metrics(&Subject::new(&a, Ok(&pairs), &params, 4, 4));
        assert_eq!(out[0].value, json!(0.5));
        assert_eq!(out[0].details["n"], 1);
        assert_eq!(out[0].warnings, ["midpoint_used", "invalid_cells_skipped"]);
        let (out, _) = metrics(&Subject::new(&a, Err("row_count_mismatch"), &params, 4, 4));
        assert!(out.iter().all(|m| m.status == Status::Error && m.reason == Some("row_count_mismatch")));
    }
}
