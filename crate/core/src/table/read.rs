//! Reading a table: CSV bytes pushed in chunks cut anywhere, or a header and rows of cells from
//! a reader of another format, built into a [`Table`] and the account of its file
//! ([`TableReader`]), whole or one part of a file ([`Part`]). Nothing is summarised for an
//! audit here: a streaming audit reads its table with the same reader, whose blocks of codes
//! also feed its summaries ([`BlockSink`]).

use super::{Block, Part, Table, TableBuilder};
use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::ingest::cells::{CellBatch, CellReader};
use crate::ingest::format::Format;
use crate::ingest::reader::{CsvOptions, InputFacts, PartBounds, Probe, Reader, RecordSink, Rows, Span};

/// How a table is read: the reading options, the normalisation of cells, the columns whose
/// every value is needed (the roles of the audits to come) and whether a code per row is kept.
#[derive(Debug, Clone)]
pub struct ReadSettings {
    /// The CSV reading options (checked).
    pub csv: CsvOptions,
    /// The normalisation of cells (spec README Sec 5).
    pub norm: Normaliser,
    /// The columns whose every value is needed: they are never given up as too varied.
    pub needed: Vec<String>,
    /// Keeps a code per row within this memory budget in bytes (`None`: streaming, the
    /// table keeps its values and counts alone).
    pub retain: Option<u64>,
    /// Reads the `needed` columns alone: the others are left unread (no value, no code, no
    /// profile). The table of protect's search, whose release reads the file again.
    pub needed_only: bool,
}

/// What the blocks of codes of a table being read feed besides the table: the summaries of a
/// streaming audit; nothing (`()`) for a table reader.
pub trait BlockSink {
    /// The header, once, before any block.
    fn header(&mut self, names: &[String]) -> Result<()>;
    /// The codes of the rows just read.
    fn block(&mut self, block: &Block<'_>) -> Result<()>;
}

impl BlockSink for () {
    fn header(&mut self, _: &[String]) -> Result<()> {
        Ok(())
    }

    fn block(&mut self, _: &Block<'_>) -> Result<()> {
        Ok(())
    }
}

/// Where a table's rows come from: CSV bytes, or rows of cells from a reader of another
/// format ([`TableReader::reading_cells`]).
// One per reader, made once: the size of the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
enum Source {
    Csv(Reader),
    Cells(CellReader),
}

impl Source {
    fn facts(&self) -> &InputFacts {
        match self {
            Source::Csv(r) => r.facts(),
            Source::Cells(r) => r.facts(),
        }
    }

    fn cells(&mut self) -> Result<&mut CellReader> {
        match self {
            Source::Cells(r) => Ok(r),
            Source::Csv(_) => Err(wrong_input("not_cells", "this reader reads CSV bytes, not cells")),
        }
    }
}

/// An internal error: the input pushed is not the kind the reader was made for.
fn wrong_input(code: &'static str, message: &str) -> Error {
    Error::internal(code, message)
}

/// The reader's sink: the rows build the table, whose block of codes then goes to `blocks`.
struct Feed<'a, S> {
    builder: &'a mut TableBuilder,
    blocks: &'a mut S,
}

impl<S: BlockSink> RecordSink for Feed<'_, S> {
    fn header(&mut self, names: &[String]) -> Result<()> {
        self.blocks.header(names)?;
        self.builder.header(names);
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        self.builder.absorb(rows)?;
        self.blocks.block(&self.builder.block())
    }
}

/// Reads one table, or one part of a file: CSV bytes pushed in chunks ([`TableReader::push`]),
/// or (see [`TableReader::reading_cells`]) a header and batches of cells; [`TableReader::finish`]
/// gives the [`Part`] read. `S`: what the blocks of codes feed besides the table (nothing for
/// a plain table reader; a streaming audit's summaries).
pub struct TableReader<S = ()> {
    source: Source,
    builder: TableBuilder,
    header_row: Option<u64>,
    blocks: S,
}

impl TableReader {
    /// A reader of a whole file with these settings.
    pub fn new(settings: ReadSettings) -> Self {
        let source = Source::Csv(Reader::new(settings.csv.clone()));
        TableReader::reading(settings, source)
    }

