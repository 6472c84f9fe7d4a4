//! The seeded draws of the attacks (spec peer-measures.md Sec 5.2, project-defined): one
//! SplitMix64 stream per random step, started at `16 seed + stream`, with an unbiased
//! `below(m)` (rejection), `sample(N, k)` (a partial Fisher-Yates shuffle) and `shuffle`.
//! Anonymeter 1.0.0 has no seed; these draws make a result reproducible across
//! implementations, and agree with Anonymeter's only statistically.

use crate::rng::SplitMix64;

/// The streams of Sec 5.2, one per random step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum StreamId {
    /// Singling-out queries.
    SinglingOutQueries = 1,
    /// Singling-out baseline queries.
    SinglingOutBaseline = 2,
    /// Singling-out control-size correction subsamples.
    SinglingOutCorrection = 3,
    /// Linkability targets from `O`.
    LinkabilityOriginal = 4,
    /// Linkability targets from `C`.
    LinkabilityControl = 5,
    /// Linkability baseline.
    LinkabilityBaseline = 6,
    /// Inference targets from `O`.
    InferenceOriginal = 7,
    /// Inference targets from `C`.
    InferenceControl = 8,
    /// Inference baseline.
    InferenceBaseline = 9,
}

/// One stream of draws.
pub struct Stream(SplitMix64);

impl Stream {
    /// Stream `s` of seed `x`: initial state `(16 x + s) mod 2^64`.
    pub fn new(seed: u64, stream: StreamId) -> Self {
        Self::raw(seed, stream as u64)
    }

    fn raw(seed: u64, s: u64) -> Self {
        Stream(SplitMix64(seed.wrapping_mul(16).wrapping_add(s)))
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next()
    }

    /// Uniform in `0..m` (`m > 0`): draws until `x < 2^64 - (2^64 mod m)`, then `x mod m`.
    pub fn below(&mut self, m: u64) -> u64 {
        assert!(m > 0, "below(0)");
        // 2^64 mod m, computed without 128-bit numbers.
        let rem = (u64::MAX % m + 1) % m;
        let limit = 0u64.wrapping_sub(rem); // 2^64 - rem; 0 stands for 2^64 when rem is 0
        loop {
            let x = self.next_u64();
            if limit == 0 || x < limit {
                return x % m;
            }
        }
    }

    /// `k` distinct indices of `0..n` in draw order (`k <= n`).
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut a: Vec<usize> = (0..n).collect();
        for i in 0..k.min(n) {
            let j = i + self.below((n - i) as u64) as usize;
            a.swap(i, j);
        }
        a.truncate(k.min(n));
        a
    }

    /// Shuffles a list in place.
    pub fn shuffle<T>(&mut self, list: &mut [T]) {
        let len = list.len();
        for i in 0..len.saturating_sub(1) {
            let j = i + self.below((len - i) as u64) as usize;
            list.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values_of_the_spec() {
        let mut s = Stream::raw(0, 0);
        assert_eq!(s.next_u64(), 0xe220a8397b1dcdaf);
        assert_eq!(s.next_u64(), 0x6e789e6aa1b965f4);
        assert_eq!(Stream::new(0, StreamId::InferenceOriginal).sample(10, 4), vec![7, 0, 4, 6]);
    }

    #[test]
    fn below_stays_in_range_and_sample_is_distinct() {
        let mut s = Stream::new(3, StreamId::SinglingOutQueries);
        for m in [1u64, 2, 3, 7, 1000, u64::MAX] {
            for _ in 0..50 {
                assert!(s.below(m) < m);
            }
        }
        let mut v = s.sample(100, 100);
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
        let mut l: Vec<u32> = (0..20).collect();
        s.shuffle(&mut l);
        l.sort_unstable();
        assert_eq!(l, (0..20).collect::<Vec<_>>());
    }
}
