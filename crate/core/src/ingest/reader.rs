//! The push-driven reader of one CSV file (spec README Sec 6): encoding, BOM, the check that
//! the file is text, the delimiter, the header, blank and broken records, ragged rows, and the
//! account of every record and byte read.
//!
//! The first 64 KiB are held back to detect the encoding and the delimiter; after that every
//! chunk is validated once (UTF-8), decoded once (UTF-16) and split into records by the
//! [`Tokenizer`]. Data records reach the [`RecordSink`] in batches ([`Rows`]), their fields
//! as bytes: a sink works per distinct value, not per cell.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::dialect::{SAMPLE_BYTES, detect_delimiter};
use super::encoding::{Encoding, UTF8_BOM, not_text};
use super::format::Format;
use super::header::{LOOKED_AT, Shape, filled, header_index};
use super::tokenizer::{Batch, Broken, Problem, RecKind, Tokenizer, checked, problem_error};
use crate::error::{Error, ErrorKind, Result};
use crate::hash::ContentHash;

/// What to do with records that cannot be read as the header says.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ragged {
    /// Stop with an error: a ragged row (`ragged_row`), a quote never closed
    /// (`unclosed_quote`), a field too long (`field_too_large`) (spec default).
    #[default]
    Error,
    /// Lenient reading: pad short rows with missing cells and cut long ones (counted as
    /// ragged); skip a record with an unclosed quote or a field too long (counted as in
    /// error, with a warning naming its line) and read on.
    PadOrTruncate,
}

/// Reading options; `None` means "detect".
#[derive(Debug, Clone, Default)]
pub struct CsvOptions {
    /// Field delimiter.
    pub delimiter: Option<u8>,
    /// Character encoding.
    pub encoding: Option<Encoding>,
    /// Ragged-row handling (and lenient reading).
    pub ragged: Ragged,
    /// The header's line (1-based); the records above it are skipped as titles. `None`:
    /// the first record that is not blank, unless records above it are titles
    /// ([`super::header`]).
    pub header_row: Option<u64>,
}

/// The account of a file as read: every byte and every record.
///
/// `records = header_records + blank_records + rows_total + error_records`, where a record is
/// what ends at a line end outside quotes (or at the end of the file): a quoted field may span
/// lines, so records are not lines.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InputFacts {
    /// The file format read (CSV unless a reader of another format fed the table).
    #[serde(default)]
    pub format: Format,
    /// The sheet read, in a workbook.
    #[serde(default)]
    pub sheet: Option<String>,
    /// Bytes read (the file's size once it is read whole).
    pub bytes: u64,
    /// Lines of the file.
    pub lines: u64,
    /// Records of the file.
    pub records: u64,
    /// The header record (1), and the title records above it, skipped.
    pub header_records: u64,
    /// Data rows read and audited.
    pub rows_total: u64,
    /// Blank records (empty lines, and lines of white space when the header has several
    /// columns), skipped.
    pub blank_records: u64,
    /// Records that could not be read (lenient reading only), skipped with a warning.
    pub error_records: u64,
    /// Encoding used.
    pub encoding: String,
    /// Delimiter used, as text (`"\t"` for TAB).
    pub delimiter: String,
    /// Rows padded or cut under `Ragged::PadOrTruncate` (among `rows_total`).
    pub ragged_rows: u64,
    /// Number of columns.
    pub columns: usize,
    /// SHA-256 of the bytes read, lower-case hex (`None` for a table merged from parts).
    pub sha256: Option<String>,
    /// Header cells that were empty and got a `column_<n>` name.
    #[serde(skip)]
    pub renamed_columns: Vec<String>,
    /// The line of the header record (1 when the column names are not a record, as in
    /// Parquet: the line they would have in CSV).
    #[serde(skip)]
    pub header_line: u64,
    /// The title records above the header, skipped (among `header_records`).
    #[serde(skip)]
    pub title_records: u64,
    /// The first ragged rows kept under `PadOrTruncate` (at most [`RAGGED_LISTED`]): line,
    /// fields.
    #[serde(skip)]
    pub ragged_lines: Vec<(u64, usize)>,
    /// Per kind of broken record: how many, and the first one's line and column.
    #[serde(skip)]
    pub broken: Vec<BrokenRecords>,
}

/// How many ragged rows the facts list by line.
pub const RAGGED_LISTED: usize = 5;

