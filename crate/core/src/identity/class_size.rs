//! Class-size and uniqueness metrics (spec identity-risk.md Sec 2 and Sec 3).

use serde_json::json;

use super::Sizes;
use crate::json::count_or_real;
use crate::metric::{Context, MetricResult};

/// The `k0` values of `k_violators` (sdcMicro prints 2, 3, 5; 11 is SCORR's boundary).
pub const K_VIOLATORS_AT: [u64; 4] = [2, 3, 5, 11];

/// `k` below which a record counts as rare for `rare_combination_rate` ([RUT] Sec 4.4).
pub const K_RARE: f64 = 3.0;

/// Records whose `f` satisfies `pred`.
fn records_where(s: &Sizes, pred: impl Fn(f64) -> bool) -> u64 {
    s.f.iter().zip(&s.counts).filter(|(f, _)| pred(**f)).map(|(_, c)| c).sum()
}

/// Nearest-rank percentile over records: `r = max(1, ceil(p n / 100))` in integers.
fn percentile(sorted: &[(f64, u64)], n: u64, p: u64) -> f64 {
    let r = ((p * n).div_ceil(100)).max(1);
    let mut seen = 0;
    for &(f, c) in sorted {
        seen += c;
        if seen >= r {
            return f;
        }
    }
    sorted.last().map_or(0.0, |x| x.0)
}

/// `k_anonymity`, `n_classes`, `class_size_histogram`, `ec_size_percentiles`,
/// `max_class_size`, `k_violators`, `sample_uniques`, `sample_uniqueness`,
/// `rare_combination_rate`.
pub fn metrics(ctx: &Context, s: &Sizes, histogram_applies: bool) -> Vec<MetricResult> {
    let n = s.n;
    let nf = n as f64;
    let k = s.f.iter().copied().fold(f64::INFINITY, f64::min);
    let max = s.f.iter().copied().fold(0.0, f64::max);
    let uniques = records_where(s, |f| f == 1.0);
    let mut sorted: Vec<(f64, u64)> = s.f.iter().copied().zip(s.counts.iter().copied()).collect();
    sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = vec![
        ctx.ok("k_anonymity", count_or_real(k)),
        ctx.ok("n_classes", s.f.len()).with_details(json!({ "mean_class_size": nf / s.f.len() as f64 })),
    ];
    out.push(if histogram_applies {
        let mut hist: Vec<(u64, u64)> = Vec::new();
        let mut by_size: Vec<u64> = s.counts.clone();
        by_size.sort_unstable();
        for size in by_size {
            match hist.last_mut() {
                Some((sz, c)) if *sz == size => *c += 1,
                _ => hist.push((size, 1)),
            }
        }
        ctx.ok("class_size_histogram", hist.iter().map(|&(sz, c)| [sz, c, sz * c]).collect::<Vec<_>>())
    } else {
        ctx.without_value("class_size_histogram", crate::metric::Status::NotApplicable, "wildcard_classes_overlap")
    });
    out.push(ctx.ok(
        "ec_size_percentiles",
        json!({ "p5": count_or_real(percentile(&sorted, n, 5)), "p50": count_or_real(percentile(&sorted, n, 50)), "p95": count_or_real(percentile(&sorted, n, 95)) }),
    ));
    out.push(ctx.ok("max_class_size", count_or_real(max)));
    let violators: Vec<_> = K_VIOLATORS_AT
        .iter()
        .map(|&k0| {
            let r = records_where(s, |f| f < k0 as f64);
            json!({ "k": k0, "records": r, "share": r as f64 / nf })
        })
        .collect();
    out.push(ctx.ok("k_violators", violators));
    out.push(ctx.ok("sample_uniques", uniques));
    out.push(ctx.ok("sample_uniqueness", uniques as f64 / nf));
    out.push(ctx.ok("rare_combination_rate", records_where(s, |f| f <= K_RARE) as f64 / nf).with_details(json!({ "k_rare": K_RARE })));
    out
}
