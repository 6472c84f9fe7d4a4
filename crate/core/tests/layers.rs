//! The core's layers (docs/architecture.md), bottom to top: base helpers -> ingest -> table ->
//! metric families -> config -> audit and report -> the facade in lib.rs. No module imports
//! one above it; the metric families never see the settings or the report.

use std::path::Path;

/// The layer of each top-level module of `src/`.
fn layer(module: &str) -> Option<u8> {
    Some(match module {
        "error" | "hash" | "interval" | "json" | "metric" | "numeric" | "par" | "progress" | "radix" | "rng" | "special" => 0,
        "ingest" => 1,
        "table" => 2,
        "advice" | "attack" | "attribute" | "balance" | "hipaa" | "identity" | "utility" | "verdict" => 3,
        "config" => 4,
        "audit" | "class_part" | "extract" | "report" | "scope" | "shareable" | "sides" | "sample" => 5,
        // contract.rs (a test writing the TypeScript contract) sees everything, as the facade does.
        "lib" | "contract" => 6,
        _ => return None,
    })
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out)
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p)
        }
    }
}

#[test]
fn no_module_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut wrong = Vec::new();
    for path in &all {
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_str().unwrap().trim_end_matches(".rs").to_string();
        let Some(own) = layer(&top) else { panic!("{} is in no layer: add it to layer()", rel.display()) };
        let text = std::fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices("crate::") {
            let name: String = text[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let Some(theirs) = layer(&name) else { continue };
            if theirs > own {
                wrong.push(format!("{} imports crate::{name}", rel.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports that go up a layer:\n{}", wrong.join("\n"));
    assert!(all.len() > 50, "the source files were found");
}
