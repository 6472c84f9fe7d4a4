//! Singling out (spec peer-measures.md Sec 5.4; Anonymeter `singling_out_evaluator.py`):
//! predicates built from the release `P` that select exactly one of its rows, then counted on
//! the original `O` and the control `C`; random queries as the baseline; the control count
//! corrected for a control of another size.

use crate::attack::columns::{AttackColumn, Side};
use crate::attack::draws::{Stream, StreamId};
use crate::hash::{Fixed, Map, map};
use crate::table::dictionary::is_blank;

/// A hash set with the core's fixed hasher.
type Set<K> = hashbrown::HashSet<K, Fixed>;

fn set<K>() -> Set<K> {
    Set::with_hasher(Fixed::with_seed(0x5eed))
}

/// How the queries are built (Sec 5.4 `so_mode`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SoMode {
    /// Several columns per query, from a random row of `P`.
    Multivariate,
    /// One column per query: rare values and extremes.
    Univariate,
}

/// A comparison of a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>`
    Gt,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `<=`
    Le,
}

impl Op {
    fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Gt => ">",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Le => "<=",
        }
    }

    fn holds(self, x: f64, v: f64) -> bool {
        match self {
            Op::Eq => x == v,
            Op::Ne => x != v,
            Op::Gt => x > v,
            Op::Lt => x < v,
            Op::Ge => x >= v,
            Op::Le => x <= v,
        }
    }
}

/// A predicate on one column (index into the attack's columns), Sec 5.4 table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pred {
    /// The cell is blank.
    Blank(usize),
    /// The cell is not blank.
    NotBlank(usize),
    /// An exact-numeric cell compared with a number; a blank cell satisfies only `!=`.
    Cmp(usize, Op, f64),
    /// `P`: the cell is this value; `O`, `C`: the cell is compatible with it.
    Match(usize, u32),
    /// The negation of `Match`.
    NotMatch(usize, u32),
}

impl Pred {
    /// A key identifying the predicate (queries are sets of predicates).
    fn key(&self) -> (usize, u8, u64) {
        match *self {
            Pred::Blank(a) => (a, 0, 0),
            Pred::NotBlank(a) => (a, 1, 0),
            Pred::Cmp(a, op, v) => (a, 2 + op as u8, v.to_bits()),
            Pred::Match(a, c) => (a, 8, u64::from(c)),
            Pred::NotMatch(a, c) => (a, 9, u64::from(c)),
        }
    }

    fn holds(&self, cols: &[AttackColumn], side: Side, row: usize) -> bool {
        match *self {
            Pred::Blank(a) => is_blank(cols[a].codes(side)[row]),
            Pred::NotBlank(a) => !is_blank(cols[a].codes(side)[row]),
            Pred::Cmp(a, op, v) => match cols[a].number(cols[a].codes(side)[row]) {
                Some(x) => op.holds(x, v),
                None => op == Op::Ne,
            },
            Pred::Match(a, v) => matches(&cols[a], side, cols[a].codes(side)[row], v),
            Pred::NotMatch(a, v) => !matches(&cols[a], side, cols[a].codes(side)[row], v),
        }
    }

    /// The predicate as text (`age >= 60`, `sex = M`, `zip is blank`).
    pub fn text(&self, cols: &[AttackColumn]) -> String {
        let name = |a: usize| cols[a].name().to_string();
        let value = |a: usize, c: u32| cols[a].attr.values.text(c).to_string();
        match *self {
            Pred::Blank(a) => format!("{} is blank", name(a)),
            Pred::NotBlank(a) => format!("{} is not blank", name(a)),
            Pred::Cmp(a, op, v) => format!("{} {} {}", name(a), op.text(), v),
            Pred::Match(a, c) => format!("{} = {}", name(a), value(a, c)),
            Pred::NotMatch(a, c) => format!("{} != {}", name(a), value(a, c)),
        }
    }
}

fn matches(col: &AttackColumn, side: Side, cell: u32, v: u32) -> bool {
    match side {
        Side::Released => cell == v,
        Side::Original | Side::Control => !is_blank(cell) && col.compatible_values(cell, v),
    }
}

/// A query: predicates that all hold.
pub type Query = Vec<Pred>;

fn query_key(q: &Query) -> Vec<(usize, u8, u64)> {
    let mut k: Vec<_> = q.iter().map(Pred::key).collect();
    k.sort_unstable();
    k.dedup();
    k
}

