#![no_main]
//! `schemac_tests::fuzz::check` under libFuzzer.

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzz::check(data));
