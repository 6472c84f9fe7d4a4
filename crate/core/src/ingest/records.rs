//! Push-driven CSV records (spec README Sec 6): bytes arrive in chunks cut anywhere, records
//! come out with the 1-based line they start on.
//!
//! The first 64 KiB are held back to detect the encoding and the delimiter; after that every
//! chunk goes straight through `csv-core`'s state machine, which keeps a record cut by a chunk
//! boundary (inside a quoted field or a multi-byte character included) until it is complete.

use std::borrow::Cow;

use csv_core::ReadRecordResult;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::dialect::{SAMPLE_BYTES, detect_delimiter};
use super::encoding::{Encoding, UTF8_BOM, has_utf16_bom};
use crate::error::{Error, ErrorKind, Result};

/// What to do with a data row whose field count differs from the header's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ragged {
    /// Stop with error `ragged_row` (spec default).
    #[default]
    Error,
    /// Pad short rows with missing cells, cut long ones, and count them.
    PadOrTruncate,
}

/// Reading options; `None` means "detect".
#[derive(Debug, Clone, Default)]
pub struct CsvOptions {
    /// Field delimiter.
    pub delimiter: Option<u8>,
    /// Character encoding.
    pub encoding: Option<Encoding>,
    /// Ragged-row handling.
    pub ragged: Ragged,
}

/// The largest record accepted, in bytes. A longer one is almost always an unclosed quote.
pub const MAX_RECORD_BYTES: usize = 64 * 1024 * 1024;

/// One data row, its fields decoded on demand.
pub struct Row<'a> {
    /// 1-based line of the file where the row starts.
    pub line: u64,
    out: &'a [u8],
    ends: &'a [usize],
    header: &'a [String],
    encoding: Encoding,
}

impl Row<'_> {
    /// The text of field `i` (a field beyond the row's end reads as empty).
    pub fn text(&self, i: usize) -> Result<Cow<'_, str>> {
        let Some(&end) = self.ends.get(i) else { return Ok(Cow::Borrowed("")) };
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.encoding.decode(&self.out[start..end]).ok_or_else(|| {
            Error {
                kind: ErrorKind::Encoding,
                code: "encoding_mismatch",
                message: format!(
                    "this field is not valid {}; the file was detected as {} from its first 64 KiB",
                    self.encoding.label(),
                    self.encoding.label()
                ),
                line: Some(self.line),
                column: None,
            }
            .in_column(&self.header[i])
        })
    }
}

/// Receives the header and the rows.
pub trait RowSink {
    /// The header, once, before any row.
    fn header(&mut self, names: &[String]) -> Result<()>;
    /// One data row with as many fields as the header.
    fn row(&mut self, row: &Row<'_>) -> Result<()>;
}

/// A sink that turns into a result once its file ends.
pub trait Collect: RowSink {
    /// What the file becomes.
    type Output;
    /// The result, from the sink and the facts of the file as read.
    fn collect(self, facts: &InputFacts) -> Result<Self::Output>;
}

/// A CSV stream feeding one sink: the shape of every table read beside the audit (population,
/// original, drill-down).
pub struct Feed<S> {
    csv: CsvStream,
    sink: S,
}

impl<S: Collect> Feed<S> {
    /// A stream with these options into `sink`.
    pub fn with_sink(opts: CsvOptions, sink: S) -> Self {
        Feed { csv: CsvStream::new(opts), sink }
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

/// Facts about the file as read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct InputFacts {
    /// Bytes pushed.
    pub bytes: u64,
    /// Data rows read (header excluded, blank lines excluded).
    pub rows_total: u64,
    /// Encoding used.
    pub encoding: String,
    /// Delimiter used, as text (`"\t"` for TAB).
    pub delimiter: String,
    /// Rows padded or cut under `Ragged::PadOrTruncate`.
    pub ragged_rows: u64,
    /// Lines that held nothing, skipped.
    pub blank_lines: u64,
    /// Number of columns.
    pub columns: usize,
    /// SHA-256 of the bytes pushed, lower-case hex (`None` for a table merged from parts).
    pub sha256: Option<String>,
    /// Header cells that were empty and got a `column_<n>` name.
    #[serde(skip)]
    pub renamed_columns: Vec<String>,
    /// The first ragged row kept under `PadOrTruncate`: line, fields.
    #[serde(skip)]
    pub first_ragged: Option<(u64, usize)>,
}

impl InputFacts {
    /// Adds the counts of another part of the same table.
    pub fn merge(&mut self, other: &InputFacts) {
        self.bytes += other.bytes;
        self.rows_total += other.rows_total;
        self.ragged_rows += other.ragged_rows;
        self.blank_lines += other.blank_lines;
        self.sha256 = None;
        if self.first_ragged.is_none() {
            self.first_ragged = other.first_ragged;
        }
    }
}

/// The push-driven reader.
pub struct CsvStream {
    opts: CsvOptions,
    sniff: Option<Vec<u8>>,
    rdr: csv_core::Reader,
    encoding: Encoding,
    out: Vec<u8>,
    ends: Vec<usize>,
    nout: usize,
    nend: usize,
    skipped_lines: u64,
    record_line: u64,
    header: Option<Vec<String>>,
    facts: InputFacts,
    hash: Sha256,
}

impl CsvStream {
    /// A reader with these options.
    pub fn new(opts: CsvOptions) -> Self {
        CsvStream {
            opts,
            sniff: Some(Vec::new()),
            rdr: csv_core::Reader::new(),
            encoding: Encoding::Utf8,
            out: vec![0; 64 * 1024],
            ends: vec![0; 64],
            nout: 0,
            nend: 0,
            skipped_lines: 0,
            record_line: 1,
            header: None,
            facts: InputFacts::default(),
            hash: Sha256::new(),
        }
    }

