//! The labels of the computed ladders (spec protect.md Sec 1): numeric bands with bottom and
//! top coding, dates to month, quarter or year, kept prefixes; and the reading of a hierarchy
//! given in ARX's CSV layout.

use crate::error::{Error, Result};

/// A decimal number `units / 10^scale`, read from the shortest form of a binary64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    units: i128,
    scale: u32,
}

impl Decimal {
    /// The decimal a finite binary64 prints as (its shortest round-trip form).
    fn of(x: f64) -> Option<Decimal> {
        if !x.is_finite() {
            return None;
        }
        let text = format!("{x}");
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let units: i128 = format!("{whole}{fraction}").parse().ok()?;
        Some(Decimal { units, scale: fraction.len() as u32 })
    }

    /// The same number with `scale` fractional digits (`scale >= self.scale`).
    fn at(self, scale: u32) -> Option<i128> {
        self.units.checked_mul(10i128.checked_pow(scale - self.scale)?)
    }
}

/// `units / 10^scale` in its shortest decimal form (`300, 1` -> `30`; `5, 1` -> `0.5`).
fn decimal_text(units: i128, scale: u32) -> String {
    let digits = units.unsigned_abs().to_string();
    let sign = if units < 0 { "-" } else { "" };
    let scale = scale as usize;
    let padded = if digits.len() <= scale { format!("{}{digits}", "0".repeat(scale + 1 - digits.len())) } else { digits };
    let (whole, fraction) = padded.split_at(padded.len() - scale);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() { format!("{sign}{whole}") } else { format!("{sign}{whole}.{fraction}") }
}

/// Numeric bands: widths `w_1 < w_2 < ...`, each a whole multiple of the one before, and
/// optional bottom and top coding (spec protect.md Sec 1, kind `bands`).
#[derive(Debug, Clone)]
pub struct Bands {
    /// Each width in units of `10^-scale`.
    widths: Vec<i128>,
    scale: u32,
    bottom: Option<f64>,
    top: Option<f64>,
}

impl Bands {
    /// The bands of these widths; `ladder_invalid` unless each width is positive, larger than
    /// the one before and a whole multiple of it, and `bottom < top`.
    pub fn new(qi: &str, widths: &[f64], bottom: Option<f64>, top: Option<f64>) -> Result<Bands> {
        let invalid = |why: String| Error::config("ladder_invalid", format!("the bands of \"{qi}\": {why}")).in_column(qi);
        if widths.is_empty() {
            return Err(invalid("no width is given".into()));
        }
        let decimals: Vec<Decimal> = widths
            .iter()
            .map(|&w| Decimal::of(w).filter(|d| d.units > 0).ok_or_else(|| invalid(format!("width {w} is not a positive number"))))
            .collect::<Result<_>>()?;
        for b in [bottom, top].into_iter().flatten() {
            if !b.is_finite() {
                return Err(invalid(format!("{b} is not a number")));
            }
        }
        if let (Some(b), Some(t)) = (bottom, top)
            && b >= t
        {
            return Err(invalid(format!("the bottom {b} is not below the top {t}")));
        }
        let scale = decimals.iter().map(|d| d.scale).max().unwrap_or(0);
        let widths: Vec<i128> = decimals.iter().map(|d| d.at(scale).ok_or_else(|| invalid("a width has too many digits".into()))).collect::<Result<_>>()?;
        for pair in widths.windows(2) {
            if pair[1] <= pair[0] || pair[1] % pair[0] != 0 {
                return Err(invalid(format!("width {} is not a larger whole multiple of {}", decimal_text(pair[1], scale), decimal_text(pair[0], scale))));
            }
        }
        Ok(Bands { widths, scale, bottom, top })
    }

    /// Levels given (one per width).
    pub fn levels(&self) -> usize {
        self.widths.len()
    }

