//! Ladders (spec protect.md Sec 1): per quasi-identifier, levels `0 .. h - 1` from its values
//! to labels. Level 0 is the value; the top level maps every cell, blanks included, to one
//! label (`*` unless the last given level already is one label over the values of `O`). Each
//! level is kept per value code: the label code of every value, the labels' texts, the
//! loss of every value (Sec 4) and the number of distinct labels. Nesting is checked on build.

use serde::{Deserialize, Serialize};

use super::labels::{Bands, DateLevel, hierarchy_rows, prefix};
use crate::error::{Error, Result};
use crate::hash::{Map, map};
use crate::table::dictionary::is_blank;

/// A ladder as the user gives it (spec protect.md Sec 1, table of kinds).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ladder {
    /// ARX's hierarchy CSV: one row per leaf value, the leaf first, then its label per level.
    Hierarchy {
        /// The CSV text (`;` or `,` delimited).
        csv: String,
    },
    /// Numeric bands of these widths, with optional bottom and top coding.
    Bands {
        /// `w_1 < w_2 < ...`, each a whole multiple of the one before.
        widths: Vec<f64>,
        /// Cells below it are labelled `<B`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bottom: Option<f64>,
        /// Cells at or above it are labelled `>=T`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<f64>,
    },
    /// Dates to a subsequence of month, quarter, year.
    Dates {
        /// The levels, in this order.
        levels: Vec<DateLevel>,
    },
    /// Kept prefixes of these lengths.
    Prefix {
        /// `n_1 > n_2 > ...`.
        lengths: Vec<usize>,
    },
}

impl Ladder {
    /// The kind's name.
    pub fn kind(&self) -> &'static str {
        match self {
            Ladder::Hierarchy { .. } => "hierarchy",
            Ladder::Bands { .. } => "bands",
            Ladder::Dates { .. } => "dates",
            Ladder::Prefix { .. } => "prefix",
        }
    }
}

/// How a ladder reads the cells of its column: the written form of its dates and whether its
/// numbers write a decimal comma (spec README Sec 4.2, 4.4).
#[derive(Debug, Clone, Copy, Default)]
pub struct ColumnReading {
    /// The column's date form (ISO when none).
    pub date: Option<crate::ingest::cell::DateForm>,
    /// Whether its numbers write their fraction after a comma.
    pub decimal_comma: bool,
}

/// One level of a built ladder.
#[derive(Debug, Clone)]
pub struct Level {
    /// Per value code of the QI's dictionary, its label code (codes 0 and 1: the blanks).
    pub map: Vec<u32>,
    /// The text of each label code (`""` for the two blank codes).
    pub texts: Vec<String>,
    /// Per value code, the loss of its cell at this level (Sec 4; 0 for a blank).
    pub cost: Vec<f64>,
    /// Distinct labels over the values of `O`.
    pub distinct: usize,
    /// What the level is, in words (`bands of 10`).
    pub name: String,
}

/// A ladder built over the values of one QI in `O`.
#[derive(Debug, Clone)]
pub struct BuiltLadder {
    /// The QI.
    pub qi: String,
    /// The kind (`hierarchy`, `bands`, `dates`, `prefix`, or `default` for (value, `*`)).
    pub kind: &'static str,
    /// Levels `0 .. h - 1`.
    pub levels: Vec<Level>,
    /// The values of `O` (in scope), non-blank, by code, in order of first appearance.
    pub values: Vec<(u32, String)>,
}

/// The label of every value at each given level `1 ..`, and each level's name.
type Given = (Vec<Vec<String>>, Vec<String>);

impl BuiltLadder {
    /// Builds the ladder of `qi` over its values in `O` (`values`: code and normalised text,
    /// in order of first appearance; `codes`: the size of the QI's dictionary); `line` gives
    /// the line of a value's first record for errors. `label` reads a hierarchy's field as a
    /// value is read (trim, case folding).
    pub fn build(
        qi: &str,
        ladder: Option<&Ladder>,
        values: Vec<(u32, String)>,
        codes: usize,
        reading: ColumnReading,
        label: &dyn Fn(&str) -> String,
        line: &dyn Fn(u32) -> u64,
    ) -> Result<BuiltLadder> {
        let (given, names) = match ladder {
            None => (Vec::new(), Vec::new()),
            Some(l) => given(qi, l, &values, reading, label, line)?,
        };
        let rows: Vec<Vec<&str>> =
            values.iter().enumerate().map(|(i, (_, v))| std::iter::once(v.as_str()).chain(given.iter().map(|g| g[i].as_str())).collect()).collect();
        check_nested(qi, rows.iter().map(|r| r.as_slice()))?;
        let mut levels = vec![level(&values, codes, |i| values[i].1.clone(), "value".into())];
        for (j, name) in names.into_iter().enumerate() {
            levels.push(level(&values, codes, |i| given[j][i].clone(), name));
        }
        // The top: the last given level when it is one label over the values of `O`, else `*`
        // added; it maps every cell, blanks included, to that label.
        let last = levels.last().expect("level 0");
        let (top_label, top_name) = if levels.len() > 1 && last.distinct == 1 {
            let top = levels.pop().expect("a given level");
            (top.texts[2].clone(), top.name)
        } else {
            ("*".to_string(), "*".to_string())
        };
        let mut cost = vec![if values.len() > 1 { 1.0 } else { 0.0 }; codes];
        cost.iter_mut().take(2).for_each(|c| *c = 0.0);
        let texts = vec![String::new(), String::new(), top_label];
        levels.push(Level { map: vec![2; codes], texts, cost, distinct: usize::from(!values.is_empty()), name: top_name });
        Ok(BuiltLadder { qi: qi.to_string(), kind: ladder.map_or("default", Ladder::kind), levels, values })
    }

