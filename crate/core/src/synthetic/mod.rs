//! Measures of a synthetic or perturbed release against the original (spec synthetic.md,
//! after NIST's SDNist 2.4), computed per distinct value from the tables kept in memory:
//!
//! - Sec 1.2-1.4 (the compared columns, one value space): [`columns`];
//! - Sec 1.5 (percentile bins): [`binning`]; Sec 2 (`k_marginal`): [`kmarginal`], its
//!   sampling-equivalent baseline (Sec 2.5): [`sampling`];
//! - Sec 3 (`unique_exact_matches`): [`exact_matches`]; Sec 4 (`apparent_match`):
//!   [`apparent_match`]; both number row tuples with [`tuples`];
//! - Sec 1.4 (columns as numbers): [`coded`]; Sec 5 (`pmse`): [`pmse`], on the reference
//!   tree of [`cart`]; Sec 6 (`correlation_difference`): [`correlation`]; Sec 7
//!   (`pca_comparison`): [`pca`] with [`eigen`]; Sec 8 (`linear_regression`): [`regression`];
//! - Sec 10 (`dcr_baseline_protection`, `dcr_overfitting_protection`): [`dcr`] (the distance
//!   and the nearest-record search), [`dcr_protection`] (the scores, the random table);
//! - Sec 11 (`disclosure_protection`): [`cap`].
//!
//! The compared columns are those `O` and `P` both hold among `O`'s utility attributes: the
//! record id, the person id, the weight and the ignored columns are never compared.

pub mod apparent_match;
pub mod binning;
pub mod cap;
pub mod cart;
pub mod coded;
pub mod columns;
pub mod correlation;
pub mod dcr;
pub mod dcr_protection;
pub mod eigen;
pub mod exact_matches;
pub mod kmarginal;
pub mod pca;
pub mod pmse;
pub mod regression;
pub mod sampling;
pub mod tuples;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::metric::{Context, MetricResult, Scope, Status};
use crate::utility::attribute::AttributeSettings;
use crate::utility::capture::Captured;
use binning::Marginal;
use columns::SynColumn;

/// The method of the CAP attacker (synthetic.md Sec 11, SDMetrics' `computation_method`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapMethod {
    /// Rows of `O` whose key `P` lacks are skipped.
    #[default]
    Cap,
    /// Rows of `O` whose key `P` lacks score 0.
    ZeroCap,
    /// The keys of `P` at the least Hamming distance are pooled.
    GeneralizedCap,
}

/// The settings of the synthetic measures (the spec's names, with `_` for `.`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyntheticParams {
    /// The measures to compute, by metric id; empty: every one (a pseudolens setting: the DCR is
    /// quadratic, and a bench times one measure at a time).
    pub measures: Vec<String>,
    /// `kmarg.bins`: percentile bins of a numeric column, default 20 (Sec 1.5).
    pub kmarg_bins: u32,
    /// `kmarg.binned`: numeric columns binned whatever their number of values (Sec 1.5).
    pub kmarg_binned: Vec<String>,
    /// `kmarg.exclude`: columns left out of the marginals (Sec 2.1).
    pub kmarg_exclude: Vec<String>,
    /// `kmarg.group_by`: the group column of the grouped score (Sec 2.4).
    pub kmarg_group_by: Option<String>,
    /// `kmarg.seed`: the seed of the sampling-equivalent's samples (Sec 2.5), default 0.
    #[cfg_attr(test, ts(type = "number"))]
    pub kmarg_seed: u64,
    /// The excluded set `X` of the apparent match: columns not compared (Sec 4).
    pub amd_exclude: Vec<String>,
    /// `pmse.null_perms`: label permutations of the pMSE's null (Sec 5.4), default 20; 0: none.
    pub pmse_null_perms: u32,
    /// `pmse.seed`: the seed of the permutations, default 0.
    #[cfg_attr(test, ts(type = "number"))]
    pub pmse_seed: u64,
    /// `linreg.x`: the regression's explanatory column (Sec 8); without it and `linreg_y`,
    /// no regression.
    pub linreg_x: Option<String>,
    /// `linreg.y`: the explained column.
    pub linreg_y: Option<String>,
    /// `linreg.groups`: columns whose value combinations are the subgroups fitted besides the
    /// total (SDNist's RAC1P x SEX).
    pub linreg_groups: Vec<String>,
    /// `linreg.min_row`: rows an `x` value needs for its row of the density matrix, default 20.
    pub linreg_min_rows: u32,
    /// `dcr.seed`: the seed of the random table and of any subsample (Sec 10.2), default 0.
    #[cfg_attr(test, ts(type = "number"))]
    pub dcr_seed: u64,
    /// `dcr.max_cells`: above `n_P x n_O` pairs of rows, the DCR runs on a seeded subsample,
    /// labelled an estimate; default 1e9.
    #[cfg_attr(test, ts(type = "number"))]
    pub dcr_max_cells: u64,
    /// CAP's known columns `K` (Sec 11); empty: the QIs.
    pub cap_known: Vec<String>,
    /// CAP's sensitive columns `S`; empty: the sensitive columns.
    pub cap_sensitive: Vec<String>,
    /// CAP's method, default `cap`.
    pub cap_method: CapMethod,
    /// CAP's continuous columns, cut into `cap_bins` equal-width bins; default none.
    pub cap_continuous: Vec<String>,
    /// `num_discrete_bins`, default 10.
    pub cap_bins: u32,
}

