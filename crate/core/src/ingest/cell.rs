//! Value normalisation and cell forms (spec README Sec 4.2 and Sec 5).
//!
//! Every raw field goes through [`Normaliser::normalise`]: trim Unicode white space, map the
//! missing tokens to `MISSING`, map text made only of mask characters to `SUPPRESSED`, and
//! with `case_insensitive` lower-case the rest ([`fold`], Sec 5 step 5). Callers normalise
//! once per distinct raw value (the dictionaries), never per cell. What is
//! left is text whose numeric or date reading ([`Form`]) is decided per cell and whose column
//! kind is decided over all cells (see `profile`).

use std::borrow::Cow;

/// A normalised cell: the grouping value of spec README Sec 5.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Cell<'a> {
    /// The trimmed text is one of the missing tokens.
    Missing,
    /// The trimmed text is made only of mask characters (`*`, `**`, ...).
    Suppressed,
    /// Any other trimmed text (lower-cased under `case_insensitive`: then owned when the
    /// folding changed it, else borrowed from the raw field).
    Text(Cow<'a, str>),
}

impl<'a> Cell<'a> {
    /// The text cell `t`.
    pub fn text(t: &'a str) -> Self {
        Cell::Text(Cow::Borrowed(t))
    }
}

/// Unicode simple case folding of one character towards lower case (spec README Sec 5 step
/// 5): the lower-case mapping when it is one character, plus the mappings of lower-case
/// letters that folding alone makes (final sigma, Greek symbol forms, long s, ...). A
/// character whose lower case is several characters (`İ`) has no simple folding and stays.
pub fn fold_char(c: char) -> char {
    match c {
        '\u{03C2}' => '\u{03C3}', // ς -> σ
        '\u{017F}' => 's',        // ſ
        '\u{0345}' | '\u{1FBE}' => '\u{03B9}',
        '\u{03D0}' => '\u{03B2}',
        '\u{03D1}' => '\u{03B8}',
        '\u{03D5}' => '\u{03C6}',
        '\u{03D6}' => '\u{03C0}',
        '\u{03F0}' => '\u{03BA}',
        '\u{03F1}' => '\u{03C1}',
        '\u{03F5}' => '\u{03B5}',
        '\u{1E9B}' => '\u{1E61}',
        '\u{1C80}' => '\u{0432}',
        '\u{1C81}' => '\u{0434}',
        '\u{1C82}' => '\u{043E}',
        '\u{1C83}' => '\u{0441}',
        '\u{1C84}' | '\u{1C85}' => '\u{0442}',
        '\u{1C86}' => '\u{044A}',
        '\u{1C87}' => '\u{0463}',
        '\u{1C88}' => '\u{A64B}',
        _ => {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) => l,
                _ => c,
            }
        }
    }
}

/// Text `t` case-folded with [`fold_char`]; borrowed when nothing changes (ASCII text without
/// an upper-case letter is not even decoded).
pub fn fold(t: &str) -> Cow<'_, str> {
    if t.is_ascii() {
        return if t.bytes().any(|b| b.is_ascii_uppercase()) { Cow::Owned(t.to_ascii_lowercase()) } else { Cow::Borrowed(t) };
    }
    if t.chars().all(|c| fold_char(c) == c) { Cow::Borrowed(t) } else { Cow::Owned(t.chars().map(fold_char).collect()) }
}

impl Cell<'_> {
    /// `MISSING` or `SUPPRESSED` (spec README Sec 4.2: "blank").
    pub fn is_blank(&self) -> bool {
        !matches!(self, Cell::Text(_))
    }
}

/// Spec README Sec 5 steps 2-4, configured once per audit.
#[derive(Debug, Clone, PartialEq)]
pub struct Normaliser {
    missing_tokens: Vec<String>,
    longest_token: usize,
    mask_chars: Vec<char>,
    case_insensitive: bool,
    /// Whether the file's delimiter is a comma: then no column reads a decimal comma (Sec 4.2).
    comma_delimited: bool,
    /// The date forms the user set, by column (`date_form`, Sec 4.4).
    date_forms: Vec<(String, DateForm)>,
}

