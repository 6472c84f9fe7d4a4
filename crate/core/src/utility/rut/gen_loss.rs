//! Generalization loss (spec utility.md Sec 2; \[RUT\] Sec 3.2.1):
//! `g(t) = 1 - 1/|GR(t)|` per counted cell, 1 for a blank released cell, averaged; and the
//! project-defined NCP-style variant `(|GR(t)| - 1) / (|Dom| - 1)`.
//!
//! Counted cells: with aligned rows, the aligned rows whose `O` cell is non-blank; without
//! (the tables could not be paired), every `P` cell, a recoded label then counting `|GR| = 1`
//! with warning `gr_unknown` (Sec 2 "unpaired"). `INVALID` numeric cells are excluded from
//! numeric computations (README Sec 4.2): left out of the counted cells, warning
//! `invalid_cells_skipped`.
//!
//! | id | value | details |
//! |---|---|---|
//! | `gen_loss` | mean `g` in `[0,1]` | `cells` (counted), `generalized` (`|GR| > 1`), `blank`, `invalid_skipped`, `counted` (`aligned_rows` or `released_cells`) |
//! | `gen_loss_ncp` | mean `min(1, (|GR|-1)/(|Dom|-1))`, blank 1, `|Dom| = 1` -> 0 | the above and `dom` (`|Dom|`) |
//!
//! Warnings: `gr_unknown`, `empty_interval`, `invalid_cells_skipped`.

use serde_json::json;