impl Default for SyntheticParams {
    fn default() -> Self {
        SyntheticParams {
            measures: Vec::new(),
            kmarg_bins: 20,
            kmarg_binned: Vec::new(),
            kmarg_exclude: Vec::new(),
            kmarg_group_by: None,
            kmarg_seed: 0,
            amd_exclude: Vec::new(),
            pmse_null_perms: 20,
            pmse_seed: 0,
            linreg_x: None,
            linreg_y: None,
            linreg_groups: Vec::new(),
            linreg_min_rows: 20,
            dcr_seed: 0,
            dcr_max_cells: 1_000_000_000,
            cap_known: Vec::new(),
            cap_sensitive: Vec::new(),
            cap_method: CapMethod::Cap,
            cap_continuous: Vec::new(),
            cap_bins: 10,
        }
    }
}

impl SyntheticParams {
    /// Checks the settings.
    pub fn check(&self) -> Result<()> {
        if self.kmarg_bins == 0 {
            return Err(Error::config("invalid_synthetic_setting", "the k-marginal's number of bins (kmarg_bins) must be at least 1"));
        }
        if let Some(m) = self.measures.iter().find(|m| !IDS.contains(&m.as_str())) {
            return Err(Error::config("invalid_synthetic_setting", format!("no synthetic measure is called {m:?} (measures: {})", IDS.join(", "))));
        }
        if self.cap_bins == 0 {
            return Err(Error::config("invalid_synthetic_setting", "CAP's number of bins (cap_bins) must be at least 1"));
        }
        if self.linreg_x.is_some() != self.linreg_y.is_some() {
            return Err(Error::config("invalid_synthetic_setting", "the regression needs both its columns (linreg_x and linreg_y)"));
        }
        Ok(())
    }
}

/// What the synthetic measures read.
pub struct SyntheticInput<'a> {
    /// The original `O`; `None`: every measure is `not_applicable`.
    pub original: Option<&'a Captured>,
    /// The release `P` (the columns `O` has).
    pub released: Option<&'a Captured>,
    /// The holdout `H`: records of the population not used to make `P` (the attacks' control
    /// table; Sec 10.3).
    pub holdout: Option<&'a Captured>,
    /// The QIs: the apparent match's set `Q` and CAP's default known columns.
    pub qi: &'a [String],
    /// The sensitive columns: CAP's default sensitive columns.
    pub sensitive: &'a [String],
    /// Declared kinds (numbers compare as numbers).
    pub attributes: &'a BTreeMap<String, AttributeSettings>,
    /// The normalisation of cells.
    pub norm: &'a Normaliser,
}

