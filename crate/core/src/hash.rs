//! Deterministic hashing: the same input always gives the same tables and the same output.

/// The hasher builder used by every table of the core (fixed seed, so runs are reproducible).
pub type Fixed = foldhash::fast::FixedState;

/// A hash map with the fixed hasher.
pub type Map<K, V> = hashbrown::HashMap<K, V, Fixed>;

/// An empty [`Map`].
pub fn map<K, V>() -> Map<K, V> {
    Map::with_hasher(Fixed::with_seed(0x5eed))
}
