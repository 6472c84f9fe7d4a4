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
pub mod hierarchical;
pub mod likeness;
pub mod pairs;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::figures::{SensitiveFigures, finite};
use crate::hash::{Map, map};
use crate::identity::persons::Persons;
use crate::ingest::cell::Cell;
use crate::metric::{Context, MetricResult, Scope, Status, min_mean_max};
use crate::numeric::{FirstInOrder, max_of};
use crate::table::classes::MissingPolicy;
use crate::table::classes::{ClassTable, Remap};
use crate::table::dictionary::Dictionary;
use distribution::{ClassDist, Declared, Distributions};

/// How many classes `details` lists (worst ones, or those over a threshold).
const LISTED: usize = 20;

/// Settings of the attribute family.
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// The distance `t_closeness` reports (Sec 3).
    pub t_distance: TDistance,
    /// The reference distribution `Q` (Sec 1).
    pub t_reference: TReference,
    /// How several SAs are assessed (Sec 8).
    pub sa_mode: SaMode,
}

impl Default for AttributeParams {
    fn default() -> Self {
        AttributeParams {
            recursive_l: 2,
            recursive_c: 2.0,
            l_threshold: None,
            t_threshold: None,
            beta_threshold: None,
            t_distance: TDistance::Auto,
            t_reference: TReference::Released,
            sa_mode: SaMode::PerAttribute,
        }
    }
}

/// The distance of `t_closeness` (attribute-risk.md Sec 3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TDistance {
    /// Ordered for a numeric or ordinal SA, else equal (the spec's default rule).
    #[default]
    Auto,
    /// The equal distance, whatever the kind.
    Equal,
    /// The ordered distance (a numeric or ordinal SA; else `not_applicable`).
    Ordered,
    /// The hierarchical distance over the SA's declared hierarchy.
    Hierarchical,
}

/// Where `Q` comes from (attribute-risk.md Sec 1 `t_reference`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TReference {
    /// The released table's records in scope (what a recipient can verify).
    #[default]
    Released,
    /// The SA column of the original table `O`, all rows.
    Original,
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
    /// Each SA.
    pub sensitive: Vec<SaInput<'a>>,
    /// The person summary, for event-level data.
    pub persons: Option<&'a Persons>,
    /// `k_anonymity`.
    pub k: Option<f64>,
    /// `alpha` of the wildcard policy.
    pub alpha: f64,
}

/// One sensitive attribute: its summary and what the user declared about it.
#[derive(Clone, Copy)]
pub struct SaInput<'a> {
    /// Column name.
    pub name: &'a str,
    /// The streaming summary.
    pub summary: &'a SensitiveSummary,
    /// Declared order (ordinal kind) and the original's column (`t_reference = original`).
    pub declared: Declared<'a>,
    /// The declared hierarchy, in ARX's layout (for `t_closeness_hierarchical`).
    pub hierarchy: Option<&'a [Vec<String>]>,
    /// `t_reference = original` was asked but `O` lacks this column (or was not given).
    pub reference_missing: bool,
}

/// Results of one SA, and the figures the table-level aggregate needs.
struct PerSa {
    results: Vec<MetricResult>,
    /// The figures other families read.
    figures: SensitiveFigures,
    /// The figures the `"*"` aggregate folds.
    headline: Headline,
}

/// A per-SA result the `"*"` aggregate folds (Sec 8), in the aggregate's output order.
#[derive(Debug, Clone, Copy)]
enum Folded {
    LDistinct,
    LEntropy,
    LEntropyFloor,
    RecursiveClL,
    RecursiveClC,
    TCloseness,
    BetaBasic,
    BetaEnhanced,
    Delta,
}

impl Folded {
    const ALL: [Folded; 9] = [
        Folded::LDistinct,
        Folded::LEntropy,
        Folded::LEntropyFloor,
        Folded::RecursiveClL,
        Folded::RecursiveClC,
        Folded::TCloseness,
        Folded::BetaBasic,
        Folded::BetaEnhanced,
        Folded::Delta,
    ];