/// The default missing tokens of spec README Sec 5 step 3.
pub const DEFAULT_MISSING_TOKENS: [&str; 6] = ["", "NA", "N/A", "NaN", "NULL", "null"];

impl Default for Normaliser {
    fn default() -> Self {
        Normaliser::new(DEFAULT_MISSING_TOKENS.iter().map(|s| s.to_string()).collect(), vec!['*'])
    }
}

impl Normaliser {
    /// A normaliser with these missing tokens (compared after trimming, case-sensitively) and
    /// mask characters. The empty string is always a missing token.
    pub fn new(mut missing_tokens: Vec<String>, mask_chars: Vec<char>) -> Self {
        if !missing_tokens.iter().any(String::is_empty) {
            missing_tokens.push(String::new());
        }
        let longest_token = missing_tokens.iter().map(String::len).max().unwrap_or(0);
        Normaliser { missing_tokens, longest_token, mask_chars, case_insensitive: false, comma_delimited: false, date_forms: Vec::new() }
    }

    /// The same normaliser for a file whose delimiter is `delimiter` (a comma rules out the
    /// decimal comma, spec README Sec 4.2).
    pub fn delimiter(self, delimiter: &str) -> Self {
        Normaliser { comma_delimited: delimiter == ",", ..self }
    }

    /// Whether a column may read a decimal comma (the delimiter is not a comma).
    pub fn decimal_comma_allowed(&self) -> bool {
        !self.comma_delimited
    }

    /// The same normaliser with the date forms the user set, by column (`date_form`).
    pub fn date_forms(self, forms: Vec<(String, DateForm)>) -> Self {
        Normaliser { date_forms: forms, ..self }
    }

    /// The date form the user set for `column`.
    pub fn date_form(&self, column: &str) -> Option<DateForm> {
        self.date_forms.iter().find(|(c, _)| c == column).map(|&(_, f)| f)
    }

    /// The same normaliser, lower-casing every non-blank value when `on` (spec README Sec 5
    /// step 5, option `case_insensitive`).
    pub fn case_insensitive(self, on: bool) -> Self {
        Normaliser { case_insensitive: on, ..self }
    }

    /// A label of the settings (a hierarchy's node) read like a value: trimmed, and folded under
    /// `case_insensitive`.
    pub fn label<'a>(&self, label: &'a str) -> Cow<'a, str> {
        let t = label.trim_matches(char::is_whitespace);
        if self.case_insensitive { fold(t) } else { Cow::Borrowed(t) }
    }

    /// A hierarchy of the settings (rows of labels) with every label read by [`Self::label`].
    pub fn labels(&self, rows: &[Vec<String>]) -> Vec<Vec<String>> {
        rows.iter().map(|row| row.iter().map(|l| self.label(l).into_owned()).collect()).collect()
    }

    /// Normalises one raw field.
    pub fn normalise<'a>(&self, raw: &'a str) -> Cell<'a> {
        // Most cells start and end with a printable ASCII character: nothing to trim.
        let plain = |b: Option<&u8>| b.is_some_and(|&b| b > b' ' && b < 0x80);
        let t = if plain(raw.as_bytes().first()) && plain(raw.as_bytes().last()) { raw } else { raw.trim_matches(char::is_whitespace) };
        if t.len() <= self.longest_token && self.missing_tokens.iter().any(|m| m == t) {
            Cell::Missing
        } else if t.chars().all(|c| self.is_mask(c)) {
            Cell::Suppressed
        } else if self.case_insensitive {
            Cell::Text(fold(t))
        } else {
            Cell::text(t)
        }
    }

    /// Whether `c` is a mask character.
    pub fn is_mask(&self, c: char) -> bool {
        self.mask_chars.contains(&c)
    }

    /// Whether `t` holds a mask character: a byte search when the mask is one ASCII
    /// character (the default `*`), as for the cells of an id column, which are all looked at.
    pub fn has_mask(&self, t: &str) -> bool {
        match self.mask_chars[..] {
            [c] if c.is_ascii() => memchr::memchr(c as u8, t.as_bytes()).is_some(),
            _ => t.chars().any(|c| self.is_mask(c)),
        }
    }
}

