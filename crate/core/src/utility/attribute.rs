//! One utility attribute of `O` and `P` in a joint code space, with what the utility metrics
//! derive from `O` (spec utility.md Sec 1; README Sec 4): the kind, each distinct value read
//! as a cell form, the resolution and domain of numeric and date columns, the digit-string
//! length, the declared hierarchy, and per-value counts in both tables.

use serde::{Deserialize, Serialize};

use crate::hash::{Map, map};
use crate::ingest::cell::{DateForm, Form, Interval, Normaliser, Reading};
use crate::table::dictionary::{Dictionary, MISSING, SUPPRESSED};
use crate::table::kind::Kind;
use crate::table::stats::Stats;
use crate::utility::capture::Column;

/// What the user declares about one attribute (spec README Sec 4; utility.md Sec 2, 3, 7).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AttributeSettings {
    /// The kind, instead of the inferred one (README Sec 4.1).
    pub kind: Option<Kind>,
    /// The resolution `res_a` (README Sec 4.3).
    pub resolution: Option<f64>,
    /// The domain `[D_lo, D_hi]` (README Sec 4.3).
    pub domain: Option<(f64, f64)>,
    /// A rounding unit `u` applied to the release (utility.md Sec 2 `|GR|` of `EXACT`, Sec 3 `rule`).
    pub rounding_unit: Option<f64>,
    /// The weight `w_a` in `L_total` and `S_total` (utility.md Sec 7), default 1.
    pub weight: Option<f64>,
    /// A generalization hierarchy in ARX's layout: one row per leaf, the leaf first, then its
    /// ancestors from the lowest level up.
    pub hierarchy: Option<Vec<Vec<String>>>,
    /// The labels of an `ordinal` attribute, lowest first (README Sec 4.1); required by, and
    /// only allowed with, `kind = ordinal`.
    pub order: Option<Vec<String>>,
    /// The written form of the column's dates (README Sec 4.4), instead of the one decided
    /// from its values; needed to read an ambiguous column (`03/04/2020`) as dates.
    pub date_form: Option<DateForm>,
}

/// A distinct value of the attribute read in the attribute's kind (README Sec 4.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Typed {
    /// `MISSING`.
    Missing,
    /// `SUPPRESSED`.
    Suppressed,
    /// Numeric or date `EXACT`: the number or the day number.
    Exact(f64),
    /// Numeric or date `RANGE` (digit masks such as `12**` included; dates closed, in days).
    Range(Interval),
    /// Numeric or date text that none of the forms reads.
    Invalid,
    /// Categorical `EXACT`.
    Label,
    /// Categorical `MASK`: a mask character and another character.
    Mask,
}

impl Typed {
    /// `MISSING` or `SUPPRESSED`.
    pub fn is_blank(self) -> bool {
        matches!(self, Typed::Missing | Typed::Suppressed)
    }
}

/// A declared hierarchy: the leaves under each node and each node's level (leaves are 0).
#[derive(Debug, Clone, Default)]
pub struct Hierarchy {
    /// Leaves under a node (a leaf stands for itself).
    pub leaves: Map<String, Vec<String>>,
    /// Level of a node.
    pub level: Map<String, usize>,
    /// Number of levels `h` (columns of the hierarchy table).
    pub height: usize,
}

impl Hierarchy {
    /// Reads ARX's layout (see [`AttributeSettings::hierarchy`]).
    pub fn new(rows: &[Vec<String>]) -> Self {
        let mut h = Hierarchy { leaves: map(), level: map(), height: 0 };
        for row in rows {
            let Some(leaf) = row.first() else { continue };
            h.height = h.height.max(row.len());
            for (level, node) in row.iter().enumerate() {
                h.level.entry(node.clone()).or_insert(level);
                let leaves = h.leaves.entry(node.clone()).or_default();
                if !leaves.contains(leaf) {
                    leaves.push(leaf.clone());
                }
            }
        }
        h
    }
}

