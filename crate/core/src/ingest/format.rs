//! The format of a file read: delimited text, Parquet, an Excel workbook or Arrow columns
//! handed over in memory, and its name in reports.

use serde::{Deserialize, Serialize};

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
}
