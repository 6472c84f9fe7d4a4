//! Records and fields of CSV text (spec README Sec 6), pushed in chunks cut anywhere.
//!
//! The rules, which `docs/decisions/ingest/` states for users:
//! - Line ends are CRLF, LF or a lone CR, each one line end. Lines are counted everywhere,
//!   inside quoted fields too, so every position has its 1-based line.
//! - A `"` at the very start of a field opens a quoted field; inside it `""` is a quote and a
//!   `"` followed by anything else closes it; what follows the closing quote up to the next
//!   delimiter or line end belongs to the same field. A `"` anywhere else is an ordinary
//!   character (RFC 4180 as `csv-core` and spreadsheets read it).
//! - A record ends at a line end outside quotes, or at the end of the input. An empty line is
//!   an empty record (the reader counts it as blank), so every record of the file is seen.
//! - A quote still open at the end of the input, and a field longer than [`MAX_FIELD_BYTES`],
//!   are errors naming the line where the quote opened (or the field started). In lenient
//!   mode the record is handed out as broken instead and reading goes on: after an unclosed
//!   quote (or a too-long quoted field that spans lines) at the line after the one where the
//!   quote opened; after a too-long field on one line, at the next line.
//!
//! The input must be ASCII-compatible (UTF-8, Windows-1252, or UTF-16 already decoded to
//! UTF-8): delimiters, quotes and line ends are ASCII bytes, never part of a longer character.
//! Fields are copied out unquoted into [`Batch::bytes`]; no allocation per field.

use crate::error::{Error, Result};
use crate::ingest::stops::Stops;

/// The longest field accepted, in bytes: 10 MiB.
pub const MAX_FIELD_BYTES: usize = 10 << 20;

/// The most fields a record may have.
pub const MAX_COLUMNS: usize = 100_000;

/// Why a record could not be read (lenient mode hands such records out instead of failing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Broken {
    /// A quoted field was still open at the end of the input.
    UnclosedQuote,
    /// A field was longer than [`MAX_FIELD_BYTES`].
    FieldTooLarge,
    /// A record had more than [`MAX_COLUMNS`] fields (always an error).
    TooManyColumns,
}

/// What a record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecKind {
    /// Fields, at least one.
    Fields,
    /// An empty line.
    Empty,
    /// A record that could not be read: why, the line of the problem (where the quote opened,
    /// or where the field started) and the 0-based index of the field.
    Broken(Broken, u64, u32),
}

/// One record of a [`Batch`].
#[derive(Debug, Clone, Copy)]
pub struct Rec {
    /// Offset in [`Batch::bytes`] of its first field.
    pub start: u32,
    /// Index in [`Batch::ends`] of its first field's end.
    pub first: u32,
    /// Number of fields (0 unless `kind` is `Fields`).
    pub fields: u32,
    /// The line it starts on.
    pub line: u64,
    /// The line it ends on.
    pub last_line: u64,
    /// Offset in the input of its first byte.
    pub offset: u64,
    /// Whether one of its fields was quoted.
    pub quoted: bool,
    /// What it is.
    pub kind: RecKind,
}

/// Complete records, their fields unquoted into one buffer; the record being read continues
/// at the end of the buffers.
#[derive(Debug, Default)]
pub struct Batch {
    /// Field bytes, one after another.
    pub bytes: Vec<u8>,
    /// End offset in `bytes` of each field.
    pub ends: Vec<u32>,
    /// The complete records.
    pub recs: Vec<Rec>,
}

