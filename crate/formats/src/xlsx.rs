//! An Excel workbook (`.xlsx`): its first sheet, or one chosen by name, through `calamine`,
//! from any `Read + Seek` source (a zip archive keeps its directory at its end).
//!
//! The sheet's used range is the table: its first row the header (unless the rows above it
//! are titles, or the settings name the header's row: [`pseudolens_core::ingest::header`];
//! the rows above are skipped and counted with the header), each further row a record
//! whose line is the sheet's row number (as Excel shows it). A row without any value is blank
//! (skipped and counted, as an empty line of a CSV file). Cells become text by the typed-cell
//! rule ([`pseudolens_core::ingest::typed`]): a number is its shortest round-trip decimal, so a
//! whole number prints without a fraction (`7`, not `7.0`); a date is `YYYY-MM-DD`, a date with
//! a time `YYYY-MM-DD HH:MM:SS` (milliseconds when not zero), a time alone `HH:MM:SS`; a
//! duration `[h]:MM:SS`; a boolean `true`/`false`; an error value its text (`#N/A`); formulas
//! their last computed value.

use std::io::{Read, Seek};

use calamine::{Data, Reader, Xlsx};
use pseudolens_core::ingest::header::{LOOKED_AT, Shape, header_index};
use pseudolens_core::ingest::typed;
use pseudolens_core::{CellBatch, Error, ReadsTable, Result};

use crate::contain::contain;

fn unreadable(e: impl std::fmt::Display) -> Error {
    Error::input("unreadable_xlsx", format!("this file could not be read as an Excel workbook: {e}"))
}

/// The sheets of a workbook, in order.
pub fn sheet_names<RS: Read + Seek>(input: RS) -> Result<Vec<String>> {
    contain("Excel", "unreadable_xlsx", || Ok(Xlsx::new(input).map_err(unreadable)?.sheet_names()))
}

/// Whether a cell holds a value (text that is not only white space, or any other value).
fn filled(cell: &Data) -> bool {
    match cell {
        Data::Empty => false,
        Data::String(s) => !s.trim().is_empty(),
        _ => true,
    }
}

/// The text of a cell.
pub fn cell_text(cell: &Data, out: &mut String) {
    match cell {
        Data::Empty => {}
        Data::Int(i) => typed::int(*i, out),
        Data::Float(f) => typed::float64(*f, out),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => out.push_str(s),
        Data::Bool(b) => typed::boolean(*b, out),
        Data::Error(e) => out.push_str(&e.to_string()),
        Data::DateTime(d) if d.is_duration() => {
            let ms = (d.as_f64() * 86_400_000.0).round() as i64;
            let s = ms.div_euclid(1000);
            out.push_str(&format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60));
        }
        Data::DateTime(d) => {
            let (y, mo, day, h, mi, s, ms) = d.to_ymd_hms_milli();
            let time = (h, mi, s, ms) != (0, 0, 0, 0);
            if d.as_f64() >= 1.0 || !time {
                out.push_str(&format!("{y:04}-{mo:02}-{day:02}"));
            }
            if time {
                if d.as_f64() >= 1.0 {
                    out.push(' ');
                }
                out.push_str(&format!("{h:02}:{mi:02}:{s:02}"));
                if ms != 0 {
                    out.push_str(&format!(".{ms:03}"));
                }
            }
        }
    }
}

/// Reads the sheet named `sheet` (the first when `None`) into `target` (made with
/// `reading_cells(Format::Xlsx)`); returns the sheet's name. `unknown_sheet` names the sheets
/// when there is none of that name.
pub fn read<RS: Read + Seek>(input: RS, sheet: Option<&str>, target: &mut impl ReadsTable) -> Result<String> {
    contain("Excel", "unreadable_xlsx", || {
        let reader = target.reader();
        let mut book = Xlsx::new(input).map_err(unreadable)?;
        let names = book.sheet_names();
        let name = match sheet {
            Some(s) if names.iter().any(|n| n == s) => s.to_string(),
            Some(s) => {
                return Err(Error::config("unknown_sheet", format!("this workbook has no sheet \"{s}\"; its sheets are: {}", names.join(", "))));
            }
            None => names.first().cloned().ok_or_else(|| Error::input("empty_file", "this workbook has no sheet"))?,
        };
        let range = book.worksheet_range(&name).map_err(unreadable)?;
        reader.set_sheet(&name);
        let Some((top, _)) = range.start() else {
            return Err(Error::input("empty_file", format!("the sheet \"{name}\" is empty: it has no header row")));
        };
        let first = u64::from(top) + 1;
        let blank = |row: &[Data]| row.iter().all(|c| matches!(c, Data::Empty));
        // The header: the first row, unless the rows above it are titles or the settings name it.
        let shapes: Vec<Shape> = (first..)
            .zip(range.rows())
            .filter(|(_, row)| !blank(row))
            .take(LOOKED_AT)
            .map(|(line, row)| Shape { line, filled: row.iter().filter(|c| filled(c)).count() })
            .collect();
        let at = match (header_index(&shapes, reader.header_row()), reader.header_row()) {
            (Some(i), _) => shapes[i].line,
            (None, Some(row)) => {
                let message =
                    format!("the sheet \"{name}\" has no row at {row} or below to read as the header: its last row is {}", first + range.height() as u64 - 1);
                return Err(Error::config("header_row_out_of_range", message));
            }
            (None, None) => first,
        };
        let mut rows = (first..).zip(range.rows());
        let above: Vec<bool> = rows.by_ref().take((at - first) as usize).map(|(_, row)| blank(row)).collect();
        let blanks = above.iter().filter(|&&b| b).count() as u64;
        reader.push_above_header(above.len() as u64 - blanks, blanks)?;
        let mut text = String::new();
        let header = rows.next().map(|(_, row)| row).unwrap_or_default().iter().map(|c| {
            text.clear();
            cell_text(c, &mut text);
            text.clone()
        });
        reader.push_header(header.collect(), at)?;
        let mut cells = CellBatch::new();
        let mut row_texts: Vec<String> = Vec::new();
        for (line, row) in rows {
            if blank(row) {
                cells.push_blank(line);
                continue;
            }
            row_texts.resize(row.len(), String::new());
            for (t, c) in row_texts.iter_mut().zip(row) {
                t.clear();
                cell_text(c, t);
            }
            cells.push_row(line, &row_texts)?;
            if cells.len() >= 8192 || cells.is_full() {
                reader.push_cells(&cells)?;
                cells.clear();
            }
        }
        reader.push_cells(&cells)?;
        Ok(name)
    })
}
