//! Fuzz target `differential`: expansion agrees with std-uritemplate,
//! bar its documented bugs. See `checks::differential`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc6570_fuzz::{checks, template_and_vars};

fuzz_target!(|data: &[u8]| checks::run("differential", &template_and_vars(data)));
