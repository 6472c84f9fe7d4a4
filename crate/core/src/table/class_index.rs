//! The hash index of a class table (spec identity-risk.md Sec 1, used by `classes`): from a
//! class's packed key to the class's position, 8 bytes a slot.
//!
//! Slots come in buckets of 8, one cache line each; a key is looked for from its home bucket
//! on, bucket after bucket, until an empty slot (classes are never removed), and the index is
//! kept at most 7/8 full. A slot holds the class and a tag of its key beside the key's
//! distance from its home bucket (0 to 6, or 7 for "7 or more").
//!
//! When a key is one word of at most `29 + log2(buckets)` bits, the tag is its low 29 bits and
//! the home bucket is made of its other bits (mixed with the tag to spread them): the tag and
//! the home together are the key. A slot whose tag and distance match is then the key's class
//! without reading the table's keys, which is most of the cost of a row when the keys do not
//! fit in the cache. Other keys are told apart by comparing them in full.

/// Slots a bucket: 8 slots of 8 bytes fill one 64-byte cache line.
const SLOTS: usize = 8;
/// Bits of a slot's tag; the 3 above it hold the distance.
const TAG_BITS: u32 = 29;
const TAG_MASK: u32 = (1 << TAG_BITS) - 1;
/// The distance stored for "this far from home, or farther".
const FAR: u32 = 7;
/// The class of an empty slot.
const EMPTY: u32 = u32::MAX;

/// Whether [`prefetch`] does anything here: elsewhere (wasm has no prefetch) the work of
/// finding what to prefetch is skipped too.
pub const PREFETCHES: bool = cfg!(target_arch = "x86_64");

/// Asks the processor to bring `value` into the cache (a hint: nothing on other processors).
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults and changes no memory; the address is
    // that of a live value.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((value as *const T).cast())
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// One cache line of slots `[tag | distance << 29, class]`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Bucket([[u32; 2]; SLOTS]);

const EMPTY_BUCKET: Bucket = Bucket([[0, EMPTY]; SLOTS]);

/// Where a key is looked for: its home bucket and its tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    home: usize,
    tag: u32,
}

/// Where a key that was not found goes: the first empty slot on its way.
#[derive(Clone, Copy, Debug)]
pub struct Vacancy {
    bucket: usize,
    slot: usize,
    distance: usize,
}

/// The index: see the module documentation.
#[derive(Clone, Debug, Default)]
pub struct ClassIndex {
    buckets: Vec<Bucket>,
    len: usize,
    /// Whether a key's tag and home bucket are the whole key (one word of few enough bits).
    exact: bool,
}

impl ClassIndex {
    /// An empty index with room for `room` classes whose keys are `words` words of at most
    /// `width` bits in all.
    pub fn with_room(room: usize, words: usize, width: u32) -> Self {
        let buckets = (room * 8 / 7 / SLOTS + 1).next_power_of_two().max(2);
        let log2 = buckets.trailing_zeros();
        ClassIndex { buckets: vec![EMPTY_BUCKET; buckets], len: 0, exact: words <= 1 && width <= TAG_BITS + log2 }
    }

    /// Classes indexed.
    pub fn indexed(&self) -> usize {
        self.len
    }

    /// Whether the next class needs a larger index (more than 7/8 full, or none at all).
    pub fn is_full(&self) -> bool {
        (self.len + 1) * 8 > self.buckets.len() * SLOTS * 7
    }