/// Records of one kind skipped by lenient reading.
#[derive(Debug, Clone, PartialEq)]
pub struct BrokenRecords {
    /// Why.
    pub why: Broken,
    /// How many.
    pub count: u64,
    /// The first one: the line of the problem and the column.
    pub line: u64,
    /// The column of the first one, when the header names it.
    pub column: Option<String>,
}

impl InputFacts {
    /// Adds the counts of the next part of the same table.
    pub fn merge(&mut self, other: &InputFacts) {
        self.bytes += other.bytes;
        self.records += other.records;
        self.header_records += other.header_records;
        self.title_records += other.title_records;
        self.rows_total += other.rows_total;
        self.ragged_rows += other.ragged_rows;
        self.blank_records += other.blank_records;
        self.error_records += other.error_records;
        self.lines = self.lines.max(other.lines);
        self.sha256 = None;
        if self.header_line == 0 {
            self.header_line = other.header_line;
        }
        let room = RAGGED_LISTED.saturating_sub(self.ragged_lines.len());
        self.ragged_lines.extend(other.ragged_lines.iter().take(room));
        for b in &other.broken {
            match self.broken.iter_mut().find(|m| m.why == b.why) {
                Some(m) => m.count += b.count,
                None => self.broken.push(b.clone()),
            }
        }
    }

    /// Moves every line number by `by` (a part read on its own, once its place is known).
    pub fn shift_lines(&mut self, by: u64) {
        self.lines += by;
        for r in &mut self.ragged_lines {
            r.0 += by;
        }
        for b in &mut self.broken {
            b.line += by;
        }
    }

    /// Whether the parts add up: every record is accounted for.
    pub fn balanced(&self) -> bool {
        let parts = [self.header_records, self.blank_records, self.rows_total, self.error_records];
        parts.iter().try_fold(0u64, |s, &x| s.checked_add(x)) == Some(self.records)
    }
}

/// A batch of data rows: each has the header's width (missing fields read as empty, extra
/// ones are cut).
pub struct Rows<'a> {
    batch: &'a Batch,
    rows: &'a [u32],
    header: &'a [String],
    encoding: Encoding,
}

impl<'a> Rows<'a> {
    /// The rows of a batch of UTF-8 cells.
    pub(crate) fn of_cells(batch: &'a Batch, rows: &'a [u32], header: &'a [String]) -> Self {
        Rows { batch, rows, header, encoding: Encoding::Utf8 }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The columns, by header name.
    pub fn header(&self) -> &'a [String] {
        self.header
    }

    /// The encoding of the field bytes.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The bytes of field `j` of row `i` (empty past the row's last field).
    #[inline]
    pub fn field(&self, i: usize, j: usize) -> &'a [u8] {
        self.batch.field(self.rows[i] as usize, j)
    }

    /// The 1-based line row `i` starts on.
    pub fn line(&self, i: usize) -> u64 {
        self.batch.recs[self.rows[i] as usize].line
    }

    /// The input offset of row `i`'s first byte.
    pub fn offset(&self, i: usize) -> u64 {
        self.batch.recs[self.rows[i] as usize].offset
    }

    /// Row `i` as text, field by field.
    pub fn row(&self, i: usize) -> Row<'a> {
        Row { line: self.line(i), rows: Rows { ..*self }, i }
    }
}

impl Clone for Rows<'_> {
    fn clone(&self) -> Self {
        Rows { ..*self }
    }
}

/// One data row, its fields decoded on demand.
pub struct Row<'a> {
    /// 1-based line of the file where the row starts.
    pub line: u64,
    rows: Rows<'a>,
    i: usize,
}

impl Row<'_> {
    /// The text of field `j` (a field beyond the row's end reads as empty).
    pub fn text(&self, j: usize) -> Result<Cow<'_, str>> {
        let encoding = self.rows.encoding;
        encoding.decode(self.rows.field(self.i, j)).ok_or_else(|| mismatch(encoding, self.line, Some(&self.rows.header[j])))
    }
}

/// The error for bytes that are not valid in the encoding detected from the file's start.
fn mismatch(encoding: Encoding, line: u64, column: Option<&str>) -> Error {
    let e = Error {
        kind: ErrorKind::Encoding,
        code: if encoding.is_utf16() { "invalid_encoding" } else { "encoding_mismatch" },
        message: if encoding.is_utf16() {
            format!("this text is not valid {}", encoding.label())
        } else {
            format!("this field is not valid {}; the file was detected as {} from its first 64 KiB", encoding.label(), encoding.label())
        },
        line: Some(line),
        column: None,
    };
    match column {
        Some(c) => e.in_column(c),
        None => e,
    }
}

