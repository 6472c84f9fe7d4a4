//! A Parquet file, read through a byte-range interface: the reader is any
//! [`ChunkReader`] (a `File`, or the bytes of a file as [`bytes::Bytes`]), from which the
//! footer at the file's end and then each column chunk are read. Row groups can be read on
//! their own ([`read_row_groups`]), which is how a parallel reader splits the file.
//!
//! Values become cells by the typed-cell rule ([`crate::arrow`]); a row's line is the one it
//! would have in CSV (the first data row is line 2). A corrupt file is the error
//! `unreadable_parquet` (a panic of the reader included, see [`crate::contain`]); a codec this
//! build cannot decode is `parquet_codec_unsupported`, named before anything is read.

use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::reader::ChunkReader;
use pseudolens_core::{Audit, Error, Result};

use crate::contain::contain;

/// Rows decoded at a time.
const BATCH_ROWS: usize = 8192;

/// The error of a file the Parquet reader cannot read.
fn unreadable(e: impl std::fmt::Display) -> Error {
    Error::input("unreadable_parquet", format!("this file could not be read as Parquet: {e}"))
}

/// The codecs this build decodes (Zstandard and Brotli only natively: see the crate's features).
fn decodes(c: Compression) -> bool {
    match c {
        Compression::UNCOMPRESSED | Compression::SNAPPY | Compression::GZIP(_) | Compression::LZ4 | Compression::LZ4_RAW => true,
        Compression::BROTLI(_) => cfg!(feature = "brotli"),
        Compression::ZSTD(_) => cfg!(feature = "zstd"),
        Compression::LZO => false,
    }
}

fn metadata<R: ChunkReader>(input: &R) -> Result<ArrowReaderMetadata> {
    let meta = ArrowReaderMetadata::load(input, ArrowReaderOptions::new()).map_err(unreadable)?;
    for rg in meta.metadata().row_groups() {
        for c in rg.columns() {
            if !decodes(c.compression()) {
                let codec = format!("{:?}", c.compression());
                let codec = codec.split('(').next().unwrap_or_default().to_string();
                let hint = if cfg!(feature = "zstd") { "" } else { " (the command-line tool reads Zstandard and Brotli)" };
                return Err(Error::input(
                    "parquet_codec_unsupported",
                    format!("this Parquet file is compressed with {codec}, which this build cannot decode{hint}; write it again with Snappy, gzip or LZ4, or as CSV"),
                )
                .in_column(&c.column_path().string()));
            }
        }
    }
    Ok(meta)
}

/// The rows of each row group, in order (from the footer).
pub fn row_groups<R: ChunkReader>(input: &R) -> Result<Vec<u64>> {
    contain("Parquet", "unreadable_parquet", || {
        let meta = metadata(input)?;
        Ok(meta.metadata().row_groups().iter().map(|rg| rg.num_rows().max(0) as u64).collect())
    })
}

/// Reads the whole file into `audit` (made with `reading_cells(Format::Parquet)`); returns
/// the rows read.
pub fn read<R: ChunkReader + 'static>(input: R, audit: &mut Audit) -> Result<u64> {
    read_row_groups(input, None, audit)
}

/// Reads these row groups (all when `None`; in file order) into `audit`; each row's line is
/// its line in the whole file. Returns the rows read.
pub fn read_row_groups<R: ChunkReader + 'static>(input: R, groups: Option<Vec<usize>>, audit: &mut Audit) -> Result<u64> {
    contain("Parquet", "unreadable_parquet", move || {
        let meta = metadata(&input)?;
        let all = meta.metadata().row_groups();
        let mut before = 0u64;
        if let Some(g) = &groups {
            if let Some(&bad) = g.iter().find(|&&i| i >= all.len()) {
                return Err(unreadable(format!("it has {} row groups, not {}", all.len(), bad + 1)));
            }
            let first = g.iter().copied().min().unwrap_or(0);
            before = all[..first].iter().map(|rg| rg.num_rows().max(0) as u64).sum();
        }
        let schema = meta.schema().clone();
        let mut builder = ParquetRecordBatchReaderBuilder::new_with_metadata(input, meta).with_batch_size(BATCH_ROWS);
        if let Some(g) = groups {
            builder = builder.with_row_groups(g);
        }
        let reader = builder.build().map_err(|e: ParquetError| unreadable(e))?;
        crate::arrow::feed(&schema, before + 2, reader.map(|b| b.map_err(unreadable)), audit)
    })
}
