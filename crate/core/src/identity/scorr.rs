//! SCORR's uniqueness and uniformity risks and the person-based k (spec identity-risk.md
//! Sec 9 and Sec 2 `k_anonymity_person`), from the finished class table and, for event-level
//! data, the person summary.

use serde_json::{Value, json};

use super::MissingPolicy;
use super::persons::{PairCounts, Persons};
use crate::figures::{IdentityFigures, finite};
use crate::hash::{Map, map};
use crate::metric::{Context, MetricResult, Scope, Status, min_mean_max};
use crate::table::classes::{ClassTable, omega};
use crate::table::compatible::{Counts, Mass, others};
use crate::table::dictionary::is_blank;

/// How many keys at the maximum `details.argmax` lists.
const ARGMAX: usize = 5;

/// min / record-weighted mean / max of a per-record value, and the first keys (in `order`)
/// at the max, so the details do not depend on row order.
struct Stats<'o, K> {
    min: f64,
    max: f64,
    sum: f64,
    records: u64,
    argmax: Vec<K>,
    order: &'o dyn Fn(&K, &K) -> std::cmp::Ordering,
}

impl<'o, K: Copy> Stats<'o, K> {
    fn new(order: &'o dyn Fn(&K, &K) -> std::cmp::Ordering) -> Self {
        Stats { min: f64::INFINITY, max: f64::NEG_INFINITY, sum: 0.0, records: 0, argmax: Vec::new(), order }
    }

    fn add(&mut self, key: K, value: f64, records: u64) {
        self.min = self.min.min(value);
        if value > self.max {
            self.max = value;
            self.argmax.clear();
        }
        // (A full list whose last key comes before this one keeps it out: one comparison, the
        // usual case among the many classes of the largest value.)
        let full_before = |argmax: &[K]| argmax.len() == ARGMAX && argmax.last().is_some_and(|last| (self.order)(last, &key).is_lt());
        if value == self.max && !full_before(&self.argmax) {
            let at = self.argmax.partition_point(|k| (self.order)(k, &key).is_lt());
            if at < ARGMAX {
                self.argmax.insert(at, key);
                self.argmax.truncate(ARGMAX);
            }
        }
        self.sum += value * records as f64;
        self.records += records;
    }

    fn value(&self) -> Value {
        min_mean_max(self.min, self.sum / self.records as f64, self.max)
    }
}

/// `R_uf` over records: `f_X(i, pers) / f_X(i)`, records grouped by (key, person).
fn uniformity<'o, K: Copy>(
    pairs: &PairCounts,
    key_of: impl Fn(u32) -> K,
    codes: impl Fn(u32) -> Vec<u32>,
    f: impl Fn(u32) -> f64,
    (policy, alpha): (MissingPolicy, f64),
    order: &'o dyn Fn(&K, &K) -> std::cmp::Ordering,
) -> Stats<'o, K> {
    let mut by_person: Map<u32, Vec<(u32, u32)>> = map();
    for (&(k, p), &c) in pairs {
        by_person.entry(p).or_default().push((k, c));
    }
    let mut people: Vec<_> = by_person.into_iter().collect();
    people.sort_unstable_by_key(|(p, _)| *p);
    let mut stats = Stats::new(order);
    for (_, mut keys) in people {
        keys.sort_unstable();
        let decoded: Vec<Vec<u32>> = keys.iter().map(|&(k, _)| codes(k)).collect();
        for (x, &(k, c)) in keys.iter().enumerate() {
            let own: f64 = keys.iter().zip(&decoded).filter_map(|(&(_, cj), kj)| omega(&decoded[x], kj, policy, alpha).map(|w| w * f64::from(cj))).sum();
            stats.add(key_of(k), own / f(k), u64::from(c));
        }
    }
    stats
}