    /// The id of the result, per SA and aggregated.
    fn id(self) -> &'static str {
        match self {
            Folded::LDistinct => "l_distinct",
            Folded::LEntropy => "l_entropy",
            Folded::LEntropyFloor => "l_entropy_floor",
            Folded::RecursiveClL => "recursive_cl_l",
            Folded::RecursiveClC => "recursive_cl_c",
            Folded::TCloseness => "t_closeness",
            Folded::BetaBasic => "beta_likeness_basic",
            Folded::BetaEnhanced => "beta_likeness_enhanced",
            Folded::Delta => "delta_disclosure",
        }
    }

    /// Whether the aggregate is the smallest value over the SAs (the diversities), else the
    /// largest (the disclosures).
    fn lowest(self) -> bool {
        matches!(self, Folded::LDistinct | Folded::LEntropy | Folded::LEntropyFloor | Folded::RecursiveClL)
    }
}

/// One SA's values of the [`Folded`] results, each its value or the reason it has none, and
/// the `alpha` of `alpha_k_anonymity`: taken from each result as it is made.
#[derive(Debug, Clone)]
struct Headline {
    folded: [Result<f64, &'static str>; 9],
    alpha: Option<f64>,
}

impl Headline {
    /// No value, for `reason`.
    fn none(reason: &'static str) -> Headline {
        Headline { folded: [Err(reason); 9], alpha: None }
    }

    /// Keeps the value of `r`, the result `f`, and gives `r` back.
    fn keep(&mut self, f: Folded, r: MetricResult) -> MetricResult {
        self.folded[f as usize] = r.value.as_f64().ok_or(r.reason.unwrap_or("not_applicable"));
        r
    }
}

/// Every attribute metric per SA, then the `"*"` aggregate (Sec 8); and each SA's figures.
pub fn finish(input: &AttributeInput<'_>, p: &AttributeParams) -> (Vec<MetricResult>, Vec<SensitiveFigures>) {
    finish_all(&[input], input.qi, p)
}

/// [`finish`] over several class tables (`sa_mode = extend_qi`, Sec 8: one per SA, on `A` plus
/// the other SAs): each input's SAs on its own classes, then one `"*"` aggregate over them all,
/// scoped to `qi` (the audit's `A`), whose `k` is the smallest input's; and each SA's figures.
pub fn finish_all(inputs: &[&AttributeInput<'_>], qi: &[String], p: &AttributeParams) -> (Vec<MetricResult>, Vec<SensitiveFigures>) {
    let context = |qi: &[String]| Context {
        family: "attribute",
        scope: Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({ "recursive_l": p.recursive_l, "recursive_c": p.recursive_c, "log_base": "e", "sa_mode": p.sa_mode }),
    };
    let base = context(qi);
    if inputs.iter().all(|i| i.sensitive.is_empty()) {
        return (IDS.iter().map(|id| base.without_value(id, Status::NotApplicable, "no_sensitive_attribute")).collect(), Vec::new());
    }
    // One SA per core.
    let jobs: Vec<(&AttributeInput<'_>, &SaInput<'_>)> = inputs.iter().flat_map(|&input| input.sensitive.iter().map(move |sa| (input, sa))).collect();
    let per: Vec<PerSa> = crate::par::map(jobs, |(input, sa)| {
        let own = context(input.qi);
        let ctx = Context { scope: Scope { sensitive: Some(sa.name.to_string()), ..own.scope.clone() }, ..own };
        let (results, figures, headline) = one(&ctx, input, sa, p);
        PerSa { results, figures, headline }
    });
    let all_ctx = Context { scope: Scope { sensitive: Some("*".into()), ..base.scope.clone() }, ..base };
    let mut out: Vec<MetricResult> = per.iter().flat_map(|s| s.results.iter().cloned()).collect();
    let k = inputs.iter().filter_map(|i| i.k).reduce(f64::min);
    out.extend(aggregate(&all_ctx, &per, k));
    (out, per.into_iter().map(|s| s.figures).collect())
}

/// How several sensitive attributes are assessed (attribute-risk.md Sec 8).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaMode {
    /// Each SA on the classes of `A` (pyCANON `gen=True`).
    #[default]
    PerAttribute,
    /// One pseudo-SA whose value is the tuple of all SA values (\[HCT\] Sec 6 A2).
    Combined,
    /// Each SA on the classes of `A` plus the other SAs (pyCANON `gen=False`).
    ExtendQi,
}

/// Ids reported per SA, in order (and `not_applicable` without an SA).
pub const IDS: [&str; 18] = [
    "l_distinct",
    "l_distinct_max",
    "l_entropy",
    "l_entropy_floor",
    "recursive_cl_c",
    "recursive_cl_l",
    "t_closeness",
    "t_closeness_equal",
    "t_closeness_ordered",
    "t_closeness_hierarchical",
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

/// One class's figures, as [`one`] scans them.
struct Measured<'a> {
    d: ClassDist<'a>,
    dv: diversity::Diversity,
    eq: f64,
    ord: f64,
    hier: f64,
    lk: likeness::Likeness,
}

/// The class attaining an extreme of a per-class figure, kept while the classes are scanned:
/// values equal up to rounding (summed in another order) are ties, and a tie goes to the
/// class first by its values, so the result does not depend on row order.
struct Extreme<'a> {
    lowest: bool,
    best: Option<(f64, ClassDist<'a>)>,
}

impl<'a> Extreme<'a> {
    fn lowest() -> Self {
        Extreme { lowest: true, best: None }
    }

