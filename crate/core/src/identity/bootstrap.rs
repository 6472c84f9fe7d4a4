//! The bootstrap of the population-uniqueness estimators (issue 15; docs/ci.md) as pieces of
//! work for other workers (issue 40), as [`super::lattice`] is attribution's: the sample's
//! class-size histogram with what the replicates need ([`Bootstrap`]) as bytes, and the
//! replicates of one part of it as bytes. Replicate `b` depends on the histogram, the seed and
//! `b` alone, so the parts can be computed anywhere, in any order: the page's audit worker
//! hands them to its idle reader workers and the intervals are the same bit for bit (the audit
//! layer's `SplitAudit`).

use super::lattice::{checked, invalid_piece};
use super::population::{Bootstrap, CURVE_FRACTIONS, Replicate};
use crate::error::Result;
use crate::interval::CiParams;
use crate::table::wire::{Reader, Writer, sealed};

/// The first bytes of a bootstrap and of a part's replicates, with the version of the format.
const BOOTSTRAP_MAGIC: &[u8; 4] = b"PLB1";
const REPLICATES_MAGIC: &[u8; 4] = b"PLR1";

impl Bootstrap {
    /// The replicates of part `k` as bytes for the audit that gave this bootstrap
    /// (`SplitAudit::add_replicates`): magic, the bootstrap's [`Bootstrap::id`], `k`, their
    /// count, then per replicate a `u64` whose bit `i` says share `i` is there (at `pi`, then
    /// each curve fraction, four estimators each) and the bits of each share there,
    /// little-endian; a CRC-32 at the end. `invalid_piece` past the last part.
    pub fn part(&self, k: u32) -> Result<Vec<u8>> {
        if k >= self.parts() {
            return Err(invalid_piece("no such part of the bootstrap"));
        }
        let replicates = self.compute(self.bounds(k).collect());
        let mut w = Writer(Vec::with_capacity(20 + replicates.len() * 8 * (SHARES + 1)));
        w.0.extend_from_slice(REPLICATES_MAGIC);
        w.u32(self.id());
        w.u32(k);
        w.u32(replicates.len() as u32);
        for rep in &replicates {
            let shares: Vec<Option<f64>> = rep.at_pi.iter().chain(rep.curve.iter().flatten()).copied().collect();
            w.u64(shares.iter().enumerate().fold(0u64, |m, (i, s)| m | u64::from(s.is_some()) << i));
            shares.iter().flatten().for_each(|v| w.u64(v.to_bits()));
        }
        Ok(sealed(w.0))
    }

    /// The part index and replicates of [`Bootstrap::part`]'s bytes; `invalid_piece` when
    /// the bytes are not that, or not of this bootstrap, or the part does not hold its
    /// replicates.
    pub fn read_part(&self, bytes: &[u8]) -> Result<(u32, Vec<Replicate>)> {
        let mut r = Reader::new(checked(bytes, REPLICATES_MAGIC)?, invalid_piece);
        if r.u32()? != self.id() {
            return Err(invalid_piece("the replicates are of another bootstrap"));
        }
        let k = r.u32()?;
        let len = r.count(8)?;
        if k >= self.parts() || len != self.bounds(k).len() {
            return Err(invalid_piece("the part does not hold its replicates"));
        }
        let replicates = (0..len)
            .map(|_| {
                let mask = r.u64()?;
                if mask >> SHARES != 0 {
                    return Err(invalid_piece("a replicate has more shares than the estimators give"));
                }
                let mut shares = [None; SHARES];
                for (_, share) in shares.iter_mut().enumerate().filter(|(i, _)| mask >> i & 1 == 1) {
                    *share = Some(f64::from_bits(r.u64()?));
                }
                Ok(Replicate { at_pi: std::array::from_fn(|j| shares[j]), curve: std::array::from_fn(|c| std::array::from_fn(|j| shares[4 * (c + 1) + j])) })
            })
            .collect::<Result<Vec<_>>>()?;
        if !r.rest().is_empty() {
            return Err(invalid_piece("the replicates do not fill the bytes"));
        }
        Ok((k, replicates))
    }

    /// What names this bootstrap in the bytes of its parts: the CRC-32 of its bytes.
    fn id(&self) -> u32 {
        let bytes = self.to_bytes();
        u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"))
    }