/// The measures' ids, in the report's order.
const IDS: &[&str] = &[
    "k_marginal",
    "unique_exact_matches",
    "apparent_match",
    "pmse",
    "correlation_difference",
    "pca_comparison",
    "linear_regression",
    "dcr_baseline_protection",
    "dcr_overfitting_protection",
    "disclosure_protection",
];

/// The measures' results (those `measures` names, or every one).
pub fn metrics(input: &SyntheticInput<'_>, params: &SyntheticParams) -> Vec<MetricResult> {
    let ctx = context(input, params);
    let all = |status: Status, reason: &'static str| IDS.iter().filter(|id| params.wants(id)).map(|id| ctx.without_value(id, status, reason)).collect();
    let (Some(o), Some(p)) = (input.original, input.released) else {
        return all(Status::NotApplicable, "no_original_table");
    };
    if o.rows() == 0 || p.rows() == 0 {
        return all(Status::EmptyInput, "empty_input");
    }
    measures(input, &joined(input), params)
}

impl SyntheticParams {
    /// Whether the measure `id` is asked for.
    fn wants(&self, id: &str) -> bool {
        self.measures.is_empty() || self.measures.iter().any(|m| m == id)
    }
}

fn context(input: &SyntheticInput<'_>, params: &SyntheticParams) -> Context {
    Context {
        family: "synthetic",
        scope: Scope { table: "P", quasi_identifiers: input.qi.to_vec(), sensitive: None, attribute: None, subset: None },
        params: serde_json::to_value(params).unwrap_or(Value::Null),
    }
}

/// The compared columns of `O` and `P` (and `H`) joined in one value space (Sec 1.2-1.3): the
/// work every measure shares, done once; empty without `O` or `P`.
pub fn joined(input: &SyntheticInput<'_>) -> Vec<SynColumn> {
    let (Some(o), Some(p)) = (input.original, input.released) else { return Vec::new() };
    columns::common(o, p)
        .iter()
        .map(|name| {
            let settings = input.attributes.get(name).cloned().unwrap_or_default();
            let h = input.holdout.and_then(|h| h.column(name));
            SynColumn::new(name, o.column(name).expect("common"), p.column(name).expect("common"), h, settings, input.norm)
        })
        .collect()
}

/// The measures asked for, on the joined `columns` of `O` and `P`, both with rows.
pub fn measures(input: &SyntheticInput<'_>, columns: &[SynColumn], params: &SyntheticParams) -> Vec<MetricResult> {
    let ctx = context(input, params);
    let wants = |id: &str| params.wants(id);
    let (n_o, n_p) = (input.original.map_or(0, Captured::rows), input.released.map_or(0, Captured::rows));
    let mut out = Vec::new();
    if wants("k_marginal") {
        out.push(k_marginal_metric(&ctx, columns, params));
    }
    if wants("unique_exact_matches") {
        out.push(exact_matches_metric(&ctx, columns, n_o, n_p));
    }
    if wants("apparent_match") {
        out.push(apparent_match_metric(&ctx, columns, input.qi, params));
    }
    if wants("pmse") {
        out.push(pmse_metric(&ctx, columns, params));
    }
    if wants("correlation_difference") {
        out.push(correlation_metric(&ctx, columns));
    }
    if wants("pca_comparison") {
        out.push(pca_metric(&ctx, columns));
    }
    if wants("linear_regression") {
        out.push(regression_metric(&ctx, columns, params));
    }
    out.extend(dcr_metrics(&ctx, columns, input.holdout, params, [wants(DCR_BASE), wants(DCR_OVER)]));
    if wants("disclosure_protection") {
        out.push(disclosure_metric(&ctx, columns, input, params));
    }
    out
}

fn column_missing(ctx: &Context, id: &'static str, name: &str) -> MetricResult {
    ctx.without_value(id, Status::Error, "column_missing").with_details(json!({ "column": name }))
}

fn find<'c>(columns: &'c [SynColumn], name: &str) -> Option<&'c SynColumn> {
    columns.iter().find(|c| c.name == name)
}

