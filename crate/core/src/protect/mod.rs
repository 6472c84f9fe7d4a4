//! Protect (spec protect.md): candidate releases of the original `O` by full-domain
//! generalization over a lattice of ladder levels with a record-suppression limit, an exact
//! search of that lattice for the criteria `k`, distinct `l`, `t` and a maximum average risk,
//! and the release of a chosen node as CSV.
//!
//! - the settings: [`params`]; the ladders proposed from the values: [`mod@propose`];
//! - Sec 1 ladders: [`ladder`] (kinds, nesting, ARX's layout) and [`labels`];
//! - Sec 2-3 the classes of a node, merged from the level-0 class table: [`base`], [`node`];
//! - Sec 3-4 the search, the best node, minimal nodes, Pareto front: [`search`];
//! - Sec 5 apply: [`apply`] (its fields: [`csv`]; written while the file is read again:
//!   [`stream`]); Sec 6 the result: [`result`];
//! - what a front end shows of the ladders and of any node: [`view`].

pub mod apply;
pub mod base;
pub mod csv;
pub mod labels;
pub mod ladder;
pub mod node;
pub mod params;
pub mod propose;
pub mod result;
pub mod search;
pub mod stream;
pub mod view;

use std::collections::BTreeMap;

pub use apply::{Release, Suppressed};
pub use labels::DateLevel;
pub use ladder::{BuiltLadder, ColumnReading, Ladder};
pub use node::Figures;
pub use params::{Criteria, DEFAULT_MAX_NODES, PRESETS, Preset, ProtectParams, ProtectSettings, TDistance};
pub use propose::propose;
pub use search::{Objective, Search};
pub use stream::{RecordCount, StreamedRelease};
pub use view::{LadderView, NodeView};

use base::Base;
use node::Rules;
use search::Lattice;

use crate::error::{Error, Result};
use crate::ingest::cell::Normaliser;
use crate::ingest::reader::{CsvOptions, Probe, Span};
use crate::metric::MetricResult;
use crate::table::classes::MissingPolicy;
use crate::table::{Table, header};

/// A table prepared for protection: its QIs in column order, their ladders, the level-0
/// classes and the rules. Any node's figures and release come from it without reading the
/// rows again.
pub struct Protector {
    /// The QIs, in column order.
    pub qis: Vec<String>,
    qi_columns: Vec<usize>,
    /// The ladder of each QI.
    pub ladders: Vec<BuiltLadder>,
    base: Base,
    rules: Rules,
    params: ProtectParams,
}

/// A settings error.
fn bad(code: &'static str, message: String) -> Error {
    Error::config(code, message)
}

