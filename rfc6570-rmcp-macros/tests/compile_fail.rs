//! Mistakes in the use of `#[resource_router]`, `#[resource]` and `#[resource_handler]` that
//! must not compile, each with the message it gets: `tests/ui/<case>.rs` and its `.stderr`.
//! Spellings that must compile are tests of the runtime crate (`tests/it/macro_names.rs`,
//! `tests/it/stacking.rs`): with no case that must pass, trybuild only checks the cases, and
//! builds no code for them or their dependencies.
//!
//! Most messages are the macros' own, and do not change with the toolchain. Four cases carry
//! rustc's text, which does: `parameter_not_deserialize` (E0277 on serde's `Deserialize`),
//! `completer_bad_return`, `handler_bad_return` and `handler_without_router` (E0277 with the
//! crate's `#[diagnostic::on_unimplemented]` messages). Their `.stderr` were written by stable
//! Rust 1.95. After a toolchain update, regenerate them, and read the diff before committing:
//!
//! ```text
//! TRYBUILD=overwrite cargo test -p rfc6570-rmcp-macros --test compile_fail
//! ```

#[test]
fn compile_fail() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
