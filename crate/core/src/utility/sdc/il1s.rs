//! IL1s (spec utility.md Sec 8.4; \[SDCG\]) — paired, numeric attributes:
//! `il1s = (1/p') sum_j (1/n_j) sum_{i in I_j} |x_ij - z_ij| / (sqrt 2 S_j)` with `S_j` the
//! sample standard deviation of `O`'s column over all its values, `I_j` the aligned pairs with
//! both cells valued and `z = rep(P)`. Variables with `S_j = 0`, fewer than 2 original values
//! or `n_j = 0` are left out (warning `attributes_excluded`). The sdcMicro parity variants:
//! `il1s_sdcmicro_sum = sum_j sum_i |x - z| / (sqrt 2 S_j)` (over the kept variables) and
//! `il1_relpct_sum = sum_j sum_{x != 0} 100 |x - z| / |x|` (over every variable with pairs).

use serde_json::json;

use crate::metric::{MetricResult, Status};
use crate::utility::Tables;
use crate::utility::sdc::statistics::Moments;
use crate::utility::sdc::{Numeric, Sum, context, unpaired, with_pairing};

/// One variable's share of IL1s.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Name.
    pub name: String,
    /// `S_j`; `None` with fewer than 2 original values.
    pub s: Option<f64>,
    /// `n_j`.
    pub pairs: u64,
    /// `sum_i |x_ij - z_ij|`.
    pub abs: f64,
    /// `sum_{x != 0} 100 |x - z| / |x|`.
    pub relpct: f64,
}

impl Part {
    /// The part of aligned value pairs `(x, z)` (non-finite = no value) with `S_j` = `s`.
    pub fn new(name: &str, s: Option<f64>, pairs: impl IntoIterator<Item = (f64, f64)>) -> Part {
        let (mut abs, mut rel, mut n) = (Sum::default(), Sum::default(), 0u64);
        for (x, z) in pairs.into_iter().filter(|(x, z)| x.is_finite() && z.is_finite()) {
            let d = (x - z).abs();
            abs.add(d);
            if x != 0.0 {
                rel.add(100.0 * d / x.abs());
            }
            n += 1;
        }
        Part { name: name.to_string(), s, pairs: n, abs: abs.value(), relpct: rel.value() }
    }

    /// `sum_i |x - z| / (sqrt 2 S_j)`, or why the variable is left out.
    pub fn contribution(&self) -> Result<f64, &'static str> {
        match self.s {
            None => Err("fewer_than_2_values"),
            Some(s) if s.is_nan() || s <= 0.0 => Err("zero_variance"),
            _ if self.pairs == 0 => Err("no_pairs"),
            Some(s) => Ok(self.abs / (std::f64::consts::SQRT_2 * s)),
        }
    }
}

/// IL1s and its variants over the parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Il1s {
    /// `il1s`; `None` when no variable is kept.
    pub value: Option<f64>,
    /// `il1s_sdcmicro_sum`.
    pub sdcmicro_sum: f64,
    /// `il1_relpct_sum`.
    pub relpct_sum: f64,
    /// Variables kept (`p'`).
    pub kept: usize,
}

/// Combines the parts (Sec 8.4).
pub fn il1s(parts: &[Part]) -> Il1s {
    let (mut per, mut sum) = (Vec::new(), Sum::default());
    for part in parts {
        if let Ok(c) = part.contribution() {
            per.push(c / part.pairs as f64);
            sum.add(c);
        }
    }
    let value = (!per.is_empty()).then(|| crate::numeric::neumaier(per.iter().copied()) / per.len() as f64);
    let relpct_sum = crate::numeric::neumaier(parts.iter().map(|p| p.relpct));
    Il1s { value, sdcmicro_sum: sum.value(), relpct_sum, kept: per.len() }
}

/// The sample standard deviation of the non-NaN values of `x`.
pub fn sample_sd(x: &[f64]) -> Option<f64> {
    let v: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    let count = vec![1u64; v.len()];
    Moments::of_counts(&v, &count).var.map(f64::sqrt)
}

