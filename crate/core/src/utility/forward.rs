//! The forward map `f_a` (spec utility.md Sec 1) and the group labels built on it, shared by
//! CTBIL (Sec 8.2) and query accuracy (Sec 10).
//!
//! A *recoded* attribute has a non-blank value of `P` outside `Dom_O` (a range, a mask, a
//! hierarchy node, a rounded number...). Its `O` labels are read through `f_a` so that both
//! tables speak the released vocabulary: the declared hierarchy's node that `P` uses for a
//! leaf, else (paired data) the unique non-blank `P` value seen on aligned rows with that `O`
//! value. An `O` value without `f_a` keeps its own label.
//!
//! Everything works on the attribute's joint codes: a label table is a per-code lookup (no
//! per-row string), and a grouping of several attributes is one `u32` id per row.

use crate::hash::{Map, map};
use crate::table::dictionary::SUPPRESSED;
use crate::utility::attribute::Attribute;
use crate::utility::params::CtbilBlank;

/// No label: the row is left out (blank under `ctbil_blank = exclude`).
pub const NONE: u32 = u32::MAX;
/// Several `P` values were observed for one `O` value.
const CONFLICT: u32 = u32::MAX - 1;

/// How `O`'s values of one attribute map onto labels.
#[derive(Debug, Clone)]
pub struct Forward {
    /// Whether some non-blank value of `P` is not in `Dom_O`.
    pub recoded: bool,
    /// Per joint code, the code of the label an `O` value stands for (itself when the
    /// attribute is not recoded or `f_a` is undefined); `None` when the attribute is recoded
    /// and no map can be built (unpaired data without hierarchy).
    pub map: Option<Vec<u32>>,
    /// Values of `Dom_O` without `f_a` (they keep their own label).
    pub undefined: usize,
    /// Where `f_a` came from: `identity`, `hierarchy`, `observed`, `hierarchy_and_observed`
    /// or `none`.
    pub source: &'static str,
}

/// Whether some non-blank value of `P` is not in `Dom_O` (utility.md Sec 8.2).
pub fn is_recoded(a: &Attribute) -> bool {
    (SUPPRESSED as usize + 1..a.values.len()).any(|c| a.p_count[c] > 0 && a.o_count[c] == 0)
}

/// The forward map of `a` (utility.md Sec 1); `pairs` are the aligned rows when the tables
/// could be paired.
pub fn forward(a: &Attribute, pairs: Option<&[(u32, u32)]>) -> Forward {
    let n = a.values.len();
    let identity = || (0..n as u32).collect::<Vec<u32>>();
    let (Some(p), true) = (a.p.as_deref(), is_recoded(a)) else {
        return Forward { recoded: false, map: Some(identity()), undefined: 0, source: "identity" };
    };
    let from_hierarchy = hierarchy_targets(a);
    let observed = pairs.map(|pairs| observed_targets(a, p, pairs));
    if from_hierarchy.is_none() && observed.is_none() {
        return Forward { recoded: true, map: None, undefined: 0, source: "none" };
    }
    let mut map = identity();
    let (mut undefined, mut used_h, mut used_o) = (0, false, false);
    for c in (SUPPRESSED as usize + 1)..n {
        if a.o_count[c] == 0 {
            continue;
        }
        let h = from_hierarchy.as_ref().map_or(NONE, |h| h[c]);
        let o = observed.as_ref().map_or(NONE, |o| o[c]);
        if h < CONFLICT {
            (map[c], used_h) = (h, true);
        } else if o < CONFLICT {
            (map[c], used_o) = (o, true);
        } else {
            undefined += 1;
        }
    }
    let source = match (used_h, used_o) {
        (true, true) => "hierarchy_and_observed",
        (true, false) => "hierarchy",
        (false, true) => "observed",
        (false, false) => "none",
    };
    Forward { recoded: true, map: Some(map), undefined, source }
}

/// Per code of `Dom_O`: the one node of the leaf's hierarchy row (the leaf included) that `P`
/// uses; `CONFLICT` when `P` uses several, `NONE` when none or the leaf is not declared.
fn hierarchy_targets(a: &Attribute) -> Option<Vec<u32>> {
    let rows = a.settings.hierarchy.as_deref()?;
    let mut t = vec![NONE; a.values.len()];
    for row in rows {
        let Some(leaf) = row.first().and_then(|l| a.values.lookup(l)) else { continue };
        if !a.in_dom_o(leaf) {
            continue;
        }
        for node in row.iter().filter_map(|v| a.values.lookup(v)) {
            if a.p_count[node as usize] == 0 {
                continue;
            }
            let e = &mut t[leaf as usize];
            if *e == NONE {
                *e = node;
            } else if *e != node {
                *e = CONFLICT;
            }
        }
    }
    Some(t)
}

