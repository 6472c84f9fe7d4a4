#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| pseudolens_fuzz_targets::formats::xlsx_file(data));
