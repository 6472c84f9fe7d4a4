//! A file on disk: why reading it failed, its format, its bytes streamed in chunks, its
//! SHA-256, and the encoding fallback of spec README Sec 6.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use pseudolens_core::{ContentHash, Encoding, Error, Format, Warning};

/// Size of the chunks a file is pushed in (the page's worker uses the same).
pub const CHUNK: usize = 128 << 10;

/// Why reading a file failed: the file itself (its message names it), or the core.
#[derive(Debug)]
pub enum Failure {
    /// An error of the core (the file's content or the settings).
    Audit(Error),
    /// The file could not be opened or read, or a reading thread stopped.
    Io(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Audit(e)
    }
}

/// An I/O error of the file at `path`, naming it.
pub fn io_err(path: &Path) -> impl Fn(io::Error) -> Failure + '_ {
    move |e| Failure::Io(format!("{}: {e}", path.display()))
}

/// Where a read counts its progress: a file of `len` bytes starts, `n` more bytes are read
/// (from any reading thread). `()` counts nothing.
pub trait ReadProgress: Sync {
    /// The file `name` of `len` bytes starts being read.
    fn start(&self, name: &str, len: u64);
    /// `n` more bytes of it were read.
    fn read(&self, n: usize);
}

impl ReadProgress for () {
    fn start(&self, _name: &str, _len: u64) {}
    fn read(&self, _n: usize) {}
}

/// The format of the file at `path`, from its first bytes and its name.
pub fn format_of(path: &Path) -> Result<Format, Failure> {
    let mut start = Vec::with_capacity(8);
    File::open(path).and_then(|f| f.take(8).read_to_end(&mut start)).map_err(io_err(path))?;
    Ok(pseudolens_core::Format::of(&start, &path.to_string_lossy())?)
}

/// Streams the file at `path` in [`CHUNK`]-sized pieces into `push`, counting them in
/// `progress`.
pub fn stream(path: &Path, progress: &dyn ReadProgress, mut push: impl FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Failure> {
    let mut file = File::open(path).map_err(io_err(path))?;
    progress.start(&path.display().to_string(), file.metadata().map_err(io_err(path))?.len());
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            return Ok(());
        }
        progress.read(n);
        push(&buf[..n])?;
    }
}

/// The SHA-256 of the file at `path`, lower-case hex (the report's `input.sha256`).
pub fn sha256(path: &Path) -> Result<String, Failure> {
    let mut hash = ContentHash::default();
    stream(path, &(), |chunk| {
        hash.update(chunk);
        Ok(())
    })?;
    Ok(hash.hex())
}

/// Runs `read` with the encoding `forced` (`None`: detected); a file detected as UTF-8 that
/// turns out not to be ([`Encoding::fallback`]) is read again as Windows-1252, and the
/// warning says so.
pub fn with_fallback<T>(path: &Path, forced: Option<Encoding>, read: impl Fn(Option<Encoding>) -> Result<T, Failure>) -> Result<(T, Option<Warning>), Failure> {
    match read(forced) {
        Err(Failure::Audit(e))
            if forced.is_none()
                && let Some(fallback) = Encoding::fallback(e.code) =>
        {
            let again = read(Some(fallback))?;
            Ok((again, Some(Warning::encoding_fallback(path.display(), &e))))
        }
        r => r.map(|t| (t, None)),
    }
}
