//! `pseudolens protect` (issue 38, spec protect.md): the golden example G-P1 through the
//! command line (the result, the release written and its audit), no feasible node, the node
//! chosen by hand, and bad input (exit 1, the message naming the QI, level, value or line) and
//! bad usage (exit 2).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// G-P1's table (protect.md Sec 7).
const GP1: &str = include_str!("../../core/tests/fixtures/g-p1.csv");

/// A file of this test's own in the temporary folder.
fn temp(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pseudolens-protect-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pseudolens")).arg("protect").args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// G-P1 with its ladders and these further arguments, as JSON.
fn gp1(path: &str, more: &[&str]) -> (Value, Output) {
    let mut args = vec![path, "--qi", "age,zip,sex", "--bands", "age=10,20", "--prefix", "zip=4,3", "--json"];
    args.extend_from_slice(more);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    (serde_json::from_slice(&o.stdout).unwrap(), o)
}

fn levels(node: &Value) -> [u64; 3] {
    ["age", "zip", "sex"].map(|q| node["levels"][q].as_u64().unwrap())
}

#[test]
fn golden_g_p1_rows_and_release() {
    let table = temp("gp1.csv", GP1);
    let path = table.to_str().unwrap();
    // Row 1: k = 2, no suppression.
    let (r, _) = gp1(path, &["--k", "2"]);
    assert_eq!(r["id"], "protect");
    assert_eq!(r["value"], serde_json::json!({ "age": 3, "zip": 2, "sex": 0 }));
    let best = &r["details"]["best"];
    assert_eq!((best["records_suppressed"].as_u64(), best["classes"].as_u64(), best["k"].as_u64()), (Some(0), Some(4), Some(2)));
    assert!((best["average_risk"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((best["loss"].as_f64().unwrap() - 0.449074074074).abs() < 1e-12);
    assert_eq!(best["discernibility"], 38);
    assert_eq!((r["details"]["nodes_total"].as_u64(), r["details"]["nodes_feasible"].as_u64()), (Some(32), Some(4)));
    // Row 2: 3 records may be suppressed.
    let (r, _) = gp1(path, &["--k", "2", "--max-suppression", "0.25"]);
    assert_eq!(r["details"]["nodes_feasible"], 11);
    let minimal: Vec<[u64; 3]> = r["details"]["minimal"].as_array().unwrap().iter().map(levels).collect();
    assert_eq!(minimal.len(), 3);
    for node in [[1, 2, 1], [2, 3, 0], [3, 1, 0]] {
        assert!(minimal.contains(&node), "{node:?} in {minimal:?}");
    }
    assert_eq!(levels(&r["details"]["best"]), [3, 2, 0]);
    // Row 3: with l = 2 over the diagnosis; the release written and audited.
    let out = std::env::temp_dir().join(format!("pseudolens-protect-{}-release.csv", std::process::id()));
    let (r, o) = gp1(path, &["--k", "2", "--l", "2", "--sensitive", "diagnosis", "--max-suppression", "0.25", "--out", out.to_str().unwrap()]);
    assert_eq!(r["details"]["nodes_feasible"], 10);
    let best = &r["details"]["best"];
    assert_eq!((best["records_suppressed"].as_u64(), best["classes"].as_u64(), best["k"].as_u64()), (Some(2), Some(3), Some(3)));
    assert!((best["loss"].as_f64().unwrap() - 0.541666666667).abs() < 1e-12);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), 11, "{written}");
    assert!(!written.contains(",F,flu\n*,103**") && !written.contains("*,103**,F"), "the class (*, 103**, F) is suppressed:\n{written}");
    assert!(written.lines().skip(1).all(|l| l.starts_with("*,104**,") || l.starts_with("*,103**,")), "{written}");
    assert!(stderr(&o).contains("as predicted"), "{}", stderr(&o));
    for f in [table, out] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn no_feasible_node_is_a_result_and_writes_nothing() {
    let table = temp("none.csv", GP1);
    let out = std::env::temp_dir().join(format!("pseudolens-protect-{}-none-out.csv", std::process::id()));
    let (r, o) = gp1(table.to_str().unwrap(), &["--k", "13", "--out", out.to_str().unwrap()]);
    assert!(r["value"].is_null());
    assert_eq!(r["warnings"], serde_json::json!(["no_feasible_node"]));
    assert_eq!(r["details"]["closest"]["records_suppressed"], 12);
    assert!(stderr(&o).contains("no node of the lattice meets the criteria"), "{}", stderr(&o));
    assert!(!out.exists());
    std::fs::remove_file(table).unwrap();
}

#[test]
fn a_node_chosen_by_hand_is_written_with_stars_and_its_audit_checked() {
    let table = temp("star.csv", GP1);
    let out = std::env::temp_dir().join(format!("pseudolens-protect-{}-star-out.csv", std::process::id()));
    let (_, o) = gp1(table.to_str().unwrap(), &["--k", "2", "--node", "age=1,zip=1", "--suppressed", "star", "--out", out.to_str().unwrap()]);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), 13);
    assert_eq!(written.lines().nth(1), Some("\"[30,40)\",1048*,F,flu"));
    assert_eq!(written.lines().filter(|l| l.starts_with("*,*,*,")).count(), 8, "{written}");
    let err = stderr(&o);
    assert!(err.contains("does not meet the criteria") && err.contains("as predicted"), "{err}");
    for f in [table, out] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn a_settings_file_gives_the_qis_ladders_criteria_and_node_and_flags_override_it() {
    let table = temp("settings.csv", GP1);
    let settings = temp(
        "settings.json",
        r#"{"quasi_identifiers": ["age", "zip", "sex"], "protect": {"ladders": {"age": {"kind": "bands", "widths": [10, 20]},
            "zip": {"kind": "prefix", "lengths": [4, 3]}}, "criteria": {"k": 2}, "suppression_limit": 0.25}}"#,
    );
    let (path, file) = (table.to_str().unwrap(), settings.to_str().unwrap());
    let json = |more: &[&str]| -> Value {
        let o = run(&[&[path, "--settings", file, "--json"], more].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    // The same result as the flags of G-P1's row 2.
    let (flags, _) = gp1(path, &["--k", "2", "--max-suppression", "0.25"]);
    assert_eq!(json(&[]), flags);
    // A flag overrides the file's value: row 1 (no suppression).
    let (row1, _) = gp1(path, &["--k", "2"]);
    assert_eq!(json(&["--max-suppression", "0"]), row1);
    // The file's node is the one written.
    let with_node = temp("node.json", &std::fs::read_to_string(&settings).unwrap().replace(r#""criteria""#, r#""node": {"age": 1, "zip": 1}, "criteria""#));
    let out = std::env::temp_dir().join(format!("pseudolens-protect-{}-settings-out.csv", std::process::id()));
    let o = run(&[path, "--settings", with_node.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success() && stderr(&o).contains("(node age=1,zip=1,sex=0)"), "{}", stderr(&o));
    for f in [table, settings, with_node, out] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn a_column_too_varied_to_keep_is_written_from_the_file_read_again() {
    // 270,000 distinct ids: past what a kept column holds (262,144 distinct values).
    let mut csv = String::from("id;age;zip\r\n");
    for i in 0..270_000 {
        csv.push_str(&format!("P{i};{};{}\r\n", 20 + i % 50, 10_000 + i % 30));
    }
    let table = temp("ids.csv", &csv);
    let out = std::env::temp_dir().join(format!("pseudolens-protect-{}-ids-out.csv", std::process::id()));
    let o = run(&[table.to_str().unwrap(), "--qi", "age,zip", "--k", "2", "--node", "age=1", "--out", out.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("wrote 270000 records") && err.contains("as predicted"), "{err}");
    let written = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!((lines.len(), lines[0], lines[1], lines[270_000]), (270_001, "id;age;zip", "P0;*;10000", "P269999;*;10029"));
    for f in [table, out] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn a_release_written_in_parts_on_two_threads_is_the_one_written_on_one() {
    // Past the size read in parts (8 MiB), with a quoted note over two lines now and then.
    let mut csv = String::from("id;age;zip;note\n");
    for i in 0..450_000 {
        let note = if i % 997 == 0 { format!("\"seen;\nagain {i}\"") } else { format!("n{}", i % 13) };
        csv.push_str(&format!("P{i};{};{};{note}\n", 20 + i % 50, 10_000 + i % 30));
    }
    let table = temp("parts.csv", &csv);
    let out = |threads: &str| {
        let path = std::env::temp_dir().join(format!("pseudolens-protect-{}-parts-{threads}.csv", std::process::id()));
        let o = run(&[table.to_str().unwrap(), "--qi", "age,zip", "--k", "2", "--node", "age=1", "--threads", threads, "--out", path.to_str().unwrap()]);
        assert!(o.status.success() && stderr(&o).contains("as predicted"), "{}", stderr(&o));
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(path).unwrap();
        text
    };
    let (one, two) = (out("1"), out("2"));
    assert!(one.contains("\n\"seen;\nagain 997\"\n") || one.contains(";\"seen;\nagain 997\"\n"), "{}", &one[..200]);
    assert_eq!(one.len(), two.len());
    assert!(one == two, "the release differs between one thread and two");
    std::fs::remove_file(table).unwrap();
}

#[test]
fn bad_input_names_what_is_wrong_and_bad_usage_exits_2() {
    let table = temp("bad.csv", "c,d\n1,0\n2,1\n3,x\n");
    let path = table.to_str().unwrap();
    let not_nested = temp("not-nested.csv", "1;A;X\n2;A;Y\n3;B;X\n");
    let o = run(&[path, "--qi", "c", "--k", "2", "--hierarchy", &format!("c={}", not_nested.display())]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[ladder_not_nested]") && stderr(&o).contains("at level 1"), "{}", stderr(&o));
    let missing = temp("missing.csv", "1;A\n2;A\n");
    let o = run(&[path, "--qi", "c", "--k", "2", "--hierarchy", &format!("c={}", missing.display())]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[ladder_value_unmapped]") && stderr(&o).contains("\"3\""), "{}", stderr(&o));
    let o = run(&[path, "--qi", "d", "--k", "2", "--bands", "d=10"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[ladder_not_numeric]") && stderr(&o).contains("line 4"), "{}", stderr(&o));
    let o = run(&[path, "--qi", "c", "--k", "2", "--max-nodes", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[too_many_nodes]"), "{}", stderr(&o));
    let o = run(&[path, "--qi", "nope", "--k", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[unknown_column]"), "{}", stderr(&o));
    for usage in [&["--qi", "c", "--bands", "c=x"][..], &["--qi", "c", "--max-suppression", "2"], &["--qi", "c", "--objective", "speed"]] {
        let mut args = vec![path];
        args.extend_from_slice(usage);
        assert_eq!(run(&args).status.code(), Some(2), "{usage:?}");
    }
    for f in [table, not_nested, missing] {
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn a_parquet_file_is_released_as_comma_separated_csv() {
    let parquet = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/e2e/fixtures/formats.parquet");
    let out = std::env::temp_dir().join(format!("pseudolens-protect-{}-parquet-out.csv", std::process::id()));
    let o = run(&[parquet, "--qi", "age,sex", "--k", "2", "--max-suppression", "1", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().next(), Some("age,sex,zip,code,amount,note"), "{written}");
    assert!(stderr(&o).contains("as predicted"), "{}", stderr(&o));
    std::fs::remove_file(out).unwrap();
}