    fn highest() -> Self {
        Extreme { lowest: false, best: None }
    }

    fn offer(&mut self, x: f64, d: ClassDist<'a>, t: &ClassTable) {
        let better = match &self.best {
            None => true,
            Some((y, b)) => {
                if crate::numeric::ties(x, *y) {
                    t.cmp_values(d.class as usize, b.class as usize).is_lt()
                } else if self.lowest {
                    x < *y
                } else {
                    x > *y
                }
            }
        };
        if better {
            self.best = Some((x, d));
        }
    }

    /// The extreme and its class (there is at least one class: `n_s > 0`).
    fn get(&self) -> (f64, ClassDist<'a>) {
        self.best.expect("a class was offered")
    }
}

/// The distance `t_closeness` uses for an SA, or why none can be used.
fn chosen(p: &AttributeParams, ordered: bool, tree: &Option<Result<hierarchical::Tree, hierarchical::Incomplete>>) -> Result<TDistance, &'static str> {
    match p.t_distance {
        TDistance::Auto if ordered => Ok(TDistance::Ordered),
        TDistance::Auto | TDistance::Equal => Ok(TDistance::Equal),
        TDistance::Ordered if ordered => Ok(TDistance::Ordered),
        TDistance::Ordered => Err("sa_not_ordered"),
        TDistance::Hierarchical => match tree {
            Some(Ok(_)) => Ok(TDistance::Hierarchical),
            Some(Err(_)) => Err("hierarchy_incomplete"),
            None => Err("no_hierarchy"),
        },
    }
}

