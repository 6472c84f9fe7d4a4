//! The \[RUT\] utility measures (spec utility.md Sec 1-7) and ARX's quality models (Sec 9):
//! how much information each utility attribute keeps, and the totals `L_total`, `S_total`
//! and `U`.
//!
//! - Sec 1 `pre(t)`, Sec 2 `|GR(t)|`: [`preimage`].
//! - Sec 2 generalization loss: [`gen_loss`].
//! - Sec 3 distances, MAD, proximity loss: [`proximity`].
//! - Sec 4 entropy loss: [`entropy`].
//! - Sec 5 consistency loss: [`consistency`].
//! - Sec 6 frequency vectors, cosine and Jaccard similarity: [`similarity`].
//! - Sec 7 component selection, attribute loss and similarity, totals, `U`: [`totals`].
//! - Sec 9 ARX quality models (family `utility_arx`): [`arx`] per QI, [`arx_classes`] over the
//!   equivalence classes (`aecs`, `discernibility`).
//!
//! Results (family `utility_rut`). Per utility attribute, in `O`'s column order, with
//! `scope.attribute` = the attribute; `value` is a number unless stated:
//!
//! | id | value | details |
//! |---|---|---|
//! | `gen_loss`, `gen_loss_ncp` | mean cell loss | `cells`, `generalized`, `blank`, `invalid_skipped`, `counted`; ncp: `dom` |
//! | `distance_manhattan`, `distance_euclidean`, `mad`, `rmse` | distance over aligned pairs | `n` (pairs used), `skipped_original`, `skipped_released` |
//! | `proximity_loss` | `min(1, mad/Lmax_M)` or `min(1, rmse/Lmax_E)` | `n`, `norm`, `lmax_mode`, `lmax_m`, `lmax_e`, `lmax` (the one used), `mad`, `rmse` |
//! | `entropy_original`, `entropy_released` | bits | `n` (rows), `distinct` (values) |
//! | `entropy_difference`, `entropy_loss` | bits; relative loss in `[0,1]` | `entropy_original`, `entropy_released` |
//! | `consistency_loss` | share of inconsistent rows | `rows`, `inconsistent`, `values` |
//! | `cosine_similarity`, `jaccard_similarity` | similarity of the frequency vectors of Sec 6.1 | categorical: `support`, `p_blank`, `q_blank`, `p_unmatched`, `q_unmatched`, `p`/`q` label maps (up to 50 values); numeric/date: `G`, `B`, `wg`, blank and unmatched shares, `p`/`q` bin arrays (up to 100 bins) |
//! | `jaccard_set` | `|D_O ∩ D_P| / |D_O ∪ D_P|` | `original`, `released`, `common` |
//! | `attribute_loss`, `attribute_similarity` | `Lhat_a`, `S_a` | `situation`, `aggregation`, `components` (ids), `values` (parallel), `skipped` (selected ids without value), `dropped` |
//!
//! Numeric-only ids of a categorical attribute are `not_applicable` (`not_numeric`); every
//! component of a dropped attribute is `not_applicable` (`attribute_dropped`) while its
//! `attribute_loss` is 1 and `attribute_similarity` 0. Paired ids are `error` with the
//! pairing's reason when rows cannot be aligned. Then, with `scope.attribute = null`:
//!
//! | id | value | details |
//! |---|---|---|
//! | `proximity_loss_record_l1`, `proximity_loss_record_l2` | mean over records | `records`, `attributes` |
//! | `l_total`, `s_total` | weighted mean (or max) | `aggregation`, `attributes` (`[{attribute, weight, value}]`), `excluded` |
//! | `utility_u` | `w_S s_total + w_L (1 - l_total)` | `w_s`, `w_l`, `l_total`, `s_total` |
//! | `utility_ratio` | `s_total / l_total` (`null` + `division_by_zero`, `infinite` when `l_total = 0`) | `l_total`, `s_total`, `infinite` |

pub mod arx;
pub mod arx_classes;
pub mod consistency;
pub mod entropy;
pub mod gen_loss;
pub mod preimage;
pub mod proximity;
pub mod similarity;
pub mod totals;

use serde_json::json;

use crate::metric::{Context, MetricResult, Scope, Status};
use crate::utility::Tables;
use crate::utility::attribute::Attribute;
use crate::utility::params::UtilityParams;
use preimage::Preimages;

/// Family of the \[RUT\] results.
pub const FAMILY: &str = "utility_rut";

/// Ids of an attribute's component metrics, in output order.
pub const COMPONENTS: [&str; 15] = [
    "gen_loss",
    "gen_loss_ncp",
    "distance_manhattan",
    "distance_euclidean",
    "mad",
    "rmse",
    "proximity_loss",
    "entropy_original",
    "entropy_released",
    "entropy_difference",
    "entropy_loss",
    "consistency_loss",
    "cosine_similarity",
    "jaccard_similarity",
    "jaccard_set",
];

