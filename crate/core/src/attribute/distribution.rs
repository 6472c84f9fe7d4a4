//! The sensitive-attribute distributions of attribute-risk.md Sec 1: `Q` over the records in
//! scope and `P_C` per class (under `wildcard`, per key over its compatible records, weighted
//! by `omega`).

use super::SensitiveSummary;
use crate::ingest::cell::parse_num;
use crate::table::classes::ClassTable;
use crate::table::classes::MissingPolicy;
use crate::table::compatible;
use crate::table::dictionary::{Dictionary, is_blank};

/// The SA distribution of one class, borrowed from [`Distributions`].
#[derive(Debug, Clone, Copy)]
pub struct ClassDist<'a> {
    /// The class (key) index in the class table.
    pub class: u32,
    /// The class's own records in `R_s`.
    pub records: u64,
    /// `(value, records)` of the class's own records, ascending value code.
    pub own: &'a [(u32, u64)],
    /// `(value, weight)` of the class distribution (under `wildcard` over its compatible
    /// records), ascending value code; weights sum to `total`.
    pub counts: &'a [(u32, f64)],
    /// Sum of the weights.
    pub total: f64,
}

impl ClassDist<'_> {
    /// `P_C(v)`.
    pub fn p(&self, v: u32) -> f64 {
        self.counts.binary_search_by_key(&v, |c| c.0).map_or(0.0, |i| self.counts[i].1 / self.total)
    }
}

/// Where one class's entries lie in the flat arrays.
#[derive(Debug, Clone, Copy)]
struct Span {
    class: u32,
    records: u64,
    own: (usize, usize),
    counts: (usize, usize),
    total: f64,
}

/// The SA column of the original table `O`, the reference of `t_reference = original`
/// (attribute-risk.md Sec 1): its values and the rows per code.
#[derive(Debug, Clone, Copy)]
pub struct Reference<'a> {
    /// The column's values.
    pub values: &'a Dictionary,
    /// Rows of `O` per code of `values` (blanks included; [`Distributions::of`] leaves them
    /// out under policy `drop`, as it leaves them out of `R_s`).
    pub counts: &'a [u64],
}

/// What the user declared about an SA, for its distributions.
#[derive(Debug, Clone, Copy, Default)]
pub struct Declared<'a> {
    /// The labels of an ordinal SA in their declared order (README Sec 4.1).
    pub order: Option<&'a [String]>,
    /// `Q` from the original table instead of the release.
    pub reference: Option<Reference<'a>>,
}

/// `Q`, the classes' distributions, and the order of the values for the ordered distance.
/// The classes' entries live in two flat arrays (no allocation per class).
pub struct Distributions {
    /// The SA's values: the release's, then (with `t_reference = original`) those only `O` has.
    pub values: Dictionary,
    /// Records per value code over `R_s` (index = code).
    pub q_counts: Vec<u64>,
    /// `n_s`.
    pub n_s: u64,
    /// The counts `Q` is made of (index = code): `q_counts`, or `O`'s rows per value with
    /// `t_reference = original`.
    pub q_ref: Vec<u64>,
    /// The sum of `q_ref`.
    pub q_total: u64,
    /// Whether `Q` comes from the original table (`t_reference = original`).
    pub from_original: bool,
    /// `-ln Q(v)` (index = code), computed once rather than per class.
    pub neg_ln_q: Vec<f64>,
    /// `|ln(1 / Q(v))|` (index = code): the delta of a class whose records all hold `v`
    /// (`P = 1`: every class of one record), computed once rather than per class.
    pub delta_whole: Vec<f64>,
    spans: Vec<Span>,
    own: Vec<(u32, u64)>,
    counts: Vec<(u32, f64)>,
    /// Codes of `V` (values occurring in `R_s`, and in `O` with `t_reference = original`) in
    /// ascending order for the ordered distance: numeric values by value, ordinal ones in
    /// their declared order, else by code point; blanks last (`MISSING` before `SUPPRESSED`).
    pub order: Vec<u32>,
    /// Whether `order` is numeric.
    pub numeric: bool,
    /// Whether `order` is the declared order of an ordinal SA.
    pub ordinal: bool,
    /// Whether a numeric-looking SA holds ranges or masks (so it is treated as categorical).
    pub generalized: bool,
}

impl Distributions {
    /// `Q(v)`.
    pub fn q(&self, v: u32) -> f64 {
        self.q_ref[v as usize] as f64 / self.q_total as f64
    }

