//! `pseudolens protect` (issue 38, spec protect.md): the lattice search over the ladders of
//! the quasi-identifiers for the criteria given, its result (the metric `protect`, Sec 6), and
//! with `--out` the release of the best node (or of `--node`) written as CSV and audited at
//! once: its audit must give the figures the search predicted (Sec 5).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use pseudolens_core::{AuditConfig, DateLevel, Ladder, Objective, ProtectParams, Protector, Suppressed, Table};
use pseudolens_native::{Files, SidePaths};

use crate::progress::FileBytes;
use crate::settings::pair;
use crate::{Failure, io_err};

#[derive(clap::Args)]
pub struct ProtectArgs {
    /// The table to protect (the original): a CSV, Parquet or .xlsx file, read once and kept
    /// in memory.
    file: PathBuf,
    /// A settings file (the page's "Download settings", or `audit`'s): the audit settings the
    /// file is read with, its QIs and sensitive columns, and its `protect` (ladders, criteria,
    /// node); the flags given override it.
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    /// Quasi-identifier columns, comma-separated (required unless --settings names them).
    #[arg(long, value_delimiter = ',', required_unless_present = "settings")]
    qi: Vec<String>,
    /// Sensitive columns of the criteria l and t, comma-separated.
    #[arg(long, value_delimiter = ',')]
    sensitive: Vec<String>,
    /// k-anonymity: classes smaller than K are suppressed.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    k: Option<u64>,
    /// Distinct l-diversity of each sensitive column.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    l: Option<u64>,
    /// t-closeness of each sensitive column, in [0, 1].
    #[arg(long, value_parser = unit)]
    t: Option<f64>,
    /// The largest average re-identification risk (classes over records kept), in (0, 1].
    #[arg(long, value_parser = unit)]
    max_average_risk: Option<f64>,
    /// The share of the records in scope that may be suppressed, a fraction in [0, 1]
    /// (default 0).
    #[arg(long, value_parser = unit)]
    max_suppression: Option<f64>,
    /// An ARX hierarchy for a quasi-identifier: QI=FILE (one row per value, its label per
    /// level; `;` or `,` delimited). Repeat for several.
    #[arg(long, value_name = "QI=FILE", value_parser = pair)]
    hierarchy: Vec<(String, String)>,
    /// Numeric bands: QI=W1,W2,... with optional ,bottom=B and ,top=T (each width a whole
    /// multiple of the one before). Repeat for several.
    #[arg(long, value_name = "QI=W1,W2,...", value_parser = bands)]
    bands: Vec<(String, Ladder)>,
    /// Date levels: QI=month,quarter,year (a subsequence). Repeat for several.
    #[arg(long, value_name = "QI=LEVELS", value_parser = dates)]
    dates: Vec<(String, Ladder)>,
    /// Kept prefix lengths: QI=N1,N2 (decreasing). Repeat for several.
    #[arg(long, value_name = "QI=N1,N2,...", value_parser = prefix)]
    prefix: Vec<(String, Ladder)>,
    /// What orders the feasible nodes (default loss).
    #[arg(long, value_enum)]
    objective: Option<ObjectiveArg>,
    /// The node to apply instead of the best: QI=LEVEL,QI=LEVEL (a QI not named: level 0).
    #[arg(long, value_name = "QI=LEVEL,...", value_delimiter = ',', value_parser = level)]
    node: Vec<(String, usize)>,
    /// What the release does with the records of the violating classes (default remove).
    #[arg(long, value_enum)]
    suppressed: Option<SuppressedArg>,
    /// Blank quasi-identifier cells: ordinary (a value like any other) or drop (the records
    /// leave the scope and the release); default ordinary.
    #[arg(long, value_enum)]
    missing: Option<MissingArg>,
    /// The most nodes the lattice may have (default 1,000,000).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Write the release here (CSV) and audit it; without it the search only reports.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The delimiter of the file (default: detected).
    #[arg(long)]
    delimiter: Option<String>,
    /// The sheet of a workbook (default: its first).
    #[arg(long)]
    sheet: Option<String>,
    /// Threads to read with (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the result as JSON (the metric `protect`, spec README Sec 10).
    #[arg(long)]
    json: bool,
    /// Show the progress of the read and the search on stderr, a line per change (without it,
    /// shown on a terminal after a second).
    #[arg(long)]
    progress: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ObjectiveArg {
    Loss,
    Discernibility,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SuppressedArg {
    Remove,
    Star,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum MissingArg {
    Ordinary,
    Drop,
}

/// A number in [0, 1].
fn unit(s: &str) -> Result<f64, String> {
    s.trim().parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x)).ok_or_else(|| format!("expected a number in [0, 1], not \"{s}\""))
}

/// `QI=W1,W2[,bottom=B][,top=T]`.
fn bands(s: &str) -> Result<(String, Ladder), String> {
    let (qi, rest) = pair(s)?;
    let (mut widths, mut bottom, mut top) = (Vec::new(), None, None);
    for part in rest.split(',').map(str::trim) {
        let number = |x: &str| x.trim().parse::<f64>().map_err(|_| format!("expected a number, not \"{x}\" in \"{s}\""));
        match part.split_once('=') {
            Some(("bottom", b)) => bottom = Some(number(b)?),
            Some(("top", t)) => top = Some(number(t)?),
            Some(_) => return Err(format!("expected a width, bottom=B or top=T, not \"{part}\"")),
            None => widths.push(number(part)?),
        }
    }
    Ok((qi, Ladder::Bands { widths, bottom, top }))
}

/// `QI=month,quarter,year`.
fn dates(s: &str) -> Result<(String, Ladder), String> {
    let (qi, rest) = pair(s)?;
    let levels = rest
        .split(',')
        .map(|l| serde_json::from_value::<DateLevel>(serde_json::json!(l.trim())).map_err(|_| format!("expected month, quarter or year, not \"{l}\"")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((qi, Ladder::Dates { levels }))
}

/// `QI=N1,N2`.
fn prefix(s: &str) -> Result<(String, Ladder), String> {
    let (qi, rest) = pair(s)?;
    let lengths = rest.split(',').map(|n| n.trim().parse::<usize>().map_err(|_| format!("expected a length, not \"{n}\""))).collect::<Result<Vec<_>, _>>()?;
    Ok((qi, Ladder::Prefix { lengths }))
}

/// `QI=LEVEL`.
fn level(s: &str) -> Result<(String, usize), String> {
    let (qi, l) = pair(s)?;
    Ok((qi, l.parse().map_err(|_| format!("expected a level number, not \"{l}\""))?))
}

impl ProtectArgs {
    /// The audit settings the table is read with, and its release audited with: the settings
    /// file's (or the defaults), then the QIs, sensitive columns, policy and delimiter given.
    fn config(&self) -> Result<AuditConfig, Failure> {
        let mut c = match &self.settings {
            Some(path) => crate::settings::settings_file(path)?,
            None => AuditConfig::default(),
        };
        if !self.qi.is_empty() {
            c.quasi_identifiers = self.qi.clone();
        }
        if !self.sensitive.is_empty() {
            c.sensitive = self.sensitive.clone();
        }
        if let Some(m) = self.missing {
            c.missing_policy = match m {
                MissingArg::Ordinary => pseudolens_core::MissingPolicy::Ordinary,
                MissingArg::Drop => pseudolens_core::MissingPolicy::Drop,
            };
        }
        if self.delimiter.is_some() {
            c.delimiter = self.delimiter.clone();
        }
        Ok(c)
    }

    /// The settings of the search: the protection of `config` (its `protect`), then the
    /// ladders (the hierarchy files read), criteria and choices given as flags.
    fn params(&self, config: &AuditConfig) -> Result<ProtectParams, Failure> {
        let mut p = config.protect_params();
        let mut given = BTreeMap::new();
        for (qi, path) in &self.hierarchy {
            let csv = std::fs::read_to_string(path).map_err(io_err(Path::new(path)))?;
            given.insert(qi.clone(), Ladder::Hierarchy { csv });
        }
        for (qi, ladder) in self.bands.iter().chain(&self.dates).chain(&self.prefix) {
            if given.insert(qi.clone(), ladder.clone()).is_some() {
                return Err(Failure::Audit(pseudolens_core::Error::config("ladder_given_twice", format!("two ladders are given for \"{qi}\"")).in_column(qi)));
            }
        }
        p.ladders.extend(given);
        let c = &mut p.criteria;
        (c.k, c.l, c.t, c.average_risk) = (self.k.or(c.k), self.l.or(c.l), self.t.or(c.t), self.max_average_risk.or(c.average_risk));
        p.suppression_limit = self.max_suppression.unwrap_or(p.suppression_limit);
        if let Some(o) = self.objective {
            p.objective = match o {
                ObjectiveArg::Loss => Objective::Loss,
                ObjectiveArg::Discernibility => Objective::Discernibility,
            };
        }
        if let Some(s) = self.suppressed {
            p.suppressed = match s {
                SuppressedArg::Remove => Suppressed::Remove,
                SuppressedArg::Star => Suppressed::Star,
            };
        }
        p.max_nodes = self.max_nodes.unwrap_or(p.max_nodes);
        if !self.node.is_empty() {
            p.node = Some(self.node.iter().cloned().collect());
        }
        Ok(p)
    }
}

/// Runs `pseudolens protect`: prints the result (a table, or JSON with `--json`); with `--out`
/// writes the release and checks its audit against the prediction. No feasible node is a
/// result (said on standard error), not an error.
pub fn protect<W: Write>(args: &ProtectArgs, out: &mut W) -> Result<(), Failure> {
    let config = args.config()?;
    let params = args.params(&config)?;
    let threads = crate::read::use_threads(args.threads);
    let (files, table, protector, search) = crate::progress::shown(args.progress, || -> Result<_, Failure> {
        let files = Files::read(&config, SidePaths::default(), threads, args.sheet.clone(), &FileBytes)?;
        let (table, _) = files.read_needed(&args.file, &config)?;
        let protector = Protector::new(&table, &config.normaliser(), &params)?;
        let search = protector.search()?;
        Ok((files, table, protector, search))
    })?;
    let result = protector.result(&search);
    let write = |e: io::Error| Failure::Io(format!("standard output: {e}"));
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &result).map_err(|e| Failure::Io(e.to_string()))?;
        writeln!(out).map_err(write)?;
    } else {
        print(&result, &protector.qis, out).map_err(write)?;
    }
    let chosen = match &params.node {
        Some(node) => Some(protector.node(node)?),
        None => search.best.map(|b| search.lattice.levels(b)),
    };
    let Some(levels) = chosen else {
        eprintln!("pseudolens: no node of the lattice meets the criteria within the suppression limit (the closest node is in the result)");
        return Ok(());
    };
    if let Some(path) = &args.out {
        let predicted = protector.evaluate(&levels)?;
        if !predicted.feasible {
            eprintln!(
                "pseudolens: the node chosen with --node does not meet the criteria within the suppression limit ({} records suppressed); it is written as asked",
                predicted.records_suppressed
            );
        }
        let (rows, delimiter) = write_release(&protector, &table, &levels, &args.file, &config, threads, path)?;
        let release_config = pseudolens_core::release_config(&config, &protector.qis, &levels, &delimiter);
        let audited =
            files.read_table(path, &release_config).and_then(|(release, _)| Ok(pseudolens_core::audit_table(&release, &release_config, &files.sides)?))?;
        let node: Vec<String> = protector.qis.iter().zip(&levels).map(|(q, l)| format!("{q}={l}")).collect();
        eprintln!("pseudolens: wrote {rows} records to {} (node {})", path.display(), node.join(","));
        if pseudolens_core::check_release(&protector, &levels, &audited)? {
            eprintln!(
                "pseudolens: its audit gives k {}, {} classes and average risk {:.6}, as predicted",
                predicted.k.unwrap_or(0),
                predicted.classes,
                predicted.average_risk.unwrap_or(0.0)
            );
        }
    }
    Ok(())
}

/// Writes the release of `levels` to `path` a range of rows at a time; returns the records
/// written and the delimiter. A CSV table of which a column kept no codes (every column but
/// the QIs and sensitive ones: `Files::read_needed`) is written while `input` is read again
/// (`pseudolens_native::write_release`).
fn write_release(
    protector: &Protector,
    table: &Table,
    levels: &[usize],
    input: &Path,
    config: &AuditConfig,
    threads: usize,
    path: &Path,
) -> Result<(u64, String), Failure> {
    /// Rows written per chunk.
    const CHUNK: usize = 1 << 16;
    let mut file = io::BufWriter::new(std::fs::File::create(path).map_err(io_err(path))?);
    if !table.is_retained() && !table.facts.delimiter.is_empty() {
        let written = pseudolens_native::write_release(input, protector, table, levels, config, threads, &mut file)?;
        file.flush().map_err(io_err(path))?;
        return Ok(written);
    }
    let release = protector.release(table, levels)?;
    let mut buf = Vec::new();
    release.write_header(&mut buf);
    let mut written = 0;
    for from in (0..release.rows()).step_by(CHUNK) {
        written += release.write_rows(from, (from + CHUNK).min(release.rows()), &mut buf);
        file.write_all(&buf).map_err(io_err(path))?;
        buf.clear();
    }
    file.write_all(&buf).and_then(|()| file.flush()).map_err(io_err(path))?;
    Ok((written, release.delimiter().to_string()))
}

/// Most minimal feasible nodes the readable result lists.
const LISTED: usize = 10;

/// The result readably: the best node with its labels and figures, the first minimal feasible
/// nodes and the lattice's counts; levels in the QIs' column order (`qis`).
fn print<W: Write>(r: &pseudolens_core::metric::MetricResult, qis: &[String], out: &mut W) -> io::Result<()> {
    let d = &r.details;
    writeln!(
        out,
        "lattice: {} nodes, {} feasible, {} evaluated; {} records in scope, {} out of scope",
        d["nodes_total"], d["nodes_feasible"], d["nodes_evaluated"], d["records_in_scope"], d["records_out_of_scope"]
    )?;
    let node = |n: &serde_json::Value| {
        let levels: Vec<String> = qis.iter().map(|q| format!("{q}={}", n["levels"][q])).collect();
        format!(
            "({}) suppressed {}, classes {}, k {}, average risk {}, loss {}, discernibility {}",
            levels.join(", "),
            n["records_suppressed"],
            n["classes"],
            n["k"],
            n["average_risk"],
            n["loss"],
            n["discernibility"]
        )
    };
    match d.get("best").filter(|b| !b.is_null()) {
        Some(best) => {
            writeln!(out, "best: {}", node(best))?;
            for q in qis {
                writeln!(out, "  {q}: {}", best["labels"][q].as_str().unwrap_or_default())?;
            }
        }
        None => {
            writeln!(out, "no feasible node")?;
            if let Some(c) = d.get("closest") {
                writeln!(out, "closest: {}", node(c))?;
            }
        }
    }
    let minimal = d["minimal"].as_array().map_or(&[][..], Vec::as_slice);
    for m in minimal.iter().take(LISTED) {
        writeln!(out, "minimal: {}", node(m))?;
    }
    if minimal.len() > LISTED {
        writeln!(out, "minimal: {} more (--json lists them)", minimal.len() - LISTED)?;
    }
    writeln!(out, "Pareto front: {} nodes", d["pareto"].as_array().map_or(0, Vec::len))
}
