//! An LSD radix sort of 64-bit words by a range of their bits: the grouping of class keys
//! (the attribution lattice's subsets, the advice's regroupings, a retained table's classes)
//! without hashing and without random reads.

/// Sorts words by their bits `low .. low + width`: an LSD radix sort in as few passes of at
/// most 12 bits as the width allows (digits of equal width: 24 bits take two passes of 12,
/// 33 three of 11), or of at most 16 bits when the words outnumber a 16-bit digit's values
/// (32 bits in two passes: a pass over the words costs more than a larger histogram; the
/// page's lattice of the 1M-row Adult-like table, 8 QIs: 247 -> 231-240 ms); every pass's
/// histogram counted in one read; a pass whose digit never varies is skipped.
pub fn radix_sort_words(a: &mut Vec<u64>, b: &mut Vec<u64>, low: u32, width: u32) {
    let max_bits = if a.len() >= 1 << 16 { 16 } else { 12 };
    let passes = width.div_ceil(max_bits);
    if passes == 0 {
        return;
    }
    let bits = width.div_ceil(passes);
    // The last digit may be narrower: bits past the width are not sorted on.
    let masks: Vec<u64> = (0..passes).map(|p| (1u64 << bits.min(width - p * bits)) - 1).collect();
    let digit = |x: u64, p: usize| ((x >> (low + p as u32 * bits)) & masks[p]) as usize;
    let mut counts = vec![vec![0u32; 1 << bits]; passes as usize];
    for &x in a.iter() {
        for (p, c) in counts.iter_mut().enumerate() {
            c[digit(x, p)] += 1;
        }
    }
    b.clear();
    b.resize(a.len(), 0);
    for (p, c) in counts.iter_mut().enumerate() {
        if c.iter().any(|&n| n as usize == a.len()) {
            continue;
        }
        let mut at = 0;
        for n in c.iter_mut() {
            (*n, at) = (at, at + *n);
        }
        for &x in a.iter() {
            let d = digit(x, p);
            b[c[d] as usize] = x;
            c[d] += 1;
        }
        std::mem::swap(a, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_is_a_stable_sort_by_the_bits() {
        let mut s = 11u64;
        // 5,000 words sort in digits of at most 12 bits, 70,000 in digits of at most 16.
        let all: Vec<u64> = (0..70_000)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            })
            .collect();
        let widths = [(0, 0), (3, 5), (20, 12), (20, 13), (20, 16), (20, 17), (20, 24), (20, 25), (7, 32), (7, 33), (16, 36), (4, 40)];
        for ((low, width), words) in widths.into_iter().flat_map(|w| [(w, &all[..5000]), (w, &all[..])]) {
            let key = |x: &u64| (x >> low) & ((1u64 << width) - 1);
            let mut want = words.to_vec();
            want.sort_by_key(key);
            let (mut a, mut b) = (words.to_vec(), Vec::new());
            radix_sort_words(&mut a, &mut b, low, width);
            assert_eq!(a, want, "low {low}, width {width}, {} words", words.len());
        }
    }
}
