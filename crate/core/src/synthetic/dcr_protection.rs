//! SDMetrics' two DCR scores (spec synthetic.md Sec 10.2-10.3):
//! - `DCRBaselineProtection` (`sdmetrics/single_table/privacy/dcr_baseline_protection.py:58-153`):
//!   the median DCR of `P` to `O` over that of a random table to `O`, capped at 1;
//! - `DCROverfittingProtection` (`dcr_overfitting_protection.py:72-160`): how often a row of
//!   `P` is strictly closer to `O` than to the holdout `H`, as `min(2 (1 - share), 1)`.
//!
//! Both read the DCR of `P` to `O` ([`Released`]), computed once. Above `max_cells` pairs of
//! rows, `P` is cut to a seeded sample of `max_cells / n_ref` rows (the reference stays
//! whole, so its ranges and nearest records are exact) and the result is an estimate.

use super::columns::SynColumn;
use super::dcr::{DcrTable, Side, dcr, histogram, median, random_table, subsample};

/// The rows of `P` compared and their DCR to `O`.
pub struct Released {
    /// `P`'s rows compared (all of them, or the sample).
    pub table: DcrTable,
    /// Per compared row, its DCR to `O` (ranges from `O`).
    pub to_original: Vec<f64>,
    /// Whether `P` was sampled (the scores are estimates).
    pub estimate: bool,
}

impl Released {
    /// `P`'s rows (sampled when `n_P x max(n_O, n_H)` exceeds `max_cells`) and their DCR to `O`.
    pub fn new(columns: &[&SynColumn], seed: u64, max_cells: u64) -> Released {
        let p = DcrTable::of(columns, Side::Released);
        let o = DcrTable::of(columns, Side::Original);
        let n_ref = columns.first().map_or(0, |c| c.o.len().max(c.h.len())) as u64;
        let n_p = p.rows as u64;
        let (table, estimate) = if n_p.saturating_mul(n_ref) > max_cells {
            let k = (max_cells / n_ref.max(1)).max(1) as usize;
            (p.select(&subsample(p.rows, k, seed)), true)
        } else {
            (p, false)
        };
        let to_original = dcr(&table, &o);
        Released { table, to_original, estimate }
    }
}

/// `DCRBaselineProtection` (Sec 10.2).
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// The median DCR of `P` to `O`.
    pub median_released: f64,
    /// The median DCR of the random table to `O`.
    pub median_random: f64,
    /// `min(median_released / median_random, 1)`; `None` when `median_random` is 0.
    pub score: Option<f64>,
    /// Histograms (20 bins over [0, 1]) of the two DCRs.
    pub histogram_released: Vec<u64>,
    /// The random table's.
    pub histogram_random: Vec<u64>,
}

/// The baseline score: the random table has as many rows as `P`'s compared rows, drawn with
/// `seed` ([`random_table`]).
pub fn baseline(columns: &[&SynColumn], released: &Released, seed: u64) -> Baseline {
    let o = DcrTable::of(columns, Side::Original);
    let random = random_table(columns, released.table.rows, seed);
    let to_random = dcr(&random, &o);
    let median_released = median(&released.to_original);
    let median_random = median(&to_random);
    Baseline {
        median_released,
        median_random,
        score: (median_random > 0.0).then(|| (median_released / median_random).min(1.0)),
        histogram_released: histogram(&released.to_original),
        histogram_random: histogram(&to_random),
    }
}

/// `DCROverfittingProtection` (Sec 10.3).
#[derive(Debug, Clone, PartialEq)]
pub struct Overfitting {
    /// The share of `P`'s rows strictly closer to `O` than to `H`.
    pub closer_to_training: f64,
    /// `1 - closer_to_training`.
    pub closer_to_holdout: f64,
    /// `min(2 closer_to_holdout, 1)`.
    pub score: f64,
    /// The median DCR of `P` to `O` (ranges from `O`).
    pub median_training: f64,
    /// The median DCR of `P` to `H` (ranges from `H`).
    pub median_holdout: f64,
    /// The histogram (20 bins over [0, 1]) of the DCR to `H`.
    pub histogram_holdout: Vec<u64>,
}

