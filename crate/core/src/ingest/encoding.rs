//! Character encoding (spec README Sec 6): UTF-8 with or without BOM, else Windows-1252.
//!
//! The CSV state machine works on bytes and every delimiter, quote and line end is ASCII, so
//! the encoding only matters when a complete field is turned into text. A field can therefore
//! never be cut inside a multi-byte character, whatever the chunk boundaries.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The encodings a file is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encoding {
    /// UTF-8 (a leading BOM is removed).
    #[serde(rename = "utf-8")]
    Utf8,
    /// Windows-1252, which WHATWG also calls `latin1` and `iso-8859-1`.
    #[serde(rename = "windows-1252")]
    Windows1252,
}

impl Encoding {
    /// The WHATWG label.
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Windows1252 => "windows-1252",
        }
    }

    /// Chooses the encoding of a file from its first bytes: UTF-8 if they are valid UTF-8 (a
    /// character cut by the end of the sample is fine), else Windows-1252.
    pub fn detect(sample: &[u8]) -> Encoding {
        match std::str::from_utf8(sample) {
            Ok(_) => Encoding::Utf8,
            Err(e) if e.error_len().is_none() => Encoding::Utf8,
            Err(_) => Encoding::Windows1252,
        }
    }

    /// Decodes one complete field; `None` when the bytes are not valid in this encoding.
    pub fn decode(self, bytes: &[u8]) -> Option<Cow<'_, str>> {
        match self {
            Encoding::Utf8 => std::str::from_utf8(bytes).ok().map(Cow::Borrowed),
            Encoding::Windows1252 => {
                Some(encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0)
            }
        }
    }
}

/// The UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether the file starts with a UTF-16 byte order mark (not supported: spec README Sec 6 MAY).
pub fn has_utf16_bom(start: &[u8]) -> bool {
    start.starts_with(b"\xFF\xFE") || start.starts_with(b"\xFE\xFF")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_utf8_and_cp1252() {
        assert_eq!(Encoding::detect("Zürich".as_bytes()), Encoding::Utf8);
        assert_eq!(Encoding::detect(&"Zürich".as_bytes()[..2]), Encoding::Utf8);
        assert_eq!(Encoding::detect(b"Z\xfcrich"), Encoding::Windows1252);
        assert_eq!(Encoding::Windows1252.decode(b"Z\xfcrich \x80").unwrap(), "Zürich €");
        assert!(Encoding::Utf8.decode(b"Z\xfcrich").is_none());
    }
}
