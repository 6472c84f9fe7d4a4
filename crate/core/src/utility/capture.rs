//! The utility attributes of the original `O` and the release `P` read as numbers, kept per
//! row: the permutation model (spec utility.md Sec 11) ranks whole columns, so unlike the risk
//! metrics it needs every value. Cells are kept as intervals (`EXACT x` is `[x, x]`); the
//! representative value is fixed at the end, when `O`'s domain is known (utility.md Sec 1).

use crate::audit::AuditConfig;
use crate::error::{Error, Result};
use crate::ingest::cell::{Cell, Form, Normaliser};
use crate::ingest::records::{Collect, CsvOptions, Feed, InputFacts, Row, RowSink};

/// The captured columns of one table.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    /// Column names, in the table's order.
    pub names: Vec<String>,
    /// Per column, per row: the cell's interval, `(NaN, NaN)` for a blank or non-numeric cell.
    pub cells: Vec<Vec<(f64, f64)>>,
    /// Per column: whether some cell was text (the column is not numeric).
    pub text: Vec<bool>,
    /// Per row: the record id, when a record-id column was given.
    pub ids: Option<Vec<Option<String>>>,
    columns: Vec<usize>,
    id_column: Option<usize>,
}

impl Captured {
    /// Captures `wanted` (all columns but the record id when empty) of a table with header
    /// `header`; `record_id` pairs rows (spec README Sec 8).
    pub fn new(header: &[String], wanted: &[String], record_id: Option<&str>) -> Result<Self> {
        let id_column = match record_id {
            Some(id) => Some(header.iter().position(|h| h == id).ok_or_else(|| {
                Error::config("unknown_column", format!("there is no record-id column \"{id}\"")).in_column(id)
            })?),
            None => None,
        };
        let columns: Vec<usize> = (0..header.len())
            .filter(|&i| Some(i) != id_column && (wanted.is_empty() || wanted.contains(&header[i])))
            .collect();
        Ok(Captured {
            names: columns.iter().map(|&i| header[i].clone()).collect(),
            cells: vec![Vec::new(); columns.len()],
            text: vec![false; columns.len()],
            ids: id_column.map(|_| Vec::new()),
            columns,
            id_column,
        })
    }

    /// Absorbs one row.
    pub fn absorb(&mut self, row: &Row<'_>, norm: &Normaliser) -> Result<()> {
        for (c, &i) in self.columns.iter().enumerate() {
            let text = row.text(i)?;
            let cell = match norm.normalise(&text) {
                Cell::Text(t) => match Form::of(t, norm) {
                    Form::Number(v) => (v, v),
                    Form::NumericRange(lo, hi) | Form::DigitMask(lo, hi) => (lo, hi),
                    Form::Date(d) => (d as f64, d as f64),
                    Form::DateRange(a, b) => (a as f64, b as f64),
                    Form::Mask | Form::Text => {
                        self.text[c] = true;
                        (f64::NAN, f64::NAN)
                    }
                },
                _ => (f64::NAN, f64::NAN),
            };
            self.cells[c].push(cell);
        }
        if let (Some(ids), Some(i)) = (&mut self.ids, self.id_column) {
            let text = row.text(i)?;
            ids.push(match norm.normalise(&text) {
                Cell::Text(t) => Some(t.to_string()),
                _ => None,
            });
        }
        Ok(())
    }

    /// Appends the rows of another part of the same table, after this part's.
    pub fn append(&mut self, other: Captured) {
        for (mine, theirs) in self.cells.iter_mut().zip(other.cells) {
            mine.extend(theirs);
        }
        for (mine, theirs) in self.text.iter_mut().zip(other.text) {
            *mine |= theirs;
        }
        if let (Some(mine), Some(theirs)) = (&mut self.ids, other.ids) {
            mine.extend(theirs);
        }
    }

    /// Rows captured.
    pub fn rows(&self) -> usize {
        self.cells.first().map_or_else(|| self.ids.as_ref().map_or(0, Vec::len), Vec::len)
    }

    /// The column named `name`, if captured.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}

/// Captures the columns of `O` row by row.
pub struct Sink {
    wanted: Vec<String>,
    record_id: Option<String>,
    norm: Normaliser,
    captured: Option<Captured>,
}

impl RowSink for Sink {
    fn header(&mut self, names: &[String]) -> Result<()> {
        self.captured = Some(Captured::new(names, &self.wanted, self.record_id.as_deref())?);
        Ok(())
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.captured.as_mut().expect("header comes first").absorb(row, &self.norm)
    }
}

impl Collect for Sink {
    type Output = Captured;

    fn collect(mut self, _: &InputFacts) -> Result<Captured> {
        Ok(self.captured.take().expect("a finished file has a header"))
    }
}

/// A streaming read of the original table `O`.
pub type Original = Feed<Sink>;

impl Original {
    /// Starts reading `O` with the audit's settings; `encoding` forces one.
    pub fn new(config: &AuditConfig, encoding: Option<crate::ingest::encoding::Encoding>) -> Self {
        let opts = CsvOptions { delimiter: None, encoding, ragged: config.ragged };
        let sink = Sink { wanted: config.utility_columns.clone(), record_id: config.record_id.clone(), norm: config.normaliser(), captured: None };
        Feed::with_sink(opts, sink)
    }
}
