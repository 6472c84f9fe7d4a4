//! Reading one CSV file on all cores (issue 11): the start of the file is probed for its dialect
//! and header, the file is cut into byte ranges, each range is read by its own thread into
//! a part ([`FilePart`]: an audit's or a kept table's), and the parts are merged in file order. A thread that finishes its range
//! early takes the second half of what is left of the largest other range. A thread whose
//! range starts inside a quoted field guesses its first record wrong; the part before it knows
//! where that record really starts, and the range is read again from there. A SHA-256 of the whole file is
//! computed by one more thread reading it in order. Any error is found again by reading the
//! file on one thread, so that its line numbers are exact.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Mutex;

use pseudolens_core::{AuditConfig, FilePart, ReadsTable};
use pseudolens_core::{Probe, Reader, Span};

use crate::file::{CHUNK, Failure, ReadProgress, io_err, sha256};

/// Below this size a file is read on one thread.
pub(crate) const MIN_PARALLEL: u64 = 8 << 20;

/// How much of the start of a file the probe reads at most to find the header.
const PROBE_BYTES: usize = 16 << 20;

/// The probe's first step: the sample the dialect is detected from
/// (`pseudolens_core`'s `SAMPLE_BYTES`), so that every step sees the same first sample.
const PROBE_FIRST: usize = 64 << 10;

/// Starts the reader of one part of a file: an audit, or a table reader.
pub type PartReader<'a, R> = dyn Fn(&Probe, Span) -> Result<R, pseudolens_core::Error> + Sync + 'a;

/// Reads `path` in parts on `threads` threads, each started by `make`, counting the bytes in
/// `progress`, with its SHA-256 when `hash`; `None` when the file is better read on one thread (small, UTF-16, a header
/// that does not probe, or an error somewhere: the caller's one-thread read reports it
/// exactly).
pub fn read_in_parts<R: ReadsTable>(
    path: &Path,
    config: &AuditConfig,
    threads: usize,
    hash: bool,
    progress: &dyn ReadProgress,
    make: &PartReader<'_, R>,
) -> Result<Option<R::Part>, Failure>
where
    R::Part: Send,
{
    let len = std::fs::metadata(path).map_err(io_err(path))?.len();
    if threads < 2 || len < MIN_PARALLEL {
        return Ok(None);
    }
    let Some(probe) = probe(path, config, len)? else { return Ok(None) };
    progress.start(&path.display().to_string(), len);
    let board = Board::new(Span::split(len, threads), len);
    let (parts, sha) = std::thread::scope(|s| {
        let sha = s.spawn(|| hash.then(|| sha256(path)).transpose());
        let (probe, board) = (&probe, &board);
        let readers: Vec<_> = (0..threads)
            .map(|first| {
                s.spawn(move || {
                    let mut done = Vec::new();
                    let mut k = Some(first);
                    while let Some(at) = k {
                        done.push((at, read_part(path, probe, board.span(at), Some((board, at)), progress, make)));
                        k = board.split();
                    }
                    done
                })
            })
            .collect();
        // A reader that panicked leaves its parts unread: `None`, read on one thread.
        let parts: Option<Vec<Vec<_>>> = readers.into_iter().map(|h| h.join().ok()).collect();
        (parts, sha.join().unwrap_or_else(|_| Err(panicked())))
    });
    let Some(parts) = parts else { return Ok(None) };
    let mut parts: Vec<(Span, Result<R::Part, Failure>)> = parts.into_iter().flatten().map(|(k, p)| (board.span(k), p)).collect();
    parts.sort_by_key(|(span, _)| span.start);
    // A part that guessed its start wrong (it began inside a quoted field: its bounds say so,
    // or the guess made it fail) is read again from where the part before it ended.
    let mut read: Vec<R::Part> = Vec::with_capacity(parts.len());
    for (span, part) in parts {
        let part = match (read.last().map(|p| p.bounds().expect("parts have bounds").end), part) {
            (None, Ok(p)) => p,
            (Some(end), Ok(p)) if p.bounds().map(|b| b.first) == Some(end) => p,
            (None, Err(_)) => return Ok(None),
            (Some(end), _) => match read_part(path, &probe, span.after(end), None, progress, make) {
                Ok(p) => p,
                Err(_) => return Ok(None),
            },
        };
        read.push(part);
    }
    let Ok(Some(mut merged)) = pseudolens_core::par::merge_smallest_first(read, FilePart::merge_cost, FilePart::merge) else { return Ok(None) };
    merged.table_mut().facts.sha256 = sha?;
    Ok(Some(merged))
}

/// A thread whose part is done takes the second half of the largest part left, if this many
/// bytes are left in it: the threads end together whatever the file holds where, and the
/// SHA-256 thread takes from each.
const MIN_SPLIT: u64 = 1 << 20;

/// The parts of a parallel read, as every reading thread sees them.
struct Board {
    len: u64,
    parts: Mutex<Vec<Progress>>,
}

/// How far the reader of one part has got.
#[derive(Clone, Copy)]
struct Progress {
    span: Span,
    /// The end of the bytes its reader has been given (or is being given).
    pos: u64,
    done: bool,
}

