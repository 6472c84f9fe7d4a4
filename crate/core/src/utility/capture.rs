//! The columns of the original `O` and of the release `P` kept row by row for the utility
//! metrics (spec utility.md): unlike the risk metrics, paired measures and the permutation
//! model need every cell. Each column is dictionary-encoded (one `u32` per cell), so memory
//! grows with the rows times 4 bytes plus the distinct values.

use crate::error::Result;
use crate::ingest::cell::{Cell, Normaliser, parse_num};
use crate::ingest::reader::{InputFacts, Row};
use crate::table::dictionary::Dictionary;
use crate::table::{Block, header};

/// One captured column: its values and, per row, the code of the row's value.
#[derive(Debug, Clone, Default)]
pub struct Column {
    /// The normalised values (codes 0 and 1 are `MISSING` and `SUPPRESSED`).
    pub values: Dictionary,
    /// Per row, the code of its cell.
    pub codes: Vec<u32>,
}

impl Column {
    /// A column of these raw cells, normalised with the default settings (for tests).
    #[cfg(test)]
    pub(crate) fn of(cells: &[&str]) -> Column {
        let norm = Normaliser::default();
        let mut c = Column::default();
        for t in cells {
            let code = c.values.code(norm.normalise(t));
            c.codes.push(code);
        }
        c
    }
}

/// The captured columns of one table.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    /// Column names, in the table's order.
    pub names: Vec<String>,
    /// The columns, as `names`.
    pub columns: Vec<Column>,
    /// Per row: the record id, when a record-id column was given.
    pub ids: Option<Vec<Option<String>>>,
    /// Per row: the sampling weight, when the table has the weight column (NaN where the cell
    /// is not a finite number >= 0).
    pub weights: Option<Vec<f64>>,
    /// How the table was read (for the report's description of its inputs).
    pub input: InputFacts,
    rows: usize,
    positions: Vec<usize>,
    id_column: Option<usize>,
    weight_column: Option<usize>,
    /// Per captured column, the code of each of the table column's codes.
    maps: Vec<Vec<u32>>,
    /// The weight of each of the weight column's codes.
    weight_map: Vec<f64>,
}

/// A weight cell read once per distinct value: a finite number >= 0, else NaN.
fn weight_of(cell: Cell<'_>) -> f64 {
    match cell {
        Cell::Text(t) => parse_num(&t).filter(|w| w.is_finite() && *w >= 0.0).unwrap_or(f64::NAN),
        _ => f64::NAN,
    }
}

impl Captured {
    /// Captures the columns of a table with header `header` that `wanted` accepts, and the
    /// record id `record_id` that pairs rows (spec README Sec 8).
    pub fn new(header: &[String], wanted: impl Fn(&str) -> bool, record_id: Option<&str>) -> Result<Self> {
        let id_column = record_id.map(|id| header::find(header, id)).transpose()?;
        let positions: Vec<usize> = (0..header.len()).filter(|&i| Some(i) != id_column && wanted(&header[i])).collect();
        Ok(Captured {
            names: positions.iter().map(|&i| header[i].clone()).collect(),
            columns: vec![Column::default(); positions.len()],
            ids: id_column.map(|_| Vec::new()),
            weights: None,
            input: InputFacts::default(),
            rows: 0,
            positions,
            id_column,
            weight_column: None,
            maps: Vec::new(),
            weight_map: Vec::new(),
        })
    }

    /// Captures the sampling weight `weight` too, when the header has it (spec README Sec 3;
    /// utility.md Sec 4 and 6.1 weigh the counts); call before the first row.
    pub fn weighted(mut self, header: &[String], weight: Option<&str>) -> Self {
        self.weight_column = weight.and_then(|w| header.iter().position(|h| h == w));
        self.weights = self.weight_column.map(|_| Vec::new());
        self
    }

    /// Absorbs one row.
    pub fn absorb(&mut self, row: &Row<'_>, norm: &Normaliser) -> Result<()> {
        for (column, &i) in self.columns.iter_mut().zip(&self.positions) {
            let text = row.text(i)?;
            let code = column.values.code(norm.normalise(&text));
            column.codes.push(code);
        }
        if let (Some(ids), Some(i)) = (&mut self.ids, self.id_column) {
            let text = row.text(i)?;
            ids.push(match norm.normalise(&text) {
                Cell::Text(t) => Some(t.to_string()),
                _ => None,
            });
        }
        if let (Some(weights), Some(i)) = (&mut self.weights, self.weight_column) {
            weights.push(weight_of(norm.normalise(&row.text(i)?)));
        }
        self.rows += 1;
        Ok(())
    }

    /// Absorbs a block of rows of the table's columns (codes of the block's columns, mapped to
    /// the captured dictionaries one distinct value at a time).
    pub fn absorb_block(&mut self, block: &Block<'_>, norm: &Normaliser) {
        if self.maps.len() != self.columns.len() {
            self.maps = vec![Vec::new(); self.columns.len()];
        }
        for ((column, &i), map) in self.columns.iter_mut().zip(&self.positions).zip(&mut self.maps) {
            let values = &block.columns[i].values;
            if map.len() < values.len() {
                map.extend((map.len()..values.len()).map(|c| column.values.code(norm.normalise(values.text(c as u32)))));
            }
            column.codes.extend(block.codes[i].iter().map(|&c| map[c as usize]));
        }
        if let (Some(ids), Some(i)) = (&mut self.ids, self.id_column) {
            let values = &block.columns[i].values;
            ids.extend(block.codes[i].iter().map(|&c| match norm.normalise(values.text(c)) {
                Cell::Text(t) => Some(t.to_string()),
                _ => None,
            }));
        }
        if let (Some(weights), Some(i)) = (&mut self.weights, self.weight_column) {
            let values = &block.columns[i].values;
            let map = &mut self.weight_map;
            map.extend((map.len()..values.len()).map(|c| weight_of(norm.normalise(values.text(c as u32)))));
            weights.extend(block.codes[i].iter().map(|&c| map[c as usize]));
        }
        self.rows += block.len();
    }

    /// Appends the rows of another part of the same table, after this part's.
    pub fn append(&mut self, other: Captured) {
        for (mine, theirs) in self.columns.iter_mut().zip(other.columns) {
            let to_mine = mine.values.absorb(&theirs.values);
            mine.codes.extend(theirs.codes.iter().map(|&c| to_mine[c as usize]));
        }
        if let (Some(mine), Some(theirs)) = (&mut self.ids, other.ids) {
            mine.extend(theirs);
        }
        if let (Some(mine), Some(theirs)) = (&mut self.weights, other.weights) {
            mine.extend(theirs);
        }
        self.rows += other.rows;
    }

    /// The positions, in the table's header, of the columns captured (and of the record id
    /// and the weight).
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.positions.iter().copied().chain(self.id_column).chain(self.weight_column)
    }

    /// Rows captured.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The column named `name`, if captured.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.names.iter().position(|n| n == name).map(|i| &self.columns[i])
    }
}