/// How one non-blank cell reads (spec README Sec 4.2), before the column kind is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Form {
    /// A `NUM`.
    Number(f64),
    /// A numeric range, bracketed form or one-sided bound.
    NumericRange(Interval),
    /// A digit mask such as `130**`: the range `[13000, 13099]`.
    DigitMask(f64, f64),
    /// A valid `YYYY-MM-DD`, as days since 1970-01-01.
    Date(i64),
    /// `YYYY-MM`, or a range of ISO dates: first and last day.
    DateRange(i64, i64),
    /// Text with at least one mask character and another character (`123**` in a code column).
    Mask,
    /// Anything else.
    Text,
}

impl Form {
    /// Reads a trimmed, non-blank cell.
    pub fn of(t: &str, norm: &Normaliser) -> Form {
        if let Some(v) = parse_num(t) {
            return Form::Number(v);
        }
        if let Some(d) = parse_date(t) {
            return Form::Date(d);
        }
        if let Some((lo, hi)) = parse_date_range(t) {
            return Form::DateRange(lo, hi);
        }
        if let Some((lo, hi)) = digit_mask(t, norm) {
            return Form::DigitMask(lo, hi);
        }
        if let Some(i) = parse_numeric_range(t, norm) {
            return Form::NumericRange(i);
        }
        if norm.has_mask(t) {
            return Form::Mask;
        }
        Form::Text
    }
}

/// The `NUM` grammar of spec README Sec 4.2: `^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`,
/// finite binary64.
pub fn parse_num(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    // Up to 15 digits: an integer binary64 holds exactly, read without the general parser.
    if !b.is_empty() && b.len() <= 15 && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0')) as f64);
    }
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - s;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == s {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The ISO date `YYYY-MM-DD` of a day number.
pub fn civil_from_days(z: i64) -> String {
    let (y, m, d) = civil(z);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Year, month and day of a day number (Howard Hinnant's `civil_from_days`).
pub fn civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m as u32, d as u32)
}

pub(crate) fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// A valid `YYYY-MM-DD` as a day number.
pub fn parse_date(t: &str) -> Option<i64> {
    let mut it = t.split('-');
    let (y, m, d) = (digits(it.next()?, 4)?, digits(it.next()?, 2)?, digits(it.next()?, 2)?);
    if it.next().is_some() || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y.into(), m) {
        return None;
    }
    Some(days_from_civil(y.into(), m, d))
}

/// The written forms of a date column (spec README Sec 4.4), each with one- or two-digit day
/// and month (ISO: two). A date-time at midnight (`2022-04-01 00:00:00`, as pandas writes a
/// date) reads as its date in every form (Sec 4.2).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DateForm {
    /// `YYYY-MM-DD`.
    #[serde(rename = "YYYY-MM-DD")]
    Iso,
    /// `YYYY/MM/DD`.
    #[serde(rename = "YYYY/MM/DD")]
    YearSlash,
    /// `DD.MM.YYYY`.
    #[serde(rename = "DD.MM.YYYY")]
    DayDot,
    /// `DD/MM/YYYY`.
    #[serde(rename = "DD/MM/YYYY")]
    DaySlash,
    /// `MM/DD/YYYY`.
    #[serde(rename = "MM/DD/YYYY")]
    MonthSlash,
    /// `DD-MM-YYYY`.
    #[serde(rename = "DD-MM-YYYY")]
    DayDash,
    /// `DD-Mon-YYYY` (English month abbreviations, any case).
    #[serde(rename = "DD-Mon-YYYY")]
    DayMon,
}

/// Every form, in the order of the spec (a form's place is its bit in a set of forms).
pub const DATE_FORMS: [DateForm; 7] =
    [DateForm::Iso, DateForm::YearSlash, DateForm::DayDot, DateForm::DaySlash, DateForm::MonthSlash, DateForm::DayDash, DateForm::DayMon];

/// The set of every form, as bits.
pub const ALL_DATE_FORMS: u8 = (1 << DATE_FORMS.len()) - 1;

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

