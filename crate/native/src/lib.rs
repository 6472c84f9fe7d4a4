//! pseudolens-native: the one native front end for files, used by the CLI and the Python
//! package alike. A file on disk goes: its format from its first bytes and name
//! ([`file::format_of`]) -> CSV bytes (with the encoding fallback of spec README Sec 6,
//! [`file::with_fallback`]), or Parquet and Excel cells ([`cells`]) -> read on several threads
//! in parts merged in order ([`parallel`] for CSV, row groups for Parquet) -> the file's
//! SHA-256 beside. [`Files`] holds the side tables of an audit (read once, as the core's
//! [`Sides`](pseudolens_core::Sides)) and reads or audits each release against them.
//! Protect's release of a CSV file is written while the file is read again, in parts
//! ([`release`]).

pub mod cells;
pub mod file;
pub mod files;
pub mod parallel;
pub mod release;

pub use file::{Failure, ReadProgress};
pub use files::{Files, SidePaths};
pub use release::write_release;
