//! Golden values of k-map and delta-presence (peer-measures.md Sec G2), the HIPAA Safe Harbor
//! checklist and the row-order leak through a whole audit, with their property tests (row
//! order, parts of a file, the shareable report).

mod common;

use common::*;
use proptest::prelude::*;
use pseudolens_core::identity::kmap::{KMapEstimator, derived_k};
use pseudolens_core::{Audit, AuditConfig, Original, Report, reference, shareable};
use serde_json::{Value, json};

/// The release of G1 with the QIs `age, sex` (G2).
const G1: &str = "rid,age,sex,zip,job,hid
1,30,F,100,clerk,H1
2,30,F,100,clerk,H1
3,30,M,100,clerk,H2
4,30,M,200,nurse,H2
5,40,F,200,nurse,H3
6,40,F,200,nurse,H3
7,40,F,200,nurse,H3
8,40,M,100,nurse,H4
9,40,M,300,clerk,H4
10,50,F,100,nurse,H5
11,50,M,200,clerk,H6
12,50,M,200,,H6
";

/// The population `E2` of G2: (key, rows).
const E2: [(&str, &str, usize); 7] = [("30", "F", 10), ("30", "M", 8), ("40", "F", 3), ("40", "M", 5), ("50", "F", 2), ("50", "M", 6), ("60", "F", 4)];

fn e2_csv(order: &[usize]) -> String {
    let mut s = String::from("sex,age\n");
    for &i in order {
        let (age, sex, n) = E2[i];
        for _ in 0..n {
            s.push_str(&format!("{sex},{age}\n"));
        }
    }
    s
}

fn with_population(data: &[u8], population: &[u8], config: &AuditConfig, chunk: usize) -> Report {
    let mut e = reference(config, None);
    for piece in population.chunks(chunk) {
        e.push(piece).unwrap();
    }
    let mut a = Audit::new(config.clone()).unwrap();
    for piece in data.chunks(chunk) {
        a.push(piece).unwrap();
    }
    a.set_population(e.finish().unwrap());
    a.finish().unwrap()
}

fn g2(adjust: impl FnOnce(&mut AuditConfig)) -> Report {
    let mut config = qi(&["age", "sex"]);
    adjust(&mut config);
    with_population(G1.as_bytes(), e2_csv(&[0, 1, 2, 3, 4, 5, 6]).as_bytes(), &config, 1 << 20)
}

fn metric<'r>(r: &'r Report, id: &str) -> &'r pseudolens_core::metric::MetricResult {
    r.metric(id).unwrap_or_else(|| panic!("{id}"))
}

#[test]
fn g2_k_map_with_population_table() {
    let r = g2(|_| {});
    let m = metric(&r, "k_map");
    assert_eq!(m.value, json!(2));
    assert_eq!(m.details["k"], json!(5));
    assert_eq!(m.details["satisfied"], json!(false));
    assert_eq!(m.details["violating_classes"], json!(2));
    assert_eq!(m.details["violating_records"], json!(4));
    let lowest = m.details["lowest"].as_array().unwrap();
    assert_eq!(lowest[0], json!({ "values": { "age": "50", "sex": "F" }, "f": 1, "F": 2 }));
    assert_eq!(lowest[1], json!({ "values": { "age": "40", "sex": "F" }, "f": 3, "F": 3 }));
    assert_eq!(lowest.len(), 6, "the six keys of the release");
    // = 1 / journalist_highest_risk (Sec 3.1).
    assert_close(1.0 / num(&r, "journalist_highest_risk"), 2.0, "k_map = 1/highest");
    // k = 2 is met.
    assert_eq!(metric(&g2(|c| c.kmap.k_map = 2), "k_map").details["satisfied"], json!(true));
}

