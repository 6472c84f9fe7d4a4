//! Reading the tables of an audit: the original and the reference once, then each release
//! against them, with the Windows-1252 fallback of spec README Sec 6.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use pseudolens_core::{Audit, AuditConfig, FilePart, ReadsTable, Report, TableReader};
use pseudolens_core::{Captured, Encoding, Format, Original, Probe, ReadPath, ReferenceTable, Span, Table, Warning, audit_table_with_control};

use crate::parallel::read_in_parts;
use crate::{Failure, io_err, stream};

/// The format of the file at `path`, from its first bytes and its name.
pub fn format_of(path: &Path) -> Result<Format, Failure> {
    let mut start = Vec::with_capacity(8);
    File::open(path).and_then(|f| f.take(8).read_to_end(&mut start)).map_err(io_err(path))?;
    Ok(pseudolens_formats::detect::format_of(&start, &path.to_string_lossy())?)
}

/// Reads a Parquet or Excel file at `path` into audits started by `make` (an audit or a table
/// reader): a Parquet file of several row groups in parts on up to `threads` threads, merged
/// in order (the report is the same whatever the number); then gives it the file's size and
/// SHA-256.
fn read_cells<R: ReadsTable>(
    path: &Path,
    make: &(dyn Fn() -> Result<R, pseudolens_core::Error> + Sync),
    format: Format,
    sheet: Option<&str>,
    threads: usize,
) -> Result<R::Part, Failure>
where
    R::Part: Send,
{
    let open = || File::open(path).map_err(io_err(path));
    let len = open()?.metadata().map_err(io_err(path))?.len();
    let mut part = match format {
        Format::Xlsx => {
            let mut audit = make()?.reading_cells(format);
            pseudolens_formats::xlsx::read(BufReader::new(open()?), sheet, &mut audit)?;
            audit.finish_part()?
        }
        _ => {
            let groups = pseudolens_formats::parquet::row_groups(&open()?)?.len();
            let parts = threads.min(groups).max(1);
            // Contiguous runs of row groups, one per thread, the first reading the header.
            let runs: Vec<Vec<usize>> = (0..parts).map(|p| (groups * p / parts..groups * (p + 1) / parts).collect()).collect();
            let read = |k: usize, run: Vec<usize>| -> Result<R::Part, Failure> {
                let audit = make()?;
                let mut audit = if k == 0 { audit.reading_cells(format) } else { audit.reading_cells_part(format) };
                pseudolens_formats::parquet::read_row_groups(open()?, (parts > 1).then_some(run), &mut audit)?;
                Ok(audit.finish_part()?)
            };
            let mut done = std::thread::scope(|s| {
                let handles: Vec<_> = runs.into_iter().enumerate().map(|(k, run)| s.spawn(move || read(k, run))).collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(Failure::Io("a reading thread stopped unexpectedly".into())))).collect::<Vec<_>>()
            })
            .into_iter();
            let mut whole = done.next().expect("one part at least")?;
            for part in done {
                whole.merge(part?)?;
            }
            whole
        }
    };
    part.table_mut().facts.bytes = len;
    part.table_mut().facts.sha256 = Some(crate::parallel::sha256(path)?);
    Ok(part)
}

/// A side table (original, reference) must be CSV.
fn side_csv(path: Option<&Path>, role: &str) -> Result<(), Failure> {
    match path.map(format_of).transpose()? {
        Some(f) if f != Format::Csv => Err(Failure::Io(format!(
            "{}: the {role} table is read as CSV only; this file is {} (save it as CSV)",
            path.unwrap_or(Path::new("")).display(),
            f.label()
        ))),
        _ => Ok(()),
    }
}

/// Runs `read` with the encoding detected; a file detected as UTF-8 that turns out not to be
/// is read again as Windows-1252 (spec README Sec 6), and the warning says so.
pub fn with_fallback<T>(path: &Path, forced: Option<Encoding>, read: impl Fn(Option<Encoding>) -> Result<T, Failure>) -> Result<(T, Option<Warning>), Failure> {
    match read(forced) {
        Err(Failure::Audit(e))
            if forced.is_none()
                && let Some(fallback) = Encoding::fallback(e.code) =>
        {
            let again = read(Some(fallback))?;
            Ok((again, Some(Warning::encoding_fallback(path.display(), &e))))
        }
        r => r.map(|t| (t, None)),
    }
}

/// The tables read beside a release: the original `O` and the reference `E`, each read once.
pub struct SideTables {
    original: Option<Arc<Captured>>,
    /// The control table `C` of the attacks.
    control: Option<Arc<Captured>>,
    reference: Option<Arc<ReferenceTable>>,
    warnings: Vec<Warning>,
    /// Threads to read a release with.
    pub threads: usize,
    /// Keep the release's table in memory and audit it from there (`--retain`).
    pub retain: bool,
    /// The sheet of a workbook to read (`--sheet`; default the first).
    pub sheet: Option<String>,
}

impl SideTables {
    /// Reads the given tables whole.
    pub fn read(config: &AuditConfig, original: Option<&Path>, reference: Option<&Path>) -> Result<Self, Failure> {
        side_csv(original, "original")?;
        side_csv(reference, "reference")?;
        let mut warnings = Vec::new();
        let reference = read_whole(reference, &mut warnings, |path, encoding| {
            let mut reference = pseudolens_core::reference(config, encoding);
            stream(path, |chunk| reference.push(chunk))?;
            Ok(reference.finish()?)
        })?;
        let original = read_whole(original, &mut warnings, |path, encoding| {
            let mut original = Original::new(config, encoding);
            stream(path, |chunk| original.push(chunk))?;
            Ok(original.finish()?)
        })?;
        Ok(SideTables { original: original.map(Arc::new), control: None, reference: reference.map(Arc::new), warnings, threads: 1, retain: false, sheet: None })
    }

