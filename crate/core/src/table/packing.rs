//! Bit-packed class keys: a key of `q` dictionary codes takes only the bits its columns need
//! (age 7, sex 2, postcode 10...), usually one 64-bit word, so the class table of a file with
//! tens of millions of distinct keys still fits in a few hundred megabytes.
//!
//! A column's width grows when its dictionary outgrows it; the table then re-packs its keys
//! (widths only grow, so this happens a few dozen times at most, mostly early in the file).

/// Where each column's code sits in a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packing {
    bits: Vec<u32>,
    word: Vec<usize>,
    shift: Vec<u32>,
    words: usize,
}

/// Bits needed to hold `code`.
pub(crate) fn width(code: u32) -> u32 {
    (32 - code.leading_zeros()).max(1)
}

impl Packing {
    /// A packing with these widths; a field never straddles two words.
    pub fn new(bits: Vec<u32>) -> Self {
        let (mut word, mut shift) = (Vec::with_capacity(bits.len()), Vec::with_capacity(bits.len()));
        let (mut w, mut used) = (0usize, 0u32);
        for &b in &bits {
            if used + b > 64 {
                w += 1;
                used = 0;
            }
            word.push(w);
            shift.push(used);
            used += b;
        }
        let words = if bits.is_empty() { 0 } else { w + 1 };
        Packing { bits, word, shift, words }
    }

    /// Words per key.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Bits of a key, all words together.
    pub fn width(&self) -> u32 {
        self.bits.iter().sum()
    }

    /// The packing that also holds `codes`, if this one does not.
    pub fn widened_for(&self, codes: &[u32]) -> Option<Packing> {
        let fits = codes.iter().zip(&self.bits).all(|(&c, &b)| width(c) <= b);
        (!fits).then(|| Packing::new(codes.iter().zip(&self.bits).map(|(&c, &b)| b.max(width(c))).collect()))
    }

    /// Writes the key of `codes` into `out` (`words()` long).
    pub fn pack(&self, codes: &[u32], out: &mut [u64]) {
        if let ([word], 1) = (&mut *out, self.words) {
            // One word (most keys): built in a register.
            *word = codes.iter().zip(&self.shift).fold(0, |w, (&c, &s)| w | u64::from(c) << s);
            return;
        }
        out.fill(0);
        for (a, &c) in codes.iter().enumerate() {
            out[self.word[a]] |= u64::from(c) << self.shift[a];
        }
    }

    /// `(shift, bits)` of column `a` in its word.
    pub fn field(&self, a: usize) -> (u32, u32) {
        (self.shift[a], self.bits[a])
    }

    /// The bits of column `a` within word `w` (0 when the column lives in another word).
    pub fn field_mask(&self, a: usize, w: usize) -> u64 {
        if self.word[a] != w {
            return 0;
        }
        let ones = if self.bits[a] >= 64 { u64::MAX } else { (1u64 << self.bits[a]) - 1 };
        ones << self.shift[a]
    }

    /// Each column's `(shift, mask)` in the key when keys are one word (most): a code is then
    /// `(word >> shift) & mask`, without the general [`Packing::code`]'s lookups.
    pub fn one_word_fields(&self) -> Option<Vec<(u32, u64)>> {
        (self.words == 1).then(|| self.bits.iter().zip(&self.shift).map(|(&b, &s)| (s, if b >= 64 { u64::MAX } else { (1u64 << b) - 1 })).collect())
    }

    /// The code of column `a` in `key`.
    pub fn code(&self, key: &[u64], a: usize) -> u32 {
        let mask = if self.bits[a] >= 64 { u64::MAX } else { (1u64 << self.bits[a]) - 1 };
        ((key[self.word[a]] >> self.shift[a]) & mask) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks_across_words() {
        let p = Packing::new(vec![2, 2, 2]);
        assert_eq!(p.words(), 1);
        let p = p.widened_for(&[3, 70_000, 1]).unwrap();
        assert!(p.widened_for(&[3, 70_000, 1]).is_none());
        let p = p.widened_for(&[u32::MAX, 0, u32::MAX]).unwrap();
        assert_eq!(p.words(), 2);
        let codes = [u32::MAX - 5, 65_000, 123_456];
        let mut key = vec![0; p.words()];
        p.pack(&codes, &mut key);
        let back: Vec<u32> = (0..3).map(|a| p.code(&key, a)).collect();
        assert_eq!(back, codes);
    }
}
