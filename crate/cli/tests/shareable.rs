//! `--shareable` on a table with identifying columns (issue 36): the report safe to share holds
//! no value of a direct identifier (names, e-mail addresses, phone numbers), none of a column no
//! metric reads (however many records hold it), no exact date of birth and no value held by
//! fewer records than the minimum. Every such value of the table is searched for in the whole
//! output; the full report holds them, so the search can find them.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A small deterministic generator (a 64-bit LCG): the same table on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const FIRST: [&str; 12] = ["Anna", "Jonas", "Lea", "Felix", "Mia", "Paul", "Emma", "Lukas", "Sofia", "Elias", "Clara", "Noah"];
const LAST: [&str; 10] = ["Keller", "Brandt", "Vogel", "Hartmann", "Krause", "Lorenz", "Seidel", "Fuchs", "Peters", "Winter"];
const COMMON_REMARKS: [&str; 2] = ["called back twice", "prefers morning visits"];

/// The table and, by column, the values no shareable output may hold.
struct Identifying {
    csv: String,
    secret: BTreeMap<&'static str, Vec<String>>,
}

/// 400 records: a name, an e-mail address, a phone number and an exact date of birth each
/// (the name `Hans Schwarz` held by 57 records; every date of birth its own), the quasi-identifiers age, sex, postcode and
/// occupation (with an occupation of one record), a diagnosis (one of them held
/// by one record) and free-text remarks no metric reads (two held by many records).
fn identifying() -> Identifying {
    let mut rng = Lcg(36);
    let mut csv = String::from("patient_name,email,phone,birth_date,age,sex,postcode,occupation,diagnosis,remarks\n");
    let mut secret: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let occupations = ["nurse", "teacher", "clerk", "driver"];
    let diagnoses = ["flu", "asthma", "gout", "angina"];
    for i in 0..400 {
        let (first, last) = if i % 7 == 3 { ("Hans", "Schwarz") } else { (FIRST[rng.below(12)], LAST[rng.below(10)]) };
        let name = format!("{first} {last}");
        let email = format!("{}.{}{i}@example.org", first.to_lowercase(), last.to_lowercase());
        let phone = format!("+49 30 {:07}", 1_000_000 + rng.below(8_999_999));
        let birth = format!("{}-{:02}-{:02}", 1930 + i / 6, 1 + 2 * (i % 6), 1 + rng.below(28));
        let occupation = match i {
            17 => "Lighthouse keeper",
            _ => occupations[rng.below(4)],
        };
        let diagnosis = if i == 99 { "Kuru disease" } else { diagnoses[rng.below(4)] };
        let remark = match i {
            123 => "lives next door to the mayor".to_string(),
            _ => COMMON_REMARKS[rng.below(2)].to_string(),
        };
        csv.push_str(&format!(
            "{name},{email},{phone},{birth},{},{},{},{occupation},{diagnosis},{remark}\n",
            20 + rng.below(60),
            ["F", "M"][rng.below(2)],
            10_000 + 1_000 * rng.below(9),
        ));
        for (column, value) in [("patient_name", name), ("email", email), ("phone", phone), ("birth_date", birth), ("remarks", remark)] {
            let values = secret.entry(column).or_default();
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    secret.insert("occupation", vec!["Lighthouse keeper".into()]);
    secret.insert("diagnosis", vec!["Kuru disease".into()]);
    Identifying { csv, secret }
}

fn audit(d: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens")).arg("audit").arg(d.join("identifying.csv")).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The secret values `text` holds, as `column: value`.
fn found(text: &str, secret: &BTreeMap<&'static str, Vec<String>>) -> Vec<String> {
    secret.iter().flat_map(|(c, values)| values.iter().filter(|v| text.contains(v.as_str())).map(move |v| format!("{c}: {v}"))).collect()
}

#[test]
fn a_shareable_report_holds_no_identifying_value() {
    let table = identifying();
    assert_eq!(table.secret["birth_date"].len(), 400, "each date of birth is one record's");
    let d = std::env::temp_dir().join(format!("pseudolens-shareable-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("identifying.csv"), &table.csv).unwrap();
    // The date of birth not audited, then audited as a quasi-identifier.
    for qi in ["age,sex,postcode,occupation", "age,sex,postcode,occupation,birth_date"] {
        let roles = ["--qi", qi, "--sensitive", "diagnosis"];
        let full = audit(&d, &[&roles[..], &["--json"]].concat());
        for column in ["patient_name", "remarks", "occupation", "diagnosis"] {
            let one = BTreeMap::from([(column, table.secret[column].clone())]);
            assert!(!found(&full, &one).is_empty(), "the full report holds values of {column}: the search can find them");
        }
        for k in [None, Some("2"), Some("200")] {
            let safe = audit(&d, &[&roles[..], &["--shareable"], k.as_slice()].concat());
            let leaks = found(&safe, &table.secret);
            assert!(leaks.is_empty(), "--qi {qi} --shareable {k:?} holds:\n{}", leaks.join("\n"));
            // The audited columns' values of at least the minimum stay.
            assert_eq!(safe.contains("\"nurse\""), k != Some("200"), "--shareable {k:?}");
        }
    }
}
