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