impl DateForm {
    /// The form as the spec writes it (`DD.MM.YYYY`).
    pub fn name(self) -> &'static str {
        match self {
            DateForm::Iso => "YYYY-MM-DD",
            DateForm::YearSlash => "YYYY/MM/DD",
            DateForm::DayDot => "DD.MM.YYYY",
            DateForm::DaySlash => "DD/MM/YYYY",
            DateForm::MonthSlash => "MM/DD/YYYY",
            DateForm::DayDash => "DD-MM-YYYY",
            DateForm::DayMon => "DD-Mon-YYYY",
        }
    }

    /// The form named `name` (as [`Self::name`] writes it).
    pub fn named(name: &str) -> Option<DateForm> {
        DATE_FORMS.into_iter().find(|f| f.name() == name)
    }

    /// This form's bit in a set of forms.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The forms of a set, in the spec's order.
    pub fn of_set(set: u8) -> impl Iterator<Item = DateForm> {
        DATE_FORMS.into_iter().filter(move |f| set & f.bit() != 0)
    }

    /// A trimmed cell written in this form, as a day number (days since 1970-01-01); `None`
    /// when it is not a valid date of this form.
    pub fn read(self, t: &str) -> Option<i64> {
        let t = t.strip_suffix(" 00:00:00").or_else(|| t.strip_suffix("T00:00:00")).unwrap_or(t);
        let (sep, order) = match self {
            DateForm::Iso => return parse_date(t),
            DateForm::YearSlash => ('/', [2, 1, 0]),
            DateForm::DayDot => ('.', [0, 1, 2]),
            DateForm::DaySlash | DateForm::DayDash | DateForm::DayMon => (if self == DateForm::DaySlash { '/' } else { '-' }, [0, 1, 2]),
            DateForm::MonthSlash => ('/', [1, 0, 2]),
        };
        let mut it = t.split(sep);
        let parts = [it.next()?, it.next()?, it.next()?];
        if it.next().is_some() {
            return None;
        }
        let [d, m, y] = order.map(|i| parts[i]);
        let y = digits(y, 4)?;
        let m = if self == DateForm::DayMon {
            let m = m.as_bytes();
            (m.len() == 3).then(|| MONTHS.iter().position(|n| n.as_bytes().eq_ignore_ascii_case(m)))?? as u32 + 1
        } else {
            digits(m, 1).or_else(|| digits(m, 2))?
        };
        let d = digits(d, 1).or_else(|| digits(d, 2))?;
        ((1..=12).contains(&m) && d >= 1 && d <= days_in_month(y.into(), m)).then(|| days_from_civil(y.into(), m, d))
    }

    /// The forms of the set `forms` (as bits) that read `t`, each with its day number: none
    /// for anything but a date.
    pub fn readings(forms: u8, t: &str) -> impl Iterator<Item = (DateForm, i64)> + '_ {
        // Every form starts with a digit and writes at least 8 bytes (`1.1.1970`).
        let maybe = t.as_bytes().first().is_some_and(u8::is_ascii_digit) && t.len() >= 8;
        DateForm::of_set(if maybe { forms } else { 0 }).filter_map(move |f| Some((f, f.read(t)?)))
    }

    /// The set of forms that read `t` (as bits): empty for anything but a date.
    pub fn fitting(t: &str) -> u8 {
        DateForm::readings(ALL_DATE_FORMS, t).fold(0, |set, (f, _)| set | f.bit())
    }
}

/// How the cells of one column read (spec README Sec 4.4 and Sec 4.2), decided per column from
/// its values (see `profile`): the written form of its dates and whether its numbers write
/// their fraction after a comma.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// The written form of the column's dates.
    pub date: Option<DateForm>,
    /// Whether a comma is the column's decimal separator (`72,5`).
    pub decimal_comma: bool,
}

impl Reading {
    /// Reads a trimmed, non-blank cell of the column: a date of its form, a number with its
    /// decimal separator, else as [`Form::of`].
    pub fn form(&self, t: &str, norm: &Normaliser) -> Form {
        if let Some(d) = self.date.and_then(|f| f.read(t)) {
            return Form::Date(d);
        }
        if self.decimal_comma
            && let Some(v) = parse_comma_num(t)
        {
            return Form::Number(v);
        }
        Form::of(t, norm)
    }
}

