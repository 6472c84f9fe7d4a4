//! What a released value stands for (spec utility.md Sec 1 and Sec 2):
//!
//! - [`Preimages`]: `pre(t)`, the original values a released categorical value `t` may stand
//!   for, by the first applicable rule of Sec 1 (hierarchy node, value of `Dom_O`, `MASK`,
//!   prefix truncation of a digit-string column, values observed on aligned rows, none);
//! - `|GR(t)|`, the number of original-resolution units a released cell covers (Sec 2 table):
//!   [`gr_numeric`] for numeric and date cells, [`Preimages::gr`] for categorical ones;
//! - [`domain_size`]: `|Dom|` of `gen_loss_ncp` and `arx_granularity` (Sec 2, Sec 9).

use crate::hash::{Map, map};
use crate::ingest::cell::Interval;
use crate::table::dictionary::is_blank;
use crate::utility::attribute::{Attribute, Typed, grid_count};

/// The mask character. The audit's normaliser reads only `*` as a mask character
/// (`AuditConfig::normaliser`), so a `MASK` value's masked positions are its `*`s.
pub const MASK_CHAR: char = '*';

/// Which rule of Sec 1 gives `pre(t)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Rule 1: `t` is a node of the declared hierarchy.
    Hierarchy,
    /// Rule 2: `t` is a value of `Dom_O`.
    Identity,
    /// Rule 3: `t` is a `MASK`.
    Mask,
    /// Rule 4: prefix truncation of a digit-string column.
    Prefix,
    /// Rule 5: the original values seen on aligned rows releasing `t`.
    Observed,
    /// Rule 6: nothing applies (a recoded label without aligned rows).
    Unknown,
}

/// `|GR(t)|` of one released cell, with the warning its computation raised.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gr {
    /// The count, at least 1.
    pub size: f64,
    /// `empty_interval` (a count below 1 replaced by 1) or `gr_unknown` (no count known: 1).
    pub warning: Option<&'static str>,
}

impl Gr {
    /// A count, replaced by 1 with warning `empty_interval` when below 1.
    fn count(size: f64) -> Gr {
        if size < 1.0 { Gr { size: 1.0, warning: Some("empty_interval") } } else { Gr { size, warning: None } }
    }
}

/// `pre(t)` for every non-blank value of a categorical attribute's release (Sec 1).
#[derive(Debug, Clone)]
pub struct Preimages {
    /// Per code of the joint dictionary: the rule that applied (`Unknown` for codes `P` lacks).
    rule: Vec<Rule>,
    /// Per code: `pre(t)` as codes of `Dom_O`, ascending.
    sets: Vec<Vec<u32>>,
}

/// Codes of `Dom_O(a)` (non-blank values of `O`), ascending.
pub fn dom_o(a: &Attribute) -> Vec<u32> {
    (2..a.values.len() as u32).filter(|&c| a.in_dom_o(c)).collect()
}

