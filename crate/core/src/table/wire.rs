//! The binary form of a (partial) table, version 3 (issue 11; 2 adds the format, issue 14; 3
//! the header line, several ragged rows, the sketch's date forms and decimal separators, issue
//! 36): what a worker that read a byte
//! range hands to the page, or a process to another, to be merged.
//!
//! Little-endian throughout. `u64` counts, `str` = `u32` length + UTF-8 bytes, `opt<T>` = a
//! `u8` 0 or 1 then `T`.
//!
//! ```text
//! magic "PLTB" | u16 version = 3 | u16 flags = 0
//! header:  u32 columns, str name per column
//! facts:   u64 bytes, lines, records, header_records, rows_total, blank_records,
//!          error_records, ragged_rows | str encoding | str delimiter | str format
//!          | opt<str> sheet | opt<str> sha256
//!          | u32 n, str renamed column * n | u64 header line | u64 title records
//!          | u32 n, (u64 line, u64 fields) * n first ragged rows (at most 5)
//!          | u32 n, (u8 why, u64 count, u64 line, opt<str> column) * n broken records
//! bounds:  opt<u64 first, u64 end, u64 end line>     (a part of a file read in parallel)
//! retained: opt<str why not>
//! lines:   u64 rows, u32 n, (u64 row, u64 line) * n
//! column * columns:
//!          u64 cap, u8 hard | u32 n, (str text, u64 count) * n distinct values
//!          | u8 code width (0 = not retained, 1, 2 or 4), u64 rows, codes
//!          | opt<sketch: u64 * 9 form tally, f64 num lo, f64 num hi, i64 * 7 date lo,
//!            i64 * 7 date hi (per date form), u8 date forms fitting, u64 decimal-comma
//!            numbers, u64 decimal-point numbers, u64 e-mail-like, 16,384 register bytes>
//! u32 CRC-32 (IEEE) of every byte before it
//! ```
//!
//! Reading checks everything before it allocates or trusts it: lengths against the bytes
//! left, every code against its column's values, distinct values distinct, the lines, the
//! account of records, and the checksum; anything else is the error `invalid_table`.

use super::Table;
use super::codes::Codes;
use super::column::{Cap, Column};
use super::lines::Lines;
use super::sketch::{Hll, REGISTERS, Sketch};
use super::stats::{FormTally, Stats};
use super::values::Values;
use crate::error::{Error, Result};
use crate::ingest::format::Format;
use crate::ingest::reader::{BrokenRecords, InputFacts, PartBounds, RAGGED_LISTED};
use crate::ingest::tokenizer::Broken;

/// The first bytes of the format.
pub const MAGIC: &[u8; 4] = b"PLTB";

/// The version written; reading accepts only it.
pub const VERSION: u16 = 3;

