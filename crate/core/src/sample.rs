//! Synthetic tables: the bundled hospital-style sample the page audits with one click, and the
//! larger generated files of the benchmark. Both are deterministic (same seed, same bytes on
//! every platform), from the crate's own SplitMix64 rather than a version-dependent random
//! crate.

use std::fmt::Write;

use crate::rng::SplitMix64 as Rng;

/// Draws indices `0..n` with Zipf-like weights `1/(i+1)^s` (a few common, many rare).
struct Skewed(Vec<f64>);

impl Skewed {
    fn new(n: usize, s: f64) -> Self {
        Skewed::weighted((0..n).map(|i| 1.0 / libm::pow((i + 1) as f64, s)))
    }

    fn weighted(w: impl IntoIterator<Item = f64>) -> Self {
        let mut acc = 0.0;
        let mut cum: Vec<f64> = w
            .into_iter()
            .map(|x| {
                acc += x;
                acc
            })
            .collect();
        cum.iter_mut().for_each(|c| *c /= acc);
        Skewed(cum)
    }

    fn draw(&self, rng: &mut Rng) -> usize {
        let u = rng.unit();
        self.0.partition_point(|&c| c <= u).min(self.0.len() - 1)
    }
}

const DIAGNOSES: [&str; 24] = [
    "I10 hypertension",
    "E11 type 2 diabetes",
    "J18 pneumonia",
    "I50 heart failure",
    "N39 urinary infection",
    "K35 appendicitis",
    "S72 femur fracture",
    "I21 myocardial infarction",
    "J44 COPD",
    "A41 sepsis",
    "I63 stroke",
    "K80 gallstones",
    "O80 delivery",
    "F32 depression",
    "C50 breast cancer",
    "C34 lung cancer",
    "K57 diverticulitis",
    "E86 dehydration",
    "R55 syncope",
    "M17 knee arthrosis",
    "G40 epilepsy",
    "B20 HIV disease",
    "F20 schizophrenia",
    "Q90 Down syndrome",
];
const WARDS: [&str; 8] = ["Internal medicine", "Surgery", "Cardiology", "Geriatrics", "Orthopaedics", "Obstetrics", "Neurology", "Psychiatry"];

/// Rows of the bundled sample.
pub const SAMPLE_ROWS: usize = 5_000;

