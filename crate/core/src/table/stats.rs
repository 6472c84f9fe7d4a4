//! The forms and ranges of a set of cells, counted before a column's kind is known, and what
//! they decide: the kind and the reading of the column (spec README Sec 4.1, 4.2, 4.4). A
//! column's sketch and its kept values both count into these; the profile reads them.

use serde::Serialize;

use super::kind::Kind;
use crate::ingest::cell::{ALL_DATE_FORMS, Cell, DATE_FORMS, DateForm, Form, Normaliser, Reading, parse_comma_num};

/// Cells per form, counted before the kind is known.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct FormTally {
    /// `NUM` cells.
    pub number: u64,
    /// Numeric ranges (digit masks included).
    pub numeric_range: u64,
    /// Digit masks.
    pub digit_mask: u64,
    /// ISO dates.
    pub date: u64,
    /// Month or date ranges.
    pub date_range: u64,
    /// Text with a mask character.
    pub mask: u64,
    /// Other text.
    pub text: u64,
    /// `MISSING` cells.
    pub missing: u64,
    /// `SUPPRESSED` cells.
    pub suppressed: u64,
}

impl FormTally {
    fn add(&mut self, o: &FormTally) {
        self.number += o.number;
        self.numeric_range += o.numeric_range;
        self.digit_mask += o.digit_mask;
        self.date += o.date;
        self.date_range += o.date_range;
        self.mask += o.mask;
        self.text += o.text;
        self.missing += o.missing;
        self.suppressed += o.suppressed;
    }

    /// Cells that are neither `MISSING` nor `SUPPRESSED`.
    pub fn non_blank(&self) -> u64 {
        self.number + self.numeric_range + self.date + self.date_range + self.mask + self.text
    }
}

/// Forms, ranges and e-mail-like cells of a set of cells, with what decides the column's
/// reading (spec README Sec 4.4 and 4.2): the date forms that fit every cell and the numbers
/// written with a decimal comma or point.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct Stats {
    /// Cells per form.
    pub tally: FormTally,
    /// Smallest finite number or range end (decimal-comma numbers included).
    pub num_lo: f64,
    /// Largest.
    pub num_hi: f64,
    /// Per date form (by its place in `DATE_FORMS`), the first day of a date or ISO date range
    /// read in it.
    pub date_lo: [i64; 7],
    /// Per date form, the last day.
    pub date_hi: [i64; 7],
    /// The date forms (as bits) in which every non-blank cell counted is a date (an ISO range
    /// fits the ISO form).
    pub date_fit: u8,
    /// Text cells that are numbers written with a decimal comma (`72,5`).
    pub comma_numbers: u64,
    /// `NUM` cells written with a decimal point.
    pub point_numbers: u64,
    /// Cells shaped like e-mail addresses.
    pub email_like: u64,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            tally: FormTally::default(),
            num_lo: f64::INFINITY,
            num_hi: f64::NEG_INFINITY,
            date_lo: [i64::MAX; 7],
            date_hi: [i64::MIN; 7],
            date_fit: ALL_DATE_FORMS,
            comma_numbers: 0,
            point_numbers: 0,
            email_like: 0,
        }
    }
}

/// The kind of a column and how its cells read (spec README Sec 4.1, 4.2, 4.4).
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    /// The kind.
    pub kind: Kind,
    /// The date form and decimal separator.
    pub reading: Reading,
    /// The date forms that fit every value of a column that both day-first and month-first
    /// read (empty unless ambiguous); the column is categorical until the user sets one.
    pub ambiguous: Vec<DateForm>,
    /// Whether its numbers mix decimal commas and points (the column is categorical).
    pub mixed_decimals: bool,
}

impl Stats {
    /// The form of a non-blank text. Once a text (or mask) that no date form and no decimal
    /// comma reads was counted the column is categorical for good and only `MASK` versus text
    /// still matters, which is cheaper to tell (the forms counted come out the same).
    pub fn form_of(&self, t: &str, norm: &Normaliser) -> Form {
        if self.tally.mask > 0 || (self.tally.text > self.comma_numbers && self.date_fit == 0) {
            if norm.has_mask(t) { Form::Mask } else { Form::Text }
        } else {
            Form::of(t, norm)
        }
    }

