//! Fuzz target `match_uri`: matching any URI never panics, and the
//! captures serialize. See `checks::match_uri`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc6570_fuzz::{checks, template_and_uri};

fuzz_target!(|data: &[u8]| checks::run("match_uri", &template_and_uri(data)));