    /// The height `h`.
    pub fn height(&self) -> usize {
        self.levels.len()
    }

    /// The ladder in ARX's CSV layout: one row per distinct value of `O`, the value, then its
    /// label at each level `1 .. h - 1`; `;`-delimited, quoted where needed, `\n` line ends.
    pub fn to_arx_csv(&self) -> String {
        let mut out = Vec::new();
        for (code, text) in &self.values {
            let fields = std::iter::once(text.as_str()).chain(self.levels[1..].iter().map(|l| l.texts[l.map[*code as usize] as usize].as_str()));
            for (i, f) in fields.enumerate() {
                if i > 0 {
                    out.push(b';');
                }
                super::csv::write_field(&mut out, f, b";");
            }
            out.push(b'\n');
        }
        String::from_utf8(out).expect("UTF-8 fields")
    }
}

/// A level from the label of each value (`label(i)` for `values[i]`): label codes by first
/// appearance after the two blank codes (which stay blank), and each value's loss
/// `(|G(v)| - 1) / (|D| - 1)`.
fn level(values: &[(u32, String)], codes: usize, label: impl Fn(usize) -> String, name: String) -> Level {
    let mut map_ = vec![0u32; codes];
    for (b, m) in map_.iter_mut().enumerate().take(2) {
        *m = b as u32;
    }
    let mut texts = vec![String::new(), String::new()];
    let mut ids: Map<String, u32> = map();
    let mut group = vec![0u64; 2];
    for (i, (code, _)) in values.iter().enumerate() {
        let id = *ids.entry(label(i)).or_insert_with_key(|t| {
            texts.push(t.clone());
            group.push(0);
            texts.len() as u32 - 1
        });
        map_[*code as usize] = id;
        group[id as usize] += 1;
    }
    let d = values.len();
    let mut cost = vec![0.0; codes];
    if d > 1 {
        for (code, _) in values {
            cost[*code as usize] = (group[map_[*code as usize] as usize] - 1) as f64 / (d - 1) as f64;
        }
    }
    debug_assert!(values.iter().all(|(c, _)| !is_blank(*c)));
    Level { map: map_, texts, cost, distinct: ids.len(), name }
}

