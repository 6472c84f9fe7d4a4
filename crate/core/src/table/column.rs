//! One column as read: its distinct values with their counts, per row the code of its value
//! when the table is retained, and the sketch of the cells past its cap of distinct values.

use super::codes::Codes;
use super::sketch::Sketch;
use super::stats::count_kept;
use super::values::{Values, ascii_trim};
use crate::ingest::cell::Normaliser;
use crate::ingest::encoding::Encoding;

/// How many distinct values a column counts exactly when nothing else needs them (a column
/// whose role uses its values, or a retained table, keeps more).
pub const EXACT_DISTINCT_CAP: usize = 10_000;

/// The code a cell gets when its value is counted by the sketch only.
pub const SKETCHED: u32 = u32::MAX;

/// The most distinct values a column whose values are needed (a role of the audit) may have.
pub const MAX_DISTINCT: usize = 10_000_000;

/// How many distinct values a column keeps, and what happens past that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// Distinct values kept.
    pub values: usize,
    /// Past the cap: an error (a role needs every value) instead of the sketch.
    pub hard: bool,
}

impl Cap {
    /// A column no computation needs value by value: exact counts up to `values`.
    pub fn soft(values: usize) -> Cap {
        Cap { values, hard: false }
    }

    /// A column a role needs: every value, up to [`MAX_DISTINCT`].
    pub fn needed() -> Cap {
        Cap { values: MAX_DISTINCT, hard: true }
    }
}

/// Why a cell could not be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// A column a role needs has more than [`MAX_DISTINCT`] distinct values.
    TooManyValues,
    /// The column's distinct values hold more than 4 GiB of text.
    TooMuchText,
    /// The field is not valid in the file's encoding.
    NotDecodable,
}

impl Default for Cap {
    fn default() -> Self {
        Cap::soft(EXACT_DISTINCT_CAP)
    }
}

/// One column.
#[derive(Debug, Clone, Default)]
pub struct Column {
    /// How many distinct values it keeps.
    pub cap: Cap,
    /// Its distinct values and their counts.
    pub values: Values,
    /// Per row, the code of its value (a retained table).
    pub codes: Option<Codes>,
    /// The cells past the cap of distinct values.
    pub sketch: Option<Sketch>,
}

impl Column {
    /// A column with this cap, keeping a code per row when `retained`.
    pub fn new(cap: Cap, retained: bool) -> Column {
        Column { cap, codes: retained.then(Codes::default), ..Column::default() }
    }

    /// Takes one cell: its code, or [`SKETCHED`] when only the sketch counts it.
    #[inline]
    pub fn take(&mut self, field: &[u8], encoding: Encoding, norm: &Normaliser) -> Result<u32, Overflow> {
        if let Some(c) = self.values.find(field) {
            return Ok(c);
        }
        self.absorb_new(field, encoding, norm)
    }

    /// Whether the column is past its cap and keeps no codes: then every further cell goes to
    /// the sketch alone ([`Column::sketch_cell`]).
    #[inline]
    pub fn is_frozen(&self) -> bool {
        self.sketch.is_some() && self.codes.is_none()
    }

    /// Takes one cell into the sketch (of a frozen column, [`Column::is_frozen`]: without
    /// looking it up among the kept values first); the profile adds the kept values' counts to
    /// the sketch's (and their texts to its distinct count), so a cell counts the same in either
    /// place, and the lookup of a value that is mostly not there (ids, free text) cost more than
    /// the sketch itself.
    pub fn sketch_cell(&mut self, field: &[u8], encoding: Encoding, norm: &Normaliser) -> Result<(), Overflow> {
        let text = encoding.decode(ascii_trim(field)).ok_or(Overflow::NotDecodable)?;
        // (The normaliser trims the rest of the white space.)
        self.sketch.get_or_insert_default().absorb(&text, norm);
        Ok(())
    }