    /// A reader of one part of a file whose start was probed ([`Reader::probe`]): the part
    /// reads the records starting in `span`; parts merge in file order ([`Part::merge`]).
    pub fn part(settings: ReadSettings, probe: &Probe, span: Span) -> Self {
        let source = Source::Csv(Reader::part(settings.csv.clone(), probe, span));
        TableReader::reading(settings, source)
    }

    /// A reader of `source` with these settings.
    fn reading(settings: ReadSettings, source: Source) -> Self {
        let mut builder = TableBuilder::new(settings.norm, settings.needed, settings.retain);
        if settings.needed_only {
            builder.read_needed_only();
        }
        TableReader { source, builder, header_row: settings.csv.header_row, blocks: () }
    }

    /// Ends the input; returns the part read.
    pub fn finish(self) -> Result<Part> {
        self.finish_feeding().map(|(part, ())| part)
    }
}

impl<S: BlockSink> TableReader<S> {
    /// The same reader, its blocks also fed to `blocks` (before anything is pushed).
    pub(crate) fn feeding<T: BlockSink>(self, blocks: T) -> TableReader<T> {
        TableReader { source: self.source, builder: self.builder, header_row: self.header_row, blocks }
    }

    /// What the blocks feed.
    pub(crate) fn blocks(&mut self) -> &mut S {
        &mut self.blocks
    }

    /// Adds columns whose every value is needed (before the header).
    pub(crate) fn need(&mut self, names: impl IntoIterator<Item = String>) {
        self.builder.need(names);
    }

    /// The same reader fed a table of cells in `format` instead of CSV bytes:
    /// [`TableReader::push_header`] once, then [`TableReader::push_cells`]; the CSV reading
    /// settings (delimiter, encoding, ragged rows) do not apply. Call before anything is pushed.
    pub fn reading_cells(mut self, format: Format) -> Self {
        self.source = Source::Cells(CellReader::new(format));
        self
    }

    /// [`TableReader::reading_cells`] for a later part of a table (row groups read on their
    /// own, after the first part): its header is not counted again; parts merge in order.
    pub fn reading_cells_part(mut self, format: Format) -> Self {
        self.source = Source::Cells(CellReader::later_part(format));
        self
    }

    /// Absorbs the next chunk of the file.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        let feed = &mut Feed { builder: &mut self.builder, blocks: &mut self.blocks };
        match &mut self.source {
            Source::Csv(r) => r.push(chunk, feed),
            Source::Cells(_) => Err(wrong_input("not_csv", "this reader reads cells, not CSV bytes")),
        }
    }

    /// The header of a table of cells, at `line` (0 when the names are not a row of the
    /// table, as in Parquet; see [`crate::ingest::cells`]).
    pub fn push_header(&mut self, names: Vec<String>, line: u64) -> Result<()> {
        let feed = &mut Feed { builder: &mut self.builder, blocks: &mut self.blocks };
        self.source.cells()?.header(names, line, feed)
    }

    /// The rows of a table of cells above its header: `titles` skipped as titles, `blanks`
    /// blank (call before [`TableReader::push_header`]; [`crate::ingest::header`] says which
    /// row is the header).
    pub fn push_above_header(&mut self, titles: u64, blanks: u64) -> Result<()> {
        self.source.cells()?.above_header(titles, blanks);
        Ok(())
    }

    /// The header's row the settings name (`header_row`), if any.
    pub fn header_row(&self) -> Option<u64> {
        self.header_row
    }

    /// A batch of rows of cells, each of the header's width.
    pub fn push_cells(&mut self, batch: &CellBatch) -> Result<()> {
        let feed = &mut Feed { builder: &mut self.builder, blocks: &mut self.blocks };
        self.source.cells()?.rows(batch, feed)
    }

    /// The size and SHA-256 (lower-case hex) of the file a table of cells was read from.
    pub fn set_file(&mut self, bytes: u64, sha256: Option<String>) {
        if let Source::Cells(r) = &mut self.source {
            r.set_file(bytes, sha256);
        }
    }

    /// Names the sheet a table of cells was read from, in a workbook.
    pub fn set_sheet(&mut self, sheet: &str) {
        if let Source::Cells(r) = &mut self.source {
            r.set_sheet(sheet);
        }
    }

    /// The size of the whole file in bytes (of which this may read a part): a column too
    /// varied to keep is then given up early ([`TableBuilder::expect_file_bytes`]).
    pub fn expect_file_bytes(&mut self, bytes: u64) {
        self.builder.expect_file_bytes(bytes);
    }

    /// Data rows read so far.
    pub fn rows(&self) -> u64 {
        self.source.facts().rows_total
    }

    /// Ends a part earlier, at byte `end` of the file, for another thread to read from there
    /// on (see [`Reader::end_at`]); `false` when it cannot end there any more.
    pub fn end_at(&mut self, end: u64) -> bool {
        match &mut self.source {
            Source::Csv(r) => r.end_at(end),
            Source::Cells(_) => false,
        }
    }

    /// Whether a part has read its last record: push no more.
    pub fn done(&self) -> bool {
        matches!(&self.source, Source::Csv(r) if r.done())
    }

    /// Ends the input; returns the part read and what its blocks fed.
    pub(crate) fn finish_feeding(mut self) -> Result<(Part, S)> {
        let feed = &mut Feed { builder: &mut self.builder, blocks: &mut self.blocks };
        match &mut self.source {
            Source::Csv(r) => r.finish(feed)?,
            Source::Cells(r) => r.finish()?,
        }
        let table = self.builder.finish(self.source.facts().clone());
        let bounds = match &self.source {
            Source::Csv(r) => r.bounds(),
            Source::Cells(_) => None,
        };
        Ok((Part { table, bounds }, self.blocks))
    }
}

