//! A column past its cap of distinct values (ids, free text): its cells are still counted by
//! form and its distinct values estimated, in bounded memory, but no longer kept one by one.
//!
//! The estimate is a HyperLogLog of 2^14 one-byte registers (16 KiB a column, about 0.8 %
//! standard error) with O. Ertl's improved estimator ("New cardinality estimation algorithms
//! for HyperLogLog sketches", 2017), which has no bias to correct at small or large counts.
//! Hand-written rather than taken from a crate because a stored table keeps its sketches:
//! here they are 16,384 bytes that [`Hll::from_registers`] can check, where a crate's
//! serialized state cannot be checked and a corrupt one fails inside the crate.

use super::stats::Stats;
use crate::ingest::cell::{Cell, Normaliser};

/// Bits of the hash that choose a register.
const P: u32 = 14;

/// Registers.
pub const REGISTERS: usize = 1 << P;

/// The largest register value: leading zeros of the other 50 bits, plus one.
const MAX_RANK: u8 = (64 - P + 1) as u8;

/// The distinct-count sketch.
#[derive(Debug, Clone, PartialEq)]
pub struct Hll {
    registers: Vec<u8>,
}

impl Default for Hll {
    fn default() -> Self {
        Hll { registers: vec![0; REGISTERS] }
    }
}

/// The 64-bit hash a text enters the sketch as: XXH64, the same on every platform, so the CLI
/// and the page estimate the same distinct counts (foldhash, the tables' hasher, takes another
/// path on wasm32).
fn text_hash(t: &str) -> u64 {
    twox_hash::XxHash64::oneshot(0x5eed, t.as_bytes())
}

impl Hll {
    /// Counts a text.
    pub fn insert(&mut self, t: &str) {
        let h = text_hash(t);
        let index = (h >> (64 - P)) as usize;
        let rank = ((h << P) | (1 << (P - 1))).leading_zeros() as u8 + 1;
        let r = &mut self.registers[index];
        *r = (*r).max(rank);
    }

    /// Adds the texts another sketch counted.
    pub fn merge(&mut self, other: &Hll) {
        for (a, b) in self.registers.iter_mut().zip(&other.registers) {
            *a = (*a).max(*b);
        }
    }

    /// The registers, for storing.
    pub fn registers(&self) -> &[u8] {
        &self.registers
    }

    /// A sketch from stored registers; `None` when they cannot be a sketch's.
    pub fn from_registers(registers: &[u8]) -> Option<Hll> {
        (registers.len() == REGISTERS && registers.iter().all(|&r| r <= MAX_RANK)).then(|| Hll { registers: registers.to_vec() })
    }

    /// The estimated number of distinct texts (Ertl 2017, Algorithm 6).
    pub fn count(&self) -> f64 {
        let m = REGISTERS as f64;
        let q = 64 - P as usize;
        let mut c = vec![0u32; q + 2];
        for &r in &self.registers {
            c[r as usize] += 1;
        }
        let mut z = m * tau(1.0 - f64::from(c[q + 1]) / m);
        for k in (1..=q).rev() {
            z = 0.5 * (z + f64::from(c[k]));
        }
        z += m * sigma(f64::from(c[0]) / m);
        if z == 0.0 || !z.is_finite() {
            return if c[0] as usize == REGISTERS { 0.0 } else { f64::INFINITY };
        }
        m * m / (2.0 * std::f64::consts::LN_2 * z)
    }
}

/// Ertl's sigma(x) = x + sum_k x^(2^k) 2^(k-1).
fn sigma(mut x: f64) -> f64 {
    if x == 1.0 {
        return f64::INFINITY;
    }
    let (mut y, mut z) = (1.0, x);
    loop {
        x *= x;
        let previous = z;
        z += x * y;
        y += y;
        if z == previous {
            return z;
        }
    }
}

/// Ertl's tau(x) = (1 - x - sum_k (1 - x^(2^-k))^2 2^-k) / 3.
fn tau(mut x: f64) -> f64 {
    if x == 0.0 || x == 1.0 {
        return 0.0;
    }
    let (mut y, mut z) = (1.0, 1.0 - x);
    loop {
        x = x.sqrt();
        let previous = z;
        y *= 0.5;
        z -= (1.0 - x).powi(2) * y;
        if z == previous {
            return z / 3.0;
        }
    }
}

/// The cells of a column that its kept values do not cover.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sketch {
    /// Their forms, ranges and e-mail-like count.
    pub stats: Stats,
    /// Their distinct non-blank values.
    pub hll: Hll,
}

impl Sketch {
    /// Absorbs one cell's trimmed text.
    pub fn absorb(&mut self, text: &str, norm: &Normaliser) {
        match norm.normalise(text) {
            Cell::Missing => self.stats.tally.missing += 1,
            Cell::Suppressed => self.stats.tally.suppressed += 1,
            Cell::Text(t) => {
                let form = self.stats.form_of(&t, norm);
                self.stats.add(form, &t, 1);
                self.hll.insert(&t);
            }
        }
    }

    /// Merges the sketch of another part of the same column.
    pub fn merge(&mut self, other: &Sketch) {
        self.stats.merge(&other.stats);
        self.hll.merge(&other.hll);
    }

    /// Distinct non-blank values: those of the sketch together with `kept`.
    pub fn distinct<'a>(&self, kept: impl Iterator<Item = &'a str>) -> f64 {
        let mut h = self.hll.clone();
        for t in kept {
            h.insert(t);
        }
        h.count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_within_a_few_percent_at_every_size_and_merges_exactly() {
        for n in [0usize, 1, 10, 100, 1_000, 10_000, 40_000, 80_000, 300_000, 2_000_000] {
            let (mut whole, mut a, mut b) = (Hll::default(), Hll::default(), Hll::default());
            for i in 0..n {
                let t = format!("id-{i}");
                whole.insert(&t);
                whole.insert(&t);
                if i % 3 == 0 { a.insert(&t) } else { b.insert(&t) }
            }
            let est = whole.count();
            let tolerance = if n < 1_000 { 0.02 * n as f64 + 1.0 } else { 0.03 * n as f64 };
            assert!((est - n as f64).abs() <= tolerance, "n = {n}: {est}");
            a.merge(&b);
            assert_eq!(a, whole, "a merge is the sketch of the union");
        }
        let stored = Hll::from_registers(Hll::default().registers()).unwrap();
        assert_eq!(stored.count(), 0.0);
        assert!(Hll::from_registers(&[0; 10]).is_none());
        assert!(Hll::from_registers(&[200; REGISTERS]).is_none());
    }
}