#[test]
fn g2_delta_presence() {
    let r = g2(|c| {
        c.kmap.delta_min = Some(0.1);
        c.kmap.delta_max = Some(0.6);
    });
    let m = metric(&r, "delta_presence");
    assert_eq!(m.family, "membership");
    assert_eq!(m.value, json!({ "min": 0.0, "max": 1.0 }));
    assert_close(m.details["min_released"].as_f64().unwrap(), 0.2, "min_released");
    assert_eq!(m.details["satisfied"], json!(false));
    assert_eq!(m.details["violating_classes"], json!(2));
    assert_eq!(m.details["n_classes"], json!(7));
    let per = per_class(m);
    let want = [("40", "F", 3, 3), ("50", "F", 1, 2), ("40", "M", 2, 5), ("50", "M", 2, 6), ("30", "M", 2, 8), ("30", "F", 2, 10), ("60", "F", 0, 4)];
    assert_eq!(per, owned(&want), "highest delta first");
    // Without both bounds, satisfied is null; one bound still counts its violations.
    let r = g2(|c| c.kmap.delta_max = Some(0.6));
    let m = metric(&r, "delta_presence");
    assert_eq!((m.details["satisfied"].clone(), m.details["violating_classes"].clone()), (Value::Null, json!(1)));
}

/// `E2` with a research-subset column `released` (form (b)): of each key's rows, the first
/// `m` flagged as members (`member[i]` for key `i`), in the flag spellings of `yes`/`no`.
fn e2_flagged(order: &[usize], members: &[usize; 7], yes: &[&str], no: &[&str]) -> String {
    let mut s = String::from("sex,released,age\n");
    let mut n = 0;
    for &i in order {
        let (age, sex, rows) = E2[i];
        for r in 0..rows {
            let flag = if r < members[i] { yes[n % yes.len()] } else { no[n % no.len()] };
            n += 1;
            s.push_str(&format!("{sex},{flag},{age}\n"));
        }
    }
    s
}

/// The released records of G1 per key of `E2`: (30,F) 2, (30,M) 2, (40,F) 3, (40,M) 2, (50,F) 1,
/// (50,M) 2, (60,F) 0.
const G1_IN_E2: [usize; 7] = [2, 2, 3, 2, 1, 2, 0];

fn form_b(population: &str, adjust: impl FnOnce(&mut AuditConfig)) -> Report {
    let mut config = qi(&["age", "sex"]);
    config.research_subset_column = Some("released".into());
    adjust(&mut config);
    with_population(G1.as_bytes(), population.as_bytes(), &config, 1 << 20)
}

/// Form (b): the subset flagged in `E2` holds exactly G1's released records per key, so the
/// spec's G2 values come out (every flag spelling, any case, trimmed).
#[test]
fn g2_delta_presence_form_b_flag_column() {
    let e = e2_flagged(&[0, 1, 2, 3, 4, 5, 6], &G1_IN_E2, &["1", "true", " YES ", "Yes"], &["0", "false", "No ", "NO"]);
    let bounds = |c: &mut AuditConfig| {
        c.kmap.delta_min = Some(0.1);
        c.kmap.delta_max = Some(0.6);
    };
    let r = form_b(&e, bounds);
    let m = metric(&r, "delta_presence");
    let ra = g2(bounds);
    let a = metric(&ra, "delta_presence");
    assert_eq!(m.status, pseudolens_core::metric::Status::Ok);
    assert_eq!(m.value, json!({ "min": 0.0, "max": 1.0 }));
    assert_close(m.details["min_released"].as_f64().unwrap(), 0.2, "min_released");
    assert_eq!(m.details["satisfied"], json!(false));
    assert_eq!(m.details["violating_classes"], json!(2));
    assert_eq!(m.details["form"], json!({ "research_subset_column": "released" }));
    assert_eq!(m.details["per_class"], a.details["per_class"], "the same keys, f, F and delta as form (a)");
    assert!(m.warnings.is_empty());
}

