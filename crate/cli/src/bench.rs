//! `bench`: native throughput on generated tables (MB/s, rows/s, peak memory).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use pseudolens_core::{Audit, AuditConfig, BENCH_QIS, Original, bench_table};

use pseudolens_native::file::stream;
use pseudolens_native::{Files, SidePaths};

use crate::{Failure, io_err};

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Writes the generated table of `level` to `path` and returns its size in bytes.
pub fn generate(rows: usize, level: u8, path: &Path) -> Result<u64, Failure> {
    let mut f = io::BufWriter::new(File::create(path).map_err(io_err(path))?);
    for chunk in bench_table(rows, 1, level) {
        f.write_all(&chunk).map_err(io_err(path))?;
    }
    f.flush().map_err(io_err(path))?;
    drop(f);
    Ok(std::fs::metadata(path).map_err(io_err(path))?.len())
}

pub fn bench(rows: usize, qi: Vec<String>, sensitive: Vec<String>, file: Option<PathBuf>, utility_level: Option<u8>) -> Result<(), Failure> {
    let keep = file.is_some();
    let path = file.unwrap_or_else(|| std::env::temp_dir().join(format!("pseudolens-bench-{rows}.csv")));
    let qi = if qi.is_empty() { BENCH_QIS.iter().map(|s| s.to_string()).collect() } else { qi };
    let mut what = format!("{} QIs{}", qi.len(), if sensitive.is_empty() { String::new() } else { format!(", SAs {}", sensitive.join("+")) });
    let mut config = AuditConfig { quasi_identifiers: qi, sensitive, ..AuditConfig::default() };
    let mut bytes = generate(rows, utility_level.unwrap_or(0), &path)?;
    let original_path = std::env::temp_dir().join(format!("pseudolens-bench-{rows}-original.csv"));
    if let Some(level) = utility_level {
        bytes += generate(rows, 0, &original_path)?;
        config.record_id = Some("record_id".into());
        config.ignored = vec!["note".into()];
        what = format!("{what}, utility of level {level} against level 0, two files");
    }
    let start = Instant::now();
    let mut audit = Audit::new(config.clone())?;
    if utility_level.is_some() {
        let mut original = Original::new(&config, None);
        stream(&original_path, &(), |chunk| original.push(chunk))?;
        audit.set_original(original.finish()?);
        let _ = std::fs::remove_file(&original_path);
    }
    stream(&path, &(), |chunk| audit.push(chunk))?;
    let report = audit.finish()?;
    let secs = start.elapsed().as_secs_f64();
    if !keep {
        let _ = std::fs::remove_file(&path);
    }
    let shown = if utility_level.is_some() { "utility_u" } else { "k_anonymity" };
    let value = report.metric(shown).map(|m| m.value.to_string()).unwrap_or_default();
    let rows_read = if utility_level.is_some() { 2 * rows } else { rows };
    println!(
        "native ({what}): {rows_read} rows, {:.1} MB, {:.3} s, {:.1} MB/s, {:.0} rows/s, peak memory {:.1} MB ({shown} = {value})",
        bytes as f64 / 1e6,
        secs,
        bytes as f64 / 1e6 / secs,
        rows_read as f64 / secs,
        peak_memory().unwrap_or(0) as f64 / 1e6
    );
    Ok(())
}

