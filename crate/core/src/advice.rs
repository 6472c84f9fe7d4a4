//! What would lower the risk (issue 12): the effect of one change to the quasi-identifiers on
//! `k`, the sample uniques, the records at risk and ARX's verdict (spec identity-risk.md
//! Sec 2, 5 and 11.1), each with its cost to utility (generalization loss, utility.md Sec 2).
//!
//! The changes: drop a QI; coarsen a QI one step (whole numbers to bands of 5 and of 10, dates
//! to month and to year, codes of one length (postcodes) to one character less, a category to
//! the next level of its declared hierarchy); suppress the records of classes smaller than a `k`.
//! Every change is answered from the class table: a coarsening maps the codes of one QI to a
//! representative code of their group and sums the counts of the classes that meet, so the
//! file is not read again and the cost is per class, not per record. A drop is the subset of
//! the other QIs: when the attribution lattice is computed apart (the page's audit), its
//! statistics of those subsets give the figures ([`drop_figures`]), with no regrouping.
//!
//! The figures use the released table alone (journalist = prosecutor, as without a
//! population table) and partitioning classes: under the `wildcard` policy the advice is
//! `not_applicable`.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::hash::{self, Map};
use crate::identity::attribution::{SubsetStats, at_risk_below};
use crate::identity::{ClassTable, IdentityParams, MissingPolicy};
use crate::ingest::cell::DateForm;
use crate::metric::{Context, MetricResult, Status};
use crate::table::dictionary::{Dictionary, is_blank};
use crate::verdict::arx::{AttackerValues, Light};

/// Settings of the advice.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdviceParams {
    /// The suppression change removes the records of classes smaller than this.
    pub suppress_below: u64,
}

impl Default for AdviceParams {
    fn default() -> Self {
        AdviceParams { suppress_below: 5 }
    }
}

/// The risk figures of one set of classes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figures {
    /// Records in scope.
    pub records: u64,
    /// The smallest class size.
    pub k: u64,
    /// Records alone in their class.
    pub uniques: u64,
    /// Share of records whose risk `1/f` is above `tau` (prosecutor).
    pub records_at_risk: f64,
    /// ARX's verdict.
    pub verdict: Light,
}

/// The figures of classes of these sizes (spec identity-risk.md Sec 5, 11.1: highest risk
/// `1/k`, success rate `K/n`; without a population table the journalist and marketer values
/// equal these). `None` when no record is left.
pub fn figures(sizes: impl Iterator<Item = u64>, p: &IdentityParams) -> Option<Figures> {
    // The lattice's rule for the records at risk, so the drops it counts are these figures.
    let risk_below = at_risk_below(p.threshold, u64::MAX);
    let mut c = Counts { n: 0, classes: 0, k: u64::MAX, uniques: 0, at_risk: 0 };
    for f in sizes.filter(|&f| f > 0) {
        c.n += f;
        c.classes += 1;
        c.k = c.k.min(f);
        c.uniques += u64::from(f == 1);
        c.at_risk += if f < risk_below { f } else { 0 };
    }
    c.figures(p)
}

/// What the figures of a set of classes are made of: records, classes, the smallest class,
/// records alone in theirs and records at risk.
struct Counts {
    n: u64,
    classes: u64,
    k: u64,
    uniques: u64,
    at_risk: u64,
}

impl Counts {
    fn figures(&self, p: &IdentityParams) -> Option<Figures> {
        let Counts { n, classes, k, uniques, at_risk } = *self;
        if n == 0 {
            return None;
        }
        let records_at_risk = at_risk as f64 / n as f64;
        let success_rate = classes as f64 / n as f64;
        let prosecutor = [records_at_risk, 1.0 / k as f64, success_rate];
        let values = AttackerValues { prosecutor, journalist: prosecutor, marketer: success_rate };
        let verdict = Light::of(&values, &p.arx_thresholds());
        Some(Figures { records: n, k, uniques, records_at_risk, verdict })
    }
}

/// The figures of the table without each QI in turn, from the attribution lattice's
/// statistics of the subsets that leave one QI out (`stats`, counted with the
/// [`at_risk_below`] of `p`'s threshold): the same figures as
/// regrouping the classes, with no sort of their own (the page computes them in the reader
/// worker that computes the lattice). `records`: records in scope; `q` QIs.
pub fn drop_figures(stats: &[SubsetStats], q: usize, records: u64, p: &IdentityParams) -> Vec<Option<Figures>> {
    let all = (1u32 << q) - 1;
    (0..q)
        .map(|a| match all ^ 1 << a {
            // Without its only QI a table is one class.
            0 => figures(std::iter::once(records), p),
            mask => stats
                .iter()
                .find(|s| s.mask == mask)
                .and_then(|s| Counts { n: records, classes: s.classes, k: s.smallest, uniques: s.uniques, at_risk: s.at_risk }.figures(p)),
        })
        .collect()
}

