//! The reference table `E` (spec README Sec 2): a population or superset holding the same
//! quasi-identifiers, read as a stream like the released table. Its columns are matched to
//! the QIs by name (balance.md Sec 1.1), unless `columns_of` names another column of `E` for
//! a QI. Its classes over the QIs it shares with the audit feed the journalist and marketer
//! models (identity-risk.md Sec 6) and the external linkage risk (balance.md Sec 1). Its rows
//! are read like every table's, into codes, and summarised one distinct value at a time.

use std::collections::BTreeMap;

use super::TableBuilder;
use super::classes::{ClassTable, MissingPolicy};
use crate::error::Result;
use crate::ingest::cell::Normaliser;
use crate::ingest::reader::{Collect, Feed, InputFacts, RecordSink, Rows};

/// The finished reference table.
#[derive(Debug, Clone)]
pub struct ReferenceTable {
    /// QIs of the audit that `E` lacks.
    pub missing: Vec<String>,
    /// QIs present in `E`, in the audit's QI order.
    pub present: Vec<String>,
    /// Classes of `E` over the present QIs. Rows whose QIs are all suppressed stay (ARX);
    /// under `drop`, rows with a blank QI are removed.
    pub table: ClassTable,
    /// How `E` was read.
    pub input: InputFacts,
}

/// Builds the classes of `E` from blocks of codes.
pub struct ReferenceSink {
    qi: Vec<String>,
    columns_of: BTreeMap<String, String>,
    policy: MissingPolicy,
    norm: Normaliser,
    builder: TableBuilder,
    columns: Vec<usize>,
    present: Vec<String>,
    missing: Vec<String>,
    table: Option<ClassTable>,
    maps: Vec<Vec<u32>>,
    key: Vec<u32>,
}

impl ReferenceSink {
    /// A sink for these QIs (`columns_of`: the column of `E` holding a QI named otherwise),
    /// policy and normalisation.
    pub fn new(qi: Vec<String>, columns_of: BTreeMap<String, String>, policy: MissingPolicy, norm: Normaliser) -> Self {
        ReferenceSink {
            qi,
            columns_of,
            policy,
            builder: TableBuilder::new(norm.clone(), Vec::new(), None),
            norm,
            columns: Vec::new(),
            present: Vec::new(),
            missing: Vec::new(),
            table: None,
            maps: Vec::new(),
            key: Vec::new(),
        }
    }
}

impl RecordSink for ReferenceSink {
    fn header(&mut self, names: &[String]) -> Result<()> {
        for q in &self.qi {
            let name = self.columns_of.get(q).unwrap_or(q);
            match names.iter().position(|n| n == name) {
                Some(i) => {
                    self.columns.push(i);
                    self.present.push(q.clone());
                }
                None => self.missing.push(q.clone()),
            }
        }
        self.builder.need(self.columns.iter().map(|&i| names[i].clone()));
        self.builder.header(names);
        self.table = Some(ClassTable::new(self.columns.len(), self.policy, false, false));
        self.maps = vec![Vec::new(); self.columns.len()];
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        self.builder.absorb(rows)?;
        let block = self.builder.block();
        let table = self.table.as_mut().expect("header comes first");
        for (a, &j) in self.columns.iter().enumerate() {
            let (map, values) = (&mut self.maps[a], &block.columns[j].values);
            for code in map.len()..values.len() {
                map.push(table.code(a, self.norm.normalise(values.text(code as u32))));
            }
        }
        for i in 0..block.len() {
            self.key.clear();
            self.key.extend(self.columns.iter().enumerate().map(|(a, &j)| self.maps[a][block.codes[j][i] as usize]));
            table.absorb(&self.key, 0.0).map_err(|e| e.at_line(block.lines[i]))?;
        }
        Ok(())
    }
}

impl Collect for ReferenceSink {
    type Output = ReferenceTable;

    fn collect(mut self, facts: &InputFacts) -> Result<ReferenceTable> {
        Ok(ReferenceTable {
            missing: self.missing,
            present: self.present,
            table: self.table.take().expect("a finished file has a header"),
            input: facts.clone(),
        })
    }
}

/// A streaming read of `E`; its own delimiter and encoding are detected (or forced).
pub type Reference = Feed<ReferenceSink>;
