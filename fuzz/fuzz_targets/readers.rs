#![no_main]
//! `schemac_tests::fuzz::readers` under libFuzzer.

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzz::readers(data));
