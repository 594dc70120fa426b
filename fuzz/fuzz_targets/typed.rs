#![no_main]
//! `schemac_tests::fuzz::typed` under libFuzzer.

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzz::typed(data));