/// A number written with a decimal comma (`72,5`, `-0,25`): one comma, no point, and a `NUM`
/// once the comma is a point (spec README Sec 4.2).
pub fn parse_comma_num(t: &str) -> Option<f64> {
    let (whole, fraction) = t.split_once(',')?;
    if fraction.contains(',') || t.contains('.') || fraction.is_empty() || !fraction.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let mut point = String::with_capacity(t.len());
    point.push_str(whole);
    point.push('.');
    point.push_str(fraction);
    parse_num(&point)
}

/// Date ranges of spec README Sec 4.2: `YYYY-MM` (that month), `[d1,d2]`-style brackets and
/// `d1/d2` with ISO dates. (`YYYY` alone reads as a number.)
pub fn parse_date_range(t: &str) -> Option<(i64, i64)> {
    let mut it = t.split('-');
    if let (Some(y), Some(m), None) = (it.next(), it.next(), it.next())
        && let (Some(y), Some(m)) = (digits(y, 4), digits(m, 2))
        && (1..=12).contains(&m)
    {
        let y = i64::from(y);
        return Some((days_from_civil(y, m, 1), days_from_civil(y, m, days_in_month(y, m))));
    }
    if let Some((a, b)) = t.split_once('/') {
        let (lo, hi) = (parse_date(a.trim())?, parse_date(b.trim())?);
        return (lo <= hi).then_some((lo, hi));
    }
    let (open, inner, close) = split_brackets(t)?;
    let (a, b) = inner.split_once([',', ';'])?;
    let (mut lo, mut hi) = (parse_date(a.trim())?, parse_date(b.trim())?);
    if open == '(' {
        lo += 1;
    }
    if close == ')' {
        hi -= 1;
    }
    (lo <= hi).then_some((lo, hi))
}

fn split_brackets(t: &str) -> Option<(char, &str, char)> {
    let open = t.chars().next()?;
    let close = t.chars().next_back()?;
    if !matches!(open, '[' | '(') || !matches!(close, ']' | ')') || t.len() < 2 {
        return None;
    }
    Some((open, &t[1..t.len() - 1], close))
}

/// Splits `a SEP b` where SEP is one of `-` `–` `~` `..` (and `,` `;` inside brackets). The
/// first number binds its own sign, so `-5--1` is `[-5, -1]`.
fn split_pair(s: &str, bracketed: bool) -> Option<(f64, f64)> {
    let s = s.trim();
    let start = usize::from(s.starts_with(['+', '-']));
    // The first number can end no later than its longest `NUM`-shaped prefix (and the spaces
    // after it): separators past that are not tried, so a long cell costs linear time.
    let first = num_prefix(s);
    let limit = first + s[first..].len() - s[first..].trim_start().len();
    for (i, c) in s.char_indices().skip(start) {
        if i > limit {
            break;
        }
        let sep_len = match c {
            '-' | '~' => 1,
            '–' => '–'.len_utf8(),
            ',' | ';' if bracketed => 1,
            '.' if s[i..].starts_with("..") => 2,
            _ => continue,
        };
        // `1e-5` is a number, not a range: the minus belongs to the exponent.
        if c == '-' && i > 0 && matches!(s.as_bytes()[i - 1], b'e' | b'E') {
            continue;
        }
        let (a, b) = (parse_num(s[..i].trim()), parse_num(s[i + sep_len..].trim()));
        if let (Some(a), Some(b)) = (a, b) {
            return Some((a, b));
        }
    }
    None
}

/// The length of the longest prefix of `s` shaped like `NUM` (sign, digits, fraction,
/// exponent), scanned greedily.
fn num_prefix(s: &str) -> usize {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = usize::from(b.first().is_some_and(|&c| c == b'+' || c == b'-'));
    i = digits(i);
    if i < b.len() && b[i] == b'.' {
        i = digits(i + 1);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let sign = usize::from(b.get(i + 1).is_some_and(|&c| c == b'+' || c == b'-'));
        let end = digits(i + 1 + sign);
        if end > i + 1 + sign {
            i = end;
        }
    }
    i
}

