//! Utility and information loss (spec utility.md): how much of the original table `O` a
//! release `P` preserves.
//!
//! - Sec 11 (permutation model \[PERM\]: reverse mapping, canonical correlations, CM1-CM3, UM):
//!   [`permutation`].

pub mod permutation;
