//! Bad input is normal input: every malformed file gets a clear error naming the line and the
//! column, or a result that says what was done (spec README Sec 6).

mod common;

use common::*;
use pseudolens_core::AuditConfig;
use pseudolens_core::ingest::encoding::Encoding;
use pseudolens_core::ingest::reader::Ragged;
use serde_json::json;

fn err(bytes: &[u8], config: &AuditConfig) -> pseudolens_core::Error {
    audit_chunked(bytes, config, 7).unwrap_err()
}

#[test]
fn every_chunk_split_gives_the_same_report() {
    // Quoted delimiters and line breaks, CRLF, a BOM, multi-byte characters, blank lines.
    let csv = "\u{feff}name,\"ci,ty\",age\r\n\"Ann \"\"A\"\"\",Zürich,34\r\n\r\n\"B\nob\",Genève,\"3\n4\"\r\nCé,Zürich,34";
    let bytes = csv.as_bytes();
    let config = qi(&["ci,ty", "age"]);
    let whole = audit(bytes, &config);
    assert_eq!(whole.input.rows_total, 3);
    assert_eq!(whole.columns[0].name, "name");
    assert_eq!(whole.columns[1].top[0], ("Zürich".to_string(), 2));
    assert_eq!(value(&whole, "n_classes"), &json!(2));
    for split in 1..bytes.len() {
        let mut a = pseudolens_core::Audit::new(config.clone()).unwrap();
        a.push(&bytes[..split]).unwrap();
        a.push(&bytes[split..]).unwrap();
        assert_eq!(a.finish().unwrap(), whole, "split at byte {split}");
    }
}

#[test]
fn semicolons_tabs_and_pipes_are_detected() {
    for d in [";", "\t", "|"] {
        let csv = format!("a{d}b\n1{d}2\n3{d}4\n");
        let r = audit(csv.as_bytes(), &qi(&["a"]));
        assert_eq!(r.input.delimiter, d);
        assert_eq!(r.input.columns, 2);
    }
    let config = AuditConfig { delimiter: Some(";".into()), ..qi(&["a,b"]) };
    assert_eq!(audit(b"a,b\n1,2\n", &config).input.columns, 1, "an explicit delimiter wins");
}

#[test]
fn windows_1252_files_are_read_as_such() {
    let r = audit(b"ort,diag\nZ\xfcrich,\x80x\nBern,y\n", &qi(&["ort"]));
    assert_eq!(r.input.encoding, "windows-1252");
    assert_eq!(r.columns[0].top.iter().find(|t| t.0.starts_with('Z')).unwrap().0, "Zürich");
    assert_eq!(r.columns[1].top.iter().find(|t| t.0.ends_with('x')).unwrap().0, "€x");
}

#[test]
fn late_non_utf8_bytes_name_the_line_and_column() {
    let mut csv = b"ort,n\n".to_vec();
    for i in 0..10_000 {
        csv.extend_from_slice(format!("Bern,{i}\n").as_bytes());
    }
    csv.extend_from_slice(b"Z\xfcrich,1\n");
    let e = err(&csv, &qi(&["ort"]));
    assert_eq!((e.code, e.line, e.column.as_deref()), ("encoding_mismatch", Some(10_002), Some("ort")));
    let config = AuditConfig { encoding: Some(Encoding::Windows1252), ..qi(&["ort"]) };
    assert_eq!(audit(&csv, &config).input.rows_total, 10_001);
}

#[test]
fn ragged_rows_are_errors_or_counted() {
    let csv = b"a,b,c\n1,2,3\n\"x\ny\",2\n4,5,6\n";
    let e = err(csv, &qi(&["a"]));
    assert_eq!((e.code, e.line), ("ragged_row", Some(3)));
    assert!(e.message.contains("2 fields") && e.message.contains("has 3"), "{}", e.message);
    let config = AuditConfig { ragged: Ragged::PadOrTruncate, ..qi(&["c"]) };
    let r = audit(b"a,b,c\n1,2\n4,5,6,7\n", &config);
    assert_eq!((r.input.ragged_rows, r.input.rows_total), (2, 2));
    assert_eq!(r.columns[2].forms.missing, 1, "the padded cell is missing");
    assert!(r.warnings.iter().any(|w| w.code == "ragged_rows" && w.message.contains("line 2")));
}

