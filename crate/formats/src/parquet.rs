//! A Parquet file, read through a byte-range interface: the reader is any
//! [`ChunkReader`] (a `File`, or the bytes of a file as [`bytes::Bytes`]), from which the
//! footer at the file's end and then each column chunk are read. Row groups can be read on
//! their own ([`read_row_groups`]), which is how a parallel reader splits the file; a reader
//! that holds only the footer and some row groups' bytes reads them through [`Pieces`] (the
//! page's workers: [`footer_len`], [`group_spans`]).
//!
//! Values become cells by the typed-cell rule ([`crate::arrow`]); a row's line is the one it
//! would have in CSV (the first data row is line 2). A corrupt file is the error
//! `unreadable_parquet` (a panic of the reader included, see [`crate::contain`]); a codec this
//! build cannot decode is `parquet_codec_unsupported`, named before anything is read.

use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};
use pseudolens_core::{Error, ReadsTable, Result};

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

/// The error of a file compressed with a codec this build cannot decode. It names the codec,
/// not the column whose chunk was found first: the codec is the writer's choice for the file,
/// and a column named in the message reads as if that column were at fault (issue 36).
fn codec_unsupported(c: Compression) -> Error {
    let (codec, native) = match c {
        Compression::ZSTD(_) => ("Zstandard (ZSTD)".to_string(), true),
        Compression::BROTLI(_) => ("Brotli".to_string(), true),
        other => (format!("{other:?}"), false),
    };
    let hint = if native { " (the command-line tool reads it)" } else { "" };
    Error::input(
        "parquet_codec_unsupported",
        format!("this Parquet file is compressed with {codec}, which this build cannot decode{hint}; write it again with Snappy, gzip or LZ4, or as CSV"),
    )
}

fn metadata<R: ChunkReader>(input: &R) -> Result<ArrowReaderMetadata> {
    let meta = ArrowReaderMetadata::load(input, ArrowReaderOptions::new()).map_err(unreadable)?;
    let mut chunks = meta.metadata().row_groups().iter().flat_map(|rg| rg.columns());
    match chunks.find(|c| !decodes(c.compression())) {
        Some(c) => Err(codec_unsupported(c.compression())),
        None => Ok(meta),
    }
}

/// The rows of each row group, in order (from the footer).
pub fn row_groups<R: ChunkReader>(input: &R) -> Result<Vec<u64>> {
    contain("Parquet", "unreadable_parquet", || {
        let meta = metadata(input)?;
        Ok(meta.metadata().row_groups().iter().map(|rg| rg.num_rows().max(0) as u64).collect())
    })
}

/// Reads the whole file into `target` (made with `reading_cells(Format::Parquet)`); returns
/// the rows read.
pub fn read<R: ChunkReader + 'static>(input: R, target: &mut impl ReadsTable) -> Result<u64> {
    read_row_groups(input, None, target)
}

/// Reads these row groups (all when `None`; in file order) into `target`; each row's line is
/// its line in the whole file. Returns the rows read.
pub fn read_row_groups<R: ChunkReader + 'static>(input: R, groups: Option<Vec<usize>>, target: &mut impl ReadsTable) -> Result<u64> {
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
        crate::arrow::feed(&schema, before + 2, reader.map(|b| b.map_err(unreadable)), target)
    })
}

/// The bytes at the end of a Parquet file that give its footer's length: a `u32` and `PAR1`.
pub const TAIL_BYTES: usize = 8;

/// The length of the footer (the file's metadata, before the tail) from the file's last
/// [`TAIL_BYTES`] bytes; `unreadable_parquet` when they are not a Parquet tail.
pub fn footer_len(tail: &[u8]) -> Result<u64> {
    match tail {
        [a, b, c, d, b'P', b'A', b'R', b'1'] => Ok(u64::from(u32::from_le_bytes([*a, *b, *c, *d]))),
        _ => Err(unreadable("it does not end with PAR1")),
    }
}

/// Where one row group lies in its file: its rows, and the bytes of its column chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupSpan {
    /// Rows of the group.
    pub rows: u64,
    /// First byte of its first column chunk.
    pub start: u64,
    /// End (exclusive) of its last column chunk.
    pub end: u64,
}

/// The row groups of a file of `file_len` bytes from its footer (its last `footer_len + 8`
/// bytes): where each lies, so that a reader reads only its groups' bytes.
pub fn group_spans(footer: bytes::Bytes, file_len: u64) -> Result<Vec<GroupSpan>> {
    let pieces = Pieces::new(file_len, vec![(file_len.saturating_sub(footer.len() as u64), footer)]);
    contain("Parquet", "unreadable_parquet", || {
        let meta = metadata(&pieces)?;
        let spans = meta.metadata().row_groups().iter().map(|rg| {
            let ranges = rg.columns().iter().map(|c| c.byte_range());
            let start = ranges.clone().map(|(s, _)| s).min().unwrap_or(0);
            let end = ranges.map(|(s, n)| s.saturating_add(n)).max().unwrap_or(0);
            GroupSpan { rows: rg.num_rows().max(0) as u64, start, end: end.min(file_len).max(start) }
        });
        Ok(spans.collect())
    })
}

/// A file of which a reader holds some pieces (the footer, the bytes of its row groups): the
/// Parquet reader's byte-range interface over them; a range outside every piece is an error
/// of the reader (the file's own offsets are wrong), not a panic.
#[derive(Debug, Clone)]
pub struct Pieces {
    len: u64,
    pieces: Vec<(u64, bytes::Bytes)>,
}

impl Pieces {
    /// A file of `len` bytes of which these `(offset, bytes)` are held.
    pub fn new(len: u64, pieces: Vec<(u64, bytes::Bytes)>) -> Pieces {
        Pieces { len, pieces }
    }

    fn piece(&self, start: u64, length: u64) -> parquet::errors::Result<bytes::Bytes> {
        self.pieces
            .iter()
            .find(|(at, b)| *at <= start && start.saturating_add(length) <= at + b.len() as u64)
            .map(|(at, b)| b.slice((start - at) as usize..(start - at + length) as usize))
            .ok_or_else(|| ParquetError::General(format!("bytes {start}..{} of the file were not read", start.saturating_add(length))))
    }
}

impl Length for Pieces {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for Pieces {
    type T = bytes::buf::Reader<bytes::Bytes>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        use bytes::Buf;
        let (at, b) = self
            .pieces
            .iter()
            .find(|(at, b)| *at <= start && start < at + b.len() as u64)
            .ok_or_else(|| ParquetError::General(format!("byte {start} of the file was not read")))?;
        Ok(b.slice((start - at) as usize..).reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<bytes::Bytes> {
        self.piece(start, length as u64)
    }
}