/// The query as text.
pub fn query_text(q: &Query, cols: &[AttackColumn]) -> String {
    q.iter().map(|p| p.text(cols)).collect::<Vec<_>>().join(" and ")
}

/// The rows of one table the attack reads (all, or one per distinct row with
/// `so_drop_duplicates`).
pub struct Rows<'a> {
    /// The columns.
    pub cols: &'a [AttackColumn],
    /// The table.
    pub side: Side,
    /// Row numbers.
    pub rows: Vec<usize>,
}

impl<'a> Rows<'a> {
    /// Every row of a table of `n` rows, or the first of each distinct combination of the
    /// columns' values when `dedup`.
    pub fn new(cols: &'a [AttackColumn], side: Side, n: usize, dedup: bool) -> Self {
        let rows = if dedup {
            let mut seen: Set<Vec<u32>> = set();
            (0..n).filter(|&r| seen.insert(cols.iter().map(|c| c.codes(side)[r]).collect())).collect()
        } else {
            (0..n).collect()
        };
        Rows { cols, side, rows }
    }

    fn selects(&self, q: &Query, row: usize) -> bool {
        q.iter().all(|p| p.holds(self.cols, self.side, row))
    }

    /// Whether the query selects exactly one of the rows.
    pub fn singles_out(&self, q: &Query) -> bool {
        let mut found = 0;
        for &r in &self.rows {
            if self.selects(q, r) {
                found += 1;
                if found > 1 {
                    return false;
                }
            }
        }
        found == 1
    }

    /// Positions (in `rows`) of the rows the query selects.
    fn selected(&self, q: &Query) -> Vec<u32> {
        (0..self.rows.len()).filter(|&i| self.selects(q, self.rows[i])).map(|i| i as u32).collect()
    }
}

/// The settings of singling out (Sec 5.4).
#[derive(Debug, Clone, Copy)]
pub struct SoSettings {
    /// `so_mode`.
    pub mode: SoMode,
    /// `n_attacks`.
    pub n_attacks: usize,
    /// `so_n_cols`, already clamped to the number of columns.
    pub n_cols: usize,
    /// `so_max_attempts`.
    pub max_attempts: u64,
    /// `seed`.
    pub seed: u64,
}

/// The counts of a singling-out attack.
#[derive(Debug, Clone)]
pub struct SoOutcome {
    /// The kept queries.
    pub queries: Vec<Query>,
    /// Kept queries singling out in `O`.
    pub k_att: u64,
    /// Baseline queries singling out in `O`.
    pub k_base: u64,
    /// Kept queries singling out in `C`, before correction.
    pub k_ctl_raw: Option<u64>,
    /// `k_ctl` after the control-size correction (equal when none applies).
    pub k_ctl: Option<f64>,
    /// The fitted `w` of the correction, when one applied.
    pub correction_w: Option<f64>,
    /// Per kept query: whether it singles out in `O` (a record-level output).
    pub singles_out_o: Vec<bool>,
}

/// Univariate candidates (Sec 5.4), per column in order.
fn univariate_candidates(p: &Rows<'_>) -> Vec<Query> {
    let mut out = Vec::new();
    for (a, col) in p.cols.iter().enumerate() {
        let codes = col.codes(Side::Released);
        let blanks = p.rows.iter().filter(|&&r| is_blank(codes[r])).count();
        if blanks == 1 {
            out.push(vec![Pred::Blank(a)]);
        }
        if col.exact_numeric {
            let xs = p.rows.iter().filter_map(|&r| col.number(codes[r]));
            let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
            if lo <= hi {
                out.push(vec![Pred::Cmp(a, Op::Le, lo)]);
                out.push(vec![Pred::Cmp(a, Op::Ge, hi)]);
            }
        }
        let mut count: Map<u32, u32> = map();
        for &r in &p.rows {
            *count.entry(codes[r]).or_default() += 1;
        }
        for &r in &p.rows {
            let c = codes[r];
            if !is_blank(c) && count[&c] == 1 {
                out.push(vec![if col.exact_numeric { Pred::Cmp(a, Op::Eq, col.number(c).expect("exact")) } else { Pred::Match(a, c) }]);
            }
        }
    }
    out
}

/// The median of the numbers of `P`'s non-blank cells of an exact-numeric column.
fn median(col: &AttackColumn, p: &Rows<'_>) -> f64 {
    let codes = col.codes(Side::Released);
    let mut xs: Vec<f64> = p.rows.iter().filter_map(|&r| col.number(codes[r])).collect();
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_unstable_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 { xs[m] } else { (xs[m - 1] + xs[m]) / 2.0 }
}

