//! How a [`TableSummary`] absorbs a block of codes: each row's class key, weight and person,
//! then what its class holds (first rows, records, persons, sensitive values).

use super::maps::{UNSET, first_id, first_row};
use super::summary::TableSummary;
use crate::error::{Error, Result};
use crate::ingest::cell::{Cell, Normaliser, parse_num};
use crate::table::Block;

impl TableSummary {
    /// Absorbs a block of rows.
    pub fn absorb(&mut self, block: &Block<'_>) -> Result<()> {
        self.absorb_found(block, None)
    }

    /// [`TableSummary::absorb`]; with `found`, the block's rows' classes found already
    /// ([`TableSummary::classes_by_sorting`]; `u32::MAX` for a row out of scope), else each
    /// row's class is looked up.
    pub(super) fn absorb_found(&mut self, block: &Block<'_>, found: Option<&[u32]>) -> Result<()> {
        if let Some(c) = &mut self.released {
            c.absorb_block(block, &self.norm);
        }
        if self.qi_index.is_empty() {
            return Ok(());
        }
        let failed = match found {
            Some(found) => {
                self.rows.classes.clear();
                self.rows.classes.extend(found.iter().map(|&c| (c != u32::MAX).then_some(c)));
                None
            }
            None => {
                let mut failed = self.keys_of(block);
                let rows = &mut self.rows;
                rows.classes.clear();
                if let Err((i, e)) = self.classes.absorb_rows(&rows.keys, &rows.weights, &mut rows.classes) {
                    failed = Some(e.at_line(block.lines[i]));
                }
                failed
            }
        };
        self.absorb_classes(block, failed)
    }

    /// The keys of a block's rows (their QI codes, one row after the other), their weights
    /// and persons, up to a row in error (returned, with its line).
    fn keys_of(&mut self, block: &Block<'_>) -> Option<Error> {
        let norm = &self.norm;
        let values = |i: usize| &block.columns[i].values;
        if let Some(w) = self.weight_index {
            let v = values(w);
            for code in self.weights.len()..v.len() {
                self.weights.push(parse_weight(norm.normalise(v.text(code as u32))).unwrap_or(f64::NAN));
            }
        }
        let rows = &mut self.rows;
        rows.keys.clear();
        rows.weights.clear();
        rows.persons.clear();
        let mut failed = None;
        for i in 0..block.len() {
            for (a, &col) in self.qi_index.iter().enumerate() {
                let code = block.codes[col][i];
                let classes = &mut self.classes;
                rows.keys.push(self.qi_maps[a].get(code, || classes.code(a, norm.normalise(values(col).text(code)))));
            }
            if let Some(w) = self.weight_index {
                let x = self.weights[block.codes[w][i] as usize];
                if x.is_nan() {
                    let text = values(w).text(block.codes[w][i]);
                    failed = Some(
                        Error::input("invalid_weight", format!("a sampling weight must be a finite number >= 0, not \"{text}\""))
                            .at_line(block.lines[i])
                            .in_column(&self.columns[w]),
                    );
                }
                rows.weights.push(x);
            }
            if let (Some(p), Some(persons)) = (self.person_index, &mut self.persons) {
                let code = block.codes[p][i];
                let cell = norm.normalise(values(p).text(code));
                if cell.is_blank() && failed.is_none() {
                    failed = Some(Error::input("person_id_missing", "the person id is empty").at_line(block.lines[i]).in_column(&self.columns[p]));
                }
                rows.persons.push(self.person_map.get(code, || persons.code(cell)));
            }
            if failed.is_some() {
                rows.keys.truncate(i * self.qi_index.len());
                break;
            }
        }
        failed
    }

    /// What the classes of a block's rows (`self.rows.classes`) hold: first rows, records,
    /// persons, sensitive values; then the summaries of the extended QIs. `failed`: the
    /// block's row in error, returned after the rows before it are absorbed.
    fn absorb_classes(&mut self, block: &Block<'_>, failed: Option<Error>) -> Result<()> {
        let norm = &self.norm;
        let values = |i: usize| &block.columns[i].values;
        let rows = &self.rows;
        let q = self.qi_index.len();
        let id = |i: usize| self.record_index.and_then(|col| record_id(norm, values(col), block.codes[col][i]));
        if let Some(first) = &mut self.first_rows {
            for (i, class) in rows.classes.iter().enumerate() {
                if let Some(class) = *class {
                    let row = self.rows_seen + i as u64;
                    if first_row(first, class, row)
                        && let Some(ids) = &mut self.first_ids
                    {
                        first_id(ids, class, id(i).as_deref());
                    }
                }
            }
        }
        if let Some(records) = &mut self.records {
            for (i, &class) in rows.classes.iter().enumerate() {
                records.push(class, id(i).as_deref());
            }
        }
        self.rows_seen += block.len() as u64;
        // Each in-scope record's household, with its class (a blank id counts in no household).
        if let (Some(col), Some(households)) = (self.household_index, &mut self.households) {
            let map = &mut self.household_map;
            for (i, class) in rows.classes.iter().enumerate() {
                if let Some(class) = *class {
                    let code = block.codes[col][i];
                    let household = map.get(code, || households.code(norm.normalise(values(col).text(code))));
                    households.absorb(class, household);
                }
            }
        }
        // The combined pseudo-SA's tuple of a row, one buffer for the block.
        let mut tuple = Vec::new();
        for (i, class) in rows.classes.iter().enumerate() {
            let Some(class) = *class else { continue };
            let person = rows.persons.get(i).copied();
            if let (Some(person), Some(persons)) = (person, &mut self.persons) {
                persons.absorb(class, &rows.keys[i * q..(i + 1) * q], person);
            }
            tuple.clear();
            for (s, &col) in self.sensitive_index.iter().enumerate() {
                let code = block.codes[col][i];
                let summary = &mut self.sensitive[s];
                let v = self.sa_maps[s].get(code, || summary.code(norm.normalise(values(col).text(code))).unwrap_or(UNSET - 1));
                if v != UNSET - 1 {
                    summary.absorb(class, v, person);
                }
                if self.combined.is_some() {
                    tuple.push(v);
                }
            }
            // The pseudo-SA leaves out a row that any SA leaves out (a blank under `drop`).
            if let Some((summary, codes)) = &mut self.combined
                && !tuple.contains(&(UNSET - 1))
            {
                let sensitive = &self.sensitive;
                let v = *codes.entry_ref(tuple.as_slice()).or_insert_with_key(|t| {
                    let shown: Vec<Option<&str>> = t.iter().zip(sensitive).map(|(&v, s)| s.values.display(v)).collect();
                    summary.values.code(Cell::text(&serde_json::to_string(&shown).expect("strings serialize")))
                });
                summary.absorb(class, v, person);
            }
        }
        if failed.is_none() {
            for sub in &mut self.extended {
                sub.absorb(block)?;
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

/// The record id of a cell (normalised; `None` when blank or missing).
fn record_id<'a>(norm: &Normaliser, values: &'a crate::table::values::Values, code: u32) -> Option<std::borrow::Cow<'a, str>> {
    match norm.normalise(values.text(code)) {
        Cell::Text(t) => Some(t),
        _ => None,
    }
}

/// A sampling weight: a finite number >= 0 (spec identity-risk.md Sec 8).
fn parse_weight(cell: Cell<'_>) -> Option<f64> {
    match cell {
        Cell::Text(t) => parse_num(&t).filter(|w| *w >= 0.0),
        _ => None,
    }
}