/// The length of the run of ASCII bytes that starts `b`, in whole blocks of 64 bytes: one OR
/// of a block's eight words tests them all (std's `from_utf8` tests 4 bytes at a time on wasm32:
/// measured, 7 ms of a 1M-row wasm read).
fn ascii_prefix(b: &[u8]) -> usize {
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("8 bytes"));
    b.chunks_exact(64).take_while(|block| block.chunks_exact(8).fold(0, |any, w| any | word(w)) & 0x8080_8080_8080_8080 == 0).count() * 64
}

/// Receives the header and the data rows.
pub trait RecordSink {
    /// The header, once, before any row.
    fn header(&mut self, names: &[String]) -> Result<()>;
    /// A batch of data rows.
    fn rows(&mut self, rows: &Rows<'_>) -> Result<()>;
}

/// A sink that turns into a result once its file ends.
pub trait Collect: RecordSink {
    /// What the file becomes.
    type Output;
    /// The result, from the sink and the facts of the file as read.
    fn collect(self, facts: &InputFacts) -> Result<Self::Output>;
}

/// A CSV stream feeding one sink: the shape of every table read beside the audit (population,
/// original, drill-down).
pub struct Feed<S> {
    csv: Reader,
    sink: S,
}

impl<S: Collect> Feed<S> {
    /// A stream with these options into `sink`.
    pub fn with_sink(opts: CsvOptions, sink: S) -> Self {
        Feed { csv: Reader::new(opts), sink }
    }

    /// Absorbs the next chunk.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.csv.push(chunk, &mut self.sink)
    }

    /// Ends the file.
    pub fn finish(mut self) -> Result<S::Output> {
        self.csv.finish(&mut self.sink)?;
        self.sink.collect(self.csv.facts())
    }
}

/// What the start of a file says about all of it: enough to read any part of it on its own.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// The encoding.
    pub encoding: Encoding,
    /// The delimiter.
    pub delimiter: u8,
    /// The header.
    pub header: Vec<String>,
}

/// A byte range of a file given to one reader of a parallel read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The first byte.
    pub start: u64,
    /// The first byte of the next range: a record starting here or later is not this part's.
    pub end: u64,
    /// Whether a record starts exactly at `start` (the file's start, or a boundary a previous
    /// part found); else the part guesses that the first line end after `start` ends a record.
    pub exact: bool,
}

impl Span {
    /// `n` spans of equal size over a file of `len` bytes, the first exact at 0.
    pub fn split(len: u64, n: usize) -> Vec<Span> {
        let n = n.max(1) as u64;
        (0..n).map(|i| Span { start: len * i / n, end: if i + 1 == n { u64::MAX } else { len * (i + 1) / n }, exact: i == 0 }).collect()
    }

    /// The span to read again when the part before this one ended at `previous_end` and this
    /// one guessed another start: from that exact boundary to the same end.
    pub fn after(self, previous_end: u64) -> Span {
        Span { start: previous_end, end: self.end, exact: true }
    }
}

/// Where a part of a parallel read began and ended: byte offsets of record starts, and the
/// line (counted from 1 at `first`) of `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PartBounds {
    /// Where its first record starts.
    pub first: u64,
    /// Where the first record not its own starts (or the end of the file).
    pub end: u64,
    /// The line of `end`, counted from 1 at `first`.
    pub end_line: u64,
}

/// The state of a reader of one part of a file.
#[derive(Debug, Clone)]
struct Part {
    span: Span,
    /// Still looking for the first line end (a CR was just seen when `Some(true)`).
    seeking: Option<bool>,
    skipped: u64,
    announced: bool,
    stop: Option<(u64, u64)>,
}

/// The push-driven reader.
pub struct Reader {
    opts: CsvOptions,
    part: Option<Part>,
    sniff: Option<Vec<u8>>,
    encoding: Encoding,
    decoder: Option<encoding_rs::Decoder>,
    decoded: Vec<u8>,
    /// The end of the last chunk when it cut a UTF-8 character: validated with the next one.
    utf8_tail: Vec<u8>,
    tok: Tokenizer,
    /// The header's line, when records above it are titles (named or detected).
    header_line: Option<u64>,
    header: Option<Vec<String>>,
    data: Vec<u32>,
    facts: InputFacts,
    /// The SHA-256 of the input (not kept by a part: it is of the whole file).
    hash: Option<ContentHash>,
}

