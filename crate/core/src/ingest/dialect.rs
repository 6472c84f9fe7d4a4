//! Delimiter detection (spec README Sec 6).
//!
//! Among `,` `;` TAB `|`, choose the candidate that splits the header into more than one
//! field and gives the most consistent field count over the sampled lines; ties go to the
//! earlier candidate. The sample is the first 64 KiB (or the whole file if shorter).

use super::tokenizer::{RecKind, Tokenizer};

/// Candidate delimiters, in tie-break order.
pub const CANDIDATES: [u8; 4] = [b',', b';', b'\t', b'|'];

/// How many bytes the detection looks at.
pub const SAMPLE_BYTES: usize = 64 * 1024;

/// Picks the delimiter for `sample`; `complete` says whether the sample is the whole file
/// (else its last, possibly cut, record is ignored). A file whose header no candidate splits
/// is read as one column with `,`.
pub fn detect_delimiter(sample: &[u8], complete: bool) -> u8 {
    let mut best = (b',', 0.0f64);
    for &d in &CANDIDATES {
        let counts = field_counts(sample, d, complete);
        let Some((&header, rest)) = counts.split_first() else { continue };
        if header < 2 {
            continue;
        }
        let score = if rest.is_empty() {
            0.5
        } else {
            rest.iter().filter(|&&c| c == header).count() as f64 / rest.len() as f64
        };
        // Strictly better only: ties keep the earlier candidate.
        if score > best.1 {
            best = (d, score);
        }
    }
    best.0
}

/// Field counts of the complete non-empty records in `sample` read with delimiter `d`.
fn field_counts(sample: &[u8], d: u8, complete: bool) -> Vec<usize> {
    let mut t = Tokenizer::new(d, true);
    // A broken sample (a field past the limit) simply ends the count.
    let _ = t.push(sample);
    if complete {
        let _ = t.finish();
    }
    t.batch.recs.iter().filter(|r| r.kind == RecKind::Fields).map(|r| r.fields as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_consistent_delimiter() {
        assert_eq!(detect_delimiter(b"a;b;c\n1;2;3\n4;5;6\n", true), b';');
        assert_eq!(detect_delimiter(b"a,b\n1,2\n", true), b',');
        assert_eq!(detect_delimiter(b"a\tb\n\"x,y\"\t2\n", true), b'\t');
        assert_eq!(detect_delimiter(b"a|b|c\n1|2|3", true), b'|');
        assert_eq!(detect_delimiter(b"single\n1\n2\n", true), b',');
        // `;` inside a quoted field of a comma file does not fool it.
        assert_eq!(detect_delimiter(b"a,b\n\"1;2\",3\n\"4;5\",6\n", true), b',');
    }
}