    /// The value of a code as reports show it (`None` for `MISSING`).
    pub fn display(&self, v: u32) -> Option<&str> {
        self.values.display(v)
    }

    /// The label a hierarchy or a declared order names a value by: its text, `*` for
    /// `SUPPRESSED`, `""` for `MISSING`.
    pub fn label(&self, v: u32) -> &str {
        self.values.display(v).unwrap_or("")
    }

    /// The classes with records in `R_s`.
    pub fn classes(&self) -> impl Iterator<Item = ClassDist<'_>> + '_ {
        self.spans.iter().map(|s| ClassDist {
            class: s.class,
            records: s.records,
            own: &self.own[s.own.0..s.own.1],
            counts: &self.counts[s.counts.0..s.counts.1],
            total: s.total,
        })
    }

    /// Builds the distributions of one SA over the class table; `Err` holds the labels of an
    /// ordinal SA that its declared order lacks (`ordinal_label_unknown`, README Sec 4.1).
    pub fn of(sa: &SensitiveSummary, table: &ClassTable, alpha: f64, declared: Declared<'_>) -> Result<Distributions, Vec<String>> {
        let mut values = sa.values.clone();
        let mut q_counts = vec![0u64; sa.values.len()];
        let by_class = sa.pairs.sorted();
        // A span per class with records: at most the classes (growing it copied up to twice its
        // size, 60 MB for a million classes).
        let mut spans: Vec<Span> = Vec::with_capacity(table.len());
        let mut own: Vec<(u32, u64)> = Vec::with_capacity(by_class.len());
        for &(c, v, n) in by_class {
            let n = u64::from(n);
            q_counts[v as usize] += n;
            own.push((v, n));
            match spans.last_mut() {
                Some(s) if s.class == c => {
                    s.own.1 += 1;
                    s.records += n;
                }
                _ => spans.push(Span { class: c, records: n, own: (own.len() - 1, own.len()), counts: (0, 0), total: 0.0 }),
            }
        }
        let counts = if table.policy() == MissingPolicy::Wildcard {
            widen_wildcard(&mut spans, &own, table, alpha)
        } else {
            for s in &mut spans {
                (s.counts, s.total) = (s.own, s.records as f64);
            }
            own.iter().map(|&(v, n)| (v, n as f64)).collect()
        };
        let n_s: u64 = q_counts.iter().sum();
        let q_ref = match declared.reference {
            None => q_counts.clone(),
            Some(r) => {
                let to_joint = values.absorb(r.values);
                q_counts.resize(values.len(), 0);
                let mut q = vec![0u64; values.len()];
                for (c, &n) in r.counts.iter().enumerate() {
                    if !(is_blank(c as u32) && table.policy() == MissingPolicy::Drop) {
                        q[to_joint[c] as usize] += n;
                    }
                }
                q
            }
        };
        let q_total: u64 = q_ref.iter().sum();
        let neg_ln_q = q_ref.iter().map(|&c| -libm::log(c as f64 / q_total as f64)).collect();
        let delta_whole = q_ref.iter().map(|&c| libm::log(1.0 / (c as f64 / q_total as f64)).abs()).collect();
        let present: Vec<u32> = (0..q_counts.len() as u32).filter(|&v| q_counts[v as usize] > 0 || q_ref[v as usize] > 0).collect();
        let (order, numeric, generalized) = match declared.order {
            Some(labels) => (declared_order(&values, present, labels)?, false, false),
            None => order(&values, present),
        };
        let ordinal = declared.order.is_some();
        let from_original = declared.reference.is_some();
        Ok(Distributions {
            values,
            q_counts,
            n_s,
            q_ref,
            q_total,
            from_original,
            neg_ln_q,
            delta_whole,
            spans,
            own,
            counts,
            order,
            numeric,
            ordinal,
            generalized,
        })
    }
}

