//! `L_total`, `S_total` and `U` (spec utility.md Sec 7; \[RUT\] Sec 3.2, 3.3, Tables 7-8).
//!
//! Default component selection per attribute (reproduces \[RUT\] Table 7):
//!
//! | situation (`details.situation`) | loss | similarity |
//! |---|---|---|
//! | `numeric_generalized`: numeric/date, `P` has a `RANGE` (or digit mask) | `gen_loss` | `cosine_similarity` |
//! | `numeric`: numeric/date otherwise | `proximity_loss` | `cosine_similarity` |
//! | `digit_string_generalized`: categorical digit-string column, `P` has `MASK` or prefix-truncated cells | `gen_loss` | `jaccard_similarity` |
//! | `categorical_unchanged`: every non-blank `P` value in `Dom_O` | `entropy_loss` | `cosine_similarity` |
//! | `categorical_recoded`: otherwise | `entropy_loss` | `jaccard_similarity` |
//!
//! ```text
//! attribute_loss       = mean (option max) of the selected loss components with status ok
//! attribute_similarity = mean (option max) of the selected similarity components with status ok
//! l_total = sum_a w_a Lhat_a / sum_a w_a        (option: max over attributes with w_a > 0)
//! s_total = sum_a w_a S_a / sum_a w_a           (option: max)
//! utility_u = w_S s_total + (1 - w_S)(1 - l_total)
//! utility_ratio = s_total / l_total             (l_total = 0: null, division_by_zero, infinite)
//! ```
//! `w_a` = the attribute's declared `weight` (default 1; a negative or non-finite weight leaves
//! the attribute out with warning `invalid_weight`). A dropped attribute enters with loss 1 and
//! similarity 0. An attribute without a usable selected component is left out of that total
//! (warning `attribute_excluded_from_totals`, `details.excluded`); none left:
//! `not_applicable` (`no_usable_attribute`); all weights 0: `not_applicable`
//! (`zero_total_weight`). MAD and consistency loss are reported but not aggregated.
//!
//! | id | value | details |
//! |---|---|---|
//! | `attribute_loss`, `attribute_similarity` (per attribute) | `Lhat_a`, `S_a` | `situation`, `aggregation`, `components` (ids), `values` (parallel numbers), `skipped` (selected ids without value), `dropped` |
//! | `l_total`, `s_total` | in `[0,1]` | `aggregation`, `attributes` (`[{attribute, weight, value}]`), `excluded` |
//! | `utility_u` | in `[0,1]` | `w_s`, `w_l`, `l_total`, `s_total` |
//! | `utility_ratio` | `>= 0`, unbounded (never for ranking) | `l_total`, `s_total`, `infinite` |

use serde_json::{Value, json};

use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::utility::Tables;
use crate::utility::attribute::{Attribute, Typed};
use crate::utility::params::Aggregation;
use crate::utility::rut::preimage::Rule;
use crate::utility::rut::{FAMILY, Subject};

/// Which row of the selection table of Sec 7 an attribute falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    /// Numeric or date with a released range.
    NumericGeneralized,
    /// Numeric or date otherwise.
    Numeric,
    /// Categorical digit-string column with masks or prefix truncations.
    DigitStringGeneralized,
    /// Categorical, every non-blank released value in `Dom_O`.
    CategoricalUnchanged,
    /// Categorical, recoded.
    CategoricalRecoded,
}

impl Situation {
    /// Its name in `details.situation`.
    pub fn name(self) -> &'static str {
        match self {
            Situation::NumericGeneralized => "numeric_generalized",
            Situation::Numeric => "numeric",
            Situation::DigitStringGeneralized => "digit_string_generalized",
            Situation::CategoricalUnchanged => "categorical_unchanged",
            Situation::CategoricalRecoded => "categorical_recoded",
        }
    }

    /// The selected loss components.
    pub fn loss(self) -> &'static [Component] {
        match self {
            Situation::NumericGeneralized | Situation::DigitStringGeneralized => &[Component::GenLoss],
            Situation::Numeric => &[Component::ProximityLoss],
            Situation::CategoricalUnchanged | Situation::CategoricalRecoded => &[Component::EntropyLoss],
        }
    }

    /// The selected similarity components.
    pub fn similarity(self) -> &'static [Component] {
        match self {
            Situation::NumericGeneralized | Situation::Numeric | Situation::CategoricalUnchanged => &[Component::Cosine],
            Situation::DigitStringGeneralized | Situation::CategoricalRecoded => &[Component::Jaccard],
        }
    }
}

/// A component metric `attribute_loss` or `attribute_similarity` may combine (Sec 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    /// `gen_loss`.
    GenLoss,
    /// `proximity_loss`.
    ProximityLoss,
    /// `entropy_loss`.
    EntropyLoss,
    /// `cosine_similarity`.
    Cosine,
    /// `jaccard_similarity`.
    Jaccard,
}

