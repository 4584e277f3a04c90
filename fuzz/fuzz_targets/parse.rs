//! Fuzz target `parse`: parsing any text never panics, and a parsed
//! template prints as its source. See `checks::parse`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc6570_fuzz::{checks, template};

fuzz_target!(|data: &[u8]| checks::run("parse", &template(data)));