    /// The label of `x` at level `j >= 1`: `<B`, `>=T`, or `[a,b)` with
    /// `a = floor(x / w_j) * w_j`, `b = a + w_j`.
    pub fn label(&self, x: f64, j: usize) -> String {
        if let Some(b) = self.bottom.filter(|&b| x < b) {
            return format!("<{b}");
        }
        if let Some(t) = self.top.filter(|&t| x >= t) {
            return format!(">={t}");
        }
        let w = self.widths[j - 1];
        let ten = 10f64.powi(self.scale as i32);
        let at = |k: i128| (k * w) as f64 / ten;
        // floor(x / w) in binary64, then moved so that at(k) <= x < at(k + 1) holds for the
        // decimals themselves (x / w rounds: 0.3 / 0.1 is 2.9999999999999996).
        let (lowest, highest) = (i128::MIN / w + 1, i128::MAX / w - 1);
        let mut k = ((x * ten / w as f64).floor() as i128).clamp(lowest, highest);
        // (Clamped: a value past 10^36 gets the last band of the range, not a panic.)
        while k < highest && at(k + 1) <= x {
            k += 1;
        }
        while k > lowest && at(k) > x {
            k -= 1;
        }
        format!("[{},{})", decimal_text(k * w, self.scale), decimal_text((k + 1) * w, self.scale))
    }

    /// How level `j >= 1` is described (`bands of 10`).
    pub fn describe(&self, j: usize) -> String {
        format!("bands of {}", decimal_text(self.widths[j - 1], self.scale))
    }
}

/// A level of a date ladder (spec protect.md Sec 1, kind `dates`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DateLevel {
    /// `YYYY-MM`.
    Month,
    /// `YYYY-Qn`, `n = (month - 1) div 3 + 1`.
    Quarter,
    /// `YYYY`.
    Year,
}

impl DateLevel {
    /// The label of the date with this year and month.
    pub fn label(self, year: i64, month: u32) -> String {
        match self {
            DateLevel::Month => format!("{year:04}-{month:02}"),
            DateLevel::Quarter => format!("{year:04}-Q{}", (month - 1) / 3 + 1),
            DateLevel::Year => format!("{year:04}"),
        }
    }

    /// Its name (`month`).
    pub fn name(self) -> &'static str {
        match self {
            DateLevel::Month => "month",
            DateLevel::Quarter => "quarter",
            DateLevel::Year => "year",
        }
    }
}

/// The label of `value` keeping its first `n` characters (each further character becomes `*`).
pub fn prefix(value: &str, n: usize) -> String {
    value.chars().enumerate().map(|(i, c)| if i < n { c } else { '*' }).collect()
}

