//! A table fed as cells (a Parquet file, a spreadsheet, a data frame: issue 14) is audited as
//! the same table written as CSV: the same profile, metrics and warnings.

use pseudolens_core::{Audit, AuditConfig, CellBatch, Format, Report, TableReader};

const HEADER: [&str; 4] = ["code", "amount", "note", "zip"];

/// Values a typed reader could change: leading zeros, trailing zeros, missing tokens, blanks.
const ROWS: [[&str; 4]; 6] = [
    ["007", "1.50", "n/a", "8001"],
    ["007", "2", "None", "8001"],
    ["12", "", "", "8002"],
    ["12", "1.50", "ok", "8002"],
    ["", "3.25", "x,y", "8003"],
    ["007", "2", "n/a", "8003"],
];

fn config() -> AuditConfig {
    AuditConfig { quasi_identifiers: vec!["code".into(), "zip".into()], sensitive: vec!["note".into()], ..AuditConfig::default() }
}

fn csv() -> Report {
    let mut text = HEADER.join(",") + "\n";
    for r in ROWS {
        let cells: Vec<String> = r.iter().map(|c| if c.contains(',') { format!("\"{c}\"") } else { c.to_string() }).collect();
        text += &(cells.join(",") + "\n");
    }
    let mut a = Audit::new(config()).unwrap();
    a.push(text.as_bytes()).unwrap();
    a.finish().unwrap()
}

fn cells(batch_rows: usize) -> Report {
    let mut a = Audit::new(config()).unwrap().reading_cells(Format::Parquet);
    a.push_header(HEADER.iter().map(|h| h.to_string()).collect(), 0).unwrap();
    let mut batch = CellBatch::new();
    for (i, r) in ROWS.iter().enumerate() {
        batch.push_row(i as u64 + 2, r).unwrap();
        if batch.len() == batch_rows {
            a.push_cells(&batch).unwrap();
            batch.clear();
        }
    }
    a.push_cells(&batch).unwrap();
    a.finish().unwrap()
}

/// The report without what describes the file rather than the table.
fn table_part(mut r: Report) -> Report {
    let f = &mut r.input;
    (f.bytes, f.sha256, f.delimiter, f.format) = (0, None, String::new(), Format::Csv);
    r
}

#[test]
fn cells_give_the_csv_report_however_batched() {
    let csv = csv();
    assert_eq!(csv.input.rows_total, 6);
    for n in [1, 2, 6] {
        let r = cells(n);
        assert_eq!(r.input.format, Format::Parquet);
        assert_eq!((r.input.records, r.input.lines), (csv.input.records, csv.input.lines));
        assert_eq!(table_part(r), table_part(csv.clone()), "batches of {n} rows");
    }
}

#[test]
fn a_table_reader_keeps_a_table_of_cells() {
    let mut a = TableReader::new(config().table_settings().unwrap()).reading_cells(Format::Xlsx);
    a.push_header(HEADER.iter().map(|h| h.to_string()).collect(), 1).unwrap();
    let mut batch = CellBatch::new();
    for (i, r) in ROWS.iter().enumerate() {
        batch.push_row(i as u64 + 2, r).unwrap();
    }
    a.push_cells(&batch).unwrap();
    a.set_file(1234, None);
    let table = a.finish().unwrap().table;
    assert!(table.is_retained());
    assert_eq!((table.facts.format, table.facts.bytes), (Format::Xlsx, 1234));
    let r = pseudolens_core::audit_table(&table, &config(), &pseudolens_core::Sides::default()).unwrap();
    let mut csv = table_part(csv());
    csv.read = r.read.clone();
    assert_eq!(table_part(r), csv);
    // The stored form keeps the format.
    let part = pseudolens_core::Part { table, bounds: None };
    let back = pseudolens_core::Part::from_bytes(&part.to_bytes()).unwrap();
    assert_eq!(back.table.facts.format, Format::Xlsx);
}

#[test]
fn pushing_bytes_into_a_cell_audit_is_an_error() {
    let mut a = Audit::new(config()).unwrap().reading_cells(Format::Arrow);
    assert_eq!(a.push(b"a,b\n").unwrap_err().code, "not_csv");
    let mut a = Audit::new(config()).unwrap();
    assert_eq!(a.push_header(vec!["a".into()], 1).unwrap_err().code, "not_cells");
}

#[test]
fn parts_of_a_table_of_cells_merge_into_the_whole() {
    let whole = cells(6);
    let mut parts = Vec::new();
    for (k, range) in [0..2, 2..5, 5..6].into_iter().enumerate() {
        let a = Audit::new(config()).unwrap();
        let mut a = if k == 0 { a.reading_cells(Format::Parquet) } else { a.reading_cells_part(Format::Parquet) };
        a.push_header(HEADER.iter().map(|h| h.to_string()).collect(), 0).unwrap();
        let mut batch = CellBatch::new();
        for i in range {
            batch.push_row(i as u64 + 2, ROWS[i]).unwrap();
        }
        a.push_cells(&batch).unwrap();
        parts.push(a.finish_part().unwrap());
    }
    let mut parts = parts.into_iter();
    let mut merged = parts.next().unwrap();
    for p in parts {
        merged.merge(p).unwrap();
    }
    assert_eq!(merged.finish(), whole);
}
