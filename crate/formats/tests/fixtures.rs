//! The page's and the CLI's test files (tests/e2e/fixtures/formats.*): one table as CSV, as
//! Parquet (string columns, Snappy, row groups of 16 rows) and as an Excel workbook (numbers
//! written as numbers where they print as the same text), which must read as the same table.
//! `PSEUDOLENS_WRITE_FIXTURES=1 cargo test -p pseudolens-formats --test fixtures` writes them.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use pseudolens_core::ingest::typed;
use pseudolens_core::{Audit, AuditConfig, Format, Report};

const HEADER: [&str; 6] = ["age", "sex", "zip", "code", "amount", "note"];

/// 50 rows: ages and zips that form classes, and cells a typed reader could change.
fn rows() -> Vec<[String; 6]> {
    let codes = ["007", "12", "", "007", "5"];
    let amounts = ["1.50", "2", "", "3.25", "0.1", "1.50"];
    let notes = ["n/a", "None", "", "ok", "x,y", "n/a", "fine"];
    (0..50usize)
        .map(|i| {
            [
                (20 + (i * 7) % 5 * 10).to_string(),
                ["F", "M"][i % 2].to_string(),
                (8000 + (i * 3) % 4).to_string(),
                codes[i % codes.len()].to_string(),
                amounts[i % amounts.len()].to_string(),
                notes[i % notes.len()].to_string(),
            ]
        })
        .collect()
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e/fixtures")
}

fn csv() -> String {
    let quote = |c: &str| if c.contains(',') { format!("\"{c}\"") } else { c.to_string() };
    let mut text = HEADER.join(",") + "\n";
    for r in rows() {
        text += &(r.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\n");
    }
    text
}

fn parquet() -> Vec<u8> {
    let rows = rows();
    let schema = Arc::new(Schema::new(HEADER.iter().map(|h| Field::new(*h, DataType::Utf8, true)).collect::<Vec<_>>()));
    // Blank cells are nulls, as a data frame would store them.
    let columns: Vec<ArrayRef> = (0..HEADER.len())
        .map(|j| Arc::new(StringArray::from(rows.iter().map(|r| (!r[j].is_empty()).then_some(r[j].as_str())).collect::<Vec<_>>())) as ArrayRef)
        .collect();
    let batch = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let props = WriterProperties::builder().set_compression(Compression::SNAPPY).set_max_row_group_row_count(Some(16)).build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    out
}

fn xlsx() -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet().set_name("Release").unwrap();
    for (j, h) in HEADER.iter().enumerate() {
        ws.write_string(0, j as u16, *h).unwrap();
    }
    for (i, row) in rows().iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            let (r, col) = (i as u32 + 1, j as u16);
            let number = c.parse::<f64>().ok().filter(|x| {
                let mut printed = String::new();
                typed::float64(*x, &mut printed);
                printed == *c
            });
            match number {
                _ if c.is_empty() => {}
                Some(x) => {
                    ws.write_number(r, col, x).unwrap();
                }
                None => {
                    ws.write_string(r, col, c).unwrap();
                }
            }
        }
    }
    // A second sheet, for choosing a sheet (the page's step 2, the CLI's --sheet).
    let codes = wb.add_worksheet().set_name("Codes").unwrap();
    for (i, row) in [["code", "label"], ["007", "seven"], ["12", "twelve"], ["5", "five"]].iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            codes.write_string(i as u32, j as u16, *c).unwrap();
        }
    }
    wb.save_to_buffer().unwrap()
}

fn config() -> AuditConfig {
    AuditConfig { quasi_identifiers: vec!["age".into(), "sex".into(), "zip".into()], sensitive: vec!["note".into()], ..AuditConfig::default() }
}

fn table_part(mut r: Report) -> Report {
    let f = &mut r.input;
    (f.bytes, f.sha256, f.delimiter, f.encoding, f.format, f.sheet) = (0, None, String::new(), String::new(), Format::Csv, None);
    r
}