/// Under `wildcard` the class of a key is every compatible record, weighted by `omega`
/// (the own records 1, the other complete keys' 1, the other blank keys' `alpha`); summed by
/// blank pattern ([`compatible::others`]), not over every pair of keys.
fn widen_wildcard(spans: &mut [Span], own: &[(u32, u64)], table: &ClassTable, alpha: f64) -> Vec<(u32, f64)> {
    let keys: Vec<Vec<u32>> = spans.iter().map(|s| table.key(s.class as usize)).collect();
    let mass: Vec<compatible::Counts> = spans.iter().map(|s| compatible::Counts(own[s.own.0..s.own.1].iter().map(|&(v, n)| (v, n as i64)).collect())).collect();
    let others = compatible::others(&keys, &mass);
    let mut counts = Vec::new();
    for (span, o) in spans.iter_mut().zip(others) {
        let mut merged: Vec<(u32, u64, u64, u64)> = own[span.own.0..span.own.1].iter().map(|&(v, n)| (v, n, 0, 0)).collect();
        merged.extend(o.complete.0.iter().map(|&(v, n)| (v, 0, n as u64, 0)));
        merged.extend(o.blank.0.iter().map(|&(v, n)| (v, 0, 0, n as u64)));
        merged.sort_unstable_by_key(|m| m.0);
        let start = counts.len();
        for m in merged.chunk_by(|a, b| a.0 == b.0) {
            let (own, complete, blank) = m.iter().fold((0, 0, 0), |s, m| (s.0 + m.1, s.1 + m.2, s.2 + m.3));
            counts.push((m[0].0, own as f64 + complete as f64 + alpha * blank as f64));
        }
        span.counts = (start, counts.len());
        span.total = counts[start..].iter().map(|c| c.1).sum();
    }
    counts
}

/// The declared order of an ordinal SA (attribute-risk.md Sec 3): the values of `V` by their
/// place among `labels`, blanks last (`MISSING` before `SUPPRESSED`) unless declared; `Err`
/// with the non-blank values not declared.
fn declared_order(values: &Dictionary, present: Vec<u32>, labels: &[String]) -> Result<Vec<u32>, Vec<String>> {
    let place = |v: u32| labels.iter().position(|l| Some(l.as_str()) == values.display(v));
    let unknown: Vec<String> = present.iter().filter(|&&v| !is_blank(v) && place(v).is_none()).map(|&v| values.text(v).to_string()).collect();
    if !unknown.is_empty() {
        return Err(unknown);
    }
    let mut ordered = present;
    // Undeclared values are the blanks: after the declared ones, by code (`MISSING` first).
    ordered.sort_by_key(|&v| place(v).map_or((1, v as usize), |i| (0, i)));
    Ok(ordered)
}