impl Protector {
    /// Checks the settings, reads the QIs' values and builds the ladders (nesting checked)
    /// and the level-0 classes. `no_quasi_identifiers` when none is given.
    pub fn new(table: &Table, norm: &Normaliser, params: &ProtectParams) -> Result<Protector> {
        let p = params;
        if p.missing_policy == MissingPolicy::Wildcard {
            return Err(bad("protect_wildcard_unsupported", "the wildcard missing-value policy is not supported by protect: choose ordinary or drop".into()));
        }
        if p.quasi_identifiers.is_empty() {
            return Err(bad("no_quasi_identifiers", "no quasi-identifier is given".into()));
        }
        let c = &p.criteria;
        if c.k.is_none() && c.l.is_none() && c.t.is_none() && c.average_risk.is_none() {
            return Err(bad("no_criteria", "no criterion is given: set k, l, t or a maximum average risk".into()));
        }
        if (c.l.is_some() || c.t.is_some()) && p.sensitive.is_empty() {
            return Err(bad("no_sensitive_attribute", "l and t need a sensitive attribute".into()));
        }
        for (what, ok) in [
            ("suppression_limit must lie in [0, 1]", (0.0..=1.0).contains(&p.suppression_limit)),
            ("k must be at least 1", c.k.is_none_or(|k| k >= 1)),
            ("l must be at least 1", c.l.is_none_or(|l| l >= 1)),
            ("t must lie in [0, 1]", c.t.is_none_or(|t| (0.0..=1.0).contains(&t))),
            ("average_risk must lie in (0, 1]", c.average_risk.is_none_or(|r| r > 0.0 && r <= 1.0)),
            ("risk_threshold must lie in (0, 1]", p.risk_threshold > 0.0 && p.risk_threshold <= 1.0),
        ] {
            if !ok {
                return Err(bad("invalid_parameter", what.into()));
            }
        }
        let mut qi_columns: Vec<usize> = p.quasi_identifiers.iter().map(|q| header::find(&table.header, q)).collect::<Result<_>>()?;
        qi_columns.sort_unstable();
        qi_columns.dedup();
        let qis: Vec<String> = qi_columns.iter().map(|&j| table.header[j].clone()).collect();
        if let Some(q) = p.ladders.keys().find(|q| !qis.contains(q)) {
            return Err(bad("ladder_without_qi", format!("a ladder is given for \"{q}\", which is no quasi-identifier")));
        }
        let sa_columns: Vec<usize> = p.sensitive.iter().map(|s| header::find(&table.header, s)).collect::<Result<_>>()?;
        if let Some(s) = p.sensitive.iter().find(|s| qis.contains(s)) {
            return Err(bad("sensitive_is_qi", format!("\"{s}\" cannot be both a quasi-identifier and a sensitive attribute")));
        }
        let base = Base::new(table, norm, &qi_columns, &sa_columns, p.missing_policy, p.exclude_suppressed_rows)?;
        let read = norm.clone().delimiter(&table.facts.delimiter);
        let mut ladders = Vec::with_capacity(qis.len());
        for (a, (&j, q)) in qi_columns.iter().zip(&qis).enumerate() {
            let ladder = p.ladders.get(q);
            let reading = match ladder {
                Some(Ladder::Bands { .. } | Ladder::Dates { .. }) => {
                    let profile = crate::table::profile::profile(&table.columns[j], q, j, table.facts.rows_total, &read);
                    let date = profile.date_form.or_else(|| norm.date_form(q));
                    if date.is_none() && !profile.ambiguous_date_forms.is_empty() {
                        let forms: Vec<&str> = profile.ambiguous_date_forms.iter().map(|f| f.name()).collect();
                        return Err(Error::config(
                            "date_form_ambiguous",
                            format!("the dates of \"{q}\" read in several forms ({}): set its date form", forms.join(", ")),
                        )
                        .in_column(q));
                    }
                    ColumnReading { date, decimal_comma: profile.decimal_comma }
                }
                _ => ColumnReading::default(),
            };
            let line = |code: u32| table.lines.line(u64::from(base.first_row[a][code as usize]));
            let label = |f: &str| norm.label(f).into_owned();
            ladders.push(BuiltLadder::build(q, ladder, base.values(a), base.classes.dict(a).len(), reading, &label, &line)?);
        }
        let t_ordered = match c.t_distance {
            TDistance::Equal => false,
            TDistance::Auto => true,
            TDistance::Ordered => {
                if let Some(sa) = base.sensitive.iter().find(|s| s.ordered.is_none()) {
                    return Err(bad("sa_not_ordered", format!("the ordered distance needs a numeric sensitive attribute; \"{}\" is not", sa.name)));
                }
                true
            }
            TDistance::Hierarchical => {
                return Err(bad("t_distance_unsupported", "the hierarchical distance is not supported by protect: choose auto, equal or ordered".into()));
            }
        };
        let limit = (p.suppression_limit * base.n as f64 + 1e-9).floor() as u64;
        let rules = Rules { k: c.k, l: c.l, t: c.t, t_ordered, average_risk: c.average_risk, limit, tau: p.risk_threshold };
        Ok(Protector { qis, qi_columns, ladders, base, rules, params: p.clone() })
    }

    /// Records in scope `N`.
    pub fn records(&self) -> u64 {
        self.base.n
    }

    /// Rows of the table (in scope or not).
    pub fn rows(&self) -> u64 {
        self.base.row_class.len() as u64
    }

    /// The lattice of the ladders (`too_many_nodes` above `max_nodes`).
    pub fn lattice(&self) -> Result<Lattice> {
        Lattice::new(self.ladders.iter().map(BuiltLadder::height).collect(), &self.qis, self.params.max_nodes)
    }

