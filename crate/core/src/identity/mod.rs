//! Identity disclosure (spec identity-risk.md): equivalence classes over the
//! quasi-identifiers, class sizes, uniqueness, record risk, the ARX attacker models, SCORR's
//! risks, QI attribution and the verdicts.

pub mod attribution;
pub mod bootstrap;
pub mod class_size;
pub mod disjoint;
pub mod household;
pub mod journalist;
pub mod kmap;
pub mod lattice;
pub mod per_record;
pub mod persons;
pub mod population;
pub mod record_risk;
pub mod scorr;
pub mod suda;
pub mod weighted;

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::figures::{IdentityFigures, RowScope};
use crate::interval::CiParams;
use crate::metric::{Context, MetricResult, Scope, Status};
pub use crate::table::classes::{ClassTable, MissingPolicy};
use crate::table::reference::Subset;
use persons::Persons;
use population::{Bootstrap, Replicate};

/// How many of the riskiest classes `record_risk.details.top` lists.
pub const TOP_CLASSES: usize = 20;

/// Settings of the identity family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IdentityParams {
    /// Missing-value policy (spec README Sec 7).
    pub missing_policy: MissingPolicy,
    /// `alpha` of `wildcard` (spec identity-risk.md Sec 1.3).
    pub wildcard_alpha: f64,
    /// Remove rows whose QI cells are all `SUPPRESSED` (spec README Sec 7).
    pub exclude_suppressed_rows: bool,
    /// Per-record threshold `tau` (spec identity-risk.md Sec 5); also ARX's highest-risk threshold.
    pub threshold: f64,
    /// ARX's records-at-risk threshold (Sec 11.1).
    pub records_at_risk_threshold: f64,
    /// ARX's success-rate threshold (Sec 11.1).
    pub success_rate_threshold: f64,
    /// Population size for the uniqueness estimators (Sec 7).
    pub population: population::Population,
    /// k-map and delta-presence (peer-measures.md Sec 3, 4).
    pub kmap: kmap::KMapParams,
    /// Confidence intervals of the model- and sample-based estimates (issue 15).
    pub ci: crate::interval::CiParams,
}

impl Default for IdentityParams {
    fn default() -> Self {
        IdentityParams {
            missing_policy: MissingPolicy::Ordinary,
            wildcard_alpha: 1.0,
            exclude_suppressed_rows: true,
            threshold: 0.2,
            records_at_risk_threshold: 0.05,
            success_rate_threshold: 0.05,
            population: population::Population::Missing,
            kmap: kmap::KMapParams::default(),
            ci: crate::interval::CiParams::default(),
        }
    }
}

impl IdentityParams {
    /// The thresholds of ARX's verdict: `tau` is also its highest-risk threshold.
    pub fn arx_thresholds(&self) -> crate::verdict::arx::ArxThresholds {
        crate::verdict::arx::ArxThresholds {
            highest_risk: self.threshold,
            records_at_risk: self.records_at_risk_threshold,
            success_rate: self.success_rate_threshold,
        }
    }
}

/// Keys grouped by their `f`: the class-size histogram every identity metric derives from,
/// so finishing costs memory in the number of distinct sizes, not of classes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeGroup {
    /// `f` (spec identity-risk.md Sec 1.3): a class size, or a wildcard match count.
    pub f: f64,
    /// Distinct keys with this `f`.
    pub classes: u64,
    /// Records with this `f`.
    pub records: u64,
}

/// The groups in ascending `f`, with `n` and `K`.
pub struct Sizes {
    /// Groups, ascending `f`.
    pub groups: Vec<SizeGroup>,
    /// Records in scope.
    pub n: u64,
    /// Distinct keys.
    pub classes: u64,
}

impl Sizes {
    /// Groups the keys of `table` by `f` (`f_of(i)` for key `i`).
    fn of(table: &ClassTable, f_of: impl Fn(usize) -> f64) -> Sizes {
        // Positive binary64 values sort like their bit patterns; few distinct sizes, many
        // classes: sorted once, then counted in runs.
        let mut fs: Vec<(u64, u64)> = (0..table.len()).map(|i| (f_of(i).to_bits(), table.count(i))).collect();
        fs.sort_unstable_by_key(|x| x.0);
        let mut groups: Vec<SizeGroup> = Vec::new();
        for (f, n) in fs {
            match groups.last_mut() {
                Some(g) if g.f.to_bits() == f => {
                    g.classes += 1;
                    g.records += n;
                }
                _ => groups.push(SizeGroup { f: f64::from_bits(f), classes: 1, records: n }),
            }
        }
        Sizes { n: table.records(), classes: table.len() as u64, groups }
    }

