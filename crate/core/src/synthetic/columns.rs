//! The columns the synthetic measures compare (spec synthetic.md Sec 1.2-1.3): each column the
//! original `O` and the release `P` both hold, in one space of value ids where a value is read
//! in the column's kind (numbers compare as numbers, `35` equals `35.0`) and missing is one
//! value. Built once per distinct value of each table's dictionary, never per row.

use std::cmp::Ordering;

use crate::hash::{Map, map};
use crate::ingest::cell::Normaliser;
use crate::table::dictionary::{MISSING, SUPPRESSED};
use crate::table::kind::Kind;
use crate::utility::attribute::{Attribute, AttributeSettings, Typed};
use crate::utility::capture::Column;

/// One column of `O` and `P` in a joint space of value ids (`MISSING` and `SUPPRESSED` keep
/// their codes, 0 and 1).
#[derive(Debug, Clone)]
pub struct SynColumn {
    /// The column's name.
    pub name: String,
    /// Per row of `O`, its value id.
    pub o: Vec<u32>,
    /// Per row of `P`, its value id.
    pub p: Vec<u32>,
    /// Per row of the holdout `H`, its value id (empty without a holdout).
    pub h: Vec<u32>,
    /// Numeric or date (README Sec 4.1): its exact values are numbers.
    pub numeric: bool,
    /// The kind, declared or inferred on `O` (README Sec 4.1).
    pub kind: Kind,
    /// The declared order of an ordinal column, lowest first.
    pub order: Option<Vec<String>>,
    /// Per value id, the number of an exact numeric or date value (dates: the day number).
    pub numbers: Vec<Option<f64>>,
    /// Per value id, its text as reports show it (`None` for missing, `*` for suppressed).
    pub labels: Vec<Option<String>>,
}

impl SynColumn {
    /// Joins `O`'s column `name` with `P`'s and the holdout's, read in the kind the settings
    /// declare or the one inferred from `O` (README Sec 4.1).
    pub fn new(name: &str, o: &Column, p: &Column, h: Option<&Column>, settings: AttributeSettings, norm: &Normaliser) -> Self {
        let order = settings.order.clone();
        let mut attr = Attribute::new(name, o, Some(p), settings, norm);
        let h_codes = h.map(|h| attr.join(h, norm)).unwrap_or_default();
        let numeric = attr.is_numeric();
        let mut numbers = vec![None, None];
        let mut labels = vec![None, Some("*".to_string())];
        let mut by_number: Map<u64, u32> = map();
        let mut to_id = vec![MISSING, SUPPRESSED];
        for code in 2..attr.values.len() as u32 {
            // -0 and 0 are one number.
            let number = match attr.typed[code as usize] {
                Typed::Exact(x) if numeric => Some(x + 0.0),
                _ => None,
            };
            let known = number.and_then(|x| by_number.get(&x.to_bits()).copied());
            let id = known.unwrap_or_else(|| {
                let id = numbers.len() as u32;
                numbers.push(number);
                labels.push(attr.values.display(code).map(str::to_string));
                if let Some(x) = number {
                    by_number.insert(x.to_bits(), id);
                }
                id
            });
            to_id.push(id);
        }
        let ids = |codes: &[u32]| codes.iter().map(|&c| to_id[c as usize]).collect();
        SynColumn {
            name: name.to_string(),
            o: ids(&attr.o),
            p: ids(attr.p.as_deref().expect("P's column is joined")),
            h: ids(&h_codes),
            numeric,
            kind: attr.kind,
            order,
            numbers,
            labels,
        }
    }

    /// A column of these value ids, categorical with no labels (for tests).
    #[cfg(test)]
    pub(crate) fn of_ids(o: &[u32], p: &[u32]) -> Self {
        let len = *o.iter().chain(p).max().unwrap_or(&1) as usize + 1;
        SynColumn {
            name: String::new(),
            o: o.to_vec(),
            p: p.to_vec(),
            h: Vec::new(),
            numeric: false,
            kind: Kind::Categorical,
            order: None,
            numbers: vec![None; len],
            labels: vec![None; len],
        }
    }

    /// Number of value ids.
    pub fn n_values(&self) -> usize {
        self.numbers.len()
    }

