//! The HIPAA Safe Harbor checklist (issue 16, Deliver 4; project-defined): each of the 18
//! identifier kinds of 45 CFR 164.514(b)(2)(i) (A)-(R) checked against the released file's
//! values, one distinct value of each column's dictionary at a time (never per cell), helped by
//! the column names. A kind is `flagged` (with the columns at fault, the reason and one example
//! value each), `not_found`, or `not_checkable` (biometric identifiers and photographs cannot be
//! recognised from cell values: only column names, and image file names, are checked).
//!
//! A checklist of what the values show, never a statement of compliance: Safe Harbor also asks
//! that the covered entity have no actual knowledge that the rest could identify a person, which
//! no file can show. Example values are record-level (the shareable report drops them).

use std::net::IpAddr;

use serde_json::{Value, json};

use crate::ingest::cell::{Cell, Normaliser};
use crate::metric::{Context, MetricResult};
use crate::table::Table;
use crate::table::roles::words;

/// The three-digit ZIP prefixes whose areas hold 20,000 people or fewer (HHS guidance on
/// 164.514(b)(2)(i)(B), 2000 Census): these must become `000`.
pub const RESTRICTED_ZIP3: [&str; 17] = ["036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830", "831", "878", "879", "884", "890", "893"];

/// A column with at least this share of distinct values among its filled cells is "nearly
/// unique per row" (kind R; the role proposal's 0.9 is for a first guess, this is stricter).
pub const NEARLY_UNIQUE: f64 = 0.95;
/// ... when it has at least this many filled cells (in a smaller file every column is).
pub const NEARLY_UNIQUE_MIN_ROWS: u64 = 10;

/// The 18 kinds: id, paragraph of 164.514(b)(2)(i), label.
pub const KINDS: [(&str, &str, &str); 18] = [
    ("names", "A", "Names"),
    ("geographic", "B", "Geographic subdivisions smaller than a state (street, city, county, ZIP code beyond its first 3 digits)"),
    ("dates", "C", "Dates (except the year) and ages over 89"),
    ("phone", "D", "Telephone numbers"),
    ("fax", "E", "Fax numbers"),
    ("email", "F", "E-mail addresses"),
    ("ssn", "G", "Social security numbers"),
    ("medical_record", "H", "Medical record numbers"),
    ("health_plan", "I", "Health plan beneficiary numbers"),
    ("account", "J", "Account numbers"),
    ("certificate_license", "K", "Certificate and licence numbers"),
    ("vehicle", "L", "Vehicle identifiers and serial numbers, including licence plates"),
    ("device", "M", "Device identifiers and serial numbers"),
    ("url", "N", "Web addresses (URLs)"),
    ("ip", "O", "IP addresses"),
    ("biometric", "P", "Biometric identifiers (finger and voice prints)"),
    ("photo", "Q", "Full-face photographs and comparable images"),
    ("other_unique", "R", "Any other unique identifying number, characteristic or code"),
];

/// One column as the checklist reads it: its distinct values with their counts.
pub struct ColumnValues<'a> {
    /// Header name.
    pub name: &'a str,
    /// Distinct values (raw text) and how many cells hold each.
    pub values: Vec<(&'a str, u64)>,
    /// Whether `values` holds every distinct value (false past the cap of a column no role
    /// needs: the rest were only counted).
    pub complete: bool,
    /// Distinct non-blank values (estimated when not complete).
    pub distinct: u64,
    /// Filled (non-blank) cells.
    pub non_blank: u64,
    /// Cells shaped like e-mail addresses, counted by the profile's sketch over the values it
    /// did not keep (0 for a complete column).
    pub email_like: u64,
    /// Cells read as dates or date ranges (a month is a range), counted the same way.
    pub date_cells: u64,
}

/// The columns of a table, with its profiles (same order).
pub fn columns_of<'a>(table: &'a Table, profiles: &[crate::table::profile::ColumnProfile]) -> Vec<ColumnValues<'a>> {
    table
        .columns
        .iter()
        .zip(profiles)
        .enumerate()
        .map(|(j, (c, p))| ColumnValues {
            name: &table.header[j],
            values: (0..c.values.len() as u32).map(|code| (c.values.text(code), c.values.count(code))).filter(|v| v.1 > 0).collect(),
            complete: c.sketch.is_none(),
            distinct: p.distinct,
            non_blank: table.facts.rows_total.saturating_sub(p.forms.missing + p.forms.suppressed),
            email_like: c.sketch.as_ref().map_or(0, |s| s.stats.email_like),
            date_cells: c.sketch.as_ref().map_or(0, |s| s.stats.tally.date + s.stats.tally.date_range),
        })
        .collect()
}

/// One finding: a column at fault for a kind.
struct Finding {
    column: String,
    reason: String,
    example: Option<String>,
    distinct_values: u64,
    cells: u64,
}

/// What a check of one column found: the reason, the matching values' count, cells and an
/// example.
#[derive(Default)]
struct Hits {
    distinct: u64,
    cells: u64,
    example: Option<String>,
}

impl Hits {
    fn add(&mut self, t: &str, n: u64) {
        self.distinct += 1;
        self.cells += n;
        if self.example.is_none() {
            self.example = Some(t.to_string());
        }
    }
}

/// The column name's lower-case words and their concatenation.
struct Name {
    words: Vec<String>,
    joined: String,
}

