//! A table read from Parquet or Excel gets the report of the same table read from CSV (issue
//! 14): string columns give identical reports; typed columns give the report of the CSV their
//! values print as by the typed-cell rule (docs/decisions/formats/typed-cells.md). A corrupt or
//! truncated file is a clear error, never a crash.

use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use pseudolens_core::ingest::cell::DateForm;
use pseudolens_core::ingest::reader::{CsvOptions, Reader, RecordSink, Rows};
use pseudolens_core::table::kind::Kind;
use pseudolens_core::{Audit, AuditConfig, Format, Report, TableReader};
use pseudolens_formats::{parquet as pq, xlsx};

const HEADER: [&str; 4] = ["code", "amount", "note", "zip"];

/// Values a typed reader could change: leading and trailing zeros, missing tokens, blanks.
const ROWS: [[Option<&str>; 4]; 7] = [
    [Some("007"), Some("1.50"), Some("n/a"), Some("8001")],
    [Some("007"), Some("2"), Some("None"), Some("8001")],
    [Some("12"), None, None, Some("8002")],
    [Some("12"), Some("1.50"), Some("ok"), Some("8002")],
    [None, Some("3.25"), Some("x,y"), Some("8003")],
    [Some("007"), Some("2"), Some("n/a"), Some("8003")],
    [Some("5"), Some("0.1"), Some(""), Some("8003")],
];

fn config() -> AuditConfig {
    AuditConfig { quasi_identifiers: vec!["code".into(), "zip".into()], sensitive: vec!["note".into()], ..AuditConfig::default() }
}

fn csv_text(header: &[String], rows: &[Vec<String>]) -> String {
    let quote = |c: &String| if c.contains(',') || c.contains('"') { format!("\"{}\"", c.replace('"', "\"\"")) } else { c.clone() };
    let mut text = header.iter().map(quote).collect::<Vec<_>>().join(",") + "\n";
    for r in rows {
        text += &(r.iter().map(quote).collect::<Vec<_>>().join(",") + "\n");
    }
    text
}

fn audit_csv(text: &str, config: &AuditConfig) -> Report {
    let mut a = Audit::new(config.clone()).unwrap();
    a.push(text.as_bytes()).unwrap();
    a.finish().unwrap()
}

fn audit_parquet(bytes: Vec<u8>, config: &AuditConfig) -> pseudolens_core::Result<Report> {
    let mut a = Audit::new(config.clone())?.reading_cells(Format::Parquet);
    pq::read(Bytes::from(bytes), &mut a)?;
    a.finish()
}

fn audit_xlsx(bytes: Vec<u8>, sheet: Option<&str>, config: &AuditConfig) -> pseudolens_core::Result<Report> {
    let mut a = Audit::new(config.clone())?.reading_cells(Format::Xlsx);
    xlsx::read(std::io::Cursor::new(bytes), sheet, &mut a)?;
    a.finish()
}

/// The report without what describes the file rather than the table.
fn table_part(mut r: Report) -> Report {
    let f = &mut r.input;
    (f.bytes, f.sha256, f.delimiter, f.encoding, f.format, f.sheet) = (0, None, String::new(), String::new(), Format::Csv, None);
    r
}

fn parquet_of(columns: Vec<(&str, ArrayRef)>, row_group: usize) -> Vec<u8> {
    let schema = Arc::new(Schema::new(columns.iter().map(|(n, a)| Field::new(*n, a.data_type().clone(), true)).collect::<Vec<_>>()));
    let batch = RecordBatch::try_new(schema.clone(), columns.into_iter().map(|(_, a)| a).collect()).unwrap();
    let props = WriterProperties::builder().set_compression(Compression::SNAPPY).set_max_row_group_row_count(Some(row_group)).build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    out
}

fn strings(j: usize) -> ArrayRef {
    Arc::new(StringArray::from(ROWS.iter().map(|r| r[j]).collect::<Vec<_>>()))
}

fn string_rows() -> Vec<Vec<String>> {
    ROWS.iter().map(|r| r.iter().map(|c| c.unwrap_or("").to_string()).collect()).collect()
}

fn header() -> Vec<String> {
    HEADER.iter().map(|h| h.to_string()).collect()
}

#[test]
fn parquet_of_strings_gives_the_csv_report() {
    let csv = audit_csv(&csv_text(&header(), &string_rows()), &config());
    for row_group in [2, 100] {
        let bytes = parquet_of(HEADER.iter().enumerate().map(|(j, h)| (*h, strings(j))).collect(), row_group);
        let r = audit_parquet(bytes, &config()).unwrap();
        assert_eq!(r.input.format, Format::Parquet);
        assert_eq!((r.input.rows_total, r.input.records), (7, 8));
        assert_eq!(table_part(r), table_part(csv.clone()), "row groups of {row_group}");
    }
}

