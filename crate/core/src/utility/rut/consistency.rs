//! Consistency loss (spec utility.md Sec 5; \[RUT\] Sec 3.2.1), paired: over the aligned rows
//! whose `O` cell is non-blank, the share of rows not released as their original value's
//! majority target (the released value may be blank):
//!
//! ```text
//! consistency_loss = sum_v (n_v - max_t c(v -> t)) / sum_v n_v
//! ```
//! Every deterministic recoding gives 0 (\[RUT\] example: A x10, 7 -> B, 3 -> C: 0.3).
//!
//! | id | value | details |
//! |---|---|---|
//! | `consistency_loss` | in `[0,1]` | `rows` (counted), `inconsistent` (rows off their majority target), `values` (distinct `v`) |
//!
//! No counted row: `not_applicable` (`no_counted_rows`); rows not aligned: `error`.

use serde_json::json;

use crate::hash::{Map, map};
use crate::metric::{MetricResult, Status};
use crate::table::dictionary::is_blank;
use crate::utility::rut::Subject;

/// `(counted rows, inconsistent rows, distinct original values)` of `(original, released)`
/// code pairs; pairs with a blank original are not counted.
pub fn tally(pairs: impl IntoIterator<Item = (u32, u32)>) -> (u64, u64, usize) {
    let mut c: Map<(u32, u32), u64> = map();
    for (o, t) in pairs {
        if !is_blank(o) {
            *c.entry((o, t)).or_default() += 1;
        }
    }
    let mut per_v: Map<u32, (u64, u64)> = map();
    for (&(o, _), &k) in &c {
        let e = per_v.entry(o).or_default();
        e.0 += k;
        e.1 = e.1.max(k);
    }
    let rows = per_v.values().map(|e| e.0).sum();
    let inconsistent = per_v.values().map(|e| e.0 - e.1).sum();
    (rows, inconsistent, per_v.len())
}

/// `consistency_loss` of one attribute.
pub fn metrics(s: &Subject<'_>) -> Vec<MetricResult> {
    let pairs = match s.pairs {
        Ok(p) => p,
        Err(reason) => return s.unpaired(&["consistency_loss"], reason),
    };
    let (rows, inconsistent, values) = tally(pairs.iter().map(|&(i, j)| (s.a.o[i as usize], s.p[j as usize])));
    let details = json!({ "rows": rows, "inconsistent": inconsistent, "values": values });
    let r = if rows == 0 {
        s.ctx.without_value("consistency_loss", Status::NotApplicable, "no_counted_rows")
    } else {
        s.ctx.ok("consistency_loss", inconsistent as f64 / rows as f64)
    };
    vec![r.with_details(details)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_of_rut() {
        // G7.1: A occurs 10 times, 7 -> B, 3 -> C: 0.3.
        let (a, b, c) = (2, 3, 4);
        let pairs = std::iter::repeat_n((a, b), 7).chain(std::iter::repeat_n((a, c), 3));
        let (rows, inconsistent, values) = tally(pairs);
        assert_eq!((rows, inconsistent, values), (10, 3, 1));
        assert_eq!(inconsistent as f64 / rows as f64, 0.3);
    }

    #[test]
    fn blank_targets_count_and_blank_originals_do_not() {
        // v=2: 2 -> 5, 2 -> SUPPRESSED, 2 -> SUPPRESSED; a blank original is left out.
        let (rows, inconsistent, _) = tally([(2, 5), (2, 1), (2, 1), (0, 5)]);
        assert_eq!((rows, inconsistent), (3, 1));
        // A deterministic recoding: 0.
        assert_eq!(tally([(2, 9), (3, 9), (4, 8), (2, 9)]).1, 0);
    }
}