/// The attack's queries (Sec 5.4: univariate candidates shuffled and scanned, or multivariate
/// draws), each singling out in `P`, without repeats.
fn attack_queries(p: &Rows<'_>, s: &SoSettings) -> Vec<Query> {
    let mut stream = Stream::new(s.seed, StreamId::SinglingOutQueries);
    let mut kept = Vec::new();
    let mut keys: Set<Vec<(usize, u8, u64)>> = set();
    match s.mode {
        SoMode::Univariate => {
            let mut candidates = univariate_candidates(p);
            stream.shuffle(&mut candidates);
            for q in candidates {
                if kept.len() >= s.n_attacks {
                    break;
                }
                if !keys.contains(&query_key(&q)) && p.singles_out(&q) {
                    keys.insert(query_key(&q));
                    kept.push(q);
                }
            }
        }
        SoMode::Multivariate => {
            if p.rows.is_empty() || p.cols.is_empty() {
                return kept;
            }
            let medians: Vec<f64> = p.cols.iter().map(|c| if c.exact_numeric { median(c, p) } else { f64::NAN }).collect();
            // Queries already tried that did not single out (the answer cannot change).
            let mut failed: Set<Vec<(usize, u8, u64)>> = set();
            let mut attempts = 0u64;
            while kept.len() < s.n_attacks && attempts < s.max_attempts {
                attempts += 1;
                let r = p.rows[stream.below(p.rows.len() as u64) as usize];
                let q: Query = stream
                    .sample(p.cols.len(), s.n_cols)
                    .into_iter()
                    .map(|a| {
                        let col = &p.cols[a];
                        let c = col.codes(Side::Released)[r];
                        if is_blank(c) {
                            Pred::Blank(a)
                        } else if col.exact_numeric {
                            let v = col.number(c).expect("exact");
                            if v > medians[a] { Pred::Cmp(a, Op::Ge, v) } else { Pred::Cmp(a, Op::Le, v) }
                        } else {
                            Pred::Match(a, c)
                        }
                    })
                    .collect();
                let key = query_key(&q);
                if keys.contains(&key) || failed.contains(&key) {
                    continue;
                }
                if p.singles_out(&q) {
                    keys.insert(key);
                    kept.push(q);
                } else {
                    failed.insert(key);
                }
            }
        }
    }
    kept
}

