//! The warnings an audit adds about its table: columns without values or that look like
//! direct identifiers, ambiguous dates and decimals, the reading's repairs; and the verdicts
//! withheld when every quasi-identifier is blank.

use crate::ingest::reader::InputFacts;
use crate::metric::{MetricResult, Status};
use crate::report::{Warning, reading_warnings};
use crate::table::classes::ClassTable;
use crate::table::dictionary::MISSING;
use crate::table::profile::ColumnProfile;
use crate::table::roles::Role;

/// The warnings about the columns and the reading: columns without values, columns that look
/// like direct identifiers, what the reader had to repair or skip.
pub(super) fn table_warnings(columns: &[ColumnProfile], facts: &InputFacts) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let rows = facts.rows_total;
    let empty: Vec<String> = columns.iter().filter(|c| c.shape == "no values" && rows > 0).map(|c| format!("\"{}\"", c.name)).collect();
    match empty.len() {
        0 => {}
        1 => warnings.push(Warning { code: "column_without_values", message: format!("column {} has no value in any row", empty[0]) }),
        n => warnings.push(Warning { code: "column_without_values", message: format!("{n} columns have no value in any row: {}", name_list(&empty)) }),
    }
    let direct: Vec<&str> = columns.iter().filter(|c| c.proposed_role == Role::DirectIdentifier).map(|c| c.name.as_str()).collect();
    if !direct.is_empty() {
        warnings.push(Warning {
            code: "direct_identifiers_present",
            message: format!("these columns look like direct identifiers and should not be released: {}", name_list(&direct)),
        });
    }
    for c in columns.iter().filter(|c| !c.ambiguous_date_forms.is_empty()) {
        let forms: Vec<&str> = c.ambiguous_date_forms.iter().map(|f| f.name()).collect();
        warnings.push(Warning {
            code: "date_form_ambiguous",
            message: format!(
                "column \"{}\" holds dates that read in more than one form ({}): it is treated as categorical until its date_form is set",
                c.name,
                forms.join(" or ")
            ),
        });
    }
    for c in columns.iter().filter(|c| c.mixed_decimals) {
        warnings.push(Warning {
            code: "decimal_separator_mixed",
            message: format!("column \"{}\" writes some numbers with a decimal comma and others with a point: it is treated as categorical", c.name),
        });
    }
    warnings.extend(reading_warnings(facts));
    warnings
}

/// Names in a warning: the first [`LISTED_NAMES`], then how many more (a file of 20,000
/// columns would otherwise make one warning of 20,000 names).
fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(LISTED_NAMES).map(AsRef::as_ref).collect();
    match names.len().saturating_sub(LISTED_NAMES) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// Most names a warning lists.
const LISTED_NAMES: usize = 20;

/// The reason (and warning) code when every quasi-identifier cell of the audit is blank.
const QI_ALL_BLANK: &str = "quasi_identifiers_all_blank";

/// Whether the audit has records and every quasi-identifier is blank in each of them (the
/// class table then holds one class of blanks; a suppressed `*` is a value, not a blank).
pub(super) fn qi_all_blank(classes: &ClassTable) -> bool {
    classes.records() > 0 && (0..classes.len()).all(|i| (0..classes.q()).all(|a| classes.code_at(i, a) == MISSING))
}

/// Every QI blank: one class of the whole file passes every threshold, but only because the
/// file holds nothing to group by. The verdicts say "not assessable" instead of a light
/// (docs/decisions/verdict/quasi-identifiers-all-blank.md); the warning that says why.
pub(super) fn not_assessable(metrics: &mut [MetricResult], qi: &[String]) -> Warning {
    // The verdicts (family `verdict`: ARX's and SCORR's), which such a table cannot support.
    for m in metrics.iter_mut().filter(|m| m.family == "verdict") {
        m.value = serde_json::Value::Null;
        m.status = Status::NotApplicable;
        m.reason = Some(QI_ALL_BLANK);
        m.details = serde_json::json!({});
    }
    Warning {
        code: QI_ALL_BLANK,
        message: format!(
            "every quasi-identifier ({}) is blank in every audited record, so the audit cannot tell how re-identifiable the people in the file are and gives no verdict: check the roles, and whether the export emptied these columns",
            qi.join(", ")
        ),
    }
}
