//! `pseudolens._native`: the thin PyO3 binding of pseudolens-core behind the Python package
//! `pseudolens` (python/). Settings arrive as the JSON object of the settings file (the keys of
//! [`AuditConfig`], parsed here exactly as `--settings FILE` parses them) and reports leave as
//! the CLI's `--json` text; everything else is the core's. The Python side (python/pseudolens)
//! turns keyword arguments into that object and the text into a dict.

use std::fs::File;
use std::io::{BufReader, Read};
use std::sync::Arc;

use arrow_array::RecordBatchReader;
use arrow_array::ffi_stream::{FFI_ArrowArrayStream, RecordBatchStreamReader};
use pseudolens_core::{
    Audit, AuditConfig, Captured, ClassPart, ContentHash, Encoding, Error, Format, Original, Part, ReadPath, ReadsTable, ReferenceTable, Report, TableReader,
    Warning, audit_table_with_control,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule};

create_exception!(_native, PseudolensError, PyValueError, "An audit failed: args are (message, code, line, column), as the CLI's `error [code]: message`.");

/// Size of the chunks a file is pushed in (the CLI's).
const CHUNK: usize = 1 << 20;

/// A core error as the Python exception: its sentence (with line and column), code, line and
/// column.
fn py_err(e: Error) -> PyErr {
    PseudolensError::new_err((e.to_string(), e.code, e.line, e.column))
}

/// The settings: a JSON object with the keys of the settings file (`--settings FILE`); a key it
/// does not know is an error.
fn config(json: &str) -> PyResult<AuditConfig> {
    serde_json::from_str(json).map_err(|e| PseudolensError::new_err((format!("not a setting: {e}"), "invalid_settings", None::<u64>, None::<String>)))
}

/// Why a read failed: the file, or the audit.
enum Failure {
    Io(std::io::Error),
    Audit(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Audit(e)
    }
}

impl Failure {
    fn into_py(self, path: &str) -> PyErr {
        match self {
            Failure::Io(e) => PyOSError::new_err(format!("{path}: {e}")),
            Failure::Audit(e) => py_err(e),
        }
    }
}

/// Streams the file at `path` in chunks into `push`.
fn stream(path: &str, mut push: impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Failure> {
    let mut file = File::open(path).map_err(Failure::Io)?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).map_err(Failure::Io)?;
        if n == 0 {
            return Ok(());
        }
        push(&buf[..n])?;
    }
}

/// Reads the file at `path` with `read`, again as Windows-1252 when it was detected as UTF-8
/// but is not ([`Encoding::fallback`], spec README Sec 6), with the CLI's warning.
fn with_fallback<T>(path: &str, config: &AuditConfig, read: impl Fn(&AuditConfig) -> Result<T, Failure>) -> PyResult<(T, Option<Warning>)> {
    match read(config) {
        Err(Failure::Audit(e))
            if config.encoding.is_none()
                && let Some(fallback) = Encoding::fallback(e.code) =>
        {
            let again = read(&AuditConfig { encoding: Some(fallback), ..config.clone() }).map_err(|f| f.into_py(path))?;
            Ok((again, Some(Warning::encoding_fallback(path, &e))))
        }
        r => r.map(|t| (t, None)).map_err(|f| f.into_py(path)),
    }
}

/// The SHA-256 of the file at `path`, lower-case hex (the report's `input.sha256`).
fn sha256(path: &str) -> Result<String, Failure> {
    let mut hash = ContentHash::default();
    stream(path, |chunk| {
        hash.update(chunk);
        Ok(())
    })?;
    Ok(hash.hex())
}

/// The format of the file at `path`, from its first bytes and its name (as the CLI decides).
fn format_of(path: &str) -> Result<Format, Failure> {
    let mut start = Vec::with_capacity(8);
    File::open(path).and_then(|f| f.take(8).read_to_end(&mut start)).map_err(Failure::Io)?;
    Ok(pseudolens_formats::detect::format_of(&start, path)?)
}

/// Reads the Parquet or Excel file at `path` into `audit` (an audit or a table reader) with
/// pseudolens-formats, then gives it the file's size and SHA-256.
fn read_cells<R: ReadsTable>(path: &str, audit: R, format: Format, sheet: Option<&str>) -> Result<R, Failure> {
    let mut audit = audit.reading_cells(format);
    let file = File::open(path).map_err(Failure::Io)?;
    let bytes = file.metadata().map_err(Failure::Io)?.len();
    match format {
        Format::Xlsx => {
            pseudolens_formats::xlsx::read(BufReader::new(file), sheet, &mut audit)?;
        }
        _ => {
            pseudolens_formats::parquet::read(file, &mut audit)?;
        }
    }
    audit.reader().set_file(bytes, Some(sha256(path)?));
    Ok(audit)
}