/// Inputs shared by the SCORR metrics.
pub struct ScorrInput<'a> {
    /// The class table.
    pub table: &'a ClassTable,
    /// `f` per class.
    pub f: &'a [f64],
    /// The person summary (event-level data only).
    pub persons: Option<&'a Persons>,
    /// `alpha` of the wildcard policy.
    pub alpha: f64,
    /// QI names.
    pub qi: &'a [String],
}

impl ScorrInput<'_> {
    fn values(&self, class: usize) -> Value {
        let m: serde_json::Map<String, Value> =
            self.qi.iter().enumerate().map(|(a, name)| (name.clone(), json!(self.table.dict(a).display(self.table.code_at(class, a))))).collect();
        Value::Object(m)
    }

    /// `f_{a}(v)` per value code of QI `a` (Sec 1.3 with X = {a}) from its `records` per code
    /// ([`ClassTable::value_records`]); `None` for a code no record in scope has.
    fn value_counts(&self, records: &[u64]) -> Vec<Option<f64>> {
        let t = self.table;
        let mut counts: Vec<Option<f64>> = records.iter().map(|&r| (r > 0).then_some(r as f64)).collect();
        if t.policy() == MissingPolicy::Wildcard {
            let n = t.records() as f64;
            let blanks: f64 = counts.iter().enumerate().filter(|(v, _)| is_blank(*v as u32)).filter_map(|(_, c)| *c).sum();
            for (v, c) in counts.iter_mut().enumerate() {
                // A blank value is an all-blank key (f = n); others also match the blanks.
                if let Some(c) = c {
                    *c = if is_blank(v as u32) { n } else { *c + self.alpha * blanks };
                }
            }
        }
        counts
    }
}

/// Whole class sizes up to this take their logarithm from a table in [`metrics`].
const LN_TABLE: usize = 1024;

/// `scorr_uniqueness_risk`, `scorr_uniformity_risk_qi`, one `scorr_uniformity_risk_attr` per
/// QI, and `k_anonymity_person`; with their maxima and the person-based k as figures (the
/// other fields left to the caller).
pub fn metrics(ctx: &Context, s: &ScorrInput<'_>) -> (Vec<MetricResult>, IdentityFigures) {
    let t = s.table;
    let n = t.records() as f64;
    let policy = t.policy();
    let by_class = |a: &usize, b: &usize| t.cmp_values(*a, *b);
    let mut uq = Stats::new(&by_class);
    let ln_n = libm::log(n);
    // Class sizes are mostly small whole numbers: their logarithms from a table (the same bits).
    let ln_small: Vec<f64> = (0..=LN_TABLE).map(|k| libm::log(k as f64)).collect();
    let ln = |f: f64| if f.fract() == 0.0 && (0.0..=LN_TABLE as f64).contains(&f) { ln_small[f as usize] } else { libm::log(f) };
    for i in 0..t.len() {
        let r = if n <= 1.0 { 1.0 } else { 1.0 - ln(s.f[i]) / ln_n };
        uq.add(i, r, t.count(i));
    }
    let argmax = |st: &Stats<'_, usize>| st.argmax.iter().map(|&i| s.values(i)).collect::<Vec<_>>();
    let mut out = vec![ctx.ok("scorr_uniqueness_risk", uq.value()).with_details(json!({ "argmax": argmax(&uq) }))];
    let mut figures = IdentityFigures { scorr_uniqueness_max: finite(uq.max), ..IdentityFigures::default() };
    let uf = match s.persons {
        None => {
            let mut st = Stats::new(&by_class);
            for i in 0..t.len() {
                st.add(i, 1.0 / s.f[i], t.count(i));
            }
            st
        }
        Some(p) => uniformity(&p.by_class, |k| k as usize, |k| t.key(k as usize), |k| s.f[k as usize], (policy, s.alpha), &by_class),
    };
    out.push(ctx.ok("scorr_uniformity_risk_qi", uf.value()).with_details(json!({ "argmax": argmax(&uf) })));
    figures.scorr_uniformity_qi_max = finite(uf.max);
    let records = t.value_records();
    for (a, name) in s.qi.iter().enumerate() {
        let counts = s.value_counts(&records[a]);
        let by_value = |x: &u32, y: &u32| t.value_rank(a, *x).cmp(&t.value_rank(a, *y));
        let st = match s.persons {
            None => {
                let mut st = Stats::new(&by_value);
                let records = &records[a];
                for (v, f) in counts.iter().enumerate() {
                    if let Some(f) = f {
                        st.add(v as u32, 1.0 / f, records[v]);
                    }
                }
                st
            }
            Some(p) => uniformity(&p.by_value[a], |v| v, |v| vec![v], |v| counts[v as usize].unwrap_or(0.0), (policy, s.alpha), &by_value),
        };
        let ctx_a = Context { scope: Scope { attribute: Some(name.clone()), ..ctx.scope.clone() }, ..ctx.clone() };
        let at_max: Vec<Value> = st.argmax.iter().map(|&v| json!(t.dict(a).display(v))).collect();
        out.push(ctx_a.ok("scorr_uniformity_risk_attr", st.value()).with_details(json!({ "argmax_values": at_max })));
        figures.scorr_uniformity_attr_max.push(finite(st.max));
    }
    out.push(match s.persons {
        None => ctx.without_value("k_anonymity_person", Status::NotApplicable, "person_level_data"),
        Some(p) => {
            let (r, k) = k_person(ctx, s, p);
            figures.k_anonymity_person = Some(k as f64);
            r
        }
    });
    (out, figures)
}