impl Reader {
    /// A reader with these options.
    pub fn new(opts: CsvOptions) -> Self {
        Reader {
            opts,
            part: None,
            sniff: Some(Vec::new()),
            encoding: Encoding::Utf8,
            decoder: None,
            decoded: Vec::new(),
            utf8_tail: Vec::new(),
            tok: Tokenizer::new(b',', false),
            header_line: None,
            header: None,
            data: Vec::new(),
            facts: InputFacts::default(),
            hash: Some(ContentHash::default()),
        }
    }

    /// The same reader without the file's SHA-256 (`facts.sha256` stays `None`).
    pub fn without_hash(mut self) -> Self {
        self.hash = None;
        self
    }

    /// A reader of one part of a file whose start was probed; the part's own records are
    /// those starting in `span`. The first part is read like a whole file; every other one
    /// knows the dialect and the header, and starts at `span.start` (exact) or after the first
    /// line end it meets there. Lines are counted from 1 at the part's first record.
    pub fn part(opts: CsvOptions, probe: &Probe, span: Span) -> Self {
        let mut r = Reader::new(opts);
        if span.start > 0 {
            r.sniff = None;
            r.encoding = probe.encoding;
            r.tok = Tokenizer::new(probe.delimiter, r.lenient());
            r.facts.encoding = probe.encoding.label().to_string();
            r.facts.delimiter = (probe.delimiter as char).to_string();
            r.facts.columns = probe.header.len();
            r.header = Some(probe.header.clone());
        }
        r.hash = None;
        let seeking = (!span.exact && span.start > 0).then_some(false);
        r.part = Some(Part { span, seeking, skipped: 0, announced: span.start == 0, stop: None });
        r
    }

    /// Reads the start of a file until its header is known (`None` when `prefix` holds too
    /// little, or the file cannot be read in parts: UTF-16, or a problem before the header
    /// ends; read such a file whole).
    pub fn probe(opts: CsvOptions, prefix: &[u8], complete: bool) -> Option<Probe> {
        struct Header(Option<Vec<String>>);
        impl RecordSink for Header {
            fn header(&mut self, names: &[String]) -> Result<()> {
                self.0 = Some(names.to_vec());
                Ok(())
            }
            fn rows(&mut self, _: &Rows<'_>) -> Result<()> {
                Ok(())
            }
        }
        let mut r = Reader::new(CsvOptions { ragged: Ragged::PadOrTruncate, ..opts });
        let mut sink = Header(None);
        // In steps: reading stops once the header is known.
        for piece in prefix.chunks(SAMPLE_BYTES) {
            r.push(piece, &mut sink).ok()?;
            if sink.0.is_some() {
                break;
            }
        }
        if sink.0.is_none() && complete {
            r.finish(&mut sink).ok()?;
        }
        let header = sink.0?;
        (!r.encoding.is_utf16()).then(|| Probe { encoding: r.encoding, delimiter: r.tok.delim(), header })
    }

    /// Ends this part earlier: records starting at `end` or later belong to the part after it
    /// (a part split to be shared with another thread). `end` must not lie before a byte
    /// already pushed, nor the part have stopped; otherwise the part would have records the
    /// next part reads again, and the end is left as it was (`false`).
    pub fn end_at(&mut self, end: u64) -> bool {
        match &mut self.part {
            Some(part) if part.stop.is_none() && end >= part.span.start + part.skipped + self.facts.bytes && end <= part.span.end => {
                part.span.end = end;
                true
            }
            _ => false,
        }
    }

    /// Whether a part has seen its last record: push no more.
    pub fn done(&self) -> bool {
        self.part.as_ref().is_some_and(|p| p.stop.is_some())
    }

    /// Where this part began and ended (after [`Reader::finish`]).
    pub fn bounds(&self) -> Option<PartBounds> {
        let p = self.part.as_ref()?;
        let (end, end_line) = p.stop?;
        Some(PartBounds { first: p.span.start + p.skipped, end, end_line })
    }

    /// Facts so far.
    pub fn facts(&self) -> &InputFacts {
        &self.facts
    }

    /// The header, once read.
    pub fn header(&self) -> Option<&[String]> {
        self.header.as_deref()
    }

    /// The encoding in use (known after the first 64 KiB).
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    fn lenient(&self) -> bool {
        self.opts.ragged == Ragged::PadOrTruncate
    }