impl Batch {
    /// The bytes of field `j` of record `r`; empty past its last field.
    #[inline]
    pub fn field(&self, r: usize, j: usize) -> &[u8] {
        let rec = &self.recs[r];
        if j >= rec.fields as usize {
            return &[];
        }
        let i = rec.first as usize + j;
        let start = if j == 0 { rec.start as usize } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between records.
    RecordStart,
    /// At the start of a field.
    FieldStart,
    /// In an unquoted field (or after a quoted part).
    Unquoted,
    /// Inside quotes.
    Quoted,
    /// Inside quotes, just after a `"`.
    QuoteInQuoted,
    /// Skipping the rest of a broken record up to the next line end.
    Skip,
}

/// An error of the tokenizer, before the reader names the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problem {
    /// What went wrong.
    pub broken: Broken,
    /// Line of the problem (where the quote opened, or where the field started).
    pub line: u64,
    /// 0-based field index.
    pub field: u32,
    /// Whether the field was quoted and ran over several lines (a likely missing quote).
    pub multiline: bool,
    /// The line the input ended on (unclosed quote) or the line reached.
    pub reached: u64,
}

/// The push-driven tokenizer.
pub struct Tokenizer {
    delim: u8,
    lenient: bool,
    state: State,
    /// Bytes consumed so far.
    consumed: u64,
    /// Line of the current position.
    line: u64,
    /// The last byte consumed was a CR: a LF right after it belongs to the same line end.
    after_cr: bool,
    rec_line: u64,
    rec_offset: u64,
    rec_quoted: bool,
    field_start: usize,
    quote_line: u64,
    /// Lenient mode, inside a quoted field that crossed a line end: the input since the first
    /// line end after the opening quote, to read again if the quote turns out to be broken.
    resync: Option<Vec<u8>>,
    /// The input offset where the resync copy starts, and whether the line end before it
    /// was a CR (so a LF starting the copy belongs to it).
    resync_at: (u64, bool),
    skip_why: (Broken, u64, u32),
    /// The last byte consumed (none yet: `None`).
    last: Option<u8>,
    /// Where the record being read begins in `batch.ends` and in `batch.bytes`.
    open_first: usize,
    open_start: usize,
    /// The records and the record being read.
    pub batch: Batch,
}

impl Tokenizer {
    /// A tokenizer for this delimiter; `lenient` hands broken records out instead of failing.
    pub fn new(delim: u8, lenient: bool) -> Self {
        Tokenizer {
            delim,
            lenient,
            state: State::RecordStart,
            consumed: 0,
            line: 1,
            after_cr: false,
            rec_line: 1,
            rec_offset: 0,
            rec_quoted: false,
            field_start: 0,
            quote_line: 0,
            resync: None,
            resync_at: (0, false),
            skip_why: (Broken::FieldTooLarge, 0, 0),
            last: None,
            open_first: 0,
            open_start: 0,
            batch: Batch::default(),
        }
    }

    /// Starts counting lines at `line` (a tokenizer that starts after a header, say).
    pub fn with_line(mut self, line: u64) -> Self {
        self.line = line;
        self
    }

    /// The line of the current position.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Bytes consumed so far (plus the offset given to [`Tokenizer::set_offset`]).
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Counts input offsets from `offset` (a tokenizer reading part of a file).
    pub fn set_offset(&mut self, offset: u64) {
        self.consumed = offset;
    }

    /// The delimiter.
    pub fn delim(&self) -> u8 {
        self.delim
    }

    /// The 0-based index of the field being read (0 between records).
    pub fn field_index(&self) -> usize {
        match self.state {
            State::RecordStart => 0,
            _ => self.batch.ends.len() - self.current_first(),
        }
    }

    /// Lines of the input read so far: the current line, unless the input ended right after
    /// a line end.
    pub fn lines(&self) -> u64 {
        if self.last.is_none_or(|b| b == b'\n' || b == b'\r') { self.line - 1 } else { self.line }
    }

    /// Whether the tokenizer stands between records.
    pub fn at_record_start(&self) -> bool {
        self.state == State::RecordStart
    }

    /// Index in `batch.ends` of the first field of the record being read.
    fn current_first(&self) -> usize {
        self.open_first
    }

    /// Offset in `batch.bytes` where the record being read starts.
    fn current_start(&self) -> usize {
        self.open_start
    }

