//! Class-size and uniqueness metrics (spec identity-risk.md Sec 2 and Sec 3).

use serde_json::json;

use super::Sizes;
use crate::json::count_or_real;
use crate::metric::{Context, MetricResult};

/// The `k0` values of `k_violators` (sdcMicro prints 2, 3, 5; 11 is SCORR's boundary).
pub const K_VIOLATORS_AT: [u64; 4] = [2, 3, 5, 11];

/// `k` below which a record counts as rare for `rare_combination_rate` (\[RUT\] Sec 4.4).
pub const K_RARE: f64 = 3.0;

/// Nearest-rank percentile over records: `r = max(1, ceil(p n / 100))` in integers.
fn percentile(s: &Sizes, p: u64) -> f64 {
    let r = ((p * s.n).div_ceil(100)).max(1);
    let mut seen = 0;
    for g in &s.groups {
        seen += g.records;
        if seen >= r {
            return g.f;
        }
    }
    s.max_f()
}

/// `k_anonymity`, `n_classes`, `class_size_histogram`, `ec_size_percentiles`,
/// `max_class_size`, `k_violators`, `sample_uniques`, `sample_uniqueness`,
/// `rare_combination_rate`.
pub fn metrics(ctx: &Context, s: &Sizes, histogram_applies: bool) -> Vec<MetricResult> {
    let nf = s.n as f64;
    let uniques = s.records_where(|f| f == 1.0);
    let mut out =
        vec![ctx.ok("k_anonymity", count_or_real(s.min_f())), ctx.ok("n_classes", s.classes).with_details(json!({ "mean_class_size": nf / s.classes as f64 }))];
    out.push(if histogram_applies {
        ctx.ok("class_size_histogram", s.groups.iter().map(|g| [g.f as u64, g.classes, g.records]).collect::<Vec<_>>())
    } else {
        ctx.without_value("class_size_histogram", crate::metric::Status::NotApplicable, "wildcard_classes_overlap")
    });
    out.push(ctx.ok(
        "ec_size_percentiles",
        json!({ "p5": count_or_real(percentile(s, 5)), "p50": count_or_real(percentile(s, 50)), "p95": count_or_real(percentile(s, 95)) }),
    ));
    out.push(ctx.ok("max_class_size", count_or_real(s.max_f())));
    let violators: Vec<_> = K_VIOLATORS_AT
        .iter()
        .map(|&k0| {
            let r = s.records_where(|f| f < k0 as f64);
            json!({ "k": k0, "records": r, "share": r as f64 / nf })
        })
        .collect();
    out.push(ctx.ok("k_violators", violators));
    out.push(ctx.ok("sample_uniques", uniques));
    out.push(ctx.ok("sample_uniqueness", uniques as f64 / nf));
    out.push(ctx.ok("rare_combination_rate", s.records_where(|f| f <= K_RARE) as f64 / nf).with_details(json!({ "k_rare": K_RARE })));
    out
}