/// `k_marginal` (Sec 2): the grouped score when grouped, else the ungrouped one; both in details.
fn k_marginal_metric(ctx: &Context, columns: &[SynColumn], params: &SyntheticParams) -> MetricResult {
    const ID: &str = "k_marginal";
    let group = match &params.kmarg_group_by {
        Some(g) => match find(columns, g) {
            Some(c) => Some(c),
            None => return column_missing(ctx, ID, g),
        },
        None => None,
    };
    if let Some(name) = params.kmarg_binned.iter().find(|b| find(columns, b).is_none()) {
        return column_missing(ctx, ID, name);
    }
    if let Some(name) = params.kmarg_binned.iter().find(|b| find(columns, b).is_some_and(|c| !c.numeric)) {
        return ctx.without_value(ID, Status::Error, "column_not_numeric").with_details(json!({ "column": name }));
    }
    let mut marginal: Vec<&SynColumn> =
        columns.iter().filter(|c| Some(c.name.as_str()) != params.kmarg_group_by.as_deref() && !params.kmarg_exclude.contains(&c.name)).collect();
    if marginal.is_empty() {
        return ctx.without_value(ID, Status::NotApplicable, "no_marginal_columns");
    }
    marginal.sort_by(|a, b| a.name.cmp(&b.name));
    let bins = params.kmarg_bins;
    let mut binned = Vec::new();
    let marginals: Vec<(String, Marginal)> = marginal
        .iter()
        .map(|c| {
            let distinct_in_o = {
                let mut seen = vec![false; c.n_values()];
                c.o.iter().filter(|&&v| c.numbers[v as usize].is_some()).for_each(|&v| seen[v as usize] = true);
                seen.iter().filter(|&&s| s).count()
            };
            let bin = c.numeric && (distinct_in_o > bins as usize || params.kmarg_binned.contains(&c.name));
            if bin {
                binned.push(c.name.clone());
            }
            (c.name.clone(), if bin { Marginal::binned(c, bins) } else { Marginal::plain(c) })
        })
        .collect();
    let as_group = || group.map(|g| kmarginal::Group { o: &g.o, p: &g.p, len: g.n_values() });
    let k = kmarginal::k_marginal(&marginals, as_group());
    let headline = k.score_grouped.unwrap_or(k.score_ungrouped);
    // O's rows by their values (the group's, then each marginal column's): the samples do
    // not depend on the file's row order.
    let keys: Vec<&SynColumn> = group.into_iter().chain(marginal.iter().copied()).collect();
    let rows = columns::rows_by_value(&keys, marginals[0].1.o.len());
    let baseline = sampling::sampling_equivalent(&marginals, as_group(), headline, params.kmarg_seed, rows);
    let mut groups = k.groups.clone();
    if let Some(g) = group {
        groups.sort_by(|a, b| g.order(a.group, b.group));
    }
    let sample_score = |group: u32| baseline.groups.iter().find(|&&(g, _)| g == group).map(|&(_, s)| s);
    let details = json!({
        "score_ungrouped": k.score_ungrouped,
        "score_grouped": k.score_grouped,
        "group_by": params.kmarg_group_by,
        "bins": bins,
        "binned": binned,
        "pairs": k.pairs.iter().map(|p| json!({ "columns": p.columns, "l1": p.l1, "l1_grouped": p.l1_grouped })).collect::<Vec<_>>(),
        "groups": groups
            .iter()
            .map(|s| json!({ "group": group.and_then(|g| g.labels[s.group as usize].clone()), "rows": s.rows, "score": s.score, "sample_score": sample_score(s.group) }))
            .collect::<Vec<_>>(),
        "sampling_equivalent": {
            "seed": params.kmarg_seed,
            "stochastic": true,
            "samples": baseline.samples.iter().map(|s| json!({ "percent": s.percent, "rows": s.rows, "score": s.score })).collect::<Vec<_>>(),
            "equivalent_percent": baseline.equivalent_percent,
        },
    });
    ctx.ok(ID, headline).with_details(details)
}

