//! Column roles (spec README Sec 3) and the proposal the page pre-fills.
//!
//! The proposal is a starting point a person confirms: a direct identifier when a column is
//! nearly unique per row or shaped like names, e-mails, phone or ID numbers; a
//! quasi-identifier for demographics and dates; sensitive for diagnosis-like columns;
//! insensitive otherwise. The name's words are looked up, folded (lower case, no accents), in
//! tables of English, German, French, Spanish, Italian and Dutch header words (issue 36).

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

/// How a word of the table matches a folded word of a column name: whole, or also as the
/// start or the end of a compound (German and Dutch glue words: `Geburtsdatum`,
/// `Postleitzahl`, `achternaam`). Only stems long enough not to hide inside unrelated words
/// match in compounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Whole,
    Start,
    End,
}
use Part::{End, Start, Whole};

/// Header words that mark a direct identifier, folded (lower case, no accents; `ß` is `ss`),
/// in English, German, French, Spanish, Italian and Dutch.
const DIRECT: &[(&str, Part)] = &[
    // English
    ("name", End),
    ("firstname", Whole),
    ("lastname", Whole),
    ("surname", Whole),
    ("fullname", Whole),
    ("forename", Whole),
    ("email", Whole),
    ("mail", End),
    ("phone", End),
    ("telephone", Whole),
    ("tel", Whole),
    ("mobile", Whole),
    ("fax", Whole),
    ("ssn", Whole),
    ("passport", Whole),
    ("address", End),
    ("street", End),
    ("iban", Whole),
    ("mrn", Whole),
    ("nhs", Whole),
    ("insurance", Whole),
    ("licence", Whole),
    ("license", Whole),
    ("ip", Whole),
    // German
    ("nachname", Whole),
    ("vorname", Whole),
    ("familienname", Whole),
    ("telefon", Start),
    ("handy", Whole),
    ("mobil", Whole),
    ("mobilnummer", Whole),
    ("adresse", End),
    ("anschrift", End),
    ("strasse", End),
    ("versicherungsnummer", End),
    ("versichertennummer", End),
    ("reisepass", Start),
    ("ausweis", Start),
    ("steuernummer", Whole),
    // French
    ("nom", Whole),
    ("prenom", Whole),
    ("courriel", Whole),
    ("telephone", Start),
    ("portable", Whole),
    ("rue", Whole),
    ("nir", Whole),
    ("secu", Whole),
    // Spanish
    ("nombre", Whole),
    ("apellido", Whole),
    ("apellidos", Whole),
    ("correo", Whole),
    ("telefono", Start),
    ("movil", Whole),
    ("celular", Whole),
    ("direccion", Whole),
    ("calle", Whole),
    ("dni", Whole),
    ("nif", Whole),
    ("pasaporte", Whole),
    // Italian
    ("nome", Whole),
    ("cognome", Whole),
    ("cellulare", Whole),
    ("indirizzo", Whole),
    ("fiscale", Whole),
    // Dutch
    ("naam", End),
    ("telefoon", Start),
    ("mobiel", Whole),
    ("adres", End),
    ("straat", End),
    ("bsn", Whole),
    ("paspoort", Whole),
];

/// Words of a column of identifiers (direct only when the values are nearly unique too).
const ID: &[(&str, Part)] = &[
    ("id", Whole),
    ("identifier", Whole),
    ("number", Whole),
    ("no", Whole),
    ("nr", Whole),
    ("code", Whole),
    ("key", Whole),
    ("uuid", Whole),
    ("guid", Whole),
    ("nummer", End),
    ("numero", Whole),
    ("num", Whole),
    ("codice", Whole),
    ("codigo", Whole),
    ("kennung", End),
];

