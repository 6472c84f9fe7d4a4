//! Per row, the code of its value in one column: 1, 2 or 4 bytes a cell, by the column's
//! number of distinct values (issue 11: a retained table costs its codes plus dictionaries).

/// The codes of one column, as narrow as its distinct values allow.
#[derive(Debug, Clone, PartialEq)]
pub enum Codes {
    /// Fewer than 256 distinct values.
    U8(Vec<u8>),
    /// Fewer than 65,536.
    U16(Vec<u16>),
    /// More.
    U32(Vec<u32>),
}

impl Default for Codes {
    fn default() -> Self {
        Codes::U8(Vec::new())
    }
}

impl Codes {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Codes::U8(v) => v.len(),
            Codes::U16(v) => v.len(),
            Codes::U32(v) => v.len(),
        }
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes a cell takes.
    pub fn width(&self) -> usize {
        match self {
            Codes::U8(_) => 1,
            Codes::U16(_) => 2,
            Codes::U32(_) => 4,
        }
    }

    /// The code of row `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Codes::U8(v) => u32::from(v[i]),
            Codes::U16(v) => u32::from(v[i]),
            Codes::U32(v) => v[i],
        }
    }

    /// The largest code, if any row (one pass the compiler vectorizes, per width).
    pub fn most(&self) -> Option<u32> {
        match self {
            Codes::U8(v) => v.iter().copied().max().map(u32::from),
            Codes::U16(v) => v.iter().copied().max().map(u32::from),
            Codes::U32(v) => v.iter().copied().max(),
        }
    }

    /// Widens the storage so that `max` fits.
    fn fit(&mut self, max: u32) {
        let wider = match self {
            Codes::U8(v) if max > u32::from(u8::MAX) && max <= u32::from(u16::MAX) => Codes::U16(v.iter().map(|&c| u16::from(c)).collect()),
            Codes::U8(v) if max > u32::from(u16::MAX) => Codes::U32(v.iter().map(|&c| u32::from(c)).collect()),
            Codes::U16(v) if max > u32::from(u16::MAX) => Codes::U32(v.iter().map(|&c| u32::from(c)).collect()),
            _ => return,
        };
        *self = wider;
    }

    /// Appends codes, none above `most` (a column's codes are below its number of values: the
    /// read widens by that, without a pass over the codes to find their largest).
    pub fn extend(&mut self, codes: &[u32], most: u32) {
        debug_assert!(codes.iter().all(|&c| c <= most), "a code above {most}");
        self.fit(most);
        self.push_mapped(codes, |c| c);
    }

    /// Appends codes mapped through `remap` (a merge of parts).
    pub fn extend_remapped(&mut self, codes: &[u32], remap: &[u32]) {
        self.fit(codes.iter().fold(0, |m, &c| m.max(remap[c as usize])));
        self.push_mapped(codes, |c| remap[c as usize]);
    }

    /// Appends the codes, mapped, at the width [`Codes::fit`] made them fit.
    #[inline]
    fn push_mapped(&mut self, codes: &[u32], map: impl Fn(u32) -> u32) {
        match self {
            Codes::U8(v) => v.extend(codes.iter().map(|&c| map(c) as u8)),
            Codes::U16(v) => v.extend(codes.iter().map(|&c| map(c) as u16)),
            Codes::U32(v) => v.extend(codes.iter().map(|&c| map(c))),
        }
    }

    /// Rows `from..to` as `u32`, into `out`.
    pub fn slice_into(&self, from: usize, to: usize, out: &mut Vec<u32>) {
        out.clear();
        match self {
            Codes::U8(v) => out.extend(v[from..to].iter().map(|&c| u32::from(c))),
            Codes::U16(v) => out.extend(v[from..to].iter().map(|&c| u32::from(c))),
            Codes::U32(v) => out.extend_from_slice(&v[from..to]),
        }
    }

    /// The memory held, in bytes.
    pub fn memory(&self) -> usize {
        match self {
            Codes::U8(v) => v.capacity(),
            Codes::U16(v) => v.capacity() * 2,
            Codes::U32(v) => v.capacity() * 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widens_as_codes_grow() {
        let mut c = Codes::default();
        c.extend(&[0, 1, 255], 255);
        assert_eq!(c.width(), 1);
        c.extend(&[256], 256);
        assert_eq!((c.width(), c.get(2), c.get(3)), (2, 255, 256));
        c.extend_remapped(&[0, 1], &[70_000, 3]);
        assert_eq!((c.width(), c.len(), c.get(4), c.get(5)), (4, 6, 70_000, 3));
        assert_eq!((c.most(), Codes::default().most()), (Some(70_000), None));
        let mut out = Vec::new();
        c.slice_into(2, 5, &mut out);
        assert_eq!(out, vec![255, 256, 70_000]);
    }
}