/// The baseline's random queries (Sec 5.4, stream 2).
fn baseline_queries(p: &Rows<'_>, n: usize, n_cols: usize, seed: u64) -> Vec<Query> {
    let mut stream = Stream::new(seed, StreamId::SinglingOutBaseline);
    // Distinct cells of P per column in order of first occurrence, all blanks one value.
    let distinct: Vec<Vec<u32>> = p
        .cols
        .iter()
        .map(|col| {
            let codes = col.codes(Side::Released);
            let mut seen: Set<u32> = set();
            let mut out = Vec::new();
            for &r in &p.rows {
                let c = if is_blank(codes[r]) { 0 } else { codes[r] };
                if seen.insert(c) {
                    out.push(c);
                }
            }
            out
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    if p.rows.is_empty() || p.cols.is_empty() {
        return out;
    }
    for _ in 0..n {
        let mut chosen = stream.sample(p.cols.len(), n_cols);
        chosen.sort_unstable();
        let q = chosen
            .into_iter()
            .map(|a| {
                let values = &distinct[a];
                let v = values[stream.below(values.len() as u64) as usize];
                let col = &p.cols[a];
                if is_blank(v) {
                    [Pred::Blank(a), Pred::NotBlank(a)][stream.below(2) as usize]
                } else if col.exact_numeric {
                    let x = col.number(v).expect("exact");
                    let ops = [Op::Eq, Op::Ne, Op::Gt, Op::Lt, Op::Ge, Op::Le];
                    Pred::Cmp(a, ops[stream.below(6) as usize], x)
                } else {
                    [Pred::Match(a, v), Pred::NotMatch(a, v)][stream.below(2) as usize]
                }
            })
            .collect();
        out.push(q);
    }
    out
}

/// `G(s; w) = (1 - (s w + 1)(1 - w)^s) / (s + 1)`: the integral of the singling-out
/// probability over query weights up to `w` (Sec 5.4).
pub fn g(s: f64, w: f64) -> f64 {
    (1.0 - (s * w + 1.0) * libm::pow(1.0 - w, s)) / (s + 1.0)
}

/// The least-squares fit of `y ~ nu G(s; w)`, `w` in `[0, 1]`, `nu >= 0`, its global optimum
/// (`nu` profiled out, `w` searched on a log grid then refined by golden section): `w`.
pub fn fit_w(sizes: &[f64], ys: &[f64]) -> f64 {
    let sse = |w: f64| {
        let (mut gy, mut gg) = (0.0, 0.0);
        for (&s, &y) in sizes.iter().zip(ys) {
            let gv = g(s, w);
            gy += gv * y;
            gg += gv * gv;
        }
        let nu = if gg > 0.0 { (gy / gg).max(0.0) } else { 0.0 };
        sizes.iter().zip(ys).map(|(&s, &y)| (y - nu * g(s, w)).powi(2)).sum::<f64>()
    };
    const STEPS: usize = 1200;
    let grid: Vec<f64> = (0..=STEPS).map(|i| if i == STEPS { 1.0 } else { libm::pow(10.0, -12.0 + 12.0 * i as f64 / STEPS as f64) }).collect();
    let mut best = 0;
    let mut best_v = f64::INFINITY;
    for (i, &w) in grid.iter().enumerate() {
        let v = sse(w);
        if v < best_v {
            (best, best_v) = (i, v);
        }
    }
    let (mut lo, mut hi) = (grid[best.saturating_sub(1)], grid[(best + 1).min(STEPS)]);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..100 {
        let (a, b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if sse(a) <= sse(b) { hi = b } else { lo = a }
    }
    let w = (lo + hi) / 2.0;
    if sse(w) <= best_v { w } else { grid[best] }
}

/// Runs the attack: queries from `P`, counted on `O` and `C`, and the baseline.
pub fn run(p: &Rows<'_>, o: &Rows<'_>, c: Option<&Rows<'_>>, s: &SoSettings) -> SoOutcome {
    let queries = attack_queries(p, s);
    let n_cols = if s.mode == SoMode::Univariate { 1 } else { s.n_cols };
    let baseline = baseline_queries(p, s.n_attacks, n_cols, s.seed);
    let k_base = baseline.iter().filter(|q| o.singles_out(q)).count() as u64;
    let singles_out_o: Vec<bool> = queries.iter().map(|q| o.singles_out(q)).collect();
    let k_att = singles_out_o.iter().filter(|&&b| b).count() as u64;
    let (mut k_ctl_raw, mut k_ctl, mut correction_w) = (None, None, None);
    if let Some(c) = c {
        let raw = queries.iter().filter(|q| c.singles_out(q)).count() as u64;
        k_ctl_raw = Some(raw);
        k_ctl = Some(raw as f64);
        let (n_c, n_o) = (c.rows.len(), o.rows.len());
        if n_c != n_o && n_c > 0 {
            let w = correction(c, &queries, s.seed);
            correction_w = Some(w);
            k_ctl = Some(raw as f64 * g(n_o as f64, w) / g(n_c as f64, w));
        }
    }
    SoOutcome { queries, k_att, k_base, k_ctl_raw, k_ctl, correction_w, singles_out_o }
}

/// The control-size correction's fit (Sec 5.4): 10 sizes from `min(1000, |C|)` to `|C|`,
/// 5 subsamples each (stream 3), the kept queries singling out in each; returns `w`.
fn correction(c: &Rows<'_>, queries: &[Query], seed: u64) -> f64 {
    let n_c = c.rows.len();
    let selected: Vec<Vec<u32>> = queries.iter().map(|q| c.selected(q)).collect();
    let mut stream = Stream::new(seed, StreamId::SinglingOutCorrection);
    let start = n_c.min(1000) as f64;
    let step = (n_c as f64 - start) / 9.0;
    let (mut sizes, mut ys) = (Vec::new(), Vec::new());
    let mut member = vec![false; n_c];
    for i in 0..10 {
        let s = if i == 9 { n_c } else { (start + i as f64 * step) as usize };
        for _ in 0..5 {
            let sample = stream.sample(n_c, s);
            sample.iter().for_each(|&r| member[r] = true);
            let y = selected.iter().filter(|rows| rows.iter().filter(|&&r| member[r as usize]).take(2).count() == 1).count();
            sample.iter().for_each(|&r| member[r] = false);
            sizes.push(s as f64);
            ys.push(y as f64);
        }
    }
    fit_w(&sizes, &ys)
}