/// One utility attribute of `O`, with the same column of `P` when `P` has it.
#[derive(Debug, Clone)]
pub struct Attribute {
    /// Column name.
    pub name: String,
    /// Kind, declared or inferred on `O` (README Sec 4.1).
    pub kind: Kind,
    /// The date form and decimal separator of the column, declared or decided on `O` (Sec 4.4).
    pub reading: Reading,
    /// Values of both tables; `O`'s values come first.
    pub values: Dictionary,
    /// Each value read in the kind, by code.
    pub typed: Vec<Typed>,
    /// Per row of `O`, its code.
    pub o: Vec<u32>,
    /// Per row of `P`, its code; `None` when `P` lacks the column (a dropped attribute).
    pub p: Option<Vec<u32>>,
    /// Rows of `O` per code.
    pub o_count: Vec<u64>,
    /// Rows of `P` per code.
    pub p_count: Vec<u64>,
    /// `res_a` (numeric and date kinds; 1 otherwise).
    pub res: f64,
    /// `[D_lo, D_hi]`: min and max of `O`'s `EXACT` values (`None` without any).
    pub domain: Option<(f64, f64)>,
    /// `L` of a digit-string column (README Sec 4.1).
    pub digit_len: Option<usize>,
    /// The declared hierarchy.
    pub hierarchy: Option<Hierarchy>,
    /// The declared settings.
    pub settings: AttributeSettings,
    /// Per code, the sampling weights of the rows holding it, when a weight column is set
    /// (utility.md Sec 4 and 6.1).
    pub masses: Option<Masses>,
}

/// Per code, the sum of the sampling weights of the rows of `O` and of `P` holding it; a table
/// without the weight column counts each row 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Masses {
    /// Weight of `O`'s rows per code.
    pub o: Vec<f64>,
    /// Weight of `P`'s rows per code.
    pub p: Vec<f64>,
    /// Whether `O` has the weight column.
    pub o_weighted: bool,
    /// Whether `P` has the weight column.
    pub p_weighted: bool,
}

impl Masses {
    /// Per code of `values` codes, the sum of `weights` (each row 1 without them), in row order.
    fn sum(codes: &[u32], weights: Option<&[f64]>, values: usize) -> Vec<f64> {
        let mut m = vec![0.0; values];
        match weights {
            Some(w) => codes.iter().zip(w).for_each(|(&c, &x)| m[c as usize] += x),
            None => codes.iter().for_each(|&c| m[c as usize] += 1.0),
        }
        m
    }
}

impl Attribute {
    /// Joins `O`'s column with `P`'s (if any) and reads them (README Sec 4).
    pub fn new(name: &str, o: &Column, p: Option<&Column>, settings: AttributeSettings, norm: &Normaliser) -> Self {
        // The hierarchy's labels are compared with normalised values: read them alike.
        let settings = AttributeSettings { hierarchy: settings.hierarchy.as_deref().map(|rows| norm.labels(rows)), ..settings };
        let mut values = o.values.clone();
        let p_codes = p.map(|p| {
            let to_joint = values.absorb(&p.values);
            p.codes.iter().map(|&c| to_joint[c as usize]).collect::<Vec<u32>>()
        });
        let counts = |codes: &[u32]| {
            let mut c = vec![0u64; values.len()];
            codes.iter().for_each(|&v| c[v as usize] += 1);
            c
        };
        let o_count = counts(&o.codes);
        let p_count = p_codes.as_deref().map_or_else(|| vec![0; values.len()], counts);
        let in_o = |c: usize| o_count[c] > 0;
        let texts: Vec<&str> = (2..values.len()).filter(|&c| in_o(c)).map(|c| values.text(c as u32)).collect();
        let (kind, reading) = infer(&texts, &settings, norm);
        let digit_len = digit_length(&texts);
        let typed: Vec<Typed> = (0..values.len() as u32).map(|c| read(c, &values, kind, reading, norm)).collect();
        let (mut res, mut domain) = (1.0, None);
        if !kind.is_label() {
            let exact = (2..values.len()).filter(|&c| in_o(c)).filter_map(|c| match typed[c] {
                Typed::Exact(x) => Some((c, x)),
                _ => None,
            });
            let (mut lo, mut hi, mut digits) = (f64::INFINITY, f64::NEG_INFINITY, 0usize);
            for (c, x) in exact {
                lo = lo.min(x);
                hi = hi.max(x);
                digits = digits.max(fraction_digits(values.text(c as u32)));
            }
            if kind == Kind::Numeric {
                res = 10f64.powi(-(digits as i32));
            }
            domain = (lo <= hi).then_some((lo, hi));
        }
        res = settings.resolution.unwrap_or(res);
        domain = settings.domain.or(domain);
        let hierarchy = settings.hierarchy.as_deref().map(Hierarchy::new);
        Attribute {
            name: name.to_string(),
            kind,
            reading,
            values,
            typed,
            o: o.codes.clone(),
            p: p_codes,
            o_count,
            p_count,
            res,
            domain,
            digit_len,
            hierarchy,
            settings,
            masses: None,
        }
    }