    /// Drops the complete records (after the caller used them), keeping the record being read.
    pub fn compact(&mut self) {
        let (first, start) = (self.current_first(), self.current_start());
        let b = &mut self.batch;
        b.recs.clear();
        if first == 0 && start == 0 {
            return;
        }
        b.bytes.drain(..start);
        b.ends.drain(..first);
        for e in &mut b.ends {
            *e -= start as u32;
        }
        self.field_start = self.field_start.saturating_sub(start);
        self.open_first = 0;
        self.open_start = 0;
    }

    /// Reads `input`; complete records are appended to [`Tokenizer::batch`].
    pub fn push(&mut self, input: &[u8]) -> std::result::Result<(), Problem> {
        let n = input.len();
        let base = self.consumed;
        let mut i = 0;
        // Where the resync copy of this chunk starts, when one is being kept.
        let mut keep_from: Option<usize> = self.resync.as_ref().map(|_| 0);
        let mut stops = Stops::new(self.delim);
        while i < n {
            match self.state {
                State::RecordStart => {
                    let b = input[i];
                    if self.after_cr && b == b'\n' {
                        self.after_cr = false;
                        i += 1;
                        continue;
                    }
                    self.after_cr = false;
                    self.rec_offset = base + i as u64;
                    if b == b'\n' || b == b'\r' {
                        self.empty_record();
                        self.line_end(b);
                        i += 1;
                        continue;
                    }
                    self.rec_line = self.line;
                    self.rec_quoted = false;
                    self.state = State::FieldStart;
                }
                State::FieldStart => {
                    self.field_start = self.batch.bytes.len();
                    if input[i] == b'"' {
                        self.quote_line = self.line;
                        self.rec_quoted = true;
                        self.state = State::Quoted;
                        i += 1;
                    } else {
                        self.state = State::Unquoted;
                    }
                }
                State::Unquoted => loop {
                    let run = stops.next(input, i);
                    copy_run(&mut self.batch.bytes, input, i, run);
                    i = run;
                    if self.batch.bytes.len() - self.field_start > MAX_FIELD_BYTES {
                        self.too_large(false)?;
                        break;
                    }
                    if i == n {
                        break;
                    }
                    let b = input[i];
                    i += 1;
                    self.end_field()?;
                    if b != self.delim {
                        self.end_record(RecKind::Fields);
                        self.line_end(b);
                        break;
                    }
                    // The next field: read on here unless it opens a quote.
                    self.field_start = self.batch.bytes.len();
                    if i == n || input[i] == b'"' {
                        self.state = State::FieldStart;
                        break;
                    }
                },
                State::Quoted => {
                    let run = memchr::memchr(b'"', &input[i..]).map_or(n, |p| i + p);
                    let crossed = self.count_lines(&input[i..run]);
                    if let (true, None, Some((p, cr))) = (self.lenient, keep_from, crossed) {
                        self.resync = Some(Vec::new());
                        self.resync_at = (base + (i + p) as u64, cr);
                        keep_from = Some(i + p);
                    }
                    self.batch.bytes.extend_from_slice(&input[i..run]);
                    i = run;
                    if self.batch.bytes.len() - self.field_start > MAX_FIELD_BYTES {
                        let multiline = self.line > self.quote_line;
                        if self.lenient && multiline {
                            let mut again = self.take_resync(input, keep_from, i);
                            again.extend_from_slice(&input[i..]);
                            let r = self.resync_after(Broken::FieldTooLarge, &again);
                            self.consumed = base + n as u64;
                            return r;
                        }
                        self.too_large(true)?;
                        continue;
                    }
                    if i == n {
                        break;
                    }
                    i += 1;
                    self.after_cr = false;
                    self.state = State::QuoteInQuoted;
                }
                State::QuoteInQuoted => {
                    let b = input[i];
                    if b == b'"' {
                        self.batch.bytes.push(b'"');
                        self.state = State::Quoted;
                        i += 1;
                        continue;
                    }
                    self.resync = None;
                    keep_from = None;
                    if b == self.delim {
                        self.end_field()?;
                        self.state = State::FieldStart;
                        i += 1;
                    } else if b == b'\n' || b == b'\r' {
                        self.end_field()?;
                        self.end_record(RecKind::Fields);
                        self.line_end(b);
                        i += 1;
                    } else {
                        self.state = State::Unquoted;
                    }
                }
                State::Skip => match memchr::memchr2(b'\n', b'\r', &input[i..]) {
                    None => i = n,
                    Some(p) => {
                        let b = input[i + p];
                        i += p + 1;
                        let (why, line, field) = self.skip_why;
                        self.end_record(RecKind::Broken(why, line, field));
                        self.line_end(b);
                    }
                },
            }
        }
        if let (Some(from), Some(buf)) = (keep_from, self.resync.as_mut()) {
            buf.extend_from_slice(&input[from..]);
        }
        self.consumed = base + n as u64;
        if let Some(&b) = input.last() {
            self.last = Some(b);
        }
        Ok(())
    }

