//! Cell-level measures (spec utility.md Sec 8.1): blank counts per table, the transitions of
//! aligned cells, suppressions and changed records.
//!
//! Equality of two non-blank cells: for a numeric attribute two `EXACT` cells compare by value
//! (`1` = `1.0`); everything else by normalised string, i.e. by joint code.

use serde_json::json;

use crate::hash::{Map, map};
use crate::metric::{MetricResult, Status};
use crate::table::dictionary::{MISSING, SUPPRESSED};
use crate::table::kind::Kind;
use crate::utility::Tables;
use crate::utility::attribute::{Attribute, Typed};
use crate::utility::sdc::{context, unpaired, with_pairing};

/// Counts of aligned cell pairs (Sec 8.1 `cell_transitions`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transitions {
    /// Both non-blank and equal.
    pub unchanged: u64,
    /// Both non-blank and different.
    pub changed: u64,
    /// Non-blank -> blank.
    pub suppressed: u64,
    /// Blank -> non-blank.
    pub imputed: u64,
    /// Blank -> blank.
    pub blank_to_blank: u64,
}

impl Transitions {
    /// Aligned rows counted.
    pub fn rows(&self) -> u64 {
        self.unchanged + self.changed + self.suppressed + self.imputed + self.blank_to_blank
    }

    /// \[SDCG\] "records changed": changed + suppressed + imputed.
    pub fn changed_records(&self) -> u64 {
        self.changed + self.suppressed + self.imputed
    }
}

/// Per joint code, a representative code such that two non-blank cells are equal iff their
/// representatives are (numeric `EXACT` cells by value).
pub fn equality_classes(a: &Attribute) -> Vec<u32> {
    let mut class: Vec<u32> = (0..a.values.len() as u32).collect();
    if a.kind == Kind::Numeric {
        let mut first: Map<u64, u32> = map();
        for (c, typed) in a.typed.iter().enumerate() {
            if let Typed::Exact(x) = typed {
                class[c] = *first.entry((x + 0.0).to_bits()).or_insert(c as u32);
            }
        }
    }
    class
}

/// The transitions of aligned cells `(O row, P row)` of `a`, whose `P` codes are `p`.
pub fn transitions(a: &Attribute, p: &[u32], pairs: &[(u32, u32)]) -> Transitions {
    let class = equality_classes(a);
    let mut t = Transitions::default();
    for &(i, j) in pairs {
        let (o, q) = (a.o[i as usize], p[j as usize]);
        match (o <= SUPPRESSED, q <= SUPPRESSED) {
            (false, false) if class[o as usize] == class[q as usize] => t.unchanged += 1,
            (false, false) => t.changed += 1,
            (false, true) => t.suppressed += 1,
            (true, false) => t.imputed += 1,
            (true, true) => t.blank_to_blank += 1,
        }
    }
    t
}

fn pct(count: u64, rows: u64) -> serde_json::Value {
    if rows == 0 { serde_json::Value::Null } else { json!(100.0 * count as f64 / rows as f64) }
}

/// `missing_count`, `cell_transitions`, `suppressed_cells`, `changed_records` per attribute.
pub fn metrics(t: &Tables<'_>) -> Vec<MetricResult> {
    const PAIRED: [&str; 3] = ["cell_transitions", "suppressed_cells", "changed_records"];
    let mut out = Vec::new();
    for a in &t.attributes {
        let ctx = context(t, Some(&a.name));
        let Some(p) = a.p.as_deref() else {
            for id in ["missing_count"].into_iter().chain(PAIRED) {
                out.push(ctx.without_value(id, Status::NotApplicable, "attribute_dropped"));
            }
            continue;
        };
        let (om, os) = (a.o_count[MISSING as usize], a.o_count[SUPPRESSED as usize]);
        let (pm, ps) = (a.p_count[MISSING as usize], a.p_count[SUPPRESSED as usize]);
        let (na_o, na_p) = (om + os, pm + ps);
        let increase = na_p as i64 - na_o as i64;
        let value = json!({
            "original": na_o,
            "released": na_p,
            "increase": increase,
            "increase_pct": if t.n_o == 0 { serde_json::Value::Null } else { json!(100.0 * increase as f64 / t.n_o as f64) },
            "ratio": if na_o == 0 { serde_json::Value::Null } else { json!(na_p as f64 / na_o as f64) },
        });
        out.push(ctx.ok("missing_count", value).with_details(json!({
            "original": { "missing": om, "suppressed": os },
            "released": { "missing": pm, "suppressed": ps },
            "rows_original": t.n_o,
            "rows_released": t.n_p,
        })));
        let pairs = match t.pairing.pairs() {
            Ok(pairs) => pairs,
            Err(reason) => {
                out.extend(PAIRED.map(|id| unpaired(&ctx, id, reason, t)));
                continue;
            }
        };
        let tr = transitions(a, p, pairs);
        let rows = tr.rows();
        let comparison = if a.kind == Kind::Numeric { "value" } else { "string" };
        let value = json!({
            "unchanged": tr.unchanged,
            "changed": tr.changed,
            "suppressed": tr.suppressed,
            "imputed": tr.imputed,
            "blank_to_blank": tr.blank_to_blank,
        });
        out.push(with_pairing(ctx.ok("cell_transitions", value).with_details(json!({ "aligned_rows": rows, "comparison": comparison })), t));
        out.push(with_pairing(ctx.ok("suppressed_cells", tr.suppressed).with_details(json!({ "pct": pct(tr.suppressed, rows), "aligned_rows": rows })), t));
        let changed = tr.changed_records();
        out.push(with_pairing(
            ctx.ok("changed_records", changed).with_details(json!({
                "changed": tr.changed,
                "suppressed": tr.suppressed,
                "imputed": tr.imputed,
                "aligned_rows": rows,
                "pct": pct(changed, rows),
            })),
            t,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    fn column(cells: &[&str]) -> Column {
        Column::of(cells)
    }

    fn run(o: &[&str], p: &[&str]) -> Transitions {
        let a = Attribute::new("a", &column(o), Some(&column(p)), AttributeSettings::default(), &Normaliser::default());
        let pairs: Vec<(u32, u32)> = (0..o.len() as u32).map(|i| (i, i)).collect();
        transitions(&a, a.p.as_deref().unwrap(), &pairs)
    }

    /// Golden G7.2 (hand): `[a, b, NA, c, a, NA]` -> `[a, NA, NA, d, b, x]`.
    #[test]
    fn changed_records_example() {
        let t = run(&["a", "b", "NA", "c", "a", "NA"], &["a", "NA", "NA", "d", "b", "x"]);
        assert_eq!(t, Transitions { unchanged: 1, changed: 2, suppressed: 1, imputed: 1, blank_to_blank: 1 });
        assert_eq!(t.changed_records(), 4);
    }

    #[test]
    fn numbers_compare_by_value() {
        let t = run(&["1", "2.50", "3"], &["1.0", "2.5", "3.1"]);
        assert_eq!((t.unchanged, t.changed), (2, 1));
        let text = run(&["x1", "a"], &["x1.0", "a"]);
        assert_eq!((text.unchanged, text.changed), (1, 1));
    }
}