/// Writes a table (and where it lies in its file, for a part) in the binary form.
pub fn to_bytes(table: &Table, bounds: Option<PartBounds>) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    w.0.extend_from_slice(MAGIC);
    w.u16(VERSION);
    w.u16(0);
    w.u32(table.header.len() as u32);
    for h in &table.header {
        w.str(h);
    }
    let f = &table.facts;
    for x in [f.bytes, f.lines, f.records, f.header_records, f.rows_total, f.blank_records, f.error_records, f.ragged_rows] {
        w.u64(x);
    }
    w.str(&f.encoding);
    w.str(&f.delimiter);
    w.str(f.format.label());
    w.opt(f.sheet.as_deref(), |w, s| w.str(s));
    w.opt(f.sha256.as_deref(), |w, s| w.str(s));
    w.u32(f.renamed_columns.len() as u32);
    for r in &f.renamed_columns {
        w.str(r);
    }
    w.u64(f.header_line);
    w.u64(f.title_records);
    w.u32(f.ragged_lines.len() as u32);
    for &(line, fields) in &f.ragged_lines {
        w.u64(line);
        w.u64(fields as u64);
    }
    w.u32(f.broken.len() as u32);
    for b in &f.broken {
        w.u8(match b.why {
            Broken::UnclosedQuote => 0,
            Broken::FieldTooLarge => 1,
            Broken::TooManyColumns => 2,
        });
        w.u64(b.count);
        w.u64(b.line);
        w.opt(b.column.as_deref(), |w, c| w.str(c));
    }
    w.opt(bounds, |w, b| {
        w.u64(b.first);
        w.u64(b.end);
        w.u64(b.end_line);
    });
    w.opt(table.not_retained.as_deref(), |w, s| w.str(s));
    w.u64(table.lines.rows());
    w.u32(table.lines.runs().len() as u32);
    for &(row, line) in table.lines.runs() {
        w.u64(row);
        w.u64(line);
    }
    for c in &table.columns {
        w.u64(c.cap.values as u64);
        w.u8(u8::from(c.cap.hard));
        w.u32(c.values.len() as u32);
        for code in 0..c.values.len() as u32 {
            w.str(c.values.text(code));
            w.u64(c.values.count(code));
        }
        match &c.codes {
            None => w.u8(0),
            Some(codes) => {
                w.u8(codes.width() as u8);
                w.u64(codes.len() as u64);
                match codes {
                    Codes::U8(v) => w.0.extend_from_slice(v),
                    Codes::U16(v) => v.iter().for_each(|&x| w.u16(x)),
                    Codes::U32(v) => v.iter().for_each(|&x| w.u32(x)),
                }
            }
        }
        w.opt(c.sketch.as_ref(), |w, s| {
            let t = &s.stats.tally;
            for x in [t.number, t.numeric_range, t.digit_mask, t.date, t.date_range, t.mask, t.text, t.missing, t.suppressed] {
                w.u64(x);
            }
            w.u64(s.stats.num_lo.to_bits());
            w.u64(s.stats.num_hi.to_bits());
            s.stats.date_lo.iter().chain(&s.stats.date_hi).for_each(|&d| w.u64(d as u64));
            w.u8(s.stats.date_fit);
            w.u64(s.stats.comma_numbers);
            w.u64(s.stats.point_numbers);
            w.u64(s.stats.email_like);
            w.0.extend_from_slice(s.hll.registers());
        });
    }
    sealed(w.0)
}

/// `bytes` with their CRC-32 appended (this format's, and the audit pieces' of
/// `identity::lattice`).
pub(crate) fn sealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// The bytes [`sealed`] sealed, when their CRC-32 matches.
pub(crate) fn unsealed(bytes: &[u8]) -> Option<&[u8]> {
    let (body, crc) = bytes.split_at_checked(bytes.len().checked_sub(4)?)?;
    (crc32fast::hash(body) == u32::from_le_bytes(crc.try_into().ok()?)).then_some(body)
}

