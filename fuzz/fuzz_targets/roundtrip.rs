//! Fuzz target `roundtrip`: an expansion matches back, and its captures
//! expand to the same URI. See `checks::roundtrip`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc6570_fuzz::{checks, template_and_vars};

fuzz_target!(|data: &[u8]| checks::run("roundtrip", &template_and_vars(data)));
