//! Household risk (spec peer-measures.md Sec 2; sdcMicro `measure_risk` with `hid`,
//! `R/measure_risk.R` L280-289 at `sdcTools/sdcMicro@cf3251017482`): the chance that at least
//! one member of a household is re-identified, `h(H) = 1 - prod_{i in H} (1 - r(i))`, carried
//! by every member; `household_risk_er` sums it over the records with a household id,
//! `household_risk` divides by `n`.
//!
//! `r(i)` is sdcMicro's individual risk (identity-risk.md Sec 8, `R/indivRisk.R` L127-128) with
//! a weight column, else `1/f(i)`. A record's `r` depends on its class's size, known only when
//! the whole file is read, so the audit streams records into counts per (household, class)
//! pair ([`Households`]) and computes `h` at the end: memory grows with the distinct pairs (at
//! most the records with a household id), and parts of a file merge exactly.

use serde_json::{Value, json};

use crate::hash::{Map, map};
use crate::ingest::cell::Cell;
use crate::metric::{Context, MetricResult, Status};
use crate::numeric::neumaier;
use crate::table::dictionary::{Dictionary, is_blank};

/// The metric ids, in output order (Sec 2).
pub const IDS: [&str; 2] = ["household_risk_er", "household_risk"];

/// Where each record's `r(i)` comes from (`details.individual_risk_source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RiskSource {
    /// sdcMicro's individual risk with the weight column (identity-risk.md Sec 8).
    Weights,
    /// `1/f(i)` without a weight column.
    InverseF,
}

impl RiskSource {
    fn label(self) -> &'static str {
        match self {
            RiskSource::Weights => "weights",
            RiskSource::InverseF => "1/f",
        }
    }
}

/// The streaming summary of the household column: its ids (normalised strings, Sec 2: "ids
/// are compared as normalised strings") and the in-scope records per (household, class).
/// A record with a blank id (missing or suppressed) is not counted here; it still counts in
/// `n` through the class table.
#[derive(Debug, Clone, Default)]
pub struct Households {
    ids: Dictionary,
    /// Records per (household code, class index).
    pairs: Map<(u32, u32), u32>,
}

impl Households {
    /// An empty summary.
    pub fn new() -> Self {
        Households { ids: Dictionary::default(), pairs: map() }
    }

    /// The code of a household id cell (a blank cell gets a blank code).
    pub fn code(&mut self, cell: Cell<'_>) -> u32 {
        self.ids.code(cell)
    }

    /// Absorbs one in-scope record of class `class` and household `household` (a code of
    /// [`Households::code`]); a blank household is skipped.
    #[inline]
    pub fn absorb(&mut self, class: u32, household: u32) {
        if !is_blank(household) {
            *self.pairs.entry((household, class)).or_insert(0) += 1;
        }
    }

    /// Merges another part's summary; `classes` says where its classes went
    /// ([`crate::table::classes::Remap::classes`]).
    pub fn merge(&mut self, other: Households, classes: &[u32]) {
        let ids = self.ids.absorb(&other.ids);
        for ((h, c), n) in other.pairs {
            *self.pairs.entry((ids[h as usize], classes[c as usize])).or_insert(0) += n;
        }
    }

    /// Each household's id, size and `h`, in id order (code point order of the normalised
    /// ids), from `r` per class. Within a household the pairs are taken in ascending `r` (then
    /// count), so `h` does not depend on class or household codes, which the order of the
    /// rows and of the parts decides.
    pub fn risks(&self, r: &[f64]) -> Vec<Household<'_>> {
        let mut pairs: Vec<(u32, f64, u32)> = self.pairs.iter().map(|(&(h, c), &n)| (h, r[c as usize], n)).collect();
        pairs.sort_unstable_by(|a, b| self.ids.text(a.0).cmp(self.ids.text(b.0)).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut out: Vec<Household<'_>> = Vec::new();
        let mut log_keep = Vec::new();
        let mut start = 0;
        while start < pairs.len() {
            let id = pairs[start].0;
            let end = start + pairs[start..].iter().take_while(|p| p.0 == id).count();
            let members = &pairs[start..end];
            let size: u64 = members.iter().map(|p| u64::from(p.2)).sum();
            // A member sure to be found (r = 1: pairs ascend in r, so the last) makes h = 1.
            let h = if members.last().is_some_and(|p| p.1 >= 1.0) {
                1.0
            } else {
                // ln prod (1 - r)^m = sum m ln(1 - r); h = 1 - exp(that) = -expm1(that): exact
                // for small risks, where 1 - prod(...) would cancel.
                log_keep.clear();
                log_keep.extend(members.iter().map(|&(_, r, m)| f64::from(m) * libm::log1p(-r)));
                (-libm::expm1(neumaier(log_keep.iter().copied()))).clamp(0.0, 1.0)
            };
            out.push(Household { id: self.ids.text(id), size, h });
            start = end;
        }
        out
    }
}

/// One household's risk (`details.per_household`).
#[derive(Debug, Clone, PartialEq)]
pub struct Household<'a> {
    /// Its id (normalised).
    pub id: &'a str,
    /// Its in-scope records.
    pub size: u64,
    /// `h(H) = 1 - prod (1 - r(i))`.
    pub h: f64,
}

