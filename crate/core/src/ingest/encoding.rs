//! Character encoding (spec README Sec 6): UTF-8 with or without BOM, UTF-16 with a BOM, else
//! Windows-1252; and the check that a file is text at all.
//!
//! UTF-8 and Windows-1252 are read as bytes: every delimiter, quote and line end is ASCII and
//! never part of a longer character, so the encoding only matters when a distinct value is
//! turned into text. UTF-16 is decoded to UTF-8 as it streams (`encoding_rs`), a character
//! cut by a chunk boundary included.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// The encodings a file is read in.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encoding {
    /// UTF-8 (a leading BOM is removed).
    #[serde(rename = "utf-8")]
    Utf8,
    /// Windows-1252, which WHATWG also calls `latin1` and `iso-8859-1`.
    #[serde(rename = "windows-1252")]
    Windows1252,
    /// UTF-16 little-endian (Excel's "Unicode text"), recognised by its BOM.
    #[serde(rename = "utf-16le")]
    Utf16Le,
    /// UTF-16 big-endian, recognised by its BOM.
    #[serde(rename = "utf-16be")]
    Utf16Be,
}

impl Encoding {
    /// The WHATWG label.
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Windows1252 => "windows-1252",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }

    /// Chooses the encoding of a file from its first bytes (after any BOM): UTF-8 if they are
    /// valid UTF-8 (a character cut by the end of the sample is fine), else Windows-1252.
    pub fn detect(sample: &[u8]) -> Encoding {
        match std::str::from_utf8(sample) {
            Ok(_) => Encoding::Utf8,
            Err(e) if e.error_len().is_none() => Encoding::Utf8,
            Err(_) => Encoding::Windows1252,
        }
    }

    /// The encoding of a file that starts with a UTF-16 byte order mark.
    pub fn from_bom(start: &[u8]) -> Option<Encoding> {
        if start.starts_with(b"\xFF\xFE") {
            Some(Encoding::Utf16Le)
        } else if start.starts_with(b"\xFE\xFF") {
            Some(Encoding::Utf16Be)
        } else {
            None
        }
    }

    /// The encoding to read a file in again after the error `code` (spec README Sec 6): a file
    /// detected as UTF-8 that turns out not to be (`encoding_mismatch`) is read again, once,
    /// as Windows-1252; no other error is retried. The CLI and the page's worker both ask here.
    pub fn fallback(code: &str) -> Option<Encoding> {
        (code == "encoding_mismatch").then_some(Encoding::Windows1252)
    }

    /// Whether the file is decoded to UTF-8 before it is read (its fields are then UTF-8).
    pub fn is_utf16(self) -> bool {
        matches!(self, Encoding::Utf16Le | Encoding::Utf16Be)
    }

    /// A streaming decoder to UTF-8, for the UTF-16 encodings.
    pub fn decoder(self) -> Option<encoding_rs::Decoder> {
        match self {
            Encoding::Utf16Le => Some(encoding_rs::UTF_16LE.new_decoder_with_bom_removal()),
            Encoding::Utf16Be => Some(encoding_rs::UTF_16BE.new_decoder_with_bom_removal()),
            _ => None,
        }
    }

    /// Decodes one complete field as read (UTF-16 fields are already UTF-8); `None` when the
    /// bytes are not valid in this encoding.
    pub fn decode(self, bytes: &[u8]) -> Option<Cow<'_, str>> {
        match self {
            Encoding::Windows1252 => Some(encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0),
            _ => std::str::from_utf8(bytes).ok().map(Cow::Borrowed),
        }
    }
}

/// The UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// File signatures of common binary formats that can start without a NUL byte early on, or
/// that people often save under a `.csv` name by mistake; each with what it is.
const SIGNATURES: [(&[u8], &str); 8] = [
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (an Excel .xlsx workbook, which pseudolens reads as such, or an OpenDocument file: save that as .xlsx or CSV)"),
    (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", "an old Office document (.xls, .doc): save it as CSV"),
    (b"\x89PNG\r\n\x1A\n", "a PNG image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x1F\x8B", "a gzip archive: unpack it first"),
    (b"\x7FELF", "a program"),
];

/// The error for a file that is not text: a known binary signature at its start, or a NUL
/// byte (which no text file holds) at 0-based `offset`.
pub fn not_text(start: &[u8], nul_at: Option<usize>) -> Option<Error> {
    let message = |byte: usize, what: &str| format!("this does not look like a text/CSV file (byte {byte}): {what}");
    if let Some((_, what)) = SIGNATURES.iter().find(|(sig, _)| start.starts_with(sig)) {
        return Some(Error::input("not_text", message(1, &format!("it starts like {what}"))));
    }
    nul_at.map(|at| Error::input("not_text", message(at + 1, "it holds a NUL byte, which a text file never does")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_encoding_mismatch_is_read_again_as_windows_1252() {
        assert_eq!(Encoding::fallback("encoding_mismatch"), Some(Encoding::Windows1252));
        for code in ["invalid_encoding", "ragged_row", "not_text", "internal"] {
            assert_eq!(Encoding::fallback(code), None, "{code}");
        }
    }

    #[test]
    fn detects_utf8_and_cp1252() {
        assert_eq!(Encoding::detect("Zürich".as_bytes()), Encoding::Utf8);
        assert_eq!(Encoding::detect(&"Zürich".as_bytes()[..2]), Encoding::Utf8);
        assert_eq!(Encoding::detect(b"Z\xfcrich"), Encoding::Windows1252);
        assert_eq!(Encoding::Windows1252.decode(b"Z\xfcrich \x80").unwrap(), "Zürich €");
        assert!(Encoding::Utf8.decode(b"Z\xfcrich").is_none());
        assert_eq!(Encoding::from_bom(b"\xFF\xFEa\x00"), Some(Encoding::Utf16Le));
        assert_eq!(Encoding::from_bom(b"\xFE\xFF\x00a"), Some(Encoding::Utf16Be));
    }

    #[test]
    fn binary_files_are_named() {
        let e = not_text(b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR", Some(8)).unwrap();
        assert_eq!(e.message, "this does not look like a text/CSV file (byte 1): it starts like a PNG image");
        let e = not_text(b"abc\0", Some(3)).unwrap();
        assert!(e.message.starts_with("this does not look like a text/CSV file (byte 4)"), "{}", e.message);
        assert!(not_text(b"a,b\n1,2\n", None).is_none());
    }
}
