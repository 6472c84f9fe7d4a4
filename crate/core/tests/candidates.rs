//! Candidate releases at increasing generalization (issue 6; spec balance.md Sec 5-6): risk
//! and utility both fall as the release coarsens, and the choice follows the weights.

mod common;

use pseudolens_core::Original;
use pseudolens_core::balance::{ChoiceParams, choose};
use pseudolens_core::{Audit, AuditConfig, Report, sample};

fn table(level: u8) -> Vec<u8> {
    sample::bench_table(5_000, 7, level).flatten().collect()
}

fn audit_level(config: &AuditConfig, original: &[u8], level: u8) -> Report {
    let mut o = Original::new(config, None);
    o.push(original).unwrap();
    let mut a = Audit::new(config.clone()).unwrap();
    a.set_original(o.finish().unwrap());
    a.push(&table(level)).unwrap();
    a.finish().unwrap()
}

#[test]
fn coarser_releases_are_safer_and_less_useful() {
    let mut config = common::qi(&["age", "sex", "region", "admission_date"]);
    config.record_id = Some("record_id".into());
    config.ignored = vec!["note".into()];
    let original = table(0);
    let candidates: Vec<_> = (1..=3).map(|level| audit_level(&config, &original, level).candidate(&format!("level {level}")).unwrap()).collect();
    for w in candidates.windows(2) {
        assert!(w[1].risk_r < w[0].risk_r, "risk falls: {candidates:?}");
        assert!(w[1].utility_u < w[0].utility_u, "utility falls: {candidates:?}");
    }
    let the_original = audit_level(&config, &original, 0).candidate("itself").unwrap();
    assert!((the_original.utility_u - 1.0).abs() < 1e-12, "the original against itself keeps everything");
    // Utility-heavy weights pick a finer release than safety-heavy ones.
    let pick = |alpha: f64, tau_r: Option<f64>| {
        let m = choose(&config.quasi_identifiers, &candidates, &ChoiceParams { rut_alpha: alpha, tau_r, tau_u: None });
        m[1].value.as_str().map(str::to_string)
    };
    let (utility_first, safety_first) = (pick(0.95, None).unwrap(), pick(0.05, None).unwrap());
    assert!(utility_first < safety_first, "{utility_first} vs {safety_first}");
    assert_eq!(pick(0.95, Some(candidates[2].risk_r)).as_deref(), Some("level 3"), "tau_R admits only the coarsest");
    assert_eq!(pick(0.5, Some(-1.0)), None, "nothing is feasible");
}