#[test]
fn empty_files_and_headers() {
    assert_eq!(err(b"", &qi(&["a"])).code, "empty_file");
    assert_eq!(err(b"\xef\xbb\xbf\n\n", &qi(&["a"])).code, "empty_file");
    let r = audit(b"a,b", &qi(&["a"]));
    assert_eq!(r.input.rows_total, 0);
    let e = err(b"a,b,a\n1,2,3\n", &qi(&["b"]));
    assert_eq!((e.code, e.line, e.column.as_deref()), ("duplicate_column", Some(1), Some("a")));
    let r = audit(b"a,,c\n1,2,3\n", &qi(&["column_2"]));
    assert!(r.warnings.iter().any(|w| w.code == "empty_column_name"));
    let e = err(b"a,b\n1,2\n", &qi(&["age"]));
    assert_eq!((e.code, e.column.as_deref()), ("unknown_column", Some("age")));
    assert!(e.message.contains("a, b"));
}

#[test]
fn line_numbers_count_blank_lines_and_quoted_breaks() {
    let e = err(b"a,b\n\n1,2\n\"x\n\ny\",2\n\n\n5\n", &qi(&["a"]));
    assert_eq!((e.code, e.line), ("ragged_row", Some(9)));
    let r = audit(b"a,b\n\n1,2\n   \n3,4\n", &qi(&["a"]));
    // The empty line and the line of spaces are both blank records: every record counts.
    assert_eq!((r.input.rows_total, r.input.blank_records, r.input.records), (2, 2, 5));
}

#[test]
fn an_unclosed_quote_is_reported_not_swallowed() {
    let mut csv = b"a,b\n\"1,2\n".to_vec();
    csv.extend(std::iter::repeat_n(b'x', 70 << 20));
    let e = audit_chunked(&csv, &qi(&["a"]), 1 << 20).unwrap_err();
    assert_eq!((e.code, e.line, e.column.as_deref()), ("field_too_large", Some(2), Some("a")));
}

#[test]
fn utf16_is_read_like_utf8_whatever_the_chunks() {
    let text = "name,note\r\nZoë,\"two\r\nlines\"\r\n😀,x\r\n";
    let utf8 = audit(text.as_bytes(), &qi(&["name"]));
    for (bom, unit) in [(b"\xff\xfe", u16::to_le_bytes as fn(u16) -> [u8; 2]), (b"\xfe\xff", u16::to_be_bytes)] {
        let mut bytes = bom.to_vec();
        bytes.extend(text.encode_utf16().flat_map(unit));
        for chunk in [1, 2, 3, 7, 1000] {
            let r = audit_chunked(&bytes, &qi(&["name"]), chunk).unwrap();
            assert_eq!(r.columns, utf8.columns, "chunk {chunk}");
            assert_eq!(r.metrics, utf8.metrics);
            assert_eq!((r.input.rows_total, r.input.records, r.input.lines), (2, 3, 4));
            assert_eq!(r.input.bytes, bytes.len() as u64);
            assert!(r.input.encoding.starts_with("utf-16"));
        }
    }
    let e = err(b"\xff\xfea\x00\n\x00\x00\xd8b\x00", &qi(&["a"]));
    assert_eq!((e.code, e.line), ("invalid_encoding", Some(2)));
}

#[test]
fn columns_without_values_and_huge_fields() {
    let big = "y".repeat(3 << 20);
    let csv = format!("a,empty,note\n1,,\"{big}\"\n2,NA,short\n");
    let r = audit_chunked(csv.as_bytes(), &qi(&["a"]), 4096).unwrap();
    assert_eq!(r.columns[1].shape, "no values");
    assert!(r.warnings.iter().any(|w| w.code == "column_without_values" && w.message.contains("empty")));
    assert_eq!(r.columns[2].distinct, 2);
}

#[test]
fn settings_are_checked() {
    let bad = [
        AuditConfig { threshold: 1.5, ..qi(&["a"]) },
        AuditConfig { wildcard_alpha: -0.1, ..qi(&["a"]) },
        AuditConfig { delimiter: Some(";;".into()), ..qi(&["a"]) },
        AuditConfig { memory_budget: 0, ..qi(&["a"]) },
        AuditConfig { utility: pseudolens_core::utility::params::UtilityParams { similarity_bins: usize::MAX, ..Default::default() }, ..qi(&["a"]) },
    ];
    for c in bad {
        assert_eq!(pseudolens_core::Audit::new(c).err().unwrap().kind, pseudolens_core::ErrorKind::Config);
    }
    let e = err(b"a,b\n1,2\n", &qi(&["a", "a"]));
    assert_eq!(e.code, "duplicate_quasi_identifier");
}