    /// Smallest `f` (`k`).
    pub fn min_f(&self) -> f64 {
        self.groups.first().map_or(0.0, |g| g.f)
    }

    /// Largest `f`.
    pub fn max_f(&self) -> f64 {
        self.groups.last().map_or(0.0, |g| g.f)
    }

    /// Records whose `f` satisfies `pred`.
    pub fn records_where(&self, pred: impl Fn(f64) -> bool) -> u64 {
        self.groups.iter().filter(|g| pred(g.f)).map(|g| g.records).sum()
    }

    /// The class-size histogram `(s, c_s)`, ascending `s`, of the population estimators (Sec 7).
    fn histogram(&self) -> Vec<(u64, u64)> {
        self.groups.iter().map(|g| (g.f as u64, g.classes)).collect()
    }
}

/// The population table of the journalist and marketer models (Sec 6).
pub enum PopulationTable<'a> {
    /// None given.
    Absent,
    /// Given, but lacking these QIs.
    MissingQi(Vec<String>),
    /// Given, over the same QIs; QI `a` (column order of `P`) is column `columns[a]` of `E`;
    /// with the research subset its column flags, when one was named (delta-presence).
    Table(&'a ClassTable, Vec<usize>, Option<&'a Subset>),
}

/// What the identity family is computed from.
pub struct IdentityInput<'a> {
    /// The class table of the released file.
    pub table: &'a ClassTable,
    /// The person summary, for event-level data.
    pub persons: Option<&'a Persons>,
    /// The population table.
    pub population: PopulationTable<'a>,
    /// QI names, in QI order.
    pub qi: &'a [String],
    /// Attribution is left out: the caller computes it elsewhere from the classes' lattice
    /// and adds it with [`attribution_from`] (the page's reader workers, `SplitAudit`).
    pub attribution_deferred: bool,
    /// The population estimators' intervals are left out: the caller computes the bootstrap
    /// ([`bootstrap_of`]) elsewhere and puts the results with them in place of these with
    /// [`population_from`] (the page's reader workers, `SplitAudit`).
    pub bootstrap_deferred: bool,
    /// Each record's risk, when the settings keep them: `details.per_record` of
    /// `record_risk` (spec README Sec 10).
    pub record_risks: Option<Value>,
    /// The household column's summary (peer-measures.md Sec 2), when one is named.
    pub households: Option<&'a household::Households>,
    /// Whether `household_risk_er` lists each household (the setting `per_record`).
    pub per_household: bool,
}

/// The context of the identity family's results.
fn context(qi: &[String], p: &IdentityParams) -> Context {
    Context {
        family: "identity",
        scope: Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({
            "missing_policy": p.missing_policy,
            "exclude_suppressed_rows": p.exclude_suppressed_rows,
            "wildcard_alpha": p.wildcard_alpha,
        }),
    }
}

/// The identity family's results from a finished class table, and the figures other
/// families read.
pub fn finish(input: &IdentityInput<'_>, p: &IdentityParams) -> (Vec<MetricResult>, IdentityFigures) {
    let (table, qi) = (input.table, input.qi);
    let ctx = context(qi, p);
    let n = table.records();
    let scope = RowScope { rows: table.rows_total, in_scope: n, dropped: table.dropped, suppressed: table.suppressed };
    let mut out = counts(&ctx, &scope);
    if n == 0 {
        out.extend(empty_scope(&ctx, p));
        out.extend(household::metrics(&ctx, input.households, &[], 0, household::RiskSource::InverseF, false));
        return (out, IdentityFigures { scope: Some(scope), ..IdentityFigures::default() });
    }
    // Attribution reads the class table alone: it runs beside the other metrics, whose own
    // steps (the bootstrap, SCORR) leave cores idle.
    let attribution = (!input.attribution_deferred).then_some(|| attribution::metrics(&ctx, table, qi, p.threshold));
    let (attribution, (rest, figures, checked)) = crate::par::join_some(attribution, || from_classes(&ctx, input, p));
    out.extend(rest);
    out.extend(attribution.into_iter().flatten());
    out.push(arx_verdict(&ctx, &checked, p));
    (out, IdentityFigures { scope: Some(scope), ..figures })
}

