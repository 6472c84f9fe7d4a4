//! SUDA: minimal sample uniques (MSUs), the SUDA score and the DIS-SUDA score of each record,
//! as sdcMicro's `suda2` codes them (spec peer-measures.md Sec 1).
//!
//! The search is SUDA2's (Manning, Haglin and Keane 2008): items are (column, value) pairs;
//! the MSUs of a table `T` are its items held by one record, and, for each other item `i`, the
//! MSUs `S` of the subtable `T_i` (the records holding `i`, over the items ranked above `i`)
//! for which a *special row* exists (a record of `T` outside `T_i` holding `S`), each extended
//! by `i`. Every MSU is found once, from its lowest-ranked item. Pruning: items held by every
//! record of a subtable are never part of its MSUs; a subtable of `t` records has no MSU of
//! more than `t - 1` items; no search goes past the maximum size `M`.
//!
//! It runs over the distinct keys of the class table (a class of `c` records is one row of
//! weight `c`), not over records: records of one key share their MSUs, and only keys held by
//! one record have any. The subtables of the top-level items are searched on all cores.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::metric::{Context, MetricResult, Status, min_mean_max};
use crate::table::classes::{ClassTable, MissingPolicy};
use crate::table::dictionary::is_blank;

/// How many of the highest-scoring records `suda_score.details.top` lists.
pub const TOP_RECORDS: usize = 20;

/// sdcMicro's limit on the number of QIs (spec Sec 1.5).
const MAX_QI: usize = 256;
/// Column sets are 64-bit masks: more QIs give `msu_search_too_large` (spec Sec 1.5 allows it).
const MAX_SEARCHED_QI: usize = 64;

/// The weights of the SUDA score (spec peer-measures.md Sec 1.1, 1.3).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SudaWeights {
    /// sdcMicro's `original_scores = TRUE` (its default): `w(k) = (q' - k)!`.
    #[default]
    Elliot,
    /// sdcMicro's `original_scores = FALSE`.
    Ihsn,
}

/// Settings of SUDA (spec peer-measures.md Sec 1.1).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SudaParams {
    /// Whether SUDA runs (off by default: it is the one identity measure whose cost grows
    /// with the subsets of the QIs).
    pub suda: bool,
    /// `M`, the largest MSU size searched; `None` = the number of QIs (sdcMicro).
    pub suda_max_size: Option<usize>,
    /// The weights of the score.
    pub suda_weights: SudaWeights,
    /// `pi`, the sampling fraction of the DIS model.
    pub dis_fraction: f64,
    /// Whether a blank cell may belong to an MSU (`ordinary` only).
    pub suda_blank_in_msu: bool,
}

impl Default for SudaParams {
    fn default() -> Self {
        SudaParams { suda: false, suda_max_size: None, suda_weights: SudaWeights::Elliot, dis_fraction: 0.01, suda_blank_in_msu: false }
    }
}

/// Where the records of the class table came from, for `per_record` and `top`.
pub struct RecordIds<'a> {
    /// Per class, the 0-based row (of the source table) of its first record.
    pub first_row: &'a [u64],
}

/// The MSUs found: per key (class) held by one record, its MSUs as column masks.
pub struct Msus {
    /// `M`.
    pub max: usize,
    /// Per class, `[m_1..m_M]` (empty for a class without MSU).
    pub counts: Vec<Vec<u32>>,
    /// Per QI, how many MSUs hold it.
    pub by_column: Vec<u64>,
}

/// The classes as rows of codes for the search.
struct Data {
    q: usize,
    codes: Vec<u32>,
    weight: Vec<u32>,
    wildcard: bool,
    /// Per column, per code: its rank among the items (1 = fewest records), 0 = not an item.
    rank: Vec<Vec<u32>>,
    /// Per column, its highest rank.
    max_rank: Vec<u32>,
}

impl Data {
    #[inline]
    fn code(&self, r: u32, c: usize) -> u32 {
        self.codes[r as usize * self.q + c]
    }