impl Board {
    fn new(spans: Vec<Span>, len: u64) -> Board {
        Board { len, parts: Mutex::new(spans.into_iter().map(|span| Progress { span, pos: span.start, done: false }).collect()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Progress>> {
        self.parts.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn span(&self, k: usize) -> Span {
        self.lock()[k].span
    }

    /// Records that part `k`'s reader is given the bytes up to `pos`; returns where it ends
    /// now (earlier if another thread took its rest).
    fn advance(&self, k: usize, pos: u64) -> u64 {
        let mut parts = self.lock();
        parts[k].pos = pos;
        parts[k].span.end
    }

    fn finish(&self, k: usize) {
        self.lock()[k].done = true;
    }

    /// Cuts the part with the most bytes left in two, for a thread that has finished its own:
    /// the new part's index, or `None` when no part has [`MIN_SPLIT`] bytes left. The cut
    /// lies well past the bytes its reader has been given, so that reader can still end there.
    fn split(&self) -> Option<usize> {
        let mut parts = self.lock();
        let left = |p: &Progress| p.span.end.min(self.len).saturating_sub(p.pos);
        let (k, p) = parts.iter().enumerate().filter(|(_, p)| !p.done).max_by_key(|(_, p)| left(p))?;
        if left(p) < MIN_SPLIT {
            return None;
        }
        let cut = p.pos + left(p) / 2;
        let rest = Span { start: cut, end: p.span.end, exact: false };
        parts[k].span.end = cut;
        parts.push(Progress { span: rest, pos: cut, done: false });
        Some(parts.len() - 1)
    }
}

/// The failure of a reading thread that panicked.
pub(crate) fn panicked() -> Failure {
    Failure::Io("a reading thread stopped unexpectedly".into())
}

/// The dialect and header from the start of the file: read in growing steps (64 KB, then 4
/// times more each time, up to [`PROBE_BYTES`]), since the header is nearly always in the
/// first step and every byte read here is read again by the parts.
pub(crate) fn probe(path: &Path, config: &AuditConfig, len: u64) -> Result<Option<Probe>, Failure> {
    let opts = config.csv_options()?;
    let mut file = File::open(path).map_err(io_err(path))?;
    let whole = PROBE_BYTES.min(len as usize);
    let mut prefix = Vec::new();
    let mut step = PROBE_FIRST;
    loop {
        let start = prefix.len();
        prefix.resize(step.min(whole), 0);
        file.read_exact(&mut prefix[start..]).map_err(io_err(path))?;
        let complete = prefix.len() as u64 == len;
        if let Some(probe) = Reader::probe(opts.clone(), &prefix, complete) {
            return Ok(Some(probe));
        }
        if prefix.len() == whole {
            return Ok(None);
        }
        step *= 4;
    }
}

/// One part: its range read from its start, on until the part has its last record; a part
/// on the `board` ends earlier when another thread takes the rest of its range.
fn read_part<R: ReadsTable>(
    path: &Path,
    probe: &Probe,
    span: Span,
    board: Option<(&Board, usize)>,
    progress: &dyn ReadProgress,
    make: &PartReader<'_, R>,
) -> Result<R::Part, Failure> {
    let read = || {
        let mut audit = make(probe, span)?;
        let mut file = File::open(path).map_err(io_err(path))?;
        file.seek(SeekFrom::Start(span.start)).map_err(io_err(path))?;
        let mut buf = vec![0u8; CHUNK];
        let (mut pos, mut end) = (span.start, span.end);
        while !audit.reader().done() {
            let n = file.read(&mut buf).map_err(io_err(path))?;
            if n == 0 {
                break;
            }
            pos += n as u64;
            progress.read(n);
            if let Some((board, k)) = board {
                let now = board.advance(k, pos);
                if now != end {
                    end = now;
                    let ended = audit.reader().end_at(end);
                    debug_assert!(ended, "a part is cut past the bytes its reader was given");
                }
            }
            audit.reader().push(&buf[..n])?;
        }
        Ok(audit.finish_part()?)
    };
    let part = read();
    if let Some((board, k)) = board {
        board.finish(k);
    }
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: u64 = 1 << 20;

    #[test]
    fn a_finished_thread_takes_the_second_half_of_the_largest_part_left() {
        let board = Board::new(Span::split(100 * MB, 2), 100 * MB);
        board.advance(0, 40 * MB);
        board.advance(1, 60 * MB);
        // Part 0 has 10 MB left, part 1 (to the end of the file) 40 MB: part 1 is cut at 80 MB.
        assert_eq!(board.split(), Some(2));
        assert_eq!(board.span(1).end, 80 * MB);
        let taken = board.span(2);
        assert_eq!((taken.start, taken.end, taken.exact), (80 * MB, u64::MAX, false));
        // Its reader sees the new end with the next bytes it is given.
        assert_eq!(board.advance(1, 61 * MB), 80 * MB);
    }

    #[test]
    fn no_part_is_cut_below_the_least_worth_sharing_nor_once_done() {
        let board = Board::new(Span::split(20 * MB, 2), 20 * MB);
        board.advance(0, 10 * MB - MIN_SPLIT + 1);
        board.advance(1, 20 * MB - MIN_SPLIT + 1);
        assert_eq!(board.split(), None);
        board.advance(0, 0);
        board.finish(0);
        assert_eq!(board.split(), None, "a part that is done is not cut");
    }
}
