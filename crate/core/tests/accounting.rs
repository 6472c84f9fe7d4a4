//! Every record is accounted for (issue 10): for random files with random quoting, line ends,
//! blank lines, a BOM and broken quotes, the report's records are the file's records, built
//! here independently of the reader: header + blank + audited + in error = records.

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::ingest::reader::Ragged;
use pseudolens_core::{Audit, AuditConfig, AuditPart, Error, Part, PartBounds, Probe, Reader, ReadsTable, Report, Span, TableReader, audit_table};

/// A generated file and what it holds.
#[derive(Debug, Clone)]
struct File {
    bytes: Vec<u8>,
    data: u64,
    blank: u64,
    /// A record whose quote never closes: the line it opened on, and the data records after
    /// it (read again under lenient reading).
    broken: Option<(u64, u64)>,
}

/// Line ends in `text` (CRLF, LF, lone CR): what the next line's number is, minus one.
fn line_ends(text: &[u8]) -> u64 {
    let mut n = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' && (i == 0 || text[i - 1] != b'\r') || b == b'\r' {
            n += 1;
        }
    }
    n
}

/// Appends a line end, never letting a LF join a CR before it into one CRLF.
fn push_end(out: &mut Vec<u8>, end: &[u8]) {
    if out.last() == Some(&b'\r') && end[0] == b'\n' {
        out.push(b'\r');
    }
    out.extend_from_slice(end);
}

fn field_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![Just('a'), Just('b'), Just(' '), Just(','), Just('"'), Just('\n'), Just('\r'), Just('é')], 0..6)
        .prop_map(|c| c.into_iter().collect())
}

