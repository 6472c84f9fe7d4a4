//! The typed-cell rule: how a typed value (a Parquet or Arrow column, a spreadsheet cell, a
//! typed data frame) becomes the text of a cell, so that every input is audited as the same
//! table of text cells as a CSV file (docs/decisions/formats/typed-cells.md).
//!
//! - A null is a blank cell (`""`), and so is a floating-point NaN (pandas' missing value).
//! - An integer is its decimal digits, with a leading `-` when negative: `7`, not `007`.
//! - A float is its shortest round-trip decimal, never with an exponent and without a
//!   trailing `.0`: `1.5`, `2`, `0.0000001`, `1e21` as `1000000000000000000000`; `-0.0` is `0`;
//!   the infinities are `inf` and `-inf`. A 32-bit float is the shortest decimal that reads
//!   back as the same 32-bit float (`0.1`, not `0.10000000149011612`).
//! - A boolean is `true` or `false`.
//! - A date is `YYYY-MM-DD` (proleptic Gregorian; a year outside 0-9999 has as many digits as it
//!   needs and a `-` when negative).
//! - A time of day is `HH:MM:SS`, with a fraction of a second only when it is not zero,
//!   without trailing zeros (`10:30:00`, `10:30:00.25`).
//! - A timestamp is the date and the time joined by a space (`2020-01-31 10:30:00`); one with
//!   a time zone is shown in UTC with a `Z` (`2020-01-31 09:30:00Z`).
//! - A decimal is its digits with its scale: unscaled `150` at scale 2 is `1.50` (the trailing
//!   zero kept, as stored).
//! - A string is itself. Bytes are their text when they are valid UTF-8, else `0x` and lower-case
//!   hex.

use std::fmt::Write;

/// An integer: its decimal digits.
pub fn int(v: i64, out: &mut String) {
    let _ = write!(out, "{v}");
}

/// An unsigned integer: its decimal digits.
pub fn uint(v: u64, out: &mut String) {
    let _ = write!(out, "{v}");
}

/// A 64-bit float: its shortest round-trip decimal without exponent (Rust's `{}`), NaN blank.
pub fn float64(v: f64, out: &mut String) {
    float(v, v.is_nan(), v == 0.0, out);
}

/// A 32-bit float: the shortest decimal that reads back as the same 32-bit float.
pub fn float32(v: f32, out: &mut String) {
    float(v, v.is_nan(), v == 0.0, out);
}

/// A float's text by Rust's `{}`: nothing for NaN, `0` for either zero.
fn float(v: impl std::fmt::Display, nan: bool, zero: bool, out: &mut String) {
    if nan {
        return;
    }
    if zero {
        out.push('0');
    } else {
        let _ = write!(out, "{v}");
    }
}

/// A boolean: `true` or `false`.
pub fn boolean(v: bool, out: &mut String) {
    out.push_str(if v { "true" } else { "false" });
}

/// A date given as days since 1970-01-01: `YYYY-MM-DD`.
pub fn date(days: i64, out: &mut String) {
    let (y, m, d) = super::cell::civil(days);
    if (0..=9999).contains(&y) {
        let _ = write!(out, "{y:04}-{m:02}-{d:02}");
    } else {
        let _ = write!(out, "{y}-{m:02}-{d:02}");
    }
}

