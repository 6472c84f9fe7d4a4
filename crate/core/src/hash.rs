//! Deterministic hashing: the same input always gives the same tables and the same output.

/// The hasher builder used by every table of the core (fixed seed, so runs are reproducible).
pub type Fixed = foldhash::fast::FixedState;

/// A hash map with the fixed hasher.
pub type Map<K, V> = hashbrown::HashMap<K, V, Fixed>;

/// An empty [`Map`].
pub fn map<K, V>() -> Map<K, V> {
    Map::with_hasher(Fixed::with_seed(0x5eed))
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
