//! Fuzz target `router`: a set of templates (one per line), NUL, a URI. Routing never panics
//! and agrees with the brute-force reference. See `checks::router`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc6570_fuzz::{checks, template_and_uri};

fuzz_target!(|data: &[u8]| checks::run("router", &template_and_uri(data)));
