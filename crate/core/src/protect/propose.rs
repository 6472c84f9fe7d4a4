//! The ladder proposed for each QI from its values (issue 38), which the page offers before a
//! user changes it: dates to month, quarter and year; codes of one length (postcodes) to
//! prefixes one character shorter at each level; whole numbers to bands of a round width `w`
//! (the range over 20, rounded up to 1, 2 or 5 times a power of ten), `2w` and `4w` (ages:
//! 5, 10, 20); any other column none, so it takes (value, `*`) unless the user uploads a
//! hierarchy. The values' shapes are the advice's ([`crate::advice::shape`]).

use std::collections::BTreeMap;

use super::labels::DateLevel;
use super::ladder::Ladder;
use crate::advice::{Shape, shape};
use crate::error::Result;
use crate::ingest::cell::{Cell, Normaliser};
use crate::table::{Table, header};

/// The smallest of 1, 2 and 5 times a power of ten that is at least `x` (at least 1).
fn round_width(x: f64) -> f64 {
    let mut p = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if m * p >= x {
                return m * p;
            }
        }
        p *= 10.0;
    }
}

/// The ladder proposed for values of `shape`, or none.
fn ladder_of(shape: Shape) -> Option<Ladder> {
    match shape {
        Shape::Dates => Some(Ladder::Dates { levels: vec![DateLevel::Month, DateLevel::Quarter, DateLevel::Year] }),
        Shape::Code { length } => Some(Ladder::Prefix { lengths: (1..length).rev().collect() }),
        Shape::Whole { min, max } => {
            let w = round_width((max - min) as f64 / 20.0);
            Some(Ladder::Bands { widths: vec![w, 2.0 * w, 4.0 * w], bottom: None, top: None })
        }
        Shape::Other => None,
    }
}

/// The proposed ladder of each of `qis` (columns of `table`, read with `norm`) that has one.
pub fn propose(table: &Table, norm: &Normaliser, qis: &[String]) -> Result<BTreeMap<String, Ladder>> {
    let read = norm.clone().delimiter(&table.facts.delimiter);
    let mut out = BTreeMap::new();
    for q in qis {
        let j = header::find(&table.header, q)?;
        let column = &table.columns[j];
        let texts: Vec<String> = (0..column.values.len() as u32)
            .filter_map(|c| match norm.normalise(column.values.text(c)) {
                Cell::Text(t) => Some(t.into_owned()),
                _ => None,
            })
            .collect();
        if texts.is_empty() {
            continue;
        }
        let date = crate::table::profile::profile(column, q, j, table.facts.rows_total, &read).date_form.or_else(|| norm.date_form(q));
        let values: Vec<(u32, &str)> = texts.iter().map(|t| (0, t.as_str())).collect();
        if let Some(ladder) = ladder_of(shape(&values, date)) {
            out.insert(q.clone(), ladder);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AuditConfig;
    use crate::table::read::TableReader;

    #[test]
    fn ages_get_bands_of_5_10_20_dates_their_periods_postcodes_prefixes() {
        let csv = "age,admit,zip,ward\n17,03.01.2020,10489,A\n90,15.02.2020,10490,B\n45,01.12.2021,20111,A\n";
        let config = AuditConfig::default();
        let mut reader = TableReader::new(config.table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        let table = reader.finish().unwrap().table;
        let qis: Vec<String> = ["age", "admit", "zip", "ward"].map(String::from).to_vec();
        let p = propose(&table, &config.normaliser(), &qis).unwrap();
        assert_eq!(p["age"], Ladder::Bands { widths: vec![5.0, 10.0, 20.0], bottom: None, top: None });
        assert_eq!(p["admit"], Ladder::Dates { levels: vec![DateLevel::Month, DateLevel::Quarter, DateLevel::Year] });
        assert_eq!(p["zip"], Ladder::Prefix { lengths: vec![4, 3, 2, 1] });
        assert!(!p.contains_key("ward"));
    }

    #[test]
    fn band_widths_are_round() {
        assert_eq!([0.3, 1.0, 1.45, 3.65, 7.0, 42.0].map(round_width), [1.0, 1.0, 2.0, 5.0, 10.0, 50.0]);
    }
}
