//! The release written while the file is read again (spec protect.md Sec 5; issue 38, Deliver
//! 4: "streamed for files larger than memory"): for a kept table of which a column kept no
//! codes (an id or free text past the retain cap), each record's class and QI cells come from
//! the kept table and that column's cells from the file, record by record, matched to the
//! table's rows by their line (`file_changed` when they differ). Push the file's chunks, take
//! the bytes written after each (`take`), then `finish`.
//!
//! In parts, on several threads: [`RecordCount`] counts the records of each part of the file
//! and finds where it ends; each part, started at the record its count gives
//! ([`StreamedRelease::part`]), then writes its rows on its own, the parts' bytes joined in
//! file order after the header.

use super::apply::Release;
use crate::error::{Error, Result};
use crate::ingest::reader::{CsvOptions, PartBounds, Probe, Reader, RecordSink, Rows, Span};
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
    /// What a record's line adds up to its line in the file (a part counts lines from 1 at its
    /// first record).
    line_base: u64,
    /// Whether the header is written (not by a part: the parts' bytes are joined after it).
    header: bool,
    written: u64,
    out: Vec<u8>,
}

impl RecordSink for Sink<'_> {
    fn header(&mut self, names: &[String]) -> Result<()> {
        if names != self.table.header.as_slice() {
            return Err(changed("its header differs".into()));
        }
        if self.header {
            self.release.write_header(&mut self.out);
        }
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        for r in 0..rows.len() {
            let (i, row) = (self.next, rows.row(r));
            if i >= self.release.rows() || self.table.lines.line(i as u64) != row.line + self.line_base {
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
        StreamedRelease {
            csv: Reader::new(opts).without_hash(),
            sink: Sink { release, table, next: 0, line_base: 0, header: true, written: 0, out: Vec::new() },
        }
    }

    /// The release of one part of the file (`span`, exact: a [`RecordCount`]'s bounds), whose
    /// first record is the table's row `first_row`. It writes no header.
    pub(super) fn part(release: Release<'a>, table: &'a Table, opts: CsvOptions, probe: &Probe, span: Span, first_row: usize) -> Self {
        let line_base = if first_row == 0 || span.start == 0 { 0 } else { table.lines.line(first_row as u64).saturating_sub(1) };
        let sink = Sink { release, table, next: first_row, line_base, header: false, written: 0, out: Vec::new() };
        StreamedRelease { csv: Reader::part(opts, probe, span), sink }
    }

    /// The header line of the release.
    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.sink.release.write_header(&mut out);
        out
    }

    /// Whether a part has read its last record (push no more).
    pub fn done(&self) -> bool {
        self.csv.done()
    }

    /// Ends a part: its bytes (no header) and the records it wrote, and the table's row after
    /// its last record.
    pub fn finish_part(mut self) -> Result<(Vec<u8>, u64, usize)> {
        self.csv.finish(&mut self.sink)?;
        Ok((self.sink.out, self.sink.written, self.sink.next))
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

/// The first pass of a release written in parts: the records of one part of the file and
/// where it ends (a [`RecordSink`] that only counts).
pub struct RecordCount {
    csv: Reader,
    records: Counter,
}

struct Counter(u64);

impl RecordSink for Counter {
    fn header(&mut self, _: &[String]) -> Result<()> {
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        self.0 += rows.len() as u64;
        Ok(())
    }
}

impl RecordCount {
    /// Counts the records starting in `span` of a file whose start gave `probe`.
    pub fn new(opts: CsvOptions, probe: &Probe, span: Span) -> Self {
        RecordCount { csv: Reader::part(opts, probe, span), records: Counter(0) }
    }

    /// Reads the next chunk of the part.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.csv.push(chunk, &mut self.records)
    }

    /// Whether the part has its last record.
    pub fn done(&self) -> bool {
        self.csv.done()
    }

    /// Its records and bounds.
    pub fn finish(mut self) -> Result<(u64, Option<PartBounds>)> {
        self.csv.finish(&mut self.records)?;
        Ok((self.records.0, self.csv.bounds()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AuditConfig;
    use crate::ingest::cell::Normaliser;
    use crate::ingest::reader::Reader;
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

    /// The release of `file`'s table (its QIs read alone) at the node (age 1, zip 1), written
    /// whole and in `n` parts joined: (whole, parts).
    fn whole_and_parts(file: &str, n: usize) -> (Vec<u8>, Vec<u8>) {
        let config = AuditConfig { quasi_identifiers: vec!["age".into(), "zip".into(), "sex".into()], ..AuditConfig::default() };
        let mut reader = TableReader::new(crate::table::read::ReadSettings { needed_only: true, ..config.table_settings().unwrap() });
        reader.push(file.as_bytes()).unwrap();
        let t = reader.finish().unwrap().table;
        let p = Protector::new(&t, &Normaliser::default(), &params()).unwrap();
        let levels = p.node(&[("age".to_string(), 1), ("zip".to_string(), 1)].into()).unwrap();
        let opts = config.csv_options().unwrap();
        let mut whole = p.release_streamed(&t, &levels, opts.clone()).unwrap();
        whole.push(file.as_bytes()).unwrap();
        let mut parts = whole.header();
        let whole = whole.finish().unwrap().0;
        let bytes = file.as_bytes();
        let probe = Reader::probe(opts.clone(), bytes, true).unwrap();
        let feed = |start: u64, push: &mut dyn FnMut(&[u8]) -> bool| {
            for chunk in bytes[start as usize..].chunks(5) {
                if push(chunk) {
                    break;
                }
            }
        };
        // The first pass: each part's records and bounds; the parts must follow one another.
        let mut first_row = 0;
        let mut previous_end = 0;
        let count = |span: Span| -> Result<(u64, PartBounds)> {
            let mut count = RecordCount::new(opts.clone(), &probe, span);
            let mut failed = None;
            feed(span.start, &mut |c| {
                failed = count.push(c).err();
                failed.is_some() || count.done()
            });
            if let Some(e) = failed {
                return Err(e);
            }
            count.finish().map(|(records, bounds)| (records, bounds.unwrap()))
        };
        for span in Span::split(bytes.len() as u64, n) {
            // A part that guessed its start inside a quoted field (it fails, or starts elsewhere
            // than the part before ended) is counted again from that end.
            let (records, bounds) = match count(span) {
                Ok((r, b)) if span.start == 0 || b.first == previous_end => (r, b),
                _ => count(span.after(previous_end)).unwrap(),
            };
            // The second pass, from the exact start.
            let exact = Span { start: if span.start == 0 { 0 } else { bounds.first }, end: span.end, exact: true };
            let mut part = p.release_part(&t, &levels, opts.clone(), &probe, exact, first_row).unwrap();
            feed(exact.start, &mut |c| {
                part.push(c).unwrap();
                part.done()
            });
            let (out, _, next) = part.finish_part().unwrap();
            assert_eq!(next, first_row + records as usize);
            parts.extend(out);
            first_row = next;
            previous_end = bounds.end;
        }
        (whole, parts)
    }

    #[test]
    fn a_release_written_in_parts_is_the_whole_one() {
        let mut file = String::from("age,zip,sex,diagnosis\n");
        for i in 0..300 {
            // Every seventh record spans two lines: lines and records differ.
            let d = if i % 7 == 0 { format!("\"flu\nseen {i}\"") } else { format!("d{i}") };
            file.push_str(&format!("{},{},{},{d}\n", 20 + i % 30, 10480 + i % 9, ["F", "M"][i % 2]));
        }
        for n in [1, 2, 3, 5, 8] {
            let (whole, parts) = whole_and_parts(&file, n);
            assert!(whole.len() > 1000);
            assert_eq!(String::from_utf8(parts).unwrap(), String::from_utf8(whole).unwrap(), "{n} parts");
        }
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
