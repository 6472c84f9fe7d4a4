//! A column past its cap of distinct values (ids, free text): its cells are still counted by
//! form and its distinct values estimated, in bounded memory (HyperLogLog++, about 0.8 %
//! standard error), but no longer kept one by one.

use std::hash::BuildHasher;

use hyperloglogplus::{HyperLogLog, HyperLogLogPlus};
use serde::{Deserialize, Serialize};

use super::profile::Stats;
use crate::ingest::cell::{Cell, Normaliser};

/// Precision of the distinct-count sketch (2^14 registers).
const HLL_PRECISION: u8 = 14;

/// The fixed-seed hasher of the sketch (serializable, so a stored table keeps its sketches).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct SketchHasher;

impl BuildHasher for SketchHasher {
    type Hasher = foldhash::fast::FoldHasher<'static>;

    fn build_hasher(&self) -> Self::Hasher {
        crate::hash::Fixed::with_seed(0x5eed).build_hasher()
    }
}

/// The distinct-count sketch of a column's values (it counts 64-bit hashes of the texts).
pub type Hll = HyperLogLogPlus<u64, SketchHasher>;

/// The 64-bit hash a text enters the sketch as.
fn text_hash(t: &str) -> u64 {
    crate::hash::Fixed::with_seed(0x5eed).hash_one(t)
}

/// The cells of a column that its kept values do not cover.
#[derive(Debug, Clone)]
pub struct Sketch {
    /// Their forms, ranges and e-mail-like count.
    pub stats: Stats,
    /// Their distinct non-blank values.
    pub hll: Hll,
}

impl Default for Sketch {
    fn default() -> Self {
        Sketch { stats: Stats::default(), hll: new_hll() }
    }
}

/// An empty sketch.
pub fn new_hll() -> Hll {
    HyperLogLogPlus::new(HLL_PRECISION, SketchHasher).expect("precision 14 is valid")
}

impl Sketch {
    /// Absorbs one cell's trimmed text.
    pub fn absorb(&mut self, text: &str, norm: &Normaliser) {
        match norm.normalise(text) {
            Cell::Missing => self.stats.tally.missing += 1,
            Cell::Suppressed => self.stats.tally.suppressed += 1,
            Cell::Text(t) => {
                let form = self.stats.form_of(t, norm);
                self.stats.add(form, t, 1);
                self.hll.insert(&text_hash(t));
            }
        }
    }

    /// Merges the sketch of another part of the same column.
    pub fn merge(&mut self, other: &Sketch) {
        self.stats.merge(&other.stats);
        self.hll.merge(&other.hll).expect("same precision");
    }

    /// Distinct non-blank values: those of the sketch together with `kept`.
    pub fn distinct<'a>(&self, kept: impl Iterator<Item = &'a str>) -> f64 {
        let mut h = self.hll.clone();
        for t in kept {
            h.insert(&text_hash(t));
        }
        h.count()
    }
}