/// Every attribute metric of one SA ([`IDS`] in order, `scorr_correlation_risk_attr` once per
/// QI), and its figures.
fn one(ctx: &Context, input: &AttributeInput<'_>, sa: &SaInput<'_>, p: &AttributeParams) -> (Vec<MetricResult>, SensitiveFigures, Headline) {
    let t = input.table;
    let mut figures = SensitiveFigures { name: sa.name.to_string(), ..SensitiveFigures::default() };
    let dist = match Distributions::of(sa.summary, t, input.alpha, sa.declared) {
        Ok(d) => d,
        Err(unknown) => {
            let details = json!({ "labels": unknown.iter().take(LISTED).collect::<Vec<_>>(), "count": unknown.len() });
            let results = IDS.iter().map(|id| ctx.without_value(id, Status::Error, "ordinal_label_unknown").with_details(details.clone())).collect();
            return (results, figures, Headline::none("ordinal_label_unknown"));
        }
    };
    if dist.n_s == 0 {
        let results = IDS.iter().map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect();
        return (results, figures, Headline::none("no_records_in_scope"));
    }
    let ordered = closeness::Ordered::new(&dist);
    let can_order = dist.numeric || dist.ordinal;
    let tree = sa.hierarchy.map(|rows| hierarchical::Tree::new(rows, &dist));
    let distance = chosen(p, can_order, &tree);
    let hier_tree = tree.as_ref().and_then(|t| t.as_ref().ok());
    // Per class: its l-diversity, D_eq, D_ord, D_hier and likeness, computed as the classes
    // are scanned (one scan, which also keeps the first classes past a threshold), so memory
    // does not grow with the classes.
    let measures = {
        let (mut r, mut tail, mut at, mut nodes) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let ordered = &ordered;
        let dist = &dist;
        dist.classes().map(move |d| {
            let dv = diversity::of(&d, p.recursive_l, p.recursive_c, (&mut r, &mut tail));
            let eq = closeness::equal(&d, dist);
            let ord = if can_order { ordered.distance(&d, &mut at) } else { f64::NAN };
            let hier = hier_tree.map_or(f64::NAN, |h| h.distance(&d, dist, &mut nodes));
            let lk = likeness::of(&d, dist);
            Measured { d, dv, eq, ord, hier, lk }
        })
    };
    let class_values = |c: u32| values_of(t, input.qi, c);
    let d_of = |m: &Measured<'_>| match distance {
        Ok(TDistance::Ordered) => m.ord,
        Ok(TDistance::Hierarchical) => m.hier,
        _ => m.eq,
    };
    let (mut l_min, mut e_min, mut t_max, mut eq_max, mut ord_max, mut hier_max, mut b_max, mut d_max, mut a_max) = (
        Extreme::lowest(),
        Extreme::lowest(),
        Extreme::highest(),
        Extreme::highest(),
        Extreme::highest(),
        Extreme::highest(),
        Extreme::highest(),
        Extreme::highest(),
        Extreme::highest(),
    );
    let (mut c_missing, mut c_star, mut l_for_c, mut violations) = (false, 0.0f64, usize::MAX, 0u64);
    // The classes past a threshold, first by their values: how many, and the first LISTED.
    let by_values = |a: &(u32, u64), b: &(u32, u64)| t.cmp_values(a.0 as usize, b.0 as usize);
    let (mut l_failing, mut t_failing, mut b_failing) =
        (FirstInOrder::new(LISTED, by_values), FirstInOrder::new(LISTED, by_values), FirstInOrder::new(LISTED, by_values));
    for m in measures {
        if p.l_threshold.is_some_and(|l0| (m.dv.distinct as f64) < l0) {
            l_failing.offer((m.d.class, m.d.records));
        }
        if p.t_threshold.is_some_and(|t0| d_of(&m) > t0) {
            t_failing.offer((m.d.class, m.d.records));
        }
        if p.beta_threshold.is_some_and(|b0| m.lk.beta > b0) {
            b_failing.offer((m.d.class, m.d.records));
        }
        l_min.offer(m.dv.distinct as f64, m.d, t);
        e_min.offer(m.dv.entropy_l, m.d, t);
        t_max.offer(d_of(&m), m.d, t);
        eq_max.offer(m.eq, m.d, t);
        ord_max.offer(m.ord, m.d, t);
        hier_max.offer(m.hier, m.d, t);
        b_max.offer(m.lk.beta, m.d, t);
        d_max.offer(m.lk.delta, m.d, t);
        a_max.offer(m.lk.alpha, m.d, t);
        c_missing |= m.dv.c_star.is_none();
        c_star = max_of([m.dv.c_star.unwrap_or(0.0)], c_star);
        l_for_c = l_for_c.min(m.dv.l_for_c);
        violations += m.lk.violations;
    }
    let listed = |failing: &FirstInOrder<(u32, u64), _>| {
        let hits = failing.items();
        json!({
            "classes": failing.offered(),
            "listed": hits.iter().map(|&(c, _)| class_values(c)).collect::<Vec<_>>(),
            // The records of each listed class, in the same order (the shareable report keeps
            // only the classes of at least its minimum count: shareable.rs).
            "listed_records": hits.iter().map(|&(_, n)| n).collect::<Vec<_>>(),
        })
    };
    let v_size = dist.order.len();
    let mut out = Vec::new();
    let mut headline = Headline::none("not_applicable");

    let (l_distinct, worst) = l_min.get();
    let mut r = ctx.ok("l_distinct", l_distinct as usize).with_details(json!({ "worst_class": class_values(worst.class), "worst_class_size": worst.records }));
    if let Some(l0) = p.l_threshold {
        r.details["failing"] = listed(&l_failing);
        r.details["threshold"] = json!(l0);
    }
    out.push(headline.keep(Folded::LDistinct, r));
    out.push(match input.k {
        Some(k) => ctx.ok("l_distinct_max", crate::json::count_or_real(k.min(v_size as f64))),
        None => ctx.without_value("l_distinct_max", Status::NotApplicable, "no_k"),
    });
    let (l_entropy, worst) = e_min.get();
    let r = ctx.ok("l_entropy", l_entropy).with_details(json!({ "worst_class": class_values(worst.class), "worst_class_size": worst.records }));
    out.push(headline.keep(Folded::LEntropy, r));
    out.push(headline.keep(Folded::LEntropyFloor, ctx.ok("l_entropy_floor", crate::json::count_or_real(diversity::floor_tolerant(l_entropy)))));
    let r = if c_missing {
        ctx.without_value("recursive_cl_c", Status::NotApplicable, "l_exceeds_distinct").with_details(json!({ "l": p.recursive_l }))
    } else {
        ctx.ok("recursive_cl_c", c_star).with_details(json!({ "l": p.recursive_l, "c_int": crate::json::count_or_real(c_star.floor() + 1.0) }))
    };
    out.push(headline.keep(Folded::RecursiveClC, r));
    out.push(headline.keep(Folded::RecursiveClL, ctx.ok("recursive_cl_l", l_for_c).with_details(json!({ "c": p.recursive_c }))));

    let reference = if dist.from_original { "original" } else { "released" };
    let (t_value, worst) = t_max.get();
    let mut shown: Vec<(u32, f64, f64)> = dist.order.iter().map(|&v| (v, worst.p(v), dist.q(v))).collect();
    if shown.len() > 30 {
        shown.sort_by(|a, b| (b.1 - b.2).abs().total_cmp(&(a.1 - a.2).abs()));
        shown.truncate(30);
    }
    let shown: Vec<Value> = shown.iter().map(|&(v, pc, q)| json!([dist.display(v), pc, q])).collect();
    let mut r = match distance {
        Ok(chosen) => {
            figures.t_closeness = finite(t_value);
            let mut r = ctx.ok("t_closeness", t_value).with_details(json!({
                "distance": chosen,
                "reference": reference,
                "worst_class": class_values(worst.class),
                "worst_class_size": worst.records,
                "worst_distribution": shown,
            }));
            if let Some(t0) = p.t_threshold {
                r.details["failing"] = listed(&t_failing);
                r.details["threshold"] = json!(t0);
            }
            r
        }
        Err(reason) => ctx.without_value("t_closeness", Status::NotApplicable, reason).with_details(json!({ "distance": p.t_distance })),
    };
    if dist.generalized {
        r = r.with_warning("sa_generalized_treated_as_categorical");
    }
    if sa.reference_missing {
        r = r.with_warning("original_lacks_sensitive");
    }
    out.push(headline.keep(Folded::TCloseness, r));
    out.push(ctx.ok("t_closeness_equal", eq_max.get().0));
    out.push(if can_order {
        ctx.ok("t_closeness_ordered", ord_max.get().0).with_details(json!({ "order": if dist.ordinal { "declared" } else { "numeric" } }))
    } else {
        ctx.without_value("t_closeness_ordered", Status::NotApplicable, "sa_not_ordered")
    });
    out.push(match &tree {
        Some(Ok(_)) => {
            let (value, worst) = hier_max.get();
            ctx.ok("t_closeness_hierarchical", value).with_details(json!({ "worst_class": class_values(worst.class), "worst_class_size": worst.records }))
        }
        Some(Err(e)) => ctx
            .without_value("t_closeness_hierarchical", Status::NotApplicable, "hierarchy_incomplete")
            .with_details(json!({ "missing": e.missing, "count": e.count })),
        None => ctx.without_value("t_closeness_hierarchical", Status::NotApplicable, "no_hierarchy"),
    });

    let (beta, worst) = b_max.get();
    // [value, records of the release]: the values `O` lacks (skipped by beta and delta).
    let unseen: Vec<Value> =
        dist.order.iter().filter(|&&v| dist.q_ref[v as usize] == 0).map(|&v| json!([dist.display(v), dist.q_counts[v as usize]])).collect();
    let mut r = ctx.ok("beta_likeness_basic", beta).with_details(json!({ "worst_class": class_values(worst.class), "worst_class_size": worst.records }));
    if dist.from_original {
        r.details["unseen_values"] = json!(unseen);
    }
    if let Some(b0) = p.beta_threshold {
        r.details["failing"] = listed(&b_failing);
        r.details["threshold"] = json!(b0);
    }
    out.push(headline.keep(Folded::BetaBasic, r));
    let r = if violations == 0 {
        ctx.ok("beta_likeness_enhanced", beta)
    } else {
        ctx.without_value("beta_likeness_enhanced", Status::NotApplicable, "unsatisfiable").with_details(json!({ "violations": violations }))
    };
    out.push(headline.keep(Folded::BetaEnhanced, r));
    let (delta, worst) = d_max.get();
    let mut r =
        ctx.ok("delta_disclosure", delta).with_details(json!({ "log_base": "e", "worst_class": class_values(worst.class), "worst_class_size": worst.records }));
    if dist.from_original {
        r.details["unseen_values"] = json!(unseen);
    }
    out.push(headline.keep(Folded::Delta, r));
    out.push(ctx.ok("delta_disclosure_log2", delta / std::f64::consts::LN_2).with_details(json!({ "log_base": 2 })));
    headline.alpha = finite(a_max.get().0);
    out.push(ctx.ok("alpha_k_anonymity", json!({ "alpha": a_max.get().0, "k": input.k.map(crate::json::count_or_real) })));

    let spread = |s: correlation::Spread| min_mean_max(s.min, s.mean, s.max);
    out.push(ctx.ok("scorr_correlation_risk_qi", spread(correlation::qi(&dist))));
    for (name, counts) in input.qi.iter().zip(correlation::value_pairs(&dist, t)) {
        let c = Context { scope: Scope { attribute: Some(name.clone()), ..ctx.scope.clone() }, ..ctx.clone() };
        let s = correlation::attr(t, &counts, input.alpha);
        figures.scorr_correlation_attr_max.push((name.clone(), finite(s.max)));
        out.push(c.ok("scorr_correlation_risk_attr", spread(s)));
    }
    out.push(match correlation::markov(sa.summary, &dist, t, input.persons) {
        Some(s) => ctx.ok("scorr_markov_risk", spread(s)).with_details(json!({ "informational": true })),
        None => ctx.without_value("scorr_markov_risk", Status::NotApplicable, "wildcard_policy"),
    });
    (out, figures, headline)
}

/// The `"*"` results: the worst case over the SAs (Sec 8), from each SA's [`Headline`].
fn aggregate(ctx: &Context, per: &[PerSa], k: Option<f64>) -> Vec<MetricResult> {
    let mut out: Vec<MetricResult> = Folded::ALL
        .into_iter()
        .map(|f| {
            let values: Result<Vec<f64>, &'static str> = per.iter().map(|s| s.headline.folded[f as usize]).collect();
            match values {
                Ok(v) => {
                    let it = v.into_iter();
                    let x = if f.lowest() { it.fold(f64::INFINITY, f64::min) } else { it.fold(f64::NEG_INFINITY, f64::max) };
                    ctx.ok(f.id(), crate::json::count_or_real(x))
                }
                Err(reason) => ctx.without_value(f.id(), Status::NotApplicable, reason),
            }
        })
        .collect();
    let alpha = per.iter().filter_map(|s| s.headline.alpha).fold(f64::NEG_INFINITY, f64::max);
    if alpha.is_finite() {
        out.push(ctx.ok("alpha_k_anonymity", json!({ "alpha": alpha, "k": k.map(crate::json::count_or_real) })));
    }
    out
}