/// An interval of the range grammar (spec README Sec 4.2): ends, infinite for a one-sided
/// bound, and whether each end belongs to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end (`-inf` for `<a`).
    pub lo: f64,
    /// Upper end (`+inf` for `>a`).
    pub hi: f64,
    /// `lo` belongs to the interval.
    pub lo_closed: bool,
    /// `hi` belongs to the interval.
    pub hi_closed: bool,
}

impl Interval {
    /// `[lo, hi]`.
    pub fn closed(lo: f64, hi: f64) -> Self {
        Interval { lo, hi, lo_closed: true, hi_closed: true }
    }
}

/// The numeric range grammar of spec README Sec 4.2. `a > b` is not a range.
pub fn parse_numeric_range(t: &str, norm: &Normaliser) -> Option<Interval> {
    let ordered = |(a, b): (f64, f64), lo_closed, hi_closed| (a <= b).then_some(Interval { lo: a, hi: b, lo_closed, hi_closed });
    if let Some((open, inner, close)) = split_brackets(t) {
        return split_pair(inner, true).and_then(|p| ordered(p, open == '[', close == ']'));
    }
    for (prefix, lower, closed) in [("<=", false, true), ("≤", false, true), (">=", true, true), ("≥", true, true), ("<", false, false), (">", true, false)]
    {
        if let Some(rest) = t.strip_prefix(prefix) {
            let v = parse_num(rest.trim())?;
            return Some(if lower {
                Interval { lo: v, hi: f64::INFINITY, lo_closed: closed, hi_closed: false }
            } else {
                Interval { lo: f64::NEG_INFINITY, hi: v, lo_closed: false, hi_closed: closed }
            });
        }
    }
    if let Some(rest) = t.strip_suffix('+') {
        return parse_num(rest.trim()).map(|v| Interval { lo: v, hi: f64::INFINITY, lo_closed: true, hi_closed: false });
    }
    if let Some(p) = split_pair(t, false) {
        return ordered(p, true, true);
    }
    digit_mask(t, norm).map(|(lo, hi)| Interval::closed(lo, hi))
}