    /// Reads the control table `C` of the attacks (like the original), if given.
    pub fn with_control(mut self, config: &AuditConfig, control: Option<&Path>) -> Result<Self, Failure> {
        side_csv(control, "control")?;
        let control = read_whole(control, &mut self.warnings, |path, encoding| {
            let mut control = Original::new(config, encoding);
            stream(path, |chunk| control.push(chunk))?;
            Ok(control.finish()?)
        })?;
        self.control = control.map(Arc::new);
        Ok(self)
    }

    /// Reads the release at `path` into a table kept in memory (on `threads` threads).
    pub fn read_table(&self, path: &Path, config: &AuditConfig) -> Result<Table, Failure> {
        let format = format_of(path)?;
        if format != Format::Csv {
            let make = || Ok(TableReader::new(config.table_settings()?));
            return Ok(read_cells(path, &make, format, self.sheet.as_deref(), self.threads)?.table);
        }
        let len = std::fs::metadata(path).map_err(io_err(path))?.len();
        let make = |probe: &Probe, span: Span| {
            let mut part = TableReader::part(config.table_settings()?, probe, span);
            part.expect_file_bytes(len);
            Ok(part)
        };
        if let Some(part) = read_in_parts(path, config, self.threads, &make)? {
            return Ok(part.table);
        }
        let mut reader = TableReader::new(config.table_settings()?);
        reader.expect_file_bytes(len);
        stream(path, |chunk| reader.push(chunk))?;
        Ok(reader.finish()?.table)
    }

    /// Audits a table kept in memory against these tables.
    pub fn audit_table(&self, table: &Table, config: &AuditConfig) -> Result<Report, pseudolens_core::Error> {
        audit_table_with_control(table, config, self.original.clone(), self.reference.clone(), self.control.clone())
    }

    /// Audits the release at `path` against these tables: from a table kept in memory with
    /// `--retain` (streaming when it could not be kept), else streaming.
    pub fn audit(&self, path: &Path, config: &AuditConfig) -> Result<Report, Failure> {
        if self.retain {
            let (result, w) = with_fallback(path, config.encoding, |encoding| {
                let config = AuditConfig { encoding, ..config.clone() };
                let table = self.read_table(path, &config)?;
                match self.audit_table(&table, &config) {
                    Err(e) if e.code == "not_retained" => Ok(Err(e.to_string())),
                    r => Ok(Ok(r?)),
                }
            })?;
            match result {
                Ok(mut report) => {
                    report.warnings.extend(w.into_iter().chain(self.warnings.iter().cloned()));
                    return Ok(report);
                }
                Err(why) => {
                    let mut report = self.stream(path, config)?;
                    report.read = ReadPath::streaming(format!("the table could not be kept in memory: {why}"));
                    return Ok(report);
                }
            }
        }
        let mut report = self.stream(path, config)?;
        report.read = ReadPath::streaming("the CLI streams the file unless --retain is given");
        Ok(report)
    }

    /// Audits the release at `path`, streaming.
    fn stream(&self, path: &Path, config: &AuditConfig) -> Result<Report, Failure> {
        let format = format_of(path)?;
        if format != Format::Csv {
            let make = || {
                let mut audit = Audit::new(config.clone())?;
                if let Some(o) = &self.original {
                    audit.set_original(o.clone());
                }
                if let Some(c) = &self.control {
                    audit.set_control(c.clone());
                }
                Ok(audit)
            };
            let mut part = read_cells(path, &make, format, self.sheet.as_deref(), self.threads)?;
            if let Some(e) = &self.reference {
                part.set_population(e.clone());
            }
            let mut report = part.finish();
            report.warnings.extend(self.warnings.iter().cloned());
            return Ok(report);
        }
        let (mut report, w) = with_fallback(path, config.encoding, |encoding| {
            let config = AuditConfig { encoding, ..config.clone() };
            let make = |probe: &Probe, span: Span| {
                let mut audit = Audit::part(config.clone(), probe, span)?;
                if let Some(o) = &self.original {
                    audit.set_original(o.clone());
                }
                if let Some(c) = &self.control {
                    audit.set_control(c.clone());
                }
                Ok(audit)
            };
            if let Some(mut part) = read_in_parts(path, &config, self.threads, &make)? {
                if let Some(e) = &self.reference {
                    part.set_population(e.clone());
                }
                return Ok(part.finish());
            }
            let mut audit = Audit::new(config)?;
            if let Some(o) = &self.original {
                audit.set_original(o.clone());
            }
            if let Some(c) = &self.control {
                audit.set_control(c.clone());
            }
            stream(path, |chunk| audit.push(chunk))?;
            if let Some(e) = &self.reference {
                audit.set_population(e.clone());
            }
            Ok(audit.finish()?)
        })?;
        report.warnings.extend(w.into_iter().chain(self.warnings.iter().cloned()));
        Ok(report)
    }
}

/// Reads a side table at `path`, if given, with the encoding fallback; its warning joins
/// `warnings`.
fn read_whole<T>(path: Option<&Path>, warnings: &mut Vec<Warning>, read: impl Fn(&Path, Option<Encoding>) -> Result<T, Failure>) -> Result<Option<T>, Failure> {
    let Some(path) = path else { return Ok(None) };
    let (table, w) = with_fallback(path, None, |encoding| read(path, encoding))?;
    warnings.extend(w);
    Ok(Some(table))
}
