//! Properties of protect (spec protect.md): the search equals evaluating every node from the
//! rows by the definitions (feasible nodes, best node under both objectives, minimal nodes,
//! Pareto front, figures, the closest node), for every criterion and several suppression
//! limits; the release of a node, read back and audited, gives the figures the search
//! reported for it, and it is the spec's transform of the rows, also when written while the
//! file is read again from a table of the needed columns alone; the settings survive JSON.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use pseudolens_core::ingest::cell::Normaliser;
use pseudolens_core::protect::{Figures, TDistance};
use pseudolens_core::{
    AuditConfig, Criteria, Ladder, MissingPolicy, Objective, ProtectParams, Protector, ReadSettings, Suppressed, Table, TableReader, audit_table,
};

/// One record: a number (blank: `None`), a code, a category, and the SA.
type Row = (Option<i64>, Option<&'static str>, Option<&'static str>, &'static str);

const CODES: [&str; 5] = ["ab1", "ab2", "ac1", "b11", "b2"];
const CATS: [&str; 4] = ["a", "b", "c", "d"];
/// A hierarchy of the categories whose last level is one label (no `*` is added).
const CAT_HIERARCHY: &str = "a;ab;all\nb;ab;all\nc;cd;all\nd;cd;all\n";

fn csv(rows: &[Row]) -> String {
    let mut s = String::from("num,code,cat,sa\n");
    for (n, c, k, sa) in rows {
        s += &format!("{},{},{},{sa}\n", n.map_or(String::new(), |n| n.to_string()), c.unwrap_or(""), k.unwrap_or(""));
    }
    s
}

fn table(text: &str) -> Table {
    read(text, &[], false)
}

/// `text` kept, the QIs and `sensitive` needed; the other columns left unread when `needed_only`
/// (the CLI's read for protect).
fn read(text: &str, sensitive: &[String], needed_only: bool) -> Table {
    let config = AuditConfig { quasi_identifiers: vec!["num".into(), "code".into(), "cat".into()], sensitive: sensitive.to_vec(), ..AuditConfig::default() };
    let mut reader = TableReader::new(ReadSettings { needed_only, ..config.table_settings().unwrap() });
    reader.push(text.as_bytes()).unwrap();
    reader.finish().unwrap().table
}

/// The release of `node` written while `text` is read again, in chunks of 7 bytes.
fn streamed(protector: &Protector, table: &Table, node: &[usize], text: &str) -> Vec<u8> {
    let mut s = protector.release_streamed(table, node, AuditConfig::default().csv_options().unwrap()).unwrap();
    let mut out = Vec::new();
    for chunk in text.as_bytes().chunks(7) {
        s.push(chunk).unwrap();
        out.extend(s.take());
    }
    out.extend(s.finish().unwrap().0);
    out
}

/// The labels of a value at each given level `1 ..` of the test's ladders, by definition.
fn given(q: usize, v: &str, widths: &[i64], lengths: &[usize]) -> Vec<String> {
    match q {
        0 => {
            let x: i64 = v.parse().unwrap();
            widths.iter().map(|&w| format!("[{},{})", x.div_euclid(w) * w, x.div_euclid(w) * w + w)).collect()
        }
        1 => lengths.iter().map(|&n| v.chars().enumerate().map(|(i, c)| if i < n { c } else { '*' }).collect()).collect(),
        _ => vec![if v < "c" { "ab" } else { "cd" }.to_string(), "all".to_string()],
    }
}

/// The brute-force model: every QI's label per level for each record, from the definitions.
struct Model {
    /// Per QI: per record in scope, per level, its label (`None`: blank).
    labels: Vec<Vec<Vec<Option<String>>>>,
    /// Per record in scope, the SA.
    sa: Vec<&'static str>,
    /// Per QI, per level, the loss of each record's cell.
    cost: Vec<Vec<Vec<f64>>>,
    heights: Vec<usize>,
}

fn model(rows: &[Row], widths: &[i64], lengths: &[usize], hierarchy: bool, drop: bool) -> Model {
    let scope: Vec<&Row> = rows.iter().filter(|r| !drop || (r.0.is_some() && r.1.is_some() && r.2.is_some())).collect();
    let cells = |r: &Row| -> [Option<String>; 3] { [r.0.map(|n| n.to_string()), r.1.map(str::to_string), r.2.map(str::to_string)] };
    let mut labels = Vec::new();
    let mut cost = Vec::new();
    let mut heights = Vec::new();
    for q in 0..3 {
        let values: BTreeSet<String> = scope.iter().filter_map(|r| cells(r)[q].clone()).collect();
        let mut levels: Vec<BTreeMap<String, String>> = vec![values.iter().map(|v| (v.clone(), v.clone())).collect()];
        let given_levels = match q {
            0 => widths.len(),
            1 => lengths.len(),
            _ if hierarchy => 2,
            _ => 0,
        };
        for j in 0..given_levels {
            levels.push(values.iter().map(|v| (v.clone(), given(q, v, widths, lengths)[j].clone())).collect());
        }
        let last_single = given_levels > 0 && levels.last().unwrap().values().collect::<BTreeSet<_>>().len() == 1;
        let top_label = if last_single { levels.pop().unwrap().values().next().unwrap().clone() } else { "*".to_string() };
        let d = values.len();
        let mut q_cost = Vec::new();
        let mut q_labels = Vec::new();
        for row in &scope {
            let v = cells(row)[q].clone();
            let mut per_level: Vec<Option<String>> = levels.iter().map(|l| v.as_ref().map(|v| l[v].clone())).collect();
            per_level.push(Some(top_label.clone()));
            q_labels.push(per_level);
        }
        labels.push(q_labels);
        for level in &levels {
            q_cost.push(
                scope
                    .iter()
                    .map(|row| match cells(row)[q].as_ref() {
                        Some(v) if d > 1 => (level.values().filter(|l| **l == level[v]).count() - 1) as f64 / (d - 1) as f64,
                        _ => 0.0,
                    })
                    .collect(),
            );
        }
        q_cost.push(scope.iter().map(|row| if cells(row)[q].is_some() && d > 1 { 1.0 } else { 0.0 }).collect());
        heights.push(levels.len() + 1);
        cost.push(q_cost);
    }
    Model { labels, sa: scope.iter().map(|r| r.3).collect(), cost, heights }
}

/// The equal and ordered distances of a class's SA values to all of them (attribute-risk.md Sec 3).
fn distance(class: &[&str], all: &[&str], ordered: bool) -> f64 {
    let values: BTreeSet<&str> = all.iter().copied().collect();
    let mut v: Vec<&str> = values.into_iter().collect();
    if ordered {
        v.sort_by_key(|x| x.parse::<i64>().unwrap());
    }
    let share = |set: &[&str], x: &str| set.iter().filter(|y| **y == x).count() as f64 / set.len() as f64;
    let diff: Vec<f64> = v.iter().map(|x| share(class, x) - share(all, x)).collect();
    if !ordered {
        return 0.5 * diff.iter().map(|d| d.abs()).sum::<f64>();
    }
    if v.len() < 2 {
        return 0.0;
    }
    let mut acc = 0.0;
    let mut sum = 0.0;
    for d in &diff[..diff.len() - 1] {
        acc += d;
        sum += acc.abs();
    }
    sum / (v.len() - 1) as f64
}

/// The figures of a node by definition (`None` for the kept-dependent ones when none is kept).
fn brute(m: &Model, node: &[usize], c: &Criteria, ordered: bool, s_max: f64, tau: f64) -> Figures {
    brute_with_suppressed(m, node, c, ordered, s_max, tau).0
}

/// [`brute`], and whether each record in scope is suppressed.
fn brute_with_suppressed(m: &Model, node: &[usize], c: &Criteria, ordered: bool, s_max: f64, tau: f64) -> (Figures, Vec<bool>) {
    let n = m.sa.len();
    let mut classes: BTreeMap<Vec<Option<String>>, Vec<usize>> = BTreeMap::new();
    for r in 0..n {
        classes.entry(node.iter().enumerate().map(|(q, &l)| m.labels[q][r][l].clone()).collect()).or_default().push(r);
    }
    let (mut s, mut kept_classes, mut kept, mut k, mut at_risk, mut disc) = (0u64, 0u64, 0u64, u64::MAX, 0u64, 0u64);
    let mut suppressed = vec![false; n];
    for members in classes.values() {
        let f = members.len() as u64;
        let sa: Vec<&str> = members.iter().map(|&r| m.sa[r]).collect();
        let distinct = sa.iter().collect::<BTreeSet<_>>().len() as u64;
        let violates = c.k.is_some_and(|k| f < k) || c.l.is_some_and(|l| distinct < l) || c.t.is_some_and(|t| distance(&sa, &m.sa, ordered) > t + 1e-12);
        if violates {
            s += f;
            for &r in members {
                suppressed[r] = true;
            }
        } else {
            kept_classes += 1;
            kept += f;
            k = k.min(f);
            disc += f * f;
            if 1.0 / f as f64 > tau {
                at_risk += f;
            }
        }
    }
    let mut penalty = 0.0;
    for (r, &gone) in suppressed.iter().enumerate() {
        for (q, &l) in node.iter().enumerate() {
            penalty += if gone { 1.0 } else { m.cost[q][l][r] };
        }
    }
    let average_risk = (kept > 0).then(|| kept_classes as f64 / kept as f64);
    let within_limit = s <= (s_max * n as f64 + 1e-9).floor() as u64 && kept > 0;
    let figures = Figures {
        records_suppressed: s,
        classes: kept_classes,
        k: (kept > 0).then_some(k),
        average_risk,
        records_at_risk: (kept > 0).then(|| at_risk as f64 / kept as f64),
        loss: if n == 0 { 0.0 } else { penalty / (3.0 * n as f64) },
        discernibility: disc + n as u64 * s,
        feasible: within_limit && c.average_risk.is_none_or(|r| average_risk.is_some_and(|a| a <= r)),
        within_limit,
    };
    (figures, suppressed)
}

/// The release of a node by the spec's transform (Sec 5), from the model: the records in scope
/// in file order, each QI cell its label (a blank below the top as it was, here empty), the
/// suppressed records left out or starred.
fn transform(m: &Model, node: &[usize], suppressed: &[bool], star: bool) -> String {
    let quoted = |f: &str| if f.contains(',') { format!("\"{f}\"") } else { f.to_string() };
    let mut out = String::from("num,code,cat,sa\n");
    for (r, sa) in m.sa.iter().enumerate() {
        if suppressed[r] && !star {
            continue;
        }
        for (q, &l) in node.iter().enumerate() {
            let cell = if suppressed[r] { "*".to_string() } else { m.labels[q][r][l].clone().unwrap_or_default() };
            out += &quoted(&cell);
            out.push(',');
        }
        out += sa;
        out.push('\n');
    }
    out
}

fn same(a: &Figures, b: &Figures) -> bool {
    let close = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9,
        (None, None) => true,
        _ => false,
    };
    (a.records_suppressed, a.classes, a.k, a.discernibility, a.feasible) == (b.records_suppressed, b.classes, b.k, b.discernibility, b.feasible)
        && close(a.average_risk, b.average_risk)
        && close(a.records_at_risk, b.records_at_risk)
        && (a.loss - b.loss).abs() <= 1e-9
}

