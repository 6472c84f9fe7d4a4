//! Columns as numbers (spec synthetic.md Sec 1.4, after SDNist's `report/dataset/transform.py`),
//! for the propensity, correlation, PCA and regression measures: one code per value id,
//! computed once per distinct value.
//!
//! - numeric: the number; a date: its epoch seconds (day number x 86,400, Sec 1.2); missing,
//!   and any value that is not a number (a range, `*`), `max + 1` over `O`, `P` (and `H`);
//! - ordinal (a pseudolens kind SDNist lacks): the 0-based position in the declared order;
//! - categorical: the integer itself when every non-missing value of the tables reads as an
//!   integer, else the 0-based rank in the byte-wise sorted distinct values; missing `-1`.

use super::columns::SynColumn;
use crate::table::dictionary::MISSING;
use crate::table::kind::Kind;

/// Seconds in a day: dates are day numbers in [`SynColumn::numbers`].
const DAY: f64 = 86_400.0;

/// Per value id of `column`, its code (Sec 1.4). Value ids no row holds get a code too.
pub fn codes(column: &SynColumn) -> Vec<f64> {
    let held = held(column);
    match column.kind {
        Kind::Numeric | Kind::Date => {
            let scale = if column.kind == Kind::Date { DAY } else { 1.0 };
            let max = (0..column.n_values()).filter(|&v| held[v]).filter_map(|v| column.numbers[v]).fold(f64::NEG_INFINITY, f64::max);
            let missing = if max.is_finite() { max * scale + 1.0 } else { 0.0 };
            column.numbers.iter().map(|x| x.map_or(missing, |x| x * scale)).collect()
        }
        Kind::Ordinal | Kind::Categorical => {
            let labels: Vec<Option<&str>> = (0..column.n_values()).map(|v| if v as u32 == MISSING { None } else { column.labels[v].as_deref() }).collect();
            if let (Kind::Ordinal, Some(order)) = (column.kind, &column.order) {
                return labels.iter().map(|l| l.and_then(|l| order.iter().position(|o| o == l)).map_or(-1.0, |i| i as f64)).collect();
            }
            let integers: Option<Vec<Option<f64>>> = labels
                .iter()
                .zip(&held)
                .map(|(l, &h)| match l {
                    Some(l) if h => l.parse::<i64>().ok().map(|i| Some(i as f64)),
                    _ => Some(None),
                })
                .collect();
            if let Some(integers) = integers {
                return integers.iter().map(|i| i.unwrap_or(-1.0)).collect();
            }
            let mut sorted: Vec<&str> = labels.iter().zip(&held).filter(|(_, h)| **h).filter_map(|(l, _)| *l).collect();
            sorted.sort_unstable();
            sorted.dedup();
            labels.iter().map(|l| l.map_or(-1.0, |l| sorted.binary_search(&l).map_or(-1.0, |i| i as f64))).collect()
        }
    }
}

/// Whether a row of `O`, `P` or `H` holds each value id.
fn held(column: &SynColumn) -> Vec<bool> {
    let mut held = vec![false; column.n_values()];
    column.o.iter().chain(&column.p).chain(&column.h).for_each(|&v| held[v as usize] = true);
    held
}

/// A table's rows as coded numbers, one column after the other.
pub struct Coded {
    /// Per column, per row of `O`, its code.
    pub o: Vec<Vec<f64>>,
    /// Per column, per row of `P`.
    pub p: Vec<Vec<f64>>,
}

impl Coded {
    /// Codes the rows of `columns`.
    pub fn new(columns: &[&SynColumn]) -> Self {
        let (mut o, mut p) = (Vec::new(), Vec::new());
        for c in columns {
            let code = codes(c);
            o.push(c.o.iter().map(|&v| code[v as usize]).collect());
            p.push(c.p.iter().map(|&v| code[v as usize]).collect());
        }
        Coded { o, p }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    fn column(kind: Option<Kind>, order: Option<&[&str]>, o: &[&str], p: &[&str]) -> SynColumn {
        let settings = AttributeSettings { kind, order: order.map(|o| o.iter().map(|s| s.to_string()).collect()), ..AttributeSettings::default() };
        SynColumn::new("c", &Column::of(o), &Column::of(p), None, settings, &Normaliser::default())
    }

    fn rows(c: &SynColumn) -> (Vec<f64>, Vec<f64>) {
        let coded = Coded::new(&[c]);
        (coded.o[0].clone(), coded.p[0].clone())
    }

    #[test]
    fn integer_labels_keep_their_value_and_missing_is_minus_one() {
        let c = column(Some(Kind::Categorical), None, &["3", "10", ""], &["7", "3"]);
        assert_eq!(rows(&c), (vec![3.0, 10.0, -1.0], vec![7.0, 3.0]));
    }

    #[test]
    fn text_labels_are_ranked_bytewise_over_both_tables() {
        // Sorted: "B" < "a" < "b".
        let c = column(Some(Kind::Categorical), None, &["b", "B", ""], &["a", "b"]);
        assert_eq!(rows(&c), (vec![2.0, 0.0, -1.0], vec![1.0, 2.0]));
    }

    #[test]
    fn numbers_are_themselves_and_missing_is_the_maximum_plus_one() {
        let c = column(Some(Kind::Numeric), None, &["2.5", "", "40"], &["41", "10-20"]);
        assert_eq!(rows(&c), (vec![2.5, 42.0, 40.0], vec![41.0, 42.0]));
    }

    #[test]
    fn dates_are_epoch_seconds() {
        let c = column(Some(Kind::Date), None, &["1970-01-02"], &["1970-01-01"]);
        assert_eq!(rows(&c), (vec![86_400.0], vec![0.0]));
    }

    #[test]
    fn ordinal_labels_are_their_position_in_the_order() {
        let c = column(Some(Kind::Ordinal), Some(&["low", "mid", "high"]), &["high", "low", ""], &["mid"]);
        assert_eq!(rows(&c), (vec![2.0, 0.0, -1.0], vec![1.0]));
    }
}
