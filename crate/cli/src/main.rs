//! `pseudolens`: the native command line over pseudolens-core.
//!
//! `audit` prints the report of one CSV file (spec README Sec 10 result objects with `--json`,
//! a readable table without); `sample` and `generate` write the synthetic tables; `bench`
//! measures the native throughput.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use pseudolens_core::identity::MissingPolicy;
use pseudolens_core::ingest::encoding::Encoding;
use pseudolens_core::ingest::records::Ragged;
use pseudolens_core::attribute::AttributeParams;
use pseudolens_core::audit::Warning;
use pseudolens_core::verdict::scorr::{KBasis, ScorrThresholds};
use pseudolens_core::reference::Reference;
use pseudolens_core::utility::capture::Original;
use pseudolens_core::{Audit, AuditConfig, Error, Report, sample};

/// Size of the chunks the file is pushed in (the worker uses the same).
const CHUNK: usize = 1 << 20;

#[derive(Parser)]
#[command(name = "pseudolens", version, about = "Privacy-risk auditor for pseudonymized CSV tables")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Audit a released CSV file.
    Audit(Box<AuditArgs>),
    /// Write the bundled synthetic hospital sample (5,000 rows) to standard output.
    Sample,
    /// Write a generated benchmark table (10 columns, 5 quasi-identifiers) to standard output.
    Generate {
        /// Rows to generate.
        #[arg(long, default_value_t = 1_000_000)]
        rows: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Generate a table and time the native audit of it: prints MB/s, rows/s and peak memory.
    Bench {
        /// Rows to generate.
        #[arg(long, default_value_t = 1_000_000)]
        rows: usize,
        /// Quasi-identifiers (default: age, sex, region, admission_date, ward).
        #[arg(long, value_delimiter = ',')]
        qi: Vec<String>,
        /// Sensitive attributes (e.g. diagnosis,procedure).
        #[arg(long, value_delimiter = ',')]
        sensitive: Vec<String>,
        /// Keep the generated file here (default: a temporary file, removed afterwards).
        #[arg(long)]
        file: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Missing {
    Ordinary,
    Wildcard,
    Drop,
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

#[derive(clap::Args)]
struct AuditArgs {
    /// The released CSV file.
    file: PathBuf,
    /// Quasi-identifier columns, comma-separated (required unless --original is given).
    #[arg(long, value_delimiter = ',', required_unless_present = "original")]
    qi: Vec<String>,
    /// Sensitive columns, comma-separated.
    #[arg(long, value_delimiter = ',')]
    sensitive: Vec<String>,
    /// Missing-value policy for blank QI cells.
    #[arg(long, value_enum, default_value = "ordinary")]
    missing: Missing,
    /// Weight of blank-containing records under --missing wildcard.
    #[arg(long, default_value_t = 1.0)]
    alpha: f64,
    /// Per-record risk threshold tau.
    #[arg(long, default_value_t = 0.2)]
    threshold: f64,
    /// Keep rows whose QI cells are all suppressed (SCORR) instead of removing them (ARX).
    #[arg(long)]
    keep_suppressed: bool,
    /// Extra missing tokens, comma-separated (added to "", NA, N/A, NaN, NULL, null).
    #[arg(long, value_delimiter = ',')]
    missing_token: Vec<String>,
    /// Delimiter (default: detected).
    #[arg(long)]
    delimiter: Option<String>,
    /// Encoding (default: detected).
    #[arg(long, value_enum)]
    encoding: Option<EncodingArg>,
    /// Ragged rows: stop with an error, or pad/cut them and count them.
    #[arg(long, value_enum, default_value = "error")]
    ragged: RaggedArg,
    /// A population or reference CSV holding the same quasi-identifiers (journalist and
    /// marketer models).
    #[arg(long)]
    reference: Option<PathBuf>,
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
    /// ARX records-at-risk threshold of the verdict.
    #[arg(long, default_value_t = 0.05)]
    records_at_risk_threshold: f64,
    /// ARX success-rate threshold of the verdict.
    #[arg(long, default_value_t = 0.05)]
    success_rate_threshold: f64,
    /// List the classes with fewer distinct sensitive values than this.
    #[arg(long)]
    l_threshold: Option<f64>,
    /// List the classes whose t-closeness distance exceeds this.
    #[arg(long)]
    t_threshold: Option<f64>,
    /// List the classes whose beta-likeness exceeds this.
    #[arg(long)]
    beta_threshold: Option<f64>,
    /// l of recursive (c,l)-diversity's c.
    #[arg(long, default_value_t = 2)]
    recursive_l: usize,
    /// c of recursive (c,l)-diversity's l.
    #[arg(long, default_value_t = 2.0)]
    recursive_c: f64,
    /// SCORR compliance: k must exceed this.
    #[arg(long, default_value_t = 10.0)]
    scorr_k_min: f64,
    /// SCORR compliance: t-closeness at most this.
    #[arg(long, default_value_t = 0.5)]
    scorr_t_max: f64,
    /// SCORR compliance counts k in persons (event-level data) instead of records.
    #[arg(long)]
    scorr_k_persons: bool,
    /// The original table: adds the permutation-model utility metrics (CM1-CM3, UM).
    #[arg(long)]
    original: Option<PathBuf>,
    /// Record-id column pairing the original and the released rows (else row order).
    #[arg(long)]
    record_id: Option<String>,
    /// Numeric columns for the permutation model (default: every numeric column of both).
    #[arg(long, value_delimiter = ',')]
    perm_columns: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

impl AuditArgs {
    fn config(&self) -> AuditConfig {
        let mut c = AuditConfig {
            quasi_identifiers: self.qi.clone(),
            sensitive: self.sensitive.clone(),
            missing_policy: match self.missing {
                Missing::Ordinary => MissingPolicy::Ordinary,
                Missing::Wildcard => MissingPolicy::Wildcard,
                Missing::Drop => MissingPolicy::Drop,
            },
            wildcard_alpha: self.alpha,
            exclude_suppressed_rows: !self.keep_suppressed,
            threshold: self.threshold,
            delimiter: self.delimiter.clone(),
            encoding: self.encoding.map(|e| match e {
                EncodingArg::Utf8 => Encoding::Utf8,
                EncodingArg::Windows1252 => Encoding::Windows1252,
            }),
            ragged: match self.ragged {
                RaggedArg::Error => Ragged::Error,
                RaggedArg::Pad => Ragged::PadOrTruncate,
            },
            person_id: self.person_id.clone(),
            weight: self.weight.clone(),
            population_size: self.population,
            sampling_fraction: self.sampling_fraction,
            population_region: self.region.clone(),
            records_at_risk_threshold: self.records_at_risk_threshold,
            success_rate_threshold: self.success_rate_threshold,
            attribute: AttributeParams {
                recursive_l: self.recursive_l,
                recursive_c: self.recursive_c,
                l_threshold: self.l_threshold,
                t_threshold: self.t_threshold,
                beta_threshold: self.beta_threshold,
            },
            scorr: ScorrThresholds {
                scorr_k_min: self.scorr_k_min,
                scorr_t_max: self.scorr_t_max,
                scorr_k_basis: if self.scorr_k_persons { KBasis::Persons } else { KBasis::Records },
                ..ScorrThresholds::default()
            },
            record_id: self.record_id.clone(),
            utility: pseudolens_core::utility::params::UtilityParams {
                permutation_columns: self.perm_columns.clone(),
                ..Default::default()
            },
            ..AuditConfig::default()
        };
        c.missing_tokens.extend(self.missing_token.iter().cloned());
        c
    }
}

enum Failure {
    Audit(Error),
    Io(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Audit(e)
    }
}

fn io_err(path: &Path) -> impl Fn(io::Error) -> Failure + '_ {
    move |e| Failure::Io(format!("{}: {e}", path.display()))
}

/// Streams a file in [`CHUNK`]-sized pieces into `push`.
fn stream(path: &Path, mut push: impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Failure> {
    let mut file = File::open(path).map_err(io_err(path))?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            return Ok(());
        }
        push(&buf[..n])?;
    }
}

/// Runs `read` with the encoding detected; a file detected as UTF-8 that turns out not to be
/// is read again as Windows-1252 (spec README Sec 6), and the warning says so.
fn with_fallback<T>(
    path: &Path,
    forced: Option<Encoding>,
    read: impl Fn(Option<Encoding>) -> Result<T, Failure>,
) -> Result<(T, Option<Warning>), Failure> {
    match read(forced) {
        Err(Failure::Audit(e)) if forced.is_none() && e.code == "encoding_mismatch" => {
            let again = read(Some(Encoding::Windows1252))?;
            let message = format!("{} is not valid UTF-8 ({e}); it was read again as Windows-1252", path.display());
            Ok((again, Some(Warning { code: "encoding_fallback", message })))
        }
        r => r.map(|t| (t, None)),
    }
}

/// A table read beside the release.
enum SideTable {
    Population(Box<pseudolens_core::reference::ReferenceTable>),
    Original(pseudolens_core::utility::capture::Captured),
}

/// Audits a released file, with its population and original tables when given.
fn audit_file(args: &AuditArgs) -> Result<Report, Failure> {
    let config = args.config();
    let mut warnings = Vec::new();
    // A side table (population, original) is read whole before the release.
    let mut side = |path: &Option<PathBuf>, read: &dyn Fn(&Path, Option<Encoding>) -> Result<_, Failure>| -> Result<_, Failure> {
        let Some(path) = path else { return Ok(None) };
        let (table, w) = with_fallback(path, None, |encoding| read(path, encoding))?;
        warnings.extend(w);
        Ok(Some(table))
    };
    let population = side(&args.reference, &|path, encoding| {
        let mut reference = Reference::new(&config, encoding);
        stream(path, |chunk| reference.push(chunk))?;
        Ok(SideTable::Population(Box::new(reference.finish()?)))
    })?;
    let original = side(&args.original, &|path, encoding| {
        let mut original = Original::new(&config, encoding);
        stream(path, |chunk| original.push(chunk))?;
        Ok(SideTable::Original(original.finish()?))
    })?;
    let (mut report, w) = with_fallback(&args.file, config.encoding, |encoding| {
        let mut audit = Audit::new(AuditConfig { encoding, ..config.clone() })?;
        if let Some(SideTable::Original(o)) = &original {
            audit.set_original(o.clone());
        }
        stream(&args.file, |chunk| audit.push(chunk))?;
        if let Some(SideTable::Population(p)) = &population {
            audit.set_population((**p).clone());
        }
        Ok(audit.finish()?)
    })?;
    report.warnings.extend(w.into_iter().chain(warnings));
    Ok(report)
}

fn print_table(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let i = &report.input;
    writeln!(out, "{} rows, {} columns, {} bytes, encoding {}, delimiter {:?}", i.rows_total, i.columns, i.bytes, i.encoding, i.delimiter)?;
    writeln!(out, "quasi-identifiers: {}", report.params.config.quasi_identifiers.join(", "))?;
    writeln!(out)?;
    for m in &report.metrics {
        let value = match &m.value {
            serde_json::Value::Array(a) if a.len() > 6 => format!("[{} entries]", a.len()),
            serde_json::Value::Null => format!("null ({})", m.reason.unwrap_or("")),
            v => v.to_string(),
        };
        writeln!(out, "{:<46} {value}", m.id)?;
    }
    for w in &report.warnings {
        writeln!(out, "warning ({}): {}", w.code, w.message)?;
    }
    Ok(())
}

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn bench(rows: usize, qi: Vec<String>, sensitive: Vec<String>, file: Option<PathBuf>) -> Result<(), Failure> {
    let keep = file.is_some();
    let path = file.unwrap_or_else(|| std::env::temp_dir().join(format!("pseudolens-bench-{rows}.csv")));
    let mut f = io::BufWriter::new(File::create(&path).map_err(io_err(&path))?);
    for chunk in sample::bench_table(rows, 1) {
        f.write_all(&chunk).map_err(io_err(&path))?;
    }
    f.flush().map_err(io_err(&path))?;
    drop(f);
    let bytes = std::fs::metadata(&path).map_err(io_err(&path))?.len();
    let qi = if qi.is_empty() { sample::BENCH_QIS.iter().map(|s| s.to_string()).collect() } else { qi };
    let what = format!("{} QIs{}", qi.len(), if sensitive.is_empty() { String::new() } else { format!(", SAs {}", sensitive.join("+")) });
    let config = AuditConfig { quasi_identifiers: qi, sensitive, ..AuditConfig::default() };
    let start = Instant::now();
    let mut audit = Audit::new(config)?;
    stream(&path, |chunk| audit.push(chunk))?;
    let report = audit.finish()?;
    let secs = start.elapsed().as_secs_f64();
    if !keep {
        let _ = std::fs::remove_file(&path);
    }
    let k = report.metric("k_anonymity").map(|m| m.value.to_string()).unwrap_or_default();
    println!(
        "native ({what}): {rows} rows, {:.1} MB, {:.3} s, {:.1} MB/s, {:.0} rows/s, peak memory {:.1} MB (k = {k})",
        bytes as f64 / 1e6,
        secs,
        bytes as f64 / 1e6 / secs,
        rows as f64 / secs,
        peak_memory().unwrap_or(0) as f64 / 1e6
    );
    Ok(())
}

fn run(cli: Cli) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let write = |e: io::Error| Failure::Io(format!("standard output: {e}"));
    match cli.command {
        Command::Audit(args) => {
            let report = audit_file(&args)?;
            if args.json {
                serde_json::to_writer_pretty(&mut out, &report).map_err(|e| Failure::Io(e.to_string()))?;
                writeln!(out).map_err(write)?;
            } else {
                print_table(&report, &mut out).map_err(write)?;
            }
        }
        Command::Sample => out.write_all(&sample::hospital_sample()).map_err(write)?,
        Command::Generate { rows, seed } => {
            for chunk in sample::bench_table(rows, seed) {
                out.write_all(&chunk).map_err(write)?;
            }
        }
        Command::Bench { rows, qi, sensitive, file } => bench(rows, qi, sensitive, file)?,
    }
    out.flush().map_err(write)
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Audit(e)) => {
            eprintln!("pseudolens: error [{}]: {e}", e.code);
            ExitCode::FAILURE
        }
        // `pseudolens sample | head` is not an error.
        Err(Failure::Io(msg)) if msg.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(Failure::Io(msg)) => {
            eprintln!("pseudolens: {msg}");
            ExitCode::FAILURE
        }
    }
}
