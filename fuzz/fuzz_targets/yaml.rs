#![no_main]
//! `schemac_tests::fuzz::yaml` under libFuzzer.

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzz::yaml(data));