/// Reads a table written by [`to_bytes`]; a wrong version or corrupt bytes is the error
/// `invalid_table` (or `unsupported_table_version`), never a panic.
pub fn from_bytes(bytes: &[u8]) -> Result<(Table, Option<PartBounds>)> {
    if bytes.len() < 12 || &bytes[..4] != MAGIC {
        return Err(invalid("it does not start like a stored pseudolens table"));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != VERSION {
        return Err(Error::input(
            "unsupported_table_version",
            format!("this stored table has format version {version}; this pseudolens reads version {VERSION}"),
        ));
    }
    let body = unsealed(bytes).ok_or_else(|| invalid("its checksum does not match: the bytes were damaged"))?;
    let mut r = Reader { bytes: body, at: 8, invalid };
    let ncols = r.count(4)?;
    let header = (0..ncols).map(|_| r.str()).collect::<Result<Vec<_>>>()?;
    let mut u = [0u64; 8];
    for x in &mut u {
        *x = r.u64()?;
    }
    let [bytes_read, lines, records, header_records, rows_total, blank_records, error_records, ragged_rows] = u;
    let encoding = r.str()?;
    let delimiter = r.str()?;
    let format = Format::from_label(&r.str()?).ok_or_else(|| invalid("an unknown file format"))?;
    let sheet = r.opt(|r| r.str())?;
    let sha256 = r.opt(|r| r.str())?;
    let renamed = r.count(4)?;
    let renamed_columns = (0..renamed).map(|_| r.str()).collect::<Result<Vec<_>>>()?;
    let header_line = r.u64()?;
    let title_records = r.u64()?;
    let nragged = r.count(16)?;
    if nragged > RAGGED_LISTED {
        return Err(invalid("too many ragged rows listed"));
    }
    let ragged_lines = (0..nragged).map(|_| Ok((r.u64()?, usize::try_from(r.u64()?).map_err(|_| invalid("a field count"))?))).collect::<Result<Vec<_>>>()?;
    let nbroken = r.count(17)?;
    let mut broken = Vec::with_capacity(nbroken);
    for _ in 0..nbroken {
        let why = match r.u8()? {
            0 => Broken::UnclosedQuote,
            1 => Broken::FieldTooLarge,
            2 => Broken::TooManyColumns,
            _ => return Err(invalid("an unknown kind of broken record")),
        };
        broken.push(BrokenRecords { why, count: r.u64()?, line: r.u64()?, column: r.opt(|r| r.str())? });
    }
    let facts = InputFacts {
        format,
        sheet,
        bytes: bytes_read,
        lines,
        records,
        header_records,
        rows_total,
        blank_records,
        error_records,
        encoding,
        delimiter,
        ragged_rows,
        columns: header.len(),
        sha256,
        renamed_columns,
        header_line,
        title_records,
        ragged_lines,
        broken,
    };
    if !facts.balanced() || facts.ragged_rows > facts.rows_total || facts.title_records > facts.header_records {
        return Err(invalid("its account of records does not add up"));
    }
    let bounds = r.opt(|r| Ok(PartBounds { first: r.u64()?, end: r.u64()?, end_line: r.u64()? }))?;
    if bounds.is_some_and(|b| b.end < b.first || b.end_line == 0) {
        return Err(invalid("its place in the file is impossible"));
    }
    let not_retained = r.opt(|r| r.str())?;
    let rows = r.u64()?;
    let nruns = r.count(16)?;
    let runs = (0..nruns).map(|_| Ok((r.u64()?, r.u64()?))).collect::<Result<Vec<_>>>()?;
    let lines = Lines::from_runs(runs, rows).ok_or_else(|| invalid("its line numbers are impossible"))?;
    if rows != 0 && rows != rows_total {
        return Err(invalid("its line numbers do not match its rows"));
    }
    let mut columns = Vec::with_capacity(header.len());
    for _ in 0..header.len() {
        let cap = Cap { values: usize::try_from(r.u64()?).map_err(|_| invalid("a cap"))?, hard: r.u8()? != 0 };
        let n = r.count(12)?;
        let mut values = Values::default();
        for code in 0..n {
            let text = r.text()?;
            let count = r.u64()?;
            // A column keeps its values trimmed: an untrimmed one would be taken for a value it
            // already has once trimmed.
            if text.trim_matches(char::is_whitespace).len() != text.len() {
                return Err(invalid("a value is not trimmed"));
            }
            if values.add_text(text, count) != Some(code as u32) {
                return Err(invalid("a column repeats a value"));
            }
        }
        let codes = match r.u8()? {
            0 => None,
            width @ (1 | 2 | 4) => {
                let len = usize::try_from(r.u64()?).map_err(|_| invalid("a row count"))?;
                let data = r.take(len.checked_mul(width as usize).ok_or_else(|| invalid("a row count"))?)?;
                let codes = match width {
                    1 => Codes::U8(data.to_vec()),
                    2 => Codes::U16(data.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()),
                    _ => Codes::U32(data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()),
                };
                if codes.len() as u64 != rows_total || codes.most().is_some_and(|m| m as usize >= n) {
                    return Err(invalid("a column's codes do not fit its values or rows"));
                }
                Some(codes)
            }
            _ => return Err(invalid("an unknown code width")),
        };
        let sketch = r.opt(|r| {
            let mut t = [0u64; 9];
            for x in &mut t {
                *x = r.u64()?;
            }
            let tally = FormTally {
                number: t[0],
                numeric_range: t[1],
                digit_mask: t[2],
                date: t[3],
                date_range: t[4],
                mask: t[5],
                text: t[6],
                missing: t[7],
                suppressed: t[8],
            };
            let (num_lo, num_hi) = (f64::from_bits(r.u64()?), f64::from_bits(r.u64()?));
            let (mut date_lo, mut date_hi) = ([0i64; 7], [0i64; 7]);
            for d in date_lo.iter_mut().chain(date_hi.iter_mut()) {
                *d = r.u64()? as i64;
            }
            let stats =
                Stats { tally, num_lo, num_hi, date_lo, date_hi, date_fit: r.u8()?, comma_numbers: r.u64()?, point_numbers: r.u64()?, email_like: r.u64()? };
            let hll = Hll::from_registers(r.take(REGISTERS)?).ok_or_else(|| invalid("a distinct-count sketch is damaged"))?;
            Ok(Sketch { stats, hll })
        })?;
        // Every row has one cell in every column: counted by a value, or by the sketch.
        let cells = values
            .counts()
            .iter()
            .chain(sketch.as_ref().map(|s| &s.stats.tally).iter().flat_map(|t| tally_cells(t)))
            .try_fold(0u64, |sum, &x| sum.checked_add(x));
        if cells != Some(rows_total) || sketch.as_ref().is_some_and(|s| !sane(&s.stats)) {
            return Err(invalid("a column's counts do not add up to its rows"));
        }
        columns.push(Column { cap, values, codes, sketch });
    }
    if r.at != body.len() {
        return Err(invalid("bytes are left over after the last column"));
    }
    let mut seen = crate::hash::map::<String, ()>();
    if header.iter().any(|h| seen.insert(h.clone(), ()).is_some()) {
        return Err(invalid("it names a column twice"));
    }
    Ok((Table::assemble(header, columns, facts, lines, not_retained), bounds))
}

/// The cells a sketch counted, by form (a digit mask is also counted as a numeric range).
fn tally_cells(t: &FormTally) -> [&u64; 8] {
    [&t.number, &t.numeric_range, &t.date, &t.date_range, &t.mask, &t.text, &t.missing, &t.suppressed]
}

/// Whether a sketch's ranges are ones a read could produce (none, or ordered and finite dates
/// within a million years).
fn sane(s: &Stats) -> bool {
    let dates =
        s.date_lo.iter().zip(&s.date_hi).all(|(&lo, &hi)| (lo == i64::MAX && hi == i64::MIN) || (lo <= hi && lo.abs() < 400_000_000 && hi.abs() < 400_000_000));
    let numbers = (s.num_lo == f64::INFINITY && s.num_hi == f64::NEG_INFINITY) || (s.num_lo.is_finite() && s.num_hi.is_finite() && s.num_lo <= s.num_hi);
    let forms = s.date_fit <= crate::ingest::cell::ALL_DATE_FORMS && s.comma_numbers <= s.tally.text && s.point_numbers <= s.tally.number;
    dates && numbers && forms && s.tally.digit_mask <= s.tally.numeric_range && s.email_like <= s.tally.text
}

fn invalid(why: &str) -> Error {
    Error::input("invalid_table", format!("this stored table cannot be read: {why}"))
}

/// Little-endian numbers appended to stored bytes (this format's, and the audit pieces' of
/// `identity::lattice`).
pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    pub(crate) fn u8(&mut self, x: u8) {
        self.0.push(x);
    }
    fn u16(&mut self, x: u16) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
    pub(crate) fn opt<T>(&mut self, x: Option<T>, f: impl FnOnce(&mut Writer, T)) {
        match x {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                f(self, x);
            }
        }
    }
}

