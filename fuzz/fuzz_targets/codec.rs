//! Fuzzes every decoder of the wire codec and the decode-encode-decode round trip
//! (`wip_model::codec::fuzz_decode`).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wip_model::codec::fuzz_decode(data));