    /// The bootstrap as bytes: magic, `pi` (a flag, then its bits), the seed, the count of
    /// replicates, the 13 SNB flags (at `pi` first) as bits of a `u16`, the count of histogram
    /// entries and each `(s, c_s)`, little-endian, then a CRC-32 of all before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(48 + 16 * self.hist.len()));
        w.0.extend_from_slice(BOOTSTRAP_MAGIC);
        w.opt(self.pi, |w, pi| w.u64(pi.to_bits()));
        w.u64(self.ci.ci_seed);
        w.u32(self.ci.ci_replicates);
        let flags = self.snb_curve.iter().enumerate().fold(u32::from(self.snb_at_pi), |f, (i, &v)| f | u32::from(v) << (i + 1));
        w.u32(flags);
        w.u32(self.hist.len() as u32);
        for &(s, c) in &self.hist {
            w.u64(s);
            w.u64(c);
        }
        sealed(w.0)
    }

    /// A bootstrap from [`Bootstrap::to_bytes`] (`invalid_piece` when the bytes are not one).
    /// Only what the replicates read is stored: the interval's level is the default's.
    pub fn from_bytes(bytes: &[u8]) -> Result<Bootstrap> {
        let mut r = Reader::new(checked(bytes, BOOTSTRAP_MAGIC)?, invalid_piece);
        let pi = r.opt(|r| r.u64().map(f64::from_bits))?;
        let (ci_seed, ci_replicates, flags) = (r.u64()?, r.u32()?, r.u32()?);
        let len = r.count(16)?;
        let hist = (0..len).map(|_| Ok((r.u64()?, r.u64()?))).collect::<Result<Vec<_>>>()?;
        if !r.rest().is_empty() || flags >> (CURVE_FRACTIONS.len() + 1) != 0 {
            return Err(invalid_piece("the bootstrap has bytes it does not use"));
        }
        Ok(Bootstrap {
            hist,
            pi,
            ci: CiParams { ci_seed, ci_replicates, ..CiParams::default() },
            snb_at_pi: flags & 1 == 1,
            snb_curve: std::array::from_fn(|i| flags >> (i + 1) & 1 == 1),
        })
    }
}

/// Shares of one replicate, in the order they are stored.
const SHARES: usize = 4 * (1 + CURVE_FRACTIONS.len());

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::population::Population;

    /// A sample of 1,000 classes of sizes 1-5 (mostly uniques) with `replicates` replicates.
    fn bootstrap(replicates: u32, population: Population) -> Bootstrap {
        let hist = [(1, 600), (2, 250), (3, 100), (5, 50)];
        Bootstrap::of(&hist, &population, &CiParams { ci_replicates: replicates, ..CiParams::default() })
    }

    #[test]
    fn parts_cover_the_replicates_in_order_the_last_shorter() {
        let b = bootstrap(60, Population::SamplingFraction(0.1));
        assert_eq!(b.parts(), 3);
        assert_eq!((b.bounds(0), b.bounds(1), b.bounds(2), b.bounds(3)), (0..25, 25..50, 50..60, 60..60));
        assert_eq!(bootstrap(0, Population::Missing).parts(), 0);
    }

    #[test]
    fn bytes_round_trip_and_parts_computed_apart_are_the_replicates() {
        for population in [Population::SamplingFraction(0.1), Population::Size(2_000), Population::Missing] {
            let b = bootstrap(60, population);
            let apart = Bootstrap::from_bytes(&b.to_bytes()).unwrap();
            assert_eq!(apart.to_bytes(), b.to_bytes());
            let whole = b.replicates(|_| None);
            assert_eq!(whole.len(), 60);
            // Parts 0 and 2 from bytes computed by the copy, part 1 here.
            let given = |k: u32| (k != 1).then(|| b.read_part(&apart.part(k).unwrap()).unwrap().1);
            assert_eq!(b.replicates(given), whole);
            assert!(whole.iter().any(|r| r.curve.iter().flatten().any(Option::is_some)));
        }
    }

    #[test]
    fn bytes_that_are_not_a_bootstrap_are_refused() {
        let bytes = bootstrap(60, Population::Size(2_000)).to_bytes();
        for cut in [0, 4, bytes.len() - 1] {
            assert_eq!(Bootstrap::from_bytes(&bytes[..cut]).unwrap_err().code, "invalid_piece");
        }
        let mut changed = bytes;
        changed[9] ^= 1;
        assert_eq!(Bootstrap::from_bytes(&changed).unwrap_err().code, "invalid_piece");
    }
}
