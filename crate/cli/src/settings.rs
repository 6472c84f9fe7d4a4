//! The command-line settings shared by `audit` and `compare`, and their translation into the
//! core's [`AuditConfig`]: `--settings FILE` (an `AuditConfig` in its JSON form, as the page
//! saves it; issue 13, Deliver 3) gives the starting point, and each flag given on the command
//! line overrides its setting. A flag not given leaves the file's setting, or the core's
//! default without a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use pseudolens_core::AuditConfig;
use pseudolens_core::KMapEstimator;
use pseudolens_core::attack::SoMode;
use pseudolens_core::attribute::{SaMode, TDistance, TReference};
use pseudolens_core::identity::suda::SudaWeights;
use pseudolens_core::ingest::cell::{DATE_FORMS, DateForm};
use pseudolens_core::{
    AdviceParams, Aggregate, AttackParams, AttributeSettings, CapMethod, Encoding, KBasis, Kind, MissingPolicy, Query, Ragged, RiskCombination,
    SyntheticParams, UtilityParams, WeightPreset,
};

use crate::{Failure, io_err};

/// `--ci-seed`: a number, or `random` for a fresh seed drawn now (the report names it).
pub fn ci_seed(s: &str) -> Result<u64, String> {
    match s.trim() {
        "random" => pseudolens_core::interval::fresh_seed().map_err(|e| e.to_string()),
        t => t.parse().map_err(|_| format!("expected a number or \"random\", not \"{s}\"")),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Missing {
    Ordinary,
    Wildcard,
    Drop,
}

#[derive(Clone, Copy, ValueEnum)]
enum SudaWeightsArg {
    Elliot,
    Ihsn,
}

#[derive(Clone, Copy, ValueEnum)]
enum Combination {
    Max,
    Weighted,
    Sum,
}

/// `--memory-budget`: bytes, or a number with a suffix K, M or G (powers of 1024).
pub fn size(s: &str) -> Result<u64, String> {
    let (digits, unit) = match s.trim().to_ascii_uppercase() {
        t if t.ends_with('G') => (t[..t.len() - 1].to_string(), 1u64 << 30),
        t if t.ends_with('M') => (t[..t.len() - 1].to_string(), 1 << 20),
        t if t.ends_with('K') => (t[..t.len() - 1].to_string(), 1 << 10),
        t => (t, 1),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("expected a size such as 512M or 2G, not \"{s}\""))
}

/// `--rut-alpha`: a number, or a weight preset (spec balance.md Sec 4).
pub fn rut_alpha(s: &str) -> Result<f64, String> {
    match WeightPreset::ALL.into_iter().find(|p| p.id() == s) {
        Some(p) => Ok(p.alpha()),
        None => s.parse().map_err(|_| format!("expected a number or one of analytics, balanced, compliance, public, not \"{s}\"")),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum TDistanceArg {
    Auto,
    Equal,
    Ordered,
    Hierarchical,
}

#[derive(Clone, Copy, ValueEnum)]
enum SaModeArg {
    PerAttribute,
    Combined,
    ExtendQi,
}

#[derive(Clone, Copy, ValueEnum)]
enum TReferenceArg {
    Released,
    Original,
}

#[derive(Clone, Copy, ValueEnum)]
enum RaggedArg {
    Error,
    Pad,
}

#[derive(Clone, Copy, ValueEnum)]
enum EncodingArg {
    Utf8,
    Windows1252,
}

/// The settings `audit` and `compare` share (everything but the files, the QIs and alpha).
#[derive(clap::Args)]
pub struct Settings {
    /// Sensitive columns, comma-separated.
    #[arg(long, value_delimiter = ',')]
    sensitive: Vec<String>,
    /// Missing-value policy for blank QI cells [default: ordinary].
    #[arg(long, value_enum)]
    missing: Option<Missing>,
    /// Per-record risk threshold tau [default: 0.2].
    #[arg(long)]
    threshold: Option<f64>,
    /// Keep rows whose QI cells are all suppressed (SCORR) instead of removing them (ARX).
    #[arg(long)]
    keep_suppressed: bool,
    /// Extra missing tokens, comma-separated (added to "", NA, N/A, NaN, NULL, null).
    #[arg(long, value_delimiter = ',')]
    missing_token: Vec<String>,
    /// Compare values case-insensitively: lower-case every non-blank value (and hierarchy
    /// label) with Unicode simple case folding, after the missing tokens are matched.
    #[arg(long)]
    case_insensitive: bool,
    /// Delimiter (default: detected).
    #[arg(long)]
    delimiter: Option<String>,
    /// Encoding (default: detected).
    #[arg(long, value_enum)]
    encoding: Option<EncodingArg>,
    /// Ragged rows: stop with an error, or pad/cut them and count them ("pad" is lenient
    /// reading, which also skips a record with an unclosed quote or a field over 10 MiB,
    /// counted as in error with a warning).
    /// [default: error]
    #[arg(long, value_enum)]
    ragged: Option<RaggedArg>,
    /// Lenient reading: the same as --ragged pad.
    #[arg(long)]
    lenient: bool,
    /// The header's row, 1-based as a spreadsheet numbers its rows (a CSV file's line): the
    /// rows above it are skipped as titles (CSV and xlsx). [default: the first row that is
    /// not blank, unless the rows above it are titles]
    #[arg(long, value_name = "N")]
    header_row: Option<u64>,
    /// Threads that read the released file and compute its metrics (default: every core);
    /// the report is the same whatever the number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Show the progress of each read and of the audit on stderr (percentage and time left),
    /// a line per change; without it, shown on one line when stderr is a terminal and the run
    /// lasts over a second.
    #[arg(long)]
    pub progress: bool,
    /// Keep the table in memory (a code per cell, within --memory-budget) and audit it from
    /// there; without it the file is streamed, in less memory.
    #[arg(long)]
    pub retain: bool,
    /// The sheet of an Excel workbook (.xlsx) to read (default: the first).
    #[arg(long)]
    pub sheet: Option<String>,
    /// The memory the class table may take: bytes, or with a suffix K, M or G (default 1G).
    #[arg(long, value_parser = size)]
    memory_budget: Option<u64>,
    /// A population or reference CSV holding the same quasi-identifiers (journalist and
    /// marketer models; external linkage risk over the quasi-identifiers it holds).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// The column of the reference table holding a quasi-identifier whose name differs there,
    /// QI=COLUMN (repeatable; the others match by name).
    #[arg(long, value_parser = pair)]
    reference_column: Vec<(String, String)>,
    /// Population size N for the uniqueness estimators.
    #[arg(long)]
    population: Option<u64>,
    /// Sampling fraction (N = rows / fraction) for the uniqueness estimators.
    #[arg(long)]
    sampling_fraction: Option<f64>,
    /// ARX region preset for N (USA, Germany, UK, ...).
    #[arg(long)]
    region: Option<String>,
    /// Sampling-weight column (sdcMicro individual risk).
    #[arg(long)]
    weight: Option<String>,
    /// Person-id column of event-level data (one person, several rows).
    #[arg(long)]
    person_id: Option<String>,
    /// Household-id column: the household risk (sdcMicro measure_risk with hid) groups records
    /// by it; not a QI, and never compared with the original.
    #[arg(long = "household", value_name = "COL")]
    household: Option<String>,
    /// ARX records-at-risk threshold of the verdict [default: 0.05].
    #[arg(long)]
    records_at_risk_threshold: Option<f64>,
    /// Say what would lower the risk: the metric `advice` lists single changes to the QIs
    /// (drop, coarsen, suppress) with k, uniques, records at risk and the verdict after each.
    #[arg(long)]
    advice: bool,
    /// The advice's suppression removes the records of classes smaller than this [default: 5].
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..))]
    advice_k: Option<u64>,
    /// SUDA2 and DIS-SUDA (sdcMicro's suda2): each record's minimal sample uniques, its SUDA
    /// and DIS-SUDA scores, and the variables that drive them.
    #[arg(long)]
    suda: bool,
    /// Largest minimal sample unique SUDA searches [default: the number of QIs].
    #[arg(long, value_name = "M")]
    suda_max_size: Option<usize>,
    /// Weights of the SUDA score: elliot (sdcMicro's default) or ihsn [default: elliot].
    #[arg(long, value_enum)]
    suda_weights: Option<SudaWeightsArg>,
    /// Sampling fraction of the DIS-SUDA model [default: 0.01].
    #[arg(long)]
    dis_fraction: Option<f64>,
    /// A blank cell may belong to a minimal sample unique (as sdcMicro with blanks as a level).
    #[arg(long)]
    suda_blank_in_msu: bool,
    /// ARX success-rate threshold of the verdict [default: 0.05].
    #[arg(long)]
    success_rate_threshold: Option<f64>,
    /// List the classes with fewer distinct sensitive values than this.
    #[arg(long)]
    l_threshold: Option<f64>,
    /// List the classes whose t-closeness distance exceeds this.
    #[arg(long)]
    t_threshold: Option<f64>,
    /// List the classes whose beta-likeness exceeds this.
    #[arg(long)]
    beta_threshold: Option<f64>,
    /// The distance of t_closeness: auto (ordered for a numeric or ordinal sensitive column,
    /// else equal), equal, ordered, or hierarchical (over --hierarchy SA=FILE) [default: auto].
    #[arg(long, value_enum)]
    t_distance: Option<TDistanceArg>,
    /// Where the reference distribution Q of t-closeness, beta-likeness and delta-disclosure
    /// comes from: released, or original (the sensitive column of --original, all rows)
    /// [default: released].
    #[arg(long, value_enum)]
    t_reference: Option<TReferenceArg>,
    /// Several sensitive columns: per-attribute (each on the QIs), combined (one column of
    /// their tuples) or extend-qi (each on the QIs plus the other sensitive columns)
    /// [default: per-attribute].
    #[arg(long, value_enum)]
    sa_mode: Option<SaModeArg>,
    /// l of recursive (c,l)-diversity's c [default: 2].
    #[arg(long)]
    recursive_l: Option<usize>,
    /// c of recursive (c,l)-diversity's l [default: 2].
    #[arg(long)]
    recursive_c: Option<f64>,
    /// SCORR compliance: k must exceed this [default: 10].
    #[arg(long)]
    scorr_k_min: Option<f64>,
    /// SCORR compliance: t-closeness at most this [default: 0.5].
    #[arg(long)]
    scorr_t_max: Option<f64>,
    /// SCORR compliance counts k in persons (event-level data) instead of records.
    #[arg(long)]
    scorr_k_persons: bool,
    /// Record-id column pairing the original and the released rows (else row order).
    #[arg(long)]
    record_id: Option<String>,
    /// Numeric columns for the permutation model (default: every numeric column of both).
    #[arg(long, value_delimiter = ',')]
    perm_columns: Vec<String>,
    /// Columns compared with the original (default: every column but the record id, person
    /// id, weight, household and --ignore columns).
    #[arg(long, value_delimiter = ',')]
    utility_columns: Vec<String>,
    /// Columns left out of every computation (direct identifiers, free text).
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
    /// Declared kind of a column, COL=numeric|date|categorical|ordinal (repeatable; an ordinal
    /// column needs --order).
    #[arg(long, value_parser = pair)]
    kind: Vec<(String, String)>,
    /// The labels of an ordinal column, lowest first, COL=LOW,MID,HIGH (repeatable; declares
    /// the column ordinal).
    #[arg(long, value_parser = pair)]
    order: Vec<(String, String)>,
    /// Generalization hierarchy of a column in ARX's CSV layout, COL=FILE (repeatable).
    #[arg(long, value_parser = pair)]
    hierarchy: Vec<(String, String)>,
    /// Rounding unit the release applied to a numeric column, COL=UNIT (repeatable).
    #[arg(long, value_parser = pair)]
    rounding_unit: Vec<(String, String)>,
    /// The written form of a date column, COL=FORM with FORM one of YYYY-MM-DD, YYYY/MM/DD,
    /// DD.MM.YYYY, DD/MM/YYYY, MM/DD/YYYY, DD-MM-YYYY, DD-Mon-YYYY (repeatable; needed for a
    /// column both day-first and month-first read, such as 03/04/2020).
    #[arg(long, value_parser = pair)]
    date_form: Vec<(String, String)>,
    /// A query of the accuracy workload: "GROUP,BY:count", "GROUP:mean(COL)" or
    /// "GROUP:share(COL=VALUE)" (repeatable; one-way and two-way counts are always run).
    #[arg(long)]
    query: Vec<String>,
    /// The settings as a JSON object with the keys of the audit configuration (the settings
    /// file the page saves: quasi_identifiers, sensitive, threshold, queries, lmax_mode, ...);
    /// the flags given override it. --utility-settings is the same (a file of the utility keys
    /// alone is such an object).
    #[arg(long, alias = "utility-settings", value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Overall risk from the internal and the external (--reference) risk [default: max].
    #[arg(long, value_enum)]
    risk_combination: Option<Combination>,
    /// Weight of the internal risk under --risk-combination weighted [default: 0.5].
    #[arg(long)]
    risk_weight_internal: Option<f64>,
    /// k of k-map (ARX KMap): with --reference, every key must match at least K people of the
    /// population table; with --population, --sampling-fraction or --region, ARX's estimated
    /// form (k_map_estimated) [default: 5].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    k_map: Option<u64>,
    /// Significance level of the estimated k-map [default: 0.01].
    #[arg(long, value_name = "ALPHA")]
    k_map_alpha: Option<f64>,
    /// Estimator of the estimated k-map [default: poisson].
    #[arg(long, value_enum)]
    k_map_estimator: Option<EstimatorArg>,
    /// delta-presence bounds DMIN,DMAX (ARX DPresence, with --reference as the population):
    /// every key's share of the population that is released must lie in [DMIN, DMAX].
    #[arg(long, value_name = "DMIN,DMAX", value_parser = bounds)]
    delta_presence: Option<(f64, f64)>,
    /// The column of --reference flagging the research subset of delta-presence (1/true/yes:
    /// released, 0/false/no: not); without it the released table is the subset.
    #[arg(long, value_name = "COLUMN")]
    research_subset_column: Option<String>,
    /// Check the 18 identifier kinds of HIPAA Safe Harbor (45 CFR 164.514(b)(2)) against the
    /// values of every column (a checklist, not a statement of compliance).
    #[arg(long)]
    hipaa: bool,
    /// Write each record's values to this CSV, one row per record of the file: its record id
    /// (--record-id) or row number, class size, f, record risk, and SUDA's scores with --suda.
    /// Record-level: not for sharing.
    #[arg(long, value_name = "FILE")]
    pub per_record: Option<PathBuf>,
    /// Put the per-record vectors in the report too (`record_risk.details.per_record`, and with
    /// --suda `suda_score.details.per_record` and `msu_counts`, `suda_dis_score.details.per_record`;
    /// setting `per_record`): as long as the file, and record-level.
    #[arg(long)]
    per_record_in_report: bool,
    /// |rho| from which the row-order leak warns (with --original paired by --record-id)
    /// [default: 0.9].
    #[arg(long, value_name = "T")]
    row_order_threshold: Option<f64>,
    /// Level of the confidence intervals of the population-uniqueness estimators, the weighted
    /// risk and R_external, in (0, 1) [default: 0.95].
    #[arg(long)]
    ci_level: Option<f64>,
    /// Seed of their bootstrap: the same seed gives the same intervals; "random" draws a fresh
    /// one, which the report names [default: 15].
    #[arg(long, value_name = "S|random", value_parser = ci_seed)]
    ci_seed: Option<u64>,
    /// Bootstrap replicates; 0 = no intervals [default: 200].
    #[arg(long)]
    ci_replicates: Option<u32>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub attacks: AttackArgs,
    #[command(flatten)]
    pub synthetic: SyntheticArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum SoModeArg {
    Multivariate,
    Univariate,
}

/// The attacks on a release (peer-measures.md Sec 5, after Anonymeter): any of these flags
/// turns them on; they need --original.
#[derive(clap::Args)]
pub struct AttackArgs {
    /// Attack the release: singling out, linkability and inference of the original's records
    /// (needs --original; Anonymeter's attacks, seeded).
    #[arg(long)]
    attacks: bool,
    /// A control table: records of the same population NOT used to make the release, same
    /// columns as the original (CSV); the risks are corrected by the attacks' success on it.
    #[arg(long)]
    pub control: Option<PathBuf>,
    /// Attacks per evaluation (queries, targets) [default: 500].
    #[arg(long)]
    n_attacks: Option<u64>,
    /// Seed of the attacks' random draws [default: 0].
    #[arg(long)]
    attack_seed: Option<u64>,
    /// Confidence level of the attacks' intervals [default: 0.95].
    #[arg(long)]
    confidence_level: Option<f64>,
    /// Singling-out queries: several columns from a random record, or one column's rare
    /// values and extremes [default: multivariate].
    #[arg(long, value_enum)]
    so_mode: Option<SoModeArg>,
    /// Columns per multivariate singling-out query [default: 3].
    #[arg(long)]
    so_n_cols: Option<u64>,
    /// Most attempts to build multivariate singling-out queries [default: 10000000].
    #[arg(long)]
    so_max_attempts: Option<u64>,
    /// Singling-out columns, comma-separated (default: every column both tables hold).
    #[arg(long, value_delimiter = ',')]
    so_columns: Vec<String>,
    /// Count each distinct record once in singling out (Anonymeter drops duplicate rows).
    #[arg(long)]
    so_drop_duplicates: bool,
    /// Linkability's two column sets, "A,B;C,D" (default: the QIs split in two halves).
    #[arg(long)]
    link_aux: Option<String>,
    /// Neighbours per column set in linkability [default: 1].
    #[arg(long)]
    link_n_neighbors: Option<u64>,
    /// The attacker's columns in inference, comma-separated (default: the QIs).
    #[arg(long, value_delimiter = ',')]
    inf_aux: Vec<String>,
    /// The secrets inference guesses, comma-separated (default: the sensitive columns).
    #[arg(long, value_delimiter = ',')]
    inf_secrets: Vec<String>,
    /// Compare guessed secrets as numbers within --inf-tolerance (default: when numeric).
    #[arg(long)]
    inf_regression: Option<bool>,
    /// Relative tolerance of a numeric guess [default: 0.05].
    #[arg(long)]
    inf_tolerance: Option<f64>,
}

/// The measures of a synthetic or perturbed release (synthetic.md, after SDNist): any of these
/// flags turns them on; they need --original.
#[derive(clap::Args)]
pub struct SyntheticArgs {
    /// Compare a synthetic or perturbed release with the original (needs --original): SDNist's
    /// k-marginal score, unique exact matches, apparent match on the QIs, pMSE, correlation,
    /// PCA and regression comparisons; SDMetrics' DCR baseline and (with --holdout) overfitting
    /// protection, CAP disclosure protection (--cap-known, --cap-sensitive).
    #[arg(long)]
    synthetic: bool,
    /// The synthetic measures to compute, by metric id, comma-separated (default: every one).
    #[arg(long, value_delimiter = ',')]
    synthetic_measures: Vec<String>,
    /// Percentile bins of a numeric column in the k-marginal [default: 20].
    #[arg(long, value_name = "B")]
    kmarg_bins: Option<u32>,
    /// Numeric columns binned in the k-marginal whatever their number of values, comma-separated.
    #[arg(long, value_delimiter = ',')]
    kmarg_binned: Vec<String>,
    /// Columns left out of the k-marginal, comma-separated.
    #[arg(long, value_delimiter = ',')]
    kmarg_exclude: Vec<String>,
    /// The group column of the grouped k-marginal (SDNist's PUMA), with a score per group.
    #[arg(long, value_name = "COL")]
    kmarg_group_by: Option<String>,
    /// Columns the apparent match does not compare, comma-separated.
    #[arg(long, value_delimiter = ',')]
    amd_exclude: Vec<String>,
    /// A holdout table: real records NOT used to make the release, same columns as the
    /// original (CSV); the DCR overfitting protection compares the release with it. It is the
    /// attacks' --control too: give one or the other.
    #[arg(long)]
    pub holdout: Option<PathBuf>,
    /// Seed of the k-marginal's sampling-equivalent samples [default: 0].
    #[arg(long)]
    kmarg_seed: Option<u64>,
    /// Label permutations of the pMSE's null [default: 20; 0: none].
    #[arg(long)]
    pmse_null_perms: Option<u32>,
    /// Seed of the pMSE's permutations [default: 0].
    #[arg(long)]
    pmse_seed: Option<u64>,
    /// The linear regression's explanatory column (with --linreg-y).
    #[arg(long, value_name = "COL")]
    linreg_x: Option<String>,
    /// The linear regression's explained column (with --linreg-x).
    #[arg(long, value_name = "COL")]
    linreg_y: Option<String>,
    /// Columns whose value combinations are the regression's subgroups, comma-separated.
    #[arg(long, value_delimiter = ',')]
    linreg_groups: Vec<String>,
    /// Rows an x value needs for its row of the regression's density matrix [default: 20].
    #[arg(long)]
    linreg_min_rows: Option<u32>,
    /// Seed of the DCR's random table and subsamples [default: 0].
    #[arg(long)]
    dcr_seed: Option<u64>,
    /// Pairs of rows (release x original) above which the DCR runs on a seeded subsample
    /// [default: 1000000000].
    #[arg(long)]
    dcr_max_cells: Option<u64>,
    /// CAP's known columns, comma-separated (default: the QIs).
    #[arg(long, value_delimiter = ',')]
    cap_known: Vec<String>,
    /// CAP's sensitive columns, comma-separated (default: the sensitive columns).
    #[arg(long, value_delimiter = ',')]
    cap_sensitive: Vec<String>,
    /// CAP's attacker [default: cap].
    #[arg(long, value_enum)]
    cap_method: Option<CapMethodArg>,
    /// CAP's continuous columns, cut into --cap-bins equal-width bins, comma-separated.
    #[arg(long, value_delimiter = ',')]
    cap_continuous: Vec<String>,
    /// CAP's number of bins of a continuous column [default: 10].
    #[arg(long)]
    cap_bins: Option<u32>,
}

/// `--cap-method`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum CapMethodArg {
    Cap,
    ZeroCap,
    GeneralizedCap,
}

impl From<CapMethodArg> for CapMethod {
    fn from(m: CapMethodArg) -> Self {
        match m {
            CapMethodArg::Cap => CapMethod::Cap,
            CapMethodArg::ZeroCap => CapMethod::ZeroCap,
            CapMethodArg::GeneralizedCap => CapMethod::GeneralizedCap,
        }
    }
}

impl SyntheticArgs {
    /// The synthetic settings over the file's: any flag turns the measures on.
    fn apply(&self, synthetic: &mut Option<SyntheticParams>) {
        let lists =
            [&self.kmarg_binned, &self.kmarg_exclude, &self.amd_exclude, &self.linreg_groups, &self.cap_known, &self.cap_sensitive, &self.cap_continuous];
        let any = self.synthetic
            || self.kmarg_bins.is_some()
            || self.kmarg_group_by.is_some()
            || self.holdout.is_some()
            || self.kmarg_seed.is_some()
            || self.pmse_null_perms.is_some()
            || self.pmse_seed.is_some()
            || self.linreg_x.is_some()
            || self.linreg_y.is_some()
            || self.linreg_min_rows.is_some()
            || self.dcr_seed.is_some()
            || self.dcr_max_cells.is_some()
            || self.cap_method.is_some()
            || self.cap_bins.is_some()
            || lists.iter().any(|l| !l.is_empty());
        if !any {
            return;
        }
        let s = synthetic.get_or_insert_with(SyntheticParams::default);
        set(&mut s.kmarg_bins, self.kmarg_bins);
        set(&mut s.kmarg_seed, self.kmarg_seed);
        set(&mut s.pmse_null_perms, self.pmse_null_perms);
        set(&mut s.pmse_seed, self.pmse_seed);
        set(&mut s.linreg_min_rows, self.linreg_min_rows);
        set(&mut s.dcr_seed, self.dcr_seed);
        set(&mut s.dcr_max_cells, self.dcr_max_cells);
        set(&mut s.cap_bins, self.cap_bins);
        set(&mut s.cap_method, self.cap_method.map(CapMethod::from));
        for (name, into) in [(&self.linreg_x, &mut s.linreg_x), (&self.linreg_y, &mut s.linreg_y)] {
            if name.is_some() {
                into.clone_from(name);
            }
        }
        for (list, into) in [
            (&self.synthetic_measures, &mut s.measures),
            (&self.kmarg_binned, &mut s.kmarg_binned),
            (&self.kmarg_exclude, &mut s.kmarg_exclude),
            (&self.amd_exclude, &mut s.amd_exclude),
            (&self.linreg_groups, &mut s.linreg_groups),
            (&self.cap_known, &mut s.cap_known),
            (&self.cap_sensitive, &mut s.cap_sensitive),
            (&self.cap_continuous, &mut s.cap_continuous),
        ] {
            if !list.is_empty() {
                into.clone_from(list);
            }
        }
        if let Some(g) = &self.kmarg_group_by {
            s.kmarg_group_by = Some(g.clone());
        }
    }
}

impl AttackArgs {
    /// The attack settings over the file's: any flag turns the attacks on.
    fn apply(&self, attacks: &mut Option<AttackParams>) -> Result<(), Failure> {
        let any = self.attacks
            || self.control.is_some()
            || self.n_attacks.is_some()
            || self.attack_seed.is_some()
            || self.confidence_level.is_some()
            || self.so_mode.is_some()
            || self.so_n_cols.is_some()
            || self.so_max_attempts.is_some()
            || !self.so_columns.is_empty()
            || self.so_drop_duplicates
            || self.link_aux.is_some()
            || self.link_n_neighbors.is_some()
            || !self.inf_aux.is_empty()
            || !self.inf_secrets.is_empty()
            || self.inf_regression.is_some()
            || self.inf_tolerance.is_some();
        if !any {
            return Ok(());
        }
        let a = attacks.get_or_insert_with(AttackParams::default);
        set(&mut a.n_attacks, self.n_attacks);
        set(&mut a.seed, self.attack_seed);
        set(&mut a.confidence_level, self.confidence_level);
        if let Some(m) = self.so_mode {
            a.so_mode = match m {
                SoModeArg::Multivariate => SoMode::Multivariate,
                SoModeArg::Univariate => SoMode::Univariate,
            };
        }
        set(&mut a.so_n_cols, self.so_n_cols);
        set(&mut a.so_max_attempts, self.so_max_attempts);
        if !self.so_columns.is_empty() {
            a.so_columns = self.so_columns.clone();
        }
        a.so_drop_duplicates |= self.so_drop_duplicates;
        if let Some(aux) = &self.link_aux {
            let list = |s: &str| s.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect::<Vec<_>>();
            let (x0, x1) = aux.split_once(';').ok_or_else(|| Failure::Io(format!("--link-aux \"{aux}\": expected two column lists, \"A,B;C,D\"")))?;
            a.link_aux = Some((list(x0), list(x1)));
        }
        set(&mut a.link_n_neighbors, self.link_n_neighbors);
        if !self.inf_aux.is_empty() {
            a.inf_aux = self.inf_aux.clone();
        }
        if !self.inf_secrets.is_empty() {
            a.inf_secrets = self.inf_secrets.clone();
        }
        if self.inf_regression.is_some() {
            a.inf_regression = self.inf_regression;
        }
        set(&mut a.inf_tolerance, self.inf_tolerance);
        Ok(())
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum EstimatorArg {
    Poisson,
    ZeroTruncatedPoisson,
}

/// `--delta-presence DMIN,DMAX`.
fn bounds(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected DMIN,DMAX such as 0.1,0.6")?;
    let (a, b): (f64, f64) = (a.trim().parse().map_err(|_| format!("not a number: {a}"))?, b.trim().parse().map_err(|_| format!("not a number: {b}"))?);
    if (0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b) && a <= b { Ok((a, b)) } else { Err("DMIN and DMAX lie in [0, 1], DMIN <= DMAX".into()) }
}

impl Settings {
    /// The audit configuration: the settings file (or the core's defaults), then the flags
    /// given, the QIs (when given), the wildcard alpha and the weight of utility in the RUT
    /// score (when given).
    pub fn config(&self, qi: &[String], wildcard_alpha: Option<f64>, rut_alpha: Option<f64>) -> Result<AuditConfig, Failure> {
        let mut c = match &self.settings {
            Some(path) => settings_file(path)?,
            None => AuditConfig::default(),
        };
        let given = |list: &[String], into: &mut Vec<String>| {
            if !list.is_empty() {
                *into = list.to_vec();
            }
        };
        given(qi, &mut c.quasi_identifiers);
        given(&self.sensitive, &mut c.sensitive);
        if let Some(m) = self.missing {
            c.missing_policy = match m {
                Missing::Ordinary => MissingPolicy::Ordinary,
                Missing::Wildcard => MissingPolicy::Wildcard,
                Missing::Drop => MissingPolicy::Drop,
            };
        }
        set(&mut c.wildcard_alpha, wildcard_alpha);
        if self.case_insensitive {
            c.case_insensitive = true;
        }
        if self.keep_suppressed {
            c.exclude_suppressed_rows = false;
        }
        set(&mut c.threshold, self.threshold);
        set(&mut c.ci.ci_level, self.ci_level);
        set(&mut c.ci.ci_seed, self.ci_seed);
        set(&mut c.ci.ci_replicates, self.ci_replicates);
        if self.delimiter.is_some() {
            c.delimiter = self.delimiter.clone();
        }
        if let Some(e) = self.encoding {
            c.encoding = Some(match e {
                EncodingArg::Utf8 => Encoding::Utf8,
                EncodingArg::Windows1252 => Encoding::Windows1252,
            });
        }
        if self.header_row.is_some() {
            c.header_row = self.header_row;
        }
        match (self.lenient, self.ragged) {
            (true, _) | (_, Some(RaggedArg::Pad)) => c.ragged = Ragged::PadOrTruncate,
            (false, Some(RaggedArg::Error)) => c.ragged = Ragged::Error,
            (false, None) => {}
        }
        for (field, flag) in [
            (&mut c.person_id, &self.person_id),
            (&mut c.weight, &self.weight),
            (&mut c.record_id, &self.record_id),
            (&mut c.household_column, &self.household),
        ] {
            if flag.is_some() {
                field.clone_from(flag);
            }
        }
        // The population is given one way: a flag replaces the file's way.
        if self.population.is_some() || self.sampling_fraction.is_some() || self.region.is_some() {
            c.population_size = self.population;
            c.sampling_fraction = self.sampling_fraction;
            c.population_region = self.region.clone();
        }
        let suda = &mut c.suda;
        suda.suda |= self.suda || self.suda_max_size.is_some();
        if self.suda_max_size.is_some() {
            suda.suda_max_size = self.suda_max_size;
        }
        if let Some(w) = self.suda_weights {
            suda.suda_weights = match w {
                SudaWeightsArg::Elliot => SudaWeights::Elliot,
                SudaWeightsArg::Ihsn => SudaWeights::Ihsn,
            };
        }
        set(&mut suda.dis_fraction, self.dis_fraction);
        suda.suda_blank_in_msu |= self.suda_blank_in_msu;
        set(&mut c.records_at_risk_threshold, self.records_at_risk_threshold);
        set(&mut c.success_rate_threshold, self.success_rate_threshold);
        let a = &mut c.attribute;
        set(&mut a.recursive_l, self.recursive_l);
        set(&mut a.recursive_c, self.recursive_c);
        for (field, flag) in [(&mut a.l_threshold, self.l_threshold), (&mut a.t_threshold, self.t_threshold), (&mut a.beta_threshold, self.beta_threshold)] {
            if flag.is_some() {
                *field = flag;
            }
        }
        if let Some(d) = self.t_distance {
            a.t_distance = match d {
                TDistanceArg::Auto => TDistance::Auto,
                TDistanceArg::Equal => TDistance::Equal,
                TDistanceArg::Ordered => TDistance::Ordered,
                TDistanceArg::Hierarchical => TDistance::Hierarchical,
            };
        }
        if let Some(m) = self.sa_mode {
            a.sa_mode = match m {
                SaModeArg::PerAttribute => SaMode::PerAttribute,
                SaModeArg::Combined => SaMode::Combined,
                SaModeArg::ExtendQi => SaMode::ExtendQi,
            };
        }
        if let Some(r) = self.t_reference {
            a.t_reference = match r {
                TReferenceArg::Released => TReference::Released,
                TReferenceArg::Original => TReference::Original,
            };
        }
        set(&mut c.scorr.scorr_k_min, self.scorr_k_min);
        set(&mut c.scorr.scorr_t_max, self.scorr_t_max);
        if self.scorr_k_persons {
            c.scorr.scorr_k_basis = KBasis::Persons;
        }
        given(&self.utility_columns, &mut c.utility_columns);
        given(&self.ignore, &mut c.ignored);
        c.reference_columns.extend(self.reference_column.iter().cloned());
        set(&mut c.memory_budget, self.memory_budget);
        if self.advice || c.advice.is_some() {
            let k = self.advice_k.or(c.advice.map(|a| a.suppress_below)).unwrap_or(AdviceParams::default().suppress_below);
            c.advice = Some(AdviceParams { suppress_below: k });
        }
        c.missing_tokens.extend(self.missing_token.iter().filter(|t| !c.missing_tokens.contains(t)).cloned().collect::<Vec<_>>());
        if let Some(r) = self.risk_combination {
            c.balance.risk_combination = match r {
                Combination::Max => RiskCombination::Max,
                Combination::Weighted => RiskCombination::Weighted,
                Combination::Sum => RiskCombination::Sum,
            };
        }
        set(&mut c.balance.risk_weight_internal, self.risk_weight_internal);
        set(&mut c.balance.rut_alpha, rut_alpha);
        set(&mut c.kmap.k_map, self.k_map);
        set(&mut c.kmap.k_map_alpha, self.k_map_alpha);
        if let Some(e) = self.k_map_estimator {
            c.kmap.k_map_estimator = match e {
                EstimatorArg::Poisson => KMapEstimator::Poisson,
                EstimatorArg::ZeroTruncatedPoisson => KMapEstimator::ZeroTruncatedPoisson,
            };
        }
        if let Some((lo, hi)) = self.delta_presence {
            (c.kmap.delta_min, c.kmap.delta_max) = (Some(lo), Some(hi));
        }
        if let Some(column) = &self.research_subset_column {
            c.research_subset_column = Some(column.clone());
        }
        c.hipaa |= self.hipaa;
        c.per_record |= self.per_record_in_report;
        c.keep_records = self.per_record.is_some();
        set(&mut c.utility.row_order_threshold, self.row_order_threshold);
        self.utility_params(&mut c.utility)?;
        self.attribute_settings(&mut c.attributes)?;
        self.attacks.apply(&mut c.attacks)?;
        self.synthetic.apply(&mut c.synthetic);
        Ok(c)
    }

    /// `--perm-columns` and `--query` (added to the file's queries).
    fn utility_params(&self, u: &mut UtilityParams) -> Result<(), Failure> {
        if !self.perm_columns.is_empty() {
            u.permutation_columns = self.perm_columns.clone();
        }
        for q in &self.query {
            u.queries.push(parse_query(q).map_err(|e| Failure::Io(format!("--query \"{q}\": {e}")))?);
        }
        Ok(())
    }

    /// `--kind`, `--order`, `--hierarchy`, `--rounding-unit` and `--date-form`, per column.
    fn attribute_settings(&self, settings: &mut BTreeMap<String, AttributeSettings>) -> Result<(), Failure> {
        for (col, kind) in &self.kind {
            let kind = match kind.as_str() {
                "numeric" => Kind::Numeric,
                "date" => Kind::Date,
                "categorical" => Kind::Categorical,
                "ordinal" => Kind::Ordinal,
                other => return Err(Failure::Io(format!("--kind {col}={other}: the kind is numeric, date, categorical or ordinal"))),
            };
            settings.entry(col.clone()).or_default().kind = Some(kind);
        }
        for (col, labels) in &self.order {
            let entry = settings.entry(col.clone()).or_default();
            entry.order = Some(labels.split(',').map(|l| l.trim().to_string()).collect());
            entry.kind.get_or_insert(Kind::Ordinal);
        }
        for (col, file) in &self.hierarchy {
            let path = Path::new(file);
            let text = std::fs::read_to_string(path).map_err(io_err(path))?;
            let rows = text.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split(';').map(|c| c.trim().to_string()).collect()).collect();
            settings.entry(col.clone()).or_default().hierarchy = Some(rows);
        }
        for (col, unit) in &self.rounding_unit {
            let u = unit.parse::<f64>().ok().filter(|u| *u > 0.0);
            let u = u.ok_or_else(|| Failure::Io(format!("--rounding-unit {col}={unit}: the unit is a positive number")))?;
            settings.entry(col.clone()).or_default().rounding_unit = Some(u);
        }
        for (col, form) in &self.date_form {
            let names = || DATE_FORMS.map(DateForm::name).join(", ");
            let f = DateForm::named(form).ok_or_else(|| Failure::Io(format!("--date-form {col}={form}: the form is one of {}", names())))?;
            settings.entry(col.clone()).or_default().date_form = Some(f);
        }
        Ok(())
    }
}

/// A flag's value over the file's (or the default) setting, when the flag was given.
fn set<T>(field: &mut T, flag: Option<T>) {
    if let Some(v) = flag {
        *field = v;
    }
}

/// `--settings FILE`: an [`AuditConfig`] in its JSON form; a key it does not know is an error.
pub fn settings_file(path: &Path) -> Result<AuditConfig, Failure> {
    let text = std::fs::read_to_string(path).map_err(io_err(path))?;
    serde_json::from_str(&text).map_err(|e| Failure::Io(format!("{}: not a settings file: {e}", path.display())))
}

/// `NAME=VALUE` of a repeatable per-column option.
pub fn pair(s: &str) -> Result<(String, String), String> {
    let (a, b) = s.split_once('=').ok_or("expected COLUMN=VALUE")?;
    Ok((a.trim().to_string(), b.trim().to_string()))
}

/// `GROUP,BY:count`, `GROUP:mean(COL)`, `GROUP:share(COL=VALUE)` (utility.md Sec 10).
fn parse_query(q: &str) -> Result<Query, String> {
    let (groups, aggregate) = q.rsplit_once(':').ok_or("expected GROUP-BY COLUMNS:AGGREGATE")?;
    let group_by = groups.split(',').map(|g| g.trim().to_string()).filter(|g| !g.is_empty()).collect();
    let inner = |prefix: &str| aggregate.trim().strip_prefix(prefix).and_then(|r| r.strip_suffix(')'));
    let aggregate = if aggregate.trim() == "count" {
        Aggregate::Count
    } else if let Some(column) = inner("mean(") {
        Aggregate::Mean { column: column.trim().to_string() }
    } else if let Some((column, value)) = inner("share(").and_then(|r| r.split_once('=')) {
        Aggregate::Share { column: column.trim().to_string(), value: value.trim().to_string() }
    } else {
        return Err("the aggregate is count, mean(COL) or share(COL=VALUE)".into());
    };
    Ok(Query { group_by, aggregate })
}