/// The `bench` measurements on a given file.
#[derive(clap::Subcommand)]
pub enum Mode {
    /// Reads FILE once into a table kept in memory, audits it with --qi, then again with
    /// --then-qi (the re-audit that reads nothing); prints one JSON line of the times.
    Reaudit {
        /// The CSV file.
        #[arg(long)]
        file: PathBuf,
        /// The first quasi-identifiers.
        #[arg(long, value_delimiter = ',', required = true)]
        qi: Vec<String>,
        /// The quasi-identifiers of the second audit.
        #[arg(long, value_delimiter = ',', required = true)]
        then_qi: Vec<String>,
        /// Sensitive columns of both audits.
        #[arg(long, value_delimiter = ',')]
        sensitive: Vec<String>,
        /// Reading threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// The page's work on one core, natively: FILE (read into memory first) read as one part
    /// from memory in 1 MiB chunks, as a page's reader does (told the file's size, the part
    /// turned into its stored bytes and read back), then audited from the kept table with
    /// --qi; RUNS times each. Prints one JSON line of the medians. Its counterpart in wasm,
    /// the same calls in headless Chromium: tests/bench/engine.bench.ts.
    Part {
        /// The CSV file.
        #[arg(long)]
        file: PathBuf,
        /// The quasi-identifiers.
        #[arg(long, value_delimiter = ',', required = true)]
        qi: Vec<String>,
        /// Sensitive columns.
        #[arg(long, value_delimiter = ',')]
        sensitive: Vec<String>,
        /// Runs of each.
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
    /// The synthetic measures one at a time (issue 39's bench against sdnist and sdmetrics,
    /// bench/synthetic.py): the original, the release and the holdout read once into memory,
    /// their columns joined (`synthetic::joined`, shared by every measure), then each measure
    /// of MEASURES computed alone on them, RUNS times each. Prints one JSON line of every time
    /// in seconds and each measure's status.
    Synthetic {
        /// The release (CSV).
        #[arg(long)]
        release: PathBuf,
        /// The original (CSV).
        #[arg(long)]
        original: PathBuf,
        /// The holdout (CSV).
        #[arg(long)]
        holdout: Option<PathBuf>,
        /// The settings file: QIs, kinds, the synthetic settings.
        #[arg(long)]
        settings: PathBuf,
        /// The measures, by metric id.
        #[arg(long, value_delimiter = ',', required = true)]
        measures: Vec<String>,
        /// Runs of each.
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
}

/// The median of some times.
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// `bench part`: see [`Mode::Part`].
fn part(file: &Path, config: &AuditConfig, runs: usize) -> Result<serde_json::Value, Failure> {
    pseudolens_core::par::set_threads(1);
    let bytes = std::fs::read(file).map_err(io_err(file))?;
    let probe = pseudolens_core::Reader::probe(config.csv_options()?, &bytes[..bytes.len().min(1 << 20)], bytes.len() <= 1 << 20)
        .ok_or_else(|| Failure::Io(format!("{}: the header did not probe", file.display())))?;
    let span = pseudolens_core::Span { start: 0, end: bytes.len() as u64, exact: true };
    let read = || -> Result<pseudolens_core::Part, Failure> {
        let mut reader = pseudolens_core::TableReader::part(config.table_settings()?, &probe, span);
        reader.expect_file_bytes(bytes.len() as u64);
        for chunk in bytes.chunks(1 << 20) {
            if reader.done() {
                break;
            }
            reader.push(chunk)?;
        }
        Ok(pseudolens_core::Part::from_bytes(&reader.finish()?.to_bytes())?)
    };
    let mut reads = Vec::new();
    let mut kept = None;
    for _ in 0..runs.max(1) {
        // (The last table dropped first, as the wasm side frees it.)
        drop(kept.take());
        let start = Instant::now();
        kept = Some(read()?);
        reads.push(start.elapsed().as_secs_f64());
    }
    let table = kept.expect("one run at least").table;
    let mut audits = Vec::new();
    let mut checked = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let report = pseudolens_core::audit_table(&table, config, &pseudolens_core::Sides::default())?;
        // The report serialized, as the binding turns it into JS objects.
        let json = serde_json::to_string(&report).map_err(|e| Failure::Io(e.to_string()))?;
        audits.push(start.elapsed().as_secs_f64());
        drop(json);
        // (k and the sample uniques, to compare with the wasm run's.)
        checked = Some(["k_anonymity", "sample_uniques"].map(|id| report.metric(id).map(|m| m.value.clone())));
    }
    Ok(serde_json::json!({ "read_s": median(reads), "audit_s": median(audits), "rows": table.facts.rows_total, "checked": checked }))
}

/// Runs a `bench` measurement.
pub fn run(mode: Mode) -> Result<(), Failure> {
    match mode {
        Mode::Reaudit { file, qi, then_qi, sensitive, threads } => {
            let config = AuditConfig { quasi_identifiers: qi, sensitive: sensitive.clone(), ..AuditConfig::default() };
            let second = AuditConfig { quasi_identifiers: then_qi, sensitive, ..AuditConfig::default() };
            let files = Files::read(&config, SidePaths::default(), crate::read::use_threads(threads), None, &())?;
            let start = Instant::now();
            // Both audits' columns keep every value.
            let both = AuditConfig { quasi_identifiers: [config.quasi_identifiers.clone(), second.quasi_identifiers.clone()].concat(), ..config.clone() };
            let (table, _) = files.read_table(&file, &both)?;
            let read_s = start.elapsed().as_secs_f64();
            let start = Instant::now();
            let first = pseudolens_core::audit_table(&table, &config, &files.sides)?;
            let first_s = start.elapsed().as_secs_f64();
            let start = Instant::now();
            let again = pseudolens_core::audit_table(&table, &second, &files.sides)?;
            let reaudit_s = start.elapsed().as_secs_f64();
            let k = |r: &pseudolens_core::Report| r.metric("k_anonymity").map(|m| m.value.clone());
            let line = serde_json::json!({
                "read_s": read_s, "first_s": first_s, "reaudit_s": reaudit_s, "rows": table.facts.rows_total,
                "retained": table.is_retained(), "k_first": k(&first), "k_reaudit": k(&again),
                "peak_memory_bytes": peak_memory(),
            });
            println!("{line}");
            Ok(())
        }
        Mode::Part { file, qi, sensitive, runs } => {
            let config = AuditConfig { quasi_identifiers: qi, sensitive, ..AuditConfig::default() };
            println!("{}", part(&file, &config, runs)?);
            Ok(())
        }
        Mode::Synthetic { release, original, holdout, settings, measures, runs } => {
            let config = crate::settings::settings_file(&settings)?;
            let threads = crate::read::use_threads(None);
            // The release is read as a side table too (the control's slot): the measures
            // compare two captured tables.
            let both = Files::read(&config, SidePaths { original: Some(&original), control: Some(&release), ..SidePaths::default() }, threads, None, &())?;
            let held = match &holdout {
                Some(h) => Some(Files::read(&config, SidePaths { control: Some(h), ..SidePaths::default() }, threads, None, &())?),
                None => None,
            };
            let o = both.sides.original.as_deref().expect("read");
            let norm = config.normaliser().delimiter(&o.input.delimiter);
            let params = config.synthetic.clone().unwrap_or_default();
            let input = pseudolens_core::synthetic::SyntheticInput {
                original: Some(o),
                released: both.sides.control.as_deref(),
                holdout: held.as_ref().and_then(|f| f.sides.control.as_deref()),
                qi: &config.quasi_identifiers,
                sensitive: &config.sensitive,
                attributes: &config.attributes,
                norm: &norm,
            };
            // The columns joined once (the work every measure shares), then each measure.
            let mut joined_s = Vec::new();
            let mut columns = Vec::new();
            for _ in 0..runs.max(1) {
                let start = Instant::now();
                columns = pseudolens_core::synthetic::joined(&input);
                joined_s.push(start.elapsed().as_secs_f64());
            }
            let mut times = serde_json::Map::new();
            let mut statuses = serde_json::Map::new();
            for id in measures {
                let one = pseudolens_core::SyntheticParams { measures: vec![id.clone()], ..params.clone() };
                let mut secs = Vec::new();
                for _ in 0..runs.max(1) {
                    let start = Instant::now();
                    let result = pseudolens_core::synthetic::measures(&input, &columns, &one);
                    secs.push(start.elapsed().as_secs_f64());
                    statuses.insert(id.clone(), serde_json::json!(result.first().map(|m| (m.status, m.reason))));
                }
                times.insert(id, serde_json::json!(secs));
            }
            println!("{}", serde_json::json!({ "rows": o.rows(), "joined_s": joined_s, "measures_s": times, "status": statuses }));
            Ok(())
        }
    }
}