/// Form (b) does not use `P`: other flags give other deltas whatever is released. By hand:
/// members (30,F) 5 of 10 = 0.5, (30,M) 0/8, (40,F) 1/3, (40,M) 5/5 = 1, (50,F) 0/2, (50,M) 3/6
/// = 0.5, (60,F) 4/4 = 1; min 0, max 1, min_released 1/3; bounds [0.1, 0.6] fail (30,M),
/// (40,M), (50,F), (60,F): 4 classes.
#[test]
fn delta_presence_form_b_ignores_the_release() {
    let e = e2_flagged(&[0, 1, 2, 3, 4, 5, 6], &[5, 0, 1, 5, 0, 3, 4], &["yes"], &["no"]);
    let r = form_b(&e, |c| {
        c.kmap.delta_min = Some(0.1);
        c.kmap.delta_max = Some(0.6);
    });
    let m = metric(&r, "delta_presence");
    assert_eq!(m.value, json!({ "min": 0.0, "max": 1.0 }));
    assert_close(m.details["min_released"].as_f64().unwrap(), 1.0 / 3.0, "min_released");
    assert_eq!(m.details["violating_classes"], json!(4));
    assert_eq!(m.details["n_classes"], json!(7));
    let per = per_class(m);
    let want = [("40", "M", 5, 5), ("60", "F", 4, 4), ("30", "F", 5, 10), ("50", "M", 3, 6), ("40", "F", 1, 3), ("30", "M", 0, 8), ("50", "F", 0, 2)];
    assert_eq!(per, owned(&want), "highest delta first, ties by values");
    // A key of P absent from E is not counted (form (a) would add it with F := f).
    let e_small = "age,sex,released\n30,F,1\n30,F,0\n";
    let r = form_b(e_small, |_| {});
    let m = metric(&r, "delta_presence");
    assert_eq!((m.value.clone(), m.details["n_classes"].clone()), (json!({ "min": 0.5, "max": 0.5 }), json!(1)));
    assert!(m.warnings.is_empty(), "no population_smaller_than_sample in form (b)");
}

/// Form (b)'s errors: a cell that is not a flag (its line and value), and no such column.
#[test]
fn delta_presence_form_b_errors() {
    let e = "age,sex,released\n30,F,1\n30,M,maybe\n40,F,\n";
    let r = form_b(e, |_| {});
    let m = metric(&r, "delta_presence");
    assert_eq!((m.status, m.reason), (pseudolens_core::metric::Status::Error, Some("invalid_subset_flag")));
    assert_eq!(m.details["line"], json!(3));
    assert_eq!(m.details["value"], json!("maybe"));
    let e = "age,sex,released\n30,F,1\n30,M,\n";
    assert_eq!(metric(&form_b(e, |_| {}), "delta_presence").reason, Some("invalid_subset_flag"), "a blank is not a flag");
    let e = "age,sex,flag\n30,F,1\n";
    let r = form_b(e, |_| {});
    let m = metric(&r, "delta_presence");
    assert_eq!((m.status, m.reason), (pseudolens_core::metric::Status::Error, Some("research_subset_column_missing")));
    assert_eq!(m.details["research_subset_column"], json!("released"));
    // k-map is unaffected by the flag column.
    let e = e2_flagged(&[0, 1, 2, 3, 4, 5, 6], &G1_IN_E2, &["1"], &["0"]);
    assert_eq!(metric(&form_b(&e, |_| {}), "k_map").details, metric(&g2(|_| {}), "k_map").details);
}

