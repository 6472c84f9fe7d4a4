//! Per-record vectors (spec README Sec 10; identity-risk.md Sec 4): each record's class, kept
//! while the rows are read when asked for ([`RecordClasses`]), and the values a record takes
//! from its class ([`PerRecord`]): its class size and record risk `P(i) = 1/f(i)`, with
//! SUDA's scores when SUDA ran. Keyed by `record_id` when the records have one each and no two
//! share one, else by 1-based row number of the source table (docs/decisions/report/per-record-values.md).
//!
//! Record-level values: the shareable report leaves `details.per_record` out.

use std::collections::HashSet;
use std::io::{self, Write};

use serde_json::{Map, Value, json};

/// A row out of scope (all-suppressed or dropped, spec identity-risk.md Sec 1.2): no class.
const OUT: u32 = u32::MAX;

/// Per row of the source table, in file order, its class (kept while the rows are read).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecordClasses {
    classes: Vec<u32>,
    /// Per row, its record id, when a record-id column is given.
    ids: Option<Ids>,
}

/// The record ids of the rows, one after the other in one string (no allocation per row);
/// a blank id is empty (a normalised id never is).
#[derive(Debug, Clone, PartialEq, Default)]
struct Ids {
    text: String,
    /// Per row, where its id ends in `text`.
    ends: Vec<usize>,
}

impl Ids {
    fn push(&mut self, id: Option<&str>) {
        self.text.push_str(id.unwrap_or_default());
        self.ends.push(self.text.len());
    }

    /// The id of row `r`, `None` when blank.
    fn get(&self, r: usize) -> Option<&str> {
        let start = if r == 0 { 0 } else { self.ends[r - 1] };
        Some(&self.text[start..self.ends[r]]).filter(|id| !id.is_empty())
    }

    fn append(&mut self, other: Ids) {
        let base = self.text.len();
        self.text.push_str(&other.text);
        self.ends.extend(other.ends.iter().map(|e| base + e));
    }
}

impl RecordClasses {
    /// Empty; `with_ids` when the records carry a record id.
    pub fn new(with_ids: bool) -> Self {
        RecordClasses { classes: Vec::new(), ids: with_ids.then(Ids::default) }
    }

    /// The next row: its class (`None` out of scope) and, with ids, its record id.
    pub fn push(&mut self, class: Option<u32>, id: Option<&str>) {
        self.classes.push(class.unwrap_or(OUT));
        if let Some(ids) = &mut self.ids {
            ids.push(id);
        }
    }

    /// Appends the rows of the next part of the same file; `remap[c]` is where the other
    /// part's class `c` went in the merged class table.
    pub fn append(&mut self, other: RecordClasses, remap: &[u32]) {
        self.classes.extend(other.classes.iter().map(|&c| if c == OUT { OUT } else { remap[c as usize] }));
        if let (Some(mine), Some(theirs)) = (&mut self.ids, other.ids) {
            mine.append(theirs);
        }
    }

    /// Rows kept.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// Whether no row was kept.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Whether the ids can key the rows: every row has one and no two rows share one.
    fn ids_unique(&self) -> bool {
        let Some(ids) = &self.ids else { return false };
        let mut seen = HashSet::with_capacity(self.len());
        (0..self.len()).all(|r| ids.get(r).is_some_and(|id| seen.insert(id)))
    }
}

/// The per-record values of an audit: per row its key, class size, `f` and record risk, and
/// the per-class columns of other metrics (SUDA's scores).
#[derive(Debug, Clone, PartialEq)]
pub struct PerRecord {
    rows: RecordClasses,
    /// Whether rows are keyed by their record id (else by 1-based row number).
    by_id: bool,
    /// Per class: its records.
    size: Vec<u64>,
    /// Per class: `f` (spec identity-risk.md Sec 1.3: the class size, or under `wildcard` the
    /// compatible records).
    f: Vec<f64>,
    /// Other per-class columns: name, value per class.
    extra: Vec<(&'static str, Vec<f64>)>,
}

impl PerRecord {
    /// The per-record values of `rows` over classes of sizes `size` and `f`.
    pub fn new(rows: RecordClasses, size: Vec<u64>, f: Vec<f64>) -> Self {
        let by_id = rows.ids_unique();
        PerRecord { rows, by_id, size, f, extra: Vec::new() }
    }

    /// Adds a per-class column (`value[c]` for each class `c`).
    pub fn add_column(&mut self, name: &'static str, value: Vec<f64>) {
        debug_assert_eq!(value.len(), self.size.len());
        self.extra.push((name, value));
    }

    /// Rows of the source table (in scope or not).
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table had no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether the keys are record ids (else 1-based row numbers).
    pub fn keyed_by_id(&self) -> bool {
        self.by_id
    }

    /// The key of row `r` (0-based).
    pub fn key(&self, r: usize) -> String {
        match (&self.rows.ids, self.by_id) {
            (Some(ids), true) => ids.get(r).unwrap_or_default().to_string(),
            _ => (r + 1).to_string(),
        }
    }

    /// The class of row `r`, `None` when it is out of scope.
    pub fn class(&self, r: usize) -> Option<usize> {
        let c = self.rows.classes[r];
        (c != OUT).then_some(c as usize)
    }

    /// `P(i) = 1/f(i)` of row `r` (spec identity-risk.md Sec 4), `None` out of scope.
    pub fn risk(&self, r: usize) -> Option<f64> {
        self.class(r).map(|c| 1.0 / self.f[c])
    }