impl Component {
    /// Its id, as `details.components` and `details.skipped` name it.
    pub fn id(self) -> &'static str {
        match self {
            Component::GenLoss => "gen_loss",
            Component::ProximityLoss => "proximity_loss",
            Component::EntropyLoss => "entropy_loss",
            Component::Cosine => "cosine_similarity",
            Component::Jaccard => "jaccard_similarity",
        }
    }
}

/// The values of an attribute's components, handed over by the measures that compute them
/// (`None`: the component has no value).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Components {
    /// `gen_loss` ([`gen_loss::metrics`](super::gen_loss::metrics)).
    pub gen_loss: Option<f64>,
    /// `proximity_loss` ([`proximity::metrics`](super::proximity::metrics)).
    pub proximity_loss: Option<f64>,
    /// `entropy_loss` ([`entropy::metrics`](super::entropy::metrics)).
    pub entropy_loss: Option<f64>,
    /// `cosine_similarity` and `jaccard_similarity` ([`similarity::metrics`](super::similarity::metrics)).
    pub similarity: [Option<f64>; 2],
}

impl Components {
    /// The value of component `c`.
    fn of(&self, c: Component) -> Option<f64> {
        match c {
            Component::GenLoss => self.gen_loss,
            Component::ProximityLoss => self.proximity_loss,
            Component::EntropyLoss => self.entropy_loss,
            Component::Cosine => self.similarity[0],
            Component::Jaccard => self.similarity[1],
        }
    }
}

/// The situation of a released attribute (Sec 7 table).
pub fn situation(s: &Subject<'_>) -> Situation {
    let a = s.a;
    let mut released = (2..a.values.len() as u32).filter(|&c| a.p_count[c as usize] > 0);
    if s.numeric() {
        return if released.any(|c| a.is_range(c)) { Situation::NumericGeneralized } else { Situation::Numeric };
    }
    let masked = |c: u32| a.typed[c as usize] == Typed::Mask || s.pre.as_ref().is_some_and(|p| p.rule(c) == Rule::Prefix);
    if a.digit_len.is_some() && released.clone().any(masked) {
        Situation::DigitStringGeneralized
    } else if released.all(|c| a.in_dom_o(c)) {
        Situation::CategoricalUnchanged
    } else {
        Situation::CategoricalRecoded
    }
}

/// What an attribute brings to the totals.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Attribute name.
    pub name: String,
    /// `w_a`.
    pub weight: Option<f64>,
    /// `Lhat_a`, if a selected loss component has a value.
    pub loss: Option<f64>,
    /// `S_a`, if a selected similarity component has a value.
    pub similarity: Option<f64>,
}

impl Summary {
    /// A dropped attribute: loss 1, similarity 0.
    pub fn dropped(a: &Attribute) -> Self {
        Summary { name: a.name.clone(), weight: weight(a), loss: Some(1.0), similarity: Some(0.0) }
    }
}

/// `w_a`: the declared weight, default 1; `None` when negative or not finite.
fn weight(a: &Attribute) -> Option<f64> {
    let w = a.settings.weight.unwrap_or(1.0);
    (w.is_finite() && w >= 0.0).then_some(w)
}

/// Mean or max of values (`None` when empty).
fn aggregate(values: &[f64], how: Aggregation) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    Some(match how {
        Aggregation::Mean => neumaier(values.iter().copied()) / values.len() as f64,
        Aggregation::Max => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    })
}

fn how(a: Aggregation) -> &'static str {
    match a {
        Aggregation::Mean => "mean",
        Aggregation::Max => "max",
    }
}

/// One combined result (`attribute_loss` or `attribute_similarity`) from the selected
/// components.
fn combine(
    ctx: &Context,
    id: &'static str,
    selected: &[Component],
    given: &Components,
    how_: Aggregation,
    situation: Situation,
) -> (Option<f64>, MetricResult) {
    let (mut components, mut values, mut skipped) = (Vec::new(), Vec::new(), Vec::new());
    for &c in selected {
        match given.of(c) {
            Some(v) => {
                components.push(c.id());
                values.push(v);
            }
            None => skipped.push(c.id()),
        }
    }
    let v = aggregate(&values, how_);
    let details = json!({
        "situation": situation.name(), "aggregation": how(how_), "components": components,
        "values": values, "skipped": skipped, "dropped": false,
    });
    let r = match v {
        Some(v) => ctx.ok(id, v),
        None => ctx.without_value(id, Status::NotApplicable, "no_usable_component"),
    };
    (v, r.with_details(details))
}

/// `attribute_loss` and `attribute_similarity` of a released attribute, from its components.
pub fn attribute(s: &Subject<'_>, given: &Components) -> (Summary, Vec<MetricResult>) {
    let sit = situation(s);
    let agg = s.params.component_aggregation;
    let (loss, l) = combine(&s.ctx, "attribute_loss", sit.loss(), given, agg, sit);
    let (similarity, m) = combine(&s.ctx, "attribute_similarity", sit.similarity(), given, agg, sit);
    (Summary { name: s.a.name.clone(), weight: weight(s.a), loss, similarity }, vec![l, m])
}

