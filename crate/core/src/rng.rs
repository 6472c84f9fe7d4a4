//! SplitMix64 (Steele, Lea, Flood 2014): a tiny generator that gives the same numbers on every
//! platform and version, for the synthetic tables and for CM3's subsampling (utility.md
//! Sec 11.5). A random crate's generators may change between versions; these cannot.

/// The generator state.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (multiply-shift).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// Moves `k` entries of `items`, drawn uniformly without replacement, to its front (a
    /// partial Fisher-Yates shuffle); `k` at most `items.len()`.
    pub(crate) fn choose_front<T>(&mut self, items: &mut [T], k: usize) {
        for i in 0..k {
            let j = i + self.below(items.len() - i);
            items.swap(i, j);
        }
    }
}