/// A digit mask such as `12**`: mask characters read as 0 for the low end and 9 for the high
/// end. At least one digit and one mask character, nothing else.
fn digit_mask(t: &str, norm: &Normaliser) -> Option<(f64, f64)> {
    let (mut lo, mut hi, mut has_digit, mut has_mask) = (0f64, 0f64, false, false);
    for c in t.chars() {
        if let Some(d) = c.to_digit(10) {
            has_digit = true;
            lo = lo * 10.0 + f64::from(d);
            hi = hi * 10.0 + f64::from(d);
        } else if norm.is_mask(c) {
            has_mask = true;
            lo *= 10.0;
            hi = hi * 10.0 + 9.0;
        } else {
            return None;
        }
    }
    // A mask too long for a finite number is no number (as `NUM` refuses one: Sec 4.2).
    (has_digit && has_mask && hi.is_finite()).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_trims_and_maps_blanks() {
        let n = Normaliser::default();
        assert_eq!(n.normalise("  NA "), Cell::Missing);
        assert_eq!(n.normalise(""), Cell::Missing);
        assert_eq!(n.normalise("\u{a0}"), Cell::Missing);
        assert_eq!(n.normalise(" *** "), Cell::Suppressed);
        assert_eq!(n.normalise(" a b "), Cell::text("a b"));
        assert_eq!(n.normalise("None"), Cell::text("None"));
        assert_eq!(n.normalise("na"), Cell::text("na"));
    }

    #[test]
    fn case_insensitive_folds_after_the_missing_tokens() {
        let n = Normaliser::default().case_insensitive(true);
        for raw in ["Male", "male", "MALE", " mAlE "] {
            assert_eq!(n.normalise(raw), Cell::text("male"), "{raw}");
        }
        // Missing tokens are matched before folding, case-sensitively: `NA` is missing, `Na`
        // is the value `na`.
        assert_eq!(n.normalise("NA"), Cell::Missing);
        assert_eq!(n.normalise("Na"), Cell::text("na"));
        assert_eq!(n.normalise("**"), Cell::Suppressed);
        // Unicode simple case folding: Σ, σ and final ς are one letter; the Kelvin sign is k;
        // ß stays (full folding would give ss); İ has no simple folding and stays.
        assert_eq!(n.normalise("ΣΟΦΟΣ"), n.normalise("σοφος"));
        assert_eq!(n.normalise("ΣΟΦΟΣ"), Cell::text("σοφοσ"));
        assert_eq!(n.normalise("\u{212A}elvin"), Cell::text("kelvin"));
        assert_eq!(n.normalise("Straße"), Cell::text("straße"));
        assert_eq!(n.normalise("İ"), Cell::text("İ"));
        // Unchanged text is borrowed.
        assert!(matches!(n.normalise("x1"), Cell::Text(Cow::Borrowed(_))));
        assert!(matches!(Normaliser::default().normalise("X1"), Cell::Text(Cow::Borrowed("X1"))));
        assert_eq!(n.label(" Respiratory "), "respiratory");
        assert_eq!(Normaliser::default().label(" Respiratory "), "Respiratory");
    }

    #[test]
    fn numbers_follow_the_grammar() {
        assert_eq!(parse_num("1"), Some(1.0));
        assert_eq!(parse_num("-.5"), Some(-0.5));
        assert_eq!(parse_num("1."), Some(1.0));
        assert_eq!(parse_num("1e3"), Some(1000.0));
        for bad in ["", ".", "1,5", "1e", "0x10", "inf", "NaN", "1 000", "1e999"] {
            assert_eq!(parse_num(bad), None, "{bad}");
        }
    }

    #[test]
    fn ranges_follow_the_grammar() {
        let n = Normaliser::default();
        let r = |t| parse_numeric_range(t, &n).map(|i| (i.lo, i.hi));
        assert_eq!(r("30-39"), Some((30.0, 39.0)));
        assert_eq!(r("30 – 39"), Some((30.0, 39.0)));
        assert_eq!(r("-5--1"), Some((-5.0, -1.0)));
        assert_eq!(r("[30,40)"), Some((30.0, 40.0)));
        assert_eq!(r("(1.5;2]"), Some((1.5, 2.0)));
        assert_eq!(r("1..2"), Some((1.0, 2.0)));
        assert_eq!(r(">=80"), Some((80.0, f64::INFINITY)));
        assert_eq!(r("≤5"), Some((f64::NEG_INFINITY, 5.0)));
        assert_eq!(r("80+"), Some((80.0, f64::INFINITY)));
        assert_eq!(r("12**"), Some((1200.0, 1299.0)));
        assert_eq!(r("1*3*"), Some((1030.0, 1939.0)));
        assert_eq!(r("39-30"), None);
        assert_eq!(r("1e-5"), None);
        let half_open = parse_numeric_range("[30,40)", &n).unwrap();
        assert!(half_open.lo_closed && !half_open.hi_closed);
        assert!(!parse_numeric_range(">80", &n).unwrap().lo_closed);
        assert_eq!(r("abc"), None);
        let huge = format!("{}*", "1".repeat(400));
        assert_eq!(r(&huge), None, "beyond binary64: not a number");
        assert_eq!(r("1e-5-2"), Some((1e-5, 2.0)));
        assert_eq!(r("1. - 2"), Some((1.0, 2.0)));
        // A long cell of digits and dashes (it took quadratic time) is no range.
        let long = format!("{}{}", "1".repeat(5_000), "-".repeat(5_000));
        assert_eq!(r(&long), None);
    }

    #[test]
    fn dates_are_validated() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2024-02-29"), Some(19_782));
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(parse_date("2023-13-01"), None);
        assert_eq!(civil_from_days(19_782), "2024-02-29");
        assert_eq!(parse_date_range("2024-02"), Some((19_754, 19_782)));
        assert_eq!(parse_date_range("2024-01-01/2024-01-31"), Some((19_723, 19_753)));
        assert_eq!(Form::of("2024", &Normaliser::default()), Form::Number(2024.0));
        assert_eq!(Form::of("123**", &Normaliser::default()), Form::DigitMask(12300.0, 12399.0));
        assert_eq!(Form::of("A1**", &Normaliser::default()), Form::Mask);
    }

    #[test]
    fn every_written_form_reads_its_day_number() {
        // Hand-checked: 2024-02-29 is day 19,782 (as above); 2022-04-01 is 2022-01-01 (day
        // 18,993 = 2020-01-01's 18,262 + 366 + 365) + 31 + 28 + 31 = 19,083.
        use DateForm::*;
        for (form, t) in [
            (Iso, "2024-02-29"),
            (YearSlash, "2024/02/29"),
            (YearSlash, "2024/2/29"),
            (DayDot, "29.02.2024"),
            (DaySlash, "29/02/2024"),
            (MonthSlash, "02/29/2024"),
            (MonthSlash, "2/29/2024"),
            (DayDash, "29-02-2024"),
            (DayMon, "29-Feb-2024"),
            (DayMon, "29-FEB-2024"),
            (DayMon, "29-feb-2024 00:00:00"),
        ] {
            assert_eq!(form.read(t), Some(19_782), "{t} as {}", form.name());
        }
        assert_eq!(Iso.read("2022-04-01 00:00:00"), Some(19_083), "a date-time at midnight (pandas)");
        assert_eq!(Iso.read("2022-04-01T00:00:00"), Some(19_083));
        assert_eq!(DayDot.read("1.4.2022"), Some(19_083), "one-digit day and month");
        assert_eq!(DayDot.read("1.1.1970"), Some(0));
        for (form, bad) in [
            (Iso, "2022-04-01 10:30:00"),
            (DayDot, "30.02.2024"),
            (DayDot, "29.02.2023"),
            (DayDot, "1.4.22"),
            (DayDot, "001.4.2022"),
            (DaySlash, "13/13/2020"),
            (MonthSlash, "13/12/2020"),
            (DayMon, "29-Fbr-2024"),
            (DayDash, "2024-02-29"),
            (YearSlash, "29/02/2024"),
        ] {
            assert_eq!(form.read(bad), None, "{bad} as {}", form.name());
        }
        let fit = |t| DateForm::of_set(DateForm::fitting(t)).collect::<Vec<_>>();
        assert_eq!(fit("03/04/2020"), [DaySlash, MonthSlash]);
        assert_eq!(fit("13/04/2020"), [DaySlash]);
        assert_eq!(fit("04/13/2020"), [MonthSlash]);
        assert_eq!(fit("12.03.1980"), [DayDot]);
        assert_eq!(fit("12"), []);
        assert_eq!(fit("72,5"), []);
        assert_eq!(DATE_FORMS.map(|f| DateForm::named(f.name())), DATE_FORMS.map(Some));
        // The serde names (settings, reports) are the spec's names, for every form.
        for form in DATE_FORMS {
            assert_eq!(serde_json::to_string(&form).unwrap(), format!("\"{}\"", form.name()));
        }
    }

    #[test]
    fn decimal_commas_read_per_column() {
        assert_eq!(parse_comma_num("72,5"), Some(72.5));
        assert_eq!(parse_comma_num("-0,25"), Some(-0.25));
        for bad in ["72", "72.5", "1,2,3", "1.000,5", "5,", "a,5", "1,e5"] {
            assert_eq!(parse_comma_num(bad), None, "{bad}");
        }
        let n = Normaliser::default();
        let comma = Reading { date: None, decimal_comma: true };
        assert_eq!(comma.form("72,5", &n), Form::Number(72.5));
        assert_eq!(Reading::default().form("72,5", &n), Form::Text);
        let dot = Reading { date: Some(DateForm::DayDot), decimal_comma: false };
        assert_eq!(dot.form("1.4.2022", &n), Form::Date(19_083));
        assert_eq!(Reading::default().form("1.4.2022", &n), Form::Text);
    }
}