    /// Whether row `r` holds the item (`c`, `v`): its value, or a blank under `wildcard`.
    #[inline]
    fn holds(&self, r: u32, c: usize, v: u32) -> bool {
        let x = self.code(r, c);
        x == v || (self.wildcard && is_blank(x))
    }
}

/// One column of a (sub)table, its rows sorted by code: the items are the runs.
struct Column {
    c: usize,
    sorted: Vec<u32>,
    /// Under `wildcard`, the rows with a blank cell come first (blank codes are the lowest),
    /// and belong to every item of the column.
    blanks: usize,
}

impl Column {
    fn new(data: &Data, rows: &[u32], c: usize) -> Column {
        let mut sorted = rows.to_vec();
        sorted.sort_unstable_by_key(|&r| data.code(r, c));
        let blanks = if data.wildcard { sorted.partition_point(|&r| is_blank(data.code(r, c))) } else { 0 };
        Column { c, sorted, blanks }
    }

    /// The rows holding value `v` (not counting the blanks of `wildcard`).
    fn run(&self, data: &Data, v: u32) -> &[u32] {
        let from = self.sorted.partition_point(|&r| data.code(r, self.c) < v);
        let to = from + self.sorted[from..].partition_point(|&r| data.code(r, self.c) == v);
        &self.sorted[from..to]
    }
}

/// An item of a (sub)table worth a subtable.
struct Item {
    col: usize,
    from: usize,
    to: usize,
    support: u64,
    rank: u32,
}

/// Spec Sec 1.2: MSUs of `rows` over the items ranked above `min_rank` in columns outside
/// `used`, of at most `k` items, as (row, column mask).
fn search(data: &Data, rows: &[u32], used: u64, min_rank: u32, k: usize) -> Vec<(u32, u64)> {
    let columns: Vec<Column> = (0..data.q)
        .filter(|&c| used & (1 << c) == 0 && data.max_rank[c] > min_rank)
        .map(|c| Column::new(data, rows, c))
        .collect();
    let (out, items) = scan(data, rows, &columns, min_rank, k);
    let mut out = out;
    for item in &items {
        let sub = subtable(&columns[item.col], item);
        let limit = (k - 1).min(item.support as usize - 1);
        let c = columns[item.col].c;
        for (r, mask) in search(data, &sub, used | (1 << c), item.rank, limit) {
            // Under `wildcard` a record with a blank cell is in every subtable of its column,
            // but the item is not its own.
            if !(data.wildcard && is_blank(data.code(r, c))) && special_row(data, &columns, r, mask) {
                out.push((r, mask | (1 << columns[item.col].c)));
            }
        }
    }
    out
}

/// The rows of `item`'s subtable (its run, and the blanks under `wildcard`).
fn subtable(col: &Column, item: &Item) -> Vec<u32> {
    let mut sub = col.sorted[..col.blanks].to_vec();
    sub.extend_from_slice(&col.sorted[item.from..item.to]);
    sub
}

/// The 1-MSUs of a table and the items whose subtables are searched (`k >= 2`).
fn scan(data: &Data, rows: &[u32], columns: &[Column], min_rank: u32, k: usize) -> (Vec<(u32, u64)>, Vec<Item>) {
    let total: u64 = rows.iter().map(|&r| data.weight[r as usize] as u64).sum();
    let (mut out, mut items) = (Vec::new(), Vec::new());
    for (ci, col) in columns.iter().enumerate() {
        let blank_support: u64 = col.sorted[..col.blanks].iter().map(|&r| data.weight[r as usize] as u64).sum();
        let mut from = col.blanks;
        while from < col.sorted.len() {
            let v = data.code(col.sorted[from], col.c);
            let mut to = from;
            let mut support = blank_support;
            while to < col.sorted.len() && data.code(col.sorted[to], col.c) == v {
                support += data.weight[col.sorted[to] as usize] as u64;
                to += 1;
            }
            let rank = data.rank[col.c][v as usize];
            if rank > min_rank {
                if support == 1 {
                    out.push((col.sorted[from], 1u64 << col.c));
                } else if support < total && k >= 2 {
                    items.push(Item { col: ci, from, to, support, rank });
                }
            }
            from = to;
        }
    }
    (out, items)
}

