//! Records per (class, sensitive value): counted by sorting, not by hashing. Each record adds
//! one word to a log; a full log is sorted and folded into sorted runs of `(class, value,
//! records)`. When nearly every record is its own class (a released table of near-unique
//! keys), a hash map of pairs would take a cache miss and a rehash per record; a sort reads
//! memory in order.

/// The log is folded into the runs once it holds this many records (8 MiB).
const LOG: usize = 1 << 20;

/// `(class, value) -> records`.
#[derive(Debug, Clone, Default)]
pub struct PairCounts {
    /// Records not folded yet: class above value.
    log: Vec<u64>,
    /// Folded: sorted by (class, value), each pair once.
    runs: Vec<(u32, u32, u32)>,
}

impl PairCounts {
    /// Counts one record.
    #[inline]
    pub fn add(&mut self, class: u32, value: u32) {
        self.log.push(u64::from(class) << 32 | u64::from(value));
        if self.log.len() >= LOG.max(self.runs.len()) {
            self.fold();
        }
    }

    /// Folds the log into the runs.
    pub fn fold(&mut self) {
        if self.log.is_empty() {
            return;
        }
        self.log.sort_unstable();
        let mut fresh: Vec<(u32, u32, u32)> = Vec::with_capacity(self.log.len());
        for &w in &self.log {
            let (c, v) = ((w >> 32) as u32, w as u32);
            match fresh.last_mut() {
                Some(last) if last.0 == c && last.1 == v => last.2 = last.2.saturating_add(1),
                _ => fresh.push((c, v, 1)),
            }
        }
        self.log.clear();
        self.runs = merge(std::mem::take(&mut self.runs), fresh);
    }

    /// Adds the counts of another part, its classes and values renamed by `class` and `value`.
    pub fn absorb(&mut self, mut other: PairCounts, class: &[u32], value: &[u32]) {
        other.fold();
        let mut theirs: Vec<(u32, u32, u32)> = other.runs.iter().map(|&(c, v, n)| (class[c as usize], value[v as usize], n)).collect();
        theirs.sort_unstable();
        self.fold();
        self.runs = merge(std::mem::take(&mut self.runs), theirs);
    }

    /// The counts, sorted by (class, value); the log must have been folded.
    pub fn sorted(&self) -> &[(u32, u32, u32)] {
        debug_assert!(self.log.is_empty(), "fold before reading");
        &self.runs
    }

    /// Records of one pair (folded counts).
    pub fn get(&self, class: u32, value: u32) -> u32 {
        self.runs.binary_search_by_key(&(class, value), |&(c, v, _)| (c, v)).map_or(0, |i| self.runs[i].2)
    }
}

/// Two sorted run lists as one, equal pairs summed.
fn merge(a: Vec<(u32, u32, u32)>, b: Vec<(u32, u32, u32)>) -> Vec<(u32, u32, u32)> {
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        match (x.0, x.1).cmp(&(y.0, y.1)) {
            std::cmp::Ordering::Less => {
                out.push(x);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(y);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((x.0, x.1, x.2.saturating_add(y.2)));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_pairs_whatever_the_folds_and_merges() {
        let mut whole = PairCounts::default();
        let (mut a, mut b) = (PairCounts::default(), PairCounts::default());
        let mut s = 3u64;
        for i in 0..50_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (c, v) = ((s % 700) as u32, (s % 7) as u32);
            whole.add(c, v);
            if i % 2 == 0 {
                a.add(c, v)
            } else {
                b.add(c, v)
            }
            if i % 9_999 == 0 {
                a.fold();
            }
        }
        whole.fold();
        let identity: Vec<u32> = (0..1000).collect();
        a.absorb(b, &identity, &identity);
        assert_eq!(a.sorted(), whole.sorted());
        let total: u64 = whole.sorted().iter().map(|r| u64::from(r.2)).sum();
        assert_eq!(total, 50_000);
        let (c, v, n) = whole.sorted()[3];
        assert_eq!(whole.get(c, v), n);
        assert_eq!(whole.get(5_000, 0), 0);
    }
}
