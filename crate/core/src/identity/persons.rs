//! Event-level data (spec README Sec 3 `person_id`): which persons stand behind the records of
//! each class and of each QI value, for `k_anonymity_person` (identity-risk.md Sec 2) and
//! SCORR's uniformity risk `f_X(i, pers)` (Sec 9).
//!
//! Memory grows with the distinct (class, person) pairs, which for event-level data is at most
//! the number of rows: that is what the metric needs.

use crate::hash::{Map, map};
use crate::ingest::cell::Cell;
use crate::table::classes::Remap;
use crate::table::dictionary::Dictionary;

/// Records per (key, person): the key is a class index, or a QI value code.
pub type PairCounts = Map<(u32, u32), u32>;

/// The streaming summary of the person column.
#[derive(Debug, Clone)]
pub struct Persons {
    ids: Dictionary,
    /// Records per (class, person).
    pub by_class: PairCounts,
    /// Per QI, records per (value code, person).
    pub by_value: Vec<PairCounts>,
}

impl Persons {
    /// An empty summary for `q` quasi-identifiers.
    pub fn new(q: usize) -> Self {
        Persons { ids: Dictionary::default(), by_class: map(), by_value: (0..q).map(|_| map()).collect() }
    }

    /// The code of a person id cell.
    pub fn code(&mut self, cell: Cell<'_>) -> u32 {
        self.ids.code(cell)
    }

    /// Absorbs one in-scope record: its class, its QI codes and its person.
    pub fn absorb(&mut self, class: u32, key: &[u32], person: u32) {
        *self.by_class.entry((class, person)).or_insert(0) += 1;
        for (a, &v) in key.iter().enumerate() {
            *self.by_value[a].entry((v, person)).or_insert(0) += 1;
        }
    }

    /// Merges another part's summary; `remap` says where its classes and QI codes went.
    /// Returns where `other`'s person codes went.
    pub fn merge(&mut self, other: Persons, remap: &Remap) -> Vec<u32> {
        let persons = self.ids.absorb(&other.ids);
        for ((c, p), n) in other.by_class {
            *self.by_class.entry((remap.classes[c as usize], persons[p as usize])).or_insert(0) += n;
        }
        for (a, pairs) in other.by_value.into_iter().enumerate() {
            for ((v, p), n) in pairs {
                *self.by_value[a].entry((remap.codes[a][v as usize], persons[p as usize])).or_insert(0) += n;
            }
        }
        persons
    }

    /// Number of distinct persons with an in-scope record.
    pub fn count(&self) -> usize {
        let mut seen: Vec<u32> = self.by_class.keys().map(|&(_, p)| p).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// Persons whose records fall into more than one class.
    pub fn in_several_classes(&self) -> usize {
        let mut classes_of: Map<u32, u32> = map();
        for &(_, p) in self.by_class.keys() {
            *classes_of.entry(p).or_insert(0) += 1;
        }
        classes_of.values().filter(|&&c| c > 1).count()
    }
}