impl Name {
    fn new(name: &str) -> Name {
        let words = words(name);
        Name { joined: words.concat(), words }
    }

    /// The first of `list` that is a word of the name, or part of its concatenation when at
    /// least 5 letters long (`patientname`, `licenseplate`).
    fn hint(&self, list: &[&str]) -> Option<String> {
        list.iter().find(|h| self.words.iter().any(|w| w == *h) || (h.len() >= 5 && self.joined.contains(*h))).map(|h| h.to_string())
    }
}

const NAME_WORDS: &[&str] =
    &["name", "names", "firstname", "lastname", "surname", "fullname", "forename", "givenname", "middlename", "maidenname", "patientname", "familyname"];
const ZIP_WORDS: &[&str] = &["zip", "zipcode", "postcode", "postal", "postalcode", "plz"];
const PLACE_WORDS: &[&str] = &[
    "address",
    "street",
    "city",
    "town",
    "village",
    "county",
    "municipality",
    "borough",
    "district",
    "neighborhood",
    "neighbourhood",
    "precinct",
    "tract",
    "geocode",
    "latitude",
    "longitude",
    "lat",
    "lon",
    "lng",
    "coordinates",
];
const AGE_WORDS: &[&str] = &["age", "ageyears", "ageatadmission", "ageatdeath"];
const PHONE_WORDS: &[&str] = &["phone", "telephone", "tel", "mobile", "cell", "cellphone"];
const FAX_WORDS: &[&str] = &["fax", "telefax"];
const SSN_WORDS: &[&str] = &["ssn", "socialsecurity"];
const MRN_WORDS: &[&str] = &["mrn", "medicalrecord", "chart", "patientid", "patientnumber", "patientno"];
const PLAN_WORDS: &[&str] = &["healthplan", "insurance", "insurer", "memberid", "beneficiary", "medicare", "medicaid", "subscriber", "policynumber"];
const ACCOUNT_WORDS: &[&str] = &["account", "acct", "iban", "bankaccount", "creditcard", "cardnumber"];
const LICENSE_WORDS: &[&str] = &["license", "licence", "certificate", "cert", "dea", "npi", "permit"];
const VEHICLE_WORDS: &[&str] = &["vin", "vehicle", "licenseplate", "licenceplate", "numberplate", "plate"];
const DEVICE_WORDS: &[&str] = &["device", "serial", "serialnumber", "udi", "imei", "macaddress", "mac"];
const BIOMETRIC_WORDS: &[&str] = &["fingerprint", "biometric", "retina", "iris", "voiceprint", "faceprint"];
const PHOTO_WORDS: &[&str] = &["photo", "photograph", "image", "picture", "portrait", "selfie", "headshot", "face"];

/// Common given names (a short list: a value holding one of them as a word looks like a
/// person's name).
const GIVEN_NAMES: &[&str] = &[
    "james",
    "john",
    "robert",
    "michael",
    "william",
    "david",
    "richard",
    "joseph",
    "thomas",
    "charles",
    "christopher",
    "daniel",
    "matthew",
    "anthony",
    "mark",
    "donald",
    "steven",
    "paul",
    "andrew",
    "joshua",
    "kevin",
    "brian",
    "george",
    "edward",
    "ronald",
    "timothy",
    "jason",
    "jeffrey",
    "ryan",
    "jacob",
    "gary",
    "eric",
    "peter",
    "frank",
    "scott",
    "mary",
    "patricia",
    "jennifer",
    "linda",
    "elizabeth",
    "barbara",
    "susan",
    "jessica",
    "sarah",
    "karen",
    "nancy",
    "lisa",
    "betty",
    "margaret",
    "sandra",
    "ashley",
    "kimberly",
    "emily",
    "donna",
    "michelle",
    "dorothy",
    "carol",
    "amanda",
    "melissa",
    "deborah",
    "stephanie",
    "rebecca",
    "sharon",
    "laura",
    "cynthia",
    "anna",
    "emma",
    "olivia",
    "sophie",
    "marie",
    "hans",
    "peter",
    "klaus",
    "jean",
    "pierre",
    "maria",
    "jose",
    "juan",
    "luis",
    "carlos",
    "ana",
    "mohammed",
    "ali",
    "fatima",
    "wei",
    "li",
    "yuki",
    "hiroshi",
    "ivan",
    "olga",
    "anne",
    "julia",
    "lucas",
    "noah",
    "liam",
    "mia",
    "lena",
];

fn digits(t: &str) -> usize {
    t.bytes().filter(u8::is_ascii_digit).count()
}

fn all(t: &str, f: impl Fn(u8) -> bool) -> bool {
    !t.is_empty() && t.bytes().all(f)
}

fn is_email(t: &str) -> bool {
    let Some((local, domain)) = t.split_once('@') else { return false };
    !local.is_empty() && !domain.contains('@') && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.') && !t.contains(char::is_whitespace)
}

fn is_url(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    ["http://", "https://", "ftp://", "www."].iter().any(|p| l.starts_with(p)) && l.len() > 7 && !l.contains(' ')
}

fn is_ip(t: &str) -> bool {
    // IPv4 as a dotted quad, or IPv6 (which holds a colon).
    (t.contains(':') || t.bytes().filter(|&b| b == b'.').count() == 3) && t.parse::<IpAddr>().is_ok()
}