/// The labels of every value at each level the ladder gives (`1 ..`), and the levels' names.
fn given(
    qi: &str,
    ladder: &Ladder,
    values: &[(u32, String)],
    reading: ColumnReading,
    label: &dyn Fn(&str) -> String,
    line: &dyn Fn(u32) -> u64,
) -> Result<Given> {
    let invalid = |why: &str| Error::config("ladder_invalid", format!("the ladder of \"{qi}\": {why}")).in_column(qi);
    let per_value = |f: &dyn Fn(&str) -> Option<Vec<String>>, code: &'static str, what: &str| -> Result<Vec<Vec<String>>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        for (c, v) in values {
            let labels = f(v).ok_or_else(|| Error::input(code, format!("\"{v}\" in \"{qi}\" is not {what}")).in_column(qi).at_line(line(*c)))?;
            for (j, l) in labels.into_iter().enumerate() {
                if out.len() <= j {
                    out.push(Vec::with_capacity(values.len()));
                }
                out[j].push(l);
            }
        }
        Ok(out)
    };
    match ladder {
        Ladder::Bands { widths, bottom, top } => {
            let bands = Bands::new(qi, widths, *bottom, *top)?;
            let number =
                |t: &str| crate::ingest::cell::parse_num(t).or_else(|| reading.decimal_comma.then(|| crate::ingest::cell::parse_comma_num(t)).flatten());
            let labels = per_value(&|v| number(v).map(|x| (1..=bands.levels()).map(|j| bands.label(x, j)).collect()), "ladder_not_numeric", "a number")?;
            Ok((pad(labels, bands.levels(), values.len()), (1..=bands.levels()).map(|j| bands.describe(j)).collect()))
        }
        Ladder::Dates { levels } => {
            if levels.is_empty() || levels.windows(2).any(|w| w[0] >= w[1]) {
                return Err(invalid("the date levels must be a subsequence of month, quarter, year"));
            }
            // The column's form; for a column that is not all dates, the first form (in the
            // spec's order) reading every value that reads as a date at all, so that the error
            // names the first value that does not.
            use crate::ingest::cell::{ALL_DATE_FORMS, DateForm};
            let common = || DateForm::of_set(values.iter().map(|(_, v)| DateForm::fitting(v)).filter(|&s| s != 0).fold(ALL_DATE_FORMS, |a, s| a & s)).next();
            let form = reading.date.or_else(common).unwrap_or(DateForm::Iso);
            let labels = per_value(
                &|v| {
                    let (y, m, _) = crate::ingest::cell::civil(form.read(v)?);
                    Some(levels.iter().map(|l| l.label(y, m)).collect())
                },
                "ladder_not_date",
                "a date",
            )?;
            Ok((pad(labels, levels.len(), values.len()), levels.iter().map(|l| l.name().to_string()).collect()))
        }
        Ladder::Prefix { lengths } => {
            if lengths.is_empty() || lengths.windows(2).any(|w| w[0] <= w[1]) {
                return Err(invalid("the kept lengths must decrease"));
            }
            let labels = per_value(&|v| Some(lengths.iter().map(|&n| prefix(v, n)).collect()), "ladder_not_numeric", "text")?;
            Ok((
                pad(labels, lengths.len(), values.len()),
                lengths.iter().map(|n| if *n == 1 { "first character".to_string() } else { format!("first {n} characters") }).collect(),
            ))
        }
        Ladder::Hierarchy { csv } => hierarchy(qi, csv, values, label),
    }
}

/// `levels` empty columns when no value filled them.
fn pad(labels: Vec<Vec<String>>, levels: usize, values: usize) -> Vec<Vec<String>> {
    if values == 0 { vec![Vec::new(); levels] } else { labels }
}

/// The labels of a hierarchy: its rows nest (checked on every row, not only the values of
/// `O`), and every value is a leaf (`ladder_value_unmapped`: how many are not, the first five).
fn hierarchy(qi: &str, csv: &str, values: &[(u32, String)], label: &dyn Fn(&str) -> String) -> Result<Given> {
    let rows: Vec<Vec<String>> = hierarchy_rows(qi, csv)?.into_iter().map(|(_, r)| r.iter().map(|f| label(f)).collect()).collect();
    check_nested(qi, rows.iter().map(|r| r.iter().map(String::as_str).collect::<Vec<_>>()).collect::<Vec<_>>().iter().map(Vec::as_slice))?;
    let leaves: Map<&str, usize> = rows.iter().enumerate().map(|(i, r)| (r[0].as_str(), i)).collect();
    let unmapped: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).filter(|v| !leaves.contains_key(v)).collect();
    if !unmapped.is_empty() {
        let first: Vec<String> = unmapped.iter().take(5).map(|v| format!("\"{v}\"")).collect();
        return Err(Error::config(
            "ladder_value_unmapped",
            format!("{} value(s) of \"{qi}\" are no leaf of its hierarchy: {}", unmapped.len(), first.join(", ")),
        )
        .in_column(qi));
    }
    let width = rows.first().map_or(1, Vec::len);
    let labels = (1..width).map(|j| values.iter().map(|(_, v)| rows[leaves[v.as_str()]][j].clone()).collect()).collect();
    Ok((labels, (1..width).map(|j| format!("level {j}")).collect()))
}

/// Nesting (Sec 1): for every level `j`, two rows (value, then its labels) with the same label
/// at `j` have the same label at `j + 1`; else `ladder_not_nested` naming the QI, the level
/// and two values.
fn check_nested<'a>(qi: &str, rows: impl Iterator<Item = &'a [&'a str]> + Clone) -> Result<()> {
    let width = rows.clone().map(<[&str]>::len).max().unwrap_or(0);
    for j in 0..width.saturating_sub(1) {
        let mut seen: Map<&str, (&str, &str)> = map();
        for r in rows.clone() {
            let (here, up) = (r[j], r[j + 1]);
            match seen.get(here) {
                Some(&(other, other_up)) if other_up != up => {
                    return Err(Error::config(
                        "ladder_not_nested",
                        format!(
                            "the ladder of \"{qi}\" does not nest at level {j}: \"{other}\" and \"{}\" share the label \"{here}\" there but have \"{other_up}\" and \"{up}\" at level {}",
                            r[0],
                            j + 1
                        ),
                    )
                    .in_column(qi));
                }
                Some(_) => {}
                None => {
                    seen.insert(here, (r[0], up));
                }
            }
        }
    }
    Ok(())
}