/// The bundled synthetic hospital export: 5,000 admissions with a patient id (a direct
/// identifier), an age band, sex, a masked postcode, the admission month, the ward, a
/// diagnosis (sensitive) and the length of stay. Ages, postcodes and diagnoses are skewed, a
/// few cells are missing or suppressed, and a handful of records are unique.
pub fn hospital_sample() -> Vec<u8> {
    let mut rng = Rng(2026);
    let bands = ["0-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "70-79", "80-89", ">=90"];
    let band_of = Skewed::weighted([3.0, 3.0, 6.0, 8.0, 9.0, 12.0, 16.0, 20.0, 15.0, 2.0]);
    let postcodes: Vec<String> = (0..24).map(|i| format!("{}**", 130 + i * 7)).collect();
    let postcode_of = Skewed::new(postcodes.len(), 1.1);
    let diagnosis_of = Skewed::new(DIAGNOSES.len(), 0.9);
    let ward_of = Skewed::new(WARDS.len(), 0.7);
    let mut out = String::from("patient_id,age,sex,postcode,admission_month,ward,diagnosis,length_of_stay\n");
    for i in 0..SAMPLE_ROWS {
        let band = bands[band_of.draw(&mut rng)];
        let sex = match rng.below(100) {
            0 => "",
            x if x < 52 => "F",
            _ => "M",
        };
        let postcode = if rng.below(200) == 0 { "*****".to_string() } else { postcodes[postcode_of.draw(&mut rng)].clone() };
        let month = format!("2025-{:02}", 1 + rng.below(12));
        let ward = WARDS[ward_of.draw(&mut rng)];
        let diagnosis = DIAGNOSES[diagnosis_of.draw(&mut rng)];
        let stay = 1 + (-libm::log(1.0 - rng.unit()) * 5.0) as u32;
        let _ = writeln!(out, "P{:06},{band},{sex},{postcode},{month},{ward},{diagnosis},{stay}", 100_000 + i * 7 + rng.below(7));
    }
    out.into_bytes()
}

/// The benchmark table: `rows` rows, 10 columns: the five quasi-identifiers [`BENCH_QIS`], a
/// diagnosis (24 categories) and a procedure code (500 categories) for the attribute
/// measures, a length of stay, and a unique id and a free-text note, which the profile must
/// bound.
///
/// `level` generalizes the same records (same seed, same record ids, so releases pair with
/// the level-0 original): 0 exact; 1 five-year age bands, the last region digit masked,
/// admission months; 2 ten-year bands, two digits masked, months, stays rounded to 5 days;
/// 3 twenty-year bands, three digits masked, years, stays rounded to 10 days.
pub fn bench_table(rows: usize, seed: u64, level: u8) -> impl Iterator<Item = Vec<u8>> {
    let mut rng = Rng(seed);
    let region_of = Skewed::new(400, 1.05);
    let diagnosis_of = Skewed::new(DIAGNOSES.len(), 0.9);
    let ward_of = Skewed::new(WARDS.len(), 0.7);
    let procedure_of = Skewed::new(500, 1.0);
    let header = b"record_id,age,sex,region,admission_date,ward,diagnosis,procedure,length_of_stay,note\n".to_vec();
    let mut i = 0usize;
    std::iter::once(header).chain(std::iter::from_fn(move || {
        if i >= rows {
            return None;
        }
        let mut chunk = String::with_capacity(1 << 20);
        while i < rows && chunk.len() < (1 << 20) - 256 {
            let age = ((rng.unit() + rng.unit() + rng.unit()) / 3.0 * 100.0) as u32;
            let sex = if rng.below(2) == 0 { "F" } else { "M" };
            let region = 10_000 + region_of.draw(&mut rng) * 13;
            let day = rng.below(3 * 365) as i64 + 19_723;
            let date = crate::ingest::cell::civil_from_days(day);
            let ward = WARDS[ward_of.draw(&mut rng)];
            let diagnosis = DIAGNOSES[diagnosis_of.draw(&mut rng)];
            let procedure = 1000 + procedure_of.draw(&mut rng);
            let stay = 1 + (-libm::log(1.0 - rng.unit()) * 5.0) as u32;
            let (team, follow_up) = (rng.below(40), rng.below(1000));
            let band = |w: u32| format!("{}-{}", age / w * w, age / w * w + w - 1);
            let masked = |m: usize| format!("{}{}", &region.to_string()[..5 - m], "*".repeat(m));
            let rounded = |u: u32| ((stay + u / 2) / u * u).max(u);
            let (age, region, date, stay) = match level {
                0 => (age.to_string(), region.to_string(), date, stay),
                1 => (band(5), masked(1), date[..7].to_string(), stay),
                2 => (band(10), masked(2), date[..7].to_string(), rounded(5)),
                _ => (band(20), masked(3), date[..4].to_string(), rounded(10)),
            };
            let _ =
                writeln!(chunk, "R{i:09},{age},{sex},{region},{date},{ward},{diagnosis},OPS-{procedure},{stay},\"seen by team {team}; follow-up {follow_up}\"");
            i += 1;
        }
        Some(chunk.into_bytes())
    }))
}

/// The quasi-identifiers of [`bench_table`].
pub const BENCH_QIS: [&str; 5] = ["age", "sex", "region", "admission_date", "ward"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_deterministic_and_sized() {
        let a = hospital_sample();
        assert_eq!(a, hospital_sample());
        let lines = a.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(lines, SAMPLE_ROWS + 1);
    }

    #[test]
    fn bench_table_has_the_rows_asked_for() {
        let bytes: Vec<u8> = bench_table(12_345, 1, 0).flatten().collect();
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 12_346);
        let line = |level| String::from_utf8(bench_table(1, 1, level).flatten().collect()).unwrap().lines().nth(1).unwrap().to_string();
        let (exact, coarse) = (line(0), line(3));
        assert_eq!(exact.split(',').next(), coarse.split(',').next(), "same record ids at every level");
        assert!(coarse.split(',').nth(1).unwrap().contains('-') && coarse.contains("***"), "{coarse}");
    }
}