    /// Counts `n` cells of text `t` read as `form` (by [`Form::of`]).
    pub fn add(&mut self, form: Form, t: &str, n: u64) {
        let tally = &mut self.tally;
        let iso = DateForm::Iso as usize;
        match form {
            Form::Number(v) => {
                tally.number += n;
                if t.contains('.') {
                    self.point_numbers += n;
                }
                self.date_fit = 0;
                self.widen(v, v);
            }
            Form::NumericRange(i) => {
                tally.numeric_range += n;
                self.date_fit = 0;
                self.widen(i.lo, i.hi);
            }
            Form::DigitMask(lo, hi) => {
                tally.digit_mask += n;
                tally.numeric_range += n;
                self.date_fit = 0;
                self.widen(lo, hi);
            }
            Form::Date(d) => {
                tally.date += n;
                self.date_fit &= DateForm::Iso.bit();
                self.date_lo[iso] = self.date_lo[iso].min(d);
                self.date_hi[iso] = self.date_hi[iso].max(d);
            }
            Form::DateRange(a, b) => {
                tally.date_range += n;
                self.date_fit &= DateForm::Iso.bit();
                self.date_lo[iso] = self.date_lo[iso].min(a);
                self.date_hi[iso] = self.date_hi[iso].max(b);
            }
            Form::Mask => {
                tally.mask += n;
                self.date_fit = 0;
            }
            Form::Text => {
                tally.text += n;
                if t.contains('@') && t.contains('.') && !t.contains(' ') {
                    self.email_like += n;
                }
                if self.date_fit != 0 {
                    // Each form still in the running read once: kept when it reads the text.
                    let mut fit = 0;
                    for (f, d) in DateForm::readings(self.date_fit, t) {
                        fit |= f.bit();
                        self.date_lo[f as usize] = self.date_lo[f as usize].min(d);
                        self.date_hi[f as usize] = self.date_hi[f as usize].max(d);
                    }
                    self.date_fit = fit;
                }
                // Once a text is neither, the column's numbers do not matter.
                if self.tally.text - n == self.comma_numbers
                    && let Some(v) = parse_comma_num(t)
                {
                    self.comma_numbers += n;
                    self.widen(v, v);
                }
            }
        }
    }

    fn widen(&mut self, lo: f64, hi: f64) {
        for v in [lo, hi] {
            if v.is_finite() {
                self.num_lo = self.num_lo.min(v);
                self.num_hi = self.num_hi.max(v);
            }
        }
    }

    /// Adds the stats of other cells.
    pub fn merge(&mut self, o: &Stats) {
        self.tally.add(&o.tally);
        self.email_like += o.email_like;
        self.comma_numbers += o.comma_numbers;
        self.point_numbers += o.point_numbers;
        self.date_fit &= o.date_fit;
        self.num_lo = self.num_lo.min(o.num_lo);
        self.num_hi = self.num_hi.max(o.num_hi);
        for f in 0..DATE_FORMS.len() {
            self.date_lo[f] = self.date_lo[f].min(o.date_lo[f]);
            self.date_hi[f] = self.date_hi[f].max(o.date_hi[f]);
        }
    }

    /// The kind of spec README Sec 4.1 and the column's reading (no original table: inferred
    /// on the released cells). A column of months (`2025-07`) is a date column generalized to
    /// months. `declared`: the date form the user set; `comma_allowed`: whether the delimiter
    /// lets a comma be the decimal separator.
    pub fn infer(&self, declared: Option<DateForm>, comma_allowed: bool) -> Inferred {
        let t = &self.tally;
        let mut inferred = Inferred { kind: Kind::Categorical, reading: Reading::default(), ambiguous: Vec::new(), mixed_decimals: false };
        if t.non_blank() == 0 {
            return inferred;
        }
        let fits: Vec<DateForm> = DateForm::of_set(self.date_fit).collect();
        let date = match (declared, &fits[..]) {
            (Some(f), _) if fits.contains(&f) => Some(f),
            (_, [f]) => Some(*f),
            _ => None,
        };
        if let Some(f) = date {
            inferred.kind = Kind::Date;
            inferred.reading.date = Some(f);
        } else if fits.len() > 1 {
            inferred.ambiguous = fits;
        } else if t.number + t.numeric_range == t.non_blank() {
            inferred.kind = Kind::Numeric;
        } else if comma_allowed && self.comma_numbers > 0 && t.number + t.numeric_range + self.comma_numbers == t.non_blank() {
            if self.point_numbers == 0 {
                inferred.kind = Kind::Numeric;
                inferred.reading.decimal_comma = true;
            } else {
                inferred.mixed_decimals = true;
            }
        }
        inferred
    }
}

/// Counts `n` cells of a kept value into `stats`; whether it is filled (not blank).
pub fn count_kept(stats: &mut Stats, text: &str, n: u64, norm: &Normaliser) -> bool {
    match norm.normalise(text) {
        Cell::Missing => stats.tally.missing += n,
        Cell::Suppressed => stats.tally.suppressed += n,
        Cell::Text(t) => {
            stats.add(Form::of(&t, norm), &t, n);
            return true;
        }
    }
    false
}