/// `household_risk_er` and `household_risk` (Sec 2). `households`: the summary, `None` without
/// a household column (`not_applicable`, `no_household_column`); `r`: each class's `r(i)`;
/// `n`: the records in scope (those with a blank household id included); `per_household`:
/// whether `household_risk_er`'s `details.per_household` lists each household (record-level:
/// the setting `per_record`, docs/decisions/identity/household-risk.md).
pub fn metrics(ctx: &Context, households: Option<&Households>, r: &[f64], n: u64, source: RiskSource, per_household: bool) -> Vec<MetricResult> {
    let Some(households) = households else {
        return IDS.iter().map(|id| ctx.without_value(id, Status::NotApplicable, "no_household_column")).collect();
    };
    if n == 0 {
        return IDS.iter().map(|id| ctx.without_value(id, Status::EmptyInput, "no_records_in_scope")).collect();
    }
    let list = households.risks(r);
    let er = neumaier(list.iter().map(|h| h.size as f64 * h.h));
    let value = er / n as f64;
    let with_household: u64 = list.iter().map(|h| h.size).sum();
    let max_h = list.iter().map(|h| h.h).fold(0.0, f64::max);
    let mut details = json!({
        "individual_risk_source": source.label(),
        "households": list.len(),
        "records_with_household": with_household,
        "records_without_household": n - with_household,
        "max_h": max_h,
    });
    let mut rate = details.clone();
    rate["pct"] = json!(100.0 * value);
    // The list once, with the sum it adds up to.
    if per_household {
        details["per_household"] = Value::Array(list.iter().map(|h| json!({ "id": h.id, "size": h.size, "h": h.h })).collect());
    }
    vec![ctx.ok(IDS[0], er).with_details(details), ctx.ok(IDS[1], value).with_details(rate)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Scope;

    fn ctx() -> Context {
        let scope = Scope { table: "P", quasi_identifiers: vec!["q".into()], sensitive: None, attribute: None, subset: None };
        Context { family: "identity", scope, params: json!({}) }
    }

    fn households(rows: &[(&str, u32)]) -> Households {
        let mut h = Households::new();
        for &(id, class) in rows {
            let code = h.code(if id.is_empty() { Cell::Missing } else { Cell::text(id) });
            h.absorb(class, code);
        }
        h
    }

    #[track_caller]
    fn close(got: f64, want: f64) {
        assert!((got - want).abs() <= 1e-12 * want.abs().max(1.0), "got {got:e}, want {want:e}");
    }

    /// Two households of 2 and 3 records; classes of sizes 2, 4, 1 (`r = 1/f`):
    /// A = {class 0, class 1}: h = 1 - (1/2)(3/4) = 5/8;
    /// B = {class 1, class 1, class 2}: h = 1 - (3/4)^2 * 0 = 1.
    /// er = 2 * 5/8 + 3 * 1 = 4.25; with one more record without household, n = 6.
    #[test]
    fn two_households_by_hand() {
        let hh = households(&[("A", 0), ("A", 1), ("B", 1), ("B", 1), ("B", 2), ("", 0)]);
        let r = [1.0 / 2.0, 1.0 / 4.0, 1.0];
        let list = hh.risks(&r);
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].id, list[0].size), ("A", 2));
        close(list[0].h, 5.0 / 8.0);
        assert_eq!((list[1].id, list[1].size), ("B", 3));
        close(list[1].h, 1.0);
        let out = metrics(&ctx(), Some(&hh), &r, 6, RiskSource::InverseF, true);
        assert_eq!(out[0].id, "household_risk_er");
        close(out[0].value.as_f64().unwrap(), 4.25);
        close(out[1].value.as_f64().unwrap(), 4.25 / 6.0);
        close(out[1].details["pct"].as_f64().unwrap(), 100.0 * 4.25 / 6.0);
        assert_eq!(out[1].details["individual_risk_source"], json!("1/f"));
        assert_eq!(out[0].details["records_without_household"], json!(1));
        assert_eq!(out[0].details["per_household"][0], json!({ "id": "A", "size": 2, "h": 0.625 }));
        let quiet = metrics(&ctx(), Some(&hh), &r, 6, RiskSource::Weights, false);
        assert!(quiet[0].details.get("per_household").is_none());
        assert_eq!(quiet[0].details["individual_risk_source"], json!("weights"));
    }

    #[test]
    fn small_risks_keep_their_precision() {
        // h = 1 - (1 - 1e-12)^3 = 3e-12 - 3e-24 + ...
        let hh = households(&[("x", 0), ("x", 0), ("x", 0)]);
        close(hh.risks(&[1e-12])[0].h, 3e-12);
    }

    #[test]
    fn merged_parts_equal_one_summary() {
        let whole = households(&[("a", 0), ("b", 1), ("a", 1), ("c", 2), ("b", 2)]);
        let mut first = households(&[("a", 0), ("b", 1)]);
        // The second part's classes 0, 1 are the first's 1, 2.
        let second = households(&[("a", 0), ("c", 1), ("b", 1)]);
        first.merge(second, &[1, 2]);
        let r = [0.5, 0.25, 0.125];
        assert_eq!(first.risks(&r), whole.risks(&r));
    }

    #[test]
    fn without_column_or_records() {
        let out = metrics(&ctx(), None, &[], 3, RiskSource::InverseF, false);
        assert!(out.iter().all(|m| m.status == Status::NotApplicable && m.reason == Some("no_household_column")));
        let out = metrics(&ctx(), Some(&Households::new()), &[], 0, RiskSource::InverseF, false);
        assert!(out.iter().all(|m| m.status == Status::EmptyInput));
        // Every id blank: no household, a risk of 0.
        let out = metrics(&ctx(), Some(&households(&[("", 0)])), &[1.0], 1, RiskSource::InverseF, false);
        assert_eq!(out[0].value, json!(0.0));
        assert_eq!(out[0].details["households"], json!(0));
    }
}