/// One change to the quasi-identifiers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// Remove the column from the release.
    Drop { column: String },
    /// Whole numbers to bands `[w*i, w*i + w - 1]`.
    Bands { column: String, width: u32 },
    /// A date (of any written form, README Sec 4.4) to its month.
    Month { column: String },
    /// A date to its year.
    Year { column: String },
    /// Codes of one length to their first `keep` characters.
    Truncate { column: String, keep: usize },
    /// A category to its node at `level` of the declared hierarchy (0 = the leaf).
    Hierarchy { column: String, level: usize },
    /// Suppress the records of classes smaller than `below`.
    Suppress { below: u64 },
}

/// The effect of one change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Effect {
    /// The change.
    pub change: Change,
    /// The figures after it.
    pub after: Figures,
    /// Records removed (suppression).
    pub records_suppressed: u64,
    /// Share of the column's distinct values that now share a value with another.
    pub values_merged: f64,
    /// Generalization loss of the change over the column's records (utility.md Sec 2, with
    /// today's values as the unit; a dropped column and a suppressed record lose 1).
    pub generalization_loss: f64,
    /// The change in one sentence.
    pub sentence: String,
}

impl Effect {
    /// The effect of `change` with the figures `after` it and its cost, and its sentence
    /// against the figures `before`.
    fn new(change: Change, before: &Figures, after: Figures, records_suppressed: u64, values_merged: f64, generalization_loss: f64) -> Effect {
        let mut e = Effect { change, after, records_suppressed, values_merged, generalization_loss, sentence: String::new() };
        e.sentence = sentence(&e.change, before, &e);
        e
    }
}

/// A coarsening of one QI: per code, its group's representative code and `|GR|`.
struct Coarsening {
    change: Change,
    map: Vec<u32>,
    units: Vec<f64>,
}

/// The coarsenings that apply to the values of `dict`: bands for whole numbers, month and year
/// for dates (of the column's written form `date`), one character less for codes of one
/// length, the next hierarchy level.
fn coarsenings(column: &str, dict: &Dictionary, hierarchy: Option<&[Vec<String>]>, date: Option<DateForm>) -> Vec<Coarsening> {
    let values: Vec<(u32, &str)> = (0..dict.len() as u32).filter(|&c| !is_blank(c)).map(|c| (c, dict.text(c))).collect();
    if values.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let group = |change: Change, label: &dyn Fn(&str) -> Option<(String, f64)>| -> Option<Coarsening> {
        let mut map: Vec<u32> = (0..dict.len() as u32).collect();
        let mut units = vec![1.0; dict.len()];
        let mut reps: Map<String, u32> = hash::map();
        for &(c, t) in &values {
            let (l, u) = label(t)?;
            map[c as usize] = *reps.entry(l).or_insert(c);
            units[c as usize] = u;
        }
        Some(Coarsening { change, map, units })
    };
    let whole = |t: &str| t.parse::<i64>().ok().filter(|x| x.unsigned_abs() < 1 << 52);
    let civil = |t: &str| date.and_then(|f| f.read(t)).map(crate::ingest::cell::civil);
    match shape(&values, date) {
        Shape::Dates => {
            let month = |t: &str| civil(t).map(|(y, m, _)| (format!("{y:04}-{m:02}"), crate::ingest::cell::days_in_month(y, m) as f64));
            let year = |t: &str| {
                let (y, _, _) = civil(t)?;
                let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
                Some((format!("{y:04}"), if leap { 366.0 } else { 365.0 }))
            };
            out.extend(group(Change::Month { column: column.into() }, &month));
            out.extend(group(Change::Year { column: column.into() }, &year));
        }
        Shape::Code { length } => {
            let keep = length - 1;
            let digits = values.iter().all(|(_, t)| t.ends_with(|c: char| c.is_ascii_digit()));
            let cut = |t: &str| Some((t.chars().take(keep).collect::<String>(), if digits { 10.0 } else { 36.0 }));
            out.extend(group(Change::Truncate { column: column.into(), keep }, &cut));
        }
        Shape::Whole { .. } => {
            for width in [5u32, 10] {
                let band = |t: &str| whole(t).map(|x| (x.div_euclid(i64::from(width)).to_string(), f64::from(width)));
                out.extend(group(Change::Bands { column: column.into(), width }, &band));
            }
        }
        Shape::Other => {}
    }
    if let Some(rows) = hierarchy {
        out.extend(next_level(column, &values, rows, &group));
    }
    out
}

