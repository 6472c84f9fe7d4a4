//! The identity family from parts of a table that hold disjoint equivalence classes (the
//! class-partitioned mode of docs/spark.md): each part sends its class-size histogram and
//! its riskiest classes, which merge exactly, instead of its rows or its class table.
//!
//! What merges exactly from disjoint classes is what reads the class-size histogram alone
//! (spec identity-risk.md Sec 2-5 and 7: class sizes, uniqueness, record risk, the prosecutor
//! model, the population-uniqueness estimators), the journalist and marketer models without a
//! population table (Sec 6: `F = f`), ARX's estimated k-map (peer-measures.md Sec 3.2: `k` and
//! `N`) and ARX's verdict (Sec 11.1) on them. The rest needs the
//! whole class table or other groupings (docs/spark.md lists them and why).

use serde::{Deserialize, Serialize};

use super::{ArxChecked, IdentityParams, RiskyClass, SizeGroup, Sizes, arx_verdict, context, counts, empty_scope, journalist, kmap, riskiest, size_family};
use crate::error::{Error, Result};
use crate::figures::{IdentityFigures, RowScope};
use crate::ingest::cell::{Cell, Normaliser};
use crate::metric::MetricResult;
use crate::table::classes::{ClassTable, MissingPolicy};
use crate::table::dictionary::MISSING;
use crate::table::header;

/// The statistics of a set of classes that no other part of the table holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisjointClasses {
    /// Rows read (in scope or not).
    pub rows_total: u64,
    /// Rows out of scope because every QI is suppressed.
    pub suppressed: u64,
    /// Rows out of scope under the `drop` policy.
    pub dropped: u64,
    /// The class-size histogram: one group per distinct size, ascending.
    pub groups: Vec<(u64, u64, u64)>,
    /// The riskiest classes, riskiest first (at most [`super::TOP_CLASSES`]).
    pub riskiest: Vec<RiskyClass>,
    /// Whether every class has every QI blank (vacuously true without a class).
    pub all_blank: bool,
}

impl DisjointClasses {
    /// The statistics of a finished class table. `class_partitioned_wildcard` under the
    /// `wildcard` policy, whose blank QIs match classes of other parts.
    pub fn of(table: &ClassTable) -> Result<DisjointClasses> {
        if table.policy() == MissingPolicy::Wildcard {
            return Err(Error::config(
                "class_partitioned_wildcard",
                "the class-partitioned mode cannot use the wildcard missing-value policy (a blank matches classes of other partitions); use the one-phase mode or another policy",
            ));
        }
        let sizes = Sizes::of(table, |i| table.count(i) as f64);
        Ok(DisjointClasses {
            rows_total: table.rows_total,
            suppressed: table.suppressed,
            dropped: table.dropped,
            groups: sizes.groups.iter().map(|g| (g.f as u64, g.classes, g.records)).collect(),
            riskiest: riskiest(table, |i| table.count(i) as f64),
            all_blank: (0..table.len()).all(|i| (0..table.q()).all(|a| table.code_at(i, a) == MISSING)),
        })
    }

    /// Adds the statistics of other classes (of another part).
    pub fn merge(&mut self, other: DisjointClasses) {
        self.rows_total += other.rows_total;
        self.suppressed += other.suppressed;
        self.dropped += other.dropped;
        let mut groups = std::mem::take(&mut self.groups);
        groups.extend(other.groups);
        groups.sort_unstable_by_key(|g| g.0);
        for g in groups {
            match self.groups.last_mut() {
                Some(last) if last.0 == g.0 => {
                    last.1 += g.1;
                    last.2 += g.2;
                }
                _ => self.groups.push(g),
            }
        }
        self.riskiest = RiskyClass::merge(std::mem::take(&mut self.riskiest), other.riskiest);
        self.all_blank &= other.all_blank;
    }

    /// Records in scope.
    pub fn records(&self) -> u64 {
        self.groups.iter().map(|g| g.2).sum()
    }

    fn sizes(&self) -> Sizes {
        Sizes {
            groups: self.groups.iter().map(|&(f, classes, records)| SizeGroup { f: f as f64, classes, records }).collect(),
            n: self.records(),
            classes: self.groups.iter().map(|g| g.1).sum(),
        }
    }