/// `k_anonymity_person`: the fewest distinct persons in a class (`wildcard`: in `C(i)`), and
/// that k.
fn k_person(ctx: &Context, s: &ScorrInput<'_>, p: &Persons) -> (MetricResult, usize) {
    let t = s.table;
    let mut persons_of: Vec<Vec<u32>> = vec![Vec::new(); t.len()];
    for &(c, person) in p.by_class.keys() {
        persons_of[c as usize].push(person);
    }
    let mut k = usize::MAX;
    if t.policy() != MissingPolicy::Wildcard {
        k = persons_of.iter().map(Vec::len).min().unwrap_or(0);
    }
    if k == usize::MAX {
        // The persons of `C(i)`: the class's own, and those of the compatible classes, summed
        // by blank pattern (a person counted once per class it is in).
        let keys: Vec<Vec<u32>> = (0..t.len()).map(|i| t.key(i)).collect();
        let own: Vec<Counts> = persons_of.iter().map(|ps| Counts(ps.iter().map(|&p| (p, 1)).collect())).collect();
        let sums = others(&keys, &own);
        for (mut seen, o) in own.into_iter().zip(sums) {
            seen.add(&o.complete);
            seen.add(&o.blank);
            seen.finish();
            k = k.min(seen.0.len());
        }
    }
    let several = p.in_several_classes();
    let r = ctx.ok("k_anonymity_person", k).with_details(json!({ "persons": p.count(), "persons_in_several_classes": several }));
    (if several > 0 { r.with_warning("person_in_several_classes") } else { r }, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_keeps_the_first_keys_in_order_of_the_largest_value_in_any_order_of_adding() {
        let order = |a: &u32, b: &u32| a.cmp(b);
        for round in 0..4u32 {
            // A shuffle of the keys (a step coprime to 60), each once at the largest value and
            // once below it.
            let keys: Vec<u32> = (0..60).map(|i| (i * 7 + round * 11) % 60).collect();
            let mut st = Stats::new(&order);
            for &k in &keys {
                st.add(k, if k % 3 == 0 { 0.5 } else { 1.0 }, 1);
                st.add(k + 100, 0.25, 1);
            }
            assert_eq!(st.argmax, vec![1, 2, 4, 5, 7], "round {round}");
            assert_eq!((st.min, st.max, st.records), (0.25, 1.0, 120));
            // A larger value starts the list again.
            st.add(200, 2.0, 1);
            assert_eq!(st.argmax, vec![200]);
        }
    }
}
