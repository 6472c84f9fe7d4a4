//! Tables that arrive as cells rather than CSV text (issue 14): a Parquet file, a spreadsheet,
//! a data frame. Their reader turns each value into text by the typed-cell rule
//! ([`super::typed`]) and hands rows of cells to a [`CellReader`], which accounts for them as
//! the CSV reader does and feeds the same [`RecordSink`]s: the table, profile and audit are the
//! ones of the same table written as CSV.
//!
//! A row's "line" is the number a person would look for: in a spreadsheet, the sheet's row
//! number; in a Parquet file or a data frame, the line the row would have in CSV with the
//! header on line 1 (the first data row is line 2).

use super::format::Format;
use super::reader::{InputFacts, RecordSink, Rows, column_names};
use super::tokenizer::{Batch, MAX_FIELD_BYTES, Rec, RecKind};
use crate::error::{Error, Result};

/// Batches the reader hands on at most hold this much text.
const BATCH_BYTES: usize = 16 << 20;

/// Rows of text cells, each with its line, built one row at a time.
#[derive(Debug, Default)]
pub struct CellBatch {
    batch: Batch,
    data: Vec<u32>,
    blank: u64,
    last_line: u64,
}

impl CellBatch {
    /// An empty batch.
    pub fn new() -> Self {
        CellBatch::default()
    }

    /// Adds a data row at `line` (see the module's note on lines); `field_too_large` for a cell
    /// longer than the CSV reader's limit of 10 MiB.
    pub fn push_row<S: AsRef<str>>(&mut self, line: u64, cells: impl IntoIterator<Item = S>) -> Result<()> {
        let b = &mut self.batch;
        let start = b.bytes.len();
        let first = b.ends.len();
        let mut fields = 0u32;
        for cell in cells {
            let cell = cell.as_ref().as_bytes();
            if cell.len() > MAX_FIELD_BYTES {
                b.bytes.truncate(start);
                b.ends.truncate(first);
                return Err(Error::input("field_too_large", format!("this cell holds more than {} MiB of text", MAX_FIELD_BYTES >> 20)).at_line(line));
            }
            b.bytes.extend_from_slice(cell);
            b.ends.push(b.bytes.len() as u32);
            fields += 1;
        }
        let kind = if fields == 0 { RecKind::Empty } else { RecKind::Fields };
        b.recs.push(Rec { start: start as u32, first: first as u32, fields, line, last_line: line, offset: 0, quoted: false, kind });
        self.data.push((b.recs.len() - 1) as u32);
        self.last_line = self.last_line.max(line);
        Ok(())
    }

    /// Counts a blank row at `line` (a spreadsheet row without any value): skipped, as the CSV
    /// reader skips an empty line.
    pub fn push_blank(&mut self, line: u64) {
        self.blank += 1;
        self.last_line = self.last_line.max(line);
    }

    /// Data rows held.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether it holds no data row.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Whether it holds enough text to be handed on (16 MiB; its offsets are 32-bit).
    pub fn is_full(&self) -> bool {
        self.batch.bytes.len() >= BATCH_BYTES
    }

    /// Empties it for the next rows.
    pub fn clear(&mut self) {
        self.batch.bytes.clear();
        self.batch.ends.clear();
        self.batch.recs.clear();
        self.data.clear();
        self.blank = 0;
    }
}

/// Accounts for a table of cells as [`super::reader::Reader`] does for CSV, and hands its
/// header and rows to a sink.
#[derive(Debug)]
pub struct CellReader {
    header: Option<Vec<String>>,
    facts: InputFacts,
    /// A part of a table after its first (row groups read on their own): its header is the
    /// first part's, not a record of its own.
    later_part: bool,
}

impl CellReader {
    /// A reader of a table in this format.
    pub fn new(format: Format) -> Self {
        let facts = InputFacts { format, encoding: "utf-8".into(), ..InputFacts::default() };
        CellReader { header: None, facts, later_part: false }
    }

    /// A reader of a later part of a table in this format (see [`CellReader::header`]): the
    /// parts' facts then add up to the whole table's when merged.
    pub fn later_part(format: Format) -> Self {
        CellReader { later_part: true, ..CellReader::new(format) }
    }

    /// The header at `line` (0 when the format's column names are not a row of the table, as
    /// in Parquet): names trimmed, an empty one named `column_<n>`, a name given twice an
    /// error.
    pub fn header(&mut self, cells: Vec<String>, line: u64, sink: &mut impl RecordSink) -> Result<()> {
        if self.header.is_some() {
            return Err(Error::input("duplicate_header", "the table's header was given twice"));
        }
        if cells.is_empty() {
            return Err(Error::input("empty_file", "the table has no columns"));
        }
        let names = column_names(cells, line.max(1), &mut self.facts.renamed_columns)?;
        sink.header(&names)?;
        self.facts.columns = names.len();
        if !self.later_part {
            self.facts.header_records += 1;
            self.facts.header_line = line.max(1);
            self.facts.lines = self.facts.lines.max(line.max(1));
        }
        self.header = Some(names);
        Ok(())
    }