/// What the non-blank values of a QI read as, which says how they can be coarsened (the
/// advice's one step, protect's proposed ladder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every value a date in the column's written form `date`.
    Dates,
    /// Codes: letters and digits, all of one length, at least 2 characters with a letter or at
    /// least 4 digits (a postcode, a year; shorter digit strings are numbers).
    Code {
        /// Their length.
        length: usize,
    },
    /// Whole numbers (no leading zero), from `min` to `max`.
    Whole {
        /// The smallest.
        min: i64,
        /// The largest.
        max: i64,
    },
    /// None of these (a category).
    Other,
}

/// The shape of `values` (code, text; non-blank, at least one), dates read in the form `date`.
pub fn shape(values: &[(u32, &str)], date: Option<DateForm>) -> Shape {
    if values.iter().all(|(_, t)| date.and_then(|f| f.read(t)).is_some()) {
        return Shape::Dates;
    }
    let length = values[0].1.len();
    let alnum = values.iter().all(|(_, t)| t.len() == length && t.bytes().all(|b| b.is_ascii_alphanumeric()));
    let digits = values.iter().all(|(_, t)| t.bytes().all(|b| b.is_ascii_digit()));
    if alnum && length >= if digits { 4 } else { 2 } {
        return Shape::Code { length };
    }
    let whole: Option<Vec<i64>> =
        values.iter().map(|(_, t)| t.parse::<i64>().ok().filter(|x| x.unsigned_abs() < 1 << 52 && !(t.len() > 1 && t.starts_with('0')))).collect();
    match whole {
        Some(xs) => Shape::Whole { min: *xs.iter().min().expect("a value"), max: *xs.iter().max().expect("a value") },
        None => Shape::Other,
    }
}

/// Groups a column's values by a change, given each value's new label and its loss.
type Grouping<'a> = dyn Fn(Change, &dyn Fn(&str) -> Option<(String, f64)>) -> Option<Coarsening> + 'a;

/// The hierarchy change: each value to the next level of the row where it appears (the
/// lowest level shared by every value), `|GR|` the leaves under that node.
fn next_level(column: &str, values: &[(u32, &str)], rows: &[Vec<String>], group: &Grouping<'_>) -> Option<Coarsening> {
    let mut at: Map<&str, (usize, usize)> = hash::map();
    for (r, row) in rows.iter().enumerate() {
        for (l, v) in row.iter().enumerate() {
            at.entry(v.as_str()).or_insert((r, l));
        }
    }
    let level = values.iter().map(|(_, t)| at.get(t).map(|&(_, l)| l)).collect::<Option<Vec<_>>>()?.into_iter().max()? + 1;
    let mut leaves: Map<&str, f64> = hash::map();
    for row in rows.iter().filter(|r| r.len() > level) {
        *leaves.entry(row[level].as_str()).or_insert(0.0) += 1.0;
    }
    let label = |t: &str| {
        let &(r, _) = at.get(t)?;
        let node = rows[r].get(level)?;
        Some((node.clone(), leaves[node.as_str()]))
    };
    group(Change::Hierarchy { column: column.into(), level }, &label)
}