#[test]
fn typed_parquet_gives_the_report_of_its_cells_by_the_rule() {
    // code as an integer (007 is 7), amount as a float (1.50 is 1.5, 2 stays 2).
    let code: ArrayRef = Arc::new(Int64Array::from(ROWS.iter().map(|r| r[0].map(|c| c.parse::<i64>().unwrap())).collect::<Vec<_>>()));
    let amount: ArrayRef = Arc::new(Float64Array::from(ROWS.iter().map(|r| r[1].map(|c| c.parse::<f64>().unwrap())).collect::<Vec<_>>()));
    let bytes = parquet_of(vec![("code", code), ("amount", amount), ("note", strings(2)), ("zip", strings(3))], 3);
    let r = audit_parquet(bytes, &config()).unwrap();
    let mut rows = string_rows();
    for row in &mut rows {
        if row[0] == "007" {
            row[0] = "7".into();
        }
        if row[1] == "1.50" {
            row[1] = "1.5".into();
        }
    }
    let csv = audit_csv(&csv_text(&header(), &rows), &config());
    assert_eq!(table_part(r), table_part(csv));
    let int_column = |r: &Report| r.columns.iter().find(|c| c.name == "code").unwrap().top.clone();
    let typed = audit_parquet(parquet_of(vec![("code", Arc::new(Int64Array::from(vec![7, 7, 12])) as ArrayRef)], 10), &AuditConfig::default()).unwrap();
    assert_eq!(int_column(&typed), [("7".to_string(), 2), ("12".to_string(), 1)]);
}

/// The rows of a CSV file as text.
fn read_csv(path: &str) -> (Vec<String>, Vec<Vec<String>>) {
    struct Collect(Vec<String>, Vec<Vec<String>>);
    impl RecordSink for Collect {
        fn header(&mut self, names: &[String]) -> pseudolens_core::Result<()> {
            self.0 = names.to_vec();
            Ok(())
        }
        fn rows(&mut self, rows: &Rows<'_>) -> pseudolens_core::Result<()> {
            for i in 0..rows.len() {
                let row = rows.row(i);
                self.1.push((0..self.0.len()).map(|j| row.text(j).unwrap().into_owned()).collect());
            }
            Ok(())
        }
    }
    let bytes = std::fs::read(path).unwrap();
    let mut sink = Collect(Vec::new(), Vec::new());
    let mut reader = Reader::new(CsvOptions::default());
    reader.push(&bytes, &mut sink).unwrap();
    reader.finish(&mut sink).unwrap();
    (sink.0, sink.1)
}

/// ARX's adult.csv, from the shared data beside the checkout (as the core's golden tests).
const ADULT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/adult/adult.csv");

fn adult_config() -> AuditConfig {
    let qi = ["sex", "age", "race", "marital-status", "education", "native-country"];
    AuditConfig { quasi_identifiers: qi.iter().map(|s| s.to_string()).collect(), sensitive: vec!["occupation".into()], ..AuditConfig::default() }
}

#[test]
fn adult_as_parquet_and_as_xlsx_gives_the_csv_report() {
    let text = std::fs::read_to_string(ADULT).unwrap_or_else(|e| panic!("{ADULT}: {e}"));
    let csv = audit_csv(&text, &adult_config());
    let (header, rows) = read_csv(ADULT);
    let columns = (0..header.len())
        .map(|j| (header[j].as_str(), Arc::new(StringArray::from(rows.iter().map(|r| r[j].as_str()).collect::<Vec<_>>())) as ArrayRef))
        .collect();
    let r = audit_parquet(parquet_of(columns, 8192), &adult_config()).unwrap();
    assert_eq!(r.input.rows_total, 30_162);
    let mut expected = table_part(csv);
    assert_eq!(table_part(r), expected);
    // As a workbook: ages are numbers there, which print as the same digits.
    let book = workbook(&header, &rows, true);
    let r = audit_xlsx(book, None, &adult_config()).unwrap();
    expected.input.lines = r.input.lines;
    assert_eq!(table_part(r), expected);
}

/// A workbook of these rows on a sheet "Data" (a sheet "Notes" first unless `data_first`);
/// cells that are numbers are written as numbers.
fn workbook(header: &[String], rows: &[Vec<String>], data_first: bool) -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    if !data_first {
        wb.add_worksheet().set_name("Notes").unwrap().write_string(0, 0, "not the data").unwrap();
    }
    let ws = wb.add_worksheet().set_name("Data").unwrap();
    for (j, h) in header.iter().enumerate() {
        ws.write_string(0, j as u16, h).unwrap();
    }
    for (i, row) in rows.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            let (r, col) = (i as u32 + 1, j as u16);
            match c.parse::<f64>() {
                _ if c.is_empty() => {}
                Ok(x) if !c.starts_with('0') || c == "0" || c.starts_with("0.") => {
                    ws.write_number(r, col, x).unwrap();
                }
                _ => {
                    ws.write_string(r, col, c).unwrap();
                }
            }
        }
    }
    wb.save_to_buffer().unwrap()
}