fn levels_of(i: usize, heights: &[usize]) -> Vec<usize> {
    let mut out = vec![0; heights.len()];
    let mut rest = i;
    for q in (0..heights.len()).rev() {
        out[q] = rest % heights[q];
        rest /= heights[q];
    }
    out
}

fn row() -> impl Strategy<Value = Row> {
    (
        prop_oneof![1 => Just(None), 6 => (0i64..40).prop_map(Some)],
        prop_oneof![1 => Just(None), 6 => prop::sample::select(CODES.to_vec()).prop_map(Some)],
        prop_oneof![1 => Just(None), 6 => prop::sample::select(CATS.to_vec()).prop_map(Some)],
        prop::sample::select(vec!["1", "2", "3", "4", "5"]),
    )
}

fn criteria() -> impl Strategy<Value = Criteria> {
    (
        prop::option::of(1u64..5),
        prop::option::of(1u64..4),
        prop::option::of(prop::sample::select(vec![0.0, 0.1, 0.2, 0.35, 0.5])),
        prop::option::of(prop::sample::select(vec![0.25, 0.5, 0.8])),
        prop::sample::select(vec![TDistance::Auto, TDistance::Equal]),
    )
        .prop_map(|(k, l, t, average_risk, t_distance)| Criteria { k, l, t, average_risk, t_distance })
        .prop_filter("a criterion", |c| c.k.is_some() || c.l.is_some() || c.t.is_some() || c.average_risk.is_some())
}