/// The attribution results [`finish`] leaves out when `attribution_deferred`, from the
/// statistics of the lattice of a table of `n` records (at least one). They go just before
/// `verdict_arx_thresholds`, where [`finish`] puts them.
pub fn attribution_from(qi: &[String], p: &IdentityParams, n: u64, stats: Vec<attribution::SubsetStats>) -> Vec<MetricResult> {
    attribution::metrics_from(&context(qi, p), n, qi, stats)
}

/// The bootstrap of the population estimators of the audit of `table` (its class-size
/// histogram, Sec 7), or `None` when it has none: no records, the `wildcard` policy (the sizes
/// are not a partition), or no intervals asked for.
pub fn bootstrap_of(table: &ClassTable, p: &IdentityParams) -> Option<Bootstrap> {
    if table.records() == 0 || p.missing_policy == MissingPolicy::Wildcard || !p.ci.enabled() {
        return None;
    }
    Some(Bootstrap::of(&size_histogram(table), &p.population, &p.ci))
}

/// The class-size histogram `(s, c_s)`, ascending `s`, of the classes of `table` (as
/// [`Sizes::histogram`] of their counts): counted, not sorted, below [`COUNTED_SIZES`] (nearly
/// every class), where the audit in steps waits for it (the hospital table's million classes:
/// a sort of them cost 8 ms in the page's worker).
fn size_histogram(table: &ClassTable) -> Vec<(u64, u64)> {
    let mut counted = vec![0u64; COUNTED_SIZES];
    let mut larger: Vec<u64> = Vec::new();
    for i in 0..table.len() {
        match counted.get_mut(table.count(i) as usize) {
            Some(c) => *c += 1,
            None => larger.push(table.count(i)),
        }
    }
    larger.sort_unstable();
    let small = counted.iter().zip(0u64..).filter(|(c, _)| **c > 0).map(|(&c, s)| (s, c));
    small.chain(larger.chunk_by(|a, b| a == b).map(|run| (run[0], run.len() as u64))).collect()
}

/// Class sizes below this are counted in an array by [`size_histogram`].
const COUNTED_SIZES: usize = 1 << 12;

/// The population-uniqueness results (Sec 7) with their intervals from `bootstrap`'s
/// replicates `reps` (all of them, in order): the results [`finish`] gives with
/// `bootstrap_deferred` without intervals, in their place, make its report without it.
pub fn population_from(qi: &[String], p: &IdentityParams, bootstrap: &Bootstrap, reps: &[Replicate]) -> Vec<MetricResult> {
    let (hist, n) = bootstrap.sample();
    population::metrics_from(&context(qi, p), hist, n, &p.population, true, &p.ci, reps)
}

