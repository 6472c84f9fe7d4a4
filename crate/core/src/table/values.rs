//! The distinct values of one column (spec README Sec 5): every field is looked up by a hash of
//! its bytes, and only a value seen for the first time is decoded, trimmed and stored. A code
//! per distinct trimmed text, with its number of cells, is what every later computation uses:
//! work per distinct value, not per cell.
//!
//! Codes are dense, from 0, in order of first appearance; they carry no meaning of their own
//! (which texts are missing tokens or masks is decided per audit, see `Normaliser`).

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::hash::Fixed;
use crate::ingest::encoding::Encoding;

/// The distinct trimmed texts of a column and their cell counts.
#[derive(Debug, Clone)]
pub struct Values {
    hasher: Fixed,
    /// The last key found in each of [`RECENT`] slots (chosen by its hash): a cell whose key
    /// is there gets its code by comparing it with that key alone, without probing `index`
    /// (most columns of categories have a few dozen values). Two slots a raw key, up to
    /// [`RECENT`]: a file of many columns of few values holds little.
    recent: Vec<Recent>,
    /// Raw keys (fields with ASCII white space trimmed) and their codes; the first eight
    /// bytes of a key are kept in its entry, so most lookups read nothing else.
    index: HashTable<Key>,
    /// Per code: offset and length of its text in `bytes`.
    texts: Vec<(u32, u32)>,
    /// Texts -> code (a raw key that trims or decodes to a known text gets its code), built
    /// when a raw key first differs from its text (Unicode white space, another encoding).
    /// Until then every text is its own raw key, found in `index`: a new value costs one
    /// table insert, not two (measured: half of a new value's cost, in wasm above all).
    by_text: Option<HashTable<u32>>,
    bytes: Vec<u8>,
    counts: Vec<u64>,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            hasher: Fixed::with_seed(0x5eed),
            recent: Vec::new(),
            index: HashTable::new(),
            texts: Vec::new(),
            by_text: None,
            bytes: Vec::new(),
            counts: Vec::new(),
        }
    }
}

/// A raw key in the index.
#[derive(Debug, Clone, Copy)]
struct Key {
    /// Its first eight bytes (zeros past its end).
    head: u64,
    /// Its length.
    len: u32,
    /// Its offset in `bytes`.
    offset: u32,
    /// Its code.
    code: u32,
    /// Its [`key_hash`] folded to 32 bits (in what was padding): the index grows without
    /// reading the key's bytes again ([`index_hash`]).
    hash: u32,
}

/// The most slots of [`Values::recent`] (8 KiB a column; a column reads only the slots of its
/// values).
const RECENT: usize = 256;

/// A key with its code, in [`Values::recent`]: its head and its last eight bytes (0 for a key
/// of at most 8), which with its length are the whole key up to 16 bytes; the bytes between
/// of a longer key are at `offset` in [`Values::bytes`].
#[derive(Debug, Clone, Copy, Default)]
struct Recent {
    head: u64,
    tail: u64,
    /// Its length plus one (0: an empty slot).
    len1: u32,
    code: u32,
    offset: u32,
}

/// The last eight bytes of `b` when it is longer than eight bytes (with [`head`] and the
/// length, all of a key of at most 16 bytes), else 0.
#[inline]
fn tail(b: &[u8]) -> u64 {
    let n = b.len();
    if n > 8 { u64::from_le_bytes(b[n - 8..].try_into().expect("8 bytes")) } else { 0 }
}

/// The slot of [`Values::recent`] (of `slots`, a power of two or 0) of a key's hash (bits the
/// index's bucket and tag use least); past the end when there is no slot.
#[inline]
fn recent_slot(hash: u64, slots: usize) -> usize {
    (hash >> 32) as usize & slots.wrapping_sub(1)
}

/// The first eight bytes of `b`, zeros past its end, without a library call.
#[inline]
fn head(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 8 {
        return u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    }
    if n >= 4 {
        let lo = u64::from(u32::from_le_bytes(b[..4].try_into().expect("4 bytes")));
        let hi = u64::from(u32::from_le_bytes(b[n - 4..n].try_into().expect("4 bytes")));
        return lo | (hi << ((n - 4) * 8));
    }
    if n == 0 {
        return 0;
    }
    u64::from(b[0]) | (u64::from(b[n / 2]) << (8 * (n / 2))) | (u64::from(b[n - 1]) << (8 * (n - 1)))
}