fn settings() -> impl Strategy<Value = (Vec<i64>, Vec<usize>, bool, bool, f64, Objective)> {
    (
        prop::sample::select(vec![vec![5i64], vec![5, 10], vec![2, 4, 8], vec![10, 20]]),
        prop::sample::select(vec![vec![2usize], vec![2, 1]]),
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(vec![0.0, 0.1, 0.25, 0.5, 1.0]),
        prop::sample::select(vec![Objective::Loss, Objective::Discernibility]),
    )
}

fn params(widths: &[i64], lengths: &[usize], hierarchy: bool, drop: bool, s_max: f64, objective: Objective, c: Criteria) -> ProtectParams {
    let mut ladders = BTreeMap::new();
    ladders.insert("num".to_string(), Ladder::Bands { widths: widths.iter().map(|&w| w as f64).collect(), bottom: None, top: None });
    ladders.insert("code".to_string(), Ladder::Prefix { lengths: lengths.to_vec() });
    if hierarchy {
        ladders.insert("cat".to_string(), Ladder::Hierarchy { csv: CAT_HIERARCHY.into() });
    }
    ProtectParams {
        quasi_identifiers: vec!["num".into(), "code".into(), "cat".into()],
        sensitive: vec!["sa".into()],
        ladders,
        criteria: c,
        suppression_limit: s_max,
        objective,
        missing_policy: if drop { MissingPolicy::Drop } else { MissingPolicy::Ordinary },
        ..ProtectParams::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn the_search_equals_evaluating_every_node(rows in prop::collection::vec(row(), 1..24), (widths, lengths, hierarchy, drop, s_max, objective) in settings(), c in criteria()) {
        let t = table(&csv(&rows));
        let p = params(&widths, &lengths, hierarchy, drop, s_max, objective, c);
        let protector = Protector::new(&t, &Normaliser::default(), &p).unwrap();
        let m = model(&rows, &widths, &lengths, hierarchy, drop);
        let heights: Vec<usize> = protector.ladders.iter().map(|l| l.height()).collect();
        prop_assert_eq!(&heights, &m.heights);
        let search = protector.search().unwrap();
        let size: usize = heights.iter().product();
        prop_assert_eq!(search.lattice.size(), size);
        let ordered = c.t_distance == TDistance::Auto;
        let all: Vec<Figures> = (0..size).map(|i| brute(&m, &levels_of(i, &heights), &c, ordered, s_max, p.risk_threshold)).collect();
        let feasible: Vec<usize> = (0..size).filter(|&i| all[i].feasible).collect();
        prop_assert_eq!(&search.feasible, &feasible);
        for &i in &feasible {
            let got = search.nodes[i].unwrap();
            prop_assert!(same(&got, &all[i]), "node {:?}: {:?} != {:?}", levels_of(i, &heights), got, all[i]);
            prop_assert!(same(&protector.evaluate(&levels_of(i, &heights)).unwrap(), &all[i]));
        }
        let height = |i: usize| levels_of(i, &heights).iter().sum::<usize>();
        let key = |i: usize| {
            let primary = match objective {
                Objective::Loss => (all[i].loss * 1e12).round() as i128,
                Objective::Discernibility => all[i].discernibility as i128,
            };
            (primary, all[i].records_suppressed, height(i), levels_of(i, &heights))
        };
        prop_assert_eq!(search.best, feasible.iter().copied().min_by_key(|&i| key(i)));
        let below = |a: usize, b: usize| a != b && levels_of(a, &heights).iter().zip(levels_of(b, &heights)).all(|(x, y)| *x <= y);
        let minimal: Vec<usize> = feasible.iter().copied().filter(|&i| !feasible.iter().any(|&j| below(j, i))).collect();
        prop_assert_eq!(&search.minimal, &minimal);
        let point = |i: usize| (((all[i].average_risk.unwrap()) * 1e12).round() as i64, (all[i].loss * 1e12).round() as i64);
        let dominated = |i: usize| feasible.iter().any(|&j| { let (a, b) = (point(j), point(i)); a.0 <= b.0 && a.1 <= b.1 && a != b });
        let pareto: BTreeSet<usize> = feasible.iter().copied().filter(|&i| !dominated(i)).collect();
        prop_assert_eq!(search.pareto.iter().copied().collect::<BTreeSet<_>>(), pareto);
        if feasible.is_empty() {
            let closest = (0..size).min_by_key(|&i| (all[i].records_suppressed, height(i), levels_of(i, &heights)));
            prop_assert_eq!(search.closest, closest);
        }
        let r = protector.result(&search);
        prop_assert_eq!(r.details["nodes_feasible"].as_u64(), Some(feasible.len() as u64));
    }

    #[test]
    fn the_release_is_the_transform_and_its_audit_the_prediction(rows in prop::collection::vec(row(), 1..24), (widths, lengths, hierarchy, drop, s_max, _objective) in settings(), c in criteria(), pick in any::<prop::sample::Index>(), star in any::<bool>()) {
        let text = csv(&rows);
        let t = table(&text);
        let mut p = params(&widths, &lengths, hierarchy, drop, s_max, Objective::Loss, c);
        p.suppressed = if star { Suppressed::Star } else { Suppressed::Remove };
        let protector = Protector::new(&t, &Normaliser::default(), &p).unwrap();
        // Read with the needed columns alone, the file read again for the release.
        let needed = read(&text, &p.sensitive, true);
        let from_needed = Protector::new(&needed, &Normaliser::default(), &p).unwrap();
        let heights: Vec<usize> = protector.ladders.iter().map(|l| l.height()).collect();
        let size: usize = heights.iter().product();
        // Any node but the top of every ladder (its release has no record in scope, Sec 5), and
        // the best node.
        let mut nodes = vec![pick.index(size - 1)];
        nodes.extend(protector.search().unwrap().best.filter(|&b| b != size - 1));
        let m = model(&rows, &widths, &lengths, hierarchy, drop);
        for node in nodes.into_iter().map(|i| levels_of(i, &heights)) {
            let f = protector.evaluate(&node).unwrap();
            let bytes = protector.release(&t, &node).unwrap().to_bytes();
            prop_assert_eq!(from_needed.evaluate(&node).unwrap(), f);
            prop_assert_eq!(streamed(&from_needed, &needed, &node, &text), bytes.clone());
            // The release is the spec's transform of the model.
            let (_, suppressed) = brute_with_suppressed(&m, &node, &c, c.t_distance == TDistance::Auto, s_max, p.risk_threshold);
            prop_assert_eq!(String::from_utf8(bytes.clone()).unwrap(), transform(&m, &node, &suppressed, star));
            // Under `drop` the release holds no blank of `O` (those records are left out); the `*`
            // of a QI at its top level is a label, which an audit under `drop` would read as a blank
            // and remove: the release is audited under `ordinary`
            // (docs/decisions/protect/drop-release-audited-as-ordinary.md).
            let config = AuditConfig { quasi_identifiers: vec!["num".into(), "code".into(), "cat".into()], ..AuditConfig::default() };
            let mut reader = TableReader::new(config.table_settings().unwrap());
            reader.push(&bytes).unwrap();
            let released = reader.finish().unwrap().table;
            let report = audit_table(&released, &config, &pseudolens_core::Sides::default()).unwrap();
            let value = |id: &str| report.metric(id).unwrap().value.clone();
            prop_assert_eq!(value("n_records").as_u64(), Some(protector.records() - f.records_suppressed), "{}", String::from_utf8_lossy(&bytes));
            if f.classes > 0 {
                prop_assert_eq!(value("k_anonymity").as_f64(), f.k.map(|k| k as f64));
                prop_assert_eq!(value("n_classes").as_u64(), Some(f.classes));
                prop_assert!((value("prosecutor_success_rate").as_f64().unwrap() - f.average_risk.unwrap()).abs() <= 1e-12);
            }
            // The rows written: those kept (under star also the suppressed ones), never a dropped one.
            let written = String::from_utf8(bytes).unwrap().lines().count() as u64 - 1;
            let in_table = if drop { rows.iter().filter(|r| r.0.is_some() && r.1.is_some() && r.2.is_some()).count() as u64 } else { rows.len() as u64 };
            prop_assert_eq!(written, if star { in_table } else { in_table - f.records_suppressed });
        }
    }

    #[test]
    fn the_settings_survive_json((widths, lengths, hierarchy, drop, s_max, objective) in settings(), c in criteria(), star in any::<bool>(), node in prop::option::of(0usize..3)) {
        let mut p = params(&widths, &lengths, hierarchy, drop, s_max, objective, c);
        p.suppressed = if star { Suppressed::Star } else { Suppressed::Remove };
        p.node = node.map(|l| BTreeMap::from([("num".to_string(), l)]));
        p.ladders.insert("other".into(), Ladder::Dates { levels: vec![pseudolens_core::DateLevel::Month, pseudolens_core::DateLevel::Year] });
        p.ladders.insert("coded".into(), Ladder::Bands { widths: vec![0.5, 1.0], bottom: Some(18.0), top: Some(90.5) });
        let text = serde_json::to_string(&p).unwrap();
        let back: ProtectParams = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, p);
    }
}