/// The order of `V` for the ordered distance (attribute-risk.md Sec 3).
fn order(values: &Dictionary, present: Vec<u32>) -> (Vec<u32>, bool, bool) {
    let (blanks, filled): (Vec<u32>, Vec<u32>) = present.into_iter().partition(|&v| is_blank(v));
    let nums: Option<Vec<f64>> = filled.iter().map(|&v| parse_num(values.display(v).unwrap_or(""))).collect();
    let norm = crate::ingest::cell::Normaliser::default();
    let generalized = nums.is_none()
        && filled.iter().all(|&v| {
            let t = values.display(v).unwrap_or("");
            parse_num(t).is_some() || crate::ingest::cell::parse_numeric_range(t, &norm).is_some()
        })
        && !filled.is_empty();
    let mut ordered: Vec<u32> = filled.clone();
    match &nums {
        Some(x) => {
            let mut idx: Vec<usize> = (0..filled.len()).collect();
            idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then_with(|| values.sort_key(filled[a]).cmp(&values.sort_key(filled[b]))));
            ordered = idx.into_iter().map(|i| filled[i]).collect();
        }
        None => ordered.sort_by(|&a, &b| values.sort_key(a).cmp(&values.sort_key(b))),
    }
    ordered.extend(blanks);
    (ordered, nums.is_some() && !filled.is_empty(), generalized)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::ingest::cell::Cell;
    use crate::table::classes::omega;

    /// The definition (this module's code before the sums by blank pattern): per class, its
    /// own records, then every other class through `omega`, in class order.
    fn by_pairs(d: &Distributions, table: &ClassTable, alpha: f64) -> Vec<Vec<(u32, f64)>> {
        let classes: Vec<ClassDist<'_>> = d.classes().collect();
        let keys: Vec<Vec<u32>> = classes.iter().map(|c| table.key(c.class as usize)).collect();
        (0..classes.len())
            .map(|i| {
                let mut acc: std::collections::BTreeMap<u32, f64> = classes[i].own.iter().map(|&(v, n)| (v, n as f64)).collect();
                for j in (0..keys.len()).filter(|&j| j != i) {
                    let Some(w) = omega(&keys[i], &keys[j], MissingPolicy::Wildcard, alpha) else { continue };
                    for &(v, n) in classes[j].own {
                        *acc.entry(v).or_insert(0.0) += w * n as f64;
                    }
                }
                acc.into_iter().collect()
            })
            .collect()
    }

    /// A cell of a small alphabet: the two blanks and three values.
    fn cell(c: u8) -> Cell<'static> {
        match c {
            0 => Cell::Missing,
            1 => Cell::Suppressed,
            2 => Cell::text("a"),
            3 => Cell::text("b"),
            _ => Cell::text("c"),
        }
    }

    proptest! {
        #[test]
        fn wildcard_distributions_are_those_over_every_pair_of_classes(
            rows in prop::collection::vec((prop::collection::vec(0u8..5, 3), 0u8..5), 0..60),
            alpha in prop_oneof![Just(0.0), Just(0.5), Just(1.0), 0.0..1.0f64],
        ) {
            let mut table = ClassTable::new(3, MissingPolicy::Wildcard, false, false);
            let mut sa = SensitiveSummary::new(MissingPolicy::Wildcard, false);
            for (key, value) in &rows {
                let codes: Vec<u32> = key.iter().enumerate().map(|(a, &c)| table.code(a, cell(c))).collect();
                let value = sa.code(cell(*value)).unwrap();
                if let Some(class) = table.absorb(&codes, 0.0).unwrap() {
                    sa.absorb(class, value, None);
                }
            }
            sa.seal();
            let d = Distributions::of(&sa, &table, alpha, Declared::default()).unwrap();
            let got: Vec<Vec<(u32, f64)>> = d.classes().map(|c| c.counts.to_vec()).collect();
            let want = by_pairs(&d, &table, alpha);
            // Exact where the weights add up without rounding (alpha 0, 1/2, 1); otherwise the
            // pairs round at each step and the sums by pattern once.
            let exact = [0.0, 0.5, 1.0].contains(&alpha);
            prop_assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                prop_assert_eq!(g.iter().map(|c| c.0).collect::<Vec<_>>(), w.iter().map(|c| c.0).collect::<Vec<_>>());
                for (x, y) in g.iter().zip(w) {
                    prop_assert!(if exact { x.1 == y.1 } else { (x.1 - y.1).abs() <= 1e-12 * y.1.max(1.0) }, "{:?} != {:?}", g, w);
                }
            }
            for (c, w) in d.classes().zip(&want).filter(|_| exact) {
                prop_assert_eq!(c.total, w.iter().map(|c| c.1).sum::<f64>());
            }
        }
    }

    #[test]
    fn many_classes_with_few_blank_patterns_take_time_in_proportion_to_the_classes() {
        // 60,000 complete keys and 60 with a blank: every pair of classes would be 3.6e9
        // comparisons (minutes); by blank pattern a few hash look-ups a class (well under a
        // second, even in a debug build: the bound leaves a wide margin).
        let mut table = ClassTable::new(2, MissingPolicy::Wildcard, false, false);
        let mut sa = SensitiveSummary::new(MissingPolicy::Wildcard, false);
        let mut add = |x: Cell<'_>, y: Cell<'_>, v: &str| {
            let key = [table.code(0, x), table.code(1, y)];
            let value = sa.code(Cell::text(v)).unwrap();
            let class = table.absorb(&key, 0.0).unwrap().unwrap();
            sa.absorb(class, value, None);
        };
        for i in 0..60_000 {
            add(Cell::text(&(i % 300).to_string()), Cell::text(&(i / 300).to_string()), if i % 2 == 0 { "a" } else { "b" });
        }
        for i in 0..60 {
            add(Cell::text(&i.to_string()), Cell::Missing, "c");
        }
        sa.seal();
        let start = std::time::Instant::now();
        let d = Distributions::of(&sa, &table, 1.0, Declared::default()).unwrap();
        assert!(start.elapsed() < std::time::Duration::from_secs(20), "{:?}", start.elapsed());
        let code = |t: &str| d.values.lookup(t).unwrap();
        let classes: Vec<ClassDist<'_>> = d.classes().collect();
        // Class ("0", "0") holds an "a" and matches ("0", MISSING), a "c".
        assert_eq!(classes[0].counts, [(code("a"), 1.0), (code("c"), 1.0)]);
        // ("0", MISSING) matches the 200 complete keys ("0", y): x = 0 comes with even rows only.
        assert_eq!(classes[60_000].counts, [(code("a"), 200.0), (code("c"), 1.0)]);
    }
}