/// The rows of the file at `path` (CSV, Parquet or Excel) read into a table.
fn file_part(path: &str, config: &AuditConfig, sheet: Option<&str>) -> PyResult<(Part, Option<Warning>)> {
    let part = |reader: TableReader| -> Result<Part, Failure> { Ok(reader.finish()?) };
    let format = format_of(path).map_err(|f| f.into_py(path))?;
    if format != Format::Csv {
        let table = TableReader::new(config.table_settings().map_err(py_err)?);
        let read = read_cells(path, table, format, sheet).and_then(part);
        return read.map(|p| (p, None)).map_err(|f| f.into_py(path));
    }
    with_fallback(path, config, |config| {
        let mut reader = TableReader::new(config.table_settings()?);
        if let Ok(meta) = std::fs::metadata(path) {
            reader.expect_file_bytes(meta.len());
        }
        stream(path, |chunk| reader.push(chunk))?;
        part(reader)
    })
}

/// The Arrow C stream of a PyCapsule named `arrow_array_stream` (the stream is consumed).
fn ffi_stream(stream: &Bound<'_, PyCapsule>) -> PyResult<FFI_ArrowArrayStream> {
    let name = stream.name()?.map(|n| n.to_bytes().to_vec());
    if name.as_deref() != Some(b"arrow_array_stream".as_slice()) {
        return Err(PyTypeError::new_err("expected the PyCapsule \"arrow_array_stream\" of __arrow_c_stream__()"));
    }
    // SAFETY: the capsule named arrow_array_stream holds an FFI_ArrowArrayStream (the Arrow
    // PyCapsule interface); from_raw moves it out and leaves a released stream behind, as
    // the interface asks of a consumer.
    Ok(unsafe { FFI_ArrowArrayStream::from_raw(stream.pointer() as *mut FFI_ArrowArrayStream) })
}

/// An Arrow error of a data frame's stream.
fn arrow_error(e: impl std::fmt::Display) -> Error {
    Error::input("unreadable_arrow", format!("the data frame's Arrow stream could not be read: {e}"))
}

/// The rows of an Arrow C stream (a data frame), read into a table by pseudolens-formats: the
/// typed-cell rule, each row at the line it would have in CSV.
fn arrow_part(stream: FFI_ArrowArrayStream, config: &AuditConfig) -> Result<Part, Error> {
    let reader = RecordBatchStreamReader::try_new(stream).map_err(arrow_error)?;
    let schema = reader.schema();
    let mut table = TableReader::new(config.table_settings()?).reading_cells(Format::Arrow);
    pseudolens_formats::arrow::feed(&schema, 2, reader.map(|b| b.map_err(arrow_error)), &mut table)?;
    table.finish()
}

/// The tables read beside a release, as the CLI's `--original` and `--reference` read them
/// (CSV files, each with its own dialect and the encoding fallback).
#[derive(Default)]
struct Sides {
    original: Option<Arc<Captured>>,
    /// The attacks' control table, read like the original (peer-measures.md Sec 5.1).
    control: Option<Arc<Captured>>,
    reference: Option<Arc<ReferenceTable>>,
    warnings: Vec<Warning>,
}

impl Sides {
    fn read(config: &AuditConfig, original: Option<&str>, reference: Option<&str>, control: Option<&str>) -> PyResult<Sides> {
        for (path, role) in [(original, "original"), (reference, "reference"), (control, "control")] {
            let Some(path) = path else { continue };
            let format = format_of(path).map_err(|f| f.into_py(path))?;
            if format != Format::Csv {
                let why = format!("{path}: the {role} table is read as CSV only; this file is {} (save it as CSV)", format.label());
                return Err(PseudolensError::new_err((why, "side_table_not_csv", None::<u64>, None::<String>)));
            }
        }
        let mut sides = Sides::default();
        if let Some(path) = reference {
            let (e, w) = with_fallback(path, config, |c| {
                let mut e = pseudolens_core::reference(c, c.encoding);
                stream(path, |chunk| e.push(chunk))?;
                Ok(e.finish()?)
            })?;
            sides.reference = Some(Arc::new(e));
            sides.warnings.extend(w);
        }
        // The original and the control table are read alike (the utility attributes).
        let captured = |path: &str| {
            with_fallback(path, config, |c| {
                let mut o = Original::new(c, c.encoding);
                stream(path, |chunk| o.push(chunk))?;
                Ok(o.finish()?)
            })
        };
        for (path, slot) in [(original, &mut sides.original), (control, &mut sides.control)] {
            let Some(path) = path else { continue };
            let (o, w) = captured(path)?;
            *slot = Some(Arc::new(o));
            sides.warnings.extend(w);
        }
        Ok(sides)
    }
}