/// Whether a row of the table other than `r` holds `r`'s values on `mask` (SUDA2's special
/// row: then the MSU of the subtable, extended by its item, is an MSU of the table). Scans
/// the rows of the item of `mask` held by the fewest rows.
fn special_row(data: &Data, columns: &[Column], r: u32, mask: u64) -> bool {
    let mut best: Option<(&Column, &[u32])> = None;
    for col in columns.iter().filter(|col| mask & (1 << col.c) != 0) {
        let run = col.run(data, data.code(r, col.c));
        if best.is_none_or(|(b, rb)| run.len() + col.blanks < rb.len() + b.blanks) {
            best = Some((col, run));
        }
    }
    let Some((col, run)) = best else { return false };
    let other = |&x: &u32| x != r && bits(mask).all(|c| data.holds(x, c, data.code(r, c)));
    run.iter().any(other) || col.sorted[..col.blanks].iter().any(other)
}

/// The columns of a mask.
fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |c| mask & (1 << c) != 0)
}

impl Data {
    fn of(table: &ClassTable, blank_in_msu: bool) -> Data {
        let q = table.q();
        let wildcard = table.policy() == MissingPolicy::Wildcard;
        let blank_item = blank_in_msu && !wildcard;
        let codes: Vec<u32> = (0..table.len()).flat_map(|i| (0..q).map(move |a| (i, a))).map(|(i, a)| table.code_at(i, a)).collect();
        let weight: Vec<u32> = (0..table.len()).map(|i| table.count(i) as u32).collect();
        let mut data = Data { q, codes, weight, wildcard, rank: Vec::new(), max_rank: vec![0; q] };
        // Ranks: items by their support in the whole table, fewest first (ties by column and
        // code: any fixed order gives the same MSUs).
        let mut items: Vec<(u64, usize, u32)> = Vec::new();
        let mut rank: Vec<Vec<u32>> = Vec::with_capacity(q);
        for c in 0..q {
            let size = table.dict(c).len();
            let mut support = vec![0u64; size];
            let mut blanks = 0u64;
            for i in 0..table.len() {
                let v = data.codes[i * q + c];
                if wildcard && is_blank(v) {
                    blanks += data.weight[i] as u64;
                } else {
                    support[v as usize] += data.weight[i] as u64;
                }
            }
            for (v, &s) in support.iter().enumerate() {
                let item = s > 0 && (!is_blank(v as u32) || blank_item);
                if item {
                    items.push((s + blanks, c, v as u32));
                }
            }
            rank.push(vec![0; size]);
        }
        items.sort_unstable();
        for (n, &(_, c, v)) in items.iter().enumerate() {
            rank[c][v as usize] = n as u32 + 1;
            data.max_rank[c] = n as u32 + 1;
        }
        data.rank = rank;
        data
    }
}

/// The search over a class table: its rows and the columns of the whole table.
pub struct Searcher {
    data: Data,
    columns: Vec<Column>,
    rows: Vec<u32>,
}

impl Searcher {
    /// Ranks the items of `table` and sorts its rows by each column, on all cores.
    pub fn new(table: &ClassTable, blank_in_msu: bool) -> Searcher {
        let data = Data::of(table, blank_in_msu);
        let rows: Vec<u32> = (0..table.len() as u32).collect();
        let columns = crate::par::map((0..data.q).filter(|&c| data.max_rank[c] > 0).collect(), |c| Column::new(&data, &rows, c));
        Searcher { data, columns, rows }
    }

