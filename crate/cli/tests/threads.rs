//! `pseudolens audit --threads 1` and `--threads 2` print the same report (issue 11), on files
//! whose cut falls inside quoted fields that span lines, with CRLF, a BOM and blank lines; an
//! error names the same line whatever the threads.

use std::process::Command;

fn run(file: &std::path::Path, threads: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pseudolens"))
        .args(["audit", file.to_str().unwrap(), "--qi", "age,sex", "--sensitive", "diag", "--json", "--threads", threads])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Whether the first line end after `at` is the end of a record (`starts` are the record
/// starts): a reader guessing its start there would guess right.
fn guess_is_right(csv: &[u8], starts: &[usize], at: usize) -> bool {
    let end = at + csv[at..].iter().position(|&b| b == b'\n' || b == b'\r').unwrap();
    let next = if csv[end..].starts_with(b"\r\n") { end + 2 } else { end + 1 };
    starts.binary_search(&next).is_ok()
}

/// A file of about 10 MB (past the size read in parallel) whose bytes are mostly inside
/// quoted fields with line breaks, grown until its middle (where two threads cut it) lands
/// inside one, so that the second thread guesses its first record wrong.
fn file(name: &str, tail: &str) -> std::path::PathBuf {
    let mut csv = String::from("\u{feff}id,age,sex,notes,diag\r\n");
    let mut starts = vec![0];
    let mut s = 17u64;
    for i in 0.. {
        if i >= 120_000 && !guess_is_right(csv.as_bytes(), &starts, (csv.len() + tail.len()) / 2) {
            break;
        }
        starts.push(csv.len());
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let note = format!("seen on day {}\r\nby \"{}\"\nward, bed {}", s % 97, ["A", "B", "C"][(s % 3) as usize], "x".repeat((s % 90) as usize));
        let note = note.replace('"', "\"\"");
        csv.push_str(&format!("{i},{},{},\"{note}\",{}\r\n", 20 + s % 60, ["F", "M"][(s % 2) as usize], ["I10", "E11", "J18"][(s % 3) as usize]));
        if i % 997 == 0 {
            starts.push(csv.len());
            csv.push_str("\r\n");
        }
    }
    csv.push_str(tail);
    let path = std::env::temp_dir().join(format!("pseudolens-threads-{}-{name}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 9 << 20);
    path
}

#[test]
fn threads_give_the_same_report() {
    let path = file("ok", "");
    let (c1, one, _) = run(&path, "1", &[]);
    for threads in ["2", "3", "7"] {
        let (c, many, err) = run(&path, threads, &[]);
        assert_eq!((c1, c), (0, 0), "{err}");
        assert_eq!(one, many, "--threads {threads}");
    }
    let report: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert!(report["input"]["rows_total"].as_u64().unwrap() >= 120_000);
    assert_eq!(report["input"]["bytes"].as_u64(), Some(std::fs::metadata(&path).unwrap().len()));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn threads_name_the_same_line_in_an_error() {
    let path = file("bad", "9,30,F,\"never closed\r\n1,2,3,4,5\r\n");
    let (c1, _, one) = run(&path, "1", &[]);
    let (c2, _, two) = run(&path, "2", &[]);
    assert_eq!((c1, c2), (1, 1));
    assert!(one.contains("unclosed_quote"), "{one}");
    assert_eq!(one, two);
    let (c1, lenient1, _) = run(&path, "1", &["--lenient"]);
    let (c2, lenient2, _) = run(&path, "2", &["--lenient"]);
    assert_eq!((c1, c2), (0, 0));
    assert_eq!(lenient1, lenient2);
    std::fs::remove_file(path).unwrap();
}

/// SUDA's search shares its top-level subtables among the threads: the MSUs, scores and
/// every list of the report are the same for any number of threads.
#[test]
fn suda_is_the_same_on_any_number_of_threads() {
    let mut csv = String::from("a,b,c,d,e\n");
    let mut s = 5u64;
    for _ in 0..20_000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            s % 37,
            (s >> 8) % 11,
            (s >> 16) % 7,
            (s >> 24) % 5,
            if (s >> 32).is_multiple_of(13) { "?".into() } else { ((s >> 40) % 3).to_string() }
        ));
    }
    let path = std::env::temp_dir().join(format!("pseudolens-threads-{}-suda.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    let run = |threads: &str, policy: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_pseudolens"))
            .args(["audit", path.to_str().unwrap(), "--qi", "a,b,c,d,e", "--suda", "--missing", policy, "--json", "--threads", threads])
            .output()
            .unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    for policy in ["ordinary", "wildcard"] {
        let (c1, one, err) = run("1", policy);
        assert_eq!(c1, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&one).unwrap();
        let msus = report["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "suda_msu_records").unwrap()["value"].as_u64();
        assert!(msus.is_some_and(|n| n > 1000), "records with an MSU: {msus:?}");
        for threads in ["2", "3"] {
            let (c, many, err) = run(threads, policy);
            assert_eq!(c, 0, "{err}");
            assert_eq!(one, many, "--threads {threads} --missing {policy}");
        }
    }
    std::fs::remove_file(path).unwrap();
}
