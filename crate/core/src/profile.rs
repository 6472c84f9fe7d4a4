//! Column profile: kind, cell forms, distinct values, range and top values of each column
//! (spec README Sec 4.1 kind inference, Sec 4.2 forms).
//!
//! A profile is a streaming summary with bounded memory: exact value counts are kept for the
//! first [`EXACT_DISTINCT_CAP`] distinct values of a column; past that the distinct count
//! comes from a HyperLogLog++ sketch, so a unique patient id or a free-text note costs a fixed
//! amount of memory however many rows the file has.

use hyperloglogplus::{HyperLogLog, HyperLogLogPlus};
use serde::Serialize;

use crate::hash::{Fixed, Map, map};
use crate::ingest::cell::{Cell, Form, Normaliser, civil_from_days};

/// How many distinct values a column counts exactly before it switches to the sketch.
pub const EXACT_DISTINCT_CAP: usize = 10_000;

/// Precision of the distinct-count sketch (2^14 registers, about 0.8 % standard error).
const HLL_PRECISION: u8 = 14;

/// How many top values a profile reports.
const TOP: usize = 5;

/// Column kinds of spec README Sec 4.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Decimal numbers (and numeric ranges, digit masks).
    Numeric,
    /// ISO dates (and month or date ranges).
    Date,
    /// Anything else.
    Categorical,
}

/// Cells per form, counted before the kind is known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct FormTally {
    number: u64,
    numeric_range: u64,
    digit_mask: u64,
    date: u64,
    date_range: u64,
    mask: u64,
    text: u64,
    missing: u64,
    suppressed: u64,
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

    fn non_blank(&self) -> u64 {
        self.number + self.numeric_range + self.date + self.date_range + self.mask + self.text
    }
}

/// The streaming summary of one column.
pub struct ColumnSummary {
    tally: FormTally,
    values: Map<Box<str>, (u64, Form)>,
    overflow: Option<HyperLogLogPlus<str, Fixed>>,
    num_lo: f64,
    num_hi: f64,
    email_like: u64,
}

impl Default for ColumnSummary {
    fn default() -> Self {
        ColumnSummary {
            tally: FormTally::default(),
            values: map(),
            overflow: None,
            num_lo: f64::INFINITY,
            num_hi: f64::NEG_INFINITY,
            email_like: 0,
        }
    }
}

fn sketch() -> HyperLogLogPlus<str, Fixed> {
    HyperLogLogPlus::new(HLL_PRECISION, Fixed::with_seed(0x5eed)).expect("precision 14 is valid")
}

impl ColumnSummary {
    /// Absorbs one normalised cell.
    pub fn absorb(&mut self, cell: Cell<'_>, norm: &Normaliser) {
        let t = match cell {
            Cell::Missing => return self.tally.missing += 1,
            Cell::Suppressed => return self.tally.suppressed += 1,
            Cell::Text(t) => t,
        };
        let form = match self.values.get_mut(t) {
            Some((n, form)) => {
                *n += 1;
                *form
            }
            None => {
                let form = if self.tally.text + self.tally.mask > 0 {
                    // Already categorical for good: only MASK versus EXACT still matters.
                    if t.chars().any(|c| norm.is_mask(c)) { Form::Mask } else { Form::Text }
                } else {
                    Form::of(t, norm)
                };
                if self.overflow.is_none() && self.values.len() < EXACT_DISTINCT_CAP {
                    self.values.insert(t.into(), (1, form));
                } else {
                    self.sketch().insert(t);
                }
                form
            }
        };
        self.count_form(form, t);
    }