    /// The levels of a node given as `{qi: level}` (a QI not named: level 0); `node_invalid`
    /// for an unknown QI or a level past its ladder.
    pub fn node(&self, levels: &BTreeMap<String, usize>) -> Result<Vec<usize>> {
        if let Some(q) = levels.keys().find(|q| !self.qis.contains(q)) {
            return Err(bad("node_invalid", format!("\"{q}\" is no quasi-identifier")));
        }
        let node: Vec<usize> = self.qis.iter().map(|q| levels.get(q).copied().unwrap_or(0)).collect();
        self.check(&node)?;
        Ok(node)
    }

    /// `node_invalid` unless `levels` has a level below its ladder's height for every QI.
    fn check(&self, levels: &[usize]) -> Result<()> {
        if levels.len() != self.ladders.len() {
            return Err(bad("node_invalid", format!("a node has {} levels, one per quasi-identifier, not {}", self.ladders.len(), levels.len())));
        }
        match self.qis.iter().zip(&self.ladders).zip(levels).find(|((_, l), j)| **j >= l.height()) {
            Some(((q, l), j)) => Err(bad("node_invalid", format!("the ladder of \"{q}\" has levels 0 to {}, not {j}", l.height() - 1))),
            None => Ok(()),
        }
    }

    /// The figures of any node, feasible or not (levels in QI order); `node_invalid` for a
    /// level past its ladder.
    pub fn evaluate(&self, levels: &[usize]) -> Result<Figures> {
        self.check(levels)?;
        Ok(node::evaluate(&self.base, &self.ladders, &self.rules, levels).0)
    }

    /// The exact search (Sec 3-4).
    pub fn search(&self) -> Result<Search> {
        let prune = self.rules.t.is_none() || self.params.suppression_limit == 0.0;
        Ok(search::search(&self.base, &self.ladders, &self.rules, self.lattice()?, self.params.objective, prune))
    }

    /// The `protect` result of a search (Sec 6).
    pub fn result(&self, search: &Search) -> MetricResult {
        result::result(self, search)
    }

    /// The release of the node `levels` (Sec 5) of `table`, the table this protector was built
    /// from (`table_differs` otherwise): every column must be kept in memory (`not_retained`
    /// otherwise).
    pub fn release<'a>(&'a self, table: &'a Table, levels: &[usize]) -> Result<Release<'a>> {
        if let Some(j) = table.columns.iter().position(|c| !c.is_retained()) {
            return Err(Error::config("not_retained", "this column was not kept in memory: the release cannot be written from the kept table")
                .in_column(&table.header[j]));
        }
        self.release_of(table, levels)
    }

    /// The release of the node `levels` of `table` written while its file is read again with
    /// `opts` (the options it was read with): for a table of which a column kept no codes.
    pub fn release_streamed<'a>(&'a self, table: &'a Table, levels: &[usize], opts: CsvOptions) -> Result<StreamedRelease<'a>> {
        Ok(StreamedRelease::new(self.release_of(table, levels)?, table, opts))
    }

    /// The release of one part of the file (an exact `span` from a [`stream::RecordCount`]'s
    /// bounds, its first record the table's row `first_row`), written on its own; the parts'
    /// bytes joined in file order after [`StreamedRelease::header`] are the release.
    pub fn release_part<'a>(
        &'a self,
        table: &'a Table,
        levels: &[usize],
        opts: CsvOptions,
        probe: &Probe,
        span: Span,
        first_row: usize,
    ) -> Result<StreamedRelease<'a>> {
        Ok(StreamedRelease::part(self.release_of(table, levels)?, table, opts, probe, span, first_row))
    }

    /// The release of `levels` of `table`, checked to be the table of the search.
    fn release_of<'a>(&'a self, table: &'a Table, levels: &[usize]) -> Result<Release<'a>> {
        let rows = self.qi_columns.first().and_then(|&j| table.columns.get(j)?.codes.as_ref()).map_or(0, |c| c.len());
        if rows != self.base.row_class.len() || self.qi_columns.iter().zip(&self.qis).any(|(&j, q)| table.header.get(j) != Some(q)) {
            return Err(bad("table_differs", "the release is written from the table the search was prepared on".into()));
        }
        self.check(levels)?;
        let (_, suppressed) = node::evaluate(&self.base, &self.ladders, &self.rules, levels);
        Ok(Release::new(table, &self.base, &self.ladders, &self.qi_columns, levels, suppressed, self.params.suppressed))
    }
}

