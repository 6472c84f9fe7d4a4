//! Column kinds (spec README Sec 4.1).

use serde::{Deserialize, Serialize};

/// Column kinds of spec README Sec 4.1.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Decimal numbers (and numeric ranges, digit masks).
    Numeric,
    /// ISO dates (and month or date ranges).
    Date,
    /// Anything else.
    Categorical,
    /// Strings with a user-declared total order (README Sec 4.1): declared only, never
    /// inferred; the order is the attribute's `order` setting.
    Ordinal,
}

impl Kind {
    /// Whether the values are labels (categorical or ordinal), read as text (README Sec 4.2).
    pub fn is_label(self) -> bool {
        matches!(self, Kind::Categorical | Kind::Ordinal)
    }
}
