//! Parquet and Excel files read as cells (pseudolens-formats) into audits or table readers:
//! a Parquet file of several row groups in runs of groups on several threads, merged in
//! order (the report is the same whatever the number of threads); an Excel sheet whole.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use pseudolens_core::{FilePart, Format, ReadsTable};

use crate::file::{Failure, io_err, sha256};

/// Starts an audit or a table reader of (part of) a file.
pub type MakeReader<'a, R> = dyn Fn() -> Result<R, pseudolens_core::Error> + Sync + 'a;

/// Reads the Parquet or Excel file at `path` into audits started by `make` (the workbook's
/// `sheet`, else its first): a Parquet file of several row groups in parts on up to `threads`
/// threads; then gives it the file's size and SHA-256.
pub fn read_cells<R: ReadsTable>(path: &Path, make: &MakeReader<'_, R>, format: Format, sheet: Option<&str>, threads: usize) -> Result<R::Part, Failure>
where
    R::Part: Send,
{
    let open = || File::open(path).map_err(io_err(path));
    let len = open()?.metadata().map_err(io_err(path))?.len();
    let mut part = match format {
        Format::Xlsx => {
            let mut audit = make()?.reading_cells(format);
            pseudolens_formats::xlsx::read(BufReader::new(open()?), sheet, &mut audit)?;
            audit.finish_part()?
        }
        _ => {
            let groups = pseudolens_formats::parquet::row_groups(&open()?)?.len();
            let parts = threads.min(groups).max(1);
            // Contiguous runs of row groups, one per thread, the first reading the header.
            let runs: Vec<Vec<usize>> = (0..parts).map(|p| (groups * p / parts..groups * (p + 1) / parts).collect()).collect();
            let read = |k: usize, run: Vec<usize>| -> Result<R::Part, Failure> {
                let audit = make()?;
                let mut audit = if k == 0 { audit.reading_cells(format) } else { audit.reading_cells_part(format) };
                pseudolens_formats::parquet::read_row_groups(open()?, (parts > 1).then_some(run), &mut audit)?;
                Ok(audit.finish_part()?)
            };
            let mut done = std::thread::scope(|s| {
                let handles: Vec<_> = runs.into_iter().enumerate().map(|(k, run)| s.spawn(move || read(k, run))).collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(crate::parallel::panicked()))).collect::<Vec<_>>()
            })
            .into_iter();
            let mut whole = done.next().expect("one part at least")?;
            for part in done {
                whole.merge(part?)?;
            }
            whole
        }
    };
    part.table_mut().facts.bytes = len;
    part.table_mut().facts.sha256 = Some(sha256(path)?);
    Ok(part)
}