/// `unique_exact_matches` (Sec 3): the share of `O`'s unique records `P` holds, in percent.
fn exact_matches_metric(ctx: &Context, columns: &[SynColumn], n_o: usize, n_p: usize) -> MetricResult {
    let m = exact_matches::exact_matches(columns, n_o, n_p);
    ctx.ok("unique_exact_matches", m.pct_matched).with_details(json!({
        "unique_target_records": m.unique,
        "pct_unique": m.pct_unique,
        "matched": m.matched,
        "pct_matched": m.pct_matched,
        "log10_feature_space": m.log10_feature_space,
        "columns": columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
    }))
}

/// `apparent_match` (Sec 4): the share of `O`'s records apparently matched, in percent; the
/// matches (their QI values, rows and match percentage) and the histogram in details.
fn apparent_match_metric(ctx: &Context, columns: &[SynColumn], qi: &[String], params: &SyntheticParams) -> MetricResult {
    const ID: &str = "apparent_match";
    if qi.is_empty() {
        return ctx.without_value(ID, Status::NotApplicable, "no_quasi_identifiers");
    }
    let mut quasi = Vec::new();
    for name in qi {
        match find(columns, name) {
            Some(c) => quasi.push(c),
            None => return column_missing(ctx, ID, name),
        }
    }
    let rest: Vec<&SynColumn> = columns.iter().filter(|c| !qi.contains(&c.name) && !params.amd_exclude.contains(&c.name)).collect();
    let n_o = columns[0].o.len();
    let m = apparent_match::apparent_match(&quasi, &rest, n_o, columns[0].p.len());
    let mut records = m.matches.clone();
    records.sort_by(|a, b| quasi.iter().map(|c| c.order(c.o[a.row_o], c.o[b.row_o])).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal));
    let records: Vec<Value> = records
        .iter()
        .map(|r| {
            let values: Vec<Option<&str>> = quasi.iter().map(|c| c.labels[c.o[r.row_o] as usize].as_deref()).collect();
            json!({ "quasi": values, "row_original": r.row_o + 1, "row_released": r.row_p + 1, "match_pct": r.match_pct })
        })
        .collect();
    ctx.ok(ID, 100.0 * m.matches.len() as f64 / n_o as f64).with_details(json!({
        "matched": m.matches.len(),
        "unique_original": m.unique_o,
        "unique_released": m.unique_p,
        "compared": rest.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        "histogram": m.histogram,
        "records": records,
    }))
}

/// `pmse` (Sec 5): the propensity mean-squared error of the reference tree; `c`, the counts, the
/// maximum `c(1-c)`, the leaves, the histogram of Sec 5.5 and the permutation null of Sec 5.4
/// (an extension, labelled so) in details.
fn pmse_metric(ctx: &Context, columns: &[SynColumn], params: &SyntheticParams) -> MetricResult {
    const ID: &str = "pmse";
    if columns.is_empty() {
        return ctx.without_value(ID, Status::NotApplicable, "no_compared_columns");
    }
    let compared: Vec<&SynColumn> = columns.iter().collect();
    let (n_o, n_p) = (columns[0].o.len(), columns[0].p.len());
    let r = pmse::pmse(&pmse::features(&compared), n_o, n_p, params.pmse_null_perms, params.pmse_seed);
    let permutation_null = r.null.as_ref().map(|n| json!({ "perms": n.perms, "seed": n.seed, "mean": n.mean, "ratio": n.ratio, "extension": true }));
    ctx.ok(ID, r.pmse).with_details(json!({
        "c": r.c,
        "n_original": r.n_original,
        "n_released": r.n_released,
        "max": r.max(),
        "max_depth": pmse::MAX_DEPTH,
        "leaves": r.leaves,
        "histogram": { "original": r.histogram_original, "released": r.histogram_released },
        "null": permutation_null,
        "columns": columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
    }))
}

const DCR_BASE: &str = "dcr_baseline_protection";
const DCR_OVER: &str = "dcr_overfitting_protection";