/// `il1s`, `il1s_sdcmicro_sum`, `il1_relpct_sum`.
pub(crate) fn metrics(t: &Tables<'_>, numeric: &Numeric<'_>) -> Vec<MetricResult> {
    const IDS: [&str; 3] = ["il1s", "il1s_sdcmicro_sum", "il1_relpct_sum"];
    let ctx = context(t, None);
    let pairs = match t.pairing.pairs() {
        Ok(p) => p,
        Err(reason) => return IDS.iter().map(|id| unpaired(&ctx, id, reason, t)).collect(),
    };
    let parts: Vec<Part> = numeric
        .columns
        .iter()
        .map(|c| {
            let s = Moments::of_counts(&c.rep, &c.a.o_count).var.map(f64::sqrt);
            Part::new(&c.a.name, s, pairs.iter().map(|&(i, j)| (c.o(i as usize), c.p(j as usize))))
        })
        .collect();
    let r = il1s(&parts);
    let mut attributes = serde_json::Map::new();
    let mut excluded = serde_json::Map::new();
    for part in &parts {
        match part.contribution() {
            Ok(c) => {
                attributes.insert(part.name.clone(), json!({ "s": part.s, "pairs": part.pairs, "value": c / part.pairs as f64, "sum": c }));
            }
            Err(reason) => {
                excluded.insert(part.name.clone(), json!(reason));
            }
        }
    }
    let details = json!({ "attributes": attributes, "excluded": excluded, "kept": r.kept, "dropped": numeric.dropped_names() });
    let rel_details = json!({
        "attributes": parts.iter().filter(|p| p.pairs > 0).map(|p| (p.name.clone(), json!({ "pairs": p.pairs, "sum": p.relpct }))).collect::<serde_json::Map<_, _>>(),
        "dropped": numeric.dropped_names(),
    });
    let warn = |mut m: MetricResult, excluded: bool| {
        if numeric.midpoint_used() {
            m = m.with_warning("midpoint_used");
        }
        if excluded {
            m = m.with_warning("attributes_excluded");
        }
        with_pairing(m, t)
    };
    let has_excluded = !excluded.is_empty();
    let Some(value) = r.value else {
        let reason = if parts.is_empty() { "no_numeric_attributes" } else { "no_usable_attributes" };
        return vec![
            warn(ctx.without_value("il1s", Status::NotApplicable, reason).with_details(details.clone()), has_excluded),
            warn(ctx.without_value("il1s_sdcmicro_sum", Status::NotApplicable, reason).with_details(details), has_excluded),
            if parts.iter().any(|p| p.pairs > 0) {
                warn(ctx.ok("il1_relpct_sum", r.relpct_sum).with_details(rel_details), false)
            } else {
                warn(ctx.without_value("il1_relpct_sum", Status::NotApplicable, reason).with_details(rel_details), false)
            },
        ];
    };
    vec![
        warn(ctx.ok("il1s", value).with_details(details.clone()), has_excluded),
        warn(ctx.ok("il1s_sdcmicro_sum", r.sdcmicro_sum).with_details(details), has_excluded),
        warn(ctx.ok("il1_relpct_sum", r.relpct_sum).with_details(rel_details), false),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(x: &[[f64; 2]], z: &[[f64; 2]]) -> Vec<Part> {
        (0..2)
            .map(|j| {
                let xj: Vec<f64> = x.iter().map(|r| r[j]).collect();
                Part::new("v", sample_sd(&xj), x.iter().zip(z).map(|(a, b)| (a[j], b[j])))
            })
            .collect()
    }

    /// Golden G7.2 small vectors.
    #[test]
    fn sdcg_small_vectors() {
        let x = [[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]];
        let z = [[1.0, 12.0], [3.0, 20.0], [3.0, 27.0], [5.0, 40.0]];
        let p = parts(&x, &z);
        assert!((p[0].s.unwrap() - 1.290994449).abs() < 1e-9 && (p[1].s.unwrap() - 12.90994449).abs() < 1e-8);
        let r = il1s(&p);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        assert!(close(r.value.unwrap(), 0.17116329922036438), "{r:?}");
        assert!(close(r.sdcmicro_sum, 1.369306393762915), "{r:?}");
        let x2 = [[1.0, 10.0], [2.0, 25.0], [3.0, 28.0], [4.0, 40.0]];
        assert!(close(il1s(&parts(&x2, &z)).value.unwrap(), 0.19423746488241678));
        assert!(close(il1s(&parts(&x, &x)).value.unwrap(), 0.0));
    }

    #[test]
    fn exclusions() {
        assert_eq!(Part::new("c", Some(0.0), [(1.0, 2.0)]).contribution(), Err("zero_variance"));
        assert_eq!(Part::new("c", None, [(1.0, 2.0)]).contribution(), Err("fewer_than_2_values"));
        assert_eq!(Part::new("c", Some(1.0), [(f64::NAN, 2.0)]).contribution(), Err("no_pairs"));
        assert_eq!(il1s(&[Part::new("c", None, [(1.0, 2.0)])]).value, None);
    }
}
