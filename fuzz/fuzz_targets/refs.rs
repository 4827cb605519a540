//! Fuzzes the reference notation parser and its format-parse round trip (`wip_refs::fuzz_parse`).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wip_refs::fuzz_parse(data));