fn is_ssn(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 11 && b[3] == b'-' && b[6] == b'-' && b.iter().enumerate().all(|(i, c)| i == 3 || i == 6 || c.is_ascii_digit())
}

/// A telephone or fax number: digits with the usual separators. Without a hint in the column
/// name it must have 10 to 15 digits and a separator or a leading `+` (so that a plain number
/// or an id is not one); with a hint, 7 to 15 digits.
fn is_phone(t: &str, hinted: bool) -> bool {
    if !all(t, |c| c.is_ascii_digit() || b" -.()+/".contains(&c)) || t.contains('+') && !t.starts_with('+') {
        return false;
    }
    let d = digits(t);
    let separated = t.starts_with('+') || t.bytes().any(|c| b" -.()/".contains(&c));
    if hinted { (7..=15).contains(&d) } else { (10..=15).contains(&d) && separated && !is_date_token(t) && t.matches('.').count() != 3 }
}

/// A US ZIP code: 5 digits or ZIP+4.
fn is_zip5(t: &str) -> bool {
    let b = t.as_bytes();
    (b.len() == 5 && all(t, |c| c.is_ascii_digit())) || (b.len() == 10 && b[5] == b'-' && b.iter().enumerate().all(|(i, c)| i == 5 || c.is_ascii_digit()))
}

/// The 3-digit prefix of a generalized ZIP (`021`, `021**`, `021XX`), when `t` is one.
fn zip3(t: &str) -> Option<&str> {
    let b = t.as_bytes();
    let masked = |rest: &[u8]| rest.iter().all(|c| matches!(c, b'*' | b'x' | b'X' | b'#'));
    (b.len() >= 3 && b[..3].iter().all(u8::is_ascii_digit) && (b.len() == 3 || (b.len() == 5 && masked(&b[3..])))).then(|| &t[..3])
}

/// A street address: a house number, then words ending with (or holding) a street type.
fn is_street(t: &str) -> bool {
    const TYPES: &[&str] = &[
        "st",
        "street",
        "ave",
        "avenue",
        "rd",
        "road",
        "blvd",
        "boulevard",
        "lane",
        "ln",
        "dr",
        "drive",
        "way",
        "court",
        "ct",
        "place",
        "pl",
        "terrace",
        "strasse",
        "straße",
        "str",
        "rue",
        "square",
        "highway",
        "hwy",
    ];
    let parts: Vec<String> =
        t.split(|c: char| c.is_whitespace() || c == ',').filter(|p| !p.is_empty()).map(|p| p.trim_end_matches('.').to_lowercase()).collect();
    parts.len() >= 3 && parts[0].bytes().next().is_some_and(|c| c.is_ascii_digit()) && parts[1..].iter().any(|p| TYPES.contains(&p.as_str()))
}

const MONTHS: &[&str] = &["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"];

/// A date with a month or day: `2020-03-15`, `2020-03`, `15.03.2020`, `03/15/2020`, `3/2020`,
/// with an optional time after `T` or a space.
fn is_date_token(t: &str) -> bool {
    let t = t.split('T').next().unwrap_or(t);
    let parts: Vec<&str> = t.split(['-', '/', '.']).collect();
    let num = |p: &str| all(p, |c| c.is_ascii_digit()).then(|| p.parse::<u32>().ok()).flatten();
    let n: Vec<Option<u32>> = parts.iter().map(|p| num(p)).collect();
    if n.iter().any(Option::is_none) {
        return false;
    }
    let n: Vec<u32> = n.into_iter().flatten().collect();
    let len = |i: usize| parts[i].len();
    let month = |m: u32| (1..=12).contains(&m);
    let day = |d: u32| (1..=31).contains(&d);
    match n.len() {
        3 if len(0) == 4 => month(n[1]) && day(n[2]) && len(1) <= 2 && len(2) <= 2,
        3 if len(2) == 4 || len(2) == 2 => len(0) <= 2 && len(1) <= 2 && ((month(n[0]) && day(n[1])) || (day(n[0]) && month(n[1]))),
        2 if len(0) == 4 && len(1) <= 2 => month(n[1]) && t.contains('-'),
        2 if len(1) == 4 && len(0) <= 2 => month(n[0]) && !t.contains('.'),
        _ => false,
    }
}

/// Whether a value holds a date element more precise than the year.
fn has_date_element(t: &str, hinted: bool) -> bool {
    let tokens: Vec<&str> = t.split(|c: char| c.is_whitespace() || ",;[]()".contains(c)).filter(|p| !p.is_empty()).collect();
    if tokens.iter().any(|p| is_date_token(p)) {
        return true;
    }
    // YYYYMMDD in a column whose name says date.
    if hinted && tokens.len() == 1 && t.len() == 8 && all(t, |c| c.is_ascii_digit()) {
        let (y, m, d) = (&t[..4], &t[4..6], &t[6..]);
        return y.starts_with(['1', '2']) && (1..=12).contains(&m.parse::<u32>().unwrap_or(0)) && (1..=31).contains(&d.parse::<u32>().unwrap_or(0));
    }
    // "March 3, 2020", "Mar 2020", "3 Mar 2020".
    let month = tokens.iter().any(|p| {
        let l = p.to_lowercase();
        MONTHS.iter().any(|m| l == *m || (l.len() > 3 && l.starts_with(m) && l.chars().all(char::is_alphabetic)))
    });
    month && tokens.iter().any(|p| all(p, |c| c.is_ascii_digit()) && (p.len() == 4 || p.len() <= 2))
}

