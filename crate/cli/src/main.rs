//! `pseudolens`: the native command line over pseudolens-core.
//!
//! `audit` prints the report of one CSV file (spec README Sec 10 result objects with `--json`,
//! a readable table without); `compare` audits several candidate releases of one original and
//! chooses among them; `protect` searches the generalizations of a table for criteria and
//! writes the release; `sample` and `generate` write the synthetic tables; `bench` measures
//! the native throughput.

mod bench;
mod compare;
mod progress;
mod protect;
mod read;
mod settings;
mod table;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use pseudolens_core::{AuditConfig, Report, bench_table, hospital_sample, min_count_of, shareable};
pub use pseudolens_native::Failure;
pub use pseudolens_native::file::io_err;

use compare::CompareArgs;
use settings::{Settings, rut_alpha};

#[derive(Parser)]
#[command(name = "pseudolens", version, about = "Privacy-risk auditor for pseudonymized tables (CSV, Parquet, Excel .xlsx)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Audit a released table: CSV, Parquet or Excel (.xlsx), told apart by their first bytes.
    Audit(Box<AuditArgs>),
    /// Compare candidate releases of one original: risk, utility, RUT and the best candidate.
    Compare(Box<CompareArgs>),
    /// Read a CSV file and print its column profile (kinds, forms, distinct values, proposed
    /// roles) and how it was read, without auditing it.
    Profile(Box<ProfileArgs>),
    /// Search the lattice of generalizations of a table for the criteria given (k, l, t, an
    /// average risk, a suppression limit) and, with --out, write the protected release and
    /// audit it (spec protect.md).
    Protect(Box<protect::ProtectArgs>),
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
        /// Generalization level 0-3 of the same records (0 = exact; releases of one seed pair
        /// with its level 0 by record_id).
        #[arg(long, default_value_t = 0)]
        level: u8,
    },
    /// Generate a table and time the native audit of it: prints MB/s, rows/s and peak memory
    /// (`bench reaudit`: time a second audit of a table kept in memory).
    Bench {
        #[command(subcommand)]
        mode: Option<bench::Mode>,
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
        /// Time the utility pass instead: the table at this generalization level (1-3)
        /// against its exact original (level 0), paired by record_id.
        #[arg(long)]
        utility_level: Option<u8>,
    },
}

#[derive(clap::Args)]
struct ProfileArgs {
    /// The table: a CSV, Parquet or .xlsx file.
    file: PathBuf,
    #[command(flatten)]
    settings: Settings,
}

#[derive(clap::Args)]
struct AuditArgs {
    /// The released table: a CSV, Parquet or .xlsx file.
    file: PathBuf,
    /// Quasi-identifier columns, comma-separated (required unless --original or --settings
    /// is given).
    #[arg(long, value_delimiter = ',', required_unless_present_any = ["original", "settings"])]
    qi: Vec<String>,
    /// The original table: adds the utility metrics (loss, similarity, SDC measures, queries,
    /// permutation model).
    #[arg(long)]
    original: Option<PathBuf>,
    /// Weight of blank-containing records under --missing wildcard [default: 1].
    #[arg(long)]
    alpha: Option<f64>,
    /// Weight of utility in the RUT score: a number in [0, 1] or a preset (analytics 0.7,
    /// balanced 0.5, compliance 0.4, public 0.3) [default: balanced].
    #[arg(long, value_parser = rut_alpha)]
    rut_alpha: Option<f64>,
    /// Print the report safe to share, as JSON: only aggregates of at least K records (default:
    /// the advice's k, else 5); no value, class, sensitive value or query cell of fewer.
    #[arg(long, value_name = "K", num_args = 0..=1, value_parser = clap::value_parser!(u64).range(1..))]
    shareable: Option<Option<u64>>,
    #[command(flatten)]
    settings: Settings,
}

/// Audits `file` with these settings (threads, `--retain`, side tables).
fn audit(file: &Path, config: &AuditConfig, settings: &Settings, original: Option<&Path>) -> Result<Report, Failure> {
    read::audit(&read::files(config, settings, original)?, file, config, settings.retain)
}

/// Writes the per-record CSV (`--per-record FILE`) a row at a time, from each record's class:
/// no JSON of the records is built. A report without quasi-identifiers has none to write.
fn write_per_record(report: &Report, path: &Path) -> Result<(), Failure> {
    let Some(records) = &report.per_record else {
        return Err(Failure::Io(format!("{}: no per-record values to write (name the quasi-identifiers with --qi)", path.display())));
    };
    let file = std::fs::File::create(path).map_err(io_err(path))?;
    let mut out = io::BufWriter::new(file);
    records.write_csv(&mut out).and_then(|()| out.flush()).map_err(io_err(path))?;
    eprintln!("pseudolens: wrote {} records' values to {} (record-level: not for sharing)", records.len(), path.display());
    Ok(())
}

/// Writes a report as JSON, or readably with `table`.
fn print<W: Write>(report: &Report, json: bool, table: fn(&Report, &mut W) -> io::Result<()>, out: &mut W) -> Result<(), Failure> {
    let write = |e: io::Error| Failure::Io(format!("standard output: {e}"));
    if json {
        serde_json::to_writer_pretty(&mut *out, report).map_err(|e| Failure::Io(e.to_string()))?;
        writeln!(out).map_err(write)
    } else {
        table(report, out).map_err(write)
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let write = |e: io::Error| Failure::Io(format!("standard output: {e}"));
    match cli.command {
        Command::Audit(args) => {
            let config = args.settings.config(&args.qi, args.alpha, args.rut_alpha)?;
            let report = progress::shown(args.settings.progress, || audit(&args.file, &config, &args.settings, args.original.as_deref()))?;
            if let Some(path) = &args.settings.per_record {
                write_per_record(&report, path)?;
            }
            if let Some(k) = args.shareable {
                let safe = shareable(&report, k.unwrap_or_else(|| min_count_of(&report)));
                serde_json::to_writer_pretty(&mut out, &safe).map_err(|e| Failure::Io(e.to_string()))?;
                writeln!(out).map_err(write)?;
            } else {
                print(&report, args.settings.json, table::print, &mut out)?;
            }
        }
        Command::Compare(args) => compare::compare(&args, &mut out)?,
        Command::Profile(args) => {
            // A profile only, whatever QIs a settings file names.
            let config = AuditConfig { quasi_identifiers: Vec::new(), ..args.settings.config(&[], None, None)? };
            let report = progress::shown(args.settings.progress, || audit(&args.file, &config, &args.settings, None))?;
            print(&report, args.settings.json, table::print_profile, &mut out)?;
        }
        Command::Protect(args) => protect::protect(&args, &mut out)?,
        Command::Sample => out.write_all(&hospital_sample()).map_err(write)?,
        Command::Generate { rows, seed, level } => {
            for chunk in bench_table(rows, seed, level) {
                out.write_all(&chunk).map_err(write)?;
            }
        }
        Command::Bench { mode: Some(mode), .. } => bench::run(mode)?,
        Command::Bench { mode: None, rows, qi, sensitive, file, utility_level } => bench::bench(rows, qi, sensitive, file, utility_level)?,
    }
    out.flush().map_err(write)
}

fn main() -> ExitCode {
    // A panic of the Parquet or Excel reader is reported as an error, without its trace.
    pseudolens_formats::contain::quiet_contained_panics();
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