    /// Absorbs the next chunk.
    pub fn push(&mut self, mut chunk: &[u8], sink: &mut impl RecordSink) -> Result<()> {
        if let Some(part) = &mut self.part {
            if part.stop.is_some() {
                return Ok(());
            }
            if !part.announced {
                part.announced = true;
                sink.header(self.header.as_deref().unwrap_or_default())?;
            }
            if let Some(cr) = part.seeking {
                let at = match (cr, chunk.first()) {
                    (true, Some(b'\n')) => Some(1),
                    (true, Some(_)) => Some(0),
                    _ => memchr::memchr2(b'\n', b'\r', chunk).map(|p| match (chunk[p], chunk.get(p + 1)) {
                        (b'\r', None) => p + 1 + chunk.len(),
                        (b'\r', Some(b'\n')) => p + 2,
                        _ => p + 1,
                    }),
                };
                match at {
                    // A CR ends the chunk: a LF may follow in the next one.
                    Some(at) if at > chunk.len() => {
                        part.seeking = Some(true);
                        part.skipped += chunk.len() as u64;
                        return Ok(());
                    }
                    Some(at) => {
                        part.seeking = None;
                        part.skipped += at as u64;
                        chunk = &chunk[at..];
                        self.tok.set_offset(part.span.start + part.skipped);
                    }
                    None => {
                        part.skipped += chunk.len() as u64;
                        return Ok(());
                    }
                }
            } else if part.span.start > 0 && self.tok.consumed() == 0 {
                self.tok.set_offset(part.span.start);
            }
        }
        self.facts.bytes += chunk.len() as u64;
        if let Some(h) = &mut self.hash {
            h.update(chunk);
        }
        match &mut self.sniff {
            Some(buf) => {
                buf.extend_from_slice(chunk);
                if buf.len() >= SAMPLE_BYTES {
                    let buf = self.sniff.take().unwrap_or_default();
                    // Exactly the first 64 KiB decide, however the chunks fell.
                    let body = self.start(&buf[..SAMPLE_BYTES], false)?;
                    self.feed(&buf[body..], sink)?;
                }
                Ok(())
            }
            None => self.feed(chunk, sink),
        }
    }

    /// Ends the input: flushes the last record. Errors `empty_file` when there was no header.
    pub fn finish(&mut self, sink: &mut impl RecordSink) -> Result<()> {
        if self.done() {
            return self.end_facts();
        }
        if let Some(part) = &mut self.part {
            if !part.announced {
                part.announced = true;
                sink.header(self.header.as_deref().unwrap_or_default())?;
            }
            if part.seeking.is_some() || (part.span.start > 0 && self.tok.consumed() == 0) {
                // The input ended before this part found a record: it has none.
                self.tok.set_offset(part.span.start + part.skipped);
            }
        }
        if let Some(buf) = self.sniff.take() {
            let body = self.start(&buf, true)?;
            self.feed(&buf[body..], sink)?;
        }
        if self.decoder.is_some() {
            self.decode(&[], true, sink)?;
        }
        if !self.utf8_tail.is_empty() {
            self.drain(sink)?;
            return Err(self.here_error(mismatch(self.encoding, self.tok.line(), None)));
        }
        let r = self.tok.finish();
        self.drain(sink)?;
        checked(r, self.header.as_deref())?;
        self.drain(sink)?;
        if self.header.is_none() {
            if let Some(row) = self.opts.header_row {
                let message = format!("the file has no row at line {row} or below to read as the header: it has {} lines", self.tok.lines());
                return Err(Error::config("header_row_out_of_range", message));
            }
            return Err(Error::input("empty_file", "the file is empty: it has no header row"));
        }
        if let Some(part) = &mut self.part {
            part.stop.get_or_insert((self.tok.consumed(), self.tok.line()));
        }
        self.end_facts()
    }

    fn end_facts(&mut self) -> Result<()> {
        let eof_lines = self.tok.lines();
        let bounds = self.bounds();
        let f = &mut self.facts;
        f.records = f.header_records + f.blank_records + f.rows_total + f.error_records;
        f.lines = eof_lines;
        if let (Some(part), Some(b)) = (&self.part, bounds) {
            // A part: the lines and bytes before its end (the first part's include a BOM).
            if b.end_line <= eof_lines && b.end < self.tok.consumed() {
                f.lines = b.end_line - 1;
            }
            f.bytes = b.end - if part.span.start == 0 { 0 } else { b.first };
        }
        f.sha256 = self.hash.take().map(ContentHash::hex);
        Ok(())
    }