#[test]
fn g2_k_map_estimated_table() {
    // (k, alpha, N, lambda, Poisson k', type I, zero-truncated k', type I): the spec's table.
    #[allow(clippy::type_complexity)]
    let rows: [(u64, f64, u64, f64, u64, f64, u64, f64); 5] = [
        (5, 0.01, 120, 0.5, 5, 0.001751622556, 4, 0.004451738362),
        (5, 0.01, 1200, 0.05, 3, 0.001209104274, 3, 0.0004114672304),
        (3, 0.05, 24, 1.5, 3, 0.0, 3, 0.0),
        (10, 0.01, 60, 2.0, 8, 0.004533805526, 7, 0.00524342608),
        (11, 0.001, 12000, 0.011, 3, 6.00581581e-05, 3, 2.011122878e-05),
    ];
    for (k, alpha, big_n, lambda, kp, tp, kz, tz) in rows {
        let (d, t, l) = derived_k(k, alpha, KMapEstimator::Poisson, 12, big_n);
        assert_eq!(d, kp, "Poisson k' for k {k}, N {big_n}");
        assert_close(l, lambda, "lambda");
        assert!((t - tp).abs() <= 1e-9 * tp.max(1e-300) || (t == 0.0 && tp == 0.0), "Poisson type I {t} vs {tp}");
        let (d, t, _) = derived_k(k, alpha, KMapEstimator::ZeroTruncatedPoisson, 12, big_n);
        assert_eq!(d, kz, "zero-truncated k' for k {k}, N {big_n}");
        assert!((t - tz).abs() <= 1e-8 * tz.max(1e-300) || (t == 0.0 && tz == 0.0), "zero-truncated type I {t} vs {tz}");
    }
    // Through the audit: N from the population size; never satisfied (k-anonymity 1).
    let r = g2(|c| {
        c.population_size = Some(60);
        c.kmap.k_map = 10;
    });
    let m = metric(&r, "k_map_estimated");
    assert_eq!(m.value, json!(8));
    assert_eq!((m.details["k_anonymity"].clone(), m.details["satisfied"].clone(), m.details["N"].clone()), (json!(1), json!(false), json!(60)));
    let r = g2(|c| {
        c.population_size = Some(60);
        c.kmap.k_map = 10;
        c.kmap.k_map_estimator = KMapEstimator::ZeroTruncatedPoisson;
    });
    assert_eq!(metric(&r, "k_map_estimated").value, json!(7));
    // The cap k' <= n.
    // lambda = 0.0006: PoisCDF(0) = 0.9994 >= 0.99, so c* = 0 and k' = 2.
    assert_eq!(derived_k(50, 0.01, KMapEstimator::Poisson, 12, 1_000_000).0, 2);
    assert_eq!(derived_k(50, 0.0, KMapEstimator::Poisson, 12, 12).0, 12, "k' = k capped at n");
}

#[test]
fn statuses_without_inputs() {
    let r = audit(G1.as_bytes(), &qi(&["age", "sex"]));
    for (id, reason) in [("k_map", "no_population_table"), ("delta_presence", "no_population_table"), ("k_map_estimated", "population_size_missing")] {
        assert_eq!(metric(&r, id).reason, Some(reason), "{id}");
    }
    let r = with_population(G1.as_bytes(), b"age\n30\n", &qi(&["age", "sex"]), 100);
    assert_eq!(metric(&r, "k_map").reason, Some("population_missing_qi"));
    assert_eq!(metric(&r, "delta_presence").reason, Some("population_missing_qi"));
    let mut c = qi(&["age", "sex"]);
    c.population_size = Some(5);
    assert_eq!(metric(&audit(G1.as_bytes(), &c), "k_map_estimated").reason, Some("population_smaller_than_sample"));
    let mut c = qi(&["age", "sex"]);
    c.missing_policy = pseudolens_core::MissingPolicy::Wildcard;
    let r = with_population(G1.as_bytes(), e2_csv(&[0, 1, 2, 3, 4, 5, 6]).as_bytes(), &c, 100);
    assert_eq!(metric(&r, "delta_presence").reason, Some("policy_not_supported"));
    let mut c = qi(&["age", "sex"]);
    c.kmap.k_map = 0;
    assert!(Audit::new(c).is_err(), "k = 0 is refused");
}

#[test]
fn population_smaller_than_sample_raises() {
    // E lacks (30,F) rows beyond 1 and the key (50,M): F := f, with a warning.
    let e = "age,sex\n30,F\n30,M\n30,M\n40,F\n40,F\n40,F\n40,M\n40,M\n50,F\n";
    let r = with_population(G1.as_bytes(), e.as_bytes(), &qi(&["age", "sex"]), 7);
    let m = metric(&r, "k_map");
    assert_eq!(m.warnings, ["population_smaller_than_sample"]);
    let d = metric(&r, "delta_presence");
    assert_eq!(d.warnings, ["population_smaller_than_sample"]);
    assert_eq!(d.value["max"], json!(1.0));
    assert_eq!(d.details["n_classes"], json!(6));
}