/// The overfitting score, for a holdout with at least one row.
pub fn overfitting(columns: &[&SynColumn], released: &Released) -> Overfitting {
    let h = DcrTable::of(columns, Side::Holdout);
    let to_holdout = dcr(&released.table, &h);
    let n = released.to_original.len().max(1) as f64;
    let closer = released.to_original.iter().zip(&to_holdout).filter(|(t, h)| t < h).count() as f64 / n;
    Overfitting {
        closer_to_training: closer,
        closer_to_holdout: 1.0 - closer,
        score: (2.0 * (1.0 - closer)).min(1.0),
        median_training: median(&released.to_original),
        median_holdout: median(&to_holdout),
        histogram_holdout: histogram(&to_holdout),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::cell::Normaliser;
    use crate::table::kind::Kind;
    use crate::utility::attribute::AttributeSettings;
    use crate::utility::capture::Column;

    fn column(kind: Kind, o: &[&str], p: &[&str], h: &[&str]) -> SynColumn {
        let settings = AttributeSettings { kind: Some(kind), ..AttributeSettings::default() };
        SynColumn::new("c", &Column::of(o), &Column::of(p), Some(&Column::of(h)), settings, &Normaliser::default())
    }

    #[test]
    fn hand_checked_scores() {
        // One numeric column. O = 0, 10 (range 10); P = 1, 9, 5; H = 5, 20 (range 15).
        // DCR to O: 0.1, 0.1, 0.5 (median 0.1). To H: 4/15, 4/15, 0: rows 1 and 2 closer to O.
        let c = column(Kind::Numeric, &["0", "10"], &["1", "9", "5"], &["5", "20"]);
        let released = Released::new(&[&c], 0, u64::MAX);
        assert!(!released.estimate);
        let o = overfitting(&[&c], &released);
        assert!((o.closer_to_training - 2.0 / 3.0).abs() < 1e-15);
        assert!((o.score - 2.0 / 3.0).abs() < 1e-15);
        assert!((o.median_training - 0.1).abs() < 1e-15 && (o.median_holdout - 4.0 / 15.0).abs() < 1e-15);
        assert_eq!(o.histogram_holdout.iter().sum::<u64>(), 3);
    }

    #[test]
    fn the_random_table_is_seeded_and_within_o() {
        let c = column(Kind::Numeric, &["1", "4", ""], &["2"], &[]);
        let t = random_table(&[&c], 200, 5);
        // NaN differs from itself: compare the printed tables.
        assert_eq!(format!("{t:?}"), format!("{:?}", random_table(&[&c], 200, 5)));
        assert_ne!(format!("{t:?}"), format!("{:?}", random_table(&[&c], 200, 6)));
        let super::super::dcr::Cells::Numeric(v) = &t.columns[0] else { panic!("numeric") };
        let missing = v.iter().filter(|x| x.is_nan()).count();
        assert!((40..100).contains(&missing), "{missing}");
        assert!(v.iter().filter(|x| !x.is_nan()).all(|&x| [1.0, 2.0, 3.0, 4.0].contains(&x)));
    }

    /// The columns of Sec 13 (G, SEX, RACE categorical; EDU, AGE numeric).
    fn example() -> Vec<SynColumn> {
        let o = [
            ["A", "1", "1", "2", "23"],
            ["A", "1", "2", "3", "35"],
            ["A", "2", "1", "3", "35"],
            ["A", "2", "1", "1", "47"],
            ["B", "1", "1", "2", "52"],
            ["B", "2", "2", "4", "61"],
            ["B", "1", "1", "2", "23"],
            ["B", "2", "3", "4", "70"],
        ];
        let p = [
            ["A", "1", "1", "2", "23"],
            ["A", "1", "2", "3", "36"],
            ["A", "2", "1", "3", "35"],
            ["B", "2", "2", "1", "47"],
            ["A", "1", "1", "1", "50"],
            ["B", "2", "2", "4", "61"],
            ["B", "1", "3", "2", "29"],
            ["B", "2", "1", "4", "70"],
        ];
        let kinds = [Kind::Categorical, Kind::Categorical, Kind::Categorical, Kind::Numeric, Kind::Numeric];
        ["G", "SEX", "RACE", "EDU", "AGE"]
            .iter()
            .enumerate()
            .map(|(j, name)| {
                let col = |rows: &[[&str; 5]]| Column::of(&rows.iter().map(|r| r[j]).collect::<Vec<_>>());
                let settings = AttributeSettings { kind: Some(kinds[j]), ..AttributeSettings::default() };
                SynColumn::new(name, &col(&o), &col(&p), None, settings, &Normaliser::default())
            })
            .collect()
    }

    #[test]
    fn the_random_table_of_the_example_against_calculate_dcr() {
        // Sec 10.2: conformance feeds the tool's random table to `calculate_dcr`. The table of
        // seed 0 (printed by `to_csv`), given to sdmetrics 0.32.0's `calculate_dcr` with O and
        // Sec 13's metadata, gave the DCRs below and their median.
        let columns = example();
        let used: Vec<&SynColumn> = columns.iter().collect();
        let random = random_table(&used, 8, 0);
        let csv = random.to_csv(&used);
        assert_eq!(csv, RANDOM_CSV, "{csv}");
        let got = dcr(&random, &DcrTable::of(&used, Side::Original));
        for (g, want) in got.iter().zip(RANDOM_DCR) {
            assert!((g - want).abs() <= 1e-9, "{got:?}");
        }
        let b = baseline(&used, &Released::new(&used, 0, u64::MAX), 0);
        assert!((b.median_random - RANDOM_MEDIAN).abs() <= 1e-9, "{}", b.median_random);
    }

    const RANDOM_CSV: &str = "G,SEX,RACE,EDU,AGE\nB,1,2,4,25\nA,2,3,3,24\nA,1,1,2,62\nB,2,3,2,42\nA,2,3,3,35\nA,2,2,4,34\nA,2,3,4,43\nB,2,1,1,37\n";
    const RANDOM_DCR: [f64; 8] = [
        0.309_219_858_156_028_37,
        0.246_808_510_638_297_87,
        0.165_957_446_808_510_63,
        0.252_482_269_503_546_1,
        0.2,
        0.270_921_985_815_602_8,
        0.300_709_219_858_156,
        0.242_553_191_489_361_72,
    ];
    const RANDOM_MEDIAN: f64 = 0.249_645_390_070_921_96;

    #[test]
    fn a_large_release_is_sampled_and_labelled() {
        let c = column(Kind::Numeric, &["0", "10"], &["1", "9", "5", "7"], &[]);
        let released = Released::new(&[&c], 0, 4);
        assert!(released.estimate);
        assert_eq!(released.table.rows, 2);
        let b = baseline(&[&c], &released, 0);
        assert!(b.score.is_some_and(|s| (0.0..=1.0).contains(&s)));
    }
}