/// Every identity metric but attribution, from the class table (Sec 2-9), and the figures
/// other families read, and the values ARX's thresholds check.
fn from_classes(ctx: &Context, input: &IdentityInput<'_>, p: &IdentityParams) -> (Vec<MetricResult>, IdentityFigures, ArxChecked) {
    let (table, qi) = (input.table, input.qi);
    let n = table.records();
    let mut out = Vec::new();
    let partition = p.missing_policy != MissingPolicy::Wildcard;
    let wildcard_f = (!partition).then(|| table.match_counts(p.wildcard_alpha));
    let f_of = |i: usize| wildcard_f.as_ref().map_or(table.count(i) as f64, |f| f[i]);
    let sizes = Sizes::of(table, f_of);
    let (sized, r_internal, prosecutor) = size_family(ctx, &sizes, partition, riskiest(table, f_of), input.record_risks.clone(), p, input.bootstrap_deferred);
    out.extend(sized);
    let f: Vec<f64> = (0..table.len()).map(f_of).collect();
    let big_f = table.is_weighted().then(|| table.match_sums(p.wildcard_alpha, |j| table.weight(j)));
    out.extend(weighted_risk(ctx, table, &f, big_f.as_deref(), &p.ci));
    out.extend(household_risk(ctx, input, &f, big_f.as_deref()));
    drop((wildcard_f, big_f));
    let mut peers = Vec::new();
    let (models, checked) = match &input.population {
        PopulationTable::Absent => {
            peers.push(kmap::k_map_without(ctx, "no_population_table", &[]));
            peers.push(kmap::delta_presence_without(ctx, "no_population_table", &[]));
            let (models, checked) = journalist::without_population(ctx, &sizes, p.threshold);
            (models, Some(checked))
        }
        PopulationTable::MissingQi(missing) => {
            peers.push(kmap::k_map_without(ctx, "population_missing_qi", missing));
            peers.push(kmap::delta_presence_without(ctx, "population_missing_qi", missing));
            (journalist::missing_qi(ctx, missing), None)
        }
        PopulationTable::Table(e, columns, subset) => {
            let (big_f, raised) = journalist::population_counts(table, e, columns, &f, p.wildcard_alpha);
            peers.push(kmap::k_map(ctx, table, &big_f, raised, qi, &p.kmap));
            peers.push(kmap::delta_presence(ctx, table, e, columns, *subset, qi, &p.kmap));
            let (models, checked) = journalist::with_population(ctx, table, &big_f, raised, p.threshold);
            (models, Some(checked))
        }
    };
    out.extend(models);
    peers.insert(1, kmap::k_map_estimated(ctx, n, sizes.min_f(), &p.population, &p.kmap));
    out.extend(peers);
    let (scorr, scorr_figures) = scorr::metrics(ctx, &scorr::ScorrInput { table, f: &f, persons: input.persons, alpha: p.wildcard_alpha, qi });
    out.extend(scorr);
    drop(f);
    let figures = IdentityFigures { n_records: n, k_anonymity: Some(sizes.min_f()), r_internal: Some(r_internal), ..scorr_figures };
    (out, figures, ArxChecked { prosecutor, others: checked })
}

/// The records in and out of scope (spec identity-risk.md Sec 1.2).
fn counts(ctx: &Context, s: &RowScope) -> Vec<MetricResult> {
    vec![
        ctx.ok("n_records_total", s.rows),
        ctx.ok("n_records", s.in_scope),
        ctx.ok("n_suppressed_records", s.suppressed),
        ctx.ok("n_dropped_records", s.dropped),
    ]
}

/// What an empty scope reports: every metric from the classes `empty_input`.
fn empty_scope(ctx: &Context, p: &IdentityParams) -> Vec<MetricResult> {
    let ids = IDS.iter().chain(&journalist::IDS).chain(&LATER_IDS);
    let mut out: Vec<MetricResult> = ids.map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect();
    out.extend(population::metrics(ctx, &[], 0, &p.population, true, &p.ci));
    out.push(ctx.without_value("k_map", Status::EmptyInput, "no_records_in_scope"));
    out.push(ctx.without_value("k_map_estimated", Status::EmptyInput, "no_records_in_scope"));
    out.push(Context { family: "membership", ..ctx.clone() }.without_value("delta_presence", Status::EmptyInput, "no_records_in_scope"));
    out
}

/// The metrics that read the class-size histogram alone (Sec 2-5, 7): class sizes,
/// uniqueness, record risk and the prosecutor model (`top`: the riskiest classes), the
/// population-uniqueness estimators; and `R_int`. `per_record`: each record's risk, for
/// `record_risk`'s details.
fn size_family(
    ctx: &Context,
    sizes: &Sizes,
    partition: bool,
    top: Vec<RiskyClass>,
    per_record: Option<Value>,
    p: &IdentityParams,
    bootstrap_deferred: bool,
) -> (Vec<MetricResult>, f64, [f64; 3]) {
    let mut out = class_size::metrics(ctx, sizes, partition);
    let top = RiskyClass::list_json(&top, &ctx.scope.quasi_identifiers);
    let (risk, r_internal, prosecutor) = record_risk::metrics(ctx, sizes, partition, p.threshold, top, per_record);
    out.extend(risk);
    // Deferred, the intervals come later with the results of `population_from`.
    let ci = if bootstrap_deferred { CiParams { ci_replicates: 0, ..p.ci } } else { p.ci };
    out.extend(population::metrics(ctx, &sizes.histogram(), sizes.n, &p.population, partition, &ci));
    (out, r_internal, prosecutor)
}

