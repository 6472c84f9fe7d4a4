//! What the accumulator keeps while it absorbs rows: each column's codes mapped to its own
//! dictionary's, the buffers of the block being absorbed, each class's first row and record id.

/// A column's codes mapped to the codes of a summary's own dictionary, filled in one distinct
/// value at a time: a cell costs an array lookup.
#[derive(Debug, Clone, Default)]
pub(super) struct CodeMap(Vec<u32>);

pub(super) const UNSET: u32 = u32::MAX;

impl CodeMap {
    #[inline]
    pub(super) fn get(&mut self, code: u32, f: impl FnOnce() -> u32) -> u32 {
        match self.0.get(code as usize) {
            Some(&m) if m != UNSET => m,
            _ => {
                let m = f();
                if self.0.len() <= code as usize {
                    self.0.resize(code as usize + 1, UNSET);
                }
                self.0[code as usize] = m;
                m
            }
        }
    }
}

/// Buffers of `TableSummary::absorb`, reused from block to block.
#[derive(Default)]
pub(super) struct BlockRows {
    pub(super) keys: Vec<u32>,
    pub(super) weights: Vec<f64>,
    pub(super) persons: Vec<u32>,
    pub(super) classes: Vec<Option<u32>>,
}

/// Records `row` as the first of `class` unless an earlier one is there; whether it is now.
pub(super) fn first_row(first: &mut Vec<u64>, class: u32, row: u64) -> bool {
    let class = class as usize;
    if first.len() <= class {
        first.resize(class + 1, u64::MAX);
    }
    let earlier = row < first[class];
    first[class] = first[class].min(row);
    earlier
}

/// Records `id` as the record id of the first record of `class`.
pub(super) fn first_id(ids: &mut Vec<Option<Box<str>>>, class: u32, id: Option<&str>) {
    let class = class as usize;
    if ids.len() <= class {
        ids.resize(class + 1, None);
    }
    ids[class] = id.map(Box::from);
}
