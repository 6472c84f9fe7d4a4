//! Where unquoted fields stop (a delimiter, CR or LF), found 64 bytes at a time: one vector
//! compare per 16 bytes gives a bit per byte, and each field's end is then the next set bit.
//! Fields are mostly short (8 bytes on average in the bench tables), so a search per field,
//! even 8 bytes at a time, spent most of the tokenizer's time on its exit branch.

/// The stops of one input, a block of 64 bytes at a time; a block's bits are computed once
/// and serve every field that ends in it.
pub struct Stops {
    delim: u8,
    /// Offset of the block whose bits are in `mask` ([`NO_BLOCK`] at first).
    block: usize,
    /// Bit `k`: byte `block + k` is a stop.
    mask: u64,
}

/// A block offset no position is within 64 bytes after: `at - NO_BLOCK` wraps to `at + 64`.
const NO_BLOCK: usize = usize::MAX - 63;

impl Stops {
    /// The stops of a delimiter, CR and LF.
    pub fn new(delim: u8) -> Stops {
        Stops { delim, block: NO_BLOCK, mask: 0 }
    }

    /// The position of the first stop at or after `from` in `input` (its length when none).
    /// `input` must be the same at every call.
    #[inline]
    pub fn next(&mut self, input: &[u8], from: usize) -> usize {
        let mut at = from;
        loop {
            let into = at.wrapping_sub(self.block);
            if into < 64 {
                let m = self.mask >> into;
                if m != 0 {
                    return at + m.trailing_zeros() as usize;
                }
                at = self.block + 64;
            }
            if at >= input.len() {
                return input.len();
            }
            self.block = at;
            self.mask = mask_of(&input[at..input.len().min(at + 64)], self.delim);
        }
    }
}

/// Bit `k` set when `bytes[k]` is a stop; at most 64 bytes.
#[inline]
fn mask_of(bytes: &[u8], delim: u8) -> u64 {
    if let Ok(block) = <&[u8; 64]>::try_from(bytes) {
        return block_mask(block, delim);
    }
    // The last bytes of the input: the bits past them are cleared.
    let mut padded = [0u8; 64];
    padded[..bytes.len()].copy_from_slice(bytes);
    block_mask(&padded, delim) & ((1u64 << bytes.len()) - 1)
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn block_mask(block: &[u8; 64], delim: u8) -> u64 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: SSE2 is part of every x86_64 processor; the 16 bytes loaded from 16 k lie within
    // the 64-byte block (an unaligned load).
    unsafe {
        let (d, lf, cr) = (_mm_set1_epi8(delim as i8), _mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b'\r' as i8));
        let mut mask = 0u64;
        for k in 0..4 {
            let v = _mm_loadu_si128(block.as_ptr().add(16 * k).cast());
            let hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, lf)), _mm_cmpeq_epi8(v, cr));
            mask |= u64::from(_mm_movemask_epi8(hits) as u16) << (16 * k);
        }
        mask
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn block_mask(block: &[u8; 64], delim: u8) -> u64 {
    use std::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128_load, v128_or};
    let (d, lf, cr) = (u8x16_splat(delim), u8x16_splat(b'\n'), u8x16_splat(b'\r'));
    let mut mask = 0u64;
    for k in 0..4 {
        // SAFETY: the 16 bytes from 16 k lie within the 64-byte block (wasm loads need no alignment).
        let v = unsafe { v128_load(block.as_ptr().add(16 * k).cast()) };
        let hits = v128_or(v128_or(u8x16_eq(v, d), u8x16_eq(v, lf)), u8x16_eq(v, cr));
        mask |= u64::from(u8x16_bitmask(hits)) << (16 * k);
    }
    mask
}

#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
#[inline]
fn block_mask(block: &[u8; 64], delim: u8) -> u64 {
    block.iter().enumerate().fold(0, |mask, (k, &b)| mask | u64::from(b == delim || b == b'\n' || b == b'\r') << k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(input: &[u8], from: usize, delim: u8) -> usize {
        input[from..].iter().position(|&b| b == delim || b == b'\n' || b == b'\r').map_or(input.len(), |p| from + p)
    }

    #[test]
    fn finds_every_stop_from_anywhere() {
        // Stops at every distance (within a block, at its edges, blocks apart), the last
        // bytes fewer than a block, and bytes with the high bit set (never a stop).
        let mut input = Vec::new();
        for gap in [0usize, 1, 7, 15, 16, 17, 63, 64, 65, 130] {
            input.extend(std::iter::repeat_n(b'x', gap));
            input.push([b';', b'\n', b'\r'][gap % 3]);
            input.extend([0xc3, 0xa9, 0xff]);
        }
        for len in [0, 1, 63, 64, 65, input.len()] {
            let input = &input[..len.min(input.len())];
            // Asked in order (as the tokenizer asks), and from each place afresh.
            let mut stops = Stops::new(b';');
            let mut at = 0;
            while at <= input.len() {
                assert_eq!(stops.next(input, at), plain(input, at, b';'), "from {at} of {len}");
                at += 1;
            }
            for from in 0..=input.len() {
                assert_eq!(Stops::new(b';').next(input, from), plain(input, from, b';'), "from {from} of {len}, afresh");
            }
        }
    }

    #[test]
    fn the_delimiter_is_any_ascii_byte() {
        for delim in [b',', b'\t', b'|', b' ', 0u8] {
            let input = [b'a', delim, b'b', b'\n', delim];
            let mut stops = Stops::new(delim);
            assert_eq!((stops.next(&input, 0), stops.next(&input, 2), stops.next(&input, 4)), (1, 3, 4));
        }
    }
}
