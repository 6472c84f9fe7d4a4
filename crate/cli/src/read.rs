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
    let paths = SidePaths { original, reference: settings.reference.as_deref(), control: settings.attacks.control.as_deref() };
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