/// One total over the attributes: the value or the reason, the details and the warnings.
fn total(entries: &[(&str, Option<f64>, Option<f64>)], how_: Aggregation) -> (Result<f64, &'static str>, Value, Vec<&'static str>) {
    let (mut used, mut excluded, mut warnings) = (Vec::new(), Vec::new(), Vec::new());
    for &(name, w, v) in entries {
        match (w, v) {
            (Some(w), Some(v)) => used.push((name, w, v)),
            (None, _) => {
                excluded.push(name);
                if !warnings.contains(&"invalid_weight") {
                    warnings.push("invalid_weight");
                }
            }
            (_, None) => {
                excluded.push(name);
                if !warnings.contains(&"attribute_excluded_from_totals") {
                    warnings.push("attribute_excluded_from_totals");
                }
            }
        }
    }
    let listed: Vec<Value> = used.iter().map(|(n, w, v)| json!({ "attribute": n, "weight": w, "value": v })).collect();
    let details = json!({ "aggregation": how(how_), "attributes": listed, "excluded": excluded });
    let value = if used.is_empty() {
        Err("no_usable_attribute")
    } else {
        let sum_w = neumaier(used.iter().map(|u| u.1));
        match how_ {
            _ if sum_w <= 0.0 => Err("zero_total_weight"),
            Aggregation::Mean => Ok((neumaier(used.iter().map(|u| u.1 * u.2)) / sum_w).clamp(0.0, 1.0)),
            Aggregation::Max => Ok(used.iter().filter(|u| u.1 > 0.0).map(|u| u.2).fold(f64::NEG_INFINITY, f64::max)),
        }
    };
    (value, details, warnings)
}

/// `l_total`, `s_total`, `utility_u` and `utility_ratio`; and `utility_u`'s value.
pub fn metrics(t: &Tables<'_>, summaries: &[Summary]) -> (Vec<MetricResult>, Option<f64>) {
    let ctx = t.context(FAMILY, None);
    let how_ = t.params.total_aggregation;
    let entries = |f: fn(&Summary) -> Option<f64>| summaries.iter().map(|s| (s.name.as_str(), s.weight, f(s))).collect::<Vec<_>>();
    let mut out = Vec::new();
    let mut values = Vec::new();
    for (id, f) in [("l_total", (|s: &Summary| s.loss) as fn(&Summary) -> Option<f64>), ("s_total", |s: &Summary| s.similarity)] {
        let (v, details, warnings) = total(&entries(f), how_);
        let mut r = match v {
            Ok(v) => ctx.ok(id, v),
            Err(reason) => ctx.without_value(id, Status::NotApplicable, reason),
        };
        r = r.with_details(details);
        r.warnings = warnings;
        out.push(r);
        values.push(v);
    }
    let (w_s, w_l) = (t.params.similarity_weight, 1.0 - t.params.similarity_weight);
    let both = values[0].and_then(|l| values[1].map(|s| (l, s)));
    let mut utility_u = None;
    out.push(match both {
        _ if !(0.0..=1.0).contains(&w_s) => ctx.without_value("utility_u", Status::NotApplicable, "invalid_similarity_weight"),
        Ok((l, s)) => {
            let u = (w_s * s + w_l * (1.0 - l)).clamp(0.0, 1.0);
            utility_u = crate::figures::finite(u);
            ctx.ok("utility_u", u).with_details(json!({ "w_s": w_s, "w_l": w_l, "l_total": l, "s_total": s }))
        }
        Err(reason) => ctx.without_value("utility_u", Status::NotApplicable, reason),
    });
    out.push(match both {
        Ok((l, s)) if l > 0.0 => ctx.ok("utility_ratio", s / l).with_details(json!({ "l_total": l, "s_total": s, "infinite": false })),
        Ok((l, s)) => ctx
            .without_value("utility_ratio", Status::NotApplicable, "division_by_zero")
            .with_details(json!({ "l_total": l, "s_total": s, "infinite": s > 0.0 })),
        Err(reason) => ctx.without_value("utility_ratio", Status::NotApplicable, reason),
    });
    (out, utility_u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_weigh_and_exclude() {
        let e = [("a", Some(1.0), Some(0.2)), ("b", Some(3.0), Some(0.6)), ("c", Some(1.0), None), ("d", None, Some(1.0))];
        let (v, details, warnings) = total(&e, Aggregation::Mean);
        assert!((v.unwrap() - (0.2 + 1.8) / 4.0).abs() < 1e-15);
        assert_eq!(details["excluded"], json!(["c", "d"]));
        assert_eq!(warnings, ["attribute_excluded_from_totals", "invalid_weight"]);
        assert_eq!(total(&e, Aggregation::Max).0, Ok(0.6));
        assert_eq!(total(&[("a", Some(0.0), Some(0.5))], Aggregation::Mean).0, Err("zero_total_weight"));
        assert_eq!(total(&[("a", Some(1.0), None)], Aggregation::Mean).0, Err("no_usable_attribute"));
        assert_eq!(aggregate(&[0.2, 0.4], Aggregation::Max), Some(0.4));
        assert_eq!(aggregate(&[], Aggregation::Mean), None);
    }
}