    /// Facts so far.
    pub fn facts(&self) -> &InputFacts {
        &self.facts
    }

    /// The header, once read.
    pub fn header(&self) -> Option<&[String]> {
        self.header.as_deref()
    }

    /// Absorbs the next chunk.
    pub fn push(&mut self, chunk: &[u8], sink: &mut impl RowSink) -> Result<()> {
        self.facts.bytes += chunk.len() as u64;
        self.hash.update(chunk);
        match &mut self.sniff {
            Some(buf) => {
                buf.extend_from_slice(chunk);
                if buf.len() >= SAMPLE_BYTES {
                    let buf = self.sniff.take().unwrap_or_default();
                    self.start(&buf, false)?;
                    self.feed(self.skip_bom(&buf), sink)?;
                }
                Ok(())
            }
            None => self.feed(chunk, sink),
        }
    }

    /// Ends the input: flushes the last record. Errors `empty_file` when there was no header.
    pub fn finish(&mut self, sink: &mut impl RowSink) -> Result<()> {
        if let Some(buf) = self.sniff.take() {
            self.start(&buf, true)?;
            self.feed(self.skip_bom(&buf), sink)?;
        }
        loop {
            let (res, _, nout, nend) =
                self.rdr.read_record(&[], &mut self.out[self.nout..], &mut self.ends[self.nend..]);
            self.nout += nout;
            self.nend += nend;
            match res {
                ReadRecordResult::Record => self.emit(sink)?,
                ReadRecordResult::End => break,
                ReadRecordResult::OutputFull => self.grow_out()?,
                ReadRecordResult::OutputEndsFull => self.ends.resize(self.ends.len() * 2, 0),
                ReadRecordResult::InputEmpty => {}
            }
        }
        if self.header.is_none() {
            return Err(Error::input("empty_file", "the file is empty: it has no header row"));
        }
        let digest = std::mem::take(&mut self.hash).finalize();
        self.facts.sha256 = Some(digest.iter().map(|b| format!("{b:02x}")).collect());
        Ok(())
    }

    fn skip_bom<'b>(&self, buf: &'b [u8]) -> &'b [u8] {
        buf.strip_prefix(UTF8_BOM).unwrap_or(buf)
    }

    fn start(&mut self, buf: &[u8], complete: bool) -> Result<()> {
        if has_utf16_bom(buf) {
            return Err(Error {
                kind: ErrorKind::Encoding,
                code: "unsupported_encoding",
                message: "the file is UTF-16; save it as UTF-8 (or Windows-1252) CSV".into(),
                line: None,
                column: None,
            });
        }
        let body = self.skip_bom(buf);
        self.encoding = self.opts.encoding.unwrap_or_else(|| Encoding::detect(body));
        let delim = self.opts.delimiter.unwrap_or_else(|| detect_delimiter(body, complete));
        self.rdr = csv_core::ReaderBuilder::new().delimiter(delim).build();
        self.facts.encoding = self.encoding.label().to_string();
        self.facts.delimiter = (delim as char).to_string();
        Ok(())
    }

