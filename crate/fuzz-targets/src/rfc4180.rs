//! An independent record counter, written from RFC 4180 for the differential fuzz target
//! (it does not use `csv-core` or anything of `pseudolens-core`).
//!
//! The rules (the ones the core's ingest follows):
//! - A leading UTF-8 BOM (`EF BB BF`) is skipped. A file starting with a UTF-16 BOM
//!   (`FF FE` little endian, `FE FF` big endian) is decoded to UTF-8 first (malformed code
//!   units become U+FFFD) and the BOM dropped.
//! - Line ends are CRLF, LF, or a lone CR; each is ONE line end. Lines are numbered from 1,
//!   counted with this rule everywhere, inside quoted fields too.
//! - Fields are separated by the delimiter (one ASCII byte).
//! - A `"` at the very start of a field opens a quoted field; inside it `""` is a literal
//!   quote, and a `"` followed by anything else (or by the end of the file) closes it; the
//!   bytes after the closing quote up to the next delimiter or line end belong to the same
//!   field. A `"` anywhere else is a literal character.
//! - A record ends at a line end outside a quoted field, or at the end of the file when bytes
//!   remain after the last line end. Every line end outside quotes ends exactly one record,
//!   so an empty line is a record (a blank record).
//! - The end of the file inside a quoted field: the quote is unclosed. [`Mode::Strict`]
//!   stops there and reports the 1-based line where that quote opened. [`Mode::Lenient`]
//!   (the audit's `ragged: "pad_or_truncate"`) counts that record as an error record and
//!   resumes reading at the first byte after the first line end that follows the opening
//!   quote (as the start of a new record, on the next line); with no line end after the
//!   quote the error record runs to the end of the file.

/// What to do with a quote that is never closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Stop: the file is in error at the line of the opening quote.
    Strict,
    /// The record is in error; resume after the first line end following the quote.
    Lenient,
}

/// The counts of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Count {
    /// Records, every kind (header, blank, data, error).
    pub records: u64,
    /// Records that are an empty line (no byte between two line ends).
    pub empty_records: u64,
    /// Records cut short by an unclosed quote ([`Mode::Lenient`]; at most one, the last, in
    /// [`Mode::Strict`]).
    pub error_records: u64,
    /// The 1-based line where each unclosed quote opened, in file order.
    pub unclosed_quotes: Vec<u64>,
    /// Fields of each record (an empty line has one, empty, field; an error record the fields
    /// up to its unclosed quote).
    pub fields: Vec<usize>,
    /// Lines of the text: its line ends, and one more when bytes follow the last.
    pub lines: u64,
}

impl Count {
    /// The counts in one line (without the fields of every record).
    pub fn summary(&self) -> String {
        format!(
            "{} records ({} empty, {} in error), {} lines, unclosed quotes on lines {:?}",
            self.records, self.empty_records, self.error_records, self.lines, self.unclosed_quotes
        )
    }

    /// The line of the unclosed quote that stops a strict reading.
    pub fn unclosed_quote(&self) -> Option<u64> {
        self.unclosed_quotes.first().copied()
    }
}

/// The text the rules run on: a UTF-16 file decoded, a UTF-8 BOM removed.
pub fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    use std::borrow::Cow;
    let utf16 = if bytes.starts_with(b"\xFF\xFE") {
        Some(encoding_rs::UTF_16LE)
    } else if bytes.starts_with(b"\xFE\xFF") {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    };
    match utf16 {
        Some(enc) => {
            let (text, _) = enc.decode_without_bom_handling(&bytes[2..]);
            Cow::Owned(text.into_owned().into_bytes())
        }
        None => Cow::Borrowed(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)),
    }
}