/// Demographic and date words: quasi-identifiers.
const QUASI: &[(&str, Part)] = &[
    // English
    ("age", Whole),
    ("sex", Whole),
    ("gender", Whole),
    ("zip", Whole),
    ("zipcode", Whole),
    ("postcode", Whole),
    ("postal", Whole),
    ("birth", Start),
    ("dob", Whole),
    ("birthdate", Whole),
    ("born", Whole),
    ("yob", Whole),
    ("date", Whole),
    ("admission", Whole),
    ("admitted", Whole),
    ("discharge", Whole),
    ("ethnicity", Whole),
    ("ethnic", Whole),
    ("race", Whole),
    ("nationality", Whole),
    ("country", Whole),
    ("region", Whole),
    ("city", Whole),
    ("town", Whole),
    ("district", Whole),
    ("county", Whole),
    ("state", Whole),
    ("marital", Whole),
    ("education", Whole),
    ("occupation", Whole),
    ("job", Whole),
    ("profession", Whole),
    ("workclass", Whole),
    ("religion", Whole),
    ("language", Whole),
    ("height", Whole),
    ("weight", Whole),
    // German
    ("alter", Whole),
    ("geschlecht", Whole),
    ("plz", Whole),
    ("postleitzahl", Whole),
    ("geburt", Start),
    ("geboren", Whole),
    ("datum", End),
    ("wohnort", Whole),
    ("ort", Whole),
    ("stadt", Whole),
    ("land", Whole),
    ("bundesland", Whole),
    ("staatsangehorigkeit", Whole),
    ("nationalitat", Whole),
    ("familienstand", Whole),
    ("beruf", Whole),
    ("bildung", End),
    ("konfession", Whole),
    ("sprache", End),
    ("grosse", Whole),
    ("gewicht", Whole),
    ("aufnahme", Start),
    ("entlassung", Start),
    ("jahrgang", Whole),
    // French
    ("sexe", Whole),
    ("genre", Whole),
    ("naissance", Whole),
    ("ville", Whole),
    ("commune", Whole),
    ("departement", Whole),
    ("pays", Whole),
    ("nationalite", Whole),
    ("matrimonial", Whole),
    ("metier", Whole),
    ("emploi", Whole),
    ("taille", Whole),
    ("poids", Whole),
    ("langue", Whole),
    ("sortie", Whole),
    // Spanish
    ("edad", Whole),
    ("sexo", Whole),
    ("genero", Whole),
    ("nacimiento", Whole),
    ("fecha", Whole),
    ("ciudad", Whole),
    ("municipio", Whole),
    ("provincia", Whole),
    ("pais", Whole),
    ("nacionalidad", Whole),
    ("civil", Whole),
    ("ocupacion", Whole),
    ("profesion", Whole),
    ("educacion", Whole),
    ("altura", Whole),
    ("peso", Whole),
    ("idioma", Whole),
    // Italian
    ("eta", Whole),
    ("sesso", Whole),
    ("genere", Whole),
    ("nascita", Whole),
    ("cap", Whole),
    ("citta", Whole),
    ("comune", Whole),
    ("regione", Whole),
    ("nazionalita", Whole),
    ("cittadinanza", Whole),
    ("civile", Whole),
    ("professione", Whole),
    ("occupazione", Whole),
    ("istruzione", Whole),
    ("altezza", Whole),
    ("lingua", Whole),
    ("ricovero", Whole),
    ("dimissione", Start),
    // Dutch
    ("leeftijd", Whole),
    ("geslacht", Whole),
    ("geboorte", Start),
    ("woonplaats", Whole),
    ("plaats", End),
    ("stad", Whole),
    ("gemeente", Whole),
    ("provincie", Whole),
    ("nationaliteit", Whole),
    ("burgerlijke", Whole),
    ("beroep", Whole),
    ("opleiding", Whole),
    ("lengte", Whole),
    ("taal", Whole),
    ("opname", Start),
    ("ontslag", Start),
];

/// Words of values that must not be inferred: sensitive.
const SENSITIVE: &[(&str, Part)] = &[
    // English
    ("diagnosis", Whole),
    ("diag", Whole),
    ("icd", Whole),
    ("disease", Whole),
    ("condition", Whole),
    ("illness", Whole),
    ("disorder", Whole),
    ("result", Whole),
    ("outcome", Whole),
    ("salary", Whole),
    ("income", Whole),
    ("medication", Whole),
    ("drug", Whole),
    ("treatment", Whole),
    ("procedure", Whole),
    ("therapy", Whole),
    ("hiv", Whole),
    ("pregnancy", Whole),
    ("cancer", Whole),
    ("finding", Whole),
    ("symptom", Whole),
    ("prescription", Whole),
    // German
    ("diagnose", End),
    ("befund", End),
    ("krankheit", End),
    ("erkrankung", End),
    ("medikament", Start),
    ("medikation", Whole),
    ("behandlung", End),
    ("therapie", End),
    ("einkommen", End),
    ("gehalt", Whole),
    ("lohn", Whole),
    ("ergebnis", End),
    ("schwangerschaft", Whole),
    // French
    ("diagnostic", Whole),
    ("maladie", Whole),
    ("pathologie", Whole),
    ("traitement", Whole),
    ("medicament", Whole),
    ("salaire", Whole),
    ("revenu", Whole),
    ("resultat", Whole),
    ("grossesse", Whole),
    ("symptome", Whole),
    // Spanish
    ("diagnostico", Whole),
    ("enfermedad", Whole),
    ("patologia", Whole),
    ("tratamiento", Whole),
    ("medicamento", Whole),
    ("medicacion", Whole),
    ("terapia", Whole),
    ("salario", Whole),
    ("sueldo", Whole),
    ("ingresos", Whole),
    ("resultado", Whole),
    ("embarazo", Whole),
    ("sintoma", Whole),
    // Italian
    ("diagnosi", Whole),
    ("malattia", Whole),
    ("trattamento", Whole),
    ("farmaco", Whole),
    ("stipendio", Whole),
    ("reddito", Whole),
    ("esito", Whole),
    ("risultato", Whole),
    ("gravidanza", Whole),
    ("sintomo", Whole),
    // Dutch
    ("ziekte", End),
    ("aandoening", Whole),
    ("behandeling", Whole),
    ("medicatie", Whole),
    ("medicijn", Start),
    ("salaris", Whole),
    ("inkomen", Whole),
    ("uitslag", Whole),
    ("resultaat", Whole),
    ("zwangerschap", Whole),
    ("symptoom", Whole),
];

