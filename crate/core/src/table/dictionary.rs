//! Dictionary encoding of the values of one quasi-identifier: memory grows with the distinct
//! values, not with the rows.

use crate::hash::{Map, map};
use crate::ingest::cell::Cell;

/// Code of `MISSING`.
pub const MISSING: u32 = 0;
/// Code of `SUPPRESSED`.
pub const SUPPRESSED: u32 = 1;

/// Whether a code stands for a blank cell (spec README Sec 4.2).
pub fn is_blank(code: u32) -> bool {
    code <= SUPPRESSED
}

/// Normalised values of one column and their codes.
#[derive(Debug, Clone)]
pub struct Dictionary {
    codes: Map<Box<str>, u32>,
    values: Vec<Box<str>>,
}

impl Default for Dictionary {
    fn default() -> Self {
        Dictionary { codes: map(), values: vec!["".into(), "".into()] }
    }
}

impl Dictionary {
    /// The code of a cell, adding its value when new.
    pub fn code(&mut self, cell: Cell<'_>) -> u32 {
        match cell {
            Cell::Missing => MISSING,
            Cell::Suppressed => SUPPRESSED,
            Cell::Text(t) => self.code_of(&t),
        }
    }

    fn code_of(&mut self, t: &str) -> u32 {
        if let Some(&c) = self.codes.get(t) {
            return c;
        }
        let c = u32::try_from(self.values.len()).expect("fewer than 4 billion distinct values");
        self.codes.insert(t.into(), c);
        self.values.push(t.into());
        c
    }

    /// Number of codes (the two blanks included).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether only the two blank codes exist.
    pub fn is_empty(&self) -> bool {
        self.values.len() == 2
    }

    /// The code of a text value, if present.
    pub fn lookup(&self, t: &str) -> Option<u32> {
        self.codes.get(t).copied()
    }

    /// The code in `other` of the value of `code` here (blanks keep their codes).
    pub fn translate(&self, code: u32, other: &Dictionary) -> Option<u32> {
        if is_blank(code) { Some(code) } else { other.lookup(&self.values[code as usize]) }
    }

    /// The normalised text of a non-blank code (`""` for the two blanks).
    pub fn text(&self, code: u32) -> &str {
        &self.values[code as usize]
    }

    /// The value of a code, as shown in reports: `None` for `MISSING`, `*` for `SUPPRESSED`.
    pub fn display(&self, code: u32) -> Option<&str> {
        match code {
            MISSING => None,
            SUPPRESSED => Some("*"),
            c => Some(&self.values[c as usize]),
        }
    }

    /// Sort key of a code: blanks first (`MISSING`, then `SUPPRESSED`), then text by code point.
    pub fn sort_key(&self, code: u32) -> (u32, &str) {
        if is_blank(code) { (code, "") } else { (2, &self.values[code as usize]) }
    }

    /// Codes of `other`'s values in `self` (adding the new ones), indexed by `other`'s code.
    pub fn absorb(&mut self, other: &Dictionary) -> Vec<u32> {
        let mut map = vec![MISSING, SUPPRESSED];
        map.extend(other.values[2..].iter().map(|v| self.code_of(v)));
        map
    }
}