    /// The order of values in reports: missing, suppressed, then numbers ascending, then
    /// other values by their text.
    pub fn order(&self, a: u32, b: u32) -> Ordering {
        let key = |v: u32| (v.min(2), self.numbers[v as usize].is_none());
        key(a).cmp(&key(b)).then_with(|| match (self.numbers[a as usize], self.numbers[b as usize]) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            _ => self.labels[a as usize].cmp(&self.labels[b as usize]),
        })
    }
}

/// `O`'s rows ordered by their values over `keys` (the first key first, each as
/// [`SynColumn::order`]), rows of equal values in file order: an order that does not depend on
/// the file's, for seeded samples.
pub fn rows_by_value(keys: &[&SynColumn], n_o: usize) -> Vec<u32> {
    let ranks: Vec<Vec<u32>> = keys
        .iter()
        .map(|c| {
            let mut ids: Vec<u32> = (0..c.n_values() as u32).collect();
            ids.sort_by(|&a, &b| c.order(a, b));
            let mut rank = vec![0u32; ids.len()];
            ids.iter().enumerate().for_each(|(r, &v)| rank[v as usize] = r as u32);
            rank
        })
        .collect();
    let keyed: Vec<(&[u32], Option<&[u32]>)> = keys.iter().zip(&ranks).map(|(c, r)| (c.o.as_slice(), Some(r.as_slice()))).collect();
    super::tuples::rows_by_ranks(&keyed, n_o)
}

/// The columns `O` and `P` both hold, in `O`'s order.
pub fn common(original: &crate::utility::capture::Captured, released: &crate::utility::capture::Captured) -> Vec<String> {
    original.names.iter().filter(|n| released.column(n).is_some()).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_as_numbers_and_missing_is_one_value() {
        let o = Column::of(&["35", "35.0", "", "x"]);
        let p = Column::of(&["35.00", "", "36"]);
        let c = SynColumn::new("age", &o, &p, None, AttributeSettings::default(), &Normaliser::default());
        // "x" makes the inferred kind categorical unless declared numeric: texts differ.
        assert!(!c.numeric);
        assert_eq!(c.o[2], MISSING);
        assert_eq!(c.p[1], MISSING);
        let numeric = AttributeSettings { kind: Some(crate::table::kind::Kind::Numeric), ..AttributeSettings::default() };
        let o = Column::of(&["35", "35.0", "", "-0"]);
        let p = Column::of(&["35.00", "", "36", "0"]);
        let c = SynColumn::new("age", &o, &p, None, numeric, &Normaliser::default());
        assert!(c.numeric);
        assert_eq!(c.o[0], c.o[1]);
        assert_eq!(c.o[0], c.p[0]);
        assert_eq!(c.o[3], c.p[3]);
        assert_ne!(c.p[2], c.p[0]);
        assert_eq!(c.numbers[c.p[2] as usize], Some(36.0));
        assert_eq!(c.labels[c.o[0] as usize].as_deref(), Some("35"));
    }

    #[test]
    fn rows_by_value_sorts_by_each_key_then_keeps_file_order() {
        let numeric = AttributeSettings { kind: Some(crate::table::kind::Kind::Numeric), ..AttributeSettings::default() };
        let a = SynColumn::new("a", &Column::of(&["10", "9", "10", "9", ""]), &Column::of(&[]), None, numeric, &Normaliser::default());
        let b = SynColumn::new("b", &Column::of(&["x", "y", "w", "y", "z"]), &Column::of(&[]), None, AttributeSettings::default(), &Normaliser::default());
        // By a (blank, 9, 9, 10, 10), then b: row 4 (blank), rows 1 and 3 (9, y) in file
        // order, row 2 (10, w), row 0 (10, x).
        assert_eq!(rows_by_value(&[&a, &b], 5), [4, 1, 3, 2, 0]);
        assert_eq!(rows_by_value(&[], 3), [0, 1, 2]);
    }

    #[test]
    fn values_are_ordered_blank_then_numbers_then_text() {
        let numeric = AttributeSettings { kind: Some(crate::table::kind::Kind::Numeric), ..AttributeSettings::default() };
        let o = Column::of(&["10", "9", "", "10-20"]);
        let c = SynColumn::new("age", &o, &Column::of(&[]), None, numeric, &Normaliser::default());
        let mut ids: Vec<u32> = (0..c.n_values() as u32).collect();
        ids.sort_by(|&a, &b| c.order(a, b));
        let shown: Vec<_> = ids.iter().map(|&i| c.labels[i as usize].as_deref()).collect();
        assert_eq!(shown, [None, Some("*"), Some("9"), Some("10"), Some("10-20")]);
    }
}