/// Per code of `O`: the unique non-blank `P` value on aligned rows where both are non-blank;
/// `CONFLICT` when several, `NONE` when none.
fn observed_targets(a: &Attribute, p: &[u32], pairs: &[(u32, u32)]) -> Vec<u32> {
    let mut t = vec![NONE; a.values.len()];
    for &(i, j) in pairs {
        let (o, q) = (a.o[i as usize], p[j as usize]);
        if o <= SUPPRESSED || q <= SUPPRESSED {
            continue;
        }
        let e = &mut t[o as usize];
        if *e == NONE {
            *e = q;
        } else if *e != q {
            *e = CONFLICT;
        }
    }
    t
}

/// Dense labels of one attribute over both tables: `O` values through a forward map, `P`
/// values as they are, both blanks as the one label `BLANK` (or no label under `exclude`).
/// Labels are numbered in code order (`O`'s values first), so ids are deterministic.
#[derive(Debug, Clone)]
pub struct Labels<'a> {
    o_codes: &'a [u32],
    p_codes: &'a [u32],
    o_of: Vec<u32>,
    p_of: Vec<u32>,
    /// Per label, its joint code (`None` = `BLANK`).
    pub names: Vec<Option<u32>>,
}

impl<'a> Labels<'a> {
    /// Labels of `a` (whose `P` codes are `p`) with `O` read through `map` (see [`Forward`]).
    pub fn new(a: &'a Attribute, p: &'a [u32], map: &[u32], blank: CtbilBlank) -> Self {
        let n = a.values.len();
        let mut dense = vec![NONE; n];
        let mut names = Vec::new();
        let mut blank_label = NONE;
        let mut label = |target: u32, names: &mut Vec<Option<u32>>| -> u32 {
            if target <= SUPPRESSED {
                if blank == CtbilBlank::Exclude {
                    return NONE;
                }
                if blank_label == NONE {
                    blank_label = names.len() as u32;
                    names.push(None);
                }
                return blank_label;
            }
            let d = &mut dense[target as usize];
            if *d == NONE {
                *d = names.len() as u32;
                names.push(Some(target));
            }
            *d
        };
        let mut o_of = vec![NONE; n];
        let mut p_of = vec![NONE; n];
        for ((of, &count), &target) in o_of.iter_mut().zip(&a.o_count).zip(map) {
            if count > 0 {
                *of = label(target, &mut names);
            }
        }
        for (c, (pf, &count)) in p_of.iter_mut().zip(&a.p_count).enumerate() {
            if count > 0 {
                *pf = label(c as u32, &mut names);
            }
        }
        Labels { o_codes: &a.o, p_codes: p, o_of, p_of, names }
    }

    /// Number of labels (the union over both tables).
    pub fn count(&self) -> usize {
        self.names.len()
    }

    /// Label of row `i` of `O` ([`NONE`] = excluded).
    #[inline]
    pub fn o(&self, i: usize) -> u32 {
        self.o_of[self.o_codes[i] as usize]
    }

    /// Label of row `i` of `P` ([`NONE`] = excluded).
    #[inline]
    pub fn p(&self, i: usize) -> u32 {
        self.p_of[self.p_codes[i] as usize]
    }

    /// The text of a label (`None` = `BLANK`).
    pub fn text<'b>(&self, a: &'b Attribute, label: u32) -> Option<&'b str> {
        self.names[label as usize].map(|c| a.values.text(c))
    }
}

/// One group id per row of `O` and of `P` for the cross product of several label sets
/// ([`NONE`] when a row has no label in some variable). Equal label tuples get equal ids in
/// both tables; ids lie in `0..size`.
#[derive(Debug, Clone)]
pub struct Grouping {
    /// Per row of `O`.
    pub o: Vec<u32>,
    /// Per row of `P`.
    pub p: Vec<u32>,
    /// Upper bound of the ids.
    pub size: usize,
}