/// What reads a table with a [`TableReader`]: the reader itself, or a streaming audit, whose
/// reader's blocks also feed its summaries. The readers of files take either: the readers of
/// cells of `pseudolens-formats`, a front end's read of a file in parts.
pub trait ReadsTable: Sized {
    /// What the blocks of codes feed besides the table.
    type Blocks: BlockSink;
    /// What the reading ends with: a part of a file.
    type Part: FilePart;
    /// The table reader.
    fn reader(&mut self) -> &mut TableReader<Self::Blocks>;
    /// Reads a table of cells ([`TableReader::reading_cells`]).
    fn reading_cells(self, format: Format) -> Self;
    /// Reads a later part of a table of cells ([`TableReader::reading_cells_part`]).
    fn reading_cells_part(self, format: Format) -> Self;
    /// Ends the input; returns the part read.
    fn finish_part(self) -> Result<Self::Part>;
}

/// A part of a file as read, merged in file order with the next part of the same file.
pub trait FilePart: Sized {
    /// Where the part began and ended in its file (`None`: a whole file).
    fn bounds(&self) -> Option<PartBounds>;
    /// The table read.
    fn table_mut(&mut self) -> &mut Table;
    /// What merging this part into the one before it costs (parts merge the cheapest first:
    /// [`crate::par::merge_smallest_first`]).
    fn merge_cost(&self) -> usize;
    /// Appends the next part of the same file.
    fn merge(&mut self, next: Self) -> Result<()>;
}

impl ReadsTable for TableReader {
    type Blocks = ();
    type Part = Part;

    fn reader(&mut self) -> &mut TableReader {
        self
    }

    fn reading_cells(self, format: Format) -> Self {
        TableReader::reading_cells(self, format)
    }

    fn reading_cells_part(self, format: Format) -> Self {
        TableReader::reading_cells_part(self, format)
    }

    fn finish_part(self) -> Result<Part> {
        self.finish()
    }
}

impl FilePart for Part {
    fn bounds(&self) -> Option<PartBounds> {
        self.bounds
    }

    fn table_mut(&mut self) -> &mut Table {
        &mut self.table
    }

    /// Appending a part costs its rows.
    fn merge_cost(&self) -> usize {
        usize::try_from(self.table.facts.rows_total).unwrap_or(usize::MAX)
    }

    fn merge(&mut self, next: Part) -> Result<()> {
        Part::merge(self, next)
    }
}
