//! Which row of a table is its header (issue 36): the first row that is not blank, unless
//! the rows above it are titles (an export's "Patients, ward 3, March" above the column
//! names), or the person named the header's row. CSV and spreadsheets share this rule.
//!
//! A title row fills at most one cell, or at most a third of the cells the table's rows
//! usually have (the modal count of filled cells of the rows looked at); a table of fewer
//! than three columns never has titles detected (a header with one name of two is still a
//! header). At most [`MAX_TITLES`] rows are read as titles; when every row looked at would be
//! one, the first row is the header. The rows skipped are counted with the header
//! (`header_records`) and a warning names the row taken (`header_row`).

/// The shape of a row that is not blank: its line and how many of its cells hold text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// The row's line (spreadsheet row number).
    pub line: u64,
    /// Cells that are not empty once trimmed.
    pub filled: usize,
}

/// At most this many rows above the header are read as titles.
pub const MAX_TITLES: usize = 10;

/// How many rows are looked at to find the header.
pub const LOOKED_AT: usize = 200;

/// The index in `rows` (the first non-blank rows of a table, at most [`LOOKED_AT`]) of the
/// header: the first at line `chosen` or later when the header's row was named, else the
/// first that is not a title. `None` when no row is at or after `chosen`.
pub fn header_index(rows: &[Shape], chosen: Option<u64>) -> Option<usize> {
    if let Some(line) = chosen {
        return rows.iter().position(|r| r.line >= line);
    }
    let modal = modal_filled(rows);
    if modal < 3 {
        return (!rows.is_empty()).then_some(0);
    }
    let title = |r: &Shape| r.filled <= 1 || 3 * r.filled <= modal;
    match rows.iter().take(MAX_TITLES + 1).position(|r| !title(r)) {
        Some(i) => Some(i),
        None => (!rows.is_empty()).then_some(0),
    }
}

/// The most common number of filled cells (the larger on a tie).
fn modal_filled(rows: &[Shape]) -> usize {
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for r in rows {
        match counts.iter_mut().find(|c| c.0 == r.filled) {
            Some(c) => c.1 += 1,
            None => counts.push((r.filled, 1)),
        }
    }
    counts.into_iter().max_by_key(|&(filled, n)| (n, filled)).map_or(0, |c| c.0)
}

/// Whether a cell's text counts as filled: not empty once trimmed.
pub fn filled(cell: &[u8]) -> bool {
    !cell.trim_ascii().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(filled: &[usize]) -> Vec<Shape> {
        filled.iter().enumerate().map(|(i, &f)| Shape { line: i as u64 + 1, filled: f }).collect()
    }

    #[test]
    fn titles_above_the_header_are_skipped() {
        // A title, then the header and rows of 5 cells.
        assert_eq!(header_index(&rows(&[1, 5, 5, 5, 4]), None), Some(1));
        // Two titles, one of two cells among 8.
        assert_eq!(header_index(&rows(&[1, 2, 8, 8, 8]), None), Some(2));
        // No title: the first row.
        assert_eq!(header_index(&rows(&[5, 5, 5]), None), Some(0));
        // A header with an empty name among three is a header.
        assert_eq!(header_index(&rows(&[2, 3, 3]), None), Some(0));
        // Two columns: never titles.
        assert_eq!(header_index(&rows(&[1, 2, 2]), None), Some(0));
        // Sparse rows everywhere: the first row.
        assert_eq!(header_index(&rows(&[1; 20]), None), Some(0));
        // Too many title-like rows: the first row.
        let mut many = vec![1; MAX_TITLES + 1];
        many.extend([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
        assert_eq!(header_index(&rows(&many), None), Some(0));
        assert_eq!(header_index(&[], None), None);
    }

    #[test]
    fn a_chosen_row_is_the_header() {
        assert_eq!(header_index(&rows(&[5, 5, 5]), Some(2)), Some(1));
        assert_eq!(header_index(&rows(&[1, 5, 5]), Some(1)), Some(0));
        assert_eq!(header_index(&rows(&[5, 5]), Some(3)), None);
        // A blank row (not among the shapes) named: the next row.
        let gap = [Shape { line: 1, filled: 1 }, Shape { line: 3, filled: 4 }];
        assert_eq!(header_index(&gap, Some(2)), Some(1));
    }
}
