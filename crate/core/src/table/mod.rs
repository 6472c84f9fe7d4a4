//! The table layer: what a file becomes once read. Each column keeps its distinct values
//! with their counts (the profile comes from them) and, in a retained table, a code per row
//! (1, 2 or 4 bytes by its number of distinct values), so that every audit afterwards works
//! from codes and never reads the file again.
//!
//! A column that no computation needs value by value stops keeping new values past a cap
//! ([`column::EXACT_DISTINCT_CAP`] when streaming, [`RETAIN_CAP`] in a retained table): it
//! keeps a bounded sketch instead and is not retained (ids, free text). A column a role needs
//! keeps every value, up to [`column::MAX_DISTINCT`].

pub mod class_index;
pub mod classes;
pub mod codes;
pub mod column;
pub mod compatible;
pub mod dictionary;
pub mod header;
pub mod kind;
pub mod lines;
pub mod packing;
pub mod profile;
pub mod read;
pub mod reference;
pub mod roles;
pub mod sketch;
pub mod stats;
pub mod values;
pub mod wire;

use column::EXACT_DISTINCT_CAP;
use column::{Cap, Column, Overflow, SKETCHED};
use lines::Lines;
use profile::ColumnProfile;

use crate::error::{Error, ErrorKind, Result};
use crate::ingest::cell::Normaliser;
use crate::ingest::reader::{InputFacts, PartBounds, Rows};

/// How many distinct values a column of a retained table keeps before it is given up as an
/// identifier or free text (not retained).
pub const RETAIN_CAP: usize = 1 << 18;

/// Rows read before the first look at whether a column is too varied to keep (then at every
/// doubling): [`Column::past_cap_by_estimate`], whose bound the rows so far make cautious.
const FIRST_LOOK_ROWS: u64 = 1 << 12;

/// The codes of a run of rows, column by column, for the summaries of an audit.
pub struct Block<'a> {
    /// Per column, the code of each row ([`column::SKETCHED`] for a value only a sketch
    /// counted; never in a column a role needs).
    pub codes: &'a [Vec<u32>],
    /// The line of each row.
    pub lines: &'a [u64],
    /// The columns (their values give the codes' texts).
    pub columns: &'a [Column],
}

impl Block<'_> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// A table as read.
#[derive(Debug, Clone)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// The columns.
    pub columns: Vec<Column>,
    /// The account of the file.
    pub facts: InputFacts,
    /// The line of each row (kept with the codes).
    pub lines: Lines,
    /// Why the rows are not retained, when they are not.
    pub not_retained: Option<String>,
    /// The profiles last computed, with the normalisation they used (a re-audit with the same
    /// missing tokens does not compute them again).
    profiles: std::sync::OnceLock<(Normaliser, Vec<ColumnProfile>)>,
}

impl Table {
    /// A table from its parts (a stored table read back).
    pub(crate) fn assemble(header: Vec<String>, columns: Vec<Column>, facts: InputFacts, lines: Lines, not_retained: Option<String>) -> Table {
        Table { header, columns, facts, lines, not_retained, profiles: Default::default() }
    }

    /// Whether every column holds its codes: audits can run from the table alone.
    pub fn is_retained(&self) -> bool {
        self.not_retained.is_none() && self.columns.iter().all(Column::is_retained)
    }

    /// Moves every line number by `by` (a part read on its own, once its place is known).
    pub fn shift_lines(&mut self, by: u64) {
        self.profiles = Default::default();
        self.lines.shift(by);
        self.facts.shift_lines(by);
    }

    /// Appends the next part of the same file (its rows after this table's).
    pub fn append(&mut self, other: Table) -> Result<()> {
        if other.header != self.header {
            return Err(Error::input("parts_differ", "the parts of the table have different headers"));
        }
        for (j, (mine, theirs)) in self.columns.iter_mut().zip(other.columns).enumerate() {
            mine.merge(theirs).map_err(|o| overflow_error(o, 0, &self.header[j]))?;
        }
        self.facts.merge(&other.facts);
        self.lines.append(&other.lines);
        self.profiles = Default::default();
        if self.not_retained.is_none() {
            self.not_retained = other.not_retained;
        }
        Ok(())
    }