#[test]
fn extra_missing_tokens() {
    let mut config = qi(&["a"]);
    config.missing_tokens.push("?".into());
    let r = audit(b"a\n?\n1\n", &config);
    assert_eq!(r.columns[0].forms.missing, 1);
}

#[test]
fn the_report_names_the_content_hash_of_the_file_read() {
    let bytes = b"a,b\n1,2\n";
    let expected = "492d5ea496056f1a6a6592241032fab764c321596317930b4fa0e1e8bc3b7470"; // sha256sum
    for chunk in [1, 3, 100] {
        let r = audit_chunked(bytes, &qi(&["a"]), chunk).unwrap();
        assert_eq!(r.input.sha256.as_deref(), Some(expected));
    }
}

#[test]
fn an_unclosed_quote_is_an_error_or_a_skipped_record_with_a_warning() {
    // The case: a quote opened on line 50 of a 200-row file is never closed.
    let mut csv = String::from("id,age,notes\n");
    for i in 2..=201 {
        csv.push_str(&if i == 50 { format!("{i},3{},\"see\n", i % 10) } else { format!("{i},3{},ok\n", i % 10) });
    }
    let e = err(csv.as_bytes(), &qi(&["age"]));
    assert_eq!((e.code, e.line, e.column.as_deref()), ("unclosed_quote", Some(50), Some("notes")));
    assert!(e.message.contains("never closed") && e.message.contains("line 201"), "{}", e.message);
    let config = AuditConfig { ragged: Ragged::PadOrTruncate, ..qi(&["age"]) };
    let r = audit_chunked(csv.as_bytes(), &config, 7).unwrap();
    let i = &r.input;
    assert_eq!((i.records, i.header_records, i.rows_total, i.blank_records, i.error_records), (201, 1, 199, 0, 1));
    let w = r.warnings.iter().find(|w| w.code == "unclosed_quote").unwrap();
    assert!(w.message.contains("line 50, column \"notes\"") && w.message.contains("line 51"), "{}", w.message);
    assert!(r.warnings.iter().any(|w| w.code == "partial_read"));
}

#[test]
fn a_ragged_record_over_several_lines_points_at_its_quote() {
    let e = err(b"a,b,c\n1,\"x\n2,3\"\n4,5,6\n", &qi(&["a"]));
    assert_eq!((e.code, e.line), ("ragged_row", Some(2)));
    assert!(e.message.contains("from line 2 to line 3"), "{}", e.message);
}