/// An age over 89 given exactly or as a closed range: `93`, `92.5`, `90-94`, `[90, 95)`; the
/// open-ended `90+`, `>89`, `>=90`, `90 or older` are the category Safe Harbor allows.
fn is_age_over_89(t: &str) -> bool {
    let l = t.to_lowercase();
    if l.ends_with('+') || l.starts_with('>') || l.starts_with('≥') || l.contains("older") || l.contains("over") || l.contains("more") {
        return false;
    }
    let first: String = l.trim_start_matches(['[', '(']).chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    match first.parse::<f64>() {
        Ok(a) => a > 89.0 && a < 150.0 && (first.len() == l.len() || l.contains(['-', ',', ';'])),
        Err(_) => false,
    }
}

/// The words of a value (lower case, letters only).
fn value_words(t: &str) -> Vec<String> {
    t.split(|c: char| !c.is_alphabetic() && c != '\'').filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// Letters, spaces and the punctuation of names only.
fn looks_like_name(t: &str) -> bool {
    t.chars().any(char::is_alphabetic) && t.chars().all(|c| c.is_alphabetic() || " .,'-".contains(c))
}

/// A personal name by its values alone: two to four capitalised words, one a common given name.
fn holds_given_name(t: &str) -> bool {
    let words: Vec<&str> = t.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    (2..=4).contains(&words.len())
        && looks_like_name(t)
        && words.iter().all(|w| w.chars().next().is_some_and(char::is_uppercase))
        && value_words(t).iter().any(|w| GIVEN_NAMES.contains(&w.as_str()))
}

/// Luhn's check (cards, IMEI, NPI).
fn luhn(d: &[u8]) -> bool {
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &c)| {
            let x = u32::from(c - b'0');
            if i % 2 == 1 { if x * 2 > 9 { x * 2 - 9 } else { x * 2 } } else { x }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// A payment card number written in groups of four (`4111 1111 1111 1111`) passing Luhn's check.
fn is_card(t: &str) -> bool {
    let groups: Vec<&str> = t.split([' ', '-']).collect();
    let d: Vec<u8> = t.bytes().filter(u8::is_ascii_digit).collect();
    groups.len() >= 4 && groups.iter().all(|g| all(g, |c| c.is_ascii_digit()) && g.len() <= 4) && (13..=19).contains(&d.len()) && luhn(&d)
}

/// An IBAN passing its mod-97 check.
fn is_iban(t: &str) -> bool {
    let s: String = t.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase();
    let b = s.as_bytes();
    if !(15..=34).contains(&b.len())
        || !b[..2].iter().all(u8::is_ascii_uppercase)
        || !b[2..4].iter().all(u8::is_ascii_digit)
        || !b.iter().all(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    let rotated = b[4..].iter().chain(&b[..4]);
    let mut r: u64 = 0;
    for &c in rotated {
        let v = if c.is_ascii_digit() { u64::from(c - b'0') } else { u64::from(c - b'A') + 10 };
        r = if v >= 10 { (r * 100 + v) % 97 } else { (r * 10 + v) % 97 };
    }
    r == 1
}

/// A DEA registration number: two letters, seven digits, passing its check digit.
fn is_dea(t: &str) -> bool {
    let b = t.as_bytes();
    if b.len() != 9 || !b[..2].iter().all(u8::is_ascii_alphabetic) || !b[2..].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let d: Vec<u32> = b[2..].iter().map(|&c| u32::from(c - b'0')).collect();
    (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10 == d[6]
}

/// A 17-character vehicle identification number passing the North American check digit.
fn is_vin(t: &str) -> bool {
    let b = t.to_ascii_uppercase().into_bytes();
    if b.len() != 17 || !b.iter().all(|c| c.is_ascii_digit() || (c.is_ascii_uppercase() && !b"IOQ".contains(c))) {
        return false;
    }
    let value = |c: u8| -> u32 {
        if c.is_ascii_digit() {
            return u32::from(c - b'0');
        }
        let table = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        let values = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9];
        table.iter().position(|&x| x == c).map_or(0, |i| values[i])
    };
    let weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum: u32 = b.iter().zip(weights).map(|(&c, w)| value(c) * w).sum();
    let check = if sum % 11 == 10 { b'X' } else { b'0' + (sum % 11) as u8 };
    b[8] == check && b.iter().any(u8::is_ascii_alphabetic)
}

/// A MAC address (`00:1A:2B:3C:4D:5E`).
fn is_mac(t: &str) -> bool {
    let parts: Vec<&str> = t.split([':', '-']).collect();
    parts.len() == 6 && parts.iter().all(|p| p.len() == 2 && p.bytes().all(|c| c.is_ascii_hexdigit()))
}

/// A Medicare beneficiary identifier (11 characters, CMS's layout).
fn is_mbi(t: &str) -> bool {
    let b = t.as_bytes();
    let letter = |c: u8| c.is_ascii_uppercase() && !b"SLOIBZ".contains(&c);
    let pattern = "CAN NAN NAA NN";
    let kinds: Vec<char> = pattern.chars().filter(|c| *c != ' ').collect();
    b.len() == 11
        && b.iter().zip(&kinds).enumerate().all(|(i, (&c, k))| match k {
            'C' => (b'1'..=b'9').contains(&c),
            'A' => letter(c),
            'N' => c.is_ascii_digit() || (letter(c) && i != 3 && i != 6 && i != 9 && i != 10),
            _ => false,
        })
        && b.iter().filter(|c| c.is_ascii_uppercase()).count() >= 2
}

fn is_image_file(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    l.starts_with("data:image/") || [".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".heic", ".dcm"].iter().any(|e| l.ends_with(e))
}

/// The checklist over the columns: one entry per kind.
struct Checklist {
    findings: Vec<Vec<Finding>>,
}

impl Checklist {
    fn add(&mut self, kind: &str, column: &str, reason: String, hits: Hits) {
        let k = KINDS.iter().position(|x| x.0 == kind).expect("a known kind");
        self.findings[k].push(Finding { column: column.to_string(), reason, example: hits.example, distinct_values: hits.distinct, cells: hits.cells });
    }

    fn flagged(&self, column: &str) -> bool {
        self.findings.iter().flatten().any(|f| f.column == column)
    }
}

/// A kind of number (H-M): its id, the words of a column name that hint at it, the value check,
/// and what matching values look like.
type NumberedKind<'a> = (&'static str, &'static [&'static str], &'a dyn Fn(&str) -> bool, &'static str);

/// Checks one column by its distinct values (and its name).
fn check_column(c: &ColumnValues<'_>, norm: &Normaliser, out: &mut Checklist) {
    let name = Name::new(c.name);
    let filled: Vec<(std::borrow::Cow<str>, u64)> = c
        .values
        .iter()
        .filter_map(|&(t, n)| match norm.normalise(t) {
            Cell::Text(t) => Some((t, n)),
            _ => None,
        })
        .collect();
    if filled.is_empty() && c.email_like == 0 && c.date_cells == 0 && c.complete {
        return;
    }
    let scan = |pred: &dyn Fn(&str) -> bool| {
        let mut h = Hits::default();
        for (t, n) in filled.iter().map(|(t, n)| (t.as_ref(), *n)) {
            if pred(t) {
                h.add(t, n);
            }
        }
        h
    };
    let whole = || {
        let mut h = Hits::default();
        for (t, n) in filled.iter().map(|(t, n)| (t.as_ref(), *n)) {
            h.add(t, n);
        }
        h
    };
    let found = |h: &Hits| h.distinct > 0;
    let share = |h: &Hits| h.distinct as f64 / filled.len().max(1) as f64;
    let values_of = |h: &Hits, what: &str| {
        if h.distinct == filled.len() as u64 {
            format!("every value looks like {what}")
        } else {
            let verb = if h.distinct == 1 { "looks" } else { "look" };
            format!("{} of {} distinct values {verb} like {what}", h.distinct, filled.len())
        }
    };
    // Hints in the name take a value check's place only where no value pattern exists; a
    // hinted column whose values are all of another shape is still reported by its name.
    let by_name = |hint: &str, what: &str| format!("the column name says \"{hint}\" ({what}); its values could not be told apart by their shape");

    // (A) Names.
    let name_hint = name.hint(NAME_WORDS);
    let names = scan(&|t: &str| looks_like_name(t));
    let given = scan(&|t: &str| holds_given_name(t));
    if let (Some(hint), true) = (&name_hint, share(&names) >= 0.5) {
        out.add("names", c.name, format!("the column name says \"{hint}\" and {}", values_of(&names, "names (letters only)")), names);
    } else if given.distinct >= 3 && share(&given) >= 0.3 {
        out.add("names", c.name, values_of(&given, "personal names (capitalised words holding a common given name)"), given);
    }

    // (B) Geography: ZIP codes by value, streets by value, places by name.
    let zip_hint = name.hint(ZIP_WORDS);
    let zip_plus4 = scan(&|t: &str| t.len() == 10 && is_zip5(t));
    if let Some(hint) = &zip_hint {
        let full = scan(&|t: &str| is_zip5(t));
        if found(&full) {
            out.add(
                "geographic",
                c.name,
                format!("the column name says \"{hint}\" and {}", values_of(&full, "full 5-digit ZIP codes (only the first 3 digits may stay)")),
                full,
            );
        }
        let restricted = scan(&|t: &str| zip3(t).is_some_and(|p| RESTRICTED_ZIP3.contains(&p)));
        if found(&restricted) {
            out.add(
                "geographic",
                c.name,
                values_of(&restricted, "3-digit ZIP prefixes of an area of 20,000 people or fewer (these must become 000)"),
                restricted,
            );
        }
    } else if found(&zip_plus4) {
        out.add("geographic", c.name, values_of(&zip_plus4, "ZIP+4 codes"), zip_plus4);
    }
    let streets = scan(&|t: &str| is_street(t));
    if found(&streets) {
        out.add("geographic", c.name, values_of(&streets, "street addresses"), streets);
    } else if let Some(hint) = name.hint(PLACE_WORDS) {
        out.add("geographic", c.name, by_name(&hint, "a place smaller than a state"), whole());
    }

    // (C) Dates more precise than the year; ages over 89.
    let date_hint = name.hint(&["date", "dob", "birth", "birthday", "born", "admission", "admitted", "discharge", "death", "visit", "dod"]).is_some();
    let dates = scan(&|t: &str| has_date_element(t, date_hint));
    if found(&dates) {
        out.add("dates", c.name, values_of(&dates, "dates with a month or day"), dates);
    } else if c.date_cells > 0 {
        let reason = format!("{} cells read as dates or months (counted without keeping the values: the column has too many distinct values)", c.date_cells);
        out.add("dates", c.name, reason, Hits { distinct: 0, cells: c.date_cells, example: None });
    }
    if let Some(hint) = name.hint(AGE_WORDS) {
        let old = scan(&|t: &str| is_age_over_89(t));
        if found(&old) {
            out.add(
                "dates",
                c.name,
                format!("the column name says \"{hint}\" and {}", values_of(&old, "ages over 89 (allowed only as one category \"90 or older\")")),
                old,
            );
        }
    }

    // (D, E) Telephone and fax numbers.
    let fax_hint = name.hint(FAX_WORDS);
    let phone_hint = name.hint(PHONE_WORDS);
    let phones = scan(&|t: &str| is_phone(t, fax_hint.is_some() || phone_hint.is_some()));
    if found(&phones) {
        let (kind, what) = if fax_hint.is_some() { ("fax", "fax numbers") } else { ("phone", "telephone numbers") };
        out.add(kind, c.name, values_of(&phones, what), phones);
    }

    // (F) E-mail: the values kept, else the profile's count over every cell.
    let emails = scan(&|t: &str| is_email(t));
    if found(&emails) {
        out.add("email", c.name, values_of(&emails, "e-mail addresses"), emails);
    } else if c.email_like > 0 {
        out.add("email", c.name, format!("{} cells look like e-mail addresses", c.email_like), Hits { distinct: 0, cells: c.email_like, example: None });
    }

    // (G) Social security numbers.
    let ssn_hint = name.hint(SSN_WORDS);
    let ssn = scan(&|t: &str| is_ssn(t) || (ssn_hint.is_some() && t.len() == 9 && all(t, |b| b.is_ascii_digit())));
    if found(&ssn) {
        out.add("ssn", c.name, values_of(&ssn, "social security numbers (ddd-dd-dddd)"), ssn);
    }

    // (H-M) Record, plan, account, licence, vehicle and device numbers: values with a known
    // check digit or layout, else the column's name.
    let numbered: [NumberedKind<'_>; 6] = [
        ("medical_record", MRN_WORDS, &|t: &str| t.to_ascii_uppercase().starts_with("MRN") && digits(t) >= 4, "medical record numbers (MRN...)"),
        ("health_plan", PLAN_WORDS, &is_mbi, "Medicare beneficiary identifiers"),
        ("account", ACCOUNT_WORDS, &|t: &str| is_iban(t) || is_card(t), "account numbers (IBAN or payment card, check digits valid)"),
        ("certificate_license", LICENSE_WORDS, &is_dea, "DEA registration numbers (check digit valid)"),
        ("vehicle", VEHICLE_WORDS, &is_vin, "vehicle identification numbers (check digit valid)"),
        ("device", DEVICE_WORDS, &is_mac, "device MAC addresses"),
    ];
    let vehicle_named = name.hint(VEHICLE_WORDS).is_some();
    for (kind, hints, pred, what) in numbered {
        let hits = scan(pred);
        if found(&hits) {
            out.add(kind, c.name, values_of(&hits, what), hits);
        } else if let Some(hint) = name.hint(hints) {
            // "license plate" is a vehicle identifier, not a licence number.
            if kind == "certificate_license" && vehicle_named {
                continue;
            }
            out.add(kind, c.name, by_name(&hint, "a number of this kind"), whole());
        }
    }

    // (N, O) URLs and IP addresses.
    let urls = scan(&|t: &str| is_url(t));
    if found(&urls) {
        out.add("url", c.name, values_of(&urls, "web addresses"), urls);
    }
    let ips = scan(&|t: &str| is_ip(t));
    if found(&ips) {
        out.add("ip", c.name, values_of(&ips, "IP addresses"), ips);
    }

    // (P, Q) Biometrics by name only; photographs by name or image file names.
    if let Some(hint) = name.hint(BIOMETRIC_WORDS) {
        out.add("biometric", c.name, format!("the column name says \"{hint}\" (checked by the column name only)"), whole());
    }
    let images = scan(&|t: &str| is_image_file(t));
    if found(&images) {
        out.add("photo", c.name, values_of(&images, "image files"), images);
    } else if let Some(hint) = name.hint(PHOTO_WORDS) {
        out.add("photo", c.name, format!("the column name says \"{hint}\" (checked by the column name only)"), whole());
    }
}

/// (R): columns nearly unique per row that no other kind flagged.
fn check_unique(columns: &[ColumnValues<'_>], norm: &Normaliser, out: &mut Checklist) {
    for c in columns {
        if out.flagged(c.name) || c.non_blank < NEARLY_UNIQUE_MIN_ROWS {
            continue;
        }
        let share = c.distinct as f64 / c.non_blank as f64;
        if share >= NEARLY_UNIQUE {
            let example = c.values.iter().find_map(|&(t, _)| match norm.normalise(t) {
                Cell::Text(t) => Some(t.to_string()),
                _ => None,
            });
            let about = if c.complete { "" } else { "about " };
            let reason = format!(
                "{about}{} distinct values over {} filled cells ({:.0} %): the value nearly singles out each row",
                c.distinct,
                c.non_blank,
                100.0 * share.min(1.0)
            );
            out.add("other_unique", c.name, reason, Hits { distinct: c.distinct, cells: c.non_blank, example });
        }
    }
}

/// The `hipaa_safe_harbor` metric: its value is the number of kinds flagged.
pub fn metric(ctx: &Context, columns: &[ColumnValues<'_>], norm: &Normaliser) -> MetricResult {
    let mut list = Checklist { findings: (0..KINDS.len()).map(|_| Vec::new()).collect() };
    for c in columns {
        check_column(c, norm, &mut list);
    }
    check_unique(columns, norm, &mut list);
    let kinds: Vec<Value> = KINDS
        .iter()
        .zip(&list.findings)
        .map(|(&(id, paragraph, label), findings)| {
            let name_only = matches!(id, "biometric" | "photo");
            let status = match (findings.is_empty(), name_only) {
                (false, _) => "flagged",
                (true, false) => "not_found",
                (true, true) => "not_checkable",
            };
            let findings: Vec<Value> = findings
                .iter()
                .map(|f| json!({ "column": f.column, "reason": f.reason, "example_value": f.example, "distinct_values": f.distinct_values, "cells": f.cells }))
                .collect();
            let mut entry = json!({ "id": id, "paragraph": paragraph, "label": label, "status": status, "columns": findings.iter().map(|f| f["column"].clone()).collect::<Vec<_>>(), "findings": findings });
            if name_only {
                entry["note"] = json!(if id == "biometric" {
                    "biometric data cannot be recognised from cell values: only the column names were checked"
                } else {
                    "photographs cannot be recognised from cell values: only the column names and image file names were checked"
                });
            }
            entry
        })
        .collect();
    let flagged = list.findings.iter().filter(|f| !f.is_empty()).count();
    let partial: Vec<&str> = columns.iter().filter(|c| !c.complete).map(|c| c.name).collect();
    ctx.ok("hipaa_safe_harbor", flagged).with_details(json!({
        "kinds": kinds,
        "flagged_kinds": flagged,
        "columns_checked": columns.len(),
        "columns_partially_checked": partial,
        "scope": "a checklist of what the values and column names show; it does not establish that the file meets HIPAA Safe Harbor (45 CFR 164.514(b)(2)), which also requires that the releasing party have no actual knowledge that the rest could identify a person",
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Scope;

    fn ctx() -> Context {
        Context { family: "hipaa", scope: Scope { table: "P", quasi_identifiers: vec![], sensitive: None, attribute: None, subset: None }, params: json!({}) }
    }

    fn col<'a>(name: &'a str, values: &[&'a str]) -> ColumnValues<'a> {
        let values: Vec<(&str, u64)> = values.iter().map(|v| (*v, 1)).collect();
        let distinct = values.len() as u64;
        ColumnValues { name, non_blank: distinct, values, complete: true, distinct, email_like: 0, date_cells: 0 }
    }

    fn run(columns: &[ColumnValues<'_>]) -> Value {
        serde_json::to_value(metric(&ctx(), columns, &Normaliser::default())).unwrap()
    }

    fn kind<'a>(m: &'a Value, id: &str) -> &'a Value {
        m["details"]["kinds"].as_array().unwrap().iter().find(|k| k["id"] == id).unwrap()
    }

    #[test]
    fn value_shapes() {
        assert!(is_email("a.b@example.org") && !is_email("a@b") && !is_email("@x.org"));
        assert!(is_url("https://x.org/p") && is_url("www.example.com") && !is_url("http"));
        assert!(is_ip("192.168.0.1") && is_ip("2001:db8::1") && !is_ip("1.2.3") && !is_ip("256.1.1.1") && !is_ip("12:30"));
        assert!(is_ssn("123-45-6789") && !is_ssn("123-456-789"));
        assert!(is_phone("(555) 123-4567", false) && is_phone("+49 30 1234567", false) && !is_phone("5551234567", false) && is_phone("5551234567", true));
        assert!(!is_phone("2020-01-15", false) && !is_phone("1234", true));
        assert!(is_zip5("02139") && is_zip5("02139-4307") && !is_zip5("0213"));
        assert_eq!(zip3("021**"), Some("021"));
        assert_eq!(zip3("036"), Some("036"));
        assert_eq!(zip3("02139"), None);
        assert!(is_street("12 Main Street") && is_street("221B Baker St.") && !is_street("Main Street"));
        for d in ["2020-03-15", "2020-03", "15.03.2020", "03/15/2020", "3/2020", "2020-03-15T10:00", "[2020-01-01, 2020-06-30]", "March 3, 2020", "Mar 2020"] {
            assert!(has_date_element(d, false), "{d}");
        }
        for d in ["2020", "[2019, 2021)", "20-30", "1.5", "3.14.159", "May"] {
            assert!(!has_date_element(d, false), "{d}");
        }
        assert!(has_date_element("20200315", true) && !has_date_element("20200315", false));
        for a in ["90", "93", "92.5", "90-94", "[90, 95)"] {
            assert!(is_age_over_89(a), "{a}");
        }
        for a in ["89", "90+", ">89", ">=90", "90 or older", "[85, 95)", "150"] {
            assert!(!is_age_over_89(a), "{a}");
        }
        assert!(is_iban("DE89 3704 0044 0532 0130 00") && !is_iban("DE88 3704 0044 0532 0130 00"));
        assert!(is_card("4111 1111 1111 1111") && !is_card("4111 1111 1111 1112") && !is_card("4111111111111111"));
        assert!(is_dea("AB1234563") && !is_dea("AB1234564"));
        assert!(is_vin("1M8GDM9AXKP042788") && !is_vin("1M8GDM9A1KP042788"));
        assert!(is_mac("00:1A:2B:3C:4D:5E") && !is_mac("00:1A:2B"));
        assert!(is_mbi("1EG4TE5MK73") && !is_mbi("1EG4TE5MK7"));
        assert!(holds_given_name("Mary Smith") && !holds_given_name("Springfield") && !holds_given_name("mary smith"));
    }

    /// A hand-made release: every finding and every silence checked.
    #[test]
    fn checklist_of_a_small_release() {
        let ids: Vec<String> = (0..12).map(|i| format!("P{i:04}")).collect();
        let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let columns = [
            col("patient", &["Mary Smith", "John Miller", "Linda Jones", "James Brown"]),
            col("zip", &["02139", "021**", "036**"]),
            col("zip3", &["021", "100"]),
            col("admission", &["2020-03-15", "2020-04-01"]),
            col("year", &["2019", "2020"]),
            col("age", &["34", "92", "90+"]),
            col("contact", &["(555) 123-4567", "a@b.org"]),
            col("fax", &["555 123 4567"]),
            col("host", &["10.0.0.1"]),
            col("site", &["https://example.org"]),
            col("plate", &["ABC 123"]),
            col("fingerprint_hash", &["x"]),
            col("record", &id_refs),
            col("ward", &["A", "B", "A2", "B2", "C", "D", "E", "F", "G", "H", "I", "J"]),
        ];
        let m = run(&columns);
        let flagged = |id: &str| -> Vec<String> {
            let k = kind(&m, id);
            k["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
        };
        assert_eq!(flagged("names"), ["patient"]);
        assert_eq!(flagged("geographic"), ["zip", "zip"], "a full ZIP and a restricted prefix");
        assert_eq!(kind(&m, "geographic")["findings"][0]["example_value"], "02139");
        assert_eq!(kind(&m, "geographic")["findings"][1]["example_value"], "036**");
        assert_eq!(flagged("dates"), ["admission", "age"]);
        assert_eq!(kind(&m, "dates")["findings"][1]["example_value"], "92");
        assert_eq!(flagged("phone"), ["contact"]);
        assert_eq!(flagged("fax"), ["fax"]);
        assert_eq!(flagged("email"), ["contact"]);
        assert_eq!(flagged("ip"), ["host"]);
        assert_eq!(flagged("url"), ["site"]);
        assert_eq!(flagged("vehicle"), ["plate"]);
        assert!(flagged("certificate_license").is_empty(), "a licence plate is no licence number");
        assert_eq!(flagged("biometric"), ["fingerprint_hash"]);
        assert_eq!(flagged("other_unique"), ["record", "ward"]);
        for id in ["ssn", "medical_record", "health_plan", "account", "device"] {
            assert_eq!(kind(&m, id)["status"], "not_found", "{id}");
        }
        assert_eq!(kind(&m, "photo")["status"], "not_checkable");
        assert_eq!(kind(&m, "biometric")["status"], "flagged");
        assert_eq!(m["value"], json!(11));
    }

    /// Restricted prefixes are refused, the others allowed; a column of allowed prefixes has
    /// no finding.
    #[test]
    fn zip_prefixes() {
        for p in RESTRICTED_ZIP3 {
            let m = run(&[col("zip", &[p])]);
            assert_eq!(kind(&m, "geographic")["status"], "flagged", "{p}");
        }
        let m = run(&[col("zip", &["021", "100", "945"])]);
        assert_eq!(kind(&m, "geographic")["status"], "not_found");
        assert_eq!(m["value"], json!(0));
    }

    /// A column past its cap of kept values: checked by its name, its profile's counts of
    /// e-mails and dates, and its estimated distinct count.
    #[test]
    fn columns_without_their_values() {
        let c = ColumnValues { name: "contact_when", values: vec![], complete: false, distinct: 20_000, non_blank: 20_000, email_like: 7, date_cells: 20_000 };
        let m = run(&[c]);
        assert_eq!(kind(&m, "email")["findings"][0]["cells"], json!(7));
        assert_eq!(kind(&m, "dates")["findings"][0]["cells"], json!(20_000));
        assert_eq!(kind(&m, "dates")["findings"][0]["example_value"], Value::Null);
        assert_eq!(m["details"]["columns_partially_checked"], json!(["contact_when"]));
        let c = ColumnValues { name: "token", values: vec![], complete: false, distinct: 19_500, non_blank: 20_000, email_like: 0, date_cells: 0 };
        let m = run(&[c]);
        assert!(kind(&m, "other_unique")["findings"][0]["reason"].as_str().unwrap().starts_with("about 19500 distinct values"));
    }

    /// The order of the distinct values and of the columns does not change the kinds flagged.
    #[test]
    fn order_free() {
        let a = [col("zip", &["02139", "021"]), col("d", &["2020", "2020-01-02"])];
        let b = [col("d", &["2020-01-02", "2020"]), col("zip", &["021", "02139"])];
        let status = |m: &Value| m["details"]["kinds"].as_array().unwrap().iter().map(|k| (k["id"].clone(), k["status"].clone())).collect::<Vec<_>>();
        assert_eq!(status(&run(&a)), status(&run(&b)));
    }
}