/// Whether `t` is a digit string shorter than the digit-string length `L` (rule 4).
fn is_prefix(a: &Attribute, t: &str) -> bool {
    a.digit_len.is_some_and(|l| !t.is_empty() && t.len() < l && t.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether value `o` matches mask `t`: same length, equal at every non-mask position.
pub fn mask_matches(t: &str, o: &str) -> bool {
    t.chars().count() == o.chars().count() && t.chars().zip(o.chars()).all(|(m, c)| m == MASK_CHAR || m == c)
}

impl Preimages {
    /// `pre(t)` for every value of `a`'s release `p`; `pairs` are the aligned rows when the
    /// tables could be paired (rule 5 needs them).
    pub fn new(a: &Attribute, p: &[u32], pairs: Option<&[(u32, u32)]>) -> Self {
        let n = a.values.len();
        let dom = dom_o(a);
        let mut rule = vec![Rule::Unknown; n];
        let mut sets: Vec<Vec<u32>> = vec![Vec::new(); n];
        // Dom_O sorted by text for prefix look-ups, and grouped by length for masks.
        let mut by_text = dom.clone();
        by_text.sort_unstable_by(|&x, &y| a.values.text(x).cmp(a.values.text(y)));
        let mut by_len: Map<usize, Vec<u32>> = map();
        for &o in &dom {
            by_len.entry(a.values.text(o).chars().count()).or_default().push(o);
        }
        let mut observed = false;
        for t in 2..n as u32 {
            if a.p_count[t as usize] == 0 {
                continue;
            }
            let text = a.values.text(t);
            let (r, set) = if let Some(leaves) = a.hierarchy.as_ref().and_then(|h| h.leaves.get(text)) {
                let mut s: Vec<u32> = leaves.iter().filter_map(|l| a.values.lookup(l)).filter(|&c| a.in_dom_o(c)).collect();
                s.sort_unstable();
                s.dedup();
                (Rule::Hierarchy, s)
            } else if a.in_dom_o(t) {
                (Rule::Identity, vec![t])
            } else if a.typed[t as usize] == Typed::Mask {
                let candidates = by_len.get(&text.chars().count()).map_or(&[][..], Vec::as_slice);
                (Rule::Mask, candidates.iter().copied().filter(|&o| mask_matches(text, a.values.text(o))).collect())
            } else if is_prefix(a, text) {
                let start = by_text.partition_point(|&o| a.values.text(o) < text);
                let mut s: Vec<u32> = by_text[start..].iter().copied().take_while(|&o| a.values.text(o).starts_with(text)).collect();
                s.sort_unstable();
                (Rule::Prefix, s)
            } else if pairs.is_some() {
                observed = true;
                (Rule::Observed, Vec::new())
            } else {
                (Rule::Unknown, Vec::new())
            };
            rule[t as usize] = r;
            sets[t as usize] = set;
        }
        if let (true, Some(pairs)) = (observed, pairs) {
            for &(i, j) in pairs {
                let (o, t) = (a.o[i as usize], p[j as usize]);
                if !is_blank(o) && rule[t as usize] == Rule::Observed {
                    sets[t as usize].push(o);
                }
            }
            for (s, r) in sets.iter_mut().zip(&rule) {
                if *r == Rule::Observed {
                    s.sort_unstable();
                    s.dedup();
                }
            }
        }
        Preimages { rule, sets }
    }

    /// The rule that gave `pre(t)`.
    pub fn rule(&self, t: u32) -> Rule {
        self.rule[t as usize]
    }

    /// `pre(t)`: codes of `Dom_O`, ascending (empty for blanks and unknown labels).
    pub fn set(&self, t: u32) -> &[u32] {
        &self.sets[t as usize]
    }

    /// `|GR(t)|` of a non-blank categorical value (Sec 2 table).
    pub fn gr(&self, a: &Attribute, t: u32) -> Gr {
        let text = a.values.text(t);
        match self.rule(t) {
            Rule::Hierarchy => {
                let leaves = a.hierarchy.as_ref().and_then(|h| h.leaves.get(text)).map_or(1, Vec::len);
                Gr::count(leaves as f64)
            }
            Rule::Identity => Gr::count(1.0),
            Rule::Mask => Gr::count(mask_size(a, text)),
            Rule::Prefix => Gr::count(10f64.powi((a.digit_len.unwrap_or(0) - text.len()) as i32)),
            Rule::Observed => Gr::count(self.set(t).len().max(1) as f64),
            Rule::Unknown => Gr { size: 1.0, warning: Some("gr_unknown") },
        }
    }
}

/// `|GR|` of a categorical `MASK` (Sec 2): `10^m` in a digit-string column (`m` masked
/// positions), else the product over masked positions of the number of distinct characters
/// (at least 1) at that position among the `Dom_O` values of the mask's length.
fn mask_size(a: &Attribute, t: &str) -> f64 {
    let masked: Vec<usize> = t.chars().enumerate().filter(|&(_, c)| c == MASK_CHAR).map(|(i, _)| i).collect();
    if a.digit_len.is_some() {
        return 10f64.powi(masked.len() as i32);
    }
    let len = t.chars().count();
    let same_len: Vec<Vec<char>> = dom_o(a).into_iter().map(|o| a.values.text(o).chars().collect::<Vec<char>>()).filter(|o| o.len() == len).collect();
    masked
        .iter()
        .map(|&i| {
            let mut chars: Vec<char> = same_len.iter().map(|o| o[i]).collect();
            chars.sort_unstable();
            chars.dedup();
            chars.len().max(1) as f64
        })
        .product()
}

/// `|GR(t)|` of a non-blank numeric or date cell (Sec 2 table); `None` for `INVALID` cells
/// (excluded from numeric computations, README Sec 4.2).
///
/// `EXACT`: 1, or `u / res_a` with a declared rounding unit `u`. `RANGE` (digit masks, months
/// and years included): the grid count of the interval as written, an infinite side replaced
/// by the domain's end (closed); without a domain such a side cannot be counted (`gr_unknown`).
pub fn gr_numeric(a: &Attribute, c: u32) -> Option<Gr> {
    match a.typed[c as usize] {
        Typed::Exact(_) => Some(Gr::count(a.settings.rounding_unit.map_or(1.0, |u| u / a.res))),
        Typed::Range(_) => Some(match a.interval(c) {
            Some(i) => Gr::count(a.grid(i).0 as f64),
            None => Gr { size: 1.0, warning: Some("gr_unknown") },
        }),
        _ => None,
    }
}

/// `|Dom|` (Sec 2 `gen_loss_ncp`, Sec 9 `arx_granularity`): the grid count of `[D_lo, D_hi]`
/// (numeric, date), `10^L` (digit-string column), else `|Dom_O(a)|`. `None` for a numeric or
/// date attribute without a domain.
pub fn domain_size(a: &Attribute) -> Option<f64> {
    if !a.kind.is_label() {
        let (lo, hi) = a.domain?;
        Some(grid_count(Interval::closed(lo, hi), a.res).0 as f64)
    } else if let Some(l) = a.digit_len {
        Some(10f64.powi(l as i32))
    } else {
        Some(dom_o(a).len() as f64)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::table::kind::Kind;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    /// A captured column of these raw cells.
    pub fn column(cells: &[&str]) -> Column {
        let norm = Normaliser::default();
        let mut c = Column::default();
        for t in cells {
            let code = c.values.code(norm.normalise(t));
            c.codes.push(code);
        }
        c
    }

    /// An attribute of `O` cells `o` released as `p`.
    pub fn attribute(o: &[&str], p: &[&str], settings: AttributeSettings) -> Attribute {
        Attribute::new("a", &column(o), Some(&column(p)), settings, &Normaliser::default())
    }

    /// Row-order pairs of equally long columns.
    pub fn row_pairs(n: usize) -> Vec<(u32, u32)> {
        (0..n as u32).map(|i| (i, i)).collect()
    }

    fn categorical() -> AttributeSettings {
        AttributeSettings { kind: Some(Kind::Categorical), ..Default::default() }
    }

    fn texts(a: &Attribute, s: &[u32]) -> Vec<String> {
        let mut v: Vec<String> = s.iter().map(|&c| a.values.text(c).to_string()).collect();
        v.sort();
        v
    }

    fn code(a: &Attribute, t: &str) -> u32 {
        a.values.lookup(t).unwrap()
    }

    #[test]
    fn zip_prefixes_and_masks_cover_powers_of_ten() {
        // G7.1: ZIP 10489 -> 1048 (|GR| 10, loss 0.9) and -> 104 (|GR| 100, loss 0.99).
        let a = attribute(&["10489", "10422", "20111"], &["1048", "104", "104**"], categorical());
        let p = a.p.clone().unwrap();
        let pre = Preimages::new(&a, &p, None);
        assert_eq!(pre.rule(code(&a, "1048")), Rule::Prefix);
        assert_eq!(pre.gr(&a, code(&a, "1048")).size, 10.0);
        assert_eq!(pre.gr(&a, code(&a, "104")).size, 100.0);
        assert_eq!(1.0 - 1.0 / pre.gr(&a, code(&a, "1048")).size, 0.9);
        assert!((1.0 - 1.0 / pre.gr(&a, code(&a, "104")).size - 0.99).abs() < 1e-15);
        assert_eq!(texts(&a, pre.set(code(&a, "104"))), ["10422", "10489"]);
        assert_eq!(pre.rule(code(&a, "104**")), Rule::Mask);
        assert_eq!(pre.gr(&a, code(&a, "104**")).size, 100.0);
        assert_eq!(texts(&a, pre.set(code(&a, "104**"))), ["10422", "10489"]);
    }

    #[test]
    fn rules_apply_in_order() {
        let mut s = categorical();
        s.hierarchy = Some(vec![vec!["ab".into(), "X".into()], vec!["cd".into(), "X".into()], vec!["zz".into(), "X".into()]]);
        let a = attribute(&["ab", "cd", "ef", "ab"], &["X", "ab", "*d", "new", "e*"], s);
        let p = a.p.clone().unwrap();
        let pre = Preimages::new(&a, &p, Some(&row_pairs(4)));
        // Rule 1: leaves under X intersected with Dom_O; |GR| counts all leaves.
        assert_eq!(pre.rule(code(&a, "X")), Rule::Hierarchy);
        assert_eq!(texts(&a, pre.set(code(&a, "X"))), ["ab", "cd"]);
        assert_eq!(pre.gr(&a, code(&a, "X")).size, 3.0);
        // A leaf is a node too (rule 1), standing for itself.
        assert_eq!(texts(&a, pre.set(code(&a, "ab"))), ["ab"]);
        assert_eq!(pre.gr(&a, code(&a, "ab")).size, 1.0);
        // Rule 3, non-digit column: one masked position with 3 distinct first characters.
        assert_eq!(texts(&a, pre.set(code(&a, "*d"))), ["cd"]);
        assert_eq!(pre.gr(&a, code(&a, "*d")).size, 3.0);
        // Rule 5: row 4 released "new" where O is "ab".
        assert_eq!(pre.rule(code(&a, "new")), Rule::Observed);
        assert_eq!(texts(&a, pre.set(code(&a, "new"))), ["ab"]);
        assert_eq!(pre.gr(&a, code(&a, "new")).size, 1.0);
        // Without pairs the recoded label is unknown.
        let unpaired = Preimages::new(&a, &p, None);
        assert_eq!(unpaired.rule(code(&a, "new")), Rule::Unknown);
        assert_eq!(unpaired.gr(&a, code(&a, "new")).warning, Some("gr_unknown"));
    }

    #[test]
    fn numeric_ranges_count_grid_points_inclusively() {
        // G7.1: 34 -> 30-39 and [30,40): |GR| 10, loss 0.9; >=80 with D_hi = 95: 16.
        let a = attribute(&["34", "25", "95"], &["30-39", "[30,40)", ">=80", "(30,40]", "34", "40-30"], AttributeSettings::default());
        let gr = |t: &str| gr_numeric(&a, code(&a, t)).unwrap();
        assert_eq!(gr("30-39").size, 10.0);
        assert_eq!(1.0 - 1.0 / gr("30-39").size, 0.9);
        assert_eq!(gr("[30,40)").size, 10.0);
        assert_eq!(gr("(30,40]").size, 10.0);
        assert_eq!(gr(">=80").size, 16.0);
        assert_eq!(gr("34"), Gr { size: 1.0, warning: None });
        assert_eq!(gr_numeric(&a, code(&a, "40-30")), None, "a > b is INVALID");
        let rounded = attribute(&["41250"], &["41000"], AttributeSettings { rounding_unit: Some(1000.0), ..Default::default() });
        assert_eq!(gr_numeric(&rounded, code(&rounded, "41000")).unwrap().size, 1000.0);
        assert_eq!(domain_size(&a), Some(71.0));
    }
}