    /// Chooses encoding and delimiter from the sample; returns where the text starts (after a
    /// BOM).
    fn start(&mut self, sample: &[u8], complete: bool) -> Result<usize> {
        let (text, body): (Cow<'_, [u8]>, usize) = match Encoding::from_bom(sample) {
            Some(utf16) => {
                self.encoding = utf16;
                self.decoder = utf16.decoder();
                // Decode a copy of the sample for the checks and the delimiter.
                let mut d = utf16.decoder().expect("UTF-16 has a decoder");
                let mut out = vec![0u8; d.max_utf8_buffer_length(sample.len()).unwrap_or(sample.len() * 3)];
                let (_, _, written) = d.decode_to_utf8_without_replacement(sample, &mut out, complete);
                out.truncate(written);
                (Cow::Owned(out), 0)
            }
            None => {
                let body = if sample.starts_with(UTF8_BOM) { UTF8_BOM.len() } else { 0 };
                self.encoding = self.opts.encoding.filter(|e| !e.is_utf16()).unwrap_or_else(|| Encoding::detect(&sample[body..]));
                (Cow::Borrowed(&sample[body..]), body)
            }
        };
        let nul = memchr::memchr(0, &text);
        let start = if self.encoding.is_utf16() { &text[..] } else { sample };
        if let Some(e) = not_text(start, nul.map(|n| if self.encoding.is_utf16() { 2 + 2 * n } else { body + n })) {
            return Err(e);
        }
        let delim = self.opts.delimiter.unwrap_or_else(|| detect_delimiter(&text, complete, self.opts.header_row));
        self.header_line = self.opts.header_row.or_else(|| titled_header(&text, delim, complete));
        self.tok = Tokenizer::new(delim, self.lenient());
        // Offsets count the file's bytes, a BOM included.
        self.tok.set_offset(body as u64);
        self.facts.encoding = self.encoding.label().to_string();
        self.facts.delimiter = (delim as char).to_string();
        Ok(body)
    }

    fn feed(&mut self, raw: &[u8], sink: &mut impl RecordSink) -> Result<()> {
        if self.decoder.is_some() {
            return self.decode(raw, false, sink);
        }
        self.text(raw, sink)
    }

    /// UTF-16: decodes `raw` to UTF-8 and reads it.
    fn decode(&mut self, mut raw: &[u8], last: bool, sink: &mut impl RecordSink) -> Result<()> {
        let mut decoder = self.decoder.take().expect("a UTF-16 file has a decoder");
        let mut out = std::mem::take(&mut self.decoded);
        let r = loop {
            out.resize(decoder.max_utf8_buffer_length(raw.len()).unwrap_or(raw.len() * 3 + 16).max(16), 0);
            let (result, read, written) = decoder.decode_to_utf8_without_replacement(raw, &mut out, last);
            raw = &raw[read..];
            if let Err(e) = self.text(&out[..written], sink) {
                break Err(e);
            }
            match result {
                encoding_rs::DecoderResult::InputEmpty => break Ok(()),
                encoding_rs::DecoderResult::OutputFull => continue,
                encoding_rs::DecoderResult::Malformed(..) => {
                    break Err(self.here_error(mismatch(self.encoding, self.tok.line(), None)));
                }
            }
        };
        self.decoder = Some(decoder);
        self.decoded = out;
        r
    }

    /// Reads ASCII-compatible text: checks it once (no NUL; valid UTF-8 unless Windows-1252),
    /// splits it into records and hands the data rows to `sink`.
    fn text(&mut self, text: &[u8], sink: &mut impl RecordSink) -> Result<()> {
        let nul = memchr::memchr(0, text);
        let valid = if self.encoding == Encoding::Utf8 { self.validate_utf8(text) } else { text.len() };
        // Whichever problem comes first in the file is the one reported.
        match nul {
            Some(at) if at <= valid => {
                self.tokenize(&text[..at], sink)?;
                let offset = self.facts.bytes - (text.len() - at) as u64;
                let e = not_text(b"", Some(offset as usize)).expect("a NUL byte is not text").at_line(self.tok.line());
                Err(self.here_error(e))
            }
            _ if valid < text.len() => {
                self.tokenize(&text[..valid], sink)?;
                Err(self.here_error(mismatch(self.encoding, self.tok.line(), None)))
            }
            _ => self.tokenize(text, sink),
        }
    }

