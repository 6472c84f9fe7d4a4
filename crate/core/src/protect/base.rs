//! The level-0 class table of `O` (spec protect.md Sec 2-3): the classes of the records in
//! scope on the QIs' values (identity-risk.md Sec 1, policy `ordinary` or `drop`), each with
//! its size and, per sensitive attribute, its value counts. It is built once from the kept
//! table's codes, work per distinct value; every node's classes are merged from it, never
//! from the rows again.

use crate::attribute::SensitiveSummary;
use crate::attribute::closeness::Ordered;
use crate::attribute::distribution::{Declared, Distributions};
use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::table::Table;
use crate::table::classes::{ClassTable, MissingPolicy};
use crate::table::codes::Codes;

/// A row removed from the release: out of scope under `drop`.
pub const DROPPED: u32 = u32::MAX;
/// A row out of scope but written (all its QI cells `SUPPRESSED`, `exclude_suppressed_rows`).
pub const EXCLUDED: u32 = u32::MAX - 1;

/// One sensitive attribute over the level-0 classes.
pub struct SaBase {
    /// Column name.
    pub name: String,
    /// `Q` over all of `O` in scope, and the order of its values.
    pub dist: Distributions,
    /// The cumulative shares of `Q` for the ordered distance, when the SA is numeric.
    pub ordered: Option<Ordered>,
    /// `(level-0 class, value, records)` over `R_s`, by class then value.
    pub entries: Vec<(u32, u32, u64)>,
}

/// The level-0 classes of `O` and what the release needs of the rows.
pub struct Base {
    /// The classes (their keys are the QIs' dictionary codes).
    pub classes: ClassTable,
    /// Per QI, the code of each class's value.
    pub class_codes: Vec<Vec<u32>>,
    /// Per row, its class, or [`DROPPED`] / [`EXCLUDED`].
    pub row_class: Vec<u32>,
    /// Per QI, the dictionary code of each of its column's value codes.
    pub col_to_dict: Vec<Vec<u32>>,
    /// Per QI, the first row of each dictionary code.
    pub first_row: Vec<Vec<u32>>,
    /// Per QI, the records in scope of each dictionary code.
    pub value_records: Vec<Vec<u64>>,
    /// The sensitive attributes.
    pub sensitive: Vec<SaBase>,
    /// Records in scope `N`.
    pub n: u64,
}

/// The codes of a column, which must be kept (`not_retained` otherwise).
fn codes(table: &Table, j: usize) -> Result<&Codes> {
    table.columns[j].codes.as_ref().ok_or_else(|| {
        let why = table.not_retained.clone().unwrap_or_else(|| format!("more than {} distinct values", crate::table::RETAIN_CAP));
        Error::config("not_retained", format!("this column was not kept in memory ({why}): it cannot be protected")).in_column(&table.header[j])
    })
}

impl Base {
    /// The classes of `table` on the QI columns `qi`, with the SA columns `sa`.
    pub fn new(table: &Table, norm: &Normaliser, qi: &[usize], sa: &[usize], policy: MissingPolicy, exclude_suppressed: bool) -> Result<Base> {
        let mut classes = ClassTable::new(qi.len(), policy, exclude_suppressed, false);
        let qi_codes: Vec<&Codes> = qi.iter().map(|&j| codes(table, j)).collect::<Result<_>>()?;
        let sa_codes: Vec<&Codes> = sa.iter().map(|&j| codes(table, j)).collect::<Result<_>>()?;
        let col_to_dict: Vec<Vec<u32>> = qi
            .iter()
            .enumerate()
            .map(|(a, &j)| {
                let values = &table.columns[j].values;
                (0..values.len() as u32).map(|c| classes.code(a, norm.normalise(values.text(c)))).collect()
            })
            .collect();
        let mut summaries: Vec<SensitiveSummary> = sa.iter().map(|_| SensitiveSummary::new(policy, false)).collect();
        let col_to_sa: Vec<Vec<Option<u32>>> = sa
            .iter()
            .zip(&mut summaries)
            .map(|(&j, s)| {
                let values = &table.columns[j].values;
                (0..values.len() as u32).map(|c| s.code(norm.normalise(values.text(c)))).collect()
            })
            .collect();
        let rows = qi_codes.first().map_or(0, |c| c.len());
        let mut first_row: Vec<Vec<u32>> = col_to_dict.iter().enumerate().map(|(a, _)| vec![u32::MAX; classes.dict(a).len()]).collect();
        let mut row_class = Vec::with_capacity(rows);
        let mut key = vec![0u32; qi.len()];
        for i in 0..rows {
            for (a, c) in qi_codes.iter().enumerate() {
                key[a] = col_to_dict[a][c.get(i) as usize];
                let first = &mut first_row[a][key[a] as usize];
                if *first == u32::MAX {
                    *first = i as u32;
                }
            }
            let class = classes.absorb(&key, 0.0)?;
            row_class.push(match class {
                Some(c) => {
                    for ((s, map), c_sa) in summaries.iter_mut().zip(&col_to_sa).zip(&sa_codes) {
                        if let Some(v) = map[c_sa.get(i) as usize] {
                            s.absorb(c, v, None);
                        }
                    }
                    c
                }
                None if policy == MissingPolicy::Drop => DROPPED,
                None => EXCLUDED,
            });
        }
        let sensitive = sa
            .iter()
            .zip(summaries)
            .map(|(&j, mut s)| {
                s.seal();
                let dist = Distributions::of(&s, &classes, 1.0, Declared::default()).unwrap_or_else(|_| unreachable!("no declared order"));
                let entries = dist.classes().flat_map(|d| d.own.iter().map(move |&(v, n)| (d.class, v, n))).collect();
                let ordered = dist.numeric.then(|| Ordered::new(&dist));
                SaBase { name: table.header[j].clone(), dist, ordered, entries }
            })
            .collect();
        let class_codes: Vec<Vec<u32>> = (0..qi.len()).map(|a| (0..classes.len()).map(|i| classes.code_at(i, a)).collect()).collect();
        let value_records = class_codes
            .iter()
            .enumerate()
            .map(|(a, codes)| {
                let mut records = vec![0u64; classes.dict(a).len()];
                for (i, &c) in codes.iter().enumerate() {
                    records[c as usize] += classes.count(i);
                }
                records
            })
            .collect();
        let n = classes.records();
        Ok(Base { classes, class_codes, row_class, col_to_dict, first_row, value_records, sensitive, n })
    }

    /// The non-blank values of QI `a` in scope, by code (first appearance), with their
    /// normalised texts.
    pub fn values(&self, a: usize) -> Vec<(u32, String)> {
        let dict = self.classes.dict(a);
        let mut present = vec![false; dict.len()];
        for &c in &self.class_codes[a] {
            present[c as usize] = true;
        }
        (2..dict.len() as u32).filter(|&c| present[c as usize]).map(|c| (c, dict.text(c).to_string())).collect()
    }
}
