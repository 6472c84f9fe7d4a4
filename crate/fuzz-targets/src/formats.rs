//! The readers of other formats (issue 14): [`parquet_file`] and [`xlsx_file`].
//!
//! Input: a mode byte, then either the bytes of a file (mode bit 0 clear) or a program for a
//! small table of text cells (bit 0 set): the table is written as that format, read back and
//! compared with the same table read as CSV (it must give the same report), then damaged at
//! the positions the input names (up to 3, from the mode's bits 1-2) and read again. Every
//! read ends in a report whose account of records balances or in an error a person can
//! cause: a panic of the third-party reader is contained as `unreadable_parquet` /
//! `unreadable_xlsx`, never a crash.

use std::sync::{Arc, Once};

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes as Shared;
use parquet::arrow::ArrowWriter;
use pseudolens_core::{Audit, AuditConfig, Format, Report, Result};

use crate::assert_clean;
use crate::shape::Bytes;

/// libFuzzer aborts on any panic; the panics [`pseudolens_formats::contain`] turns into
/// errors are the behaviour under test, not crashes.
fn contained_panics_are_errors() {
    static ONCE: Once = Once::new();
    ONCE.call_once(pseudolens_formats::contain::quiet_contained_panics);
}

/// The characters of generated cells: no quote, delimiter or line end, so the CSV of the
/// table is the cells joined by commas.
const CHARS: &[u8] = b"abc01279 .-_xyz";

/// A table of 2-4 columns and up to 40 rows from a program: a header, then cells of 0-5
/// characters. `dense` (a worksheet, whose used range starts at its first value): no empty
/// header name, no row without a value.
fn table(b: &mut Bytes<'_>, dense: bool) -> (Vec<String>, Vec<Vec<String>>) {
    let columns = 2 + usize::from(b.byte() % 3);
    let rows = usize::from(b.byte() % 41);
    let cell = |b: &mut Bytes<'_>| -> String {
        let n = usize::from(b.byte() % 6);
        (0..n).map(|_| char::from(CHARS[usize::from(b.byte()) % CHARS.len()])).collect()
    };
    let mut header: Vec<String> = (0..columns).map(|_| cell(b)).collect();
    let mut body: Vec<Vec<String>> = (0..rows).map(|_| (0..columns).map(|_| cell(b)).collect()).collect();
    if dense {
        for (j, h) in header.iter_mut().enumerate() {
            if h.trim().is_empty() {
                *h = format!("c{j}");
            }
        }
        body.retain(|r| r.iter().any(|c| !c.is_empty()));
    }
    (header, body)
}

/// The settings of every read: the CSV's delimiter given (the cells' readers ignore it) and
/// its header on line 1, where the writers put it (a header with empty names above a full row
/// would otherwise be read as a title in the CSV; a Parquet schema has no title).
fn config() -> AuditConfig {
    AuditConfig { delimiter: Some(",".into()), header_row: Some(1), ..AuditConfig::default() }
}

fn csv_report(header: &[String], rows: &[Vec<String>]) -> Result<Report> {
    let mut text = header.join(",") + "\n";
    for r in rows {
        text += &(r.join(",") + "\n");
    }
    let mut a = Audit::new(config())?;
    a.push(text.as_bytes())?;
    a.finish()
}

/// The report without what describes the file rather than the table.
fn table_part(mut r: Report) -> Report {
    let f = &mut r.input;
    (f.bytes, f.sha256, f.delimiter, f.encoding, f.format, f.sheet) = (0, None, String::new(), String::new(), Format::Csv, None);
    r
}

/// Reads `bytes` as `format`; checks the outcome is a balanced report or a clean error.
fn read(format: Format, bytes: Vec<u8>) -> Option<Report> {
    let run = || -> Result<Report> {
        let mut a = Audit::new(config())?.reading_cells(format);
        match format {
            Format::Xlsx => {
                pseudolens_formats::xlsx::read(std::io::Cursor::new(bytes), None, &mut a)?;
            }
            _ => {
                pseudolens_formats::parquet::read(Shared::from(bytes), &mut a)?;
            }
        }
        a.finish()
    };
    match run() {
        Ok(r) => {
            assert!(r.input.balanced(), "the records do not add up: {:?}", r.input);
            Some(r)
        }
        Err(e) => {
            assert_clean(&e);
            None
        }
    }
}

/// Writes, compares with CSV, damages and reads again.
fn written(format: Format, data: &[u8], write: fn(&[String], &[Vec<String>]) -> Vec<u8>) {
    let mut b = Bytes::new(data);
    let mode = b.byte();
    if mode & 1 == 0 {
        read(format, b.rest().to_vec());
        return;
    }
    let damage: Vec<(u16, u8)> = (0..(mode >> 1) % 4).map(|_| (b.u16(), b.byte())).collect();
    let (header, rows) = table(&mut b, format == Format::Xlsx);
    let mut bytes = write(&header, &rows);
    let csv = csv_report(&header, &rows);
    let read_back = read(format, bytes.clone());
    match (csv, read_back) {
        (Ok(csv), Some(r)) => assert_eq!(table_part(r), table_part(csv), "the {} file and the CSV give different reports", format.label()),
        // The header's own errors (a name given twice) are the same in both.
        (Err(e), None) => assert_eq!(e.code, "duplicate_column", "{e:?}"),
        (csv, r) => panic!("the CSV gives {:?} but the {} file {:?}", csv.map(|_| ()), format.label(), r.map(|_| ())),
    }
    if damage.is_empty() {
        return;
    }
    for (at, x) in damage {
        let i = usize::from(at) % bytes.len();
        bytes[i] ^= x | 1;
    }
    read(format, bytes);
}

fn parquet_of(header: &[String], rows: &[Vec<String>]) -> Vec<u8> {
    // Unique field names for the writer; the reader sees them as the header.
    let schema = Arc::new(Schema::new(header.iter().map(|h| Field::new(h, DataType::Utf8, true)).collect::<Vec<_>>()));
    let columns: Vec<ArrayRef> =
        (0..header.len()).map(|j| Arc::new(StringArray::from(rows.iter().map(|r| r[j].as_str()).collect::<Vec<_>>())) as ArrayRef).collect();
    let batch = RecordBatch::try_new(schema.clone(), columns).expect("columns of one length");
    let props = parquet::file::properties::WriterProperties::builder().set_max_row_group_row_count(Some(7)).build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, schema, Some(props)).expect("a writer");
    w.write(&batch).expect("a batch written");
    w.close().expect("a file closed");
    out
}

fn xlsx_of(header: &[String], rows: &[Vec<String>]) -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (i, row) in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)).enumerate() {
        for (j, c) in row.iter().enumerate() {
            if !c.is_empty() {
                ws.write_string(i as u32, j as u16, c).expect("a cell written");
            }
        }
    }
    wb.save_to_buffer().expect("a workbook written")
}

/// Target `parquet_file`.
pub fn parquet_file(data: &[u8]) {
    contained_panics_are_errors();
    written(Format::Parquet, data, parquet_of);
}

/// Target `xlsx_file`.
pub fn xlsx_file(data: &[u8]) {
    contained_panics_are_errors();
    written(Format::Xlsx, data, xlsx_of);
}