    /// How much of `text` is valid UTF-8, given the cut character carried from the last chunk;
    /// a character cut by the end of `text` is carried to the next one.
    fn validate_utf8(&mut self, text: &[u8]) -> usize {
        let mut from = 0;
        if !self.utf8_tail.is_empty() {
            let need = match self.utf8_tail[0] {
                b if b >= 0xF0 => 4,
                b if b >= 0xE0 => 3,
                _ => 2,
            };
            let take = (need - self.utf8_tail.len()).min(text.len());
            self.utf8_tail.extend_from_slice(&text[..take]);
            from = take;
            match std::str::from_utf8(&self.utf8_tail) {
                Ok(_) => self.utf8_tail.clear(),
                Err(e) if e.error_len().is_none() && take == text.len() => return text.len(),
                Err(_) => return 0,
            }
        }
        let from = from + ascii_prefix(&text[from..]);
        match std::str::from_utf8(&text[from..]) {
            Ok(_) => text.len(),
            Err(e) if e.error_len().is_none() => {
                self.utf8_tail.extend_from_slice(&text[from + e.valid_up_to()..]);
                text.len()
            }
            Err(e) => from + e.valid_up_to(),
        }
    }

    /// The error placed at the tokenizer's position: its line, and the column being read.
    fn here_error(&self, e: Error) -> Error {
        let e = if e.line.is_none() { e.at_line(self.tok.line()) } else { e };
        match self.header.as_ref().and_then(|h| h.get(self.tok.field_index())) {
            Some(c) if self.header.is_some() => e.in_column(c),
            _ => e,
        }
    }

    fn tokenize(&mut self, text: &[u8], sink: &mut impl RecordSink) -> Result<()> {
        let r = self.tok.push(text);
        // Records completed before a problem come first: an earlier error wins.
        self.drain(sink)?;
        checked(r, self.header.as_deref())
    }

    /// Classifies the complete records and hands the data rows to `sink`.
    fn drain(&mut self, sink: &mut impl RecordSink) -> Result<()> {
        let lenient = self.lenient();
        self.data.clear();
        let n = self.tok.batch.recs.len();
        for r in 0..n {
            let rec = self.tok.batch.recs[r];
            if let (Some(part), Some(_)) = (&mut self.part, &self.header) {
                // (The first part reads its header wherever the next part begins.)
                if part.stop.is_some() || rec.offset >= part.span.end {
                    part.stop.get_or_insert((rec.offset, rec.line));
                    break;
                }
            }
            let Some(header) = &self.header else {
                match rec.kind {
                    RecKind::Empty => self.facts.blank_records += 1,
                    RecKind::Broken(why, line, field) => {
                        // The header cannot be skipped: an error even when reading leniently.
                        let reached = self.tok.lines();
                        let p = Problem { broken: why, line, field, multiline: reached > line, reached };
                        let e = problem_error(&p, None);
                        let message = e.message.replace(", or read leniently to skip this record", "");
                        return Err(Error { message: format!("{message} (in the header, which cannot be skipped)"), ..e });
                    }
                    RecKind::Fields if blank(&self.tok.batch, r, rec.fields, 0) => self.facts.blank_records += 1,
                    // A title above the header: counted with it.
                    RecKind::Fields if self.header_line.is_some_and(|h| rec.line < h) => {
                        self.facts.header_records += 1;
                        self.facts.title_records += 1;
                    }
                    RecKind::Fields => {
                        let names = self.read_header(r, rec.line)?;
                        sink.header(&names)?;
                        self.facts.columns = names.len();
                        self.facts.header_records += 1;
                        self.facts.header_line = rec.line;
                        self.header = Some(names);
                    }
                }
                continue;
            };
            let width = header.len();
            match rec.kind {
                RecKind::Empty => self.facts.blank_records += 1,
                RecKind::Broken(why, line, field) => {
                    self.facts.error_records += 1;
                    let column = header.get(field as usize).cloned();
                    match self.facts.broken.iter_mut().find(|b| b.why == why) {
                        Some(b) => b.count += 1,
                        None => self.facts.broken.push(BrokenRecords { why, count: 1, line, column }),
                    }
                }
                RecKind::Fields if blank(&self.tok.batch, r, rec.fields, width) => self.facts.blank_records += 1,
                RecKind::Fields => {
                    let fields = rec.fields as usize;
                    if fields != width {
                        if !lenient {
                            let mut message =
                                format!("this row has {fields} fields but the header has {width}; fix the row, or choose to pad or cut ragged rows");
                            if rec.quoted && rec.last_line > rec.line {
                                message.push_str(&format!(
                                    " (the record runs from line {} to line {}: a quote opened on line {} may not be closed)",
                                    rec.line, rec.last_line, rec.line
                                ));
                            }
                            self.flush(sink)?;
                            return Err(Error::input("ragged_row", message).at_line(rec.line));
                        }
                        self.facts.ragged_rows += 1;
                        if self.facts.ragged_lines.len() < RAGGED_LISTED {
                            self.facts.ragged_lines.push((rec.line, fields));
                        }
                    }
                    self.facts.rows_total += 1;
                    self.data.push(r as u32);
                }
            }
        }
        self.flush(sink)?;
        self.tok.compact();
        Ok(())
    }

