//! The reference table `E` (spec README Sec 2): a population or superset holding the same
//! quasi-identifiers, read as a stream like the released table. Its columns are matched to
//! the QIs by name (balance.md Sec 1.1), unless `reference_columns` names another column of
//! `E` for a QI. Its classes over the QIs it shares with the audit feed the journalist and
//! marketer models (identity-risk.md Sec 6) and the external linkage risk (balance.md Sec 1).

use crate::audit::AuditConfig;
use crate::error::Result;
use crate::identity::{ClassTable, MissingPolicy};
use crate::ingest::cell::Normaliser;
use crate::ingest::reader::{Collect, CsvOptions, Feed, InputFacts, RecordSink, Rows};

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

/// Builds the classes of `E` row by row.
pub struct Sink {
    qi: Vec<String>,
    columns_of: std::collections::BTreeMap<String, String>,
    policy: MissingPolicy,
    norm: Normaliser,
    columns: Vec<usize>,
    present: Vec<String>,
    missing: Vec<String>,
    table: Option<ClassTable>,
    key: Vec<u32>,
}

impl RecordSink for Sink {
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
        self.table = Some(ClassTable::new(self.columns.len(), self.policy, false, false));
        Ok(())
    }

    fn rows(&mut self, rows: &Rows<'_>) -> Result<()> {
        let table = self.table.as_mut().expect("header comes first");
        for r in 0..rows.len() {
            let row = rows.row(r);
            self.key.clear();
            for (a, &i) in self.columns.iter().enumerate() {
                let text = row.text(i)?;
                self.key.push(table.code(a, self.norm.normalise(&text)));
            }
            table.absorb(&self.key, 0.0).map_err(|e| e.at_line(row.line))?;
        }
        Ok(())
    }
}

impl Collect for Sink {
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

/// A streaming read of `E` with the audit's QIs, missing tokens and policy; its own
/// delimiter and encoding are detected (or `encoding` forced).
pub type Reference = Feed<Sink>;

impl Reference {
    /// Starts reading `E` for an audit with this configuration.
    pub fn new(config: &AuditConfig, encoding: Option<crate::ingest::encoding::Encoding>) -> Self {
        let opts = CsvOptions { delimiter: None, encoding, ragged: config.ragged };
        let sink = Sink {
            qi: config.quasi_identifiers.clone(),
            columns_of: config.reference_columns.clone(),
            policy: config.missing_policy,
            norm: config.normaliser(),
            columns: Vec::new(),
            present: Vec::new(),
            missing: Vec::new(),
            table: None,
            key: Vec::new(),
        };
        Feed::with_sink(opts, sink)
    }
}
