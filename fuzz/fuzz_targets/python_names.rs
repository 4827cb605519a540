//! Fuzzes the Python projection's naming rule and the names of generated modules
//! (`wip_tools::binding::python::fuzz_python_names`); that the modules compile is checked by
//! wip-tools' `python_names` test, which runs `py_compile` over many at once.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| wip_tools::binding::python::fuzz_python_names(data));