/// The rows of a hierarchy in ARX's CSV layout: `;`-delimited when its first row holds a `;`,
/// else `,`-delimited; fields may be quoted as RFC 4180; blank lines are skipped. Each row
/// with its 1-based line. `ladder_invalid` when rows differ in their number of columns.
pub fn hierarchy_rows(qi: &str, text: &str) -> Result<Vec<(u64, Vec<String>)>> {
    let delimiter = if text.lines().next().is_some_and(|l| l.contains(';')) { ';' } else { ',' };
    let mut rows: Vec<(u64, Vec<String>)> = Vec::new();
    let (mut field, mut row, mut quoted, mut line, mut start) = (String::new(), Vec::new(), false, 1u64, 1u64);
    let mut chars = text.chars().peekable();
    let mut end_row = |row: &mut Vec<String>, start: u64| {
        if !(row.len() == 1 && row[0].trim().is_empty()) {
            rows.push((start, std::mem::take(row)));
        }
        row.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            '"' if quoted => quoted = false,
            '"' if field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            '\n' if quoted => {
                line += 1;
                field.push(c);
            }
            '\r' if !quoted => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                end_row(&mut row, start);
                line += 1;
                start = line;
            }
            c if c == delimiter && !quoted => row.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        end_row(&mut row, start);
    }
    if let Some((first_line, first)) = rows.first() {
        let width = first.len();
        if let Some((l, r)) = rows.iter().find(|(_, r)| r.len() != width) {
            return Err(Error::config(
                "ladder_invalid",
                format!("the hierarchy of \"{qi}\" has {} columns on line {l} but {width} on line {first_line}", r.len()),
            )
            .in_column(qi));
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_written_in_their_shortest_decimal_form() {
        let b = Bands::new("age", &[10.0, 20.0], None, None).unwrap();
        assert_eq!(
            (b.label(34.0, 1), b.label(34.0, 2), b.label(40.0, 1), b.label(-1.0, 1)),
            ("[30,40)".into(), "[20,40)".into(), "[40,50)".into(), "[-10,0)".into())
        );
        let half = Bands::new("x", &[0.5, 1.0], None, None).unwrap();
        assert_eq!((half.label(0.7, 1), half.label(0.7, 2), half.label(1.25, 1)), ("[0.5,1)".into(), "[0,1)".into(), "[1,1.5)".into()));
        // 0.3 / 0.1 is 2.9999999999999996 in binary64: the band is still [0.3,0.4).
        let tenth = Bands::new("x", &[0.1], None, None).unwrap();
        assert_eq!(tenth.label(0.3, 1), "[0.3,0.4)");
        let coded = Bands::new("age", &[10.0], Some(18.0), Some(90.0)).unwrap();
        assert_eq!(
            (coded.label(17.0, 1), coded.label(18.0, 1), coded.label(90.0, 1), coded.label(89.5, 1)),
            ("<18".into(), "[10,20)".into(), ">=90".into(), "[80,90)".into())
        );
        assert_eq!(b.describe(2), "bands of 20");
        // A huge value gets a band, not a panic.
        assert!(b.label(1e300, 1).starts_with('['));
    }

    #[test]
    fn bands_must_grow_by_whole_multiples() {
        for (widths, bottom, top) in
            [(vec![10.0, 15.0], None, None), (vec![10.0, 10.0], None, None), (vec![0.0], None, None), (vec![], None, None), (vec![5.0], Some(9.0), Some(3.0))]
        {
            assert_eq!(Bands::new("age", &widths, bottom, top).unwrap_err().code, "ladder_invalid", "{widths:?}");
        }
        assert!(Bands::new("x", &[0.5, 1.5, 4.5], None, None).is_ok());
    }

    #[test]
    fn dates_and_prefixes() {
        assert_eq!(
            (DateLevel::Month.label(2022, 4), DateLevel::Quarter.label(2022, 4), DateLevel::Quarter.label(2022, 12), DateLevel::Year.label(987, 1)),
            ("2022-04".into(), "2022-Q2".into(), "2022-Q4".into(), "0987".into())
        );
        assert_eq!(
            (prefix("10489", 4), prefix("10489", 3), prefix("104", 4), prefix("Zürich", 2)),
            ("1048*".into(), "104**".into(), "104".into(), "Zü****".into())
        );
    }

    #[test]
    fn hierarchies_read_with_either_delimiter_and_quotes() {
        let rows = hierarchy_rows("a", "34;30-39;*\n\n35;30-39;*\r\n").unwrap();
        assert_eq!(rows, vec![(1, vec!["34".into(), "30-39".into(), "*".into()]), (3, vec!["35".into(), "30-39".into(), "*".into()])]);
        let rows = hierarchy_rows("a", "\"a,b\",x\nc,\"y \"\"z\"\"\"").unwrap();
        assert_eq!(rows, vec![(1, vec!["a,b".into(), "x".into()]), (2, vec!["c".into(), "y \"z\"".into()])]);
        let e = hierarchy_rows("a", "1;2\n3\n").unwrap_err();
        assert_eq!((e.code, e.message.contains("line 2")), ("ladder_invalid", true));
    }
}