    /// Weighs the rows: `o` and `p` are the per-row sampling weights of `O` and `P` (`None`: a
    /// table without the weight column, each row 1). Both `None` leaves the counts unweighted.
    pub fn weigh(&mut self, o: Option<&[f64]>, p: Option<&[f64]>) {
        if o.is_none() && p.is_none() {
            return;
        }
        let n = self.values.len();
        let p_mass = self.p.as_deref().map_or_else(|| vec![0.0; n], |codes| Masses::sum(codes, p, n));
        self.masses = Some(Masses { o: Masses::sum(&self.o, o, n), p: p_mass, o_weighted: o.is_some(), p_weighted: p.is_some() });
    }

    /// The rows of `O` holding code `c`, weighed when a weight column is set.
    pub fn o_mass(&self, c: u32) -> f64 {
        self.masses.as_ref().map_or(self.o_count[c as usize] as f64, |m| m.o[c as usize])
    }

    /// The rows of `P` holding code `c`, weighed when a weight column is set.
    pub fn p_mass(&self, c: u32) -> f64 {
        self.masses.as_ref().map_or(self.p_count[c as usize] as f64, |m| m.p[c as usize])
    }

    /// Brings a third table's column (the control `C` of the attacks, peer-measures.md Sec 5.1)
    /// into the joint code space, read in the attribute's kind; returns the code of each of its
    /// rows. `Dom_O`, the kind and the domain stay `O`'s.
    pub fn join(&mut self, other: &Column, norm: &Normaliser) -> Vec<u32> {
        let to_joint = self.values.absorb(&other.values);
        for c in self.typed.len()..self.values.len() {
            self.typed.push(read(c as u32, &self.values, self.kind, self.reading, norm));
        }
        self.o_count.resize(self.values.len(), 0);
        self.p_count.resize(self.values.len(), 0);
        if let Some(m) = &mut self.masses {
            m.o.resize(self.values.len(), 0.0);
            m.p.resize(self.values.len(), 0.0);
        }
        other.codes.iter().map(|&c| to_joint[c as usize]).collect()
    }

    /// Whether the attribute is numeric or date.
    pub fn is_numeric(&self) -> bool {
        !self.kind.is_label()
    }

    /// Whether code `c` is a value of `Dom_O` (a non-blank value of `O`).
    pub fn in_dom_o(&self, c: u32) -> bool {
        c > SUPPRESSED && self.o_count[c as usize] > 0
    }

    /// `interval(t)` (utility.md Sec 1): `EXACT x` is `[x, x]`; an infinite side of a range is
    /// replaced by the domain's end (closed). `None` for blank, invalid and categorical cells.
    pub fn interval(&self, c: u32) -> Option<Interval> {
        match self.typed[c as usize] {
            Typed::Exact(x) => Some(Interval::closed(x, x)),
            Typed::Range(mut i) => {
                let (lo, hi) = self.domain.unwrap_or((i.lo, i.hi));
                if i.lo == f64::NEG_INFINITY {
                    (i.lo, i.lo_closed) = (lo, true);
                }
                if i.hi == f64::INFINITY {
                    (i.hi, i.hi_closed) = (hi, true);
                }
                (i.lo.is_finite() && i.hi.is_finite()).then_some(i)
            }
            _ => None,
        }
    }

    /// `rep(t)` (utility.md Sec 1): the midpoint of `interval(t)`.
    pub fn rep(&self, c: u32) -> Option<f64> {
        self.interval(c).map(|i| (i.lo + i.hi) / 2.0)
    }

