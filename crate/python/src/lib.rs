//! `pseudolens._native`: the thin PyO3 binding of pseudolens-core behind the Python package
//! `pseudolens` (python/). Settings arrive as the JSON object of the settings file (the keys of
//! [`AuditConfig`], parsed here exactly as `--settings FILE` parses them) and reports leave as
//! the CLI's `--json` text; everything else is the core's. The Python side (python/pseudolens)
//! turns keyword arguments into that object and the text into a dict.

use std::path::Path;

use arrow_array::RecordBatchReader;
use arrow_array::ffi_stream::{FFI_ArrowArrayStream, RecordBatchStreamReader};
use pseudolens_core::{AuditConfig, ClassPart, Error, Format, Part, ProtectParams, Protector, ReadPath, Report, Table, TableReader, Warning};
use pseudolens_native::{Failure, Files, SidePaths};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule};

create_exception!(_native, PseudolensError, PyValueError, "An audit failed: args are (message, code, line, column), as the CLI's `error [code]: message`.");

/// A core error as the Python exception: its sentence (with line and column), code, line and
/// column.
fn py_err(e: Error) -> PyErr {
    PseudolensError::new_err((e.to_string(), e.code, e.line, e.column))
}

/// A failed read as the Python exception: `OSError` for the file, else the core's error.
fn failed(f: Failure) -> PyErr {
    match f {
        Failure::Io(why) => PyOSError::new_err(why),
        Failure::Audit(e) => py_err(e),
    }
}

/// The settings: a JSON object with the keys of the settings file (`--settings FILE`); a key it
/// does not know is an error.
fn config(json: &str) -> PyResult<AuditConfig> {
    serde_json::from_str(json).map_err(|e| PseudolensError::new_err((format!("not a setting: {e}"), "invalid_settings", None::<u64>, None::<String>)))
}

/// The side tables at these paths (CSV files, each with its own dialect and the encoding
/// fallback, as the CLI reads them), for releases read on every thread of the core
/// (`pseudolens_core::par::threads`) from the workbook's `sheet`, else its first.
fn files(config: &AuditConfig, original: Option<&str>, reference: Option<&str>, control: Option<&str>, sheet: Option<&str>) -> Result<Files, Failure> {
    let paths = SidePaths { original: original.map(Path::new), reference: reference.map(Path::new), control: control.map(Path::new) };
    Files::read(config, paths, pseudolens_core::par::threads(), sheet.map(str::to_string), &())
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

/// The report as the CLI's `--json` prints it.
fn report_json(report: &Report) -> PyResult<String> {
    serde_json::to_string(report).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `audit_file(path, settings_json, original=None, reference=None, sheet=None, control=None) ->
/// report_json`: streams the file at `path` (CSV, Parquet or Excel: by its first bytes and
/// name) through an audit on every core, the CLI's default read, against the original and
/// reference CSV files when given, without holding the GIL.
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
    let mut report = py.allow_threads(|| files(&config, original, reference, control, sheet)?.stream(Path::new(path), &config)).map_err(failed)?;
    report.read = ReadPath::streaming("the Python package streams a file");
    report_json(&report)
}

/// The release of [`protect`]: its CSV bytes and delimiter, or `None` with no node to apply.
type ProtectRelease<'py> = Option<(Bound<'py, PyBytes>, String)>;

/// The release of [`search_and_release`]: its CSV bytes and delimiter, or `None`.
type ReleaseCsv = Option<(Vec<u8>, String)>;

/// `protect(source, params_json, sheet=None) -> ((release_csv, delimiter) | None,
/// result_json)`: the lattice search of protect.md over `source` (a file path, read as the
/// CLI's `pseudolens protect` reads it, or an Arrow C stream PyCapsule, consumed) with the
/// settings of the protect family (`params_json`: the JSON object of [`ProtectParams`]; a key
/// it does not know is an error), without holding the GIL. Returns the release of `node` when
/// given, else of the best node, as CSV bytes with the delimiter they use (`None` when no node
/// is feasible and none is given), and the metric `protect` (Sec 6) as JSON text.
#[pyfunction]
#[pyo3(signature = (source, params, sheet=None))]
fn protect<'py>(py: Python<'py>, source: &Bound<'py, PyAny>, params: &str, sheet: Option<&str>) -> PyResult<(ProtectRelease<'py>, String)> {
    let params: ProtectParams = serde_json::from_str(params)
        .map_err(|e| PseudolensError::new_err((format!("not a setting of protect: {e}"), "invalid_settings", None::<u64>, None::<String>)))?;
    // The table is read as the CLI's protect reads it: the QIs and sensitive columns keep every
    // value, under the same missing-value policy.
    let config = AuditConfig {
        quasi_identifiers: params.quasi_identifiers.clone(),
        sensitive: params.sensitive.clone(),
        missing_policy: params.missing_policy,
        ..AuditConfig::default()
    };
    let table = match source.downcast::<PyCapsule>() {
        Ok(stream) => {
            let ffi = ffi_stream(stream)?;
            py.allow_threads(|| arrow_part(ffi, &config)).map_err(py_err)?.table
        }
        Err(_) => {
            let path: String = source.extract().map_err(|_| PyTypeError::new_err("expected a path or the PyCapsule of __arrow_c_stream__()"))?;
            py.allow_threads(|| files(&config, None, None, None, sheet)?.read_table(Path::new(&path), &config)).map_err(failed)?.0
        }
    };
    let (release, result) = py.allow_threads(|| search_and_release(&table, &config, &params)).map_err(py_err)?;
    let json = serde_json::to_string(&result).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((release.map(|(csv, delimiter)| (PyBytes::new(py, &csv), delimiter)), json))
}

