//! Similarity of the original and released distributions (spec utility.md Sec 6; \[RUT\]
//! Sec 3.2.2), unpaired.
//!
//! Frequency vectors on a common support (Sec 6.1), slot 0 = `BLANK`, slot 1 = `UNMATCHED`:
//! - categorical: one slot per value of `Dom_O`; `p(v)` = share of `O` rows; each `P` cell
//!   spreads `1/|pre(t)|` over `pre(t)` ([`preimage`](super::preimage)), or goes to
//!   `UNMATCHED` when `pre(t)` is empty;
//! - numeric and date: `G` grid points of `[D_lo, D_hi]`, `B = min(G, B_max)`,
//!   `wg = ceil(G/B)`, `B = ceil(G/wg)` bins; `EXACT x` goes to bin
//!   `clamp(floor(k(x)/wg + 1e-9), 0, B-1)`, `k(x) = (x - D_lo)/res`; a released range is
//!   clipped to the domain and spread uniformly over its grid points (none: all on the bin of
//!   its clamped lower end); `INVALID` (and any non-`EXACT` original) is `UNMATCHED`. Grid
//!   points are counted from `D_lo` (`k(x)`), as the reference implementation does.
//!
//! ```text
//! cosine_similarity  = clamp(p.q / (|p| |q|), 0, 1)          zero vector -> not_applicable
//! jaccard_similarity = sum min(p, q) / sum max(p, q)          0/0 -> not_applicable
//! jaccard_set        = |D_O ∩ D_P| / |D_O ∪ D_P|              distinct non-blank strings; both empty -> 1
//! ```
//!
//! | id | value | details |
//! |---|---|---|
//! | `cosine_similarity`, `jaccard_similarity` | in `[0,1]` | categorical: `support` (`|Dom_O|`), `p_blank`, `q_blank`, `p_unmatched`, `q_unmatched`, and with `support <= 50` the maps `p`, `q` (value -> share); numeric/date: `G`, `B`, `wg`, the blank and unmatched shares, and with `B <= 100` the arrays `p`, `q` (share per bin); both: `distribution` = `{labels, original, released}` for a chart (bins in order, labelled by their first and last grid value; categories by their larger share, at most 30 and "other"; then "blank" and "unmatched" when they hold rows) |
//! | `jaccard_set` | in `[0,1]` | `original` (`|D_O|`), `released` (`|D_P|`), `common` |
//!
//! No rows in a table: `empty_input`; a numeric attribute without a domain: `not_applicable`
//! (`no_domain`).
//!
//! With a `weight` column (Sec 6.1 "counts are weighted"), every count above is the sum of the
//! rows' weights (a table without the column counts each row 1) and `p`, `q` are divided by
//! the tables' total weights; details add `weighted` `{original, released}` and
//! `weight_original`, `weight_released`. A weight that is not a finite number >= 0 in `O`:
//! `error` (`invalid_weight`); a total weight of 0: `not_applicable` (`zero_weight`).
//! `jaccard_set` compares value sets and is not weighed.

use serde_json::{Map as JsonMap, Value, json};

