//! Record drill-down: a second pass over the released file that copies out the rows of chosen
//! classes (the riskiest ones of the report), so a person can look at the records at risk.
//! The rows are kept as read (not normalised), with the line they came from.

use serde::Serialize;

use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::hash::{Map, map};
use crate::ingest::cell::{Cell, Normaliser};
use crate::ingest::reader::{Collect, Feed, InputFacts, RecordSink, Row, Rows};
use crate::table::{Table, header};

/// At most this many rows are copied out.
pub const MAX_ROWS: usize = 10_000;

/// A class as the report names it: one value per QI, `None` for MISSING, `"*"` for
/// SUPPRESSED (`record_risk.details.top[].values`).
pub type ClassValues = Vec<Option<String>>;

/// The rows copied out, as CSV text with a leading `line` column.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Extracted {
    /// CSV text (comma-separated, RFC 4180 quoting), header first.
    pub csv: String,
    /// Data rows in `csv`.
    pub rows: usize,
    /// Whether rows were left out past [`MAX_ROWS`].
    pub truncated: bool,
}

/// Copies out the matching rows.
pub struct Sink {
    qi: Vec<String>,
    norm: Normaliser,
    targets: Map<ClassValues, ()>,
    columns: Vec<usize>,
    width: usize,
    out: Extracted,
}

/// Appends one CSV field, quoted when it must be.
fn field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

fn display(cell: Cell<'_>) -> Option<String> {
    match cell {
        Cell::Missing => None,
        Cell::Suppressed => Some("*".into()),
        Cell::Text(t) => Some(t.to_string()),
    }
}

impl RecordSink for Sink {
    fn header(&mut self, names: &[String]) -> Result<()> {
        for q in &self.qi {
            self.columns.push(header::find(names, q)?);
        }
        self.width = names.len();
        self.out.csv.push_str("line");
        for n in names {
            self.out.csv.push(',');
            field(&mut self.out.csv, n);
        }
        self.out.csv.push('\n');
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        for r in 0..rows.len() {
            self.row(&rows.row(r))?;
        }
        Ok(())
    }
}

impl Sink {
    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let mut key = Vec::with_capacity(self.columns.len());
        for &i in &self.columns {
            key.push(display(self.norm.normalise(&row.text(i)?)));
        }
        if !self.targets.contains_key(&key) {
            return Ok(());
        }
        if self.out.rows == MAX_ROWS {
            self.out.truncated = true;
            return Ok(());
        }
        self.out.rows += 1;
        self.out.csv.push_str(&row.line.to_string());
        for i in 0..self.width {
            self.out.csv.push(',');
            field(&mut self.out.csv, &row.text(i)?);
        }
        self.out.csv.push('\n');
        Ok(())
    }
}

impl Collect for Sink {
    type Output = Extracted;

    fn collect(self, _: &InputFacts) -> Result<Extracted> {
        Ok(self.out)
    }
}

/// The streaming drill-down of one file.
pub type Extract = Feed<Sink>;

impl Extract {
    /// Copies out the rows whose QI values (as `config` reads them) are one of `classes`.
    pub fn new(config: &AuditConfig, classes: Vec<ClassValues>) -> Result<Self> {
        let opts = config.csv_options()?;
        let mut targets = map();
        for c in classes {
            if c.len() != config.quasi_identifiers.len() {
                return Err(Error::config("invalid_class", "each class must give one value per quasi-identifier"));
            }
            targets.insert(c, ());
        }
        let sink = Sink {
            qi: config.quasi_identifiers.clone(),
            norm: config.normaliser(),
            targets,
            columns: Vec::new(),
            width: 0,
            out: Extracted { csv: String::new(), rows: 0, truncated: false },
        };
        Ok(Feed::with_sink(opts, sink))
    }
}