/// Class sizes after mapping the codes of QI `a` through `map`: the field of `a` in each
/// packed key is replaced and equal keys add up.
fn regrouped(table: &ClassTable, a: usize, map: &[u32]) -> Vec<u64> {
    let packing = table.packing();
    let (shift, _) = packing.field(a);
    let word = (0..packing.words()).find(|&w| packing.field_mask(a, w) != 0).unwrap_or(0);
    let mask = packing.field_mask(a, word);
    let replaced = |i: usize, w: u64| w & !mask | u64::from(map[table.code_at(i, a) as usize]) << shift;
    // One word a class, its key above its count: sorted by key (a radix sort, no hashing),
    // equal keys are runs. The key is the other fields with `a`'s new code above them, in as
    // many bits as the new codes need (none when `a` is dropped): fewer bits, fewer passes.
    let key_bits = (0..table.q()).map(|b| packing.field(b)).map(|(s, b)| s + b).max().unwrap_or(0);
    let count_bits = 64 - table.records().leading_zeros();
    if packing.words() == 1 && key_bits + count_bits <= 64 {
        let bits = packing.field(a).1;
        let new_bits = 32 - map.iter().max().map_or(0, |m| m.leading_zeros());
        let below = (1u64 << shift) - 1;
        let others = |w: u64| (w >> (shift + bits)) << shift | (w & below);
        let rest_bits = key_bits - bits;
        let mut words: Vec<u64> = (0..table.len())
            .map(|i| {
                let w = table.packed(i)[0];
                (u64::from(map[table.code_at(i, a) as usize]) << rest_bits | others(w)) << count_bits | table.count(i)
            })
            .collect();
        crate::radix::radix_sort_words(&mut words, &mut Vec::new(), count_bits, rest_bits + new_bits);
        let count_mask = (1u64 << count_bits) - 1;
        let mut sizes: Vec<u64> = Vec::new();
        let mut prev = None;
        for w in words {
            if prev == Some(w >> count_bits) {
                *sizes.last_mut().expect("a run is open") += w & count_mask;
            } else {
                sizes.push(w & count_mask);
                prev = Some(w >> count_bits);
            }
        }
        return sizes;
    }
    let mut counts: Map<Box<[u64]>, u64> = hash::map();
    for i in 0..table.len() {
        let mut key: Box<[u64]> = table.packed(i).into();
        key[word] = replaced(i, key[word]);
        *counts.entry(key).or_insert(0) += table.count(i);
    }
    counts.into_values().collect()
}

fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The sentence of an effect, e.g. "Coarsen zip to 4 characters: k 1 → 4, records at risk
/// 62.0 % → 9.0 %, verdict RED → AMBER; 41.0 % of zip values merged."
fn sentence(change: &Change, before: &Figures, e: &Effect) -> String {
    let what = match change {
        Change::Drop { column } => format!("Drop {column}"),
        Change::Bands { column, width } => format!("Coarsen {column} to bands of {width}"),
        Change::Month { column } => format!("Coarsen {column} to the month"),
        Change::Year { column } => format!("Coarsen {column} to the year"),
        Change::Truncate { column, keep } => format!("Coarsen {column} to {keep} characters"),
        Change::Hierarchy { column, level } => format!("Coarsen {column} to level {level} of its hierarchy"),
        Change::Suppress { below } => format!("Suppress the records of classes smaller than {below}"),
    };
    let a = &e.after;
    let cost = match change {
        Change::Drop { .. } => "the column is lost".to_string(),
        Change::Suppress { .. } => format!("{} records suppressed ({})", e.records_suppressed, percent(e.records_suppressed as f64 / before.records as f64)),
        Change::Bands { column, .. }
        | Change::Month { column }
        | Change::Year { column }
        | Change::Truncate { column, .. }
        | Change::Hierarchy { column, .. } => {
            format!("{} of {column} values merged, generalization loss {:.2}", percent(e.values_merged), e.generalization_loss)
        }
    };
    format!(
        "{what}: k {} → {}, records at risk {} → {}, verdict {} → {}; {cost}.",
        before.k,
        a.k,
        percent(before.records_at_risk),
        percent(a.records_at_risk),
        before.verdict.word(),
        a.verdict.word()
    )
}

/// The cost of a coarsening to its column: the share of its distinct values that now share
/// a value with another, and its generalization loss over `records` (records per `|GR|`
/// summed in the order of `|GR|`, so the loss does not depend on the order codes were met
/// in). `per_code`: the column's records per code.
fn cost(c: &Coarsening, per_code: &[u64], records: u64) -> (f64, f64) {
    let present = |code: usize| !is_blank(code as u32) && per_code[code] > 0;
    let mut members = vec![0u32; c.map.len()];
    for code in (0..c.map.len()).filter(|&code| present(code)) {
        members[c.map[code] as usize] += 1;
    }
    let distinct = (0..c.map.len()).filter(|&code| present(code)).count();
    let merged = (0..c.map.len()).filter(|&code| present(code) && members[c.map[code] as usize] > 1).count();
    let mut by_units = std::collections::BTreeMap::new();
    for (&n, &u) in per_code.iter().zip(&c.units) {
        *by_units.entry(u.to_bits()).or_insert(0u64) += n;
    }
    let lost = by_units.iter().map(|(&u, &n)| n as f64 * (1.0 - 1.0 / f64::from_bits(u))).sum::<f64>();
    let merged_share = if distinct == 0 { 0.0 } else { merged as f64 / distinct as f64 };
    (merged_share, lost / records as f64)
}