/// `dcr_baseline_protection` (Sec 10.2) and `dcr_overfitting_protection` (Sec 10.3) over
/// every compared column, those `wanted` says (in that order); the DCR of `P` to `O` is
/// computed once for both, the random table only for the baseline.
fn dcr_metrics(ctx: &Context, columns: &[SynColumn], holdout: Option<&Captured>, params: &SyntheticParams, wanted: [bool; 2]) -> Vec<MetricResult> {
    let ids = [DCR_BASE, DCR_OVER].into_iter().zip(wanted).filter_map(|(id, w)| w.then_some(id));
    if !wanted.contains(&true) {
        return Vec::new();
    }
    if columns.is_empty() {
        return ids.map(|id| ctx.without_value(id, Status::NotApplicable, "no_compared_columns")).collect();
    }
    let used: Vec<&SynColumn> = columns.iter().collect();
    let names: Vec<&str> = used.iter().map(|c| c.name.as_str()).collect();
    let released = dcr_protection::Released::new(&used, params.dcr_seed, params.dcr_max_cells);
    let mut out = Vec::new();
    if wanted[0] {
        out.push(dcr_baseline(ctx, &used, &released, &names, params));
    }
    if wanted[1] {
        out.push(dcr_overfitting(ctx, &used, &released, &names, holdout));
    }
    out
}

/// `dcr_baseline_protection` (Sec 10.2): `P`'s DCR to `O` against a seeded random table's.
fn dcr_baseline(ctx: &Context, used: &[&SynColumn], released: &dcr_protection::Released, names: &[&str], params: &SyntheticParams) -> MetricResult {
    let b = dcr_protection::baseline(used, released, params.dcr_seed);
    let details = json!({
        "median_dcr_released": b.median_released,
        "median_dcr_random": b.median_random,
        "seed": params.dcr_seed,
        "stochastic": true,
        "estimate": released.estimate,
        "rows_compared": released.table.rows,
        "columns": names,
        "histogram_released": b.histogram_released,
        "histogram_random": b.histogram_random,
    });
    match b.score {
        Some(s) => ctx.ok(DCR_BASE, s),
        None => ctx.without_value(DCR_BASE, Status::NotApplicable, "random_median_zero"),
    }
    .with_details(details)
}

/// `dcr_overfitting_protection` (Sec 10.3): `P`'s DCR to `O` against its DCR to the holdout.
fn dcr_overfitting(ctx: &Context, used: &[&SynColumn], released: &dcr_protection::Released, names: &[&str], holdout: Option<&Captured>) -> MetricResult {
    match holdout {
        Some(h) if h.rows() > 0 => match used.iter().find(|c| h.column(&c.name).is_none()) {
            Some(c) => ctx.without_value(DCR_OVER, Status::Error, "holdout_columns_differ").with_details(json!({ "column": c.name })),
            None => {
                let o = dcr_protection::overfitting(used, released);
                let n_o = used[0].o.len();
                let small = (h.rows() as f64) < 0.5 * n_o as f64;
                let r = ctx.ok(DCR_OVER, o.score).with_details(json!({
                    "closer_to_training": o.closer_to_training,
                    "closer_to_holdout": o.closer_to_holdout,
                    "median_dcr_training": o.median_training,
                    "median_dcr_holdout": o.median_holdout,
                    "holdout_rows": h.rows(),
                    "holdout_small": small,
                    "estimate": released.estimate,
                    "rows_compared": released.table.rows,
                    "columns": names,
                    "histogram_training": dcr::histogram(&released.to_original),
                    "histogram_holdout": o.histogram_holdout,
                }));
                if small { r.with_warning("holdout_small") } else { r }
            }
        },
        _ => ctx.without_value(DCR_OVER, Status::NotApplicable, "no_holdout"),
    }
}