/// The `protect` result of `table` (Sec 6): the search of its lattice under `params`. An
/// error for bad settings or ladders (a ladder that does not nest, an unmapped value, a
/// non-numeric cell under bands, a lattice over the node limit); `not_applicable` with
/// `no_quasi_identifiers` when no QI is given.
pub fn protect(table: &Table, norm: &Normaliser, params: &ProtectParams) -> Result<MetricResult> {
    if params.quasi_identifiers.is_empty() {
        return Ok(result::context(&[], params).without_value("protect", crate::metric::Status::NotApplicable, "no_quasi_identifiers"));
    }
    let p = Protector::new(table, norm, params)?;
    let search = p.search()?;
    Ok(p.result(&search))
}

/// The release of `table` as CSV bytes (Sec 5): the node of `params.node`, else the best one
/// (`no_feasible_node` when there is none).
pub fn release_csv(table: &Table, norm: &Normaliser, params: &ProtectParams) -> Result<Vec<u8>> {
    let p = Protector::new(table, norm, params)?;
    let levels = match &params.node {
        Some(n) => p.node(n)?,
        None => {
            let search = p.search()?;
            let best = search.best.ok_or_else(|| Error::input("no_feasible_node", "no node of the lattice meets the criteria within the suppression limit"))?;
            search.lattice.levels(best)
        }
    };
    Ok(p.release(table, &levels)?.to_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::read::TableReader;

    const G_P1: &str = include_str!("../../tests/fixtures/g-p1.csv");

    fn table(csv: &str) -> Table {
        let config = crate::config::AuditConfig::default();
        let mut reader = TableReader::new(config.table_settings().unwrap());
        reader.push(csv.as_bytes()).unwrap();
        reader.finish().unwrap().table
    }

    fn k2(ladders: &[(&str, Ladder)]) -> ProtectParams {
        ProtectParams {
            quasi_identifiers: vec!["age".into(), "zip".into(), "sex".into()],
            ladders: ladders.iter().map(|(q, l)| (q.to_string(), l.clone())).collect(),
            criteria: Criteria { k: Some(2), ..Criteria::default() },
            ..ProtectParams::default()
        }
    }

    fn error(csv: &str, p: &ProtectParams) -> Error {
        protect(&table(csv), &Normaliser::default(), p).unwrap_err()
    }

    #[test]
    fn a_hierarchy_that_does_not_nest_is_named() {
        let h = Ladder::Hierarchy { csv: "34;30-39;<40\n36;30-39;>=35\n".into() };
        let e = error(G_P1, &k2(&[("age", h)]));
        assert_eq!((e.code, e.column.as_deref()), ("ladder_not_nested", Some("age")));
        assert!(e.message.contains("level 1") && e.message.contains("\"34\"") && e.message.contains("\"36\""), "{}", e.message);
    }

    #[test]
    fn values_missing_from_a_hierarchy_are_counted_and_the_first_five_named() {
        let e = error(G_P1, &k2(&[("age", Ladder::Hierarchy { csv: "34,young\n36,young\n".into() })]));
        assert_eq!(e.code, "ladder_value_unmapped");
        assert!(e.message.starts_with("9 value(s) of \"age\"") && e.message.ends_with("\"38\", \"41\", \"43\", \"47\", \"52\""), "{}", e.message);
    }

    #[test]
    fn a_hierarchy_ending_in_one_label_gets_no_star() {
        let k1 = ProtectParams {
            criteria: Criteria { k: Some(1), ..Criteria::default() },
            ..k2(&[("sex", Ladder::Hierarchy { csv: "F;person\nM;person\n".into() })])
        };
        let p = Protector::new(&table(G_P1), &Normaliser::default(), &k1).unwrap();
        let sex = &p.ladders[2];
        assert_eq!((sex.height(), sex.levels[1].texts[2].as_str(), sex.to_arx_csv()), (2, "person", "F;person\nM;person\n".to_string()));
        // The blank age takes the top label `*` at the top, and stays blank below it.
        let release = String::from_utf8(p.release(&table(G_P1), &[1, 0, 1]).unwrap().to_bytes()).unwrap();
        assert!(release.ends_with("*,10489,person,flu\n"), "{release}");
        let release = String::from_utf8(p.release(&table(G_P1), &[0, 0, 0]).unwrap().to_bytes()).unwrap();
        assert!(release.ends_with("\n,10489,M,flu\n"), "{release}");
        assert_eq!(p.release(&table(G_P1), &[2, 0, 0]).err().map(|e| e.code), Some("node_invalid"));
        assert_eq!(p.release(&table("age,zip,sex\n1,2,F\n"), &[0, 0, 0]).err().map(|e| e.code), Some("table_differs"));
    }

    #[test]
    fn cells_a_ladder_cannot_read_are_named_with_their_line() {
        let csv = "age,zip,sex\n34,1,F\nforty,2,M\n";
        let e = error(csv, &k2(&[("age", Ladder::Bands { widths: vec![10.0], bottom: None, top: None })]));
        assert_eq!((e.code, e.line, e.column.as_deref()), ("ladder_not_numeric", Some(3), Some("age")));
        let csv = "age,zip,sex\n03.04.2021,1,F\n12.11.2020,2,M\nsoon,3,M\n";
        let e = error(csv, &k2(&[("age", Ladder::Dates { levels: vec![DateLevel::Month] })]));
        assert_eq!((e.code, e.line), ("ladder_not_date", Some(4)));
    }

    #[test]
    fn dates_of_the_column_s_written_form() {
        let csv = "age,zip,sex\n03.04.2021,1,F\n12.11.2020,2,M\n28.11.2020,3,M\n";
        let p = k2(&[("age", Ladder::Dates { levels: vec![DateLevel::Month, DateLevel::Quarter, DateLevel::Year] })]);
        let p = Protector::new(&table(csv), &Normaliser::default(), &p).unwrap();
        assert_eq!(p.ladders[0].to_arx_csv(), "03.04.2021;2021-04;2021-Q2;2021;*\n12.11.2020;2020-11;2020-Q4;2020;*\n28.11.2020;2020-11;2020-Q4;2020;*\n");
        assert_eq!(p.ladders[0].levels.iter().map(|l| l.distinct).collect::<Vec<_>>(), vec![3, 2, 2, 2, 1]);
    }

    #[test]
    fn settings_protect_refuses() {
        let wildcard = ProtectParams { missing_policy: MissingPolicy::Wildcard, ..k2(&[]) };
        assert_eq!(error(G_P1, &wildcard).code, "protect_wildcard_unsupported");
        let e = error(G_P1, &ProtectParams { max_nodes: 7, ..k2(&[("age", Ladder::Bands { widths: vec![10.0, 20.0], bottom: None, top: None })]) });
        assert_eq!(e.code, "too_many_nodes");
        assert!(e.message.contains("16 nodes") && e.message.contains("\"age\" has the most levels (4)"), "{}", e.message);
        assert_eq!(error(G_P1, &ProtectParams { criteria: Criteria::default(), ..k2(&[]) }).code, "no_criteria");
        assert_eq!(error(G_P1, &ProtectParams { criteria: Criteria { l: Some(2), ..Criteria::default() }, ..k2(&[]) }).code, "no_sensitive_attribute");
        let hierarchical = Criteria { t: Some(0.5), t_distance: TDistance::Hierarchical, ..Criteria::default() };
        assert_eq!(error(G_P1, &ProtectParams { criteria: hierarchical, sensitive: vec!["diagnosis".into()], ..k2(&[]) }).code, "t_distance_unsupported");
        let none = protect(&table(G_P1), &Normaliser::default(), &ProtectParams { quasi_identifiers: Vec::new(), ..k2(&[]) }).unwrap();
        assert_eq!((none.status, none.reason), (crate::metric::Status::NotApplicable, Some("no_quasi_identifiers")));
    }

    #[test]
    fn the_three_ways_of_grouping_a_node_s_classes_agree() {
        let bands = Ladder::Bands { widths: vec![10.0, 20.0], bottom: None, top: None };
        let p = Protector::new(&table(G_P1), &Normaliser::default(), &k2(&[("age", bands), ("zip", Ladder::Prefix { lengths: vec![4, 3] })])).unwrap();
        let lattice = p.lattice().unwrap();
        for i in 0..lattice.size() {
            let levels = lattice.levels(i);
            let active: Vec<usize> = (0..3).filter(|&a| levels[a] + 1 < p.ladders[a].height()).collect();
            let dense = node::grouped(&p.base, &p.ladders, &levels, u64::MAX);
            assert_eq!(node::grouped(&p.base, &p.ladders, &levels, 0), dense, "{levels:?}");
            assert_eq!(node::refined(&p.base, &p.ladders, &levels, &active, vec![0; p.base.classes.len()]), dense, "{levels:?}");
        }
        // (3,2,0): four classes (*,104**,F), (*,104**,M), (*,103**,M), (*,103**,F).
        assert_eq!(node::grouped(&p.base, &p.ladders, &[3, 2, 0], 0).1, 4);
    }

    #[test]
    fn the_search_reports_its_progress_by_nodes() {
        let steps = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = steps.clone();
        let hook: crate::progress::Hook = std::sync::Arc::new(move |s| sink.lock().unwrap().push(s));
        crate::progress::reporting(hook, || protect(&table(G_P1), &Normaliser::default(), &k2(&[])).unwrap());
        let steps = steps.lock().unwrap();
        // (value, *) ladders: 8 nodes, one layer per height 3, 2, 1, 0.
        let nodes: Vec<(u64, u64)> = steps.iter().filter(|s| s.phase == crate::progress::Phase::Nodes).map(|s| (s.done, s.total)).collect();
        assert_eq!(nodes, [(1, 8), (4, 8), (7, 8), (8, 8)]);
    }

    #[test]
    fn without_a_feasible_node_the_closest_is_reported() {
        // k = 20 over 12 records: every node suppresses all 12; the lowest node is closest.
        let p = ProtectParams { criteria: Criteria { k: Some(20), ..Criteria::default() }, ..k2(&[]) };
        let r = protect(&table(G_P1), &Normaliser::default(), &p).unwrap();
        assert_eq!((r.value.clone(), r.warnings.clone()), (serde_json::Value::Null, vec!["no_feasible_node"]));
        let closest = &r.details["closest"];
        assert_eq!(
            (closest["levels"].clone(), closest["records_suppressed"].clone()),
            (serde_json::json!({ "age": 0, "zip": 0, "sex": 0 }), serde_json::json!(12))
        );
        assert_eq!((r.details["nodes_total"].clone(), r.details["nodes_evaluated"].clone()), (serde_json::json!(8), serde_json::json!(8)));
    }

    #[test]
    fn under_drop_records_with_a_blank_qi_are_out_of_scope_and_not_written() {
        let node = BTreeMap::from([("age".to_string(), 3), ("zip".to_string(), 2)]);
        let bands = Ladder::Bands { widths: vec![10.0, 20.0], bottom: None, top: None };
        let p =
            ProtectParams { missing_policy: MissingPolicy::Drop, node: Some(node), ..k2(&[("age", bands), ("zip", Ladder::Prefix { lengths: vec![4, 3] })]) };
        let r = protect(&table(G_P1), &Normaliser::default(), &p).unwrap();
        assert_eq!((r.details["records_in_scope"].clone(), r.details["records_out_of_scope"].clone()), (serde_json::json!(11), serde_json::json!(1)));
        let release = String::from_utf8(release_csv(&table(G_P1), &Normaliser::default(), &p).unwrap()).unwrap();
        assert_eq!(release.lines().count(), 12);
        assert!(!release.contains(",10489,M,flu\n"));
    }
}