/// sdcMicro's individual and global risk with the weight column (Sec 8), and the weighted
/// R_internal (Sec 4, opt); `not_applicable` without weights. `big_f`: each class's weighted
/// count `Fk` (Sec 8), with a weight column.
fn weighted_risk(ctx: &Context, table: &ClassTable, f: &[f64], big_f: Option<&[f64]>, ci: &crate::interval::CiParams) -> Vec<MetricResult> {
    let Some(big_f) = big_f else {
        let ids = ["sdc_individual_risk", "global_risk_er", "global_risk", "risky_observations", "r_internal_weighted"];
        return ids.iter().map(|id| ctx.without_value(id, Status::NotApplicable, "no_weight_column")).collect();
    };
    let classes: Vec<(f64, f64, u64)> = (0..table.len()).map(|i| (f[i], big_f[i], table.count(i))).collect();
    let total = crate::numeric::neumaier((0..table.len()).map(|i| table.weight(i)));
    // The sampling fraction the weights imply: records over the population they stand for.
    let fraction = if total > 0.0 { (table.records() as f64 / total).min(1.0) } else { 1.0 };
    let mut out = weighted::metrics(ctx, &classes, fraction, ci);
    out.push(if total > 0.0 {
        ctx.ok("r_internal_weighted", crate::numeric::neumaier((0..table.len()).map(|i| table.weight(i) / f[i])) / total)
    } else {
        ctx.without_value("r_internal_weighted", Status::NotApplicable, "zero_total_weight")
    });
    out
}

/// Household risk (peer-measures.md Sec 2): each class's `r(i)`, sdcMicro's individual risk
/// with the weight column (`big_f`, Sec 8), else `1/f(i)`; `not_applicable` without a household
/// column.
fn household_risk(ctx: &Context, input: &IdentityInput<'_>, f: &[f64], big_f: Option<&[f64]>) -> Vec<MetricResult> {
    let Some(households) = input.households else {
        return household::metrics(ctx, None, &[], 0, household::RiskSource::InverseF, false);
    };
    let (r, source): (Vec<f64>, _) = match big_f {
        Some(big_f) => (f.iter().zip(big_f).map(|(&fk, &big)| weighted::individual_risk(fk, big)).collect(), household::RiskSource::Weights),
        None => (f.iter().map(|&fk| 1.0 / fk).collect(), household::RiskSource::InverseF),
    };
    household::metrics(ctx, Some(households), &r, input.table.records(), source, input.per_household)
}

/// The values of the attacker models ARX's thresholds check: the prosecutor's records at risk,
/// highest risk and success rate, and the journalist's and marketer's (none when the
/// population table lacks QIs).
struct ArxChecked {
    prosecutor: [f64; 3],
    others: Option<journalist::Checked>,
}

/// `verdict_arx_thresholds` from the attacker models' values; `attacker_model_missing` when one
/// has none (or one that is not finite, which its result reports as `null`).
fn arx_verdict(ctx: &Context, checked: &ArxChecked, p: &IdentityParams) -> MetricResult {
    let ctx = Context { family: "verdict", ..ctx.clone() };
    let values = checked.others.map(|o| crate::verdict::arx::AttackerValues { prosecutor: checked.prosecutor, journalist: o.journalist, marketer: o.marketer });
    match values.filter(|v| v.prosecutor.iter().chain(&v.journalist).chain([&v.marketer]).all(|x| x.is_finite())) {
        Some(values) => crate::verdict::arx::arx(&ctx, &values, &p.arx_thresholds()),
        None => ctx.without_value("verdict_arx_thresholds", Status::NotApplicable, "attacker_model_missing"),
    }
}

/// Ids computed from the classes, in output order (empty input reports each as `empty_input`).
const IDS: [&str; 19] = [
    "k_anonymity",
    "n_classes",
    "class_size_histogram",
    "ec_size_percentiles",
    "max_class_size",
    "k_violators",
    "sample_uniques",
    "sample_uniqueness",
    "rare_combination_rate",
    "record_risk",
    "r_internal",
    "avg_risk_class_mean",
    "prosecutor_lowest_risk",
    "prosecutor_success_rate",
    "prosecutor_highest_risk",
    "prosecutor_records_at_risk",
    "prosecutor_records_affected_by_highest_risk",
    "prosecutor_records_affected_by_lowest_risk",
    "risk_distribution",
];

