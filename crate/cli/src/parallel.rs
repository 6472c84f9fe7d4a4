//! Reading one file on all cores (issue 11): the start of the file is probed for its dialect
//! and header, the file is cut into byte ranges, each range is read by its own thread into
//! an [`AuditPart`], and the parts are merged in file order. A thread whose range starts inside
//! a quoted field guesses its first record wrong; the part before it knows where that record
//! really starts, and the range is read again from there. A SHA-256 of the whole file is
//! computed by one more thread reading it in order. Any error is found again by reading the
//! file on one thread, so that its line numbers are exact.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use pseudolens_core::{ContentHash, Probe, Reader, Span};
use pseudolens_core::{Audit, AuditConfig, AuditPart};


use crate::{CHUNK, Failure, io_err};

/// Below this size a file is read on one thread.
const MIN_PARALLEL: u64 = 8 << 20;

/// How much of the start of a file the probe reads at most to find the header.
const PROBE_BYTES: usize = 16 << 20;

/// The number of threads to read with: `--threads`, else every core.
pub fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// Starts the reader of one part of a file: an audit, or a table reader.
pub type PartReader<'a> = dyn Fn(&Probe, Span) -> Result<Audit, pseudolens_core::Error> + Sync + 'a;

/// Reads `path` in parts on `threads` threads, each started by `make`; `None` when the file
/// is better read on one thread (small, UTF-16, a header that does not probe, or an error
/// somewhere: the caller's one-thread read reports it exactly).
pub fn read_in_parts(path: &Path, config: &AuditConfig, threads: usize, make: &PartReader<'_>) -> Result<Option<AuditPart>, Failure> {
    let len = std::fs::metadata(path).map_err(io_err(path))?.len();
    if threads < 2 || len < MIN_PARALLEL {
        return Ok(None);
    }
    let Some(probe) = probe(path, config, len)? else { return Ok(None) };
    let spans = Span::split(len, threads);
    let (parts, sha) = std::thread::scope(|s| {
        let sha = s.spawn(|| sha256(path));
        let probe = &probe;
        let parts: Vec<_> = spans.iter().map(|&span| s.spawn(move || read_part(path, probe, span, make))).collect();
        let parts: Vec<Result<AuditPart, Failure>> = parts.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(panicked()))).collect();
        (parts, sha.join().unwrap_or_else(|_| Err(panicked())))
    });
    let mut merged: Option<AuditPart> = None;
    for (span, part) in spans.into_iter().zip(parts) {
        let Some(m) = &mut merged else {
            match part {
                Ok(p) => merged = Some(p),
                Err(_) => return Ok(None),
            }
            continue;
        };
        let end = m.bounds.expect("parts have bounds").end;
        // A part that guessed its start wrong (it began inside a quoted field: its bounds say
        // so, or the guess made it fail) is read again from where the part before it ended.
        let part = match part {
            Ok(p) if p.bounds.map(|b| b.first) == Some(end) => p,
            _ => match read_part(path, &probe, span.after(end), make) {
                Ok(p) => p,
                Err(_) => return Ok(None),
            },
        };
        if m.merge(part).is_err() {
            return Ok(None);
        }
    }
    let mut merged = merged.expect("at least one part");
    merged.set_sha256(sha?);
    Ok(Some(merged))
}

fn panicked() -> Failure {
    Failure::Io("a reading thread stopped unexpectedly".into())
}

/// The dialect and header from the start of the file.
fn probe(path: &Path, config: &AuditConfig, len: u64) -> Result<Option<Probe>, Failure> {
    let opts = config.csv_options()?;
    let mut file = File::open(path).map_err(io_err(path))?;
    let mut prefix = vec![0u8; PROBE_BYTES.min(len as usize)];
    file.read_exact(&mut prefix).map_err(io_err(path))?;
    Ok(Reader::probe(opts, &prefix, prefix.len() as u64 == len))
}

/// One part: its range read from its start, on until the part has its last record.
fn read_part(path: &Path, probe: &Probe, span: Span, make: &PartReader<'_>) -> Result<AuditPart, Failure> {
    let mut audit = make(probe, span)?;
    let mut file = File::open(path).map_err(io_err(path))?;
    file.seek(SeekFrom::Start(span.start)).map_err(io_err(path))?;
    let mut buf = vec![0u8; CHUNK];
    while !audit.done() {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            break;
        }
        audit.push(&buf[..n])?;
    }
    Ok(audit.finish_part()?)
}

/// The SHA-256 of the file, lower-case hex.
pub fn sha256(path: &Path) -> Result<String, Failure> {
    let mut file = File::open(path).map_err(io_err(path))?;
    let mut hash = ContentHash::default();
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            return Ok(hash.hex());
        }
        hash.update(&buf[..n]);
    }
}
