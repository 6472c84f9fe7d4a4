//! What drives the risk (spec identity-risk.md Sec 10): distinction and separation of every
//! subset of the quasi-identifiers (ARX), each QI's leave-one-out contribution, and the
//! smallest combinations that single out a record.
//!
//! Computed from the finished class table without another pass over the data: the classes of
//! a subset `S` are the classes of `A` projected onto `S`, which with bit-packed keys is a mask.

use serde_json::json;

use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;

use super::classes::ClassTable;
use crate::hash::Fixed;
use crate::metric::{Context, MetricResult, Scope};

/// Above this many QIs only subsets of size 1, 2, q-1 and q are evaluated (spec Sec 10).
pub const FULL_LATTICE_MAX_QIS: usize = 10;

/// Beyond this many QIs attribution is not computed (subsets are bit masks of a `u32`).
pub const MAX_QIS: usize = 24;

/// Class statistics of one subset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SubsetStats {
    /// Bit `a` set = QI `a` in the subset.
    pub mask: u32,
    /// Distinct keys `K_S`.
    pub classes: u64,
    /// `sum_j f_{S,j}^2`.
    pub sum_sq: f64,
    /// Records unique on `S`.
    pub uniques: u64,
}

/// Subsets evaluated for `q` QIs, in output order: by size, then by QI positions.
pub fn subsets(q: usize) -> Vec<u32> {
    let all_ones = (1u32 << q) - 1;
    let mut all: Vec<u32> = if q <= FULL_LATTICE_MAX_QIS {
        (1..=all_ones).collect()
    } else {
        let singles = (0..q).map(|a| 1u32 << a);
        let pairs = (0..q).flat_map(|a| (a + 1..q).map(move |b| (1u32 << a) | (1 << b)));
        let leave_one_out = (0..q).map(|a| all_ones & !(1 << a));
        singles.chain(pairs).chain(leave_one_out).chain([all_ones]).collect()
    };
    let positions = |m: u32| (0..q as u32).filter(|a| m >> a & 1 == 1).collect::<Vec<_>>();
    all.sort_by_key(|&m| (m.count_ones(), positions(m)));
    all
}

/// Groups the classes of `table` by their projection onto the QIs of `mask`.
pub fn project(table: &ClassTable, mask: u32) -> SubsetStats {
    let packing = table.packing();
    let bits: Vec<u64> = (0..packing.words())
        .map(|w| (0..table.q()).filter(|&a| mask >> a & 1 == 1).map(|a| packing.field_mask(a, w)).fold(0, |x, y| x | y))
        .collect();
    let sizes = if bits.len() == 1 {
        group(table, |i| table.packed(i)[0] & bits[0])
    } else {
        group(table, |i| table.packed(i).iter().zip(&bits).map(|(k, b)| k & b).collect::<Vec<u64>>())
    };
    let (mut classes, mut sum_sq, mut uniques) = (0u64, 0f64, 0u64);
    for f in sizes {
        classes += 1;
        sum_sq += f64::from(f) * f64::from(f);
        uniques += u64::from(f == 1);
    }
    SubsetStats { mask, classes, sum_sq, uniques }
}

/// Records per distinct `key_of(class)`. Each group is stored as (a representative class,
/// records): 8 bytes plus the index, whatever the key's length.
fn group<K: Eq + Hash>(table: &ClassTable, key_of: impl Fn(usize) -> K) -> Vec<u32> {
    let hasher = Fixed::with_seed(0x5eed);
    let hash = |i: usize| hasher.hash_one(key_of(i));
    let mut groups: HashTable<(u32, u32)> = HashTable::new();
    for i in 0..table.len() {
        let (h, key) = (hash(i), key_of(i));
        let records = table.count(i) as u32;
        match groups.find_mut(h, |&(rep, _)| key_of(rep as usize) == key) {
            Some(g) => g.1 = g.1.saturating_add(records),
            None => {
                groups.insert_unique(h, (i as u32, records), |&(rep, _)| hash(rep as usize));
            }
        }
    }
    groups.into_iter().map(|(_, f)| f).collect()
}

/// `qi_distinction` and `qi_separation` per subset, `qi_contribution` per QI and
/// `qi_singling_out` (project-defined: the minimal subsets on which some record is unique).
pub fn metrics(ctx: &Context, table: &ClassTable, qi: &[String]) -> Vec<MetricResult> {
    if qi.len() > MAX_QIS {
        let why = "too_many_quasi_identifiers";
        return ["qi_distinction", "qi_separation", "qi_contribution", "qi_singling_out"]
            .map(|id| ctx.without_value(id, crate::metric::Status::NotApplicable, why))
            .to_vec();
    }
    let n = table.records();
    let nf = n as f64;
    let q = qi.len();
    let stats: Vec<SubsetStats> = subsets(q).into_iter().map(|m| project(table, m)).collect();
    let names = |m: u32| (0..q).filter(|&a| m >> a & 1 == 1).map(|a| qi[a].clone()).collect::<Vec<_>>();
    let mut out = Vec::new();
    for s in &stats {
        let sub = Context { scope: Scope { subset: Some(names(s.mask)), ..ctx.scope.clone() }, ..ctx.clone() };
        out.push(sub.ok("qi_distinction", s.classes as f64 / nf));
        out.push(if n > 1 {
            sub.ok("qi_separation", (nf * nf - s.sum_sq) / (nf * (nf - 1.0)))
        } else {
            sub.without_value("qi_separation", crate::metric::Status::NotApplicable, "single_record")
        });
    }
    let all = (1u32 << q) - 1;
    let of = |m: u32| stats.iter().find(|s| s.mask == m).copied();
    let whole = of(all).expect("the full set is always evaluated");
    // Leave-one-out: R_int(empty) = 1/n, sample_uniqueness(empty) = [n = 1].
    let without = |a: usize| {
        let m = all & !(1 << a);
        if m == 0 {
            (1.0 / nf, f64::from(u8::from(n == 1)))
        } else {
            let s = of(m).expect("subsets of size q-1 are always evaluated");
            (s.classes as f64 / nf, s.uniques as f64 / nf)
        }
    };
    let deltas: Vec<(f64, f64)> = (0..q)
        .map(|a| {
            let (r, u) = without(a);
            // (R_int, uniqueness) of A minus a; the deltas are >= 0.
            (whole.uniques as f64 / nf - u, whole.classes as f64 / nf - r)
        })
        .collect();
    let total: f64 = deltas.iter().map(|d| d.1).sum();
    for (a, name) in qi.iter().enumerate() {
        let (du, dr) = deltas[a];
        let sub = Context { scope: Scope { attribute: Some(name.clone()), ..ctx.scope.clone() }, ..ctx.clone() };
        let share = if total > 0.0 { json!(dr / total) } else { json!(null) };
        out.push(sub.ok("qi_contribution", json!({ "delta_uniqueness": du, "delta_r_internal": dr, "share": share })));
    }
    // Minimal subsets with a unique record: no evaluated proper subset singles anyone out.
    let singling: Vec<&SubsetStats> = stats.iter().filter(|s| s.uniques > 0).collect();
    let minimal: Vec<_> = singling
        .iter()
        .filter(|s| !singling.iter().any(|t| t.mask != s.mask && t.mask & s.mask == t.mask))
        .map(|s| json!({ "subset": names(s.mask), "uniques": s.uniques, "share": s.uniques as f64 / nf }))
        .collect();
    out.push(ctx.ok("qi_singling_out", minimal).with_details(json!({ "evaluated_subsets": stats.len(), "full_lattice": q <= FULL_LATTICE_MAX_QIS })));
    out
}
