#![no_main]
//! `schemac_tests::fuzz::template` under libFuzzer.

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzz::template(data));
