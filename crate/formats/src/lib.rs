//! pseudolens-formats: tables that are not CSV (issue 14), read into pseudolens-core's tables
//! of cells ([`pseudolens_core::ReadsTable::reading_cells`]: a table reader or an audit) so that
//! they are audited exactly as the same table written as CSV.
//!
//! - [`arrow`]: typed Arrow columns as text cells (the typed-cell rule of
//!   [`pseudolens_core::ingest::typed`]); what Parquet files and data frames hand over.
//! - [`parquet`]: a Parquet file through a byte-range interface (its footer is at its end).
//! - [`xlsx`]: the first sheet of an Excel workbook, or a chosen one.
//! - [`contain`]: a panic inside a third-party reader becomes a clear error.

pub mod arrow;
pub mod contain;
pub mod parquet;
pub mod xlsx;