    fn count_form(&mut self, form: Form, t: &str) {
        match form {
            Form::Number(v) => {
                self.tally.number += 1;
                self.widen(v, v);
            }
            Form::NumericRange(i) => {
                self.tally.numeric_range += 1;
                self.widen(i.lo, i.hi);
            }
            Form::DigitMask(lo, hi) => {
                self.tally.digit_mask += 1;
                self.tally.numeric_range += 1;
                self.widen(lo, hi);
            }
            Form::Date(_) => self.tally.date += 1,
            Form::DateRange(..) => self.tally.date_range += 1,
            Form::Mask => self.tally.mask += 1,
            Form::Text => {
                self.tally.text += 1;
                if t.contains('@') && t.contains('.') && !t.contains(' ') {
                    self.email_like += 1;
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

    /// Merges the summary of another part of the same column.
    pub fn merge(&mut self, other: ColumnSummary) {
        self.tally.add(&other.tally);
        self.email_like += other.email_like;
        self.num_lo = self.num_lo.min(other.num_lo);
        self.num_hi = self.num_hi.max(other.num_hi);
        for (v, (n, form)) in other.values {
            if let Some(e) = self.values.get_mut(&v) {
                e.0 += n;
            } else if self.overflow.is_none() && self.values.len() < EXACT_DISTINCT_CAP {
                self.values.insert(v, (n, form));
            } else {
                self.sketch().insert(&*v);
            }
        }
        if let Some(o) = other.overflow {
            self.sketch().merge(&o).expect("same precision");
        }
    }

    /// The distinct-count sketch, started with the exactly counted values when first needed.
    fn sketch(&mut self) -> &mut HyperLogLogPlus<str, Fixed> {
        let values = &self.values;
        self.overflow.get_or_insert_with(|| {
            let mut h = sketch();
            for k in values.keys() {
                h.insert(&**k);
            }
            h
        })
    }

    /// The kind of spec README Sec 4.1 (no original table: inferred on the released cells).
    /// A column of months (`2025-07`) is a date column generalized to months.
    pub fn kind(&self) -> Kind {
        let t = &self.tally;
        let dated = t.date + t.date_range;
        if t.non_blank() == 0 {
            Kind::Categorical
        } else if dated == t.non_blank() {
            Kind::Date
        } else if t.number + t.numeric_range == t.non_blank() {
            Kind::Numeric
        } else {
            Kind::Categorical
        }
    }

    /// Finishes into the reported profile.
    pub fn finish(mut self, name: &str, index: usize, rows: u64) -> ColumnProfile {
        let kind = self.kind();
        let t = self.tally;
        let (distinct, distinct_exact) = match &mut self.overflow {
            Some(hll) => (hll.count().round() as u64, false),
            None => (self.values.len() as u64, true),
        };
        let mut top: Vec<(String, u64)> =
            self.values.iter().map(|(v, (n, _))| (v.to_string(), *n)).collect();
        top.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        top.truncate(TOP);
        let forms = match kind {
            Kind::Numeric => Forms { exact: t.number, range: t.numeric_range, mask: 0, ..Forms::blank(&t) },
            Kind::Date => Forms { exact: t.date, range: t.date_range, mask: 0, ..Forms::blank(&t) },
            // Spec README Sec 4.2: in a categorical column any text with a mask character is MASK.
            Kind::Categorical => Forms { exact: t.non_blank() - t.mask - t.digit_mask, range: 0, mask: t.mask + t.digit_mask, ..Forms::blank(&t) },
        };
        let (min, max) = match kind {
            Kind::Numeric if self.num_lo.is_finite() => (Some(fmt_num(self.num_lo)), Some(fmt_num(self.num_hi))),
            Kind::Date => self.date_bounds(),
            _ => (None, None),
        };
        let shape = shape(kind, &t).to_string();
        let facts = RoleFacts { kind, rows, non_blank: t.non_blank(), distinct, email_like: self.email_like };
        let (proposed_role, role_reason) = crate::roles::propose(name, &facts);
        ColumnProfile {
            name: name.to_string(),
            index,
            kind,
            forms,
            shape,
            distinct,
            distinct_exact,
            min,
            max,
            top,
            proposed_role,
            role_reason,
        }
    }

    fn date_bounds(&self) -> (Option<String>, Option<String>) {
        let days = self.values.values().filter_map(|(_, f)| match *f {
            Form::Date(d) => Some((d, d)),
            Form::DateRange(a, b) => Some((a, b)),
            _ => None,
        });
        let (lo, hi) = days.fold((i64::MAX, i64::MIN), |(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
        if lo > hi { (None, None) } else { (Some(civil_from_days(lo)), Some(civil_from_days(hi))) }
    }
}

fn fmt_num(v: f64) -> String {
    format!("{v}")
}

fn shape(kind: Kind, t: &FormTally) -> &'static str {
    match kind {
        _ if t.non_blank() == 0 => "no values",
        Kind::Numeric if t.numeric_range == 0 => "numbers",
        Kind::Numeric if t.digit_mask == t.numeric_range && t.number == 0 => "masked digit codes",
        Kind::Numeric if t.number == 0 => "generalized ranges",
        Kind::Numeric => "numbers and generalized ranges",
        Kind::Date if t.date_range == 0 => "dates",
        Kind::Date if t.date == 0 => "generalized dates (months or ranges)",
        Kind::Date => "dates and generalized dates",
        Kind::Categorical if (t.mask + t.digit_mask) * 2 > t.non_blank() => "masked codes",
        Kind::Categorical => "text",
    }
}

/// Cells per form of spec README Sec 4.2 for the column's kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Forms {
    /// `EXACT` cells.
    pub exact: u64,
    /// `RANGE` cells (digit masks included).
    pub range: u64,
    /// `MASK` cells (categorical only).
    pub mask: u64,
    /// `MISSING` cells.
    pub missing: u64,
    /// `SUPPRESSED` cells.
    pub suppressed: u64,
    /// `INVALID` cells (none under inferred kinds).
    pub invalid: u64,
}

impl Forms {
    fn blank(t: &FormTally) -> Forms {
        Forms { missing: t.missing, suppressed: t.suppressed, ..Forms::default() }
    }
}

/// What the role proposal looks at.
#[derive(Debug, Clone, Copy)]
pub struct RoleFacts {
    /// Column kind.
    pub kind: Kind,
    /// Data rows in the file.
    pub rows: u64,
    /// Non-blank cells.
    pub non_blank: u64,
    /// Distinct non-blank values.
    pub distinct: u64,
    /// Cells shaped like e-mail addresses.
    pub email_like: u64,
}

/// The reported profile of one column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ColumnProfile {
    /// Header name.
    pub name: String,
    /// 0-based position.
    pub index: usize,
    /// Inferred kind.
    pub kind: Kind,
    /// Cells per form.
    pub forms: Forms,
    /// A few words a person understands: "numbers", "generalized ranges", "masked codes", ...
    pub shape: String,
    /// Distinct non-blank values (estimated when `distinct_exact` is false).
    pub distinct: u64,
    /// Whether `distinct` is exact.
    pub distinct_exact: bool,
    /// Smallest value (numbers and range ends; dates as ISO).
    pub min: Option<String>,
    /// Largest value.
    pub max: Option<String>,
    /// Most frequent values with their counts.
    pub top: Vec<(String, u64)>,
    /// Proposed role.
    pub proposed_role: crate::roles::Role,
    /// Why, in one sentence.
    pub role_reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(cells: &[&str]) -> ColumnProfile {
        let norm = Normaliser::default();
        let mut s = ColumnSummary::default();
        for c in cells {
            s.absorb(norm.normalise(c), &norm);
        }
        s.finish("x", 0, cells.len() as u64)
    }

    #[test]
    fn infers_kinds_and_shapes() {
        let p = profile(&["34", "30-39", "", "*"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Numeric, "numbers and generalized ranges"));
        assert_eq!((p.forms.exact, p.forms.range, p.forms.missing, p.forms.suppressed), (1, 1, 1, 1));
        assert_eq!((p.min.as_deref(), p.max.as_deref()), (Some("30"), Some("39")));
        let p = profile(&["130**", "148**"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Numeric, "masked digit codes"));
        let p = profile(&["2024-01-05", "2023-12", "NA"]);
        assert_eq!((p.kind, p.min.as_deref(), p.max.as_deref()), (Kind::Date, Some("2023-12-01"), Some("2024-01-05")));
        let p = profile(&["130**", "A1**", "x"]);
        assert_eq!((p.kind, p.forms.mask, p.forms.exact, p.shape.as_str()), (Kind::Categorical, 2, 1, "masked codes"));
        let p = profile(&["x", "130**", "A1**"]);
        assert_eq!((p.forms.mask, p.forms.exact), (2, 1), "the order of cells changes nothing");
        let p = profile(&["F", "M", "F"]);
        assert_eq!((p.kind, p.distinct, p.top[0].clone()), (Kind::Categorical, 2, ("F".to_string(), 2)));
        let p = profile(&["2025-07", "2025-08"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Date, "generalized dates (months or ranges)"));
        let p = profile(&["", "NA"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Categorical, "no values"));
    }

    #[test]
    fn distinct_count_switches_to_the_sketch_and_merges() {
        let norm = Normaliser::default();
        let n = 3 * EXACT_DISTINCT_CAP;
        let values: Vec<String> = (0..n).map(|i| format!("id-{i}")).collect();
        let mut whole = ColumnSummary::default();
        let (mut a, mut b) = (ColumnSummary::default(), ColumnSummary::default());
        for (i, v) in values.iter().enumerate() {
            whole.absorb(norm.normalise(v), &norm);
            if i % 2 == 0 { a.absorb(norm.normalise(v), &norm) } else { b.absorb(norm.normalise(v), &norm) }
        }
        a.merge(b);
        let (w, m) = (whole.finish("id", 0, n as u64), a.finish("id", 0, n as u64));
        assert!(!w.distinct_exact);
        assert!((w.distinct as f64 / n as f64 - 1.0).abs() < 0.03, "{}", w.distinct);
        assert!((m.distinct as f64 / n as f64 - 1.0).abs() < 0.03, "{}", m.distinct);
    }
}
