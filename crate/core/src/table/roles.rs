//! Column roles (spec README Sec 3) and the proposal the page pre-fills.
//!
//! The proposal is a starting point a person confirms: a direct identifier when a column is
//! nearly unique per row or shaped like names, e-mails, phone or ID numbers; a
//! quasi-identifier for demographics and dates; sensitive for diagnosis-like columns;
//! insensitive otherwise.

use serde::{Deserialize, Serialize};

use super::kind::Kind;

/// What the role proposal looks at.
#[derive(Debug, Clone, Copy)]
pub struct RoleFacts {
    /// Column kind.
    pub kind: Kind,
    /// Data rows in the file.
    pub rows: u64,
    /// Non-blank cells.
    pub non_blank: u64,
    /// Distinct non-blank values.
    pub distinct: u64,
    /// Cells shaped like e-mail addresses.
    pub email_like: u64,
}

/// The roles of spec README Sec 3.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Name, SSN, e-mail...: no metric uses it; its presence is a warning.
    DirectIdentifier,
    /// An attribute an attacker may know.
    QuasiIdentifier,
    /// An attribute whose value must not be inferred.
    Sensitive,
    /// Any other attribute.
    Insensitive,
}

const DIRECT: &[&str] = &[
    "name", "firstname", "lastname", "surname", "fullname", "forename", "email", "mail", "phone",
    "telephone", "tel", "mobile", "fax", "ssn", "passport", "address", "street", "iban", "mrn",
    "nhs", "insurance", "licence", "license", "ip",
];
const ID: &[&str] = &["id", "identifier", "number", "no", "nr", "code", "key", "uuid", "guid"];
const QUASI: &[&str] = &[
    "age", "sex", "gender", "zip", "zipcode", "postcode", "postal", "plz", "birth", "dob",
    "birthdate", "born", "yob", "date", "admission", "admitted", "discharge", "ethnicity",
    "ethnic", "race", "nationality", "country", "region", "city", "town", "district", "county",
    "state", "marital", "education", "occupation", "job", "profession", "workclass", "religion",
    "language", "height", "weight",
];
const SENSITIVE: &[&str] = &[
    "diagnosis", "diag", "icd", "disease", "condition", "illness", "disorder", "result",
    "outcome", "salary", "income", "medication", "drug", "treatment", "procedure", "therapy",
    "hiv", "pregnancy", "cancer", "finding", "symptom", "prescription",
];

/// Lower-case words of a column name: `admissionDate` and `admission_date` give the same.
pub(crate) fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            out.push(std::mem::take(&mut cur));
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase();
        cur.extend(c.to_lowercase());
    }
    out.push(cur);
    out.retain(|w| !w.is_empty());
    out
}

fn has(words: &[String], list: &[&str]) -> Option<String> {
    words.iter().find(|w| list.contains(&w.as_str())).cloned()
}

/// Proposes a role for a column from its name and profile, with the reason in one sentence.
pub fn propose(name: &str, f: &RoleFacts) -> (Role, String) {
    let w = words(name);
    let filled = f.non_blank.max(1) as f64;
    let unique_share = f.distinct as f64 / filled;
    if let Some(word) = has(&w, DIRECT) {
        return (Role::DirectIdentifier, format!("The name contains \"{word}\", which usually identifies a person directly."));
    }
    if f.email_like as f64 > 0.5 * filled {
        return (Role::DirectIdentifier, "Most values look like e-mail addresses.".into());
    }
    if f.non_blank >= 20 && unique_share >= 0.9 && (f.kind == Kind::Categorical || has(&w, ID).is_some()) {
        return (
            Role::DirectIdentifier,
            format!("{:.0} % of the filled cells are distinct, so the value nearly singles out each row.", 100.0 * unique_share),
        );
    }
    if let Some(word) = has(&w, SENSITIVE) {
        return (Role::Sensitive, format!("The name contains \"{word}\", a kind of value that must not be inferred about a person."));
    }
    if let Some(word) = has(&w, QUASI) {
        return (Role::QuasiIdentifier, format!("The name contains \"{word}\", a demographic fact an attacker may know."));
    }
    if f.kind == Kind::Date {
        return (Role::QuasiIdentifier, "Dates (of birth, admission...) are facts an attacker may know.".into());
    }
    (Role::Insensitive, "Nothing marks it as identifying or sensitive; change the role if it is.".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(kind: Kind, distinct: u64) -> RoleFacts {
        RoleFacts { kind, rows: 100, non_blank: 100, distinct, email_like: 0 }
    }

    #[test]
    fn proposals() {
        let cat = facts(Kind::Categorical, 5);
        assert_eq!(propose("patient_name", &cat).0, Role::DirectIdentifier);
        assert_eq!(propose("PatientID", &facts(Kind::Numeric, 100)).0, Role::DirectIdentifier);
        assert_eq!(propose("note", &facts(Kind::Categorical, 97)).0, Role::DirectIdentifier);
        assert_eq!(propose("admissionDate", &facts(Kind::Date, 50)).0, Role::QuasiIdentifier);
        assert_eq!(propose("visit", &facts(Kind::Date, 50)).0, Role::QuasiIdentifier);
        assert_eq!(propose("marital-status", &cat).0, Role::QuasiIdentifier);
        assert_eq!(propose("salary-class", &cat).0, Role::Sensitive);
        assert_eq!(propose("diagnosis", &cat).0, Role::Sensitive);
        assert_eq!(propose("ward", &cat).0, Role::Insensitive);
        assert_eq!(propose("income", &facts(Kind::Numeric, 95)).0, Role::Sensitive);
    }
}
