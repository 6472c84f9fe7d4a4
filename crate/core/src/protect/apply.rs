//! Apply (spec protect.md Sec 5): the release of one node as CSV. The columns of the input in
//! their order under the header as read, the records in file order; each QI cell replaced by
//! its label (a blank cell stays as it was below the top level); the suppressed records
//! removed or written with every QI cell `*`; the records out of scope under `drop` removed.
//! UTF-8, RFC 4180 quoting only where needed, the input's delimiter (a comma for a table read
//! from cells: Arrow, Parquet, Excel), `\n` line ends. Rows are
//! written a range at a time, so a front end can stream the release in chunks.

use std::borrow::Cow;

use super::base::{Base, DROPPED, EXCLUDED};
use super::csv::write_field;
use super::ladder::BuiltLadder;
use crate::table::Table;

/// What happens to the records of the violating classes (Sec 5).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suppressed {
    /// Left out of the release.
    #[default]
    Remove,
    /// Written with every QI cell `*` (as ARX writes them).
    Star,
}

/// The delimiter a release of `table` is written with: the input's; a comma for a table read
/// from cells (Arrow, Parquet, Excel), which has none of its own.
pub fn delimiter(table: &Table) -> String {
    if table.facts.delimiter.is_empty() { ",".to_string() } else { table.facts.delimiter.clone() }
}

/// The release of one node of a kept table, ready to be written range by range.
pub struct Release<'a> {
    table: &'a Table,
    row_class: &'a [u32],
    /// Per column, the QI it is (its position among the QIs).
    qi_of: Vec<Option<usize>>,
    /// Per QI, the text written for each of its column's value codes.
    cells: Vec<Vec<Cow<'a, str>>>,
    /// Per level-0 class, whether its records are suppressed.
    suppressed: Vec<bool>,
    star: bool,
    delimiter: String,
}

impl<'a> Release<'a> {
    /// The release of the node `levels`: `qi` the QIs' columns, `suppressed` per level-0 class.
    pub(super) fn new(
        table: &'a Table,
        base: &'a Base,
        ladders: &'a [BuiltLadder],
        qi: &[usize],
        levels: &[usize],
        suppressed: Vec<bool>,
        mode: Suppressed,
    ) -> Release<'a> {
        let mut qi_of = vec![None; table.header.len()];
        for (a, &j) in qi.iter().enumerate() {
            qi_of[j] = Some(a);
        }
        let cells = qi
            .iter()
            .enumerate()
            .map(|(a, &j)| {
                let values = &table.columns[j].values;
                let level = &ladders[a].levels[levels[a]];
                let top = levels[a] + 1 == ladders[a].height();
                (0..values.len() as u32)
                    .map(|c| {
                        let code = base.col_to_dict[a][c as usize];
                        // The value itself at level 0, and a blank below the top, as written.
                        if (levels[a] == 0 || crate::table::dictionary::is_blank(code)) && !top {
                            Cow::Borrowed(values.text(c))
                        } else {
                            Cow::Borrowed(level.texts[level.map[code as usize] as usize].as_str())
                        }
                    })
                    .collect()
            })
            .collect();
        Release { table, row_class: &base.row_class, qi_of, cells, suppressed, star: mode == Suppressed::Star, delimiter: delimiter(table) }
    }

    /// The delimiter the release is written with.
    pub fn delimiter(&self) -> &str {
        &self.delimiter
    }

    /// Rows of the table (written or not).
    pub fn rows(&self) -> usize {
        self.row_class.len()
    }

    /// Writes the header line.
    pub fn write_header(&self, out: &mut Vec<u8>) {
        for (j, name) in self.table.header.iter().enumerate() {
            if j > 0 {
                out.extend_from_slice(self.delimiter.as_bytes());
            }
            write_field(out, name, self.delimiter.as_bytes());
        }
        out.push(b'\n');
    }

    /// Writes the records of rows `from..to` that the release keeps; returns how many. Every
    /// column must have kept its codes (`Protector::release` checks it).
    pub fn write_rows(&self, from: usize, to: usize, out: &mut Vec<u8>) -> u64 {
        let mut written = 0;
        for i in from..to.min(self.rows()) {
            let wrote = self
                .write_row(i, out, |j| Err(crate::Error::internal("not_retained", format!("column {j} of the release kept no codes"))))
                .expect("Protector::release checks that every column kept its codes");
            written += u64::from(wrote);
        }
        written
    }

    /// Writes row `i` when the release keeps it (true then): the QI cells from their labels,
    /// another column's cell from the kept table, or from `cell(column)` (the file read again,
    /// trimmed as a kept cell is) when that column kept no codes.
    pub(super) fn write_row<'r>(&self, i: usize, out: &mut Vec<u8>, cell: impl Fn(usize) -> crate::Result<Cow<'r, str>>) -> crate::Result<bool> {
        let class = self.row_class[i];
        let starred = class != DROPPED && class != EXCLUDED && self.suppressed[class as usize];
        if class == DROPPED || (starred && !self.star) {
            return Ok(false);
        }
        let delimiter = self.delimiter.as_bytes();
        for (j, column) in self.table.columns.iter().enumerate() {
            if j > 0 {
                out.extend_from_slice(delimiter);
            }
            match (self.qi_of[j], &column.codes) {
                (Some(_), _) if starred => out.push(b'*'),
                (Some(a), Some(codes)) => write_field(out, &self.cells[a][codes.get(i) as usize], delimiter),
                (None, Some(codes)) => write_field(out, column.values.text(codes.get(i)), delimiter),
                // A QI always keeps its codes (the search needs them); another column may not.
                (_, None) => write_field(out, cell(j)?.trim_matches(|c| matches!(c, ' ' | '\t'..='\r')), delimiter),
            }
        }
        out.push(b'\n');
        Ok(true)
    }

    /// The whole release: the header, then every row.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_header(&mut out);
        self.write_rows(0, self.rows(), &mut out);
        out
    }
}
