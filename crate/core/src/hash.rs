//! Deterministic hashing: the same input always gives the same tables and the same output.

/// The hasher builder used by every table of the core (fixed seed, so runs are reproducible).
pub type Fixed = foldhash::fast::FixedState;

/// A hash map with the fixed hasher.
pub type Map<K, V> = hashbrown::HashMap<K, V, Fixed>;

/// An empty [`Map`].
pub fn map<K, V>() -> Map<K, V> {
    Map::with_hasher(Fixed::with_seed(0x5eed))
}

/// Mixes two words into one: the two halves of their 128-bit product folded together, where
/// the machine multiplies 64 by 64 bits in one instruction. wasm32 has no such instruction (the
/// product is a library call, measured at 2 % of a browser audit), so there the four 32-bit
/// partial products are folded instead ([`fold_halves`], as foldhash does on 32-bit targets).
#[inline(always)]
pub fn folded_multiply(x: u64, y: u64) -> u64 {
    if cfg!(target_arch = "wasm32") {
        fold_halves(x, y)
    } else {
        let full = u128::from(x) * u128::from(y);
        (full as u64) ^ ((full >> 64) as u64)
    }
}

/// The product's halves folded, from 32 x 32-bit products (carries replaced by XOR).
#[inline(always)]
fn fold_halves(x: u64, y: u64) -> u64 {
    let (lx, hx, ly, hy) = (x & 0xffff_ffff, x >> 32, y & 0xffff_ffff, y >> 32);
    (hx.wrapping_mul(hy) ^ lx.wrapping_mul(ly)) ^ (hx.wrapping_mul(ly) ^ lx.wrapping_mul(hy)).rotate_right(32)
}

/// `f²` as the 128-bit sums of squares take it: on wasm32, which has no 64 x 64 -> 128-bit
/// multiply, from the 64-bit products of `f`'s 32-bit halves ([`square_by_halves`]).
#[inline(always)]
pub fn square(f: u64) -> u128 {
    if cfg!(target_arch = "wasm32") { square_by_halves(f) } else { u128::from(f) * u128::from(f) }
}

/// `(a 2³² + b)² = a² 2⁶⁴ + 2ab 2³² + b²`, each product within 64 bits.
#[inline(always)]
fn square_by_halves(f: u64) -> u128 {
    let (a, b) = (f >> 32, f & 0xffff_ffff);
    (u128::from(a * a) << 64) + (u128::from(a * b) << 33) + u128::from(b * b)
}

/// The SHA-256 of an input, fed as it streams, reported as lower-case hex.
#[derive(Default, Clone)]
pub struct ContentHash(sha2::Sha256);

impl ContentHash {
    /// Adds the next bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        sha2::Digest::update(&mut self.0, bytes);
    }

    /// The digest, lower-case hex.
    pub fn hex(self) -> String {
        sha2::Digest::finalize(self.0).iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_by_halves_are_exact() {
        for f in [0, 1, 2, 0xffff_ffff, 1 << 32, (1 << 32) + 1, 0x1234_5678_9abc_def0, u64::MAX] {
            assert_eq!(square_by_halves(f), u128::from(f) * u128::from(f), "{f}");
        }
    }

    #[test]
    fn folded_halves_mix_every_bit() {
        // Not the 128-bit product's fold, but every input bit moves the output.
        let base = fold_halves(0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344);
        for bit in 0..64 {
            assert_ne!(fold_halves(0x243F_6A88_85A3_08D3 ^ (1 << bit), 0x1319_8A2E_0370_7344), base, "bit {bit}");
        }
    }
}