    /// Whether code `c` is a numeric or date range.
    pub fn is_range(&self, c: u32) -> bool {
        matches!(self.typed[c as usize], Typed::Range(_))
    }

    /// The number of grid points `k * res` in an interval (README Sec 4.3), with the first and
    /// last `k`.
    pub fn grid(&self, i: Interval) -> (i64, i64, i64) {
        grid_count(i, self.res)
    }
}

/// `#{k : lo (<= or <) k*res (<= or <) hi}` with the on-grid tolerance of README Sec 4.3,
/// and the first and last `k`.
pub fn grid_count(i: Interval, res: f64) -> (i64, i64, i64) {
    let on_grid = |x: f64| (x - x.round()).abs() <= 1e-9 * x.abs().max(1.0);
    let (a, b) = (i.lo / res, i.hi / res);
    let kmin = if on_grid(a) { a.round() as i64 + i64::from(!i.lo_closed) } else { a.ceil() as i64 };
    let kmax = if on_grid(b) { b.round() as i64 - i64::from(!i.hi_closed) } else { b.floor() as i64 };
    ((kmax - kmin + 1).max(0), kmin, kmax)
}

/// README Sec 4.1 on `O`'s non-blank values, by the inference of the profile (Sec 4.4: the
/// date form and decimal separator decided from the values): date if all are valid dates of
/// one form, numeric if all are numbers, else categorical (`O`'s ranges make it categorical).
/// A declared kind or date form wins.
fn infer(texts: &[&str], settings: &AttributeSettings, norm: &Normaliser) -> (Kind, Reading) {
    let mut stats = Stats::default();
    for t in texts {
        stats.add(Form::of(t, norm), t, 1);
    }
    let inferred = stats.infer(settings.date_form, norm.decimal_comma_allowed());
    let exact = stats.tally.numeric_range + stats.tally.date_range == 0;
    let kind = settings.kind.unwrap_or(if exact { inferred.kind } else { Kind::Categorical });
    (kind, Reading { date: settings.date_form.or(inferred.reading.date), ..inferred.reading })
}

/// `L` when every value is a digit string of one length `L` (README Sec 4.1).
fn digit_length(texts: &[&str]) -> Option<usize> {
    let first = texts.first()?.len();
    texts.iter().all(|t| t.len() == first && t.bytes().all(|b| b.is_ascii_digit())).then_some(first)
}

/// Fractional digits of a number written without exponent (README Sec 4.3), after a decimal
/// point or comma.
fn fraction_digits(t: &str) -> usize {
    if t.contains(['e', 'E']) { 0 } else { t.split_once(['.', ',']).map_or(0, |(_, f)| f.len()) }
}