    /// Hands the collected data rows to `sink`.
    fn flush(&mut self, sink: &mut impl RecordSink) -> Result<()> {
        if self.data.is_empty() {
            return Ok(());
        }
        let header = self.header.as_deref().expect("data rows come after the header");
        let rows = Rows { batch: &self.tok.batch, rows: &self.data, header, encoding: self.encoding };
        let r = sink.rows(&rows);
        self.data.clear();
        r
    }

    fn read_header(&mut self, r: usize, line: u64) -> Result<Vec<String>> {
        let rec = self.tok.batch.recs[r];
        let mut texts = Vec::with_capacity(rec.fields as usize);
        for i in 0..rec.fields as usize {
            let raw = self.tok.batch.field(r, i);
            let text = self.encoding.decode(raw).ok_or_else(|| Error {
                kind: ErrorKind::Encoding,
                code: "encoding_mismatch",
                message: "a header name is not valid in the detected encoding".into(),
                line: Some(line),
                column: None,
            })?;
            texts.push(text.into_owned());
        }
        column_names(texts, line, &mut self.facts.renamed_columns)
    }
}

/// The column names of a header's cells: trimmed; an empty one becomes `column_<n>` (listed in
/// `renamed`); a name given twice is the error `duplicate_column`.
pub(crate) fn column_names(texts: Vec<String>, line: u64, renamed: &mut Vec<String>) -> Result<Vec<String>> {
    let mut names: Vec<String> = Vec::with_capacity(texts.len());
    let mut seen = crate::hash::map::<String, ()>();
    for (i, text) in texts.into_iter().enumerate() {
        let mut name = text.trim_matches(char::is_whitespace).to_string();
        if name.is_empty() {
            name = format!("column_{}", i + 1);
            renamed.push(name.clone());
        }
        if seen.insert(name.clone(), ()).is_some() {
            return Err(Error::input("duplicate_column", format!("the header names the column \"{name}\" twice; column names must be unique"))
                .at_line(line)
                .in_column(&name));
        }
        names.push(name);
    }
    Ok(names)
}

/// The header's line when the records above it in `sample` are titles ([`super::header`]).
fn titled_header(sample: &[u8], delim: u8, complete: bool) -> Option<u64> {
    let mut t = Tokenizer::new(delim, true);
    // A broken sample (a field past the limit) simply ends the look.
    let _ = t.push(sample);
    if complete {
        let _ = t.finish();
    }
    let b = &t.batch;
    let shapes: Vec<Shape> = (0..b.recs.len())
        .filter(|&r| b.recs[r].kind == RecKind::Fields && !blank(b, r, b.recs[r].fields, 0))
        .take(LOOKED_AT)
        .map(|r| Shape { line: b.recs[r].line, filled: (0..b.recs[r].fields as usize).filter(|&j| filled(b.field(r, j))).count() })
        .collect();
    header_index(&shapes, None).filter(|&i| i > 0).map(|i| shapes[i].line)
}

/// Whether record `r` is blank: one field of white space, when the header has several columns
/// (or before the header).
fn blank(batch: &Batch, r: usize, fields: u32, width: usize) -> bool {
    fields == 1 && width != 1 && batch.field(r, 0).iter().all(u8::is_ascii_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_prefix_ends_at_the_block_of_the_first_other_byte() {
        for len in [0, 1, 63, 64, 65, 200] {
            assert_eq!(ascii_prefix(&vec![b'a'; len]), len / 64 * 64, "all ASCII, {len} bytes");
        }
        for at in 0..200 {
            let mut b = vec![b'x'; 200];
            b[at] = 0x80 | (at as u8);
            assert_eq!(ascii_prefix(&b), at / 64 * 64, "a byte of {:#x} at {at}", b[at]);
        }
    }
}