    /// The rows above the header (see [`super::header`]): `titles` rows skipped as titles
    /// (counted with the header) and `blanks` blank ones.
    pub fn above_header(&mut self, titles: u64, blanks: u64) {
        self.facts.header_records += titles;
        self.facts.title_records += titles;
        self.facts.blank_records += blanks;
    }

    /// A batch of rows, each of the header's width (`ragged_row` otherwise, naming its line).
    pub fn rows(&mut self, cells: &CellBatch, sink: &mut impl RecordSink) -> Result<()> {
        let header = self.header.as_deref().ok_or_else(|| Error::input("empty_file", "the table's rows came before its header"))?;
        for &r in &cells.data {
            let rec = &cells.batch.recs[r as usize];
            if rec.fields as usize != header.len() {
                return Err(Error::input("ragged_row", format!("this row has {} cells but the header has {}", rec.fields, header.len())).at_line(rec.line));
            }
        }
        self.facts.blank_records += cells.blank;
        self.facts.lines = self.facts.lines.max(cells.last_line);
        if cells.data.is_empty() {
            return Ok(());
        }
        self.facts.rows_total += cells.data.len() as u64;
        sink.rows(&Rows::of_cells(&cells.batch, &cells.data, header))
    }

    /// Ends the table: `empty_file` when it had no header.
    pub fn finish(&mut self) -> Result<()> {
        if self.header.is_none() {
            return Err(Error::input("empty_file", "the table is empty: it has no columns"));
        }
        let f = &mut self.facts;
        f.records = f.header_records + f.blank_records + f.rows_total + f.error_records;
        Ok(())
    }

    /// Names the sheet read, in a workbook.
    pub fn set_sheet(&mut self, sheet: &str) {
        self.facts.sheet = Some(sheet.to_string());
    }

    /// Sets the size of the file read, and its SHA-256 (lower-case hex) when known.
    pub fn set_file(&mut self, bytes: u64, sha256: Option<String>) {
        self.facts.bytes = bytes;
        self.facts.sha256 = sha256;
    }

    /// The facts so far.
    pub fn facts(&self) -> &InputFacts {
        &self.facts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Collect(Vec<String>, Vec<(u64, Vec<String>)>);

    impl RecordSink for Collect {
        fn header(&mut self, names: &[String]) -> Result<()> {
            self.0 = names.to_vec();
            Ok(())
        }
        fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
            for i in 0..rows.len() {
                let row = rows.row(i);
                let cells = (0..rows.header().len()).map(|j| row.text(j).unwrap().into_owned()).collect();
                self.1.push((row.line, cells));
            }
            Ok(())
        }
    }

    #[test]
    fn cells_reach_the_sink_with_their_lines_and_are_accounted_for() {
        let mut sink = Collect::default();
        let mut reader = CellReader::new(Format::Xlsx);
        reader.header(vec![" a ".into(), "".into()], 1, &mut sink).unwrap();
        let mut batch = CellBatch::new();
        batch.push_row(2, ["007", ""]).unwrap();
        batch.push_blank(3);
        batch.push_row(4, ["1.50", "n/a"]).unwrap();
        reader.rows(&batch, &mut sink).unwrap();
        reader.finish().unwrap();
        assert_eq!(sink.0, ["a", "column_2"]);
        assert_eq!(sink.1, [(2, vec!["007".to_string(), String::new()]), (4, vec!["1.50".into(), "n/a".into()])]);
        let f = reader.facts();
        assert_eq!((f.records, f.header_records, f.blank_records, f.rows_total, f.lines), (4, 1, 1, 2, 4));
        assert!(f.balanced());
        assert_eq!(f.format, Format::Xlsx);
        assert_eq!(f.renamed_columns, ["column_2"]);
    }

    #[test]
    fn a_row_of_another_width_and_a_duplicate_name_are_errors() {
        let mut sink = Collect::default();
        let mut reader = CellReader::new(Format::Parquet);
        let e = reader.header(vec!["a".into(), "a".into()], 0, &mut sink).unwrap_err();
        assert_eq!((e.code, e.line), ("duplicate_column", Some(1)));
        let mut reader = CellReader::new(Format::Parquet);
        reader.header(vec!["a".into(), "b".into()], 0, &mut sink).unwrap();
        let mut batch = CellBatch::new();
        batch.push_row(2, ["x"]).unwrap();
        let e = reader.rows(&batch, &mut sink).unwrap_err();
        assert_eq!((e.code, e.line), ("ragged_row", Some(2)));
        assert!(CellReader::new(Format::Parquet).finish().is_err());
    }

    #[test]
    fn formats_have_labels() {
        for f in [Format::Csv, Format::Parquet, Format::Xlsx, Format::Arrow] {
            assert_eq!(Format::from_label(f.label()), Some(f));
        }
        assert_eq!(serde_json::to_string(&Format::Parquet).unwrap(), "\"parquet\"");
    }
}
