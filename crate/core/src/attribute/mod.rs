//! Attribute disclosure (spec attribute-risk.md): what the released file reveals about a
//! sensitive attribute (SA) through the equivalence classes: l-diversity, t-closeness,
//! beta-likeness, delta-disclosure, (alpha,k)-anonymity and SCORR's correlation risk.
//!
//! The streaming part counts records per (class, SA value) in the same pass as the classes;
//! everything else is computed from those counts at the end.

pub mod closeness;
pub mod correlation;
pub mod distribution;
pub mod diversity;
pub mod likeness;
pub mod pairs;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::hash::{Map, map};
use crate::table::classes::MissingPolicy;
use crate::table::classes::{ClassTable, Remap};
use crate::table::dictionary::Dictionary;
use crate::identity::persons::Persons;
use crate::ingest::cell::Cell;
use crate::metric::{Context, MetricResult, Scope, Status, min_mean_max};
use distribution::Distributions;

/// How many classes `details` lists (worst ones, or those over a threshold).
const LISTED: usize = 20;

/// Settings of the attribute family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AttributeParams {
    /// `l` of `recursive_cl_c` (Sec 2).
    pub recursive_l: usize,
    /// `c` of `recursive_cl_l` (Sec 2).
    pub recursive_c: f64,
    /// Classes with fewer distinct values are listed (`l_distinct.details.failing`).
    pub l_threshold: Option<f64>,
    /// Classes farther than this are listed (`t_closeness.details.failing`).
    pub t_threshold: Option<f64>,
    /// Classes with a larger beta are listed (`beta_likeness_basic.details.failing`).
    pub beta_threshold: Option<f64>,
}

impl Default for AttributeParams {
    fn default() -> Self {
        AttributeParams { recursive_l: 2, recursive_c: 2.0, l_threshold: None, t_threshold: None, beta_threshold: None }
    }
}

/// The streaming summary of one sensitive attribute.
#[derive(Debug, Clone)]
pub struct SensitiveSummary {
    /// The SA's values.
    pub values: Dictionary,
    /// Records per (class, SA value) over `R_s` (fold before reading: [`SensitiveSummary::seal`]).
    pub pairs: pairs::PairCounts,
    /// Records per (class, SA value, person), for event-level data.
    pub triples: Option<Map<(u32, u32, u32), u32>>,
    drop_blank: bool,
}

impl SensitiveSummary {
    /// An empty summary; `drop_blank` (policy `drop`) leaves rows with a blank SA out.
    pub fn new(policy: MissingPolicy, event_level: bool) -> Self {
        SensitiveSummary {
            values: Dictionary::default(),
            pairs: pairs::PairCounts::default(),
            triples: event_level.then(map),
            drop_blank: policy == MissingPolicy::Drop,
        }
    }

    /// The code of an SA cell, or `None` when the row leaves `R_s`.
    pub fn code(&mut self, cell: Cell<'_>) -> Option<u32> {
        (!(self.drop_blank && cell.is_blank())).then(|| self.values.code(cell))
    }

    /// Absorbs one in-scope record.
    pub fn absorb(&mut self, class: u32, value: u32, person: Option<u32>) {
        self.pairs.add(class, value);
        if let (Some(t), Some(p)) = (&mut self.triples, person) {
            *t.entry((class, value, p)).or_insert(0) += 1;
        }
    }

    /// Folds what the records left to count: call once they are all absorbed.
    pub fn seal(&mut self) {
        self.pairs.fold();
    }

    /// Merges another part's summary.
    pub fn merge(&mut self, other: SensitiveSummary, remap: &Remap, persons: Option<&[u32]>) {
        let values = self.values.absorb(&other.values);
        self.pairs.absorb(other.pairs, &remap.classes, &values);
        if let (Some(mine), Some(theirs), Some(pm)) = (&mut self.triples, other.triples, persons) {
            for ((c, v, p), n) in theirs {
                *mine.entry((remap.classes[c as usize], values[v as usize], pm[p as usize])).or_insert(0) += n;
            }
        }
    }
}

