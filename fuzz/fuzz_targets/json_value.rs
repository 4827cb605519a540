//! Fuzzes JSON to Value by descriptor and back, and the wire codec round trip of what is read
//! (`wip_model::fuzzing::fuzz_json_value`).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wip_model::fuzzing::fuzz_json_value(data));