/// Counts the records of `bytes` read with `delimiter` (which must not be `"`, CR or LF).
pub fn count(bytes: &[u8], delimiter: u8, mode: Mode) -> Count {
    assert!(!matches!(delimiter, b'"' | b'\r' | b'\n'), "a delimiter cannot be a quote or a line end");
    let s = text_of(bytes);
    let s: &[u8] = &s;
    let n = s.len();
    // The length of the line end at `i`, if one starts there.
    let line_end = |i: usize| match s.get(i) {
        Some(b'\r') if s.get(i + 1) == Some(&b'\n') => Some(2),
        Some(b'\r' | b'\n') => Some(1),
        _ => None,
    };
    let mut c = Count::default();
    // Lines, quotes or not.
    let mut at = 0;
    while at < n {
        match line_end(at) {
            Some(len) => {
                c.lines += 1;
                at += len;
            }
            None => at += 1,
        }
    }
    c.lines += u64::from(n > 0 && line_end(n - 1).is_none());
    let (mut i, mut line) = (0usize, 1u64);
    'records: while i < n {
        // The start of a record, with at least one byte left.
        c.records += 1;
        let mut fields = 1;
        if let Some(len) = line_end(i) {
            c.empty_records += 1;
            c.fields.push(fields);
            i += len;
            line += 1;
            continue;
        }
        let mut field_start = true;
        loop {
            if i == n {
                c.fields.push(fields);
                break 'records;
            }
            let b = s[i];
            if field_start && b == b'"' {
                let (open_at, open_line) = (i, line);
                i += 1;
                loop {
                    if i == n {
                        // The end of the file inside the quotes.
                        c.fields.push(fields);
                        c.error_records += 1;
                        c.unclosed_quotes.push(open_line);
                        if mode == Mode::Strict {
                            break 'records;
                        }
                        // Resume after the first line end following the opening quote.
                        match (open_at + 1..n).find_map(|j| line_end(j).map(|len| j + len)) {
                            Some(resume) => {
                                i = resume;
                                line = open_line + 1;
                                continue 'records;
                            }
                            None => break 'records,
                        }
                    }
                    match s[i] {
                        b'"' if s.get(i + 1) == Some(&b'"') => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        _ => match line_end(i) {
                            Some(len) => {
                                i += len;
                                line += 1;
                            }
                            None => i += 1,
                        },
                    }
                }
                field_start = false;
            } else if b == delimiter {
                fields += 1;
                field_start = true;
                i += 1;
            } else if let Some(len) = line_end(i) {
                c.fields.push(fields);
                i += len;
                line += 1;
                continue 'records;
            } else {
                field_start = false;
                i += 1;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(s: &[u8]) -> Count {
        count(s, b',', Mode::Strict)
    }

    #[test]
    fn records_and_line_ends() {
        assert_eq!(strict(b"a,b\r\n1,2").records, 2);
        assert_eq!(strict(b"a,b\r\n1,2\r\n").records, 2);
        // Header and one blank record.
        let c = strict(b"a\n\n");
        assert_eq!((c.records, c.empty_records), (2, 1));
        // A lone CR ends a line: `a`, an empty line, `b`.
        let c = strict(b"a\r\rb");
        assert_eq!((c.records, c.empty_records), (3, 1));
        // CRLF is one line end, LF CR two.
        assert_eq!(strict(b"a\r\nb").records, 2);
        assert_eq!(strict(b"a\n\rb").records, 3);
        assert_eq!(strict(b"\n").records, 1);
        assert_eq!(strict(b"\r\n\r\n").records, 2);
        assert_eq!(strict(b"").records, 0);
        assert_eq!(strict(b"x").records, 1);
        // Lines: every line end, and a last line without one.
        let lines = |s: &[u8]| strict(s).lines;
        assert_eq!([lines(b""), lines(b"x"), lines(b"a\n"), lines(b"a\n\n"), lines(b"a\r\rb")], [0, 1, 1, 2, 3]);
        assert_eq!([lines(b"a,b\r\n1,2"), lines(b"\r\n"), lines(b"\n\r"), lines(b"\"x\ny\"\n")], [2, 1, 2, 2]);
    }

    #[test]
    fn boms() {
        assert_eq!(strict(b"\xEF\xBB\xBF").records, 0);
        assert_eq!(strict(b"\xEF\xBB\xBF").lines, 0);
        assert_eq!(strict(b"\xEF\xBB\xBFa,b\n1,2\n").fields, [2, 2]);
        // Only a leading BOM is skipped; a second one is field text.
        assert_eq!(strict(b"\xEF\xBB\xBF\xEF\xBB\xBF").records, 1);
        assert_eq!(strict(b"\xFF\xFE").records, 0);
        // UTF-16: `a,b` LF `1,2` in both byte orders.
        let le = b"\xFF\xFEa\x00,\x00b\x00\n\x001\x00,\x002\x00";
        let be = b"\xFE\xFF\x00a\x00,\x00b\x00\n\x001\x00,\x002";
        assert_eq!(strict(le).fields, [2, 2]);
        assert_eq!(strict(be).fields, [2, 2]);
        // A quote in UTF-16 opens a field as in UTF-8.
        let c = strict(b"\xFF\xFE\"\0a\0\n\0");
        assert_eq!(c.unclosed_quote(), Some(1));
    }

    #[test]
    fn quoted_fields() {
        // A quoted line break: one record on lines 1-2.
        let c = strict(b"\"x\ny\"\n");
        assert_eq!((c.records, c.unclosed_quote()), (1, None));
        let c = strict(b"\"x\ny\"\nz");
        assert_eq!(c.records, 2);
        // Delimiters and doubled quotes inside quotes.
        assert_eq!(strict(b"\"a,b\",\"c\"\"d\"\n1,2\n").fields, [2, 2]);
        // Text after the closing quote stays in the field; a quote later in a field is text.
        assert_eq!(strict(b"\"a\"b,c\"d,e\n").fields, [3]);
        // `"a""` then the end: the `""` is a literal quote, so the field never closes.
        assert_eq!(strict(b"\"a\"\"").unclosed_quote(), Some(1));
        // `"a"` then the end: closed.
        assert_eq!(strict(b"\"a\"").unclosed_quote(), None);
        // An empty quoted field.
        assert_eq!(strict(b"\"\",\"\"").fields, [2]);
        // The quote after a delimiter opens a field; before it, it is text.
        assert_eq!(strict(b"a,\"b\nc\"\n").records, 1);
        assert_eq!(strict(b"a,x\"b\nc\"\n").records, 2);
        // A space before the quote: the quote is text.
        assert_eq!(strict(b"a, \"b\nc\n").records, 2);
        // Another delimiter.
        assert_eq!(count(b"a;\"b;c\"\n1;2\n", b';', Mode::Strict).fields, [2, 2]);
        assert_eq!(count(b"a\t\"b\tc\"\n", b'\t', Mode::Strict).fields, [2]);
    }

    #[test]
    fn unclosed_quotes_strict() {
        // Lines count inside quotes and with every line-end form.
        let c = strict(b"a,b\n1,2\r\n\r3,\"4\r\n5\n");
        assert_eq!(c.unclosed_quote(), Some(4));
        assert_eq!(c.records, 4);
        let c = strict(b"\"x\ny\"\r\n\"");
        assert_eq!(c.unclosed_quote(), Some(3));
        assert_eq!(strict(b"a\n\"").unclosed_quote(), Some(2));
    }

    #[test]
    fn unclosed_quotes_lenient() {
        let lenient = |s: &[u8]| count(s, b',', Mode::Lenient);
        // Header, the error record `"1,2 LF 3,4 LF 5,6 LF` opened on line 2 (the quote never
        // closes), then reading resumes on line 3 and finds `3,4` and `5,6`.
        let c = lenient(b"a,b\n\"1,2\n3,4\n5,6\n");
        assert_eq!((c.records, c.error_records, c.unclosed_quotes.clone()), (4, 1, vec![2]));
        assert_eq!(c.fields, [2, 1, 2, 2]);
        // The resumed part cannot hold a second unclosed quote: every run of quotes after the
        // first is even (else it would have closed the first), and a field opened by an even
        // run closes at the run's end. Here `""` closes at once.
        let c = lenient(b"a\n\"x\n\"\"y\nz");
        assert_eq!(c.unclosed_quotes, [2]);
        assert_eq!((c.records, c.error_records), (4, 1));
        // No line end after the quote: the error record runs to the end.
        let c = lenient(b"a\n1\n\"x");
        assert_eq!((c.records, c.error_records), (3, 1));
        // CRLF after the quote is one line end.
        let c = lenient(b"a\r\n\"x\r\n\r\ny");
        assert_eq!((c.records, c.empty_records, c.error_records), (4, 1, 1));
        // The quote closing later in the file is not a close: `"x LF "" LF` stays open.
        let c = lenient(b"\"x\n\"\"\n");
        assert_eq!(c.unclosed_quotes, [1]);
        assert_eq!(c.records, 2);
    }
}