use crate::metric::{MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::dictionary::is_blank;
use crate::utility::rut::Subject;
use crate::utility::rut::preimage::{Gr, domain_size, gr_numeric};

/// `|GR(t)|` of a non-blank released code; `None` for an `INVALID` cell.
pub fn gr(s: &Subject<'_>, t: u32) -> Option<Gr> {
    match &s.pre {
        Some(pre) => Some(pre.gr(s.a, t)),
        None => gr_numeric(s.a, t),
    }
}

/// Counted cells per released code (Sec 2): aligned rows with a non-blank `O` cell, or every
/// `P` cell when the tables could not be paired. The flag tells which.
pub fn counted(s: &Subject<'_>) -> (Vec<u64>, bool) {
    match s.pairs {
        Ok(pairs) => {
            let mut c = vec![0u64; s.a.values.len()];
            for &(i, j) in pairs {
                if !is_blank(s.a.o[i as usize]) {
                    c[s.p[j as usize] as usize] += 1;
                }
            }
            (c, true)
        }
        Err(_) => (s.a.p_count.clone(), false),
    }
}

/// `gen_loss` and `gen_loss_ncp` of one attribute, and `gen_loss`'s value.
pub fn metrics(s: &Subject<'_>) -> (Vec<MetricResult>, Option<f64>) {
    let (count, paired) = counted(s);
    let dom = domain_size(s.a);
    let (mut cells, mut generalized, mut blank, mut invalid) = (0u64, 0u64, 0u64, 0u64);
    let mut warnings: Vec<&'static str> = Vec::new();
    let (mut g, mut ncp) = (Vec::new(), Vec::new());
    for &t in &s.order {
        let k = count[t as usize];
        if k == 0 {
            continue;
        }
        let (gt, nt) = if is_blank(t) {
            blank += k;
            (1.0, 1.0)
        } else {
            let Some(r) = gr(s, t) else {
                invalid += k;
                continue;
            };
            if let Some(w) = r.warning.filter(|w| !warnings.contains(w)) {
                warnings.push(w);
            }
            if r.size > 1.0 {
                generalized += k;
            }
            let nt = match dom {
                Some(d) if d > 1.0 => ((r.size - 1.0) / (d - 1.0)).min(1.0),
                _ => 0.0,
            };
            (1.0 - 1.0 / r.size, nt)
        };
        cells += k;
        g.push(k as f64 * gt);
        ncp.push(k as f64 * nt);
    }
    if invalid > 0 {
        warnings.push("invalid_cells_skipped");
    }
    let details = json!({
        "cells": cells, "generalized": generalized, "blank": blank, "invalid_skipped": invalid,
        "counted": if paired { "aligned_rows" } else { "released_cells" },
    });
    if cells == 0 {
        let (status, reason) = if s.n_p == 0 { (Status::EmptyInput, "no_records_in_scope") } else { (Status::NotApplicable, "no_counted_cells") };
        return (["gen_loss", "gen_loss_ncp"].iter().map(|id| s.ctx.without_value(id, status, reason).with_details(details.clone())).collect(), None);
    }
    let mean = |v: Vec<f64>| neumaier(v) / cells as f64;
    let value = mean(g);
    let mut loss = s.ctx.ok("gen_loss", value).with_details(details.clone());
    loss.warnings.clone_from(&warnings);
    let ncp = match dom {
        Some(d) => {
            let mut d_ncp = details;
            d_ncp["dom"] = json!(d);
            let mut r = s.ctx.ok("gen_loss_ncp", mean(ncp)).with_details(d_ncp);
            r.warnings = warnings;
            r
        }
        None => s.ctx.without_value("gen_loss_ncp", Status::NotApplicable, "no_domain").with_details(details),
    };
    (vec![loss, ncp], crate::figures::finite(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::kind::Kind;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::params::UtilityParams;
    use crate::utility::rut::preimage::tests::{attribute, row_pairs};

    fn value(out: &[MetricResult], id: &str) -> f64 {
        out.iter().find(|m| m.id == id).unwrap().value.as_f64().unwrap()
    }

    #[test]
    fn worked_examples_of_rut() {
        let params = UtilityParams::default();
        // G7.1: 34 -> 30-39 is 0.9; [30,40) is 0.9.
        for released in ["30-39", "[30,40)"] {
            let a = attribute(&["34", "20", "50"], &[released, "20", "50"], AttributeSettings::default());
            let pairs = row_pairs(3);
            let s = Subject::new(&a, Ok(&pairs), &params, 3, 3);
            let (out, given) = metrics(&s);
            assert_eq!(given, out[0].value.as_f64());
            assert!((value(&out, "gen_loss") - 0.9 / 3.0).abs() < 1e-15, "{released}");
            assert_eq!(out[0].details["generalized"], 1);
        }
        // ZIP prefix truncation 10489 -> 1048 / 104: 0.9 / 0.99.
        let zip = AttributeSettings { kind: Some(Kind::Categorical), ..Default::default() };
        for (released, expected) in [("1048", 0.9), ("104", 0.99)] {
            let a = attribute(&["10489"], &[released], zip.clone());
            let pairs = row_pairs(1);
            let (out, _) = metrics(&Subject::new(&a, Ok(&pairs), &params, 1, 1));
            assert!((value(&out, "gen_loss") - expected).abs() < 1e-12, "{released}");
        }
    }

    #[test]
    fn suppression_is_total_loss_and_blank_originals_are_not_counted() {
        let params = UtilityParams::default();
        let a = attribute(&["34", "", "50", "51"], &["34", "40-49", "*", "40-49"], AttributeSettings::default());
        let pairs = row_pairs(4);
        let (out, _) = metrics(&Subject::new(&a, Ok(&pairs), &params, 4, 4));
        // Row 2 is blank in O: counted cells 34 (0), * (1), 40-49 (0.9).
        assert!((value(&out, "gen_loss") - 1.9 / 3.0).abs() < 1e-15);
        assert_eq!(out[0].details["cells"], 3);
        // Unpaired: every P cell counts.
        let (out, _) = metrics(&Subject::new(&a, Err("row_count_mismatch"), &params, 4, 4));
        assert!((value(&out, "gen_loss") - 2.8 / 4.0).abs() < 1e-15);
        assert_eq!(out[0].details["counted"], "released_cells");
        // NCP: |Dom| = 51 - 34 + 1 = 18 grid points; 40-49 -> 9/17.
        let ncp = value(&metrics(&Subject::new(&a, Ok(&pairs), &params, 4, 4)).0, "gen_loss_ncp");
        assert!((ncp - (1.0 + 9.0 / 17.0) / 3.0).abs() < 1e-15);
    }

    #[test]
    fn recoded_labels_without_pairs_are_unknown() {
        let params = UtilityParams::default();
        let a = attribute(&["x", "y"], &["group", "x"], AttributeSettings::default());
        let (out, _) = metrics(&Subject::new(&a, Err("row_count_mismatch"), &params, 2, 2));
        assert_eq!(value(&out, "gen_loss"), 0.0);
        assert_eq!(out[0].warnings, ["gr_unknown"]);
        // Paired: |pre(group)| = |{x}| = 1 as well, without a warning.
        let pairs = row_pairs(2);
        let (out, _) = metrics(&Subject::new(&a, Ok(&pairs), &params, 2, 2));
        assert!(out[0].warnings.is_empty());
    }
}