/// The drill-down from a table kept in memory ([`crate::table::Table::is_retained`]): the same
/// rows as [`Extract`], without reading the file again; values as kept (trimmed of white
/// space). `not_retained` when a column was not kept (the caller reads the file again).
pub fn extract_table(table: &Table, config: &AuditConfig, classes: Vec<ClassValues>) -> Result<Extracted> {
    let norm = config.normaliser();
    let mut columns = Vec::with_capacity(config.quasi_identifiers.len());
    for q in &config.quasi_identifiers {
        columns.push(header::find(&table.header, q)?);
    }
    if let Some(c) = table.columns.iter().position(|c| !c.is_retained()) {
        return Err(Error::config("not_retained", "this column was not kept in memory; read the file again for the drill-down").in_column(&table.header[c]));
    }
    // Per QI, each code's value as the report shows it, interned: rows match by these ids.
    let mut shown: Vec<Map<Option<String>, u32>> = vec![map(); columns.len()];
    let ids: Vec<Vec<u32>> = columns
        .iter()
        .zip(&mut shown)
        .map(|(&j, interned)| {
            let values = &table.columns[j].values;
            (0..values.len() as u32)
                .map(|c| {
                    let v = display(norm.normalise(values.text(c)));
                    let next = interned.len() as u32;
                    *interned.entry(v).or_insert(next)
                })
                .collect()
        })
        .collect();
    let mut targets: Map<Vec<u32>, ()> = map();
    for c in classes {
        if c.len() != columns.len() {
            return Err(Error::config("invalid_class", "each class must give one value per quasi-identifier"));
        }
        // A value no row holds matches no row.
        if let Some(key) = c.into_iter().zip(&shown).map(|(v, interned)| interned.get(&v).copied()).collect::<Option<Vec<u32>>>() {
            targets.insert(key, ());
        }
    }
    let mut out = Extracted { csv: String::new(), rows: 0, truncated: false };
    out.csv.push_str("line");
    for n in &table.header {
        out.csv.push(',');
        field(&mut out.csv, n);
    }
    out.csv.push('\n');
    let codes = |j: usize, r: usize| table.columns[j].codes.as_ref().expect("checked above").get(r);
    let mut key = Vec::with_capacity(columns.len());
    for r in 0..table.facts.rows_total as usize {
        key.clear();
        key.extend(columns.iter().zip(&ids).map(|(&j, ids)| ids[codes(j, r) as usize]));
        if !targets.contains_key(&key) {
            continue;
        }
        if out.rows == MAX_ROWS {
            out.truncated = true;
            break;
        }
        out.rows += 1;
        out.csv.push_str(&table.lines.line(r as u64).to_string());
        for (j, c) in table.columns.iter().enumerate() {
            out.csv.push(',');
            field(&mut out.csv, c.values.text(codes(j, r)));
        }
        out.csv.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_out_the_rows_of_the_chosen_classes() {
        let config = AuditConfig { quasi_identifiers: vec!["age".into(), "sex".into()], ..AuditConfig::default() };
        let classes = vec![vec![Some("30-39".into()), None], vec![Some("*".into()), Some("M".into())]];
        let mut x = Extract::new(&config, classes).unwrap();
        let csv = "age,sex,note\n30-39,F,a\n30-39,,\"b, \"\"c\"\"\"\n***,M,d\n30-39,NA,e\n";
        for piece in csv.as_bytes().chunks(4) {
            x.push(piece).unwrap();
        }
        let out = x.finish().unwrap();
        assert_eq!(out.csv, "line,age,sex,note\n3,30-39,,\"b, \"\"c\"\"\"\n4,***,M,d\n5,30-39,NA,e\n");
        assert_eq!((out.rows, out.truncated), (3, false));
        // From the table kept in memory: the same rows.
        let mut reader = crate::TableReader::new(config.table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        let table = reader.finish().unwrap().table;
        let classes = vec![vec![Some("30-39".into()), None], vec![Some("*".into()), Some("M".into())]];
        assert_eq!(extract_table(&table, &config, classes).unwrap(), out);
    }
}
