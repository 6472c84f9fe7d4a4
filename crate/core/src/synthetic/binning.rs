//! Percentile binning of a numeric column for the k-marginal score (spec synthetic.md Sec
//! 1.5, after SDNist's `binning.py`): `O`'s exact values by their mean rank into `B` bins, in
//! integer arithmetic; `P`'s values into the bin of the smallest `O` maximum they do not
//! exceed. One step per distinct value.

use super::columns::SynColumn;

/// The codes of a column in a marginal: per row of `O` and of `P`. Blanks keep codes 0 and 1;
/// bin `b` is code `2 + b`; a value that is not a number keeps its own code `2 + B + id`.
pub struct Marginal {
    /// Per row of `O`.
    pub o: Vec<u32>,
    /// Per row of `P`.
    pub p: Vec<u32>,
}

/// `bin(v) = min(B - 1, floor(B * r2 / (2n)))`, `r2` twice the mean 1-based rank (Sec 1.5).
fn bin_of(bins: u32, r2: u64, n: u64) -> u32 {
    let b = (u128::from(bins) * u128::from(r2)) / (2 * u128::from(n));
    (b as u32).min(bins - 1)
}

/// The bin of each value id (`None`: not a number, or a number only `P` holds when `O` holds
/// none).
fn bins_of(column: &SynColumn, bins: u32) -> Vec<Option<u32>> {
    let mut o_count = vec![0u64; column.n_values()];
    column.o.iter().for_each(|&v| o_count[v as usize] += 1);
    let mut numbered: Vec<(f64, u32)> = (0..column.n_values() as u32).filter_map(|v| column.numbers[v as usize].map(|x| (x, v))).collect();
    numbered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n: u64 = numbered.iter().map(|&(_, v)| o_count[v as usize]).sum();
    let mut bin = vec![None; column.n_values()];
    if n == 0 {
        return bin;
    }
    // `O`'s values: the mean rank of a value held `c` times after `s` smaller ones is
    // `s + (c + 1) / 2`; each bin's largest value in `maxima` (ascending with the bins).
    let mut below = 0u64;
    let mut maxima: Vec<(f64, u32)> = Vec::new();
    for &(x, v) in numbered.iter().filter(|&&(_, v)| o_count[v as usize] > 0) {
        let c = o_count[v as usize];
        let b = bin_of(bins, 2 * below + c + 1, n);
        below += c;
        bin[v as usize] = Some(b);
        match maxima.last_mut() {
            Some(last) if last.1 == b => last.0 = x,
            _ => maxima.push((x, b)),
        }
    }
    // `P`'s values: the first bin whose maximum they do not exceed, else the last.
    for &(x, v) in numbered.iter().filter(|&&(_, v)| o_count[v as usize] == 0) {
        let j = maxima.partition_point(|&(m, _)| m < x).min(maxima.len() - 1);
        bin[v as usize] = Some(maxima[j].1);
    }
    bin
}

impl Marginal {
    /// The column's own values as codes.
    pub fn plain(column: &SynColumn) -> Marginal {
        Marginal { o: column.o.clone(), p: column.p.clone() }
    }

    /// The column binned into `bins` percentile bins of `O`.
    pub fn binned(column: &SynColumn, bins: u32) -> Marginal {
        let bin = bins_of(column, bins);
        let code: Vec<u32> = (0..column.n_values() as u32)
            .map(|v| match bin[v as usize] {
                Some(b) => 2 + b,
                None if v <= 1 => v,
                None => 2 + bins + v,
            })
            .collect();
        let map = |rows: &[u32]| rows.iter().map(|&v| code[v as usize]).collect();
        Marginal { o: map(&column.o), p: map(&column.p) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::table::kind::Kind;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    fn column(o: &[&str], p: &[&str]) -> SynColumn {
        let numeric = AttributeSettings { kind: Some(Kind::Numeric), ..AttributeSettings::default() };
        SynColumn::new("AGE", &Column::of(o), &Column::of(p), None, numeric, &Normaliser::default())
    }

    #[test]
    fn the_worked_example_bins_as_sdnist() {
        // synthetic.md Sec 13 [run]: O (3,8,8,12,15,17,3,19); P (3,12,8,12,15,17,8,19).
        let c = column(&["23", "35", "35", "47", "52", "61", "23", "70"], &["23", "36", "35", "47", "50", "61", "29", "70"]);
        let m = Marginal::binned(&c, 20);
        let bins = |codes: &[u32]| codes.iter().map(|&c| c - 2).collect::<Vec<_>>();
        assert_eq!(bins(&m.o), [3, 8, 8, 12, 15, 17, 3, 19]);
        assert_eq!(bins(&m.p), [3, 12, 8, 12, 15, 17, 8, 19]);
    }

    #[test]
    fn ranks_at_every_boundary_are_exact() {
        // n = 20 distinct values: rank r goes to floor(20 r / 20) = r, capped at 19; with B = 4,
        // floor(4 r / 20): ranks 1-4 -> 0, 5-9 -> 1, 10-14 -> 2, 15-19 -> 3, 20 -> 3.
        let o: Vec<String> = (1..=20).map(|i| i.to_string()).collect();
        let o: Vec<&str> = o.iter().map(String::as_str).collect();
        let c = column(&o, &["0", "100", "4.5", ""]);
        let m = Marginal::binned(&c, 4);
        let bins: Vec<u32> = m.o.iter().map(|&c| c - 2).collect();
        assert_eq!(bins, [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3]);
        // 0 <= max of bin 0 (4); 100 above every maximum: the last bin; 4.5 in (4, 9]: bin 1.
        assert_eq!(m.p, [2, 5, 3, 0]);
    }

    #[test]
    fn text_values_keep_their_own_codes_past_the_bins() {
        let c = column(&["1", "2", "x"], &["x", "3"]);
        let m = Marginal::binned(&c, 2);
        assert_eq!(m.o[2], m.p[0]);
        assert!(m.o[2] >= 4);
        assert_eq!(m.p[1], 3);
    }
}