#[test]
fn files_that_are_not_text_are_named() {
    let e = err(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", &qi(&["a"]));
    assert_eq!(e.code, "not_text");
    assert!(e.message.contains("(byte 1)") && e.message.contains("PNG"), "{}", e.message);
    let e = err(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", &qi(&["a"]));
    assert!(e.message.contains("PDF"), "{}", e.message);
    let e = err(b"a,b\n1,2\n3,\0\n", &qi(&["a"]));
    assert_eq!(e.code, "not_text");
    assert!(e.message.contains("(byte 11)"), "{}", e.message);
    // A NUL byte after the first 64 KiB names its line and column too.
    let mut csv = b"a,b\n".to_vec();
    for _ in 0..20_000 {
        csv.extend_from_slice(b"1,2\n");
    }
    csv.extend_from_slice(b"3,x\0y\n");
    let e = err(&csv, &qi(&["a"]));
    assert_eq!((e.code, e.line, e.column.as_deref()), ("not_text", Some(20_002), Some("b")));
    assert!(e.message.contains(&format!("(byte {})", csv.len() - 2)), "{}", e.message);
}

#[test]
fn limits_give_clear_errors() {
    let wide = (0..100_001).map(|i| format!("c{i}")).collect::<Vec<_>>().join(",");
    let e = err(format!("{wide}\n").as_bytes(), &qi(&["c0"]));
    assert_eq!((e.code, e.line), ("too_many_columns", Some(1)));
    let mut csv = b"a,big\n1,x\n2,".to_vec();
    csv.extend(std::iter::repeat_n(b'y', (10 << 20) + 1));
    csv.extend_from_slice(b"\n3,z\n");
    let e = audit_chunked(&csv, &qi(&["a"]), 1 << 20).unwrap_err();
    assert_eq!((e.code, e.line, e.column.as_deref()), ("field_too_large", Some(3), Some("big")));
    let config = AuditConfig { ragged: Ragged::PadOrTruncate, ..qi(&["a"]) };
    let r = audit_chunked(&csv, &config, 1 << 20).unwrap();
    assert_eq!((r.input.rows_total, r.input.error_records, r.input.records), (2, 1, 4));
    assert!(r.warnings.iter().any(|w| w.code == "field_too_large" && w.message.contains("line 3, column \"big\"")));
    // The class table stops at its memory budget, before allocating past it.
    let mut csv = String::from("id\n");
    for i in 0..5000 {
        csv.push_str(&format!("{i}\n"));
    }
    let config = AuditConfig { memory_budget: 20_000, ..qi(&["id"]) };
    let e = err(csv.as_bytes(), &config);
    assert_eq!(e.code, "memory_budget_exceeded");
    assert!(e.message.contains("memory budget"), "{}", e.message);
}

#[test]
fn lenient_reading_names_several_ragged_rows() {
    let config = AuditConfig { ragged: Ragged::PadOrTruncate, ..qi(&["a"]) };
    let mut csv = b"a,b,c\n".to_vec();
    for i in 0..10 {
        csv.extend_from_slice(if i % 2 == 0 { b"1,2\n" } else { b"1,2,3,4\n" });
    }
    let r = audit(&csv, &config);
    let w = r.warnings.iter().find(|w| w.code == "ragged_rows").unwrap();
    for listed in ["line 2 with 2 fields", "line 3 with 4 fields", "line 4 with 2 fields", "line 5 with 4 fields", "line 6 with 2 fields"] {
        assert!(w.message.contains(listed), "{}", w.message);
    }
    assert!(w.message.starts_with("10 rows") && w.message.ends_with("and 5 more"), "{}", w.message);
    assert!(!w.message.contains("line 7"), "{}", w.message);
}

#[test]
fn titles_above_the_header_are_skipped_and_counted() {
    // A title row (one filled cell, as a spreadsheet saves it), then the header.
    let csv = b"\"Patients, ward 3\",,\n\nage,sex,zip\n30,F,8000\n40,M,8001\n30,F,8000\n";
    for chunk in [1, 7, 1000] {
        let r = audit_chunked(csv, &qi(&["age", "sex"]), chunk).unwrap();
        let i = &r.input;
        assert_eq!(r.columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["age", "sex", "zip"], "chunks of {chunk}");
        assert_eq!((i.records, i.header_records, i.blank_records, i.rows_total), (6, 2, 1, 3));
        let w = r.warnings.iter().find(|w| w.code == "header_row").expect("the header's row is named");
        assert_eq!(w.message, "the header was read from line 3; the line above it was skipped as titles (name the header's row to read another)");
    }
    // Titles of one field above a `;` table: the delimiter is still found.
    let r = audit(b"Export\nMarch 2026\nage;sex;zip\n30;F;8000\n", &qi(&["age"]));
    assert_eq!((r.input.delimiter.as_str(), r.input.header_records, r.input.rows_total), (";", 3, 1));
    assert!(r.warnings.iter().any(|w| w.code == "header_row" && w.message.contains("the 2 lines above it were")));
    // A header with an empty name, and a two-column table, are read as before.
    assert_eq!(audit(b"a,,c\n1,2,3\n", &qi(&["a"])).input.header_records, 1);
    assert_eq!(audit(b"id,\n1,2\n", &qi(&["id"])).input.header_records, 1);
    assert!(audit(b"a,b,c\n1,2,3\n", &qi(&["a"])).warnings.iter().all(|w| w.code != "header_row"));
}

#[test]
fn the_header_row_can_be_named() {
    let csv = b"a,b,c\nage,sex,zip\n30,F,8000\n40,M,8001\n";
    let r = audit(csv, &AuditConfig { header_row: Some(2), ..qi(&["age"]) });
    assert_eq!((r.input.header_records, r.input.rows_total, r.input.records), (2, 2, 4));
    assert!(r.warnings.iter().any(|w| w.code == "header_row" && w.message.contains("line 2")));
    // Row 1 named: a title-like first row is the header after all.
    let r = audit(b"x,,\na,b,c\n1,2,3\n", &AuditConfig { header_row: Some(1), ..qi(&["x"]) });
    assert_eq!((r.input.header_records, r.input.rows_total), (1, 2));
    let e = err(csv, &AuditConfig { header_row: Some(9), ..qi(&["age"]) });
    assert_eq!(e.code, "header_row_out_of_range");
    assert!(e.message.contains("line 9"), "{}", e.message);
    assert_eq!(pseudolens_core::Audit::new(AuditConfig { header_row: Some(0), ..qi(&["age"]) }).err().unwrap().code, "invalid_header_row");
}