impl Grouping {
    /// Groups the rows by the labels of `vars` (at least one).
    pub fn new(vars: &[&Labels<'_>]) -> Self {
        let (first, rest) = vars.split_first().expect("at least one variable");
        let mut g = Grouping {
            o: (0..first.o_codes.len()).map(|i| first.o(i)).collect(),
            p: (0..first.p_codes.len()).map(|i| first.p(i)).collect(),
            size: first.count(),
        };
        for v in rest {
            g.refine(v);
        }
        g
    }

    /// Crosses the groups with one more variable: ids `g * k + label` while the product stays
    /// small (a flat array can count them), else renumbered densely through a hash map.
    fn refine(&mut self, v: &Labels<'_>) {
        let k = v.count().max(1);
        let limit = (self.o.len() + self.p.len()).max(1 << 16).min(CONFLICT as usize - 1);
        let combine = |g: u32, l: u32| if g == NONE || l == NONE { None } else { Some(g as u64 * k as u64 + l as u64) };
        match self.size.checked_mul(k) {
            Some(product) if product <= limit => {
                for (i, g) in self.o.iter_mut().enumerate() {
                    *g = combine(*g, v.o(i)).map_or(NONE, |x| x as u32);
                }
                for (i, g) in self.p.iter_mut().enumerate() {
                    *g = combine(*g, v.p(i)).map_or(NONE, |x| x as u32);
                }
                self.size = product;
            }
            _ => {
                let mut ids: Map<u64, u32> = map();
                let mut intern = |x: Option<u64>| match x {
                    None => NONE,
                    Some(x) => {
                        let next = ids.len() as u32;
                        *ids.entry(x).or_insert(next)
                    }
                };
                for (i, g) in self.o.iter_mut().enumerate() {
                    *g = intern(combine(*g, v.o(i)));
                }
                for (i, g) in self.p.iter_mut().enumerate() {
                    *g = intern(combine(*g, v.p(i)));
                }
                self.size = ids.len();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    fn column(cells: &[&str]) -> Column {
        Column::of(cells)
    }

    fn attribute(o: &[&str], p: &[&str], settings: AttributeSettings) -> Attribute {
        Attribute::new("a", &column(o), Some(&column(p)), settings, &Normaliser::default())
    }

    fn label_of(a: &Attribute, f: &Forward, text: &str) -> String {
        let c = a.values.lookup(text).unwrap();
        a.values.text(f.map.as_ref().unwrap()[c as usize]).to_string()
    }

    #[test]
    fn observed_map_is_the_unique_released_value() {
        let a = attribute(&["34", "37", "91", "25", "91"], &["30-39", "30-39", "*", "20-29", "90+"], AttributeSettings::default());
        let pairs: Vec<(u32, u32)> = (0..5).map(|i| (i, i)).collect();
        let f = forward(&a, Some(&pairs));
        assert!(f.recoded);
        assert_eq!(label_of(&a, &f, "34"), "30-39");
        assert_eq!(label_of(&a, &f, "91"), "90+", "the blank pair does not count");
        assert_eq!(f.undefined, 0);
        let unpaired = forward(&a, None);
        assert!(unpaired.map.is_none());
        let b = attribute(&["1", "1", "2"], &["a", "b", "c"], AttributeSettings::default());
        let f = forward(&b, Some(&[(0, 0), (1, 1), (2, 2)]));
        assert_eq!((label_of(&b, &f, "1").as_str(), f.undefined), ("1", 1), "two targets: own label");
    }

    #[test]
    fn hierarchy_gives_the_node_used_by_p() {
        let rows = [["flu", "Resp", "*"], ["cold", "Resp", "*"], ["ulcer", "Dig", "*"]];
        let hierarchy = Some(rows.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect());
        let a = attribute(&["flu", "cold", "ulcer"], &["Dig", "Resp", "Resp"], AttributeSettings { hierarchy, ..Default::default() });
        let f = forward(&a, None);
        assert_eq!(f.source, "hierarchy");
        assert_eq!(label_of(&a, &f, "flu"), "Resp");
        assert_eq!(label_of(&a, &f, "ulcer"), "Dig");
    }

    #[test]
    fn labels_and_groups_agree_across_tables() {
        let a = attribute(&["x", "y", "", "x"], &["x", "*", "z", "y"], AttributeSettings::default());
        assert!(forward(&a, None).map.is_none(), "z is new and there is no pairing");
        let map: Vec<u32> = (0..a.values.len() as u32).collect();
        let p = a.p.as_deref().unwrap();
        let l = Labels::new(&a, p, &map, CtbilBlank::Category);
        assert_eq!(l.count(), 4, "x, y, BLANK, z");
        assert_eq!(l.o(2), l.p(1), "MISSING and SUPPRESSED are one BLANK");
        let e = Labels::new(&a, p, &map, CtbilBlank::Exclude);
        assert_eq!((e.count(), e.o(2)), (3, NONE));
        let g = Grouping::new(&[&l, &l]);
        assert_eq!(g.o[0], g.p[0]);
        assert_ne!(g.o[0], g.o[1]);
    }
}