    /// `record_risk.details.per_record`: key -> `P(i)`, for the records in scope.
    pub fn risk_json(&self) -> Value {
        self.column_json(|c| 1.0 / self.f[c], |_| true)
    }

    /// The per-class column `name` as key -> value for the records in scope, where `keep`
    /// holds (SUDA lists the records with a score only).
    pub fn extra_json(&self, name: &str, keep: impl Fn(f64) -> bool) -> Value {
        let Some((_, v)) = self.extra.iter().find(|(n, _)| *n == name) else { return Value::Null };
        self.column_json(|c| v[c], keep)
    }

    /// key -> `value(class)` for the records in scope whose value `keep` holds.
    fn column_json(&self, value: impl Fn(usize) -> f64, keep: impl Fn(f64) -> bool) -> Value {
        let mut map = Map::new();
        for r in 0..self.len() {
            if let Some(x) = self.class(r).map(&value).filter(|&x| keep(x)) {
                map.insert(self.key(r), json!(x));
            }
        }
        Value::Object(map)
    }

    /// The CSV header: the key (`record_id` or `row`), `class_size`, `f`, `record_risk`, then
    /// the other columns.
    pub fn header(&self) -> Vec<&str> {
        let key = if self.by_id { "record_id" } else { "row" };
        let mut h = vec![key, "class_size", "f", "record_risk"];
        h.extend(self.extra.iter().map(|(n, _)| *n));
        h
    }

    /// Writes the CSV (RFC 4180, `\n` line ends), a row at a time: one line per row of the
    /// source table; a row out of scope has empty values.
    pub fn write_csv<W: Write>(&self, mut out: W) -> io::Result<()> {
        writeln!(out, "{}", self.header().join(","))?;
        for r in 0..self.len() {
            match (&self.rows.ids, self.by_id) {
                (Some(ids), true) => write_field(&mut out, ids.get(r).unwrap_or_default())?,
                _ => write!(out, "{}", r + 1)?,
            }
            match self.class(r) {
                Some(c) => {
                    write!(out, ",{},{},{}", self.size[c], self.f[c], 1.0 / self.f[c])?;
                    for (_, v) in &self.extra {
                        write!(out, ",{}", v[c])?;
                    }
                }
                None => write!(out, "{}", ",".repeat(3 + self.extra.len()))?,
            }
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// A CSV field, quoted when it holds a delimiter, a quote or a line end.
fn write_field<W: Write>(out: &mut W, s: &str) -> io::Result<()> {
    if s.contains([',', '"', '\n', '\r']) { write!(out, "\"{}\"", s.replace('"', "\"\"")) } else { out.write_all(s.as_bytes()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(classes: &[Option<u32>], ids: Option<&[&str]>) -> RecordClasses {
        let mut r = RecordClasses::new(ids.is_some());
        for (i, &c) in classes.iter().enumerate() {
            r.push(c, ids.map(|ids| ids[i]).filter(|id| !id.is_empty()));
        }
        r
    }

    #[test]
    fn keys_values_and_csv_by_hand() {
        // Classes {a: rows 1, 3}, {b: row 2}; row 4 out of scope. P = 1/2, 1, 1/2.
        let p = PerRecord::new(rows(&[Some(0), Some(1), Some(0), None], None), vec![2, 1], vec![2.0, 1.0]);
        assert_eq!(p.risk_json(), json!({ "1": 0.5, "2": 1.0, "3": 0.5 }));
        let mut csv = Vec::new();
        p.write_csv(&mut csv).unwrap();
        assert_eq!(String::from_utf8(csv).unwrap(), "row,class_size,f,record_risk\n1,2,2,0.5\n2,1,1,1\n3,2,2,0.5\n4,,,\n");
        // Unique ids key the rows (quoted where needed); a repeated or blank id gives row numbers.
        let mut p = PerRecord::new(rows(&[Some(0), Some(0)], Some(&["x,1", "y"])), vec![2], vec![2.0]);
        p.add_column("suda_score", vec![0.0]);
        assert!(p.keyed_by_id());
        assert_eq!(p.risk_json(), json!({ "x,1": 0.5, "y": 0.5 }));
        let mut csv = Vec::new();
        p.write_csv(&mut csv).unwrap();
        assert_eq!(String::from_utf8(csv).unwrap(), "record_id,class_size,f,record_risk,suda_score\n\"x,1\",2,2,0.5,0\ny,2,2,0.5,0\n");
        assert_eq!(p.extra_json("suda_score", |s| s > 0.0), json!({}));
        for ids in [["y", "y"], ["y", ""]] {
            let p = PerRecord::new(rows(&[Some(0), Some(0)], Some(&ids)), vec![2], vec![2.0]);
            assert_eq!((p.keyed_by_id(), p.risk_json()), (false, json!({ "1": 0.5, "2": 0.5 })));
        }
    }

    #[test]
    fn parts_append_through_the_remap() {
        // Part two's classes 0 and 1 became classes 1 and 0 of the merged table.
        let mut a = rows(&[Some(0), None], Some(&["a", "b"]));
        a.append(rows(&[Some(1), Some(0)], Some(&["c", "d"])), &[1, 0]);
        assert_eq!(a, rows(&[Some(0), None, Some(0), Some(1)], Some(&["a", "b", "c", "d"])));
    }
}
