//! Delimiter detection (spec README Sec 6).
//!
//! Among `,` `;` TAB `|`, choose the candidate that splits the header into more than one
//! field and gives the most consistent field count over the sampled lines; ties go to the
//! earlier candidate. The sample is the first 64 KiB (or the whole file if shorter).

use super::header::MAX_TITLES;
use super::tokenizer::{RecKind, Tokenizer};

/// Candidate delimiters, in tie-break order.
pub const CANDIDATES: [u8; 4] = [b',', b';', b'\t', b'|'];

/// How many bytes the detection looks at.
pub const SAMPLE_BYTES: usize = 64 * 1024;

/// Picks the delimiter for `sample`; `complete` says whether the sample is the whole file
/// (else its last, possibly cut, record is ignored). The header is the record at line
/// `header_row` when given, else the first record. When no candidate splits the first
/// record, it and the records after it up to [`MAX_TITLES`] may be titles: the header is then
/// the first record a candidate splits into three fields or more. A file whose header no
/// candidate splits is read as one column with `,`.
pub fn detect_delimiter(sample: &[u8], complete: bool, header_row: Option<u64>) -> u8 {
    let lines: Vec<Vec<(u64, usize)>> = CANDIDATES.iter().map(|&d| field_counts(sample, d, complete)).collect();
    let found = match header_row {
        Some(row) => best(&lines, |l| l.iter().position(|&(line, _)| line >= row)),
        None => best(&lines, |_| Some(0)).or_else(|| best(&lines, |l| l.iter().take(MAX_TITLES + 1).position(|&(_, c)| c >= 3))),
    };
    found.unwrap_or(b',')
}

/// The candidate that splits the header (the record `header` finds) into more than one field
/// and gives the most consistent field count after it (above none); ties go to the earlier
/// candidate.
fn best(lines: &[Vec<(u64, usize)>], header: impl Fn(&[(u64, usize)]) -> Option<usize>) -> Option<u8> {
    let mut best: Option<(u8, f64)> = None;
    for (&d, lines) in CANDIDATES.iter().zip(lines) {
        let Some(at) = header(lines).filter(|&at| at < lines.len()) else { continue };
        let (header, rest) = (lines[at].1, &lines[at + 1..]);
        if header < 2 {
            continue;
        }
        let score = if rest.is_empty() { 0.5 } else { rest.iter().filter(|&&(_, c)| c == header).count() as f64 / rest.len() as f64 };
        // Strictly better only (than none at 0): ties keep the earlier candidate.
        if score > best.map_or(0.0, |b| b.1) {
            best = Some((d, score));
        }
    }
    best.map(|b| b.0)
}

/// Lines and field counts of the complete non-empty records in `sample` read with delimiter
/// `d`.
fn field_counts(sample: &[u8], d: u8, complete: bool) -> Vec<(u64, usize)> {
    let mut t = Tokenizer::new(d, true);
    // A broken sample (a field past the limit) simply ends the count.
    let _ = t.push(sample);
    if complete {
        let _ = t.finish();
    }
    t.batch.recs.iter().filter(|r| r.kind == RecKind::Fields).map(|r| (r.line, r.fields as usize)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_consistent_delimiter() {
        assert_eq!(detect_delimiter(b"a;b;c\n1;2;3\n4;5;6\n", true, None), b';');
        assert_eq!(detect_delimiter(b"a,b\n1,2\n", true, None), b',');
        assert_eq!(detect_delimiter(b"a\tb\n\"x,y\"\t2\n", true, None), b'\t');
        assert_eq!(detect_delimiter(b"a|b|c\n1|2|3", true, None), b'|');
        assert_eq!(detect_delimiter(b"single\n1\n2\n", true, None), b',');
        // `;` inside a quoted field of a comma file does not fool it.
        assert_eq!(detect_delimiter(b"a,b\n\"1;2\",3\n\"4;5\",6\n", true, None), b',');
    }

    #[test]
    fn titles_above_the_header_do_not_hide_the_delimiter() {
        // A title split by no candidate, then a `;` table.
        assert_eq!(detect_delimiter(b"Patients ward 3\na;b;c\n1;2;3\n4;5;6\n", true, None), b';');
        // The header named: the lines above it are not looked at.
        assert_eq!(detect_delimiter(b"x,y\nx,y\na;b;c\n1;2;3\n", true, Some(3)), b';');
        assert_eq!(detect_delimiter(b"x,y\nx,y\na;b;c\n1;2;3\n", true, None), b',');
        // A one-column file whose values hold a `;`: still one column.
        assert_eq!(detect_delimiter(b"name\nSmith; John\nDoe; Jane\n", true, None), b',');
    }
}