/// Little-endian numbers read from the front of stored bytes; `invalid` makes the error of
/// bytes that end too early or hold a wrong value (each format has its own).
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    invalid: fn(&str) -> Error,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from their start.
    pub(crate) fn new(bytes: &'a [u8], invalid: fn(&str) -> Error) -> Self {
        Reader { bytes, at: 0, invalid }
    }
    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| (self.invalid)("it ends too early"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    /// A `u32` count of items of at least `min` bytes each: never more than the bytes left.
    pub(crate) fn count(&mut self, min: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min) > self.bytes.len() - self.at {
            return Err((self.invalid)("a count is larger than the bytes that follow"));
        }
        Ok(n)
    }
    fn str(&mut self) -> Result<String> {
        self.text().map(str::to_string)
    }
    /// A `str`, borrowed from the bytes (a column's values: no allocation each).
    fn text(&mut self) -> Result<&'a str> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        std::str::from_utf8(b).map_err(|_| (self.invalid)("a text is not UTF-8"))
    }
    pub(crate) fn opt<T>(&mut self, f: impl FnOnce(&mut Reader<'a>) -> Result<T>) -> Result<Option<T>> {
        match self.u8()? {
            0 => Ok(None),
            1 => f(self).map(Some),
            _ => Err((self.invalid)("a flag is neither 0 nor 1")),
        }
    }
}