    #[cold]
    fn absorb_new(&mut self, field: &[u8], encoding: Encoding, norm: &Normaliser) -> Result<u32, Overflow> {
        let cap = self.cap;
        if self.sketch.is_none() && self.values.len() < cap.values {
            return self.values.insert(field, encoding).ok_or(if encoding.decode(ascii_trim(field)).is_none() {
                Overflow::NotDecodable
            } else {
                Overflow::TooMuchText
            });
        }
        if cap.hard {
            return Err(Overflow::TooManyValues);
        }
        self.sketch_cell(field, encoding, norm)?;
        self.freeze();
        Ok(SKETCHED)
    }

    /// Whether the column will have more distinct values than its cap, in a table of `rows`
    /// rows: when the lower end of the 95 % confidence interval of the bias-corrected Chao1
    /// estimate of its distinct values, from the counts so far, exceeds the cap
    /// ([`chao1_lower_bound`]). A column of unique ids, or whose values mostly appear once, is
    /// past a cap the rows can exceed at the first look; a column whose values repeat is not;
    /// a column near its cap is given up only once enough rows make the bound pass it.
    pub fn past_cap_by_estimate(&self, rows: f64) -> bool {
        let (mut f1, mut f2) = (0u64, 0u64);
        for &n in self.values.counts() {
            match n {
                1 => f1 += 1,
                2 => f2 += 1,
                _ => {}
            }
        }
        chao1_lower_bound(self.values.len() as u64, f1, f2).min(rows) > self.cap.values as f64
    }

    /// Stops keeping new values: they go to the sketch, and the codes (which they would
    /// need) are dropped.
    pub fn freeze(&mut self) {
        self.codes = None;
        self.sketch.get_or_insert_default();
    }

    /// Folds the kept values of a column past its cap that keeps no codes into its sketch (as
    /// its profile counts them) and forgets them: a part read in a worker then ships the sketch
    /// alone, not up to [`super::RETAIN_CAP`] values that only the profile would read
    /// (measured: decoding and merging the two parts of the 1M-row Adult-like table took 0.58 s
    /// in the page, mostly its id column's values).
    pub fn fold_into_sketch(&mut self, norm: &Normaliser) {
        let (Some(sketch), None) = (&mut self.sketch, &self.codes) else { return };
        for code in 0..self.values.len() as u32 {
            let (n, text) = (self.values.count(code), self.values.text(code));
            if n > 0 && count_kept(&mut sketch.stats, text, n, norm) {
                sketch.hll.insert(text);
            }
        }
        self.values = Values::default();
    }

    /// Whether the column holds a code per row.
    pub fn is_retained(&self) -> bool {
        self.codes.is_some()
    }

    /// Memory held, in bytes (roughly).
    pub fn memory(&self) -> usize {
        self.values.memory() + self.codes.as_ref().map_or(0, Codes::memory) + self.sketch.as_ref().map_or(0, |_| 20 << 10)
    }

    /// Appends the next part of the same column (rows after this part's). Past its cap the
    /// merged column is frozen.
    pub fn merge(&mut self, other: Column) -> Result<(), Overflow> {
        let remap = self.values.merge(&other.values).ok_or(Overflow::TooMuchText)?;
        match (&mut self.codes, &other.codes) {
            (Some(mine), Some(theirs)) => {
                let mut buf = Vec::new();
                theirs.slice_into(0, theirs.len(), &mut buf);
                mine.extend_remapped(&buf, &remap);
            }
            _ => self.codes = None,
        }
        if let Some(s) = &other.sketch {
            self.sketch.get_or_insert_default().merge(s);
        }
        if self.values.len() > self.cap.values {
            if self.cap.hard {
                return Err(Overflow::TooManyValues);
            }
            self.freeze();
        }
        if self.sketch.is_some() {
            self.freeze();
        }
        Ok(())
    }
}