/// The hash of a key: one folded multiply of its head with its length (at most 8 bytes) or
/// with its last eight bytes (9 to 16 bytes), the full hasher past 16 bytes. (Only the
/// lookups of this index use it: codes go by first appearance, so the hash changes no output.)
#[inline]
fn key_hash(hasher: &Fixed, key: &[u8], head: u64) -> u64 {
    let n = key.len();
    if n <= 8 {
        crate::hash::folded_multiply(head ^ 0x243F_6A88_85A3_08D3, n as u64 ^ 0x1319_8A2E_0370_7344)
    } else if n <= 16 {
        crate::hash::folded_multiply(head ^ 0x243F_6A88_85A3_08D3 ^ n as u64, tail(key) ^ 0xA409_3822_299F_31D0)
    } else {
        hasher.hash_one(key)
    }
}

/// The hash of text `c` in [`Values::by_text`], from its stored bytes.
#[inline]
fn text_hash(hasher: &Fixed, texts: &[(u32, u32)], bytes: &[u8], c: u32) -> u64 {
    let (o, l) = texts[c as usize];
    hasher.hash_one(&bytes[o as usize..(o + l) as usize])
}

/// A key's [`key_hash`] folded to the 32 bits its index entry keeps.
#[inline]
fn fold32(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// The index's hash of an entry from its 32 bits: repeated in both halves, so that the bucket
/// (low bits) and the tag (top 7 bits) come from different bits of them on 64-bit targets, as
/// on wasm32, where the table uses the low 32 bits alone.
#[inline]
fn index_hash(h32: u32) -> u64 {
    u64::from(h32) | (u64::from(h32) << 32)
}

/// The entry of a raw key in the index (`h` its head, `hash` its [`index_hash`]).
#[inline]
fn indexed<'a>(index: &'a HashTable<Key>, bytes: &[u8], key: &[u8], h: u64, hash: u64) -> Option<&'a Key> {
    index.find(hash, |e| {
        e.head == h && e.len as usize == key.len() && (key.len() <= 8 || same_bytes(&bytes[e.offset as usize + 8..e.offset as usize + key.len()], &key[8..]))
    })
}

/// Trims ASCII white space (the Unicode `White_Space` characters below 0x80).
#[inline]
pub fn ascii_trim(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if matches!(first, b' ' | b'\t'..=b'\r') { b = rest } else { break }
    }
    while let [rest @ .., last] = b {
        if matches!(last, b' ' | b'\t'..=b'\r') { b = rest } else { break }
    }
    b
}