/// `disclosure_protection` (Sec 11): CAP with the known columns `cap_known` (else the QIs)
/// and the sensitive columns `cap_sensitive` (else the sensitive columns).
fn disclosure_metric(ctx: &Context, columns: &[SynColumn], input: &SyntheticInput<'_>, params: &SyntheticParams) -> MetricResult {
    const ID: &str = "disclosure_protection";
    let known = if params.cap_known.is_empty() { input.qi } else { &params.cap_known };
    let sensitive = if params.cap_sensitive.is_empty() { input.sensitive } else { &params.cap_sensitive };
    if known.is_empty() {
        return ctx.without_value(ID, Status::NotApplicable, "no_known_columns");
    }
    if sensitive.is_empty() {
        return ctx.without_value(ID, Status::NotApplicable, "no_sensitive_columns");
    }
    let pick = |names: &[String]| -> std::result::Result<Vec<cap::CapColumn>, Box<MetricResult>> {
        names
            .iter()
            .map(|name| {
                let c = find(columns, name).ok_or_else(|| Box::new(column_missing(ctx, ID, name)))?;
                if !params.cap_continuous.contains(name) {
                    return Ok(cap::CapColumn::plain(c));
                }
                if !c.numeric {
                    return Err(Box::new(ctx.without_value(ID, Status::Error, "column_not_numeric").with_details(json!({ "column": name }))));
                }
                Ok(cap::CapColumn::binned(c, params.cap_bins))
            })
            .collect()
    };
    let (k, s) = match (pick(known), pick(sensitive)) {
        (Ok(k), Ok(s)) => (k, s),
        (Err(e), _) | (_, Err(e)) => return *e,
    };
    let c = cap::cap(&k, &s, params.cap_method);
    let details = json!({
        "cap_protection": c.cap_protection,
        "baseline_protection": c.baseline,
        "method": params.cap_method,
        "known": known,
        "sensitive": sensitive,
        "continuous": params.cap_continuous.iter().filter(|n| known.contains(n) || sensitive.contains(n)).collect::<Vec<_>>(),
        "bins": params.cap_bins,
        "scored_rows": c.scored_rows,
    });
    match (c.score, c.cap_protection) {
        (Some(s), _) => ctx.ok(ID, s).with_details(details),
        (None, None) => ctx.without_value(ID, Status::NotApplicable, "no_row_scored").with_details(details),
        (None, Some(_)) => ctx.without_value(ID, Status::NotApplicable, "baseline_zero").with_details(details),
    }
}

/// A `d x d` matrix of optional numbers as JSON (null where undefined).
fn matrix_json(m: &[Vec<Option<f64>>]) -> Value {
    json!(m)
}

/// One correlation's matrices and summary (Sec 6).
fn correlation_json(m: &correlation::Matrices, names: &[&str]) -> Value {
    json!({
        "original": matrix_json(&m.original),
        "released": matrix_json(&m.released),
        "diff": matrix_json(&m.diff),
        "mean_abs_diff": m.mean_abs_diff,
        "max_abs_diff": m.max_abs_diff.map(|(v, a, b)| json!({ "value": v, "pair": [names[a], names[b]] })),
    })
}

/// `correlation_difference` (Sec 6): Pearson's and Kendall's tau-b matrices of `O` and `P`
/// and `P - O`; null for a cell with a constant column. The value, an extension (SDNist gives
/// no scalar), is the mean `|diff|` of Pearson over the defined cells above the diagonal.
fn correlation_metric(ctx: &Context, columns: &[SynColumn]) -> MetricResult {
    const ID: &str = "correlation_difference";
    if columns.len() < 2 {
        return ctx.without_value(ID, Status::NotApplicable, "fewer_than_two_columns");
    }
    let refs: Vec<&SynColumn> = columns.iter().collect();
    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let c = correlation::correlations(&refs);
    // Constant columns (their cells are null): those whose diagonal is null.
    let constant = |m: &[Vec<Option<f64>>]| (0..names.len()).filter(|&a| m[a][a].is_none()).map(|a| names[a]).collect::<Vec<_>>();
    let details = json!({
        "extension": true,
        "value_is": "pearson.mean_abs_diff",
        "columns": names,
        "pearson": correlation_json(&c.pearson, &names),
        "kendall": correlation_json(&c.kendall, &names),
        "constant_columns": { "original": constant(&c.pearson.original), "released": constant(&c.pearson.released) },
        "null_cells": "a cell is null when either of its columns is constant in that table (scipy's NaN)",
    });
    match c.pearson.mean_abs_diff {
        Some(v) => ctx.ok(ID, v).with_details(details),
        None => ctx.without_value(ID, Status::NotApplicable, "constant_columns").with_details(details),
    }
}