use crate::ingest::cell::{Interval, civil_from_days};
use crate::metric::{MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::dictionary::is_blank;
use crate::table::kind::Kind;
use crate::utility::attribute::{Attribute, Typed, grid_count};
use crate::utility::rut::Subject;

/// Slot of `BLANK`.
pub const BLANK: usize = 0;
/// Slot of `UNMATCHED`.
pub const UNMATCHED: usize = 1;
/// Largest support whose `p` and `q` are listed in the details.
pub const LISTED_VALUES: usize = 50;
/// Largest number of bins whose `p` and `q` are listed in the details.
pub const LISTED_BINS: usize = 100;

/// The frequency vectors of Sec 6.1 with what the details show.
#[derive(Debug, Clone)]
pub struct Vectors {
    /// Shares of `O`'s rows per slot.
    pub p: Vec<f64>,
    /// Shares of `P`'s rows per slot.
    pub q: Vec<f64>,
    /// Support, geometry and (small) vectors.
    pub details: Value,
}

fn shares(counts: &mut [f64], n: f64) {
    counts.iter_mut().for_each(|c| *c /= n);
}

/// The total mass of `O` and of `P` (rows, or weights summed over the codes in `s.order`).
fn totals(s: &Subject<'_>) -> (f64, f64) {
    match &s.a.masses {
        None => (s.n_o as f64, s.n_p as f64),
        Some(m) => (neumaier(s.order.iter().map(|&c| m.o[c as usize])), neumaier(s.order.iter().map(|&c| m.p[c as usize]))),
    }
}

/// Adds the tables' weights to the details, when the counts are weighed.
fn weights_into(details: &mut Value, s: &Subject<'_>) {
    if let Some(m) = &s.a.masses {
        let (o, p) = totals(s);
        details["weighted"] = json!({ "original": m.o_weighted, "released": m.p_weighted });
        details["weight_original"] = json!(o);
        details["weight_released"] = json!(p);
    }
}

/// The vectors of a categorical attribute (Sec 6.1).
pub fn categorical(s: &Subject<'_>) -> Vectors {
    let a = s.a;
    let dom: Vec<u32> = s.order.iter().copied().filter(|&c| a.in_dom_o(c)).collect();
    let mut slot = vec![usize::MAX; a.values.len()];
    dom.iter().enumerate().for_each(|(k, &c)| slot[c as usize] = k + 2);
    let (mut p, mut q) = (vec![0.0; dom.len() + 2], vec![0.0; dom.len() + 2]);
    for &c in &s.order {
        let (ko, kp) = (a.o_mass(c), a.p_mass(c));
        if ko > 0.0 {
            p[if is_blank(c) { BLANK } else { slot[c as usize] }] += ko;
        }
        if kp > 0.0 {
            let set = s.pre.as_ref().map_or(&[][..], |pre| pre.set(c));
            if is_blank(c) {
                q[BLANK] += kp;
            } else if set.is_empty() {
                q[UNMATCHED] += kp;
            } else {
                let share = kp / set.len() as f64;
                set.iter().for_each(|&o| q[slot[o as usize]] += share);
            }
        }
    }
    let (n_o, n_p) = totals(s);
    shares(&mut p, n_o);
    shares(&mut q, n_p);
    let mut details = json!({
        "support": dom.len(), "n_original": s.n_o, "n_released": s.n_p, "p_blank": p[BLANK], "q_blank": q[BLANK],
        "p_unmatched": p[UNMATCHED], "q_unmatched": q[UNMATCHED],
    });
    weights_into(&mut details, s);
    if dom.len() <= LISTED_VALUES {
        let listed =
            |v: &[f64]| Value::Object(dom.iter().enumerate().map(|(k, &c)| (a.values.text(c).to_string(), json!(v[k + 2]))).collect::<JsonMap<_, _>>());
        details["p"] = listed(&p);
        details["q"] = listed(&q);
    }
    let labels: Vec<String> = dom.iter().map(|&c| a.values.text(c).to_string()).collect();
    details["distribution"] = distribution(labels, &p, &q, true);
    Vectors { p, q, details }
}

/// `(G, B, wg)` of Sec 6.1 for a domain `[lo, hi]`, resolution `res` and `B_max`.
pub fn geometry(lo: f64, hi: f64, res: f64, b_max: usize) -> Option<(i64, i64, i64)> {
    let g = grid_count(Interval::closed(0.0, hi - lo), res).0;
    if g == 0 {
        return None;
    }
    let b = g.min(b_max.max(1) as i64);
    let wg = (g + b - 1) / b;
    Some((g, (g + wg - 1) / wg, wg))
}

/// The vectors of a numeric or date attribute (Sec 6.1); `Err` without a domain.
pub fn numeric(s: &Subject<'_>) -> Result<Vectors, &'static str> {
    let a = s.a;
    let (lo, hi) = a.domain.ok_or("no_domain")?;
    let (g, b, wg) = geometry(lo, hi, a.res, s.params.similarity_bins).ok_or("no_domain")?;
    let bin_of = |x: f64| 2 + ((x - lo) / (a.res * wg as f64) + 1e-9).floor().clamp(0.0, (b - 1) as f64) as usize;
    let (mut p, mut q) = (vec![0.0; b as usize + 2], vec![0.0; b as usize + 2]);
    for &c in &s.order {
        let (ko, kp) = (a.o_mass(c), a.p_mass(c));
        let typed = a.typed[c as usize];
        if ko > 0.0 {
            p[match typed {
                _ if is_blank(c) => BLANK,
                Typed::Exact(x) => bin_of(x),
                _ => UNMATCHED,
            }] += ko;
        }
        if kp == 0.0 {
            continue;
        }
        match (typed, a.interval(c)) {
            _ if is_blank(c) => q[BLANK] += kp,
            (Typed::Exact(x), _) => q[bin_of(x)] += kp,
            (Typed::Range(_), Some(i)) => spread(&mut q, i, kp, (lo, hi), a.res, wg, &bin_of),
            _ => q[UNMATCHED] += kp,
        }
    }
    let (n_o, n_p) = totals(s);
    shares(&mut p, n_o);
    shares(&mut q, n_p);
    let mut details = json!({
        "G": g, "B": b, "wg": wg, "n_original": s.n_o, "n_released": s.n_p, "p_blank": p[BLANK], "q_blank": q[BLANK],
        "p_unmatched": p[UNMATCHED], "q_unmatched": q[UNMATCHED],
    });
    weights_into(&mut details, s);
    if b as usize <= LISTED_BINS {
        details["p"] = json!(p[2..]);
        details["q"] = json!(q[2..]);
    }
    let label = |x: f64| match a.kind {
        Kind::Date => civil_from_days(x.round() as i64),
        _ => format!("{:.*}", (-libm::log10(a.res)).round().max(0.0) as usize, x),
    };
    let labels = (0..b)
        .map(|k| {
            let first = lo + (k * wg) as f64 * a.res;
            let last = (lo + ((k + 1) * wg - 1) as f64 * a.res).min(hi);
            if wg == 1 { label(first) } else { format!("{}–{}", label(first), label(last)) }
        })
        .collect();
    details["distribution"] = distribution(labels, &p, &q, false);
    Ok(Vectors { p, q, details })
}

/// Most slots a categorical `details.distribution` lists before folding the rest into "other".
pub const SHOWN_VALUES: usize = 30;

/// `details.distribution` for the page's overlaid bars: `{labels, original, released}`, the
/// shares of `p` and `q` per slot (`labels[k]` names slot `k + 2`), then "blank" and
/// "unmatched" when they hold rows. Categorical slots are ordered by their larger share and
/// cut to [`SHOWN_VALUES`] plus "other"; bins keep their order.
fn distribution(labels: Vec<String>, p: &[f64], q: &[f64], categorical: bool) -> Value {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    if categorical {
        order.sort_by(|&i, &j| p[j + 2].max(q[j + 2]).total_cmp(&p[i + 2].max(q[i + 2])).then(labels[i].cmp(&labels[j])));
    }
    let (mut names, mut original, mut released) = (Vec::new(), Vec::new(), Vec::new());
    let mut other = (0.0, 0.0);
    for (rank, &i) in order.iter().enumerate() {
        if categorical && rank >= SHOWN_VALUES {
            other = (other.0 + p[i + 2], other.1 + q[i + 2]);
        } else {
            names.push(labels[i].clone());
            original.push(p[i + 2]);
            released.push(q[i + 2]);
        }
    }
    for (name, (x, y)) in [("other", other), ("blank", (p[BLANK], q[BLANK])), ("unmatched", (p[UNMATCHED], q[UNMATCHED]))] {
        if x > 0.0 || y > 0.0 {
            names.push(name.to_string());
            original.push(x);
            released.push(y);
        }
    }
    json!({ "labels": names, "original": original, "released": released })
}

/// Adds `count` released cells holding range `i` to `q`: clipped to the domain (a clipped side
/// closed), `1/c` per grid point, or everything on the bin of the clamped lower end if `c = 0`.
fn spread(q: &mut [f64], i: Interval, count: f64, (lo, hi): (f64, f64), res: f64, wg: i64, bin_of: &dyn Fn(f64) -> usize) {
    let (l, lc) = if i.lo < lo { (lo, true) } else { (i.lo, i.lo_closed) };
    let (h, hc) = if i.hi > hi { (hi, true) } else { (i.hi, i.hi_closed) };
    let (c, kmin, kmax) = grid_count(Interval { lo: l - lo, hi: h - lo, lo_closed: lc, hi_closed: hc }, res);
    if c == 0 {
        q[bin_of(i.lo.clamp(lo, hi))] += count;
        return;
    }
    for bin in kmin / wg..=kmax / wg {
        let overlap = kmax.min((bin + 1) * wg - 1) - kmin.max(bin * wg) + 1;
        q[2 + bin as usize] += count * overlap as f64 / c as f64;
    }
}

/// `clamp(p.q / (|p| |q|), 0, 1)`; `None` for a zero vector (\[RUT\] example
/// (1,2,3), (4,5,6): 0.9746318462).
pub fn cosine(p: &[f64], q: &[f64]) -> Option<f64> {
    let dot = neumaier(p.iter().zip(q).map(|(x, y)| x * y));
    let (np, nq) = (neumaier(p.iter().map(|x| x * x)).sqrt(), neumaier(q.iter().map(|x| x * x)).sqrt());
    (np > 0.0 && nq > 0.0).then(|| (dot / (np * nq)).clamp(0.0, 1.0))
}

/// Weighted Jaccard `sum min / sum max`; `None` for `0/0` (\[RUT\] example on indicator
/// vectors of {1,2,3,4} and {3,4,5,6}: 1/3).
pub fn weighted_jaccard(p: &[f64], q: &[f64]) -> Option<f64> {
    let min = neumaier(p.iter().zip(q).map(|(x, y)| x.min(*y)));
    let max = neumaier(p.iter().zip(q).map(|(x, y)| x.max(*y)));
    (max > 0.0).then(|| min / max)
}

/// `(|D_O|, |D_P|, |D_O ∩ D_P|)` of the distinct non-blank values.
pub fn value_sets(a: &Attribute) -> (usize, usize, usize) {
    let (mut o, mut p, mut common) = (0, 0, 0);
    for c in 2..a.values.len() {
        let (in_o, in_p) = (a.o_count[c] > 0, a.p_count[c] > 0);
        o += usize::from(in_o);
        p += usize::from(in_p);
        common += usize::from(in_o && in_p);
    }
    (o, p, common)
}

/// `|D_O ∩ D_P| / |D_O ∪ D_P|`, 1 when both are empty.
pub fn jaccard_set(o: usize, p: usize, common: usize) -> f64 {
    let union = o + p - common;
    if union == 0 { 1.0 } else { common as f64 / union as f64 }
}

/// `cosine_similarity`, `jaccard_similarity` and `jaccard_set` of one attribute, and the values
/// of the first two.
pub fn metrics(s: &Subject<'_>) -> (Vec<MetricResult>, [Option<f64>; 2]) {
    let (o, p, common) = value_sets(s.a);
    let set = s.ctx.ok("jaccard_set", jaccard_set(o, p, common)).with_details(json!({ "original": o, "released": p, "common": common }));
    let (n_o, n_p) = totals(s);
    let vectors = if s.n_o == 0 || s.n_p == 0 {
        Err((Status::EmptyInput, "no_records_in_scope"))
    } else if !(n_o.is_finite() && n_p.is_finite()) {
        Err((Status::Error, "invalid_weight"))
    } else if n_o <= 0.0 || n_p <= 0.0 {
        Err((Status::NotApplicable, "zero_weight"))
    } else if s.numeric() {
        numeric(s).map_err(|r| (Status::NotApplicable, r))
    } else {
        Ok(categorical(s))
    };
    let (mut out, values) = match vectors {
        Ok(v) => {
            let values = [cosine(&v.p, &v.q), weighted_jaccard(&v.p, &v.q)];
            let out = ["cosine_similarity", "jaccard_similarity"]
                .into_iter()
                .zip(values)
                .map(|(id, x)| match x {
                    Some(x) => s.ctx.ok(id, x).with_details(v.details.clone()),
                    None => s.ctx.without_value(id, Status::NotApplicable, "zero_vector").with_details(v.details.clone()),
                })
                .collect();
            (out, values.map(|x| x.and_then(crate::figures::finite)))
        }
        Err((status, reason)) => {
            (["cosine_similarity", "jaccard_similarity"].iter().map(|id| s.ctx.without_value(id, status, reason)).collect::<Vec<_>>(), [None; 2])
        }
    };
    out.push(set);
    (out, values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::kind::Kind;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::params::UtilityParams;
    use crate::utility::rut::preimage::tests::{attribute, row_pairs};

    #[test]
    fn worked_examples_of_rut() {
        // G7.1: cosine((1,2,3),(4,5,6)) = 0.9746318462; Jaccard({1,2,3,4},{3,4,5,6}) = 1/3.
        let c = cosine(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
        assert!((c - 0.974_631_846_197_076_2).abs() < 1e-12);
        let ind = |s: &[usize]| (1..=6).map(|v| f64::from(u8::from(s.contains(&v)))).collect::<Vec<f64>>();
        assert_eq!(weighted_jaccard(&ind(&[1, 2, 3, 4]), &ind(&[3, 4, 5, 6])), Some(1.0 / 3.0));
        assert_eq!(jaccard_set(4, 4, 2), 1.0 / 3.0);
        assert_eq!(jaccard_set(0, 0, 0), 1.0);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), None);
        assert_eq!(weighted_jaccard(&[0.0], &[0.0]), None);
    }

    #[test]
    fn g3_geometry() {
        assert_eq!(geometry(25.0, 91.0, 1.0, 100), Some((67, 67, 1)));
        assert_eq!(geometry(24400.0, 88020.0, 1.0, 100), Some((63621, 100, 637)));
        assert_eq!(geometry(0.0, 0.0, 1.0, 100), Some((1, 1, 1)));
    }

    #[test]
    fn ranges_spread_over_their_grid_points() {
        // Domain 0..9, B_max 5 -> wg 2: bins {0,1} {2,3} {4,5} {6,7} {8,9}.
        let a = attribute(&["0", "9", "", "4"], &["0-3", "x", "*", "[8,20]"], AttributeSettings::default());
        let params = UtilityParams { similarity_bins: 5, ..Default::default() };
        let pairs = row_pairs(4);
        let v = numeric(&Subject::new(&a, Ok(&pairs), &params, 4, 4)).unwrap();
        assert_eq!(v.p, [0.25, 0.0, 0.25, 0.0, 0.25, 0.0, 0.25]);
        // 0-3: half on bin 0, half on bin 1; [8,20] clipped to [8,9]: bin 4; x unmatched.
        assert_eq!(v.q, [0.25, 0.25, 0.125, 0.125, 0.0, 0.0, 0.25]);
        assert_eq!(v.details["wg"], 2);
    }

    #[test]
    fn weighted_counts() {
        // The ranges' table with weights: O (1, 1, 1, 1) gives p as unweighted; P (2, 1, 1, 0):
        // 0-3 puts 2 x 1/2 on bins 0 and 1, x 1 unmatched, * 1 blank, [8,20] 0 on bin 4; total 4.
        let mut a = attribute(&["0", "9", "", "4"], &["0-3", "x", "*", "[8,20]"], AttributeSettings::default());
        a.weigh(Some(&[1.0; 4]), Some(&[2.0, 1.0, 1.0, 0.0]));
        let params = UtilityParams { similarity_bins: 5, ..Default::default() };
        let pairs = row_pairs(4);
        let v = numeric(&Subject::new(&a, Ok(&pairs), &params, 4, 4)).unwrap();
        assert_eq!(v.p, [0.25, 0.0, 0.25, 0.0, 0.25, 0.0, 0.25]);
        assert_eq!(v.q, [0.25, 0.25, 0.25, 0.25, 0.0, 0.0, 0.0]);
        assert_eq!(v.details["weight_released"], 4.0);
    }

    #[test]
    fn recoded_values_spread_over_their_preimage() {
        let mut settings = AttributeSettings { kind: Some(Kind::Categorical), ..Default::default() };
        settings.hierarchy = Some(vec![vec!["a".into(), "AB".into()], vec!["b".into(), "AB".into()]]);
        let a = attribute(&["a", "b", "c", "a"], &["AB", "AB", "zz", "a"], settings);
        let params = UtilityParams::default();
        let v = categorical(&Subject::new(&a, Err("row_count_mismatch"), &params, 4, 4));
        // Support a, b, c: p = (0.5, 0.25, 0.25); q: AB x2 -> 0.5 a, 0.5 b (x2); a -> a; zz unmatched.
        assert_eq!(v.p, [0.0, 0.0, 0.5, 0.25, 0.25]);
        assert_eq!(v.q, [0.0, 0.25, 0.5, 0.25, 0.0]);
        assert_eq!(v.details["q"]["a"], 0.5);
    }
}
