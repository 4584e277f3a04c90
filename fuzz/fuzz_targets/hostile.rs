//! Fuzz target `hostile`: a template, NUL, bytes for `rfc6570::testing::fuzz::hostile`. The
//! matcher and a default router give what the hostile URI's label says. See
//! `rfc6570_fuzz::hostile`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rfc6570_fuzz::hostile(data));