/// Ids after the prosecutor model that an empty scope also reports as `empty_input`.
const LATER_IDS: [&str; 5] = ["scorr_uniqueness_risk", "scorr_uniformity_risk_qi", "qi_distinction", "qi_separation", "verdict_arx_thresholds"];

/// One of the classes with the highest record risk (`record_risk.details.top`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RiskyClass {
    /// Its value per QI as [`crate::table::dictionary::Dictionary::sort_key`] orders them:
    /// `(0, "")` blank, `(1, "")` suppressed, `(2, text)`.
    pub values: Vec<(u32, String)>,
    /// Records in the class.
    pub size: u64,
    /// Its `f`.
    pub f: f64,
}

impl RiskyClass {
    /// Riskiest first (smallest `f`), ties broken by the values: an order that does not depend
    /// on row order, nor on which part of a table a class was found in.
    fn cmp(&self, other: &RiskyClass) -> Ordering {
        self.f.total_cmp(&other.f).then_with(|| self.values.cmp(&other.values))
    }

    /// The [`TOP_CLASSES`] riskiest of two lists of riskiest classes.
    pub fn merge(mut a: Vec<RiskyClass>, b: Vec<RiskyClass>) -> Vec<RiskyClass> {
        a.extend(b);
        a.sort_by(RiskyClass::cmp);
        a.truncate(TOP_CLASSES);
        a
    }

    /// The list as the report shows it: each class's values by QI name (a blank as null).
    fn list_json(top: &[RiskyClass], qi: &[String]) -> Value {
        let row = |c: &RiskyClass| {
            let values: serde_json::Map<String, Value> = qi
                .iter()
                .zip(&c.values)
                .map(|(name, (kind, text))| {
                    let shown = match kind {
                        0 => Value::Null,
                        1 => json!("*"),
                        _ => json!(text),
                    };
                    (name.clone(), shown)
                })
                .collect();
            json!({ "values": values, "size": c.size, "f": crate::json::count_or_real(c.f), "risk": 1.0 / c.f })
        };
        Value::Array(top.iter().map(row).collect())
    }
}

/// The [`TOP_CLASSES`] classes with the highest record risk (smallest `f`), ties broken by
/// their values so the list does not depend on row order. One pass, bounded memory.
fn riskiest(table: &ClassTable, f_of: impl Fn(usize) -> f64) -> Vec<RiskyClass> {
    let cmp = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then_with(|| table.cmp_values(a.1, b.1));
    let mut best: Vec<(f64, usize)> = Vec::with_capacity(TOP_CLASSES + 1);
    for i in 0..table.len() {
        let c = (f_of(i), i);
        if best.len() == TOP_CLASSES && cmp(&c, &best[TOP_CLASSES - 1]) != Ordering::Less {
            continue;
        }
        let at = best.partition_point(|b| cmp(b, &c) == Ordering::Less);
        best.insert(at, c);
        best.truncate(TOP_CLASSES);
    }
    best.iter()
        .map(|&(f, i)| RiskyClass {
            values: (0..table.q())
                .map(|a| {
                    let (kind, text) = table.dict(a).sort_key(table.code_at(i, a));
                    (kind, text.to_string())
                })
                .collect(),
            size: table.count(i),
            f,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counted_size_histogram_is_the_sorted_one() {
        // Sizes below and above the counted ones, repeated and not.
        let sizes = [1u64, 1, 2, 7, 7, 7, 4095, 4096, 4096, 5000, 12_345];
        let mut t = ClassTable::new(1, MissingPolicy::Ordinary, true, false);
        for (i, &size) in sizes.iter().enumerate() {
            let key = [t.code(0, crate::ingest::cell::Cell::text(&i.to_string()))];
            for _ in 0..size {
                t.absorb(&key, 0.0).unwrap();
            }
        }
        let want = Sizes::of(&t, |i| t.count(i) as f64).histogram();
        assert_eq!(want, [(1, 2), (2, 1), (7, 3), (4095, 1), (4096, 2), (5000, 1), (12_345, 1)]);
        assert_eq!(size_histogram(&t), want);
    }
}