/// The lower end of the 95 % confidence interval of the bias-corrected Chao1 estimate of the
/// distinct values of a column (Chao 1987; the variance and the log-normal interval of Chao
/// 2005, "Species estimation and applications", Sec 5), from `d` values seen so far, `f1` of
/// them once and `f2` twice: `S = d + f1 (f1 - 1) / (2 (f2 + 1))`, and with `T = S - d` the
/// bound `d + T / C`, `C = exp(1.96 sqrt(ln(1 + var / T²)))`. Never below `d`.
pub fn chao1_lower_bound(d: u64, f1: u64, f2: u64) -> f64 {
    let (d, f1, f2) = (d as f64, f1 as f64, f2 as f64);
    let t = f1 * (f1 - 1.0).max(0.0) / (2.0 * (f2 + 1.0));
    if t <= 0.0 {
        return d;
    }
    let g = f2 + 1.0;
    let var = t + f1 * (2.0 * f1 - 1.0).powi(2) / (4.0 * g * g) + f1 * f1 * f2 * (f1 - 1.0).powi(2) / (4.0 * g.powi(4));
    let c = (1.96 * (1.0 + var / (t * t)).ln().sqrt()).exp();
    d + t / c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::kind::Kind;
    use crate::table::profile::profile;

    #[test]
    fn the_lower_bound_of_chao1_by_hand() {
        // 1,024 values each seen once: T = 1024 * 1023 / 2 = 523,776; var = T + 1024 * 2047² / 4
        // = 1,073,217,280; C = exp(1.96 sqrt(ln(1 + var / T²))) = 1.130285; d + T / C = 464,425.55.
        assert!((chao1_lower_bound(1024, 1024, 0) - 464_425.55).abs() < 0.01);
        // No value seen once: nothing unseen is estimated, the bound is the values seen.
        assert_eq!(chao1_lower_bound(5, 0, 5), 5.0);
        assert_eq!(chao1_lower_bound(0, 0, 0), 0.0);
        // Between the values seen and the point estimate.
        for (d, f1, f2) in [(100u64, 10u64, 10u64), (8097, 8004, 91), (60_168, 55_176, 4638), (3, 1, 0), (2, 2, 0)] {
            let point = d as f64 + (f1 * f1.saturating_sub(1)) as f64 / (2.0 * (f2 + 1) as f64);
            let lower = chao1_lower_bound(d, f1, f2);
            assert!(d as f64 <= lower && lower <= point, "{d} {f1} {f2}: {lower} against {point}");
        }
    }

    /// Whether a column of cells drawn at random among `values` values is given up at one of
    /// the looks at 4,096 rows and every doubling up to 65,536, in a file of 1,000,000 rows
    /// (a cap of 262,144); the rows it was given up at.
    fn given_up_at(values: usize, seed: u64) -> Option<u64> {
        let norm = Normaliser::default();
        let mut rng = crate::rng::SplitMix64(seed);
        let mut c = Column::new(Cap::soft(crate::table::RETAIN_CAP), true);
        let mut look = 4096u64;
        for row in 1..=65_536u64 {
            c.take(format!("v{}", rng.below(values)).as_bytes(), Encoding::Utf8, &norm).unwrap();
            if row == look {
                if c.past_cap_by_estimate(1e6) {
                    return Some(row);
                }
                look *= 2;
            }
        }
        None
    }

    #[test]
    fn a_column_is_given_up_early_only_when_it_is_far_past_its_cap() {
        for seed in 1..=4 {
            // Ids: at the first look.
            assert_eq!(given_up_at(usize::MAX, seed), Some(4096));
            // Twice the cap (the Adult-like table's fnlwgt has 413,536 values): a look later.
            assert!(given_up_at(2 * crate::table::RETAIN_CAP, seed).is_some_and(|r| r <= 8192));
            // Under the cap: kept up to 65,536 rows (the point estimate is unbiased: at the cap
            // it would give up half such columns; the bound, about one in twenty).
            assert_eq!(given_up_at(200_000, seed), None);
        }
        // The rows the file will have bound the estimate: an id of a 200,000-row file is kept.
        let mut c = Column::new(Cap::soft(crate::table::RETAIN_CAP), true);
        for i in 0..4096 {
            c.take(format!("r{i}").as_bytes(), Encoding::Utf8, &Normaliser::default()).unwrap();
        }
        assert!(c.past_cap_by_estimate(1e6) && !c.past_cap_by_estimate(200_000.0));
    }

    #[test]
    fn a_column_past_its_cap_folds_its_values_into_the_sketch_with_the_same_profile() {
        let norm = Normaliser::default();
        let mut c = Column::new(Cap::soft(3), false);
        let cells = ["7", "8", "", "NA", "9", "12", "8", "x-1", "13", "7", "2020-01-05", "12"];
        for cell in cells {
            c.take(cell.as_bytes(), Encoding::Utf8, &norm).unwrap();
        }
        assert!(c.sketch.is_some() && c.values.len() == 3);
        let before = profile(&c, "v", 0, cells.len() as u64, &norm);
        c.fold_into_sketch(&norm);
        assert!(c.values.is_empty());
        let after = profile(&c, "v", 0, cells.len() as u64, &norm);
        assert_eq!(after, before);
        // 10 filled cells of 7 distinct values (7, 8, 9, 12, x-1, 13, 2020-01-05), 2 blanks ("", NA).
        assert_eq!((after.forms.missing, after.distinct, after.distinct_exact), (2, 7, false));
        // Past its cap, a cell counts the same in the sketch alone as among the kept values.
        let (mut kept, mut sketched) = (Column::new(Cap::soft(3), false), Column::new(Cap::soft(3), false));
        for cell in cells {
            kept.take(cell.as_bytes(), Encoding::Utf8, &norm).unwrap();
            if sketched.is_frozen() {
                sketched.sketch_cell(cell.as_bytes(), Encoding::Utf8, &norm).unwrap();
            } else {
                sketched.take(cell.as_bytes(), Encoding::Utf8, &norm).unwrap();
            }
        }
        assert!(sketched.values.count(0) < kept.values.count(0), "a kept value seen again past the cap went to the sketch");
        assert_eq!(profile(&sketched, "v", 0, cells.len() as u64, &norm), before);
        // A column that keeps its codes (a role may need them) keeps its values.
        let mut kept = Column::new(Cap::soft(3), true);
        kept.take(b"1", Encoding::Utf8, &norm).unwrap();
        kept.fold_into_sketch(&norm);
        assert_eq!(kept.values.len(), 1);
    }

    #[test]
    fn past_its_cap_a_column_of_dates_and_one_of_decimal_commas_keep_their_reading() {
        // The streaming path: every value past the cap goes to the sketch, whose stats decide
        // the form as the kept values do; a stored part carries them (wire).
        let norm = Normaliser::default();
        for (cells, kind) in [
            (["12.03.1980", "1.4.2022", "31.12.1999", "NA", "02.02.2002", "12.03.1980"], Kind::Date),
            (["72,5", "80", "65,25", "", "1,5", "80"], Kind::Numeric),
        ] {
            let mut c = Column::new(Cap::soft(2), false);
            for cell in cells {
                c.take(cell.as_bytes(), Encoding::Utf8, &norm).unwrap();
            }
            let before = profile(&c, "v", 0, cells.len() as u64, &norm);
            c.fold_into_sketch(&norm);
            let after = profile(&c, "v", 0, cells.len() as u64, &norm);
            assert_eq!((after.kind, &after.min, &after.max, after.forms), (kind, &before.min, &before.max, before.forms));
            assert_eq!((after.date_form, after.decimal_comma), (before.date_form, before.decimal_comma));
            assert_eq!(after.kind, before.kind);
        }
    }
}