    /// Ends the input: the last record, if any, is completed.
    pub fn finish(&mut self) -> std::result::Result<(), Problem> {
        match self.state {
            State::RecordStart => {}
            State::FieldStart | State::Unquoted | State::QuoteInQuoted => {
                self.end_field()?;
                self.end_record(RecKind::Fields);
            }
            State::Skip => {
                let (why, line, field) = self.skip_why;
                self.end_record(RecKind::Broken(why, line, field));
            }
            State::Quoted => {
                let problem = Problem {
                    broken: Broken::UnclosedQuote,
                    line: self.quote_line,
                    field: self.field_index() as u32,
                    multiline: self.line > self.quote_line,
                    // The last line of the file (not the empty one after its final line end).
                    reached: if self.line > self.quote_line { self.lines() } else { self.line },
                };
                if !self.lenient {
                    return Err(problem);
                }
                match self.resync.take() {
                    Some(again) => {
                        self.resync_after(Broken::UnclosedQuote, &again)?;
                        return self.finish();
                    }
                    // Opened on the last line: nothing to read again.
                    None => {
                        let field = self.field_index() as u32;
                        self.end_record(RecKind::Broken(Broken::UnclosedQuote, self.quote_line, field));
                        self.state = State::RecordStart;
                    }
                }
            }
        }
        Ok(())
    }

    /// The resync copy so far plus this chunk's part of it up to `upto`.
    fn take_resync(&mut self, input: &[u8], keep_from: Option<usize>, upto: usize) -> Vec<u8> {
        let mut again = self.resync.take().unwrap_or_default();
        if let Some(from) = keep_from {
            again.extend_from_slice(&input[from..upto]);
        }
        again
    }

    /// Lenient mode: hands the current record out as broken and reads `again` (the input
    /// after the line on which the quote opened) from the line after it.
    fn resync_after(&mut self, why: Broken, again: &[u8]) -> std::result::Result<(), Problem> {
        let field = self.field_index() as u32;
        self.end_record(RecKind::Broken(why, self.quote_line, field));
        self.line = self.quote_line + 1;
        let (offset, cr) = self.resync_at;
        self.after_cr = cr;
        self.state = State::RecordStart;
        // `again` is the input from `offset` on, read a second time.
        self.consumed = offset;
        self.push(again)
    }

    /// A field over the limit: an error, or (lenient) skip the rest of the record.
    fn too_large(&mut self, quoted: bool) -> std::result::Result<(), Problem> {
        let line = if quoted { self.quote_line } else { self.rec_line };
        let field = self.field_index() as u32;
        if !self.lenient {
            let multiline = quoted && self.line > self.quote_line;
            return Err(Problem { broken: Broken::FieldTooLarge, line, field, multiline, reached: self.line });
        }
        self.batch.bytes.truncate(self.field_start);
        self.skip_why = (Broken::FieldTooLarge, line, field);
        self.state = State::Skip;
        Ok(())
    }