/// One released attribute with what several measures share.
pub struct Subject<'a> {
    /// The attribute.
    pub a: &'a Attribute,
    /// Its release: per row of `P`, the code.
    pub p: &'a [u32],
    /// The aligned rows, or why there are none.
    pub pairs: Result<&'a [(u32, u32)], &'static str>,
    /// `pre(t)` of a categorical attribute.
    pub pre: Option<Preimages>,
    /// Every code, sorted by value (blanks first): sums run in this order, so they do not
    /// depend on the order of the rows (README Sec 9).
    pub order: Vec<u32>,
    /// Scope and parameters of the results.
    pub ctx: Context,
    /// The settings.
    pub params: &'a UtilityParams,
    /// Rows of `O`.
    pub n_o: usize,
    /// Rows of `P`.
    pub n_p: usize,
}

impl<'a> Subject<'a> {
    /// Attribute `a`, which `P` has (`a.p` is `Some`).
    pub fn new(a: &'a Attribute, pairs: Result<&'a [(u32, u32)], &'static str>, params: &'a UtilityParams, n_o: usize, n_p: usize) -> Self {
        let p = a.p.as_deref().expect("a released attribute");
        let pre = a.kind.is_label().then(|| Preimages::new(a, p, pairs.ok()));
        let mut order: Vec<u32> = (0..a.values.len() as u32).collect();
        order.sort_unstable_by(|&x, &y| a.values.sort_key(x).cmp(&a.values.sort_key(y)));
        let ctx = Context {
            family: FAMILY,
            scope: Scope { table: "P", quasi_identifiers: Vec::new(), sensitive: None, attribute: Some(a.name.clone()), subset: None },
            params: json!({}),
        };
        Subject { a, p, pairs, pre, order, ctx, params, n_o, n_p }
    }

    /// Whether the attribute is numeric or date.
    pub fn numeric(&self) -> bool {
        self.a.is_numeric()
    }

    /// `error` results for paired metrics when rows cannot be aligned.
    pub fn unpaired(&self, ids: &[&'static str], reason: &'static str) -> Vec<MetricResult> {
        ids.iter().map(|id| self.ctx.without_value(id, Status::Error, reason)).collect()
    }
}

/// Every \[RUT\] metric (family `utility_rut`) and ARX quality model (family `utility_arx`)
/// of `P` against `O`; and `utility_u`'s value.
pub fn metrics(t: &Tables<'_>) -> (Vec<MetricResult>, Option<f64>) {
    let mut out = Vec::new();
    let mut summaries = Vec::new();
    let mut quality = Vec::new();
    let mut model_losses = Vec::new();
    for a in &t.attributes {
        let ctx = t.context(FAMILY, Some(&a.name));
        if a.p.is_none() {
            out.extend(dropped(t, a, &ctx));
            summaries.push(totals::Summary::dropped(a));
            continue;
        }
        let mut s = Subject::new(a, t.pairing.pairs(), t.params, t.n_o, t.n_p);
        s.ctx = ctx;
        let (mut results, gen_loss) = gen_loss::metrics(&s);
        let (proximity, proximity_loss) = proximity::metrics(&s);
        results.extend(proximity);
        let (entropy, entropy_loss) = entropy::metrics(&s);
        results.extend(entropy);
        results.extend(consistency::metrics(&s));
        let (similarity, similarities) = similarity::metrics(&s);
        results.extend(similarity);
        let given = totals::Components { gen_loss, proximity_loss, entropy_loss, similarity: similarities };
        let (summary, combined) = totals::attribute(&s, &given);
        summaries.push(summary);
        out.extend(results);
        out.extend(combined);
        if t.qi.contains(&a.name) {
            let (models, losses) = arx::attribute(&s);
            quality.extend(models);
            model_losses.push(losses);
        }
    }
    out.extend(proximity::record_metrics(t));
    let (totals, utility_u) = totals::metrics(t, &summaries);
    out.extend(totals);
    let averages = arx::averages(t, &model_losses);
    out.extend(quality);
    out.extend(averages);
    out.extend(arx_classes::metrics(t, t.exclude_suppressed_rows));
    (out, utility_u)
}

/// The results of an attribute `P` lacks (Sec 1): components `not_applicable`
/// (`attribute_dropped`), `entropy_original` of `O`, loss 1 and similarity 0.
fn dropped(t: &Tables<'_>, a: &Attribute, ctx: &Context) -> Vec<MetricResult> {
    let mut out: Vec<MetricResult> = COMPONENTS
        .iter()
        .map(|&id| match id {
            "entropy_original" => entropy::original(a, t.n_o, ctx),
            _ => ctx.without_value(id, Status::NotApplicable, "attribute_dropped"),
        })
        .collect();
    let details = json!({ "dropped": true, "components": [], "values": [], "skipped": [] });
    out.push(ctx.ok("attribute_loss", 1.0).with_details(details.clone()));
    out.push(ctx.ok("attribute_similarity", 0.0).with_details(details));
    out
}
