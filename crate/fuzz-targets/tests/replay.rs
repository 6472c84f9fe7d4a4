//! Replays the fuzz corpus (`fuzz/corpus/<target>/`) and the saved crashes
//! (`fuzz/regressions/<target>/`) through the targets, on stable Rust, without libFuzzer: the
//! corpus on the path the fuzzer takes, the regressions on every path (`run_full`).
//! An empty or missing corpus folder fails: `scripts/fuzz.sh` keeps one per target.

use std::path::{Path, PathBuf};

use pseudolens_fuzz_targets::{TARGETS, run, run_full};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of a folder (dot files left out), sorted; `None` when it does not exist.
fn inputs(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.is_file() && !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    files.sort();
    Some(files)
}

/// Runs every input of `files` through `target` with `run` (the path the fuzzer takes, or
/// every path); returns the failures, one line each.
fn replay(target: &str, files: &[PathBuf], run: fn(&str, &[u8])) -> Vec<String> {
    let mut failures = Vec::new();
    for file in files {
        let data = std::fs::read(file).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| run(target, &data)) {
            let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            failures.push(format!("{}: {message}", file.display()));
        }
    }
    failures
}

#[test]
fn corpus_replays() {
    let mut failures = Vec::new();
    for target in TARGETS {
        let dir = fuzz_dir().join("corpus").join(target);
        let files = inputs(&dir).unwrap_or_default();
        assert!(!files.is_empty(), "the corpus folder {} is empty or missing; run scripts/fuzz.sh {target}", dir.display());
        failures.extend(replay(target, &files, run));
    }
    assert!(failures.is_empty(), "{} corpus inputs fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn regressions_replay() {
    let mut failures = Vec::new();
    for target in TARGETS {
        let files = inputs(&fuzz_dir().join("regressions").join(target)).unwrap_or_default();
        failures.extend(replay(target, &files, run_full));
    }
    assert!(failures.is_empty(), "{} saved crashes still fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_target_has_a_fuzz_binary() {
    for target in TARGETS {
        let path = fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"));
        assert!(path.is_file(), "{} is missing", path.display());
    }
}