/// Reads one value in the attribute's kind and reading (README Sec 4.2, 4.4).
fn read(c: u32, values: &Dictionary, kind: Kind, reading: Reading, norm: &Normaliser) -> Typed {
    match c {
        MISSING => return Typed::Missing,
        SUPPRESSED => return Typed::Suppressed,
        _ => {}
    }
    let t = values.text(c);
    let form = reading.form(t, norm);
    match kind {
        Kind::Categorical | Kind::Ordinal if norm.has_mask(t) => Typed::Mask,
        Kind::Categorical | Kind::Ordinal => Typed::Label,
        Kind::Numeric => match form {
            Form::Number(x) => Typed::Exact(x),
            Form::NumericRange(i) => Typed::Range(i),
            Form::DigitMask(lo, hi) => Typed::Range(Interval::closed(lo, hi)),
            _ => Typed::Invalid,
        },
        Kind::Date => match form {
            Form::Date(d) => Typed::Exact(d as f64),
            Form::DateRange(a, b) => Typed::Range(Interval::closed(a as f64, b as f64)),
            Form::Number(_) if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) => {
                let y: i64 = t.parse().expect("four digits");
                let (a, b) = (crate::ingest::cell::days_from_civil(y, 1, 1), crate::ingest::cell::days_from_civil(y, 12, 31));
                Typed::Range(Interval::closed(a as f64, b as f64))
            }
            _ => Typed::Invalid,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(cells: &[&str]) -> Column {
        Column::of(cells)
    }

    #[test]
    fn grid_counts_follow_the_brackets() {
        let g = |lo, hi, lc, hc, res| grid_count(Interval { lo, hi, lo_closed: lc, hi_closed: hc }, res).0;
        assert_eq!(g(30.0, 39.0, true, true, 1.0), 10);
        assert_eq!(g(30.0, 40.0, true, false, 1.0), 10);
        assert_eq!(g(30.0, 40.0, false, true, 1.0), 10);
        assert_eq!(g(0.5, 1.0, true, true, 0.1), 6);
        assert_eq!(g(40.0, 30.0, true, true, 1.0), 0);
    }

    #[test]
    fn g3_settings_are_derived_from_the_original() {
        let norm = Normaliser::default();
        let o = column(&["34", "37", "91", "25", "45.5"]);
        let p = column(&["30-39", ">=80", "*", "20-29", "40-49"]);
        let a = Attribute::new("age", &o, Some(&p), AttributeSettings::default(), &norm);
        assert_eq!((a.kind, a.res, a.domain), (Kind::Numeric, 0.1, Some((25.0, 91.0))));
        let p = a.p.as_ref().unwrap();
        assert_eq!(a.rep(p[1]), Some(85.5), ">=80 closes at D_hi = 91");
        assert_eq!(a.typed[p[2] as usize], Typed::Suppressed);
        let zip = Attribute::new("zip", &column(&["13053", "14812"]), Some(&column(&["130**"])), AttributeSettings::default(), &norm);
        assert_eq!(zip.digit_len, Some(5));
        assert_eq!(zip.interval(zip.p.as_ref().unwrap()[0]), Some(Interval::closed(13000.0, 13099.0)));
        let declared = AttributeSettings { kind: Some(Kind::Categorical), ..Default::default() };
        let zip = Attribute::new("zip", &column(&["13053"]), Some(&column(&["130**"])), declared, &norm);
        assert_eq!(zip.typed[zip.p.as_ref().unwrap()[0] as usize], Typed::Mask);
        let d = Attribute::new("d", &column(&["2024-01-05"]), Some(&column(&["2024-01", "2024"])), AttributeSettings::default(), &norm);
        assert_eq!(d.kind, Kind::Date);
        let y = d.interval(d.p.as_ref().unwrap()[1]).unwrap();
        assert_eq!(grid_count(y, d.res).0, 366);
    }

    #[test]
    fn dates_of_any_written_form_and_decimal_commas_read_in_the_original_s_reading() {
        let norm = Normaliser::default();
        // 12.03.1980 is day 3,723 (1980-01-01 is 3,652; + 31 + 29 + 11), 1.4.2022 is 19,083.
        let d = Attribute::new("d", &column(&["12.03.1980", "1.4.2022"]), Some(&column(&["12.03.1980", "1980-03"])), AttributeSettings::default(), &norm);
        assert_eq!((d.kind, d.reading.date, d.domain), (Kind::Date, Some(DateForm::DayDot), Some((3_723.0, 19_083.0))));
        let p = d.p.as_ref().unwrap();
        assert_eq!((d.typed[p[0] as usize], d.interval(p[1]).map(|i| (i.lo, i.hi))), (Typed::Exact(3_723.0), Some((3_712.0, 3_742.0))));
        // Ambiguous: categorical unless the form is set.
        let cells = ["03/04/2020", "05/06/2021"];
        assert_eq!(Attribute::new("v", &column(&cells), None, AttributeSettings::default(), &norm).kind, Kind::Categorical);
        let set = AttributeSettings { date_form: Some(DateForm::MonthSlash), ..Default::default() };
        let v = Attribute::new("v", &column(&cells), None, set, &norm);
        assert_eq!((v.kind, v.domain), (Kind::Date, Some((18_325.0, 18_753.0))));
        let w = Attribute::new("w", &column(&["72,5", "80", "65,25"]), None, AttributeSettings::default(), &norm);
        assert_eq!((w.kind, w.res, w.domain), (Kind::Numeric, 0.01, Some((65.25, 80.0))));
        let comma_file = Attribute::new("w", &column(&["72,5", "80"]), None, AttributeSettings::default(), &norm.delimiter(","));
        assert_eq!(comma_file.kind, Kind::Categorical);
    }
}