/// `advice`: every single change with its figures, ranked by records at risk after the change,
/// then by cost (generalization loss); `details.before` the figures today. The "drop a QI"
/// figures from regroupings of the classes.
pub fn metric(
    ctx: &Context,
    table: &ClassTable,
    qi: &[String],
    hierarchies: &[Option<&[Vec<String>]>],
    dates: &[Option<DateForm>],
    p: &IdentityParams,
    a: &AdviceParams,
) -> MetricResult {
    match start(ctx, table, qi, hierarchies, dates, p, a) {
        Ok(pending) => {
            let drops = (0..qi.len()).map(|q| figures(regrouped(table, q, &vec![0; table.dict(q).len()]).into_iter(), p)).collect();
            pending.finish(drops)
        }
        Err(without) => *without,
    }
}

/// The advice but its "drop a QI" entries (given to [`Pending::finish`]), or the metric when
/// there is no advice to give (`wildcard` policy, no record in scope). `dates`: per QI, the
/// written form of a date column's dates (its profile's).
pub fn start(
    ctx: &Context,
    table: &ClassTable,
    qi: &[String],
    hierarchies: &[Option<&[Vec<String>]>],
    dates: &[Option<DateForm>],
    p: &IdentityParams,
    a: &AdviceParams,
) -> Result<Pending, Box<MetricResult>> {
    if p.missing_policy == MissingPolicy::Wildcard {
        return Err(Box::new(ctx.without_value("advice", Status::NotApplicable, "wildcard_policy")));
    }
    let Some(before) = figures((0..table.len()).map(|i| table.count(i)), p) else {
        return Err(Box::new(ctx.without_value("advice", Status::EmptyInput, "no_records_in_scope")));
    };
    let effect = |change, after: Option<Figures>, suppressed, merged, loss| after.map(|after| Effect::new(change, &before, after, suppressed, merged, loss));
    let mut coarsened = Vec::with_capacity(qi.len());
    let records = table.value_records();
    for (q, column) in qi.iter().enumerate() {
        let per_code = &records[q];
        let effects: Vec<Effect> = coarsenings(column, table.dict(q), hierarchies.get(q).copied().flatten(), dates.get(q).copied().flatten())
            .into_iter()
            .filter_map(|c| {
                let (merged_share, loss) = cost(&c, per_code, before.records);
                effect(c.change, figures(regrouped(table, q, &c.map).into_iter(), p), 0, merged_share, loss)
            })
            .collect();
        coarsened.push(effects);
    }
    let below = a.suppress_below;
    let suppressed: u64 = (0..table.len()).map(|i| table.count(i)).filter(|&f| f < below).sum();
    let kept = (0..table.len()).map(|i| table.count(i)).filter(|&f| f >= below);
    let share = suppressed as f64 / before.records as f64;
    let suppression = effect(Change::Suppress { below }, figures(kept, p), suppressed, 0.0, share);
    Ok(Pending { ctx: ctx.clone(), before, below, columns: qi.to_vec(), coarsened, suppression })
}

/// The advice of [`start`], waiting for the figures of the table without each QI.
#[derive(Debug)]
pub struct Pending {
    ctx: Context,
    before: Figures,
    below: u64,
    columns: Vec<String>,
    /// Per QI, the effects of its coarsenings.
    coarsened: Vec<Vec<Effect>>,
    suppression: Option<Effect>,
}

impl Pending {
    /// The metric, with `drops[a]` the figures of the table without QI `a` (`None`: no record
    /// left). The effects are listed per QI (its drop, then its coarsenings), then the
    /// suppression, before they are ranked: equal ranks keep that order.
    pub fn finish(self, drops: Vec<Option<Figures>>) -> MetricResult {
        let Pending { ctx, before, below, columns, coarsened, suppression } = self;
        let mut effects = Vec::new();
        for ((column, after), mine) in columns.into_iter().zip(drops).zip(coarsened) {
            effects.extend(after.map(|after| Effect::new(Change::Drop { column }, &before, after, 0, 1.0, 1.0)));
            effects.extend(mine);
        }
        effects.extend(suppression);
        effects.sort_by(|x, y| x.after.records_at_risk.total_cmp(&y.after.records_at_risk).then(x.generalization_loss.total_cmp(&y.generalization_loss)));
        ctx.ok("advice", &effects).with_details(json!({ "before": before, "suppress_below": below }))
    }
}