    /// Counts the line ends of a run inside quotes; returns the offset after the first one
    /// and whether it was a CR.
    fn count_lines(&mut self, run: &[u8]) -> Option<(usize, bool)> {
        if memchr::memchr2(b'\n', b'\r', run).is_none() {
            if !run.is_empty() {
                self.after_cr = false;
            }
            return None;
        }
        let mut first = None;
        for (p, &b) in run.iter().enumerate() {
            if b == b'\r' || (b == b'\n' && !self.after_cr) {
                self.line += 1;
                first.get_or_insert((p + 1, b == b'\r'));
            }
            self.after_cr = b == b'\r';
        }
        first
    }

    fn line_end(&mut self, b: u8) {
        self.line += 1;
        self.after_cr = b == b'\r';
        self.state = State::RecordStart;
    }

    fn end_field(&mut self) -> std::result::Result<(), Problem> {
        let first = self.current_first();
        if self.batch.ends.len() - first >= MAX_COLUMNS {
            return Err(Problem { broken: Broken::TooManyColumns, line: self.rec_line, field: 0, multiline: false, reached: self.line });
        }
        self.batch.ends.push(self.batch.bytes.len() as u32);
        Ok(())
    }

    fn empty_record(&mut self) {
        let (first, start) = (self.current_first(), self.batch.bytes.len());
        self.open_start = start;
        self.batch.recs.push(Rec {
            start: start as u32,
            first: first as u32,
            fields: 0,
            line: self.line,
            last_line: self.line,
            offset: self.rec_offset,
            quoted: false,
            kind: RecKind::Empty,
        });
    }

    fn end_record(&mut self, kind: RecKind) {
        let first = self.current_first();
        let start = self.current_start();
        let mut fields = (self.batch.ends.len() - first) as u32;
        if !matches!(kind, RecKind::Fields) {
            // A broken record keeps no fields.
            self.batch.ends.truncate(first);
            self.batch.bytes.truncate(start);
            fields = 0;
        }
        self.batch.recs.push(Rec {
            start: start as u32,
            first: first as u32,
            fields,
            line: self.rec_line,
            last_line: self.line,
            offset: self.rec_offset,
            quoted: self.rec_quoted,
            kind,
        });
        self.open_first = self.batch.ends.len();
        self.open_start = self.batch.bytes.len();
        self.resync = None;
    }
}

/// Appends `input[from..to]` to `out`. A run of at most 16 bytes (most fields) with 16
/// bytes of input from its start is copied as those 16 bytes, then cut back to its length:
/// a copy of a known length, inlined, where a copy of any length is a library call.
#[inline]
fn copy_run(out: &mut Vec<u8>, input: &[u8], from: usize, to: usize) {
    match input.get(from..from + 16) {
        Some(wide) if to - from <= 16 => {
            let at = out.len();
            let wide: &[u8; 16] = wide.try_into().expect("16 bytes");
            out.extend_from_slice(wide);
            out.truncate(at + (to - from));
        }
        _ => out.extend_from_slice(&input[from..to]),
    }
}