    /// Spec Sec 1.2: the MSUs of every class up to `max` items, the top-level subtables
    /// searched on all cores.
    pub fn msus(&self, max: usize) -> Msus {
        let (data, columns) = (&self.data, &self.columns);
        let (ones, items) = scan(data, &self.rows, columns, 0, max);
        let mut msus = Msus { max, counts: vec![Vec::new(); self.rows.len()], by_column: vec![0; data.q] };
        let add = |msus: &mut Msus, (r, mask): (u32, u64)| {
            let counts = &mut msus.counts[r as usize];
            if counts.is_empty() {
                counts.resize(max, 0);
            }
            counts[mask.count_ones() as usize - 1] += 1;
            bits(mask).for_each(|c| msus.by_column[c] += 1);
        };
        ones.into_iter().for_each(|m| add(&mut msus, m));
        // Largest subtables first, so that no core is left with a large one at the end; in
        // batches, so that the MSUs found are counted and dropped as the search goes.
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_unstable_by_key(|&i| std::cmp::Reverse(items[i].support));
        for batch in order.chunks(1024) {
            let found = crate::par::map(batch.to_vec(), |i| {
                let item = &items[i];
                let col = &columns[item.col];
                let sub = subtable(col, item);
                let limit = (max - 1).min(item.support as usize - 1);
                let mut out = search(data, &sub, 1 << col.c, item.rank, limit);
                out.retain(|&(r, mask)| !(data.wildcard && is_blank(data.code(r, col.c))) && special_row(data, columns, r, mask));
                out.iter_mut().for_each(|m| m.1 |= 1 << col.c);
                out
            });
            found.into_iter().flatten().for_each(|m| add(&mut msus, m));
        }
        msus
    }

    /// Records holding row `r`'s values on `mask` (scanning the rows of its rarest item).
    fn count(&self, r: u32, mask: u64) -> u64 {
        let data = &self.data;
        let mut best: Option<(&Column, &[u32])> = None;
        for col in self.columns.iter().filter(|col| mask & (1 << col.c) != 0) {
            let run = col.run(data, data.code(r, col.c));
            if best.is_none_or(|(b, rb)| run.len() + col.blanks < rb.len() + b.blanks) {
                best = Some((col, run));
            }
        }
        let Some((col, run)) = best else { return 0 };
        let holds = |x: &&u32| bits(mask).all(|c| data.holds(**x, c, data.code(r, c)));
        run.iter().chain(&col.sorted[..col.blanks]).filter(holds).map(|&x| data.weight[x as usize] as u64).sum()
    }

    /// The MSUs of one class (row `r`), for the records listed in `details.top`: the column
    /// sets of its items up to `max`, level by level, each extended only from sets held by
    /// another record too, and tested by counting.
    pub fn msus_of(&self, r: u32, max: usize) -> Vec<u64> {
        let item = |c: usize| self.data.rank[c][self.data.code(r, c) as usize] > 0;
        let mut shared: std::collections::HashSet<u64> = [0].into();
        let mut msus = Vec::new();
        for _ in 1..=max {
            let mut next = std::collections::HashSet::new();
            for &base in &shared {
                let top = if base == 0 { 0 } else { 64 - base.leading_zeros() as usize };
                for c in (top..self.data.q).filter(|&c| item(c)) {
                    let set = base | (1 << c);
                    if bits(set).any(|d| !shared.contains(&(set & !(1 << d)))) {
                        continue;
                    }
                    if self.count(r, set) == 1 {
                        msus.push(set);
                    } else {
                        next.insert(set);
                    }
                }
            }
            shared = next;
        }
        msus
    }
}

/// The weights `w(1)..w(M)` (spec Sec 1.3).
pub fn weights(q: usize, max: usize, scheme: SudaWeights) -> Vec<f64> {
    let qe = q.max(3);
    match scheme {
        SudaWeights::Elliot => {
            let upper = if max == q { qe - 1 } else { max.min(qe - 1) };
            (1..=max).map(|k| (k..upper).map(|j| (qe - j) as f64).product()).collect()
        }
        SudaWeights::Ihsn => {
            let fact = |n: usize| (1..=n).map(|x| x as f64).product::<f64>();
            (1..=max).map(|k| ((1u64 << (qe - k)) as f64 - 1.0) * fact(k) * fact(qe - k) / fact(qe)).collect()
        }
    }
}

/// The upper edges of the 9 bins of sdcMicro's DIS histogram (spec Sec 1.5).
fn histogram(dis: impl Iterator<Item = (f64, u64)>) -> Vec<u64> {
    let edges: Vec<f64> = (0..8).map(|k| k as f64 * 0.1 + f64::EPSILON).collect();
    let mut bins = vec![0u64; 9];
    for (d, n) in dis {
        bins[edges.iter().position(|&e| d <= e).unwrap_or(8)] += n;
    }
    bins
}

