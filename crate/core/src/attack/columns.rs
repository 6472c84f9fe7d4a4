//! The columns the attacks read (spec peer-measures.md Sec 5.1, 5.5): one attribute of the
//! original `O`, the release `P` and the control `C` in one code space, read in the
//! attribute's kind (numeric and date columns as numbers, others as categories), with the
//! compatibility of a target cell with a released cell and the distance terms.

use crate::ingest::cell::{Interval, Normaliser};
use crate::table::dictionary::is_blank;
use crate::utility::attribute::{Attribute, AttributeSettings, Typed};
use crate::utility::capture::Column as Captured;
use crate::utility::rut::preimage::{Preimages, Rule, mask_matches};

/// The three tables an attack reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The original `O`.
    Original,
    /// The release `P`.
    Released,
    /// The control `C`.
    Control,
}

/// One attribute of `O`, `P` and `C` in a joint code space.
#[derive(Debug, Clone)]
pub struct AttackColumn {
    /// The joint attribute (kind, domain and `Dom_O` from `O`).
    pub attr: Attribute,
    /// Numeric or date (Sec 5.1).
    pub numeric: bool,
    /// Numeric with every non-blank cell of `P` `EXACT` (Sec 5.1).
    pub exact_numeric: bool,
    /// Per row of `C`, its code (empty without `C`).
    pub c: Vec<u32>,
    /// `pre(t)` rules of `P`'s categorical values (utility.md Sec 1, rules 1-4).
    pre: Option<Preimages>,
}

impl AttackColumn {
    /// Joins the column `name` of `O`, `P` and (if given) `C`.
    pub fn new(name: &str, o: &Captured, p: &Captured, c: Option<&Captured>, settings: AttributeSettings, norm: &Normaliser) -> Self {
        let mut attr = Attribute::new(name, o, Some(p), settings, norm);
        let c = c.map_or_else(Vec::new, |c| attr.join(c, norm));
        let numeric = attr.is_numeric();
        let p_codes = attr.p.as_deref().expect("P has the column");
        let exact_numeric = numeric && p_codes.iter().all(|&t| is_blank(t) || matches!(attr.typed[t as usize], Typed::Exact(_)));
        let pre = (!numeric).then(|| Preimages::new(&attr, p_codes, None));
        AttackColumn { attr, numeric, exact_numeric, c, pre }
    }

    /// The column's name.
    pub fn name(&self) -> &str {
        &self.attr.name
    }

    /// The codes of one table's rows.
    pub fn codes(&self, side: Side) -> &[u32] {
        match side {
            Side::Original => &self.attr.o,
            Side::Released => self.attr.p.as_deref().expect("P has the column"),
            Side::Control => &self.c,
        }
    }

    /// The number a cell stands for: its value when `EXACT`, else `rep` (the midpoint of a
    /// range); `None` for blank, invalid and categorical cells.
    pub fn number(&self, code: u32) -> Option<f64> {
        match self.attr.typed[code as usize] {
            Typed::Exact(x) => Some(x),
            Typed::Range(_) => self.attr.rep(code),
            _ => None,
        }
    }

    /// `interval(t)` of a released cell.
    pub fn interval(&self, t: u32) -> Option<Interval> {
        self.attr.interval(t)
    }

    /// Whether the target cell `o` (of `O` or `C`) is compatible with the released cell `t`
    /// (Sec 5.1): both blank; or, neither blank and numeric: `o` in `interval(t)`;
    /// categorical: `o` in `pre(t)` (the rule of `pre(t)` applied to `o`'s value, so that a
    /// value of `C` absent from `O` is read like one of `O`).
    pub fn compatible(&self, o: u32, t: u32) -> bool {
        match (is_blank(o), is_blank(t)) {
            (true, true) => true,
            (false, false) => self.compatible_values(o, t),
            _ => false,
        }
    }

    /// [`compatible`](Self::compatible) for two non-blank cells.
    pub fn compatible_values(&self, o: u32, t: u32) -> bool {
        if self.numeric {
            return match (self.number(o), self.interval(t)) {
                (Some(x), Some(i)) => contains(i, x),
                _ => o == t,
            };
        }
        if o == t {
            return true;
        }
        let pre = self.pre.as_ref().expect("categorical");
        let (tt, ot) = (self.attr.values.text(t), self.attr.values.text(o));
        match pre.rule(t) {
            Rule::Hierarchy => self.attr.hierarchy.as_ref().and_then(|h| h.leaves.get(tt)).is_some_and(|l| l.iter().any(|x| x == ot)),
            Rule::Mask => mask_matches(tt, ot),
            Rule::Prefix => ot.starts_with(tt),
            Rule::Identity | Rule::Observed | Rule::Unknown => false,
        }
    }

    /// Whether a released value stands only for itself (equality decides compatibility).
    pub fn plain(&self, t: u32) -> bool {
        self.numeric || self.pre.as_ref().is_some_and(|p| matches!(p.rule(t), Rule::Identity | Rule::Observed | Rule::Unknown))
    }
}

/// Whether `x` lies in the interval.
pub fn contains(i: Interval, x: f64) -> bool {
    (if i.lo_closed { x >= i.lo } else { x > i.lo }) && (if i.hi_closed { x <= i.hi } else { x < i.hi })
}
