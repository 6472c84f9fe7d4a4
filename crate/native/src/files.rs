//! The files of an audit: the side tables read once (CSV only, each with the encoding
//! fallback) into the core's [`Sides`], then each release read into a table kept in memory
//! or audited streaming against them, on several threads.

use std::path::Path;

use pseudolens_core::{
    Audit, AuditConfig, Error, Format, Probe, ReadSettings, ReadsTable, Report, SideReader, SideRole, Sides, Span, Table, TableReader, Warning,
};

use crate::cells::read_cells;
use crate::file::{Failure, ReadProgress, format_of, io_err, stream, with_fallback};
use crate::parallel::read_in_parts;

/// The files of the side tables of an audit, each optional.
#[derive(Debug, Default, Clone, Copy)]
pub struct SidePaths<'a> {
    /// The original `O`.
    pub original: Option<&'a Path>,
    /// The reference (population) table `E`.
    pub reference: Option<&'a Path>,
    /// The control table `C` of the attacks.
    pub control: Option<&'a Path>,
}

/// The side tables of an audit, read once, and how each release is read against them.
pub struct Files {
    /// The side tables.
    pub sides: Sides,
    /// The warnings of reading the side tables (an encoding fallback), for every report.
    pub warnings: Vec<Warning>,
    /// Threads to read a release with.
    pub threads: usize,
    /// The sheet of a workbook to read (default: the first).
    pub sheet: Option<String>,
    /// Where the bytes read are counted.
    pub progress: &'static dyn ReadProgress,
}

impl Files {
    /// Reads the side tables at `paths` with the audit's settings: each must be CSV (checked
    /// for all before any is read); each detects its own encoding, with the fallback. A
    /// release is then read on `threads` threads, from `sheet` of a workbook (else its first).
    pub fn read(
        config: &AuditConfig,
        paths: SidePaths<'_>,
        threads: usize,
        sheet: Option<String>,
        progress: &'static dyn ReadProgress,
    ) -> Result<Files, Failure> {
        // The order of the warnings: E, O, C.
        let paths = [(SideRole::Reference, paths.reference), (SideRole::Original, paths.original), (SideRole::Control, paths.control)];
        let paths: Vec<(SideRole, &Path)> = paths.into_iter().filter_map(|(role, path)| Some((role, path?))).collect();
        for &(role, path) in &paths {
            role.check_format(&path.display().to_string(), format_of(path)?)?;
        }
        let mut files = Files { sides: Sides::default(), warnings: Vec::new(), threads: threads.max(1), sheet, progress };
        for (role, path) in paths {
            let (reader, warning) = with_fallback(path, None, |encoding| {
                let mut reader = SideReader::new(role, config, encoding);
                stream(path, progress, |chunk| reader.push(chunk))?;
                Ok(reader)
            })?;
            reader.finish(&mut files.sides)?;
            files.warnings.extend(warning);
        }
        Ok(files)
    }

    /// Adds to `report` the warnings of reading: the release's (`release`), then the side
    /// tables'.
    pub fn add_warnings(&self, report: &mut Report, release: impl IntoIterator<Item = Warning>) {
        report.warnings.extend(release.into_iter().chain(self.warnings.iter().cloned()));
    }

    /// Reads the release at `path` into a table kept in memory, with the encoding fallback
    /// (its warning, if any): in parts on [`Files::threads`] threads when it is large enough.
    pub fn read_table(&self, path: &Path, config: &AuditConfig) -> Result<(Table, Option<Warning>), Failure> {
        self.read_kept(path, config, false)
    }

    /// Reads the columns `config`'s roles need (QIs, sensitive columns) into a table kept in
    /// memory, the others left unread (a Parquet or Excel file is read whole), without the
    /// file's SHA-256: the table of protect's search, whose release reads the file again.
    pub fn read_needed(&self, path: &Path, config: &AuditConfig) -> Result<(Table, Option<Warning>), Failure> {
        self.read_kept(path, config, true)
    }

    fn read_kept(&self, path: &Path, config: &AuditConfig, needed_only: bool) -> Result<(Table, Option<Warning>), Failure> {
        let len = std::fs::metadata(path).map_err(io_err(path))?.len();
        let (part, warning) = self.read_release(path, config, !needed_only, |config, start| {
            // Cells (Parquet, Excel) are read whole: their release is written from the table.
            let settings = ReadSettings { needed_only: needed_only && !matches!(start, Start::Cells), ..config.table_settings()? };
            let mut reader = match start {
                Start::Cells => return Ok(TableReader::new(settings)),
                Start::Whole => TableReader::new(settings),
                Start::Part(probe, span) => TableReader::part(settings, probe, span),
            };
            reader.expect_file_bytes(len);
            Ok(reader)
        })?;
        Ok((part.table, warning))
    }

    /// Audits the release at `path` against the side tables, streaming (in parts on
    /// [`Files::threads`] threads when it is large enough), with the encoding fallback; the
    /// report has the warnings of reading ([`Files::add_warnings`]).
    pub fn stream(&self, path: &Path, config: &AuditConfig) -> Result<Report, Failure> {
        let (part, warning) = self.read_release(path, config, true, |config, start| {
            let mut audit = match start {
                Start::Cells | Start::Whole => Audit::new(config.clone())?,
                Start::Part(probe, span) => Audit::part(config.clone(), probe, span)?,
            };
            audit.set_sides(&self.sides);
            Ok(audit)
        })?;
        let mut report = part.finish();
        self.add_warnings(&mut report, warning);
        Ok(report)
    }

    /// Reads the release at `path` into readers that `start` makes with the settings to read
    /// with: a Parquet or Excel file by [`read_cells`]; a CSV file with the encoding fallback
    /// (its warning, if any), in parts on [`Files::threads`] threads when it is large enough,
    /// else on one.
    fn read_release<R: ReadsTable>(
        &self,
        path: &Path,
        config: &AuditConfig,
        hash: bool,
        start: impl Fn(&AuditConfig, Start<'_>) -> Result<R, Error> + Sync,
    ) -> Result<(R::Part, Option<Warning>), Failure>
    where
        R::Part: Send,
    {
        let format = format_of(path)?;
        if format != Format::Csv {
            let make = || start(config, Start::Cells);
            return Ok((read_cells(path, &make, format, self.sheet.as_deref(), self.threads)?, None));
        }
        with_fallback(path, config.encoding, |encoding| {
            let config = AuditConfig { encoding, ..config.clone() };
            let make = |probe: &Probe, span: Span| start(&config, Start::Part(probe, span));
            if let Some(part) = read_in_parts(path, &config, self.threads, hash, self.progress, &make)? {
                return Ok(part);
            }
            let mut reader = start(&config, Start::Whole)?;
            stream(path, self.progress, |chunk| reader.reader().push(chunk))?;
            Ok(reader.finish_part()?)
        })
    }
}

/// How a reader of a release starts: on the cells of a Parquet or Excel file, on the whole of
/// a CSV file, or on a part of it.
enum Start<'a> {
    Cells,
    Whole,
    Part(&'a Probe, Span),
}
