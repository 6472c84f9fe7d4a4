//! The attribution lattice as a piece of work for another worker (issue 12): its input, the
//! classes as one word each ([`Lattice`]), and its output, the statistics of every subset,
//! as bytes. The page's audit worker hands the lattice of an audit to an idle reader worker,
//! which holds no table, and finishes the other metrics meanwhile
//! (the audit layer's `SplitAudit`); the statistics are exact counts, so the report is the same
//! bit for bit wherever they were computed.

use super::attribution::{FULL_LATTICE_MAX_QIS, Lattice, SubsetStats};
use crate::error::{Error, Result};
use crate::table::wire::{Reader, Writer, sealed, unsealed};

/// The first bytes of a lattice and of its statistics, with the version of the format.
const LATTICE_MAGIC: &[u8; 4] = b"PLL2";
const STATS_MAGIC: &[u8; 4] = b"PLS2";

impl Lattice {
    /// The lattice as bytes: magic, `q`, `count_bits`, `risk_below`, each QI's `(shift, bits)`,
    /// the count of words and the words (little-endian), then a CRC-32 of all before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(24 + 2 * self.q + 8 * self.words.len()));
        w.0.extend_from_slice(LATTICE_MAGIC);
        w.u8(self.q as u8);
        w.u8(self.count_bits as u8);
        w.u64(self.risk_below);
        for &(shift, bits) in &self.fields {
            w.u8(shift as u8);
            w.u8(bits as u8);
        }
        w.u64(self.words.len() as u64);
        self.words.iter().for_each(|&x| w.u64(x));
        sealed(w.0)
    }

    /// A lattice from [`Lattice::to_bytes`] (`invalid_piece` when the bytes are not one: every
    /// length and field is checked, so the chain sorts never read out of bounds).
    pub fn from_bytes(bytes: &[u8]) -> Result<Lattice> {
        let mut r = Reader::new(checked(bytes, LATTICE_MAGIC)?, invalid_piece);
        let q = usize::from(r.u8()?);
        let count_bits = u32::from(r.u8()?);
        let risk_below = r.u64()?;
        if q == 0 || q > FULL_LATTICE_MAX_QIS || count_bits > 63 {
            return Err(invalid_piece("QIs or count bits out of range"));
        }
        let mut fields = Vec::with_capacity(q);
        for _ in 0..q {
            let (shift, bits) = (u32::from(r.u8()?), u32::from(r.u8()?));
            if shift + bits + count_bits > 64 {
                return Err(invalid_piece("a field does not fit the word"));
            }
            fields.push((shift, bits));
        }
        let len = usize::try_from(r.u64()?).map_err(|_| invalid_piece("too many words"))?;
        if r.rest().len() != len.checked_mul(8).ok_or_else(|| invalid_piece("too many words"))? {
            return Err(invalid_piece("the words do not fill the rest"));
        }
        let words = r.rest().chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        Ok(Lattice { q, count_bits, fields, words, risk_below })
    }
}

/// Bytes of one subset's statistics.
const STATS_BYTES: usize = 52;

/// Statistics of subsets as bytes: magic, their count, then per subset its mask, classes,
/// sum of squares (two words, low first), uniques, smallest class and records at risk,
/// little-endian; a CRC-32 at the end.
pub fn stats_to_bytes(stats: &[SubsetStats]) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(12 + STATS_BYTES * stats.len()));
    w.0.extend_from_slice(STATS_MAGIC);
    w.u32(stats.len() as u32);
    for s in stats {
        w.u32(s.mask);
        w.u64(s.classes);
        w.u64(s.sum_sq as u64);
        w.u64((s.sum_sq >> 64) as u64);
        w.u64(s.uniques);
        w.u64(s.smallest);
        w.u64(s.at_risk);
    }
    sealed(w.0)
}

/// Statistics from [`stats_to_bytes`] (`invalid_piece` when the bytes are not that).
pub fn stats_from_bytes(bytes: &[u8]) -> Result<Vec<SubsetStats>> {
    let mut r = Reader::new(checked(bytes, STATS_MAGIC)?, invalid_piece);
    let len = r.u32()? as usize;
    if r.rest().len() != len.checked_mul(STATS_BYTES).ok_or_else(|| invalid_piece("too many subsets"))? {
        return Err(invalid_piece("the subsets do not fill the rest"));
    }
    (0..len)
        .map(|_| {
            let mask = r.u32()?;
            let classes = r.u64()?;
            let low = u128::from(r.u64()?);
            let sum_sq = u128::from(r.u64()?) << 64 | low;
            Ok(SubsetStats { mask, classes, sum_sq, uniques: r.u64()?, smallest: r.u64()?, at_risk: r.u64()? })
        })
        .collect()
}

/// The body of `bytes` after `magic`, once its CRC-32 is checked.
pub(super) fn checked<'a>(bytes: &'a [u8], magic: &[u8; 4]) -> Result<&'a [u8]> {
    if bytes.len() < magic.len() + 4 || !bytes.starts_with(magic) {
        return Err(invalid_piece("not a piece of this kind"));
    }
    let body = unsealed(bytes).ok_or_else(|| invalid_piece("the checksum does not match"))?;
    Ok(&body[magic.len()..])
}

/// An `invalid_piece` error: bytes that are not a piece of an audit, or a piece that does not
/// fit the audit it is given to (`SplitAudit`).
pub(crate) fn invalid_piece(why: &str) -> Error {
    Error::internal("invalid_piece", format!("a piece of the audit does not fit it ({why})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::attribution::lattice_of;
    use crate::ingest::cell::Cell;
    use crate::table::classes::{ClassTable, MissingPolicy};

    fn table(q: usize, rows: usize) -> ClassTable {
        let mut t = ClassTable::new(q, MissingPolicy::Ordinary, true, false);
        let mut s = 3u64;
        for _ in 0..rows {
            let key: Vec<u32> = (0..q)
                .map(|a| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    t.code(a, Cell::text(&(s % [5, 60, 3, 200, 9, 2, 40, 7][a]).to_string()))
                })
                .collect();
            t.absorb(&key, 0.0).unwrap();
        }
        t
    }

    #[test]
    fn the_lattice_through_bytes_gives_the_same_statistics() {
        for (q, rows) in [(1, 50), (3, 400), (8, 5000)] {
            let lattice = lattice_of(&table(q, rows), q, 0.2).expect("fits one word");
            let again = Lattice::from_bytes(&lattice.to_bytes()).unwrap();
            assert_eq!(again, lattice);
            let stats = lattice.stats();
            assert_eq!(stats_from_bytes(&stats_to_bytes(&stats)).unwrap(), stats, "q = {q}");
        }
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let lattice = lattice_of(&table(3, 200), 3, 0.2).unwrap();
        let bytes = lattice.to_bytes();
        for cut in [0, 3, 8, bytes.len() - 1] {
            assert_eq!(Lattice::from_bytes(&bytes[..cut]).unwrap_err().code, "invalid_piece", "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[10] ^= 1;
        assert_eq!(Lattice::from_bytes(&flipped).unwrap_err().code, "invalid_piece");
        assert_eq!(stats_from_bytes(&bytes).unwrap_err().code, "invalid_piece", "a lattice is not statistics");
        let stats = stats_to_bytes(&lattice.stats());
        assert_eq!(stats_from_bytes(&stats[..stats.len() - 5]).unwrap_err().code, "invalid_piece");
    }
}