/// The SUDA metrics (spec peer-measures.md Sec 1.5) of a finished class table.
pub fn metrics(ctx: &Context, table: &ClassTable, qi: &[String], p: &SudaParams, ids: &RecordIds<'_>) -> Vec<MetricResult> {
    const IDS: [&str; 4] = ["suda_score", "suda_msu_records", "suda_msu_share", "suda_dis_score"];
    let q = qi.len();
    let max = p.suda_max_size.unwrap_or(q);
    let ctx = Context {
        params: json!({
            "missing_policy": table.policy(),
            "suda_max_size": max,
            "suda_weights": p.suda_weights,
            "dis_fraction": p.dis_fraction,
            "suda_blank_in_msu": p.suda_blank_in_msu,
        }),
        ..ctx.clone()
    };
    let all = |status: Status, reason: &'static str| IDS.iter().map(|id| ctx.without_value(id, status, reason)).collect();
    if q == 0 {
        return all(Status::NotApplicable, "no_quasi_identifiers");
    }
    if max == 0 || max > q || !(p.dis_fraction > 0.0 && p.dis_fraction <= 1.0) {
        return all(Status::Error, "invalid_parameter");
    }
    if q > MAX_QI {
        return all(Status::Error, "too_many_quasi_identifiers");
    }
    if q > MAX_SEARCHED_QI {
        return all(Status::Error, "msu_search_too_large");
    }
    let n = table.records();
    if n == 0 {
        return all(Status::EmptyInput, "no_records_in_scope");
    }
    let searcher = Searcher::new(table, p.suda_blank_in_msu);
    let msus = searcher.msus(max);
    let w = weights(q, max, p.suda_weights);
    let qe = q.max(3);
    let score = |i: usize| -> f64 { msus.counts[i].iter().zip(&w).map(|(&m, &w)| m as f64 * w).sum() };
    let scores: Vec<f64> = (0..table.len()).map(score).collect();
    // f_A with alpha = 1 (spec Sec 1.1): the class size, or the compatible records.
    let f: Vec<f64> = if table.policy() == MissingPolicy::Wildcard {
        table.match_counts(1.0)
    } else {
        (0..table.len()).map(|i| table.count(i) as f64).collect()
    };
    let records_where = |want: f64| (0..table.len()).filter(|&i| f[i] == want).map(|i| table.count(i)).sum::<u64>();
    let (u1, p2) = (records_where(1.0), records_where(2.0));
    let pi = p.dis_fraction;
    let q_exp = 1.0 + (8.0 - qe as f64) / 20.0;
    let scored: Vec<usize> = (0..table.len()).filter(|&i| scores[i] > 0.0).collect();
    let s = crate::numeric::neumaier(scored.iter().map(|&i| table.count(i) as f64 * scores[i].powf(-q_exp)));
    let dis_of = |score: f64| if score > 0.0 { 1.0 / (1.0 + p2 as f64 * (1.0 - pi) / (pi * score.powf(q_exp) * s)) } else { 0.0 };
    let dis: Vec<f64> = scores.iter().map(|&x| dis_of(x)).collect();
    let dis_file = (u1 > 0).then(|| u1 as f64 * pi / (u1 as f64 * pi + p2 as f64 * (1.0 - pi)));
    let summary = |v: &[f64]| {
        let (lo, hi) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let sum = crate::numeric::neumaier((0..table.len()).map(|i| v[i] * table.count(i) as f64));
        min_mean_max(lo, sum / n as f64, hi)
    };
    // Records of a scored class: one each (only a key held by one record has MSUs).
    let row_key = |i: usize| (ids.first_row[i] + 1).to_string();
    let mut by_row: Vec<usize> = scored.clone();
    by_row.sort_unstable_by_key(|&i| ids.first_row[i]);
    let per_record = |v: &[f64]| Value::Object(by_row.iter().map(|&i| (row_key(i), json!(v[i]))).collect());
    let msu_counts = Value::Object(by_row.iter().map(|&i| (row_key(i), json!(msus.counts[i]))).collect());
    let mut total_by_size = vec![0u64; max];
    let mut by_smallest = vec![0u64; max];
    for &i in &scored {
        msus.counts[i].iter().enumerate().for_each(|(k, &m)| total_by_size[k] += m as u64);
        if let Some(k) = msus.counts[i].iter().position(|&m| m > 0) {
            by_smallest[k] += 1;
        }
    }
    let all_msus: u64 = total_by_size.iter().sum();
    let contributions: Vec<Value> = qi
        .iter()
        .enumerate()
        .map(|(c, name)| {
            let share = if all_msus > 0 { msus.by_column[c] as f64 / all_msus as f64 } else { 0.0 };
            json!({ "column": name, "msus": msus.by_column[c], "share": share })
        })
        .collect();
    let top = top_records(table, qi, &scores, &dis, &searcher, max, ids);
    let mut score_metric = ctx.ok("suda_score", summary(&scores)).with_details(json!({
        "per_record": per_record(&scores),
        "msu_counts": msu_counts,
        "msu_total_by_size": total_by_size,
        "weights": w,
        "q_eff": qe,
        "max_msu_size": max,
        "weights_scheme": p.suda_weights,
        "variable_contributions": contributions,
        "top": top,
        "score_histogram": score_histogram(&scores, table),
    }));
    if q < 3 {
        score_metric = score_metric.with_warning("suda_padded_to_three_qis");
    }
    let n_scored = scored.len() as u64;
    vec![
        score_metric,
        ctx.ok("suda_msu_records", n_scored).with_details(json!({ "by_smallest_msu": by_smallest })),
        ctx.ok("suda_msu_share", n_scored as f64 / n as f64),
        ctx.ok("suda_dis_score", summary(&dis)).with_details(json!({
            "per_record": per_record(&dis),
            "dis_file": dis_file,
            "u1": u1,
            "p2": p2,
            "q_exponent": q_exp,
            "dis_fraction": pi,
            "histogram": histogram((0..table.len()).map(|i| (dis[i], table.count(i)))),
        })),
    ]
}