#[test]
fn xlsx_gives_the_report_of_its_cells_by_the_rule() {
    // 007 stays text in a workbook (a string cell); 1.50 written as a number is 1.5.
    let book = workbook(&header(), &string_rows(), false);
    let r = audit_xlsx(book.clone(), Some("Data"), &config()).unwrap();
    assert_eq!((r.input.format, r.input.sheet.as_deref()), (Format::Xlsx, Some("Data")));
    let mut rows = string_rows();
    for row in &mut rows {
        if row[1] == "1.50" {
            row[1] = "1.5".into();
        }
    }
    let csv = audit_csv(&csv_text(&header(), &rows), &config());
    assert_eq!(table_part(r), table_part(csv));
    // The first sheet by default; an unknown sheet is named with the sheets there are.
    let first = audit_xlsx(book.clone(), None, &AuditConfig::default()).unwrap();
    assert_eq!((first.input.sheet.as_deref(), first.input.rows_total), (Some("Notes"), 0));
    let e = audit_xlsx(book, Some("Other"), &config()).unwrap_err();
    assert_eq!(e.code, "unknown_sheet");
    assert!(e.message.contains("Notes, Data"), "{}", e.message);
}

#[test]
fn xlsx_dates_numbers_and_blank_rows() {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    let date = rust_xlsxwriter::Format::new().set_num_format("dd/mm/yyyy");
    for (j, h) in ["when", "n", "flag"].iter().enumerate() {
        ws.write_string(0, j as u16, *h).unwrap();
    }
    ws.write_datetime_with_format(1, 0, rust_xlsxwriter::ExcelDateTime::from_ymd(2024, 1, 31).unwrap(), &date).unwrap();
    ws.write_number(1, 1, 7.0).unwrap();
    ws.write_boolean(1, 2, true).unwrap();
    // Row 3 of the sheet is empty: a blank record.
    ws.write_number(3, 1, 2.5).unwrap();
    let r = audit_xlsx(wb.save_to_buffer().unwrap(), None, &AuditConfig::default()).unwrap();
    let top = |name: &str| r.columns.iter().find(|c| c.name == name).unwrap().top.clone();
    assert_eq!(top("when"), [("2024-01-31".to_string(), 1)]);
    assert_eq!(top("n"), [("2.5".to_string(), 1), ("7".to_string(), 1)]);
    assert_eq!(top("flag"), [("true".to_string(), 1)]);
    assert_eq!((r.input.rows_total, r.input.blank_records, r.input.records, r.input.lines), (2, 1, 4, 4));
    assert!(r.input.balanced());
}

