//! The format of a file read: delimited text, Parquet, an Excel workbook or Arrow columns
//! handed over in memory, and its name in reports; which format a file is, from its first bytes
//! (Parquet starts with `PAR1`, an Excel workbook is a zip archive, `PK\x03\x04`), else from its
//! name; anything else is read as CSV text.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The format of a file read.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Delimited text.
    #[default]
    Csv,
    /// Apache Parquet.
    Parquet,
    /// An Excel workbook (Office Open XML).
    Xlsx,
    /// Arrow columns handed over in memory (a data frame).
    Arrow,
}

impl Format {
    /// The name in reports: `csv`, `parquet`, `xlsx`, `arrow`.
    pub fn label(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
            Format::Xlsx => "xlsx",
            Format::Arrow => "arrow",
        }
    }

    /// The format of a label.
    pub fn from_label(label: &str) -> Option<Format> {
        [Format::Csv, Format::Parquet, Format::Xlsx, Format::Arrow].into_iter().find(|f| f.label() == label)
    }

    /// The format of a file that starts with `start` (its first 4 bytes or more) and is named
    /// `name`. A name that says Parquet or Excel for bytes that are not is an error, as is an old
    /// binary `.xls` workbook.
    pub fn of(start: &[u8], name: &str) -> Result<Format> {
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
        if start.starts_with(b"PAR1") {
            return Ok(Format::Parquet);
        }
        if start.starts_with(b"PK\x03\x04") {
            return match ext {
                "ods" => Err(Error::input("unsupported_format", "this is an OpenDocument spreadsheet (.ods); save it as .xlsx or as CSV")),
                "zip" => Err(Error::input("unsupported_format", "this is a zip archive; unpack it and choose the table inside")),
                _ => Ok(Format::Xlsx),
            };
        }
        match ext {
            "parquet" | "parq" | "pq" if !start.is_empty() => {
                Err(Error::input("unreadable_parquet", "this file is named as Parquet but is not one: a Parquet file starts with the bytes PAR1"))
            }
            "xlsx" | "xlsm" if !start.is_empty() => {
                Err(Error::input("unreadable_xlsx", "this file is named as an Excel workbook but is not one: an .xlsx file is a zip archive"))
            }
            "xls" if start.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) => {
                Err(Error::input("unsupported_format", "this is an old binary Excel workbook (.xls); save it as .xlsx or as CSV"))
            }
            _ => Ok(Format::Csv),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_decide_then_the_name() {
        assert_eq!(Format::of(b"PAR1\x15\x04", "x.csv").unwrap(), Format::Parquet);
        assert_eq!(Format::of(b"PK\x03\x04", "book.xlsx").unwrap(), Format::Xlsx);
        assert_eq!(Format::of(b"PK\x03\x04", "sheet.ods").unwrap_err().code, "unsupported_format");
        assert_eq!(Format::of(b"PK\x03\x04", "tables.zip").unwrap_err().code, "unsupported_format");
        assert_eq!(Format::of(b"a,b\n", "t.csv").unwrap(), Format::Csv);
        assert_eq!(Format::of(b"a,b\n", "t.txt").unwrap(), Format::Csv);
        assert_eq!(Format::of(b"a,b\n", "t.parquet").unwrap_err().code, "unreadable_parquet");
        assert_eq!(Format::of(b"a,b\n", "T.XLSX").unwrap_err().code, "unreadable_xlsx");
        assert_eq!(Format::of(&[0xD0, 0xCF, 0x11, 0xE0], "old.xls").unwrap_err().code, "unsupported_format");
    }
}