/// What the attribute family is computed from.
pub struct AttributeInput<'a> {
    /// The class table.
    pub table: &'a ClassTable,
    /// QI names.
    pub qi: &'a [String],
    /// Each SA's name and summary.
    pub sensitive: Vec<(&'a str, &'a SensitiveSummary)>,
    /// The person summary, for event-level data.
    pub persons: Option<&'a Persons>,
    /// `k_anonymity`.
    pub k: Option<f64>,
    /// `alpha` of the wildcard policy.
    pub alpha: f64,
}

/// Results of one SA, and the figures the table-level aggregate needs.
struct PerSa {
    results: Vec<MetricResult>,
}

/// Every attribute metric per SA, then the `"*"` aggregate (Sec 8).
pub fn finish(input: &AttributeInput<'_>, p: &AttributeParams) -> Vec<MetricResult> {
    let base = Context {
        family: "attribute",
        scope: Scope { table: "P", quasi_identifiers: input.qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({ "recursive_l": p.recursive_l, "recursive_c": p.recursive_c, "log_base": "e" }),
    };
    if input.sensitive.is_empty() {
        return IDS.iter().map(|id| base.without_value(id, Status::NotApplicable, "no_sensitive_attribute")).collect();
    }
    // One SA per core.
    let per: Vec<PerSa> = crate::par::map(input.sensitive.iter().collect(), |(name, sa)| {
        let ctx = Context { scope: Scope { sensitive: Some(name.to_string()), ..base.scope.clone() }, ..base.clone() };
        PerSa { results: one(&ctx, input, sa, p) }
    });
    let all_ctx = Context { scope: Scope { sensitive: Some("*".into()), ..base.scope.clone() }, ..base };
    let mut out: Vec<MetricResult> = per.iter().flat_map(|s| s.results.iter().cloned()).collect();
    out.extend(aggregate(&all_ctx, &per, input.k));
    out
}

/// Ids reported per SA, in order (and `not_applicable` without an SA).
pub const IDS: [&str; 17] = [
    "l_distinct",
    "l_distinct_max",
    "l_entropy",
    "l_entropy_floor",
    "recursive_cl_c",
    "recursive_cl_l",
    "t_closeness",
    "t_closeness_equal",
    "t_closeness_ordered",
    "beta_likeness_basic",
    "beta_likeness_enhanced",
    "delta_disclosure",
    "delta_disclosure_log2",
    "alpha_k_anonymity",
    "scorr_correlation_risk_qi",
    "scorr_correlation_risk_attr",
    "scorr_markov_risk",
];

/// The QI values of a class, as the report shows them.
fn values_of(table: &ClassTable, qi: &[String], class: u32) -> Value {
    let m: serde_json::Map<String, Value> =
        qi.iter().enumerate().map(|(a, n)| (n.clone(), json!(table.dict(a).display(table.code_at(class as usize, a))))).collect();
    Value::Object(m)
}

fn one(ctx: &Context, input: &AttributeInput<'_>, sa: &SensitiveSummary, p: &AttributeParams) -> Vec<MetricResult> {
    let t = input.table;
    let dist = Distributions::of(sa, t, input.alpha);
    if dist.n_s == 0 {
        return IDS.iter().map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect();
    }
    let ordered = closeness::Ordered::new(&dist);
    let use_ordered = dist.numeric;
    // Per class: (class, distinct, entropy l, c*, l for c, D_eq, D_ord, likeness).
    let (mut r, mut tail, mut at) = (Vec::new(), Vec::new(), Vec::new());
    let rows: Vec<_> = dist
        .classes()
        .map(|d| {
            let dv = diversity::of(&d, p.recursive_l, p.recursive_c, (&mut r, &mut tail));
            let eq = closeness::equal(&d, &dist);
            let ord = if use_ordered { ordered.distance(&d, &mut at) } else { f64::NAN };
            let lk = likeness::of(&d, &dist);
            (d, dv, eq, ord, lk)
        })
        .collect();
    let class_values = |c: u32| values_of(t, input.qi, c);
    // The class attaining an extreme; ties go to the class first by its values, so the
    // result does not depend on row order.
    let pick = |better: &dyn Fn(usize, usize) -> bool| -> usize {
        let mut best = 0;
        for i in 1..rows.len() {
            if better(i, best) {
                best = i;
            }
        }
        best
    };
    let first = |i: usize, b: usize| t.cmp_values(rows[i].0.class as usize, rows[b].0.class as usize).is_lt();
    // Values equal up to rounding (summed in another order) are ties.
    let tie = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0);
    let lower = |f: &dyn Fn(usize) -> f64| pick(&|i, b| if tie(f(i), f(b)) { first(i, b) } else { f(i) < f(b) });
    let higher = |f: &dyn Fn(usize) -> f64| pick(&|i, b| if tie(f(i), f(b)) { first(i, b) } else { f(i) > f(b) });
    let listed = |pred: &dyn Fn(usize) -> bool| {
        let mut hits: Vec<usize> = (0..rows.len()).filter(|&i| pred(i)).collect();
        let count = hits.len();
        hits.sort_by(|&a, &b| t.cmp_values(rows[a].0.class as usize, rows[b].0.class as usize));
        hits.truncate(LISTED);
        json!({ "classes": count, "listed": hits.iter().map(|&i| class_values(rows[i].0.class)).collect::<Vec<_>>() })
    };
    let v_size = dist.order.len();
    let mut out = Vec::new();

    let l_min = lower(&|i| rows[i].1.distinct as f64);
    let l_distinct = rows[l_min].1.distinct;
    let mut r = ctx.ok("l_distinct", l_distinct).with_details(json!({ "worst_class": class_values(rows[l_min].0.class) }));
    if let Some(l0) = p.l_threshold {
        r.details["failing"] = listed(&|i| (rows[i].1.distinct as f64) < l0);
        r.details["threshold"] = json!(l0);
    }
    out.push(r);
    out.push(match input.k {
        Some(k) => ctx.ok("l_distinct_max", crate::json::count_or_real(k.min(v_size as f64))),
        None => ctx.without_value("l_distinct_max", Status::NotApplicable, "no_k"),
    });
    let e_min = lower(&|i| rows[i].1.entropy_l);
    let l_entropy = rows[e_min].1.entropy_l;
    out.push(ctx.ok("l_entropy", l_entropy).with_details(json!({ "worst_class": class_values(rows[e_min].0.class) })));
    out.push(ctx.ok("l_entropy_floor", crate::json::count_or_real(diversity::floor_tolerant(l_entropy))));
    out.push(if rows.iter().any(|r| r.1.c_star.is_none()) {
        ctx.without_value("recursive_cl_c", Status::NotApplicable, "l_exceeds_distinct").with_details(json!({ "l": p.recursive_l }))
    } else {
        let c_star = rows.iter().map(|r| r.1.c_star.unwrap_or(0.0)).fold(0.0, f64::max);
        ctx.ok("recursive_cl_c", c_star).with_details(json!({ "l": p.recursive_l, "c_int": crate::json::count_or_real(c_star.floor() + 1.0) }))
    });
    let l_for_c = rows.iter().map(|r| r.1.l_for_c).min().unwrap_or(1);
    out.push(ctx.ok("recursive_cl_l", l_for_c).with_details(json!({ "c": p.recursive_c })));

    let d_of = |i: usize| if use_ordered { rows[i].3 } else { rows[i].2 };
    let t_max = higher(&d_of);
    let worst = rows[t_max].0;
    let mut shown: Vec<(u32, f64, f64)> = dist.order.iter().map(|&v| (v, worst.p(v), dist.q(v))).collect();
    if shown.len() > 30 {
        shown.sort_by(|a, b| (b.1 - b.2).abs().total_cmp(&(a.1 - a.2).abs()));
        shown.truncate(30);
    }
    let shown: Vec<Value> = shown.iter().map(|&(v, pc, q)| json!([sa.values.display(v), pc, q])).collect();
    let mut r = ctx.ok("t_closeness", d_of(t_max)).with_details(json!({
        "distance": if use_ordered { "ordered" } else { "equal" },
        "worst_class": class_values(worst.class),
        "worst_class_size": worst.records,
        "worst_distribution": shown,
    }));
    if dist.generalized {
        r = r.with_warning("sa_generalized_treated_as_categorical");
    }
    if let Some(t0) = p.t_threshold {
        r.details["failing"] = listed(&|i| d_of(i) > t0);
        r.details["threshold"] = json!(t0);
    }
    out.push(r);
    let eq_max = higher(&|i| rows[i].2);
    out.push(ctx.ok("t_closeness_equal", rows[eq_max].2));
    out.push(if use_ordered {
        ctx.ok("t_closeness_ordered", rows[higher(&|i| rows[i].3)].3)
    } else {
        ctx.without_value("t_closeness_ordered", Status::NotApplicable, "sa_not_numeric")
    });

    let b_max = higher(&|i| rows[i].4.beta);
    let mut r = ctx.ok("beta_likeness_basic", rows[b_max].4.beta).with_details(json!({ "worst_class": class_values(rows[b_max].0.class) }));
    if let Some(b0) = p.beta_threshold {
        r.details["failing"] = listed(&|i| rows[i].4.beta > b0);
        r.details["threshold"] = json!(b0);
    }
    out.push(r);
    let violations: u64 = rows.iter().map(|r| r.4.violations).sum();
    out.push(if violations == 0 {
        ctx.ok("beta_likeness_enhanced", rows[b_max].4.beta)
    } else {
        ctx.without_value("beta_likeness_enhanced", Status::NotApplicable, "unsatisfiable").with_details(json!({ "violations": violations }))
    });
    let d_max = higher(&|i| rows[i].4.delta);
    out.push(ctx.ok("delta_disclosure", rows[d_max].4.delta).with_details(json!({ "log_base": "e", "worst_class": class_values(rows[d_max].0.class) })));
    out.push(ctx.ok("delta_disclosure_log2", rows[d_max].4.delta / std::f64::consts::LN_2).with_details(json!({ "log_base": 2 })));
    let a_max = higher(&|i| rows[i].4.alpha);
    out.push(ctx.ok("alpha_k_anonymity", json!({ "alpha": rows[a_max].4.alpha, "k": input.k.map(crate::json::count_or_real) })));

    let spread = |s: correlation::Spread| min_mean_max(s.min, s.mean, s.max);
    out.push(ctx.ok("scorr_correlation_risk_qi", spread(correlation::qi(&dist))));
    for (a, name) in input.qi.iter().enumerate() {
        let c = Context { scope: Scope { attribute: Some(name.clone()), ..ctx.scope.clone() }, ..ctx.clone() };
        out.push(c.ok("scorr_correlation_risk_attr", spread(correlation::attr(&dist, t, a, input.alpha))));
    }
    out.push(match correlation::markov(sa, &dist, t, input.persons) {
        Some(s) => ctx.ok("scorr_markov_risk", spread(s)).with_details(json!({ "informational": true })),
        None => ctx.without_value("scorr_markov_risk", Status::NotApplicable, "wildcard_policy"),
    });
    out
}