/// Writes a field, quoted when it must be (or when `quote` says so anyway).
fn write_field(out: &mut Vec<u8>, text: &str, quote: bool) {
    let must = text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.is_empty();
    if quote || must {
        out.push(b'"');
        out.extend_from_slice(text.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(text.as_bytes());
    }
}

fn file() -> impl Strategy<Value = File> {
    let record = proptest::collection::vec((field_text(), any::<bool>()), 3);
    let line = (record, 0..3usize, 0..4usize);
    (proptest::collection::vec(line, 0..12), any::<bool>(), any::<bool>(), 0..3usize, proptest::option::of(0..4u64)).prop_map(
        |(lines, bom, final_end, header_end, broken)| {
            let ends: [&[u8]; 3] = [b"\n", b"\r\n", b"\r"];
            let mut bytes = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
            bytes.extend_from_slice(b"c1,c2,c3");
            bytes.extend_from_slice(ends[header_end]);
            let (mut data, mut blank) = (0, 0);
            for (fields, end, blanks) in &lines {
                for _ in 0..(*blanks).saturating_sub(2) {
                    push_end(&mut bytes, ends[*end]);
                    blank += 1;
                }
                for (j, (text, quote)) in fields.iter().enumerate() {
                    if j > 0 {
                        bytes.push(b',');
                    }
                    write_field(&mut bytes, text, *quote);
                }
                push_end(&mut bytes, ends[*end]);
                data += 1;
            }
            let broken = broken.map(|after| {
                let line = line_ends(&bytes) + 1;
                bytes.extend_from_slice(b"x,y,\"never closed");
                for _ in 0..after {
                    bytes.extend_from_slice(b"\n1,2,3");
                }
                (line, after)
            });
            if final_end && broken.is_none() && !lines.is_empty() {
                // An extra line end at the very end is an empty record: a blank one.
                push_end(&mut bytes, b"\n");
                blank += 1;
            }
            File { bytes, data, blank, broken }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_record_is_accounted_for(f in file(), chunk in 1usize..64, lenient in any::<bool>()) {
        let config = AuditConfig { ragged: if lenient { Ragged::PadOrTruncate } else { Ragged::Error }, ..qi(&["c1"]) };
        let result = audit_chunked(&f.bytes, &config, chunk);
        match (f.broken, lenient) {
            (Some((line, _)), false) => {
                let e = result.unwrap_err();
                prop_assert_eq!((e.code, e.line, e.column.as_deref()), ("unclosed_quote", Some(line), Some("c3")));
            }
            _ => {
                let r = result.unwrap();
                let (error, after) = f.broken.map_or((0, 0), |(_, after)| (1, after));
                let i = &r.input;
                prop_assert_eq!(i.bytes, f.bytes.len() as u64);
                prop_assert_eq!((i.header_records, i.rows_total, i.blank_records, i.error_records), (1, f.data + after, f.blank, error));
                prop_assert_eq!(i.records, 1 + f.data + after + f.blank + error);
                prop_assert_eq!(value(&r, "n_records_total"), &serde_json::json!(f.data + after));
                prop_assert_eq!(r.warnings.iter().any(|w| w.code == "partial_read"), error > 0);
            }
        }
    }
}

/// A part of a file read on its own, as the CLI's threads and the page's workers read them.
trait FilePart: Sized {
    fn bounds(&self) -> PartBounds;
    /// What the CLI orders its merges by.
    fn size(&self) -> usize;
    fn merge(&mut self, next: Self);
}

impl FilePart for AuditPart {
    fn bounds(&self) -> PartBounds {
        self.bounds.unwrap()
    }
    fn size(&self) -> usize {
        self.classes()
    }
    fn merge(&mut self, next: Self) {
        AuditPart::merge(self, next).unwrap();
    }
}

impl FilePart for Part {
    fn bounds(&self) -> PartBounds {
        self.bounds.unwrap()
    }
    fn size(&self) -> usize {
        self.table.facts.rows_total as usize
    }
    fn merge(&mut self, next: Self) {
        Part::merge(self, next).unwrap();
    }
}

/// Reads `bytes` as the CLI does on several threads (here one after another): the file cut
/// at `cuts`, each part read from its cut by `read` in pieces of `chunk`, a part whose guessed
/// start was wrong (its bounds say so, or its guess made it fail) read again from where the
/// part before it ended, the parts merged in order. With `late`, each part is started as if
/// it ran to the end of the file and is cut to its own end just before its reader is given a
/// byte past it (the CLI's split of a part for a thread that has finished its own). With
/// `smallest_first`, the smallest part is merged into the one before it first, as the CLI
/// merges them (`par::merge_smallest_first`); else from the first part on. `None` when
/// the probe declines (the caller reads on one thread).
#[allow(clippy::too_many_arguments)]
fn in_parts<R: ReadsTable, P: FilePart>(
    bytes: &[u8],
    config: &AuditConfig,
    cuts: &[u64],
    chunk: usize,
    late: bool,
    smallest_first: bool,
    start: impl Fn(&Probe, Span) -> Result<R, Error>,
    part: impl Fn(R::Part) -> P,
) -> Option<Result<P, Error>> {
    let probe = Reader::probe(config.csv_options().unwrap(), bytes, true)?;
    let mut starts: Vec<u64> = cuts.iter().copied().filter(|&c| c > 0 && c < bytes.len() as u64).collect();
    starts.push(0);
    starts.sort_unstable();
    starts.dedup();
    let read_as = |span: Span, late: bool| -> Result<P, Error> {
        let mut a = start(&probe, if late { Span { end: u64::MAX, ..span } } else { span })?;
        let (mut given, mut cut) = (span.start, !late);
        for piece in bytes[span.start as usize..].chunks(chunk) {
            if a.reader().done() {
                break;
            }
            given += piece.len() as u64;
            // (A part read again after the one before it ended past its whole span has its
            // end before its start: it stops at its first record either way.)
            let end = span.end.max(span.start);
            if !cut && given > end {
                assert!(a.reader().end_at(end), "a part cuts at a byte not yet given");
                cut = true;
            }
            a.reader().push(piece)?;
        }
        a.finish_part().map(&part)
    };
    // A part cut late ends where it would have ended had it known its end from the start.
    let read = |span: Span| -> Result<P, Error> {
        let p = read_as(span, late);
        if late && let (Ok(p), Ok(q)) = (&p, read_as(span, false)) {
            assert_eq!(p.bounds(), q.bounds(), "a part cut late at {span:?}");
        }
        p
    };
    let mut read_parts: Vec<P> = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let span = Span { start: s, end: starts.get(i + 1).copied().unwrap_or(u64::MAX), exact: i == 0 };
        let read_once = read(span);
        let next = match (read_parts.last().map(|p| p.bounds().end), read_once) {
            (None, Ok(p)) => p,
            (Some(end), Ok(p)) if p.bounds().first == end => p,
            (None, Err(e)) => return Some(Err(e)),
            (Some(end), _) => match read(span.after(end)) {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            },
        };
        read_parts.push(next);
    }
    // Merged in file order, from the first part on or (as the CLI does) the smallest first.
    let merged = if smallest_first {
        pseudolens_core::par::merge_smallest_first(read_parts, P::size, |a, b| -> Result<(), ()> {
            a.merge(b);
            Ok(())
        })
        .ok()??
    } else {
        let mut parts = read_parts.into_iter();
        let mut merged = parts.next()?;
        parts.for_each(|next| merged.merge(next));
        merged
    };
    Some(Ok(merged))
}

/// The audit of `bytes` read in parts.
fn read_in_parts(bytes: &[u8], config: &AuditConfig, cuts: &[u64], chunk: usize, late: bool, smallest_first: bool) -> Option<Result<Report, Error>> {
    let parts = in_parts(bytes, config, cuts, chunk, late, smallest_first, |probe, span| Audit::part(config.clone(), probe, span), |p| p);
    parts.map(|r| r.map(AuditPart::finish))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parts_read_apart_give_the_one_pass_report(
        f in file(), cuts in proptest::collection::vec(any::<u64>(), 1..5), chunk in 1usize..40, lenient in any::<bool>(), late in any::<bool>(), smallest_first in any::<bool>(),
    ) {
        let config = AuditConfig { ragged: if lenient { Ragged::PadOrTruncate } else { Ragged::Error }, hipaa: true, ..qi(&["c1", "c3"]) };
        let cuts: Vec<u64> = cuts.iter().map(|c| c % (f.bytes.len() as u64 + 1)).collect();
        let whole = audit_chunked(&f.bytes, &config, 64);
        match (read_in_parts(&f.bytes, &config, &cuts, chunk, late, smallest_first), whole) {
            (None, _) => {}
            (Some(Ok(mut parts)), Ok(whole)) => {
                parts.input.sha256 = whole.input.sha256.clone();
                prop_assert_eq!(&parts.input, &whole.input);
                prop_assert_eq!(&parts.columns, &whole.columns);
                prop_assert_eq!(parts.metrics, whole.metrics);
                prop_assert_eq!(parts.warnings, whole.warnings);
            }
            // An error in parts is read again on one thread by the CLI; it must be an error there too.
            (Some(Err(_)), Err(_)) => {}
            (p, w) => prop_assert!(false, "parts {:?} whole {:?}", p.map(|r| r.map(|r| r.input)), w.map(|r| r.input)),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// SUDA's per-record outputs name rows of the whole file when it is read in parts.
    #[test]
    fn parts_with_suda_give_the_one_pass_report(f in file(), cuts in proptest::collection::vec(any::<u64>(), 1..5), chunk in 1usize..40) {
        let mut config = qi(&["c1", "c2", "c3"]);
        config.suda.suda = true;
        config.per_record = true;
        let cuts: Vec<u64> = cuts.iter().map(|c| c % (f.bytes.len() as u64 + 1)).collect();
        let whole = audit_chunked(&f.bytes, &config, 64);
        if let (Some(Ok(parts)), Ok(whole)) = (read_in_parts(&f.bytes, &config, &cuts, chunk, true, true), whole) {
            // Each record's class (and SUDA's scores) follow it across the cuts.
            prop_assert!(whole.per_record.is_some() || whole.metrics.iter().all(|m| m.id != "record_risk" || m.status != pseudolens_core::metric::Status::Ok));
            prop_assert_eq!(&parts.per_record, &whole.per_record);
            prop_assert_eq!(parts.metrics, whole.metrics);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// The household risk (peer-measures.md Sec 2) of a file read in parts, or kept in parts
    /// and merged, is the one-pass report's: each part's (household, class) counts merge
    /// exactly, whatever the cuts.
    #[test]
    fn parts_with_households_give_the_one_pass_report(f in file(), cuts in proptest::collection::vec(any::<u64>(), 1..5), chunk in 1usize..40) {
        let config = AuditConfig { household_column: Some("c2".into()), per_record: true, ..qi(&["c1", "c3"]) };
        let cuts: Vec<u64> = cuts.iter().map(|c| c % (f.bytes.len() as u64 + 1)).collect();
        let whole = audit_chunked(&f.bytes, &config, 64);
        let households = |r: &Report| -> Vec<pseudolens_core::metric::MetricResult> { r.metrics.iter().filter(|m| m.id.starts_with("household_risk")).cloned().collect() };
        if let Ok(whole) = &whole {
            prop_assert_eq!(households(whole).len(), 2);
        }
        if let (Some(Ok(parts)), Ok(whole)) = (read_in_parts(&f.bytes, &config, &cuts, chunk, true, true), &whole) {
            prop_assert_eq!(households(&parts), households(whole));
            prop_assert_eq!(&parts.metrics, &whole.metrics);
        }
        if let (Some(Ok(kept)), Ok(whole)) = (tables_in_parts(&f.bytes, &config, &cuts), &whole) {
            prop_assert_eq!(households(&kept), households(whole));
            prop_assert_eq!(&kept.metrics, &whole.metrics);
        }
    }
}

/// Reads `bytes` into kept tables part by part (cut at `cuts`), each part through its binary
/// form as a worker hands it over (what comes back writes the same bytes), merged in order;
/// then audits the merged table.
fn tables_in_parts(bytes: &[u8], config: &AuditConfig, cuts: &[u64]) -> Option<Result<Report, Error>> {
    let through_bytes = |p: Part| {
        let wire = p.to_bytes();
        let back = Part::from_bytes(&wire).expect("a written table reads back");
        assert_eq!(back.to_bytes(), wire);
        back
    };
    let parts = in_parts(bytes, config, cuts, 5, true, false, |probe, span| Ok(TableReader::part(config.table_settings()?, probe, span)), through_bytes)?;
    Some(parts.and_then(|p| audit_table(&p.table, config, &pseudolens_core::Sides::default())))
}

/// The classes of a kept table, found by sorting the rows' keys, pass the memory budget at the
/// row the streaming read does: the same message (classes so far) and line.
#[test]
fn a_kept_table_meets_the_memory_budget_where_the_streaming_read_does() {
    let mut csv = String::from("id,b\n");
    for i in 0..5000 {
        csv.push_str(&format!("{},{}\n", i % 1700, i % 3));
    }
    for budget in [20_000, 30_000, 200_000] {
        let config = AuditConfig { memory_budget: budget, ..qi(&["id", "b"]) };
        let mut reader = TableReader::new(qi(&[]).table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        let kept = audit_table(&reader.finish().unwrap().table, &config, &pseudolens_core::Sides::default());
        match (kept, audit_chunked(csv.as_bytes(), &config, 1 << 20)) {
            (Err(k), Err(s)) => {
                assert_eq!(k.code, "memory_budget_exceeded");
                assert_eq!((k.message, k.line), (s.message, s.line), "budget {budget}");
            }
            (Ok(k), Ok(s)) => assert!(serde_json::to_value(&k.metrics).unwrap() == serde_json::to_value(&s.metrics).unwrap(), "budget {budget}: other metrics"),
            (k, s) => panic!("budget {budget}: kept {:?}, streaming {:?}", k.err(), s.err()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn kept_tables_through_bytes_and_merged_give_the_streaming_report(
        f in file(), cuts in proptest::collection::vec(any::<u64>(), 0..4), lenient in any::<bool>(),
    ) {
        let config = AuditConfig { ragged: if lenient { Ragged::PadOrTruncate } else { Ragged::Error }, sensitive: vec!["c2".into()], hipaa: true, per_record: true, ..qi(&["c1", "c3"]) };
        let cuts: Vec<u64> = cuts.iter().map(|c| c % (f.bytes.len() as u64 + 1)).collect();
        match (tables_in_parts(&f.bytes, &config, &cuts), audit_chunked(&f.bytes, &config, 64)) {
            (None, _) | (Some(Err(_)), Err(_)) => {}
            (Some(Ok(mut kept)), Ok(whole)) => {
                // The per-record values from the kept table's row codes are the streaming read's.
                prop_assert_eq!(&kept.per_record, &whole.per_record);
                kept.input.sha256 = whole.input.sha256.clone();
                prop_assert_eq!(&kept.input, &whole.input);
                prop_assert_eq!(&kept.columns, &whole.columns);
                prop_assert_eq!(kept.metrics, whole.metrics);
                prop_assert_eq!(kept.warnings, whole.warnings);
                prop_assert_eq!(kept.read.mode, "retained");
            }
            (k, w) => prop_assert!(false, "kept {:?} whole {:?}", k.map(|r| r.map(|r| r.input)), w.map(|r| r.input)),
        }
    }

    #[test]
    fn damaged_table_bytes_are_an_error_never_a_panic(f in file(), flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)) {
        let mut a = TableReader::new(qi(&["c1"]).table_settings().unwrap());
        a.push(&f.bytes).unwrap();
        let part = a.finish();
        if let Ok(part) = part {
            let mut wire = part.to_bytes();
            let body = wire.len() - 4;
            for (at, x) in flips {
                wire[at % body] ^= x | 1;
            }
            // Damaged bytes with a fresh checksum reach every check behind it.
            let crc = crc32(&wire[..body]);
            wire[body..].copy_from_slice(&crc.to_le_bytes());
            match Part::from_bytes(&wire) {
                Err(e) => prop_assert!(["invalid_table", "unsupported_table_version"].contains(&e.code), "{}", e.code),
                // A table that passes every check audits without a panic.
                Ok(part) => {
                    let _ = audit_table(&part.table, &qi(&["c1"]), &pseudolens_core::Sides::default());
                }
            }
            // And with the old checksum, always an error.
            wire[body] ^= 0xff;
            prop_assert!(Part::from_bytes(&wire).is_err());
        }
    }
}

/// CRC-32 (IEEE), bit by bit: the checksum the stored form ends with.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Rows of a two-QI table with a sensitive column whose cells differ only by case (no missing
/// token with an upper-case letter, so that lower-casing the file beforehand keeps the blanks).
fn mixed_case_csv() -> impl Strategy<Value = Vec<u8>> {
    let cell = prop::sample::select(vec!["Male", "male", "MALE", "Ärzte", "ärzte", "ÄRZTE", "x", "X", "null", "*", "", " Émile ", "émile"]);
    let row = (cell.clone(), cell.clone(), cell);
    proptest::collection::vec(row, 1..50).prop_map(|rows| {
        let mut s = String::from("a,b,s\n");
        for (a, b, c) in rows {
            s.push_str(&format!("{a},{b},{c}\n"));
        }
        s.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// `case_insensitive` (spec README Sec 5 step 5): the audit equals the audit of the file
    /// lower-cased beforehand, streamed in any chunking, read in parts, or kept in parts and
    /// merged.
    #[test]
    fn case_insensitive_equals_the_file_lower_cased(bytes in mixed_case_csv(), cuts in proptest::collection::vec(any::<u64>(), 1..4), chunk in 1usize..40) {
        let config = AuditConfig { case_insensitive: true, sensitive: vec!["s".into()], ..qi(&["a", "b"]) };
        let lower = String::from_utf8(bytes.clone()).unwrap().to_lowercase().into_bytes();
        let want = audit_chunked(&lower, &AuditConfig { case_insensitive: false, ..config.clone() }, 64).unwrap();
        let streamed = audit_chunked(&bytes, &config, chunk).unwrap();
        prop_assert_eq!(&streamed.metrics, &want.metrics);
        let cuts: Vec<u64> = cuts.iter().map(|c| c % (bytes.len() as u64 + 1)).collect();
        if let Some(parts) = read_in_parts(&bytes, &config, &cuts, chunk, false, true) {
            prop_assert_eq!(&parts.unwrap().metrics, &want.metrics);
        }
        if let Some(kept) = tables_in_parts(&bytes, &config, &cuts) {
            prop_assert_eq!(&kept.unwrap().metrics, &want.metrics);
        }
    }
}