    fn grow_out(&mut self) -> Result<()> {
        if self.out.len() >= MAX_RECORD_BYTES {
            let column = self.header.as_ref().and_then(|h| h.get(self.nend)).cloned();
            return Err(Error {
                column,
                ..Error::input(
                    "field_too_large",
                    format!(
                        "a record longer than {} MiB starts here; this is usually a quote that is never closed",
                        MAX_RECORD_BYTES >> 20
                    ),
                )
                .at_line(self.record_line)
            });
        }
        self.out.resize(self.out.len() * 2, 0);
        Ok(())
    }

    fn feed(&mut self, mut input: &[u8], sink: &mut impl RowSink) -> Result<()> {
        loop {
            if self.nout == 0 && self.nend == 0 {
                // Between records: skip blank lines here so the next record's line is exact.
                let blank = input.iter().take_while(|&&b| b == b'\n' || b == b'\r').count();
                self.skipped_lines += input[..blank].iter().filter(|&&b| b == b'\n').count() as u64;
                input = &input[blank..];
                if input.is_empty() {
                    return Ok(());
                }
                self.record_line = self.rdr.line() + self.skipped_lines;
            }
            let (res, nin, nout, nend) =
                self.rdr.read_record(input, &mut self.out[self.nout..], &mut self.ends[self.nend..]);
            input = &input[nin..];
            self.nout += nout;
            self.nend += nend;
            match res {
                ReadRecordResult::InputEmpty | ReadRecordResult::End => return Ok(()),
                ReadRecordResult::OutputFull => self.grow_out()?,
                ReadRecordResult::OutputEndsFull => self.ends.resize(self.ends.len() * 2, 0),
                ReadRecordResult::Record => self.emit(sink)?,
            }
        }
    }

    fn emit(&mut self, sink: &mut impl RowSink) -> Result<()> {
        let (nout, nend) = (self.nout, self.nend);
        self.nout = 0;
        self.nend = 0;
        let line = self.record_line;
        let Some(header) = &self.header else {
            let names = self.read_header(nout, nend, line)?;
            sink.header(&names)?;
            self.facts.columns = names.len();
            self.header = Some(names);
            return Ok(());
        };
        let fields = &self.out[..nout];
        let ends = &self.ends[..nend];
        if nend == 1 && header.len() > 1 && fields.iter().all(u8::is_ascii_whitespace) {
            self.facts.blank_lines += 1;
            return Ok(());
        }
        if nend != header.len() {
            match self.opts.ragged {
                Ragged::Error => {
                    return Err(Error::input(
                        "ragged_row",
                        format!(
                            "this row has {nend} fields but the header has {}; fix the row, or choose to pad or cut ragged rows",
                            header.len()
                        ),
                    )
                    .at_line(line));
                }
                Ragged::PadOrTruncate => {
                    self.facts.ragged_rows += 1;
                    self.facts.first_ragged.get_or_insert((line, nend));
                }
            }
        }
        let width = nend.min(header.len());
        self.facts.rows_total += 1;
        sink.row(&Row { line, out: fields, ends: &ends[..width], header, encoding: self.encoding })
    }

    fn read_header(&mut self, nout: usize, nend: usize, line: u64) -> Result<Vec<String>> {
        let mut names: Vec<String> = Vec::with_capacity(nend);
        for i in 0..nend {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            let raw = &self.out[start..self.ends[i].min(nout)];
            let text = self.encoding.decode(raw).ok_or_else(|| {
                Error {
                    kind: ErrorKind::Encoding,
                    code: "encoding_mismatch",
                    message: "a header name is not valid in the detected encoding".into(),
                    line: Some(line),
                    column: None,
                }
            })?;
            let mut name = text.trim_matches(char::is_whitespace).to_string();
            if name.is_empty() {
                name = format!("column_{}", i + 1);
                self.facts.renamed_columns.push(name.clone());
            }
            if names.contains(&name) {
                return Err(Error::input(
                    "duplicate_column",
                    format!("the header names the column \"{name}\" twice; column names must be unique"),
                )
                .at_line(line)
                .in_column(&name));
            }
            names.push(name);
        }
        Ok(names)
    }
}