    /// Where `key` is looked for; `hash` (the key's hash) is called only when the key is not
    /// told apart by its tag and home.
    #[inline]
    pub fn probe(&self, key: &[u64], hash: impl FnOnce() -> u64) -> Probe {
        let log2 = self.buckets.len().trailing_zeros();
        if self.exact {
            let word = key.first().copied().unwrap_or(0);
            let tag = (word as u32) & TAG_MASK;
            let spread = (u64::from(tag).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - log2)) as usize;
            Probe { home: ((word >> TAG_BITS) as usize ^ spread) & self.buckets.len().wrapping_sub(1), tag }
        } else {
            let h = hash();
            Probe { home: (h >> (64 - log2)) as usize, tag: (h as u32) & TAG_MASK }
        }
    }

    /// Asks the processor to bring `probe`'s home bucket into the cache, so that a lookup a
    /// few rows later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, probe: Probe) {
        if let Some(b) = self.buckets.get(probe.home) {
            prefetch(b);
        }
    }

    /// The class of `probe`'s key, or where to insert it. `same(class)` says whether a class
    /// has the key; it is asked only when the tag and the home do not settle it.
    #[inline]
    pub fn find(&self, probe: Probe, same: impl Fn(u32) -> bool) -> Result<u32, Vacancy> {
        // (An index with no bucket, forgotten or never grown, holds no class.)
        let mask = self.buckets.len().wrapping_sub(1);
        for distance in 0..self.buckets.len() {
            let bucket = (probe.home + distance) & mask;
            let stored_distance = (distance as u32).min(FAR);
            for (slot, &[word, class]) in self.buckets[bucket].0.iter().enumerate() {
                if class == EMPTY {
                    return Err(Vacancy { bucket, slot, distance });
                }
                if word & TAG_MASK == probe.tag && word >> TAG_BITS == stored_distance && ((self.exact && stored_distance < FAR) || same(class)) {
                    return Ok(class);
                }
            }
        }
        debug_assert!(self.buckets.is_empty(), "the index is never full");
        Err(Vacancy { bucket: 0, slot: 0, distance: 0 })
    }

    /// Stores `class` at the vacancy [`ClassIndex::find`] gave for `probe` (nothing was
    /// inserted since). The caller keeps the index from filling ([`ClassIndex::is_full`]).
    #[inline]
    pub fn insert(&mut self, probe: Probe, at: Vacancy, class: u32) {
        let distance = (at.distance as u32).min(FAR);
        self.buckets[at.bucket].0[at.slot] = [probe.tag | distance << TAG_BITS, class];
        self.len += 1;
    }

    /// Stores a class whose key is not in the index yet.
    pub fn insert_new(&mut self, probe: Probe, class: u32) {
        let at = self.find(probe, |_| false).expect_err("a key is indexed once");
        self.insert(probe, at, class);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Indexes `keys` (one word each) in an index with room for `room`, then finds each.
    fn round_trip(keys: &[u64], room: usize, width: u32) -> ClassIndex {
        let mut index = ClassIndex::with_room(room, 1, width);
        let hash = |k: u64| k.wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(31);
        for (i, &k) in keys.iter().enumerate() {
            let p = index.probe(&[k], || hash(k));
            match index.find(p, |c| keys[c as usize] == k) {
                Ok(c) => panic!("key {k} found as class {c} before it was inserted"),
                Err(at) => index.insert(p, at, i as u32),
            }
        }
        for (i, &k) in keys.iter().enumerate() {
            let p = index.probe(&[k], || hash(k));
            assert_eq!(index.find(p, |c| keys[c as usize] == k).ok(), Some(i as u32), "key {k}");
        }
        index
    }

    #[test]
    fn finds_every_key_exact_or_not() {
        let keys: Vec<u64> = (0..5000u64).map(|i| i.wrapping_mul(0x9E37_79B9) % (1 << 33)).collect();
        let mut distinct = keys;
        distinct.sort_unstable();
        distinct.dedup();
        // 1024 buckets: 33 bits are within 29 + 10, so the tag and the home are the key.
        let exact = round_trip(&distinct, 7000, 33);
        assert!(exact.exact);
        // A key wider than 29 + log2(buckets) bits is compared in full.
        let compared = round_trip(&distinct, 7000, 60);
        assert!(!compared.exact);
        assert_eq!((exact.indexed(), compared.indexed()), (distinct.len(), distinct.len()));
    }

    #[test]
    fn keys_far_from_their_home_are_found_and_kept_apart() {
        // 120 keys whose homes are the first two buckets: most lie 2 to 15 buckets away,
        // past the 7 a slot can record, where keys are compared in full.
        let room = 1000;
        let probe_of = ClassIndex::with_room(room, 1, 36);
        let keys: Vec<u64> = (0..1u64 << 20)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 28)
            .filter(|&k| probe_of.probe(&[k], || unreachable!()).home < 2)
            .take(120)
            .collect();
        assert_eq!(keys.len(), 120);
        let index = round_trip(&keys, room, 36);
        assert!(index.exact);
        let far = index.buckets.iter().flat_map(|b| b.0).filter(|s| s[1] != EMPTY && s[0] >> TAG_BITS == FAR).count();
        assert!(far > 0, "some keys lie 7 or more buckets from home");
    }

    #[test]
    fn fills_to_seven_eighths() {
        let mut index = ClassIndex::with_room(100, 1, 20);
        let capacity = index.buckets.len() * SLOTS;
        while !index.is_full() {
            let k = index.indexed() as u64;
            let p = index.probe(&[k], || unreachable!("exact keys are not hashed"));
            index.insert_new(p, k as u32);
        }
        assert_eq!(index.indexed(), capacity * 7 / 8);
        assert!(capacity >= 100 * 8 / 7);
    }
}
