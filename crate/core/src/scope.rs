//! The rows an audit covers (issue 36, item 6): the warnings, from the identity family's
//! [`RowScope`], when a policy leaves many out, or when a quasi-identifier is mostly blank and
//! the policy `ordinary` counts its blanks as one value.

use crate::config::AuditConfig;
use crate::figures::RowScope;
use crate::report::Warning;
use crate::table::classes::MissingPolicy;
use crate::table::profile::ColumnProfile;

/// The share of blank cells above which a quasi-identifier is "mostly blank".
pub const MOSTLY_BLANK_SHARE: f64 = 0.5;

/// The share `part / whole` in percent, one decimal.
fn percent(part: u64, whole: u64) -> String {
    format!("{:.1} %", 100.0 * part as f64 / whole.max(1) as f64)
}

/// The blank cells of each quasi-identifier of `config`, from the column profiles, most first.
pub fn blank_qis<'a>(columns: &'a [ColumnProfile], config: &AuditConfig) -> Vec<(&'a str, u64)> {
    let qi = &config.quasi_identifiers;
    let mut blank: Vec<(&str, u64)> =
        columns.iter().filter(|c| qi.contains(&c.name) && c.forms.missing > 0).map(|c| (c.name.as_str(), c.forms.missing)).collect();
    blank.sort_by_key(|b| std::cmp::Reverse(b.1));
    blank
}

/// The warnings on the scope of an audit: `rows_left_out` when the policies left out more than
/// `left_out_share` of the rows, naming how many and why; `qi_mostly_blank` for each
/// quasi-identifier blank in more than half the rows under the policy `ordinary` (its blanks
/// form one value, a large class that looks safe). `blank`: the blank cells of each
/// quasi-identifier, most first ([`blank_qis`]). `scope`: the identity family's, none when it
/// did not run (no quasi-identifiers).
pub fn warnings(scope: Option<&RowScope>, blank: &[(&str, u64)], config: &AuditConfig) -> Vec<Warning> {
    let Some(scope) = scope else { return Vec::new() };
    let mut out = Vec::new();
    if scope.leaves_out_more_than(config.left_out_share) {
        let mut message = format!(
            "{} of the {} rows ({}) were left out of the audit, more than the {} the setting left_out_share allows: {}; the figures describe the {} rows in scope only",
            scope.left_out(),
            scope.rows,
            percent(scope.left_out(), scope.rows),
            percent_of_share(config.left_out_share),
            scope.reasons().join(", "),
            scope.in_scope,
        );
        if scope.dropped > 0 {
            let blanks: Vec<String> = blank.iter().map(|(name, n)| format!("\"{name}\" blank in {n}")).collect();
            if !blanks.is_empty() {
                message.push_str(&format!(" ({}); the policy ordinary or wildcard keeps these rows", blanks.join(", ")));
            }
        }
        out.push(Warning { code: "rows_left_out", message });
    }
    if config.missing_policy == MissingPolicy::Ordinary && scope.rows > 0 {
        for &(name, n) in blank {
            if n as f64 / scope.rows as f64 > MOSTLY_BLANK_SHARE {
                out.push(Warning {
                    code: "qi_mostly_blank",
                    message: format!(
                        "the quasi-identifier \"{name}\" is blank in {n} of the {} rows ({}): under the missing policy ordinary a blank is one value like any other, so these rows look alike on it and their risk looks low; check the column, or choose the policy wildcard or drop",
                        scope.rows,
                        percent(n, scope.rows),
                    ),
                });
            }
        }
    }
    out
}

/// A share as a percentage without needless decimals: "10 %", "12.5 %".
fn percent_of_share(share: f64) -> String {
    let p = (share * 1000.0).round() / 10.0;
    if p.fract() == 0.0 { format!("{p:.0} %") } else { format!("{p} %") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(rows: u64, dropped: u64, suppressed: u64) -> RowScope {
        RowScope { rows, in_scope: rows - dropped - suppressed, dropped, suppressed }
    }

    fn zip_blank(n: u64) -> Vec<(&'static str, u64)> {
        if n == 0 { Vec::new() } else { vec![("zip", n)] }
    }

    fn config(policy: MissingPolicy) -> AuditConfig {
        AuditConfig { quasi_identifiers: vec!["zip".into()], missing_policy: policy, ..AuditConfig::default() }
    }

    fn codes(w: &[Warning]) -> Vec<&str> {
        w.iter().map(|w| w.code).collect()
    }

    #[test]
    fn left_out_warned_above_the_share_only() {
        let c = config(MissingPolicy::Drop);
        // Exactly 10 %: no warning; one row more: a warning; below: none.
        assert!(codes(&warnings(Some(&scope(1000, 100, 0)), &zip_blank(100), &c)).is_empty());
        assert!(codes(&warnings(Some(&scope(1000, 99, 0)), &zip_blank(99), &c)).is_empty());
        let above = warnings(Some(&scope(1000, 101, 0)), &zip_blank(101), &c);
        assert_eq!(codes(&above), ["rows_left_out"]);
        assert_eq!(
            above[0].message,
            "101 of the 1000 rows (10.1 %) were left out of the audit, more than the 10 % the setting left_out_share allows: 101 with a blank quasi-identifier under the missing policy drop; the figures describe the 899 rows in scope only (\"zip\" blank in 101); the policy ordinary or wildcard keeps these rows"
        );
    }

    #[test]
    fn left_out_share_is_a_setting_and_counts_suppressed_rows() {
        let c = AuditConfig { exclude_suppressed_rows: true, left_out_share: 0.5, ..config(MissingPolicy::Ordinary) };
        assert!(warnings(Some(&scope(10, 0, 5)), &zip_blank(0), &c).is_empty());
        let w = warnings(Some(&scope(10, 0, 6)), &zip_blank(0), &c);
        assert_eq!(codes(&w), ["rows_left_out"]);
        assert!(w[0].message.contains("6 with every quasi-identifier suppressed"), "{}", w[0].message);
        assert!(w[0].message.contains("the 50 % the setting"), "{}", w[0].message);
    }

    #[test]
    fn mostly_blank_qi_warned_under_ordinary_only() {
        let ordinary = config(MissingPolicy::Ordinary);
        assert!(warnings(Some(&scope(1000, 0, 0)), &zip_blank(500), &ordinary).is_empty());
        let w = warnings(Some(&scope(1000, 0, 0)), &zip_blank(501), &ordinary);
        assert_eq!(codes(&w), ["qi_mostly_blank"]);
        assert!(w[0].message.starts_with("the quasi-identifier \"zip\" is blank in 501 of the 1000 rows (50.1 %)"), "{}", w[0].message);
        assert!(warnings(Some(&scope(1000, 0, 0)), &zip_blank(900), &config(MissingPolicy::Wildcard)).is_empty());
    }
}