    /// Forgets the rows' codes (a part that ships its profile alone); a column of more than
    /// `values` distinct values keeps its sketch alone ([`Column::fold_into_sketch`]: the same
    /// profile, its distinct count estimated). The account stays.
    pub fn keep_profile_only(&mut self, values: usize, norm: &Normaliser) {
        for c in &mut self.columns {
            c.codes = None;
            if c.values.len() > values {
                c.freeze();
                c.fold_into_sketch(norm);
            }
        }
        self.profiles = Default::default();
        self.not_retained.get_or_insert_with(|| "the rows' codes were not kept (a class-partitioned part)".into());
    }

    /// Forgets the codes of every column but those named in `needed` (a part audited with the
    /// settings whose roles need those columns alone: smaller to ship and merge). The other
    /// columns keep their values, counts and sketches, so their profiles are unchanged; an
    /// audit whose roles need one of them is refused (`not_retained`, saying why).
    pub fn keep_codes_of(&mut self, needed: &[String]) {
        let mut forgot = false;
        for (c, name) in self.columns.iter_mut().zip(&self.header) {
            forgot |= !needed.contains(name) && c.codes.take().is_some();
        }
        if forgot {
            self.not_retained.get_or_insert_with(|| "only the codes of the columns its settings' roles need were kept".into());
        }
    }

    /// Profiles of every column, with the normalisation `norm`.
    pub fn profiles(&self, norm: &Normaliser) -> Vec<ColumnProfile> {
        // The delimiter decides whether a comma may be a decimal separator (spec README Sec 4.2).
        let read = norm.clone().delimiter(&self.facts.delimiter);
        let compute = || self.columns.iter().enumerate().map(|(i, c)| profile::profile(c, &self.header[i], i, self.facts.rows_total, &read)).collect();
        let (used, profiles) = self.profiles.get_or_init(|| (norm.clone(), compute()));
        if used == norm { profiles.clone() } else { compute() }
    }
}

/// A table read from one part of a file, with where that part lies in it (`None`: a whole
/// file). Parts merge in file order and travel as bytes ([`wire`]).
#[derive(Debug, Clone)]
pub struct Part {
    /// The table of the part.
    pub table: Table,
    /// Where it began and ended.
    pub bounds: Option<PartBounds>,
}

impl Part {
    /// Appends the next part of the same file: adjacent parts only (`parts_not_adjacent`),
    /// whose lines then follow this part's.
    pub fn merge(&mut self, mut other: Part) -> Result<()> {
        self.bounds = merge_bounds(self.bounds, other.bounds, &mut other.table)?;
        self.table.append(other.table)
    }

    /// The SHA-256 of the whole file, computed beside a read in parts.
    pub fn set_sha256(&mut self, hex: String) {
        self.table.facts.sha256 = Some(hex);
    }

    /// The binary form ([`wire`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        wire::to_bytes(&self.table, self.bounds)
    }

    /// A part from its binary form: `invalid_table` or `unsupported_table_version` when the
    /// bytes are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Part> {
        wire::from_bytes(bytes).map(|(table, bounds)| Part { table, bounds })
    }
}

/// The bounds of two adjacent parts read as one, shifting the lines of the second part's
/// table to follow the first's.
pub fn merge_bounds(a: Option<PartBounds>, b: Option<PartBounds>, table: &mut Table) -> Result<Option<PartBounds>> {
    let (Some(a), Some(b)) = (a, b) else { return Ok(a.or(b)) };
    if a.end != b.first {
        return Err(Error::input("parts_not_adjacent", format!("a part ends at byte {} but the next starts at byte {}", a.end, b.first)));
    }
    let shift = a.end_line - 1;
    table.shift_lines(shift);
    let end_line = b.end_line.checked_add(shift).ok_or_else(|| Error::input("parts_not_adjacent", "the parts' lines do not add up"))?;
    Ok(Some(PartBounds { first: a.first, end: b.end, end_line }))
}

