//! Row alignment of `O` and `P` (spec README Sec 8): by a record-id column present in both,
//! else by row order when the row counts agree, else none.

use serde_json::{Value, json};

use crate::hash::{Map, map};
use crate::utility::capture::Captured;

/// How many ids a pairing error quotes.
const EXAMPLES: usize = 5;

/// The aligned rows of `O` and `P`.
#[derive(Debug, Clone)]
pub struct Pairing {
    /// `(row of O, row of P)` in `P`'s row order, or why the tables cannot be paired.
    pub pairs: Result<Vec<(u32, u32)>, &'static str>,
    /// `alignment` (`record_id`, `row_order` or `none`), `records_removed` and its share, and
    /// example ids when pairing failed.
    pub details: Value,
}

impl Pairing {
    /// Pairs the rows of `o` and `p`.
    pub fn new(o: &Captured, p: &Captured) -> Pairing {
        match (&o.ids, &p.ids) {
            (Some(oi), Some(pi)) => by_id(oi, pi),
            _ if o.rows() == p.rows() => {
                let pairs = (0..o.rows() as u32).map(|i| (i, i)).collect();
                Pairing { pairs: Ok(pairs), details: json!({ "alignment": "row_order" }) }
            }
            _ => Pairing { pairs: Err("row_count_mismatch"), details: json!({ "alignment": "none", "rows_original": o.rows(), "rows_released": p.rows() }) },
        }
    }

    /// The pairs, or the reason there are none.
    pub fn pairs(&self) -> Result<&[(u32, u32)], &'static str> {
        self.pairs.as_deref().map_err(|r| *r)
    }
}

fn failed(reason: &'static str, examples: Vec<String>) -> Pairing {
    Pairing { pairs: Err(reason), details: json!({ "alignment": "none", "examples": examples }) }
}

fn by_id<'a>(oi: &'a [Option<String>], pi: &'a [Option<String>]) -> Pairing {
    let blank_rows =
        |ids: &[Option<String>]| ids.iter().enumerate().filter(|(_, v)| v.is_none()).map(|(i, _)| format!("row {}", i + 1)).take(EXAMPLES).collect::<Vec<_>>();
    let (bo, bp) = (blank_rows(oi), blank_rows(pi));
    if !bo.is_empty() || !bp.is_empty() {
        let examples = bo.into_iter().map(|r| format!("original {r}")).chain(bp.into_iter().map(|r| format!("released {r}"))).collect();
        return failed("record_id_missing", examples);
    }
    let index = |ids: &'a [Option<String>]| -> Result<Map<&'a str, u32>, Vec<String>> {
        let mut at: Map<&str, u32> = map();
        let mut dups = Vec::new();
        for (i, id) in ids.iter().flatten().enumerate() {
            if at.insert(id.as_str(), i as u32).is_some() && dups.len() < EXAMPLES {
                dups.push(id.clone());
            }
        }
        if dups.is_empty() { Ok(at) } else { Err(dups) }
    };
    let at = match (index(oi), index(pi)) {
        (Ok(at), Ok(_)) => at,
        (Err(d), _) | (_, Err(d)) => return failed("record_id_not_unique", d),
    };
    let mut pairs = Vec::with_capacity(pi.len());
    let mut unknown = Vec::new();
    for (p, id) in pi.iter().flatten().enumerate() {
        match at.get(id.as_str()) {
            Some(&o) => pairs.push((o, p as u32)),
            None if unknown.len() < EXAMPLES => unknown.push(id.clone()),
            None => {}
        }
    }
    if !unknown.is_empty() {
        return failed("record_id_unknown_in_released", unknown);
    }
    let removed = oi.len() - pairs.len();
    let share = if oi.is_empty() { 0.0 } else { removed as f64 / oi.len() as f64 };
    Pairing { pairs: Ok(pairs), details: json!({ "alignment": "record_id", "records_removed": removed, "records_removed_share": share }) }
}