/// A time of day given as nanoseconds since midnight: `HH:MM:SS[.fraction]`.
pub fn time(nanos: i64, out: &mut String) {
    let secs = nanos.div_euclid(1_000_000_000);
    let frac = nanos.rem_euclid(1_000_000_000);
    let _ = write!(out, "{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if frac != 0 {
        let digits = format!("{frac:09}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
}

/// A timestamp given as nanoseconds since 1970-01-01 00:00 (UTC when `utc`): the date and the
/// time joined by a space, with `Z` when `utc`.
pub fn timestamp(nanos: i128, utc: bool, out: &mut String) {
    const DAY: i128 = 86_400 * 1_000_000_000;
    date(nanos.div_euclid(DAY) as i64, out);
    out.push(' ');
    time(nanos.rem_euclid(DAY) as i64, out);
    if utc {
        out.push('Z');
    }
}

/// A decimal: the unscaled integer `v` with `scale` digits after the point (a negative scale
/// appends zeros).
pub fn decimal(v: i128, scale: i32, out: &mut String) {
    decimal_digits(&v.to_string(), scale, out);
}

/// [`decimal`] of an unscaled integer given as its decimal digits (with a leading `-` when
/// negative): for decimals wider than 128 bits.
pub fn decimal_digits(v: &str, scale: i32, out: &mut String) {
    let digits = v.trim_start_matches('-');
    if v.starts_with('-') {
        out.push('-');
    }
    if scale <= 0 {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', scale.unsigned_abs() as usize));
        return;
    }
    let scale = scale as usize;
    if digits.len() > scale {
        let (whole, frac) = digits.split_at(digits.len() - scale);
        out.push_str(whole);
        out.push('.');
        out.push_str(frac);
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', scale - digits.len()));
        out.push_str(digits);
    }
}

/// Bytes: their text when valid UTF-8, else `0x` and lower-case hex.
pub fn bytes(v: &[u8], out: &mut String) {
    match std::str::from_utf8(v) {
        Ok(s) => out.push_str(s),
        Err(_) => {
            out.push_str("0x");
            for b in v {
                let _ = write!(out, "{b:02x}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(f: impl FnOnce(&mut String)) -> String {
        let mut out = String::new();
        f(&mut out);
        out
    }

    #[test]
    fn integers_are_their_digits() {
        assert_eq!(s(|o| int(7, o)), "7");
        assert_eq!(s(|o| int(-42, o)), "-42");
        assert_eq!(s(|o| int(i64::MIN, o)), "-9223372036854775808");
        assert_eq!(s(|o| uint(u64::MAX, o)), "18446744073709551615");
    }

    #[test]
    fn floats_are_shortest_round_trip_without_exponent() {
        assert_eq!(s(|o| float64(1.5, o)), "1.5");
        assert_eq!(s(|o| float64(2.0, o)), "2");
        assert_eq!(s(|o| float64(-0.0, o)), "0");
        assert_eq!(s(|o| float64(0.1 + 0.2, o)), "0.30000000000000004");
        assert_eq!(s(|o| float64(1e-7, o)), "0.0000001");
        assert_eq!(s(|o| float64(1e21, o)), "1000000000000000000000");
        assert_eq!(s(|o| float64(f64::NAN, o)), "");
        assert_eq!(s(|o| float64(f64::INFINITY, o)), "inf");
        assert_eq!(s(|o| float64(f64::NEG_INFINITY, o)), "-inf");
        assert_eq!(s(|o| float32(0.1, o)), "0.1");
        assert_eq!(s(|o| float32(f32::NAN, o)), "");
    }

    #[test]
    fn dates_times_and_timestamps() {
        assert_eq!(s(|o| date(0, o)), "1970-01-01");
        assert_eq!(s(|o| date(-1, o)), "1969-12-31");
        assert_eq!(s(|o| date(11_016, o)), "2000-02-29");
        assert_eq!(s(|o| date(19_753, o)), "2024-01-31");
        assert_eq!(s(|o| date(-719_528, o)), "0000-01-01");
        assert_eq!(s(|o| time(37_800_000_000_000, o)), "10:30:00");
        assert_eq!(s(|o| time(37_800_250_000_000, o)), "10:30:00.25");
        let t = (19_753i128 * 86_400 + 37_800) * 1_000_000_000;
        assert_eq!(s(|o| timestamp(t, false, o)), "2024-01-31 10:30:00");
        assert_eq!(s(|o| timestamp(t, true, o)), "2024-01-31 10:30:00Z");
        assert_eq!(s(|o| timestamp(-1_000_000_000, false, o)), "1969-12-31 23:59:59");
    }

    #[test]
    fn decimals_keep_their_scale() {
        assert_eq!(s(|o| decimal(150, 2, o)), "1.50");
        assert_eq!(s(|o| decimal(-5, 3, o)), "-0.005");
        assert_eq!(s(|o| decimal(12, 0, o)), "12");
        assert_eq!(s(|o| decimal(12, -2, o)), "1200");
        assert_eq!(s(|o| decimal_digits("-123456789012345678901234567890123456789012", 40, o)), "-12.3456789012345678901234567890123456789012");
    }

    #[test]
    fn bytes_are_text_or_hex() {
        assert_eq!(s(|o| bytes(b"abc", o)), "abc");
        assert_eq!(s(|o| bytes(&[0xff, 0x01], o)), "0xff01");
    }
}