/// The cell error, placed.
pub fn overflow_error(o: Overflow, line: u64, column: &str) -> Error {
    let e = match o {
        Overflow::TooManyValues => Error::input(
            "too_many_values",
            format!(
                "this column has more than {} distinct values: a column with that many values identifies records, so it cannot be a quasi-identifier, sensitive attribute or person id",
                column::MAX_DISTINCT
            ),
        ),
        Overflow::TooMuchText => Error::input("too_many_values", "the distinct values of this column hold more than 4 GiB of text, more than pseudolens keeps"),
        Overflow::NotDecodable => Error {
            kind: ErrorKind::Encoding,
            code: "encoding_mismatch",
            message: "this field is not valid in the file's encoding".into(),
            line: None,
            column: None,
        },
    };
    e.at_line(line).in_column(column)
}

/// Builds a [`Table`] from the rows of a reader ([`read::TableReader`]), one batch at a time; after each batch
/// [`TableBuilder::block`] gives that batch's codes to whatever summarises them.
pub struct TableBuilder {
    norm: Normaliser,
    needed: Vec<String>,
    retain: Option<u64>,
    header: Vec<String>,
    columns: Vec<Column>,
    codes: Vec<Vec<u32>>,
    block_lines: Vec<u64>,
    lines: Lines,
    not_retained: Option<String>,
    /// The size of the whole file, when known ([`TableBuilder::expect_file_bytes`]).
    file_bytes: Option<u64>,
    /// The input offset of the first row absorbed, and how many rows were absorbed.
    first_offset: Option<u64>,
    absorbed: u64,
    /// Rows absorbed at the next look at the columns' variety.
    next_look: u64,
    /// Whether the columns no role needs are left unread ([`TableBuilder::read_needed_only`]).
    needed_only: bool,
    /// Per column, whether it is left unread.
    unread: Vec<bool>,
}

impl TableBuilder {
    /// A builder; `needed` are the columns whose every value a role needs; `retain` keeps a
    /// code per row within a memory budget in bytes.
    pub fn new(norm: Normaliser, needed: Vec<String>, retain: Option<u64>) -> Self {
        TableBuilder {
            norm,
            needed,
            retain,
            header: Vec::new(),
            columns: Vec::new(),
            codes: Vec::new(),
            block_lines: Vec::new(),
            lines: Lines::default(),
            not_retained: None,
            file_bytes: None,
            first_offset: None,
            absorbed: 0,
            next_look: FIRST_LOOK_ROWS,
            needed_only: false,
            unread: Vec::new(),
        }
    }

    /// Leaves the columns no role needs unread (before the header): they keep no value, no
    /// code and no profile, and the table is not retained as a whole.
    pub fn read_needed_only(&mut self) {
        self.needed_only = true;
    }

    /// The size of the whole file in bytes: with the bytes per row read so far it tells how
    /// many rows the table will have, so that a column whose values will not fit its cap (an
    /// id, free text) is given up after [`FIRST_LOOK_ROWS`] rows instead of at its cap
    /// (docs/decisions/table/varied-column-given-up-early.md).
    pub fn expect_file_bytes(&mut self, bytes: u64) {
        self.file_bytes = Some(bytes);
    }

    /// Keeps a code per row within this memory budget in bytes (`None`: stream), before the
    /// header.
    pub fn set_retain(&mut self, budget: Option<u64>) {
        self.retain = budget;
    }

    /// Adds columns whose every value is needed (before the header).
    pub fn need(&mut self, names: impl IntoIterator<Item = String>) {
        self.needed.extend(names);
    }

