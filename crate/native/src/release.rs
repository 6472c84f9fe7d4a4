//! Protect's release written while the CSV file is read again (spec protect.md Sec 5; core
//! `protect::stream`), on every core: the file is cut into parts, a first pass counts the
//! records of each part (a part that guessed its start inside a quoted field is counted again
//! from where the part before it ended), then the parts write their rows from the record their
//! counts give, a batch of parts at a time, joined in file order after the header. Memory:
//! a batch's bytes, not the file's. A small file, or one that does not probe, is written on
//! one thread.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use pseudolens_core::par;
use pseudolens_core::protect::RecordCount;
use pseudolens_core::{AuditConfig, CsvOptions, Error, PartBounds, Probe, Protector, Span, Table};

use crate::file::{CHUNK, Failure, io_err, stream};
use crate::parallel::{MIN_PARALLEL, probe};

/// The bytes of the file each part reads (at least one part per thread).
const PART_BYTES: u64 = 16 << 20;

/// Pushes the bytes of `path` from `start` into `push` until it says it is done.
fn feed(path: &Path, start: u64, mut push: impl FnMut(&[u8]) -> Result<bool, Error>) -> Result<(), Failure> {
    let mut file = File::open(path).map_err(io_err(path))?;
    file.seek(SeekFrom::Start(start)).map_err(io_err(path))?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 || push(&buf[..n])? {
            return Ok(());
        }
    }
}

/// The records of the part `span` and its bounds.
fn count(path: &Path, opts: &CsvOptions, probe: &Probe, span: Span) -> Result<(u64, PartBounds), Failure> {
    let mut count = RecordCount::new(opts.clone(), probe, span);
    feed(path, span.start, |chunk| {
        count.push(chunk)?;
        Ok(count.done())
    })?;
    let (records, bounds) = count.finish()?;
    Ok((records, bounds.ok_or_else(|| Failure::Audit(Error::internal("part_unbounded", "a part of the file ended without its bounds")))?))
}

/// Writes the release of `levels` of `table` (read from `path` with `config`) to `out` while
/// reading `path` again, on `threads` threads; returns the records written and the delimiter.
pub fn write_release(
    path: &Path,
    protector: &Protector,
    table: &Table,
    levels: &[usize],
    config: &AuditConfig,
    threads: usize,
    out: &mut impl Write,
) -> Result<(u64, String), Failure> {
    let opts = config.csv_options()?;
    let mut whole = protector.release_streamed(table, levels, opts.clone())?;
    let delimiter = whole.delimiter().to_string();
    let write = |out: &mut dyn Write, bytes: &[u8]| out.write_all(bytes).map_err(|e| Failure::Io(format!("the release: {e}")));
    let len = std::fs::metadata(path).map_err(io_err(path))?.len();
    let probed = if threads >= 2 && len >= MIN_PARALLEL { probe(path, config, len)?.filter(|p| p.header == table.header) } else { None };
    let Some(probe) = probed else {
        stream(path, &(), |chunk| whole.push(chunk))?;
        write(out, &whole.take())?;
        let (last, written) = whole.finish()?;
        write(out, &last)?;
        return Ok((written, delimiter));
    };
    write(out, &whole.header())?;
    // The first pass: each part's records and bounds, the parts following one another.
    let spans = Span::split(len, (len.div_ceil(PART_BYTES) as usize).max(threads));
    let guessed = par::map(spans.clone(), |span| count(path, &opts, &probe, span));
    let mut parts: Vec<(Span, usize)> = Vec::with_capacity(spans.len());
    let (mut first_row, mut previous_end) = (0, 0);
    for (span, guess) in spans.iter().zip(guessed) {
        let (records, bounds) = match guess {
            Ok((r, b)) if span.start == 0 || b.first == previous_end => (r, b),
            _ => count(path, &opts, &probe, span.after(previous_end))?,
        };
        let start = if span.start == 0 { 0 } else { bounds.first };
        parts.push((Span { start, end: span.end, exact: true }, first_row));
        first_row += records as usize;
        previous_end = bounds.end;
    }
    // The second pass, a batch of parts at a time, each part's bytes in file order.
    let mut written = 0;
    for batch in parts.chunks(threads) {
        let bytes = par::map(batch.to_vec(), |(span, first)| -> Result<(Vec<u8>, u64, usize), Failure> {
            let mut part = protector.release_part(table, levels, opts.clone(), &probe, span, first)?;
            feed(path, span.start, |chunk| {
                part.push(chunk)?;
                Ok(part.done())
            })?;
            Ok(part.finish_part()?)
        });
        for part in bytes {
            let (b, w, _) = part?;
            write(out, &b)?;
            written += w;
        }
    }
    if first_row != table.lines.rows() as usize {
        return Err(Failure::Audit(Error::input(
            "file_changed",
            format!(
                "the file is not the one read for the search (it has {first_row} records, the table {}): read it again and search again",
                table.lines.rows()
            ),
        )));
    }
    Ok((written, delimiter))
}
