//! Reading a table: encoding, dialect, records, and cell normalisation (spec README Sec 4-6).

pub mod cell;
pub mod cells;
pub mod dialect;
pub mod encoding;
pub mod format;
pub mod header;
pub mod reader;
pub mod stops;
pub mod tokenizer;
pub mod typed;