/// Whether two byte strings are equal, without a library call for short ones (most values
/// are a few bytes: the call would cost more than the comparison).
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes"));
    match n {
        0 => true,
        1..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// The most bytes of distinct text a column may hold (offsets are 32-bit).
pub const MAX_BYTES: usize = u32::MAX as usize;

impl Values {
    /// Number of distinct texts.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The text of a code.
    pub fn text(&self, code: u32) -> &str {
        let (o, l) = self.texts[code as usize];
        // Texts are stored only after decoding to valid UTF-8.
        std::str::from_utf8(&self.bytes[o as usize..(o + l) as usize]).unwrap_or_default()
    }

    /// Cells of a code.
    pub fn count(&self, code: u32) -> u64 {
        self.counts[code as usize]
    }

    /// Cells of every code.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Bytes this index holds (its memory, roughly).
    pub fn memory(&self) -> usize {
        self.recent.capacity() * std::mem::size_of::<Recent>()
            + self.bytes.capacity()
            + self.texts.capacity() * 8
            + self.counts.capacity() * 8
            + self.index.capacity() * 25
            + self.by_text.as_ref().map_or(0, |t| t.capacity() * 5)
    }

    /// The code of a known field, counting the cell; `None` when the field's value is new.
    #[inline]
    pub fn find(&mut self, field: &[u8]) -> Option<u32> {
        let key = ascii_trim(field);
        let h = head(key);
        let hash = key_hash(&self.hasher, key, h);
        let n = key.len();
        let t = tail(key);
        let slot = recent_slot(hash, self.recent.len());
        let bytes = &self.bytes;
        if let Some(r) = self.recent.get(slot)
            && r.head == h
            && r.tail == t
            && r.len1 as usize == n + 1
            && (n <= 16 || same_bytes(&bytes[r.offset as usize + 8..r.offset as usize + n - 8], &key[8..n - 8]))
        {
            self.counts[r.code as usize] += 1;
            return Some(r.code);
        }
        let e = indexed(&self.index, bytes, key, h, index_hash(fold32(hash)))?;
        let code = e.code;
        if let Some(r) = self.recent.get_mut(slot) {
            *r = Recent { head: h, tail: t, len1: n as u32 + 1, code, offset: e.offset };
        }
        self.counts[code as usize] += 1;
        Some(code)
    }

    /// The code of a field whose value [`Values::find`] did not know (only then), adding it
    /// (and its text, when new) and counting the cell. `None` when the field is not valid in
    /// `encoding`, or the column would pass [`MAX_BYTES`].
    pub fn insert(&mut self, field: &[u8], encoding: Encoding) -> Option<u32> {
        let key = ascii_trim(field);
        let decoded = encoding.decode(key)?;
        let text = decoded.trim_matches(char::is_whitespace);
        if self.bytes.len() + key.len() + text.len() > MAX_BYTES {
            return None;
        }
        let own_key = same_bytes(text.as_bytes(), key);
        if self.by_text.is_none() && !own_key {
            self.index_texts();
        }
        // Without `by_text` every text is its own raw key, and this key was not found: the
        // text is new.
        let known = if self.by_text.is_none() {
            debug_assert!(self.text_code(text).is_none(), "insert is for a key find did not know");
            None
        } else {
            self.text_code(text)
        };
        let code = match known {
            Some(c) => c,
            None => {
                let c = self.texts.len() as u32;
                let offset = self.bytes.len() as u32;
                self.bytes.extend_from_slice(text.as_bytes());
                self.texts.push((offset, text.len() as u32));
                self.counts.push(0);
                if let Some(by_text) = &mut self.by_text {
                    let (hasher, texts, bytes) = (&self.hasher, &self.texts, &self.bytes);
                    by_text.insert_unique(hasher.hash_one(text.as_bytes()), c, |&c| text_hash(hasher, texts, bytes, c));
                }
                c
            }
        };
        // The raw key shares the text's bytes when they are the same.
        let (o, l) = self.texts[code as usize];
        let offset = if own_key || same_bytes(&self.bytes[o as usize..(o + l) as usize], key) {
            o
        } else {
            let at = self.bytes.len() as u32;
            self.bytes.extend_from_slice(key);
            at
        };
        let h = head(key);
        let h32 = fold32(key_hash(&self.hasher, key, h));
        let entry = Key { head: h, len: key.len() as u32, offset, code, hash: h32 };
        self.index.insert_unique(index_hash(h32), entry, |e| index_hash(e.hash));
        if self.recent.len() < RECENT && self.recent.len() < 2 * self.index.len() {
            // (Emptied: keys go to new slots as they are found again.)
            self.recent = vec![Recent::default(); (2 * self.index.len()).next_power_of_two().min(RECENT)];
        }
        self.counts[code as usize] += 1;
        Some(code)
    }

    /// The code of a text, if present.
    pub fn text_code(&self, text: &str) -> Option<u32> {
        let Some(by_text) = &self.by_text else {
            // Every text is its own raw key (no key differed from its text yet).
            let (key, h) = (text.as_bytes(), head(text.as_bytes()));
            return indexed(&self.index, &self.bytes, key, h, index_hash(fold32(key_hash(&self.hasher, key, h)))).map(|e| e.code);
        };
        let hash = self.hasher.hash_one(text.as_bytes());
        by_text.find(hash, |&c| self.text(c) == text).copied()
    }

    /// Builds [`Values::by_text`] from the texts so far, before the first raw key that differs
    /// from its text is added.
    #[cold]
    fn index_texts(&mut self) {
        let mut by_text = HashTable::with_capacity(self.texts.len());
        let (hasher, texts, bytes) = (&self.hasher, &self.texts, &self.bytes);
        for c in 0..texts.len() as u32 {
            by_text.insert_unique(text_hash(hasher, texts, bytes, c), c, |&c| text_hash(hasher, texts, bytes, c));
        }
        self.by_text = Some(by_text);
    }

    /// Adds a text with `count` cells (merging, reading a stored table); returns its code, or
    /// `None` when the column would pass [`MAX_BYTES`].
    pub fn add_text(&mut self, text: &str, count: u64) -> Option<u32> {
        let code = match self.text_code(text) {
            Some(c) => c,
            None => {
                let c = self.insert(text.as_bytes(), Encoding::Utf8)?;
                self.counts[c as usize] -= 1;
                c
            }
        };
        self.counts[code as usize] = self.counts[code as usize].saturating_add(count);
        Some(code)
    }

    /// Adds the values of another part of the same column; returns where its codes went
    /// (`None` past [`MAX_BYTES`]).
    pub fn merge(&mut self, other: &Values) -> Option<Vec<u32>> {
        (0..other.len() as u32).map(|c| self.add_text(other.text(c), other.count(c))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_the_first_eight_bytes() {
        for n in 0..=10 {
            let b: Vec<u8> = (1..=n as u8).collect();
            let mut expected = [0u8; 8];
            expected[..n.min(8)].copy_from_slice(&b[..n.min(8)]);
            assert_eq!(head(&b), u64::from_le_bytes(expected), "{n} bytes");
        }
    }

    #[test]
    fn the_recent_slots_give_every_key_its_own_code() {
        // 1,200 keys (more than the slots, so slots are shared): lengths 0 to 40, and long
        // keys with the same head, tail and length that differ only between them.
        let mut keys: Vec<Vec<u8>> =
            (0..1_000u32).map(|i| format!("{i:x}").repeat(1 + i as usize % 7).into_bytes()).map(|k| k[..k.len().min(40)].to_vec()).collect();
        keys.extend((0..200u32).map(|i| format!("headhead{i:03}middletailtail").into_bytes()));
        keys.sort();
        keys.dedup();
        let mut v = Values::default();
        let codes: Vec<u32> = keys.iter().map(|k| v.find(k).or_else(|| v.insert(k, Encoding::Utf8)).unwrap()).collect();
        // Three more rounds, each in another order: forward, backward, even places then odd.
        let n = keys.len();
        let orders: [Vec<usize>; 3] = [(0..n).collect(), (0..n).rev().collect(), (0..n).step_by(2).chain((1..n).step_by(2)).collect()];
        for order in &orders {
            for &i in order {
                assert_eq!(v.find(&keys[i]), Some(codes[i]), "key {:?}", String::from_utf8_lossy(&keys[i]));
            }
        }
        assert!(codes.iter().all(|&c| v.count(c) == 4), "each key counted once a round");
        assert_eq!(v.find(b"headhead999middletailtail"), None, "a key that differs only in its middle is not found");
        assert_eq!(std::mem::size_of::<Key>(), 24, "the folded hash takes what was padding");
    }

    #[test]
    fn one_code_per_trimmed_text() {
        let mut v = Values::default();
        let mut code = |f: &[u8], enc: Encoding| v.find(f).or_else(|| v.insert(f, enc)).unwrap();
        let a = code(b" Bern ", Encoding::Utf8);
        assert_eq!(code(b"Bern", Encoding::Utf8), a);
        assert_eq!(code("Bern\u{a0}".as_bytes(), Encoding::Utf8), a, "Unicode white space is trimmed too");
        assert_eq!(code("\u{2003}Bern".as_bytes(), Encoding::Utf8), a);
        let z = code(b"Z\xfcrich", Encoding::Windows1252);
        assert_eq!(code("Zürich".as_bytes(), Encoding::Utf8), z);
        assert_eq!(code(b"", Encoding::Utf8), 2);
        assert_eq!(code(b"  ", Encoding::Utf8), 2);
        assert_eq!((v.len(), v.text(z), v.count(a), v.count(z), v.count(2)), (3, "Zürich", 4, 2, 2));
        assert!(v.insert(b"\xff", Encoding::Utf8).is_none(), "not UTF-8");
        let mut w = Values::default();
        w.add_text("Zürich", 5);
        w.add_text("Genf", 1);
        let remap = w.merge(&v).unwrap();
        assert_eq!(remap, vec![2, 0, 3]);
        assert_eq!((w.count(0), w.text(2), w.count(2)), (7, "Bern", 4));
    }
}
