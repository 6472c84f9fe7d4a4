//! What a front end shows of a search (spec protect.md Sec 1, 4): each ladder's levels with
//! their labels and the records under each label, and any node's figures with whether it is
//! feasible, for the page's ladder table, node chooser and risk-utility map.

use serde::Serialize;

use super::Protector;
use super::node::Figures;

/// Labels listed per level; the others are counted.
pub const LABELS_SHOWN: usize = 12;

/// One label of a level, and the records in scope under it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelCount {
    /// The label (`[30,40)`, `2020-Q1`, `104**`, `*`).
    pub label: String,
    /// Records in scope whose cell takes it (blank cells are not counted below the top).
    pub records: u64,
}

/// One level of a ladder as the page shows it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelView {
    /// What the level is, in words (`value`, `bands of 10`, `quarter`, `*`).
    pub name: String,
    /// Distinct labels over the values of `O` (Sec 1).
    pub labels: usize,
    /// The most frequent labels (at most [`LABELS_SHOWN`]), most records first, ties by label.
    pub largest: Vec<LabelCount>,
}

/// A ladder as the page shows it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LadderView {
    /// The QI.
    pub qi: String,
    /// `hierarchy`, `bands`, `dates`, `prefix`, or `default` for (value, `*`).
    pub kind: String,
    /// Levels `0 .. h - 1`.
    pub levels: Vec<LevelView>,
}

/// A node with its figures (Sec 4) and feasibility (Sec 3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeView {
    /// The level of each QI, in QI order.
    pub levels: Vec<usize>,
    /// Its figures.
    pub figures: Figures,
    /// Whether it meets the criteria within the suppression limit.
    pub feasible: bool,
}

impl NodeView {
    /// The node `levels` with `figures`.
    pub fn new(levels: Vec<usize>, figures: Figures) -> NodeView {
        NodeView { levels, feasible: figures.feasible, figures }
    }
}

impl Protector {
    /// The node `levels` (in QI order) with its figures, feasible or not (`node_invalid` for
    /// a level past its ladder).
    pub fn node_view(&self, levels: &[usize]) -> crate::error::Result<NodeView> {
        Ok(NodeView::new(levels.to_vec(), self.evaluate(levels)?))
    }

    /// Each ladder's levels with their labels and the records under each (from the level-0
    /// classes: work per class and per value, not per row).
    pub fn ladder_views(&self) -> Vec<LadderView> {
        self.ladders
            .iter()
            .enumerate()
            .map(|(a, ladder)| {
                let per_code = &self.base.value_records[a];
                let top = ladder.height() - 1;
                let levels = ladder
                    .levels
                    .iter()
                    .enumerate()
                    .map(|(j, level)| {
                        let mut per_label = vec![0u64; level.texts.len()];
                        for (code, &n) in per_code.iter().enumerate() {
                            // A blank keeps its cell below the top, and takes the top label.
                            if code >= 2 || j == top {
                                per_label[level.map[code] as usize] += n;
                            }
                        }
                        let mut largest: Vec<LabelCount> = per_label
                            .iter()
                            .enumerate()
                            .filter(|&(l, &n)| n > 0 && !level.texts[l].is_empty())
                            .map(|(l, &n)| LabelCount { label: level.texts[l].clone(), records: n })
                            .collect();
                        largest.sort_by(|x, y| y.records.cmp(&x.records).then_with(|| x.label.cmp(&y.label)));
                        largest.truncate(LABELS_SHOWN);
                        LevelView { name: level.name.clone(), labels: level.distinct, largest }
                    })
                    .collect();
                LadderView { qi: ladder.qi.clone(), kind: ladder.kind.to_string(), levels }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AuditConfig;
    use crate::protect::{Criteria, Ladder, ProtectParams};
    use crate::table::read::TableReader;

    #[test]
    fn each_level_lists_its_labels_with_their_records() {
        let csv = b"age,sex\n31,F\n35,F\n42,M\n,M\n";
        let mut reader = TableReader::new(AuditConfig::default().table_settings().unwrap());
        reader.push(csv).unwrap();
        let table = reader.finish().unwrap().table;
        let params = ProtectParams {
            quasi_identifiers: vec!["age".into(), "sex".into()],
            ladders: [("age".to_string(), Ladder::Bands { widths: vec![10.0], bottom: None, top: None })].into(),
            criteria: Criteria { k: Some(2), ..Criteria::default() },
            ..ProtectParams::default()
        };
        let p = Protector::new(&table, &AuditConfig::default().normaliser(), &params).unwrap();
        let views = p.ladder_views();
        let age = &views[0];
        assert_eq!((age.qi.as_str(), age.kind.as_str(), age.levels.len()), ("age", "bands", 3));
        let shown = |j: usize| age.levels[j].largest.iter().map(|l| (l.label.as_str(), l.records)).collect::<Vec<_>>();
        // The blank cell is no label below the top; at the top every record takes `*`.
        assert_eq!(shown(0), [("31", 1), ("35", 1), ("42", 1)]);
        assert_eq!((age.levels[1].labels, shown(1)), (2, vec![("[30,40)", 2), ("[40,50)", 1)]));
        assert_eq!(shown(2), [("*", 4)]);
        assert_eq!(views[1].levels[0].largest.iter().map(|l| l.records).sum::<u64>(), 4);
    }
}
