//! The figures one metric family computes and other code reads (issue 37): typed, beside the
//! results that report them, so that no family looks another's result up by its id. Each
//! figure is taken from the variable its result's value is built from; `None` where that
//! result has no value.

/// A figure as a result's JSON value holds it: `None` where `x` is not finite (`null`).
pub fn finite(x: f64) -> Option<f64> {
    Some(x).filter(|x| x.is_finite())
}

/// What the identity family computes that others read: the attribute family's `k`, the
/// balance family's `R_int`, SCORR's verdicts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IdentityFigures {
    /// `n_records`: the records in scope.
    pub n_records: u64,
    /// `k_anonymity`.
    pub k_anonymity: Option<f64>,
    /// `k_anonymity_person` (event-level data).
    pub k_anonymity_person: Option<f64>,
    /// `r_internal`.
    pub r_internal: Option<f64>,
    /// The maximum of `scorr_uniqueness_risk`.
    pub scorr_uniqueness_max: Option<f64>,
    /// The maximum of `scorr_uniformity_risk_qi`.
    pub scorr_uniformity_qi_max: Option<f64>,
    /// The maximum of `scorr_uniformity_risk_attr` per QI, in QI order.
    pub scorr_uniformity_attr_max: Vec<Option<f64>>,
    /// `n_records_total`, `n_records`, `n_dropped_records` and `n_suppressed_records`: the
    /// rows the figures describe (none when the family did not run: no quasi-identifiers).
    pub scope: Option<RowScope>,
}

/// What the attribute family computes for one sensitive attribute that SCORR's verdicts read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SensitiveFigures {
    /// The SA's name (`scope.sensitive` of its results).
    pub name: String,
    /// `t_closeness`.
    pub t_closeness: Option<f64>,
    /// The maximum of `scorr_correlation_risk_attr` per attribute (`scope.attribute`) of
    /// the classes the SA was assessed on.
    pub scorr_correlation_attr_max: Vec<(String, Option<f64>)>,
}

impl SensitiveFigures {
    /// The maximum of `scorr_correlation_risk_attr` of attribute `name`, if computed.
    pub fn correlation_max(&self, name: &str) -> Option<f64> {
        self.scorr_correlation_attr_max.iter().find(|(a, _)| a == name).and_then(|&(_, x)| x)
    }
}

/// The figures of one audit that other code reads, family by family.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// The identity family's (default without quasi-identifiers: it did not run).
    pub identity: IdentityFigures,
    /// The attribute family's, per SA, in the order of its results.
    pub sensitive: Vec<SensitiveFigures>,
    /// `utility_u`, with an original table.
    pub utility_u: Option<f64>,
    /// `risk_r` of the balance family.
    pub risk_r: Option<f64>,
}

impl Figures {
    /// The figures of SA `name`, if the attribute family assessed it.
    pub fn sensitive(&self, name: &str) -> Option<&SensitiveFigures> {
        self.sensitive.iter().find(|s| s.name == name)
    }
}

/// The rows of a file and those the identity metrics covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowScope {
    /// The data rows read.
    pub rows: u64,
    /// The rows in scope.
    pub in_scope: u64,
    /// Rows left out for a blank quasi-identifier (the policy `drop`).
    pub dropped: u64,
    /// Rows left out with every quasi-identifier suppressed (`exclude_suppressed_rows`).
    pub suppressed: u64,
}

impl RowScope {
    /// The rows left out.
    pub fn left_out(&self) -> u64 {
        self.rows - self.in_scope.min(self.rows)
    }

    /// Whether more than `share` of the rows were left out.
    pub fn leaves_out_more_than(&self, share: f64) -> bool {
        self.rows > 0 && self.left_out() as f64 / self.rows as f64 > share
    }

    /// "11 of 10000 rows in scope (9989 left out: 9989 with a blank quasi-identifier under
    /// the missing policy drop)": the account of the rows the figures describe.
    pub fn account(&self) -> String {
        let mut text = format!("{} of {} rows in scope", self.in_scope, self.rows);
        if self.left_out() > 0 {
            text.push_str(&format!(" ({} left out: {})", self.left_out(), self.reasons().join(", ")));
        }
        text
    }

    /// Why rows were left out, one phrase per reason.
    pub fn reasons(&self) -> Vec<String> {
        let mut why = Vec::new();
        if self.dropped > 0 {
            why.push(format!("{} with a blank quasi-identifier under the missing policy drop", self.dropped));
        }
        if self.suppressed > 0 {
            why.push(format!("{} with every quasi-identifier suppressed (exclude_suppressed_rows)", self.suppressed));
        }
        why
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_states_the_rows_in_scope_and_why_others_are_out() {
        let all = RowScope { rows: 10, in_scope: 10, dropped: 0, suppressed: 0 };
        assert_eq!(all.account(), "10 of 10 rows in scope");
        let some = RowScope { rows: 10000, in_scope: 11, dropped: 9989, suppressed: 0 };
        assert_eq!(some.account(), "11 of 10000 rows in scope (9989 left out: 9989 with a blank quasi-identifier under the missing policy drop)");
        assert!(some.leaves_out_more_than(0.5) && !all.leaves_out_more_than(0.0));
    }
}
