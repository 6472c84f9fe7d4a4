//! A kept table gives up a column too varied to keep (an id) early when the size of the file
//! is known (`TableReader::expect_file_bytes`): after the first look at its values, with the profile
//! it has when given up at its cap; a column whose values repeat is kept, and so is an id in a
//! file with fewer rows than the cap. Read in parts, the same table.

use pseudolens_core::ingest::reader::Reader;
use pseudolens_core::table::RETAIN_CAP;
use pseudolens_core::{AuditConfig, Span, Table, TableReader};

/// `rows` rows: a unique id, a group of 1,000 values, and a note whose values come in pairs.
fn file(rows: usize) -> Vec<u8> {
    let mut csv = String::from("id,grp,note\n");
    for i in 0..rows {
        csv.push_str(&format!("r{i},g{},n{}\n", i % 1000, i / 2));
    }
    csv.into_bytes()
}

/// `bytes` read whole into a kept table, told the file has `file_bytes` bytes (or not told).
fn kept(bytes: &[u8], file_bytes: Option<u64>) -> Table {
    let mut reader = TableReader::new(AuditConfig::default().table_settings().unwrap());
    if let Some(b) = file_bytes {
        reader.expect_file_bytes(b);
    }
    for chunk in bytes.chunks(1 << 20) {
        reader.push(chunk).unwrap();
    }
    reader.finish().unwrap().table
}

/// `bytes` read as two parts told the file's size, merged.
fn kept_in_two(bytes: &[u8]) -> Table {
    let config = AuditConfig::default();
    let probe = Reader::probe(config.csv_options().unwrap(), &bytes[..1 << 16], false).expect("the header probes");
    let mut parts = Span::split(bytes.len() as u64, 2).into_iter().map(|span| {
        let mut part = TableReader::part(config.table_settings().unwrap(), &probe, span);
        part.expect_file_bytes(bytes.len() as u64);
        let start = span.start as usize;
        for chunk in bytes[start..].chunks(1 << 20) {
            if part.done() {
                break;
            }
            part.push(chunk).unwrap();
        }
        part.finish().unwrap()
    });
    let mut merged = parts.next().unwrap();
    merged.merge(parts.next().unwrap()).unwrap();
    merged.table
}

fn retained(table: &Table) -> Vec<bool> {
    table.columns.iter().map(|c| c.is_retained()).collect()
}

#[test]
fn an_id_column_is_given_up_early_with_the_profile_it_has_at_its_cap() {
    // Past the cap: the id is given up either way; told the size, after 4,096 rows.
    let bytes = file(RETAIN_CAP + 20_000);
    let norm = AuditConfig::default().normaliser();
    let (told, untold, parts) = (kept(&bytes, Some(bytes.len() as u64)), kept(&bytes, None), kept_in_two(&bytes));
    assert_eq!(retained(&told), [false, true, true]);
    assert_eq!(retained(&untold), [false, true, true]);
    assert_eq!(retained(&parts), [false, true, true]);
    let profile = untold.profiles(&norm);
    assert_eq!(told.profiles(&norm), profile);
    assert_eq!(parts.profiles(&norm), profile);
    assert!(!profile[0].distinct_exact && profile[1].distinct_exact && profile[2].distinct_exact);
    assert_eq!((profile[1].distinct, profile[2].distinct), (1000, (RETAIN_CAP as u64 + 20_000) / 2));
}

#[test]
fn the_estimate_counts_the_rows_the_file_will_have() {
    // 70,000 rows: an id of 70,000 values fits the cap and is kept; told the file is ten
    // times longer, its values would not fit, and it is given up at the first look.
    let bytes = file(70_000);
    assert_eq!(retained(&kept(&bytes, Some(bytes.len() as u64))), [true, true, true]);
    assert_eq!(retained(&kept(&bytes, None)), [true, true, true]);
    // The note's 35,000 values come in pairs: the estimate sees them repeat and keeps it.
    assert_eq!(retained(&kept(&bytes, Some(10 * bytes.len() as u64))), [false, true, true]);
}