    /// The binary form (JSON text: a few hundred bytes per distinct class size).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("plain data")
    }

    /// From [`DisjointClasses::to_bytes`]; `invalid_class_statistics` otherwise.
    pub fn from_bytes(bytes: &[u8]) -> Result<DisjointClasses> {
        serde_json::from_slice(bytes).map_err(|e| Error::input("invalid_class_statistics", format!("these bytes are not class statistics: {e}")))
    }

    /// The identity metrics these statistics give, in the one-phase audit's order, and the
    /// figures of them that other code reads (`n_records`, `k_anonymity`, `r_internal`).
    pub fn metrics(&self, qi: &[String], p: &IdentityParams) -> (Vec<MetricResult>, IdentityFigures) {
        let ctx = context(qi, p);
        let sizes = self.sizes();
        let scope = RowScope { rows: self.rows_total, in_scope: sizes.n, dropped: self.dropped, suppressed: self.suppressed };
        let mut out = counts(&ctx, &scope);
        if sizes.n == 0 {
            out.extend(empty_scope(&ctx, p));
            return (out, IdentityFigures { scope: Some(scope), ..IdentityFigures::default() });
        }
        let (sized, r_internal, prosecutor) = size_family(&ctx, &sizes, true, self.riskiest.clone(), None, p, false);
        out.extend(sized);
        let (models, others) = journalist::without_population(&ctx, &sizes, p.threshold);
        out.extend(models);
        out.push(kmap::k_map_estimated(&ctx, sizes.n, sizes.min_f(), &p.population, &p.kmap));
        out.push(arx_verdict(&ctx, &ArxChecked { prosecutor, others: Some(others) }, p));
        let figures = IdentityFigures {
            n_records: sizes.n,
            k_anonymity: Some(sizes.min_f()),
            r_internal: Some(r_internal),
            scope: Some(scope),
            ..IdentityFigures::default()
        };
        (out, figures)
    }
}

/// A hash of a row's normalised QI values: rows of one class have the same hash, so a table
/// split by it (Spark's class mode sends each row to the partition its hash picks) has
/// disjoint classes in its parts. Hashing the normalised cells, not the raw ones, keeps ` 7`,
/// `7` and the missing tokens in the class the audit puts them in. Each cell hashes on its
/// own (XXH3, the same on every machine), so a column's distinct values can be hashed once
/// ([`ClassHasher::cell`]); the row's hash folds its cells' in column order
/// ([`ClassHasher::fold`], [`ClassHasher::finish`]).
#[derive(Debug, Clone)]
pub struct ClassHasher {
    norm: Normaliser,
    columns: Vec<usize>,
}

/// The seed of a text cell's hash; a missing and a suppressed cell hash to 0 and 1.
const SEED: u64 = 0x706c_636c;
/// An odd multiplier with well-spread bits (2^64 / the golden ratio).
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

impl ClassHasher {
    /// The hasher of the QIs `qi` in a table with this header, cells normalised by `norm`;
    /// `unknown_column` when one is not in it.
    pub fn new(header: &[String], qi: &[String], norm: Normaliser) -> Result<ClassHasher> {
        let columns = qi.iter().map(|name| header::find(header, name)).collect::<Result<Vec<_>>>()?;
        Ok(ClassHasher { norm, columns })
    }

    /// The header positions of the QIs, in the order [`ClassHasher::hash`] takes their cells.
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }

    /// The hash of one raw cell, normalised: cells of one value hash alike.
    pub fn cell(&self, raw: &str) -> u64 {
        match self.norm.normalise(raw) {
            Cell::Missing => 0,
            Cell::Suppressed => 1,
            Cell::Text(t) => twox_hash::XxHash3_64::oneshot_with_seed(SEED, t.as_bytes()),
        }
    }

    /// The running hash of a row's cells so far, `acc` (0 before the first), with the next
    /// cell's [`ClassHasher::cell`]: order matters, so the same values in other columns differ.
    pub fn fold(acc: u64, cell: u64) -> u64 {
        (acc.rotate_left(26) ^ cell).wrapping_mul(SPREAD)
    }

    /// The row's hash from its running hash: every bit mixed into the low ones, which pick
    /// the part (murmur3's finaliser).
    pub fn finish(acc: u64) -> u64 {
        let mut h = acc ^ (acc >> 33);
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    /// The hash of a row from its QI cells (as read, in [`ClassHasher::columns`] order).
    pub fn hash<'a>(&self, cells: impl IntoIterator<Item = &'a str>) -> u64 {
        Self::finish(cells.into_iter().fold(0, |acc, raw| Self::fold(acc, self.cell(raw))))
    }
}
