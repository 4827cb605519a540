//! Fuzzes the call-expression parser of the binding and its print-parse round trip
//! (`wip_tools::binding::fuzz_callexpr`).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wip_tools::binding::fuzz_callexpr(data));
