//! Reading the tables of an audit with pseudolens-native: the side tables once, then each
//! release against them, kept in memory with `--retain` (streamed when it cannot be kept),
//! else streamed.

use std::path::Path;

use pseudolens_core::{AuditConfig, ReadPath, Report};
use pseudolens_native::{Failure, Files, SidePaths};

use crate::progress::FileBytes;
use crate::settings::Settings;

/// The number of threads to read with and to compute on: `--threads`, else every core. The
/// core's own work after the read (`pseudolens_core::par`) is held to the same number.
pub fn use_threads(asked: Option<usize>) -> usize {
    let n = asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    pseudolens_core::par::set_threads(n);
    n
}

/// Reads the side tables these settings name (and `original`), for releases read on the
/// threads and from the sheet the settings give.
pub fn files(config: &AuditConfig, settings: &Settings, original: Option<&Path>) -> Result<Files, Failure> {
    let control = match (&settings.attacks.control, &settings.synthetic.holdout) {
        (Some(c), Some(h)) if c != h => {
            return Err(Failure::Audit(pseudolens_core::Error::config(
                "holdout_and_control",
                "--control and --holdout name one table (records not used to make the release): give one of them",
            )));
        }
        (c, h) => c.as_deref().or(h.as_deref()),
    };
    let paths = SidePaths { original, reference: settings.reference.as_deref(), control };
    Files::read(config, paths, use_threads(settings.threads), settings.sheet.clone(), &FileBytes)
}

/// Audits the release at `path` against the side tables: from a table kept in memory with
/// `retain` (`--retain`; streaming when it could not be kept), else streaming.
pub fn audit(files: &Files, path: &Path, config: &AuditConfig, retain: bool) -> Result<Report, Failure> {
    let why = if retain {
        let (table, warning) = files.read_table(path, config)?;
        match pseudolens_core::audit_table(&table, config, &files.sides) {
            Ok(mut report) => {
                files.add_warnings(&mut report, warning);
                return Ok(report);
            }
            Err(e) if e.code == "not_retained" => format!("the table could not be kept in memory: {e}"),
            Err(e) => return Err(e.into()),
        }
    } else {
        "the CLI streams the file unless --retain is given".to_string()
    };
    let mut report = files.stream(path, config)?;
    report.read = ReadPath::streaming(why);
    Ok(report)
}
