//! Utility and information loss (spec utility.md): how much of the original table `O` a
//! release `P` preserves.
//!
//! - The inputs: [`capture`] keeps both tables' columns row by row, [`pairing`] aligns their
//!   rows (README Sec 8), [`attribute`] reads each utility attribute in its kind with the
//!   resolution, domain and hierarchy the metrics need (Sec 1); [`params`] holds the settings.
//! - Sec 2-7 (\[RUT\]: generalization, proximity, entropy and consistency loss, similarity,
//!   `L_total`, `S_total`, `U`): [`rut`].
//! - Sec 8 (\[SDCG\]: cells, CTBIL, statistics, IL1s, eigenvalues): [`sdc`].
//! - Sec 10 (query accuracy): [`query`].
//! - Sec 11 (permutation model \[PERM\]): [`permutation`], on the matrices of [`linalg`].

pub mod attribute;
pub mod capture;
pub mod forward;
pub mod linalg;
pub mod pairing;
pub mod params;
pub mod permutation;
pub mod query;
pub mod row_order;
pub mod rut;
pub mod sdc;

use serde_json::json;

use std::collections::BTreeMap;

use crate::ingest::cell::Normaliser;
use crate::metric::{Context, MetricResult, Scope};
use crate::table::classes::MissingPolicy;
use attribute::{Attribute, AttributeSettings};
use capture::Captured;
use pairing::Pairing;
use params::UtilityParams;

/// Everything the utility metrics read: the attributes of `O` joined with `P`, the row
/// pairing, the roles and the settings.
pub struct Tables<'a> {
    /// The utility attributes, in `O`'s column order (README Sec 3).
    pub attributes: Vec<Attribute>,
    /// Rows of `O`.
    pub n_o: usize,
    /// Rows of `P`.
    pub n_p: usize,
    /// The aligned rows.
    pub pairing: Pairing,
    /// The QIs, in column order.
    pub qi: &'a [String],
    /// The sensitive attributes.
    pub sensitive: &'a [String],
    /// The settings.
    pub params: &'a UtilityParams,
    /// The missing-value policy, reported in every result (README Sec 7).
    pub missing_policy: MissingPolicy,
    /// Whether rows whose QI cells are all `SUPPRESSED` leave the risk scope
    /// (identity-risk.md Sec 1; ARX's table-level models, Sec 9).
    pub exclude_suppressed_rows: bool,
}

/// What the utility metrics are computed from: the captured `O` and `P`, the roles and the
/// settings.
pub struct UtilityInput<'a> {
    /// The original table `O`.
    pub original: &'a Captured,
    /// The released table `P`.
    pub released: &'a Captured,
    /// The QIs, in column order.
    pub qi: &'a [String],
    /// The sensitive attributes.
    pub sensitive: &'a [String],
    /// Declared kind, resolution, domain, rounding unit, weight and hierarchy per attribute.
    pub attributes: &'a BTreeMap<String, AttributeSettings>,
    /// The utility settings.
    pub params: &'a UtilityParams,
    /// The missing-value policy.
    pub missing_policy: MissingPolicy,
    /// Whether rows whose QI cells are all `SUPPRESSED` leave the risk scope.
    pub exclude_suppressed_rows: bool,
    /// The normalisation of cells (spec README Sec 5).
    pub norm: &'a Normaliser,
}

impl<'a> Tables<'a> {
    /// Joins the captured tables (README Sec 3, 8; utility.md Sec 1).
    pub fn new(input: &UtilityInput<'a>) -> Self {
        let (o, p) = (input.original, input.released);
        let attributes = o
            .names
            .iter()
            .zip(&o.columns)
            .map(|(name, column)| {
                let settings = input.attributes.get(name).cloned().unwrap_or_default();
                let mut a = Attribute::new(name, column, p.column(name), settings, input.norm);
                a.weigh(o.weights.as_deref(), p.weights.as_deref());
                a
            })
            .collect();
        Tables {
            attributes,
            n_o: o.rows(),
            n_p: p.rows(),
            pairing: Pairing::new(o, p),
            qi: input.qi,
            sensitive: input.sensitive,
            params: input.params,
            missing_policy: input.missing_policy,
            exclude_suppressed_rows: input.exclude_suppressed_rows,
        }
    }

    /// The attribute named `name`.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The context of a family's results; `attribute` narrows the scope to one attribute.
    pub fn context(&self, family: &'static str, attribute: Option<&str>) -> Context {
        Context {
            family,
            scope: Scope { table: "P", quasi_identifiers: self.qi.to_vec(), sensitive: None, attribute: attribute.map(str::to_string), subset: None },
            params: json!({ "missing_policy": self.missing_policy }),
        }
    }
}

/// Every utility metric of `P` against `O`, and `utility_u`'s value.
pub fn finish(input: &UtilityInput<'_>) -> (Vec<MetricResult>, Option<f64>) {
    let t = Tables::new(input);
    let (mut out, utility_u) = rut::metrics(&t);
    out.extend(sdc::metrics(&t));
    out.extend(query::metrics(&t));
    out.extend(permutation_metrics(&t));
    out.push(row_order::metric(&t.context("row_order", None), &t.pairing, t.params.row_order_threshold));
    (out, utility_u)
}

/// The permutation model over the numeric, date and ordinal attributes both tables hold
/// (Sec 11.1), each cell read as `rep(t)` or, ordinal, as its position in the declared order
/// (NaN when blank, invalid, or a label the order lacks: the row is left out, Sec 11.1).
fn permutation_metrics(t: &Tables<'_>) -> Vec<MetricResult> {
    let chosen = |a: &Attribute| t.params.permutation_columns.is_empty() || t.params.permutation_columns.contains(&a.name);
    let (mut names, mut skipped, mut xs, mut ys) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for a in t.attributes.iter().filter(|a| chosen(a)) {
        let order = a.settings.order.as_deref().filter(|_| a.kind == crate::table::kind::Kind::Ordinal);
        match (&a.p, order) {
            (Some(p), Some(order)) => {
                let position = |c: u32| {
                    let label = a.values.display(c).filter(|_| matches!(a.typed[c as usize], attribute::Typed::Label));
                    label.and_then(|l| order.iter().position(|o| o == l)).map_or(f64::NAN, |i| i as f64)
                };
                let by_code: Vec<f64> = (0..a.values.len() as u32).map(position).collect();
                let values = |codes: &[u32]| codes.iter().map(|&c| by_code[c as usize]).collect::<Vec<f64>>();
                xs.push(values(&a.o));
                ys.push(values(p));
                names.push(a.name.clone());
            }
            (Some(p), None) if a.is_numeric() => {
                let values = |codes: &[u32]| codes.iter().map(|&c| a.rep(c).unwrap_or(f64::NAN)).collect::<Vec<f64>>();
                xs.push(values(&a.o));
                ys.push(values(p));
                names.push(a.name.clone());
            }
            _ => skipped.push(a.name.clone()),
        }
    }
    let mut ctx = t.context("permutation", None);
    ctx.params["ties"] = json!("average_ranks");
    ctx.params["seed"] = json!(t.params.seed);
    let mut out = permutation::metrics(&ctx, &xs, &ys, &names, t.pairing.pairs());
    for m in &mut out {
        if let (Some(d), Some(extra)) = (m.details.as_object_mut(), t.pairing.details.as_object()) {
            d.extend(extra.clone());
            if !skipped.is_empty() {
                d.insert("non_numeric_columns_skipped".into(), json!(skipped));
            }
        }
    }
    out
}
