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
    /// The research subset flagged in a column of `E` (delta-presence's form (b)), when one
    /// was named.
    pub subset: Option<Subset>,
}

/// The research subset of delta-presence's form (b) (spec peer-measures.md Sec 4): the rows
/// of `E` a column flags as members.
#[derive(Debug, Clone, PartialEq)]
pub struct Subset {
    /// The flag column of `E` (`research_subset_column`).
    pub column: String,
    /// What it holds.
    pub flags: SubsetFlags,
}

/// The flags of the research subset's column.
#[derive(Debug, Clone, PartialEq)]
pub enum SubsetFlags {
    /// Per class of `E`, its member rows.
    Members(Vec<u64>),
    /// `E` has no column of this name.
    MissingColumn,
    /// A cell of the column is not a flag: its line and (trimmed) text, the first one met.
    InvalidFlag { line: u64, value: String },
}

/// A research-subset flag (Sec 4, form (b)): trimmed, case-insensitive `1`, `true`, `yes`
/// (member) or `0`, `false`, `no` (not a member); anything else is not a flag.
pub fn subset_flag(text: &str) -> Option<bool> {
    let t = text.trim();
    let is = |words: [&str; 3]| words.iter().any(|w| t.eq_ignore_ascii_case(w));
    if is(["1", "true", "yes"]) {
        Some(true)
    } else if is(["0", "false", "no"]) {
        Some(false)
    } else {
        None
    }
}

/// The reading of the flag column: where it is, each distinct value's flag, the counts.
#[derive(Debug)]
struct SubsetReader {
    name: String,
    column: Option<usize>,
    flags: Vec<Option<bool>>,
    members: Vec<u64>,
    invalid: Option<(u64, String)>,
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
    subset: Option<SubsetReader>,
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
            subset: None,
        }
    }

    /// Reads the research subset from the column `name` of `E` (delta-presence's form (b)).
    pub fn with_subset_column(mut self, name: Option<String>) -> Self {
        self.subset = name.map(|name| SubsetReader { name, column: None, flags: Vec::new(), members: Vec::new(), invalid: None });
        self
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
        if let Some(s) = &mut self.subset {
            s.column = names.iter().position(|n| *n == s.name);
            self.builder.need(s.column.map(|i| names[i].clone()));
        }
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
        let subset = self.subset.as_mut().and_then(|s| s.column.map(|j| (s, j)));
        let mut subset = subset.map(|(s, j)| {
            let values = &block.columns[j].values;
            for code in s.flags.len()..values.len() {
                s.flags.push(subset_flag(values.text(code as u32)));
            }
            (s, j)
        });
        for i in 0..block.len() {
            self.key.clear();
            self.key.extend(self.columns.iter().enumerate().map(|(a, &j)| self.maps[a][block.codes[j][i] as usize]));
            let class = table.absorb(&self.key, 0.0).map_err(|e| e.at_line(block.lines[i]))?;
            if let Some((s, j)) = &mut subset {
                let code = block.codes[*j][i];
                match s.flags[code as usize] {
                    Some(member) => {
                        if let Some(c) = class {
                            let c = c as usize;
                            if s.members.len() <= c {
                                s.members.resize(c + 1, 0);
                            }
                            s.members[c] += u64::from(member);
                        }
                    }
                    None if s.invalid.is_none() => {
                        s.invalid = Some((block.lines[i], block.columns[*j].values.text(code).trim().to_string()));
                    }
                    None => {}
                }
            }
        }
        Ok(())
    }
}

impl Collect for ReferenceSink {
    type Output = ReferenceTable;

    fn collect(mut self, facts: &InputFacts) -> Result<ReferenceTable> {
        let table = self.table.take().expect("a finished file has a header");
        let subset = self.subset.map(|s| {
            let flags = match (s.column, s.invalid) {
                (None, _) => SubsetFlags::MissingColumn,
                (Some(_), Some((line, value))) => SubsetFlags::InvalidFlag { line, value },
                (Some(_), None) => {
                    let mut members = s.members;
                    members.resize(table.len(), 0);
                    SubsetFlags::Members(members)
                }
            };
            Subset { column: s.name, flags }
        });
        Ok(ReferenceTable { missing: self.missing, present: self.present, table, input: facts.clone(), subset })
    }
}

/// A streaming read of `E`; its own delimiter and encoding are detected (or forced).
pub type Reference = Feed<ReferenceSink>;