/// The error a [`Problem`] becomes, with the column named from the header when known.
pub fn problem_error(p: &Problem, header: Option<&[String]>) -> Error {
    let column = header.and_then(|h| h.get(p.field as usize)).cloned().filter(|_| p.broken != Broken::TooManyColumns);
    let e = match p.broken {
        Broken::TooManyColumns => {
            Error::input("too_many_columns", format!("this record has more than {MAX_COLUMNS} fields; pseudolens reads at most {MAX_COLUMNS} columns"))
        }
        Broken::UnclosedQuote => Error::input(
            "unclosed_quote",
            format!(
                "a quoted field opened here is never closed: the file ends inside it, at line {}; add the missing closing quote, or read leniently to skip this record",
                p.reached
            ),
        ),
        Broken::FieldTooLarge if p.multiline => Error::input(
            "field_too_large",
            format!(
                "a quoted field opened here runs past {} MiB and over several lines: its closing quote is probably missing; add it, or read leniently to skip this record",
                MAX_FIELD_BYTES >> 20
            ),
        ),
        Broken::FieldTooLarge => Error::input(
            "field_too_large",
            format!("a field here is longer than {} MiB, more than pseudolens reads; read leniently to skip this record", MAX_FIELD_BYTES >> 20),
        ),
    };
    let e = e.at_line(p.line);
    match column {
        Some(c) => e.in_column(&c),
        None => e,
    }
}

