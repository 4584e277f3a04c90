//! Fuzz target `expand`: expanding any variables never panics, and writes
//! valid URI text or an error at an expression. See `checks::expand`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc6570_fuzz::{checks, template_and_vars};

fuzz_target!(|data: &[u8]| checks::run("expand", &template_and_vars(data)));