/// The search over `table`, its result, and the release of `params.node` (else of the best
/// node, when one is feasible) as CSV bytes with their delimiter.
fn search_and_release(table: &Table, config: &AuditConfig, params: &ProtectParams) -> Result<(ReleaseCsv, pseudolens_core::metric::MetricResult), Error> {
    let protector = Protector::new(table, &config.normaliser(), params)?;
    let search = protector.search()?;
    let levels = match &params.node {
        Some(node) => Some(protector.node(node)?),
        None => search.best.map(|b| search.lattice.levels(b)),
    };
    let release = match levels {
        Some(levels) => {
            let release = protector.release(table, &levels)?;
            Some((release.to_bytes(), release.delimiter().to_string()))
        }
        None => None,
    };
    Ok((release, protector.result(&search)))
}

/// A partial table: rows read from one or more sources, kept as the core's table (a code per
/// cell), mergeable with other partial tables and shipped as bytes (the core's wire format,
/// [`Part::to_bytes`]). The settings given when it is made choose the columns whose every value
/// is kept (QIs, sensitive attributes, weight, person id, household id); an audit may use other settings
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
    /// workbook's `sheet`, else its first) on every core and appends its rows.
    #[pyo3(signature = (path, sheet=None))]
    fn absorb_file(&mut self, py: Python<'_>, path: &str, sheet: Option<&str>) -> PyResult<()> {
        let config = &self.config;
        let (table, warning) = py.allow_threads(|| files(config, None, None, None, sheet)?.read_table(Path::new(path), config)).map_err(failed)?;
        self.warnings.extend(warning);
        // A whole file: no bounds, so tables of several files append.
        self.append(Part { table, bounds: None })
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

    /// Forgets the codes of the columns the roles of its settings do not need: their values
    /// and counts stay (so their profiles do), the bytes shrink, and only an audit with roles
    /// over the needed columns can follow (`not_retained` otherwise).
    fn keep_needed_codes(&mut self) {
        if let Some(part) = &mut self.part {
            part.table.keep_codes_of(&self.config.needed_columns());
        }
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
        let report = py.allow_threads(|| {
            let files = files(&config, original, reference, control, None)?;
            let mut report = pseudolens_core::audit_table(&part.table, &config, &files.sides)?;
            files.add_warnings(&mut report, self.warnings.iter().cloned());
            Ok(report)
        });
        report_json(&report.map_err(failed)?)
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
    m.add_function(wrap_pyfunction!(protect, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