/// Turns a tokenizer result into the core's result (header names for the column).
pub fn checked(r: std::result::Result<(), Problem>, header: Option<&[String]>) -> Result<()> {
    r.map_err(|p| problem_error(&p, header))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record as the tests see it: kind, line, last line, fields.
    type Seen = (RecKind, u64, u64, Vec<String>);

    /// The records of `input` pushed in pieces of `chunk`.
    fn read(input: &[u8], chunk: usize, lenient: bool) -> std::result::Result<Vec<Seen>, Problem> {
        let mut t = Tokenizer::new(b',', lenient);
        let mut out = Vec::new();
        let mut take = |t: &mut Tokenizer| {
            for r in 0..t.batch.recs.len() {
                let rec = t.batch.recs[r];
                let fields = (0..rec.fields as usize).map(|j| String::from_utf8_lossy(t.batch.field(r, j)).into_owned()).collect();
                out.push((rec.kind, rec.line, rec.last_line, fields));
            }
            t.compact();
        };
        for piece in input.chunks(chunk.max(1)) {
            t.push(piece)?;
            take(&mut t);
        }
        t.finish()?;
        take(&mut t);
        Ok(out)
    }

    fn fields(input: &[u8]) -> Vec<Vec<String>> {
        read(input, usize::MAX, false).unwrap().into_iter().map(|r| r.3).collect()
    }

    #[test]
    fn a_run_is_copied_as_it_is_at_any_length_and_place() {
        // Runs of 0 to 20 bytes at every offset of a 40-byte input: the 16-byte copy near
        // the start, the plain copy past 16 bytes and within 16 bytes of the end.
        let input: Vec<u8> = (b'a'..=b'z').chain(b'0'..=b'9').chain(*b"ABCD").collect();
        for from in 0..=input.len() {
            for len in 0..=20.min(input.len() - from) {
                let mut out = b"head".to_vec();
                copy_run(&mut out, &input, from, from + len);
                assert_eq!(&out[..4], b"head");
                assert_eq!(&out[4..], &input[from..from + len], "from {from}, {len} bytes");
            }
        }
    }

    #[test]
    fn quotes_delimiters_and_line_ends() {
        assert_eq!(fields(b"a,b\r\n1,2"), vec![vec!["a", "b"], vec!["1", "2"]]);
        assert_eq!(fields(b"\"x,\"\"y\"\"\nz\",2\n"), vec![vec!["x,\"y\"\nz", "2"]]);
        // A quote inside an unquoted field, and text after a closing quote, are kept.
        assert_eq!(fields(b"ab\"c,\"d\"e\"f\n"), vec![vec!["ab\"c", "de\"f"]]);
        assert_eq!(fields(b"a,,\n"), vec![vec!["a", "", ""]]);
        assert_eq!(fields(b"\"\"\n"), vec![vec![""]]);
    }

    #[test]
    fn every_line_end_is_counted_and_empty_lines_are_records() {
        let recs = read(b"a\r\rb\n\r\nc\"\nd\"\ne", 3, false).unwrap();
        let summary: Vec<(RecKind, u64, u64)> = recs.iter().map(|r| (r.0, r.1, r.2)).collect();
        assert_eq!(
            summary,
            vec![
                (RecKind::Fields, 1, 1),
                (RecKind::Empty, 2, 2),
                (RecKind::Fields, 3, 3),
                (RecKind::Empty, 4, 4),
                (RecKind::Fields, 5, 5),
                (RecKind::Fields, 6, 6),
                (RecKind::Fields, 7, 7),
            ]
        );
        let recs = read(b"\"a\r\nb\",\"c\rd\"\ne\n", 1, false).unwrap();
        assert_eq!((recs[0].1, recs[0].2, recs[1].1), (1, 3, 4));
        assert_eq!(recs[0].3, vec!["a\r\nb", "c\rd"]);
    }

    #[test]
    fn every_chunking_gives_the_same_records() {
        let input = b"h1,h2\r\n\"a\"\"\r\nb\",x\r\n\r\nq\"r,\"s\"t\n\"\",\n";
        let whole = read(input, usize::MAX, false).unwrap();
        for chunk in 1..input.len() {
            assert_eq!(read(input, chunk, false).unwrap(), whole, "chunk {chunk}");
        }
    }

    #[test]
    fn an_unclosed_quote_names_its_line_or_is_skipped() {
        let input = b"a,b\n1,2\n3,\"open\n4,5\n6,7\n";
        let p = read(input, 4, false).unwrap_err();
        assert_eq!((p.broken, p.line, p.field, p.reached), (Broken::UnclosedQuote, 3, 1, 5));
        for chunk in [1, 2, 5, 100] {
            let recs = read(input, chunk, true).unwrap();
            let kinds: Vec<(RecKind, u64)> = recs.iter().map(|r| (r.0, r.1)).collect();
            assert_eq!(
                kinds,
                vec![(RecKind::Fields, 1), (RecKind::Fields, 2), (RecKind::Broken(Broken::UnclosedQuote, 3, 1), 3), (RecKind::Fields, 4), (RecKind::Fields, 5),],
                "chunk {chunk}"
            );
            assert_eq!(recs[3].3, vec!["4", "5"]);
        }
        // Opened on the last line: nothing to read again.
        let recs = read(b"a\n\"x", 1, true).unwrap();
        assert_eq!(recs[1].0, RecKind::Broken(Broken::UnclosedQuote, 2, 0));
    }

    #[test]
    fn fields_past_the_limit_are_errors_or_skipped() {
        let mut input = b"a,b\n1,".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_FIELD_BYTES + 1));
        input.extend_from_slice(b"\n2,3\n");
        let p = read(&input, 1 << 16, false).unwrap_err();
        assert_eq!((p.broken, p.line, p.field), (Broken::FieldTooLarge, 2, 1));
        let recs = read(&input, 1 << 16, true).unwrap();
        assert_eq!(recs[1].0, RecKind::Broken(Broken::FieldTooLarge, 2, 1));
        assert_eq!((recs[2].1, recs[2].3.clone()), (3, vec!["2".to_string(), "3".to_string()]));
        // A quoted field that never closes and grows past the limit over many lines.
        let mut input = b"a,b\n1,\"open\n".to_vec();
        for _ in 0..(MAX_FIELD_BYTES / 7 + 2) {
            input.extend_from_slice(b"2,3456\n");
        }
        let p = read(&input, 1 << 16, false).unwrap_err();
        assert_eq!((p.broken, p.line, p.multiline), (Broken::FieldTooLarge, 2, true));
        let recs = read(&input, 1 << 16, true).unwrap();
        assert_eq!(recs[1].0, RecKind::Broken(Broken::FieldTooLarge, 2, 1));
        assert_eq!(recs.len(), 2 + MAX_FIELD_BYTES / 7 + 2);
        assert_eq!((recs[2].1, recs.last().unwrap().1), (3, 2 + (MAX_FIELD_BYTES / 7 + 2) as u64));
    }
}
