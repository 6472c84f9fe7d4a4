//! The one error type of the core. Every error a person can cause names what went wrong in a
//! sentence, and where: the 1-based line of the file and the column name when they are known.

use std::fmt;

use serde::Serialize;

/// Who must act on an error.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The file itself: malformed CSV, ragged rows, empty file.
    Input,
    /// The settings: an unknown column, a bad threshold.
    Config,
    /// The bytes do not decode in the chosen encoding.
    Encoding,
    /// A bug: please report it.
    Internal,
}

/// An error with a machine code (spec README Sec 6 names them), a sentence, and a position.
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "WireError"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Error {
    /// Who must act.
    pub kind: ErrorKind,
    /// Stable machine code, e.g. `ragged_row`.
    pub code: &'static str,
    /// One plain sentence.
    pub message: String,
    /// 1-based line of the file, when the error belongs to one.
    pub line: Option<u64>,
    /// Column name, when the error belongs to one.
    pub column: Option<String>,
}

impl Error {
    /// An error of the input file.
    pub fn input(code: &'static str, message: impl Into<String>) -> Self {
        Error { kind: ErrorKind::Input, code, message: message.into(), line: None, column: None }
    }

    /// An error of the settings.
    pub fn config(code: &'static str, message: impl Into<String>) -> Self {
        Error { kind: ErrorKind::Config, code, message: message.into(), line: None, column: None }
    }

    /// A bug: the sentence asks the user to report it.
    pub fn internal(code: &'static str, message: impl Into<String>) -> Self {
        Error { kind: ErrorKind::Internal, code, message: message.into(), line: None, column: None }
    }

    /// The same error, placed at a line.
    pub fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }

    /// The same error, placed in a column.
    pub fn in_column(mut self, column: &str) -> Self {
        self.column = Some(column.to_string());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.line, &self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column \"{c}\": {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, Some(c)) => write!(f, "column \"{c}\": {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;