#[test]
fn a_corrupt_or_cut_parquet_file_is_a_clear_error() {
    let bytes = parquet_of(HEADER.iter().enumerate().map(|(j, h)| (*h, strings(j))).collect(), 3);
    for cut in [0, 4, 8, bytes.len() / 2, bytes.len() - 1] {
        let e = audit_parquet(bytes[..cut].to_vec(), &config()).unwrap_err();
        assert_eq!(e.code, "unreadable_parquet", "cut at {cut}: {e}");
    }
    // Every byte changed in turn: an error or a report, never a panic past the reader.
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        if let Err(e) = audit_parquet(b, &config()) {
            assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn a_corrupt_workbook_is_a_clear_error() {
    let book = workbook(&header(), &string_rows(), true);
    let e = audit_xlsx(book[..book.len() / 2].to_vec(), None, &config()).unwrap_err();
    assert_eq!(e.code, "unreadable_xlsx", "{e}");
}

#[test]
fn a_file_the_parquet_reader_panics_on_is_a_clear_error() {
    // Found by the fuzz target parquet_file: the reader panics inside the `parquet` crate.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/e2e/fixtures/panics.parquet");
    let e = audit_parquet(std::fs::read(path).unwrap(), &config()).unwrap_err();
    assert_eq!(e.code, "unreadable_parquet");
    assert!(e.message.starts_with("the Parquet reader stopped on this file, which may be corrupt or cut short ("), "{}", e.message);
}

/// The page's parallel read: each reader holds the footer and its row groups' bytes alone
/// (`Pieces`), reads its run of groups, and the parts merged in order give the report of the
/// file read whole; a range the reader did not get is an error, not a panic.
#[test]
fn row_groups_read_from_their_pieces_give_the_whole_files_report() {
    let bytes = Bytes::from(parquet_of(HEADER.iter().enumerate().map(|(j, h)| (*h, strings(j))).collect(), 2));
    let len = bytes.len() as u64;
    let footer_len = pq::footer_len(&bytes[bytes.len() - pq::TAIL_BYTES..]).unwrap();
    let footer = bytes.slice(bytes.len() - pq::TAIL_BYTES - footer_len as usize..);
    let groups = pq::group_spans(footer.clone(), len).unwrap();
    assert_eq!(groups.iter().map(|g| g.rows).collect::<Vec<_>>(), [2, 2, 2, 1]);
    assert!(groups.windows(2).all(|w| w[0].end <= w[1].start) && groups[3].end < len - footer.len() as u64 + 1);
    let whole = audit_parquet(bytes.to_vec(), &config()).unwrap();
    let read_run = |first: usize, last: usize| {
        let (start, end) = (groups[first].start, groups[last].end);
        let pieces = pq::Pieces::new(len, vec![(len - footer.len() as u64, footer.clone()), (start, bytes.slice(start as usize..end as usize))]);
        let reader = TableReader::new(config().table_settings().unwrap());
        let mut reader = if first == 0 { reader.reading_cells(Format::Parquet) } else { reader.reading_cells_part(Format::Parquet) };
        pq::read_row_groups(pieces, Some((first..=last).collect()), &mut reader).map(|_| reader.finish().unwrap())
    };
    let mut parts = read_run(0, 1).unwrap();
    parts.merge(read_run(2, 3).unwrap()).unwrap();
    let merged = pseudolens_core::audit_table(&parts.table, &config(), &pseudolens_core::Sides::default()).unwrap();
    let mut expected = table_part(whole);
    expected.read = merged.read.clone();
    assert_eq!(table_part(merged), expected);
    // Group 2 without its bytes: the reader's error.
    let pieces = pq::Pieces::new(len, vec![(len - footer.len() as u64, footer.clone())]);
    let mut reader = TableReader::new(config().table_settings().unwrap()).reading_cells_part(Format::Parquet);
    assert_eq!(pq::read_row_groups(pieces, Some(vec![2]), &mut reader).unwrap_err().code, "unreadable_parquet");
    assert_eq!(pq::footer_len(b"12345678").unwrap_err().code, "unreadable_parquet");
}

#[test]
fn typed_date_columns_read_as_dates() {
    // Parquet date32, a timestamp at midnight (pandas' datetime64 written to Parquet) and an
    // Excel date cell are dates (spec README Sec 4.4); a timestamp with a time of day is not.
    use arrow_array::{Date32Array, TimestampNanosecondArray};
    const DAY: i64 = 86_400_000_000_000;
    let dates: ArrayRef = Arc::new(Date32Array::from(vec![Some(19_083), None, Some(3_723)]));
    let midnight: ArrayRef = Arc::new(TimestampNanosecondArray::from(vec![19_083 * DAY, 3_723 * DAY, 3_723 * DAY]));
    let timed: ArrayRef = Arc::new(TimestampNanosecondArray::from(vec![19_083 * DAY + 3_600_000_000_000, 3_723 * DAY, 3_723 * DAY]));
    let r = audit_parquet(parquet_of(vec![("born", dates), ("admitted", midnight), ("seen", timed)], 10), &AuditConfig::default()).unwrap();
    let column = |r: &Report, name: &str| r.columns.iter().find(|c| c.name == name).unwrap().clone();
    for name in ["born", "admitted"] {
        let c = column(&r, name);
        assert_eq!(
            (c.kind, c.date_form, c.min.as_deref(), c.max.as_deref()),
            (Kind::Date, Some(DateForm::Iso), Some("1980-03-12"), Some("2022-04-01")),
            "{name}"
        );
    }
    assert_eq!(column(&r, "seen").kind, Kind::Categorical);

    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    let shown = rust_xlsxwriter::Format::new().set_num_format("dd.mm.yyyy");
    ws.write_string(0, 0, "born").unwrap();
    ws.write_datetime_with_format(1, 0, rust_xlsxwriter::ExcelDateTime::from_ymd(2022, 4, 1).unwrap(), &shown).unwrap();
    ws.write_datetime_with_format(2, 0, rust_xlsxwriter::ExcelDateTime::from_ymd(1980, 3, 12).unwrap(), &shown).unwrap();
    let c = column(&audit_xlsx(wb.save_to_buffer().unwrap(), None, &AuditConfig::default()).unwrap(), "born");
    assert_eq!((c.kind, c.min.as_deref(), c.max.as_deref()), (Kind::Date, Some("1980-03-12"), Some("2022-04-01")));
}