/// The report as the CLI's `--json` prints it.
fn report_json(report: &Report) -> PyResult<String> {
    serde_json::to_string(report).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `audit_file(path, settings_json, original=None, reference=None, sheet=None, control=None) ->
/// report_json`: streams the file at `path` (CSV, Parquet or Excel: by its first bytes and
/// name) through an audit, the CLI's default read, against the original and reference CSV
/// files when given, without holding the GIL.
#[pyfunction]
#[pyo3(signature = (path, settings, original=None, reference=None, sheet=None, control=None))]
fn audit_file(
    py: Python<'_>,
    path: &str,
    settings: &str,
    original: Option<&str>,
    reference: Option<&str>,
    sheet: Option<&str>,
    control: Option<&str>,
) -> PyResult<String> {
    let config = config(settings)?;
    let (mut report, warning, sides) = py.allow_threads(|| {
        let sides = Sides::read(&config, original, reference, control)?;
        let format = format_of(path).map_err(|f| f.into_py(path))?;
        let read = |config: &AuditConfig| -> Result<Report, Failure> {
            let mut audit = Audit::new(config.clone())?;
            if let Some(o) = &sides.original {
                audit.set_original(o.clone());
            }
            if let Some(c) = &sides.control {
                audit.set_control(c.clone());
            }
            if format == Format::Csv {
                stream(path, |chunk| audit.push(chunk))?;
            } else {
                audit = read_cells(path, audit, format, sheet)?;
            }
            if let Some(e) = &sides.reference {
                audit.set_population(e.clone());
            }
            Ok(audit.finish()?)
        };
        let (report, warning) = if format == Format::Csv { with_fallback(path, &config, read)? } else { (read(&config).map_err(|f| f.into_py(path))?, None) };
        PyResult::Ok((report, warning, sides))
    })?;
    report.warnings.extend(warning.into_iter().chain(sides.warnings));
    report.read = ReadPath::streaming("the Python package streams a file");
    report_json(&report)
}

/// A partial table: rows read from one or more sources, kept as the core's table (a code per
/// cell), mergeable with other partial tables and shipped as bytes (the core's wire format,
/// [`Part::to_bytes`]). The settings given when it is made choose the columns whose every value
/// is kept (QIs, sensitive attributes, weight, person id); an audit may use other settings
/// over those columns.
#[pyclass(module = "pseudolens._native")]
pub struct PartialTable {
    config: AuditConfig,
    part: Option<Part>,
    warnings: Vec<Warning>,
}

impl PartialTable {
    /// Appends `part`'s rows after this table's.
    fn append(&mut self, part: Part) -> PyResult<()> {
        match &mut self.part {
            None => self.part = Some(part),
            Some(mine) => mine.merge(part).map_err(py_err)?,
        }
        Ok(())
    }
}

#[pymethods]
impl PartialTable {
    /// An empty partial table with these settings (the settings file's JSON object).
    #[new]
    fn new(settings: &str) -> PyResult<Self> {
        let config = config(settings)?;
        config.csv_options().map_err(py_err)?;
        Ok(PartialTable { config, part: None, warnings: Vec::new() })
    }

    /// Reads the file at `path` (CSV, Parquet or Excel: by its first bytes and name; the
    /// workbook's `sheet`, else its first) and appends its rows.
    #[pyo3(signature = (path, sheet=None))]
    fn absorb_file(&mut self, py: Python<'_>, path: &str, sheet: Option<&str>) -> PyResult<()> {
        let config = &self.config;
        let (part, warning) = py.allow_threads(|| file_part(path, config, sheet))?;
        self.warnings.extend(warning);
        self.append(part)
    }

    /// Reads an Arrow C stream (the PyCapsule `obj.__arrow_c_stream__()` returns: pandas,
    /// polars, pyarrow, DuckDB) and appends its rows. The stream is consumed.
    fn absorb_arrow(&mut self, py: Python<'_>, stream: &Bound<'_, PyCapsule>) -> PyResult<()> {
        let ffi = ffi_stream(stream)?;
        let config = &self.config;
        let part = py.allow_threads(|| arrow_part(ffi, config)).map_err(py_err)?;
        self.append(part)
    }

    /// Appends the rows of `other` (which is left empty).
    fn merge(&mut self, other: &mut PartialTable) -> PyResult<()> {
        self.warnings.append(&mut other.warnings);
        match other.part.take() {
            Some(p) => self.append(p),
            None => Ok(()),
        }
    }

    /// The rows held.
    #[getter]
    fn rows(&self) -> u64 {
        self.part.as_ref().map_or(0, |p| p.table.facts.rows_total)
    }

    /// The column names (empty before the first source).
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.part.as_ref().map_or_else(Vec::new, |p| p.table.header.clone())
    }

    /// The binary form (the core's wire format of partial tables).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let part = self.part.as_ref().ok_or_else(|| PyValueError::new_err("the partial table holds no source yet"))?;
        let bytes = py.allow_threads(|| part.to_bytes());
        Ok(PyBytes::new(py, &bytes))
    }

    /// A partial table from its binary form, with these settings.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8], settings: &str) -> PyResult<Self> {
        let mut t = PartialTable::new(settings)?;
        let part = py.allow_threads(|| Part::from_bytes(data)).map_err(py_err)?;
        t.part = Some(part);
        Ok(t)
    }

    /// Audits the rows held with these settings (the table's own when `None`), against the
    /// original and reference CSV files when given: the report's JSON text.
    #[pyo3(signature = (settings=None, original=None, reference=None, control=None))]
    fn audit(&self, py: Python<'_>, settings: Option<&str>, original: Option<&str>, reference: Option<&str>, control: Option<&str>) -> PyResult<String> {
        let config = match settings {
            Some(s) => config(s)?,
            None => self.config.clone(),
        };
        let part = self.part.as_ref().ok_or_else(|| PyValueError::new_err("the partial table holds no source yet"))?;
        let (mut report, sides) = py.allow_threads(|| {
            let sides = Sides::read(&config, original, reference, control)?;
            let report =
                audit_table_with_control(&part.table, &config, sides.original.clone(), sides.reference.clone(), sides.control.clone()).map_err(py_err)?;
            PyResult::Ok((report, sides))
        })?;
        report.warnings.extend(self.warnings.iter().cloned().chain(sides.warnings));
        report_json(&report)
    }

    /// The class-partitioned part of the rows held (their classes must be disjoint from every
    /// other part's: rows split by [`class_hashes`]): the profile without codes and the class
    /// statistics, in the binary form of [`ClassPart`].
    fn class_part<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let part = self.part.as_ref().ok_or_else(|| PyValueError::new_err("the partial table holds no source yet"))?;
        let config = &self.config;
        let bytes = py.allow_threads(|| ClassPart::of(part.table.clone(), config).map(|p| p.to_bytes())).map_err(py_err)?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// `class_hashes(settings_json, stream) -> bytes`: the class hash of each row of an Arrow C