/// The distribution of scores for the page's chart: records per distinct score, ascending.
fn score_histogram(scores: &[f64], table: &ClassTable) -> Value {
    let mut pairs: Vec<(f64, u64)> = (0..table.len()).map(|i| (scores[i], table.count(i))).collect();
    pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, u64)> = Vec::new();
    for (s, c) in pairs {
        match out.last_mut() {
            Some(last) if last.0 == s => last.1 += c,
            _ => out.push((s, c)),
        }
    }
    json!(out.iter().map(|&(s, c)| json!({ "score": s, "records": c })).collect::<Vec<_>>())
}

/// The [`TOP_RECORDS`] records with the highest scores (ties by their values, so the list does
/// not depend on row order), with their values and MSUs.
fn top_records(table: &ClassTable, qi: &[String], scores: &[f64], dis: &[f64], searcher: &Searcher, max: usize, ids: &RecordIds<'_>) -> Value {
    let mut order: Vec<usize> = (0..table.len()).filter(|&i| scores[i] > 0.0).collect();
    order.sort_unstable_by(|&a, &b| scores[b].total_cmp(&scores[a]).then_with(|| table.cmp_values(a, b)));
    order.truncate(TOP_RECORDS);
    let rows: Vec<Value> = order
        .iter()
        .map(|&i| {
            let values: serde_json::Map<String, Value> =
                qi.iter().enumerate().map(|(c, name)| (name.clone(), json!(table.dict(c).display(table.code_at(i, c))))).collect();
            let mut sets = searcher.msus_of(i as u32, max);
            sets.sort_unstable_by_key(|&m| (m.count_ones(), bits(m).collect::<Vec<_>>()));
            let names: Vec<Vec<&str>> = sets.iter().map(|&m| bits(m).map(|c| qi[c].as_str()).collect()).collect();
            json!({ "row": ids.first_row[i] + 1, "values": values, "size": 1, "score": scores[i], "dis": dis[i], "msus": names })
        })
        .collect();
    Value::Array(rows)
}
