//! Runs one fuzz target on files, for debugging a crash on stable Rust:
//! `cargo run -p pseudolens-fuzz-targets --example replay -- record_count fuzz/regressions/record_count/*`
//!
//! `--full` runs every path (as the regression test does); `--time N` runs each file N times
//! and prints the mean time per run, the slowest files first (build with `--release` to
//! profile a target without libFuzzer's instrumentation).

use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let full = take_flag(&mut args, "--full");
    let repeat: Option<u32> = args.iter().position(|a| a == "--time").map(|i| {
        let n = args.get(i + 1).and_then(|n| n.parse().ok()).expect("--time N");
        args.drain(i..i + 2);
        n
    });
    let mut args = args.into_iter();
    let target = args.next().expect("usage: replay [--full] [--time N] TARGET FILE...");
    let run = if full { pseudolens_fuzz_targets::run_full } else { pseudolens_fuzz_targets::run };
    let mut times = Vec::new();
    for file in args {
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        match repeat {
            None => {
                println!("{file} ({} bytes)", data.len());
                if target == "config_json" && serde_json::from_slice::<pseudolens_core::AuditConfig>(&data).is_err() {
                    println!("  built configuration: {}", pseudolens_fuzz_targets::config_from_bytes(&data));
                }
                run(&target, &data);
                println!("  ok");
            }
            Some(n) => {
                let start = Instant::now();
                for _ in 0..n {
                    run(&target, &data);
                }
                times.push((start.elapsed().as_secs_f64() / f64::from(n.max(1)), file, data.len()));
            }
        }
    }
    if !times.is_empty() {
        times.sort_by(|a, b| b.0.total_cmp(&a.0));
        let total: f64 = times.iter().map(|t| t.0).sum();
        for (t, file, len) in &times {
            println!("{:10.1} us  {len:6} bytes  {file}", t * 1e6);
        }
        println!("{} files, mean {:.1} us per run ({:.0} runs/s)", times.len(), total / times.len() as f64 * 1e6, times.len() as f64 / total);
    }
}

fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let found = args.iter().any(|a| a == flag);
    args.retain(|a| a != flag);
    found
}