/// `pca_comparison` (Sec 7): `O`'s principal axes and `P` projected on them. The value, an
/// extension (SDNist reports only the loadings), is the mean over the axes of
/// `min(var_P, var_O) / max(var_P, var_O)` of the projections: 1 when `P` spreads like `O`
/// along `O`'s axes.
fn pca_metric(ctx: &Context, columns: &[SynColumn]) -> MetricResult {
    const ID: &str = "pca_comparison";
    if columns.is_empty() {
        return ctx.without_value(ID, Status::NotApplicable, "no_columns");
    }
    let refs: Vec<&SynColumn> = columns.iter().collect();
    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let m = pca::pca(&correlation::Ranked::new(&refs));
    let top: Vec<Value> =
        m.loadings.iter().map(|w| json!(pca::top_features(w, 5).iter().map(|&(a, l)| json!({ "name": names[a], "loading": l })).collect::<Vec<_>>())).collect();
    ctx.ok(ID, m.score).with_details(json!({
        "extension": true,
        "value_is": "mean over the axes of min(var_P, var_O) / max(var_P, var_O)",
        "columns": names,
        "k": m.loadings.len(),
        "sign_convention": "each axis's loading of largest magnitude is positive",
        "loadings": m.loadings,
        "top_features": top,
        "explained_variance_ratio": m.explained_variance_ratio,
        "variance_original": m.variance_original,
        "variance_released": m.variance_released,
        "variance_ratio": m.variance_ratio,
        "scatter": { "original": m.scatter.0, "released": m.scatter.1 },
    }))
}

/// A table's side of a fit as JSON.
fn fit_json(s: &regression::Side) -> Value {
    s.fit.map_or(Value::Null, |f| json!({ "slope": f.slope, "intercept": f.intercept }))
}

/// `linear_regression` (Sec 8), only when `linreg_x` and `linreg_y` are set. The value is
/// `|slope_P - slope_O|` of the total line (SDNist reports the lines only); null when either
/// line is undefined.
fn regression_metric(ctx: &Context, columns: &[SynColumn], params: &SyntheticParams) -> MetricResult {
    const ID: &str = "linear_regression";
    let (Some(xn), Some(yn)) = (&params.linreg_x, &params.linreg_y) else {
        return ctx.without_value(ID, Status::NotApplicable, "not_configured");
    };
    let mut found = Vec::new();
    for name in [xn, yn].into_iter().chain(&params.linreg_groups) {
        match find(columns, name) {
            Some(c) => found.push(c),
            None => return column_missing(ctx, ID, name),
        }
    }
    let r = regression::regression(found[0], found[1], &found[2..], params.linreg_min_rows);
    let groups = &found[2..];
    let subgroup = |s: &regression::Subgroup| {
        json!({
            "values": s.values.iter().zip(groups).map(|(&v, c)| c.labels[v as usize].clone()).collect::<Vec<_>>(),
            "rows_original": s.original.rows,
            "rows_released": s.released.rows,
            "original": fit_json(&s.original),
            "released": fit_json(&s.released),
        })
    };
    let details = json!({
        "x": xn,
        "y": yn,
        "group_columns": params.linreg_groups,
        "value_is": "abs(slope_P - slope_O) of the total",
        "total": subgroup(&r.total),
        "subgroups": r.groups.iter().map(subgroup).collect::<Vec<_>>(),
        "dropped_original": r.dropped.0,
        "dropped_released": r.dropped.1,
        "min_rows": params.linreg_min_rows,
        "density": {
            "x_values": r.x_values,
            "y_values": r.y_values,
            "original": r.density_original,
            "released": r.density_released,
            "diff": r.density_diff,
        },
    });
    match (r.total.original.fit, r.total.released.fit) {
        (Some(o), Some(p)) => ctx.ok(ID, (p.slope - o.slope).abs()).with_details(details),
        _ => ctx.without_value(ID, Status::NotApplicable, "no_line").with_details(details),
    }
}