/// The `"*"` results: the worst case over the SAs (Sec 8).
fn aggregate(ctx: &Context, per: &[PerSa], k: Option<f64>) -> Vec<MetricResult> {
    let values = |id: &str| -> Vec<Option<f64>> {
        per.iter().map(|s| s.results.iter().find(|m| m.id == id).and_then(|m| m.value.as_f64())).collect()
    };
    let fold = |id: &'static str, min: bool| -> MetricResult {
        let v = values(id);
        if v.iter().any(Option::is_none) {
            let reason = per.iter().flat_map(|s| &s.results).find(|m| m.id == id && m.value.is_null()).and_then(|m| m.reason).unwrap_or("not_applicable");
            return ctx.without_value(id, Status::NotApplicable, reason);
        }
        let it = v.into_iter().flatten();
        let x = if min { it.fold(f64::INFINITY, f64::min) } else { it.fold(f64::NEG_INFINITY, f64::max) };
        ctx.ok(id, crate::json::count_or_real(x))
    };
    let mut out: Vec<MetricResult> = ["l_distinct", "l_entropy", "l_entropy_floor", "recursive_cl_l"].into_iter().map(|id| fold(id, true)).collect();
    out.extend(["recursive_cl_c", "t_closeness", "beta_likeness_basic", "beta_likeness_enhanced", "delta_disclosure"].into_iter().map(|id| fold(id, false)));
    let alpha = per
        .iter()
        .filter_map(|s| s.results.iter().find(|m| m.id == "alpha_k_anonymity").and_then(|m| m.value["alpha"].as_f64()))
        .fold(f64::NEG_INFINITY, f64::max);
    if alpha.is_finite() {
        out.push(ctx.ok("alpha_k_anonymity", json!({ "alpha": alpha, "k": k.map(crate::json::count_or_real) })));
    }
    out
}