    /// Sets up the columns of this header.
    pub fn header(&mut self, names: &[String]) {
        self.header = names.to_vec();
        let soft = if self.retain.is_some() { RETAIN_CAP } else { EXACT_DISTINCT_CAP };
        self.columns =
            names.iter().map(|n| Column::new(if self.needed.contains(n) { Cap::needed() } else { Cap::soft(soft) }, self.retain.is_some())).collect();
        self.codes = vec![Vec::new(); names.len()];
        self.unread = names.iter().map(|n| self.needed_only && !self.needed.contains(n)).collect();
        for (c, _) in self.columns.iter_mut().zip(&self.unread).filter(|(_, u)| **u) {
            c.codes = None;
        }
    }

    /// Takes a batch of rows.
    pub fn absorb(&mut self, rows: &Rows<'_>) -> Result<()> {
        let encoding = rows.encoding();
        let n = rows.len();
        if n > 0 && self.first_offset.is_none() {
            self.first_offset = Some(rows.offset(0));
        }
        for (j, column) in self.columns.iter_mut().enumerate() {
            let out = &mut self.codes[j];
            out.clear();
            if self.unread[j] {
                out.resize(n, SKETCHED);
                continue;
            }
            if column.is_frozen() {
                for i in 0..n {
                    column.sketch_cell(rows.field(i, j), encoding, &self.norm).map_err(|o| overflow_error(o, rows.line(i), &self.header[j]))?;
                }
                out.resize(n, SKETCHED);
                continue;
            }
            for i in 0..n {
                let code = column.take(rows.field(i, j), encoding, &self.norm).map_err(|o| overflow_error(o, rows.line(i), &self.header[j]))?;
                out.push(code);
            }
            if let Some(codes) = &mut column.codes {
                codes.extend(out, column.values.len().saturating_sub(1) as u32);
            }
        }
        self.absorbed += n as u64;
        if self.absorbed >= self.next_look {
            self.next_look = self.absorbed.saturating_mul(2);
            self.give_up_varied(rows.offset(n - 1));
        }
        self.block_lines.clear();
        self.block_lines.extend((0..n).map(|i| rows.line(i)));
        if let Some(budget) = self.retain {
            for &l in &self.block_lines {
                self.lines.push(l);
            }
            let memory: usize = self.columns.iter().map(Column::memory).sum();
            if memory as u64 > budget && self.not_retained.is_none() {
                self.not_retained = Some(format!("the table would take more than the memory budget of {} MB", budget / 1_000_000));
                for c in &mut self.columns {
                    c.codes = None;
                }
            }
        }
        Ok(())
    }

    /// Freezes the columns no role needs whose distinct values, estimated from the rows so far
    /// (the last one starting at input offset `last`) and the rows the file will have, exceed
    /// their cap.
    fn give_up_varied(&mut self, last: u64) {
        let (Some(file), Some(first)) = (self.file_bytes, self.first_offset) else { return };
        let Some(per_row) = last.checked_sub(first).filter(|&b| b > 0).map(|b| b as f64 / (self.absorbed - 1) as f64) else { return };
        let rows = file as f64 / per_row;
        for column in self.columns.iter_mut().filter(|c| !c.cap.hard && !c.is_frozen()) {
            if column.past_cap_by_estimate(rows) {
                column.freeze();
            }
        }
    }

    /// The codes of the last batch.
    pub fn block(&self) -> Block<'_> {
        Block { codes: &self.codes, lines: &self.block_lines, columns: &self.columns }
    }

    /// The columns so far.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The finished table (the columns past their cap carry their sketch alone:
    /// [`Column::fold_into_sketch`]).
    pub fn finish(mut self, facts: InputFacts) -> Table {
        for c in &mut self.columns {
            c.fold_into_sketch(&self.norm);
        }
        let not_retained = match (self.retain, self.not_retained) {
            (None, _) => Some("the table was read as a stream".to_string()),
            (_, why) => why,
        };
        Table { header: self.header, columns: self.columns, facts, lines: self.lines, not_retained, profiles: Default::default() }
    }
}
