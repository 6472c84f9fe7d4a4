//! Runs one fuzz target on files, for debugging a crash on stable Rust:
//! `cargo run -p pseudolens-fuzz-targets --example replay -- record_count fuzz/regressions/record_count/*`

fn main() {
    let mut args = std::env::args().skip(1);
    let target = args.next().expect("usage: replay TARGET FILE...");
    for file in args {
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        println!("{file} ({} bytes)", data.len());
        if target == "config_json" && serde_json::from_slice::<pseudolens_core::AuditConfig>(&data).is_err() {
            println!("  built configuration: {}", pseudolens_fuzz_targets::config_from_bytes(&data));
        }
        pseudolens_fuzz_targets::run(&target, &data);
        println!("  ok");
    }
}