/// The shareable report keeps only keys of at least k released records, and drops the
/// checklist's example values.
#[test]
fn shareable_drops_small_keys_and_examples() {
    let r = g2(|c| c.hipaa = true);
    let safe = shareable(&r, 3);
    let m = |id: &str| serde_json::to_value(safe.report.metric(id).unwrap()).unwrap();
    let lowest = m("k_map")["details"]["lowest"].as_array().unwrap().clone();
    assert!(lowest.iter().all(|e| e["f"].as_u64().unwrap() >= 3), "{lowest:?}");
    let per = m("delta_presence")["details"]["per_class"].as_array().unwrap().clone();
    assert!(per.iter().all(|e| e["f"].as_u64().unwrap() >= 3 || (e["f"] == 0 && e["F"].as_u64().unwrap() >= 3)), "{per:?}");
    let kinds = m("hipaa_safe_harbor")["details"]["kinds"].clone();
    assert!(!kinds.to_string().contains("example_value"), "{kinds}");
}

/// The HIPAA checklist through an audit: the columns at fault, by their values.
#[test]
fn hipaa_through_an_audit() {
    let data = "name,zip,admitted,age,email,note\nMary Smith,02139,2021-03-04,93,m@x.org,a\nJohn Miller,036**,2021-04-05,45,j@x.org,b\nLinda Jones,100**,2021-05-06,90+,l@x.org,a\n";
    let mut c = qi(&["age"]);
    c.hipaa = true;
    let r = audit(data.as_bytes(), &c);
    let m = metric(&r, "hipaa_safe_harbor");
    let kinds = m.details["kinds"].as_array().unwrap();
    let cols = |id: &str| kinds.iter().find(|k| k["id"] == id).unwrap()["columns"].clone();
    assert_eq!(kinds.len(), 18);
    assert_eq!(cols("names"), json!(["name"]));
    assert_eq!(cols("geographic"), json!(["zip", "zip"]));
    assert_eq!(cols("dates"), json!(["admitted", "age"]));
    assert_eq!(cols("email"), json!(["email"]));
    assert_eq!(cols("other_unique"), json!([]), "3 rows are too few to call a column nearly unique");
    assert_eq!(m.value, json!(4));
    assert!(audit(data.as_bytes(), &qi(&["age"])).metric("hipaa_safe_harbor").is_none(), "only when asked for");
}

fn paired(original: &str, released: &str, config: &AuditConfig) -> Report {
    let mut o = Original::new(config, None);
    o.push(original.as_bytes()).unwrap();
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(o.finish().unwrap());
    a.push(released.as_bytes()).unwrap();
    a.finish().unwrap()
}

