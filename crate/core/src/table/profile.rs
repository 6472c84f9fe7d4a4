//! Column profile: kind, cell forms, distinct values, range and top values of each column
//! (spec README Sec 4.1 kind inference, Sec 4.2 forms).
//!
//! Computed from a column's distinct values and their counts: the form of each distinct value
//! is read once, however many cells hold it. A column past its cap of distinct values adds
//! what its [`Sketch`] counted; its distinct count is then an estimate (clamped to the filled
//! cells and labelled approximate) and it lists no top values, which a sketch cannot know.

use serde::Serialize;

use super::column::Column;
use super::kind::Kind;
use super::roles::{Role, RoleFacts, propose};
use super::sketch::Sketch;
use super::stats::{FormTally, Stats, count_kept};
use crate::ingest::cell::{DateForm, Normaliser, Reading, civil_from_days};

/// How many top values a profile reports.
const TOP: usize = 5;

/// The profile of a column from its values (and sketch): `rows` data rows.
pub fn profile(column: &Column, name: &str, index: usize, rows: u64, norm: &Normaliser) -> ColumnProfile {
    let values = &column.values;
    let mut stats = column.sketch.as_ref().map_or_else(Stats::default, |s| s.stats);
    let mut texts: Vec<u32> = Vec::new();
    for code in 0..values.len() as u32 {
        let n = values.count(code);
        if n > 0 && count_kept(&mut stats, values.text(code), n, norm) {
            texts.push(code);
        }
    }
    let inferred = stats.infer(norm.date_form(name), norm.decimal_comma_allowed());
    let kind = inferred.kind;
    let t = stats.tally;
    let (distinct, distinct_exact, top) = match &column.sketch {
        Some(sketch) => (approximate(sketch, texts.iter().map(|&c| values.text(c)), texts.len() as u64, t.non_blank()), false, Vec::new()),
        None => {
            // The TOP most frequent values, ties by text (a dictionary's texts differ, so the
            // order is total): selected among the codes, and only they are sorted and copied.
            let distinct = texts.len() as u64;
            let order = |a: &u32, b: &u32| values.count(*b).cmp(&values.count(*a)).then_with(|| values.text(*a).cmp(values.text(*b)));
            if texts.len() > TOP {
                texts.select_nth_unstable_by(TOP, order);
                texts.truncate(TOP);
            }
            texts.sort_unstable_by(order);
            (distinct, true, texts.iter().map(|&c| (values.text(c).to_string(), values.count(c))).collect())
        }
    };
    let forms = match kind {
        Kind::Numeric => {
            Forms { exact: t.number + stats.comma_numbers * u64::from(inferred.reading.decimal_comma), range: t.numeric_range, mask: 0, ..Forms::blank(&t) }
        }
        Kind::Date => Forms { exact: t.non_blank() - t.date_range, range: t.date_range, mask: 0, ..Forms::blank(&t) },
        // Spec README Sec 4.2: in a categorical column any text with a mask character is MASK.
        Kind::Categorical | Kind::Ordinal => Forms { exact: t.non_blank() - t.mask - t.digit_mask, range: 0, mask: t.mask + t.digit_mask, ..Forms::blank(&t) },
    };
    let (min, max) = match kind {
        Kind::Numeric if stats.num_lo.is_finite() => (Some(format!("{}", stats.num_lo)), Some(format!("{}", stats.num_hi))),
        Kind::Date => {
            let f = inferred.reading.date.unwrap_or(DateForm::Iso) as usize;
            (Some(civil_from_days(stats.date_lo[f])), Some(civil_from_days(stats.date_hi[f])))
        }
        _ => (None, None),
    };
    let facts = RoleFacts { kind, rows, non_blank: t.non_blank(), distinct, email_like: stats.email_like };
    let (proposed_role, role_reason) = propose(name, &facts);
    ColumnProfile {
        name: name.to_string(),
        index,
        kind,
        forms,
        shape: shape(kind, &t).to_string(),
        distinct,
        distinct_exact,
        min,
        max,
        top,
        proposed_role,
        role_reason,
        date_form: inferred.reading.date,
        decimal_comma: inferred.reading.decimal_comma,
        ambiguous_date_forms: inferred.ambiguous,
        mixed_decimals: inferred.mixed_decimals,
    }
}

/// The estimated distinct count, clamped between the values known exactly and the filled
/// cells (an estimate above the cells it counts would be absurd).
fn approximate<'a>(sketch: &Sketch, kept: impl Iterator<Item = &'a str>, known: u64, non_blank: u64) -> u64 {
    (sketch.distinct(kept).round() as u64).clamp(known.min(non_blank), non_blank)
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
        Kind::Categorical | Kind::Ordinal if (t.mask + t.digit_mask) * 2 > t.non_blank() => "masked codes",
        Kind::Categorical | Kind::Ordinal => "text",
    }
}

