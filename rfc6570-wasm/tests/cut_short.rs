//! A call cut short (in WebAssembly, the module out of memory; here, a panic) leaves the
//! package no stale input buffer. Alone in its test binary: the registers are one set for the
//! process, and the tests of another file, run in parallel, would write them meanwhile.

use rfc6570_wasm::{Template, io};

#[test]
fn a_call_cut_short_leaves_no_input_buffer_to_write_into() {
    let written = io::put("abc");
    assert!(io::capacity() as usize >= written);
    let cut_short = std::panic::catch_unwind(|| io::answer(written, |_, _| panic!("cut short")));
    assert!(cut_short.is_err());
    assert_eq!(io::capacity(), 0, "the package must ask for a buffer again");
    let template = Template::new("{x}", true).unwrap();
    let again = io::read(template.match_input(io::put("abc")));
    assert!(
        matches!(again, Some(Ok(_))),
        "the next call is answered: {again:?}"
    );
    assert!(io::capacity() >= 3);
}