#[test]
fn the_committed_fixtures_read_as_one_table() {
    let files = [("formats.csv", csv().into_bytes()), ("formats.parquet", parquet()), ("formats.xlsx", xlsx())];
    if std::env::var_os("PSEUDOLENS_WRITE_FIXTURES").is_some() {
        for (name, bytes) in &files {
            std::fs::write(dir().join(name), bytes).unwrap();
        }
    }
    let read = |name: &str| std::fs::read(dir().join(name)).unwrap();
    assert_eq!(read("formats.csv"), files[0].1, "formats.csv is stale: write the fixtures again");
    let mut a = Audit::new(config()).unwrap();
    a.push(&read("formats.csv")).unwrap();
    let csv = a.finish().unwrap();
    assert_eq!(csv.input.rows_total, 50);
    let mut a = Audit::new(config()).unwrap().reading_cells(Format::Parquet);
    pseudolens_formats::parquet::read(Bytes::from(read("formats.parquet")), &mut a).unwrap();
    assert_eq!(table_part(a.finish().unwrap()), table_part(csv.clone()));
    let mut a = Audit::new(config()).unwrap().reading_cells(Format::Xlsx);
    pseudolens_formats::xlsx::read(std::io::Cursor::new(read("formats.xlsx")), None, &mut a).unwrap();
    assert_eq!(table_part(a.finish().unwrap()), table_part(csv));
    assert_eq!(pseudolens_formats::xlsx::sheet_names(std::io::Cursor::new(read("formats.xlsx"))).unwrap(), ["Release", "Codes"]);
    let mut a = Audit::new(AuditConfig { quasi_identifiers: vec!["code".into()], ..AuditConfig::default() }).unwrap().reading_cells(Format::Xlsx);
    pseudolens_formats::xlsx::read(std::io::Cursor::new(read("formats.xlsx")), Some("Codes"), &mut a).unwrap();
    let codes = a.finish().unwrap();
    assert_eq!((codes.input.rows_total, codes.input.sheet.as_deref()), (3, Some("Codes")));
}

/// An export with a title above its header (issue 36): German column names, `;` in the CSV,
/// the sheet `Patients` in the workbook; the title on row 1, row 2 blank, the header on row 3.
const TITLE: &str = "Klinikum Export: Patienten, März 2026";
const TITLED_HEADER: [&str; 5] = ["Nachname", "Geburtsdatum", "Geschlecht", "PLZ", "Diagnose"];

fn titled_rows() -> Vec<[String; 5]> {
    let names = ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner"];
    let diagnoses = ["J45", "E11", "I10", "J45", "K21"];
    (0..30usize)
        .map(|i| {
            [
                names[i % names.len()].to_string(),
                format!("19{}-0{}-1{}", 50 + i % 4 * 10, 1 + i % 3, i % 10),
                ["w", "m"][i % 2].to_string(),
                (80331 + i % 3).to_string(),
                diagnoses[i % diagnoses.len()].to_string(),
            ]
        })
        .collect()
}

fn titled_csv() -> String {
    let mut text = format!("{TITLE}\n\n{}\n", TITLED_HEADER.join(";"));
    for r in titled_rows() {
        text += &(r.join(";") + "\n");
    }
    text
}

fn titled_xlsx() -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet().set_name("Patients").unwrap();
    ws.write_string(0, 0, TITLE).unwrap();
    for (j, h) in TITLED_HEADER.iter().enumerate() {
        ws.write_string(2, j as u16, *h).unwrap();
    }
    for (i, row) in titled_rows().iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            let (r, col) = (i as u32 + 3, j as u16);
            match c.parse::<f64>() {
                Ok(x) => ws.write_number(r, col, x).unwrap(),
                Err(_) => ws.write_string(r, col, c).unwrap(),
            };
        }
    }
    wb.save_to_buffer().unwrap()
}

#[test]
fn the_titled_fixtures_read_from_the_header_below_the_title() {
    let files = [("titled.csv", titled_csv().into_bytes()), ("titled.xlsx", titled_xlsx())];
    if std::env::var_os("PSEUDOLENS_WRITE_FIXTURES").is_some() {
        for (name, bytes) in &files {
            std::fs::write(dir().join(name), bytes).unwrap();
        }
    }
    let read = |name: &str| std::fs::read(dir().join(name)).unwrap();
    assert_eq!(read("titled.csv"), files[0].1, "titled.csv is stale: write the fixtures again");
    let config = AuditConfig { quasi_identifiers: vec!["Geburtsdatum".into(), "Geschlecht".into(), "PLZ".into()], ..AuditConfig::default() };
    let mut a = Audit::new(config.clone()).unwrap();
    a.push(&read("titled.csv")).unwrap();
    let csv = a.finish().unwrap();
    let i = &csv.input;
    assert_eq!((i.delimiter.as_str(), i.records, i.header_records, i.blank_records, i.rows_total), (";", 33, 2, 1, 30));
    let warning = csv.warnings.iter().find(|w| w.code == "header_row").expect("a warning names the header's row");
    assert!(warning.message.contains("line 3") && warning.message.contains("the line above it"), "{}", warning.message);
    let mut a = Audit::new(config).unwrap().reading_cells(Format::Xlsx);
    pseudolens_formats::xlsx::read(std::io::Cursor::new(read("titled.xlsx")), None, &mut a).unwrap();
    let xlsx = a.finish().unwrap();
    let i = &xlsx.input;
    assert_eq!((i.records, i.header_records, i.blank_records, i.rows_total, i.lines), (33, 2, 1, 30, 33));
    assert!(xlsx.warnings.iter().any(|w| w.code == "header_row" && w.message.contains("row 3")), "{:?}", xlsx.warnings);
    assert_eq!(xlsx.columns, csv.columns);
    assert_eq!(table_part(xlsx).metrics, table_part(csv).metrics);
}