/// stream (8 little-endian bytes a row): rows of one equivalence class under these settings
/// (their QIs, missing tokens) hash alike, so a table split by it has disjoint classes.
#[pyfunction]
fn class_hashes<'py>(py: Python<'py>, settings: &str, stream: &Bound<'py, PyCapsule>) -> PyResult<Bound<'py, PyBytes>> {
    let config = config(settings)?;
    let ffi = ffi_stream(stream)?;
    let bytes = py
        .allow_threads(|| -> Result<Vec<u8>, Error> {
            let reader = RecordBatchStreamReader::try_new(ffi).map_err(arrow_error)?;
            let hasher = ClassPart::hasher(&pseudolens_formats::arrow::header(&reader.schema()), &config)?;
            let mut out = Vec::new();
            for batch in reader {
                for h in pseudolens_formats::arrow::class_hashes(&batch.map_err(arrow_error)?, &hasher)? {
                    out.extend_from_slice(&h.to_le_bytes());
                }
            }
            Ok(out)
        })
        .map_err(py_err)?;
    Ok(PyBytes::new(py, &bytes))
}

/// A class-partitioned part of a table ([`ClassPart`]): merged with the other parts, audited.
#[pyclass(module = "pseudolens._native")]
pub struct ClassPartial {
    config: AuditConfig,
    part: ClassPart,
}

#[pymethods]
impl ClassPartial {
    /// A part from its binary form ([`PartialTable::class_part`]), with these settings.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8], settings: &str) -> PyResult<Self> {
        let config = config(settings)?;
        let part = py.allow_threads(|| ClassPart::from_bytes(data)).map_err(py_err)?;
        Ok(ClassPartial { config, part })
    }

    /// Adds another part (its classes disjoint from this one's).
    fn merge(&mut self, py: Python<'_>, other: &ClassPartial) -> PyResult<()> {
        let (part, other) = (&mut self.part, other.part.clone());
        py.allow_threads(|| part.merge(other)).map_err(py_err)
    }

    /// The binary form.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.part.to_bytes())
    }

    /// The rows held.
    #[getter]
    fn rows(&self) -> u64 {
        self.part.profile.facts.rows_total
    }

    /// The report of the parts merged so far: the report's JSON text.
    fn audit(&self, py: Python<'_>) -> PyResult<String> {
        let report = py.allow_threads(|| self.part.audit(&self.config)).map_err(py_err)?;
        report_json(&report)
    }
}

/// The module `pseudolens._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PseudolensError", m.py().get_type::<PseudolensError>())?;
    m.add_function(wrap_pyfunction!(audit_file, m)?)?;
    m.add_class::<PartialTable>()?;
    m.add_class::<ClassPartial>()?;
    m.add_function(wrap_pyfunction!(class_hashes, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