/// Cells per form of spec README Sec 4.2 for the column's kind.
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// The reported profile of one column.
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// Most frequent values with their counts (none when `distinct_exact` is false).
    pub top: Vec<(String, u64)>,
    /// Proposed role.
    pub proposed_role: Role,
    /// Why, in one sentence.
    pub role_reason: String,
    /// The written form of a date column's dates (spec README Sec 4.4).
    pub date_form: Option<DateForm>,
    /// Whether the column's numbers write their fraction after a comma (`72,5`).
    pub decimal_comma: bool,
    /// The date forms that all fit a column both day-first and month-first read: it stays
    /// categorical until the user sets its `date_form` (warning `date_form_ambiguous`).
    pub ambiguous_date_forms: Vec<DateForm>,
    /// Whether the column's numbers mix decimal commas and points (categorical, warning
    /// `decimal_separator_mixed`).
    pub mixed_decimals: bool,
}

impl ColumnProfile {
    /// How the column's cells read: its date form and decimal separator.
    pub fn reading(&self) -> Reading {
        Reading { date: self.date_form, decimal_comma: self.decimal_comma }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::encoding::Encoding;
    use crate::table::column::EXACT_DISTINCT_CAP;

    fn column(cells: &[&str], cap: usize) -> Column {
        let norm = Normaliser::default();
        let mut c = Column::new(crate::table::column::Cap::soft(cap), false);
        for cell in cells {
            c.take(cell.as_bytes(), Encoding::Utf8, &norm).unwrap();
        }
        c
    }

    fn profile_of(cells: &[&str]) -> ColumnProfile {
        profile(&column(cells, usize::MAX), "x", 0, cells.len() as u64, &Normaliser::default())
    }

    #[test]
    fn infers_kinds_and_shapes() {
        let p = profile_of(&["34", "30-39", "", "*"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Numeric, "numbers and generalized ranges"));
        assert_eq!((p.forms.exact, p.forms.range, p.forms.missing, p.forms.suppressed), (1, 1, 1, 1));
        assert_eq!((p.min.as_deref(), p.max.as_deref()), (Some("30"), Some("39")));
        let p = profile_of(&["130**", "148**"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Numeric, "masked digit codes"));
        let p = profile_of(&["2024-01-05", "2023-12", "NA"]);
        assert_eq!((p.kind, p.min.as_deref(), p.max.as_deref()), (Kind::Date, Some("2023-12-01"), Some("2024-01-05")));
        let p = profile_of(&["130**", "A1**", "x"]);
        assert_eq!((p.kind, p.forms.mask, p.forms.exact, p.shape.as_str()), (Kind::Categorical, 2, 1, "masked codes"));
        let p = profile_of(&["x", "130**", "A1**"]);
        assert_eq!((p.forms.mask, p.forms.exact), (2, 1), "the order of cells changes nothing");
        let p = profile_of(&["F", "M", "F"]);
        assert_eq!((p.kind, p.distinct, p.top[0].clone()), (Kind::Categorical, 2, ("F".to_string(), 2)));
        let p = profile_of(&["2025-07", "2025-08"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Date, "generalized dates (months or ranges)"));
        let p = profile_of(&["", "NA"]);
        assert_eq!((p.kind, p.shape.as_str()), (Kind::Categorical, "no values"));
    }

    fn profile_with(cells: &[&str], norm: &Normaliser) -> ColumnProfile {
        profile(&column(cells, usize::MAX), "x", 0, cells.len() as u64, norm)
    }

    #[test]
    fn a_date_column_reads_in_the_one_form_its_values_fit() {
        let p = profile_of(&["12.03.1980", "1.4.2022", "NA", "*"]);
        assert_eq!((p.kind, p.date_form, p.shape.as_str()), (Kind::Date, Some(DateForm::DayDot), "dates"));
        assert_eq!((p.min.as_deref(), p.max.as_deref(), p.forms.exact, p.forms.missing), (Some("1980-03-12"), Some("2022-04-01"), 2, 1));
        // Day first, decided by a day above 12; month first, by one in the second place.
        assert_eq!(profile_of(&["03/04/2020", "13/04/2020"]).date_form, Some(DateForm::DaySlash));
        let p = profile_of(&["03/04/2020", "04/13/2020"]);
        assert_eq!((p.date_form, p.max.as_deref()), (Some(DateForm::MonthSlash), Some("2020-04-13")));
        assert_eq!(profile_of(&["01-Mar-1980", "1-apr-1981"]).date_form, Some(DateForm::DayMon));
        assert_eq!(profile_of(&["2022-04-01 00:00:00", "2022-04-02 00:00:00"]).date_form, Some(DateForm::Iso), "midnight date-times (pandas)");
        assert_eq!(profile_of(&["2022-04-01 00:00:00", "2022-04-02 10:00:00"]).kind, Kind::Categorical, "a time of day");
        assert_eq!(profile_of(&["12.03.1980", "1980-03-12"]).kind, Kind::Categorical, "two forms in one column");
        assert_eq!(profile_of(&["12.03.1980", "x"]).kind, Kind::Categorical);
        assert_eq!(profile_of(&["2024-01-05", "2023-12"]).date_form, Some(DateForm::Iso));
    }

    #[test]
    fn an_ambiguous_column_is_categorical_until_its_form_is_set() {
        let cells = ["03/04/2020", "05/06/2021"];
        let p = profile_of(&cells);
        assert_eq!((p.kind, p.date_form, &p.ambiguous_date_forms[..]), (Kind::Categorical, None, &[DateForm::DaySlash, DateForm::MonthSlash][..]));
        let set = Normaliser::default().date_forms(vec![("x".into(), DateForm::MonthSlash)]);
        let p = profile_with(&cells, &set);
        assert_eq!((p.kind, p.date_form, p.ambiguous_date_forms.len()), (Kind::Date, Some(DateForm::MonthSlash), 0));
        assert_eq!((p.min.as_deref(), p.max.as_deref()), (Some("2020-03-04"), Some("2021-05-06")));
        // A form the values do not fit is not used.
        let wrong = Normaliser::default().date_forms(vec![("x".into(), DateForm::DayDot)]);
        assert_eq!(profile_with(&cells, &wrong).kind, Kind::Categorical);
    }

    #[test]
    fn decimal_commas_are_numbers_unless_the_delimiter_is_a_comma_or_points_mix_in() {
        let p = profile_of(&["72,5", "80", "65,25", ""]);
        assert_eq!((p.kind, p.decimal_comma, p.forms.exact), (Kind::Numeric, true, 3));
        assert_eq!((p.min.as_deref(), p.max.as_deref()), (Some("65.25"), Some("80")));
        let comma_file = Normaliser::default().delimiter(",");
        assert_eq!(profile_with(&["72,5", "80"], &comma_file).kind, Kind::Categorical);
        assert!(!profile_with(&["72.5", "80"], &Normaliser::default().delimiter(";")).decimal_comma);
        let mixed = profile_of(&["72,5", "80.5"]);
        assert_eq!((mixed.kind, mixed.mixed_decimals), (Kind::Categorical, true));
        assert!(!profile_of(&["72,5", "x"]).mixed_decimals);
    }

    #[test]
    fn the_top_values_are_the_most_frequent_ties_by_text_whatever_the_row_order() {
        // Value v{39-i} appears 1 + i % 4 times: the ten values of count 4 are v36, v32, ..,
        // v00, and the ties keep the five first by text.
        let mut cells: Vec<String> = (0..40).flat_map(|i| std::iter::repeat_n(format!("v{:02}", 39 - i), 1 + i % 4)).collect();
        let want: Vec<(String, u64)> = ["v00", "v04", "v08", "v12", "v16"].iter().map(|t| (t.to_string(), 4)).collect();
        for _ in 0..2 {
            let p = profile_of(&cells.iter().map(String::as_str).collect::<Vec<_>>());
            assert_eq!((p.distinct, &p.top), (40, &want));
            cells.reverse();
        }
        assert_eq!(profile_of(&["b", "a", "b"]).top, [("b".to_string(), 2), ("a".to_string(), 1)], "fewer values than the top");
    }

    #[test]
    fn past_the_cap_the_distinct_count_is_estimated_clamped_and_merges() {
        let norm = Normaliser::default();
        let n = 3 * EXACT_DISTINCT_CAP;
        let values: Vec<String> = (0..n).map(|i| format!("id-{i}")).collect();
        let cells: Vec<&str> = values.iter().map(String::as_str).collect();
        let whole = column(&cells, EXACT_DISTINCT_CAP);
        let (mut a, b) = (column(&cells[..n / 2], EXACT_DISTINCT_CAP), column(&cells[n / 2..], EXACT_DISTINCT_CAP));
        a.merge(b).unwrap();
        let (w, m) = (profile(&whole, "id", 0, n as u64, &norm), profile(&a, "id", 0, n as u64, &norm));
        assert!(!w.distinct_exact && w.top.is_empty());
        assert!((w.distinct as f64 / n as f64 - 1.0).abs() < 0.03, "{}", w.distinct);
        assert_eq!(w.distinct, m.distinct, "a merge estimates what one pass does");
        assert!(w.distinct <= n as u64, "never more than the filled cells");
        assert_eq!(w.forms, m.forms);
        // Few cells, many values: the estimate is clamped to the cells.
        let few = column(&cells[..EXACT_DISTINCT_CAP + 50], EXACT_DISTINCT_CAP);
        assert!(profile(&few, "id", 0, 0, &norm).distinct <= (EXACT_DISTINCT_CAP + 50) as u64);
    }
}