/// A letter without its accent, lower case (the letters of the six languages of the word
/// table; `ß` becomes `ss`, `œ` `oe`, `æ` `ae`).
fn unaccent(c: char, out: &mut String) {
    let plain = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        'ß' => return out.push_str("ss"),
        'œ' => return out.push_str("oe"),
        'æ' => return out.push_str("ae"),
        c => c,
    };
    out.push(plain);
}

/// Folded words of a column name: `admissionDate` and `admission_date` give the same;
/// `Straße` gives `strasse`, `âge` `age`.
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
        for l in c.to_lowercase() {
            unaccent(l, &mut cur);
        }
    }
    out.push(cur);
    out.retain(|w| !w.is_empty());
    out
}

/// The first entry of `list` that a word matches.
fn has(words: &[String], list: &[(&'static str, Part)]) -> Option<&'static str> {
    words.iter().find_map(|w| {
        list.iter().find_map(|&(entry, part)| {
            let hit = match part {
                Whole => w == entry,
                Start => w.starts_with(entry),
                End => w.ends_with(entry),
            };
            hit.then_some(entry)
        })
    })
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
        return (Role::DirectIdentifier, format!("{:.0} % of the filled cells are distinct, so the value nearly singles out each row.", 100.0 * unique_share));
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

    /// Headers from real exports in German, French, Spanish, Italian and Dutch (issue 36):
    /// each gets its role from its name alone (few distinct values, categorical).
    #[test]
    fn header_names_in_six_languages() {
        let cat = facts(Kind::Categorical, 5);
        let cases: &[(Role, &[&str])] = &[
            (
                Role::DirectIdentifier,
                &[
                    "Nachname",
                    "Vorname",
                    "Familienname",
                    "Straße",
                    "Telefonnummer",
                    "E-Mail-Adresse",
                    "nom",
                    "prénom",
                    "nom de famille",
                    "téléphone",
                    "apellido",
                    "nombre",
                    "teléfono",
                    "dirección",
                    "cognome",
                    "nome",
                    "codice fiscale",
                    "indirizzo",
                    "achternaam",
                    "voornaam",
                    "telefoonnummer",
                    "straatnaam",
                    "adres",
                ],
            ),
            (
                Role::QuasiIdentifier,
                &[
                    "Geburtsdatum",
                    "Geschlecht",
                    "PLZ",
                    "Postleitzahl",
                    "Alter",
                    "Wohnort",
                    "Aufnahmedatum",
                    "Staatsangehörigkeit",
                    "Größe",
                    "âge",
                    "sexe",
                    "date de naissance",
                    "code postal",
                    "ville",
                    "nationalité",
                    "edad",
                    "sexo",
                    "fecha de nacimiento",
                    "código postal",
                    "país",
                    "data di nascita",
                    "sesso",
                    "CAP",
                    "età",
                    "città",
                    "geboortedatum",
                    "geslacht",
                    "postcode",
                    "leeftijd",
                    "woonplaats",
                    "geboorteplaats",
                ],
            ),
            (
                Role::Sensitive,
                &[
                    "Diagnose",
                    "Hauptdiagnose",
                    "Befund",
                    "Medikamente",
                    "Vorerkrankung",
                    "diagnostic",
                    "maladie",
                    "traitement",
                    "diagnóstico",
                    "enfermedad",
                    "tratamiento",
                    "diagnosi",
                    "malattia",
                    "esito",
                    "ziekte",
                    "behandeling",
                    "medicijnen",
                ],
            ),
            (Role::Insensitive, &["Station", "Bemerkung", "hotel", "update", "Sport", "Mobilität", "remarque", "reparto", "afdeling"]),
        ];
        for (role, names) in cases {
            for name in *names {
                assert_eq!(propose(name, &cat).0, *role, "{name}: {}", propose(name, &cat).1);
            }
        }
    }

    #[test]
    fn words_are_folded_and_split() {
        assert_eq!(words("Straße"), ["strasse"]);
        assert_eq!(words("âgePatient"), ["age", "patient"]);
        assert_eq!(words("código_postal"), ["codigo", "postal"]);
        assert_eq!(words("Œuvre"), ["oeuvre"]);
    }
}
