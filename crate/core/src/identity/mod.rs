//! Identity disclosure (spec identity-risk.md): equivalence classes over the
//! quasi-identifiers, class sizes, uniqueness, record risk, the ARX attacker models, SCORR's
//! risks, QI attribution and the verdicts.

pub mod attribution;
pub mod class_size;
pub mod journalist;
pub mod persons;
pub mod population;
pub mod record_risk;
pub mod scorr;
pub mod weighted;

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::metric::{Context, MetricResult, Scope, Status};
pub use crate::table::classes::{ClassTable, MissingPolicy};
use persons::Persons;

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
}

/// The population table of the journalist and marketer models (Sec 6).
pub enum PopulationTable<'a> {
    /// None given.
    Absent,
    /// Given, but lacking these QIs.
    MissingQi(Vec<String>),
    /// Given, over the same QIs; QI `a` (column order of `P`) is column `columns[a]` of `E`.
    Table(&'a ClassTable, Vec<usize>),
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
}

/// The identity family's results from a finished class table.
pub fn finish(input: &IdentityInput<'_>, p: &IdentityParams) -> Vec<MetricResult> {
    let (table, qi) = (input.table, input.qi);
    let ctx = Context {
        family: "identity",
        scope: Scope { table: "P", quasi_identifiers: qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: json!({
            "missing_policy": p.missing_policy,
            "exclude_suppressed_rows": p.exclude_suppressed_rows,
            "wildcard_alpha": p.wildcard_alpha,
        }),
    };
    let n = table.records();
    let mut out = vec![
        ctx.ok("n_records_total", table.rows_total),
        ctx.ok("n_records", n),
        ctx.ok("n_suppressed_records", table.suppressed),
        ctx.ok("n_dropped_records", table.dropped),
    ];
    if n == 0 {
        let ids = IDS.iter().chain(&journalist::IDS).chain(&LATER_IDS);
        out.extend(ids.map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")));
        out.extend(population::metrics(&ctx, &[], 0, &p.population, true, &p.ci));
        return out;
    }
    let partition = p.missing_policy != MissingPolicy::Wildcard;
    let wildcard_f = (!partition).then(|| table.match_counts(p.wildcard_alpha));
    let f_of = |i: usize| wildcard_f.as_ref().map_or(table.count(i) as f64, |f| f[i]);
    let sizes = Sizes::of(table, f_of);
    out.extend(class_size::metrics(&ctx, &sizes, partition));
    out.extend(record_risk::metrics(&ctx, &sizes, partition, p.threshold, riskiest(table, f_of, qi)));
    let hist: Vec<(u64, u64)> = sizes.groups.iter().map(|g| (g.f as u64, g.classes)).collect();
    out.extend(population::metrics(&ctx, &hist, n, &p.population, partition, &p.ci));
    let f: Vec<f64> = (0..table.len()).map(f_of).collect();
    out.extend(weighted_risk(&ctx, table, &f, p.wildcard_alpha, &p.ci));
    drop(wildcard_f);
    out.extend(match &input.population {
        PopulationTable::Absent => journalist::metrics(&ctx, table, &f, None, p.threshold),
        PopulationTable::MissingQi(missing) => journalist::missing_qi(&ctx, missing),
        PopulationTable::Table(e, columns) => {
            let (big_f, raised) = journalist::population_counts(table, e, columns, &f, p.wildcard_alpha);
            journalist::metrics(&ctx, table, &f, Some((&big_f, raised)), p.threshold)
        }
    });
    out.extend(scorr::metrics(&ctx, &scorr::ScorrInput { table, f: &f, persons: input.persons, alpha: p.wildcard_alpha, qi }));
    drop(f);
    out.extend(attribution::metrics(&ctx, table, qi));
    out.push(arx_verdict(&ctx, &out, p));
    out
}

/// sdcMicro's individual and global risk with the weight column (Sec 8), and the weighted
/// R_internal (Sec 4, opt); `not_applicable` without weights.
fn weighted_risk(ctx: &Context, table: &ClassTable, f: &[f64], alpha: f64, ci: &crate::interval::CiParams) -> Vec<MetricResult> {
    if !table.is_weighted() {
        let ids = ["sdc_individual_risk", "global_risk_er", "global_risk", "risky_observations", "r_internal_weighted"];
        return ids.iter().map(|id| ctx.without_value(id, Status::NotApplicable, "no_weight_column")).collect();
    }
    let big_f = table.match_sums(alpha, |j| table.weight(j));
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

/// `verdict_arx_thresholds` from the attacker-model results already computed.
fn arx_verdict(ctx: &Context, out: &[MetricResult], p: &IdentityParams) -> MetricResult {
    let value = |id: &str| out.iter().find(|m| m.id == id).and_then(|m| m.value.as_f64());
    let three = |model: &str| {
        ["records_at_risk", "highest_risk", "success_rate"].map(|what| value(&format!("{model}_{what}")))
    };
    let ctx = Context { family: "verdict", ..ctx.clone() };
    let (Some(pr), Some(jo), Some(marketer)) = (
        three("prosecutor").into_iter().collect::<Option<Vec<f64>>>(),
        three("journalist").into_iter().collect::<Option<Vec<f64>>>(),
        value("marketer_success_rate"),
    ) else {
        return ctx.without_value("verdict_arx_thresholds", Status::NotApplicable, "attacker_model_missing");
    };
    let values = crate::verdict::arx::AttackerValues { prosecutor: [pr[0], pr[1], pr[2]], journalist: [jo[0], jo[1], jo[2]], marketer };
    crate::verdict::arx::arx(&ctx, &values, &p.arx_thresholds())
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
const LATER_IDS: [&str; 5] =
    ["scorr_uniqueness_risk", "scorr_uniformity_risk_qi", "qi_distinction", "qi_separation", "verdict_arx_thresholds"];

/// The [`TOP_CLASSES`] classes with the highest record risk (smallest `f`), ties broken by
/// their values so the list does not depend on row order. One pass, bounded memory.
fn riskiest(table: &ClassTable, f_of: impl Fn(usize) -> f64, qi: &[String]) -> Value {
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
    let rows: Vec<Value> = best
        .iter()
        .map(|&(f, i)| {
            let values: serde_json::Map<String, Value> = qi
                .iter()
                .enumerate()
                .map(|(q, name)| (name.clone(), json!(table.dict(q).display(table.code_at(i, q)))))
                .collect();
            json!({ "values": values, "size": table.count(i), "f": crate::json::count_or_real(f), "risk": 1.0 / f })
        })
        .collect();
    Value::Array(rows)
}
