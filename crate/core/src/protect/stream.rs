//! The release written while the file is read again (spec protect.md Sec 5; issue 38, Deliver
//! 4: "streamed for files larger than memory"): for a kept table of which a column kept no
//! codes (an id or free text past the retain cap), each record's class and QI cells come from
//! the kept table and that column's cells from the file, record by record, matched to the
//! table's rows by their line (`file_changed` when they differ). Push the file's chunks, take
//! the bytes written after each (`take`), then `finish`.

use super::apply::Release;
use crate::error::{Error, Result};
use crate::ingest::reader::{CsvOptions, Reader, RecordSink, Rows};
use crate::table::Table;

/// The error for a file that is not the one the table was read from.
fn changed(what: String) -> Error {
    Error::input("file_changed", format!("the file is not the one read for the search ({what}): read it again and search again"))
}

/// The sink of the second read: writes each record the release keeps.
struct Sink<'a> {
    release: Release<'a>,
    table: &'a Table,
    /// The table's next row.
    next: usize,
    written: u64,
    out: Vec<u8>,
}

impl RecordSink for Sink<'_> {
    fn header(&mut self, names: &[String]) -> Result<()> {
        if names != self.table.header.as_slice() {
            return Err(changed("its header differs".into()));
        }
        self.release.write_header(&mut self.out);
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        for r in 0..rows.len() {
            let (i, row) = (self.next, rows.row(r));
            if i >= self.release.rows() || self.table.lines.line(i as u64) != row.line {
                return Err(changed(format!("its record on line {} is not the table's row {}", row.line, i + 1)));
            }
            self.written += u64::from(self.release.write_row(i, &mut self.out, |j| row.text(j))?);
            self.next += 1;
        }
        Ok(())
    }
}

/// A release written from the kept table and the file read again.
pub struct StreamedRelease<'a> {
    csv: Reader,
    sink: Sink<'a>,
}

impl<'a> StreamedRelease<'a> {
    pub(super) fn new(release: Release<'a>, table: &'a Table, opts: CsvOptions) -> Self {
        StreamedRelease { csv: Reader::new(opts), sink: Sink { release, table, next: 0, written: 0, out: Vec::new() } }
    }

    /// The delimiter the release is written with.
    pub fn delimiter(&self) -> &str {
        self.sink.release.delimiter()
    }

    /// Reads the next chunk of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.csv.push(chunk, &mut self.sink)
    }

    /// The bytes written since the last call.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.sink.out)
    }

    /// Ends the file: the last bytes and the records written (`file_changed` when the file has
    /// fewer records than the table).
    pub fn finish(mut self) -> Result<(Vec<u8>, u64)> {
        self.csv.finish(&mut self.sink)?;
        if self.sink.next != self.sink.release.rows() {
            return Err(changed(format!("it has {} records, the table {}", self.sink.next, self.sink.release.rows())));
        }
        Ok((self.sink.out, self.sink.written))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AuditConfig;
    use crate::ingest::cell::Normaliser;
    use crate::protect::{Criteria, Ladder, ProtectParams, Protector};
    use crate::table::read::TableReader;

    const G_P1: &str = include_str!("../../tests/fixtures/g-p1.csv");

    fn table(csv: &str) -> Table {
        let mut reader = TableReader::new(AuditConfig::default().table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        reader.finish().unwrap().table
    }

    fn params() -> ProtectParams {
        ProtectParams {
            quasi_identifiers: vec!["age".into(), "zip".into(), "sex".into()],
            ladders: [("zip".to_string(), Ladder::Prefix { lengths: vec![4, 3] })].into(),
            criteria: Criteria { k: Some(2), ..Criteria::default() },
            suppression_limit: 0.25,
            ..ProtectParams::default()
        }
    }

    /// The release streamed from `file` in chunks of `size` bytes, `diagnosis` kept without codes.
    fn streamed(kept: &str, file: &str, size: usize) -> Result<String> {
        let mut t = table(kept);
        let p = Protector::new(&t, &Normaliser::default(), &params()).unwrap();
        let levels = p.node(&[("age".to_string(), 1), ("zip".to_string(), 1)].into()).unwrap();
        t.columns[3].codes = None;
        assert!(matches!(p.release(&t, &levels), Err(e) if e.code == "not_retained"));
        let mut r = p.release_streamed(&t, &levels, AuditConfig::default().csv_options().unwrap())?;
        let mut out = Vec::new();
        for chunk in file.as_bytes().chunks(size) {
            r.push(chunk)?;
            out.extend(r.take());
        }
        let (last, _) = r.finish()?;
        out.extend(last);
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_column_without_codes_is_read_again_and_the_release_is_the_kept_ones() {
        let t = table(G_P1);
        let p = Protector::new(&t, &Normaliser::default(), &params()).unwrap();
        let want = String::from_utf8(p.release(&t, &p.node(&[("age".to_string(), 1), ("zip".to_string(), 1)].into()).unwrap()).unwrap().to_bytes()).unwrap();
        assert!(want.contains(",1048*,"), "{want}");
        for size in [1, 7, 64, G_P1.len()] {
            assert_eq!(streamed(G_P1, G_P1, size).unwrap(), want, "chunks of {size}");
        }
        // A cell read again is trimmed as a kept one is.
        let spaced = G_P1.replacen(",flu\n", ",  flu \t\n", 1);
        assert_eq!(streamed(G_P1, &spaced, 5).unwrap(), want);
    }

    #[test]
    fn another_file_is_refused_by_line_or_count() {
        let first = G_P1.find('\n').unwrap() + 1;
        let shifted = format!("{}\n{}", &G_P1[..first], &G_P1[first..]);
        let e = streamed(G_P1, &shifted, 16).unwrap_err();
        assert_eq!(e.code, "file_changed");
        assert!(e.message.contains("line 3 is not the table's row 1"), "{}", e.message);
        let shorter = &G_P1[..G_P1.trim_end().rfind('\n').unwrap() + 1];
        let e = streamed(G_P1, shorter, 16).unwrap_err();
        assert!(e.message.contains("it has 11 records, the table 12"), "{}", e.message);
        let e = streamed(G_P1, &G_P1.replacen("diagnosis", "illness", 1), 16).unwrap_err();
        assert!(e.message.contains("its header differs"), "{}", e.message);
    }
}
