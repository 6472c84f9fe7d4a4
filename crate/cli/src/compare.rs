//! `compare`: one original, several candidate releases of it; every measure per candidate
//! and the choice among them (spec balance.md Sec 5-6).

use std::io::{self, Write};
use std::path::PathBuf;

use pseudolens_core::{ChoiceParams, choose};
use serde_json::json;

use crate::Failure;
use crate::settings::{Settings, rut_alpha};

#[derive(clap::Args)]
pub struct CompareArgs {
    /// The original table.
    original: PathBuf,
    /// Two or more candidate releases of it.
    #[arg(required = true, num_args = 2..)]
    candidates: Vec<PathBuf>,
    /// Quasi-identifier columns, comma-separated; without them no risk is measured and the
    /// candidates are compared on utility alone (no choice is made), as on the page.
    #[arg(long, value_delimiter = ',')]
    qi: Vec<String>,
    /// Weight of utility in the RUT score: a number in [0, 1] or a preset (analytics 0.7,
    /// balanced 0.5, compliance 0.4, public 0.3) [default: the settings file's, else balanced].
    #[arg(long, value_parser = rut_alpha)]
    alpha: Option<f64>,
    /// Only candidates with risk R at most this are feasible.
    #[arg(long)]
    tau_r: Option<f64>,
    /// Only candidates with utility U at least this are feasible.
    #[arg(long)]
    tau_u: Option<f64>,
    /// Weight of blank-containing records under --missing wildcard [default: 1].
    #[arg(long)]
    wildcard_alpha: Option<f64>,
    #[command(flatten)]
    settings: Settings,
}

/// Audits every candidate against the original (and the reference), then chooses.
pub fn compare(args: &CompareArgs, out: &mut impl Write) -> Result<(), Failure> {
    let config = args.settings.config(&args.qi, args.wildcard_alpha, args.alpha)?;
    let reports = crate::progress::shown(args.settings.progress, || -> Result<Vec<(String, pseudolens_core::Report)>, Failure> {
        let files = crate::read::files(&config, &args.settings, Some(&args.original))?;
        args.candidates.iter().map(|path| Ok((path.display().to_string(), crate::read::audit(&files, path, &config, false)?))).collect()
    })?;
    let (mut candidates, mut excluded) = (Vec::new(), Vec::new());
    for (name, report) in &reports {
        match report.candidate(name) {
            Ok(c) => candidates.push(c),
            Err(missing) => excluded.push(json!({ "file": name, "missing": missing })),
        }
    }
    let p = ChoiceParams { rut_alpha: config.balance.rut_alpha, tau_r: args.tau_r, tau_u: args.tau_u };
    let qi = reports.first().map(|(_, r)| r.params.quasi_identifiers.clone()).unwrap_or_default();
    let metrics = choose(&qi, &candidates, &p);
    let write = |e: io::Error| Failure::Io(format!("standard output: {e}"));
    if args.settings.json {
        let per: Vec<_> = reports.iter().map(|(file, r)| json!({ "file": file, "metrics": r.metrics, "input": r.input })).collect();
        let doc = json!({ "candidates": per, "metrics": metrics, "excluded": excluded });
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(|e| Failure::Io(e.to_string()))?;
        return writeln!(out).map_err(write);
    }
    writeln!(out, "{:<40} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}", "candidate", "risk R", "utility U", "safety", "rut", "UM", "CM3").map_err(write)?;
    for (name, report) in &reports {
        let v = |id: &str| report.metric(id).and_then(|m| m.value.as_f64()).map_or("-".to_string(), |x| format!("{x:.4}"));
        writeln!(out, "{name:<40} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}", v("risk_r"), v("utility_u"), v("safety"), v("rut"), v("perm_um"), v("perm_cm3"))
            .map_err(write)?;
    }
    let choice = &metrics[1];
    if choice.reason == Some("no_quasi_identifiers") {
        return writeln!(out, "no quasi-identifiers: no risk was measured, so the candidates are compared on utility alone and none is chosen").map_err(write);
    }
    for e in &excluded {
        writeln!(out, "left out of the choice (no {}): {}", e["missing"], e["file"]).map_err(write)?;
    }
    match choice.value.as_str() {
        Some(best) => writeln!(out, "chosen at alpha {}: {best}", p.rut_alpha),
        None => writeln!(out, "no candidate chosen ({})", choice.reason.unwrap_or("")),
    }
    .map_err(write)?;
    let stable = metrics[0].details["stable"].as_bool().unwrap_or(false);
    writeln!(out, "alpha sweep 0.2-0.8: {}", if stable { "the same candidate wins throughout" } else { "the winner changes with alpha" }).map_err(write)
}