#[test]
fn row_order_through_an_audit() {
    let original = "id,age\n1,30\n2,40\n3,50\n4,60\n5,70\n";
    let mut c = qi(&["age"]);
    c.record_id = Some("id".into());
    // Same order: rho 1, warning.
    let r = paired(original, "id,age\n1,30\n2,40\n3,50\n4,60\n5,70\n", &c);
    let m = metric(&r, "row_order_correlation");
    assert_eq!(m.value, json!(1.0));
    assert_eq!(m.warnings, ["row_order_follows_original"]);
    assert!(r.warnings.iter().any(|w| w.code == "row_order_follows_original"));
    // Shuffled: 3,1,5,2,4 -> d = 2,1,2,2,1 (ranks of O 2,0,4,1,3 vs 0..4): rho = 1 - 6*14/120 = 0.3.
    let r = paired(original, "id,age\n3,50\n1,30\n5,70\n2,40\n4,60\n", &c);
    let m = metric(&r, "row_order_correlation");
    assert_close(m.value.as_f64().unwrap(), 0.3, "rho");
    assert!(m.warnings.is_empty());
    // Paired by row order: no answer.
    let mut c2 = qi(&["age"]);
    c2.ignored = vec!["id".into()];
    let r = paired(original, original, &c2);
    assert_eq!(metric(&r, "row_order_correlation").reason, Some("row_order_pairing"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// k-map and delta-presence do not depend on the order of the rows of either table, nor on
    /// how the files are cut into chunks.
    #[test]
    fn kmap_delta_row_order_and_chunks(seed in 0u64..1000, chunk in 1usize..64) {
        let mut lines: Vec<&str> = G1.lines().skip(1).collect();
        let mut order: Vec<usize> = (0..7).collect();
        let mut s = seed;
        for i in (1..lines.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lines.swap(i, (s >> 33) as usize % (i + 1));
        }
        for i in (1..7).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let data = format!("rid,age,sex,zip,job,hid\n{}\n", lines.join("\n"));
        let mut config = qi(&["age", "sex"]);
        config.kmap.delta_min = Some(0.1);
        config.kmap.delta_max = Some(0.6);
        let r = with_population(data.as_bytes(), e2_csv(&order).as_bytes(), &config, chunk);
        let base = g2(|c| { c.kmap.delta_min = Some(0.1); c.kmap.delta_max = Some(0.6); });
        for id in ["k_map", "delta_presence"] {
            prop_assert_eq!(&metric(&r, id).value, &metric(&base, id).value);
            prop_assert_eq!(&metric(&r, id).details, &metric(&base, id).details);
        }
    }

    /// Form (b) does not depend on the order of the rows of `E` nor on its chunks, and is the
    /// same through the shareable report's rule as form (a) on the same subset.
    #[test]
    fn delta_form_b_row_order_and_chunks(seed in 0u64..1000, chunk in 1usize..64) {
        let e = e2_flagged(&[0, 1, 2, 3, 4, 5, 6], &G1_IN_E2, &["1", "yes"], &["0", "no"]);
        let mut lines: Vec<&str> = e.lines().skip(1).collect();
        let mut s = seed;
        for i in (1..lines.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lines.swap(i, (s >> 33) as usize % (i + 1));
        }
        let shuffled = format!("sex,released,age\n{}\n", lines.join("\n"));
        let mut config = qi(&["age", "sex"]);
        config.research_subset_column = Some("released".into());
        let r = with_population(G1.as_bytes(), shuffled.as_bytes(), &config, chunk);
        let base = form_b(&e, |_| {});
        prop_assert_eq!(&metric(&r, "delta_presence").value, &metric(&base, "delta_presence").value);
        prop_assert_eq!(&metric(&r, "delta_presence").details, &metric(&base, "delta_presence").details);
        let safe = |r: &Report| shareable(r, 3).report.metric("delta_presence").unwrap().details["per_class"].clone();
        prop_assert_eq!(safe(&r), safe(&g2(|_| {})));
    }

    /// rho does not depend on the order the released rows are read in when both tables are
    /// reordered alike, and is the same read in chunks of any size.
    #[test]
    fn row_order_chunks(chunk in 1usize..40) {
        let original = "id,age\n1,30\n2,40\n3,50\n4,60\n5,70\n";
        let released = "id,age\n3,50\n1,30\n5,70\n2,40\n4,60\n";
        let mut c = qi(&["age"]);
        c.record_id = Some("id".into());
        let mut o = Original::new(&c, None);
        for p in original.as_bytes().chunks(chunk) { o.push(p).unwrap(); }
        let mut a = Audit::new(c).unwrap();
        a.set_original(o.finish().unwrap());
        for p in released.as_bytes().chunks(chunk) { a.push(p).unwrap(); }
        let r = a.finish().unwrap();
        prop_assert!((metric(&r, "row_order_correlation").value.as_f64().unwrap() - 0.3).abs() < 1e-12);
    }
}

/// delta-presence's `per_class` as `(age, sex, f, F)`, in the report's order.
fn per_class(m: &pseudolens_core::metric::MetricResult) -> Vec<(String, String, u64, u64)> {
    m.details["per_class"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["values"]["age"].as_str().unwrap().into(), c["values"]["sex"].as_str().unwrap().into(), c["f"].as_u64().unwrap(), c["F"].as_u64().unwrap()))
        .collect()
}

fn owned(want: &[(&str, &str, u64, u64)]) -> Vec<(String, String, u64, u64)> {
    want.iter().map(|w| (w.0.into(), w.1.into(), w.2, w.3)).collect()
}
